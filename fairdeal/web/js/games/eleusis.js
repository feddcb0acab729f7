// Eleusis at the table: the mainline left to right (rows when it wraps), each sideline
// hanging below the mainline card it was played on (a string's cards overlapped in their
// order, one rejected play under another), the Forecaster's marker, the stock, and a banner
// for the last judgement. The controls are the game's own: cards chosen in order for a
// string, no play, the Forecaster's offer and calls, and the dealing seat's rule box. In
// Eleusis any card may be tried, so no card of the hand is greyed out in a play turn.
//
// The view (`table`) comes from the rules; the secret rule is in it only for the seat that
// wrote it, until the round ends and everyone's view has it, with the nonce that makes its
// commitment check: the rule box, the rule and its check are eleusis_rule.js's.

import { cardName, display } from "../cards.js";
import * as i18n from "../i18n.js";
import { cardBack, cardFace, cardRow, el, shortHex } from "../ui.js";
import { keepFitted } from "./eleusis_layout.js";
import { checkNote, handEndMore, ruleNode, scoresExtra, seatDeals } from "./eleusis_rule.js";
import { andList, cards as cardCount } from "./phrases.js";

export { ruleCommitment } from "./eleusis_rule.js";

/** Its style sheet, eleusis.css (catalogue.js's rendererOf loads it before the first drawing). */
export const css = ["eleusis"];

const MAX_STRING = 4;

// -- small words -------------------------------------------------------------------------

/** "7♥", "3♥ 4♥ 5♣": cards as the table says them. */
function cardsText(codes) {
  return codes.map(display).join(" ");
}

/** "7♥", "the string 3♥ 4♥", "no play": what a play was. */
function playText(play, cards) {
  if (play === "no-play") return i18n.t("eleusis.no_play");
  return play === "string" ? i18n.t("eleusis.the_string", { cards: cardsText(cards) }) : cardsText(cards);
}

/** "Bot 2's string 3♥ 4♥", "Bot 2's no play", "Bot 2's 7♥": whose play is waiting for the call. */
function whosePlay(T, a) {
  const said = { name: T.who(a.seat), cards: cardsText(a.cards) };
  const kind = a.play === "no-play" ? "no_play" : a.play === "string" ? "string" : "card";
  if (a.seat === T.me) return { no_play: i18n.t("eleusis.your_no_play"), string: i18n.t("eleusis.your_string", said), card: i18n.t("eleusis.your_card", said) }[kind];
  return { no_play: i18n.t("eleusis.their_no_play", said), string: i18n.t("eleusis.their_string", said), card: i18n.t("eleusis.their_card", said) }[kind];
}

/** The seat's state kept between draws: the cards chosen for a play, the card named for a call, the rule box. */
function seatState(T) {
  T.ui.secretRule ??= { chosen: [], named: null, awaitingKey: null, box: null, laidOut: null };
  return T.ui.secretRule;
}

function table(T) {
  return T.view.table;
}

// -- choosing cards for a play --------------------------------------------------------

/** The chosen cards ("7H/0": the first 7♥ of the hand) that are still in the hand, in order. */
function chosen(T) {
  const s = seatState(T);
  if (!T.legal("play")) {
    s.chosen = [];
    return s.chosen;
  }
  const held = new Map();
  for (const code of T.view.hand ?? []) held.set(code, (held.get(code) ?? 0) + 1);
  s.chosen = s.chosen.filter((key) => {
    const [code, copy] = key.split("/");
    return Number(copy) < (held.get(code) ?? 0);
  });
  return s.chosen;
}

function chosenCodes(T) {
  return chosen(T).map((key) => key.split("/")[0]);
}

/** Tap a card: it joins the play (numbered 1, 2, 3, 4 in order) or, chosen already, leaves it. */
function toggle(T, code, copy) {
  const list = chosen(T);
  const key = `${code}/${copy}`;
  const at = list.indexOf(key);
  if (at >= 0) list.splice(at, 1);
  else if (list.length >= MAX_STRING) {
    T.toast(i18n.t("eleusis.string_most", { n: MAX_STRING }));
    return;
  } else list.push(key);
  T.render();
}

function clearChosen(T) {
  seatState(T).chosen = [];
  T.render();
}

