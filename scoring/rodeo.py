"""Rodeo Rummy: spin for a rummy goal, then three rolls of the nine dice (../shared/seeds/001_...).

The spinner is data (``scoring/data/rodeo_spinner.json``): its outer ring holds the goals,
each printed beside an inner-ring effect (a bonus or penalty, or 7s and 8s wild).  A turn
scores the points of the melds that meet the goal, plus or minus the effect, never below 0.
The game ends after the round in which someone reaches 250; players tied at the top then
play more rounds on their own.

Events:

* ``spin`` (the player whose turn it is, before their first roll): ``{"goal": id,
  "effect": id}``.  With a virtual spinner (the default) the app draws it
  (``random_event``); with a physical one the player enters what it shows.  Without the
  "spin twice" option the effect is the one printed beside the goal and may be left out.
* ``roll`` (that player): ``{"faces": [nine labels], "held": [labels kept]}``, three times
  at most; the turn is scored after the third.
* ``stop`` (that player, after a roll): end the turn with the dice showing.

"Free play" (the ``spinner`` option ``none``, the sheet's "Other Play Options") has no spin:
every turn's goal is ``FREE_PLAY``, any sets and runs, with no bonus or penalty, and the
players decide whether jokers are wild.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from scoring.faces import Face, Joker, Rank, Suit, UnknownFace
from scoring.game import Event, Game, IllegalMove, Option, data_field
from scoring.melds import Meld, Melds, best_melds
from scoring.turns import RollTurn, leaders, names, seating

NO_EFFECT = "none"
GOAL_KINDS = ("sets", "suit-run", "run-with", "rank")


@dataclass(frozen=True)
class Effect:
    """An inner-ring symbol: ``points`` for each die showing at the end that matches
    (a suit, a rank or a joker), and/or ranks that are wild."""

    id: str
    label: str
    points: int = 0
    suit: Suit | None = None
    rank: Rank | None = None
    joker: bool = False
    wild: tuple[Rank, ...] = ()

    def counts(self, face: Face) -> bool:
        if isinstance(face, Joker):
            return self.joker
        return (self.suit is not None and face.suit is self.suit) or (
            self.rank is not None and face.rank is self.rank
        )

    def bonus(self, faces: Iterable[Face]) -> int:
        """The points the effect adds (or, when negative, takes) for the dice showing."""
        return self.points * sum(self.counts(face) for face in faces)


@dataclass(frozen=True)
class Goal:
    """An outer-ring goal, and the effect printed beside it."""

    id: str
    label: str
    kind: str  # "sets", "suit-run", "run-with" or "rank"
    ranks: tuple[Rank, ...]
    suit: Suit | None
    effect: str

    def meets(self, meld: Meld) -> bool:
        """Whether the meld counts for this goal."""
        ranks_in_meld = {card.rank for card in meld.cards}
        if self.kind == "sets":
            return meld.kind == "set" and meld.rank in self.ranks
        if self.kind == "suit-run":
            return meld.kind == "run" and meld.suit is self.suit
        if self.kind == "run-with":
            return meld.kind == "run" and set(self.ranks) <= ranks_in_meld
        if self.kind == "rank":
            return bool(set(self.ranks) & ranks_in_meld)  # a set of it or a run holding it
        return True  # free play: any set or run


FREE_PLAY = Goal("free-play", "Free play (any sets and runs)", "any", (), None, NO_EFFECT)


@dataclass(frozen=True)
class Spinner:
    goals: tuple[Goal, ...]
    effects: Mapping[str, Effect]

    def goal(self, goal_id: Any) -> Goal:
        for goal in self.goals:
            if goal.id == goal_id:
                return goal
        raise IllegalMove(
            f"the spinner has no goal {goal_id!r}; goals are {', '.join(g.id for g in self.goals)}"
        )

    def effect(self, effect_id: Any) -> Effect:
        if effect_id not in self.effects:
            raise IllegalMove(
                f"the spinner has no effect {effect_id!r}; effects are {', '.join(self.effects)}"
            )
        return self.effects[effect_id]

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> Spinner:
        """The spinner a data file describes; ValueError naming the slot that is wrong."""
        try:
            effects = {entry["id"]: read_effect(entry) for entry in data["effects"]}
            goals = tuple(read_goal(entry) for entry in data["goals"])
        except (KeyError, TypeError, UnknownFace) as error:
            raise ValueError(f"malformed Rodeo Rummy spinner: {error}") from None
        for goal in goals:
            if goal.effect not in effects:
                raise ValueError(f"spinner goal {goal.id!r} names no known effect {goal.effect!r}")
        if NO_EFFECT not in effects or not goals:
            raise ValueError(f"a spinner needs goals and the effect {NO_EFFECT!r}")
        return cls(goals, effects)


def read_effect(entry: Mapping[str, Any]) -> Effect:
    count = entry.get("count", {})
    return Effect(
        id=entry["id"],
        label=entry["label"],
        points=int(entry.get("points", 0)),
        suit=Suit.parse(count["suit"]) if "suit" in count else None,
        rank=Rank.parse(count["rank"]) if "rank" in count else None,
        joker=bool(count.get("joker", False)),
        wild=tuple(Rank.parse(rank) for rank in entry.get("wild", ())),
    )


def read_goal(entry: Mapping[str, Any]) -> Goal:
    kind = entry["kind"]
    if kind not in GOAL_KINDS:
        raise ValueError(f"spinner goal {entry['id']!r}: kind must be one of {', '.join(GOAL_KINDS)}")
    needs = "suit" if kind == "suit-run" else "ranks"
    if not entry.get(needs):
        raise ValueError(f"spinner goal {entry['id']!r}: a {kind} goal needs {needs}")
    return Goal(
        id=entry["id"],
        label=entry["label"],
        kind=kind,
        ranks=tuple(Rank.parse(rank) for rank in entry.get("ranks", ())),
        suit=Suit.parse(entry["suit"]) if "suit" in entry else None,
        effect=entry["effect"],
    )


@cache
def default_spinner() -> Spinner:
    text = resources.files("scoring").joinpath("data/rodeo_spinner.json").read_text(encoding="utf-8")
    return Spinner.from_data(json.loads(text))


@dataclass(frozen=True)
class TurnScore:
    """What one turn's dice score for a goal and an effect."""

    melds: Melds  # the melds that meet the goal
    bonus: int  # what the effect adds or takes

    @property
    def points(self) -> int:
        return max(0, self.melds.points + self.bonus)  # a round never scores below 0


