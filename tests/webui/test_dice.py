"""The "Your dice" page: what the camera was taught of each dice set, and forgetting it."""

import base64
import re
import threading
import time

import cv2
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from datasets.faces import render_set
from tests.disk import refuse_to_delete
from tests.vision.test_pipeline import stand_in_detector
from tests.webui.test_camera import SETTLE, Frames, ToneClassifier, centre, table
from tests.webui.test_camera import pip_dice as pip_dice  # a fixture
from vision.detector import Detector
from vision.faces import DEFAULT_MODEL, FAST_MODEL, FaceClassifier
from webui import create_app, dice
from webui.camera import Camera
from webui.crops import SharedClassifier


@pytest.fixture
def taught(app, tmp_path):
    """The app's camera classifiers (both models, one folder), taught three pip faces, a Cubes
    face and a card; the crops taught, by (kind, face)."""
    folder = tmp_path / "learned"
    shared = SharedClassifier(
        FaceClassifier(FAST_MODEL, data_dir=folder), FaceClassifier(DEFAULT_MODEL, data_dir=folder)
    )
    app.extensions["dicescore.classifier"] = shared
    crops = render_set(5, 9, ("framed",))[0]
    lessons = {("d6", "3"): crops[0], ("d6", "5"): crops[1], ("d6", "6"): crops[2], ("cubes", "3"): crops[3]}
    lessons["square-shooters", "10H"] = crops[4]
    for (kind, face), crop in lessons.items():
        shared.learn(crop, face, kind)
    return lessons


def csrf(client):
    return client.get("/api/session").json["csrf"]


def forget(client, **form):
    return client.post("/dice", data={"csrf_token": csrf(client), **form})


def tiles(page, kind):
    """The faces of ``kind`` the page shows as taught."""
    section = page.split(f'id="{kind}"')[1].split("</section>")[0]
    return [tile.split('"')[0] for tile in section.split('class="taught" data-face="')[1:]]


def test_the_page_shows_each_set_with_the_faces_taught_for_it(app, client, taught):
    page = client.get("/dice").get_data(as_text=True)
    assert "3 of 6 faces taught" in page and "1 of 8 faces taught" in page and "1 of 54 faces taught" in page
    assert tiles(page, "d6") == ["3", "5", "6"]
    assert tiles(page, "cubes") == ["3"]
    assert tiles(page, "square-shooters") == ["10H"]
    assert 'alt="10♥ as the camera saw it"' in page
    assert "×" not in page  # one view of each face taught
    app.extensions["dicescore.classifier"].learn(render_set(1, 10, ("framed",))[0][0], "5", "d6")
    page = client.get("/dice").get_data(as_text=True)
    five = page.split('id="d6"')[1].split('data-face="5"')[1].split("</figure>")[0]
    assert "×2" in five and page.count("×") == 1
    assert 'href="/dice"' in client.get("/").get_data(as_text=True)  # every page links to it


def test_one_example_of_a_face_is_forgotten_and_the_others_kept(app, client, taught):
    """A wrong tap found later: its example goes, the face's other examples stay."""
    shared = app.extensions["dicescore.classifier"]
    wrong = render_set(1, 10, ("framed",))[0][0]
    shared.learn(wrong, "5", "d6")
    page = client.get("/dice").get_data(as_text=True)
    five = page.split('id="d6"')[1].split('data-face="5"')[1].split("</figure>")[0]
    names = re.findall(r'name="example" value="([^"]+)"', five)
    assert len(names) == 2  # the newest first: the wrong one
    shown = [client.get(f"/dice/d6/5/{name}") for name in names]
    assert [image.status_code for image in shown] == [200, 200]
    newest = cv2.imdecode(np.frombuffer(shown[0].data, np.uint8), cv2.IMREAD_COLOR)
    assert np.array_equal(newest, wrong)

    page = forget(client, kind="d6", face="5", example=names[0])
    assert page.status_code == 302
    told = client.get("/dice").get_data(as_text=True)
    assert "The camera has forgotten that example of the face 5 of your pip dice; it keeps 1." in told
    for model in (shared.classifier, shared.photo_classifier):
        assert model.learned()["5"] == 1 and len(model.taught_examples("d6")["5"]) == 1
    kept = cv2.imdecode(np.frombuffer(client.get("/dice/d6/5.png").data, np.uint8), cv2.IMREAD_COLOR)
    assert np.array_equal(kept, taught["d6", "5"])
    assert client.get(f"/dice/d6/5/{names[0]}").status_code == 404

    forget(client, kind="d6", face="5", example=names[0])
    assert "had forgotten that example already" in client.get("/dice").get_data(as_text=True)
    assert forget(client, kind="d6", example=names[1]).status_code == 400  # whose example?
    forget(client, kind="d6", face="5", example="../3/" + names[1])
    assert shared.classifier.learned()["5"] == 1  # only a listed example is forgotten
    assert client.get("/dice/d6/5/..%2F..%2Fgames.sqlite").status_code == 404


