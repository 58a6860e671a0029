"""Errors as JSON for the API and the stream, as a short page elsewhere.

Bad requests must never reach a 5xx: the rules' refusals (IllegalMove, UnknownFace) are
400s and an unknown game is a 404, all with a message a player can read.
"""

from __future__ import annotations

from flask import Flask, jsonify, render_template, request
from werkzeug.exceptions import BadRequest, HTTPException, NotFound

from dicescore.ledger import UnknownGame
from scoring.faces import UnknownFace
from scoring.game import IllegalMove


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
    app.register_error_handler(UnknownFace, lambda error: handle_http_error(BadRequest(str(error))))
    app.register_error_handler(UnknownGame, lambda error: handle_http_error(NotFound(str(error))))
