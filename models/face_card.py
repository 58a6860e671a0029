"""Measure a shipped face model through the runtime classifier and write its model card.

``python -m models.face_card`` re-measures models/faces.onnx (its recipe is in its metadata)
and writes models/faces.md; ``--model models/faces-fast.onnx`` the camera's model, into
models/faces-fast.md.  Each is measured
on rendered crops and on the dice of Blender-rendered scenes: all of data/scenes/heldout, and a
sample of the training-split scene folders given with ``--train-scenes`` (by default the ones
the model was trained on).
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import cv2
import numpy as np

from datasets.card_decks import FOLDER as DECKS
from datasets.card_decks import TEST_DECKS, corner_crops, fetched_decks
from datasets.faces import FAMILIES, HELDOUT_FAMILIES, NONE, TRAIN_FAMILIES, render_set
from datasets.faces.glyphs import HELDOUT_FONTS
from datasets.faces.photos import TIGHTNESSES, corner_photos
from datasets.faces.printed import render_prints
from datasets.faces.render import random_shoot, render_dice_set
from models.face_net import WIDTH
from models.face_recipe import (
    average_lines,
    budget,
    data_words,
    epochs_words,
    fonts_words,
    no_face_cut,
    real_photo_words,
    recipe_scale,
    reproduce_command,
    role,
    size_limit,
    teacher_words,
    timed_where,
    trained_where,
)
from models.train_faces import NEGATIVE_RANDOM, SCENE_JITTER
from scoring.faces import DIE_KINDS
from vision.faces import ALL_TURNS, DEFAULT_MODEL, FaceClassifier
from vision.readings import rectify

MODELS = Path(__file__).resolve().parent
HELDOUT_SCENES = MODELS.parent / "data" / "scenes" / "heldout"
TRAINED_TEST_SEED = 1001
HELDOUT_TEST_SEED = 2002
TEACH_SEED = 3003
CORNER_TEST_SEED = 5005
CORNER_PHOTO_SEED = 4040
CORNER_PHOTOS = 1000  # photo-like card corners read at each tightness
REAL_DECK_SEED = 2026
TRAIN_SCENE_SEED = 7007
TRAIN_SCENE_SAMPLE = 150  # training-split images measured: some hundreds of dice of each kind
TIGHT_KEEP = 0.7  # of a corner crop's side kept about its centre: the index nearly fills it
AS_A_PHOTO = {"turns": ALL_TURNS, "second_look": True}  # how classify reads by default
ONE_TURN = {"turns": (0,), "second_look": False}  # how the camera reads a video frame
# A webcam's noise in a dim room, as the 64 px crop shows it: (grey levels, JPEG quality)
WEBCAM_NOISE = ((0, None), (4, 70), (8, 60), (12, 50), (16, 40))
NOISE_SEED = 8080
PRINT_SEED = 9090
PRINT_CROPS = 1500  # printed-word crops read by each file
NOISE_SAMPLE = 3000  # trained-family crops read at each noise level


def read_all(
    classifier: FaceClassifier, images, batch: int = 512, turns=(0,), second_look: bool = False
) -> list[str]:
    """Best label over all classes, ``none`` included, with no die-kind mask, each crop read
    at ``turns`` (and with ``second_look``, see ``FaceClassifier.classify``).

    Give it a classifier made with ``min_confidence=0`` so that only ``none`` reads as None.
    """
    out = []
    for start in range(0, len(images), batch):
        out += [
            reading.label or NONE
            for reading in classifier.classify(
                images[start : start + batch], kind=None, turns=turns, second_look=second_look
            )
        ]
    return out


def tight_corner_crops(size: int = 192) -> tuple[list[np.ndarray], list[str]]:
    """The corner test set cut tighter: each crop rendered at ``size`` px and cut to its
    middle ``TIGHT_KEEP``, as a hand might crop a card's corner index from a photo."""
    images, labels, _ = render_set(2000, CORNER_TEST_SEED, ("corner_index",), size=size, fonts=HELDOUT_FONTS)
    margin = round(size * (1 - TIGHT_KEEP) / 2)
    return [image[margin:-margin, margin:-margin] for image in images], labels


def tightness_reports(classifier: FaceClassifier, crops_at) -> list[tuple[float, dict, dict]]:
    """Card corners at each tightness, ``crops_at(tightness)`` giving the crops and labels:
    (tightness, read at one turn, read as a photo)."""
    reports = []
    for tightness in TIGHTNESSES:
        crops, truth = crops_at(tightness)
        reports.append(
            (
                tightness,
                accuracy_report(truth, read_all(classifier, crops)),
                accuracy_report(truth, read_all(classifier, crops, **AS_A_PHOTO)),
            )
        )
    return reports


def corner_photo_reports(
    classifier: FaceClassifier, n: int = CORNER_PHOTOS, seed: int = CORNER_PHOTO_SEED
) -> list[tuple[float, dict, dict]]:
    """Photo-like card corners (``datasets.faces.photos``) at each tightness."""
    return tightness_reports(classifier, lambda tightness: corner_photos(n, seed, tightness))


def real_deck_reports(classifier: FaceClassifier, folder: Path = DECKS) -> list[tuple[float, dict, dict]]:
    """The held-out real decks' corners (``datasets.card_decks``) at each tightness; none
    where the decks were not fetched."""
    decks = fetched_decks(folder, "test")
    if not decks:
        return []
    return tightness_reports(classifier, lambda tightness: corner_crops(decks, REAL_DECK_SEED, tightness)[:2])


def tightness_rows(reports: list[tuple[float, dict, dict]]) -> str:
    return "\n".join(
        f"| {tightness:g} | {one['n']:,} | {one['accuracy']:.2%} | {photo['accuracy']:.2%} "
        f"| {photo['worst'][0]} {photo['worst'][1]:.1%} |"
        for tightness, one, photo in reports
    )


def corner_photo_section(reports: list[tuple[float, dict, dict]]) -> str:
    return f"""
### Card corners as a photo of a real card shows them
How issue 4 tries the model on real photographs: a square crop centred on a card's corner
index, turned any way. `datasets.faces.photos` draws that condition without the renderer's
damage past reading that the corner rows above include (faces of 16 px, JPEG 30, heavy
blur): a card on a table in fair light, its index in the six held-out fonts with the court
picture or the nearest pip beside it, cut square about the index (a little off centre),
64-200 px, with a phone's mild blur, noise and JPEG 70-95. Seed {CORNER_PHOTO_SEED}; the
same cards at each tightness (the crop's side over the index's height, rank to suit).

| crop side / index height | crops | one turn | as a photo | lowest class as a photo |
| --- | --- | --- | --- | --- |
{tightness_rows(reports)}
"""


