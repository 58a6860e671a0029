"""What the board's entry forms offer, for moves made at a real table without a camera:
the dice rolled, a physical game card drawn, what a physical Rodeo spinner shows, Square
Shootout's seven target cards, and Old Town Shootout's dealt playing cards."""

from __future__ import annotations

from typing import Any

from scoring.faces import CARD_LABELS, DieKind, Suit, parse_face
from scoring.hands import KIND_NAMES, TARGET_KINDS
from scoring.rodeo import NO_EFFECT, default_spinner
from scoring.targets import TargetCard, standard_deck
from webui.table import face_text


def dice_to_enter(view: dict[str, Any], last_roll: dict[str, Any] | None, kind: DieKind | None) -> list[str]:
    """What the dice-entry pickers start at: the last roll when it had as many dice as a
    roll needs now (dice a player holds stay as they were), else different faces."""
    if kind is None:
        return []
    count = view["dice_per_roll"]
    if last_roll is not None and count in (None, len(last_roll["faces"])):
        return last_roll["faces"]
    return [kind.labels[i % len(kind.labels)] for i in range(count or 2)]


def physical_cards() -> list[tuple[dict[str, Any], str]]:
    """Each different game card of the Square Shooters deck, as a draw's data and in words,
    for entering the card a player turns from a physical deck."""
    cards: dict[str, dict[str, Any]] = {}
    for card in standard_deck().cards:
        cards.setdefault(str(card), {key: value for key, value in card.to_json().items() if key != "id"})
    return [(data, text) for text, data in cards.items()]


def spinner_choices(options: dict[str, Any]) -> dict[str, list[tuple[str, str]]]:
    """The Rodeo spinner's goals (with the effect printed beside each, when that is the
    effect that counts) and, only with "spin twice", its effects to pick on their own."""
    spinner = default_spinner()
    own_effect = options.get("spin_twice") and not options.get("no_bonus")

    def goal_text(goal) -> str:
        if own_effect or options.get("no_bonus") or goal.effect == NO_EFFECT:
            return goal.label
        return f"{goal.label} ({spinner.effects[goal.effect].label})"

    return {
        "goals": [(goal.id, goal_text(goal)) for goal in spinner.goals],
        "effects": [(effect.id, effect.label) for effect in spinner.effects.values()] if own_effect else [],
    }


def shootout_targets(details: dict[str, Any]) -> list[dict[str, Any]]:
    """For each of Square Shootout's seven kinds of hand, the deck's target cards of that
    kind, with the one chosen now."""
    chosen = {card.get("kind"): card.get("id") for card in details.get("targets", [])}
    cards = [card for card in standard_deck().cards if isinstance(card, TargetCard)]
    return [
        {
            "kind": kind,
            "name": KIND_NAMES[kind],
            "chosen": chosen.get(kind),
            "cards": [(card.id, target_text(card)) for card in cards if card.kind == kind],
        }
        for kind in TARGET_KINDS
    ]


def target_text(card: TargetCard) -> str:
    """A target card's hand and chips, as printed: 7♣ 7♥ 7♦ A♠ A♥ · 8 chips."""
    return f"{' '.join(face_text(face.label) for face in card.target.cards)} · {card.target.chips} chips"


def playing_cards(details: dict[str, Any]) -> list[tuple[str, list[tuple[str, str, bool]]]]:
    """A standard deck by suit, each card as (label, text, already dealt), for Old Town's
    deal: a card in someone's hand cannot be dealt again."""
    dealt = {label for hand in details.get("hands", {}).values() if hand for label in hand}
    return [
        (
            suit.name.lower(),
            [
                (label, face_text(label), label in dealt)
                for label in CARD_LABELS
                if parse_face(label).suit is suit
            ],
        )
        for suit in Suit
    ]
