"""Average detector runs' weights (a "model soup") into one ONNX file:

    python -m models.average_detector --tuned data/detector/detector-30-3200-w20.pt \\
        data/detector/detector-31-3200-w20.pt data/detector/detector-32-3200-w20.pt \\
        --recipe-from data/detector/run30/detector.onnx --leaning-from 0.7 --out models/detector.onnx

Each ``--tuned`` checkpoint must have been fine-tuned from one start (``train_detector --init
models/detector.onnx`` with different seeds), so that they lie in one basin of the loss: their
mean then finds more dice on held-out tables than either run (models/detector.md, sessions 24
and 25). The result keeps the first run's recipe with the average recorded in it, so that
``python -m models.detector_card`` can write its card.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import torch

from models.detector_net import DetectorNet
from models.metadata import recipe_of
from models.train_detector import export


def soup(checkpoints: list[dict[str, torch.Tensor]], width: int) -> DetectorNet:
    """A detector whose every float weight (and norm statistic) is the runs' mean."""
    if not checkpoints:
        raise ValueError("no checkpoints to average")
    shapes = {key: value.shape for key, value in checkpoints[0].items()}
    for weights in checkpoints[1:]:
        if {key: value.shape for key, value in weights.items()} != shapes:
            raise ValueError("the runs differ in shape: fine-tune each from one --init")
    mean = {
        key: torch.stack([weights[key] for weights in checkpoints]).mean(0)
        if value.is_floating_point()
        else value  # a norm's batch count: not a weight
        for key, value in checkpoints[0].items()
    }
    model = DetectorNet(width)
    model.load_state_dict(mean)
    return model.eval()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tuned", type=Path, nargs="+", required=True, help="checkpoints (.pt) of one start")
    parser.add_argument("--recipe-from", type=Path, help="the first run's ONNX export, for its recipe")
    parser.add_argument("--width", type=int, default=20)
    parser.add_argument(
        "--leaning-from", type=float, help="the cocked output from which a die leans (else vision's default)"
    )
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    recipe = recipe_of(args.recipe_from) if args.recipe_from else {}
    recipe["averaged"] = [str(path) for path in args.tuned]
    checkpoints = [torch.load(path, weights_only=True) for path in args.tuned]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    export(soup(checkpoints, args.width), args.out, recipe, args.leaning_from)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
