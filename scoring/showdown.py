"""Showdown, versions 1 and 2, from the Square Shooters sheet's "Other Great Games".

Each round every player in turn (the first player moves left each round) takes one to
three rolls of the nine dice, holding any dice between rolls (``roll``, ``stop`` to end
the turn early); the best poker hand of their final dice, five dice at most (six for Six
of a Kind), is ranked as in Figure 1, with Five and Six of a Kind above it when jokers
are wild.  The best hand of the round scores a round point; tied best hands each score
it.  After the last round, players tied at the top play another round among themselves.

Version 2: the round's first player takes up to three rolls and every other player is
limited to the number of rolls the first player used.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from scoring.game import Game, Option
from scoring.hands import Hand, best_hand
from scoring.turns import OneRollerAtATime, RollTurn, after_the_last_round, names, plural, seating


class Showdown(OneRollerAtATime, Game):
    die_kind = "square-shooters"
    min_players = 2
    max_players = 10
    options_spec: Mapping[str, Option] = {
        "jokers_wild": Option(True, "Jokers are wild (Five and Six of a Kind beat a Royal Flush)"),
        "rounds": Option(1, "Rounds to play; the most round wins wins", minimum=1, maximum=99),
    }
    limit_to_first: ClassVar[bool] = False  # version 2: the first player's rolls cap the others'

    def __init__(self, players: Sequence[str], options: Mapping[str, Any] | None = None):
        super().__init__(players, options)
        self.round = 0
        self.points = dict.fromkeys(self.players, 0)
        self.contenders: tuple[str, ...] = self.players
        self.over = False
        self.shown: RollTurn | None = None  # the last finished turn, still on the table
        self._start_round()

    def _start_round(self) -> None:
        self.round += 1
        first = self.players[(self.round - 1) % len(self.players)]
        self.order = seating(self.players, first, self.contenders)
        self.hands: dict[str, Hand] = {}
        self.limit = 3
        self.current = RollTurn(self.order[0], self.limit)

    # -- events ---------------------------------------------------------------------
    def hand_of(self, turn: RollTurn) -> Hand:
        return best_hand(turn.labels, jokers_wild=self.options["jokers_wild"])

    def _end_turn(self) -> None:
        turn = self.current
        self.hands[turn.player] = self.hand_of(turn)
        self.notes.append(f"{turn.player}: {self.hands[turn.player]}")
        if self.limit_to_first and len(self.hands) == 1:
            self.limit = turn.count
            self.notes.append(f"{turn.player} used {plural(turn.count, 'roll')}: nobody else may use more")
        self.shown = turn
        if len(self.hands) < len(self.order):
            self.current = RollTurn(self.order[len(self.hands)], self.limit)
        else:
            self._end_round()

    def _end_round(self) -> None:
        best = max(self.hands.values())
        round_winners = [player for player in self.order if self.hands[player] == best]
        for player in round_winners:
            self.points[player] += 1
        if len(round_winners) == 1:
            self.notes.append(f"round {self.round}: {round_winners[0]} wins it with {best}")
        else:
            self.notes.append(f"round {self.round}: {names(round_winners)} share it with equal best hands")
        if self.round >= self.options["rounds"]:
            ended = after_the_last_round(self.points, self.contenders, self.notes, "round point")
            self.over, self.contenders = ended
            if self.over:
                return
        self._start_round()

    # -- the four questions ---------------------------------------------------------
    def dice_make(self) -> str:
        showing = self.showing()
        return str(self.hand_of(showing)) if showing else ""

    def totals(self) -> dict[str, int]:
        """Round points."""
        return dict(self.points)

    def details(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "rounds": self.options["rounds"],
            "order": list(self.order),
            "contenders": list(self.contenders),
            "hands": {player: str(hand) for player, hand in self.hands.items()},
        }


class ShowdownV1(Showdown):
    name = "square-shooters/showdown-v1"
    title = "Square Shooters: Showdown (version 1)"


class ShowdownV2(Showdown):
    name = "square-shooters/showdown-v2"
    title = "Square Shooters: Showdown (version 2)"
    limit_to_first = True
