"""The committed rendered fixtures (datasets/scenes output) are well-formed ground truth, the
scene choices are reproducible without Blender, and the roll tracker works on rendered frames."""

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

import datasets.scenes.clips
import datasets.scenes.render
from datasets.faces.photo_tables import PhotoTables
from datasets.scenes.clips import build_clip
from datasets.scenes.render import (
    CLEAR_PLASTIC,
    CLOSE_VIEW,
    DRILL_DEPTH,
    FACE,
    HELDOUT_TABLES,
    MORE_HELDOUT_TABLES,
    MORE_TRAIN_TABLES,
    SAMPLES,
    SCATTER_SCALE,
    SCATTER_WEIGHT,
    TRAIN_TABLES,
    clear_body,
    die_faces,
    draw_table,
    scattering_body,
    scene_job,
)
from scoring.faces import CARD_LABELS, DIE_KINDS
from vision.readings import DieReadings, rectify
from vision.tracker import RollTracker

FIXTURES = Path(__file__).parent / "fixtures" / "scenes"
TRUTHS = sorted(FIXTURES.glob("*.json"))


def load(path):
    truth = json.loads(path.read_text())
    return truth, cv2.imread(str(path.parent / truth["image"]))


def seen(truth):
    return [die for die in truth["dice"] if die["visible"] >= 0.5]


def truth_readings(truth):
    """The readings a perfect detector and classifier give on this image."""
    dice = seen(truth)
    readings = DieReadings.from_quads(np.array([d["quad"] for d in dice], np.float32).reshape(-1, 4, 2))
    return readings.with_faces([Reading(d["label"]) for d in dice])


class Reading:
    def __init__(self, label):
        self.label, self.confidence, self.top = label, 1.0, [(label, 1.0)]


def test_there_are_train_and_heldout_fixtures():
    splits = [json.loads(path.read_text())["split"] for path in TRUTHS]
    assert splits.count("train") >= 3 and splits.count("heldout") >= 2


@pytest.mark.parametrize("path", TRUTHS, ids=lambda p: p.stem)
def test_fixture_ground_truth_is_well_formed(path):
    truth, image = load(path)
    assert image is not None and list(image.shape[1::-1]) == truth["size"]
    assert seen(truth), "every fixture shows at least one die"
    for die in truth["dice"]:
        assert die["label"] in DIE_KINDS[die["kind"]].label_set
        assert np.array(die["quad"]).shape == (4, 2)
        assert 0 <= die["visible"] <= 1 and isinstance(die["cocked"], bool)
    w, h = truth["size"]
    for die in seen(truth):
        quad = np.array(die["quad"])
        assert (quad > -0.1 * w).all() and (quad[:, 0] < 1.1 * w).all() and (quad[:, 1] < 1.1 * h).all()


@pytest.mark.parametrize("path", TRUTHS[:2], ids=lambda p: p.stem)
def test_a_visible_face_rectifies_to_a_plain_die_border(path):
    """The quads sit on the dice: the rim of a rectified face is die material (little variation)."""
    truth, image = load(path)
    flat = [d for d in seen(truth) if d["visible"] == 1 and not d["cocked"]]
    crops = rectify(image, [d["quad"] for d in flat], size=32)
    rims = [np.concatenate([c[:3].reshape(-1, 3), c[-3:].reshape(-1, 3)]).std(0).mean() for c in crops]
    assert np.median(rims) < 25


def test_scene_choices_are_reproducible_without_blender(tmp_path):
    jobs = []
    for name in "ab":
        (tmp_path / name).mkdir()
        job = scene_job(7, 3, "train", tmp_path / name, tmp_path)
        jobs.append(json.dumps(job).replace(str(tmp_path / name), "TMP"))
    assert jobs[0] == jobs[1]
    assert (
        cv2.imread(str(tmp_path / "a" / "die0.png")).tobytes()
        == cv2.imread(str(tmp_path / "b" / "die0.png")).tobytes()
    )


