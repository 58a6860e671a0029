"""Face crops as the camera sees them: a face artwork on a die, then everything a webcam adds.

``render_crop(rng, label, family)`` draws one crop; ``render_set(n, seed, families)`` draws a
seeded, balanced set (crop i depends only on (seed, i), so sets are reproducible and can be
rendered in parallel chunks).  The label ``none`` is a negative: table, hands, chips, cards,
die side faces, with no readable top face in the middle.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import cv2
import numpy as np

from datasets.faces import hollows
from datasets.faces.families import FAMILIES, TRAIN_FAMILIES, fonts_for
from datasets.faces.glyphs import TRAIN_FONTS, available, suit_mask, text_mask
from datasets.faces.plastics import TRAIN_PLASTICS, cast_in, plastic

NONE = "none"
TABLES_STREAM = 7  # render_set's tables= draws from (seed, i, this), apart from each crop's own generator
CANVAS = 96  # face artwork resolution, before the camera resizes it
# The trained coloured-plastic families (Cubes and pip dice), whose faces ``render_set(swirled=)``
# may cast in a swirled or speckled plastic, as many real dice are.
SWIRLED_FAMILIES = {"cubes_word", "numerals", "d6_pips"}
CARD_FAMILIES = {
    "card_face",
    "corner_index",
    "big_rank",
    "free_layout",
    "card_pips",
    "court",
    "joker",
    "rank_beside_suit",
}
# White or ivory Cubes and pip faces, as often as the scenes cast such dice
# (datasets.scenes.render.die_material) and most real pip dice are: drawn from the whole
# colour wheel alone, about 1 face in 25 came out so, and a white blank Cubes face in a
# scene read unsure (docs/vision-limits.md, session 71).
PALE_DICE = 0.3


def labels_of(families) -> tuple[str, ...]:
    seen = dict.fromkeys(label for name in families for label in FAMILIES[name].labels)
    return tuple(seen) + (NONE,)


def render_set(
    n: int,
    seed: int,
    families=TRAIN_FAMILIES,
    size: int = 64,
    start: int = 0,
    fonts=None,
    tables=None,
    swirled: float = 0.0,
):
    """``n`` crops (uint8 BGR, n x size x size x 3) with their labels and family names.

    Labels are drawn uniformly from those the families can show, plus ``none``; crop i uses
    its own generator seeded by (seed, start + i).  ``fonts`` (file names) replaces the
    families' own fonts, e.g. to read trained layouts in fonts never trained on.  ``tables``
    (a ``PhotoTables``) puts a share of the crops on real photos; it draws from a generator
    of its own, so every crop is otherwise the one rendered without it.  ``swirled`` casts that
    share of the Cubes and pip dice faces in swirled plastics, likewise apart.
    """
    families = tuple(families)
    labels = labels_of(families)
    able = {label: [f for f in families if label in FAMILIES[f].labels] for label in labels}
    images = np.empty((n, size, size, 3), np.uint8)
    out_labels, out_families = [], []
    for i in range(n):
        rng = np.random.default_rng([seed, start + i])
        label = labels[rng.integers(len(labels))]
        under = tables.under(np.random.default_rng([seed, start + i, TABLES_STREAM])) if tables else None
        if label == NONE:
            family = NONE
            images[i] = render_none(rng, size, under)
        else:
            family = able[label][rng.integers(len(able[label]))]
            images[i] = render_crop(rng, label, family, size, fonts, under=under, swirled=swirled)
        out_labels.append(label)
        out_families.append(family)
    return images, out_labels, out_families


# ---------------------------------------------------------------- die and face


def material(rng, family: str) -> np.ndarray:
    """Face colour: white/ivory for card dice mostly, coloured or white plastic for cubes and d6."""
    if family in CARD_FAMILIES or rng.random() < PALE_DICE:  # white, ivory or a pale colour
        base = rng.uniform(0.8, 1.0)
        tint = np.array([rng.uniform(-0.12, 0.0), rng.uniform(-0.05, 0.0), 0.0])  # ivory: less blue
        if rng.random() < 0.2:
            tint = rng.uniform(-0.25, 0.0, 3)
        return np.clip(base + tint, 0, 1).astype(np.float32)
    hsv = np.uint8([[[rng.integers(0, 180), rng.integers(0, 256), rng.integers(40, 256)]]])
    return (cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0] / 255.0).astype(np.float32)


def face_artwork(rng, label, family_name, fonts=None):
    return painted_face(rng, rng, rng, label, family_name, fonts)


def painted_face(material_rng, artwork_rng, defects_rng, label, family_name, fonts=None):
    """The face's material colour, its artwork and print defects, each drawn from its own
    generator (one and the same for a single crop)."""
    face_colour = material(material_rng, family_name)
    canvas = cv2.add(np.zeros((CANVAS, CANVAS, 3), np.float32), (*face_colour.tolist(), 0.0))
    fonts = available(fonts) if fonts else fonts_for(family_name)
    FAMILIES[family_name].draw(artwork_rng, label, canvas, fonts)
    print_defects(defects_rng, canvas, face_colour)
    return canvas, face_colour


def sometimes_swirled(rng, face, face_colour, share: float) -> np.ndarray:
    """``face`` cast in a swirled plastic (``datasets.faces.plastics``) ``share`` of the time,
    drawn from a stream of its own, so that every face left flat is the one drawn without."""
    plastic_rng = rng.spawn(1)[0]
    if plastic_rng.random() >= share:
        return face
    return cast_in(face, face_colour, plastic(plastic_rng, face_colour, CANVAS, TRAIN_PLASTICS))


def print_defects(rng, canvas, face_colour):
    """Ink spread, misregistered colour plates and worn patches."""
    if rng.random() < 0.3:
        k = int(rng.choice([3, 5]))
        canvas[:] = cv2.GaussianBlur(canvas, (k, k), 0)
    if rng.random() < 0.15:
        channel, dx, dy = rng.integers(3), rng.integers(-2, 3), rng.integers(-2, 3)
        canvas[..., channel] = np.roll(canvas[..., channel], (dy, dx), (0, 1))
    if rng.random() < 0.2:  # worn spots: material shows through
        for _ in range(rng.integers(1, 6)):
            x, y, r = rng.integers(0, CANVAS, 2).tolist() + [int(rng.integers(2, 7))]
            cv2.circle(canvas, (x, y), r, face_colour.tolist(), -1, cv2.LINE_AA)


def rounded_alpha(rng) -> np.ndarray:
    alpha = np.zeros((CANVAS, CANVAS), np.float32)
    r = int(CANVAS * rng.uniform(0.0, 0.2))
    cv2.rectangle(alpha, (r, 0), (CANVAS - 1 - r, CANVAS - 1), 1.0, -1)
    cv2.rectangle(alpha, (0, r), (CANVAS - 1, CANVAS - 1 - r), 1.0, -1)
    for x in (r, CANVAS - 1 - r):
        for y in (r, CANVAS - 1 - r):
            cv2.circle(alpha, (x, y), r, 1.0, -1, cv2.LINE_AA)
    return alpha


# ---------------------------------------------------------------- the scene around the face


def table(rng, s: int) -> np.ndarray:
    """A table: felt, wood or a cloth, as smooth noise with a random colour and grain."""
    # float32 throughout: a float64 colour here made every later stage of the crop float64, and slow
    colour = rng.uniform(0.05, 0.85, 3).astype(np.float32)
    small = rng.normal(0, 1, (int(rng.integers(2, 9)), int(rng.integers(2, 9)), 3))
    img = upsampled(small.astype(np.float32), s)
    img *= np.float32(rng.uniform(0.02, 0.12))
    img = cv2.add(img, (*colour.tolist(), 0.0))
    if rng.random() < 0.3:  # wood grain or cloth stripes
        angle = rng.uniform(0, np.pi)
        yy, xx = unit_grid(s)
        step = rng.uniform(0.2, 1.5) / max(1, s / 64) * s
        wave = np.sin(xx * np.float32(np.cos(angle) * step) + yy * np.float32(np.sin(angle) * step))
        img += (wave * np.float32(rng.uniform(0.02, 0.1)))[..., None]
    return np.clip(img, 0, 1, out=img)


def upsampled(small: np.ndarray, s: int) -> np.ndarray:
    """``small`` (h x w x 3) resized to s x s by bicubic interpolation, as cv2.resize does it,
    but as two matrix products: cv2 is slow to upsample an image of a few pixels."""
    rows, cols = cubic_weights(small.shape[0], s), cubic_weights(small.shape[1], s)
    widened = np.matmul(cols, small)  # each of the few rows resized to s columns
    return (rows @ widened.reshape(small.shape[0], -1)).reshape(s, s, 3)


@functools.cache
def cubic_weights(n: int, s: int) -> np.ndarray:
    """The s x n matrix that bicubic resizing from n to s pixels applies along one axis."""
    return cv2.resize(np.eye(n, dtype=np.float32), (n, s), interpolation=cv2.INTER_CUBIC)


@functools.cache
def unit_grid(s: int):
    yy, xx = np.mgrid[0:s, 0:s].astype(np.float32) / s
    return yy, xx


def clutter(rng, img, n_max=3):
    """Hands, chips, cards and other dice around (never over the centre of a positive)."""
    s = img.shape[0]
    for _ in range(rng.integers(0, n_max + 1)):
        kind = rng.integers(4)
        cx, cy = rng.uniform(-0.2, 1.2, 2) * s
        colour = rng.uniform(0, 1, 3)
        if kind == 0:  # a finger or hand: skin-coloured capsule from outside
            skin = np.array([rng.uniform(0.35, 0.75), rng.uniform(0.45, 0.8), rng.uniform(0.6, 0.95)])
            skin *= rng.uniform(0.4, 1.0)
            angle = rng.uniform(0, 180)
            cv2.ellipse(
                img,
                (int(cx), int(cy)),
                (int(s * 0.5), int(s * rng.uniform(0.08, 0.2))),
                angle,
                0,
                360,
                skin.tolist(),
                -1,
                cv2.LINE_AA,
            )
        elif kind == 1:  # a chip: disc with edge stripes
            r = int(s * rng.uniform(0.15, 0.4))
            cv2.circle(img, (int(cx), int(cy)), r, colour.tolist(), -1, cv2.LINE_AA)
            cv2.circle(img, (int(cx), int(cy)), int(r * 0.8), (1, 1, 1), max(1, r // 8), cv2.LINE_AA)
        elif kind == 2:  # a card: white rectangle, maybe a pattern on the back
            box = ((cx, cy), (s * rng.uniform(0.4, 1.0), s * rng.uniform(0.6, 1.4)), rng.uniform(0, 180))
            pts = cv2.boxPoints(box).astype(np.int32)
            cv2.fillPoly(img, [pts], (rng.uniform(0.8, 1),) * 3, cv2.LINE_AA)
            if rng.random() < 0.5:
                cv2.polylines(img, [pts], True, colour.tolist(), max(1, s // 20), cv2.LINE_AA)
        else:  # another die's body
            box = ((cx, cy), (s * 0.5, s * 0.5), rng.uniform(0, 90))
            cv2.fillPoly(img, [cv2.boxPoints(box).astype(np.int32)], colour.tolist(), cv2.LINE_AA)


def face_quad(rng, s: int, fills_crop: bool):
    """Where the face's corners land in the crop: rotation, tilt, scale and jitter."""
    side = rng.uniform(0.95, 1.2) if fills_crop else rng.uniform(0.75, 0.98)
    theta = rng.uniform(0, 2 * np.pi)
    tilt = math.radians(45) * rng.random() ** 1.5
    # Tilt about an in-plane axis: foreshortening along it, plus keystone from perspective.
    # Plain floats, not 2x2 matrices: numpy's overhead on four points was most of the time.
    axis = rng.uniform(0, 2 * np.pi)
    ca, sa, ct, st = math.cos(axis), math.sin(axis), math.cos(theta), math.sin(theta)
    corners = []
    for x, y in ((-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5)):
        along, across = x * ca + y * sa, y * ca - x * sa  # in the tilt axis's frame
        nearer = 1 + 0.5 * across * math.sin(tilt)
        along, across = along / nearer, across * math.cos(tilt) / nearer
        x, y = along * ca - across * sa, along * sa + across * ca
        corners.append((x * ct - y * st, x * st + y * ct))
    pts = np.array(corners) * side
    pts += rng.normal(0, 0.02, pts.shape)  # a detector's corner error
    centre = 0.5 + rng.uniform(-0.08, 0.08, 2)
    down = np.array([sa * ct - ca * st, sa * st + ca * ct])  # where the side face shows
    return (pts + centre) * s, down * math.sin(tilt) * side * s * rng.uniform(0.4, 0.9)


