"""Where rolls come from when nobody types them in: a camera, a recording, the demo.

A source yields settled rolls; ``feed`` appends each one to the table's game (the dice game
in progress, of the source's die kind, played last: ``table_game``) as the roll of the
player who may roll now; while that game waits for another move, the roll waits too.
``open_roll_source`` names them:

* a camera (a webcam index, a video file, a folder of images, an http/rtsp URL: what
  ``dicescore watch`` takes), read by ``webui.camera``, which appends its rolls itself;
* a recording: a JSON-lines file with one roll a line, either ``{"faces": [labels],
  "top": [[[label, p], ...], ...]}`` or the ``{"dice": [{"label", "top", ...}]}`` shape
  ``dicescore watch`` prints (a die it could not read taking its likeliest face, marked
  unsure), optionally with ``"wait": seconds`` before it (default ``RECORDED_PACE``);
* ``demo``: a Cubes game for three, so a newcomer sees a game being played at once; it
  starts that game once a run (when it ends, the video plays on and scores a Cubes game
  started on the page; a demo left running all evening does not fill the games list with
  its own).  It is the demo video read by
  the camera pipeline when both the video and the detector model exist, else seeded
  random throws at a table's pace.
"""

from __future__ import annotations

import json
import logging
import math
import random
import sqlite3
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

from flask import Flask

from dicescore.ledger import Ledger
from scoring.faces import CUBES_DICE, UnknownFace
from scoring.game import Event, IllegalMove
from scoring.games import GAMES

RECORDED_PACE = 3.0  # seconds between recorded rolls, about a real table's pace
WAIT_FOR_GAME = 0.5  # how often to look for a game that takes the next roll

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Roll:
    """One settled roll: its faces and, per die, the classifier's top-k guesses."""

    faces: list[str]
    top: list[list[Any]] | None = None
    wait: float = RECORDED_PACE
    unsure: tuple[int, ...] = ()  # dice whose face is a guess, as the camera marks them

    def event(self, player: str) -> Event:
        data: dict[str, Any] = {"faces": self.faces}
        if self.top is not None:
            data["top"] = self.top
        if self.unsure:
            data["unsure"] = list(self.unsure)
        return Event("roll", data, player)


class RecordedRolls:
    """Rolls read from a JSON-lines recording, at the pace it asks for."""

    kind = None  # a recording may hold rolls of any dice

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.rolls = [parse_roll(line, number) for number, line in self.lines()]

    def lines(self) -> Iterator[tuple[int, str]]:
        try:
            text = self.path.read_text(encoding="utf-8")
        except OSError as error:
            raise IllegalMove(f"cannot read the recording {self.path}: {error.strerror}") from None
        except UnicodeDecodeError:
            raise IllegalMove(f"{self.path} is not a recording: JSON lines are text (UTF-8)") from None
        return ((number, line) for number, line in enumerate(text.splitlines(), 1) if line.strip())

    def __iter__(self) -> Iterator[Roll]:
        for roll in self.rolls:
            time.sleep(roll.wait)
            yield roll


DEMO_PLAYERS = ("Ana", "Bo", "Cy")


class DemoRolls:
    """Endless seeded throws of the six Cubes cubes, each die with the classifier-style
    top-3 guesses a tap offers first."""

    kind = "cubes"

    def __init__(self, seed: int = 2026, pace: float = RECORDED_PACE):
        self.seed = seed
        self.pace = pace
        self.start_game = DemoGame()

    def __iter__(self) -> Iterator[Roll]:
        rng = random.Random(self.seed)
        labels = CUBES_DICE.labels
        while True:
            time.sleep(self.pace)
            faces = [rng.choice(labels) for _ in range(CUBES_DICE.dice)]
            top = [demo_guesses(face, labels, rng) for face in faces]
            yield Roll(faces, top, self.pace)


class DemoGame:
    """Starts the demo's Cubes game for Ana, Bo and Cy, the first time it is asked only."""

    def __init__(self):
        self.started = False

    def __call__(self, ledger: Ledger) -> None:
        if not self.started:
            self.started = True
            ledger.new_game("cubes", list(DEMO_PLAYERS))


def demo_guesses(face: str, labels: tuple[str, ...], rng: random.Random) -> list[list[Any]]:
    """A confident reading of ``face`` followed by two runners-up."""
    confidence = round(rng.uniform(0.8, 0.99), 2)
    others = rng.sample([label for label in labels if label != face], 2)
    rest = round(1 - confidence, 2)
    return [[face, confidence], [others[0], round(rest * 0.7, 2)], [others[1], round(rest * 0.3, 2)]]


