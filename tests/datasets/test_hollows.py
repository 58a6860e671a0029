"""Paint sunk in drilled hollows (datasets.faces.hollows) and the crops drawn with it."""

from pathlib import Path

import cv2
import numpy as np
import pytest

from datasets.faces.hollows import drilled, hollow_height, paint_of
from datasets.faces.render import render_in_plastic
from datasets.scenes.render import scene_job

RED = np.array([0.1, 0.1, 0.8], np.float32)


def pip_face() -> np.ndarray:
    face = np.empty((96, 96, 3), np.float32)
    face[:] = RED
    cv2.circle(face, (48, 48), 12, (0.5, 0.5, 0.5), -1)  # a grey pip: its walls can brighten
    return face


def test_a_hollow_falls_from_the_face_over_its_wall_to_a_flat_floor():
    paint = np.zeros((64, 64), bool)
    paint[22:42, 22:42] = True
    height = hollow_height(paint, wall=4.0)
    assert (height[~paint] == 1).all()
    assert (height[28:36, 28:36] == 0).all()  # the floor, past the wall
    across = height[32, 20:33]  # from the face into the middle: never rising
    assert (np.diff(across) <= 0).all() and 0 < across[3] < 1


def test_a_drilled_pip_is_lit_on_one_wall_and_shaded_on_the_other():
    face = pip_face()
    paint = paint_of(face, RED)
    radius = np.hypot(*np.mgrid[-48:48, -48:48])
    assert paint[radius < 11].all() and not paint[radius > 13].any()  # the pip, and only the pip
    lit = drilled(np.random.default_rng(4), face, paint)
    assert np.array_equal(lit, drilled(np.random.default_rng(4), face, paint))
    outside = radius > 14  # past the pip and its rim's pixel
    assert np.allclose(lit[outside], face[outside])  # the plastic round the pip as it was
    change = lit.mean(axis=2) - face.mean(axis=2)
    rim = (radius - 10.5) ** 2 < 4  # just inside the pip's edge
    assert change[rim].min() < -0.05 and change[rim].max() > 0.05  # one wall in shade, one lit
    assert abs(change[36:60, 36:60].mean()) < abs(change[rim]).max()  # the floor changed less


def test_drilled_and_swirled_dice_are_refused():
    with pytest.raises(ValueError, match="flat plastic"):
        scene_job(7, 3, "heldout", Path("/nonexistent"), Path("/nonexistent"), drilled=True, swirled=True)


def test_drilled_crops_show_the_same_faces_through_the_same_cameras():
    flat, flat_labels = render_in_plastic(None, "d6_pips", 12, seed=5)
    sunk, labels = render_in_plastic(None, "d6_pips", 12, seed=5, drilled=True)
    again, _ = render_in_plastic(None, "d6_pips", 12, seed=5, drilled=True)
    assert labels == flat_labels
    assert all(np.array_equal(a, b) for a, b in zip(sunk, again, strict=True))
    differ = [np.abs(a.astype(int) - b).mean() for a, b in zip(sunk, flat, strict=True)]
    assert sum(d > 0 for d in differ) >= 10 and max(differ) < 10  # shaded pips, not other crops
