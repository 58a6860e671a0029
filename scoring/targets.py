"""The Square Shooters game cards: 34 target cards and 8 shootout cards (sheet 000).

The deck is data, ``scoring/data/square_shooters_deck.json``.  Figure 1 of the sheet (the
cards' hands and chip totals) was lost, so the file holds the defaults of RULES.md; a
user whose printing differs edits the file.  A physical card is entered as the same JSON
without its id: ``{"kind": "full_house", "cards": [...], "chips": 8}`` or
``{"shootout": "quick_draw"}``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from scoring.game import IllegalMove
from scoring.hands import KIND_NAMES, Target

SHOOTOUT_TITLES = {
    "double_down": "Double-Down",
    "quick_draw": "Quick-Draw",
    "showdown": "Showdown",
    "joker_card": "Joker Card",
}
SHOOTOUT_KINDS = tuple(SHOOTOUT_TITLES)


@dataclass(frozen=True)
class TargetCard:
    """A target card: the hand to roll and its chips.  ``id`` is None for a physical
    card entered by hand."""

    target: Target
    id: str | None = None

    @property
    def kind(self) -> str:
        return self.target.kind

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, **self.target.to_json()}

    @property
    def name(self) -> str:
        """The card's hand as printed, e.g. "Two Pairs (A♠ A♦ 8♣ 8♥)"."""
        return f"{KIND_NAMES[self.kind]} ({' '.join(str(card) for card in self.target.cards)})"

    def __str__(self) -> str:
        return f"{self.name}, {self.target.chips} chips"


@dataclass(frozen=True)
class ShootoutCard:
    kind: str  # one of SHOOTOUT_KINDS
    id: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "shootout": self.kind}

    def __str__(self) -> str:
        return SHOOTOUT_TITLES[self.kind]


GameCard = TargetCard | ShootoutCard


def shootout_kind(name: Any) -> str:
    if not isinstance(name, str) or name not in SHOOTOUT_TITLES:
        raise IllegalMove(f"unknown shootout card {name!r}; they are {', '.join(SHOOTOUT_KINDS)}")
    return name


def target_card(data: Any, card_id: str | None = None) -> TargetCard:
    """A target card from ``{"kind", "cards", "chips"}``; IllegalMove if malformed."""
    if not isinstance(data, Mapping):
        raise IllegalMove("a target card must be an object with kind, cards and chips")
    labels = data.get("cards")
    if not isinstance(labels, list) or not all(isinstance(label, str) for label in labels):
        raise IllegalMove("a target card's cards must be a list of card labels")
    try:
        return TargetCard(Target.from_labels(data.get("kind"), labels, data.get("chips")), card_id)
    except ValueError as error:  # UnknownFace is a ValueError too
        raise IllegalMove(f"not a valid target card: {error}") from None


def game_card(data: Any) -> GameCard:
    """A target or shootout card from its JSON, as a physical card is entered (no id);
    IllegalMove if malformed."""
    if isinstance(data, Mapping) and "shootout" in data:
        return ShootoutCard(shootout_kind(data["shootout"]))
    return target_card(data)


@dataclass(frozen=True)
class Deck:
    """The game cards in the order of the data file."""

    cards: tuple[GameCard, ...]

    def __post_init__(self) -> None:
        ids = [card.id for card in self.cards]
        if None in ids or len(set(ids)) != len(ids):
            raise ValueError("every card of a deck needs its own id")

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(card.id for card in self.cards)

    def card(self, card_id: Any) -> GameCard:
        for card in self.cards:
            if card.id == card_id:
                return card
        raise IllegalMove(f"the deck has no card {card_id!r}")

    def first_target(self, kind: str) -> TargetCard:
        return next(card for card in self.cards if isinstance(card, TargetCard) and card.kind == kind)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Deck:
        cards = [target_card(entry, entry.get("id")) for entry in data["targets"]]
        cards += [ShootoutCard(shootout_kind(entry["shootout"]), entry["id"]) for entry in data["shootout"]]
        return cls(tuple(cards))


@cache
def standard_deck() -> Deck:
    """The 42 game cards of ``scoring/data/square_shooters_deck.json``."""
    text = resources.files("scoring").joinpath("data/square_shooters_deck.json").read_text("utf-8")
    return Deck.from_json(json.loads(text))
