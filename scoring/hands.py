"""Poker hands on Square Shooters dice: the best hand a roll shows, and target cards.

A roll is up to nine faces: cards and at most two jokers.  With jokers wild a joker may
stand for any card, even one showing on another die (four aces and a joker are Five of a
Kind); ``extra_wilds`` adds wild cards that are not on the dice (the Joker Card).  A hand
uses at most five dice, except Six of a Kind (four of a rank and two wilds).  A flush is
five different cards of one suit.

Hands are found by counting, not by trying subsets of dice: for each kind, from the
highest down, list the *ways* the roll can make it (a rank to fill, a straight's five
ranks, a flush's suit) within the wilds it has; the first kind with a way is the hand,
and its best way (highest ranks, then fewest wilds) says which dice make it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import total_ordering
from typing import Any, NamedTuple

from scoring.faces import SQUARE_SHOOTERS, Card, Face, Joker, Rank, Suit, check_each_once

HAND_KINDS = (
    "high_card",
    "one_pair",
    "three_of_a_kind",
    "two_pairs",
    "full_house",
    "straight",
    "flush",
    "four_of_a_kind",
    "straight_flush",
    "royal_flush",
    "five_of_a_kind",
    "six_of_a_kind",
)  # lowest to highest, as Figure 1 of the Square Shooters sheet ranks them

TARGET_KINDS = HAND_KINDS[3:10]  # the seven kinds printed on target cards

KIND_NAMES = {
    "high_card": "High Card",
    "one_pair": "One Pair",
    "three_of_a_kind": "Three of a Kind",
    "two_pairs": "Two Pairs",
    "full_house": "Full House",
    "straight": "Straight",
    "flush": "Flush",
    "four_of_a_kind": "Four of a Kind",
    "straight_flush": "Straight Flush",
    "royal_flush": "Royal Flush",
    "five_of_a_kind": "Five of a Kind",
    "six_of_a_kind": "Six of a Kind",
}

JOKER_CARD = "JOKER_CARD"  # the label of a wild off the dice; a second is "JOKER_CARD_2"

# How many cards of one rank each kind of "of a kind" hand needs, group by group.
_GROUP_SIZES = {
    "high_card": (1,),
    "one_pair": (2,),
    "three_of_a_kind": (3,),
    "two_pairs": (2, 2),
    "full_house": (3, 2),
    "four_of_a_kind": (4,),
    "five_of_a_kind": (5,),
    "six_of_a_kind": (6,),
}

_TARGET_SIZES = {"two_pairs": 4, "four_of_a_kind": 4}  # the other target cards show 5

_SUIT_ORDER = {suit: order for order, suit in enumerate(Suit)}  # S H D C


def value(rank: Rank) -> int:
    """A rank's value for comparing hands: 2..13, and 14 for an ace."""
    return 14 if rank == Rank.ACE else int(rank)


def rank_of(value: int) -> Rank:
    """The rank at a value; 1 is the ace at the bottom of A-2-3-4-5."""
    return Rank.ACE if value in (1, 14) else Rank(value)


def rank_word(value: int, plural: bool = False) -> str:
    word = {14: "Ace", 13: "King", 12: "Queen", 11: "Jack", 1: "Ace"}.get(value, str(value))
    return word + "s" if plural else word


def read_dice(labels: Iterable[str | Face]) -> tuple[Card | Joker, ...]:
    """The faces of Square Shooters dice; each card is on one die face, so none repeats."""
    faces = tuple(SQUARE_SHOOTERS.check(label) for label in labels)
    check_each_once(faces)
    return faces


