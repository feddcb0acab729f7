// Snip Snap Snorem, the Earl of Coventry and Jig at the table: the group being
// matched, each card with its call, the rank wanted next (the view's `wanted`) and the pot.

import { cardName } from "../cards.js";
import { cardFace, el, fill } from "../ui.js";

/** The group is a round of plays (round.css); the calls are its own (snip_snap.css). */
export const css = ["round", "snip_snap"];

function drawGroup(T) {
  const t = T.view.table;
  const group = t.group;
  const list = el(
    "ol",
    { class: "round group", id: "group", "aria-label": group.length ? `This group: ${group.map((g) => `${T.who(g.seat)} ${cardName(g.card)}${g.call ? `, "${g.call}"` : ""}`).join("; ")}` : "A new group" },
    group.length
      ? group.map((g, i) => el("li", { class: i === group.length - 1 ? "last" : null }, cardFace(g.card), el("span", { class: "by" }, T.who(g.seat)), g.call ? el("q", { class: "call" }, g.call) : null))
      : el("li", { class: "leads" }, el("span", { class: "card ghost", "aria-hidden": "true" }), el("span", { class: "by" }, t.turn === null ? "" : `${T.who(t.turn)} lead${t.turn === T.me ? "" : "s"}`)),
  );
  const series = T.entry.name === "jig";
  const wanted = t.wanted ? el("p", { class: "wanted", id: "wanted" }, series ? `Next in the series: ${T.aRank(t.wanted)}` : `Next: ${T.aRank(t.wanted)}`) : null;
  const pot = el("div", { class: "pot", role: "img", "aria-label": `Pot: ${t.pot} ${T.stake(t.pot)}` }, el("span", { class: "chips", "aria-hidden": "true" }, "●●●"), ` Pot ${t.pot}`);
  fill(T.$("board"), list, wanted, pot, el("p", { class: "hint laid" }, `${t.laid.length} card${t.laid.length === 1 ? "" : "s"} put down this deal`));
  return "board";
}

function status(T) {
  const t = T.view.table;
  const rank = t.wanted ? T.rankWord(t.wanted) : null;
  if (!T.myTurn()) return T.othersTurn() ? `${T.othersTurn()}: ${rank ? `${T.aRank(t.wanted)} next` : "they lead"}.` : "";
  if (!rank) return "Your turn: lead any card; every card of its rank you hold goes down with it.";
  if (T.legal("play")) return `Your turn: put down your ${rank}s (every one you hold goes down).`;
  return `No ${rank} in your hand: pass and put a ${T.stake(1)} in the pot.`;
}

export default {
  drawTable: drawGroup,
  status,
  passLabel: (T) => `Pass (a ${T.stake(1)} to the pot)`,
};
