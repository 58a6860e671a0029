"""The shipped face models (the default and the camera's): each loads, meets its accuracy
floors on fresh renders, masks by die kind, learns from taps and forgets them; a bad model
file fails clearly."""

import json
import logging
import os
import re
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

import vision.faces
from datasets.faces import HELDOUT_FAMILIES, NONE, TRAIN_FAMILIES, render_none, render_set
from datasets.faces.glyphs import HELDOUT_FONTS
from datasets.faces.photos import corner_photos
from datasets.faces.plastics import HELDOUT_PLASTICS
from datasets.faces.printed import render_prints
from datasets.faces.render import random_shoot, render_dice_set, render_in_plastic
from models.face_card import (
    accuracy_report,
    read_a_taught_set,
    read_all,
    teach_one_per_face,
    with_webcam_noise,
)
from scoring.faces import ALL_LABELS, DIE_KINDS
from tests.disk import refuse_to_delete
from vision.faces import (
    ALL_TURNS,
    DEFAULT_MODEL,
    FAST_MODEL,
    SECOND_LOOK_BELOW,
    TAUGHT_PER_FACE,
    TAUGHT_SET_SCALE,
    TAUGHT_SPARE,
    FaceClassifier,
    FaceReading,
    ModelFileError,
    balanced,
    narrowed,
    noisy,
    smooth_noisy,
    stretched,
    widened,
)

FRESH_SEED = 777  # not a seed the model card or training used
# The targets. The shipped models do not reach them yet (models/faces.md and
# models/faces-fast.md have their figures), so those tests are expected failures; the floors
# below catch regressions.
BELOW_TARGET = pytest.mark.xfail(reason="the shipped face model is below the issue's targets", strict=False)
# Floors on this file's crops at one turn (trained families, held-out families), about a point
# under what each model reads. Since session 73 a tenth of the spades, diamonds and clubs print
# in a four-colour deck's inks (datasets/faces/families.py), which the camera's model never
# saw until session 75. Session 74's renders (more fonts, thinning that keeps hairlines): the
# default (session 74's) reads 93.6% and 75.9%, session 73's file 92.9% and 74.3%; the camera's
# (session 75's) 87.2% and 65.6%, session 36's 85.9% and 62.6% (session 73's renders: session
# 73's 92.3% and 74.5%, the camera's 85.2% and 62.3%).
FLOORS = {"default": (0.925, 0.745), "fast": (0.86, 0.645)}
MODELS = {"default": DEFAULT_MODEL, "fast": FAST_MODEL}


@pytest.fixture(scope="module", params=list(MODELS))
def shipped(request):
    """The name of each shipped face model in turn."""
    return request.param


@pytest.fixture(scope="module")
def classifier(tmp_path_factory, shipped):
    return FaceClassifier(MODELS[shipped], data_dir=tmp_path_factory.mktemp("learned"), min_confidence=0.0)


@pytest.fixture(scope="module")
def heldout():
    images, labels, _ = render_set(3000, FRESH_SEED, HELDOUT_FAMILIES)
    return images, labels


def test_shipped_models_load_with_all_labels():
    assert FaceClassifier().model_path == DEFAULT_MODEL
    for path in MODELS.values():
        clf = FaceClassifier(path)
        assert clf.labels == [*ALL_LABELS, NONE]
        assert path.stat().st_size < 5_000_000
        assert json.loads((path.parent / "faces_labels.json").read_text()) == clf.labels


@pytest.fixture(scope="module")
def trained_report(classifier):
    images, labels, _ = render_set(3000, FRESH_SEED, TRAIN_FAMILIES)
    return accuracy_report(labels, read_all(classifier, images))


@pytest.fixture(scope="module")
def heldout_report(classifier, heldout):
    images, labels = heldout
    return accuracy_report(labels, read_all(classifier, images))


def test_accuracy_floors(shipped, trained_report, heldout_report):
    trained_floor, heldout_floor = FLOORS[shipped]
    assert trained_report["accuracy"] >= trained_floor
    assert heldout_report["accuracy"] >= heldout_floor


# Printed words (a score pad, a page) in fonts never trained on, read as a face at one turn
# with the app's threshold: 13.0% by the default model (session 74's; session 45's 21.5%) and
# 20.75% by the camera's on these 400 crops (session 75's; session 36's 30.5%). Neither saw
# print in training. Ceilings a few points above, against regressions; session 53's networks
# taught print read far less, but lost unseen Cubes artwork (docs/vision-limits.md, session 53).
PRINT_CEILINGS = {"default": 0.17, "fast": 0.25}


def test_print_read_as_a_face_stays_under_its_ceiling(shipped, tmp_path):
    crops = render_prints(400, FRESH_SEED, fonts=HELDOUT_FONTS)
    classifier = FaceClassifier(MODELS[shipped], data_dir=tmp_path)
    readings = classifier.classify(crops, kind=None, turns=(0,), second_look=False)
    assert np.mean([reading.label is not None for reading in readings]) <= PRINT_CEILINGS[shipped]


# Pip and Cubes dice cast in the plastics no training face shows (granite and clouds,
# datasets.faces.plastics), read as a photo with the die kind's mask. On these 600 crops the
# default network (session 57's, trained on other swirled plastics) reads 74.0% right and
# 10.0% as another face; session 45's, trained on flat plastic only, read 64.2% right. The
# floor is a few points under, so a network that forgets swirled plastic fails, and so does
# one that guesses where it should leave a die unread.
PLASTIC_FLOOR, PLASTIC_MISREAD_CEILING = 0.71, 0.13


def test_default_reads_dice_in_plastics_it_never_saw(tmp_path):
    classifier = FaceClassifier(DEFAULT_MODEL, data_dir=tmp_path)
    right, misread = [], []
    for family, kind in (("d6_pips", "d6"), ("cubes_word", "cubes")):
        for style in HELDOUT_PLASTICS:
            crops, labels = render_in_plastic(style, family, 150, FRESH_SEED)
            for reading, label in zip(classifier.classify(crops, kind=kind), labels, strict=True):
                right.append(reading.label == label)
                misread.append(reading.label not in (None, label))
    assert np.mean(right) >= PLASTIC_FLOOR
    assert np.mean(misread) <= PLASTIC_MISREAD_CEILING


@BELOW_TARGET
def test_trained_families_reach_target(trained_report):
    assert trained_report["accuracy"] >= 0.995, trained_report["worst"]


@BELOW_TARGET
def test_heldout_families_reach_targets(heldout_report):
    assert heldout_report["accuracy"] >= 0.98
    assert heldout_report["worst"][1] >= 0.97, heldout_report["worst"]


@BELOW_TARGET
def test_teaching_a_new_set_one_face_each(tmp_path, heldout):
    clf = FaceClassifier(FAST_MODEL, data_dir=tmp_path, min_confidence=0.0)  # the one the page teaches
    for family in HELDOUT_FAMILIES:
        teach_one_per_face(clf, family)
    images, labels = heldout
    report = accuracy_report(labels, read_all(clf, images))
    assert report["accuracy"] >= 0.995, report["worst"]


