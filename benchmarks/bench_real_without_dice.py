"""Real photographs with no dice in them, read as `dicescore read` reads a photo: every die
it reports is a false one.

    python -m datasets.photos_without_dice test    # once: the photos, into data/photos-without-dice/test
    python benchmarks/bench_real_without_dice.py

The project has no real photo of its dice, but it can have real photos of everything else:
the sample photographs that scikit-image, scikit-learn and matplotlib ship (a coffee cup on
a wooden table, coins, gravel, a garage, a portrait, a page of text...; see
datasets/photos_without_dice.py). The reader's false finds there are the ones renders cannot
show: real textures, light and objects taken for dice (docs/vision.md, Limits, session 44).
`--model` reads with another face model, to compare.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import cv2
import numpy as np

from datasets.photos_without_dice import FOLDER, photos
from vision.faces import DEFAULT_MODEL, FaceClassifier
from vision.pipeline import DiceReader

KINDS = ("d6", "cubes", "square-shooters")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folder", type=Path, default=FOLDER / "test")
    parser.add_argument("--model", type=Path, default=DEFAULT_MODEL, help="the face model to read with")
    args = parser.parse_args()
    found_photos = photos(args.folder)
    if not found_photos:
        parser.error(f"no photos in {args.folder}: python -m datasets.photos_without_dice test fetches them")
    images = [(p.name, cv2.imread(str(p), cv2.IMREAD_COLOR)) for p in found_photos]
    classifier = FaceClassifier(args.model)
    print(
        "| die kind | photos | false dice | photos with any | per photo (name: dice) | scores (median, max) |"
    )
    print("| --- | --- | --- | --- | --- | --- |")
    for kind in KINDS:
        reader = DiceReader(kind, classifier=classifier)
        found = {name: reader.read(image, still=True) for name, image in images}
        scores = np.concatenate([readings.scores for readings in found.values()] + [np.zeros(0)])
        listed = ", ".join(f"{name.rsplit('.', 1)[0]}: {len(r)}" for name, r in found.items() if len(r))
        spread = f"{np.median(scores):.2f}, {scores.max():.2f}" if len(scores) else "-"
        print(
            f"| {kind} | {len(images)} | {len(scores)} | {sum(1 for r in found.values() if len(r))} "
            f"| {listed or '-'} | {spread} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
