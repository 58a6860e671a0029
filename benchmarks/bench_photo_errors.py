"""Every die a rendered photo set gets wrong as `dicescore read` reads it, and where each
missed die was lost.

    python benchmarks/bench_photo_errors.py data/scenes/heldout-d6-hires
    python benchmarks/bench_photo_errors.py data/scenes/heldout-cubes-hires --draw /tmp/errors

Each labelled still (datasets.scenes.render) is read as a photo (``DiceReader.read(still=True)``,
the default face model) and matched to its truth as models/detector_card.py matches it. One
line per error: a die missed, a die read as another face (or left unread), a find where there
is no die. A missed die is traced back through the reader's stages to the first that lost it:

- no pass saw it: none of the detector's looks at the photo found it (``passes_at_scales``);
- the first look's rules: a pass found it, but the rules that merge the passes dropped it
  (print on a die, groups, sizes unlike the sure dice, one pass alone and unsure, the mirror);
- the side-face rule: taken for the side face of a surer die beside it (``without_side_faces``);
- read as no face: the face classifier's checks dropped it (no face, or unread and unsure).

``--draw`` writes each photo with an error to that folder: the truth green (a missed die
magenta), the finds red with their reading.
"""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

from models.detector_card import SEEN, in_frame, match, scene_kind
from models.train_detector import load_scenes
from vision.detector import Detector, without_side_faces
from vision.faces import FaceClassifier
from vision.pipeline import DiceReader
from vision.readings import DieReadings

STAGES = ("no pass saw it", "the first look's rules", "the side-face rule", "read as no face")


def found_dice(found: DieReadings, dice: list[dict], image: np.ndarray) -> set[int]:
    """The indices of the dice that ``found`` has a find for."""
    return {j for _, j in match(found, dice, image)[0]}


def lost_at(reader: DiceReader, image: np.ndarray, dice: list[dict], missed: list[int]) -> dict[int, str]:
    """For each missed die, the first of the reader's stages (``STAGES``) without it."""
    if not missed:  # the passes take most of a photo's reading time
        return {}
    detector = reader.detector
    passes = detector.passes_at_scales(image)
    first_look = detector.detect_at_scales(image, reader.is_print)
    dice_after = {  # the dice each stage still has; the classifier's checks take the rest
        STAGES[0]: set().union(*(found_dice(found, dice, image) for found in passes if len(found))),
        STAGES[1]: found_dice(first_look, dice, image),
        STAGES[2]: found_dice(without_side_faces(first_look), dice, image),
    }
    lost = {j: next((stage for stage, kept in dice_after.items() if j not in kept), None) for j in missed}
    return {j: stage or STAGES[-1] for j, stage in lost.items()}


def draw_errors(image: np.ndarray, dice: list[dict], missed: list[int], found: DieReadings) -> np.ndarray:
    """``image`` with its dice outlined (a missed one magenta) and the reader's finds labelled."""
    canvas = image.copy()
    for j, die in enumerate(dice):
        quad = np.int32(die["quad"])
        colour = (255, 0, 255) if j in missed else (0, 200, 0)
        cv2.polylines(canvas, [quad], True, colour, 2)
        cv2.putText(canvas, die["label"], tuple(quad[0].tolist()), cv2.FONT_HERSHEY_SIMPLEX, 0.7, colour, 2)
    for die in found:
        quad = np.int32(die.quad)
        cv2.polylines(canvas, [quad], True, (0, 0, 255), 2)
        words = f"{die.label or '?'} {die.confidence:.2f}{' leaning' if die.cocked else ''}"
        cv2.putText(canvas, words, tuple(quad[2].tolist()), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (0, 0, 255), 2)
    return canvas


def scene_errors(reader: DiceReader, image: np.ndarray, truth: dict):
    """One photo's errors: a line each; their counts (``dice``, ``misread``, ``false`` and each
    of ``STAGES``); and, to draw them, the reader's finds and the missed dice."""
    dice = truth["dice"]
    found = reader.read(image, still=True)
    pairs, unmatched = match(found, dice, image)
    matched = {j: i for i, j in pairs}
    must = [j for j, die in enumerate(dice) if die["visible"] >= SEEN and in_frame(die, image)]
    counts, lines = Counter(dice=len(must)), []
    missed = [j for j in must if j not in matched]
    for j, stage in lost_at(reader, image, dice, missed).items():
        counts[stage] += 1
        die = dice[j]
        leaning = ", leaning" if die["cocked"] else ""
        lines.append(f"missed {die['label']} ({die['visible']:.0%} seen{leaning}): {stage}")
    for j, i in matched.items():
        if j in must and found.labels[i] != dice[j]["label"]:
            counts["misread"] += 1
            likeliest = found.tops[i][0][0] if found.tops[i] else "-"
            read = found.labels[i] or f"unread (likeliest {likeliest})"
            lines.append(f"read {dice[j]['label']} as {read} ({found.confidences[i]:.2f})")
    for i in unmatched:
        counts["false"] += 1
        leaning = ", leaning" if found.cocked[i] else ""
        lines.append(
            f"no die, read {found.labels[i] or 'unread'} ({found.confidences[i]:.2f}), "
            f"find {found.scores[i]:.2f}{leaning}"
        )
    return lines, counts, found, missed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", type=Path, nargs="+")
    parser.add_argument("--draw", type=Path, help="write each photo with an error here")
    args = parser.parse_args()
    detector, classifier = Detector(), FaceClassifier()
    for folder in args.folders:
        counts = Counter()
        print(f"{folder}:")
        for image, truth in load_scenes(folder):
            reader = DiceReader(scene_kind(truth), detector, classifier)
            lines, scene_counts, found, missed = scene_errors(reader, image, truth)
            counts += scene_counts
            for line in lines:
                print(f"  {truth['image']}: {line}")
            if lines and args.draw:
                args.draw.mkdir(parents=True, exist_ok=True)
                cv2.imwrite(str(args.draw / truth["image"]), draw_errors(image, truth["dice"], missed, found))
        print(
            f"  {counts['dice']} dice: {sum(counts[stage] for stage in STAGES)} missed, "
            f"{counts['misread']} read wrong or unread, {counts['false']} finds where there is no die"
        )
        for stage in STAGES:
            print(f"  missed, {stage}: {counts[stage]}")


if __name__ == "__main__":
    main()
