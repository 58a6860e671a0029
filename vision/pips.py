"""Count the pips on a die face by their layout, a check that needs no learnt artwork.

    count = count_pips(crop)        # 1-6, or None when the crop shows no clean pip layout
    count = count_pips(crop, wider)  # the same face cut wider, counted where the crop shows none

The face network learnt pips from renders; this reads any pips, round, square or ringed, dark
on a light face or light on a dark one, by what every die shares: spots of one size on a
3 x 3 grid in one of six layouts, and nothing where the layout has no pip.  It answers only
when all of that holds (a numeral, a smudge, glare or a crop cut through a pip gives None),
so it may be trusted over the network where it answers: of 12,949 d6 and Cubes dice in
rendered scenes it counted 2,472 and miscounted 3 (docs/vision.md, "Counting pips").
"""

from __future__ import annotations

import cv2
import numpy as np

# Pip centres on the 3 x 3 grid, (column, row) about the centre, for each count; the
# layouts of 2, 3 and 6 also come turned a right angle (``_layouts``).
LAYOUTS = {
    1: ((0, 0),),
    2: ((-1, -1), (1, 1)),
    3: ((-1, -1), (0, 0), (1, 1)),
    4: ((-1, -1), (1, -1), (-1, 1), (1, 1)),
    5: ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
    6: ((-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)),
}
GRID = tuple((column, row) for row in (-1, 0, 1) for column in (-1, 0, 1))
SIZE = 64  # crops are counted at this side
SEARCHED = 0.94  # middle share of the crop searched for pips; spots touching its edge are the
# die's own edge, a side face or the table, not pips
FACE_SAMPLE = 0.8  # middle share of the crop whose median colour is the face's
MIN_CONTRAST = 25.0  # Lab distance from the face colour that the strongest print must reach
MIN_INK = 18.0  # ... and that a pixel needs to count as print at all
INK_SHARE = 0.45  # of the strongest print's contrast: the threshold between print and face
PIP_AREA = (0.004, 0.09)  # of the crop's area: from a small pip to a large one-spot
ONE_AREA = 0.012  # of the crop's area: a lone spot smaller than this is a glint, not a one
MIN_ROUNDNESS = 0.7  # 4 pi area / perimeter squared: a disc 1, a square 0.79, a numeral less
MOST_ELONGATION = 1.8  # a spot's longer side over its shorter side
CUT_ELONGATION = 3.0  # a pip cut by the crop's edge is at most this long for its width
MIDWAY = 0.1  # of the crop's side: a lone spot this near the middle of two cut pips is theirs
MOST_AREA_SPREAD = 2.2  # the largest pip's area over the smallest's
SPACING = (0.15, 0.36)  # pip spacing on the grid, of the crop's side
ONE_SPACING = 0.27  # of the crop's side: the usual spacing, to look for pips beside a one
MOST_SQUASH = 1.6  # the grid's longer spacing over its shorter (a face seen at about 50 degrees)
MOST_OFF_GRID = 0.4  # of the spacing, a pip's distance from its grid point
OFF_CENTRE = 0.12  # of the crop's side, the layout's middle from the crop's centre
EMPTY_AT_MOST = 0.4  # an empty grid point's contrast over the pips' mean contrast
EDGE_BAND = 0.15  # of the searched square, along each side: where a die's rounded edge shows
# pixels: an opening this wide wipes the edge's line there, not a pip (about 10 px across);
# at 5 a rim's highlight 4-5 px wide, common on the renders' rounded edges, stayed joined to the
# corner pips it touched (docs/vision-limits.md, session 81)
EDGE_OPENING = 9
# A lone spot's diagonals are looked along this far (of the crop's side, each way) for its
# corner pips cut by an outline inside the face all round, there when at least INKED_SHARE of
# a disc stands out as strongly as half the spot and its colour is within SAME_INK (Lab,
# 8-bit units) of the spot's: cut from their true outlines shrunk to 0.85, rendered threes and
# fives were counted as ones 23 times in 1,547 number faces (docs/vision.md, session 82)
DIAGONAL_REACH = (0.33, 0.38, 0.43)
INKED_SHARE = 0.25
SAME_INK = 30.0
# pixels: a closing this wide fills a glint's notch in a pip's rim (black pips on ivory, a
# glint a third of a pip across: 23 of 60 drawn faces counted, 56 with it) and bridges no
# gap between pips (about 7 px); a third try only (docs/vision.md, session 82)
GLINT_CLOSING = 5
GLINT_DISC = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (GLINT_CLOSING, GLINT_CLOSING))


