"""Face training on crops cut from rendered scenes: only the train split is used, each crop
carries its die's label, jittered quads stay near the true ones, `none` crops keep off the
dice, an epoch mixes in the asked share of scene crops, a cached pool is reused, and a
teacher's readings are learnt. Runs on the committed scene fixtures (4 train, 2 held-out),
no Blender needed."""

import json
import shutil
from collections import Counter
from pathlib import Path

import cv2
import numpy as np
import pytest
import torch

from datasets.faces import NONE, render_set
from models import train_faces
from models.face_card import scene_dice, scene_reports
from models.face_net import WIDTH, FaceNet, width_of
from models.face_recipe import reproduce_command
from models.train_faces import (
    SCENE_JITTER,
    SCENE_SEEN,
    epoch_order,
    face_side,
    none_quads,
    render_pool,
    scene_crops,
    scene_samples,
    scene_truths,
)
from tests.models.nets import gap_to, softened
from vision.faces import FaceClassifier

FIXTURES = Path(__file__).parent.parent / "vision" / "fixtures" / "scenes"


def truths(split):
    return [truth for _, truth in scene_truths([FIXTURES], split)[0]]


def seen(truth):
    return [die for die in truth["dice"] if die["visible"] >= SCENE_SEEN]


def test_scene_truths_keep_one_split_and_count_the_others():
    train, skipped = scene_truths([FIXTURES], "train")
    assert len(train) == 4 and skipped == 2
    assert all(truth["split"] == "train" for _, truth in train)
    assert all(path.is_file() for path, _ in train)


def test_a_truth_whose_picture_is_not_there_yet_is_passed_over(tmp_path):
    source = FIXTURES / "scene00000_0075.json"
    shutil.copy(source, tmp_path / source.name)
    (tmp_path / "half_written.json").write_text('{"image": "x.png", "spl')
    assert scene_truths([tmp_path], "train") == ([], 0)


