// The table page: send moves to the JSON API, redraw the board from the live stream,
// and correct a die with two taps.  The board's HTML comes from the server; this script
// only swaps it in, so the page shows exactly what the server renders.
"use strict";

const table = document.getElementById("table");
const board = document.getElementById("board");
const message = document.getElementById("message");
const taught = document.getElementById("taught");
const spokenNote = document.getElementById("spoken-note");
const dialog = document.getElementById("correct-die");
const faces = JSON.parse(document.getElementById("faces").textContent);
let version = Number(table.dataset.version);
let drawn = table.dataset.drawn; // a digest of the board shown, to tell a board redrawn at one version
let csrfToken = document.querySelector("meta[name=csrf-token]").content;
let lastNote = board.querySelector("[data-last-note]")?.dataset.lastNote ?? "";

function showError(text) {
  message.textContent = text;
  message.hidden = !text;
  // a refused move is usually sent from far down the page: bring its reason into view
  if (text) message.scrollIntoView({ block: "nearest", behavior: "smooth" });
}

async function post(url, body, retried = false) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-CSRF-Token": csrfToken },
    body: JSON.stringify(body),
  });
  if (response.status === 403 && !retried) {
    // The server may have restarted with a new session: fetch a fresh token once.
    const session = await (await fetch(table.dataset.session)).json();
    if (session.csrf !== csrfToken) {
      csrfToken = session.csrf;
      return post(url, body, true);
    }
  }
  const reply = await response.json().catch(() => ({ error: `HTTP ${response.status}` }));
  showError(response.ok ? "" : reply.error);
  return response.ok ? reply : null;
}

// One move at a time, each naming the board it was made on: a second tap while the first is
// on its way is dropped, and a move the board has since outrun (the camera's roll came first)
// is refused by the server (409), the board redrawn to show why.
let sending = false;

async function send(event) {
  if (sending) return false;
  sending = true;
  try {
    const reply = await post(table.dataset.events, { ...event, version });
    await refresh();
    if (reply && reply.lesson) tell(lessonText(reply.lesson));
    return reply !== null;
  } finally {
    sending = false;
  }
}

// What a correction taught the camera, or an undone one took back: a tap changes how later
// dice read, so the player is told it did, or that it could not.
function lessonText({ learnt = [], taken_back = [], failed = [] }) {
  const named = (list) => list.map((label) => faces.texts[label] ?? label).join(", ");
  const said = [];
  if (learnt.length) said.push(`The camera learnt ${learnt.length === 1 ? "this die" : "these dice"} as ${named(learnt)}, and reads such dice so from now on.`);
  if (taken_back.length) said.push(`The camera forgot what the undone correction taught it (${named(taken_back)}).`);
  if (failed.length) said.push(`The camera could not learn or forget ${named(failed)} (the server's log says why); the scores stand.`);
  return said.join(" ");
}

function tell(text) {
  taught.textContent = text;
  taught.hidden = false;
  taught.scrollIntoView({ block: "nearest", behavior: "smooth" });
}

// A player's word that a whole roll reads right: the camera learns its faces, up to a few examples a face.
async function teachRoll(roll) {
  const reply = await post(table.dataset.teach.replace("/ROLL/", `/${roll}/`), {});
  if (reply) {
    const whole = reply.known === reply.faces ? ": your set is taught whole" : "";
    tell(`The camera learnt ${reply.taught} of roll #${roll}'s ${reply.saved} dice it saw;`
      + ` it knows ${reply.known} of the ${reply.faces} faces of these dice${whole}.`);
  }
}

async function refresh() {
  const response = await fetch(table.dataset.board);
  if (response.ok) redraw(await response.json());
}

// Forms the player has started filling in, by id: a redraw must not wipe what they typed.
const editing = new Set();

function keptForms() {
  return [...editing].map((id) => document.getElementById(id)).filter((form) => form !== null).map(formState);
}

// What a form holds now: how many dice pickers, and each field's value, in order.
function formState(form) {
  const pickers = form.querySelectorAll("select.picker").length;
  return { id: form.id, pickers, values: [...form.elements].map((element) => [element.name, element.value]) };
}

