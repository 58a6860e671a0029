import io
import json
import re
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import cv2
import numpy as np
import pytest

from scoring.faces import DIE_KINDS
from scoring.games import GAMES
from scoring.replay import replay
from tests.scoring.golden_logs import golden
from tests.webui.conftest import Api, imported
from webui import create_app
from webui.table import face_colour, face_text, in_words


def create(client, **form):
    csrf = client.get("/api/session").json["csrf"]
    return client.post("/", data={"csrf_token": csrf, **form})


def test_the_new_game_page_offers_every_game_with_its_options(client):
    page = client.get("/").get_data(as_text=True)
    for game in GAMES.values():
        assert f'value="{game.name}"' in page
        for option in game.options_spec:
            assert f'name="{game.name}:{option}"' in page


def test_a_game_is_started_from_the_form_with_its_options(client):
    response = create(
        client, game="test/pip-race", player=["Ana", " ", "Bo"], **{"test/pip-race:target": "9"}
    )
    assert response.status_code == 302 and response.headers["Location"] == "/games/1"
    view = client.get("/api/games/1").json["view"]
    assert view["players"] == ["Ana", "Bo"] and view["options"] == {"target": 9}


def test_the_form_explains_what_is_wrong(client):
    page = create(client, game="test/pip-race", player=["Ana"], **{"test/pip-race:target": "lots"})
    assert page.status_code == 400 and "option target must be a whole number" in page.get_data(as_text=True)
    page = create(client, game="test/pip-race", player=["Ana"], **{"test/pip-race:target": "0"})
    assert page.status_code == 400 and "at least 1" in page.get_data(as_text=True)
    assert client.get("/api/games").json["games"] == []


# -- bringing back a saved game ---------------------------------------------------------------
GOLDEN = Path(__file__).parents[1] / "scoring" / "golden"


def bring_back(client, content: bytes, filename="game-1.jsonl", csrf=None):
    csrf = csrf or client.get("/api/session").json["csrf"]
    return client.post(
        "/games/import",
        data={"csrf_token": csrf, "log": (io.BytesIO(content), filename)},
        content_type="multipart/form-data",
    )


def test_a_game_exported_on_one_computer_is_brought_back_on_another(tmp_path, api):
    """Export a game played here, bring it into a second table's fresh database: the same
    game, to the last chip, and play goes on from where it stopped."""
    game_id = api.new_game()
    first = api.view(game_id)["turn"]
    assert api.roll(game_id, "6", "5").status_code == 201
    second = api.view(game_id)["turn"]
    assert api.roll(game_id, "3", "1").status_code == 201
    saved = api.client.get(f"/api/games/{game_id}/export.jsonl").data
    other = create_app({"TESTING": True, "DATABASE": str(tmp_path / "other.sqlite"), "SECRET_KEY": "test"})
    with other.test_client() as client:
        response = bring_back(client, saved)
        assert response.status_code == 302 and response.headers["Location"] == "/games/1"
        view = client.get("/api/games/1").json["view"]
        assert view == api.view(game_id)
        assert view["totals"] == {first: 11, second: 4}
        assert Api(client).roll(1, "2", "2").status_code == 201


def test_every_golden_game_is_brought_back_as_it_ended(client):
    for log in sorted(GOLDEN.glob("*.jsonl")):
        response = bring_back(client, log.read_bytes(), log.name)
        assert response.status_code == 302, log.name
        game_id = int(response.headers["Location"].rsplit("/", 1)[1])
        assert client.get(f"/api/games/{game_id}").json["view"] == replay(golden(log.name)).view()


def test_a_name_with_a_line_separator_in_it_comes_back_whole(api):
    """Export writes names as typed; reading the file line by line as Python's splitlines
    does broke a game with U+2028 in a name in two."""
    game_id = api.new_game(players=("Ann\u2028Lee", "Bo"))
    saved = api.client.get(f"/api/games/{game_id}/export.jsonl").data
    assert "\u2028".encode() in saved
    response = bring_back(api.client, saved)
    assert response.status_code == 302
    assert api.view(int(response.headers["Location"].rsplit("/", 1)[1]))["players"] == ["Ann\u2028Lee", "Bo"]


def test_a_file_too_large_to_be_a_saved_game_is_refused_beside_the_form(app, client):
    app.config["MAX_IMPORT_LENGTH"] = 2**20
    page = bring_back(client, b"\n" * (2**20 + 1))
    assert page.status_code == 413
    assert "that file is larger than a saved game (1 MB at most)" in page.get_data(as_text=True)


def test_a_saved_game_longer_than_any_move_is_brought_back(client):
    """A long evening's log is larger than a move may be (MAX_CONTENT_LENGTH); blank lines,
    which a log may hold, make this one so."""
    log = (GOLDEN / "classic.jsonl").read_bytes() + b"\n" * (300 * 1024)
    assert bring_back(client, log).status_code == 302


def test_a_saved_game_that_does_not_replay_is_refused_and_nothing_is_stored(client):
    lines = (GOLDEN / "twenty-one.jsonl").read_text().splitlines()
    lines[3] = lines[3].replace('"player": "', '"player": "Zed')  # a die rolled to nobody playing
    not_a_number = (GOLDEN / "cubes.jsonl").read_bytes().replace(b'"faces"', b'"x": NaN, "faces"', 1)
    cases = [
        ("\n".join(lines).encode(), "is not playing"),
        (not_a_number, "NaN is not JSON"),  # a browser's JSON.parse refuses it
        (b'{"type": "start", "at": [1], "data": {"game": "cubes"}}', "must be a time, as the app writes it"),
        (b"\xff\xfe not text", "is not a saved game: JSON lines are text"),
        (b"{not json", "line 1 is not JSON"),
        (b"", "the log is empty"),
    ]
    for content, reason in cases:
        page = bring_back(client, content, "tonight.jsonl")
        text = page.get_data(as_text=True)
        assert page.status_code == 400 and "tonight.jsonl" in text and reason in text, reason
    page = client.post("/games/import", data={"csrf_token": client.get("/api/session").json["csrf"]})
    assert page.status_code == 400 and "choose a saved game" in page.get_data(as_text=True)
    assert bring_back(client, (GOLDEN / "cubes.jsonl").read_bytes(), csrf="forged").status_code == 403
    assert client.get("/api/games").json["games"] == []


