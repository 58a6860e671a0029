"""Rummy melds on Square Shooters dice: the sheets' examples and point values, wilds,
goals, and agreement with a brute-force partition search over thousands of rolls."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.faces import CARD_LABELS, Card, Joker, Rank, Suit, UnknownFace
from scoring.melds import POINT_TABLES, Meld, Melds, best_melds
from tests.scoring.reference import best_melds_points, meld_points

JOKERS = ("JOKER_BLACK", "JOKER_RED")
SQUARE, RODEO = "square-shooters", "rodeo-rummy"


def dice(text: str) -> list[str]:
    return text.split()


def melds(text: str, table: str = SQUARE, **options) -> Melds:
    return best_melds(dice(text), table, **options)


def labels(faces) -> list[str]:
    return [face.label for face in faces]


# -- the sheets' examples ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("roll", "square_shooters", "rodeo_rummy"),
    [
        ("7S 7H 7D", 21, 15),  # "777": face value; every other card 5 in Rodeo Rummy
        ("AS AH AD", 45, 45),  # "A = 15 points when used as a set, (AAA)"
        ("AS AH AD AC", 60, 60),  # "AAAA": an ace in a set is 15
        ("8D 9D 10D", 27, 20),  # the 8, 9, 10 run
        ("AS KS QS", 35, 35),  # "AKQ": the ace high end of a run is 15
        ("AS 2S 3S", 6, 15),  # "A, 2, 3": the low ace is 1, or 5 in Rodeo Rummy
        ("KH QH JH 10H", 40, 40),  # K Q J 10 are 10
    ],
)
def test_the_sheets_point_values(roll, square_shooters, rodeo_rummy):
    assert melds(roll, SQUARE).points == square_shooters
    assert melds(roll, RODEO).points == rodeo_rummy
    assert melds(roll).unused == ()


def test_fours_in_a_set_and_a_run():
    """Rodeo Rummy: '4's in a set and/or run' is met by 4C 4H 4S and 3D 4D 5D."""
    found = melds("4C 4H 4S 3D 4D 5D", RODEO)
    assert found.points == 30
    assert sorted(str(meld) for meld in found.melds) == [
        "Run of diamonds: 3♦ 4♦ 5♦ (15)",
        "Set of 4s: 4♠ 4♥ 4♣ (15)",
    ]
    fours = melds("4C 4H 4S 3D 4D 5D", RODEO, keep=lambda meld: Rank.FOUR in {c.rank for c in meld.cards})
    assert fours.points == 30
    assert melds("4C 4H 4S 3D 4D 5D", SQUARE).points == 24


def test_dice_outside_melds_score_nothing():
    found = melds("7S 7H 7D 2C 9H KD")
    assert found.points == 21
    assert labels(found.unused) == ["9H", "KD", "2C"]  # in suit order, S H D C
    assert melds("2C 9H KD").points == 0
    assert str(melds("2C 9H KD")) == "no melds"


def test_runs_are_one_suit_and_never_wrap():
    assert melds("8D 9C 10D").points == 0
    assert melds("KS AS 2S").points == 0  # no K-A-2
    assert melds("QS KS AS 2S 3S").points == 35  # Q-K-A, and A-2-3 cannot reuse the ace
    assert melds("AS 2S 3S 4S 5S").points == 1 + 2 + 3 + 4 + 5


def test_a_set_holds_at_most_four_cards_and_sets_beat_runs_when_they_score_more():
    assert melds("AS AH AD AC JOKER_RED").points == 60
    found = melds("7S 7H 7D 8S 9S")  # 7S in the run 7-8-9 (24) or the set 777 (21)
    assert found.points == 24
    assert labels(found.unused) == ["7H", "7D"]


def test_every_die_is_in_at_most_one_meld():
    # 4D could finish the set of 4s or the run; it goes where it scores more.
    found = melds("4C 4H 4S 3D 4D 5D 6D")
    assert found.points == 12 + 18
    assert sorted(len(meld.faces) for meld in found.melds) == [3, 4]


# -- wilds -------------------------------------------------------------------------------


def test_a_joker_scores_as_the_card_it_stands_for():
    found = melds("QH KH JOKER_RED")
    assert found.points == 35  # Q-K-A of hearts beats J-Q-K
    (run,) = found.melds
    assert run.cards == (
        Card(Rank.QUEEN, Suit.HEARTS),
        Card(Rank.KING, Suit.HEARTS),
        Card(Rank.ACE, Suit.HEARTS),
    )
    assert run.stands_for == (("JOKER_RED", Card(Rank.ACE, Suit.HEARTS)),)
    assert str(run) == "Run of hearts: Q♥ K♥ A♥ [red joker as A♥] (35)"
    assert melds("AS AH JOKER_BLACK").points == 45


