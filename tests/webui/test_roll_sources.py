import json
import re
import time

import pytest

import dicescore.ledger
from dicescore.ledger import Ledger
from scoring.game import Event, IllegalMove
from tests.webui.conftest import Api
from vision.sources import SourceError
from webui.roll_sources import RecordedRolls, feed, open_roll_source, table_game


def recording(tmp_path, *records):
    path = tmp_path / "rolls.jsonl"
    path.write_text("".join(json.dumps(record) + "\n" for record in records))
    return str(path)


def test_a_recording_feeds_its_rolls_into_the_game_in_progress(app, api, tmp_path):
    game_id = api.new_game()
    path = recording(
        tmp_path,
        {"faces": ["3", "4"], "wait": 0},
        {"dice": [{"label": "6", "top": [["6", 0.7], ["5", 0.2]]}, {"label": "1"}], "wait": 0},
    )
    feed(app, open_roll_source(path)).join(timeout=10)
    events = api.client.get(f"/api/games/{game_id}/events").json["events"]
    assert [(event["type"], event["faces"]) for event in events[2:]] == [
        ("roll", ["3", "4"]),
        ("roll", ["6", "1"]),
    ]
    assert events[3]["top"] == [[["6", 0.7], ["5", 0.2]], []]
    assert sum(api.view(game_id)["totals"].values()) == 14


def test_a_die_watch_could_not_read_replays_as_its_likeliest_face_marked_unsure(app, api, tmp_path):
    game_id = api.new_game()
    unread = {"label": None, "confidence": 0.13, "top": [["2", 0.4], ["6", 0.3]]}
    path = recording(tmp_path, {"dice": [{"label": "6", "top": [["6", 0.9]]}, unread], "wait": 0})
    feed(app, open_roll_source(path)).join(timeout=10)
    roll = api.client.get(f"/api/games/{game_id}/events").json["events"][2]
    assert (roll["faces"], roll["unsure"]) == (["6", "2"], [1])
    with pytest.raises(IllegalMove, match="line 1: faces must be a list of labels"):
        open_roll_source(recording(tmp_path, {"dice": [{"label": None, "top": []}]}))  # nothing to guess


def test_a_roll_the_rules_refuse_is_skipped(app, api, tmp_path):
    game_id = api.new_game()
    path = recording(tmp_path, {"faces": ["AS", "4"], "wait": 0}, {"faces": ["2", "2"], "wait": 0})
    feed(app, open_roll_source(path)).join(timeout=10)
    assert sum(api.view(game_id)["totals"].values()) == 4


def test_the_rolls_wait_for_a_game(app, tmp_path):
    thread = feed(app, RecordedRolls(recording(tmp_path, {"faces": ["5", "5"], "wait": 0})))
    time.sleep(0.2)
    assert thread.is_alive()
    api = Api(app.test_client())
    game_id = api.new_game()
    thread.join(timeout=10)
    assert sum(api.view(game_id)["totals"].values()) == 10


def test_the_camera_watches_the_newest_game_of_its_dice_that_can_roll(app, api, monkeypatch):
    watched = api.new_game()
    finished = api.new_game(target=1)
    api.roll(finished, "1", "2")  # one roll reaches the target: the game is over
    api.new_game("cubes", ["Cy", "Di"])  # newest, but other dice
    ledger = Ledger.open(app.config["DATABASE"])
    replayed = []
    real_replay = dicescore.ledger.replay
    monkeypatch.setattr(
        dicescore.ledger, "replay", lambda events: replayed.append(events[0]) or real_replay(events)
    )

    target = table_game(ledger, "d6")
    assert (target.game_id, target.die_kind) == (watched, "d6")
    assert target.player == api.view(watched)["turn"]
    # the finished game, then the one in progress; no Cubes game, nor anything older
    assert [event.data["game"] for event in replayed] == ["test/pip-race", "test/pip-race"]
    replayed.clear()
    assert table_game(ledger, "d6").game_id == watched
    assert len(replayed) == 1  # the finished game's summary is kept: only the game in progress again
    assert table_game(ledger, "square-shooters") is None


def test_a_roll_waits_while_the_table_game_awaits_another_move_and_never_goes_to_an_older_game(app):
    ledger = Ledger.open(app.config["DATABASE"])
    try:
        older = ledger.new_game("square-shooters/showdown-v1", ["Ana", "Bo"])  # Ana may roll
        fun = ledger.new_game("square-shooters/fun", ["Cy", "Di"])  # a card is drawn first
        assert table_game(ledger, "square-shooters") == (fun, None, "square-shooters", None, "Cy to draw")
        ledger.append(
            older, Event("roll", {"faces": ["AS", "2H", "3D", "4C", "5S", "6H", "7D", "8C", "9S"]}, "Ana")
        )
        assert table_game(ledger, "square-shooters").game_id == older  # played last: the table's game again
    finally:
        ledger.close()