def test_a_turn_shows_no_roll_count_until_its_player_rolls(api):
    """Ann plays alone: her last turn's three rolls still show as her next turn begins,
    and the page once said "Ann's turn · roll 3 of 3" before she had rolled at all."""
    game_id = api.new_game("square-shooters/rummy", ["Ann"], winning_score=500)
    nothing = ["2C", "4C", "6C", "8D", "10D", "QD", "3S", "5S", "7H"]
    for _ in range(3):
        assert api.move(game_id, "roll", "Ann", faces=nothing).status_code == 201
    page = api.client.get(f"/games/{game_id}").get_data(as_text=True)
    assert re.search(r"<strong>Ann</strong>'s turn</p>", page)
    api.move(game_id, "roll", "Ann", faces=nothing)
    page = api.client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "<strong>Ann</strong>'s turn · roll 1 of 3</p>" in page


def test_twenty_ones_dice_are_rolled_to_a_player_not_by_them(api):
    """The dealer rolls each die to a player: the page said "Rolled by Grandpa" and "roll #2
    by Grandpa" of a die Grandma rolled to him."""
    game_id = api.new_game("square-shooters/twenty-one", ["Grandma", "Grandpa", "Ann"])
    assert api.move(game_id, "roll", "Grandpa", faces=["7H"]).status_code == 201
    page = api.client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "A die rolled to" in page and "Rolled by" not in page
    assert "roll #2 to Grandpa" in page and "Undo roll #2 to Grandpa" in page
    cubes = api.new_game("cubes", ["Ann", "Bo"])
    api.move(cubes, "roll", "Ann", faces=["1", "2", "3", "4", "5", "6"])
    page = api.client.get(f"/games/{cubes}").get_data(as_text=True)
    assert "Rolled by" in page and "roll #2 by Ann" in page


def test_an_options_choices_are_offered_by_what_they_mean(client):
    page = client.get("/").get_data(as_text=True)
    assert re.search(r'<option value="roll-again"[^>]*>the player rolls again</option>', page)
    assert re.search(r'<option value="physical"[^>]*>enter what a physical spinner shows</option>', page)
    assert ">player-pays-5<" not in page


def test_options_of_every_kind_are_read_from_the_form(client):
    cubes = {"cubes:all_blank": "nothing", "cubes:sets": "2", "cubes:starting_points": "30"}
    create(client, game="cubes", player=["Ana", "Bo"], **cubes)
    assert client.get("/api/games/1").json["view"]["options"]["all_blank"] == "nothing"
    booleans = [
        (game, name)
        for game in GAMES.values()
        for name, option in game.options_spec.items()
        if isinstance(option.default, bool)
    ]
    if booleans:  # an unticked box is False, whatever the default
        game, name = booleans[0]
        players = [f"P{n}" for n in range(game.min_players)]
        create(client, game=game.name, player=players)
        assert client.get("/api/games/2").json["view"]["options"][name] is False


def test_games_in_progress_can_be_resumed(client):
    create(client, game="test/pip-race", player=["Ana", "Bo"])
    page = client.get("/").get_data(as_text=True)
    assert "Games in progress" in page and 'href="/games/1"' in page


def test_finished_games_name_their_winners_and_the_newest_ten_stay_in_view(api):
    for number in range(12):
        game = api.new_game("rodeo-rummy", ["Ana", "Bo"], spinner="physical", winning_score=1)
        rodeo_turn(api, game, "Ana", FIVES if number % 2 else NOTHING)  # a 15 ends the game
        rodeo_turn(api, game, "Bo", NOTHING if number % 2 else FIVES)
    api.new_game("rodeo-rummy", ["Ana", "Bo"], spinner="physical")
    listed = api.client.get("/api/games").json["games"]
    assert [game["winners"] for game in listed[:3]] == [[], ["Ana"], ["Bo"]]  # newest first
    page = api.client.get("/").get_data(as_text=True)
    finished = page[page.index('id="finished-games"') :]
    in_view, older = finished.split('<details class="older">')
    assert len(re.findall(r'href="/games/\d+"', in_view)) == 10
    assert re.search(r'href="/games/13"', page[: page.index('id="finished-games"')])  # in progress
    assert "<summary>2 older</summary>" in older and re.findall(r'href="/games/(\d+)"', older) == ["2", "1"]
    assert re.findall(r'<span class="result">(\w+) won</span>', older) == ["Ana", "Bo"]


def test_the_newest_five_games_in_progress_stay_in_view_before_the_new_game_form(api):
    # a keyboard once tabbed past every unfinished game to reach the form
    for _ in range(7):
        api.new_game("cubes", ["Ana", "Bo"])
    page = api.client.get("/").get_data(as_text=True)
    listed = page[page.index('id="games-in-progress"') : page.index('id="new-game"')]
    in_view, older = listed.split('<details class="older">')
    assert re.findall(r'href="/games/(\d+)"', in_view) == ["7", "6", "5", "4", "3"]
    assert "<summary>2 older</summary>" in older


def test_a_rolls_die_crops_are_served_for_the_tap_dialog(app, api):
    from webui.crops import save_crops

    game = api.new_game("cubes", ("Ana", "Bo"))
    faces = ["1", "2", "3", "4", "5", "6"]
    read = api.move(game, "roll", "Ana", faces=faces, top=[[[face, 0.9]] for face in faces])  # as the camera
    seq = read.json["event"]["seq"]
    crop = np.full((64, 64, 3), 200, np.uint8)
    save_crops(app, game, seq, [None, crop])
    served = api.client.get(f"/games/{game}/rolls/{seq}/dice/1.png")
    assert served.status_code == 200 and served.mimetype == "image/png"
    assert (cv2.imdecode(np.frombuffer(served.data, np.uint8), cv2.IMREAD_COLOR) == crop).all()
    board = api.client.get(f"/games/{game}/board").json["html"]
    assert re.findall(r'data-die="(\d)" data-crop', board) == ["1", "1"]  # the dice row and the history
    missing = api.client.get(f"/games/{game}/rolls/{seq}/dice/0.png")  # a die the camera did not see
    assert missing.status_code == 404
    assert "the camera kept no picture of die 1 of roll #2" in missing.get_data(as_text=True)


