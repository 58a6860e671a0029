"""Pictures read and written through Python's own files, not OpenCV's ``imread`` and
``imwrite``: on Windows those take a path in the ANSI code page and fail on any folder
whose name has a letter outside it. In the data folder of a user named Zoë every taught
face was forgotten at the next start (they are read here; ``FaceClassifier.learn`` writes
them whole itself), and no crop of a camera roll was kept (written and read here)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np


def read_picture(path: Path) -> np.ndarray | None:
    """The BGR picture in the file at ``path``; None when its bytes are no picture OpenCV
    decodes (a damaged file). A file that cannot be read at all raises ``OSError``."""
    data = np.fromfile(path, np.uint8)
    return cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None


def write_picture(path: Path, picture: np.ndarray) -> None:
    """``picture`` into ``path``, encoded as its suffix names (``.png``); ``OSError`` when it
    cannot be encoded or written."""
    encoded, data = cv2.imencode(Path(path).suffix, picture)
    if not encoded:
        raise OSError(f"OpenCV could not encode {path}")
    Path(path).write_bytes(data.tobytes())
