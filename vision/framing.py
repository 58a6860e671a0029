"""Whether the camera sees the dice big enough to read them: a hint for the player.

    view = seen_at(detector, frame, source.stills)     # how the detector saw the roll's frame
    hint = size_hint(event.dice, "square-shooters", view)   # None, or a line to show the player

The camera's face model reads a die from its top face cut out of the frame; a face only a
few pixels across has lost its print before the model sees it.  Measured on the rendered
scenes (docs/vision-limits.md, "Dice size"), the camera's model at one turn reads card dice 20%
right under 14 px across, 42-68% at 14-26 px and about 80% from 26 px up.  A webcam's
picture is softer than a render: under blur of 0.8 px and JPEG 80 (session 33), a settled
roll's dice of held-out artwork, read as its second look reads them, are right for Cubes
55% and 64% at 14-18 and 18-22 px and 80-87% from 22 px up (clean: 83%, 89%, 82-97%); for
pips 83-91% under 18 px and 95-100% from 18.  Moving the camera closer, or zooming in, is
the player's cheapest fix.

The dice must also be big enough to be found.  The camera's quick pass looks at each frame
shrunk to the detector's view (384 x 288), so in a larger frame the dice are smaller to it
than the frame shows them: a 1280 x 720 frame's dice by 0.3 (``Detector.view``).
Measured in session 77 on 286 held-out stills, each shown smaller in the middle of a frame
up to 4 times its size (docs/vision-limits.md), the pass finds card dice 85% at 8-10 px in
its view and 95-99% from 10; pips 81% at 8-10, 91% at 10-12 and 93-98% from 12; Cubes 74% at
10-12, 83-85% at 12-16 and 87-95% from 16.  A roll whose dice the pass misses is reported
short, or not at all.
"""

from __future__ import annotations

import math

import numpy as np

from vision.readings import DieReadings

# the face's side in frame pixels from which each kind of die reads near its best
READABLE_SIDE_PX = {"square-shooters": 26, "cubes": 22, "d6": 18}
# the face's side in the detector's view from which the camera's pass finds each kind of die
FINDABLE_SIDE_PX = {"square-shooters": 10, "cubes": 16, "d6": 12}
PLAYERS_WORDS = {"square-shooters": "card dice", "cubes": "Cubes dice", "d6": "pip dice"}


def wanted_side(kind: str, view_scale: float) -> int:
    """The top face's side in frame pixels from which ``kind`` is found and read near its
    best, in frames whose pixels make ``view_scale`` of the detector's view."""
    return max(READABLE_SIDE_PX[kind], math.ceil(FINDABLE_SIDE_PX[kind] / view_scale))


def seen_at(detector, frame: np.ndarray, stills: bool) -> float:
    """The ``view_scale`` of a roll's ``frame`` for ``size_hint``: how much smaller the
    detector's quick pass saw it (``Detector.view``); a photo's dice are looked for at every
    scale, so they count as big as the frame shows them."""
    return 1.0 if stills else detector.view(frame)


def size_hint(dice: DieReadings, kind: str, view_scale: float) -> str | None:
    """A line asking the player to bring the camera closer when the roll's dice are, by the
    median of their top faces, smaller than ``kind`` is found and read well in frames whose
    pixels make ``view_scale`` of the detector's view (``Detector.view``); None when
    they are not (or no die was seen)."""
    if not len(dice):
        return None
    side = float(np.median(dice.sizes))
    wanted = wanted_side(kind, view_scale)
    if side >= wanted:
        return None
    where = "" if wanted == READABLE_SIDE_PX[kind] else " in pictures this size"
    return (
        f"the dice look small to the camera (top faces about {side:.0f} px across; {PLAYERS_WORDS[kind]}"
        f" read best from {wanted} px{where}): move the camera closer or zoom in"
    )


def unread_hint(kind: str) -> str:
    """The line for a settled table that changed where the camera could find nothing it read
    surely as a die (``RollTracker.could_not_read``): dice too far to read, or no dice."""
    return (
        f"something settled on the table that the camera could not read as {PLAYERS_WORDS[kind]}:"
        " if you rolled, move the camera closer or zoom in"
    )
