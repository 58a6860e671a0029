"""Face classifier latency: 9 crops (one Square Shooters roll) through FaceClassifier.classify.

    python benchmarks/bench_faces.py [--runs 500] [--crop 64]

Prints the median and 90th percentile over many runs, the crop size and the model's size.
"""

import argparse
import tempfile
import time

import numpy as np

from datasets.faces import TRAIN_FAMILIES, render_set
from vision.faces import FaceClassifier


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
            classifier.classify(crops)
        times = []
        for _ in range(args.runs):
            start = time.perf_counter()
            classifier.classify(crops)
            times.append(time.perf_counter() - start)
    ms = 1000 * np.array(times)
    size_mb = classifier.model_path.stat().st_size / 1e6
    print(
        f"9 crops of {args.crop}x{args.crop} px, model {classifier.model_path.name} {size_mb:.2f} MB: "
        f"median {np.median(ms):.2f} ms, p90 {np.percentile(ms, 90):.2f} ms over {args.runs} runs"
    )


if __name__ == "__main__":
    main()
