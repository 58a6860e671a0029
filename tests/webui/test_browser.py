"""Journeys through the table page in Debian's Chromium, driven by Playwright.

Needs ``playwright`` (pip) and ``chromium`` (apt); Playwright's own browser download is
not used.  Screenshots land in /tmp/dicescore-shots, or in $DICESCORE_SCREENSHOTS when set
(``DICESCORE_SCREENSHOTS=docs/screenshots pytest tests/webui/test_browser.py`` refreshes
the pictures in the docs).
"""

import json
import os
import random
import tempfile
import threading
import urllib.parse
from pathlib import Path

import cv2
import numpy as np
import pytest

from datasets.faces.render import render_dice_set
from dicescore.ledger import Ledger
from scoring.faces import CUBES_DICE
from scoring.game import Event
from scoring.replay import replay
from tests.webui.conftest import under_waitress
from tests.webui.test_camera import SETTLE, Frames, five_cubes, throw
from vision.detector import Detector
from vision.faces import FAST_MODEL, FaceClassifier
from webui.camera import Camera
from webui.crops import SharedClassifier, save_crops
from webui.roll_sources import RecordedRolls, feed

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect
expect.set_options(timeout=10_000)  # a loaded CI machine; the one-second checks say so themselves

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
# one folder, overwritten by each run (a new folder a run piled up in /tmp)
SCREENSHOTS = Path(os.environ.get("DICESCORE_SCREENSHOTS") or Path(tempfile.gettempdir()) / "dicescore-shots")
SCREENSHOTS.mkdir(parents=True, exist_ok=True)
PHONE = {"width": 412, "height": 915}
LAPTOP = {"width": 1366, "height": 768}
FIXTURE_SCENES = Path(__file__).resolve().parent.parent / "vision" / "fixtures" / "scenes"

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium")


@pytest.fixture(scope="module")
def chromium():
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def server(app):
    """The app under waitress, as ``dicescore serve`` runs it; its base URL."""
    with under_waitress(app, threads=8) as url:
        yield url


@pytest.fixture
def page_faults():
    """What went wrong in the tabs' pages: script errors, console errors, failed requests.

    A journey's refused moves are answered 4xx on purpose, and the browser logs each; the
    test names those in ``page_faults.expected`` (the request's path and status)."""
    faults = PageFaults()
    yield faults
    assert faults.unexpected() == []


class PageFaults:
    def __init__(self):
        self.errors = []  # script errors and console errors
        self.failed_loads = []  # Chromium's console line for each 4xx/5xx it was answered
        self.answers = []  # (path, status) of each 4xx/5xx answer the page saw
        self.expected = set()  # (path, status) answers a journey asks for

    def watch(self, tab):
        tab.on("pageerror", lambda error: self.errors.append(f"script error: {error}"))
        tab.on("console", self._on_console)
        tab.on("response", self._on_response)

    def _on_console(self, message):
        if message.type != "error":
            return
        if message.text.startswith("Failed to load resource"):
            self.failed_loads.append(message.text)
        else:
            self.errors.append(f"console: {message.text}")

    def _on_response(self, response):
        if response.status >= 400:
            path = "/" + response.url.split("://", 1)[-1].split("/", 1)[-1].split("?")[0]
            self.answers.append((path, response.status))

    def unexpected(self):
        # A failed load no page response stands behind is the browser's own, the favicon's.
        browser_loads = self.failed_loads[len(self.answers) :]
        refusals = [answer for answer in self.answers if answer not in self.expected]
        return self.errors + refusals + browser_loads


@pytest.fixture
def open_tab(chromium, page_faults):
    """Opens a page in a fresh browser context (a device of its own), phone-sized."""
    contexts = []

    def open_tab(url, viewport=PHONE):
        context = chromium.new_context(viewport=viewport)
        contexts.append(context)
        tab = context.new_page()
        tab.set_default_timeout(10_000)
        page_faults.watch(tab)
        tab.goto(url)
        return tab

    yield open_tab
    for context in contexts:
        context.close()


def start_game(tab, game, title, players, screenshot=None, **options):
    tab.locator(f"input[name=game][value='{game}']").check()
    for number, player in enumerate(players, 1):
        if number > 4:
            tab.get_by_role("button", name="Add a player").click()
        tab.get_by_label(f"Player {number}", exact=True).fill(player)
    for field, value in options.items():
        option = tab.locator(f"[name='{field}']")
        if option.evaluate("element => element.tagName") == "SELECT":
            option.select_option(value)
        else:
            option.fill(value)
    if screenshot:
        tab.screenshot(path=SCREENSHOTS / screenshot, full_page=True)
    tab.get_by_role("button", name="Start the game").click()
    expect(tab.locator("#board h1")).to_have_text(title)
    expect(tab.locator("#table[data-ready]")).to_be_attached()  # table.js has wired the board


def score_of(tab, player):
    return tab.locator("#scores tr", has_text=player).locator("td")


def detail(tab, name):
    return tab.locator(".details dt", has_text=name).locator("xpath=following-sibling::dd[1]")


def enter_dice(tab, player, faces):
    tab.locator("#roller").select_option(player)
    for index, label in enumerate(faces):
        tab.get_by_label(f"die {index + 1}", exact=True).select_option(label)
    tab.get_by_role("button", name="Score this roll").click()


