"""Real photos under rendered dice (datasets.faces.photo_tables, `train_faces --photo-tables`):
only the table changes, every other draw of a crop stays the one rendered without photos, and
a folder with nothing to read says so. The photos here are made up: one colour each."""

import cv2
import numpy as np
import pytest

from datasets.faces import TRAIN_FAMILIES, render_set
from datasets.faces.photo_tables import PhotoTables, photo_tables
from models import train_faces
from models.face_net import INPUT_SIZE

MAGENTA = (255, 0, 255)  # BGR: a table colour the renderer's own tables hardly ever reach


def magenta_photo(height=300, width=400):
    photo = np.zeros((height, width, 3), np.uint8)
    photo[:] = MAGENTA
    return photo


def magenta_share(crops):
    """How far each crop's outer ring leans to magenta: blue and red over green, in grey levels."""
    ring = np.concatenate(
        [crops[:, :4].reshape(len(crops), -1, 3), crops[:, -4:].reshape(len(crops), -1, 3)], 1
    )
    b, g, r = (ring[..., c].astype(float).mean(1) for c in range(3))
    return (b + r) / 2 - g


def test_with_no_share_every_crop_is_the_one_rendered_without_photos():
    plain, labels, _ = render_set(24, 3, TRAIN_FAMILIES)
    tables = PhotoTables([magenta_photo()], share=0.0)
    same, same_labels, _ = render_set(24, 3, TRAIN_FAMILIES, tables=tables)
    assert np.array_equal(plain, same) and labels == same_labels


def test_photos_change_the_table_and_nothing_else():
    plain, labels, families = render_set(60, 3, TRAIN_FAMILIES)
    on_photos, photo_labels, photo_families = render_set(
        60, 3, TRAIN_FAMILIES, tables=PhotoTables([magenta_photo()], 1.0)
    )
    assert labels == photo_labels and families == photo_families
    changed = [not np.array_equal(a, b) for a, b in zip(plain, on_photos, strict=True)]
    assert sum(changed) > 40  # nearly every crop shows some table beside its face
    lean = magenta_share(on_photos) - magenta_share(plain)
    assert np.median(lean[changed]) > 30


def test_a_patch_is_a_square_of_the_photo_turned_any_way():
    photo = np.zeros((200, 300, 3), np.uint8)
    photo[:, 150:] = 255  # black on the left, white on the right
    tables = PhotoTables([photo], 1.0)
    rng = np.random.default_rng(0)
    patches = [tables.patch(rng, 48) for _ in range(200)]
    for patch in patches:
        assert patch.shape == (48, 48, 3) and patch.dtype == np.float32 and patch.flags.c_contiguous
        assert patch.min() >= 0 and patch.max() <= 1
    means = np.array([patch.mean() for patch in patches])
    assert (means < 0.05).any() and (means > 0.95).any() and ((means > 0.2) & (means < 0.8)).any()
    assert tables.under(np.random.default_rng(1)) is not None
    assert PhotoTables([photo], 0.0).under(np.random.default_rng(1)) is None


def test_a_folder_with_nothing_to_read_is_named(tmp_path):
    with pytest.raises(ValueError, match=str(tmp_path)):
        photo_tables((str(tmp_path),), 0.5)
    (tmp_path / "broken.jpg").write_bytes(b"not a jpeg")
    with pytest.raises(ValueError, match="broken.jpg"):
        photo_tables((str(tmp_path),), 0.5)


def test_a_pool_on_photos_is_cached_apart_and_renders_as_the_set_does(tmp_path, monkeypatch):
    folder = tmp_path / "photos"
    folder.mkdir()
    cv2.imwrite(str(folder / "wall.png"), magenta_photo())
    monkeypatch.setattr(train_faces, "CACHE", tmp_path / "cache")
    images, labels = train_faces.render_pool(12, 3, TRAIN_FAMILIES, 1, "train", ([folder], 1.0))
    expected, expected_labels, _ = render_set(
        12, 3, TRAIN_FAMILIES, INPUT_SIZE, tables=photo_tables((str(folder),), 1.0)
    )
    assert np.array_equal(images, expected) and labels == expected_labels
    (cached,) = (tmp_path / "cache").glob("*.npz")
    assert cached.name.startswith("train-tables1-")
    plain, _ = train_faces.render_pool(12, 3, TRAIN_FAMILIES, 1, "train")
    assert not np.array_equal(plain, images)  # not read back from the pool on photos
    with pytest.raises(SystemExit, match="no photos in"):
        train_faces.render_pool(12, 3, TRAIN_FAMILIES, 1, "train", ([tmp_path / "missing"], 0.5))
