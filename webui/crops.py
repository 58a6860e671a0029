"""The face crops a camera roll leaves behind, and what a correction teaches with them.

The camera saves each die's rectified face crop when its roll is stored, as
``CROPS/<game id>-<roll seq>-<die index>.png`` (``CROPS`` defaults to a ``crops`` folder
beside ``games.sqlite``, and to ``<name>-crops`` beside a database of another name).
Only the crops of the games played latest are kept (``prune_crops``, at each start of
``dicescore serve``): an older game's board shows its rolls without pictures.

When a player's correction changes a die whose crop is there, the face classifier learns
that crop as the face picked (``FaceClassifier.learn``), so the same misread does not come
back; a player may also vouch for a whole roll (``teach_roll``), which teaches its faces,
the ones read right too, until each face has as many examples as the classifier keeps, so
that a dice set's every face can be taught.  Learning happens after the correction is
stored, and a failure to learn is logged: it never undoes or refuses the correction.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterable, Sequence
from datetime import datetime
from pathlib import Path

import cv2
import numpy as np
from flask import Flask

from scoring.faces import parse_face
from scoring.game import Event
from scoring.games import GAMES
from scoring.replay import corrected_moves, is_roll
from vision.files import read_picture, write_picture

log = logging.getLogger(__name__)


class SharedClassifier:
    """The camera's face classifiers, shared by the camera thread, which reads with them, and
    the requests that correct dice, which teach them: learning changes what they read from.
    ``classifier`` reads video frames; ``photo_classifier``, if any, reads a settled roll
    again as a photo (``photos``). Both read the taught examples of one folder."""

    def __init__(self, classifier, photo_classifier=None):
        self.classifier = classifier
        self.photo_classifier = photo_classifier
        self.lock = threading.Lock()

    def classify(self, crops, **how):
        """As ``FaceClassifier.classify``."""
        with self.lock:
            return self.classifier.classify(crops, **how)

    @property
    def min_confidence(self) -> float:
        """As ``FaceClassifier.min_confidence``: a reader of card dice needs it to read each card once."""
        return self.classifier.min_confidence

    @property
    def not_a_face(self) -> float:
        """As ``FaceClassifier.not_a_face``: the reader drops an unsure find from this cut."""
        return self.classifier.not_a_face

    @property
    def photos(self) -> Locked | None:
        """The photo classifier, read under the same lock; None when there is none."""
        return None if self.photo_classifier is None else Locked(self.photo_classifier, self.lock)

    def taught_faces(self, kind: str) -> list[str]:
        """As ``FaceClassifier.taught_faces``."""
        with self.lock:
            return self.classifier.taught_faces(kind)

    def taught_examples(self, kind: str) -> dict[str, list[Path]]:
        """As ``FaceClassifier.taught_examples``."""
        with self.lock:
            return self.classifier.taught_examples(kind)

    def examples_wanted(self, kind: str) -> dict[str, int]:
        """As ``FaceClassifier.examples_wanted``."""
        with self.lock:
            return self.classifier.examples_wanted(kind)

    def learn(self, crop: np.ndarray, label: str, kind: str | None = None) -> set[str]:
        """As ``FaceClassifier.learn``; the photo classifier reloads what changed."""
        with self.lock:
            changed = self.classifier.learn(crop, label, kind)
            self._reload_photos(changed)
            return changed

    def unlearn(self, crop: np.ndarray, label: str, kind: str | None = None) -> set[str]:
        """As ``FaceClassifier.unlearn``; the photo classifier reloads what changed."""
        with self.lock:
            changed = self.classifier.unlearn(crop, label, kind)
            self._reload_photos(changed)
            return changed

    def forget_example(self, label: str, kind: str | None, name: str) -> set[str]:
        """As ``FaceClassifier.forget_example``; the photo classifier reloads what changed."""
        with self.lock:
            changed = self.classifier.forget_example(label, kind, name)
            self._reload_photos(changed)
            return changed

    def forget(self, label: str | None = None, kind: str | None = None) -> set[str]:
        """As ``FaceClassifier.forget``."""
        with self.lock:
            try:
                changed = self.classifier.forget(label, kind)
            except OSError as error:  # some forgotten all the same: the photo model must forget them too
                self._reload_photos(getattr(error, "changed", set()))
                raise
            self._reload_photos(changed)
            return changed

    def _reload_photos(self, changed: set[str]) -> None:
        if self.photo_classifier is not None and changed:  # it reads the lesson from the shared folder
            self.photo_classifier.reload_learned(changed)


class Locked:
    """A face classifier read under a lock that lessons take too."""

    def __init__(self, classifier, lock: threading.Lock):
        self.classifier = classifier
        self.lock = lock

    @property
    def min_confidence(self) -> float:
        return self.classifier.min_confidence

    @property
    def not_a_face(self) -> float:
        return self.classifier.not_a_face

    def classify(self, crops, **how):
        with self.lock:
            return self.classifier.classify(crops, **how)


# The crops of this many of the games played latest are kept. A roll leaves about 40 KB of
# them and nothing deleted any: a year of weekly evenings came to a gigabyte in one folder.
CROPS_KEPT_GAMES = 30


def prune_crops(folder: Path, games: Sequence[tuple[int, str]], keep: int = CROPS_KEPT_GAMES) -> int:
    """Delete every crop but those of the first ``keep`` of ``games`` ((id, when it was made,
    as the ledger writes it), the one played latest first), and those older than their game:
    a crop left by a database since deleted would show, and teach, another game's die of the
    same number (a game imported keeps its first move's time, so there this cannot tell).
    How many files went; a file that will not go is logged and left."""
    made = {game_id: made_at(created) for game_id, created in games[:keep]}
    removed = 0
    try:
        crops = list(Path(folder).glob("*-*-*.png"))
    except OSError as error:  # one the app may not look into
        log.warning("could not look at the crops in %s: %s", folder, error)
        return 0
    for path in crops:
        game = path.name.split("-", 1)[0]
        if not game.isdigit():
            continue
        try:
            if int(game) not in made or path.stat().st_mtime < made[int(game)]:
                path.unlink()
                removed += 1
        except OSError as error:
            log.warning("could not delete the old crop %s: %s", path, error)
    return removed


def made_at(created: str) -> float:
    """A game's making as seconds since the epoch; minus infinity when its time is no time
    (a game imported with its first move's ``at``, which nothing checks): its crops stay."""
    try:
        return datetime.fromisoformat(created).timestamp()
    except (TypeError, ValueError):
        return float("-inf")


def crop_path(app: Flask, game_id: int, roll: int, die: int) -> Path:
    return Path(app.config["CROPS"]) / f"{game_id}-{roll}-{die}.png"


def is_kept(path: Path) -> bool:
    """Whether a crop's file is there to show; a crops folder the app may not look into
    (its permissions changed) keeps none, rather than failing the page."""
    try:
        return path.is_file()
    except OSError:
        return False


def kept_crops(app: Flask, game_id: int, rolls: Iterable[tuple[int, int]]) -> set[str]:
    """``"<roll seq>-<die>"`` of each die of ``rolls`` ((seq, dice) pairs) whose crop the
    camera kept (a stat a die: the crops folder holds every game's)."""
    return {
        f"{seq}-{die}"
        for seq, dice in rolls
        for die in range(dice)
        if is_kept(crop_path(app, game_id, seq, die))
    }


def save_crops(app: Flask, game_id: int, roll: int, crops: Sequence[np.ndarray | None]) -> None:
    """Keep the crops of a stored roll (None for a die the camera did not see)."""
    for die, crop in enumerate(crops):
        if crop is None:
            continue
        path = crop_path(app, game_id, roll, die)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            write_picture(path, crop)
        except (OSError, cv2.error) as error:  # the roll is stored; only teaching it later is lost
            log.warning("could not keep the crop %s: %s", path, error)


def labels(faces: Sequence[str]) -> list[str]:
    """A roll's faces by their own labels: the log keeps them as they were sent, and the
    rules take other spellings too (``cubes``, ``TH``), which the classifier counts as one."""
    return [parse_face(face).label for face in faces]


def teach(app: Flask, game_id: int, events: Sequence[Event], correction: Event) -> dict[str, list[str]]:
    """Teach the classifier every die that ``correction`` (just stored after ``events``)
    changed or checked and whose crop was saved.  Never raises.  Returns the faces ``learnt``
    (new examples: a crop taught so before is none) and those that ``failed`` (logged), for
    the player to be told."""
    kind, roll = die_kind_of(events), correction.data["roll"]
    told: dict[str, list[str]] = {"learnt": [], "failed": []}
    for die, face in lessons(events, correction):
        if is_kept(crop_path(app, game_id, roll, die)):  # a die entered by hand has no crop
            learnt = learn_die(app, game_id, roll, die, face, kind)
            if learnt is not False:
                told["learnt" if learnt else "failed"].append(face)
    return told


def unteach(
    app: Flask, game_id: int, events: Sequence[Event], correction: Event, now: Sequence[Event]
) -> dict[str, list[str]]:
    """Take back what ``correction`` (stored after ``events``) taught, now that it is undone
    (``now``: the log with the undo): a tap on the wrong face, taken back, must not go on
    reading other dice as that face.  A die that still reads as it taught keeps its example
    (a guess it checked, or taught so before); one that a correction still in force names
    otherwise is taught as that face again.  Never raises.  Returns the faces
    ``taken_back`` and those that ``failed`` (logged)."""
    kind, roll = die_kind_of(events), correction.data["roll"]
    reads = next((labels(event.data["faces"]) for event in corrected_moves(now) if event.seq == roll), [])
    rolled = next((labels(event.data["faces"]) for event in now if event.seq == roll), [])
    told: dict[str, list[str]] = {"taken_back": [], "failed": []}
    for die, face in lessons(events, correction):
        still = reads[die] if die < len(reads) else None
        path = crop_path(app, game_id, roll, die)
        if still == face or not is_kept(path):
            continue
        try:
            crop = read_picture(path)
            if crop is not None and classifier(app).unlearn(crop, face, kind):
                told["taken_back"].append(face)
        except Exception:  # whatever it hits, the undo stands
            log.exception("game %s roll #%s die %s: could not take back %s", game_id, roll, die + 1, face)
            told["failed"].append(face)
        if still is not None and die < len(rolled) and still != rolled[die]:  # an earlier correction's
            learn_die(app, game_id, roll, die, still, kind)
    return told


def lessons(events: Sequence[Event], correction: Event) -> list[tuple[int, str]]:
    """The dice ``correction`` (after ``events``) teaches, and as what face: each it changed,
    and each guess the player kept (checked: right, and worth an example)."""
    before = {event.seq: labels(event.data["faces"]) for event in corrected_moves(events) if is_roll(event)}
    checked = correction.data.get("checked") or []
    now = labels(correction.data["faces"])
    return [
        (die, new)
        for die, (old, new) in enumerate(zip(before.get(correction.data["roll"], []), now, strict=False))
        if old != new or die in checked
    ]


def teach_roll(app: Flask, game_id: int, events: Sequence[Event], roll: int) -> dict[str, int]:
    """Teach the classifier the dice of ``roll`` whose crop was saved, as the roll now reads
    (corrections applied): a player's word that the whole roll is right, how a dice set's
    faces the camera already reads get taught too.  A face with as many examples as the
    classifier keeps for the game's die kind is skipped, and a crop taught before is no new
    example (``FaceClassifier.examples_wanted``): one example a face makes the set whole, a
    few from other rolls read it surer.  Returns how many dice were ``taught``, ``saved``
    (their crops) and ``failed`` to be learnt (logged), and how many of the kind's ``faces``
    are ``known`` now; raises LookupError when ``roll`` is no roll of dice in force."""
    faces = {event.seq: labels(event.data["faces"]) for event in corrected_moves(events) if is_roll(event)}
    if roll not in faces:
        raise LookupError(f"there is no roll #{roll} of dice in this game")
    kind = die_kind_of(events)
    if kind is None:
        raise LookupError("this game has no dice to teach")
    saved = [die for die in range(len(faces[roll])) if is_kept(crop_path(app, game_id, roll, die))]
    wanted = classifier(app).examples_wanted(kind)
    taught = failed = 0
    for die in saved:
        label = faces[roll][die]
        if wanted[label] <= 0:  # as many examples as are kept, some maybe from this roll
            continue
        lesson = learn_die(app, game_id, roll, die, label, kind)
        if lesson is None:
            failed += 1
        elif lesson:
            wanted[label] -= 1
            taught += 1
    known = len(classifier(app).taught_faces(kind))
    return {"taught": taught, "saved": len(saved), "failed": failed, "known": known, "faces": len(wanted)}


def die_kind_of(events: Sequence[Event]) -> str | None:
    """The die kind of the game ``events`` start: taps on its dice are a set of that kind."""
    game = GAMES.get(events[0].data.get("game")) if events else None
    return game.die_kind if game else None


def learn_die(app: Flask, game_id: int, roll: int, die: int, label: str, kind: str | None) -> bool | None:
    """Teach the classifier die ``die`` of ``roll`` as ``label`` from its saved crop, if there
    is one.  Never raises: whatever learning hits, the game stands.  Returns whether that was
    a new example (False: taught so before), or None when there is no crop or it failed."""
    path = crop_path(app, game_id, roll, die)
    if not is_kept(path):
        return None
    try:
        crop = read_picture(path)
        if crop is None:
            raise OSError(f"cannot read {path}")
        return bool(classifier(app).learn(crop, label, kind))
    except Exception:  # whatever learning hits, the game and its corrections stand
        log.exception("game %s roll #%s die %s: could not learn it as %s", game_id, roll, die + 1, label)
        return None


def classifier(app: Flask) -> SharedClassifier:
    """The running camera's classifier, or one loaded now to learn a saved crop (a game
    read by the camera earlier, corrected while dice are entered by hand)."""
    if "dicescore.classifier" not in app.extensions:
        from vision.faces import FAST_MODEL, FaceClassifier  # onnxruntime: loaded only when needed

        app.extensions["dicescore.classifier"] = SharedClassifier(FaceClassifier(FAST_MODEL))
    return app.extensions["dicescore.classifier"]
