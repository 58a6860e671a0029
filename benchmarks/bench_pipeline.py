"""A 1280x720 frame through detect + classify + track, against a 30 fps camera's 33 ms.

    python benchmarks/bench_pipeline.py [--runs 200] [--threads 1]

The frame is a committed rendered scene (tests/vision/fixtures/scenes), its middle 16:9 band
scaled to 1280x720 as a webcam frames it (not stretched: squashed dice are found less well),
with fresh sensor noise each run. Three costs, medians over the runs:

- full: every stage on every frame (what a settling table costs, the worst case);
- the stages alone: detect, rectify + classify, and the tracker's own work;
- clip: the real mix on the demo clip, where the tracker runs the detector only on still
  frames while a roll settles (tumbling and idle frames cost the motion check alone), and
  reads each settled roll's last frame again as a photo, as the app does.

Besides, once a roll: that second look at a settled 1280x720 frame (the default face model,
several scales, four turns), which has no frame time to keep to.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

import cv2
import numpy as np

from vision.detector import Detector
from vision.faces import DEFAULT_MODEL, FAST_MODEL, FaceClassifier
from vision.pipeline import DiceReader
from vision.readings import rectify
from vision.tracker import RollTracker

ROOT = Path(__file__).resolve().parent.parent
SCENE = ROOT / "tests" / "vision" / "fixtures" / "scenes" / "scene00101_0075.png"
DEMO = ROOT / "datasets" / "demo" / "demo.mp4"
FRAME_MS = 1000 / 30


def median_ms(times) -> float:
    return float(np.median(times) * 1000)


def webcam_frame(image: np.ndarray) -> np.ndarray:
    """The middle 16:9 band of a 4:3 picture at 1280x720, as a 16:9 webcam would frame it."""
    height = round(image.shape[1] * 9 / 16)
    top = (image.shape[0] - height) // 2
    return cv2.resize(image[top : top + height], (1280, 720), interpolation=cv2.INTER_LINEAR)


def timed(function, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return median_ms(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    kind = json.loads(SCENE.with_suffix(".json").read_text())["dice"][0]["kind"]
    frame = webcam_frame(cv2.imread(str(SCENE)))
    rng = np.random.default_rng(0)
    frames = [np.clip(frame + rng.normal(0, 1.5, frame.shape), 0, 255).astype(np.uint8) for _ in range(8)]
    with tempfile.TemporaryDirectory() as no_examples:
        classifier = FaceClassifier(FAST_MODEL, data_dir=no_examples)  # the camera's
        reader = DiceReader(kind, Detector(threads=args.threads), classifier)
        found = reader.detector.detect(frame)
        tracker = RollTracker(fps=30)
        count = iter(range(10**9))

        def full():
            image = frames[next(count) % len(frames)]
            tracker.update(image, reader.read(image))

        for _ in range(20):
            full()
        stages = {
            "full: detect + classify + track": timed(full, args.runs),
            "detect": timed(lambda: reader.detector.detect(frame), args.runs),
            "rectify + classify": timed(
                lambda: reader.classifier.classify(
                    rectify(frame, found.quads), kind=kind, turns=(0,), second_look=False, pips=False
                ),
                args.runs,
            ),
            "track (motion check + vote)": timed(
                lambda: tracker.update(frames[next(count) % len(frames)], found), args.runs
            ),
        }
        photos = FaceClassifier(DEFAULT_MODEL, data_dir=no_examples)
        look = timed(lambda: DiceReader(kind, reader.detector, photos).read(frame, still=True), LOOKS)
        print(f"{len(found)} dice found in a 1280x720 frame ({SCENE.name}), {args.threads} thread(s):")
        for name, ms in stages.items():
            print(f"  {name:34s} median {ms:6.2f} ms = {ms / FRAME_MS:.2f} of a 30 fps frame (33.3 ms)")
        print(f"  {'once a roll: the frame as a photo':34s} median {look:6.1f} ms ({LOOKS} runs)")
        if DEMO.is_file():  # the demo clip shows Cubes: the same models, read as that kind
            cubes = DiceReader("cubes", reader.detector, reader.classifier)
            clip(cubes, DiceReader("cubes", reader.detector, photos))


LOOKS = 15  # runs of the second look: it takes a tenth of a second or more


def clip(reader: DiceReader, photo_reader: DiceReader) -> None:
    video = cv2.VideoCapture(str(DEMO))
    tracker = RollTracker(
        fps=video.get(cv2.CAP_PROP_FPS) or 30, look_again=lambda frame: photo_reader.read(frame, still=True)
    )
    times, rolls = [], 0
    while True:
        ok, frame = video.read()
        if not ok:
            break
        frame = webcam_frame(frame)
        start = time.perf_counter()
        rolls += tracker.update(frame, lambda frame=frame: reader.read(frame)) is not None
        times.append(time.perf_counter() - start)
    ms = median_ms(times)
    print(
        f"  demo clip, {len(times)} frames at 1280x720, {rolls} rolls: median {ms:.2f} ms a frame "
        f"= {ms / FRAME_MS:.2f} of a 30 fps frame; mean {1000 * np.mean(times):.2f} ms, "
        f"slowest {1000 * np.max(times):.0f} ms (a roll's second look)"
    )


if __name__ == "__main__":
    main()