def tap_to_correct(tab, die, label, guessed=False):
    tab.locator("#dice .die").nth(die).click()
    faces = "#correct-guesses" if guessed else "#correct-faces"
    tab.locator(f"{faces} .face[data-label='{label}']").click()


def test_a_cubes_roll_from_a_recording_is_scored_then_corrected_with_two_taps(
    app, server, open_tab, tmp_path
):
    tab = open_tab(server)
    start_game(tab, "cubes", "Cubes", ["Ana", "Bo"], screenshot="new-game.png")
    expect(detail(tab, "pot")).to_have_text("10")  # both ante 5

    recording = tmp_path / "rolls.jsonl"
    guesses = [[], [["4", 0.55], ["5", 0.4]], [], [], [], []]
    roll = {"faces": ["3", "4", "BLANK", "BLANK", "BLANK", "BLANK"], "top": guesses, "wait": 0}
    recording.write_text(json.dumps(roll) + "\n")
    feed(app, RecordedRolls(recording))
    expect(tab.locator("#last-note")).to_contain_text("Ana takes 7")  # scored with no tap at all
    expect(detail(tab, "pot")).to_have_text("3")
    expect(score_of(tab, "Ana").nth(2)).to_have_text("22")
    tab.screenshot(path=SCREENSHOTS / "cubes-recorded-roll.png", full_page=True)

    tab.locator("#dice .die").nth(1).click()
    expect(tab.locator("#correct-guesses .face")).to_have_text(["4", "5"])  # the classifier's top-k first
    # a recording keeps no pictures of its dice: none to show, nor to teach the camera with
    expect(tab.locator("#correct-crop")).to_be_hidden()
    expect(tab.locator("#teach")).to_be_hidden()
    tab.screenshot(path=SCREENSHOTS / "correct-a-die.png")
    tab.locator("#correct-guesses .face[data-label='5']").click()
    expect(tab.locator("#last-note")).to_contain_text("Ana takes 8")
    expect(detail(tab, "pot")).to_have_text("2")
    expect(score_of(tab, "Ana").nth(2)).to_have_text("23")
    expect(tab.locator("#history li").first).to_contain_text("roll #2 corrected to 3 5")


# The live picture, drawn on a canvas: the grey die at (420, 100) shows, not the felt.
SHOWS_THE_DICE = """() => {
  const live = document.getElementById("live");
  if (live.naturalWidth !== 640) return false;
  const canvas = Object.assign(document.createElement("canvas"), { width: 640, height: 480 });
  const context = canvas.getContext("2d");
  context.drawImage(live, 0, 0);
  const [red, green] = context.getImageData(420, 100, 1, 1).data;
  return red > 100 && Math.abs(red - green) < 20;
}"""


def test_a_camera_roll_is_seen_live_and_a_guessed_die_fixed_with_two_taps(app, server, open_tab, tmp_path):
    detector, classifier, tones = five_cubes(tmp_path)  # one die unreadable, one not seen at all
    begin, hold = threading.Event(), threading.Event()
    camera = Camera(lambda: Frames(throw(tones), begin, hold), detector, classifier, settle_seconds=SETTLE)
    thread = camera.watch(app)
    try:
        tab = open_tab(server)
        start_game(tab, "cubes", "Cubes", ["Ana", "Bo"])
        expect(tab.locator("#camera-status")).to_have_text("camera: watching test camera")
        begin.set()  # the dice are thrown
        expect(tab.locator("#dice .die")).to_have_count(6)
        expect(tab.locator("#dice .die.unsure")).to_have_count(2)
        tab.wait_for_function(SHOWS_THE_DICE)  # the settled roll, drawn on the live picture
        tab.screenshot(path=SCREENSHOTS / "camera-live-view.png", full_page=True)
        # brought back from the page cache (Back, a phone unlocked): the picture is opened again
        shown = tab.locator("#live").get_attribute("src")
        tab.evaluate("window.dispatchEvent(new PageTransitionEvent('pageshow', {persisted: true}))")
        expect(tab.locator("#live")).not_to_have_attribute("src", shown)

        tab.locator("#dice .die.unsure").first.click()  # the unreadable die, read as its likeliest face
        expect(tab.locator("#correct-guesses .face")).to_have_text(["blank", "2"])
        expect(tab.locator("#correct-crop")).to_be_visible()  # the die as the camera saw it
        expect(tab.locator("#teach")).to_be_visible()  # a roll the camera saw may be vouched for
        assert tab.locator("#correct-crop").evaluate("crop => crop.naturalWidth") > 0
        tab.locator("#correct-guesses .face[data-label='2']").click()
        expect(tab.locator("#dice .die.unsure")).to_have_count(1)
        expect(tab.locator("#history li").first).to_contain_text("corrected to")
        assert [label for _, label in classifier.taught] == ["2"]  # taught with the die's crop
        told = "The camera learnt this die as 2, and reads such dice so from now on."
        expect(tab.locator("#taught")).to_have_text(told)

        tab.locator("#dice .die").first.click()  # the whole roll reads right now: vouch for it
        tab.locator("#teach-roll").click()
        # five dice seen (the sixth never was): 1, 2, CUBES, 4 and the 2 taught above, whose
        # crop is no new example
        expect(tab.locator("#taught")).to_contain_text("The camera learnt 4 of roll #")
        expect(tab.locator("#taught")).to_contain_text(
            "'s 5 dice it saw; it knows 4 of the 8 faces of these dice."
        )
        tab.screenshot(path=SCREENSHOTS / "vouch-for-a-roll.png")
        assert sorted(label for _, label in classifier.taught) == ["1", "2", "2", "4", "CUBES"]
        assert set(classifier.taught_kinds) == {"cubes"}

        front = open_tab(server)  # the front page finishes loading, then opens the endless stream
        expect(front.locator("#camera h2 a")).to_have_text("Cubes")
        front.wait_for_function(SHOWS_THE_DICE)
        front.locator("#live").click()  # one tap from the picture to the game it scores
        expect(front.locator("#dice .die.unsure")).to_have_count(1)
    finally:
        hold.set()
        thread.join(timeout=10)
    expect(tab.locator("#camera-status")).to_have_text("camera: test camera has ended")


