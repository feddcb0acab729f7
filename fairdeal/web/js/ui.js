// Small DOM helpers shared by the pages, and how a card looks.

import { cardName, isRed } from "./cards.js";
import { RANKS, SUITS } from "./protocol.js";

/**
 * An element: el("button", {class: "primary", onclick: go}, "Play").
 * Attributes starting with "on" become listeners; null/false ones are left out.
 */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs ?? {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") node.addEventListener(key.slice(2), value);
    else if (key === "class") node.className = value;
    else if (key === "dataset") Object.assign(node.dataset, value);
    else if (key === "text") node.textContent = value;
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** Replace every child of `node` with `children`. */
export function fill(node, ...children) {
  node.replaceChildren(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));
  return node;
}

/**
 * Where each card's picture is: the SVG deck `make` fetches into /vendor/playing-cards/
 * (Adrian Kennard's faces, CC0, with court figures and big corner indexes). The deck names its
 * files by our codes, "TD" → "TD.svg"; this one table is the only place that knows it.
 */
const DECK_DIR = "/vendor/playing-cards/";
export const DECK_FILES = Object.freeze(Object.fromEntries([...SUITS].flatMap((s) => [...RANKS].map((r) => [r + s, `${r}${s}.svg`]))));
export const DECK_BACK = `${DECK_DIR}back.svg`;

/** The URL of a card's picture: faceUrl("QH") is "/vendor/playing-cards/QH.svg". */
export function faceUrl(code) {
  const file = Object.hasOwn(DECK_FILES, code) ? DECK_FILES[code] : null;
  if (!file) throw new RangeError(`no card face for ${JSON.stringify(code)}`);
  return DECK_DIR + file;
}

/** The deck's picture inside a card: decoration, the card element says its name. */
function deckImage(src) {
  return el("img", { class: "face", src, alt: "", draggable: "false" });
}

/**
 * A card face: the deck's picture, whose corners carry rank and suit symbol, so colour is never
 * the only sign of the suit. A span is an image named by `label` (the card's name by default);
 * a button is named by `label` when given. No tooltip: it would only say the card's name again.
 */
export function cardFace(code, { tag = "span", label = null, attrs = {} } = {}) {
  const node = el(
    tag,
    {
      class: `card ${isRed(code) ? "red" : "black"}${code?.[0] === "A" ? " ace" : ""}`,
      "data-code": code,
      ...attrs,
    },
    // A code no deck has (a changed record on the verify page) shows as its text, not a broken image.
    Object.hasOwn(DECK_FILES, code) ? deckImage(faceUrl(code)) : el("span", { class: "face unknown" }, String(code)),
  );
  if (tag === "span") {
    node.setAttribute("role", "img");
    node.setAttribute("aria-label", label ?? cardName(code));
  } else if (label) {
    node.setAttribute("aria-label", label);
  }
  return node;
}

/** The back of a card (the stock, another seat's hand): the deck's back. */
export function cardBack(attrs = {}) {
  return el("span", { class: "card back", "aria-hidden": "true", ...attrs }, deckImage(DECK_BACK));
}

/** A row of small faces: the cards of a hand in a report. */
export function cardRow(codes, { className = "cards" } = {}) {
  return el("span", { class: className }, codes.map((code) => cardFace(code)));
}

/** "Ann" or "Bot 2 (bot)", with a visible bot mark; `words` in the page's language (English by default). */
export function seatName(seat, index, words = {}) {
  const { seat: unnamed = `Seat ${index}`, bot = "bot", botTitle = "played by a bot" } = words;
  const name = seat?.name ?? unnamed;
  return el("span", { class: "seat-name" }, name, seat?.bot ? el("span", { class: "badge bot", title: botTitle }, bot) : null);
}

/**
 * Hand `data` (text or bytes) to the browser as a download named `filename`, unchanged:
 * saveFile(recordBytes, "g123.jsonl").
 */
export function saveFile(data, filename, type = "application/x-ndjson") {
  const url = URL.createObjectURL(new Blob([data], { type }));
  const link = el("a", { href: url, download: filename, hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  // The browser reads the blob after the click returns: let it go only once the download had time to start.
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
}

/** Shorten a long hex string for display, keeping it whole in the title. */
export function shortHex(hex, keep = 12) {
  if (typeof hex !== "string") return "";
  return hex.length > 2 * keep ? `${hex.slice(0, keep)}…${hex.slice(-keep / 2)}` : hex;
}
