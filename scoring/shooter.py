"""Shooter: a trick-taking card game for 3 or 4 players (../shared/seeds/004_...).

dicescore keeps the score from what the players tap in; the cards stay on the table.
Each hand: the dealer deals (6 cards each to 4 players, 8 each to 3, so 6 or 8 tricks),
everyone bids once, starting at the dealer's left; the top bidder names trump and the
tricks are played; then the tricks each player took are entered and the hand is scored.

Events:

* ``bid`` (the player whose turn it is to bid): ``{"bid": n}`` with 3 <= n <= the tricks
  in a hand, more than the last bid, optionally with ``"trump": "S"`` (or ``"spades"``...).
  A bid of every trick is "shooting the moon" and ends the bidding.
* ``pass`` (the player whose turn it is to bid).  When everyone passes, the next dealer
  deals again.
* ``trump`` (the top bidder, when their bid named none): ``{"trump": suit}``.
* ``tricks`` (anyone): ``{"tricks": {player: n, ...}}`` for every player, adding up to the
  tricks in the hand.  Ends the hand.
* ``renege`` (the player caught reneging), at any time: -2 at once.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from scoring.faces import Suit
from scoring.game import Event, Game, IllegalMove, Option, data_field

LOWEST_BID = 3
MOON_POINTS = 12
RENEGE_PENALTY = 2
CARDS_IN_DECK = 24  # 9 to A in four suits


@dataclass(frozen=True)
class Bid:
    """One player's say in the bidding: a number of tricks, or None for a pass."""

    player: str
    tricks: int | None
    trump: Suit | None = None


@dataclass(frozen=True)
class Contract:
    """The winning bid of a hand: who bid, how many tricks, and trump."""

    bidder: str
    bid: int
    trump: Suit | None

    def is_moon(self, tricks_in_hand: int) -> bool:
        return self.bid == tricks_in_hand


@dataclass(frozen=True)
class PlayedHand:
    """One hand played to the end: its dealer, contract and the tricks each player took."""

    dealer: str
    contract: Contract
    tricks: Mapping[str, int]

    def scores(self) -> dict[str, int]:
        """What the hand adds to each player's score (RULES.md, Shooter)."""
        in_hand = sum(self.tricks.values())
        scores = dict(self.tricks)  # one point a trick
        bidder, bid = self.contract.bidder, self.contract.bid
        taken = self.tricks[bidder]
        if self.contract.is_moon(in_hand):
            # A made moon scores 12 instead of its tricks; a failed one loses 12 besides them.
            scores[bidder] = MOON_POINTS if taken == in_hand else taken - MOON_POINTS
        elif taken < bid:
            scores[bidder] = taken - bid
        return scores


def parse_suit(text: Any) -> Suit:
    if isinstance(text, str):
        for suit in Suit:
            if text.strip().upper() in (suit.value, suit.name):
                return suit
    raise IllegalMove(f"unknown trump {text!r}; name a suit: S, H, D, C or spades, hearts, diamonds, clubs")


