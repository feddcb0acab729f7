// The lobby: open a table (as many seats as the game takes, each a person or a bot, the turn
// timer), then hand out one link per person. A link carries its seat's join
// token after the "#", so it never reaches a server log.

import { request } from "./api.js";
import { catalogue, entryOf, unitWord } from "./catalogue.js";
import { howToPlay } from "./help.js";
import { chooseLanguage, lang, LANGUAGES, t, translatePage } from "./i18n.js";
import { keepLinks, keptLinks, linkItem, recentTables } from "./links.js";
import { cardFace, el, fill } from "./ui.js";

// Every game, its seats and its options come from the catalogue (GET /rules), as the rules declare them.
let games = null;
const chosen = () => entryOf(games, rulesSelect.value);
const minSeats = () => chosen()?.seats.min ?? 2;
const maxSeats = () => chosen()?.seats.max ?? 2;

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
    el("label", { for: `seat-name-${n}`, class: "visually-hidden" }, t("lobby.seat_name")),
    el("input", { type: "text", id: `seat-name-${n}`, class: "seat-name-input", value: name, maxlength: "40", required: true, autocomplete: "off" }),
    el(
      "span",
      { class: "kind", role: "radiogroup", "aria-label": t("lobby.who_plays") },
      el("input", { type: "radio", name: `kind-${n}`, id: `human-${n}`, value: "human", checked: !bot }),
      el("label", { for: `human-${n}` }, t("lobby.person")),
      el("input", { type: "radio", name: `kind-${n}`, id: `bot-${n}`, value: "bot", checked: bot }),
      el("label", { for: `bot-${n}` }, t("lobby.bot")),
    ),
    el("button", { type: "button", class: "remove secondary", "aria-label": t("lobby.remove_seat"), title: t("lobby.remove_seat"), onclick: () => removeSeat(row) }, "✕"),
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

// The host's name, kept from the last table they opened: the others see it ("You" is only
// ever what a seat calls itself, never a name the others read).
const NAME_KEY = "fairdeal.name";

function keptName() {
  try {
    return localStorage.getItem(NAME_KEY) || null;
  } catch {
    return null; // storage off: the default name
  }
}

function keepName(name) {
  try {
    localStorage.setItem(NAME_KEY, name);
  } catch {
    // storage off: nothing kept
  }
}

function addSeat(name = null, bot = true) {
  if (rows().length >= maxSeats()) return;
  list.append(seatRow(name ?? t("lobby.bot_name", { n: rows().length }), bot));
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

/** The number a select of the form holds (the turn timer, the bots' pace, the pause between hands). */
function chosenNumber(id) {
  return Number(document.getElementById(id).value);
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
    showError(t("lobby.seat_needs_name", { n: empty + 1 }));
    rows()[empty].querySelector("input").focus();
    return;
  }
  const button = document.getElementById("create-button");
  button.disabled = true;
  try {
    // In the page's language, a refusal's words (too many tables...), as every table request asks them.
    const created = await request("POST", lang === "en" ? "/games" : `/games?lang=${encodeURIComponent(lang)}`, {
      body: {
        rules: rulesSelect.value,
        options: chosenOptions(),
        seats,
        turn_seconds: chosenNumber("turn-seconds"),
        bot_seconds: chosenNumber("bot-seconds"),
        next_hand_seconds: chosenNumber("next-hand-seconds"),
      },
    });
    if (!seats[0].bot) keepName(seats[0].name);
    showLinks(created);
  } catch (error) {
    showError(t("lobby.not_opened", { reason: error.message }));
  } finally {
    button.disabled = false;
  }
});

