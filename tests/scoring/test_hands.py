"""Poker hands on Square Shooters dice: the sheet's examples, the ranking, jokers, target
cards, and agreement with a brute-force reference over thousands of random rolls."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.faces import CARD_LABELS, Card, Joker, Rank, Suit, UnknownFace
from scoring.hands import (
    HAND_KINDS,
    JOKER_CARD,
    TARGET_KINDS,
    Hand,
    Target,
    best_hand,
    contains_kind,
    match_target,
)
from tests.scoring.reference import best_hand_value, hand_value

JOKERS = ("JOKER_BLACK", "JOKER_RED")


def dice(text: str) -> list[str]:
    return text.split()


def hand(text: str, **options) -> Hand:
    return best_hand(dice(text), **options)


def labels(faces) -> list[str]:
    return [face.label for face in faces]


# -- the sheet's hands -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("roll", "kind", "words"),
    [
        ("KS KH 4D 4C 9S", "two_pairs", "Two Pairs, Kings and 4s"),
        ("JS JH JD 2C 2H", "full_house", "Full House, Jacks over 2s"),
        ("5S 6H 7D 8C 9S", "straight", "Straight, 9 high"),
        ("AH JH 9H 6H 3H", "flush", "Flush, Ace high in hearts"),
        ("AS AH AD AC 7D", "four_of_a_kind", "Four of a Kind, Aces"),
        ("5C 6C 7C 8C 9C", "straight_flush", "Straight Flush, 9 high in clubs"),
        ("10H JH QH KH AH", "royal_flush", "Royal Flush in hearts"),
        ("AS AH AD 7C 2D", "three_of_a_kind", "Three of a Kind, Aces"),
        ("QS QH 9D 7C 2D", "one_pair", "One Pair, Queens"),
        ("KS 10H 8D 5C 2D", "high_card", "High Card, King"),
    ],
)
def test_figure_1_hands_and_their_words(roll, kind, words):
    found = hand(roll)
    assert found.kind == kind
    assert str(found) == words
    assert sorted(labels(found.faces)) == sorted(roll.split())
    assert found.wilds == ()


def test_the_best_five_of_nine_dice():
    found = hand("JS JH JD 2C 2H 9D 8C 4S 3D")
    assert str(found) == "Full House, Jacks over 2s"
    assert labels(found.faces) == ["JS", "JH", "JD", "2H", "2C"]
    assert found.to_json() == {
        "kind": "full_house",
        "name": "Full House, Jacks over 2s",
        "faces": ["JS", "JH", "JD", "2H", "2C"],
        "wilds": {},
    }


def test_kinds_rank_as_figure_1_with_the_others_below_and_above():
    rolls = [
        "KS 10H 8D 5C 2D",  # high card
        "QS QH 9D 7C 2D",  # one pair
        "AS AH AD 7C 2D",  # three of a kind
        "2S 2H 3D 3C 4D",  # two pairs: above any three of a kind, as the sheet ranks them
        "2S 2H 2D 3C 3D",  # full house
        "AS 2H 3D 4C 5S",  # straight
        "7H 5H 4H 3H 2H",  # flush
        "2S 2H 2D 2C 3D",  # four of a kind
        "AC 2C 3C 4C 5C",  # straight flush
        "10S JS QS KS AS",  # royal flush
        "2S 2H 2D 2C JOKER_RED",  # five of a kind
        "2S 2H 2D 2C JOKER_RED JOKER_BLACK",  # six of a kind
    ]
    hands = [hand(roll) for roll in rolls]
    assert [found.kind for found in hands] == list(HAND_KINDS)
    assert hands == sorted(hands)
    assert all(low < high for low, high in zip(hands, hands[1:], strict=False))


@pytest.mark.parametrize(
    ("lower", "higher"),
    [
        ("AS 2H 3D 4C 5S", "2S 3H 4D 5C 6S"),  # A-2-3-4-5 is the lowest straight
        ("9S 10H JD QC KS", "10S JH QD KC AS"),  # the ace-high straight is the highest
        ("KS KH 4D 4C 9S", "KD KC 5D 5C 2S"),  # two pairs: the higher low pair
        ("KS KH 4D 4C 9S", "KD KC 4H 4S 10D"),  # two pairs: the kicker
        ("QS QH QD 2C 2D", "KS KH KD 3C 3D"),  # full house: the three first
        ("AH JH 9H 6H 3H", "AS QS 4S 3S 2S"),  # flush: card by card
        ("9S 9H 9D 9C 2D", "9S 9H 9D 9C 3D"),  # four of a kind: the kicker
        ("5C 6C 7C 8C 9C", "6D 7D 8D 9D 10D"),
        ("QS QH 9D 7C 2D", "QD QC 9S 8C 2H"),  # one pair: the kickers
    ],
)
def test_equal_kinds_compare_by_ranks_as_in_poker(lower, higher):
    assert hand(lower) < hand(higher)
    assert hand(higher) > hand(lower)


def test_hands_of_equal_kind_and_ranks_are_equal_whatever_the_suits():
    assert hand("10H JH QH KH AH") == hand("10S JS QS KS AS")
    assert hand("AS 2H 3D 4C 5S") == hand("AD 2S 3H 4D 5C")
    assert len({hand("10H JH QH KH AH"), hand("10S JS QS KS AS")}) == 1


def test_straight_words_and_the_wheel_ranks():
    wheel = hand("AS 2H 3D 4C 5S KD")
    assert str(wheel) == "Straight, 5 high"
    assert wheel.ranks == (5,)
    assert labels(wheel.faces) == ["5S", "4C", "3D", "2H", "AS"]


# -- jokers and the Joker Card ----------------------------------------------------------


def test_four_aces_and_a_joker_are_five_of_a_kind():
    found = hand("AS AH AD AC JOKER_RED 2C 3D 7H 9S")
    assert found.kind == "five_of_a_kind"
    assert str(found) == "Five of a Kind, Aces"
    assert labels(found.faces) == ["AS", "AH", "AD", "AC", "JOKER_RED"]
    assert found.wilds == (("JOKER_RED", Card(Rank.ACE, Suit.SPADES)),)


def test_four_of_a_rank_and_both_jokers_are_six_of_a_kind_over_six_dice():
    found = hand("7S 7H 7D 7C JOKER_RED JOKER_BLACK AS KS QS")
    assert found.kind == "six_of_a_kind"
    assert str(found) == "Six of a Kind, 7s"
    assert len(found.faces) == 6
    assert [label for label, _ in found.wilds] == ["JOKER_BLACK", "JOKER_RED"]
    assert found > hand("10H JH QH KH AH")


def test_a_joker_fills_the_best_card_missing():
    assert str(hand("10H JH QH KH JOKER_BLACK 2C")) == "Royal Flush in hearts"
    assert hand("10H JH QH KH JOKER_BLACK 2C").wilds == (("JOKER_BLACK", Card(Rank.ACE, Suit.HEARTS)),)
    assert str(hand("KS KH 4D 4C JOKER_RED")) == "Full House, Kings over 4s"
    # A flush's wild takes the highest card missing from the suit.
    flush = hand("AS KS QS 9S JOKER_RED 3H")
    assert flush.ranks == (14, 13, 12, 11, 9)
    assert flush.wilds == (("JOKER_RED", Card(Rank.JACK, Suit.SPADES)),)


def test_jokers_not_wild_are_ignored():
    found = hand("AS AH AD AC JOKER_RED JOKER_BLACK", jokers_wild=False)
    assert found.kind == "four_of_a_kind"
    assert "JOKER_RED" not in labels(found.faces)
    assert hand("JOKER_RED JOKER_BLACK 2S", jokers_wild=False).kind == "high_card"


def test_extra_wilds_are_joker_cards_off_the_dice():
    found = hand("AS AH AD AC 2C", extra_wilds=1)
    assert found.kind == "five_of_a_kind"
    assert found.wilds == ((JOKER_CARD, Card(Rank.ACE, Suit.SPADES)),)
    assert labels(found.faces) == ["AS", "AH", "AD", "AC"]  # the Joker Card is no die
    assert found.to_json()["wilds"] == {"JOKER_CARD": "AS"}
    # Dice jokers are used first; a second Joker Card gets a label of its own.
    six = hand("9S 9H 9D JOKER_RED", jokers_wild=True, extra_wilds=2)
    assert six.kind == "six_of_a_kind"
    assert [label for label, _ in six.wilds] == ["JOKER_RED", JOKER_CARD, "JOKER_CARD_2"]
    assert hand("AS AH AD AC 2C JOKER_RED", jokers_wild=False, extra_wilds=1).kind == "five_of_a_kind"


def test_fewer_than_five_faces_and_none():
    assert str(hand("AS KD")) == "High Card, Ace"
    assert hand("AS KD").ranks == (14, 13)
    assert str(hand("JOKER_RED JOKER_BLACK")) == "One Pair, Aces"
    assert str(best_hand([])) == "No cards"
    assert best_hand([]) < hand("2S")


# -- bad input ------------------------------------------------------------------------------


@pytest.mark.parametrize("bad", [["ZZ"], ["AS", "1X"], ["CUBES"], ["3"], ["BLANK"]])
def test_unknown_faces_raise_unknown_face(bad):
    with pytest.raises(UnknownFace):
        best_hand(bad)
    with pytest.raises(ValueError):
        contains_kind("flush", bad)


def test_a_card_cannot_show_twice_and_wilds_cannot_be_negative():
    with pytest.raises(ValueError, match="twice"):
        best_hand(["AS", "AS"])
    with pytest.raises(ValueError):
        best_hand(["AS"], extra_wilds=-1)
    with pytest.raises(ValueError):
        contains_kind("five_aces", ["AS"])


def test_faces_and_lowercase_labels_are_accepted():
    found = best_hand([Card(Rank.ACE, Suit.SPADES), Joker("RED"), "ah", "Td"])
    # The joker makes two pairs rather than three aces: the sheet ranks Two Pairs higher.
    assert str(found) == "Two Pairs, Aces and 10s"


# -- target cards ------------------------------------------------------------------------

FULL_HOUSE = Target.from_labels("full_house", dice("KS KH KD 4S 4H"), 8)
FOUR_ACES = Target.from_labels("four_of_a_kind", dice("AS AH AD AC"), 16)
TWO_PAIRS = Target.from_labels("two_pairs", dice("KS KC 7S 7D"), 4)


def test_exact_hand_type_of_hand_and_no_match():
    exact = match_target(FULL_HOUSE, dice("KS KH KD 4S 4H 2C 3C 7D 8D"))
    assert (exact.level, exact.joker_needed) == ("exact", False)
    assert labels(exact.faces) == ["KS", "KH", "KD", "4S", "4H"]
    kind = match_target(FULL_HOUSE, dice("KS KC KD 4S 4H 2C 3C 7D 8D"))
    assert (kind.level, kind.joker_needed) == ("type", False)
    assert match_target(FULL_HOUSE, dice("KS QC 4S 4H 2C 3C 7D 8D 9H")).level == "none"


def test_four_aces_target_and_four_tens_roll_is_the_type():
    """The sheet: for a Four of a Kind card showing four aces, four 10s win half the chips."""
    found = match_target(FOUR_ACES, dice("10S 10H 10D 10C 2S 3H 5D 7C 9S"))
    assert (found.level, found.joker_needed) == ("type", False)
    assert labels(found.faces) == ["10S", "10H", "10D", "10C"]
    assert match_target(FOUR_ACES, dice("AS AH AD AC 2S 3H 5D 7C 9S")).level == "exact"


def test_a_full_house_contains_two_pairs():
    found = match_target(TWO_PAIRS, dice("KS KH KD 4S 4H"))
    assert (found.level, found.joker_needed) == ("type", False)
    assert contains_kind("two_pairs", dice("KS KH KD 4S 4H"))
    assert contains_kind("straight", dice("5C 6C 7C 8C 9C"))
    assert contains_kind("flush", dice("5C 6C 7C 8C 9C"))
    assert contains_kind("straight_flush", dice("10H JH QH KH AH"))
    assert not contains_kind("two_pairs", dice("AS AH AD AC 2S"))


def test_a_joker_completes_the_exact_hand_and_says_so():
    found = match_target(FULL_HOUSE, dice("KS KH JOKER_RED 4S 4H 2C 3C 7D 8D"))
    assert (found.level, found.joker_needed) == ("exact", True)
    assert found.wilds == (("JOKER_RED", Card(Rank.KING, Suit.DIAMONDS)),)
    assert "JOKER_RED" in labels(found.faces)
    assert match_target(FULL_HOUSE, dice("KS KH JOKER_RED 4S 4H"), jokers_wild=False).level == "none"
    assert match_target(FULL_HOUSE, dice("KS KH 4S 4H"), extra_wilds=1).joker_needed


def test_the_type_without_a_joker_is_preferred_to_the_type_with_one():
    found = match_target(FULL_HOUSE, dice("QS QH QD 2S 2H JOKER_RED 9C"))
    assert (found.level, found.joker_needed) == ("type", False)
    assert "JOKER_RED" not in labels(found.faces)


def test_target_json_and_checks():
    assert FULL_HOUSE.to_json() == {"kind": "full_house", "cards": ["KS", "KH", "KD", "4S", "4H"], "chips": 8}
    assert Target.from_json(FULL_HOUSE.to_json()) == FULL_HOUSE
    assert match_target(FULL_HOUSE, dice("KS KH KD 4S 4H")).to_json() == {
        "level": "exact",
        "joker_needed": False,
        "faces": ["KS", "KH", "KD", "4S", "4H"],
        "wilds": {},
    }
    for kind, cards in [
        ("full_house", "KS KH KD 4S 5H"),  # not a full house
        ("two_pairs", "KS KH 4S 4H 9C"),  # two pairs show four cards
        ("straight", "AS 2H 3D 4C 6S"),
        ("royal_flush", "9H 10H JH QH KH"),
        ("flush", "AS KS QS JS JOKER_RED"),
        ("one_pair", "KS KH"),  # no target shows this kind
    ]:
        with pytest.raises(ValueError):
            Target.from_labels(kind, cards.split(), 5)
    with pytest.raises(ValueError):
        Target.from_labels("full_house", dice("KS KH KD 4S 4H"), -1)


# -- property tests against the brute-force reference ----------------------------------


@st.composite
def rolls(draw, size: int = 9):
    """``size`` different faces of the 54, 0-2 of them jokers."""
    n_jokers = min(draw(st.integers(0, 2)), size)
    return draw(st.permutations(CARD_LABELS))[: size - n_jokers] + list(JOKERS[:n_jokers])


PROPERTY = settings(max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@PROPERTY
@given(rolls())
def test_best_hand_agrees_with_the_brute_force_reference(roll):
    assert best_hand(roll).strength == best_hand_value(roll)


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 9).flatmap(lambda size: rolls(size)), st.booleans(), st.integers(0, 2))
def test_short_rolls_and_joker_cards_agree_with_the_reference(roll, jokers_wild, extra_wilds):
    assert best_hand(roll, jokers_wild, extra_wilds).strength == best_hand_value(
        roll, jokers_wild, extra_wilds
    )


@settings(max_examples=300, deadline=None)
@given(rolls(), st.booleans(), st.integers(0, 1))
def test_a_hands_dice_and_wilds_show_what_it_claims(roll, jokers_wild, extra_wilds):
    found = best_hand(roll, jokers_wild, extra_wilds)
    shown = {face.label for face in found.faces}
    assert shown <= set(roll) and len(shown) == len(found.faces)
    wild_labels = [label for label, _ in found.wilds]
    assert all(label in JOKERS for label in wild_labels if label in shown)
    assert len(found.faces) + sum(label not in shown for label in wild_labels) == len(found.cards)
    available = sum(label not in JOKERS for label in roll) + extra_wilds
    available += sum(label in JOKERS for label in roll) if jokers_wild else 0
    assert len(found.cards) == (6 if found.kind == "six_of_a_kind" else min(5, available))
    naturals = [face for face in found.faces if isinstance(face, Card)]
    assert sorted(naturals + [card for _, card in found.wilds], key=str) == sorted(found.cards, key=str)
    if found.kind != "six_of_a_kind":
        as_values = tuple((14 if c.rank == Rank.ACE else int(c.rank), c.suit.value) for c in found.cards)
        assert hand_value(as_values) == found.strength


@settings(max_examples=300, deadline=None)
@given(rolls(), st.booleans(), st.integers(0, 1))
def test_the_order_of_the_faces_does_not_matter(roll, jokers_wild, extra_wilds):
    forward = best_hand(roll, jokers_wild, extra_wilds).to_json()
    assert best_hand(roll[::-1], jokers_wild, extra_wilds).to_json() == forward


@settings(max_examples=500, deadline=None)
@given(rolls(), st.booleans())
def test_the_best_kind_is_the_highest_kind_the_roll_contains(roll, jokers_wild):
    found = best_hand(roll, jokers_wild)
    assert found.kind == max(
        (kind for kind in HAND_KINDS if contains_kind(kind, roll, jokers_wild)), key=HAND_KINDS.index
    )


@st.composite
def targets(draw) -> Target:
    kind = draw(st.sampled_from(TARGET_KINDS))
    suits = st.sampled_from(list(Suit))
    if kind in ("two_pairs", "full_house", "four_of_a_kind"):
        sizes = {"two_pairs": (2, 2), "full_house": (3, 2), "four_of_a_kind": (4,)}[kind]
        ranks = draw(
            st.lists(st.sampled_from(list(Rank)), min_size=len(sizes), max_size=len(sizes), unique=True)
        )
        cards = [
            Card(rank, suit)
            for rank, size in zip(ranks, sizes, strict=True)
            for suit in draw(st.lists(suits, min_size=size, max_size=size, unique=True))
        ]
    elif kind == "flush":
        suit = draw(suits)
        ranks = draw(st.lists(st.sampled_from(list(Rank)), min_size=5, max_size=5, unique=True))
        cards = [Card(rank, suit) for rank in ranks]
    else:
        high = 14 if kind == "royal_flush" else draw(st.integers(5, 13 if kind == "straight_flush" else 14))
        ranks = [Rank.ACE if v in (1, 14) else Rank(v) for v in range(high - 4, high + 1)]
        if kind == "straight":
            cards = [Card(rank, draw(suits)) for rank in ranks]
        else:
            suit = draw(suits)
            cards = [Card(rank, suit) for rank in ranks]
    return Target(kind, tuple(cards), 10)


@st.composite
def target_and_roll(draw):
    """A target, and nine faces holding some of its cards (so exact matches happen)."""
    target = draw(targets())
    held = draw(st.lists(st.sampled_from([card.label for card in target.cards]), unique=True))
    others = [label for label in draw(st.permutations(CARD_LABELS + JOKERS)) if label not in held]
    return target, held + others[: 9 - len(held)]


@settings(max_examples=600, deadline=None)
@given(target_and_roll(), st.booleans(), st.integers(0, 1))
def test_target_matches_are_consistent(target_roll, jokers_wild, extra_wilds):
    target, roll = target_roll
    found = match_target(target, roll, jokers_wild, extra_wilds)
    without_wilds = match_target(target, roll, jokers_wild=False)
    levels = ("none", "type", "exact")
    # The wilds can only help, and they are needed exactly when they change the level.
    assert levels.index(found.level) >= levels.index(without_wilds.level)
    assert found.joker_needed == (found.level != without_wilds.level)
    assert found.joker_needed == bool(found.wilds)
    assert {face.label for face in found.faces} <= set(roll)
    cards = [face for face in found.faces if isinstance(face, Card)] + [card for _, card in found.wilds]
    showing = all(card.label in roll for card in target.cards)
    if found.level == "exact":
        assert sorted(cards, key=str) == sorted(target.cards, key=str)
    else:
        assert not showing
    if found.level == "type":
        assert contains_kind(target.kind, cards, jokers_wild=False)
    assert (found.level != "none") == (
        contains_kind(target.kind, roll, jokers_wild, extra_wilds) or found.level == "exact"
    )