function restoreForms(kept) {
  for (const { id, pickers, values } of kept) {
    const form = document.getElementById(id);
    if (form === null) {
      editing.delete(id); // the move is no longer open
      continue;
    }
    const box = form.querySelector(".pickers");
    while (box && box.children.length < pickers) box.append(box.lastElementChild.cloneNode(true));
    while (box && box.children.length > pickers) box.lastElementChild.remove();
    [...form.elements].forEach((element, i) => {
      const [name, value] = values[i] ?? [];
      const choosable = element.tagName !== "SELECT"
        || [...element.options].some((option) => option.value === value && !option.disabled);
      // a hidden field is the board's, not the player's: whose move it is now
      const typed = element.type !== "hidden";
      if (name === element.name && value !== undefined && choosable && typed) element.value = value;
    });
  }
}

// Where the keyboard was on the board, as [selector, which of its matches] its redrawn twin
// answers to, the likeliest first: a die by its roll and place (where it was, else in the
// history, where the latest roll goes when the next comes), a move's button by its move and
// player, a form's field or button by its form, name and place, anything else by its id;
// failing all, whose turn it is, which the move just sent has changed.  Without them focus
// falls to the top of the page.
function focusKeys(focused = document.activeElement) {
  if (!board.contains(focused) && !focused?.matches?.(".die[data-roll]")) return [];
  if (focused.matches(".die[data-roll]")) {
    const die = `.die[data-roll="${focused.dataset.roll}"][data-die="${focused.dataset.die}"]`;
    const places = focused.closest("#history") ? [`#history ${die}`, "#turn"] : [`#dice ${die}`, `#history ${die}`, "#turn"];
    return places.map((selector) => [selector, 0]);
  }
  const keys = [];
  if (focused.id) keys.push([`#${CSS.escape(focused.id)}`, 0]);
  if (focused.matches(".move")) {
    const { type, player } = focused.dataset;
    keys.push([`.move[data-type="${CSS.escape(type)}"][data-player="${CSS.escape(player)}"]`, 0]);
  }
  const form = focused.closest("form[id]");
  if (form) {
    const like = `#${CSS.escape(form.id)} ${focused.tagName.toLowerCase()}`
      + (focused.name ? `[name="${CSS.escape(focused.name)}"]` : `[type="${CSS.escape(focused.type)}"]`);
    keys.push([like, [...board.querySelectorAll(like)].indexOf(focused)]); // the third die's picker, say
  }
  return [...keys, ["#turn", 0]];
}

function redraw(payload) {
  // The board is a function of the log, and of the die pictures the camera keeps just after
  // storing a roll: at the same version, only a board drawn otherwise is new.
  if (payload.version < version || (payload.version === version && payload.drawn === drawn)) return;
  version = payload.version;
  drawn = payload.drawn;
  const kept = keptForms();
  const focused = focusKeys();
  board.innerHTML = payload.html;
  restoreForms(kept);
  refocus(focused);
  if (payload.last_note && payload.last_note !== lastNote) announce(payload.last_note);
  lastNote = payload.last_note;
}

// Focus the first element the selectors find on the board that can take it (a disabled
// button cannot: Undo with nothing left to undo).
function refocus(keys) {
  const twin = keys
    .map(([selector, index]) => board.querySelectorAll(selector)[index])
    .find((element) => element && !element.disabled);
  twin?.focus({ preventScroll: true });
}

function announce(note) {
  spokenNote.textContent = note; // for a screen reader: the board's own copy is redrawn away
  if (document.getElementById("speak").checked && "speechSynthesis" in window) {
    window.speechSynthesis.speak(new SpeechSynthesisUtterance(note));
  }
}

function faceButton(label, onPick, current) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = `face ${faces.colours[label] ?? ""}${label === current ? " current" : ""}`;
  button.textContent = faces.texts[label] ?? label;
  if (label === current) button.setAttribute("aria-label", `${button.textContent}, as it shows now: keep it`);
  button.dataset.label = label;
  button.addEventListener("click", () => { dialog.close(); onPick(label); });
  return button;
}

// The camera's picture of the tapped die, when it kept one (none for dice entered by hand
// or read from a recording).
function showCrop(url) {
  const crop = document.getElementById("correct-crop");
  crop.hidden = true;
  crop.removeAttribute("src");
  if (url === null) return;
  crop.onload = () => { crop.hidden = false; };
  crop.onerror = () => { crop.hidden = true; };
  crop.src = url;
}

