// The run games at the table: Sequence here; Michigan and its kin (michigan.js) and
// Commit (commit.js) draw the same runs with their own words. The runs, the cards
// that carry the run on (`table.next`), the layout and its pair, the extra hand or
// the stops come in the view; who holds the next card is whose turn it is.

import { cardName, display, suitName, suitSymbol } from "../cards.js";
import { cardBack, cardFace, el, fill } from "../ui.js";

/** Its style sheet, sequence.css, for every game drawn with these runs (catalogue.js's rendererOf loads it). */
export const css = ["sequence"];

/** A few cards face down, with how many: Michigan's extra (or dead) hand, Commit's stops. */
function faceDown(count, label, id) {
  return el(
    "div",
    { class: "face-down", id, role: "img", "aria-label": `${label}: ${count} card${count === 1 ? "" : "s"} face down` },
    el("span", { class: "stack small", "aria-hidden": "true" }, Array.from({ length: Math.min(3, count) }, () => cardBack())),
    el("span", { class: "face-down-label" }, label, el("b", {}, ` ${count}`)),
  );
}

function layoutList(T) {
  const t = T.view.table;
  const pair = new Set(t.pair ?? []);
  const together = [...pair].map(display).join(" and ");
  return el(
    "ul",
    { class: "layout", id: "layout", "aria-label": `The layout: ${T.stake(2)} on the pay cards` },
    Object.entries(t.layout).map(([code, n]) =>
      el(
        "li",
        { "data-code": code, class: pair.has(code) ? "pair" : null, "aria-label": `${cardName(code)}: ${n} ${T.stake(n)}${pair.has(code) ? `, paid only to a player who plays both ${together}` : ""}` },
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
    { class: "bids", id: "bids", "aria-label": "Bids for the extra hand" },
    (t.bids ?? []).map((b) => el("li", {}, `${T.who(b.seat)}: ${b.bid === null ? "pass" : `bid ${b.bid}`}`)),
    // "You bid next" / "Ann bids next": a sentence either way.
    el("li", { class: "hint" }, t.turn === T.me ? "You bid next…" : `${T.who(t.turn)} bids next…`),
  );
}

/**
 * A run game's table. `words` holds what differs: `deadLabel(T)` (the cards out of play),
 * `thenWords(T)` (after "Play X then Y"), `leadStatus(T)` (a lead due on this seat),
 * `phaseStatus(T)` (Michigan's say about the extra hand), `keyWords`, and any other hook.
 */
export function runGame(words = {}) {
  const deadLabel = words.deadLabel ?? (() => "Out of play");

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
      side.push(el("div", { class: "discarded", id: "discarded", "aria-label": `The hand you put aside (dead): ${t.discarded.map(cardName).join(", ")}` }, el("span", { class: "hint" }, "Your dead hand"), el("span", { class: "run mini" }, t.discarded.map((c) => cardFace(c)))));
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
        { class: "runs-done", id: "runs-done", "aria-label": done.length ? `Runs played: ${done.length}` : "No run stopped yet" },
        done.map((run) => el("li", { "aria-label": `${display(run[0])} to ${display(run.at(-1))}` }, el("span", { class: "run mini" }, run.map((c) => cardFace(c))))),
      ),
    );
    parts.push(
      el(
        "div",
        { class: "run-now", id: "run-now", role: "group", "aria-label": going ? `The run: ${going.map(display).join(" ")}; next ${next.map(display).join(" or ") || "none"}` : "A lead is due" },
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
    const mine = t.turn === T.me;
    if (going) return `${T.who(t.turn)} hold${mine ? "" : "s"} ${next.map(display).join(" or ")}: ${mine ? "your" : "their"} turn (turns follow the cards)`;
    if (t.privilege) return `${T.who(t.turn)} spun and lead${mine ? "" : "s"}: a pay card or a new suit`;
    return `${T.who(t.turn)} lead${mine ? "" : "s"}${t.stopped ? ` (not ${suitName(t.stopped)}: that run stopped)` : ""}`;
  }

  function status(T) {
    const view = T.view;
    const t = view.table;
    const phase = words.phaseStatus?.(T);
    if (phase) return phase;
    const next = t.next ?? [];
    if (!T.myTurn()) {
      if (view.turn === null || view.turn === undefined) return "";
      return t.current ? `${T.othersTurn()}: they hold ${next.map(display).join(" or ")}, the next card.` : `${T.othersTurn()}: they lead.`;
    }
    const plays = [...new Set((view.legal_moves ?? []).filter((m) => m.move === "play").map((m) => m.card))];
    const seconds = [...new Set((view.legal_moves ?? []).filter((m) => m.then).map((m) => m.then))];
    const extra = seconds.length ? ` Lift it, then T adds ${seconds.map(display).join(" or ")}${words.thenWords?.(T) ?? ""}.` : "";
    if (t.current) return `Your turn: play ${plays.map(display).join(" or ")}, the next card.${extra}`;
    if (t.privilege) return `Spin! Lead a pay card or your lowest card of a new suit.${extra}`;
    const lead = words.leadStatus?.(T);
    if (lead) return `${lead}${extra}`;
    if (t.stopped) return `The ${suitName(t.stopped)} run stopped: lead your lowest card of another suit.${extra}`;
    return `Your turn: lead your lowest card of a suit.${extra}`;
  }

  return {
    drawTable: drawRuns,
    status,
    ...words,
  };
}

export default runGame({
  scoresHint: (T) => `Points lost in each deal, a point for every card left.${T.sessionWords()}`,
});

/** What the verify page says of a Sequence deal: each seat's cards left are the points it loses. */
export const verifyWords = {
  leftLabel: "Cards left",
  resultText: (report, hand, names) => (hand.result.how === "out" ? `${names[0]} went out; every other player loses a point per card left.` : null),
};
