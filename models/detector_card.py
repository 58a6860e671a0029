"""Measure the die-face detector on rendered scenes and write its model card.

    python -m models.detector_card --heldout data/scenes/heldout     # re-measure models/detector.onnx

Scoring, per image: a die whose top face is at least half visible must be found; one seen less
than that (but more than 15%) may be found or not; anything else found is a false find.  A
find matches a die when their centres are within half the face's size.  Faces are read by
the shipped face classifier from the detector's own quads (and, for comparison, from the
true quads), so "read right" is the whole pipeline's answer.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

from models.train_detector import GLIMPSED, SEEN, load_scenes
from vision.detector import Detector
from vision.faces import ALL_TURNS, DEFAULT_MODEL, FAST_MODEL, FaceClassifier
from vision.pipeline import DiceReader
from vision.readings import draw, rectify

# One video frame as the camera reads it. A settled roll's faces are then read again as a
# photo is (vision.tracker's look_again), so the photo row is what the app reports for them.
VIDEO_FRAME = "held-out, one video frame as the camera reads it (detector + face check)"


def in_frame(die: dict, image: np.ndarray) -> bool:
    centre = np.mean(die["quad"], 0)
    return 0 <= centre[0] < image.shape[1] and 0 <= centre[1] < image.shape[0]


def scene_kind(truth: dict) -> str:
    """The die kind a scene's dice are (one kind a scene); an empty table reads as pip dice."""
    return truth["dice"][0]["kind"] if truth["dice"] else "d6"


def corner_error(found: np.ndarray, true: np.ndarray) -> float:
    """Mean corner distance over the face's size, for the best cyclic pairing of corners."""
    size = np.sqrt(abs(cv2.contourArea(true.astype(np.float32))))
    return min(np.linalg.norm(np.roll(found, k, 0) - true, axis=1).mean() for k in range(4)) / size


def match(found, dice, image):
    """Pairs (find index, die index) by nearest centre, each used once; and the unmatched finds."""
    pairs, used = [], set()
    for i in np.argsort(-found.scores):
        best, best_distance = None, None
        for j, die in enumerate(dice):
            if j in used or die["visible"] < GLIMPSED or not in_frame(die, image):
                continue
            quad = np.float32(die["quad"])
            distance = np.linalg.norm(found.quads[i].mean(0) - quad.mean(0))
            if distance < 0.5 * np.sqrt(abs(cv2.contourArea(quad))) and (
                best is None or distance < best_distance
            ):
                best, best_distance = j, distance
        if best is not None:
            used.add(best)
            pairs.append((int(i), best))
    unmatched = sorted(set(range(len(found))) - {i for i, _ in pairs})
    return pairs, unmatched


def read_right(must: list[int], matched: dict[int, int], labels, dice: list[dict]) -> int:
    """How many of the dice that ``must`` be found were found (``matched``: die index -> find
    index) and read as their ``label``."""
    return sum(j in matched and labels[matched[j]] == dice[j]["label"] for j in must)


def wholly_right(
    must: list[int], matched: dict[int, int], labels, dice: list[dict], false_finds: int
) -> bool:
    """Whether an image was read as a player counting by hand would: every die that must be
    found found and read right, and nothing found that is no die."""
    return not false_finds and read_right(must, matched, labels, dice) == len(must)


def evaluate(
    detector: Detector, scenes, classifier: FaceClassifier | None = None, still: bool = False
) -> dict:
    """Recall, precision, corners, cocked flags and (with a classifier) faces read right; a
    ``still`` is read as `dicescore read` reads a photo, at several scales."""
    counts = Counter()
    errors, per_table = [], {}
    for image, truth in scenes:
        counts["images"] += 1
        dice = truth["dice"]
        kind = scene_kind(truth)
        # with a classifier, as the app reads: unsure finds it calls no face dropped
        if classifier is not None:
            found = DiceReader(kind, detector, classifier).read(image, still=still)
        else:
            found = detector.detect_at_scales(image) if still else detector.detect(image)
        pairs, unmatched = match(found, dice, image)
        must = [j for j, d in enumerate(dice) if d["visible"] >= SEEN and in_frame(d, image)]
        matched = {j: i for i, j in pairs}
        table = per_table.setdefault(truth["table"], Counter())
        for j in must:
            counts["must"] += 1
            table["must"] += 1
            if j in matched:
                counts["found"] += 1
                table["found"] += 1
                errors.append(corner_error(found.quads[matched[j]], np.float32(dice[j]["quad"])))
                cocked = bool(found.cocked[matched[j]])
                if dice[j]["cocked"]:
                    counts["cocked"] += 1
                    counts["cocked_flagged"] += cocked
                else:
                    counts["flat_flagged"] += cocked
        counts["finds"] += len(found)
        counts["false_finds"] += len(unmatched)
        table["false_finds"] += len(unmatched)
        if classifier is not None:
            counts["wholly_right"] += wholly_right(must, matched, found.labels, dice, len(unmatched))
        if classifier is not None and must:
            counts[f"must {kind}"] += len(must)
            right = read_right(must, matched, found.labels, dice)
            counts["read_right"] += right
            counts[f"read_right {kind}"] += right
            true_crops = rectify(image, [dice[j]["quad"] for j in must])
            # read as the finds were: a photo at four turns, a video frame at one
            true_read = classifier.classify(
                true_crops, kind=kind, turns=ALL_TURNS if still else (0,), second_look=still, pips=still
            )
            counts["read_right_true_quads"] += sum(
                r.label == dice[j]["label"] for r, j in zip(true_read, must, strict=True)
            )
    must = max(counts["must"], 1)
    return {
        "images": counts["images"],
        "dice": counts["must"],
        "recall": counts["found"] / must,
        "precision": (counts["finds"] - counts["false_finds"]) / max(counts["finds"], 1),
        "corner_error": float(np.median(errors)) if errors else None,
        "cocked_dice": counts["cocked"],
        "cocked_flagged": counts["cocked_flagged"] / max(counts["cocked"], 1),
        "flat_flagged": counts["flat_flagged"] / max(counts["found"] - counts["cocked"], 1),
        "read_right": counts["read_right"] / must if classifier else None,
        "read_right_true_quads": counts["read_right_true_quads"] / must if classifier else None,
        "images_wholly_right": counts["wholly_right"] / max(counts["images"], 1) if classifier else None,
        "read_right_by_kind": {
            key.split()[1]: counts[f"read_right {key.split()[1]}"] / counts[key]
            for key in sorted(counts)
            if key.startswith("must ")
        },
        "per_table": {
            name: {
                "dice": c["must"],
                "recall": c["found"] / max(c["must"], 1),
                "false_finds": c["false_finds"],
            }
            for name, c in sorted(per_table.items())
        },
    }


