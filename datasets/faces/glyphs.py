"""Glyph masks: TrueType text rasterised once per (font, text, weight), plus drawn suit shapes.

Pillow (which comes with matplotlib) rasterises; everything after that is numpy and OpenCV,
so a crop costs a few resizes and blends.  Fonts missing on a machine are skipped, and
DejaVu (always present where matplotlib is) is the fallback, so rendering never fails for
want of a font; the extra fonts come from Debian's packages (the README lists them), and a
seeded set renders the same only where the same fonts are installed.
"""

from __future__ import annotations

import functools
import os
from pathlib import Path

import cv2
import numpy as np

FONT_DIRS = ("/usr/share/fonts/truetype", "/usr/share/fonts/opentype", "/usr/local/share/fonts")


def styles(pattern: str, names: str) -> tuple[str, ...]:
    """Font file names: ``pattern`` with each space-separated style name put in."""
    return tuple(pattern.format(name) for name in names.split())


# Text fonts by file name.  HELDOUT_FONTS are never used by the trained families.
TRAIN_FONTS = (
    "DejaVuSans.ttf",
    "DejaVuSans-Bold.ttf",
    "DejaVuSansCondensed.ttf",
    "DejaVuSansCondensed-Bold.ttf",
    "DejaVuSerif.ttf",
    "DejaVuSerif-Bold.ttf",
    "DejaVuSerifCondensed-Bold.ttf",
    "DejaVuSansMono-Bold.ttf",
    "LiberationSans-Regular.ttf",
    "LiberationSans-Bold.ttf",
    "LiberationSerif-Bold.ttf",
    "LiberationSerif-Regular.ttf",
    "LiberationMono-Bold.ttf",
    "FreeSans.ttf",
    "FreeSansBold.ttf",
    "FreeSerif.ttf",
    "FreeMonoBold.ttf",
    "NotoSans-Regular.ttf",
    "NotoSans-Bold.ttf",
    "NotoSerif-Bold.ttf",
    "NotoSansDisplay-Bold.ttf",
    "NotoSerifDisplay-Regular.ttf",
    "NotoSans-Italic.ttf",
    "DejaVuSans-BoldOblique.ttf",
    # Session 20: more shapes of print for the trained families, since real dice and cards
    # print in fonts none of these are (Debian's fonts-urw-base35, fonts-roboto-unhinted,
    # fonts-lato, fonts-open-sans, fonts-crosextra-carlito, fonts-crosextra-caladea,
    # fonts-linuxlibertine, fonts-cantarell, fonts-league-spartan, fonts-oldstandard,
    # fonts-ebgaramond, fonts-comic-neue, fonts-firacode).  Left out: hairline and thin
    # weights (nothing prints so), scripts and symbol fonts, and the clones of a held-out
    # font's face and weight, so those stay unseen: Nimbus Roman Bold (Times Bold, as
    # FreeSerifBold), Nimbus Sans Bold Italic (as FreeSansBoldOblique and
    # LiberationSans-BoldItalic), Open Sans Regular (which Noto Sans Display is drawn from).
    *styles("C059-{}.otf", "Roman Bold Italic BdIta"),
    *styles("NimbusMonoPS-{}.otf", "Regular Bold Italic BoldItalic"),
    *styles("NimbusRoman-{}.otf", "Regular Italic BoldItalic"),
    *styles("NimbusSans-{}.otf", "Regular Bold Italic"),
    *styles("NimbusSansNarrow-{}.otf", "Regular Bold Oblique BoldOblique"),
    *styles("P052-{}.otf", "Roman Bold Italic BoldItalic"),
    *styles("URWBookman-{}.otf", "Light Demi LightItalic DemiItalic"),
    *styles("URWGothic-{}.otf", "Book Demi BookOblique DemiOblique"),
    *styles("Caladea-{}.ttf", "Regular Bold Italic BoldItalic"),
    *styles("Carlito-{}.ttf", "Regular Bold Italic BoldItalic"),
    *styles("Cantarell-{}.otf", "Light Regular Bold ExtraBold"),
    *styles("ComicNeue-{}.otf", "Light Regular Bold Italic BoldItalic"),
    *styles("EBGaramond{}.otf", "12-Regular 12-Bold 12-Italic 08-Regular"),
    *styles("FiraCode-{}.ttf", "Light Regular Medium SemiBold Bold"),
    *styles("Lato-{}.ttf", "Light Regular Medium Semibold Bold Heavy Black Italic BoldItalic BlackItalic"),
    *styles("LeagueSpartan-{}.otf", "Light Regular Medium SemiBold Bold ExtraBold Black"),
    *styles("LinLibertine_{}.otf", "R RB RI RBI RZ M DR"),
    *styles("LinBiolinum_{}.otf", "R RB RI"),
    *styles("OldStandard-{}.ttf", "Regular Bold Italic"),
    *styles("OpenSans-{}.ttf", "Light Semibold Bold ExtraBold Italic BoldItalic CondLight CondBold"),
    *styles("Roboto-{}.ttf", "Light Regular Medium Bold Black Italic BoldItalic"),
    *styles("RobotoCondensed-{}.ttf", "Light Regular Medium Bold Italic BoldItalic"),
    *styles("LiberationSansNarrow-{}.ttf", "Regular Bold Italic BoldItalic"),
    "LiberationMono-Regular.ttf",
    "LiberationSerif-Italic.ttf",
    "LiberationSerif-BoldItalic.ttf",
    "DejaVuSansMono.ttf",
    "DejaVuSerif-Italic.ttf",
    # Session 74: heavy display serifs, condensed as a card's index is (fonts-noto-extra,
    # fonts-roboto-slab), since no font above has a hairline serif on a black stem as the
    # neoclassical decks' fat condensed Didone does.  That deck's Q read as 10 was not the
    # font but the large suit beside it (docs/vision-limits.md, session 74).
    *styles("NotoSerifDisplay-{}.ttf", "Black CondensedBlack ExtraCondensedBold SemiCondensedExtraBold"),
    *styles("NotoSerif-{}.ttf", "CondensedBlack ExtraCondensedBold SemiCondensedBlack"),
    *styles("NotoSans-{}.ttf", "CondensedBold ExtraCondensedBlack"),
    *styles("RobotoSlab-{}.otf", "Regular Bold"),
)
# The first 24 training fonts, the only ones sessions 1-19 trained in: the shipped face
# models, trained on from those sessions' networks in all 140 since, have learnt them longest.
FIRST_FONTS = TRAIN_FONTS[:24]
HELDOUT_FONTS = (
    "FreeSerifBold.ttf",
    "FreeSansBoldOblique.ttf",
    "LiberationSans-BoldItalic.ttf",
    "NotoSerif-Regular.ttf",
    "NotoSansDisplay-Regular.ttf",
    "DejaVuSerifCondensed.ttf",
)
# Fonts whose cmap has the four suit symbols.
SUIT_FONTS = (
    "DejaVuSans.ttf",
    "DejaVuSans-Bold.ttf",
    "DejaVuSerif.ttf",
    "FreeSerif.ttf",
    "FreeSans.ttf",
    "FreeMono.ttf",
    "NotoSansSymbols2-Regular.ttf",
)
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RASTER_PX = 96  # glyphs are cached at this em size and only ever scaled down


