"""Rummy meld speed: best_melds on random nine-face rolls.

    python benchmarks/bench_melds.py [--rolls 3000] [--seed 1]

Each call is timed on its own (time.perf_counter) and the median printed, so other work
on a shared machine moves it little.  Target: 9 faces, jokers wild, <= 2 ms.
"""

import argparse
import random

from rolls import median_seconds, roll

from scoring.faces import Rank
from scoring.melds import best_melds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rolls", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    any_jokers = [roll(rng, rng.randint(0, 2)) for _ in range(args.rolls)]
    two_jokers = [roll(rng, 2) for _ in range(args.rolls)]
    four_five_six = {Rank.FOUR, Rank.FIVE, Rank.SIX}

    def runs_holding_4_5_6(meld) -> bool:
        return meld.kind == "run" and four_five_six <= {card.rank for card in meld.cards}

    cases = [
        ("square-shooters, 0-2 jokers wild", {}, any_jokers),
        ("square-shooters, 2 jokers wild", {}, two_jokers),
        (
            "rodeo-rummy, 0-2 jokers, 7s and 8s wild",
            {"table": "rodeo-rummy", "wild_ranks": ("7", "8")},
            any_jokers,
        ),
        (
            "rodeo-rummy, 2 jokers, 7s and 8s wild",
            {"table": "rodeo-rummy", "wild_ranks": ("7", "8")},
            two_jokers,
        ),
        (
            "rodeo-rummy, 0-2 jokers, keep runs holding 4 5 6",
            {"table": "rodeo-rummy", "keep": runs_holding_4_5_6},
            any_jokers,
        ),
    ]
    for name, options, rolls in cases:
        ms = 1e3 * median_seconds(lambda faces, options=options: best_melds(faces, **options), rolls)
        print(f"best_melds, 9 faces, {name}: median {ms:.3f} ms over {len(rolls)} rolls")


if __name__ == "__main__":
    main()
