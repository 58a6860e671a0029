import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.game import Event, IllegalMove
from scoring.replay import replay
from scoring.squib import COLOURS, EMOTIONS, KINDS, Square, SquibCard, SquibSquares, squib_steal
from tests.scoring.golden_logs import golden


def legal_grid(rows, columns, offset=0):
    """A legal grid: down a column the features step by 2, 1, 3 and across by 1, 2, 3, so
    no two touching squibs share one."""

    def squib(row, place):
        return (
            f"{COLOURS[(2 * row + place + offset) % 5]} {EMOTIONS[(row + 2 * place + offset) % 5]} "
            f"{KINDS[(3 * row + 3 * place + offset) % 5]}"
        )

    return [[[squib(r, 2 * c), squib(r, 2 * c + 1)] for c in range(columns)] for r in range(rows)]


def card(left, right):
    return SquibCard.parse([left, right])


def rejected(g, event, match):
    """The game refuses ``event`` with a message matching ``match`` and changes nothing."""
    before = g.view()
    with pytest.raises(IllegalMove, match=match):
        g.apply(event)
    assert g.view() == before


def square(player, name, grid):
    return Event("square", {"id": name, "grid": grid}, player)


# -- the sheet's worked examples --------------------------------------------------------
def test_a_column_of_six_scores_6():
    s = Square.parse(legal_grid(6, 1))
    assert (s.cards, s.size_bonus, s.score) == (6, 0, 6)


def test_two_columns_of_three_score_9():
    s = Square.parse(legal_grid(3, 2))
    assert (s.cards, s.size_bonus, s.score) == (6, 3, 9)
    assert Square.parse(legal_grid(2, 3)).score == 9


def test_the_example_squib_steal_player_1_wins():
    # Player 1's blue faces player 2's yellow (blue beats yellow); the purples tie.
    player_1 = card("blue happy rocket", "purple sad candle")
    player_2 = card("yellow angry missile", "purple sleepy booster")
    result = squib_steal([player_1], [player_2])
    assert (result.winner, result.cards_laid) == (1, 1)
    assert squib_steal([player_2], [player_1]).winner == -1


def test_two_excited_squibs_together_are_no_good():
    # The sheet: "NO GOOD (two excited squibs together)": touching squibs may not share
    # an emotion, even when colour and kind differ.
    top = ["blue excited rocket", "green happy candle"]
    with pytest.raises(IllegalMove) as refused:
        Square.parse([[top], [["yellow excited missile", "orange sad spinny"]]])
    assert str(refused.value) == (
        "blue excited rocket (row 1, card 1, left) and yellow excited missile (row 2, card 1, left) "
        "touch and share emotion excited"
    )
    assert Square.parse([[top], [["yellow sleepy missile", "orange sad spinny"]]]).score == 2


# -- validity ----------------------------------------------------------------------------------
def test_touching_squibs_that_share_a_feature_are_named():
    grid = legal_grid(2, 1)
    grid[1][0][0] = "green sleepy candle"  # under row 1's left squib, "green happy rocket"
    with pytest.raises(IllegalMove) as refused:
        Square.parse(grid)
    assert str(refused.value) == (
        "green happy rocket (row 1, card 1, left) and green sleepy candle (row 2, card 1, left) "
        "touch and share colour green"
    )


def test_squibs_touch_across_cards_in_a_row_but_not_on_one_card():
    grid = legal_grid(2, 2)
    grid[0][1][0] = grid[0][0][1].replace("purple", "blue")  # right of card 1 meets left of card 2
    with pytest.raises(IllegalMove, match=r"\(row 1, card 1, right\) and .* \(row 1, card 2, left\)"):
        Square.parse(grid)
    alike_on_one_card = [["green happy rocket", "green sad candle"], ["blue sad candle", "blue happy rocket"]]
    assert Square.parse([[alike_on_one_card[0]], [alike_on_one_card[1]]]).cards == 2


def test_a_card_shows_two_different_squibs():
    with pytest.raises(IllegalMove, match="two different squibs, not green happy rocket twice"):
        card("green happy rocket", "Green Happy Rocket")


