"""Quantize a face model to 8-bit integers: a quarter of the file, two to three times faster.

    python -m models.quantize_faces --model data/faces/faces-w96.onnx --out models/faces.onnx

Static quantization with onnxruntime's tools: weights per output channel, activations per
tensor, their ranges calibrated on seeded rendered crops of the trained style families (and
`none`).  Weights are kept to 7 bits (``reduce_range``) so that CPUs without VNNI, which sum
pairs of 8-bit products in 16 bits, cannot saturate.  The labels, cosine scale, input size,
no-face cut (``models.face_cut``) and recipe metadata are kept; the recipe records the
quantization.  Deterministic: the same model and seed give the same file.
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path

import numpy as np

from datasets.faces import TRAIN_FAMILIES, render_set
from vision.faces import FaceClassifier

CALIBRATION_SEED = 6006
CALIBRATION_CROPS = 1000
CALIBRATION_BATCH = 50


def calibration_batches(classifier: FaceClassifier, count: int, seed: int) -> list[np.ndarray]:
    """Seeded rendered crops, prepared as the classifier feeds them, in batches."""
    crops = render_set(count, seed, TRAIN_FAMILIES)[0]
    prepared = classifier.prepare(crops)
    return [prepared[i : i + CALIBRATION_BATCH] for i in range(0, len(prepared), CALIBRATION_BATCH)]


def quantize(
    model: Path,
    out: Path,
    count: int = CALIBRATION_CROPS,
    seed: int = CALIBRATION_SEED,
    history: str | None = None,
) -> dict:
    """Write the 8-bit ``out`` from the float ``model``; returns ``out``'s recipe.  ``history``
    says how the float model's --init weights were trained, for the model card."""
    import onnx
    from onnxruntime.quantization import CalibrationDataReader, QuantFormat, QuantType, quantize_static
    from onnxruntime.quantization.shape_inference import quant_pre_process

    from models.metadata import metadata_of, set_metadata

    with tempfile.TemporaryDirectory() as no_examples:
        batches = calibration_batches(FaceClassifier(model, data_dir=no_examples), count, seed)

    class Calibration(CalibrationDataReader):
        def __init__(self):
            self.batches = iter(batches)

        def get_next(self):
            batch = next(self.batches, None)
            return None if batch is None else {"crops": batch}

    metadata = metadata_of(model)
    recipe = json.loads(metadata.get("recipe", "{}"))
    if history:
        recipe["history"] = history
    recipe["quantized"] = {
        "from": str(model),
        "weights": "int8 per channel, 7-bit range",
        "activations": "uint8 per tensor",
        "calibration": f"{count} rendered crops of the trained families, seed {seed}",
    }
    metadata["recipe"] = json.dumps(recipe)
    with tempfile.TemporaryDirectory() as work:
        prepared = Path(work) / "prepared.onnx"
        # the graph optimised and shapes inferred first, as onnxruntime's tools advise
        quant_pre_process(str(model), str(prepared), skip_symbolic_shape=True)
        quantize_static(
            str(prepared),
            str(out),
            Calibration(),
            quant_format=QuantFormat.QOperator,
            per_channel=True,
            reduce_range=True,
            activation_type=QuantType.QUInt8,
            weight_type=QuantType.QInt8,
        )
    quantized = onnx.load(str(out))
    set_metadata(quantized, metadata)
    onnx.save(quantized, str(out))
    return recipe


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", type=Path, required=True, help="the float face model (.onnx)")
    parser.add_argument("--out", type=Path, required=True, help="where to write the 8-bit model")
    parser.add_argument("--calibration-crops", type=int, default=CALIBRATION_CROPS)
    parser.add_argument("--seed", type=int, default=CALIBRATION_SEED)
    parser.add_argument("--history", help="how the float model's --init weights were trained, for the card")
    args = parser.parse_args(argv)
    quantize(args.model, args.out, args.calibration_crops, args.seed, args.history)
    sizes = [path.stat().st_size / 1e6 for path in (args.out, args.model)]
    print(f"{args.out}: {sizes[0]:.2f} MB (from {sizes[1]:.2f} MB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
