// Tooltips: pointing at (or holding a finger on, or reaching with the keyboard) a card, the
// stock or the pile says what it is; a hold on a touch screen shows it without tapping.

import { display } from "../cards.js";
import { $ } from "./state.js";

const tooltip = $("tooltip");
let tipTimer = null;
let pressTimer = null;
let suppressClick = false;

function showTip(target, text) {
  if (!text) return;
  tooltip.textContent = text;
  tooltip.hidden = false;
  const box = target.getBoundingClientRect();
  const tip = tooltip.getBoundingClientRect();
  const left = Math.min(Math.max(8, box.left + box.width / 2 - tip.width / 2), window.innerWidth - tip.width - 8);
  let top = box.top - tip.height - 10;
  if (top < 8) top = box.bottom + 10;
  tooltip.style.left = `${left}px`;
  tooltip.style.top = `${top}px`;
}

export function hideTip() {
  clearTimeout(tipTimer);
  tooltip.hidden = true;
}

/** The engine's why-not: "8♥ does not match 9♣ in suit or rank" names its card itself; else the card is named first. */
export function whyNotWords(code, why) {
  return why.includes(display(code)) ? why : `${display(code)}: ${why}`;
}

/** Hover (mouse), hold (touch) and focus (keyboard) show `explain()` next to `node`. */
export function explainOn(node, explain) {
  node.addEventListener("pointerenter", (event) => {
    if (event.pointerType !== "mouse") return;
    clearTimeout(tipTimer);
    tipTimer = setTimeout(() => showTip(node, explain()), 300);
  });
  node.addEventListener("pointerleave", hideTip);
  node.addEventListener("pointerdown", (event) => {
    if (event.pointerType === "mouse") return;
    suppressClick = false;
    clearTimeout(pressTimer);
    pressTimer = setTimeout(() => {
      suppressClick = true;
      showTip(node, explain());
    }, 450);
  });
  const release = () => {
    clearTimeout(pressTimer);
    if (suppressClick) setTimeout(hideTip, 1800);
  };
  node.addEventListener("pointerup", release);
  node.addEventListener("pointercancel", release);
  node.addEventListener("contextmenu", (event) => event.preventDefault());
  // Keyboard focus shows it too; a tap or a click that focuses the card does not.
  node.addEventListener("focus", () => node.matches(":focus-visible") && showTip(node, explain()));
  node.addEventListener("blur", hideTip);
}

export function tapped(handler) {
  return (event) => {
    if (suppressClick) {
      suppressClick = false;
      event.preventDefault();
      return;
    }
    handler(event);
  };
}
