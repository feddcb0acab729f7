// The table of a game that has no renderer of its own (a plugin's: its catalogue entry says
// "renderer": "generic"), drawn from its seat's view alone, by convention, knowing nothing of
// the game. The view's `table` (the rules' view as JSON) is read field by field:
//
//   stock_size            the stock, a button that draws when "draw" is legal
//   top, named, pile_size the pile: its top card, the token of a named suit, the cards under it
//   a card code           "previous": "QD"          a labelled row of one card face
//   a list of card codes  "laid": ["AC", "4C"]      a labelled row of faces (a list of lists: runs)
//   a list of plays       [{seat, card, ...}]       each card with who played it
//   cards to numbers      {"AH": 4, ...}            each card with its number on it
//   suits to anything     {"C": [...], "D": ...}    one labelled row (or fact) per suit
//   a number, a string    "pending_draw": 2         a fact: "Pending draw: 2"
//   a list per seat       "net": [-1, 0, 2]         a fact: "Net: You −1 · Bob 0 · Cy 2"
//   seats                 "leader": 1, "out": [2]   a seat's name (a field named for seats)
//   any other object      "next": {suit, rank}      its fields, under its name
//
// Who holds how many cards (`hand_sizes`), the chips won this hand (`net`), the dealer and the
// turn are the page's own (the seats, the status line); nulls and empty lists are left out.
// A field's label is the game's, where it declares one (its catalogue entry's `table`, in the
// page's language: a label, what each of its text values means, its own members' labels); a
// field it does not label is named from its name ("pending_draw": "Pending draw").
// The status line says whose turn it is and, from the legal moves, what this seat may do; the
// table page offers the moves themselves (a card's play, and the suit tokens when the legal
// moves carry a suit with it; Draw, Keep, Pass).

import { cardName, display, isRed, suitSymbol } from "../cards.js";
import * as i18n from "../i18n.js";
import { RANKS, SUITS } from "../protocol.js";
import { stockButton } from "../render.js";
import { cardBack, cardFace, el, fill } from "../ui.js";
import { andList, cards, rankWord, stockWords, suitWords as suitWord } from "./phrases.js";

/** Its style sheet, generic.css (catalogue.js's rendererOf loads it before the first drawing). */
export const css = ["generic"];

/** The fields the page shows elsewhere (the seats, the status line, the chips). */
const THE_PAGES = new Set(["hand_no", "dealer", "turn", "hand_sizes", "net"]);

/** A field named for seats: its numbers are seats, said by name. */
const SEAT_FIELD = /^(seat|seats|by|leader|dealer|turn|winner|winners|partners|out|passed|player|players)$|_(seat|seats|by)$/;

const isCard = (v) => typeof v === "string" && v.length === 2 && RANKS.includes(v[0]) && SUITS.includes(v[1]);
const isSuit = (v) => typeof v === "string" && v.length === 1 && SUITS.includes(v);
const isCards = (v) => Array.isArray(v) && v.length > 0 && v.every(isCard);
const isScalar = (v) => v === null || ["string", "number", "boolean"].includes(typeof v);
const nothing = (v) => v === null || v === undefined || v === "" || (Array.isArray(v) && !v.length) || (typeof v === "object" && !Object.keys(v).length);

/** "pending_draw" → "Pending draw", "rowCards" → "Row cards"; "dead_size" → "Dead" (its value says "cards"). */
function fieldWords(key) {
  const words = String(key)
    .replace(/_(size|count)$/, "")
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .replace(/[_-]+/g, " ")
    .trim()
    .toLowerCase();
  return words ? words[0].toUpperCase() + words.slice(1) : String(key);
}

/** A suit as a label says it: "♦ diamonds". */
const suitWords = (letter) => `${suitSymbol(letter)} ${suitWord(letter)}`;

/** The game's words for the field `key` under `words` (a label entry's `fields`, or the entry's `table`): {label, values, fields}. */
const declared = (words, key) => words?.[key] ?? null;

/** A member of an object as a fact names it: the game's label, else its name in small letters. */
const memberWords = (key, words) => declared(words?.fields, key)?.label ?? fieldWords(key).toLowerCase();

/**
 * One value in words: a seat's name (in a seats field), a card "10♦", a suit "♦ diamonds", a rank
 * "jack", a text value as the game's declaration says it (`words`: the field's label entry).
 */
