// The sheets over the table between hands and at the end: every hand ends on its summary (how
// it ended, every seat's cards left as cards, the count, the hand's score and the running total,
// and what the game's renderer shows of it besides: its handEndMore hook), between hands with
// "Next hand" and its countdown; the game's end shows the last hand's summary, then the standings,
// Verify, Replay, Download, and Play again: the host's new table with the same seats, or another
// seat's way to it.

import { ApiError } from "../api.js";
import { t } from "../i18n.js";
import { keepLinks, seatLink } from "../links.js";
import { sounds } from "../sound.js";
import { listWords } from "../words.js";
import { cardRow, el, fill } from "../ui.js";
import { tickNext } from "./clock.js";
import { setView } from "./live.js";
import { announce, handEndText, names, toast, underTitle } from "./messages.js";
import { scoresTable, signed } from "./side.js";
import { hideTip } from "./tips.js";
import { downloadRecord } from "./tools.js";
import { $, api, game, gameId, isBot, isChips, me, pollAgain, seatNameOf, setBetweenShown, setEndShown, T, title, ui, unitTitle, who } from "./state.js";

// -- a hand's summary: how it ended, every seat's cards left, the scores ------------------

/** The rules' words for how a hand ended (in the page's language: the view's), each seat they name
 * by number named by its name ("seats 0 and 2 hold the fewest cards" -> "Ann and Cy hold the fewest
 * cards"; "plassene 0 og 2 har færrest kort" -> "Ann og Cy har færrest kort"). */
function reasonWords(reason) {
  return reason.replace(/\b(?:seats?|plass(?:ene)?) (\d+(?: (?:and|og) \d+)*)/g, (_, seats) => listWords(seats.split(/ (?:and|og) /).map((n) => seatNameOf(Number(n)))));
}

/** "Blocked": how a hand ended, as a heading says it (the rules' word, where the page has none). */
function howWords(how) {
  const key = `table.how_${how}`;
  const said = t(key);
  return said === key ? `${how[0].toUpperCase()}${how.slice(1)}` : said;
}

/**
 * The summary of the finished hand `ended` (an entry of the view's `hands`): its headline (who went
 * out, or how it blocked and why), a row for each seat (its cards left as cards, the count, the
 * hand's score, the running total) and the game's own part (its renderer's handEndMore). The ids
 * begin with `prefix`: the sheet between hands and the game's end each have one.
 */
function handSummary(view, ended, cardsLeft, prefix) {
  const chips = isChips();
  const line = ui.record.findLast?.((l) => l.type === "hand-end" && l.hand === ended.hand) ?? ended;
  const out = ended.how === "out";
  const head = el(
    "tr",
    {},
    el("th", { scope: "col" }, t("table.player")),
    el("th", { scope: "col" }, t("table.cards_left")),
    el("th", { scope: "col", class: "num" }, t("table.count")),
    el("th", { scope: "col", class: "num" }, t(chips ? "table.this_hand" : "table.score")),
    el("th", { scope: "col", class: "num" }, chips ? unitTitle() : t("table.total")),
  );
  const rows = view.seats.map((s) => {
    const left = cardsLeft?.[s.seat] ?? [];
    const score = ended.scores?.[s.seat] ?? 0;
    const won = ended.winners.includes(s.seat);
    return el(
      "tr",
      { class: won ? "won" : null, "data-seat": String(s.seat) },
      el("th", { scope: "row" }, who(s.seat), isBot(s.seat) ? el("span", { class: "badge bot" }, t("table.bot")) : null, won && out && !left.length ? el("span", { class: "badge out" }, t("table.went_out")) : null),
      el("td", { class: "left" }, left.length ? cardRow(left) : el("span", { class: "hint" }, t("table.none"))),
      el("td", { class: "num count" }, String(ended.counts?.[s.seat] ?? left.length)),
      el("td", { class: "num score" }, chips ? signed(score) : String(score)),
      el("td", { class: "num total" }, String(ended.totals?.[s.seat] ?? view.totals?.[s.seat] ?? 0)),
    );
  });
  const how = !out && ended.reason ? t("table.how", { how: howWords(ended.how), reason: reasonWords(ended.reason) }) : null;
  return [
    el("p", { class: "headline", id: `${prefix}-headline` }, underTitle(handEndText(line), `${handName(ended.hand)}: `)),
    how ? el("p", { class: "hand-end-how", id: `${prefix}-how` }, how) : null,
    el("table", { class: "standings hand-end-table", id: `${prefix}-table` }, el("thead", {}, head), el("tbody", {}, rows)),
    game.hooks?.handEndMore?.(T, ended, prefix) ?? null,
  ];
}

/** What the game calls hand number `hand` ("Hand 3"; a renderer's handName hook: "Round 3"). */
function handName(hand) {
  return game.hooks?.handName?.(T, hand) ?? t("table.hand_n", { hand });
}

