// Hollywood scoring at the table (Hollywood Eights, Hollywood Go Boom): the three
// games on the score sheet, each seat's score in each; the sheet comes in the view.

import * as i18n from "../i18n.js";
import { el } from "../ui.js";

/** The three games of the sheet (null when the sheet keeps none): a game closes at the target. */
export function hollywoodGames(T) {
  const view = T.view;
  const games = view.sheet?.games;
  const target = view.options?.target;
  if (!Array.isArray(games)) return null;
  const seats = view.seats;
  const head = el("tr", {}, el("th", { scope: "col" }, i18n.t("hollywood.game")), seats.map((s) => el("th", { scope: "col", title: s.name }, s.seat === T.me ? i18n.t("hollywood.you") : s.name)));
  const rows = games.map((scores, g) => {
    const closed = scores.some((n) => n >= target);
    return el(
      "tr",
      { class: closed ? "closed" : null },
      el("th", { scope: "row" }, closed ? i18n.t("hollywood.closed", { n: g + 1 }) : String(g + 1)),
      seats.map((s) => el("td", { class: closed && scores[s.seat] >= target ? "won" : null }, String(scores[s.seat]))),
    );
  });
  return el(
    "div",
    { class: "hollywood" },
    el("h3", {}, i18n.t("hollywood.title")),
    el("p", { class: "hint" }, i18n.t("hollywood.how", { target })),
    el("table", { class: "scores", id: "hollywood-games" }, el("thead", {}, head), el("tbody", {}, rows)),
  );
}

/** The hint over the scores while the sheet keeps three games (null otherwise). */
export function hollywoodHint(T) {
  return T.view.sheet?.games ? i18n.t("hollywood.hint") : null;
}
