"""Rummy (free play), from the Square Shooters sheet's "Other Great Games".

Each player in turn takes up to three rolls of the nine dice, holding any dice between
rolls (``roll``, ``stop`` to end the turn early).  The dice showing at the end score
their best rummy melds: sets of 3 or 4 of a rank and runs of 3+ consecutive cards of one
suit; K Q J 10 score 10, an ace 15 in a set or at the high end of a run and 1 at the low
end, other cards their face value; dice outside melds score nothing.  Jokers are wild
unless the players say not.  The game ends after the round in which someone reaches the
winning score; the highest total wins, and a tie at the top plays more rounds.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from scoring.game import Game, Option
from scoring.melds import Melds, best_melds
from scoring.turns import OneRollerAtATime, RollTurn, leaders, names


class Rummy(OneRollerAtATime, Game):
    name = "square-shooters/rummy"
    title = "Square Shooters: Rummy"
    die_kind = "square-shooters"
    min_players = 1
    max_players = 10
    options_spec: Mapping[str, Option] = {
        "jokers_wild": Option(True, "Jokers are wild in sets and runs"),
        "winning_score": Option(100, "The game ends after the round in which someone reaches it", minimum=1),
    }

    def __init__(self, players: Sequence[str], options: Mapping[str, Any] | None = None):
        super().__init__(players, options)
        self.round = 1
        self.scores = dict.fromkeys(self.players, 0)
        self.over = False
        self.current = RollTurn(self.players[0])
        self.shown: RollTurn | None = None  # the last finished turn, still on the table

    # -- events ---------------------------------------------------------------------
    def melds_of(self, turn: RollTurn) -> Melds:
        return best_melds(turn.labels, table="square-shooters", jokers_wild=self.options["jokers_wild"])

    def _end_turn(self) -> None:
        turn = self.current
        melds = self.melds_of(turn)
        self.scores[turn.player] += melds.points
        self.notes.append(f"{turn.player} scores {melds.points} ({melds}): {self.scores[turn.player]} in all")
        self.shown = turn
        following = self.next_player(turn.player)
        if following == self.players[0]:  # the round is complete
            if self._someone_won():
                return
            self.round += 1
        self.current = RollTurn(following)

    def _someone_won(self) -> bool:
        goal = self.options["winning_score"]
        top = leaders(self.scores, self.players)
        if self.scores[top[0]] < goal:
            return False
        if len(top) > 1:
            self.notes.append(f"{names(top)} are tied at {self.scores[top[0]]}: everyone plays another round")
            return False
        self.over = True
        self.notes.append(f"{top[0]} wins with {self.scores[top[0]]}")
        return True

    # -- the four questions ---------------------------------------------------------
    def dice_make(self) -> str:
        showing = self.showing()
        if showing is None:
            return ""
        melds = self.melds_of(showing)
        return f"{melds} = {melds.points} points"

    def totals(self) -> dict[str, int]:
        return dict(self.scores)

    def details(self) -> dict[str, Any]:
        showing = self.showing()
        return {
            "round": self.round,
            "winning_score": self.options["winning_score"],
            "melds": self.melds_of(showing).to_json() if showing else None,
        }
