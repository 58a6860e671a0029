"""Card corners of real decks' designs, read as a photo of the card would show them.

    python -m datasets.card_decks                                  # once: the decks
    python benchmarks/bench_real_decks.py [--decks test] [--model models/faces.onnx]

Issue 4's judge reads square crops centred on a real card's corner index. The other corner
sets (models/faces.md) print the index in fonts; this one prints it as real decks do:
each card of ``datasets.card_decks`` laid on a table in fair light, turned any way and cut
about its index at each of ``TIGHTNESSES`` with a phone's blur, noise and JPEG
(``datasets.faces.photos.photo_crop``, the same damage as the rendered corner set).
Printed: the share read right at one turn (a video frame) and as a photo (four turns and the
second look, as ``dicescore read`` and ``dicescore faces`` read), overall, by deck and by
tightness, and the faces most often misread.
"""

from __future__ import annotations

import argparse
import tempfile
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

from datasets.card_decks import FOLDER, TEST_DECKS, corner_crops
from datasets.faces.photos import TIGHTNESSES
from models.face_card import AS_A_PHOTO, read_all
from vision.faces import FaceClassifier


def share(hits: list[bool]) -> str:
    return f"{np.mean(hits):.1%} of {len(hits)}"


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folder", type=Path, default=FOLDER)
    parser.add_argument("--decks", choices=["test", "train", "all"], default="test")
    parser.add_argument("--model", default=None, help="a face model (default: the shipped one)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--save", type=Path, help="write a sheet of misread crops here")
    args = parser.parse_args(argv)
    decks = sorted(p for p in args.folder.iterdir() if (p / "index.json").exists())
    if args.decks != "all":
        decks = [p for p in decks if (p.name in TEST_DECKS) == (args.decks == "test")]
    if not decks:
        raise SystemExit(f"no decks in {args.folder}: run python -m datasets.card_decks")
    untaught = tempfile.mkdtemp()  # nothing learnt from this user's taps
    classifier = FaceClassifier(args.model, data_dir=untaught, min_confidence=0)
    rows, one_turn, as_photo, misread = [], [], [], Counter()
    wrong_crops = []
    for tightness in TIGHTNESSES:
        crops, labels, names = corner_crops(decks, args.seed, tightness)
        one = [r == t for r, t in zip(read_all(classifier, crops), labels, strict=True)]
        readings = read_all(classifier, crops, **AS_A_PHOTO)
        photo = [r == t for r, t in zip(readings, labels, strict=True)]
        rows.append((tightness, names, one, photo))
        one_turn += one
        as_photo += photo
        misread.update(f"{t}->{r}" for r, t in zip(readings, labels, strict=True) if r != t)
        wrong_crops += [cv2.resize(c, (96, 96)) for c, ok in zip(crops, photo, strict=True) if not ok]
    print(f"{len(decks)} decks ({args.decks}): one turn {share(one_turn)}, as a photo {share(as_photo)}")
    for tightness, _, one, photo in rows:
        print(f"  tightness {tightness:g}: one turn {share(one)}, as a photo {share(photo)}")
    for deck in decks:
        one = [
            ok
            for _, names, hits, _ in rows
            for name, ok in zip(names, hits, strict=True)
            if name == deck.name
        ]
        photo = [
            ok
            for _, names, _, hits in rows
            for name, ok in zip(names, hits, strict=True)
            if name == deck.name
        ]
        print(f"  {deck.name}: one turn {share(one)}, as a photo {share(photo)}")
    print("most misread, as a photo:", ", ".join(f"{k} x{n}" for k, n in misread.most_common(12)))
    if args.save and wrong_crops:
        columns = 16
        wrong_crops += [np.zeros_like(wrong_crops[0])] * (-len(wrong_crops) % columns)
        sheet = np.vstack(
            [np.hstack(wrong_crops[i : i + columns]) for i in range(0, len(wrong_crops), columns)]
        )
        cv2.imwrite(str(args.save), sheet)


if __name__ == "__main__":
    main()