def real_deck_section(reports: list[tuple[float, dict, dict]]) -> str:
    if not reports:
        fetch = "`python -m datasets.card_decks`"
        return f"\n### Real decks' corners\nNot measured: no decks in data/card-decks ({fetch}).\n"
    return f"""
### Real decks' corners
The same condition, printed as real decks print their index rather than in fonts: the
cards of the {len(TEST_DECKS)} decks `datasets.card_decks` holds out from training
({", ".join(sorted(TEST_DECKS))}; the artwork of Debian's Aisleriot and KDE card games, Paris and
Neoclassical among them, and a web design of npm's, two- and four-colour, its jumbo index too),
each card once at each tightness, laid on a table and cut as above
(`datasets.card_decks.corner_crops`, seed {REAL_DECK_SEED}). `benchmarks/bench_real_decks.py`
prints the same by deck.

| crop side / index height | crops | one turn | as a photo | lowest class as a photo |
| --- | --- | --- | --- | --- |
{tightness_rows(reports)}
"""


def print_report(app_classifier: FaceClassifier, crops) -> dict[str, float]:
    """The shares of ``crops`` of print (``datasets.faces.printed``) that the app reads as a
    face: no die-kind mask and with the d6 mask, at one turn and as a photo."""
    shares = {}
    for kind in (None, "d6"):
        for how, read in (("one turn", ONE_TURN), ("as a photo", AS_A_PHOTO)):
            readings = app_classifier.classify(crops, kind=kind, **read)
            shares[f"{kind or 'any'} {how}"] = float(np.mean([face.label is not None for face in readings]))
    return shares


def print_section(shares: dict[str, float], before: dict[str, float]) -> str:
    """The card's section on print read as a face, this file's and the one it started from's."""
    columns = list(shares)
    rows = [("this file", shares)] + ([("the file it started from", before)] if before else [])
    lines = "\n".join(
        f"| {name} | " + " | ".join(f"{got[column]:.1%}" for column in columns) + " |" for name, got in rows
    )
    return f"""
### Print that is not a die
Game tables hold score pads, rule sheets and boxes, and the detector can take a letter the
size of a die for one. {PRINT_CROPS:,} crops of printed words (`datasets.faces.printed`) in
the six held-out fonts, seed {PRINT_SEED}, read as the app reads them (threshold and all); the
share read as a face, with every label allowed ("any") and with the d6 mask (pips and
numerals):

| file | {" | ".join(columns)} |
| --- |{" --- |" * len(columns)}
{lines}
"""


def accuracy_report(truth, predicted) -> dict:
    truth, predicted = np.array(truth), np.array(predicted)
    per_class = {label: float((predicted[truth == label] == label).mean()) for label in dict.fromkeys(truth)}
    worst = min(per_class, key=per_class.get)
    return {
        "n": len(truth),
        "accuracy": float((truth == predicted).mean()),
        "per_class": per_class,
        "worst": (worst, per_class[worst]),
    }


def scene_dice(folders, split: str, sample: int | None = None):
    """Crops rectified from the true quad of every die at least half visible in the rendered
    scenes of ``split``, with their labels and die kinds, and the number of images read (a
    seeded sample of ``sample`` images when there are more)."""
    from models.train_faces import SCENE_SEEN, scene_truths

    scenes, _ = scene_truths(folders, split)
    if sample is not None and len(scenes) > sample:
        keep = np.random.default_rng(TRAIN_SCENE_SEED).choice(len(scenes), sample, replace=False)
        scenes = [scenes[i] for i in sorted(keep)]
    crops, labels, kinds = [], [], []
    for image_path, truth in scenes:
        image = cv2.imread(str(image_path))
        dice = [die for die in truth["dice"] if die["visible"] >= SCENE_SEEN]
        if image is None or not dice:
            continue
        crops += rectify(image, [die["quad"] for die in dice])
        labels += [die["label"] for die in dice]
        kinds += [die["kind"] for die in dice]
    return crops, labels, kinds, len(scenes)


def scene_reports(
    classifier: FaceClassifier, crops, labels, kinds, batch: int = 512, turns=(0,), second_look=False
) -> dict[str, dict]:
    """Accuracy over all dice and per die kind, each crop read with its die's kind mask as the
    app reads it (at ``turns``, with or without ``second_look``); an unreadable reading
    (label None) counts as wrong and as ``unreadable``."""
    predicted = [NONE] * len(crops)
    for kind in dict.fromkeys(kinds):
        index = [i for i, k in enumerate(kinds) if k == kind]
        for start in range(0, len(index), batch):
            part = index[start : start + batch]
            for i, reading in zip(
                part,
                classifier.classify(
                    [crops[i] for i in part], kind=kind, turns=turns, second_look=second_look, pips=False
                ),
                strict=True,
            ):
                predicted[i] = reading.label or NONE
    groups = {"all dice": list(range(len(crops)))}
    groups |= {kind: [i for i, k in enumerate(kinds) if k == kind] for kind in DIE_KINDS if kind in kinds}
    reports = {}
    for name, index in groups.items():
        truth, read = [labels[i] for i in index], [predicted[i] for i in index]
        reports[name] = accuracy_report(truth, read) | {"unreadable": read.count(NONE) / len(read)}
    return reports


def teach_one_per_face(classifier: FaceClassifier, family: str, seed: int = TEACH_SEED) -> int:
    """Learn one rendered example of every face of ``family`` (as a player showing each face once)."""
    labels = [label for label in FAMILIES[family].labels]
    images, got, _ = render_set(len(labels) * 15, seed, (family,))
    taught = 0
    for label in labels:
        i = got.index(label)
        classifier.learn(images[i], label)
        taught += 1
    return taught