@pytest.fixture(scope="module")
def taught_sets():
    """For each face model, the readings of three sets of each held-out family before and
    after one view of each face is taught (``read_a_taught_set``): the page teaches both."""
    kinds = {"framed": "cubes", "rank_beside_suit": "square-shooters"}
    readings = {
        "camera": (FAST_MODEL, {"turns": (0,), "second_look": False}),
        "photo": (DEFAULT_MODEL, {}),
    }
    return {
        model: [
            read_a_taught_set(path, family, kind, number, 6, FRESH_SEED, how)
            for family, kind in kinds.items()
            for number in (1, 2, 3)
        ]
        for model, (path, how) in readings.items()
    }


def test_teaching_a_dice_set_reads_it_better(taught_sets):
    # this test's sets (benchmarks/bench_teach.py reads more; docs/vision.md, "Teaching a dice
    # set"): the photo model, which names a settled roll, reads 88.1% right and 6.4% as another
    # face untaught, 90.7% and 3.2% taught; the camera's 75.2% and 14.1%, 72.9% and 7.7%. On
    # session 74's renders session 74's photo model reads 83.2% and 3.19% untaught, 89.8% and
    # 1.95% taught (session 73's 84.2% and 3.94%, 91.8% and 2.01%): as few wrong once taught,
    # from fewer wrong untaught, so the cut is 39%, not 49%.  A
    # taught set speaks with the confidence its nearest faces leave it, so where two taught
    # faces lie about as near, a reading the network had right can become unsure (one framed
    # set of the camera's falls from 68.8% to 52.1% right), which a tap then settles.
    def mean(model, key):
        return np.mean([taught[key] for taught in taught_sets[model]])

    assert mean("photo", "after") >= mean("photo", "before")
    assert mean("photo", "wrong_after") <= mean("photo", "wrong_before") * 0.7
    assert mean("camera", "wrong_after") <= mean("camera", "wrong_before") * 0.8


def test_a_set_taught_four_views_a_face_reads_surer_as_a_photo(monkeypatch):
    # two card sets, four views of each face taught: at the model's own scale 84.0% of the
    # other views read right and 2.3% as another face, the rest unsure though the nearest
    # example names most of them; at TAUGHT_SET_SCALE, 90.1% and 2.8%
    def read(scale):
        monkeypatch.setattr(vision.faces, "TAUGHT_SET_SCALE", scale)
        sets = [
            read_a_taught_set(
                DEFAULT_MODEL,
                "rank_beside_suit",
                "square-shooters",
                number,
                6,
                FRESH_SEED,
                {},
                taught_views=4,
            )
            for number in (1, 2)
        ]
        return np.mean([one["after"] for one in sets]), np.mean([one["wrong_after"] for one in sets])

    sharp_right, sharp_wrong = read(TAUGHT_SET_SCALE)
    plain_right, plain_wrong = read(16.0)
    assert sharp_right >= plain_right + 0.03
    assert sharp_wrong <= plain_wrong + 0.01


def test_a_taught_face_the_network_calls_none_claims_no_table_crops():
    # framed set 1005 in its shoot (benchmarks/bench_teach.py's): the network reads its taught
    # BLANK as `none`, and the table crops lie as near it as its own views; it claimed 93 of
    # these 200 until such an example stopped speaking for crops the network calls `none`.
    # Untaught, the Cubes mask alone lets the network read 4 of them as faces; the whole set
    # taught makes 6 (two it read as faces, unsure, now read as the nearest taught face)
    nothing = [render_none(np.random.default_rng([4242, i])) for i in range(200)]
    shares = read_a_taught_set(DEFAULT_MODEL, "framed", "cubes", 1005, 1, 900, {}, nothing)
    assert shares["claimed_before"] <= 0.02
    assert shares["claimed_after"] <= 0.03


def test_the_last_face_of_a_set_taught_lets_the_whole_set_speak(tmp_path):
    # three framed sets: the views of the seven other faces read right 121 of 126 times with
    # the blank untaught (each taught face needs a lead of 0.1 over the others, as an untaught
    # face of the same style could lie as near), 123 with the whole set taught for Cubes dice,
    # and 121 with the whole set taught for no die kind (taps that are not one game's dice)
    right = {"whole set": 0, "all but the blank": 0, "whole set, no kind": 0}
    for number in (1, 2, 3):
        shoot = random_shoot(np.random.default_rng([FRESH_SEED, number]), "framed")
        taught, taught_labels = render_dice_set("framed", number, 1, FRESH_SEED, shoot=shoot)
        crops, labels = render_dice_set("framed", number, 6, FRESH_SEED + 1, shoot=shoot)
        others = [i for i, label in enumerate(labels) if label != "BLANK"]
        for name, skipped, kind in (
            ("whole set", None, "cubes"),
            ("all but the blank", "BLANK", "cubes"),
            ("whole set, no kind", None, None),
        ):
            clf = FaceClassifier(data_dir=tmp_path / f"{number}-{len(name)}")
            for crop, label in zip(taught, taught_labels, strict=True):
                if label != skipped:
                    clf.learn(crop, label, kind)
            assert clf.whole_sets() == ({"cubes"} if name == "whole set" else set())
            readings = clf.classify([crops[i] for i in others], kind="cubes")
            right[name] += sum(r.label == labels[i] for r, i in zip(readings, others, strict=True))
    assert right["whole set"] > right["all but the blank"]
    assert right["whole set"] > right["whole set, no kind"]


def test_plain_dice_read_as_well_while_a_cubes_set_is_taught():
    # a Cubes set's 1-6 once counted as a whole d6 set, and plain dice read 82.6 -> 76.5%
    # (benchmarks/bench_teach.py's 800, four sets); taught for Cubes, they read as untaught
    images, labels, _ = render_set(300, FRESH_SEED, ("numerals", "d6_pips"))
    camera = {"turns": (0,), "second_look": False}
    shares = read_a_taught_set(
        FAST_MODEL, "framed", "cubes", 1, 1, FRESH_SEED, camera, others={"plain": (images, labels, "d6")}
    )
    assert shares["plain_after"] >= shares["plain_before"] - 0.01
    assert shares["plain_wrong_after"] <= shares["plain_wrong_before"] + 0.01


def faces_only(images, labels):
    keep = [i for i, label in enumerate(labels) if label != NONE]
    return images[keep], [labels[i] for i in keep]


CAMERA_READ = {"turns": (0,), "second_look": False, "pips": False}


def an_odd_four():
    """A Cubes 4, dim and blurred, which the camera reads as a 5 (redrawn when session 74's
    fonts changed the crops: the 4 in broken white strokes on green it was reads right now)."""
    return render_set(1, 31337, ("cubes_word",), start=1323)[0][0]


def test_one_right_tap_leaves_faces_the_network_is_sure_of_as_they_were(tmp_path):
    """An odd Cubes 4, read 5 by the camera and tapped as 4: before session 67 the camera then
    read 35 of 68 ones and 44 of 82 fives it was sure of as 4 (79 of 528; a 4 in odd light,
    redrawn when the renderer's pale dice changed the crops)."""
    odd_four = an_odd_four()
    images, labels = faces_only(*render_set(600, FRESH_SEED, ("cubes_word",))[:2])
    clf = FaceClassifier(FAST_MODEL, data_dir=tmp_path)
    assert clf.classify([odd_four], kind="cubes", **CAMERA_READ)[0].label == "5"
    before = [r.label for r in clf.classify(images, kind="cubes", **CAMERA_READ)]
    clf.learn(odd_four, "4", "cubes")
    assert clf.classify([odd_four], kind="cubes", **CAMERA_READ)[0].label == "4"  # the die tapped
    after = [r.label for r in clf.classify(images, kind="cubes", **CAMERA_READ)]
    taken = sum(b == t != "4" and a == "4" for b, a, t in zip(before, after, labels, strict=True))
    assert taken <= 10


