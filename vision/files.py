"""Pictures read and written through Python's own files, not OpenCV's ``imread`` and
``imwrite``: on Windows those take a path in the ANSI code page and fail on any folder
whose name has a letter outside it. In the data folder of a user named Zoë every taught
face was forgotten at the next start, and no crop of a camera roll was kept."""

from __future__ import annotations

import os
from pathlib import Path

import cv2
import numpy as np


def read_picture(path: Path) -> np.ndarray | None:
    """The BGR picture in the file at ``path``; None when its bytes are no picture OpenCV
    decodes (a damaged file). A file that cannot be read at all raises ``OSError``."""
    data = np.fromfile(path, np.uint8)
    return cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None


def write_picture(path: Path, picture: np.ndarray) -> None:
    """``picture`` into ``path``, encoded as its suffix names (``.png``), whole or not at all:
    written beside it and then put in its place, so that another process reading the folder
    never takes a half-written picture for a damaged one (and deletes it, as a taught face's
    is).  ``OSError`` when it cannot be encoded or written; nothing is left behind then."""
    path = Path(path)
    encoded, data = cv2.imencode(path.suffix, picture)
    if not encoded:
        raise OSError(f"it cannot be encoded as {path.suffix}")
    part = path.with_name(path.name + ".part")
    try:
        part.write_bytes(data.tobytes())
        os.replace(part, path)
    except OSError:
        part.unlink(missing_ok=True)
        raise
