"""Face artwork: each style family draws the printed face of a label on a square canvas.

A family is a function ``draw(rng, label, canvas)`` that paints onto a float32 BGR canvas
(0..1) already filled with the die's material, and the labels it can draw.  Families differ
in layout (where rank and suit go, pips or glyphs), never in camera effects; those come
later, in ``render``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

from datasets.faces.glyphs import HELDOUT_FONTS, TRAIN_FONTS, available, suit_mask, text_mask
from scoring.faces import CARD_LABELS, NUMBER_LABELS

CARD_INK_LABELS = CARD_LABELS + ("JOKER_BLACK", "JOKER_RED")
CUBES_LABELS = ("CUBES", "BLANK") + NUMBER_LABELS


@dataclass(frozen=True)
class Family:
    name: str
    labels: tuple[str, ...]
    draw: Callable[[np.random.Generator, str, np.ndarray, tuple[str, ...]], None]
    fills_crop: bool = False  # the artwork is a close-up (card corner), not a whole die face


# ---------------------------------------------------------------- colours and stamping


# BGR ranges of the inks four-colour decks print a suit in. Hearts stay red in every such deck;
# the other suits vary by maker (English decks: blue diamonds, green clubs; German tournament
# decks: gold diamonds, green spades; some: blue or violet spades), so colour alone never names
# a suit.
FOUR_COLOUR_INKS = {
    "blue": ((0.6, 0.85), (0.25, 0.45), (0.0, 0.15)),
    "violet": ((0.65, 0.85), (0.35, 0.5), (0.35, 0.5)),
    "green": ((0.1, 0.3), (0.45, 0.6), (0.0, 0.15)),
    "gold": ((0.0, 0.2), (0.55, 0.8), (0.7, 0.95)),
}
SUIT_FOUR_COLOURS = {"D": ("blue", "gold"), "C": ("green", "blue"), "S": ("blue", "violet", "green")}
FOUR_COLOUR_SHARE = 0.1


def card_ink(rng, label: str) -> np.ndarray:
    """Print colour of a card label: red or black, sometimes a four-colour deck's, sometimes faded."""
    suit = "" if label.startswith("JOKER") else label[-1]  # "JOKER_RED" ends in D: no diamond
    if suit in SUIT_FOUR_COLOURS and rng.random() < FOUR_COLOUR_SHARE:
        ranges = FOUR_COLOUR_INKS[rng.choice(SUIT_FOUR_COLOURS[suit])]
        return np.array([rng.uniform(low, high) for low, high in ranges])
    if label == "JOKER_RED" or suit in ("H", "D"):
        ink = np.array([rng.uniform(0.05, 0.3), rng.uniform(0.0, 0.2), rng.uniform(0.6, 0.9)])
    else:
        ink = np.full(3, rng.uniform(0.0, 0.22)) + rng.uniform(-0.04, 0.04, 3)
    return np.clip(ink, 0, 1)


def fade(rng, ink, material, most=0.45):
    """Worn or faded print: ink pulled toward the material colour."""
    amount = rng.uniform(0, most) if rng.random() < 0.3 else 0.0
    return ink * (1 - amount) + material * amount


def stamp(canvas, mask, cx, cy, height, ink, squeeze=1.0, flip=False, width=None):
    """Blend ``mask`` scaled to ``height`` px (width by its aspect times ``squeeze``) at (cx, cy)."""
    mh, mw = mask.shape
    h = max(2, int(round(height)))
    w = max(2, int(round(width if width is not None else height * mw / mh * squeeze)))
    alpha = cv2.resize(mask, (w, h), interpolation=cv2.INTER_AREA if h < mh else cv2.INTER_LINEAR)
    if flip:
        alpha = alpha[::-1, ::-1]
    x0, y0 = int(round(cx - w / 2)), int(round(cy - h / 2))
    H, W = canvas.shape[:2]
    ax0, ay0, ax1, ay1 = max(0, -x0), max(0, -y0), min(w, W - x0), min(h, H - y0)
    if ax1 <= ax0 or ay1 <= ay0:
        return
    a = alpha[ay0:ay1, ax0:ax1, None]
    region = canvas[y0 + ay0 : y0 + ay1, x0 + ax0 : x0 + ax1]
    region *= 1 - a
    region += a * np.asarray(ink, np.float32)


