"""Rendered photos read as a phone would save them (blurred a little, noisy, JPEG-compressed)
and as other light would leave them (a white balance left warm or cold, dim, overexposed).

    python benchmarks/bench_phone_photos.py data/scenes/heldout-d6-hires data/scenes/heldout-cubes-hires

The photo sets (models/detector.md, `--photos`) are clean renders; real photos, which
`dicescore read` will be judged on, are not. Each folder is read by `dicescore read`'s reader
as rendered and after each degradation below (every image with its own seeded noise), and
scored as the detector card scores a photo: recall / precision / faces read right / images
wholly right. docs/vision-limits.md (session 27) has the first numbers.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import cv2
import numpy as np

from datasets.scenes.render import truth_paths
from models.detector_card import evaluate
from models.train_detector import load_scenes
from vision.detector import Detector
from vision.faces import FaceClassifier


def as_saved(
    image: np.ndarray, rng: np.random.Generator, blur: float, noise: float, quality: int
) -> np.ndarray:
    """``image`` blurred, noised and through a JPEG round trip, as a phone saves a photo."""
    blurred = cv2.GaussianBlur(image, (0, 0), blur)
    noisy = np.clip(blurred + rng.normal(0, noise, image.shape), 0, 255).astype(np.uint8)
    return cv2.imdecode(cv2.imencode(".jpg", noisy, [cv2.IMWRITE_JPEG_QUALITY, quality])[1], cv2.IMREAD_COLOR)


def lit(image: np.ndarray, gains: tuple[float, float, float]) -> np.ndarray:
    """``image`` under other light, or another exposure or white balance: each channel (B, G,
    R) scaled by its gain, clipped as a sensor clips."""
    return np.clip(image * np.float32(gains), 0, 255).astype(np.uint8)


# name: what is done to a rendered photo (image, its own seeded noise) -> the photo read
DEGRADATIONS = {
    "as rendered": None,
    "a phone in fair light: blur 0.8, noise 3, JPEG 80": lambda image, rng: as_saved(
        image, rng, 0.8, 3.0, 80
    ),
    "a phone in dim light: blur 1.2, noise 8, JPEG 60": lambda image, rng: as_saved(image, rng, 1.2, 8.0, 60),
    # the light the renders' white balance left: a phone's auto white balance is partial
    "a warm lamp left in the white balance (B x0.65, G x0.95, R x1.15)": lambda image, rng: lit(
        image, (0.65, 0.95, 1.15)
    ),
    "a cold light left in the white balance (B x1.2, R x0.8)": lambda image, rng: lit(image, (1.2, 1.0, 0.8)),
    "a dim room: exposure x0.4, then noise 5, JPEG 80": lambda image, rng: as_saved(
        lit(image, (0.4, 0.4, 0.4)), rng, 0.5, 5.0, 80
    ),
    # a phone exposing for a dark table: pale faces clip to white
    "overexposed x1.3": lambda image, rng: lit(image, (1.3, 1.3, 1.3)),
    "overexposed x1.6": lambda image, rng: lit(image, (1.6, 1.6, 1.6)),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", type=Path, nargs="+", help="labelled scene folders")
    args = parser.parse_args()
    for folder in args.folders:
        if not truth_paths(folder):
            parser.error(f"{folder} holds no labelled scenes (python -m datasets.scenes.render makes them)")
    detector, classifier = Detector(), FaceClassifier()
    print("| folder | as saved | recall | precision | faces read right | wholly right |")
    print("| --- | --- | --- | --- | --- | --- |")
    for folder in args.folders:
        scenes = load_scenes(folder)
        for name, degradation in DEGRADATIONS.items():
            shown = scenes
            if degradation is not None:  # each image its own seeded noise: the order changes nothing
                shown = [
                    (degradation(image, np.random.default_rng(i)), truth)
                    for i, (image, truth) in enumerate(scenes)
                ]
            r = evaluate(detector, shown, classifier, still=True)
            wholly = round(r["images_wholly_right"] * r["images"])
            print(
                f"| {folder} | {name} | {r['recall']:.1%} | {r['precision']:.1%} | {r['read_right']:.1%} "
                f"| {wholly} of {r['images']} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