function valueWords(value, key, T, words = null) {
  if (value === null || value === undefined) return i18n.t("generic.none");
  if (typeof value === "boolean") return value ? i18n.t("generic.yes") : i18n.t("generic.no");
  if (typeof value === "number") return SEAT_FIELD.test(key) && Number.isInteger(value) && T.view.seats?.[value] ? T.who(value) : String(value).replace("-", "−");
  if (Array.isArray(value)) return value.map((v) => (Array.isArray(v) ? andList(v.map((x) => valueWords(x, key, T, words))) : valueWords(v, key, T, words))).join(Array.isArray(value[0]) ? " · " : ", ");
  if (typeof value === "object") return Object.entries(value).filter(([, v]) => !nothing(v)).map(([k, v]) => `${memberWords(k, words)} ${valueWords(v, k, T, declared(words?.fields, k))}`).join(", ");
  if (isCard(value)) return display(value);
  if (isSuit(value)) return suitWords(value);
  if (value.length === 1 && RANKS.includes(value)) return rankWord(value);
  if (words?.values && Object.hasOwn(words.values, value)) return words.values[value];
  return value.replace(/-/g, " ");
}

/** A card face, small, with its name; `mark` (a number on it) when the view gives one. */
function face(code, mark = null) {
  const node = cardFace(code, { label: mark === null ? null : `${cardName(code)}: ${mark}` });
  if (mark !== null) node.append(el("span", { class: "mark", "aria-hidden": "true" }, String(mark)));
  return node;
}

/** A row of the table: its label, then cards (`groups`: runs of faces, or plays). */
function cardsRow(field, label, groups, words) {
  return el("li", { class: "cards-row", "data-field": field, role: "group", "aria-label": `${label}: ${words}` }, el("span", { class: "row-label" }, label), groups);
}

/** Plays ({seat, card, ...}): each card with who put it down and what else the view says of it. */
function plays(items, T) {
  return el(
    "ol",
    { class: "plays" },
    items.map((item, i) => {
      const cards = Object.values(item).filter(isCard);
      const more = Object.entries(item).filter(([k, v]) => k !== "seat" && !isCard(v) && isScalar(v) && !nothing(v));
      return el(
        "li",
        { class: i === items.length - 1 ? "last" : null },
        cards.map((code) => face(code)),
        el("span", { class: "by" }, T.who(item.seat)),
        more.map(([k, v]) => el("span", { class: "more" }, typeof v === "string" && /\s/.test(v) ? i18n.t("generic.quoted", { text: v }) : `${fieldWords(k)} ${valueWords(v, k, T)}`)),
      );
    }),
  );
}

/**
 * What the view says in `value` under `key`, added to `out` as rows of cards and facts; `field`
 * is where it is in the view ("last.plays", "row_cards.C"), `label` how the page names it, `words`
 * what the game declares of it (its label entry, if any).
 */
