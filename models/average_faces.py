"""Average two face models' weights (a "model soup") into one ONNX file:

    python -m models.average_faces --base data/faces/faces-fast-13.onnx \\
        --tuned data/faces/checkpoint-40-500000-scenes68436-distilled-degraded0.5-epoch7.pt \\
        --recipe-from data/faces/faces-fast.onnx --share 0.3 --out models/faces-fast.onnx

``--tuned`` must have been trained on from ``--base`` (``train_faces --init BASE.onnx``), so
that the two lie in one basin of the loss and their folded norms are the same: the average
then reads between them, here some of a noise-hardened fine-tune's robustness with most of
the base's clean accuracy (docs/vision.md).  The result keeps the tuned run's recipe, with
the average recorded in it, so ``python -m models.face_card`` can write its card.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import torch

from models.face_net import from_onnx
from models.metadata import recipe_of
from models.train_faces import export, load_net


def averaged(base: torch.nn.Module, tuned: torch.nn.Module, share: float) -> torch.nn.Module:
    """``base`` with each weight moved ``share`` of the way to ``tuned``'s (0: base, 1: tuned)."""
    if not 0 <= share <= 1:
        raise ValueError(f"--share must lie between 0 and 1: got {share}")
    tuned_weights = tuned.state_dict()
    shapes = {key: value.shape for key, value in base.state_dict().items()}
    if {key: value.shape for key, value in tuned_weights.items()} != shapes:
        raise ValueError("the two models differ in shape: train the tuned one with --init BASE.onnx")
    mixed = {
        key: torch.lerp(value, tuned_weights[key].to(value.dtype), share)
        if value.is_floating_point()
        else value
        for key, value in base.state_dict().items()
    }
    base.load_state_dict(mixed)
    return base.eval()


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", type=Path, required=True, help="a float ONNX face model")
    parser.add_argument("--tuned", type=Path, required=True, help="a checkpoint trained on from --base")
    parser.add_argument("--recipe-from", type=Path, help="the tuned run's ONNX export, for its recipe")
    parser.add_argument("--share", type=float, default=0.3, help="of the way from --base to --tuned")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    recipe = recipe_of(args.recipe_from) if args.recipe_from else {}
    recipe["averaged"] = {"base": str(args.base), "tuned": str(args.tuned), "share": args.share}
    model = averaged(from_onnx(args.base), load_net(args.tuned), args.share)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    export(model, args.out, recipe)


if __name__ == "__main__":
    main()
