"""One readings type for every stage: the dice seen in one frame, as parallel numpy arrays.

    readings = detector.detect(frame)                 # quads, scores, cocked
    readings = readings.with_faces(classifier.classify(rectify(frame, readings.quads), kind))
    annotated = draw(frame, readings)
    for die in readings: die.label, die.confidence, die.quad

Like ``supervision.Detections``: index it with an int array or a boolean mask to get a
smaller ``DieReadings``; iterate it to get one ``DieReading`` per die.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

CROP_SIZE = 64  # rectified face crops: the face classifier's input size
MAX_WARP = 512  # px: the largest face warped whole before shrinking (bounds the work)
# The confidence from which a face is named; under it a die is left unread, for a tap to fix
# (the face classifier's default, and the roll tracker's for a settled roll's faces).
NAMED_FROM = 0.5


@dataclass(frozen=True)
class DieReading:
    """One die: its top face as a quad in image coordinates, and what the face shows."""

    quad: np.ndarray  # (4, 2) float32, corners in order around the face
    label: str | None  # None: found a die but could not read it
    confidence: float
    top: list[tuple[str, float]] = field(default_factory=list)
    score: float = 1.0  # the detector's confidence that this is a die's top face
    cocked: bool = False  # leaning on something: the game may ask for a re-roll
    crop: np.ndarray | None = None

    @property
    def center(self) -> np.ndarray:
        return self.quad.mean(0)

    def to_json(self) -> dict:
        return {
            "label": self.label,
            "confidence": round(float(self.confidence), 4),
            "center": [round(float(v), 1) for v in self.center],
            "quad": [[round(float(x), 1), round(float(y), 1)] for x, y in self.quad],
            "top": [[label, round(float(p), 4)] for label, p in self.top],
            "cocked": bool(self.cocked),
        }


@dataclass(frozen=True)
class DieReadings:
    """The dice in one frame; every array has one row per die."""

    quads: np.ndarray  # (N, 4, 2) float32
    scores: np.ndarray  # (N,) float32, detector confidence
    cocked: np.ndarray  # (N,) bool
    labels: np.ndarray  # (N,) object: str or None until classified
    confidences: np.ndarray  # (N,) float32, classifier confidence
    tops: tuple[list[tuple[str, float]], ...]  # per die, the likeliest labels
    crops: tuple[np.ndarray, ...] | None = None  # per die, the rectified face

    def __post_init__(self):
        n = len(self.quads)
        sizes = {len(self.scores), len(self.cocked), len(self.labels), len(self.confidences), len(self.tops)}
        if sizes != {n} or (self.crops is not None and len(self.crops) != n):
            raise ValueError(f"readings arrays disagree on the number of dice: {n} quads, {sizes}")

    @classmethod
    def from_quads(cls, quads, scores=None, cocked=None) -> DieReadings:
        """Detections before classification: every label None."""
        quads = np.asarray(quads, np.float32).reshape(-1, 4, 2)
        n = len(quads)
        return cls(
            quads=quads,
            scores=np.ones(n, np.float32) if scores is None else np.asarray(scores, np.float32),
            cocked=np.zeros(n, bool) if cocked is None else np.asarray(cocked, bool),
            labels=np.full(n, None, object),
            confidences=np.zeros(n, np.float32),
            tops=tuple([] for _ in range(n)),
        )

    @classmethod
    def empty(cls) -> DieReadings:
        return cls.from_quads(np.zeros((0, 4, 2), np.float32))

    @classmethod
    def from_dice(cls, dice: Sequence[DieReading]) -> DieReadings:
        if not dice:
            return cls.empty()
        crops = tuple(d.crop for d in dice) if all(d.crop is not None for d in dice) else None
        return cls(
            quads=np.stack([np.asarray(d.quad, np.float32) for d in dice]),
            scores=np.array([d.score for d in dice], np.float32),
            cocked=np.array([d.cocked for d in dice], bool),
            labels=np.array([d.label for d in dice] + [None], object)[:-1],  # keeps a 1-D object array
            confidences=np.array([d.confidence for d in dice], np.float32),
            tops=tuple(list(d.top) for d in dice),
            crops=crops,
        )

    def with_faces(self, faces, crops=None) -> DieReadings:
        """These dice with the classifier's readings (anything with .label, .confidence, .top)."""
        faces = list(faces)
        return replace(
            self,
            labels=np.array([f.label for f in faces] + [None], object)[:-1],
            confidences=np.array([f.confidence for f in faces], np.float32),
            tops=tuple(list(f.top) for f in faces),
            crops=tuple(crops) if crops is not None else self.crops,
        )

    def scaled(self, factor) -> DieReadings:
        """These dice in a picture resized by ``factor``, one number or (x, y) factors."""
        return replace(self, quads=(self.quads * np.float32(factor)).astype(np.float32))

    def mirrored(self, width: float) -> DieReadings:
        """These dice as seen in the picture flipped left to right (``width`` pixels wide); each
        quad keeps its corners' turning order."""
        quads = self.quads[:, ::-1].copy()
        quads[..., 0] = width - quads[..., 0]
        return replace(self, quads=quads.astype(np.float32))

    def turned_back(self, height: float) -> DieReadings:
        """These dice, found in a picture turned a quarter clockwise (``height`` pixels high
        before it was turned), in the picture as it was; each quad keeps its corners'
        turning order."""
        quads = np.stack([self.quads[..., 1], height - self.quads[..., 0]], axis=-1)
        return replace(self, quads=quads.astype(np.float32))

    def shifted(self, offset) -> DieReadings:
        """These dice with every corner moved by ``offset`` (x, y) pixels."""
        return replace(self, quads=(self.quads + np.float32(offset)).astype(np.float32))

    @property
    def centers(self) -> np.ndarray:
        return self.quads.mean(1)

    @property
    def sizes(self) -> np.ndarray:
        """Side length of each top face in pixels (square root of its area)."""
        return np.sqrt(np.abs(quad_areas(self.quads)))

    def __len__(self) -> int:
        return len(self.quads)

    def __getitem__(self, index) -> DieReadings:
        index = np.arange(len(self))[index]  # an int, slice, int array or mask: always an index array
        index = np.atleast_1d(index)
        return DieReadings(
            quads=self.quads[index],
            scores=self.scores[index],
            cocked=self.cocked[index],
            labels=self.labels[index],
            confidences=self.confidences[index],
            tops=tuple(self.tops[i] for i in index),
            crops=None if self.crops is None else tuple(self.crops[i] for i in index),
        )

    def __iter__(self):
        for i in range(len(self)):
            yield DieReading(
                quad=self.quads[i],
                label=self.labels[i],
                confidence=float(self.confidences[i]),
                top=self.tops[i],
                score=float(self.scores[i]),
                cocked=bool(self.cocked[i]),
                crop=None if self.crops is None else self.crops[i],
            )

    def to_json(self) -> list[dict]:
        return [die.to_json() for die in self]


