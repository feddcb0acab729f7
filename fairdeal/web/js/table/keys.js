// The keyboard: the arrows move along the hand, Enter or Space lifts and plays, the letters
// make the moves (D, K, T, P, and each key a game declares for its own kinds), 1 to 4 name a suit, M the sound, Esc puts back; the
// game's renderer takes its own keys first; between hands Enter is "Next hand". table.js
// listens with these.

import { SUITS } from "../protocol.js";
import { act, draw, fieldBox, keep, lower, nameSuit, pass, playThen, tapCard } from "./moves.js";
import { readyNext } from "./sheets.js";
import { closeSide } from "./side.js";
import { hideTip } from "./tips.js";
import { toggleSound } from "./tools.js";
import { $, focusCard, game, legal, moveForms, myTurn, T, thenCards, ui } from "./state.js";

/** The hand's cards the keyboard moves along: not one in flight (hidden until the view without it). */
function handButtons() {
  return [...$("hand").querySelectorAll("button.card:not(.in-flight)")];
}

/** A card of the hand took the focus: it is the hand's Tab stop from now on. */
export function onHandFocus(event) {
  const code = event.target?.dataset?.code;
  if (!code) return;
  focusCard(code, event.target.dataset.copy ?? "0");
  for (const b of handButtons()) b.tabIndex = b === event.target ? 0 : -1;
}

/** A key pressed anywhere on the page (not in a text box). */
export function onKey(event) {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const target = event.target;
  if (target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return;
  const key = event.key;
  if (!$("between").hidden && key.toLowerCase() !== "m") {
    // Between hands no game key applies: Enter (on the page, not on a link or a button) is "Next hand".
    if (key === "Enter" && $("next-hand") && !(target instanceof HTMLButtonElement || target instanceof HTMLAnchorElement)) {
      readyNext();
      event.preventDefault();
    }
    return;
  }
  // The game's own keys first (Enter plays the chosen cards, N declares no play...).
  if (game.hooks?.key?.(event, T)) {
    event.preventDefault();
    return;
  }
  const inHand = $("hand").contains(target) && target.dataset?.code;
  if (inHand && (key === "ArrowLeft" || key === "ArrowRight" || key === "Home" || key === "End")) {
    const buttons = handButtons();
    let i = buttons.indexOf(target);
    if (key === "ArrowLeft") i = Math.max(0, i - 1);
    if (key === "ArrowRight") i = Math.min(buttons.length - 1, i + 1);
    if (key === "Home") i = 0;
    if (key === "End") i = buttons.length - 1;
    buttons[i].focus();
    event.preventDefault();
    return;
  }
  if (inHand && (key === "Enter" || key === " ")) {
    tapCard(target.dataset.code, Number(target.dataset.copy ?? 0));
    event.preventDefault();
    return;
  }
  // A declared kind's key (Michigan's X, A, B): made at once, or its box focused for the amount.
  const form = moveForms().find((f) => f.key && f.key.toLowerCase() === key.toLowerCase() && !["draw", "keep", "pass"].includes(f.kind));
  if (form) {
    const box = form.fields.find((field) => !field.optional);
    if (!legal(form.kind)) return;
    if (box) $(fieldBox(form, box))?.focus();
    else act(form);
    event.preventDefault();
    return;
  }
  switch (key.toLowerCase()) {
    case "d":
      if (myTurn()) draw();
      break;
    case "k":
      keep();
      break;
    case "t":
      if (myTurn() && ui.lifted && thenCards(ui.lifted).length) playThen(ui.lifted, thenCards(ui.lifted)[0]);
      break;
    case "p":
      pass();
      break;
    case "m":
      toggleSound();
      break;
    case "1":
    case "2":
    case "3":
    case "4":
      if (ui.picking) nameSuit(SUITS[Number(key) - 1]);
      break;
    case "escape":
      if (document.body.classList.contains("side-open")) closeSide();
      else if (ui.lifted) lower();
      hideTip();
      break;
    default:
      return;
  }
}
