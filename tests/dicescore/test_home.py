"""The user's dicescore folder: where games and taught faces are kept on each system."""

from pathlib import Path

import pytest

import dicescore.home
from dicescore.home import data_home
from vision.faces import default_data_dir
from webui.db import default_database


@pytest.fixture
def home(monkeypatch, tmp_path):
    for name in ("DICESCORE_HOME", "XDG_DATA_HOME", "LOCALAPPDATA"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(Path, "home", lambda: tmp_path)
    return tmp_path


@pytest.mark.parametrize(
    ("platform", "folder"),
    [
        ("linux", ".local/share/dicescore"),
        ("darwin", "Library/Application Support/dicescore"),
        ("win32", "AppData/Local/dicescore"),
    ],
)
def test_each_system_keeps_it_where_it_keeps_programs_data(home, monkeypatch, platform, folder):
    monkeypatch.setattr(dicescore.home.sys, "platform", platform)
    assert data_home() == home / folder
    assert default_database() == home / folder / "games.sqlite"
    assert default_data_dir() == home / folder / "learned"


def test_windows_local_app_data_and_the_variables_that_name_it_outright(home, monkeypatch):
    monkeypatch.setattr(dicescore.home.sys, "platform", "win32")
    monkeypatch.setenv("LOCALAPPDATA", str(home / "Local"))
    assert data_home() == home / "Local" / "dicescore"
    monkeypatch.setenv("XDG_DATA_HOME", str(home / "xdg"))
    assert data_home() == home / "xdg" / "dicescore"
    monkeypatch.setenv("DICESCORE_HOME", str(home / "mine"))
    assert default_database() == home / "mine" / "games.sqlite"
    assert default_data_dir() == home / "mine" / "learned"


@pytest.mark.parametrize(
    ("platform", "own"),
    [("darwin", "Library/Application Support/dicescore"), ("win32", "AppData/Local/dicescore")],
)
def test_games_kept_where_earlier_versions_kept_them_stay_there(home, monkeypatch, platform, own):
    # every version before session 66 kept them in ~/.local/share on every system: an update
    # that looked only in the system's own folder showed no games and no taught faces
    monkeypatch.setattr(dicescore.home.sys, "platform", platform)
    earlier = home / ".local" / "share" / "dicescore"
    earlier.mkdir(parents=True)
    assert default_database() == earlier / "games.sqlite"
    assert default_data_dir() == earlier / "learned"
    (home / own).mkdir(parents=True)  # once the system's own folder is there, it is the one
    assert data_home() == home / own
