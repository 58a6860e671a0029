"""Die plastics that are not one flat colour: marbled swirls, two tones, glitter, a pearl sheen.

Many real dice are cast in swirled or speckled plastic, where every rendered face was one flat
colour; the face networks trained on flat faces alone read swirled pip dice far worse
(docs/vision-limits.md, session 56). ``plastic(rng, colour, size, styles)`` draws one such
plastic, about ``colour`` on the whole. ``TRAIN_PLASTICS`` are the ones faces are trained on;
``HELDOUT_PLASTICS`` are made another way and only measure how the networks transfer.
"""

from __future__ import annotations

import cv2
import numpy as np

TRAIN_PLASTICS = ("marble", "smoke", "two_tone", "speckle", "glitter", "pearl")
HELDOUT_PLASTICS = ("granite", "clouds")


def plastic(rng, colour: np.ndarray, size: int, styles=TRAIN_PLASTICS, second=None) -> np.ndarray:
    """A ``size`` x ``size`` x 3 float32 image (BGR, 0-1) of a plastic of one of ``styles``,
    swirled with ``second`` (a colour; drawn when not given: one die's faces share theirs)."""
    style = styles[rng.integers(len(styles))]
    colour = colour.astype(np.float32)
    second = other_colour(rng, colour) if second is None else np.asarray(second, np.float32)
    return np.clip(DRAW[style](rng, colour, second, size), 0, 1).astype(np.float32)


# A face pixel this far from the flat colour it was printed on (the largest channel's
# difference, 0-1) is all ink; nearer, it is partly the plastic showing through.
INK_FROM = 0.2


def cast_in(face: np.ndarray, colour: np.ndarray, plastic_image: np.ndarray) -> np.ndarray:
    """``face``, printed on flat ``colour``, cast in ``plastic_image`` instead: the print
    stays, and the plastic shows wherever the flat colour did (a print's contrast is chosen
    against the flat colour, so it stays as readable as the plastic lets it)."""
    shows = np.clip(1 - np.abs(face - colour).max(axis=2, keepdims=True) / INK_FROM, 0, 1)
    return (face * (1 - shows) + plastic_image * shows).astype(np.float32)


def smooth_noise(rng, size: int, cells: int) -> np.ndarray:
    """Values 0-1 varying smoothly over about ``cells`` cells across."""
    small = rng.random((cells + 1, cells + 1)).astype(np.float32)
    return cv2.resize(small, (size, size), interpolation=cv2.INTER_CUBIC)


def other_colour(rng, colour: np.ndarray) -> np.ndarray:
    """The second colour of a swirl: white, a darker shade of the first, or any strong colour."""
    pick = rng.integers(3)
    if pick == 0:
        return np.full(3, rng.uniform(0.8, 1.0), np.float32)
    if pick == 1:
        return colour * np.float32(rng.uniform(0.1, 0.5))
    hsv = np.uint8([[[rng.integers(0, 180), rng.integers(100, 256), rng.integers(80, 256)]]])
    return (cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0] / 255.0).astype(np.float32)


def blend(colour, second, share) -> np.ndarray:
    share = share[..., None]
    return colour * (1 - share) + second * share


def marble(rng, colour, second, size):
    """Veins: a sine across the face of a coordinate bent by smooth noise, sharp or soft."""
    y, x = np.mgrid[0:size, 0:size].astype(np.float32) / size
    angle = rng.uniform(0, np.pi)
    along = x * np.cos(angle) + y * np.sin(angle)
    bend = sum(smooth_noise(rng, size, cells) for cells in (3, 6, 12)) / 3
    veins = np.sin((along * rng.uniform(1, 5) + bend * rng.uniform(1, 6)) * 2 * np.pi) * 0.5 + 0.5
    veins = veins ** rng.uniform(1, 4)
    if rng.random() < 0.5:  # blended swirls rather than crisp veins
        veins = cv2.GaussianBlur(veins, (0, 0), size / 32) * rng.uniform(0.3, 0.7)
    return blend(colour, second, veins)


