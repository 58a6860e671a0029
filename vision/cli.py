"""``dicescore faces CROP.png ... --dice KIND``: read face crops and print what they show.
``dicescore teach LABEL=CROP.png ... --dice KIND``: teach the face classifier a dice set,
one crop a face."""

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


def add_teach_command(commands) -> None:
    teach = commands.add_parser(
        "teach",
        help="teach the face classifier your dice: one crop of a die's top face for each face",
        description="Teach the face classifier a dice set: one crop of each face, named by its"
        " label (5H, JOKER_RED, CUBES, BLANK, 1-6). Once every face of the kind is taught, the"
        " camera and `dicescore read` read that set better (docs/vision.md, 'Teaching a dice set').",
    )
    teach.add_argument("faces", nargs="*", metavar="LABEL=CROP.png")
    teach.add_argument("--dice", default="square-shooters", choices=("square-shooters", "cubes", "d6"))
    teach.add_argument("--forget", action="store_true", help="forget every face taught before, first")
    teach.set_defaults(run=teach_command)


def teach_command(args: argparse.Namespace) -> None:
    from scoring.faces import UnknownFace, die_kind
    from vision.faces import FAST_MODEL, FaceClassifier, ModelFileError
    from vision.sources import SourceError, load_image

    kind = die_kind(args.dice)
    lessons = []
    for given in args.faces:
        label, _, path = given.partition("=")
        if not path:
            fail(f"{given}: name each crop as LABEL=CROP.png, e.g. 5H=five-of-hearts.png", "teach")
        try:
            label = kind.check(label).label
            lessons.append((label, load_image(path)))
        except (UnknownFace, SourceError) as error:
            fail(str(error), "teach")
    try:
        classifier = FaceClassifier(FAST_MODEL)  # both models read what it stores
    except ModelFileError as error:
        fail(str(error), "teach")
    try:
        if args.forget:
            classifier.forget()
            print(f"forgot every face taught before (in {classifier.data_dir})")
        for label, crop in lessons:
            classifier.learn(crop, label, kind.name)
    except OSError as error:  # the user's data folder: full, or not writable
        fail(f"could not change what was taught: {error}", "teach")
    known = classifier.taught_faces(kind.name)
    missing = [label for label in kind.labels if label not in known]
    print(f"taught {len(lessons)} crops; {len(known)} of {len(kind.labels)} faces of {kind.name} dice known")
    if missing:
        print(f"not yet taught: {' '.join(missing)}")
    else:
        print(f"the {kind.name} set is taught whole")


def faces_command(args: argparse.Namespace) -> None:
    from vision.faces import ALL_TURNS, FaceClassifier, ModelFileError
    from vision.sources import SourceError, load_image

    try:
        classifier = FaceClassifier(args.model)
    except ModelFileError as error:
        fail(str(error))
    crops, paths = [], []
    for path in args.crops:  # a bad crop is reported, and the others still read
        try:
            crops.append(load_image(path))
            paths.append(path)
        except SourceError as error:
            print(f"dicescore faces: error: {error}", file=sys.stderr)
    readings = classifier.classify(crops, kind=args.dice, turns=ALL_TURNS)  # no hurry: every look
    for path, reading in zip(paths, readings, strict=True):
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
    if len(paths) < len(args.crops):
        raise SystemExit(2)


def fail(message: str, command: str = "faces"):
    print(f"dicescore {command}: error: {message}", file=sys.stderr)
    raise SystemExit(2)
