"""Pieces the free-play Square Shooters games share: a turn of up to three rolls with
holds, the seating order of a round, and who leads the scores.

``RollTurn`` is an immutable value: ``turn.roll(event)`` and ``turn.stop()`` return the
next turn, so a game only ever swaps one value for another.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from scoring.faces import Face
from scoring.game import Event, IllegalMove, data_field, held_faces, read_roll

ALL_DICE = 9  # a Square Shooters roll uses the whole set


@dataclass(frozen=True)
class RollTurn:
    """One player's turn: up to ``limit`` rolls of all nine dice, stopping early at will.

    Dice held after a roll stay on the table, so a roll's ``held`` faces must have shown
    on the roll before and still show; the last roll's faces are the ones that count.
    """

    player: str
    limit: int = 3
    rolls: tuple[tuple[Face, ...], ...] = ()
    stopped: bool = False

    @property
    def faces(self) -> tuple[Face, ...]:
        """The dice showing now (none before the first roll)."""
        return self.rolls[-1] if self.rolls else ()

    @property
    def labels(self) -> list[str]:
        return [face.label for face in self.faces]

    @property
    def count(self) -> int:
        """How many rolls the player has used."""
        return len(self.rolls)

    @property
    def over(self) -> bool:
        return self.stopped or self.count >= self.limit

    def moves(self) -> list[str]:
        if self.over:
            return []
        return ["roll", "stop"] if self.rolls else ["roll"]

    def roll(self, event: Event) -> RollTurn:
        if self.over:
            raise IllegalMove(f"{self.player}'s turn is over")
        faces = read_roll(data_field(event, "faces", list), "square-shooters", ALL_DICE)
        held_faces(event, self.faces, faces)
        return replace(self, rolls=self.rolls + (faces,))

    def stop(self) -> RollTurn:
        if not self.rolls:
            raise IllegalMove(f"{self.player} must roll at least once before stopping")
        if self.over:
            raise IllegalMove(f"{self.player}'s turn is over")
        return replace(self, stopped=True)


class OneRollerAtATime:
    """The moves and the four questions of games where one player at a time takes a
    RollTurn (``roll``, ``stop``).

    The game keeps ``current`` (the turn in progress), ``shown`` (the last finished turn,
    whose dice stay on the table until the next player rolls, or None) and ``over``, and
    scores a finished turn in ``_end_turn``.
    """

    current: RollTurn
    shown: RollTurn | None
    over: bool

    def on_roll(self, event: Event) -> None:
        self.require_player(event, self.current.player)
        self.current = self.current.roll(event)
        if self.current.over:
            self._end_turn()

    def on_stop(self, event: Event) -> None:
        self.require_player(event, self.current.player)
        self.current = self.current.stop()
        self._end_turn()

    def _end_turn(self) -> None:
        raise NotImplementedError

    def showing(self) -> RollTurn | None:
        """The turn whose dice are on the table."""
        return self.current if self.current.rolls else self.shown

    def turn(self) -> str | None:
        return None if self.over else self.current.player

    def roll_number(self) -> int | None:
        """The roll of the turn being played; None until its player rolls, though the last
        turn's dice still show (the same player's own, when they play two turns running)."""
        return self.current.count or None

    def roll_limit(self) -> int | None:
        return None if self.over else self.current.limit

    def allowed(self) -> dict[str, list[str]]:
        moves: dict[str, list[str]] = {player: [] for player in self.players}
        if not self.over:
            moves[self.current.player] = self.current.moves()
        return moves

    def finished(self) -> bool:
        return self.over


def seating(players: Sequence[str], first: str, among: Iterable[str] | None = None) -> tuple[str, ...]:
    """The players of ``among`` (everyone by default) in seating order, starting with
    ``first`` or, when ``first`` sits out, the next of them to its left."""
    taking_part = set(players if among is None else among)
    start = players.index(first)
    ring = players[start:] + players[:start]
    return tuple(player for player in ring if player in taking_part)


def leaders(scores: Mapping[str, int], among: Iterable[str]) -> list[str]:
    """The players of ``among`` sharing the highest score, in the order given."""
    among = list(among)
    best = max(scores[player] for player in among)
    return [player for player in among if scores[player] == best]


def after_the_last_round(
    scores: Mapping[str, int], contenders: Sequence[str], notes: list[str], unit: str
) -> tuple[bool, tuple[str, ...]]:
    """Whether the game is over once its last round is played, and who plays on: the one
    contender with the most ``unit`` wins (noted), or those tied at the top play another
    round among themselves (noted)."""
    top = leaders(scores, contenders)
    if len(top) == 1:
        notes.append(f"{top[0]} wins the game with {plural(scores[top[0]], unit)}")
        return True, tuple(contenders)
    notes.append(f"{names(top)} are tied at the top: they play another round")
    return False, tuple(top)


def names(players: Sequence[str]) -> str:
    """``"Ann"``, ``"Ann and Bob"``, ``"Ann, Bob and Cy"``."""
    if len(players) < 2:
        return "".join(players)
    return ", ".join(players[:-1]) + " and " + players[-1]


def plural(count: int, word: str) -> str:
    """``"1 roll"``, ``"2 rolls"``."""
    return f"{count} {word}" + ("" if count == 1 else "s")
