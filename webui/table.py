"""What the pages and the API show: the games on offer, and one game's table (its view,
its history with undone moves and corrections marked, the dice showing)."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from dicescore.ledger import Ledger
from scoring.cubes import CHIP_VALUES
from scoring.faces import DIE_KINDS, Card, Joker, Suit, UnknownFace, parse_face
from scoring.game import Event, Game, IllegalMove, Option
from scoring.games import GAMES
from scoring.hands import KIND_NAMES
from scoring.replay import corrected_moves, is_roll, moves_in_force, next_to_undo, replayed
from scoring.rodeo import default_spinner
from scoring.squib import Squib
from scoring.targets import SHOOTOUT_TITLES, standard_deck

# The keys every view has; anything else in a view is the game's own details.
VIEW_KEYS = frozenset(
    {"game", "title", "players", "options", "totals", "turn", "roll", "roll_limit", "make"}
    | {"allowed", "dice_per_roll", "finished", "winners", "notes"}
)
CHIP_COLOURS = frozenset(colour for colour, _ in CHIP_VALUES)
# Details shown first, as the goal of the moment, when a game reports them.
GOAL_KEYS = ("target", "goal", "effect", "spinner", "round", "set", "hand")
# What the pages call each die kind's dice.
KIND_TITLES = {"square-shooters": "Square Shooters dice", "cubes": "Cubes dice", "d6": "Pip dice"}


def option_type(option: Option) -> str:
    if isinstance(option.default, bool):
        return "bool"
    return "int" if isinstance(option.default, int) else "str"


def game_info(game: type[Game]) -> dict[str, Any]:
    return {
        "name": game.name,
        "title": game.title,
        "die_kind": game.die_kind,
        "min_players": game.min_players,
        "max_players": game.max_players,
        "options": [
            {
                "name": name,
                "type": option_type(option),
                "default": option.default,
                "help": option.help,
                "choices": list(option.choices) if option.choices is not None else None,
                "meanings": dict(option.choices) if option.choices is not None else None,
                "minimum": option.minimum,
                "maximum": option.maximum,
            }
            for name, option in game.options_spec.items()
        ],
    }


def catalog() -> list[dict[str, Any]]:
    """Every game dicescore scores, with its options, sorted by title."""
    return [game_info(game) for game in sorted(GAMES.values(), key=lambda game: game.title)]


def die_kinds() -> dict[str, dict[str, Any]]:
    return {name: {"labels": list(kind.labels), "dice": kind.dice} for name, kind in DIE_KINDS.items()}


def options_from_form(game: type[Game], form: Mapping[str, str]) -> dict[str, Any]:
    """A game's options from the new-game form, whose fields are named ``<game>:<option>``;
    the game itself checks the values."""
    options: dict[str, Any] = {}
    for name, option in game.options_spec.items():
        field = f"{game.name}:{name}"
        kind = option_type(option)
        if kind == "bool":
            options[name] = field in form
        elif field in form:
            text = form[field].strip()
            if kind == "int":
                try:
                    options[name] = int(text)
                except ValueError:
                    raise IllegalMove(f"option {name} must be a whole number") from None
            else:
                options[name] = text
    return options


def face_text(label: str) -> str:
    """A label as a player reads it: 10♥, Joker, CUBES, 4."""
    try:
        face = parse_face(label)
    except UnknownFace:
        return label
    if isinstance(face, Joker):
        return "Joker"
    return str(face)


def face_colour(label: str) -> str:
    try:
        face = parse_face(label)
    except UnknownFace:
        return ""
    if isinstance(face, Card):
        return "red" if face.suit.is_red else "black"
    if isinstance(face, Joker):
        return face.colour.lower()
    return ""


def words(name: str) -> str:
    """A field's name as words: tricks_in_hand -> tricks in hand."""
    return name.replace("_", " ")


def in_words(value: Any, nested: bool = False) -> str:
    """A game detail in words, with no JSON punctuation for a player to decode."""
    if value is None or value == [] or value == {}:
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dict):
        text = ", ".join(f"{words(str(key))}: {in_words(item, True)}" for key, item in value.items())
        return f"({text})" if nested else text
    if isinstance(value, list):
        text = "; ".join(in_words(item, True) for item in value)
        return f"({text})" if nested else text
    return str(value)


