import json
import threading
import time
import urllib.error
import urllib.request
from contextlib import ExitStack

import numpy as np
import pytest

from dicescore.ledger import Ledger
from scoring.game import Event
from tests.webui.conftest import Api, under_waitress
from webui import create_app, slots
from webui.changes import Changes
from webui.crops import save_crops
from webui.pages import board


def table_events(response):
    """The ``table`` events of a stream, parsed, as they arrive."""
    buffer = ""
    for chunk in response.response:
        buffer += chunk.decode() if isinstance(chunk, bytes) else chunk
        while "\n\n" in buffer:
            message, buffer = buffer.split("\n\n", 1)
            if message.startswith("event: table"):
                yield json.loads(message.split("data: ", 1)[1])


def test_the_stream_sends_the_board_at_once_and_after_every_move(app, api):
    game_id = api.new_game()
    watcher = app.test_client()  # another device, with its own session
    response = watcher.get(f"/stream/games/{game_id}", buffered=False)
    assert response.mimetype == "text/event-stream"
    events = table_events(response)
    first = next(events)
    assert first["version"] == 2 and "Pip race" in first["html"]

    api.roll(game_id, "3", "4")
    assert api.move(game_id, "correct", roll=3, faces=["6", "6"]).status_code == 201
    update = next(events)
    while update["version"] < 4:
        update = next(events)
    assert "6" in update["html"] and "corrected" in update["html"]
    response.close()


def test_a_stream_of_an_unknown_game_is_a_404(client):
    response = client.get("/stream/games/5")
    assert response.status_code == 404 and "no game 5" in response.json["error"]


def test_a_stream_ends_so_that_closed_pages_free_their_thread(tmp_path, pip_race):
    app = create_app({"DATABASE": str(tmp_path / "g.sqlite"), "SECRET_KEY": "t", "STREAM_SECONDS": 0.3})
    api = Api(app.test_client())
    game_id = api.new_game()
    body = (
        app.test_client().get(f"/stream/games/{game_id}").get_data(as_text=True)
    )  # returns: the stream ended
    assert body.count("event: table") == 1


@pytest.fixture
def served(app):
    """The app under waitress on a free port, as ``dicescore serve`` runs it."""
    with under_waitress(app, threads=4) as url:
        yield url


def test_waitress_delivers_each_event_as_it_happens(served, api):
    """No buffering between the app and the browser: a move's event arrives while the stream
    stays open (a buffered one would wait for the stream to close, past the 5 s timeout)."""
    game_id = api.new_game()
    with urllib.request.urlopen(f"{served}/stream/games/{game_id}", timeout=5) as stream:
        assert stream.readline() == b"event: table\n"
        assert b'"version": 2' in stream.readline()
        stream.readline()
        api.roll(game_id, "1", "1")  # through the test client, on the same database
        assert stream.readline() == b"event: table\n"
        assert b'"version": 3' in stream.readline()


def test_a_stream_outliving_its_server_writes_into_no_other_file(app, api, tmp_path):
    # waitress wakes its loop by writing b"x" to a pipe's fd number, even once the server
    # has closed it; a page's stream still running then wrote into whatever file took the
    # number next (another test's database began "xxLite format 3")
    app.config["STREAM_SECONDS"] = 0.5
    game_id = api.new_game()
    with under_waitress(app, threads=2) as url:
        stream = urllib.request.urlopen(f"{url}/stream/games/{game_id}", timeout=5)
        assert stream.readline() == b"event: table\n"
    with stream, ExitStack() as files:
        for n in range(64):  # take the freed fd numbers
            files.enter_context(open(tmp_path / f"file{n}", "wb+"))
        time.sleep(1.5)  # the stream ends, and its worker thread finishes
    assert [(tmp_path / f"file{n}").read_bytes() for n in range(64)] == [b""] * 64


