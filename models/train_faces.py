"""Train the face classifier on rendered crops and ship it: ``python -m models.train_faces``.

Renders a fixed, seeded pool of crops from the trained style families (cached under
data/faces/), trains FaceNet on it with random right-angle turns, exports
models/faces-fast.onnx, the camera's model (labels in its metadata and in
models/faces_labels.json), then measures it through vision.faces.FaceClassifier on freshly
rendered test sets and writes the model card models/faces-fast.md with its confusion matrix.
``--width W`` other than the camera's writes faces-wW.onnx instead: the default model,
models/faces.onnx, is such a wider network made 8-bit by ``python -m models.quantize_faces``.

``--scenes DIR ...`` adds crops cut from Blender-rendered table scenes (datasets/scenes; train
split only) the way the app cuts them: each die at least half visible, rectified from its true
quad with jittered corners, several copies a die, plus ``none`` crops of table, cards, chips
and hands away from the dice.  They make ``--scene-share`` of every epoch, drawn in turn from
a fresh random order, so a few scenes are oversampled and many are spread over the epochs.
``--negatives DIR ...`` adds ``none`` crops cut from real photos with no dice in them
(``python -m datasets.photos_without_dice train``; ``photo_negatives``), within the same share;
``--photo-tables DIR ...`` puts such photos under ``--photo-table-share`` of the rendered crops;
``--swirled SHARE`` casts that share of the Cubes and pip dice faces in swirled or speckled
plastics (``datasets.faces.plastics``).
A pool smaller than a cached one of the same seed is that pool's first crops (crop i depends
only on (seed, i)), so a fine-tune on seed 5 loads its pool in seconds instead of rendering it:

    python -m models.train_faces --seed 5 --train-size 30000 --epochs 3 --lr 4e-4 \\
        --init data/faces/checkpoint-5-100000-epoch7.pt --scenes data/scenes/train data/scenes/train12
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import time
import zlib
from multiprocessing import get_context
from pathlib import Path

import cv2
import numpy as np
import torch
from torch.nn import functional as F
from tqdm import tqdm

from datasets.card_decks import deck_names, training_corners
from datasets.faces import NONE, TRAIN_FAMILIES, render_set
from datasets.faces.glyphs import HELDOUT_FONTS, TRAIN_FONTS, available
from datasets.faces.photo_tables import photo_tables
from datasets.faces.printed import render_prints
from datasets.faces.render import PALE_DICE
from datasets.photos_without_dice import photos
from datasets.scenes.render import truth_paths
from models.devices import add_device_arguments, device_name
from models.face_net import COSINE_SCALE, INPUT_SIZE, WIDTH, FaceNet, freeze_norms, from_onnx, width_of
from scoring.faces import ALL_LABELS
from vision.faces import smooth_noisy
from vision.readings import rectify

MODELS = Path(__file__).resolve().parent
CACHE = MODELS.parent / "data" / "faces"
LABELS = ALL_LABELS + (NONE,)
CHUNK = 1000
MARGIN = 0.05  # CosFace margin: pulls each class's embeddings together, which prototypes rely on
DISTIL_TEMPERATURE = 2.0  # softens the teacher's logits so its second and third choices carry weight
DISTIL_SHARE = 0.5  # of the loss, when a teacher is given; the rest is the labels' own loss
SCENE_SEEN = 0.5  # a die at least this visible is one the detector must find, so the model must read it
SCENE_JITTER = 0.06  # corners moved up to this share of the face's side: the detector's quads are not exact
# (the detector's error is 7.5-8.8% of a face; a 0.12 jitter gained nothing, docs/vision.md)
DIE_REACH = 2.0  # a top face grown this much about its centre covers the die's sides and shadow
# --degrade: a webcam's picture of a die in a dim room, as the 64 px crop shows it
NOISE_SIGMA = (2.0, 16.0)  # grey levels of sensor noise, each channel a little apart (colour noise)
JPEG_QUALITY = (30, 95)  # a stream's compression, on 70% of the degraded crops
LOW_RES = (20, 48)  # px: on 30% of them the face was this small in the frame, enlarged to 64
# --relight: light the renders do not cover (docs/vision.md, "Light the renders may not cover")
EXPOSURE = (0.25, 1.5)  # gain, drawn on a log scale: a dim room to an over-bright lamp
HAZE = (0.35, 0.85)  # contrast kept when washed out (glare, haze, auto-exposure on a dark table)
CAST = 0.45  # the most a warm (tungsten) or cool (shade) light takes from blue or red
CURVE = (0.7, 1.5)  # gamma of a camera's contrast curve
RELIGHT_CHANCES = {"cast": 0.5, "exposure": 0.7, "haze": 0.35, "curve": 0.3}  # of each change, per crop
# --soften: a die's crop this many px across (drawn on a log scale) seen through soft optics, or a
# renderer's denoiser, then enlarged to 64 as ``rectify`` enlarges it.  At 320x240 a die is
# 12-25 px, and a blur of 0.7 px there cost the held-out scene dice 13 points (84.7 -> 71.7%,
# docs/vision-limits.md, session 61); the pool's faces are drawn 28 px and up.
SOFT_SIDE = (16, 40)
SOFT_BLUR = (0.2, 0.8)  # Gaussian sigma, px at that size
# --negatives: real photos with no dice (datasets/photos_without_dice.py), cut into ``none`` crops
NEGATIVES_SEED = 4444
NEGATIVE_SCALES = (0.5, 1.0, 2.0)  # each photo shown at these sizes, as near and far dice would be
NEGATIVE_COPIES = 6  # jittered crops of each place the detector takes for a die
NEGATIVE_RANDOM = 50  # random quads a photo and scale, 12 px to a third of its short side
NEGATIVE_PLAIN = 12.0  # grey levels: a crop flatter than this is dropped, as a blank die face is flat too


def renderer_digest() -> str:
    """Changes whenever the renderer's code or the fonts installed for it do, so a cached
    pool is never stale."""
    source = Path(__file__).resolve().parent.parent / "datasets" / "faces"
    h = hashlib.sha1()
    for path in sorted(source.glob("*.py")):
        h.update(path.read_bytes())
    h.update(" ".join(available(TRAIN_FONTS + HELDOUT_FONTS)).encode())
    return h.hexdigest()[:10]


def _render_chunk(job):
    n, seed, families, start, tables, swirled = job
    under = photo_tables(*tables) if tables else None
    images, labels, _ = render_set(n, seed, families, INPUT_SIZE, start=start, tables=under, swirled=swirled)
    return images, labels


PRINT_STREAM = 11  # print crops draw from (seed, this, i): crop i of the pool draws from (seed, i)


def _print_chunk(job):
    n, seed, start = job
    return render_prints(n, seed, INPUT_SIZE, start=start)


def print_negatives(n: int, seed: int, workers: int) -> np.ndarray:
    """``n`` `none` crops of printed words (``datasets.faces.printed``), rendered in parallel,
    each from a generator of its own: (seed, PRINT_STREAM, i), apart from the pool's (seed, i)."""
    jobs = [(min(CHUNK, n - s), (seed, PRINT_STREAM), s) for s in range(0, n, CHUNK)]
    with get_context("spawn").Pool(workers) as pool:
        return np.concatenate(list(tqdm(pool.imap(_print_chunk, jobs), total=len(jobs), desc="print")))