def read_a_taught_set(
    model: Path,
    family: str,
    kind: str,
    set_seed: int,
    views: int,
    seed: int,
    how: dict,
    nothing=(),
    others: dict | None = None,
    taught_views: int = 1,
) -> dict[str, float]:
    """One dice set of ``family`` in one shoot (``render_dice_set``; shoot, taught views and
    read views all from ``seed``), read by ``model`` with ``kind``'s mask and ``how``
    (classify's turns and second look) before and after ``taught_views`` views of each face
    are taught for ``kind``: the shares of its ``views`` views of each face read right (``before``,
    ``after``) and read as another face (``wrong_before``, ``wrong_after``; the rest are
    unreadable), and of the ``nothing`` crops read as a face (``claimed_...``).  ``others``
    (name: (crops, labels, die kind)) are dice of other prints read alongside, each with its
    own kind's mask: the same shares under ``<name>_before`` and so on."""
    shoot = random_shoot(np.random.default_rng([seed, set_seed]), family)
    taught, taught_labels = render_dice_set(family, set_seed, taught_views, seed, shoot=shoot)
    crops, labels = render_dice_set(family, set_seed, views, seed + 1, shoot=shoot)
    read_too = {"": (crops, labels, kind), **{f"{name}_": dice for name, dice in (others or {}).items()}}
    with tempfile.TemporaryDirectory() as folder:
        classifier = FaceClassifier(model, data_dir=folder)

        def shares(when: str) -> dict[str, float]:
            out = {}
            for name, (images, truths, read_kind) in read_too.items():
                read = [r.label for r in classifier.classify(images, kind=read_kind, **how)]
                pairs = list(zip(read, truths, strict=True))
                out[f"{name}{when}"] = float(np.mean([label == truth for label, truth in pairs]))
                wrong = [label not in (None, truth) for label, truth in pairs]
                out[f"{name}wrong_{when}"] = float(np.mean(wrong))
            claimed = [r.label is not None for r in classifier.classify(nothing, kind=kind, **how)]
            out[f"claimed_{when}"] = float(np.mean(claimed)) if claimed else 0.0
            return out

        untaught = shares("before")
        for crop, label in zip(taught, taught_labels, strict=True):
            classifier.learn(crop, label, kind)
        return untaught | shares("after")


# One print of a held-out family, taught one view a face for its die kind (as the page
# teaches a family's own dice): benchmarks/bench_teach.py's sets and shoots.
ONE_PRINT_SETS, ONE_PRINT_VIEWS, ONE_PRINT_SEED, ONE_PRINT_FIRST_SET = 6, 8, 900, 1000
ONE_PRINT_KINDS = {"rank_beside_suit": "square-shooters", "framed": "cubes"}


def one_print_report(model: Path) -> dict[str, dict[str, dict[str, float]]]:
    """For each held-out family, its ``ONE_PRINT_SETS`` sets read at one turn and as a photo
    before and after they are taught (``read_a_taught_set``), averaged over the sets."""
    report = {}
    for family, kind in ONE_PRINT_KINDS.items():
        report[family] = {}
        for how_name, how in (
            ("one turn", ONE_TURN),
            ("as a photo", AS_A_PHOTO),
        ):
            sets = [
                read_a_taught_set(
                    model, family, kind, ONE_PRINT_FIRST_SET + n, ONE_PRINT_VIEWS, ONE_PRINT_SEED, how
                )
                for n in range(ONE_PRINT_SETS)
            ]
            report[family][how_name] = {key: float(np.mean([one[key] for one in sets])) for key in sets[0]}
    return report


def one_print_section(report: dict) -> str:
    rows = "\n".join(
        f"| {family} ({ONE_PRINT_KINDS[family]}) | {how_name} | {r['before']:.1%} / {r['wrong_before']:.1%} "
        f"| {r['after']:.1%} / {r['wrong_after']:.1%} |"
        for family, hows in report.items()
        for how_name, r in hows.items()
    )
    return f"""
### One dice set taught
Issue 4's other measure: one example of each face of an unseen style taught with `learn()`.
A family's own dice are one print, so here each set is every face of a held-out family
printed once (`render_dice_set`) and seen in one shoot; one view of each face is taught for
its die kind and {ONE_PRINT_VIEWS} other views of each are read with the kind's mask, {ONE_PRINT_SETS}
sets a family (benchmarks/bench_teach.py's; it reads both models and dice of other prints
too). Read right / read as another face (the rest unreadable, for a tap), averaged over
the sets:

| family | read | untaught | taught |
| --- | --- | --- | --- |
{rows}

Once every face of a kind is taught for it, the taught faces read that kind without the
lead rule, and each example speaks as varied views of itself too (docs/vision.md,
"Teaching a dice set"): fewer faces are read wrong, and near ties read unsure. As a photo
(turns averaged), the taught faces speak at a sharper scale (`TAUGHT_SET_SCALE`), so that
a near-but-right lead is read, not left unsure.
"""


def with_webcam_noise(crops, sigma: float, quality: int | None, seed: int = NOISE_SEED) -> list[np.ndarray]:
    """64 x 64 crops with Gaussian sensor noise of ``sigma`` grey levels and JPEG at ``quality``
    (none for None), the same for every model measured.  Not ``datasets.faces.render.sensor``,
    which noises the full-size render before it is shrunk: here the noise falls on the 64 px
    crop the classifier reads, as a webcam's does on a die a few dozen pixels across."""
    rng = np.random.default_rng([seed, int(sigma)])
    out = []
    for crop in crops:
        crop = cv2.resize(np.asarray(crop), (64, 64), interpolation=cv2.INTER_AREA).astype(np.float32)
        crop = np.clip(crop + rng.normal(0, sigma, crop.shape), 0, 255).astype(np.uint8)
        if quality is not None:
            crop = cv2.imdecode(
                cv2.imencode(".jpg", crop, [cv2.IMWRITE_JPEG_QUALITY, quality])[1], cv2.IMREAD_COLOR
            )
        out.append(crop)
    return out


def noise_report(classifier: FaceClassifier, app_classifier: FaceClassifier, trained, scene) -> list[dict]:
    """At each ``WEBCAM_NOISE`` level, read at one turn: the trained-family crops (best label,
    as this card's first row) and the held-out scene dice (as the app reads them)."""
    (trained_images, trained_truth), (crops, truth, kinds) = trained, scene
    rows = []
    for sigma, quality in WEBCAM_NOISE:
        noisy_trained = with_webcam_noise(trained_images, sigma, quality)
        rows.append(
            {
                "sigma": sigma,
                "quality": quality,
                "trained": accuracy_report(trained_truth, read_all(classifier, noisy_trained))["accuracy"],
                "scenes": scene_reports(
                    app_classifier, with_webcam_noise(crops, sigma, quality), truth, kinds
                )["all dice"]["accuracy"],
            }
        )
    return rows


