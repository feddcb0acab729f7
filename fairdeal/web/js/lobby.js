// The lobby: open a table (as many seats as the game takes, each a person or a bot, the turn
// timer), then hand out one link per person. A link carries its seat's join
// token after the "#", so it never reaches a server log.

import { request } from "./api.js";
import { catalogue, entryOf, unitWord } from "./catalogue.js";
import { cardFace, el, fill } from "./ui.js";

// Every game, its seats and its options come from the catalogue (GET /rules), as the rules declare them.
let games = null;
const chosen = () => entryOf(games, rulesSelect.value);
const minSeats = () => chosen()?.seats.min ?? 2;
const maxSeats = () => chosen()?.seats.max ?? 2;
const RECENT_KEY = "fairdeal:recent";

const form = document.getElementById("create");
const list = document.getElementById("seat-list");
const addButton = document.getElementById("add-seat");
const rulesSelect = document.getElementById("rules");
const errorBox = document.getElementById("create-error");

let seatCount = 0;

// The hero's three cards are the deck's, drawn as every page draws a card (each keeps its place class).
for (const spot of document.querySelectorAll(".hero-cards .card[data-code]")) {
  const face = cardFace(spot.dataset.code);
  face.classList.add(...[...spot.classList].filter((c) => c !== "card"));
  spot.replaceWith(face);
}

function seatRow(name, bot) {
  const n = seatCount++;
  const row = el(
    "li",
    { class: "seat-row" },
    el("label", { for: `seat-name-${n}`, class: "visually-hidden" }, "Name"),
    el("input", { type: "text", id: `seat-name-${n}`, class: "seat-name-input", value: name, maxlength: "40", required: true, autocomplete: "off" }),
    el(
      "span",
      { class: "kind", role: "radiogroup", "aria-label": "Who plays this seat" },
      el("input", { type: "radio", name: `kind-${n}`, id: `human-${n}`, value: "human", checked: !bot }),
      el("label", { for: `human-${n}` }, "Person"),
      el("input", { type: "radio", name: `kind-${n}`, id: `bot-${n}`, value: "bot", checked: bot }),
      el("label", { for: `bot-${n}` }, "⚙ Bot"),
    ),
    el("button", { type: "button", class: "remove secondary", "aria-label": "Remove this seat", title: "Remove this seat", onclick: () => removeSeat(row) }, "✕"),
  );
  return row;
}

function rows() {
  return [...list.querySelectorAll(".seat-row")];
}

function refresh() {
  const count = rows().length;
  const min = minSeats();
  addButton.disabled = count >= maxSeats();
  rows().forEach((row, i) => {
    row.dataset.seat = i;
    row.querySelector(".remove").disabled = count <= min;
  });
}

function addSeat(name = null, bot = true) {
  if (rows().length >= maxSeats()) return;
  list.append(seatRow(name ?? `Bot ${rows().length}`, bot));
  refresh();
}

function removeSeat(row) {
  row.remove();
  refresh();
}

addButton.addEventListener("click", () => {
  addSeat();
  rows().at(-1).querySelector("input").focus();
});

rulesSelect.addEventListener("change", () => {
  const min = minSeats();
  while (rows().length < min) addSeat();
  // Too many for this game: the last seats go (a bot before a person).
  while (rows().length > maxSeats()) (rows().findLast((row) => row.querySelector('input[value="bot"]').checked) ?? rows().at(-1)).remove();
  refresh();
  showSeatRange();
  showOptions();
});

function showError(message) {
  errorBox.textContent = message;
  errorBox.hidden = !message;
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  showError("");
  const seats = rows().map((row) => ({
    name: row.querySelector(".seat-name-input").value.trim(),
    bot: row.querySelector('input[value="bot"]').checked,
  }));
  const empty = seats.findIndex((s) => !s.name);
  if (empty >= 0) {
    showError(`Seat ${empty + 1} needs a name.`);
    rows()[empty].querySelector("input").focus();
    return;
  }
  const button = document.getElementById("create-button");
  button.disabled = true;
  try {
    const created = await request("POST", "/games", {
      body: { rules: rulesSelect.value, options: chosenOptions(), seats, turn_seconds: Number(document.getElementById("turn-seconds").value) },
    });
    showLinks(created);
  } catch (error) {
    showError(`The table could not be opened: ${error.message}`);
  } finally {
    button.disabled = false;
  }
});

/** The link that seats a person: /table/ID#seat=N&token=T (the host's also carries &host=H). */
export function seatLink(gameId, seat, token, host = null) {
  const fragment = new URLSearchParams({ seat: String(seat), token });
  if (host) fragment.set("host", host);
  return `${location.origin}/table/${encodeURIComponent(gameId)}#${fragment}`;
}

function linkItem(label, url, { primary = false } = {}) {
  const copy = el("button", { type: "button", class: "secondary copy" }, "Copy link");
  copy.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(url);
      copy.textContent = "Copied ✔";
    } catch {
      copy.textContent = "Select it and copy";
    }
  });
  return el(
    "li",
    {},
    el("span", { class: "link-label" }, label),
    el("input", { type: "text", readonly: true, value: url, class: "link-url", "aria-label": `Link for ${label}`, onfocus: (e) => e.target.select() }),
    el("span", { class: "link-actions" }, copy, el("a", { class: primary ? "button gold" : "button secondary", href: url }, primary ? "Take this seat" : "Open")),
  );
}

