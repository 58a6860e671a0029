import random
import sqlite3
import threading
import time

import pytest

from dicescore.ledger import Ledger, UnknownGame, parse_jsonl
from scoring.game import Event, IllegalMove
from scoring.replay import replay
from tests.scoring.golden_logs import GOLDEN, golden


@pytest.fixture
def ledger(tmp_path, pip_race):
    ledger = Ledger.open(tmp_path / "games.sqlite", rng=random.Random(1))
    yield ledger
    ledger.close()


def roll(player, a, b):
    return Event("roll", {"faces": [str(a), str(b)]}, player)


def first(ledger, game_id):
    return ledger.game(game_id).turn()


def test_a_new_game_records_its_chance_events(ledger):
    game_id = ledger.new_game("test/pip-race", ["Ana", "Bo", "Cy"])
    events = ledger.events(game_id)
    assert [e.type for e in events] == ["start", "shuffle"]
    assert events[1].auto and sorted(events[1].data["order"]) == ["Ana", "Bo", "Cy"]
    assert ledger.game(game_id).turn() == events[1].data["order"][0]


def test_append_numbers_and_stores_moves(ledger):
    game_id = ledger.new_game("test/pip-race", ["Ana", "Bo"])
    stored = ledger.append(game_id, roll(first(ledger, game_id), 4, 5))
    assert stored.seq == 3 and stored.at
    assert sum(ledger.game(game_id).totals().values()) == 9


def test_an_illegal_move_appends_nothing(ledger):
    game_id = ledger.new_game("test/pip-race", ["Ana", "Bo"])
    before = ledger.events(game_id)
    turn = first(ledger, game_id)
    other = "Bo" if turn == "Ana" else "Ana"
    for bad in (
        roll(other, 1, 1),
        Event("roll", {"faces": ["1", "2", "3"]}, turn),
        Event("roll", {"faces": ["1", "X"]}, turn),
        Event("correct", {"roll": 9, "faces": ["1", "1"]}),
        Event("undo"),
        Event("start", {}),
    ):
        with pytest.raises(IllegalMove):
            ledger.append(game_id, bad)
    assert ledger.events(game_id) == before


def test_unknown_game_ids_are_refused(ledger):
    with pytest.raises(UnknownGame):
        ledger.events(42)
    with pytest.raises(UnknownGame):
        ledger.append(42, roll("Ana", 1, 1))


def test_an_unknown_game_name_stores_nothing(ledger):
    with pytest.raises(IllegalMove):
        ledger.new_game("nope", ["Ana"])
    with pytest.raises(IllegalMove, match="players"):
        ledger.new_game("test/pip-race", "AB")  # a string is not a list of two names
    with pytest.raises(IllegalMove, match="options"):
        ledger.new_game("test/pip-race", ["Ana"], [("target", 3)])
    assert ledger.games() == []


def test_the_log_is_append_only(ledger):
    game_id = ledger.new_game("test/pip-race", ["Ana"])
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        ledger.db.execute("UPDATE events SET type = 'x' WHERE game_id = ?", (game_id,))
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        ledger.db.execute("DELETE FROM events")


def test_the_database_is_durable_by_configuration(ledger):
    assert ledger.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert ledger.db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_state_survives_reopening(tmp_path, pip_race):
    path = tmp_path / "games.sqlite"
    ledger = Ledger.open(path)
    game_id = ledger.new_game("test/pip-race", ["Ana"])
    ledger.append(game_id, roll("Ana", 6, 5))
    ledger.close()
    again = Ledger.open(path)
    assert again.game(game_id).totals() == {"Ana": 11}
    again.close()


def test_export_and_import_round_trip(ledger):
    game_id = ledger.new_game("test/pip-race", ["Ana", "Bo"])
    for _ in range(3):
        ledger.append(game_id, roll(first(ledger, game_id), 2, 3))
    ledger.append(game_id, Event("correct", {"roll": 3, "faces": ["6", "6"]}))
    text = ledger.export_jsonl(game_id)
    copy_id = ledger.import_jsonl(text.splitlines())
    assert copy_id != game_id
    assert ledger.events(copy_id) == ledger.events(game_id)
    assert ledger.game(copy_id).totals() == ledger.game(game_id).totals()