/** Play the chosen card, or the chosen string in its order. */
async function playChosen(T) {
  const s = seatState(T);
  const codes = chosenCodes(T);
  if (!codes.length) {
    T.toast(i18n.t("eleusis.tap_first"));
    return;
  }
  const before = s.chosen;
  s.chosen = [];
  const move = codes.length === 1 ? { move: "play", card: codes[0] } : { move: "string", cards: codes };
  if (!(await T.send(move))) s.chosen = before;
}

function noPlay(T) {
  if (!T.legal("no-play")) return;
  seatState(T).chosen = [];
  T.send({ move: "no-play" });
}

// -- the Forecaster ------------------------------------------------------------------------

/** The card named for "Wrong: it could take ...", while the same no-play waits for the call. */
function named(T) {
  const s = seatState(T);
  const t = table(T);
  const key = t.awaiting ? `${t.hand_no}/${t.judgements}/${t.awaiting.seat}` : null;
  if (s.awaitingKey !== key) {
    s.awaitingKey = key;
    s.named = null;
  }
  return s.named;
}

function nameCard(T, code) {
  const s = seatState(T);
  named(T);
  s.named = s.named === code ? null : code;
  T.render();
}

function callRight(T) {
  if (T.legal("call")) T.send({ move: "call", call: "right" });
}

function callWrong(T) {
  if (!T.legal("call")) return;
  const awaiting = table(T).awaiting;
  if (awaiting?.play !== "no-play") {
    T.send({ move: "call", call: "wrong" });
    return;
  }
  const card = named(T);
  if (!card) {
    T.toast(i18n.t("eleusis.name_a_card"));
    return;
  }
  T.send({ move: "call", call: "wrong", card });
}

// -- the last judgement ------------------------------------------------------------------

/** "right", "wrong" ("riktig", "galt"): a call, with the card a wrong no play could have taken. */
function callWords(call, card) {
  const words = call === "right" ? i18n.t("eleusis.right") : call === "wrong" ? i18n.t("eleusis.wrong") : String(call);
  return card ? i18n.t("eleusis.call_card", { call: words, card: display(card) }) : words;
}

/**
 * A judgement as the banner says it: {verdict, detail, extras}; each extra is {text, alert} (an
 * alert: the Forecaster overthrown, a player expelled). `T` names the seats ("You" for its own).
 */
export function judgementWords(j, T) {
  const cards = cardsText(j.cards);
  let verdict;
  let detail;
  if (j.play !== "no-play") {
    verdict = j.right ? i18n.t("eleusis.verdict_right") : i18n.t("eleusis.verdict_wrong");
    if (j.right) detail = i18n.t("eleusis.on_mainline", { cards });
    else if (j.penalty) detail = i18n.t("eleusis.penalty", { count: j.penalty, cards });
    else detail = i18n.t("eleusis.no_penalty", { cards });
  } else if (j.right) {
    verdict = i18n.t("eleusis.no_play_right");
    detail = j.fresh ? i18n.t("eleusis.fresh_hand", { count: j.fresh }) : i18n.t("eleusis.returned", { count: j.returned });
  } else {
    verdict = i18n.t("eleusis.no_play_wrong");
    detail = j.penalty ? i18n.t("eleusis.goes_on_penalty", { card: display(j.dealer_card), count: j.penalty }) : i18n.t("eleusis.goes_on_no_penalty", { card: display(j.dealer_card) });
  }
  const extras = [];
  if (j.call !== null && j.call !== undefined) {
    const said = { name: T.who(j.forecaster), call: callWords(j.call, j.call_card), n: j.forecaster_penalty };
    const you = j.forecaster === T.me;
    if (j.overthrown) extras.push({ text: you ? i18n.t("eleusis.you_overthrown", said) : i18n.t("eleusis.overthrown", said), alert: true });
    else extras.push({ text: you ? i18n.t("eleusis.you_forecast", said) : i18n.t("eleusis.forecast", said), alert: false });
  }
  if (j.expelled) extras.push({ text: j.seat === T.me ? i18n.t("eleusis.you_expelled") : i18n.t("eleusis.expelled", { name: T.who(j.seat) }), alert: true });
  return { verdict, detail, extras };
}

