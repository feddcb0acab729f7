// Go Boom at the table (and Hollywood Go Boom): the stock and the round's cards,
// each with who played it; the last is the one to match (the view's `previous`).

import { cardName, display } from "../cards.js";
import { stockButton } from "../render.js";
import { cardFace, el, fill } from "../ui.js";
import { stockText } from "./crazy_eights.js";
import { hollywoodGames, hollywoodHint } from "./hollywood.js";

/** The round's style sheet, round.css (catalogue.js's rendererOf loads it before the first drawing). */
export const css = ["round"];

function drawRound(T) {
  const t = T.view.table;
  const plays = t.round;
  const round = el(
    "ol",
    { class: "round", id: "round", "aria-label": plays.length ? `This round: ${plays.map((p) => `${T.who(p.seat)} ${cardName(p.card)}`).join(", ")}` : "A new round" },
    plays.length
      ? plays.map((p, i) => el("li", { class: i === plays.length - 1 ? "last" : null }, cardFace(p.card), el("span", { class: "by" }, T.who(p.seat))))
      : el("li", { class: "leads" }, el("span", { class: "card ghost", "aria-hidden": "true" }), el("span", { class: "by" }, `${T.who(t.leader)} lead${t.leader === T.me ? "" : "s"}`)),
  );
  fill(T.$("stock-pile"), stockButton(T), round);
  return "stock-pile";
}

function status(T) {
  const t = T.view.table;
  if (!T.myTurn()) return T.othersTurn() ? `${T.othersTurn()}.` : "";
  if (t.previous && T.legal("play")) return `Your turn: match ${display(t.previous)} in suit or rank.`;
  if (t.previous) return T.legal("draw") ? `Nothing matches ${display(t.previous)}: draw until a card does.` : "Nothing matches and the stock is gone: pass.";
  return "Your turn: lead any card.";
}

export default {
  drawTable: drawRound,
  status,
  stockText: (T) => stockText(T),
  scoresExtra: hollywoodGames,
  scoresHint: hollywoodHint,
};
