"""Teaching a dice set: one tap per face (``FaceClassifier.learn``), then how well the set reads.

    python benchmarks/bench_teach.py [--sets 6] [--views 8]

A dice set is every face of one style family printed one way (font, inks, material,
outline), filmed in one shoot (one table, light, distance, focus, noise and compression:
``datasets.faces.render.Shoot``), as a family's own dice under their own webcam.  For each
set, one view of every face is taught, and ``--views`` other views of every face are read
before and after, each with its family's die-kind mask: by the camera's model at one turn
(a video frame) and by the default model as a photo.  Table and hand crops (`none`) are read
too, to see whether the taught faces claim them.  Held-out families are the question
(issue 4: one example per face of an unseen style should teach it); two trained families
are read alongside for comparison.
"""

import argparse
import tempfile

import numpy as np

from datasets.faces.render import random_shoot, render_dice_set, render_none
from vision.faces import DEFAULT_MODEL, FAST_MODEL, FaceClassifier

FAMILY_KINDS = {  # held out from training first, then two trained families
    "rank_beside_suit": "square-shooters",
    "framed": "cubes",
    "corner_index": "square-shooters",
    "numerals": "d6",
}
READINGS = {
    "camera (faces-fast.onnx, one turn)": (FAST_MODEL, {"turns": (0,), "second_look": False}),
    "photo (faces.onnx, four turns, second look)": (DEFAULT_MODEL, {}),
}
TEACH_SEED, READ_SEED, SHOOT_SEED, NONE_SEED = 900, 901, 77, 4242


def share_right(classifier, crops, labels, kind, how) -> float:
    readings = classifier.classify(crops, kind=kind, **how)
    return float(np.mean([reading.label == label for reading, label in zip(readings, labels, strict=True)]))


def share_read_as_faces(classifier, crops, kind, how) -> float:
    readings = classifier.classify(crops, kind=kind, **how)
    return float(np.mean([reading.label is not None for reading in readings]))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", type=int, default=6, help="dice sets per family, each in its own shoot")
    parser.add_argument("--views", type=int, default=8, help="views of each face read per set")
    parser.add_argument("--nothing", type=int, default=200, help="table and hand crops read")
    args = parser.parse_args()
    nothing = [render_none(np.random.default_rng([NONE_SEED, i])) for i in range(args.nothing)]
    print(f"{args.sets} sets per family, {args.views} views of each face read, {len(nothing)} `none` crops")
    for name, (model, how) in READINGS.items():
        print(f"{name}:")
        for family, kind in FAMILY_KINDS.items():
            before, after, claimed_before, claimed = [], [], [], []
            for number in range(args.sets):
                set_seed = 1000 + number
                shoot = random_shoot(np.random.default_rng([SHOOT_SEED, set_seed]), family)
                taught, taught_labels = render_dice_set(family, set_seed, 1, TEACH_SEED, shoot=shoot)
                views, view_labels = render_dice_set(family, set_seed, args.views, READ_SEED, shoot=shoot)
                with tempfile.TemporaryDirectory() as folder:
                    classifier = FaceClassifier(model, data_dir=folder)
                    before.append(share_right(classifier, views, view_labels, kind, how))
                    claimed_before.append(share_read_as_faces(classifier, nothing, kind, how))
                    for crop, label in zip(taught, taught_labels, strict=True):
                        classifier.learn(crop, label)
                    after.append(share_right(classifier, views, view_labels, kind, how))
                    claimed.append(share_read_as_faces(classifier, nothing, kind, how))
            print(
                f"  {family} ({kind}): read right {np.mean(before):.1%} untaught, {np.mean(after):.1%} taught"
                f" (sets {min(after):.1%}-{max(after):.1%}); `none` read as a face"
                f" {np.mean(claimed_before):.1%} untaught, {np.mean(claimed):.1%} taught"
            )


if __name__ == "__main__":
    main()
