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
from webui.qr import qr_text


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
                    self.kill()  # a server that never answered is not left running
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


def ipv6_here() -> bool:
    try:
        with socket.socket(socket.AF_INET6) as probe:
            probe.bind(("::1", 0))
        return True
    except OSError:
        return False


@pytest.mark.skipif(not ipv6_here(), reason="this machine has no IPv6")
def test_shared_on_every_address_it_answers_at_the_ipv4_address_it_prints_and_on_ipv6(database):
    server = Server(database, "--host", "::")  # waits until 127.0.0.1 answers: IPv4 is bound too
    try:
        with urllib.request.urlopen(f"http://[::1]:{server.port}/api/session", timeout=10) as response:
            assert "csrf" in json.load(response)
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


def test_a_crops_folder_the_app_may_not_look_into_loses_nothing_and_says_so(tmp_path, monkeypatch, caplog):
    (tmp_path / "1-2-0.png").write_bytes(b"png")

    def locked(folder, pattern):
        raise PermissionError("no entry")

    monkeypatch.setattr(Path, "glob", locked)
    assert prune_crops(tmp_path, []) == 0
    assert "could not look at the crops" in caplog.text and "no entry" in caplog.text
    monkeypatch.undo()
    assert (tmp_path / "1-2-0.png").exists()


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


class NoServer:
    """Stands in for waitress: what ``serve`` asked it for, and a ``run`` that returns at once."""

    def __init__(self):
        self.asked = None

    def create_server(self, app, **options):
        self.asked = {"app": app, **options}
        return self

    def run(self):
        pass


@pytest.fixture
def no_server(monkeypatch):
    import webui.serve

    server = NoServer()
    monkeypatch.setattr(webui.serve.waitress, "create_server", server.create_server)
    monkeypatch.setattr(webui.serve, "lan_address", lambda: "192.168.1.23")
    return server


@pytest.mark.parametrize("host", ["0.0.0.0", "::"])
def test_shared_on_the_lan_the_qr_code_opens_the_lan_address_and_the_pin_has_six_digits(
    database, no_server, monkeypatch, capsys, host
):
    import webui.serve

    monkeypatch.setattr(webui.serve.secrets, "randbelow", lambda n: n - 1)  # the highest PIN it may draw
    webui.serve.serve(host, 8000, str(database), "manual")
    said = capsys.readouterr().err
    url = "http://192.168.1.23:8000/"  # what a phone opens: 0.0.0.0 is no address to go to
    assert f"dicescore: the table is at {url}  (games in {database})" in said
    assert qr_text(url) in said
    assert "dicescore: join PIN 999999  (needed to play; anyone may watch)" in said
    app = no_server.asked["app"]
    assert app.config["PIN"] == "999999"
    assert (
        app.config["SECRET_KEY"] == (database.parent / "webui-secret.key").read_text()
    )  # joined PINs outlive a restart
    if host == "::":  # every address, IPv4 too: waitress binds "::" alone to IPv6 only
        assert no_server.asked["listen"] == "0.0.0.0:8000 [::]:8000"
    else:
        assert (no_server.asked["host"], no_server.asked["port"]) == (host, 8000)
    assert no_server.asked["threads"] > app.config["STREAMS_AT_ONCE"]  # open pages never take every thread


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost", "::1"])
def test_served_to_this_machine_only_it_asks_no_pin_and_prints_no_qr_code(database, no_server, capsys, host):
    import webui.serve

    webui.serve.serve(host, 8000, str(database), "manual")
    said = capsys.readouterr().err
    assert no_server.asked["app"].config["PIN"] is None
    assert "PIN" not in said and "█" not in said


def test_the_source_named_feeds_its_rolls_to_the_game_at_the_table(database, no_server, tmp_path):
    import webui.serve

    ledger = Ledger.open(database)
    game_id = ledger.new_game("cubes", ["Ana", "Bo"])
    ledger.close()
    recording = tmp_path / "rolls.jsonl"
    recording.write_text(json.dumps({"faces": ["CUBES", "1", "2", "3", "BLANK", "BLANK"], "wait": 0}) + "\n")
    webui.serve.serve("127.0.0.1", 8000, str(database), str(recording))
    ledger = Ledger.open(database)
    try:
        deadline = time.monotonic() + 20
        while len(ledger.events(game_id)) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert [event.type for event in ledger.events(game_id)] == ["start", "roll"]
    finally:
        ledger.close()


@pytest.mark.parametrize("routed", [True, False])
def test_the_lan_address_is_the_outgoing_interfaces_else_the_machines_name(monkeypatch, routed):
    import webui.serve

    class Probe:
        """A UDP socket as the system gives one: it has an address once connected."""

        def __init__(self, *args):
            self.address = "0.0.0.0"

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            pass

        def connect(self, address):
            if not routed:
                raise OSError(101, "Network is unreachable")
            self.address = "192.168.1.23"

        def getsockname(self):
            return (self.address, 50123)

    monkeypatch.setattr(webui.serve.socket, "socket", Probe)
    monkeypatch.setattr(webui.serve.socket, "gethostname", lambda: "table-laptop")
    assert webui.serve.lan_address() == ("192.168.1.23" if routed else "table-laptop")


def test_the_session_key_is_made_at_the_first_start_kept_for_the_next_and_a_bad_one_said(tmp_path):
    from webui.serve import secret_key

    key = secret_key(tmp_path / "games.sqlite")
    assert re.fullmatch(r"[0-9a-f]{64}", key)
    assert (tmp_path / "webui-secret.key").read_text() == key  # a restart keeps sessions and joined PINs
    assert secret_key(tmp_path / "games.sqlite") == key
    assert secret_key(tmp_path / "other" / "games.sqlite") != key
    (tmp_path / "webui-secret.key").write_bytes(b"\xff\xfe")  # no key this module wrote
    with pytest.raises(
        ValueError, match=f"^cannot keep the session key {re.escape(str(tmp_path))}.webui-secret.key: "
    ):
        secret_key(tmp_path / "games.sqlite")


@pytest.mark.skipif(not ipv6_here(), reason="this machine has no IPv6")
def test_an_ipv6_address_in_use_is_said_in_brackets(tmp_path, capsys):
    from dicescore.cli import main

    with socket.socket(socket.AF_INET6) as taken:
        taken.bind(("::1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        serve = ["serve", "--host", "::1", "--port", str(port), "--db", str(tmp_path / "g.sqlite")]
        assert main([*serve, "--source", "manual"]) == 2
    said = capsys.readouterr().err
    assert said == f"dicescore serve: error: cannot serve at [::1]:{port}: Address already in use\n"


def test_a_host_that_is_no_address_is_one_clear_error(tmp_path, capsys):
    from dicescore.cli import main

    argv = ["serve", "--host", "1.2.3.4.5", "--db", str(tmp_path / "g.sqlite"), "--source", "manual"]
    assert main(argv) == 2
    assert (
        capsys.readouterr().err
        == "dicescore serve: error: cannot serve at 1.2.3.4.5:8000: Invalid host/port specified.\n"
    )


@pytest.mark.parametrize("host", ["::1", "fd00::5"])
def test_an_ipv6_host_is_printed_and_coded_in_brackets(database, no_server, capsys, host):
    # "http://fd00::5:8000/" is no address a browser or a phone's camera can open
    import webui.serve

    webui.serve.serve(host, 8000, str(database), "manual")
    said = capsys.readouterr().err
    assert f"the table is at http://[{host}]:8000/" in said
    if host != "::1":  # shared on the LAN: the QR code opens it too
        assert qr_text(f"http://[{host}]:8000/") in said
