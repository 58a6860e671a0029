"""The Classic Square Shooters game, the Fun Variation and Square Shootout (sheet 000).

Every worked example and numeric rule of the sheet is a test here; the rules themselves
are in docs/rules-square-shooters.md.  Most tests enter physical cards, so that the
target of each turn is plain to read; the virtual deck has tests of its own.
"""

import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dicescore.ledger import Ledger, connect
from scoring.faces import SQUARE_SHOOTERS
from scoring.game import Event, IllegalMove
from scoring.games import GAMES, new_game
from scoring.hands import HAND_KINDS, TARGET_KINDS, best_hand
from scoring.replay import replay
from scoring.square_shooters import Award
from scoring.targets import SHOOTOUT_KINDS, TargetCard, standard_deck
from tests.scoring.golden_logs import golden

# Rolls used throughout, nine dice each.  JUNK makes nothing: nine ranks with no five in
# a row (5 and 10 missing) and at most three cards of a suit.
JUNK = ["AS", "2H", "3D", "4C", "6S", "7H", "8D", "9C", "JS"]
FOUR_ACES = ["AS", "AH", "AD", "AC", "2H", "3D", "6S", "8C", "JH"]
FOUR_TENS = ["10S", "10H", "10D", "10C", "2H", "3D", "6S", "8C", "JH"]
THREE_ACES_AND_A_JOKER = ["AS", "AH", "AD", "JOKER_RED", "2H", "3D", "6S", "8C", "JH"]
THREE_ACES = ["AS", "AH", "AD", "2H", "3D", "6S", "8C", "JH", "KC"]
TWO_PAIRS = ["KS", "KD", "5H", "5C", "AS", "2H", "7D", "9C", "JS"]  # kings and fives

FOUR_ACES_CARD = {"kind": "four_of_a_kind", "cards": ["AS", "AH", "AD", "AC"], "chips": 16}
FULL_HOUSE_CARD = {"kind": "full_house", "cards": ["JS", "JH", "JD", "2C", "2S"], "chips": 8}
TWO_PAIRS_CARD = {"kind": "two_pairs", "cards": ["AS", "AD", "8C", "8H"], "chips": 4}
STRAIGHT_CARD = {"kind": "straight", "cards": ["6H", "7C", "8D", "9S", "10H"], "chips": 10}


def draw(player, card):
    return Event("draw", {"card": card}, player)


def shootout(player, kind):
    return draw(player, {"shootout": kind})


def roll(player, faces, held=None):
    return Event("roll", {"faces": list(faces), **({"held": held} if held else {})}, player)


def stop(player):
    return Event("stop", {}, player)


def play(player, kind):
    return Event("play", {"card": kind}, player)


def challenge(player, opponent):
    return Event("challenge", {"opponent": opponent}, player)


CLASSIC, FUN, SHOOTOUT = "square-shooters/classic", "square-shooters/fun", "square-shooters/shootout"


def game(*events, name=CLASSIC, players=("Ana", "Bo", "Cy"), **options):
    """A game after ``events``; Classic and Fun games take physical cards."""
    if name != SHOOTOUT:
        options = {"deck": "physical", **options}
    started = new_game(name, list(players), options)
    for event in events:
        started.apply(event)
    return started


def turn(player, card, *rolls):
    """One target turn: draw ``card``, roll each of ``rolls``, stop (when under three rolls)."""
    events = [draw(player, card), *(roll(player, faces) for faces in rolls)]
    return events + [stop(player)] if len(rolls) < 3 else events


def blank_turn(player):
    return turn(player, TWO_PAIRS_CARD, JUNK)


def conserved(g):
    return sum(g.totals().values()) == g.bank_paid and min(g.totals().values()) >= 0


# -- the deck ----------------------------------------------------------------------------
def test_the_deck_has_34_target_cards_and_8_shootout_cards():
    deck = standard_deck()
    targets = [card for card in deck.cards if isinstance(card, TargetCard)]
    assert len(deck.cards) == 42 and len(targets) == 34
    assert Counter(card.kind for card in targets) == {
        "two_pairs": 5,
        "full_house": 5,
        "straight": 5,
        "flush": 5,
        "four_of_a_kind": 5,
        "straight_flush": 5,
        "royal_flush": 4,
    }
    shootouts = [card.kind for card in deck.cards if not isinstance(card, TargetCard)]
    assert Counter(shootouts) == dict.fromkeys(SHOOTOUT_KINDS, 2)
    royal_suits = {card.target.cards[0].suit for card in targets if card.kind == "royal_flush"}
    assert len(royal_suits) == 4


def test_each_target_card_shows_its_own_hand_and_the_default_chips():
    chips = {
        "two_pairs": 4,
        "full_house": 8,
        "straight": 10,
        "flush": 12,
        "four_of_a_kind": 16,
        "straight_flush": 20,
        "royal_flush": 30,
    }
    for card in standard_deck().cards:
        if isinstance(card, TargetCard):
            labels = [c.label for c in card.target.cards]
            assert len(labels) == (4 if card.kind in ("two_pairs", "four_of_a_kind") else 5)
            assert len(set(labels)) == len(labels)
            assert best_hand(labels, jokers_wild=False).kind == card.kind, card.id
            assert card.target.chips == chips[card.kind]


def test_the_target_kinds_follow_the_hand_order_of_figure_1():
    assert [kind for kind in HAND_KINDS if kind in TARGET_KINDS] == list(TARGET_KINDS)


def test_the_games_are_registered():
    for name in (CLASSIC, FUN, SHOOTOUT):
        assert GAMES[name].name == name and GAMES[name].die_kind == "square-shooters"


# -- two ways to win chips, and the bonus ----------------------------------------------------
def test_four_tens_on_a_four_aces_card_win_half_the_chips():
    # The sheet: "if the target hand is Four of a Kind and shows four aces, the player
    # could roll four 10's ... and they win one-half the total chips indicated."
    g = game(*turn("Ana", FOUR_ACES_CARD, JUNK, FOUR_TENS))
    assert g.totals()["Ana"] == 8


def test_half_the_chips_are_rounded_up():
    odd = {**STRAIGHT_CARD, "chips": 7}
    g = game(*turn("Ana", odd, ["5C", "6D", "7S", "8H", "9H", "AS", "2H", "JC", "KD"]))
    assert g.totals()["Ana"] == 4


def test_the_exact_hand_in_fewer_than_three_rolls_wins_the_chips_and_a_bonus():
    assert game(*turn("Ana", FOUR_ACES_CARD, FOUR_ACES)).totals()["Ana"] == 16 + 5
    assert game(*turn("Ana", FOUR_ACES_CARD, JUNK, FOUR_ACES)).totals()["Ana"] == 16 + 5


def test_the_exact_hand_on_the_third_roll_wins_no_bonus():
    assert game(*turn("Ana", FOUR_ACES_CARD, JUNK, JUNK, FOUR_ACES)).totals()["Ana"] == 16


def test_no_bonus_when_a_joker_completes_the_hand():
    g = game(*turn("Ana", FOUR_ACES_CARD, THREE_ACES_AND_A_JOKER))
    assert g.totals()["Ana"] == 16


