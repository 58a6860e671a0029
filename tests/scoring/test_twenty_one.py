"""Twenty-One (sheet 000, "Other Great Games"): every rule the sheet states, the bad
input the game refuses, and one whole game replayed from tests/scoring/golden."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.faces import CARD_LABELS, parse_faces
from scoring.game import Event, IllegalMove
from scoring.games import new_game
from scoring.replay import replay
from scoring.twenty_one import hand_value
from tests.scoring.golden_logs import golden


def new(players=("Ann", "Bob"), **options):
    return new_game("square-shooters/twenty-one", list(players), options)


def play(game, *moves):
    """Apply moves written as (player, label) for a die rolled to player, or
    (player, "stand")."""
    for player, move in moves:
        if move == "stand":
            game.apply(Event("stand", {}, player))
        else:
            game.apply(Event("roll", {"faces": [move]}, player))
    return game


def value(*labels):
    return hand_value(parse_faces(labels))


# -- card values: "Aces can be counted as either 1 or 11. All face cards count as 10."
def test_an_ace_counts_11_when_that_does_not_bust():
    assert value("AS", "9H") == 20
    assert value("AS", "KD") == 21


def test_an_ace_counts_1_when_11_would_bust():
    assert value("AS", "9H", "5C") == 15
    assert value("AS", "AH") == 12  # one ace 11, the other 1
    assert value("AS", "AH", "AD", "AC", "7S") == 21


def test_face_cards_count_ten_and_other_cards_their_face_value():
    assert value("JS", "QH") == 20
    assert value("KS", "2C") == 12
    assert value("10D", "9C") == 19
    assert value("KS", "QH", "2C") == 22  # bust


def test_a_wild_joker_is_worth_what_its_holder_needs():
    assert value("KS", "JOKER_RED") == 21  # worth 11
    assert value("9S", "5H", "JOKER_BLACK") == 21  # worth 7
    assert value("KS", "QH", "JOKER_RED") == 21  # worth 1
    assert value("KS", "QH", "2C", "JOKER_RED") == 23  # even at 1 it busts
    assert value("JOKER_RED", "JOKER_BLACK") == 21


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.sampled_from(CARD_LABELS + ("JOKER_RED", "JOKER_BLACK")), min_size=1, max_size=9, unique=True)
)
def test_the_value_is_the_best_choice_for_the_holder(labels):
    """Brute force: every ace 1 or 11, every joker 1..11; the best total not over 21,
    else the lowest."""
    totals = {0}
    for face in parse_faces(labels):
        if face.label.startswith("JOKER"):
            choices = range(1, 12)
        elif face.rank == 1:
            choices = (1, 11)
        else:
            choices = (min(int(face.rank), 10),)
        totals = {total + choice for total in totals for choice in choices}
    under = [total for total in totals if total <= 21]
    assert hand_value(parse_faces(labels)) == (max(under) if under else min(totals))


# -- the deal ---------------------------------------------------------------------------
def test_the_dealer_deals_from_their_left_and_to_themselves_last():
    game = new(("Ann", "Bob", "Cy"))
    assert game.details()["dealer"] == "Ann"
    receivers = []
    for label in ("2S", "3S", "4S", "5S", "6S", "7S"):
        receivers.append(game.turn())
        play(game, (game.turn(), label))
    assert receivers == ["Bob", "Cy", "Ann", "Bob", "Cy", "Ann"]
    assert game.details()["hands"]["Bob"]["cards"] == ["2S", "5S"]
    assert game.allowed() == {"Ann": [], "Bob": ["roll", "stand"], "Cy": []}


def test_a_rolled_joker_is_rolled_again():
    game = play(new(), ("Bob", "JOKER_RED"))
    assert game.turn() == "Bob"  # the same die goes to the same player again
    assert game.details()["hands"]["Bob"]["cards"] == []
    assert game.notes[-1] == "Bob rolled a joker: roll that die again"
    play(game, ("Bob", "JOKER_RED"), ("Bob", "9C"))
    assert game.details()["hands"]["Bob"]["cards"] == ["9C"]
    assert game.turn() == "Ann"
    assert game.notes[-1] == "Bob takes 9♣: 9♣ = 9"  # the instruction done, no longer the last word


def test_a_wild_joker_is_kept():
    game = play(new(jokers_wild=True), ("Bob", "JOKER_RED"), ("Ann", "5C"), ("Bob", "KH"))
    assert game.details()["hands"]["Bob"] == {
        "cards": ["JOKER_RED", "KH"],
        "value": 21,
        "bust": False,
        "stood": False,
    }


def test_players_draw_in_order_until_they_stand_bust_or_reach_21():
    game = play(new(), ("Bob", "KS"), ("Ann", "5D"), ("Bob", "6C"), ("Ann", "6D"))
    play(game, ("Bob", "2H"))
    assert game.turn() == "Bob"  # 18: Bob may still draw
    play(game, ("Bob", "9H"))  # 27
    assert game.notes[-1] == "Bob busts: K♠ 6♣ 2♥ 9♥ = 27 (bust)"
    assert game.turn() == "Ann"
    play(game, ("Ann", "QS"))  # 21 ends Ann's turn and, here, the round
    assert game.totals() == {"Ann": 1, "Bob": 0}
    assert game.details()["round"] == 2


def test_the_closest_to_21_without_going_over_wins_the_round():
    game = play(new(), ("Bob", "KS"), ("Ann", "9D"), ("Bob", "8C"), ("Ann", "AD"))
    play(game, ("Bob", "stand"), ("Ann", "stand"))  # 18 against 20
    assert game.totals() == {"Ann": 1, "Bob": 0}


def test_tied_hands_both_win_the_round():
    game = play(new(), ("Bob", "KS"), ("Ann", "QD"), ("Bob", "8C"), ("Ann", "8D"))
    play(game, ("Bob", "stand"), ("Ann", "stand"))
    assert game.totals() == {"Ann": 1, "Bob": 1}
    assert game.notes[-1] == "round 1: Bob and Ann share it with 18"


def test_when_everyone_busts_nobody_wins_the_round():
    game = play(new(), ("Bob", "KS"), ("Ann", "QD"), ("Bob", "8C"), ("Ann", "8D"))
    play(game, ("Bob", "5C"), ("Ann", "9S"))
    assert game.totals() == {"Ann": 0, "Bob": 0}
    assert game.notes[-1] == "round 1: everybody busts, nobody wins the round"


def test_the_deal_moves_left_each_round():
    game = play(new(), ("Bob", "KS"), ("Ann", "QD"), ("Bob", "8C"), ("Ann", "8D"))
    play(game, ("Bob", "stand"), ("Ann", "stand"))
    assert game.details()["dealer"] == "Bob"
    assert game.turn() == "Ann"


def test_a_round_ends_when_all_nine_dice_are_out():
    game = play(
        new(("Ann", "Bob", "Cy")),
        *[("Bob", "AS"), ("Cy", "2S"), ("Ann", "3S"), ("Bob", "AH"), ("Cy", "2H"), ("Ann", "3H")],
    )
    play(game, ("Bob", "2C"), ("Bob", "3C"), ("Bob", "stand"))  # Bob: A A 2 3 = 17
    play(game, ("Cy", "4D"))  # the ninth die: Cy cannot draw again, nor Ann at all
    assert game.notes[-2] == "all 9 dice are out: the round ends"
    assert game.totals() == {"Ann": 0, "Bob": 1, "Cy": 0}  # 17 against Cy's 8 and Ann's 6
    assert game.details()["round"] == 2


def test_the_most_round_wins_takes_the_game():
    game = new(rounds=2)
    play(game, ("Bob", "KS"), ("Ann", "QD"), ("Bob", "9C"), ("Ann", "8D"), ("Bob", "stand"), ("Ann", "stand"))
    play(game, ("Ann", "KS"), ("Bob", "QD"), ("Ann", "8C"), ("Bob", "9D"), ("Ann", "stand"), ("Bob", "stand"))
    assert game.finished()
    assert game.totals() == {"Ann": 0, "Bob": 2}
    assert game.winners() == ["Bob"]
    assert game.turn() is None
    assert game.allowed() == {"Ann": [], "Bob": []}
    with pytest.raises(IllegalMove, match="over"):
        play(game, ("Ann", "2S"))


def test_players_tied_at_the_end_play_another_round_among_themselves():
    game = new(("Ann", "Bob", "Cy"), rounds=1)
    deal = [("Bob", "KS"), ("Cy", "KH"), ("Ann", "5D"), ("Bob", "9S"), ("Cy", "9H"), ("Ann", "6D")]
    play(game, *deal, ("Bob", "stand"), ("Cy", "stand"), ("Ann", "stand"))  # Bob and Cy 19
    assert not game.finished()
    assert game.details()["contenders"] == ["Bob", "Cy"]
    assert game.details()["dealer"] == "Bob"
    assert game.turn() == "Cy"
    play(game, ("Cy", "2S"), ("Bob", "3S"), ("Cy", "2H"), ("Bob", "KD"), ("Cy", "stand"), ("Bob", "stand"))
    assert game.winners() == ["Bob"]
    assert game.totals() == {"Ann": 0, "Bob": 2, "Cy": 1}


def test_a_natural_21_needs_no_decision():
    game = play(new(), ("Bob", "AS"), ("Ann", "5D"), ("Bob", "KH"), ("Ann", "6D"))
    assert game.turn() == "Ann"  # Bob's 21 is made: his turn is over
    play(game, ("Ann", "8S"), ("Ann", "9C"))  # 28: Ann busts
    assert game.totals() == {"Ann": 0, "Bob": 1}


@settings(max_examples=40, deadline=None)
@given(st.data(), st.booleans())
def test_any_legal_play_keeps_the_rules(data, jokers_wild):
    """Random dice and random choices: one player acts at a time, a round never uses
    more than nine dice or a card twice, and every round adds a win unless all bust."""
    game = new(("Ann", "Bob", "Cy"), rounds=2, jokers_wild=jokers_wild)
    for _ in range(60):
        if game.finished():
            break
        player = game.turn()
        acting = [p for p, moves in game.allowed().items() if moves]
        assert acting == [player]
        out = [card for hand in game.details()["hands"].values() for card in hand["cards"]]
        assert len(out) == len(set(out)) <= 9
        if "stand" in game.allowed()[player] and data.draw(st.booleans()):
            play(game, (player, "stand"))
        else:
            fresh = [label for label in CARD_LABELS + ("JOKER_RED", "JOKER_BLACK") if label not in out]
            play(game, (player, data.draw(st.sampled_from(fresh))))
    if game.finished():
        assert len(game.winners()) == 1


# -- bad input -------------------------------------------------------------------------
def test_a_fourth_player_is_refused_with_one_set_of_dice():
    with pytest.raises(IllegalMove, match="1 set of nine dice deals at most 3 players, not 4: play with 2"):
        new(("Ann", "Bob", "Cy", "Dee"))
    with pytest.raises(IllegalMove, match="2 to 12 players"):
        new(("Ann",))


# -- "Or just grab a few more sets of dice and you can have as many players as you like!"
def test_each_more_set_of_dice_deals_three_more_players():
    seven = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus")
    with pytest.raises(IllegalMove, match="2 sets of nine dice deal at most 6 players, not 7: play with 3"):
        new(seven, dice_sets=2)
    game = new(seven, dice_sets=3)
    assert game.details()["dice_left"] == 27
    with pytest.raises(IllegalMove, match="dice_sets must be at most 4"):
        new(seven, dice_sets=5)


def test_with_two_sets_a_card_can_be_out_twice_but_not_three_times():
    game = play(new(("Ann", "Bob", "Cy", "Dee"), dice_sets=2), ("Bob", "KS"), ("Cy", "KS"))
    assert game.details()["hands"]["Cy"]["cards"] == ["KS"]
    with pytest.raises(IllegalMove, match=r"K♠ \(KS\) is already out this round; it is on 2 dice, one a set"):
        play(game, ("Dee", "KS"))


def test_with_two_sets_a_round_ends_when_all_eighteen_dice_are_out():
    """Four players keep taking low cards until the 18 dice of two sets are out."""
    game = new(("Ann", "Bob", "Cy", "Dee"), dice_sets=2)
    low = [f"{rank}{suit}" for rank in ("A", "2", "3") for suit in "SHDC"] + ["4S", "4H", "4D"]
    deal = iter(low + low[:3])  # 18 dice: every card at most twice
    while game.details()["round"] == 1:
        play(game, (game.turn(), next(deal)))
    assert "all 18 dice are out: the round ends" in game.notes


def test_a_die_rolled_to_the_wrong_player_is_refused():
    with pytest.raises(IllegalMove, match="it is Bob's turn, not Ann's"):
        play(new(), ("Ann", "2S"))


def test_a_roll_is_one_die():
    with pytest.raises(IllegalMove, match="1 dice, not 2"):
        new().apply(Event("roll", {"faces": ["2S", "3S"]}, "Bob"))


def test_an_unknown_label_is_refused():
    with pytest.raises(IllegalMove, match="unknown face label"):
        play(new(), ("Bob", "1S"))


def test_a_card_cannot_show_twice_in_a_round():
    with pytest.raises(IllegalMove, match=r"K♠ \(KS\) is already out this round"):
        play(new(), ("Bob", "KS"), ("Ann", "KS"))
    with pytest.raises(IllegalMove, match=r"red joker \(JOKER_RED\) is already out"):
        play(new(jokers_wild=True), ("Bob", "JOKER_RED"), ("Ann", "JOKER_RED"))


def test_standing_before_the_deal_is_done_is_refused():
    with pytest.raises(IllegalMove, match="two dice before anyone stands"):
        play(new(), ("Bob", "KS"), ("Ann", "2S"), ("Bob", "stand"))


def test_a_roll_needs_a_receiver():
    with pytest.raises(IllegalMove, match="roll needs a player"):
        new().apply(Event("roll", {"faces": ["2S"]}))


# -- one whole game ------------------------------------------------------------------
def test_golden_game():
    """tests/scoring/golden/twenty-one.jsonl: Ann, Bob and Cy, two rounds, jokers not wild.

    Round 1, Ann deals (Bob, Cy, Ann): Bob KS 7C = 17 stands; Cy 9H AS = 20 stands; Ann
    5D 6D = 11, rolls a joker (rolled again), then QH = 21.  Ann wins the round.
    Round 2, Bob deals (Cy, Ann, Bob): Cy 10C 3D + 5C = 18 stands; Ann 8S 8H + 9C = 25
    busts; Bob 4H KD + 2S = 16 with the ninth die, which ends the round.  Cy wins it.
    Ann and Cy have one round win each after the two rounds, so they play on.
    Round 3, Cy deals (Ann, Cy; Bob sits out): Ann 10H 10D = 20 stands; Cy JS 7H + 4C = 21.
    Cy wins the game: Ann 1, Bob 0, Cy 2.
    """
    game = replay(golden("twenty-one.jsonl"))
    assert game.finished()
    assert game.totals() == {"Ann": 1, "Bob": 0, "Cy": 2}
    assert game.winners() == ["Cy"]
    assert game.details()["round"] == 3
    assert "all 9 dice are out: the round ends" in game.notes


def test_a_correction_re_derives_the_round():
    events = [
        Event("start", {"game": "square-shooters/twenty-one", "players": ["Ann", "Bob"]}, seq=1),
        Event("roll", {"faces": ["KS"]}, "Bob", seq=2),
        Event("roll", {"faces": ["9D"]}, "Ann", seq=3),
        Event("roll", {"faces": ["8C"]}, "Bob", seq=4),
        Event("roll", {"faces": ["AD"]}, "Ann", seq=5),
    ]
    assert replay(events).details()["hands"]["Ann"]["value"] == 20
    corrected = replay([*events, Event("correct", {"roll": 5, "faces": ["2D"]}, seq=6)])
    assert corrected.details()["hands"]["Ann"]["value"] == 11
    assert corrected.dice_make() == "Bob: K♠ 8♣ = 18; Ann: 9♦ 2♦ = 11"


# -- what a mutation audit found no test would miss ------------------------------
def test_twenty_one_a_wild_joker_is_worth_11_at_most():
    """twenty_one.py `10 * jokers` -> `11 * jokers`: a joker then fills a gap of 11 (worth
    12).  RULES.md Twenty-One: a wild joker "is worth what its holder chooses";
    docs/rules-other-games.md: "worth whatever is best for its holder, 1 to 11"."""
    assert value("JOKER_RED") == 11
    assert value("2C", "JOKER_RED") == 13  # 2 + 11, not 14


def test_twenty_one_nobody_stands_until_everyone_has_two_dice():
    """twenty_one.py any -> all in dealing(): once one player had two dice, the next
    could stand on one.  Sheet 000 (read back to front): one die to each player, then
    "another die to each player. After each player has two dice, they can each decide";
    docs/rules-other-games.md: "`stand` is refused before the second die"."""
    with pytest.raises(IllegalMove, match="two dice before anyone stands"):
        play(new(), ("Bob", "KS"), ("Ann", "2S"), ("Bob", "9H"), ("Ann", "stand"))


def test_twenty_one_plays_five_rounds_by_default():
    """twenty_one.py `rounds` default 5 -> 4 or 6 (docs/rules-other-games.md: `rounds`
    (default 5)): Bob wins every round and the game ends after the fifth, not before."""
    game = new()
    for round_number in (1, 2, 3, 4, 5):
        assert not game.finished()
        assert game.details()["round"] == round_number
        hands = {"Bob": ("KS", "QH"), "Ann": ("2S", "KD")}  # 20 against 12
        order = ("Bob", "Ann") if round_number % 2 else ("Ann", "Bob")  # the deal moves left
        play(game, *[(player, hands[player][0]) for player in order])
        play(game, *[(player, hands[player][1]) for player in order])
        play(game, *[(player, "stand") for player in order])
    assert game.finished()
