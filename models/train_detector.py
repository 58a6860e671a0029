"""Train the die-face detector on rendered table scenes, export it to ONNX, measure it.

    python -m datasets.scenes.render --out data/scenes/train --count 400 --views 4
    python -m datasets.scenes.render --out data/scenes/heldout --count 40 --seed 9000 \
        --split heldout --views 4
    python -m models.train_detector --train data/scenes/train --heldout data/scenes/heldout

Writes models/detector.onnx (input size and stride in its metadata) and the model card
models/detector.md with example pictures (models/detector_examples.jpg).  Every random choice
is seeded: the same scenes and arguments give the same model.

Each training sample is a 160x160 window of a scene as the network would see it (scenes are
resized to the network's 384x288 input), widely re-shot: zoomed 0.5x to 3x, squeezed to
other aspect ratios, turned, bent by lens distortion, recoloured, blurred, noised and JPEG-
compressed, so the tables and lights of real rooms are not a surprise.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from collections import Counter
from pathlib import Path

import cv2
import numpy as np
import torch
from torch.nn import functional as F

from datasets.photos_without_dice import photos
from datasets.scenes.render import (
    HELDOUT_TABLES,
    MORE_HELDOUT_TABLES,
    MORE_TRAIN_TABLES,
    TRAIN_TABLES,
    truth_paths,
)
from models.detector_net import STRIDE, DetectorNet
from models.devices import add_device_arguments, device_name

CHECKPOINTS = Path(__file__).resolve().parent.parent / "data" / "detector"
INPUT_W, INPUT_H = 384, 288  # the network's input: frames are resized to this
CROP = 160  # training windows: fully convolutional, so smaller windows train the same weights faster
ONNX_CALIBRATION_BATCHES = 8  # of training windows, to measure what each rebuilt batch norm sees
SEEN = 0.5  # a die whose top face is at least this visible must be found
GLIMPSED = 0.15  # one seen less than SEEN but more than this may be found or not: not scored


def render_commands(folder: Path) -> list[str]:
    """The datasets.scenes.render commands that remake ``folder``: one per run of scene numbers.
    The seed is the split's usual one; size and die kind are not in the truths, so a folder
    rendered otherwise (the 1280x960 photos) keeps its command by hand (detector_card.PHOTO_SETS)."""
    truths = [json.loads(path.read_text()) for path in truth_paths(folder)]
    if not truths:
        return []
    split = truths[0]["split"]
    views = Counter(int(truth["image"][5:10]) for truth in truths)
    leaning = {int(truth["image"][5:10]) for truth in truths if truth.get("leaning")}
    numbers = sorted(views)
    # one command per run of numbers rendered alike: a folder may hold plain and leaning runs
    alike = {number: (views[number], number in leaning) for number in numbers}
    runs, start = [], numbers[0]
    for previous, number in zip(numbers, [*numbers[1:], None], strict=True):
        if number != previous + 1 or alike[number] != alike[previous]:
            runs.append((start, previous - start + 1))
            start = number
    seed = "--seed 9000 --split heldout" if split == "heldout" else "--seed 0"
    # Truths name the table each scene got, not the styles it was drawn from: a folder showing
    # any of its split's opt-in tables was rendered with those, plus the split's own tables
    # if it shows any of them.
    own, opt_in = (
        (HELDOUT_TABLES, MORE_HELDOUT_TABLES) if split == "heldout" else (TRAIN_TABLES, MORE_TRAIN_TABLES)
    )
    shown = {truth["table"] for truth in truths}
    extra = tuple(style for style in opt_in if style in shown)
    if extra:
        seed += " --tables " + " ".join((own if shown & set(own) else ()) + extra)
    return [
        f"python -m datasets.scenes.render --out {folder} --start {first} --count {count} {seed} "
        f"--views {views[first]}" + (" --leaning" if first in leaning else "")
        for first, count in runs
    ]


def load_scenes(folder: Path) -> list[tuple[np.ndarray, dict]]:
    """Every rendered scene in ``folder``: (BGR image, its truth as datasets.scenes wrote it)."""
    scenes = []
    for truth_path in truth_paths(folder):
        truth = json.loads(truth_path.read_text())
        image = cv2.imread(str(truth_path.with_name(truth["image"])))
        if image is not None:
            scenes.append((image, truth))
    return scenes


# ---- augmentation: one re-shot window of a scene, with its dice moved along -----------------


def window(rng, image: np.ndarray, dice: list[dict], size: int = CROP):
    """A random re-shot ``size`` window of ``image``; returns it and each die's quad in it."""
    h, w = image.shape[:2]
    zoom = math.exp(rng.uniform(math.log(0.5), math.log(3.0)))
    aspect = math.exp(rng.uniform(math.log(0.75), math.log(1.33)))
    sx, sy = INPUT_W / w * zoom * math.sqrt(aspect), INPUT_H / h * zoom / math.sqrt(aspect)
    angle = rng.uniform(0, 2 * math.pi) if rng.random() < 0.5 else 0.0
    rotation = np.array([[math.cos(angle), -math.sin(angle)], [math.sin(angle), math.cos(angle)]])
    linear = rotation @ np.diag([sx, sy])
    seen = [d for d in dice if d["visible"] >= SEEN]
    if seen and rng.random() < 0.85:  # most windows hold dice; some show only table and clutter
        anchor = np.mean(seen[rng.integers(len(seen))]["quad"], 0)
    else:
        anchor = rng.uniform([0, 0], [w, h])
    shift = rng.uniform(-0.4, 0.4, 2) * size
    offset = size / 2 + shift - linear @ anchor
    affine = np.hstack([linear, offset[:, None]]).astype(np.float32)
    border = tuple(float(v) for v in rng.uniform(0, 255, 3))
    out = cv2.warpAffine(image, affine, (size, size), flags=cv2.INTER_LINEAR, borderValue=border)
    quads = [(np.asarray(d["quad"]) @ linear.T + offset).astype(np.float32) for d in dice]
    if rng.random() < 0.4:
        out, quads = distort(rng, out, quads, centre=offset + linear @ np.array([w / 2, h / 2]))
    return out, quads