def test_diagonal_squibs_may_share_features():
    grid = [
        [["green happy rocket", "blue sad candle"]],
        [["yellow angry missile", "green happy rocket"]],  # diagonal to row 1's left squib
    ]
    assert Square.parse(grid).cards == 2


@pytest.mark.parametrize(
    ("grid", "reason"),
    [
        (legal_grid(1, 3), "at least two cards in a column"),
        ([], "at least two cards in a column"),
        ([[], []], "at least two cards in a column"),
        (legal_grid(2, 2)[:1] + [legal_grid(2, 2)[1][:1]], "row 2 is 1 cards long but row 1 is 2: a square"),
        (legal_grid(2, 2)[:1] + [[None, legal_grid(2, 2)[1][1]]], "row 2, card 1 is empty"),
        ("2x2", "list of rows"),
        ([[["blue happy rocket"]], [["blue happy rocket"]]], "two squibs"),
    ],
)
def test_grids_that_make_no_square_say_why(grid, reason):
    with pytest.raises(IllegalMove, match=reason):
        Square.parse(grid)


def test_an_unknown_colour_is_a_clear_error():
    g = SquibSquares(["Ana", "Bo"])
    grid = legal_grid(2, 1)
    grid[0][0][0] = "pink happy rocket"
    rejected(
        g,
        square("Ana", "a", grid),
        "squib 'pink happy rocket': unknown colour 'pink'; colours are green, yellow, purple, orange, blue",
    )
    rejected(g, square("Ana", "a", [[["happy blue rocket", "x"]]]), "unknown colour 'happy'")
    rejected(g, square("Ana", "a", [[["blue rocket", "x"]]]), "written 'colour emotion kind'")


def brute_force_valid(grid):
    """Validity written out again from the definition: a filled rectangle of at least two
    rows; then every pair of squib cells at distance one, on different cards, shares
    nothing.  Squib cell (r, 2c) is card (r, c)'s left squib, (r, 2c + 1) its right."""
    if len(grid) < 2 or not grid[0] or any(len(row) != len(grid[0]) or None in row for row in grid):
        return False
    cells = {}
    for r, row in enumerate(grid):
        for c, (left, right) in enumerate(row):
            cells[(r, 2 * c)] = (left.split(), (r, c))
            cells[(r, 2 * c + 1)] = (right.split(), (r, c))
    for (r1, c1), (features1, card1) in cells.items():
        for (r2, c2), (features2, card2) in cells.items():
            touching = abs(r1 - r2) + abs(c1 - c2) == 1 and card1 != card2
            if touching and any(a == b for a, b in zip(features1, features2, strict=True)):
                return False
    return True


@st.composite
def grids(draw):
    """Mostly legal grids, some with a few squibs changed, some with holes or ragged rows."""
    rows, columns = draw(st.integers(1, 4)), draw(st.integers(1, 3))
    grid = legal_grid(rows, columns, draw(st.integers(0, 4)))
    squib = st.tuples(st.sampled_from(COLOURS), st.sampled_from(EMOTIONS), st.sampled_from(KINDS))
    for _ in range(draw(st.integers(0, 2))):
        r, c, side = (
            draw(st.integers(0, rows - 1)),
            draw(st.integers(0, columns - 1)),
            draw(st.integers(0, 1)),
        )
        grid[r][c][side] = " ".join(draw(squib))
    shape = draw(st.sampled_from(["full", "full", "full", "hole", "ragged"]))
    if shape == "hole":
        grid[draw(st.integers(0, rows - 1))][draw(st.integers(0, columns - 1))] = None
    elif shape == "ragged":
        grid[draw(st.integers(0, rows - 1))].pop()
    return grid


@settings(max_examples=300, deadline=None)
@given(grids())
def test_validity_agrees_with_a_brute_force_check(grid):
    try:
        Square.parse(grid)
        valid = True
    except IllegalMove:
        valid = False
    assert valid == brute_force_valid(grid)