def test_taps_on_cubes_dice_leave_plain_dice_as_they_read(tmp_path):
    """Examples speak for the die kind they were taught for: one Cubes 4 cost plain dice
    read with the d6 mask 45 of 519 right readings before session 67."""
    images, labels = faces_only(*render_set(600, FRESH_SEED, ("numerals", "d6_pips"))[:2])
    clf = FaceClassifier(FAST_MODEL, data_dir=tmp_path)
    before = [r.label for r in clf.classify(images, kind="d6", **CAMERA_READ)]
    clf.learn(an_odd_four(), "4", "cubes")
    assert [r.label for r in clf.classify(images, kind="d6", **CAMERA_READ)] == before
    clf.learn(an_odd_four(), "4")  # taught for no kind: every kind's
    assert [r.label for r in clf.classify(images, kind="d6", **CAMERA_READ)] != before


def test_a_tap_taken_back_reads_as_before_it(tmp_path):
    """A sharp 2 tapped as 6 by mistake reads about half the other twos as 6; taken back (the
    correction undone), they read as before, and the 6s taught otherwise stay."""
    images, labels = faces_only(*render_set(600, FRESH_SEED, ("numerals", "d6_pips"))[:2])
    two = images[labels.index("2")]
    six = images[labels.index("6")]
    clf = FaceClassifier(FAST_MODEL, data_dir=tmp_path)
    before = [r.label for r in clf.classify(images, kind="d6", **CAMERA_READ)]
    clf.learn(six, "6", "d6")
    with_six = [r.label for r in clf.classify(images, kind="d6", **CAMERA_READ)]
    clf.learn(two, "6", "d6")
    assert clf.classify([two], kind="d6", **CAMERA_READ)[0].label == "6"
    assert clf.unlearn(two, "6", "d6") == {"6"}
    assert [r.label for r in clf.classify(images, kind="d6", **CAMERA_READ)] == with_six
    assert clf.learned() == {"6": 1}
    assert clf.unlearn(two, "6", "d6") == set()  # taken back already
    assert clf.unlearn(six, "6", "d6") == {"6"} and clf.learned() == {}
    assert [r.label for r in clf.classify(images, kind="d6", **CAMERA_READ)] == before


def test_forgetting_forgets_an_example_deleted_by_hand(tmp_path):
    crop = an_odd_four()
    clf = FaceClassifier(FAST_MODEL, data_dir=tmp_path)
    clf.learn(crop, "4", "cubes")
    next((tmp_path / "4").glob("*.png")).unlink()  # by hand, while the classifier runs
    assert clf.forget("4", "cubes") == {"4"}
    assert clf.learned() == {} and clf.taught_faces("cubes") == []
    clf.learn(crop, "4", "cubes")
    next((tmp_path / "4").glob("*.png")).unlink()
    assert clf.forget() == {"4"} and clf.prototypes == {}


def test_a_face_folder_holding_more_than_a_face_keeps_reads_the_newest(tmp_path, caplog):
    crops = render_set(10, FRESH_SEED, ("framed",))[0]
    folder = tmp_path / "3"
    folder.mkdir()
    for n, crop in enumerate(crops):  # ten examples of 3 put there by hand, oldest first
        path = folder / f"{n:016x}.cubes.png"
        cv2.imwrite(str(path), crop)
        os.utime(path, ns=(n * 10**9, n * 10**9))
    with caplog.at_level(logging.WARNING):
        clf = FaceClassifier(FAST_MODEL, data_dir=tmp_path)
    assert clf.learned() == {"3": vision.faces.TAUGHT_PER_FACE}
    assert "has 10 examples of 3 taught for cubes: the newest 4 are read" in caplog.text
    for path in sorted(folder.iterdir())[: 10 - vision.faces.TAUGHT_PER_FACE]:  # the oldest six
        path.unlink()
    newest = FaceClassifier(FAST_MODEL, data_dir=tmp_path)
    assert np.array_equal(clf.prototypes["3"], newest.prototypes["3"])


def test_forgetting_one_kind_makes_no_other_faces_embeddings_again(tmp_path, monkeypatch):
    """Forgetting one example re-embedded every face taught, under the camera's lock: 3.1 s
    with a whole card set taught."""
    crops = render_set(3, FRESH_SEED, ("framed",))[0]
    clf = FaceClassifier(FAST_MODEL, data_dir=tmp_path)
    clf.learn(crops[0], "3", "cubes")
    clf.learn(crops[1], "5", "d6")
    clf.learn(crops[2], "QH", "square-shooters")
    reloaded = []
    real_reload = clf._reload
    monkeypatch.setattr(clf, "_reload", lambda label: (reloaded.append(label), real_reload(label)))
    assert clf.forget(kind="d6") == {"5"}
    assert reloaded == ["5"] and set(clf.learned()) == {"3", "QH"}


def test_a_cubes_set_taught_is_no_set_of_plain_dice(tmp_path):
    crops, labels = render_dice_set("framed", 1, 1, FRESH_SEED)
    clf = FaceClassifier(data_dir=tmp_path)
    for crop, label in zip(crops, labels, strict=True):
        clf.learn(crop, label, "cubes")
    assert clf.whole_sets() == {"cubes"}  # its 1-6 are every face of a d6, but taught on Cubes dice
    with pytest.raises(ValueError, match="JOKER_RED is not a face of cubes dice"):
        clf.learn(crops[0], "JOKER_RED", "cubes")


def test_a_crop_taught_again_for_a_kind_is_one_example_of_that_kind(tmp_path):
    crop = render_set(1, 9, ("framed",))[0][0]
    clf = FaceClassifier(data_dir=tmp_path)
    clf.learn(crop, "3")
    assert clf.learn(crop, "3", "d6") == {"3"}  # its only example: its folder emptied, then kept
    assert clf.learned() == {"3": 1} and clf.taught_for == {"3": {"d6"}}
    assert [path.name.split(".")[1] for path in (tmp_path / "3").iterdir()] == ["d6"]
    assert FaceClassifier(data_dir=tmp_path).taught_for == {"3": {"d6"}}


def test_a_restart_varies_the_taught_examples_as_they_were(tmp_path):
    crops, labels = render_dice_set("framed", 4, 1, FRESH_SEED)
    clf = FaceClassifier(data_dir=tmp_path)
    for crop, label in zip(crops, labels, strict=True):
        clf.learn(crop, label, "cubes")
    views, _ = render_dice_set("framed", 4, 2, FRESH_SEED + 1)
    restarted = FaceClassifier(data_dir=tmp_path)
    assert restarted.learned() == {label: 1 for label in labels}
    assert restarted.whole_sets() == {"cubes"}
    for a, b in zip(clf.classify(views, kind="cubes"), restarted.classify(views, kind="cubes"), strict=True):
        assert (a.label, a.confidence) == (b.label, pytest.approx(b.confidence, abs=1e-6))