def test_crops_in_a_folder_named_outside_ascii_are_kept_and_served(app, api, windows_opencv, tmp_path):
    from webui.crops import save_crops

    app.config["CROPS"] = str(tmp_path / "Zoë" / "crops")  # a Windows profile of that name
    game = api.new_game("cubes", ("Ana", "Bo"))
    seq = api.move(game, "roll", "Ana", faces=["1", "2", "3", "4", "5", "6"]).json["event"]["seq"]
    crop = np.full((64, 64, 3), 90, np.uint8)
    save_crops(app, game, seq, [crop])
    served = api.client.get(f"/games/{game}/rolls/{seq}/dice/0.png")
    assert served.status_code == 200
    assert (cv2.imdecode(np.frombuffer(served.data, np.uint8), cv2.IMREAD_COLOR) == crop).all()


def test_a_crops_folder_the_app_may_not_look_into_keeps_no_crops_and_fails_no_page(app, api, monkeypatch):
    game = api.new_game("cubes", ("Ana", "Bo"))
    seq = api.move(game, "roll", "Ana", faces=["1", "2", "3", "4", "5", "6"]).json["event"]["seq"]
    crops, is_file = str(app.config["CROPS"]), Path.is_file

    def barred(path):
        if str(path).startswith(crops):
            raise PermissionError(13, "Permission denied")  # as a folder of mode 000 answers
        return is_file(path)

    monkeypatch.setattr(Path, "is_file", barred)
    assert api.client.get(f"/games/{game}").status_code == 200
    assert api.client.get(f"/games/{game}/rolls/{seq}/dice/0.png").status_code == 404


def test_the_table_page_shows_whose_turn_the_dice_form_and_the_scores(client):
    create(client, game="test/pip-race", player=["Ana", "Bo"])
    page = client.get("/games/1").get_data(as_text=True)
    turn = client.get("/api/games/1").json["view"]["turn"]
    assert f"<strong>{turn}</strong>'s turn" in page
    assert page.count('class="picker"') == 2  # d6: the pip race rolls two dice
    assert 'id="scores"' in page and 'id="history"' in page
    assert "Export JSON lines" in page


def test_the_board_shows_the_dice_what_they_make_and_the_last_note(client):
    create(client, game="cubes", player=["Ana", "Bo"])
    csrf = client.get("/api/session").json["csrf"]
    roll = {
        "type": "roll",
        "player": "Ana",
        "data": {"faces": ["CUBES", "2", "3", "BLANK", "BLANK", "BLANK"]},
    }
    client.post("/api/games/1/events", json=roll, headers={"X-CSRF-Token": csrf})
    board = client.get("/games/1/board").json
    assert board["version"] == 2
    html = board["html"]
    assert (
        len(re.findall(r'<button type="button" class="die[^"]*" data-roll="2"', html)) == 12
    )  # dice + history
    view = client.get("/api/games/1").json["view"]
    assert view["make"] in html and board["last_note"] == view["notes"][-1]
    assert "<th>points this set</th>" in html  # details keyed by player are scoreboard columns


def test_an_unknown_game_is_a_404_page(client):
    page = client.get("/games/7")
    assert page.status_code == 404 and "no game 7" in page.get_data(as_text=True)


def test_every_game_has_a_table_page(client):
    """Each game in the registry, fresh, renders: moves, details and all."""
    csrf = client.get("/api/session").json["csrf"]
    for game in GAMES.values():
        players = [f"Player {n}" for n in range(1, max(game.min_players, 2) + 1)][: game.max_players]
        created = client.post(
            "/api/games", json={"game": game.name, "players": players}, headers={"X-CSRF-Token": csrf}
        )
        assert created.status_code == 201, (game.name, created.json)
        page = client.get(f"/games/{created.json['id']}")
        assert page.status_code == 200 and game.title in page.get_data(as_text=True)


FIVES = ["5S", "5H", "5D", "2C", "9H", "KS", "QD", "3H", "JC"]  # a set of 5s and nothing else
NOTHING = ["2S", "4H", "7D", "9C", "JH", "KD", "AC", "3S", "8H"]


def rodeo_turn(api, game, player, faces):
    for move, data in (("spin", {"goal": "5s-6s"}), ("roll", {"faces": faces}), ("stop", {})):
        assert api.move(game, move, player, **data).status_code == 201


def summary_of(client, game):
    html = client.get(f"/games/{game}/board").json["html"]
    return html[html.index('id="summary"') : html.index("</section>", html.index('id="summary"'))]


def test_a_finished_game_sums_up_its_winner_and_final_totals(api):
    game = api.new_game("rodeo-rummy", spinner="physical", winning_score=1)
    assert 'id="summary"' not in api.client.get(f"/games/{game}/board").json["html"]
    rodeo_turn(api, game, "Ana", FIVES)
    rodeo_turn(api, game, "Bo", NOTHING)
    summary = summary_of(api.client, game)
    assert "<h2>Ana wins</h2>" in summary
    assert re.findall(r"<span>(\w+)</span> <strong>(\d+)</strong>", summary) == [("Ana", "15"), ("Bo", "0")]
    assert 'id="tiebreak"' not in summary


def test_the_summary_says_how_a_tie_was_settled(api):
    game = api.new_game("rodeo-rummy", ["Cy", "Ana", "Bo"], spinner="physical", winning_score=1)
    rodeo_turn(api, game, "Cy", NOTHING)
    rodeo_turn(api, game, "Ana", FIVES)
    rodeo_turn(api, game, "Bo", FIVES)
    rodeo_turn(api, game, "Ana", NOTHING)  # the tied players play another round on their own
    rodeo_turn(api, game, "Bo", FIVES)
    summary = summary_of(api.client, game)
    assert "<h2>Bo wins</h2>" in summary
    assert re.findall(r"<span>(\w+)</span>", summary) == ["Bo", "Cy", "Ana"]  # the winner first
    assert (
        "The tie:</span> Ana and Bo are tied at 15: they play another round; then Bo wins with 30." in summary
    )