def underline(canvas, mask, squeeze, cx, glyph_bottom, height, ink):
    """A bar under the glyph ``mask`` as ``stamp`` drew it (``height`` px tall, squeezed by
    ``squeeze``), as dice mark a 6 and a 9 so that neither reads as the other turned round."""
    width = height * mask.shape[1] / mask.shape[0] * squeeze
    y = int(glyph_bottom + height * 0.12)
    thickness = max(1, int(height * 0.08))
    cv2.line(canvas, (int(cx - width / 2), y), (int(cx + width / 2), y), np.asarray(ink).tolist(), thickness)


TURNS_INTO_ANOTHER = ("6", "9")  # ranks that read as each other upside down


def pick_font(rng, fonts):
    return fonts[rng.integers(len(fonts))]


def weight(rng):
    return int(rng.choice([-1, 0, 0, 1]))


def rank_mask(rng, rank: str, fonts, condensed: bool):
    """A rank glyph; ``condensed`` squeezes it into the narrow, tall form card indices use."""
    text = rank
    if rank == "10" and rng.random() < 0.1:
        text = "IO"  # some indices print a narrow 1 that reads as I
    mask = text_mask(pick_font(rng, fonts), text, weight(rng))
    squeeze = rng.uniform(0.5, 0.8) if condensed else rng.uniform(0.85, 1.1)
    if rank == "10":
        squeeze *= rng.uniform(0.8, 1.0)
    return mask, squeeze


def split(label):
    return label[:-1], label[-1]


# ---------------------------------------------------------------- card families


def draw_index(rng, canvas, rank, suit, cx, top, height, ink, fonts, condensed=True, flip=False):
    """Rank over suit, as in a card's corner: ``height`` is the rank's height."""
    mask, squeeze = rank_mask(rng, rank, fonts, condensed)
    suit_h = height * rng.uniform(0.55, 0.85)
    gap = height * rng.uniform(0.05, 0.25)
    total = height + gap + suit_h
    sign = -1 if flip else 1
    rank_cy = top + sign * height / 2 if not flip else top - height / 2
    suit_cy = top + sign * (height + gap + suit_h / 2)
    stamp(canvas, mask, cx, rank_cy, height, ink, squeeze, flip)
    stamp(canvas, suit_mask(rng, suit), cx, suit_cy, suit_h, ink, flip=flip)
    return total


def draw_card_face(rng, label, canvas, fonts):
    """A die face printed like a card: corner index(es) and a large centre suit."""
    S = canvas.shape[0]
    ink = card_ink(rng, label)
    rank, suit = split(label)
    h = S * rng.uniform(0.22, 0.3)
    margin = S * rng.uniform(0.06, 0.12)
    cx = margin + h * 0.35
    draw_index(rng, canvas, rank, suit, cx, margin, h, ink, fonts, condensed=rng.random() < 0.7)
    if rng.random() < 0.6:
        draw_index(rng, canvas, rank, suit, S - cx, S - margin, h, ink, fonts, flip=True)
    big = S * rng.uniform(0.32, 0.5)
    stamp(canvas, suit_mask(rng, suit), S * 0.55, S * 0.55, big, ink)