function judgedNode(T, j, { id, mine = false }) {
  const { verdict, detail, extras } = judgementWords(j, T);
  return el(
    "p",
    { class: `judged${mine ? " mine" : ""}`, id, "data-right": String(j.right) },
    el("span", { class: "by" }, `${mine ? i18n.t("eleusis.your_play") : T.who(j.seat)} · ${playText(j.play, j.cards)}`),
    " ",
    el("strong", {}, verdict),
    ` ${detail}.`,
    extras.map((x) => el("span", { class: `extra${x.alert ? " alert" : ""}` }, `${x.text}.`)),
  );
}

/** This seat's own last judgement of the round, when later plays (the bots' at once) came after it. */
function myLastJudgement(T) {
  const t = table(T);
  if (T.me === null || !T.ui.record) return null;
  const judged = T.ui.record.filter((l) => l.type === "judgement" && l.hand === t.hand_no);
  for (let i = judged.length - 1; i >= 0; i--) {
    if (judged[i].seat === T.me) return i + 1 >= t.judgements ? null : judged[i];
  }
  return null;
}

function banner(T) {
  const t = table(T);
  const j = t.last;
  if (!j) {
    const text = i18n.t(t.phase === "rule" ? "eleusis.starter_rule" : "eleusis.starter_none", { card: display(t.mainline[0]) });
    return el("p", { class: "judged", id: "last-judgement" }, text);
  }
  const mine = myLastJudgement(T);
  return [judgedNode(T, j, { id: "last-judgement" }), mine ? judgedNode(T, mine, { id: "my-judgement", mine: true }) : null];
}

// -- the layout ----------------------------------------------------------------------------

function entryNode(entry) {
  const label = entry.length > 1 ? i18n.t("eleusis.the_string", { cards: entry.map(cardName).join(", ") }) : cardName(entry[0]);
  // A list's item stays a list item (axe: a role on it would leave the list without items): its words are hidden text.
  return el("li", { class: `entry${entry.length > 1 ? " string" : ""}`, title: cardsText(entry) }, el("span", { class: "visually-hidden" }, label), entry.map((code) => cardFace(code, { attrs: { "aria-hidden": "true" } })));
}

function layoutNode(T) {
  const t = table(T);
  const below = t.layout_size - t.mainline.length;
  return el(
    "ol",
    { class: "mainline", id: "mainline", "aria-label": i18n.t("eleusis.mainline", { main: cardCount(t.mainline.length), below: cardCount(below) }) },
    t.mainline.map((code, i) => {
      const marked = t.marker === i;
      const wrong = t.sidelines[i] ?? [];
      const said = { card: cardName(code), name: T.who(t.forecaster) };
      const label = i === 0 ? i18n.t(marked ? "eleusis.starter_marked" : "eleusis.starter", said) : marked ? i18n.t("eleusis.marked", said) : said.card;
      return el(
        "li",
        { class: `column${i === 0 ? " starter" : ""}${marked ? " marked" : ""}${i === t.mainline.length - 1 ? " newest" : ""}`, "data-index": String(i) },
        cardFace(code, { label }),
        marked ? el("span", { class: "marker", id: "marker", title: i18n.t("eleusis.marker", { name: T.seatNameOf(t.forecaster) }) }, i18n.t("eleusis.forecaster_chip").charAt(0)) : null,
        wrong.length ? el("ol", { class: "sideline", "aria-label": i18n.t("eleusis.sideline", { card: display(code), plays: wrong.map(cardsText).join("; ") }) }, wrong.map(entryNode)) : null,
      );
    }),
  );
}

