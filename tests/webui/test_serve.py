"""``dicescore serve`` as a process: it binds where told, guards the LAN with a PIN, and
a kill -9 loses no acknowledged move."""

import http.cookiejar
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from datetime import datetime
from pathlib import Path

import pytest

from dicescore.ledger import Ledger
from scoring.game import Event
from webui import create_app
from webui.crops import CROPS_KEPT_GAMES, prune_crops


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Server:
    def __init__(self, database, *args):
        self.port = free_port()
        command = [
            sys.executable,
            "-m",
            "dicescore",
            "serve",
            "--port",
            str(self.port),
            "--db",
            str(database),
        ]
        self.process = subprocess.Popen([*command, *args], stderr=subprocess.PIPE, text=True)
        self.url = f"http://127.0.0.1:{self.port}"
        self.browser = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
        )
        deadline = time.monotonic() + 20
        while True:
            try:
                self.csrf = self.get("/api/session")["csrf"]
                break
            except OSError:
                if time.monotonic() > deadline or self.process.poll() is not None:
                    raise
                time.sleep(0.1)

    def get(self, path):
        with self.browser.open(self.url + path, timeout=10) as response:
            return json.load(response)

    def post(self, path, body, **headers):
        request = urllib.request.Request(
            self.url + path, json.dumps(body).encode(), {"X-CSRF-Token": self.csrf, **headers}
        )
        with self.browser.open(request, timeout=10) as response:
            return json.load(response)

    def kill(self):
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()
        return self.process.stderr.read()


@pytest.fixture
def database(tmp_path):
    return tmp_path / "games.sqlite"


def test_a_killed_server_restarts_with_every_acknowledged_move(database):
    server = Server(database)
    try:
        game_id = server.post("/api/games", {"game": "cubes", "players": ["Ana", "Bo"]})["id"]
        faces = ["CUBES", "1", "2", "3", "BLANK", "BLANK"]
        server.post(
            f"/api/games/{game_id}/events", {"type": "roll", "player": "Ana", "data": {"faces": faces}}
        )
        before = server.get(f"/api/games/{game_id}/events")["events"]
    finally:
        server.kill()
    server = Server(database)
    try:
        assert server.get(f"/api/games/{game_id}/events")["events"] == before
        assert server.get(f"/api/games/{game_id}")["view"]["turn"] == "Bo"
    finally:
        server.kill()


def test_shared_on_the_lan_it_prints_the_address_a_qr_code_and_the_pin(database):
    server = Server(database, "--host", "0.0.0.0")
    try:
        with pytest.raises(urllib.error.HTTPError) as refused:
            server.post("/api/games", {"game": "cubes", "players": ["Ana", "Bo"]})
        assert refused.value.code == 403
    finally:
        printed = server.kill()
    pin = re.search(r"join PIN (\d{6})", printed).group(1)
    assert re.search(rf"the table is at http://[^ ]+:{server.port}/", printed)
    assert "█" in printed  # the QR code
    assert pin


def test_it_binds_to_this_machine_only_by_default(database):
    server = Server(database)
    try:
        assert not server.get("/api/session")["pin_required"]
        listening = subprocess.run(["ss", "-ltn"], capture_output=True, text=True).stdout
        if listening:  # where ss is installed
            assert f"127.0.0.1:{server.port}" in listening and f"0.0.0.0:{server.port}" not in listening
    finally:
        server.kill()


