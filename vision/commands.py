"""The commands that read dice from pictures:

* ``dicescore read IMAGE... --dice KIND --json`` prints one JSON object per image,
  ``{"image", "dice": [{"label", "confidence", "center", "quad", "top", "cocked"}]}``;
* ``dicescore watch --source SRC --dice KIND`` prints one JSON line per settled roll,
  ``{"dice": [...], "frame", "seconds", "count_ok", "cocked"}``, the shape ``webui`` replays;
* ``dicescore faces CROP.png ... --dice KIND`` reads face crops and prints what they show;
* ``dicescore teach LABEL=CROP.png ... --dice KIND`` teaches the face classifier a dice
  set, one crop a face.

The parser names them all; each one's heavy imports (OpenCV, onnxruntime) come only when it runs.
"""

from __future__ import annotations

import argparse
import json
import logging
import math
import sys
import time

from scoring.faces import DIE_KINDS

KINDS = tuple(DIE_KINDS)
DICE_HELP = "the dice on the table: square-shooters (card dice), cubes or d6 (pip dice; the default)"


def add_vision_commands(commands) -> None:
    read = commands.add_parser("read", help="find and read every die in images")
    read.add_argument("images", nargs="+", metavar="IMAGE", help="a photo of the dice (JPEG, PNG, WebP...)")
    read.add_argument("--dice", default="d6", choices=KINDS, help=DICE_HELP)
    read.add_argument("--json", action="store_true", help="one JSON object per image")
    read.set_defaults(run=read_command)

    watch = commands.add_parser("watch", help="watch a table; print one JSON line per settled roll")
    watch.add_argument(
        "--source", default="0", metavar="SRC", help="camera index, demo, URL, video or folder"
    )
    watch.add_argument("--dice", default="d6", choices=KINDS, help=DICE_HELP)
    watch.add_argument(
        "--settle", type=seconds, default=0.3, metavar="SECONDS", help="still time that ends a roll"
    )
    watch.set_defaults(run=watch_command)

    faces = commands.add_parser("faces", help="read die-face crops (images) with the face classifier")
    faces.add_argument("crops", nargs="+", metavar="CROP.png")
    faces.add_argument(
        "--dice", default="square-shooters", choices=KINDS, help="the crops' dice (default: square-shooters)"
    )
    faces.add_argument("--model", metavar="PATH", help="face model (default: models/faces.onnx)")
    faces.add_argument("--json", action="store_true", help="one JSON object per crop")
    faces.set_defaults(run=faces_command)

    teach = commands.add_parser(
        "teach",
        help="teach the face classifier your dice: one crop of a die's top face for each face",
        description="Teach the face classifier a dice set: one crop of each face, named by its"
        " label (5H, JOKER_RED, CUBES, BLANK, 1-6). Once every face of the kind is taught, the"
        " camera and `dicescore read` read that set better (docs/vision.md, 'Teaching a dice set').",
    )
    teach.add_argument("faces", nargs="*", metavar="LABEL=CROP.png")
    teach.add_argument(
        "--dice", default="square-shooters", choices=KINDS, help="the set taught (default: square-shooters)"
    )
    teach.add_argument(
        "--forget",
        action="store_true",
        help="forget the faces taught for --dice's kind first (other sets stay)",
    )
    teach.set_defaults(run=teach_command)


def seconds(text: str) -> float:
    """A time on the command line: a number of seconds, finite and not negative."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not math.isfinite(value) or value < 0:
        raise argparse.ArgumentTypeError(f"{text!r}: give a number of seconds, 0 or more")
    return value


def load_reader(kind: str, command: str, detector=None):
    """``read`` reads photos with the face model that reads best; ``watch`` reads video with
    the camera's fast one (and each settled roll again with a ``read`` reader)."""
    from vision.detector import DetectorFileError
    from vision.faces import DEFAULT_MODEL, FAST_MODEL, FaceClassifier, ModelFileError
    from vision.pipeline import DiceReader

    try:
        return DiceReader(kind, detector, FaceClassifier(DEFAULT_MODEL if command == "read" else FAST_MODEL))
    except (DetectorFileError, ModelFileError) as error:
        fail(command, str(error))