def test_jokers_can_be_excluded():
    g = game(*turn("Ana", FOUR_ACES_CARD, THREE_ACES_AND_A_JOKER), jokers_wild=False)
    assert g.totals()["Ana"] == 0


def test_no_chips_without_the_hand_or_its_type():
    g = game(*turn("Ana", FOUR_ACES_CARD, JUNK, JUNK, TWO_PAIRS))
    assert g.totals() == {"Ana": 0, "Bo": 0, "Cy": 0}
    assert g.notes[-1] == "Ana misses Four of a Kind (A♠ A♥ A♦ A♣): wins no chips"


def test_the_kids_rule_pays_the_full_chips_for_the_type():
    g = game(*turn("Ana", FOUR_ACES_CARD, FOUR_TENS), kids_rule=True)
    assert g.totals()["Ana"] == 16


def test_the_kids_rule_can_be_for_the_younger_players_only():
    """The sheet: let younger players win all of the chips for the type of hand, while "the
    adults in the group stick to the original instructions"."""
    g = game(*turn("Ana", FOUR_ACES_CARD, FOUR_TENS), *turn("Bo", FOUR_ACES_CARD, FOUR_TENS), kids=" Bo ,")
    assert (g.totals()["Ana"], g.totals()["Bo"]) == (8, 16)
    with pytest.raises(IllegalMove, match="option kids: 'Zed' is not playing"):
        game(kids="Bo, Zed")


def test_the_bonus_is_an_option():
    assert game(*turn("Ana", FOUR_ACES_CARD, FOUR_ACES), bonus=0).totals()["Ana"] == 16


def test_award_words():
    assert str(Award(4)) == "4 chips"
    assert str(Award(16, 5)) == "16 chips + 5 bonus"
    assert str(Award(16, 5, doubled=True)) == "(16 chips + 5 bonus) x2 = 42 chips"
    assert str(Award(5, doubled=True)) == "5 chips x2 = 10 chips"
    assert str(Award(0, doubled=True)) == "no chips"


# -- the four questions ---------------------------------------------------------------------
def test_the_four_questions_during_a_turn():
    g = game(draw("Ana", FULL_HOUSE_CARD))
    assert (g.turn(), g.roll_number(), g.dice_make()) == ("Ana", None, "")
    assert g.allowed() == {"Ana": ["roll"], "Bo": [], "Cy": []}
    g.apply(roll("Ana", ["QS", "QH", "QD", "3C", "3S", "AS", "6H", "8D", "10C"]))
    assert g.roll_number() == 1
    assert g.dice_make() == "Full House (Q♠ Q♥ Q♦ 3♠ 3♣) matches the type, 4 chips"  # the dice that match
    assert g.allowed() == {"Ana": ["roll", "stop"], "Bo": [], "Cy": []}
    g.apply(roll("Ana", ["JS", "JH", "JD", "2C", "2S", "AS", "6H", "8D", "10C"]))
    assert g.roll_number() == 2
    assert g.dice_make().endswith(") matches exactly, 8 chips + 5 bonus")
    assert g.details()["target"]["kind"] == "full_house"
    g.apply(stop("Ana"))
    assert (g.turn(), g.roll_number(), g.allowed()["Bo"]) == ("Bo", None, ["draw"])
    assert g.totals()["Ana"] == 13


def test_a_turn_ends_by_itself_after_the_third_roll():
    g = game(draw("Ana", FULL_HOUSE_CARD), roll("Ana", JUNK), roll("Ana", JUNK), roll("Ana", JUNK))
    assert g.turn() == "Bo"
    with pytest.raises(IllegalMove):
        g.apply(stop("Ana"))


def test_held_dice_must_have_shown_and_still_show():
    g = game(draw("Ana", FOUR_ACES_CARD), roll("Ana", THREE_ACES))
    with pytest.raises(IllegalMove, match="not showing"):
        g.apply(roll("Ana", FOUR_ACES, held=["AC"]))
    g.apply(roll("Ana", FOUR_ACES, held=["AS", "AH", "AD"]))
    assert g.roll_number() == 2


def test_only_the_player_whose_turn_it_is_moves():
    g = game()
    for bad in (draw("Bo", FULL_HOUSE_CARD), roll("Ana", JUNK), stop("Ana"), challenge("Ana", "Bo")):
        with pytest.raises(IllegalMove):
            g.apply(bad)


# -- shootout cards ---------------------------------------------------------------------------
def test_a_kept_shootout_card_lets_the_drawer_draw_again():
    g = game(shootout("Ana", "double_down"))
    assert g.turn() == "Ana" and g.allowed()["Ana"] == ["draw"]
    assert g.details()["held"]["Ana"] == ["double_down"]


def test_double_down_doubles_everything_won_that_turn_bonus_included():
    g = game(shootout("Ana", "double_down"), draw("Ana", FOUR_ACES_CARD), roll("Ana", FOUR_ACES))
    assert g.allowed()["Ana"] == ["roll", "stop", "play"]
    g.apply(play("Ana", "double_down"))
    assert g.dice_make().endswith("(16 chips + 5 bonus) x2 = 42 chips")
    g.apply(stop("Ana"))
    assert g.totals()["Ana"] == (16 + 5) * 2
    assert g.details()["held"]["Ana"] == []


def test_double_down_is_played_after_the_first_roll_and_before_the_second():
    g = game(shootout("Ana", "double_down"), draw("Ana", FOUR_ACES_CARD))
    assert "play" not in g.allowed()["Ana"]
    with pytest.raises(IllegalMove, match="after your first roll.*no roll yet"):
        g.apply(play("Ana", "double_down"))
    g.apply(roll("Ana", JUNK))
    g.apply(roll("Ana", JUNK))
    with pytest.raises(IllegalMove, match="after your first roll.*2 rolls made"):
        g.apply(play("Ana", "double_down"))


def test_a_card_not_held_cannot_be_played():
    g = game(draw("Ana", FOUR_ACES_CARD), roll("Ana", JUNK))
    with pytest.raises(IllegalMove, match="Ana holds no Double-Down"):
        g.apply(play("Ana", "double_down"))
    with pytest.raises(IllegalMove, match="unknown shootout card"):
        g.apply(play("Ana", "ace_up_the_sleeve"))


def test_quick_draw_pays_the_holder_what_the_roller_wins():
    g = game(
        shootout("Ana", "quick_draw"),
        *turn("Ana", FOUR_ACES_CARD, JUNK),
        draw("Bo", FULL_HOUSE_CARD),
        roll("Bo", ["QS", "QH", "QD", "3C", "3S", "AS", "6H", "8D", "10C"]),
    )
    assert g.allowed() == {"Ana": ["play"], "Bo": ["roll", "stop"], "Cy": []}
    g.apply(play("Ana", "quick_draw"))
    g.apply(stop("Bo"))
    assert g.totals() == {"Ana": 4, "Bo": 4, "Cy": 0}
    assert g.bank_paid == 8


def test_quick_draw_with_double_down_pays_the_doubled_win():
    g = game(
        shootout("Ana", "quick_draw"),
        *turn("Ana", FOUR_ACES_CARD, JUNK),
        shootout("Bo", "double_down"),
        draw("Bo", FOUR_ACES_CARD),
        roll("Bo", FOUR_ACES),
        play("Ana", "quick_draw"),
        play("Bo", "double_down"),
        stop("Bo"),
    )
    assert g.totals() == {"Ana": 42, "Bo": 42, "Cy": 0}