def test_a_closed_page_frees_its_thread_at_once(app, api):
    # a server of two threads, and two pages that open their stream and close: the next
    # request is answered at once, not when each stream's next keep-alive (15 s later)
    # finds its page gone (32 page loads in 15 s had held all of dicescore serve's threads)
    game_id = api.new_game()
    with under_waitress(app, threads=2) as url:
        for _ in range(2):
            with urllib.request.urlopen(f"{url}/stream/games/{game_id}", timeout=5) as stream:
                assert stream.readline() == b"event: table\n"
        with urllib.request.urlopen(f"{url}/api/games", timeout=5) as response:
            assert response.status == 200


def test_a_camera_rolls_crops_saved_after_its_append_reach_a_board_already_sent(app, api):
    # the camera stores a roll, then saves its crops, then notifies: a stream that polled the
    # log in between sent the board without them, and, the log's length unchanged since,
    # never sent it again, so no die of the newest roll showed its picture until the next move
    app.config["STREAM_SECONDS"] = 2
    game_id = api.new_game()
    roll = {"faces": ["3", "4"], "top": [[["3", 0.9]], [["4", 0.9]]]}  # as the camera stores one
    ledger = Ledger.open(app.config["DATABASE"])
    try:
        stored = ledger.append(game_id, Event("roll", roll, api.view(game_id)["turn"]))
    finally:
        ledger.close()
    response = app.test_client().get(f"/stream/games/{game_id}", buffered=False)
    events = table_events(response)
    assert "data-crop" not in next(events)["html"]

    save_crops(app, game_id, stored.seq, [np.full((64, 64, 3), 90, np.uint8)] * 2)
    app.extensions["dicescore.changes"].notify()
    update = next(events, None)
    response.close()
    assert update is not None and update["html"].count("data-crop") >= 2


def test_streams_past_the_limit_are_refused_and_pages_are_still_answered(app, api):
    # sixteen table tabs (a board stream and a live picture each) held every one of the 32
    # threads dicescore serve had, and the server answered nothing more
    app.config["STREAMS_AT_ONCE"] = 2
    slots.init_app(app)
    game_id = api.new_game()
    stream_url = f"/stream/games/{game_id}"
    with under_waitress(app, threads=3) as url, ExitStack() as tabs:
        for _ in range(2):
            stream = tabs.enter_context(urllib.request.urlopen(url + stream_url, timeout=5))
            assert stream.readline() == b"event: table\n"
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(url + stream_url, timeout=5)
        assert refused.value.code == 503 and refused.value.headers["Retry-After"] == "5"
        assert "close some tabs" in json.loads(refused.value.read())["error"]
        with urllib.request.urlopen(f"{url}/api/games", timeout=5) as response:
            assert response.status == 200
        stream.close()  # a tab closes: its slot is free again once the stream sees it gone
        deadline = time.monotonic() + 5
        while True:
            try:
                with urllib.request.urlopen(url + stream_url, timeout=5) as again:
                    assert again.readline() == b"event: table\n"
                break
            except urllib.error.HTTPError:
                assert time.monotonic() < deadline, "the closed tab's slot was never given back"
                time.sleep(0.1)


def test_a_stream_closed_twice_gives_its_slot_back_once(app, api):
    game_id = api.new_game()
    slots = app.extensions["dicescore.streams"]
    response = app.test_client().get(f"/stream/games/{game_id}", buffered=False)
    assert slots.open == 1
    response.close()
    response.close()
    assert slots.open == 0  # not -1, which would raise the cap for good


# -- what a mutation audit found no test would miss ------------------------------
def test_a_stream_that_fails_to_start_gives_its_slot_back(app):
    from webui.slots import held_open

    streams = app.extensions["dicescore.streams"]

    def broken():
        raise RuntimeError("the board could not be drawn")

    with app.test_request_context():
        for _ in range(app.config["STREAMS_AT_ONCE"] + 1):
            with pytest.raises(RuntimeError):
                held_open(broken)
    assert streams.open == 0  # else each failure holds a slot for good, and then every stream is a 503


def test_a_stream_idle_past_its_polls_still_sends_the_next_move(app, api):
    app.config["STREAM_POLL_SECONDS"] = 0.05
    app.config["STREAM_SECONDS"] = 5  # ends, failing the test, rather than hangs if the move is lost
    game_id = api.new_game()
    response = app.test_client().get(f"/stream/games/{game_id}", buffered=False)
    events = table_events(response)
    assert next(events)["version"] == 2
    later = threading.Timer(0.3, lambda: api.roll(game_id, "3", "4"))  # several polls with nothing new first
    later.start()
    try:
        assert next(events)["version"] == 3
    finally:
        later.join()
    response.close()