function describe(key, value, T, out, label = fieldWords(key), field = key, words = null) {
  if (nothing(value)) return;
  const seats = T.view.seats?.length ?? 0;
  const fact = (text) => out.facts.push(el("li", { class: "fact", "data-field": field }, el("span", { class: "fact-label" }, `${label}:`), " ", el("b", {}, text)));
  if (isCard(value) || isCards(value)) {
    const codes = [value].flat();
    out.rows.push(cardsRow(field, label, el("span", { class: "run" }, codes.map((code) => face(code))), codes.map(display).join(" ")));
  } else if (value.every?.((v) => Array.isArray(v)) && value.flat(Infinity).every(isCard)) {
    const runs = value.map((run) => run.flat(Infinity)).filter((run) => run.length); // runs, or groups of runs
    if (runs.length) out.rows.push(cardsRow(field, label, runs.map((run) => el("span", { class: "run" }, run.map((code) => face(code)))), runs.map((run) => run.map(display).join(" ")).join("; ")));
  } else if (Array.isArray(value) && value.every((v) => v && typeof v === "object" && Number.isInteger(v.seat))) {
    if (value.some((item) => Object.values(item).some(isCard))) out.rows.push(cardsRow(field, label, plays(value, T), value.map((p) => `${T.who(p.seat)} ${Object.values(p).filter(isCard).map(display).join(" ")}`).join(", ")));
    else fact(value.map(({ seat, ...rest }) => `${T.who(seat)}: ${valueWords(rest, key, T, words) || i18n.t("generic.none")}`).join(" · "));
  } else if (Array.isArray(value) && value.length === seats && seats > 1 && value.every(isScalar) && !SEAT_FIELD.test(key)) {
    fact(value.map((v, s) => `${T.who(s)} ${valueWords(v, key, T, words)}`).join(" · "));
  } else if (value && typeof value === "object" && !Array.isArray(value)) {
    const entries = Object.entries(value);
    if (entries.every(([k]) => isCard(k)) && entries.every(([, v]) => isScalar(v))) {
      out.rows.push(cardsRow(field, label, el("span", { class: "marked" }, entries.map(([code, v]) => face(code, v))), entries.map(([code, v]) => `${display(code)} ${v}`).join(", ")));
    } else if (entries.every(([k]) => isSuit(k))) {
      const suits = entries.filter(([, v]) => !nothing(v));
      if (suits.every(([, v]) => isCard(v) || isCards(v))) {
        // One row, a run of cards after each suit's sign.
        if (suits.length) out.rows.push(cardsRow(field, label, suits.map(([suit, v]) => el("span", { class: "suit-run" }, el("span", { class: `suit-sign ${isRed(suit) ? "red" : "black"}`, "aria-hidden": "true" }, suitSymbol(suit)), el("span", { class: "run" }, [v].flat().map((code) => face(code))))), suits.map(([suit, v]) => `${suitWord(suit)} ${[v].flat().map(display).join(" ")}`).join("; ")));
      } else if (suits.every(([, v]) => isScalar(v))) {
        fact(suits.map(([suit, v]) => `${suitSymbol(suit)} ${valueWords(v, key, T, words)}`).join(" · "));
      } else {
        for (const [suit, v] of suits) describe(key, v, T, out, `${label} ${suitSymbol(suit)}`, `${field}.${suit}`, words);
      }
    } else if (entries.every(([, v]) => isScalar(v))) {
      fact(valueWords(value, key, T, words));
    } else {
      for (const [k, v] of entries) describe(k, v, T, out, `${label}, ${memberWords(k, words)}`, `${field}.${k}`, declared(words?.fields, k));
    }
  } else {
    const sized = typeof value === "number" && /_(size|count)$/.test(key);
    fact(sized ? cards(value) : valueWords(value, key, T, words));
  }
}

/** What pointing at the pile says. */
function pileText(T) {
  const t = T.view.table;
  const card = `${cardName(t.top)} (${display(t.top)})`;
  const top = isSuit(t.named) ? i18n.t("generic.top_named", { card, suit: suitWord(t.named) }) : card;
  return typeof t.pile_size === "number" ? i18n.t("generic.pile", { count: t.pile_size, top }) : i18n.t("generic.pile_top", { top });
}

/** The pile: its top card, a named suit's token on it, and (when there are more) cards under it. */
function pile(T) {
  const t = T.view.table;
  const fresh = T.ui.lastTop !== null && T.ui.lastTop !== undefined && T.ui.lastTop !== `${t.top}/${t.pile_size}`;
  T.ui.lastTop = `${t.top}/${t.pile_size}`;
  const named = isSuit(t.named) ? t.named : null;
  const node = el(
    "div",
    { class: "pile", id: "pile", tabindex: "0", role: "img", "aria-label": named ? i18n.t("game.pile_named", { card: cardName(t.top), suit: suitWord(named) }) : i18n.t("game.pile", { card: cardName(t.top) }) },
    (t.pile_size ?? 1) > 1 ? el("span", { class: "under", "aria-hidden": "true" }, cardBack(), cardBack()) : null,
    cardFace(t.top, { attrs: { class: `card ${isRed(t.top) ? "red" : "black"} top${fresh ? " fresh" : ""}` } }),
    named ? el("span", { class: `token ${isRed(named) ? "red" : "black"}`, "aria-hidden": "true", title: i18n.t("game.suit_named", { suit: suitWord(named) }) }, suitSymbol(named)) : null,
  );
  T.explainOn(node, () => pileText(T));
  return node;
}

