"""Real photographs with no dice in them, read as `dicescore read` reads a photo: every die
it reports is a false one.

    python -m datasets.photos_without_dice test    # once: the photos, into data/photos-without-dice/test
    python benchmarks/bench_real_without_dice.py

The project has no real photo of its dice, but it can have real photos of everything else:
the sample photographs that scikit-image, scikit-learn and matplotlib ship (a coffee cup on
a wooden table, coins, gravel, a garage, a portrait, a page of text...; see
datasets/photos_without_dice.py). The reader's false finds there are the ones renders cannot
show: real textures, light and objects taken for dice (docs/vision.md, Limits, session 44).
`--model` reads with another face model, to compare. `--video` reads each photo as the camera
reads a video frame instead (one pass, the camera's model, one turn a frame): four frames a
photo, one at each turn, and the false dice counted as a frame's mean.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import cv2
import numpy as np

from datasets.photos_without_dice import FOLDER, photos
from vision.faces import ALL_TURNS, DEFAULT_MODEL, FAST_MODEL, FaceClassifier
from vision.pipeline import DiceReader
from vision.readings import DieReadings

KINDS = ("d6", "cubes", "square-shooters")


def read_as_frames(reader: DiceReader, image: np.ndarray) -> list[DieReadings]:
    """``image`` read as one video frame at each turn (the reader turns the next way each frame)."""
    return [reader.read(image) for _ in ALL_TURNS]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folder", type=Path, default=FOLDER / "test")
    parser.add_argument(
        "--model", type=Path, help="the face model to read with (default: a photo's, or the camera's)"
    )
    parser.add_argument("--video", action="store_true", help="read each photo as 4 video frames, one a turn")
    args = parser.parse_args()
    model = args.model or (FAST_MODEL if args.video else DEFAULT_MODEL)
    found_photos = photos(args.folder)
    if not found_photos:
        parser.error(f"no photos in {args.folder}: python -m datasets.photos_without_dice test fetches them")
    images = [(p.name, cv2.imread(str(p), cv2.IMREAD_COLOR)) for p in found_photos]
    classifier = FaceClassifier(model)
    frames = len(ALL_TURNS) if args.video else 1
    read_as = "4 video frames; false dice a frame" if args.video else "a photo"
    print(f"{model.name}, each photo read as {read_as}:")
    print(
        "| die kind | photos | false dice | photos with any | per photo (name: dice) | scores (median, max) |"
    )
    print("| --- | --- | --- | --- | --- | --- |")
    for kind in KINDS:
        reader = DiceReader(kind, classifier=classifier)
        found = {
            name: read_as_frames(reader, image) if args.video else [reader.read(image, still=True)]
            for name, image in images
        }
        counts = {name: sum(map(len, r)) / frames for name, r in found.items()}
        scores = np.concatenate([r.scores for reads in found.values() for r in reads] + [np.zeros(0)])
        listed = ", ".join(f"{name.rsplit('.', 1)[0]}: {n:g}" for name, n in counts.items() if n)
        spread = f"{np.median(scores):.2f}, {scores.max():.2f}" if len(scores) else "-"
        print(
            f"| {kind} | {len(images)} | {sum(counts.values()):g} | {sum(1 for n in counts.values() if n)} "
            f"| {listed or '-'} | {spread} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
