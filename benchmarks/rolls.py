"""What the scoring benchmarks share: random nine-face rolls and a per-call median."""

import random
import statistics
import time

from scoring.faces import CARD_LABELS

JOKERS = ["JOKER_BLACK", "JOKER_RED"]


def roll(rng: random.Random, jokers: int) -> list[str]:
    """Nine different Square Shooters faces, ``jokers`` of them jokers."""
    faces = rng.sample(CARD_LABELS, 9 - jokers) + JOKERS[:jokers]
    rng.shuffle(faces)
    return faces


def median_seconds(call, rolls, warm_up: int = 100) -> float:
    """The median time of ``call(faces)`` over the rolls, each call timed on its own so
    that other work on a shared machine moves the median little."""
    for faces in rolls[:warm_up]:
        call(faces)
    times = []
    for faces in rolls:
        start = time.perf_counter()
        call(faces)
        times.append(time.perf_counter() - start)
    return statistics.median(times)
