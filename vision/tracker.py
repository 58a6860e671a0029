"""From frames to rolls: motion, then the table settled for a moment, gives exactly one event.

    tracker = RollTracker(fps=source.fps, expected_dice=9)
    for frame in source:
        event = tracker.update(frame, lambda: reader.read(frame))   # read only settled frames
        if event:
            print(event.to_json())

Motion is frame differencing on a small blurred copy of each frame; where the frames
differ, the previous one is matched to this one's place and light and compared again (a
hand-held camera shaking, a flickering lamp or the camera's exposure changing is not dice
moving: ``steadied``, ``relit``).  After motion, the
next ``settle_seconds`` of still frames are read and each die's face is decided by a vote
over them (dice are matched across frames by the centre of their top face), so one misread
frame does not misread the roll.  Nothing is reported while the picture keeps moving or a
hand rests over the table, for an empty table, when no die lies where the table changed
since the throw, or none that the second look does not doubt (dice picked up from beside a
card the reader takes for a die; where the table before the throw is known), or when the
dice are where they were at the last roll (a hand took some away, or a die missed then is
seen now) showing the faces they showed.
A source of ``stills`` (a folder of photos, each of a roll at rest) has no throw to see:
each of its frames is a settled roll of its own, with the same checks after it.

A roll settles once in several seconds, so the tracker can afford to read the settled table
once more as a photo is read (``look_again``, for example
``lambda frame: photo_reader.read(frame, still=True)`` with the default face model): that
reading names each die's face, and the vote still says where the dice are and which lean;
the two together decide a die that only one of them is sure of (``faces_looked_again``).
The picture it reads is the settled frames averaged, where the camera stood still between
them (``steady_mean``): the sensor noise of a webcam in a dim room averaged away.  A settled
table in which the vote finds no die is looked at too, where it changed since the throw
(``where_new``): a camera far from the table shows dice smaller than the video frame's
reading finds, and the look searches every scale; the dice it reads surely there
(``SURE_LOOK``) are the roll.
"""

from __future__ import annotations

import functools
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from vision.readings import DieReading, DieReadings, quad_areas

# Motion is judged on frames this wide: cheap, and blind to most sensor noise.  A camera far
# from the table (a webcam's 1280x720 showing dice 16-20 px across) shows them 4-5 px wide
# here; at 160 they were 2 px, their tumbling under the bar for motion and their landing
# under that for a change since the throw, and its rolls went unseen (docs/vision-limits.md,
# session 79).
MOTION_WIDTH = 320
# A camera held in the hand sways less than this share of the width between two frames; a
# bigger jump is the camera moved, which is motion like any other.
MOST_SWAY = 0.02
# A settled roll's frames are averaged for its second look where the camera moved this many
# pixels at most between them (``steady_mean``); the shift is found on copies at most
# ALIGN_WIDTH wide, to about a tenth of a pixel, and two frames whose phase correlation peaks
# under LEAST_MATCH are no shift of one picture (another picture peaks under 0.1, a shift of
# the same one at 0.95-1.05 even through heavy noise).
STILL_SHIFT = 0.15
ALIGN_WIDTH = 640
LEAST_MATCH = 0.3
AVERAGED_FRAMES = 16  # the latest settled frames kept for it: a longer settle only costs memory
TIMED_FRAMES = 16  # a live source's frame rate is measured over its latest frames
# A hand found resting by the dice is looked for again this often while nothing moves: a
# still hand kept the reader busy on every frame (7 times the CPU of a settled table), and
# one withdrawn too slowly to count as motion is still noticed within this time.
HAND_RECHECK_SECONDS = 0.5
STILL_CHANGE = 0.002  # share of pixels moved past MOTION_LEVEL, the tracker's bar for motion
EDGE = 3  # pixels of a steadied frame's edge left out of the second comparison
MOTION_LEVEL = 18  # grey-level change that counts a pixel as moved
# ... or this many times the camera's own noise, where a dim room makes it larger: a
# webcam's colour noise there comes in blotches the shrink does not smooth away, and still
# frames were judged moving 75-97% of the time, so rolls were never reported (session 67's
# camera audit).  The noise is the median change over a frame, mostly still table.
NOISE_LEVELS = 4
MOST_NOISE_LEVEL = 48  # ... at most (the dim webcam's four times its noise came to 26-30)
# A settled frame is no longer a picture of the table as it lay before the roll (which the
# hand check compares it with) when it is this many times brighter or darker, or when more
# than this share of it differs even after matching place and light.
MOST_LIGHT_GAIN = 2.0
NO_REFERENCE = 0.5


