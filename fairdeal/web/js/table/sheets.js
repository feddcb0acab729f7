// The sheets over the table between hands and at the end: the hand's end (every seat's cards
// left, the scores, "Next hand" and its countdown), then the game's end (the standings, Verify,
// Replay, Download, and Play again: the host's new table with the same seats, or another
// seat's way to it).

import { ApiError } from "../api.js";
import { keepLinks, seatLink } from "../links.js";
import { sounds } from "../sound.js";
import { cardRow, el, fill } from "../ui.js";
import { tickNext } from "./clock.js";
import { setView } from "./live.js";
import { announce, handEndText, names, toast, underTitle } from "./messages.js";
import { scoresTable, signed } from "./side.js";
import { hideTip } from "./tips.js";
import { downloadRecord } from "./tools.js";
import { $, api, gameId, isBot, isChips, me, pollAgain, setBetweenShown, setEndShown, title, ui, unitTitle, who } from "./state.js";

// -- between hands: the hand's end, every seat's cards, "Next hand" ---------------------

export function renderBetween() {
  const view = ui.view;
  const box = $("between");
  const pause = view.status === "between-hands" ? view.next_hand : null;
  const ended = view.hands?.[view.hands.length - 1];
  if (!pause || !ended) {
    const had = !box.hidden && box.contains(document.activeElement);
    box.hidden = true;
    setBetweenShown(null);
    // The sheet had the keyboard: the new hand takes it.
    if (had) ($("hand").querySelector("button.card[tabindex='0']") ?? $("actions").querySelector("button"))?.focus({ preventScroll: true });
    return;
  }
  const first = ui.betweenShown !== ended.hand;
  setBetweenShown(ended.hand);
  const focusedId = box.contains(document.activeElement) ? document.activeElement.id : null;
  const chips = isChips();
  const line = ui.record.findLast?.((l) => l.type === "hand-end" && l.hand === ended.hand);
  const head = el(
    "tr",
    {},
    el("th", { scope: "col" }, "Player"),
    el("th", { scope: "col" }, "Cards left"),
    el("th", { scope: "col", class: "num" }, "Count"),
    el("th", { scope: "col", class: "num" }, chips ? "This hand" : "Score"),
    el("th", { scope: "col", class: "num" }, chips ? unitTitle() : "Total"),
  );
  const rows = view.seats.map((s) => {
    const left = pause.cards_left?.[s.seat] ?? [];
    const score = ended.scores?.[s.seat] ?? 0;
    return el(
      "tr",
      { class: ended.winners.includes(s.seat) ? "won" : null, "data-seat": String(s.seat) },
      el("th", { scope: "row" }, who(s.seat), isBot(s.seat) ? el("span", { class: "badge bot" }, "bot") : null),
      el("td", { class: "left" }, left.length ? cardRow(left) : el("span", { class: "hint" }, "none")),
      el("td", { class: "num count" }, String(ended.counts?.[s.seat] ?? left.length)),
      el("td", { class: "num score" }, chips ? signed(score) : String(score)),
      el("td", { class: "num total" }, String(view.totals?.[s.seat] ?? 0)),
    );
  });
  const mine = me !== null && pause.waiting.includes(me);
  const waiting = pause.waiting.filter((s) => s !== me);
  $("between-title").textContent = `Hand ${ended.hand}`;
  fill(
    $("between-body"),
    line ? el("p", { class: "headline", id: "between-headline" }, underTitle(handEndText(line), `Hand ${ended.hand}: `)) : null,
    el("table", { class: "standings hand-end-table", id: "hand-end-table" }, el("thead", {}, head), el("tbody", {}, rows)),
    el(
      "p",
      { class: "next-hand" },
      mine ? el("button", { type: "button", class: "gold", id: "next-hand", onclick: readyNext }, "Next hand") : null,
      el("span", { id: "next-countdown", class: "countdown" }),
      !mine && waiting.length ? el("span", { id: "next-waiting", class: "hint" }, `Waiting for ${names(waiting)}…`) : null,
    ),
  );
  tickNext();
  box.hidden = false;
  // Who is ready is no record line, yet the live stream tells of it, from whichever server process
  // noted it (PostgreSQL's NOTIFY; elsewhere the stream looks at the game's row): no polling here.
  if (first) announce(line ? handEndText(line) : `Hand ${ended.hand} is over.`);
  const focus = first && mine ? $("next-hand") : focusedId ? $(focusedId) : null;
  focus?.focus({ preventScroll: true });
}

/** This seat is ready for the next deal; the answer is the view (the new hand, if everyone was). */
export async function readyNext() {
  const button = $("next-hand");
  if (button) button.disabled = true;
  try {
    setView(await api.ready());
  } catch (error) {
    if (button) button.disabled = false;
    if (error instanceof ApiError && error.status === 409) setView(await api.view()); // dealt meanwhile
    else toast(`The table did not hear you: ${error.message}`, { kind: "bad" });
  }
}

// -- the end: the standings, the checks, and the next table ------------------------------