def latency_ms(
    classifier: FaceClassifier, crop_size: int = 64, runs: int = 300, turns=(0,), second_look=False
) -> dict:
    crops = render_set(9, 4004, TRAIN_FAMILIES, size=crop_size)[0]
    for _ in range(20):
        classifier.classify(crops, turns=turns, second_look=second_look)
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        classifier.classify(crops, turns=turns, second_look=second_look)
        times.append(time.perf_counter() - t)
    return {"median": 1000 * float(np.median(times)), "p90": 1000 * float(np.percentile(times, 90))}


def render_speed(n: int = 1000) -> float:
    """Crops per second from one process after 3,000 warm-up crops (the glyph cache partly
    filled; benchmarks/bench_render_faces.py warms it fully and also times a pool)."""
    render_set(3000, 6006)
    start = time.perf_counter()
    render_set(n, 6007)
    return n / (time.perf_counter() - start)


def confusion_png(path: Path, sets: dict[str, tuple[list[str], list[str]]], labels) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    index = {label: i for i, label in enumerate(labels)}
    fig, axes = plt.subplots(1, len(sets), figsize=(11 * len(sets), 11))
    for ax, (title, (truth, predicted)) in zip(np.atleast_1d(axes), sets.items(), strict=True):
        matrix = np.zeros((len(labels), len(labels)))
        for t, p in zip(truth, predicted, strict=True):
            matrix[index[t], index[p]] += 1
        rows = matrix.sum(1, keepdims=True)
        shown = np.divide(matrix, rows, out=np.zeros_like(matrix), where=rows > 0)
        errors = shown.copy()
        np.fill_diagonal(errors, 0)
        ax.imshow(shown, cmap="Blues", vmin=0, vmax=1)
        for i, j in zip(*np.nonzero(errors), strict=True):
            ax.text(j, i, f"{int(matrix[i, j])}", ha="center", va="center", fontsize=6, color="red")
        ax.set_xticks(range(len(labels)), labels, rotation=90, fontsize=6)
        ax.set_yticks(range(len(labels)), labels, fontsize=6)
        ax.set_xlabel("read as")
        ax.set_ylabel("true face")
        ax.set_title(f"{title}: red numbers are misreads")
    fig.tight_layout()
    fig.savefig(path, dpi=70)
    plt.close(fig)