def count_pips(crop: np.ndarray, wider: np.ndarray | None = None) -> int | None:
    """The number of pips on the die face in BGR ``crop`` (rectified, any right-angle turn),
    or None when it does not show a clean pip layout.  ``wider``, the same face cut wider,
    is counted where ``crop`` shows none (an outline a little inside the face cuts its corner
    pips), though not as a one: cut wider, a small face's blurred numeral passed for a lone
    pip (two held-out framed dice at 17-19 px, session 82)."""
    count = count_cut(crop)
    if count is None and wider is not None:
        count = count_cut(wider)
        if count == 1:
            return None
    return count


def count_cut(crop: np.ndarray) -> int | None:
    """``count_pips`` of one cut of a face."""
    crop = np.asarray(crop)
    shrink = max(crop.shape[:2]) > SIZE
    crop = cv2.resize(crop, (SIZE, SIZE), interpolation=cv2.INTER_AREA if shrink else cv2.INTER_LINEAR)
    lab = cv2.cvtColor(crop, cv2.COLOR_BGR2LAB).astype(np.float32)
    contrast = contrast_to_face(lab)
    count = count_layout(contrast, lab)
    if count is not None:
        return count
    # Tried again, a die's rounded edge wiped: it can show as a thin line along the crop's
    # sides, joining a corner pip or taken for print that is no pip.  Then with notches closed
    # too: a drilled pip catches the lamp in its hollow, and a glint at its rim leaves it not
    # round (closing on the first try counted fewer faces: ``GLINT_CLOSING``).  Either may
    # thin faint corner pips away, so a lone middle spot found so is not a one.
    for close_glints in (False, True):
        count = count_layout(contrast, lab, wipe_edges=True, close_glints=close_glints)
        if count is not None:
            return None if count == 1 else count
    return None


def count_layout(
    contrast: np.ndarray, lab: np.ndarray, wipe_edges: bool = False, close_glints: bool = False
) -> int | None:
    """The pip count of a face's contrast map (``contrast_to_face`` of its ``lab`` colours), or
    None when its spots are no clean layout; ``wipe_edges`` first wipes thin lines along its
    sides, ``close_glints`` fills notches in the print (``GLINT_CLOSING``)."""
    spots = find_spots(contrast, wipe_edges, close_glints)
    if spots is None:
        return None
    centres, areas, cut, cut_sides = spots
    if len(centres) > 6:
        return None
    if len(centres) <= 2 and any(
        midway_between(spot, np.vstack([np.delete(centres, i, 0), cut])) for i, spot in enumerate(centres)
    ):
        return None  # a spot midway between pips the crop cuts, or the other spot and one: the
        # middle pip of a 3 or a 5 whose corner pips an outline inside the face cuts
    if len(centres) == 1 and inked_diagonal(contrast, lab, centres[0], areas[0]):
        return None  # ... or whose corner pips it cuts in its own corners and wipes
    if len(set(cut_sides)) >= 2:
        return None  # an outline off the face: it cuts pips on two sides, and the whole ones
        # left may make a smaller layout (a 5 cut on a slant showed its diagonal as a 3)
    if areas.max() > MOST_AREA_SPREAD * areas.min() or (len(areas) == 1 and areas[0] < ONE_AREA):
        return None  # pips of mixed sizes, or a lone speck (glare, a smudge): no layout
    grid = fit_grid(centres / SIZE - 0.5)
    if grid is None:
        return None
    spacing, middle, points = grid
    if points not in _layouts(len(centres)):
        return None
    if len(centres) == 4 and cuts_a_third_row(cut, cut_sides, spacing, middle):
        return None  # a 6 turned, its third row cut off by the crop's edge, is no 4
    radius = np.sqrt(np.median(areas) / np.pi) * SIZE
    inked = np.mean([disc_mean(contrast, centre, radius) for centre in centres])
    for point in set(GRID) - set(points):
        where = (middle + spacing * np.array(point) + 0.5) * SIZE
        if disc_mean(contrast, where, radius) > EMPTY_AT_MOST * inked:
            return None  # a pip too faint to find where the layout says none is: a worn or
            # glared face whose true count is higher
    return len(centres)


