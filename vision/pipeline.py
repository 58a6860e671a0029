"""Pixels in, dice out: detect each top face, rectify it, read it.

from vision.pipeline import read_image
dice = read_image(bgr, kind="d6")               # one DieReading per die found
dice[0].label, dice[0].confidence, dice[0].quad

reader = DiceReader(kind="square-shooters")     # the same, as DieReadings, for a video loop
readings = reader.read(frame)

read_image reads faces with the default face model (models/faces.onnx), which reads best; a
DiceReader, made for video, with the camera's (models/faces-fast.onnx) unless given another.
"""

from __future__ import annotations

import functools
from dataclasses import replace

import numpy as np

from scoring.faces import die_kind
from vision.detector import VIDEO_SIDE_FACE_MARGIN, Detector, without_side_faces
from vision.faces import ALL_TURNS, FAST_MODEL, PIP_KINDS, FaceClassifier, FaceReading
from vision.readings import DieReading, DieReadings, as_bgr, rectify

# A video frame's find is kept from this detector score whatever the classifier says; below
# it, only if the classifier does not call it no face (at its network's own cut,
# ``FaceClassifier.not_a_face``: 0.7 for the default network, which reads photos, and 0.8 for
# the camera's, each in its file; docs/vision.md, "The face check's cut"). A photo's find is
# kept so from ``UNREAD_KEPT_FROM``: at 0.7-0.8, the finds the classifier called no face were
# 17 dice to 2 false finds over the rendered photo sets, though 1 find (kept unread) on 18 real
# photos with no dice (docs/vision-limits.md, session 51).
SURE_FIND = 0.8
# A photo's face read unsure is cut again from its quad grown and shrunk about its centre by
# these factors: the detector's corners are off by about a tenth of the face (models/detector.md),
# and real pixels beyond a corner read better than the classifier's own reframing.
RECUTS = (1.12, 0.9)
# A photo's pip die whose cut shows no clean pip layout is counted again (``vision.pips``) cut
# this much wider: the detector's corners fall inside the face about as often as outside it,
# and a corner pip the cut touches stops the count. On the held-out pip photos' finds it counted
# 166 of the 376 number dice, not 141, none wrong (docs/vision.md, "Counting pips", session 82).
PIP_RECOUNT = 1.12
# Faces read below this are cut again: above the second look's bar (0.8), since a photo has
# time to spare, and a pip die cut off centre can read a sure-looking 1 (session 17: 0.9 read
# more dice right in four of six rendered sets and fewer in none; docs/vision.md).
RECUT_BELOW = 0.9
# A photo's find with smaller finds on it silences them as its print (pips, a frame's squares)
# when it reads as a face this surely and each of them as one plain mark (``is_print``): a crop
# round a group of dice read CUBES or 6 at 0.55-0.81 on the held-out scenes, and one round three
# d6 dice read a 3 at 0.98, but the group's dice read as their own faces; a die under its
# square pips read 1.0, and the squares BLANK (docs/vision-limits.md, session 32).
SURE_CONTAINER = 0.9
# A photo's find that no look reads as a face is kept, for a tap, from this detector score;
# below it is most often not a die (held-out scenes: 9 of 14 such finds false, 3 real dice
# lost). Photos before -> after (session 32): precision up 0.3-3.3 points, recall down 0.2-0.6,
# faces read right unchanged, images wholly right up 0-8 (docs/vision-limits.md, session 32).
UNREAD_KEPT_FROM = 0.7
PLAIN_MARKS = frozenset({"1", "BLANK", "AS", "AH", "AD", "AC"})  # one pip, one square, one suit