@BELOW_TARGET
def test_teaching_a_dice_set_reads_it_at_target(taught_sets):
    for model, sets in taught_sets.items():
        assert np.mean([taught["after"] for taught in sets]) >= 0.995, model


def test_four_turns_read_a_crop_alike_however_it_lies(classifier, heldout):
    crops = heldout[0][:20]
    upright = classifier.classify(crops, kind=None, turns=ALL_TURNS)
    turned = classifier.classify([np.rot90(crop) for crop in crops], kind=None, turns=ALL_TURNS)
    for a, b in zip(upright, turned, strict=True):
        assert a.label == b.label
        assert a.confidence == pytest.approx(b.confidence, abs=1e-4)


def test_a_16_bit_crop_reads_as_its_8_bit_self(classifier, heldout):
    crops = heldout[0][:6]
    eight = classifier.classify(crops, kind=None)
    sixteen = classifier.classify([crop.astype(np.uint16) * 257 for crop in crops], kind=None)
    assert [a.label for a in eight] == [b.label for b in sixteen]


@pytest.mark.parametrize("shape", [(0, 0, 3), (64, 0, 3), (64,)])
def test_a_crop_that_is_no_image_is_refused_by_name(classifier, shape):
    with pytest.raises(
        ValueError, match=re.escape(f"a crop must be 8- or 16-bit grey, BGR or BGRA: got uint8 {shape}")
    ):
        classifier.classify([np.zeros((64, 64, 3), np.uint8), np.zeros(shape, np.uint8)])


def test_reading_at_no_turn_at_all_is_refused(classifier, heldout):
    with pytest.raises(ValueError, match="turns"):
        classifier.classify(heldout[0][:2], turns=())


def test_four_turns_read_unseen_styles_better_than_one(classifier, heldout):
    images, labels = heldout[0][:1000], heldout[1][:1000]
    one = accuracy_report(labels, read_all(classifier, images))["accuracy"]
    four = accuracy_report(labels, read_all(classifier, images, turns=ALL_TURNS))["accuracy"]
    # on all 3,000 of these crops: the default model 75.6% and 79.3%, the camera's 65.9% and 71.2%
    assert four >= one + 0.02


def test_a_second_look_reads_corners_cut_tight(classifier):
    # A card's corner index cut tight (the middle 55% of each crop), as a hand might crop it
    # from a photo.  These 300 at four turns: the default model 66.3% at one look and 79.0%
    # with the second, the camera's 64.0% and 75.7%.
    images, labels, _ = render_set(300, FRESH_SEED, ("corner_index",), size=160, fonts=HELDOUT_FONTS)
    tight = [image[36:-36, 36:-36] for image in images]
    one_look = accuracy_report(labels, read_all(classifier, tight, turns=ALL_TURNS))["accuracy"]
    second = accuracy_report(labels, read_all(classifier, tight, turns=ALL_TURNS, second_look=True))
    assert second["accuracy"] >= one_look + 0.04


@pytest.mark.parametrize("tightness", [1.4, 2.4])
def test_photos_of_card_corners_read_as_their_cards(tmp_path, tightness):
    # How issue 4 tries real photographs: a square crop about a card's corner index, any turn,
    # read by `classify` as it reads by default (datasets.faces.photos draws them in the
    # held-out fonts; models/faces.md has every tightness). Since session 73 a tenth of the
    # black suits and diamonds print in four-colour inks: the default model (session 73's) reads
    # 99.5% at 1.4 and 99.1% at 2.4 of 1,000 such crops (98.3% of these 300 at 2.4), session
    # 72's 97.5% and 97.4%; on the renders before, these 300 read 100% and 99.7% (session 19).
    # On session 74's renders the default (session 74's) reads 100% and 99.9% of the 1,000,
    # session 73's 99.2% and 99.0%.
    clf = FaceClassifier(DEFAULT_MODEL, data_dir=tmp_path, min_confidence=0.0)
    crops, labels = corner_photos(300, FRESH_SEED, tightness)
    assert (
        accuracy_report(labels, read_all(clf, crops, turns=ALL_TURNS, second_look=True))["accuracy"] >= 0.99
    )


def test_only_unsure_readings_get_a_second_look(classifier, heldout):
    crops = heldout[0][:300]
    first = classifier.classify(crops, kind=None, second_look=False)
    again = classifier.classify(crops, kind=None, second_look=True)
    sure = [a.confidence >= SECOND_LOOK_BELOW for a in first]
    assert 0 < sum(sure) < len(crops)
    for a, b, was_sure in zip(first, again, sure, strict=True):
        if was_sure:
            assert b == a  # a sure reading stands as it was
        else:
            assert max(b.confidence, b.nothing) >= max(a.confidence, a.nothing) - 1e-6  # the surest look
            assert a.label is None or b.label is not None  # which may name a face, not rule one out


def test_a_second_look_frames_the_crop_wider_and_tighter():
    crop = np.full((1, 3, 64, 64), 1.0, np.float32)
    crop[:, :, :6] = crop[:, :, -6:] = crop[:, :, :, :6] = crop[:, :, :, -6:] = 0.0  # a black rim
    wide, tight = widened(crop), narrowed(crop)
    assert wide.shape == tight.shape == crop.shape
    assert (tight == 1.0).all()  # the middle 80%: the rim is cut away
    dark = (wide[0, 0, 32] < 0.5).sum()  # across the middle row: the rim and the margin that
    assert 23 <= dark <= 26  # repeats it, 6 + 10 px each side, shrunk from 84 px to 64: 24.4
    # turning a crop and reframing it is reframing it and turning it
    lopsided = np.random.default_rng(0).random((2, 3, 64, 64), dtype=np.float32)
    for frame in (widened, narrowed):
        turned = frame(np.ascontiguousarray(np.rot90(lopsided, 1, axes=(2, 3))))
        np.testing.assert_allclose(turned, np.rot90(frame(lopsided), 1, axes=(2, 3)), atol=1e-5)


def test_a_second_look_balances_the_white_and_stretches_the_contrast():
    rng = np.random.default_rng(1)
    grey = rng.uniform(0.3, 0.4, (1, 1, 64, 64)).astype(np.float32)  # dim and flat
    cast = grey * np.float32([0.5, 1.0, 1.5]).reshape(1, 3, 1, 1)  # BGR under a warm lamp
    means = balanced(cast).mean((2, 3))[0]
    np.testing.assert_allclose(means, means.mean(), rtol=1e-4)  # every channel the same grey
    spread = stretched(np.repeat(grey, 3, axis=1))
    assert spread.min() == 0.0 and spread.max() == 1.0
    assert np.percentile(spread, 98) >= 0.99 and np.percentile(spread, 2) <= 0.01