def write_card(
    model_path: Path,
    test_size: int = 6000,
    workers: int = 2,
    heldout_scenes: Path = HELDOUT_SCENES,
    train_scenes=None,
) -> dict:
    """Measure ``model_path`` on fresh test sets and rendered scenes; write its card (the same
    name, .md) and confusion matrices (``_confusion.png``) beside it.  ``train_scenes``
    (training-split scene folders to sample) defaults to the folders the model was trained on,
    if any."""
    from models.metadata import recipe_of
    from models.train_faces import render_pool

    recipe = recipe_of(model_path)
    if train_scenes is None:  # those of the model's scene folders this machine has
        train_scenes = [folder for folder in recipe.get("scenes", []) if Path(folder).is_dir()]
    scene_sets = {"held-out": ([heldout_scenes], "heldout", None)}
    if train_scenes:
        scene_sets["training-split"] = (list(train_scenes), "train", TRAIN_SCENE_SAMPLE)
    trained_images, trained_truth = render_pool(test_size, TRAINED_TEST_SEED, TRAIN_FAMILIES, workers, "test")
    heldout_images, heldout_truth = render_pool(
        test_size, HELDOUT_TEST_SEED, HELDOUT_FAMILIES, workers, "heldout"
    )
    with tempfile.TemporaryDirectory() as empty:
        classifier = FaceClassifier(model_path, data_dir=empty, min_confidence=0.0)
        trained = accuracy_report(trained_truth, trained_pred := read_all(classifier, trained_images))
        heldout = accuracy_report(heldout_truth, heldout_pred := read_all(classifier, heldout_images))
        # How real photos will be tried: a card's corner index, in fonts the model never saw.
        corner_images, corner_truth, _ = render_set(
            2000, CORNER_TEST_SEED, ("corner_index",), fonts=HELDOUT_FONTS
        )
        corner = accuracy_report(corner_truth, read_all(classifier, corner_images))
        # The same corners cut tighter, as a hand might crop a photo: the middle of a big crop.
        tight_images, tight_truth = tight_corner_crops()
        tight = accuracy_report(tight_truth, read_all(classifier, tight_images))
        corner_photo = corner_photo_reports(classifier)
        real_decks = real_deck_reports(classifier)
        # Still photos are read at four turns with a second look (vision.pipeline): each set
        # again that way.
        as_photo = [
            accuracy_report(truth, read_all(classifier, images, **AS_A_PHOTO))
            for truth, images in (
                (trained_truth, trained_images),
                (heldout_truth, heldout_images),
                (corner_truth, corner_images),
                (tight_truth, tight_images),
            )
        ]
        app_classifier = FaceClassifier(model_path, data_dir=empty)  # the app's confidence threshold
        print_crops = render_prints(PRINT_CROPS, PRINT_SEED, fonts=HELDOUT_FONTS)
        prints = print_report(app_classifier, print_crops)
        latency = latency_ms(app_classifier)
        latency_as_photo = latency_ms(app_classifier, **AS_A_PHOTO)
        scenes, heldout_dice = {}, None
        for name, (folders, split, sample) in scene_sets.items():
            crops, scene_truth, kinds, images = scene_dice(folders, split, sample)
            if crops and split == "heldout":
                heldout_dice = (crops, scene_truth, kinds)
            if crops:
                scenes[name] = (
                    folders,
                    images,
                    scene_reports(app_classifier, crops, scene_truth, kinds),
                    scene_reports(app_classifier, crops, scene_truth, kinds, **AS_A_PHOTO),
                )
        noise = {}
        if heldout_dice is not None:
            sample = (trained_images[:NOISE_SAMPLE], trained_truth[:NOISE_SAMPLE])
            noise["this file"] = noise_report(classifier, app_classifier, sample, heldout_dice)
        started_from, before, prints_before = Path(recipe.get("init") or ""), {}, {}
        parent_kept = started_from.is_file() and not started_from.samefile(model_path)  # not written over
        if started_from.suffix == ".onnx" and parent_kept:
            earlier = FaceClassifier(started_from, data_dir=empty, min_confidence=0.0)
            before = {
                name: accuracy_report(truth, read_all(earlier, images))["accuracy"]
                for name, truth, images in (
                    ("trained families", trained_truth, trained_images),
                    ("held-out families", heldout_truth, heldout_images),
                    ("corner indices", corner_truth, corner_images),
                )
            }
            earlier_app = FaceClassifier(started_from, data_dir=empty)
            prints_before = print_report(earlier_app, print_crops)
            if heldout_dice is not None:
                noise["the file it started from"] = noise_report(earlier, earlier_app, sample, heldout_dice)
    with tempfile.TemporaryDirectory() as folder:
        classifier = FaceClassifier(model_path, data_dir=folder, min_confidence=0.0)
        taught_count = sum(teach_one_per_face(classifier, family) for family in HELDOUT_FAMILIES)
        taught = accuracy_report(heldout_truth, read_all(classifier, heldout_images))
        as_photo.append(accuracy_report(heldout_truth, read_all(classifier, heldout_images, **AS_A_PHOTO)))
    taught_sets = one_print_report(model_path)
    labels = list(classifier.labels)
    float_model = Path(recipe["quantized"]["from"]) if recipe.get("quantized") else None
    unquantized = None
    if float_model is not None and float_model.is_file():
        with tempfile.TemporaryDirectory() as empty:
            plain = FaceClassifier(float_model, data_dir=empty, min_confidence=0.0)
            unquantized = {
                "size_mb": float_model.stat().st_size / 1e6,
                "latency": latency_ms(plain),
                **{
                    name: accuracy_report(truth, read_all(plain, images))["accuracy"]
                    for name, truth, images in (
                        ("trained", trained_truth, trained_images),
                        ("heldout", heldout_truth, heldout_images),
                        ("corner", corner_truth, corner_images),
                    )
                },
            }
    confusion = f"{model_path.stem}_confusion.png"
    confusion_png(
        model_path.parent / confusion,
        {
            "trained families": (trained_truth, trained_pred),
            "held-out families": (heldout_truth, heldout_pred),
        },
        labels,
    )
    size_mb = model_path.stat().st_size / 1e6
    speed = render_speed()
    worst_lines = []
    for name, report in (
        ("trained families", trained),
        ("held-out families", heldout),
        ("held-out, taught", taught),
    ):
        low = sorted(report["per_class"].items(), key=lambda kv: kv[1])[:5]
        worst_lines.append(f"| {name} | " + ", ".join(f"{k} {v:.1%}" for k, v in low) + " |")
    rows = [
        (f"trained families, fresh seed {TRAINED_TEST_SEED}", trained),
        (f"held-out families, seed {HELDOUT_TEST_SEED}", heldout),
        (f"card corner indices in the six held-out fonts, seed {CORNER_TEST_SEED}", corner),
        (f"the same corners cut tighter (the middle {TIGHT_KEEP:.0%} of each)", tight),
        (f"held-out families after `learn()` of one example per face ({taught_count} taps)", taught),
    ]
    for name, (folders, images, reports, reports_as_photo) in scenes.items():
        where = f"{scene_folders(folders)}, {images} images"
        rows.append((f"dice in Blender-rendered {name} scenes ({where}), die-kind mask", reports["all dice"]))
        as_photo.append(reports_as_photo["all dice"])
    table_rows = "\n".join(
        f"| {name} | {r['n']:,} | {r['accuracy']:.2%} | {r['worst'][0]} {r['worst'][1]:.1%} "
        f"| {t['accuracy']:.2%} | {t['worst'][0]} {t['worst'][1]:.1%} |"
        for (name, r), t in zip(rows, as_photo, strict=True)
    )
    scene_rows = "\n".join(
        f"| {name} | {kind} | {r['n']:,} | {r['accuracy']:.1%} | {r['unreadable']:.1%} "
        f"| {r['worst'][0]} {r['worst'][1]:.0%} | {reports_as_photo[kind]['accuracy']:.1%} |"
        for name, (_, _, reports, reports_as_photo) in scenes.items()
        for kind, r in reports.items()
    )
    scene_section = scene_card_section(
        scenes, scene_rows, heldout_scenes, recipe, app_classifier.min_confidence
    )
    command = reproduce_command(recipe, model_path.name)
    history = f"\n- {recipe['history']}" if recipe.get("history") else ""
    distilled = ""
    if recipe.get("teacher"):
        distilled = f"""
  Distilled from {teacher_words(recipe)}:
  {recipe["distil_share"]:.0%} of the loss is the KL divergence to the teacher's readings of
  the same crops, softened at temperature {recipe["distil_temperature"]:g}."""
    if str(recipe.get("init", "")).endswith(".onnx"):
        distilled += f"""
  Started from the ONNX file {recipe["init"]}, rebuilt in torch (`face_net.from_onnx`; an
  8-bit file's weights are its integers times their scales) with each batch norm folded into
  its convolution, so the norms stay frozen."""
    if recipe.get("degrade"):
        distilled += f"""
  Shown as a dim webcam gives them (`--degrade {recipe["degrade"]:g}`): {recipe["degrade"]:.0%} of
  each batch's crops get sensor noise of {recipe["noise_sigma"][0]:g}-{recipe["noise_sigma"][1]:g}
  grey levels (a little different in each channel), on 70% of them JPEG at quality
  {recipe["jpeg_quality"][0]}-{recipe["jpeg_quality"][1]}, and on 30% the detail of a face
  {recipe["low_res"][0]}-{recipe["low_res"][1]} px across; a noisy crop is then smoothed as
  the reader smooths it. The teacher reads every crop as rendered."""
    if recipe.get("relight"):
        chance, (low, high), haze, curve = (
            recipe["relight_chances"],
            recipe["exposure"],
            recipe["haze"],
            recipe["curve"],
        )
        distilled += f"""
  Shown under light the renders do not reach (`--relight {recipe["relight"]:g}`, before the
  noise): {recipe["relight"]:.0%} of each batch's crops, {chance["cast"]:.0%} of them under a warm or cool
  cast (up to {recipe["cast"]:.0%} of blue or red), {chance["exposure"]:.0%} exposed {low:g}-{high:g} times,
  {chance["haze"]:.0%} washed out ({haze[0] * 100:.0f}-{haze[1]:.0%} of their contrast kept),
  {chance["curve"]:.0%} under a contrast curve (gamma {curve[0]:g}-{curve[1]:g}). The teacher reads
  every crop as rendered."""
    distilled += average_lines(recipe)
    scene_data, scene_time = "", ""
    if recipe.get("scenes"):
        scene_data = f"""
- Plus {recipe["scene_crops"]:,} crops cut from {recipe["scene_images"]:,} Blender-rendered table
  scenes of the train split (datasets/scenes; {scene_folders(recipe["scenes"])}), as the app
  cuts them (`vision.readings.rectify`): {recipe["scene_copies"]} copies of each die at least half
  visible (cocked ones too), each from its true quad with every corner moved by up to
  {recipe.get("scene_jitter", SCENE_JITTER):.0%} of the face's side and a random right-angle turn, and
  {recipe["scene_none_crops"]:,} `none` crops of table, cards, chips and hands away from the dice.
  Scene crops make {recipe["scene_share"]:.0%} of every epoch (taken in turn from fresh random
  orders, so each is drawn about equally often); the rest is the whole pool once."""
        scene_time = f", cutting scene crops {recipe['scene_s'] / 60:.1f} min"
    if recipe.get("negatives"):
        scene_data += f"""
- Plus {recipe["negative_crops"]:,} `none` crops cut from real photos with no dice
  ({", ".join(recipe["negatives"])}: `python -m datasets.photos_without_dice train`, the
  sample photos of Debian's opencv-doc and mate-backgrounds), each place the detector takes for
  a die there jittered{", and random quads" if recipe.get("negative_random", NEGATIVE_RANDOM) else ""},
  at three sizes (`train_faces.photo_negatives`): the
  renders' own `none` crops are render tables and props. They make {recipe["scene_share"]:.0%}
  of every epoch{" with the scene crops" if recipe.get("scenes") else ""}."""
    if recipe.get("print_negatives"):
        shared_before = recipe.get("scenes") or recipe.get("negatives")
        scene_data += f"""
- Plus {recipe["print_negatives"]:,} `none` crops of printed words (`datasets.faces.printed`: a
  score pad, a rule sheet, a box's lettering; letters 0.1-0.8 of the crop tall, or one as
  large as a die; turned any way), so that a letter taken for a die is not read as a pip or
  a numeral. They make
  {recipe["scene_share"]:.0%} of every epoch{" with the crops above" if shared_before else ""}."""
    if recipe.get("photo_tables"):
        scene_data += f"""
- {recipe["photo_table_share"]:.0%} of the rendered crops, faces and `none` alike, lie on a patch
  of a real photo ({", ".join(recipe["photo_tables"])}) instead of a rendered table
  (`datasets.faces.photo_tables`), so that real texture alone does not mean `none`."""
    if recipe.get("swirled"):
        scene_data += f"""
- {recipe["swirled"]:.0%} of the Cubes and pip dice faces are cast in a swirled, speckled,
  glittering, pearly or two-tone plastic instead of a flat colour (`datasets.faces.plastics`,
  the trained plastics), as many real dice are."""
    if recipe.get("pale_dice"):
        scene_data += f"""
- {recipe["pale_dice"]:.0%} of the Cubes and pip dice faces are white or ivory plastic
  (`datasets.faces.render.PALE_DICE`), as the scenes cast them and as most pip dice are."""
    width = recipe.get("width", WIDTH)
    eight_bit = quantized_lines(recipe, unquantized, trained, heldout, corner, latency)
    limits = size_limit(model_path) + started_line(recipe, before, trained, heldout, corner)
    card = f"""# Face classifier (models/{model_path.name})

Reads the top face of one die from its rectified crop: the 54 Square Shooters card faces,
the Cubes faces (`CUBES`, `BLANK`, `1`..`6`), plain pips (`1`..`6`), and `none` (no readable
face). Runtime: `vision.faces.FaceClassifier` (onnxruntime, numpy, OpenCV).
{role(model_path)}
## Model
- FaceNet (models/face_net.py) at width {width}: a 3x3 conv stem and six depthwise-separable
  blocks ({width}-{8 * width} channels, four stride-2 steps),
  global average pool, a 128-d L2-normalised embedding, and a cosine classifier
  (logits = {recipe_scale()} x cosine to {len(labels)} class weights).
- Input: BGR crop resized to 64 x 64, float 0..1, N x 3 x 64 x 64 (input `crops`).
  Outputs: `logits` (N x {len(labels)}) and `embedding` (N x 128). Labels are in the ONNX
  metadata and in models/faces_labels.json.{no_face_cut(model_path)}
- {recipe["parameters"]:,} parameters; file size {size_mb:.2f} MB.{eight_bit}

## Recipe
- Data: {data_words(recipe)}. Training pool from datasets/faces:
  {recipe["train_size"]:,} crops from the trained style families ({", ".join(TRAIN_FAMILIES)}),
  seed {recipe["seed"]}, labels balanced (the 62 faces and `none`){fonts_words(recipe)}.{scene_data}
- Held out from training entirely: the style families {", ".join(HELDOUT_FAMILIES)}
  (rank beside suit with a jester-face joker; Cubes faces inside a printed frame with square
  or ring pips for the dice) and six fonts.
- Training: {epochs_words(recipe)}, batch {recipe["batch"]}, AdamW (weight decay 5e-4),
  one-cycle learning rate peaking at {recipe["lr"]}, CosFace margin 0.05, label smoothing 0.05,
  a random right-angle turn per quarter-batch. {trained_where(recipe)}, deterministic algorithms.{distilled}
- Time {timed_where(recipe)}: rendering the pool (or
  loading it from the cache) {recipe["render_s"] / 60:.1f} min{scene_time}, training
  {recipe["train_s"] / 60:.1f} min.
- Rendering speed: {speed:.0f} crops/s from one process, its glyph cache warm (measured while
  the card was written, on the same shared machine); the pool renders in parallel worker
  processes (`benchmarks/bench_render_faces.py` times both).
- Reproduce: `{command}`.{history}

## Accuracy
Read through `FaceClassifier.classify(crops, kind=None)`: all {len(labels)} classes, no die-kind
mask (a mask only removes errors), best label taken even when its confidence is low; except the
rows on rendered scenes, which are read as the app reads them (see below). "One turn" reads
each crop as it comes (`turns=(0,), second_look=False`), as the camera reads each video
frame; "as a photo" reads it as `classify` does by default, and so `dicescore read` reads a
photo and `dicescore faces` a crop: at its four right-angle turns, averaged, and a crop still
unsure after that shown again framed wider and tighter, white-balanced and
contrast-stretched (`second_look`), the surest reading that names a face kept.

| test set | crops | one turn | lowest class | as a photo | lowest class |
| --- | --- | --- | --- | --- | --- |
{table_rows}

Five lowest classes per set:

| set | classes |
| --- | --- |
{chr(10).join(worst_lines)}

Confusion matrices (rows: true face, columns: reading): ![confusion]({confusion})
{one_print_section(taught_sets)}{corner_photo_section(corner_photo)}{real_deck_section(real_decks)}\
{print_section(prints, prints_before)}{scene_section}{noise_section(noise)}
## Latency
9 crops of 64 x 64 px through `FaceClassifier.classify` (preprocessing included), one
onnxruntime thread: at one turn median {latency["median"]:.2f} ms (90th percentile
{latency["p90"]:.2f} ms); as a photo (four turns, second look) median {latency_as_photo["median"]:.2f} ms
(90th percentile {latency_as_photo["p90"]:.2f} ms).
`python benchmarks/bench_faces.py` re-measures both models. {budget(model_path)} This host is
shared: one file has measured from 1.4 to 2.1 ms in runs an hour apart, so compare files
within one run (docs/benchmarks-vision.md).

## Limits
{limits}- {real_photo_words(recipe)}; the renders stress what the project's
  earlier measurements found to matter (condensed index letterforms, suit shapes, print defects,
  camera effects). Real faces unlike every family may need `learn()` taps.
- Below the issue's targets (99.5% trained families, 98% held-out, no class under 97%).
  The CPU recipe had levelled off at stage 10 (held-out families 55.5%; one more 8-epoch run
  on a fresh pool read 55.9%). Stage 12 is the same network trained on far more data: three
  GPU runs of 750,000 fresh crops each (stage 10's whole chain of ten runs saw about 800,000). Measured
  on this card's test sets, each run lifted the held-out families (64.1%, 68.2%, then 69.1%)
  and the trained families (89.6%, 90.9%, 91.5%), with smaller steps each time.
- The network is too small for the task, and the 2 ms budget keeps it so. The width-96
  teacher of stage 13 (1.3 M parameters, trained from scratch in 22 epochs) reads the first
  3,000 crops of this card's test sets at 95.8% (trained families) and 80.1% (held-out
  families), where stage 12 read 91.3% and 69.0%; but 9 crops take it 8.19 ms against 1.19 ms
  (network alone, one onnxruntime thread, same run), and its file would be 5.2 MB, over the
  5 MB limit. Distilling it into the shipped width barely moves the figures (stage 13 against
  stage 12 on fresh seeds 1101 and 2102, 6,000 crops each: 91.6% and 70.2% against 91.6% and
  69.5%; a second distilled run on another fresh pool read 91.5% and 69.8%), so the small
  network, not its training, is the limit. Crops of 160 px read barely better than crops of
  30 px, so it is not the pixels either. Other shapes in between miss the budget too: one
  more separable block at 8 x 8 and at 4 x 4 took 9 crops from 1.28 to 1.80 ms, width 40
  took 2.15 ms and width 48 2.72 ms. A CPU fine-tune of stage 13 that added the 3,600
  newer training-scene images (data/scenes/train7 and train8; seed 40, 40,000 fresh crops,
  3 epochs at lr 3e-4) read the held-out scene dice worse (68.2% against 68.9%; d6 94.5%
  against 96.1%) and was not kept.
- On the held-out families the suit and colour are almost always right and the rank is not:
  the trained layouts taught "one large suit symbol" = ace, so a rank printed beside its suit
  was read as the ace. The free_layout family (from stage 8) puts rank and suit apart at
  random angles, never side by side, which stays the held-out family's own.
- Square Shooters dice in the held-out scenes are read worst: they carry the held-out rank
  beside suit artwork, and their faces are about 20 px wide in the 320 x 240 renders (10th to
  90th percentile 14-34 px), where many indices are a blur even to the eye.
- Taught examples (`learn()`, one per face, stored at four right-angle turns, and taught for
  no die kind: these are one family's faces in many fonts, not one dice set, whose taps
  would also speak as 24 varied views of each) do not lift the held-out figure
  ({taught["accuracy"]:.1%} taught against {heldout["accuracy"]:.1%} untaught): one example
  of an unseen style does not land near the other crops of its face in the embedding, and
  near a neighbouring face's crops it takes readings away. A tap still fixes the die it was
  made on; a whole dice set of one print, taught for its die kind, reads fewer faces wrong
  (docs/vision.md, "Teaching a dice set", has benchmarks/bench_teach.py's figures). Storing
  eight or twelve turns, or accepting taught examples at a cosine of 0.7 or 0.6 instead of
  0.8, was tried on stage 8 and did no better (49.4% at best against 49.4% untaught). On
  stage 12: storing 8 or 24 jittered copies (perspective, blur, colour) of each taught crop
  gave 63.7% and 62.0%; a cosine of 0.9 or 0.95, 68.9% and 69.0%; the nearest taught example
  alone, 57.8%. The 0.8 is kept because across the views of
  one held-out scene 43% of pairs of crops of the same die reach it (30% reach 0.9) and no
  pair of different faces does, so a tap carries to the same die seen again.
- Taught faces of an unseen style lie close together and close to `none` in the embedding.
  With the 0.8 rule alone, the 62 taught faces of stage 13 read 86% of this set's `none`
  crops as faces (a tapped set would have made dice of table and hands) and the faces at
  66.2%. So a taught example now speaks for a crop only when it is also 0.1 nearer than any
  taught example of another face (`TAUGHT_MIN_LEAD`), and, where the network reads `none`,
  only at a cosine of 0.95 (`TAUGHT_OVER_NONE`): `none` crops then keep 94.7% and the faces
  read 68.9%, against 70.0% untaught. Measured on this card's held-out set with stage 13.
  And a taught example that the network itself reads as `none` (a blank, on some prints)
  never speaks for a crop it reads as `none`: one such blank claimed 46% of the table crops
  of benchmarks/bench_teach.py (session 11, docs/vision.md "Teaching a dice set"; this
  card's taught row is the same with or without it, to 0.03 points).
- `JOKER_RED` and `JOKER_BLACK` differ only in ink colour: strong colour casts can swap them.
"""
    model_path.with_suffix(".md").write_text(card)
    summary = {
        "trained": trained,
        "heldout": heldout,
        "taught": taught,
        "corner": corner,
        "tight_corner": tight,
        "latency": latency,
        "latency_as_a_photo": latency_as_photo,
        "as_a_photo": {
            "trained": as_photo[0],
            "heldout": as_photo[1],
            "corner": as_photo[2],
            "tight_corner": as_photo[3],
            "taught": as_photo[4],
        },
        "size_mb": size_mb,
        "scenes": {name: reports for name, (_, _, reports, _) in scenes.items()},
        "webcam_noise": noise,
    }
    print(
        {
            k: (v["accuracy"], v["worst"]) if "accuracy" in v else v
            for k, v in summary.items()
            if k not in ("size_mb", "scenes", "as_a_photo")
        }
    )
    for name, reports in summary["scenes"].items():
        print(f"{name} scenes:", {kind: round(r["accuracy"], 4) for kind, r in reports.items()})
    return summary


