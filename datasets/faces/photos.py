"""Card corners as a photo of a real playing card shows them.

Issue 4 judges the face model on real photographs: square crops centred on a card's corner
index (rank over suit, any rotation). The ``corner_index`` family draws such crops through the
renderer's whole range of damage (faces of 16 px, JPEG 30, heavy blur), many of them past
reading, so its score mixes the model's errors with crops no one could read. This set is
the judged condition instead: a card on a table in fair light, cut square about its index,
turned any way, with a phone's mild blur, noise and JPEG. ``tightness`` is the crop's side
over the index's height (rank, gap and suit), since how much of the card a crop takes in is
the one thing the judge's crops may vary most.

``corner_photos(n, seed, tightness)`` draws a seeded set in the held-out fonts. Card i is
drawn from (seed, i) alone, so sets of different tightness show the same cards.
"""

from __future__ import annotations

import cv2
import numpy as np

from datasets.faces.families import COURT_RANKS, FAMILIES, card_ink, court_picture, draw_index, split, stamp
from datasets.faces.glyphs import HELDOUT_FONTS, available, suit_mask

CARD_LABELS = FAMILIES["corner_index"].labels
PHOTO = 600  # px: the card's corner as the phone saw it, before the crop
TIGHTNESSES = (1.1, 1.4, 1.8, 2.4, 3.2)  # a crop's side over its index's height, close to loose


def card_corner(rng: np.random.Generator, label: str, fonts) -> tuple[np.ndarray, tuple[float, float], float]:
    """A card's top-left corner on a table (float BGR, ``PHOTO`` px square) with the index
    printed as decks print it and, beyond it, the court picture or the nearest pip; and the
    index's centre and height."""
    table = rng.uniform(0.05, 0.7, 3)
    paper = np.clip(rng.uniform(0.82, 1.0) + np.array([rng.uniform(-0.1, 0), rng.uniform(-0.04, 0), 0]), 0, 1)
    x0, y0 = rng.uniform(40, 120, 2)
    radius = int(rng.uniform(15, 40))
    card = np.zeros((PHOTO, PHOTO), np.uint8)
    cv2.rectangle(card, (int(x0) + radius, int(y0)), (PHOTO, PHOTO), 255, -1)
    cv2.rectangle(card, (int(x0), int(y0) + radius), (PHOTO, PHOTO), 255, -1)
    cv2.circle(card, (int(x0) + radius, int(y0) + radius), radius, 255, -1, cv2.LINE_AA)
    on_card = card[..., None].astype(np.float32) / 255
    image = (table * (1 - on_card) + paper * on_card).astype(np.float32)
    rank, suit = split(label)
    ink = card_ink(rng, label)
    height = rng.uniform(50, 70)
    cx, top = x0 + height * rng.uniform(0.55, 0.8), y0 + height * rng.uniform(0.3, 0.6)
    index_height = draw_index(rng, image, rank, suit, cx, top, height, ink, fonts, condensed=True)
    if rank in COURT_RANKS:
        court_picture(
            rng, image, cx + height * rng.uniform(0.6, 0.9), top + height * rng.uniform(0.0, 0.4), ink
        )
    elif rank != "A":  # an ace's one pip sits in the middle of the card, far from its corner
        pip_x, pip_y = cx + height * rng.uniform(1.6, 2.4), top + height * rng.uniform(1.2, 2.0)
        stamp(image, suit_mask(rng, suit), pip_x, pip_y, height * 0.9, ink)
    return image, (cx, top + index_height / 2), index_height


def photo_crop(
    rng: np.random.Generator,
    image: np.ndarray,
    centre: tuple[float, float],
    index_height: float,
    tightness: float,
) -> np.ndarray:
    """A square crop (uint8 BGR, 64-200 px) about ``centre``, ``tightness`` index heights a
    side, the card turned any way first; then exposure, white balance, uneven light, a
    little blur, noise and JPEG."""
    turned = cv2.getRotationMatrix2D(centre, rng.uniform(0, 360), 1.0)
    image = cv2.warpAffine(image, turned, (PHOTO, PHOTO), borderMode=cv2.BORDER_REFLECT)
    side = index_height * tightness
    cx, cy = np.asarray(centre) + rng.uniform(-0.06, 0.06, 2) * side  # a hand's crop is a little off
    x, y = int(cx - side / 2), int(cy - side / 2)
    crop = image[max(0, y) : y + int(side), max(0, x) : x + int(side)]
    out = int(rng.uniform(64, 200))
    crop = cv2.resize(crop, (out, out), interpolation=cv2.INTER_AREA)
    crop = crop * rng.uniform(0.7, 1.15) * rng.uniform(0.92, 1.08, 3)
    falloff = np.linspace(rng.uniform(0.85, 1.0), 1.0, out)[None, :, None]
    crop = crop * (falloff if rng.random() < 0.5 else falloff.transpose(1, 0, 2))
    sigma = rng.uniform(0, 1.0)
    if sigma > 0.2:
        crop = cv2.GaussianBlur(crop, (0, 0), sigma)
    crop = np.clip(crop * 255 + rng.normal(0, rng.uniform(0, 4), crop.shape), 0, 255).astype(np.uint8)
    _, jpeg = cv2.imencode(".jpg", crop, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(70, 96))])
    return cv2.imdecode(jpeg, cv2.IMREAD_COLOR)


def corner_photos(
    n: int, seed: int, tightness: float, fonts=HELDOUT_FONTS
) -> tuple[list[np.ndarray], list[str]]:
    """``n`` photo-like card-corner crops cut at ``tightness``, with their labels."""
    fonts = available(fonts)
    crops, labels = [], []
    for i in range(n):
        card_rng = np.random.default_rng([seed, i])
        label = CARD_LABELS[card_rng.integers(len(CARD_LABELS))]
        image, centre, index_height = card_corner(card_rng, label, fonts)
        crop_rng = np.random.default_rng([seed, i, round(tightness * 100)])
        crops.append(photo_crop(crop_rng, image, centre, index_height, tightness))
        labels.append(label)
    return crops, labels
