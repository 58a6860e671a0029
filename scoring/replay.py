"""Replaying a game's log: the state of a game is what its events make of it.

Three event types belong to the log rather than to any one game:

* ``start`` (always first): ``{"game": name, "players": [...], "options": {...}}``;
* ``undo``: cancels the latest move still in force (a correction included), together
  with the automatic events the app appended after it; ``{"seq": n}``, when given, is the
  move the player means to undo, and the undo is refused if another has come since;
* ``correct``: ``{"roll": seq, "faces": [...]}`` replaces the faces of the roll event
  numbered ``seq``; every later event is then re-derived from the corrected faces.
  ``"checked": [dice]`` names the dice a player looked at: a face the camera guessed and
  the player kept is checked, no longer a guess.

A move may say which ``version`` of the log (its length) the player was looking at when
they made it (``check_seen``): a move made against a log that has since changed what it
means is refused as stale (``StaleMove``), so that a double tap, or a tap on a board the
camera's roll has just overtaken, is never stored as a second move.

Everything else is handed to the game itself.  A new move (``checked_move``) may carry
only the fields its rules read, and a roll besides them the marks the app adds
(``ROLL_MARKS``), so that a typo or an odd shape never sits in the log for good.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from scoring.game import Event, Game, IllegalMove, data_field
from scoring.games import new_game

LOG_EVENTS = frozenset({"start", "undo", "correct"})
LOG_EVENT_FIELDS = {"undo": frozenset({"seq"}), "correct": frozenset({"roll", "faces", "checked"})}
# What the app adds to a roll beside the game's own fields, per die: the face classifier's
# likeliest faces, [[label, probability], ...], and the dice whose face it guessed or that
# it saw leaning, by index (webui/camera.py).
ROLL_MARKS = frozenset({"top", "unsure", "cocked"})


class StaleMove(IllegalMove):
    """A move made looking at the log as it was, which what has come since changes."""


def is_roll(event: Event) -> bool:
    """A roll of the dice: what a correction may name and the camera's marks belong to."""
    return event.type == "roll" and isinstance(event.data.get("faces"), list)


def moves_in_force(events: Sequence[Event]) -> list[Event]:
    """The events still in force once every undo has cancelled its move (corrections
    stay in the list, as moves of their own that an undo may cancel)."""
    if not events or events[0].type != "start":
        raise IllegalMove("a game's log starts with a 'start' event")
    live: list[Event] = []
    for event in events:
        if event.type == "start" and live:
            raise IllegalMove("a game has only one 'start' event")
        if event.type == "undo":
            while len(live) > 1 and live[-1].auto:
                live.pop()
            if len(live) <= 1:
                raise IllegalMove("there is nothing to undo")
            live.pop()
        else:
            live.append(event)
    return live


def next_to_undo(events: Sequence[Event]) -> Event | None:
    """The move an undo would cancel now (the automatic events after it go with it)."""
    live = [event for event in moves_in_force(events) if not event.auto]
    return live[-1] if len(live) > 1 else None


def corrected_moves(events: Sequence[Event]) -> list[Event]:
    """The game's own events in order, with every correction applied to its roll."""
    live = moves_in_force(events)
    rolls = {event.seq: event for event in live if is_roll(event)}
    faces_by_seq: dict[int, list] = {}
    for event in live:
        if event.type != "correct":
            continue
        seq = data_field(event, "roll", int)
        if seq not in rolls or rolls[seq].seq >= event.seq:
            raise IllegalMove(f"there is no roll #{seq} to correct")
        faces_by_seq[seq] = list(data_field(event, "faces", list))
    return [
        replace(event, data={**event.data, "faces": faces_by_seq[event.seq]})
        if event.seq in faces_by_seq
        else event
        for event in live
        if event.type not in LOG_EVENTS
    ]


def start_game(start: Event) -> Game:
    game_name = data_field(start, "game", str)
    players = data_field(start, "players", list)
    options = data_field(start, "options", dict, {})
    return new_game(game_name, players, options)


def replay(events: Sequence[Event]) -> Game:
    """The game a whole log makes; raises IllegalMove, naming the event, if any move
    in it is illegal."""
    return replayed(events)[0]


