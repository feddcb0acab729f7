// What a game's renderer (js/games/<module>.js) is handed: the helper object `T`, shared by
// the live table (table.js, js/table/state.js) and the hand replayer (replay.js).
//
// A renderer's hooks take `T`: drawTable(T) fills the middle of the table (the element
// T.$("stock-pile"), T.$("rows") or T.$("board")) and returns the id it used; status(T) is
// the status line; and, if the game has its own words, keyWords, keyLines(T), keys(T), passLabel(T), labels,
// thenWords(T), moveWords(line, T), lineWords(line, T), handEndWords(line, T), stockText(T),
// scoresHint(T), scoresExtra(T), handEndMore(T, hand, prefix) (what a finished hand's summary shows
// besides every seat's cards), handName(T, hand) (the sheets' name of hand number `hand`: "Round 3"), emptyHand(T). A game with controls of its own has
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
//
// Its words are in the page's language (i18n.js, keys "words.*"): T.who(s) names a seat as a
// sentence's subject ("You"/"Du" for the page's own), T.whom(s) as its object ("you"/"deg");
// rankWord, aRank ("an ace"/"et ess": each rank with its article, a message of its own), playWords.

import { display, suitName } from "./cards.js";
import { holdsStake, unitWord } from "./catalogue.js";
import { t } from "./i18n.js";
import { RANKS } from "./protocol.js";
import { cardBack, el } from "./ui.js";

/** "6", "10", "queen" ("dame"): a rank as the status line says it, in the page's language. */
export function rankWord(rank) {
  return RANKS.includes(rank) ? t(`words.rank_${rank}`) : rank;
}

/**
 * "a 5", "an 8", "an ace", "a jack": a word with the article it is said with (an 8, an 11, an 18).
 * Norwegian says "en" before any word it is given (a rank has its own article: aRank).
 */
export function withArticle(word) {
  return t(/^(?:[aeiou8]|11|18)/i.test(String(word)) ? "words.article_an" : "words.article_a", { word });
}

/** "a 10", "an ace", "a queen" ("en tier", "et ess", "en dame"): one card of a rank, as a sentence says it. */
export function aRank(rank) {
  return RANKS.includes(rank) ? t(`words.a_rank_${rank}`) : withArticle(rankWord(rank));
}

/** "played 8♥ and named spades", "played 5♦ then A♦": a play as the log says it. */
export function playWords(line) {
  const values = { card: display(line.card), suit: line.suit ? suitName(line.suit) : "", then: line.then ? display(line.then) : "" };
  if (line.suit && line.then) return t("words.played_named_then", values);
  if (line.suit) return t("words.played_named", values);
  return t(line.then ? "words.played_then" : "words.played", values);
}

/** "You" ("Du") for the page's own seat as a sentence's subject, else the seat's name. */
export function youOr(name, mine) {
  return mine ? t("words.you") : name;
}

/** "you" ("deg") for the page's own seat where a sentence's object, else the seat's name. */
export function youOrObject(name, mine) {
  return mine ? t("words.you_object") : name;
}

/** "Ann's turn", "Bot 2's turn (bot)": whose turn it is, as the status line says it. */
export function turnWords(name, bot) {
  return t(bot ? "words.turn_of_bot" : "words.turn_of", { name });
}

/** " The game is 3 deals.": how long a session of deals lasts (none for a game played to a target). */
export function sessionWords(view) {
  const deals = view?.options?.deals;
  if (deals === undefined) return "";
  return ` ${deals ? t("words.session", { count: deals }) : t("words.session_each", { n: view.seats.length })}`;
}

/** "Seat 2": a seat that has no name. */
export function seatNumber(s) {
  return t("words.seat_n", { n: s });
}

/**
 * The stock (the view's `table.stock_size`) as a button: a tap draws, when the legal moves allow
 * it; pointing at it says the renderer's stockText(T). Any game with a stock to draw from.
 */
export function stockButton(T) {
  const table = T.view.table;
  const drawable = T.legal("draw");
  const stock = el(
    "button",
    {
      type: "button",
      class: `stock${drawable ? " live" : ""}${table.stock_size === 0 ? " empty" : ""}`,
      id: "stock",
      "aria-label": t(drawable ? "words.stock_draw" : "words.stock", { count: table.stock_size }),
      "aria-disabled": drawable ? null : "true",
      onclick: T.tapped(T.draw),
    },
    el("span", { class: "stack", "aria-hidden": "true" }, table.stock_size ? [cardBack(), cardBack(), cardBack()].slice(0, Math.min(3, table.stock_size)) : el("span", { class: "card ghost" })),
    el("span", { class: "count", "aria-hidden": "true" }, String(table.stock_size)),
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
  const seatNameOf = (s) => view()?.seats?.[s]?.name ?? seatNumber(s);
  const isBot = (s) => Boolean(view()?.seats?.[s]?.bot);
  const who = (s) => youOr(seatNameOf(s), s === me);
  const spectator = {
    me,
    ui,
    $: (id) => document.getElementById(id),
    who,
    whom: (s) => youOrObject(seatNameOf(s), s === me),
    seatNameOf,
    isBot,
    legal: () => false,
    myTurn: () => false,
    othersTurn: () => {
      const turn = view()?.turn;
      return turn === null || turn === undefined ? "" : turnWords(seatNameOf(turn), isBot(turn));
    },
    holdsStake: () => holdsStake(entry()?.unit),
    stake: (n = 2) => unitWord(entry()?.unit === "counters" ? "counters" : "chips", n),
    rankWord,
    aRank,
    withArticle,
    mostOf: () => 0,
    playWords,
    sessionWords: () => sessionWords(view()),
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
