"""Table scenes with ground truth, rendered by Blender (Cycles) from seeded random choices.

    python -m datasets.scenes.render --out data/scenes/train --count 200 --seed 0 --views 4
    python -m datasets.scenes.render --out data/scenes/heldout --count 50 --seed 9000 --split heldout

Every random choice is made here, with numpy (scene i depends only on (seed, i)); the
textures are drawn here too (die faces with datasets.faces' artwork families, tables, cards)
and handed to ``blender_scene.py``, which runs in the bpy venv (bpy pins numpy<2) as a
subprocess, through a job file: it drops the dice with rigid-body physics, renders, and reports
for every die which face is up, that face's quad in pixels, its tilt and how much of it is seen.
Each image gets ``NAME.json``: ``{"image", "size", "split", "table", "dice": [{"label",
"kind", "quad", "cocked", "tilt", "visible"}]}``; a quad runs clockwise from the top-left
corner of the face's artwork.

Held-out scenes (``--split heldout``) use table styles, light rigs and distractor colours
that training scenes never use, to measure transfer, not memory. ``--tables photo`` prints
a real photo with no dice on the table (``datasets.photos_without_dice``: each split its own
photos, fetched first), the one real texture the scenes can have.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import cv2
import numpy as np

from datasets.faces.families import FAMILIES, fonts_for
from datasets.faces.hollows import PAINT_DISTANCE, hollow_height
from datasets.faces.photo_tables import PhotoTables, photo_tables
from datasets.faces.plastics import HELDOUT_PLASTICS, TRAIN_PLASTICS, cast_in, other_colour, plastic
from datasets.photos_without_dice import FOLDER as PHOTOS_FOLDER
from scoring.faces import CARD_LABELS

ROOT = Path(__file__).resolve().parent.parent.parent
BLENDER_PYTHON = Path(os.environ.get("DICESCORE_BLENDER_PYTHON", ROOT / ".venv-blender" / "bin" / "python"))
SCRIPT = Path(__file__).resolve().parent / "blender_scene.py"
FACE = 128  # pixels per face in a die's texture atlas
SWIRL_STREAM = 2000  # a swirled die's plastic draws from (seed, index, this, die)
CLEAR_PLASTIC = 0.85  # transmission of a translucent die's body (its paint stays opaque)
DRILL_STREAM = 3000  # a drilled die's depth draws from (seed, index, this, die)
PICKUP_STREAM = 4000  # a clip's picking hand draws from (seed, index, this, roll)
SCATTER_STREAM = 5000  # a scattering die's plastic draws from (seed, index, this, die)
FLASH_STREAM = 6000  # a flash photo's light draws from (seed, index, this, view)
CLOSE_STREAM = 7000  # a close-up's camera draws from (seed, index, this, view)
# A close-up's view, in dice across the picture: a phone held a hand's width or two over the
# dice shows one 15-30% of the frame wide, its neighbours cut by the frame's edges.
CLOSE_VIEW = (3.5, 7.0)
# Cycles' samples a pixel; under 64 its denoiser smooths the noise away, and with it some of
# a small die's print (docs/vision-limits.md, session 60)
SAMPLES = 8
SKIN = ([0.45, 0.3, 0.22], [0.95, 0.7, 0.55])  # a moving hand's skin tones, RGB, darkest to palest
# A drilled die's paint lies in hollows (a real pip die's pips; engraved print on the others):
# their depth in die widths (0.3-1 mm of a 16 mm die), and the width of their rounded wall in
# atlas pixels (of FACE a face), past which the floor is flat.
DRILL_DEPTH = (0.02, 0.06)
DRILL_WALL = 5.0
# Light wanders into a real die's plastic before it leaves (subsurface scattering): how much
# of the body's diffuse light does so, and how far its farthest colour goes, in die widths
# (0.5-2.5 mm of a 16 mm die; the body's other colours go a quarter to all of that).
SCATTER_WEIGHT = (0.4, 1.0)
SCATTER_SCALE = (0.03, 0.15)

# Scene units: a die is 1 across (about 16 mm); gravity is scaled to match.
TRAIN_TABLES = ("wood", "felt", "cloth", "patterned", "glass")
# Tables with strong straight edges and speckle, hard negatives for the detector, and pale
# ones (white laminate, birch, a cream cloth) where white dice stand out least; opt-in
# (``--tables``) so that folders rendered before them re-render the same.
MORE_TRAIN_TABLES = ("tiles", "stone", "planks", "pale", "photo")
HELDOUT_TABLES = ("marble", "striped_felt", "dark_glass")
# A sheet of white paper, where white dice stand out least; opt-in for the held-out split, to
# measure a table real players use that no scene of either split shows otherwise.
MORE_HELDOUT_TABLES = ("white_paper", "photo")
# "photo": a table printed with a real photograph that holds no dice, the one real texture
# this project has (datasets.photos_without_dice). Each split prints its own photos, so
# held-out scenes show real textures that training never saw.
PHOTO_TABLES = {"train": PHOTOS_FOLDER / "train", "heldout": PHOTOS_FOLDER / "test"}
PHOTO_TABLE_SHARE = (0.5, 1.0)  # of a photo's shorter side, the square a table prints
FACE_FAMILIES = {  # the artwork families each kind of die is printed in (training styles)
    "d6": ("d6_pips", "numerals"),
    "cubes": ("cubes_word",),
    "square-shooters": ("card_face", "big_rank", "card_pips"),
}
HELDOUT_FACE_FAMILIES = {
    "d6": ("d6_pips", "numerals"),
    "cubes": ("framed",),
    "square-shooters": ("rank_beside_suit",),
}


class RendererMissing(RuntimeError):
    """The bpy venv is not installed."""


def die_faces(rng, kind: str, index: int = 0, deck: list[str] | None = None) -> list[str]:
    """The six labels of die ``index``, in atlas order (slots 0/1, 2/3, 4/5 are opposite
    faces).  Square Shooters dice share one deck of 52 cards and two jokers, six faces a die,
    so no card shows twice in a roll of nine: pass the scene's shuffled ``deck``.  Dice 10-12
    of a bigger scene are a second set's first dice, printed as the first set's are: two boxes
    of the game hold the same nine dice."""
    if kind == "d6":
        pairs = [(1, 6), (2, 5), (3, 4)]
        order = rng.permutation(3)
        labels = []
        for i in order:
            a, b = pairs[i] if rng.random() < 0.5 else pairs[i][::-1]
            labels += [str(a), str(b)]
        return labels
    if kind == "cubes":
        others = list(rng.choice(["BLANK", "1", "2", "3", "4", "5", "6"], 5, replace=False))
        return list(rng.permutation(["CUBES", *others]))
    deck = deck if deck is not None else shuffled_deck(rng)
    return [str(label) for label in deck[(6 * index) % len(deck) :][:6]]


def shuffled_deck(rng) -> list[str]:
    return [str(label) for label in rng.permutation([*CARD_LABELS, "JOKER_RED", "JOKER_BLACK"])]


def die_material(rng, kind: str) -> np.ndarray:
    if kind == "square-shooters" or rng.random() < 0.3:  # white or ivory, so both inks show
        return np.clip(
            rng.uniform(0.82, 1.0) + np.array([rng.uniform(-0.12, 0), rng.uniform(-0.05, 0), 0]), 0, 1
        )
    hsv = np.uint8([[[rng.integers(0, 180), rng.integers(80, 256), rng.integers(60, 230)]]])
    return cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0] / 255.0


def draw_atlas(rng, kind: str, labels: list[str], heldout: bool, swirl=None) -> np.ndarray:
    """A die's six faces, 3 across and 2 down, in one material and one artwork family; cast
    in a swirled or speckled plastic (``datasets.faces.plastics``, the split's own) when given
    ``swirl``, a generator of its own, so that every other choice stays as with flat plastic."""
    families = (HELDOUT_FACE_FAMILIES if heldout else FACE_FAMILIES)[kind]
    family = families[rng.integers(len(families))]
    material = die_material(rng, kind).astype(np.float32)
    styles = HELDOUT_PLASTICS if heldout else TRAIN_PLASTICS
    style = styles[swirl.integers(len(styles))] if swirl is not None else None
    second = other_colour(swirl, material) if swirl is not None else None
    atlas = np.zeros((2 * FACE, 3 * FACE, 3), np.float32)
    for slot, label in enumerate(labels):
        name = "joker" if label.startswith("JOKER") and family != "rank_beside_suit" else family
        if name in ("card_face", "card_pips", "big_rank") and label[0] in "JQK" and rng.random() < 0.5:
            name = "court"
        canvas = np.empty((96, 96, 3), np.float32)
        canvas[:] = material
        FAMILIES[name].draw(rng, label, canvas, fonts_for(name))
        if style is not None:
            canvas = cast_in(canvas, material, plastic(swirl, material, 96, (style,), second))
        row, col = divmod(slot, 3)
        atlas[row * FACE : (row + 1) * FACE, col * FACE : (col + 1) * FACE] = cv2.resize(canvas, (FACE, FACE))
    return np.clip(atlas * 255, 0, 255).astype(np.uint8)


def clear_body(atlas: np.ndarray) -> np.ndarray:
    """A translucent die's see-through mask for its ``atlas``: white where a face shows its
    body's colour, black where it is painted.  The body's colour is each face's median (every
    face of these dice is mostly body), within ``PAINT_DISTANCE`` in OpenCV's 8-bit Lab."""
    lab = cv2.cvtColor(atlas, cv2.COLOR_BGR2LAB).astype(np.float32)
    mask = np.zeros(atlas.shape[:2], np.uint8)
    for row in range(2):
        for col in range(3):
            face = lab[row * FACE : (row + 1) * FACE, col * FACE : (col + 1) * FACE]
            body = np.median(face.reshape(-1, 3), 0)
            clear = np.linalg.norm(face - body, axis=2) < PAINT_DISTANCE
            mask[row * FACE : (row + 1) * FACE, col * FACE : (col + 1) * FACE] = clear * 255
    return mask


