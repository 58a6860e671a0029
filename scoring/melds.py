"""Rummy melds on Square Shooters dice: the sets and runs of a roll that score the most.

A set is three or four cards of one rank; a run is three or more cards of one suit in a
row, the ace low before a 2 (A-2-3) or high after a king (Q-K-A), never both: no wrap.
Each die is in at most one meld, and dice outside melds score nothing.  Wilds (jokers,
and cards of ``wild_ranks``, which may also be used as themselves) stand for missing
cards and score as the cards they stand for.  A meld holds no card twice and at least
one card used as itself; a wild may stand for a card showing on another die.

The search lists every meld the dice can form as a bitmask of dice, keeps the best meld
of each mask, then a memoised search over subsets of dice picks the best partition:
the most points, then the fewest wilds.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import cache, partial
from itertools import combinations
from typing import Any, NamedTuple

from scoring.faces import RANK_LABELS, SQUARE_SHOOTERS, Card, Face, Joker, Rank, Suit
from scoring.hands import rank_word, read_dice, value

# Points per card.  "A" is an ace in a set or at the high end of a run (Q-K-A), "A low"
# an ace at the low end (A-2-3).
POINT_TABLES: dict[str, dict[str, int]] = {
    "square-shooters": {  # sheet 000, Rummy: face values, K Q J 10
        "A": 15,
        "A low": 1,
        "2": 2,
        "3": 3,
        "4": 4,
        "5": 5,
        "6": 6,
        "7": 7,
        "8": 8,
        "9": 9,
        "10": 10,
        "J": 10,
        "Q": 10,
        "K": 10,
    },
    "rodeo-rummy": {  # sheet 001: K Q J 10 are 10, every other card 5
        "A": 15,
        "A low": 5,
        "2": 5,
        "3": 5,
        "4": 5,
        "5": 5,
        "6": 5,
        "7": 5,
        "8": 5,
        "9": 5,
        "10": 10,
        "J": 10,
        "Q": 10,
        "K": 10,
    },
}

_FACE_ORDER = {label: order for order, label in enumerate(SQUARE_SHOOTERS.labels)}


@dataclass(frozen=True)
class Meld:
    """A set or a run.  ``faces`` are the dice in it, ``cards`` what it shows in order
    (wilds as the cards they stand for), ``stands_for`` each wild's label and card."""

    kind: str  # "set" or "run"
    faces: tuple[Face, ...]
    cards: tuple[Card, ...]
    stands_for: tuple[tuple[str, Card], ...]
    points: int
    suit: Suit | None = None  # of a run
    rank: Rank | None = None  # of a set

    @property
    def wilds(self) -> int:
        return len(self.stands_for)

    def __str__(self) -> str:
        if self.kind == "set":
            name = f"Set of {rank_word(value(self.rank), plural=True)}"
        else:
            name = f"Run of {self.suit.name.lower()}"
        dice = {face.label: face for face in self.faces}
        wilds = ", ".join(f"{dice[label]} as {card}" for label, card in self.stands_for)
        shown = " ".join(map(str, self.cards)) + (f" [{wilds}]" if wilds else "")
        return f"{name}: {shown} ({self.points})"

    def to_json(self) -> dict[str, Any]:
        record: dict[str, Any] = {
            "kind": self.kind,
            "name": str(self),
            "faces": [face.label for face in self.faces],
            "cards": [card.label for card in self.cards],
            "stands_for": {label: card.label for label, card in self.stands_for},
            "points": self.points,
        }
        if self.kind == "set":
            record["rank"] = self.rank.label
        else:
            record["suit"] = self.suit.label
        return record


@dataclass(frozen=True)
class Melds:
    """The best melds of a roll, their total points, and the dice outside them."""

    points: int
    melds: tuple[Meld, ...]
    unused: tuple[Face, ...]

    def __str__(self) -> str:
        return "; ".join(map(str, self.melds)) or "no melds"

    def to_json(self) -> dict[str, Any]:
        return {
            "points": self.points,
            "melds": [meld.to_json() for meld in self.melds],
            "unused": [face.label for face in self.unused],
        }


