// The run games at the table: Sequence here; Michigan and its kin (michigan.js) and
// Commit (commit.js) draw the same runs with their own words. The runs, the cards
// that carry the run on (`table.next`), the layout and its pair, the extra hand or
// the stops come in the view; who holds the next card is whose turn it is.

import { cardName, display, suitSymbol } from "../cards.js";
import * as i18n from "../i18n.js";
import { cardBack, cardFace, el, fill } from "../ui.js";
import { andList, leads, orList, suitWords } from "./phrases.js";

/** Its style sheet, sequence.css, for every game drawn with these runs (catalogue.js's rendererOf loads it). */
export const css = ["sequence"];

/** A few cards face down, with how many: Michigan's extra (or dead) hand, Commit's stops. */
function faceDown(count, label, id) {
  return el(
    "div",
    { class: "face-down", id, role: "img", "aria-label": i18n.t("sequence.face_down", { label, count }) },
    el("span", { class: "stack small", "aria-hidden": "true" }, Array.from({ length: Math.min(3, count) }, () => cardBack())),
    el("span", { class: "face-down-label" }, label, el("b", {}, ` ${count}`)),
  );
}

function layoutList(T) {
  const t = T.view.table;
  const pair = new Set(t.pair ?? []);
  const together = andList([...pair].map(display));
  return el(
    "ul",
    { class: "layout", id: "layout", "aria-label": i18n.t("sequence.layout", { unit: T.stake(2) }) },
    Object.entries(t.layout).map(([code, n]) =>
      el(
        "li",
        { "data-code": code, class: pair.has(code) ? "pair" : null, "aria-label": i18n.t(pair.has(code) ? "sequence.pay_pair" : "sequence.pay_card", { card: cardName(code), n, unit: T.stake(n), pair: together }) },
        cardFace(code, { attrs: { "aria-hidden": "true" } }),
        el("span", { class: "counters", "aria-hidden": "true", title: `${n} ${T.stake(n)}` }, String(n)),
      ),
    ),
  );
}

function bidsList(T) {
  const t = T.view.table;
  return el(
    "ul",
    { class: "bids", id: "bids", "aria-label": i18n.t("sequence.bids") },
    (t.bids ?? []).map((b) => el("li", {}, b.bid === null ? i18n.t("sequence.bid_pass", { name: T.who(b.seat) }) : i18n.t("sequence.bid", { name: T.who(b.seat), n: b.bid }))),
    // "You bid next" / "Ann bids next": a sentence either way.
    el("li", { class: "hint" }, t.turn === T.me ? i18n.t("sequence.you_bid_next") : i18n.t("sequence.bids_next", { name: T.who(t.turn) })),
  );
}

/**
 * A run game's table. `words` holds what differs: `deadLabel(T)` (the cards out of play),
 * `thenWords(T)` (after "Play X then Y"), `leadStatus(T)` (a lead due on this seat),
 * `phaseStatus(T)` (Michigan's say about the extra hand), `keyWords`, and any other hook.
 */