def test_translucent_dice_change_nothing_else_in_the_scene(tmp_path):
    (tmp_path / "opaque").mkdir()
    (tmp_path / "clear").mkdir()
    opaque = scene_job(7, 3, "heldout", tmp_path / "opaque", tmp_path, kind="d6")
    clear = scene_job(7, 3, "heldout", tmp_path / "clear", tmp_path, kind="d6", translucent=True)
    for die in clear["dice"]:
        assert die.pop("transmission") == CLEAR_PLASTIC
        mask = cv2.imread(die.pop("clear"), cv2.IMREAD_GRAYSCALE)
        assert mask.shape == (2 * FACE, 3 * FACE) and set(np.unique(mask)) == {0, 255}
    assert json.dumps(clear).replace("clear", "T") == json.dumps(opaque).replace("opaque", "T")


def jobs_without_and_with(tmp_path, views=1, **change):
    """Held-out scene 3 of seed 7 (pip dice, filmed ``views`` times) as it is and with
    ``change``, each job's textures in a folder of its own."""
    jobs = []
    for name, asked in (("plain", {}), ("changed", change)):
        (tmp_path / name).mkdir()
        jobs.append(scene_job(7, 3, "heldout", tmp_path / name, tmp_path, kind="d6", views=views, **asked))
    return jobs


def shots_of(job: dict) -> list[dict]:
    """A still job's shots: its first camera and light rig (the job itself), then its views."""
    return [job] + job["views"]


def the_same_but_folders(plain: dict, changed: dict) -> bool:
    return json.dumps(changed).replace("/changed/", "/T/") == json.dumps(plain).replace("/plain/", "/T/")


def test_drilled_dice_sink_their_paint_and_change_nothing_else(tmp_path):
    flat, drilled = jobs_without_and_with(tmp_path, drilled=True)
    depths = []
    for die in drilled["dice"]:
        depths.append(die.pop("depth"))
        height = cv2.imread(die.pop("hollows"), cv2.IMREAD_GRAYSCALE).astype(int)
        paint = clear_body(cv2.imread(die["atlas"])) == 0
        # the face stands at the top, every pip sinks below it, and the wall is no cliff:
        # most pips reach the floor, and the face's edge never moves
        assert (height[~paint] == 255).all() and (height[paint] < 255).all()
        assert (height[paint] == 0).mean() > 0.2 and ((height > 0) & (height < 255)).any()
    assert all(DRILL_DEPTH[0] <= d <= DRILL_DEPTH[1] for d in depths) and len(set(depths)) == len(depths)
    assert the_same_but_folders(flat, drilled)


def test_scattering_dice_scatter_in_their_body_only_and_change_nothing_else(tmp_path):
    flat, scattering = jobs_without_and_with(tmp_path, scattering=True)
    draws = []
    for die in scattering["dice"]:
        scatter = die.pop("scatter")
        body = cv2.imread(scatter["body"], cv2.IMREAD_GRAYSCALE)
        # the light wanders in the plastic, never under the paint
        assert (body == clear_body(cv2.imread(die["atlas"]))).all() and 0 < (body == 0).mean() < 0.5
        assert SCATTER_WEIGHT[0] <= scatter["weight"] <= SCATTER_WEIGHT[1]
        assert SCATTER_SCALE[0] <= scatter["scale"] <= SCATTER_SCALE[1]
        assert all(0.25 <= channel <= 1 for channel in scatter["radius"])
        draws.append(scatter["scale"])
    assert len(set(draws)) == len(draws)  # each die its own plastic
    assert the_same_but_folders(flat, scattering)
    with pytest.raises(ValueError, match="flat plastic"):
        scene_job(7, 3, "heldout", tmp_path / "plain", tmp_path, kind="d6", scattering=True, swirled=True)