class DiceReader:
    """A detector and a face classifier, reading the faces one die kind may show."""

    def __init__(
        self, kind: str = "d6", detector: Detector | None = None, classifier: FaceClassifier | None = None
    ):
        self.die_kind = die_kind(kind)  # an unknown kind fails here, before any model loads
        self.kind = kind
        self.detector = detector if detector is not None else Detector()
        self.classifier = classifier if classifier is not None else FaceClassifier(FAST_MODEL)
        self.frames_read = 0

    def read(self, frame: np.ndarray, still: bool = False, unreadable: bool = False) -> DieReadings:
        """The dice in ``frame``; a ``still`` (a photo, not a video frame) is searched at
        several scales and its faces read at four turns, unsure ones given a second look (see
        ``FaceClassifier.classify``) and cut again (``recut_unsure``), slower but surer. A
        find the classifier calls no face is kept only where the detector is sure of it
        (``SURE_FIND``, in a photo ``UNREAD_KEPT_FROM``); a photo's find is judged so on its
        surest cut, since the detector's corners can cut a plain face down to what reads as
        table (a white blank die: `none` 0.98, cut 12% wider BLANK 0.89). A photo's find
        whose face is still unread once cut again is kept from ``UNREAD_KEPT_FROM`` too,
        unless ``unreadable`` asks for every such find (a set shown to the camera to be
        taught: the dice it cannot read are the ones to teach).
        Video frames are read at one turn each, the next one each frame, so that the tracker's
        vote over a settled roll's frames sees each die turned every way for the price of one.
        Either way, a find too near a surer one is dropped as that die's side face (in a video
        frame only if it is clearly less sure: ``without_side_faces``)."""
        frame = as_bgr(frame, "picture")
        found = self.detector.detect_at_scales(frame, self.is_print) if still else self.detector.detect(frame)
        found = without_side_faces(found, surer_by=0.0 if still else VIDEO_SIDE_FACE_MARGIN)
        turns = ALL_TURNS if still else (self.frames_read % len(ALL_TURNS),)
        self.frames_read += 1
        if len(found) == 0:
            return found
        crops = rectify(frame, found.quads)
        wider = rectify(frame, scaled(found.quads, PIP_RECOUNT)) if still and self.kind in PIP_KINDS else None
        faces = self.classifier.classify(
            crops, kind=self.kind, turns=turns, second_look=still, pips=still, wider=wider
        )
        if still:
            self.recut_unsure(frame, found.quads, faces, crops)
        # A second opinion on the detector's unsure finds: the classifier knows what is not a
        # die face (table, card, chip).  Sure finds stay, even unreadable, for a tap to fix; a
        # photo's unsure ones must also be read as a face, so it trusts the detector sooner.
        sure, not_a_face = (UNREAD_KEPT_FROM if still else SURE_FIND), self.classifier.not_a_face
        keep = [
            i
            for i, face in enumerate(faces)
            if found.scores[i] >= sure
            or (face.nothing < not_a_face and (face.label is not None or not still or unreadable))
        ]
        found, faces, crops = found[keep], [faces[i] for i in keep], [crops[i] for i in keep]
        if self.die_kind.each_face_once and len(faces) <= self.die_kind.dice:
            faces = each_face_once(faces, self.classifier.min_confidence)
        return found.with_faces(faces, crops)

    def is_print(self, frame: np.ndarray, die: np.ndarray, marks: np.ndarray) -> bool:
        """Whether the finds at ``marks`` are print on the die at ``die`` (quads of ``frame``):
        the die reads surely as a face of this kind (from its find, or cut again as a photo's
        unsure face is: ``RECUTS``), and each mark as a plain mark (a pip reads as a 1 or a
        blank, a suit symbol as an ace) or as nothing. A group of dice found as one may read
        as a face too (three dice as a three), but its dice read as their own faces."""
        crops = rectify(frame, np.concatenate([die[None], marks]))
        whole, *printed = self.classifier.classify(crops, kind=self.kind, turns=ALL_TURNS, second_look=False)
        if not all(face.label is None or face.label in PLAIN_MARKS for face in printed):
            return False
        if whole.label is not None and whole.confidence >= SURE_CONTAINER:
            return True
        # the detector's corners are off by about a tenth of a face: cut the die again as a
        # photo's unsure face is cut (a 6 printed with square pips read under 0.9 from its
        # find, its squares five BLANK dice; docs/vision-limits.md, session 72)
        recut = rectify(frame, [scaled(die, scale) for scale in RECUTS])
        again = self.classifier.classify(recut, kind=self.kind, turns=ALL_TURNS, second_look=False)
        return any(face.label is not None and face.confidence >= SURE_CONTAINER for face in again)

    def recut_unsure(self, frame: np.ndarray, quads: np.ndarray, faces: list, crops: list) -> None:
        """Each face read below ``RECUT_BELOW`` cut again from its quad scaled by each of
        ``RECUTS`` and read as a photo; a cut that names a face more surely replaces the
        reading and its crop (in place)."""
        unsure = [i for i, face in enumerate(faces) if face.confidence < RECUT_BELOW]
        if not unsure:
            return
        recut = [crop for scale in RECUTS for crop in rectify(frame, scaled(quads[unsure], scale))]
        again = self.classifier.classify(recut, kind=self.kind, turns=ALL_TURNS, second_look=True)
        for k, (face, crop) in enumerate(zip(again, recut, strict=True)):
            i = unsure[k % len(unsure)]
            if face.label is not None and face.confidence > faces[i].confidence:
                faces[i], crops[i] = face, crop


def scaled(quads: np.ndarray, scale: float) -> np.ndarray:
    """``quads`` (..., 4, 2) grown (``scale`` over 1) or shrunk about their own centres."""
    centres = quads.mean(-2, keepdims=True)
    return centres + (quads - centres) * scale


def each_face_once(faces: list[FaceReading], least: float) -> list[FaceReading]:
    """The readings of one roll of a set that prints each face once (Square Shooters' dice
    are one deck): where dice read the same face, the surest keeps it and each other takes
    its likeliest face not yet taken, if that is at least ``least`` of what its reading
    leaves once the taken faces are set aside; else it is unreadable, for a tap to fix.
    More dice than the set holds are two sets, and are left alone by the caller. (A roll the
    web page records must name every die, so `webui.camera.guess_faces` then fills each
    unreadable one with its likeliest free face, marked unsure.)"""
    kept = list(faces)
    taken: set[str] = set()
    for i in sorted(range(len(faces)), key=lambda i: -faces[i].confidence):
        face = faces[i]
        if face.label is None:
            continue
        if face.label not in taken:
            taken.add(face.label)
            continue
        label, p = next(((label, p) for label, p in face.top if label not in taken), (None, 0.0))
        left = 1.0 - sum(p for label, p in face.top if label in taken)
        sure = label is not None and p >= least * left
        kept[i] = replace(face, label=label if sure else None, confidence=p)  # unreadable: best free face's p
        if sure:
            taken.add(label)
    return kept


@functools.cache
def default_reader(kind: str) -> DiceReader:
    return DiceReader(kind, default_detector(), default_classifier())


@functools.cache
def default_detector() -> Detector:
    return Detector()


@functools.cache
def default_classifier() -> FaceClassifier:
    return FaceClassifier()


def read_image(bgr: np.ndarray, kind: str = "d6") -> list[DieReading]:
    """Every die found in a BGR photo (searched at several scales, see ``DiceReader.read``),
    with its face read as a die of ``kind``."""
    return list(default_reader(kind).read(bgr, still=True))
