"""Face artwork (datasets.faces.families): every rendered face is one a reader could name.

Crops come at any turn, so a face that is another label's face turned round, or a red joker
printed without red, is a label no reader could give: the tests and training sets must not
hold them.
"""

import numpy as np

from datasets.faces.families import card_ink, court_picture
from datasets.faces.render import face_artwork

SEEDS = range(200)


def inked(canvas, face_colour):
    return np.abs(canvas - face_colour).max(axis=2) > 0.25


def test_a_6_turned_round_is_never_the_9_of_the_same_layout():
    # free_layout puts the suit anywhere but beside the rank, and sometimes only in the
    # corners: without a mark, 6D turned half round was 9D pixel for pixel (IoU up to 0.99)
    for seed in SEEDS:
        six, six_face = face_artwork(np.random.default_rng(seed), "6D", "free_layout")
        nine, nine_face = face_artwork(np.random.default_rng(seed), "9D", "free_layout")
        turned, other = inked(six[::-1, ::-1], six_face), inked(nine, nine_face)
        overlap = (turned & other).sum() / (turned | other).sum()
        assert overlap < 0.8, f"seed {seed}: 6D turned round covers 9D at IoU {overlap:.2f}"


def test_a_red_joker_always_shows_red_and_a_black_one_mostly_none():
    def red_pixels(canvas):  # BGR: red leads blue and green by a clear margin
        return int(((canvas[..., 2] - np.maximum(canvas[..., 0], canvas[..., 1])) > 0.3).sum())

    red = [red_pixels(face_artwork(np.random.default_rng(s), "JOKER_RED", "joker")[0]) for s in SEEDS]
    black = [red_pixels(face_artwork(np.random.default_rng(s), "JOKER_BLACK", "joker")[0]) for s in SEEDS]
    assert min(red) >= 5  # the word JOKER alone was printed black on one red joker in seven
    # a black joker shows red only in a misregistered plate's fringe
    assert sum(n >= 5 for n in black) < len(SEEDS) / 10


def court_colour_pixels(canvas):
    """Pixels of a court picture's gold or blue (no heart is printed in either)."""
    b, g, r = canvas[..., 0], canvas[..., 1], canvas[..., 2]
    gold = (r > 0.7) & (g > 0.55) & (b < 0.3)
    blue = (b > 0.5) & (r < 0.25) & (g < 0.45)
    return int((gold | blue).sum())


def test_a_court_cards_corner_shows_its_picture_and_an_aces_shows_none():
    # a real card's corner index of a J, Q or K has the picture's frame and colours beside it
    court = [
        court_colour_pixels(face_artwork(np.random.default_rng(s), "QH", "corner_index")[0]) for s in SEEDS
    ]
    aces = [
        court_colour_pixels(face_artwork(np.random.default_rng(s), "AH", "corner_index")[0]) for s in SEEDS
    ]
    # material and table colours are sometimes gold or blue too: 16 of 200 aces here; two in
    # five courts show the picture (82 of 200), and two others a large suit instead
    assert sum(n > 20 for n in court) > len(SEEDS) / 4
    assert sum(n > 20 for n in aces) < len(SEEDS) / 10


def test_a_court_picture_stays_right_of_and_below_its_corner():
    # the index lies left of the picture; painting over it would print another card
    canvas = np.full((120, 120, 3), 0.9, np.float32)
    before = canvas.copy()
    court_picture(np.random.default_rng(3), canvas, left=50, top=40, ink=np.zeros(3))
    assert np.array_equal(canvas[:, :50], before[:, :50]) and np.array_equal(canvas[:40], before[:40])
    assert court_colour_pixels(canvas[40:, 50:]) > 100


def suit_beside_rank(canvas, face_colour):
    """Print level with the index, right of it, with no court picture's colours anywhere."""
    S = canvas.shape[0]
    beside = inked(canvas, face_colour)[int(0.3 * S) : int(0.5 * S), int(0.62 * S) : int(0.85 * S)]
    return beside.mean() > 0.3 and court_colour_pixels(canvas) <= 20


def test_some_court_corners_print_a_large_suit_beside_the_rank():
    # a real deck's QC and QS, with a large suit there, read as 10C and 10S (and still mostly
    # do): only number cards' corners had had print beside the index (3 of 200 then, from a
    # table or material colour)
    def count(label):
        faces = (face_artwork(np.random.default_rng(s), label, "corner_index") for s in SEEDS)
        return sum(suit_beside_rank(*face) for face in faces)

    assert count("QS") > len(SEEDS) / 5 and count("KH") > len(SEEDS) / 5
    assert count("AS") < len(SEEDS) / 20 and count("7S") < len(SEEDS) / 20


def test_four_colour_decks_give_suits_shared_inks_and_hearts_stay_red():
    # a network that learnt "coloured print is a red suit" read a real deck's violet spades as hearts
    inks = {suit: [card_ink(np.random.default_rng(s), "7" + suit) for s in range(400)] for suit in "SHDC"}

    def blue(ink):
        b, g, r = ink
        return b > 0.55 and b > g + 0.15 and b > r + 0.15

    def black(ink):
        return max(ink) < 0.3

    assert all(r > 0.55 and r > b + 0.3 and r > g + 0.3 for b, g, r in inks["H"])
    assert all(any(blue(ink) for ink in inks[suit]) for suit in "SDC")
    coloured_spades = sum(not black(ink) for ink in inks["S"])
    assert 0.05 * 400 < coloured_spades < 0.15 * 400
