import csv
import io

import pytest

from scoring.games import GAMES
from tests.fakes import PipRace


def test_the_catalog_offers_every_game_with_its_options(api):
    catalog = api.client.get("/api/catalog").json
    names = {game["name"] for game in catalog["games"]}
    assert names == set(GAMES)
    race = next(game for game in catalog["games"] if game["name"] == "test/pip-race")
    assert race["die_kind"] == "d6"
    assert race["options"] == [
        {
            "name": "target",
            "type": "int",
            "default": 20,
            "help": "first to this many pips wins",
            "choices": None,
            "meanings": None,
            "minimum": 1,
            "maximum": None,
        }
    ]
    assert catalog["die_kinds"]["d6"]["labels"] == ["1", "2", "3", "4", "5", "6"]
    cubes = next(game for game in catalog["games"] if game["name"] == "cubes")
    all_blank = next(option for option in cubes["options"] if option["name"] == "all_blank")
    assert all_blank["choices"] == ["player-pays-5", "nothing", "roll-again"]
    assert all_blank["meanings"]["roll-again"] == "the player rolls again"


def test_a_game_is_created_listed_and_viewed(api):
    game_id = api.new_game(players=("Ana", "Bo"), target=9)
    listed = api.client.get("/api/games").json["games"]
    assert [(game["id"], game["players"], game["finished"]) for game in listed] == [(1, ["Ana", "Bo"], False)]
    view = api.view(game_id)
    assert view["options"] == {"target": 9}
    assert view["totals"] == {"Ana": 0, "Bo": 0}
    assert view["allowed"][view["turn"]] == ["roll"]


def test_a_roll_is_scored_and_shows_in_the_history_with_its_time(api):
    game_id = api.new_game()
    roller = api.view(game_id)["turn"]
    response = api.roll(game_id, "3", "4")
    assert response.status_code == 201
    assert response.json["event"]["seq"] == 3 and response.json["view"]["totals"][roller] == 7
    events = api.client.get(f"/api/games/{game_id}/events").json["events"]
    assert [event["type"] for event in events] == ["start", "shuffle", "roll"]
    assert all(event["at"] for event in events)
    assert events[2]["faces"] == ["3", "4"] and events[2]["in_force"]


def test_a_correction_rederives_the_totals_and_undo_takes_it_back(api):
    game_id = api.new_game()
    roller = api.view(game_id)["turn"]
    api.roll(game_id, "3", "4")
    assert api.move(game_id, "correct", roll=3, faces=["6", "4"]).status_code == 201
    assert api.view(game_id)["totals"][roller] == 10
    events = api.client.get(f"/api/games/{game_id}/events").json["events"]
    assert events[2]["faces"] == ["6", "4"] and events[2]["corrected"]

    assert api.move(game_id, "undo").status_code == 201
    assert api.view(game_id)["totals"][roller] == 7
    assert api.move(game_id, "undo").status_code == 201
    assert api.view(game_id)["totals"][roller] == 0
    events = api.client.get(f"/api/games/{game_id}/events").json["events"]
    assert [event["in_force"] for event in events] == [True, True, False, False, False, False]


def test_the_game_ends_with_its_winner(api):
    game_id = api.new_game(target=5)
    api.roll(game_id, "6", "6")
    view = api.view(game_id)
    assert view["finished"] and len(view["winners"]) == 1


def test_export_as_json_lines_and_csv(api):
    game_id = api.new_game()
    api.roll(game_id, "1", "2")
    jsonl = api.client.get(f"/api/games/{game_id}/export.jsonl")
    assert jsonl.mimetype == "application/x-ndjson"
    assert "attachment" in jsonl.headers["Content-Disposition"]
    lines = jsonl.get_data(as_text=True).splitlines()
    assert len(lines) == 3 and '"faces": ["1", "2"]' in lines[2]
    rows = api.client.get(f"/api/games/{game_id}/export.csv").get_data(as_text=True).splitlines()
    assert rows[0] == "\ufeffseq,at,type,player,auto,faces,data"  # the mark: Excel reads it as UTF-8
    seq, at, kind, player, auto, faces = rows[3].split(",")[:6]
    assert (seq, kind, auto, faces) == ("3", "roll", "0", "1 2") and player in ("Ana", "Bo")


