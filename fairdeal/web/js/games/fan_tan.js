// The Fan Tan family at the table (Fan Tan, Sjueren, Five or Nine, Play or Pay,
// Liberty Fan-Tan): one row per suit and the pot. Each row's cards and the cards
// that may go on now (its open ends) come in the view, as the rules lay them out
// (`table.row_cards`, `table.next`): Sjueren's ace above the king, Play or Pay's
// rows round the corner.

import { display, isRed, SUIT_SYMBOLS } from "../cards.js";
import * as i18n from "../i18n.js";
import { RANKS, SUITS } from "../protocol.js";
import { cardFace, el, fill } from "../ui.js";
import { orList, suitWords } from "./phrases.js";

/** Its style sheet, fan_tan.css (catalogue.js's rendererOf loads it before the first drawing). */
export const css = ["fan_tan"];

function drawRows(T) {
  const t = T.view.table;
  const next = t.next; // null: any card may lead
  const rows = [...SUITS].map((suit, i) => {
    const run = t.row_cards?.[suit] ?? [];
    const ends = (next ?? []).filter((code) => code[1] === suit);
    const opening = t.opening ? (t.opening === "10" ? "T" : t.opening) : null;
    const cards = run.length
      ? el("span", { class: "run" }, run.map((code) => cardFace(code)))
      : el("span", { class: "run empty" }, el("span", { class: "card ghost", "aria-hidden": "true" }, opening ? display(opening + suit) : SUIT_SYMBOLS[i]));
    const said = { suit: suitWords(suit), next: orList(ends.map(display)) };
    const label = run.length
      ? i18n.t(ends.length ? "fan_tan.row_next" : "fan_tan.row", { ...said, from: display(run[0]), to: display(run.at(-1)) })
      : i18n.t(ends.length ? "fan_tan.closed_next" : "fan_tan.closed", said);
    return el(
      "div",
      { class: "suit-row", role: "group", "aria-label": label, "data-suit": suit, "data-next": ends.join(" ") || null },
      el("span", { class: `row-suit ${isRed(suit) ? "red" : "black"}`, "aria-hidden": "true" }, SUIT_SYMBOLS[i]),
      cards,
    );
  });
  const pot = T.holdsStake() ? el("div", { class: "pot", role: "img", "aria-label": i18n.t("game.pot_label", { n: t.pot, unit: T.stake(t.pot) }) }, el("span", { class: "chips", "aria-hidden": "true" }, "●●●"), ` ${i18n.t("game.pot", { n: t.pot })}`) : null;
  fill(T.$("rows"), rows, pot);
  return "rows";
}

function status(T) {
  if (!T.myTurn()) return T.othersTurn() ? `${T.othersTurn()}.` : "";
  if (T.legal("play")) return T.legal("pass") ? i18n.t("fan_tan.play_or_pass") : i18n.t("fan_tan.play");
  return i18n.t("fan_tan.must_pass");
}

function passLabel(T) {
  return (T.view.cards ?? []).some((c) => c.playable) ? i18n.t("fan_tan.pass_penalty") : i18n.t("game.pass");
}

/** Where a played card lands (the table's motion): its suit's row, at the end it builds on. */
function landing(line, T) {
  const row = T.$("rows").querySelector(`.suit-row[data-suit="${line.card?.[1]}"]`);
  const run = [...(row?.querySelectorAll(".run .card") ?? [])];
  const below = run.length && RANKS.indexOf(line.card[0]) < RANKS.indexOf(run[0].dataset.code?.[0]);
  return (below ? run[0] : run.at(-1)) ?? row;
}

export default {
  drawTable: drawRows,
  landing,
  status,
  passLabel,
};
