import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.cubes import Cubes, Throw, chips
from scoring.faces import CUBES_DICE
from scoring.game import Event, IllegalMove
from scoring.replay import replay
from tests.scoring.golden_logs import golden


def roll(player, *faces):
    """A roll of six cubes: the faces given, the rest blank."""
    return Event("roll", {"faces": [*faces] + ["BLANK"] * (6 - len(faces))}, player)


def game(players=("Ana", "Bo", "Cy"), **options):
    return Cubes(list(players), options)


def played(g, *events):
    for event in events:
        g.apply(event)
    return g


# -- the sheet's worked examples ------------------------------------------------------
def test_numbers_only_4_3_2_takes_9():
    g = played(game(), roll("Ana", "4", "3", "2"))
    assert g.points["Ana"] == 15 + 9
    assert g.pot == 15 - 9
    assert g.notes == ["4 + 3 + 2: Ana takes 9"]


def test_cubes_5_4_each_opponent_pays_5_and_the_player_takes_18():
    g = played(game(), roll("Ana", "CUBES", "5", "4"))
    assert g.points == {"Ana": 15 + 18, "Bo": 10, "Cy": 10}
    assert g.pot == 15 + 10 - 18
    assert g.notes == ["CUBES + 5 + 4: each opponent pays 5, Ana takes 18"]


def test_a_short_pot_makes_the_player_pay_the_difference():
    g = played(game(("Ana", "Bo")), roll("Ana", "4", "3", "2"))
    assert g.pot == 1
    g.apply(roll("Bo", "4", "3", "2"))  # 9 wanted, the pot holds 1: Bo takes nothing, pays 8
    assert g.points["Bo"] == 15 - 8
    assert g.pot == 9
    assert g.notes[-1] == "4 + 3 + 2: the pot holds only 1, so Bo pays 8"


def test_a_short_pot_for_a_doubled_take():
    g = played(game(("Ana", "Bo")), roll("Ana", "CUBES", "5", "4"))  # pot 10 + 5 = 15 < 18
    assert g.points == {"Ana": 15 - 3, "Bo": 10}
    assert g.pot == 18
    assert g.notes[-1] == "CUBES + 5 + 4: each opponent pays 5, the pot holds only 15, so Ana pays 3"


def test_cubes_and_three_numbers_take_the_whole_pot_after_the_opponents_pay():
    g = played(game(), roll("Ana", "CUBES", "1", "1", "2"))
    assert g.points == {"Ana": 15 + 25, "Bo": 10, "Cy": 10}
    assert g.pot == 0
    assert g.notes[-1] == "CUBES + 1 + 1 + 2: each opponent pays 5, Ana takes the pot (25)"


def test_only_cubes_each_opponent_pays_5():
    g = played(game(), roll("Ana", "CUBES", "CUBES"))
    assert g.points == {"Ana": 15, "Bo": 10, "Cy": 10}
    assert g.pot == 25
    assert g.dice_make() == "CUBES: only CUBES: each opponent pays 5"


@pytest.mark.parametrize(
    ("rule", "ana", "pot", "next_turn"),
    [("player-pays-5", 10, 20, "Bo"), ("nothing", 15, 15, "Bo"), ("roll-again", 15, 15, "Ana")],
)
def test_the_all_blank_rule_is_an_option(rule, ana, pot, next_turn):
    g = played(game(all_blank=rule), roll("Ana"))
    assert (g.points["Ana"], g.pot, g.turn()) == (ana, pot, next_turn)


# -- starting points ---------------------------------------------------------------------
@pytest.mark.parametrize(
    ("count", "each", "pot"),
    [(2, 15, 10), (4, 15, 20), (5, 26, 25), (6, 20, 5 + 30), (7, 17, 1 + 35), (10, 10, 5 + 50)],
)
def test_starting_points_after_the_ante(count, each, pot):
    g = game([f"P{n}" for n in range(count)])
    assert set(g.points.values()) == {each}
    assert g.pot == pot


def test_starting_points_and_chip_total_are_options():
    assert game(starting_points=30).points["Ana"] == 25
    g = game([f"P{n}" for n in range(5)], chip_total=100)
    assert (g.points["P0"], g.pot) == (15, 25)


def test_change_making_for_the_points_shown():
    assert chips(37) == {"blue": 3, "red": 1, "white": 2}
    assert game().details()["chips"]["pot"] == {"blue": 1, "red": 1, "white": 0}


# -- sets ----------------------------------------------------------------------------------
def test_a_set_ends_the_first_time_a_player_cannot_pay():
    g = played(game(), roll("Ana", "CUBES", "5", "4"), roll("Bo", "6", "6", "5"))  # Bo pays 10: 0 left
    assert g.points["Bo"] == 0
    g.apply(roll("Cy", "CUBES"))  # Ana pays 5; Bo cannot
    assert g.set_scores == [{"Ana": 28, "Bo": 0, "Cy": 10}]
    assert g.totals() == {"Ana": 28, "Bo": 0, "Cy": 10}
    # Chips are reset, and the player after the last roller (Cy) starts the next set.
    assert g.points == {"Ana": 15, "Bo": 15, "Cy": 15}
    assert g.pot == 15
    assert g.turn() == "Ana"
    assert g.details()["set"] == 2


def test_the_player_who_cannot_pay_puts_in_all_they_have():
    g = played(game(("Ana", "Bo")), roll("Ana", "CUBES", "1", "2", "3"))  # Bo 10, pot 0
    g.apply(roll("Bo", "6", "6", "6", "6"))  # owes 24, holds 10
    assert g.set_scores == [{"Ana": 0 + 15 + 15, "Bo": 0}]
    assert "Bo puts all they had into the pot and scores 0; set 1 ends" in g.notes[-1]


