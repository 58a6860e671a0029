"""Photo-like card corners (datasets.faces.photos): seeded, square, the same cards at every
tightness, and the index where the card says."""

import numpy as np

from datasets.faces.glyphs import HELDOUT_FONTS, available
from datasets.faces.photos import CARD_LABELS, TIGHTNESSES, card_corner, corner_photos


def test_a_set_is_remade_from_its_seed():
    first, labels = corner_photos(6, 11, 1.4)
    again, labels_again = corner_photos(6, 11, 1.4)
    other, _ = corner_photos(6, 12, 1.4)
    assert labels == labels_again and set(labels) <= set(CARD_LABELS)
    assert all(np.array_equal(a, b) for a, b in zip(first, again, strict=True))
    assert not any(a.shape == b.shape and np.array_equal(a, b) for a, b in zip(first, other, strict=True))


def test_crops_are_square_colour_images_a_photo_might_give():
    crops, _ = corner_photos(12, 11, 1.8)
    for crop in crops:
        assert crop.dtype == np.uint8 and crop.ndim == 3 and crop.shape[2] == 3
        assert crop.shape[0] == crop.shape[1] and 64 <= crop.shape[0] < 200


def test_every_tightness_shows_the_same_cards():
    labels = [corner_photos(8, 11, tightness)[1] for tightness in TIGHTNESSES]
    assert all(other == labels[0] for other in labels)


def test_the_index_is_drawn_where_it_is_said_to_be():
    rng = np.random.default_rng(3)
    image, (cx, cy), height = card_corner(rng, "KS", available(HELDOUT_FONTS))
    half = height / 2
    index = image[int(cy - half) : int(cy + half), int(cx - half / 2) : int(cx + half / 2)]
    assert index.min() < 0.3  # black ink of the K and the spade
    assert 40 < height < 160