def test_only_noisy_crops_count_as_noisy():
    rng = np.random.default_rng(FRESH_SEED)
    shoot = random_shoot(rng, "card_face")
    mild, _ = render_dice_set(
        "card_face", 1, 2, FRESH_SEED, shoot=replace(shoot, blur=0.0, noise=2.0, jpeg=None)
    )
    grainy, _ = render_dice_set(
        "card_face", 1, 2, FRESH_SEED, shoot=replace(shoot, blur=0.0, noise=10.0, jpeg=None)
    )
    grey = np.full((2, 64, 64, 3), 128, np.uint8)
    speckled = np.clip(grey + rng.normal(0, 10, grey.shape), 0, 255).astype(np.uint8)
    assert not noisy(mild).any() and not noisy(grey).any()
    # white print clips some of the noise, so a few grainy faces estimate under the threshold
    assert noisy(speckled).all() and noisy(grainy).mean() >= 0.9


def test_a_noisy_crop_is_smoothed_before_it_is_read(monkeypatch):
    images, labels, _ = render_set(400, FRESH_SEED, TRAIN_FAMILIES)
    rng = np.random.default_rng(FRESH_SEED)
    # a dim webcam's sensor noise, far above the renders' own
    grainy = [np.clip(image + rng.normal(0, 15, image.shape), 0, 255).astype(np.uint8) for image in images]
    clf = FaceClassifier(data_dir="/nonexistent/learned", min_confidence=0.0)
    smoothed = accuracy_report(labels, read_all(clf, grainy))["accuracy"]
    monkeypatch.setattr(vision.faces, "NOISY", np.inf)  # never smoothed
    monkeypatch.setattr(vision.faces, "BLOTCHY", np.inf)
    as_is = accuracy_report(labels, read_all(clf, grainy))["accuracy"]
    # the default model reads 88.75% of these crops as is and 92.0% smoothed with session 29's
    # bilateral filter (90.8% with the 3x3 Gaussian before it; 91.2% and 94.5% when the crops
    # were drawn in 24 fonts, before session 20)
    assert smoothed >= as_is + 0.02


def test_a_noisy_crop_turned_a_right_angle_smooths_to_the_smoothed_crop_turned():
    # smoothed in bytes, a fifth of noisy crops came out a grey level apart turned, and a
    # held-out framed 2 read 0.912 upright and 0.919 turned
    rng = np.random.default_rng(FRESH_SEED)
    images = render_set(40, FRESH_SEED, TRAIN_FAMILIES)[0]
    grainy = np.clip(images + rng.normal(0, 12, images.shape), 0, 255).astype(np.uint8)
    assert noisy(grainy).all()
    upright = smooth_noisy(grainy)
    turned = smooth_noisy(np.ascontiguousarray(np.rot90(grainy, axes=(1, 2))))
    assert np.abs(np.rot90(upright, axes=(1, 2)) - turned).max() < 1e-3
    assert np.abs(upright - grainy).mean() > 1  # smoothed, not left as it was


def test_a_crop_jpeg_left_blotchy_is_smoothed_too(monkeypatch):
    # a webcam's MJPEG smooths sensor noise into blotches that the Laplacian estimate misses
    images, labels, _ = render_set(400, FRESH_SEED, TRAIN_FAMILIES)
    blotchy = with_webcam_noise(list(images), 16, 40, seed=FRESH_SEED)
    assert noisy(np.stack(blotchy)).mean() >= 0.95
    clf = FaceClassifier(FAST_MODEL, data_dir="/nonexistent/learned", min_confidence=0.0)
    smoothed = accuracy_report(labels, read_all(clf, blotchy))["accuracy"]
    monkeypatch.setattr(vision.faces, "BLOTCHY", np.inf)  # the Laplacian estimate alone
    alone = accuracy_report(labels, read_all(clf, blotchy))["accuracy"]
    # session 75's camera model reads 83.5% of these smoothed, 81.25% as they are, and three
    # other crop sets gain 2.0 to 4.5 points: it learnt from noisy crops smoothed so. Session
    # 36's, on the same renders, 83.0% and 79.25% (2.5 to 4 points); on session 73's renders
    # 82.5% and 80.25%; before session 73's four-colour inks 86.5% and 82.25%; session 29's,
    # before it learnt light as well as noise, 86.5% and 78.5%
    assert smoothed >= alone + 0.015


@pytest.mark.parametrize("kind", sorted(DIE_KINDS))
def test_kind_masks_hold(classifier, kind):
    images, _, _ = render_set(200, 5, TRAIN_FAMILIES)
    allowed = set(DIE_KINDS[kind].labels)
    for reading in classifier.classify(images, kind=kind):
        assert reading.label is None or reading.label in allowed
        assert {label for label, _ in reading.top} <= allowed


def test_none_crops_are_unreadable():
    clf = FaceClassifier(data_dir="/nonexistent/learned")
    crops = [render_none(np.random.default_rng([FRESH_SEED, i])) for i in range(100)]
    readings = clf.classify(crops, kind=None)
    # a floor, as for accuracy: 98 of these 100 with the default model, 100 with the camera's (92 at
    # stage 7, 97 before the fine-tunes on rendered scenes, which read scene dice far better)
    assert sum(r.label is None for r in readings) >= 90
    assert all(isinstance(r, FaceReading) and len(r.top) <= clf.top_k for r in readings)


@pytest.mark.parametrize("model", list(MODELS))
def test_taught_faces_do_not_turn_table_crops_into_dice(tmp_path, model):
    clf = FaceClassifier(MODELS[model], data_dir=tmp_path)
    for family in HELDOUT_FAMILIES:
        teach_one_per_face(clf, family)
    crops = [render_none(np.random.default_rng([FRESH_SEED, i])) for i in range(100)]
    # the floor of the untaught test above: 98 stay unreadable with the default model, 99 with
    # the camera's (100 untaught); before TAUGHT_OVER_NONE and TAUGHT_MIN_LEAD, the camera's 62
    # taught faces made dice of 86 of them
    assert sum(r.label is None for r in clf.classify(crops, kind=None)) >= 90


def test_a_crop_taught_again_as_another_face_is_that_face_only(tmp_path):
    crop = render_set(1, 9, ("framed",))[0][0]
    other = render_set(1, 10, ("framed",))[0][0]
    clf = FaceClassifier(data_dir=tmp_path, min_confidence=0.0)
    assert clf.classify([crop], kind=None)[0].label not in ("QH", "KS")
    clf.learn(crop, "QH")
    clf.learn(crop, "QH")  # the same tap twice is one example
    assert clf.learned() == {"QH": 1}
    clf.learn(other, "QH")
    clf.learn(crop.copy(), "KS")  # a second tap on the same die corrects the first
    assert clf.classify([crop], kind=None)[0].label == "KS"
    assert clf.learned() == {"QH": 1, "KS": 1}
    assert FaceClassifier(data_dir=tmp_path).learned() == {"QH": 1, "KS": 1}
    clf.learn(other, "KS")  # QH's last example taken back: nothing of it is left
    assert clf.learned() == {"KS": 2} and not (tmp_path / "QH").exists()


