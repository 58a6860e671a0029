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
from collections import Counter, defaultdict
from pathlib import Path

import cv2
import numpy as np

from datasets.card_decks import FOLDER, corner_crops, fetched_decks
from datasets.faces.photos import TIGHTNESSES
from models.face_card import AS_A_PHOTO, read_all
from vision.faces import FaceClassifier


def shares(hits: tuple[list[bool], list[bool]]) -> str:
    one_turn, as_photo = hits
    return f"one turn {np.mean(one_turn):.1%}, as a photo {np.mean(as_photo):.1%} of {len(as_photo)}"


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folder", type=Path, default=FOLDER)
    parser.add_argument("--decks", choices=["test", "train", "all"], default="test")
    parser.add_argument("--model", default=None, help="a face model (default: the shipped one)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--save", type=Path, help="write a sheet of misread crops here")
    args = parser.parse_args(argv)
    decks = fetched_decks(args.folder, args.decks)
    if not decks:
        raise SystemExit(f"no {args.decks} decks in {args.folder}: run python -m datasets.card_decks")
    untaught = tempfile.mkdtemp()  # nothing learnt from this user's taps
    classifier = FaceClassifier(args.model, data_dir=untaught, min_confidence=0)
    # hits read at one turn and as a photo: overall, by tightness and by deck
    hits = defaultdict(lambda: ([], []))
    misread, wrong_crops = Counter(), []
    for tightness in TIGHTNESSES:
        crops, labels, names = corner_crops(decks, args.seed, tightness)
        one_turn = read_all(classifier, crops)
        as_photo = read_all(classifier, crops, **AS_A_PHOTO)
        for crop, label, name, one, photo in zip(crops, labels, names, one_turn, as_photo, strict=True):
            for key in ("all", f"tightness {tightness:g}", name):
                hits[key][0].append(one == label)
                hits[key][1].append(photo == label)
            if photo != label:
                misread[f"{label}->{photo}"] += 1
                wrong_crops.append(cv2.resize(crop, (96, 96)))
    print(f"{len(decks)} decks ({args.decks}): {shares(hits['all'])}")
    for key in [f"tightness {t:g}" for t in TIGHTNESSES] + [deck.name for deck in decks]:
        print(f"  {key}: {shares(hits[key])}")
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