function factsRow(T) {
  const t = table(T);
  const stock = el(
    "span",
    { class: "stock-count", id: "stock-count", role: "img", "aria-label": t.restocks ? i18n.t("eleusis.stock_label_packs", { cards: cardCount(t.stock_size), packs: i18n.t("eleusis.packs", { count: t.restocks }) }) : i18n.t("eleusis.stock_label", { cards: cardCount(t.stock_size) }) },
    el("span", { class: "stack small", "aria-hidden": "true" }, cardBack(), cardBack()),
    el("span", { "aria-hidden": "true" }, t.restocks ? i18n.t("eleusis.stock_packs", { n: t.stock_size, count: t.restocks }) : i18n.t("eleusis.stock", { n: t.stock_size })),
  );
  const facts = [stock, el("span", { class: "fact", id: "layout-count" }, i18n.t("eleusis.layout_count", { size: t.layout_size, below: t.layout_size - t.mainline.length }))];
  if (t.forecaster !== null && t.forecaster !== undefined) {
    facts.push(el("span", { class: "fact forecaster", id: "forecaster" }, i18n.t("eleusis.forecaster_fact", { name: T.who(t.forecaster), card: display(t.mainline[t.marker]) })));
  }
  if (t.commitment) {
    facts.push(el("span", { class: "fact", id: "rule-commitment", title: i18n.t("eleusis.commitment_title", { hex: t.commitment }) }, `${i18n.t("eleusis.rule_committed")} `, el("code", {}, shortHex(t.commitment, 8))));
  }
  return el("div", { class: "rule-facts" }, facts);
}

/** The play waiting for the Forecaster's call; a Forecaster calling a no play names a card of the shown hand. */
function awaitingNode(T) {
  const t = table(T);
  const a = t.awaiting;
  if (!a) return null;
  const calling = T.legal("call");
  // "You play", "Ann plays": the verb agrees with who made the play.
  const kind = a.play === "no-play" ? "no_play" : a.play === "string" ? "string" : "card";
  const said = { name: T.who(a.seat), cards: cardsText(a.cards) };
  const you = a.seat === T.me;
  const label = you
    ? { no_play: i18n.t("eleusis.you_show_label", said), string: i18n.t("eleusis.you_string_label", said), card: i18n.t("eleusis.you_play_label", said) }[kind]
    : { no_play: i18n.t("eleusis.shows_label", said), string: i18n.t("eleusis.string_label", said), card: i18n.t("eleusis.plays_label", said) }[kind];
  const what = you
    ? { no_play: i18n.t("eleusis.you_show", said), string: i18n.t("eleusis.you_string", said), card: i18n.t("eleusis.you_play", said) }[kind]
    : { no_play: i18n.t("eleusis.shows", said), string: i18n.t("eleusis.strings", said), card: i18n.t("eleusis.plays", said) }[kind];
  const caller = calling || t.forecaster === T.me ? i18n.t("eleusis.you_call_it") : i18n.t("eleusis.calls_it", { name: T.who(t.forecaster) });
  const choice = named(T);
  const cards =
    calling && a.play === "no-play"
      ? a.cards.map((code, i) =>
          cardFace(code, {
            tag: "button",
            label: i18n.t(choice === code ? "eleusis.shown_named" : "eleusis.shown", { card: cardName(code) }),
            attrs: { type: "button", class: `card ${"HD".includes(code[1]) ? "red" : "black"} shown${choice === code ? " named" : ""}`, id: `shown-${i}`, "aria-pressed": choice === code ? "true" : "false", onclick: T.tapped(() => nameCard(T, code)) },
          }),
        )
      : a.cards.map((code) => cardFace(code));
  return el(
    "div",
    { class: "awaiting", id: "awaiting", role: "group", "aria-label": label },
    el("p", { class: "wanted" }, i18n.t("eleusis.awaiting", { what, caller })),
    el("span", { class: `shown-cards${a.play === "string" ? " string" : ""}` }, cards),
    calling && a.play === "no-play" ? el("p", { class: "hint" }, i18n.t("eleusis.call_hint")) : null,
  );
}

// -- the table -------------------------------------------------------------------------------