def test_quick_draw_pays_nothing_when_the_roller_wins_nothing():
    g = game(
        shootout("Ana", "quick_draw"),
        *turn("Ana", FOUR_ACES_CARD, JUNK),
        draw("Bo", FULL_HOUSE_CARD),
        roll("Bo", JUNK),
        play("Ana", "quick_draw"),
        stop("Bo"),
    )
    assert g.totals() == {"Ana": 0, "Bo": 0, "Cy": 0}
    assert g.details()["held"]["Ana"] == []  # played, so gone


def test_quick_draw_is_played_on_an_opponents_turn_after_the_first_roll():
    g = game(shootout("Ana", "quick_draw"), draw("Ana", FOUR_ACES_CARD), roll("Ana", JUNK))
    with pytest.raises(IllegalMove, match="opponent's turn"):
        g.apply(play("Ana", "quick_draw"))
    g.apply(stop("Ana"))
    g.apply(draw("Bo", FOUR_ACES_CARD))
    with pytest.raises(IllegalMove, match="after Bo's first roll"):
        g.apply(play("Ana", "quick_draw"))
    g.apply(roll("Bo", JUNK))
    g.apply(roll("Bo", JUNK))
    with pytest.raises(IllegalMove, match="after Bo's first roll"):
        g.apply(play("Ana", "quick_draw"))


def test_the_joker_card_is_one_more_wild_card_and_costs_the_bonus():
    g = game(shootout("Ana", "joker_card"), draw("Ana", FOUR_ACES_CARD), roll("Ana", THREE_ACES))
    assert "no match" in g.dice_make()
    g.apply(play("Ana", "joker_card"))
    assert g.dice_make().endswith("matches exactly with a joker, 16 chips")
    g.apply(stop("Ana"))
    assert g.totals()["Ana"] == 16


def test_a_joker_card_that_is_not_needed_keeps_the_bonus():
    g = game(
        shootout("Ana", "joker_card"),
        draw("Ana", FOUR_ACES_CARD),
        play("Ana", "joker_card"),
        roll("Ana", FOUR_ACES),
        stop("Ana"),
    )
    assert g.totals()["Ana"] == 21


def test_the_joker_card_is_played_on_your_own_turn():
    g = game(
        shootout("Ana", "joker_card"),
        *turn("Ana", FOUR_ACES_CARD, JUNK),
        draw("Bo", FOUR_ACES_CARD),
        roll("Bo", THREE_ACES),
    )
    with pytest.raises(IllegalMove, match="your own turn"):
        g.apply(play("Ana", "joker_card"))


def test_showdown_the_winner_takes_what_the_loser_has_and_the_rest_from_the_bank():
    # The sheet: "if the losing player only has 2 chips, the winning player takes those
    # chips then also collects 4 chips from the bank."
    g = game(
        *blank_turn("Ana"),
        *turn("Bo", TWO_PAIRS_CARD, TWO_PAIRS),
        *blank_turn("Cy"),
        shootout("Ana", "showdown"),
    )
    assert g.totals() == {"Ana": 0, "Bo": 2, "Cy": 0}
    assert g.allowed() == {"Ana": ["challenge"], "Bo": [], "Cy": []}
    g.apply(challenge("Ana", "Bo"))
    for event in (roll("Ana", FOUR_ACES), stop("Ana")):
        g.apply(event)
    assert g.turn() == "Bo" and g.details()["showdown"]["hands"] == {"Ana": str(best_hand(FOUR_ACES))}
    g.apply(roll("Bo", JUNK))
    g.apply(roll("Bo", JUNK))
    g.apply(roll("Bo", TWO_PAIRS))
    assert g.totals() == {"Ana": 6, "Bo": 0, "Cy": 0}
    assert g.bank_paid == 2 + 4
    assert g.turn() == "Bo" and g.allowed()["Bo"] == ["draw"]  # the showdown was Ana's turn


def test_showdown_between_players_with_chips_moves_six():
    g = game(
        *turn("Ana", FOUR_ACES_CARD, FOUR_ACES),
        *turn("Bo", FOUR_ACES_CARD, FOUR_ACES),
        *blank_turn("Cy"),
        shootout("Ana", "showdown"),
        challenge("Ana", "Bo"),
        roll("Ana", JUNK),
        stop("Ana"),
        roll("Bo", TWO_PAIRS),
        stop("Bo"),
    )
    assert g.totals() == {"Ana": 15, "Bo": 27, "Cy": 0}
    assert g.bank_paid == 42


def test_a_showdown_tie_moves_no_chips():
    g = game(
        *turn("Ana", FOUR_ACES_CARD, FOUR_ACES),
        shootout("Bo", "showdown"),
        challenge("Bo", "Ana"),
        roll("Bo", JUNK),
        stop("Bo"),
        roll("Ana", JUNK),
        stop("Ana"),
    )
    assert g.totals() == {"Ana": 21, "Bo": 0, "Cy": 0}
    assert g.turn() == "Cy"


def test_a_showdown_names_another_player():
    g = game(shootout("Ana", "showdown"))
    for opponent in ("Ana", "Dee"):
        with pytest.raises(IllegalMove, match="names an opponent among Bo and Cy"):
            g.apply(challenge("Ana", opponent))


def test_a_showdown_in_the_fun_variation_is_kept_and_played_instead_of_rolling():
    g = game(shootout("Ana", "showdown"), draw("Ana", FOUR_ACES_CARD), name=FUN)
    assert g.allowed()["Ana"] == ["roll", "play"]
    g.apply(play("Ana", "showdown"))
    g.apply(challenge("Ana", "Cy"))
    for event in (roll("Ana", FOUR_ACES), stop("Ana"), roll("Cy", JUNK), stop("Cy")):
        g.apply(event)
    assert g.totals() == {"Ana": 6, "Bo": 0, "Cy": 0}
    assert g.turn() == "Bo" and g.details()["target"]["kind"] == "four_of_a_kind"


def test_a_kept_showdown_is_not_played_after_rolling():
    g = game(
        shootout("Ana", "showdown"),
        draw("Ana", FOUR_ACES_CARD),
        roll("Ana", JUNK),
        name=FUN,
    )
    with pytest.raises(IllegalMove, match="start of your turn"):
        g.apply(play("Ana", "showdown"))


def test_a_kept_showdown_is_not_played_after_a_joker_card_in_the_same_turn():
    g = game(
        shootout("Ana", "showdown"),
        shootout("Ana", "joker_card"),
        draw("Ana", FOUR_ACES_CARD),
        play("Ana", "joker_card"),
        name=FUN,
    )
    assert g.roll_number() is None and g.details()["held"]["Ana"] == ["showdown"]
    assert g.allowed()["Ana"] == ["roll"]
    refusal = "a kept Showdown is played at the start of your turn, instead of rolling"
    with pytest.raises(IllegalMove, match=refusal):
        g.apply(play("Ana", "showdown"))