NEXT_CORNER = [1, 2, 3, 0]  # an index, not np.roll: the areas are taken several times a frame


def quad_areas(quads: np.ndarray) -> np.ndarray:
    """Signed shoelace area of each (4, 2) quad; positive when the corners run clockwise on screen."""
    following = quads[..., NEXT_CORNER, :]
    return 0.5 * (quads[..., 0] * following[..., 1] - following[..., 0] * quads[..., 1]).sum(-1)


def order_corners(quads) -> np.ndarray:
    """Each quad's corners clockwise on screen, starting from the one nearest the top-left: one
    (4, 2) quad, or N of them at once (N, 4, 2), which costs about what one does."""
    quads = np.asarray(quads, np.float32)
    shape = quads.shape if quads.ndim == 3 else (4, 2)
    quads = quads.reshape(-1, 4, 2)
    offsets = quads - quads.mean(1, keepdims=True)
    angles = np.arctan2(offsets[..., 1], offsets[..., 0])
    quads = np.take_along_axis(quads, np.argsort(angles, 1)[..., None], 1)  # y points down: clockwise
    first = quads.sum(2).argmin(1)[:, None]
    return np.take_along_axis(quads, ((first + np.arange(4)) % 4)[..., None], 1).reshape(shape)


def longest_sides(ordered: np.ndarray) -> np.ndarray:
    """Each quad's longest side in pixels, how big its face is in the picture; the corners
    must run around the face, as ``order_corners`` leaves them."""
    return np.linalg.norm(ordered[:, NEXT_CORNER] - ordered, axis=2).max(1)


