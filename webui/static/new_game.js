// The new-game page: show only the chosen game's options, and let more players join.
"use strict";

const form = document.getElementById("new-game");

function showChosenOptions() {
  const chosen = form.querySelector("input[name=game]:checked");
  for (const fieldset of form.querySelectorAll("fieldset.options")) {
    const shown = chosen !== null && fieldset.dataset.game === chosen.value;
    fieldset.hidden = !shown;
    fieldset.disabled = !shown; // disabled fields are not sent
  }
}

form.addEventListener("change", showChosenOptions);
document.getElementById("add-player").addEventListener("click", () => {
  const players = document.getElementById("players");
  const input = document.createElement("input");
  input.name = "player";
  input.autocomplete = "off";
  input.placeholder = `Player ${players.children.length + 1}`;
  input.setAttribute("aria-label", input.placeholder);
  players.append(input);
  input.focus();
});
showChosenOptions();