def test_a_damaged_database_is_one_clear_error_before_serving(tmp_path):
    database = tmp_path / "games.sqlite"
    database.write_text("a shopping list, not a database")
    done = subprocess.run(
        [sys.executable, "-m", "dicescore", "serve", "--port", str(free_port()), "--db", str(database)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert f"cannot use the games database {database}: file is not a database" in done.stderr
    assert database.read_text() == "a shopping list, not a database"  # never overwritten


def test_a_session_key_file_left_empty_is_made_again(tmp_path):
    from webui.serve import secret_key

    (tmp_path / "webui-secret.key").write_text("")  # as a full disk left it
    key = secret_key(tmp_path / "games.sqlite")
    assert len(key) == 64 and secret_key(tmp_path / "games.sqlite") == key
    assert (tmp_path / "webui-secret.key").stat().st_mode & 0o777 == 0o600  # for this user's eyes only
    assert [path.name for path in tmp_path.iterdir()] == ["webui-secret.key"]  # no draft left behind


def test_a_port_in_use_is_one_clear_error_before_any_address_or_pin(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        serve = ["serve", "--port", str(port), "--db", str(tmp_path / "g.sqlite"), "--source", "manual"]
        done = subprocess.run(
            [sys.executable, "-m", "dicescore", *serve],
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert done.returncode == 2
    said = f"dicescore serve: error: cannot serve at 127.0.0.1:{port}: Address already in use"
    assert done.stderr.strip() == said


@pytest.mark.parametrize("port", ["99999", "0", "-1", "http"])
def test_a_port_outside_1_to_65535_is_refused(port, capsys):
    from dicescore.cli import main

    with pytest.raises(SystemExit) as exit_info:
        main(["serve", "--port", port])
    assert exit_info.value.code == 2
    assert "argument --port" in capsys.readouterr().err


def test_it_keeps_the_crops_of_the_games_played_latest_and_none_older_than_their_game(database):
    ledger = Ledger.open(database)
    for _ in range(CROPS_KEPT_GAMES + 5):
        ledger.new_game("cubes", ["Ana", "Bo"])
    ledger.append(2, Event("roll", {"faces": ["1", "2", "3", "4", "5", "6"]}, player="Ana"))  # played latest
    ledger.close()
    crops = database.parent / "crops"
    crops.mkdir()
    for game in range(1, CROPS_KEPT_GAMES + 8):  # the last two: games no longer in the database
        for roll, die in ((2, 0), (2, 1)):
            (crops / f"{game}-{roll}-{die}.png").write_bytes(b"png")
    made = datetime.fromisoformat(Ledger.open(database).game_names()[-1][2]).timestamp()
    os.utime(crops / "35-2-0.png", (made - 60, made - 60))  # left by a database deleted since
    (crops / "notes.txt").write_text("not a crop")
    server = Server(database)
    server.kill()
    kept = sorted(path.name for path in crops.glob("*.png"))
    games = [2, *range(CROPS_KEPT_GAMES + 5, 6, -1)]  # the 30 played latest
    assert kept == sorted(f"{game}-2-{die}.png" for game in games for die in (0, 1) if (game, die) != (35, 0))
    assert (crops / "notes.txt").exists()


def test_a_crop_that_will_not_go_is_left_and_the_rest_go(tmp_path, monkeypatch, caplog):
    for game in (1, 2, 3):
        (tmp_path / f"{game}-2-0.png").write_bytes(b"png")
    unlink = Path.unlink

    def stuck(path, *args):
        if path.name == "1-2-0.png":
            raise PermissionError("read-only")
        unlink(path, *args)

    monkeypatch.setattr(Path, "unlink", stuck)
    made = "2026-01-01T00:00:00.000+00:00"
    assert prune_crops(tmp_path, [(3, made), (2, made), (1, made)], keep=1) == 1
    assert sorted(path.name for path in tmp_path.iterdir()) == ["1-2-0.png", "3-2-0.png"]
    assert "could not delete the old crop" in caplog.text and "read-only" in caplog.text
    assert prune_crops(tmp_path / "none yet", []) == 0


def test_a_game_whose_making_time_is_no_time_keeps_its_crops(tmp_path):
    # an imported game's is its first move's "at", which nothing checks: serve would not start
    (tmp_path / "1-2-0.png").write_bytes(b"png")
    assert prune_crops(tmp_path, [(1, "yesterday evening")]) == 0 and (tmp_path / "1-2-0.png").exists()


def test_each_database_keeps_its_crops_in_a_folder_of_its_own(tmp_path):
    # two databases in one folder showed each other's crops, and each start pruned the other's
    def crops_of(database):
        return create_app({"DATABASE": str(tmp_path / database)}).config["CROPS"]

    assert crops_of("games.sqlite") == str(tmp_path / "crops")
    assert crops_of("club.sqlite") == str(tmp_path / "club-crops")