def describe(event: Event) -> str:
    """One event in words, for the history."""
    data = dict(event.data)
    if event.type == "start":
        game = GAMES.get(str(data.get("game")))
        players = ", ".join(map(str, data.get("players", [])))
        return f"{game.title if game else data.get('game')} with {players}"
    if event.type == "shuffle" and isinstance(data.get("order"), list):
        return f"the {len(data['order'])} game cards shuffled"
    if event.type == "correct":
        faces = data.get("faces")
        shown = " ".join(face_text(str(face)) for face in faces) if isinstance(faces, list) else "?"
        looked = data.get("checked") if isinstance(data.get("checked"), list) else []
        dice = ", ".join(str(die + 1) for die in looked if isinstance(die, int))
        return f"roll #{data.get('roll')} corrected to {shown}" + (f" (die {dice} checked)" if dice else "")
    if isinstance(data.get("faces"), list):
        data.pop("faces")
        data.pop("top", None)  # the classifier's guesses: shown when correcting
        data.pop("unsure", None)  # shown on the dice themselves
        data.pop("cocked", None)
    if event.type == "spin":
        data = spun(data)
    return in_words({key: as_printed(key, value) for key, value in data.items()}) if data else ""


def described(event: Event) -> str:
    """``describe``, or the event's data as JSON where it has a shape no rule reads: a log
    stored before the ledger refused such fields must still show."""
    try:
        return describe(event)
    except Exception:  # any odd shape: the history must render
        return json.dumps(event.data, ensure_ascii=False, default=str)


def spun(data: dict[str, Any]) -> dict[str, Any]:
    """A Rodeo spin as the spinner prints it (goal: 7's, effect: -10 per joker on the last
    roll), not by its ids; an id the spinner lacks is shown as it is."""
    spinner = default_spinner()
    goals = {goal.id: goal.label for goal in spinner.goals}
    effects = {effect.id: effect.label for effect in spinner.effects.values()}
    shown = dict(data)
    if isinstance(data.get("goal"), str):
        shown["goal"] = goals.get(data["goal"], data["goal"])
    if isinstance(data.get("effect"), str):
        shown["effect"] = effects.get(data["effect"], data["effect"])
    return shown


def as_printed(key: str, value: Any) -> Any:
    """A move's field or a scoreboard cell as the table shows it: playing cards as printed
    (held: 2♣ 9♣ K♣), game cards as printed (Full House: 7♣ 7♥ 7♦ A♠ A♥, 8 chips; Quick-Draw),
    Cubes' chips counted out (3 blue, 1 red), Shooter's tricks taken (Ana 2, Bo 3, Cy 3),
    a game detail's records by their fields (``RECORDS``: Ana: Double-Down; 10♥ 10♦ = 20, stands),
    a trump by its suit's name, Squib Squares' cards as [left squib | right squib] and a
    square's grid row by row (rows split by /); anything else as it is, for ``in_words``."""
    if isinstance(value, list) and value:
        return list_as_printed(key, value)
    if key == "trump" and isinstance(value, str):
        try:
            return Suit.parse(value).name.lower()
        except UnknownFace:
            return value
    if key == "card" and is_playing_card(value):
        return face_text(value)
    if key == "card" and isinstance(value, str) and value in SHOOTOUT_TITLES:
        return SHOOTOUT_TITLES[value]
    if is_game_card(value):
        return game_card_text(value)
    if isinstance(value, dict) and frozenset(value) in RECORDS:
        return RECORDS[frozenset(value)](value)
    if key == "tricks" and isinstance(value, dict) and all(isinstance(n, int) for n in value.values()):
        return ", ".join(f"{player} {count}" for player, count in value.items())  # Ana 2, Bo 3
    if isinstance(value, dict) and set(value) == CHIP_COLOURS:  # Cubes' chips, counted out: 3 blue, 1 red
        return ", ".join(f"{count} {colour}" for colour, count in value.items() if count) or "none"
    if isinstance(value, dict):
        return {name: as_printed(str(name), item) for name, item in value.items()}
    return value


def twenty_one_hand(hand: dict[str, Any]) -> str:
    if not hand["cards"]:
        return "no cards yet"
    state = ", bust" if hand["bust"] else ", stands" if hand["stood"] else ""
    return f"{' '.join(face_text(str(card)) for card in hand['cards'])} = {hand['value']}{state}"


def rummy_melds(showing: dict[str, Any]) -> str:
    melds = "; ".join(meld["name"] for meld in showing["melds"])
    shown = f"{melds} = {showing['points']} points" if melds else "no melds"
    unused = " ".join(face_text(str(face)) for face in showing["unused"])
    return f"{shown}, unused {unused}" if unused else shown


