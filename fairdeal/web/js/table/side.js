// The side panel (a drawer on a narrower screen): its tabs, the scores (hand by hand, the
// totals, the game's own extra, the host's Abandon) and how to play the game.

import { howToPlay } from "../help.js";
import { t } from "../i18n.js";
import { el, fill } from "../ui.js";
import { setView } from "./live.js";
import { toast } from "./messages.js";
import { $, api, game, isChips, me, sessionWords, T, ui, unitTitle } from "./state.js";

export function renderScores() {
  const view = ui.view;
  const chips = isChips();
  const target = view.options?.target;
  const extra = game.hooks.scoresExtra?.(T) ?? null;
  fill(
    $("panel-scores"),
    el("h2", {}, chips ? unitTitle() : t("table.scores")),
    el("p", { class: "hint" }, scoresHint(view, chips, target)),
    scoresTable(view, "scores"),
    extra,
    !chips && target && !extra ? progressBars(view, target) : null,
    api.host && (view.status === "playing" || view.status === "between-hands")
      ? el("div", { class: "host-tools" }, el("h3", {}, t("table.host")), el("button", { type: "button", class: "secondary", id: "abandon", onclick: abandonGame }, t("table.abandon")))
      : null,
  );
}

/** Hand by hand, what each seat scored (or won and paid), and the totals: the side panel's and the end's. */
export function scoresTable(view, id) {
  const seats = view.seats;
  const chips = isChips();
  const head = el("tr", {}, el("th", { scope: "col" }, t("table.hand")), seats.map((s) => el("th", { scope: "col", title: s.name }, s.seat === me ? t("words.you") : s.name)));
  const hands = (view.hands ?? []).map((h) =>
    el(
      "tr",
      {},
      el("th", { scope: "row" }, String(h.hand)),
      seats.map((s) => el("td", { class: h.winners.includes(s.seat) ? "won" : null }, chips ? signed(h.scores[s.seat]) : String(h.scores[s.seat]), h.winners.includes(s.seat) ? el("span", { class: "visually-hidden" }, ` ${t("table.won_hand")}`) : null)),
    ),
  );
  const totals = el("tr", { class: "totals" }, el("th", { scope: "row" }, chips ? unitTitle() : t("table.total")), seats.map((s) => el("td", {}, String(view.totals?.[s.seat] ?? 0))));
  return el("table", { class: "scores", id }, el("thead", {}, head), el("tbody", {}, hands, totals));
}

function scoresHint(view, chips, target) {
  const own = game.hooks.scoresHint?.(T);
  if (own) return own;
  const session = sessionWords();
  if (chips) return `${t("table.hint_holds", { unit: unitTitle() })}${session}`;
  if (target) return t("table.hint_target", { target });
  if (game.entry?.unit === "deals") return `${t("table.hint_deals")}${session}`;
  return `${t("table.hint_scored")}${session}`;
}

export function signed(n) {
  return n > 0 ? `+${n}` : String(n);
}

function progressBars(view, target) {
  return el(
    "ul",
    { class: "progress" },
    view.seats.map((s) => {
      const total = view.totals?.[s.seat] ?? 0;
      const bar = el("span", { class: "bar" }, el("span", { class: "fill" }));
      bar.firstChild.style.width = `${Math.min(100, (100 * total) / target)}%`;
      return el("li", {}, el("span", { class: "who" }, s.seat === me ? t("words.you") : s.name), bar, el("span", { class: "num" }, `${total}/${target}`));
    }),
  );
}

async function abandonGame() {
  if (!confirm(t("table.abandon_confirm"))) return;
  try {
    await api.abandon();
    setView(await api.view());
  } catch (error) {
    toast(t("table.not_abandoned", { reason: error.message }), { kind: "bad" });
  }
}

export const TABS = ["scores", "fair", "log", "help"];
const OPENERS = ["open-scores", "open-fair", "open-help"];

export function showPanel(name) {
  for (const tab of TABS) {
    $(`tab-${tab}`).setAttribute("aria-selected", String(tab === name));
    $(`panel-${tab}`).hidden = tab !== name;
  }
  if (name === "help") showHelp();
}

let helpShown = null;

/** The "How to play" tab: the game's text from the rules package, fetched the first time it is shown. */
async function showHelp() {
  const name = game.entry?.name;
  if (!name || helpShown === name) return;
  helpShown = name;
  fill($("panel-help"), el("p", { class: "hint" }, t("lobby.loading")));
  fill($("panel-help"), await howToPlay(name));
}

export function openSide(name) {
  showPanel(name);
  document.body.classList.add("side-open");
  for (const id of OPENERS) $(id).setAttribute("aria-expanded", "true");
  $(`tab-${name}`).focus();
}

export function closeSide() {
  document.body.classList.remove("side-open");
  for (const id of OPENERS) $(id).setAttribute("aria-expanded", "false");
}