@dataclass(frozen=True)
class RollEvent:
    """One settled roll: the voted dice, and what a game should be warned about."""

    dice: DieReadings
    frame: int  # index of the frame that completed the roll
    seconds: float  # its time from the start of the source
    expected_dice: int | None = None

    @property
    def labels(self) -> list[str | None]:
        return list(self.dice.labels)

    @property
    def count_ok(self) -> bool:
        """False when the game rolls a set number of dice (9, 6) and another number is seen."""
        return self.expected_dice is None or len(self.dice) == self.expected_dice

    @property
    def cocked(self) -> bool:
        return bool(self.dice.cocked.any())

    def to_json(self) -> dict:
        return {
            "dice": self.dice.to_json(),
            "frame": self.frame,
            "seconds": round(self.seconds, 3),
            "count_ok": self.count_ok,
            "cocked": self.cocked,
        }


# A voted die that a settled roll's second look does not find is dropped when the vote's
# confidence in its face is under this (see ``faces_looked_again``).
UNSURE_VOTE = 0.5
# A die that the second look finds and the vote lacks is added when the look reads its face
# at least this surely.
SURE_LOOK = 0.95
# A settled roll names a face from this confidence; under it the face is reported unread, its
# likeliest faces kept, and the page marks it for a tap.  Above the classifier's own bar
# (NAMED_FROM): in rendered rolls of the training split, of the dice named at 0.5-0.6, 3 were
# right, 7 wrong and 5 no die at all; at 0.6-0.65, 5 right and 5 not, so a mark there would be
# needless as often as not (docs/vision.md, The roll tracker).
UNSURE_ROLL_FACE = 0.6
# A second look that names another face than the vote did (or one the vote could not name)
# is marked below this confidence, not only below UNSURE_ROLL_FACE: where the two readers
# disagree, a look named 0.6-0.8 sure was wrong twice as often as right on rendered rolls of
# the training split (15 to 7; the held-out ones 19 to 9), where they agree the first step
# up, 0.6-0.7, was not (4 to 3; docs/vision.md, The roll tracker).
UNSURE_DISPUTED_FACE = 0.8


