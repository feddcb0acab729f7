// What a game's renderer (js/games/<module>.js) is handed: the helper object `T`, shared by
// the live table (table.js, js/table/state.js) and the hand replayer (replay.js).
//
// A renderer's hooks take `T`: drawTable(T) fills the middle of the table (the element
// T.$("stock-pile"), T.$("rows") or T.$("board")) and returns the id it used; status(T) is
// the status line; and, if the game has its own words, keyWords, keyLines(T), keys(T), passLabel(T), labels,
// thenWords(T), moveWords(line, T), lineWords(line, T), handEndWords(line, T), stockText(T),
// scoresHint(T), scoresExtra(T), emptyHand(T). A game with controls of its own has
// actions(T) (the buttons under the hand), tapCard(code, copy, T) and handCard(code, copy, T)
// (a tap on a card of the hand, and the mark a chosen card wears: "1", "2"...; `copy` tells
// two cards of one code apart), cardHint(code, T) (what pointing at a playable card says),
// key(event, T) (true: the key was the game's), and dealerSeat(T) and seatBadges(seat, T)
// (who wears the dealer's chip, a seat's other marks). For the live table's motion (motion.js),
// landing(line, T) is the element a played card flies to (a row, the mainline's end; else the
// pile or the middle), and playedCards(line, T) the cards a move of the game's own puts down.
// What renderers share is here too: stockButton(T), the stock (`table.stock_size`) a tap draws from.
// A renderer that styles parts of its own exports `css`, its style sheets beside it in js/games/
// (catalogue.js's rendererOf loads them before the first drawing).
//
//   const T = rendererKit({ view: () => ui.view, entry: () => game.entry, hooks: () => game.hooks, me, ui });
//   game.hooks.drawTable(T);
//
// `view` is a seat's view as the service shows it (its `table` is the rules' view), or a
// spectator's; a page that lets its seat act passes its own legal(), myTurn(), draw(),
// send(move, {refused}) (true once the move went through), render(), toast() and the like.
// Without them, T is a spectator's: nothing is legal, a tap does nothing.

import { display, suitName } from "./cards.js";
import { holdsStake, unitWord } from "./catalogue.js";
import { cardBack, el } from "./ui.js";

/** "6", "10", "queen": a rank as the status line says it. */
export function rankWord(rank) {
  return { A: "ace", J: "jack", Q: "queen", K: "king", T: "10" }[rank] ?? rank;
}

/** "a 5", "an 8", "an ace", "a jack": a word with the article it is said with (an 8, an 11, an 18). */
export function withArticle(word) {
  return `${/^(?:[aeiou8]|11|18)/i.test(String(word)) ? "an" : "a"} ${word}`;
}

/** "a 10", "an ace", "a queen": one card of a rank, as a sentence says it. */
export function aRank(rank) {
  return withArticle(rankWord(rank));
}

/** "played 8♥ and named spades", "played 5♦ then A♦": a play as the log says it. */
export function playWords(line) {
  return `played ${display(line.card)}${line.suit ? ` and named ${suitName(line.suit)}` : ""}${line.then ? ` then ${display(line.then)}` : ""}`;
}

/**
 * The stock (the view's `table.stock_size`) as a button: a tap draws, when the legal moves allow
 * it; pointing at it says the renderer's stockText(T). Any game with a stock to draw from.
 */
export function stockButton(T) {
  const t = T.view.table;
  const drawable = T.legal("draw");
  const stock = el(
    "button",
    {
      type: "button",
      class: `stock${drawable ? " live" : ""}${t.stock_size === 0 ? " empty" : ""}`,
      id: "stock",
      "aria-label": `Stock, ${t.stock_size} card${t.stock_size === 1 ? "" : "s"}${drawable ? ", draw a card" : ""}`,
      "aria-disabled": drawable ? null : "true",
      onclick: T.tapped(T.draw),
    },
    el("span", { class: "stack", "aria-hidden": "true" }, t.stock_size ? [cardBack(), cardBack(), cardBack()].slice(0, Math.min(3, t.stock_size)) : el("span", { class: "card ghost" })),
    el("span", { class: "count", "aria-hidden": "true" }, String(t.stock_size)),
  );
  T.explainOn(stock, () => T.game.stockText?.(T));
  return stock;
}

/**
 * The `T` a renderer is handed. `view`, `entry` and `hooks` are functions (the page's current
 * view, the game's catalogue entry, its renderer's hooks); `me` the seat the page plays (null:
 * nobody); `ui` the page's state that a renderer may keep things in; anything else given
 * replaces the spectator's default of the same name.
 */
export function rendererKit({ view, entry, hooks, me = null, ui = {}, ...page }) {
  const seatNameOf = (s) => view()?.seats?.[s]?.name ?? `Seat ${s}`;
  const isBot = (s) => Boolean(view()?.seats?.[s]?.bot);
  const who = (s) => (s === me ? "You" : seatNameOf(s));
  const spectator = {
    me,
    ui,
    $: (id) => document.getElementById(id),
    who,
    seatNameOf,
    isBot,
    legal: () => false,
    myTurn: () => false,
    othersTurn: () => {
      const turn = view()?.turn;
      return turn === null || turn === undefined ? "" : `${seatNameOf(turn)}'s turn${isBot(turn) ? " (bot)" : ""}`;
    },
    holdsStake: () => holdsStake(entry()?.unit),
    stake: (n = 2) => unitWord(entry()?.unit === "counters" ? "counters" : "chips", n),
    rankWord,
    aRank,
    withArticle,
    mostOf: () => 0,
    playWords,
    sessionWords: () => {
      const deals = view()?.options?.deals;
      return deals === undefined ? "" : ` The game is ${deals === 1 ? "1 deal" : `${deals || view().seats.length} deals`}${deals ? "" : ", each player dealing once"}.`;
    },
    // Pointing at a part of the table says what it is: a plain tooltip, when the page has no other.
    explainOn: (node, explain) => node.addEventListener("pointerenter", () => (node.title = explain() ?? "")),
    tapped: () => () => {},
    draw: () => {},
    send: async () => false,
    render: () => {},
    toast: () => {},
  };
  const T = { ...spectator, ...page };
  Object.defineProperties(T, {
    view: { get: view, enumerable: true },
    entry: { get: entry, enumerable: true },
    game: { get: hooks, enumerable: true },
  });
  return T;
}
