"""How many endless responses may be open at once: the board's events (``webui.stream``) and
the camera's picture (``webui.live``).

Each holds one of waitress's worker threads for as long as its page is open, and a table
page holds two. With every thread held, the server answered nothing more, not even a page
(sixteen table tabs did it). A stream past ``STREAMS_AT_ONCE`` is refused with a 503 that
says to retry; the page tries again by itself, and the other requests keep their threads.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from flask import Response, current_app
from werkzeug.exceptions import ServiceUnavailable

RETRY_SECONDS = 5


class StreamSlots:
    """A count of the open streams, at most ``most``."""

    def __init__(self, most: int):
        self.most = most
        self.open = 0
        self._lock = threading.Lock()

    def take(self) -> bool:
        with self._lock:
            if self.open >= self.most:
                return False
            self.open += 1
            return True

    def give_back(self) -> None:
        with self._lock:
            self.open -= 1


def init_app(app) -> None:
    app.extensions["dicescore.streams"] = StreamSlots(app.config["STREAMS_AT_ONCE"])


def held_open(respond: Callable[[], Response]) -> Response:
    """``respond()``'s streamed response in a slot, given back when the server closes the
    response (however it ends, even unread); a 503 when every slot is taken."""
    slots: StreamSlots = current_app.extensions["dicescore.streams"]
    if not slots.take():
        raise ServiceUnavailable(
            f"{slots.most} live pictures and tables are open already: close some tabs",
            retry_after=RETRY_SECONDS,
        )
    try:
        response = respond()
    except BaseException:
        slots.give_back()
        raise
    given = []  # a response closed twice gives its slot back once

    def give_back_once() -> None:
        if not given:
            given.append(True)
            slots.give_back()

    response.call_on_close(give_back_once)
    return response
