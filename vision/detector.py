"""Find the top face of every die in a frame, whatever it shows: an ONNX model, centre-net style.

    detector = Detector()                       # models/detector.onnx
    found = detector.detect(frame)              # DieReadings: quads, scores, cocked; no labels yet

The model file's contract (models/train_detector.py writes it, models/detector.md describes it):
input ``image``, float32 1x3xHxW, BGR scaled to 0..1, the frame resized to the W x H given in
the metadata (``input_width``, ``input_height``, ``stride``); outputs at 1/stride resolution:

- ``heat``    1x1xhxw  probability that a top face's centre lies in the cell;
- ``corners`` 1x8xhxw  the face's four corners, (dx, dy) each, from the cell's centre, in cells;
- ``cocked``  1x1xhxw  probability that the die there leans on something.
"""

from __future__ import annotations

import os
from pathlib import Path

import cv2
import numpy as np
import onnxruntime as ort

from vision.readings import DieReadings

DEFAULT_MODEL = Path(__file__).resolve().parent.parent / "models" / "detector.onnx"


class DetectorFileError(RuntimeError):
    """The detector model file is missing or is not a usable detector."""


class Detector:
    """Top faces of dice in BGR frames, as ``DieReadings`` (quads in frame coordinates)."""

    def __init__(self, model_path: str | os.PathLike | None = None, min_score: float = 0.4, threads: int = 1):
        self.model_path = Path(model_path) if model_path is not None else DEFAULT_MODEL
        if not self.model_path.is_file():
            raise DetectorFileError(
                f"detector model file not found: {self.model_path} "
                "(train one with `python -m models.train_detector`)"
            )
        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        options.log_severity_level = 3
        try:
            self.session = ort.InferenceSession(
                str(self.model_path), options, providers=["CPUExecutionProvider"]
            )
            meta = self.session.get_modelmeta().custom_metadata_map
            self.width, self.height = int(meta["input_width"]), int(meta["input_height"])
            self.stride = int(meta["stride"])
        except (KeyError, ValueError) as error:
            raise DetectorFileError(
                f"detector model file {self.model_path} lacks its metadata ({error})"
            ) from None
        except Exception as error:  # onnxruntime raises its own exception types for bad files
            raise DetectorFileError(f"detector model file {self.model_path} is corrupt: {error}") from None
        self.min_score = min_score

    def detect(self, frame: np.ndarray) -> DieReadings:
        small = frame
        while small.shape[1] >= 2 * self.width and small.shape[0] >= 2 * self.height:
            small = cv2.pyrDown(small)  # halvings, then one linear resize: a quarter of INTER_AREA's time
        small = cv2.resize(small, (self.width, self.height), interpolation=cv2.INTER_LINEAR)
        batch = np.empty((1, 3, self.height, self.width), np.float32)
        for channel, plane in enumerate(cv2.split(small)):  # 4x faster than a numpy transpose
            batch[0, channel] = plane
        batch *= 1 / 255.0
        heat, corners, cocked = self.session.run(["heat", "corners", "cocked"], {"image": batch})
        scale = np.float32([frame.shape[1] / self.width, frame.shape[0] / self.height])
        return decode(heat[0, 0], corners[0], cocked[0, 0], self.stride, scale, self.min_score)


def decode(heat, corners, cocked, stride: int, scale, min_score: float) -> DieReadings:
    """Peaks of the heat map (local maxima over 3x3 cells above ``min_score``) as dice."""
    peaks = (heat >= cv2.dilate(heat, np.ones((3, 3), np.uint8))) & (heat >= min_score)
    ys, xs = np.nonzero(peaks)
    centres = np.stack([xs, ys], 1).astype(np.float32) + 0.5  # in cells
    offsets = corners[:, ys, xs].T.reshape(-1, 4, 2)
    quads = (centres[:, None] + offsets) * stride * np.asarray(scale, np.float32)
    order = np.argsort(-heat[ys, xs])
    return DieReadings.from_quads(quads[order], heat[ys, xs][order], cocked[ys, xs][order] >= 0.5)
