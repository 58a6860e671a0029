"""Whether the camera sees the dice big enough to read them: a hint for the player.

    hint = size_hint(event.dice, "square-shooters")   # None, or a line to show the player

The camera's face model reads a die from its top face cut out of the frame; a face only a
few pixels across has lost its print before the model sees it.  Measured on the rendered
scenes (docs/vision.md, "Dice size"), the camera's model at one turn reads card dice 20%
right under 14 px across, 42-68% at 14-26 px and about 80% from 26 px up; Cubes and pip
dice hold about 90% and 96% down to 14 px and lose a fifth and a tenth below it.  Moving
the camera closer, or zooming in, is the player's cheapest fix.
"""

from __future__ import annotations

import numpy as np

from vision.readings import DieReadings

# the face's side in frame pixels from which each kind of die reads near its best
READABLE_SIDE_PX = {"square-shooters": 26, "cubes": 14, "d6": 14}
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