# -- rounds and the end of the game ------------------------------------------------------------
def test_eight_rounds_of_one_turn_each():
    events = [event for _ in range(8) for player in ("Ana", "Bo", "Cy") for event in blank_turn(player)]
    g = game(*events[:-3], *turn("Cy", FOUR_ACES_CARD, FOUR_TENS))
    assert g.finished() and g.winners() == ["Cy"] and g.details()["round"] == 8
    assert g.turn() is None and g.allowed() == {"Ana": [], "Bo": [], "Cy": []}
    with pytest.raises(IllegalMove, match="over"):
        g.apply(draw("Ana", FOUR_ACES_CARD))


def test_the_number_of_rounds_is_an_option():
    g = game(*blank_turn("Ana"), *turn("Bo", FOUR_ACES_CARD, FOUR_TENS), rounds=1, players=("Ana", "Bo"))
    assert g.finished() and g.winners() == ["Bo"]


def test_a_tie_at_the_top_plays_more_rounds_among_the_tied_players():
    g = game(
        *turn("Ana", FOUR_ACES_CARD, FOUR_TENS),
        *turn("Bo", FOUR_ACES_CARD, FOUR_TENS),
        *blank_turn("Cy"),
        rounds=1,
    )
    assert not g.finished()
    assert g.details()["tiebreak"] and g.details()["contenders"] == ["Ana", "Bo"]
    assert g.details()["round"] == 2 and g.turn() == "Ana"
    g.apply(shootout("Ana", "showdown"))
    with pytest.raises(IllegalMove, match="among Bo$"):
        g.apply(challenge("Ana", "Cy"))  # Cy is out of the tiebreak
    g = game(
        *turn("Ana", FOUR_ACES_CARD, FOUR_TENS),
        *turn("Bo", FOUR_ACES_CARD, FOUR_TENS),
        *blank_turn("Cy"),
        *blank_turn("Ana"),
        *blank_turn("Bo"),
        rounds=1,
    )
    assert not g.finished() and g.details()["round"] == 3  # still tied: another round
    g.apply(draw("Ana", TWO_PAIRS_CARD))
    g.apply(roll("Ana", TWO_PAIRS))
    g.apply(stop("Ana"))
    g.apply(draw("Bo", TWO_PAIRS_CARD))
    assert g.turn() == "Bo"
    g.apply(roll("Bo", JUNK))
    g.apply(stop("Bo"))
    assert g.finished() and g.winners() == ["Ana"] and g.totals() == {"Ana": 10, "Bo": 8, "Cy": 0}


def test_a_player_sitting_out_a_tiebreak_round_may_not_play_a_quick_draw():
    g = game(
        *turn("Ana", FOUR_ACES_CARD, FOUR_TENS),
        *turn("Bo", FOUR_ACES_CARD, FOUR_TENS),
        shootout("Cy", "quick_draw"),
        *blank_turn("Cy"),
        draw("Ana", FULL_HOUSE_CARD),
        roll("Ana", ["JS", "JH", "JD", "2C", "2S", "AS", "6H", "8D", "10C"]),
        rounds=1,
    )
    assert g.details()["contenders"] == ["Ana", "Bo"] and g.details()["held"]["Cy"] == ["quick_draw"]
    assert g.allowed()["Cy"] == []
    with pytest.raises(IllegalMove, match="Cy is not playing this round"):
        g.apply(play("Cy", "quick_draw"))
    g.apply(stop("Ana"))
    assert g.totals() == {"Ana": 8 + 13, "Bo": 8, "Cy": 0}


def test_the_optional_tiebreak_is_a_showdown():
    g = game(
        *turn("Ana", FOUR_ACES_CARD, FOUR_TENS),
        *turn("Bo", FOUR_ACES_CARD, FOUR_TENS),
        *blank_turn("Cy"),
        rounds=1,
        tiebreak="showdown",
    )
    assert g.details()["showdown"] == {"players": ["Ana", "Bo"], "tiebreak": True, "hands": {}}
    assert g.turn() == "Ana"
    for event in (roll("Ana", JUNK), stop("Ana"), roll("Bo", JUNK), stop("Bo")):
        g.apply(event)
    assert not g.finished() and g.details()["showdown"]["players"] == ["Ana", "Bo"]  # tied hands: again
    for event in (roll("Ana", JUNK), stop("Ana"), roll("Bo", TWO_PAIRS), stop("Bo")):
        g.apply(event)
    assert g.finished() and g.winners() == ["Bo"]
    assert g.totals() == {"Ana": 2, "Bo": 14, "Cy": 0} and conserved(g)


# -- the Fun Variation ---------------------------------------------------------------------------
def test_fun_everybody_rolls_for_one_target_and_the_chooser_moves_left():
    g = game(draw("Ana", FOUR_ACES_CARD), name=FUN)
    for player, faces in (("Ana", FOUR_TENS), ("Bo", FOUR_ACES), ("Cy", JUNK)):
        assert g.turn() == player and g.details()["target"]["kind"] == "four_of_a_kind"
        g.apply(roll(player, faces))
        g.apply(stop(player))
    assert g.totals() == {"Ana": 8, "Bo": 21, "Cy": 0}
    assert g.turn() == "Bo" and g.allowed()["Bo"] == ["draw"] and g.details()["chooser"] == "Bo"
    g.apply(shootout("Bo", "quick_draw"))
    g.apply(draw("Bo", FULL_HOUSE_CARD))
    assert [g.turn(), g.details()["held"]["Bo"]] == ["Bo", ["quick_draw"]]
    for player in ("Bo", "Cy"):
        g.apply(roll(player, JUNK))
        g.apply(stop(player))
    assert g.turn() == "Ana"  # the round started with Bo, so Ana rolls last


# -- Square Shootout ---------------------------------------------------------------------------
def test_shootout_plays_seven_targets_lowest_first():
    g = game(name=SHOOTOUT, players=("Ana", "Bo"))
    kinds = []
    for _ in range(7):
        kinds.append(g.details()["target"]["kind"])
        for player in ("Ana", "Bo"):
            g.apply(roll(player, JUNK))
            g.apply(stop(player))
    assert kinds == list(TARGET_KINDS)
    assert not g.finished() and g.details()["round"] == 8  # tied at 0: a tiebreak round
    assert g.details()["target"]["kind"] == "two_pairs"


def test_shootout_targets_default_to_the_first_card_of_each_kind():
    deck = standard_deck()
    g = game(name=SHOOTOUT)
    assert [t["id"] for t in g.details()["targets"]] == [deck.first_target(k).id for k in TARGET_KINDS]


def test_shootout_players_may_choose_the_seven_cards_before_the_first_roll():
    g = game(name=SHOOTOUT)
    assert "choose" in g.allowed()["Bo"]
    ids = [f"{kind}_2" for kind in reversed(TARGET_KINDS)]
    g.apply(Event("choose", {"cards": ids}, "Bo"))
    assert [t["id"] for t in g.details()["targets"]] == [f"{kind}_2" for kind in TARGET_KINDS]
    g.apply(roll("Ana", JUNK))
    with pytest.raises(IllegalMove, match="before the first roll"):
        g.apply(Event("choose", {"cards": ids}, "Bo"))