GOLDEN = Path(__file__).parents[1] / "scoring" / "golden"  # whole games, one per rule sheet


def golden_board(app, client, name: str) -> str:
    """The board of a golden replay's game, played to its end."""
    game_id = imported(app, (GOLDEN / f"{name}.jsonl").read_text().splitlines())
    return client.get(f"/games/{game_id}/board").json["html"]


def test_cubes_scores_show_a_column_per_set_as_its_score_pad_does(app, client):
    # the golden game: three sets, Ana 28 / 49 / 22, Bo 0 / 0 / 8, Cy 10 / 6 / 0
    html = golden_board(app, client, "cubes")
    scores = html[html.index('id="scores"') : html.index("</table>")]
    headers = re.findall(r"<th>([^<]*)</th>", scores)
    assert headers == ["Player", "Total", "points this set", "set 1", "set 2", "set 3", "chips"]
    rows = re.findall(r"<tr class[^>]*>(.*?)</tr>", scores, re.S)
    cells = [re.findall(r"<td[^>]*>([^<]*)</td>", row) for row in rows]
    assert cells == [
        ["Ana", "99", "22", "28", "49", "22", "2 blue, 2 white"],
        ["Bo", "8", "8", "0", "0", "8", "1 red, 3 white"],
        ["Cy", "16", "0", "10", "6", "0", "none"],
    ]
    assert "set scores" not in html  # not again as a line of text under the table
    # the pot's chips stay under the table, counted out as the players' are
    under = html[html.index("</table>") :]
    assert re.search(r"<dt>chips</dt>\s*<dd>pot: [^<(]+</dd>", under) and "players" not in under


@pytest.mark.parametrize(
    ("name", "detail", "count"), [("rodeo-rummy", "rounds", 14), ("shooter", "hands", 6)]
)
def test_a_list_of_records_is_shown_one_a_line(app, client, name, detail, count):
    # Rodeo Rummy's turns and Shooter's hands grow all game: run together they made one
    # paragraph of "(round: 1, player: Ana, ...); (round: 1, player: Bo, ...)"
    html = golden_board(app, client, name)
    shown = html[html.index(f"<dt>{detail}</dt>") :]
    records = shown[: shown.index("</ol>")]
    assert records.count("<li>") == count and "<li>(" not in records  # each its own line, unbracketed
    assert "player:" not in records  # worded, not a record's field names


def test_a_rummy_rolls_melds_read_with_what_they_score_and_the_dice_left_over(app, client):
    # they read "points: 60, melds: (set: A♠ A♥ A♦ A♣), unused: 9♠ 6♥ 5♦ Q♦ 3♣"
    html = golden_board(app, client, "rummy")
    melds = "Set of Aces: A♠ A♥ A♦ A♣ (60) = 60 points, unused 9♠ 6♥ 5♦ Q♦ 3♣"
    assert re.search(rf"<dt>melds</dt>\s*<dd>{re.escape(melds)}</dd>", html)


def test_a_rodeo_turn_reads_as_the_round_the_player_the_goal_and_what_scored(app, client):
    html = golden_board(app, client, "rodeo-rummy")
    assert (
        "<li>round 1, Ana, A&#39;s &amp; K&#39;s (+5 per heart showing): Set of Aces: A♠ A♥ A♦ (45); "
        "Set of Kings: K♠ K♥ K♦ (30); bonus 10; 85 points</li>"
    ) in html


@pytest.mark.parametrize(
    ("name", "move", "text"),
    [
        # Squib Squares' cards as laid: a card's two squibs side by side, a square row by row
        (
            "squib-squares",
            "square",
            "id: a, grid: [green happy rocket | yellow angry candle] / "
            "[purple sad candle | orange excited missile]",
        ),
        (
            "squib-squares",
            "steal",
            "opponent: Ana, mine: [blue happy rocket | purple sad candle], "
            "theirs: [yellow angry missile | purple sleepy booster]",
        ),
        # the spinner's words, not its ids (aces-kings, plus-5-per-heart)
        ("rodeo-rummy", "spin", "goal: A's & K's, effect: +5 per heart showing"),
        ("rodeo-rummy", "roll", "held: A♠ A♥"),  # cards as the dice print them, not 'AS; AH'
        ("shooter", "bid", "bid: 4, trump: hearts"),  # as the board names the trump, not 'H'
        ("shooter", "tricks", "tricks: Ana 2, Bo 3, Cy 3"),  # not 'tricks: (Ana: 2, Bo: 3, Cy: 3)'
        ("old-town", "deal", "cards: A♠ 2♠ 3♠ 4♠ 5♠"),
        ("old-town", "give", "card: 5♠, to: Bob"),
        ("classic", "start", "Square Shooters: the Classic game with Ana, Bo, Cy"),  # not its module name
        ("classic", "shuffle", "the 42 game cards shuffled"),  # not 42 card ids
        ("classic", "play", "card: Quick-Draw"),
        (
            "shootout",
            "choose",
            "cards: Two Pairs: K♥ K♣ 7♠ 7♦, 4 chips; Full House: J♠ J♥ J♦ 2♣ 2♠, 8 chips; "
            "Straight: A♠ 2♥ 3♦ 4♣ 5♠, 10 chips; Flush: A♥ J♥ 9♥ 6♥ 3♥, 12 chips; "
            "Four of a Kind: A♠ A♥ A♦ A♣, 16 chips; Straight Flush: 5♠ 6♠ 7♠ 8♠ 9♠, 20 chips; "
            "Royal Flush: 10♥ J♥ Q♥ K♥ A♥, 30 chips",
        ),
    ],
)
def test_the_history_words_each_move_as_the_table_sees_it(app, client, name, move, text):
    game_id = imported(app, (GOLDEN / f"{name}.jsonl").read_text().splitlines())
    events = client.get(f"/api/games/{game_id}/events").json["events"]
    assert text in [event["text"] for event in events if event["type"] == move]