def cached_pool(desc: str, seed: int, n: int, families) -> Path | None:
    """The smallest cached pool of this seed, families and renderer with at least ``n`` crops.

    Crop i depends only on (seed, i), so a bigger pool's first ``n`` crops are the pool asked for.
    """
    head, tail = f"{desc}-{seed}-", f"-{'+'.join(families)[:60]}-{renderer_digest()}.npz"
    sizes = {}
    for path in CACHE.glob(f"{head}*{tail}"):
        size = path.name[len(head) : -len(tail)]
        if size.isdigit() and int(size) >= n:
            sizes[path] = int(size)
    return min(sizes, key=sizes.get) if sizes else None


def render_pool(n: int, seed: int, families, workers: int, desc: str, tables=None, swirled: float = 0.0):
    """``n`` crops rendered in parallel chunks; identical for any number of workers.  ``tables``,
    (photo folders, share), puts that share of the crops on patches of those photos; ``swirled``
    casts that share of the Cubes and pip dice in swirled plastics."""
    if swirled:
        desc += f"-swirled{swirled:g}"
    if tables:
        folders, share = tables
        names = [path.name for folder in folders for path in photos(Path(folder))]
        if not names:
            raise SystemExit(f"no photos in {', '.join(map(str, folders))}")
        desc += f"-tables{share:g}-{zlib.crc32(' '.join(names).encode()):08x}"
        tables = (tuple(str(folder) for folder in folders), share)
    key = CACHE / f"{desc}-{seed}-{n}-{'+'.join(families)[:60]}-{renderer_digest()}.npz"
    cached = cached_pool(desc, seed, n, families)
    if cached is not None:
        data = np.load(cached)
        images = data["images"]
        # a copy, so the rest of a bigger pool is not kept in memory
        return (images[:n].copy() if len(images) > n else images), [str(s) for s in data["labels"][:n]]
    jobs = [(min(CHUNK, n - s), seed, tuple(families), s, tables, swirled) for s in range(0, n, CHUNK)]
    images, labels = [], []
    with get_context("spawn").Pool(workers) as pool:
        for chunk_images, chunk_labels in tqdm(pool.imap(_render_chunk, jobs), total=len(jobs), desc=desc):
            images.append(chunk_images)
            labels.extend(chunk_labels)
    images = np.concatenate(images)
    key.parent.mkdir(parents=True, exist_ok=True)
    np.savez(key, images=images, labels=np.array(labels))
    return images, labels


def scene_truths(folders, split: str) -> tuple[list[tuple[Path, dict]], int]:
    """(image path, ground truth) of every rendered scene of ``split`` in ``folders``, and how
    many scenes of another split were skipped.  A JSON whose PNG is not there (a render in
    progress) or that is still being written is passed over."""
    found, other = [], 0
    for folder in folders:
        for truth_path in truth_paths(folder):
            try:
                truth = json.loads(truth_path.read_text())
            except json.JSONDecodeError:
                continue
            image_path = truth_path.with_name(truth["image"])
            if not image_path.is_file():
                continue
            if truth["split"] == split:
                found.append((image_path, truth))
            else:
                other += 1
    return found, other


