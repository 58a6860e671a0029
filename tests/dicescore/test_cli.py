import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from dicescore.cli import main

GOLDEN = Path(__file__).parents[1] / "scoring" / "golden"


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_hand_prints_the_hand_in_words(capsys):
    assert run(capsys, "hand", "AS", "KS", "QS", "JS", "10S") == (0, "Royal Flush in spades\n", "")


def test_hand_as_json_names_what_each_joker_stands_for(capsys):
    status, out, _ = run(
        capsys, "hand", "--json", "4C", "4H", "4S", "4D", "JOKER_RED", "2C", "9H", "KD", "3S"
    )
    hand = json.loads(out)
    assert status == 0 and hand["kind"] == "five_of_a_kind"
    assert hand["wilds"]["JOKER_RED"][0] == "4"


def test_hand_without_wild_jokers(capsys):
    status, out, _ = run(capsys, "hand", "--no-jokers", "--json", "4C", "4H", "JOKER_RED", "2C", "9H")
    assert status == 0 and json.loads(out)["kind"] == "one_pair"


def test_melds_prints_the_best_melds_and_their_total(capsys):
    status, out, _ = run(capsys, "melds", "7H", "7S", "7D", "8C", "9C", "10C", "AH", "2H", "3H")
    assert status == 0
    assert out.strip().endswith("= 54 points")  # 8+9+10 clubs, three 7s, A-2-3 hearts (A low = 1)


def test_melds_on_the_rodeo_table_with_wild_ranks(capsys):
    status, out, _ = run(
        capsys, "melds", "--json", "--table", "rodeo-rummy", "--wild", "7", "--", "KS", "KH", "7C"
    )
    melds = json.loads(out)
    assert status == 0 and melds["points"] == 30  # three kings, the 7 standing for one


@pytest.mark.parametrize(
    "argv, message",
    [
        (["hand", "AS", "XX"], "unknown face label 'XX'"),
        (["hand", "AS", "AS"], "A♠ (AS) shows twice"),
        (["melds", "CUBES", "AS"], "CUBES"),
        (["replay", "/no/such/game.jsonl"], "cannot read /no/such/game.jsonl"),
    ],
)
def test_bad_input_is_one_clear_line_and_status_2(capsys, argv, message):
    status, out, err = run(capsys, *argv)
    assert status == 2 and out == ""
    assert message in err and "Traceback" not in err


def test_replay_prints_the_final_state_with_totals(capsys):
    status, out, _ = run(capsys, "replay", str(GOLDEN / "classic.jsonl"))
    state = json.loads(out)
    assert status == 0 and state["game"] == "square-shooters/classic"
    assert state["finished"] and state["winners"]
    assert set(state["totals"]) == set(state["players"])


def test_replay_names_the_illegal_event(tmp_path, capsys):
    log = tmp_path / "bad.jsonl"
    log.write_text(
        '{"type": "start", "data": {"game": "cubes", "players": ["Ana", "Bo"]}}\n'
        '{"type": "roll", "player": "Ana", "data": {"faces": ["1", "2", "3", "4", "5", "6", "6"]}}\n'
    )
    status, _, err = run(capsys, "replay", str(log))
    assert status == 2 and "event #2" in err


START = b'{"type": "start", "data": {"game": "cubes", "players": ["A", "B"]}}\n'
DEEP = "is JSON too deeply nested, or with a number too long"


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"\x00\x95\xff" * 50, "bad.jsonl is not a game log: JSON lines are text (UTF-8)"),
        (b"[" * 100_000 + b"]" * 100_000, f"bad.jsonl: line 1 {DEEP}"),
        (b'{"type": "start", "seq": ' + b"9" * 5000 + b"}", f"bad.jsonl: line 1 {DEEP}"),
        (
            START + b'{"type": "roll", "player": "A", "data": {"faces": ["1"]}, "auto": "false"}',
            "bad.jsonl: line 2: roll: 'auto' must be true or false",  # "false" counted as true
        ),
    ],
    ids=["binary", "nested", "long number", "auto as a string"],
)
def test_replay_names_the_file_and_what_is_wrong_in_one_line(tmp_path, capsys, content, message):
    (tmp_path / "bad.jsonl").write_bytes(content)
    status, _, err = run(capsys, "replay", str(tmp_path / "bad.jsonl"))
    assert status == 2 and err == f"dicescore replay: error: {tmp_path / message}\n"


@pytest.mark.parametrize("command", ["hand", "melds"])
def test_more_faces_than_nine_dice_show_are_refused(capsys, command):
    faces = ["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S"]
    status, _, err = run(capsys, command, *faces)
    assert status == 2 and "10 faces: a roll shows 9 dice at most" in err


def test_every_golden_game_replays_from_the_command_line(capsys):
    logs = sorted(GOLDEN.glob("*.jsonl"))
    assert len(logs) >= 12  # one a game at least: a test over no files passes
    for log in logs:
        status, out, _ = run(capsys, "replay", str(log))
        assert status == 0, log.name
        assert json.loads(out)["finished"], log.name


def test_games_lists_every_registered_game(capsys):
    status, out, _ = run(capsys, "games")
    assert status == 0
    for name in ("square-shooters/classic", "cubes", "shooter", "squib-squares", "rodeo-rummy"):
        assert name in out


