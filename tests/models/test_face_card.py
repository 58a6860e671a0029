"""The face card's webcam-noise measure, how it names a teacher, and how it describes an 8-bit file."""

from __future__ import annotations

import tempfile
from pathlib import Path

import numpy as np

from datasets import card_decks
from datasets.faces import render_set
from datasets.faces.photos import TIGHTNESSES
from models.face_card import (
    noise_report,
    noise_section,
    print_section,
    quantized_lines,
    real_deck_reports,
    real_deck_section,
    started_line,
    with_webcam_noise,
)
from models.face_recipe import average_lines, average_step, reproduce_command, teacher_words
from tests.decks import fake_decks
from vision.faces import DEFAULT_MODEL, FAST_MODEL, FaceClassifier


def test_webcam_noise_is_the_same_for_every_model_measured_and_none_leaves_crops_alone():
    crops = render_set(16, 4)[0]
    assert all((a == b).all() for a, b in zip(with_webcam_noise(crops, 0, None), crops, strict=True))
    first, again = with_webcam_noise(crops, 12, 50), with_webcam_noise(crops, 12, 50)
    assert all((a == b).all() for a, b in zip(first, again, strict=True))
    change = np.abs(np.stack(first).astype(float) - crops).mean()
    assert 4 < change < 16  # about the noise's mean size, JPEG smoothing some of it


def test_noise_costs_the_camera_model_crops_read_right():
    images, labels, _ = render_set(200, 4)
    with tempfile.TemporaryDirectory() as empty:
        rows = noise_report(
            FaceClassifier(FAST_MODEL, data_dir=empty, min_confidence=0.0),
            FaceClassifier(FAST_MODEL, data_dir=empty),
            (images, labels),
            (list(images), labels, ["square-shooters" if "S" in lb else "d6" for lb in labels]),
        )
    clean, loudest = rows[0], rows[-1]
    assert (clean["sigma"], clean["quality"]) == (0, None)
    assert loudest["trained"] < clean["trained"]


def test_the_noise_table_has_a_row_per_level_and_a_column_per_file():
    level = {"sigma": 8, "quality": 60, "trained": 0.9, "scenes": 0.7}
    table = noise_section({"this file": [level], "the file it started from": [level | {"scenes": 0.65}]})
    assert "| 8, JPEG 60 | 90.0% / 70.0% | 90.0% / 65.0% |" in table
    assert noise_section({}) == ""


def test_a_teacher_is_named_by_what_it_is():
    same = {"teacher": "a.onnx", "init": "a.onnx", "teacher_width": 32, "width": 32}
    assert teacher_words(same).startswith("the file it started from")
    assert "wider FaceNet (width 96" in teacher_words(same | {"teacher": "w96.pt", "teacher_width": 96})


def test_a_file_trained_on_from_another_is_set_beside_it():
    now = [{"accuracy": share} for share in (0.91, 0.69, 0.88)]
    before = {"trained families": 0.92, "held-out families": 0.70, "corner indices": 0.89}
    line = started_line({"init": "data/faces/faces-fast-13.onnx"}, before, *now)
    assert "(data/faces/faces-fast-13.onnx)" in line
    assert "held-out families 69.00% against 70.00%" in line
    assert started_line({}, {}, *now) == ""


def test_an_averaged_file_says_how_it_was_made():
    soup = {"base": "data/faces/faces-fast-13.onnx", "tuned": "data/faces/run-epoch7.pt", "share": 0.3}
    step = average_step({"averaged": soup}, Path("data/faces"), "models/faces-fast.onnx")
    assert step.endswith(
        "python -m models.average_faces --base data/faces/faces-fast-13.onnx"
        " --tuned data/faces/run-epoch7.pt --recipe-from data/faces/faces-fast.onnx --share 0.3"
        " --out models/faces-fast.onnx"
    )
    lines = average_lines({"averaged": soup})
    assert "each weight 30% of the way from\n  data/faces/faces-fast-13.onnx" in lines
    assert average_step({}, Path("data/faces"), "models/faces-fast.onnx") == average_lines({}) == ""


