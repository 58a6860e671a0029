"""Server-sent events: each open table page gets the table again whenever its game's
log grows, so every device shows a move within a second.

A stream sends ``event: table`` (the rendered board, with the log's length as version)
at once and after every change, a comment line as a keep-alive otherwise, and ends after
``STREAM_SECONDS``; the browser's EventSource then reconnects by itself.  Ending streams
keeps waitress's worker threads from being held forever by closed tabs, and a stream whose
page has closed ends within ``STREAM_POLL_SECONDS`` (``page_closed``), so that pages
opened one after another cannot hold every thread; no more than ``STREAMS_AT_ONCE`` are
open at once (``webui.slots``).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from contextlib import closing

from flask import Blueprint, Response, current_app, request, stream_with_context

from dicescore.ledger import Ledger
from webui.db import GAME_ID, get_ledger
from webui.pages import board
from webui.slots import held_open

bp = Blueprint("stream", __name__, url_prefix="/stream")

KEEP_ALIVE_SECONDS = 15


@bp.get(f"/games/{GAME_ID}")
def game_stream(game_id: int):
    get_ledger().events(game_id)  # an unknown game is a 404 now, not a stream that never says anything
    database = current_app.config["DATABASE"]
    changes = current_app.extensions["dicescore.changes"]
    poll = current_app.config["STREAM_POLL_SECONDS"]
    ends = time.monotonic() + current_app.config["STREAM_SECONDS"]
    gone = page_closed()

    def table_events():
        # The request's connection closes when the view returns: the stream has its own.
        with closing(Ledger.open(database)) as ledger:
            yield from watch(ledger)

    def watch(ledger: Ledger):
        looked_at, sent = None, None  # (log length, changes generation) looked at; the board sent
        last_write = time.monotonic()
        while time.monotonic() < ends and not gone():
            seen = changes.generation  # read before the log, so no append slips between
            version = ledger.length(game_id)
            # Rendered again on any notice too, not only when the log grew: the camera keeps a
            # roll's crops after storing it, and notifies once they are there.
            payload = board(ledger, game_id) if (version, seen) != looked_at else None
            looked_at = (version, seen)
            if payload is not None and (payload["version"], payload["drawn"]) != sent:
                sent = (payload["version"], payload["drawn"])
                yield f"event: table\ndata: {json.dumps(payload)}\n\n"
                last_write = time.monotonic()
            elif time.monotonic() - last_write > KEEP_ALIVE_SECONDS:
                yield ": keep-alive\n\n"
                last_write = time.monotonic()
            changes.wait(seen, poll)

    def respond() -> Response:
        response = Response(stream_with_context(table_events()), mimetype="text/event-stream")
        response.headers["Cache-Control"] = "no-cache"
        response.headers["X-Accel-Buffering"] = "no"  # no proxy may hold the events back
        return response

    return held_open(respond)


def page_closed() -> Callable[[], bool]:
    """A check of whether the page that asked for this streamed response has gone: waitress
    answers it while the response streams (``webui.serve.CHANNEL_REQUEST_LOOKAHEAD``); elsewhere (the
    test client) never, and the stream ends at its next failed write or its time limit."""
    return request.environ.get("waitress.client_disconnected", lambda: False)
