from dataclasses import replace

import pytest

from scoring.game import Event, IllegalMove
from scoring.replay import (
    StaleMove,
    check_seen,
    checked_log,
    checked_move,
    moves_in_force,
    next_to_undo,
    replay,
)


def log(*events):
    """Number a list of events as the ledger would."""
    return [Event(e.type, e.data, e.player, seq, auto=e.auto) for seq, e in enumerate(events, start=1)]


def race(*moves):
    return log(
        Event("start", {"game": "test/pip-race", "players": ["Ana", "Bo"], "options": {"target": 30}}),
        Event("shuffle", {"order": ["Bo", "Ana"]}, auto=True),
        *moves,
    )


def roll(player, a, b):
    return Event("roll", {"faces": [str(a), str(b)]}, player)


def test_totals_come_from_replaying_the_log(pip_race):
    game = replay(race(roll("Bo", 6, 6), roll("Ana", 1, 2), roll("Bo", 3, 3)))
    assert game.totals() == {"Ana": 3, "Bo": 18}
    assert game.turn() == "Ana"


def test_undo_cancels_the_latest_move(pip_race):
    game = replay(race(roll("Bo", 6, 6), roll("Ana", 1, 2), Event("undo")))
    assert game.totals() == {"Ana": 0, "Bo": 12}
    assert game.turn() == "Ana"


def test_undo_takes_automatic_events_with_their_move(pip_race):
    events = race(Event("undo"))
    with pytest.raises(IllegalMove, match="nothing to undo"):
        replay(events)  # the shuffle was automatic, so the start is all that is left


def test_a_correction_re_derives_everything_after_it(pip_race):
    events = race(roll("Bo", 6, 6), roll("Ana", 1, 2), roll("Bo", 3, 3))
    corrected = events + log(*events, Event("correct", {"roll": 3, "faces": ["1", "1"]}))[-1:]
    assert replay(corrected).totals() == {"Ana": 3, "Bo": 8}


def test_a_correction_can_be_undone(pip_race):
    events = race(roll("Bo", 6, 6))
    events = log(*events, Event("correct", {"roll": 3, "faces": ["1", "1"]}), Event("undo"))
    assert replay(events).totals()["Bo"] == 12


def test_a_correction_must_name_an_existing_roll(pip_race):
    events = log(*race(roll("Bo", 6, 6)), Event("correct", {"roll": 99, "faces": ["1", "1"]}))
    with pytest.raises(IllegalMove, match="no roll #99"):
        replay(events)
    events = log(*race(roll("Bo", 6, 6)), Event("correct", {"roll": 2, "faces": ["1", "1"]}))
    with pytest.raises(IllegalMove, match="no roll #2"):
        replay(events)  # event 2 is the shuffle, not a roll


def test_a_correction_must_come_after_the_roll_it_names(pip_race):
    correction = Event("correct", {"roll": 5, "faces": ["1", "1"]})
    events = log(*race(roll("Bo", 6, 6)), correction, roll("Ana", 1, 2))
    with pytest.raises(IllegalMove, match="no roll #5"):
        replay(events)  # roll #5 comes after the correction that names it


def test_a_correction_is_checked_by_the_rules(pip_race):
    events = log(*race(roll("Bo", 6, 6)), Event("correct", {"roll": 3, "faces": ["1", "AS"]}))
    with pytest.raises(IllegalMove, match="event #3"):
        replay(events)


def test_a_correction_a_later_move_forbids_says_so_and_how_to_make_it():
    """Twenty-One: a joker (rolled again, not dealt) in place of Bob's first card would
    make the next die Bob's, not Ann's. The refusal named only the later move ("it is Bob's
    turn, not Ann's") while the page showed Bob's turn."""
    events = [Event("start", {"game": "square-shooters/twenty-one", "players": ["Ann", "Bob"]}, seq=1)]
    for player, face in (("Bob", "9H"), ("Ann", "5D"), ("Bob", "7C")):
        events.append(Event("roll", {"faces": [face]}, player, seq=len(events) + 1))
    correction = Event("correct", {"roll": 2, "faces": ["JOKER_RED"]}, seq=len(events) + 1)
    with pytest.raises(IllegalMove) as refused:
        checked_move(events, correction)
    assert str(refused.value) == (
        "roll #2 cannot read so: a later move would no longer be legal (event #3 (roll): it is Bob's"
        " turn, not Ann's). To correct it so, undo back to roll #2 first"
    )
    with pytest.raises(IllegalMove, match="^event #4 \\(roll\\): unknown face label '7X'"):  # its own fault
        checked_move(events, Event("correct", {"roll": 4, "faces": ["7X"]}, seq=len(events) + 1))