function showLinks(created) {
  const humans = created.seats.filter((s) => s.join_token);
  const items = humans.map((s, i) => linkItem(s.name, seatLink(created.game_id, s.seat, s.join_token, i === 0 ? created.host_token : null), { primary: i === 0 }));
  if (!humans.length) {
    const watch = `${location.origin}/table/${encodeURIComponent(created.game_id)}#host=${encodeURIComponent(created.host_token)}`;
    items.push(linkItem("Watch the bots play", watch, { primary: true }));
  }
  fill(document.getElementById("link-list"), items);
  document.getElementById("links-commitment").textContent = created.commitment;
  const links = document.getElementById("links");
  links.hidden = false;
  links.scrollIntoView({ behavior: "smooth", block: "start" });
  remember(created, humans);
  links.querySelector("a.button")?.focus();
}

function remember(created, humans) {
  const first = humans[0];
  const entry = {
    game_id: created.game_id,
    rules: rulesSelect.value,
    when: new Date().toISOString(),
    names: created.seats.map((s) => s.name),
    url: first ? seatLink(created.game_id, first.seat, first.join_token, created.host_token) : `/table/${created.game_id}#host=${created.host_token}`,
  };
  const recent = [entry, ...loadRecent().filter((r) => r.game_id !== entry.game_id)].slice(0, 8);
  localStorage.setItem(RECENT_KEY, JSON.stringify(recent));
  showRecent();
}

function loadRecent() {
  try {
    const value = JSON.parse(localStorage.getItem(RECENT_KEY) ?? "[]");
    return Array.isArray(value) ? value : [];
  } catch {
    return [];
  }
}

function showRecent() {
  const recent = loadRecent();
  document.getElementById("recent").hidden = !recent.length;
  fill(
    document.getElementById("recent-list"),
    recent.map((r) =>
      el(
        "li",
        {},
        el("span", { class: "link-label" }, r.names.join(", ")),
        el("span", { class: "hint" }, new Date(r.when).toLocaleString()),
        el("span", { class: "link-actions" }, el("a", { class: "button secondary", href: r.url }, "Back to the table"), el("a", { class: "button secondary", href: `/verify?game=${encodeURIComponent(r.game_id)}` }, "Verify")),
      ),
    ),
  );
}

/** The hint under the seats says how many the chosen game seats; under the list, what the game is. */
function showSeatRange() {
  document.getElementById("seat-range").textContent = `${minSeats()} to ${maxSeats()} players`;
  document.getElementById("rules-summary").textContent = chosen()?.summary ?? "";
}

/** The game list, grouped by family in the catalogue's order; its default game chosen. */
function showGames() {
  const groups = games.families.map((family) =>
    el(
      "optgroup",
      { label: family },
      games.games
        .filter((g) => g.family === family)
        .map((g) => el("option", { value: g.name, selected: g.name === games.default, title: g.summary }, `${g.title} (${g.seats.min}–${g.seats.max} players, ${unitWord(g.unit)})`)),
    ),
  );
  fill(rulesSelect, groups);
  rulesSelect.value = games.default;
}

/** "The total that ends the match" from the declaration's help. */
function sentence(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : "";
}

/** One input per option of the chosen game: a list where the rules name the choices, else a whole number in its range. */
function showOptions() {
  const options = chosen()?.options ?? [];
  const rows = options.map((o) => {
    const id = `option-${o.name}`;
    const label = el("label", { for: id }, sentence(o.help ?? o.name.replace(/_/g, " ")));
    let input;
    if (o.choices) {
      input = el(
        "select",
        { id, name: o.name, "data-option": o.name },
        Object.entries(o.choices).map(([value, words]) => el("option", { value, selected: Number(value) === o.default }, words)),
      );
    } else {
      input = el("input", { type: "number", id, name: o.name, "data-option": o.name, min: String(o.min), max: String(o.max), step: "1", value: String(o.default), inputmode: "numeric", required: true });
    }
    const hint = [o.unit, o.low_means ? `${o.min}: ${o.low_means}` : null].filter(Boolean).join("; ");
    return el("div", { class: "row" }, label, input, hint ? el("span", { class: "hint" }, hint) : null);
  });
  fill(document.getElementById("option-list"), rows);
  document.getElementById("options").hidden = !rows.length;
}

/** The chosen game's options as the inputs hold them (the rules check the ranges). */
function chosenOptions() {
  const out = {};
  for (const input of document.querySelectorAll("#option-list [data-option]")) out[input.dataset.option] = Number(input.value);
  return out;
}

async function start() {
  try {
    games = await catalogue();
  } catch (error) {
    showError(`The list of games did not load: ${error.message}`);
    return;
  }
  showGames();
  showOptions();
  addSeat("You", false);
  addSeat("Bot 1", true);
  addSeat("Bot 2", true);
  addSeat("Bot 3", true);
  showSeatRange();
}

start();
showRecent();