@functools.cache
def font_paths() -> dict[str, str]:
    """Installed font files by file name."""
    found = {}
    for root in FONT_DIRS:
        # sorted: a name two packages ship (fonts-liberation and fonts-liberation2) is always
        # the same file, whatever order the disk lists them in
        for path in sorted(Path(root).rglob("*")) if os.path.isdir(root) else ():
            if path.suffix in (".ttf", ".ttc", ".otf"):
                found.setdefault(path.name, str(path))
    if "DejaVuSans.ttf" not in found:  # matplotlib always ships DejaVu
        import matplotlib

        mpl_fonts = Path(matplotlib.get_data_path()) / "fonts" / "ttf"
        for path in mpl_fonts.glob("DejaVu*.ttf"):
            found.setdefault(path.name, str(path))
    return found


def available(names) -> tuple[str, ...]:
    """The names installed here, or DejaVu Sans (Bold) when none is."""
    return installed(tuple(names))


@functools.cache  # asked for every crop drawn, with one of a few lists of ~100 names
def installed(names: tuple[str, ...]) -> tuple[str, ...]:
    paths = font_paths()
    have = tuple(name for name in names if name in paths)
    return have or tuple(n for n in ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf") if n in paths)


@functools.cache
def text_mask(font: str, text: str, weight: int = 0) -> np.ndarray:
    """Tight float32 coverage mask of ``text``; ``weight`` -1/0/+1 thins or thickens strokes."""
    from PIL import Image, ImageDraw

    pil_font = pil_font_of(font)
    left, top, right, bottom = pil_font.getbbox(text)
    pad = 8
    image = Image.new("L", (right - left + 2 * pad, bottom - top + 2 * pad), 0)
    ImageDraw.Draw(image).text((pad - left, pad - top), text, fill=255, font=pil_font)
    mask = np.asarray(image, np.float32) / 255.0
    if weight:
        kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))
        if weight > 0:
            mask = cv2.dilate(mask, kernel)
        else:
            # Thin the stems but keep any stroke eroding would wipe out: a Didone's hairline
            # diagonal went, and its 4 was drawn as a 1, a light font's 7 as a dash.
            thinned = cv2.erode(mask, kernel)
            wiped = cv2.dilate(thinned, kernel) < 0.5
            mask = np.maximum(thinned, mask * wiped)
    return tight(mask)