def test_a_faces_newest_example_is_served_as_the_camera_saw_it(client, taught):
    image = client.get("/dice/d6/5.png")
    assert image.status_code == 200 and image.mimetype == "image/png"
    shown = cv2.imdecode(np.frombuffer(image.data, np.uint8), cv2.IMREAD_COLOR)
    assert np.array_equal(shown, taught["d6", "5"])
    assert client.get("/dice/d6/4.png").status_code == 404  # not taught
    assert client.get("/dice/d6/QH.png").status_code == 404  # no face of a d6
    assert client.get("/dice/d20/3.png").status_code == 404


def test_forgetting_a_face_forgets_it_for_that_kind_only_in_both_models(app, client, taught):
    shared = app.extensions["dicescore.classifier"]
    assert shared.photo_classifier.learned() == {"3": 2, "5": 1, "6": 1, "10H": 1}
    response = forget(client, kind="d6", face="3")
    assert response.status_code == 302 and response.headers["Location"] == "/dice#d6"
    page = client.get("/dice").get_data(as_text=True)
    assert "The camera has forgotten the face 3 of your pip dice." in page
    assert tiles(page, "d6") == ["5", "6"] and tiles(page, "cubes") == ["3"]
    for model in (shared.classifier, shared.photo_classifier):
        assert model.learned() == {"3": 1, "5": 1, "6": 1, "10H": 1}
        assert model.taught_faces("d6") == ["5", "6"]
    again = client.get(forget(client, kind="d6", face="3").location)
    assert "had not been taught the face 3" in again.get_data(as_text=True)


def test_forgetting_a_set_keeps_the_other_sets(app, client, taught):
    forget(client, kind="d6")
    page = client.get("/dice").get_data(as_text=True)
    assert "The camera has forgotten the 3 faces it was taught of your pip dice." in page
    assert (
        tiles(page, "d6") == []
        and tiles(page, "cubes") == ["3"]
        and tiles(page, "square-shooters") == ["10H"]
    )
    assert app.extensions["dicescore.classifier"].photo_classifier.learned() == {"3": 1, "10H": 1}
    # nothing of the set is left, but the line saying so shows, unfolded; afterwards it folds
    assert re.search(r'id="d6">\s*<details open>', page)
    assert re.search(r'id="d6">\s*<details >', client.get("/dice").get_data(as_text=True))


def test_forgetting_everything_empties_the_folder(app, client, taught, tmp_path):
    forget(client, kind="everything")
    assert "forgotten every face" in client.get("/dice").get_data(as_text=True)
    assert not list((tmp_path / "learned").rglob("*.png"))
    assert app.extensions["dicescore.classifier"].photo_classifier.learned() == {}


def test_a_forget_that_fails_in_part_is_forgotten_by_both_models_as_far_as_it_went(
    app, client, taught, monkeypatch
):
    stuck = next(
        p for p in (app.extensions["dicescore.classifier"].classifier.data_dir / "10H").glob("*.png")
    )
    refuse_to_delete(monkeypatch, stuck)
    page = client.get(forget(client, kind="everything").location).get_data(as_text=True)
    assert "could not forget 1 taught examples" in page
    shared = app.extensions["dicescore.classifier"]
    assert shared.classifier.learned() == shared.photo_classifier.learned() == {"10H": 1}


