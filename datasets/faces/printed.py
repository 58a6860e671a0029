"""Print that is not a die: a score pad, a rule sheet, a box's lettering, a newspaper.

Game tables have them, and a letter the size of a die's face (an ``o``, an ``a``, a ``b``)
looks enough like a pip or a numeral that a network which never saw print reads it as one:
session 52 found most false dice in its d6 photos on a printed page. ``render_print`` draws
such print as a ``none`` crop, as the camera would cut it where the detector took a letter
for a die: lines of words whose letters are 0.1-0.8 of the crop tall, or (``ON_A_LETTER``)
one headline letter as large as the die, the crop centred on it; turned any way.

Words only, with no digits and no letters that pass for one or for a pip (``LETTERS``): a
numeral alone on a face is a Cubes or d6 face, and a ring is a pip. Taught print with every
letter, both networks left more of the held-out Cubes artwork (framed numerals, ring pips)
unread; without these letters the default network kept it in a small run, the camera's did
not (docs/vision-limits.md, session 53). The words CUBES and JOKER are left out too.
"""

from __future__ import annotations

import cv2
import numpy as np

from datasets.faces.families import pick_font
from datasets.faces.glyphs import TRAIN_FONTS, available, pil_font_of
from datasets.faces.render import camera, clutter

# No letter that passes for a face's numeral in some font, blurred or turned: i and l (1),
# z (2), s (5), b, g and q (6, or a 9, which is a 6 turned round); nor o (a ring pip).
LETTERS = "acdefhjkmnprtuvwxy"
FACE_WORDS = {"cubes", "joker"}
PAPERS = np.array(  # BGR: white, cream, newsprint, kraft card, a box's coloured print
    [[0.95, 0.95, 0.95], [0.8, 0.92, 0.95], [0.78, 0.8, 0.8], [0.45, 0.62, 0.75], [0.2, 0.3, 0.7]]
)
ON_A_LETTER = 0.35  # share of crops cut about one large letter rather than across lines of words
INKS = np.array([[0.05, 0.05, 0.05], [0.35, 0.1, 0.05], [0.1, 0.1, 0.7], [0.3, 0.3, 0.3], [0.95, 0.95, 0.95]])


def word(rng) -> str:
    """A word of 1-9 of ``LETTERS``, in lower case, capitalised or in capitals."""
    while (text := "".join(rng.choice(list(LETTERS), int(rng.integers(1, 10))))) in FACE_WORDS:
        pass
    case = rng.integers(3)
    return text if case == 0 else text.capitalize() if case == 1 else text.upper()


def ink_mask(side: int, font: str, px: int, spacing: float, rng) -> np.ndarray:
    """Coverage (float32, side x side) of a page of random words in ``font`` at ``px``."""
    from PIL import Image, ImageDraw

    page = Image.new("L", (side, side), 0)
    draw = ImageDraw.Draw(page)
    for y in np.arange(-rng.uniform(0, spacing), side, spacing):
        line = " ".join(word(rng) for _ in range(int(side / px / 2) + 2))
        draw.text((-rng.uniform(0, px * 3), y), line, fill=255, font=pil_font_of(font, px))
    return np.asarray(page, np.float32) / 255.0


def render_print(rng, size: int = 64, fonts=None) -> np.ndarray:
    """A ``none`` crop of printed words (uint8 BGR, size x size), in ``fonts`` (file names;
    the trained fonts by default)."""
    fonts = available(fonts or TRAIN_FONTS)
    s = int(np.exp(rng.uniform(np.log(16), np.log(160))))
    paper = PAPERS[rng.integers(len(PAPERS))] * rng.uniform(0.85, 1.1)
    ink = INKS[rng.integers(len(INKS))]
    if abs(ink.mean() - paper.mean()) < 0.3:  # white ink on white paper: print it dark
        ink = INKS[0]
    paper = np.clip(paper, 0, 1)
    work = min(s, 96)  # the page is drawn at most 96 px a crop: the camera shrinks it to 64
    on_a_letter = rng.random() < ON_A_LETTER
    if on_a_letter:  # a headline's letter the size of a die: the crop sits on it
        px = int(work * rng.uniform(0.7, 2.2))
    else:  # the em (letters are about 0.5-0.7 of it): from a tenth of the crop to most of it
        px = max(4, int(work * np.exp(rng.uniform(np.log(0.15), np.log(1.1)))))
    spacing = px * rng.uniform(1.0, 1.6)
    coverage = ink_mask(2 * work, pick_font(rng, fonts), px, spacing, rng)
    weight = rng.choice([-1, 0, 0, 1])
    if weight and px > 12:  # bolder or thinner strokes
        kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3))
        coverage = (cv2.dilate if weight > 0 else cv2.erode)(coverage, kernel)
    img = paper * (1 - coverage[..., None]) + ink * coverage[..., None]
    if rng.random() < 0.3:  # a score pad's ruled lines
        ruled = (ink * 0.6 + paper * 0.4).tolist()
        for y in np.arange(rng.uniform(0, spacing), 2 * work, spacing):
            cv2.line(img, (0, int(y)), (2 * work, int(y)), ruled, max(1, work // 40))
    img = img.astype(np.float32)
    # drawn twice the crop's side, so that the turned page still fills the crop's corners
    centre = (work, work)
    inked = np.argwhere(coverage > 0.5) if on_a_letter else ()
    if len(inked):  # where the detector would centre its find
        y, x = inked[rng.integers(len(inked))]
        centre = (float(x), float(y))
    turn = cv2.getRotationMatrix2D(centre, rng.uniform(0, 360), 1.0)
    turn[:, 2] += (work / 2 - centre[0], work / 2 - centre[1])
    img = cv2.warpAffine(img, turn, (work, work), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    clutter(rng, img, n_max=1)
    return camera(rng, img, size)


def render_prints(n: int, seed, size: int = 64, fonts=None, start: int = 0) -> np.ndarray:
    """``n`` seeded print crops; crop i depends only on (seed, start + i), so a set renders
    the same in parallel chunks. ``seed`` may be a tuple, to draw apart from a set that
    shares its first number."""
    first = tuple(np.atleast_1d(seed).tolist())
    return np.stack([render_print(np.random.default_rng([*first, start + i]), size, fonts) for i in range(n)])
