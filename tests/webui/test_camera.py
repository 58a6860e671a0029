"""The camera source: synthetic frames through the real detector (a stand-in ONNX model that
always 'sees' dice at fixed places), the roll tracker and a classifier that reads a die by
its grey tone, into the ledger; the live picture; corrections that teach; the demo switch."""

import itertools
import json
import logging
import sqlite3
import threading
import time
from pathlib import Path

import cv2
import numpy as np
import pytest

import vision.detector
import vision.framing
import vision.sources
from dicescore.cli import main
from dicescore.ledger import Ledger
from scoring.faces import CUBES_DICE, DIE_KINDS, SQUARE_SHOOTERS
from scoring.game import IllegalMove
from scoring.games import GAMES
from tests.vision.test_pipeline import stand_in_detector
from tests.webui.conftest import Api, imported
from vision.detector import Detector
from vision.faces import FAST_MODEL, FaceClassifier, FaceReading
from vision.readings import DieReadings
from vision.sources import FrameSource, SourceError
from vision.tracker import RollEvent
from webui import crops
from webui.camera import Camera, LiveView, NoCamera, demo_camera, guess_faces, live_picture
from webui.crops import SharedClassifier, crop_path, save_crops
from webui.roll_sources import DemoRolls, open_roll_source, start

FELT = (40, 110, 50)  # BGR: no skin tone, so the tracker sees no hand
FPS = 100.0  # the test clips' frame rate: a file plays at its own pace, so keep them quick
GOLDEN = Path(__file__).parents[1] / "scoring" / "golden"  # whole games, one per rule sheet
SETTLE = 0.03  # three still frames settle a roll at FPS
TWO_DICE = ((4, 3, False), (10, 8, False))  # model cells; in a 640x480 frame, centres (180, 140), (420, 340)


def centre(cell):
    return (round((cell[0] + 0.5) * 40), round((cell[1] + 0.5) * 40))


def table(tones: dict) -> np.ndarray:
    """A 640x480 felt table with a square die of each grey tone at each centre."""
    frame = np.full((480, 640, 3), FELT, np.uint8)
    for (x, y), tone in tones.items():
        cv2.rectangle(frame, (x - 55, y - 55), (x + 55, y + 55), (tone, tone, tone), -1)
    return frame


def throw(tones: dict, still: int = 6) -> list[np.ndarray]:
    """An empty table, a hand-sized dark blob sweeping over it, then the dice lying still."""
    frames = [table({})] * 2
    for x in (60, 240, 420):
        moving = table({})
        cv2.rectangle(moving, (x, 150), (x + 160, 310), (20, 20, 20), -1)
        frames.append(moving)
    return frames + [table(tones)] * still


class Frames(FrameSource):
    """A clip of frames at FPS; ``begin`` and ``hold``: events it waits on before and after
    them, as a camera that watches an idle table; ``fail``: it ends with the camera unplugged."""

    def __init__(self, frames, begin=None, hold=None, fail=False, live=False, paced=False):
        self.frames, self.begin, self.hold, self.fail = frames, begin, hold, fail
        self.name, self.fps, self.live = "test camera", FPS, live
        self.paced = live or paced  # given as shot, as a camera gives them

    def __iter__(self):
        if self.begin is not None:
            self.begin.wait(10)
        for frame in self.frames:
            if self.paced:  # a file's frames are paced by the camera's reader instead
                time.sleep(1 / FPS)
            yield frame
        if self.hold is not None:
            self.hold.wait(10)
        if self.fail:
            raise SourceError("test camera stopped giving frames")


class ToneClassifier:
    """Reads a die by the grey tone at the centre of its crop (the nearest tone it knows);
    keeps what it is taught."""

    min_confidence = 0.5
    not_a_face = 0.7

    def __init__(self, faces):
        self.faces = faces  # tone -> (label or None, top-k)
        self.taught = []
        self.taught_kinds = []

    def classify(self, crops, kind, turns=(0,), second_look=False, pips=False, wider=None):
        readings = []
        for crop in crops:
            tone = min(self.faces, key=lambda known: abs(known - int(crop[32, 32, 1])))
            label, top = self.faces[tone]
            readings.append(FaceReading(label, top[0][1], top))
        return readings

    def learn(self, crop, label, kind=None):
        if any(np.array_equal(crop, known) and taught == (label, kind) for known, taught in self.lessons()):
            return set()  # taught so already
        self.taught.append((crop, label))
        self.taught_kinds.append(kind)
        return {label}

    def unlearn(self, crop, label, kind=None):
        lessons = self.lessons()
        kept = [
            i
            for i, (known, taught) in enumerate(lessons)
            if not (np.array_equal(crop, known) and taught == (label, kind))
        ]
        self.taught = [self.taught[i] for i in kept]
        self.taught_kinds = [self.taught_kinds[i] for i in kept]
        return {label} if len(kept) < len(lessons) else set()

    def lessons(self):
        return [
            (crop, (label, kind)) for (crop, label), kind in zip(self.taught, self.taught_kinds, strict=True)
        ]

    kept = 2  # examples a face keeps for a kind

    def examples_wanted(self, kind):
        kept = self.kept
        return {
            label: kept - sum(taught == (label, kind) for _, taught in self.lessons())
            for label in DIE_KINDS[kind].labels
        }

    def taught_examples(self, kind):
        return {}  # it keeps no files: "Your dice" shows no example of its lessons

    def taught_faces(self, kind):
        return sorted(
            {
                label
                for (_, label), taught in zip(self.taught, self.taught_kinds, strict=True)
                if taught == kind
            }
        )


@pytest.fixture
def pip_dice(tmp_path):
    """The stand-in detector seeing two dice, and a classifier reading them as 3 and 5."""
    detector = Detector(stand_in_detector(tmp_path / "detector.onnx", TWO_DICE))
    tones = {centre(TWO_DICE[0]): 200, centre(TWO_DICE[1]): 150}
    classifier = ToneClassifier({200: ("3", [("3", 0.9), ("2", 0.05)]), 150: ("5", [("5", 0.8), ("6", 0.1)])})
    return detector, classifier, tones


def events(api, game_id):
    return api.client.get(f"/api/games/{game_id}/events").json["events"]


def crop_tone(app, game_id, roll, die):
    crop = cv2.imread(f"{app.config['CROPS']}/{game_id}-{roll}-{die}.png", cv2.IMREAD_COLOR)
    return crop, int(crop[32, 32, 1])


def test_a_settled_roll_is_scored_with_the_guesses_and_the_crops_kept(app, api, pip_dice):
    detector, classifier, tones = pip_dice
    game_id = api.new_game()  # the pip race: two d6 a roll
    roller = api.view(game_id)["turn"]
    camera = Camera(lambda: Frames(throw(tones)), detector, classifier, settle_seconds=SETTLE)
    camera.watch(app).join(timeout=10)

    roll = events(api, game_id)[-1]
    assert roll["type"] == "roll" and roll["player"] == roller
    assert sorted(roll["faces"]) == ["3", "5"] and roll["unsure"] == []
    assert api.view(game_id)["totals"][roller] == 8
    read_as = {200: "3", 150: "5"}
    for die, face in enumerate(roll["faces"]):
        crop, tone = crop_tone(app, game_id, roll["seq"], die)
        assert crop.shape == (64, 64, 3) and read_as[tone] == face  # each crop is its own die's face
    assert roll["top"][roll["faces"].index("3")] == [["3", 0.9], ["2", 0.05]]
    assert app.extensions["dicescore.camera"].status == "test camera has ended"


