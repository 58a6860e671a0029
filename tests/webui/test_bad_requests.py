"""Thousands of bad requests: each gets a 4xx with a message, none a 5xx, and no game's
log changes."""

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.faces import ALL_LABELS
from webui import create_app

PIN = "135790"
JUNK_LABELS = [*ALL_LABELS, "", "0", "7", "11S", "1S", "ZZ", "JOKER", "cubes ", "T", "AS AS", None, 3, [], {}]


@pytest.fixture
def tables(tmp_path, pip_race):
    """A LAN app (PIN and CSRF) holding a pip race, a Cubes game and a Square Shooters game
    mid-play, and a client who has joined."""
    app = create_app(
        {"TESTING": True, "DATABASE": str(tmp_path / "bad.sqlite"), "SECRET_KEY": "t", "PIN": PIN}
    )
    client = app.test_client()
    csrf = client.get("/api/session").json["csrf"]
    headers = {"X-CSRF-Token": csrf, "X-Dicescore-PIN": PIN}
    games = {}
    for name, players in (("test/pip-race", ["Ana", "Bo"]), ("cubes", ["Ana", "Bo", "Cy"])):
        games[name] = client.post(
            "/api/games", json={"game": name, "players": players}, headers=headers
        ).json["id"]
    race = client.get(f"/api/games/{games['test/pip-race']}").json["view"]["turn"]
    client.post(f"/api/games/{games['test/pip-race']}/events", json=roll(race, "2", "5"), headers=headers)
    cubes = ["CUBES", "3", "4", "5", "BLANK", "BLANK"]
    client.post(f"/api/games/{games['cubes']}/events", json=roll("Ana", *cubes), headers=headers)
    client.post("/api/join", json={"pin": PIN}, headers={"X-CSRF-Token": csrf})
    return client, csrf, games


def not_on_turn(client, game_id):
    view = client.get(f"/api/games/{game_id}").json["view"]
    return [player for player in view["players"] if player != view["turn"]] + ["Zed", "", "ana", None, 5]


def roll(player, *faces):
    return {"type": "roll", "player": player, "data": {"faces": list(faces)}}


def logs(client, games):
    return {game_id: client.get(f"/api/games/{game_id}/export.jsonl").data for game_id in games.values()}