def face_side(quad) -> float:
    """Side of a face in pixels: the square root of its area."""
    return float(np.sqrt(abs(cv2.contourArea(np.float32(quad)))))


def jitter_quad(rng, quad, jitter: float = SCENE_JITTER) -> np.ndarray:
    """``quad`` with each corner moved by up to ``jitter`` of the face's side along each axis."""
    quad = np.float32(quad)
    return quad + rng.uniform(-jitter, jitter, quad.shape).astype(np.float32) * face_side(quad)


def random_quad(rng, side: float, width: int, height: int) -> np.ndarray:
    """A square face of ``side`` pixels at a random place and turn inside a ``width`` x
    ``height`` picture, each corner moved a little, like a die's face seen from a tilted camera."""
    angle = rng.uniform(0, np.pi / 2)
    corners = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]]) * side / 2
    turn = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    centre = rng.uniform([side, side], [width - side, height - side])
    return (corners @ turn.T + centre + rng.uniform(-0.1, 0.1, (4, 2)) * side).astype(np.float32)


def none_quads(rng, truth: dict, count: int, tries: int = 30) -> list[np.ndarray]:
    """Up to ``count`` die-sized quads inside the picture that touch no die (whole die, any visibility)."""
    w, h = truth["size"]
    dice = np.zeros((h, w), np.uint8)
    for die in truth["dice"]:
        quad = np.float32(die["quad"])
        centre = quad.mean(0)
        cv2.fillPoly(dice, [np.round(centre + (quad - centre) * DIE_REACH).astype(np.int32)], 1)
    seen = [face_side(d["quad"]) for d in truth["dice"] if d["visible"] >= SCENE_SEEN]
    typical = float(np.median(seen)) if seen else 0.08 * w
    quads = []
    for _ in range(tries):
        if len(quads) == count:
            break
        side = typical * rng.uniform(0.7, 1.4)
        if 2 * side >= min(w, h):
            continue
        quad = random_quad(rng, side, w, h)
        place = np.zeros_like(dice)
        cv2.fillConvexPoly(place, np.round(quad).astype(np.int32), 1)
        if not (place & dice).any():
            quads.append(quad)
    return quads