def test_a_folder_of_photos_scores_each_photo_as_a_roll(app, api, pip_dice):
    detector, classifier, tones = pip_dice
    game_id = api.new_game()
    photos = Frames([throw(tones)[-1]])  # one photo of the dice at rest, as a folder gives it
    photos.stills = True
    Camera(lambda: photos, detector, classifier, settle_seconds=SETTLE).watch(app).join(timeout=10)
    assert sorted(events(api, game_id)[-1]["faces"]) == ["3", "5"]


@pytest.mark.parametrize("photos", [False, True])
def test_only_a_video_frames_dice_must_be_bigger_in_a_bigger_frame(app, api, pip_dice, monkeypatch, photos):
    # the stand-in detector sees a 640x480 frame at a tenth: its 120-px dice are 12 px to a
    # video frame's quick pass, here a pixel under what it finds well; but a folder's photos
    # are searched at every scale, and they read well from 18 px
    monkeypatch.setitem(vision.framing.FINDABLE_SIDE_PX, "d6", 13)
    said = []
    set_status = LiveView.set_status
    noted = lambda view, text: said.append(text) or set_status(view, text)  # noqa: E731
    monkeypatch.setattr(LiveView, "set_status", noted)
    detector, classifier, tones = pip_dice
    game_id = api.new_game()
    frames = Frames([throw(tones)[-1]] if photos else throw(tones))
    frames.stills = photos
    Camera(lambda: frames, detector, classifier, settle_seconds=SETTLE).watch(app).join(timeout=10)
    assert sorted(events(api, game_id)[-1]["faces"]) == ["3", "5"]
    hinted = [text for text in said if "look small" in text]
    assert (hinted == []) == photos
    wanted = "about 120 px across; pip dice read best from 130 px in pictures this size"
    assert all(wanted in text for text in hinted)


class PhotoToneClassifier(ToneClassifier):
    """A tone reader that names the faces otherwise, as the default model may read a settled
    roll better than the camera's: and counts how often it reloads its taught examples."""

    reloads = ()

    def reload_learned(self, labels):
        self.reloads += (labels,)


def test_a_settled_roll_is_named_by_the_photo_reading_and_a_tap_teaches_both(app, api, pip_dice, monkeypatch):
    detector, classifier, tones = pip_dice
    # read under SURE_LOOK: the stand-in detector "finds" its two dice anew in each of a photo
    # search's passes, dozens of places, which a sure look would add to the roll
    photos = PhotoToneClassifier({200: ("4", [("4", 0.9)]), 150: ("6", [("6", 0.92)])})
    looks = []
    read_as_photo = Camera.read_as_photo
    monkeypatch.setattr(
        Camera, "read_as_photo", lambda self, frame: looks.append(1) or read_as_photo(self, frame)
    )
    game_id = api.new_game()
    Camera(
        lambda: Frames(throw(tones)), detector, classifier, settle_seconds=SETTLE, photo_classifier=photos
    ).watch(app).join(10)
    roll = events(api, game_id)[-1]
    assert looks == [1]  # once, for the one roll
    assert sorted(roll["faces"]) == ["4", "6"]
    assert roll["top"][roll["faces"].index("6")] == [["6", 0.92]]

    camera = Camera(lambda: Frames([]), detector, classifier, photo_classifier=photos)
    assert len(camera.read_as_photo(table(tones))) == 0  # no game at the table: the vote stands

    four = roll["faces"].index("4")
    fixed = [("3" if die == four else face) for die, face in enumerate(roll["faces"])]
    assert api.move(game_id, "correct", roll=roll["seq"], faces=fixed).status_code == 201
    assert [label for _, label in classifier.taught] == ["3"] and photos.reloads == ({"3"},)


def test_the_live_picture_is_an_mjpeg_stream_of_the_dice_outlined(app, api, pip_dice):
    detector, classifier, tones = pip_dice
    game_id = api.new_game()
    hold = threading.Event()
    camera = Camera(lambda: Frames(throw(tones), hold=hold), detector, classifier, settle_seconds=SETTLE)
    thread = camera.watch(app)
    try:
        deadline = time.monotonic() + 30  # generous: a loaded CI machine is slow to start
        while len(events(api, game_id)) < 3 and time.monotonic() < deadline:
            time.sleep(0.02)
        assert events(api, game_id)[-1]["type"] == "roll", "the camera scored no roll"
        page = api.client.get(f"/games/{game_id}").get_data(as_text=True)
        assert 'id="live" data-src="/live.mjpg"' in page and "camera: watching test camera" in page
        assert api.client.get("/api/camera").json == {"status": "watching test camera", "running": True}
        # the front page shows the picture too, and names the game it scores, one tap away
        front = api.client.get("/").get_data(as_text=True)
        assert 'id="live" data-src="/live.mjpg"' in front
        assert f'The camera is scoring <a href="/games/{game_id}">' in front

        response = api.client.get("/live.mjpg")
        assert response.status_code == 200
        assert response.mimetype == "multipart/x-mixed-replace"
        part = next(iter(response.response))
        response.close()
    finally:
        hold.set()
        thread.join(timeout=10)
    page = api.client.get(f"/games/{game_id}").get_data(as_text=True)
    assert 'id="live"' not in page and "camera: test camera has ended" in page  # no picture once it stops
    front = api.client.get("/").get_data(as_text=True)
    assert 'id="live"' not in front and "camera: test camera has ended" in front
    assert "The camera is scoring" not in front
    head, jpeg = part.split(b"\r\n\r\n", 1)
    assert head.startswith(b"--frame\r\nContent-Type: image/jpeg")
    picture = cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)
    assert picture.shape == (480, 640, 3)
    # The settled roll is drawn: each die's top face outlined in green (a read label).
    for x, y in tones:
        edge = picture[y - 3 : y + 4, x - 62 : x - 57].astype(int)  # the left side of the quad
        assert ((edge[..., 1] > 150) & (edge[..., 2] < 100)).any()


def live_picture_of_one_die(width: int) -> np.ndarray:
    """The live picture of a felt table with one die read QS, from a camera ``width`` px wide."""
    scale = width / 640
    frame = np.full((round(480 * scale), width, 3), FELT, np.uint8)
    quad = np.float32([[200, 200], [300, 200], [300, 300], [200, 300]]) * scale
    die = DieReadings.from_quads(quad[None]).with_faces([FaceReading("QS", 0.97, [("QS", 0.97)])])
    return live_picture(frame, die)


def green(pixels: np.ndarray) -> np.ndarray:
    return (pixels[..., 1] > 150) & (pixels[..., 2] < 100) & (pixels[..., 0] < 100)