def test_learn_and_forget_round_trip(tmp_path):
    crop = render_set(1, 9, ("framed",))[0][0]
    clf = FaceClassifier(data_dir=tmp_path)
    before = clf.classify([crop], kind=None)[0].label
    taught = "QH" if before != "QH" else "KS"
    clf.learn(crop, taught)
    assert clf.classify([crop], kind=None)[0].label == taught
    assert clf.learned() == {taught: 1}
    assert list((tmp_path / taught).glob("*.png"))

    reopened = FaceClassifier(data_dir=tmp_path)  # the examples persist
    assert reopened.classify([crop], kind=None)[0].label == taught

    reopened.forget()
    assert reopened.learned() == {}
    assert not list(tmp_path.rglob("*.png"))
    assert reopened.classify([crop], kind=None)[0].label == before
    assert FaceClassifier(data_dir=tmp_path).learned() == {}


def taught_days_apart(clf, crops, label, kind, folder):
    """Teach ``crops`` as ``label`` in turn, each example's file dated a day after the one
    before, the first the longest ago."""
    for age, crop in enumerate(crops):
        clf.learn(crop, label, kind)
        newest = max(folder.glob("*.png"), key=lambda path: path.stat().st_mtime_ns)
        days = len(crops) - age
        os.utime(newest, ns=(newest.stat().st_mtime_ns - days * 86_400 * 10**9,) * 2)


def test_a_face_keeps_its_newest_examples_for_each_kind(tmp_path):
    crops = render_set(TAUGHT_PER_FACE + 2, 9, ("framed",))[0]
    clf = FaceClassifier(FAST_MODEL, data_dir=tmp_path)
    taught_days_apart(clf, crops[:-1], "3", "cubes", tmp_path / "3")
    clf.learn(crops[-1], "3", "d6")  # another kind's examples are kept apart
    assert clf.learned() == {"3": TAUGHT_PER_FACE + 1}
    kept = clf.taught_examples("cubes")["3"]
    assert [cv2.imread(str(path)).tobytes() for path in kept] == [
        crop.tobytes() for crop in reversed(crops[1:-1])
    ]  # the newest first; the oldest tap is gone
    assert len(clf.taught_examples("d6")["3"]) == 1
    untaught = ("CUBES", "BLANK", "1", "2", "4", "5", "6")
    assert clf.examples_wanted("cubes") == {"3": 0} | {label: TAUGHT_PER_FACE for label in untaught}
    assert clf.examples_wanted("d6")["3"] == TAUGHT_PER_FACE - 1
    assert FaceClassifier(FAST_MODEL, data_dir=tmp_path).learned() == {"3": TAUGHT_PER_FACE + 1}


def test_forgetting_one_kind_keeps_the_others(tmp_path):
    crops = render_set(3, 9, ("framed",))[0]
    clf = FaceClassifier(FAST_MODEL, data_dir=tmp_path)
    clf.learn(crops[0], "3", "cubes")
    clf.learn(crops[1], "3", "d6")
    clf.learn(crops[2], "CUBES", "cubes")
    assert clf.forget(kind="cubes") == {"3", "CUBES"}
    assert clf.learned() == {"3": 1} and clf.taught_for == {"3": {"d6"}}
    assert clf.taught_examples("cubes") == {}
    assert clf.forget("3", kind="cubes") == set()  # nothing of it left to forget
    assert clf.forget("3") == {"3"} and clf.learned() == {}
    assert not list(tmp_path.rglob("*.png"))


def test_a_tap_that_cannot_be_kept_loses_no_earlier_example(tmp_path, monkeypatch):
    """Taught again as another face, a crop moves: its old example goes only once the new
    one is written (a full disk or a read-only folder must not lose both)."""
    crop = render_set(1, 9, ("framed",))[0][0]
    clf = FaceClassifier(FAST_MODEL, data_dir=tmp_path)
    clf.learn(crop, "3", "cubes")

    def full_disk(path, data):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(Path, "write_bytes", full_disk)
    with pytest.raises(OSError, match="could not write the taught example .*No space left on device"):
        clf.learn(crop, "5", "cubes")
    assert clf.learned() == {"3": 1} and len(list((tmp_path / "3").glob("*.png"))) == 1
    assert not list(tmp_path.rglob("*.part"))  # written whole or not at all
    monkeypatch.undo()
    assert clf.learn(crop, "5", "cubes") == {"3", "5"}  # kept now: the old tap is taken back
    assert clf.learned() == {"5": 1} and not (tmp_path / "3").exists()


def test_forgetting_goes_on_past_a_file_it_cannot_delete_and_names_it(tmp_path, monkeypatch):
    crops = render_set(2, 9, ("framed",))[0]
    clf = FaceClassifier(FAST_MODEL, data_dir=tmp_path)
    clf.learn(crops[0], "3", "cubes")
    clf.learn(crops[1], "5", "cubes")
    (tmp_path / "5" / "stray.png").mkdir()  # a folder where an example would be: passed over
    stuck = next((tmp_path / "3").glob("*.png"))
    refuse_to_delete(monkeypatch, stuck)
    with pytest.raises(OSError, match=f"could not forget 1 taught examples: {stuck} \\(Permission denied\\)"):
        clf.forget()
    assert clf.learned() == {"3": 1}  # what was deleted is forgotten; what was not, still read


def test_a_tap_whose_earlier_copy_cannot_be_taken_back_is_not_taken(tmp_path, monkeypatch):
    # else the crop would stay taught as both faces, and read as neither after a restart
    crop = render_set(1, 9, ("framed",))[0][0]
    clf = FaceClassifier(FAST_MODEL, data_dir=tmp_path)
    clf.learn(crop, "3", "cubes")
    earlier = next((tmp_path / "3").glob("*.png"))
    refuse_to_delete(monkeypatch, earlier)
    with pytest.raises(OSError, match=f"could not take back {earlier}, taught before: Permission denied"):
        clf.learn(crop, "5", "cubes")
    assert clf.learned() == {"3": 1} and not list((tmp_path / "5").glob("*.png"))
    assert FaceClassifier(FAST_MODEL, data_dir=tmp_path).learned() == {"3": 1}


def test_forgetting_everything_forgets_what_another_classifier_taught_since(tmp_path):
    crops = render_set(2, 9, ("framed",))[0]
    loaded_first = FaceClassifier(FAST_MODEL, data_dir=tmp_path)  # the web app's, loaded at the start
    FaceClassifier(FAST_MODEL, data_dir=tmp_path).learn(crops[0], "3", "cubes")  # `dicescore teach`
    assert loaded_first.forget() == {"3"}
    assert not list(tmp_path.rglob("*.png"))


def test_a_damaged_example_is_forgotten_and_an_empty_folder_kept_harmlessly(tmp_path, monkeypatch, caplog):
    crops = render_set(2, 9, ("framed",))[0]
    clf = FaceClassifier(FAST_MODEL, data_dir=tmp_path)
    clf.learn(crops[0], "3", "cubes")
    clf.learn(crops[1], "3", "cubes")
    damaged = next((tmp_path / "3").glob("*.png"))
    damaged.write_bytes(damaged.read_bytes()[:40])  # a disk that filled as it was written
    (tmp_path / "5").mkdir()  # left by a tap whose write failed

    def read_only(path):
        raise OSError(30, "Read-only file system")

    monkeypatch.setattr(Path, "rmdir", read_only)
    with caplog.at_level(logging.WARNING):
        reopened = FaceClassifier(FAST_MODEL, data_dir=tmp_path)
    assert reopened.learned() == {"3": 1} and len(reopened.taught_examples("cubes")["3"]) == 1
    assert f"the taught example {damaged} cannot be read: it is forgotten" in caplog.text
    assert not damaged.exists()