def best_melds(
    labels: Iterable[str | Face],
    table: str | Mapping[str, int] = "square-shooters",
    jokers_wild: bool = True,
    wild_ranks: Iterable[Rank | str] = (),
    keep: Callable[[Meld], bool] | None = None,
) -> Melds:
    """The partition of the faces into melds that scores the most points.

    ``table`` names a point table of POINT_TABLES (or is one).  ``keep``, if given, says
    which melds may count (Rodeo Rummy's goals); the others are not formed at all.
    """
    points = _points_by_position(table)
    wild = {rank if isinstance(rank, Rank) else Rank.parse(str(rank)) for rank in wild_ranks}
    faces = sorted(read_dice(labels), key=lambda face: _FACE_ORDER[face.label])
    dice = [_Die.of(face, jokers_wild, wild) for face in faces]
    showing = {die.card for die in dice if die.card is not None}

    best: dict[int, tuple[tuple[int, int], Callable[[], Meld]]] = {}
    for mask, score, make in _candidates(dice, points, showing):
        if mask in best and best[mask][0] >= score:
            continue
        if keep is not None and not keep(make()):
            continue
        best[mask] = (score, make)

    picks = _best_partition(len(dice), {mask: score for mask, (score, _) in best.items()})
    melds = tuple(sorted((best[mask][1]() for mask in picks), key=lambda meld: -meld.points))
    used = sum(picks)
    unused = tuple(die.face for i, die in enumerate(dice) if not used >> i & 1)
    return Melds(sum(meld.points for meld in melds), melds, unused)


# -- the search -------------------------------------------------------------------------


class _Die(NamedTuple):
    face: Card | Joker
    card: Card | None  # what it shows used as itself; None for a joker
    wild: bool  # may stand for another card

    @classmethod
    def of(cls, face: Card | Joker, jokers_wild: bool, wild_ranks: set[Rank]) -> _Die:
        if isinstance(face, Joker):
            return cls(face, None, jokers_wild)
        return cls(face, face, face.rank in wild_ranks)


def _points_by_position(table: str | Mapping[str, int]) -> list[int]:
    """Points of a card at each run position 1..14 (1 the low ace, 14 the high ace, which
    is also an ace's worth in a set); index 0 is unused."""
    if isinstance(table, str):
        if table not in POINT_TABLES:
            raise ValueError(f"unknown point table {table!r}; tables are {', '.join(POINT_TABLES)}")
        table = POINT_TABLES[table]
    missing = {"A low", *RANK_LABELS} - set(table)
    if missing:
        raise ValueError(f"a point table needs points for {', '.join(sorted(missing))}")
    return [0, table["A low"], *(table[label] for label in RANK_LABELS[1:]), table["A"]]