def contrast_to_face(lab: np.ndarray) -> np.ndarray:
    """Each pixel's distance from the face's median colour (``lab``: a crop's Lab colours):
    pips stand out whichever of the two is darker, and whatever their colours."""
    margin = int(SIZE * (1 - FACE_SAMPLE) / 2)
    face = np.median(lab[margin : SIZE - margin, margin : SIZE - margin].reshape(-1, 3), 0)
    return np.linalg.norm(lab - face, axis=2)


def find_spots(
    contrast: np.ndarray, wipe_edges: bool = False, close_glints: bool = False
) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[int]] | None:
    """Centres (N x 2, crop pixels) and areas (share of the crop) of the pip-like spots of
    print, holes filled (ring pips); and the centres of the pip-sized spots that the crop's
    edge cuts through (a face outlined inside its edges) with the side that cuts each (0-3:
    left, top, right, bottom); None when the face shows no print or print that is not
    pip-like (a numeral, a word, a smudge).  ``wipe_edges``: thin lines along the sides are
    no print (``without_edge_lines``); ``close_glints``: notches in the print are filled
    (``GLINT_CLOSING``)."""
    margin = int(SIZE * (1 - SEARCHED) / 2)
    searched = contrast[margin : SIZE - margin, margin : SIZE - margin]
    strongest = np.percentile(searched, 99)
    if strongest < MIN_CONTRAST:
        return None
    ink = (searched > max(MIN_INK, INK_SHARE * strongest)).astype(np.uint8)
    if close_glints:
        ink = cv2.morphologyEx(ink, cv2.MORPH_CLOSE, GLINT_DISC)
    pieces = cv2.connectedComponentsWithStats(ink, connectivity=8)
    cut, cut_sides = cut_pips(pieces, ink.shape[0])  # before any wiping, which thins a cut pip away
    if wipe_edges:
        ink = without_edge_lines(ink)
        pieces = cv2.connectedComponentsWithStats(ink, connectivity=8)
    _, labels, stats, _ = pieces
    at_edge = sides_touched(stats, ink.shape[0]).any(1)
    at_edge[0] = False  # the background
    ink[at_edge[labels]] = 0
    # fill holes (ring pips): what the background flooded from outside cannot reach is inside
    outside = np.pad(1 - ink, 1, constant_values=1)
    cv2.floodFill(outside, None, (0, 0), 2)
    ink[outside[1:-1, 1:-1] != 2] = 1
    contours, _ = cv2.findContours(ink, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    found, areas = [], []
    for contour in contours:
        share, pip_like = spot_shape(contour)
        if share < PIP_AREA[0]:
            continue  # a speck of noise
        if not pip_like:
            return None
        moments = cv2.moments(contour)
        found.append(np.array([moments["m10"], moments["m01"]]) / max(moments["m00"], 1e-6) + margin)
        areas.append(share)
    if not found:
        return None
    return np.array(found), np.array(areas), cut + margin, cut_sides


def spot_shape(contour: np.ndarray) -> tuple[float, bool]:
    """A piece of print's share of the crop (its outline's own pixels too), and whether it is
    shaped as a pip: no bigger than a large one, round or square, not long."""
    area = cv2.contourArea(contour) + 0.5 * len(contour)
    share = area / SIZE**2
    _, (w, h), _ = cv2.minAreaRect(contour)
    roundness = 4 * np.pi * area / max(cv2.arcLength(contour, True) + 2, 1) ** 2
    long = max(w, h) > MOST_ELONGATION * max(min(w, h), 1)
    return share, bool(share <= PIP_AREA[1] and roundness >= MIN_ROUNDNESS and not long)


def sides_touched(stats: np.ndarray, side: int) -> np.ndarray:
    """N x 4: whether each piece of ``connectedComponentsWithStats``'s ``stats`` touches the
    left, top, right and bottom side of a mask ``side`` pixels square."""
    x, y, w, h = stats[:, 0], stats[:, 1], stats[:, 2], stats[:, 3]
    return np.stack([x == 0, y == 0, x + w == side, y + h == side], 1)


def cut_pips(pieces: tuple, side: int) -> tuple[np.ndarray, list[int]]:
    """The centres of the pieces of print (``connectedComponentsWithStats`` of a mask ``side``
    pixels square) that are pips cut by the mask's edge, and the side cutting each: a cut pip
    touches one side and is pip-sized and not long; a die's edge shows as a thin line or a
    wide shade, and the table in a loose crop's corner touches two."""
    _, _, stats, centroids = pieces
    touched = sides_touched(stats, side)
    w, h, shares = stats[:, 2], stats[:, 3], stats[:, 4] / SIZE**2  # of the crop, each piece
    cut = (
        (touched.sum(1) == 1)
        & (shares >= PIP_AREA[0])
        & (shares <= PIP_AREA[1])
        & (np.maximum(w, h) <= CUT_ELONGATION * np.minimum(w, h))
    )
    cut[0] = False  # the background
    return centroids[cut], touched[cut].argmax(1).tolist()


def cuts_a_third_row(cut: np.ndarray, cut_sides: list[int], spacing: np.ndarray, middle: np.ndarray) -> bool:
    """Whether one side of the crop cuts two pips (``cut``, crop pixels, on ``cut_sides``) in
    line with a four's two rows (for the left or right side) or its two columns (the top or
    the bottom), the four's grid being ``spacing`` and ``middle`` (crop sides): the layout
    goes on past the crop, as a six's does whose third row an outline off the face cut."""
    steps = (cut / SIZE - 0.5 - middle) / spacing  # grid steps from the layout's middle, x and y
    sides = np.array(cut_sides)
    for side in set(cut_sides):
        along = steps[sides == side, 1 if side in (0, 2) else 0]  # a left or right cut: its row
        lines = np.round(along)
        in_line = (np.abs(along - lines) <= MOST_OFF_GRID) & (np.abs(lines) == 1)
        if set(lines[in_line].tolist()) == {-1.0, 1.0}:
            return True
    return False


def inked_diagonal(contrast: np.ndarray, lab: np.ndarray, spot: np.ndarray, area: float) -> bool:
    """Whether print of the lone ``spot``'s ink (its centre in crop pixels, ``area`` its share
    of the crop) lies at both ends of one of the diagonals through it, beyond the grid a one
    is checked on (``DIAGONAL_REACH``): the corner pips of a 3 or a 5 whose outline lies inside
    the face all round, cut by the crop's corners and wiped with its edge.  The ink is the
    spot's pixels that stand out most from the face, a ring's or a disc's; the table beyond a
    loose crop's corners is seldom the pips' colour (``SAME_INK``)."""
    radius = np.sqrt(area / np.pi) * SIZE
    near = disc(contrast.shape, spot, 1.2 * radius)
    strong = contrast[near] >= 0.5 * contrast[near].max()
    ink, level = lab[near][strong].mean(0), contrast[near][strong].mean()

    def inked(centre: np.ndarray) -> bool:
        there = disc(contrast.shape, centre, 0.8 * radius)
        if there.sum() < 4:
            return False
        hot = contrast[there] >= 0.5 * level
        return hot.mean() >= INKED_SHARE and np.linalg.norm(lab[there][hot].mean(0) - ink) <= SAME_INK

    for reach in DIAGONAL_REACH:
        for way in ((1, 1), (1, -1)):
            offset = reach * SIZE * np.array(way)
            if inked(spot + offset) and inked(spot - offset):
                return True
    return False


def disc(shape: tuple, centre, radius: float) -> np.ndarray:
    """A boolean mask of ``shape`` over the disc of ``radius`` pixels (1 at least) about
    ``centre`` (x, y)."""
    mask = np.zeros(shape[:2], np.uint8)
    cv2.circle(mask, (int(round(centre[0])), int(round(centre[1]))), max(1, int(round(radius))), 1, -1)
    return mask > 0


def midway_between(spot: np.ndarray, others: np.ndarray) -> bool:
    """Whether ``spot`` lies midway between two of ``others`` (crop pixels), within ``MIDWAY``."""
    midpoints = (others[:, None] + others[None]) / 2  # of every pair, and of each with itself
    near = np.linalg.norm(midpoints - spot, axis=2) <= MIDWAY * SIZE
    return bool(np.triu(near, k=1).any())


def without_edge_lines(ink: np.ndarray) -> np.ndarray:
    """The print mask with thin lines along its sides wiped (an opening there): where a
    die's rounded edge shows as a line of highlight or shadow.  A piece of print that is a
    whole pip on its own is kept whole: the opening, nearly a pip wide, thinned a pip lying
    in a corner of the band away, and a five so counted as a three."""
    side = ink.shape[0]
    band = int(round(EDGE_BAND * side))
    opening = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (EDGE_OPENING, EDGE_OPENING))
    wiped = cv2.morphologyEx(ink, cv2.MORPH_OPEN, opening)
    wiped[band : side - band, band : side - band] = ink[band : side - band, band : side - band]
    contours, _ = cv2.findContours(ink, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    for contour in contours:
        share, pip_like = spot_shape(contour)
        x, y, w, h = cv2.boundingRect(contour)
        whole = x > 0 and y > 0 and x + w < side and y + h < side  # the mask's edge cuts none of it
        if pip_like and share >= PIP_AREA[0] and whole:
            cv2.drawContours(wiped, [contour], -1, 1, thickness=cv2.FILLED)
    return wiped


def fit_grid(offsets: np.ndarray) -> tuple[np.ndarray, np.ndarray, tuple] | None:
    """The 3 x 3 grid the spots (offsets from the crop's centre, in crop sides) sit on: its
    spacing along x and y, its middle and each spot's grid point, sorted; None when they are
    off it.  The grid may be squashed (a face seen at a slant), not turned: a rectified crop
    is square to the face (turning it, measured, miscounted more than it read).  Every
    layout is symmetric about the face's middle, so the spots' mean is the middle."""
    middle = offsets.mean(0)
    if np.linalg.norm(middle) > OFF_CENTRE:
        return None  # pips of a face cut through, or spots that are no face's
    if len(offsets) == 1:
        return np.full(2, ONE_SPACING), middle, ((0, 0),)  # where the other pips would be
    reach = np.abs(offsets - middle)
    # a corner pip's reach along an axis is the spacing; a middle pip's is 0
    spacing = np.array([np.median(r[r > 0.5 * r.max()]) if r.max() > 0 else 0.0 for r in reach.T])
    if not (SPACING[0] <= spacing.min() and spacing.max() <= min(SPACING[1], MOST_SQUASH * spacing.min())):
        return None
    steps = (offsets - middle) / spacing
    points = np.round(steps)
    if np.abs(points).max() > 1 or np.linalg.norm(steps - points, axis=1).max() > MOST_OFF_GRID:
        return None
    return spacing, middle, tuple(sorted(map(tuple, points.astype(int).tolist())))


def _layouts(count: int) -> set[tuple]:
    """The grid points of ``count`` pips, sorted, as printed and turned a right angle."""
    points = LAYOUTS[count]
    turned = tuple((-row, column) for column, row in points)
    return {tuple(sorted(points)), tuple(sorted(turned))}


def disc_mean(image: np.ndarray, centre, radius: float) -> float:
    """The mean of ``image`` over the disc of ``radius`` pixels about ``centre`` (x, y)."""
    return float(image[disc(image.shape, centre, radius)].mean())
