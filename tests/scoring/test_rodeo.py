import random

import pytest

from scoring.faces import Rank, Suit, parse_faces
from scoring.game import Event, IllegalMove
from scoring.replay import replay
from scoring.rodeo import GOAL_KINDS, RodeoRummy, Spinner, default_spinner, score_turn
from tests.scoring.golden_logs import golden

SPINNER = default_spinner()


def score(dice, goal, effect="none"):
    """The turn score of the dice showing (a string of labels) for a goal and an effect."""
    return score_turn(parse_faces(dice.split()), SPINNER.goal(goal), SPINNER.effect(effect))


def spin(player, goal, effect=None):
    return Event("spin", {"goal": goal} if effect is None else {"goal": goal, "effect": effect}, player)


def roll(player, dice, held=""):
    return Event("roll", {"faces": dice.split(), **({"held": held.split()} if held else {})}, player)


def physical(players=("Ana", "Bo"), **options):
    return RodeoRummy(list(players), {"spinner": "physical", **options})


def rejected(g, event, match):
    """The game refuses ``event`` with a message matching ``match`` and changes nothing."""
    before = g.view()
    with pytest.raises(IllegalMove, match=match):
        g.apply(event)
    assert g.view() == before


# -- the spinner -----------------------------------------------------------------------------
def test_the_default_spinner_has_goals_of_the_four_kinds_each_with_an_effect():
    assert {goal.kind for goal in SPINNER.goals} == set(GOAL_KINDS)
    assert {goal.label for goal in SPINNER.goals} >= {"A's & K's", "Hearts Run", "4,5,6 Run", "4's"}
    labels = {effect.label for effect in SPINNER.effects.values()}
    assert {"+5 per heart showing", "-5 per club on the last roll", "7's and 8's are wild"} <= labels
    assert all(goal.effect in SPINNER.effects for goal in SPINNER.goals)


def test_a_malformed_spinner_is_named():
    with pytest.raises(ValueError, match="names no known effect 'sparkle'"):
        Spinner.from_data(
            {
                "effects": [{"id": "none", "label": "none"}],
                "goals": [{"id": "g", "label": "G", "kind": "sets", "ranks": ["A"], "effect": "sparkle"}],
            }
        )
    with pytest.raises(ValueError, match="malformed"):
        Spinner.from_data({"goals": []})
    with pytest.raises(ValueError, match="a suit-run goal needs suit"):
        Spinner.from_data(
            {
                "effects": [{"id": "none", "label": "none"}],
                "goals": [{"id": "g", "label": "G", "kind": "suit-run", "effect": "none"}],
            }
        )


# -- the sheet's worked examples -----------------------------------------------------------------
def test_a_minus_20_round_is_scored_0():
    # Goal a diamond run, -5 per club on the last roll; no run, 4 clubs: -20, written as 0.
    scored = score("2C 5C 9C KC AS 3H 7D JD 4S", "diamonds-run", "minus-5-per-club-last-roll")
    assert (scored.melds.points, scored.bonus, scored.points) == (0, -20, 0)


def test_aces_and_kings_scores_with_three_kings_alone():
    assert score("KS KH KD 2C 3C 5D 9D JH QS", "aces-kings").points == 30
    assert score("KS KH KD AS AH AD 2C 3C 9D", "aces-kings").points == 30 + 45


def test_sets_of_other_ranks_do_not_meet_a_sets_goal():
    assert score("QS QH QD 2C 3C 5D 9D JH 4S", "aces-kings").points == 0


def test_fours_in_a_set_and_or_run():
    # The sheet's example: 4 of clubs, hearts and spades, and also 3, 4, 5 of diamonds.
    assert score("4C 4H 4S 3D 4D 5D KC QC 8H", "4s").points == 15 + 15
    assert score("4C 4H 4S 2D 7D 9D KC QC 8H", "4s").points == 15
    assert score("3D 4D 5D 2C 7C 9H KC QS 8H", "4s").points == 15
    assert score("3D 5D 6D 7D 2C 9H KC QS 8H", "4s").points == 0  # a run without a 4