# Counts the times table.js swaps in a new board (from the table page's load on).
COUNT_BOARD_SWAPS = """
document.addEventListener("DOMContentLoaded", () => {
  const board = document.getElementById("board");
  if (!board) return;
  window.boardSwaps = 0;
  new MutationObserver(() => { window.boardSwaps += 1; }).observe(board, { childList: true });
});
"""


def test_a_board_shown_before_the_camera_kept_its_rolls_pictures_gets_them_at_the_same_version(
    app, server, open_tab
):
    # the camera stores a roll, then keeps its dice's pictures, then notifies: the page must
    # take the board drawn with them, though the log's length (its version) is the same; and
    # only then (a first draft swapped its board on every load too, closing what was open)
    tab = open_tab(server)
    tab.add_init_script(COUNT_BOARD_SWAPS)
    start_game(tab, "test/pip-race", "Pip race", ["Ana", "Bo"])
    game_id = int(tab.url.rstrip("/").rsplit("/", 1)[1])
    player = tab.locator("#roller").input_value()
    ledger = Ledger.open(app.config["DATABASE"])
    try:
        roll = {"faces": ["3", "4"], "top": [[["3", 0.9]], [["4", 0.9]]]}  # as the camera stores one
        stored = ledger.append(game_id, Event("roll", roll, player))
    finally:
        ledger.close()
    app.extensions["dicescore.changes"].notify()
    expect(tab.locator("#dice .die")).to_have_count(2)
    expect(tab.locator("#dice .die[data-crop]")).to_have_count(0)

    save_crops(app, game_id, stored.seq, [np.full((64, 64, 3), 90, np.uint8)] * 2)
    app.extensions["dicescore.changes"].notify()
    expect(tab.locator("#dice .die[data-crop]")).to_have_count(2)
    assert tab.evaluate("window.boardSwaps") == 2  # the roll, then its pictures
    tab.locator("#dice .die").first.click()
    expect(tab.locator("#correct-crop")).to_be_visible()


def test_on_a_laptop_the_camera_sits_beside_the_board_whose_turn_and_dice_show_at_once(
    app, server, open_tab, tmp_path
):
    detector, classifier, tones = five_cubes(tmp_path)
    begin, hold = threading.Event(), threading.Event()
    camera = Camera(lambda: Frames(throw(tones), begin, hold), detector, classifier, settle_seconds=SETTLE)
    thread = camera.watch(app)
    try:
        tab = open_tab(server, viewport=LAPTOP)
        start_game(tab, "cubes", "Cubes", ["Ana", "Bo"])
        begin.set()
        expect(tab.locator("#dice .die")).to_have_count(6)
        tab.screenshot(path=SCREENSHOTS / "camera-beside-the-board-laptop.png")
        picture, turn, dice = (tab.locator(name).bounding_box() for name in ("#live", "#turn", "#dice"))
        assert picture["x"] + picture["width"] <= turn["x"]  # beside it: the picture pushed all down
        assert dice["y"] + dice["height"] <= LAPTOP["height"]
    finally:
        hold.set()
        thread.join(timeout=10)


def test_on_a_laptop_with_no_camera_the_scores_sit_beside_the_dice_and_the_moves(server, open_tab):
    # a roll's dice pushed the scores below a 1366x768 laptop's fold
    tab = open_tab(server, viewport=LAPTOP)
    title = "Square Shooters: Showdown (version 1)"
    start_game(tab, "square-shooters/showdown-v1", title, ["Ana", "Bo", "Cy"])
    enter_dice(tab, "Ana", ["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S"])
    expect(tab.locator("#dice .die")).to_have_count(9)
    tab.screenshot(path=SCREENSHOTS / "scores-beside-the-board-laptop.png")
    dice, moves, scores = (tab.locator(name).bounding_box() for name in ("#dice", "#moves", "#scores"))
    assert dice["x"] + dice["width"] <= scores["x"]  # beside them
    for seen in (dice, moves, scores):
        assert seen["y"] + seen["height"] <= LAPTOP["height"]
    tab.set_viewport_size(PHONE)  # one column on a phone, in the page's order
    moves, scores = (tab.locator(name).bounding_box() for name in ("#moves", "#scores"))
    assert scores["y"] >= moves["y"] + moves["height"]


