"""How the face networks read dice cast in swirled or speckled plastic (datasets.faces.plastics),
and dice whose paint lies in drilled hollows (datasets.faces.hollows).

    python benchmarks/bench_plastics.py
    python benchmarks/bench_plastics.py --families framed --model FILE.onnx --crops 300

Each crop is a face of its family drawn on flat plastic as training draws it, then cast in
one plastic (``cast_in``: the print stays, the plastic shows where the flat colour did) and
seen through the renderer's camera; every plastic gets the same faces, cameras and tables, so
a row differs from the flat one only in the plastic. Held-out plastics are made in ways no
training face is. The row "drilled" is the flat plastic with the paint sunk in hollows, lit
from a random side, as a real pip die's pips are: no training face is drilled. Read with the
die kind's mask, as a photo (the default network at four turns, with its second look and the
pip count, as `dicescore read` reads) and as one video frame (the camera's network at one
turn): read right / read as another face (the rest unread).
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from datasets.faces.plastics import HELDOUT_PLASTICS, TRAIN_PLASTICS
from datasets.faces.render import render_in_plastic
from vision.faces import DEFAULT_MODEL, FAST_MODEL, FaceClassifier

KINDS = {"d6_pips": "d6", "numerals": "d6", "cubes_word": "cubes", "framed": "cubes"}
SEED = 4321


def scores(readings, truth) -> str:
    right = np.mean([r.label == t for r, t in zip(readings, truth, strict=True)])
    wrong = np.mean([r.label is not None and r.label != t for r, t in zip(readings, truth, strict=True)])
    return f"{100 * right:.1f} / {100 * wrong:.1f}%"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--families", nargs="+", choices=sorted(KINDS), default=["d6_pips", "cubes_word"])
    parser.add_argument("--crops", type=int, default=600, help="crops a family and plastic")
    parser.add_argument("--model", type=Path, default=DEFAULT_MODEL, help="the network read as a photo")
    parser.add_argument("--camera-model", type=Path, default=FAST_MODEL, help="the network read as a frame")
    args = parser.parse_args()
    photo = FaceClassifier(args.model, data_dir="/nonexistent/learned")
    video = FaceClassifier(args.camera_model, data_dir="/nonexistent/learned")
    print("| family | plastic | as a photo: right / another face | one video frame: right / another face |")
    print("| --- | --- | --- | --- |")
    for family in args.families:
        kind = KINDS[family]
        for style, drilled in (
            (None, False),
            (None, True),
            *((s, False) for s in TRAIN_PLASTICS + HELDOUT_PLASTICS),
        ):
            crops, truth = render_in_plastic(style, family, args.crops, SEED, drilled=drilled)
            name = "drilled" if drilled else "flat" if style is None else style
            name += " (held out)" if style in HELDOUT_PLASTICS else ""
            as_photo = photo.classify(crops, kind=kind)
            as_frame = video.classify(crops, kind=kind, turns=(0,), second_look=False, pips=False)
            row = f"| {family} | {name} | {scores(as_photo, truth)} | {scores(as_frame, truth)} |"
            print(row, flush=True)


if __name__ == "__main__":
    main()