def place_face(rng, img, face, alpha, quad, side_offset, face_colour, fills_crop):
    s = img.shape[0]
    if not fills_crop:  # the die's body: its side faces, darker than the top
        body = np.concatenate([quad, quad + side_offset]).astype(np.float32)
        hull = cv2.convexHull(body).astype(np.int32)
        shade = face_colour * rng.uniform(0.35, 0.8)
        cv2.fillPoly(img, [hull], shade.tolist(), cv2.LINE_AA)
        if rng.random() < 0.5:  # a glimpse of the side face's own print
            mid = quad.mean(0) + side_offset * 1.3
            stamp_mask = (
                suit_mask(rng, "SHDC"[rng.integers(4)])
                if rng.random() < 0.5
                else text_mask(available(TRAIN_FONTS)[0], str(rng.integers(1, 7)))
            )
            h = max(2, int(s * 0.15))
            m = cv2.resize(stamp_mask, (h, h))
            x0, y0 = int(mid[0] - h / 2), int(mid[1] - h / 2)
            if x0 >= 0 and y0 >= 0 and x0 + h <= s and y0 + h <= s:
                region = img[y0 : y0 + h, x0 : x0 + h]
                region *= 1 - 0.6 * m[..., None]
    src = np.float32([[0, 0], [CANVAS, 0], [CANVAS, CANVAS], [0, CANVAS]])
    homography = cv2.getPerspectiveTransform(src, quad.astype(np.float32))
    flags = cv2.INTER_AREA if s < CANVAS else cv2.INTER_LINEAR
    warped = cv2.warpPerspective(face, homography, (s, s), flags=flags)
    a = cv2.warpPerspective(alpha, homography, (s, s), flags=flags)
    cv2.blendLinear(img, warped, 1 - a, a, dst=img)


