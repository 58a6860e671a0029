"""Showdown, versions 1 and 2 (sheet 000, "Other Great Games"): the round, the Figure 1
ranking with Five and Six of a Kind on top, version 2's roll limit, ties, bad input, and
one whole game of each version replayed from tests/scoring/golden."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.faces import SQUARE_SHOOTERS
from scoring.game import Event, IllegalMove
from scoring.games import new_game
from scoring.hands import best_hand
from scoring.replay import replay
from tests.scoring.golden_logs import golden

NINE_DICE = st.lists(st.sampled_from(SQUARE_SHOOTERS.labels), min_size=9, max_size=9, unique=True)

ROYAL_SPADES = "AS KS QS JS 10S 2H 4D 6C 8H"
ROYAL_HEARTS = "AH KH QH JH 10H 3S 5C 7D 9D"
FIVE_ACES = "AS AH AD AC JOKER_RED 3C 5D 7H 9S"
SIX_SEVENS = "7S 7H 7D 7C JOKER_RED JOKER_BLACK 2C 9D KH"
FULL_HOUSE = "JS JH JD 2C 2D 4S 6H 8C 10D"  # Jacks over 2s
STRAIGHT = "3S 4H 5D 6C 7S 9H JC KD QH"  # 7 high
PAIR = "2S 2H 5C 8D JC 3H 6D 9C KH"
TRIPS = "2S 2H 2D 7C 9H JS QD 4C 6S"


def new(version=1, players=("Ann", "Bob"), **options):
    return new_game(f"square-shooters/showdown-v{version}", list(players), options)


def roll(game, player, faces, held=""):
    data = {"faces": faces.split()}
    if held:
        data["held"] = held.split()
    game.apply(Event("roll", data, player))
    return game


def stop(game, player):
    game.apply(Event("stop", {}, player))
    return game


def one_roll_each(game, *rolls):
    """Every player in turn rolls once and stops."""
    for faces in rolls:
        player = game.turn()
        stop(roll(game, player, faces), player)
    return game


# -- the hands: "ranked according to Figure 1", Five and Six of a Kind above it ------
def test_the_best_hand_of_the_round_wins_it():
    game = one_roll_each(new(), FULL_HOUSE, ROYAL_SPADES)
    assert game.totals() == {"Ann": 0, "Bob": 1}
    assert game.finished()
    assert game.winners() == ["Bob"]


def test_a_straight_beats_a_full_house_as_in_figure_1():
    game = one_roll_each(new(), FULL_HOUSE, STRAIGHT)
    assert game.winners() == ["Bob"]


def test_five_of_a_kind_beats_every_figure_1_hand():
    game = one_roll_each(new(), FIVE_ACES, ROYAL_SPADES)
    assert game.winners() == ["Ann"]
    assert "Five of a Kind" in game.notes[0]


def test_six_of_a_kind_beats_five_of_a_kind():
    game = one_roll_each(new(), FIVE_ACES, SIX_SEVENS)
    assert game.winners() == ["Bob"]


def test_without_wild_jokers_four_aces_and_a_joker_are_four_of_a_kind():
    game = one_roll_each(new(jokers_wild=False), FIVE_ACES, ROYAL_SPADES)
    assert game.winners() == ["Bob"]
    assert game.notes[0].startswith("Ann: Four of a Kind")


def test_at_most_five_of_the_nine_dice_make_the_hand():
    game = roll(new(), "Ann", ROYAL_SPADES)
    assert game.dice_make().startswith("Royal Flush")
    assert game.roll_number() == 1


def test_equal_best_hands_both_score_the_round():
    game = one_roll_each(new(players=("Ann", "Bob", "Cy"), rounds=2), ROYAL_SPADES, ROYAL_HEARTS, PAIR)
    assert game.totals() == {"Ann": 1, "Bob": 1, "Cy": 0}
    assert game.notes[-1] == "round 1: Ann and Bob share it with equal best hands"


# -- turns and rounds ------------------------------------------------------------------
def test_a_turn_is_one_to_three_rolls():
    game = roll(new(), "Ann", PAIR)
    assert game.allowed() == {"Ann": ["roll", "stop"], "Bob": []}
    roll(game, "Ann", TRIPS, held="2S 2H")
    assert game.roll_number() == 2
    roll(game, "Ann", FULL_HOUSE)
    assert game.turn() == "Bob"  # three rolls end the turn
    assert game.details()["hands"] == {"Ann": "Full House, Jacks over 2s"}
    assert game.allowed() == {"Ann": [], "Bob": ["roll"]}


def test_the_first_player_moves_left_each_round():
    game = one_roll_each(new(players=("Ann", "Bob", "Cy"), rounds=3), PAIR, TRIPS, STRAIGHT)
    assert game.details()["order"] == ["Bob", "Cy", "Ann"]
    one_roll_each(game, PAIR, TRIPS, STRAIGHT)
    assert game.details()["order"] == ["Cy", "Ann", "Bob"]
    one_roll_each(game, PAIR, TRIPS, STRAIGHT)  # straights for Cy, Ann, then Bob
    assert game.totals() == {"Ann": 1, "Bob": 1, "Cy": 1}
    assert not game.finished()


def test_players_tied_after_the_last_round_play_on_among_themselves():
    game = one_roll_each(new(players=("Ann", "Bob", "Cy")), ROYAL_SPADES, PAIR, ROYAL_HEARTS)
    assert not game.finished()
    assert game.details()["contenders"] == ["Ann", "Cy"]
    assert game.details()["order"] == ["Cy", "Ann"]  # Bob would start round 2; he sits out
    one_roll_each(game, TRIPS, STRAIGHT)
    assert game.finished()
    assert game.winners() == ["Ann"]
    assert game.totals() == {"Ann": 2, "Bob": 0, "Cy": 1}


def test_version_1_lets_everyone_take_three_rolls():
    game = one_roll_each(new(1), PAIR)
    roll(roll(game, "Bob", PAIR), "Bob", TRIPS)
    assert game.turn() == "Bob"


def test_version_2_limits_the_others_to_the_first_players_rolls():
    game = stop(roll(new(2, ("Ann", "Bob", "Cy")), "Ann", PAIR), "Ann")
    assert game.notes[-1] == "Ann used 1 roll: nobody else may use more"
    assert game.roll_limit() == 1
    roll(game, "Bob", TRIPS)
    assert game.turn() == "Cy"  # Bob's one roll was his last
    with pytest.raises(IllegalMove, match="it is Cy's turn, not Bob's"):
        roll(game, "Bob", STRAIGHT)


def test_version_2_others_may_stop_before_the_limit():
    game = roll(roll(new(2), "Ann", PAIR), "Ann", TRIPS)
    stop(game, "Ann")
    assert game.roll_limit() == 2
    stop(roll(game, "Bob", STRAIGHT), "Bob")
    assert game.winners() == ["Bob"]


def test_version_2_after_three_rolls_the_others_get_three():
    game = roll(roll(roll(new(2), "Ann", PAIR), "Ann", PAIR), "Ann", PAIR)
    assert game.roll_limit() == 3
    roll(roll(game, "Bob", PAIR), "Bob", PAIR)
    assert game.turn() == "Bob"


def test_version_2_the_limit_is_set_afresh_each_round():
    game = new(2, rounds=2)
    stop(roll(game, "Ann", PAIR), "Ann")
    roll(game, "Bob", STRAIGHT)
    assert game.details()["order"] == ["Bob", "Ann"]
    assert game.roll_limit() == 3


@settings(max_examples=30, deadline=None)
@given(st.data(), st.sampled_from([1, 2]))
def test_any_legal_play_keeps_the_rules(data, version):
    """Random rolls and random stops: one player acts at a time, nobody in version 2
    outrolls the round's first player, and each round's point goes to its best hands."""
    game = new(version, ("Ann", "Bob", "Cy"), rounds=2)
    rolls: dict[str, list[str]] = {}  # this round: each player's rolls, as labels
    while not game.finished() and game.details()["round"] <= 4:
        player, before = game.turn(), game.totals()
        round_number, order = game.details()["round"], game.details()["order"]
        assert [p for p, moves in game.allowed().items() if moves] == [player]
        if "stop" in game.allowed()[player] and data.draw(st.booleans()):
            stop(game, player)
        else:
            nine = data.draw(NINE_DICE)
            roll(game, player, " ".join(nine))
            rolls.setdefault(player, []).append(nine)
        if game.finished() or game.details()["round"] != round_number:
            if version == 2:
                assert all(len(made) <= len(rolls[order[0]]) for made in rolls.values())
            hands = {p: best_hand(made[-1]) for p, made in rolls.items()}
            best = max(hands.values())
            gained = {p: game.totals()[p] - before[p] for p in order}
            assert gained == {p: int(hands[p] == best) for p in order}
            rolls = {}


# -- bad input -------------------------------------------------------------------------
def test_rolling_out_of_turn_is_refused():
    with pytest.raises(IllegalMove, match="it is Ann's turn, not Bob's"):
        roll(new(), "Bob", PAIR)


def test_a_roll_is_nine_known_dice_each_card_once():
    with pytest.raises(IllegalMove, match="9 dice, not 8"):
        roll(new(), "Ann", "AS KS QS JS 10S 2H 4D 6C")
    with pytest.raises(IllegalMove, match="unknown face label"):
        roll(new(), "Ann", "AS KS QS JS 10S 2H 4D 6C 1C")
    with pytest.raises(IllegalMove, match=r"A♠ \(AS\) shows twice"):
        roll(new(), "Ann", "AS KS QS JS 10S 2H 4D 6C AS")


def test_stopping_before_rolling_is_refused():
    with pytest.raises(IllegalMove, match="roll at least once"):
        stop(new(), "Ann")


def test_held_dice_must_have_shown_and_still_show():
    game = roll(new(), "Ann", PAIR)
    with pytest.raises(IllegalMove, match="AS was not showing"):
        roll(game, "Ann", ROYAL_SPADES, held="AS")
    with pytest.raises(IllegalMove, match="2S was held, so it must still show"):
        roll(game, "Ann", ROYAL_SPADES, held="2S")


def test_moves_after_the_end_are_refused():
    game = one_roll_each(new(), FULL_HOUSE, STRAIGHT)
    with pytest.raises(IllegalMove, match="over"):
        roll(game, "Ann", PAIR)


def test_a_correction_re_derives_the_round():
    events = [
        Event("start", {"game": "square-shooters/showdown-v1", "players": ["Ann", "Bob"]}, seq=1),
        Event("roll", {"faces": FULL_HOUSE.split()}, "Ann", seq=2),
        Event("stop", {}, "Ann", seq=3),
        Event("roll", {"faces": STRAIGHT.split()}, "Bob", seq=4),
        Event("stop", {}, "Bob", seq=5),
    ]
    assert replay(events).winners() == ["Bob"]
    correction = Event("correct", {"roll": 2, "faces": FIVE_ACES.split()}, seq=6)
    assert replay([*events, correction]).winners() == ["Ann"]


# -- whole games -----------------------------------------------------------------------
def test_golden_game_version_1():
    """tests/scoring/golden/showdown-v1.jsonl: Ann, Bob and Cy, two rounds, jokers wild.

    Round 1 (Ann, Bob, Cy): Ann stops on a Full House, Jacks over 2s; Bob holds 3-7 and
    improves to a 9-high Straight, which beats the Full House (Figure 1); Cy rolls four
    aces and a joker, Five of a Kind, and takes the round.  Cy 1.
    Round 2 (Bob, Cy, Ann): Bob rolls a Royal Flush in spades; Cy builds Four of a Kind
    (2s) over three rolls; Ann rolls a Royal Flush in hearts: equal to Bob's, so both
    score.  Ann 1, Bob 1, Cy 1: all tied after the last round, so all play round 3.
    Round 3 (Cy, Ann, Bob): a pair of Kings, three Queens, then Bob's Full House, 4s
    over 9s.  Bob wins the game 2 to 1 and 1.
    """
    game = replay(golden("showdown-v1.jsonl"))
    assert game.finished()
    assert game.totals() == {"Ann": 1, "Bob": 2, "Cy": 1}
    assert game.winners() == ["Bob"]
    assert game.details()["round"] == 3


def test_golden_game_version_2():
    """tests/scoring/golden/showdown-v2.jsonl: Ann and Bob, two rounds, jokers wild.

    Round 1: Ann holds a pair of 2s, makes three 2s on her second roll and stops, so Bob
    gets two rolls: a pair of 3s, then a 9-high Straight Flush.  Bob 1.
    Round 2: Bob stops after one roll on three Kings, so Ann gets one roll: Five of a
    Kind, aces.  Ann 1.  Tied after the last round: round 3.
    Round 3 (Ann first): Ann uses all three rolls for Four of a Kind, 4s; Bob may use
    three too, and stops on his second with Four of a Kind, 7s.  Bob wins 2 to 1.
    """
    game = replay(golden("showdown-v2.jsonl"))
    assert game.finished()
    assert game.totals() == {"Ann": 1, "Bob": 2}
    assert game.winners() == ["Bob"]
    assert game.details()["round"] == 3
