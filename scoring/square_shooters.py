"""Square Shooters: the Classic game, its Fun Variation and Square Shootout (sheet 000).

Players roll the nine dice, up to three times a turn, for the hand on a target card:
the exact hand wins the card's chips, the type of hand half of them (rounded up; the
kids' rule pays them all), and the exact hand in fewer than three rolls without a joker
adds a bonus.  Players start with nothing; the bank pays every win, and a showdown
moves chips from the loser to the winner, the bank paying what the loser lacks, so the
players' chips always add up to what the bank has paid out.  The rules, with every
decision taken where the sheet is silent, are in docs/rules-square-shooters.md.

Events (besides ``start``, ``undo`` and ``correct``, see scoring/replay.py):

* ``shuffle`` ``{"order": [card ids]}`` (automatic): the discards, shuffled into a new
  draw pile whose top is ``order[0]``;
* ``draw`` by the player to draw: the top of the virtual deck, or with
  ``{"card": {"kind", "cards", "chips"}}`` / ``{"card": {"shootout": kind}}`` a
  physical card entered by hand;
* ``roll`` ``{"faces": [9 labels], "held": [labels]}`` and ``stop`` by the player rolling;
* ``play`` ``{"card": "double_down" | "quick_draw" | "joker_card" | "showdown"}``: a kept
  shootout card;
* ``challenge`` ``{"opponent": name}``: the drawer of a Showdown names an opponent;
* ``choose`` ``{"cards": [7 card ids or card objects]}`` (Square Shootout, before the
  first roll): the seven target cards.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from scoring.game import Event, Game, IllegalMove, Option, data_field
from scoring.hands import KIND_NAMES, TARGET_KINDS, Hand, Target, TargetMatch, best_hand, match_target
from scoring.targets import (
    SHOOTOUT_TITLES,
    TargetCard,
    game_card,
    shootout_kind,
    standard_deck,
    target_card,
)
from scoring.turns import RollTurn, leaders, names, seating

MATCH_WORDS = {"exact": "matches exactly", "type": "matches the type", "none": "no match"}
MATCH_NOTES = {
    "exact": "{player} matches {card} exactly{joker}",
    "type": "{player} matches the type of {card}{joker}",
    "none": "{player} misses {card}",
}


def joker_words(match: TargetMatch) -> str:
    return " with a joker" if match.level != "none" and match.joker_needed else ""


def chips(count: int) -> str:
    return "1 chip" if count == 1 else f"{count} chips"


@dataclass(frozen=True)
class Award:
    """What one turn at a target wins: the chips for the match, the bonus, and
    whether a Double-Down doubles both."""

    chips: int
    bonus: int = 0
    doubled: bool = False

    @property
    def total(self) -> int:
        return (self.chips + self.bonus) * (2 if self.doubled else 1)

    def __str__(self) -> str:
        if not self.total:
            return "no chips"
        if not self.bonus:
            return f"{chips(self.chips)} x2 = {chips(self.total)}" if self.doubled else chips(self.chips)
        text = f"{chips(self.chips)} + {self.bonus} bonus"
        return f"({text}) x2 = {chips(self.total)}" if self.doubled else text


def award(
    target: Target, match: TargetMatch, *, early: bool, doubled: bool, kids_rule: bool, bonus: int
) -> Award:
    """The sheet's two ways to win chips: the exact hand pays the card's total, the type
    of hand half of it rounded up (all of it under the kids' rule).  The exact hand in
    fewer than three rolls adds the bonus, unless a joker (die or Joker Card) was needed."""
    if match.level == "exact":
        won = target.chips
    elif match.level == "type":
        won = target.chips if kids_rule else -(-target.chips // 2)
    else:
        won = 0
    extra = bonus if match.level == "exact" and early and not match.joker_needed else 0
    return Award(won, extra, doubled)


@dataclass(frozen=True)
class ShowdownRound:
    """Players roll in turn, up to three rolls each, for the best hand.  ``tiebreak``
    marks the end-of-game showdown, where tied hands roll again."""

    players: tuple[str, ...]
    tiebreak: bool = False
    hands: tuple[Hand, ...] = ()

    @property
    def done(self) -> bool:
        return len(self.hands) == len(self.players)

    @property
    def next_player(self) -> str:
        return self.players[len(self.hands)]

    def with_hand(self, hand: Hand) -> ShowdownRound:
        return replace(self, hands=self.hands + (hand,))

    def best(self) -> list[str]:
        """The players whose hands tie for the best (one when there is a clear winner)."""
        top = max(self.hands)
        return [player for player, hand in zip(self.players, self.hands, strict=True) if not hand < top]

    def to_json(self) -> dict[str, Any]:
        return {
            "players": list(self.players),
            "tiebreak": self.tiebreak,
            "hands": {player: str(hand) for player, hand in zip(self.players, self.hands, strict=False)},
        }


COMMON_OPTIONS: Mapping[str, Option] = {
    "jokers_wild": Option(True, "Jokers are wild: a rolled joker stands for any card"),
    "kids_rule": Option(False, "Kids' rule for everyone: the type of hand pays the card's full chips"),
    "kids": Option("", "Kids' rule for these younger players only: their names, separated by commas"),
    "bonus": Option(5, "Bonus for the exact hand in fewer than three rolls without a joker", minimum=0),
    "showdown_chips": Option(6, "Chips the winner of a showdown takes from the loser", minimum=1),
    "tiebreak": Option(
        "rounds",
        "Players tied at the end play more rounds until one leads (rounds), or face off in a showdown",
        choices={"rounds": "more rounds until one leads", "showdown": "a showdown"},
    ),
}
DECK_OPTIONS: Mapping[str, Option] = {
    "rounds": Option(8, "Rounds to play; a round is one turn for every player", minimum=1, maximum=99),
    "deck": Option(
        "virtual",
        "Draw game cards from the app's shuffled deck (virtual), or enter each physical card drawn",
        choices={"virtual": "the app's shuffled deck", "physical": "enter each physical card drawn"},
    ),
}


def named_players(names: str, players: Sequence[str]) -> tuple[str, ...]:
    """The players ``names`` lists, separated by commas; IllegalMove for one not playing."""
    named = tuple(name.strip() for name in names.split(",") if name.strip())
    for name in named:
        if name not in players:
            raise IllegalMove(f"option kids: {name!r} is not playing; players are {', '.join(players)}")
    return named


class SquareShooters(Game):
    """What the three games share: turns at a target, showdowns, rounds and the tiebreak.

    ``phase`` is "draw" (a card is to be drawn), "roll" (a player rolls for the target),
    "challenge" (the holder of a Showdown names an opponent), "showdown" or "over"."""

    die_kind = "square-shooters"
    min_players = 2
    max_players = 10

    def __init__(self, players: Sequence[str], options: Mapping[str, Any] | None = None):
        super().__init__(players, options)
        self.chips = dict.fromkeys(self.players, 0)
        self.bank_paid = 0
        self.round = 1
        self.contenders: tuple[str, ...] = self.players  # who plays this round (tiebreaks: the tied)
        self.phase = "draw"
        self.target: TargetCard | None = None
        self.rolling: RollTurn | None = None
        self.showdown: ShowdownRound | None = None
        self.in_play: tuple[tuple[str, str], ...] = ()  # (player, shootout kind) played this turn
        # The sheet's kids' rule is for "younger players", while "the adults stick to the
        # original instructions": named players, or everyone with the kids_rule option.
        kids = named_players(self.options["kids"], self.players)
        self.kids = self.players if self.options["kids_rule"] else kids

    @property
    def rounds(self) -> int:
        return self.options["rounds"]

    # -- rounds and turns: subclasses say how a round and a turn open -------------------
    def _start_round(self) -> None:
        self.order = seating(self.players, self._opener(), self.contenders)
        self.index = 0
        self._start_turn()

    def _opener(self) -> str:
        """The seat that plays first this round (the next contender if it sits out)."""
        return self.players[0]

    def _start_turn(self) -> None:
        self.in_play = ()
        self.rolling = None
        self._open_turn()

    def _open_turn(self) -> None:
        raise NotImplementedError

    def _begin_rolling(self) -> None:
        self.phase = "roll"
        self.rolling = RollTurn(self.order[self.index])

    def _target_done(self) -> None:
        """After a player's turn at the target, before the next turn."""

    def _round_done(self) -> None:
        """After the last turn of a round."""

    def _end_turn(self) -> None:
        self.index += 1
        if self.index < len(self.order):
            self._start_turn()
            return
        self._round_done()
        if self.round < self.rounds:
            self.round += 1
            self._start_round()
            return
        top = leaders(self.chips, self.players)
        tied = f"{names(top)} are tied with {chips(self.chips[top[0]])}"
        if len(top) == 1:
            self._win(top[0])
        elif self.options["tiebreak"] == "showdown":
            self.notes.append(f"{tied}: a showdown decides")
            self.contenders = tuple(top)
            self._begin_showdown(top, tiebreak=True)
        else:
            self.notes.append(f"{tied}: they play another round")
            self.contenders = tuple(top)
            self.round += 1
            self._start_round()

    def _win(self, player: str) -> None:
        self.phase = "over"
        self.rolling = None
        self.notes.append(f"{player} wins with {chips(self.chips[player])}")

    # -- chips ----------------------------------------------------------------------
    def _pay(self, player: str, amount: int) -> None:
        self.chips[player] += amount
        self.bank_paid += amount

    def _take(self, winner: str, loser: str, amount: int) -> str:
        """The winner takes ``amount`` from the loser; the bank pays what the loser lacks."""
        paid = min(amount, self.chips[loser])
        self.chips[loser] -= paid
        self.chips[winner] += paid
        self._pay(winner, amount - paid)
        from_bank = f" and {chips(amount - paid)} from the bank" if amount > paid else ""
        return f"{winner} takes {chips(paid)} from {loser}{from_bank}"

    # -- rolling ----------------------------------------------------------------------
    def on_roll(self, event: Event) -> None:
        self._roller(event)
        self.rolling = self.rolling.roll(event)
        if self.rolling.over:
            self._rolled()

    def on_stop(self, event: Event) -> None:
        self._roller(event)
        self.rolling = self.rolling.stop()
        self._rolled()

    def _roller(self, event: Event) -> None:
        if self.phase not in ("roll", "showdown"):
            raise IllegalMove(f"nobody is rolling now: {self.turn()} is to {self.phase}")
        self.require_player(event, self.rolling.player)

    def _rolled(self) -> None:
        if self.phase == "showdown":
            self._showdown_hand()
        else:
            self._score_target()

    def _extra_wilds(self) -> int:
        return int((self.rolling.player, "joker_card") in self.in_play)

    def _judge(self) -> tuple[TargetMatch, Award]:
        """The dice showing against the target, scored as if the turn ended now."""
        match = match_target(
            self.target.target,
            self.rolling.labels,
            jokers_wild=self.options["jokers_wild"],
            extra_wilds=self._extra_wilds(),
        )
        won = award(
            self.target.target,
            match,
            early=self.rolling.count < 3,
            doubled=any(kind == "double_down" for _, kind in self.in_play),
            kids_rule=self.rolling.player in self.kids,
            bonus=self.options["bonus"],
        )
        return match, won

    def _score_target(self) -> None:
        # The note names the match, not the best hand: finding that is the slow part of a
        # replay, and what the dice make is shown live by dice_make().
        player = self.rolling.player
        match, won = self._judge()
        words = MATCH_NOTES[match.level].format(
            player=player, card=self.target.name, joker=joker_words(match)
        )
        self.notes.append(f"{words}: wins {won}")
        self._pay(player, won.total)
        for holder, kind in self.in_play:
            if kind == "quick_draw" and won.total:
                self._pay(holder, won.total)
                self.notes.append(f"{holder}'s Quick-Draw: the bank pays {holder} {chips(won.total)} too")
        self._target_done()
        self._end_turn()

    # -- showdowns ------------------------------------------------------------------
    def _begin_showdown(self, players: Sequence[str], *, tiebreak: bool) -> None:
        self.showdown = ShowdownRound(tuple(players), tiebreak)
        self.phase = "showdown"
        self.rolling = RollTurn(self.showdown.next_player)

    def _showdown_hand(self) -> None:
        hand = best_hand(self.rolling.labels, jokers_wild=self.options["jokers_wild"])
        self.notes.append(f"{self.rolling.player}'s showdown hand: {hand}")
        self.showdown = self.showdown.with_hand(hand)
        if not self.showdown.done:
            self.rolling = RollTurn(self.showdown.next_player)
            return
        showdown, self.showdown = self.showdown, None
        best = showdown.best()
        if len(best) == 1:
            winner, stake = best[0], self.options["showdown_chips"]
            for loser in showdown.players:
                if loser != winner:
                    self.notes.append("showdown: " + self._take(winner, loser, stake))
            if showdown.tiebreak:
                self._win(winner)
                return
        elif showdown.tiebreak:
            self.notes.append(f"showdown: {names(best)} tie, so they face off again")
            self._begin_showdown(best, tiebreak=True)
            return
        else:
            self.notes.append("showdown: the hands tie, so no chips move")
        self._end_turn()

    # -- the four questions -------------------------------------------------------------
    def turn(self) -> str | None:
        if self.phase == "over":
            return None
        if self.rolling is not None:
            return self.rolling.player
        return self.order[self.index]

    def roll_number(self) -> int | None:
        return self.rolling.count if self.rolling is not None and self.rolling.count else None

    def roll_limit(self) -> int | None:
        return self.rolling.limit if self.rolling is not None else None

    def dice_make(self) -> str:
        if self.rolling is None or not self.rolling.rolls:
            return ""
        if self.phase == "showdown":
            return str(best_hand(self.rolling.labels, jokers_wild=self.options["jokers_wild"]))
        match, won = self._judge()
        if match.level != "none":  # the dice that match, not the best hand they make besides
            kind = KIND_NAMES[self.target.target.kind]
            used = " ".join(str(face) for face in match.faces)
            return f"{kind} ({used}) {MATCH_WORDS[match.level]}{joker_words(match)}, {won}"
        hand = best_hand(
            self.rolling.labels, jokers_wild=self.options["jokers_wild"], extra_wilds=self._extra_wilds()
        )
        return f"{hand}: {MATCH_WORDS[match.level]}, {won}"

    def playable(self, player: str) -> list[str]:
        """The shootout cards ``player`` may play now."""
        return []

    def allowed(self) -> dict[str, list[str]]:
        moves: dict[str, list[str]] = {player: [] for player in self.players}
        if self.phase == "over":
            return moves
        player = self.turn()
        if self.phase == "draw":
            moves[player] = ["draw"]
        elif self.phase == "challenge":
            moves[player] = ["challenge"]
        else:
            moves[player] = self.rolling.moves()
        for player in self.players:
            if self.playable(player):
                moves[player].append("play")
        return moves

    def totals(self) -> dict[str, int]:
        return dict(self.chips)

    def finished(self) -> bool:
        return self.phase == "over"

    def details(self) -> dict[str, Any]:
        return {
            "phase": self.phase,
            "round": self.round,
            "rounds": self.rounds,
            "tiebreak": self.round > self.rounds or (self.showdown is not None and self.showdown.tiebreak),
            "contenders": list(self.contenders),
            "target": None if self.target is None else self.target.to_json(),
            "bank_paid": self.bank_paid,
            "showdown": None if self.showdown is None else self.showdown.to_json(),
        }


class _DeckGame(SquareShooters):
    """The games that draw game cards: target cards and shootout cards."""

    showdown_when_drawn: ClassVar[bool]  # Classic: resolved at once; Fun: kept
    options_spec = {**DECK_OPTIONS, **COMMON_OPTIONS}

    def __init__(self, players: Sequence[str], options: Mapping[str, Any] | None = None):
        super().__init__(players, options)
        self.deck = standard_deck()
        # The whole deck starts as the "discards", so the first shuffle is like any other.
        self.pile: list[str] = []
        self.discards: list[str] = list(self.deck.ids) if self.options["deck"] == "virtual" else []
        self.held: dict[str, list[str]] = {player: [] for player in self.players}
        self._start_round()

    # -- the deck ---------------------------------------------------------------------
    def random_event(self, rng: random.Random) -> Event | None:
        if self.pile or not self.discards or self.finished():
            return None
        order = list(self.discards)
        rng.shuffle(order)
        return Event("shuffle", {"order": order}, auto=True)

    def on_shuffle(self, event: Event) -> None:
        if self.options["deck"] != "virtual":
            raise IllegalMove("a physical deck is shuffled by hand; enter each card you draw")
        order = data_field(event, "order", list)
        if self.pile:
            raise IllegalMove("the draw pile is not empty yet")
        if not all(isinstance(card, str) for card in order) or sorted(order) != sorted(self.discards):
            raise IllegalMove("a shuffle lists every card of the discard pile once")
        self.pile, self.discards = list(order), []

    def on_draw(self, event: Event) -> None:
        if self.phase != "draw":
            raise IllegalMove(f"no card is to be drawn now: {self.turn()} is to {self.phase}")
        player = self.require_player(event, self.turn())
        if self.options["deck"] == "physical":
            card = game_card(data_field(event, "card", dict))
        elif "card" in event.data:
            raise IllegalMove("this game draws from the virtual deck; draw without naming a card")
        elif not self.pile:
            raise IllegalMove("the deck needs shuffling first")
        else:
            card = self.deck.card(self.pile.pop(0))
        if isinstance(card, TargetCard):
            self.target = card
            self.notes.append(f"{player} turns {card}")
            self._begin_rolling()
        elif card.kind == "showdown" and self.showdown_when_drawn:
            self.phase = "challenge"
            self.notes.append(f"{player} draws a Showdown and names an opponent")
        else:
            self.held[player].append(card.kind)
            self.notes.append(f"{player} keeps a {card} and draws again")

    def _discard_target(self) -> None:
        if self.target.id is not None and self.options["deck"] == "virtual":
            self.discards.append(self.target.id)
        self.target = None

    # -- shootout cards ---------------------------------------------------------------
    def _why_not(self, player: str, kind: str) -> str | None:
        """Why ``player`` may not play a ``kind`` card now; None when they may."""
        title = SHOOTOUT_TITLES[kind]
        if kind not in self.held[player]:
            return f"{player} holds no {title}"
        if self.phase != "roll":
            return f"a {title} is played while a player rolls for a target"
        if (player, kind) in self.in_play:
            return f"{player} has already played a {title} this turn"
        roller, rolls = self.rolling.player, self.rolling.count
        so_far = "no roll yet" if rolls == 0 else f"{rolls} rolls made"
        if kind == "quick_draw":
            if player == roller:
                return "a Quick-Draw is played on an opponent's turn, not your own"
            if player not in self.contenders:
                return f"{player} is not playing this round"
            if rolls != 1:
                return f"a Quick-Draw is played after {roller}'s first roll, before the second ({so_far})"
            return None
        if player != roller:
            return f"a {title} is played on your own turn"
        if kind == "double_down" and rolls != 1:
            return f"a Double-Down is played after your first roll, before the second ({so_far})"
        if kind == "showdown" and (rolls or self.in_play):
            return "a kept Showdown is played at the start of your turn, instead of rolling"
        return None

    def playable(self, player: str) -> list[str]:
        return [kind for kind in dict.fromkeys(self.held[player]) if self._why_not(player, kind) is None]

    def on_play(self, event: Event) -> None:
        player = self.require_player(event)
        kind = shootout_kind(data_field(event, "card", str))
        why = self._why_not(player, kind)
        if why is not None:
            raise IllegalMove(why)
        self.held[player].remove(kind)
        self.notes.append(f"{player} plays a {SHOOTOUT_TITLES[kind]}")
        if kind == "showdown":
            self.phase = "challenge"
            self.rolling = None
        else:
            self.in_play += ((player, kind),)

    def on_challenge(self, event: Event) -> None:
        if self.phase != "challenge":
            raise IllegalMove("nobody is to name a showdown opponent now")
        player = self.require_player(event, self.turn())
        opponent = data_field(event, "opponent", str)
        if opponent == player or opponent not in self.contenders:
            others = [other for other in self.contenders if other != player]
            raise IllegalMove(f"{player} names an opponent among {names(others)}")
        self.notes.append(f"{player} challenges {opponent} to a showdown")
        self._begin_showdown((player, opponent), tiebreak=False)

    def details(self) -> dict[str, Any]:
        return {
            **super().details(),
            "held": {player: list(cards) for player, cards in self.held.items()},
            "in_play": [{"player": player, "card": kind} for player, kind in self.in_play],
            "playable": [
                {"player": player, "card": kind} for player in self.players for kind in self.playable(player)
            ],
            # a physical deck is on the table, where the players see it
            **(
                {"deck": {"pile": len(self.pile), "discards": len(self.discards)}}
                if self.options["deck"] == "virtual"
                else {}
            ),
        }


class Classic(_DeckGame):
    """Each player in turn draws a card and rolls for its target."""

    name = "square-shooters/classic"
    title = "Square Shooters: the Classic game"
    showdown_when_drawn = True

    def _open_turn(self) -> None:
        self.phase = "draw"

    def _target_done(self) -> None:
        self._discard_target()


class FunVariation(_DeckGame):
    """One target per round for everybody; the player who turns it moves left each round."""

    name = "square-shooters/fun"
    title = "Square Shooters: the Fun Variation"
    showdown_when_drawn = False

    def _opener(self) -> str:
        return self.players[(self.round - 1) % len(self.players)]  # the chooser moves left

    def _open_turn(self) -> None:
        if self.target is None:
            self.phase = "draw"
        else:
            self._begin_rolling()

    def _round_done(self) -> None:
        self._discard_target()

    def details(self) -> dict[str, Any]:
        return {**super().details(), "chooser": self.order[0]}


class SquareShootout(SquareShooters):
    """Seven rounds, one target card of each type, lowest first; no shootout cards."""

    name = "square-shooters/shootout"
    title = "Square Shooters: Square Shootout"
    min_players = 1
    options_spec = COMMON_OPTIONS

    def __init__(self, players: Sequence[str], options: Mapping[str, Any] | None = None):
        super().__init__(players, options)
        self.deck = standard_deck()
        self.targets = tuple(self.deck.first_target(kind) for kind in TARGET_KINDS)
        self._start_round()

    @property
    def rounds(self) -> int:
        return len(TARGET_KINDS)

    def _open_turn(self) -> None:
        # tiebreak rounds go round the seven cards again, from the lowest
        self.target = self.targets[(self.round - 1) % len(self.targets)]
        self._begin_rolling()

    def _choosing(self) -> bool:
        """The seven cards may be chosen until the first roll of the game."""
        return self.round == 1 and self.index == 0 and self.phase == "roll" and not self.rolling.rolls

    def on_choose(self, event: Event) -> None:
        if not self._choosing():
            raise IllegalMove("the seven target cards are chosen before the first roll")
        entries = data_field(event, "cards", list)
        cards = [self.deck.card(entry) if isinstance(entry, str) else target_card(entry) for entry in entries]
        if not all(isinstance(card, TargetCard) for card in cards) or sorted(
            card.kind for card in cards
        ) != sorted(TARGET_KINDS):
            kinds = ", ".join(KIND_NAMES[kind] for kind in TARGET_KINDS)
            raise IllegalMove(f"choose one target card of each of the seven types: {kinds}")
        self.targets = tuple(sorted(cards, key=lambda card: TARGET_KINDS.index(card.kind)))
        self.target = self.targets[0]
        self.notes.append("the targets: " + "; ".join(str(card) for card in self.targets))

    def allowed(self) -> dict[str, list[str]]:
        moves = super().allowed()
        if self._choosing():
            for player in self.players:
                moves[player].append("choose")
        return moves

    def details(self) -> dict[str, Any]:
        return {**super().details(), "targets": [card.to_json() for card in self.targets]}
