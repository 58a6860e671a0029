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


# -- rummy melds ------------------------------------------------------------------------


def card_points(table: str, place: int) -> int:
    """A card's points at a run place (1 the low ace, 14 the high ace, also an ace in a
    set; 2..13 the other ranks)."""
    if place == 14:
        return 15
    if place == 1:
        return 1 if table == "square-shooters" else 5
    if place >= 10:
        return 10
    return place if table == "square-shooters" else 5


def meld_points(group, table, jokers_wild=True, wild_ranks=frozenset(), kinds=("set", "run")) -> int:
    """The most these dice score as one meld, 0 if they form none: every choice of which
    may-be-wild dice act as wilds, tried as a set and as a run at every place."""

    def may_be_wild(face) -> bool:
        return jokers_wild if isinstance(face, Joker) else face.rank in wild_ranks

    fixed = [face for face in group if not may_be_wild(face)]
    if any(isinstance(face, Joker) for face in fixed):
        return 0  # a joker that is not wild is in no meld
    if len({card.rank for card in fixed}) > 1 and len({card.suit for card in fixed}) > 1:
        return 0  # a shortcut: neither one rank (a set) nor one suit (a run)
    size = len(group)
    best = 0
    may = [face for face in group if may_be_wild(face)]
    for count in range(len(may) + 1):
        for acting in combinations(may, count):
            naturals = [face for face in group if face not in acting]
            if not naturals or any(isinstance(face, Joker) for face in naturals):
                continue
            if "set" in kinds and 3 <= size <= 4 and len({card.rank for card in naturals}) == 1:
                rank = naturals[0].rank
                best = max(best, size * card_points(table, 14 if rank == Rank.ACE else int(rank)))
            if "run" in kinds and size >= 3 and len({card.suit for card in naturals}) == 1:
                for ace in (1, 14):
                    places = [ace if card.rank == Rank.ACE else int(card.rank) for card in naturals]
                    for low in range(1, 16 - size):
                        high = low + size - 1
                        if (low, high) != (1, 14) and all(low <= place <= high for place in places):
                            best = max(best, sum(card_points(table, place) for place in range(low, high + 1)))
    return best


def best_melds_points(
    labels, table="square-shooters", jokers_wild=True, wild_ranks=(), kinds=("set", "run")
) -> int:
    """The most points of any partition of the dice into melds and dice left out."""
    faces = [parse_face(label) for label in labels]
    wild = frozenset(rank if isinstance(rank, Rank) else Rank.parse(rank) for rank in wild_ranks)
    melds = {}  # every group of three or more dice that forms a meld -> its points
    for size in range(3, len(faces) + 1):
        for group in combinations(range(len(faces)), size):
            points = meld_points([faces[i] for i in group], table, jokers_wild, wild, kinds)
            if points:
                melds[frozenset(group)] = points

    @cache
    def best(free: frozenset[int]) -> int:
        if not free:
            return 0
        first = min(free)
        result = best(free - {first})  # the first die left out
        for group, points in melds.items():
            if first in group and group <= free:
                result = max(result, points + best(free - group))
        return result

    return best(frozenset(range(len(faces))))