# -- Squib Steal ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("colour", "beaten"),
    [  # the sheet's table, line by line
        ("blue", {"purple", "yellow"}),
        ("purple", {"orange", "green"}),
        ("orange", {"yellow", "blue"}),
        ("yellow", {"green", "purple"}),
        ("green", {"blue", "orange"}),
    ],
)
def test_each_colour_beats_the_two_the_sheet_names(colour, beaten):
    mine = card(f"{colour} happy rocket", f"{colour} sad rocket")
    for other in beaten:
        assert squib_steal([mine], [card(f"{other} sad candle", f"{other} happy candle")]).winner == 1


def test_every_colour_beats_two_and_loses_to_two():
    for colour in COLOURS:
        mine = card(f"{colour} happy rocket", f"{colour} sad rocket")
        results = [
            squib_steal([mine], [card(f"{other} sad candle", f"{other} happy candle")]).winner
            for other in COLOURS
        ]
        assert sorted(results) == [-1, -1, 0, 1, 1]


def test_a_steal_goes_on_to_three_cards_then_is_a_draw():
    even = card("blue happy rocket", "blue sad candle")  # beats purple, loses to orange
    mixed = card("purple happy rocket", "orange sad candle")
    assert (squib_steal([even] * 3, [mixed] * 3).winner, squib_steal([even] * 3, [mixed] * 3).cards_laid) == (
        0,
        3,
    )
    decided = card("blue angry spinny", "blue happy spinny")
    losing = card("yellow sad candle", "yellow angry candle")
    assert squib_steal([even, decided], [mixed, losing]).cards_laid == 2
    with pytest.raises(IllegalMove, match="card 2 already decided"):
        squib_steal([even, decided, even], [mixed, losing, mixed])
    with pytest.raises(IllegalMove, match="same number of cards, 1 to 3"):
        squib_steal([even] * 4, [mixed] * 4)
    with pytest.raises(IllegalMove, match="same number of cards"):
        squib_steal([even], [mixed, mixed])


def test_a_steal_is_against_another_player():
    g = SquibSquares(["Ana", "Bo"])
    steal = {
        "mine": [["blue happy rocket", "blue sad rocket"]],
        "theirs": [["blue happy rocket", "blue sad rocket"]],
    }
    rejected(g, Event("steal", {"opponent": "Ana", **steal}, "Ana"), "against another player")
    rejected(g, Event("steal", {"opponent": "Zed", **steal}, "Ana"), "against another player")


# -- the game ---------------------------------------------------------------------------------------
def test_squares_grow_break_and_score():
    g = SquibSquares(["Ana", "Bo"])
    g.apply(square("Ana", "a", legal_grid(2, 1)))
    g.apply(square("Ana", "a", legal_grid(2, 2)))  # grown
    assert g.totals() == {"Ana": 6, "Bo": 0}
    assert g.allowed()["Ana"] == ["square", "break", "steal", "end"]
    assert g.allowed()["Bo"] == ["square", "steal", "end"]
    rejected(g, Event("break", {"id": "a"}, "Bo"), "Bo has no square 'a'")
    g.apply(Event("break", {"id": "a"}, "Ana"))
    assert g.totals() == {"Ana": 0, "Bo": 0}


def test_special_bonuses_go_to_each_tied_player():
    g = SquibSquares(["Ana", "Bo", "Cy"])
    for event in (
        square("Bo", "b", legal_grid(2, 2)),
        square("Ana", "a", legal_grid(2, 2)),
        Event("end", {}, "Cy"),
    ):
        g.apply(event)
    assert g.bonuses == {
        "Ana": {"Big Bang Set": 5, "Squib Party": 4, "Patient Squibs": 1},
        "Bo": {"Big Bang Set": 5, "Squib Party": 4, "Speedy Squibs": 3},
        "Cy": {},
    }
    assert g.totals() == {"Ana": 6 + 10, "Bo": 6 + 12, "Cy": 0}
    assert g.winners() == ["Bo"]
    assert [entry["player"] for entry in g.details()["ranking"]] == ["Bo", "Ana", "Cy"]


def test_the_tied_bonus_option_gives_nobody_the_tied_bonus():
    g = SquibSquares(["Ana", "Bo"], {"tied_bonus": "nobody"})
    for event in (square("Bo", "b", legal_grid(2, 2)), square("Ana", "a", legal_grid(2, 2)), Event("end")):
        g.apply(event)
    assert g.bonuses == {"Ana": {"Patient Squibs": 1}, "Bo": {"Speedy Squibs": 3}}
    assert "Big Bang Set +5: nobody" in g.notes


