// The clocks: the seat's turn timer (its bar and seconds, and the pill on the seat whose turn it
// is) and the countdown to the next hand between hands. table.js ticks them; each writes only
// what changed, once a second.

import { t } from "../i18n.js";
import { $, myTurn, ui } from "./state.js";

export function renderTimer() {
  const box = $("timer");
  const show = ui.deadlineAt !== null && ui.view?.status === "playing";
  box.hidden = !(show && myTurn());
  tick();
}

export function tick() {
  if (ui.deadlineAt === null) return;
  // Whole seconds: the bar and the numbers change once a second and nothing is written between
  // (every write lays out and repaints the table: at 5 writes a second an idle table took a
  // quarter of a core in Chromium's software rendering, once a second a twentieth; measured).
  const seconds = Math.ceil(Math.max(0, (ui.deadlineAt - performance.now()) / 1000));
  // Four decimals: CSS gives a transform back with six digits at most, so the comparison below holds.
  const fraction = String(Math.round(1e4 * Math.max(0, Math.min(1, seconds / (ui.deadlineTotal || 20)))) / 1e4);
  const text = `${seconds} s`;
  const fill = $("timer-fill");
  const scale = `scaleX(${fraction})`;
  if (fill.style.transform !== scale) fill.style.transform = scale;
  $("timer").classList.toggle("low", seconds <= 5);
  writeText($("timer-text"), text);
  for (const node of document.querySelectorAll("[data-timer]")) {
    writeText(node, text);
    if (node.style.getPropertyValue("--left") !== fraction) node.style.setProperty("--left", fraction);
  }
}

/** Sets a node's text only when it differs: an unchanged write still costs a layout. */
function writeText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}

export function tickNext() {
  const node = $("next-countdown");
  if (!node || ui.nextAt === null) return;
  const left = Math.max(0, Math.ceil((ui.nextAt - performance.now()) / 1000));
  writeText(node, left > 0 ? t("table.next_in", { n: left }) : t("table.dealing_next"));
}