def test_shootout_choice_needs_one_card_of_each_type():
    g = game(name=SHOOTOUT)
    for ids in (
        ["two_pairs_1"] * 7,
        ["double_down_1"] + [f"{k}_1" for k in TARGET_KINDS[1:]],
        [f"{k}_1" for k in TARGET_KINDS[1:]],
    ):
        with pytest.raises(IllegalMove, match="one target card of each"):
            g.apply(Event("choose", {"cards": ids}))
    with pytest.raises(IllegalMove, match="no card"):
        g.apply(Event("choose", {"cards": ["joker"] * 7}))


def test_shootout_has_no_shootout_cards():
    g = game(name=SHOOTOUT)
    with pytest.raises(IllegalMove, match="no event"):
        g.apply(draw("Ana", FOUR_ACES_CARD))
    g.apply(roll("Ana", JUNK))
    with pytest.raises(IllegalMove, match="no event"):
        g.apply(play("Bo", "quick_draw"))


# -- the virtual deck ----------------------------------------------------------------------------
def virtual(players=("Ana", "Bo", "Cy"), seed=7, **options):
    g = new_game(CLASSIC, list(players), options)
    rng = random.Random(seed)
    return g, rng


def chance(g, rng):
    event = g.random_event(rng)
    if event is not None:
        g.apply(event)
    return event


def test_the_virtual_deck_is_shuffled_at_the_start_and_drawn_from_the_top():
    g, rng = virtual()
    shuffle = g.random_event(rng)
    assert shuffle.type == "shuffle" and shuffle.auto
    assert sorted(shuffle.data["order"]) == sorted(standard_deck().ids)
    top = ["quick_draw_2", "straight_3"]
    g.apply(Event("shuffle", {"order": top + [i for i in standard_deck().ids if i not in top]}))
    assert g.random_event(rng) is None
    g.apply(Event("draw", {}, "Ana"))  # a Quick-Draw: Ana keeps it and draws again
    g.apply(Event("draw", {}, "Ana"))
    assert g.details()["held"]["Ana"] == ["quick_draw"] and g.details()["target"]["id"] == "straight_3"
    assert g.details()["deck"] == {"pile": 40, "discards": 0}
    assert "deck" not in game().details()  # a physical deck: the players see it on the table


def test_the_virtual_deck_refuses_a_physical_card_and_a_needless_shuffle():
    g, rng = virtual()
    with pytest.raises(IllegalMove, match="needs shuffling"):
        g.apply(Event("draw", {}, "Ana"))
    with pytest.raises(IllegalMove, match="every card of the discard pile"):
        g.apply(Event("shuffle", {"order": ["two_pairs_1"]}))
    chance(g, rng)
    with pytest.raises(IllegalMove, match="virtual deck"):
        g.apply(draw("Ana", FOUR_ACES_CARD))
    with pytest.raises(IllegalMove, match="not empty"):
        g.apply(Event("shuffle", {"order": []}))


def test_the_discards_are_reshuffled_but_played_shootout_cards_are_gone():
    g, rng = virtual(rounds=20)
    chance(g, rng)
    while g.pile:  # play on with as few moves as possible
        player = g.turn()
        if g.phase == "draw":
            g.apply(Event("draw", {}, player))
        elif g.phase == "challenge":
            g.apply(challenge(player, next(p for p in g.contenders if p != player)))
        else:
            g.apply(roll(player, JUNK))
            g.apply(stop(player))
    shuffle = chance(g, rng)
    deck = standard_deck()
    reshuffled = {deck.card(card_id) for card_id in shuffle.data["order"]}
    assert all(isinstance(card, TargetCard) for card in reshuffled)
    in_play = {g.target.id} if g.target else set()
    targets = {card.id for card in deck.cards if isinstance(card, TargetCard)}
    assert {card.id for card in reshuffled} == targets - in_play
    held = sum((cards for cards in g.details()["held"].values()), [])
    assert sorted(held) == ["double_down"] * 2 + ["joker_card"] * 2 + ["quick_draw"] * 2


def test_a_physical_deck_needs_no_shuffle_and_checks_the_card_entered():
    g = game()
    assert g.random_event(random.Random(1)) is None
    for bad, message in (
        ({"kind": "four_of_a_kind"}, "cards"),
        ({"kind": "five_of_a_kind", "cards": [], "chips": 3}, "unknown target kind"),
        ({"kind": "two_pairs", "cards": ["AS", "AS", "KD", "KC"], "chips": 4}, r"A♠ \(AS\) shows twice"),
        ({"kind": "two_pairs", "cards": ["AS", "AD", "KD", "QC"], "chips": 4}, "not a Two Pairs"),
        ({"kind": "two_pairs", "cards": ["AS", "AD", "KD", "KC"], "chips": -1}, "chips"),
        ({"shootout": "ace"}, "unknown shootout card"),
    ):
        with pytest.raises(IllegalMove, match=message):
            g.apply(draw("Ana", bad))
    with pytest.raises(IllegalMove, match="needs 'card'"):
        g.apply(Event("draw", {}, "Ana"))
    with pytest.raises(IllegalMove, match="shuffled by hand"):
        g.apply(Event("shuffle", {"order": []}))


# -- bad input ------------------------------------------------------------------------------------
def test_bad_rolls_are_refused_and_change_nothing():
    g = game(draw("Ana", FOUR_ACES_CARD))
    before = g.view()
    for faces, message in (
        (JUNK[:8], "9 dice, not 8"),
        (JUNK + ["KD"], "9 dice, not 10"),
        (JUNK[:8] + ["ZZ"], "unknown face label"),
        (JUNK[:8] + ["CUBES"], "not a face of square-shooters"),
        (JUNK[:8] + ["AS"], r"A♠ \(AS\) shows twice"),
    ):
        with pytest.raises(IllegalMove, match=message):
            g.apply(roll("Ana", faces))
        assert g.view() == before


def test_bad_input_appends_nothing_to_the_log():
    ledger = Ledger(connect(":memory:"), rng=random.Random(3))
    game_id = ledger.new_game("square-shooters/classic", ["Ana", "Bo"], {"deck": "physical"})
    ledger.append(game_id, shootout("Ana", "double_down"))
    ledger.append(game_id, draw("Ana", FOUR_ACES_CARD))
    first = ledger.append(game_id, roll("Ana", JUNK))
    ledger.append(game_id, roll("Ana", JUNK))
    before = ledger.events(game_id)
    for bad, message in (
        (roll("Ana", JUNK[:8]), "9 dice"),
        (roll("Ana", JUNK[:8] + ["QQ"]), "unknown face"),
        (roll("Ana", JUNK[:8] + ["AS"]), "shows twice"),
        (play("Ana", "double_down"), "before the second"),
        (Event("correct", {"roll": 999, "faces": JUNK}), "no roll #999"),
        (Event("correct", {"roll": first.seq, "faces": JUNK[:8]}), "9 dice"),
    ):
        with pytest.raises(IllegalMove, match=message):
            ledger.append(game_id, bad)
    assert ledger.events(game_id) == before


