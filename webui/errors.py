"""Errors as JSON for the API and the stream, as a short page elsewhere.

Bad requests must never reach a 5xx: the rules' refusals (IllegalMove, UnknownFace) are
400s, a stale move (made on a board that has changed since) a 409, and an unknown game is
a 404, all with a message a player can read.  A database that cannot be read or written
(damaged, read-only, a full disk) is a 503 that names the file and SQLite's reason: the
move was not kept, and nothing the player did is to blame.
"""

from __future__ import annotations

import sqlite3

from flask import Flask, current_app, jsonify, render_template, request
from werkzeug.exceptions import BadRequest, Conflict, HTTPException, NotFound, ServiceUnavailable

from dicescore.ledger import UnknownGame
from scoring.faces import UnknownFace
from scoring.game import IllegalMove
from scoring.replay import StaleMove


def wants_json() -> bool:
    return request.path.startswith(("/api/", "/stream/"))


def handle_http_error(error: HTTPException):
    # Keep the error's own headers (Retry-After, Allow), but not its HTML content type.
    headers = [(name, value) for name, value in error.get_headers() if name.lower() != "content-type"]
    if wants_json():
        return jsonify(error=error.description, status=error.code), error.code, headers
    return render_template("error.html", error=error), error.code, headers


def init_app(app: Flask) -> None:
    app.register_error_handler(HTTPException, handle_http_error)
    app.register_error_handler(IllegalMove, lambda error: handle_http_error(BadRequest(str(error))))
    app.register_error_handler(StaleMove, lambda error: handle_http_error(Conflict(str(error))))
    app.register_error_handler(UnknownFace, lambda error: handle_http_error(BadRequest(str(error))))
    app.register_error_handler(UnknownGame, lambda error: handle_http_error(NotFound(str(error))))
    app.register_error_handler(sqlite3.Error, database_error)


BUSY_RETRY_SECONDS = 2


def database_error(error: sqlite3.Error):
    if getattr(error, "sqlite_errorname", "").startswith(("SQLITE_BUSY", "SQLITE_LOCKED")):
        # other writers held it past the ledger's wait: nothing is wrong with the file
        current_app.logger.warning("the games database stayed busy: %s", error)
        busy = ServiceUnavailable(
            "the games database is busy with other moves: send it again", retry_after=BUSY_RETRY_SECONDS
        )
        return handle_http_error(busy)
    current_app.logger.error("the games database failed: %s", error)
    return handle_http_error(
        ServiceUnavailable(f"cannot use the games database {current_app.config['DATABASE']}: {error}")
    )