def test_a_name_that_looks_like_a_formula_is_exported_as_text(api):
    # a spreadsheet would run "=HYPERLINK(...)" on opening the CSV (CSV injection)
    game_id = api.new_game("cubes", ['=HYPERLINK("http://x")', "@Bo"])
    api.roll(game_id, "1", "2", "3", "4", "5", "6", player='=HYPERLINK("http://x")')
    rows = list(
        csv.reader(io.StringIO(api.client.get(f"/api/games/{game_id}/export.csv").get_data(as_text=True)))
    )
    players = {row[3] for row in rows[1:] if row[3]}
    assert players == {'\'=HYPERLINK("http://x")'}  # the start event names no player


def test_refusals_are_4xx_with_a_message(api):
    game_id = api.new_game()
    not_turn = next(p for p in ("Ana", "Bo") if p != api.view(game_id)["turn"])
    race, pairs = "test/pip-race", [["target", 5]]
    refusals = [
        (api.roll(game_id, "3", "4", player=not_turn), 400, "turn"),
        (api.roll(game_id, "3"), 400, "2"),
        (api.move(game_id, "correct", roll=2, faces=["1", "2"]), 400, "roll"),
        (api.move(game_id, "correct", roll=3, faces=["AS", "2"]), 400, "not a face of d6"),
        (api.move(game_id, "fly"), 400, "no event"),
        (api.move(game_id, "undo"), 400, "nothing to undo"),
        (api.move(99, "undo"), 404, "no game 99"),
        (api.post("/api/games", {"game": "chess", "players": ["A"]}), 400, "unknown game"),
        (api.post("/api/games", {"game": "test/pip-race", "players": []}), 400, "players"),
        (api.post("/api/games", {"game": "test/pip-race", "players": ["A"], "colour": 1}), 400, "colour"),
        # the ledger would seat "AnaBo" as players A, n, a, B and o, and take pairs as options
        (api.post("/api/games", {"game": "test/pip-race", "players": "AnaBo"}), 400, "list of names"),
        (api.post("/api/games", {"game": race, "players": ["A"], "options": pairs}), 400, "object"),
        (api.post("/api/games", {"game": ["test/pip-race"], "players": ["A"]}), 400, "game's name"),
        (api.client.get("/api/games/99"), 404, "no game"),
        (api.client.get("/api/games/99999999999999999999999"), 404, ""),
        (api.client.delete(f"/api/games/{game_id}"), 405, ""),
    ]
    for response, status, words in refusals:
        assert response.status_code == status, response.json
        assert words in response.json["error"]
    assert len(api.client.get(f"/api/games/{game_id}/events").json["events"]) == 2
    assert [game["id"] for game in api.client.get("/api/games").json["games"]] == [game_id]


def test_a_correction_in_a_game_without_dice_is_refused(api):
    game_id = api.new_game("shooter", players=("Ana", "Bo", "Cy"))
    refused = api.move(game_id, "correct", roll=2, faces=["AS"])
    assert refused.status_code == 400 and "no dice to correct" in refused.json["error"]
    assert len(api.client.get(f"/api/games/{game_id}/events").json["events"]) == 1


def test_a_move_the_rules_choke_on_is_refused_and_stores_nothing(api, monkeypatch):
    """A rules module that raises something other than IllegalMove (a bug) refuses the move
    with a 400 rather than a 500, and the log stays as it was."""
    game_id = api.new_game()
    log = api.client.get(f"/api/games/{game_id}/export.jsonl").data

    def choke(game, event):
        raise KeyError("faces")

    monkeypatch.setattr(PipRace, "on_roll", choke)
    refused = api.roll(game_id, "3", "4")
    assert refused.status_code == 400 and "could not read this move" in refused.json["error"]
    assert api.client.get(f"/api/games/{game_id}/export.jsonl").data == log


def test_a_correction_to_a_label_outside_the_die_kind_changes_nothing(api):
    game_id = api.new_game()
    api.roll(game_id, "3", "4")
    before = api.client.get(f"/api/games/{game_id}/export.jsonl").data
    response = api.move(game_id, "correct", roll=3, faces=["CUBES", "4"])
    assert response.status_code == 400 and "CUBES is not a face of d6 dice" in response.json["error"]
    assert api.client.get(f"/api/games/{game_id}/export.jsonl").data == before