def test_an_undone_roll_cannot_be_corrected(pip_race):
    events = log(*race(roll("Bo", 6, 6)), Event("undo"), Event("correct", {"roll": 3, "faces": ["1", "1"]}))
    with pytest.raises(IllegalMove, match="no roll #3"):
        replay(events)


def test_a_new_correction_must_change_a_face_or_check_a_die(pip_race):
    def then(events, data):
        """``checked_move`` of a correction numbered as the ledger would number it."""
        return checked_move(events, log(*events, Event("correct", data))[-1])

    events = race(roll("Bo", 6, 6))
    assert then(events, {"roll": 3, "faces": ["6", "1"]}).totals()["Bo"] == 7
    events = log(*events, Event("correct", {"roll": 3, "faces": ["6", "1"]}))
    with pytest.raises(IllegalMove, match="roll #3 already reads 6 1: nothing to correct"):
        then(events, {"roll": 3, "faces": ["6", "1"]})  # the same fix, again
    with pytest.raises(IllegalMove, match="nothing to correct"):
        then(events, {"roll": 3, "faces": ["6", "1"], "checked": []})  # no die looked at either
    # a die looked at and kept as it reads is worth a line: a guess no more
    assert then(events, {"roll": 3, "faces": ["6", "1"], "checked": [1]}).totals()["Bo"] == 7
    # a log that already holds such a correction still replays
    assert replay(log(*events, Event("correct", {"roll": 3, "faces": ["6", "1"]}))).totals()["Bo"] == 7


def test_a_move_made_on_an_older_log_is_stale_unless_what_came_since_leaves_its_meaning(pip_race):
    events = race(roll("Bo", 6, 6), roll("Ana", 1, 2))
    check_seen(events, roll("Bo", 3, 3), version=4)  # made on the log as it is
    with pytest.raises(StaleMove, match=r"moved on since you looked: the last move is now #4 \(roll by Ana"):
        check_seen(events, roll("Bo", 3, 3), version=3)
    fix_first = Event("correct", {"roll": 3, "faces": ["5", "6"]})
    check_seen(events, fix_first, version=3)  # a roll came since, roll #3 reads as it did
    check_seen(events, Event("undo", {"seq": 4}), version=3)  # the undo's own seq decides
    undone = [*events, Event("undo", seq=5)]
    with pytest.raises(StaleMove, match="roll #4 has changed since you looked: it reads nothing: it was"):
        check_seen(undone, Event("correct", {"roll": 4, "faces": ["1", "3"]}), version=4)
    corrected = [*events, Event("correct", {"roll": 4, "faces": ["2", "2"]}, seq=5)]
    with pytest.raises(StaleMove, match="roll #4 has changed since you looked: it reads 2 2 now"):
        check_seen(corrected, Event("correct", {"roll": 4, "faces": ["1", "3"]}), version=4)
    for never in (0, 5):
        with pytest.raises(IllegalMove, match="'version' is the length of the log"):
            check_seen(events, roll("Bo", 3, 3), version=never)


def test_a_log_starts_with_start():
    with pytest.raises(IllegalMove, match="starts with"):
        moves_in_force([Event("roll", {"faces": []}, seq=1)])
    with pytest.raises(IllegalMove, match="starts with"):
        moves_in_force([])


def test_unknown_games_and_events_are_named(pip_race):
    with pytest.raises(IllegalMove, match="unknown game 'nope'"):
        replay(log(Event("start", {"game": "nope", "players": ["A"]})))
    with pytest.raises(IllegalMove, match="no event 'dance'"):
        replay(race(Event("dance", {}, "Bo")))


def test_players_and_options_are_checked(pip_race):
    def start(players, options=None):
        return log(Event("start", {"game": "test/pip-race", "players": players, "options": options or {}}))

    with pytest.raises(IllegalMove, match="same name"):
        replay(start(["Ana", "Ana"]))
    with pytest.raises(IllegalMove, match="1 to 4 players"):
        replay(start(["A", "B", "C", "D", "E"]))
    with pytest.raises(IllegalMove, match="unknown option 'speed'"):
        replay(start(["A"], {"speed": 3}))
    with pytest.raises(IllegalMove, match="whole number"):
        replay(start(["A"], {"target": "ten"}))
    with pytest.raises(IllegalMove, match="at least 1"):
        replay(start(["A"], {"target": 0}))


