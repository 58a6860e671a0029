"""Paint sunk in drilled hollows, as a real pip die's pips are (and engraved print elsewhere).

    height = hollow_height(paint, wall)        # 1 on the face, falling to 0 on a hollow's floor
    face = drilled(rng, face, paint_of(face, face_colour))   # shaded as if drilled

Every rendered face used to be printed flat. A real pip is a hollow whose wall catches the
light on one side and lies in shade on the other, so under a lamp a pip shows a bright
crescent and a dark one. ``datasets.scenes.render --drilled`` sinks a die's paint in Blender
through this height map; ``drilled`` draws the same light and shade on a flat face crop.
"""

from __future__ import annotations

import cv2
import numpy as np

PAINT_DISTANCE = 30.0  # 8-bit Lab distance from the plastic's colour that counts a pixel as paint
WALL = (2.5, 5.0)  # a hollow's rounded wall, in pixels of a 96 px face
STEEPNESS = (0.3, 1.0)  # a hollow's depth over its wall's width
LIGHT_HEIGHT = (20.0, 70.0)  # the light's elevation in degrees: low light shades more
MOST_SHADE = 0.8  # a wall's light changes by at most this share: the room lights it too
FLOOR_DIM = 0.15  # a hollow's floor, seeing less of the room, is dimmed by up to this share


def hollow_height(paint: np.ndarray, wall: float) -> np.ndarray:
    """A float height map for a boolean ``paint`` mask: 1 off the paint, falling under it over
    a rounded wall ``wall`` pixels wide to a flat floor at 0; thin print is a groove that never
    reaches the floor."""
    inward = np.minimum(cv2.distanceTransform(paint.astype(np.uint8), cv2.DIST_L2, 5) / wall, 1.0)
    return 1 - np.sin(inward * np.pi / 2)


def paint_of(face: np.ndarray, face_colour: np.ndarray) -> np.ndarray:
    """Where float BGR ``face`` (0-1) differs from its plastic, ``face_colour``: its paint."""
    lab = cv2.cvtColor(face.astype(np.float32), cv2.COLOR_BGR2LAB)
    body = cv2.cvtColor(face_colour.reshape(1, 1, 3).astype(np.float32), cv2.COLOR_BGR2LAB)[0, 0]
    # float Lab runs L 0-100 and a, b about +-127: scaled to 8-bit Lab's units, as clear_body's
    return np.linalg.norm((lab - body) * np.float32([2.55, 1, 1]), axis=2) > PAINT_DISTANCE


def drilled(rng, face: np.ndarray, paint: np.ndarray) -> np.ndarray:
    """Float BGR ``face`` with its ``paint`` (a mask, ``paint_of`` the face as printed, before
    any plastic is cast round it) shaded as sunk in hollows, lit from a random side: each wall
    brightened or darkened by its slope towards the light, the floor a little dim."""
    wall = rng.uniform(*WALL)
    height = hollow_height(paint, wall)
    gy, gx = np.gradient(height * wall * rng.uniform(*STEEPNESS))  # slopes, in depth per pixel
    azimuth = rng.uniform(0, 2 * np.pi)
    # Lambert's light on a slope, over that on the flat face: a wall rising towards the light
    # (the hollow's far side) is brighter, the near one in shade
    towards = -(np.cos(azimuth) * gx + np.sin(azimuth) * gy)
    shade = np.clip(towards / np.tan(np.radians(rng.uniform(*LIGHT_HEIGHT))), -MOST_SHADE, MOST_SHADE)
    floor = 1 - FLOOR_DIM * rng.random() * (1 - height)
    return np.clip(face * (1 + shade)[..., None] * floor[..., None], 0, 1).astype(np.float32)