def draw_corner_index(rng, label, canvas, fonts):
    """A close-up of a card's corner: the index in the middle, the card's edge and the table beyond."""
    S = canvas.shape[0]
    ink = card_ink(rng, label)
    rank, suit = split(label)
    h = S * rng.uniform(0.22, 0.34)
    suit_h = h * 0.7
    cy_top = S / 2 - (h + suit_h + h * 0.12) / 2
    draw_index(rng, canvas, rank, suit, S / 2, cy_top, h, ink, fonts, condensed=rng.random() < 0.85)
    # What a real card prints beside its index: a court card's picture in its frame, or in
    # some modern decks a large suit level with the rank; the nearest pip of a number card;
    # an ace has nothing near it.
    if rank in COURT_RANKS and rng.random() < 0.8:
        if rng.random() < 0.5:
            big = h * rng.uniform(0.8, 1.3)
            cx = S / 2 + h * rng.uniform(0.3, 0.5) + big / 2
            stamp(canvas, suit_mask(rng, suit), cx, cy_top + big / 2 + h * rng.uniform(-0.1, 0.3), big, ink)
        else:
            court_picture(
                rng, canvas, S / 2 + h * rng.uniform(0.55, 0.9), cy_top + h * rng.uniform(-0.3, 0.4), ink
            )
    elif rng.random() < (0.1 if rank == "A" else 0.5):
        stamp(canvas, suit_mask(rng, suit), S * rng.uniform(0.85, 1.05), S * rng.uniform(0.85, 1.05), h, ink)
    card_edge(rng, canvas, S / 2 - h * rng.uniform(0.6, 1.3), cy_top - h * rng.uniform(0.25, 0.8), h)


COURT_RANKS = ("J", "Q", "K")
# BGR: the gold, red, blue and black that court pictures are printed in
COURT_COLOURS = np.array([[0.1, 0.72, 0.95], [0.15, 0.12, 0.78], [0.65, 0.3, 0.1], [0.08, 0.08, 0.08]])


def court_picture(rng, canvas, left, top, ink):
    """The corner of a court card's picture, right of and below (``left``, ``top``): the
    figure's robes as patches of gold, red, blue and black with dark outlines, inside a
    thin frame line most decks print."""
    S = canvas.shape[0]
    picture = canvas.copy()
    for _ in range(rng.integers(4, 10)):
        centre = rng.uniform([left, top], [S * 1.2, S * 1.2])
        points = centre + rng.normal(0, S * 0.15, (rng.integers(3, 7), 2))
        colour = np.clip(COURT_COLOURS[rng.integers(len(COURT_COLOURS))] + rng.normal(0, 0.05, 3), 0, 1)
        cv2.fillPoly(picture, [points.astype(np.int32)], colour.tolist(), cv2.LINE_AA)
        if rng.random() < 0.6:
            cv2.polylines(picture, [points.astype(np.int32)], True, COURT_COLOURS[3].tolist(), 1, cv2.LINE_AA)
    inside = np.zeros(canvas.shape[:2], np.float32)
    inside[max(0, int(top)) :, max(0, int(left)) :] = 1
    canvas[:] = canvas * (1 - inside[..., None]) + picture * inside[..., None]
    if rng.random() < 0.8:
        line = ink if rng.random() < 0.5 else COURT_COLOURS[3]
        cv2.rectangle(
            canvas, (int(left), int(top)), (S * 2, S * 2), np.asarray(line).tolist(), int(rng.integers(1, 3))
        )


def card_edge(rng, canvas, edge_x, edge_y, h):
    """Table colour beyond the card's two edges at (``edge_x``, ``edge_y``), rounded at the corner."""
    S = canvas.shape[0]
    if rng.random() >= 0.75 or edge_x <= 0 or edge_y <= 0:
        return
    table = rng.uniform(0.05, 0.6, 3).astype(np.float32)
    card = np.zeros(canvas.shape[:2], np.uint8)
    radius = int(h * rng.uniform(0.1, 0.6))
    x0, y0 = int(edge_x), int(edge_y)
    cv2.rectangle(card, (x0 + radius, y0), (S * 2, S * 2), 255, -1)
    cv2.rectangle(card, (x0, y0 + radius), (S * 2, S * 2), 255, -1)
    cv2.circle(card, (x0 + radius, y0 + radius), radius, 255, -1, cv2.LINE_AA)
    outside = (255 - card)[..., None].astype(np.float32) / 255
    canvas[:] = canvas * (1 - outside) + table * outside