def score_turn(faces: Sequence[Face], goal: Goal, effect: Effect, jokers_wild: bool = True) -> TurnScore:
    """Score the dice showing at the end of a turn: jokers are wild (with the spinner,
    always), and so are the ranks the effect names."""
    melds = best_melds(
        [face.label for face in faces],
        table="rodeo-rummy",
        jokers_wild=jokers_wild,
        wild_ranks=effect.wild,
        keep=goal.meets,
    )
    return TurnScore(melds, effect.bonus(faces))


class RodeoRummy(Game):
    name = "rodeo-rummy"
    title = "Rodeo Rummy"
    die_kind = "square-shooters"
    min_players = 2
    max_players = 10
    options_spec = {
        "spinner": Option(
            "virtual",
            "spin on the screen, enter what a physical spinner shows, or play free without one",
            choices={
                "virtual": "spin on the screen",
                "physical": "enter what a physical spinner shows",
                "none": "free play: no spinner, any sets and runs score",
            },
        ),
        "spin_twice": Option(False, "spin once for the goal and once more for the bonus or penalty"),
        "no_bonus": Option(False, "play without bonuses or penalties (for younger players)"),
        "free_play_jokers_wild": Option(True, "free play: jokers are wild (with a spinner they always are)"),
        "winning_score": Option(250, "the game ends after the round in which someone reaches it", minimum=1),
    }

    def __init__(self, players: Sequence[str], options: Mapping[str, Any] | None = None):
        super().__init__(players, options)
        self.spinner = default_spinner()
        self.free_play = self.options["spinner"] == "none"
        self.scores = dict.fromkeys(self.players, 0)
        self.round = 1
        self.contenders = self.players  # who plays this round: everyone, or those tied at the top
        self.over = False
        self.rounds: list[dict[str, Any]] = []  # every scored turn, for the scorepad
        self.last_made = ""  # what the last scored turn's dice made: they stay on the table
        self.start_turn(self.players[0])

    def start_turn(self, player: str) -> None:
        self.current = RollTurn(player)
        self.goal: Goal | None = FREE_PLAY if self.free_play else None
        self.effect: Effect | None = self.spinner.effect(NO_EFFECT) if self.free_play else None

    # -- the spin -------------------------------------------------------------------------
    def random_event(self, rng: random.Random) -> Event | None:
        if self.over or self.goal is not None or self.options["spinner"] != "virtual":
            return None
        goal = rng.choice(self.spinner.goals)
        if self.options["no_bonus"]:
            effect = NO_EFFECT
        elif self.options["spin_twice"]:
            effect = rng.choice(self.spinner.goals).effect  # the inner ring, spun on its own
        else:
            effect = goal.effect
        return Event("spin", {"goal": goal.id, "effect": effect}, self.current.player, auto=True)

    def on_spin(self, event: Event) -> None:
        self.require_player(event, self.turn())
        if self.free_play:
            raise IllegalMove("free play has no spinner: roll the dice")
        if self.goal is not None:
            raise IllegalMove(f"{self.current.player} has spun already this turn")
        goal = self.spinner.goal(data_field(event, "goal", str))
        effect = self.spinner.effect(data_field(event, "effect", str, self.paired_effect(goal)))
        if self.options["no_bonus"] and effect.id != NO_EFFECT:
            raise IllegalMove("this game is played without bonuses or penalties")
        if not self.options["spin_twice"] and effect.id != self.paired_effect(goal):
            raise IllegalMove(
                f"the spinner pairs {goal.label} with {self.spinner.effect(goal.effect).label}; "
                "spinning goal and effect apart is the 'spin twice' option"
            )
        self.goal, self.effect = goal, effect

    def paired_effect(self, goal: Goal) -> str:
        return NO_EFFECT if self.options["no_bonus"] else goal.effect

    # -- the rolls -------------------------------------------------------------------------
    def on_roll(self, event: Event) -> None:
        self.require_player(event, self.turn())
        if self.goal is None:
            raise IllegalMove(f"{self.current.player} spins before rolling")
        self.current = self.current.roll(event)
        if self.current.over:
            self.end_turn()

    def on_stop(self, event: Event) -> None:
        self.require_player(event, self.turn())
        self.current = self.current.stop()
        self.end_turn()

    def score(self) -> TurnScore:
        """What the dice showing score for this turn's goal and effect."""
        jokers_wild = not self.free_play or self.options["free_play_jokers_wild"]
        return score_turn(self.current.faces, self.goal, self.effect, jokers_wild)

    def end_turn(self) -> None:
        player, goal, effect = self.current.player, self.goal, self.effect
        scored = self.score()
        self.scores[player] += scored.points
        self.rounds.append(
            {
                "round": self.round,
                "player": player,
                "goal": goal.label,
                "effect": effect.label,
                "melds": str(scored.melds),
                "bonus": scored.bonus,
                "score": scored.points,
            }
        )
        self.last_made = describe(goal, effect, scored)
        self.notes.append(f"{player}: {self.last_made}; {self.scores[player]} in all")
        order = seating(self.players, self.players[0], self.contenders)
        if player != order[-1]:
            self.start_turn(order[order.index(player) + 1])
            return
        self.end_round()

    def end_round(self) -> None:
        top = leaders(self.scores, self.contenders)
        if self.scores[top[0]] >= self.options["winning_score"]:
            if len(top) == 1:
                self.over = True
                self.notes.append(f"{top[0]} wins with {self.scores[top[0]]}")
                return
            self.notes.append(f"{names(top)} are tied at {self.scores[top[0]]}: they play another round")
            self.contenders = tuple(top)
        self.round += 1
        self.start_turn(self.contenders[0])

    # -- the four questions -----------------------------------------------------------
    def turn(self) -> str | None:
        return None if self.over else self.current.player

    def roll_number(self) -> int | None:
        return self.current.count or None

    def roll_limit(self) -> int | None:
        return None if self.over else self.current.limit

    def dice_make(self) -> str:
        if not self.current.rolls:
            return self.last_made
        return describe(self.goal, self.effect, self.score())

    def allowed(self) -> dict[str, list[str]]:
        allowed: dict[str, list[str]] = {player: [] for player in self.players}
        if not self.over:
            allowed[self.current.player] = ["spin"] if self.goal is None else self.current.moves()
        return allowed

    # -- results -------------------------------------------------------------------------
    def totals(self) -> dict[str, int]:
        return dict(self.scores)

    def finished(self) -> bool:
        return self.over

    def details(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "winning_score": self.options["winning_score"],
            "goal": self.goal.label if self.goal else None,
            "effect": self.effect.label if self.effect else None,
            "contenders": list(self.contenders),
            "rounds": list(self.rounds),
        }


def describe(goal: Goal, effect: Effect, scored: TurnScore) -> str:
    """E.g. "A's & K's: KS KH KD = 30; +5 per heart showing: +5; scores 35"."""
    made = f"{scored.melds} = {scored.melds.points}" if scored.melds.points else "not made"
    parts = [f"{goal.label}: {made}"]
    if effect.id != NO_EFFECT:
        parts.append(f"{effect.label}" + (f": {scored.bonus:+d}" if effect.points else ""))
    total = scored.melds.points + scored.bonus
    parts.append(f"scores {scored.points}" + (f" ({total}, but never below 0)" if total < 0 else ""))
    return "; ".join(parts)
