"""Waking the live streams when a game's log grows.

Appends made through this app notify at once; appends made by another process (a
second server, the command line) are still seen, because a stream also re-reads the
log's length every ``STREAM_POLL_SECONDS``.
"""

from __future__ import annotations

import threading


class Changes:
    def __init__(self) -> None:
        self._condition = threading.Condition()
        self.generation = 0  # bumped on every append in this process

    def notify(self) -> None:
        with self._condition:
            self.generation += 1
            self._condition.notify_all()

    def wait(self, seen: int, timeout: float) -> None:
        """Return when the generation moves past ``seen``, or after ``timeout`` seconds."""
        with self._condition:
            self._condition.wait_for(lambda: self.generation != seen, timeout)