@functools.lru_cache(maxsize=1024)  # glyphs ask at RASTER_PX; printed pages at their own sizes
def pil_font_of(font: str, px: int = RASTER_PX):
    """``font`` loaded at ``px`` pixels to the em."""
    from PIL import ImageFont

    return ImageFont.truetype(font_paths()[font], px)


def tight(mask: np.ndarray) -> np.ndarray:
    ys, xs = np.nonzero(mask > 0.05)
    if len(ys) == 0:
        return np.ones((2, 2), np.float32)
    return np.ascontiguousarray(mask[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1])


@functools.cache
def drawn_suit(suit: str, variant: int) -> np.ndarray:
    """Suit shapes drawn from circles and polygons with the proportions of card pips."""
    size = 4 * RASTER_PX
    canvas = np.zeros((size, size), np.uint8)
    c = size / 2
    r = size * (0.22 + 0.03 * variant)  # lobe radius: fuller or leaner shapes
    shift = 4

    def circle(x, y, radius):
        cv2.circle(canvas, (int(x * 16), int(y * 16)), int(radius * 16), 255, -1, cv2.LINE_AA, shift)

    def poly(points):
        pts = (np.array(points) * 16).astype(np.int32)
        cv2.fillPoly(canvas, [pts], 255, cv2.LINE_AA, shift)

    if suit == "D":
        waist = 0.52 + 0.08 * variant
        poly([(c, 0.02 * size), (c + waist * c * 0.75, c), (c, 0.98 * size), (c - waist * c * 0.75, c)])
    elif suit in ("H", "S"):
        top = 0.3 * size
        circle(c - r * 0.95, top + r, r)
        circle(c + r * 0.95, top + r, r)
        poly([(c - 1.88 * r, top + 1.3 * r), (c + 1.88 * r, top + 1.3 * r), (c, top + 3.6 * r)])
        if suit == "S":
            canvas[:] = canvas[::-1].copy()
            base = size - top + 0.6 * r
            poly([(c, c), (c - r * 0.9, base), (c + r * 0.9, base)])
    else:  # clubs; the fullest one's lobes overlap into a blob, as some plastic decks print it
        spread = 0.85 if variant == 2 else 1.15
        circle(c, c - 1.1 * r, r)
        circle(c - spread * r, c + 0.5 * r, r)
        circle(c + spread * r, c + 0.5 * r, r)
        poly([(c, c - 0.5 * r), (c - r * 0.8, c + 2.6 * r), (c + r * 0.8, c + 2.6 * r)])
        circle(c, c + 0.2 * r, 0.6 * r)
    small = cv2.resize(canvas, (RASTER_PX, RASTER_PX), interpolation=cv2.INTER_AREA)
    return tight(small.astype(np.float32) / 255.0)


def suit_mask(rng: np.random.Generator, suit: str) -> np.ndarray:
    """A suit symbol from a symbol font or a drawn shape."""
    fonts = available(SUIT_FONTS)
    if rng.random() < 0.45:
        return drawn_suit(suit, int(rng.integers(0, 3)))
    return text_mask(fonts[rng.integers(len(fonts))], SUIT_SYMBOLS[suit])