function drawTable(T) {
  const t = table(T);
  const s = seatState(T);
  const head = el("div", { class: "secret-rule-head" }, banner(T), factsRow(T), awaitingNode(T));
  const scroller = el("div", { class: "layout-scroll", id: "layout-scroll" }, ruleNode(T, s), layoutNode(T));
  const board = T.$("board");
  board.replaceChildren(head, scroller);
  board.classList.add("secret-rule", "fills-felt");
  keepFitted(s, scroller); // the layout takes the felt's space
  // The layout scrolls: to the newest card when it grows, to the rule box or the revealed rule
  // at the top when the round is about its rule; a person who scrolled keeps the place otherwise.
  const moment = `${t.hand_no}/${t.layout_size}/${t.phase}`;
  if (s.laidOut !== moment) {
    s.laidOut = moment;
    s.pinned = !(t.phase === "rule" || t.phase === "over"); // the newest card in sight
    s.scrolled = 0;
  }
  scroller.scrollTop = s.pinned ? scroller.scrollHeight : s.scrolled;
  scroller.addEventListener(
    "scroll",
    () => {
      s.scrolled = scroller.scrollTop;
      s.pinned = scroller.scrollTop + scroller.clientHeight >= scroller.scrollHeight - 4;
    },
    { passive: true },
  );
  // A phone turned on its side, a window made smaller: the newest card stays in sight.
  if (!s.resizing) {
    s.resizing = true;
    addEventListener("resize", () => {
      const now = document.getElementById("layout-scroll");
      if (now && s.pinned) now.scrollTop = now.scrollHeight;
    });
  }
  return "board";
}

function status(T) {
  const t = table(T);
  const me = T.me;
  const a = t.awaiting;
  if (t.phase === "rule") return seatDeals(T) ? i18n.t("eleusis.you_deal_rule") : i18n.t("eleusis.writing", { name: T.who(t.dealer) });
  if (t.phase === "over") return i18n.t("eleusis.round_over");
  if (t.phase === "call") {
    if (T.legal("call")) return i18n.t("eleusis.call_it", { play: whosePlay(T, a) });
    return i18n.t("eleusis.calling", { name: T.who(t.forecaster), play: whosePlay(T, a) });
  }
  if (t.phase === "offer") {
    if (T.legal("forecast")) return i18n.t("eleusis.offer");
    return i18n.t("eleusis.may_forecast", { name: T.who(t.turn) });
  }
  if (T.legal("play")) {
    const codes = chosenCodes(T);
    if (!codes.length) return i18n.t("eleusis.your_turn");
    return codes.length === 1 ? i18n.t("eleusis.chosen", { card: display(codes[0]) }) : i18n.t("eleusis.chosen_string", { cards: cardsText(codes) });
  }
  const turn = T.othersTurn();
  if (me !== null && (t.expelled ?? []).includes(me)) return i18n.t("eleusis.you_are_expelled", { turn });
  if (me !== null && t.forecaster === me) return i18n.t("eleusis.you_are_forecaster", { turn });
  if (seatDeals(T)) return i18n.t("eleusis.you_deal", { turn });
  return T.othersTurn() ? `${T.othersTurn()}.` : "";
}

function button(id, words, key, onclick, { kind = "secondary", disabled = false } = {}) {
  return el("button", { type: "button", class: kind, id, onclick, disabled }, words, key ? el("kbd", {}, key) : null);
}

function actions(T) {
  const t = T.view.table;
  if (!t || T.me === null) return [];
  const out = [];
  if (T.legal("play")) {
    const codes = chosenCodes(T);
    const words = codes.length === 0 ? i18n.t("eleusis.play") : codes.length === 1 ? i18n.t("eleusis.play_card", { card: display(codes[0]) }) : i18n.t("eleusis.play_string", { cards: cardsText(codes) });
    out.push(button("play", words, "Enter", () => playChosen(T), { kind: "gold", disabled: !codes.length }));
    if (codes.length) out.push(button("clear", i18n.t("eleusis.clear"), "Esc", () => clearChosen(T)));
  }
  if (T.legal("no-play")) out.push(button("no-play", i18n.t("eleusis.no_play_button"), "N", () => noPlay(T)));
  if (T.legal("forecast")) out.push(button("forecast", i18n.t("eleusis.i_forecast"), "F", () => T.send({ move: "forecast" }), { kind: "gold" }));
  if (T.legal("pass")) out.push(button("go-on", i18n.t("eleusis.go_on"), "P", () => T.send({ move: "pass" })));
  if (T.legal("call")) {
    const noPlayCall = t.awaiting?.play === "no-play";
    const card = noPlayCall ? named(T) : null;
    out.push(button("call-right", noPlayCall ? i18n.t("eleusis.right_none_fits") : i18n.t("eleusis.right_button"), "R", () => callRight(T), { kind: "gold" }));
    const wrong = noPlayCall ? (card ? i18n.t("eleusis.wrong_could_take", { card: display(card) }) : i18n.t("eleusis.wrong_tap")) : i18n.t("eleusis.wrong_button");
    out.push(button("call-wrong", wrong, "W", () => callWrong(T), { kind: "gold", disabled: noPlayCall && !card }));
  }
  return out;
}

