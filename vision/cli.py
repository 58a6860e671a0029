"""``dicescore faces CROP.png ... --dice KIND``: read face crops and print what they show."""

from __future__ import annotations

import argparse
import json
import sys


def add_faces_command(commands) -> None:
    faces = commands.add_parser("faces", help="read die-face crops (images) with the face classifier")
    faces.add_argument("crops", nargs="+", metavar="CROP.png")
    faces.add_argument("--dice", default="square-shooters", choices=("square-shooters", "cubes", "d6"))
    faces.add_argument("--model", metavar="PATH", help="face model (default: models/faces.onnx)")
    faces.add_argument("--json", action="store_true", help="one JSON object per crop")
    faces.set_defaults(run=faces_command)


def faces_command(args: argparse.Namespace) -> None:
    from vision.faces import ALL_TURNS, FaceClassifier, ModelFileError
    from vision.sources import SourceError, load_image

    try:
        classifier = FaceClassifier(args.model)
    except ModelFileError as error:
        fail(str(error))
    crops = []
    for path in args.crops:
        try:
            crops.append(load_image(path))
        except SourceError as error:
            fail(str(error))
    readings = classifier.classify(crops, kind=args.dice, turns=ALL_TURNS)  # no hurry: every look
    for path, reading in zip(args.crops, readings, strict=True):
        if args.json:
            top = [[label, round(p, 4)] for label, p in reading.top]
            print(
                json.dumps(
                    {
                        "crop": path,
                        "label": reading.label,
                        "confidence": round(reading.confidence, 4),
                        "top": top,
                    }
                )
            )
        else:
            others = ", ".join(f"{label} {p:.2f}" for label, p in reading.top[1:4])
            print(f"{path}: {reading.label or 'unreadable'} {reading.confidence:.2f}  (then {others})")


def fail(message: str):
    print(f"dicescore faces: error: {message}", file=sys.stderr)
    raise SystemExit(2)
