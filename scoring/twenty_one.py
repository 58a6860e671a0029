"""Twenty-One with Square Shooters dice, from the sheet's "Other Great Games".

The dealer rolls one die to each player (starting at their left, dealer last), then a
second die to each; then each player in that order takes more dice one at a time or
stands, and busts on going over 21.  A is 1 or 11, J Q K are 10, other cards their face
value.  A rolled joker is rolled again, unless the players make jokers wild: then it is
worth whatever is best for its holder (1 to 11).  The closest to 21 without going over
wins the round (tied hands all win it; when everyone busts nobody does).  The dealer
moves left each round; after the last round the most round wins wins, and players tied
at the top play more rounds among themselves.  The sheet: "a maximum of three players can
play with the nine dice ... Or just grab a few more sets of dice and you can have as many
players as you like!": option ``dice_sets`` says how many sets are on the table, and each
set deals three players.

Events: ``roll`` ``{"faces": [one label]}`` with ``player`` = who receives the die, and
``stand``.  A round uses at most the dice on the table (nine a set), so it ends when they
are all out.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from scoring.faces import Face, Joker, Rank, as_named
from scoring.game import Event, Game, IllegalMove, Option, cards_only, count_jokers, data_field, read_roll
from scoring.turns import ALL_DICE, after_the_last_round, names, plural, seating

GOAL = 21
PLAYERS_PER_SET = 3  # nine dice deal at most three hands of three
MAX_DICE_SETS = 4  # twelve players round one table


def card_points(rank: Rank) -> int:
    """A card's value counting an ace as 1 (J Q K are 10)."""
    return min(int(rank), 10)


def hand_value(faces: Iterable[Face]) -> int:
    """The best total of a hand: the highest one not over 21, choosing 1 or 11 for each
    ace and 1 to 11 for each (wild) joker; the lowest total when every choice busts."""
    faces = tuple(faces)
    cards = cards_only(faces)
    jokers = count_jokers(faces)
    low = sum(card_points(card.rank) for card in cards) + jokers
    aces = sum(card.rank == Rank.ACE for card in cards)
    best = low
    for raised in range(aces + 1):  # each ace raised from 1 to 11 adds 10
        total = low + 10 * raised
        if total > GOAL:
            break
        best = max(best, min(GOAL, total + 10 * jokers))  # a joker fills any gap up to 10
    return best


def describe(faces: Sequence[Face]) -> str:
    value = hand_value(faces)
    cards = " ".join(str(face) for face in faces)  # as the dice print them: 10♥ 10♦
    return f"{cards} = {value}" + (" (bust)" if value > GOAL else "")