def draw_big_rank(rng, label, canvas, fonts):
    """A large centred rank over a suit symbol."""
    S = canvas.shape[0]
    ink = card_ink(rng, label)
    rank, suit = split(label)
    h = S * rng.uniform(0.36, 0.5)
    mask, squeeze = rank_mask(rng, rank, fonts, condensed=rng.random() < 0.4)
    suit_h = S * rng.uniform(0.22, 0.32)
    top = (S - h - suit_h - 0.04 * S) / 2
    stamp(canvas, mask, S / 2, top + h / 2, h, ink, squeeze)
    suit_ink = ink if rng.random() < 0.9 else card_ink(rng, label)
    stamp(canvas, suit_mask(rng, suit), S / 2, S - top - suit_h / 2, suit_h, suit_ink)


def draw_rank_beside_suit(rng, label, canvas, fonts):
    """Rank and suit side by side (held out from training)."""
    S = canvas.shape[0]
    if label.startswith("JOKER"):
        return draw_joker_face(rng, label, canvas, fonts)
    ink = card_ink(rng, label)
    rank, suit = split(label)
    h = S * rng.uniform(0.3, 0.42)
    mask, squeeze = rank_mask(rng, rank, fonts, condensed=rng.random() < 0.5)
    rank_w = h * mask.shape[1] / mask.shape[0] * squeeze
    suit_h = h * rng.uniform(0.7, 0.95)
    gap = S * 0.04
    total = rank_w + gap + suit_h
    left = (S - total) / 2
    stamp(canvas, mask, left + rank_w / 2, S / 2, h, ink, squeeze)
    stamp(canvas, suit_mask(rng, suit), left + rank_w + gap + suit_h / 2, S / 2, suit_h, ink)


def draw_free_layout(rng, label, canvas, fonts):
    """Rank and suit apart at a random angle, so no one layout means "ace": the suit above,
    below or diagonal to the rank, sometimes one small suit in each of two or four corners.
    Side by side (within 30 degrees of the rank's baseline) is left out: that is the held-out
    rank_beside_suit family, which must stay unseen to measure transfer."""
    S = canvas.shape[0]
    ink = card_ink(rng, label)
    rank, suit = split(label)
    mask, squeeze = rank_mask(rng, rank, fonts, condensed=rng.random() < 0.5)
    # Neither layout tells which way up the face is, so a 6 or 9 is underlined.
    marked = rank in TURNS_INTO_ANOTHER
    if rng.random() < 0.3:  # a centred rank with small suits in the corners
        h = S * rng.uniform(0.34, 0.48)
        cy = S / 2 - (h * 0.1 if marked else 0)
        stamp(canvas, mask, S / 2, cy, h, ink, squeeze)
        if marked:
            underline(canvas, mask, squeeze, S / 2, cy + h / 2, h, ink)
        small = S * rng.uniform(0.14, 0.2)
        corners = [(0.18, 0.18), (0.82, 0.82), (0.82, 0.18), (0.18, 0.82)]
        for i, (x, y) in enumerate(corners[: 2 if rng.random() < 0.5 else 4]):
            stamp(canvas, suit_mask(rng, suit), S * x, S * y, small, ink, flip=i % 2 == 1)
        return
    angle = np.radians(rng.uniform(30, 150) + (180 if rng.random() < 0.5 else 0))
    direction = np.array([np.cos(angle), np.sin(angle)])  # from rank to suit, y down
    h = S * rng.uniform(0.26, 0.4)
    suit_h = h * rng.uniform(0.55, 0.95)
    distance = (h + suit_h) / 2 + S * rng.uniform(0.02, 0.08)
    if marked:  # room for the bar when the suit lies below the rank
        distance += 0.25 * h * max(0.0, direction[1])
    centre = S / 2 + rng.uniform(-0.04, 0.04, 2) * S
    rank_at = centre - direction * distance / 2
    suit_at = centre + direction * distance / 2
    stamp(canvas, mask, rank_at[0], rank_at[1], h, ink, squeeze)
    if marked:
        underline(canvas, mask, squeeze, rank_at[0], rank_at[1] + h / 2, h, ink)
    stamp(canvas, suit_mask(rng, suit), suit_at[0], suit_at[1], suit_h, ink)


