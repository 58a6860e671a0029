"""The size hint: dice too small in the picture to read well (vision.framing)."""

import numpy as np
import pytest

from vision.framing import READABLE_SIDE_PX, seen_at, size_hint, wanted_side
from vision.readings import DieReadings

AS_BIG = 1.0  # a frame the size of the detector's view: its quick pass sees the dice as big


def dice_of_sides(*sides) -> DieReadings:
    """Square top faces of these sides in pixels, in a row."""
    return DieReadings.from_quads(
        [
            [[x, 50], [x + side, 50], [x + side, 50 + side], [x, 50 + side]]
            for x, side in zip(range(0, 100 * len(sides), 100), sides, strict=True)
        ]
    )


def test_dice_big_enough_for_their_kind_give_no_hint():
    for kind, readable in READABLE_SIDE_PX.items():
        assert size_hint(dice_of_sides(readable, readable + 20), kind, AS_BIG) is None


def test_small_dice_ask_for_the_camera_closer_naming_their_size():
    hint = size_hint(dice_of_sides(18, 19, 21), "square-shooters", AS_BIG)
    assert hint == (
        "the dice look small to the camera (top faces about 19 px across; card dice"
        " read best from 26 px): move the camera closer or zoom in"
    )


@pytest.mark.parametrize(
    ("side", "kind", "hinted"),
    [
        (24, "square-shooters", True),  # a card's corner index is a blur
        (24, "cubes", False),
        (20, "cubes", True),  # a soft webcam loses a Cubes face's print (docs/vision.md)
        (20, "d6", False),  # pips still read
    ],
)
def test_card_dice_need_bigger_faces_than_cubes_and_cubes_than_pips(side, kind, hinted):
    assert (size_hint(dice_of_sides(side, side), kind, AS_BIG) is not None) == hinted


def test_the_median_die_decides_not_one_near_the_camera():
    assert size_hint(dice_of_sides(10, 11, 60), "d6", AS_BIG) is not None
    assert size_hint(dice_of_sides(10, 60, 61), "d6", AS_BIG) is None


def test_a_roll_with_no_die_seen_gives_no_hint():
    assert size_hint(DieReadings.empty(), "cubes", AS_BIG) is None


@pytest.mark.parametrize(
    ("kind", "words", "readable"),
    [("square-shooters", "card dice", 26), ("cubes", "Cubes dice", 22), ("d6", "pip dice", 18)],
)
def test_each_kind_reads_well_from_the_size_the_readme_gives(kind, words, readable):
    # README: card dice read best from about 26 px across in the picture, Cubes dice 22, pip dice 18
    assert size_hint(dice_of_sides(readable, readable), kind, AS_BIG) is None
    hint = size_hint(dice_of_sides(readable - 1, readable - 1), kind, AS_BIG)
    assert f"about {readable - 1} px across; {words} read best from {readable} px" in hint


def test_in_a_large_frame_the_dice_must_be_big_enough_for_the_quick_pass_to_find():
    # the pass sees a 1280 x 720 frame's dice at 0.3 of their size: pip dice of 30 px are 9 px
    # to it, found 81% of the time (session 77), though they would read well
    hint = size_hint(dice_of_sides(30, 30), "d6", 0.3)
    assert hint == (
        "the dice look small to the camera (top faces about 30 px across; pip dice"
        " read best from 40 px in pictures this size): move the camera closer or zoom in"
    )
    assert size_hint(dice_of_sides(40, 40), "d6", 0.3) is None


@pytest.mark.parametrize(
    ("frame", "kind", "wanted"),
    [
        ((240, 320), "square-shooters", 26),  # the test clips: reading decides
        ((480, 640), "square-shooters", 26),
        ((480, 640), "cubes", 27),  # 16 px to the pass at 0.6
        ((480, 640), "d6", 20),
        ((720, 1280), "square-shooters", 34),
        ((720, 1280), "cubes", 54),
        ((720, 1280), "d6", 40),
    ],
)
def test_the_side_wanted_grows_with_the_frame_past_the_detectors_view(frame, kind, wanted):
    view_scale = min(384 / frame[1], 288 / frame[0])  # the shipped detector's view
    assert wanted_side(kind, view_scale) == wanted


def test_a_photos_dice_count_as_big_as_it_shows_them_a_video_frames_as_the_quick_pass_saw_them():
    class Detector:
        def view(self, frame):
            return 0.3  # a 1280x720 frame to the shipped detector's 384x288

    frame = np.zeros((720, 1280, 3), np.uint8)
    assert seen_at(Detector(), frame, stills=False) == 0.3
    assert seen_at(Detector(), frame, stills=True) == 1.0  # searched at every scale
