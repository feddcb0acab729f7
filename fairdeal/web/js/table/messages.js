// What the live table says: the play log and the words of each record line (words.js, in the
// table's voice: "You" for this page's seat), the message strip (a toast) and what a screen
// reader hears.

import { el } from "../ui.js";
import * as words from "../words.js";
import { say } from "./speak.js";
import { $, T } from "./state.js";

let toastTimer = null;
export function toast(message, { kind = "info", ms = 4000 } = {}) {
  const box = $("toast");
  box.textContent = message;
  box.className = `toast ${kind}`;
  box.hidden = false;
  $("said").textContent = message; // the same words for a screen reader, said once, politely
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => (box.hidden = true), ms);
}

/** Words for a screen reader (speak.js), unless the log has just said them. */
export function announce(message) {
  say(message, { again: false });
}

/** A line of the play log, said to a screen reader too (speak.js); `quiet` for the backlog a page opens on. */
export function log(message, { mine = false, quiet = false } = {}) {
  const item = el("li", { class: mine ? "mine" : null }, message);
  $("log").prepend(item);
  while ($("log").children.length > 200) $("log").lastChild.remove();
  if (!quiet) say(message);
}

/** A move as the log says it; the game's renderer may say it its own way (words.js). */
export function moveWords(line) {
  return words.moveWords(line, T);
}

/** `words` without the `lead` a title above them already says ("Hand 2: Ann went out" under "Hand 2"). */
export function underTitle(text, lead) {
  if (!text.startsWith(lead)) return text;
  const rest = text.slice(lead.length);
  return rest[0].toUpperCase() + rest.slice(1);
}

export function handEndText(line) {
  return words.handEndWords(line, T);
}

export function describeLine(line) {
  return words.lineWords(line, T);
}

/** "Ann", "Ann and Bob", "Ann, Bob and Cy". */
export function names(seats) {
  return words.namesWords(seats, T);
}
