"""Rendered photos read as a phone would save them (blurred a little, noisy, JPEG-compressed),
as other light would leave them (a white balance left warm or cold, dim, overexposed), and
as a phone's own processing, a cheap lens and a shaking hand make them (sharpened, an HDR
look, colour fringes, noise smoothed away, motion blur).

    python benchmarks/bench_phone_photos.py data/scenes/heldout-d6-hires data/scenes/heldout-cubes-hires
    python benchmarks/bench_phone_photos.py data/scenes/heldout-d6-hires --only rendered sharpening \
        --model data/faces/another.onnx

The photo sets (models/detector.md, `--photos`) are clean renders; real photos, which
`dicescore read` will be judged on, are not. Each folder is read by `dicescore read`'s reader
as rendered and after each degradation below (every image with its own seeded noise), and
scored as the detector card scores a photo: recall / precision / faces read right / images
wholly right. docs/vision-limits.md (session 27) has the first numbers, session 55 those of a
phone's processing. ``--only`` reads only the ways whose names hold one of its words; ``--as
video`` reads each picture as the camera reads one video frame (one pass, the camera's face
model, one turn); ``--model`` reads the faces with another face model.
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
from vision.faces import DEFAULT_MODEL, FAST_MODEL, FaceClassifier


def as_saved(
    image: np.ndarray, rng: np.random.Generator, blur: float, noise: float, quality: int
) -> np.ndarray:
    """``image`` blurred, noised and through a JPEG round trip, as a phone saves a photo."""
    return jpeg(noised(cv2.GaussianBlur(image, (0, 0), blur), rng, noise), quality)


def noised(image: np.ndarray, rng: np.random.Generator, noise: float) -> np.ndarray:
    """``image`` with Gaussian sensor noise of ``noise`` grey levels."""
    return np.clip(image + rng.normal(0, noise, image.shape), 0, 255).astype(np.uint8)


def jpeg(image: np.ndarray, quality: int) -> np.ndarray:
    """``image`` through a JPEG round trip at ``quality``."""
    return cv2.imdecode(cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])[1], cv2.IMREAD_COLOR)


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
    # what a phone's own processing adds, which no render has
    "a phone's sharpening: noise 3, unsharp mask 1.5 px x1.5, JPEG 85": lambda image, rng: jpeg(
        sharpened(noised(image, rng, 3.0), 1.5, 1.5), 85
    ),
    "a phone's HDR look: local contrast (CLAHE on lightness, clip 3)": lambda image, rng: local_contrast(
        image, 3.0
    ),
    "a cheap lens: corners at 50% light, colour fringes of 0.6%": lambda image, rng: fringed(
        vignetted(image, 0.5), 0.006
    ),
    "a hand's shake: motion blur 5 px, noise 2, JPEG 85": lambda image, rng: jpeg(
        noised(shaken(image, rng, 5), rng, 2.0), 85
    ),
    "a phone's noise reduction in dim light: noise 8, smoothed, JPEG 85": lambda image, rng: jpeg(
        cv2.fastNlMeansDenoisingColored(noised(image, rng, 8.0), None, 6, 6, 7, 21), 85
    ),
}


def sharpened(image: np.ndarray, radius: float, amount: float) -> np.ndarray:
    """``image`` through an unsharp mask, as phones sharpen every photo (a halo at each edge)."""
    soft = cv2.GaussianBlur(image, (0, 0), radius)
    return cv2.addWeighted(image, 1 + amount, soft, -amount, 0)


def local_contrast(image: np.ndarray, clip: float) -> np.ndarray:
    """``image`` with its lightness equalised tile by tile (CLAHE), as a phone's HDR mode
    brightens shadows and darkens highlights locally."""
    lab = cv2.cvtColor(image, cv2.COLOR_BGR2LAB)
    lab[..., 0] = cv2.createCLAHE(clipLimit=clip, tileGridSize=(8, 8)).apply(lab[..., 0])
    return cv2.cvtColor(lab, cv2.COLOR_LAB2BGR)


def shaken(image: np.ndarray, rng: np.random.Generator, length: int) -> np.ndarray:
    """``image`` smeared ``length`` px along a random direction, as a hand-held phone moves
    while the shutter is open indoors."""
    kernel = np.zeros((length, length), np.float32)
    kernel[length // 2] = 1 / length
    turn = cv2.getRotationMatrix2D((length / 2 - 0.5, length / 2 - 0.5), rng.uniform(0, 180), 1)
    kernel = cv2.warpAffine(kernel, turn, (length, length))
    return cv2.filter2D(image, -1, kernel / kernel.sum())


def vignetted(image: np.ndarray, corner: float) -> np.ndarray:
    """``image`` darkening towards the corners, where ``corner`` of the light is left."""
    height, width = image.shape[:2]
    y, x = np.mgrid[:height, :width]
    r2 = ((x - width / 2) ** 2 + (y - height / 2) ** 2) / ((width / 2) ** 2 + (height / 2) ** 2)
    return np.clip(image * (1 - (1 - corner) * r2)[..., None], 0, 255).astype(np.uint8)


def fringed(image: np.ndarray, spread: float) -> np.ndarray:
    """``image`` with a cheap lens's lateral colour: red enlarged and blue shrunk by ``spread``
    about the centre, so edges away from it show colour fringes."""
    height, width = image.shape[:2]
    out = image.copy()
    for channel, scale in ((0, 1 - spread), (2, 1 + spread)):
        warp = np.float32([[scale, 0, (1 - scale) * width / 2], [0, scale, (1 - scale) * height / 2]])
        out[..., channel] = cv2.warpAffine(
            image[..., channel], warp, (width, height), borderMode=cv2.BORDER_REPLICATE
        )
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", type=Path, nargs="+", help="labelled scene folders")
    parser.add_argument(
        "--only",
        nargs="+",
        metavar="WORD",
        help="read only the ways of saving whose names hold one of these words",
    )
    parser.add_argument(
        "--as",
        dest="read_as",
        choices=("photo", "video"),
        default="photo",
        help="read each picture as `dicescore read` reads a photo, or as the camera reads one video frame",
    )
    parser.add_argument(
        "--model", type=Path, help="the face model that reads the faces (default: the shipped one for --as)"
    )
    args = parser.parse_args()
    chosen = {
        name: degradation
        for name, degradation in DEGRADATIONS.items()
        if not args.only or any(word in name for word in args.only)
    }
    if not chosen:
        parser.error(f"--only: no way of saving is named by {' '.join(args.only)}: {', '.join(DEGRADATIONS)}")
    for folder in args.folders:
        if not truth_paths(folder):
            parser.error(f"{folder} holds no labelled scenes (python -m datasets.scenes.render makes them)")
    still = args.read_as == "photo"
    detector = Detector()
    classifier = FaceClassifier(args.model or (DEFAULT_MODEL if still else FAST_MODEL))
    print("| folder | as saved | recall | precision | faces read right | wholly right |")
    print("| --- | --- | --- | --- | --- | --- |")
    for folder in args.folders:
        scenes = load_scenes(folder)
        for name, degradation in chosen.items():
            shown = scenes
            if degradation is not None:  # each image its own seeded noise: the order changes nothing
                shown = [
                    (degradation(image, np.random.default_rng(i)), truth)
                    for i, (image, truth) in enumerate(scenes)
                ]
            r = evaluate(detector, shown, classifier, still=still)
            wholly = round(r["images_wholly_right"] * r["images"])
            print(
                f"| {folder} | {name} | {r['recall']:.1%} | {r['precision']:.1%} | {r['read_right']:.1%} "
                f"| {wholly} of {r['images']} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