def test_nobody_gets_the_big_bang_or_squib_party_bonus_when_nobody_made_a_square():
    g = SquibSquares(["Ana", "Bo"])
    g.apply(Event("end"))
    assert g.bonuses == {"Ana": {}, "Bo": {}}
    assert g.totals() == {"Ana": 0, "Bo": 0}
    assert "Big Bang Set +5: nobody" in g.notes
    assert "Squib Party +4: nobody" in g.notes


def test_a_lone_square_maker_is_speedy_but_not_patient():
    g = SquibSquares(["Ana", "Bo"])
    g.apply(square("Ana", "a", legal_grid(2, 1)))
    g.apply(Event("end"))
    assert g.bonuses["Ana"] == {"Big Bang Set": 5, "Squib Party": 4, "Speedy Squibs": 3}


def test_a_tie_at_the_top_is_settled_by_a_squib_steal():
    g = SquibSquares(["Ana", "Bo", "Cy"], {"tied_bonus": "nobody"})
    g.apply(Event("end"))
    assert g.winners() == ["Ana", "Bo", "Cy"]
    assert g.allowed() == {"Ana": ["steal"], "Bo": ["steal"], "Cy": ["steal"]}
    winning = {
        "mine": [["blue happy rocket", "blue sad rocket"]],
        "theirs": [["yellow sad candle", "yellow happy candle"]],
    }
    g.apply(Event("steal", {"opponent": "Bo", **winning}, "Ana"))
    assert g.winners() == ["Ana", "Cy"]
    rejected(g, Event("steal", {"opponent": "Cy", **winning}, "Bo"), "only players tied at the top")
    g.apply(Event("steal", {"opponent": "Ana", **winning}, "Cy"))
    assert g.winners() == ["Cy"]
    rejected(g, square("Ana", "a", legal_grid(2, 1)), "the game is over")


def test_golden_game():
    """Ana, Bo, Cy.

    Ana makes a (2x1: 2); Bo makes b1 (3x1: 3); Cy wins a Squib Steal from Ana (blue beats
    yellow, purple ties purple) and Ana's square a is broken up; Bo grows b1 to 3x2 (6 + 3 =
    9); Cy makes c (2x2: 4 + 2 = 6); Ana makes a2 (2x2: 6); Bo makes b2 (2x1: 2); Bo's
    break of b2 is undone; Ana and Bo draw a Squib Steal after three cards; the game ends.
    Bonuses: biggest square b1 (6 cards) Bo +5; most squares Bo (2) +4; first to make a
    square Ana +3; last to make one Cy +1.
    Totals: Ana 6 + 3 = 9, Bo 9 + 2 + 5 + 4 = 20, Cy 6 + 1 = 7. Bo wins.
    """
    g = replay(golden("squib-squares.jsonl"))
    assert g.totals() == {"Ana": 9, "Bo": 20, "Cy": 7}
    assert g.finished()
    assert g.winners() == ["Bo"]
    assert [entry["player"] for entry in g.details()["ranking"]] == ["Bo", "Ana", "Cy"]


def test_a_square_scored_again_under_its_name_grows_or_changes():
    g = SquibSquares(["Ana", "Bo"])
    g.apply(square("Ana", "a", legal_grid(2, 1)))
    g.apply(square("Ana", "a", legal_grid(3, 2)))
    assert g.notes[-1].startswith("Ana grows square a: 3x2")
    g.apply(square("Ana", "a", legal_grid(2, 2)))
    assert g.notes[-1].startswith("Ana changes square a: 2x2")  # smaller: no growth
    assert list(g.squares["Ana"]) == ["a"]


# -- what a mutation audit found no test would miss ------------------------------
DRAWN = {  # the sheet's three cards laid with no winner: a draw (test_squib's even/mixed)
    "mine": [["blue happy rocket", "blue sad candle"]] * 3,
    "theirs": [["purple happy rocket", "orange sad candle"]] * 3,
}