function openCorrection(die) {
  const rollFaces = JSON.parse(die.closest("[data-faces]").dataset.faces); // the roll's, once for its dice
  const index = Number(die.dataset.die);
  const correct = (label) => {
    // a face kept as it reads, where the camera made no guess: nothing to change or to check
    if (label === die.dataset.label && !die.classList.contains("unsure")) return;
    const corrected = rollFaces.slice();
    corrected[index] = label;
    // checked: the player looked at this die, so a guessed face they keep is a guess no more
    send({ type: "correct", data: { roll: Number(die.dataset.roll), faces: corrected, checked: [index] } });
  };
  document.getElementById("correct-title").textContent =
    `Roll #${die.dataset.roll}, die ${index + 1} shows ${faces.texts[die.dataset.label] ?? die.dataset.label}`;
  // The classifier's top-k for this die ([[label, p], ...]) when the camera read it.
  const read = JSON.parse(die.dataset.top || "[]");
  const guesses = read.map(([label]) => label).filter((label) => label in faces.texts);
  // a roll can teach the camera only with the pictures it kept of the dice
  document.getElementById("teach").hidden = !board.querySelector(`.die[data-roll="${die.dataset.roll}"][data-crop]`);
  showCrop("crop" in die.dataset ? table.dataset.crop.replace("ROLL", die.dataset.roll).replace("DIE", index) : null);
  const shown = die.dataset.label;
  document.getElementById("correct-guesses").replaceChildren(...guesses.map((label) => faceButton(label, correct, shown)));
  document.getElementById("correct-faces").replaceChildren(...faces.labels.map((label) => faceButton(label, correct, shown)));
  document.getElementById("teach-roll").onclick = () => { dialog.close(); teachRoll(die.dataset.roll); };
  // closed after a redraw took the die away, the dialog would give focus back to nothing
  dialog.onclose = () => { if (!die.isConnected) refocus(focusKeys(die)); };
  dialog.showModal();
}

// Arrow keys move between the faces of the correction dialog, as in a toolbar: a card die
// has 54 faces, too many to Tab through.
dialog.addEventListener("keydown", (key) => {
  const steps = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };
  if (!(key.key in steps || key.key === "Home" || key.key === "End") || !key.target.matches(".face")) return;
  const all = [...dialog.querySelectorAll(".face")];
  const at = all.indexOf(key.target);
  const to = key.key === "Home" ? 0 : key.key === "End" ? all.length - 1 : at + steps[key.key];
  all[Math.max(0, Math.min(all.length - 1, to))].focus();
  key.preventDefault();
});

board.addEventListener("click", (click) => {
  const target = click.target.closest("button");
  if (target === null) return;
  if (target.matches(".move")) {
    if (target.dataset.confirm && !window.confirm(target.dataset.confirm)) return;
    const player = target.dataset.player;
    send({ type: target.dataset.type, ...(player ? { player } : {}), data: JSON.parse(target.dataset.data || "{}") });
  } else if (target.matches(".die")) {
    openCorrection(target);
  } else if (target.id === "add-die") {
    editing.add("enter-dice");
    const pickers = document.getElementById("pickers");
    pickers.append(pickers.lastElementChild.cloneNode(true));
  } else if (target.id === "remove-die") {
    editing.add("enter-dice");
    const pickers = document.getElementById("pickers");
    if (pickers.children.length > 1) pickers.lastElementChild.remove();
  }
});

for (const kind of ["input", "change"]) {
  board.addEventListener(kind, (edit) => {
    const form = edit.target.closest("form");
    if (form?.id) editing.add(form.id);
  });
}

// Squib cards as typed: "left squib / right squib", several split by "|".
function squibCards(line) {
  return line.split("|").map((card) => card.split("/").map((squib) => squib.trim())).filter((card) => card[0]);
}

function squibLines(text) {
  return text.split("\n").filter((line) => line.trim());
}