@dataclass(frozen=True)
class DiePrint:
    """One printed face of one die: its artwork, material colour and outline (rounded corners)."""

    face: np.ndarray
    face_colour: np.ndarray
    alpha: np.ndarray


def die_print(set_seed: int, label: str, family: str, fonts=None) -> DiePrint:
    """The face of ``label`` in the dice set ``set_seed`` of ``family``.  The material, the
    print defects and the outline have generators of their own, so every face of a set shares
    them; the artwork's generator starts alike for every face (one font and ink), but a face
    whose artwork draws more numbers (a court figure, a framed number drawn as pips) can
    leave the rest of it drawn otherwise."""
    material_rng, artwork_rng, defects_rng, outline_rng = np.random.default_rng([set_seed]).spawn(4)
    face, face_colour = painted_face(material_rng, artwork_rng, defects_rng, label, family, fonts)
    fills = FAMILIES[family].fills_crop
    alpha = np.ones((CANVAS, CANVAS), np.float32) if fills else rounded_alpha(outline_rng)
    return DiePrint(face, face_colour, alpha)


@dataclass(frozen=True)
class Shoot:
    """What stays the same while one camera watches one table: the table, the light's colour
    and strength, the dice's size in the frame, the lens's focus, the sensor's noise and the
    stream's compression.  Each view still turns, tilts and moves the die, and casts its own
    shadows, glare and clutter."""

    table_seed: int
    crop_px: int  # pixels across a die's crop before resizing
    gains: np.ndarray  # white balance times exposure, per BGR channel
    gamma: float
    blur: float  # defocus, as a Gaussian sigma at 64 px (0: sharp)
    noise: float  # grey levels
    jpeg: int | None  # quality, or None for an uncompressed stream