def test_keeping_a_die_as_it_reads_stores_nothing_unless_the_camera_guessed_it(server, open_tab):
    # each tap on a die's own face stored a correction that changed nothing: a history line,
    # and one more Undo to tap
    tab = open_tab(server)
    start_game(tab, "cubes", "Cubes", ["Ana", "Bo"])
    enter_dice(tab, "Ana", ["CUBES", "2", "BLANK", "BLANK", "BLANK", "BLANK"])
    expect(tab.locator("#dice .die")).to_have_count(6)
    tap_to_correct(tab, 1, "2")  # the 2, kept as it reads
    expect(tab.locator("#correct-die")).not_to_be_visible()
    tap_to_correct(tab, 1, "3")  # then a fix that changes it
    expect(tab.locator("#history li").first).to_contain_text("corrected to CUBES 3")
    expect(tab.locator("#history li", has_text="corrected to")).to_have_count(1)  # the fix alone
    expect(tab.locator("#message")).to_be_hidden()


def test_the_keyboard_stays_where_the_player_was_after_each_move(server, open_tab):
    # focus fell to the page's top after every move sent from the keyboard: 13 Tabs back
    tab = open_tab(server, viewport=LAPTOP)
    start_game(tab, "cubes", "Cubes", ["Ana", "Bo"])
    tab.locator("#roller").select_option("Ana")
    for index, label in enumerate(["CUBES", "2", "BLANK", "BLANK", "BLANK", "BLANK"]):
        tab.get_by_label(f"die {index + 1}", exact=True).select_option(label)
    tab.get_by_role("button", name="Score this roll").focus()
    tab.keyboard.press("Enter")
    expect(tab.locator("#turn")).to_contain_text("Bo's turn")
    assert tab.evaluate("document.activeElement.textContent") == "Score this roll"  # Bo's, now

    tab.locator("#dice .die").nth(1).focus()
    tab.keyboard.press("Enter")  # the correction dialog: arrow keys between its faces
    faces = tab.locator("#correct-faces .face")
    faces.first.focus()
    tab.keyboard.press("ArrowRight")
    expect(faces.nth(1)).to_be_focused()
    tab.keyboard.press("End")
    expect(faces.last).to_be_focused()
    tab.keyboard.press("Escape")
    expect(tab.locator("#dice .die").nth(1)).to_be_focused()

    tab.locator("#undo").focus()
    tab.keyboard.press("Enter")  # nothing is left to undo: the button cannot keep the focus
    expect(tab.locator("#undo")).to_be_disabled()
    expect(tab.locator("#turn")).to_be_focused()


def test_a_taught_face_is_seen_and_forgotten_on_the_your_dice_page(app, server, open_tab, tmp_path):
    shared = SharedClassifier(FaceClassifier(FAST_MODEL, data_dir=tmp_path / "learned"))
    app.extensions["dicescore.classifier"] = shared
    crops, labels = render_dice_set("framed", 1, 1, seed=777)
    for crop, label in zip(crops, labels, strict=True):
        shared.learn(crop, label, "cubes")
    tab = open_tab(server)
    tab.get_by_role("link", name="Your dice").click()
    cubes = tab.locator("#cubes")
    expect(cubes.locator("h2")).to_contain_text("8 of 8 faces taught: taught whole")
    expect(cubes.locator("figure.taught > img")).to_have_count(8)
    assert cubes.locator("figure img").first.evaluate("image => image.naturalWidth") > 0  # the crop itself
    expect(tab.locator("#d6 figure").first).to_be_hidden()  # a set with nothing taught stays folded
    cubes.screenshot(path=SCREENSHOTS / "your-dice.png")

    tab.once("dialog", lambda dialog: dialog.dismiss())  # asked first: a slip forgets nothing
    cubes.get_by_role("button", name="Forget the face blank").click()
    expect(cubes.locator("figure.taught > img")).to_have_count(8)
    tab.once("dialog", lambda dialog: dialog.accept())
    cubes.get_by_role("button", name="Forget the face blank").click()
    forgotten = "The camera has forgotten the face blank of your cubes dice."
    expect(tab.locator("#cubes .notice")).to_have_text(forgotten)
    expect(tab.locator("#cubes h2")).to_contain_text("7 of 8 faces taught")
    expect(tab.locator("#cubes figure.untaught")).to_have_attribute("data-face", "BLANK")
    assert shared.taught_faces("cubes") == [label for label in labels if label != "BLANK"]


def test_a_cubes_set_shown_to_the_camera_is_checked_and_taught_on_your_dice(app, server, open_tab, tmp_path):
    # the shipped models read a rendered table of six Cubes dice and show five: four of its
    # dice (its CUBES and one BLANK die are missed) and one find off any die; no game is played
    scene = cv2.imread(str(FIXTURE_SCENES / "scene00001_0075.png"), cv2.IMREAD_COLOR)
    learned = tmp_path / "learned"
    classifier, photos = FaceClassifier(FAST_MODEL, data_dir=learned), FaceClassifier(data_dir=learned)
    hold = threading.Event()
    camera = Camera(lambda: Frames([scene] * 3, hold=hold), Detector(), classifier, photo_classifier=photos)
    thread = camera.watch(app)
    try:
        tab = open_tab(server + "/dice")
        tab.wait_for_function("() => document.getElementById('live').naturalWidth === 320")  # the table, live
        cubes = tab.locator("#cubes")
        cubes.locator("summary").click()  # nothing taught yet: folded
        cubes.get_by_role("button", name="Look at the dice").click()
        choices = cubes.locator(".shown-die select")
        expect(choices).to_have_count(5)
        named = [choice.input_value() for choice in choices.all()]  # the camera's readings
        # a die it cannot read says "not this one" until the player names it (here one does)
        unread = named.index("") if "" in named else 0
        guesses = choices.nth(unread).locator("optgroup option")  # its likeliest faces first
        assert 1 <= guesses.count() <= 5
        choices.nth(unread).select_option("CUBES")
        named[unread] = "CUBES"
        tab.screenshot(path=SCREENSHOTS / "show-the-camera-your-dice.png", full_page=True)
        cubes.get_by_role("button", name="Teach these faces").click()
        known = sorted(set(named) - {""})
        expect(tab.locator("#cubes .notice")).to_have_text(
            f"The camera learnt {len(named) - named.count('')} faces; it knows {len(known)} of the 8 faces."
        )
        expect(tab.locator("#cubes figure.taught > img")).to_have_count(len(known))
        assert sorted(classifier.taught_faces("cubes")) == sorted(photos.taught_faces("cubes")) == known
    finally:
        hold.set()
        thread.join(timeout=10)