@pytest.mark.parametrize(
    ("form", "message"),
    [
        ({"kind": "d20"}, "choose which dice to forget: one of square-shooters, cubes, d6, or everything"),
        ({}, "choose which dice to forget"),
        ({"kind": "cubes", "face": "QH"}, "QH is not a face of cubes dice"),
        ({"kind": "everything", "face": "3"}, "forget one face of one kind of dice, or everything: not both"),
    ],
)
def test_a_forget_form_that_names_no_dice_is_refused_and_forgets_nothing(app, client, taught, form, message):
    response = forget(client, **form)
    assert response.status_code == 400 and message in response.get_data(as_text=True)
    assert app.extensions["dicescore.classifier"].classifier.learned() == {"3": 2, "5": 1, "6": 1, "10H": 1}


def test_forgetting_needs_the_csrf_token_and_on_the_lan_the_pin(app, client, taught, tmp_path):
    assert client.post("/dice", data={"kind": "everything"}).status_code == 403
    lan = create_app(
        {"TESTING": True, "DATABASE": str(tmp_path / "lan.sqlite"), "SECRET_KEY": "t", "PIN": "246810"}
    )
    lan.extensions["dicescore.classifier"] = app.extensions["dicescore.classifier"]
    lan_client = lan.test_client()
    response = forget(lan_client, kind="everything")
    assert response.status_code == 302 and response.location.startswith("/join")
    assert app.extensions["dicescore.classifier"].classifier.learned() == {"3": 2, "5": 1, "6": 1, "10H": 1}


def test_a_missing_face_model_is_said_on_the_page(client, tmp_path, monkeypatch):
    monkeypatch.setattr("vision.faces.FAST_MODEL", tmp_path / "gone.onnx")
    page = client.get("/dice")
    assert page.status_code == 503
    assert "the camera&#39;s face model cannot be loaded" in page.get_data(as_text=True)
    assert "gone.onnx" in page.get_data(as_text=True)


@pytest.fixture
def watching(app, pip_dice, monkeypatch):
    """A camera watching a table where two dice lie still (read as 3 and 5), no game played."""
    detector, classifier, tones = pip_dice
    # A photo's search finds the stand-in detector's two dice anew in each of its passes,
    # dozens of places: a look reads the frame in one pass here.
    monkeypatch.setattr(detector, "detect_at_scales", lambda frame, is_print=None: detector.detect(frame))
    hold = threading.Event()
    frames = [table(tones)] * 3
    camera = Camera(lambda: Frames(frames, hold=hold), detector, classifier, settle_seconds=SETTLE)
    thread = camera.watch(app)
    wait_for_a_frame(camera)
    yield camera, classifier
    hold.set()
    thread.join(10)


def wait_for_a_frame(camera):
    deadline = time.monotonic() + 10
    while not camera.recent and time.monotonic() < deadline:
        time.sleep(0.01)


def test_dice_shown_to_the_camera_are_taught_as_the_player_names_them(app, api, watching):
    camera, classifier = watching
    assert "Show the camera your dice" in api.client.get("/dice").get_data(as_text=True)
    look = api.client.get("/api/dice/d6/look")
    assert look.status_code == 200
    dice = look.json["dice"]
    assert [die["label"] for die in dice] == ["3", "5"] and dice[1]["top"] == [["5", 0.8], ["6", 0.1]]
    crops = camera.look("d6").crops
    png = base64.b64decode(dice[0]["crop"].removeprefix("data:image/png;base64,"))
    assert np.array_equal(cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_COLOR), crops[0])

    taught = api.post("/api/dice/d6/teach", {"look": look.json["look"], "faces": ["3", "6"]})
    assert taught.status_code == 200 and taught.json == {"taught": 2, "known": 2, "faces": 6}
    assert [label for _, label in classifier.taught] == ["3", "6"] and classifier.taught_kinds == ["d6", "d6"]
    assert np.array_equal(classifier.taught[1][0], crops[1])  # the 5 read, named a 6 by the player
    assert "The camera learnt 2 faces; it knows 2 of the 6 faces." in api.client.get("/dice").get_data(
        as_text=True
    )
    skipped = api.post("/api/dice/d6/teach", {"look": look.json["look"], "faces": [None, None]})
    assert skipped.json["taught"] == 0 and len(classifier.taught) == 2
    again = api.post("/api/dice/d6/teach", {"look": look.json["look"], "faces": ["3", "6"]})
    assert again.json == {"taught": 0, "known": 2, "faces": 6}  # the same crops are no new examples


