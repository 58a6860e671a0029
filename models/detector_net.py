"""The die-face detector network: a small centre-net, content-agnostic (it never sees labels).

Input: BGR frame scaled to 0..1, N x 3 x H x W (H, W multiples of 16).  Outputs at stride 4:
``heat`` (probability that a top face's centre lies in the cell), ``corners`` (the face's four
corners, (dx, dy) each from the cell's centre, in cells) and ``cocked`` (probability that the
die there leans).  vision/detector.py decodes them.

Shape of the net: a cheap stem down to stride 4, separable blocks down to stride 16 for
context (is this square a die's top or a card's pip?), then a light feature pyramid back up
to stride 4, where small dice (8 pixels across) still get two cells.
"""

from __future__ import annotations

import torch
from torch import nn
from torch.nn import functional as F

from models.face_net import conv, separable

STRIDE = 4


class DetectorNet(nn.Module):
    def __init__(self, width: int = 16):
        super().__init__()
        w = width
        self.stem = nn.Sequential(conv(3, w, 2), conv(w, w, 2))  # stride 4
        self.stage4 = nn.Sequential(separable(w, 2 * w), separable(2 * w, 2 * w))
        self.stage8 = nn.Sequential(separable(2 * w, 3 * w, 2), separable(3 * w, 3 * w))
        self.stage16 = nn.Sequential(
            separable(3 * w, 4 * w, 2), separable(4 * w, 4 * w), separable(4 * w, 4 * w)
        )
        self.lateral8 = nn.Conv2d(3 * w, 2 * w, 1)
        self.lateral16 = nn.Conv2d(4 * w, 2 * w, 1)
        self.head = separable(2 * w, 2 * w)
        self.out = nn.Conv2d(2 * w, 10, 1)  # heat, 8 corner offsets, cocked
        nn.init.constant_(self.out.bias[0], -4.0)  # start by seeing no dice: focal loss converges faster
        self.register_buffer("mean", torch.tensor([0.5, 0.5, 0.5]).view(1, 3, 1, 1))

    def forward(self, x):
        x = (x - self.mean) * 4.0
        f4 = self.stage4(self.stem(x))
        f8 = self.stage8(f4)
        f16 = self.stage16(f8)
        up = self.lateral8(f8) + F.interpolate(self.lateral16(f16), scale_factor=2.0, mode="nearest")
        features = self.head(f4 + F.interpolate(up, scale_factor=2.0, mode="nearest"))
        out = self.out(features)
        heat = torch.sigmoid(out[:, :1])
        corners = out[:, 1:9]
        cocked = torch.sigmoid(out[:, 9:10])
        return heat, corners, cocked