def test_a_run_containing_4_5_6_may_hold_more_ranks():
    assert score("2S 3S 4S 5S 6S 9H KC QD 8H", "4-5-6-run", "none").points == 25
    assert score("3S 4S 5S 9H KC QD 8H 2C 10D", "4-5-6-run", "none").points == 0
    # "... but remember that a run must contain cards of the same suit."
    assert score("4S 5H 6D 2C 9C KC QD 8H 10S", "4-5-6-run", "none").points == 0
    assert score("4H 5H 6H 2C 9C KC QD 8S 10S", "4-5-6-run", "none").points == 15


def test_a_suit_run_goal_counts_only_that_suits_runs():
    assert score("9H 10H JH QH KH AH 2S 3S 4S", "hearts-run").points == 5 + 40 + 15
    assert score("2S 3S 4S 9H 10H 5D KC QD 8C", "hearts-run").points == 0


def test_rummy_point_values():
    assert score("QS KS AS 2C 3C 5D 9D JH 4H", "spades-run", "none").points == 10 + 10 + 15  # ace high
    assert score("AS 2S 3S 5C 9C 5D 9D JH 4H", "spades-run", "none").points == 5 + 5 + 5  # ace low


def test_jokers_are_always_wild_and_score_as_the_card_they_stand_for():
    assert score("KS KH JOKER_RED 2C 3C 5D 9D JH QS", "aces-kings").points == 30


def test_sevens_and_eights_are_wild_only_when_the_effect_says_so():
    dice = "KS KH 7C 8D 2C 3C 5D 9D JH"
    assert score(dice, "aces-kings", "none").points == 0
    assert score(dice, "aces-kings", "sevens-eights-wild").points == 40  # K K + two wild kings


def test_bonuses_count_the_dice_showing():
    assert score("KS KH KD 2H 3C 5D 9D JH QS", "aces-kings", "plus-5-per-heart").bonus == 15
    assert score("KS KH KD 2H 3C 5D 9D JOKER_RED QS", "aces-kings", "plus-10-per-joker").bonus == 10
    assert score("KS KH KD KC 3C 5D 9D JH QS", "aces-kings", "plus-5-per-king").points == 40 + 20


# -- the turn -------------------------------------------------------------------------------------
def test_three_rolls_with_holds_then_the_next_player():
    g = physical()
    assert g.allowed() == {"Ana": ["spin"], "Bo": []}
    rejected(g, roll("Ana", "AS AH 5C 6D 7S 8H 9C 10D JS"), "spins before rolling")
    g.apply(spin("Ana", "aces-kings"))
    g.apply(roll("Ana", "AS AH 5C 6D 7S 8H 9C 10D JS"))
    assert (g.roll_number(), g.allowed()["Ana"]) == (1, ["roll", "stop"])
    rejected(g, roll("Ana", "AS AD KS KH KD 2C 3C 9D 4H", "AS AH"), "AH was held, so it must still show")
    rejected(g, roll("Ana", "AS AH AD KS 2C 3C 4D 5S", "AS"), "9 dice, not 8")
    g.apply(roll("Ana", "AS AH AD KS 2C 3C 4D 5S 6H", "AS AH"))
    assert g.dice_make().startswith("A's & K's: ")
    g.apply(roll("Ana", "AS AH AD KS KH KD 2C 3C 9D", "AS AH AD KS"))
    assert g.totals() == {"Ana": 45 + 30 + 10, "Bo": 0}
    assert g.dice_make() == (
        "A's & K's: Set of Aces: A♠ A♥ A♦ (45); Set of Kings: K♠ K♥ K♦ (30) = 75; "
        "+5 per heart showing: +10; scores 85"
    )  # the dice stay on the table until Bo rolls
    assert g.turn() == "Bo"
    assert g.allowed() == {"Ana": [], "Bo": ["spin"]}


def test_stop_ends_the_turn_with_the_dice_showing():
    g = physical()
    rejected(g, Event("stop", {}, "Ana"), "spins before rolling|roll at least once")
    g.apply(spin("Ana", "4s"))
    rejected(g, Event("stop", {}, "Ana"), "roll at least once")
    g.apply(roll("Ana", "4C 4H 4S 3D 4D 5D KC QC 8H"))
    g.apply(Event("stop", {}, "Ana"))
    assert g.totals()["Ana"] == 30 - 5
    assert g.notes[-1].startswith("Ana: 4's: ")


