"""Rummy, free play (sheet 000, "Other Great Games"): the sheet's point values and
examples, three rolls with holds, the winning score, bad input, and one whole game
replayed from tests/scoring/golden."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.faces import SQUARE_SHOOTERS
from scoring.game import Event, IllegalMove
from scoring.games import new_game
from scoring.melds import best_melds
from scoring.replay import replay
from tests.scoring.golden_logs import golden

NINE_DICE = st.lists(st.sampled_from(SQUARE_SHOOTERS.labels), min_size=9, max_size=9, unique=True)

# Nine-die rolls; the cards after the meld under test form no set or run.
AKQ = "AS KS QS 2H 5D 8C 4H 7D 10C"  # run, ace high: 15 + 10 + 10
A23 = "AH 2H 3H 5S 8D JC 7S 10D KC"  # run, ace low: 1 + 2 + 3
SEVENS = "7S 7H 7D 2C 5H 9S JD 4C KH"  # set: 7 + 7 + 7
ACES = "AS AH AD AC 3C 6H 9S QD 5D"  # set: 15 x 4
EIGHT_TO_TEN = "8H 9H 10H 2S 5C JD 4S 7C KD"  # run: 8 + 9 + 10
SEVENS_AND_AKQ = "7S 7H 7D AS KS QS 2C 5H 9D"  # 21 + 35
NOTHING = "2C 4C 6C 8D 10D QD 3S 5S 7H"
TWO_SEVENS_AND_A_JOKER = "7S 7H JOKER_RED 2C 5D 9C JH 4C KD"  # no 9S: 7S-8S-9S would beat 777


def new(players=("Ann", "Bob"), **options):
    return new_game("square-shooters/rummy", list(players), options)


def roll(game, player, faces, held=""):
    data = {"faces": faces.split()}
    if held:
        data["held"] = held.split()
    game.apply(Event("roll", data, player))
    return game


def stop(game, player):
    game.apply(Event("stop", {}, player))
    return game


def score(faces, **options):
    """What one roll scores, as a turn that stops on it."""
    game = stop(roll(new(**options), "Ann", faces), "Ann")
    return game.totals()["Ann"]


# -- the sheet's point values ------------------------------------------------------------
@pytest.mark.parametrize(
    ("faces", "points"),
    [
        (AKQ, 35),  # "A = 15 points ... at the high end of a run (Example: AKQ)"; K-Q = 10
        (A23, 6),  # "A = 1 Point when used at the low end of a run (Example: A, 2, 3)"
        (SEVENS, 21),  # a set: "777"
        (ACES, 60),  # "AAAA": an ace in a set is 15
        (EIGHT_TO_TEN, 27),  # "10=10, 9=9, 8=8 points"
        (SEVENS_AND_AKQ, 56),  # any combination of sets and runs
        (NOTHING, 0),  # "dice [that] might not fit into a set or a run ... are not counted"
    ],
)
def test_the_sheets_point_values(faces, points):
    assert score(faces) == points


def test_the_boxs_check_of_a_full_set_is_a_roll_that_scores():
    """Contents: "You can easily make sure you have a full deck by turning the dice so you
    can see all 4 aces, all 4 kings, and the black joker": nine faces on nine dice, so one
    roll.  AAAA (60) and KKKK (40); with the joker wild, A-K-Q of clubs (35) beats the
    fourth ace and king: AAA 45 + KKK 30 + 35."""
    check = "AS AH AD AC KS KH KD KC JOKER_BLACK"
    assert score(check, jokers_wild=False) == 100
    assert score(check) == 110


def test_jokers_are_wild_unless_the_players_say_not():
    assert score(TWO_SEVENS_AND_A_JOKER) == 21
    assert score(TWO_SEVENS_AND_A_JOKER, jokers_wild=False) == 0


# -- turns and the end of the game ---------------------------------------------------------
def test_each_player_rolls_up_to_three_times_setting_dice_aside():
    game = roll(new(), "Ann", NOTHING)
    assert game.allowed() == {"Ann": ["roll", "stop"], "Bob": []}
    assert game.dice_make().endswith("= 0 points")
    roll(game, "Ann", "7S 7H 2C 4C 6C 8D 10D QD 3S", held="2C 4C 6C")
    assert game.roll_number() == 2
    roll(game, "Ann", SEVENS_AND_AKQ, held="7S 7H")
    assert game.totals() == {"Ann": 56, "Bob": 0}  # the third roll ends the turn
    assert game.turn() == "Bob"
    assert game.roll_number() is None  # Bob has not rolled...
    assert game.dice_make().endswith("= 56 points")  # ...and Ann's dice are still on the table


def test_a_player_may_stop_early_and_the_dice_showing_count():
    game = stop(roll(new(), "Ann", ACES), "Ann")
    assert game.totals() == {"Ann": 60, "Bob": 0}
    assert game.notes[-1].startswith("Ann scores 60")
    assert game.turn() == "Bob"


def test_the_round_is_finished_after_someone_reaches_the_winning_score():
    game = stop(roll(new(winning_score=50), "Ann", SEVENS_AND_AKQ), "Ann")
    assert not game.finished()  # Bob still has his turn
    stop(roll(game, "Bob", AKQ), "Bob")
    assert game.finished()
    assert game.winners() == ["Ann"]
    assert game.totals() == {"Ann": 56, "Bob": 35}
    assert game.allowed() == {"Ann": [], "Bob": []}


def test_a_total_of_exactly_100_ends_the_game_after_the_round():
    game = stop(roll(new(), "Ann", ACES), "Ann")  # 60
    stop(roll(game, "Bob", NOTHING), "Bob")
    assert not game.finished()
    nearly = stop(roll(stop(roll(new(), "Ann", ACES), "Ann"), "Bob", NOTHING), "Bob")
    stop(roll(nearly, "Ann", "9S 10S JS QS 2H 5D 8C 4H 7D"), "Ann")  # run 9-Q: 39, so 99 in all
    stop(roll(nearly, "Bob", NOTHING), "Bob")
    assert nearly.totals() == {"Ann": 99, "Bob": 0} and not nearly.finished()  # 100 is the default
    stop(roll(game, "Ann", "10S JS QS KS 2H 5D 8C 4H 7D"), "Ann")  # run 10-K: 40, so 100 in all
    stop(roll(game, "Bob", NOTHING), "Bob")
    assert game.totals() == {"Ann": 100, "Bob": 0}
    assert game.finished()
    assert game.winners() == ["Ann"]


def test_a_later_player_can_overtake_in_the_last_round():
    game = stop(roll(new(winning_score=50), "Ann", SEVENS_AND_AKQ), "Ann")
    stop(roll(game, "Bob", ACES), "Bob")
    assert game.winners() == ["Bob"]


def test_a_tie_at_the_top_plays_another_round():
    game = stop(roll(new(("Ann", "Bob", "Cy"), winning_score=50), "Ann", ACES), "Ann")
    stop(roll(game, "Bob", ACES), "Bob")
    stop(roll(game, "Cy", NOTHING), "Cy")
    assert not game.finished()
    assert game.notes[-1] == "Ann and Bob are tied at 60: everyone plays another round"
    assert game.details()["round"] == 2
    for player, faces in (("Ann", A23), ("Bob", NOTHING), ("Cy", NOTHING)):
        stop(roll(game, player, faces), player)
    assert game.winners() == ["Ann"]
    assert game.totals() == {"Ann": 66, "Bob": 60, "Cy": 0}


def test_a_single_player_plays_to_the_winning_score():
    game = stop(roll(new(("Ann",), winning_score=60), "Ann", SEVENS_AND_AKQ), "Ann")
    assert game.turn() == "Ann" and game.roll_number() is None  # her dice show; her new turn has no roll yet
    stop(roll(game, "Ann", SEVENS), "Ann")
    assert game.winners() == ["Ann"]


@settings(max_examples=25, deadline=None)
@given(st.data(), st.booleans())
def test_any_legal_play_keeps_the_score(data, jokers_wild):
    """Random rolls and stops: each total is the sum of its turns' best melds, every
    player has had the same number of turns when the game ends, and the winner is alone
    at the top, at or over the winning score."""
    game = new(("Ann", "Bob"), winning_score=40, jokers_wild=jokers_wild)
    expected = {"Ann": 0, "Bob": 0}
    turns = {"Ann": 0, "Bob": 0}
    last: list[str] = []
    for _ in range(30):
        if game.finished():
            break
        player = game.turn()
        if "stop" in game.allowed()[player] and data.draw(st.booleans()):
            stop(game, player)
        else:
            last = data.draw(NINE_DICE)
            roll(game, player, " ".join(last))
        if game.turn() != player or game.finished():  # the turn is over: its last roll counts
            expected[player] += best_melds(last, jokers_wild=jokers_wild).points
            turns[player] += 1
        assert game.totals() == expected
    if game.finished():
        assert turns["Ann"] == turns["Bob"]
        (winner,) = game.winners()
        assert expected[winner] >= 40 and expected[winner] > min(expected.values())


# -- bad input --------------------------------------------------------------------------
def test_rolling_out_of_turn_is_refused():
    with pytest.raises(IllegalMove, match="it is Ann's turn, not Bob's"):
        roll(new(), "Bob", ACES)


def test_a_roll_is_nine_known_dice_each_card_once():
    with pytest.raises(IllegalMove, match="9 dice, not 10"):
        roll(new(), "Ann", ACES + " KS")
    with pytest.raises(IllegalMove, match="unknown face label"):
        roll(new(), "Ann", "AS AH AD AC 3C 6H 9S QD 11D")
    with pytest.raises(IllegalMove, match=r"A♠ \(AS\) shows twice"):
        roll(new(), "Ann", "AS AH AD AC 3C 6H 9S QD AS")


def test_stopping_before_rolling_is_refused():
    with pytest.raises(IllegalMove, match="roll at least once"):
        stop(new(), "Ann")


def test_held_dice_must_have_shown():
    with pytest.raises(IllegalMove, match="KS was not showing"):
        roll(roll(new(), "Ann", ACES), "Ann", AKQ, held="KS")


def test_bad_options_are_refused():
    with pytest.raises(IllegalMove, match="winning_score must be at least 1"):
        new(winning_score=0)
    with pytest.raises(IllegalMove, match="jokers_wild must be true or false"):
        new(jokers_wild="yes")


def test_a_correction_re_derives_the_score():
    events = [
        Event("start", {"game": "square-shooters/rummy", "players": ["Ann", "Bob"]}, seq=1),
        Event("roll", {"faces": ACES.split()}, "Ann", seq=2),
        Event("stop", {}, "Ann", seq=3),
    ]
    assert replay(events).totals()["Ann"] == 60
    correction = Event("correct", {"roll": 2, "faces": SEVENS.split()}, seq=4)
    assert replay([*events, correction]).totals()["Ann"] == 21


# -- one whole game ---------------------------------------------------------------------
def test_golden_game():
    """tests/scoring/golden/rummy.jsonl: Ann and Bob play to 60, jokers wild.

    Round 1: Ann rolls nothing, holds 7S 7H and rolls 777 plus A-K-Q of spades: 21 + 35
    = 56, and stops.  Bob rolls A-2-3 of hearts (6), holds them and rolls A-2-3-4-5 of
    hearts, a joker and three 9s: the joker as the fourth 9 (36) beats it as 6H (a run to
    6 and three 9s make 48), so 15 + 36 = 51; he stops.  Nobody has 60: play on.
    Round 2: Ann rolls 8-9-10 of hearts (27), holds them, adds JH (37) and keeps 8-J for
    her third roll: 37, total 93.  Ann has passed 60, but the round is finished first:
    Bob rolls four aces (60) and stops: 111.  Bob wins, 111 to 93.
    """
    game = replay(golden("rummy.jsonl"))
    assert game.finished()
    assert game.totals() == {"Ann": 93, "Bob": 111}
    assert game.winners() == ["Bob"]