def test_taught_faces_in_a_folder_named_outside_ascii_are_kept_across_a_restart(tmp_path, windows_opencv):
    folder = tmp_path / "Zoë" / "dicescore"  # a Windows profile of that name holds the data folder
    crops = render_set(2, 9, ("framed",))[0]
    FaceClassifier(FAST_MODEL, data_dir=folder).learn(crops[0], "3", "cubes")
    reopened = FaceClassifier(FAST_MODEL, data_dir=folder)  # the next start read them with imread
    assert reopened.learned() == {"3": 1} and list((folder / "3").glob("*.png"))


def test_a_taught_example_that_cannot_be_read_now_is_kept(tmp_path, monkeypatch, caplog):
    crop = render_set(1, 9, ("framed",))[0][0]
    FaceClassifier(FAST_MODEL, data_dir=tmp_path).learn(crop, "3", "cubes")
    example = next((tmp_path / "3").glob("*.png"))
    monkeypatch.setattr(np, "fromfile", lambda *a: (_ for _ in ()).throw(PermissionError(13, "locked")))
    with caplog.at_level(logging.WARNING):
        assert FaceClassifier(FAST_MODEL, data_dir=tmp_path).learned() == {}
    assert example.exists() and f"the taught example {example} cannot be read now" in caplog.text


def test_a_taught_folder_the_user_may_not_read_leaves_the_network_untaught(tmp_path, monkeypatch, caplog):
    crop = render_set(1, 9, ("framed",))[0][0]
    FaceClassifier(FAST_MODEL, data_dir=tmp_path).learn(crop, "3", "cubes")
    iterdir = Path.iterdir

    def refuse(path):
        if path == tmp_path:
            raise PermissionError(13, "Permission denied")
        return iterdir(path)

    monkeypatch.setattr(Path, "iterdir", refuse)
    with caplog.at_level(logging.WARNING):
        clf = FaceClassifier(FAST_MODEL, data_dir=tmp_path)  # was a traceback from every command
    assert clf.learned() == {}
    assert f"cannot read the taught examples in {tmp_path} (Permission denied)" in caplog.text


def test_a_classifier_reloads_what_another_taught_in_their_shared_folder(tmp_path):
    # The camera's model learns a tap; the default model, which reads each settled roll
    # again, reads the same folder and must take the lesson too.
    crop = render_set(1, 9, ("framed",))[0][0]
    camera, photos = FaceClassifier(FAST_MODEL, data_dir=tmp_path), FaceClassifier(data_dir=tmp_path)
    before = photos.classify([crop], kind=None)[0].label
    taught = "QH" if before != "QH" else "KS"
    assert camera.learn(crop, taught) == {taught}
    assert photos.learned() == {}
    photos.reload_learned({taught})
    assert photos.learned() == {taught: 1} and photos.classify([crop], kind=None)[0].label == taught
    assert camera.learn(crop, taught) == set()  # taught so already
    assert camera.learn(crop, "AS") == {"AS", taught}  # tapped again as another face: that face only
    photos.reload_learned({"AS", taught})
    assert photos.learned() == {"AS": 1} and photos.classify([crop], kind=None)[0].label == "AS"
    camera.forget()
    photos.reload_learned({"AS"})
    assert photos.learned() == {} and photos.classify([crop], kind=None)[0].label == before


def test_missing_model_file_is_named(tmp_path):
    missing = tmp_path / "nowhere.onnx"
    with pytest.raises(ModelFileError, match="nowhere.onnx"):
        FaceClassifier(missing)


def test_corrupt_model_file_is_named(tmp_path):
    corrupt = tmp_path / "broken.onnx"
    corrupt.write_bytes(b"\x08\x07not a model" * 100)
    with pytest.raises(ModelFileError, match="broken.onnx"):
        FaceClassifier(corrupt)


