"""The table page: a Flask app over the ledger, in the shape of the Flask tutorial.

``create_app(config)`` builds the app; blueprints ``pages`` (HTML) and ``api`` (JSON) share
one ledger connection per request (``webui.db``), and ``stream`` (server-sent events) opens
its own for as long as a page listens;
``live`` serves the camera's picture, and ``dice`` what the camera was taught of the
dice; ``slots`` caps the streams open at once.  ``dicescore serve`` runs it under waitress (``webui.serve``).
"""

from __future__ import annotations

import secrets
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from flask import Flask

from dicescore.kept import KeptByVersion
from webui import api, db, dice, errors, live, pages, security, slots, stream
from webui.changes import Changes


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    app = Flask(__name__)
    app.config.from_mapping(
        DATABASE=str(db.default_database()),
        SECRET_KEY=secrets.token_hex(32),
        PIN=None,  # set when served to the LAN: every write must then carry it
        PIN_TRIES=5,  # wrong PINs one address may send before it must wait...
        PIN_LOCKOUT_SECONDS=60,  # ...this long before each further try
        PIN_TRIES_ALL=30,  # wrong PINs all addresses together may send in that time
        MAX_CONTENT_LENGTH=256 * 1024,  # a move is a few hundred bytes; refuse floods early
        MAX_IMPORT_LENGTH=16 * 1024 * 1024,  # a saved game brought back: 0.6 KB a camera roll
        STREAM_SECONDS=300,  # a stream ends after this long and the browser reconnects
        STREAM_POLL_SECONDS=0.5,  # how often a stream looks for moves made by other processes
        STREAMS_AT_ONCE=40,  # open live pictures and boards' event streams (webui.slots): 20 table tabs
    )
    if config:
        app.config.from_mapping(config)
    # The face crops of camera rolls, kept for tap-to-correct to teach (webui.crops), beside
    # the database; another database's in a folder of its own, or each would show, and prune
    # away, the other's crops of games of the same number.
    database = Path(app.config["DATABASE"])
    crops = "crops" if database.name == "games.sqlite" else f"{database.stem}-crops"
    app.config.setdefault("CROPS", str(database.parent / crops))
    app.extensions["dicescore.changes"] = Changes()
    # A correction and what it teaches, and an undo and what it takes back, are one step:
    # an undo sent from a second phone waits for the lesson of the correction it undoes.
    app.extensions["dicescore.lessons"] = threading.Lock()
    # the latest board rendered for each game, for a player and a visitor (pages.render_board)
    app.extensions["dicescore.boards"] = KeptByVersion(most=8)

    db.init_app(app)
    slots.init_app(app)
    security.init_app(app)
    errors.init_app(app)
    app.register_blueprint(pages.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(stream.bp)
    app.register_blueprint(live.bp)
    app.register_blueprint(dice.bp)
    return app