@dataclass
class RollTracker:
    """Turns frames (and readings of the settled ones) into RollEvents."""

    fps: float = 30.0
    settle_seconds: float = 0.3
    expected_dice: int | None = None  # the game's dice count, to flag a roll that shows another
    motion_level: int = MOTION_LEVEL
    motion_fraction: float = STILL_CHANGE  # share of moved pixels that counts the frame as moving
    min_presence: float = 0.5  # share of the settled frames a die must be seen in to count
    # A face the roll is less sure of than this is reported unread, so that the page marks it
    # for a tap instead of showing a guess as read (``UNSURE_ROLL_FACE``).
    least_confidence: float = UNSURE_ROLL_FACE
    hand_area: tuple[float, float] = (0.03, 0.4)  # a hand's share of the frame, min and max
    # Reads a settled roll's frames (``steady_mean``) again, surer and slower than a video
    # frame's reading: its faces replace the vote's (``faces_looked_again``).
    look_again: Callable[[np.ndarray], DieReadings] | None = None
    stills: bool = False  # each frame a photo of a roll at rest (``FrameSource.stills``)
    # A live source's clock (``time.monotonic``): its frames are timed by it, not by ``fps``,
    # which a stream states wrongly (an MJPEG stream says 25 whatever it sends) and from which
    # a slow reader drops frames; a roll's ``seconds`` is then the time since the first frame,
    # a reconnection's wait included.
    clock: Callable[[], float] | None = None
    # Told of what ``look_again`` finds where the table changed on a settled table the vote
    # found no die in, when it reads none of it surely enough to be a roll: dice too small to
    # read, most likely (a far camera), or a cup or card put down; no event is reported.
    could_not_read: Callable[[DieReadings], None] | None = None

    frame_index: int = field(default=0, init=False)
    _previous: np.ndarray | None = field(default=None, init=False, repr=False)
    _moved: np.ndarray | None = field(default=None, init=False, repr=False)  # where the roll moved
    _before: np.ndarray | None = field(default=None, init=False, repr=False)  # the table before it
    _settled: list[DieReadings] = field(default_factory=list, init=False, repr=False)
    _settled_frames: deque[np.ndarray] = field(
        default_factory=lambda: deque(maxlen=AVERAGED_FRAMES), init=False, repr=False
    )
    _last_roll: DieReadings | None = field(default=None, init=False, repr=False)
    # the last roll's dice with the faces its look read, which a later look's are compared with
    _last_read: DieReadings | None = field(default=None, init=False, repr=False)
    _frame_times: deque[float] = field(
        default_factory=lambda: deque(maxlen=TIMED_FRAMES), init=False, repr=False
    )
    _first_frame_at: float | None = field(default=None, init=False, repr=False)
    _hand_until: int = field(default=0, init=False, repr=False)  # frame to look for the hand again
    # the first frame of the latest still run: a die pushed slowly changes too little from
    # one frame to the next to count, but not since the run began
    _still_since: np.ndarray | None = field(default=None, init=False, repr=False)
    # still frames since watching began, until the dice lying there then are read (None: read,
    # or something moved first)
    _still_at_start: int | None = field(default=0, init=False, repr=False)

    @property
    def rolling(self) -> bool:
        """Whether the table has moved since the last roll settled: dice thrown, not yet read."""
        return self._moved is not None

    @property
    def frame_rate(self) -> float:
        """Frames a second: as the ``clock`` times the latest frames (the median gap, so that
        one long look at a roll or a reconnection does not count), else as ``fps`` states."""
        if len(self._frame_times) < 4:
            return self.fps
        gap = float(np.median(np.diff(self._frame_times)))
        return min(max(1 / gap, 1.0), 240.0) if gap > 0 else self.fps

    @property
    def settle_frames(self) -> int:
        return max(1, round(self.settle_seconds * self.frame_rate))

    def update(
        self, frame: np.ndarray, readings: DieReadings | Callable[[], DieReadings]
    ) -> RollEvent | None:
        """Feed one frame with its readings, or a function that reads it: it is called only
        for settled frames, so detection costs nothing while dice tumble or the table is idle."""
        self.frame_index += 1
        if self.clock is not None:
            self._frame_times.append(self.clock())
            if self._first_frame_at is None:
                self._first_frame_at = self._frame_times[-1]
        if self.stills:
            self._settle(frame, readings() if callable(readings) else readings)
            return self._settled_roll(frame.shape[1])
        small = shrink(frame)
        moving = self._motion(small)
        if moving:
            self._settled.clear()
            self._settled_frames.clear()
            self._hand_until = 0
            self._still_at_start = None
            return None
        if self._moved is None:  # still since the last roll: nothing new on the table
            self._look_at_start(readings)
            return None
        if self.frame_index < self._hand_until:  # the same still hand, most likely
            return None
        readings = readings() if callable(readings) else readings
        if hand_over_dice(
            small, self._moved, self._before, readings, frame.shape[1], self.hand_area, self.motion_level
        ):
            self._settled.clear()
            self._settled_frames.clear()
            self._hand_until = self.frame_index + round(HAND_RECHECK_SECONDS * self.frame_rate)
            return None
        self._settle(frame, readings)
        if len(self._settled) < self.settle_frames:
            return None
        return self._settled_roll(frame.shape[1])

    def _look_at_start(self, readings: DieReadings | Callable[[], DieReadings]) -> None:
        """The dice lying on the table when watching begins, read once it has been still for
        a settle time, are the last roll: not reported, and not reported later either when a
        light switched on or a hand passing over leaves them as they lay (the web app's
        camera starts with the server, and last game's dice were scored for whoever rolled
        next; session 67's camera audit)."""
        if self._still_at_start is None:
            return
        self._still_at_start += 1
        if self._still_at_start >= self.settle_frames:
            dice = vote([readings() if callable(readings) else readings], self.min_presence)
            self._last_roll = self._last_read = dice if len(dice) else None
            self._still_at_start = None

    def _settle(self, frame: np.ndarray, readings: DieReadings) -> None:
        self._settled.append(readings)
        if self.look_again is not None:
            self._settled_frames.append(frame)

    def _settled_roll(self, width: int) -> RollEvent | None:
        """The roll the settled frames (``width`` pixels wide) show, once; None when it is no
        new roll."""
        dice, frames = vote(self._settled, self.min_presence), list(self._settled_frames)
        changed = None
        if self._moved is not None:
            changed = differs_from(self._before, self._previous, self.motion_level, self._moved)
        new = where_new(changed, self._moved)
        self._settled.clear()
        self._settled_frames.clear()
        self._moved = None
        looked_already = len(dice) == 0 and self.look_again is not None and bool(frames)
        if looked_already:
            dice = self._dice_too_small_to_find(frames, new, width)
        if len(dice) == 0:
            return None
        # The dice lying where the table changed, where the table before the throw tells it:
        # where only the throw's motion does, a small die may have moved too little to show.
        landed = lying_where_new(dice, new, width) if changed is not None else None
        if landed is not None and not len(landed):
            # the throw landed no die, and what is found lay there before it (dice picked up,
            # leaving a card the pass takes for a die)
            return None
        read = None  # the dice with their faces read by the look
        if self._last_roll is not None and nothing_rolled(dice, self._last_roll, landed):
            # A far camera's vote may find one die of a new roll where a die of the last lay.
            # Where a die landed anew and fewer were found than last time (a hand that took
            # dice away landed none), the look's faces decide, against the last roll's.
            if landed is None or len(dice) >= len(self._last_roll) or self.look_again is None:
                return None
            read = faces_looked_again(dice, self._look(frames))
            if not shows_other_faces(read, self._last_read):
                return None
        if read is None and self.look_again is not None and not looked_already:
            read = faces_looked_again(dice, self._look(frames))
        if landed is not None and read is not None and not len(lying_where_new(read, new, width)):
            # the look doubted every die that lay where the table changed, and what is left lay
            # there before the throw (dice picked up beside a card the pass takes for a die)
            return None
        self._last_roll = dice
        self._last_read = read if read is not None else dice
        dice = unread_if_unsure(self._last_read, self.least_confidence)
        if self._first_frame_at is not None:
            seconds = self._frame_times[-1] - self._first_frame_at
        else:
            seconds = (self.frame_index - 1) / self.fps
        return RollEvent(dice, self.frame_index - 1, seconds, self.expected_dice)

    def _look(self, frames: list[np.ndarray]) -> DieReadings:
        """The settled table read again by ``look_again``, its frames averaged (``steady_mean``)."""
        return self.look_again(steady_mean(frames))

    def _dice_too_small_to_find(
        self, frames: list[np.ndarray], new: np.ndarray | None, width: int
    ) -> DieReadings:
        """The dice of a settled table in whose frames (``width`` pixels wide) the vote found
        none: a camera far from the table sees dice smaller than a video frame's reading finds,
        and the look searches every scale.  Its sure dice (``SURE_LOOK``) where the table is
        ``new`` (``where_new``), left to right; nothing is looked at where the table is as it
        was (a hand passed over).  What it finds there but does not read surely is told to
        ``could_not_read``."""
        if new is not None and not new.any():
            return DieReadings.empty()
        looked = lying_where_new(self._look(frames), new, width)
        found = looked[looked.confidences >= SURE_LOOK]
        if len(looked) and not len(found) and self.could_not_read is not None:
            self.could_not_read(looked)
        return left_to_right(found)

    def _motion(self, small: np.ndarray) -> bool:
        """Whether anything moved since the previous frame, or since the first frame of this
        still run (a die pushed slowly), as ``moved_between`` judges it."""
        previous, self._previous = self._previous, small
        if previous is None or previous.shape != small.shape:
            self._still_since = small
            return False
        since = previous
        changed = self._moved_between(previous, small)
        if changed is None:  # the run's first frame is set with ``previous``: the same size
            since, changed = self._still_since, self._moved_between(self._still_since, small)
        if changed is None:
            return False
        self._still_since = small
        if self._moved is None:
            self._moved, self._before = changed, since
        else:
            self._moved |= changed
        return True

    def _moved_between(self, previous: np.ndarray, small: np.ndarray) -> np.ndarray | None:
        """Where the picture moved from ``previous`` to ``small`` (two ``shrink``s), or None
        when too little of it did to be motion.  Where they differ, ``previous`` is matched to
        ``small``'s place and light first, and a change must pass the camera's own noise too
        (``NOISE_LEVELS``)."""
        changed = cv2.absdiff(previous, small) > self.motion_level
        if changed.mean() > self.motion_fraction:  # or only the camera or the light moved: match them
            difference = cv2.absdiff(relit(steadied(previous, small), small), small)
            noise = 1.4826 * np.median(difference.reshape(-1, 3), axis=0)  # per channel, robust
            # a cut to another picture differs everywhere: its median is no noise
            level = np.clip(NOISE_LEVELS * noise, self.motion_level, MOST_NOISE_LEVEL)
            changed = difference > level
            changed[:EDGE] = changed[-EDGE:] = False  # what came into view at the edge has no match
            changed[:, :EDGE] = changed[:, -EDGE:] = False
        return changed if changed.mean() > self.motion_fraction else None


