"""Your dice: what the camera has been taught of each dice set, and forgetting it.

Taps teach the face classifier (``webui.crops``), and a wrong tap teaches a wrong example
that would stay.  ``GET /dice`` shows, for each die kind, which faces have examples taught
for that kind, each example as the camera saw it (the newest first), and whether the set is
taught whole.  Its forms forget one example (a wrong tap found later), one face's examples,
a whole set's (a new set of dice replaces the old), or everything taught.
``GET /dice/<kind>/<face>.png`` is a face's newest example, ``GET /dice/<kind>/<face>/<name>``
each one.

With a camera watching, a set is taught by showing it: ``GET /api/dice/<kind>/look``
reads the dice in the camera's latest frame (``Camera.look``) and returns each one's crop
and reading; ``POST /api/dice/<kind>/teach`` then teaches the faces the player names for
that look's crops, without any game being played.
"""

from __future__ import annotations

import base64
import itertools
import json
import threading
from collections import OrderedDict

import cv2
import numpy as np
from flask import (
    Blueprint,
    abort,
    current_app,
    flash,
    jsonify,
    redirect,
    render_template,
    request,
    send_file,
    url_for,
)
from werkzeug.exceptions import BadRequest, Conflict, InternalServerError, NotFound, ServiceUnavailable

from scoring.faces import DIE_KINDS, DieKind
from webui import crops, security
from webui.bodies import read_json
from webui.table import KIND_TITLES, face_colour, face_text

bp = Blueprint("dice", __name__)

LOOKS_KEPT = 8  # the latest looks at the table whose crops may still be taught


def taught_classifier() -> crops.SharedClassifier:
    try:
        return crops.classifier(current_app)
    except RuntimeError as error:  # vision.faces.ModelFileError: a missing or corrupt model file
        raise ServiceUnavailable(f"the camera's face model cannot be loaded: {error}") from None


@bp.get("/dice")
def dice_page():
    classifier = taught_classifier()
    sets = []
    for name, kind in DIE_KINDS.items():
        examples = classifier.taught_examples(name)
        faces = [
            {
                "label": label,
                "text": face_text(label),
                "colour": face_colour(label),
                "examples": [path.name for path in examples.get(label, ())],  # the newest first
            }
            for label in kind.labels
        ]
        sets.append(
            {
                "name": name,
                "title": KIND_TITLES.get(name, name),
                "faces": faces,
                "known": sum(1 for face in faces if face["examples"]),
            }
        )
    camera = current_app.extensions.get("dicescore.camera")
    watching = "dicescore.look" in current_app.extensions and camera is not None and camera.running
    return render_template("dice.html", sets=sets, watching=watching, camera=camera)


@bp.get("/dice/<kind>/<face>.png")
def example(kind: str, face: str):
    """The newest example of ``face`` taught for ``kind`` dice."""
    if face not in known_kind(kind).label_set:
        abort(404, f"{face} is no face of {kind} dice")
    examples = taught_classifier().taught_examples(kind).get(face)
    if not examples:
        abort(404, f"no example of {face} is taught for {kind} dice")
    return send_file(examples[0], mimetype="image/png", max_age=0)


@bp.get("/dice/<kind>/<face>/<name>")
def one_example(kind: str, face: str, name: str):
    """Example ``name`` of ``face`` taught for ``kind`` dice, as ``taught_examples`` lists it."""
    for path in taught_classifier().taught_examples(known_kind(kind).name).get(face, ()):
        if path.name == name:
            return send_file(path, mimetype="image/png", max_age=0)
    abort(404, f"no such example of {face} is taught for {kind} dice")


@bp.post("/dice")
def forget():
    """Forget what the form names: ``example`` (one, by name) of ``face`` of ``kind`` dice,
    ``face`` of ``kind`` dice, all of ``kind``, or (``kind`` ``everything``) every example
    taught, for any dice or none."""
    if not security.joined():
        return redirect(url_for("pages.join", next=url_for("dice.dice_page")))
    security.check_write()
    kind, face = request.form.get("kind", ""), request.form.get("face") or None
    if kind != "everything" and kind not in DIE_KINDS:
        raise BadRequest(f"choose which dice to forget: one of {', '.join(DIE_KINDS)}, or everything")
    if face is not None and kind == "everything":
        raise BadRequest("forget one face of one kind of dice, or everything: not both")
    if face is not None and face not in DIE_KINDS[kind].label_set:
        raise BadRequest(f"{face} is not a face of {kind} dice")
    example = request.form.get("example") or None
    if example is not None and face is None:
        raise BadRequest("name the face whose example to forget")
    dice = KIND_TITLES.get(kind, kind).lower()
    try:
        if example is not None:
            forgotten = taught_classifier().forget_example(face, kind, example)
        else:
            forgotten = taught_classifier().forget(face, None if kind == "everything" else kind)
    except OSError as error:  # a file the data folder will not let go: the rest are forgotten
        flash(f"The camera could not forget everything asked: {error}", kind)
        return redirect(url_for("dice.dice_page", _anchor=kind))
    if kind == "everything":
        flash("The camera has forgotten every face it was taught.", "everything")
        return redirect(url_for("dice.dice_page"))
    if example is not None:
        left = len(taught_classifier().taught_examples(kind).get(face, ()))
        done = "has forgotten that example" if forgotten else "had forgotten that example already"
        flash(f"The camera {done} of the face {face_text(face)} of your {dice}; it keeps {left}.", kind)
    elif face is None:
        flash(f"The camera has forgotten the {len(forgotten)} faces it was taught of your {dice}.", kind)
    elif forgotten:
        flash(f"The camera has forgotten the face {face_text(face)} of your {dice}.", kind)
    else:
        flash(f"The camera had not been taught the face {face_text(face)} of your {dice}.", kind)
    return redirect(url_for("dice.dice_page", _anchor=kind))


