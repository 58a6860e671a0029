"""Where dicescore keeps a user's games and taught faces: ``$DICESCORE_HOME``, else
``$XDG_DATA_HOME/dicescore``, else the folder each system keeps programs' data in
(``%LOCALAPPDATA%\\dicescore`` on Windows, ``~/Library/Application Support/dicescore`` on
macOS, ``~/.local/share/dicescore`` elsewhere)."""

from __future__ import annotations

import os
import sys
from pathlib import Path


def data_home() -> Path:
    if os.environ.get("DICESCORE_HOME"):
        return Path(os.environ["DICESCORE_HOME"])
    if os.environ.get("XDG_DATA_HOME"):
        return Path(os.environ["XDG_DATA_HOME"]) / "dicescore"
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    else:
        base = Path.home() / ".local" / "share"
    return base / "dicescore"