@pytest.mark.parametrize("width", [1280, 1920])
def test_the_live_picture_labels_read_alike_from_any_camera_resolution(width):
    picture, small = live_picture_of_one_die(width), live_picture_of_one_die(640)
    assert picture.shape == small.shape == (480, 640, 3)  # shrunk to LIVE_WIDTH
    above = (slice(150, 200), slice(190, 320))  # where the die's label is written
    # as many label pixels as from a 640-px camera (drawn before the shrink: 55% at 1280, none at 1920)
    assert green(picture[above]).sum() == pytest.approx(green(small[above]).sum(), rel=0.2)
    assert green(picture[245:255, 197:203]).any()  # the outline where the shrunk frame has the die


def a_camera_roll(app, api, pip_dice):
    """A pip race whose first roll the camera reads (3 and 5): the game's id and that roll."""
    detector, classifier, tones = pip_dice
    game_id = api.new_game()
    Camera(lambda: Frames(throw(tones)), detector, classifier, settle_seconds=SETTLE).watch(app).join(10)
    return game_id, events(api, game_id)[-1]


def test_a_correction_teaches_the_classifier_each_changed_die_from_its_crop(app, api, pip_dice):
    _, classifier, _ = pip_dice
    game_id, roll = a_camera_roll(app, api, pip_dice)
    five = roll["faces"].index("5")

    fixed = [("6" if die == five else face) for die, face in enumerate(roll["faces"])]
    assert api.move(game_id, "correct", roll=roll["seq"], faces=fixed).status_code == 201
    ((crop, label),) = classifier.taught
    saved, tone = crop_tone(app, game_id, roll["seq"], five)
    assert label == "6" and tone == 150 and np.array_equal(crop, saved)
    assert classifier.taught_kinds == ["d6"]  # the game's dice: taps on one kind make its set

    # A second correction of the roll names every die again, but teaches only the one it changes.
    api.move(game_id, "correct", roll=roll["seq"], faces=["1" if face == "3" else face for face in fixed])
    assert [label for _, label in classifier.taught] == ["6", "1"]
    assert crop_tone(app, game_id, roll["seq"], 1 - five)[1] == 200
    assert np.array_equal(classifier.taught[1][0], crop_tone(app, game_id, roll["seq"], 1 - five)[0])


def test_undoing_a_correction_takes_back_what_it_taught(app, api, pip_dice):
    """A tap on the wrong face, undone, must not go on reading other dice as that face."""
    _, classifier, _ = pip_dice
    game_id, roll = a_camera_roll(app, api, pip_dice)
    fixed = ["5" if face == "3" else face for face in roll["faces"]]
    assert api.move(game_id, "correct", roll=roll["seq"], faces=fixed).json["lesson"] == {
        "learnt": ["5"],
        "failed": [],
    }
    assert [label for _, label in classifier.taught] == ["5"]
    undone = api.move(game_id, "undo")
    assert undone.status_code == 201 and undone.json["lesson"] == {"taken_back": ["5"], "failed": []}
    assert classifier.taught == [] and api.view(game_id)["totals"][roll["player"]] == 8

    # an undo of another move (the roll itself) takes back nothing
    api.move(game_id, "correct", roll=roll["seq"], faces=["6", "6"])
    assert sorted(label for _, label in classifier.taught) == ["6", "6"]
    api.roll(game_id, "1", "2")
    undone = api.move(game_id, "undo")
    assert undone.status_code == 201 and "lesson" not in undone.json
    assert sorted(label for _, label in classifier.taught) == ["6", "6"]


def test_an_undo_from_another_device_waits_for_the_lesson_of_the_correction_it_undoes(
    app, api, pip_dice, monkeypatch
):
    """A correction is stored, then taught: an undo sent from a second phone in between took
    back nothing (nothing taught yet), and the wrong tap's lesson then stayed for good."""
    _, classifier, _ = pip_dice
    game_id, roll = a_camera_roll(app, api, pip_dice)
    stored, teach = threading.Event(), crops.teach

    def slow_teach(*args):
        stored.set()  # the correction is in the log; its lesson comes a moment later
        time.sleep(0.3)
        return teach(*args)

    monkeypatch.setattr(crops, "teach", slow_teach)
    fixed = ["5" if face == "3" else face for face in roll["faces"]]
    correcting = threading.Thread(target=lambda: api.move(game_id, "correct", roll=roll["seq"], faces=fixed))
    correcting.start()
    assert stored.wait(10)
    second_phone = Api(app.test_client())
    undone = second_phone.move(game_id, "undo")
    correcting.join(10)
    assert undone.status_code == 201 and undone.json["lesson"] == {"taken_back": ["5"], "failed": []}
    assert classifier.taught == []


def test_an_undo_takes_back_only_the_lessons_the_log_no_longer_stands_by(app, api, pip_dice):
    """Undoing a correction took back lessons it had not made: a guess it checked that a
    vouched-for roll had taught, and an earlier correction's, which still stands."""
    _, classifier, _ = pip_dice
    game_id, roll = a_camera_roll(app, api, pip_dice)
    assert api.post(f"/api/games/{game_id}/rolls/{roll['seq']}/teach").status_code == 200
    vouched = sorted(label for _, label in classifier.taught)
    checked = api.move(game_id, "correct", roll=roll["seq"], faces=roll["faces"], checked=[0])
    assert "lesson" not in checked.json  # taught so already: nothing new to tell
    assert "lesson" not in api.move(game_id, "undo").json
    assert sorted(label for _, label in classifier.taught) == vouched

    three = roll["faces"].index("3")
    first = ["2" if die == three else face for die, face in enumerate(roll["faces"])]
    api.move(game_id, "correct", roll=roll["seq"], faces=first)
    api.move(game_id, "correct", roll=roll["seq"], faces=["6" if face == "2" else face for face in first])
    assert api.move(game_id, "undo").json["lesson"] == {"taken_back": ["6"], "failed": []}
    die = crop_tone(app, game_id, roll["seq"], three)[0]
    lessons = [label for crop, label in classifier.taught if np.array_equal(crop, die)]
    assert lessons == ["3", "2"]  # the vouched 3, and the first correction's 2, which stands


def test_undoing_a_second_correction_teaches_the_first_again_to_the_real_classifier(app, api, tmp_path):
    """The real classifier keeps a crop as one face: tapping 3 -> 2, then 2 -> 6, moves the
    crop's example from 2 to 6, so undoing the second tap must teach 2 again (the stand-in
    classifier above keeps a crop as several faces, and cannot show this)."""
    model = FaceClassifier(FAST_MODEL, data_dir=tmp_path / "learned")
    app.extensions["dicescore.classifier"] = SharedClassifier(model)
    game_id = api.new_game()
    roll = api.roll(game_id, "3", "4").json["event"]["seq"]
    for die in (0, 1):
        path = crop_path(app, game_id, roll, die)
        path.parent.mkdir(parents=True, exist_ok=True)
        cv2.imwrite(str(path), np.full((64, 64, 3), 60 + 100 * die, np.uint8))
    api.move(game_id, "correct", roll=roll, faces=["2", "4"])
    api.move(game_id, "correct", roll=roll, faces=["6", "4"])
    assert {face: len(paths) for face, paths in model.taught_examples("d6").items()} == {"6": 1}
    assert api.move(game_id, "undo").json["lesson"] == {"taken_back": ["6"], "failed": []}
    assert {face: len(paths) for face, paths in model.taught_examples("d6").items()} == {"2": 1}