function key(event, T) {
  const target = event.target;
  const inHand = Boolean(target?.closest?.("#hand") && target.dataset?.code);
  const loose = target === document.body || target === null || inHand; // not on a button or a link of its own
  const k = event.key.length === 1 ? event.key.toLowerCase() : event.key;
  if (T.legal("play")) {
    if (k === " " && inHand) {
      toggle(T, target.dataset.code, Number(target.dataset.copy ?? 0));
      return true;
    }
    if (k === "Enter" && loose) {
      if (chosen(T).length) playChosen(T);
      else if (inHand) toggle(T, target.dataset.code, Number(target.dataset.copy ?? 0));
      else T.toast(i18n.t("eleusis.choose_first"));
      return true;
    }
    if (k === "Escape" && chosen(T).length && !document.body.classList.contains("side-open")) {
      clearChosen(T);
      return true;
    }
  }
  if (k === "n" && T.legal("no-play")) {
    noPlay(T);
    return true;
  }
  if (k === "f" && T.legal("forecast")) {
    T.send({ move: "forecast" });
    return true;
  }
  if (T.legal("call") && (k === "r" || k === "w")) {
    if (k === "r") callRight(T);
    else callWrong(T);
    return true;
  }
  return false;
}

function keys(T) {
  const t = T.view?.table;
  if (t?.phase === "rule" && seatDeals(T)) return i18n.t("eleusis.keys_rule");
  return i18n.t("eleusis.keys");
}

function tapCard(code, copy, T) {
  if (!T.legal("play")) return false; // the table says why not
  toggle(T, code, copy);
  return true;
}

function cardHint(code, T) {
  return i18n.t("eleusis.card_hint", { card: display(code) });
}

function handCard(code, copy, T) {
  const at = chosen(T).indexOf(`${code}/${copy}`);
  return at < 0 ? null : String(at + 1);
}

function seatBadges(seat, T) {
  const t = T.view.table;
  if (!t) return [];
  const out = [];
  if (t.forecaster === seat) out.push(el("span", { class: "role-chip forecaster", title: i18n.t("eleusis.forecaster_title"), "data-says": i18n.t("eleusis.forecaster_says") }, i18n.t("eleusis.forecaster_chip")));
  if ((t.expelled ?? []).includes(seat)) out.push(el("span", { class: "role-chip expelled", title: i18n.t("eleusis.expelled_title"), "data-says": i18n.t("eleusis.expelled_says") }, i18n.t("eleusis.expelled_chip")));
  return out;
}

function lineWords(line, T) {
  switch (line.type) {
    case "draw-for-deal": {
      // With the server dealing every round, the draw only says where play begins: at its seat's left.
      if (T.view?.options?.dealer !== 0) return null;
      const first = (line.dealer + 1) % (T.view?.seats?.length ?? line.cards.length);
      const said = { cards: cardsText(line.cards), name: T.who(first) };
      return first === T.me ? i18n.t("eleusis.draw_you_first", said) : i18n.t("eleusis.draw_first", said);
    }
    case "deal": {
      const said = { hand: line.hand, name: T.who(line.dealer), card: display(line.starter) };
      if (T.view?.table?.server_deals || T.view?.options?.dealer === 0) return i18n.t("eleusis.deal_server", said);
      return line.dealer === T.me ? i18n.t("eleusis.deal_you", said) : i18n.t("eleusis.deal", said);
    }
    case "rule-commitment":
      return i18n.t("eleusis.committed", { hand: line.hand, hex: shortHex(line.commitment, 8) });
    case "rule-reveal":
      return i18n.t("eleusis.revealed", { hand: line.hand, rule: line.rule });
    case "restock":
      return i18n.t("eleusis.restock", { cards: line.cards });
    case "judgement": {
      const { verdict, detail, extras } = judgementWords(line, T);
      // The move's own line says what was played just before: this one says how it was judged.
      return [`${verdict} ${detail}.`, ...extras.map((x) => `${x.text}.`)].join(" ");
    }
    default:
      return null;
  }
}