def test_a_game_entered_by_hand_survives_a_reload_and_shows_on_a_second_device(server, open_tab):
    tab = open_tab(server)
    start_game(tab, "cubes", "Cubes", ["Ana", "Bo", "Cy"])
    enter_dice(tab, "Ana", ["CUBES", "2", "BLANK", "BLANK", "BLANK", "BLANK"])
    expect(tab.locator("#make")).to_contain_text("CUBES + 2")
    expect(tab.locator("#turn")).to_contain_text("Bo's turn")
    expect(score_of(tab, "Ana").nth(2)).to_have_text("19")  # 20 - 5 ante + twice 2 from the pot

    tab.reload()
    expect(tab.locator("#turn")).to_contain_text("Bo's turn")
    expect(score_of(tab, "Ana").nth(2)).to_have_text("19")

    second = open_tab(tab.url)
    expect(second.locator("#turn")).to_contain_text("Bo's turn")
    tab.locator("#dice .die").nth(1).click()
    expect(tab.locator("#correct-faces .face")).to_have_count(8)
    expect(tab.get_by_role("dialog", name="Roll #2, die 2 shows 2")).to_be_visible()  # named by its title
    expect(tab.locator("#correct-faces .face.current")).to_have_attribute("data-label", "2")  # to keep
    expect(tab.locator("#correct-crop")).to_be_hidden()  # dice entered by hand have no picture
    tab.get_by_role("button", name="Cancel").click()
    tap_to_correct(tab, 1, "3")
    # pushed to the second device, which is not reloaded and polls nothing for the table
    expect(second.locator("#make")).to_contain_text("CUBES + 3")
    expect(score_of(second, "Ana").nth(2)).to_have_text("21")
    second.screenshot(path=SCREENSHOTS / "second-device-sees-the-correction.png", full_page=True)

    tab.get_by_role("button", name="Undo correct #3").click()  # the button names what it takes back
    expect(second.locator("#make")).to_contain_text("CUBES + 2")
    expect(second.locator("#history li.undone")).to_have_count(1)


def test_a_redraw_keeps_the_keyboard_on_its_die_and_announces_the_new_note(server, open_tab):
    # the board is redrawn whole on every move: focus once fell to the page's top, and the
    # note's live region, redrawn with it, was never heard
    tab = open_tab(server)
    start_game(tab, "cubes", "Cubes", ["Ana", "Bo"])
    enter_dice(tab, "Ana", ["CUBES", "2", "BLANK", "BLANK", "BLANK", "BLANK"])
    tab.locator("#dice .die").nth(1).focus()
    other = open_tab(tab.url)  # another player's phone enters the next roll
    enter_dice(other, "Bo", ["1", "2", "3", "4", "5", "6"])
    expect(tab.locator("#turn")).to_contain_text("Ana's turn")
    focused = tab.evaluate("[document.activeElement.dataset.roll, document.activeElement.dataset.die]")
    assert focused == ["2", "1"]  # Ana's die 2, now in the history
    expect(tab.locator("#spoken-note")).to_have_text(tab.locator("#last-note").inner_text())


def test_a_double_tap_scores_one_roll_and_a_tab_behind_cannot_undo_a_fix(server, open_tab, page_faults):
    page_faults.expected.add(("/api/games/1/events", 409))
    tab = open_tab(server)
    start_game(tab, "cubes", "Cubes", ["Ana", "Bo"])
    tab.locator("#roller").select_option("Ana")
    for index, label in enumerate(["CUBES", "2", "BLANK", "BLANK", "BLANK", "BLANK"]):
        tab.get_by_label(f"die {index + 1}", exact=True).select_option(label)
    tab.get_by_role("button", name="Score this roll").dblclick()
    expect(tab.locator("#turn")).to_contain_text("Bo's turn")
    expect(tab.locator("#history li strong", has_text="roll")).to_have_count(1)  # not Bo's roll too
    expect(tab.locator("#message")).to_be_hidden()  # the second tap was never sent

    behind = open_tab(tab.url)
    expect(behind.locator("#table[data-ready]")).to_be_attached()
    behind.evaluate("stream.close()")  # a phone whose live updates lag: it shows the roll as read
    tap_to_correct(tab, 1, "3")
    expect(tab.locator("#make")).to_contain_text("CUBES + 3")
    tap_to_correct(behind, 2, "4")  # built on die 2 still reading 2: it would undo the fix
    expect(behind.locator("#message")).to_contain_text("roll #2 has changed since you looked")
    expect(behind.locator("#make")).to_contain_text("CUBES + 3")  # redrawn to show why
    expect(tab.locator("#history li strong", has_text="correct")).to_have_count(1)

    # a roll typed on the lagging phone, refused as the other's arrives first, is kept to fix
    sixes = ["6"] * 6
    for index, label in enumerate(sixes):
        behind.get_by_label(f"die {index + 1}", exact=True).select_option(label)
    enter_dice(tab, "Bo", ["1", "2", "3", "4", "5", "6"])
    behind.get_by_role("button", name="Score this roll").click()
    expect(behind.locator("#message")).to_contain_text("moved on since you looked")
    pickers = behind.locator("#pickers select")
    expect(pickers).to_have_count(6)
    assert [pickers.nth(die).input_value() for die in range(6)] == sixes


