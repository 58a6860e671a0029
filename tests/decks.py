"""Cards and decks drawn for the tests of real decks' corners (datasets.card_decks)."""

import json

import cv2
import numpy as np

from datasets.card_decks import index_box


def drawn_card(rank_height: int = 60, court: bool = False) -> np.ndarray:
    """A BGRA card 400 x 600: a rounded white face with a border line, a rank over a suit
    mark in the top-left corner, a large middle pip and, for a court, a framed picture."""
    card = np.zeros((600, 400, 4), np.uint8)
    cv2.rectangle(card, (0, 0), (399, 599), (255, 255, 255, 255), -1)
    cv2.rectangle(card, (3, 3), (396, 596), (0, 0, 0, 255), 2)
    cv2.putText(
        card, "K", (22, 20 + rank_height), cv2.FONT_HERSHEY_SIMPLEX, rank_height / 24, (0, 0, 0, 255), 5
    )
    cv2.circle(card, (40, 20 + rank_height + 28), 16, (0, 0, 0, 255), -1)  # the suit
    cv2.circle(card, (200, 300), 70, (0, 0, 0, 255), -1)
    if court:
        cv2.rectangle(card, (95, 80), (305, 520), (30, 30, 200, 255), 4)
    return card


def fake_decks(folder, names):
    """Decks ``names`` in ``folder`` as `python -m datasets.card_decks` leaves them, of one
    card each: the king of spades."""
    for name in names:
        deck = folder / name
        deck.mkdir(parents=True)
        cv2.imwrite(str(deck / "KS.png"), drawn_card())
        (deck / "index.json").write_text(json.dumps({"KS": index_box(drawn_card())}))
