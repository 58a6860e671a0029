"""The shipped detector and face classifier with the roll tracker, on rendered clips whose rolls
are known (each clip's CLIP.rolls.jsonl, written by datasets.scenes.clips), and on stills.

Each roll must be reported exactly once and nothing else: no event while a hand waves over
the dice, none for an empty table.  Faces are checked against floors under what the shipped
models measure; the issue's 99.5% targets are xfailed until the models reach them.
"""

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

import vision.sources
import vision.tracker
from dicescore.cli import main
from vision.detector import Detector
from vision.faces import FAST_MODEL, FaceClassifier
from vision.framing import size_hint
from vision.pipeline import DiceReader, read_image
from vision.readings import DieReadings
from vision.tracker import RollTracker

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = Path(__file__).parent / "fixtures"
CLIPS = {
    "demo": (ROOT / "datasets" / "demo" / "demo.mp4", "cubes"),
    "d6": (FIXTURES / "clips" / "d6.mp4", "d6"),
    "cards": (FIXTURES / "clips" / "cards.mp4", "square-shooters"),
    "cubes": (FIXTURES / "clips" / "cubes.mp4", "cubes"),
    # tables, lights, distractors and artwork that no training scene has (--split heldout)
    "d6-heldout": (FIXTURES / "clips" / "d6-heldout.mp4", "d6"),
    "cubes-heldout": (FIXTURES / "clips" / "cubes-heldout.mp4", "cubes"),
    # a hand takes the dice off the table after every roll, as a player gathers them
    "d6-pickup": (FIXTURES / "clips" / "d6-pickup.mp4", "d6"),
}


@pytest.fixture(scope="module")
def models(tmp_path_factory):
    # as the web app and `dicescore watch` read video: the camera's face model every frame,
    # and the default one for a settled roll's second look
    examples = tmp_path_factory.mktemp("no_examples")
    return Detector(), FaceClassifier(FAST_MODEL, data_dir=examples), FaceClassifier(data_dir=examples)


def camera(kind: str, models, fps: float) -> tuple[DiceReader, RollTracker]:
    """A video frame reader and a tracker that looks again at each settled roll, as the app has them."""
    detector, classifier, photo_classifier = models
    photo_reader = DiceReader(kind, detector, photo_classifier)
    tracker = RollTracker(fps=fps, look_again=lambda frame: photo_reader.read(frame, still=True))
    return DiceReader(kind, detector, classifier), tracker


def watch(path: Path, kind: str, models) -> list:
    video = cv2.VideoCapture(str(path))
    reader, tracker = camera(kind, models, video.get(cv2.CAP_PROP_FPS) or 30)
    events = []
    while True:
        ok, frame = video.read()
        if not ok:
            return events
        event = tracker.update(frame, lambda frame=frame: reader.read(frame))
        if event is not None:
            events.append(event)


@pytest.fixture(scope="module")
def watched(models):
    """Every clip watched once: (events, known rolls)."""
    results = {}
    for name, (path, kind) in CLIPS.items():
        rolls = [json.loads(line) for line in path.with_suffix(".rolls.jsonl").read_text().splitlines()]
        results[name] = (watch(path, kind, models), rolls)
    return results


@pytest.mark.parametrize("name", list(CLIPS))
def test_every_roll_is_reported_exactly_once(watched, name):
    events, rolls = watched[name]
    assert len(events) == len(rolls)


@pytest.mark.parametrize("name", list(CLIPS))
def test_each_roll_shows_the_dice_thrown_give_or_take_one(watched, name):
    events, rolls = watched[name]
    for event, roll in zip(events, rolls, strict=True):
        assert abs(len(event.dice) - len(roll["faces"])) <= 1


@pytest.mark.parametrize(
    "name",
    [
        "demo",  # a roll had an extra find (a die's side) until session 75's camera network
        "d6",
        "cards",
        "cubes",  # a roll missed a blank die until session 25's detector
        pytest.param(
            "d6-heldout",
            marks=pytest.mark.xfail(
                reason="issue 5 target: a roll misses a die half hidden by a cup", strict=True
            ),
        ),
        "cubes-heldout",
        "d6-pickup",
    ],
)
def test_each_roll_shows_exactly_the_dice_thrown(watched, name):
    events, rolls = watched[name]
    assert [len(event.dice) for event in events] == [len(roll["faces"]) for roll in rolls]


