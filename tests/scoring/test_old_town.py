"""Old Town Shootout (sheet 000, "Fun With Both the Dice and Playing Cards"): discards,
joker gifts, "roped back in", the end of the game, bad input, and one whole game
replayed from tests/scoring/golden."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.faces import SQUARE_SHOOTERS
from scoring.game import Event, IllegalMove
from scoring.games import new_game
from scoring.replay import replay
from tests.scoring.golden_logs import golden

HANDS = {
    "Ann": ["AS", "2S", "3S", "4S", "5S"],
    "Bob": ["AH", "2H", "3H", "4H", "5H"],
    "Cy": ["AD", "2D", "3D", "4D", "5D"],
}
FILLER = ["KC", "QC", "JC", "10C", "9C", "8C", "7C", "6C", "5C"]  # nobody holds a club


def roll_of(*shown):
    """Nine faces: those named, then clubs nobody holds."""
    return list(shown) + [label for label in FILLER if label not in shown][: 9 - len(shown)]


def dealt(players=("Ann", "Bob", "Cy")):
    game = new_game("square-shooters/old-town", list(players))
    for player in players:
        game.apply(Event("deal", {"cards": HANDS[player]}, player))
    return game


def roll(game, player, *shown):
    game.apply(Event("roll", {"faces": roll_of(*shown)}, player))
    return game


def give(game, player, card, to):
    game.apply(Event("give", {"card": card, "to": to}, player))
    return game


def hand(game, player):
    return game.details()["hands"][player]


# -- the rules ----------------------------------------------------------------------------
def test_every_player_enters_five_cards_before_the_first_roll():
    game = new_game("square-shooters/old-town", ["Ann", "Bob"])
    assert game.allowed() == {"Ann": ["deal"], "Bob": ["deal"]}
    assert game.turn() is None
    assert game.totals() == {"Ann": 5, "Bob": 5}
    game.apply(Event("deal", {"cards": HANDS["Bob"]}, "Bob"))
    with pytest.raises(IllegalMove, match="waiting for Ann"):
        roll(game, "Ann")
    game.apply(Event("deal", {"cards": HANDS["Ann"]}, "Ann"))
    assert game.turn() == "Ann"
    assert game.allowed() == {"Ann": ["roll"], "Bob": []}


def test_cards_matched_by_the_dice_are_discarded():
    game = roll(dealt(), "Ann", "2S", "5S", "AH")  # AH is Bob's: only the roller discards
    assert hand(game, "Ann") == ["AS", "3S", "4S"]
    assert hand(game, "Bob") == HANDS["Bob"]
    assert game.totals() == {"Ann": 3, "Bob": 5, "Cy": 5}
    assert game.notes[-1] == "Ann discards 2♠ 5♠ (3 left)"
    assert game.dice_make() == "Ann's roll matches 2♠ 5♠"
    assert game.turn() == "Bob"


def test_a_rolled_joker_lets_the_roller_give_a_card_away():
    game = roll(dealt(), "Ann", "AS", "JOKER_BLACK")
    assert game.turn() == "Ann"
    assert game.allowed()["Ann"] == ["give", "pass"]
    give(game, "Ann", "5S", "Cy")
    assert hand(game, "Ann") == ["2S", "3S", "4S"]
    assert hand(game, "Cy") == HANDS["Cy"] + ["5S"]
    assert game.totals() == {"Ann": 3, "Bob": 5, "Cy": 6}
    assert game.turn() == "Bob"


def test_two_jokers_give_two_gifts_and_a_gift_may_be_passed():
    game = roll(dealt(), "Ann", "JOKER_BLACK", "JOKER_RED")
    game.apply(Event("pass", {}, "Ann"))
    assert game.turn() == "Ann"
    give(game, "Ann", "AS", "Bob")
    assert game.totals() == {"Ann": 4, "Bob": 6, "Cy": 5}
    assert game.turn() == "Bob"


def test_a_roller_without_cards_has_nothing_to_give():
    game = roll(dealt(("Ann", "Bob")), "Ann", *HANDS["Ann"], "JOKER_RED")
    assert game.totals()["Ann"] == 0
    assert game.turn() == "Bob"  # the joker lapses


def test_giving_away_the_last_card_ends_the_gifts():
    game = roll(dealt(("Ann", "Bob")), "Ann", "AS", "2S", "3S", "4S", "JOKER_RED", "JOKER_BLACK")
    give(game, "Ann", "5S", "Bob")
    assert game.totals() == {"Ann": 0, "Bob": 6}
    assert game.turn() == "Bob"


def test_the_game_ends_when_a_round_is_complete_and_someone_is_out():
    game = roll(dealt(), "Ann")
    roll(game, "Bob", *HANDS["Bob"])
    assert game.totals()["Bob"] == 0
    assert not game.finished()  # Cy still rolls this round
    roll(game, "Cy", "AD")
    assert game.finished()
    assert game.winners() == ["Bob"]
    assert game.turn() is None
    assert game.notes[-1] == "round 1 is over: Bob shot out every card and wins"


def test_winners_are_the_players_with_no_cards_not_the_highest_total():
    game = roll(dealt(("Ann", "Bob")), "Ann", *HANDS["Ann"])
    roll(game, "Bob", *HANDS["Bob"][:4])
    assert game.totals() == {"Ann": 0, "Bob": 1}
    assert game.winners() == ["Ann"]


def test_everyone_out_at_the_end_of_the_round_wins():
    game = roll(dealt(("Ann", "Bob")), "Ann", *HANDS["Ann"])
    roll(game, "Bob", *HANDS["Bob"])
    assert game.winners() == ["Ann", "Bob"]


def test_a_player_who_shot_out_is_roped_back_in_by_a_joker_before_the_round_ends():
    game = roll(dealt(), "Ann")
    roll(game, "Bob", *HANDS["Bob"])
    roll(game, "Cy", "JOKER_RED")
    give(game, "Cy", "AD", "Bob")
    assert game.notes[-1] == "Cy gives A♦ to Bob, roping them back in"
    assert not game.finished()
    assert game.totals() == {"Ann": 5, "Bob": 1, "Cy": 4}
    assert game.details()["round"] == 2
    assert game.turn() == "Ann"


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_cards_are_conserved_and_never_held_twice(data):
    game = dealt()
    discarded = 0
    while not game.finished() and game.details()["round"] <= 6:
        player = game.turn()
        before = sum(game.totals().values())
        faces = data.draw(
            st.lists(st.sampled_from(SQUARE_SHOOTERS.labels), min_size=9, max_size=9, unique=True)
        )
        game.apply(Event("roll", {"faces": faces}, player))
        discarded += before - sum(game.totals().values())
        while game.turn() == player and game.details()["gifts_left"]:
            to = data.draw(st.sampled_from([p for p in game.players if p != player] + [None]))
            if to is None:
                game.apply(Event("pass", {}, player))
            else:
                give(game, player, data.draw(st.sampled_from(hand(game, player))), to)
        held = [card for cards in game.details()["hands"].values() for card in cards]
        assert len(held) == len(set(held))
        assert len(held) + discarded == 15
    if game.finished():
        assert game.winners() == [p for p, left in game.totals().items() if left == 0]


# -- bad input --------------------------------------------------------------------------
def test_a_hand_is_five_cards_of_one_deck_without_jokers():
    game = new_game("square-shooters/old-town", ["Ann", "Bob"])
    with pytest.raises(IllegalMove, match="5 cards, not 4"):
        game.apply(Event("deal", {"cards": ["AS", "2S", "3S", "4S"]}, "Ann"))
    with pytest.raises(IllegalMove, match="not a card of a standard deck"):
        game.apply(Event("deal", {"cards": ["AS", "2S", "3S", "4S", "JOKER_RED"]}, "Ann"))
    with pytest.raises(IllegalMove, match="unknown face label"):
        game.apply(Event("deal", {"cards": ["AS", "2S", "3S", "4S", "1S"]}, "Ann"))
    with pytest.raises(IllegalMove, match="AS was dealt twice"):
        game.apply(Event("deal", {"cards": ["AS", "2S", "3S", "4S", "AS"]}, "Ann"))
    game.apply(Event("deal", {"cards": HANDS["Ann"]}, "Ann"))
    with pytest.raises(IllegalMove, match="3S was dealt twice"):
        game.apply(Event("deal", {"cards": ["AH", "2H", "3S", "4H", "5H"]}, "Bob"))
    with pytest.raises(IllegalMove, match="already dealt"):
        game.apply(Event("deal", {"cards": HANDS["Cy"]}, "Ann"))


def test_too_many_players_for_one_deck():
    with pytest.raises(IllegalMove, match="2 to 10 players"):
        new_game("square-shooters/old-town", [f"P{n}" for n in range(11)])


def test_rolling_out_of_turn_is_refused():
    with pytest.raises(IllegalMove, match="it is Ann's turn, not Bob's"):
        roll(dealt(), "Bob")


def test_a_roll_is_all_nine_dice_each_card_once():
    game = dealt()
    with pytest.raises(IllegalMove, match="9 dice, not 8"):
        game.apply(Event("roll", {"faces": FILLER[:8]}, "Ann"))
    with pytest.raises(IllegalMove, match=r"K♣ \(KC\) shows twice"):
        game.apply(Event("roll", {"faces": FILLER[:8] + ["KC"]}, "Ann"))
    with pytest.raises(IllegalMove, match="unknown face label"):
        game.apply(Event("roll", {"faces": FILLER[:8] + ["ZZ"]}, "Ann"))


def test_gifts_must_follow_the_rules():
    game = dealt()
    with pytest.raises(IllegalMove, match="no joker to use"):
        give(game, "Ann", "AS", "Bob")
    roll(game, "Ann", "AS", "JOKER_RED")
    with pytest.raises(IllegalMove, match="first gives a card or passes"):
        roll(game, "Ann")
    with pytest.raises(IllegalMove, match="does not hold AS"):
        give(game, "Ann", "AS", "Bob")  # discarded already
    with pytest.raises(IllegalMove, match="does not hold AH"):
        give(game, "Ann", "AH", "Bob")
    with pytest.raises(IllegalMove, match="another player"):
        give(game, "Ann", "2S", "Ann")
    with pytest.raises(IllegalMove, match="'Dee' is not playing"):
        give(game, "Ann", "2S", "Dee")
    with pytest.raises(IllegalMove, match="it is Ann's turn"):
        give(game, "Bob", "AH", "Ann")


def test_a_correction_re_derives_the_discards():
    start = Event("start", {"game": "square-shooters/old-town", "players": ["Ann", "Bob"]}, seq=1)
    events = [
        start,
        Event("deal", {"cards": HANDS["Ann"]}, "Ann", seq=2),
        Event("deal", {"cards": HANDS["Bob"]}, "Bob", seq=3),
        Event("roll", {"faces": roll_of("AS")}, "Ann", seq=4),
    ]
    assert replay(events).totals()["Ann"] == 4
    correction = Event("correct", {"roll": 4, "faces": roll_of("AS", "2S", "3S")}, seq=5)
    assert replay([*events, correction]).totals()["Ann"] == 2


# -- one whole game ---------------------------------------------------------------------
def test_golden_game():
    """tests/scoring/golden/old-town.jsonl: Ann holds AS-5S, Bob AH-5H, Cy AD-5D.

    Round 1: Ann rolls AS 2S and a joker: discards AS 2S, gives 5S to Bob (Ann 2 left,
    Bob 6).  Bob rolls AH 2H 3H 4H 5S: 1 left (5H).  Cy rolls AD 2D: 3 left.
    Round 2: Ann rolls 3S and a joker: 1 left (4S), passes.  Bob rolls 5H and a joker:
    out of cards, so the joker lapses.  Cy rolls 3D and both jokers: gives 4D to Bob,
    roping him back in, and passes the other (Cy 1 left: 5D).  Nobody is out: play on.
    Round 3: Ann rolls 4S: out.  Bob rolls nothing he holds: 1 left.  Cy rolls 5D and a
    joker: out, nothing left to give.  The round is complete: Ann and Cy win.
    """
    game = replay(golden("old-town.jsonl"))
    assert game.finished()
    assert game.totals() == {"Ann": 0, "Bob": 1, "Cy": 0}
    assert game.winners() == ["Ann", "Cy"]
    assert hand(game, "Bob") == ["4D"]
    assert "Cy gives 4♦ to Bob, roping them back in" in game.notes


# -- what a mutation audit found no test would miss ------------------------------
def test_old_town_a_card_that_is_not_a_label_is_refused():
    """old_town.py `not isinstance(label, str)` dropped: a deal holding a number crashed
    (AttributeError) instead of being refused."""
    game = new_game("square-shooters/old-town", ["Ann", "Bob"])
    with pytest.raises(IllegalMove, match="a card must be a label"):
        game.apply(Event("deal", {"cards": ["AS", "2S", "3S", "4S", 5]}, "Ann"))


def test_old_town_nobody_wins_before_the_round_is_complete():
    """old_town.py `if not self.over` dropped: a player out of cards mid-round (or every
    player before the deal) was listed as a winner, and the board marks view["winners"].
    Sheet 000: "The game is over when a round is completed and at least one player is out
    of cards" ("might get roped back into the game")."""
    assert new_game("square-shooters/old-town", ["Ann", "Bob"]).winners() == []
    game = roll(dealt(("Ann", "Bob")), "Ann", *HANDS["Ann"])
    assert game.totals()["Ann"] == 0 and not game.finished()
    assert game.winners() == []
