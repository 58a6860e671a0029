"""How a face model's recipe (the training options in its metadata) reads in its card: what
it learnt from, where it was trained, what the app reads with it, and the commands that make
it again.  ``models.face_card`` measures the model and writes the card with these words."""

from __future__ import annotations

from pathlib import Path

from models.face_net import WIDTH
from models.metadata import metadata_of
from models.train_faces import NEGATIVE_RANDOM, SCENE_JITTER
from vision.faces import DEFAULT_MODEL, FAST_MODEL, NOT_A_FACE


def shipped_as(model_path: Path) -> str | None:
    """Which of the app's two face models a file is, by its name: "default", "camera", or None
    (a teacher or another candidate)."""
    return {DEFAULT_MODEL.name: "default", FAST_MODEL.name: "camera"}.get(model_path.name)


def role(model_path: Path) -> str:
    """What the app reads with this file."""
    if shipped_as(model_path) == "default":
        return """
The default model: `FaceClassifier()` reads with it, at four turns and with a second look
at the crops it is unsure of, and so do
`dicescore read` (photos), `read_image` and `dicescore faces`. The camera reads every frame
with the smaller models/faces-fast.onnx instead (models/faces-fast.md), to stay within a
frame's time.
"""
    if shipped_as(model_path) == "camera":
        return """
The camera's model: the web app's camera and `dicescore watch` read every settled frame
with it, at one turn a frame. Photos and single crops are read with the default model,
models/faces.onnx (models/faces.md), which reads better and takes longer.
"""
    return ""


def no_face_cut(model_path: Path) -> str:
    """The Model line on the cut from which the reader drops a find this network calls no face."""
    cut = metadata_of(model_path).get("not_a_face")
    if cut is None:
        return f"""
- No no-face cut is recorded in the file: the reader drops a find the detector is unsure of
  when this network reads it `none` at {NOT_A_FACE} or more (`vision.faces.NOT_A_FACE`), until
  `python -m models.face_cut` records the cut fitted to it."""
    return f"""
- The reader drops a find the detector is unsure of when this network reads it `none` at
  {cut} or more: the cut in its metadata (`not_a_face`, written by `python -m models.face_cut`;
  docs/vision.md, "The face check's cut")."""


def budget(model_path: Path) -> str:
    if shipped_as(model_path) == "camera":
        return "The issue's budget, 9 crops in 2 ms, is the camera's: it reads a frame at one turn."
    return (
        "The issue's budget, 9 crops in 2 ms, is the camera's, which reads a frame at one turn"
        " with models/faces-fast.onnx (its card); a photo has no frame to keep up with."
    )


def size_limit(model_path: Path) -> str:
    """The Limits line on the network's size, from where the model is used."""
    if shipped_as(model_path) == "default":
        return """- Most limits below were measured on the camera's smaller model (models/faces-fast.onnx,
  stage 13) and its forerunners; this wider network is the stage-13 teacher they name, made
  8-bit. It reads better but is still below the targets, and it is too slow for the camera:
  about 2.4 times the small model's time at one turn.
"""
    return ""


def fonts_words(recipe: dict) -> str:
    """How many fonts the pool was drawn in, where the recipe says (from session 20 on)."""
    if "train_fonts" not in recipe:
        return ""
    return f", drawn in {recipe['train_fonts']} fonts (`TRAIN_FONTS` in datasets/faces/glyphs.py)"


def epochs_words(recipe: dict) -> str:
    return f"{recipe['epochs']} epoch" + ("s" if recipe["epochs"] != 1 else "")


def learnt_from_real_photos(recipe: dict) -> bool:
    """Whether the run saw real photos (with no dice): as ``none`` crops, or under rendered dice."""
    return bool(recipe.get("negatives") or recipe.get("photo_tables"))


def data_words(recipe: dict) -> str:
    """What the run learnt from, for the card's Recipe."""
    decks = (
        f", and the corners of {len(recipe['deck_names'])} real decks' cards" if recipe.get("decks") else ""
    )
    if learnt_from_real_photos(recipe):
        return f"rendered crops, and real photos with no dice in them (below){decks}"
    return f"only rendered crops (no real photos){decks}"


def real_photo_words(recipe: dict) -> str:
    """What the model has seen of real photographs, for the card's Limits."""
    if learnt_from_real_photos(recipe):
        return (
            "Never trained or tested on a real photograph of a die: the real photos it learnt from"
            " hold none (`none` crops, and tables under rendered dice)"
        )
    return "Never trained or tested on real photographs"