def test_a_camera_that_stops_lets_go_of_its_source(app, pip_dice):
    # camera.py self.source.close() dropped: the webcam (cv2.VideoCapture) was left open,
    # busy to any other program, after the camera stopped
    detector, classifier, tones = pip_dice
    closed = []

    class Closing(Frames):
        def close(self):
            closed.append(self.name)

    camera = Camera(lambda: Closing(throw(tones)), detector, classifier, settle_seconds=SETTLE)
    camera.watch(app).join(timeout=10)
    assert closed == ["test camera"]


def test_a_classifier_that_fails_to_learn_does_not_fail_the_correction(app, api, pip_dice, caplog):
    detector, classifier, tones = pip_dice
    game_id = api.new_game()
    camera = Camera(lambda: Frames(throw(tones)), detector, classifier, settle_seconds=SETTLE)
    camera.watch(app).join(10)
    roll = events(api, game_id)[-1]

    def broken(crop, label, kind=None):
        raise OSError("disk full")

    classifier.learn = broken
    response = api.move(game_id, "correct", roll=roll["seq"], faces=["6", "6"])
    assert response.status_code == 201 and response.json["lesson"] == {"learnt": [], "failed": ["6", "6"]}
    assert api.view(game_id)["totals"][roll["player"]] == 12
    assert "could not learn it as 6" in caplog.text and "disk full" in caplog.text


def test_a_roll_of_dice_small_in_the_picture_asks_for_the_camera_closer(app, api, pip_dice):
    detector, classifier, _ = pip_dice
    game_id = api.new_game()  # the pip race: two d6 a roll
    camera = Camera(lambda: Frames([]), detector, classifier)
    squares = [[[x, 100], [x + 10, 100], [x + 10, 110], [x, 110]] for x in (100, 200)]
    small = DieReadings.from_quads(squares).with_faces(
        [FaceReading("3", 0.9, [("3", 0.9)]), FaceReading("5", 0.8, [("5", 0.8)])]
    )
    ledger = Ledger.open(app.config["DATABASE"])
    try:
        # a frame the size of the detector's view: as big as the frame shows them, the dice
        # are as big as its quick pass sees them
        camera.record(app, ledger, RollEvent(small, frame=10, seconds=0.1), thrown_in=game_id, view_scale=1.0)
        assert events(api, game_id)[-1]["faces"] == ["3", "5"]  # scored all the same
        assert camera.view.status == (
            "watching test camera; the dice look small to the camera (top faces about 10 px across;"
            " pip dice read best from 18 px): move the camera closer or zoom in"
        )
        # in a frame ten times the view (a 640 x 480 one, to the stand-in's 64 x 48), the pass
        # sees them ten times smaller
        camera.record(app, ledger, RollEvent(small, frame=20, seconds=0.2), thrown_in=game_id, view_scale=0.1)
        assert camera.view.status.endswith(
            "pip dice read best from 120 px in pictures this size): move the camera closer or zoom in"
        )
    finally:
        ledger.close()


def test_a_roll_vouched_for_teaches_each_face_not_yet_taught_as_it_reads_now(app, api, pip_dice):
    _, classifier, _ = pip_dice
    game_id, roll = a_camera_roll(app, api, pip_dice)
    five = roll["faces"].index("5")
    fixed = ["6" if face == "5" else face for face in roll["faces"]]
    api.move(game_id, "correct", roll=roll["seq"], faces=fixed)  # teaches the 6
    log_before = events(api, game_id)

    response = api.post(f"/api/games/{game_id}/rolls/{roll['seq']}/teach")
    assert response.status_code == 200
    assert response.json == {"roll": roll["seq"], "taught": 1, "saved": 2, "known": 2, "faces": 6}
    # the die read right is taught now too; the 6 was taught by the correction
    assert [label for _, label in classifier.taught] == ["6", "3"]
    assert classifier.taught_kinds == ["d6", "d6"]
    assert np.array_equal(classifier.taught[1][0], crop_tone(app, game_id, roll["seq"], 1 - five)[0])
    assert events(api, game_id) == log_before  # teaching is not a move of the game
    # vouched again: every face it shows is known
    assert api.post(f"/api/games/{game_id}/rolls/{roll['seq']}/teach").json["taught"] == 0
    assert len(classifier.taught) == 2


def test_a_roll_the_classifier_fails_to_learn_says_so(app, api, pip_dice, caplog):
    _, classifier, _ = pip_dice
    game_id, roll = a_camera_roll(app, api, pip_dice)

    def broken(crop, label, kind=None):
        raise OSError("disk full")

    classifier.learn = broken
    response = api.post(f"/api/games/{game_id}/rolls/{roll['seq']}/teach")
    assert response.status_code == 500
    assert (
        response.json["error"]
        == f"the camera could not learn 2 of roll #{roll['seq']}'s dice (its log says why)"
    )
    assert "disk full" in caplog.text


def test_a_vouched_roll_teaches_a_face_as_many_times_as_examples_are_kept(app, api, pip_dice):
    detector, _, tones = pip_dice
    threes = ToneClassifier({200: ("3", [("3", 0.9)]), 150: ("3", [("3", 0.9)])})
    threes.kept = 1
    game_id, roll = a_camera_roll(app, api, (detector, threes, tones))
    assert roll["faces"] == ["3", "3"]
    teach = f"/api/games/{game_id}/rolls/{roll['seq']}/teach"
    assert api.post(teach).json == {"roll": roll["seq"], "taught": 1, "saved": 2, "known": 1, "faces": 6}
    assert [label for _, label in threes.taught] == ["3"]
    threes.kept = 2  # room for one more: the first die's crop is taught already, the second's is new
    assert api.post(teach).json["taught"] == 1
    assert len(threes.taught) == 2 and not np.array_equal(threes.taught[0][0], threes.taught[1][0])
    assert api.post(teach).json["taught"] == 0


def test_a_vouched_roll_of_two_dice_alike_teaches_both_where_two_examples_are_kept(app, api, pip_dice):
    detector, _, tones = pip_dice
    threes = ToneClassifier({200: ("3", [("3", 0.9)]), 150: ("3", [("3", 0.9)])})  # keeps 2 a face
    game_id, roll = a_camera_roll(app, api, (detector, threes, tones))
    assert roll["faces"] == ["3", "3"]
    response = api.post(f"/api/games/{game_id}/rolls/{roll['seq']}/teach")
    assert response.json == {"roll": roll["seq"], "taught": 2, "saved": 2, "known": 1, "faces": 6}
    assert [label for _, label in threes.taught] == ["3", "3"]


