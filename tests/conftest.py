import os

import cv2
import pytest
from hypothesis import settings

from scoring import games
from tests.fakes import PipRace

# Property tests draw the same examples on every run, so a submission's test run cannot fail
# on an example no earlier run drew; HYPOTHESIS_PROFILE=explore draws fresh ones, to hunt
# for bugs locally (a failure found so prints the example to pin with @example).
settings.register_profile("repeatable", derandomize=True, print_blob=True)
settings.register_profile("explore", derandomize=False, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "repeatable"))


@pytest.fixture
def pip_race(monkeypatch):
    """Registers the test-only PipRace game for the duration of a test."""
    monkeypatch.setitem(games.GAMES, PipRace.name, PipRace)
    return PipRace.name


@pytest.fixture
def windows_opencv(monkeypatch):
    """OpenCV's imread and imwrite as on Windows, where they take the path in the ANSI code
    page and do not find a folder named with any other letter (most of the world's names
    have one somewhere): imread gives None and imwrite False there."""
    imread, imwrite = cv2.imread, cv2.imwrite
    monkeypatch.setattr(cv2, "imread", lambda path, *a: imread(path, *a) if str(path).isascii() else None)
    monkeypatch.setattr(cv2, "imwrite", lambda path, *a: imwrite(path, *a) if str(path).isascii() else False)