def distort(rng, image, quads, centre):
    """Barrel or pincushion lens distortion about the frame's centre (k1 on a radius
    normalised to the network frame's half-diagonal)."""
    size = image.shape[0]
    k1 = rng.uniform(-0.3, 0.2)
    scale = math.hypot(INPUT_W, INPUT_H) / 2
    ys, xs = np.mgrid[0:size, 0:size].astype(np.float32)
    dx, dy = (xs - centre[0]) / scale, (ys - centre[1]) / scale
    factor = 1 + k1 * (dx * dx + dy * dy)
    map_x = (centre[0] + dx * factor * scale).astype(np.float32)
    map_y = (centre[1] + dy * factor * scale).astype(np.float32)
    out = cv2.remap(image, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT_101)
    moved = []
    for quad in quads:  # the inverse of the map above, by fixed-point iteration
        undistorted = (quad - centre) / scale
        point = undistorted.copy()
        for _ in range(10):
            point = undistorted / (1 + k1 * (point**2).sum(1, keepdims=True))
        missed = np.abs(point * (1 + k1 * (point**2).sum(1, keepdims=True)) - undistorted).max()
        if missed > 1e-3:  # far outside the window, where the map folds over: not a die in it
            point = np.full_like(point, -100.0)
        moved.append((point * scale + centre).astype(np.float32))
    return out, moved


def recolour(rng, image: np.ndarray) -> np.ndarray:
    """Light, white balance, focus, motion and sensor: what differs between cameras and rooms."""
    img = image.astype(np.float32) / 255
    img = img * rng.uniform(0.7, 1.3, 3)  # white balance
    img = (img - 0.5) * rng.uniform(0.6, 1.4) + 0.5 + rng.uniform(-0.25, 0.25)
    img = np.clip(img, 0, 1) ** math.exp(rng.uniform(-0.5, 0.5))
    if rng.random() < 0.3:  # a soft shadow or highlight across the window
        ys, xs = np.mgrid[0 : img.shape[0], 0 : img.shape[1]].astype(np.float32) / img.shape[0]
        theta = rng.uniform(0, 2 * math.pi)
        ramp = np.clip((xs * math.cos(theta) + ys * math.sin(theta) - rng.uniform(0, 1)) * 3, 0, 1)
        img = img * (1 - rng.uniform(-0.3, 0.5) * ramp[..., None])
    if rng.random() < 0.1:
        img = np.repeat(img.mean(2, keepdims=True), 3, 2)
    img = np.clip(img * 255, 0, 255).astype(np.uint8)
    if rng.random() < 0.3:
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.5, 1.6))
    elif rng.random() < 0.15:
        length = int(rng.integers(3, 9))
        kernel = np.zeros((length, length), np.float32)
        kernel[length // 2] = 1 / length
        rotate = cv2.getRotationMatrix2D((length / 2 - 0.5, length / 2 - 0.5), rng.uniform(0, 180), 1)
        img = cv2.filter2D(img, -1, cv2.warpAffine(kernel, rotate, (length, length)))
    if rng.random() < 0.6:
        noise = rng.normal(0, rng.uniform(1, 8), img.shape)
        img = np.clip(img + noise, 0, 255).astype(np.uint8)
    if rng.random() < 0.4:
        ok, data = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(30, 95))])
        img = cv2.imdecode(data, cv2.IMREAD_COLOR)
    return img


