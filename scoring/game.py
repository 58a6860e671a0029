"""What every game shares: events, options, the rules error, and the four questions.

A game is a state machine fed by events.  ``Game.apply(event)`` either moves the state
or raises ``IllegalMove`` with a message a player can read; the caller (the ledger)
throws a game away after a failed apply and rebuilds it by replay, so ``apply`` may
check as it goes.  Every game answers four questions: ``turn()`` (whose turn),
``roll_number()`` (which roll), ``dice_make()`` (what the dice showing make, in words)
and ``allowed()`` (what each player may do now).  ``view()`` gathers them, with the
totals, into one JSON-able dict.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from scoring.faces import Card, Face, Joker, UnknownFace, check_each_once, die_kind, parse_face


class IllegalMove(ValueError):
    """A move the rules forbid, or an event whose data is malformed."""


@dataclass(frozen=True)
class Event:
    """One entry of a game's log.

    ``type`` says what happened, ``player`` who did it (when it matters), ``data`` the
    details (JSON-able, treat as read-only).  ``seq`` is the 1-based position in the
    log and ``at`` the ISO time it was appended; both are set by the ledger.  ``auto``
    marks events the app appended by itself (a shuffle it drew), which an undo removes
    together with the move that caused them.
    """

    type: str
    data: Mapping[str, Any] = field(default_factory=dict)
    player: str | None = None
    seq: int = 0
    at: str | None = None
    auto: bool = False

    def to_json(self) -> dict[str, Any]:
        record: dict[str, Any] = {"seq": self.seq, "type": self.type}
        if self.player is not None:
            record["player"] = self.player
        record["data"] = dict(self.data)
        if self.at is not None:
            record["at"] = self.at
        if self.auto:
            record["auto"] = True
        return record

    @classmethod
    def from_json(cls, record: Mapping[str, Any]) -> Event:
        if not isinstance(record, Mapping):
            raise IllegalMove(f"an event must be a JSON object, not {type(record).__name__}")
        kind = record.get("type")
        if not isinstance(kind, str) or not kind:
            raise IllegalMove("an event needs a 'type' string")
        data = record.get("data", {})
        if not isinstance(data, Mapping):
            raise IllegalMove(f"{kind}: 'data' must be an object")
        player = record.get("player")
        if player is not None and not isinstance(player, str):
            raise IllegalMove(f"{kind}: 'player' must be a string")
        seq = record.get("seq", 0)
        if not isinstance(seq, int) or isinstance(seq, bool) or seq < 0:
            raise IllegalMove(f"{kind}: 'seq' must be a non-negative integer")
        auto = record.get("auto", False)
        if not isinstance(auto, bool):  # "false" would count as true, and an undo take it too
            raise IllegalMove(f"{kind}: 'auto' must be true or false")
        return cls(kind, dict(data), player, seq, record.get("at"), auto)


@dataclass(frozen=True)
class Option:
    """One game option: its default, what it means, and the values it may take, each with
    what it means (shown beside it where a game is set up)."""

    default: Any
    help: str
    choices: Mapping[Any, str] | None = None
    minimum: int | None = None
    maximum: int | None = None

    def check(self, name: str, value: Any) -> Any:
        if isinstance(self.default, bool):
            if not isinstance(value, bool):
                raise IllegalMove(f"option {name} must be true or false")
        elif isinstance(self.default, int):
            if not isinstance(value, int) or isinstance(value, bool):
                raise IllegalMove(f"option {name} must be a whole number")
            if self.minimum is not None and value < self.minimum:
                raise IllegalMove(f"option {name} must be at least {self.minimum}")
            if self.maximum is not None and value > self.maximum:
                raise IllegalMove(f"option {name} must be at most {self.maximum}")
        elif isinstance(self.default, str) and not isinstance(value, str):
            raise IllegalMove(f"option {name} must be a string")
        if self.choices is not None and value not in self.choices:
            raise IllegalMove(f"option {name} must be one of {', '.join(map(str, self.choices))}")
        return value


class Game:
    """Base class of every game.  Subclasses set the class attributes and handle events
    in methods named ``on_<event type>``."""

    name: ClassVar[str]  # registry key, e.g. "square-shooters/classic"
    title: ClassVar[str]  # what the UI shows, e.g. "Square Shooters: the Classic game"
    die_kind: ClassVar[str | None] = None  # "square-shooters", "cubes", or None for card games
    min_players: ClassVar[int] = 1
    max_players: ClassVar[int] = 10
    options_spec: ClassVar[Mapping[str, Option]] = {}
    # A roll's player is who rolled it, or (a dealer rolling each die to a player, as in
    # Twenty-One) who receives it.
    rolls_to_player: ClassVar[bool] = False

    @classmethod
    def most_players(cls, options: Mapping[str, Any]) -> int:
        """How many players the game takes with these options (``max_players`` with the
        options that allow most)."""
        return cls.max_players

    def __init__(self, players: Sequence[str], options: Mapping[str, Any] | None = None):
        self.players: tuple[str, ...] = check_players(players, self.min_players, self.max_players)
        self.options: dict[str, Any] = check_options(self.options_spec, options or {})
        self.notes: list[str] = []  # what happened, in words, one line per scored moment

    # -- events -------------------------------------------------------------------
    def apply(self, event: Event) -> None:
        handler = getattr(self, "on_" + event.type.replace("-", "_"), None)
        if handler is None:
            raise IllegalMove(f"{self.title} has no event {event.type!r}")
        if event.player is not None and event.player not in self.players:
            raise IllegalMove(f"{event.player!r} is not playing; players are {', '.join(self.players)}")
        if self.finished() and event.type not in self.events_after_end:
            raise IllegalMove("the game is over")
        try:
            handler(event)
        except UnknownFace as error:
            raise IllegalMove(str(error)) from None

    events_after_end: ClassVar[frozenset[str]] = frozenset()
    # Moves any player may make that end the game for everyone: what each does, in words,
    # and what to ask before (the page offers one button for the table, asking first).
    ending_moves: ClassVar[Mapping[str, tuple[str, str]]] = {}

    def random_event(self, rng: random.Random) -> Event | None:
        """The chance the game needs before the next move (a shuffle, a spin), drawn
        from ``rng`` as an event to append, or None.  Recording the outcome keeps a
        replay exact."""
        return None

    # -- the four questions -------------------------------------------------------------
    def turn(self) -> str | None:
        """Whose turn it is, or None when nobody's (game over, or everyone at once)."""
        raise NotImplementedError

    def roll_number(self) -> int | None:
        """Which roll of the turn being played this is (1-based), or None before its first."""
        return None

    def dice_per_roll(self) -> int | None:
        """How many dice one roll shows: the die kind's full set unless a game says
        otherwise; None when any number may be rolled (pip dice, card games)."""
        return die_kind(self.die_kind).dice if self.die_kind else None

    def roll_limit(self) -> int | None:
        """How many rolls the turn allows ("roll 2 of 3"), or None when it has no limit."""
        return None

    def dice_make(self) -> str:
        """What the dice showing make, in words ("" when no dice are showing)."""
        return ""

    def allowed(self) -> dict[str, list[str]]:
        """The event types each player may append now."""
        raise NotImplementedError

    # -- results --------------------------------------------------------------------------
    def totals(self) -> dict[str, int]:
        raise NotImplementedError

    def finished(self) -> bool:
        raise NotImplementedError

    def winners(self) -> list[str]:
        """The winners once the game is finished (several only on a shared win)."""
        if not self.finished():
            return []
        totals = self.totals()
        best = max(totals.values())
        return [player for player in self.players if totals[player] == best]

    def details(self) -> dict[str, Any]:
        """Game-specific parts of the view (target card, pot, bids...)."""
        return {}

    def view(self) -> dict[str, Any]:
        return {
            "game": self.name,
            "title": self.title,
            "players": list(self.players),
            "options": dict(self.options),
            "totals": self.totals(),
            "turn": self.turn(),
            "roll": self.roll_number(),
            "roll_limit": self.roll_limit(),
            "dice_per_roll": self.dice_per_roll(),
            "make": self.dice_make(),
            "allowed": self.allowed(),
            "finished": self.finished(),
            "winners": self.winners(),
            "notes": list(self.notes),
            **self.details(),
        }

    # -- helpers for subclasses ------------------------------------------------------
    def require_player(self, event: Event, expected: str | None = None) -> str:
        if event.player is None:
            raise IllegalMove(f"{event.type} needs a player")
        if expected is not None and event.player != expected:
            raise IllegalMove(f"it is {expected}'s turn, not {event.player}'s")
        return event.player

    def next_player(self, player: str) -> str:
        """The player seated after ``player`` (the first after the last)."""
        return self.players[(self.players.index(player) + 1) % len(self.players)]