def test_a_physical_game_card_drawn_is_worded_as_printed(api):
    game_id = api.new_game("square-shooters/classic", deck="physical")
    full_house = {"kind": "full_house", "cards": ["7C", "7H", "7D", "AS", "AH"], "chips": 8}
    assert api.move(game_id, "draw", "Ana", card=full_house).status_code == 201
    events = api.client.get(f"/api/games/{game_id}/events").json["events"]
    assert events[-1]["text"] == "card: Full House: 7♣ 7♥ 7♦ A♠ A♥, 8 chips"


def test_playing_cards_on_the_scoreboard_are_shown_as_printed(app, client):
    # Old Town's golden game ends with Bob holding the 4 of diamonds, and his roll's note
    html = golden_board(app, client, "old-town")
    scores = html[html.index('id="scores"') : html.index("</table>")]
    assert "<td>4♦</td>" in scores and "4D" not in scores
    assert "Cy&#39;s roll matches 5♦; 1 joker" in html


def test_shootout_cards_held_are_shown_by_their_titles(app, client):
    # the golden Classic game ends with Cy holding a Quick-Draw card, kept for later
    html = golden_board(app, client, "classic")
    assert re.search(
        r"<dt>deck</dt>\s*<dd>\d+ cards to draw, \d+ discarded</dd>", html
    )  # not "pile: 24, ..."
    scores = html[html.index('id="scores"') : html.index("</table>")]
    assert "<td>Quick-Draw</td>" in scores and "quick_draw" not in scores


def test_shootout_cards_in_play_are_shown_by_who_played_them(api):
    # it read "player: Ana, card: Double-Down", a record, under the scores
    game_id = api.new_game("square-shooters/classic", deck="physical")
    assert api.move(game_id, "draw", "Ana", card={"shootout": "double_down"}).status_code == 201
    full_house = {"kind": "full_house", "cards": ["7C", "7H", "7D", "AS", "AH"], "chips": 8}
    assert api.move(game_id, "draw", "Ana", card=full_house).status_code == 201
    faces = ["7C", "7H", "2S", "3D", "4H", "5C", "9S", "JD", "KC"]
    assert api.move(game_id, "roll", "Ana", faces=faces).status_code == 201
    assert api.move(game_id, "play", "Ana", card="double_down").status_code == 201
    html = api.client.get(f"/games/{game_id}/board").json["html"]
    assert "<dt>deck</dt>" not in html  # a physical deck is on the table, not in the app
    in_play = r"<dt>in play</dt>\s*<dd><ol class=\"records\"><li>Ana: Double-Down</li></ol></dd>"
    assert re.search(in_play, html)


def test_squib_squares_shows_each_square_by_its_size_and_the_ranking_by_name(app, client):
    # they read "A: (rows: 2, columns: 2, cards: 4, score: 6)" and "player: Ana, total: 6"
    html = golden_board(app, client, "squib-squares")
    scores = html[html.index('id="scores"') : html.index("</table>")]
    assert "<td>b1: 3×2 for 9 points, b2: 2×1 for 2 points</td>" in scores  # Bo's two squares
    assert "rows:" not in scores and "score:" not in scores
    ranking = html[html.index("<dt>ranking</dt>") :]
    ranking = ranking[: ranking.index("</ol>")]
    assert re.findall(r"<li>(\w+): \d+</li>", ranking) and "player:" not in ranking


def test_every_number_a_player_types_asks_a_phone_for_its_keypad(api):
    # type=number alone brings up the whole keyboard on an iPhone, a number row above it
    game_id = api.new_game("shooter", players=("Ana", "Bo", "Cy"))
    bidding = api.client.get(f"/games/{game_id}/board").json["html"]
    for move, player, data in (("bid", "Bo", {"bid": 4}), ("pass", "Cy", {}), ("pass", "Ana", {})):
        assert api.move(game_id, move, player, **data).status_code == 201
    assert api.move(game_id, "trump", "Bo", trump="H").status_code == 201
    tricks = api.client.get(f"/games/{game_id}/board").json["html"]
    front = api.client.get("/").get_data(as_text=True)
    for page, fields in ((bidding, 1), (tricks, 3), (front, 5)):
        numbers = re.findall(r"<input type=\"number\"[^>]*>", page)
        assert len(numbers) >= fields and all('inputmode="numeric"' in field for field in numbers)


def test_shooters_hands_and_bids_read_as_a_score_pad_has_them(api):
    # they read "dealer: Ana, scores: (Ana: 2, Bo: 5, Cy: 1)" and "player: Bo, bid: 4"
    game_id = api.new_game("shooter", players=("Ana", "Bo", "Cy"))
    assert api.move(game_id, "bid", "Bo", bid=4).status_code == 201
    assert api.move(game_id, "pass", "Cy").status_code == 201
    html = api.client.get(f"/games/{game_id}/board").json["html"]
    assert re.search(r"<dt>bids</dt>\s*<dd><ol class=\"records\"><li>Bo: 4</li><li>Cy: pass</li></ol>", html)
    for move, player, data in (("pass", "Ana", {}), ("trump", "Bo", {"trump": "H"})):
        assert api.move(game_id, move, player, **data).status_code == 201
    assert api.move(game_id, "tricks", tricks={"Ana": 2, "Bo": 5, "Cy": 1}).status_code == 201
    html = api.client.get(f"/games/{game_id}/board").json["html"]
    assert "<li>dealt by Ana: Ana 2, Bo 5, Cy 1</li>" in html


