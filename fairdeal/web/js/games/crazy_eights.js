// Crazy Eights at the table: the stock and the pile, what the status line and the
// keys say. The same drawing serves the Eights games (eights.js) and Go Boom's
// stock (go_boom.js). What fits the pile comes in the view (`table.next`: the
// suit, the rank and the wild rank, as the rules say); the legal moves say the rest.

import { cardName, display, isRed, suitName, suitSymbol } from "../cards.js";
import { aRank, stockButton } from "../render.js";
import { cardBack, cardFace, el, fill } from "../ui.js";

/** "a heart": one card of a suit, as the status line says it ("a 10", "an ace": render.js's aRank). */
function aSuit(letter) {
  return `a ${suitName(letter).slice(0, -1)}`;
}

/** What may go on the pile, in words, from the view's `next` ({suit, rank, wild}). */
export function wantsText(next, { named = false } = {}) {
  const parts = [named ? `${aSuit(next.suit)} (named)` : aSuit(next.suit)];
  if (next.rank && next.rank !== next.wild) parts.push(aRank(next.rank));
  if (next.wild) parts.push(next.wild === "8" ? "an eight" : aRank(next.wild));
  return parts.length > 2 ? `${parts.slice(0, -1).join(", ")} or ${parts.at(-1)}` : parts.join(" or ");
}

/** What pointing at the stock says: how many, and whether (and how) a draw goes. */
export function stockText(T, { stopAtFit = false } = {}) {
  const t = T.view?.table;
  if (!t) return "";
  const base = `The stock: ${t.stock_size} card${t.stock_size === 1 ? "" : "s"}.`;
  if (T.view.status !== "playing") return base;
  if (!T.myTurn()) return `${base} It is not your turn.`;
  if (T.view.pending) return `${base} You must play or keep the card you drew (${display(T.view.pending)}).`;
  if (!T.legal("draw")) return `${base} There is nothing to draw: the stock is empty and the pile has only its top card.`;
  if (t.stock_size === 0) return `${base} Drawing shuffles the pile under its top card into a new stock.`;
  return `${base} Tap to draw (D).${stopAtFit ? " Stop at the first card that fits." : ""}`;
}

function pileText(T) {
  const t = T.view?.table;
  if (!t) return "";
  const top = `${cardName(t.top)} (${display(t.top)})`;
  const named = t.named ? ` named ${suitName(t.named)} ${suitSymbol(t.named)}` : "";
  return `The pile: ${t.pile_size} card${t.pile_size === 1 ? "" : "s"}, on top ${top}${named}. Next: ${wantsText(t.next)}.`;
}

function drawPile(T) {
  const t = T.view.table;
  const stock = stockButton(T);
  const fresh = T.ui.lastTop !== null && T.ui.lastTop !== `${t.top}/${t.pile_size}`;
  T.ui.lastTop = `${t.top}/${t.pile_size}`;
  const under = t.pile_size > 1 ? el("span", { class: "under", "aria-hidden": "true" }, cardBack(), cardBack()) : null;
  const pile = el(
    "div",
    { class: "pile", id: "pile", tabindex: "0", role: "img", "aria-label": `Pile: ${cardName(t.top)}${t.named ? `, ${suitName(t.named)} named` : ""}` },
    under,
    cardFace(t.top, { attrs: { class: `card ${isRed(t.top) ? "red" : "black"} top${fresh ? " fresh" : ""}` } }),
    t.named ? el("span", { class: `token ${isRed(t.named) ? "red" : "black"}`, "aria-hidden": "true", title: `${suitName(t.named)} named` }, suitSymbol(t.named)) : null,
  );
  T.explainOn(pile, () => pileText(T));
  fill(T.$("stock-pile"), stock, pile);
  return "stock-pile";
}

function status(T) {
  const view = T.view;
  const t = view.table;
  if (!T.myTurn()) return T.othersTurn() ? `${T.othersTurn()}.` : "";
  if (view.pending) return `You drew ${display(view.pending)} and it fits: play it or keep it.`;
  if (T.legal("draw") && !T.legal("play")) return t.drawn ? "No fit yet: draw again." : "Nothing in your hand fits: draw from the stock.";
  if (T.legal("pass")) return "Nothing fits and nothing is left to draw: pass.";
  return `Your turn: play ${wantsText(t.next, { named: Boolean(t.named) })}${T.legal("draw") ? " — or draw" : ""}.`;
}

/** A draw-pile game's table: `stopAtFit` says the draw ends at the first card that fits. */
export function pileGame({ stopAtFit = false, ...more } = {}) {
  return {
    drawTable: drawPile,
    status,
    keyLines: () => ["1–4 name a suit"], // an eight is played with the suit it names
    stockText: (T) => stockText(T, { stopAtFit }),
    labels: { keep: "Keep it" },
    ...more,
  };
}

export default pileGame({ stopAtFit: true });