def check_players(players: Sequence[str], minimum: int, maximum: int) -> tuple[str, ...]:
    if isinstance(players, str) or not isinstance(players, Sequence):
        raise IllegalMove("players must be a list of names")
    names = tuple(players)
    for name in names:
        if not isinstance(name, str) or not name.strip():
            raise IllegalMove("every player needs a name")
    if len(set(names)) != len(names):
        raise IllegalMove("two players have the same name")
    if not minimum <= len(names) <= maximum:
        raise IllegalMove(f"this game takes {minimum} to {maximum} players, not {len(names)}")
    return names


def check_options(spec: Mapping[str, Option], given: Mapping[str, Any]) -> dict[str, Any]:
    if not isinstance(given, Mapping):
        raise IllegalMove("options must be an object")
    unknown = set(given) - set(spec)
    if unknown:
        raise IllegalMove(f"unknown option {sorted(unknown)[0]!r}; options are {', '.join(spec) or 'none'}")
    return {name: option.check(name, given.get(name, option.default)) for name, option in spec.items()}


def data_field(event: Event, name: str, kind: type | tuple[type, ...], default: Any = ...) -> Any:
    """``event.data[name]``, checked to be of ``kind``; a clear IllegalMove otherwise."""
    if name not in event.data:
        if default is ...:
            raise IllegalMove(f"{event.type} needs '{name}'")
        return default
    value = event.data[name]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind in (int, (int,))):
        raise IllegalMove(f"{event.type}: '{name}' has the wrong type")
    return value