def share_read_right(events, rolls) -> float:
    right = total = 0
    for event, roll in zip(events, rolls, strict=False):
        read = sorted(label or "" for label in event.labels)
        true = sorted(roll["faces"])
        total += len(true)
        right += sum(min(read.count(label), true.count(label)) for label in set(true))
    return right / max(total, 1)


# floors under what the shipped models read (demo 98%, 53 of 54 dice; d6 80%, 12 of 15;
# cards 59%, 16 of 27; cubes 100%, 18 of 18; d6-heldout 94%, 17 of 18; cubes-heldout 94%, 17
# of 18; d6-pickup 100%, 15 of 15, session 59), a die or two below. Session 58 read a
# settled roll's frames averaged (cards 18 -> 17) and left unread a face the second look
# names against the vote under 0.8, marked on the page with its likeliest face (cards 17 ->
# 16: two wrong faces marked, and one right ace).
# Session 48's detector, taught from real photos that they hold no dice, read one demo die
# and one held-out Cubes die fewer and two card dice more.
# Session 30's camera model read one more demo die and card die and one d6 die fewer
# (session 26's face model had read one d6 die more than before it). Session 25's
# detector read one more demo die and one more die of each Cubes clip (before it: demo 52,
# cubes 17, cubes-heldout 17; cubes 16 before session 23 added a blank die the look found and
# the vote lacked):
# small card dice, 15 pixels across in these 320x240 clips, are the hardest (27 of them: one
# die is 3.7%).  Before each settled roll was looked at again as a photo (session 22), the
# votes alone read the demo at 93% (50 of 54) and d6 at 73% (11 of 15), the rest the same;
# with session 7's detector, each frame read at one turn, the same turn every frame, 94%, 80%
# and 52% (the first three clips).
@pytest.mark.parametrize(
    ("name", "floor"),
    [
        ("demo", 0.94),
        ("d6", 0.73),
        ("cards", 0.55),
        ("cubes", 0.83),
        ("d6-heldout", 0.88),
        ("cubes-heldout", 0.88),
        ("d6-pickup", 0.86),
    ],
)
def test_faces_are_read_at_least_as_well_as_the_model_cards_say(watched, name, floor):
    assert share_read_right(*watched[name]) >= floor


@pytest.mark.xfail(reason="issue 5 target: every face of every roll right (99.5%)", strict=False)
@pytest.mark.parametrize("name", list(CLIPS))
def test_every_face_is_read_right(watched, name):
    assert share_read_right(*watched[name]) >= 0.995


def empty_table() -> np.ndarray:
    """A rendered table with no die on it: the checked cloth and cup beside scene 2's only die
    (squares everywhere, the hardest kind of table for a finder of square faces)."""
    image = cv2.imread(str(FIXTURES / "scenes" / "scene00002_0075.png"))
    return cv2.resize(image[:120, :160], (320, 240), interpolation=cv2.INTER_LINEAR)


def test_an_empty_table_with_a_hand_passing_gives_no_roll(models):
    table = empty_table()
    reader, tracker = camera("d6", models, 30)
    rng = np.random.default_rng(0)
    events = []
    for index in range(60):
        frame = np.clip(table + rng.normal(0, 1.5, table.shape), 0, 255).astype(np.uint8)
        if 10 <= index < 30:  # a hand crosses the picture
            x = int(-60 + index * 20)
            cv2.ellipse(frame, (x, 120), (60, 35), 20, 0, 360, (120, 150, 200), -1)
        event = tracker.update(frame, lambda frame=frame: reader.read(frame))
        events += [event] if event else []
    assert events == []
    assert len(reader.read(table)) == 0


