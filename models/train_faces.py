"""Train the face classifier on rendered crops and ship it: ``python -m models.train_faces``.

Renders a fixed, seeded pool of crops from the trained style families (cached under
data/faces/), trains FaceNet on it with random right-angle turns, exports
models/faces.onnx (labels in its metadata and in models/faces_labels.json), then measures
it through vision.faces.FaceClassifier on freshly rendered test sets and writes the model
card models/faces.md with its confusion matrix models/faces_confusion.png.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import time
from multiprocessing import get_context
from pathlib import Path

import numpy as np
import torch
from torch.nn import functional as F
from tqdm import tqdm

from datasets.faces import NONE, TRAIN_FAMILIES, render_set
from models.face_net import COSINE_SCALE, INPUT_SIZE, FaceNet
from scoring.faces import ALL_LABELS

MODELS = Path(__file__).resolve().parent
CACHE = MODELS.parent / "data" / "faces"
LABELS = ALL_LABELS + (NONE,)
CHUNK = 1000
MARGIN = 0.05  # CosFace margin: pulls each class's embeddings together, which prototypes rely on


def renderer_digest() -> str:
    """Changes whenever the renderer's code does, so a cached pool is never stale."""
    source = Path(__file__).resolve().parent.parent / "datasets" / "faces"
    h = hashlib.sha1()
    for path in sorted(source.glob("*.py")):
        h.update(path.read_bytes())
    return h.hexdigest()[:10]


def _render_chunk(job):
    n, seed, families, start = job
    images, labels, _ = render_set(n, seed, families, INPUT_SIZE, start=start)
    return images, labels


def render_pool(n: int, seed: int, families, workers: int, desc: str):
    """``n`` crops rendered in parallel chunks; identical for any number of workers."""
    key = CACHE / f"{desc}-{seed}-{n}-{'+'.join(families)[:60]}-{renderer_digest()}.npz"
    if key.exists():
        data = np.load(key)
        return data["images"], [str(s) for s in data["labels"]]
    jobs = [(min(CHUNK, n - s), seed, tuple(families), s) for s in range(0, n, CHUNK)]
    images, labels = [], []
    with get_context("spawn").Pool(workers) as pool:
        for chunk_images, chunk_labels in tqdm(pool.imap(_render_chunk, jobs), total=len(jobs), desc=desc):
            images.append(chunk_images)
            labels.extend(chunk_labels)
    images = np.concatenate(images)
    key.parent.mkdir(parents=True, exist_ok=True)
    np.savez(key, images=images, labels=np.array(labels))
    return images, labels


def to_tensor(images: np.ndarray) -> torch.Tensor:
    return (
        torch.from_numpy(images)
        .permute(0, 3, 1, 2)
        .float()
        .div_(255)
        .contiguous(memory_format=torch.channels_last)
    )


def train(images, labels, epochs: int, batch: int, seed: int, lr: float, init: Path | None = None) -> FaceNet:
    torch.manual_seed(seed)
    model = FaceNet(len(LABELS))
    if init is not None:  # continue from an earlier run's weights
        model.load_state_dict(torch.load(init))
    model = model.to(memory_format=torch.channels_last)
    targets = torch.tensor([LABELS.index(label) for label in labels])
    pixels = torch.from_numpy(images)  # N x H x W x 3 uint8, converted per batch to save memory
    steps = epochs * (len(images) // batch)
    optimizer = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=5e-4)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimizer, lr, total_steps=steps, pct_start=0.1)
    generator = torch.Generator().manual_seed(seed)
    model.train()
    bar = tqdm(total=steps, desc="train")
    for epoch in range(epochs):
        order = torch.randperm(len(images), generator=generator)
        for b in range(len(images) // batch):
            idx = order[b * batch : (b + 1) * batch]
            x = to_tensor(pixels[idx].numpy())
            # Dice land turned any way: a random right-angle turn per batch quarter.
            turns = torch.randint(0, 4, (4,), generator=generator)
            quarters = x.chunk(4)
            x = torch.cat([torch.rot90(q, int(k), (2, 3)) for q, k in zip(quarters, turns, strict=True)])
            x = x.contiguous(memory_format=torch.channels_last)
            y = targets[idx]
            logits, _ = model(x)
            logits = logits - COSINE_SCALE * MARGIN * F.one_hot(y, len(LABELS))
            loss = F.cross_entropy(logits, y, label_smoothing=0.05)
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            optimizer.step()
            schedule.step()
            bar.update()
            bar.set_postfix(loss=f"{loss.item():.3f}")
        CACHE.mkdir(parents=True, exist_ok=True)  # a checkpoint per epoch, to inspect a run midway
        torch.save(model.state_dict(), CACHE / f"checkpoint-{seed}-{len(images)}-epoch{epoch}.pt")
    bar.close()
    return model.eval()


def export(model: FaceNet, path: Path, recipe: dict) -> None:
    """One ONNX file with its labels, cosine scale, input size and training recipe as metadata."""
    import onnx

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
    for key, value in meta.items():
        entry = proto.metadata_props.add()
        entry.key, entry.value = key, value
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
    parser.add_argument("--init", type=Path, help="start from these weights (a checkpoint .pt)")
    args = parser.parse_args(argv)

    torch.set_num_threads(2)
    torch.use_deterministic_algorithms(True)
    started = time.time()
    images, labels = render_pool(args.train_size, args.seed, TRAIN_FAMILIES, args.workers, "train")
    rendered = time.time()
    model = train(images, labels, args.epochs, args.batch, args.seed, args.lr, args.init)
    trained = time.time()
    args.out.mkdir(parents=True, exist_ok=True)
    model_path = args.out / "faces.onnx"
    recipe = {
        "seed": args.seed,
        "train_size": args.train_size,
        "epochs": args.epochs,
        "batch": args.batch,
        "lr": args.lr,
        "render_s": round(rendered - started, 1),
        "train_s": round(trained - rendered, 1),
        "parameters": sum(p.numel() for p in model.parameters()),
        "init": str(args.init) if args.init else None,
    }
    export(model, model_path, recipe)
    from models.face_card import write_card

    write_card(model_path, args.test_size, args.workers)


if __name__ == "__main__":
    main()
