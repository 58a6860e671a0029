"""Averaging two face models' weights (models.average_faces)."""

from __future__ import annotations

import pytest
import torch

from models import average_faces, train_faces
from models.face_net import FaceNet, from_onnx
from models.metadata import recipe_of
from tests.models.nets import face_net_as_if_trained


@pytest.fixture
def base_and_tuned(tmp_path):
    train_faces.export(face_net_as_if_trained(), tmp_path / "base.onnx", {"seed": 3})
    tuned = from_onnx(tmp_path / "base.onnx")
    with torch.no_grad():  # a fine-tune moves every weight, norms frozen
        for name, value in tuned.state_dict().items():
            if value.is_floating_point() and "running_" not in name:
                value.add_(torch.randn_like(value) * 0.05)
    torch.save(tuned.state_dict(), tmp_path / "tuned.pt")
    return tmp_path / "base.onnx", tmp_path / "tuned.pt"


def logits(model, x):
    with torch.no_grad():
        return model.eval()(x)[0]


def test_the_ends_of_the_average_are_its_two_models(base_and_tuned):
    base_path, tuned_path = base_and_tuned
    x = torch.rand(4, 3, 64, 64)
    base, tuned = from_onnx(base_path), train_faces.load_net(tuned_path)
    assert torch.allclose(
        logits(average_faces.averaged(from_onnx(base_path), tuned, 0.0), x), logits(base, x)
    )
    assert torch.allclose(
        logits(average_faces.averaged(from_onnx(base_path), tuned, 1.0), x), logits(tuned, x)
    )
    halfway = average_faces.averaged(from_onnx(base_path), tuned, 0.5).state_dict()
    for name, value in halfway.items():
        if value.is_floating_point():
            assert torch.allclose(value, (base.state_dict()[name] + tuned.state_dict()[name]) / 2, atol=1e-6)


def test_the_average_is_written_with_the_tuned_runs_recipe(base_and_tuned, tmp_path):
    base_path, tuned_path = base_and_tuned
    out = tmp_path / "faces-fast.onnx"
    average_faces.main(
        ["--base", str(base_path), "--tuned", str(tuned_path), "--recipe-from", str(base_path)]
        + ["--share", "0.3", "--out", str(out)]
    )
    recipe = recipe_of(out)
    assert recipe["seed"] == 3
    assert recipe["averaged"] == {"base": str(base_path), "tuned": str(tuned_path), "share": 0.3}


def test_a_share_outside_the_two_models_is_refused(base_and_tuned):
    base_path, tuned_path = base_and_tuned
    with pytest.raises(ValueError, match="--share must lie between 0 and 1: got 1.5"):
        average_faces.averaged(from_onnx(base_path), train_faces.load_net(tuned_path), 1.5)


def test_models_of_different_shapes_are_refused(base_and_tuned):
    base_path, _ = base_and_tuned
    with pytest.raises(ValueError, match="differ in shape"):
        average_faces.averaged(from_onnx(base_path), FaceNet(len(train_faces.LABELS), width=8), 0.3)