@total_ordering
@dataclass(frozen=True)
class Hand:
    """A poker hand: its kind, its tiebreak ranks, and the dice that make it.

    Hands compare by kind, then by ``ranks`` (values 2..14, ace high; a 5-high straight
    has ranks ``(5,)``).  ``cards`` is what the hand shows, wilds as the cards they stand
    for; ``faces`` the dice used; ``wilds`` pairs each wild's label with its card.
    """

    kind: str
    ranks: tuple[int, ...]
    cards: tuple[Card, ...] = field(compare=False)
    faces: tuple[Face, ...] = field(compare=False)
    wilds: tuple[tuple[str, Card], ...] = field(compare=False)

    @property
    def strength(self) -> tuple[int, tuple[int, ...]]:
        return HAND_KINDS.index(self.kind), self.ranks

    def __lt__(self, other: Hand) -> bool:
        if not isinstance(other, Hand):
            return NotImplemented
        return self.strength < other.strength

    def __str__(self) -> str:
        name, ranks = KIND_NAMES[self.kind], self.ranks
        if not ranks:
            return "No cards"
        if self.kind == "royal_flush":
            return f"{name} in {self.cards[0].suit.name.lower()}"
        if self.kind in ("straight", "flush", "straight_flush"):
            suit = "" if self.kind == "straight" else f" in {self.cards[0].suit.name.lower()}"
            return f"{name}, {rank_word(ranks[0])} high{suit}"
        if self.kind == "full_house":
            return f"{name}, {rank_word(ranks[0], True)} over {rank_word(ranks[1], True)}"
        if self.kind == "two_pairs":
            return f"{name}, {rank_word(ranks[0], True)} and {rank_word(ranks[1], True)}"
        return f"{name}, {rank_word(ranks[0], self.kind != 'high_card')}"

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "name": str(self),
            "faces": [face.label for face in self.faces],
            "wilds": {label: card.label for label, card in self.wilds},
        }


@dataclass(frozen=True)
class Target:
    """A target card: the exact hand printed on it and the chips it pays.

    Two Pairs and Four of a Kind cards list their four defining cards, the others five.
    """

    kind: str
    cards: tuple[Card, ...]
    chips: int

    def __post_init__(self) -> None:
        if self.kind not in TARGET_KINDS:
            raise ValueError(f"unknown target kind {self.kind!r}; kinds are {', '.join(TARGET_KINDS)}")
        size = _TARGET_SIZES.get(self.kind, 5)
        if len(self.cards) != size or not all(isinstance(card, Card) for card in self.cards):
            raise ValueError(f"a {KIND_NAMES[self.kind]} target shows {size} cards, no jokers")
        if len(set(self.cards)) != size or not contains_kind(self.kind, self.cards, jokers_wild=False):
            shown = " ".join(card.label for card in self.cards)
            raise ValueError(f"{shown} is not a {KIND_NAMES[self.kind]}")
        if not isinstance(self.chips, int) or isinstance(self.chips, bool) or self.chips < 0:
            raise ValueError("a target's chips must be a whole number, 0 or more")

    @classmethod
    def from_labels(cls, kind: str, labels: Iterable[str | Face], chips: int) -> Target:
        return cls(kind, read_dice(labels), chips)  # __post_init__ rejects jokers

    @classmethod
    def from_json(cls, record: dict[str, Any]) -> Target:
        return cls.from_labels(record["kind"], record["cards"], record["chips"])

    def __str__(self) -> str:
        return f"{KIND_NAMES[self.kind]} {' '.join(map(str, self.cards))} ({self.chips} chips)"

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "cards": [card.label for card in self.cards], "chips": self.chips}


@dataclass(frozen=True)
class TargetMatch:
    """How well a roll matches a target: "exact", "type" or "none".

    ``joker_needed`` is true when that level is impossible without a wild; ``faces``
    are the dice used and ``wilds`` what each wild stands for.
    """

    level: str
    joker_needed: bool
    faces: tuple[Face, ...]
    wilds: tuple[tuple[str, Card], ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "level": self.level,
            "joker_needed": self.joker_needed,
            "faces": [face.label for face in self.faces],
            "wilds": {label: card.label for label, card in self.wilds},
        }


def best_hand(labels: Iterable[str | Face], jokers_wild: bool = True, extra_wilds: int = 0) -> Hand:
    """The best poker hand the faces make (see the module's docstring for the rules)."""
    roll = _Roll(labels, jokers_wild, extra_wilds)
    for kind in reversed(HAND_KINDS):
        way = max(_ways(kind, roll), key=lambda way: (way.ranks, -way.wilds), default=None)
        if way is not None:
            return _hand(kind, way, roll)
    return Hand("high_card", (), (), (), ())  # nothing showing and no wilds


