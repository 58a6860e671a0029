"""The detector card's re-framing of held-out scenes (the truth moves with the picture) and its
photo sets."""

from pathlib import Path

import numpy as np
import pytest

from models.detector_card import PHOTO_SETS, photo_set, reframe, wholly_right


def scene():
    image = np.zeros((240, 320, 3), np.uint8)
    image[100:120, 140:160] = 255  # one white face, 20 px across, centred on (150, 110)
    quad = [[140, 100], [160, 100], [160, 120], [140, 120]]
    return image, {"table": "wood", "dice": [{"quad": quad, "visible": 1.0, "label": "1"}]}


def test_a_window_the_size_of_the_render_centred_on_the_dice_only_shifts_them():
    image, truth = scene()
    out, moved = reframe(image, truth, (320, 240), (320, 240))
    assert out.shape == (240, 320, 3)
    assert np.mean(moved["dice"][0]["quad"], 0).tolist() == pytest.approx([160, 120])
    assert truth["dice"][0]["quad"][0] == [140, 100]  # the original truth is left alone


def test_a_close_up_enlarges_the_dice_and_their_quads_alike():
    image, truth = scene()
    out, moved = reframe(image, truth, (160, 120), (1280, 960))  # 8x
    quad = np.float32(moved["dice"][0]["quad"])
    assert quad.min(0).tolist() == pytest.approx([560, 400]) and quad.max(0).tolist() == pytest.approx(
        [720, 560]
    )
    inside = out[410:550, 570:710]
    assert inside.min() > 200 and out[:390].max() < 50  # the white face is where its quad says


DICE = [{"label": "3"}, {"label": "5"}, {"label": "1"}]  # die 2 only glimpsed: need not be found


@pytest.mark.parametrize(
    ("matched", "labels", "false_finds", "right"),
    [
        ({0: 0, 1: 1}, ["3", "5"], 0, True),
        ({0: 1, 1: 0, 2: 2}, ["5", "3", "6"], 0, True),  # a glimpsed die found and misread: no matter
        ({0: 0}, ["3"], 0, False),  # a die missed
        ({0: 0, 1: 1}, ["3", "5", None], 1, False),  # something found that is no die
        ({0: 0, 1: 1}, ["3", "6"], 0, False),  # a die misread
        ({0: 0, 1: 1}, ["3", None], 0, False),  # a die found but unreadable
    ],
)
def test_an_image_is_wholly_right_only_when_every_die_is_found_and_read_and_nothing_else(
    matched, labels, false_finds, right
):
    assert wholly_right([0, 1], matched, labels, DICE, false_finds) is right


def test_an_empty_table_read_as_empty_is_wholly_right():
    assert wholly_right([], {}, [], [], 0)
    assert not wholly_right([], {}, [None], [], 1)


def test_each_photo_set_is_one_die_kind_at_a_photo_size_rendered_into_its_own_folder():
    named = {"d6": "d6", "square-shooters": "Square Shooters", "cubes": "Cubes"}
    for folder, (name, command) in PHOTO_SETS.items():
        assert photo_set(Path("data/scenes") / folder) == (name, command)
        assert f"--out data/scenes/{folder} " in command and "--size 1280 960" in command
        split = "train" if folder.startswith("val-") else "heldout"  # val-: unseen training scenes
        assert f"--split {split} " in command
        assert named[command.split("--dice ")[1].split()[0]] in name
    seeds = {folder: command.split("--seed ")[1].split()[0] for folder, (_, command) in PHOTO_SETS.items()}
    wide = [seed for folder, seed in seeds.items() if "-close-" not in folder]
    assert len(set(wide)) == len(wide)  # no two sets show the same scenes...
    for folder, seed in seeds.items():  # ...but a close-up set, which shows its wide set's up close
        if "-close-" in folder:
            assert seed == seeds[folder.replace("-close-", "-")]
            assert PHOTO_SETS[folder][1].endswith(" --close")


def test_a_photo_folder_not_listed_is_named_by_its_path_and_has_no_command():
    name, command = photo_set(Path("data/scenes/mine"))
    assert "data/scenes/mine" in name and command == ""