def test_event_json_round_trips():
    event = Event("roll", {"faces": ["1", "2"]}, "Ana", 7, "2026-11-22T10:00:00.000+00:00", True)
    assert Event.from_json(event.to_json()) == event
    for bad in ([], {"type": 3}, {"type": "roll", "data": []}, {"type": "roll", "seq": -1}):
        with pytest.raises(IllegalMove):
            Event.from_json(bad)


def test_held_faces_must_be_labels():
    from scoring.faces import parse_faces
    from scoring.game import held_faces

    showing = parse_faces(["1", "2"])
    with pytest.raises(IllegalMove, match="list of face labels"):
        held_faces(Event("roll", {"faces": ["1", "2"], "held": [5]}), showing, showing)
    with pytest.raises(IllegalMove, match="was not showing"):
        held_faces(Event("roll", {"faces": ["1", "2"], "held": ["3"]}), showing, showing)
    assert held_faces(Event("roll", {"held": ["2"]}), showing, showing) == parse_faces(["2"])


@pytest.mark.parametrize(
    "name", ["square-shooters/classic", "square-shooters/rummy", "square-shooters/showdown-v1", "rodeo-rummy"]
)
def test_three_roll_games_say_roll_n_of_3(name):
    import random

    from scoring.games import new_game

    game, rng = new_game(name, ["Ana", "Bo"]), random.Random(3)
    while "roll" not in game.allowed()[game.turn()]:  # a card to draw or a spin first
        game.apply(game.random_event(rng) or Event("draw", {}, game.turn()))
    assert game.roll_number() is None
    game.apply(Event("roll", {"faces": ["AS", "KS", "QS", "JS", "10S", "2H", "3H", "4H", "5H"]}, game.turn()))
    assert (game.roll_number(), game.roll_limit()) == (1, 3)
    assert game.view()["roll_limit"] == 3


def test_each_game_says_how_many_dice_a_roll_shows():
    from scoring.games import new_game

    assert new_game("square-shooters/classic", ["Ana", "Bo"]).view()["dice_per_roll"] == 9
    assert new_game("cubes", ["Ana", "Bo"]).view()["dice_per_roll"] == 6
    assert new_game("square-shooters/twenty-one", ["Ana", "Bo"]).view()["dice_per_roll"] == 1
    assert new_game("shooter", ["Ana", "Bo", "Cy"]).view()["dice_per_roll"] is None


def test_a_correction_that_ends_the_game_passes_over_the_chance_drawn_for_the_next_turn():
    # the ledger drew Ana's spin after Bo's stop; correcting Bo's roll to a win ends the game
    # before that spin, as rolling those faces in the first place would have
    start = {
        "game": "rodeo-rummy",
        "players": ["Ana", "Bo"],
        "options": {"winning_score": 1, "no_bonus": True},
    }
    plain = ["2S", "4H", "6D", "8C", "10S", "QH", "3D", "5C", "7S"]
    events = log(
        Event("start", start),
        Event("spin", {"goal": "4-5-6-run", "effect": "none"}, "Ana", auto=True),
        Event("roll", {"faces": plain}, "Ana"),
        Event("stop", {}, "Ana"),
        Event("spin", {"goal": "spades-run", "effect": "none"}, "Bo", auto=True),
        Event("roll", {"faces": plain}, "Bo"),
        Event("stop", {}, "Bo"),
        Event("spin", {"goal": "clubs-run", "effect": "none"}, "Ana", auto=True),
    )
    won = ["JOKER_BLACK", "JOKER_RED", "AS", "KH", "4D", "5S", "6C", "7H", "QD"]
    game = replay([*events, Event("correct", {"roll": 6, "faces": won}, seq=9)])
    rolled = replay([*events[:5], replace(events[5], data={"faces": won}), events[6]])
    assert rolled.finished() and game.finished() and game.winners() == rolled.winners() == ["Bo"]
    assert game.totals() == rolled.totals()
    assert not replay(events).finished()  # uncorrected, the spin stands and Ana plays on
    # so too with Ana's roll corrected before: the latest correction judges the chance
    ana = Event("correct", {"roll": 3, "faces": [*plain[:-1], "9S"]})
    twice = log(*events[:5], ana, *events[5:], Event("correct", {"roll": 7, "faces": won}))
    assert replay(twice).finished() and replay(twice).winners() == ["Bo"]


