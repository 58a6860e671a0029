// Forgetting cannot be undone: each forget form asks first.
for (const form of document.querySelectorAll("form[data-confirm]")) {
  form.addEventListener("submit", (event) => {
    if (!window.confirm(form.dataset.confirm)) event.preventDefault();
  });
}

// Showing the camera a set: look at the dice it sees, name each one's face, teach them.
const csrf = document.querySelector('meta[name="csrf-token"]').content;

for (const box of document.querySelectorAll(".show-dice")) {
  const shown = box.querySelector(".shown");
  const teach = box.querySelector(".teach-shown");
  const error = box.querySelector(".look-error");
  let look = null;

  const fail = (message) => {
    error.textContent = message;
    error.hidden = false;
  };

  box.querySelector(".look").addEventListener("click", async () => {
    error.hidden = true;
    const reply = await fetch(box.dataset.look);
    const body = await reply.json();
    if (!reply.ok) return fail(body.error);
    look = body.look;
    shown.replaceChildren();
    for (const [number, die] of body.dice.entries()) {
      const figure = document.createElement("figure");
      figure.className = "shown-die";
      const image = new Image();
      image.src = die.crop;
      image.alt = `die ${number + 1} as the camera sees it`;
      const choice = box.querySelector("template.face-choice").content.firstElementChild.cloneNode(true);
      // the camera's likeliest faces first, as the correction dialog lists them
      const guesses = document.createElement("optgroup");
      guesses.label = "the camera's guesses";
      for (const [label] of die.top) {
        const face = choice.querySelector(`option[value="${CSS.escape(label)}"]`);
        if (face) guesses.append(face.cloneNode(true));
      }
      if (guesses.children.length) choice.insertBefore(guesses, choice.options[1]);
      choice.value = die.label ?? ""; // the camera's reading, for the player to check
      choice.setAttribute("aria-label", `the face die ${number + 1} shows`);
      figure.append(image, choice);
      shown.append(figure);
    }
    teach.hidden = false;
  });

  teach.addEventListener("click", async () => {
    const faces = [...shown.querySelectorAll("select")].map((choice) => choice.value || null);
    teach.disabled = true; // a second tap while the first is on its way would teach nothing, and say so
    const reply = await fetch(box.dataset.teach, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
      body: JSON.stringify({ look, faces }),
    }).finally(() => { teach.disabled = false; });
    if (!reply.ok) return fail((await reply.json()).error);
    window.location.hash = box.closest("section").id; // the page again, at this set, with what it learnt
    window.location.reload();
  });
}