def test_an_illegal_import_stores_nothing(ledger):
    lines = [
        '{"type": "start", "data": {"game": "test/pip-race", "players": ["Ana"]}}',
        '{"type": "shuffle", "data": {"order": ["Ana"]}}',
        '{"type": "roll", "player": "Ana", "data": {"faces": ["1", "9"]}}',
    ]
    with pytest.raises(IllegalMove, match="event #3"):
        ledger.import_jsonl(lines)
    assert ledger.games() == []


START = '{"type": "start", "data": {"game": "test/pip-race", "players": ["Ana"]}}'
SEATED = '{"type": "shuffle", "data": {"order": ["Ana"]}, "auto": true}'
ROLL = '{"type": "roll", "player": "Ana", "data": {"faces": ["1", "2"]%s}}'


@pytest.mark.parametrize(
    "line, message",
    [
        (ROLL % ', "colour": "red"', "roll has no field 'colour'"),
        (ROLL % ', "unsure": [5]', "'unsure' lists dice"),
        ('{"type": "undo", "data": {"seq": 3, "why": "oops"}}', "undo has no field 'why'"),
        ('{"type": "correct", "player": "Bo", "data": {"roll": 3, "faces": ["1", "2"]}}', "'Bo' is not"),
    ],
)
def test_an_import_is_held_to_what_the_app_would_have_stored(ledger, line, message):
    """A saved game may have been edited by hand: a move the app would have refused is
    refused on import, naming it, as an illegal one is."""
    assert ledger.import_jsonl([START, SEATED, ROLL % "", ROLL % ""])  # as the app stores it
    with pytest.raises(IllegalMove, match=f"event #4 .*{message}"):
        ledger.import_jsonl([START, SEATED, ROLL % "", line])
    assert len(ledger.games()) == 1


@pytest.mark.parametrize("name", sorted(path.name for path in GOLDEN.glob("*.jsonl")))
def test_every_golden_game_imports_as_it_replays(ledger, name):
    game_id = ledger.import_jsonl((GOLDEN / name).read_text().splitlines())
    assert ledger.game(game_id).view() == replay(golden(name)).view()


@pytest.mark.parametrize(
    "lines, message",
    [
        (["{not json"], "line 1 is not JSON"),
        (['{"type": "start", "seq": 5}'], "seq 5 should be 1"),
        (["[]"], "line 1: an event must be a JSON object"),
        ([""], "empty"),
    ],
)
def test_jsonl_errors_name_the_line(lines, message):
    with pytest.raises(IllegalMove, match=message):
        parse_jsonl(lines)