CARD_PIPS = {
    "2": [(0.5, 0), (0.5, 1)],
    "3": [(0.5, 0), (0.5, 0.5), (0.5, 1)],
    "4": [(0, 0), (1, 0), (0, 1), (1, 1)],
    "5": [(0, 0), (1, 0), (0.5, 0.5), (0, 1), (1, 1)],
    "6": [(0, 0), (1, 0), (0, 0.5), (1, 0.5), (0, 1), (1, 1)],
    "7": [(0, 0), (1, 0), (0.5, 0.25), (0, 0.5), (1, 0.5), (0, 1), (1, 1)],
    "8": [(0, 0), (1, 0), (0.5, 0.25), (0, 0.5), (1, 0.5), (0.5, 0.75), (0, 1), (1, 1)],
    "9": [(0, 0), (1, 0), (0, 1 / 3), (1, 1 / 3), (0.5, 0.5), (0, 2 / 3), (1, 2 / 3), (0, 1), (1, 1)],
    "10": [(0, 0), (1, 0), (0.5, 1 / 6), (0, 1 / 3), (1, 1 / 3), (0, 2 / 3), (1, 2 / 3)]
    + [(0.5, 5 / 6), (0, 1), (1, 1)],
}


def draw_card_pips(rng, label, canvas, fonts):
    """A number card's pip layout (an ace's one big pip), usually with small corner indices."""
    S = canvas.shape[0]
    rank, suit = split(label)
    if rank in "JQK":
        return draw_court(rng, label, canvas, fonts)
    ink = card_ink(rng, label)
    with_index = rng.random() < 0.6
    inset = S * (0.3 if with_index else rng.uniform(0.14, 0.22))
    if rank == "A":
        stamp(canvas, suit_mask(rng, suit), S / 2, S / 2, S * rng.uniform(0.3, 0.5), ink)
    else:
        pips = CARD_PIPS[rank]
        pip_h = (S - 2 * inset) * (0.2 if len(pips) > 6 else 0.26) + S * 0.04
        mask = suit_mask(rng, suit)
        for x, y in pips:
            px = inset + x * (S - 2 * inset) * rng.uniform(0.75, 0.8) + (S - 2 * inset) * 0.11
            py = inset * 0.8 + y * (S - 1.6 * inset)
            stamp(canvas, mask, px, py, pip_h, ink, flip=y > 0.5)
    if with_index:
        h = S * rng.uniform(0.11, 0.15)
        draw_index(rng, canvas, rank, suit, S * 0.1, S * 0.05, h, ink, fonts)
        draw_index(rng, canvas, rank, suit, S * 0.9, S * 0.95, h, ink, fonts, flip=True)


def draw_court(rng, label, canvas, fonts):
    """A court card: its letter large, with a suit and a simple figure (crown, frame)."""
    S = canvas.shape[0]
    ink = card_ink(rng, label)
    rank, suit = split(label)
    figure = rng.integers(3)
    if figure >= 1:  # a crown over the letter
        crown_ink = ink if rng.random() < 0.6 else np.array([0.1, 0.6, 0.85])  # or gold
        base, top = S * 0.3, S * 0.12
        xs = np.linspace(S * 0.3, S * 0.7, 5)
        pts = [(xs[0], base)] + [(x, top if i % 2 == 0 else S * 0.2) for i, x in enumerate(xs)]
        pts += [(xs[-1], base)]
        cv2.fillPoly(canvas, [np.array(pts, np.int32)], crown_ink.tolist(), cv2.LINE_AA)
    if figure == 2:  # a frame as on a court picture
        cv2.rectangle(canvas, (int(S * 0.08), int(S * 0.08)), (int(S * 0.92), int(S * 0.92)), ink.tolist(), 2)
    mask, squeeze = rank_mask(rng, rank, fonts, condensed=rng.random() < 0.4)
    h = S * rng.uniform(0.38, 0.48)
    stamp(canvas, mask, S * 0.5, S * 0.55, h, ink, squeeze)
    small = S * rng.uniform(0.16, 0.22)
    stamp(canvas, suit_mask(rng, suit), S * 0.2, S * 0.82, small, ink)
    if rng.random() < 0.5:
        stamp(canvas, suit_mask(rng, suit), S * 0.8, S * 0.18, small, ink, flip=True)