def contains_kind(
    kind: str, labels: Iterable[str | Face], jokers_wild: bool = True, extra_wilds: int = 0
) -> bool:
    """Whether some of the faces form a hand of this kind (a full house contains two pairs,
    a straight flush a straight and a flush, a royal flush a straight flush)."""
    if kind not in HAND_KINDS:
        raise ValueError(f"unknown hand kind {kind!r}; kinds are {', '.join(HAND_KINDS)}")
    return next(_ways(kind, _Roll(labels, jokers_wild, extra_wilds)), None) is not None


def match_target(
    target: Target, labels: Iterable[str | Face], jokers_wild: bool = True, extra_wilds: int = 0
) -> TargetMatch:
    """The best level the faces reach for a target card, using as few wilds as that level
    allows: "exact" when every card of its hand shows (wilds filling in), else "type"
    when they contain a hand of its kind, else "none"."""
    roll = _Roll(labels, jokers_wild, extra_wilds)
    missing = sum(card not in roll.showing for card in target.cards)
    if missing <= len(roll.wilds):
        return _match("exact", target.cards, roll)
    way = min(_ways(target.kind, roll), key=lambda way: way.wilds, default=None)
    if way is not None:
        return _match("type", way.cards, roll)
    return TargetMatch("none", False, ())


# -- counting ---------------------------------------------------------------------------


class _Roll:
    """One roll's faces, indexed for counting: the natural cards by value and by suit,
    and the labels of the wilds: the jokers on the dice (black, then red), then the Joker
    Cards; the order of the faces given never matters."""

    def __init__(self, labels: Iterable[str | Face], jokers_wild: bool, extra_wilds: int):
        if not isinstance(extra_wilds, int) or isinstance(extra_wilds, bool) or extra_wilds < 0:
            raise ValueError("extra_wilds must be a whole number, 0 or more")
        faces = read_dice(labels)
        self.cards = sorted(  # highest first, then in suit order, whatever the order rolled
            (face for face in faces if isinstance(face, Card)),
            key=lambda card: (-value(card.rank), _SUIT_ORDER[card.suit]),
        )
        self.showing = frozenset(self.cards)
        jokers = [face for face in faces if isinstance(face, Joker) and jokers_wild]
        self.jokers = {joker.label: joker for joker in sorted(jokers, key=lambda joker: joker.label)}
        extra = [JOKER_CARD] + [f"{JOKER_CARD}_{n}" for n in range(2, extra_wilds + 1)]
        self.wilds = tuple(self.jokers) + tuple(extra[:extra_wilds])
        self.count = Counter(value(card.rank) for card in self.cards)
        # Bit v is set when value v shows, overall and per suit; an ace sets bit 1 too,
        # for A-2-3-4-5.  A straight's need is then one popcount.
        self.mask = 0
        self.suit_masks = dict.fromkeys(Suit, 0)
        for card in self.cards:
            bits = 1 << value(card.rank) | (2 if card.rank == Rank.ACE else 0)
            self.mask |= bits
            self.suit_masks[card.suit] |= bits


class _Way(NamedTuple):
    """One way to make a hand of some kind: its ranks, the wilds it needs, and its cards
    (wilds as the cards they stand for)."""

    ranks: tuple[int, ...]
    wilds: int
    cards: tuple[Card, ...]


def _ways(kind: str, roll: _Roll) -> Iterator[_Way]:
    """Every way the roll can make a hand of this kind with the wilds it has."""
    if kind in _GROUP_SIZES:
        return _group_ways(roll, _GROUP_SIZES[kind])
    if kind == "flush":
        return _flush_ways(roll)
    if kind == "straight":
        return _straight_ways(roll, (None,), range(14, 4, -1))
    if kind == "straight_flush":
        return _straight_ways(roll, tuple(Suit), range(14, 4, -1))
    return _straight_ways(roll, tuple(Suit), (14,))  # royal_flush