@pytest.mark.parametrize("read", ["video frame", "read_image"])
def test_the_dice_of_a_rendered_still_are_found(models, read):
    truth_path = FIXTURES / "scenes" / "scene00101_0075.json"
    truth = json.loads(truth_path.read_text())
    image = cv2.imread(str(truth_path.with_name(truth["image"])))
    seen = [d for d in truth["dice"] if d["visible"] >= 0.5]
    detector, classifier, _ = models
    kind = truth["dice"][0]["kind"]
    if read == "read_image":  # the photo reader of ARCHITECTURE.md, with the shipped models
        centers = np.array([die.center for die in read_image(image, kind)])
    else:
        centers = DiceReader(kind, detector, classifier).read(image).centers
    assert abs(len(centers) - len(seen)) <= 1
    for die in seen:  # each die seen has a find over its centre
        centre = np.mean(die["quad"], 0)
        assert np.min(np.linalg.norm(centers - centre, axis=1)) < 0.5 * np.sqrt(
            cv2.contourArea(np.float32(die["quad"]))
        )


def rendered_stills():
    for truth_path in sorted((FIXTURES / "scenes").glob("*.json")):
        truth = json.loads(truth_path.read_text())
        yield cv2.imread(str(truth_path.with_name(truth["image"]))), truth


def face_side(quad) -> float:
    return float(np.sqrt(cv2.contourArea(np.float32(quad))))


def test_a_photo_taken_upright_is_read_as_the_same_photo_lying(models):
    # upright (taller than wide), the network's 4:3 view showed it padded, its dice smaller:
    # of the held-out pip-dice photos at 12 megapixels, 87.8% of the dice found, against
    # 95.6% lying (docs/vision-limits.md, session 65)
    detector, _, _ = models
    image, _ = next(rendered_stills())
    width = image.shape[1]
    lying = detector.detect_at_scales(image)
    upright = detector.detect_at_scales(cv2.rotate(image, cv2.ROTATE_90_COUNTERCLOCKWISE))
    assert len(lying) > 0 and len(upright) == len(lying)
    # (x, y) of the lying photo lies at (y, width - x) in the upright one
    expected = np.stack([lying.quads[..., 1], width - lying.quads[..., 0]], axis=-1)
    assert np.allclose(upright.quads, expected, atol=0.01)
    assert np.array_equal(upright.cocked, lying.cocked)


def test_a_die_that_fills_a_photo_is_found(models):
    # each flat, wholly visible die of the rendered stills, photographed so close that its
    # face is 70% of a 1024x768 frame's height (found 22 of 23, session 7's detector 23; before
    # the photo search shrank frames further than half, 6)
    detector, _, _ = models
    found = shown = 0
    for image, truth in rendered_stills():
        for die in truth["dice"]:
            if die["visible"] < 0.9 or die["cocked"]:
                continue
            centre, height = np.mean(die["quad"], 0), face_side(die["quad"]) / 0.7
            scale = 768 / height
            shift = np.float32([512, 384]) - centre * scale
            photo = cv2.warpAffine(
                image, np.float32([[scale, 0, shift[0]], [0, scale, shift[1]]]), (1024, 768),
                flags=cv2.INTER_CUBIC, borderMode=cv2.BORDER_REFLECT,
            )  # fmt: skip
            finds = detector.detect_at_scales(photo)
            shown += 1
            found += (
                bool(len(finds))
                and np.linalg.norm(finds.centers - [512, 384], axis=1).min() < 0.35 * 0.7 * 768
            )
    assert shown == 23
    assert found >= 21


def test_small_dice_in_a_12_megapixel_photo_are_found(models):
    # the rendered stills twice as big in the middle of a 4032x3024 photo, the rest their
    # table's colour: dice about 40 px across, 4% of the network's view of the whole frame
    # (found 19 of 24, session 7's detector 18; searched by quarters alone, 9)
    detector, _, _ = models
    found = shown = 0
    for image, truth in rendered_stills():
        shift = (np.float32([4032, 3024]) - 2 * np.float32(image.shape[1::-1])) / 2
        table = [float(v) for v in np.median(image.reshape(-1, 3), 0)]
        photo = cv2.warpAffine(
            image, np.float32([[2, 0, shift[0]], [0, 2, shift[1]]]), (4032, 3024),
            flags=cv2.INTER_CUBIC, borderMode=cv2.BORDER_CONSTANT, borderValue=table,
        )  # fmt: skip
        finds = detector.detect_at_scales(photo)
        for die in truth["dice"]:
            if die["visible"] >= 0.5:
                shown += 1
                centre = np.mean(die["quad"], 0) * 2 + shift
                found += bool(len(finds)) and np.linalg.norm(
                    finds.centers - centre, axis=1
                ).min() < face_side(die["quad"])
    assert shown == 24
    assert found >= 16