# ---------------------------------------------------------------- jokers


def jester_hat(canvas, cx, cy, size, ink, bells_ink):
    """Three floppy points with bells over a band."""
    band_y = cy + size * 0.3
    tips = [(cx - size * 0.55, cy - size * 0.2), (cx, cy - size * 0.5), (cx + size * 0.55, cy - size * 0.2)]
    for i, (tx, ty) in enumerate(tips):
        pts = np.array(
            [
                (cx - size * 0.45 + i * size * 0.3, band_y),
                (tx, ty),
                (cx - size * 0.15 + i * size * 0.3, band_y),
            ]
        )
        cv2.fillPoly(canvas, [pts.astype(np.int32)], ink.tolist(), cv2.LINE_AA)
        cv2.circle(canvas, (int(tx), int(ty)), max(1, int(size * 0.09)), bells_ink.tolist(), -1, cv2.LINE_AA)
    cv2.rectangle(
        canvas,
        (int(cx - size * 0.5), int(band_y)),
        (int(cx + size * 0.5), int(band_y + size * 0.14)),
        ink.tolist(),
        -1,
    )


def star(canvas, cx, cy, radius, ink):
    angles = np.pi / 2 + np.arange(10) * np.pi / 5
    radii = np.where(np.arange(10) % 2 == 0, radius, radius * 0.42)
    pts = np.stack([cx + radii * np.cos(angles), cy - radii * np.sin(angles)], 1)
    cv2.fillPoly(canvas, [pts.astype(np.int32)], ink.tolist(), cv2.LINE_AA)


def joker_inks(rng, label):
    """A red joker is printed in red (perhaps with some black); a black one only in black/grey."""
    main = card_ink(rng, label)
    if label == "JOKER_RED":
        second = main if rng.random() < 0.5 else card_ink(rng, "AS")
    else:
        second = np.full(3, rng.uniform(0.0, 0.35))
    return main, second


def draw_joker(rng, label, canvas, fonts):
    """Several joker artworks: hat, star, word JOKER across or stacked, alone or together."""
    S = canvas.shape[0]
    main, second = joker_inks(rng, label)
    art = rng.integers(5)
    word = rng.random() < 0.6 or art == 2
    art_cy = S * (0.42 if word else 0.5)
    if art in (0, 3):
        jester_hat(canvas, S / 2, art_cy, S * rng.uniform(0.45, 0.6), main, second)
    elif art == 1:
        star(canvas, S / 2, art_cy, S * rng.uniform(0.2, 0.3), main)
    elif art == 4:
        stamp(canvas, text_mask(pick_font(rng, fonts), "J", weight(rng)), S / 2, art_cy, S * 0.4, main)
        star(canvas, S * 0.78, S * 0.22, S * 0.1, second)
    if word:
        if rng.random() < 0.5 or art == 2:
            # the stroke is drawn either way, so every later random choice stays as it was
            font, stroke = pick_font(rng, fonts), weight(rng)
            if art == 2:  # alone, the word is all a joker shows: bold, or a thin font's red is pink
                stroke = 1
            text = text_mask(font, "JOKER", stroke)
            wide = S * rng.uniform(0.55, 0.85)
            y = S * (0.5 if art == 2 else 0.8)
            # the word alone must carry a red joker's red
            ink = main if art == 2 else second
            stamp(canvas, text, S / 2, y, wide * text.shape[0] / text.shape[1], ink, width=wide)
        else:  # stacked letters in a corner, as on card indices
            font = pick_font(rng, fonts)
            h = S * rng.uniform(0.09, 0.12)
            for i, ch in enumerate("JOKER"):
                stamp(canvas, text_mask(font, ch), S * 0.1, S * 0.12 + i * h * 1.1, h, main, 0.7)