def test_a_correction_that_shows_a_card_twice_changes_nothing(api):
    # Square Shooters' nine dice are one deck: a tap that names a card another die shows is
    # refused, as the camera's reader refuses to read one card twice (vision.pipeline)
    game_id = api.new_game("square-shooters/rummy", ("Ana", "Bo"))
    roll = ["AS", "KH", "QD", "JC", "10S", "9H", "8D", "7C", "6S"]
    response = api.roll(game_id, *roll)
    assert response.status_code == 201, response.json
    before = api.client.get(f"/api/games/{game_id}/export.jsonl").data
    seq = response.json["event"]["seq"]
    response = api.move(game_id, "correct", roll=seq, faces=["AS", "AS", *roll[2:]])
    assert response.status_code == 400 and "A♠ (AS) shows twice" in response.json["error"]
    assert api.client.get(f"/api/games/{game_id}/export.jsonl").data == before


def test_a_real_game_plays_through_the_api(api):
    """Cubes: a roll moves points between the pot and the players; correcting it moves
    them back."""
    game_id = api.new_game("cubes", ("Ana", "Bo"))
    pot = api.view(game_id)["pot"]
    assert api.roll(game_id, "3", "4", "BLANK", "BLANK", "BLANK", "BLANK").status_code == 201
    assert api.view(game_id)["pot"] == pot - 7
    corrected = ["3", "5", "BLANK", "BLANK", "BLANK", "BLANK"]
    assert api.move(game_id, "correct", roll=2, faces=corrected).status_code == 201
    view = api.view(game_id)
    assert view["pot"] == pot - 8 and view["points_this_set"]["Ana"] == 15 + 8


def test_a_guess_kept_by_a_player_is_checked_and_no_longer_marked(api):
    game_id = api.new_game("cubes", ["Ana", "Bo"])
    faces = ["CUBES", "2", "BLANK", "BLANK", "4", "1"]
    camera_roll = {"faces": faces, "unsure": [4, 5]}  # as the camera records two guesses
    assert api.move(game_id, "roll", "Ana", **camera_roll).status_code == 201
    kept = api.move(game_id, "correct", roll=2, faces=faces, checked=[4])
    assert kept.status_code == 201
    roll, correction = api.client.get(f"/api/games/{game_id}/events").json["events"][1:3]
    assert (roll["unsure"], roll["corrected"]) == ([5], False)  # die 5 checked, die 6 still a guess
    assert correction["text"].endswith("(die 5 checked)")
    refused = api.move(game_id, "correct", roll=2, faces=faces, checked=[6])
    assert refused.status_code == 400 and "'checked' lists dice" in refused.json["error"]


def made_on(api, game_id, version, type, player=None, **data):
    """A move as the table page sends it: made looking at the board's ``version``."""
    body = {"type": type, "player": player, "data": data, "version": version}
    return api.post(f"/api/games/{game_id}/events", body)


def test_a_move_sent_twice_from_one_board_is_stored_once(api):
    game_id = api.new_game("cubes", ["Ana", "Bo"])
    version = api.client.get(f"/api/games/{game_id}").json["version"]
    faces = ["1", "2", "3", "4", "5", "6"]
    assert made_on(api, game_id, version, "roll", "Ana", faces=faces).status_code == 201
    again = made_on(api, game_id, version, "roll", "Bo", faces=faces)  # a double tap, or the camera first
    assert again.status_code == 409
    assert again.json["error"].endswith("moved on since you looked: the last move is now #2 (roll by Ana)")
    assert len(api.client.get(f"/api/games/{game_id}/events").json["events"]) == version + 1
    assert made_on(api, game_id, version + 1, "roll", "Bo", faces=faces).status_code == 201