def test_a_face_corrected_in_another_spelling_is_taught_as_that_face(app, api):
    # the rules take "cubes" for CUBES; teaching the roll looked the spelling up and failed
    # with a 404 that said only 'cubes'
    classifier = ToneClassifier({200: ("1", [("1", 0.9)])})
    app.extensions["dicescore.classifier"] = SharedClassifier(classifier)
    game_id = api.new_game("cubes", ["Ana", "Bo"])
    faces = ["1", "2", "3", "4", "5", "6"]
    seq = api.move(game_id, "roll", "Ana", faces=faces, top=[[[face, 0.9]] for face in faces]).json["event"][
        "seq"
    ]
    save_crops(app, game_id, seq, [np.full((64, 64, 3), 200, np.uint8)])
    assert api.move(game_id, "correct", roll=seq, faces=["cubes", *faces[1:]]).status_code == 201
    assert [label for _, label in classifier.taught] == ["CUBES"]
    response = api.post(f"/api/games/{game_id}/rolls/{seq}/teach")
    assert response.status_code == 200  # the crop is known as CUBES already: taught once
    assert response.json == {"roll": seq, "taught": 0, "saved": 1, "known": 1, "faces": 8}


def test_teaching_a_roll_that_is_not_there_is_refused_by_name(app, api, pip_dice):
    detector, classifier, tones = pip_dice
    game_id = api.new_game()
    by_hand = api.roll(game_id, "2", "3").json["event"]["seq"]
    response = api.post(f"/api/games/{game_id}/rolls/{by_hand}/teach")
    assert response.status_code == 404
    assert response.json["error"] == f"roll #{by_hand} has no dice the camera saw: there is nothing to teach"
    response = api.post(f"/api/games/{game_id}/rolls/99/teach")
    assert response.status_code == 404
    assert response.json["error"] == "there is no roll #99 of dice in this game"
    assert api.post(f"/api/games/{game_id + 1}/rolls/1/teach").status_code == 404
    assert classifier.taught == []


def test_a_roll_entered_by_hand_teaches_nothing_and_loads_no_model(app, api):
    game_id = api.new_game()
    roll = api.roll(game_id, "2", "3").json["event"]
    corrected = api.move(game_id, "correct", roll=roll["seq"], faces=["2", "4"])
    assert corrected.status_code == 201 and "lesson" not in corrected.json  # nothing to tell
    assert api.move(game_id, "undo").status_code == 201
    assert "dicescore.classifier" not in app.extensions


def five_cubes(tmp_path):
    """The stand-in detector seeing five of Cubes' six dice, one of them unreadable."""
    cells = ((2, 2, False), (6, 2, False), (10, 2, False), (2, 8, False), (6, 8, False))
    detector = Detector(stand_in_detector(tmp_path / "five.onnx", cells))
    tones = {centre(cell): tone for cell, tone in zip(cells, (60, 100, 140, 180, 220), strict=True)}
    classifier = ToneClassifier(
        {
            60: ("1", [("1", 0.9)]),
            100: ("2", [("2", 0.9)]),
            140: ("CUBES", [("CUBES", 0.9)]),
            180: ("4", [("4", 0.9)]),
            220: (None, [("BLANK", 0.3), ("2", 0.2)]),  # unreadable: its likeliest face stands in
        }
    )
    return detector, classifier, tones


def test_a_roll_read_in_part_is_recorded_whole_with_the_guesses_marked(app, api, tmp_path):
    detector, classifier, tones = five_cubes(tmp_path)
    game_id = api.new_game("cubes", ("Ana", "Bo"))
    Camera(lambda: Frames(throw(tones)), detector, classifier, settle_seconds=SETTLE).watch(app).join(10)

    roll = events(api, game_id)[-1]
    assert roll["type"] == "roll" and len(roll["faces"]) == CUBES_DICE.dice
    unreadable = [die for die in range(5) if crop_tone(app, game_id, roll["seq"], die)[1] == 220][0]
    assert roll["faces"][unreadable] == "BLANK" and roll["faces"][5] == "CUBES"  # the kind's first face
    assert roll["unsure"] == sorted([unreadable, 5]) and roll["top"][5] == []
    board = api.client.get(f"/games/{game_id}/board").json["html"]
    assert board.count("(a guess: tap to check it)") == 2 and "unsure-note" in board

    # A fixed guess loses its mark; the other guess keeps it until it is fixed too.
    faces = roll["faces"][:5] + ["6"]
    assert api.move(game_id, "correct", roll=roll["seq"], faces=faces).status_code == 201
    assert events(api, game_id)[-2]["unsure"] == [unreadable]
    faces[unreadable] = "2"
    assert api.move(game_id, "correct", roll=roll["seq"], faces=faces).status_code == 201
    assert "(a guess" not in api.client.get(f"/games/{game_id}/board").json["html"]


def test_card_dice_are_read_each_card_once_by_the_camera_and_its_photo_look(app, api, pip_dice):
    # Square Shooters prints each card once: the reader keeps each card once with the
    # classifier's confidence floor, which the camera's shared classifiers must give it
    detector, _, tones = pip_dice
    cards = ToneClassifier(
        {200: ("AS", [("AS", 0.9), ("KS", 0.05)]), 150: ("AS", [("AS", 0.6), ("QH", 0.3)])}
    )
    photos = PhotoToneClassifier({200: ("AS", [("AS", 0.95)]), 150: ("AS", [("AS", 0.7), ("QH", 0.25)])})
    game_id = api.new_game("square-shooters/shootout", ("Ana", "Bo"))
    camera = Camera(
        lambda: Frames(throw(tones)), detector, cards, settle_seconds=SETTLE, photo_classifier=photos
    )
    camera.watch(app).join(10)
    assert camera.view.status == "test camera has ended"  # not stopped by an error
    roll = events(api, game_id)[-1]
    assert roll["type"] == "roll" and len(roll["faces"]) == SQUARE_SHOOTERS.dice
    assert roll["faces"].count("AS") == 1 and "QH" in roll["faces"]  # the less sure AS is the QH


def test_a_leaning_die_is_marked_on_the_page_until_its_face_is_corrected(app, api, tmp_path):
    cells = ((2, 2, False), (6, 2, True), (10, 2, False), (2, 8, False), (6, 8, False), (10, 8, False))
    detector = Detector(stand_in_detector(tmp_path / "six.onnx", cells))
    tones = {centre(cell): tone for cell, tone in zip(cells, (60, 100, 140, 180, 220, 250), strict=True)}
    faces = dict(zip((60, 100, 140, 180, 220, 250), ("1", "2", "3", "4", "5", "6"), strict=True))
    classifier = ToneClassifier({tone: (face, [(face, 0.9)]) for tone, face in faces.items()})
    game_id = api.new_game("cubes", ("Ana", "Bo"))
    Camera(lambda: Frames(throw(tones)), detector, classifier, settle_seconds=SETTLE).watch(app).join(10)

    roll = events(api, game_id)[-1]
    leaning = roll["faces"].index("2")  # the die of the cell the stand-in detector flags
    assert roll["cocked"] == [leaning] and roll["unsure"] == []
    board = api.client.get(f"/games/{game_id}/board").json["html"]
    assert board.count("(leaning on something)") == 1 and "cocked-note" in board

    fixed = list(roll["faces"])
    fixed[leaning] = "BLANK"
    assert api.move(game_id, "correct", roll=roll["seq"], faces=fixed).status_code == 201
    board = api.client.get(f"/games/{game_id}/board").json["html"]
    assert "(leaning on something)" not in board and "cocked-note" not in board


