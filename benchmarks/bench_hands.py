"""Poker hand speed: best_hand and match_target on random nine-face rolls.

    python benchmarks/bench_hands.py [--rolls 5000] [--seed 1]

Each call is timed on its own (time.perf_counter) and the median printed, so other work
on a shared machine moves it little.  Target: best_hand, 9 faces with 2 jokers, <= 200 us.
"""

import argparse
import random

from rolls import median_seconds, roll

from scoring.hands import Target, best_hand, match_target


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rolls", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    target = Target.from_labels("full_house", ["KS", "KH", "KD", "4S", "4H"], 8)
    cases = [
        ("best_hand, 9 faces, 2 jokers", best_hand, [roll(rng, 2) for _ in range(args.rolls)]),
        ("best_hand, 9 faces, 0 jokers", best_hand, [roll(rng, 0) for _ in range(args.rolls)]),
        (
            "best_hand, 9 faces, 0-2 jokers",
            best_hand,
            [roll(rng, rng.randint(0, 2)) for _ in range(args.rolls)],
        ),
        (
            "match_target (full house), 9 faces, 0-2 jokers",
            lambda faces: match_target(target, faces),
            [roll(rng, rng.randint(0, 2)) for _ in range(args.rolls)],
        ),
    ]
    for name, call, rolls in cases:
        print(f"{name}: median {1e6 * median_seconds(call, rolls):.1f} us over {len(rolls)} rolls")


if __name__ == "__main__":
    main()