def quantized_lines(recipe: dict, unquantized: dict | None, trained, heldout, corner, latency) -> str:
    """The Model section's lines on an 8-bit model: how it was made, and what it cost."""
    if not recipe.get("quantized"):
        return ""
    how = recipe["quantized"]
    lines = f"""
- 8-bit integers (`python -m models.quantize_faces`, onnxruntime's static quantization):
  weights {how["weights"]}, activations {how["activations"]}, calibrated on
  {how["calibration"]}. Made from the float model {how["from"]}."""
    if unquantized is not None:
        lines += f"""
  The float model ({unquantized["size_mb"]:.2f} MB, over the 5 MB limit) reads this card's
  trained families, held-out families and corner indices at one turn at
  {unquantized["trained"]:.2%}, {unquantized["heldout"]:.2%} and {unquantized["corner"]:.2%}
  (this file: {trained["accuracy"]:.2%}, {heldout["accuracy"]:.2%}, {corner["accuracy"]:.2%});
  9 crops took it {unquantized["latency"]["median"]:.2f} ms against {latency["median"]:.2f} ms
  (one turn, same run)."""
    else:  # data/ is not committed: a later machine may not have the float file
        lines += f"""
  {how["from"]} is not on the machine that wrote this card, so the two are not compared
  here; docs/vision.md ("Training on a GPU") has the float model's figures."""
    return lines


