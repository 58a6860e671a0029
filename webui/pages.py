"""The HTML pages: the new-game page (with games in progress to resume), the join page,
and the table page, whose board is rendered here and redrawn by the stream."""

from __future__ import annotations

import hashlib
import itertools
from datetime import datetime
from string import ascii_uppercase
from typing import Any
from urllib.parse import urlsplit

from flask import Blueprint, abort, current_app, redirect, render_template, request, send_file, url_for
from werkzeug.exceptions import Forbidden, RequestEntityTooLarge

from dicescore.kept import KeptByVersion
from dicescore.ledger import Ledger
from scoring.faces import DIE_KINDS, Suit
from scoring.game import IllegalMove
from scoring.games import GAMES
from scoring.targets import SHOOTOUT_TITLES
from webui import security
from webui.crops import crop_path, is_kept, kept_crops
from webui.db import GAME_ID, ROLL, get_ledger
from webui.entry import (
    dice_to_enter,
    physical_cards,
    playing_cards,
    shootout_targets,
    spinner_choices,
)
from webui.table import (
    GOAL_KEYS,
    as_printed,
    catalog,
    face_colour,
    face_text,
    in_words,
    options_from_form,
    summary,
    table,
    words,
)

bp = Blueprint("pages", __name__)

# Moves entered with a form of their own on the board; every other allowed move is a
# button (one per choice when the move names a card, an opponent or a suit).
MOVES_WITH_FORMS = frozenset({"roll", "bid", "tricks", "square", "steal", "spin", "choose", "deal", "give"})
SUITS = tuple(suit.name.lower() for suit in Suit)


@bp.app_template_filter("face")
def face_filter(label: str) -> str:
    return face_text(label)


@bp.app_template_filter("colour")
def colour_filter(label: str) -> str:
    return face_colour(label)


@bp.app_template_filter("clock")
def clock_filter(at: str | None) -> str:
    """An event's time of day as the clocks at the table show it: this machine's local time
    (the log keeps UTC, and the phones on the LAN sit at the same table)."""
    when = local_time(at)
    return when.strftime("%H:%M:%S") if when else ""


@bp.app_template_filter("when")
def when_filter(at: str | None) -> str:
    """A moment in local time, as near as a player needs it: today 19:05, yesterday 21:40,
    Sat 21 Nov 18:02 within the year, 21 Nov 2025 before it."""
    when = local_time(at)
    if when is None:
        return ""
    today = datetime.now().astimezone().date()
    if when.date() == today:
        return f"today {when:%H:%M}"
    if (today - when.date()).days == 1:
        return f"yesterday {when:%H:%M}"
    day = f"{when.day} {when:%b}"  # not %-d, which Windows' strftime lacks
    return f"{when:%a} {day} {when:%H:%M}" if when.year == today.year else f"{day} {when.year}"


def local_time(at: str | None) -> datetime | None:
    try:
        return datetime.fromisoformat(at).astimezone() if at else None
    except (TypeError, ValueError):
        return None


@bp.app_template_filter("plain")
def plain_filter(value: Any) -> str:
    """A detail in words, cards as printed: a scoreboard cell (4♦ 5♠), a goal, a target card
    (Full House: 7♣ 7♥ 7♦ A♠ A♥, 8 chips)."""
    return in_words(as_printed("", value))


@bp.app_template_test("records")
def records_test(value: Any) -> bool:
    """A detail that is a list of records (Rodeo Rummy's rounds, Shooter's hands and bids, a
    shootout's target cards): shown one a line, not run together into one paragraph."""
    return isinstance(value, list) and bool(value) and all(isinstance(item, dict) for item in value)


@bp.app_template_filter("words")
def words_filter(key: str) -> str:
    return words(key)


@bp.get("/")
def index():
    return render_new_game()


def render_new_game(error: str | None = None, status: int = 200, sent=None, import_error: str | None = None):
    """The front page; ``sent``, a new-game form the rules refused, is shown as it was filled
    in, so that fixing one field does not mean typing every name again.  ``import_error``: why
    a saved game was not brought back."""
    games = get_ledger().games()
    # the game last played first: a family comes back to yesterday's game
    in_progress = sorted((game for game in games if not game["finished"]), key=last_move, reverse=True)
    camera = current_app.extensions.get("dicescore.camera")
    # the camera's picture heads the page, with the game it scores one tap away
    watched = next((game for game in games if camera and game["id"] == camera.game_id), None)
    return (
        render_template(
            "index.html",
            catalog=catalog(),
            in_progress=in_progress,
            finished=[game for game in games if game["finished"]],
            camera=camera,
            watched=watched,
            error=error,
            import_error=import_error,
            sent=sent,
            chosen_game=sent.get("game") if sent and sent.get("game") in GAMES else None,
            names=[name.strip() for name in sent.getlist("player") if name.strip()] if sent else [],
        ),
        status,
    )


