// The table page: send moves to the JSON API, redraw the board from the live stream,
// and correct a die with two taps.  The board's HTML comes from the server; this script
// only swaps it in, so the page shows exactly what the server renders.
"use strict";

const table = document.getElementById("table");
const board = document.getElementById("board");
const message = document.getElementById("message");
const dialog = document.getElementById("correct-die");
const faces = JSON.parse(document.getElementById("faces").textContent);
let version = Number(table.dataset.version);
let csrfToken = document.querySelector("meta[name=csrf-token]").content;
let lastNote = board.querySelector("[data-last-note]")?.dataset.lastNote ?? "";
let enteringDice = false; // the player is filling the dice form: keep it across redraws

function showError(text) {
  message.textContent = text;
  message.hidden = !text;
}

async function send(event, retried = false) {
  const response = await fetch(table.dataset.events, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-CSRF-Token": csrfToken },
    body: JSON.stringify(event),
  });
  if (response.status === 403 && !retried) {
    // The server may have restarted with a new session: fetch a fresh token once.
    const session = await (await fetch(table.dataset.session)).json();
    if (session.csrf !== csrfToken) {
      csrfToken = session.csrf;
      return send(event, true);
    }
  }
  const reply = await response.json().catch(() => ({ error: `HTTP ${response.status}` }));
  showError(response.ok ? "" : reply.error);
  if (response.ok) refresh();
  return response.ok;
}

async function refresh() {
  const response = await fetch(table.dataset.board);
  if (response.ok) redraw(await response.json());
}

function keptDice() {
  const form = document.getElementById("enter-dice");
  if (!enteringDice || form === null) return null;
  return {
    player: form.elements.player.value,
    faces: [...form.querySelectorAll("select.picker")].map((picker) => picker.value),
  };
}

function restoreDice(kept) {
  const form = document.getElementById("enter-dice");
  if (kept === null || form === null) return;
  const pickers = document.getElementById("pickers");
  while (pickers.children.length < kept.faces.length) pickers.append(pickers.lastElementChild.cloneNode(true));
  while (pickers.children.length > kept.faces.length) pickers.lastElementChild.remove();
  kept.faces.forEach((label, i) => { pickers.children[i].value = label; });
  if ([...form.elements.player.options].some((option) => option.value === kept.player)) {
    form.elements.player.value = kept.player;
  }
}

function redraw(payload) {
  if (payload.version < version) return; // an older board arriving late
  version = payload.version;
  const kept = keptDice();
  board.innerHTML = payload.html;
  restoreDice(kept);
  if (payload.last_note && payload.last_note !== lastNote) announce(payload.last_note);
  lastNote = payload.last_note;
}

function announce(note) {
  if (document.getElementById("speak").checked && "speechSynthesis" in window) {
    window.speechSynthesis.speak(new SpeechSynthesisUtterance(note));
  }
}

function faceButton(label, onPick) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = `face ${faces.colours[label] ?? ""}`;
  button.textContent = faces.texts[label] ?? label;
  button.dataset.label = label;
  button.addEventListener("click", () => { dialog.close(); onPick(label); });
  return button;
}

function openCorrection(die) {
  const rollFaces = JSON.parse(die.dataset.faces);
  const index = Number(die.dataset.die);
  const correct = (label) => {
    const corrected = rollFaces.slice();
    corrected[index] = label;
    send({ type: "correct", data: { roll: Number(die.dataset.roll), faces: corrected } });
  };
  document.getElementById("correct-title").textContent =
    `Roll #${die.dataset.roll}, die ${index + 1} shows ${faces.texts[die.dataset.label] ?? die.dataset.label}`;
  // The classifier's top-k for this die ([[label, p], ...]) when the camera read it.
  const guesses = JSON.parse(die.dataset.top || "[]").map(([label]) => label).filter((label) => label in faces.texts);
  document.getElementById("correct-guesses").replaceChildren(...guesses.map((label) => faceButton(label, correct)));
  document.getElementById("correct-faces").replaceChildren(...faces.labels.map((label) => faceButton(label, correct)));
  dialog.showModal();
}

board.addEventListener("click", (click) => {
  const target = click.target.closest("button");
  if (target === null) return;
  if (target.matches(".move")) {
    const player = target.dataset.player;
    send({ type: target.dataset.type, ...(player ? { player } : {}), data: JSON.parse(target.dataset.data || "{}") });
  } else if (target.matches(".die")) {
    openCorrection(target);
  } else if (target.id === "add-die") {
    enteringDice = true;
    const pickers = document.getElementById("pickers");
    pickers.append(pickers.lastElementChild.cloneNode(true));
  } else if (target.id === "remove-die") {
    enteringDice = true;
    const pickers = document.getElementById("pickers");
    if (pickers.children.length > 1) pickers.lastElementChild.remove();
  }
});

board.addEventListener("change", (change) => {
  if (change.target.closest("#enter-dice")) enteringDice = true;
});

board.addEventListener("submit", async (submit) => {
  submit.preventDefault();
  const form = submit.target;
  if (form.id === "enter-dice") {
    const faceLabels = [...form.querySelectorAll("select.picker")].map((picker) => picker.value);
    if (await send({ type: "roll", player: form.elements.player.value, data: { faces: faceLabels } })) {
      enteringDice = false;
    }
  } else if (form.id === "draw") {
    send({ type: "draw", player: form.elements.player.value, data: { card: JSON.parse(form.elements.card.value) } });
  } else if (form.id === "bid") {
    const trump = form.elements.trump.value;
    const data = { bid: Number(form.elements.bid.value), ...(trump ? { trump } : {}) };
    send({ type: "bid", player: form.elements.player.value, data });
  } else if (form.id === "tricks") {
    const tricks = {};
    for (const input of form.querySelectorAll("input[name=tricks]")) tricks[input.dataset.player] = Number(input.value);
    send({ type: "tricks", player: form.elements.player.value, data: { tricks } });
  } else if (form.id === "json-move") {
    let data;
    try {
      data = JSON.parse(form.elements.data.value || "{}");
    } catch (error) {
      showError(`The data is not JSON: ${error.message}`);
      return;
    }
    const player = form.elements.player.value;
    send({ type: form.elements.type.value, ...(player ? { player } : {}), data });
  }
});

const speak = document.getElementById("speak");
speak.checked = localStorage.getItem("dicescore.speak") === "yes";
speak.addEventListener("change", () => localStorage.setItem("dicescore.speak", speak.checked ? "yes" : "no"));

const stream = new EventSource(table.dataset.stream);
stream.addEventListener("table", (event) => redraw(JSON.parse(event.data)));