class TwentyOne(Game):
    name = "square-shooters/twenty-one"
    title = "Square Shooters: Twenty-One"
    die_kind = "square-shooters"
    rolls_to_player = True  # the dealer rolls each die to a player
    min_players = 2
    max_players = PLAYERS_PER_SET * MAX_DICE_SETS
    options_spec: Mapping[str, Option] = {
        "jokers_wild": Option(
            False, "A rolled joker is wild (worth 1 to 11, whatever is best) instead of rolled again"
        ),
        "rounds": Option(5, "Rounds to play; the most round wins wins", minimum=1, maximum=99),
        "dice_sets": Option(
            1,
            f"Sets of nine dice on the table; each set deals {PLAYERS_PER_SET} players",
            minimum=1,
            maximum=MAX_DICE_SETS,
        ),
    }

    @classmethod
    def most_players(cls, options: Mapping[str, Any]) -> int:
        return PLAYERS_PER_SET * options.get("dice_sets", 1)

    def dice_per_roll(self) -> int:
        return 1  # the dealer rolls one die at a time to one player

    def __init__(self, players: Sequence[str], options: Mapping[str, Any] | None = None):
        super().__init__(players, options)
        sets = self.options["dice_sets"]
        if len(self.players) > self.most_players(self.options):
            needed = -(-len(self.players) // PLAYERS_PER_SET)
            raise IllegalMove(
                f"{plural(sets, 'set')} of nine dice deal{'s' if sets == 1 else ''} at most "
                f"{PLAYERS_PER_SET * sets} players, not {len(self.players)}: "
                f"play with {needed} sets (option dice_sets)"
            )
        self.dice = ALL_DICE * sets
        self.round = 0
        self.wins = dict.fromkeys(self.players, 0)
        self.contenders: tuple[str, ...] = self.players
        self.over = False
        self._start_round()

    def _start_round(self) -> None:
        self.round += 1
        rotation = self.players[(self.round - 1) % len(self.players)]
        self.dealer = seating(self.players, rotation, self.contenders)[0]
        # dealing starts at the dealer's left and ends with the dealer
        self.order = seating(self.players, self.next_player(self.dealer), self.contenders)
        self.hands: dict[str, tuple[Face, ...]] = {player: () for player in self.order}
        self.stood: set[str] = set()

    # -- events ---------------------------------------------------------------------
    def on_roll(self, event: Event) -> None:
        player = self.require_player(event, self.receiver())
        (face,) = read_roll(data_field(event, "faces", list), "square-shooters", 1)
        if isinstance(face, Joker) and not self.options["jokers_wild"]:
            self.notes.append(f"{player} rolled a joker: roll that die again")
            return
        out = sum(hand.count(face) for hand in self.hands.values())
        if out >= self.options["dice_sets"]:
            where = "one die" if out == 1 else f"{out} dice, one a set"
            raise IllegalMove(f"{as_named(face)} is already out this round; it is on {where}")
        self.hands[player] += (face,)
        value = hand_value(self.hands[player])
        if value > GOAL:
            self.notes.append(f"{player} busts: {describe(self.hands[player])}")
        elif value == GOAL:
            self.notes.append(f"{player} has 21: {describe(self.hands[player])}")
        else:  # a note each die: the table's last note is never an instruction already done
            self.notes.append(f"{player} takes {face}: {describe(self.hands[player])}")
        self._advance()

    def on_stand(self, event: Event) -> None:
        player = self.require_player(event, self.receiver())
        if self.dealing():
            raise IllegalMove("every player gets two dice before anyone stands")
        self.stood.add(player)
        self._advance()

    def _advance(self) -> None:
        if self.receiver() is None:
            self._end_round()

    def _end_round(self) -> None:
        if self.dice_out() == self.dice:
            self.notes.append(f"all {self.dice} dice are out: the round ends")
        values = {player: hand_value(hand) for player, hand in self.hands.items()}
        standing = [player for player in self.order if values[player] <= GOAL]
        if standing:
            best = max(values[player] for player in standing)
            round_winners = [player for player in standing if values[player] == best]
            for player in round_winners:
                self.wins[player] += 1
            verb = "wins" if len(round_winners) == 1 else "share"
            self.notes.append(f"round {self.round}: {names(round_winners)} {verb} it with {best}")
        else:
            self.notes.append(f"round {self.round}: everybody busts, nobody wins the round")
        if self.round >= self.options["rounds"]:
            ended = after_the_last_round(self.wins, self.contenders, self.notes, "round win")
            self.over, self.contenders = ended
            if self.over:
                return
        self._start_round()

    # -- state ----------------------------------------------------------------------
    def dice_out(self) -> int:
        return sum(len(hand) for hand in self.hands.values())

    def dealing(self) -> bool:
        return any(len(hand) < 2 for hand in self.hands.values())

    def receiver(self) -> str | None:
        """Who gets the next die (or decides whether to take one); None once the
        round is over."""
        for size in (1, 2):
            for player in self.order:
                if len(self.hands[player]) < size:
                    return player
        if self.dice_out() == self.dice:
            return None
        for player in self.order:
            if player not in self.stood and hand_value(self.hands[player]) < GOAL:
                return player
        return None

    # -- the four questions ---------------------------------------------------------
    def turn(self) -> str | None:
        return None if self.over else self.receiver()

    def roll_number(self) -> int | None:
        """Dice rolled out so far this round (at most the dice on the table)."""
        return self.dice_out() or None

    def dice_make(self) -> str:
        return "; ".join(f"{player}: {describe(hand)}" for player, hand in self.hands.items() if hand)

    def allowed(self) -> dict[str, list[str]]:
        moves = {player: [] for player in self.players}
        player = self.turn()
        if player is not None:
            moves[player] = ["roll"] if self.dealing() else ["roll", "stand"]
        return moves

    def totals(self) -> dict[str, int]:
        """Round wins."""
        return dict(self.wins)

    def finished(self) -> bool:
        return self.over

    def details(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "rounds": self.options["rounds"],
            "dealer": self.dealer,
            "contenders": list(self.contenders),
            "dice_left": self.dice - self.dice_out(),
            "hands": {
                player: {
                    "cards": [face.label for face in hand],
                    "value": hand_value(hand),
                    "bust": hand_value(hand) > GOAL,
                    "stood": player in self.stood,
                }
                for player, hand in self.hands.items()
            },
        }