def test_a_physical_spin_is_checked_against_the_spinner():
    g = physical()
    rejected(g, spin("Ana", "royal-flush"), "no goal 'royal-flush'")
    rejected(g, spin("Ana", "aces-kings", "none"), "pairs A's & K's with \\+5 per heart showing")
    rejected(g, spin("Bo", "aces-kings"), "Ana's turn")
    g.apply(spin("Ana", "aces-kings"))
    assert g.details()["effect"] == "+5 per heart showing"
    rejected(g, spin("Ana", "4s"), "spun already")


def test_spin_twice_lets_goal_and_effect_differ():
    g = physical(spin_twice=True)
    g.apply(spin("Ana", "aces-kings", "minus-5-per-club-last-roll"))
    assert (g.details()["goal"], g.details()["effect"]) == ("A's & K's", "-5 per club on the last roll")
    rejected(physical(spin_twice=True), spin("Ana", "aces-kings", "sparkle"), "no effect 'sparkle'")


def test_no_bonus_turns_every_effect_off():
    g = physical(no_bonus=True)
    rejected(g, spin("Ana", "aces-kings", "plus-5-per-heart"), "without bonuses or penalties")
    g.apply(spin("Ana", "diamonds-run"))
    g.apply(roll("Ana", "2C 5C 9C KC AS 3H 7D JD 4S"))
    assert g.details()["effect"] == "no bonus or penalty"


def test_free_play_has_no_spinner_and_any_sets_and_runs_score():
    """The sheet's free play: three rolls a turn, the best sets and runs, no spinner."""
    g = RodeoRummy(["Ana", "Bo"], {"spinner": "none", "winning_score": 40})
    assert g.allowed()["Ana"] == ["roll"]
    assert g.random_event(random.Random(0)) is None
    rejected(g, spin("Ana", "aces-kings"), "free play has no spinner")
    g.apply(roll("Ana", "7S 7H 7D 10H JH QH 2C 4D 9S"))
    g.apply(Event("stop", {}, "Ana"))
    assert g.totals() == {"Ana": 45, "Bo": 0}  # Rodeo's points: 7s 5 each, 10 J Q 10 each
    assert g.notes[-1] == (
        "Ana: Free play (any sets and runs): Run of hearts: 10♥ J♥ Q♥ (30); Set of 7s: 7♠ 7♥ 7♦ (15)"
        " = 45; scores 45; 45 in all"
    )
    g.apply(roll("Bo", "2C 3C 5D 8S 9H JS QD KC AH"))
    g.apply(Event("stop", {}, "Bo"))
    assert (g.finished(), g.winners()) == (True, ["Ana"])


@pytest.mark.parametrize(("wild", "points"), [(True, 15), (False, 0)])
def test_free_play_players_decide_whether_jokers_are_wild(wild, points):
    g = RodeoRummy(["Ana", "Bo"], {"spinner": "none", "free_play_jokers_wild": wild})
    g.apply(roll("Ana", "7S 7H JOKER_RED 2C 4D 9S KH 3C 5D"))
    g.apply(Event("stop", {}, "Ana"))
    assert g.totals()["Ana"] == points


def test_the_virtual_spinner_draws_the_spin_as_an_event():
    rng = random.Random(7)
    g = RodeoRummy(["Ana", "Bo"])
    event = g.random_event(rng)
    goal = SPINNER.goal(event.data["goal"])
    assert (event.type, event.player, event.auto) == ("spin", "Ana", True)
    assert event.data["effect"] == goal.effect
    g.apply(event)
    assert g.random_event(rng) is None  # no second spin in a turn
    assert physical().random_event(rng) is None
    effects = {
        RodeoRummy(["Ana", "Bo"], {"spin_twice": True}).random_event(rng).data["effect"] for _ in range(50)
    }
    assert len(effects) > 1
    assert RodeoRummy(["Ana", "Bo"], {"no_bonus": True}).random_event(rng).data["effect"] == "none"


