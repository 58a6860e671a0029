"""Real decks' cards: drawn from a deck's vector file, the index found, corners cut about it."""

import shutil

import cv2
import numpy as np
import pytest

from datasets import card_decks
from datasets.card_decks import (
    CARD_HEIGHT,
    PACKED_DECKS,
    TEST_DECKS,
    PackedDeck,
    card_ids,
    corner_crops,
    deck_cards,
    index_box,
    packed_deck_cards,
    training_corners,
)
from datasets.faces.photos import CARD_LABELS
from tests.decks import drawn_card, fake_decks

SUIT_IDS = {"S": "spade", "H": "heart", "D": "diamond", "C": "club"}


@pytest.mark.parametrize("court", [False, True])
def test_the_index_is_the_rank_over_the_suit_in_the_corner(court):
    x, y, height = index_box(drawn_card(court=court))
    # rank from y 25 to 80, the suit 92 to 124: its middle about 75, its height about 100
    assert 70 < y < 80 and 92 < height < 108
    assert 25 < x < 55


def test_a_jumbo_index_is_found_whole_where_the_deck_prints_one():
    card = drawn_card(rank_height=140)  # the rank from y 42 to 160, the suit 172 to 205
    x, y, height = index_box(card, jumbo=True)
    assert 150 < height < 175 and 115 < y < 135
    assert 200 < y + height / 2 < 210  # down to the suit's foot
    # sought as an ordinary index, the corner's reach (a third of the card) cuts it short
    x, y, height = index_box(card)
    assert y + height / 2 < 195


def test_a_card_with_nothing_in_its_corner_has_no_index():
    card = drawn_card()
    card[10:200, 10:120, :3] = 255
    assert index_box(card) is None


def test_each_card_is_named_as_either_file_convention_names_it():
    assert card_ids("AS") == ["spade_1", "spade_ace", "1_spade", "ace_spade"]
    assert card_ids("10D") == ["diamond_10", "10_diamond"]
    assert card_ids("QC") == ["club_queen", "queen_club"]


def deck_svg(tmp_path, labels, extra: str = "") -> str:
    """A vector deck whose cards, one group each, lie in a grid moved by a transform."""
    cards = [extra]
    for i, label in enumerate(labels):
        rank, suit = label[:-1], SUIT_IDS[label[-1]]
        x, y = 50 * (i % 13), 80 * (i // 13)
        name = {"A": "1", "J": "jack", "Q": "queen", "K": "king"}.get(rank, rank)
        cards.append(
            f'<g id="{suit}_{name}" transform="translate({x},{y})">'
            f'<rect width="40" height="60" fill="white" stroke="black"/>'
            f'<rect x="4" y="4" width="{3 + i % 7}" height="8" fill="black"/></g>'
        )
    svg = tmp_path / "deck.svg"
    svg.write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" width="660" height="330" transform="translate(5,5)">'
        + "".join(cards)
        + "</svg>"
    )
    return svg


