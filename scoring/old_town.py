"""Old Town Shootout: Square Shooters dice played against real playing cards.

Each player holds five cards of one standard deck (no jokers), face up; they are entered
once at the start with a ``deal`` event ``{"cards": [5 labels]}`` per player.  Players
take turns rolling all nine dice once (``roll``); the roller's cards matched by a rolled
die (same rank and suit) are discarded at once.  Each rolled joker lets the roller give
one of their own cards to another player (``give`` ``{"card", "to"}``) or ``pass``; the
turn ends when every joker is used or the roller has no cards left.  The game ends when
a round is complete and someone has no cards: they all win.  A player who runs out
mid-round can be "roped back in" by a gift before the round is over.

``totals()`` are the cards each player still holds: lower is better, so ``winners()``
names the players holding none rather than the highest total.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from scoring.faces import Card, Face, UnknownFace, parse_face
from scoring.game import Event, Game, IllegalMove, Option, count_jokers, data_field, read_roll
from scoring.turns import ALL_DICE, names, plural

HAND_SIZE = 5


def read_card(label: Any) -> Card:
    """One card of a standard deck, from its label."""
    if not isinstance(label, str):
        raise IllegalMove("a card must be a label like 7H")
    try:
        face = parse_face(label)
    except UnknownFace as error:
        raise IllegalMove(str(error)) from None
    if not isinstance(face, Card):
        raise IllegalMove(f"{face.label} is not a card of a standard deck without jokers")
    return face


def labels(cards: Sequence[Face]) -> list[str]:
    return [card.label for card in cards]


def printed(cards: Sequence[Face]) -> str:
    """Cards as a note shows them, as the dice print them: 2♠ 5♠."""
    return " ".join(str(card) for card in cards)


class OldTown(Game):
    name = "square-shooters/old-town"
    title = "Square Shooters: Old Town Shootout"
    die_kind = "square-shooters"
    min_players = 2
    max_players = 10  # five cards each from one 52-card deck
    options_spec: Mapping[str, Option] = {}

    def __init__(self, players: Sequence[str], options: Mapping[str, Any] | None = None):
        super().__init__(players, options)
        self.hands: dict[str, tuple[Card, ...] | None] = dict.fromkeys(self.players)  # None: not dealt
        self.round = 1
        self.roller = self.players[0]
        self.gifts_left = 0
        self.rolled: tuple[Face, ...] = ()  # the dice showing
        self.rolled_by: str | None = None
        self.matched: tuple[Card, ...] = ()  # the cards they discarded
        self.over = False

    # -- events ---------------------------------------------------------------------
    def on_deal(self, event: Event) -> None:
        player = self.require_player(event)
        if self.hands[player] is not None:
            raise IllegalMove(f"{player}'s cards were already dealt")
        cards = tuple(read_card(label) for label in data_field(event, "cards", list))
        if len(cards) != HAND_SIZE:
            raise IllegalMove(f"each player is dealt {HAND_SIZE} cards, not {len(cards)}")
        dealt = {card for hand in self.hands.values() if hand for card in hand}
        for index, card in enumerate(cards):
            if card in dealt or card in cards[:index]:
                raise IllegalMove(f"{card.label} was dealt twice; the cards come from one deck")
        self.hands[player] = cards
        if self.dealt():
            self.notes.append(f"every hand is dealt: {self.roller} rolls first")

    def on_roll(self, event: Event) -> None:
        self._check_dealt()
        player = self.require_player(event, self.roller)
        if self.gifts_left:
            raise IllegalMove(f"{player} first gives a card or passes for each joker rolled")
        self.rolled = read_roll(data_field(event, "faces", list), "square-shooters", ALL_DICE)
        self.rolled_by = player
        hand = self._hand(player)
        self.matched = tuple(card for card in hand if card in self.rolled)
        self.hands[player] = tuple(card for card in hand if card not in self.rolled)
        if self.matched:
            self.notes.append(f"{player} discards {printed(self.matched)} ({self._left(player)} left)")
        jokers = count_jokers(self.rolled)
        self.gifts_left = jokers if self.hands[player] else 0  # nothing left to give
        if self.gifts_left:
            self.notes.append(f"{player} rolled {plural(jokers, 'joker')}: one card to give away for each")
        elif jokers:
            self.notes.append(f"{player} rolled {plural(jokers, 'joker')} but has no card left to give")
        self._end_turn_if_done()

    def on_give(self, event: Event) -> None:
        player = self._gifting(event)
        card = read_card(data_field(event, "card", str))
        receiver = data_field(event, "to", str)
        if card not in self._hand(player):
            raise IllegalMove(f"{player} does not hold {card.label}")
        if receiver not in self.players:
            raise IllegalMove(f"{receiver!r} is not playing")
        if receiver == player:
            raise IllegalMove("a joker's card goes to another player")
        roped = not self._hand(receiver)
        self.hands[player] = tuple(held for held in self._hand(player) if held != card)
        self.hands[receiver] = self._hand(receiver) + (card,)
        self.notes.append(f"{player} gives {card} to {receiver}" + (", roping them back in" if roped else ""))
        self.gifts_left = self.gifts_left - 1 if self.hands[player] else 0
        self._end_turn_if_done()

    def on_pass(self, event: Event) -> None:
        player = self._gifting(event)
        self.notes.append(f"{player} passes on a joker")
        self.gifts_left -= 1
        self._end_turn_if_done()

    def _gifting(self, event: Event) -> str:
        self._check_dealt()
        player = self.require_player(event, self.roller)
        if not self.gifts_left:
            raise IllegalMove(f"{player} has no joker to use: it is time to roll")
        return player

    def _end_turn_if_done(self) -> None:
        if self.gifts_left:
            return
        if self.roller == self.players[-1]:  # the round is complete
            out = [player for player in self.players if not self._hand(player)]
            if out:
                self.over = True
                verb = "wins" if len(out) == 1 else "win"
                self.notes.append(f"round {self.round} is over: {names(out)} shot out every card and {verb}")
                return
            self.round += 1
        self.roller = self.next_player(self.roller)

    # -- state ----------------------------------------------------------------------
    def dealt(self) -> bool:
        return all(hand is not None for hand in self.hands.values())

    def _check_dealt(self) -> None:
        waiting = [player for player, hand in self.hands.items() if hand is None]
        if waiting:
            raise IllegalMove(f"deal the cards first: waiting for {names(waiting)}")

    def _hand(self, player: str) -> tuple[Card, ...]:
        return self.hands[player] or ()

    def _left(self, player: str) -> int:
        hand = self.hands[player]
        return HAND_SIZE if hand is None else len(hand)

    # -- the four questions ---------------------------------------------------------
    def turn(self) -> str | None:
        """The roller; nobody's while the cards are dealt (everyone enters theirs)."""
        return self.roller if self.dealt() and not self.over else None

    def roll_number(self) -> int | None:
        return 1 if self.rolled else None  # one roll a turn

    def dice_make(self) -> str:
        if not self.rolled:
            return ""
        matched = printed(self.matched) if self.matched else "no card"
        jokers = count_jokers(self.rolled)
        return f"{self.rolled_by}'s roll matches {matched}" + (
            f"; {plural(jokers, 'joker')}" if jokers else ""
        )

    def allowed(self) -> dict[str, list[str]]:
        if not self.dealt():
            return {player: ["deal"] if hand is None else [] for player, hand in self.hands.items()}
        moves: dict[str, list[str]] = {player: [] for player in self.players}
        if not self.over:
            moves[self.roller] = ["give", "pass"] if self.gifts_left else ["roll"]
        return moves

    def totals(self) -> dict[str, int]:
        """Cards left in each hand (five before the deal): lower is better."""
        return {player: self._left(player) for player in self.players}

    def finished(self) -> bool:
        return self.over

    def winners(self) -> list[str]:
        """Everyone out of cards when the game ends (not the highest total)."""
        if not self.over:
            return []
        return [player for player in self.players if not self._hand(player)]

    def details(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "gifts_left": self.gifts_left,
            "hands": {player: None if hand is None else labels(hand) for player, hand in self.hands.items()},
        }