# -- the end ----------------------------------------------------------------------------------------
def test_the_game_ends_after_the_round_in_which_someone_reaches_the_winning_score():
    g = physical(winning_score=50)
    for event in (
        spin("Ana", "aces-kings"),
        roll("Ana", "KS KH KD AS AH AD 2C 3C 9D"),
        Event("stop", {}, "Ana"),
    ):
        g.apply(event)
    assert g.totals()["Ana"] == 85 and not g.finished()  # Bo still plays this round
    g.apply(spin("Bo", "hearts-run"))
    g.apply(roll("Bo", "9H 10H JH 2S 3S 4S 5D 6D 7C"))
    g.apply(Event("stop", {}, "Bo"))
    assert g.finished()
    assert g.winners() == ["Ana"]
    assert g.allowed() == {"Ana": [], "Bo": []}


def test_reaching_exactly_250_ends_the_game_after_the_round():
    """Sheet 001: the game ends after a round in which "a player reaches 250 points or more"."""
    g = physical()
    for goal, dice in (
        ("aces-kings", "AS AH AD AC KS KH KD KC 2H"),  # AAAA 60 + KKKK 40 + 3 hearts 15 = 115
        ("hearts-run", "9H 10H JH QH KH AH 2S 3S 4S"),  # 9-A of hearts: 60
        ("aces-kings", "AS AC AD KS KC KD 2C 3C 9D"),  # AAA 45 + KKK 30, no hearts: 75
    ):
        assert not g.finished()
        g.apply(spin("Ana", goal))
        g.apply(roll("Ana", dice))
        g.apply(Event("stop", {}, "Ana"))
        g.apply(spin("Bo", "hearts-run"))
        g.apply(roll("Bo", "2S 3S 4S 9H 10H 5D KC QD 8C"))
        g.apply(Event("stop", {}, "Bo"))
    assert g.totals() == {"Ana": 250, "Bo": 0}
    assert g.finished()
    assert g.winners() == ["Ana"]
    assert g.notes[-1] == "Ana wins with 250"


def test_players_tied_at_the_top_play_more_rounds_alone():
    g = physical(("Ana", "Bo", "Cy"), winning_score=20)
    for player in ("Ana", "Bo"):
        g.apply(spin(player, "aces-kings"))
        g.apply(roll(player, "KS KH KD 2C 3C 5D 9D JC QS"))
        g.apply(Event("stop", {}, player))
    g.apply(spin("Cy", "hearts-run"))
    g.apply(roll("Cy", "2S 3S 4S 9H 10H 5D KC QD 8C"))
    g.apply(Event("stop", {}, "Cy"))
    assert g.totals() == {"Ana": 35, "Bo": 35, "Cy": 0}  # K K K and a heart
    assert not g.finished()
    assert g.details()["contenders"] == ["Ana", "Bo"]
    assert g.notes[-1] == "Ana and Bo are tied at 35: they play another round"
    g.apply(spin("Ana", "hearts-run"))
    g.apply(roll("Ana", "2S 3S 4S 9H 10H 5D KC QD 8C"))
    g.apply(Event("stop", {}, "Ana"))
    assert g.turn() == "Bo"
    g.apply(spin("Bo", "aces-kings"))
    g.apply(roll("Bo", "KS KH KD 2C 3C 5D 9D JC QS"))
    g.apply(Event("stop", {}, "Bo"))
    assert g.finished()
    assert g.winners() == ["Bo"]


def test_golden_game():
    """Ana, Bo, Cy, the default spinner (virtual spins recorded in the log), 250 to win.

    Round 1: Ana A's & K's (+5/heart), AAA 45 + KKK 30 + 2 hearts 10 = 85.
             Bo Spades Run (+5/king), a misread QH corrected to QS: 9S-AS 60 + 4 kings 20 = 80.
             Cy 4's (-5/spade): 4C 4H 4S 15 + 3D 4D 5D 15 - 4S 5 = 25.
    Round 2: Ana Diamonds Run (-5/club): no run, 4 clubs: -20, scored 0.
             Bo 10's (+5/diamond): 10S 10H 10C 30 + 9D-QD 35 + 4 diamonds 20 = 85.
             Cy Hearts Run: 9H-AH = 60.
    Round 3: Ana Hearts Run: 60.  Bo Q's & J's (-5/club): QQQQ 40 + JJ+joker 30 - QC 5 = 65.
             Cy Diamonds Run: a stop is undone (with Ana's spin after it); after three rolls
             no run and 4 clubs: 0.
    Round 4: Ana A's & K's: AAAA 60 + KK+2 jokers 40 + 3 hearts 15 = 115.
             Bo 4,5,6 Run (7s and 8s wild): 4S 5S 6S + 7H, 8C, joker as three more spades
             = 6 x 5 = 30.  Cy A's & K's: 85.
             Ana 85+0+60+115 = 260, Bo 80+85+65+30 = 260, Cy 25+60+0+85 = 170: a tie at 260.
    Round 5 (Ana and Bo): Ana 4's: 25 (285).  Bo 7's (-10/joker): 7777 with the joker 20 - 10
             = 10 (270).  Ana wins.
    """
    g = replay(golden("rodeo-rummy.jsonl"))
    by_round = {}
    for entry in g.rounds:
        by_round.setdefault(entry["player"], []).append(entry["score"])
    assert by_round == {"Ana": [85, 0, 60, 115, 25], "Bo": [80, 85, 65, 30, 10], "Cy": [25, 60, 0, 85]}
    assert g.totals() == {"Ana": 285, "Bo": 270, "Cy": 170}
    assert g.finished()
    assert g.winners() == ["Ana"]


