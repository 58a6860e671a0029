"""Your dice: what the camera has been taught of each dice set, and forgetting it.

Taps teach the face classifier (``webui.crops``), and a wrong tap teaches a wrong example
that would stay.  ``GET /dice`` shows, for each die kind, which faces have examples taught
for that kind, the newest as the camera saw it, and whether the set is taught whole.  Its
forms forget one face's examples, a whole set's (a new set of dice replaces the old), or
everything taught.  ``GET /dice/<kind>/<face>.png`` is a face's newest example.
"""

from __future__ import annotations

from flask import Blueprint, abort, current_app, flash, redirect, render_template, request, send_file, url_for
from werkzeug.exceptions import BadRequest, ServiceUnavailable

from scoring.faces import DIE_KINDS
from webui import crops, security
from webui.table import face_colour, face_text

bp = Blueprint("dice", __name__)

KIND_TITLES = {"square-shooters": "Square Shooters dice", "cubes": "Cubes dice", "d6": "Pip dice"}


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
                "examples": len(examples.get(label, ())),
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
    return render_template("dice.html", sets=sets)


@bp.get("/dice/<kind>/<face>.png")
def example(kind: str, face: str):
    """The newest example of ``face`` taught for ``kind`` dice."""
    if kind not in DIE_KINDS or face not in DIE_KINDS[kind].label_set:
        abort(404, f"{face} is no face of {kind} dice")
    examples = taught_classifier().taught_examples(kind).get(face)
    if not examples:
        abort(404, f"no example of {face} is taught for {kind} dice")
    return send_file(examples[0], mimetype="image/png", max_age=0)


@bp.post("/dice")
def forget():
    """Forget what the form names: ``face`` of ``kind`` dice, all of ``kind``, or (``kind``
    ``everything``) every example taught, for any dice or none."""
    if not security.joined():
        return redirect(url_for("pages.join", next=url_for("dice.dice_page")))
    security.check_write()
    kind, face = request.form.get("kind", ""), request.form.get("face") or None
    if kind == "everything":
        taught_classifier().forget()
        flash("The camera has forgotten every face it was taught.", "everything")
        return redirect(url_for("dice.dice_page"))
    if kind not in DIE_KINDS:
        raise BadRequest(f"choose which dice to forget: one of {', '.join(DIE_KINDS)}, or everything")
    if face is not None and face not in DIE_KINDS[kind].label_set:
        raise BadRequest(f"{face} is not a face of {kind} dice")
    forgotten = taught_classifier().forget(face, kind)
    dice = KIND_TITLES.get(kind, kind).lower()
    if face is None:
        flash(f"The camera has forgotten the {len(forgotten)} faces it was taught of your {dice}.", kind)
    elif forgotten:
        flash(f"The camera has forgotten {face_text(face)} of your {dice}.", kind)
    else:
        flash(f"The camera had not been taught {face_text(face)} of your {dice}.", kind)
    return redirect(url_for("dice.dice_page", _anchor=kind))
