"""How the face network reads small dice when the picture is a little soft: rendered stills
blurred whole, their dice cut from the true outlines.

    python benchmarks/bench_soft_dice.py data/scenes/heldout-s32
    python benchmarks/bench_soft_dice.py data/scenes/heldout --blur 0 0.7 --model FILE.onnx
    python benchmarks/bench_soft_dice.py data/scenes/heldout-cards-hires --blur 0 --by-size

A cheap webcam's lens, a phone's noise reduction and a renderer's denoiser all soften a
picture by under a pixel, which a die 12-25 px across (a 320x240 frame) does not survive
well (docs/vision-limits.md, session 61). Each still is blurred by each ``--blur`` (a
Gaussian's sigma in the still's pixels; 0 leaves it as rendered), then every die seen whole
(90% or more) and not leaning is cut from its true outline, so the detector plays no part,
and read with its die kind's mask: as a photo (four turns, the second look and the pip
count, as `dicescore read` reads) and at one turn. ``--by-size`` also counts them by the
longest side of each die's face in the still (``SIZE_BANDS``): a network trained on small
soft faces reads those better and big ones worse (docs/vision-limits.md, session 62).
"""

from __future__ import annotations

import argparse
import itertools
import tempfile
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

from models.train_detector import load_scenes
from scoring.faces import DIE_KINDS
from vision.faces import DEFAULT_MODEL, FaceClassifier
from vision.readings import longest_sides, order_corners, rectify

SEEN_WHOLE = 0.9
SIZE_BANDS = (0, 20, 30, 40, 60, 90)  # px, a face's longest side: each band from its number up


def blurred(image: np.ndarray, sigma: float) -> np.ndarray:
    return cv2.GaussianBlur(image, (0, 0), sigma) if sigma > 0 else image


def size_band(side: float) -> int:
    return max(band for band in SIZE_BANDS if side >= band)


def read_right(classifier: FaceClassifier, folder: Path, sigma: float) -> Counter:
    """Per die kind and size band: the dice cut (``(kind, band, "dice")``), and those read
    right as a photo (``(kind, band, "photo")``) and at one turn (``(kind, band, "one turn")``)."""
    counts = Counter()
    for image, truth in load_scenes(folder):
        dice = [die for die in truth["dice"] if die["visible"] >= SEEN_WHOLE and not die["cocked"]]
        if not dice:
            continue
        kind = dice[0]["kind"]  # a rendered scene holds dice of one kind
        quads = np.float32([die["quad"] for die in dice])
        crops = rectify(blurred(image, sigma), quads)
        as_photo = classifier.classify(crops, kind=kind)
        one_turn = classifier.classify(crops, kind=kind, turns=(0,), second_look=False)
        sides = longest_sides(order_corners(quads))
        for die, photo, turn, side in zip(dice, as_photo, one_turn, sides, strict=True):
            band = size_band(side)
            counts[kind, band, "dice"] += 1
            counts[kind, band, "photo"] += photo.label == die["label"]
            counts[kind, band, "one turn"] += turn.label == die["label"]
    return counts


def total(counts: Counter, kind: str, way: str) -> int:
    """``way``'s count for ``kind``, over every size band."""
    return sum(counts[kind, band, way] for band in SIZE_BANDS)


def row(folder: Path, sigma: float, counts: Counter) -> str:
    dice = sum(total(counts, kind, "dice") for kind in DIE_KINDS)
    shares = [
        100 * sum(total(counts, kind, way) for kind in DIE_KINDS) / max(dice, 1)
        for way in ("photo", "one turn")
    ]
    per_kind = ", ".join(
        f"{kind} {total(counts, kind, 'photo')} of {total(counts, kind, 'dice')}"
        for kind in DIE_KINDS
        if total(counts, kind, "dice")
    )
    return f"| {folder} | {sigma:g} | {dice} | {shares[0]:.1f}% | {shares[1]:.1f}% | {per_kind} |"


def size_rows(folder: Path, sigma: float, counts: Counter) -> list[str]:
    """One row per die kind and size band that holds dice: read right as a photo / at one turn."""
    return [
        f"| {folder} | {sigma:g} | {kind} | {low}{f'-{high}' if high else ' and up'} | "
        f"{counts[kind, low, 'dice']} | {counts[kind, low, 'photo']} | {counts[kind, low, 'one turn']} |"
        for kind in DIE_KINDS
        for low, high in itertools.pairwise((*SIZE_BANDS, None))
        if counts[kind, low, "dice"]
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", type=Path, nargs="+", help="labelled scene folders")
    parser.add_argument("--blur", type=float, nargs="+", default=[0.0, 0.5, 0.7, 1.0], help="sigmas, px")
    parser.add_argument("--model", type=Path, default=DEFAULT_MODEL, help="the face model to read with")
    parser.add_argument("--by-size", action="store_true", help="also count the dice by their faces' size")
    args = parser.parse_args()
    if any(sigma < 0 for sigma in args.blur):
        parser.error("--blur: a sigma is 0 (as rendered) or more")
    print(f"dice seen whole and not leaning, cut from their true outlines, read by {args.model.name}:")
    print("| folder | blur (px) | dice | read right as a photo | at one turn | as a photo, per kind |")
    print("| --- " * 6 + "|")
    by_size = []
    with tempfile.TemporaryDirectory() as no_examples:
        classifier = FaceClassifier(args.model, data_dir=no_examples)
        for folder in args.folders:
            for sigma in args.blur:
                counts = read_right(classifier, folder, sigma)
                print(row(folder, sigma, counts), flush=True)
                by_size += size_rows(folder, sigma, counts)
    if args.by_size:
        print("\nby the longest side of the face (px), dice / read right as a photo / at one turn:")
        print("| folder | blur (px) | die kind | side | dice | as a photo | at one turn |")
        print("| --- " * 7 + "|")
        print("\n".join(by_size))


if __name__ == "__main__":
    main()
