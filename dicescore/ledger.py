"""The ledger: every game's append-only event log in SQLite.

A game *is* its log.  ``append`` checks a new event by replaying the log with it and
stores it only if the rules accept it, so a rejected move leaves no trace.  Totals are
never stored: ``game(id)`` replays the log.  The events table refuses UPDATE and
DELETE, so history can only grow; undo and corrections are events of their own.
"""

from __future__ import annotations

import copy
import json
import random
import sqlite3
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from dicescore.kept import KeptByVersion
from scoring.game import Event, Game, IllegalMove
from scoring.games import GAMES
from scoring.replay import LOG_EVENTS, check_seen, checked_log, checked_move, replay, start_game

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    created TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS events (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    type TEXT NOT NULL,
    player TEXT,
    data TEXT NOT NULL,
    at TEXT NOT NULL,
    auto INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, seq)
);
CREATE TRIGGER IF NOT EXISTS events_are_append_only_update BEFORE UPDATE ON events
BEGIN SELECT RAISE(ABORT, 'the event log is append-only'); END;
CREATE TRIGGER IF NOT EXISTS events_are_append_only_delete BEFORE DELETE ON events
BEGIN SELECT RAISE(ABORT, 'the event log is append-only'); END;
"""

# Random events drawn per move are bounded so a game that keeps asking cannot hang us.
MAX_RANDOM_EVENTS_PER_MOVE = 8


class UnknownGame(LookupError):
    """No game has that id."""


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


BUSY_WAIT_SECONDS = 10  # how long a write waits for another writer before it gives up


def connect(path: str | Path) -> sqlite3.Connection:
    """Open (creating if needed) a ledger database: WAL, and FULL sync so that an
    acknowledged event survives a crash or a power cut."""
    if str(path) != ":memory:":
        Path(path).parent.mkdir(parents=True, exist_ok=True)
    connection = sqlite3.connect(path, isolation_level=None, timeout=BUSY_WAIT_SECONDS)
    check_tables(connection, path)  # before anything is written to a file that is not ours
    if connection.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
        use_wal(connection)
    connection.execute("PRAGMA synchronous=FULL")
    connection.execute("PRAGMA foreign_keys=ON")
    connection.executescript(SCHEMA)
    return connection


# The columns of our tables, as SCHEMA makes them.
COLUMNS = {
    "games": {"id", "name", "created"},
    "events": {"game_id", "seq", "type", "player", "data", "at", "auto"},
}


def check_tables(connection: sqlite3.Connection, path: str | Path) -> None:
    """Refuse (sqlite3.DatabaseError) a database that holds another program's tables: adding
    ours, switching it to WAL and making its own ``events`` table append-only would change
    a file that is not ours.  A new, empty one is fine, and one with some of ours."""
    names = {
        name
        for (name,) in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        if not name.startswith("sqlite_")
    }
    # ours, or some of them: another connection may be making them at this moment
    ours = all(name in COLUMNS and columns(connection, name) == COLUMNS[name] for name in names)
    if not ours:
        connection.close()
        raise sqlite3.DatabaseError(
            f"{path} is not a dicescore games database (it holds {', '.join(sorted(names))});"
            " give another file with --db"
        )


def columns(connection: sqlite3.Connection, table: str) -> set[str]:
    return {row[1] for row in connection.execute(f"PRAGMA table_info({table})")}


def use_wal(connection: sqlite3.Connection, tries: int = 100) -> None:
    """Switch a new database to WAL (it stays WAL in the file).  The switch needs the file to
    itself and SQLite does not wait for it, so threads opening a new database at once (the
    camera and a page) retry briefly instead of failing with "database is locked"."""
    for attempt in range(tries):
        try:
            connection.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) or attempt == tries - 1:
                raise
            time.sleep(0.02)


# What the games list and the camera need of each game (``Ledger.summary``), kept for the
# log it was read from (its length and last event's time), by database file, game and when
# the game was made: a log only grows, so a longer one (a move, or an undo) is read again and
# the rest never is; a backup put back and played on to the same length has other times.  A
# household's finished games pile up, and each was replayed at every look at the front page,
# and every few seconds by a camera with no game in progress (session 64).
SUMMARIES = KeptByVersion()


class Ledger:
    """Games and their logs in one SQLite database (one connection per user of it)."""

    def __init__(self, connection: sqlite3.Connection, rng: random.Random | None = None):
        self.db = connection
        self.rng = rng or random.Random()
        # the database file, naming its games' summaries ("" for one in memory: none kept)
        self.file = next(
            (path for _, name, path in connection.execute("PRAGMA database_list") if name == "main"), ""
        )

    @classmethod
    def open(cls, path: str | Path, rng: random.Random | None = None) -> Ledger:
        return cls(connect(path), rng)

    def close(self) -> None:
        self.db.close()

    # -- reading --------------------------------------------------------------------
    def events(self, game_id: int) -> list[Event]:
        """The game's log; IllegalMove, naming the event, for a row no append could have
        written (the file edited by another program): data that is no JSON object, a gap."""
        self._require(game_id)
        rows = self.db.execute(
            "SELECT seq, type, player, data, at, auto FROM events WHERE game_id = ? ORDER BY seq",
            (game_id,),
        )
        events = []
        for number, (seq, kind, player, data, at, auto) in enumerate(rows, 1):
            try:
                details = json.loads(data)
            except (TypeError, ValueError):
                details = None
            if seq != number or not isinstance(details, dict):
                why = f"event #{number} is missing" if seq != number else "its data is not a JSON object"
                raise IllegalMove(f"game {game_id}'s log is damaged at event #{seq}: {why}")
            events.append(Event(kind, details, player, seq, at, bool(auto)))
        return events

    def game(self, game_id: int) -> Game:
        """The game's state, derived by replaying its log (its summary kept on the way)."""
        events = self.events(game_id)
        game = replay(events)
        name, created = self.db.execute("SELECT name, created FROM games WHERE id = ?", (game_id,)).fetchone()
        self._keep_summary(game_id, name, created, events, game)
        return game

    def game_names(self) -> list[tuple[int, str, str]]:
        """(id, game name, when it was made) of every game, the one whose last move is latest
        first, without replaying any."""
        return list(
            self.db.execute(
                "SELECT id, name, created FROM games ORDER BY"
                " (SELECT at FROM events WHERE game_id = games.id ORDER BY seq DESC LIMIT 1) DESC, id DESC"
            )
        )

    def games(self) -> list[dict[str, Any]]:
        """Every game, newest first, with its players, when its last move was made,
        whether it has ended and who won.  A game whose log the rules refuse (edited by
        hand, or kept under older rules) is listed ``damaged``, with why, not in the way
        of the others."""
        rows = self.db.execute("SELECT id, name, created FROM games ORDER BY id DESC").fetchall()
        return [self.summary(game_id, name, created) for game_id, name, created in rows]

    def summary(self, game_id: int, name: str, created: str) -> dict[str, Any]:
        """One game's entry in ``games``; its log is replayed only when it has grown since
        (``SUMMARIES``)."""
        kept = self._kept_summary(game_id, created)
        if kept is not None:
            return kept
        try:
            events = self.events(game_id)
            game = replay(events)
        except IllegalMove as error:  # not kept: new code may mend it
            return self._damaged(game_id, name, created, str(error))
        return self._keep_summary(game_id, name, created, events, game)

    def length(self, game_id: int) -> int:
        """The number of events in a game's log: its version, since the log only grows."""
        return self.db.execute("SELECT COUNT(*) FROM events WHERE game_id = ?", (game_id,)).fetchone()[0]

    def known_finished(self, game_id: int, created: str) -> bool:
        """Whether the game is known to have ended, from its kept summary: nothing replayed."""
        kept = self._kept_summary(game_id, created)
        return kept is not None and kept["finished"]

    def _kept_summary(self, game_id: int, created: str) -> dict[str, Any] | None:
        if not self.file:
            return None
        log = self.db.execute(
            "SELECT count(*), (SELECT at FROM events WHERE game_id = ? ORDER BY seq DESC LIMIT 1)"
            " FROM events WHERE game_id = ?",
            (game_id, game_id),
        ).fetchone()
        kept = SUMMARIES.get((self.file, game_id, created), tuple(log))
        return dict(kept) if kept is not None else None  # a copy: the caller may change it

    def _keep_summary(
        self, game_id: int, name: str, created: str, events: Sequence[Event], game: Game
    ) -> dict[str, Any]:
        summary = {
            "id": game_id,
            "game": name,
            "title": game.title,
            "created": created,
            "last_move": events[-1].at,
            "players": list(game.players),
            "finished": game.finished(),
            "winners": game.winners(),
        }
        if self.file:
            SUMMARIES.put((self.file, game_id, created), (len(events), events[-1].at), dict(summary))
        return summary

    def _damaged(self, game_id: int, name: str, created: str, why: str) -> dict[str, Any]:
        """A damaged game's entry in ``games``: what its rows still tell, and why."""
        game_class = GAMES.get(name)
        start = self.db.execute(
            "SELECT data FROM events WHERE game_id = ? AND seq = 1", (game_id,)
        ).fetchone()
        (last,) = self.db.execute("SELECT max(at) FROM events WHERE game_id = ?", (game_id,)).fetchone()
        try:
            players = json.loads(start[0])["players"]
        except (TypeError, ValueError, KeyError):  # no start, or one past reading
            players = []
        return {
            "id": game_id,
            "game": name,
            "title": game_class.title if game_class else name,
            "created": created,
            "last_move": last,
            "players": [str(player) for player in players] if isinstance(players, list) else [],
            "finished": False,
            "winners": [],
            "damaged": why,
        }

    # -- writing --------------------------------------------------------------------
    def new_game(self, name: str, players: Sequence[str], options: Mapping[str, Any] | None = None) -> int:
        if isinstance(players, tuple):
            players = list(players)
        start = Event(
            "start", {"game": name, "players": players, "options": {} if options is None else options}
        )
        start_game(start)  # checks names, players and options before anything is written
        with self._transaction():
            created = now()
            game_id = self.db.execute(
                "INSERT INTO games (name, created) VALUES (?, ?)", (name, created)
            ).lastrowid
            events = [self._insert(game_id, replace(start, seq=1, at=created))]
            self._draw_random_events(game_id, events)
        return game_id

    def append(self, game_id: int, event: Event, version: int | None = None) -> Event:
        """Append one move if the rules allow it (with any chance it then needs, drawn
        and recorded); returns the stored event.  ``version``: the log's length the move
        was made looking at, checked (``check_seen``) in the same transaction as the append.
        Raises IllegalMove (StaleMove for a stale move), storing nothing."""
        if event.type == "start":
            raise IllegalMove("a game has only one 'start' event")
        with self._transaction():
            events = self.events(game_id)
            stored = replace(event, seq=events[-1].seq + 1, at=now(), auto=False)
            if version is not None:
                check_seen(events, stored, version)
            game = checked_move(events, stored)
            events.append(self._insert(game_id, stored))
            self._draw_random_events(game_id, events, game)
        return stored

    def import_jsonl(self, lines: Iterable[str]) -> int:
        """Store a game exported by ``export_jsonl`` as a new game; returns its id."""
        events = parse_jsonl(lines)
        checked_log(events)  # the whole log must be legal before any of it is stored
        with self._transaction():
            game_id = self.db.execute(
                "INSERT INTO games (name, created) VALUES (?, ?)",
                (events[0].data["game"], events[0].at or now()),
            ).lastrowid
            for event in events:
                self._insert(game_id, event)
        return game_id

    def export_jsonl(self, game_id: int) -> str:
        return "".join(
            json.dumps(event.to_json(), ensure_ascii=False) + "\n" for event in self.events(game_id)
        )

    # -- inside ------------------------------------------------------------------------
    def _require(self, game_id: int) -> None:
        if self.db.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone() is None:
            raise UnknownGame(f"there is no game {game_id}")

    def _draw_random_events(self, game_id: int, events: list[Event], game: Game | None = None) -> None:
        game = game or replay(events)
        for _ in range(MAX_RANDOM_EVENTS_PER_MOVE):
            chance = game.random_event(self.rng)
            if chance is None:
                return
            chance = replace(chance, seq=events[-1].seq + 1, at=now(), auto=True)
            if chance.type in LOG_EVENTS:
                raise IllegalMove(f"a game may not draw a {chance.type!r} event")
            game = copy.deepcopy(game)
            game.apply(chance)
            events.append(self._insert(game_id, chance))
        raise RuntimeError(f"{game.title} kept asking for chance events")

    def _insert(self, game_id: int, event: Event) -> Event:
        self.db.execute(
            "INSERT INTO events (game_id, seq, type, player, data, at, auto) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                game_id,
                event.seq,
                event.type,
                event.player,
                json.dumps(dict(event.data), ensure_ascii=False),
                event.at or now(),
                int(event.auto),
            ),
        )
        return event

    def _transaction(self):
        return _Transaction(self.db)