def test_bad_sources_are_refused_before_serving(tmp_path):
    assert open_roll_source(None) is None and open_roll_source("manual") is None
    with pytest.raises(SourceError, match="no such file or folder"):
        open_roll_source(str(tmp_path / "missing.mp4"))
    with pytest.raises(IllegalMove, match="cannot read"):
        open_roll_source(str(tmp_path / "missing.jsonl"))
    with pytest.raises(IllegalMove, match="line 2"):
        open_roll_source(recording(tmp_path, {"faces": ["1"]}, {"face": "1"}))


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('{"dice": [5]}', "recording line 1 is not a roll"),  # was an AttributeError traceback
        ('{"faces": ["1"], "wait": -1}', "'wait' is a number of seconds, 0 or more"),  # killed the feed
        ('{"faces": ["1"], "wait": NaN}', "'wait' is a number of seconds, 0 or more"),
        ('{"faces": ["1"], "wait": 1e400}', "'wait' is a number of seconds, 0 or more"),
        ("[" * 100_000 + "]" * 100_000, "recording line 1 is not a roll"),
    ],
)
def test_a_recording_line_no_roll_could_be_is_refused_before_serving(tmp_path, line, message):
    (tmp_path / "rolls.jsonl").write_text(line + "\n")
    with pytest.raises(IllegalMove, match=re.escape(message)):
        open_roll_source(str(tmp_path / "rolls.jsonl"))


def test_a_recording_that_is_not_text_says_so(tmp_path):
    (tmp_path / "rolls.jsonl").write_bytes(b"\x00\x95\xff" * 50)
    with pytest.raises(IllegalMove, match="rolls.jsonl is not a recording: JSON lines are text"):
        open_roll_source(str(tmp_path / "rolls.jsonl"))


def test_the_demo_starts_a_cubes_game_and_plays_it(app):
    from webui.roll_sources import DemoRolls

    api = Api(app.test_client())
    feed(app, _first(DemoRolls(seed=1, pace=0), 4)).join(timeout=10)
    (listed,) = api.client.get("/api/games").json["games"]
    assert listed["game"] == "cubes" and listed["players"] == ["Ana", "Bo", "Cy"]
    events = api.client.get(f"/api/games/{listed['id']}/events").json["events"]
    rolls = [event for event in events if event["type"] == "roll"]
    assert len(rolls) == 4
    assert all(len(roll["faces"]) == 6 and len(roll["top"]) == 6 for roll in rolls)
    assert [roll["player"] for roll in rolls] == ["Ana", "Bo", "Cy", "Ana"]


def test_the_demo_starts_its_game_once_a_run_then_scores_a_cubes_game_started_on_the_page(app):
    from webui.roll_sources import DemoRolls

    api = Api(app.test_client())
    demo = DemoRolls(seed=1, pace=0)
    feed(app, _first(demo, 1)).join(timeout=10)
    (listed,) = api.client.get("/api/games").json["games"]
    for _ in range(100):  # CUBES and five blanks: the others pay 5 each, until the sets run out
        if api.view(listed["id"])["finished"]:
            break
        assert api.roll(listed["id"], "CUBES", *["BLANK"] * 5).status_code == 201
    assert api.view(listed["id"])["finished"]
    waiting = feed(app, _first(demo, 2))
    waiting.join(timeout=1)  # it has its first roll, and waits for a game to score it in
    assert waiting.is_alive() and len(api.client.get("/api/games").json["games"]) == 1  # no second demo game
    mine = api.new_game("cubes", ("Dee", "Eve"))
    waiting.join(timeout=10)  # (a second feed here raced the waiting one for the game's rolls)
    events = api.client.get(f"/api/games/{mine}/events").json["events"]
    rolls = [event for event in events if event["type"] == "roll"]
    assert [roll["player"] for roll in rolls] == ["Dee", "Eve"]


def test_the_demo_leaves_games_of_other_dice_alone(app):
    from webui.roll_sources import DemoRolls

    api = Api(app.test_client())
    other = api.new_game()  # the test game of pip dice
    feed(app, _first(DemoRolls(seed=1, pace=0), 1)).join(timeout=10)
    assert sum(api.view(other)["totals"].values()) == 0
    assert {listed["game"] for listed in api.client.get("/api/games").json["games"]} >= {"cubes"}


def test_the_demo_is_seeded():
    from webui.roll_sources import DemoRolls

    first = [roll.faces for roll in _first(DemoRolls(seed=5, pace=0), 3)]
    again = [roll.faces for roll in _first(DemoRolls(seed=5, pace=0), 3)]
    assert first == again


def _first(source, count):
    """A source cut to its first ``count`` rolls, keeping its kind and game starter."""
    from itertools import islice

    class Cut:
        kind = source.kind
        start_game = source.start_game

        def __iter__(self):
            return islice(iter(source), count)

    return Cut()
