// Rolling Stone at the table: the trick so far, the suit led, what was put aside,
// and how the last trick ended; a seat that cannot follow picks the trick up (its pass).

import { cardName, display, suitSymbol } from "../cards.js";
import * as i18n from "../i18n.js";
import { cardFace, el, fill } from "../ui.js";
import { aSuit, leads, suitWords, theRanks } from "./phrases.js";

/** The trick is a round of plays: round.css (catalogue.js's rendererOf loads it before the first drawing). */
export const css = ["round"];

function lastTrickText(T, last) {
  const said = { plays: last.plays.map((p) => `${T.who(p.seat)} ${display(p.card)}`).join(", "), name: T.who(last.by) };
  const mine = last.by === T.me;
  if (last.end === "aside") return mine ? i18n.t("rolling_stone.aside_you_lead", said) : i18n.t("rolling_stone.aside", said);
  if (last.end === "picked-up") return mine ? i18n.t("rolling_stone.you_picked_up", said) : i18n.t("rolling_stone.picked_up", said);
  return mine ? i18n.t("rolling_stone.you_went_out", said) : i18n.t("rolling_stone.went_out", said);
}

function drawTrick(T) {
  const t = T.view.table;
  const trick = el(
    "ol",
    { class: "round trick", id: "trick", "aria-label": t.trick.length ? i18n.t("rolling_stone.trick", { plays: t.trick.map((p) => `${T.who(p.seat)} ${cardName(p.card)}`).join(", ") }) : i18n.t("rolling_stone.new_trick") },
    t.trick.length
      ? t.trick.map((p, i) => el("li", { class: i === t.trick.length - 1 ? "last" : null }, cardFace(p.card), el("span", { class: "by" }, T.who(p.seat))))
      : el("li", { class: "leads" }, el("span", { class: "card ghost", "aria-hidden": "true" }), el("span", { class: "by" }, t.turn === null ? "" : leads(T, t.turn))),
  );
  const led = t.led ? el("p", { class: "wanted", id: "led" }, capital(i18n.t("rolling_stone.led", { suit: suitWords(t.led), symbol: suitSymbol(t.led) }))) : null;
  const last = t.last ? el("p", { class: "hint", id: "last-trick" }, lastTrickText(T, t.last)) : null;
  fill(T.$("board"), trick, led, el("p", { class: "hint aside-count" }, i18n.t("rolling_stone.aside_count", { count: t.aside, tricks: t.tricks })), last);
  return "board";
}

/** "Hearts ♥ led: …": a sentence that begins with a suit's word. */
function capital(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function status(T) {
  const t = T.view.table;
  if (!T.myTurn()) return T.othersTurn() ? `${T.othersTurn()}.` : "";
  if (!t.led) return i18n.t("game.lead_any");
  if (T.legal("play")) return i18n.t("rolling_stone.follow", { card: aSuit(t.led) });
  return i18n.t("rolling_stone.pick_up", { suit: suitWords(t.led) });
}

export default {
  drawTable: drawTrick,
  status,
  passLabel: () => i18n.t("rolling_stone.pass"),
  moveWords: (line) => (line.move === "pass" ? i18n.t("rolling_stone.passed") : null),
  scoresHint: (T) => `${i18n.t("rolling_stone.scores")}${T.sessionWords()}`,
  keyWords: { pass: i18n.t("rolling_stone.key_pass") },
};

/** What the verify page says of a Rolling Stone deal: how the pack was cut down. */
export const verifyWords = {
  packNote: (report) => {
    const n = report.seats.length;
    return i18n.t("rolling_stone.pack", { ranks: theRanks({ 4: "7", 5: "5", 6: "3" }[n]), cards: 8 * n });
  },
};
