"""Read the top face of a die from its rectified crop.

    clf = FaceClassifier()                              # models/faces.onnx
    readings = clf.classify(crops, kind="d6")           # one FaceReading per crop
    readings[0].label, readings[0].confidence, readings[0].top

    camera = FaceClassifier(FAST_MODEL)                 # models/faces-fast.onnx
    readings = camera.classify(crops, kind="d6", turns=(0,), second_look=False)

Two models ship.  The default, models/faces.onnx, reads best (a wide network in 8-bit
integers); ``classify`` reads each crop at its four right-angle turns and averages the
readings, an ensemble of four looks, and reads a crop it is still unsure of again, shown
four more ways (``second_look``).  9 crops take it about 15 ms: fine for a photo, too
slow for every frame of a camera.  The camera reads with models/faces-fast.onnx at one turn
a frame (9 crops in under 2 ms), the next turn each frame, and the roll tracker's vote over
the settled frames makes up the ensemble (docs/vision.md; each model's card has its
figures).

A crop the model cannot read (it looks like no face, or no label is confident enough) gets
``label=None``; its ``top`` still ranks the likeliest faces for a tap-to-correct menu.

Learning from taps: ``clf.learn(crop, "QH")`` stores the crop in learned/ of the user's
dicescore folder (``dicescore.home``: $DICESCORE_HOME, else $XDG_DATA_HOME/dicescore, else
~/.local/share/dicescore, or the system's own on Windows and macOS).  Every stored crop
becomes a prototype of its label on the model's embedding: a later crop close to it, and
clearly closer than to any other taught face, reads as that label (a crop tapped again as
another face is that face only), unless the network is sure of a face nobody taught and the
crop is no near copy of the example (``NETWORK_SURE``).  An example taught for a die kind
(``learn(crop, label, kind)``) speaks for dice of that kind only.
Once every face of a die kind is taught for that kind (``learn(crop, label, kind)``), the
taught faces need no lead, each is as likely as it is near, and each example speaks as
varied views of itself too (turned, tilted, relit: ``varied``).  A tap fixes
the die it was made on and the same die seen again; showing each face of an unseen dice set
once teaches it in part: it halves the faces read wrong, and leaves near ties unsure, for a
tap (docs/vision.md, "Teaching a dice set").  Embeddings are recomputed from the stored
crops when the classifier starts, so taught examples survive a model update; the newest
``TAUGHT_PER_FACE`` of each face and die kind are read, and a few older ones kept unread.
``unlearn(crop, label, kind)`` takes one lesson back (a correction undone: the example it
pushed out is read again); ``forget()`` deletes them (one face's, one kind's, or all).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np
import onnxruntime as ort

from dicescore.home import data_home
from scoring.faces import ALL_LABELS, DIE_KINDS, die_kind, parse_face
from vision.files import read_picture, write_picture
from vision.pips import count_pips
from vision.readings import NAMED_FROM, as_bgr

log = logging.getLogger(__name__)

MODELS = Path(__file__).resolve().parent.parent / "models"
DEFAULT_MODEL = MODELS / "faces.onnx"  # reads best: photos, single crops
FAST_MODEL = MODELS / "faces-fast.onnx"  # the camera's: 9 crops within a frame's budget
NONE = "none"  # the model's class for crops that show no readable face
# A find the detector is unsure of is dropped when the network calls it no face at least
# this surely (``FaceClassifier.not_a_face``).  How surely a network calls what it cannot read
# `none` moves with its training, so each shipped file carries its own cut in its metadata
# (``not_a_face``, written by ``python -m models.face_cut`` once fitted), as the detector
# carries its ``leaning_from``; this one stands for a file without it: the photo cut
# fitted in session 51 (docs/vision-limits.md).
NOT_A_FACE = 0.7
# A taught example speaks for a crop only when the crop is this close to it (cosine on the
# embedding): looser matches let taught blanks and faces claim table and hand crops.
TAUGHT_MIN_SIMILARITY = 0.8
# ... and only when it is closer than any taught example of another face by this much: the
# faces of one style the model never saw lie close together, so a near tie is a guess, and
# an untaught face of the same style lies as near.  Once every face of a die kind is taught
# for that kind (``learn``'s ``kind``: a whole dice set, one tap a face), no face of it is
# left untaught, and its dice read with the taught faces speaking without a lead, each as
# near as it is: a near tie then reads unsure.  Only taps made on that kind count: a Cubes
# set's 1-6 are not a set of plain dice, and plain dice read worse if they were taken for
# one (docs/vision.md, "Teaching a dice set").
TAUGHT_MIN_LEAD = 0.1
# A crop the model reads as no face at all needs a near copy of a taught example: taught
# faces of an unseen style lie near `none`, and looser matches turned table crops into dice.
TAUGHT_OVER_NONE = 0.95
# Nor does an example speak over a face nobody taught that the network reads this surely,
# unless it is as near a copy: one Cubes 4 tapped (rightly) after an odd light made the
# camera read 79 of 528 faces it was sure of as 4 (6 now), and one sharp 2 tapped as 6 by
# mistake, 90 of 99 twos of its print as 6 (48 now: near copies, which undoing the tap
# takes back; session 67's audit of learning from taps).
NETWORK_SURE = 0.9
# Each taught crop also stands for this many seeded variations of itself (``varied``):
# turned any way, tilted, moved, relit, blurred, as the camera will see that face again.
# They speak only for a whole set: under the lead rule they won nothing, and crops of other
# prints read worse for them (docs/vision.md, "Teaching a dice set").
TAUGHT_VARIATIONS = 24
# A whole set's taught faces, in a reading averaged over several turns (a photo's), are read
# at this sharpness (the model's own cosine scale is 16): faces of one print lie close
# together on the embedding, so the nearest example's lead is small in cosine but telling.
# At the model's scale a set taught four views a face read 90% of a held-out print's other
# views right as a photo, 2% wrong and 8% unsure, though the nearest example named 96%; at
# 24, 94% right and 3% wrong.  A single turn (a video frame) is less steady: sharper, the
# camera's model read as many more wrong as right (docs/vision.md, "Teaching a dice set").
TAUGHT_SET_SCALE = 24.0
# Taught examples kept per face and die kind: a later tap replaces the oldest.  Every example
# is embedded at each start and compared with every crop read, and taps on a misread that
# keeps coming back would otherwise pile up; the newest are the camera's light as it is now.
TAUGHT_PER_FACE = 4
# Examples a tap pushes out of those read stay on disk, unread, this many deep: a correction
# undone (``unlearn``) brings back the example it pushed out.
TAUGHT_SPARE = 2
# A crop whose noise estimate (``noisy``) reaches this is smoothed before it is read:
# the network learnt from renders far cleaner than a dim webcam's frames, and rendered crops
# with noise of 15 grey levels read 85% instead of 95% unsmoothed, 92% smoothed.  Clean
# renders estimate at 0.5 (90th percentile 0.7), so they are read as they are.
NOISY = 3.0
# Immerkaer's mask: the difference of two Laplacians, blind to flat and sloping light.
NOISE_MASK = np.float32([[1, -2, 1], [-2, 4, -2], [1, -2, 1]])
# JPEG (a webcam's MJPEG, a phone's stream) turns fine sensor noise into blotches that mask
# no longer sees: 64 px crops with noise of 16 grey levels under JPEG 40 estimate at 0.5-0.7.
# So a crop is noisy too when half its pixels lie this many grey levels or more from the
# median of their 5 x 5 neighbours.  Held-out scene dice under noise 16 and JPEG 40 then read
# 51.5 -> 62.6% (camera, one turn) and 60.7 -> 70.6% (photo).  Clean scene crops never reach
# it; 18% of the face renders do (their renderer adds noise and JPEG), and read as well.
BLOTCHY = 3
# A die lands turned any way; reading a crop at all four right-angle turns and averaging is
# an ensemble of four looks (for still photos, where time is cheap).
ALL_TURNS = (0, 1, 2, 3)
# A crop read with less confidence than this gets a second look (``SECOND_LOOKS``: framed
# wider and tighter, white-balanced, contrast-stretched), and the surest of the readings
# naming a face stands: a face cut tighter or looser than the renders were (a hand-cut crop
# of a card's corner, a detector's loose box), or lit by a coloured lamp or a dim one, reads
# as the model learnt it.  Measured in docs/vision.md; on the face card's sets a sure
# reading is almost always right; one crop in fifteen of the trained families is read again
# (one in four of the held-out ones).
SECOND_LOOK_BELOW = 0.8
# Dice whose number faces may be printed as pips.  A clean pip layout is trusted over the
# network (of 2,472 rendered dice it counted, it miscounted 3: docs/vision.md) but not over
# certainty: the reading is this sure, the network's share below it.
PIP_KINDS = ("d6", "cubes")
PIP_COUNT_SURE = 0.95
WIDEN_MARGIN = 0.15  # of the crop's side, added on each side
NARROW_KEEP = 0.8  # of the crop's side, kept about the centre


class ModelFileError(RuntimeError):
    """The face model file is missing or is not a usable ONNX model."""


@dataclass(frozen=True)
class FaceReading:
    """What one crop shows: ``label`` is None when the crop is unreadable."""

    label: str | None
    confidence: float
    top: list[tuple[str, float]] = field(default_factory=list)
    nothing: float = 0.0  # probability that the crop shows no die face at all


def default_data_dir() -> Path:
    """learned/ in the user's dicescore folder (``dicescore.home``)."""
    return data_home() / "learned"


