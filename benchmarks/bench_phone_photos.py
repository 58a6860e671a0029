"""Rendered photos read as a phone would save them: blurred a little, noisy, JPEG-compressed.

    python benchmarks/bench_phone_photos.py data/scenes/heldout-d6-hires data/scenes/heldout-cubes-hires

The photo sets (models/detector.md, `--photos`) are clean renders; real photos, which
`dicescore read` will be judged on, are not. Each folder is read by `dicescore read`'s reader
as rendered and after each degradation below (every image with its own seeded noise), and
scored as the detector card scores a photo: recall / precision / faces read right / images
wholly right. docs/vision.md (Limits, session 27) has the first numbers.
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

# name: (Gaussian blur sigma in pixels, sensor noise in grey levels, JPEG quality)
DEGRADATIONS = {
    "as rendered": None,
    "a phone in fair light: blur 0.8, noise 3, JPEG 80": (0.8, 3.0, 80),
    "a phone in dim light: blur 1.2, noise 8, JPEG 60": (1.2, 8.0, 60),
}


def as_saved(
    image: np.ndarray, rng: np.random.Generator, blur: float, noise: float, quality: int
) -> np.ndarray:
    """``image`` blurred, noised and through a JPEG round trip, as a phone saves a photo."""
    blurred = cv2.GaussianBlur(image, (0, 0), blur)
    noisy = np.clip(blurred + rng.normal(0, noise, image.shape), 0, 255).astype(np.uint8)
    return cv2.imdecode(cv2.imencode(".jpg", noisy, [cv2.IMWRITE_JPEG_QUALITY, quality])[1], cv2.IMREAD_COLOR)


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
                    (as_saved(image, np.random.default_rng(i), *degradation), truth)
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
