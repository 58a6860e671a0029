"""Roll clips: the same dice thrown again and again on one table, with the rolls they show.

    python -m datasets.scenes.clips --out datasets/demo/demo.mp4 --rolls 9 --seed 5 --hand 3 --size 320 240
    python -m datasets.scenes.clips --out data/clips/a.mp4 --rolls 3 --seed 11 --hand 1
    python -m datasets.scenes.clips --out data/clips/b.mp4 --rolls 3 --split heldout
    python -m datasets.scenes.clips --out data/clips/c.mp4 --rolls 3 --dice d6 --count 5 --pickup

A clip is, per roll: the dice falling in and tumbling (rendered with motion blur), the settled
table held for a few seconds (its last render repeated with fresh sensor noise, which is what a
camera over a still table gives); optionally a hand waving over the settled dice; and with
``--pickup``, a hand taking the dice off the table one by one, then the empty table, as a
player gathers them for the next throw.  Next to the
clip, CLIP.rolls.jsonl has one line per roll in the order they settle: ``{"roll", "faces":
[labels of the dice whose top face is at least half visible, left to right], "cocked"}``, the
answer an end-to-end test checks.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

import cv2
import numpy as np
from tqdm import tqdm

from datasets.scenes.render import render_scene
from scoring.faces import DIE_KINDS

FPS = 30
TUMBLE = 45  # frames while the dice fall and roll
SETTLED = 75  # the physics frame at which the dice lie still
STEP = 3  # moving frames are rendered every STEP frames and each shown STEP times: 3x less render time
HAND = (76, 120)  # frames of a hand waving over the settled dice
PICKUP = (124, 184)  # frames of a hand taking the dice off the table, after any waving
EMPTY = PICKUP[1] + STEP  # the table after the dice were taken, the hand gone


def write_clip(path: Path, frames, fps: int = FPS) -> None:
    """Frames to an MPEG-4 (mp4v) file, which OpenCV writes and reads everywhere, without ffmpeg."""
    frames = iter(frames)
    first = next(frames)
    writer = cv2.VideoWriter(
        str(path), cv2.VideoWriter_fourcc(*"mp4v"), fps, (first.shape[1], first.shape[0])
    )
    if not writer.isOpened():
        raise RuntimeError(f"OpenCV cannot write {path}")
    writer.write(first)
    for frame in frames:
        writer.write(frame)
    writer.release()


def hold(rng, image: np.ndarray, seconds: float):
    """A still table as a camera films it: the same picture, new sensor noise each frame."""
    for _ in range(int(seconds * FPS)):
        yield np.clip(image + rng.normal(0, 1.5, image.shape), 0, 255).astype(np.uint8)


def build_clip(
    out: Path,
    seed: int,
    rolls: int,
    kind: str,
    count: int,
    hand_rolls=(),
    size=(400, 300),
    settle_seconds=5.0,
    split="train",
    pickup=False,
):
    rng = np.random.default_rng(seed)
    out.parent.mkdir(parents=True, exist_ok=True)
    answers, frames = [], []
    with tempfile.TemporaryDirectory(prefix="dicescore-clip-") as tmp:
        for roll in tqdm(range(rolls), desc="rolls", unit="roll"):
            hand = HAND if roll in hand_rolls else None
            tumble = list(range(1, TUMBLE + 1, STEP))
            waving = list(range(HAND[0], HAND[1] + 1, STEP)) if hand else []
            picking = list(range(PICKUP[0], PICKUP[1] + 1, STEP)) if pickup else []
            wanted = tumble + [SETTLED] + waving + picking + ([EMPTY] if pickup else [])
            folder = Path(tmp) / f"roll{roll}"
            truths = render_scene(
                seed,
                0,
                folder,
                split,
                size,
                frames=wanted,
                roll=roll,
                kind=kind,
                count=count,
                hand=hand,
                pickup=PICKUP if pickup else None,
            )
            images = {t["image"]: cv2.imread(str(folder / t["image"])) for t in truths}
            by_frame = dict(zip(wanted, truths, strict=True))
            frames += [images[by_frame[f]["image"]] for f in tumble for _ in range(STEP)]
            settled = images[by_frame[SETTLED]["image"]]
            frames += hold(rng, settled, settle_seconds if hand is None else 1.0)
            if hand:
                frames += [images[by_frame[f]["image"]] for f in waving for _ in range(STEP)]
                frames += hold(rng, settled, 3.0)
            if pickup:
                frames += [images[by_frame[f]["image"]] for f in picking for _ in range(STEP)]
                frames += hold(rng, images[by_frame[EMPTY]["image"]], 1.0)
            seen = [d for d in by_frame[SETTLED]["dice"] if d["visible"] >= 0.5]
            seen.sort(key=lambda d: np.mean(d["quad"], 0)[0])
            answers.append(
                {"roll": roll, "faces": [d["label"] for d in seen], "cocked": [d["cocked"] for d in seen]}
            )
    write_clip(out, frames)
    rolls_path = out.with_suffix(".rolls.jsonl")
    rolls_path.write_text("".join(json.dumps(answer) + "\n" for answer in answers))
    return out, rolls_path


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True, help="the clip, .mp4")
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--rolls", type=int, default=9)
    parser.add_argument("--dice", default="cubes", choices=tuple(DIE_KINDS))
    parser.add_argument("--count", type=int, default=6, help="dice per roll")
    parser.add_argument(
        "--hand", type=int, nargs="*", default=[], metavar="ROLL", help="rolls a hand waves over"
    )
    parser.add_argument(
        "--pickup", action="store_true", help="a hand takes the dice off the table after each roll"
    )
    parser.add_argument("--size", type=int, nargs=2, default=(400, 300), metavar=("W", "H"))
    parser.add_argument(
        "--settle",
        type=float,
        default=5.0,
        metavar="SECONDS",
        help="how long each settled roll is held (one a hand waves over: 1 s, and 3 s after the hand)",
    )
    parser.add_argument(
        "--split",
        choices=("train", "heldout"),
        default="train",
        help="heldout: tables, lights, distractors and artwork that training scenes never use",
    )
    args = parser.parse_args(argv)
    clip, rolls = build_clip(
        args.out,
        args.seed,
        args.rolls,
        args.dice,
        args.count,
        set(args.hand),
        tuple(args.size),
        settle_seconds=args.settle,
        split=args.split,
        pickup=args.pickup,
    )
    print(f"wrote {clip} ({clip.stat().st_size / 1e6:.1f} MB) and {rolls}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