@pytest.mark.parametrize(
    ("body", "status", "message"),
    [
        ({"look": 99, "faces": ["3", "5"]}, 404, "that look at the table is gone: look again"),
        ({"look": "LOOK", "faces": ["3"]}, 400, "name a face (or null) for each of the look's 2 dice"),
        ({"look": "LOOK", "faces": ["3", "QH"]}, 400, "QH is not a face of d6 dice"),
        ({"look": "LOOK", "faces": "3 5"}, 400, "name a face (or null) for each of the look's 2 dice"),
        (["LOOK"], 400, 'send {"look": number, "faces": [face or null, ...]}'),
        (
            {"look": "LOOK", "faces": [{"face": "3"}, None]},
            400,
            'a face is named by its label, or null for a die not taught: not {"face": "3"}',
        ),
        (
            {"look": "LOOK", "faces": [["3"], None]},
            400,
            'a face is named by its label, or null for a die not taught: not ["3"]',
        ),
        (
            {"look": "LOOK", "faces": [3, None]},
            400,
            "a face is named by its label, or null for a die not taught: not 3",
        ),
        ({"look": True, "faces": ["3", "5"]}, 404, "that look at the table is gone: look again"),
    ],
)
def test_a_lesson_that_names_no_dice_of_the_look_is_refused(api, watching, body, status, message):
    _, classifier = watching
    number = api.client.get("/api/dice/d6/look").json["look"]
    body = (
        [number]
        if isinstance(body, list)
        else {**body, "look": number if body["look"] == "LOOK" else body["look"]}
    )
    response = api.post("/api/dice/d6/teach", body)
    assert (response.status_code, response.json["error"]) == (status, message)
    assert classifier.taught == []


def test_a_look_is_taught_only_as_the_dice_it_was_read_as(api, watching):
    number = api.client.get("/api/dice/d6/look").json["look"]
    response = api.post("/api/dice/cubes/teach", {"look": number, "faces": ["3", "5"]})
    assert response.status_code == 404
    assert (
        api.client.post("/api/dice/d6/teach", json={"look": number, "faces": ["3", "5"]}).status_code == 403
    )


def test_looking_without_a_camera_or_at_unknown_dice_says_why(api):
    assert "Show the camera your dice" not in api.client.get("/dice").get_data(as_text=True)
    response = api.client.get("/api/dice/d6/look")
    assert response.status_code == 409
    assert response.json["error"].startswith("no camera is watching the table")
    assert api.client.get("/api/dice/d20/look").json["error"].startswith("there are no d20 dice")


def test_a_camera_that_has_stopped_gives_no_look(app, api, pip_dice):
    detector, classifier, tones = pip_dice
    Camera(lambda: Frames([table(tones)] * 3), detector, classifier, settle_seconds=SETTLE).watch(app).join(
        10
    )
    assert "Show the camera your dice" not in api.client.get("/dice").get_data(as_text=True)
    response = api.client.get("/api/dice/d6/look")
    assert (response.status_code, response.json["error"]) == (409, "the camera is not giving pictures now")


def test_a_look_averages_the_frames_of_the_still_table_before_it(app, pip_dice, monkeypatch):
    detector, classifier, tones = pip_dice
    seen = []

    def one_pass(frame, is_print=None):  # records what the look reads
        seen.append(frame)
        return detector.detect(frame)

    monkeypatch.setattr(detector, "detect_at_scales", one_pass)
    clean = table(tones)
    rng = np.random.default_rng(0)
    noisy = [np.clip(clean + rng.normal(0, 8, clean.shape), 0, 255).astype(np.uint8) for _ in range(12)]
    (first, tone), *rest = tones.items()
    moved = table({(first[0] + 60, first[1]): tone, **dict(rest)})  # then a die set down elsewhere
    for frames, expected in ((noisy, None), (noisy + [moved], moved)):
        hold = threading.Event()
        camera = Camera(
            lambda frames=frames, hold=hold: Frames(frames, hold=hold),
            detector,
            classifier,
            settle_seconds=SETTLE,
        )
        thread = camera.watch(app)
        try:
            deadline = time.monotonic() + 10
            while not (camera.recent and camera.recent[-1] is frames[-1]) and time.monotonic() < deadline:
                time.sleep(0.01)
            labels = [die.label for die in camera.look("d6")]
        finally:
            hold.set()
            thread.join(10)
        if expected is None:  # nine noisy frames of one table: a third of one frame's noise
            error = [np.abs(frame.astype(float) - clean).mean() for frame in (seen[-1], noisy[-1])]
            assert error[0] < 0.45 * error[1] and labels == ["3", "5"]
        else:  # the table changed: the frames before show another picture, and are left out
            assert np.array_equal(seen[-1], expected)


