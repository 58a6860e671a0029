"""The reader's trade of real dice for false ones: face models under the photo reader's rules,
strict to loose, on rendered scenes with dice and on real photos without any.

    python -m datasets.photos_without_dice test    # once: the real photos without dice
    python benchmarks/bench_reader_trade.py data/scenes/heldout --model models/faces.onnx other.onnx

A photo's unsure find is dropped when the face model calls it no face surely enough (its
cut, `FaceClassifier.not_a_face`, from its file), and one no look reads is kept only from a
detector score (`UNREAD_KEPT_FROM`). Loosening them keeps more real dice and more false ones;
a face model taught `none` from real photos moves along that trade too. Two models are
compared fairly only along it: one is better where it finds as many rendered dice with fewer
false ones (docs/vision-limits.md, session 45). Each row reads the scenes as `dicescore read`
reads a photo (recall, precision, faces read right, images wholly right, as
models/detector.md counts them) and the real photos as d6, Cubes and card dice (every die
found is false).
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

import cv2

import vision.pipeline
from datasets.photos_without_dice import FOLDER, photos
from models.detector_card import evaluate
from models.train_detector import load_scenes
from vision.detector import Detector
from vision.faces import DEFAULT_MODEL, FaceClassifier
from vision.pipeline import DiceReader

# (the network's no-face cut, UNREAD_KEPT_FROM), strict to loose; the shipped rules are (0.7, 0.7)
RULES = ((0.5, 0.8), (0.6, 0.75), (0.7, 0.7), (0.85, 0.6), (0.95, 0.5))
KINDS = ("d6", "cubes", "square-shooters")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scenes", type=Path, help="a folder of rendered scenes (datasets.scenes.render)")
    parser.add_argument("--model", type=Path, nargs="+", default=[DEFAULT_MODEL], help="face models")
    parser.add_argument("--photos", type=Path, default=FOLDER / "test", help="real photos with no dice")
    args = parser.parse_args()
    scenes = load_scenes(args.scenes)
    real = [cv2.imread(str(path), cv2.IMREAD_COLOR) for path in photos(args.photos)]
    if not scenes or not real:
        parser.error(
            f"nothing to read: {len(scenes)} scenes in {args.scenes}, {len(real)} photos in {args.photos}"
        )
    detector, taught_nothing = Detector(), tempfile.mkdtemp()  # no taps stored here shape the readings
    print(f"{len(scenes)} scenes, {len(real)} real photos without dice")
    print(
        "| model | not a face from | unread kept from | recall | precision | read right | wholly right "
        "| false d6 / Cubes / card dice |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for model in args.model:
        classifier = FaceClassifier(model, data_dir=taught_nothing)
        for not_a_face, kept_from in RULES:
            # the reader reads both rules each time: the cut from its classifier, the other from the module
            classifier.not_a_face, vision.pipeline.UNREAD_KEPT_FROM = not_a_face, kept_from
            r = evaluate(detector, scenes, classifier, still=True)
            false = [
                sum(len(DiceReader(kind, detector, classifier).read(p, still=True)) for p in real)
                for kind in KINDS
            ]
            print(
                f"| {model.name} | {not_a_face} | {kept_from} | {r['recall']:.1%} | {r['precision']:.1%} "
                f"| {r['read_right']:.1%} | {round(r['images_wholly_right'] * r['images'])} of {r['images']} "
                f"| {' / '.join(map(str, false))} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