def test_a_chance_after_the_end_with_no_correction_since_is_refused(pip_race):
    # only a correction can end a game before a chance the app drew: else the log is damaged
    over = race(roll("Bo", 6, 6), roll("Ana", 6, 6), roll("Bo", 6, 6), roll("Ana", 6, 6), roll("Bo", 6, 6))
    assert replay(over).finished()
    junk = [*over, Event("shuffle", {"order": ["Ana", "Bo"]}, seq=len(over) + 1, auto=True)]
    with pytest.raises(IllegalMove, match="the game is over"):
        replay(junk)


# -- what a mutation audit found no test would miss ------------------------------
def test_a_second_start_anywhere_in_the_log_is_refused(pip_race):
    """replay.py `if event.type == "start" and live` dropped: a second start in the middle
    of a (hand-edited) log was taken as a move in force: stored on import, and an undo
    after it cancelled the stray start instead of the roll before it.
    docs/events.md:58: `start` "always first, exactly once"."""
    with pytest.raises(IllegalMove, match="only one 'start' event"):
        replay(log(*race(roll("Bo", 6, 6)), Event("start", {})))
    with pytest.raises(IllegalMove, match="only one 'start' event"):
        replay(log(*race(roll("Bo", 6, 6)), Event("start", {}), Event("undo")))


def test_replay_reads_a_stored_log_as_it_is_and_only_new_moves_are_held_to_their_fields(pip_race):
    """replay.py `checked: bool = False` -> True: every replay (each page, each game the
    ledger lists) held the whole log to the field checks, so a game stored before them with
    a stray field (commit 531c3a2: "before, a hand-edited file's stray fields were stored as
    they came") no longer opened.  replay.py: the fields are checked on a new move
    (``checked_move``) and on an import (``checked_log``)."""
    stray = Event("roll", {"faces": ["6", "6"], "colour": "red"}, "Bo")
    assert replay(race(stray)).totals() == {"Ana": 0, "Bo": 12}
    with pytest.raises(IllegalMove, match="roll has no field 'colour'"):
        checked_move(race(), replace(stray, seq=3))


def test_a_rolls_top_guesses_are_label_and_probability_pairs(pip_race):
    """replay.py is_guess `and` -> `or`: any list passed as a guess, so a roll's 'top'
    of [["6", 7]] (a probability of 7) or [[]] was stored; :296 `0 <=` / `<= 1` -> `<`: the
    camera's roll refused for a guess rounded to probability 0 or 1; :296 `0` -> `-1`, `1` -> `2`:
    a probability of -0.5 or 1.5 stored; :277 all -> any: one die's good guesses let the
    other's bad ones through.  replay.py: "a top-k list
    for each die", [[label, probability], ...]."""

    def with_top(top):
        return Event("roll", {"faces": ["6", "6"], "top": top}, "Bo", seq=3)

    assert (
        checked_move(race(), with_top([[["6", 0.9], ["5", 0.1]], [["6", 1], ["5", 0]]])).totals()["Bo"] == 12
    )
    for top in (
        [[["6", 7]], [["6", 1]]],
        [[["6", 1.5]], [["6", 1]]],
        [[["6", -0.5]], [["6", 1]]],
        [[[]], [["6", 1]]],
        [[["6", 0.5, 1]], [["6", 1]]],
        [[["6", 0.9], ["5", 7]], [["6", 1]]],
    ):
        with pytest.raises(IllegalMove, match="'top' lists each die's likeliest faces"):
            checked_move(race(), with_top(top))


def test_nothing_is_offered_to_undo_before_the_first_move(pip_race):
    """replay.py `len(live) > 1` -> `>= 1`: a new game's table offered Undo for its
    'start' (webui/table.py names it on the Undo button), which the undo then refused."""
    assert next_to_undo(race()) is None
    assert next_to_undo(race(roll("Bo", 6, 6))).seq == 3


def test_a_correction_that_ends_the_game_before_a_later_players_move_is_refused(pip_race):
    """replay.py `event.auto and hasattr(...)` -> `or`: a player's move after a roll that a
    correction turns into the winning one was silently dropped as if it were a chance the
    app drew, so the correction was stored and the move vanished from the game.
    replay.py: such a correction is refused, "undo back to roll #n first"."""
    events = log(
        Event("start", {"game": "test/pip-race", "players": ["Ana", "Bo"], "options": {"target": 20}}),
        Event("shuffle", {"order": ["Bo", "Ana"]}, auto=True),
        roll("Bo", 6, 6),
        roll("Ana", 1, 2),
        roll("Bo", 1, 1),
        roll("Ana", 1, 1),
    )
    correction = Event("correct", {"roll": 5, "faces": ["6", "6"]}, seq=7)
    with pytest.raises(IllegalMove, match="roll #5 cannot read so: a later move would no longer be legal"):
        checked_move(events, correction)
    with pytest.raises(IllegalMove, match="event #6"):
        replay([*events, correction])