class _Transaction:
    """BEGIN IMMEDIATE ... COMMIT, rolled back on any error, so that two writers
    never interleave their read-check-append."""

    def __init__(self, db: sqlite3.Connection):
        self.db = db

    def __enter__(self):
        self.db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind, error, trace):
        self.db.execute("ROLLBACK" if kind else "COMMIT")
        return False


class NotJson(ValueError):
    """NaN and Infinity, which Python's json takes and a browser's JSON.parse refuses."""


def not_json(constant: str) -> None:
    raise NotJson(f"{constant} is not JSON")


def is_time(value: Any) -> bool:
    """Whether ``value`` is a time as the ledger writes ``at``."""
    try:
        datetime.fromisoformat(value)
    except (TypeError, ValueError):
        return False
    return True


def parse_jsonl(lines: Iterable[str]) -> list[Event]:
    """Events from JSON lines (blank lines skipped); numbered in order when the lines
    carry no ``seq``.  Raises IllegalMove naming the bad line."""
    events: list[Event] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line, parse_constant=not_json)
        except json.JSONDecodeError as error:
            raise IllegalMove(f"line {number} is not JSON: {error.msg}") from None
        except NotJson as error:
            raise IllegalMove(f"line {number}: {error}") from None
        except (RecursionError, ValueError):  # nested past Python's stack, a 5,000-digit number
            raise IllegalMove(f"line {number} is JSON too deeply nested, or with a number too long") from None
        try:
            event = Event.from_json(record)
        except IllegalMove as error:
            raise IllegalMove(f"line {number}: {error}") from None
        if event.at is not None and not is_time(event.at):
            raise IllegalMove(f"line {number}: 'at' must be a time, as the app writes it (ISO 8601)")
        expected = len(events) + 1
        if event.seq not in (0, expected):
            raise IllegalMove(f"line {number}: seq {event.seq} should be {expected}")
        events.append(replace(event, seq=expected))
    if not events:
        raise IllegalMove("the log is empty")
    return events
