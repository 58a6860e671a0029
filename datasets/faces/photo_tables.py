"""Real photos as the table under a rendered die.

A rendered crop's table is smooth noise (``render.table``), so once real photos with no dice
are cut into ``none`` crops (``models.train_faces --negatives``), real texture itself could
come to mean "no die here", and real dice would be read as ``none``.  ``PhotoTables`` puts
the same kind of photo under a share of the rendered dice (and of the rendered ``none``
crops), so that only the die tells a face from ``none``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

from datasets.photos_without_dice import photos

TABLE_PHOTO_SIDE = 1024  # px: each photo shrunk to this once, as a table seen from a metre or so
SMALLEST_PATCH = 16  # px of the photo, so a patch never blows up a few pixels into flat blobs


class PhotoTables:
    """``share`` of crops drawn on a patch of one of ``images`` (BGR photos) instead of a rendered table."""

    def __init__(self, images: list[np.ndarray], share: float):
        if not images:
            raise ValueError("no photos to draw tables from")
        self.photos = images
        self.share = share

    def under(self, rng: np.random.Generator) -> Callable[[int], np.ndarray] | None:
        """For one crop: None (keep the rendered table), or a function giving its s x s table."""
        if rng.random() >= self.share:
            return None
        return functools.partial(self.patch, rng)

    def patch(self, rng: np.random.Generator, s: int, share: tuple[float, float] | None = None) -> np.ndarray:
        """An s x s float32 (0..1) square of a photo, at a random scale, turn and mirror: from
        ``SMALLEST_PATCH`` to half the photo's shorter side (under a die's crop), or a ``share``
        of that side drawn between its two bounds (a whole table)."""
        photo = self.photos[rng.integers(len(self.photos))]
        height, width = photo.shape[:2]
        if share is None:
            largest = min(height, width) // 2
            side = int(np.exp(rng.uniform(np.log(SMALLEST_PATCH), np.log(max(SMALLEST_PATCH + 1, largest)))))
        else:
            side = int(min(height, width) * rng.uniform(*share))
        side = min(side, height, width)
        y, x = rng.integers(0, height - side + 1), rng.integers(0, width - side + 1)
        square = photo[y : y + side, x : x + side]
        shrink = cv2.INTER_AREA if side > s else cv2.INTER_LINEAR
        square = np.rot90(cv2.resize(square, (s, s), interpolation=shrink), rng.integers(4))
        if rng.random() < 0.5:
            square = square[:, ::-1]
        return np.ascontiguousarray(square, np.float32) / np.float32(255)


@functools.cache
def photo_tables(folders: tuple[str, ...], share: float) -> PhotoTables:
    """The photos in ``folders`` (as ``datasets.photos_without_dice`` keeps them), read once a process."""
    images = []
    for path in [p for folder in folders for p in photos(Path(folder))]:
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if image is None:
            raise ValueError(f"{path}: not a readable photo")
        scale = min(1.0, TABLE_PHOTO_SIDE / max(image.shape[:2]))
        images.append(cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA))
    if not images:
        raise ValueError(f"no photos in {', '.join(folders)}")
    return PhotoTables(images, share)
