"""Dice sets and shoots (datasets.faces.render): one print per face, one camera per shoot."""

from dataclasses import replace

import numpy as np

from datasets.faces.families import FAMILIES
from datasets.faces.render import die_print, random_shoot, render_dice_set, sensor

SET_SEED, VIEW_SEED = 5, 6


def test_a_set_shows_every_face_of_its_family_in_turn():
    crops, labels = render_dice_set("framed", SET_SEED, 3, VIEW_SEED)
    assert labels == [label for label in FAMILIES["framed"].labels for _ in range(3)]
    assert crops.shape == (len(labels), 64, 64, 3) and crops.dtype == np.uint8


def test_a_set_is_remade_from_its_seeds_and_its_views_differ():
    first, _ = render_dice_set("rank_beside_suit", SET_SEED, 2, VIEW_SEED)
    again, _ = render_dice_set("rank_beside_suit", SET_SEED, 2, VIEW_SEED)
    other_views, _ = render_dice_set("rank_beside_suit", SET_SEED, 2, VIEW_SEED + 1)
    assert np.array_equal(first, again)
    assert not np.array_equal(first[0], first[1])  # two views of one face
    assert not np.array_equal(first, other_views)


def test_every_face_of_a_set_is_printed_on_one_material_with_one_outline():
    # framed numbers draw more random numbers than CUBES and BLANK (pips or a framed numeral),
    # and court cards more than number cards: the set's parts must not drift with them
    for family in ("framed", "rank_beside_suit"):
        prints = [die_print(SET_SEED, label, family) for label in FAMILIES[family].labels]
        assert len({p.face_colour.tobytes() for p in prints}) == 1
        assert len({p.alpha.tobytes() for p in prints}) == 1
    other_sets = [die_print(SET_SEED + k, "CUBES", "framed") for k in range(4)]
    assert len({p.face_colour.tobytes() for p in other_sets}) == 4
    assert len({p.alpha.tobytes() for p in other_sets}) > 1  # corners of other radii


def test_a_shoot_keeps_its_light_for_every_view():
    dim = replace(random_shoot(np.random.default_rng(0), "framed"), gains=np.full(3, 0.5))
    bright = replace(dim, gains=np.full(3, 1.3))
    dark_views, _ = render_dice_set("framed", SET_SEED, 4, VIEW_SEED, shoot=dim)
    bright_views, _ = render_dice_set("framed", SET_SEED, 4, VIEW_SEED, shoot=bright)
    # the same views, only the light differs: every crop of the dim shoot is darker
    assert all(d.mean() < b.mean() for d, b in zip(dark_views, bright_views, strict=True))


def test_sensor_noise_falls_on_every_channel_partly_shared():
    grey = np.full((96, 96, 3), 0.5, np.float32)
    pixels = sensor(np.random.default_rng(0), grey, 96, noise=10.0, jpeg=None).reshape(-1, 3).astype(float)
    assert np.allclose(pixels.std(0), 10.0, rtol=0.1)  # as much in green and red as in blue
    shared = np.corrcoef(pixels.T)[np.triu_indices(3, 1)]
    assert (shared > 0.3).all() and (shared < 0.7).all()  # brightness and colour noise alike
