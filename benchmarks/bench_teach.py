"""Teaching a dice set: one tap per face (``FaceClassifier.learn``), then how well the set reads.

    python benchmarks/bench_teach.py [--sets 6] [--views 8] [--taught-views 1] [--nothing 200]

A dice set is every face of one style family printed one way (font, inks, material,
outline), filmed in one shoot (one table, light, distance, focus, noise and compression:
``datasets.faces.render.Shoot``), as a family's own dice under their own webcam.  For each
set, one view of every face (``--taught-views``: more, as "Your dice" may keep up to
``TAUGHT_PER_FACE``) is taught for the family's die kind, and ``--views`` other
views of every face are read before and after, each with its family's die-kind mask: by the
camera's model at one turn (a video frame) and by the default model as a photo, as shares
read right and read as another face (the rest are unreadable).  Table and hand crops
(`none`) are read too, to see whether the taught faces claim them, and dice of other prints
(``OTHER_PRINTS``) while each of a held-out family's first sets is taught: what a whole set
taught costs dice that are not of it.  Held-out families are the question
(issue 4: one example per face of an unseen style should teach it); two trained families
are read alongside for comparison.
"""

import argparse

import numpy as np

from datasets.faces import render_set
from datasets.faces.render import render_none
from datasets.scenes.render import at_least_one
from models.face_card import ONE_PRINT_FIRST_SET, ONE_PRINT_SEED, ONE_TURN, read_a_taught_set
from vision.faces import DEFAULT_MODEL, FAST_MODEL

# Dice of other prints read while a held-out set is taught (800 crops each, the first 4 sets):
# another print of the same game's dice, and plain dice, whose 1-6 a Cubes set shares.
OTHER_PRINTS = {
    "rank_beside_suit": {
        "card-like faces": (
            ("card_face", "corner_index", "big_rank", "free_layout", "card_pips", "court", "joker"),
            "square-shooters",
        ),
    },
    "framed": {
        "the CUBES word family": (("cubes_word",), "cubes"),
        "plain dice": (("numerals", "d6_pips"), "d6"),
    },
}
OTHERS_SEED, OTHERS_COUNT, OTHERS_SETS = 5151, 800, 4
KEYS = ("before", "after", "wrong_before", "wrong_after")
FAMILY_KINDS = {  # held out from training first, then two trained families
    "rank_beside_suit": "square-shooters",
    "framed": "cubes",
    "corner_index": "square-shooters",
    "numerals": "d6",
}
READINGS = {
    "camera (faces-fast.onnx, one turn)": (FAST_MODEL, ONE_TURN),
    "photo (faces.onnx, four turns, second look)": (DEFAULT_MODEL, {}),
}
NONE_SEED = 4242


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--sets", type=at_least_one, default=6, help="dice sets per family, each in its own shoot"
    )
    parser.add_argument("--views", type=at_least_one, default=8, help="views of each face read per set")
    parser.add_argument(
        "--taught-views", type=at_least_one, default=1, help="views of each face taught per set"
    )
    parser.add_argument("--nothing", type=int, default=200, help="table and hand crops read")
    args = parser.parse_args()
    nothing = [render_none(np.random.default_rng([NONE_SEED, i])) for i in range(args.nothing)]
    print(
        f"{args.sets} sets per family, {args.taught_views} views of each face taught and {args.views}"
        f" others read, {len(nothing)} `none` crops"
    )
    others = {
        family: {
            name: (*render_set(OTHERS_COUNT, OTHERS_SEED, families)[:2], kind)
            for name, (families, kind) in groups.items()
        }
        for family, groups in OTHER_PRINTS.items()
    }
    for name, (model, how) in READINGS.items():
        print(f"{name}:")
        for family, kind in FAMILY_KINDS.items():
            sets = [
                read_a_taught_set(
                    model,
                    family,
                    kind,
                    ONE_PRINT_FIRST_SET + number,
                    args.views,
                    ONE_PRINT_SEED,
                    how,
                    nothing,
                    others.get(family) if number < OTHERS_SETS else None,
                    args.taught_views,
                )
                for number in range(args.sets)
            ]
            shares = (*KEYS, "claimed_before", "claimed_after")
            mean = {key: np.mean([one[key] for one in sets]) for key in shares}
            taught = [one["after"] for one in sets]
            print(
                f"  {family} ({kind}): read right {mean['before']:.1%} untaught, {mean['after']:.1%} taught"
                f" (sets {min(taught):.1%}-{max(taught):.1%}); read as another face"
                f" {mean['wrong_before']:.1%} untaught, {mean['wrong_after']:.1%} taught;"
                f" `none` read as a face"
                f" {mean['claimed_before']:.1%} untaught, {mean['claimed_after']:.1%} taught"
            )
            for other in others.get(family, {}):
                read = {key: np.mean([one[f"{other}_{key}"] for one in sets[:OTHERS_SETS]]) for key in KEYS}
                print(
                    f"    {other} read while one of its first {OTHERS_SETS} sets is taught: right"
                    f" {read['before']:.1%} -> {read['after']:.1%}, as another face"
                    f" {read['wrong_before']:.1%} -> {read['wrong_after']:.1%}"
                )


if __name__ == "__main__":
    main()