def test_a_correction_re_derives_the_turn():
    events = [
        Event(
            "start",
            {"game": "square-shooters/classic", "players": ["Ana", "Bo"], "options": {"deck": "physical"}},
        ),
        draw("Ana", FOUR_ACES_CARD),
        roll("Ana", JUNK),
        stop("Ana"),
    ]
    events = [Event(e.type, e.data, e.player, seq) for seq, e in enumerate(events, start=1)]
    assert replay(events).totals()["Ana"] == 0
    fixed = events + [Event("correct", {"roll": 3, "faces": FOUR_TENS}, seq=5)]
    assert replay(fixed).totals()["Ana"] == 8
    with pytest.raises(IllegalMove, match="no roll #999"):
        replay(events + [Event("correct", {"roll": 999, "faces": FOUR_TENS}, seq=5)])


LABELS = SQUARE_SHOOTERS.labels
# Not "held": scoring.game.held_faces assumes its labels are strings (reported to its owner).
KEYS = ["faces", "card", "opponent", "cards", "order", "kind", "chips", "shootout"]
SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(-2, 40)
    | st.sampled_from(["AS", "JOKER_RED", "quick_draw", "Bo", "x"])
)
JSON = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=9) | st.dictionaries(st.sampled_from(KEYS), inner, max_size=3),
    max_leaves=12,
)


def games_in_play():
    """One game of each kind, each waiting for something different."""
    classic = game(shootout("Ana", "double_down"), draw("Ana", FOUR_ACES_CARD), roll("Ana", JUNK))
    fun = new_game(FUN, ["Ana", "Bo"])
    fun.apply(fun.random_event(random.Random(5)))
    return [classic, fun, game(name=SHOOTOUT), game(shootout("Ana", "showdown"))]


@settings(max_examples=200, deadline=None)
@given(
    kind=st.sampled_from(["roll", "stop", "draw", "play", "challenge", "choose", "shuffle", "bet"]),
    player=st.sampled_from([None, "Ana", "Bo", "Zed"]),
    data=st.dictionaries(st.sampled_from(KEYS), JSON, max_size=3),
    faces=st.none() | st.permutations(LABELS).map(lambda labels: labels[:9]),
)
def test_malformed_events_get_a_clear_error_and_change_nothing(kind, player, data, faces):
    if faces is not None:  # real dice now and then, so that the other fields are checked
        data = {**data, "faces": faces}
    for g in games_in_play():
        before = g.view()
        try:
            g.apply(Event(kind, data, player))
        except IllegalMove:
            assert g.view() == before


# -- chips are conserved ----------------------------------------------------------------------------


def random_move(g, rnd):
    """A random legal move of ``g``, drawn from ``rnd``."""
    choices = [(player, move) for player, moves in g.allowed().items() for move in moves]
    plays = [choice for choice in choices if choice[1] == "play"]
    player, move = rnd.choice(plays if plays and rnd.random() < 0.5 else choices)
    if move == "play":
        return play(player, rnd.choice(g.playable(player)))
    if move == "challenge":
        return challenge(player, rnd.choice([p for p in g.contenders if p != player]))
    if move == "choose":
        return Event("choose", {"cards": [f"{kind}_{rnd.randint(1, 4)}" for kind in TARGET_KINDS]}, player)
    if move != "roll":
        return Event(move, {}, player)
    held = []
    if g.rolling.rolls and rnd.random() < 0.3:
        held = rnd.sample(g.rolling.labels, rnd.randint(1, 5))
    wanted = []
    if g.phase == "roll" and rnd.random() < 0.5:  # aim at the target now and then
        wanted = [card.label for card in g.target.target.cards]
    keep = list(dict.fromkeys(held + wanted))[:9]
    faces = keep + rnd.sample([label for label in LABELS if label not in keep], 9 - len(keep))
    rnd.shuffle(faces)
    return roll(player, faces, held)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    name=st.sampled_from([CLASSIC, FUN, SHOOTOUT]),
    players=st.integers(2, 4),
    rounds=st.integers(1, 3),
    tiebreak=st.sampled_from(["rounds", "showdown"]),
    kids_rule=st.booleans(),
    jokers_wild=st.booleans(),
    seed=st.integers(0, 2**32),
)
def test_chips_are_conserved(name, players, rounds, tiebreak, kids_rule, jokers_wild, seed):
    rnd = random.Random(seed)  # the moves and the deck's shuffles
    options = {"tiebreak": tiebreak, "kids_rule": kids_rule, "jokers_wild": jokers_wild}
    if name != SHOOTOUT:
        options["rounds"] = rounds
    g = new_game(name, ["Ana", "Bo", "Cy", "Dee"][:players], options)
    for _ in range(300):
        if g.finished():
            break
        event = g.random_event(rnd) or random_move(g, rnd)
        g.apply(event)
        assert conserved(g), event
    if g.finished():
        assert len(g.winners()) == 1 and g.winners()[0] == max(g.totals(), key=g.totals().get)


# -- golden games -------------------------------------------------------------------------------
def totals_after_each_round(events):
    """The totals whenever a round ends, by feeding the log one event at a time."""
    g = replay(events[:1])
    rounds = []
    for event in events[1:]:
        before = g.round
        g.apply(event)
        if g.round != before or g.finished():
            rounds.append(g.totals())
    return rounds


