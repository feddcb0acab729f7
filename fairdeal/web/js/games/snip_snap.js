// Snip Snap Snorem, the Earl of Coventry and Jig at the table: the group being
// matched, each card with its call, the rank wanted next (the view's `wanted`) and the pot.

import { cardName } from "../cards.js";
import * as i18n from "../i18n.js";
import { cardFace, el, fill } from "../ui.js";
import { aRank, leads, rankWord, theRanks } from "./phrases.js";

const RANK_LETTERS = "A23456789TJQK";

/** The group is a round of plays (round.css); the calls are its own (snip_snap.css). */
export const css = ["round", "snip_snap"];

/**
 * What is called as a card of the group goes down (the view's `call`, as the rules say it), in
 * the page's language: the Earl of Coventry's verses are said again from the card's rank and its
 * place in the group (`i`), the way its "How to play" gives them; "Snip", "Snap", "Snorem" stay.
 */
function callWords(g, i, T) {
  const rank = g.card[0];
  if (!g.call || T.entry.name !== "earl-of-coventry" || i > 3 || !RANK_LETTERS.includes(rank)) return g.call;
  // The first and the third verse name the rank their own way ("as good as 5 can be"): a line for each rank.
  return [i18n.t(`snip_snap.verse_1.${rank}`), i18n.t("snip_snap.verse_2", { a_rank: aRank(rank) }), i18n.t(`snip_snap.verse_3.${rank}`), i18n.t("snip_snap.verse_4")][i];
}

function drawGroup(T) {
  const t = T.view.table;
  const group = t.group;
  const played = (g) => `${T.who(g.seat)} ${cardName(g.card)}`;
  const list = el(
    "ol",
    { class: "round group", id: "group", "aria-label": group.length ? i18n.t("snip_snap.group", { plays: group.map((g, i) => (g.call ? i18n.t("snip_snap.called", { play: played(g), call: callWords(g, i, T) }) : played(g))).join("; ") }) : i18n.t("snip_snap.new_group") },
    group.length
      ? group.map((g, i) => el("li", { class: i === group.length - 1 ? "last" : null }, cardFace(g.card), el("span", { class: "by" }, T.who(g.seat)), g.call ? el("q", { class: "call" }, callWords(g, i, T)) : null))
      : el("li", { class: "leads" }, el("span", { class: "card ghost", "aria-hidden": "true" }), el("span", { class: "by" }, t.turn === null ? "" : leads(T, t.turn))),
  );
  const series = T.entry.name === "jig";
  const wanted = t.wanted ? el("p", { class: "wanted", id: "wanted" }, i18n.t(series ? "snip_snap.next_in_series" : "snip_snap.next", { rank: aRank(t.wanted) })) : null;
  const pot = el("div", { class: "pot", role: "img", "aria-label": i18n.t("game.pot_label", { n: t.pot, unit: T.stake(t.pot) }) }, el("span", { class: "chips", "aria-hidden": "true" }, "●●●"), ` ${i18n.t("game.pot", { n: t.pot })}`);
  fill(T.$("board"), list, wanted, pot, el("p", { class: "hint laid" }, i18n.t("snip_snap.laid", { count: t.laid.length })));
  return "board";
}

function status(T) {
  const t = T.view.table;
  const rank = t.wanted;
  if (!T.myTurn()) return T.othersTurn() ? (rank ? i18n.t("snip_snap.others_next", { turn: T.othersTurn(), rank: aRank(rank) }) : i18n.t("game.others_lead", { turn: T.othersTurn() })) : "";
  if (!rank) return i18n.t("snip_snap.lead");
  if (T.legal("play")) return i18n.t("snip_snap.put_down", { ranks: theRanks(rank) });
  return i18n.t("snip_snap.pass", { rank: rankWord(rank), unit: T.stake(1) });
}

export default {
  drawTable: drawGroup,
  status,
  passLabel: (T) => i18n.t("snip_snap.pass_label", { unit: T.stake(1) }),
};
