"""Counting pips by their layout (vision.pips), and the face classifier trusting the count."""

from pathlib import Path

import cv2
import numpy as np
import pytest

from datasets.faces.render import render_crop
from vision.faces import PIP_COUNT_SURE, FaceClassifier
from vision.pips import LAYOUTS, count_pips

IVORY, BLACK, RED, WHITE = (215, 235, 240), (25, 25, 30), (40, 40, 200), (245, 245, 245)
FIXTURES = Path(__file__).parent / "fixtures" / "pips"


def die_face(count, face=IVORY, ink=BLACK, shape="round", size=96, spacing=0.27, radius=0.08, skip=()):
    """A die face filling the crop, with a bevel's shade at its edge and a little noise."""
    rng = np.random.default_rng(count)
    crop = np.full((size, size, 3), face, np.float32)
    cv2.rectangle(crop, (0, 0), (size - 1, size - 1), [0.7 * c for c in face], 3)
    r = radius * size
    for i, (column, row) in enumerate(LAYOUTS[count]):
        if i in skip:
            continue
        x, y = size / 2 + column * spacing * size, size / 2 + row * spacing * size
        if shape == "square":
            cv2.rectangle(crop, (int(x - r), int(y - r)), (int(x + r), int(y + r)), ink, -1, cv2.LINE_AA)
        elif shape == "ring":
            cv2.circle(crop, (int(x), int(y)), int(r), ink, max(2, int(r * 0.4)), cv2.LINE_AA)
        else:
            cv2.circle(crop, (int(x), int(y)), int(r), ink, -1, cv2.LINE_AA)
    crop += rng.normal(0, 3, crop.shape)
    return np.clip(crop, 0, 255).astype(np.uint8)


@pytest.mark.parametrize("count", range(1, 7))
@pytest.mark.parametrize("face, ink", [(IVORY, BLACK), (RED, WHITE), (BLACK, WHITE)])
def test_pips_are_counted_light_on_dark_or_dark_on_light_at_every_turn(count, face, ink):
    crop = die_face(count, face, ink)
    assert [count_pips(np.rot90(crop, k)) for k in range(4)] == [count] * 4


@pytest.mark.parametrize("shape", ["square", "ring"])
@pytest.mark.parametrize("count", [2, 5, 6])
def test_square_and_ring_pips_are_counted(shape, count):
    assert count_pips(die_face(count, shape=shape)) == count


def test_a_face_seen_at_a_slant_is_counted():
    crop = die_face(6)
    squashed = cv2.resize(crop, (96, 64))  # the face foreshortened to two thirds
    assert count_pips(squashed) == 6


@pytest.mark.parametrize("size", [32, 64, 200])
def test_any_crop_size_is_counted(size):
    assert count_pips(cv2.resize(die_face(5), (size, size), interpolation=cv2.INTER_AREA)) == 5


@pytest.mark.parametrize("count", [3, 5, 6])
def test_a_glint_along_the_die_edge_does_not_hide_the_pips(count):
    """A rounded edge catching the light: a thin bright line inside the crop's side, running
    into the corner pips (on the 1280x960 d6 renders such lines left faces uncounted)."""
    crop = die_face(count, face=(60, 140, 40), ink=WHITE)
    cv2.line(crop, (90, 4), (90, 92), (235, 250, 235), 2)
    cv2.line(crop, (70, 90), (90, 90), (235, 250, 235), 2)
    assert count_pips(crop) == count


@pytest.mark.parametrize("count", [2, 4, 6])
def test_a_wide_highlight_along_the_die_edge_does_not_hide_the_pips(count):
    """A rounded edge lit along its length: a band about a pip's radius wide inside the
    crop's side, joined to the pips beside it (the 1280x960 d6 renders show such bands)."""
    crop = die_face(count, face=(60, 140, 40), ink=WHITE)
    cv2.rectangle(crop, (3, 6), (9, 90), (235, 250, 235), -1)
    assert [count_pips(np.rot90(crop, k)) for k in range(4)] == [count] * 4


def test_a_lone_spot_found_only_with_the_edges_wiped_is_no_one():
    """Wiping can thin faint corner pips away and leave the middle one: on the held-out
    renders with noise or JPEG added, fours were so read as ones."""
    crop = die_face(1, face=(60, 140, 40), ink=WHITE)
    cv2.line(crop, (90, 4), (90, 92), (235, 250, 235), 2)
    assert count_pips(crop) is None


def test_a_worn_pip_where_the_layout_has_none_stops_the_count():
    """A four whose fifth spot is printed faintly is no clean four (nor a clean five)."""
    crop = die_face(5)
    faint = die_face(5, ink=tuple(0.55 * np.array(IVORY) + 0.45 * np.array(BLACK)), skip=(0, 1, 3, 4))
    crop[36:60, 36:60] = faint[36:60, 36:60]
    assert count_pips(crop) is None


