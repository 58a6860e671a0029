"""How long replaying a 500-event game takes (target: at most 50 ms, median).

A seeded bot plays a long game through the rules (drawing cards, rolling, stopping,
answering showdowns); the benchmark then times ``scoring.replay.replay`` over the
whole log, the work every read of a game's state does.

    python benchmarks/bench_replay.py
"""

from __future__ import annotations

import random
import statistics
import time

from scoring.faces import SQUARE_SHOOTERS
from scoring.game import Event
from scoring.games import new_game
from scoring.replay import replay

EVENTS = 500
RUNS = 21


def random_roll(rng: random.Random) -> list[str]:
    return rng.sample(SQUARE_SHOOTERS.labels, 9)


def bot_move(game, rng: random.Random) -> Event:
    """One legal move for whoever may move, by a bot that stops early now and then."""
    chance = game.random_event(rng)
    if chance is not None:
        return Event(chance.type, chance.data, chance.player, auto=True)
    player = game.turn()
    moves = game.allowed()[player]
    if "challenge" in moves:
        opponent = next(p for p in game.players if p != player)
        return Event("challenge", {"opponent": opponent}, player)
    if "draw" in moves:
        return Event("draw", {}, player)
    if "stop" in moves and rng.random() < 0.3:
        return Event("stop", {}, player)
    return Event("roll", {"faces": random_roll(rng)}, player)


def play(game_name: str, options: dict, seed: int = 7) -> list[Event]:
    rng = random.Random(seed)
    start = Event("start", {"game": game_name, "players": ["Ana", "Bo", "Cy"], "options": options}, seq=1)
    events = [start]
    game = new_game(game_name, ["Ana", "Bo", "Cy"], options)
    while len(events) < EVENTS:
        move = bot_move(game, rng)
        move = Event(move.type, move.data, move.player, seq=len(events) + 1, auto=move.auto)
        game.apply(move)
        events.append(move)
    return events


def median_ms(events: list[Event]) -> tuple[float, float]:
    """Median wall time and median CPU time of one replay, in ms (the CPU time moves less
    when other work shares the machine)."""
    wall, cpu = [], []
    for _ in range(RUNS):
        began, began_cpu = time.perf_counter(), time.process_time()
        replay(events)
        wall.append((time.perf_counter() - began) * 1000)
        cpu.append((time.process_time() - began_cpu) * 1000)
    return statistics.median(wall), statistics.median(cpu)


def main() -> None:
    for name, options in (
        ("square-shooters/classic", {"rounds": 99}),
        ("square-shooters/rummy", {"winning_score": 100_000}),
        ("rodeo-rummy", {"winning_score": 100_000}),
    ):
        events = play(name, options)
        wall, cpu = median_ms(events)
        summary = f"median {wall:5.1f} ms wall, {cpu:5.1f} ms CPU ({RUNS} runs)"
        print(f"replay {name:26} {len(events)} events: {summary}")


if __name__ == "__main__":
    main()