// -- between hands: the hand's summary, "Next hand" ---------------------------------------

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
  const line = ui.record.findLast?.((l) => l.type === "hand-end" && l.hand === ended.hand) ?? ended;
  const mine = me !== null && pause.waiting.includes(me);
  const waiting = pause.waiting.filter((s) => s !== me);
  $("between-title").textContent = handName(ended.hand);
  fill(
    $("between-body"),
    handSummary(view, ended, ended.cards_left ?? pause.cards_left, "hand-end"),
    el(
      "p",
      { class: "next-hand" },
      mine ? el("button", { type: "button", class: "gold", id: "next-hand", onclick: readyNext }, t("table.next_hand")) : null,
      el("span", { id: "next-countdown", class: "countdown" }),
      !mine && waiting.length ? el("span", { id: "next-waiting", class: "hint" }, t("table.waiting_for", { names: names(waiting) })) : null,
    ),
  );
  tickNext();
  box.hidden = false;
  if (first) box.querySelector(".sheet").scrollTop = 0; // a new hand's sheet opens at its top
  // Who is ready is no record line, yet the live stream tells of it, from whichever server process
  // noted it (PostgreSQL's NOTIFY; elsewhere the stream looks at the game's row): no polling here.
  if (first) announce(handEndText(line));
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
    else toast(t("table.not_heard", { reason: error.message }), { kind: "bad" });
  }
}

// -- the end: the standings, the checks, and the next table ------------------------------

/** "Play again" for the host; for another seat, once the host has, its link to the next table. */
function againControls(view) {
  const again = view.again;
  const close = el("button", { type: "button", class: "secondary", id: "end-close", onclick: () => (setEndShown("closed"), ($("end").hidden = true)) }, t("table.look_at_table"));
  const fresh = el("a", { class: "button secondary", href: "/" }, t("nav.new_table"));
  if (api.host && !again) return [el("button", { type: "button", class: "gold", id: "end-again", onclick: playAgain }, t("table.play_again")), close, fresh];
  if (again?.token !== undefined) {
    return [el("a", { class: "button gold", id: "end-join-next", href: seatLink(again.game_id, again.seat, again.token) }, t("table.join_next")), close, fresh];
  }
  if (again) return [el("a", { class: "button secondary", id: "end-watch-next", href: `/table/${encodeURIComponent(again.game_id)}` }, t("table.watch_next")), close, fresh];
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
    toast(t("table.no_new_table", { reason: error.message }), { kind: "bad" });
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

/** "1st", "2nd" ("1.", "2."): a place in the standings. */
function placeWord(p) {
  return p >= 1 && p <= 8 ? t(`table.place_${p}`) : t("table.place_n", { n: p });
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
  const firsts = standings.filter((r) => r.place === 1).map((r) => r.seat);
  const headline =
    view.status === "abandoned"
      ? t("table.abandoned")
      : firsts.length > 1
        ? t("table.share_first", { names: names(firsts) })
        : firsts[0] === me
          ? t("table.you_win")
          : t("table.wins", { name: who(firsts[0]) });
  const first = !ui.endShown;
  if (first) {
    setEndShown(true);
    hideTip();
    $("toast").hidden = true; // the dialog says it all
    if (standings.some((r) => r.place === 1 && r.seat === me)) sounds.win();
  }
  $("end-title").textContent = t(view.status === "abandoned" ? "table.game_abandoned" : "table.game_over");
  const focusedId = $("end").contains(document.activeElement) ? document.activeElement.id : null;
  // The last hand ends on its summary too (a match may be over after its first hand); the
  // standings follow it.
  const last = view.hands?.at(-1);
  const summary = last?.cards_left ? el("section", { class: "last-hand", id: "last-hand", "aria-labelledby": "last-hand-title" }, el("h3", { id: "last-hand-title" }, t("table.last_hand", { name: handName(last.hand) })), handSummary(view, last, last.cards_left, "last-hand")) : null;
  fill(
    $("end-body"),
    el("p", { class: "headline", id: "winner" }, headline),
    summary,
    summary && standings.length ? el("h3", { id: "standings-title" }, t("table.standings")) : null,
    standings.length
      ? el(
          "table",
          { class: "standings", id: "standings" },
          el("thead", {}, el("tr", {}, el("th", {}, t("table.place")), el("th", {}, t("table.player")), el("th", { class: "num" }, unitTitle()))),
          el(
            "tbody",
            {},
            standings.map((r) =>
              el("tr", { class: r.place === 1 ? "first" : null }, el("td", {}, shared(r.place) ? t("table.place_shared", { place: placeWord(r.place) }) : placeWord(r.place)), el("td", {}, who(r.seat), isBot(r.seat) ? el("span", { class: "badge bot" }, t("table.bot")) : null), el("td", { class: "num" }, String(r.total))),
            ),
          ),
        )
      : null,
    (view.hands ?? []).length > 1 ? el("details", { class: "end-hands" }, el("summary", {}, t("table.hand_by_hand")), scoresTable(view, "end-hands")) : null,
    el("p", {}, t("table.check_yourself")),
    // The dialog's controls, kept in sight at its foot on a short screen (table-screens.css).
    el(
      "div",
      { class: "sheet-actions" },
      el(
        "p",
        { class: "end-actions" },
        el("a", { class: "button gold", href: `/verify?game=${encodeURIComponent(gameId)}`, id: "end-verify" }, t("table.verify_game")),
        view.status === "over" ? el("a", { class: "button secondary", href: `/replay?game=${encodeURIComponent(gameId)}`, id: "end-replay" }, t("table.replay_hands")) : null,
        el("button", { type: "button", class: "secondary", id: "end-download", onclick: downloadRecord }, t("table.download")),
      ),
      el("p", { class: "end-actions" }, ...againControls(view)),
    ),
  );
  watchForAgain(view);
  $("end").hidden = false;
  // It opens at its top (its title and headline in sight; the controls stay in sight at its foot).
  if (first) $("end").querySelector(".sheet").scrollTop = 0;
  // A redraw replaces the buttons: the focus stays where it was (on Verify the first time).
  const focus = first ? $("end-verify") : focusedId ? $(focusedId) : null;
  focus?.focus({ preventScroll: true });
}