@pytest.mark.parametrize("count", range(2, 7))
def test_drilled_pips_with_a_glint_at_the_rim_are_counted(count):
    """Black pips in drilled hollows on an ivory die, each catching the lamp at its upper-left
    rim: a notch that makes the pip no round spot until it is closed."""
    crop = die_face(count, size=96)
    r = 0.08 * 96
    for column, row in LAYOUTS[count]:
        x, y = 48 + column * 0.27 * 96 - 0.45 * r * 0.7, 48 + row * 0.27 * 96 - 0.45 * r * 0.7
        cv2.circle(crop, (int(x), int(y)), int(0.35 * r), (250, 250, 250), -1, cv2.LINE_AA)
    for turn in range(4):
        assert count_pips(np.rot90(crop, turn)) == count


@pytest.mark.parametrize("text", ["3", "6", "CUBES"])
def test_numerals_and_words_are_not_pips(text):
    crop = np.full((96, 96, 3), IVORY, np.uint8)
    scale = 2.5 if len(text) == 1 else 0.9
    (w, h), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, 5)
    cv2.putText(crop, text, ((96 - w) // 2, (96 + h) // 2), cv2.FONT_HERSHEY_SIMPLEX, scale, BLACK, 5)
    assert count_pips(crop) is None


def test_a_blank_face_and_a_glint_are_no_count():
    blank = die_face(1, skip=(0,))
    assert count_pips(blank) is None
    glint = blank.copy()
    cv2.circle(glint, (48, 48), 3, (255, 255, 255), -1)
    assert count_pips(glint) is None


def test_a_face_cut_through_a_pip_is_no_count():
    """The crop's window slid a third of a face: the three pips left are off its middle."""
    crop = die_face(6, size=144)[24:120, 0:96]
    assert count_pips(crop) is None


@pytest.mark.parametrize("count", [3, 5])
def test_a_face_outlined_too_narrow_is_no_one(count):
    """The detector's outline inside the face across it: the square crop cuts the corner pips
    at its left and right sides and shows the middle one whole (a drilled three read as a
    one, session 59)."""
    face = die_face(count, face=(70, 50, 210), ink=WHITE, size=160)
    crop = cv2.resize(face[14:146, 40:120], (96, 96), interpolation=cv2.INTER_AREA)
    assert count_pips(crop) is None


@pytest.mark.parametrize("count", [3, 5])
def test_a_face_outlined_inside_it_all_round_is_no_one(count):
    """The outline inside the face on every side: the square crop cuts the corner pips in
    its corners and shows the middle one whole (held-out threes and fives outlined at 0.85 of
    their faces were counted as ones, session 82)."""
    crop = die_face(count, size=96)[14:82, 14:82]
    for turn in range(4):
        assert count_pips(np.rot90(crop, turn)) is None


def test_a_five_outlined_on_a_slant_is_no_three():
    """An outline off the face, sheared: it shows the five's diagonal whole, a three's
    layout, and cuts its other two pips at the top and the bottom (on a photo-table render a
    five was so counted as a three, overruling the network)."""
    crop = die_face(3, size=96)
    cv2.circle(crop, (22, 0), 8, BLACK, -1)
    cv2.circle(crop, (74, 95), 8, BLACK, -1)
    assert [count_pips(np.rot90(crop, k)) for k in range(4)] == [None] * 4


@pytest.mark.parametrize("left", [22, 24])
def test_a_six_cut_through_its_third_row_is_no_four(left):
    """A six turned a right angle, its outline off the face by most of a row: the two rows
    left make a four's layout, and the crop's edge cuts the third (on the drilled-pip renders
    an outline jittered by 12% of a side was so counted as a four)."""
    crop = np.ascontiguousarray(np.rot90(die_face(6))[:, left:])
    assert [count_pips(np.rot90(crop, k)) for k in range(4)] == [None] * 4


def test_a_pip_in_a_corner_of_the_edge_band_is_not_wiped_away():
    """A rendered five (translucent plastic) cut from an outline jittered off its corner: its
    bottom-left pip is cut by the crop's edge, its top-right one lies in a corner of the band
    the edge wipe opens. Wiped away, it left a three's diagonal; kept whole, no count."""
    crop = cv2.imread(str(FIXTURES / "five-outlined-off-its-corner.png"))
    assert [count_pips(np.rot90(crop, k)) for k in range(4)] == [None] * 4


def test_a_three_whose_third_pip_the_crop_cuts_is_no_two():
    """A rendered three (held-out Cubes ring pips) cut from an outline off it by 12% of a side
    and grown as a photo's reader grows an uncounted cut: two ring pips whole, a diagonal's
    two, and the third cut by the crop's left side, one step on along that diagonal."""
    crop = cv2.imread(str(FIXTURES / "three-cut-past-its-corner.png"))
    assert [count_pips(np.rot90(crop, k)) for k in range(4)] == [None] * 4


def test_a_one_beside_pips_of_other_dice_at_the_crop_edge_still_counts():
    """Print the crop's edge cuts through with no middle spot between: another die's pips."""
    crop = die_face(1, size=96)
    cv2.circle(crop, (96, 8), 8, BLACK, -1)
    cv2.circle(crop, (96, 40), 8, BLACK, -1)
    assert count_pips(crop) == 1


def test_a_one_outlined_loosely_still_counts():
    """A crop a little wider than a rounded die shows the table in its four corners: each
    touches two sides of the crop, so it is no pip cut through (two opposite corners have
    the middle pip midway between them)."""
    crop = die_face(1, size=96)
    for x, y in ((0, 0), (95, 0), (0, 95), (95, 95)):
        corner = np.int32([(x, y), (abs(x - 14), y), (x, abs(y - 14))])
        cv2.fillPoly(crop, [corner], (40, 80, 40))
    assert count_pips(crop) == 1


def test_rendered_faces_are_never_miscounted():
    """Crops of the trained pip and numeral families, turned and tilted any way: most tilted
    crops are left to the network, and none is counted wrong."""
    rng = np.random.default_rng(4242)
    counted = 0
    for i in range(360):
        label = str(1 + i % 6)
        count = count_pips(render_crop(rng, label, "d6_pips" if i % 2 else "numerals"))
        assert count is None or str(count) == label, f"crop {i} ({label}) counted {count}"
        counted += count is not None
    assert counted >= 18


@pytest.fixture()
def reads_two(tmp_path, monkeypatch):
    """The shipped model made to read every crop as a sure 2."""
    classifier = FaceClassifier(data_dir=tmp_path)

    def cosines(batch, allowed, sharpen=1.0):
        values = np.full((len(batch), len(classifier.labels)), -1.0, np.float32)
        values[:, classifier.index["2"]] = 1.0
        return values, np.zeros((len(batch), 8), np.float32)

    monkeypatch.setattr(classifier, "_cosines", cosines)
    return classifier


def test_a_clean_pip_layout_overrules_the_network(reads_two):
    five = die_face(5, size=64)
    reading = reads_two.classify([five], kind="d6")[0]
    assert reading.label == "5" and reading.confidence == pytest.approx(PIP_COUNT_SURE, abs=1e-4)
    assert reading.top[1][0] == "2"  # the network's choice still ranks next, for a tap
    assert reads_two.classify([five], kind="cubes")[0].label == "5"


def test_the_count_is_skipped_when_asked_and_for_card_dice(reads_two):
    five = die_face(5, size=64)
    assert reads_two.classify([five], kind="d6", pips=False)[0].label == "2"
    assert reads_two.classify([five], kind=None)[0].label == "2"


@pytest.mark.parametrize("count", range(1, 7))
def test_noise_jpeg_and_dim_light_never_make_a_wrong_count(count):
    rng = np.random.default_rng(7)
    crop = die_face(count, size=48)
    noisy = np.clip(crop + rng.normal(0, 16, crop.shape), 0, 255).astype(np.uint8)
    jpeg = cv2.imdecode(cv2.imencode(".jpg", crop, [cv2.IMWRITE_JPEG_QUALITY, 40])[1], cv2.IMREAD_COLOR)
    dim = (crop * 0.35).astype(np.uint8)
    assert {count_pips(c) for c in (noisy, jpeg, dim)} <= {count, None}
    assert count_pips(jpeg) == count and count_pips(dim) == count


def test_dots_closer_together_than_any_dies_pips_are_no_count():
    """Four small dots a tenth of the face apart (a maker's mark, a pattern): the layout of a
    four, but no die spaces its pips so tightly."""
    assert count_pips(die_face(4, spacing=0.1, radius=0.05)) is None


def test_spots_of_mixed_sizes_are_no_layout():
    """A blot as wide as 1.7 pips over a corner pip: the spots are not of one size."""
    crop = die_face(4)
    corner = int(48 - 0.27 * 96)
    cv2.circle(crop, (corner, corner), int(0.08 * 96 * 1.7), BLACK, -1, cv2.LINE_AA)
    assert count_pips(crop) is None


def test_a_face_cut_inside_it_is_counted_on_its_wider_cut(reads_two):
    """A photo's find a little inside its face cuts the corner pips; the reader also cuts it
    wider, and the count reads that where the find's own cut shows no clean layout."""
    felt = (60, 90, 60)
    on_table = cv2.copyMakeBorder(die_face(5, size=96), 20, 20, 20, 20, cv2.BORDER_CONSTANT, value=felt)
    tight, wider = on_table[34:102, 34:102], on_table[30:106, 30:106]
    assert reads_two.classify([tight], kind="d6")[0].label == "2"
    assert reads_two.classify([tight], kind="d6", wider=[wider])[0].label == "5"
    assert reads_two.classify([tight], kind="d6", pips=False, wider=[wider])[0].label == "2"
    with pytest.raises(ValueError, match="one wider cut per crop"):
        reads_two.classify([tight, tight], kind="d6", wider=[wider])