def random_shoot(rng, family: str) -> Shoot:
    """A shoot drawn from the ranges ``render_crop`` draws each crop from (no motion blur:
    that is one view's, not the camera's)."""
    return Shoot(
        table_seed=int(rng.integers(2**31)),
        crop_px=crop_size(rng, family),
        gains=white_balance_and_exposure(rng),
        gamma=contrast_gamma(rng),
        blur=defocus(rng),
        noise=sensor_noise(rng),
        jpeg=jpeg_quality(rng),
    )


# The camera's random settings, one draw each, for a single crop (``camera``) or a shoot.
def white_balance_and_exposure(rng) -> np.ndarray:
    return rng.uniform(0.85, 1.15, 3) * rng.uniform(0.65, 1.3)  # per BGR channel


def contrast_gamma(rng) -> float:
    return float(rng.uniform(0.75, 1.35))


def defocus(rng) -> float:
    """A Gaussian sigma at 64 px, or 0.0 for a sharp lens (most often)."""
    return float(rng.uniform(0.3, 1.0)) if rng.random() < 0.4 else 0.0


NOISE_SHARED = NOISE_APART = 0.5**0.5  # of the sensor noise's deviation: as much brightness as colour noise


def sensor_noise(rng) -> float:
    return float(rng.uniform(0.0, 10.0))  # grey levels