def readings(faces, scores=None, cocked=None):
    """Dice in a row, read as ``faces`` (FaceReadings), with the detector's ``scores`` and
    ``cocked`` flags."""
    quads = [[[x, 0], [x + 10, 0], [x + 10, 10], [x, 10]] for x in range(0, 20 * len(faces), 20)]
    return DieReadings.from_quads(quads, scores, cocked).with_faces(faces)


def test_card_dice_never_take_the_same_card_twice():
    dice = readings(
        [
            FaceReading("AS", 0.6, [("AS", 0.6), ("AH", 0.3)]),
            FaceReading("AS", 0.9, [("AS", 0.9)]),
            FaceReading("KH", 0.8, [("KH", 0.8)]),
        ]
    )
    roll = guess_faces(dice, SQUARE_SHOOTERS, 3)
    assert roll.faces == ["AH", "AS", "KH"] and roll.unsure == [0]


def test_more_dice_than_the_game_rolls_keeps_those_most_like_dice():
    dice = readings([FaceReading(label, 0.9, [(label, 0.9)]) for label in "123"], scores=[0.9, 0.45, 0.8])
    roll = guess_faces(dice, CUBES_DICE, 2)
    assert roll.faces == ["1", "3"] and roll.unsure == []


def test_leaning_dice_are_numbered_as_recorded_after_extra_finds_are_dropped():
    faces = [FaceReading(label, 0.9, [(label, 0.9)]) for label in "123"]
    dice = readings(faces, scores=[0.9, 0.45, 0.8], cocked=[False, False, True])
    roll = guess_faces(dice, CUBES_DICE, 2)
    assert roll.faces == ["1", "3"] and roll.cocked == [1]
    assert roll.data()["cocked"] == [1] and "cocked" not in guess_faces(dice[:2], CUBES_DICE, 2).data()


def test_a_camera_that_goes_away_is_reconnected(app, api, pip_dice):
    detector, classifier, tones = pip_dice
    game_id = api.new_game()
    frames = throw(tones)
    # the camera back: its frames as shot, then the end of the test's clip
    sources = [Frames(frames[:5], fail=True, live=True), Frames(frames[5:], paced=True)]
    statuses = []  # the status while each source after the first is opened

    def reopen():
        if len(sources) < 2:
            statuses.append(camera.view.status)
        return sources.pop(0)

    camera = Camera(reopen, detector, classifier, settle_seconds=SETTLE, backoff=(0.01,))
    camera.watch(app).join(timeout=10)
    assert statuses == ["reconnecting to test camera…"]
    assert sorted(events(api, game_id)[-1]["faces"]) == ["3", "5"]


def test_a_camera_stopped_while_its_source_is_away_stops(app, pip_dice):
    # stopped while reconnecting, it tried to reopen its camera without end
    detector, classifier, tones = pip_dice
    tries = []

    def reopen():
        tries.append(1)
        if len(tries) == 1:
            return Frames(throw(tones)[:2], fail=True, live=True)
        raise SourceError("cannot open camera 0 (is it plugged in?)")

    camera = Camera(reopen, detector, classifier, settle_seconds=SETTLE, backoff=(0.01,))
    thread = camera.watch(app)
    deadline = time.monotonic() + 30  # a camera thread that died never tries again: fail, not hang
    while len(tries) < 3 and time.monotonic() < deadline:  # away, and being tried again
        time.sleep(0.01)
    assert len(tries) >= 3
    camera.stop()
    thread.join(timeout=5)
    assert not thread.is_alive() and camera.view.status == "stopped"


def test_a_missing_detector_model_is_said_on_the_page_not_raised(app, api, tmp_path, monkeypatch):
    monkeypatch.setattr(vision.detector, "DEFAULT_MODEL", tmp_path / "detector.onnx")
    (tmp_path / "shots").mkdir()
    cv2.imwrite(str(tmp_path / "shots" / "1.png"), table({}))
    source = open_roll_source(str(tmp_path / "shots"))
    assert isinstance(source, NoCamera)
    assert start(app, source) is None

    status = api.client.get("/api/camera").json
    assert status["running"] is False
    assert "detector model file not found" in status["status"] and "models.train_detector" in status["status"]
    game_id = api.new_game()
    page = api.client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "camera: detector model file not found" in page and 'id="live"' not in page
    assert api.client.get("/live.mjpg").status_code == 404


def test_a_camera_that_cannot_be_opened_is_a_one_line_error(tmp_path, capsys):
    database, missing = str(tmp_path / "games.sqlite"), str(tmp_path / "none.mp4")
    assert main(["serve", "--db", database, "--source", missing]) == 2
    error = capsys.readouterr().err.strip()
    assert error.startswith("dicescore serve: error: no such file or folder:") and "\n" not in error


def test_the_demo_plays_seeded_throws_without_its_video(tmp_path, monkeypatch, caplog):
    caplog.set_level(logging.WARNING)
    assert demo_camera(clip=tmp_path / "demo.mp4") is None
    assert "the demo video needs" in caplog.text and "demo.mp4, which is missing" in caplog.text

    monkeypatch.setattr(vision.sources, "DEMO_CLIP", tmp_path / "demo.mp4")
    assert isinstance(open_roll_source("demo"), DemoRolls)


def demo_clip(path, frames):
    """A stand-in for the demo video: ``frames`` written as an MP4 at 40 fps."""
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"mp4v"), 40, (640, 480))
    for frame in frames:
        writer.write(frame)
    writer.release()
    return path


def test_the_demo_video_is_read_by_the_camera_as_a_cubes_game_for_three(app, tmp_path):
    cells = ((2, 2, False), (6, 2, False), (10, 2, False), (2, 8, False), (6, 8, False), (10, 8, False))
    labels = ("1", "2", "3", "4", "5", "CUBES")
    tones = {centre(cell): 40 * (i + 1) for i, cell in enumerate(cells)}
    classifier = ToneClassifier({40 * (i + 1): (label, [(label, 0.9)]) for i, label in enumerate(labels)})
    clip = demo_clip(tmp_path / "demo.mp4", throw(tones, still=15))

    camera = demo_camera(clip, stand_in_detector(tmp_path / "six.onnx", cells), classifier)
    thread = camera.watch(app)
    api = Api(app.test_client())
    try:
        deadline = time.monotonic() + 30  # generous: a loaded CI machine is slow to start
        while time.monotonic() < deadline:
            games = api.client.get("/api/games").json["games"]
            if games and len(events(api, games[0]["id"])) > 1:
                break
            time.sleep(0.05)
    finally:
        camera.stop()
        thread.join(timeout=10)
    (game,) = games
    assert game["game"] == "cubes" and game["players"] == ["Ana", "Bo", "Cy"]
    roll = events(api, game["id"])[1]
    assert roll["player"] == "Ana" and sorted(roll["faces"]) == sorted(labels) and roll["unsure"] == []


def test_once_the_demo_game_ends_the_demo_asks_for_a_cubes_game(app, tmp_path):
    clip = demo_clip(tmp_path / "demo.mp4", throw({}))
    camera = demo_camera(clip, stand_in_detector(tmp_path / "none.onnx", ()), ToneClassifier({}))
    api = Api(app.test_client())
    ledger = Ledger.open(app.config["DATABASE"])
    try:
        demo = camera.find_game(app, ledger).game_id
        while not api.view(demo)["finished"]:  # CUBES and five blanks: the others pay 5 each
            assert api.roll(demo, "CUBES", *["BLANK"] * 5).status_code == 201
        assert camera.find_game(app, ledger) is None
        assert len(ledger.games()) == 1  # the demo starts no second game of its own
    finally:
        ledger.close()
    assert camera.view.status == "watching the demo video; start a game of Cubes dice to score its rolls"


