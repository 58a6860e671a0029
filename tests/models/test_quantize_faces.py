"""models.quantize_faces: an 8-bit face model keeps its labels and metadata (its no-face cut
too), records how it was made, shrinks, and reads crops as its float model does."""

import json

import numpy as np
import onnx
import torch

from datasets.faces import HELDOUT_FAMILIES, render_set
from models import train_faces
from models.face_cut import set_not_a_face
from models.face_net import FaceNet
from models.quantize_faces import quantize
from vision.faces import FaceClassifier


def test_an_8_bit_model_reads_as_its_float_model(tmp_path):
    torch.manual_seed(0)
    float_path = tmp_path / "faces-w16.onnx"
    train_faces.export(FaceNet(len(train_faces.LABELS), width=16).eval(), float_path, {"width": 16})
    set_not_a_face(float_path, 0.75)
    out = tmp_path / "faces.onnx"
    recipe = quantize(float_path, out, count=100, seed=1, history="from nowhere")

    assert recipe["width"] == 16 and recipe["history"] == "from nowhere"
    assert (
        recipe["quantized"]["from"] == str(float_path)
        and "100 rendered crops" in recipe["quantized"]["calibration"]
    )
    meta = {entry.key: entry.value for entry in onnx.load(str(out)).metadata_props}
    assert json.loads(meta["recipe"]) == recipe
    assert out.stat().st_size < 0.5 * float_path.stat().st_size

    crops = render_set(50, 2, HELDOUT_FAMILIES)[0]  # not the calibration crops
    plain, eight_bit = (FaceClassifier(path, data_dir=tmp_path / "none") for path in (float_path, out))
    assert eight_bit.labels == plain.labels
    assert eight_bit.not_a_face == plain.not_a_face == 0.75  # the cut fitted to the float is kept
    cosines = np.sum(plain.embed(crops) * eight_bit.embed(crops), axis=1)
    assert np.median(cosines) > 0.95


def test_quantizing_is_deterministic(tmp_path):
    torch.manual_seed(1)
    float_path = tmp_path / "faces-w8.onnx"
    train_faces.export(FaceNet(len(train_faces.LABELS), width=8).eval(), float_path, {"width": 8})
    quantize(float_path, tmp_path / "a.onnx", count=50, seed=3)
    quantize(float_path, tmp_path / "b.onnx", count=50, seed=3)
    assert (tmp_path / "a.onnx").read_bytes() == (tmp_path / "b.onnx").read_bytes()