def jpeg_quality(rng) -> int | None:
    return int(rng.integers(30, 96)) if rng.random() < 0.5 else None  # None: uncompressed


def render_dice_set(
    family: str, set_seed: int, views: int, seed: int, size: int = 64, fonts=None, shoot: Shoot | None = None
):
    """A dice set: every face of ``family`` printed once, the same way (``set_seed`` picks the
    font, inks, material and outline, see ``die_print``), each seen ``views`` times (``seed``),
    as a player's own dice at the table: through the randomized camera, or all in one
    ``shoot``.  Returns crops (N x size x size x 3) and labels, face by face."""
    labels = FAMILIES[family].labels
    images = np.empty((len(labels) * views, size, size, 3), np.uint8)
    for i, label in enumerate(labels):
        printed = die_print(set_seed, label, family, fonts)
        for v in range(views):
            rng = np.random.default_rng([seed, set_seed, i, v])
            images[i * views + v] = render_crop(rng, label, family, size, printed=printed, shoot=shoot)
    return images, [label for label in labels for _ in range(views)]


def render_in_plastic(
    style: str | None, family: str, n: int, seed: int, size: int = 64, drilled: bool = False
):
    """``n`` crops of ``family``'s faces in turn, each cast in plastic ``style`` (a name in
    ``datasets.faces.plastics.DRAW``; None: the face's flat colour), its paint sunk in hollows
    if ``drilled`` (``datasets.faces.hollows``).  Crop i shows the same face through the same
    camera on the same table in every style, so styles compare crop for crop.  Returns the
    crops and their labels."""
    labels = FAMILIES[family].labels
    crops, truth = [], []
    for i in range(n):
        rng = np.random.default_rng([seed, i])
        label = labels[i % len(labels)]
        face, colour = face_artwork(rng, label, family)
        paint = hollows.paint_of(face, colour)  # as printed: a plastic's swirls are no paint
        if style is not None:
            cast = plastic(np.random.default_rng([seed, i, 1]), colour, CANVAS, (style,))
            face = cast_in(face, colour, cast)
        if drilled:
            face = hollows.drilled(np.random.default_rng([seed, i, 2]), face, paint)
        printed = DiePrint(face, colour, rounded_alpha(rng))
        crops.append(render_crop(rng, label, family, size, printed=printed))
        truth.append(label)
    return crops, truth


