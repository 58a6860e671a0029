"""The camera at the table: frames in, rolls appended to the table's game, a live picture out.

``open_camera(SRC)`` opens what ``dicescore watch`` opens (a webcam index, a video file, a
folder of images, an http/rtsp URL) and loads the detector and the face classifier;
``camera.watch(app)`` then runs it in a background thread that

* reads the frames with ``vision``'s DiceReader and RollTracker, the faces read as dice of
  the game being played: the table's game as ``webui.roll_sources.table_game`` finds it (the
  camera never asks which game it is; the ledger knows); each settled roll's faces are read
  once more as a photo is read, with the default face model (``read_as_photo``);
* appends each settled roll to that game as its player's roll, with the classifier's
  top-k per die, and saves each die's crop for tap-to-correct to teach (``webui.crops``);
* keeps the latest frame, each die outlined and labelled, as a JPEG for ``/live.mjpg``,
  and a status line for the page; and the latest frames themselves, for "Your dice" to
  teach the dice they show (``look``).

A roll the camera could not read whole is still recorded, so a tap can fix it:
``guess_faces`` says how.  A video file plays at its own pace, as a camera would; a live
camera or stream that fails is reopened with backoff (``vision.sources.Reconnecting``).
A missing model file is not fatal: the page says which file is missing and how to make
it, and the dice are entered by hand meanwhile.

``demo_camera()`` plays the demo clip in a loop through the same path, as a Cubes game
for three, when both the clip and the detector model exist.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
from flask import Flask

import vision.detector
import vision.sources
from dicescore.ledger import Ledger
from scoring.faces import DieKind, UnknownFace, die_kind
from scoring.game import Event, IllegalMove
from vision.detector import Detector, DetectorFileError
from vision.faces import DEFAULT_MODEL, FAST_MODEL, FaceClassifier, ModelFileError
from vision.framing import seen_at, size_hint, unread_hint
from vision.pipeline import DiceReader
from vision.readings import DieReadings, draw
from vision.sources import RECONNECT_WAITS, FrameSource, Reconnecting, SourceError, open_source
from vision.tracker import RollEvent, RollTracker, steady_mean
from webui.crops import SharedClassifier, save_crops
from webui.roll_sources import DemoGame, TableGame, table_game
from webui.table import KIND_TITLES

LIVE_INTERVAL = 0.1  # at most 10 live frames a second: the picture is for people, spare the CPU
LIVE_WIDTH = 640  # live frames are shrunk to this width: plenty for a phone, cheap to encode
LIVE_QUALITY = 75
# How often to look again which game the table plays, for moves made by another process
# (appends made here are seen at once).  Each look replays the games, so not every frame.
TABLE_LOOK_SECONDS = 5.0
LOOKED_AT_FRAMES = 9  # the latest frames a look at the dice averages where the table is still

log = logging.getLogger(__name__)


class LiveView:
    """What the pages show of the camera: a status line and the latest annotated frame (JPEG)."""

    def __init__(self, status: str):
        self.status = status
        self.running = False
        self.jpeg: bytes | None = None
        self.number = 0  # frames published so far
        self.game_id: int | None = None  # the game whose rolls it scores, for the front page
        self._condition = threading.Condition()

    def set_status(self, status: str) -> None:
        if status != self.status:
            log.info("camera: %s", status)
            self.status = status

    def publish(self, jpeg: bytes) -> None:
        with self._condition:
            self.jpeg, self.number = jpeg, self.number + 1
            self._condition.notify_all()

    def stop(self, status: str) -> None:
        with self._condition:
            self.running = False
            self.game_id = None
            self.set_status(status)
            self._condition.notify_all()

    def next_frame(self, seen: int, timeout: float) -> tuple[int, bytes | None]:
        """The latest frame, once there is one newer than frame number ``seen``; None when
        ``timeout`` passes first or the camera stops."""
        with self._condition:
            self._condition.wait_for(lambda: self.number != seen or not self.running, timeout)
            if self.number != seen:
                return self.number, self.jpeg
            return seen, None


@dataclass
class CameraRoll:
    """A roll as recorded: faces in the kind's label set, and per die its top-k, whether
    the face is a guess, whether the die leans, and its crop (None for a die the camera did
    not see)."""

    faces: list[str]
    top: list[list[list]]
    unsure: list[int]
    crops: list[np.ndarray | None]
    cocked: list[int]

    def data(self) -> dict:
        data = {"faces": self.faces, "top": self.top}
        if self.unsure:
            data["unsure"] = self.unsure
        if self.cocked:
            data["cocked"] = self.cocked
        return data


def guess_faces(dice: DieReadings, kind: DieKind, count: int | None) -> CameraRoll:
    """The roll to record from what the camera read, whole even when the reading is not,
    so that the game can score it and a player can fix it with a tap:

    * a die read as no face of the kind (unreadable, or another kind's face) takes its
      likeliest face of the kind from the classifier's top-k;
    * more dice than the game rolls: those the detector is least sure of are dropped (a
      chip or a card that looks like a die);
    * fewer dice than the game rolls: the missing dice are added with the kind's first
      face (still free, for card dice);
    * card dice print each card once, so two dice never take the same card.

    Every die whose face is such a guess is listed in ``unsure``, and every die the tracker
    saw leaning on something in ``cocked``; the page marks both.
    """
    if count is not None and len(dice) > count:
        dice = dice[np.sort(np.argsort(-dice.scores, kind="stable")[:count])]
    taken: set[str] = set()

    def free(label: str | None) -> bool:
        return label in kind.label_set and not (kind.each_face_once and label in taken)

    faces: list[str | None] = [None] * len(dice)
    for i in np.argsort(-dice.confidences, kind="stable"):  # the surest dice choose first
        choices = [dice.labels[i], *(label for label, _ in dice.tops[i])]
        faces[i] = next((label for label in choices if free(label)), None)
        taken.add(faces[i] or "")
    missing = count - len(dice) if count is not None and len(dice) < count else 0
    faces += [None] * missing
    for i, face in enumerate(faces):
        if face is None:
            faces[i] = next(label for label in kind.labels if free(label))
            taken.add(faces[i])
    unsure = [i for i, face in enumerate(faces) if i >= len(dice) or face != dice.labels[i]]
    top = [[[label, round(float(p), 3)] for label, p in die if label in kind.label_set] for die in dice.tops]
    crops = list(dice.crops) if dice.crops is not None else [None] * len(dice)
    cocked = [int(i) for i in np.flatnonzero(dice.cocked)]
    return CameraRoll(faces, top + [[] for _ in range(missing)], unsure, crops + [None] * missing, cocked)


class Camera:
    """Frames from a source, read as dice of the table's game and settled into rolls."""

    def __init__(
        self,
        opener: Callable[[], FrameSource],
        detector,
        classifier,
        kind: str | None = None,
        start_game: Callable[[Ledger], None] | None = None,
        settle_seconds: float = 0.3,
        backoff: tuple[float, ...] = RECONNECT_WAITS,
        photo_classifier=None,
        size_hints: bool = True,
    ):
        self.detector = detector
        # Video frames are read with ``classifier``; a settled roll, once, as a photo is read
        # with ``photo_classifier`` (the default face model), which names its faces.
        self.classifier = SharedClassifier(classifier, photo_classifier)
        self.kind = kind  # only games of this die kind (the demo clip shows Cubes dice)
        self.start_game = start_game  # starts a game when none of ``kind`` is in progress
        self.size_hints = size_hints  # ask for the camera closer when the dice look small
        self.view = LiveView("starting")
        self.stopping = threading.Event()
        self.opener = opener
        # The first open is not retried: a camera that is not there at the start is an
        # error in the command line, reported before serving.
        self.source = Reconnecting(self._open, backoff, sleep=self._wait_to_reconnect)
        look_again = self.read_as_photo if photo_classifier is not None else None
        self.tracker = RollTracker(
            fps=self.source.fps,
            settle_seconds=settle_seconds,
            look_again=look_again,
            stills=self.source.stills,
            clock=time.monotonic if self.source.live else None,
            could_not_read=self.could_not_read if size_hints else None,
        )
        self.readers: dict[str, DiceReader] = {}
        self.photo_readers: dict[str, DiceReader] = {}
        self.outlined = DieReadings.empty()  # the dice drawn on the live view: the latest read
        # The latest frames, for a look at the dice (``look``): a tuple, replaced whole each
        # frame, so that a look on another thread takes it as it stands
        self.recent: tuple[np.ndarray, ...] = ()
        self.target: TableGame | None = None
        # The game at the table when the dice now rolling were thrown (or the photo taken): a
        # roll goes to no game made since (``record``).
        self.thrown_in: int | None = None
        self._looked = (-1, 0.0)  # (changes generation, time) of the last look at the table
        self._next_live = 0.0

    def _open(self) -> FrameSource:
        source = self.opener()
        self.view.set_status(f"watching {source.name}")
        return source

    def _wait_to_reconnect(self, seconds: float) -> None:
        self.view.set_status(f"reconnecting to {self.source.name}…")
        self.stopping.wait(seconds)

    def watch(self, app: Flask) -> threading.Thread:
        """Start reading the table for ``app``, in a background thread."""
        app.extensions["dicescore.camera"] = self.view
        app.extensions["dicescore.classifier"] = self.classifier
        app.extensions["dicescore.look"] = self.look
        self.view.running = True
        thread = threading.Thread(target=self.run, args=(app,), name="dicescore-camera", daemon=True)
        thread.start()
        return thread

    def stop(self) -> None:
        self.stopping.set()
        self.source.end()  # a source that is away: its reconnecting ends too, not only its frames

    def run(self, app: Flask) -> None:
        ledger = Ledger.open(app.config["DATABASE"])
        status = f"{self.source.name} has ended"
        try:
            for frame in self.frames():
                if self.stopping.is_set():
                    break
                self.step(app, ledger, frame)
            if self.stopping.is_set():  # at a frame, or in a source that was away (``stop``)
                status = "stopped"
        except SourceError as error:  # a file or folder that cannot be read on: it says why
            status = f"stopped: {error}"
        except Exception as error:  # the page must say the camera stopped, not go quiet
            log.exception("the camera stopped")
            status = f"stopped: {error}"
        finally:
            ledger.close()
            self.source.close()
            self.view.stop(status)

    def frames(self) -> Iterator[np.ndarray]:
        """The source's frames; a file's at the pace it was shot, as a camera would give them."""
        started, index = time.monotonic(), 0
        for frame in self.source:
            if not self.source.live:
                index += 1
                self.stopping.wait(max(0.0, started + index / self.source.fps - time.monotonic()))
            yield frame

    def step(self, app: Flask, ledger: Ledger, frame: np.ndarray) -> None:
        self.recent = (*self.recent[1 - LOOKED_AT_FRAMES :], frame)
        target = self.table(app, ledger)

        def read() -> DieReadings:
            self.outlined = self.reader(target.die_kind).read(frame)
            return self.outlined

        # With no game to score there is no die kind to read: motion is still followed.
        was_rolling = self.tracker.rolling
        event = self.tracker.update(frame, read if target is not None else DieReadings.empty)
        if self.tracker.rolling and not was_rolling or self.tracker.stills:  # dice thrown now, or a photo
            thrown_in = self.table(app, ledger, afresh=True)  # a game made by another process too
            self.thrown_in = thrown_in.game_id if thrown_in is not None else None
        if event is None:
            self.publish(frame)
            return
        # The settled roll is drawn before it is scored, so that the live picture already
        # outlines its dice when the board shows it.
        self.outlined = event.dice
        self.publish(frame, now=True)
        self.record(app, ledger, event, self.thrown_in, seen_at(self.detector, frame, self.tracker.stills))

    def reader(self, kind: str) -> DiceReader:
        if kind not in self.readers:
            self.readers[kind] = DiceReader(kind, self.detector, self.classifier)
        return self.readers[kind]

    def read_as_photo(self, frame: np.ndarray) -> DieReadings:
        """A settled roll's frame read as ``dicescore read`` reads a photo, for its faces: it
        takes a few tenths of a second, once a roll (docs/vision.md, "The roll tracker").
        With no game at the table now (it ended as the roll settled), the vote stands."""
        if self.target is None:
            return DieReadings.empty()
        return self.photo_reader(self.target.die_kind).read(frame, still=True)

    def could_not_read(self, finds: DieReadings) -> None:
        """A settled table changed where its look read nothing surely as a die: say why a roll
        may not have been scored."""
        if self.target is not None:
            self.view.set_status(f"watching {self.source.name}; {unread_hint(self.target.die_kind)}")

    def look(self, kind: str) -> DieReadings:
        """The dice in the latest frame, read as a photo as dice of ``kind``, whatever game is
        played: how "Your dice" teaches a set shown to the camera (``webui.dice``).  The
        frames before it that show the same still table are averaged into it, as a settled
        roll's are (``vision.tracker.steady_mean``), so that the crops taught carry less of
        the camera's noise.  Read on the caller's thread; LookupError when there is no frame
        to look at."""
        frames = self.recent
        if not frames or not self.view.running:
            raise LookupError("the camera is not giving pictures now")
        return self.photo_reader(kind).read(steady_mean(list(frames)), still=True, unreadable=True)

    def photo_reader(self, kind: str) -> DiceReader:
        """The reader of a still frame as a photo: the default face model, or the camera's
        when there is none."""
        if kind not in self.photo_readers:
            photos = self.classifier.photos or self.classifier
            self.photo_readers[kind] = DiceReader(kind, self.detector, photos)
        return self.photo_readers[kind]

    def table(self, app: Flask, ledger: Ledger, afresh: bool = False) -> TableGame | None:
        """The game the camera is watching, looked up again after every append made in this
        process, every TABLE_LOOK_SECONDS, and when asked ``afresh``."""
        changes = app.extensions["dicescore.changes"]
        generation, looked_at = self._looked
        if afresh or changes.generation != generation or time.monotonic() > looked_at + TABLE_LOOK_SECONDS:
            self.target = self.find_game(app, ledger)
            self._looked = (changes.generation, time.monotonic())
        return self.target

    def find_game(self, app: Flask, ledger: Ledger) -> TableGame | None:
        target = table_game(ledger, self.kind)
        if target is None and self.start_game is not None:
            self.start_game(ledger)
            app.extensions["dicescore.changes"].notify()
            target = table_game(ledger, self.kind)
        self.view.game_id = target.game_id if target is not None else None
        if target is None:
            dice = KIND_TITLES[self.kind] if self.kind else "dice"
            self.view.set_status(f"watching {self.source.name}; start a game of {dice} to score its rolls")
        elif target.player is None:
            self.view.set_status(f"watching {self.source.name}; {waiting(target)}")
        elif self.view.status.endswith(("to score its rolls", "before a roll")):
            self.view.set_status(f"watching {self.source.name}")
        return target

    def record(
        self, app: Flask, ledger: Ledger, event: RollEvent, thrown_in: int | None, view_scale: float
    ) -> None:
        """Append a settled roll to the table's game, as its player's roll, and keep its crops;
        not when the dice were thrown in another game, or in none (``thrown_in``). How big its
        dice must be depends on how the detector saw its frame (``view_scale``, ``size_hint``)."""
        target = self.find_game(app, ledger)  # afresh: the turn may have passed since the last look
        if target is None:
            return
        if target.game_id != thrown_in:
            # dice thrown before this game began at the table: a roll of the one before, or of none
            why = f"it was thrown before game {target.game_id} began; roll again"
            log.warning("camera roll not scored: %s", why)
            self.view.set_status(f"watching {self.source.name}; the last roll was not scored: {why}")
            return
        if target.player is None:
            log.warning("camera roll not scored: %s", waiting(target))
            self.view.set_status(
                f"watching {self.source.name}; the last roll was not scored: {waiting(target)}"
            )
            return
        roll = guess_faces(event.dice, die_kind(target.die_kind), target.dice)
        try:
            stored = ledger.append(target.game_id, Event("roll", roll.data(), target.player))
        except (IllegalMove, UnknownFace) as error:
            log.warning("camera roll %s not scored: %s", " ".join(roll.faces), error)
            self.view.set_status(f"watching {self.source.name}; the last roll was not scored: {error}")
            return
        except sqlite3.Error as error:  # a full disk or a read-only file: keep watching
            log.error("camera roll %s not kept: the games database failed: %s", " ".join(roll.faces), error)
            self.view.set_status(f"watching {self.source.name}; the last roll could not be saved: {error}")
            return
        save_crops(app, target.game_id, stored.seq, roll.crops)
        hint = None
        if self.size_hints:  # the dice as big as the frame shows them, and as its quick pass sees them
            hint = size_hint(event.dice, target.die_kind, view_scale)
        self.view.set_status(f"watching {self.source.name}" + (f"; {hint}" if hint else ""))
        app.extensions["dicescore.changes"].notify()

    def publish(self, frame: np.ndarray, now: bool = False) -> None:
        """The frame with the dice outlined, as the live view's next JPEG; ``now`` skips
        the frame-rate cap (a roll that just settled)."""
        clock = time.monotonic()
        if not now and clock < self._next_live:
            return
        self._next_live = clock + LIVE_INTERVAL
        ok, jpeg = cv2.imencode(
            ".jpg", live_picture(frame, self.outlined), [cv2.IMWRITE_JPEG_QUALITY, LIVE_QUALITY]
        )
        if ok:
            self.view.publish(jpeg.tobytes())


def waiting(target: TableGame) -> str:
    return f"game {target.game_id} waits for {target.waits_for} before a roll"


def live_picture(frame: np.ndarray, dice: DieReadings) -> np.ndarray:
    """The frame shrunk to ``LIVE_WIDTH`` if wider, then the dice outlined and labelled on it:
    drawn after the shrink, so that the labels are as legible from a 1080p webcam as from a
    small frame (drawn before, they shrank with the picture: a third of their size, past
    reading on a phone)."""
    if frame.shape[1] > LIVE_WIDTH:
        shrink = LIVE_WIDTH / frame.shape[1]
        frame = cv2.resize(frame, (LIVE_WIDTH, round(frame.shape[0] * shrink)), interpolation=cv2.INTER_AREA)
        dice = dice.scaled(shrink)
    return draw(frame, dice)


class NoCamera:
    """A camera source that cannot run (a model file is missing or corrupt): the page says
    why, and the dice are entered by hand meanwhile."""

    def __init__(self, problem: str):
        self.view = LiveView(problem)

    def watch(self, app: Flask) -> None:
        app.extensions["dicescore.camera"] = self.view


def open_camera(spec: str) -> Camera | NoCamera:
    """The camera ``dicescore serve --source SRC`` names.  A source that cannot be opened
    raises SourceError (a one-line error before serving); a missing model does not."""
    opened = [open_source(spec)]  # a wrong SRC is reported first, with or without models
    try:
        detector, classifier, photos = Detector(), FaceClassifier(FAST_MODEL), FaceClassifier(DEFAULT_MODEL)
    except (DetectorFileError, ModelFileError) as error:
        opened.pop().close()
        return NoCamera(str(error))
    # The camera uses the source opened above first; a reconnection opens it anew.
    return Camera(
        lambda: opened.pop() if opened else open_source(spec), detector, classifier, photo_classifier=photos
    )


class LoopedClip(FrameSource):
    """A video file played again and again (the demo's camera)."""

    def __init__(self, path: Path):
        self.path = path
        with open_source(str(path)) as clip:
            self.name, self.fps = "the demo video", clip.fps

    def __iter__(self) -> Iterator[np.ndarray]:
        while True:
            played = False
            with open_source(str(self.path)) as clip:
                for frame in clip:
                    played = True
                    yield frame
            if not played:  # an unreadable clip must not spin
                return


def demo_camera(
    clip: Path | None = None, detector_model: Path | None = None, classifier=None
) -> Camera | None:
    """The demo clip read by the camera pipeline, as a Cubes game for three; None (with a
    log line saying why) when the clip or the detector model is missing.  A ``classifier``
    given (tests) reads the video alone: a settled roll is not read again as a photo."""
    clip = clip or vision.sources.DEMO_CLIP
    detector_model = detector_model or vision.detector.DEFAULT_MODEL
    for needed in (clip, detector_model):
        if not Path(needed).is_file():
            log.warning("the demo video needs %s, which is missing: playing seeded throws instead", needed)
            return None
    try:
        photo_classifier = None
        if classifier is None:  # the shipped models: the camera's fast one, the photo one for stills
            classifier, photo_classifier = FaceClassifier(FAST_MODEL), FaceClassifier(DEFAULT_MODEL)
        return Camera(
            lambda: LoopedClip(Path(clip)),
            Detector(detector_model),
            classifier,
            kind="cubes",
            start_game=DemoGame(),
            photo_classifier=photo_classifier,
            size_hints=False,  # nobody can move the demo's camera closer
        )
    except (DetectorFileError, ModelFileError, SourceError) as error:
        log.warning("the demo video cannot play (%s): playing seeded throws instead", error)
        return None