def _group_ways(roll: _Roll, sizes: tuple[int, ...]) -> Iterator[_Way]:
    """Groups of these sizes, each of one rank and the ranks all different, highest first."""

    def extend(values: tuple[int, ...], wilds: int) -> Iterator[tuple[tuple[int, ...], int]]:
        if len(values) == len(sizes):
            yield values, wilds
            return
        size = sizes[len(values)]
        for v in range(14, 1, -1):
            # Equal groups (two pairs) are listed higher first, so each way comes once.
            if v in values or (values and size == sizes[len(values) - 1] and v > values[-1]):
                continue
            need = max(0, size - roll.count[v])
            if wilds + need <= len(roll.wilds):
                yield from extend(values + (v,), wilds + need)

    for values, wilds in extend((), 0):
        cards = sum((_group(roll, v, size) for v, size in zip(values, sizes, strict=True)), ())
        yield _Way(values, wilds, cards)


def _group(roll: _Roll, v: int, size: int) -> tuple[Card, ...]:
    """``size`` cards of value ``v``: those showing, then the cards wilds stand for (suits
    not showing first; a card repeats only in Five and Six of a Kind)."""
    rank = rank_of(v)
    naturals = [card for card in roll.cards if card.rank == rank][:size]
    spare = [Card(rank, suit) for suit in Suit if Card(rank, suit) not in roll.showing]
    spare += [Card(rank, suit) for suit in Suit] * 2
    return tuple(naturals) + tuple(spare[: size - len(naturals)])


def _straight_ways(roll: _Roll, suits: tuple[Suit | None, ...], highs: Iterable[int]) -> Iterator[_Way]:
    """Five values in a row ending at each high, in each suit (None: any suits)."""
    for high in highs:
        window = 0b11111 << (high - 4)
        for suit in suits:
            showing = roll.mask if suit is None else roll.suit_masks[suit]
            need = (window & ~showing).bit_count()
            if need <= len(roll.wilds):
                yield _Way((high,), need, tuple(_card_at(roll, v, suit) for v in range(high, high - 5, -1)))


def _card_at(roll: _Roll, v: int, suit: Suit | None) -> Card:
    """The card a straight shows at value v: in ``suit``, or the first showing one."""
    rank = rank_of(v)
    if suit is not None:
        return Card(rank, suit)
    return next((card for card in roll.cards if card.rank == rank), Card(rank, Suit.SPADES))


def _flush_ways(roll: _Roll) -> Iterator[_Way]:
    """Five cards of a suit, for each number of wilds: wilds take the highest cards missing."""
    for suit in Suit:
        showing = roll.suit_masks[suit] & ~0b10  # an ace counts once, high
        for budget in range(max(0, 5 - showing.bit_count()), min(len(roll.wilds), 5) + 1):
            values: list[int] = []
            wilds = 0
            for v in range(14, 1, -1):
                if showing >> v & 1:
                    values.append(v)
                elif wilds < budget:
                    values.append(v)
                    wilds += 1
                if len(values) == 5:
                    break
            yield _Way(tuple(values), wilds, tuple(Card(rank_of(v), suit) for v in values))


def _hand(kind: str, way: _Way, roll: _Roll) -> Hand:
    """The hand a way makes, topped up to five cards with the highest other cards."""
    kickers: list[Card] = []
    if kind in _GROUP_SIZES:
        kickers = [card for card in roll.cards if value(card.rank) not in way.ranks]
        kickers = kickers[: max(0, 5 - len(way.cards))]
    cards = way.cards + tuple(kickers)
    faces, wilds = _dice_for(cards, roll)
    return Hand(kind, way.ranks + tuple(value(card.rank) for card in kickers), cards, faces, wilds)


def _match(level: str, cards: tuple[Card, ...], roll: _Roll) -> TargetMatch:
    faces, wilds = _dice_for(cards, roll)
    return TargetMatch(level, bool(wilds), faces, wilds)


def _dice_for(cards: tuple[Card, ...], roll: _Roll) -> tuple[tuple[Face, ...], tuple[tuple[str, Card], ...]]:
    """The dice that show these cards: each card's own die if unused yet, else the next
    wild (a Joker Card is no die, so it is only in the wilds)."""
    unused = set(roll.showing)
    wild_labels = iter(roll.wilds)
    faces: list[Face] = []
    wilds: list[tuple[str, Card]] = []
    for card in cards:
        if card in unused:
            unused.discard(card)
            faces.append(card)
        else:
            label = next(wild_labels)
            wilds.append((label, card))
            if label in roll.jokers:
                faces.append(roll.jokers[label])
    return tuple(faces), tuple(wilds)