def test_a_look_lists_the_dice_left_to_right(app, api, tmp_path, monkeypatch):
    cells = ((10, 3, False), (4, 8, False))  # the right-hand die higher up: found first
    detector = Detector(stand_in_detector(tmp_path / "detector.onnx", cells))
    one_pass = detector.detect  # as in `watching`
    monkeypatch.setattr(detector, "detect_at_scales", lambda frame, is_print=None: one_pass(frame))
    right, left = (centre(cell) for cell in cells)
    classifier = ToneClassifier({200: ("3", [("3", 0.9)]), 150: ("5", [("5", 0.9)])})
    hold = threading.Event()
    frames = [table({right: 200, left: 150})] * 3
    camera = Camera(lambda: Frames(frames, hold=hold), detector, classifier, settle_seconds=SETTLE)
    thread = camera.watch(app)
    try:
        wait_for_a_frame(camera)
        assert [die.label for die in camera.look("d6")] == ["3", "5"]
        assert [die["label"] for die in api.client.get("/api/dice/d6/look").json["dice"]] == ["5", "3"]
    finally:
        hold.set()
        thread.join(10)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=8,
)


def test_no_request_to_your_dice_is_a_server_error(tmp_path):
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "games.sqlite"), "SECRET_KEY": "test"})
    app.extensions["dicescore.classifier"] = SharedClassifier(FaceClassifier(FAST_MODEL, data_dir=tmp_path))
    client = app.test_client()
    token = csrf(client)
    crop = render_set(1, 9, ("numerals",))[0][0]
    with app.app_context():  # a look at two dice, as the camera would have kept it
        look = dice.looks().keep("d6", [crop, crop])
    kinds = st.just("d6") | st.sampled_from(["cubes", "square-shooters", "d20", "", "%00", "..", "a%2F.."])
    two_faces = st.lists(JSON | st.sampled_from(["3", "QH", "BLANK"]), min_size=2, max_size=2)
    lessons = st.fixed_dictionaries({"look": st.just(look), "faces": two_faces}) | JSON
    fields = st.dictionaries(st.sampled_from(["kind", "face", "other"]), st.text(max_size=8))

    @settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck))
    @given(kind=kinds, body=lessons, face=st.text(max_size=6), form=fields)
    def ask(kind, body, face, form):
        answers = (
            client.post(f"/api/dice/{kind}/teach", json=body, headers={"X-CSRF-Token": token}),
            client.post(
                f"/api/dice/{kind}/teach",
                data=b"\xff{",
                headers={"X-CSRF-Token": token, "Content-Type": "application/json"},
            ),
            client.get(f"/api/dice/{kind}/look"),
            client.get(f"/dice/{kind}/{face}.png"),
            client.post("/dice", data={"csrf_token": token, **form}),
        )
        for answer in answers:
            assert answer.status_code < 500, (answer.request.path, answer.get_data(as_text=True))

    ask()


# -- what a mutation audit found no test would miss ------------------------------
def test_a_face_the_camera_cannot_learn_is_said_and_the_faces_before_it_stay_taught(
    api, watching, monkeypatch
):
    _, classifier = watching
    number = api.client.get("/api/dice/d6/look").json["look"]
    learn = classifier.learn

    def disk_full_at_the_six(crop, label, kind=None):
        if label == "6":
            raise OSError(28, "No space left on device")
        return learn(crop, label, kind)

    monkeypatch.setattr(classifier, "learn", disk_full_at_the_six)
    response = api.post("/api/dice/d6/teach", {"look": number, "faces": ["3", "6"]})
    assert response.status_code == 500
    assert (
        "the camera could not learn" in response.json["error"] and "No space left" in response.json["error"]
    )
    assert [label for _, label in classifier.taught] == ["3"]
