"""A tiny game used to test the log machinery apart from any real rules."""

import random

from scoring.game import Event, Game, IllegalMove, Option, data_field, read_roll


class PipRace(Game):
    """Players take turns rolling two pip dice; each roll adds its pips to the roller.
    A "shuffle" chance event decides the seating before the first roll."""

    name = "test/pip-race"
    title = "Pip race"
    die_kind = "d6"
    min_players = 1
    max_players = 4
    options_spec = {"target": Option(20, "first to this many pips wins", minimum=1)}

    def __init__(self, players, options=None):
        super().__init__(players, options)
        self.seating: list[str] | None = None
        self.pips = {player: 0 for player in self.players}
        self.rolls = 0

    def random_event(self, rng: random.Random):
        if self.seating is None:
            order = list(self.players)
            rng.shuffle(order)
            return Event("shuffle", {"order": order})
        return None

    def on_shuffle(self, event):
        order = data_field(event, "order", list)
        if sorted(order) != sorted(self.players):
            raise IllegalMove("the seating must name every player once")
        self.seating = order

    def on_roll(self, event):
        if self.seating is None:
            raise IllegalMove("the seating is not drawn yet")
        self.require_player(event, self.turn())
        faces = read_roll(data_field(event, "faces", list), "d6", 2)
        self.pips[event.player] += sum(face.value for face in faces)
        self.rolls += 1

    def turn(self):
        if self.seating is None or self.finished():
            return None
        return self.seating[self.rolls % len(self.seating)]

    def allowed(self):
        turn = self.turn()
        return {player: (["roll"] if player == turn else []) for player in self.players}

    def totals(self):
        return dict(self.pips)

    def finished(self):
        return max(self.pips.values()) >= self.options["target"]
