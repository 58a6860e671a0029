"""The registry of every game dicescore scores, by name."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from scoring.cubes import Cubes
from scoring.game import Game, IllegalMove
from scoring.old_town import OldTown
from scoring.rodeo import RodeoRummy
from scoring.rummy import Rummy
from scoring.shooter import Shooter
from scoring.showdown import ShowdownV1, ShowdownV2
from scoring.square_shooters import Classic, FunVariation, SquareShootout
from scoring.squib import SquibSquares
from scoring.twenty_one import TwentyOne

GAMES: dict[str, type[Game]] = {
    game.name: game
    for game in (  # the order the new-game page offers them
        Classic,
        FunVariation,
        SquareShootout,
        Rummy,
        ShowdownV1,
        ShowdownV2,
        TwentyOne,
        OldTown,
        RodeoRummy,
        Cubes,
        Shooter,
        SquibSquares,
    )
}


def new_game(name: str, players: Sequence[str], options: Mapping[str, Any] | None = None) -> Game:
    try:
        game_class = GAMES[name]
    except KeyError:
        raise IllegalMove(f"unknown game {name!r}; games are {', '.join(sorted(GAMES))}") from None
    return game_class(players, options)
