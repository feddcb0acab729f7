// The lobby: open a table (as many seats as the game takes, each a person or a bot, the turn
// timer), then hand out one link per person. A link carries its seat's join
// token after the "#", so it never reaches a server log.

import { request } from "./api.js";
import { el, fill } from "./ui.js";

// How many players each game seats ([fewest, most]): each rules' check_seats (fairdeal/rules/).
export const SEATS = {
  "crazy-eights": [2, 6],
  "crazy-eights-book": [2, 8],
  eights: [2, 8],
  "hollywood-eights": [2, 8],
  "go-boom": [2, 7],
  "hollywood-go-boom": [2, 7],
  "fan-tan": [3, 8],
  sjueren: [3, 6],
  "five-or-nine": [3, 8],
  "play-or-pay": [3, 8],
  "liberty-fan-tan": [3, 8],
  sequence: [2, 10],
  michigan: [3, 8],
  "double-stops": [3, 8],
  spin: [3, 8],
  commit: [4, 10],
  "snip-snap-snorem": [3, 10],
  "earl-of-coventry": [3, 10],
  jig: [3, 10],
  "rolling-stone": [4, 6],
};
const minSeats = (rules) => (SEATS[rules] ?? [2, 6])[0];
const maxSeats = (rules) => (SEATS[rules] ?? [2, 6])[1];
const RECENT_KEY = "fairdeal:recent";

const form = document.getElementById("create");
const list = document.getElementById("seat-list");
const addButton = document.getElementById("add-seat");
const rulesSelect = document.getElementById("rules");
const errorBox = document.getElementById("create-error");

let seatCount = 0;

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
  const min = minSeats(rulesSelect.value);
  addButton.disabled = count >= maxSeats(rulesSelect.value);
  rows().forEach((row, i) => {
    row.dataset.seat = i;
    row.querySelector(".remove").disabled = count <= min;
  });
}

function addSeat(name = null, bot = true) {
  if (rows().length >= maxSeats(rulesSelect.value)) return;
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
  const min = minSeats(rulesSelect.value);
  while (rows().length < min) addSeat();
  // Too many for this game: the last seats go (a bot before a person).
  while (rows().length > maxSeats(rulesSelect.value)) (rows().findLast((row) => row.querySelector('input[value="bot"]').checked) ?? rows().at(-1)).remove();
  refresh();
  showSeatRange();
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
      body: { rules: rulesSelect.value, seats, turn_seconds: Number(document.getElementById("turn-seconds").value) },
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
  showSeatRange();
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

/** Each game's option says how many it seats; the hint under the seats says it for the chosen one. */
function showSeatRange() {
  const [min, max] = [minSeats(rulesSelect.value), maxSeats(rulesSelect.value)];
  document.getElementById("seat-range").textContent = `${min} to ${max} players`;
}

addSeat("You", false);
addSeat("Bot 1", true);
addSeat("Bot 2", true);
addSeat("Bot 3", true);
showSeatRange();
showRecent();