def replayed(events: Sequence[Event], checked: bool = False) -> tuple[Game, frozenset[int]]:
    """``replay``'s game, and the seqs of the chances it passed over: drawn by the app for
    a next turn that a later correction took away by ending the game first.  ``checked``:
    each player's move is applied as ``apply_checked`` applies it."""
    passed_over = set()
    live = moves_in_force(events)
    game = start_game(live[0])
    corrected_since = max((event.seq for event in live if event.type == "correct"), default=0)
    for event in corrected_moves(events):
        drawn_for_next_turn = event.auto and hasattr(game, "on_" + event.type)
        if drawn_for_next_turn and event.seq < corrected_since and game.finished():
            # a chance the app drew for the next turn (a spin, a shuffle), which a later
            # correction has made the game's last: it ended before it, as it would have unrolled
            passed_over.add(event.seq)
            continue
        try:
            if checked and not event.auto:
                apply_checked(game, event)
            else:
                game.apply(event)
        except IllegalMove as error:
            refused = IllegalMove(f"event #{event.seq} ({event.type}): {error}")
            refused.seq = event.seq  # which move of the log the rules refused
            raise refused from None
    return game, frozenset(passed_over)


class FieldsRead(dict):
    """A move's data that remembers which of its fields the rules looked at."""

    def __init__(self, data: Mapping[str, Any]):
        super().__init__(data)
        self.read: set[str] = set()

    def __getitem__(self, key: str) -> Any:
        self.read.add(key)
        return super().__getitem__(key)

    def get(self, key: str, default: Any = None) -> Any:
        self.read.add(key)
        return super().get(key, default)

    def __contains__(self, key: object) -> bool:
        self.read.add(str(key))
        return super().__contains__(key)


def checked_move(events: Sequence[Event], new: Event) -> Game:
    """The game once ``new`` follows ``events``, refused (IllegalMove) where the rules refuse
    it, and where it carries a field nobody reads: a game's move only the fields its rules
    read (and a roll the app's ``ROLL_MARKS``, checked), an undo or a correction only its
    own, by one of the players if by anyone."""
    if new.type not in LOG_EVENTS:
        game = replay(events)
        apply_checked(game, new)
        return game
    check_log_event(events[0] if events else None, new)
    if new.type == "undo" and "seq" in new.data:
        meant, last = data_field(new, "seq", int), next_to_undo(events)
        if last is not None and last.seq != meant:
            raise StaleMove(f"the last move is now {named(last)}, not #{meant}: undo that?")
    if new.type == "correct" and not new.data.get("checked"):
        # one that changes no face and checks no die would only be a history line and one more
        # Undo to tap (the same fix sent twice)
        roll = new.data.get("roll")
        now = roll_faces(events, roll)
        if now is not None and now == new.data.get("faces"):
            raise IllegalMove(f"roll #{roll} already reads {' '.join(map(str, now))}: nothing to correct")
    try:
        return replay([*events, new])
    except IllegalMove as error:
        roll = new.data.get("roll")
        if new.type == "correct" and isinstance(roll, int) and getattr(error, "seq", 0) > roll:
            # the rules refused a move made after the roll, which the page shows as it stands
            raise IllegalMove(
                f"roll #{roll} cannot read so: a later move would no longer be legal ({error}). "
                f"To correct it so, undo back to roll #{roll} first"
            ) from None
        raise


def apply_checked(game: Game, new: Event) -> None:
    """Apply the game's move ``new``, refusing it where it carries a field its rules do not
    read (a roll the app's ``ROLL_MARKS`` besides, checked)."""
    data = FieldsRead(new.data)
    game.apply(replace(new, data=data))
    unread = set(data) - data.read - (ROLL_MARKS if is_roll(new) else set())
    if unread:
        raise IllegalMove(f"{new.type} has no field {sorted(unread)[0]!r}")
    if is_roll(new):
        check_roll_marks(new.data)


