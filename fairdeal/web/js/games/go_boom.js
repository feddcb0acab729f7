// Go Boom at the table (and Hollywood Go Boom): the stock and the round's cards,
// each with who played it; the last is the one to match (the view's `previous`).

import { cardName, display } from "../cards.js";
import * as i18n from "../i18n.js";
import { stockButton } from "../render.js";
import { cardFace, el, fill } from "../ui.js";
import { stockText } from "./crazy_eights.js";
import { hollywoodGames, hollywoodHint } from "./hollywood.js";
import { leads } from "./phrases.js";

/** The round's style sheet, round.css (catalogue.js's rendererOf loads it before the first drawing). */
export const css = ["round"];

function drawRound(T) {
  const t = T.view.table;
  const plays = t.round;
  const round = el(
    "ol",
    { class: "round", id: "round", "aria-label": plays.length ? i18n.t("go_boom.round", { plays: plays.map((p) => `${T.who(p.seat)} ${cardName(p.card)}`).join(", ") }) : i18n.t("go_boom.new_round") },
    plays.length
      ? plays.map((p, i) => el("li", { class: i === plays.length - 1 ? "last" : null }, cardFace(p.card), el("span", { class: "by" }, T.who(p.seat))))
      : el("li", { class: "leads" }, el("span", { class: "card ghost", "aria-hidden": "true" }), el("span", { class: "by" }, leads(T, t.leader))),
  );
  fill(T.$("stock-pile"), stockButton(T), round);
  return "stock-pile";
}

function status(T) {
  const t = T.view.table;
  if (!T.myTurn()) return T.othersTurn() ? `${T.othersTurn()}.` : "";
  if (t.previous && T.legal("play")) return i18n.t("go_boom.match", { card: display(t.previous) });
  if (t.previous) return T.legal("draw") ? i18n.t("go_boom.draw", { card: display(t.previous) }) : i18n.t("go_boom.pass");
  return i18n.t("game.lead_any");
}

export default {
  drawTable: drawRound,
  status,
  stockText: (T) => stockText(T),
  scoresExtra: hollywoodGames,
  scoresHint: hollywoodHint,
};