def two_tone(rng, colour, second, size):
    """Two colours melting into each other across the face."""
    y, x = np.mgrid[0:size, 0:size].astype(np.float32) / size - 0.5
    angle = rng.uniform(0, 2 * np.pi)
    across = x * np.cos(angle) + y * np.sin(angle) + 0.3 * (smooth_noise(rng, size, 3) - 0.5)
    share = np.clip(across * rng.uniform(1, 4) + 0.5, 0, 1)
    return blend(colour, second, share)


def smoke(rng, colour, second, size):
    """Wisps: thick curved strokes of the second colour, blurred into the first."""
    share = np.zeros((size, size), np.float32)
    for _ in range(int(rng.integers(4, 11))):
        points = np.cumsum(rng.normal(0, size / 5, (6, 2)), axis=0) + rng.uniform(0, size, 2)
        thickness = int(rng.integers(2, max(3, size // 5)))
        strength = float(rng.uniform(0.5, 1))
        cv2.polylines(share, [points.astype(np.int32)], False, strength, thickness, cv2.LINE_AA)
    share = cv2.GaussianBlur(share, (0, 0), size / rng.uniform(16, 48))
    return blend(colour, second, np.clip(share * rng.uniform(1, 2), 0, 1))


def speckle(rng, colour, second, size):
    """Stone-look dice: dots of the second colour and of a darker shade, many sizes."""
    img = np.empty((size, size, 3), np.float32)
    img[:] = colour
    dark = colour * np.float32(rng.uniform(0.2, 0.6))
    for _ in range(int(rng.integers(size, size * 6))):
        x, y = rng.integers(0, size, 2).tolist()
        dot = second if rng.random() < 0.5 else dark
        cv2.circle(img, (x, y), int(rng.integers(0, 3)), dot.tolist(), -1, cv2.LINE_AA)
    return img


def glitter(rng, colour, second, size):
    """Flakes that catch the light: small bright specks, some tinted."""
    img = np.empty((size, size, 3), np.float32)
    img[:] = colour * np.float32(rng.uniform(0.8, 1.0))
    for _ in range(int(rng.integers(size // 2, size * 2))):
        x, y = rng.integers(0, size, 2).tolist()
        bright = rng.uniform(0.3, 1.0)
        flake = colour + (1 - colour) * bright if rng.random() < 0.7 else second
        cv2.circle(img, (x, y), int(rng.integers(0, 2)), flake.tolist(), -1)
    return img


def pearl(rng, colour, second, size):
    """A soft sheen: the colour lighter and darker in broad patches (``second`` unused)."""
    sheen = smooth_noise(rng, size, int(rng.integers(2, 6)))[..., None]
    return colour * (0.7 + 0.6 * sheen) + 0.15 * sheen


def granite(rng, colour, second, size):
    """Held out: dense speckle of two or three colours, as stone-look dice."""
    img = np.empty((size, size, 3), np.float32)
    img[:] = colour
    for speck in (second, colour * np.float32(rng.uniform(0.2, 0.6)))[: int(rng.integers(1, 3))]:
        grain = cv2.resize(rng.random((size // 3, size // 3)).astype(np.float32), (size, size))
        mask = (grain > rng.uniform(0.6, 0.85)).astype(np.float32)
        img = blend(img, speck, cv2.GaussianBlur(mask, (0, 0), 0.7))
    return img


def clouds(rng, colour, second, size):
    """Held out: cloudy swirls, fractal noise looked up at places moved by more noise."""
    # octaves weighted 1, 1/2 and 1/3, over their sum (1.83), so that they stay within 0-1
    octaves = sum(smooth_noise(rng, size, cells) / k for k, cells in enumerate((4, 8, 16), 1)) / 1.83
    dx, dy = (smooth_noise(rng, size, 4) - 0.5) * size * 0.4, (smooth_noise(rng, size, 4) - 0.5) * size * 0.4
    y, x = np.mgrid[0:size, 0:size].astype(np.float32)
    warped = cv2.remap(octaves, x + dx, y + dy, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    share = np.clip((warped - warped.mean()) * rng.uniform(2, 5) + 0.5, 0, 1)
    return blend(colour, second, share)


DRAW = {
    "marble": marble,
    "smoke": smoke,
    "speckle": speckle,
    "two_tone": two_tone,
    "glitter": glitter,
    "pearl": pearl,
    "granite": granite,
    "clouds": clouds,
}
