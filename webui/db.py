"""One ledger connection per request, kept on ``g`` and closed at teardown."""

from __future__ import annotations

from pathlib import Path

from flask import Flask, current_app, g

from dicescore.home import data_home
from dicescore.ledger import Ledger

# A game and a roll as they appear in a URL: SQLite integers are 64-bit, so a bigger
# number in a URL is simply no game (a 404), never an overflow.
GAME_ID = "<int(min=1, max=9223372036854775807):game_id>"
ROLL = "<int(min=1, max=9223372036854775807):roll>"


def default_database() -> Path:
    """games.sqlite in the user's dicescore folder (``dicescore.home``)."""
    return data_home() / "games.sqlite"


def get_ledger() -> Ledger:
    if "ledger" not in g:
        g.ledger = Ledger.open(current_app.config["DATABASE"])
    return g.ledger


def close_ledger(error: BaseException | None = None) -> None:
    ledger = g.pop("ledger", None)
    if ledger is not None:
        ledger.close()


def init_app(app: Flask) -> None:
    app.teardown_appcontext(close_ledger)
