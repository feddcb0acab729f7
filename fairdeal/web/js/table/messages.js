// What the live table says: the play log and the words of each record line (the game's
// renderer may say a line its own way), the message strip (a toast) and what a screen reader
// hears.

import { display } from "../cards.js";
import { playWords } from "../render.js";
import { el, shortHex } from "../ui.js";
import { $, chipWord, game, isChips, me, moveForms, T, who } from "./state.js";

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

export function announce(message) {
  $("announce").textContent = message;
}

export function log(message, { mine = false } = {}) {
  const item = el("li", { class: mine ? "mine" : null }, message);
  $("log").prepend(item);
  while ($("log").children.length > 200) $("log").lastChild.remove();
}

/** A move as the log says it; the game's renderer may say it its own way. */
export function moveWords(line) {
  const own = game.hooks?.moveWords?.(line, T);
  if (own) return own;
  switch (line.move) {
    case "play":
      return playWords(line);
    default: {
      // As the game declares it: its log words, a template of the line's members.
      const form = moveForms().find((f) => f.kind === line.move);
      return form?.said ? form.said.replace(/\{(\w+)\}/g, (_, member) => String(line[member] ?? "")) : line.move;
    }
  }
}

/** `words` without the `lead` a title above them already says ("Hand 2: Ann went out" under "Hand 2"). */
export function underTitle(words, lead) {
  if (!words.startsWith(lead)) return words;
  const rest = words.slice(lead.length);
  return rest[0].toUpperCase() + rest.slice(1);
}

export function handEndText(line) {
  const own = game.hooks?.handEndWords?.(line, T);
  if (own) return own;
  const names = line.winners.map(who);
  if (line.how === "out") {
    const gain = line.scores[line.winners[0]];
    return `Hand ${line.hand}: ${names[0]} went out${isChips() ? "" : ` and scored ${gain}`}.`;
  }
  return `Hand ${line.hand} is blocked: ${names.join(" and ")} held the lowest count and scored ${line.scores[line.winners[0]]}.`;
}

/** Who pays or is paid: a seat, the pot, or a layout card (Michigan's counters lie on them). */
function party(x, start = false) {
  if (x === "pot") return start ? "The pot" : "the pot";
  if (typeof x === "string") return `${start ? "The" : "the"} ${display(x)}`;
  return who(x);
}

export function describeLine(line) {
  const own = game.hooks?.lineWords?.(line, T);
  if (own) return own;
  switch (line.type) {
    case "header":
      return `Table opened. Fingerprint ${shortHex(line.commitment, 8)}.`;
    case "client-commit":
      return `${who(line.seat)} committed to a seed.`;
    case "client-reveal":
      return `${who(line.seat)} revealed a seed.`;
    case "start":
      return "Every seed is in: the game key is fixed.";
    case "draw-for-deal":
      return `Draw for the deal: ${line.cards.map(display).join(" ")}. ${who(line.dealer)} deal${line.dealer === me ? "" : "s"} first.`;
    case "deal":
      return `Hand ${line.hand}: ${who(line.dealer)} deal${line.dealer === me ? "" : "s"}.${line.turned?.length ? ` Starter ${display(line.turned.at(-1))}.` : ""}`;
    case "move":
      return `${who(line.seat)} ${moveWords(line)}${line.auto ? " (time ran out)" : ""}.`;
    case "restock":
      return `The stock ran out: the pile became a new stock of ${line.cards} card${line.cards === 1 ? "" : "s"}.`;
    case "chips":
      return `${party(line.from, true)} paid ${line.amount} ${chipWord(line.amount)} to ${party(line.to)} (${line.reason.replace(/-/g, " ")}).`;
    case "put-down":
      return `${who(line.seat)} put down ${line.cards.map(display).join(" ")} with it.`;
    case "pick-up":
      return `${who(line.seat)} picked up ${line.cards.map(display).join(" ")}.`;
    case "hand-end":
      return handEndText(line);
    case "match-end":
      return "The game is over.";
    case "abandon":
      return `The game was abandoned: ${line.reason}.`;
    case "reveal":
      return "The server revealed its seed: anyone can now check every deal.";
    default:
      return null;
  }
}

/** "Ann", "Ann and Bob", "Ann, Bob and Cy". */
export function names(seats) {
  const words = seats.map(who);
  return words.length > 1 ? `${words.slice(0, -1).join(", ")} and ${words[words.length - 1]}` : words[0] ?? "";
}