def render_crop(
    rng,
    label: str,
    family: str,
    size: int = 64,
    fonts=None,
    printed: DiePrint | None = None,
    shoot: Shoot | None = None,
    under=None,
    swirled: float = 0.0,
) -> np.ndarray:
    """One crop of ``label`` drawn in ``family`` (or the given ``printed`` face), through a
    randomized camera, or the camera of one ``shoot``; on the table ``under(s)`` gives, if given;
    a Cubes or pip die's face cast in a swirled plastic ``swirled`` of the time."""
    # A crop of its own draws its print (artwork, then outline) from ``rng`` in this order,
    # as it always has, so that seeded training and test sets render the same crops.
    if printed is None:
        face, face_colour = face_artwork(rng, label, family, fonts)
        if swirled and family in SWIRLED_FAMILIES:
            face = sometimes_swirled(rng, face, face_colour, swirled)
    else:
        face, face_colour = printed.face, printed.face_colour
    fills = FAMILIES[family].fills_crop
    if shoot is None:
        s = crop_size(rng, family)
        img = table(rng, s)
    else:  # the die's distance varies a little from roll to roll
        s = max(16, int(shoot.crop_px * rng.uniform(0.9, 1.1)))
        img = table(np.random.default_rng(shoot.table_seed), s)
    if under is not None:  # after the rendered table, so ``rng`` draws the rest of the crop as without
        img = under(s)
    clutter(rng, img)
    if printed is not None:
        alpha = printed.alpha
    else:
        alpha = np.ones((CANVAS, CANVAS), np.float32) if fills else rounded_alpha(rng)
    quad, side_offset = face_quad(rng, s, fills)
    place_face(rng, img, face, alpha, quad, side_offset, face_colour, fills)
    if rng.random() < 0.2:
        occlude(rng, img)
    return camera(rng, img, size, shoot)


def render_none(rng, size: int = 64, under=None) -> np.ndarray:
    """A negative: table and clutter, or a die seen edge-on or mostly outside the crop; on the
    table ``under(s)`` gives, if given."""
    s = int(np.exp(rng.uniform(np.log(16), np.log(160))))
    img = table(rng, s)
    if under is not None:
        img = under(s)
    clutter(rng, img, n_max=4)
    if rng.random() < 0.5:
        family = TRAIN_FAMILIES[rng.integers(len(TRAIN_FAMILIES))]
        label = FAMILIES[family].labels[rng.integers(len(FAMILIES[family].labels))]
        face, face_colour = face_artwork(rng, label, family)
        quad, side_offset = face_quad(rng, s, False)
        if rng.random() < 0.5:  # off to one side: at most a corner inside
            quad += rng.choice([-1, 1], 2) * rng.uniform(0.75, 1.0, 2) * s
            place_face(rng, img, face, rounded_alpha(rng), quad, side_offset, face_colour, False)
        else:  # edge-on: the top face squashed to a sliver, the side face fills the view
            centre = quad.mean(0)
            axis = rng.uniform(0, 2 * np.pi)
            direction = np.array([np.cos(axis), np.sin(axis)])
            along = (quad - centre) @ direction
            quad = quad - np.outer(along * rng.uniform(0.8, 0.95), direction)
            place_face(rng, img, face, rounded_alpha(rng), quad, direction * s * 0.5, face_colour, False)
    return camera(rng, img, size)


def crop_size(rng, family: str) -> int:
    """Pixels across the crop before resizing: 28-160, fine artwork never below 40."""
    low = 40 if family in ("card_face", "card_pips", "court") else 28
    return int(np.exp(rng.uniform(np.log(low), np.log(160))))


def occlude(rng, img):
    """A fingertip or another die over one edge of the face."""
    s = img.shape[0]
    edge = rng.uniform(0, 2 * np.pi)
    cx, cy = s / 2 + np.array([np.cos(edge), np.sin(edge)]) * s * rng.uniform(0.55, 0.7)
    if rng.random() < 0.5:
        skin = np.array([rng.uniform(0.35, 0.75), rng.uniform(0.45, 0.8), rng.uniform(0.6, 0.95)])
        cv2.circle(img, (int(cx), int(cy)), int(s * rng.uniform(0.15, 0.25)), skin.tolist(), -1, cv2.LINE_AA)
    else:
        box = ((cx, cy), (s * 0.4, s * 0.4), rng.uniform(0, 90))
        cv2.fillPoly(img, [cv2.boxPoints(box).astype(np.int32)], rng.uniform(0, 1, 3).tolist(), cv2.LINE_AA)