def scene_folder(folder) -> str:
    """A scene folder as the card names it: relative to the repository when inside it."""
    path = Path(folder).resolve()
    return str(path.relative_to(MODELS.parent)) if path.is_relative_to(MODELS.parent) else str(folder)


def scene_folders(folders) -> str:
    return ", ".join(scene_folder(folder) for folder in folders)


def scene_card_section(
    scenes: dict, scene_rows: str, heldout_scenes: Path, recipe: dict, threshold: float
) -> str:
    """The card's part on rendered scenes: what was read, how, and the figures per die kind."""
    if not scenes:
        return f"""
No rendered scenes were measured (none found in {scene_folder(heldout_scenes)}).
"""
    trained_on = ""  # the sentence follows the one above, so it starts with its space
    if "training-split" in scenes:
        folders, images, *_ = scenes["training-split"]
        learnt = sorted(
            {scene_folder(f) for f in folders} & {scene_folder(f) for f in recipe.get("scenes", [])}
        )
        trained_on = (
            f" Training-split scenes: a seeded sample (seed {TRAIN_SCENE_SEED}) of {images} images from "
            f"{scene_folders(folders)}"
        )
        if learnt:
            trained_on += (
                f"; the model was trained on crops of {', '.join(learnt)}, so these figures show what"
                " it learnt, not how it transfers."
            )
        else:
            trained_on += "."
    return f"""
### Dice in rendered table scenes
These rows come from Blender-rendered scenes (datasets/scenes), not photographs: the crop of
every die at least half visible, rectified (`vision.readings.rectify`) from its true quad, read
as the app reads it: `classify(crops, kind=<the die's kind>, pips=False)` with the app's confidence threshold
({threshold:g}), so an unsure reading or a `none` (label None, "unreadable") counts as wrong: the network
alone, without the pip count a photo's d6 and Cubes dice also get (`vision.pips`; models/detector.md
has the whole reader). Held-out
scenes: {scene_folder(heldout_scenes)}, with tables, lights and distractor colours training scenes never
use, and the held-out artwork families (framed Cubes faces, rank beside suit; d6 dice keep the
trained pips and numerals).{trained_on}

| scenes | die kind | crops | right | unreadable | lowest class | right as a photo |
| --- | --- | --- | --- | --- | --- | --- |
{scene_rows}
"""


