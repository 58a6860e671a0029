"""The board's entry forms offer what the rules accept: each test reads a form's choices
from the rendered board and sends the move the page's script would build from them."""

import re
from html import unescape
from html.parser import HTMLParser

import pytest

from scoring.hands import TARGET_KINDS
from scoring.rodeo import NO_EFFECT, default_spinner


class Forms(HTMLParser):
    """Each form's selects, by form id: ``{form: {name: [[(value, selected, disabled)]]}}``,
    one list of options per select (selects of the same name in order)."""

    def __init__(self, html):
        super().__init__()
        self.forms, self.form, self.select = {}, None, None
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form":
            self.form = self.forms.setdefault(attrs.get("id"), {})
        elif tag == "select" and self.form is not None:
            self.select = []
            self.form.setdefault(attrs["name"], []).append(self.select)
        elif tag == "option" and self.select is not None:
            self.select.append((attrs.get("value"), "selected" in attrs, "disabled" in attrs))

    def handle_endtag(self, tag):
        if tag == "form":
            self.form = None
        elif tag == "select":
            self.select = None


def board_forms(client, game_id):
    return Forms(client.get(f"/games/{game_id}/board").json["html"]).forms


def values(select):
    return [value for value, _, disabled in select if value and not disabled]


def selected(select):
    return next(value for value, is_selected, _ in select if is_selected)


def test_a_physical_rodeo_spinner_is_entered_with_a_goal(api):
    game = api.new_game("rodeo-rummy", spinner="physical")
    forms = board_forms(api.client, game)
    goals = values(forms["spin"]["goal"][0])
    assert goals == [goal.id for goal in default_spinner().goals]
    assert "effect" not in forms["spin"]  # the effect printed beside the goal counts
    assert api.move(game, "spin", "Ana", goal="5s-6s").status_code == 201
    view = api.view(game)
    assert view["goal"] == "5's & 6's" and view["allowed"]["Ana"] == ["roll"]
    assert "spin" not in board_forms(api.client, game)


def test_spinning_twice_enters_the_effect_too(api):
    game = api.new_game("rodeo-rummy", spinner="physical", spin_twice=True)
    spin = board_forms(api.client, game)["spin"]
    assert values(spin["effect"][0]) == list(default_spinner().effects)
    assert api.move(game, "spin", "Ana", goal="5s-6s", effect="plus-5-per-king").status_code == 201
    assert api.view(game)["effect"] == "+5 per king showing"


def test_a_virtual_spinner_needs_no_form(api):
    game = api.new_game("rodeo-rummy")
    assert "spin" not in board_forms(api.client, game)


def test_square_shootout_offers_one_card_of_each_kind_before_the_first_roll(api):
    game = api.new_game("square-shooters/shootout")
    choose = board_forms(api.client, game)["choose"]["target"]
    assert len(choose) == len(TARGET_KINDS)
    # the last card of each kind instead of the first, the default
    cards = [values(select)[-1] for select in choose]
    assert api.move(game, "choose", "Ana", cards=cards).status_code == 201
    targets = api.view(game)["targets"]
    assert [card["id"] for card in targets] == cards
    assert [selected(select) for select in board_forms(api.client, game)["choose"]["target"]] == cards
    board = api.client.get(f"/games/{game}/board").json["html"]
    assert "Royal Flush: " in board and "kind: " not in board  # the targets in words, not as data
    api.roll(game, "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S")
    assert "choose" not in board_forms(api.client, game)


def test_old_town_deals_five_playing_cards_each_then_gives_for_a_joker(api):
    game = api.new_game("square-shooters/old-town")
    deal = board_forms(api.client, game)["deal"]
    assert values(deal["player"][0]) == ["Ana", "Bo"]
    assert len(deal["card"]) == 5 and len(values(deal["card"][0])) == 52
    assert api.move(game, "deal", "Ana", cards=["AS", "2S", "3S", "4S", "5S"]).status_code == 201

    deal = board_forms(api.client, game)["deal"]
    assert values(deal["player"][0]) == ["Bo"]
    assert "AS" not in values(deal["card"][0])  # dealt to Ana already
    assert api.move(game, "deal", "Bo", cards=["AH", "2H", "3H", "4H", "5H"]).status_code == 201

    faces = ["AS", "JOKER_RED", "KD", "QD", "JD", "10D", "9D", "8D", "7D"]
    assert api.roll(game, *faces, player="Ana").status_code == 201
    give = board_forms(api.client, game)["give"]
    assert values(give["card"][0]) == ["2S", "3S", "4S", "5S"] and values(give["to"][0]) == ["Bo"]
    assert api.move(game, "give", "Ana", card="2S", to="Bo").status_code == 201
    assert api.view(game)["hands"]["Bo"][-1] == "2S"


def test_twenty_one_rolls_one_die_at_a_time(api):
    game = api.new_game("square-shooters/twenty-one")
    page = api.client.get(f"/games/{game}").get_data(as_text=True)
    assert page.count('class="picker"') == 1 and 'id="add-die"' not in page
    faces = board_forms(api.client, game)["enter-dice"]["face"]
    assert api.roll(game, selected(faces[0])).status_code == 201
    assert len(board_forms(api.client, game)["enter-dice"]["face"]) == 1


def test_a_game_whose_dice_count_varies_may_add_dice(api):
    game = api.new_game()  # the pip race rolls d6, any number of them
    assert 'id="add-die"' in api.client.get(f"/games/{game}").get_data(as_text=True)


def goal_texts(client, game_id):
    """The spinner's goals as the board's form words them, by goal id."""
    html = client.get(f"/games/{game_id}/board").json["html"]
    goals = re.search(r'<select name="goal"[^>]*>(.*?)</select>', html, re.S).group(1)
    return {
        goal: unescape(text) for goal, text in re.findall(r'<option value="([^"]*)">(.*?)</option>', goals)
    }


@pytest.mark.parametrize(
    ("options", "effect_counts", "effect_picked"),
    [
        ({}, True, False),  # the effect printed beside the goal is the one that counts
        ({"spin_twice": True}, False, True),  # the effect is spun on its own: picked on its own
        ({"no_bonus": True}, False, False),
        ({"spin_twice": True, "no_bonus": True}, False, False),  # no effect counts: none to pick
    ],
)
def test_the_spinner_form_offers_an_effect_only_where_one_counts(api, options, effect_counts, effect_picked):
    spinner = default_spinner()
    game = api.new_game("rodeo-rummy", spinner="physical", **options)
    texts = goal_texts(api.client, game)
    for goal in spinner.goals:
        with_effect = effect_counts and goal.effect != NO_EFFECT
        assert texts[goal.id] == (
            f"{goal.label} ({spinner.effects[goal.effect].label})" if with_effect else goal.label
        )
    assert ("effect" in board_forms(api.client, game)["spin"]) == effect_picked
    assert api.move(game, "spin", "Ana", goal=spinner.goals[0].id).status_code == 201


def test_the_dice_pickers_start_at_different_faces_then_at_the_last_roll(api):
    game = api.new_game("cubes")
    first = [selected(select) for select in board_forms(api.client, game)["enter-dice"]["face"]]
    assert len(first) == 6 and len(set(first)) == 6  # not six of one face
    rolled = ["CUBES", "3", "3", "5", "BLANK", "1"]
    assert api.roll(game, *rolled).status_code == 201
    after = [selected(select) for select in board_forms(api.client, game)["enter-dice"]["face"]]
    assert after == rolled  # the dice a player holds stay as they were
