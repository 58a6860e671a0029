"""Synthetic face crops for the face classifier: style families, a randomized camera, ``none`` negatives."""

from datasets.faces.families import FAMILIES, HELDOUT_FAMILIES, TRAIN_FAMILIES
from datasets.faces.render import NONE, labels_of, render_crop, render_none, render_set

__all__ = [
    "FAMILIES",
    "HELDOUT_FAMILIES",
    "NONE",
    "TRAIN_FAMILIES",
    "labels_of",
    "render_crop",
    "render_none",
    "render_set",
]