def read_command(args: argparse.Namespace) -> None:
    from vision.sources import SourceError, load_image

    reader = load_reader(args.dice, "read")
    failed = False
    for path in args.images:
        try:
            image = load_image(path)
        except SourceError as error:
            print(f"dicescore read: error: {error}", file=sys.stderr)
            if args.json:  # still one object per image: a script pairs them with its photos
                print(json.dumps({"image": path, "dice": [], "error": str(error)}), flush=True)
            failed = True
            continue
        readings = reader.read(image, still=True)
        if args.json:
            dice = readings.to_json()
            print(json.dumps({"image": path, "dice": dice}), flush=True)
        else:
            faces = " ".join(label or "?" for label in readings.labels) or "no dice"
            print(f"{path}: {faces}", flush=True)
    if failed:
        raise SystemExit(2)


def watch_command(args: argparse.Namespace) -> None:
    from scoring.faces import die_kind
    from vision.framing import seen_at, size_hint, unread_hint
    from vision.sources import Reconnecting, SourceError, open_source
    from vision.tracker import RollTracker

    logging.basicConfig(level=logging.WARNING, format="dicescore watch: %(message)s", stream=sys.stderr)
    try:
        source = Reconnecting(lambda: open_source(args.source))
    except SourceError as error:
        fail("watch", str(error))
    reader = load_reader(args.dice, "watch")
    photo_reader = load_reader(args.dice, "read", reader.detector)  # names a settled roll's faces

    def hint(line: str | None) -> None:
        if line and args.source != "demo":  # nobody can move the demo's camera closer
            print(f"dicescore watch: {line}", file=sys.stderr)

    tracker = RollTracker(
        fps=source.fps,
        settle_seconds=args.settle,
        expected_dice=die_kind(args.dice).dice,
        look_again=lambda frame: photo_reader.read(frame, still=True),
        stills=source.stills,
        clock=time.monotonic if source.live else None,
        could_not_read=lambda finds: hint(unread_hint(args.dice)),
    )
    rate = "" if source.live else f" at {source.fps:g} fps"  # a stream's stated rate is often wrong
    print(f"dicescore watch: watching {source.name}{rate}", file=sys.stderr)
    with source:
        try:
            for frame in source:
                event = tracker.update(frame, lambda frame=frame: reader.read(frame))
                if event is not None:
                    print(json.dumps(event.to_json()), flush=True)
                    hint(size_hint(event.dice, args.dice, seen_at(reader.detector, frame, source.stills)))
        except SourceError as error:  # a live source reconnects; a file or folder ends here
            fail("watch", str(error))


def teach_command(args: argparse.Namespace) -> None:
    from scoring.faces import UnknownFace, die_kind
    from vision.faces import FAST_MODEL, FaceClassifier, ModelFileError
    from vision.sources import SourceError, load_image

    kind = die_kind(args.dice)
    lessons = []
    for given in args.faces:
        label, _, path = given.partition("=")
        if not path:
            fail("teach", f"{given}: name each crop as LABEL=CROP.png, e.g. 5H=five-of-hearts.png")
        try:
            label = kind.check(label).label
            lessons.append((label, load_image(path)))
        except (UnknownFace, SourceError) as error:
            fail("teach", str(error))
    try:
        classifier = FaceClassifier(FAST_MODEL)  # both models read what it stores
    except ModelFileError as error:
        fail("teach", str(error))
    try:
        if args.forget:
            classifier.forget(kind=kind.name)
            print(f"forgot the faces taught for {kind.name} dice (in {classifier.data_dir})")
        new = sum(bool(classifier.learn(crop, label, kind.name)) for label, crop in lessons)
    except OSError as error:  # the user's data folder: full, or not writable
        fail("teach", f"could not change what was taught: {error}")
    known = classifier.taught_faces(kind.name)
    missing = [label for label in kind.labels if label not in known]
    before = f" ({len(lessons) - new} taught so before)" if new < len(lessons) else ""
    print(f"taught {new} crops{before}; {len(known)} of {len(kind.labels)} faces of {kind.name} dice known")
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
        fail("faces", str(error))
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


def fail(command: str, message: str):
    print(f"dicescore {command}: error: {message}", file=sys.stderr)
    raise SystemExit(2)