def test_the_demo_never_asks_for_its_camera_closer(app, tmp_path):
    clip = demo_clip(tmp_path / "demo.mp4", throw({}))
    classifier = ToneClassifier({})
    camera = demo_camera(clip, stand_in_detector(tmp_path / "none.onnx", ()), classifier)
    squares = [[[x, 100], [x + 10, 100], [x + 10, 110], [x, 110]] for x in range(100, 700, 100)]
    small = DieReadings.from_quads(squares).with_faces([FaceReading("2", 0.9, [("2", 0.9)])] * 6)
    ledger = Ledger.open(app.config["DATABASE"])
    try:
        # thrown in game 1: the demo's game, which the camera starts as it records
        camera.record(app, ledger, RollEvent(small, frame=10, seconds=0.1), thrown_in=1, view_scale=0.1)
        (game,) = ledger.games()
        assert [event.type for event in ledger.events(game["id"])][-1] == "roll"  # scored
    finally:
        ledger.close()
    # Cubes dice 10 px across ask for the camera closer (size_hint), but the demo's is a video
    assert camera.view.status == "watching the demo video"


def golden_openings() -> dict[str, list[str]]:
    """Each dice game's golden replay up to its first roll: the start and every move before
    it (target-card draws, deals, choices), with the shuffles and spins it recorded, so the
    opening is the same on every run."""
    openings = {}
    for path in sorted(GOLDEN.glob("*.jsonl")):
        lines = [line for line in path.read_text().splitlines() if line.strip()]
        name = json.loads(lines[0])["data"]["game"]
        if GAMES[name].die_kind is not None:
            openings[name] = list(itertools.takewhile(lambda line: json.loads(line)["type"] != "roll", lines))
    return openings


OPENINGS = golden_openings()


def rollers(api, game_id):
    """Who may roll in the game now."""
    return [player for player, moves in api.view(game_id)["allowed"].items() if "roll" in moves]


def test_every_dice_game_has_a_golden_replay_to_open_it_with():
    assert sorted(OPENINGS) == sorted(name for name, game in GAMES.items() if game.die_kind is not None)


def test_a_roll_while_the_game_waits_for_a_card_drawn_is_scored_nowhere_and_says_why(app, api, pip_dice):
    detector, _, tones = pip_dice
    faces = ToneClassifier({200: ("AS", [("AS", 0.9)]), 150: ("KH", [("KH", 0.8)])})
    older = api.new_game("square-shooters/showdown-v1", ["Ana", "Bo"])  # Ana may roll there
    fun = api.new_game("square-shooters/fun", ["Cy", "Di"])  # Cy draws a game card first
    hold = threading.Event()  # the camera watches on after the roll, as a real one does
    camera = Camera(lambda: Frames(throw(tones), hold=hold), detector, faces, settle_seconds=SETTLE)
    thread = camera.watch(app)
    deadline = time.monotonic() + 30
    while "not scored" not in camera.view.status and time.monotonic() < deadline:
        time.sleep(0.02)
    status = camera.view.status
    hold.set()
    thread.join(10)
    rolls = [event for game in (older, fun) for event in events(api, game) if event["type"] == "roll"]
    assert rolls == []
    waits = f"game {fun} waits for Cy to draw before a roll"
    assert status == f"watching test camera; the last roll was not scored: {waits}"


@pytest.mark.parametrize("name", sorted(OPENINGS))
def test_every_dice_game_takes_its_first_roll_from_the_camera(app, api, pip_dice, name):
    # The camera's path differs by game (the kind, the dice a roll shows, each card once):
    # a roll settled when any dice game first rolls is that game's roll, as its rules score it
    detector, _, tones = pip_dice
    kind = DIE_KINDS[GAMES[name].die_kind]
    first, second = kind.labels[0], kind.labels[-1]
    faces = ToneClassifier({200: (first, [(first, 0.9)]), 150: (second, [(second, 0.8)])})
    game_id = imported(app, OPENINGS[name])
    may_roll = rollers(api, game_id)
    assert may_roll, api.view(game_id)["allowed"]
    camera = Camera(lambda: Frames(throw(tones)), detector, faces, settle_seconds=SETTLE)
    camera.watch(app).join(10)

    assert camera.view.status == "test camera has ended"  # neither stopped nor refused
    roll = events(api, game_id)[-1]
    assert roll["type"] == "roll" and roll["player"] in may_roll
    players = json.loads(OPENINGS[name][0])["data"]["players"]
    rolled = GAMES[name](players).dice_per_roll()
    assert len(roll["faces"]) == rolled
    assert first in roll["faces"] and (second in roll["faces"] or rolled == 1)


class GameMadeMidThrow(Frames):
    """Two throws; while the first one's dice fly, a player starts a new game on the page."""

    def __init__(self, tones, again, make_game):
        super().__init__(throw(tones) + throw(again), hold=threading.Event())
        self.make_game, self.made = make_game, []

    def __iter__(self):
        for index, frame in enumerate(self.frames):
            yield frame
            if index == 3:  # the hand sweeps over the table: the first throw is in the air
                self.made.append(self.make_game())
        self.hold.wait(10)


def test_a_roll_thrown_before_a_new_game_began_is_scored_in_neither_and_says_why(app, api, pip_dice):
    # the game is looked up when the roll settles: a throw of the game before went to the new one
    detector, _, tones = pip_dice
    classifier = ToneClassifier({200: ("3", [("3", 0.9)]), 150: ("5", [("5", 0.8)]), 90: ("1", [("1", 0.9)])})
    older = api.new_game(players=("Ana", "Bo"))
    again = dict.fromkeys(tones, 90)  # the second throw shows two 1s
    statuses = []
    source = GameMadeMidThrow(tones, again, lambda: Api(app.test_client()).new_game(players=("Cy", "Di")))
    camera = Camera(lambda: source, detector, classifier, settle_seconds=SETTLE)
    camera.view.set_status = statuses.append
    thread = camera.watch(app)
    deadline = time.monotonic() + 30
    while len(events(api, source.made[0]) if source.made else []) < 3 and time.monotonic() < deadline:
        time.sleep(0.02)
    source.hold.set()
    thread.join(10)
    (newer,) = source.made
    assert [event["type"] for event in events(api, older)] == ["start", "shuffle"]
    newer_rolls = [event for event in events(api, newer) if event["type"] == "roll"]
    assert [roll["faces"] for roll in newer_rolls] == [["1", "1"]]  # the throw made after it began
    why = f"it was thrown before game {newer} began; roll again"
    assert f"watching test camera; the last roll was not scored: {why}" in statuses