board.addEventListener("submit", async (submit) => {
  submit.preventDefault();
  const form = submit.target;
  const entered = move(form);
  if (entered === null) return;
  // the next board starts afresh, whichever comes first: the live stream's redraw or send's own
  const typed = formState(form);
  editing.delete(form.id);
  if (!(await send(entered))) { // refused: what was typed comes back, to fix
    editing.add(form.id);
    restoreForms([typed]);
  }
});

// The values of a form's selects named ``name``, in order.
function chosen(form, name) {
  return [...form.querySelectorAll(`select[name=${name}]`)].map((select) => select.value);
}

// The move a form on the board enters, or null (with the reason shown) when it cannot.
function move(form) {
  const player = form.elements.player?.value;
  switch (form.id) {
    case "enter-dice": {
      const faceLabels = [...form.querySelectorAll("select.picker")].map((picker) => picker.value);
      return { type: "roll", player, data: { faces: faceLabels } };
    }
    case "spin": {
      const effect = form.elements.effect?.value; // only with "spin twice": else the goal's own
      return { type: "spin", player, data: { goal: form.elements.goal.value, ...(effect ? { effect } : {}) } };
    }
    case "choose":
      return { type: "choose", player, data: { cards: chosen(form, "target") } };
    case "deal":
      return { type: "deal", player, data: { cards: chosen(form, "card") } };
    case "give":
      return { type: "give", player, data: { card: form.elements.card.value, to: form.elements.to.value } };
    case "draw":
      return { type: "draw", player, data: { card: JSON.parse(form.elements.card.value) } };
    case "square": {
      const grid = squibLines(form.elements.grid.value).map(squibCards);
      return { type: "square", player, data: { id: form.elements.square.value, grid } };
    }
    case "steal": {
      const cards = (field) => squibLines(form.elements[field].value).flatMap(squibCards);
      return { type: "steal", player, data: { opponent: form.elements.opponent.value, mine: cards("mine"), theirs: cards("theirs") } };
    }
    case "bid": {
      const trump = form.elements.trump.value;
      return { type: "bid", player, data: { bid: Number(form.elements.bid.value), ...(trump ? { trump } : {}) } };
    }
    case "tricks": {
      const tricks = {};
      for (const input of form.querySelectorAll("input[name=tricks]")) tricks[input.dataset.player] = Number(input.value);
      return { type: "tricks", player, data: { tricks } };
    }
    case "json-move":
      try {
        const data = JSON.parse(form.elements.data.value || "{}");
        return { type: form.elements.type.value, ...(player ? { player } : {}), data };
      } catch (error) {
        showError(`The data is not JSON: ${error.message}`);
        return null;
      }
  }
  return null;
}

const speak = document.getElementById("speak");
speak.checked = localStorage.getItem("dicescore.speak") === "yes";
// A browser speaks only once the page has spoken during a tap (iOS Safari always; Chrome
// after a reload), and the notes come from the stream or after a reply, never in one: so
// the tick itself, or the first tap on a page that loads ticked, says a silent word.
function allowSpeech() {
  if (speak.checked && "speechSynthesis" in window) window.speechSynthesis.speak(new SpeechSynthesisUtterance(" "));
}
speak.addEventListener("change", () => {
  localStorage.setItem("dicescore.speak", speak.checked ? "yes" : "no");
  allowSpeech();
});
document.addEventListener("pointerdown", allowSpeech, { once: true });

// The browser reconnects a stream that ends; one the server refused (every stream slot taken,
// a 503) it closes for good, so this page asks again after the server's Retry-After.
const STREAM_RETRY_MS = 5000;
let stream;
function listen() {
  stream = new EventSource(table.dataset.stream);
  stream.addEventListener("table", (event) => redraw(JSON.parse(event.data)));
  stream.addEventListener("error", (event) => {
    if (event.target.readyState === EventSource.CLOSED) setTimeout(listen, STREAM_RETRY_MS);
  });
}
listen();
// A page brought back by Back or by unlocking the phone (the browser's page cache) lost its
// stream while away: a new one sends the board at once.
window.addEventListener("pageshow", (event) => {
  if (!event.persisted) return;
  stream.close();
  listen();
});

// Everything is wired: the board takes taps now (style.css holds them off until then, as a
// form sent before this script runs would reload the page and lose what was typed).
table.dataset.ready = "yes";
