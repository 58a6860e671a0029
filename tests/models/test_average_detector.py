"""Averaging detector runs' weights (models.average_detector)."""

from __future__ import annotations

import pytest
import torch

from models import average_detector
from models.detector_net import DetectorNet
from models.metadata import recipe_of
from models.train_detector import export
from vision.detector import LEANING_FROM, Detector


def run(seed: int, width: int = 4) -> dict[str, torch.Tensor]:
    torch.manual_seed(seed)
    return DetectorNet(width).state_dict()


def test_the_soup_is_the_mean_of_every_weight_and_norm_statistic():
    first, second = run(1), run(2)
    mean = average_detector.soup([first, second], width=4).state_dict()
    for name, value in mean.items():
        if value.is_floating_point():
            assert torch.allclose(value, (first[name] + second[name]) / 2)
    assert not torch.equal(mean["out.weight"], first["out.weight"])


def test_a_soup_of_one_run_computes_what_the_run_does():
    weights = run(1)
    model = DetectorNet(4)
    model.load_state_dict(weights)
    x = torch.rand(1, 3, 64, 64)
    with torch.no_grad():
        for theirs, ours in zip(model.eval()(x), average_detector.soup([weights], 4)(x), strict=True):
            assert torch.equal(theirs, ours)


def test_runs_of_different_widths_are_refused():
    with pytest.raises(ValueError, match="differ in shape"):
        average_detector.soup([run(1, width=4), run(2, width=8)], width=4)
    with pytest.raises(ValueError, match="no checkpoints"):
        average_detector.soup([], width=4)


def test_the_soup_is_a_detector_file_with_the_first_runs_recipe(tmp_path):
    paths = []
    for seed in (1, 2):
        paths.append(tmp_path / f"detector-{seed}.pt")
        torch.save(run(seed), paths[-1])
    export(DetectorNet(4), tmp_path / "first.onnx", {"seed": 1, "steps": 8000})
    out = tmp_path / "soup" / "detector.onnx"
    average_detector.main(
        ["--tuned", *map(str, paths), "--recipe-from", str(tmp_path / "first.onnx")]
        + ["--width", "4", "--out", str(out)]
    )
    assert recipe_of(out) == {"seed": 1, "steps": 8000, "averaged": [str(p) for p in paths]}
    Detector(out).detect(torch.rand(240, 320, 3).mul(255).byte().numpy())  # loads and runs
    assert Detector(out).leaning_from == LEANING_FROM


def test_the_soup_carries_the_leaning_threshold_chosen_for_it(tmp_path):
    torch.save(run(1), tmp_path / "detector-1.pt")
    out = tmp_path / "detector.onnx"
    average_detector.main(
        ["--tuned", str(tmp_path / "detector-1.pt"), "--width", "4", "--leaning-from", "0.65"]
        + ["--out", str(out)]
    )
    assert Detector(out).leaning_from == 0.65