def steady_mean(frames: list[np.ndarray]) -> np.ndarray:
    """The last of ``frames`` with the camera's noise averaged away: the mean of those
    frames that show the same still picture, nothing in it moved (``MOTION_LEVEL``, as the
    tracker judges motion) and the camera not moved by more than ``STILL_SHIFT`` of a pixel
    (``shift_between``).  A frame the camera moved is left out, not shifted back: moving a
    frame by part of a pixel blurs it, and on rendered rolls whose camera swayed half a
    pixel, frames shifted back and averaged read worse than the last one alone
    (docs/vision.md, "The roll tracker")."""
    last = frames[-1]
    target, small = alignment_copy(last), shrink(last)
    scale = last.shape[1] / target.shape[1]
    kept = [
        frame
        for frame in frames[:-1]
        if frame.shape == last.shape
        and (cv2.absdiff(shrink(frame), small) > MOTION_LEVEL).mean() <= STILL_CHANGE
        and shift_between(alignment_copy(frame), target) * scale <= STILL_SHIFT
    ]
    if not kept:
        return last
    total = last.astype(np.uint32)
    for frame in kept:
        total += frame
    return ((total + (len(kept) + 1) // 2) // (len(kept) + 1)).astype(np.uint8)


def alignment_copy(frame: np.ndarray) -> np.ndarray:
    """A grey float copy of ``frame`` at most ``ALIGN_WIDTH`` wide, to find its shift on."""
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    if grey.shape[1] > ALIGN_WIDTH:
        height = round(grey.shape[0] * ALIGN_WIDTH / grey.shape[1])
        grey = cv2.resize(grey, (ALIGN_WIDTH, height), interpolation=cv2.INTER_AREA)
    return grey.astype(np.float32)


def shift_between(copy: np.ndarray, target: np.ndarray) -> float:
    """How far, in pixels of the copies, the picture moved from ``copy`` to ``target`` (two
    ``alignment_copy``s); infinite when they are no shift of one picture at all."""
    (dx, dy), match = cv2.phaseCorrelate(copy, target, hanning(copy.shape))
    return float(np.hypot(dx, dy)) if match >= LEAST_MATCH else np.inf


def shrink(frame: np.ndarray) -> np.ndarray:
    """A small blurred copy (BGR) for motion and hand checks."""
    height = max(1, round(frame.shape[0] * MOTION_WIDTH / frame.shape[1]))
    # Area averaging, done as halvings first: OpenCV's halving is a fast path, and a
    # 1280x720 frame shrank to 160 px in a quarter of one 8x resize's time, every pixel
    # within one grey level of it (docs/benchmarks-vision.md, session 39; 320 px since 79).
    while frame.shape[1] >= 2 * MOTION_WIDTH and frame.shape[0] >= 2 * height:
        frame = cv2.resize(frame, (frame.shape[1] // 2, frame.shape[0] // 2), interpolation=cv2.INTER_AREA)
    small = cv2.resize(frame, (MOTION_WIDTH, height), interpolation=cv2.INTER_AREA)
    return cv2.GaussianBlur(small, (5, 5), 0)


def steadied(previous: np.ndarray, current: np.ndarray) -> np.ndarray:
    """``previous`` moved onto ``current`` when the whole picture shifted a little between
    them: a phone held over the table shakes, and the table moving by a pixel is not dice
    moving.  The shift is the peak of the two grey copies' phase correlation, which the still
    table decides, not dice tumbling each their own way; but dice that all slide alike by
    less than ``MOST_SWAY`` look like a sway, so a roll may settle a frame or two sooner."""
    before = cv2.cvtColor(previous, cv2.COLOR_BGR2GRAY).astype(np.float32)
    after = cv2.cvtColor(current, cv2.COLOR_BGR2GRAY).astype(np.float32)
    (dx, dy), _ = cv2.phaseCorrelate(before, after, hanning(before.shape))
    if np.hypot(dx, dy) > MOST_SWAY * previous.shape[1]:
        return previous
    shift = np.float32([[1, 0, dx], [0, 1, dy]])
    return cv2.warpAffine(previous, shift, previous.shape[1::-1], borderMode=cv2.BORDER_REPLICATE)


@functools.cache
def hanning(shape: tuple[int, int]) -> np.ndarray:
    """The window that keeps a frame's edges out of its phase correlation."""
    return cv2.createHanningWindow(shape[::-1], cv2.CV_32F)


def relit(previous: np.ndarray, current: np.ndarray, still: np.ndarray | None = None) -> np.ndarray:
    """``previous`` brightened or dimmed row by row to ``current``'s light, so that light
    changing is not taken for dice moving.  A lamp flickering with the mains, or the camera
    changing its exposure, scales whole rows (a rolling shutter sees flicker as bands that
    drift down the frame); a moving die changes a few pixels of a row, which the row's
    median ratio ignores.  Each channel has its own gain: white balance moves too."""
    before = previous.astype(np.float32) + 1.0
    after = current.astype(np.float32) + 1.0
    ratio = after / before
    # rows x channels; where ``still`` is given, only what did not move tells the light (an arm
    # across most of a row is no lamp)
    gains = np.median(ratio, axis=1) if still is None or not still.any() else still_gains(ratio, still)
    gains = cv2.blur(gains[:, None, :], (1, 5))[:, 0, :]  # bands are smooth: steady the noisy rows
    return np.clip(before * gains[:, None, :] - 1.0, 0, 255).astype(np.uint8)


def still_gains(ratio: np.ndarray, still: np.ndarray) -> np.ndarray:
    """Each row's median ``ratio`` over its ``still`` pixels (rows x channels; the lower of two
    middles); a row that all moved takes the median over the whole frame's still pixels.  One
    sort with the moved pixels last, and the whole frame's median only for a row that needs
    it: on a 160 x 120 frame 0.3-0.4 ms against NumPy's nanmedian's 2.4 (session 70, this
    machine), and the hand check runs on every settling frame by a skin-coloured table or die."""
    counts = still.sum(1)
    ordered = np.sort(np.where(still[..., None], ratio, np.inf), axis=1)
    middle = np.maximum(counts - 1, 0) // 2
    gains = np.take_along_axis(ordered, middle[:, None, None].repeat(ratio.shape[2], 2), 1)[:, 0]
    if (counts == 0).any():  # an arm across a whole row
        gains[counts == 0] = np.median(ratio[still], axis=0)
    return gains.astype(np.float32)


def hand_over_dice(
    small: np.ndarray,
    moved: np.ndarray,
    before: np.ndarray,
    readings: DieReadings,
    width: int,
    area: tuple[float, float],
    level: int = MOTION_LEVEL,
) -> bool:
    """A hand resting on or over the dice: a skin-coloured region that is hand-sized, touches
    a die, comes from outside the picture (it reaches the frame's edge, or is joined to it by
    a sleeve: ``reaches_in``) and is new: not there in ``before``, the table as it lay before
    the roll.  A wooden table is skin-coloured too: an arm that swept over it while throwing
    left it as it was, and a hand on it is told from it by being new.  Where ``before`` is no
    reference (``differs_from``), the region must be mostly where the roll ``moved``, and a
    bare arm is the only arm it knows."""
    if len(readings) == 0:
        return False
    ycrcb = cv2.cvtColor(small, cv2.COLOR_BGR2YCrCb)
    skin = cv2.inRange(ycrcb, (40, 138, 77), (240, 173, 127))
    scale = skin.shape[1] / width
    dice = np.zeros_like(skin)
    for quad in readings.quads:
        cv2.fillConvexPoly(dice, np.round(quad * scale).astype(np.int32), 255)
    near = max(3, int(np.median(readings.sizes) * scale / 2) | 1)
    dice = cv2.dilate(dice, np.ones((near, near), np.uint8)) > 0
    if not skin[dice].any():  # no skin by the dice that a hand could be part of
        return False
    new = differs_from(before, small, level, moved)
    if new is None:
        return reaches_in(skin, dice, area, moved=moved)
    changed = new.any(axis=2)
    return reaches_in(np.where(changed, skin, 0).astype(np.uint8), dice, area, sleeve=changed & ~dice)


def reaches_in(
    mask: np.ndarray,
    dice: np.ndarray,
    area: tuple[float, float],
    moved: np.ndarray | None = None,
    sleeve: np.ndarray | None = None,
) -> bool:
    """Whether a region of ``mask`` touches ``dice``, (given ``moved``) lies mostly where the
    roll moved, and comes from outside the picture: it reaches the frame's edge and covers a
    share of the frame within ``area`` (a bare arm and its hand), or, given ``sleeve`` (what
    changed besides the dice), it is a hand, a third of ``area``'s least or more, joined to
    the edge by a sleeve as large as that again, the two at least ``area``'s least."""
    count, regions, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    h, w = mask.shape
    arms = None
    for i in range(1, count):
        x, y, bw, bh, pixels = stats[i]
        share = pixels / (h * w)
        if not area[0] / 3 <= share <= area[1]:
            continue
        region = regions == i
        if not (dice & region).any() or (moved is not None and moved[region].mean() <= 0.5):
            continue
        if share >= area[0] and (x == 0 or y == 0 or x + bw == w or y + bh == h):
            return True
        if sleeve is None:
            continue
        if arms is None:  # what changed, joined up: each part's pixels, and whether it reaches the edge
            _, arms, arm_stats, _ = cv2.connectedComponentsWithStats((sleeve | (mask > 0)).astype(np.uint8))
        arm = arms[region][0]
        ax, ay, aw, ah, arm_pixels = arm_stats[arm]
        at_edge = ax == 0 or ay == 0 or ax + aw == w or ay + ah == h
        if at_edge and arm_pixels - pixels >= area[0] / 3 * h * w and arm_pixels >= area[0] * h * w:
            return True
    return False


def differs_from(
    before: np.ndarray, small: np.ndarray, level: int, moved: np.ndarray | None = None
) -> np.ndarray | None:
    """Where ``small`` differs from ``before`` by more than ``level`` once matched to its
    place and light; None when they are no longer pictures of one table (the camera came
    back at another size, the light changed past matching, or most of the picture differs:
    the camera moved)."""
    if before.shape != small.shape:
        return None
    gain = (float(small.mean()) + 1) / (float(before.mean()) + 1)
    if not 1 / MOST_LIGHT_GAIN <= gain <= MOST_LIGHT_GAIN:
        return None
    still = None if moved is None else ~moved.any(axis=2)
    differs = cv2.absdiff(relit(steadied(before, small), small, still), small) > level
    return None if differs.mean() > NO_REFERENCE else differs


def vote(frames: list[DieReadings], min_presence: float = 0.5) -> DieReadings:
    """The dice of a settled table: dice matched across frames by their centres, each die's
    label the one with the most confidence summed over the frames, ordered left to right."""
    tracks: list[list[DieReading]] = []
    for readings in frames:
        match(tracks, list(readings))
    need = min_presence * len(frames)
    return left_to_right(
        DieReadings.from_dice([decide(track, len(frames)) for track in tracks if len(track) >= need])
    )


def left_to_right(dice: DieReadings) -> DieReadings:
    """The dice ordered by their centres, left to right (top to bottom where level), as a
    roll reports them."""
    return dice[np.lexsort(dice.centers.T[::-1])]


def match(tracks: list[list[DieReading]], dice: list[DieReading]) -> None:
    """Append each die to the track whose centre is nearest (within half a die), nearest pairs
    first, one die per track; a die matching no track starts one."""
    if tracks and dice:
        centres = np.array([np.mean([d.center for d in track], 0) for track in tracks])
        sizes = np.sqrt(np.abs(quad_areas(np.array([d.quad for d in dice]))))
        distance = np.linalg.norm(centres[:, None] - np.array([d.center for d in dice])[None], axis=2)
        distance[distance > np.maximum(sizes / 2, 3)[None]] = np.inf
        taken_tracks, taken_dice = set(), set()
        for flat in np.argsort(distance, axis=None):
            t, d = np.unravel_index(flat, distance.shape)
            if not np.isfinite(distance[t, d]):
                break
            if t not in taken_tracks and d not in taken_dice:
                tracks[t].append(dice[d])
                taken_tracks.add(t)
                taken_dice.add(d)
        dice = [die for i, die in enumerate(dice) if i not in taken_dice]
    tracks.extend([die] for die in dice)


def decide(track: list[DieReading], frames: int) -> DieReading:
    """One die from its readings over the settled frames: the label with the most summed
    confidence wins; its confidence is that sum over all settled frames (a die missed in
    some frames is less sure); the crop is its most confident reading's."""
    counts: dict[str, float] = {}
    top: dict[str, float] = {}
    for die in track:
        if die.label is not None:
            counts[die.label] = counts.get(die.label, 0.0) + die.confidence
        for label, p in die.top:
            top[label] = top.get(label, 0.0) + p / frames
    if counts:
        label = max(counts, key=counts.get)
        best = max((die for die in track if die.label == label), key=lambda die: die.confidence)
        confidence = counts[label] / frames
    else:
        label, best, confidence = None, track[-1], 0.0
    return DieReading(
        quad=np.mean([die.quad for die in track], 0).astype(np.float32),
        label=label,
        confidence=float(confidence),
        top=sorted(top.items(), key=lambda item: -item[1])[:5],
        score=float(np.mean([die.score for die in track])),
        cocked=sum(die.cocked for die in track) * 2 > len(track),
        crop=best.crop,
    )


def faces_looked_again(voted: DieReadings, again: DieReadings) -> DieReadings:
    """The voted dice with each face read as ``again`` (a second, surer reading of the settled
    table) reads it: label, confidence, likeliest faces and crop, where ``again`` found the
    die within half a die of its voted centre and named a face; a face it names against the
    vote's less surely than ``UNSURE_DISPUTED_FACE`` is left unread, its likeliest faces
    kept. A die it could not read keeps its vote, and so does one it missed, unless the vote
    was unsure of it too (``UNSURE_VOTE``): then it is no die. A die it found that the vote
    lacks is added if it reads that face surely (``SURE_LOOK``). Where the voted dice are,
    and which lean, stay the vote's: the settled frames agree on them better than one look
    does. Left to right."""
    if len(voted) == 0 or len(again) == 0:  # nothing looked at (no game at the table): the vote stands
        return voted
    distance = np.linalg.norm(voted.centers[:, None] - again.centers[None], axis=2)
    distance[distance > np.maximum(voted.sizes / 2, 3)[:, None]] = np.inf
    doubted = ~np.isfinite(distance).any(1) & (voted.confidences < UNSURE_VOTE)
    dice, looks = list(voted), list(again)
    relabelled, used = set(), set()
    for flat in np.argsort(distance, axis=None):  # nearest pairs first, one look per die
        v, a = (int(i) for i in np.unravel_index(flat, distance.shape))
        if not np.isfinite(distance[v, a]):
            break
        if v in relabelled or a in used or looks[a].label is None:
            continue
        relabelled.add(v)
        used.add(a)
        seen = looks[a]
        disputed = seen.label != dice[v].label and seen.confidence < UNSURE_DISPUTED_FACE
        label = None if disputed else seen.label
        dice[v] = replace(dice[v], label=label, confidence=seen.confidence, top=seen.top, crop=seen.crop)
    dice = [die for die, no_die in zip(dice, doubted, strict=True) if not no_die]
    unvoted = ~np.isfinite(distance).any(0)
    dice += [look for look, new in zip(looks, unvoted, strict=True) if new and look.confidence >= SURE_LOOK]
    return left_to_right(DieReadings.from_dice(dice))


def where_new(changed: np.ndarray | None, moved: np.ndarray | None) -> np.ndarray | None:
    """Where a settled table is new since its throw: where it ``changed`` from the table as it
    lay before (``differs_from``), or where the throw ``moved`` when that is no reference;
    None for a photo, which had no throw."""
    if changed is not None:
        return changed.any(axis=2)
    return None if moved is None else moved.any(axis=2)


def lying_where_new(dice: DieReadings, new: np.ndarray | None, width: int) -> DieReadings:
    """The dice whose top face (a box half its side each way round its centre, and a pixel
    more) touches the ``new`` part of a frame ``width`` pixels wide (``where_new``): all of
    them where there is no such part to look in."""
    if new is None or len(dice) == 0:
        return dice
    scale = new.shape[1] / width
    keep = []
    for i, (centre, size) in enumerate(zip(dice.centers * scale, dice.sizes * scale, strict=True)):
        reach = size / 2 + 1
        (x0, y0), (x1, y1) = np.floor(centre - reach).astype(int), np.ceil(centre + reach).astype(int)
        if new[max(y0, 0) : y1 + 1, max(x0, 0) : x1 + 1].any():
            keep.append(i)
    return dice[keep]


def unread_if_unsure(dice: DieReadings, least: float) -> DieReadings:
    """The dice with each face read less surely than ``least`` left unread (its likeliest
    faces kept, for the tap that fixes it): a vote that names a face in a few of the settled
    frames, and no second look that reads it, is a guess (17 of 22 such faces were wrong in
    the rendered rolls of session 49, among them a die's glare voted a 2 and a five a four),
    and so is a look that hardly prefers one face (``UNSURE_ROLL_FACE``)."""
    unsure = [i for i, die in enumerate(dice) if die.label is not None and die.confidence < least]
    if not unsure:
        return dice
    return DieReadings.from_dice(
        [replace(die, label=None) if i in unsure else die for i, die in enumerate(dice)]
    )


def nothing_rolled(dice: DieReadings, before: DieReadings, landed: DieReadings | None = None) -> bool:
    """The dice settled again without a roll: every die lies where a die of the last roll lay
    (a hand passed over, or took some away), or every die of the last roll still lies where it
    lay (nothing was picked up, so whatever is found besides is a die the last roll's reading
    missed, not a new throw: no game here adds dice without picking any up), or the camera was
    knocked and sees the same dice from elsewhere.  Unless they show other faces: dice thrown
    low from one hand land near where they lay, and only their faces tell the throw.  Nor is
    it nothing where a die ``landed`` (the dice lying where the table changed since the throw,
    where that is known) away from the last roll's places: a last roll of only what lay
    there still, a card taken for a die as watching began, is never picked up."""
    if shows_other_faces(dice, before):
        return False
    kept = all_seen_before(before, dice) and (landed is None or all_seen_before(landed, before))
    return all_seen_before(dice, before) or kept or moved_as_one(dice, before)


def shows_other_faces(dice: DieReadings, before: DieReadings) -> bool:
    """At least two dice, and at least half of those read in the smaller of the two rolls, show
    faces the other roll does not (as multisets, so dice taken away or a die missed before
    change nothing, nor does the camera moving).  A settled die is read alike each time it is
    voted on, but one may be misread, so one changed face is not enough."""
    now = Counter(label for label in dice.labels if label is not None)
    was = Counter(label for label in before.labels if label is not None)
    changed = min((now - was).total(), (was - now).total())
    return changed >= 2 and 2 * changed >= min(now.total(), was.total())


def moved_as_one(dice: DieReadings, before: DieReadings, least: int = 4) -> bool:
    """The last roll's dice seen by a camera that was moved, turned or brought nearer: one
    similarity (a shift, a turn, a scale of 0.8-1.25) takes every one of the ``least`` or more
    dice onto a die now, within a third of a die.  A throw scatters the dice anew; three
    could fall into the same triangle by chance, four in the same shape hardly."""
    if len(dice) != len(before) or len(dice) < least:
        return False
    was = before.centers[:, 0] + 1j * before.centers[:, 1]  # points as complex numbers: z -> s z + t
    now = dice.centers[:, 0] + 1j * dice.centers[:, 1]
    far = int(np.argmax(np.abs(was - was[0])))  # the last roll's die 0 and the die farthest from it
    reach = np.median(before.sizes) / 3
    for k in range(len(now)):
        for m in range(len(now)):
            if k == m:
                continue
            scale = (now[m] - now[k]) / (was[far] - was[0])
            if not 0.8 <= abs(scale) <= 1.25:
                continue
            mapped = scale * (was - was[0]) + now[k]
            if (np.abs(mapped[:, None] - now[None]).min(1) < reach * abs(scale)).all():
                return True
    return False


def all_seen_before(dice: DieReadings, before: DieReadings) -> bool:
    """Every die lies where a die of the last roll lay, once a small drift of the camera shared
    by all the dice is taken away: nothing was rolled (a hand passed over, or took some away).
    Faces are not compared die by die: a die that has not moved shows the face it showed, and
    may be misread differently (``shows_other_faces`` compares the roll's faces)."""
    if len(before) == 0:
        return False
    distance = np.linalg.norm(dice.centers[:, None] - before.centers[None], axis=2)
    nearest = distance.argmin(1)
    offsets = dice.centers - before.centers[nearest]
    # A camera held in the hand drifts: three dice or more all moved alike, by less than half
    # a die, were not rolled (a throw scatters them; a push of them all is no throw either).
    drift = np.median(offsets, 0)
    if len(dice) >= 3 and np.linalg.norm(drift) < np.median(before.sizes) / 2:
        offsets -= drift
    return bool((np.linalg.norm(offsets, axis=1) < np.maximum(before.sizes[nearest] / 3, 3)).all())
