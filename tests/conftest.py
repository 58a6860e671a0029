import pytest

from scoring import games
from tests.fakes import PipRace


@pytest.fixture
def pip_race(monkeypatch):
    """Registers the test-only PipRace game for the duration of a test."""
    monkeypatch.setitem(games.GAMES, PipRace.name, PipRace)
    return PipRace.name
