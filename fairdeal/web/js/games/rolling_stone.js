// Rolling Stone at the table: the trick so far, the suit led, what was put aside,
// and how the last trick ended; a seat that cannot follow picks the trick up (its pass).

import { cardName, display, suitName, suitSymbol } from "../cards.js";
import { cardFace, el, fill } from "../ui.js";

/** The trick is a round of plays: round.css (catalogue.js's rendererOf loads it before the first drawing). */
export const css = ["round"];

function lastTrickText(T, last) {
  const plays = last.plays.map((p) => `${T.who(p.seat)} ${display(p.card)}`).join(", ");
  if (last.end === "aside") return `Last trick: ${plays}; all followed, put aside; ${T.who(last.by)} lead${last.by === T.me ? "" : "s"}.`;
  if (last.end === "picked-up") return `Last trick: ${plays}; ${T.who(last.by)} could not follow and picked it up.`;
  return `Last trick: ${plays}; ${T.who(last.by)} went out.`;
}

function drawTrick(T) {
  const t = T.view.table;
  const trick = el(
    "ol",
    { class: "round trick", id: "trick", "aria-label": t.trick.length ? `This trick: ${t.trick.map((p) => `${T.who(p.seat)} ${cardName(p.card)}`).join(", ")}` : "A new trick" },
    t.trick.length
      ? t.trick.map((p, i) => el("li", { class: i === t.trick.length - 1 ? "last" : null }, cardFace(p.card), el("span", { class: "by" }, T.who(p.seat))))
      : el("li", { class: "leads" }, el("span", { class: "card ghost", "aria-hidden": "true" }), el("span", { class: "by" }, t.turn === null ? "" : `${T.who(t.turn)} lead${t.turn === T.me ? "" : "s"}`)),
  );
  const led = t.led ? el("p", { class: "wanted", id: "led" }, `${suitName(t.led)[0].toUpperCase()}${suitName(t.led).slice(1)} ${suitSymbol(t.led)} led: follow suit, or pick up the trick`) : null;
  const last = t.last ? el("p", { class: "hint", id: "last-trick" }, lastTrickText(T, t.last)) : null;
  fill(T.$("board"), trick, led, el("p", { class: "hint aside-count" }, `Put aside: ${t.aside} card${t.aside === 1 ? "" : "s"} · tricks: ${t.tricks}`), last);
  return "board";
}

function status(T) {
  const t = T.view.table;
  if (!T.myTurn()) return T.othersTurn() ? `${T.othersTurn()}.` : "";
  if (!t.led) return "Your turn: lead any card.";
  if (T.legal("play")) return `Your turn: follow suit with a ${suitName(t.led).slice(0, -1)}.`;
  return `You hold no ${suitName(t.led)}: pick up the trick, then lead.`;
}

export default {
  drawTable: drawTrick,
  status,
  passLabel: () => "Pick up the trick",
  moveWords: (line) => (line.move === "pass" ? "could not follow and picked up the trick" : null),
  scoresHint: (T) => `Deals won: the first out wins the deal.${T.sessionWords()}`,
  keyWords: { pass: "P picks up the trick" },
};

/** What the verify page says of a Rolling Stone deal: how the pack was cut down. */
export const verifyWords = {
  packNote: (report) => {
    const n = report.seats.length;
    return `The pack is cut down to the aces to the ${{ 4: "7", 5: "5", 6: "3" }[n]}s (${8 * n} cards, eight each), shuffled from card order.`;
  },
};