FRAMINGS = {  # how a phone or webcam might frame the held-out scenes: (width, height) of the
    # window cut around the dice in the 320x240 render, and the size it is resized to
    "close-up, dice twice as big (1280x960)": ((160, 120), (1280, 960)),
    "a phone held upright (720x1280)": ((135, 240), (720, 1280)),
    "a 16:9 webcam (1280x720)": ((320, 180), (1280, 720)),
}
# a 12-megapixel phone photo from standing height: the dice about 60 px across, the render's
# surroundings painted its table's colour
BIG_PHOTO_NAME = "a 12-megapixel photo, dice three times as big (4032x3024)"
BIG_PHOTO = ((1344, 1008), (4032, 3024))
# Dice photographed by a phone, as the real photographs `dicescore read` will be judged on:
# the closest rendered stand-ins (--photos), one die kind each, on the held-out tables and
# lights at a photo's resolution (faces about 60-150 px across). By folder name: the row's
# name and the command that renders it (their seeds are not the split's usual one).
PHOTO_SETS = {
    "heldout-d6-hires": (
        "held-out d6 scenes at 1280x960, a photo through `dicescore read`",
        "python -m datasets.scenes.render --out data/scenes/heldout-d6-hires --start 0 --count 16 "
        "--seed 9100 --split heldout --views 3 --size 1280 960 --dice d6",
    ),
    # A second d6 set that chose no rule: the rules since session 32 were tuned on the first.
    "check-d6-hires": (
        "held-out d6 scenes at 1280x960 that chose no rule, a photo through `dicescore read`",
        "python -m datasets.scenes.render --out data/scenes/check-d6-hires --start 0 --count 16 "
        "--seed 9700 --split heldout --views 3 --size 1280 960 --dice d6",
    ),
    "heldout-cards-hires": (
        "held-out Square Shooters scenes at 1280x960, a photo through `dicescore read`",
        "python -m datasets.scenes.render --out data/scenes/heldout-cards-hires --start 0 --count 10 "
        "--seed 9200 --split heldout --views 3 --size 1280 960 --dice square-shooters",
    ),
    "heldout-cubes-hires": (
        "held-out Cubes scenes at 1280x960, a photo through `dicescore read`",
        "python -m datasets.scenes.render --out data/scenes/heldout-cubes-hires --start 0 --count 8 "
        "--seed 9300 --split heldout --views 3 --size 1280 960 --dice cubes",
    ),
    # The same size of scene from the training split (scenes no run trained on, the trained
    # tables and artwork): what the held-out sets lose to new artwork and tables, not to size.
    "val-cards-hires": (
        "training-split Square Shooters scenes at 1280x960 (unseen scenes), a photo through `dicescore read`",
        "python -m datasets.scenes.render --out data/scenes/val-cards-hires --start 0 --count 6 "
        "--seed 9600 --split train --views 3 --size 1280 960 "
        "--tables wood felt cloth patterned glass tiles stone planks --dice square-shooters",
    ),
    "val-cubes-hires": (
        "training-split Cubes scenes at 1280x960 (unseen scenes), a photo through `dicescore read`",
        "python -m datasets.scenes.render --out data/scenes/val-cubes-hires --start 0 --count 6 "
        "--seed 9500 --split train --views 3 --size 1280 960 "
        "--tables wood felt cloth patterned glass tiles stone planks --dice cubes",
    ),
}
PHOTOS_WHY = (
    "one die kind each, rendered at a photo's resolution (faces about 60-150 px across) on the "
    "held-out tables and lights, as the real photographs that `dicescore read` will be judged on "
    "might be taken; and (val-) unseen scenes of the training split at that size, to tell what "
    "new artwork and tables cost from what the size does:"
)


def photo_set(folder: Path) -> tuple[str, str]:
    """The row name and render command of a --photos folder (a folder not listed: its name)."""
    return PHOTO_SETS.get(folder.name, (f"{folder}, a photo through `dicescore read`", ""))


# a photo taken close to one die: its face most of the frame's height
ONE_DIE_NAME = "one die filling the photo (1024x768)"
ONE_DIE_SHARE = 0.7
ONE_DIE_SEED = 8008


def reframe(
    image: np.ndarray, truth: dict, window, size, centre=None, fill: bool = False
) -> tuple[np.ndarray, dict]:
    """The scene cut to a ``window`` centred on ``centre`` (by default its dice) and resized to
    ``size``, with its truth moved along. Where the window leaves the render the table is
    mirrored, or with ``fill`` painted its median colour (a mirrored table would show dice
    that its truth does not have)."""
    if centre is None:
        seen = [np.mean(die["quad"], 0) for die in truth["dice"] if die["visible"] >= SEEN]
        centre = np.mean(seen, 0) if seen else np.float32([image.shape[1] / 2, image.shape[0] / 2])
    scale = np.float32([size[0] / window[0], size[1] / window[1]])
    offset = -(centre - np.float32(window) / 2) * scale
    affine = np.float32([[scale[0], 0, offset[0]], [0, scale[1], offset[1]]])
    border = {"borderMode": cv2.BORDER_REFLECT}
    if fill:
        colour = [float(v) for v in np.median(image.reshape(-1, 3), 0)]
        border = {"borderMode": cv2.BORDER_CONSTANT, "borderValue": colour}
    out = cv2.warpAffine(image, affine, size, flags=cv2.INTER_CUBIC, **border)
    dice = [die | {"quad": (np.float32(die["quad"]) * scale + offset).tolist()} for die in truth["dice"]]
    return out, truth | {"dice": dice}


def one_die_filling(image: np.ndarray, truth: dict, rng: np.random.Generator):
    """A close-up photo of one flat, wholly visible die (chosen with ``rng``), its face 70% of
    the 1024x768 frame's height; None when the scene has no such die."""
    whole = [die for die in truth["dice"] if die["visible"] >= 0.9 and not die["cocked"]]
    if not whole:
        return None
    quad = np.float32(whole[rng.integers(len(whole))]["quad"])
    side = np.sqrt(abs(cv2.contourArea(quad))) / ONE_DIE_SHARE
    return reframe(image, truth, (side * 4 / 3, side), (1024, 768), centre=quad.mean(0))


