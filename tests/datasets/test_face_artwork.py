"""Face artwork (datasets.faces.families): every rendered face is one a reader could name.

Crops come at any turn, so a face that is another label's face turned round, or a red joker
printed without red, is a label no reader could give: the tests and training sets must not
hold them.
"""

import numpy as np

from datasets.faces.render import face_artwork

SEEDS = range(200)


def inked(canvas, face_colour):
    return np.abs(canvas - face_colour).max(axis=2) > 0.25


def test_a_6_turned_round_is_never_the_9_of_the_same_layout():
    # free_layout puts the suit anywhere but beside the rank, and sometimes only in the
    # corners: without a mark, 6D turned half round was 9D pixel for pixel (IoU up to 0.99)
    for seed in SEEDS:
        six, six_face = face_artwork(np.random.default_rng(seed), "6D", "free_layout")
        nine, nine_face = face_artwork(np.random.default_rng(seed), "9D", "free_layout")
        turned, other = inked(six[::-1, ::-1], six_face), inked(nine, nine_face)
        overlap = (turned & other).sum() / (turned | other).sum()
        assert overlap < 0.8, f"seed {seed}: 6D turned round covers 9D at IoU {overlap:.2f}"


def test_a_red_joker_always_shows_red_and_a_black_one_mostly_none():
    def red_pixels(canvas):  # BGR: red leads blue and green by a clear margin
        return int(((canvas[..., 2] - np.maximum(canvas[..., 0], canvas[..., 1])) > 0.3).sum())

    red = [red_pixels(face_artwork(np.random.default_rng(s), "JOKER_RED", "joker")[0]) for s in SEEDS]
    black = [red_pixels(face_artwork(np.random.default_rng(s), "JOKER_BLACK", "joker")[0]) for s in SEEDS]
    assert min(red) >= 5  # the word JOKER alone was printed black on one red joker in seven
    # a black joker shows red only in a misregistered plate's fringe
    assert sum(n >= 5 for n in black) < len(SEEDS) / 10
