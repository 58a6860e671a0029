"""Where dicescore keeps a user's games and taught faces: ``$DICESCORE_HOME``, else
``$XDG_DATA_HOME/dicescore``, else the folder each system keeps programs' data in
(``%LOCALAPPDATA%\\dicescore`` on Windows, ``~/Library/Application Support/dicescore`` on
macOS, ``~/.local/share/dicescore`` elsewhere). Before session 66 every system used
``~/.local/share/dicescore``: where that folder is there and the system's own is not, it
stays the folder, so that no one's games and taught faces are left behind by an update."""

from __future__ import annotations

import os
import sys
from pathlib import Path


def data_home() -> Path:
    if os.environ.get("DICESCORE_HOME"):
        return Path(os.environ["DICESCORE_HOME"])
    if os.environ.get("XDG_DATA_HOME"):
        return Path(os.environ["XDG_DATA_HOME"]) / "dicescore"
    earlier = Path.home() / ".local" / "share" / "dicescore"
    if sys.platform == "win32":
        own = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local") / "dicescore"
    elif sys.platform == "darwin":
        own = Path.home() / "Library" / "Application Support" / "dicescore"
    else:
        return earlier
    return earlier if earlier.is_dir() and not own.exists() else own