def test_card_and_cubes_dice_this_small_ask_for_the_camera_closer_and_pips_do_not(watched, models):
    # faces about 18-21 px across in these 320x240 clips: a card's index is a blur, a soft
    # webcam loses a Cubes face's print, pips still read
    as_big = models[0].view(np.zeros((240, 320, 3), np.uint8))  # the clips' frames are smaller than its view
    assert all(size_hint(event.dice, "square-shooters", as_big) for event in watched["cards"][0])
    assert all(size_hint(event.dice, "cubes", as_big) for event in watched["demo"][0])
    assert not any(size_hint(event.dice, "d6", as_big) for event in watched["d6"][0])


def test_watch_prints_the_hint_beside_the_rolls(capsys):
    main(["watch", "--source", str(CLIPS["cards"][0]), "--dice", "square-shooters"])
    out, err = capsys.readouterr()
    rolls = out.splitlines()
    assert len(rolls) == 3 and all(json.loads(line)["dice"] for line in rolls)
    assert err.count("dicescore watch: the dice look small to the camera") == 3


def test_watch_reports_each_photo_of_a_folder_as_a_roll(capsys, tmp_path):
    # a folder plays one photo a second, each a roll at rest: none used to settle
    for name in ("scene00001_0075.png", "scene00003_0075.png"):
        (tmp_path / name).write_bytes((FIXTURES / "scenes" / name).read_bytes())
    main(["watch", "--source", str(tmp_path), "--dice", "cubes"])
    rolls = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    # scene 1 shows six dice: five finds, four of them its dice (its CUBES and one BLANK die
    # are missed) and one off any die; scene 3 has three of its eight dice in view. Looked at
    # one way, scene 1 also gave a second find where no die lies, beside the 6, which the look
    # both ways drops (``Detector.detect``).
    assert [len(roll["dice"]) for roll in rolls] == [5, 3]


def test_watch_says_when_a_settled_table_could_not_be_read(capsys, monkeypatch, tmp_path):
    class Unread(RollTracker):  # each photo's look read nothing surely where the table changed
        def update(self, frame, readings):
            self.could_not_read(DieReadings.empty())

    monkeypatch.setattr(vision.tracker, "RollTracker", Unread)
    (tmp_path / "roll.png").write_bytes((FIXTURES / "scenes" / "scene00001_0075.png").read_bytes())
    main(["watch", "--source", str(tmp_path), "--dice", "cubes"])
    out, err = capsys.readouterr()
    assert (
        out == ""
        and "dicescore watch: something settled on the table that the camera could not read as Cubes dice"
        in err
    )


def test_watch_gives_no_hint_for_the_demo_whose_camera_cannot_move(capsys, monkeypatch):
    # the Cubes clip's dice (about 18 px) ask for the camera closer, played as a file
    monkeypatch.setattr(vision.sources, "DEMO_CLIP", CLIPS["cubes"][0])
    main(["watch", "--source", "demo", "--dice", "cubes"])
    out, err = capsys.readouterr()
    assert len(out.splitlines()) == 3 and "look small" not in err


def test_a_photo_reads_a_die_under_its_square_pips_not_the_pips(models):
    # A held-out render (data/scenes/heldout, scene 113, view 1): a brown Cubes 6 printed with
    # six white squares, beside a framed blank. Before session 32 the photo read as six blank
    # dice, one per square, and neither die: the quarters found the squares surely, and their
    # number set the size that dropped the dice (`Detector.detect_at_scales`, `without_print_or_groups`).
    truth = json.loads((FIXTURES / "photos" / "framed-six-and-blank.json").read_text())
    image = cv2.imread(str(FIXTURES / "photos" / truth["image"]))
    detector, _, photo_classifier = models
    found = DiceReader("cubes", detector, photo_classifier).read(image, still=True)
    seen = [die for die in truth["dice"] if die["visible"] >= 0.5]
    assert sorted(found.labels) == sorted(die["label"] for die in seen) == ["6", "BLANK"]
    for die in seen:  # each found as the die, not as one of its squares (a fifth of its side)
        centre, side = np.mean(die["quad"], 0), face_side(die["quad"])
        nearest = np.argmin(np.linalg.norm(found.centers - centre, axis=1))
        assert np.linalg.norm(found.centers[nearest] - centre) < 0.2 * side
        assert 0.8 < found.sizes[nearest] / side < 1.25


