"""The fonts the face renderer draws with (datasets.faces.glyphs)."""

import itertools
from pathlib import Path

import cv2
import numpy as np
import pytest

from datasets.faces.glyphs import FONT_DIRS, HELDOUT_FONTS, TRAIN_FONTS, available, font_paths, text_mask

# Everything the families print in a font: ranks, numerals and words.
TEXTS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "CUBES", "JOKER")


def test_no_font_is_both_trained_on_and_held_out():
    assert not set(TRAIN_FONTS) & set(HELDOUT_FONTS)
    assert len(set(TRAIN_FONTS)) == len(TRAIN_FONTS)


def test_opentype_fonts_are_found_as_truetype_ones_are():
    installed = [p for root in FONT_DIRS if Path(root).is_dir() for p in Path(root).rglob("*.otf")]
    if not installed:
        pytest.skip("no OpenType font installed here")
    assert all(path.name in font_paths() for path in installed)


@pytest.mark.parametrize("font", available(TRAIN_FONTS + HELDOUT_FONTS))
def test_every_font_draws_each_rank_and_word_as_its_own_shape(font):
    """A font without a glyph draws the same empty box for every missing one: each text must
    come out inked and unlike every other."""
    masks = {text: text_mask(font, text) for text in TEXTS}
    for text, mask in masks.items():
        assert mask.shape[0] > 20 and mask.mean() > 0.08, f"{font} draws {text!r} faint or not at all"
    for (a, mask_a), (b, mask_b) in itertools.combinations(masks.items(), 2):
        same_shape = mask_a.shape == mask_b.shape and np.abs(mask_a - mask_b).mean() < 0.02
        assert not same_shape, f"{font} draws {a!r} and {b!r} alike"


def ink_beyond(mask, other, margin):
    """The farthest ``mask`` ink lies from ``other``'s, both centred in one frame, in pixels."""
    frame = np.zeros((mask.shape[0] + 2 * margin, mask.shape[1] + 2 * margin), np.uint8)
    y, x = (frame.shape[0] - other.shape[0]) // 2, (frame.shape[1] - other.shape[1]) // 2
    frame[y : y + other.shape[0], x : x + other.shape[1]] = other > 0.5
    distance = cv2.distanceTransform(1 - frame, cv2.DIST_L2, 3)
    return distance[margin : margin + mask.shape[0], margin : margin + mask.shape[1]][mask > 0.5].max()


@pytest.mark.parametrize("font", available(TRAIN_FONTS + HELDOUT_FONTS))
def test_thinning_a_font_wipes_out_no_stroke(font):
    # eroding took a Didone's hairline diagonal, and its 4 was drawn as a 1, a light font's
    # 7 as a dash (50 of 157 fonts drew a text with ink over 8 px, at 96 px to the em, from
    # its thinned self)
    for text in TEXTS:
        assert ink_beyond(text_mask(font, text), text_mask(font, text, -1), margin=5) <= 8, text
