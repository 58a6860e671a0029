"""The size hint: dice too small in the picture to read well (vision.framing)."""

import pytest

from vision.framing import READABLE_SIDE_PX, size_hint
from vision.readings import DieReadings


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
        assert size_hint(dice_of_sides(readable, readable + 20), kind) is None


def test_small_dice_ask_for_the_camera_closer_naming_their_size():
    hint = size_hint(dice_of_sides(18, 19, 21), "square-shooters")
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
    assert (size_hint(dice_of_sides(side, side), kind) is not None) == hinted


def test_the_median_die_decides_not_one_near_the_camera():
    assert size_hint(dice_of_sides(10, 11, 60), "d6") is not None
    assert size_hint(dice_of_sides(10, 60, 61), "d6") is None


def test_a_roll_with_no_die_seen_gives_no_hint():
    assert size_hint(DieReadings.empty(), "cubes") is None


@pytest.mark.parametrize(
    ("kind", "words", "readable"),
    [("square-shooters", "card dice", 26), ("cubes", "Cubes dice", 22), ("d6", "pip dice", 18)],
)
def test_each_kind_reads_well_from_the_size_the_readme_gives(kind, words, readable):
    # README: card dice read best from about 26 px across in the picture, Cubes dice 22, pip dice 18
    assert size_hint(dice_of_sides(readable, readable), kind) is None
    hint = size_hint(dice_of_sides(readable - 1, readable - 1), kind)
    assert f"about {readable - 1} px across; {words} read best from {readable} px" in hint
