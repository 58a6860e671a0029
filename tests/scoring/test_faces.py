import pytest

from scoring.faces import (
    ALL_LABELS,
    DIE_KINDS,
    Card,
    Joker,
    Number,
    Rank,
    Suit,
    UnknownFace,
    Word,
    die_kind,
    parse_face,
)


def test_every_label_round_trips():
    assert len(ALL_LABELS) == 62
    for label in ALL_LABELS:
        assert parse_face(label).label == label


def test_parsing_gives_value_types():
    assert parse_face("10H") == Card(Rank.TEN, Suit.HEARTS)
    assert parse_face("th") == Card(Rank.TEN, Suit.HEARTS)
    assert parse_face("qs") == Card(Rank.QUEEN, Suit.SPADES)
    assert parse_face("JOKER_RED") == Joker("RED")
    assert parse_face("CUBES") == Word("CUBES")
    assert parse_face("4") == Number(4)
    assert str(parse_face("AS")) == "A♠"


@pytest.mark.parametrize("label", ["", "1S", "11H", "AX", "JOKER", "7", "0", "cubes!"])
def test_unknown_labels_are_refused(label):
    with pytest.raises(UnknownFace):
        parse_face(label)


def test_die_kinds_have_their_faces():
    assert len(DIE_KINDS["square-shooters"].labels) == 54
    assert DIE_KINDS["square-shooters"].dice == 9
    assert set(DIE_KINDS["cubes"].labels) == {"CUBES", "BLANK", "1", "2", "3", "4", "5", "6"}
    assert DIE_KINDS["cubes"].dice == 6
    assert DIE_KINDS["d6"].labels == ("1", "2", "3", "4", "5", "6")


def test_a_kind_refuses_faces_it_does_not_have():
    with pytest.raises(UnknownFace, match="not a face of d6"):
        die_kind("d6").check("AS")
    with pytest.raises(ValueError, match="unknown die kind"):
        die_kind("d20")
