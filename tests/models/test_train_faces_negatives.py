"""`none` crops cut from real photos with no dice (`train_faces --negatives`): every crop is
the network's input size, the same photos give the same crops, flat crops (which a blank die
face would be too) are left out, and the model card's command and recipe say how they were
used. The photos here are made up: textures and a flat wall."""

import cv2
import numpy as np
import pytest

from datasets.photos_without_dice import LONGEST_SIDE, keep_wallpaper, photos
from models.face_net import INPUT_SIZE
from models.face_recipe import data_words, real_photo_words, reproduce_command
from models.train_faces import NEGATIVE_PLAIN, photo_negatives


@pytest.fixture(scope="module")
def photo_folder(tmp_path_factory):
    folder = tmp_path_factory.mktemp("photos")
    rng = np.random.default_rng(5)
    coarse = rng.integers(0, 256, (30, 40, 3), np.uint8)  # blotches about 10 px across
    cv2.imwrite(str(folder / "gravel.png"), cv2.resize(coarse, (400, 300), interpolation=cv2.INTER_CUBIC))
    stripes = np.zeros((240, 320, 3), np.uint8)
    for x in range(0, 320, 12):
        stripes[:, x : x + 5] = (40, 120, 220)
    cv2.imwrite(str(folder / "stripes.jpg"), stripes)
    (folder / "notes.txt").write_text("not a photo")
    return folder


def test_negative_crops_are_input_sized_textured_and_repeatable(photo_folder):
    crops = photo_negatives([photo_folder])
    assert crops.dtype == np.uint8 and crops.shape[1:] == (INPUT_SIZE, INPUT_SIZE, 3)
    assert len(crops) >= 2 * 2 * 50  # two photos, two sizes each at least, 50 random quads a size
    flatness = crops.mean(3).reshape(len(crops), -1).std(1)
    assert (flatness >= NEGATIVE_PLAIN).all()
    assert np.array_equal(crops, photo_negatives([photo_folder]))


def test_without_random_quads_only_the_detectors_finds_are_cut(photo_folder):
    assert len(photo_negatives([photo_folder], random_quads=0)) < len(photo_negatives([photo_folder])) - 100


def test_photos_where_the_detector_finds_nothing_give_no_crops_not_an_error(tmp_path):
    # session 47's detector, taught that real photos hold no dice, finds nothing on a plain
    # texture; with no random quads that is an empty set, not "no photos"
    cv2.imwrite(str(tmp_path / "wall.png"), np.full((200, 200, 3), 180, np.uint8))
    crops = photo_negatives([tmp_path], random_quads=0)
    assert crops.shape == (0, INPUT_SIZE, INPUT_SIZE, 3)


def test_a_flat_wall_gives_no_negatives_and_no_photos_is_an_error(tmp_path):
    cv2.imwrite(str(tmp_path / "wall.png"), np.full((200, 200, 3), 180, np.uint8))
    assert len(photo_negatives([tmp_path])) == 0
    with pytest.raises(SystemExit, match="no photos in"):
        photo_negatives([tmp_path / "empty"])


def test_photos_are_listed_in_name_order_pictures_only(photo_folder):
    assert [p.name for p in photos(photo_folder)] == ["gravel.png", "stripes.jpg"]


def test_a_wallpaper_is_kept_shrunk_to_the_longest_side(tmp_path):
    big = cv2.imencode(".png", np.full((2000, 3000, 3), 90, np.uint8))[1].tobytes()
    keep_wallpaper(big, "Dune.png", tmp_path)
    assert cv2.imread(str(tmp_path / "Dune.jpg")).shape == (round(LONGEST_SIDE * 2 / 3), LONGEST_SIDE, 3)


def test_the_card_says_how_the_negatives_were_used():
    recipe = {"seed": 44, "negatives": ["data/photos-without-dice/train"], "scene_share": 0.12}
    assert reproduce_command(recipe, "faces.onnx").endswith(
        "--seed 44 --negatives data/photos-without-dice/train --scene-share 0.12"
    )
    recipe["negative_random"] = 0
    assert (
        "--negatives data/photos-without-dice/train --negative-random 0 --scene-share"
        in reproduce_command(recipe, "faces.onnx")
    )
    recipe |= {"scenes": ["data/scenes/train15"], "scene_copies": 2}
    command = reproduce_command(recipe, "faces.onnx")
    assert command.count("--scene-share") == 1 and "--negatives data/photos-without-dice/train" in command


def test_the_card_says_which_photos_lay_under_the_rendered_dice():
    recipe = {"seed": 45, "photo_tables": ["data/photos-without-dice/train"], "photo_table_share": 0.5}
    assert reproduce_command(recipe, "faces.onnx").endswith(
        "--seed 45 --photo-tables data/photos-without-dice/train --photo-table-share 0.5"
    )


def test_the_card_says_real_photos_were_learnt_from_only_when_they_were():
    assert "no real photos" in data_words({"seed": 26})
    assert real_photo_words({"seed": 26}) == "Never trained or tested on real photographs"
    for recipe in ({"negatives": ["photos"]}, {"photo_tables": ["photos"], "photo_table_share": 0.5}):
        assert "real photos with no dice" in data_words(recipe)
        assert "real photograph of a die" in real_photo_words(recipe)


def test_the_card_says_which_real_decks_were_learnt_from():
    recipe = {"seed": 74, "decks": "data/card-decks", "deck_names": ["anglo", "dondorf"], "deck_copies": 12}
    recipe["scene_share"] = 0.35
    assert reproduce_command(recipe, "faces.onnx").endswith(
        "--seed 74 --decks data/card-decks --deck-copies 12 --scene-share 0.35"
    )
    recipe["negatives"] = ["data/photos-without-dice/train"]
    assert reproduce_command(recipe, "faces.onnx").count("--scene-share 0.35") == 1
    assert data_words(recipe).endswith("the corners of 2 real decks' cards")
    assert "real decks" not in data_words({"seed": 26})