def scattering_body(rng: np.random.Generator, atlas: np.ndarray, body_mask: np.ndarray) -> dict:
    """How light scatters inside a die's plastic: its weight and distance (``SCATTER_WEIGHT``,
    ``SCATTER_SCALE``), and a radius per RGB channel that follows the body's colour, the
    median of the texels ``body_mask`` (``clear_body``) leaves unpainted, or of the whole
    atlas where it leaves none, since the dye absorbs the other colours on the way. The
    colour is the atlas's sRGB, not linear light: near enough to tint the way."""
    body_texels = atlas[body_mask > 0] if body_mask.any() else atlas.reshape(-1, 3)
    body = np.median(body_texels, 0)[::-1] / 255
    return {
        "weight": float(rng.uniform(*SCATTER_WEIGHT)),
        "scale": float(rng.uniform(*SCATTER_SCALE)),
        "radius": [round(0.25 + 0.75 * float(c), 3) for c in body],
    }


def drilled_hollows(body_mask: np.ndarray) -> np.ndarray:
    """A drilled die's height map for its atlas's ``body_mask`` (``clear_body``): white on the
    face, falling under its paint (the mask's black) over a rounded wall ``DRILL_WALL`` pixels
    wide to a flat black floor (``datasets.faces.hollows.hollow_height``)."""
    return np.round(255 * hollow_height(body_mask == 0, DRILL_WALL)).astype(np.uint8)