def test_jokers_not_wild_are_left_out():
    found = melds("AS AH JOKER_BLACK", jokers_wild=False)
    assert (found.points, labels(found.unused)) == (0, ["AS", "AH", "JOKER_BLACK"])


def test_a_meld_needs_a_card_used_as_itself():
    # Three wilds are not a set of aces: the 7 stays a 7, and the jokers extend it.
    assert melds("JOKER_RED JOKER_BLACK 7S", RODEO, wild_ranks=["7"]).points == 15
    assert melds("JOKER_RED JOKER_BLACK 7S", SQUARE).points == 7 + 8 + 9


def test_wild_ranks_stand_for_any_card_or_for_themselves():
    found = melds("KS KH 7D", RODEO, wild_ranks=["7", "8"])
    assert found.points == 30  # the 7 scores as the king it stands for
    assert found.melds[0].stands_for == (("7D", Card(Rank.KING, Suit.DIAMONDS)),)
    assert melds("7S 7H 7D", RODEO, wild_ranks=[Rank.SEVEN, Rank.EIGHT]).points == 15
    assert melds("KS KH 7D", RODEO).points == 0


def test_a_wild_may_stand_for_a_card_showing_on_another_die():
    """As a joker may in a poker hand: here the queen of spades shows once, in the second
    run, while a joker stands for it in the first."""
    found = melds("7S 8S 9S 10S JS QS KS JOKER_RED JOKER_BLACK", RODEO, wild_ranks=["7", "8"])
    assert found.points == 60 + 35
    assert [str(meld) for meld in found.melds] == [
        "Run of spades: 9♠ 10♠ J♠ Q♠ K♠ A♠ [black joker as Q♠, red joker as A♠] (60)",
        "Run of spades: Q♠ K♠ A♠ [7♠ as K♠, 8♠ as A♠] (35)",
    ]


def test_ties_use_fewer_wilds():
    found = melds("4S 4H 4D 4C JOKER_RED")  # 4444 or 444 + joker: 16 either way
    assert found.points == 16
    assert found.melds[0].stands_for == ()
    assert labels(found.unused) == ["JOKER_RED"]


# -- goals (keep) ----------------------------------------------------------------------------


def test_keep_counts_only_the_melds_that_meet_a_goal():
    roll = "KS KH KD 2H 3H 4H 9C 9D 9S"
    aces_and_kings = melds(
        roll, RODEO, keep=lambda meld: meld.kind == "set" and meld.rank in (Rank.ACE, Rank.KING)
    )
    assert aces_and_kings.points == 30
    assert labels(aces_and_kings.unused) == ["9S", "2H", "3H", "4H", "9D", "9C"]
    hearts = melds(roll, RODEO, keep=lambda meld: meld.kind == "run" and meld.suit is Suit.HEARTS)
    assert [str(meld) for meld in hearts.melds] == ["Run of hearts: 2♥ 3♥ 4♥ (15)"]
    four_five_six = melds(
        "3C 4C 5C 6C 7C JOKER_RED",
        RODEO,
        keep=lambda meld: {Rank.FOUR, Rank.FIVE, Rank.SIX} <= {c.rank for c in meld.cards},
    )
    assert four_five_six.points == 5 * 6  # 2-7 or 3-8 with the joker
    assert melds(roll, RODEO, keep=lambda meld: False).points == 0


# -- output and bad input ------------------------------------------------------------------------


def test_json():
    found = melds("AS AH JOKER_RED 9C")
    assert found.to_json() == {
        "points": 45,
        "melds": [
            {
                "kind": "set",
                "name": "Set of Aces: A♠ A♥ A♦ [red joker as A♦] (45)",
                "faces": ["AS", "AH", "JOKER_RED"],
                "cards": ["AS", "AH", "AD"],
                "stands_for": {"JOKER_RED": "AD"},
                "points": 45,
                "rank": "A",
            }
        ],
        "unused": ["9C"],
    }
    assert melds("8D 9D 10D").to_json()["melds"][0]["suit"] == "D"


def test_point_tables_are_data():
    assert POINT_TABLES[SQUARE]["A low"] == 1 and POINT_TABLES[RODEO]["A low"] == 5
    custom = {**POINT_TABLES[SQUARE], "7": 70}
    assert best_melds(dice("7S 7H 7D"), custom).points == 210
    with pytest.raises(ValueError):
        best_melds(dice("7S 7H 7D"), {"7": 7})