def test_an_undo_or_a_correction_by_one_of_the_players_is_taken(pip_race):
    """replay.py `start is not None` -> `start is None`: the players were read as none,
    so every undo or correction that names its player (one of the game's) was refused as
    "'Bo' is not playing", on a move and on an import.  replay.py: "by one of the
    players (``start``'s) if by anyone"."""
    events = race(roll("Bo", 6, 6))
    assert (
        checked_move(events, Event("correct", {"roll": 3, "faces": ["1", "1"]}, "Bo", seq=4)).totals()["Bo"]
        == 2
    )
    assert checked_move(events, Event("undo", {"seq": 3}, "Ana", seq=4)).totals()["Bo"] == 0
    assert checked_log(log(*events, Event("undo", {}, "Ana"))).totals()["Bo"] == 0
    with pytest.raises(IllegalMove, match="'Cy' is not playing; players are Ana, Bo"):
        checked_move(events, Event("undo", {}, "Cy", seq=4))


def test_an_undo_that_names_no_move_is_stale_once_the_game_moved_on(pip_race):
    """replay.py `new.type == "undo" and "seq" in new.data` -> `or`: an undo naming no move,
    sent on an older log, was taken, so a double-tapped Undo took back a second move the
    player never saw.  replay.py: "a double tap ... is never stored as a second move"."""
    events = race(roll("Bo", 6, 6), roll("Ana", 1, 2))
    with pytest.raises(StaleMove, match="moved on since you looked"):
        check_seen(events, Event("undo", {}), version=3)
    check_seen(events, Event("undo", {}), version=4)


def test_dice_named_by_index_are_never_negative(pip_race):
    """replay.py and :284 `0 <= die` -> `-1 <= die`: a correction's 'checked' or a roll's
    'unsure' of [-1] was stored, and -1 names the last die in Python (the crop the camera is
    then taught from).  replay.py: dice "by their index (0 to n-1)"."""
    events = race(roll("Bo", 6, 6))
    with pytest.raises(IllegalMove, match="'checked' lists dice by their index"):
        checked_move(events, Event("correct", {"roll": 3, "faces": ["1", "1"], "checked": [-1]}, seq=4))
    with pytest.raises(IllegalMove, match="'unsure' lists dice by their index"):
        checked_move(race(), Event("roll", {"faces": ["6", "6"], "unsure": [-1]}, "Bo", seq=3))
    assert checked_move(race(), Event("roll", {"faces": ["6", "6"], "unsure": [0, 1]}, "Bo", seq=3))


def test_an_event_sent_with_only_its_type_reads_and_writes_so():
    """game.py Event.from_json `record.get("seq", 0)` -> 1 or -1, `seq < 0` -> `seq <= 0`
    or `seq < 1`: an event with no seq (each move the API takes) read as seq 1, or was
    refused as negative; Event.to_json `if self.auto` (or the player's or time's `is not
    None`) -> True: every event written out was marked automatic, as a chance the app drew
    is, or carried a "player" and an "at" of null.  game.py: "``seq`` ... and ``at`` ...
    are set by the ledger"."""
    event = Event.from_json({"type": "undo"})
    assert event == Event("undo")
    assert event.to_json() == {"seq": 0, "type": "undo", "data": {}}
    move = Event("roll", {"faces": ["6", "6"]}, "Bo", 3)
    assert move.to_json() == {"seq": 3, "type": "roll", "player": "Bo", "data": {"faces": ["6", "6"]}}
    assert Event.from_json(move.to_json()) == move


def test_an_events_type_player_seq_and_auto_are_checked():
    """game.py Event.from_json: the refusal of a 'player' that is no string dropped (a
    player of 3 reached the rules), of an 'auto' that is no true or false dropped (game.py:
    "false" would count as true, and an undo take it too), `not kind` dropped (a type of ""
    read as an event)."""
    for bad, message in (
        ({"type": "roll", "player": 3}, "roll: 'player' must be a string"),
        ({"type": "roll", "auto": "false"}, "roll: 'auto' must be true or false"),
        ({"type": "roll", "seq": True}, "roll: 'seq' must be a non-negative integer"),
        ({"type": ""}, "an event needs a 'type' string"),
    ):
        with pytest.raises(IllegalMove, match=message):
            Event.from_json(bad)


