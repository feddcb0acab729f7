// Small DOM helpers shared by the pages, and how a card looks.

import { cardName, display, isRed, rankLabel, suitIndex, SUIT_SYMBOLS } from "./cards.js";

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
 * A card face: corners with rank and suit, a large suit in the middle (a
 * framed letter for the court cards). Red suits are red, and the suit symbol
 * always shows, so colour is never the only sign of the suit.
 */
export function cardFace(code, { tag = "span", label = null, attrs = {} } = {}) {
  const rank = rankLabel(code);
  const suit = SUIT_SYMBOLS[suitIndex(code)];
  const court = "JQK".includes(code[0]);
  const corner = (where) => el("span", { class: `corner ${where}`, "aria-hidden": "true" }, el("b", {}, rank), el("i", {}, suit));
  const middle = court
    ? el("span", { class: "court", "aria-hidden": "true" }, el("b", {}, rank), el("i", {}, suit))
    : el("span", { class: "pip", "aria-hidden": "true" }, suit);
  const node = el(
    tag,
    {
      class: `card ${isRed(code) ? "red" : "black"}${code[0] === "A" ? " ace" : ""}`,
      "data-code": code,
      title: tag === "span" ? display(code) : null,
      ...attrs,
    },
    corner("tl"),
    middle,
    corner("br"),
  );
  if (tag === "span") {
    node.setAttribute("role", "img");
    node.setAttribute("aria-label", label ?? cardName(code));
  } else if (label) {
    node.setAttribute("aria-label", label);
  }
  return node;
}

/** The back of a card (the stock, another seat's hand). */
export function cardBack(attrs = {}) {
  return el("span", { class: "card back", "aria-hidden": "true", ...attrs });
}

/** A row of small faces: the cards of a hand in a report. */
export function cardRow(codes, { className = "cards" } = {}) {
  return el("span", { class: className }, codes.map((code) => cardFace(code)));
}

/** "Ann" or "Bot 2 (bot)", with a visible bot mark. */
export function seatName(seat, index) {
  const name = seat?.name ?? `Seat ${index}`;
  return el("span", { class: "seat-name" }, name, seat?.bot ? el("span", { class: "badge bot", title: "played by a bot" }, "bot") : null);
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