def read_roll(labels: Any, kind: str, count: int | Iterable[int] | None) -> tuple[Face, ...]:
    """Parse the faces of one roll of ``kind`` dice, checking how many there are and, for
    a set that prints each face once (Square Shooters: one deck), that none shows twice."""
    if not isinstance(labels, list | tuple) or not all(isinstance(x, str) for x in labels):
        raise IllegalMove("a roll's faces must be a list of face labels")
    dice = die_kind(kind)
    try:
        faces = tuple(dice.check(label) for label in labels)
    except UnknownFace as error:
        raise IllegalMove(str(error)) from None
    counts = (count,) if isinstance(count, int) else tuple(count or ())
    if counts and len(faces) not in counts:
        wanted = " or ".join(map(str, counts))
        raise IllegalMove(f"a roll here has {wanted} dice, not {len(faces)}")
    if dice.each_face_once:
        try:
            check_each_once(faces)
        except ValueError as error:
            raise IllegalMove(str(error)) from None
    return faces


def held_faces(event: Event, previous: Sequence[Face], faces: Sequence[Face]) -> tuple[Face, ...]:
    """The optional ``held`` list of a roll: faces kept on the table from the previous
    roll, which must have shown then and still show now."""
    held = data_field(event, "held", list, [])
    if not all(isinstance(label, str) for label in held):
        raise IllegalMove("'held' must be a list of face labels")
    kept = tuple(parse_face(label) for label in held)
    for face in kept:
        if face not in previous:
            raise IllegalMove(f"{face.label} was not showing, so it cannot be held")
        if face not in faces:
            raise IllegalMove(f"{face.label} was held, so it must still show")
    return kept


def count_jokers(faces: Iterable[Face]) -> int:
    return sum(isinstance(face, Joker) for face in faces)


def cards_only(faces: Iterable[Face]) -> list[Card]:
    return [face for face in faces if isinstance(face, Card)]
