// How people read cards: "8♥", "eight of hearts". Codes and card order are in protocol.js.

import { RANKS, SUITS, isCard } from "./protocol.js";

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

/** "ten of diamonds" */
export function cardName(code) {
  return `${RANK_WORDS[rankValue(code) - 1]} of ${SUIT_NAMES[suitIndex(code)]}`;
}

/** "♥" for "H". */
export function suitSymbol(letter) {
  return SUIT_SYMBOLS[SUITS.indexOf(letter)];
}

/** "hearts" for "H". */
export function suitName(letter) {
  return SUIT_NAMES[SUITS.indexOf(letter)];
}

/** Hearts and diamonds are red. */
export function isRed(code) {
  const s = code.length === 1 ? code : code[1];
  return s === "H" || s === "D";
}

/**
 * A card from a code as a person might type it: case, spaces and "10" for
 * "T" are forgiven; null when it names no card.
 */
export function parseCard(text) {
  if (typeof text !== "string") return null;
  let t = text.trim().toUpperCase();
  if (t.startsWith("10")) t = "T" + t.slice(2);
  return isCard(t) ? t : null;
}

/** A suit letter from a letter, symbol or name (any case); null when it names none. */
export function parseSuit(text) {
  if (typeof text !== "string") return null;
  const t = text.trim();
  if (t.length === 1) {
    if (SUITS.includes(t.toUpperCase())) return t.toUpperCase();
    if (SUIT_SYMBOLS.includes(t)) return SUITS[SUIT_SYMBOLS.indexOf(t)];
  }
  const i = SUIT_NAMES.findIndex((name) => t.toLowerCase() === name || t.toLowerCase() === name.slice(0, -1));
  return i < 0 ? null : SUITS[i];
}