function moveWords(line, T) {
  switch (line.move) {
    case "string":
      return i18n.t("eleusis.played_string", { cards: cardsText(line.cards) });
    case "no-play":
      return i18n.t("eleusis.declared_no_play");
    case "forecast":
      return i18n.t("eleusis.declared_forecaster");
    case "pass":
      return i18n.t("eleusis.went_on");
    case "call":
      return line.card ? i18n.t("eleusis.called_card", { call: callWords(line.call), card: display(line.card) }) : i18n.t("eleusis.called", { call: callWords(line.call) });
    case "rule":
      return i18n.t("eleusis.wrote_rule");
    default:
      return null;
  }
}

function handEndWords(line, T) {
  const said = { hand: line.hand, names: andList(line.winners.map(T.who)), top: line.scores[line.winners[0]] };
  return line.how === "out" ? i18n.t("eleusis.round_out", said) : i18n.t("eleusis.round_most", said);
}

function scoresHint(T) {
  return i18n.t("eleusis.scores", { count: T.view.options?.rounds || T.view.seats.length });
}

function emptyHand(T) {
  return seatDeals(T) ? i18n.t("eleusis.you_deal_no_cards") : i18n.t("eleusis.no_cards");
}

// -- the verify page ---------------------------------------------------------------------

/** What the verify page shows of a round besides its deal: the revealed rule, checked against
 * the commitment made before the first play, the mainline and its sidelines, the Forecaster. */
function handMore(report, hand, who) {
  const sideline = hand.sidelines.flat().flat();
  const rows = [
    el("p", { class: "revealed-rule" }, el("span", {}, `${i18n.t("eleusis.revealed_at_end")} `), el("code", {}, hand.rule), " ",
      checkNote(hand.rule, hand.nonce, hand.commitment)),
    el("div", { class: "mainline-row" }, el("span", { class: "hint" }, `${i18n.t("eleusis.mainline_cards", { count: hand.mainline.length })} `), cardRow(hand.mainline)),
    sideline.length
      ? el("div", { class: "sideline-row" }, el("span", { class: "hint" }, `${i18n.t("eleusis.sideline_cards", { count: sideline.length })} `), cardRow(sideline))
      : null,
  ];
  const forecast = hand.forecaster === null || hand.forecaster === undefined
    ? null
    : i18n.t("eleusis.ended_forecaster", { name: who(hand.forecaster), bonus: hand.forecaster_bonus });
  const dealer = hand.server_deals ? i18n.t("eleusis.server_dealt", { score: hand.dealer_score }) : i18n.t("eleusis.dealt", { name: who(hand.dealer), score: hand.dealer_score });
  rows.push(el("p", { class: "hint" }, [forecast, dealer].filter(Boolean).join(" ")));
  return el("div", { class: "eleusis-round" }, rows);
}

export const verifyWords = {
  leftLabel: i18n.t("game.cards_left"),
  handMore,
  // A round ends when a player has no cards left, or for the reason the rules give (all expelled,
  // a right no play with four cards or fewer, the layout's hard stop); the best score wins it.
  resultText: (report, hand, names) =>
    hand.result.how === "out"
      ? i18n.t("eleusis.verify_out", { name: names[0] })
      : i18n.t("eleusis.verify_ended", { reason: hand.result.reason, names: andList(names) }),
  restockSummary: (count) => i18n.t("eleusis.restocks", { count }),
};

export default {
  drawTable,
  status,
  actions,
  key,
  keys,
  tapCard,
  handCard,
  cardHint,
  dealerSeat: (T) => (T.view.table?.server_deals ? null : T.view.table?.dealer),
  // The table's motion: a string's cards fly to the end of the mainline, where the Forecaster judges them.
  playedCards: (line) => (line.move === "string" ? line.cards : null),
  landing: (line, T) => T.$("mainline")?.querySelector(".column.newest") ?? T.$("mainline"),
  seatBadges,
  lineWords,
  moveWords,
  handEndWords,
  scoresHint,
  scoresExtra,
  handEndMore,
  handName: (T, hand) => i18n.t("eleusis.round_title", { hand }),
  emptyHand,
};
