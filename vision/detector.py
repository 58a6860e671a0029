"""Find the top face of every die in a frame, whatever it shows: an ONNX model, centre-net style.

    detector = Detector()                       # models/detector.onnx
    found = detector.detect(frame)              # DieReadings: quads, scores, cocked; no labels yet

The model file's contract (models/train_detector.py writes it, models/detector.md describes it):
input ``image``, float32 1x3xHxW, BGR scaled to 0..1, the frame resized to the W x H given in
the metadata (``input_width``, ``input_height``, ``stride``); outputs at 1/stride resolution:

- ``heat``    1x1xhxw  probability that a top face's centre lies in the cell;
- ``corners`` 1x8xhxw  the face's four corners, (dx, dy) each, from the cell's centre, in cells;
- ``cocked``  1x1xhxw  probability that the die there leans on something.

A file whose input height and width are named, not numbered (models/detector.onnx), takes
any size that is a multiple of 16: a frame far from its 4:3 is then padded only to the next
multiple of ``PAD_STEP``, not to the whole 4:3 view.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import onnxruntime as ort

from vision.readings import DieReadings

# (a photo, a find's quad, the quads of the smaller finds on it) in: whether those are print on
# that die's face (the reader's classifier looks at the pixels: ``DiceReader.is_print``)
PrintCheck = Callable[[np.ndarray, np.ndarray, np.ndarray], bool]
DEFAULT_MODEL = Path(__file__).resolve().parent.parent / "models" / "detector.onnx"
SURE_ALONE = 0.6  # a still's find seen at one scale only is kept from this score (see merge)
MIN_TILE = 32  # a photo smaller than this in a quarter is not searched by quarters
TILE_OVERLAP = 0.4  # of a tile's side shared with its neighbour (quarters: 5/8 of the frame)
# A cap on time: 8 x 8 tiles (64 in all) take about half a second here. It binds above 12 megapixels,
# whose tiles the network then sees shrunk more than twice (a 48-megapixel photo's, 4 times).
MOST_TILES = 8
# Dice that fill much of a photo: the frame is also shown at a third, a quarter and an eighth
# of the network's view inside a border (the border pass shows it at a half), and a find there
# counts only at this side or more in the network's input: a smaller one is a die the finer
# passes see better, or a group of dice taken for one.  The third lets a die of 150-500 px in a
# close photo be seen by two passes, not by the quarter alone: on the close-up pip-dice photos
# (`render --close`) it found 91.5% of the dice, not 85.9% (docs/vision-limits.md, session 83).
BIGGER_ZOOM_OUTS = (3, 4, 8)
BIG_SIDE = 16
MOST_STRETCH = 1.15  # frames further than this from the network's aspect are padded, not stretched
# A 16:9 webcam frame fills 384x216 of the 384x288 view; padded to 384x224 instead, the
# network has 22% less to do (``detect`` 6.8 against 8.2 ms a 1280x720 frame), and on 16:9
# and 9:16 framings of the held-out scenes it found as many dice, read them as well and made
# fewer false finds (docs/vision-limits.md, session 38). 32, not the network's 16, keeps a phone held upright
# (9:16) at 192 px wide, where 176 lost a little recall.
PAD_STEP = 32
# Dice in one frame are one size, give or take the camera's tilt. A find under 0.4x the side of
# the frame's sure dice is a table pattern: chosen on training scenes (with 2.5x above), where it
# cost no recall; on the held-out scenes it lifted the seed-1 detector's precision from 69.5% to 77.3%.
ODD_SIZE = 0.4
# A find over 2x is a card's print or the like (one read as a 6 beside a die, a photo-table
# render): the held-out photos lost no die to 2x, and Cubes lost 2 to 0.5x at the small end
# (docs/vision-limits.md, session 81).
ODD_BIGGER = 2.0
# Finds whose centres are closer than this share of a face's side are one die (its heat
# peaking twice, or the passes of a photo finding it again).
SAME_DIE = 0.5
# Two dice's top faces mostly lie a side apart or more, so of two finds closer than this the
# less sure one may be a side face of the other's die (a tilted camera sees them): on the
# 1280x960 d6 renders, read as photos, precision 90.9% -> 94.6% for one leaning die of 228.
TOP_FACES_APART = 0.9
# ... and is one only when the two share an edge, both its ends within this share of the
# smaller find's side: a side face meets its top face along an edge of the die, while two
# dice's top faces lie side by side, seldom end to end. Seen at a slant a top face is shorter
# up the picture than its side (the square root of its area), so two dice touching in depth
# lie nearer than TOP_FACES_APART, and the less sure one was dropped. Photos, recall /
# precision / faces read right / wholly right, before -> after (session 34): held-out scenes
# 95.6 / 95.1 / 75.5% / 78 -> 96.1 / 94.8 / 75.9% / 79 of 184; 1280x960 d6 93.9 / 96.8 /
# 90.4% / 30 -> 94.3 / 96.8 / 90.4% / 30 of 48; Cubes 88.7 / 87.2 / 83.5% / 9 -> 89.6 / 86.6 /
# 84.3% / 8 of 24; one video frame 95.0 / 91.2 / 62.5% -> 95.1 / 91.2 / 62.6% (docs/vision.md).
SIDE_FACE_EDGE = 0.4
# In one pass of the network, a find whose centre lies on a sure find (``SURE_ALONE``) over
# 1/PRINT_SHARE times its side is print on that die's face (a pip, a frame's square), not a
# die: no die's top face lies on another's, and a pip is at most about 0.3 of a face. One video
# frame's pass, held out: precision 90.8% -> 91.2%, no die lost. Across a photo's passes the
# outlines alone are not enough: a sure find around a cluster of dice, from a pass that saw
# them small, silenced the dice that finer passes found (docs/vision-limits.md, session 27);
# there the bigger find must also read as a die's face (``without_print_or_groups``, session 32).
PRINT_SHARE = 0.3
# A video frame's single pass scores a side face above its top face more often, so there the
# nearer find must also be this much less sure to go (see ``without_side_faces``).
VIDEO_SIDE_FACE_MARGIN = 0.15
# A photo's find is looked at again with its face this many pixels across in the network's
# input, and the find there is averaged into its corners if it lies within REFINE_SHIFT of a
# face of it and is REFINE_SIZE times as big (``Detector.refined``). Chosen on the 1280x960
# held-out d6 photos, as they are and padded to 2560x960, among 32-56 px, 0.15-0.5 and
# 0.7-1.4 or any size, and averaging against replacing (docs/vision.md).
REFINE_SIDE = 32
REFINE_SHIFT = 0.25
REFINE_SIZE = (0.7, 1.4)
# A photo's mirror look sees the whole frame at the network's size, so in a photo bigger than
# that, a die the first look is unsure of may be too small there to be seen again. Such a
# find, seen under this many network pixels by the whole mirror look and missed by it, is
# looked at mirrored in a window that shows it at REFINE_SIDE instead (``mirror_look``).
# Photos, before -> after (session 34): 1280x960 d6 94.3 / 96.8 / 90.4% / 30 -> 95.2 / 96.9 /
# 91.2% / 31 of 48; Cubes 89.6 / 86.6 -> 89.6 / 84.4%, faces unchanged; unchanged the 320x240
# held-out scenes (no bigger than the network's view) and close-ups (big dice; docs/vision.md).
MIRROR_WINDOW_BELOW = 20
# A camera far from the table (a webcam's 1280x720 showing dice 16-20 px across) leaves its dice
# under SMALL_IN_TILES network pixels even in a photo's finest tiles, which shrink the frame at
# least twice (a phone photo's dice, 60-150 px, need no finer), and the network finds few dice
# that small (docs/vision-limits.md, session 77). Where a photo's finds are, the frame round
# them (CLOSER_MARGIN of their sides) is searched again in tiles enlarged to show them at
# CLOSER_SIDE, at most MOST_CLOSER_TILES across either way (``closer_tiles``; session 79).
# At 14 the Hubble photo's galaxies gave no false dice, but the held-out Cubes photos, halved
# in the middle of a 1280x960 frame, lost 5 points of recall (docs/vision-limits.md, session 80).
SMALL_IN_TILES = 16
CLOSER_SIDE = 28
# ... unless they are under this many pixels in the frame, too small to read however enlarged
# (``vision.framing``'s bars for reading are 18-26 px): a page's letters, 6-7 px, were taken
# for them, and its closer tiles found 12 more false dice.
SMALLEST_CLOSER = 14
CLOSER_MARGIN = 3
MOST_CLOSER_TILES = 10
# A find leans when the network's cocked output reaches this. A model file may carry its own
# (metadata ``leaning_from``, chosen on training-split scenes it never saw: models/detector.md).
LEANING_FROM = 0.5
# Looked at both ways, a find's leaning score is the mean of the two ways', which seldom both
# reach a bar chosen for one: the bar is this much lower there. Chosen by the file's own rule
# (the lowest bar that flags no more flat dice on unseen training-split scenes than before,
# 0.75 / 0.775 / 0.8 tried on val-cards-hires and val-cubes-hires). Held-out stills as photos,
# leaning dice flagged (flat dice flagged): one way 80.7% (10.1%), both ways at the file's 0.8
# 61.4% (8.1%), at 0.775 70.2% (10.9%) (docs/vision-limits.md, session 85). A set with ten times
# the leaning dice (data/scenes/train-leaning, 225) agrees within a die: one way 71.6% (20.7%),
# both ways at 0.775 69.4% (20.9%), at 0.75 74.4% (24.1%) (session 86).
BOTH_WAYS_LEANING_DROP = 0.025
# Turns a mirror image's corner offsets, (dx, dy) for each of four corners, into the frame's: dx changes sign
MIRRORED_OFFSETS = np.float32([-1, 1] * 4)[:, None, None]


class DetectorFileError(RuntimeError):
    """The detector model file is missing or is not a usable detector."""


class Pyramid:
    """A frame and its halvings, each made when a window first needs it, and the frame's mean
    colour, to paint where a window leaves the frame."""

    def __init__(self, frame: np.ndarray):
        self.levels = [frame]
        self.fill = [float(v) for v in cv2.mean(frame)[:3]]

    def halved(self, times: int) -> np.ndarray:
        while len(self.levels) <= times:
            self.levels.append(cv2.pyrDown(self.levels[-1]))
        return self.levels[times]


class Detector:
    """Top faces of dice in BGR frames, as ``DieReadings`` (quads in frame coordinates)."""

    def __init__(
        self,
        model_path: str | os.PathLike | None = None,
        min_score: float = 0.4,
        threads: int = 1,
        stills_both_ways: bool = True,
    ):
        self.model_path = Path(model_path) if model_path is not None else DEFAULT_MODEL
        if not self.model_path.is_file():
            raise DetectorFileError(
                f"detector model file not found: {self.model_path} "
                "(train one with `python -m models.train_detector`)"
            )
        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        options.log_severity_level = 3
        try:
            self.session = ort.InferenceSession(
                str(self.model_path), options, providers=["CPUExecutionProvider"]
            )
            meta = self.session.get_modelmeta().custom_metadata_map
            self.width, self.height = int(meta["input_width"]), int(meta["input_height"])
            self.any_size = not all(isinstance(side, int) for side in self.session.get_inputs()[0].shape[2:])
            self.stride = int(meta["stride"])
            self.leaning_from = float(meta.get("leaning_from", LEANING_FROM))
        except (KeyError, ValueError) as error:
            raise DetectorFileError(
                f"detector model file {self.model_path} lacks its metadata ({error})"
            ) from None
        except Exception as error:  # onnxruntime raises its own exception types for bad files
            raise DetectorFileError(f"detector model file {self.model_path} is corrupt: {error}") from None
        self.min_score = min_score
        self.stills_both_ways = stills_both_ways

    def detect(self, frame: np.ndarray, both_ways: bool = False) -> DieReadings:
        """The dice in ``frame`` as one pass of the network sees them; ``both_ways``, as the
        frame and its mirror image see them together: their heat and leaning maps averaged, each
        find's corners the mean of both passes' (``decode``), and a find leaning from a bar
        ``BOTH_WAYS_LEANING_DROP`` lower than one way's.  A still's looks are taken both
        ways (``stills_both_ways``): a pattern the network takes for a die one way round seldom
        looks like one the other way, and the two passes' corners err apart.  Held-out photos and
        real photos without dice lost 29 of 271 errors (docs/vision-limits.md, session 84); the
        camera keeps one pass, within its frame's time."""
        small, scale, origin = self.fit(frame)
        batch = np.empty((1, 3, *small.shape[:2]), np.float32)
        for channel, plane in enumerate(cv2.split(small)):  # 4x faster than a numpy transpose
            batch[0, channel] = plane
        batch *= 1 / 255.0
        heat, corners, cocked = self.session.run(["heat", "corners", "cocked"], {"image": batch})
        heat, cocked, mirrored = heat[0, 0], cocked[0, 0], None
        if both_ways:  # the mirror image's maps, turned back to the frame's way round
            heat_m, mirrored, cocked_m = self.session.run(
                ["heat", "corners", "cocked"], {"image": np.ascontiguousarray(batch[..., ::-1])}
            )
            heat, cocked = (heat + heat_m[0, 0, :, ::-1]) / 2, (cocked + cocked_m[0, 0, :, ::-1]) / 2
            mirrored = mirrored[0, :, :, ::-1] * MIRRORED_OFFSETS
        leaning_from = self.leaning_from - (BOTH_WAYS_LEANING_DROP if both_ways else 0.0)
        found = decode(heat, corners[0], cocked, self.stride, self.min_score, leaning_from, mirrored)
        return keep_similar_sizes(found.shifted(-origin).scaled(scale))

    def look(self, image: np.ndarray) -> DieReadings:
        """One of a still's looks: ``detect``, both ways when ``stills_both_ways``."""
        return self.detect(image, both_ways=True) if self.stills_both_ways else self.detect(image)

    def detect_at_scales(self, frame: np.ndarray, is_print: PrintCheck | None = None) -> DieReadings:
        """For a still photo, where time is cheap and the dice may be any size: a first look at
        several scales (``passes_at_scales``), less the print on a die that a finer pass found
        as dice of their own and the groups of dice one coarse pass found as one die
        (``without_print_or_groups``, when the caller's ``is_print(frame, die, marks)`` is
        given), the finds unlike the sure dice of all passes in size dropped (a
        card, a cup or a group of dice seen as one) and the rest merged; then
        a second look at the frame mirrored left to right (``mirror_look``).  A find the first
        look is unsure of must be seen in the mirror image too, and a die leans when either
        look says so: on held-out scenes this dropped more false finds than dice and flagged more of the
        leaning dice (docs/vision.md).  Last, each die's corners are taken again from a
        window that shows it at the network's best size (``refined``).
        A photo taken upright (taller than wide) is looked at turned a quarter, lying as the
        network's 4:3 view lies: upright, every pass but the tiles showed it padded, its dice
        smaller (docs/vision-limits.md, session 65)."""
        height, width = frame.shape[:2]
        if height > width:
            lying = cv2.rotate(frame, cv2.ROTATE_90_CLOCKWISE)
            return self.detect_at_scales(lying, is_print).turned_back(height)
        passes = self.passes_at_scales(frame)
        # looked at both ways, the whole frame's pass has seen its mirror image already: it is
        # the mirror look's whole pass (two network runs fewer; docs/vision-limits.md, session 85)
        whole = passes[0] if self.stills_both_ways else None
        if is_print is not None:
            passes = without_print_or_groups(passes, frame, is_print)
        first_look = merge(like_sized(passes))
        return self.refined(frame, merge([first_look, self.mirror_look(frame, first_look, whole)]))

    def view(self, frame: np.ndarray) -> float:
        """Network pixels per frame pixel when the network sees the whole frame (``fit``; a
        frame near 4:3 is stretched a little along one side, and this is the lesser): a
        die's side in the frame times this is its side as ``detect`` sees it."""
        return min(self.width / frame.shape[1], self.height / frame.shape[0])

    def mirror_look(
        self, frame: np.ndarray, first_look: DieReadings, whole: DieReadings | None = None
    ) -> DieReadings:
        """The finds of the frame mirrored left to right, in frame coordinates (``whole``, where
        a look that held the mirror image already gives them); in a photo
        bigger than the network's view, also each unsure find of ``first_look`` that the
        whole look missed and saw small (``MIRROR_WINDOW_BELOW``), if a mirrored window
        showing it at ``REFINE_SIDE`` finds it again."""
        if whole is None:
            whole = self.look(cv2.flip(frame, 1)).mirrored(frame.shape[1])
        view = self.view(frame)
        if view >= 1:
            return whole
        again, pyramid = [], Pyramid(frame)
        for centre, side, score in zip(first_look.centers, first_look.sizes, first_look.scores, strict=True):
            seen = len(whole) > 0 and (np.linalg.norm(whole.centers - centre, axis=1) < SAME_DIE * side).any()
            if score < SURE_ALONE and not seen and side * view < MIRROR_WINDOW_BELOW:
                again.append(self.window_look(pyramid, centre, side, mirrored=True))
        return joined([whole, *(found for found in again if found is not None)])

    def refined(self, frame: np.ndarray, found: DieReadings) -> DieReadings:
        """Each find looked at again in a window around it that shows its face at
        ``REFINE_SIDE`` pixels of the network's input; the window's find nearest the die's
        centre, if it is the same die (within ``REFINE_SHIFT`` of a face, its side within
        ``REFINE_SIZE`` times), is averaged into the quad.  A photo's merged finds often
        come from a pass that saw the die small or cut by a tile, so their corners are off
        and the face is read from a worse crop; two looks at a die err apart, and their mean
        errs less than either (a pip die's face cut too tight reads as fewer pips)."""
        if len(found) == 0:
            return found
        quads = found.quads.copy()
        pyramid = Pyramid(frame)
        for i, (centre, side) in enumerate(zip(found.centers, found.sizes, strict=True)):
            again = self.window_look(pyramid, centre, side)
            if again is not None:
                quads[i] = averaged(quads[i], again.quads[0])
        return replace(found, quads=quads)

    def window_look(
        self, pyramid: Pyramid, centre: np.ndarray, side: float, mirrored: bool = False
    ) -> DieReadings | None:
        """The die at ``centre`` found again in a window of the frame that shows its face at
        ``REFINE_SIDE`` pixels of the network's input (the window ``mirrored`` left to right
        if asked): the window's find nearest ``centre``, if it is the same die (within
        ``REFINE_SHIFT`` of a face, its side within ``REFINE_SIZE`` times); else None."""
        # A big die is cut from the frame halved until its window is at most twice the
        # network's input: a die filling a 48-megapixel photo would want a window of GBs.
        times = max(0, math.ceil(math.log2(max(float(side), 1.0) / (2 * REFINE_SIDE))))
        scale = 2.0**times
        zoom = REFINE_SIDE / max(float(side) / scale, 1.0)  # network pixels per pixel cut
        width, height = round(self.width / zoom), round(self.height / zoom)
        x0, y0 = round(centre[0] / scale - width / 2), round(centre[1] / scale - height / 2)
        window = cut_window(pyramid.halved(times), x0, y0, width, height, pyramid.fill)
        seen = self.look(cv2.flip(window, 1)).mirrored(width) if mirrored else self.look(window)
        again = seen.shifted((x0, y0)).scaled(scale)
        if len(again) == 0:
            return None
        distances = np.linalg.norm(again.centers - centre, axis=1)
        nearest = int(np.argmin(distances))
        ratio = again.sizes[nearest] / max(float(side), 1.0)
        if distances[nearest] < REFINE_SHIFT * side and REFINE_SIZE[0] <= ratio <= REFINE_SIZE[1]:
            return again[[nearest]]
        return None

    def passes_at_scales(self, frame: np.ndarray) -> list[DieReadings]:
        """The finds of each way of looking at a still, in frame coordinates: the whole frame;
        the frame shrunk to half inside a padded border (dice too big for the network); four
        overlapping quarters enlarged (dice too small); in a big photo, a finer grid of tiles
        (dice too small even for the quarters); and the frame shrunk further still (dice that
        fill the photo), keeping only the big finds there."""
        height, width = frame.shape[:2]
        # A big photo is halved once for all the zoom-outs: the network sees it far smaller
        # anyway, and padding a 48-megapixel photo whole took 1.6 s.
        small = halved(frame, 4 * self.width, 4 * self.height)
        back = (width / small.shape[1], height / small.shape[0])
        passes = [self.look(frame), self.zoomed_out(small, 2).scaled(back)]
        for columns, rows in dict.fromkeys(((2, 2), self.finest_grid(width, height))):
            passes += self.tiled(frame, columns, rows)
        view = self.view(frame)
        for shrink in BIGGER_ZOOM_OUTS:
            found = self.zoomed_out(small, shrink).scaled(back)
            passes.append(found[found.sizes * view / shrink >= BIG_SIDE])
        # the closer tiles are one pass: a find there needs another pass to see it too, or to
        # be sure (``merge``), not only the tile beside it (a page's letters, a galaxy)
        closer = self.closer_tiles(frame, passes)
        return passes + [joined(closer)] if closer else passes

    def closer_tiles(self, frame: np.ndarray, passes: list[DieReadings]) -> list[DieReadings]:
        """The finds of tiles enlarged to show the dice of ``passes`` at ``CLOSER_SIDE``, over the
        part of the frame round their finds, when even the finest tiles showed them smaller than
        ``SMALL_IN_TILES`` but not under ``SMALLEST_CLOSER`` in the frame; none otherwise.
        Their size is the median side of the sure finds (``SURE_ALONE``), or of all finds when
        none is sure."""
        everything = joined(passes)
        if len(everything) == 0:
            return []
        sure = everything.scores >= SURE_ALONE
        side = max(float(np.median(everything.sizes[sure] if sure.any() else everything.sizes)), 1.0)
        height, width = frame.shape[:2]
        columns, rows = self.finest_grid(width, height)
        shown = min(self.width / (width * tile_share(columns)), self.height / (height * tile_share(rows)))
        if side * shown >= SMALL_IN_TILES or side < SMALLEST_CLOSER:
            return []
        zoom = CLOSER_SIDE / side  # network pixels per frame pixel
        columns = min(tiles_across(width * zoom / self.width), MOST_CLOSER_TILES)
        rows = min(tiles_across(height * zoom / self.height), MOST_CLOSER_TILES)
        # round the finds of about that size: the coarse passes' big finds (groups of dice, a
        # card) and a stray speck elsewhere would have the whole frame searched
        like = everything[(everything.sizes >= ODD_SIZE * side) & (everything.sizes <= side / ODD_SIZE)]
        corners = like.quads.reshape(-1, 2)
        reach = CLOSER_MARGIN * side
        return self.tiled(frame, columns, rows, within=(*(corners.min(0) - reach), *(corners.max(0) + reach)))

    def zoomed_out(self, frame: np.ndarray, shrink: int) -> DieReadings:
        """The finds of the frame shown at 1/``shrink`` of the network's view, inside a border
        of its mean colour, in frame coordinates."""
        height, width = frame.shape[:2]
        # halved until the padded frame is under 8 times the network's view
        small = halved(frame, 8 * self.width // shrink, 8 * self.height // shrink)
        fill = [float(v) for v in cv2.mean(small)[:3]]
        pad_y, pad_x = small.shape[0] * (shrink - 1) // 2, small.shape[1] * (shrink - 1) // 2
        padded = cv2.copyMakeBorder(small, pad_y, pad_y, pad_x, pad_x, cv2.BORDER_CONSTANT, value=fill)
        back = (width / small.shape[1], height / small.shape[0])
        return self.look(padded).shifted((-pad_x, -pad_y)).scaled(back)

    def finest_grid(self, width: int, height: int) -> tuple[int, int]:
        """The finest grid of tiles, (columns, rows), 2 at least each way (quarters) and at
        most ``MOST_TILES`` squared in all, whose tiles the network still sees shrunk at least
        twice: finer tiles would only enlarge pixels.  Columns and rows are counted apart, so
        that a tile keeps near the network's shape whatever the frame's: a 16:9 photo cut by
        as many columns as rows gave tiles 16:9, which the network saw padded, each die
        smaller (an upright photo, cut so, got tiles 3:4 at half the scale; it is turned to
        lie first now, ``detect_at_scales``; docs/vision-limits.md, session 65)."""
        columns, rows = finest_along(width / self.width), finest_along(height / self.height)
        while columns * rows > MOST_TILES**2:  # a cap on time: coarser where the tiles are finer
            if self.width / (width * tile_share(columns)) >= self.height / (height * tile_share(rows)):
                columns -= 1
            else:
                rows -= 1
        return columns, rows

    def tiled(
        self, frame: np.ndarray, columns: int, rows: int, within: tuple[float, ...] | None = None
    ) -> list[DieReadings]:
        """The finds of ``columns`` x ``rows`` overlapping tiles, each enlarged to the network's
        view (only the tiles that overlap the box ``within``, x0, y0, x1, y1, where given); a
        face cut by a tile's edge is left to the neighbour that holds it whole."""
        height, width = frame.shape[:2]
        tile_w, tile_h = int(width * tile_share(columns)), int(height * tile_share(rows))
        if min(tile_w, tile_h) < MIN_TILE:
            return []
        left, top, right, bottom = within if within is not None else (0, 0, width, height)
        passes = []
        for x0 in np.linspace(0, width - tile_w, columns).round().astype(int).tolist():
            for y0 in np.linspace(0, height - tile_h, rows).round().astype(int).tolist():
                if x0 > right or x0 + tile_w < left or y0 > bottom or y0 + tile_h < top:
                    continue
                found = self.look(frame[y0 : y0 + tile_h, x0 : x0 + tile_w])
                inside = [
                    i
                    for i, quad in enumerate(found.quads)
                    if _clear_of_cut_edges(quad, x0, y0, tile_w, tile_h, width, height)
                ]
                passes.append(found[inside].shifted((x0, y0)))
        return passes

    def fit(self, frame: np.ndarray) -> tuple[np.ndarray, float | np.ndarray, np.ndarray]:
        """The frame at the network's input size; the factor back to frame pixels; and where
        the frame's corner lies in the input.  A frame near the network's 4:3 is stretched to
        it; one further off (16:9, a phone held upright) is shrunk whole and padded, because
        the detector learnt from windows stretched at most 4:3 either way: to the network's
        whole view, or for a model that takes any size, to the next ``PAD_STEP``."""
        height, width = frame.shape[:2]
        stretch = (width / height) / (self.width / self.height)
        padded = not 1 / MOST_STRETCH <= stretch <= MOST_STRETCH
        fit = min(self.width / width, self.height / height)
        inner_w, inner_h = (self.width, self.height)
        if padded:  # a pixel at least: a photo a few pixels thin has a side that rounds to 0
            inner_w, inner_h = max(1, round(width * fit)), max(1, round(height * fit))
        # halvings, then one linear resize: a quarter of INTER_AREA's time.  Halved by 2 x 2
        # means instead of pyrDown, a 1280x720 frame took 0.7-0.9 ms less, but the detector
        # found and read 1-2 points fewer held-out dice in it (docs/benchmarks-vision.md, session 80)
        small = cv2.resize(
            halved(frame, 2 * inner_w, 2 * inner_h), (inner_w, inner_h), interpolation=cv2.INTER_LINEAR
        )
        if not padded:
            return small, np.float32([width / self.width, height / self.height]), np.zeros(2, np.float32)
        view_w, view_h = self.width, self.height
        if self.any_size:
            view_w, view_h = min(view_w, step_up(inner_w)), min(view_h, step_up(inner_h))
        left, top = (view_w - inner_w) // 2, (view_h - inner_h) // 2
        fill = [float(v) for v in cv2.mean(small)[:3]]
        small = cv2.copyMakeBorder(
            small, top, view_h - inner_h - top, left, view_w - inner_w - left, cv2.BORDER_CONSTANT, value=fill
        )
        return small, 1 / fit, np.float32([left, top])


def step_up(side: int) -> int:
    """The least multiple of ``PAD_STEP`` at or above ``side``."""
    return -(-side // PAD_STEP) * PAD_STEP


def averaged(quad: np.ndarray, other: np.ndarray) -> np.ndarray:
    """The mean of two quads of one face (4 x 2 each, or K x 4 x 2 pair by pair), ``other``'s
    corners taken in the turn of their cyclic order nearest ``quad``'s (the detector has no
    first corner)."""
    turns = np.stack([np.roll(other, k, -2) for k in range(4)])  # 4 x ... x 4 x 2
    nearest = np.sqrt(((turns - quad) ** 2).sum((-2, -1))).argmin(0)
    turned = np.take_along_axis(turns, nearest[None, ..., None, None], 0)[0]
    return ((quad + turned) / 2).astype(np.float32)


def cut_window(frame: np.ndarray, x0: int, y0: int, width: int, height: int, fill) -> np.ndarray:
    """The ``width`` x ``height`` window of ``frame`` from (x0, y0), painted ``fill`` where it
    leaves the frame."""
    inside = frame[max(y0, 0) : max(y0 + height, 0), max(x0, 0) : max(x0 + width, 0)]
    top, left = max(-y0, 0), max(-x0, 0)
    bottom, right = height - top - inside.shape[0], width - left - inside.shape[1]
    if inside.size == 0:
        return np.full((height, width, 3), fill, np.uint8)
    return cv2.copyMakeBorder(inside, top, bottom, left, right, cv2.BORDER_CONSTANT, value=fill)


def halved(frame: np.ndarray, width: int, height: int) -> np.ndarray:
    """``frame`` halved (``cv2.pyrDown``) for as long as it is at least ``width`` x ``height``."""
    while frame.shape[1] >= width and frame.shape[0] >= height:
        frame = cv2.pyrDown(frame)
    return frame


def finest_along(shrink: float) -> int:
    """How many tiles (2 at least) across a side that the network sees ``shrink`` times
    smaller whole, each tile still shown to it shrunk at least twice."""
    tiles = 2
    while shrink * tile_share(tiles + 1) >= 2:
        tiles += 1
    return tiles


def tiles_across(times: float) -> int:
    """How many tiles (2 at least) across a side make each tile at most 1/``times`` of it."""
    return max(2, math.ceil((times - TILE_OVERLAP) / (1 - TILE_OVERLAP)))


def tile_share(grid: int) -> float:
    """A tile's side as a share of the frame's, ``grid`` tiles across overlapping by ``TILE_OVERLAP``."""
    return 1 / (grid - (grid - 1) * TILE_OVERLAP)


def like_sized(passes: list[DieReadings], sure: float = SURE_ALONE) -> list[DieReadings]:
    """``passes`` keeping only the finds from ``ODD_SIZE`` to ``ODD_BIGGER`` times the median
    side of the dice they are sure of (score at least ``sure``), all passes together; every
    find when they are sure of fewer than two, since then there is no size to trust."""
    sides = np.concatenate([found.sizes[found.scores >= sure] for found in passes])
    if len(sides) < 2:
        return passes
    typical = np.median(sides)
    smallest, biggest = ODD_SIZE * typical, ODD_BIGGER * typical
    return [found[(found.sizes >= smallest) & (found.sizes <= biggest)] for found in passes]


def keep_similar_sizes(found: DieReadings, sure: float = SURE_ALONE) -> DieReadings:
    """The finds as big as the frame's sure dice, give or take (see ``like_sized``)."""
    return like_sized([found], sure)[0]


def decode(
    heat,
    corners,
    cocked,
    stride: int,
    min_score: float,
    leaning_from: float = LEANING_FROM,
    mirrored_corners=None,
) -> DieReadings:
    """Peaks of the heat map (local maxima over 3x3 cells at ``min_score`` or above) as dice, less the
    print on a die's face (``printed_on_others``: a pip is often surer than its die), one find
    per die (``one_per_die``: one die's heat can peak twice, in two cells of equal heat or
    cells apart on a big die), in the network input's pixels; a die leans where ``cocked``
    reaches ``leaning_from``.  With ``mirrored_corners`` (a mirror image's corners, turned back
    to the frame's way round: ``Detector.detect``), each quad is the mean of both."""
    peaks = (heat >= cv2.dilate(heat, np.ones((3, 3), np.uint8))) & (heat >= min_score)
    ys, xs = np.nonzero(peaks)
    centres = np.stack([xs, ys], 1).astype(np.float32) + 0.5  # in cells
    quads = (centres[:, None] + corners[:, ys, xs].T.reshape(-1, 4, 2)) * stride
    if mirrored_corners is not None:  # mirroring turned the corners' order about
        again = (centres[:, None] + mirrored_corners[:, ys, xs].T.reshape(-1, 4, 2)) * stride
        quads = averaged(quads, again[:, ::-1])
    order = np.argsort(-heat[ys, xs])
    found = DieReadings.from_quads(quads[order], heat[ys, xs][order], cocked[ys, xs][order] >= leaning_from)
    found = found[~printed_on_others(found)]
    return found[one_per_die(found)]


def _clear_of_cut_edges(quad, x0, y0, tile_w, tile_h, width, height, margin=2.0) -> bool:
    """Whether a face found in a tile lies wholly inside it, except along the frame's own edges
    (a face cut by the tile's edge is found whole by a neighbouring tile)."""
    left, top = quad.min(0)
    right, bottom = quad.max(0)
    return (
        (x0 == 0 or left > margin)
        and (y0 == 0 or top > margin)
        and (x0 + tile_w >= width or right < tile_w - margin)
        and (y0 + tile_h >= height or bottom < tile_h - margin)
    )


def kept_apart(
    found: DieReadings,
    apart: float,
    surer_by: float = 0.0,
    also: Callable[[DieReadings, np.ndarray, np.ndarray], np.ndarray] | None = None,
) -> list[int]:
    """Indices of the finds to keep, surest first: a find whose centre lies within ``apart``
    of a face's side of a kept find surer by ``surer_by`` or more is dropped, if ``also``
    (found, the finds' indices, the kept finds' indices) says so of that pair; it is asked
    only of such pairs, which are few."""
    centres, sizes, scores = found.centers, found.sizes, found.scores
    distances = np.linalg.norm(centres[:, None] - centres[None], axis=2)
    covered = (distances <= apart * np.maximum(sizes[:, None], sizes[None])) & (
        scores[None] - scores[:, None] >= surer_by
    )
    np.fill_diagonal(covered, False)
    near, by = np.nonzero(covered)
    if also is not None and len(near):
        covered[near, by] = also(found, near, by)
    kept = []
    for i in np.argsort(-scores, kind="stable"):
        if not covered[i, kept].any():
            kept.append(int(i))
    return kept


def one_per_die(found: DieReadings) -> list[int]:
    """Indices of one find per die, surest first (``SAME_DIE``)."""
    return kept_apart(found, SAME_DIE)


def printed_on_others(found: DieReadings, share: float = PRINT_SHARE) -> np.ndarray:
    """Whether each find's centre lies on a sure find at least 1/``share`` times its side."""
    sizes, centres = found.sizes, found.centers
    printed = np.zeros(len(found), bool)
    # (container, find) pairs by size first: most frames have none, and pay no polygon tests
    for j, i in np.argwhere((found.scores[:, None] >= SURE_ALONE) & (sizes[None] < share * sizes[:, None])):
        centre = (float(centres[i, 0]), float(centres[i, 1]))
        printed[i] |= cv2.pointPolygonTest(found.quads[j].reshape(-1, 1, 2), centre, False) >= 0
    return printed


def without_print_or_groups(
    passes: list[DieReadings], frame: np.ndarray, is_print: PrintCheck
) -> list[DieReadings]:
    """``passes`` sorted out where finds lie on a find over 1/``PRINT_SHARE`` times their side,
    as ``is_print(frame, the big find's quad, the quads on it)`` judges them.  Print: the big
    find is seen by two passes or more and they are its print (the pips and frames a finer
    pass found on a die that coarser passes found whole), so they go.  A group: the big find
    is seen by one pass, one on it by two or more, and they are no print (dice, or a die and
    the table round it, that one coarse pass took for one big die, as sure as the die the
    finer passes agree on), so the big find goes.  Outlines alone cannot tell a die's print
    from a group of dice found as one (``PRINT_SHARE``); the caller looks at the pixels."""
    everything = joined(passes)
    seen_by = passes_seeing(everything, passes)
    dropped: set[int] = set()
    for j, marks in finds_on_bigger(everything).items():
        whole = seen_by(j) >= 2
        if not whole and all(seen_by(i) < 2 for i in marks):
            continue  # one pass's find round finds one pass saw: left to merge's support rule
        printed = is_print(frame, everything.quads[j], everything.quads[marks])
        if whole and printed:
            dropped.update(marks)
        elif not whole and not printed:
            dropped.add(j)
    return without_finds(passes, dropped)


def passes_seeing(everything: DieReadings, passes: list[DieReadings]) -> Callable[[int], int]:
    """A function of a find's index in ``everything`` (``joined(passes)``) that counts the
    passes finding a die of its place and size."""
    sizes, centres = everything.sizes, everything.centers
    owner = np.repeat(np.arange(len(passes)), [len(found) for found in passes])

    def seen_by(j: int) -> int:
        near = np.linalg.norm(centres - centres[j], axis=1) < SAME_DIE * sizes[j]
        alike = np.abs(np.log(sizes / sizes[j])) < np.log(1 / ODD_SIZE)
        return len(set(owner[near & alike].tolist()))

    return seen_by


def finds_on_bigger(found: DieReadings) -> dict[int, list[int]]:
    """For each find over 1/``PRINT_SHARE`` times the side of finds whose centres lie on it,
    those finds' indices."""
    sizes, centres = found.sizes, found.centers
    on: dict[int, list[int]] = {}
    for j, i in np.argwhere(sizes[None] < PRINT_SHARE * sizes[:, None]):
        centre = (float(centres[i, 0]), float(centres[i, 1]))
        if cv2.pointPolygonTest(found.quads[j].reshape(-1, 1, 2), centre, False) >= 0:
            on.setdefault(int(j), []).append(int(i))
    return on


def without_finds(passes: list[DieReadings], dropped: set[int]) -> list[DieReadings]:
    """``passes`` less the finds whose indices in ``joined(passes)`` are ``dropped``."""
    if not dropped:
        return passes
    starts = np.cumsum([0] + [len(found) for found in passes])
    return [
        found[[k for k in range(len(found)) if start + k not in dropped]]
        for found, start in zip(passes, starts[:-1], strict=True)
    ]


def without_side_faces(found: DieReadings, surer_by: float = 0.0) -> DieReadings:
    """The finds less any nearer a find surer by ``surer_by`` than ``TOP_FACES_APART`` of a
    face's side and sharing an edge with it (``SIDE_FACE_EDGE``): a side face of that find's
    die, not a die of its own."""
    return found[sorted(kept_apart(found, TOP_FACES_APART, surer_by, also=share_an_edge))]


def share_an_edge(found: DieReadings, i: np.ndarray, k: np.ndarray) -> np.ndarray:
    """Whether finds ``i`` and ``k`` (index arrays, pair by pair) share an edge, within
    ``SIDE_FACE_EDGE`` of the smaller one's side."""
    sizes = found.sizes
    return edge_gaps(found.quads[i], found.quads[k]) < SIDE_FACE_EDGE * np.minimum(sizes[i], sizes[k])


EDGE_ENDS = np.array([[0, 1], [1, 2], [2, 3], [3, 0]])  # a quad's edges by their corners


def edge_gaps(quads: np.ndarray, others: np.ndarray) -> np.ndarray:
    """For each pair of quads (K x 4 x 2 each), how far apart their closest pair of edges
    lies: the farther of the two ends, the edges' ends paired either way round (K)."""
    a, b = quads[:, EDGE_ENDS][:, :, None], others[:, EDGE_ENDS][:, None]  # K x 4 x 4 x 2 ends x 2
    along = np.sqrt(((a - b) ** 2).sum(-1)).max(-1)
    reversed_ = np.sqrt(((a - b[..., ::-1, :]) ** 2).sum(-1)).max(-1)
    return np.minimum(along, reversed_).min((-2, -1))


def joined(looks: list[DieReadings]) -> DieReadings:
    """The finds of several looks at one frame as one set of finds (unread)."""
    return DieReadings.from_quads(
        np.concatenate([found.quads for found in looks]).reshape(-1, 4, 2),
        np.concatenate([found.scores for found in looks]),
        np.concatenate([found.cocked for found in looks]),
    )


def merge(passes: list[DieReadings], sure: float = SURE_ALONE, support: int = 2) -> DieReadings:
    """One find per die from several passes: the surest first, then any whose centre is not
    within half a face of one already kept.  A die must be seen by ``support`` passes, unless
    one pass is ``sure`` of it: a stray find at one scale is most often not a die.  Whether it
    leans is the passes' majority vote (a tie leans)."""
    everything = joined(passes)
    centres, sizes, scores = everything.centers, everything.sizes, everything.scores
    chosen, leaning = [], []
    for i in one_per_die(everything):
        votes = []  # per pass that sees this die: does its nearest find lean?
        for found in passes:
            distances = np.linalg.norm(found.centers - centres[i], axis=1) if len(found) else np.empty(0)
            if (distances < SAME_DIE * sizes[i]).any():
                votes.append(bool(found.cocked[np.argmin(distances)]))
        if len(votes) >= support or scores[i] >= sure:
            chosen.append(i)
            leaning.append(2 * sum(votes) >= len(votes))
    return replace(everything[chosen], cocked=np.array(leaning, bool))