def greyish(rng, low: float, high: float) -> np.ndarray:
    """A grey between ``low`` and ``high`` with a slight random tint (BGR)."""
    return rng.uniform(low, high) * (1 + rng.uniform(-0.2, 0.2, 3))


def draw_table(rng, style: str, size: int = 512, photos: PhotoTables | None = None) -> np.ndarray:
    """A table-top texture: wood grain or planks, felt, woven cloth, a printed pattern, tiles,
    granite, a pale top, white paper, marble, a glass tint, or a square of one of ``photos``."""
    if style == "photo":
        if photos is None:
            raise ValueError("a photo table needs photos (python -m datasets.photos_without_dice train|test)")
        return np.clip(photos.patch(rng, size, PHOTO_TABLE_SHARE) * 255 + 0.5, 0, 255).astype(np.uint8)
    y, x = np.mgrid[0:size, 0:size].astype(np.float32) / size
    noise = cv2.resize(rng.random((16, 16)).astype(np.float32), (size, size), interpolation=cv2.INTER_CUBIC)
    fine = rng.random((size, size)).astype(np.float32)
    if style == "wood":
        base = np.array([rng.uniform(0.1, 0.35), rng.uniform(0.25, 0.5), rng.uniform(0.45, 0.8)])
        rings = 0.5 + 0.5 * np.sin((x * rng.uniform(20, 60) + noise * rng.uniform(3, 10)) * np.pi)
        img = base * (0.7 + 0.3 * rings[..., None]) * (0.9 + 0.1 * fine[..., None])
    elif style in ("felt", "striped_felt"):
        hsv = np.uint8([[[rng.integers(0, 180), rng.integers(100, 230), rng.integers(50, 160)]]])
        base = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0] / 255.0
        img = base * (0.85 + 0.15 * fine[..., None]) * (0.9 + 0.1 * noise[..., None])
        if style == "striped_felt":
            img = img * (0.8 + 0.2 * (np.sin(y * 40 * np.pi) > 0))[..., None]
    elif style == "cloth":
        a, b = rng.uniform(0.2, 1.0, 3), rng.uniform(0.2, 1.0, 3)
        period = rng.uniform(8, 30)
        check = ((np.floor(x * period) + np.floor(y * period)) % 2)[..., None]
        weave = 0.9 + 0.1 * np.sin(x * size * np.pi / 2)[..., None] * np.sin(y * size * np.pi / 2)[..., None]
        img = (a * check + b * (1 - check)) * weave
    elif style == "patterned":
        img = np.ones((size, size, 3), np.float32) * rng.uniform(0.3, 1.0, 3)
        for _ in range(rng.integers(20, 80)):
            colour = tuple(float(c) for c in rng.uniform(0, 1, 3))
            centre = tuple(int(c) for c in rng.integers(0, size, 2))
            if rng.random() < 0.5:
                cv2.circle(img, centre, int(rng.integers(5, 40)), colour, -1, cv2.LINE_AA)
            else:
                axes = tuple(int(c) for c in rng.integers(5, 50, 2))
                cv2.ellipse(img, centre, axes, float(rng.uniform(0, 180)), 0, 360, colour, -1, cv2.LINE_AA)
    elif style == "tiles":  # square tiles about a die or several across, with grout lines
        period = int(rng.integers(4, 13))
        colour = rng.uniform(0.2, 0.95, 3)
        cell = (np.floor(x * period) * 7 + np.floor(y * period) * 13) % 5 / 5  # a tint per tile
        img = colour * (0.85 + 0.15 * cell[..., None]) * (0.95 + 0.05 * fine[..., None])
        grout = np.minimum((x * period) % 1, (y * period) % 1) < rng.uniform(0.03, 0.08)
        img[grout] = rng.uniform(0.1, 0.9, 3)
    elif style == "stone":  # granite: a greyish base with speckles of two or three greyish colours
        img = np.ones((size, size, 3), np.float32) * greyish(rng, 0.2, 0.8) * (0.9 + 0.2 * noise[..., None])
        for _ in range(int(rng.integers(2, 4))):
            speckle = rng.random((size, size)).astype(np.float32)
            blobs = cv2.GaussianBlur(speckle, (0, 0), rng.uniform(0.8, 2.5))
            img[blobs > np.quantile(blobs, rng.uniform(0.8, 0.95))] = greyish(rng, 0.0, 1.0)
    elif style == "planks":  # wood planks: grain along each plank, dark seams between them
        planks = int(rng.integers(3, 10))
        row = np.floor(y * planks)
        base = np.array([rng.uniform(0.1, 0.4), rng.uniform(0.25, 0.55), rng.uniform(0.45, 0.85)])
        grain = 0.5 + 0.5 * np.sin((y * rng.uniform(80, 200) + noise * 8 + row * 3.1) * np.pi)
        img = base * (0.75 + 0.25 * grain[..., None]) * (0.85 + 0.3 * ((row * 0.37) % 1)[..., None])
        img[(y * planks) % 1 < 0.02] *= 0.3
    elif style == "pale":  # white laminate, pale birch grain or a cream weave, softly shaded
        warmth = rng.uniform(0.0, 0.12)  # pure white to cream: blue falls most, green half as much
        base = rng.uniform(0.72, 0.97) * np.array([1 - warmth, 1 - warmth / 2, 1.0])
        look = rng.integers(3)
        if look == 0:  # laminate: flat, a broad sheen
            texture = 0.93 + 0.07 * noise
        elif look == 1:  # birch: faint grain
            texture = 0.9 + 0.1 * (0.5 + 0.5 * np.sin((x * rng.uniform(30, 80) + noise * 1.5) * np.pi))
        else:  # cream cloth: a fine weave
            texture = 0.92 + 0.08 * np.sin(x * size * np.pi / 2) * np.sin(y * size * np.pi / 2)
        img = base * texture[..., None] * (0.96 + 0.04 * fine[..., None])
    elif style == "white_paper":  # near white, faint fibres and uneven shading
        base = rng.uniform(0.85, 0.98) * (1 + rng.uniform(-0.03, 0.03, 3))
        img = base * (0.95 + 0.05 * noise[..., None]) * (0.97 + 0.03 * fine[..., None])
    elif style == "marble":
        veins = np.abs(np.sin((x + y + noise * 3) * rng.uniform(5, 15) * np.pi)) ** 0.3
        img = rng.uniform(0.75, 0.95) * (0.6 + 0.4 * veins[..., None]) * np.ones(3)
    else:  # glass or dark_glass: the tint; the floor below shows through
        tint = rng.uniform(0.6, 1.0, 3) if style == "glass" else rng.uniform(0.05, 0.3, 3)
        img = np.ones((size, size, 3)) * tint
    return np.clip(img * 255, 0, 255).astype(np.uint8)


