"""Photos taken with the phone held upright: the photo sets read as `dicescore read` reads a
photo, lying as rendered (landscape) and turned a quarter (portrait), each in the middle of a
bigger frame of its table's colour, as a phone photo of dice from standing height shows them.

    python benchmarks/bench_upright_photos.py data/scenes/heldout-d6-hires --size 4032 3024

A phone that saves a portrait photo stores it landscape with an EXIF turn, and
`vision.sources.load_image` turns it upright: the reader sees a frame 3:4, where the network
looks through a 4:3 window. Both ways of lying are scored as the detector card scores a
photo: recall / precision / faces read right / images wholly right, and the median seconds
a photo (docs/vision-limits.md, session 65).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import cv2
import numpy as np

from models.detector_card import evaluate
from models.train_detector import load_scenes
from vision.detector import Detector
from vision.faces import DEFAULT_MODEL, FaceClassifier


def in_the_middle(image: np.ndarray, truth: dict, size: tuple[int, int]) -> tuple[np.ndarray, dict]:
    """``image`` in the middle of a ``size`` frame of its median colour, its truth moved along."""
    width, height = size
    x0, y0 = (width - image.shape[1]) // 2, (height - image.shape[0]) // 2
    colour = np.median(image.reshape(-1, 3), 0).astype(np.uint8)
    frame = np.empty((height, width, 3), np.uint8)
    frame[:] = colour
    frame[y0 : y0 + image.shape[0], x0 : x0 + image.shape[1]] = image
    dice = [die | {"quad": (np.float32(die["quad"]) + (x0, y0)).tolist()} for die in truth["dice"]]
    return frame, truth | {"dice": dice}


def turned(image: np.ndarray, truth: dict) -> tuple[np.ndarray, dict]:
    """``image`` turned a quarter clockwise, as an upright phone's photo, its truth along."""
    height = image.shape[0]
    dice = [die | {"quad": [[height - 1 - y, x] for x, y in die["quad"]]} for die in truth["dice"]]
    return cv2.rotate(image, cv2.ROTATE_90_CLOCKWISE), truth | {"dice": dice}


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="+", type=Path)
    parser.add_argument("--size", nargs=2, type=int, default=(4032, 3024), metavar=("W", "H"))
    parser.add_argument("--only", choices=("landscape", "portrait"), help="read one way only")
    args = parser.parse_args(argv)
    detector, classifier = Detector(), FaceClassifier(DEFAULT_MODEL)
    ways = {"landscape": lambda image, truth: (image, truth), "portrait": turned}
    for folder in args.folders:
        scenes = [in_the_middle(image, truth, tuple(args.size)) for image, truth in load_scenes(folder)]
        for name, way in ways.items():
            if args.only not in (None, name):
                continue
            times = []

            def timed(scenes=scenes, way=way, times=times):
                for image, truth in scenes:
                    started = time.perf_counter()
                    yield way(image, truth)
                    times.append(time.perf_counter() - started)

            c = evaluate(detector, timed(), classifier, still=True)
            wholly = round(c["images_wholly_right"] * c["images"])
            print(
                f"{folder.name} {name}: {c['recall']:.1%} / {c['precision']:.1%} / "
                f"{c['read_right']:.1%} / {wholly} of {c['images']}; {np.median(times):.2f} s a photo",
                flush=True,
            )


if __name__ == "__main__":
    main()