def scene_samples(
    rng, truth: dict, copies: int, jitter: float = SCENE_JITTER
) -> list[tuple[np.ndarray, str]]:
    """The quads to cut from one scene and their labels: ``copies`` quads of each die at least
    half visible (cocked ones too), each corner moved by up to ``jitter`` of the face's side,
    and ``copies // 2`` (at least one) ``none`` places."""
    samples = [
        (jitter_quad(rng, die["quad"], jitter), die["label"])
        for die in truth["dice"]
        if die["visible"] >= SCENE_SEEN
        for _ in range(copies)
    ]
    return samples + [(quad, NONE) for quad in none_quads(rng, truth, max(1, copies // 2))]


def scene_crops(
    folders, copies: int, seed: int, jitter: float = SCENE_JITTER
) -> tuple[np.ndarray, list[str], int]:
    """Crops cut from the train-split scenes in ``folders``, their labels, and the scene count.

    Scenes of the held-out split are skipped: they measure transfer and must stay unseen.  Each
    scene's crops depend only on (seed, folder and file name), so scenes rendered later do not
    change the crops of earlier ones.
    """
    scenes, skipped = scene_truths(folders, "train")
    if skipped:
        print(f"skipped {skipped} scenes not of the train split")
    if not scenes:
        raise SystemExit(f"no train-split scenes in {', '.join(map(str, folders))}")
    images, labels, used = [], [], 0
    for image_path, truth in tqdm(scenes, desc="scenes", unit="scene"):
        name = f"{image_path.parent.name}/{image_path.name}"
        rng = np.random.default_rng([seed, zlib.crc32(name.encode())])
        image = cv2.imread(str(image_path))
        if image is None:
            continue
        used += 1
        samples = scene_samples(rng, truth, copies, jitter)
        crops = rectify(image, [quad for quad, _ in samples], INPUT_SIZE)
        # rectify always starts at the top-left corner on screen, so a cyclic roll of the quad's
        # corners would change nothing: the right-angle turn a detector's corner order brings is made here
        images += [np.ascontiguousarray(np.rot90(crop, rng.integers(4))) for crop in crops]
        labels += [label for _, label in samples]
    return np.stack(images), labels, used


def photo_negatives(folders, random_quads: int = NEGATIVE_RANDOM) -> np.ndarray:
    """``none`` crops cut from the real photos in ``folders``, which show no dice: every place
    the detector takes for a die there as `dicescore read` looks (``NEGATIVE_COPIES`` jittered
    crops of each), and ``random_quads`` random quads, at each of ``NEGATIVE_SCALES``; a
    third of them under other light; the flat ones dropped.  The renders' own ``none`` crops are
    render tables and props: these are the real textures and objects the detector takes for dice
    (docs/vision-limits.md, session 44)."""
    from vision.detector import Detector

    rng = np.random.default_rng(NEGATIVES_SEED)
    detector = Detector()
    paths = [p for folder in folders for p in photos(Path(folder))]
    if not paths:
        raise SystemExit(f"no photos in {', '.join(map(str, folders))}")
    crops = []
    for path in tqdm(paths, desc="photos", unit="photo"):
        photo = cv2.imread(str(path), cv2.IMREAD_COLOR)
        for scale in NEGATIVE_SCALES:
            shrink = cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
            image = cv2.resize(photo, None, fx=scale, fy=scale, interpolation=shrink)
            if max(image.shape[:2]) > 2400 or min(image.shape[:2]) < 100:
                continue
            found = detector.detect_at_scales(image)
            quads = [
                jitter_quad(rng, quad, SCENE_JITTER) for quad in found.quads for _ in range(NEGATIVE_COPIES)
            ]
            height, width = image.shape[:2]
            for _ in range(random_quads):
                side = float(np.exp(rng.uniform(np.log(12), np.log(min(width, height) / 3))))
                quads.append(random_quad(rng, side, width, height))
            crops += rectify(image, np.array(quads), INPUT_SIZE)
    if not crops:  # photos where the detector finds nothing, and no random quads asked for
        return np.zeros((0, INPUT_SIZE, INPUT_SIZE, 3), np.uint8)
    crops = np.stack(crops)
    for i in rng.choice(len(crops), len(crops) // 3, replace=False):
        crops[i] = np.clip(crops[i] * rng.uniform(0.5, 1.4, 3), 0, 255).astype(np.uint8)
    return crops[crops.mean(3).reshape(len(crops), -1).std(1) >= NEGATIVE_PLAIN]


def joined(shared, crops: np.ndarray, labels: list[str]) -> tuple[np.ndarray, list[str]]:
    """``crops`` and their ``labels`` added to the ``shared`` crops (None: none yet)."""
    if shared is None:
        return crops, list(labels)
    return np.concatenate([shared[0], crops]), [*shared[1], *labels]


def scene_draws(pool_size: int, scene_size: int, scene_share: float) -> int:
    """Scene crops per epoch, so that they make ``scene_share`` of it beside the whole pool."""
    return round(pool_size * scene_share / (1 - scene_share)) if scene_size else 0


def epoch_order(generator, pool_size: int, scene_size: int, scene_share: float) -> torch.Tensor:
    """One epoch's crop indices: every pool crop once, and scene crops (indices after the pool's)
    making ``scene_share`` of the epoch, taken in turn from fresh random orders so each is drawn
    about as often as any other, however few or many there are."""
    if not scene_size:
        return torch.randperm(pool_size, generator=generator)
    wanted = scene_draws(pool_size, scene_size, scene_share)
    rounds = -(-wanted // scene_size)
    scenes = torch.cat([torch.randperm(scene_size, generator=generator) for _ in range(rounds)])[:wanted]
    order = torch.cat([torch.arange(pool_size), pool_size + scenes])
    return order[torch.randperm(len(order), generator=generator)]


def load_net(path: Path) -> FaceNet:
    """A FaceNet from a checkpoint (.pt) or from a float ONNX export (.onnx, ``face_net.from_onnx``)."""
    if path.suffix == ".onnx":
        return from_onnx(path)
    weights = torch.load(path, map_location="cpu")
    model = FaceNet(len(LABELS), width_of(weights))
    model.load_state_dict(weights)
    return model


def webcam_degraded(rng, crops: np.ndarray, share: float) -> np.ndarray:
    """A copy of N x 64 x 64 x 3 uint8 ``crops`` with ``share`` of them as a webcam in a dim room
    gives them: sensor noise, often JPEG, sometimes the detail of a smaller face lost; then each
    noisy crop smoothed as ``FaceClassifier.prepare`` smooths it at run time.  The renders
    carry far less noise than that (docs/vision-limits.md)."""
    out = crops.copy()
    for i in np.flatnonzero(rng.random(len(out)) < share):
        crop = out[i].astype(np.float32)
        if rng.random() < 0.3:
            side = int(rng.integers(*LOW_RES))
            small = cv2.resize(crop, (side, side), interpolation=cv2.INTER_AREA)
            crop = cv2.resize(small, (INPUT_SIZE, INPUT_SIZE), interpolation=cv2.INTER_LINEAR)
        sigma = rng.uniform(*NOISE_SIGMA) * (1 + 0.3 * rng.normal(0, 1, (1, 1, 3)))
        crop = np.clip(crop + rng.normal(0, 1, crop.shape) * sigma, 0, 255).astype(np.uint8)
        if rng.random() < 0.7:
            quality = int(rng.integers(*JPEG_QUALITY))
            encoded = cv2.imencode(".jpg", crop, [cv2.IMWRITE_JPEG_QUALITY, quality])[1]
            crop = cv2.imdecode(encoded, cv2.IMREAD_COLOR)
        out[i] = crop
    return smoothed_bytes(out)


def smoothed_bytes(crops: np.ndarray) -> np.ndarray:
    """uint8 ``crops``, each noisy one smoothed as ``FaceClassifier.prepare`` smooths it, in bytes."""
    return np.rint(smooth_noisy(crops)).astype(np.uint8)


def relit(rng, crops: np.ndarray) -> np.ndarray:
    """A copy of N x 64 x 64 x 3 uint8 ``crops``, each under light the renders do not cover: a
    warm or cool cast (often), an exposure from dim to over-bright (often), washed out towards
    grey or white (sometimes), a contrast curve (sometimes).  The renders' own light stays
    within about 0.55-1.5 of their exposure and 15% of white balance, and the camera's model
    read dim and washed-out dice 5-10 points worse than as rendered."""
    out = np.empty_like(crops)
    chance = RELIGHT_CHANCES
    for i, crop in enumerate(crops.astype(np.float32) / 255):
        if rng.random() < chance["cast"]:
            warmth = rng.uniform(-1, 1)  # > 0 warm: less blue, more red; < 0 cool: the reverse
            gains = 1 + np.array([-CAST, -CAST / 3, CAST / 3]) * warmth
            crop = crop * (gains * rng.uniform(0.95, 1.05, 3))
        if rng.random() < chance["exposure"]:
            crop = crop * np.exp(rng.uniform(*np.log(EXPOSURE)))
        crop = np.clip(crop, 0, 1)
        if rng.random() < chance["haze"]:
            kept = rng.uniform(*HAZE)
            crop = crop * kept + (1 - kept) * rng.uniform(0.3, 1.0)
        if rng.random() < chance["curve"]:
            crop = crop ** rng.uniform(*CURVE)
        out[i] = np.clip(crop * 255 + 0.5, 0, 255)
    return smoothed_bytes(out)


def softened(rng, crops: np.ndarray) -> np.ndarray:
    """A copy of N x 64 x 64 x 3 uint8 ``crops``, each as a small die through soft optics
    shows it (``SOFT_SIDE``, ``SOFT_BLUR``), enlarged back to the crop's size."""
    out = np.empty_like(crops)
    size = crops.shape[1]
    for i, crop in enumerate(crops):
        side = int(np.exp(rng.uniform(*np.log(SOFT_SIDE))))
        small = cv2.resize(crop, (side, side), interpolation=cv2.INTER_AREA)
        small = cv2.GaussianBlur(small, (0, 0), rng.uniform(*SOFT_BLUR))
        out[i] = cv2.resize(small, (size, size), interpolation=cv2.INTER_LINEAR)
    return out


def _degrade_chunk(job):
    crops, seed = job
    return webcam_degraded(np.random.default_rng(seed), crops, share=1.0)


def _relight_chunk(job):
    crops, seed = job
    return relit(np.random.default_rng(seed), crops)


def _soften_chunk(job):
    crops, seed = job
    return softened(np.random.default_rng(seed), crops)


def degraded_copy(
    images: np.ndarray,
    share: float,
    seed,
    workers: int,
    pool=None,
    relight: float = 0.0,
    soften: float = 0.0,
) -> np.ndarray:
    """A copy of ``images`` with ``relight`` of its crops (drawn from ``seed``) under new light
    (``relit``), ``soften`` of them small and soft (``softened``), then ``share`` of them as a
    dim webcam gives them (``webcam_degraded``), each share drawn on its own, made in parallel
    chunks by ``pool`` if given: degrading each batch on the training thread would leave a GPU
    idle most of the time.  The same for any number of workers."""
    rng = np.random.default_rng(seed)
    noisy = np.flatnonzero(rng.random(len(images)) < share)  # drawn first, as before --relight
    lit = np.flatnonzero(rng.random(len(images)) < relight)
    soft = np.flatnonzero(rng.random(len(images)) < soften)  # last, as before --soften
    out = images.copy()
    changes = ((lit, _relight_chunk, [1]), (soft, _soften_chunk, [2]), (noisy, _degrade_chunk, []))
    for chosen, change, tag in changes:
        parts = [chosen[s : s + CHUNK] for s in range(0, len(chosen), CHUNK)]
        jobs = [(out[part], [*np.atleast_1d(seed), i, *tag]) for i, part in enumerate(parts)]
        for part, crops in zip(parts, (pool.imap if pool else map)(change, jobs), strict=True):
            out[part] = crops
    return out


def to_tensor(images: torch.Tensor) -> torch.Tensor:
    """N x H x W x 3 uint8 -> N x 3 x H x W float 0..1, channels-last, on the images' device."""
    return images.permute(0, 3, 1, 2).float().div_(255).contiguous(memory_format=torch.channels_last)


def turned(x: torch.Tensor, turns: torch.Tensor) -> torch.Tensor:
    """The batch with each of its quarters turned by its own number of right angles."""
    quarters = x.chunk(len(turns))
    x = torch.cat([torch.rot90(q, int(k), (2, 3)) for q, k in zip(quarters, turns, strict=True)])
    return x.contiguous(memory_format=torch.channels_last)


def train(
    images,
    labels,
    epochs: int,
    batch: int,
    seed: int,
    lr: float,
    init: Path | None = None,
    scenes: tuple[np.ndarray, list[str]] | None = None,
    scene_share: float = 0.0,
    device: str = "cpu",
    width: int = WIDTH,
    teacher: FaceNet | None = None,
    degrade: float = 0.0,
    workers: int = 1,
    relight: float = 0.0,
    soften: float = 0.0,
) -> FaceNet:
    """FaceNet trained on the pool ``images``; ``scenes`` (crops, labels) make ``scene_share`` of an epoch.

    On ``device="cuda"`` the whole pool is moved to the GPU once, as uint8, and batches are cut there.
    The crop order and turns come from a CPU generator either way, so they do not depend on the device.
    With a ``teacher`` (a FaceNet trained before, often a wider one), the loss is shared between the
    labels and the teacher's softened readings of the same crops (distillation): the teacher says which faces
    look alike in a crop, e.g. a 6 or a 9 turned and blurred, which a hard label cannot.
    With ``degrade``, that share of the crops is shown to the network as a webcam would give
    them (``webcam_degraded``; drawn afresh each epoch by ``workers`` processes) while the
    teacher reads them as rendered: the network learns to read a noisy crop as the teacher
    reads a clean one.  With ``relight``, that share is first shown under new light (``relit``),
    the teacher again reading it as rendered; with ``soften``, that share small and soft
    (``softened``).  Weights from an ONNX file (``init``) train with
    their batch norms frozen, as ``face_net.from_onnx`` rebuilds them.
    """
    torch.manual_seed(seed)
    pool_size = len(images)
    scene_size = len(scenes[0]) if scenes is not None else 0
    if scene_size:
        images, labels = np.concatenate([images, scenes[0]]), list(labels) + list(scenes[1])
    # continue from an earlier run's weights, or start afresh
    model = load_net(init) if init is not None else FaceNet(len(LABELS), width)
    model = model.to(device, memory_format=torch.channels_last)
    if teacher is not None:
        teacher = teacher.to(device, memory_format=torch.channels_last).eval()
    targets = torch.tensor([LABELS.index(label) for label in labels], device=device)
    # N x H x W x 3 uint8, converted per batch to save memory
    pixels = torch.from_numpy(images).to(device)
    # with --degrade, --relight or --soften, each epoch shows the pool with fresh shares of it changed,
    # by these processes
    changed = degrade or relight or soften
    degraders = get_context("spawn").Pool(workers) if changed and workers > 1 else None
    epoch_size = pool_size + scene_draws(pool_size, scene_size, scene_share)
    steps = epochs * (epoch_size // batch)
    optimizer = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=5e-4)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimizer, lr, total_steps=steps, pct_start=0.1)
    generator = torch.Generator().manual_seed(seed)
    model.train()
    if init is not None and init.suffix == ".onnx":
        freeze_norms(model)
    bar = tqdm(total=steps, desc="train")
    for epoch in range(epochs):
        order = epoch_order(generator, pool_size, scene_size, scene_share)
        if changed:
            degraded = degraded_copy(
                images, degrade, [seed, 1, epoch], workers, degraders, relight=relight, soften=soften
            )
            shown_pixels = torch.from_numpy(degraded).to(device)
        for b in range(epoch_size // batch):
            idx = order[b * batch : (b + 1) * batch].to(device)
            # Dice land turned any way: a random right-angle turn per batch quarter.
            turns = torch.randint(0, 4, (4,), generator=generator)
            x = turned(to_tensor(pixels[idx]), turns)
            shown = turned(to_tensor(shown_pixels[idx]), turns) if changed else x
            y = targets[idx]
            logits, _ = model(shown)
            loss = F.cross_entropy(
                logits - COSINE_SCALE * MARGIN * F.one_hot(y, len(LABELS)), y, label_smoothing=0.05
            )
            if teacher is not None:
                with torch.no_grad():
                    taught = F.softmax(teacher(x)[0] / DISTIL_TEMPERATURE, dim=1)
                guess = F.log_softmax(logits / DISTIL_TEMPERATURE, dim=1)
                mimic = F.kl_div(guess, taught, reduction="batchmean")
                loss = (1 - DISTIL_SHARE) * loss + DISTIL_SHARE * DISTIL_TEMPERATURE**2 * mimic
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            optimizer.step()
            schedule.step()
            bar.update()
            bar.set_postfix(loss=f"{loss.item():.3f}")
        CACHE.mkdir(parents=True, exist_ok=True)  # a checkpoint per epoch, to inspect a run midway
        trained_width = width_of(model.state_dict())  # an init file's, whatever ``width`` says
        name = (f"w{trained_width}-" if trained_width != WIDTH else "") + f"{seed}-{pool_size}"
        name += (f"-scenes{scene_size}" if scene_size else "") + ("-distilled" if teacher is not None else "")
        name += f"-degraded{degrade:g}" if degrade else ""
        name += f"-relit{relight:g}" if relight else ""
        name += f"-softened{soften:g}" if soften else ""
        weights = {key: value.cpu() for key, value in model.state_dict().items()}
        torch.save(weights, CACHE / f"checkpoint-{name}-epoch{epoch}.pt")
    bar.close()
    if degraders is not None:
        degraders.close()
    return model.cpu().eval()


def export_name(width: int) -> str:
    """The file a run exports: the camera's width ships as faces-fast.onnx, others by width."""
    return "faces-fast.onnx" if width == WIDTH else f"faces-w{width}.onnx"


def export(model: FaceNet, path: Path, recipe: dict) -> None:
    """One ONNX file with its labels, cosine scale, input size and training recipe as metadata."""
    import onnx

    from models.metadata import set_metadata

    x = torch.rand(2, 3, INPUT_SIZE, INPUT_SIZE)
    model = model.to(memory_format=torch.contiguous_format).eval()
    torch.onnx.export(
        model,
        (x,),
        str(path),
        input_names=["crops"],
        output_names=["logits", "embedding"],
        dynamic_shapes=({0: torch.export.Dim("batch")},),
        external_data=False,
    )
    proto = onnx.load(str(path))
    meta = {
        "labels": json.dumps(list(LABELS)),
        "cosine_scale": str(COSINE_SCALE),
        "input_size": str(INPUT_SIZE),
        "recipe": json.dumps(recipe),
    }
    set_metadata(proto, meta)
    onnx.save(proto, str(path))
    (path.parent / "faces_labels.json").write_text(json.dumps(list(LABELS), indent=1) + "\n")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--train-size", type=int, default=100_000)
    parser.add_argument("--epochs", type=int, default=5)
    parser.add_argument("--batch", type=int, default=128)
    parser.add_argument("--lr", type=float, default=1.5e-3)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--test-size", type=int, default=6000)
    parser.add_argument("--out", type=Path, default=MODELS)
    parser.add_argument(
        "--init", type=Path, help="start from these weights (a checkpoint .pt, or a float .onnx export)"
    )
    parser.add_argument(
        "--scenes",
        type=Path,
        nargs="+",
        default=[],
        help="folders of rendered scenes (train split) to cut crops from",
    )
    parser.add_argument("--scene-copies", type=int, default=4, help="jittered crops of each die seen")
    parser.add_argument(
        "--scene-jitter",
        type=float,
        default=SCENE_JITTER,
        help="move each corner of a scene crop's quad by up to this share of the face's side",
    )
    parser.add_argument(
        "--scene-share", type=float, default=0.35, help="share of each epoch that is scene crops"
    )
    parser.add_argument(
        "--negatives",
        type=Path,
        nargs="+",
        default=[],
        help="folders of real photos with no dice (python -m datasets.photos_without_dice train) to cut"
        " `none` crops from; they join the scene crops' share",
    )
    parser.add_argument(
        "--negative-random",
        type=int,
        default=NEGATIVE_RANDOM,
        help="random quads cut from each negative photo at each size, beside the detector's finds",
    )
    parser.add_argument(
        "--print-negatives",
        type=int,
        default=0,
        metavar="N",
        help="`none` crops of printed words (a score pad, a rule sheet) to render; they join the scene"
        " crops' share",
    )
    parser.add_argument(
        "--photo-tables",
        type=Path,
        nargs="+",
        default=[],
        help="folders of real photos with no dice to put under --photo-table-share of the rendered crops,"
        " so that real texture alone does not mean `none`",
    )
    parser.add_argument("--photo-table-share", type=float, default=0.5)
    parser.add_argument(
        "--decks",
        type=Path,
        help="a folder of real decks' cards (python -m datasets.card_decks) to cut corner crops from,"
        " the held-out decks left out; they join the scene crops' share",
    )
    parser.add_argument("--deck-copies", type=int, default=12, help="corner crops of each deck card")
    parser.add_argument(
        "--swirled",
        type=float,
        default=0.0,
        help="cast this share of the Cubes and pip dice faces in swirled or speckled plastic",
    )
    parser.add_argument("--width", type=int, default=WIDTH, help="FaceNet width (ships at the default)")
    parser.add_argument(
        "--teacher", type=Path, help="distil from this FaceNet (.pt or float .onnx), often a wider one"
    )
    parser.add_argument(
        "--degrade",
        type=float,
        default=0.0,
        metavar="SHARE",
        help="show this share of each batch as a dim webcam would (noise, JPEG, low resolution)",
    )
    parser.add_argument(
        "--relight",
        type=float,
        default=0.0,
        metavar="SHARE",
        help="show this share of each batch under light the renders do not cover (dim, washed out, a cast)",
    )
    parser.add_argument(
        "--soften",
        type=float,
        default=0.0,
        metavar="SHARE",
        help="show this share of each batch as a small die through soft optics"
        f" ({SOFT_SIDE[0]}-{SOFT_SIDE[1]} px, blurred)",
    )
    parser.add_argument("--history", help="how the --init weights were trained, for the model card")
    parser.add_argument("--threads", type=int, default=2, help="torch threads for training")
    add_device_arguments(parser, "models.face_card")
    args = parser.parse_args(argv)

    torch.set_num_threads(args.threads)
    if args.device.startswith("cuda"):
        # cuBLAS is deterministic only with a fixed workspace; set before CUDA starts
        os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8")
        torch.backends.cudnn.benchmark = False
    torch.use_deterministic_algorithms(True)
    started = time.time()
    tables = (args.photo_tables, args.photo_table_share) if args.photo_tables else None
    images, labels = render_pool(
        args.train_size, args.seed, TRAIN_FAMILIES, args.workers, "train", tables, args.swirled
    )
    rendered = time.time()
    scenes, scene_count = None, 0
    if args.scenes:
        crops, crop_labels, scene_count = scene_crops(
            args.scenes, args.scene_copies, args.seed, args.scene_jitter
        )
        scenes = (crops, crop_labels)
    shared = scenes  # the crops that make --scene-share of each epoch
    if args.negatives:
        negatives = photo_negatives(args.negatives, args.negative_random)
        shared = joined(shared, negatives, [NONE] * len(negatives))
    if args.print_negatives:
        prints = print_negatives(args.print_negatives, args.seed, args.workers)
        shared = joined(shared, prints, [NONE] * len(prints))
    if args.decks:
        corners, corner_labels = training_corners(args.decks, args.deck_copies, args.seed)
        square = (INPUT_SIZE, INPUT_SIZE)
        corners = np.stack([cv2.resize(c, square, interpolation=cv2.INTER_AREA) for c in corners])
        shared = joined(shared, corners, corner_labels)
    cut = time.time()
    teacher = None
    if args.teacher:
        teacher = load_net(args.teacher)
    model = train(
        images,
        labels,
        args.epochs,
        args.batch,
        args.seed,
        args.lr,
        args.init,
        shared,
        args.scene_share,
        args.device,
        args.width,
        teacher,
        args.degrade,
        args.workers,
        args.relight,
        args.soften,
    )
    trained = time.time()
    args.out.mkdir(parents=True, exist_ok=True)
    width = width_of(model.state_dict())  # an --init file's, whatever --width says
    model_path = args.out / export_name(width)
    recipe = {
        "seed": args.seed,
        "train_size": args.train_size,
        "epochs": args.epochs,
        "batch": args.batch,
        "lr": args.lr,
        "threads": args.threads,
        "device": args.device,
        "device_name": device_name(args.device),
        "cpus": os.cpu_count(),
        "workers": args.workers,
        "render_s": round(rendered - started, 1),
        "train_s": round(trained - cut, 1),
        "parameters": sum(p.numel() for p in model.parameters()),
        "init": str(args.init) if args.init else None,
        "width": width,
        "train_fonts": len(available(TRAIN_FONTS)),  # the crops' fonts installed here
        "pale_dice": PALE_DICE,
    }
    if args.teacher:
        recipe |= {
            "teacher": str(args.teacher),
            "teacher_width": width_of(teacher.state_dict()),
            "distil_temperature": DISTIL_TEMPERATURE,
            "distil_share": DISTIL_SHARE,
        }
    if args.negatives:
        recipe |= {"negatives": [str(folder) for folder in args.negatives], "negative_crops": len(negatives)}
        recipe |= {"negative_random": args.negative_random, "scene_share": args.scene_share}
    if args.print_negatives:
        recipe |= {"print_negatives": args.print_negatives, "scene_share": args.scene_share}
    if args.photo_tables:
        recipe |= {"photo_tables": [str(folder) for folder in args.photo_tables]}
        recipe["photo_table_share"] = args.photo_table_share
    if args.swirled:
        recipe["swirled"] = args.swirled
    if args.decks:
        recipe |= {
            "decks": str(args.decks),
            "deck_names": deck_names(args.decks),
            "deck_copies": args.deck_copies,
            "deck_corners": len(corner_labels),
            "scene_share": args.scene_share,
        }
    if args.scenes:
        recipe |= {
            "scenes": [str(folder) for folder in args.scenes],
            "scene_images": scene_count,
            "scene_crops": len(scenes[1]),
            "scene_none_crops": scenes[1].count(NONE),
            "scene_copies": args.scene_copies,
            "scene_jitter": args.scene_jitter,
            "scene_share": args.scene_share,
            "scene_s": round(cut - rendered, 1),
        }
    if args.degrade:
        recipe |= {
            "degrade": args.degrade,
            "noise_sigma": list(NOISE_SIGMA),
            "jpeg_quality": list(JPEG_QUALITY),
            "low_res": list(LOW_RES),
        }
    if args.relight:
        recipe |= {"relight": args.relight, "exposure": list(EXPOSURE), "haze": list(HAZE), "cast": CAST}
        recipe |= {"curve": list(CURVE), "relight_chances": RELIGHT_CHANCES}
    if args.soften:
        recipe |= {"soften": args.soften, "soft_side": list(SOFT_SIDE), "soft_blur": list(SOFT_BLUR)}
    if args.history:
        recipe["history"] = args.history
    export(model, model_path, recipe)
    if args.no_card:
        return
    from models.face_card import write_card

    write_card(model_path, args.test_size, args.workers, train_scenes=args.scenes)


if __name__ == "__main__":
    main()