def test_a_detail_for_some_players_is_a_column_with_a_dash_for_the_rest(app, client):
    # Twenty-One's last round is Ann's and Cy's (Bob sits out): its hands were one line of
    # "Ann: (cards: (10H; 10D), value: 20, ...), Cy: (...)" under the table
    html = golden_board(app, client, "twenty-one")
    scores = html[html.index('id="scores"') : html.index("</table>")]
    rows = re.findall(r"<tr class[^>]*>(.*?)</tr>", scores, re.S)
    cells = [re.findall(r"<td[^>]*>([^<]*)</td>", row) for row in rows]
    assert [row[0] for row in cells] == ["Ann", "Bob", "Cy"]
    assert cells[0][2] == "10♥ 10♦ = 20, stands" and cells[1][2] == "—"  # not "cards: ..., value: 20"
    assert cells[2][2] == "J♠ 7♥ 4♣ = 21"
    assert "Ann: 10♥ 10♦ = 20; Cy: J♠ 7♥ 4♣ = 21" in html  # what the dice make, as printed


@pytest.fixture
def in_kolkata(monkeypatch):
    """The machine's clock set to India's time, UTC+5:30 all year (no summer time)."""
    monkeypatch.setenv("TZ", "Asia/Kolkata")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def a_cubes_log(*times: datetime) -> list[str]:
    """A Cubes game for Ana and Bo: its start, then a roll at each time after the first."""
    start = {"seq": 1, "type": "start", "data": {"game": "cubes", "players": ["Ana", "Bo"], "options": {}}}
    events = [{**start, "at": times[0].isoformat(timespec="milliseconds")}]
    for seq, at in enumerate(times[1:], 2):
        roll = {"faces": ["1", "2", "3", "4", "5", "6"]}
        player = "Ana" if seq % 2 == 0 else "Bo"
        events.append({"seq": seq, "type": "roll", "player": player, "data": roll, "at": at.isoformat()})
    return [json.dumps(event) for event in events]


def test_the_history_shows_each_move_at_the_tables_local_time(app, client, in_kolkata):
    # the log keeps UTC; at a table in India 18:50 UTC is 00:20 the next morning
    start, roll = datetime(2026, 11, 27, 18, 46, 23, tzinfo=UTC), datetime(2026, 11, 27, 18, 50, tzinfo=UTC)
    game_id = imported(app, a_cubes_log(start, roll))
    html = client.get(f"/games/{game_id}/board").json["html"]
    assert '<time datetime="2026-11-27T18:50:00+00:00">00:20:00</time>' in html
    assert ">00:16:23</time>" in html and ">18:46:23</time>" not in html


def test_games_in_progress_are_listed_last_played_first_with_when(app, client, in_kolkata):
    now = datetime.now(UTC)
    just_now, a_day_ago = now - timedelta(seconds=1), now - timedelta(days=1)
    long_ago = now - timedelta(days=400)
    played_yesterday = imported(app, a_cubes_log(long_ago, a_day_ago))
    played_today = imported(app, a_cubes_log(long_ago - timedelta(days=1), just_now))
    untouched = imported(app, a_cubes_log(long_ago))  # the newest game, but never played
    games = client.get("/").get_data(as_text=True)
    games = games[games.index("Games in progress") :]
    listed = [int(game_id) for game_id in re.findall(r'href="/games/(\d+)"', games)]
    assert listed[:3] == [played_today, played_yesterday, untouched]
    assert f"#{played_today} · last move today {just_now.astimezone():%H:%M}" in games
    assert f"#{played_yesterday} · last move yesterday {a_day_ago.astimezone():%H:%M}" in games
    local = long_ago.astimezone()
    assert f"#{untouched} · last move {local.day} {local:%b} {local.year}" in games


def test_a_log_with_fields_no_rule_reads_still_shows(app, client):
    """A log stored before the ledger refused such fields (and imports held them to it): its
    odd shapes show as they are, and the pages work."""
    from dicescore.ledger import Ledger

    roll = ("roll", "Ana", {"faces": ["1", "2", "3", "4", "5", "6"], "top": 5})
    ledger = Ledger.open(app.config["DATABASE"])
    try:
        game_id = ledger.new_game("cubes", ["Ana", "Bo"])
        for seq, (kind, player, data) in enumerate((roll, roll, ("undo", None, {"x": {"shootout": []}})), 2):
            ledger.db.execute(
                "INSERT INTO events (game_id, seq, type, player, data, at, auto)"
                " VALUES (?, ?, ?, ?, ?, 'now', 0)",
                (game_id, seq, kind, player, json.dumps(data)),
            )
        ledger.db.commit()
    finally:
        ledger.close()
    for page in (f"/games/{game_id}", f"/games/{game_id}/board", f"/api/games/{game_id}"):
        assert client.get(page).status_code == 200, page
    texts = [event["text"] for event in client.get(f"/api/games/{game_id}/events").json["events"]]
    assert texts[-1] == '{"x": {"shootout": []}}'


def test_a_game_whose_log_no_longer_replays_is_named_on_the_front_page_and_passed_over(app, client):
    from dicescore.ledger import Ledger
    from webui.roll_sources import table_game

    ledger = Ledger.open(app.config["DATABASE"])
    try:
        fine = ledger.new_game("cubes", ["Ana", "Bo"])
        damaged = ledger.new_game("cubes", ["Cy", "Di"])
        ledger.db.execute(  # a roll of a face no Cubes die shows, as a hand edit might leave
            "INSERT INTO events (game_id, seq, type, player, data, at, auto)"
            " VALUES (?, 2, 'roll', 'Cy', ?, 'now', 0)",
            (damaged, json.dumps({"faces": ["ZZ", "1", "2", "3", "4", "5"]})),
        )
        assert table_game(ledger, "cubes").game_id == fine  # the camera scores the game it can
    finally:
        ledger.close()
    page = client.get("/")
    assert page.status_code == 200
    assert "its log no longer replays: event #2 (roll)" in page.get_data(as_text=True)


def test_a_refused_new_game_keeps_what_was_filled_in(client):
    page = create(client, game="shooter", player=["Ana", "Bo"], **{"shooter:goal": "40"})
    html = page.get_data(as_text=True)
    assert page.status_code == 400 and "3 to 4 players" in html
    assert re.search(r'value="shooter"\s+checked', html)
    assert 'value="Ana"' in html and 'value="Bo"' in html and 'name="shooter:goal" value="40"' in html