def test_the_console_script_runs_as_a_module():
    result = subprocess.run(
        [sys.executable, "-m", "dicescore", "hand", "2H", "3H", "4H", "5H", "6H"],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0 and result.stdout == "Straight Flush, 6 high in hearts\n"


def test_output_to_a_file_on_windows_keeps_its_suits():
    # Windows writes output sent to a file or a pipe as cp1252, which has no suits: the
    # command failed as bad input, and printed nothing
    def melds(*options):
        return subprocess.run(
            [sys.executable, "-m", "dicescore", "melds", *options, "7H", "7S", "7D", "8C", "9C", "10C"],
            capture_output=True,
            env={**os.environ, "PYTHONIOENCODING": "cp1252"},
        )

    text, as_json = melds(), melds("--json")
    assert text.returncode == 0 and as_json.returncode == 0, text.stderr + as_json.stderr
    best = "Run of clubs: 8♣ 9♣ 10♣ (27); Set of 7s: 7♠ 7♥ 7♦ (21) = 48 points\n"
    assert text.stdout.decode("utf-8") == best
    assert "8♣" in json.dumps(json.loads(as_json.stdout.decode("utf-8")), ensure_ascii=False)


def test_an_error_naming_a_file_no_encoding_can_write_is_still_said(tmp_path):
    # stderr escapes what it cannot write; made UTF-8 for the suits, it must go on doing so
    name = os.fsdecode(b"game-\xff.jsonl")
    result = subprocess.run(
        [sys.executable, "-m", "dicescore", "replay", str(tmp_path / name)],
        capture_output=True,
        env={**os.environ, "PYTHONIOENCODING": "ascii"},
    )
    assert result.returncode == 2 and b"game-\\udcff.jsonl" in result.stderr


def test_a_reader_that_stops_reading_ends_the_command_quietly():
    # `dicescore read ... --json | head -1`: each photo's line is written as it is read, so the
    # second one meets a closed pipe
    scene = Path(__file__).parents[1] / "vision" / "fixtures" / "scenes" / "scene00000_0075.png"
    command = [sys.executable, "-m", "dicescore.cli", "read", *[str(scene)] * 8, "--json"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    first = json.loads(process.stdout.readline())
    process.stdout.close()
    error = process.stderr.read()
    assert process.wait(timeout=120) == 0 and first["image"] == str(scene)
    assert error == ""


def test_numpy_is_told_to_keep_blas_on_one_thread_before_it_loads(monkeypatch, capsys):
    """Taught faces are compared in numpy: on BLAS's threads 9 crops took 8.0 ms, not 2.7.
    The setting counts only if the command line reaches it before anything loads numpy."""
    monkeypatch.delenv("OPENBLAS_NUM_THREADS", raising=False)
    assert main(["games"]) == 0 and os.environ["OPENBLAS_NUM_THREADS"] == "1"
    loaded = subprocess.run(
        [sys.executable, "-c", "import sys, dicescore.cli; print('numpy' in sys.modules)"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert loaded.stdout.strip() == "False"


def test_opencvs_own_warnings_are_kept_off_the_terminal(monkeypatch, capsys):
    # "moov atom not found" and "can't open camera by index" sat above the line saying why
    monkeypatch.delenv("OPENCV_LOG_LEVEL", raising=False)
    monkeypatch.delenv("OPENCV_FFMPEG_LOGLEVEL", raising=False)
    assert main(["games"]) == 0
    assert (os.environ["OPENCV_LOG_LEVEL"], os.environ["OPENCV_FFMPEG_LOGLEVEL"]) == ("ERROR", "-8")


def test_serve_binds_to_this_machine_on_port_8000_and_plays_the_demo_by_default_or_any_port_given(
    monkeypatch,
):
    # README: "dicescore serve", then open http://127.0.0.1:8000/
    import webui.serve

    asked = []
    monkeypatch.setattr(webui.serve, "serve", lambda *args: asked.append(args))
    assert main(["serve"]) == 0
    assert asked == [("127.0.0.1", 8000, None, "demo")]
    assert main(["serve", "--port", "1"]) == main(["serve", "--port", "65535"]) == 0  # the ends of the range
    assert [args[1] for args in asked[1:]] == [1, 65535]


def test_no_command_is_a_usage_error_and_ctrl_c_ends_quietly_with_130(monkeypatch, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main([])
    assert exit_info.value.code == 2
    assert "the following arguments are required: COMMAND" in capsys.readouterr().err

    import webui.serve

    def interrupted(*args):
        raise KeyboardInterrupt

    monkeypatch.setattr(webui.serve, "serve", interrupted)  # how a player stops `serve` or `watch`
    assert run(capsys, "serve", "--source", "manual") == (130, "", "")


def test_melds_count_a_joker_wild_unless_told_not_to(capsys):
    assert run(capsys, "melds", "7H", "7S", "JOKER_RED")[:2] == (
        0,
        "Set of 7s: 7♠ 7♥ 7♦ [red joker as 7♦] (21) = 21 points\n",
    )
    assert run(capsys, "melds", "--no-jokers", "7H", "7S", "JOKER_RED")[:2] == (
        0,
        "no sets or runs: 0 points\n",
    )