def check_log_event(start: Event | None, new: Event) -> None:
    """An undo's or a correction's own shape: only its own fields, by one of the players
    (``start``'s) if by anyone, and a correction's ``checked`` dice named by their index."""
    unknown = set(new.data) - LOG_EVENT_FIELDS.get(new.type, set())
    if unknown:
        raise IllegalMove(f"{new.type} has no field {sorted(unknown)[0]!r}")
    players = data_field(start, "players", list) if start is not None else []
    if new.player is not None and new.player not in players:
        raise IllegalMove(f"{new.player!r} is not playing; players are {', '.join(map(str, players))}")
    if new.type == "correct" and "checked" in new.data:
        faces, checked = new.data.get("faces"), new.data["checked"]
        dice = len(faces) if isinstance(faces, list) else 0
        if not (isinstance(checked, list) and all(type(die) is int and 0 <= die < dice for die in checked)):
            raise IllegalMove(f"a correction's 'checked' lists dice by their index (0 to {dice - 1})")


def checked_log(events: Sequence[Event]) -> Game:
    """The game a whole log makes, its moves held to what ``checked_move`` asked of each when
    it was stored: a log brought from elsewhere may hold what the app would refuse.  Every
    move in force is refused for a field its rules do not read, and every undo and correction
    for its shape, in one replay (a move undone counts for nothing and is not read: checking
    each against the log before it would take a replay a move).  Raises IllegalMove naming
    the event."""
    game = replayed(events, checked=True)[0]  # first: it says what a log with no one start is
    for event in events[1:]:
        if event.type in LOG_EVENT_FIELDS:  # an undo or a correction
            try:
                check_log_event(events[0], event)
            except IllegalMove as error:
                raise IllegalMove(f"event #{event.seq} ({event.type}): {error}") from None
    return game


def check_seen(events: Sequence[Event], new: Event, version: int) -> None:
    """Refuse ``new`` (StaleMove) where it was made looking at the log's first ``version``
    events and what came since changes what it means: a correction, where its roll reads
    otherwise now; an undo naming its move, never here (``checked_move`` checks the move it
    names); any other move, where anything came since.  Raises IllegalMove for a version
    the log never had."""
    if not 1 <= version <= len(events):
        raise IllegalMove(f"'version' is the length of the log the move was made on, 1 to {len(events)}")
    if version == len(events) or (new.type == "undo" and "seq" in new.data):
        return
    if new.type == "correct":
        roll = new.data.get("roll")
        seen, now = roll_faces(events[:version], roll), roll_faces(events, roll)
        if seen is None or seen == now:
            return  # a roll the player never saw is the rules' to refuse
        reads = " ".join(map(str, now)) if now is not None else "nothing: it was undone"
        raise StaleMove(f"roll #{roll} has changed since you looked: it reads {reads} now")
    raise StaleMove(f"the game has moved on since you looked: the last move is now {named(events[-1])}")


def named(event: Event) -> str:
    """An event as a refusal names it: ``#3 (roll by Bo)``."""
    by = f" by {event.player}" if event.player else ""
    return f"#{event.seq} ({event.type}{by})"


def roll_faces(events: Sequence[Event], roll: Any) -> list | None:
    """The faces roll ``roll`` shows in this log, corrections applied; None where it is no
    roll in force."""
    for event in corrected_moves(events):
        if event.seq == roll and is_roll(event):
            return list(event.data["faces"])
    return None


def check_roll_marks(data: Mapping[str, Any]) -> None:
    """The app's marks on a roll: a top-k list for each die, and dice named by index once."""
    dice = len(data["faces"])
    top = data.get("top")
    if top is not None and not (
        isinstance(top, list)
        and len(top) == dice
        and all(isinstance(guesses, list) and all(is_guess(guess) for guess in guesses) for guesses in top)
    ):
        raise IllegalMove("a roll's 'top' lists each die's likeliest faces, [[label, probability], ...]")
    for mark in ("unsure", "cocked"):
        marked = data.get(mark, [])
        if not (
            isinstance(marked, list)
            and all(type(die) is int and 0 <= die < dice for die in marked)
            and len(set(marked)) == len(marked)
        ):
            raise IllegalMove(f"a roll's {mark!r} lists dice by their index (0 to {dice - 1}), each once")


def is_guess(guess: Any) -> bool:
    return (
        isinstance(guess, list)
        and len(guess) == 2
        and isinstance(guess[0], str)
        and type(guess[1]) in (int, float)
        and 0 <= guess[1] <= 1
    )