class Shooter(Game):
    name = "shooter"
    title = "Shooter"
    min_players = 3
    max_players = 4
    options_spec = {"goal": Option(32, "the score that wins", minimum=1)}

    def __init__(self, players: Sequence[str], options: dict[str, Any] | None = None):
        super().__init__(players, options)
        self.tricks_in_hand = CARDS_IN_DECK // len(self.players)
        self.hands: list[PlayedHand] = []
        self.reneges: list[str] = []
        self.over = False
        self.new_deal(self.players[0])

    def new_deal(self, dealer: str) -> None:
        self.dealer = dealer
        self.bids: list[Bid] = []
        self.contract: Contract | None = None

    # -- bidding ---------------------------------------------------------------------------
    def bidder_to_speak(self) -> str | None:
        """Who bids next, or None when the bidding is closed: everyone has spoken once,
        or someone shot the moon, which nobody can beat."""
        high = self.high_bid()
        if len(self.bids) == len(self.players) or (high and high.tricks == self.tricks_in_hand):
            return None
        return self.players[(self.players.index(self.dealer) + 1 + len(self.bids)) % len(self.players)]

    def high_bid(self) -> Bid | None:
        made = [bid for bid in self.bids if bid.tricks is not None]
        return made[-1] if made else None

    def on_bid(self, event: Event) -> None:
        player = self.require_player(event, self.expect_bidder())
        tricks = data_field(event, "bid", int)
        if not LOWEST_BID <= tricks <= self.tricks_in_hand:
            raise IllegalMove(f"a bid is {LOWEST_BID} to {self.tricks_in_hand} tricks, not {tricks}")
        high = self.high_bid()
        if high is not None and tricks <= high.tricks:
            raise IllegalMove(f"{high.player} bid {high.tricks}: a bid must be more than that (or pass)")
        trump = parse_suit(event.data["trump"]) if "trump" in event.data else None
        self.bids.append(Bid(player, tricks, trump))
        self.close_bidding_if_done()

    def on_pass(self, event: Event) -> None:
        self.bids.append(Bid(self.require_player(event, self.expect_bidder()), None))
        self.close_bidding_if_done()

    def expect_bidder(self) -> str:
        bidder = self.bidder_to_speak()
        if bidder is None:
            raise IllegalMove("the bidding is closed")
        return bidder

    def close_bidding_if_done(self) -> None:
        if self.bidder_to_speak() is not None:
            return
        high = self.high_bid()
        if high is None:
            next_dealer = self.next_player(self.dealer)
            self.notes.append(f"everyone passed: {next_dealer} deals again")
            self.new_deal(next_dealer)
        else:
            self.contract = Contract(high.player, high.tricks, high.trump)

    def on_trump(self, event: Event) -> None:
        if self.contract is None:
            raise IllegalMove("trump is named once the bidding is closed")
        if self.contract.trump is not None:
            raise IllegalMove(f"trump is already {self.contract.trump.name.lower()}")
        self.require_player(event, self.contract.bidder)
        trump = parse_suit(data_field(event, "trump", str))
        self.contract = Contract(self.contract.bidder, self.contract.bid, trump)

    # -- the play -------------------------------------------------------------------------
    def on_tricks(self, event: Event) -> None:
        if self.contract is None:
            raise IllegalMove("the tricks are entered after the bidding")
        if self.contract.trump is None:
            raise IllegalMove(f"{self.contract.bidder}'s bid needs a trump: name it first")
        tricks = data_field(event, "tricks", dict)
        if set(tricks) != set(self.players):
            raise IllegalMove("enter the tricks of every player, and only of the players")
        for player, count in tricks.items():
            if not isinstance(count, int) or isinstance(count, bool) or count < 0:
                raise IllegalMove(f"{player}'s tricks must be a whole number, 0 or more")
        if sum(tricks.values()) != self.tricks_in_hand:
            raise IllegalMove(
                f"the tricks add up to {sum(tricks.values())}, but a hand has {self.tricks_in_hand}"
            )
        hand = PlayedHand(self.dealer, self.contract, {player: tricks[player] for player in self.players})
        self.hands.append(hand)
        self.notes.append(describe(hand))
        totals = self.totals()
        top = max(totals.values())
        leaders = [player for player in self.players if totals[player] == top]
        if top >= self.options["goal"] and len(leaders) == 1:
            self.over = True
            self.notes.append(f"{leaders[0]} reaches {top} and wins")
        else:
            # Below the goal, or tied at the top: play on.
            self.new_deal(self.next_player(self.dealer))

    def on_renege(self, event: Event) -> None:
        player = self.require_player(event)
        self.reneges.append(player)
        self.notes.append(f"{player} reneged: -{RENEGE_PENALTY}")

    # -- the four questions -----------------------------------------------------------
    def phase(self) -> str:
        if self.over:
            return "over"
        if self.contract is None:
            return "bidding"
        return "trump" if self.contract.trump is None else "play"

    def turn(self) -> str | None:
        phase = self.phase()
        if phase == "bidding":
            return self.bidder_to_speak()
        return None if phase == "over" else self.contract.bidder

    def allowed(self) -> dict[str, list[str]]:
        phase = self.phase()
        if phase == "over":
            return {player: [] for player in self.players}
        allowed: dict[str, list[str]] = {player: [] for player in self.players}
        if phase == "bidding":
            allowed[self.bidder_to_speak()] += ["bid", "pass"]
        elif phase == "trump":
            allowed[self.contract.bidder] += ["trump"]
        else:
            for moves in allowed.values():
                moves.append("tricks")
        for moves in allowed.values():
            moves.append("renege")  # caught at any time: after the moves of the moment
        return allowed

    # -- results -------------------------------------------------------------------------
    def totals(self) -> dict[str, int]:
        totals = {player: 0 for player in self.players}
        for hand in self.hands:
            for player, points in hand.scores().items():
                totals[player] += points
        for player in self.reneges:
            totals[player] -= RENEGE_PENALTY
        return totals

    def finished(self) -> bool:
        return self.over

    def details(self) -> dict[str, Any]:
        contract = self.contract
        return {
            "phase": self.phase(),
            "goal": self.options["goal"],
            "tricks_in_hand": self.tricks_in_hand,
            "hand": len(self.hands) + (0 if self.over else 1),
            "dealer": self.dealer,
            "bids": [{"player": bid.player, "bid": bid.tricks} for bid in self.bids],
            "bidder": contract.bidder if contract else None,
            "bid": contract.bid if contract else None,
            "trump": contract.trump.name.lower() if contract and contract.trump else None,
            "hands": [{"dealer": hand.dealer, "scores": hand.scores()} for hand in self.hands],
        }


def describe(hand: PlayedHand) -> str:
    """One line for the notes: "Ana bid 4 in hearts, took 3: -1; Bo +2; Cy +1"."""
    contract, scores = hand.contract, hand.scores()
    bidder = contract.bidder
    moon = " (shooting the moon)" if contract.is_moon(sum(hand.tricks.values())) else ""
    parts = [
        f"{bidder} bid {contract.bid}{moon} in {contract.trump.name.lower()}, "
        f"took {hand.tricks[bidder]}: {scores[bidder]:+d}"
    ]
    parts += [f"{player} {points:+d}" for player, points in scores.items() if player != bidder]
    return "; ".join(parts)