function drawTable(T) {
  const t = T.view.table;
  const out = { rows: [], facts: [] };
  const hasStock = typeof t.stock_size === "number";
  const hasPile = isCard(t.top);
  const skip = new Set([...THE_PAGES, ...(hasStock ? ["stock_size"] : []), ...(hasPile ? ["top", "named", "pile_size"] : [])]);
  const labels = T.entry?.table ?? {};
  for (const [key, value] of Object.entries(t)) if (!skip.has(key)) describe(key, value, T, out, declared(labels, key)?.label ?? fieldWords(key), key, declared(labels, key));
  fill(
    T.$("board"),
    hasStock || hasPile ? el("div", { class: "stock-pile generic-pile" }, hasStock ? stockButton(T) : null, hasPile ? pile(T) : null) : null,
    out.rows.length ? el("ul", { class: "generic-rows", id: "generic-rows", "aria-label": i18n.t("generic.on_the_table") }, out.rows) : null,
    out.facts.length ? el("ul", { class: "generic-facts", id: "generic-facts", "aria-label": i18n.t("generic.about_the_table") }, out.facts) : null,
  );
  return "board";
}

/** "a, b, or c" */
function either(parts) {
  return parts.length > 1 ? i18n.t("generic.either", { first: parts.slice(0, -1).join(", "), then: parts.at(-1) }) : (parts[0] ?? "");
}

/** The plays that carry a suit (the card names one as it goes down): their cards. */
function suitCards(T) {
  return [...new Set((T.view.legal_moves ?? []).filter((m) => m.move === "play" && m.suit).map((m) => m.card))];
}

/**
 * A kind of move as the status line says it: "draw", "no play" ("trekk", "si «kan ikke spille»"),
 * the words of fairdeal's kinds ("generic.kind.<kind>"); a kind of a plugin's own, by its declared
 * label (the catalogue gives it in the page's language), its first letter small.
 */
function kindWords(kind, T) {
  const key = `generic.kind.${kind.replace(/-/g, "_")}`;
  const words = i18n.t(key);
  if (words !== key) return words;
  const label = (T.entry?.move_forms ?? []).find((form) => form.kind === kind)?.label;
  return label ? label.charAt(0).toLowerCase() + label.slice(1) : kind.replace(/-/g, " ");
}

/** What this seat may do, in words, from its legal moves: ["play a card (A♠ names a suit)", "draw"]. */
function choices(T) {
  const moves = T.view.legal_moves ?? [];
  const kinds = [...new Set(moves.map((m) => m.move))];
  return kinds.map((kind) => {
    if (kind !== "play") return kindWords(kind, T);
    const cards = [...new Set(moves.filter((m) => m.move === "play").map((m) => m.card))];
    const naming = suitCards(T);
    if (cards.length === 1) return i18n.t(naming.length ? "generic.play_card_naming" : "generic.play_card", { card: display(cards[0]) });
    return naming.length ? i18n.t("generic.play_naming", { count: naming.length, cards: naming.map(display).join(", ") }) : i18n.t("generic.play_a_card");
  });
}

function status(T) {
  if (!T.myTurn()) return T.othersTurn() ? `${T.othersTurn()}.` : "";
  const pending = T.view.pending;
  if (pending && T.legal("keep")) return i18n.t("generic.drew", { card: display(pending) });
  const can = choices(T);
  return can.length ? i18n.t("generic.your_turn", { choices: either(can) }) : i18n.t("generic.your_turn_only");
}

function stockText(T) {
  const t = T.view?.table;
  if (!t) return "";
  const base = stockWords(t.stock_size);
  if (T.view.status !== "playing") return base;
  if (!T.myTurn()) return `${base} ${i18n.t("game.not_your_turn")}`;
  if (T.view.pending) return `${base} ${i18n.t("generic.play_or_keep", { card: display(T.view.pending) })}`;
  return `${base} ${T.legal("draw") ? i18n.t("game.tap_to_draw") : i18n.t("generic.cannot_draw")}`;
}

export default {
  drawTable,
  status,
  stockText,
  // The suit tokens' keys, when a play this turn names a suit.
  keyLines: (T) => (suitCards(T).length ? [i18n.t("game.keys_suit")] : []),
  cardHint: (code, T) => i18n.t(suitCards(T).includes(code) ? "generic.card_hint_naming" : "generic.card_hint", { card: display(code) }),
};