def test_cli_prints_one_reading_per_crop(tmp_path, capsys):
    from dicescore.cli import main

    images, _, _ = render_set(2, 3, ("d6_pips",))
    paths = []
    for i, image in enumerate(images):
        paths.append(str(tmp_path / f"crop{i}.png"))
        cv2.imwrite(paths[-1], image)
    assert main(["faces", *paths, "--dice", "d6", "--json"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [line["crop"] for line in lines] == paths
    assert all(line["label"] in (None, *DIE_KINDS["d6"].labels) for line in lines)


class ReadsASix:
    """Stands in for the face model: every crop a six, then its four likeliest others."""

    def __init__(self, model_path=None):
        pass

    def classify(self, crops, kind=None, turns=(0,), second_look=False, pips=False, wider=None):
        top = [("6", 0.712345), ("5", 0.2), ("4", 0.05), ("3", 0.03), ("2", 0.007655)]
        return [FaceReading("6", 0.712345, top) for _ in crops]


def test_cli_shows_each_reading_with_its_three_next_likeliest_faces(tmp_path, capsys, monkeypatch):
    from dicescore.cli import main

    monkeypatch.setattr(vision.faces, "FaceClassifier", ReadsASix)
    crop = str(tmp_path / "crop.png")
    cv2.imwrite(crop, np.zeros((64, 64, 3), np.uint8))
    assert main(["faces", crop, "--dice", "d6"]) == 0
    assert capsys.readouterr().out == f"{crop}: 6 0.71  (then 5 0.20, 4 0.05, 3 0.03)\n"
    assert main(["faces", crop, "--dice", "d6", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {
        "crop": crop,
        "label": "6",
        "confidence": 0.7123,
        "top": [["6", 0.7123], ["5", 0.2], ["4", 0.05], ["3", 0.03], ["2", 0.0077]],
    }


def test_cli_teaches_a_dice_set_one_crop_a_face(tmp_path, capsys, monkeypatch):
    from dicescore.cli import main

    monkeypatch.setenv("DICESCORE_HOME", str(tmp_path / "home"))
    crops, labels = render_dice_set("framed", 3, 1, FRESH_SEED)
    given = []
    for crop, label in zip(crops, labels, strict=True):
        cv2.imwrite(str(tmp_path / f"{label}.png"), crop)
        given.append(f"{label}={tmp_path / f'{label}.png'}")
    assert main(["teach", "--dice", "cubes", *given[:3]]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "taught 3 crops; 3 of 8 faces of cubes dice known",
        "not yet taught: 2 3 4 5 6",
    ]
    assert main(["teach", "--dice", "cubes", *given[2:]]) == 0  # the third crop again, with the rest
    assert capsys.readouterr().out.splitlines() == [
        "taught 5 crops (1 taught so before); 8 of 8 faces of cubes dice known",
        "the cubes set is taught whole",
    ]
    assert FaceClassifier(FAST_MODEL).whole_sets() == {"cubes"}  # kept in the user's folder
    pip_dice, pip_labels = render_dice_set("d6_pips", 1, 1, FRESH_SEED)
    cv2.imwrite(str(tmp_path / "pips.png"), pip_dice[0])
    assert main(["teach", "--dice", "d6", f"{pip_labels[0]}={tmp_path / 'pips.png'}"]) == 0
    capsys.readouterr()
    assert main(["teach", "--dice", "cubes", "--forget"]) == 0  # the Cubes set only: not the pip dice's
    assert capsys.readouterr().out.splitlines()[0].startswith("forgot the faces taught for cubes dice")
    assert FaceClassifier(FAST_MODEL).taught_faces("cubes") == []
    assert FaceClassifier(FAST_MODEL).taught_faces("d6") == [pip_labels[0]]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--dice", "cubes", "QH=x.png"], "QH is not a face of cubes dice"),
        (["--dice", "cubes", "x.png"], "x.png: name each crop as LABEL=CROP.png"),
        (["--dice", "d6", "1=absent.png"], "absent.png (no such file)"),
    ],
)
def test_cli_teach_refuses_bad_input_by_name(tmp_path, capsys, monkeypatch, argv, message):
    from dicescore.cli import main

    monkeypatch.setenv("DICESCORE_HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)
    cv2.imwrite("x.png", render_set(1, 3, ("framed",))[0][0])
    with pytest.raises(SystemExit) as exit_info:
        main(["teach", *argv])
    assert exit_info.value.code == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "home" / "learned").exists() or not any((tmp_path / "home" / "learned").iterdir())


def test_cli_names_a_missing_image(tmp_path, capsys):
    from dicescore.cli import main

    with pytest.raises(SystemExit) as exit_info:
        main(["faces", str(tmp_path / "absent.png")])
    assert exit_info.value.code == 2
    assert "absent.png (no such file)" in capsys.readouterr().err
    (tmp_path / "notes.png").write_text("not a picture")
    with pytest.raises(SystemExit):
        main(["faces", str(tmp_path / "notes.png")])
    assert "notes.png (not an image OpenCV can read)" in capsys.readouterr().err


def test_cli_reads_the_good_crops_beside_a_bad_one(tmp_path, capsys):
    from dicescore.cli import main

    good = str(tmp_path / "crop.png")
    cv2.imwrite(good, render_set(1, 3, ("d6_pips",))[0][0])
    with pytest.raises(SystemExit) as exit_info:
        main(["faces", good, str(tmp_path / "absent.png"), good, "--dice", "d6", "--json"])
    assert exit_info.value.code == 2
    out, err = capsys.readouterr()
    assert [json.loads(line)["crop"] for line in out.splitlines()] == [good, good]
    assert "absent.png (no such file)" in err


def test_a_face_keeps_no_more_examples_on_disk_than_it_reads_and_its_spares(tmp_path):
    """vision/faces.py `path.unlink()` dropped (the cap's delete): every tap on a misread
    that keeps coming back piled up in the data folder, the tests seeing only the newest four
    that are read."""
    crops = render_set(TAUGHT_PER_FACE + TAUGHT_SPARE + 2, 9, ("framed",))[0]
    clf = FaceClassifier(FAST_MODEL, data_dir=tmp_path)
    for crop in crops:
        clf.learn(crop, "3", "cubes")
    assert len(list((tmp_path / "3").glob("*.png"))) == TAUGHT_PER_FACE + TAUGHT_SPARE
    assert clf.learned() == {"3": TAUGHT_PER_FACE}


def test_a_tap_undone_brings_back_the_example_it_pushed_out(tmp_path):
    crops = render_set(TAUGHT_PER_FACE + 1, 9, ("framed",))[0]
    clf = FaceClassifier(FAST_MODEL, data_dir=tmp_path)
    taught_days_apart(clf, crops[:-1], "3", "cubes", tmp_path / "3")
    images = render_set(300, FRESH_SEED, ("framed",))[0]
    before = clf.classify(images, kind="cubes", **CAMERA_READ)
    assert clf.learn(crops[-1], "3", "cubes") == {"3"}
    assert clf.learned() == {"3": TAUGHT_PER_FACE}  # the oldest pushed out of those read
    assert clf.unlearn(crops[-1], "3", "cubes") == {"3"}
    after = clf.classify(images, kind="cubes", **CAMERA_READ)  # read as before the tap
    assert [r.label for r in after] == [r.label for r in before]
    assert [r.confidence for r in after] == pytest.approx([r.confidence for r in before], abs=1e-5)
    kept = [cv2.imread(str(path)).tobytes() for path in clf.taught_examples("cubes")["3"]]
    assert kept == [crop.tobytes() for crop in reversed(crops[:-1])]


def test_an_unreadable_reading_says_how_sure_its_likeliest_face_is_and_no_face_says_zero(tmp_path):
    """vision/faces.py `confidence if best != NONE else 0.0`: -> `1.0` made a crop read as
    no face 100% sure (a photo's recut, `RECUT_BELOW`, then passed it by), and `!=` -> `==`
    made a face read just under the threshold 0.0 sure.  No test looked at an unreadable
    reading's confidence."""
    clf = FaceClassifier(FAST_MODEL, data_dir=tmp_path, min_confidence=0.99)
    camera = {"turns": (0,), "second_look": False, "pips": False}
    nothing = [render_none(np.random.default_rng([777, i])) for i in range(20)]
    faces = render_set(20, 5, ("d6_pips",))[0]
    readings = clf.classify([*nothing, *faces], kind="d6", **camera)
    no_face = [r for r in readings if r.nothing >= 0.5]
    unsure_face = [r for r in readings if r.label is None and r.nothing < 0.5]
    assert len(no_face) >= 10 and len(unsure_face) >= 2
    assert all(r.label is None and r.confidence == 0.0 for r in no_face)
    assert all(r.confidence == pytest.approx(r.top[0][1]) and r.confidence > 0 for r in unsure_face)


def test_a_long_top_list_names_only_the_faces_of_the_die_kind(tmp_path):
    """vision/faces.py `probs[i] > 0` -> `>= 0`: with room in the top list beyond the die
    kind's faces, labels the kind mask ruled out (cards, for a d6) filled it at 0%, a tap menu
    offering a card for a pip die."""
    clf = FaceClassifier(FAST_MODEL, data_dir=tmp_path, top_k=10)
    faces = render_set(5, 5, ("d6_pips",))[0]
    for reading in clf.classify(faces, kind="d6", turns=(0,), second_look=False):
        assert {label for label, _ in reading.top} <= {"1", "2", "3", "4", "5", "6"}


def test_forgetting_one_example_forgets_that_one_only(tmp_path):
    """vision/faces.py `path.name == name` -> `!=` (or negated): forget_example deleted
    another example of the face and kept the wrong tap; no test calls forget_example."""
    crops = render_set(3, 9, ("framed",))[0]
    clf = FaceClassifier(FAST_MODEL, data_dir=tmp_path)
    for crop in crops:
        clf.learn(crop, "3", "cubes")
    wrong, *others = clf.taught_examples("cubes")["3"]
    assert clf.forget_example("3", "cubes", "no-such.cubes.png") == set()
    assert clf.forget_example("3", "cubes", wrong.name) == {"3"}
    assert not wrong.exists() and all(path.exists() for path in others)
    assert clf.learned() == {"3": 2}
    assert clf.forget_example("3", "d6", others[0].name) == set()  # taught for another kind