def bad_requests(rng: random.Random, client, csrf: str, games: dict[str, int]):
    """(method, url, body bytes or JSON, headers) of requests that must all be refused."""
    ids = list(games.values())
    wrong_players = {game_id: not_on_turn(client, game_id) for game_id in ids}
    good = {"X-CSRF-Token": csrf}
    while True:
        game_id = rng.choice(ids)
        events = f"/api/games/{game_id}/events"
        case = rng.randrange(14)
        if case == 0:  # not JSON at all
            body = bytes(rng.randrange(256) for _ in range(rng.randrange(40)))
            yield "POST", events, body + b"{", good
        elif case == 1:  # JSON, but not as the API takes it
            body = rng.choice(
                ["[]", "null", "1", '"roll"', "NaN", '{"type": NaN}', "[" * 5000, '{"type": "\\ud800"}']
            )
            yield "POST", rng.choice([events, "/api/games"]), body.encode(), good
        elif case == 2:  # an event of no kind the game knows, or a malformed one
            kind = rng.choice(["", "fly", "start", "ROLL", "on_roll", None, 7, ["roll"], "roll\x00"])
            yield "POST", events, {"type": kind, "data": {}}, good
        elif case == 3:  # a roll by someone not playing, or whose turn it is not
            player = rng.choice(wrong_players[game_id])
            yield "POST", events, roll(player, "1", "2"), good
        elif case == 4:  # a roll with faces the dice cannot show, or the wrong number of them
            faces = [rng.choice(JUNK_LABELS) for _ in range(rng.choice([0, 1, 3, 5, 7, 9, 30]))]
            yield "POST", events, roll(rng.choice(["Ana", "Bo", "Cy"]), *faces), good
        elif case == 5:  # a correction to a label outside the die kind
            faces = ["AS", "KH"] if game_id == games["test/pip-race"] else ["1", "2", "3", "4", "5", "AS"]
            seq = 3 if game_id == games["test/pip-race"] else 2
            yield "POST", events, {"type": "correct", "data": {"roll": seq, "faces": faces}}, good
        elif case == 6:  # a correction of something that is no roll
            data = rng.choice(
                [
                    {"roll": rng.choice([0, 1, -1, 999, "3", None, 2**70])},
                    {"faces": ["1"]},
                    {"roll": 1, "faces": []},
                ]
            )
            yield "POST", events, {"type": "correct", "data": data}, good
        elif case == 7:  # unknown games
            game = rng.choice(["0", "-1", "999", "abc", "1.5", str(2**64), "99999999999999999999"])
            yield rng.choice(["GET", "POST"]), f"/api/games/{game}/events", {"type": "undo"}, good
        elif case == 8:  # writes without the CSRF token, or with a forged one
            headers = rng.choice(
                [{}, {"X-CSRF-Token": "x" * rng.randrange(60)}, {"X-CSRF-Token": csrf + "x"}]
            )
            yield "POST", events, roll("Ana", "1", "2"), headers
        elif case == 9:  # new games the rules refuse
            body = rng.choice(
                [
                    {"game": "chess", "players": ["A", "B"]},
                    {"game": ["cubes"], "players": ["A", "B"]},
                    {"game": "cubes", "players": ["A"]},
                    {"game": "cubes", "players": ["A", "A"]},
                    {"game": "cubes", "players": "AB"},
                    {"game": "cubes", "players": ["A", 2]},
                    {
                        "game": "cubes",
                        "players": ["A", "B"],
                        "options": {"sets": rng.choice([0, 10, "3", 2.5, True])},
                    },
                    {"game": "cubes", "players": ["A", "B"], "options": {"speed": 1}},
                    {"game": "cubes", "players": ["A", "B"], "options": [["sets", 2]]},
                    {"game": "cubes", "players": ["A", "B"], "when": "now"},
                ]
            )
            yield "POST", "/api/games", body, good
        elif case == 10:  # fields the API does not take
            yield "POST", events, {"type": "undo", "seq": 1, "at": "now"}, good
        elif case == 11:  # methods and paths that do not exist
            method = rng.choice(["PUT", "DELETE", "PATCH"])
            yield method, rng.choice([events, "/api/games", f"/api/games/{game_id}"]), {}, good
        elif case == 12:  # a roll's data of the wrong shape
            data = rng.choice([[], "1 2", {"faces": "1 2"}, {"faces": {"0": "1"}}, {"faces": [["1"], ["2"]]}])
            yield "POST", events, {"type": "roll", "player": "Ana", "data": data}, good
        else:  # the right PIN is no use to a client that has not got the CSRF token
            yield "POST", events, {"type": "undo"}, {"X-Dicescore-PIN": PIN}


def send(client, method, url, body, headers):
    if isinstance(body, bytes):
        return client.open(url, method=method, data=body, headers=headers, content_type="application/json")
    return client.open(url, method=method, json=body, headers=headers)


def test_a_thousand_generated_bad_requests_are_refused_and_change_nothing(tables):
    client, csrf, games = tables
    before = logs(client, games)
    requests = bad_requests(random.Random(6), client, csrf, games)
    for _ in range(1200):
        method, url, body, headers = next(requests)
        response = send(client, method, url, body, headers)
        assert 400 <= response.status_code < 500, (
            method,
            url,
            body,
            response.status_code,
            response.data[:300],
        )
        assert response.json["error"], (method, url, body)
    assert logs(client, games) == before
    assert len(client.get("/api/games").json["games"]) == len(games)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12,
)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    kind=st.sampled_from(["roll", "correct", "undo", "stand", "stop", "bid", "steal", "x"])
    | st.text(max_size=6),
    player=st.none() | st.sampled_from(["Ana", "Bo", "Cy", "Zed"]) | json_values,
    data=json_values,
)
def test_random_events_never_break_the_server(tables, kind, player, data):
    """Whatever the event, the answer is never a 5xx; a refused one changes nothing, and
    after an accepted one every page of the game still shows."""
    client, csrf, games = tables
    for game_id in games.values():
        before = client.get(f"/api/games/{game_id}/export.jsonl").data
        body = {"type": kind, "player": player, "data": data}
        response = client.post(f"/api/games/{game_id}/events", json=body, headers={"X-CSRF-Token": csrf})
        assert response.status_code < 500, (body, response.data[:300])
        if response.status_code != 201:
            assert client.get(f"/api/games/{game_id}/export.jsonl").data == before
            assert json.loads(response.data)["error"]
            continue
        for page in ("/api/games/{}", "/api/games/{}/events", "/games/{}", "/games/{}/board"):
            assert client.get(page.format(game_id)).status_code == 200, (body, page)