def last_move(game: dict[str, Any]) -> str:
    return game["last_move"] or ""


@bp.post("/")
def new_game():
    if not security.joined():
        return redirect(url_for("pages.join", next=url_for("pages.index")))
    security.check_write()
    name = request.form.get("game", "")
    players = [player.strip() for player in request.form.getlist("player") if player.strip()]
    try:
        if name not in GAMES:
            raise IllegalMove("choose a game")
        options = options_from_form(GAMES[name], request.form)
        game_id = get_ledger().new_game(name, players, options)
    except IllegalMove as error:
        return render_new_game(str(error), 400, request.form)
    current_app.extensions["dicescore.changes"].notify()
    return redirect(url_for("pages.table_page", game_id=game_id))


@bp.post("/games/import")
def import_game():
    """A game saved with "Export JSON lines" (on this computer or another) stored as a new
    game, once its whole log replays by today's rules."""
    if not security.joined():
        return redirect(url_for("pages.join", next=url_for("pages.index")))
    request.max_content_length = current_app.config["MAX_IMPORT_LENGTH"]  # a long game's log
    try:
        security.check_write()
        upload = request.files.get("log")
    except RequestEntityTooLarge:
        most = current_app.config["MAX_IMPORT_LENGTH"] // 2**20
        reason = f"that file is larger than a saved game ({most} MB at most)"
        return render_new_game(status=413, import_error=reason)
    if upload is None or not upload.filename:
        return render_new_game(status=400, import_error="choose a saved game (a .jsonl file) to bring back")
    try:
        # a BOM from an editor is no line; nor is a line separator inside a name (splitlines)
        lines = upload.read().decode("utf-8-sig").split("\n")
        game_id = get_ledger().import_jsonl(lines)
    except UnicodeDecodeError:
        reason = f"{upload.filename} is not a saved game: JSON lines are text"
        return render_new_game(status=400, import_error=reason)
    except IllegalMove as error:
        reason = f"{upload.filename} was not brought back: {error}"
        return render_new_game(status=400, import_error=reason)
    current_app.extensions["dicescore.changes"].notify()
    return redirect(url_for("pages.table_page", game_id=game_id))


def is_own_page(path: str) -> bool:
    """Whether ``path`` is a page of this app, and so safe to send a player back to: browsers
    drop a tab or a newline and read a backslash as a slash, so "/", a tab, "/elsewhere" or
    "/", a backslash, "elsewhere" would lead to another site."""
    if not path.startswith("/") or "\\" in path or not path.isprintable():
        return False
    parts = urlsplit(path)
    return not parts.scheme and not parts.netloc and not path.startswith("//")


@bp.route("/join", methods=["GET", "POST"])
def join():
    next_page = request.values.get("next", "")
    if not is_own_page(next_page):
        next_page = url_for("pages.index")
    error, status = None, 200
    if request.method == "POST":
        security.check_csrf()
        try:
            if security.join(request.form.get("pin", "").strip()):
                return redirect(next_page)
            error, status = "That is not the PIN shown where the table is served.", 403
        except security.TooManyTries as refused:
            error, status = refused.description, refused.code
    return render_template("join.html", next_page=next_page, error=error), status


@bp.get(f"/games/{GAME_ID}")
def table_page(game_id: int):
    state = table(get_ledger(), game_id)
    kind = DIE_KINDS.get(state["die_kind"] or "")
    faces = {
        "labels": list(kind.labels) if kind else [],
        "texts": {label: face_text(label) for label in kind.labels} if kind else {},
        "colours": {label: face_colour(label) for label in kind.labels} if kind else {},
    }
    camera = current_app.extensions.get("dicescore.camera")
    html, drawn = render_board(state)
    page = {"board_html": html, "drawn": drawn, "faces": faces, "camera": camera}
    return render_template("table.html", t=state, **page)