def camera(rng, img, size: int, shoot: Shoot | None = None) -> np.ndarray:
    """Light, optics and sensor: shadow, glare, exposure, white balance, blur, noise, JPEG;
    all drawn at random, or those of a ``shoot`` (the shadow and glare still this view's own,
    and no motion blur)."""
    s = img.shape[0]
    yy, xx = unit_grid(s)
    if rng.random() < 0.3:  # a cast shadow with a soft edge
        a = rng.uniform(0, 2 * np.pi)
        d = (xx - 0.5) * math.cos(a) + (yy - 0.5) * math.sin(a) - rng.uniform(-0.3, 0.3)  # float32
        edge = 1 / (1 + np.exp(-d * rng.uniform(10, 60)))
        cv2.multiply(img, cv2.merge([1 - rng.uniform(0.3, 0.6) * edge] * 3), dst=img)
    if rng.random() < 0.25:  # specular glare
        gx, gy = rng.uniform(0.1, 0.9, 2).tolist()  # Python floats keep the grid float32
        r = rng.uniform(0.05, 0.25)
        glare = np.exp(-((xx - gx) ** 2 + (yy - gy) ** 2) / (2 * r * r)) * rng.uniform(0.3, 0.9)
        cv2.add(img, cv2.merge([glare] * 3), dst=img)
    if shoot is not None:
        img = exposed(img, shoot.gains, shoot.gamma)
        if shoot.blur:
            img = cv2.GaussianBlur(img, (0, 0), shoot.blur * s / 64)
        return sensor(rng, img, size, shoot.noise, shoot.jpeg)
    gains = white_balance_and_exposure(rng)
    img = exposed(img, gains, contrast_gamma(rng))
    sigma = defocus(rng)
    if sigma:
        img = cv2.GaussianBlur(img, (0, 0), sigma * s / 64)
    elif rng.random() < 0.2:  # motion blur
        k = int(rng.integers(3, max(4, s // 12)))
        kernel = np.zeros((k, k), np.float32)
        kernel[k // 2] = 1 / k
        rot = cv2.getRotationMatrix2D((k / 2 - 0.5, k / 2 - 0.5), rng.uniform(0, 180), 1)
        kernel = cv2.warpAffine(kernel, rot, (k, k))
        img = cv2.filter2D(img, -1, kernel / max(kernel.sum(), 1e-6))
    seed = int(rng.integers(2**31))  # drawn in this order, as before shoots: seeded sets stay as they were
    return sensor(rng, img, size, sensor_noise(rng), jpeg_quality(rng), seed)


def exposed(img, gains, gamma: float) -> np.ndarray:
    """White balance and exposure (gains per channel), then the contrast curve (a new array)."""
    img = cv2.multiply(img, (*gains.tolist(), 0.0))
    np.clip(img, 0, 1, out=img)
    return cv2.pow(img, gamma, dst=img)


def sensor(rng, img, size: int, noise: float, jpeg: int | None, seed: int | None = None) -> np.ndarray:
    """The sensor's noise (grey levels), the stream's JPEG quality (None: none) and the resize
    to ``size``."""
    s = img.shape[0]
    out = img * 255
    out = np.clip(out, 0, 255, out=out).astype(np.uint8)
    # a part shared by the three channels (brightness) and a part of each channel's own (colour),
    # together ``noise`` grey levels in every channel.  cv2.randn fills only a multi-channel
    # array's first channel (blue) when given one deviation, so each channel's is named.
    grain = np.empty(out.shape, np.int16)
    brightness = np.empty(out.shape[:2], np.int16)
    cv2.setRNGSeed(int(rng.integers(2**31)) if seed is None else seed)
    cv2.randn(grain, (0, 0, 0), (noise * NOISE_APART,) * 3)
    cv2.randn(brightness, 0, noise * NOISE_SHARED)
    grain += brightness[..., None]
    out = cv2.add(out, grain, dtype=cv2.CV_8U)
    if jpeg is not None:
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, jpeg])
        out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    interp = cv2.INTER_AREA if s > size else cv2.INTER_LINEAR
    return cv2.resize(out, (size, size), interpolation=interp)