class Looks:
    """The crops of the latest looks at the table, by number, until they are taught."""

    def __init__(self) -> None:
        self.numbers = itertools.count(1)
        self.kept: OrderedDict[int, tuple[str, list]] = OrderedDict()
        self.lock = threading.Lock()

    def keep(self, kind: str, dice_crops: list) -> int:
        with self.lock:
            number = next(self.numbers)
            self.kept[number] = (kind, dice_crops)
            while len(self.kept) > LOOKS_KEPT:
                self.kept.popitem(last=False)
            return number

    def get(self, number: object) -> tuple[str, list] | None:
        with self.lock:
            return self.kept.get(number) if type(number) is int else None  # not a bool, nor 1.0


def looks() -> Looks:
    if "dicescore.looks" not in current_app.extensions:
        current_app.extensions["dicescore.looks"] = Looks()
    return current_app.extensions["dicescore.looks"]


def known_kind(kind: str) -> DieKind:
    if kind not in DIE_KINDS:
        raise NotFound(f"there are no {kind} dice: choose one of {', '.join(DIE_KINDS)}")
    return DIE_KINDS[kind]


@bp.get("/api/dice/<kind>/look")
def look(kind: str):
    """The dice the camera sees now, left to right, read as ``kind`` dice: each one's crop (a
    PNG data URL), reading (None: unreadable) and choices, and the look's number, to teach
    them by."""
    die_kind = known_kind(kind)
    camera_look = current_app.extensions.get("dicescore.look")
    if camera_look is None:
        raise Conflict("no camera is watching the table: serve with --source to teach dice by showing them")
    try:
        dice = camera_look(kind)
    except LookupError as error:
        raise Conflict(str(error)) from None
    if len(dice) == 0:
        raise Conflict("the camera sees no dice: lay them out, face up, where it can see them")
    dice = dice[np.argsort(dice.centers[:, 0], kind="stable")]  # left to right, as they lie
    shown = []
    for die in dice:
        ok, png = cv2.imencode(".png", die.crop)
        if not ok:
            raise InternalServerError("a die's crop could not be encoded")
        shown.append(
            {
                "crop": "data:image/png;base64," + base64.b64encode(png.tobytes()).decode(),
                "label": die.label if die.label in die_kind.label_set else None,
                "top": [[label, round(float(p), 3)] for label, p in die.top if label in die_kind.label_set],
            }
        )
    return jsonify(look=looks().keep(kind, list(dice.crops)), dice=shown)


@bp.post("/api/dice/<kind>/teach")
def teach(kind: str):
    """Teach the crops of look ``look`` as the ``faces`` named, one a die (null: not taught)."""
    security.check_write()
    die_kind = known_kind(kind)
    body = read_json()
    if not isinstance(body, dict):
        raise BadRequest('send {"look": number, "faces": [face or null, ...]}')
    kept = looks().get(body.get("look"))
    if kept is None or kept[0] != kind:
        raise NotFound("that look at the table is gone: look again")
    faces, dice_crops = body.get("faces"), kept[1]
    if not isinstance(faces, list) or len(faces) != len(dice_crops):
        raise BadRequest(f"name a face (or null) for each of the look's {len(dice_crops)} dice")
    for face in faces:
        if face is not None and not isinstance(face, str):
            raise BadRequest(
                f"a face is named by its label, or null for a die not taught: not {json.dumps(face)}"
            )
        if face is not None and face not in die_kind.label_set:
            raise BadRequest(f"{face} is not a face of {kind} dice")
    classifier = taught_classifier()
    taught = 0
    for crop, face in zip(dice_crops, faces, strict=True):
        if face is None:
            continue
        try:
            taught += bool(classifier.learn(crop, face, kind))  # a crop taught before is no new example
        except Exception as error:  # say it; what was taught before it stays taught
            raise InternalServerError(f"the camera could not learn {face_text(face)}: {error}") from None
    known = len(classifier.taught_faces(kind))
    total = len(die_kind.labels)
    whole = ": the set is taught whole" if known == total else ""
    flash(f"The camera learnt {taught} faces; it knows {known} of the {total} faces{whole}.", kind)
    return jsonify(taught=taught, known=known, faces=total)
