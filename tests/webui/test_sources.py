import json
import time

import pytest

from scoring.game import IllegalMove
from tests.webui.conftest import Api
from webui.sources import RecordedRolls, feed, open_source


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
    feed(app, open_source(path)).join(timeout=10)
    events = api.client.get(f"/api/games/{game_id}/events").json["events"]
    assert [(event["type"], event["faces"]) for event in events[2:]] == [
        ("roll", ["3", "4"]),
        ("roll", ["6", "1"]),
    ]
    assert events[3]["top"] == [[["6", 0.7], ["5", 0.2]], []]
    assert sum(api.view(game_id)["totals"].values()) == 14


def test_a_roll_the_rules_refuse_is_skipped(app, api, tmp_path):
    game_id = api.new_game()
    path = recording(tmp_path, {"faces": ["AS", "4"], "wait": 0}, {"faces": ["2", "2"], "wait": 0})
    feed(app, open_source(path)).join(timeout=10)
    assert sum(api.view(game_id)["totals"].values()) == 4


def test_the_rolls_wait_for_a_game(app, tmp_path):
    thread = feed(app, RecordedRolls(recording(tmp_path, {"faces": ["5", "5"], "wait": 0})))
    time.sleep(0.2)
    assert thread.is_alive()
    api = Api(app.test_client())
    game_id = api.new_game()
    thread.join(timeout=10)
    assert sum(api.view(game_id)["totals"].values()) == 10


def test_bad_sources_are_refused_before_serving(tmp_path):
    assert open_source(None) is None and open_source("manual") is None
    with pytest.raises(IllegalMove, match="camera"):
        open_source("0")
    with pytest.raises(IllegalMove, match="cannot read"):
        open_source(str(tmp_path / "missing.jsonl"))
    with pytest.raises(IllegalMove, match="line 2"):
        open_source(recording(tmp_path, {"faces": ["1"]}, {"face": "1"}))
