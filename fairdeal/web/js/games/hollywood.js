// Hollywood scoring at the table (Hollywood Eights, Hollywood Go Boom): the three
// games on the score sheet, each seat's score in each; the sheet comes in the view.

import { el } from "../ui.js";

/** The three games of the sheet (null when the sheet keeps none): a game closes at the target. */
export function hollywoodGames(T) {
  const view = T.view;
  const games = view.sheet?.games;
  const target = view.options?.target;
  if (!Array.isArray(games)) return null;
  const seats = view.seats;
  const head = el("tr", {}, el("th", { scope: "col" }, "Game"), seats.map((s) => el("th", { scope: "col", title: s.name }, s.seat === T.me ? "You" : s.name)));
  const rows = games.map((scores, g) => {
    const closed = scores.some((n) => n >= target);
    return el(
      "tr",
      { class: closed ? "closed" : null },
      el("th", { scope: "row" }, `${g + 1}${closed ? " (closed)" : ""}`),
      seats.map((s) => el("td", { class: closed && scores[s.seat] >= target ? "won" : null }, String(scores[s.seat]))),
    );
  });
  return el(
    "div",
    { class: "hollywood" },
    el("h3", {}, "The three games"),
    el("p", { class: "hint" }, `A first win goes into game 1, a second into games 1 and 2, later ones into all three still open; a game closes when someone reaches ${target}, and the match ends when all three have. Totals are the sum of the three.`),
    el("table", { class: "scores", id: "hollywood-games" }, el("thead", {}, head), el("tbody", {}, rows)),
  );
}

/** The hint over the scores while the sheet keeps three games (null otherwise). */
export function hollywoodHint(T) {
  return T.view.sheet?.games ? "Points scored in each hand; each total is the sum of that seat's three games (below)." : null;
}
