"""Brute-force references for the scoring tests: slow, short, and plainly right.

They share no code with scoring.hands and scoring.melds beyond the face labels.
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from itertools import combinations, combinations_with_replacement

from scoring.faces import Card, Joker, Rank, parse_face
from scoring.hands import HAND_KINDS

# -- poker hands ------------------------------------------------------------------------
# A card is (value, suit): value 2..14 with the ace 14; a wild's suit may be None, a suit
# that makes no flush.


def hand_value(cards: tuple[tuple[int, str | None], ...]) -> tuple[int, tuple[int, ...]]:
    """(kind index, ranks) of at most five cards, as in poker."""
    values = tuple(sorted((v for v, _ in cards), reverse=True))
    suits = {s for _, s in cards}
    flush = len(cards) == 5 and len(suits) == 1 and None not in suits and len(set(cards)) == 5
    return _value(values, flush)


@cache
def _value(values: tuple[int, ...], flush: bool) -> tuple[int, tuple[int, ...]]:
    def hand(kind: str, ranks) -> tuple[int, tuple[int, ...]]:
        return HAND_KINDS.index(kind), tuple(ranks)

    if not values:
        return hand("high_card", ())
    counts = Counter(values)
    shape = sorted(counts.values(), reverse=True)
    grouped = sorted(counts, key=lambda v: (counts[v], v), reverse=True)  # KK449 -> K 4 9
    straight = None
    if len(values) == 5 and len(counts) == 5:
        if values[0] - values[4] == 4:
            straight = values[0]
        elif values == (14, 5, 4, 3, 2):
            straight = 5
    if shape[0] == 5:
        return hand("five_of_a_kind", grouped)
    if flush and straight == 14:
        return hand("royal_flush", [14])
    if flush and straight:
        return hand("straight_flush", [straight])
    if shape[0] == 4:
        return hand("four_of_a_kind", grouped)
    if shape[:2] == [3, 2]:
        return hand("full_house", grouped)
    if flush:
        return hand("flush", values)
    if straight:
        return hand("straight", [straight])
    if shape[:2] == [2, 2]:
        return hand("two_pairs", grouped)
    if shape[0] == 3:
        return hand("three_of_a_kind", grouped)
    if shape[0] == 2:
        return hand("one_pair", grouped)
    return hand("high_card", values)


def best_hand_value(labels, jokers_wild=True, extra_wilds=0) -> tuple[int, tuple[int, ...]]:
    """The best (kind index, ranks) over every five dice (fewer if fewer show) and every
    card for each wild; Six of a Kind is six of the dice, the cards among them one rank."""
    faces = [parse_face(label) for label in labels]
    cards = [(14 if f.rank == Rank.ACE else int(f.rank), f.suit.value) for f in faces if isinstance(f, Card)]
    wilds = extra_wilds + (sum(isinstance(f, Joker) for f in faces) if jokers_wild else 0)
    size = min(5, len(cards) + wilds)
    best = hand_value(())
    for used_wilds in range(min(wilds, size) + 1):
        for naturals in combinations(cards, size - used_wilds):
            best = max(best, best_with_wilds(same_suit_as_spades(naturals), used_wilds))
    for used_wilds in range(min(wilds, 6) + 1):
        for naturals in combinations(cards, 6 - used_wilds):
            if len({v for v, _ in naturals}) <= 1:
                rank = max((v for v, _ in naturals), default=14)
                best = max(best, (HAND_KINDS.index("six_of_a_kind"), (rank,)))
    return best


def same_suit_as_spades(cards):
    """Suits matter only through a flush, so cards of one suit become spades and mixed
    suits become None (no flush); this lets best_with_wilds cache across rolls."""
    one_suit = len({s for _, s in cards}) <= 1
    return tuple(sorted((v, "S" if one_suit else None) for v, _ in cards))


@cache
def best_with_wilds(naturals, wilds: int) -> tuple[int, tuple[int, ...]]:
    """The best hand of these cards plus ``wilds`` wild cards, trying every card for each
    wild: every value, in no suit, or (for a flush) all in the naturals' spades."""
    best = hand_value(())
    for values in combinations_with_replacement(range(2, 15), wilds):
        for suit in (None, "S"):
            best = max(best, hand_value(naturals + tuple((v, suit) for v in values)))
    return best