def test_a_move_with_a_field_no_rule_reads_is_refused_and_changes_nothing(tables):
    """A field the rules never read would sit in the log for good, and an odd shape there
    once broke every page of the game."""
    client, csrf, games = tables
    game_id = games["cubes"]
    turn = client.get(f"/api/games/{game_id}").json["view"]["turn"]
    faces = ["1", "2", "3", "4", "5", "6"]
    before = logs(client, games)
    refused = [
        ({"type": "undo", "data": {"x": {"shootout": []}}}, "undo has no field 'x'"),
        ({"type": "undo", "player": "Mallory", "data": {}}, "'Mallory' is not playing"),
        ({"type": "correct", "data": {"roll": 2, "faces": faces, "why": 1}}, "correct has no field 'why'"),
        ({"type": "roll", "player": turn, "data": {"faces": faces, "melds": 5}}, "roll has no field 'melds'"),
        ({"type": "roll", "player": turn, "data": {"faces": faces, "top": 5}}, "'top' lists each die"),
        ({"type": "roll", "player": turn, "data": {"faces": faces, "top": [[]]}}, "'top' lists each die"),
        ({"type": "roll", "player": turn, "data": {"faces": faces, "unsure": [6]}}, "'unsure' lists dice"),
        ({"type": "roll", "player": turn, "data": {"faces": faces, "cocked": [1, 1]}}, "'cocked' lists dice"),
    ]
    for body, message in refused:
        response = client.post(f"/api/games/{game_id}/events", json=body, headers={"X-CSRF-Token": csrf})
        assert response.status_code == 400, (body, response.data[:300])
        assert message in response.json["error"]
    huge = b'{"type": "roll", "player": "%s", "data": {"faces": ["1","2","3","4","5","6"], "x": 1e400}}' % (
        turn.encode()
    )
    response = send(client, "POST", f"/api/games/{game_id}/events", huge, {"X-CSRF-Token": csrf})
    assert (response.status_code, "too big a number" in response.json["error"]) == (400, True)
    assert logs(client, games) == before
    marked = {"faces": faces, "top": [[["1", 0.9], ["4", 0.1]]] * 6, "unsure": [0], "cocked": [5]}
    response = client.post(
        f"/api/games/{game_id}/events",
        json={"type": "roll", "player": turn, "data": marked},
        headers={"X-CSRF-Token": csrf},
    )
    assert response.status_code == 201  # the camera's own marks are welcome


def test_a_correction_names_a_roll_not_another_correction(tables):
    client, csrf, games = tables
    game_id = games["test/pip-race"]

    def correct(seq):
        return client.post(
            f"/api/games/{game_id}/events",
            json={"type": "correct", "data": {"roll": seq, "faces": ["1", "2"]}},
            headers={"X-CSRF-Token": csrf},
        )

    events = client.get(f"/api/games/{game_id}/events").json["events"]
    roll_seq = next(event["seq"] for event in events if event["type"] == "roll")
    correction = correct(roll_seq)
    assert correction.status_code == 201
    before = logs(client, games)
    response = correct(correction.json["event"]["seq"])  # it carries faces, but it is no roll
    assert response.status_code == 400
    assert f"no roll #{correction.json['event']['seq']}" in response.json["error"]
    assert logs(client, games) == before