def test_a_photo_looked_at_both_ways_takes_less_for_dice(models):
    # A training-split render of six Cubes dice about 20 px across: looked at one way, a find
    # beside the 6 lies on no die; the mirror image does not show it, and averaged with it, it
    # goes (``Detector.detect``).
    truth = json.loads((FIXTURES / "scenes" / "scene00001_0075.json").read_text())
    image = cv2.imread(str(FIXTURES / "scenes" / truth["image"]))
    dice = [die for die in truth["dice"] if die["visible"] >= 0.5]
    centres = np.float32([np.mean(die["quad"], 0) for die in dice])
    sides = np.float32([face_side(die["quad"]) for die in dice])
    _, _, photo_classifier = models

    def on_no_die(detector):
        found = DiceReader("cubes", detector, photo_classifier).read(image, still=True)
        apart = np.linalg.norm(found.centers[:, None] - centres[None], axis=2)
        return int((apart >= 0.5 * sides[None]).all(1).sum()), len(found)

    one_way, both_ways = on_no_die(Detector(stills_both_ways=False)), on_no_die(Detector())
    assert both_ways[0] < one_way[0]
    assert both_ways[1] - both_ways[0] >= one_way[1] - one_way[0]  # no die lost


def test_a_phone_photo_taken_close_over_a_pile_finds_its_whole_dice(models):
    # A held-out render taken close (data/scenes/heldout-d6-close-hires, scene 0, first view),
    # shrunk to 640x480: a pile under a chip, its two wholly visible dice 88 and 130 px across.
    # Until session 83 the blue 2 was found by the pass that shrinks the photo to a quarter
    # alone, unsurely, and dropped: the whole photo shows it too big for the network, the
    # eighth too small; the third sees it too (`BIGGER_ZOOM_OUTS`).
    truth = json.loads((FIXTURES / "photos" / "close-up-pile.json").read_text())
    image = cv2.imread(str(FIXTURES / "photos" / truth["image"]))
    detector, _, photo_classifier = models
    found = DiceReader("d6", detector, photo_classifier).read(image, still=True)
    whole = [die for die in truth["dice"] if die["visible"] == 1.0]
    assert sorted(die["label"] for die in whole) == ["2", "5"]
    for die in whole:
        nearest = np.argmin(np.linalg.norm(found.centers - np.mean(die["quad"], 0), axis=1))
        assert np.linalg.norm(found.centers[nearest] - np.mean(die["quad"], 0)) < 0.2 * face_side(die["quad"])
        assert found.labels[nearest] == die["label"]


def test_a_close_up_reads_its_die_not_the_table_round_it(models):
    # A held-out 1280x960 render (data/scenes/heldout-d6-hires, scene 12, view 1): one die, its
    # face 215 px across. Before session 35 the pass that shrinks the photo to an eighth found
    # the table round it as one die 850 px across, as sure as the die the finer passes agree
    # on, and the photo read as a 1 that size (`without_print_or_groups`).
    truth = json.loads((FIXTURES / "photos" / "close-up-two.json").read_text())
    image = cv2.imread(str(FIXTURES / "photos" / truth["image"]))
    detector, _, photo_classifier = models
    found = DiceReader("d6", detector, photo_classifier).read(image, still=True)
    (die,) = truth["dice"]
    assert found.labels == [die["label"]] == ["2"]
    assert np.linalg.norm(found.centers[0] - np.mean(die["quad"], 0)) < 10
    assert 0.9 < found.sizes[0] / np.sqrt(cv2.contourArea(np.float32(die["quad"]))) < 1.1
