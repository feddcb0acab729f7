// Drawing the seat's view: render() redraws every part of the page from `ui.view` (each part
// is drawn by its own module), keeping the keyboard's focus where it was; the middle of the
// table is the game's renderer's, the status line its words.

import { t } from "../i18n.js";
import { renderTimer } from "./clock.js";
import { fetchPublicLog, renderFair } from "./fair.js";
import { renderActions, renderHand, renderSuitPicker } from "./hand.js";
import { renderSeeding } from "./seeding.js";
import { renderMe, renderOpponents } from "./seats.js";
import { renderBetween, renderEnd } from "./sheets.js";
import { renderScores } from "./side.js";
import { $, askedLogEnd, game, myTurn, T, title, ui } from "./state.js";

export function render() {
  const view = ui.view;
  if (!view) return;
  // Buttons are drawn anew: remember which one had the focus, to give it back.
  const active = document.activeElement;
  const focusedId = active && active !== document.body && active.id && !$("hand").contains(active) ? active.id : null;
  const inControls = active && ($("actions").contains(active) || $("suit-picker").contains(active));
  const focusedSuit = $("suit-picker").contains(active) ? active.dataset.suit : null;
  renderParts(view);
  const again = focusedId ? document.getElementById(focusedId) : null;
  if (again && document.activeElement !== again) again.focus({ preventScroll: true });
  if (focusedSuit) $("suit-picker").querySelector(`[data-suit="${focusedSuit}"]`)?.focus({ preventScroll: true });
  if (inControls && (document.activeElement === document.body || !document.activeElement)) {
    // The button went away with the move it made: the keyboard carries on in the hand.
    ($("hand").querySelector("button.card[tabindex='0']") ?? $("actions").querySelector("button"))?.focus({ preventScroll: true });
  }
}

function renderParts(view) {
  document.body.dataset.phase = view.status;
  document.body.dataset.seq = String(view.seq);
  document.body.dataset.rules = view.rules;
  document.body.dataset.myTurn = myTurn() ? "true" : "false";
  $("game-title").textContent = view.hand_no ? t("table.title_hand", { title: title(), hand: view.hand_no }) : title();
  document.title = t(myTurn() ? "table.doc_title_turn" : "table.doc_title", { title: title() });
  renderOpponents();
  renderCenter();
  renderMe();
  renderHand();
  renderActions();
  renderStatus();
  renderTimer();
  renderScores();
  renderFair();
  // Once over, the game's end entry is in the log too: asked for once.
  if ((view.status === "over" || view.status === "abandoned") && ui.publicLog?.checkpoint && !ui.logEndAsked && !ui.publicLog.entries.some((e) => e.type === "end")) {
    askedLogEnd();
    fetchPublicLog();
  }
  renderSeeding();
  renderBetween();
  renderEnd();
}

/** The middle of the table, as the game's renderer draws it (the stock and pile, the rows, or the board). */
function renderCenter() {
  const used = ui.view.table ? game.hooks.drawTable(T) : null;
  for (const id of ["stock-pile", "rows", "board"]) $(id).hidden = id !== used;
  renderSuitPicker();
}

function renderStatus() {
  $("status").textContent = statusText();
}

function statusText() {
  const view = ui.view;
  if (view.status === "seeding") return t("table.waiting_seeds");
  if (view.status === "over") return t("words.game_over");
  if (view.status === "abandoned") return t("table.abandoned");
  if (view.status === "between-hands") return t("table.between_status", { hand: view.hand_no });
  if (!view.table) return "";
  return game.hooks.status(T);
}
