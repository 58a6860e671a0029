"""The face classifier network: a small CNN with a cosine classifier on an L2-normalised embedding.

Logits are ``scale * cos(embedding, class weight)``, so a class weight and an embedding of a
tapped example live in the same space: vision/faces.py adds taught examples as extra class
prototypes and compares them with the same cosine.
"""

from __future__ import annotations

import torch
from torch import nn
from torch.nn import functional as F

INPUT_SIZE = 64
EMBEDDING_DIM = 128
COSINE_SCALE = 16.0
WIDTH = 32  # the shipped model's; wider ones only teach it (models/train_faces.py --teacher)


def width_of(weights: dict) -> int:
    """The width a FaceNet checkpoint was trained at: its stem's output channels."""
    return int(weights["features.0.0.weight"].shape[0])


def conv(cin, cout, stride=1):
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True)
    )


def separable(cin, cout, stride=1):
    """Depthwise 3x3 then pointwise 1x1: most of a full conv's reach at a fraction of its cost."""
    return nn.Sequential(
        nn.Conv2d(cin, cin, 3, stride, 1, groups=cin, bias=False),
        nn.BatchNorm2d(cin),
        nn.ReLU(inplace=True),
        nn.Conv2d(cin, cout, 1, bias=False),
        nn.BatchNorm2d(cout),
        nn.ReLU(inplace=True),
    )


class FaceNet(nn.Module):
    """BGR crop, float 0..1, N x 3 x 64 x 64 -> (logits N x classes, embedding N x 128)."""

    def __init__(self, num_classes: int, width: int = WIDTH):
        super().__init__()
        w = width
        self.features = nn.Sequential(
            conv(3, w, 2),  # 32 x 32
            separable(w, 2 * w, 2),  # 16 x 16
            separable(2 * w, 2 * w),
            separable(2 * w, 4 * w, 2),  # 8 x 8
            separable(4 * w, 4 * w),
            separable(4 * w, 8 * w, 2),  # 4 x 4
            separable(8 * w, 8 * w),
        )
        self.embed = nn.Linear(8 * w, EMBEDDING_DIM)
        self.class_weights = nn.Parameter(torch.randn(num_classes, EMBEDDING_DIM) * 0.1)
        self.register_buffer("mean", torch.tensor([0.5, 0.5, 0.5]).view(1, 3, 1, 1))

    def forward(self, x):
        x = (x - self.mean) * 4.0
        x = self.features(x).mean((2, 3))
        embedding = F.normalize(self.embed(x), dim=1)
        logits = COSINE_SCALE * embedding @ F.normalize(self.class_weights, dim=1).T
        return logits, embedding
