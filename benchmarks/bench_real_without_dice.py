"""Real photographs with no dice in them, read as `dicescore read` reads a photo: every die
it reports is a false one.

    python -m datasets.photos_without_dice test    # once: the photos, into data/photos-without-dice/test
    python benchmarks/bench_real_without_dice.py [--as photo|video|roll] [--model FACES.onnx] \
        [--detector DETECTOR.onnx]

The project has no real photo of its dice, but it can have real photos of everything else:
the sample photographs that scikit-image, scikit-learn and matplotlib ship (a coffee cup on
a wooden table, coins, gravel, a garage, a portrait, a page of text...; see
datasets/photos_without_dice.py). The reader's false finds there are the ones renders cannot
show: real textures, light and objects taken for dice (docs/vision-limits.md, session 44).
`--as` reads each photo another way: as the camera reads video frames (one pass, the camera's
model, one turn a frame: four frames, one at each turn, counted as a frame's mean), or fed to
the roll tracker as a settled roll (`bench_settled_rolls.settled_roll`: a throw, noisy settled
frames voted on, the settled frame looked at again as a photo). `--model` reads with another
face model (the photo's, or with `--as video` or `roll` the camera's), `--detector` with another
detector.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

import cv2
import numpy as np
from bench_settled_rolls import SENSOR_NOISE, settled_roll

from datasets.photos_without_dice import FOLDER, photos
from vision.detector import Detector
from vision.faces import ALL_TURNS, DEFAULT_MODEL, FAST_MODEL, FaceClassifier
from vision.pipeline import DiceReader

KINDS = ("d6", "cubes", "square-shooters")
READ_AS = {
    "photo": "a photo",
    "video": "4 video frames, one at each turn; false dice a frame",
    "roll": "a settled roll",
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folder", type=Path, default=FOLDER / "test")
    parser.add_argument("--as", dest="read_as", choices=tuple(READ_AS), default="photo")
    parser.add_argument("--model", type=Path, help="the face model to compare (a photo's, or the camera's)")
    parser.add_argument("--detector", type=Path, help="the detector to compare (default: the shipped one)")
    args = parser.parse_args()
    found_photos = photos(args.folder)
    if not found_photos:
        parser.error(f"no photos in {args.folder}: python -m datasets.photos_without_dice test fetches them")
    images = [(p.name, cv2.imread(str(p), cv2.IMREAD_COLOR)) for p in found_photos]
    as_a_photo = args.read_as == "photo"
    compared = args.model or (DEFAULT_MODEL if as_a_photo else FAST_MODEL)
    photo_model = compared if as_a_photo else DEFAULT_MODEL  # a settled roll's second look
    camera_model = FAST_MODEL if as_a_photo else compared
    detector = Detector(args.detector)
    print(f"each photo read as {READ_AS[args.read_as]} ({compared.name}, {detector.model_path.name}):")
    print(
        "| die kind | photos | false dice | photos with any | per photo (name: dice) "
        "| scores (median, max) |\n" + "| --- " * 6 + "|"
    )
    with tempfile.TemporaryDirectory() as no_examples:
        camera = FaceClassifier(camera_model, data_dir=no_examples)
        photo = FaceClassifier(photo_model, data_dir=no_examples)
        for kind in KINDS:
            found = {name: read(image, kind, args.read_as, detector, camera, photo) for name, image in images}
            print(row(kind, found), flush=True)


def row(kind: str, found: dict[str, list]) -> str:
    """One die kind's line of the table: ``found`` is each photo's DieReadings."""
    counts = {name: sum(map(len, reads)) / max(len(reads), 1) for name, reads in found.items()}
    scores = np.concatenate([r.scores for reads in found.values() for r in reads] + [np.zeros(0)])
    listed = ", ".join(f"{name.rsplit('.', 1)[0]}: {n:g}" for name, n in counts.items() if n) or "-"
    spread = f"{np.median(scores):.2f}, {scores.max():.2f}" if len(scores) else "-"
    with_any = sum(1 for n in counts.values() if n)
    return f"| {kind} | {len(found)} | {sum(counts.values()):g} | {with_any} | {listed} | {spread} |"


def read(image: np.ndarray, kind: str, read_as: str, detector, camera, photo) -> list:
    """The DieReadings ``image`` gives read ``read_as`` (see ``READ_AS``): one, four video frames'
    or none (a settled roll that gives no event)."""
    if read_as == "photo":
        return [DiceReader(kind, detector, photo).read(image, still=True)]
    if read_as == "video":
        reader = DiceReader(kind, detector, camera)  # it turns the crops the next way each frame
        return [reader.read(image) for _ in ALL_TURNS]
    event = settled_roll(image, kind, detector, camera, photo, np.random.default_rng(0), SENSOR_NOISE)
    return [event.dice] if event is not None else []


if __name__ == "__main__":
    main()