def test_a_flash_photo_adds_a_light_at_the_lens_and_dims_the_room_only(tmp_path):
    plain, flashed = jobs_without_and_with(tmp_path, flash=True, views=3)
    rooms = []
    for shot, lit in zip(shots_of(plain), shots_of(flashed), strict=True):
        flash = lit.pop("flash")
        assert flash["size"] <= 0.2 and all(abs(v) <= 0.6 for v in flash["offset"])  # beside the lens
        room = lit["ambient"][0] / shot["ambient"][0]
        assert 0.1 <= room <= 0.5 and np.allclose(lit.pop("ambient"), np.multiply(shot.pop("ambient"), room))
        for light, dimmed in zip(shot["lights"], lit["lights"], strict=True):
            assert dimmed.pop("energy") == pytest.approx(light.pop("energy") * room)
        rooms.append(room)
    assert len(set(rooms)) == 3  # each view its own room
    assert the_same_but_folders(plain, flashed)  # the dice, table and cameras are the same


def test_a_close_up_aims_each_view_at_a_die_and_changes_nothing_else(tmp_path):
    plain, close = jobs_without_and_with(tmp_path, close=True, views=3)
    aims = []
    for shot, near in zip(shots_of(plain), shots_of(close), strict=True):
        camera, near_camera = shot["camera"], near["camera"]
        # a few dice across the picture, whatever the dice's spread, near the aimed die
        view = near_camera.pop("view")
        assert CLOSE_VIEW[0] <= view <= CLOSE_VIEW[1] and view < camera.pop("view")
        assert near_camera.pop("fit") is False and near_camera["aim_at_dice"]
        assert np.hypot(*near_camera.pop("target")[:2]) < view / 2  # the aimed die in the picture
        camera.pop("target")
        aims.append(near_camera.pop("aim_at_die"))
        camera.pop("fit")
    assert len(set(aims)) == 3  # each view its own die
    assert the_same_but_folders(plain, close)  # the dice, table, lights and lens are the same
    clip = scene_job(7, 3, "heldout", tmp_path / "plain", tmp_path, kind="d6", frames=[0, 1], close=True)
    assert "aim_at_die" not in clip["camera"]  # a clip's camera stays put, wide


def test_the_render_command_passes_on_what_it_is_asked(monkeypatch, tmp_path):
    asked = []
    monkeypatch.setattr(datasets.scenes.render, "render_scene", lambda *a, **k: asked.append(k))
    argv = ["--out", str(tmp_path), "--count", "1", "--split", "heldout"]
    asking = ["--scattering", "--drilled", "--flash", "--close", "--samples", "32"]
    assert datasets.scenes.render.main(argv + asking) == 0
    assert asked[0]["scattering"] and asked[0]["drilled"] and asked[0]["flash"] and asked[0]["close"]
    assert asked[0]["samples"] == 32
    assert datasets.scenes.render.main(argv) == 0
    assert not asked[1]["scattering"] and not asked[1]["flash"] and not asked[1]["close"]
    assert asked[1]["samples"] == SAMPLES
    with pytest.raises(SystemExit):
        datasets.scenes.render.main(argv + ["--samples", "0"])


def test_more_samples_change_only_the_samples(tmp_path):
    plain, sharper = jobs_without_and_with(tmp_path, samples=4 * SAMPLES)
    assert (plain.pop("samples"), sharper.pop("samples")) == (SAMPLES, 4 * SAMPLES)
    assert the_same_but_folders(plain, sharper)