def test_the_number_of_sets_is_an_option():
    g = played(game(("Ana", "Bo"), sets=1), roll("Ana", "CUBES", "1", "2", "3"))
    g.apply(roll("Bo", "6", "6", "6", "6"))
    assert g.finished()
    assert g.winners() == ["Ana"]
    assert g.turn() is None
    assert g.allowed() == {"Ana": [], "Bo": []}
    with pytest.raises(IllegalMove, match="over"):
        g.apply(roll("Ana", "1"))


# -- conservation -------------------------------------------------------------------------
@settings(max_examples=200, deadline=None)
@given(
    players=st.integers(min_value=2, max_value=10),
    throws=st.lists(st.lists(st.sampled_from(CUBES_DICE.labels), min_size=6, max_size=6), max_size=60),
    all_blank=st.sampled_from(["player-pays-5", "nothing", "roll-again"]),
)
def test_the_pot_plus_the_points_never_change(players, throws, all_blank):
    g = game([f"P{n}" for n in range(players)], all_blank=all_blank)
    total = g.pot + sum(g.points.values())
    for faces in throws:
        if g.finished():
            break
        g.apply(Event("roll", {"faces": faces}, g.turn()))
        assert g.pot + sum(g.points.values()) == total
        assert g.pot >= 0 and min(g.points.values()) >= 0


def test_throws_are_read_by_what_the_rules_look_at():
    assert str(Throw(True, (5, 4))) == "CUBES + 5 + 4"
    assert str(Throw(False, ())) == "all blank"
    assert Throw(True, (5, 4)).amount == 18


# -- bad input --------------------------------------------------------------------------
def rejected(g, event, match):
    """The game refuses ``event`` with a message matching ``match`` and changes nothing."""
    before = g.view()
    with pytest.raises(IllegalMove, match=match):
        g.apply(event)
    assert g.view() == before


def test_seven_cubes_are_refused():
    g = played(game(), roll("Ana", "4", "3", "2"))
    rejected(g, Event("roll", {"faces": ["1"] * 7}, "Bo"), "6 dice, not 7")


def test_bad_rolls_are_refused_and_change_nothing():
    g = game()
    rejected(g, roll("Bo", "1"), "Ana's turn")
    rejected(g, Event("roll", {"faces": ["AS"] + ["1"] * 5}, "Ana"), "not a face of cubes")
    rejected(g, Event("roll", {}, "Ana"), "list of face labels")
    rejected(g, Event("roll", {"faces": ["1"] * 6}), "needs a player")


def test_an_eleventh_player_is_refused():
    with pytest.raises(IllegalMove, match="2 to 10 players, not 11"):
        game([f"P{n}" for n in range(11)])
    with pytest.raises(IllegalMove, match="2 to 10 players, not 1"):
        game(["Ana"])


def test_a_refused_roll_leaves_the_replayed_game_as_it_was():
    log = golden("cubes.jsonl")[:6]
    bad = Event("roll", {"faces": ["1"] * 7}, "Bo", seq=len(log) + 1)
    with pytest.raises(IllegalMove, match=r"event #7 \(roll\): a roll here has 6 dice, not 7"):
        replay([*log, bad])
    g = replay(log)
    rejected(g, bad, "6 dice, not 7")
    assert g.view() == replay(log).view()


# -- a whole game --------------------------------------------------------------------------
def test_golden_game():
    """Ana, Bo, Cy, 20 points each (15 after the ante, pot 15):

    Set 1: Ana CUBES+5+4: Bo, Cy pay 5, Ana takes 18 (Ana 33 Bo 10 Cy 10, pot 7).
      Bo's 6+6+6 is corrected to 6+6+5: 17 > pot 7, Bo pays 10 (Bo 0, pot 17).
      Cy CUBES: Ana pays 5, Bo cannot: set 1 = Ana 28, Bo 0, Cy 10.
    Set 2 (Ana starts, after Cy): Ana CUBES+1+2+3 takes the pot 25 (Ana 40 Bo 10 Cy 10, pot 0);
      Bo all blank pays 5 (Bo 5, pot 5); Cy 4+3+2 pays 4 (Cy 6, pot 9); Ana 4+3+2 takes 9
      (Ana 49, pot 0); Bo's 5 is undone; Bo 6 owes 6, holds 5: set 2 = Ana 49, Bo 0, Cy 6.
    Set 3 (Cy starts, after Bo): Cy CUBES+6 takes 12 (A10 B10 C27, pot 13); Ana CUBES+5+5
      takes 20 (A30 B5 C22, pot 3); Bo CUBES (A25 B5 C17, pot 13); Cy 5+5+5+5 pays 7 (C10,
      pot 20); Ana CUBES+1 takes 2 (A27 B0 C5, pot 28); Bo CUBES+2+2 takes 8 (A22 B8 C0,
      pot 30); Cy all blank cannot pay: set 3 = Ana 22, Bo 8, Cy 0.
    Totals: Ana 28+49+22 = 99, Bo 0+0+8 = 8, Cy 10+6+0 = 16; Ana wins.
    """
    g = replay(golden("cubes.jsonl"))
    assert g.set_scores == [
        {"Ana": 28, "Bo": 0, "Cy": 10},
        {"Ana": 49, "Bo": 0, "Cy": 6},
        {"Ana": 22, "Bo": 8, "Cy": 0},
    ]
    assert g.totals() == {"Ana": 99, "Bo": 8, "Cy": 16}
    assert g.finished()
    assert g.winners() == ["Ana"]
