// The words the game renderers share, in the page's language (i18n.js; the "game." keys of
// js/games/i18n/<lang>.json): a suit, a rank, one card of either with its article, lists said
// with "or" and "and", who leads. Each gives a value that a renderer puts into a whole sentence of
// its own (a message with placeholders), never a sentence glued together from words.
//
// A suit's and a rank's words are a family of keys, one per suit letter (C D H S) or rank letter
// (A 2 … 9 T J Q K): "game.suit.H" is "hearts" / "hjerter" (tests/test_i18n_games.py checks
// that every family is whole in both catalogues). A rank said alone is a word for the ace and the
// court cards ("game.rank.Q": "queen" / "dame") and its number for the others ("game.rank_number":
// "6" / "6-er"): no message is a bare number, which would read the same as the corner of a card.

import { t } from "../i18n.js";

const SUIT_LETTERS = "CDHS";
const RANK_LETTERS = "A23456789TJQK";

function family(prefix, letter, letters) {
  return letters.includes(letter) && letter.length === 1 ? t(`${prefix}.${letter}`) : String(letter);
}

/** "hearts" ("hjerter"): a suit as a sentence says it. */
export function suitWords(letter) {
  return family("game.suit", letter, SUIT_LETTERS);
}

/** "a heart" ("en hjerter"): one card of a suit. */
export function aSuit(letter) {
  return family("game.a_suit", letter, SUIT_LETTERS);
}

/** "ace", "jack", "10", "6" ("ess", "knekt", "10-er", "6-er"): a rank as a sentence says it. */
export function rankWord(rank) {
  if ("AJQK".includes(rank) && rank.length === 1) return family("game.rank", rank, RANK_LETTERS);
  return RANK_LETTERS.includes(rank) && rank.length === 1 ? t("game.rank_number", { rank: rank === "T" ? "10" : rank }) : String(rank);
}

/** "an ace", "a 10", "an 8" ("et ess", "en tier", "en åtter"): one card of a rank. */
export function aRank(rank) {
  return family("game.a_rank", rank, RANK_LETTERS);
}

/** "aces", "10s" ("essene", "tierne"): every card of a rank, as "put down your 10s" says it. */
export function theRanks(rank) {
  return family("game.ranks", rank, RANK_LETTERS);
}

/** "7♥ or 8♥ or 9♥" ("7♥ eller 8♥ eller 9♥"): a list of a few, any one of them. */
export function orList(items) {
  return items.length ? items.reduce((first, then) => t("game.either", { first, then })) : "";
}

/** "Ann and Bob", "Ann, Bob and Cy" ("Ann, Bob og Cy"): a list of a few, all of them (words.js's). */
export { listWords as andList } from "../words.js";

/** "You lead" / "Ann leads" ("Du spiller ut" / "Ann spiller ut"): who leads, the page's own seat as "you". */
export function leads(T, seat) {
  return seat === T.me ? t("game.you_lead") : t("game.leads", { name: T.who(seat) });
}

/** "3 cards" ("3 kort"). */
export function cards(count) {
  return t("game.cards", { count });
}

/** What pointing at a stock says first: "The stock: 3 cards." */
export function stockWords(count) {
  return t("game.stock", { count });
}