def test_a_correction_of_a_roll_corrected_since_is_refused_and_one_of_an_unchanged_roll_kept(api):
    game_id = api.new_game("cubes", ["Ana", "Bo"])
    faces = ["1", "2", "3", "4", "5", "6"]
    assert api.move(game_id, "roll", "Ana", faces=faces).status_code == 201
    seen = api.client.get(f"/api/games/{game_id}").json["version"]
    first = made_on(api, game_id, seen, "correct", roll=2, faces=["6", *faces[1:]], checked=[0])
    assert first.status_code == 201
    # a second tab, still showing 1 2 3 4 5 6, fixes another die: it would put die 1 back
    second = made_on(api, game_id, seen, "correct", roll=2, faces=[*faces[:5], "1"], checked=[5])
    assert second.status_code == 409
    assert second.json["error"] == "roll #2 has changed since you looked: it reads 6 2 3 4 5 6 now"
    assert api.client.get(f"/api/games/{game_id}").json["dice"]["faces"] == ["6", *faces[1:]]
    # a roll that came since leaves roll #2 as that tab saw it
    assert api.move(game_id, "roll", "Bo", faces=faces).status_code == 201
    later = api.client.get(f"/api/games/{game_id}").json["version"] - 1
    kept = made_on(api, game_id, later, "correct", roll=2, faces=["6", *faces[1:4], "4", "6"], checked=[4])
    assert kept.status_code == 201


@pytest.mark.parametrize("version", ["3", 2.0, True, 0, 99])
def test_a_version_the_log_never_had_is_refused(api, version):
    game_id = api.new_game("cubes", ["Ana", "Bo"])
    refused = made_on(api, game_id, version, "roll", "Ana", faces=["1", "2", "3", "4", "5", "6"])
    assert refused.status_code == 400 and "'version'" in refused.json["error"]
    assert len(api.client.get(f"/api/games/{game_id}/events").json["events"]) == 1


def test_undo_names_the_move_it_means_and_is_refused_if_another_came_since(api):
    game_id = api.new_game("cubes", ["Ana", "Bo"])
    assert api.move(game_id, "roll", "Ana", faces=["1", "2", "3", "4", "5", "6"]).status_code == 201
    html = api.client.get(f"/games/{game_id}/board").json["html"]
    assert "Undo roll #2 by Ana</button>" in html
    meanwhile = api.move(game_id, "roll", "Bo", faces=["1", "2", "3", "4", "5", "6"])  # the camera's
    assert meanwhile.status_code == 201
    late = api.move(game_id, "undo", seq=2)
    assert late.status_code == 409
    assert late.json["error"] == "the last move is now #3 (roll by Bo), not #2: undo that?"
    assert api.move(game_id, "undo", seq=3).status_code == 201
    assert api.view(game_id)["turn"] == "Bo"


def test_the_chance_a_correction_passed_over_is_shown_as_not_counted(api):
    # Rodeo draws the next turn's spin after each stop; a correction that wins the game
    # ends it before that spin, which the history once showed as still in force
    game_id = api.new_game("rodeo-rummy", ["Ana", "Bo"], winning_score=1, no_bonus=True)
    plain = ["2S", "4H", "6D", "8C", "10S", "QH", "3D", "5C", "7S"]
    for player in ("Ana", "Bo"):
        assert api.move(game_id, "roll", player, faces=plain).status_code == 201
        assert api.move(game_id, "stop", player).status_code == 201
    events = api.client.get(f"/api/games/{game_id}/events").json["events"]
    bo_roll = next(event["seq"] for event in events if event["type"] == "roll" and event["player"] == "Bo")
    bo_goal = next(
        event["data"]["goal"] for event in events if event["type"] == "spin" and event["player"] == "Bo"
    )
    # faces that score for the goal the ledger happened to spin for Bo
    won = ["JOKER_BLACK", "JOKER_RED", "AS", "KH", "4D", "5S", "6C", "7H", "QD"]
    if bo_goal in ("9-10-j-run", "2s-3s"):
        won = ["9H", "10H", "JH", "2S", "2H", "2D", "3S", "3H", "3D"]
    assert api.move(game_id, "correct", roll=bo_roll, faces=won).status_code == 201
    assert api.view(game_id)["winners"] == ["Bo"]
    spin = [
        event
        for event in api.client.get(f"/api/games/{game_id}/events").json["events"]
        if event["type"] == "spin"
    ][-1]
    assert not spin["in_force"] and spin["text"].endswith("(passed over: the game had ended)")
    board = api.client.get(f"/games/{game_id}/board").json["html"]
    assert "(passed over: the game had ended)" in board