class FaceClassifier:
    """Batched face reading with onnxruntime, restricted to a die kind, shaped by taught examples."""

    def __init__(
        self,
        model_path: str | os.PathLike | None = None,
        data_dir: str | os.PathLike | None = None,
        min_confidence: float = NAMED_FROM,
        top_k: int = 5,
    ):
        self.model_path = Path(model_path) if model_path is not None else DEFAULT_MODEL
        self.session = load_session(self.model_path)
        meta = self.session.get_modelmeta().custom_metadata_map
        try:
            self.labels = json.loads(meta["labels"])
            self.scale = float(meta["cosine_scale"])
            self.input_size = int(meta["input_size"])
            self.not_a_face = float(meta.get("not_a_face", NOT_A_FACE))
            if not 0 < self.not_a_face <= 1:
                raise ValueError(f"not_a_face {self.not_a_face} is no probability")
        except (KeyError, ValueError) as error:
            raise ModelFileError(
                f"face model file {self.model_path} lacks its metadata or has it wrong ({error})"
            ) from None
        self.index = {label: i for i, label in enumerate(self.labels)}
        self.min_confidence = min_confidence
        self.top_k = top_k
        self.data_dir = Path(data_dir) if data_dir is not None else default_data_dir()
        self.prototypes: dict[str, np.ndarray] = {}  # label: taught examples' embeddings
        self.taught_for: dict[str, set[str | None]] = {}  # label: the die kinds it was taught for
        self.taught_cosines: dict[str, np.ndarray] = {}  # label: the network's cosines for each
        self.taught_varied: dict[str, np.ndarray] = {}  # label: which of them are varied views
        self.example_kinds: dict[str, np.ndarray] = {}  # label: the die kind each was taught for
        self._loaded: dict[str, list[str]] = {}  # label: the names of the files its examples came from
        self._masks: dict[str | None, np.ndarray] = {}
        self._taught_stacks: dict[bytes, tuple] = {}  # a die-kind mask's: see _taught_examples
        self._load_learned()

    # ------------------------------------------------------------------ reading

    def classify(
        self,
        crops,
        kind: str | None = "square-shooters",
        turns: Sequence[int] = ALL_TURNS,
        second_look: bool = True,
        pips: bool = True,
        wider: Sequence[np.ndarray] | None = None,
    ) -> list[FaceReading]:
        """One reading per BGR crop; ``kind`` (a die kind name, or None for all) limits the labels.
        Each crop is read turned by each of ``turns`` right angles and the cosines averaged.
        With ``second_look``, a crop read unsure (``SECOND_LOOK_BELOW``) is read again in each
        of ``SECOND_LOOKS``, and a look that names a face more surely replaces the first.
        With ``pips``, a die whose faces are numbers and whose crop shows a clean pip layout
        (``vision.pips.count_pips``) reads as that count, whatever the network says; ``wider``,
        each face cut wider from the picture, is counted where the crop itself shows no clean
        layout.  The camera, short of time, skips both."""
        crops = list(crops)
        if not turns:
            raise ValueError("turns: read each crop at one right-angle turn (0-3) at least")
        if wider is not None and len(wider) != len(crops):
            raise ValueError(f"wider: one wider cut per crop, not {len(wider)} for {len(crops)}")
        if not crops:
            return []
        allowed = self._allowed(kind)
        batch = self.prepare(crops)  # once: a square crop turns the same before or after
        probs = self._probabilities(batch, allowed, turns)
        unsure = np.flatnonzero(probs.max(1) < SECOND_LOOK_BELOW) if second_look else []
        if len(unsure):
            # every look of every unsure crop in one batch: one network run per turn
            # in doubles: a turned crop's looks then match its own turned to the last bit, where
            # float rounding alone read a borderline crop one way upright and another turned
            unsure_batch = batch[unsure].astype(np.float64)
            shown = np.concatenate([look(unsure_batch) for look in SECOND_LOOKS]).astype(np.float32)
            looks = self._probabilities(shown, allowed, turns).reshape(len(SECOND_LOOKS), len(unsure), -1)
            # A second look may name a face, not rule one out: framed wider, a die looks
            # more like table, and a sure `none` there dropped real dice from photos.
            sureness = np.where(looks.argmax(2) != self.index[NONE], looks.max(2), -1.0)
            best = sureness.argmax(0)
            surer = sureness[best, np.arange(len(unsure))] > probs[unsure].max(1)
            probs[unsure[surer]] = looks[best[surer], np.flatnonzero(surer)]
        if pips and kind in PIP_KINDS:
            self._count_pips(crops, probs, wider)
        # the likeliest labels first: top_k faces, plus room for `none` among them
        order = np.argsort(-probs, axis=1)[:, : self.top_k + 1]
        return [self._reading(p, ranked) for p, ranked in zip(probs, order, strict=True)]

    def _count_pips(self, crops: list, probs: np.ndarray, wider: Sequence[np.ndarray] | None) -> None:
        """Each crop showing a clean pip layout, or else its ``wider`` cut, read as its count,
        sure to ``PIP_COUNT_SURE`` (in place); the network's other readings keep their order
        below it for the top-k."""
        for i, crop in enumerate(crops):
            count = count_pips(self._fit(crop), None if wider is None else self._fit(wider[i]))
            if count is not None:
                probs[i] *= 1 - PIP_COUNT_SURE
                probs[i, self.index[str(count)]] += PIP_COUNT_SURE

    def _probabilities(self, batch: np.ndarray, allowed: np.ndarray, turns: Sequence[int]) -> np.ndarray:
        """N x labels: each prepared crop's probabilities, its cosines averaged over ``turns``."""
        turned = (np.ascontiguousarray(np.rot90(batch, k, axes=(2, 3))) for k in turns)
        sharpen = TAUGHT_SET_SCALE / self.scale if len(turns) > 1 else 1.0
        cosines = np.mean([self._cosines(view, allowed, sharpen)[0] for view in turned], 0)
        return softmax(np.where(allowed, self.scale * cosines, -np.inf))

    def _allowed(self, kind: str | None) -> np.ndarray:
        """The labels a die of ``kind`` can show, and `none`, as a mask over the model's labels."""
        if kind in self._masks:
            return self._masks[kind]
        allowed = np.zeros(len(self.labels), bool)
        names = self.labels if kind is None else die_kind(kind).labels
        allowed[[self.index[label] for label in names if label in self.index]] = True
        allowed[self.index[NONE]] = True
        self._masks[kind] = allowed
        return allowed

    def _reading(self, probs: np.ndarray, ranked: np.ndarray) -> FaceReading:
        top = [(self.labels[i], float(probs[i])) for i in ranked if self.labels[i] != NONE and probs[i] > 0]
        best = self.labels[ranked[0]]
        confidence = float(probs[ranked[0]])
        nothing = float(probs[self.index[NONE]])
        if best == NONE or confidence < self.min_confidence:
            return FaceReading(None, confidence if best != NONE else 0.0, top[: self.top_k], nothing)
        return FaceReading(best, confidence, top[: self.top_k], nothing)

    def embed(self, crops) -> np.ndarray:
        """L2-normalised embeddings (N x D) of BGR crops."""
        return self._run(self.prepare(list(crops)))[1]

    def _run(self, batch: np.ndarray):
        logits, embeddings = self.session.run(None, {"crops": batch})
        return logits, embeddings

    def prepare(self, crops) -> np.ndarray:
        """BGR crops (any size, grey or BGRA too) as the network's input, N x 3 x S x S float
        0..1; a noisy crop (``noisy``) smoothed first."""
        sized = np.stack([self._fit(crop) for crop in crops])
        return smooth_noisy(sized).transpose(0, 3, 1, 2) / np.float32(255)

    def _cosines(self, batch: np.ndarray, allowed: np.ndarray, sharpen: float = 1.0):
        """Cosine of each crop to each label: the trained class, or the nearest taught example
        of that label if it is closer, where the taught examples speak: the nearest is close
        enough and clearly nearer than the other taught faces (or every face is taught: then
        times ``sharpen``, see ``TAUGHT_SET_SCALE``).  ``allowed`` (the die kind's labels)
        decides whether the network alone reads `none`."""
        logits, embeddings = self._run(batch)
        cosines = logits / self.scale
        if not self.prototypes:
            return cosines, embeddings
        taught, examples, firsts, example_reads_none, whole_set = self._taught_examples(allowed)
        if not taught:
            return cosines, embeddings
        masked = np.where(allowed, cosines, -np.inf)
        best = masked.argmax(1)
        reads_none = best == self.index[NONE]
        columns = [self.index[label] for label in taught]
        sure = softmax(self.scale * masked).max(1) >= NETWORK_SURE
        sure_untaught = sure & ~reads_none & ~np.isin(best, columns)
        # each crop's similarity to the nearest example of each taught face; a crop the
        # network reads as `none` is compared only with examples it reads as a face (under the
        # same mask): a taught example it reads as `none` (a blank, an odd print) lies among
        # the table crops, and one taught blank claimed 46% of them
        similarity = embeddings @ examples.T
        similarity[np.ix_(reads_none, example_reads_none)] = -1.0
        similarity = np.maximum.reduceat(similarity, firsts, axis=1)
        ranked = np.sort(similarity, 1)
        nearest = ranked[:, -1]
        lead = nearest - ranked[:, -2] if len(taught) > 1 else np.inf
        speaks = (
            (nearest >= TAUGHT_MIN_SIMILARITY)
            & ((lead >= TAUGHT_MIN_LEAD) | whole_set)
            & (~(reads_none | sure_untaught) | (nearest >= TAUGHT_OVER_NONE))
        )
        # Where they speak, every taught face is as likely as its nearest example is near: the
        # nearest names the crop (unless the network is surer of another face), and a close
        # second taught face keeps the reading unsure, as a near tie should be.
        cells = np.ix_(np.flatnonzero(speaks), columns)
        cosines[cells] = np.maximum(cosines[cells], (sharpen if whole_set else 1.0) * similarity[speaks])
        return cosines, embeddings

    def _taught_examples(self, allowed: np.ndarray):
        """The taught labels ``allowed`` (a die kind's mask) keeps, all their examples' embeddings
        stacked, where each label's first, which examples the network reads as `none` under
        that mask, and whether every face of that kind is taught for it (a whole set): kept
        until a tap or a restart changes the taught examples.  A die kind's dice are read with
        the examples taught for that kind, or for none named: a Cubes 4 is no plain die's 4."""
        key = allowed.tobytes()
        if key not in self._taught_stacks:
            # the die kind this mask is ``_allowed``'s for, if any (None: every label)
            kind = next((name for name, mask in self._masks.items() if name and mask.tobytes() == key), None)
            whole_set = kind in self.whole_sets()
            # the varied views speak for a whole set only: elsewhere they reach into other prints
            used = {
                label: (whole_set | ~self.taught_varied[label])
                & ((kind is None) | np.isin(self.example_kinds[label], [kind, None]))
                for label in self.prototypes
                if allowed[self.index[label]]
            }
            taught = [label for label, rows in used.items() if rows.any()]
            if not taught:
                return taught, None, None, None, False
            counts = [int(used[label].sum()) for label in taught]
            cosines = [self.taught_cosines[label][used[label]] for label in taught]
            read = [np.where(allowed, each, -np.inf).argmax(1) for each in cosines]
            self._taught_stacks[key] = (
                taught,
                np.concatenate([self.prototypes[label][used[label]] for label in taught]),
                np.cumsum([0, *counts[:-1]]),
                np.concatenate(read) == self.index[NONE],
                whole_set,
            )
        return self._taught_stacks[key]

    def _fit(self, crop: np.ndarray) -> np.ndarray:
        """One crop as S x S BGR uint8: shrunk by area, or enlarged linearly."""
        crop = as_bgr(crop, "crop")
        size = self.input_size
        if crop.shape[:2] == (size, size):  # a rectified crop: resizing would only copy it
            return crop
        shrink = crop.shape[0] > size or crop.shape[1] > size
        return cv2.resize(crop, (size, size), interpolation=cv2.INTER_AREA if shrink else cv2.INTER_LINEAR)

    # ------------------------------------------------------------------ learning from taps

    def learn(self, crop: np.ndarray, label: str, kind: str | None = None) -> set[str]:
        """Store ``crop`` as an example of ``label`` and use it from now on; ``kind`` names the
        die kind of the dice it was tapped on, if known (once every face of a kind is taught
        for it, that set reads without a lead: see ``TAUGHT_MIN_LEAD``).  The same crop taught
        before as another face is taken back from that face: the later tap corrects the
        earlier one, and a face keeps its newest ``TAUGHT_PER_FACE`` examples for a kind.
        Returns the labels whose examples changed."""
        label = parse_face(label).label
        if kind is not None and label not in die_kind(kind).label_set:
            raise ValueError(f"{label} is not a face of {kind} dice")
        crop = np.ascontiguousarray(crop)
        kept = self._example_path(crop, label, kind)
        if kept.is_file():  # taught so already: one example, as a restart would load
            return set()
        digest = kept.name.split(".")[0]
        kept.parent.mkdir(parents=True, exist_ok=True)
        try:
            write_picture(kept, crop)  # whole or not at all
        except OSError as error:
            raise OSError(f"could not write the taught example {kept}: {error}") from None
        # Only now that the new example is kept do earlier copies go: a write that fails
        # (a full disk, a read-only folder) must not lose what was taught before.
        reloaded = set()
        for earlier in self.data_dir.glob(f"*/{digest}.*png"):  # as another face, or kind
            if earlier == kept:
                continue
            try:
                earlier.unlink()
            except OSError as error:  # the crop would be taught as two faces: this tap is not taken
                kept.unlink(missing_ok=True)
                for changed_label in reloaded:
                    self._reload(changed_label)
                raise OSError(
                    f"could not take back {earlier}, taught before: {error.strerror or error}"
                ) from None
            reloaded.add(earlier.parent.name)
        examples = self._examples(label, kind)
        if len(examples) > TAUGHT_PER_FACE:  # the oldest read is pushed out: a spare now
            reloaded.add(label)
        for path in examples[TAUGHT_PER_FACE + TAUGHT_SPARE :]:
            try:
                path.unlink()
            except OSError:  # one spare more than a face keeps reads no worse
                log.warning("could not delete %s, an example beyond those a face keeps", path)
        for changed_label in reloaded:
            self._reload(changed_label)
        if label not in reloaded:
            self.taught_for.setdefault(label, set()).add(kind)
            self._add_prototypes(label, [crop], [kind])
            self._loaded[label] = sorted([*self._loaded.get(label, []), kept.name])
        return {label} | reloaded

    def unlearn(self, crop: np.ndarray, label: str, kind: str | None = None) -> set[str]:
        """Take back ``crop`` taught as ``label`` for ``kind`` (a correction undone): its example
        is deleted.  Returns the labels whose examples changed (none: it was not taught so)."""
        path = self._example_path(np.ascontiguousarray(crop), parse_face(label).label, kind)
        try:
            path.unlink()
        except FileNotFoundError:
            return set()
        except OSError as error:
            reason = error.strerror or error
            raise OSError(f"could not take back the taught example {path}: {reason}") from None
        self._reload(path.parent.name)
        return {path.parent.name}

    def forget_example(self, label: str, kind: str | None, name: str) -> set[str]:
        """Delete the one example of ``label`` taught for ``kind`` stored as ``name`` (as
        ``taught_examples`` lists it): a wrong tap found later, its face's other examples
        kept.  Returns the labels whose examples changed (none: no such example)."""
        label = parse_face(label).label
        for path in self._examples(label, kind):
            if path.name == name:
                try:
                    path.unlink()
                except FileNotFoundError:
                    break
                except OSError as error:
                    reason = error.strerror or error
                    raise OSError(f"could not forget the taught example {path}: {reason}") from None
                self._reload(label)
                return {label}
        return set()

    def _example_path(self, crop: np.ndarray, label: str, kind: str | None) -> Path:
        """Where ``crop`` taught as ``label`` for ``kind`` is kept: named by its pixels."""
        digest = hashlib.sha1(crop.tobytes()).hexdigest()[:16]
        return self.data_dir / label / (f"{digest}.png" if kind is None else f"{digest}.{kind}.png")

    def taught_examples(self, kind: str) -> dict[str, list[Path]]:
        """The stored examples taught for die kind ``kind`` that are read (``TAUGHT_PER_FACE``
        at most), by face, the newest first."""
        examples = {label: self._examples(label, kind)[:TAUGHT_PER_FACE] for label in self.taught_faces(kind)}
        return {label: paths for label, paths in examples.items() if paths}

    def examples_wanted(self, kind: str) -> dict[str, int]:
        """How many more examples each face of ``kind`` dice would keep for that kind: one
        example a face makes a set whole, and up to ``TAUGHT_PER_FACE`` read it surer."""
        taught = self.taught_examples(kind)
        return {label: TAUGHT_PER_FACE - len(taught.get(label, ())) for label in die_kind(kind).labels}

    def _examples(self, label: str, kind: str | None) -> list[Path]:
        """``label``'s stored examples taught for ``kind`` (None: for no kind named), the newest first."""
        paths = (self.data_dir / label).glob("*.png")
        return newest_first(path for path in paths if taught_kind(path) == kind)

    def forget(self, label: str | None = None, kind: str | None = None) -> set[str]:
        """Delete the taught examples of ``label``, or of every face; only those taught for
        die kind ``kind``, if it is named.  Returns the labels whose examples changed.  A
        file that cannot be deleted is passed over, the rest forgotten, and then an OSError
        names it."""
        labels = [parse_face(label).label] if label is not None else self._taught_folders()
        changed, stuck = set(), []
        # what this classifier holds in memory too: an example deleted by hand from the folder
        # is forgotten there, and must be here as well (all of it, for every face); a face's
        # embeddings are made again only where its files changed, a second or so for a card set
        looked = set(labels) | (set(self.prototypes) if label is None else set())
        for name in labels:
            for path in (self.data_dir / name).glob("*.png"):
                if not path.is_file() or kind not in (None, taught_kind(path)):
                    continue
                try:
                    path.unlink()
                    changed.add(name)
                except OSError as error:
                    stuck.append(f"{path} ({error.strerror or error})")
        for name in looked:
            on_disk = [path.name for path in self._kept_examples(name)]
            if name in changed or on_disk != self._loaded.get(name, []):
                self._reload(name)
                changed.add(name)
        if stuck:
            error = OSError(f"could not forget {len(stuck)} taught examples: {'; '.join(stuck[:3])}")
            error.changed = changed  # what was forgotten all the same, for the other face model
            raise error
        return changed

    def reload_learned(self, labels) -> None:
        """The taught examples of ``labels`` as the folder holds them now: another classifier
        reading from the same folder (the other face model) has learnt or forgotten some
        (``learn`` returns the labels it changed)."""
        for label in labels:
            self._reload(label)

    def learned(self) -> dict[str, int]:
        """How many taught examples each label has (counting each one's turns and variations once)."""
        views = 4 + TAUGHT_VARIATIONS
        return {label: len(protos) // views for label, protos in self.prototypes.items()}

    def taught_faces(self, kind: str) -> list[str]:
        """The faces of ``kind`` dice that have an example taught for that kind."""
        return [label for label in die_kind(kind).labels if kind in self.taught_for.get(label, ())]

    def whole_sets(self) -> set[str]:
        """The die kinds whose every face is taught for that kind: dice sets taught whole."""
        return {name for name, kind in DIE_KINDS.items() if len(self.taught_faces(name)) == len(kind.labels)}

    def _add_prototypes(self, label: str, crops, kinds: Sequence[str | None]) -> None:
        """``crops`` as examples of ``label``, each taught for the die kind in ``kinds``."""
        # A die can land turned any way: each example is stored at its four right-angle turns,
        # and as varied views of it, seeded by its pixels so that a restart stores the same.
        shown, is_varied, row_kinds = [], [], []
        for crop, kind in zip(crops, kinds, strict=True):
            crop = self._fit(crop)
            seed = int.from_bytes(hashlib.sha1(crop.tobytes()).digest()[:8], "little")
            shown += [np.rot90(crop, k) for k in range(4)]
            shown += varied(crop, TAUGHT_VARIATIONS, np.random.default_rng(seed))
            is_varied += [False] * 4 + [True] * TAUGHT_VARIATIONS
            row_kinds += [kind] * (4 + TAUGHT_VARIATIONS)
        logits, embeddings = self._run(self.prepare(shown))
        cosines, is_varied, row_kinds = logits / self.scale, np.array(is_varied), np.array(row_kinds, object)
        if label in self.prototypes:
            embeddings = np.concatenate([self.prototypes[label], embeddings])
            cosines = np.concatenate([self.taught_cosines[label], cosines])
            is_varied = np.concatenate([self.taught_varied[label], is_varied])
            row_kinds = np.concatenate([self.example_kinds[label], row_kinds])
        self.prototypes[label], self.taught_cosines[label] = embeddings, cosines
        self.taught_varied[label], self.example_kinds[label] = is_varied, row_kinds
        self._taught_stacks.clear()

    def _load_learned(self) -> None:
        for label in self._taught_folders():
            self._reload(label)

    def _taught_folders(self) -> list[str]:
        """The faces with a folder of examples on disk (any readable or not)."""
        try:
            if not self.data_dir.is_dir():
                return []
            return sorted(p.name for p in self.data_dir.iterdir() if p.is_dir() and p.name in ALL_LABELS)
        except OSError as error:  # a folder this user may not read: the network reads on untaught
            log.warning("cannot read the taught examples in %s (%s)", self.data_dir, error.strerror or error)
            return []

    def _kept_examples(self, label: str, warn: bool = False) -> list[Path]:
        """``label``'s stored examples that are read: the newest ``TAUGHT_PER_FACE`` of each die
        kind, as ``learn`` keeps (hundreds put there by hand slowed every reading; the spares
        ``learn`` keeps are not read); by name."""
        folder = self.data_dir / label
        by_kind: dict[str | None, list[Path]] = {}
        for path in newest_first(folder.glob("*.png")):
            by_kind.setdefault(taught_kind(path), []).append(path)
        for kind, paths in by_kind.items():
            if warn and len(paths) > TAUGHT_PER_FACE + TAUGHT_SPARE:
                log.warning(
                    "%s has %d examples of %s taught for %s: the newest %d are read, as a face keeps",
                    folder,
                    len(paths),
                    label,
                    kind or "no die kind",
                    TAUGHT_PER_FACE,
                )
        return sorted(path for paths in by_kind.values() for path in paths[:TAUGHT_PER_FACE])

    def _reload(self, label: str) -> None:
        """``label``'s prototypes from the crops stored for it (none left: its folder goes)."""
        self.prototypes.pop(label, None)
        self.taught_cosines.pop(label, None)
        self.taught_varied.pop(label, None)
        self.example_kinds.pop(label, None)
        self.taught_for.pop(label, None)
        self._taught_stacks.clear()
        folder = self.data_dir / label
        kept = self._kept_examples(label, warn=True)
        self._loaded[label] = [path.name for path in kept]
        read = []
        for path in kept:
            try:
                crop = read_picture(path)
            except OSError as error:  # there, but not to be read now (locked, no permission): kept
                log.warning("the taught example %s cannot be read now: %s", path, error)
                continue
            if crop is not None:
                read.append((path, crop))
                continue
            # a damaged example (a disk that filled as it was written) teaches nothing, yet would
            # be counted, shown as a broken picture and kept from being forgotten
            log.warning("the taught example %s cannot be read: it is forgotten", path)
            with contextlib.suppress(OSError):
                path.unlink()
        if read:
            self.taught_for[label] = {taught_kind(path) for path, _ in read}
            self._add_prototypes(label, [crop for _, crop in read], [taught_kind(path) for path, _ in read])
        elif folder.is_dir() and not any(folder.iterdir()):
            with contextlib.suppress(OSError):  # an empty folder the data folder keeps: harmless
                folder.rmdir()


def newest_first(paths) -> list[Path]:
    """Taught examples' paths, the newest written first (a file gone meanwhile: last)."""

    def written(path: Path) -> tuple[int, str]:
        try:
            return path.stat().st_mtime_ns, path.name
        except OSError:
            return 0, path.name

    return sorted(paths, key=written, reverse=True)


def taught_kind(path: Path) -> str | None:
    """The die kind a stored example was taught for: ``<digest>.<kind>.png``, or none named."""
    parts = path.name.split(".")
    return parts[1] if len(parts) == 3 else None


def varied(crop: np.ndarray, count: int, rng) -> list[np.ndarray]:
    """``count`` views of a square BGR crop as a camera might show its face again: turned
    any way, tilted up to about 8% of its side at each corner, moved by up to 5% of its side
    and scaled by up to 15%,
    its channels' gains changed by up to 25%, sometimes defocused, with some sensor noise.
    The edges fill with the crop's own border pixels, as a die's surroundings."""
    side = crop.shape[0]
    corners = np.float32([[0, 0], [side, 0], [side, side], [0, side]])
    views = []
    for _ in range(count):
        centre = side / 2 + rng.uniform(-0.05, 0.05, 2) * side
        turn = cv2.getRotationMatrix2D(tuple(centre), rng.uniform(0, 360), rng.uniform(0.85, 1.15))
        moved = corners + rng.uniform(-0.08, 0.08, (4, 2)).astype(np.float32) * side
        warp = np.vstack([turn, [0, 0, 1]]) @ cv2.getPerspectiveTransform(corners, moved)
        view = cv2.warpPerspective(crop, warp, (side, side), borderMode=cv2.BORDER_REFLECT101)
        view = view.astype(np.float32)
        view *= rng.uniform(0.75, 1.25, 3)
        if rng.random() < 0.4:
            view = cv2.GaussianBlur(view, (0, 0), rng.uniform(0.4, 1.2) * side / 64)
        view += rng.normal(0, rng.uniform(0, 5), view.shape)
        views.append(np.clip(view, 0, 255).astype(np.uint8))
    return views


def noisy(crops: np.ndarray) -> np.ndarray:
    """Which of N x S x S BGR uint8 crops are noisy: a robust estimate of their sensor noise
    reaches ``NOISY`` grey levels, or JPEG has left it blotchy (``BLOTCHY``).  The estimate is
    the median response to ``NOISE_MASK`` (the print's edges are too few to move a median),
    scaled as for Gaussian noise; it reads low where white print clips the noise (about 5 for
    noise of 8 on rendered faces), but in step with it.  A median reaches a level when at most
    half the values fall below it: a count, far cheaper than a median.  One filter over the
    crops stacked: each crop's rim, where neighbours meet, is left out."""
    n, height, width = crops.shape[:3]
    grey = cv2.cvtColor(crops.reshape(n * height, width, 3), cv2.COLOR_BGR2GRAY)
    response = np.abs(cv2.filter2D(grey, cv2.CV_16S, NOISE_MASK)).reshape(n, height, width)
    # Gaussian noise of sigma gives responses of 6 sigma (the mask's norm), median |r| 0.6745 of that
    below = response[:, 1:-1, 1:-1] < NOISY * 0.6745 * 6
    # the crops side by side for the median: OpenCV's takes 100 times longer down a tall strip
    wide = np.ascontiguousarray(grey.reshape(n, height, width).transpose(1, 0, 2).reshape(height, n * width))
    apart = cv2.absdiff(wide, cv2.medianBlur(wide, 5)).reshape(height, n, width).transpose(1, 0, 2)
    near = apart[:, 2:-2, 2:-2] < BLOTCHY
    return (below.mean((1, 2)) <= 0.5) | (near.mean((1, 2)) <= 0.5)


def smooth_noisy(crops: np.ndarray) -> np.ndarray:
    """N x S x S BGR uint8 crops as floats (0-255), each noisy one (``noisy``) smoothed, keeping
    its print's edges (a bilateral filter): the network reads a smoothed noisy crop better
    than the raw one (docs/vision.md).  Smoothed in floats, a crop turned a right angle
    smooths to the crop smoothed and turned; in bytes, a fifth of noisy crops came out a grey
    level apart in places, and read a little differently turned.  Floats cost 9 noisy crops
    0.92-0.96 ms against 0.67-0.68 ms in bytes (this 2-core machine, medians, three runs):
    under 1% of a 30 fps frame's time, and only where the camera's picture is noisy."""
    smoothed = crops.astype(np.float32)
    for i in np.flatnonzero(noisy(crops)):
        smoothed[i] = cv2.bilateralFilter(smoothed[i], 5, 40, 3)
    return smoothed


def widened(batch: np.ndarray) -> np.ndarray:
    """Prepared crops (N x 3 x S x S), each with a margin of its own edge pixels, at the same
    size: the face smaller within it."""
    size = batch.shape[2]
    margin = round(size * WIDEN_MARGIN)
    return resampled(np.pad(batch, ((0, 0), (0, 0), (margin, margin), (margin, margin)), mode="edge"), size)


def narrowed(batch: np.ndarray) -> np.ndarray:
    """Prepared crops (N x 3 x S x S), each cut to its middle and enlarged to the same size:
    the face larger within it."""
    size = batch.shape[2]
    cut = round(size * (1 - NARROW_KEEP) / 2)
    return resampled(batch[:, :, cut : size - cut, cut : size - cut], size)


def balanced(batch: np.ndarray) -> np.ndarray:
    """Prepared crops with their white balanced: each channel scaled to the crop's mean grey
    (a lamp's colour cast the camera left in)."""
    means = batch.mean((2, 3), keepdims=True)
    return np.clip(batch * (means.mean(1, keepdims=True) / np.maximum(means, 1e-3)), 0, 1)


def stretched(batch: np.ndarray) -> np.ndarray:
    """Prepared crops with their contrast stretched: the 2nd to 98th percentiles of each to 0-1
    (a dim or washed-out face)."""
    low, high = np.percentile(batch, (2, 98), axis=(1, 2, 3), keepdims=True)
    return np.clip((batch - low) / np.maximum(high - low, 0.05), 0, 1)


def resampled(batch: np.ndarray, size: int) -> np.ndarray:
    """N x 3 x H x W float crops at size x size, in their own float type.  Linear and in floats,
    so symmetric about the centre: a crop turned a right angle is reframed as it would be unturned."""
    channels_last = np.ascontiguousarray(batch.transpose(0, 2, 3, 1))
    out = [cv2.resize(crop, (size, size), interpolation=cv2.INTER_LINEAR) for crop in channels_last]
    return np.stack(out).transpose(0, 3, 1, 2).copy()


# The second look's ways of showing an unsure crop again: framed wider and tighter, its white
# balanced, its contrast stretched.  All act on the prepared crops and commute with a turn.
SECOND_LOOKS = (widened, narrowed, balanced, stretched)


def load_session(path: Path) -> ort.InferenceSession:
    if not path.is_file():
        raise ModelFileError(
            f"face model file not found: {path} (train one with `python -m models.train_faces`)"
        )
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1  # small batches: threads cost more than they save
    options.log_severity_level = 3
    try:
        return ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
    except Exception as error:  # onnxruntime raises its own exception types for bad files
        raise ModelFileError(f"face model file {path} is corrupt or not an ONNX model: {error}") from None


def softmax(logits: np.ndarray) -> np.ndarray:
    shifted = logits - logits.max(1, keepdims=True)
    e = np.exp(shifted)
    return e / e.sum(1, keepdims=True)