def test_a_squib_tie_after_the_end_can_be_settled_from_the_page(api):
    game_id = api.new_game("squib-squares", ["Ana", "Bo"])
    assert api.move(game_id, "end", "Ana").status_code == 201
    html = api.client.get(f"/games/{game_id}/board").json["html"]
    assert 'id="moves"' in html and 'id="steal"' in html  # the game is over, but tied
    # the sheet settles a tie by a steal: the page does not call it shared while one may come
    assert "Ana and Bo share the win" not in html
    said = "Ana and Bo are tied at the top: a steal between them settles it (below), or they share the win."
    assert said in " ".join(html.split())


def test_the_bid_offered_beats_the_highest_so_far(api):
    game_id = api.new_game("shooter", players=("Ana", "Bo", "Cy"))
    assert api.move(game_id, "bid", "Bo", bid=3).status_code == 201
    html = api.client.get(f"/games/{game_id}/board").json["html"]
    assert re.search(r'name="bid" min="4" max="8"\s+value="4"', html)


def test_only_the_shootout_cards_playable_now_have_buttons(api):
    game_id = api.new_game("square-shooters/classic", deck="physical")
    assert api.move(game_id, "draw", "Ana", card={"shootout": "double_down"}).status_code == 201
    full_house = {"kind": "full_house", "cards": ["7C", "7H", "7D", "AS", "AH"], "chips": 8}
    assert api.move(game_id, "draw", "Ana", card=full_house).status_code == 201
    html = api.client.get(f"/games/{game_id}/board").json["html"]
    assert "play Double-Down" not in html  # after the first roll, not before
    faces = ["7C", "7H", "2S", "3D", "4H", "5C", "9S", "JD", "KC"]
    assert api.move(game_id, "roll", "Ana", faces=faces).status_code == 201
    html = api.client.get(f"/games/{game_id}/board").json["html"]
    assert "Ana: play Double-Down" in html


def test_the_turn_line_counts_the_rolls_of_the_player_whose_turn_it_is(api):
    game_id = api.new_game("square-shooters/rummy", ["Ana", "Bo"])
    faces = ["7C", "7H", "2S", "3D", "4H", "5C", "9S", "JD", "KC"]
    for _ in range(3):
        assert api.move(game_id, "roll", "Ana", faces=faces).status_code == 201
    html = api.client.get(f"/games/{game_id}/board").json["html"]
    assert re.search(r"<strong>Bo</strong>'s turn</p>", html)  # not Ana's "roll 3 of 3"
    assert api.move(game_id, "roll", "Bo", faces=faces).status_code == 201
    html = api.client.get(f"/games/{game_id}/board").json["html"]
    assert "<strong>Bo</strong>'s turn · roll 1 of 3" in html


def test_the_buttons_of_the_player_whose_turn_it_is_come_first(api):
    # Shooter lets anyone renege at any time: those buttons once came before the bidder's pass
    game_id = api.new_game("shooter", players=("Ana", "Bo", "Cy"))
    html = api.client.get(f"/games/{game_id}/board").json["html"]
    button = r'class="move" data-type="[^"]+" data-player="[^"]+"\s+data-data="[^"]*">([^<]+)</button>'
    labels = re.findall(button, html)
    assert labels[0] == "Bo: pass" and {"Ana: renege", "Cy: renege"} <= set(labels)


def test_a_rolls_faces_are_written_once_on_the_board_not_once_a_die(api):
    # a long game's board is sent to every open tab at every move: each die once carried
    # the whole roll's faces, a third of the page
    game_id = api.new_game("cubes", ["Ana", "Bo"])
    for player in ("Ana", "Bo", "Ana"):
        assert api.roll(game_id, "1", "2", "3", "4", "5", "6", player=player).status_code == 201
    html = api.client.get(f"/games/{game_id}/board").json["html"]
    assert html.count("data-faces=") == 3 + 1  # each roll in the history, and the dice shown
    assert html.count('class="die ') >= 4 * 6


def test_the_board_is_rendered_once_a_move_however_many_tabs_ask(api, monkeypatch):
    import webui.pages

    rendered = []
    real = webui.pages.board_html
    monkeypatch.setattr(
        webui.pages, "board_html", lambda *args: rendered.append(args[0]["version"]) or real(*args)
    )
    game_id = api.new_game("cubes", ["Ana", "Bo"])
    boards = [api.client.get(f"/games/{game_id}/board").json for _ in range(3)]  # three tabs
    assert api.roll(game_id, "1", "2", "3", "4", "5", "6", player="Ana").status_code == 201
    boards += [api.client.get(f"/games/{game_id}/board").json for _ in range(3)]
    assert rendered == [1, 2]
    assert boards[0] == boards[2] and boards[3] == boards[5] and boards[3]["version"] == 2


def test_a_board_is_never_another_databases_game_of_the_same_id(app, api):
    # the rendered board was kept by game id and log length: a new file's game 1 got the old one's
    from dicescore.ledger import Ledger

    api.new_game("cubes", ["Alice", "Bob"])
    assert "Alice" in api.client.get("/games/1/board").json["html"]
    database = Path(app.config["DATABASE"])
    for path in database.parent.glob(database.name + "*"):
        path.unlink()
    ledger = Ledger.open(database)
    ledger.new_game("cubes", ["Carol", "Dave"])  # game 1 again, as long a log
    ledger.close()
    html = api.client.get("/games/1/board").json["html"]
    assert "Carol" in html and "Alice" not in html


def test_jokers_and_red_cards_read_as_printed():
    """table.py isinstance(face, Joker) -> False: a joker read "red joker", not "Joker";
    table.py isinstance(face, Card) -> False: hearts and diamonds lost their red."""
    assert face_text("JOKER_RED") == face_text("JOKER_BLACK") == "Joker"
    assert face_colour("10H") == face_colour("AD") == "red"
    assert face_colour("KS") == face_colour("2C") == "black"
    assert face_colour("JOKER_RED") == "red" and face_colour("5") == ""


