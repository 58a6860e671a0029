"""Every die a rendered photo set gets wrong as `dicescore read` reads it, and where each
missed die was lost.

    python benchmarks/bench_photo_errors.py data/scenes/heldout-d6-hires
    python benchmarks/bench_photo_errors.py data/scenes/heldout-cubes-hires --draw /tmp/errors

Each labelled still (datasets.scenes.render) is read as a photo (``DiceReader.read(still=True)``,
the default face model) and matched to its truth as models/detector_card.py matches it. One
line per error: a die missed, a die read as another face (or left unread), a find where there
is no die. A missed die is traced back through the reader's stages to the first that lost it:

- no pass saw it: none of the detector's looks at the photo found it (``passes_at_scales``);
- print or a group: taken for print on a bigger find, or a group found as one
  (``without_print_or_groups``);
- a size unlike the sure dice: ``like_sized`` dropped every find of it;
- a surer find over it: every find of it lay within half a face of a surer find, which stood
  for it (``one_per_die``): a neighbour, or an outline of the die itself so far off its top
  face that it no longer matches it;
- one pass alone, unsure: seen by one pass, under ``SURE_ALONE`` (``merge``);
- the mirror look: kept by the first look but unsure, and not seen in the mirrored photo;
- the outline refined off it: ``refined`` moved its outline off its top face;
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
from vision.detector import (
    Detector,
    joined,
    like_sized,
    merge,
    one_per_die,
    without_print_or_groups,
    without_side_faces,
)
from vision.faces import FaceClassifier
from vision.pipeline import DiceReader
from vision.readings import DieReadings

STAGES = (
    "no pass saw it",
    "print or a group",
    "a size unlike the sure dice",
    "a surer find over it",
    "one pass alone, unsure",
    "the mirror look",
    "the outline refined off it",
    "the side-face rule",
    "read as no face",
)


def found_dice(found: DieReadings, dice: list[dict], image: np.ndarray) -> set[int]:
    """The indices of the dice that ``found`` has a find for."""
    return {j for _, j in match(found, dice, image)[0]}


def lost_at(reader: DiceReader, image: np.ndarray, dice: list[dict], missed: list[int]) -> dict[int, str]:
    """For each missed die, the reader's stage (``STAGES``) that lost it, each stage taken as
    ``Detector.detect_at_scales`` takes it (a photo taken upright, lying)."""
    if not missed:  # the passes take most of a photo's reading time
        return {}
    height, width = image.shape[:2]
    if height > width:  # turned a quarter clockwise: (x, y) -> (height - 1 - y, x)
        image = cv2.rotate(image, cv2.ROTATE_90_CLOCKWISE)
        dice = [{**die, "quad": [[height - 1 - y, x] for x, y in die["quad"]]} for die in dice]
    detector = reader.detector
    passes = detector.passes_at_scales(image)
    sorted_out = without_print_or_groups(passes, image, reader.is_print)
    sized = like_sized(sorted_out)
    everything = joined(sized)
    first_look = merge(sized)
    whole_look = passes[0] if detector.stills_both_ways else None  # as detect_at_scales takes it
    mirrored = merge([first_look, detector.mirror_look(image, first_look, whole_look)])
    whole = detector.refined(image, mirrored)
    dice_after = {  # the dice each stage still has; the classifier's checks take the rest
        STAGES[0]: set().union(*(found_dice(found, dice, image) for found in passes if len(found))),
        STAGES[1]: set().union(*(found_dice(found, dice, image) for found in sorted_out if len(found))),
        STAGES[2]: set().union(*(found_dice(found, dice, image) for found in sized if len(found))),
        STAGES[3]: found_dice(everything[one_per_die(everything)], dice, image),
        STAGES[4]: found_dice(first_look, dice, image),
        STAGES[5]: found_dice(mirrored, dice, image),
        STAGES[6]: found_dice(whole, dice, image),
        STAGES[7]: found_dice(without_side_faces(whole), dice, image),
    }
    # lost after the last stage that still has it: a later stage can bring a die back (the
    # refined outline of a find that matched no die may match one)
    kept_by = list(dice_after.values())
    return {j: STAGES[max((k + 1 for k, kept in enumerate(kept_by) if j in kept), default=0)] for j in missed}


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