def test_golden_classic_game():
    # Three players, 8 rounds, the virtual deck in the shuffled order of event 2.  Each
    # line: the card drawn, the rolls, what they win (exact = the card's chips, type =
    # half rounded up, +5 for exact on roll 1 or 2 with no joker; x2 Double-Down).
    events = golden("classic.jsonl")
    # Round 1
    #   Ana keeps Double-Down; Two Pairs AS AD 8C 8H (4): junk, K-K-5-5 stop: type 2.
    #   Bo keeps Quick-Draw; Full House JS JH JD 2C 2S (8): exact on roll 1: 8 + 5 = 13.
    #   Cy keeps Joker Card; Straight A-5 (10): junk, junk, 6-10 straight: type 5.
    #   -> Ana 2, Bo 13, Cy 5
    # Round 2
    #   Ana draws Showdown, names Bo: Ana four 10s, Bo full house Q-Q-Q-4-4.  Ana takes
    #   6 from Bo (who has 13): Ana 8, Bo 7.
    #   Bo: Flush AH JH 9H 6H 3H (12): junk, exact, stop: 12 + 5 = 17 -> Bo 24.
    #   Cy: Four Aces (16): AS AH AD; Bo plays Quick-Draw, Cy plays Joker Card; stop:
    #   exact with a joker, no bonus: 16 -> Cy 21; Bo gets 16 too -> Bo 40.
    #   -> Ana 8, Bo 40, Cy 21
    # Round 3
    #   Ana: Straight Flush 5S-9S (20): 4H-8H (type), plays Double-Down, exact, stop:
    #   (20 + 5) x 2 = 50 -> Ana 58.
    #   Bo: Two Pairs KH KC 7S 7D (4): junk x3: 0.
    #   Cy: Full House KS KH KC 4D 4S (8): KS KH KC 4D + red joker: exact with a joker,
    #   no bonus: 8 -> Cy 29.
    #   -> Ana 58, Bo 40, Cy 29
    # Round 4
    #   Ana: Straight 6H-10H (10): exact on roll 3, no bonus: 10 -> 68.
    #   Bo: Royal Flush in spades (30): royal flush in hearts, stop: type 15 -> 55.
    #   Cy: Flush KS QS 8S 5S 2S (12): junk, stop: 0.
    #   -> Ana 68, Bo 55, Cy 29
    # Round 5
    #   Ana: Four Kings (16): four 10s, stop: type 8 -> 76.
    #   Bo keeps the second Double-Down; Two Pairs QS QD 5H 5C (4): exact, plays it,
    #   stop: (4 + 5) x 2 = 18 -> 73.
    #   Cy: Full House QH QD QC 9S 9H (8): 3s over 6s, stop: type 4 -> 33.
    #   -> Ana 76, Bo 73, Cy 33
    # Round 6
    #   Ana: Straight 9C-KC (10): exact, stop: 10 + 5 = 15 -> 91.
    #   Bo draws the second Showdown, names Cy: Bo junk x3 (ace high), Cy a straight.
    #   Cy takes 6 from Bo: Bo 67, Cy 39.
    #   Cy: Flush AD 10D 7D 4D 2D (12): junk, a club flush, stop: type 6 -> 45.
    #   -> Ana 91, Bo 67, Cy 45
    # Round 7
    #   Ana: Four Queens (16): junk x3: 0.
    #   Bo: Straight Flush AH-5H (20): 2C-6C, stop: type 10 -> 77.
    #   Cy: Two Pairs JC JH 3S 3D (4): exact, stop: 4 + 5 = 9 -> 54.
    #   -> Ana 91, Bo 77, Cy 54
    # Round 8
    #   Ana: Full House 7C 7H 7D AS AH (8): exact, holds it, rolls the rest, stop on
    #   roll 2: 8 + 5 = 13 -> 104.
    #   Bo: Straight 10S-AH (10): junk, junk, 6-10: type 5 -> 82.
    #   Cy keeps the second Quick-Draw (never played); Flush of clubs (12): junk: 0.
    #   -> Ana 104, Bo 82, Cy 54: Ana wins.
    # The bank paid every win (the showdowns only moved chips): 98 + 94 + 48 = 240.
    assert totals_after_each_round(events) == [
        {"Ana": 2, "Bo": 13, "Cy": 5},
        {"Ana": 8, "Bo": 40, "Cy": 21},
        {"Ana": 58, "Bo": 40, "Cy": 29},
        {"Ana": 68, "Bo": 55, "Cy": 29},
        {"Ana": 76, "Bo": 73, "Cy": 33},
        {"Ana": 91, "Bo": 67, "Cy": 45},
        {"Ana": 91, "Bo": 77, "Cy": 54},
        {"Ana": 104, "Bo": 82, "Cy": 54},
    ]
    g = replay(events)
    assert g.finished() and g.winners() == ["Ana"]
    assert g.totals() == {"Ana": 104, "Bo": 82, "Cy": 54} and g.bank_paid == 240
    used = {e.data["card"] for e in events if e.type == "play"}
    used |= {"showdown" for e in events if e.type == "challenge"}
    assert used == set(SHOOTOUT_KINDS)  # every kind of shootout card was played


def test_golden_fun_game():
    # Fun Variation, three players, 3 rounds; one target per round for everybody.
    events = golden("fun.jsonl")
    # Round 1, Ana turns the cards: keeps a Showdown, draws Full House JS JH JD 2C 2S (8).
    #   Ana exact on roll 1: 13.  Bo Q-Q-Q-4-4: type 4.  Cy junk x3: 0.
    # Round 2, Bo turns: keeps a Double-Down, draws Straight A-5 (10).  Bo rolls first:
    #   6-10 straight, plays Double-Down, stop: 5 x 2 = 10 -> 14.  Cy exact: 15.
    #   Ana plays her Showdown instead of rolling, names Cy: four 10s beat ace high, Ana
    #   takes 6 from Cy: Ana 19, Cy 9.
    # Round 3, Cy turns Flush AH JH 9H 6H 3H (12).  Cy: a club flush, type 6 -> 15.
    #   Ana: exact on roll 3, no bonus: 12 -> 31.  Bo: exact on roll 1: 17 -> 31.
    # Ana and Bo tie at 31: a fourth round between them (Cy sits out), Ana turning
    #   Two Pairs AS AD 8C 8H (4).  Ana K-K-5-5: type 2 -> 33.  Bo junk x3: 0.
    assert totals_after_each_round(events) == [
        {"Ana": 13, "Bo": 4, "Cy": 0},
        {"Ana": 19, "Bo": 14, "Cy": 9},
        {"Ana": 31, "Bo": 31, "Cy": 15},
        {"Ana": 33, "Bo": 31, "Cy": 15},
    ]
    g = replay(events)
    assert g.finished() and g.winners() == ["Ana"] and g.bank_paid == 79


def test_golden_shootout_game():
    # Square Shootout, two players; Ana chooses the seven cards (the Royal Flush in hearts).
    events = golden("shootout.jsonl")
    # Two Pairs KH KC 7S 7D (4):      Ana K-K-5-5 type 2;          Bo exact 4 + 5 = 9.
    # Full House JS JH JD 2C 2S (8):  Ana exact 8 + 5 = 13 (15);   Bo junk x3 0 (9).
    # Straight A-5 (10):              Ana 6-10 type 5 (20);        Bo exact with a joker 10 (19).
    # Flush AH JH 9H 6H 3H (12):      Ana junk x3 0 (20);          Bo exact on roll 2: 17 (36).
    # Four Aces (16):                 Ana four 10s type 8 (28);    Bo three aces x3: 0 (36).
    # Straight Flush 5S-9S (20):      Ana 4H-8H type 10 (38);      Bo junk 0 (36).
    # Royal Flush in hearts (30):     Ana junk x3 0 (38);          Bo exact 30 + 5 = 35 (71).
    assert [t["kind"] for t in replay(events).details()["targets"]] == list(TARGET_KINDS)
    assert totals_after_each_round(events) == [
        {"Ana": 2, "Bo": 9},
        {"Ana": 15, "Bo": 9},
        {"Ana": 20, "Bo": 19},
        {"Ana": 20, "Bo": 36},
        {"Ana": 28, "Bo": 36},
        {"Ana": 38, "Bo": 36},
        {"Ana": 38, "Bo": 71},
    ]
    g = replay(events)
    assert g.finished() and g.winners() == ["Bo"] and g.bank_paid == 109


# -- what a mutation audit found no test would miss ------------------------------
def test_shootout_a_chosen_card_that_is_neither_id_nor_object_is_refused():
    """targets.py `not isinstance(data, Mapping)` dropped: a choice listing a number
    crashed (AttributeError) instead of a clean refusal."""
    g = new_game("square-shooters/shootout", ["Ana", "Bo"])
    with pytest.raises(IllegalMove, match="must be an object"):
        g.apply(Event("choose", {"cards": [5] * 7}, "Bo"))


# -- what a mutation audit found no test would miss ------------------------------
NAMES = [f"P{n}" for n in range(1, 12)]


