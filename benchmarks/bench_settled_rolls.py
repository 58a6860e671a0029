"""A settled roll's dice as the camera reports them, scored against rendered truth.

    python benchmarks/bench_settled_rolls.py data/scenes/heldout data/scenes/heldout-d6-hires
    python benchmarks/bench_settled_rolls.py data/scenes/heldout --camera CAMERA.onnx   # another camera model

Each labelled still of a scene folder (datasets.scenes.render) is fed to a RollTracker as the
camera would see a throw: a black frame, then the still with fresh sensor noise until the
roll settles (``--noise``; ``--sway`` moves each frame as a camera held in the hand would,
``--jpeg`` sends it as a phone's MJPEG stream does), each frame read as a video frame is (the
camera's face model, one turn) and the settled roll looked at again as a photo (the default
model), as the web camera and `dicescore watch` do. The event's dice are matched to the
truth as models/detector_card.py matches a photo's finds. A still whose roll gives no event
is counted apart (the last column counts every still's dice, such a still's as not found):
a hand resting by the dice holds the event back, as designed, and the still shows no hand
leaving. The black frame is no picture of the table before the throw, so
the hand check falls back on what the throw moved (``vision.tracker.differs_from``), and a
skin-coloured table holds back more stills here than at a real table, where the frame before
the throw shows the table as it lay.

A face the roll is unsure of (``vision.tracker.UNSURE_ROLL_FACE``, or ``UNSURE_DISPUTED_FACE``
where the second look names another face than the vote) is reported unread, and the
page scores it as its likeliest face, marked for a tap: such faces count as not read right,
and are counted apart by whether that likeliest face is right. A roll with a face named wrong
(or a die named where there is none) is one a player must catch without a mark.
"""

from __future__ import annotations

import argparse
import json
import tempfile
from collections import Counter
from pathlib import Path

import cv2
import numpy as np
from bench_phone_photos import jpeg as as_jpeg

from datasets.scenes.render import truth_paths
from models.detector_card import SEEN, in_frame, match, read_right, scene_kind, wholly_right
from vision.detector import Detector
from vision.faces import DEFAULT_MODEL, FAST_MODEL, FaceClassifier
from vision.pipeline import DiceReader
from vision.readings import DieReadings
from vision.tracker import RollTracker

SETTLING_FRAMES = 11  # more than the tracker's 9 at 30 fps
SENSOR_NOISE = 1.5  # grey levels: a still camera's frames differ by about this much


def settled_roll(image: np.ndarray, kind: str, detector, camera, photos, rng, noise: float, sway=0.0, jpeg=0):
    """The RollEvent the tracker reports for ``image`` thrown and settled, or None; each
    settled frame with fresh sensor ``noise``, moved by about ``sway`` pixels and, given a
    ``jpeg`` quality, sent as a JPEG (a phone's MJPEG stream)."""
    reader, photo_reader = DiceReader(kind, detector, camera), DiceReader(kind, detector, photos)
    tracker = RollTracker(fps=30, look_again=lambda frame: photo_reader.read(frame, still=True))
    tracker.update(np.zeros_like(image), DieReadings.empty())  # the throw: everything moved
    event = None
    for _ in range(SETTLING_FRAMES):
        frame = swayed(image, rng, sway) if sway else image
        frame = np.clip(frame + rng.normal(0, noise, image.shape), 0, 255).astype(np.uint8)
        if jpeg:
            frame = as_jpeg(frame, jpeg)
        event = tracker.update(frame, lambda frame=frame: reader.read(frame)) or event
    return event


def swayed(image: np.ndarray, rng, sway: float) -> np.ndarray:
    """``image`` moved by a random shift of about ``sway`` pixels each way, as a camera held
    in the hand moves between frames (Lanczos: the shift blurs it no more than it must)."""
    dx, dy = rng.normal(0, sway, 2)
    shift = np.float32([[1, 0, dx], [0, 1, dy]])
    size, flags = image.shape[1::-1], cv2.INTER_LANCZOS4
    return cv2.warpAffine(image, shift, size, flags=flags, borderMode=cv2.BORDER_REPLICATE)


