import threading
from contextlib import contextmanager

import pytest
import waitress

from dicescore.ledger import Ledger
from webui import create_app
from webui.serve import CHANNEL_REQUEST_LOOKAHEAD


@pytest.fixture
def app(tmp_path, pip_race):
    """The app on a fresh database, with the test-only pip race registered."""
    return create_app({"TESTING": True, "DATABASE": str(tmp_path / "games.sqlite"), "SECRET_KEY": "test"})


@pytest.fixture
def client(app):
    return app.test_client()


class Api:
    """``client`` with its session's CSRF token on every write."""

    def __init__(self, client):
        self.client = client
        self.csrf = client.get("/api/session").json["csrf"]

    def post(self, url, body=None, **kwargs):
        headers = {"X-CSRF-Token": self.csrf, **kwargs.pop("headers", {})}
        return self.client.post(url, json=body, headers=headers, **kwargs)

    def new_game(self, game="test/pip-race", players=("Ana", "Bo"), **options):
        response = self.post("/api/games", {"game": game, "players": list(players), "options": options})
        assert response.status_code == 201, response.json
        return response.json["id"]

    def view(self, game_id):
        return self.client.get(f"/api/games/{game_id}").json["view"]

    def move(self, game_id, type, player=None, **data):
        return self.post(f"/api/games/{game_id}/events", {"type": type, "player": player, "data": data})

    def roll(self, game_id, *faces, player=None):
        return self.move(game_id, "roll", player or self.view(game_id)["turn"], faces=list(faces))


def imported(app, lines) -> int:
    """A game log (JSON lines, as exported) stored in the app's database; its id."""
    ledger = Ledger.open(app.config["DATABASE"])
    try:
        return ledger.import_jsonl(lines)
    finally:
        ledger.close()


@pytest.fixture
def api(client):
    return Api(client)


@contextmanager
def under_waitress(app, threads: int):
    """``app`` served by waitress on a free port, as ``dicescore serve`` runs it; its base URL.

    Closing it takes care, because waitress wakes its loop by writing to a pipe's raw fd
    number (its trigger), and keeps doing so once the pipe is closed: into whatever file
    took the number next, another test's database.
    - The server is closed in its own loop's thread (closed from another, the loop's
      ``select`` would meet a closed socket, EBADF, at every test's end), as a thunk the
      trigger runs.
    - Its worker threads may outlive it (a page's stream runs for minutes), so their
      wake-ups stop before the close.
    - The close's own wake-up is written under the trigger's lock, which the loop holds to
      run thunks: the loop cannot close the pipe (woken by an earlier byte) before that
      byte is written into it."""
    served = waitress.create_server(
        app, host="127.0.0.1", port=0, threads=threads, channel_request_lookahead=CHANNEL_REQUEST_LOOKAHEAD
    )
    loop = threading.Thread(target=served.run, daemon=True)
    loop.start()
    trigger, guard, closing = served.trigger, threading.Lock(), []
    pull = trigger.pull_trigger

    def pull_while_open(thunk=None):
        with guard:  # the close waits for a wake-up being written
            if not closing:
                pull(thunk)

    trigger.pull_trigger = pull_while_open
    try:
        yield f"http://127.0.0.1:{served.effective_port}"
    finally:
        with guard:
            closing.append(True)
        with trigger.lock:
            trigger.thunks.append(served.close)
            trigger._physical_pull()  # the last write to the pipe
        loop.join(timeout=10)
