"""Swirled and speckled die plastics (datasets.faces.plastics) and where the renderers use them."""

import numpy as np
import pytest

import datasets.faces.render
from datasets.faces import TRAIN_FAMILIES, render_set
from datasets.faces.plastics import DRAW, HELDOUT_PLASTICS, TRAIN_PLASTICS, cast_in, plastic

RED = np.array([0.1, 0.1, 0.8], np.float32)


def test_trained_and_held_out_plastics_are_apart_and_each_can_be_drawn():
    assert set(TRAIN_PLASTICS).isdisjoint(HELDOUT_PLASTICS)
    assert set(TRAIN_PLASTICS) | set(HELDOUT_PLASTICS) == set(DRAW)


@pytest.mark.parametrize("style", sorted(DRAW))
def test_a_plastic_is_a_varied_image_of_its_colour_the_same_from_a_seed(style):
    image = plastic(np.random.default_rng(5), RED, 96, (style,), second=np.ones(3))
    assert image.shape == (96, 96, 3) and image.dtype == np.float32
    assert image.min() >= 0 and image.max() <= 1
    assert image.std(axis=(0, 1)).max() > 0.01  # not one flat colour
    # mostly the die's own colour: red outweighs blue over the face
    assert image[..., 2].mean() > image[..., 0].mean()
    assert np.array_equal(image, plastic(np.random.default_rng(5), RED, 96, (style,), second=np.ones(3)))


def test_swirled_faces_draw_from_a_stream_of_their_own():
    """Swirled plastics change only the crops cast in them: every card die, every `none` crop
    and every pip or Cubes die left flat is the one drawn without them."""
    share = 0.6
    swirled, labels, families = render_set(600, 9, TRAIN_FAMILIES, swirled=share)
    flat, flat_labels, _ = render_set(600, 9, TRAIN_FAMILIES)
    assert labels == flat_labels
    changed = [not np.array_equal(a, b) for a, b in zip(swirled, flat, strict=True)]
    plastic_families = datasets.faces.render.SWIRLED_FAMILIES
    assert not any(c for c, family in zip(changed, families, strict=True) if family not in plastic_families)
    plastic_dice = [c for c, family in zip(changed, families, strict=True) if family in plastic_families]
    assert len(plastic_dice) > 50
    assert abs(np.mean(plastic_dice) - share) < 0.15


def test_a_face_cast_in_plastic_keeps_its_print_and_shows_the_plastic_around_it():
    face = np.empty((96, 96, 3), np.float32)
    face[:] = RED
    face[40:56, 40:56] = 0.05  # a black pip
    swirl = plastic(np.random.default_rng(3), RED, 96, ("marble",), second=np.ones(3))
    cast = cast_in(face, RED, swirl)
    assert np.allclose(cast[44:52, 44:52], 0.05)  # the print as it was
    assert np.allclose(cast[:30], swirl[:30])  # the plastic where the flat colour was


def test_a_set_in_plastic_shows_the_same_faces_as_flat_only_cast():
    flat, flat_labels = datasets.faces.render.render_in_plastic(None, "d6_pips", 12, seed=5)
    cast, labels = datasets.faces.render.render_in_plastic("granite", "d6_pips", 12, seed=5)
    again, _ = datasets.faces.render.render_in_plastic("granite", "d6_pips", 12, seed=5)
    assert labels == flat_labels == ["1", "2", "3", "4", "5", "6"] * 2
    assert all(np.array_equal(a, b) for a, b in zip(cast, again, strict=True))
    assert all(a.shape == b.shape == (64, 64, 3) for a, b in zip(cast, flat, strict=True))
    assert sum(not np.array_equal(a, b) for a, b in zip(cast, flat, strict=True)) >= 10