def test_a_roll_thrown_in_a_game_another_process_made_is_scored_in_it(app, pip_dice):
    # the camera looks for a game made elsewhere (the command line, a second server) only
    # every few seconds: a throw just after one was made must still find it
    detector, classifier, tones = pip_dice
    begin = threading.Event()
    camera = Camera(lambda: Frames(throw(tones), begin), detector, classifier, settle_seconds=SETTLE)
    camera._looked = (app.extensions["dicescore.changes"].generation, time.monotonic())  # just looked: none
    ledger = Ledger.open(app.config["DATABASE"])
    try:
        game_id = ledger.new_game("test/pip-race", ["Ana", "Bo"])  # no notice reaches this process
        begin.set()
        camera.watch(app).join(timeout=10)
        assert [event.type for event in ledger.events(game_id)][-1] == "roll"
    finally:
        ledger.close()


# -- what a mutation audit found no test would miss ------------------------------
def test_the_live_picture_opened_before_the_cameras_first_frame_waits_for_it(app, client):
    class Starting:  # a camera thread running, its first frame not read yet
        jpeg, running = None, True

        def next_frame(self, seen, timeout):
            self.jpeg = b"\xff\xd8first\xff\xd9"
            return 1, self.jpeg

    app.extensions["dicescore.camera"] = Starting()
    response = client.get("/live.mjpg", buffered=False)
    assert response.status_code == 200  # not a 404 that leaves the page's picture broken
    assert b"first" in next(iter(response.response))
    response.close()


def two_dice_read_as_3_and_5():
    return readings([FaceReading("3", 0.9, [("3", 0.9)]), FaceReading("5", 0.8, [("5", 0.8)])])


@pytest.mark.parametrize(
    "failure, said",
    [
        (sqlite3.OperationalError("database or disk is full"), "the last roll could not be saved"),
        (IllegalMove("Bo may not roll now"), "the last roll was not scored"),
    ],
    ids=["database", "rules"],
)
def test_a_roll_the_ledger_refuses_is_said_and_the_next_roll_is_scored(
    app, api, pip_dice, caplog, failure, said
):
    # camera.record: a failed append must end the roll there (no crops kept for a roll the
    # log lacks), say so on the page, and leave the camera watching for the next roll
    detector, classifier, _ = pip_dice
    game_id = api.new_game()  # the pip race: two d6 a roll
    camera = Camera(lambda: Frames([]), detector, classifier, size_hints=False)
    ledger = Ledger.open(app.config["DATABASE"])
    roll = RollEvent(two_dice_read_as_3_and_5(), frame=10, seconds=0.1)
    try:
        append = ledger.append

        def refused(*args, **kwargs):
            raise failure

        ledger.append = refused
        camera.record(app, ledger, roll, thrown_in=game_id, view_scale=0.1)
        assert camera.view.status == f"watching test camera; {said}: {failure}"
        assert str(failure) in caplog.text and "camera roll 3 5 not" in caplog.text
        assert [event["type"] for event in events(api, game_id)] == ["start", "shuffle"]
        ledger.append = append
        changes = app.extensions["dicescore.changes"]
        seen = changes.generation
        camera.record(app, ledger, roll, thrown_in=game_id, view_scale=0.1)  # the camera watches on
        assert changes.generation > seen  # the open pages are woken to show the roll at once
    finally:
        ledger.close()
    assert events(api, game_id)[-1]["faces"] == ["3", "5"]
    assert camera.view.status == "watching test camera"


def test_the_demo_scores_a_cubes_game_in_progress_and_starts_none_of_its_own(app, api, tmp_path):
    # camera.find_game: the demo's game is started only when no Cubes game is in progress
    clip = demo_clip(tmp_path / "demo.mp4", throw({}))
    camera = demo_camera(clip, stand_in_detector(tmp_path / "none.onnx", ()), ToneClassifier({}))
    ours = api.new_game("cubes", ["Di", "Ed"])
    ledger = Ledger.open(app.config["DATABASE"])
    try:
        target = camera.find_game(app, ledger)
        assert (target.game_id, target.player) == (ours, "Di")
        assert [game["id"] for game in ledger.games()] == [ours]
    finally:
        ledger.close()
    assert camera.view.game_id == ours  # the front page names it as the game the camera scores


def test_the_camera_status_names_what_the_game_waits_for_until_a_roll_may_come(app, api, pip_dice):
    # camera.find_game: while no one may roll, the page says who the game waits for; once
    # a player may roll, that line goes (the camera scores the next throw)
    detector, classifier, _ = pip_dice
    camera = Camera(lambda: Frames([]), detector, classifier)
    # Cy draws a game card first: a physical deck's, named, so that it is a target card to roll for
    game_id = api.new_game("square-shooters/classic", ["Cy", "Di"], deck="physical")
    ledger = Ledger.open(app.config["DATABASE"])
    try:
        assert camera.find_game(app, ledger).player is None
        assert (
            camera.view.status == f"watching test camera; game {game_id} waits for Cy to draw before a roll"
        )
        assert camera.view.game_id == game_id
        full_house = {"kind": "full_house", "cards": ["7C", "7H", "7D", "AS", "AH"], "chips": 8}
        assert api.move(game_id, "draw", "Cy", card=full_house).status_code == 201
        assert camera.find_game(app, ledger).player == "Cy"
        assert camera.view.status == "watching test camera"
        hint = "watching test camera; the dice look small to the camera: move the camera closer or zoom in"
        camera.view.set_status(hint)  # as the last roll left it
        camera.find_game(app, ledger)  # the next look (every few seconds) keeps what the roll said
    finally:
        ledger.close()
    assert camera.view.status == hint


def test_a_roll_that_settles_with_no_game_at_the_table_is_scored_nowhere_and_the_camera_watches_on(
    app, pip_dice
):
    # camera.record: with no game in progress (none started, or the last one ended as the
    # dice settled) the roll goes nowhere; without that guard an AttributeError stops the camera
    detector, classifier, _ = pip_dice
    camera = Camera(lambda: Frames([]), detector, classifier)
    ledger = Ledger.open(app.config["DATABASE"])
    try:
        camera.record(
            app,
            ledger,
            RollEvent(two_dice_read_as_3_and_5(), frame=10, seconds=0.1),
            thrown_in=None,
            view_scale=0.1,
        )
        assert ledger.games() == []
    finally:
        ledger.close()
    assert camera.view.status == "watching test camera; start a game of dice to score its rolls"


def test_a_settled_table_the_camera_could_not_read_asks_for_the_camera_closer(app, api, pip_dice):
    # the tracker's look at a settled table whose vote found no die read nothing surely where
    # the table changed (vision.tracker.RollTracker.could_not_read): no roll, but a line
    detector, classifier, _ = pip_dice
    api.new_game()  # the pip race: two d6 a roll
    camera = Camera(lambda: Frames([]), detector, classifier)
    ledger = Ledger.open(app.config["DATABASE"])
    try:
        camera.table(app, ledger)
    finally:
        ledger.close()
    camera.tracker.could_not_read(two_dice_read_as_3_and_5())
    assert camera.view.status == (
        "watching test camera; something settled on the table that the camera could not read as pip dice:"
        " if you rolled, move the camera closer or zoom in"
    )
    # nobody can move the demo's camera closer
    assert Camera(lambda: Frames([]), detector, classifier, size_hints=False).tracker.could_not_read is None