def test_threads_opening_a_new_database_at_once_all_get_it(tmp_path):
    """The camera thread and a page's request may create the database together: switching a
    new file to WAL used to fail for one of them now and then (a few rounds in a hundred)."""
    errors = []
    for round_number in range(60):
        path = tmp_path / f"new{round_number}.sqlite"
        barrier = threading.Barrier(8)

        def open_it(path=path, barrier=barrier):
            barrier.wait()
            try:
                Ledger.open(path).close()
            except sqlite3.OperationalError as error:
                errors.append(error)

        threads = [threading.Thread(target=open_it) for _ in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert errors == []
    assert Ledger.open(tmp_path / "new0.sqlite").db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_a_game_whose_log_no_longer_replays_is_listed_damaged_beside_the_others(ledger):
    """A log edited by hand, or kept under older rules, must not hide the other games."""
    damaged = ledger.new_game("test/pip-race", ["Ana", "Bo"])
    fine = ledger.new_game("test/pip-race", ["Cy", "Di"])
    ledger.db.execute(  # inserting is all the log allows: a roll of a face no die shows
        "INSERT INTO events (game_id, seq, type, player, data, at, auto)"
        " VALUES (?, 3, 'roll', ?, ?, 'now', 0)",
        (damaged, first(ledger, damaged), '{"faces": ["9", "ZZ"]}'),
    )
    listed = {game["id"]: game for game in ledger.games()}
    assert "damaged" not in listed[fine] and listed[fine]["players"] == ["Cy", "Di"]
    assert listed[damaged]["players"] == ["Ana", "Bo"] and not listed[damaged]["finished"]
    assert listed[damaged]["damaged"].startswith("event #3 (roll):")


@pytest.mark.parametrize(
    ("seq", "data", "why"),
    [
        (3, "{not json", "at event #3: its data is not a JSON object"),
        (5, "{}", "at event #5: event #3 is missing"),
    ],
)
def test_a_row_no_append_could_write_names_the_damage(ledger, seq, data, why):
    damaged = ledger.new_game("test/pip-race", ["Ana", "Bo"])
    fine = ledger.new_game("test/pip-race", ["Cy", "Di"])
    ledger.db.execute(
        "INSERT INTO events (game_id, seq, type, player, data, at, auto)"
        " VALUES (?, ?, 'roll', NULL, ?, 'now', 0)",
        (damaged, seq, data),
    )
    with pytest.raises(IllegalMove, match=f"game {damaged}'s log is damaged {why}"):
        ledger.events(damaged)
    listed = {game["id"]: game for game in ledger.games()}
    assert "damaged" in listed[damaged] and "damaged" not in listed[fine]


def test_another_programs_database_is_refused_and_left_as_it_was(tmp_path):
    path = tmp_path / "notes.sqlite"
    other = sqlite3.connect(path)
    other.execute("CREATE TABLE events (id INTEGER PRIMARY KEY, what TEXT)")  # its own events
    other.commit()
    other.close()
    before = path.read_bytes()
    with pytest.raises(
        sqlite3.DatabaseError, match=r"notes.sqlite is not a dicescore games database \(it holds events\)"
    ):
        Ledger.open(path)
    assert path.read_bytes() == before  # no tables, triggers or WAL added


def test_the_games_list_replays_a_game_only_when_its_log_has_grown(ledger, monkeypatch):
    import dicescore.ledger

    game_id = ledger.new_game("test/pip-race", ["Ana", "Bo"], {"target": 5})
    ledger.append(game_id, roll(first(ledger, game_id), 3, 3))  # past the target: over
    replayed = []
    real = dicescore.ledger.replay
    monkeypatch.setattr(dicescore.ledger, "replay", lambda log: replayed.append(len(log)) or real(log))
    assert [game["finished"] for game in ledger.games()] == [True]
    assert [game["finished"] for game in ledger.games()] == [True]
    assert replayed == [3]  # once: start, shuffle, roll
    assert ledger.known_finished(game_id, ledger.games()[0]["created"])
    ledger.append(game_id, Event("undo"))  # the log grows: the game is open again
    (listed,) = ledger.games()
    assert not listed["finished"] and replayed == [3, 4]
    again = Ledger.open(ledger.file)  # another connection to the same file shares what is kept
    assert [game["finished"] for game in again.games()] == [False] and replayed == [3, 4]
    again.close()


def test_a_backup_put_back_and_played_on_to_the_same_length_is_read_again(tmp_path, pip_race):
    path = tmp_path / "games.sqlite"
    ledger = Ledger.open(path, rng=random.Random(1))
    game_id = ledger.new_game("test/pip-race", ["Ana", "Bo"], {"target": 5})
    turn = first(ledger, game_id)
    ledger.db.execute(f"VACUUM INTO '{tmp_path / 'backup.sqlite'}'")
    ledger.append(game_id, roll(turn, 3, 3))  # past the target: over
    assert [game["finished"] for game in ledger.games()] == [True]
    ledger.close()
    for stale in tmp_path.glob("games.sqlite*"):
        stale.unlink()
    (tmp_path / "backup.sqlite").rename(path)
    ledger = Ledger.open(path)
    ledger.append(game_id, roll(turn, 1, 1))  # the same length, another roll
    assert [game["finished"] for game in ledger.games()] == [False]
    ledger.close()


def test_a_games_last_move_is_its_latest_event_not_its_start(tmp_path, pip_race):
    """ledger.py events[-1].at -> events[0].at: the front page said "last move" at the
    game's creation and sorted games in progress by when they were made."""
    ledger = Ledger.open(tmp_path / "games.sqlite", rng=random.Random(1))
    try:
        game_id = ledger.new_game("test/pip-race", ["Ana", "Bo"])
        time.sleep(0.01)
        player = ledger.game(game_id).turn()
        rolled = ledger.append(game_id, Event("roll", {"faces": ["2", "3"]}, player))
        (listed,) = ledger.games()
        assert listed["last_move"] == rolled.at != ledger.events(game_id)[0].at
    finally:
        ledger.close()


def test_a_database_in_a_folder_not_made_yet_is_made_with_its_folder(tmp_path, pip_race):
    """ledger.py != ':memory:' -> ==: ``--db`` naming a new folder failed with
    "unable to open database file" instead of making it."""
    path = tmp_path / "new" / "folder" / "games.sqlite"
    ledger = Ledger.open(path)
    try:
        game_id = ledger.new_game("test/pip-race", ["Ana"])
        assert ledger.events(game_id)[0].type == "start"
    finally:
        ledger.close()
    assert path.exists()
