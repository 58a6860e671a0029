"""How many rendered pip faces the pip count reads, and how many it reads wrong.

    python benchmarks/bench_pip_count.py data/scenes/heldout-d6-hires data/scenes/heldout-cubes-hires
    python benchmarks/bench_pip_count.py data/scenes/heldout-d6-hires --degraded
    python benchmarks/bench_pip_count.py data/scenes/heldout-d6-hires --scale 0.85 --wider

`vision.pips.count_pips` needs no learnt artwork, so where it answers it overrules the face
network (docs/vision.md, "Counting pips"), and a wrong count is worse than none. Every die of
a pip kind (d6 and Cubes) seen whole and not leaning, whose face is a number, is cut from its
true outline, then ``--jitter`` times more with every corner moved by up to
``--jitter-share`` of the face's side (seeded), as a detector's corners err. Numeral faces
are among them and rightly not counted, so "counted" is a share of every number face.
``--scale`` first grows or shrinks every outline about its centre (0.85: a find inside the
face all round). ``--wider`` counts, where an outline's crop shows no clean layout, its cut
grown by ``PIP_RECOUNT`` as a photo's reader does (``DiceReader.read``). ``--degraded`` adds
sensor noise (6 grey levels) and JPEG quality 50 to each crop first.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import cv2
import numpy as np

from models.detector_card import in_frame
from models.train_detector import load_scenes
from vision.faces import PIP_KINDS
from vision.pipeline import PIP_RECOUNT, scaled
from vision.pips import count_pips
from vision.readings import rectify

SEEN_WHOLE = 0.9
NOISE = 6.0
JPEG_QUALITY = 50


def number_dice(truth: dict, image: np.ndarray) -> list[dict]:
    """The scene's dice of a pip kind that show a number, seen whole and lying flat."""
    return [
        die
        for die in truth["dice"]
        if die["kind"] in PIP_KINDS
        and die["label"] in {"1", "2", "3", "4", "5", "6"}
        and die["visible"] >= SEEN_WHOLE
        and not die["cocked"]
        and in_frame(die, image)
    ]


def jittered(quad: np.ndarray, share: float, rng: np.random.Generator) -> np.ndarray:
    """``quad`` with every corner moved by up to ``share`` of the face's side either way."""
    side = np.sqrt(abs(cv2.contourArea(quad)))
    return (quad + rng.uniform(-share, share, quad.shape) * side).astype(np.float32)


def degraded(crop: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    noisy = np.clip(crop + rng.normal(0, NOISE, crop.shape), 0, 255).astype(np.uint8)
    _, data = cv2.imencode(".jpg", noisy, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
    return cv2.imdecode(data, cv2.IMREAD_COLOR)


def count_folder(
    folder: Path, jitter: int, share: float, degrade: bool, seed: int, scale: float = 1.0, wider: bool = False
) -> dict[str, list[int]]:
    """Per outline ("true", "jittered"): [crops, counted, counted wrong]."""
    rng = np.random.default_rng(seed)
    tally = {"true": [0, 0, 0], "jittered": [0, 0, 0]}
    for image, truth in load_scenes(folder):
        for die in number_dice(truth, image):
            quad = scaled(np.float32(die["quad"]), scale)
            outlines = [("true", quad)] + [("jittered", jittered(quad, share, rng)) for _ in range(jitter)]
            quads = np.float32([outline for _, outline in outlines])
            crops = rectify(image, quads)
            grown = rectify(image, scaled(quads, PIP_RECOUNT)) if wider else [None] * len(crops)
            for (name, _), crop, grown_crop in zip(outlines, crops, grown, strict=True):
                if degrade:
                    crop = degraded(crop, rng)
                    grown_crop = None if grown_crop is None else degraded(grown_crop, rng)
                count = count_pips(crop, grown_crop)
                tally[name][0] += 1
                tally[name][1] += count is not None
                tally[name][2] += count is not None and str(count) != die["label"]
    return tally


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", type=Path, nargs="+", help="labelled scene folders")
    parser.add_argument("--jitter", type=int, default=2, help="jittered outlines a die")
    parser.add_argument("--jitter-share", type=float, default=0.07, help="of the face's side")
    parser.add_argument("--scale", type=float, default=1.0, help="every outline grown or shrunk first")
    parser.add_argument("--wider", action="store_true", help="count an uncounted cut grown too")
    parser.add_argument("--degraded", action="store_true", help="noise and JPEG on every crop")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    if args.jitter < 0 or not 0 <= args.jitter_share < 0.5 or not 0.5 <= args.scale <= 1.5:
        parser.error("--jitter is 0 or more, --jitter-share from 0 to under 0.5, --scale 0.5 to 1.5")
    print("number faces of pip-kind dice, seen whole and flat: crops / counted / counted wrong")
    print("| folder | true outlines | jittered outlines |")
    print("| --- | --- | --- |")
    for folder in args.folders:
        tally = count_folder(
            folder, args.jitter, args.jitter_share, args.degraded, args.seed, args.scale, args.wider
        )
        cells = [" / ".join(map(str, tally[name])) for name in ("true", "jittered")]
        print(f"| {folder} | {cells[0]} | {cells[1]} |", flush=True)


if __name__ == "__main__":
    main()
