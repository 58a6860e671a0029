"""Face crop rendering speed: crops per second from one process and from a pool of workers.

    python benchmarks/bench_render_faces.py [--crops 2000] [--rounds 5] [--workers 2] [--warm-up 20000]

Renders seeded sets of the trained families at 64x64 px (``datasets.faces.render_set``, as
``models.train_faces`` renders its pool), after a warm-up set that fills the glyph cache the way
a long training render has it filled (each of ~140 fonts draws each glyph at three weights the
first time it is asked for: 3,000 crops in, a tenth of the crops still wait for a new glyph).
Prints the median over rounds for one process, and for
``--workers`` spawned processes each rendering its own chunk of a round (as the training pool
does), so the pool's figure includes handing the crops back.
"""

import argparse
import time
from multiprocessing import get_context

import numpy as np

from datasets.faces import TRAIN_FAMILIES, render_set


def render_chunk(job):
    seed, start, n = job
    return render_set(n, seed, TRAIN_FAMILIES, start=start)[0]


def warm_up(crops: int):
    render_set(crops, 0, TRAIN_FAMILIES)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--crops", type=int, default=2000, help="crops per round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--warm-up", type=int, default=20000, help="crops rendered before timing")
    args = parser.parse_args()

    warm_up(args.warm_up)
    alone = []
    for r in range(args.rounds):
        start = time.perf_counter()
        render_set(args.crops, 1 + r, TRAIN_FAMILIES)
        alone.append(args.crops / (time.perf_counter() - start))

    pooled = []
    share = args.crops // args.workers
    with get_context("spawn").Pool(args.workers, initializer=warm_up, initargs=(args.warm_up,)) as pool:
        pool.map(render_chunk, [(0, 0, 1)] * args.workers, chunksize=1)  # wait for every warm-up
        for r in range(args.rounds):
            jobs = [(1 + r, w * share, share) for w in range(args.workers)]
            start = time.perf_counter()
            pool.map(render_chunk, jobs, chunksize=1)
            pooled.append(share * args.workers / (time.perf_counter() - start))

    print(f"64x64 crops of the trained families, {args.crops} a round, median of {args.rounds} rounds:")
    print(f"  one process: {np.median(alone):.0f} crops/s")
    print(f"  {args.workers} worker processes: {np.median(pooled):.0f} crops/s")


if __name__ == "__main__":
    main()
