"""Cubes: six cubes, a pot of points, three sets (../shared/seeds/003_...).

Every roll moves points between the players and the pot by one of five combinations
(see ../shared/RULES.md).  A set ends the first time a player cannot pay what they owe;
the points are then dealt out afresh.  Points only ever move, so within a set the pot
plus everyone's points never changes.

Events:

* ``roll`` (the player whose turn it is): ``{"faces": [six labels]}``, each ``CUBES``,
  ``BLANK`` or ``1``..``6``.

Turns go round in the order the players are listed; the first listed rolls first.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

from scoring.faces import CUBES_DICE, Face, Number, Word
from scoring.game import Event, Game, Option, read_roll

ANTE = 5
OPPONENT_PAYS = 5
BLANK_PAYS = 5
CHIP_VALUES = (("blue", 10), ("red", 5), ("white", 1))
ALL_BLANK_RULES = {  # the option's values, and what each does
    "player-pays-5": f"the player pays {BLANK_PAYS}",
    "nothing": "no points move",
    "roll-again": "the player rolls again",
}


class Combination(Enum):
    """The five cases of the sheet, by what the rules look at."""

    NUMBERS = "numbers only: take their sum"
    CUBES_AND_ONE_OR_TWO = "CUBES and 1 or 2 numbers: each opponent pays 5, take twice the sum"
    CUBES_AND_THREE_OR_MORE = "CUBES and 3 or more numbers: each opponent pays 5, take the pot"
    CUBES_ONLY = "only CUBES: each opponent pays 5"
    ALL_BLANK = "all blank"


@dataclass(frozen=True)
class Throw:
    """Six cubes reduced to what the rules look at: whether the word CUBES shows at
    least once, and the numbers showing."""

    cubes: bool
    numbers: tuple[int, ...]

    @classmethod
    def of(cls, faces: Sequence[Face]) -> Throw:
        return cls(
            cubes=any(isinstance(face, Word) for face in faces),
            numbers=tuple(face.value for face in faces if isinstance(face, Number)),
        )

    @property
    def combination(self) -> Combination:
        if not self.cubes:
            return Combination.NUMBERS if self.numbers else Combination.ALL_BLANK
        if not self.numbers:
            return Combination.CUBES_ONLY
        if len(self.numbers) <= 2:
            return Combination.CUBES_AND_ONE_OR_TWO
        return Combination.CUBES_AND_THREE_OR_MORE

    @property
    def amount(self) -> int:
        """What the roller is to take from the pot (0 when they take the pot or nothing)."""
        if self.combination is Combination.NUMBERS:
            return sum(self.numbers)
        if self.combination is Combination.CUBES_AND_ONE_OR_TWO:
            return 2 * sum(self.numbers)
        return 0

    def __str__(self) -> str:
        shown = (["CUBES"] if self.cubes else []) + [str(n) for n in self.numbers]
        return " + ".join(shown) or "all blank"


def chips(points: int) -> dict[str, int]:
    """One way to make ``points`` from blue (10), red (5) and white (1) chips."""
    made = {}
    for colour, value in CHIP_VALUES:
        made[colour], points = divmod(points, value)
    return made


class Cubes(Game):
    name = "cubes"
    title = "Cubes"
    die_kind = "cubes"
    min_players = 2
    max_players = 10
    options_spec = {
        "starting_points": Option(20, "points each of 2 to 4 players holds at the start of a set", minimum=5),
        "chip_total": Option(
            155,
            "points shared equally among 5 to 10 players at the start of a set; the remainder goes "
            "to the pot",
            minimum=50,  # 5 each for 10 players: enough for the ante
        ),
        "all_blank": Option(
            "player-pays-5",
            "what an all-blank roll does (the sheet's rule was lost)",
            choices=ALL_BLANK_RULES,
        ),
        "sets": Option(3, "sets in a game", minimum=1, maximum=9),
    }

    def __init__(self, players: Sequence[str], options: dict[str, Any] | None = None):
        super().__init__(players, options)
        self.set_scores: list[dict[str, int]] = []
        self.last_throw: Throw | None = None
        self.deal(starter=self.players[0])

    def deal(self, starter: str) -> None:
        """Start a set: hand out the points, everyone antes, ``starter`` rolls first."""
        if len(self.players) <= 4:
            share, self.pot = self.options["starting_points"], 0
        else:
            share, self.pot = divmod(self.options["chip_total"], len(self.players))
        self.points = {player: share - ANTE for player in self.players}
        self.pot += ANTE * len(self.players)
        self.roller = starter

    # -- events ---------------------------------------------------------------------
    def on_roll(self, event: Event) -> None:
        roller = self.require_player(event, self.turn())
        throw = Throw.of(read_roll(event.data.get("faces"), "cubes", CUBES_DICE.dice))
        self.last_throw = throw
        said, broke = self.settle(roller, throw)
        self.notes.append(f"{throw}: {', '.join(said)}")
        if broke is not None:
            self.end_set(broke, roller)
        elif not (throw.combination is Combination.ALL_BLANK and self.options["all_blank"] == "roll-again"):
            self.roller = self.next_player(roller)

    def settle(self, roller: str, throw: Throw) -> tuple[list[str], str | None]:
        """Move the points a throw calls for.  Returns what happened, in words, and the
        player who could not pay (None when everyone could)."""
        said = []
        combination = throw.combination
        if throw.cubes:
            opponents = self.opponents(roller)
            for paid, opponent in enumerate(opponents):
                if not self.pay(opponent, OPPONENT_PAYS):
                    payers = [f"{payer} pays {OPPONENT_PAYS}" for payer in opponents[:paid]]
                    return [*payers, f"{opponent} cannot pay {OPPONENT_PAYS}"], opponent
            said.append(f"each opponent pays {OPPONENT_PAYS}")
        if combination in (Combination.NUMBERS, Combination.CUBES_AND_ONE_OR_TWO):
            if self.pot >= throw.amount:
                self.pot -= throw.amount
                self.points[roller] += throw.amount
                said.append(f"{roller} takes {throw.amount}")
            else:
                # A short pot: take nothing and pay in what the pot lacks.
                shortfall = throw.amount - self.pot
                short = f"the pot holds only {self.pot}, so {roller}"
                if not self.pay(roller, shortfall):
                    return [*said, f"{short} owes {shortfall} and cannot pay it"], roller
                said.append(f"{short} pays {shortfall}")
        elif combination is Combination.CUBES_AND_THREE_OR_MORE:
            said.append(f"{roller} takes the pot ({self.pot})")
            self.points[roller] += self.pot
            self.pot = 0
        elif combination is Combination.ALL_BLANK:
            rule = self.options["all_blank"]
            if rule == "player-pays-5" and not self.pay(roller, BLANK_PAYS):
                return [f"{roller} cannot pay {BLANK_PAYS}"], roller
            said.append(ALL_BLANK_RULES[rule].replace("the player", roller))
        return said, None

    def pay(self, payer: str, amount: int) -> bool:
        """``payer`` puts ``amount`` into the pot, or all they have when that is less.
        Whether they could pay it all."""
        paid = min(amount, self.points[payer])
        self.points[payer] -= paid
        self.pot += paid
        return paid == amount

    def end_set(self, broke: str, roller: str) -> None:
        """``broke`` could not pay: they score 0, everyone else what they hold."""
        scores = {player: (0 if player == broke else held) for player, held in self.points.items()}
        self.set_scores.append(scores)
        self.notes.append(
            f"{broke} puts all they had into the pot and scores 0; set {len(self.set_scores)} ends: "
            + ", ".join(f"{player} {score}" for player, score in scores.items())
        )
        if not self.finished():
            self.deal(starter=self.next_player(roller))

    def opponents(self, roller: str) -> list[str]:
        """The roller's opponents, clockwise from the roller's left: the order they pay in."""
        seat = self.players.index(roller)
        return [self.players[(seat + step) % len(self.players)] for step in range(1, len(self.players))]

    # -- the four questions -----------------------------------------------------------
    def turn(self) -> str | None:
        return None if self.finished() else self.roller

    def roll_number(self) -> int | None:
        return 1 if self.last_throw is not None else None

    def dice_make(self) -> str:
        if self.last_throw is None:
            return ""
        if self.last_throw.combination is Combination.ALL_BLANK:
            return f"all blank: {ALL_BLANK_RULES[self.options['all_blank']]}"
        return f"{self.last_throw}: {self.last_throw.combination.value}"

    def allowed(self) -> dict[str, list[str]]:
        turn = self.turn()
        return {player: (["roll"] if player == turn else []) for player in self.players}

    # -- results -------------------------------------------------------------------------
    def totals(self) -> dict[str, int]:
        """Each player's score over the sets played so far."""
        return {player: sum(scores[player] for scores in self.set_scores) for player in self.players}

    def finished(self) -> bool:
        return len(self.set_scores) >= self.options["sets"]

    def details(self) -> dict[str, Any]:
        return {
            "set": min(len(self.set_scores) + 1, self.options["sets"]),
            "sets": self.options["sets"],
            "pot": self.pot,
            "points_this_set": dict(self.points),
            "set_scores": [dict(scores) for scores in self.set_scores],
            "chips": {
                "pot": chips(self.pot),
                "players": {player: chips(held) for player, held in self.points.items()},
            },
        }
