"""Teaching a dice set: one tap per face (``FaceClassifier.learn``), then how well the set reads.

    python benchmarks/bench_teach.py [--sets 6] [--views 8] [--nothing 200]

A dice set is every face of one style family printed one way (font, inks, material,
outline), filmed in one shoot (one table, light, distance, focus, noise and compression:
``datasets.faces.render.Shoot``), as a family's own dice under their own webcam.  For each
set, one view of every face is taught for the family's die kind, and ``--views`` other
views of every face are read before and after, each with its family's die-kind mask: by the
camera's model at one turn (a video frame) and by the default model as a photo, as shares
read right and read as another face (the rest are unreadable).  Table and hand crops
(`none`) are read too, to see whether the taught faces claim them.  Held-out families are the question
(issue 4: one example per face of an unseen style should teach it); two trained families
are read alongside for comparison.
"""

import argparse

import numpy as np

from datasets.faces.render import render_none
from models.face_card import read_a_taught_set
from vision.faces import DEFAULT_MODEL, FAST_MODEL

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
SET_SEED, NONE_SEED = 900, 4242


def at_least_one(text: str) -> int:
    number = int(text)
    if number < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, not {number}")
    return number


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--sets", type=at_least_one, default=6, help="dice sets per family, each in its own shoot"
    )
    parser.add_argument("--views", type=at_least_one, default=8, help="views of each face read per set")
    parser.add_argument("--nothing", type=int, default=200, help="table and hand crops read")
    args = parser.parse_args()
    nothing = [render_none(np.random.default_rng([NONE_SEED, i])) for i in range(args.nothing)]
    print(f"{args.sets} sets per family, {args.views} views of each face read, {len(nothing)} `none` crops")
    for name, (model, how) in READINGS.items():
        print(f"{name}:")
        for family, kind in FAMILY_KINDS.items():
            sets = [
                read_a_taught_set(model, family, kind, 1000 + number, args.views, SET_SEED, how, nothing)
                for number in range(args.sets)
            ]
            mean = {key: np.mean([one[key] for one in sets]) for key in sets[0]}
            taught = [one["after"] for one in sets]
            print(
                f"  {family} ({kind}): read right {mean['before']:.1%} untaught, {mean['after']:.1%} taught"
                f" (sets {min(taught):.1%}-{max(taught):.1%}); read as another face"
                f" {mean['wrong_before']:.1%} untaught, {mean['wrong_after']:.1%} taught;"
                f" `none` read as a face"
                f" {mean['claimed_before']:.1%} untaught, {mean['claimed_after']:.1%} taught"
            )


if __name__ == "__main__":
    main()