def test_a_device_refused_its_stream_asks_again_and_then_sees_the_moves(app, server, open_tab, page_faults):
    tab = open_tab(server)
    start_game(tab, "cubes", "Cubes", ["Ana", "Bo", "Cy"])
    slots = app.extensions["dicescore.streams"]
    slots.most = slots.open  # every stream slot taken: the next page's stream is refused
    second = open_tab(tab.url)
    page_faults.expected.add((urllib.parse.urlparse(tab.url).path.replace("/games/", "/stream/games/"), 503))
    expect(second.locator("#turn")).to_contain_text("Ana's turn")
    second.wait_for_timeout(500)
    slots.most = 40  # a tab closed elsewhere
    enter_dice(tab, "Ana", ["CUBES", "2", "BLANK", "BLANK", "BLANK", "BLANK"])
    expect(second.locator("#turn")).to_contain_text("Bo's turn", timeout=15_000)


SPOKEN = """
window.spoken = [];
Object.defineProperty(window, "speechSynthesis", {
  value: { speak: (utterance) => window.spoken.push(utterance.text) },
});
"""


def test_speaking_is_allowed_by_a_tap_as_phones_ask(server, open_tab):
    # iOS speaks only once the page has spoken during a tap, and the notes never come in one
    tab = open_tab(server)
    start_game(tab, "cubes", "Cubes", ["Ana", "Bo", "Cy"])
    tab.add_init_script(SPOKEN)
    tab.reload()
    tab.get_by_label("Speak each scored roll").check()
    assert tab.evaluate("window.spoken") == [" "]  # the tick itself speaks, silently
    tab.reload()  # ticked still: the first tap speaks, once
    expect(tab.locator("#table[data-ready]")).to_be_attached()
    enter_dice(tab, "Ana", ["CUBES", "2", "BLANK", "BLANK", "BLANK", "BLANK"])
    expect(tab.locator("#turn")).to_contain_text("Bo's turn")
    spoken = tab.evaluate("window.spoken")
    assert spoken[0] == " " and spoken.count(" ") == 1 and any("CUBES" in note for note in spoken[1:])


def test_a_page_brought_back_from_the_page_cache_listens_again(server, open_tab):
    # Back, or a phone unlocked, shows the page as it was left, with no load and no stream
    tab = open_tab(server)
    start_game(tab, "cubes", "Cubes", ["Ana", "Bo", "Cy"])
    streams = []
    tab.on("request", lambda asked: streams.append(asked.url) if "/stream/games/" in asked.url else None)
    tab.evaluate("stream.close()")  # as the page cache closes it
    tab.evaluate("window.dispatchEvent(new PageTransitionEvent('pageshow', {persisted: true}))")
    expect(tab.locator("#turn")).to_contain_text("Ana's turn")
    tab.wait_for_timeout(300)
    assert len(streams) == 1
    second = open_tab(tab.url)
    enter_dice(second, "Ana", ["CUBES", "2", "BLANK", "BLANK", "BLANK", "BLANK"])
    expect(tab.locator("#turn")).to_contain_text("Bo's turn")  # the move reaches it again


def test_a_shooter_hand_entered_by_hand(server, open_tab):
    tab = open_tab(server)
    start_game(tab, "shooter", "Shooter", ["Ana", "Bo", "Cy"])
    expect(tab.locator("#bid")).to_contain_text("Bo bids")  # the dealer's left speaks first
    tab.locator("#bid [name=bid]").fill("4")
    tab.get_by_role("button", name="Bid", exact=True).click()
    expect(tab.locator("#bid")).to_contain_text("Cy bids")
    tab.get_by_role("button", name="Cy: pass").click()
    tab.get_by_role("button", name="Ana: pass").click()
    tab.get_by_role("button", name="Bo: trump hearts").click()
    expect(tab.locator(".goal", has_text="hand")).to_be_visible()
    for player, tricks in (("Ana", "2"), ("Bo", "5"), ("Cy", "1")):
        tab.locator(f"#tricks [data-player={player}]").fill(tricks)
    tab.get_by_role("button", name="End the hand").click()
    expect(tab.locator("#last-note")).to_contain_text("Bo bid 4 in hearts, took 5")
    expect(score_of(tab, "Bo").nth(1)).to_have_text("5")
    tab.get_by_role("button", name="Cy: renege").click()
    expect(score_of(tab, "Cy").nth(1)).to_have_text("-1")
    tab.screenshot(path=SCREENSHOTS / "shooter-by-hand.png", full_page=True)


