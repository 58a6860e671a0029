"""The detector's training code: targets sit on the dice, augmentation moves quads with the
pixels, the corner loss does not care which corner comes first, and an export obeys the
contract vision/detector.py reads."""

import json
from pathlib import Path

import cv2
import numpy as np
import onnx
import pytest
import torch

import models.train_detector as train_detector
from models.detector_net import STRIDE, DetectorNet
from models.train_detector import (
    CROP,
    INPUT_H,
    INPUT_W,
    Samples,
    detector_loss,
    distort,
    export,
    flat_cells,
    from_onnx,
    load_scenes,
    render_commands,
    targets,
    window,
)
from vision.detector import Detector


def square(x, y, side):
    return np.float32([[x, y], [x + side, y], [x + side, y + side], [x, y + side]])


def die(quad, visible=1.0, cocked=False):
    return {
        "quad": np.asarray(quad).tolist(),
        "visible": visible,
        "cocked": cocked,
        "label": "1",
        "kind": "d6",
    }


def write_truths(folder, scenes, split="train", **more):
    """Truth files as datasets.scenes.render names them: {scene number: (views, table)}."""
    folder.mkdir(exist_ok=True)
    for number, (views, table) in scenes.items():
        for view in range(views):
            name = f"scene{number:05d}_v{view:02d}"
            truth = {"image": name + ".png", "split": split, "table": table, "dice": []} | more
            (folder / f"{name}.json").write_text(json.dumps(truth))


def test_render_commands_remake_each_run_of_scene_numbers(tmp_path):
    write_truths(tmp_path / "plain", {5: (4, "wood"), 6: (4, "felt"), 9: (4, "cloth")})
    assert render_commands(tmp_path / "plain") == [
        f"python -m datasets.scenes.render --out {tmp_path / 'plain'} --start 5 --count 2 --seed 0 --views 4",
        f"python -m datasets.scenes.render --out {tmp_path / 'plain'} --start 9 --count 1 --seed 0 --views 4",
    ]
    write_truths(tmp_path / "tiled", {7: (2, "tiles"), 8: (2, "wood")})
    assert render_commands(tmp_path / "tiled") == [
        f"python -m datasets.scenes.render --out {tmp_path / 'tiled'} --start 7 --count 2 --seed 0 "
        "--tables wood felt cloth patterned glass tiles --views 2"
    ]
    write_truths(tmp_path / "paper", {0: (3, "white_paper")}, split="heldout")
    assert render_commands(tmp_path / "paper") == [
        f"python -m datasets.scenes.render --out {tmp_path / 'paper'} --start 0 --count 1 --seed 9000 "
        "--split heldout --tables white_paper --views 3"
    ]
    write_truths(tmp_path / "leaning", {300: (3, "marble")}, split="heldout", leaning=True)
    assert render_commands(tmp_path / "leaning") == [
        f"python -m datasets.scenes.render --out {tmp_path / 'leaning'} --start 300 --count 1 --seed 9000 "
        "--split heldout --views 3 --leaning"
    ]
    # session 25's train15 held plain and leaning runs side by side; the card named them all plain
    write_truths(tmp_path / "mixed", {10: (4, "wood"), 11: (4, "wood"), 12: (6, "wood")})
    write_truths(tmp_path / "mixed", {13: (4, "felt")}, leaning=True)
    assert render_commands(tmp_path / "mixed") == [
        f"python -m datasets.scenes.render --out {tmp_path / 'mixed'} --start {start} --count {count} "
        f"--seed 0 --views {views}{leaning}"
        for start, count, views, leaning in [(10, 2, 4, ""), (12, 1, 6, ""), (13, 1, 4, " --leaning")]
    ]


