"""Seeded face crops (datasets.faces.render): the same crops from a seed, whole or in chunks,
and the fast paths drawing what the library calls they replace would draw."""

import cv2
import numpy as np
import pytest

from datasets.faces import HELDOUT_FAMILIES, TRAIN_FAMILIES, render_set
from datasets.faces.render import PALE_DICE, face_quad, material, upsampled


@pytest.mark.parametrize("families", [TRAIN_FAMILIES, HELDOUT_FAMILIES])
def test_a_set_rendered_in_chunks_is_the_set_rendered_whole(families):
    whole, labels, drawn_from = render_set(12, 3, families)
    first, first_labels, _ = render_set(5, 3, families)
    rest, rest_labels, _ = render_set(7, 3, families, start=5)
    assert np.array_equal(whole, np.concatenate([first, rest]))
    assert labels == first_labels + rest_labels
    assert not np.array_equal(whole, render_set(12, 4, families)[0])
    assert set(drawn_from) <= set(families) | {"none"}


@pytest.mark.parametrize("rows, cols, side", [(2, 2, 28), (5, 8, 100), (8, 3, 160), (7, 7, 41)])
def test_a_table_texture_is_upsampled_as_bicubic_resizing_does(rows, cols, side):
    small = np.random.default_rng(rows * cols).normal(0, 1, (rows, cols, 3)).astype(np.float32)
    expected = cv2.resize(small, (side, side), interpolation=cv2.INTER_CUBIC)
    got = upsampled(small, side)
    assert got.shape == expected.shape and got.dtype == np.float32
    assert np.abs(got - expected).max() < 1e-4


class Camera:
    """A generator for ``face_quad`` with the tilt chosen (0: straight down, 1: 45 degrees)
    and no corner error; every other draw is random."""

    def __init__(self, tilt: float):
        self.rng, self.tilt = np.random.default_rng(0), tilt

    def uniform(self, low=0.0, high=1.0, size=None):
        return self.rng.uniform(low, high, size)

    def random(self):
        return self.tilt

    def normal(self, loc, scale, size):
        return np.zeros(size)


def test_a_face_seen_straight_down_is_a_square_of_its_drawn_side():
    quad, side_offset = face_quad(Camera(tilt=0.0), 100, fills_crop=False)
    edges = np.linalg.norm(np.roll(quad, -1, 0) - quad, axis=1)
    diagonals = np.linalg.norm(quad[2] - quad[0]), np.linalg.norm(quad[3] - quad[1])
    assert np.allclose(edges, edges[0]) and np.allclose(diagonals, edges[0] * 2**0.5)
    assert 75 <= edges[0] <= 98  # the drawn side, 0.75-0.98 of the crop
    assert np.allclose(side_offset, 0)  # no side face shows


def test_a_face_tilted_45_degrees_is_foreshortened_and_shows_a_side():
    flat, _ = face_quad(Camera(tilt=0.0), 100, fills_crop=False)
    tilted, side_offset = face_quad(Camera(tilt=1.0), 100, fills_crop=False)  # the same other draws
    ratio = cv2.contourArea(tilted.astype(np.float32)) / cv2.contourArea(flat.astype(np.float32))
    assert 0.6 < ratio < 0.8  # about cos 45 degrees, with the near edge longer than the far one
    assert np.linalg.norm(side_offset) > 0.2 * np.linalg.norm(flat[1] - flat[0])


def test_a_share_of_cubes_and_pip_faces_is_white_or_ivory_as_in_the_scenes():
    def near_white(family, n=3000):
        rng = np.random.default_rng(11)
        return np.mean([material(rng, family).min() > 0.75 for _ in range(n)])

    assert near_white("card_face") > 0.7
    for family in ("cubes_word", "numerals", "d6_pips"):
        # from the colour wheel alone, about 4% (1 face in 25)
        assert PALE_DICE - 0.1 < near_white(family) < PALE_DICE + 0.05