def test_squib_a_drawn_tiebreak_steal_beats_nobody():
    """squib.py `if result.winner == 0` dropped (or `== -1`): a drawn steal made the
    opponent its winner, so the challenger dropped out of the tied winners.  Sheet 002: "If
    they lay down all three of their cards and there is still no winner, the Squib Steal
    ends in a draw"; RULES.md: "the loser of a steal with a winner drops out"."""
    g = SquibSquares(["Ana", "Bo"], {"tied_bonus": "nobody"})
    g.apply(Event("end"))
    g.apply(Event("steal", {"opponent": "Bo", **DRAWN}, "Ana"))
    assert g.winners() == ["Ana", "Bo"]
    assert g.notes[-1] == "Squib Steal, Ana against Bo: a draw after 3 cards"


def test_squib_the_opponent_who_wins_a_tiebreak_steal_stays_a_winner():
    """squib.py `== 0` -> `== -1`: a steal the opponent wins was taken for a draw."""
    g = SquibSquares(["Ana", "Bo"], {"tied_bonus": "nobody"})
    g.apply(Event("end"))
    losing = {
        "mine": [["yellow sad candle", "yellow happy candle"]],
        "theirs": [["blue happy rocket", "blue sad rocket"]],
    }
    g.apply(Event("steal", {"opponent": "Bo", **losing}, "Ana"))
    assert g.winners() == ["Bo"]


@pytest.mark.parametrize("count", [1, 7])
def test_squib_squares_takes_2_to_6_players(count):
    """squib.py min_players 2 -> 1, max_players 6 -> 7.  Sheet 002: "Players: 2 - 6"."""
    with pytest.raises(IllegalMove, match="2 to 6 players"):
        SquibSquares([f"P{n}" for n in range(count)])


def test_squib_with_tied_bonus_nobody_an_untied_leader_still_gets_the_bonus():
    """squib.py `len(leaders) > 1` -> `>= 1` (or `> 0`): with the option "nobody" even a
    sole leader lost Big Bang Set and Squib Party.  Sheet 002: "Big Bang Set: + 5 pts. Given
    to the player with the biggest squib square"; RULES.md: "tied players each receive it
    (option: nobody)" - the option is about ties only."""
    g = SquibSquares(["Ana", "Bo"], {"tied_bonus": "nobody"})
    for event in (square("Bo", "b", legal_grid(2, 1)), square("Ana", "a", legal_grid(2, 2)), Event("end")):
        g.apply(event)
    assert g.bonuses["Ana"] == {"Big Bang Set": 5, "Patient Squibs": 1}  # Squib Party: 1 each, tied
    assert g.bonuses["Bo"] == {"Speedy Squibs": 3}


def test_squib_a_steal_lays_at_least_one_card():
    """squib.py `1 <= len(mine)` -> `0 <=`: a steal with no cards was a draw."""
    with pytest.raises(IllegalMove, match="same number of cards, 1 to 3"):
        squib_steal([], [])


def test_squib_after_the_end_only_tied_leaders_are_offered_a_steal():
    """squib.py `len(contenders) > 1` -> `>= 1`, or `and` -> `or`: a sole winner, or a
    player out of the tie, was offered a steal that on_steal then refuses.  RULES.md: "If
    there is a tie, each player in the tie should ... challenge each other"."""
    g = SquibSquares(["Ana", "Bo", "Cy"], {"tied_bonus": "nobody"})
    g.apply(Event("end"))  # all tied at 0
    winning = {
        "mine": [["blue happy rocket", "blue sad rocket"]],
        "theirs": [["yellow sad candle", "yellow happy candle"]],
    }
    g.apply(Event("steal", {"opponent": "Cy", **winning}, "Ana"))
    assert g.winners() == ["Ana", "Bo"]
    assert g.allowed() == {"Ana": ["steal"], "Bo": ["steal"], "Cy": []}
    solo = SquibSquares(["Ana", "Bo"])
    solo.apply(square("Ana", "a", legal_grid(2, 1)))
    solo.apply(Event("end"))
    assert solo.allowed() == {"Ana": [], "Bo": []}