def test_players_are_a_list_of_names(pip_race):
    """game.py check_players: `isinstance(players, str) or not isinstance(players, Sequence)`
    with either side dropped or `or` -> `and`: "AnaBo" made five players A, n, a, B and o,
    or an object {"Ana": 1, "Bo": 2} two; the check that each player has a name dropped, or
    its `or` -> `and` or either side dropped: a blank name took a seat, a number crashed
    (AttributeError, not a refusal)."""
    from scoring.games import new_game

    for players in ("AnaBo", {"Ana": 1, "Bo": 2}):
        with pytest.raises(IllegalMove, match="players must be a list of names"):
            new_game(pip_race, players)
    for blank in ("", "  ", 3, None):
        with pytest.raises(IllegalMove, match="every player needs a name"):
            new_game(pip_race, ["Ana", blank])


def test_options_take_their_kind_and_their_choices(pip_race):
    """game.py Option.check: `isinstance(value, bool)` dropped from the whole-number check
    (a target of true read as 1), the raise for a string option given no string dropped
    (Square Shooters' kids of 3), the raise for a value not among the choices dropped (a
    Rodeo spinner "wheel" taken); check_options: the raise for options that are no object
    dropped (a list of them failed with an AttributeError), `', '.join(spec) or 'none'` ->
    'none' or `and`, `sorted(unknown)[0]` -> `[-1]`: an unknown option's message named no
    options, or not the first unknown one."""
    from scoring.games import new_game

    with pytest.raises(IllegalMove, match="option target must be a whole number"):
        new_game(pip_race, ["Ana"], {"target": True})
    with pytest.raises(IllegalMove, match="option kids must be a string"):
        new_game("square-shooters/classic", ["Ana", "Bo"], {"kids": 3})
    with pytest.raises(IllegalMove, match="option spinner must be one of virtual, physical"):
        new_game("rodeo-rummy", ["Ana", "Bo"], {"spinner": "wheel"})
    with pytest.raises(IllegalMove, match="^unknown option 'colour'; options are target$"):
        new_game(pip_race, ["Ana"], {"speed": 3, "colour": "red"})
    with pytest.raises(IllegalMove, match="options must be an object"):
        new_game(pip_race, ["Ana"], ["target"])


def test_a_true_or_false_is_no_number_in_a_move(pip_race):
    """game.py data_field `isinstance(value, bool) and kind in (int, (int,))` dropped, or
    `in` -> `not in`: a correction's 'roll' of true was read as roll #1 (and so an undo's
    'seq', a Shooter bid: every whole-number field of a move)."""
    events = race(roll("Bo", 6, 6))
    with pytest.raises(IllegalMove, match="correct: 'roll' has the wrong type"):
        replay(log(*events, Event("correct", {"roll": True, "faces": ["1", "1"]})))


def test_a_rolls_faces_must_all_be_labels(pip_race):
    """game.py read_roll `not all(isinstance(x, str) ...)` dropped, or all -> any: a roll
    of ["6", 6] failed in the rules with an AttributeError, not a refusal a player can read."""
    with pytest.raises(IllegalMove, match="a roll's faces must be a list of face labels"):
        replay(race(Event("roll", {"faces": ["6", 6]}, "Bo")))


def test_a_held_face_that_is_no_label_is_refused():
    """game.py Game.apply `except UnknownFace: raise IllegalMove(...)` -> pass: a roll
    holding "7X" stopped in the rules at that label and apply returned as if the move were
    made, so it was taken (and stored) as a roll that did nothing."""
    import random

    from scoring.games import new_game

    game, rng = new_game("square-shooters/classic", ["Ana", "Bo"]), random.Random(3)
    while "roll" not in game.allowed()[game.turn()]:  # the game card drawn first
        game.apply(game.random_event(rng) or Event("draw", {}, game.turn()))
    faces = ["AS", "KS", "QS", "JS", "10S", "2H", "3H", "4H", "5H"]
    game.apply(Event("roll", {"faces": faces}, game.turn()))
    with pytest.raises(IllegalMove, match="7X"):
        game.apply(Event("roll", {"faces": faces, "held": ["7X"]}, game.turn()))
