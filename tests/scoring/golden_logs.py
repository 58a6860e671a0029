"""The golden games of tests/scoring/golden: whole games' logs, as the app exports them."""

from __future__ import annotations

import json
from pathlib import Path

from scoring.game import Event

GOLDEN = Path(__file__).parent / "golden"


def golden(name: str) -> list[Event]:
    """The events of golden/``name`` (a JSON line each)."""
    return [
        Event.from_json(json.loads(line)) for line in (GOLDEN / name).read_text().splitlines() if line.strip()
    ]