def test_scene_crops_come_from_train_scenes_only_with_their_dice_labels():
    copies = 3
    images, labels, count = scene_crops([FIXTURES], copies, seed=0)
    assert count == 4
    assert images.shape == (len(labels), 64, 64, 3) and images.dtype == np.uint8
    dice = Counter(die["label"] for truth in truths("train") for die in seen(truth))
    assert Counter(label for label in labels if label != NONE) == {k: n * copies for k, n in dice.items()}
    assert labels.count(NONE) == 4 * max(1, copies // 2)  # the fixtures leave room for them all


def test_only_held_out_scenes_are_refused(tmp_path):
    for truth in FIXTURES.glob("*.json"):
        if json.loads(truth.read_text())["split"] == "heldout":
            shutil.copy(truth, tmp_path)
            shutil.copy(truth.with_suffix(".png"), tmp_path)
    with pytest.raises(SystemExit, match="no train-split scenes"):
        scene_crops([tmp_path], 2, seed=0)


def test_scene_crops_are_seeded():
    first, first_labels, _ = scene_crops([FIXTURES], 2, seed=1)
    again, again_labels, _ = scene_crops([FIXTURES], 2, seed=1)
    other, _, _ = scene_crops([FIXTURES], 2, seed=2)
    assert first_labels == again_labels and first.tobytes() == again.tobytes()
    assert first.tobytes() != other.tobytes()


@pytest.mark.parametrize("jitter", [SCENE_JITTER, 0.12])
def test_jittered_quads_stay_near_their_die(jitter):
    rng = np.random.default_rng(0)
    copies = 8
    farthest = 0.0  # of a face's side, over every corner cut
    for truth in truths("train"):
        samples = scene_samples(rng, truth, copies, jitter)
        for i, die in enumerate(seen(truth)):
            true = np.float32(die["quad"])
            reach = jitter * face_side(true) + 1e-3
            for quad, label in samples[i * copies : (i + 1) * copies]:
                assert label == die["label"]
                moved = np.abs(quad - true)
                assert moved.max() <= reach and moved.max() > 0
                farthest = max(farthest, moved.max() / face_side(true))
    # the corners use the reach they are given, not a fixed one
    assert farthest > 0.8 * jitter


def test_a_wider_scene_jitter_reaches_the_cutting_and_the_reproduce_command(monkeypatch, tmp_path):
    seen_jitter = []

    def cut(folders, copies, seed, jitter):
        seen_jitter.append(jitter)
        raise SystemExit("stop after cutting")

    monkeypatch.setattr(train_faces, "render_pool", lambda *a: (np.zeros((1, 64, 64, 3), np.uint8), ["AS"]))
    monkeypatch.setattr(train_faces, "scene_crops", cut)
    with pytest.raises(SystemExit, match="stop after cutting"):
        train_faces.main(["--scenes", str(FIXTURES), "--scene-jitter", "0.12", "--out", str(tmp_path)])
    assert seen_jitter == [0.12]
    recipe = {"seed": 0, "scenes": ["data/scenes/train8"], "scene_copies": 4, "scene_share": 0.25}
    assert "--scene-jitter" not in reproduce_command(recipe | {"scene_jitter": SCENE_JITTER}, "faces.onnx")
    assert "--scene-jitter 0.12" in reproduce_command(recipe | {"scene_jitter": 0.12}, "faces.onnx")


def test_none_quads_touch_no_die_and_stay_in_the_picture():
    rng = np.random.default_rng(0)
    found = 0
    for truth in truths("train") + truths("heldout"):
        w, h = truth["size"]
        dice = [np.float32(die["quad"]) for die in truth["dice"]]
        for quad in none_quads(rng, truth, 5):
            found += 1
            assert (quad >= 0).all() and (quad[:, 0] <= w).all() and (quad[:, 1] <= h).all()
            for die in dice:
                if cv2.isContourConvex(die):
                    assert cv2.intersectConvexConvex(quad, die)[0] == 0
                assert cv2.pointPolygonTest(quad, tuple(float(v) for v in die.mean(0)), False) < 0
    assert found >= 15


def test_an_epoch_holds_the_whole_pool_once_and_the_asked_share_of_scene_crops():
    generator = torch.Generator().manual_seed(0)
    order = epoch_order(generator, pool_size=650, scene_size=40, scene_share=0.35)
    pool, scenes = order[order < 650], order[order >= 650]
    assert sorted(pool.tolist()) == list(range(650))
    assert len(scenes) == 350 and set(scenes.tolist()) == set(range(650, 690))
    counts = Counter(scenes.tolist()).values()
    assert max(counts) - min(counts) <= 1  # oversampled evenly


def test_without_scenes_an_epoch_is_the_pool_shuffled_as_before():
    order = epoch_order(torch.Generator().manual_seed(3), 100, 0, 0.35)
    assert order.tolist() == torch.randperm(100, generator=torch.Generator().manual_seed(3)).tolist()


def test_a_smaller_pool_is_cut_from_a_bigger_cached_one(tmp_path, monkeypatch):
    monkeypatch.setattr(train_faces, "CACHE", tmp_path)
    families = ("d6_pips",)
    images = np.arange(10 * 2 * 2 * 3, dtype=np.uint8).reshape(10, 2, 2, 3)
    labels = np.array([str(i % 6 + 1) for i in range(10)])
    name = f"train-3-10-d6_pips-{train_faces.renderer_digest()}.npz"
    np.savez(tmp_path / name, images=images, labels=labels)
    got, got_labels = render_pool(4, 3, families, workers=1, desc="train")
    assert got.tobytes() == images[:4].tobytes() and got_labels == list(labels[:4])
    assert train_faces.cached_pool("train", 3, 11, families) is None
    assert train_faces.cached_pool("train", 4, 4, families) is None


def test_card_reads_held_out_scene_dice_with_their_kind(tmp_path):
    crops, labels, kinds, images = scene_dice([FIXTURES], "heldout")
    assert images == 2
    assert len(crops) == len(labels) == sum(len(seen(truth)) for truth in truths("heldout"))
    reports = scene_reports(FaceClassifier(data_dir=tmp_path), crops, labels, kinds)
    assert reports["all dice"]["n"] == len(crops)
    assert sum(r["n"] for kind, r in reports.items() if kind != "all dice") == len(crops)
    assert all(0 <= r["unreadable"] <= 1 for r in reports.values())


def test_a_teacher_pulls_the_student_towards_its_readings(tmp_path, monkeypatch):
    monkeypatch.setattr(train_faces, "CACHE", tmp_path)  # the per-epoch checkpoints
    images, labels, _ = render_set(256, 3)
    torch.manual_seed(0)
    teacher = FaceNet(len(train_faces.LABELS), width=16).eval()
    x = train_faces.to_tensor(torch.from_numpy(images))
    taught = softened(teacher, x)

    def gap_to_teacher(student):
        return gap_to(taught, student, x)

    alone = train_faces.train(images, labels, epochs=2, batch=64, seed=1, lr=3e-3)
    distilled = train_faces.train(images, labels, epochs=2, batch=64, seed=1, lr=3e-3, teacher=teacher)
    assert gap_to_teacher(distilled) < 0.8 * gap_to_teacher(alone)
    # the teacher's width is read back from a checkpoint, as --teacher does
    assert width_of(torch.load(next(tmp_path.glob("checkpoint-*-distilled-epoch1.pt")))) == WIDTH
    assert width_of(teacher.state_dict()) == 16