@bp.get(f"/games/{GAME_ID}/rolls/{ROLL}/dice/<int:die>.png")
def die_crop(game_id: int, roll: int, die: int):
    """The camera's picture of one die of a roll, as it read it: the tap dialog shows it, so
    that a player sees which die they are correcting."""
    path = crop_path(current_app, game_id, roll, die)
    if not is_kept(path):
        abort(404, f"the camera kept no picture of die {die + 1} of roll #{roll} in game #{game_id}")
    return send_file(path.resolve(), mimetype="image/png", max_age=0)


@bp.get(f"/games/{GAME_ID}/board")
def board_fragment(game_id: int):
    return board(get_ledger(), game_id)


def board(ledger: Ledger, game_id: int) -> dict[str, Any]:
    """The board (everything on the table page that changes), rendered, with its version and
    a digest of its HTML (``drawn``)."""
    state = table(ledger, game_id)
    notes = state["view"]["notes"]
    html, drawn = render_board(state)
    last_note = notes[-1] if notes else ""
    return {"version": state["version"], "drawn": drawn, "html": html, "last_note": last_note}


def camera_rolls(state: dict[str, Any]) -> list[tuple[int, int]]:
    """(seq, dice) of each roll in force that the camera read (it carries the top-k)."""
    return [(row["seq"], len(row["faces"])) for row in state["history"] if row.get("top") and row["in_force"]]


def render_board(state: dict[str, Any]) -> tuple[str, str]:
    """The board's HTML and a digest of it (``drawn``: the page takes a board of the version
    it shows only where it was drawn otherwise, as when the camera keeps a roll's die pictures
    just after storing the roll), made once for each version of a game's log, whoever asks:
    every open tab's stream asks at every move, and a long game's board takes a fifth of a
    second, its digest 3 ms more (docs/webui.md, "Live updates").  Made anew where the crops
    kept since differ, or for a visitor who may not write."""
    crops = kept_crops(current_app, state["id"], camera_rolls(state))
    can_write = security.joined()
    boards: KeptByVersion = current_app.extensions["dicescore.boards"]
    # the log's length and its last event's time: a game of that id in another database file
    # (made anew, or a backup put back) has another
    last = state["history"][-1]["at"] if state["history"] else None
    game, version = (state["id"], can_write), (state["version"], last, frozenset(crops))
    kept = boards.get(game, version)
    if kept is None:
        html = board_html(state, crops, can_write)
        kept = (html, hashlib.blake2s(html.encode(), digest_size=8).hexdigest())
        boards.put(game, version, kept)
    return kept


def board_html(state: dict[str, Any], crops: set[str], can_write: bool) -> str:
    view = state["view"]
    kind = DIE_KINDS.get(state["die_kind"] or "")
    players = view["players"]
    goal = {key: state["details"][key] for key in GOAL_KEYS if key in state["details"]}
    rest = {key: value for key, value in state["details"].items() if key not in goal}
    columns, other_details = scoreboard_columns(rest, players)

    def allowed_to(move: str) -> list[str]:
        return [player for player in players if move in view["allowed"].get(player, [])]

    spinners = allowed_to("spin")
    choosers = allowed_to("choose")
    dealers = allowed_to("deal")
    return render_template(
        "_board.html",
        t=state,
        view=view,
        kind=kind,
        columns=columns,
        goal=goal,
        other_details=other_details,
        buttons=move_buttons(view, state["details"]),
        rollers=allowed_to("roll"),
        bidders=allowed_to("bid"),
        trick_takers=allowed_to("tricks"),
        drawers=allowed_to("draw") if uses_physical_deck(view) else [],
        square_makers=allowed_to("square"),
        rolled="to" if GAMES[view["game"]].rolls_to_player else "by",
        new_square=new_square_name(state["details"]),
        stealers=allowed_to("steal"),
        physical_cards=physical_cards(),
        crops=crops,
        suits=SUITS,
        entry_faces=dice_to_enter(view, state["dice"], kind),
        dice_fixed=view["dice_per_roll"] is not None,
        spinners=spinners,
        spinner=spinner_choices(view["options"]) if spinners else None,
        choosers=choosers,
        shootout_targets=shootout_targets(state["details"]) if choosers else [],
        dealers=dealers,
        playing_cards=playing_cards(state["details"]) if dealers else [],
        givers=allowed_to("give"),
        summary=summary(view) if view["finished"] else None,
        moves_with_forms=MOVES_WITH_FORMS,
        can_write=can_write,
    )