function showLinks(created) {
  const kept = keepLinks(created, { rules: rulesSelect.value, title: chosen()?.title ?? null });
  const items = kept.seats.map((s) => linkItem(s.name, s.url, { open: s.host ? t("lobby.take_seat") : t("lobby.open"), primary: s.host }));
  if (!kept.seats.length) items.push(linkItem(t("lobby.watch_bots"), kept.host_url, { open: t("lobby.watch"), primary: true }));
  fill(document.getElementById("link-list"), items);
  document.getElementById("links-commitment").textContent = created.commitment;
  const links = document.getElementById("links");
  links.hidden = false;
  links.scrollIntoView({ behavior: "smooth", block: "start" });
  showRecent();
  links.querySelector("a.button")?.focus();
}

/** The recent tables: the host's way back, Verify, and every human seat's link kept for it. */
function showRecent() {
  const recent = recentTables();
  document.getElementById("recent").hidden = !recent.length;
  fill(
    document.getElementById("recent-list"),
    recent.map((r, i) => {
      const kept = keptLinks(r.game_id);
      const seats = (kept?.seats ?? []).map((s) => linkItem(s.host ? t("lobby.you_host", { name: s.name }) : s.name, s.url));
      return el(
        "li",
        { class: "recent-table", "data-game": r.game_id },
        el("span", { class: "link-label" }, r.title ? `${r.title}: ${r.names.join(", ")}` : r.names.join(", ")),
        el("span", { class: "hint" }, new Date(r.when).toLocaleString(lang)),
        el("span", { class: "link-actions" }, el("a", { class: "button secondary", href: r.url }, t("lobby.back_to_table")), el("a", { class: "button secondary", href: `/verify?game=${encodeURIComponent(r.game_id)}` }, t("lobby.verify"))),
        seats.length
          ? el("details", { class: "recent-links", open: i === 0 }, el("summary", {}, t("lobby.every_link", { n: seats.length })), el("ul", { class: "link-list" }, seats))
          : null,
      );
    }),
  );
}

/** The hint under the seats says how many the chosen game seats; under the list, what the game is. */
function showSeatRange() {
  document.getElementById("seat-range").textContent = t("lobby.seat_range", { min: minSeats(), max: maxSeats() });
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
        .map((g) => el("option", { value: g.name, selected: g.name === games.default, title: g.summary }, t("lobby.game_choice", { title: g.title, min: g.seats.min, max: g.seats.max, unit: unitWord(g.unit) }))),
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

// "How to play" the chosen game, in a dialog: the rules package's text (GET /rules/{name}/help).
const helpDialog = document.getElementById("help-dialog");
document.getElementById("show-help").addEventListener("click", async () => {
  const name = rulesSelect.value;
  const title = document.getElementById("help-dialog-title");
  title.textContent = t("lobby.how_to_play_game", { game: chosen()?.title ?? "" }).trim();
  fill(document.getElementById("help-body"), el("p", { class: "hint" }, t("lobby.loading")));
  if (!helpDialog.open) helpDialog.showModal();
  // The dialog's own heading names the game: the text goes in without one of its own.
  const shown = await howToPlay(name, { heading: false });
  if (rulesSelect.value === name) fill(document.getElementById("help-body"), shown);
});
document.getElementById("close-help").addEventListener("click", () => helpDialog.close());
// A click on the backdrop (outside the dialog's box) closes it too.
helpDialog.addEventListener("click", (event) => {
  if (event.target === helpDialog) helpDialog.close();
});

async function start() {
  try {
    games = await catalogue();
  } catch (error) {
    showError(t("lobby.games_not_loaded", { reason: error.message }));
    return;
  }
  showGames();
  showOptions();
  addSeat(keptName() ?? t("lobby.default_name"), false);
  for (const n of [1, 2, 3]) addSeat(t("lobby.bot_name", { n }), true);
  showSeatRange();
}

/** The language chooser: the reader's choice, kept for every page of this browser. */
function showLanguages() {
  const select = document.getElementById("language");
  fill(select, Object.entries(LANGUAGES).map(([code, name]) => el("option", { value: code, lang: code, selected: code === lang }, name)));
  select.addEventListener("change", () => {
    chooseLanguage(select.value);
    location.reload();
  });
}

translatePage();
showLanguages();
start();
showRecent();
