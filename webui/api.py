"""The JSON API: the games on offer, creating a game, a game's view and history,
appending any event (rolls, corrections, undo and each game's own moves), export, the
camera's status, and teaching the face classifier a roll the camera read.

Every refusal is a 4xx with ``{"error": message}`` and leaves the log as it was; a roll
whose dice could not be taught is a 500, and a database that cannot be written just now a
503 (``webui.errors``), each with its message.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from contextlib import nullcontext
from typing import Any, TypeVar

from flask import Blueprint, Response, current_app, jsonify, request
from werkzeug.exceptions import BadRequest, InternalServerError, NotFound

from dicescore.ledger import Ledger, UnknownGame
from scoring.faces import DIE_KINDS, UnknownFace
from scoring.game import Event, IllegalMove
from scoring.games import GAMES
from scoring.replay import next_to_undo, replayed
from webui import crops, security
from webui.bodies import read_json
from webui.db import GAME_ID, ROLL, get_ledger
from webui.table import catalog, csv_export, die_kinds, history, table

bp = Blueprint("api", __name__, url_prefix="/api")

Result = TypeVar("Result")
# a correction teaches the camera the faces it names; an undo of one takes them back
TEACHING_MOVES = ("correct", "undo")


@bp.before_request
def check_writes() -> None:
    if request.endpoint == "api.join_table":
        security.check_csrf()  # joining is how a player gets the PIN into their session
    elif request.method not in ("GET", "HEAD", "OPTIONS"):
        security.check_write()


def fields(payload: Any, allowed: set[str]) -> dict[str, Any]:
    if not isinstance(payload, dict):
        raise BadRequest("the body must be a JSON object")
    unknown = sorted(set(payload) - allowed)
    if unknown:
        raise BadRequest(f"unknown field {unknown[0]!r}; fields are {', '.join(sorted(allowed))}")
    return payload


def by_the_rules(action: Callable[[], Result]) -> Result:
    """Run a write that the rules check.  A rules module that chokes on odd data (rather
    than refusing it with IllegalMove) must not turn a bad request into a 500: the ledger
    has rolled back, so the move is refused and the failure logged for its authors."""
    try:
        return action()
    except (IllegalMove, UnknownFace, UnknownGame, sqlite3.Error):  # the database's own: a 503
        raise
    except Exception as error:
        current_app.logger.exception("the rules failed on a request")
        raise IllegalMove(f"the rules could not read this move ({type(error).__name__})") from None


def check_correction(start: Event, event: Event) -> None:
    """A correction may only name faces of the game's die kind."""
    game = GAMES.get(start.data.get("game"))
    kind = DIE_KINDS.get(game.die_kind) if game else None
    if kind is None:
        raise IllegalMove("this game has no dice to correct")
    faces = event.data.get("faces")
    if not isinstance(faces, list) or not all(isinstance(face, str) for face in faces):
        raise IllegalMove("a correction needs 'faces', a list of face labels")
    for face in faces:
        kind.check(face)


# -- reading ------------------------------------------------------------------------------
@bp.get("/session")
def session_info():
    return jsonify(csrf=security.csrf_token(), pin_required=security.pin_required(), joined=security.joined())


@bp.get("/catalog")
def game_catalog():
    return jsonify(games=catalog(), die_kinds=die_kinds())


@bp.get("/camera")
def camera_status():
    view = current_app.extensions.get("dicescore.camera")
    if view is None:
        raise NotFound("no camera source: dice come from the page or a recording")
    return jsonify(status=view.status, running=view.running)


@bp.get("/games")
def game_list():
    return jsonify(games=get_ledger().games())


@bp.get(f"/games/{GAME_ID}")
def game_view(game_id: int):
    state = table(get_ledger(), game_id)
    return jsonify(id=game_id, version=state["version"], view=state["view"], dice=state["dice"])


@bp.get(f"/games/{GAME_ID}/events")
def game_history(game_id: int):
    events = get_ledger().events(game_id)
    try:
        passed_over = replayed(events)[1]
    except IllegalMove:  # a damaged log's history is still shown, as it stands
        passed_over = frozenset()
    return jsonify(events=history(events, passed_over))


@bp.get(f"/games/{GAME_ID}/export.jsonl")
def export_jsonl(game_id: int):
    return download(get_ledger().export_jsonl(game_id), "application/x-ndjson", f"game-{game_id}.jsonl")