# A game detail's records, told by their fields, in words.
RECORDS: dict[frozenset[str], Callable[[dict[str, Any]], str]] = {
    # a shootout card in play: Ana: Double-Down
    frozenset({"player", "card"}): lambda r: f"{r['player']}: {SHOOTOUT_TITLES.get(r['card'], r['card'])}",
    # the game cards: 24 cards to draw, 10 discarded
    frozenset({"pile", "discards"}): lambda r: f"{r['pile']} cards to draw, {r['discards']} discarded",
    # a Twenty-One hand: 10♥ 10♦ = 20, stands
    frozenset({"cards", "value", "bust", "stood"}): twenty_one_hand,
    # a place in a ranking: Bo: 20
    frozenset({"player", "total"}): lambda r: f"{r['player']}: {r['total']}",
    # Shooter's bidding so far: Bo: 4, Cy: pass
    frozenset({"player", "bid"}): lambda r: f"{r['player']}: {'pass' if r['bid'] is None else r['bid']}",
    # a Shooter hand played: dealt by Ana: Ana 2, Bo 5, Cy 1
    frozenset({"dealer", "scores"}): lambda r: (
        f"dealt by {r['dealer']}: "
        + ", ".join(f"{player} {points}" for player, points in r["scores"].items())
    ),
    # a Rodeo Rummy turn: round 1, Ana, A's & K's (+5 per heart showing): Set of Aces: ...; 85 points
    frozenset({"round", "player", "goal", "effect", "melds", "bonus", "score"}): lambda r: (
        f"round {r['round']}, {r['player']}, {r['goal']} ({r['effect']}): {r['melds']}; "
        f"bonus {r['bonus']}; {r['score']} points"
    ),
    # the melds a Rummy roll shows: Set of Aces: A♠ A♥ A♦ A♣ (60) = 60 points, unused 9♠ 6♥
    frozenset({"points", "melds", "unused"}): rummy_melds,
    # a Squib Squares square: 3×2 for 9 points
    frozenset({"rows", "columns", "cards", "score"}): lambda r: (
        f"{r['rows']}×{r['columns']} for {r['score']} points"
    ),
}


def list_as_printed(key: str, items: list[Any]) -> Any:
    if key == "cards" and all(is_game_card(card) for card in items):
        return "; ".join(game_card_text(card) for card in items)
    if all(isinstance(kind, str) and kind in SHOOTOUT_TITLES for kind in items):
        return ", ".join(SHOOTOUT_TITLES[kind] for kind in items)  # shootout cards held
    if all(is_playing_card(item) for item in items):
        return " ".join(face_text(item) for item in items)
    if all(is_squib_card(item) for item in items):
        return ", ".join(squib_card_text(item) for item in items)
    if is_squib_grid(items):
        return " / ".join(", ".join(squib_card_text(card) for card in row) for row in items)
    return [as_printed("", item) for item in items]


def is_game_card(value: Any) -> bool:
    """A Square Shooters game card: a deck id, a physical target card or shootout card."""
    if isinstance(value, str):
        return value in standard_deck().ids
    return is_target_card(value) or (isinstance(value, dict) and value.get("shootout") in SHOOTOUT_TITLES)


def is_target_card(value: Any) -> bool:
    return isinstance(value, dict) and isinstance(value.get("cards"), list) and "kind" in value


def game_card_text(card: Any) -> str:
    """A game card as printed: Full House: 7♣ 7♥ 7♦ A♠ A♥, 8 chips; Quick-Draw."""
    if isinstance(card, str):
        card = standard_deck().card(card).to_json()
    if card.get("shootout") in SHOOTOUT_TITLES:
        return SHOOTOUT_TITLES[card["shootout"]]
    cards = " ".join(face_text(str(label)) for label in card["cards"])
    chips = f", {card['chips']} chips" if "chips" in card else ""
    return f"{KIND_NAMES.get(card['kind'], words(str(card['kind'])))}: {cards}{chips}"


def is_playing_card(value: Any) -> bool:
    try:
        return isinstance(value, str) and isinstance(parse_face(value), Card | Joker)
    except UnknownFace:
        return False


def is_squib_card(value: Any) -> bool:
    try:
        return isinstance(value, list) and len(value) == 2 and all(Squib.parse(squib) for squib in value)
    except IllegalMove:
        return False


def is_squib_grid(value: Any) -> bool:
    rows_of_cards = isinstance(value, list) and value and all(isinstance(row, list) and row for row in value)
    return bool(rows_of_cards) and all(is_squib_card(card) for row in value for card in row)


def squib_card_text(card: list[str]) -> str:
    return f"[{card[0]} | {card[1]}]"