def test_a_new_game_form_with_no_game_chosen_is_refused_not_a_crash(client):
    """pages.py ``if name not in GAMES: raise IllegalMove("choose a game")`` dropped:
    a form sent with no game (or one this version lacks) answered 500 (KeyError)."""
    csrf = client.get("/api/session").json["csrf"]
    for game in ("", "no-such-game"):
        response = client.post("/", data={"csrf_token": csrf, "game": game, "player": ["Ana", "Bo"]})
        assert response.status_code == 400
        assert "choose a game" in response.get_data(as_text=True)


def test_a_detail_reads_in_words_with_no_json_punctuation():
    """table.py in_words: a yes/no detail read "True" or the other way round, an empty
    list or record showed nothing instead of a dash, and records nested in a list ran
    together with no parentheses (or read as Python's own [..] and {..})."""
    assert in_words({"stood": True, "bust": False}) == "stood: yes, bust: no"
    assert in_words([]) == in_words({}) == in_words(None) == "—"
    hands = [{"cards": ["10H"], "bust": False}, {"cards": [], "bust": True}]
    assert in_words(hands) == "(cards: (10H), bust: no); (cards: —, bust: yes)"
    assert in_words({"last_round": {"held_by": ["Ana", "Bo"]}}) == "last round: (held by: (Ana; Bo))"


def test_the_dice_shown_are_the_last_roll_in_force_not_one_undone(api):
    """table.py ``rolls = [... if "faces" in row and row["in_force"]]`` without the in_force:
    after an undo the board went on showing the undone roll's dice, to tap and correct."""
    game_id = api.new_game()  # the pip race
    first = api.roll(game_id, "2", "3").json["event"]["seq"]
    undone = api.roll(game_id, "6", "6").json["event"]["seq"]
    assert api.move(game_id, "undo").status_code == 201
    dice = api.client.get(f"/api/games/{game_id}").json["dice"]
    assert (dice["seq"], dice["faces"]) == (first, ["2", "3"])
    board = api.client.get(f"/games/{game_id}/board").json["html"]
    assert f'The dice <span class="muted">roll #{first} ' in board
    assert f'The dice <span class="muted">roll #{undone} ' not in board


def dialog_faces(client, game_id):
    """The faces the table page gives its tap-to-correct dialog to offer."""
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    return json.loads(re.search(r'<script type="application/json" id="faces">(.*?)</script>', page, re.S)[1])


def test_the_correction_dialog_offers_every_face_of_the_games_dice_as_printed(api):
    """pages.py table_page ``faces``: the choices a tap on a die offers, each face of the
    game's dice with its printed text and colour (none for a game played without dice)."""
    faces = dialog_faces(api.client, api.new_game("square-shooters/shootout", ["Ana", "Bo"]))
    assert faces["labels"] == list(DIE_KINDS["square-shooters"].labels)
    assert faces["texts"]["10H"] == "10♥" and faces["texts"]["JOKER_RED"] == "Joker"
    assert faces["colours"]["10H"] == "red" and faces["colours"]["KS"] == "black"
    faces = dialog_faces(api.client, api.new_game("cubes", ["Ana", "Bo"]))
    assert faces["labels"] == ["CUBES", "BLANK", "1", "2", "3", "4", "5", "6"]
    assert faces["texts"]["CUBES"] == "CUBES" and faces["colours"]["6"] == ""
    assert dialog_faces(api.client, api.new_game("shooter", ["Ana", "Bo", "Cy"])) == {
        "labels": [],
        "texts": {},
        "colours": {},
    }


def test_the_note_a_board_announces_is_the_newest(api):
    """pages.py board ``last_note = notes[-1]`` -> ``notes[0]``: each redraw handed the page
    the game's first note to announce, never what the latest move did."""
    game_id = api.new_game("cubes", ["Ana", "Bo"])
    api.roll(game_id, "CUBES", "2", "3", "BLANK", "BLANK", "BLANK")
    api.roll(game_id, "1", "1", "1", "BLANK", "BLANK", "BLANK")
    notes = api.view(game_id)["notes"]
    assert notes[0] != notes[-1]
    assert api.client.get(f"/games/{game_id}/board").json["last_note"] == notes[-1]


def test_the_entry_forms_come_with_what_a_player_picks_from(api):
    """pages.py board_html ``spinner_choices(...) if spinners``, ``shootout_targets(...) if
    choosers`` and ``allowed_to("draw") if uses_physical_deck(view)`` negated: a physical spin's
    form listed no goal, Square Shootout's no target card, and a physical deck's draw had no form
    (a virtual deck's had one)."""
    rodeo = api.new_game("rodeo-rummy", ["Ana", "Bo"], spinner="physical")
    board = api.client.get(f"/games/{rodeo}/board").json["html"]
    assert "Ana spins: enter what the spinner shows" in board and '<option value="5s-6s">' in board
    shootout = api.new_game("square-shooters/shootout", ["Ana", "Bo"])
    board = api.client.get(f"/games/{shootout}/board").json["html"]
    assert 'id="choose"' in board and board.count('<select name="target"') == 7
    assert "chips</option>" in board
    physical = api.new_game("square-shooters/classic", ["Ana", "Bo"], deck="physical")
    assert "Ana turns a card" in api.client.get(f"/games/{physical}/board").json["html"]
    drawn = api.new_game("square-shooters/classic", ["Ana", "Bo"])
    assert "turns a card" not in api.client.get(f"/games/{drawn}/board").json["html"]


def test_a_game_ending_move_is_one_button_for_the_table_that_asks_first():
    """pages.py move_buttons ``if button["type"] in ending_moves`` -> False: Squib Squares'
    end came as a button per player, named for one, and ended the game with no question."""
    from scoring.squib import SquibSquares
    from webui.pages import move_buttons

    label, asked = SquibSquares.ending_moves["end"]
    view = {"game": "squib-squares", "players": ["Ana", "Bo"], "turn": "Bo"}
    view["allowed"] = {"Ana": ["end"], "Bo": ["end"]}
    assert move_buttons(view, {}) == [
        {"player": "Ana", "type": "end", "data": {}, "label": label, "confirm": asked, "table": True}
    ]