def draw_joker_face(rng, label, canvas, fonts):
    """A jester's face under a hat (the held-out joker artwork)."""
    S = canvas.shape[0]
    main, second = joker_inks(rng, label)
    cx, cy, r = S / 2, S * 0.6, S * rng.uniform(0.18, 0.24)
    cv2.circle(canvas, (int(cx), int(cy)), int(r), main.tolist(), max(1, int(S * 0.03)), cv2.LINE_AA)
    for dx in (-0.4, 0.4):
        cv2.circle(canvas, (int(cx + dx * r), int(cy - 0.2 * r)), max(1, int(r * 0.15)), second.tolist(), -1)
    cv2.ellipse(
        canvas, (int(cx), int(cy + 0.2 * r)), (int(r * 0.5), int(r * 0.35)), 0, 0, 180, second.tolist(), 2
    )
    jester_hat(canvas, cx, cy - r * 1.6, r * 2.2, main, second)


# ---------------------------------------------------------------- cubes and pip dice


def draw_cubes(rng, label, canvas, fonts, frame=False):
    """The Cubes faces: the word CUBES, a number, or nothing."""
    S = canvas.shape[0]
    ink = cube_ink(rng, canvas)
    if frame:
        thick = max(1, int(S * rng.uniform(0.02, 0.05)))
        if rng.random() < 0.5:
            cv2.circle(canvas, (S // 2, S // 2), int(S * 0.4), ink.tolist(), thick, cv2.LINE_AA)
        else:
            m = int(S * 0.12)
            cv2.rectangle(canvas, (m, m), (S - m, S - m), ink.tolist(), thick, cv2.LINE_AA)
    if label == "BLANK":
        return
    if label == "CUBES":
        text = text_mask(pick_font(rng, fonts), "CUBES" if rng.random() < 0.85 else "Cubes", weight(rng))
        wide = S * rng.uniform(0.55 if frame else 0.6, 0.7 if frame else 0.9)
        stamp(
            canvas,
            text,
            S / 2,
            S / 2,
            wide * text.shape[0] / text.shape[1] * rng.uniform(0.8, 1.3),
            ink,
            width=wide,
        )
        return
    draw_numeral(rng, label, canvas, fonts, ink, size=S * (0.4 if frame else rng.uniform(0.45, 0.7)))


def draw_numeral(rng, label, canvas, fonts, ink, size):
    S = canvas.shape[0]
    mask = text_mask(pick_font(rng, fonts), label, weight(rng))
    squeeze = rng.uniform(0.75, 1.15)
    marked = rng.random() < (0.6 if label in TURNS_INTO_ANOTHER else 0.25)
    cy = S / 2 - (size * 0.08 if marked else 0)
    stamp(canvas, mask, S / 2, cy, size, ink, squeeze)
    if marked:
        underline(canvas, mask, squeeze, S / 2, cy + size / 2, size, ink)


def draw_numerals(rng, label, canvas, fonts):
    """Numerals in many fonts, with and without an underline, on any die."""
    S = canvas.shape[0]
    draw_numeral(rng, label, canvas, fonts, cube_ink(rng, canvas), size=S * rng.uniform(0.4, 0.75))


def cube_ink(rng, canvas):
    """Ink that stands out from the face: white, black or a colour far from the material."""
    material = canvas[0, 0]
    light = material.mean() > 0.55
    if rng.random() < 0.7:
        ink = np.full(3, rng.uniform(0.0, 0.2) if light else rng.uniform(0.85, 1.0))
    else:
        ink = np.clip(1.0 - material + rng.uniform(-0.2, 0.2, 3), 0, 1)
        if abs(luminance(ink) - luminance(material)) < 0.4:  # real dice print in strong contrast
            ink = np.full(3, 0.05 if light else 0.95)
    return fade(rng, ink, material, 0.25).astype(np.float32)


def luminance(bgr) -> float:
    return float(0.114 * bgr[0] + 0.587 * bgr[1] + 0.299 * bgr[2])


D6_PIPS = {
    "1": [(1, 1)],
    "2": [(0, 0), (2, 2)],
    "3": [(0, 0), (1, 1), (2, 2)],
    "4": [(0, 0), (2, 0), (0, 2), (2, 2)],
    "5": [(0, 0), (2, 0), (1, 1), (0, 2), (2, 2)],
    "6": [(0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)],
}


def draw_d6(rng, label, canvas, fonts, shape="round"):
    """A plain die's pips; ``shape`` "square" or "ring" only in the held-out family."""
    S = canvas.shape[0]
    ink = cube_ink(rng, canvas)
    if label == "1" and rng.random() < 0.3:
        ink = np.array([0.1, 0.1, 0.8], np.float32)  # a large red one-pip
    spread = S * rng.uniform(0.24, 0.3)
    r = S * rng.uniform(0.07, 0.1) * (1.6 if label == "1" and rng.random() < 0.4 else 1)
    for gx, gy in D6_PIPS[label]:
        x, y = S / 2 + (gx - 1) * spread, S / 2 + (gy - 1) * spread
        if shape == "square":
            cv2.rectangle(
                canvas, (int(x - r), int(y - r)), (int(x + r), int(y + r)), ink.tolist(), -1, cv2.LINE_AA
            )
        elif shape == "ring":
            cv2.circle(canvas, (int(x), int(y)), int(r), ink.tolist(), max(1, int(r * 0.4)), cv2.LINE_AA)
        else:
            cv2.circle(canvas, (int(x * 16), int(y * 16)), int(r * 16), ink.tolist(), -1, cv2.LINE_AA, 4)


def draw_framed(rng, label, canvas, fonts):
    """Cubes faces inside a printed frame, and dice with square or ring pips (held out)."""
    if label in NUMBER_LABELS and rng.random() < 0.5:
        return draw_d6(rng, label, canvas, fonts, shape=rng.choice(["square", "ring"]))
    return draw_cubes(rng, label, canvas, fonts, frame=True)


FAMILIES = {
    f.name: f
    for f in (
        Family("card_face", CARD_LABELS, draw_card_face),
        Family("corner_index", CARD_LABELS, draw_corner_index, fills_crop=True),
        Family("big_rank", CARD_LABELS, draw_big_rank),
        Family("free_layout", CARD_LABELS, draw_free_layout),
        Family("card_pips", CARD_LABELS, draw_card_pips),
        Family("court", tuple(lb for lb in CARD_LABELS if lb[0] in "JQK"), draw_court),
        Family("joker", ("JOKER_BLACK", "JOKER_RED"), draw_joker),
        Family("cubes_word", CUBES_LABELS, draw_cubes),
        Family("numerals", NUMBER_LABELS, draw_numerals),
        Family("d6_pips", NUMBER_LABELS, draw_d6),
        # Held out from training entirely: they measure transfer to unseen styles.
        Family("rank_beside_suit", CARD_INK_LABELS, draw_rank_beside_suit),
        Family("framed", CUBES_LABELS, draw_framed),
    )
}
HELDOUT_FAMILIES = ("rank_beside_suit", "framed")
TRAIN_FAMILIES = tuple(name for name in FAMILIES if name not in HELDOUT_FAMILIES)


def fonts_for(family: str) -> tuple[str, ...]:
    """Trained families draw only training fonts; held-out families any font."""
    if family in HELDOUT_FAMILIES:
        return available(TRAIN_FONTS + HELDOUT_FONTS)
    return available(TRAIN_FONTS)
