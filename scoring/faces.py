"""Face labels and the die kinds that show them.

Every face a die can show has one label string (see ../shared/RULES.md):
``AS``..``KC`` (rank A 2-10 J Q K, suit S H D C), ``JOKER_BLACK``, ``JOKER_RED``,
``CUBES``, ``BLANK`` and ``1``..``6``.  ``parse_face`` turns a label into a small
immutable value (Card, Joker, Number, Word, Blank); ``face.label`` turns it back.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum, IntEnum
from functools import cached_property


class UnknownFace(ValueError):
    """A label that names no face of any die."""


class Rank(IntEnum):
    """Card ranks, ace low by value; games decide whether an ace is also high."""

    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13

    @property
    def label(self) -> str:
        return _RANK_LABELS[self]

    @classmethod
    def parse(cls, text: str) -> Rank:
        try:
            return _RANKS_BY_LABEL[text.upper()]
        except KeyError:
            raise UnknownFace(f"unknown rank {text!r}; ranks are {' '.join(RANK_LABELS)}") from None


RANK_LABELS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
_RANK_LABELS = dict(zip(Rank, RANK_LABELS, strict=True))
_RANKS_BY_LABEL = {label: rank for rank, label in _RANK_LABELS.items()}


class Suit(Enum):
    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    @property
    def label(self) -> str:
        return self.value

    @property
    def symbol(self) -> str:
        return {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[self.value]

    @property
    def is_red(self) -> bool:
        return self in (Suit.HEARTS, Suit.DIAMONDS)

    @classmethod
    def parse(cls, text: str) -> Suit:
        try:
            return cls(text.upper())
        except ValueError:
            raise UnknownFace(f"unknown suit {text!r}; suits are S H D C") from None


@dataclass(frozen=True, order=True)
class Card:
    """A playing-card face: ``Card(Rank.ACE, Suit.SPADES).label == "AS"``."""

    rank: Rank
    suit: Suit

    @cached_property  # labels are looked at in every hot loop of the rules
    def label(self) -> str:
        return self.rank.label + self.suit.label

    def __str__(self) -> str:
        return self.rank.label + self.suit.symbol


@dataclass(frozen=True)
class Joker:
    colour: str  # "BLACK" or "RED"

    @property
    def label(self) -> str:
        return f"JOKER_{self.colour}"

    def __str__(self) -> str:
        return f"{self.colour.lower()} joker"


@dataclass(frozen=True, order=True)
class Number:
    """A number on a Cubes cube, or the pips of a plain die."""

    value: int

    @property
    def label(self) -> str:
        return str(self.value)

    def __str__(self) -> str:
        return self.label


@dataclass(frozen=True)
class Word:
    """The printed word on a Cubes cube."""

    text: str = "CUBES"

    @property
    def label(self) -> str:
        return self.text

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class Blank:
    @property
    def label(self) -> str:
        return "BLANK"

    def __str__(self) -> str:
        return "blank"


Face = Card | Joker | Number | Word | Blank

JOKER_BLACK = Joker("BLACK")
JOKER_RED = Joker("RED")
CUBES = Word("CUBES")
BLANK = Blank()

CARD_LABELS = tuple(rank.label + suit.label for suit in Suit for rank in Rank)
NUMBER_LABELS = tuple(str(n) for n in range(1, 7))
ALL_LABELS = CARD_LABELS + ("JOKER_BLACK", "JOKER_RED", "CUBES", "BLANK") + NUMBER_LABELS

_FACES: dict[str, Face] = {
    **{Card(rank, suit).label: Card(rank, suit) for suit in Suit for rank in Rank},
    "JOKER_BLACK": JOKER_BLACK,
    "JOKER_RED": JOKER_RED,
    "CUBES": CUBES,
    "BLANK": BLANK,
    **{str(n): Number(n) for n in range(1, 7)},
}


def parse_face(label: str | Face) -> Face:
    """The face a label names; case-insensitive, ``"T"`` accepted for ten."""
    if not isinstance(label, str):
        return label
    face = _FACES.get(label)
    if face is not None:
        return face
    text = label.strip().upper()
    if text.startswith("T") and len(text) == 2:
        text = "10" + text[1]
    try:
        return _FACES[text]
    except KeyError:
        raise UnknownFace(
            f"unknown face label {label!r}; expected a card like AS or 10H, "
            "JOKER_BLACK, JOKER_RED, CUBES, BLANK or 1..6"
        ) from None


def as_named(face: Face) -> str:
    """A face as the dice print it, with its label where the two differ: "A♠ (AS)", "3"."""
    return str(face) if str(face) == face.label else f"{face} ({face.label})"


def check_each_once(faces) -> None:
    """Raise ValueError naming a face that shows twice: a set that prints each face once
    (Square Shooters: one deck) cannot show it on two dice."""
    seen: set[Face] = set()
    for face in faces:
        if face in seen:
            raise ValueError(f"{as_named(face)} shows twice, but only one die face carries it")
        seen.add(face)


def parse_faces(labels) -> tuple[Face, ...]:
    return tuple(parse_face(label) for label in labels)


@dataclass(frozen=True)
class DieKind:
    """One kind of dice set: which faces its dice show and how many dice a roll uses."""

    name: str
    labels: tuple[str, ...]
    dice: int | None  # dice in a full roll; None when any number may be rolled
    each_face_once: bool = False  # the set prints every face on one die only (a deck of cards)
    label_set: frozenset[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self):
        object.__setattr__(self, "label_set", frozenset(self.labels))

    def check(self, label: str | Face) -> Face:
        face = parse_face(label)
        if face.label not in self.label_set:
            raise UnknownFace(f"{face.label} is not a face of {self.name} dice")
        return face


SQUARE_SHOOTERS = DieKind(
    "square-shooters", CARD_LABELS + ("JOKER_BLACK", "JOKER_RED"), 9, each_face_once=True
)
CUBES_DICE = DieKind("cubes", ("CUBES", "BLANK") + NUMBER_LABELS, 6)
D6 = DieKind("d6", NUMBER_LABELS, None)

DIE_KINDS: dict[str, DieKind] = {kind.name: kind for kind in (SQUARE_SHOOTERS, CUBES_DICE, D6)}


def die_kind(name: str) -> DieKind:
    try:
        return DIE_KINDS[name]
    except KeyError:
        raise ValueError(f"unknown die kind {name!r}; choose one of {', '.join(DIE_KINDS)}") from None