def test_bad_input():
    with pytest.raises(UnknownFace):
        best_melds(["7S", "ZZ"])
    with pytest.raises(UnknownFace):
        best_melds(["CUBES"])
    with pytest.raises(UnknownFace):
        best_melds(["7S"], wild_ranks=["11"])
    with pytest.raises(ValueError, match="point table"):
        best_melds(["7S"], table="gin")
    with pytest.raises(ValueError, match="twice"):
        best_melds(["7S", "7S", "7H"])


def test_faces_are_accepted_as_well_as_labels():
    found = best_melds([Card(Rank.SEVEN, Suit.SPADES), "7h", Joker("RED")])
    assert found.points == 21


# -- property tests against the brute-force partition search ------------------------------


@st.composite
def rolls(draw, size: int = 9):
    """``size`` different faces of the 54, 0-2 of them jokers."""
    n_jokers = min(draw(st.integers(0, 2)), size)
    return draw(st.permutations(CARD_LABELS))[: size - n_jokers] + list(JOKERS[:n_jokers])


@st.composite
def dense_rolls(draw):
    """Nine faces from a few ranks and suits, so long runs, full sets and wilds meet."""
    ranks = draw(
        st.sampled_from([["A", "2", "3", "4", "5"], ["9", "10", "J", "Q", "K", "A"], ["4", "5", "6", "7"]])
    )
    pool = [rank + suit for rank in ranks for suit in "SHD"] + list(JOKERS)
    return draw(st.permutations(pool))[:9]


TABLES = st.sampled_from([SQUARE, RODEO])


@settings(max_examples=2000, deadline=None)
@given(st.one_of(rolls(), dense_rolls()), TABLES, st.booleans())
def test_best_melds_agrees_with_the_brute_force_search(roll, table, jokers_wild):
    assert best_melds(roll, table, jokers_wild).points == best_melds_points(roll, table, jokers_wild)


@settings(max_examples=300, deadline=None)
@given(st.one_of(rolls(), dense_rolls()), TABLES)
def test_wild_sevens_and_eights_agree_with_the_brute_force_search(roll, table):
    wild = ("7", "8")
    assert best_melds(roll, table, wild_ranks=wild).points == best_melds_points(roll, table, wild_ranks=wild)


@settings(max_examples=300, deadline=None)
@given(st.one_of(rolls(), dense_rolls()), st.sampled_from(["set", "run"]))
def test_keep_agrees_with_the_brute_force_search(roll, kind):
    found = best_melds(roll, RODEO, keep=lambda meld: meld.kind == kind)
    assert all(meld.kind == kind for meld in found.melds)
    assert found.points == best_melds_points(roll, RODEO, kinds=(kind,))


def is_meld(meld: Meld) -> bool:
    """The meld's cards really are a set or a run, each card once."""
    cards = meld.cards
    if len(set(cards)) != len(cards) or len(cards) < 3:
        return False
    if meld.kind == "set":
        return len(cards) <= 4 and {card.rank for card in cards} == {meld.rank}
    places = [int(card.rank) for card in cards]
    if places[-1] == 1:
        places[-1] = 14  # the ace after a king
    return {card.suit for card in cards} == {meld.suit} and places == list(
        range(places[0], places[0] + len(places))
    )


@settings(max_examples=500, deadline=None)
@given(st.one_of(rolls(), dense_rolls()), TABLES, st.booleans())
def test_the_melds_are_real_and_use_each_die_once(roll, table, jokers_wild):
    found = best_melds(roll, table, jokers_wild, wild_ranks=("8",))
    used = [face.label for meld in found.melds for face in meld.faces] + labels(found.unused)
    assert sorted(used) == sorted(roll)
    assert found.points == sum(meld.points for meld in found.melds)
    for meld in found.melds:
        assert is_meld(meld)
        assert meld.points == meld_points(meld.faces, table, jokers_wild, {Rank.EIGHT})
        wild_labels = {label for label, _ in meld.stands_for}
        naturals = [face for face in meld.faces if face.label not in wild_labels]
        assert naturals and all(isinstance(face, Card) for face in naturals)
        assert sorted(naturals + [card for _, card in meld.stands_for], key=str) == sorted(
            meld.cards, key=str
        )


@settings(max_examples=300, deadline=None)
@given(rolls(), TABLES, st.booleans())
def test_the_order_of_the_faces_does_not_matter(roll, table, jokers_wild):
    assert (
        best_melds(roll[::-1], table, jokers_wild).to_json() == best_melds(roll, table, jokers_wild).to_json()
    )
