"""Squib Squares: a card game of squibs laid out in squares (../shared/seeds/002_...).

dicescore keeps the score from the squares the players enter, checks that each square is
legal, and settles Squib Steals.

A squib is a colour, an emotion and a kind, written ``"blue happy rocket"`` (always in that
order).  A card carries two squibs side by side, written ``[left, right]``.  A square is
entered as a grid: a list of rows, each a list of cards, every row the same length.

How the squibs touch (the sheet's pictures were lost): cards lie landscape, so in a row the
right squib of one card touches the left squib of the next, and in a column each squib
touches the one straight above or below it (left over left, right over right).  The two
squibs printed on one card never count as touching.  This is also how two cards face off in
a Squib Steal: one card above the other, left squib against left squib, right against right.

Events:

* ``square`` (its owner): ``{"id": name, "grid": [[card, ...], ...]}`` lays a new square,
  or replaces the owner's square of that id (grown, rearranged).
* ``break`` (its owner): ``{"id": name}``: the square is broken up or lost.
* ``steal`` (the challenger): ``{"opponent": name, "mine": [card, ...], "theirs": [card,
  ...]}``: the cards each laid in a Squib Steal, in order, up to three each; the game says
  who won.  After the end, a steal between players tied at the top settles the tie.
* ``end`` (anyone): the draw and discard piles are empty; the bonuses are given.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from scoring.game import Event, Game, IllegalMove, Option, data_field

COLOURS = ("green", "yellow", "purple", "orange", "blue")
EMOTIONS = ("happy", "sad", "angry", "excited", "sleepy")
KINDS = ("rocket", "missile", "spinny", "candle", "booster")
FEATURES = (("colour", COLOURS), ("emotion", EMOTIONS), ("kind", KINDS))

BEATS = {
    "blue": frozenset({"purple", "yellow"}),
    "purple": frozenset({"orange", "green"}),
    "orange": frozenset({"yellow", "blue"}),
    "yellow": frozenset({"green", "purple"}),
    "green": frozenset({"blue", "orange"}),
}
MOST_STEAL_CARDS = 3

# The special bonuses, by what they reward.
BIG_BANG = 5  # the biggest square
SQUIB_PARTY = 4  # the most squares
SPEEDY = 3  # the first to make a square
PATIENT = 1  # the last to make a square


@dataclass(frozen=True)
class Squib:
    colour: str
    emotion: str
    kind: str

    @classmethod
    def parse(cls, text: Any) -> Squib:
        if not isinstance(text, str) or len(text.split()) != 3:
            raise IllegalMove(
                f"a squib is written 'colour emotion kind', e.g. 'blue happy rocket', not {text!r}"
            )
        values = text.lower().split()
        for value, (feature, allowed) in zip(values, FEATURES, strict=True):
            if value not in allowed:
                raise IllegalMove(
                    f"squib {text!r}: unknown {feature} {value!r}; {feature}s are {', '.join(allowed)}"
                )
        return cls(*values)

    def shared(self, other: Squib) -> list[str]:
        """The features the two squibs share, e.g. ``["colour blue"]``."""
        return [
            f"{feature} {getattr(self, feature)}"
            for feature, _ in FEATURES
            if getattr(self, feature) == getattr(other, feature)
        ]

    def __str__(self) -> str:
        return f"{self.colour} {self.emotion} {self.kind}"


@dataclass(frozen=True)
class SquibCard:
    left: Squib
    right: Squib

    @classmethod
    def parse(cls, value: Any) -> SquibCard:
        if not isinstance(value, list | tuple) or len(value) != 2:
            raise IllegalMove(f"a card is a list of its two squibs [left, right], not {value!r}")
        left, right = Squib.parse(value[0]), Squib.parse(value[1])
        if left == right:  # the sheet: "two different squibs on each card"
            raise IllegalMove(f"a card shows two different squibs, not {left} twice")
        return cls(left, right)

    def squibs(self) -> tuple[Squib, Squib]:
        return (self.left, self.right)


@dataclass(frozen=True)
class Square:
    """A legal squib square: at least two rows, every row full, no touching squibs alike."""

    rows: tuple[tuple[SquibCard, ...], ...]

    @classmethod
    def parse(cls, grid: Any) -> Square:
        """The square a grid of cards makes; IllegalMove with the reason when it makes none."""
        if not isinstance(grid, list) or not all(isinstance(row, list) for row in grid):
            raise IllegalMove("a square is a list of rows, each a list of cards")
        rows = [[None if card is None else SquibCard.parse(card) for card in row] for row in grid]
        if len(rows) < 2 or not rows[0]:
            raise IllegalMove("a square needs at least two cards in a column (two rows)")
        width = len(rows[0])
        for number, row in enumerate(rows, start=1):
            if len(row) != width:
                raise IllegalMove(
                    f"row {number} is {len(row)} cards long but row 1 is {width}: "
                    "a square is a filled rectangle with four corners"
                )
            if None in row:
                raise IllegalMove(
                    f"row {number}, card {row.index(None) + 1} is empty: "
                    "a square is a filled rectangle with four corners"
                )
        square = cls(tuple(tuple(row) for row in rows))
        for (one, where_one), (other, where_other) in square.touching():
            shared = one.shared(other)
            if shared:
                raise IllegalMove(
                    f"{one} ({where_one}) and {other} ({where_other}) touch and share {' and '.join(shared)}"
                )
        return square

    def touching(self) -> list[tuple[tuple[Squib, str], tuple[Squib, str]]]:
        """Every pair of edge-adjacent squibs of different cards, each with where it lies."""

        def at(row: int, column: int, side: str) -> tuple[Squib, str]:
            card = self.rows[row][column]
            return getattr(card, side), f"row {row + 1}, card {column + 1}, {side}"

        pairs = []
        for row in range(self.height):
            for column in range(self.width):
                if column + 1 < self.width:
                    pairs.append((at(row, column, "right"), at(row, column + 1, "left")))
                if row + 1 < self.height:
                    for side in ("left", "right"):
                        pairs.append((at(row, column, side), at(row + 1, column, side)))
        return pairs

    @property
    def height(self) -> int:
        return len(self.rows)

    @property
    def width(self) -> int:
        return len(self.rows[0])

    @property
    def cards(self) -> int:
        return self.height * self.width

    @property
    def size_bonus(self) -> int:
        return self.cards - max(self.height, self.width)

    @property
    def score(self) -> int:
        return self.cards + self.size_bonus


def beats(colour: str, other: str) -> bool:
    return other in BEATS[colour]


def face_off(mine: SquibCard, theirs: SquibCard) -> int:
    """1 when ``mine`` wins (beats both squibs across, or beats one and ties one), -1 when
    ``theirs`` does, 0 when neither."""
    wins = losses = 0
    for one, other in zip(mine.squibs(), theirs.squibs(), strict=True):
        wins += beats(one.colour, other.colour)
        losses += beats(other.colour, one.colour)
    if wins and not losses:
        return 1
    if losses and not wins:
        return -1
    return 0


@dataclass(frozen=True)
class StealResult:
    """How a Squib Steal ended: the winning side (1 the challenger, -1 the opponent, 0 a
    draw) and how many cards each laid."""

    winner: int
    cards_laid: int


def squib_steal(mine: Sequence[SquibCard], theirs: Sequence[SquibCard]) -> StealResult:
    """Settle a Squib Steal from the cards each side laid, in order."""
    if not 1 <= len(mine) <= MOST_STEAL_CARDS or len(mine) != len(theirs):
        raise IllegalMove(
            f"in a Squib Steal both players lay the same number of cards, 1 to {MOST_STEAL_CARDS}"
        )
    for laid, (one, other) in enumerate(zip(mine, theirs, strict=True), start=1):
        winner = face_off(one, other)
        if winner:
            if laid < len(mine):
                raise IllegalMove(f"card {laid} already decided the Squib Steal; no more cards are laid")
            return StealResult(winner, laid)
    return StealResult(0, len(mine))


class SquibSquares(Game):
    name = "squib-squares"
    title = "Squib Squares"
    min_players = 2
    max_players = 6
    options_spec = {
        "tied_bonus": Option(
            "each",
            "who receives a special bonus when players tie for it",
            choices={"each": "each tied player", "nobody": "nobody"},
        ),
    }

    def __init__(self, players: Sequence[str], options: dict[str, Any] | None = None):
        super().__init__(players, options)
        self.squares: dict[str, dict[str, Square]] = {player: {} for player in self.players}
        self.first_squares: list[str] = []  # players, in the order they made their first square
        self.over = False
        self.bonuses: dict[str, dict[str, int]] = {player: {} for player in self.players}
        self.beaten_in_tiebreak: set[str] = set()

    # -- events ---------------------------------------------------------------------------
    def on_square(self, event: Event) -> None:
        player = self.require_player(event)
        name = data_field(event, "id", str)
        square = Square.parse(data_field(event, "grid", list))
        if player not in self.first_squares:
            self.first_squares.append(player)
        before = self.squares[player].get(name)
        verb = "makes" if before is None else "grows" if square.cards > before.cards else "changes"
        self.squares[player][name] = square
        self.notes.append(
            f"{player} {verb} square {name}: {square.height}x{square.width}, {square.cards} cards "
            f"+ {square.size_bonus} size bonus = {square.score}"
        )

    def on_break(self, event: Event) -> None:
        player = self.require_player(event)
        name = data_field(event, "id", str)
        if name not in self.squares[player]:
            raise IllegalMove(f"{player} has no square {name!r}")
        del self.squares[player][name]
        self.notes.append(f"{player}'s square {name} is broken up")

    def on_steal(self, event: Event) -> None:
        challenger = self.require_player(event)
        opponent = data_field(event, "opponent", str)
        if opponent not in self.players or opponent == challenger:
            raise IllegalMove(f"a Squib Steal is against another player, not {opponent!r}")
        if self.over and not {challenger, opponent} <= set(self.winners()):
            raise IllegalMove("after the end, only players tied at the top play a Squib Steal")
        mine = [SquibCard.parse(card) for card in data_field(event, "mine", list)]
        theirs = [SquibCard.parse(card) for card in data_field(event, "theirs", list)]
        result = squib_steal(mine, theirs)
        if result.winner == 0:
            self.notes.append(
                f"Squib Steal, {challenger} against {opponent}: a draw after {result.cards_laid} cards"
            )
            return
        winner, loser = (challenger, opponent) if result.winner == 1 else (opponent, challenger)
        self.notes.append(
            f"Squib Steal, {challenger} against {opponent}: {winner} wins with card {result.cards_laid}"
        )
        if self.over:
            self.beaten_in_tiebreak.add(loser)

    def on_end(self, event: Event) -> None:
        self.over = True
        for bonus, points, players in self.special_bonuses():
            for player in players:
                self.bonuses[player][bonus] = points
            self.notes.append(f"{bonus} +{points}: {', '.join(players) or 'nobody'}")

    events_after_end = frozenset({"steal"})
    ending_moves = {
        "end": (
            "end the game: the draw and discard piles are both empty",
            "End the game now? Its bonuses are handed out; only a Squib Steal between players"
            " tied at the top may follow.",
        )
    }

    def special_bonuses(self) -> list[tuple[str, int, list[str]]]:
        """Each special bonus, its points and who receives it."""
        biggest = {
            player: max((s.cards for s in squares.values()), default=0)
            for player, squares in self.squares.items()
        }
        most = {player: len(squares) for player, squares in self.squares.items()}
        # The first and the last to make a square are different players by definition.
        patient = self.first_squares[-1:] if len(self.first_squares) > 1 else []
        return [
            ("Big Bang Set", BIG_BANG, self.best(biggest)),
            ("Squib Party", SQUIB_PARTY, self.best(most)),
            ("Speedy Squibs", SPEEDY, self.first_squares[:1]),
            ("Patient Squibs", PATIENT, patient),
        ]

    def best(self, measure: dict[str, int]) -> list[str]:
        """The players with the highest positive ``measure``; when several tie, all of
        them or nobody, by the ``tied_bonus`` option."""
        top = max(measure.values())
        leaders = [player for player in self.players if measure[player] == top]
        if top == 0 or (len(leaders) > 1 and self.options["tied_bonus"] == "nobody"):
            return []
        return leaders

    # -- the four questions -----------------------------------------------------------
    def turn(self) -> str | None:
        return None  # the sheet's turns need no scorekeeping

    def allowed(self) -> dict[str, list[str]]:
        if self.over:
            contenders = self.winners()
            return {
                player: ["steal"] if player in contenders and len(contenders) > 1 else []
                for player in self.players
            }
        return {
            player: ["square", *(["break"] if self.squares[player] else []), "steal", "end"]
            for player in self.players
        }

    # -- results -------------------------------------------------------------------------
    def totals(self) -> dict[str, int]:
        return {
            player: sum(square.score for square in self.squares[player].values())
            + sum(self.bonuses[player].values())
            for player in self.players
        }

    def finished(self) -> bool:
        return self.over

    def winners(self) -> list[str]:
        """The players with the most points, less those beaten in a tie-breaking steal."""
        if not self.over:
            return []
        totals = self.totals()
        top = max(totals.values())
        tied = [player for player in self.players if totals[player] == top]
        return [player for player in tied if player not in self.beaten_in_tiebreak]

    def ranking(self) -> list[dict[str, Any]]:
        totals = self.totals()
        return [
            {"player": player, "total": totals[player]}
            for player in sorted(self.players, key=lambda player: -totals[player])
        ]

    def details(self) -> dict[str, Any]:
        return {
            "squares": {
                player: {
                    name: {"rows": s.height, "columns": s.width, "cards": s.cards, "score": s.score}
                    for name, s in squares.items()
                }
                for player, squares in self.squares.items()
            },
            "bonuses": {player: dict(bonuses) for player, bonuses in self.bonuses.items()},
            "ranking": self.ranking(),
        }
