import threading

import pytest

from webui import create_app, security

PIN = "246810"


@pytest.fixture
def lan_client(tmp_path, pip_race):
    """The app as served to the LAN: every write needs the PIN."""
    app = create_app(
        {"TESTING": True, "DATABASE": str(tmp_path / "lan.sqlite"), "SECRET_KEY": "t", "PIN": PIN}
    )
    return app.test_client()


def csrf_of(client):
    return client.get("/api/session").json["csrf"]


def new_game(client, **headers):
    body = {"game": "test/pip-race", "players": ["Ana", "Bo"]}
    return client.post("/api/games", json=body, headers=headers)


def test_a_write_without_the_csrf_token_is_refused(client):
    assert new_game(client).status_code == 403
    assert new_game(client, **{"X-CSRF-Token": "forged"}).status_code == 403
    assert client.get("/api/games").json["games"] == []
    assert new_game(client, **{"X-CSRF-Token": csrf_of(client)}).status_code == 201


def test_a_form_without_the_csrf_token_is_refused(client):
    response = client.post("/", data={"game": "test/pip-race", "player": ["Ana"]})
    assert response.status_code == 403
    assert client.get("/api/games").json["games"] == []


def test_on_the_lan_anyone_may_watch_but_writes_need_the_pin(lan_client):
    csrf = csrf_of(lan_client)
    assert lan_client.get("/api/session").json == {"csrf": csrf, "pin_required": True, "joined": False}
    refused = new_game(lan_client, **{"X-CSRF-Token": csrf})
    assert refused.status_code == 403 and "PIN" in refused.json["error"]
    assert new_game(lan_client, **{"X-CSRF-Token": csrf, "X-Dicescore-PIN": "000000"}).status_code == 403
    assert lan_client.get("/api/games").json["games"] == []
    assert new_game(lan_client, **{"X-CSRF-Token": csrf, "X-Dicescore-PIN": PIN}).status_code == 201
    assert lan_client.get("/").status_code == 200 and lan_client.get("/games/1").status_code == 200


def test_a_pin_still_needs_the_csrf_token(lan_client):
    assert new_game(lan_client, **{"X-Dicescore-PIN": PIN}).status_code == 403


def test_joining_remembers_the_pin_in_the_session(lan_client):
    csrf = csrf_of(lan_client)
    # without the session's token another site could make a player's browser join, or spend
    # the address's PIN tries
    for forged in ({}, {"X-CSRF-Token": "forged"}):
        assert lan_client.post("/api/join", json={"pin": PIN}, headers=forged).status_code == 403
    assert lan_client.get("/api/session").json["joined"] is False
    wrong = lan_client.post("/api/join", json={"pin": "123"}, headers={"X-CSRF-Token": csrf})
    assert wrong.status_code == 403
    right = lan_client.post("/api/join", json={"pin": PIN}, headers={"X-CSRF-Token": csrf})
    assert right.status_code == 200
    assert new_game(lan_client, **{"X-CSRF-Token": csrf}).status_code == 201


def test_the_join_page_lets_a_player_in_and_back_to_their_page(lan_client):
    page = lan_client.get("/join?next=/games/1")
    assert b'name="pin"' in page.data
    csrf = csrf_of(lan_client)
    form = {"csrf_token": csrf, "pin": "999999", "next": "/games/1"}
    assert lan_client.post("/join", data=form).status_code == 403
    joined = lan_client.post("/join", data={**form, "pin": PIN})
    assert joined.status_code == 302 and joined.headers["Location"] == "/games/1"


@pytest.mark.parametrize(
    "elsewhere",
    # browsers drop the tab and newline and read a backslash as a slash: each leads off-site
    ["//evil.example", "/\t/evil.example", "/\n/evil.example", "/\\evil.example", "https://evil.example"],
)
def test_the_join_page_only_sends_players_back_to_this_app(lan_client, elsewhere):
    form = {"csrf_token": csrf_of(lan_client), "pin": PIN, "next": elsewhere}
    assert lan_client.post("/join", data=form).headers["Location"] == "/"


def test_the_new_game_form_sends_a_player_who_has_not_joined_to_the_join_page(lan_client):
    form = {"csrf_token": csrf_of(lan_client), "game": "test/pip-race", "player": ["Ana"]}
    response = lan_client.post("/", data=form)
    assert response.status_code == 302 and response.headers["Location"].startswith("/join")


class Clock:
    """Stands in for ``time.monotonic`` in webui.security: the lockout without the wait."""

    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


def test_five_wrong_pins_lock_an_address_out_for_a_minute(lan_client, monkeypatch):
    clock = Clock()
    monkeypatch.setattr("webui.security.monotonic", clock)
    csrf = csrf_of(lan_client)

    def join(pin, address="10.0.0.7"):
        from_address = {"REMOTE_ADDR": address}
        headers = {"X-CSRF-Token": csrf}
        return lan_client.post("/api/join", json={"pin": pin}, headers=headers, environ_base=from_address)

    assert [join(f"00000{n}").status_code for n in range(5)] == [403] * 5
    locked = join(PIN)  # even the right PIN, while locked out
    assert locked.status_code == 429 and "try again in 60 s" in locked.json["error"]
    assert locked.headers["Retry-After"] == "60"
    with_header = new_game(lan_client, **{"X-CSRF-Token": csrf, "X-Dicescore-PIN": PIN})
    assert with_header.status_code == 201  # the test client's own address is not locked out...
    assert join(PIN, address="10.0.0.8").status_code == 200  # ...nor is any other

    clock.now += 59
    assert join(PIN).status_code == 429
    clock.now += 1
    assert join("999999").status_code == 403  # one try a minute now
    assert join(PIN).status_code == 429
    clock.now += 60
    assert join(PIN).status_code == 200
    assert [join(f"00000{n}").status_code for n in range(5)] == [403] * 5  # the right PIN starts afresh