/** "Play again" for the host; for another seat, once the host has, its link to the next table. */
function againControls(view) {
  const again = view.again;
  const close = el("button", { type: "button", class: "secondary", id: "end-close", onclick: () => (setEndShown("closed"), ($("end").hidden = true)) }, "Look at the table");
  const fresh = el("a", { class: "button secondary", href: "/" }, "New table");
  if (api.host && !again) return [el("button", { type: "button", class: "gold", id: "end-again", onclick: playAgain }, "Play again"), close, fresh];
  if (again?.token !== undefined) {
    return [el("a", { class: "button gold", id: "end-join-next", href: seatLink(again.game_id, again.seat, again.token) }, "Join the next table"), close, fresh];
  }
  if (again) return [el("a", { class: "button secondary", id: "end-watch-next", href: `/table/${encodeURIComponent(again.game_id)}` }, "Watch the next table"), close, fresh];
  return [close, fresh];
}

/** The host's new table with the same seats: its links kept, then this browser takes its seat there. */
async function playAgain() {
  const button = $("end-again");
  if (button) button.disabled = true;
  try {
    const created = await api.again();
    keepLinks(created, { rules: ui.view.rules, title: title() });
    const mine = created.seats.find((s) => s.seat === me && s.join_token);
    location.assign(mine ? seatLink(created.game_id, mine.seat, mine.join_token, created.host_token) : `/table/${encodeURIComponent(created.game_id)}#host=${encodeURIComponent(created.host_token)}`);
  } catch (error) {
    if (button) button.disabled = false;
    toast(`No new table: ${error.message}`, { kind: "bad" });
  }
}

/** After the end the live stream stops: a seat looks now and then for the table the host played again. */
function watchForAgain(view) {
  const waiting = me !== null && !view.again && !api.host;
  pollAgain(
    waiting
      ? async () => {
          try {
            const fresh = await api.view();
            if (fresh.again) setView(fresh);
          } catch {
            // the next look may get through
          }
        }
      : null,
  );
}

function placeWord(p) {
  return ["", "1st", "2nd", "3rd", "4th", "5th", "6th", "7th", "8th"][p] ?? `${p}th`;
}

export function renderEnd() {
  const view = ui.view;
  const over = (view.status === "over" && view.standings) || view.status === "abandoned";
  if (!over) {
    $("end").hidden = true;
    return;
  }
  if (ui.endShown === "closed") return;
  const standings = view.standings ?? [];
  const shared = (p) => standings.filter((r) => r.place === p).length > 1;
  const winners = standings.filter((r) => r.place === 1).map((r) => who(r.seat));
  const headline =
    view.status === "abandoned"
      ? "The game was abandoned."
      : winners.length > 1
        ? `${winners.join(" and ")} share first place!`
        : winners[0] === "You"
          ? "You win!"
          : `${winners[0]} wins.`;
  const first = !ui.endShown;
  if (first) {
    setEndShown(true);
    hideTip();
    $("toast").hidden = true; // the dialog says it all
    if (standings.some((r) => r.place === 1 && r.seat === me)) sounds.win();
  }
  $("end-title").textContent = view.status === "abandoned" ? "Game abandoned" : "Game over";
  const focusedId = $("end").contains(document.activeElement) ? document.activeElement.id : null;
  fill(
    $("end-body"),
    el("p", { class: "headline", id: "winner" }, headline),
    standings.length
      ? el(
          "table",
          { class: "standings", id: "standings" },
          el("thead", {}, el("tr", {}, el("th", {}, "Place"), el("th", {}, "Player"), el("th", { class: "num" }, unitTitle()))),
          el(
            "tbody",
            {},
            standings.map((r) =>
              el("tr", { class: r.place === 1 ? "first" : null }, el("td", {}, `${placeWord(r.place)}${shared(r.place) ? " (shared)" : ""}`), el("td", {}, who(r.seat), isBot(r.seat) ? el("span", { class: "badge bot" }, "bot") : null), el("td", { class: "num" }, String(r.total))),
            ),
          ),
        )
      : null,
    (view.hands ?? []).length > 1 ? el("details", { class: "end-hands" }, el("summary", {}, "Hand by hand"), scoresTable(view, "end-hands")) : null,
    el("p", {}, "The server has revealed its seed. Check every deal and every score yourself:"),
    el(
      "p",
      { class: "end-actions" },
      el("a", { class: "button gold", href: `/verify?game=${encodeURIComponent(gameId)}`, id: "end-verify" }, "Verify this game"),
      view.status === "over" ? el("a", { class: "button secondary", href: `/replay?game=${encodeURIComponent(gameId)}`, id: "end-replay" }, "Replay the hands") : null,
      el("button", { type: "button", class: "secondary", id: "end-download", onclick: downloadRecord }, "Download record"),
    ),
    el("p", { class: "end-actions" }, ...againControls(view)),
  );
  watchForAgain(view);
  $("end").hidden = false;
  // A redraw replaces the buttons: the focus stays where it was (on Verify the first time).
  const focus = first ? $("end-verify") : focusedId ? $(focusedId) : null;
  focus?.focus();
}