def reproduce_command(recipe: dict, model_name: str) -> str:
    """The commands that made models/``model_name``, in the order they ran: train, average
    with the file it started from (a soup), make 8-bit; joined by "`, then `"."""
    command = "python -m models.train_faces " + " ".join(
        f"--{key.replace('_', '-')} {recipe[key]}"
        for key in ("device", "workers", "seed", "train_size", "epochs", "batch", "lr")
        if key in recipe and (key, recipe[key]) not in (("device", "cpu"), ("workers", 2), ("batch", 128))
    )
    if recipe.get("width", WIDTH) != WIDTH:
        command += f" --width {recipe['width']}"
    if recipe.get("init"):
        command += f" --init {recipe['init']}"
    if recipe.get("teacher"):
        command += f" --teacher {recipe['teacher']}"
    if recipe.get("scenes"):
        command += f" --scenes {' '.join(recipe['scenes'])} --scene-copies {recipe['scene_copies']}"
        command += f" --scene-share {recipe['scene_share']}"
        if recipe.get("scene_jitter", SCENE_JITTER) != SCENE_JITTER:
            command += f" --scene-jitter {recipe['scene_jitter']}"
    if recipe.get("negatives"):
        command += f" --negatives {' '.join(recipe['negatives'])}"
        if recipe.get("negative_random", NEGATIVE_RANDOM) != NEGATIVE_RANDOM:
            command += f" --negative-random {recipe['negative_random']}"
        if not recipe.get("scenes"):
            command += f" --scene-share {recipe['scene_share']}"
    if recipe.get("print_negatives"):
        command += f" --print-negatives {recipe['print_negatives']}"
        if not recipe.get("scenes") and not recipe.get("negatives"):
            command += f" --scene-share {recipe['scene_share']}"
    if recipe.get("photo_tables"):
        command += f" --photo-tables {' '.join(recipe['photo_tables'])}"
        command += f" --photo-table-share {recipe['photo_table_share']}"
    if recipe.get("decks"):
        command += f" --decks {recipe['decks']} --deck-copies {recipe['deck_copies']}"
        if not any(recipe.get(key) for key in ("scenes", "negatives", "print_negatives")):
            command += f" --scene-share {recipe['scene_share']}"
    if recipe.get("swirled"):
        command += f" --swirled {recipe['swirled']:g}"
    for key in ("degrade", "relight", "soften"):
        if recipe.get(key):
            command += f" --{key} {recipe[key]:g}"
    quantized = recipe.get("quantized")
    # the float file an 8-bit one is made from; else the averaged or trained file is the model
    float_model = quantized["from"] if quantized else f"models/{model_name}"
    out = Path(float_model).parent if quantized else Path("data/faces")
    if quantized or recipe.get("averaged"):
        command += f" --no-card --out {out}"
    command += average_step(recipe, out, float_model)
    if quantized:
        command += f"`, then `python -m models.quantize_faces --model {float_model} --out models/{model_name}"
    return command


def average_step(recipe: dict, out: Path, averaged_path: str) -> str:
    """For a file made by ``models.average_faces``, its step of the Reproduce command: the run
    exported into ``out``, averaged into ``averaged_path`` ("" for a trained file)."""
    soup = recipe.get("averaged")
    if not soup:
        return ""
    from models.train_faces import export_name

    exported = out / export_name(recipe.get("width", WIDTH))
    return (
        f"`, then `python -m models.average_faces --base {soup['base']}"
        f" --tuned {soup['tuned']} --recipe-from {exported} --share {soup['share']:g}"
        f" --out {averaged_path}"
    )


def average_lines(recipe: dict) -> str:
    """The Recipe's lines on a file made by ``models.average_faces`` ("" for a trained file)."""
    soup = recipe.get("averaged")
    if not soup:
        return ""
    return f"""
  This file is not that run's network but the average of its weights and those it started
  from (`python -m models.average_faces`): each weight {soup["share"]:.0%} of the way from
  {soup["base"]} to the run's last checkpoint, {soup["tuned"]}
  (docs/vision.md compares the three)."""


def teacher_words(recipe: dict) -> str:
    if recipe["teacher"] == recipe.get("init"):
        return "the file it started from (the teacher, kept as it was)"
    if recipe["teacher_width"] != recipe.get("width", WIDTH):
        return f"a wider FaceNet (width {recipe['teacher_width']}, the teacher)"
    return "another FaceNet of its width (the teacher)"


def trained_where(recipe: dict) -> str:
    device = recipe.get("device", "cpu")
    if device == "cpu":
        return f"CPU, {recipe.get('threads', 2)} torch threads"
    return f"GPU (`--device {device}`; without it the same command runs on the CPU, far slower)"


def timed_where(recipe: dict) -> str:
    if recipe.get("device", "cpu") == "cpu":
        return "on the 2-core development machine (shared with other jobs)"
    where = f"on one {recipe.get('device_name', 'GPU')}"
    if "cpus" in recipe:
        where += f" with {recipe['cpus']} CPU cores"
    return f"{where}, the pool rendered by {recipe.get('workers', 2)} processes"


def recipe_scale() -> str:
    from models.face_net import COSINE_SCALE

    return f"{COSINE_SCALE:g}"