def started_line(recipe: dict, before: dict, trained, heldout, corner) -> str:
    """How this file reads the clean test sets against the ONNX file it was trained on from."""
    if not before:
        return ""
    now = {"trained families": trained, "held-out families": heldout, "corner indices": corner}
    figures = ", ".join(
        f"{name} {now[name]['accuracy']:.2%} against {share:.2%}" for name, share in before.items()
    )
    return f"""- Against the file it was trained on from ({recipe["init"]}), measured in the same run at
  one turn on this card's clean test sets: {figures}. The webcam-noise table above has
  both files too.
"""


def noise_section(noise: dict[str, list[dict]]) -> str:
    """The card's table of ``noise_report`` rows, for this file and the one it started from."""
    if not noise:
        return ""
    names = list(noise)
    header = " | ".join(f"{name}: trained families / held-out scene dice" for name in names)
    lines = []
    for i, level in enumerate(noise[names[0]]):
        quality = f"JPEG {level['quality']}" if level["quality"] else "no JPEG"
        cells = " | ".join(f"{noise[n][i]['trained']:.1%} / {noise[n][i]['scenes']:.1%}" for n in names)
        lines.append(f"| {level['sigma']}, {quality} | {cells} |")
    return f"""
### Webcam noise
The renders carry little sensor noise; a webcam in a dim room gives a lot, and compresses
it. The first {NOISE_SAMPLE:,} crops of the trained-family set (best label) and the held-out
scene dice (as the app reads them, die-kind mask and threshold) with Gaussian noise of so
many grey levels added to the 64 px crop and then JPEG (seed {NOISE_SEED}), read at one turn:

| noise, JPEG | {header} |
| --- | {" | ".join("---" for _ in names)} |
{chr(10).join(lines)}
"""


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", type=Path, default=DEFAULT_MODEL)
    parser.add_argument("--test-size", type=int, default=6000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--heldout-scenes", type=Path, default=HELDOUT_SCENES)
    parser.add_argument(
        "--train-scenes",
        type=Path,
        nargs="*",
        help="training-split scene folders to sample (default: those the model was trained on that are here)",
    )
    args = parser.parse_args(argv)
    write_card(args.model, args.test_size, args.workers, args.heldout_scenes, args.train_scenes)


if __name__ == "__main__":
    main()