def _candidates(
    dice: list[_Die], points: list[int], showing: set[Card]
) -> Iterator[tuple[int, tuple[int, int], Callable[[], Meld]]]:
    """Every meld the dice can form: its mask of dice, its score (points, -wilds), and a
    function that builds it.  A wild fills any place, so a meld is fixed by the dice
    used as themselves and the number of wilds; which wild goes where does not matter."""
    wild = [i for i, die in enumerate(dice) if die.wild]
    for rank in Rank:
        naturals = [i for i, die in enumerate(dice) if die.card is not None and die.card.rank == rank]
        fillers = [i for i in wild if i not in naturals]
        worth = points[value(rank)]
        for size in range(1, len(naturals) + 1):
            for own in combinations(naturals, size):
                for extra_size in range(max(0, 3 - size), 5 - size):
                    for extra in combinations(fillers, extra_size):
                        yield (
                            _mask(own + extra),
                            ((size + extra_size) * worth, -extra_size),
                            partial(_set_meld, dice, rank, own, extra, worth, showing),
                        )
    for suit in Suit:
        at = {}  # run position -> die showing that card of the suit
        for i, die in enumerate(dice):
            if die.card is not None and die.card.suit == suit:
                for position in _positions(die.card.rank):
                    at[position] = i
        for low in range(1, 13):
            gaps = 0
            for high in range(low, 15):
                gaps += high not in at
                if gaps > len(wild) or (low, high) == (1, 14):
                    break
                if high - low < 2:
                    continue
                length = high - low + 1
                naturals = [at[p] for p in range(low, high + 1) if p in at]
                fillers = [i for i in wild if i not in naturals]
                worth = sum(points[low : high + 1])
                for size in range(len(naturals), max(1, length - len(fillers)) - 1, -1):
                    for own in combinations(naturals, size):
                        for extra in combinations(fillers, length - size):
                            yield (
                                _mask(own + extra),
                                (worth, -len(extra)),
                                partial(_run_meld, dice, suit, low, high, own, extra, worth),
                            )


def _positions(rank: Rank) -> tuple[int, ...]:
    return (1, 14) if rank == Rank.ACE else (int(rank),)


def _mask(dice: tuple[int, ...]) -> int:
    return sum(1 << i for i in dice)


def _set_meld(
    dice: list[_Die], rank: Rank, own: tuple[int, ...], extra: tuple[int, ...], worth: int, showing: set[Card]
) -> Meld:
    cards = [dice[i].card for i in own]
    # Wilds stand for the suits missing from the set, cards showing nowhere first.
    missing = [Card(rank, suit) for suit in Suit if Card(rank, suit) not in cards]
    missing.sort(key=lambda card: card in showing)
    stands_for = tuple((dice[i].face.label, card) for i, card in zip(extra, missing, strict=False))
    faces = tuple(dice[i].face for i in own + extra)
    cards += [card for _, card in stands_for]
    return Meld("set", faces, tuple(cards), stands_for, worth * len(cards), rank=rank)


def _run_meld(
    dice: list[_Die],
    suit: Suit,
    low: int,
    high: int,
    own: tuple[int, ...],
    extra: tuple[int, ...],
    worth: int,
) -> Meld:
    ace = 1 if low == 1 else 14
    own_at = {ace if dice[i].card.rank == Rank.ACE else int(dice[i].card.rank): i for i in own}
    fillers = iter(extra)
    faces, cards, stands_for = [], [], []
    for position in range(low, high + 1):
        card = Card(Rank.ACE if position in (1, 14) else Rank(position), suit)
        i = own_at.get(position)
        if i is None:
            i = next(fillers)
            stands_for.append((dice[i].face.label, card))
        faces.append(dice[i].face)
        cards.append(card)
    return Meld("run", tuple(faces), tuple(cards), tuple(stands_for), worth, suit=suit)


def _best_partition(size: int, scores: dict[int, tuple[int, int]]) -> tuple[int, ...]:
    """The masks of the melds to form: disjoint, with the best total score.  Each step
    takes the lowest die left and either leaves it out or puts it in a meld."""
    by_lowest: list[list[int]] = [[] for _ in range(size)]
    for mask in scores:
        by_lowest[(mask & -mask).bit_length() - 1].append(mask)

    @cache
    def best(free: int) -> tuple[tuple[int, int], tuple[int, ...]]:
        if not free:
            return (0, 0), ()
        lowest = free & -free
        result = best(free ^ lowest)  # the lowest die scores nothing
        for mask in by_lowest[lowest.bit_length() - 1]:
            if mask & free == mask:
                (points, wilds), picks = best(free ^ mask)
                score = (points + scores[mask][0], wilds + scores[mask][1])
                if score > result[0]:
                    result = (score, (mask, *picks))
        return result

    return best((1 << size) - 1)[1]
