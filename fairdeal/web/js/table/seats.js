// The seats: the other seats round the top of the felt (each with its avatar, its fan of card
// backs, its count and score, the dealer's chip and the game's own marks), and this seat's own
// line over its hand.

import { unitWord } from "../catalogue.js";
import { t } from "../i18n.js";
import { cardBack, el, fill } from "../ui.js";
import { $, chipWord, game, isBot, isChips, me, myTurn, seatNameOf, T, ui } from "./state.js";

function seatOrder() {
  const n = ui.view.seats.length;
  if (me === null) return ui.view.seats.map((s) => s.seat);
  return Array.from({ length: n - 1 }, (_, i) => (me + 1 + i) % n);
}

function chipsOf(s) {
  const t = ui.view.table;
  return (ui.view.totals?.[s] ?? 0) + (t?.net?.[s] ?? 0);
}

function seatFacts(s) {
  const view = ui.view;
  const count = view.table?.hand_sizes?.[s];
  const facts = [];
  if (count !== undefined) facts.push(t("table.cards", { count }));
  if (isChips()) facts.push(`${chipsOf(s)} ${chipWord(chipsOf(s))}`);
  else facts.push(`${view.totals?.[s] ?? 0} ${unitWord(game.entry?.unit ?? "points", view.totals?.[s] ?? 0)}`);
  return facts;
}

export function renderOpponents() {
  const view = ui.view;
  const order = seatOrder();
  const mid = (order.length - 1) / 2;
  fill(
    $("opponents"),
    order.map((s, i) => {
      const count = view.table?.hand_sizes?.[s] ?? 0;
      const turn = view.status === "playing" && view.turn === s;
      const dealer = dealerSeat() === s;
      const badges = seatBadges(s);
      const label = [seatNameOf(s), isBot(s) ? t("table.bot") : null, ...seatFacts(s), dealer ? t("table.dealer") : null, ...badges.map((b) => b.dataset.says ?? b.textContent), turn ? t("table.playing_now") : null].filter(Boolean).join(", ");
      const fan = el("span", { class: "fan", "aria-hidden": "true" }, Array.from({ length: Math.min(count, 7) }, () => cardBack()));
      const node = el(
        "li",
        { class: `opp${turn ? " turn" : ""}${isBot(s) ? " is-bot" : ""}`, "data-seat": s, "aria-label": label, "aria-current": turn ? "true" : null },
        avatar(s),
        el("span", { class: "opp-name" }, seatNameOf(s), isBot(s) ? el("span", { class: "badge bot" }, t("table.bot")) : null, dealer ? dealerChip() : null, badges),
        fan,
        el("span", { class: "opp-facts" }, seatFacts(s).join(" · ")),
        turn && ui.deadlineAt ? el("span", { class: "opp-timer", "data-timer": "true" }) : null,
      );
      node.style.setProperty("--lift", `${Math.round(Math.abs(i - mid) * 10)}px`);
      return node;
    }),
  );
}

/** A seat's initials: "Ann Lee" → "AL", "Ann" → "A", "?" for a name with no letter or digit. */
function initials(name) {
  const words = name.match(/[\p{L}\p{N}]+/gu) ?? [];
  return (words.length > 1 ? [...words[0]][0] + [...words.at(-1)][0] : ([...(words[0] ?? "?")][0])).toUpperCase();
}

/**
 * A seat's avatar: a person's initials on a colour from their seat and name (the same at every
 * table they sit at that seat), a bot's robot icon; the count of cards in hand on its shoulder.
 */
function avatar(s) {
  const name = seatNameOf(s);
  const count = ui.view.table?.hand_sizes?.[s]; // as seatFacts says it: shown only when the view has it
  const node = el(
    "span",
    { class: "avatar", "aria-hidden": "true", "data-initials": isBot(s) ? null : initials(name) },
    isBot(s) ? el("img", { class: "bot-icon", src: "/vendor/bootstrap-icons/robot.svg", alt: "", draggable: "false" }) : initials(name),
    count !== undefined ? el("span", { class: "hand-count", "data-count": String(count) }, String(count)) : null,
  );
  let hue = s * 97;
  for (const ch of name) hue = (hue * 31 + ch.codePointAt(0)) % 360;
  node.style.setProperty("--hue", String(hue));
  return node;
}

/** The dealer's chip: "D" ("G", the giver), named on pointing. */
function dealerChip() {
  return el("span", { class: "dealer-chip", title: t("table.dealer") }, t("table.dealer_chip"));
}

/** Who wears the dealer's chip: the view's dealer, unless the game says another (or none: the server deals). */
function dealerSeat() {
  const own = game.hooks?.dealerSeat;
  return own ? own(T) : ui.view.table?.dealer;
}

/** A seat's marks besides bot and dealer, as the game's renderer draws them (each says its word in `data-says`). */
function seatBadges(s) {
  return game.hooks?.seatBadges?.(s, T) ?? [];
}

export function renderMe() {
  const view = ui.view;
  if (me === null) {
    fill($("me-head"), el("span", { class: "spectating" }, t("table.watching")));
    return;
  }
  const dealer = dealerSeat() === me;
  fill(
    $("me-head"),
    el("span", { class: "me-name" }, seatNameOf(me), el("span", { class: "badge you" }, t("table.you_badge")), isBot(me) ? el("span", { class: "badge bot" }, t("table.bot")) : null, dealer ? dealerChip() : null, seatBadges(me)),
    el("span", { class: "me-facts" }, seatFacts(me).join(" · ")),
    myTurn() ? el("span", { class: "your-turn" }, t("table.your_turn")) : null,
  );
}