def as_bgr(image, what: str) -> np.ndarray:
    """A frame or a crop as the networks take it, 8-bit BGR: grey and BGRA converted, 16 bits a
    channel (a PNG read unchanged) scaled down; anything else a ValueError naming the ``what``
    and its type and shape, where it would read nonsense or fail deep inside."""
    image = np.asarray(image)
    if image.dtype == np.uint16:
        image = (image >> 8).astype(np.uint8)
    channels = image.shape[2] if image.ndim == 3 else 1
    if image.dtype != np.uint8 or image.ndim not in (2, 3) or 0 in image.shape or channels not in (1, 3, 4):
        raise ValueError(f"a {what} must be 8- or 16-bit grey, BGR or BGRA: got {image.dtype} {image.shape}")
    if channels == 1:
        return cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    return cv2.cvtColor(image, cv2.COLOR_BGRA2BGR) if channels == 4 else image


def rectify(frame: np.ndarray, quads, size: int = CROP_SIZE) -> list[np.ndarray]:
    """Each quad's content warped to a ``size`` x ``size`` square crop, as the camera were above it.

    A face more than twice the crop's size (a close photo) is warped at its own size, up to
    ``MAX_WARP``, and then shrunk by area: its pixels are averaged, not sampled every few
    pixels.  Sampled, a photo's sensor noise stays at full strength in the crop (rendered
    crops of 320 px with noise of 25 grey levels read 57% instead of 95%, docs/vision.md)."""
    ordered = order_corners(np.reshape(quads, (-1, 4, 2)))  # (N, 4, 2) even for one quad
    sides = longest_sides(ordered)
    crops = []
    for corners, side in zip(ordered, sides.tolist(), strict=True):
        warp_side = size if side < 2 * size else int(min(side, MAX_WARP))
        square = np.float32([[0, 0], [warp_side, 0], [warp_side, warp_side], [0, warp_side]])
        warp = cv2.getPerspectiveTransform(corners, square)
        crop = cv2.warpPerspective(frame, warp, (warp_side, warp_side), flags=cv2.INTER_LINEAR)
        if warp_side != size:
            crop = cv2.resize(crop, (size, size), interpolation=cv2.INTER_AREA)
        crops.append(crop)
    return crops


READ, UNSURE, LEANING = (0, 200, 0), (0, 200, 255), (0, 0, 255)  # BGR: green, amber, red
TAG_OPACITY = 0.7  # a die under a neighbour's tag still shows through it


def draw(
    frame: np.ndarray, readings: DieReadings, thickness: int = 2, confidences: bool = False
) -> np.ndarray:
    """A copy of ``frame`` with each die's top face outlined and named on a tag above it:
    green when read, amber with "?" when unsure, red when leaning.  The tag is filled
    (mostly opaque) so that a label stays legible over busy dice and tables (bare letters
    over green dice were not), and kept inside the frame.  ``confidences`` adds each
    reading's confidence (for the model cards)."""
    out = frame.copy()
    for die in readings:
        colour = LEANING if die.cocked else READ if die.label else UNSURE
        points = np.round(die.quad).astype(np.int32)
        cv2.polylines(out, [points], True, colour, thickness, cv2.LINE_AA)
        text = die.label or "?"
        if confidences:
            text += f" {die.confidence:.2f}"
        put_tag(out, text, points, colour)
    return out


def put_tag(image: np.ndarray, text: str, points: np.ndarray, colour: tuple[int, int, int]) -> None:
    """``text`` on a box of ``colour`` centred above ``points`` (below them at the frame's top)."""
    font, scale = cv2.FONT_HERSHEY_SIMPLEX, 0.45
    (width, height), baseline = cv2.getTextSize(text, font, scale, 1)
    box_w, box_h = width + 6, height + baseline + 4
    x = int(np.clip(points[:, 0].mean() - box_w / 2, 0, max(image.shape[1] - box_w, 0)))
    y = int(points[:, 1].min()) - 3 - box_h
    if y < 0:
        y = min(int(points[:, 1].max()) + 3, max(image.shape[0] - box_h, 0))
    box = image[y : y + box_h, x : x + box_w]
    box[:] = (box * (1 - TAG_OPACITY) + np.float32(colour) * TAG_OPACITY).round().astype(np.uint8)
    ink = (255, 255, 255) if colour == LEANING else (0, 0, 0)  # white reads on red, black on green and amber
    cv2.putText(image, text, (x + 3, y + 2 + height), font, scale, ink, 1, cv2.LINE_AA)