def measure(folder: Path, detector, camera, photos, noise: float, sway=0.0, jpeg=0) -> Counter:
    counts = Counter()
    for truth_path in truth_paths(folder):
        truth = json.loads(truth_path.read_text())
        image = cv2.imread(str(truth_path.with_name(truth["image"])))
        rng = np.random.default_rng(0)  # each still's noise its own: a folder's order changes nothing
        event = settled_roll(image, scene_kind(truth), detector, camera, photos, rng, noise, sway, jpeg)
        dice = truth["dice"]
        must = [j for j, die in enumerate(dice) if die["visible"] >= SEEN and in_frame(die, image)]
        counts["every still's dice"] += len(must)
        if event is None:
            counts["no event"] += 1
            continue
        pairs, unmatched = match(event.dice, dice, image)
        matched = {j: i for i, j in pairs}
        counts["images"] += 1
        counts["must"] += len(must)
        counts["found"] += sum(j in matched for j in must)
        counts["finds"] += len(event.dice)
        counts["false"] += len(unmatched)
        counts["right"] += read_right(must, matched, event.dice.labels, dice)
        counts["wholly"] += wholly_right(must, matched, event.dice.labels, dice, len(unmatched))
        named_wrong = False
        for i, j in pairs:  # a die left unread is marked on the page, its likeliest face shown
            label, tops = event.dice.labels[i], event.dice.tops[i]
            if label is None:
                right_guess = bool(tops) and tops[0][0] == dice[j]["label"]
                counts["marked right" if right_guess else "marked wrong"] += 1
            named_wrong |= label is not None and label != dice[j]["label"]
        named_wrong |= any(event.dice.labels[i] is not None for i in unmatched)
        counts["named wrong"] += named_wrong
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", type=Path, nargs="+", help="labelled scene folders")
    parser.add_argument("--noise", type=float, default=SENSOR_NOISE, help="sensor noise, grey levels")
    parser.add_argument(
        "--sway", type=float, default=0.0, help="pixels each settled frame moves (a camera held in the hand)"
    )
    parser.add_argument(
        "--jpeg", type=int, default=0, help="send each frame as a JPEG of this quality (1-100)"
    )
    parser.add_argument("--camera", type=Path, default=FAST_MODEL, help="the face model for video frames")
    parser.add_argument("--photos", type=Path, default=DEFAULT_MODEL, help="the face model for a second look")
    args = parser.parse_args()
    for folder in args.folders:
        if not truth_paths(folder):
            parser.error(f"{folder} holds no labelled scenes (python -m datasets.scenes.render makes them)")
    detector = Detector()
    with tempfile.TemporaryDirectory() as no_examples:
        camera = FaceClassifier(args.camera, data_dir=no_examples)
        photos = FaceClassifier(args.photos, data_dir=no_examples)
        print(
            "| folder | stills with an event | dice | recall | precision | faces read right | wholly right "
            "| unread faces, their likeliest right / wrong | rolls with a face named wrong "
            "| every still's dice found / read right |"
        )
        print("| --- " * 10 + "|")
        for folder in args.folders:
            c = measure(folder, detector, camera, photos, args.noise, args.sway, args.jpeg)
            must, finds, every = max(c["must"], 1), max(c["finds"], 1), max(c["every still's dice"], 1)
            print(
                f"| {folder} | {c['images']} of {c['images'] + c['no event']} | {c['must']} "
                f"| {c['found'] / must:.1%} | {(c['finds'] - c['false']) / finds:.1%} "
                f"| {c['right'] / must:.1%} | {c['wholly']} | {c['marked right']} / {c['marked wrong']} "
                f"| {c['named wrong']} | {c['found'] / every:.1%} / {c['right'] / every:.1%} |"
            )


if __name__ == "__main__":
    main()
