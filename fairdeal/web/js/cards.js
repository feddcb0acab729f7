// How people read cards: "8♥", "eight of hearts". Codes and card order are in protocol.js.

import { t } from "./i18n.js";
import { RANKS, SUITS } from "./protocol.js";

export const SUIT_SYMBOLS = "♣♦♥♠";
export const SUIT_NAMES = ["clubs", "diamonds", "hearts", "spades"];
const RANK_WORDS = ["ace", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen", "king"];

/** "A".."K" printed on the card: "10" for the ten. */
export function rankLabel(code) {
  return code[0] === "T" ? "10" : code[0];
}

/** The rank as a number, ace 1 to king 13. */
export function rankValue(code) {
  return RANKS.indexOf(code[0]) + 1;
}

/** The suit's index in card order, clubs 0 to spades 3. */
export function suitIndex(codeOrLetter) {
  return SUITS.indexOf(codeOrLetter.length === 1 ? codeOrLetter : codeOrLetter[1]);
}

/** "10♦" */
export function display(code) {
  return rankLabel(code) + SUIT_SYMBOLS[suitIndex(code)];
}

/** "ten of diamonds" ("ruter ti"): in the page's language (i18n.js, keys "card.*"). */
export function cardName(code) {
  const rank = RANK_WORDS[rankValue(code) - 1];
  const suit = SUIT_NAMES[suitIndex(code)];
  if (!rank || !suit) return String(code); // no card's code (a changed record): itself
  return t("card.name", { rank: t(`card.${rank}`), suit: t(`card.${suit}`) });
}

/** "♥" for "H". */
export function suitSymbol(letter) {
  return SUIT_SYMBOLS[SUITS.indexOf(letter)];
}

/** "hearts" ("hjerter") for "H": in the page's language (keys "card.*", as cardName). */
export function suitName(letter) {
  const suit = SUIT_NAMES[SUITS.indexOf(letter)];
  return suit ? t(`card.${suit}`) : String(letter);
}

/** Hearts and diamonds are red. */
export function isRed(code) {
  const s = code.length === 1 ? code : code[1];
  return s === "H" || s === "D";
}