def test_a_folder_being_rendered_into_can_be_trained_on(tmp_path):
    # Blender leaves NAME.result.json beside the truths while it renders a scene; a training
    # run started meanwhile crashed on it (it has no "image")
    folder = tmp_path / "busy"
    write_truths(folder, {5: (2, "wood")})
    (folder / "scene00006.result.json").write_text(json.dumps({"frames": []}))
    assert render_commands(folder) == [
        f"python -m datasets.scenes.render --out {folder} --start 5 --count 1 --seed 0 --views 2"
    ]
    cv2.imwrite(str(folder / "scene00005_v00.png"), np.zeros((24, 32, 3), np.uint8))
    assert [truth["image"] for _, truth in load_scenes(folder)] == ["scene00005_v00.png"]


def test_targets_peak_at_the_face_centre_and_point_to_its_corners():
    quad = square(40, 60, 24)  # centre (52, 72) px = cell (13, 18)
    heat, heat_weight, corners, cocked, box_weight, size = targets([die(quad, cocked=True)], [quad])
    assert heat.shape == (CROP // STRIDE, CROP // STRIDE)
    assert heat[18, 13] == 1.0 and (heat == 1.0).sum() == 1
    offsets = corners[:, 18, 13].reshape(4, 2)
    np.testing.assert_allclose((offsets + [13.5, 18.5]) * STRIDE, quad, atol=1e-4)
    assert cocked[18, 13] == 1.0 and box_weight[17:20, 12:15].all()
    assert size[18, 13] == pytest.approx(24 / STRIDE)


def test_half_hidden_dice_are_neither_wanted_nor_punished():
    quad = square(40, 60, 24)
    heat, heat_weight, *_, box_weight, _ = targets([die(quad, visible=0.3)], [quad])
    assert heat.max() == 0 and box_weight.max() == 0
    assert heat_weight[18, 13] == 0 and heat_weight[0, 0] == 1


def test_a_window_moves_the_quads_with_the_pixels():
    image = np.zeros((240, 320, 3), np.uint8)
    quad = square(150, 100, 20)
    cv2.fillConvexPoly(image, quad.astype(np.int32), (255, 255, 255))
    rng = np.random.default_rng(3)
    for _ in range(10):
        crop, (moved,) = window(rng, image, [die(quad)])
        centre = moved.mean(0)
        if 3 <= centre[0] < CROP - 3 and 3 <= centre[1] < CROP - 3:
            assert crop[int(centre[1]), int(centre[0])].mean() > 128  # the die is where its quad says


def test_lens_distortion_moves_points_where_the_pixels_go():
    rng = np.random.default_rng(0)
    image = np.zeros((CROP, CROP, 3), np.uint8)
    quad = square(100, 30, 16)
    cv2.fillConvexPoly(image, quad.astype(np.int32), (255, 255, 255))
    for _ in range(5):
        out, (moved,) = distort(rng, image, [quad], centre=np.float32([20, 140]))
        centre = moved.mean(0)
        assert out[int(centre[1]), int(centre[0])].mean() > 128


def test_the_corner_loss_takes_the_quad_from_any_corner():
    model = DetectorNet(4)
    x = torch.rand(1, 3, CROP, CROP)
    quad = square(40, 60, 24)
    batch = [torch.from_numpy(t)[None] for t in targets([die(quad)], [quad])]
    outputs = model(x)
    rolled = [torch.from_numpy(t)[None] for t in targets([die(quad)], [np.roll(quad, 1, 0)])]
    assert detector_loss(outputs, batch)[1][1].item() == pytest.approx(
        detector_loss(outputs, rolled)[1][1].item()
    )


def test_an_exported_model_meets_the_detector_contract(tmp_path):
    path = tmp_path / "detector.onnx"
    export(DetectorNet(4), path, {"seed": 0})
    meta = {p.key: p.value for p in onnx.load(str(path)).metadata_props}
    assert (int(meta["input_width"]), int(meta["input_height"]), int(meta["stride"])) == (
        INPUT_W,
        INPUT_H,
        STRIDE,
    )
    found = Detector(path).detect(np.zeros((720, 1280, 3), np.uint8))  # an untrained net sees nothing
    assert len(found) == 0


def test_no_card_exports_the_model_and_its_recipe_alone(tmp_path, monkeypatch):
    # a run elsewhere (a GPU machine) exports only; its card is written later where the
    # held-out scenes are
    monkeypatch.setattr(train_detector, "CHECKPOINTS", tmp_path / "checkpoints")
    scenes = Path(__file__).resolve().parents[1] / "vision" / "fixtures" / "scenes"
    out = tmp_path / "out"
    args = ["--train", str(scenes), "--steps", "2", "--batch", "2", "--width", "4", "--workers", "0"]
    assert train_detector.main([*args, "--no-card", "--out", str(out)]) == 0
    assert sorted(path.name for path in out.iterdir()) == ["detector.onnx"]
    meta = {p.key: p.value for p in onnx.load(str(out / "detector.onnx")).metadata_props}
    recipe = json.loads(meta["recipe"])
    assert (recipe["device"], recipe["workers"], recipe["batch"], recipe["steps"]) == ("cpu", 0, 2, 2)
    assert (tmp_path / "checkpoints" / "detector-0-2-w4.pt").is_file()


@pytest.fixture
def exported(tmp_path):
    """A small detector whose batch norms are far from the identity, its exported file, and
    training windows to rebuild it from."""
    torch.manual_seed(0)
    model = DetectorNet(4).eval()
    for norm in (m for m in model.modules() if isinstance(m, torch.nn.BatchNorm2d)):
        norm.running_mean.uniform_(-0.5, 0.5), norm.running_var.uniform_(0.5, 2.0)
        norm.weight.data.uniform_(0.5, 1.5), norm.bias.data.uniform_(-0.5, 0.5)
    path = tmp_path / "detector.onnx"
    export(model, path, {"seed": 0})
    return model, path, [torch.rand(2, 3, CROP, CROP) for _ in range(2)]


def test_an_exported_model_is_rebuilt_exactly_to_train_on(exported):
    # checkpoints live in data/, which a new machine lacks; the shipped ONNX file (batch
    # norms folded into the convolutions) must be a starting point that computes the same
    model, path, windows = exported
    rebuilt = from_onnx(4, path, windows)
    x = torch.rand(1, 3, INPUT_H, INPUT_W)
    with torch.no_grad():
        for theirs, ours in zip(model(x), rebuilt.eval()(x), strict=True):
            assert torch.allclose(theirs, ours, atol=1e-4)
    with pytest.raises(ValueError, match="not a detector of width 8"):
        from_onnx(8, path, windows)


def test_a_rebuilt_model_in_training_computes_what_the_file_does(exported):
    # In train mode each batch norm normalises by the batch's own statistics; on the very
    # windows its statistics were measured on, the rebuilt network must still be the file's,
    # or fine-tuning starts from another network (as it did, at 8 times the file's loss,
    # while each norm was measured with the convolutions before it missing their biases).
    model, path, windows = exported
    rebuilt = from_onnx(4, path, windows).train()
    batch = torch.cat(windows)
    with torch.no_grad():
        for theirs, ours in zip(model(batch), rebuilt(batch), strict=True):
            assert torch.allclose(theirs, ours, atol=1e-3)


def test_training_starts_from_an_exported_model(tmp_path, monkeypatch):
    monkeypatch.setattr(train_detector, "CHECKPOINTS", tmp_path / "checkpoints")
    start = tmp_path / "start.onnx"
    export(DetectorNet(4), start, {"seed": 0})
    scenes = Path(__file__).resolve().parents[1] / "vision" / "fixtures" / "scenes"
    out = tmp_path / "out"
    args = ["--train", str(scenes), "--steps", "2", "--batch", "2", "--width", "4", "--workers", "0"]
    assert (
        train_detector.main([*args, "--init", str(start), "--lr", "1e-4", "--no-card", "--out", str(out)])
        == 0
    )
    recipe = json.loads(
        {p.key: p.value for p in onnx.load(str(out / "detector.onnx")).metadata_props}["recipe"]
    )
    assert (recipe["init"], recipe["lr"]) == (str(start), 1e-4)


def test_windows_cut_from_photos_without_dice_want_no_find():
    # real clutter, not the renders' props, is what a real photo's false dice lie on
    scene = np.full((240, 320, 3), 90, np.uint8)
    quad = square(150, 100, 30)
    cv2.fillConvexPoly(scene, quad.astype(np.int32), (250, 250, 250))
    photo = np.full((600, 800, 3), 200, np.uint8)
    scenes = [(scene, {"dice": [die(quad)]})]
    stream = iter(Samples(scenes, seed=3, negatives=[photo], negative_share=0.5))
    heats = [next(stream)[1] for _ in range(200)]
    empty = sum(heat.max() == 0 for heat in heats)
    assert 70 < empty < 150  # half from the photo, and some scene windows miss the die
    only_scenes = iter(Samples(scenes, seed=3))
    assert sum(next(only_scenes)[1].max() == 0 for _ in range(200)) < empty / 2
    with pytest.raises(ValueError, match="needs such photos"):
        Samples(scenes, seed=3, negative_share=0.5)


def test_flat_patches_of_photos_without_dice_are_not_scored():
    # a blank Cubes face is flat: taught that flat real patches are never dice, the detector
    # missed blank dice (docs/vision-limits.md, session 47)
    photo = np.full((300, 400, 3), 160, np.uint8)
    photo[:, 200:] = np.random.default_rng(0).integers(0, 255, (300, 200, 3), np.uint8)  # gravel
    flat = flat_cells(photo, below=4.0)
    assert flat.shape == (75, 100)
    assert flat[:, :45].all() and not flat[:, 55:].any()
    scenes = [(np.full((240, 320, 3), 90, np.uint8), {"dice": []})]
    stream = iter(Samples(scenes, seed=3, negatives=[photo], negative_share=1.0, negative_flat_below=4.0))
    weights = [next(stream)[2].numpy() for _ in range(50)]
    unscored = np.mean([(w == 0).mean() for w in weights])
    assert 0.2 < unscored < 0.8  # the flat half, wherever the window falls
    assert all(set(np.unique(w)) <= {0.0, 1.0} for w in weights)
    everything = iter(Samples(scenes, seed=3, negatives=[photo], negative_share=1.0))
    assert all(next(everything)[2].min() == 1 for _ in range(50))


def test_training_reads_negatives_and_records_them(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(train_detector, "CHECKPOINTS", tmp_path / "checkpoints")
    scenes = Path(__file__).resolve().parents[1] / "vision" / "fixtures" / "scenes"
    negatives = tmp_path / "photos"
    negatives.mkdir()
    cv2.imwrite(str(negatives / "table.jpg"), np.full((300, 400, 3), 120, np.uint8))
    out = tmp_path / "out"
    args = ["--train", str(scenes), "--steps", "2", "--batch", "2", "--width", "4", "--workers", "0"]
    assert train_detector.main([*args, "--negatives", str(negatives), "--no-card", "--out", str(out)]) == 0
    recipe = json.loads(
        {p.key: p.value for p in onnx.load(str(out / "detector.onnx")).metadata_props}["recipe"]
    )
    keys = ("negatives", "negative_share", "negative_flat_below")
    assert [recipe[key] for key in keys] == [[str(negatives)], 0.15, 4.0]
    assert (tmp_path / "checkpoints" / "detector-0-2-w4-negatives.pt").is_file()  # beside a run without
    with pytest.raises(SystemExit):  # a folder with no photos
        train_detector.main(
            [*args, "--negatives", str(tmp_path / "checkpoints"), "--no-card", "--out", str(out)]
        )
    assert "no photos in" in capsys.readouterr().err
    (negatives / "torn.jpg").write_bytes(b"not a picture")  # named, before any training starts
    with pytest.raises(SystemExit):
        train_detector.main([*args, "--negatives", str(negatives), "--no-card", "--out", str(out)])
    assert f"unreadable photos: {negatives / 'torn.jpg'}" in capsys.readouterr().err