# ---- targets ------------------------------------------------------------------------------------


def flat_cells(image: np.ndarray, below: float) -> np.ndarray:
    """The stride-4 cells of ``image`` whose neighbourhood (a small die face across) is flat:
    grey spread under ``below`` levels, as at the middle of a blank die face."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).astype(np.float32)
    mean = cv2.blur(grey, (13, 13))
    spread = np.sqrt(np.maximum(cv2.blur(grey * grey, (13, 13)) - mean * mean, 0))
    return spread[STRIDE // 2 :: STRIDE, STRIDE // 2 :: STRIDE] < below


def targets(dice: list[dict], quads: list[np.ndarray], size: int = CROP, unscored=None):
    """Heat map, corner offsets, cocked flags and their weights on the stride-4 grid;
    ``unscored`` cells (a boolean grid) may be found or not."""
    cells = size // STRIDE
    heat = np.zeros((cells, cells), np.float32)
    heat_weight = np.ones((cells, cells), np.float32)
    if unscored is not None:
        heat_weight[unscored] = 0
    corners = np.zeros((8, cells, cells), np.float32)
    cocked = np.zeros((cells, cells), np.float32)
    box_weight = np.zeros((cells, cells), np.float32)  # where corners and cocked are learnt
    die_size = np.ones((cells, cells), np.float32)
    ys, xs = np.mgrid[0:cells, 0:cells].astype(np.float32) + 0.5
    for die, quad in zip(dice, quads, strict=True):
        quad = np.asarray(quad, np.float32) / STRIDE
        centre = quad.mean(0)
        extent = math.sqrt(max(abs(cv2.contourArea(quad)), 1e-3))
        if not (0 <= centre[0] < cells and 0 <= centre[1] < cells) or die["visible"] < GLIMPSED:
            continue
        inside = ((quad >= -0.15 * extent) & (quad <= cells + 0.15 * extent)).all()
        cx, cy = int(centre[0]), int(centre[1])
        near = (slice(max(cy - 1, 0), cy + 2), slice(max(cx - 1, 0), cx + 2))
        if die["visible"] < SEEN or not inside or extent < 1.0:  # may be found or not
            heat_weight[max(cy - 2, 0) : cy + 3, max(cx - 2, 0) : cx + 3] = 0
            continue
        sigma = max(0.6, extent / 6)
        gauss = np.exp(-((xs - centre[0]) ** 2 + (ys - centre[1]) ** 2) / (2 * sigma**2))
        heat = np.maximum(heat, gauss)
        heat[cy, cx] = 1.0
        offsets = quad[None, None] - np.stack([xs, ys], -1)[near][:, :, None]  # h x w x 4 x 2
        corners[(slice(None), *near)] = offsets.reshape(*offsets.shape[:2], 8).transpose(2, 0, 1)
        cocked[near] = float(die["cocked"])
        box_weight[near] = 1.0
        die_size[near] = extent
    return heat, heat_weight, corners, cocked, box_weight, die_size


class Samples(torch.utils.data.IterableDataset):
    """An endless, seeded stream of augmented windows (each worker has its own seed).

    ``negatives`` are real photographs with no dice in them; ``negative_share`` of the windows
    are cut from them, wanting no find at all: the renders' tables and props are not the clutter
    of real rooms (docs/vision-limits.md, session 47). Where such a window is flat
    (``flat_cells`` under ``negative_flat_below``) it is not scored: a blank Cubes face is flat
    too, and a detector taught that flat patches are never dice misses blank dice (session 48)."""

    def __init__(
        self,
        scenes,
        seed: int,
        negatives=(),
        negative_share: float = 0.0,
        negative_flat_below: float = 0.0,
    ):
        if negative_share and not len(negatives):
            raise ValueError("a share of windows cut from photos with no dice needs such photos")
        self.scenes, self.seed = scenes, seed
        self.negatives, self.negative_share = negatives, negative_share
        self.negative_flat_below = negative_flat_below

    def __iter__(self):
        info = torch.utils.data.get_worker_info()
        rng = np.random.default_rng([self.seed, info.id if info else 0])
        while True:
            negative = rng.random() < self.negative_share
            if negative:
                image, dice = self.negatives[rng.integers(len(self.negatives))], []
            else:
                image, truth = self.scenes[rng.integers(len(self.scenes))]
                dice = truth["dice"]
            crop, quads = window(rng, image, dice)
            unscored = flat_cells(crop, self.negative_flat_below) if negative else None
            crop = recolour(rng, crop)
            x = torch.from_numpy(crop.transpose(2, 0, 1).astype(np.float32) / 255)
            yield (x, *(torch.from_numpy(t) for t in targets(dice, quads, unscored=unscored)))


# ---- loss ---------------------------------------------------------------------------------------


def detector_loss(outputs, batch):
    heat_out, corners_out, cocked_out = outputs
    heat, heat_weight, corners, cocked, box_weight, die_size = batch
    p = heat_out[:, 0].clamp(1e-4, 1 - 1e-4)
    positive = (heat == 1).float()
    count = positive.sum().clamp(min=1)
    # centre-net focal loss: near-centre negatives are penalised less
    pos_loss = -((1 - p) ** 2 * torch.log(p) * positive).sum()
    neg_loss = -((1 - heat) ** 4 * p**2 * torch.log(1 - p) * (1 - positive) * heat_weight).sum()
    heat_loss = (pos_loss + neg_loss) / count
    # corners: the net may start the quad at any corner (a top face has no 'first' corner)
    boxes = box_weight.sum().clamp(min=1)
    predicted = corners_out.view(-1, 4, 2, *corners_out.shape[2:])
    target = corners.view(-1, 4, 2, *corners.shape[2:])
    errors = torch.stack(
        [F.smooth_l1_loss(predicted, target.roll(k, 1), reduction="none").sum((1, 2)) for k in range(4)]
    )
    corner_loss = (errors.min(0).values / die_size * box_weight).sum() / boxes
    cocked_loss = (
        F.binary_cross_entropy(cocked_out[:, 0].clamp(1e-4, 1 - 1e-4), cocked, reduction="none")
        * box_weight
        * (1 + 4 * cocked)  # leaning dice are rare
    ).sum() / boxes
    return heat_loss + corner_loss + 0.5 * cocked_loss, (heat_loss, corner_loss, cocked_loss)


# ---- training -----------------------------------------------------------------------------------


def from_onnx(width: int, path: Path, batches) -> DetectorNet:
    """A DetectorNet computing what the exported ``path`` computes, to train on from there.

    Export folds each batch norm into the convolution before it (``name.weight`` and
    ``name.weight_bias`` in the file), so the norm's own scale and shift are gone.  Each norm
    is rebuilt as the identity on what reaches it: its running mean and variance measured on
    ``batches`` (training inputs), its scale and shift set to undo them, so that in eval mode
    the network is the file exactly, and in train mode it is the file up to batch noise."""
    import onnx
    from onnx import numpy_helper

    weights = {
        w.name: torch.from_numpy(numpy_helper.to_array(w).copy())
        for w in onnx.load(str(path)).graph.initializer
    }
    model = DetectorNet(width).eval()
    modules = dict(model.named_modules())
    folded = {}  # batch norm -> the bias its convolution carried in the file
    state = model.state_dict()
    for name, module in modules.items():
        if not isinstance(module, torch.nn.Conv2d):
            continue
        weight = weights.get(f"{name}.weight")
        if weight is None or weight.shape != module.weight.shape:
            raise ValueError(f"{path} is not a detector of width {width} ({name}.weight)")
        state[f"{name}.weight"] = weight
        if module.bias is not None:
            state[f"{name}.bias"] = weights[f"{name}.bias"]
        else:  # conv then norm, the next module in its Sequential; a zero bias is left out of the file
            parent, index = name.rsplit(".", 1)
            folded[f"{parent}.{int(index) + 1}"] = weights.get(
                f"{name}.weight_bias", torch.zeros(len(weight))
            )
    model.load_state_dict(state)
    inputs = {name: [] for name in folded}
    hooks = [
        modules[name].register_forward_pre_hook(lambda m, args, name=name: inputs[name].append(args[0]))
        for name in folded
    ]
    # While measuring, each norm only adds its convolution's bias, so that the network is the
    # file's and every norm downstream sees what it will see in training (with a zero bias
    # instead, the later norms' statistics were measured on another network, and in train mode,
    # where batch statistics stand in for them, the rebuilt network read 8 times the file's loss).
    for name, bias in folded.items():
        norm = modules[name]
        norm.running_mean.zero_()
        norm.running_var.fill_(1 - norm.eps)
        norm.weight.data.fill_(1.0)
        norm.bias.data.copy_(bias)
    with torch.no_grad():
        for batch in batches:
            model(batch)
    for hook in hooks:
        hook.remove()
    with torch.no_grad():
        for name, bias in folded.items():
            norm, seen = modules[name], torch.cat(inputs[name]).transpose(0, 1).flatten(1)
            mean, var = seen.mean(1), seen.var(1)
            norm.running_mean.copy_(mean)
            norm.running_var.copy_(var)
            norm.weight.copy_(torch.sqrt(var + norm.eps))
            norm.bias.copy_(mean + bias)
    return model


def train(
    scenes,
    steps: int,
    batch_size: int,
    seed: int,
    width: int,
    workers: int,
    init: Path | None = None,
    device: str = "cpu",
    lr: float = 3e-3,
    negatives=(),
    negative_share: float = 0.0,
    negative_flat_below: float = 0.0,
) -> DetectorNet:
    """The detector trained for ``steps`` batches of re-shot windows; on ``device="cuda"`` the
    network runs on the GPU while the windows are still cut by ``workers`` CPU processes.
    ``init`` is a checkpoint (.pt) or an exported model (.onnx, see ``from_onnx``); ``lr`` the
    one-cycle schedule's peak (lower to fine-tune); ``negatives``, ``negative_share`` and
    ``negative_flat_below`` as ``Samples`` takes them."""
    from tqdm import tqdm

    torch.manual_seed(seed)
    model = DetectorNet(width)  # first, as always: the same seed starts from the same weights
    if init is not None and init.suffix != ".onnx":
        model.load_state_dict(torch.load(init, weights_only=True))
    loader = torch.utils.data.DataLoader(
        Samples(scenes, seed, negatives, negative_share, negative_flat_below),
        batch_size=batch_size,
        num_workers=workers,
        persistent_workers=workers > 0,
    )
    batches = iter(loader)
    if init is not None and init.suffix == ".onnx":  # the shipped model, when no checkpoint is left
        model = from_onnx(width, init, [next(batches)[0] for _ in range(ONNX_CALIBRATION_BATCHES)])
    model = model.to(device, memory_format=torch.channels_last)
    optimiser = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=1e-4)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, lr, total_steps=steps, pct_start=0.05)
    model.train()
    progress = tqdm(range(steps), desc="detector", unit="step")
    for _ in progress:
        batch = [part.to(device) for part in next(batches)]
        x = batch[0].contiguous(memory_format=torch.channels_last)
        loss, parts = detector_loss(model(x), batch[1:])
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        schedule.step()
        progress.set_postfix(
            loss=f"{loss.item():.3f}", heat=f"{parts[0].item():.3f}", corners=f"{parts[1].item():.3f}"
        )
    return model.cpu().eval()


def take_any_size(proto):
    """The ONNX model with its image's and outputs' heights and widths named, not fixed: the
    network is convolutional, so vision/detector.py may show it a 16:9 frame padded to 384x224
    rather than to its whole 384x288 view (any multiple of 16 works)."""
    for value in [*proto.graph.input, *proto.graph.output]:
        dims = value.type.tensor_type.shape.dim
        for axis, side in ((2, "height"), (3, "width")):
            dims[axis].Clear()
            dims[axis].dim_param = f"{value.name}_{side}"
    del proto.graph.value_info[:]  # the exporter's inner shapes, all at the one size
    return proto


def export(model: DetectorNet, path: Path, recipe: dict, leaning_from: float | None = None) -> None:
    """One ONNX file; the input size and stride ride in its metadata (vision/detector.py reads
    them), and ``leaning_from``, the cocked output from which a die leans, when chosen for it."""
    import onnx

    from models.metadata import set_metadata

    model = model.to(memory_format=torch.contiguous_format).eval()
    x = torch.rand(1, 3, INPUT_H, INPUT_W)
    torch.onnx.export(
        model,
        (x,),
        str(path),
        input_names=["image"],
        output_names=["heat", "corners", "cocked"],
        dynamic_shapes=({0: torch.export.Dim("batch")},),
        external_data=False,
    )
    proto = take_any_size(onnx.load(str(path)))
    meta = {"input_width": INPUT_W, "input_height": INPUT_H, "stride": STRIDE, "recipe": json.dumps(recipe)}
    if leaning_from is not None:
        meta["leaning_from"] = leaning_from
    set_metadata(proto, meta)
    onnx.save(proto, str(path))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--train", type=Path, nargs="+", default=[Path("data/scenes/train")])
    parser.add_argument("--heldout", type=Path, default=Path("data/scenes/heldout"))
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parent)
    parser.add_argument("--steps", type=int, default=12000)
    parser.add_argument("--batch", type=int, default=24)
    parser.add_argument("--width", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument(
        "--init", type=Path, help="start from these weights: a checkpoint .pt, or an exported .onnx"
    )
    parser.add_argument("--lr", type=float, default=3e-3, help="peak learning rate (lower to fine-tune)")
    parser.add_argument("--history", help="how the --init weights were trained, for the model card")
    parser.add_argument(
        "--negatives", type=Path, nargs="+", default=[], help="folders of real photos with no dice in them"
    )
    parser.add_argument(
        "--negative-share", type=float, default=0.15, help="the share of windows cut from --negatives"
    )
    parser.add_argument(
        "--negative-flat-below",
        type=float,
        default=4.0,
        help="grey spread under which a --negatives window's patch is flat, as a blank die's face, "
        "and not scored (0: score it all)",
    )
    add_device_arguments(parser, "models.detector_card")
    args = parser.parse_args(argv)
    torch.set_num_threads(args.threads)
    scenes = [scene for folder in args.train for scene in load_scenes(folder)]
    if not scenes:
        parser.error(
            f"no rendered scenes in {', '.join(map(str, args.train))}: render some first (see --help)"
        )
    render = [command for folder in args.train for command in render_commands(folder)]  # what was read
    negative_paths = [path for folder in args.negatives for path in photos(folder)]
    if args.negatives and not negative_paths:
        parser.error(
            f"no photos in {', '.join(map(str, args.negatives))}: see datasets/photos_without_dice.py"
        )
    negatives = [cv2.imread(str(path), cv2.IMREAD_COLOR) for path in negative_paths]
    unreadable = [str(path) for path, image in zip(negative_paths, negatives, strict=True) if image is None]
    if unreadable:  # else the first window cut from one would fail deep in a training run
        parser.error(f"unreadable photos: {', '.join(unreadable)}")
    share = args.negative_share if negatives else 0.0
    started = time.time()
    model = train(
        scenes,
        args.steps,
        args.batch,
        args.seed,
        args.width,
        args.workers,
        args.init,
        args.device,
        args.lr,
        negatives,
        share,
        args.negative_flat_below,
    )
    CHECKPOINTS.mkdir(parents=True, exist_ok=True)
    name = f"detector-{args.seed}-{args.steps}-w{args.width}" + ("-negatives" if negatives else "")
    torch.save(model.state_dict(), CHECKPOINTS / f"{name}.pt")
    recipe = {
        "seed": args.seed,
        "steps": args.steps,
        "batch": args.batch,
        "width": args.width,
        "init": str(args.init) if args.init else None,
        "lr": args.lr,
        **({"history": args.history} if args.history else {}),
        "train_images": len(scenes),
        **(
            {
                "negatives": [str(f) for f in args.negatives],
                "negative_share": share,
                "negative_flat_below": args.negative_flat_below,
            }
            if negatives
            else {}
        ),
        "render": render + render_commands(args.heldout),
        "train_minutes": round((time.time() - started) / 60, 1),
        "device": device_name(args.device),
        "workers": args.workers,
    }
    args.out.mkdir(parents=True, exist_ok=True)
    model_path = args.out / "detector.onnx"
    export(model, model_path, recipe)
    if args.no_card:
        return 0
    from models.detector_card import write_card

    write_card(model_path, args.heldout, args.out, recipe)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