def history(events: Sequence[Event], passed_over: frozenset[int] = frozenset()) -> list[dict[str, Any]]:
    """Every event, newest last, marked ``in_force`` (not undone, nor a chance ``passed_over``
    by the replay: ``scoring.replay.replayed``); a roll carries the faces it counts with now
    (after corrections) as ``faces``, and the dice whose face the camera guessed as
    ``unsure`` and those it saw leaning as ``cocked``, until a correction gives them another
    face; a guess a player checked (kept as it was) is no longer unsure."""
    live = moves_in_force(events)
    in_force = {event.seq for event in live} - passed_over
    counted = {event.seq: event.data["faces"] for event in corrected_moves(events) if is_roll(event)}
    checked: dict[Any, set] = {}
    for event in live:
        if event.type == "correct" and isinstance(event.data.get("checked"), list):
            checked.setdefault(event.data.get("roll"), set()).update(event.data["checked"])
    rows = []
    for event in events:
        faces = event.data.get("faces")
        row = {**event.to_json(), "text": described(event), "in_force": event.seq in in_force}
        if event.seq in passed_over:
            row["text"] = " ".join(filter(None, [row["text"], "(passed over: the game had ended)"]))
        if is_roll(event):
            row["faces"] = [str(face) for face in counted.get(event.seq, faces)]
            row["corrected"] = row["faces"] != faces
            top = event.data.get("top")  # the classifier's top-k per die, when read by camera
            row["top"] = top if isinstance(top, list) and len(top) == len(faces) else None
            dice = range(min(len(faces), len(row["faces"])))
            for mark in ("unsure", "cocked"):
                marked = event.data.get(mark)
                listed = [die for die in marked if isinstance(die, int)] if isinstance(marked, list) else []
                row[mark] = [die for die in listed if die in dice and row["faces"][die] == str(faces[die])]
            row["unsure"] = [die for die in row["unsure"] if die not in checked.get(event.seq, ())]
        rows.append(row)
    return rows


def table(ledger: Ledger, game_id: int) -> dict[str, Any]:
    """Everything the table page shows for one game."""
    events = ledger.events(game_id)
    game, passed_over = replayed(events)
    rows = history(events, passed_over)
    rolls = [row for row in rows if "faces" in row and row["in_force"]]
    view = game.view()
    undoable = next_to_undo(events)
    return {
        "id": game_id,
        "version": len(events),
        "view": view,
        "details": {key: value for key, value in view.items() if key not in VIEW_KEYS},
        "die_kind": game.die_kind,
        "history": rows,
        "dice": rolls[-1] if rolls else None,
        # what Undo would take back, named on its button: a roll may arrive as it is tapped
        "undo": {"seq": undoable.seq, "type": undoable.type, "player": undoable.player} if undoable else None,
    }


def summary(view: Mapping[str, Any]) -> dict[str, Any]:
    """The end of a finished game: the winners, every player's final total (winners
    first), and, when the game went to a tiebreak, the notes that say how it was settled:
    each tie as the rules announced it, then the note that ended the game."""
    players, winners, notes = view["players"], view["winners"], view["notes"]
    ranked = sorted(players, key=lambda player: (player not in winners, players.index(player)))
    ties = [note for note in notes if " tied " in note]  # how every game announces a level finish
    return {
        "winners": winners,
        "totals": [(player, view["totals"][player]) for player in ranked],
        "tiebreak": [*ties, notes[-1]] if ties else [],
    }


def csv_export(events: Sequence[Event]) -> str:
    """The log as CSV, one event a row, for a spreadsheet: a player's name that begins like a
    formula (``=``, ``+``, ``-``, ``@``) is written after a quote mark, so that opening the
    file runs nothing a name smuggled in (CSV injection). It begins with a byte-order mark:
    without one, Excel reads the file in the machine's own code page (Zoë as ZoÃ«)."""
    out = io.StringIO()
    out.write("\ufeff")
    writer = csv.writer(out)
    writer.writerow(["seq", "at", "type", "player", "auto", "faces", "data"])
    for event in events:
        faces = event.data.get("faces")
        writer.writerow(
            [
                event.seq,
                event.at,
                event.type,
                as_text(event.player or ""),
                int(event.auto),
                " ".join(map(str, faces)) if isinstance(faces, list) else "",
                json.dumps(dict(event.data), ensure_ascii=False),
            ]
        )
    return out.getvalue()


def as_text(cell: str) -> str:
    """A cell a spreadsheet shows as the text it is, never evaluates."""
    return "'" + cell if cell[:1] in ("=", "+", "-", "@", "\t", "\r") else cell
