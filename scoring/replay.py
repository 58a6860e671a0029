"""Replaying a game's log: the state of a game is what its events make of it.

Three event types belong to the log rather than to any one game:

* ``start`` (always first): ``{"game": name, "players": [...], "options": {...}}``;
* ``undo``: cancels the latest move still in force (a correction included), together
  with the automatic events the app appended after it;
* ``correct``: ``{"roll": seq, "faces": [...]}`` replaces the faces of the roll event
  numbered ``seq``; every later event is then re-derived from the corrected faces.

Everything else is handed to the game itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from scoring.game import Event, Game, IllegalMove, data_field
from scoring.games import new_game

LOG_EVENTS = frozenset({"start", "undo", "correct"})


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


def corrected_moves(events: Sequence[Event]) -> list[Event]:
    """The game's own events in order, with every correction applied to its roll."""
    live = moves_in_force(events)
    rolls = {event.seq: event for event in live if "faces" in event.data}
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
    game = start_game(moves_in_force(events)[0])
    for event in corrected_moves(events):
        try:
            game.apply(event)
        except IllegalMove as error:
            raise IllegalMove(f"event #{event.seq} ({event.type}): {error}") from None
    return game
