"""Face classifier latency: 9 crops (one Square Shooters roll) through FaceClassifier.classify.

    python benchmarks/bench_faces.py [--runs 500] [--crop 64]

Prints the median and 90th percentile over many runs, the crop size and each model's size,
for the ways the app reads: the camera's model at one turn (a video frame: the 2 ms budget),
and the default model at one turn and as it reads a photo (four turns, and a second look at
the crops it is unsure of: on these 9 rendered crops, few or none).  Each is timed in blocks of
consecutive runs, as the app runs it (calls interleaved one by one let the big model push the
small one out of the CPU's caches: 0.3 ms more for the camera's reading), and the blocks take
turns over several rounds so that all three see the same load on a shared machine.
"""

import argparse
import tempfile
import time

import numpy as np

from datasets.faces import TRAIN_FAMILIES, render_set
from vision.faces import DEFAULT_MODEL, FAST_MODEL, FaceClassifier

FRAME = {"turns": (0,), "second_look": False}
READINGS = {
    "camera: faces-fast.onnx, one turn (a video frame)": (FAST_MODEL, FRAME),
    "default: faces.onnx, one turn": (DEFAULT_MODEL, FRAME),
    "default: faces.onnx, four turns and a second look (a photo)": (DEFAULT_MODEL, {}),
}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=5, help="blocks of runs per reading, taken in turn")
    parser.add_argument(
        "--crop", type=int, default=64, help="crop side in pixels before the classifier resizes"
    )
    args = parser.parse_args()
    crops = render_set(9, 1, TRAIN_FAMILIES, size=args.crop)[0]
    with tempfile.TemporaryDirectory() as no_examples:
        models = {path: FaceClassifier(path, data_dir=no_examples) for path in (FAST_MODEL, DEFAULT_MODEL)}
        for path, how in READINGS.values():
            for _ in range(30):
                models[path].classify(crops, **how)
        times = {name: [] for name in READINGS}
        for _ in range(args.rounds):
            for name, (path, how) in READINGS.items():
                for _ in range(10):  # back into the caches after the other readings
                    models[path].classify(crops, **how)
                for _ in range(args.runs // args.rounds):
                    start = time.perf_counter()
                    models[path].classify(crops, **how)
                    times[name].append(time.perf_counter() - start)
    sizes = ", ".join(f"{path.name} {path.stat().st_size / 1e6:.2f} MB" for path in models)
    print(f"9 crops of {args.crop}x{args.crop} px ({sizes}), {args.runs} runs, one onnxruntime thread:")
    for name, seconds in times.items():
        ms = 1000 * np.array(seconds)
        print(f"  {name}: median {np.median(ms):.2f} ms, p90 {np.percentile(ms, 90):.2f} ms")


if __name__ == "__main__":
    main()
