// Crazy Eights at the table: the stock and the pile, what the status line and the
// keys say. The same drawing serves the Eights games (eights.js) and Go Boom's
// stock (go_boom.js). What fits the pile comes in the view (`table.next`: the
// suit, the rank and the wild rank, as the rules say); the legal moves say the rest.

import { cardName, display, isRed, suitSymbol } from "../cards.js";
import * as i18n from "../i18n.js";
import { stockButton } from "../render.js";
import { cardBack, cardFace, el, fill } from "../ui.js";
import { aRank, aSuit, suitWords, stockWords } from "./phrases.js";

/** What may go on the pile, in words, from the view's `next` ({suit, rank, wild}). */
export function wantsText(next, { named = false } = {}) {
  const parts = [named ? i18n.t("crazy_eights.named", { suit: aSuit(next.suit) }) : aSuit(next.suit)];
  if (next.rank && next.rank !== next.wild) parts.push(aRank(next.rank));
  if (next.wild) parts.push(next.wild === "8" ? i18n.t("crazy_eights.an_eight") : aRank(next.wild));
  return parts.length > 1 ? i18n.t("game.either", { first: parts.slice(0, -1).join(", "), then: parts.at(-1) }) : parts[0];
}

/** What pointing at the stock says: how many, and whether (and how) a draw goes. */
export function stockText(T, { stopAtFit = false } = {}) {
  const t = T.view?.table;
  if (!t) return "";
  const base = stockWords(t.stock_size);
  if (T.view.status !== "playing") return base;
  if (!T.myTurn()) return `${base} ${i18n.t("game.not_your_turn")}`;
  if (T.view.pending) return `${base} ${i18n.t("crazy_eights.must_play_or_keep", { card: display(T.view.pending) })}`;
  if (!T.legal("draw")) return `${base} ${i18n.t("crazy_eights.nothing_to_draw")}`;
  if (t.stock_size === 0) return `${base} ${i18n.t("crazy_eights.draw_restocks")}`;
  return `${base} ${i18n.t("game.tap_to_draw")}${stopAtFit ? ` ${i18n.t("crazy_eights.stop_at_fit")}` : ""}`;
}

function pileText(T) {
  const t = T.view?.table;
  if (!t) return "";
  const card = `${cardName(t.top)} (${display(t.top)})`;
  const top = t.named ? i18n.t("crazy_eights.top_named", { card, suit: suitWords(t.named), symbol: suitSymbol(t.named) }) : card;
  return i18n.t("crazy_eights.pile", { count: t.pile_size, top, next: wantsText(t.next) });
}

function drawPile(T) {
  const t = T.view.table;
  const stock = stockButton(T);
  const fresh = T.ui.lastTop !== null && T.ui.lastTop !== `${t.top}/${t.pile_size}`;
  T.ui.lastTop = `${t.top}/${t.pile_size}`;
  const under = t.pile_size > 1 ? el("span", { class: "under", "aria-hidden": "true" }, cardBack(), cardBack()) : null;
  const pile = el(
    "div",
    { class: "pile", id: "pile", tabindex: "0", role: "img", "aria-label": t.named ? i18n.t("game.pile_named", { card: cardName(t.top), suit: suitWords(t.named) }) : i18n.t("game.pile", { card: cardName(t.top) }) },
    under,
    cardFace(t.top, { attrs: { class: `card ${isRed(t.top) ? "red" : "black"} top${fresh ? " fresh" : ""}` } }),
    t.named ? el("span", { class: `token ${isRed(t.named) ? "red" : "black"}`, "aria-hidden": "true", title: i18n.t("game.suit_named", { suit: suitWords(t.named) }) }, suitSymbol(t.named)) : null,
  );
  T.explainOn(pile, () => pileText(T));
  fill(T.$("stock-pile"), stock, pile);
  return "stock-pile";
}

function status(T) {
  const view = T.view;
  const t = view.table;
  if (!T.myTurn()) return T.othersTurn() ? `${T.othersTurn()}.` : "";
  if (view.pending) return i18n.t("crazy_eights.drew_fits", { card: display(view.pending) });
  if (T.legal("draw") && !T.legal("play")) return t.drawn ? i18n.t("crazy_eights.no_fit_yet") : i18n.t("crazy_eights.nothing_fits");
  if (T.legal("pass")) return i18n.t("crazy_eights.pass");
  const wants = wantsText(t.next, { named: Boolean(t.named) });
  return T.legal("draw") ? i18n.t("crazy_eights.your_turn_or_draw", { wants }) : i18n.t("crazy_eights.your_turn", { wants });
}

/** A draw-pile game's table: `stopAtFit` says the draw ends at the first card that fits. */
export function pileGame({ stopAtFit = false, ...more } = {}) {
  return {
    drawTable: drawPile,
    status,
    keyLines: () => [i18n.t("game.keys_suit")], // an eight is played with the suit it names
    stockText: (T) => stockText(T, { stopAtFit }),
    labels: { keep: i18n.t("crazy_eights.keep_it") },
    ...more,
  };
}

export default pileGame({ stopAtFit: true });