def test_square_shooters_player_counts():
    """square_shooters.py Classic/Fun min_players 2 -> 1, max_players 10 -> 9 / 11;
    :600 Shootout min_players 1 -> 2 / 0.  Sheet 000 line 9: "1 or More Players";
    docs/rules-square-shooters.md: Classic and Fun 2-10 (a Showdown names an opponent),
    Shootout 1-10."""
    for name in (CLASSIC, FUN):
        for count in (2, 10):
            assert new_game(name, NAMES[:count], {}).players == tuple(NAMES[:count])
        for count in (1, 11):
            with pytest.raises(IllegalMove, match=f"2 to 10 players, not {count}"):
                new_game(name, NAMES[:count], {})
    assert new_game(SHOOTOUT, ["Ana"], {}).turn() == "Ana"
    assert new_game(SHOOTOUT, NAMES[:10], {}).players == tuple(NAMES[:10])
    for count in (0, 11):
        with pytest.raises(IllegalMove, match=f"1 to 10 players, not {count}"):
            new_game(SHOOTOUT, NAMES[:count], {})


def test_a_showdown_says_what_hand_the_dice_make_not_the_target():
    """square_shooters.py `if self.phase == "showdown"` dropped in dice_make: a drawn
    Showdown in the Classic game has no target, so the view crashed (AttributeError); in
    the Fun Variation it judged the showdown roll against the round's target.
    docs/rules-square-shooters.md: the better hand "by the ranking" wins a showdown."""
    g = game(shootout("Ana", "showdown"), challenge("Ana", "Bo"), roll("Ana", FOUR_ACES))
    assert g.dice_make() == str(best_hand(FOUR_ACES))
    assert g.view()["make"] == str(best_hand(FOUR_ACES))


def test_no_second_card_is_drawn_during_a_turn_at_a_target():
    """square_shooters.py `if self.phase != "draw"` dropped: the roller could draw a
    new target after a bad roll and roll for that instead.  Sheet 000 / RULES.md: each
    player in turn draws a card and rolls for it; docs: "A turn starts with draw"."""
    g = game(draw("Ana", FOUR_ACES_CARD), roll("Ana", FOUR_TENS))
    with pytest.raises(IllegalMove, match="no card is to be drawn now: Ana is to roll"):
        g.apply(draw("Ana", TWO_PAIRS_CARD))
    assert g.details()["target"]["kind"] == "four_of_a_kind"


def test_one_quick_draw_per_player_per_turn():
    """square_shooters.py `(player, kind) in self.in_play` dropped: a holder of two
    Quick-Draws played both on one turn and the bank paid them twice.
    docs/rules-square-shooters.md: "A player plays at most one card of each kind per turn"."""
    g = game(
        shootout("Ana", "quick_draw"),
        shootout("Ana", "quick_draw"),
        *turn("Ana", FOUR_ACES_CARD, JUNK),
        draw("Bo", FOUR_ACES_CARD),
        roll("Bo", FOUR_TENS),
        play("Ana", "quick_draw"),
    )
    with pytest.raises(IllegalMove, match="Ana has already played a Quick-Draw this turn"):
        g.apply(play("Ana", "quick_draw"))
    g.apply(stop("Bo"))
    assert g.totals() == {"Ana": 8, "Bo": 8, "Cy": 0}
    assert g.details()["held"]["Ana"] == ["quick_draw"]


def test_a_tied_tiebreak_showdown_is_faced_off_again_by_the_tied_hands_only():
    """square_shooters.py `elif showdown.tiebreak` dropped, and :350 the face-off
    again begun with tiebreak=False.  With :348 dropped, tied best hands in the
    end-of-game showdown fell through to "no chips move" and the end of a round: all three
    players tied on chips faced off again, not the two tied hands (Classic), and the Fun
    Variation crashed (AttributeError: its round end discards a target already gone);
    with :350, the Fun face-off's result crashed the same way.
    Sheet 000 line 139: "The tied players face off in a showdown"; docs: "If the best
    hands tie, those players face off again"."""
    blank_round = [e for player in ("Ana", "Bo", "Cy") for e in blank_turn(player)]
    g = game(*blank_round, rounds=1, tiebreak="showdown")
    assert g.details()["showdown"]["players"] == ["Ana", "Bo", "Cy"]
    for player, faces in (("Ana", TWO_PAIRS), ("Bo", TWO_PAIRS), ("Cy", JUNK)):
        g.apply(roll(player, faces))
        g.apply(stop(player))
    assert not g.finished() and g.details()["showdown"]["players"] == ["Ana", "Bo"]
    assert g.notes[-1] == "showdown: Ana and Bo tie, so they face off again"
    fun = game(draw("Ana", TWO_PAIRS_CARD), name=FUN, rounds=1, tiebreak="showdown")
    for player in ("Ana", "Bo", "Cy"):
        fun.apply(roll(player, JUNK))
        fun.apply(stop(player))
    for player in ("Ana", "Bo", "Cy"):
        fun.apply(roll(player, JUNK))
        fun.apply(stop(player))
    assert not fun.finished() and fun.details()["showdown"] == {
        "players": ["Ana", "Bo", "Cy"],
        "tiebreak": True,
        "hands": {},
    }
    for player, faces in (("Ana", TWO_PAIRS), ("Bo", JUNK), ("Cy", JUNK)):
        fun.apply(roll(player, faces))
        fun.apply(stop(player))
    assert fun.finished() and fun.winners() == ["Ana"]
    assert fun.totals() == {"Ana": 12, "Bo": 0, "Cy": 0} and fun.bank_paid == 12


def test_the_bonus_and_the_showdown_chips_have_their_least_values():
    """square_shooters.py bonus minimum 0 -> -1 (a negative bonus accepted), :137
    showdown_chips minimum 1 -> 0 (a showdown moving nothing accepted) / -> 2 (1 refused).
    RULES.md: "+5 bonus"; "takes up to 6 chips"; docs: `bonus` and `showdown_chips` options."""
    with pytest.raises(IllegalMove, match="option bonus must be at least 0"):
        game(bonus=-1)
    with pytest.raises(IllegalMove, match="option showdown_chips must be at least 1"):
        game(showdown_chips=0)
    g = game(
        *turn("Ana", FOUR_ACES_CARD, FOUR_ACES),
        shootout("Bo", "showdown"),
        challenge("Bo", "Ana"),
        roll("Bo", TWO_PAIRS),
        stop("Bo"),
        roll("Ana", JUNK),
        stop("Ana"),
        showdown_chips=1,
    )
    assert g.totals() == {"Ana": 20, "Bo": 1, "Cy": 0}


def test_rounds_run_from_1_to_99():
    """square_shooters.py rounds minimum 1 -> 0 (a game of no rounds accepted; it then
    played one), maximum 99 -> 98 / 100.  RULES.md: "Eight rounds"; docs: `rounds` option."""
    assert game(rounds=99).rounds == 99
    for bad, words in ((0, "at least 1"), (100, "at most 99")):
        with pytest.raises(IllegalMove, match=f"option rounds must be {words}"):
            game(rounds=bad)


def test_a_shuffle_naming_something_that_is_no_card_id_is_refused_cleanly():
    """square_shooters.py all -> any: a shuffle mixing a number among the card ids (a
    hand-edited saved game) crashed with TypeError instead of a refusal.
    docs/rules-square-shooters.md Errors: "a shuffle that is not the discard pile"."""
    g = new_game(CLASSIC, ["Ana", "Bo"], {})
    ids = list(g.discards)
    with pytest.raises(IllegalMove, match="a shuffle lists every card of the discard pile once"):
        g.apply(Event("shuffle", {"order": [*ids[:-1], 7]}, auto=True))