def test_light_scattered_in_a_dies_plastic_keeps_the_bodys_colour():
    atlas = np.full((2 * FACE, 3 * FACE, 3), (40, 40, 200), np.uint8)  # red plastic (BGR)
    cv2.circle(atlas, (FACE // 2, FACE // 2), 12, (245, 245, 245), -1)  # a white pip
    red, green, blue = scattering_body(np.random.default_rng(0), atlas, clear_body(atlas))["radius"]
    assert red > 0.8 and green == blue < 0.4
    # where the mask leaves no texel unpainted, the whole atlas's colour (here white), not NaN
    atlas[:, : 3 * FACE * 3 // 5] = 245
    nowhere = np.zeros(atlas.shape[:2], np.uint8)
    assert scattering_body(np.random.default_rng(0), atlas, nowhere)["radius"] == [0.971, 0.971, 0.971]


def test_leaning_scenes_stand_more_dice_and_change_nothing_else(tmp_path):
    def job(index, leaning):
        folder = tmp_path / f"{index}{leaning}"
        folder.mkdir()
        return scene_job(7, index, "train", folder, tmp_path, leaning=leaning)

    plain = [job(i, False) for i in range(12)]
    leaning = [job(i, True) for i in range(12)]
    assert sum(len(j["leans"]) for j in leaning) >= 2 * sum(len(j["leans"]) for j in plain)
    for a, b in zip(plain, leaning, strict=True):
        assert len(b["leans"]) >= (len(b["dice"]) > 1) and len(b["leans"]) <= max(1, len(b["dice"]) // 2)
        assert len({lean["die"] for lean in b["leans"]}) == len(b["leans"])
        # the same dice, distractors, cameras and lights (the table's and the physics' draws come after)
        same = ("dice", "distractors", "views", "camera", "lights", "hand")
        assert json.dumps([a.get(k) for k in same]).replace("False", "T") == json.dumps(
            [b.get(k) for k in same]
        ).replace("True", "T")


def test_a_translucent_die_is_clear_where_unpainted():
    atlas = np.full((2 * FACE, 3 * FACE, 3), (40, 40, 200), np.uint8)  # red plastic
    cv2.circle(atlas, (FACE // 2, FACE // 2), 12, (245, 245, 245), -1)  # a white pip
    mask = clear_body(atlas)
    assert mask[FACE // 2, FACE // 2] == 0  # the paint stays opaque
    assert mask[5, 5] == 255 and mask[FACE + 5, 2 * FACE + 5] == 255


@pytest.fixture
def table_photos(tmp_path, monkeypatch):
    """Each split's photos for photo tables: one made-up photo a split, in a folder of its own."""
    folders = {}
    for split, shade in (("train", 60), ("heldout", 200)):
        folder = tmp_path / f"photos-{split}"
        folder.mkdir()
        photo = np.random.default_rng(shade).integers(0, 40, (300, 400, 3)).astype(np.uint8) + np.uint8(shade)
        cv2.imwrite(str(folder / "photo.png"), photo)
        folders[split] = folder
    monkeypatch.setattr(datasets.scenes.render, "PHOTO_TABLES", folders)
    return folders


def test_each_split_draws_its_own_tables_or_the_ones_asked_for(tmp_path, table_photos):
    def style(index, split, **tables):
        return scene_job(7, index, split, tmp_path, tmp_path, count=1, **tables)["style"]

    assert {style(i, "train") for i in range(20)} <= set(TRAIN_TABLES)
    extra = {style(i, "train", tables=MORE_TRAIN_TABLES) for i in range(20)}
    assert extra == set(MORE_TRAIN_TABLES)
    assert {style(i, "heldout") for i in range(10)} <= set(HELDOUT_TABLES)
    assert {style(i, "heldout", tables=MORE_HELDOUT_TABLES) for i in range(10)} == set(MORE_HELDOUT_TABLES)
    # a split never draws the other's tables: held-out scenes must stay unlike training
    with pytest.raises(ValueError, match="heldout scenes use the tables marble"):
        style(0, "heldout", tables=MORE_TRAIN_TABLES)
    with pytest.raises(ValueError, match="not white_paper"):
        style(0, "train", tables=MORE_HELDOUT_TABLES)


def test_a_photo_table_is_printed_with_its_own_splits_photos(tmp_path, table_photos):
    """Held-out scenes must show real textures that training never saw: the made-up held-out
    photo is pale (200-239), the training one dark (60-99); enlarging rings a little past them."""
    for split, lowest, highest in (("train", 40, 120), ("heldout", 180, 255)):
        (tmp_path / split).mkdir()
        job = scene_job(7, 0, split, tmp_path / split, tmp_path, count=1, tables=("photo",))
        table = cv2.imread(job["table"]["texture"])
        assert table.shape == (512, 512, 3)
        assert lowest <= table.min() and table.max() <= highest, split


def test_a_photo_table_without_its_photos_says_how_to_fetch_them(tmp_path, monkeypatch):
    missing = tmp_path / "photos-without-dice" / "test"
    monkeypatch.setattr(datasets.scenes.render, "PHOTO_TABLES", {"heldout": missing})
    with pytest.raises(
        ValueError, match=r"photo tables: no photos in .*test \(python -m datasets.photos_without_dice test\)"
    ):
        scene_job(7, 0, "heldout", tmp_path, tmp_path, count=1, tables=("photo",))


@pytest.mark.parametrize("style", TRAIN_TABLES + MORE_TRAIN_TABLES + HELDOUT_TABLES + MORE_HELDOUT_TABLES)
def test_every_table_style_draws_a_varied_texture(style):
    photos = PhotoTables([np.random.default_rng(0).integers(0, 256, (90, 120, 3)).astype(np.uint8)], 1.0)
    first, second = (
        draw_table(np.random.default_rng(seed), style, size=64, photos=photos) for seed in (1, 2)
    )
    assert first.shape == (64, 64, 3) and first.dtype == np.uint8
    assert not np.array_equal(first, second), "a table's look depends on the seed"


def test_nine_card_dice_share_one_deck(tmp_path):
    job = scene_job(7, 3, "train", tmp_path, tmp_path, kind="square-shooters", count=9)
    faces = [label for die in job["labels"] for label in die]
    assert sorted(faces) == sorted([*CARD_LABELS, "JOKER_RED", "JOKER_BLACK"])


def test_a_d6_has_opposite_faces_adding_to_seven():
    faces = [int(label) for label in die_faces(np.random.default_rng(1), "d6")]
    assert sorted(faces) == [1, 2, 3, 4, 5, 6]
    assert faces[0] + faces[1] == faces[2] + faces[3] == faces[4] + faces[5] == 7


def test_tracker_reports_each_rendered_table_once():
    """Rendered tables shown one after another (a cut is motion, then stillness): one event each."""
    tracker = RollTracker(fps=30)
    rng = np.random.default_rng(0)
    events, expected = [], []
    for path in TRUTHS[:3]:
        truth, image = load(path)
        readings = truth_readings(truth)
        expected.append(sorted(d["label"] for d in seen(truth)))
        for _ in range(15):
            frame = np.clip(image + rng.normal(0, 1.5, image.shape), 0, 255).astype(np.uint8)
            event = tracker.update(frame, readings)
            events += [event] if event else []
    # the first table was there from the start: no motion, no roll
    assert [sorted(e.labels) for e in events] == expected[1:]


@pytest.fixture
def asked(monkeypatch):
    """Blender's stand-in for clips: one grey picture a frame, one die showing 3; what each
    roll asked for is kept."""
    asked = []

    def render_scene(seed, index, folder, split, size, frames, roll, kind, count, hand, pickup):
        asked.append({"split": split, "kind": kind, "count": count, "frames": frames, "pickup": pickup})
        folder.mkdir(parents=True, exist_ok=True)
        truths = []
        for frame in frames:
            cv2.imwrite(str(folder / f"{frame:04d}.png"), np.full((size[1], size[0], 3), 90, np.uint8))
            die = {
                "label": "3",
                "quad": [[10, 10], [20, 10], [20, 20], [10, 20]],
                "visible": 1.0,
                "cocked": False,
            }
            truths.append({"image": f"{frame:04d}.png", "dice": [die]})
        return truths

    monkeypatch.setattr(datasets.scenes.clips, "render_scene", render_scene)
    return asked


def test_a_clip_is_rendered_from_the_split_asked_for(tmp_path, asked):
    clip, rolls = build_clip(
        tmp_path / "c.mp4", 1, 2, "d6", 1, size=(64, 48), settle_seconds=0.2, split="heldout"
    )
    assert [(a["split"], a["kind"], a["count"], a["pickup"]) for a in asked] == [
        ("heldout", "d6", 1, None)
    ] * 2
    assert [json.loads(line)["faces"] for line in rolls.read_text().splitlines()] == [["3"], ["3"]]
    assert cv2.VideoCapture(str(clip)).read()[0]


def test_a_clip_with_pickups_takes_the_dice_away_after_each_roll(tmp_path, asked):
    """After each roll's settled table: a hand taking the dice (the pickup's frames, each
    shown STEP times), then the empty table for a second; the rolls' answers are the same."""
    plain, _ = build_clip(tmp_path / "a.mp4", 1, 2, "d6", 1, size=(64, 48), settle_seconds=0.2)
    picked, rolls = build_clip(
        tmp_path / "b.mp4", 1, 2, "d6", 1, size=(64, 48), settle_seconds=0.2, pickup=True
    )
    first, last = datasets.scenes.clips.PICKUP
    assert all(
        a["pickup"] == (first, last) and a["frames"][-1] == datasets.scenes.clips.EMPTY for a in asked[2:]
    )
    assert set(range(first, last + 1, datasets.scenes.clips.STEP)) <= set(asked[2]["frames"])

    def length(clip):
        return int(cv2.VideoCapture(str(clip)).get(cv2.CAP_PROP_FRAME_COUNT))

    picking = len(range(first, last + 1, datasets.scenes.clips.STEP)) * datasets.scenes.clips.STEP
    assert length(picked) - length(plain) == 2 * (picking + datasets.scenes.clips.FPS)
    assert [json.loads(line)["faces"] for line in rolls.read_text().splitlines()] == [["3"], ["3"]]


def test_the_clip_command_holds_each_settled_roll_as_long_as_asked(tmp_path, asked):
    def length(settle):
        clip = tmp_path / f"{settle}.mp4"
        argv = ["--out", str(clip), "--rolls", "2", "--dice", "d6", "--count", "1", "--size", "64", "48"]
        assert datasets.scenes.clips.main(argv + ["--settle", str(settle)]) == 0
        return int(cv2.VideoCapture(str(clip)).get(cv2.CAP_PROP_FRAME_COUNT))

    assert length(1.0) - length(0.5) == 2 * 0.5 * datasets.scenes.clips.FPS


def test_a_picking_hand_changes_nothing_else_in_the_scene(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    frames = [1, 4, 75, 124, 187]
    plain = scene_job(7, 0, "train", tmp_path / "a", tmp_path, frames=frames, roll=2, kind="d6")
    picked = scene_job(
        7, 0, "train", tmp_path / "b", tmp_path, frames=frames, roll=2, kind="d6", pickup=(124, 184)
    )
    hand = picked.pop("pickup")
    assert plain.pop("pickup") is None
    assert json.dumps(picked).replace(str(tmp_path / "b"), "T") == json.dumps(plain).replace(
        str(tmp_path / "a"), "T"
    )
    assert hand["frames"] == [124, 184] and len(hand["start"]) == 2
    # it comes in from far beyond the dice, which a clip lets go of within 3 widths of the middle
    assert np.linalg.norm(hand["start"]) > 10


def test_swirled_dice_change_nothing_else_in_the_scene(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    flat = scene_job(7, 3, "heldout", tmp_path / "a", tmp_path, kind="d6")
    swirled = scene_job(7, 3, "heldout", tmp_path / "b", tmp_path, kind="d6", swirled=True)
    same = json.dumps(flat).replace(str(tmp_path / "a"), "T")
    assert json.dumps(swirled).replace(str(tmp_path / "b"), "T") == same
    for die in range(len(flat["dice"])):
        plain = cv2.imread(str(tmp_path / "a" / f"die{die}.png")).astype(int)
        cast = cv2.imread(str(tmp_path / "b" / f"die{die}.png")).astype(int)
        # every die is cast anew (that its print stays is tests/datasets/test_plastics.py's)
        assert np.abs(plain - cast).mean() > 2
