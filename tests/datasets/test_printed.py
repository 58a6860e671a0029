"""Printed words as `none` crops (datasets.faces.printed): seeded and the same in chunks, the
network's size, print and not a flat page, and never a die's own word, a numeral or a letter
that passes for one."""

import numpy as np

from datasets.faces.glyphs import HELDOUT_FONTS
from datasets.faces.printed import FACE_WORDS, render_prints, word
from models.face_recipe import reproduce_command


def test_prints_are_seeded_and_the_same_rendered_in_chunks():
    whole = render_prints(6, 11)
    assert whole.shape == (6, 64, 64, 3) and whole.dtype == np.uint8
    assert np.array_equal(whole, np.concatenate([render_prints(2, 11), render_prints(4, 11, start=2)]))
    assert not np.array_equal(whole, render_prints(6, 12))


def test_a_print_crop_shows_strokes_not_a_flat_page():
    crops = render_prints(40, 3, size=96, fonts=HELDOUT_FONTS)
    contrast = crops.mean(3).reshape(len(crops), -1).std(1)
    # ink on paper; the camera's blur and shading soften some, a blank page would be about 2
    assert np.mean(contrast > 10) >= 0.9 and np.median(contrast) > 25


def test_words_are_letters_and_never_a_face_of_their_own():
    rng = np.random.default_rng(0)
    words = [word(rng) for _ in range(5000)]
    assert all(w.isalpha() for w in words)
    assert not set("".join(words).lower()) & set("ilzsbgqo")  # pass for 1, 2, 5, 6, 9 or a ring pip
    assert not {w.lower() for w in words} & FACE_WORDS
    assert {w for w in words if w.isupper()} and {w for w in words if w.islower()}


def test_the_card_says_how_many_print_crops_were_trained_on():
    recipe = {"seed": 60, "negatives": ["data/photos-without-dice/train"], "scene_share": 0.2}
    recipe["print_negatives"] = 40000
    command = reproduce_command(recipe, "faces.onnx")
    negatives = "--negatives data/photos-without-dice/train --scene-share 0.2"
    assert command.endswith(f"{negatives} --print-negatives 40000")
    alone = reproduce_command({"seed": 60, "print_negatives": 100, "scene_share": 0.1}, "faces.onnx")
    assert alone.endswith("--print-negatives 100 --scene-share 0.1")


def test_training_renders_the_same_prints_in_worker_processes():
    from models.train_faces import PRINT_STREAM, print_negatives

    assert np.array_equal(print_negatives(5, 9, workers=2), render_prints(5, (9, PRINT_STREAM)))
    assert not np.array_equal(render_prints(5, (9, PRINT_STREAM)), render_prints(5, 9))