export function runGame(words = {}) {
  const deadLabel = words.deadLabel ?? (() => i18n.t("sequence.out_of_play"));

  function drawRuns(T) {
    const view = T.view;
    const t = view.table;
    const parts = [];
    if (t.layout) parts.push(layoutList(T));
    const side = [];
    if (t.dead_size) side.push(faceDown(t.dead_size, deadLabel(T), "dead"));
    // The bids while the auction lasts (the play log keeps them after).
    if (t.phase === "auction") side.push(bidsList(T));
    if (t.discarded?.length) {
      side.push(el("div", { class: "discarded", id: "discarded", "aria-label": i18n.t("sequence.discarded", { cards: t.discarded.map(cardName).join(", ") }) }, el("span", { class: "hint" }, i18n.t("sequence.your_dead_hand")), el("span", { class: "run mini" }, t.discarded.map((c) => cardFace(c)))));
    }
    // The layout and what lies beside the runs share one row, to leave the felt's height to the runs.
    if (side.length || parts.length) parts.splice(0, parts.length, el("div", { class: "board-side" }, parts, side));
    const runs = t.runs ?? [];
    const going = t.current !== null && runs.length ? runs.at(-1) : null;
    const done = going ? runs.slice(0, -1) : runs;
    const next = t.next ?? [];
    parts.push(
      el(
        "ol",
        { class: "runs-done", id: "runs-done", "aria-label": done.length ? i18n.t("sequence.runs_played", { n: done.length }) : i18n.t("sequence.no_run_yet") },
        done.map((run) => el("li", { "aria-label": i18n.t("game.from_to", { from: display(run[0]), to: display(run.at(-1)) }) }, el("span", { class: "run mini" }, run.map((c) => cardFace(c))))),
      ),
    );
    parts.push(
      el(
        "div",
        { class: "run-now", id: "run-now", role: "group", "aria-label": going ? i18n.t("sequence.run", { cards: going.map(display).join(" "), next: orList(next.map(display)) || i18n.t("sequence.none") }) : i18n.t("sequence.lead_due") },
        going
          ? [el("span", { class: "run" }, going.map((c) => cardFace(c))), next.length ? el("span", { class: "card ghost next", "aria-hidden": "true" }, next.map(display).join("/")) : null]
          : el("span", { class: "card ghost", "aria-hidden": "true" }, t.stopped ? suitSymbol(t.stopped) : "…"),
        // The status line says whose turn it is; a spectator reads it here.
        T.me === null ? el("span", { class: "by" }, caption(T, going, next)) : null,
      ),
    );
    fill(T.$("board"), parts);
    return "board";
  }

  function caption(T, going, next) {
    const t = T.view.table;
    const phase = words.phaseCaption?.(T);
    if (phase) return phase;
    if (t.turn === null || t.turn === undefined) return "";
    const said = { name: T.who(t.turn), cards: orList(next.map(display)), suit: t.stopped ? suitWords(t.stopped) : "" };
    if (t.turn === T.me) {
      if (going) return i18n.t("sequence.you_hold", said);
      if (t.privilege) return i18n.t("sequence.you_spun", said);
      return t.stopped ? i18n.t("sequence.you_lead_not", said) : leads(T, t.turn);
    }
    if (going) return i18n.t("sequence.holds", said);
    if (t.privilege) return i18n.t("sequence.spun", said);
    return t.stopped ? i18n.t("sequence.leads_not", said) : leads(T, t.turn);
  }

  function status(T) {
    const view = T.view;
    const t = view.table;
    const phase = words.phaseStatus?.(T);
    if (phase) return phase;
    const next = t.next ?? [];
    if (!T.myTurn()) {
      if (view.turn === null || view.turn === undefined) return "";
      return t.current ? i18n.t("sequence.others_hold", { turn: T.othersTurn(), cards: orList(next.map(display)) }) : i18n.t("game.others_lead", { turn: T.othersTurn() });
    }
    const plays = [...new Set((view.legal_moves ?? []).filter((m) => m.move === "play").map((m) => m.card))];
    const seconds = [...new Set((view.legal_moves ?? []).filter((m) => m.then).map((m) => m.then))];
    const extra = seconds.length ? ` ${i18n.t("sequence.then_adds", { cards: `${orList(seconds.map(display))}${words.thenWords?.(T) ?? ""}` })}` : "";
    if (t.current) return `${i18n.t("sequence.your_turn", { cards: orList(plays.map(display)) })}${extra}`;
    if (t.privilege) return `${i18n.t("sequence.spin")}${extra}`;
    const lead = words.leadStatus?.(T);
    if (lead) return `${lead}${extra}`;
    if (t.stopped) return `${i18n.t("sequence.stopped", { suit: suitWords(t.stopped) })}${extra}`;
    return `${i18n.t("sequence.lead_lowest")}${extra}`;
  }

  return {
    drawTable: drawRuns,
    status,
    ...words,
  };
}

export default runGame({
  scoresHint: (T) => `${i18n.t("sequence.scores")}${T.sessionWords()}`,
});

/** What the verify page says of a Sequence deal: each seat's cards left are the points it loses. */
export const verifyWords = {
  leftLabel: i18n.t("game.cards_left"),
  resultText: (report, hand, names) => (hand.result.how === "out" ? i18n.t("sequence.went_out", { name: names[0] }) : null),
};