def framed_sets(held) -> dict:
    """The held-out scenes in each of the card's framings, as a function per framing that
    yields them one by one (a hundred 12-megapixel frames would not fit in memory)."""

    def window_on_dice(window, size, fill=False):
        return lambda: (reframe(image, truth, window, size, fill=fill) for image, truth in held)

    def one_die_each():
        rng = np.random.default_rng(ONE_DIE_SEED)
        close = (one_die_filling(image, truth, rng) for image, truth in held)
        return (scene for scene in close if scene is not None)

    sets = {name: window_on_dice(window, size) for name, (window, size) in FRAMINGS.items()}
    return sets | {BIG_PHOTO_NAME: window_on_dice(*BIG_PHOTO, fill=True), ONE_DIE_NAME: one_die_each}


def latency(detector: Detector, image: np.ndarray, repeats: int = 50) -> float:
    """Median milliseconds to detect in one 1280x720 frame."""
    frame = cv2.resize(image, (1280, 720))
    detector.detect(frame)
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        detector.detect(frame)
        times.append(time.perf_counter() - start)
    return float(np.median(times) * 1000)


def examples(detector: Detector, scenes, classifier, path: Path, count: int = 6) -> None:
    tiles = []
    for image, truth in scenes[:: max(1, len(scenes) // count)][:count]:
        kind = scene_kind(truth)
        found = DiceReader(kind, detector, classifier).read(image)  # as the app shows them
        tiles.append(
            draw(
                cv2.resize(image, (480, 360)),
                found.scaled(480 / image.shape[1]),
                thickness=1,
                confidences=True,
            )
        )
    rows = [np.hstack(tiles[i : i + 3]) for i in range(0, len(tiles) - len(tiles) % 3, 3)]
    cv2.imwrite(str(path), np.vstack(rows), [cv2.IMWRITE_JPEG_QUALITY, 85])


def train_folders(recipe: dict) -> list[str]:
    """The training folders the recipe's render commands wrote (held-out ones left out)."""
    folders = []
    for command in recipe.get("render", []):
        folder = command.split("--out ")[1].split()[0]
        if "--split heldout" not in command and folder not in folders:
            folders.append(folder)
    return folders or ["data/scenes/train"]


def percent(value) -> str:
    return "n/a" if value is None else f"{100 * value:.1f}%"


def write_card(
    model_path: Path,
    heldout: Path,
    out: Path,
    recipe: dict,
    train: Path | None = None,
    photos: tuple[Path, ...] = (),
) -> str:
    detector = Detector(model_path)
    # as the app reads: video with the camera's face model, photos with the default one
    classifier, photo_classifier = FaceClassifier(FAST_MODEL), FaceClassifier(DEFAULT_MODEL)
    held = load_scenes(heldout)
    results = {
        "held-out, detector alone": evaluate(detector, held),
        VIDEO_FRAME: evaluate(detector, held, classifier),
        "held-out, a photo through `dicescore read` (several scales)": evaluate(
            detector, held, photo_classifier, still=True
        ),
    }
    for folder in photos:
        results[photo_set(folder)[0]] = evaluate(detector, load_scenes(folder), photo_classifier, still=True)
    if train is not None:
        results["training scenes (seen)"] = evaluate(detector, load_scenes(train)[:200], classifier)
    framings = {}
    for name, framed in framed_sets(held).items():
        framings[name] = {
            "video": evaluate(detector, framed(), classifier),
            "photo": evaluate(detector, framed(), photo_classifier, still=True),
        }
    examples(detector, held, classifier, out / "detector_examples.jpg")
    one_thread = latency(detector, held[0][0])
    two = latency(Detector(model_path, threads=2), held[0][0])
    on_gpu = recipe.get("device", "cpu") != "cpu"
    lines = [
        "# Model card: die-face detector (`models/detector.onnx`)",
        "",
        "Finds the top face of every die in a frame, whatever it shows (card faces, numbers, the",
        "word CUBES, blanks, pips), as a quadrilateral, with a flag for a die that leans. A small",
        "centre-net (models/detector_net.py); vision/detector.py decodes it.",
        "",
        "## Recipe",
        "",
        *(f"    {command}" for command in recipe.get("render", [])),
        f"    python -m models.train_detector --train {' '.join(train_folders(recipe))} "
        f"--heldout data/scenes/heldout --steps {recipe.get('steps')} --batch {recipe.get('batch')} "
        f"--width {recipe.get('width')} --seed {recipe.get('seed')}"
        + (f" --init {recipe['init']}" if recipe.get("init") else "")
        + (f" --lr {recipe['lr']}" if recipe.get("lr") else "")
        + (
            f" --negatives {' '.join(recipe['negatives'])} --negative-share {recipe['negative_share']}"
            f" --negative-flat-below {recipe.get('negative_flat_below', 0)}"
            if recipe.get("negatives")
            else ""
        )
        + (f" --device cuda --workers {recipe.get('workers')}" if on_gpu else ""),
        "",
        *([f"Trained on one {recipe['device']} in {recipe.get('train_minutes')} min.", ""] if on_gpu else []),
        *([f"Warm-started: {recipe['history']}", ""] if recipe.get("history") else []),
        *(
            [
                "The file is the mean of the weights of runs fine-tuned alike from one start with",
                "different seeds (`python -m models.average_detector --tuned "
                f"{' '.join(recipe['averaged'])} --leaning-from {detector.leaning_from}`); the recipe",
                "above is the first run's.",
                "",
            ]
            if recipe.get("averaged")
            else []
        ),
        f"Recipe of this file: `{json.dumps(recipe)}`.",
        "",
        "Training data: Blender (Cycles) scenes of 1 to 12 physics-settled dice of all three kinds",
        "on wood, felt, cloth, patterned and glass tables (scenes 7000 and up also tiles,",
        "granite-like stone and wood planks, `--tables`), with cards, chips, cups and resting",
        "hands, 1 to 3 coloured lights, the camera straight down to 45 degrees, defocus; each",
        "settled scene filmed by 4 to 12 cameras under as many light rigs (`--views`); scenes",
        "4100 and up and held-out scenes 100 and up have dice stood against a neighbour",
        "(cocked). Scenes below 5000 were rendered before the one-deck rule for card dice and",
        "the ink-contrast rule existed (commits d5fead7 and 1cb21fb): the same commands now",
        "render slightly different faces there. Every sample is a re-shot window",
        "(zoom 0.5-3x, aspect 0.75-1.33, any turn, lens distortion k1 -0.3..0.2, white",
        "balance, contrast, gamma, shadows, blur, motion blur, noise, JPEG), see",
        "models/train_detector.py.",
        *(
            [
                "",
                f"Real photographs with no dice in them (`--negatives`: {', '.join(recipe['negatives'])},",
                "datasets/photos_without_dice.py) give "
                f"{recipe['negative_share']:.0%} of the windows, cut and re-shot as the scenes are,",
                "and want no find, except on their flat patches (grey spread under "
                f"{recipe.get('negative_flat_below', 0)}, as a blank",
                "die's face): what a real room holds is not what the renders' props are",
                "(Limits, sessions 47 and 48).",
            ]
            if recipe.get("negatives")
            else []
        ),
        "",
        "Held-out scenes (`--split heldout`) use tables (marble, striped felt, dark glass), light",
        "rigs, distractor colours and, for Cubes and Square Shooters, face artwork that training",
        "never uses.",
        *(["", f"Photos (`--photos`): {PHOTOS_WHY}", ""] if photos else []),
        *(f"    {command}" for _, command in map(photo_set, photos) if command),
        "",
        "## Results",
        "",
        "A die at least half visible must be found; one 15-50% visible may be found or not.",
        "The camera outlines each video frame's finds live, but names a settled roll's faces",
        "by reading its last frame again as a photo (`RollTracker(look_again=...)`, docs/vision.md):",
        "for the faces of a roll it reports, read the photo row. These rows were measured when",
        "this card was written, with the reading rules and the face models of that day; should",
        "those change without the file changing, docs/vision.md (Where it stands) keeps the",
        "figures measured with today's.",
        "",
        "| scenes | images | dice | recall | precision | corner error (median, of face size) "
        "| cocked flagged | flat dice flagged | faces read right | read right from true quads |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for name, r in results.items():
        corner = "n/a" if r["corner_error"] is None else f"{100 * r['corner_error']:.1f}%"
        lines.append(
            f"| {name} | {r['images']} | {r['dice']} | {percent(r['recall'])} | {percent(r['precision'])} | "
            f"{corner} | {percent(r['cocked_flagged'])} of {r['cocked_dice']} | "
            f"{percent(r['flat_flagged'])} | {percent(r['read_right'])} | "
            f"{percent(r['read_right_true_quads'])} |"
        )
    for name, r in list(results.items())[1:]:
        by_kind = ", ".join(f"{kind} {percent(share)}" for kind, share in r["read_right_by_kind"].items())
        lines += ["", f"Faces read right by die kind, {name}: {by_kind}."]
    # what the real photographs will be judged by: the dice counted and read as a person would
    wholly = [
        f"{name}: {round(r['images_wholly_right'] * r['images'])} of {r['images']}"
        f" ({percent(r['images_wholly_right'])})"
        for name, r in list(results.items())[1:]
    ]
    lines += [
        "",
        "Images read wholly right (every die at least half visible found and read right, and no"
        f" false find), as a die count by hand would check them: {'; '.join(wholly)}.",
    ]
    lines += ["", "Held-out, by table:", "", "| table | dice | recall | false finds |", "|---|---|---|---|"]
    for name, r in results[VIDEO_FRAME]["per_table"].items():
        lines.append(f"| {name} | {r['dice']} | {percent(r['recall'])} | {r['false_finds']} |")
    lines += [
        "",
        "Held-out scenes framed as a camera might: a window around the dice cut from each render",
        "and resized (recall / precision / faces read right, with the face check). A video frame",
        "is read in one pass; a photo through `dicescore read` at several scales (the whole frame,",
        "the frame shrunk into a border, four enlarged quarters, in a big photo a finer grid of",
        "tiles, and the frame shrunk further for dice that fill it; a die is kept when two passes",
        "see it or one is sure of it), then checked against the whole frame mirrored (an unsure find",
        "must be seen there too), and each find looked at again in a window that shows its face",
        "at 32 px of the network's input, the find there averaged into its corners (`Detector.refined`);",
        "its faces are read at four turns, and an unsure one shown",
        "again four ways too (`FaceClassifier.classify`'s second look) and cut again from its",
        "quad grown and shrunk (`DiceReader.recut_unsure`). Frames far from 4:3",
        "are padded, not squeezed. In the 12-megapixel framing the render fills the middle ninth",
        "of the frame and the rest is its table's median colour; the close-up of one die is cut",
        "around a wholly visible flat die chosen at random (seed 8008) in each scene that has one.",
        "",
        "| framing | dice | as a video frame | as a photo |",
        "|---|---|---|---|",
    ]
    for name, r in framings.items():
        video, photo = r["video"], r["photo"]
        lines.append(
            f"| {name} | {video['dice']} | {percent(video['recall'])} / {percent(video['precision'])} / "
            f"{percent(video['read_right'])} | {percent(photo['recall'])} / {percent(photo['precision'])} / "
            f"{percent(photo['read_right'])} |"
        )
    lines += [
        "",
        "Targets (issue 5): recall and precision at least 99.5%, faces read right at least 99.5%,",
        'cocked dice flagged at least 90%. "Faces read right" is bounded by the face classifier',
        "(models/faces-fast.md for video rows, models/faces.md for photo rows); the column from true",
        "quads separates its errors from the detector's.",
        "",
        "## Latency",
        "",
        f"One 1280x720 frame, resize included, median of 50: {one_thread:.2f} ms on one thread,",
        f"{two:.2f} ms on two (this 2-core machine, shared and noisy).",
        "",
        "## Examples",
        "",
        "Held-out scenes as the app reads them, one pass with the face check: the detector's quads",
        "and the classifier's labels with their confidence, on tags as the live picture draws them",
        "(green: read; amber `?`: found but not read; red: flagged as leaning).",
        "",
        "![held-out examples](detector_examples.jpg)",
        "",
        "## Limits",
        "",
        "- Trained only on renders; no real photograph has been seen. Dice smaller than about",
        "  8 pixels across in the 384x288 network input (about 27 pixels in a 1280x720 frame)",
        "  are beyond it.",
        "- The cocked flag is learnt only in part (the cocked column above; target 90%): most",
        "  leaning dice in training are in the scenes from 5000 up, where about 9% of dice lean,",
        "  against 1-5% in the older ones. A photo's flag is the majority vote of its passes.",
        "- False finds cluster on the held-out marble table (veins read as face edges). Two",
        "  checks after the network remove most of them: a find under 0.4x or over 2.5x the side",
        "  of the frame's sure dice is dropped (`vision.detector.keep_similar_sizes`, in every",
        "  row above), and the app drops unsure finds the face classifier calls no face.",
        "- Session 48: session 47's recipe with the photos' flat patches left",
        "  unscored (`--negative-flat-below 4`: every false die on the real test photos lies on",
        "  texture, and the middle of a blank face is flat), with rendered dice laid on half the",
        "  photo windows (`--negative-paste 0.5`, commit 31559fd; removed since, as it gave nothing),",
        "  and blended 20% or 35% of the way from this file.",
        "  The flat recipe's mean: false dice on the real test photos 24 / 30 / 8 -> 6 / 6 / 2 as",
        "  photos, Cubes photos 89.6 / 84.4 / 85.2% -> 87.0 / 87.7 / 81.7% (session 47: 84.3 / 86.6",
        "  / 80.0%); blended 35%: 11 / 18 / 5 false dice, every rendered set within a die of this",
        "  file's. Not taken: every mean and every blend of 25% and over drops a blank die the Cubes",
        "  clip's third roll shows (a test), and the 20% blend adds a false find to the browser",
        "  test's fixture. Taken: the flat recipe at lr 1e-3, not 3e-3 (the mean of seeds 47 and",
        "  48): this file, its figures at the head of Results. Figures: docs/vision-limits.md,",
        "  session 48.",
        "- Session 47, tried and not taken: taught from real photos that they hold no dice. The mean",
        "  of two CPU fine-tunes of this file (rebuilt by `from_onnx`), seeds 47 and 48, each",
        "  1,600 steps of 64 windows at lr 3e-3 (30 min for",
        "  two side by side at one thread each, 24 min alone at two) on 1,600 new training-split",
        "  images (data/scenes/train17: 200 scenes of 4 views, 200 with dice leaning; 48 min to",
        "  render here, two at a time), 15% of the windows cut from the 36 real photos with no dice",
        "  of data/photos-without-dice/train. Why: the test split of those photos (scikit-image,",
        "  scikit-learn, matplotlib; never trained on), read with this file, gave 24 / 30",
        "  / 8 false dice as d6 / Cubes / card dice read as photos, and 40 / 40 / 43 read as one",
        "  video frame each: renders cannot show a real room's clutter. This file -> the mean,",
        "  recall / precision / faces read right / images wholly right, the same day with the",
        "  same face models:",
        "  - false dice on the 18 real test photos, as photos: 24 / 30 / 8 -> 7 / 9 / 2; one video",
        "    frame each: 40 / 40 / 43 -> 11 / 11 / 10;",
        "  - held-out, one video frame: 95.1 / 91.2 / 62.6% / 52 -> 94.6 / 94.2 / 62.6% / 56 of 184;",
        "  - held-out as photos: 94.7 / 95.3 / 75.2% / 80 -> 93.9 / 97.8 / 73.3% / 78;",
        "  - the 1280x960 photos: d6 94.7 / 97.3 / 91.7% / 32 -> 94.3 / 96.8 / 91.2% / 32 of 48;",
        "    Square Shooters 97.0 / 97.5 / 81.7% / 12 -> 97.6 / 98.8 / 81.7% / 12 of 30; Cubes",
        "    89.6 / 84.4 / 85.2% / 9 -> 84.3 / 86.6 / 80.0% / 8 of 24;",
        "  - the test clips (tests/vision/test_end_to_end.py), dice read right: 136 -> 136 of 150",
        "    (d6 one more, the held-out Cubes clip one fewer).",
        "  Each run alone: seed 47 6 / 8 / 2 and 12 / 12 / 10 false dice, held-out 94.4 / 94.5 /",
        "  62.4% / 58, as photos 93.6 / 98.0 / 73.0% / 81, Cubes photos 87.0 / 87.0 / 82.6% / 10,",
        "  clips 135; seed 48 5 / 7 / 1 and 11 / 11 / 10, 94.5 / 94.6 / 61.8% / 55, 92.8 / 97.6 /",
        "  73.4% / 78, Cubes photos 85.2 / 86.7 / 80.9% / 10, clips 131. The same run as seed 47",
        "  without the real photos: 18 / 22 / 8 and 39 / 39 / 39 false dice; held-out 94.4 / 93.8 /",
        "  61.7% / 52, as photos 93.3 / 95.4 / 73.7% / 77: the new renders alone teach it nothing",
        "  of real clutter, and the small loss of held-out dice is the fine-tune's, not the",
        "  photos'. Seed 47 averaged half-way with this file kept half the false dice (13 / 15 /",
        "  6 and 20 / 20 / 18). Not taken, for what it costs Cubes: every run with the photos lost",
        "  2.6-5.3 points of recall on the Cubes photos, and the mean missed a white die of the six",
        "  in the browser test's fixture still (tests/vision/fixtures/scenes/scene00001_0075.png),",
        "  which this file finds (its CUBES print washed out by the light, session 48): a plain",
        "  square is what the real photos taught it is",
        "  no die, and a Cubes blank is one. Next: real photos with plain coloured patches cut",
        "  out, or blank dice pasted onto them; a smaller share. The code stays",
        "  (`train_detector --negatives`); the runs are in data/detector (not committed).",
        "- Session 25: its file (session 48 started from it) is the mean of three CPU fine-tunes",
        "  of the session-8 model (the shipped file, rebuilt by `from_onnx`), seeds 30-32,",
        "  each 3,200 steps of 64 windows at",
        "  lr 3e-3 (21 min for two side by side, one thread each) on 2,080 new training-split images",
        "  (data/scenes/train15: 170 scenes of 4 views, 200 with a third of the dice leaning",
        "  (`--leaning`), 100 of 6 views; all eight training tables). Session 24 had found on a GPU",
        "  that the mean of two such runs beats either run. Shipped (session 8) -> this file, recall",
        "  / precision / faces read right / images wholly right: held-out through the app 94.0 /",
        "  92.2 / 59.9% / 49 -> 95.0 / 90.8 / 61.8% / 51 of 184; as photos 95.3 / 92.6 / 72.8% / 64",
        "  -> 95.8 / 93.0 / 74.7% / 75; the 1280x960 d6 photos 93.0 / 95.5 / 91.2% / 31 -> 93.9 /",
        "  96.4 / 90.8% / 30 of 48; 120 unseen training-split images (data/scenes/val15, scenes",
        "  15170-15199, one video pass) 92.2 / 93.2 / 67.1% / 28 -> 93.2 / 93.1 / 67.4% / 30. The",
        "  test clips (tests/vision/test_end_to_end.py) read one more die of the demo and of each",
        "  Cubes clip, the Cubes clip now every die of every roll. Each run alone, as photos: recall",
        "  95.3, 95.2, 95.6%; the mean of the first two 96.1%.",
        "- Session 25, the leaning threshold: the fine-tunes flag leaning dice far more readily (at",
        "  0.5, held-out as photos 96.2% of leaning dice but 30.3% of flat ones, against the",
        "  session-8 model's 88.3% and 15.7%), and a tilted mark on a flat die asks the players to",
        "  check it. The file carries its own threshold (metadata `leaning_from`), chosen on",
        "  data/scenes/val15 as the lowest that flags no more flat dice than the session-8 model",
        "  did there (one video pass 13.0%, as photos 20.8%): 0.55-0.75 flagged 19.9, 17.3, 14.0,",
        "  10.6, 7.7% one pass and 29.9, 24.7, 19.8, 15.8, 12.4% as photos, so 0.7 (leaning dice",
        "  flagged there 63.8 and 80.0%, the session-8 model's 62.5 and 80.7%). On the held-out",
        "  scenes that flags fewer leaning dice than before (the cocked column; session 8's model:",
        "  72.2% through the app, 88.3% as photos) and fewer flat ones (8.5 and 15.7%).",
        "- Session 26, tried and not taken: three more fine-tunes of this file on a GPU (one H100,",
        "  seeds 40-42, each 3,000 steps of 64 windows at lr 3e-3, side by side with 5",
        "  window-cutting workers each: 5.9 min) on data/scenes/train15 and 2,080 new",
        "  training-split images (data/scenes/train16: scenes 18000-18149 plain, 19000-19249",
        "  leaning, 20000-20079 of 6 views), sent as JPEG copies (quality 75) to fit the device's",
        "  transfer, and their mean, leaning threshold 0.76 by the rule above (val15, one pass, in",
        "  steps of 0.01). This file -> that mean, recall / precision / faces read right / images",
        "  wholly right: held-out one video pass 95.0 / 90.8 / 61.8% / 51 -> 95.3 / 91.7 / 62.1% /",
        "  57 of 184; as photos 95.8 / 93.0 / 74.7% / 75 -> 95.6 / 93.2 / 73.2% / 58; val15 one",
        "  pass 93.2 / 93.1 / 67.4% / 30 -> 93.6 / 93.4 / 68.8% / 30, as photos 94.8 / 95.3 / 76.2%",
        "  / 38 -> 94.2 / 95.9 / 77.3% / 43 of 120; the 1280x960 photos, d6 93.9 / 96.4 / 90.8% /",
        "  30 -> 93.9 / 97.3 / 91.2% / 32 of 48, Square Shooters 98.2 / 97.0 / 81.7% / 11 -> 98.2 /",
        "  97.0 / 82.3% / 13 of 30, Cubes 91.3 / 84.0 / 84.3% / 8 -> 88.7 / 85.7 / 80.9% / 8 of 24.",
        "  The test clips: the d6, card and held-out d6 clips a die better each, the held-out Cubes",
        "  clip a die worse. Better through the camera and on val15, worse on two of the four",
        "  held-out photo sets (faces read right -1.5 and -3.4 points), which stand in for what",
        "  `dicescore read` will be judged on; so this file stays. Checkpoints in data/detector.",
        "  A second try at lr 1e-3 (seeds 50-52, 2,500 steps, threshold 0.74 by the same rule)",
        "  read the same way: held-out one pass 95.3 / 92.1 / 63.0% / 54, as photos 95.8 / 93.2 /",
        "  74.0% / 68, Square Shooters photos 98.2 / 97.6 / 81.7% / 11, Cubes photos 88.7 / 88.7 /",
        "  82.6% / 10 (this file, with session 26's face model: 95.0 / 90.8 / 61.8% / 51; 95.8 /",
        "  93.2 / 74.7% / 75; 98.2 / 97.0 / 83.5% / 12; 92.2 / 84.1 / 83.5% / 8). Not taken either.",
        "- Earlier models, measured by their own cards (detector alone, then through the app's",
        "  one pass): the first recipe on the first 768 images for 12,000 steps, the starting point",
        "  of warm-started runs: recall 93.6%, precision 78.2%, cocked 0%; 92.7% / 85.4% and 45.7%",
        "  of faces read right with the face check. The same for 8000 steps: 91.2% / 84.5% and",
        "  44.4% with the face check. Tried and not kept: windows of pure procedural clutter (12%)",
        "  with cocked dice sampled and weighted more: recall 87.5%, precision 84.1%, cocked 11.5%,",
        "  and fewer faces read right (39.3%). The model before this one (seed 1, 10,000 steps",
        "  warm-started from the first, on 1,968 images; before the size check and with the",
        "  stage-10 face model): 95.2% / 69.5% alone, 94.6% / 83.2% and 55.4% through the app,",
        "  cocked 58.1%.",
        "- Session 8: the model before session 25's was the session-7 model (seed 2, 8,000 steps",
        "  of 24 windows on the CPU, 3,568 images) trained on for 7,100 steps of 64 windows on a GPU",
        "  with data/scenes/train8",
        "  added (5,568 images; 454,400 windows against 192,000). The session-7 model, by this card's",
        "  measures: through the app 94.4% / 91.3%, faces 59.3% (d6 86.2%), cocked 71.0% of 31; as a",
        "  photo 95.8% / 93.8%, faces 71.8% (d6 91.7%), cocked 81.2% of 32, flat dice flagged 9.1%.",
        "  Framings as a photo: phone 94.3% / 91.5% / 67.8%, webcam 96.5% / 90.9% / 70.8%, 12 MP",
        "  91.3% / 92.0% / 68.6%, one die 95.5% / 88.4% / 72.2%. Most figures moved by a few dice",
        "  of 827 either way; the surest gains are the faces read through the app (d6 +3.9 points)",
        "  and the cocked flag, at the price of more flat dice flagged in a photo. On the rendered",
        "  clips (tests/vision/test_end_to_end.py) it reads 51 of 54 demo faces (session 7: 52),",
        "  18 of 27 cards (20), 16 of 18 Cubes (17) and 12 of 15 d6 (11). A further 4,000 steps",
        "  from this model (seed 6, 3.1 min) read the card slightly better (through the app",
        "  95.0% / 92.8%, as a photo 96.4% / 94.3%, faces 72.1%) but read 16 of 27 cards and 15 of",
        "  18 Cubes, so it was not kept. It also reported a Cubes clip roll twice: a die it missed",
        "  was found after a hand passed, which the roll tracker now knows is no new roll.",
        "- Also session 8: a video frame's finds are thinned to one per die as a photo's passes",
        "  were (`vision.detector.one_per_die`): one die's heat sometimes peaks twice. With this",
        "  model, detector alone precision 89.8% -> 90.5%, through the app 91.7% -> 92.5%, recall",
        "  and faces unchanged; the rows above include it.",
        "- Session 27: within each pass, a find whose centre lies on a sure find over three times",
        "  its side is print on that die (a pip, a frame's square) and goes before one find per die is",
        "  chosen (`vision.detector.printed_on_others`). Held-out one video pass 95.0 / 90.8 / 61.8%",
        "  / 51 -> 95.1 / 91.2 / 62.1% / 52; photos unchanged; the rows above include it. Applied",
        "  where a photo's passes are merged as well, it cut the Cubes photos' false finds (precision",
        "  84.1% -> 87.6%) but lost 10 dice of the 12-megapixel framing (a sure find around a cluster",
        "  of dice silenced them), so it is not (docs/vision-limits.md, session 27).",
        "- Tried and not kept (an earlier session, with the stage-13 face model, this card's measures): 500",
        "  more four-view scenes (data/scenes/train8, start 8000 and 8300, count 250 each, the eight",
        "  training tables; 2,000 images) and 8,000 more CPU steps of 24 windows warm-started from",
        "  the session-7 model (seed 3, 5,568 images, 34 min): through the app recall 95.2%,",
        "  precision 90.6%, faces 61.4%, cocked 65.6% of 32; as a photo 96.6% / 92.6%, faces 61.2%.",
        "  The average of the two models' weights: 94.8% / 90.4%, faces 60.6%, cocked 71.9%. Both",
        "  read the demo clip worse (90.7% and 92.6% of faces against 94.4%).",
        "- Photos of dice of any size (session 7): until then a photo was searched whole, shrunk",
        "  to half into a border and by quarters, and read the last two framings in the table",
        "  above (the 12-megapixel photo, one die filling the photo) at 56.0% / 86.0% / 38.7% and",
        "  30.1% / 68.0% / 17.0% (recall / precision / faces read right, as a photo). The finer",
        "  tiles of big photos, the frame shrunk to a quarter and an eighth, the size check",
        "  across passes, and unsure faces cut again are measured in docs/vision.md.",
        "- Tried and not kept (session 5): training sensor noise widened from 1-8 to 1-16 grey",
        "  levels at the input, 3,000 steps warm-started from the session-7 model (seed 4, 5,568",
        "  images, 13 min). Through the app recall 93.7% (that model 94.4%), photo recall 95.5%",
        "  (95.9%), cocked 74% / 87% (71% / 81%) but flat dice flagged 7.7% / 12.7% (6.4% / 9.2%);",
        "  and on half the held-out scenes enlarged to 1280x960 with noise of 10 and 20 grey levels,",
        "  recall 92.7% and 89.2% against that model's 93.6% and 90.8%: no more robust to noise.",
        "- Session 9: held-out d6 scenes rendered at 1280x960 (the row above: 48 images, 228 dice),",
        "  the nearest rendered stand-in for the photographs of pip dice that `dicescore read --dice d6`",
        "  will be judged on. Of the first 24 images' 10 false finds, 6 were a die's side face, 3",
        "  the table's pattern, 1 an oversized second find. The quads on side faces are shaped like",
        "  top faces, and none shares an edge with its die's top face to within a fifth of a face,",
        "  so neither shape nor a shared edge tells them apart.",
        "  Of those images' 5 misses, 4 were dice a third to a half hidden and",
        "  one a numeral die that three passes found unsurely (0.53-0.57) and the mirror look did not.",
        "  Flat dice are flagged as leaning more often at this size (20.1%): a photo's die leans when",
        "  either look says so, which keeps the held-out cocked dice at 90.9% (the issue's 90%).",
        "  Cocked flagged / flat dice flagged, held-out then 1280x960: either look (shipped)",
        "  90.9% / 12.6% and 91.7% / 20.1%; the first look's majority alone 75.8% / 8.1% and",
        "  66.7% / 15.1%; both looks 57.6% / 3.8% and 66.7% / 8.0%.",
        "- Also session 9: a photo's d6 and Cubes faces are also read by counting their pips",
        "  (`vision.pips`, docs/vision.md), which the photo rows above include: held-out faces read",
        "  right 71.3% -> 71.5% (Cubes 74.5% -> 74.7%), every framing as a photo 0.0-0.5 points up.",
        "- Tried and not kept (session 9): a second opinion on unsure finds from what surrounds",
        "  them. A small CNN (four convolution blocks, 16-64 channels) read a window 2.2 faces wide",
        "  around each find at 48 px, trained for 6 epochs (7 min here) on 64,206 finds of this",
        "  detector in the training scenes at their size and twice it (5,562 of them false).",
        "  Dropping finds under 0.8 that it gave under 0.05 (or 0.10) of being a top face: held-out",
        "  photos 96.1% / 93.5% -> 96.0% / 94.0% (95.8% / 95.0%), faces 71.6% -> 71.6% (71.3%);",
        "  the 1280x960 d6 photos 92.5% / 90.9% -> 92.5% / 92.1% (91.7% / 92.9%), faces 89.9% ->",
        "  89.9% (89.0%). A point of precision, at the higher cut for a few dice, from one more",
        "  model that has seen only renders: not shipped. (Measured with the pip count's first version.)",
        "- Session 11: the held-out scenes re-rendered on this machine with the current renderer",
        "  (the same commands; its later rules, such as one deck for the card dice, draw other",
        "  random numbers, so the dice settle elsewhere) hold 834 dice to find, 85 of them leaning,",
        "  where the earlier render measured in session 8 held 827: the held-out rows above are on",
        "  the new render, and the d6 photos (rendered in session 9) are unchanged. A re-rendered",
        "  scene is byte-identical to its first render on the same machine.",
        "- Also session 11: a photo's find nearer a surer find than 0.9 of a face's side is dropped",
        "  as a side face of the surer one's die (`vision.detector.TOP_FACES_APART`; two dice's top",
        "  faces lie a side apart or more). Side faces were 6 of 10 false finds in the first 24 d6",
        "  photos (session 9). Dice found / false finds, before -> after, as",
        "  a photo: held-out 789 / 86 -> 785 / 73 of 834 dice; the 1280x960 d6 photos 211 / 21 ->",
        "  210 / 12 of 228 (precision 90.9% -> 94.6%); translucent d6 dice (docs/vision.md) 90 / 7 ->",
        "  89 / 7 of 100. Chosen on the d6 photos; from 0.75 to 0.9 every held-out set gained more",
        "  false finds dropped than dice lost (0.75: 9 and 2 over the three sets; 0.9: 22 and 6).",
        "  Of the 6 dice lost, 3 lean against a neighbour and 3 lie beside one (in the one looked",
        "  at, the surer find's quad had slipped half onto the lost die's face). A video frame's",
        "  single pass scores a side face above its top face more often (on the d6 renders read as",
        "  frames, the rule above lost 3 dice for 7 false finds), so there the nearer find must",
        "  also be 0.15 less sure (`VIDEO_SIDE_FACE_MARGIN`). Video frames, dice found / false",
        "  finds, before -> after: the d6 renders 212 / 32 -> 212 / 27 of 228; held-out 779 / 86",
        "  -> 778 / 79 of 834; translucent 88 / 18 -> 88 / 18 of 100; on white paper (docs/vision.md)",
        "  90 / 13 -> 89 / 11 of 100. As photos, a margin of 0.05 or 0.1 kept 0 or 2 more dice of",
        "  the four sets, for 6 or 8 more false finds, so photos have none. Choosing the brighter",
        "  of the two finds (a top face faces the light) or dropping only a find flagged as",
        "  leaning did no better.",
        "- Tried and not kept (session 19, on this 2-core CPU): this model trained on for 9,000 steps",
        "  of 24 windows (seed 19, lr 1e-3, 32 min) with all ten training folders, four of them never",
        "  seen by it (data/scenes/train9-translucent, train10-pale, train11 and the leaning dice of",
        "  train13-leaning; 7,620 images). Shipped -> tuned, recall / precision / faces read right /",
        "  images wholly right: held-out through the app 93.3 / 91.1 / 62.9% / 56 -> 93.6 / 90.0 /",
        "  62.5% / 50 of 184; held-out as photos 94.2 / 91.6 / 76.3% / 84 -> 94.8 / 93.6 / 76.0% / 87;",
        "  the 1280x960 d6 photos 93.4 / 94.7 / 91.7% / 30 -> 92.1 / 94.6 / 87.7% / 27 of 48. Leaning",
        "  dice flagged (flat dice flagged), held-out as photos 87.9 (17.2) -> 83.3 (23.2)%, the",
        "  leaning scenes (data/scenes/heldout-leaning) in one video pass 61.7 (22.4) -> 72.5 (30.1)%.",
        "  The d6 photos, the stand-in for the real ones this reader will be judged on, read worse,",
        "  and more flat dice are flagged everywhere. Its weights averaged with this model's (in",
        "  torch, norms included, at 0.3 and 0.5) found no dice at all: the run moved the norms' statistics",
        "  too far (running means 2-6 times their size) for the two to share a basin.",
        "  A gentler run (seed 20, 5,000 steps at lr 3e-4, 16 min) read worse everywhere: held-out",
        "  through the app 91.7 / 84.5 / 58.2% / 39, as photos 92.7 / 89.3 / 71.9% / 64, the d6",
        "  photos 91.2 / 92.9 / 86.8% / 26. Both runs start from the exported file, whose norms are",
        "  rebuilt from eight batches (`train_detector.from_onnx`; this model's own checkpoint is not",
        "  on this machine). Whether that start costs them was not measured then.",
        "- Session 24 measured it: it did. `from_onnx` measured each rebuilt norm's statistics with",
        "  the convolutions before it missing their biases, so in train mode, where a batch's own",
        "  statistics stand in for the measured ones, the rebuilt network was another one: on windows",
        "  of training scenes its loss was 12.6 in train mode against the file's 1.6 (eval mode was",
        "  exact, which is all the test checked). Fixed, with a test of train mode on the measured",
        "  windows: 1.40 against 1.37. 300 CPU steps of 24 at lr 2e-4 from the shipped file now keep",
        "  held-out recall (one video frame) at 94.0%, where the broken start fell to 65.9%. Every",
        "  fine-tune above that started from the exported file (sessions 12, 13 and 19) started from",
        "  a damaged network, which is why a lower rate did worse and the averaged weights found nothing.",
        "",
    ]
    card = "\n".join(lines)
    (out / "detector.md").write_text(card)
    (out / "detector_metrics.json").write_text(json.dumps(results | {"framings": framings}, indent=1) + "\n")
    return card


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", type=Path, default=Path(__file__).resolve().parent / "detector.onnx")
    parser.add_argument("--heldout", type=Path, default=Path("data/scenes/heldout"))
    parser.add_argument("--train", type=Path, default=None, help="also measure on (some) training scenes")
    parser.add_argument(
        "--photos",
        type=Path,
        nargs="*",
        default=(),
        help="also measure on scenes at a photo's size (PHOTO_SETS), one folder per die kind",
    )
    args = parser.parse_args(argv)
    import onnx

    meta = {p.key: p.value for p in onnx.load(str(args.model)).metadata_props}
    recipe = json.loads(meta.get("recipe", "{}"))
    print(write_card(args.model, args.heldout, args.model.parent, recipe, args.train, args.photos))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