@bp.get(f"/games/{GAME_ID}/export.csv")
def export_csv(game_id: int):
    return download(csv_export(get_ledger().events(game_id)), "text/csv", f"game-{game_id}.csv")


def download(text: str, mimetype: str, filename: str) -> Response:
    response = Response(text, mimetype=mimetype)
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


# -- writing ------------------------------------------------------------------------------
@bp.post("/join")
def join_table():
    payload = fields(read_json(), {"pin"})
    if not security.join(payload.get("pin")):
        raise security.MissingPin("wrong PIN")
    return jsonify(joined=True)


@bp.post("/games")
def create_game():
    payload = fields(read_json(), {"game", "players", "options"})
    name, players, options = payload.get("game"), payload.get("players"), payload.get("options", {})
    # Checked here because the ledger would take "AB" as players A and B, and pairs as options.
    if not isinstance(name, str):
        raise IllegalMove("'game' must be a game's name; GET /api/catalog lists them")
    if not isinstance(players, list):
        raise IllegalMove("'players' must be a list of names")
    if not isinstance(options, dict):
        raise IllegalMove("'options' must be an object")
    ledger = get_ledger()
    game_id = by_the_rules(lambda: ledger.new_game(name, players, options))
    current_app.extensions["dicescore.changes"].notify()
    return jsonify(id=game_id, view=ledger.game(game_id).view()), 201


@bp.post(f"/games/{GAME_ID}/events")
def append_event(game_id: int):
    ledger = get_ledger()
    events = ledger.events(game_id)  # an unknown game is a 404 before anything else
    payload = fields(read_json(), {"type", "player", "data", "version"})
    event = Event.from_json(
        {"type": payload.get("type"), "player": payload.get("player"), "data": payload.get("data", {})}
    )
    version = payload.get("version")
    if version is not None and type(version) is not int:
        raise BadRequest("'version' must be the length of the log the move was made on (the board's version)")
    if event.type == "correct":
        check_correction(events[0], event)
    # only a move that teaches or takes back waits for another's lesson: rolls never wait
    teaching = event.type in TEACHING_MOVES
    with current_app.extensions["dicescore.lessons"] if teaching else nullcontext():
        stored = by_the_rules(lambda: ledger.append(game_id, event, version))
        current_app.extensions["dicescore.changes"].notify()
        lesson = taught_by(ledger, game_id, stored)
    state = table(ledger, game_id)
    reply = {"event": stored.to_json(), "version": state["version"], "view": state["view"]}
    if any(lesson.values()):  # what the camera learnt or forgot, for the player to be told
        reply["lesson"] = lesson
    return jsonify(reply), 201


def taught_by(ledger: Ledger, game_id: int, stored: Event) -> dict[str, list[str]]:
    """What the classifier learns from a correction just stored, or forgets with an undo of
    one; stored first, so that a classifier that fails to learn changes nothing."""
    if stored.type not in TEACHING_MOVES:
        return {}
    # the log as the move found it: another may have come since this request began
    before = ledger.events(game_id)[: stored.seq - 1]
    if stored.type == "correct":
        return crops.teach(current_app, game_id, before, stored)
    undone = next_to_undo(before)
    if undone is not None and undone.type == "correct":  # a lesson taken back with its tap
        return crops.unteach(current_app, game_id, before[: undone.seq - 1], undone, [*before, stored])
    return {}


@bp.post(f"/games/{GAME_ID}/rolls/{ROLL}/teach")
def teach_roll(game_id: int, roll: int):
    """A player vouches that roll ``roll`` reads right as it stands: the face classifier learns
    each die of it whose crop the camera saved while its face has fewer examples for the
    game's die kind than the classifier keeps.  The game's log is not touched."""
    events = get_ledger().events(game_id)  # an unknown game is a 404 before anything else
    try:
        lesson = crops.teach_roll(current_app, game_id, events, roll)
    except LookupError as error:
        raise NotFound(str(error)) from None
    if lesson["saved"] == 0:
        raise NotFound(f"roll #{roll} has no dice the camera saw: there is nothing to teach")
    if lesson["failed"]:
        raise InternalServerError(
            f"the camera could not learn {lesson['failed']} of roll #{roll}'s dice (its log says why)"
        )
    return jsonify(
        roll=roll,
        taught=lesson["taught"],
        saved=lesson["saved"],
        known=lesson["known"],
        faces=lesson["faces"],
    )