def parse_roll(line: str, number: int) -> Roll:
    try:
        record = json.loads(line)
        unsure: tuple[int, ...] = ()
        if "dice" in record:
            dice = record["dice"]
            top = [die.get("top", []) for die in dice]
            # a die `dicescore watch` could not read (label null) replays as its likeliest
            # face, marked unsure, as the camera records it
            unsure = tuple(i for i, die in enumerate(dice) if die["label"] is None and top[i])
            faces = [top[i][0][0] if i in unsure else die["label"] for i, die in enumerate(dice)]
        else:
            faces, top = record["faces"], record.get("top")
        wait = float(record.get("wait", RECORDED_PACE))
    except (ValueError, TypeError, KeyError, IndexError, AttributeError, RecursionError) as error:
        raise IllegalMove(f"recording line {number} is not a roll: {error}") from None
    if not 0 <= wait < math.inf:
        raise IllegalMove(f"recording line {number}: 'wait' is a number of seconds, 0 or more")
    if not isinstance(faces, list) or not all(isinstance(face, str) for face in faces):
        raise IllegalMove(f"recording line {number}: faces must be a list of labels")
    return Roll(faces, top, wait, unsure)


def open_roll_source(spec: str | None):
    """The source named on the command line: none (dice entered by hand), the demo, a
    recording, or a camera.  A camera that cannot be opened raises ``SourceError``."""
    if spec in (None, "", "manual"):
        return None
    if spec.endswith(".jsonl"):
        return RecordedRolls(spec)
    from webui import camera  # OpenCV and onnxruntime: loaded only when a camera is asked for

    if spec == "demo":
        return camera.demo_camera() or DemoRolls()
    return camera.open_camera(spec)


def start(app: Flask, source) -> threading.Thread | None:
    """Run ``source`` for ``app`` in the background: a camera watches the table itself;
    the rolls of any other source are fed."""
    watch = getattr(source, "watch", None)
    return watch(app) if watch is not None else feed(app, source)


class TableGame(NamedTuple):
    """The game a roll seen at the table goes to, and what the camera needs to read it."""

    game_id: int
    player: str | None  # who rolls now; None while the game waits for another move
    die_kind: str
    dice: int | None  # how many dice a roll shows now; None when any number may
    waits_for: str = ""  # the moves it waits for instead, in words, while no one may roll


def table_game(ledger: Ledger, kind: str | None = None) -> TableGame | None:
    """The game a camera at the table is watching: the dice game in progress (of die
    ``kind``, if given) played last, with the player who may roll now (the one whose turn
    it is, if several).  While it waits for another move (a card drawn, a spin), no one
    may roll: a roll then goes to no game, never to an older one."""
    # Only dice games of the right kind are looked at, latest played first, until one is in
    # progress: the camera asks every few seconds, and a household's finished games grow, so
    # a finished one is passed over by its summary, kept when it was last replayed.
    for game_id, name, created in ledger.game_names():
        game_class = GAMES.get(name)
        if game_class is None or game_class.die_kind is None:
            continue
        if (kind is not None and game_class.die_kind != kind) or ledger.known_finished(game_id, created):
            continue
        try:
            game = ledger.game(game_id)
        except IllegalMove:  # a damaged log (listed as such on the front page): not the table's
            continue
        if game.finished():
            continue
        allowed = game.allowed()
        rollers = [player for player, moves in allowed.items() if "roll" in moves]
        if not rollers:
            waits = [f"{player} to {' or '.join(moves)}" for player, moves in allowed.items() if moves]
            return TableGame(game_id, None, game.die_kind, None, "; ".join(waits))
        player = game.turn() if game.turn() in rollers else rollers[0]
        return TableGame(game_id, player, game.die_kind, game.dice_per_roll())
    return None


def feed(app: Flask, source) -> threading.Thread:
    """Append every roll of ``source`` to the table's game, in a background thread."""

    def run() -> None:
        ledger = Ledger.open(app.config["DATABASE"])
        try:
            for roll in source:
                target = table_game(ledger, source.kind)
                if target is None and hasattr(source, "start_game"):
                    source.start_game(ledger)
                    app.extensions["dicescore.changes"].notify()
                    target = table_game(ledger, source.kind)
                while target is None or target.player is None:  # a game to start, or a move to make
                    time.sleep(WAIT_FOR_GAME)
                    target = table_game(ledger, source.kind)
                try:
                    ledger.append(target.game_id, roll.event(target.player))
                except (IllegalMove, UnknownFace) as error:
                    log.warning("roll %s not scored: %s", " ".join(roll.faces), error)
                    continue
                except sqlite3.Error as error:  # a full disk or a read-only file: keep going
                    log.error("roll %s not kept: the games database failed: %s", " ".join(roll.faces), error)
                    continue
                app.extensions["dicescore.changes"].notify()
        finally:
            ledger.close()

    thread = threading.Thread(target=run, name="dicescore-source", daemon=True)
    thread.start()
    return thread