def table_photos(split: str) -> PhotoTables:
    """The split's photos for photo tables (read once a process), or an error saying how to
    fetch them."""
    folder = PHOTO_TABLES[split]
    try:
        return photo_tables((str(folder),), 1.0)
    except ValueError as error:
        raise ValueError(
            f"photo tables: {error} (python -m datasets.photos_without_dice {folder.name})"
        ) from error


def draw_card(rng) -> np.ndarray:
    canvas = np.ones((96, 96, 3), np.float32) * rng.uniform(0.85, 1.0)
    label = CARD_LABELS[rng.integers(len(CARD_LABELS))]
    FAMILIES["card_pips"].draw(rng, label, canvas, fonts_for("card_pips"))
    return np.clip(canvas * 255, 0, 255).astype(np.uint8)


def scene_job(
    seed: int,
    index: int,
    split: str,
    tmp: Path,
    out: Path,
    size=(320, 240),
    frames=None,
    roll: int | None = None,
    kind: str | None = None,
    count: int | None = None,
    hand: tuple[int, int] | None = None,
    views: int = 1,
    tables: tuple[str, ...] | None = None,
    translucent: bool = False,
    leaning: bool = False,
    swirled: bool = False,
    drilled: bool = False,
    scattering: bool = False,
    flash: bool = False,
    close: bool = False,
    samples: int = SAMPLES,
    pickup: tuple[int, int] | None = None,
) -> dict:
    """Every choice for scene ``index``: textures written to ``tmp``, the rest in the job dict.

    For clips, ``frames`` lists the frames to render, ``roll`` numbers one throw of the same
    dice on the same table (only the throw changes), and ``hand`` = (first, last) frame sends
    a hand waving over the table between those frames; ``pickup`` = (first, last) sends a
    hand that takes the dice off the table one by one (``pickup_hand``).  For stills, ``views`` > 1 films the
    same settled dice from that many cameras under as many light rigs (the physics, the
    slowest part, is shared).  ``tables`` are the table styles to draw from, by default the
    split's own (TRAIN_TABLES, HELDOUT_TABLES); each split may add its opt-in styles.
    ``translucent`` dice are clear coloured plastic under opaque paint, as casino dice are (no
    other choice changes, so the scene is the same scene with see-through dice). ``swirled``
    dice are cast in marbled or speckled plastic (``draw_atlas``), the rest of the scene as it was.
    ``drilled`` dice have their paint sunk in hollows (``drilled_hollows``), as a real pip die's
    pips are, each die its own depth; nothing else changes. ``scattering`` dice let light
    wander inside their plastic (``scattering_body``), each die its own; nothing else changes
    (with ``translucent`` too, most of the body's light goes through instead: Cycles layers
    transmission over scattering).
    ``flash`` takes each still as a phone does indoors with its flash on (``flash_shot``): a
    small light beside the lens, the room's lights dimmed; nothing else changes.
    ``close`` takes each still close to one of the dice (``close_shot``), as a phone held over
    a die does; nothing else changes.
    ``samples`` is Cycles' samples a pixel (``SAMPLES``).
    ``leaning`` stands dice against a neighbour in every still of two or more dice, up to half
    of them, where a scene otherwise has one or two in 40% of stills: leaning dice to learn from.
    """
    if (drilled or scattering) and swirled:  # both follow what differs from the body's colour: swirls too
        raise ValueError("drilled and scattering dice are drawn in flat plastic: not with swirled")
    heldout = split == "heldout"
    allowed = HELDOUT_TABLES + MORE_HELDOUT_TABLES if heldout else TRAIN_TABLES + MORE_TRAIN_TABLES
    styles = tables or (HELDOUT_TABLES if heldout else TRAIN_TABLES)
    if not set(styles) <= set(allowed):
        raise ValueError(f"{split} scenes use the tables {', '.join(allowed)}: not {', '.join(styles)}")
    rng = np.random.default_rng([seed, index])
    kinds = list(FACE_FAMILIES)
    kind = kind or kinds[rng.integers(3)]
    count = count or int(rng.integers(1, 13))
    cluster = rng.uniform(1.2, 4.0)  # radius the dice are thrown into: small means touching
    throw = rng if roll is None else np.random.default_rng([seed, index, 1000 + roll])
    dice, labels = [], []
    deck = shuffled_deck(rng) if kind == "square-shooters" else None
    for i in range(count):
        faces = die_faces(rng, kind, i, deck)
        atlas = tmp / f"die{i}.png"
        swirl = np.random.default_rng([seed, index, SWIRL_STREAM, i]) if swirled else None
        painted = draw_atlas(rng, kind, faces, heldout, swirl)
        cv2.imwrite(str(atlas), painted)
        finish = {}  # how the die's plastic and paint differ from an opaque, flat-printed die
        body_mask = clear_body(painted) if translucent or drilled or scattering else None
        body_path = str(tmp / f"die{i}-body.png")  # its unpainted plastic, white
        if translucent or scattering:
            cv2.imwrite(body_path, body_mask)
        if translucent:
            finish = {"clear": body_path, "transmission": CLEAR_PLASTIC}
        if drilled:
            cv2.imwrite(str(tmp / f"die{i}-hollows.png"), drilled_hollows(body_mask))
            depth = np.random.default_rng([seed, index, DRILL_STREAM, i]).uniform(*DRILL_DEPTH)
            finish |= {"hollows": str(tmp / f"die{i}-hollows.png"), "depth": float(depth)}
        if scattering:
            scatter = np.random.default_rng([seed, index, SCATTER_STREAM, i])
            finish["scatter"] = scattering_body(scatter, painted, body_mask) | {"body": body_path}
        if frames is None:  # a still: dropped from above, one after another, never overlapping
            angle, radius = throw.uniform(0, 2 * np.pi), cluster * np.sqrt(throw.random())
            start = [radius * np.cos(angle), radius * np.sin(angle), 1.5 + 1.9 * i + throw.uniform(0, 1.5)]
        else:  # a clip: let go low, side by side, so the dice stay in the fixed camera's view
            row, column = divmod(i, 3)
            start = [
                (column - 1) * 1.9 + throw.uniform(-0.25, 0.25),
                (row - (count - 1) // 3 / 2) * 1.9 + throw.uniform(-0.25, 0.25),
                throw.uniform(1.2, 2.5),
            ]
        dice.append(
            {
                "atlas": str(atlas),
                "size": 1.0,
                "bevel": float(rng.uniform(0.06, 0.16)),
                "roughness": float(rng.uniform(0.15, 0.5)),
                "start": [float(v) for v in start],
                "rotation": throw.uniform(0, 2 * np.pi, 3).tolist(),
            }
            | finish
        )
        labels.append(faces)
    style = styles[rng.integers(len(styles))]
    table_texture = tmp / "table.png"
    cv2.imwrite(
        str(table_texture),
        draw_table(rng, style, photos=table_photos(split) if style == "photo" else None),
    )
    distractors = []
    for j in range(int(rng.integers(0, 5))):
        what = ("card", "chip", "cup")[rng.integers(3)]
        angle, radius = rng.uniform(0, 2 * np.pi), rng.uniform(3.0, 7.0)
        item = {
            "kind": what,
            "size": {"card": 4.0, "chip": 2.4, "cup": 4.5}[what] * rng.uniform(0.8, 1.2),
            "location": [radius * np.cos(angle), radius * np.sin(angle), 0.0],
            "angle": float(rng.uniform(0, np.pi)),
            "colour": (rng.uniform(0.5, 1.0, 3) if heldout else rng.uniform(0.0, 0.8, 3)).tolist(),
            "metallic": float(rng.random() < 0.2),
        }
        if what == "card":
            item["texture"] = str(tmp / f"card{j}.png")
            cv2.imwrite(item["texture"], draw_card(rng))
        distractors.append(item)
    view = rng.uniform(8, 14) + cluster  # width of table in view, in dice
    if frames is not None:  # a clip's camera stays put: wide enough for wherever the dice roll
        view = max(view, 15.0)
    target = [float(rng.normal(0, 0.5)), float(rng.normal(0, 0.5)), 0.0]
    physics_frames = max(75, *(frames or [0]))
    shots = [shot(rng, heldout, view, still=frames is None) for _ in range(views)]
    if flash:
        shots = [
            flash_shot(np.random.default_rng([seed, index, FLASH_STREAM, k]), taken)
            for k, taken in enumerate(shots)
        ]
    if close and frames is None:
        shots = [
            close_shot(np.random.default_rng([seed, index, CLOSE_STREAM, k]), taken)
            for k, taken in enumerate(shots)
        ]
    still_hand = None
    if frames is None and rng.random() < 0.3:
        still_hand = resting_hand(rng, physics_frames, target, view)
    leans = []  # dice stood against a neighbour: cocked dice
    if frames is None and count > 1 and (rng.random() < 0.4 or leaning):
        most = count // 2 if leaning else 2
        for die in rng.choice(count, int(rng.integers(1, most + 1)), replace=False):
            leans.append({"die": int(die), "angle": float(rng.uniform(12, 35))})
    return {
        "name": f"scene{index:05d}" + (f"_roll{roll:02d}" if roll is not None else ""),
        "out_dir": str(out),
        "size": list(size),
        "samples": samples,
        "threads": 1,
        "fps": 30,
        "motion_blur": frames is not None,
        **shots[0],
        "views": shots[1:],
        "table": {
            "texture": str(table_texture),
            "size": 60.0,
            "repeat": float(rng.uniform(1.0, 4.0)),
            "roughness": float(rng.uniform(0.05, 0.3) if "glass" in style else rng.uniform(0.5, 0.95)),
            "transmission": 0.9 if "glass" in style else 0.0,
            "floor": rng.uniform(0.1, 0.9, 3).tolist(),
        },
        "distractors": distractors,
        "dice": dice,
        "physics": {
            "frames": physics_frames,
            "friction": float(rng.uniform(0.3, 0.8)),
            "bounce": 0.3,
            "gravity": 9.81 / 0.016,  # in dice per second squared: a 16 mm die falls as fast as a real one
        },
        "frames": frames or [physics_frames],
        "hand": hand_path(rng, hand, target, view) if hand else still_hand,
        "pickup": pickup_hand(
            np.random.default_rng([seed, index, PICKUP_STREAM, roll or 0]), pickup, target, view
        )
        if pickup
        else None,
        "leans": leans,
        # kept for the ground truth, not used by Blender:
        "labels": labels,
        "kind": kind,
        "style": style,
        "split": split,
        "leaning": leaning,
    }


def shot(rng, heldout: bool, view: float, still: bool) -> dict:
    """One camera and one light rig: lens, tilt up to 45 degrees, defocus, exposure, lights.
    A still's camera looks at the settled dice; a clip's stays put, looking at the table."""
    lights = []
    for _ in range(int(rng.integers(1, 4))):
        tilt, turn = rng.uniform(0, 1.2 if not heldout else 0.6), rng.uniform(0, 2 * np.pi)
        distance = rng.uniform(15, 40)
        colour = rng.uniform(0.55, 1.0, 3) if not heldout else rng.uniform(0.75, 1.0, 3) * [1, 0.85, 0.7]
        lights.append(
            {
                "type": "AREA" if rng.random() < 0.7 else "POINT",
                "energy": float(distance**2 * rng.uniform(3, 12)),
                "colour": colour.tolist(),
                "size": float(rng.uniform(2, 15)),
                "location": [
                    distance * np.sin(tilt) * np.cos(turn),
                    distance * np.sin(tilt) * np.sin(turn),
                    distance * np.cos(tilt),
                ],
            }
        )
    lens = float(rng.uniform(24, 50))
    if still:
        view = view * rng.uniform(0.6, 1.3)  # closer and farther cameras: dice of many sizes
    return {
        "exposure": float(rng.uniform(-0.6, 0.6)),
        "ambient": (rng.uniform(0.02, 0.15) * rng.uniform(0.6, 1.0, 3)).tolist(),
        "camera": {
            "lens": lens,
            "target": [float(rng.normal(0, 0.8)), float(rng.normal(0, 0.8)), 0.0],
            "aim_at_dice": still,  # target is then an offset from the settled dice's middle
            "tilt": float(rng.uniform(0, 45)),
            "turn": float(rng.uniform(0, 360)),
            "roll": float(rng.uniform(0, 360)),
            "view": float(view),  # width of the table in the picture, in dice
            "fit": still and bool(rng.random() < 0.85),  # widen the view until every die is in it
            "fstop": float(rng.choice([0, 0, 2.8, 5.6, 11])),
            "focus": float(rng.uniform(0.95, 1.05)),
        },
        "lights": lights,
    }


def flash_shot(rng, shot: dict) -> dict:
    """``shot`` taken with a phone's flash: a small bright light a few millimetres from the
    lens (the camera's own view, so glare sits on the faces that look at it and each die's
    shadow falls straight behind it), and the room's lights and ambient dimmed to 10-50%, as
    a flash photo of a lamp-lit table shows them. Its strength at the camera's focus is
    10-30, where ``shot``'s room lights have 3-12 at their own distance
    (``blender_scene.add_flash`` places it)."""
    room = float(rng.uniform(0.1, 0.5))
    lights = [light | {"energy": light["energy"] * room} for light in shot["lights"]]
    strength = float(rng.uniform(10, 30))
    beside = rng.uniform(-0.6, 0.6, 2).tolist()  # die widths from the lens: up to 10 mm
    flash = {"strength": strength, "offset": beside, "size": 0.1}
    ambient = [value * room for value in shot["ambient"]]
    return shot | {"lights": lights, "ambient": ambient, "flash": flash}


def close_shot(rng, shot: dict) -> dict:
    """``shot`` taken close to one die: the camera aimed at a die drawn by number (Blender
    takes it modulo the dice in view), near its middle, showing ``CLOSE_VIEW`` dice across
    whatever else is in the way; its tilt, turn, lens, focus and lights stay."""
    view = float(rng.uniform(*CLOSE_VIEW))
    target = [*(rng.normal(0, 0.15 * view, 2)).tolist(), 0.0]  # the die near the middle, not on it
    close = {"view": view, "fit": False, "target": target, "aim_at_die": int(rng.integers(1000))}
    return shot | {"camera": shot["camera"] | close}


def resting_hand(rng, frame: int, target, view: float) -> dict:
    """A hand lying still near the dice in a still scene, sometimes over a few of them."""
    side = rng.uniform(0, 2 * np.pi)
    reach = rng.uniform(1.0, 0.45 * view)
    x, y = np.array(target[:2]) + reach * np.array([np.cos(side), np.sin(side)])
    colour = rng.uniform([0.25, 0.15, 0.1], [0.95, 0.75, 0.6])  # skin tones, RGB
    return {
        "size": float(rng.uniform(2.5, 3.5)),
        "colour": colour.tolist(),
        "path": [[frame, [float(x), float(y), float(rng.uniform(0.6, 2.5))], float(side + np.pi / 2)]],
    }


def hand_path(rng, frames: tuple[int, int], target, view: float) -> dict:
    """A hand that comes in from beyond the picture's edge, waves over the dice, and goes."""
    first, last = frames
    side = rng.uniform(0, 2 * np.pi)
    outside = np.array([np.cos(side), np.sin(side)]) * view
    path = []
    for k, frame in enumerate(range(first, last + 1, 3)):
        t = (frame - first) / max(1, last - first)
        reach = np.sin(np.pi * t)  # in, over the dice, and out again
        wave = np.array([-np.sin(side), np.cos(side)]) * 1.5 * np.sin(k * 1.3)
        x, y = np.array(target[:2]) + outside * (1 - reach) + wave * reach
        path.append([frame, [float(x), float(y), 3.0], float(side + np.pi / 2)])
    colour = rng.uniform(*SKIN)
    return {"size": 3.0, "colour": colour.tolist(), "path": path}


def pickup_hand(rng, frames: tuple[int, int], target, view: float) -> dict:
    """A hand that comes in from beyond the picture's edge between ``frames``, takes the dice
    off the table one by one and goes (``blender_scene.pick_up`` finds where they lie)."""
    side = rng.uniform(0, 2 * np.pi)
    start = np.array(target[:2]) + np.array([np.cos(side), np.sin(side)]) * view
    colour = rng.uniform(*SKIN)
    return {
        "frames": list(frames),
        "start": start.tolist(),
        "angle": float(side + np.pi / 2),
        "size": float(rng.uniform(2.5, 3.2)),
        "colour": colour.tolist(),
    }


def truth_paths(folder) -> list[Path]:
    """The NAME.json truths of a rendered folder, in name order; Blender's NAME.result.json,
    which sits there while a scene is being rendered into it, is not one."""
    return sorted(path for path in Path(folder).glob("*.json") if not path.name.endswith(".result.json"))


def run_blender(job: dict, job_path: Path) -> dict:
    if not BLENDER_PYTHON.is_file():
        raise RendererMissing(
            f"no Blender Python at {BLENDER_PYTHON}: python3.11 -m venv .venv-blender && "
            ".venv-blender/bin/pip install bpy (or set DICESCORE_BLENDER_PYTHON)"
        )
    job_path.write_text(json.dumps(job))
    done = subprocess.run(
        [str(BLENDER_PYTHON), str(SCRIPT), str(job_path)], capture_output=True, text=True, check=False
    )
    result_path = Path(job["out_dir"]) / f"{job['name']}.result.json"
    if done.returncode != 0 or not result_path.is_file():
        raise RuntimeError(f"Blender failed on {job['name']}:\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}")
    result = json.loads(result_path.read_text())
    result_path.unlink()
    return result


def ground_truth(job: dict, frame: dict) -> dict:
    dice = [
        {
            "label": job["labels"][i][die["slot"]],
            "kind": job["kind"],
            "quad": [[round(x, 2), round(y, 2)] for x, y in die["quad"]],
            "cocked": die["cocked"],
            "tilt": round(die["tilt"], 2),
            "visible": die["visible"],
        }
        for i, die in enumerate(frame["dice"])
    ]
    return {
        "image": frame["image"],
        "size": job["size"],
        "split": job["split"],
        "table": job["style"],
        "dice": dice,
    } | ({"leaning": True} if job["leaning"] else {})  # old truths stay as they were


def render_scene(
    seed: int, index: int, out: Path, split: str = "train", size=(320, 240), **clip
) -> list[dict]:
    """Render scene ``index``; write each frame's image and NAME.json into ``out``; return the
    truths.  ``clip`` takes scene_job's keyword arguments (frames, roll, kind, count, hand, pickup,
    views, tables, translucent, leaning, swirled, drilled, scattering, flash, close, samples)."""
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="dicescore-scene-") as tmp:
        job = scene_job(seed, index, split, Path(tmp), out, size, **clip)
        result = run_blender(job, Path(tmp) / "job.json")
    truths = [ground_truth(job, frame) for frame in result["frames"]]
    for truth in truths:
        (out / truth["image"]).with_suffix(".json").write_text(json.dumps(truth))
    return truths