def test_the_reproduce_command_runs_its_steps_in_order():
    # session 18's card made the 8-bit file before the average it is made from
    recipe = {
        "seed": 35,
        "width": 96,
        "init": "data/faces/start.onnx",
        "averaged": {"base": "data/faces/start.onnx", "tuned": "data/faces/run.pt", "share": 0.5},
        "quantized": {"from": "data/faces/soup.onnx"},
    }
    steps = reproduce_command(recipe, "faces.onnx").split("`, then `")
    assert [step.split()[2] for step in steps] == [
        "models.train_faces",
        "models.average_faces",
        "models.quantize_faces",
    ]
    assert steps[0].endswith("--init data/faces/start.onnx --no-card --out data/faces")
    assert "--recipe-from data/faces/faces-w96.onnx" in steps[1]  # what the run exported
    assert steps[1].endswith("--out data/faces/soup.onnx")
    assert steps[2].endswith("--model data/faces/soup.onnx --out models/faces.onnx")


def test_an_8_bit_card_compares_its_float_model_only_when_the_file_is_there():
    how = {"from": "data/faces/w96.onnx", "weights": "int8", "activations": "uint8", "calibration": "1000"}
    recipe = {"quantized": how}
    ours = [{"accuracy": a} for a in (0.95, 0.79, 0.93)]
    timing = {"median": 4.5}
    float_model = {"size_mb": 5.2, "latency": {"median": 11.0}}
    float_model |= {"trained": 0.96, "heldout": 0.8, "corner": 0.94}
    compared = quantized_lines(recipe, float_model, *ours, timing)
    assert "96.00%, 80.00% and 94.00%" in compared and "(this file: 95.00%, 79.00%, 93.00%)" in compared
    missing = quantized_lines(recipe, None, *ours, timing)
    assert "data/faces/w96.onnx is not on the machine that wrote this card" in missing
    assert "docs/vision.md" in missing and "%" not in missing
    assert quantized_lines({}, None, *ours, timing) == ""


def test_the_reproduce_command_shows_the_crops_as_the_run_showed_them():
    recipe = {"seed": 36, "init": "data/faces/start.onnx", "degrade": 0.5, "relight": 0.4, "soften": 0.5}
    assert reproduce_command(recipe, "faces-fast.onnx").endswith(
        "--init data/faces/start.onnx --degrade 0.5 --relight 0.4 --soften 0.5"
    )
    assert "--degrade" not in reproduce_command({"seed": 36, "degrade": 0.0}, "faces-fast.onnx")
    swirled = reproduce_command({"seed": 36, "swirled": 0.6}, "faces-fast.onnx")
    assert "--swirled 0.6" in swirled
    assert "--swirled" not in reproduce_command({"seed": 36}, "faces-fast.onnx")


def test_the_card_shows_print_read_as_a_face_by_this_file_and_the_one_before():
    text = print_section(
        {"any one turn": 0.049, "d6 one turn": 0.006}, {"any one turn": 0.254, "d6 one turn": 0.059}
    )
    assert "| file | any one turn | d6 one turn |" in text
    assert "| this file | 4.9% | 0.6% |" in text and "| the file it started from | 25.4% | 5.9% |" in text
    assert "started from" not in print_section({"any one turn": 0.1}, {})


def test_the_real_decks_row_reads_the_held_out_decks_only_at_each_tightness(tmp_path, monkeypatch):
    classifier = FaceClassifier(DEFAULT_MODEL, data_dir=tmp_path / "taught", min_confidence=0.0)
    assert real_deck_reports(classifier, tmp_path) == []  # no decks fetched
    assert "Not measured" in real_deck_section([])
    monkeypatch.setattr(card_decks, "TEST_DECKS", {"held", "also held"})
    fake_decks(tmp_path, ["held", "also held", "trained"])
    reports = real_deck_reports(classifier, tmp_path)
    assert [tightness for tightness, _, _ in reports] == list(TIGHTNESSES)
    assert all(one["n"] == photo["n"] == 2 for _, one, photo in reports)  # one card of each held deck
    assert "| 1.4 | 2 |" in real_deck_section(reports)