def test_guessing_from_many_addresses_is_held_to_thirty_wrong_pins_a_minute(lan_client, monkeypatch):
    # one device on the LAN can take many addresses, five guesses from each
    clock = Clock()
    monkeypatch.setattr("webui.security.monotonic", clock)
    csrf = csrf_of(lan_client)

    def join(pin, address):
        body, headers = {"pin": pin}, {"X-CSRF-Token": csrf}
        return lan_client.post("/api/join", json=body, headers=headers, environ_base={"REMOTE_ADDR": address})

    assert {join("000000", f"10.0.1.{n}").status_code for n in range(30)} == {403}
    newcomer = join(PIN, "10.0.2.1")
    assert newcomer.status_code == 429 and newcomer.headers["Retry-After"] == "60"
    clock.now += 60
    assert join(PIN, "10.0.2.1").status_code == 200


def test_wrong_pins_sent_at_once_are_counted_before_the_next_is_let_through(tmp_path, pip_race, monkeypatch):
    # two guesses from one address arrive together, with one wrong try allowed: the second
    # must wait, not pass the check while the first is still being compared
    config = {"TESTING": True, "DATABASE": str(tmp_path / "lan.sqlite"), "SECRET_KEY": "t", "PIN": PIN}
    app = create_app({**config, "PIN_TRIES": 1})
    both_compared = threading.Barrier(2, timeout=2)
    compare = security.same

    def compared_together(given, expected):
        if given == "000000":  # the guesses, not the session's PIN each request checks
            both_compared.wait()
        return compare(given, expected)

    monkeypatch.setattr(security, "same", compared_together)
    clients = [app.test_client() for _ in range(2)]
    tokens = [csrf_of(client) for client in clients]
    answers = []

    def guess(client, csrf):
        response = client.post("/api/join", json={"pin": "000000"}, headers={"X-CSRF-Token": csrf})
        answers.append(response.status_code)

    threads = [threading.Thread(target=guess, args=pair) for pair in zip(clients, tokens, strict=True)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=10)
    assert sorted(answers) == [403, 429]


def test_guessing_with_the_pin_header_counts_too(lan_client, monkeypatch):
    monkeypatch.setattr("webui.security.monotonic", Clock())
    csrf = csrf_of(lan_client)
    for n in range(5):
        assert new_game(lan_client, **{"X-CSRF-Token": csrf, "X-Dicescore-PIN": f"1{n}"}).status_code == 403
    assert new_game(lan_client, **{"X-CSRF-Token": csrf, "X-Dicescore-PIN": PIN}).status_code == 429
    assert new_game(lan_client, **{"X-CSRF-Token": csrf}).status_code == 403  # no guess: not counted
    assert lan_client.get("/api/games").json["games"] == []


def test_the_join_page_says_when_to_try_again(lan_client, monkeypatch):
    monkeypatch.setattr("webui.security.monotonic", Clock())
    form = {"csrf_token": csrf_of(lan_client), "pin": "111111", "next": "/"}
    assert [lan_client.post("/join", data=form).status_code for _ in range(5)] == [403] * 5
    page = lan_client.post("/join", data={**form, "pin": PIN})
    assert page.status_code == 429 and "try again in 60 s" in page.get_data(as_text=True)


@pytest.mark.parametrize("host", ["localhost", "127.0.0.1:8000", "LOCALHOST:8000", "[::1]:8000"])
def test_a_table_with_no_pin_answers_this_computer_by_its_own_names(client, host):
    assert client.get("/api/games", headers={"Host": host}).status_code == 200


@pytest.mark.parametrize(
    "host", ["rebind.attacker.example", "rebind.attacker.example:8000", "192.168.1.20:8000"]
)
def test_a_table_with_no_pin_refuses_a_page_named_as_another_host(client, host):
    # DNS rebinding: a site whose name now points at 127.0.0.1 would read the token and write
    refused = client.get("/api/session", headers={"Host": host})
    assert refused.status_code == 403 and "served to this computer only" in refused.json["error"]
    write = new_game(client, Host=host, **{"X-CSRF-Token": csrf_of(client)})
    assert write.status_code == 403
    assert client.get("/api/games").json["games"] == []


def test_a_table_shared_on_the_lan_answers_any_host_name(lan_client):
    assert lan_client.get("/api/games", headers={"Host": "192.168.1.20:8000"}).status_code == 200


def test_a_player_who_joined_and_a_visitor_see_their_own_board(lan_client):
    # the board is rendered once a move for every tab that asks: never a player's for a visitor
    csrf = csrf_of(lan_client)
    assert lan_client.post("/api/join", json={"pin": PIN}, headers={"X-CSRF-Token": csrf}).status_code == 200
    assert new_game(lan_client, **{"X-CSRF-Token": csrf}).status_code == 201
    joined = lan_client.get("/games/1/board").json["html"]
    visitor = lan_client.application.test_client()
    watched = visitor.get("/games/1/board").json["html"]
    assert "Join with the table's PIN to play" in watched and "Join with" not in joined