def at_least_one(text: str) -> int:
    number = int(text)
    if number < 1:
        raise argparse.ArgumentTypeError(f"at least 1, not {number}")
    return number


def main(argv=None) -> int:
    from tqdm import tqdm

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--count", type=int, default=10)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--start", type=int, default=0, help="first scene index (to render in chunks)")
    parser.add_argument("--split", choices=("train", "heldout"), default="train")
    parser.add_argument("--size", type=int, nargs=2, default=(320, 240), metavar=("W", "H"))
    parser.add_argument("--views", type=int, default=1, help="cameras and light rigs per settled scene")
    parser.add_argument(
        "--tables",
        nargs="+",
        choices=tuple(dict.fromkeys(TRAIN_TABLES + MORE_TRAIN_TABLES + HELDOUT_TABLES + MORE_HELDOUT_TABLES)),
        help="table styles (default: the split's own; train may add tiles, stone, planks, pale and"
        " photo, heldout white_paper and photo: a real photo of its own split as the table)",
    )
    parser.add_argument(
        "--dice", choices=tuple(FACE_FAMILIES), help="one kind of dice in every scene (default: any)"
    )
    parser.add_argument(
        "--translucent",
        action="store_true",
        help="clear plastic dice under opaque paint (casino dice; card dice clear white)",
    )
    parser.add_argument(
        "--leaning",
        action="store_true",
        help="dice stood against a neighbour in every scene, up to half of them (cocked dice to learn from)",
    )
    parser.add_argument(
        "--swirled",
        action="store_true",
        help="dice cast in marbled or speckled plastic (in held-out scenes, plastics no training face shows)",
    )
    parser.add_argument(
        "--drilled",
        action="store_true",
        help="paint sunk in drilled hollows, as a real pip die's pips are (engraved print on the"
        " others); not with --swirled",
    )
    parser.add_argument(
        "--scattering",
        action="store_true",
        help="light scattered inside the dice's plastic (subsurface), as in real dice; not with --swirled",
    )
    parser.add_argument(
        "--flash",
        action="store_true",
        help="stills taken with a phone's flash: a light beside the lens, the room's lights dimmed",
    )
    parser.add_argument(
        "--close",
        action="store_true",
        help="stills taken close to one die, as a phone held over it: 3.5-7 dice across the picture",
    )
    parser.add_argument(
        "--samples",
        type=at_least_one,
        default=SAMPLES,
        help="Cycles' samples a pixel: more renders slower and keeps small print sharper (denoised under 64)",
    )
    args = parser.parse_args(argv)
    for index in tqdm(range(args.start, args.start + args.count), desc="scenes", unit="scene"):
        render_scene(
            args.seed,
            index,
            args.out,
            args.split,
            tuple(args.size),
            views=args.views,
            tables=tuple(args.tables) if args.tables else None,
            kind=args.dice,
            translucent=args.translucent,
            leaning=args.leaning,
            swirled=args.swirled,
            drilled=args.drilled,
            scattering=args.scattering,
            flash=args.flash,
            close=args.close,
            samples=args.samples,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