def scoreboard_columns(
    details: dict[str, Any], players: list[str]
) -> tuple[dict[str, dict[str, Any]], dict[str, Any]]:
    """The details that are one value per player (points, held cards) as scoreboard columns,
    and the rest, to be listed under the table. A list of such values (Cubes' set scores, as
    its score pad has) is a column per item: set 1, set 2...; a record holding one (Cubes'
    chips: the pot's and each player's) gives that part a column named after the record and
    leaves the rest under the table."""
    columns, rest = {}, {}
    for key, value in details.items():
        if isinstance(value, dict) and per_player(value, players):
            columns[key] = value
        elif isinstance(value, list) and per_player(value, players):
            for number, item in enumerate(value, 1):
                columns[f"{key.removesuffix('_scores')} {number}"] = item
        elif (part := player_part(value, players)) is not None:
            columns[key] = value[part]
            if others := {name: item for name, item in value.items() if name != part}:
                rest[key] = others
        else:
            rest[key] = value
    return columns, rest


def player_part(value: Any, players: list[str]) -> str | None:
    """The key of a record's part that is one value per player, if it has one."""
    if not isinstance(value, dict):
        return None
    parts = (name for name, item in value.items() if isinstance(item, dict) and per_player(item, players))
    return next(parts, None)


def per_player(value: Any, players: list[str]) -> bool:
    """Whether a detail is one value per player (or for some of them: Twenty-One's hands
    are its round's contenders'), or a list of such (a scoreboard column each)."""
    if isinstance(value, list):
        return bool(value) and all(isinstance(item, dict) and per_player(item, players) for item in value)
    return isinstance(value, dict) and bool(value) and set(value) <= set(players)


def move_buttons(view: dict[str, Any], details: dict[str, Any]) -> list[dict[str, Any]]:
    """A button for each move allowed now that needs no typing: its player, type, data and
    label; those of the player whose turn it is first (a move anyone may make at any time,
    such as Shooter's renege, must not sit where the next move is looked for)."""
    buttons = [
        {"player": player, "type": move, "data": data, "label": label}
        for player in view["players"]
        for move in view["allowed"].get(player, [])
        if move not in MOVES_WITH_FORMS
        for data, label in move_choices(move, player, view, details)
    ]
    ending_moves = GAMES[view["game"]].ending_moves
    ending = {}  # the first player's button for each game-ending move stands for the table's
    for button in buttons:
        if button["type"] in ending_moves:
            asked = ending_moves[button["type"]][1]
            ending.setdefault(button["type"], button | {"confirm": asked, "table": True})
    buttons = [button for button in buttons if button["type"] not in ending_moves] + list(ending.values())
    return sorted(buttons, key=lambda button: button["player"] != view["turn"])


def new_square_name(details: dict[str, Any]) -> str:
    """The first letter no player's Squib square is named: a square scored under a name in
    use grows (or changes) that square, and a form that offered "A" each time replaced the
    first square with the second."""
    taken = {name for squares in details.get("squares", {}).values() for name in squares}
    names = itertools.chain(ascii_uppercase, (f"A{n}" for n in itertools.count(2)))
    return next(name for name in names if name not in taken)


def move_choices(move: str, player: str, view: dict[str, Any], details: dict[str, Any]):
    """The (data, label) of each way to make a move."""
    if move == "play":  # one button per shootout card the player may play now
        for card in (record["card"] for record in details.get("playable", []) if record["player"] == player):
            yield {"card": card}, f"play {SHOOTOUT_TITLES.get(card, card)}"
    elif move == "challenge":
        for opponent in details.get("contenders") or view["players"]:
            if opponent != player:
                yield {"opponent": opponent}, f"challenge {opponent}"
    elif move == "break":  # one button per square the player has
        for square in details.get("squares", {}).get(player, {}):
            yield {"id": square}, f"break square {square}"
    elif move == "draw" and uses_physical_deck(view):
        return  # the card drawn is entered with the draw form
    elif move == "trump":
        for suit in SUITS:
            yield {"trump": suit}, f"trump {suit}"
    elif move in GAMES[view["game"]].ending_moves:
        yield {}, GAMES[view["game"]].ending_moves[move][0]
    else:
        yield {}, words(move)


def uses_physical_deck(view: dict[str, Any]) -> bool:
    return view["options"].get("deck") == "physical"


@bp.errorhandler(Forbidden)
def forbidden(error: Forbidden):
    if isinstance(error, security.MissingPin):
        return redirect(url_for("pages.join", next=request.path))
    return render_template("error.html", error=error), 403