def test_a_database_that_cannot_be_written_is_a_503_naming_it(tables, monkeypatch):
    """A full disk or a read-only file: the move is not kept, and the player is told why."""
    import sqlite3

    from dicescore.ledger import Ledger

    client, csrf, games = tables

    def full(*args, **kwargs):
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(Ledger, "append", full)
    game_id = games["cubes"]
    undo = {"type": "undo"}
    response = client.post(f"/api/games/{game_id}/events", json=undo, headers={"X-CSRF-Token": csrf})
    assert response.status_code == 503
    assert "bad.sqlite: database or disk is full" in response.json["error"]


def test_a_database_kept_busy_by_another_writer_asks_for_the_move_again(app, api, monkeypatch):
    """Writers waiting past the ledger's wait: a 503 that says so and when to retry, not one
    that blames the file; nothing is stored, and the same move is then taken."""
    import sqlite3

    import dicescore.ledger

    monkeypatch.setattr(dicescore.ledger, "BUSY_WAIT_SECONDS", 0.05)
    game_id = api.new_game("cubes", ["Ana", "Bo"])
    other = sqlite3.connect(app.config["DATABASE"], isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another process in the middle of its own write
    busy = api.roll(game_id, "1", "2", "3", "4", "5", "6", player="Ana")
    other.execute("ROLLBACK")
    other.close()
    assert busy.status_code == 503 and busy.headers["Retry-After"] == "2"
    assert busy.json["error"] == "the games database is busy with other moves: send it again"
    assert api.roll(game_id, "1", "2", "3", "4", "5", "6", player="Ana").status_code == 201


# -- what a mutation audit found no test would miss ------------------------------
def nested(depth: int, leaf, as_dict: bool):
    for _ in range(depth):
        leaf = {"a": leaf} if as_dict else [leaf]
    return leaf


@pytest.mark.parametrize("as_dict", [False, True], ids=["lists", "objects"])
def test_json_nested_too_deeply_is_refused_as_such_and_changes_nothing(app, api, as_dict):
    game_id = api.new_game()
    before = api.client.get(f"/api/games/{game_id}/export.jsonl").data
    turn = api.view(game_id)["turn"]
    ok = api.move(game_id, "roll", turn, faces=nested(14, "3", as_dict))  # deep enough, not too deep
    assert ok.status_code == 400 and "nested too deeply" not in ok.json["error"]
    response = api.move(game_id, "roll", turn, faces=nested(20, "3", as_dict))
    assert (response.status_code, response.json["error"]) == (400, "the JSON is nested too deeply")
    assert api.client.get(f"/api/games/{game_id}/export.jsonl").data == before


@pytest.mark.parametrize(
    "players",
    ['["Ana\\ud800", "Bo"]', '[["Ana\\ud800"], "Bo"]', '{"Ana\\ud800": 1}'],
    ids=["a name", "a name in a list", "a key"],
)
def test_a_lone_surrogate_anywhere_in_a_body_is_refused_not_stored(app, api, players):
    body = (f'{{"game": "test/pip-race", "players": {players}}}').encode()
    response = api.client.post(
        "/api/games", data=body, content_type="application/json", headers={"X-CSRF-Token": api.csrf}
    )
    assert (response.status_code, response.json["error"]) == (
        400,
        "text must be valid Unicode (no lone surrogates)",
    )
    assert api.client.get("/api/games").json["games"] == []


def test_a_database_table_locked_by_another_connection_asks_for_the_move_again(tables, monkeypatch, caplog):
    """SQLite's other way of saying "busy": nothing is wrong with the file."""
    import sqlite3

    from dicescore.ledger import Ledger

    client, csrf, games = tables

    def locked(*args, **kwargs):
        error = sqlite3.OperationalError("database table is locked")
        error.sqlite_errorname = "SQLITE_LOCKED"
        raise error

    monkeypatch.setattr(Ledger, "append", locked)
    undo = {"type": "undo"}
    response = client.post(f"/api/games/{games['cubes']}/events", json=undo, headers={"X-CSRF-Token": csrf})
    assert response.status_code == 503 and response.headers["Retry-After"] == "2"
    assert response.json["error"] == "the games database is busy with other moves: send it again"
    assert "the games database stayed busy: database table is locked" in caplog.text