def test_a_quiet_stream_sends_a_keep_alive_now_and_then_not_after_every_poll(app, api, monkeypatch):
    # stream.py's keep-alive test negated (or always true): a comment after every poll with
    # nothing new, twenty a second here; dropped: nothing for an idle proxy to see, which cuts it
    monkeypatch.setattr("webui.stream.KEEP_ALIVE_SECONDS", 0.3)
    app.config["STREAM_POLL_SECONDS"] = 0.05
    app.config["STREAM_SECONDS"] = 1
    game_id = api.new_game()
    body = app.test_client().get(f"/stream/games/{game_id}").get_data(as_text=True)
    assert body.count("event: table") == 1
    assert 1 <= body.count(": keep-alive") <= 4  # one each 0.3 s of quiet


class CountedChanges:
    """The app's change notices, counting how often a stream looks at them."""

    def __init__(self, changes):
        self.changes, self.looks = changes, 0

    @property
    def generation(self):
        self.looks += 1
        return self.changes.generation

    def wait(self, seen, timeout):
        self.changes.wait(seen, timeout)

    def notify(self):
        self.changes.notify()


def test_an_idle_stream_waits_between_its_looks_and_draws_the_board_once(app, api, monkeypatch):
    # stream.py changes.wait(seen, poll) dropped: each open page's stream spun on the log
    # (thousands of queries a second); looked_at not kept: it drew the board on every poll
    app.config["STREAM_POLL_SECONDS"] = 0.05
    app.config["STREAM_SECONDS"] = 0.5
    game_id = api.new_game()
    counted = app.extensions["dicescore.changes"] = CountedChanges(app.extensions["dicescore.changes"])
    drawn = []
    monkeypatch.setattr("webui.stream.board", lambda *args: drawn.append(1) or board(*args))
    body = app.test_client().get(f"/stream/games/{game_id}").get_data(as_text=True)
    assert body.count("event: table") == 1 and len(drawn) == 1
    assert 1 <= counted.looks <= 30  # a look each poll: 10 in half a second


def test_a_notice_that_changes_nothing_sends_no_board_again(app, api):
    # stream.py sent = ... dropped (or its check): every notice, the camera's included,
    # sent every open page the same board again
    app.config["STREAM_POLL_SECONDS"] = 0.05
    app.config["STREAM_SECONDS"] = 0.6
    game_id = api.new_game()
    changes = app.extensions["dicescore.changes"]
    notices = [threading.Timer(t, changes.notify) for t in (0.1, 0.2, 0.3)]
    for notice in notices:
        notice.start()
    body = app.test_client().get(f"/stream/games/{game_id}").get_data(as_text=True)
    for notice in notices:
        notice.join()
    assert body.count("event: table") == 1


def test_a_stream_asks_that_nothing_between_holds_it_back(client, api):
    # stream.py's headers dropped: a cache or a proxy (nginx buffers by default) held the
    # events back until the stream ended, minutes later
    game_id = api.new_game()
    response = client.get(f"/stream/games/{game_id}", buffered=False)
    assert response.headers["Cache-Control"] == "no-cache" and response.headers["X-Accel-Buffering"] == "no"
    response.close()


def test_a_stream_waits_for_a_move_and_wakes_as_soon_as_one_is_made():
    # neither a loop re-reading the log without a pause, nor a board a poll behind the move
    changes = Changes()
    seen = changes.generation
    started = time.monotonic()
    changes.wait(seen, 0.2)  # nothing happens: it waits the whole time
    assert time.monotonic() - started >= 0.2
    threading.Timer(0.05, changes.notify).start()
    started = time.monotonic()
    changes.wait(seen, 10)
    assert changes.generation != seen and time.monotonic() - started < 5
    started = time.monotonic()
    changes.wait(seen, 10)  # a move made since it last looked: no wait at all
    assert time.monotonic() - started < 1