def test_a_bid_typed_then_passed_on_leaves_the_next_bidder_to_bid(server, open_tab):
    # the bid form stays on the page from bidder to bidder: a typed bid kept across the
    # redraw once kept the passed player's name too, and every later bid was refused
    tab = open_tab(server)
    start_game(tab, "shooter", "Shooter", ["Ana", "Bo", "Cy"])
    tab.locator("#bid [name=bid]").fill("5")
    tab.get_by_role("button", name="Bo: pass").click()
    expect(tab.locator("#bid")).to_contain_text("Cy bids")
    tab.get_by_role("button", name="Bid", exact=True).click()
    expect(tab.locator(".records")).to_contain_text("Cy: 5")
    expect(tab.locator("#bid [name=bid]")).to_have_value("6")  # the lowest bid that beats it


def test_the_new_game_options_fit_a_phone(server, open_tab):
    tab = open_tab(server)
    for game in ("rodeo-rummy", "square-shooters/classic", "cubes"):
        tab.locator(f"input[name=game][value='{game}']").check()
        assert tab.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], game


def test_a_square_shooters_turn_with_three_rolls_and_a_double_down(server, open_tab):
    tab = open_tab(server)
    physical = {"square-shooters/classic:deck": "physical"}
    start_game(tab, "square-shooters/classic", "Square Shooters: the Classic game", ["Ana", "Bo"], **physical)
    draw = tab.get_by_label("card drawn")
    draw.select_option("Double-Down")
    tab.get_by_role("button", name="Draw", exact=True).click()
    expect(tab.locator("#last-note")).to_contain_text("Ana keeps a Double-Down and draws again")
    draw.select_option("Full House (7♣ 7♥ 7♦ A♠ A♥), 8 chips")
    tab.get_by_role("button", name="Draw", exact=True).click()
    expect(tab.locator(".goal", has_text="target")).to_contain_text("Full House")

    enter_dice(tab, "Ana", ["7C", "7H", "2S", "3D", "4H", "5C", "9S", "JD", "KC"])
    expect(tab.locator("#turn")).to_contain_text("Ana's turn · roll 1")
    tab.get_by_role("button", name="Ana: play Double-Down").click()
    expect(tab.locator("#last-note")).to_contain_text("Ana plays a Double-Down")
    enter_dice(tab, "Ana", ["7C", "7H", "7D", "3D", "4H", "5C", "9S", "JD", "KC"])
    expect(tab.locator("#turn")).to_contain_text("roll 2")
    expect(tab.locator("#make")).to_contain_text("Three of a Kind")
    tab.screenshot(path=SCREENSHOTS / "square-shooters-double-down.png", full_page=True)
    enter_dice(tab, "Ana", ["7C", "7H", "7D", "AS", "AH", "5C", "9S", "JD", "KC"])
    expect(tab.locator("#last-note")).to_contain_text("x2 = 16 chips")
    expect(score_of(tab, "Ana").nth(1)).to_have_text("16")
    expect(tab.locator("#turn")).to_contain_text("Bo's turn")


def test_squib_squares_entered_by_hand(server, open_tab):
    tab = open_tab(server)
    start_game(tab, "squib-squares", "Squib Squares", ["Ana", "Bo"])
    tab.locator("#square [name=grid]").fill(
        "blue happy rocket / green sad candle | purple angry spinny / orange sleepy booster\n"
        "yellow excited missile / blue angry booster | green happy candle / purple excited rocket"
    )
    tab.get_by_role("button", name="Score the square").click()
    expect(tab.locator("#last-note")).to_contain_text("Ana makes square A: 2x2, 4 cards + 2 size bonus = 6")
    expect(score_of(tab, "Ana").nth(1)).to_have_text("6")
    # the form offers a new name: scored again as it stood, the second square replaced the first
    expect(tab.locator("#square [name=square]")).to_have_value("B")
    tab.locator("#square [name=grid]").fill(
        "green happy rocket / yellow angry candle\npurple sad candle / orange excited missile"
    )
    tab.get_by_role("button", name="Score the square").click()
    expect(tab.locator("#last-note")).to_contain_text("Ana makes square B: 2x1")
    expect(score_of(tab, "Ana").nth(1)).not_to_have_text("6")
    tab.get_by_role("button", name="Ana: break square B").click()
    expect(score_of(tab, "Ana").nth(1)).to_have_text("6")

    tab.locator("#steal [name=mine]").fill("blue happy rocket / green sad candle")
    tab.locator("#steal [name=theirs]").fill("purple sad spinny / orange happy booster")
    tab.get_by_role("button", name="Settle the steal").click()
    expect(tab.locator("#last-note")).to_contain_text("Squib Steal, Ana against Bo: Ana wins with card 1")
    tab.screenshot(path=SCREENSHOTS / "squib-squares-by-hand.png", full_page=True)
    tab.get_by_role("button", name="Ana: break square A").click()
    expect(score_of(tab, "Ana").nth(1)).to_have_text("0")
    # one button ends the game for the whole table, and asks first
    end = tab.get_by_role("button", name="end the game: the draw and discard piles are both empty")
    expect(end).to_have_count(1)
    tab.once("dialog", lambda dialog: dialog.dismiss())
    end.click()
    expect(end).to_be_visible()  # not ended: no "Game over." line, and the button still there
    expect(tab.locator("#turn")).to_have_count(0)
    tab.once("dialog", lambda dialog: dialog.accept())
    end.click()
    expect(tab.locator("#turn")).to_contain_text("Game over.")