# -- what a mutation audit found no test would miss ------------------------------
def test_rodeo_free_play_jokers_are_wild_by_default():
    """rodeo.py free_play_jokers_wild default True->False.  RULES.md Rodeo: "Jokers are
    always wild"; docs/rules-rodeo-cubes-shooter-squib.md: free play "jokers are wild unless
    `free_play_jokers_wild` is off"."""
    g = RodeoRummy(["Ana", "Bo"], {"spinner": "none"})
    g.apply(roll("Ana", "7S 7H JOKER_RED 2C 4D 9S KH 3C 5D"))
    g.apply(Event("stop", {}, "Ana"))
    assert g.totals()["Ana"] == 15  # 7 7 and the joker as a third 7: 3 x 5


def test_rodeo_spin_twice_spins_the_inner_ring_on_its_own():
    """rodeo.py `elif self.options["spin_twice"]` dropped: every virtual spin then gives
    the goal's own effect.  Sheet 001, Other Play Options: "spin the spinner twice on each
    turn: once to assign your rummy task, and once to assign your bonus or penalty"."""
    rng = random.Random(3)
    spins = [RodeoRummy(["Ana", "Bo"], {"spin_twice": True}).random_event(rng).data for _ in range(30)]
    assert any(spin["effect"] != SPINNER.goal(spin["goal"]).effect for spin in spins)


def test_rodeo_takes_two_players_or_more():
    """rodeo.py min_players 2->1.  Sheet 001: "2 or More Players"."""
    with pytest.raises(IllegalMove, match="2 to 10 players"):
        RodeoRummy(["Ana"])


SUIT_NAMES = {"Hearts": "H", "Diamonds": "D", "Spades": "S", "Clubs": "C"}


def test_rodeo_each_default_goal_is_what_its_label_says():
    """A goal's ranks, suit or kind changed in the data file (e.g. "4,5,6 Run" holding 5 5 6,
    "Diamonds Run" of clubs, "Q's & J's" read as a rank goal) passed every test.  Sheet 001:
    "A's & K's" means sets of Aces and Kings; "Hearts Run" any run of hearts; "4,5,6 Run" a
    run containing a 4, 5 and 6; "4's" a set and/or run holding a 4."""
    for goal in SPINNER.goals:
        words = goal.label.removesuffix(" Run")
        if words in SUIT_NAMES:
            assert (goal.kind, goal.suit) == ("suit-run", Suit.parse(SUIT_NAMES[words])), goal
            continue
        ranks = {Rank.parse(word.removesuffix("'s")) for word in words.replace(" & ", ",").split(",")}
        kind = "run-with" if goal.label.endswith(" Run") else "sets" if "&" in goal.label else "rank"
        assert (goal.kind, set(goal.ranks)) == (kind, ranks), goal


def test_rodeo_eights_are_wild_under_sevens_and_eights_wild():
    """The effect's "wild" list changed from 7, 8 to 7, 9 in the data file: its label still
    said "7's and 8's are wild".  Sheet 001: "When 7's or 8's are used as wild cards"."""
    assert score("AS AH 8C 2D 4S 6H 10C JD QS", "aces-kings", "sevens-eights-wild").points == 45