@pytest.mark.skipif(
    not shutil.which("rsvg-convert"), reason="librsvg2-bin draws the decks (.ci/run installs it)"
)
def test_a_vector_deck_gives_each_card_alone_at_card_height(tmp_path):
    cards = deck_cards(deck_svg(tmp_path, CARD_LABELS))
    assert set(cards) == set(CARD_LABELS)
    for i, label in enumerate(CARD_LABELS):
        card = cards[label]
        assert card.shape[0] == CARD_HEIGHT and card.shape[2] == 4
        assert abs(card.shape[1] / card.shape[0] - 41 / 61) < 0.02  # the card, not the page
        # its own mark, whose width tells the cards apart: not a neighbour's
        mark = card[int(0.1 * CARD_HEIGHT), int(0.05 * card.shape[1]) : card.shape[1] // 2, 0] < 128
        assert abs(mark.sum() - (3 + i % 7) * CARD_HEIGHT / 61) < 5


@pytest.mark.skipif(
    not shutil.which("rsvg-convert"), reason="librsvg2-bin draws the decks (.ci/run installs it)"
)
def test_a_card_the_file_names_but_cannot_draw_is_left_out(tmp_path):
    # the ten of spades named only in a comment: rsvg-convert finds no such object
    labels = [label for label in CARD_LABELS if label != "10S"]
    cards = deck_cards(deck_svg(tmp_path, labels, extra='<!-- id="spade_10" -->'))
    assert set(cards) == set(labels)


@pytest.mark.skipif(
    not shutil.which("rsvg-convert"), reason="librsvg2-bin draws the decks (.ci/run installs it)"
)
def test_a_deck_of_too_few_french_cards_is_no_deck(tmp_path):
    assert deck_cards(deck_svg(tmp_path, CARD_LABELS[:30])) == {}


def test_a_corner_crop_is_centred_on_the_index(tmp_path):
    fake_decks(tmp_path, ["plain"])
    (crop,), labels, names = corner_crops([tmp_path / "plain"], seed=1, tightness=1.1)
    assert labels == ["KS"] and names == ["plain"]
    # cut at 1.1 index heights, the crop is mostly the index's ink and paper, no table
    grey = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY)
    assert (grey < 90).mean() > 0.15
    assert (grey > 150).mean() > 0.3


def test_training_leaves_the_test_decks_out(tmp_path, monkeypatch):
    monkeypatch.setattr(card_decks, "TEST_DECKS", {"held"})
    fake_decks(tmp_path, ["held", "trained"])
    crops, labels = training_corners(tmp_path, copies=3, seed=0)
    assert labels == ["KS"] * 3 and len(crops) == 3
    assert not np.array_equal(crops[0], crops[1])  # each copy seen anew
    monkeypatch.setattr(card_decks, "TEST_DECKS", {"held", "trained"})
    with pytest.raises(SystemExit, match="no training decks"):
        training_corners(tmp_path, copies=1, seed=0)


def test_a_packed_deck_names_each_card_file_as_its_package_does():
    aguilar = PACKED_DECKS["web-aguilar"]
    assert aguilar.card_path("QS") == "cards/12s.svg" and aguilar.card_path("10H") == "cards/10h.svg"
    assert PACKED_DECKS["web-casino"].card_path("10D") == "dist/assets/png/cards/TD.png"
    assert PACKED_DECKS["web-free-4color-jumbo"].jumbo and not PACKED_DECKS["web-free-4color"].jumbo


def test_a_design_is_held_out_with_all_its_variants():
    free = {
        name for name, deck in PACKED_DECKS.items() if deck.package == PACKED_DECKS["web-free-2color"].package
    }
    assert len(free) == 4 and free <= TEST_DECKS
    assert not {"web-aguilar", "web-casino"} & TEST_DECKS


def test_a_packed_deck_gives_each_card_alone_at_card_height(tmp_path):
    deck = PackedDeck("cards@1.0.0", "png/{rank}-{suit}.png", {"10": "T"})
    (tmp_path / "png").mkdir()
    for i, label in enumerate(CARD_LABELS[:-1]):  # the king of clubs missing from the package
        page = np.zeros((700, 500, 4), np.uint8)  # the card on a transparent margin
        page[50:650, 50:450] = drawn_card()
        page[100:110, 250 : 250 + 3 * (1 + i % 9), :3] = 90  # a mark that tells the cards apart
        cv2.imwrite(str(tmp_path / deck.card_path(label)), page)
    # a card drawn too small to make a sharp one (a 76-px game's) is left out too
    cv2.imwrite(str(tmp_path / deck.card_path("QH")), cv2.resize(drawn_card(), (48, 76)))
    cards = packed_deck_cards(tmp_path, deck)
    assert set(cards) == set(CARD_LABELS[:-1]) - {"QH"}
    for i, label in enumerate(CARD_LABELS[:-1]):
        if label == "QH":
            continue
        card = cards[label]
        assert card.shape == (CARD_HEIGHT, 400 * CARD_HEIGHT // 600, 4)  # the card, not the page
        mark = (card[55, 150:300, 0] == 90).sum()
        assert abs(mark - 3 * (1 + i % 9)) <= 2