def test_a_refused_move_is_explained_and_changes_nothing(server, open_tab, page_faults):
    page_faults.expected.add(("/api/games/1/events", 400))
    tab = open_tab(server)
    start_game(tab, "cubes", "Cubes", ["Ana", "Bo"])
    tab.get_by_text("Another move, as JSON").click()
    tab.locator("#json-move [name=type]").fill("roll")
    tab.locator("#json-move [name=player]").select_option("Bo")
    tab.locator("#json-move [name=data]").fill('{"faces": ["1", "2", "3", "4", "5", "6"]}')
    tab.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    tab.get_by_role("button", name="Send").click()
    expect(tab.locator("#message")).to_contain_text("it is Ana's turn, not Bo's")
    expect(tab.locator("#message")).to_be_in_viewport()  # sent from below: the reason scrolls into view
    expect(tab.locator("#history li")).to_have_count(1)
    enter_dice(tab, "Ana", ["1", "2", "3", "4", "5", "6"])
    expect(tab.locator("#message")).to_be_hidden()
    expect(tab.locator("#last-note")).to_contain_text("the pot holds only 10, so Ana pays 11")


def test_a_rodeo_turn_with_a_physical_spinner_entered_by_hand(server, open_tab):
    tab = open_tab(server)
    physical = {"rodeo-rummy:spinner": "physical"}
    start_game(tab, "rodeo-rummy", "Rodeo Rummy", ["Ana", "Bo"], **physical)
    expect(tab.locator("#spin")).to_contain_text("Ana spins")
    tab.get_by_label("spinner goal").select_option("5's & 6's")
    tab.locator("#spin").screenshot(path=SCREENSHOTS / "rodeo-spinner-entry.png")
    tab.get_by_role("button", name="Spin entered").click()
    expect(tab.locator(".goal", has_text="goal")).to_contain_text("5's & 6's")
    expect(tab.locator("#spin")).to_have_count(0)

    enter_dice(tab, "Ana", ["5S", "5H", "5D", "2C", "9H", "KS", "QD", "3H", "JC"])
    expect(tab.locator("#turn")).to_contain_text("Ana's turn · roll 1 of 3")
    expect(tab.locator("#make")).to_contain_text("Set of 5s")
    tab.screenshot(path=SCREENSHOTS / "rodeo-physical-spinner.png", full_page=True)
    tab.get_by_role("button", name="Ana: stop").click()
    expect(tab.locator("#last-note")).to_contain_text("Ana: 5's & 6's: Set of 5s")
    expect(score_of(tab, "Ana").nth(1)).to_have_text("15")
    expect(tab.locator("#spin")).to_contain_text("Bo spins")


def test_old_town_cards_dealt_and_a_joker_given_by_hand(server, open_tab):
    tab = open_tab(server)
    start_game(tab, "square-shooters/old-town", "Square Shooters: Old Town Shootout", ["Ana", "Bo"])
    hands = (("Ana", ["AS", "2S", "3S", "4S", "5S"], "5♠"), ("Bo", ["AH", "2H", "3H", "4H", "5H"], "5♥"))
    for player, cards, last_card in hands:
        tab.get_by_label("cards of").select_option(player)
        for number, card in enumerate(cards, 1):
            tab.get_by_label(f"card {number}", exact=True).select_option(card)
        tab.get_by_role("button", name="Deal these cards").click()
        expect(score_of(tab, player).nth(2)).to_contain_text(last_card)  # the hands column
    expect(tab.locator("#last-note")).to_contain_text("every hand is dealt: Ana rolls first")

    enter_dice(tab, "Ana", ["AS", "JOKER_RED", "KD", "QD", "JD", "10D", "9D", "8D", "7D"])
    expect(tab.locator("#give")).to_contain_text("Ana gives a card away")
    tab.get_by_label("card to give").select_option("2S")
    tab.get_by_role("button", name="Give").click()
    expect(tab.locator("#last-note")).to_contain_text("Ana gives 2♠ to Bo")
    expect(score_of(tab, "Ana").nth(1)).to_have_text("3")
    expect(score_of(tab, "Bo").nth(1)).to_have_text("6")
    expect(tab.locator("#turn")).to_contain_text("Bo's turn")


def test_a_wide_scoreboard_scrolls_by_itself_on_a_phone(app, server, open_tab):
    # eight players and seven sets of Cubes: a column per set, eleven in all, wider than a phone;
    # the table scrolls sideways in its card, and the page does not
    ledger = Ledger.open(app.config["DATABASE"])
    try:
        game_id = ledger.new_game("cubes", [f"Player {n}" for n in range(1, 9)], {"sets": 9})
        rng = random.Random(1)
        while len((game := replay(ledger.events(game_id))).details()["set_scores"]) < 7:
            faces = [rng.choice(CUBES_DICE.labels) for _ in range(CUBES_DICE.dice)]
            ledger.append(game_id, Event("roll", {"faces": faces}, game.turn()))
    finally:
        ledger.close()
    tab = open_tab(f"{server}/games/{game_id}")
    expect(tab.locator("#scores th")).to_have_count(2 + 1 + 7 + 1)  # player, total, this set, the sets, chips
    assert tab.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert tab.evaluate("document.querySelector('#scores').scrollWidth") > PHONE["width"]
