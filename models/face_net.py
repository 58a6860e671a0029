"""The face classifier network: a small CNN with a cosine classifier on an L2-normalised embedding.

Logits are ``scale * cos(embedding, class weight)``, so a class weight and an embedding of a
tapped example live in the same space: vision/faces.py adds taught examples as extra class
prototypes and compares them with the same cosine.
"""

from __future__ import annotations

import numpy as np
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


def from_onnx(path) -> FaceNet:
    """A float FaceNet rebuilt from its exported ONNX file, to train on from a shipped model.

    Export folds each batch norm into the convolution before it, as a bias; the rebuilt
    network carries that bias in a batch norm that does nothing else (scale 1, statistics of
    zero mean and unit variance), so train it with its norms frozen (``freeze_norms``).  An
    8-bit file (``models.quantize_faces``) is rebuilt from its integers times their scales:
    the weights it reads with, without the rounding of its activations."""
    import onnx

    graph = onnx.load(str(path)).graph
    weights = float_weights(graph)
    if "features.0.0.weight" not in weights:
        raise ValueError(f"{path} is not a FaceNet export")
    model = FaceNet(int(weights["permute"].shape[1]), int(weights["features.0.0.weight"].shape[0]))
    state = model.state_dict()
    for name, module in model.named_modules():
        if isinstance(module, nn.Conv2d):
            block, index = name.rsplit(".", 1)
            norm = f"{block}.{int(index) + 1}"
            state[f"{name}.weight"] = weights[f"{name}.weight"]
            state[f"{norm}.weight"] = torch.ones_like(state[f"{norm}.weight"])
            state[f"{norm}.bias"] = weights[f"{name}.weight_bias"]
            state[f"{norm}.running_mean"] = torch.zeros_like(state[f"{norm}.running_mean"])
            # eval-mode norm divides by sqrt(var + eps): this variance makes that exactly 1
            state[f"{norm}.running_var"] = torch.full_like(state[f"{norm}.running_var"], 1 - 1e-5)
    state["embed.weight"], state["embed.bias"] = weights["embed.weight"], weights["embed.bias"]
    state["class_weights"] = weights["permute"].T.contiguous()  # exported normalised, transposed
    model.load_state_dict(state)
    return model.eval()


def float_weights(graph) -> dict[str, torch.Tensor]:
    """The named float weights of an exported FaceNet graph: as stored in a float file; in an
    8-bit one (onnxruntime's QLinearConv, QGemm and QLinearMatMul nodes), each integer tensor
    less its zero point times its scale, per output channel, and each 32-bit bias times its
    input's scale and its weight's."""
    from onnx import numpy_helper

    stored = {item.name: numpy_helper.to_array(item).astype(np.float64) for item in graph.initializer}
    weights = {name: value for name, value in stored.items() if not name.endswith(QUANTIZED_PARTS)}
    for node in graph.node:
        if node.op_type not in ("QLinearConv", "QGemm", "QLinearMatMul"):
            continue
        x_scale, w, w_scale, w_zero = node.input[1], node.input[3], node.input[4], node.input[5]
        name = w.removesuffix("_quantized")
        axis = 1 if node.op_type == "QLinearMatMul" else 0  # the class weights are stored (128, classes)
        shape = [-1 if d == axis else 1 for d in range(stored[w].ndim)]
        scale = stored[w_scale].reshape(shape)
        weights[name] = (stored[w] - stored[w_zero].reshape(shape)) * scale
        bias = BIAS_INPUT.get(node.op_type)
        if bias is not None and len(node.input) > bias and node.input[bias]:
            bias = node.input[bias]
            weights[bias.removesuffix("_quantized")] = stored[bias] * stored[x_scale] * stored[w_scale]
    return {name: torch.from_numpy(value.astype(np.float32)) for name, value in weights.items()}


# the parts of an 8-bit tensor, rebuilt into its float weight by float_weights
QUANTIZED_PARTS = ("_quantized", "_scale", "_zero_point")
BIAS_INPUT = {"QLinearConv": 8, "QGemm": 6}  # where each 8-bit node takes its 32-bit bias


def freeze_norms(model: nn.Module) -> None:
    """Batch norms in eval mode (their statistics fixed) while the rest of ``model`` trains."""
    for module in model.modules():
        if isinstance(module, nn.BatchNorm2d):
            module.eval()
