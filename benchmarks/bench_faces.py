"""Face classifier latency: 9 crops (one Square Shooters roll) through FaceClassifier.classify.

    python benchmarks/bench_faces.py [--runs 500] [--crop 64]

Prints the median and 90th percentile over many runs, the crop size and the model's size, for
one turn (a video frame: the 2 ms budget) and for four turns (a still photo), timed in
alternation so that both see the same load on a shared machine.
"""

import argparse
import tempfile
import time

import numpy as np

from datasets.faces import TRAIN_FAMILIES, render_set
from vision.faces import ALL_TURNS, FaceClassifier

READINGS = {"one turn (video frame)": (0,), "four turns (still photo)": ALL_TURNS}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=500)
    parser.add_argument(
        "--crop", type=int, default=64, help="crop side in pixels before the classifier resizes"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as no_examples:
        classifier = FaceClassifier(data_dir=no_examples)
        crops = render_set(9, 1, TRAIN_FAMILIES, size=args.crop)[0]
        for _ in range(30):
            classifier.classify(crops, turns=ALL_TURNS)
        times = {name: [] for name in READINGS}
        for _ in range(args.runs):
            for name, turns in READINGS.items():
                start = time.perf_counter()
                classifier.classify(crops, turns=turns)
                times[name].append(time.perf_counter() - start)
    size_mb = classifier.model_path.stat().st_size / 1e6
    model = f"{classifier.model_path.name} {size_mb:.2f} MB"
    print(f"9 crops of {args.crop}x{args.crop} px, model {model}, {args.runs} runs:")
    for name, seconds in times.items():
        ms = 1000 * np.array(seconds)
        print(f"  {name}: median {np.median(ms):.2f} ms, p90 {np.percentile(ms, 90):.2f} ms")


if __name__ == "__main__":
    main()
