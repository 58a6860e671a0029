"""Record in a face network's file the cut from which it calls a find no face.

    python -m models.face_cut models/faces-fast.onnx --not-a-face 0.8

A find the detector is unsure of is dropped when the face network calls it `none` at least
this surely (``vision.faces.FaceClassifier.not_a_face``; a file without a cut reads at
``vision.faces.NOT_A_FACE``).  How surely a network calls what it cannot read `none` moves
with its training, so the cut is fitted to each network (docs/vision.md, "Weighing a new
face network") and travels in its file, as the detector's fitted ``leaning_from`` does.
The graph and the other metadata are kept as they were.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from vision.faces import FaceClassifier, ModelFileError


def set_not_a_face(model: Path, cut: float) -> None:
    """Write ``cut`` into ``model``'s metadata as its ``not_a_face``, in place."""
    import onnx

    from models.metadata import metadata_of, set_metadata

    if not 0 < cut <= 1:
        raise ValueError(f"--not-a-face is a probability above 0 and at most 1: got {cut}")
    with tempfile.TemporaryDirectory() as no_examples:
        FaceClassifier(model, data_dir=no_examples)  # a usable face model, or ModelFileError naming it
    metadata = metadata_of(model) | {"not_a_face": cut}
    proto = onnx.load(str(model))
    set_metadata(proto, metadata)
    onnx.save(proto, str(model))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model", type=Path, help="a face model (.onnx), rewritten in place")
    parser.add_argument("--not-a-face", type=float, required=True, help="the cut fitted to it (0-1)")
    args = parser.parse_args(argv)
    try:
        set_not_a_face(args.model, args.not_a_face)
    except (ValueError, ModelFileError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    print(f"{args.model}: not_a_face {args.not_a_face}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
