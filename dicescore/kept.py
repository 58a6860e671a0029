"""Values worked out from a game's log, kept for the version of the log they came from."""

from __future__ import annotations

import threading
from typing import Any


class KeptByVersion:
    """A value kept for each key with the version it was made from: asked with another
    version, it is not there, and is made again.  The newest ``most`` keys only, if given.
    Shared by waitress's threads and the camera's."""

    def __init__(self, most: int | None = None):
        self.most = most
        self.lock = threading.Lock()
        self.kept: dict[Any, tuple[Any, Any]] = {}

    def get(self, key: Any, version: Any) -> Any | None:
        with self.lock:
            kept = self.kept.get(key)
        return kept[1] if kept is not None and kept[0] == version else None

    def put(self, key: Any, version: Any, value: Any) -> None:
        with self.lock:
            self.kept.pop(key, None)  # the latest last: the oldest goes first
            self.kept[key] = (version, value)
            while self.most is not None and len(self.kept) > self.most:
                del self.kept[next(iter(self.kept))]
