"""Whether the camera sees the dice big enough to read them: a hint for the player.

    hint = size_hint(event.dice, "square-shooters")   # None, or a line to show the player

The camera's face model reads a die from its top face cut out of the frame; a face only a
few pixels across has lost its print before the model sees it.  Measured on the rendered
scenes (docs/vision-limits.md, "Dice size"), the camera's model at one turn reads card dice 20%
right under 14 px across, 42-68% at 14-26 px and about 80% from 26 px up.  A webcam's
picture is softer than a render: under blur of 0.8 px and JPEG 80 (session 33), a settled
roll's dice of held-out artwork, read as its second look reads them, are right for Cubes
55% and 64% at 14-18 and 18-22 px and 80-87% from 22 px up (clean: 83%, 89%, 82-97%); for
pips 83-91% under 18 px and 95-100% from 18.  Moving the camera closer, or zooming in, is
the player's cheapest fix.
"""

from __future__ import annotations

import numpy as np

from vision.readings import DieReadings

# the face's side in frame pixels from which each kind of die reads near its best
READABLE_SIDE_PX = {"square-shooters": 26, "cubes": 22, "d6": 18}
PLAYERS_WORDS = {"square-shooters": "card dice", "cubes": "Cubes dice", "d6": "pip dice"}


def size_hint(dice: DieReadings, kind: str) -> str | None:
    """A line asking the player to bring the camera closer when the roll's dice are, by the
    median of their top faces, smaller than ``kind`` reads well; None when they are not (or
    no die was seen)."""
    if not len(dice):
        return None
    side = float(np.median(dice.sizes))
    readable = READABLE_SIDE_PX[kind]
    if side >= readable:
        return None
    return (
        f"the dice look small to the camera (top faces about {side:.0f} px across; {PLAYERS_WORDS[kind]}"
        f" read best from {readable} px): move the camera closer or zoom in"
    )
