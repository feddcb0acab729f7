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
import { cardBack, cardFace, cardRow, el, shortHex } from "../ui.js";
import { checkNote, ruleNode, scoresExtra, seatDeals } from "./eleusis_rule.js";

export { ruleCommitment } from "./eleusis_rule.js";

/** Its style sheet, eleusis.css (catalogue.js's rendererOf loads it before the first drawing). */
export const css = ["eleusis"];

const MAX_STRING = 4;

// -- small words -------------------------------------------------------------------------

/** "7♥", "3♥ 4♥ 5♣": cards as the table says them. */
function cardsText(codes) {
  return codes.map(display).join(" ");
}

function plural(n, word) {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** "7♥", "the string 3♥ 4♥", "no play": what a play was. */
function playText(play, cards) {
  if (play === "no-play") return "no play";
  return play === "string" ? `the string ${cardsText(cards)}` : cardsText(cards);
}

/** "Bot 2's string 3♥ 4♥", "Bot 2's no play", "Bot 2's 7♥": whose play is waiting for the call. */
function whosePlay(T, a) {
  const whose = a.seat === T.me ? "your" : `${T.who(a.seat)}'s`;
  if (a.play === "no-play") return `${whose} no play`;
  return `${whose} ${a.play === "string" ? "string " : ""}${cardsText(a.cards)}`;
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
    T.toast(`A string is at most ${MAX_STRING} cards: tap a chosen card to take it out.`);
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
    T.toast("Tap a card of your hand first: one to play it, two to four for a string, in order.");
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
    T.toast("Calling a no play wrong, name a card of the shown hand that could have been played: tap it on the table.");
    return;
  }
  T.send({ move: "call", call: "wrong", card });
}

// -- the last judgement ------------------------------------------------------------------

/** A judgement as the banner says it: {verdict, detail, extras}. */
export function judgementWords(j, who) {
  const cards = cardsText(j.cards);
  let verdict;
  let detail;
  if (j.play !== "no-play") {
    verdict = j.right ? "Right:" : "Wrong:";
    if (j.right) detail = `${cards} on the mainline`;
    else if (j.penalty) detail = `${plural(j.penalty, "penalty card")} (${cards} below the mainline)`;
    else detail = `no penalty cards, as the Forecaster was overthrown (${cards} below the mainline)`;
  } else if (j.right) {
    verdict = "No play was right:";
    detail = j.fresh ? `a fresh hand of ${plural(j.fresh, "card")}` : `${plural(j.returned, "card")} back to the stock, and the round ends`;
  } else {
    verdict = "No play was wrong:";
    detail = `${display(j.dealer_card)} goes on the mainline; ${j.penalty ? plural(j.penalty, "penalty card") : "no penalty cards (the Forecaster was overthrown)"}`;
  }
  const extras = [];
  if (j.call !== null && j.call !== undefined) {
    const named = j.call_card ? ` (${display(j.call_card)})` : "";
    extras.push(j.overthrown ? `Forecaster overthrown: ${who(j.forecaster)} called it ${j.call}${named} and draw${who(j.forecaster) === "You" ? "" : "s"} ${j.forecaster_penalty}` : `${who(j.forecaster)} forecast it ${j.call}${named}: correct`);
  }
  if (j.expelled) extras.push(`${who(j.seat)} ${who(j.seat) === "You" ? "are" : "is"} expelled from the round`);
  return { verdict, detail, extras };
}

function judgedNode(T, j, { id, mine = false }) {
  const { verdict, detail, extras } = judgementWords(j, T.who);
  return el(
    "p",
    { class: `judged${mine ? " mine" : ""}`, id, "data-right": String(j.right) },
    el("span", { class: "by" }, `${mine ? "Your play" : T.who(j.seat)} · ${playText(j.play, j.cards)}`),
    " ",
    el("strong", {}, verdict),
    ` ${detail}.`,
    extras.map((x) => el("span", { class: `extra${/overthrown|expelled/.test(x) ? " alert" : ""}` }, `${x}.`)),
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
    const text = t.phase === "rule" ? `Starter ${display(t.mainline[0])}. The dealer is writing the secret rule.` : `Starter ${display(t.mainline[0])}. No play has been judged yet.`;
    return el("p", { class: "judged", id: "last-judgement" }, text);
  }
  const mine = myLastJudgement(T);
  return [judgedNode(T, j, { id: "last-judgement" }), mine ? judgedNode(T, mine, { id: "my-judgement", mine: true }) : null];
}

// -- the layout ----------------------------------------------------------------------------

function entryNode(entry) {
  const label = entry.length > 1 ? `the string ${entry.map(cardName).join(", ")}` : cardName(entry[0]);
  return el("li", { class: `entry${entry.length > 1 ? " string" : ""}`, role: "img", "aria-label": label, title: cardsText(entry) }, entry.map((code) => cardFace(code, { attrs: { "aria-hidden": "true" } })));
}

function layoutNode(T) {
  const t = table(T);
  const below = t.layout_size - t.mainline.length;
  return el(
    "ol",
    { class: "mainline", id: "mainline", "aria-label": `The mainline: ${plural(t.mainline.length, "card")}, starter first; ${plural(below, "card")} on the sidelines below it` },
    t.mainline.map((code, i) => {
      const marked = t.marker === i;
      const wrong = t.sidelines[i] ?? [];
      const label = `${i === 0 ? "Starter: " : ""}${cardName(code)}${marked ? `, with the Forecaster's marker (${T.who(t.forecaster)})` : ""}`;
      return el(
        "li",
        { class: `column${i === 0 ? " starter" : ""}${marked ? " marked" : ""}${i === t.mainline.length - 1 ? " newest" : ""}`, "data-index": String(i) },
        cardFace(code, { label }),
        marked ? el("span", { class: "marker", id: "marker", title: `The Forecaster's marker: ${T.seatNameOf(t.forecaster)} became the Forecaster here` }, "F") : null,
        wrong.length ? el("ol", { class: "sideline", "aria-label": `Wrong under ${display(code)}: ${wrong.map(cardsText).join("; ")}` }, wrong.map(entryNode)) : null,
      );
    }),
  );
}

function factsRow(T) {
  const t = table(T);
  const stock = el(
    "span",
    { class: "stock-count", id: "stock-count", role: "img", "aria-label": `Stock: ${plural(t.stock_size, "card")}${t.restocks ? `, ${plural(t.restocks, "pack")} added` : ""}` },
    el("span", { class: "stack small", "aria-hidden": "true" }, cardBack(), cardBack()),
    el("span", { "aria-hidden": "true" }, `Stock ${t.stock_size}${t.restocks ? ` (+${t.restocks} pack${t.restocks === 1 ? "" : "s"})` : ""}`),
  );
  const facts = [stock, el("span", { class: "fact", id: "layout-count" }, `Layout ${t.layout_size} · ${t.layout_size - t.mainline.length} below`)];
  if (t.forecaster !== null && t.forecaster !== undefined) {
    facts.push(el("span", { class: "fact forecaster", id: "forecaster" }, `Forecaster: ${T.who(t.forecaster)} (marker on ${display(t.mainline[t.marker])})`));
  }
  if (t.commitment) {
    facts.push(el("span", { class: "fact", id: "rule-commitment", title: `The fingerprint of this round's secret rule, fixed before the first play: ${t.commitment}` }, "Rule committed ", el("code", {}, shortHex(t.commitment, 8))));
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
  const mine = a.seat === T.me;
  const what = a.play === "no-play" ? (mine ? "declare no play and show" : "declares no play and shows") : a.play === "string" ? (mine ? "play the string" : "plays the string") : mine ? "play" : "plays";
  const choice = named(T);
  const cards =
    calling && a.play === "no-play"
      ? a.cards.map((code, i) =>
          cardFace(code, {
            tag: "button",
            label: `${cardName(code)}${choice === code ? ", named" : ""}: it could take this card`,
            attrs: { type: "button", class: `card ${"HD".includes(code[1]) ? "red" : "black"} shown${choice === code ? " named" : ""}`, id: `shown-${i}`, "aria-pressed": choice === code ? "true" : "false", onclick: T.tapped(() => nameCard(T, code)) },
          }),
        )
      : a.cards.map((code) => cardFace(code));
  return el(
    "div",
    { class: "awaiting", id: "awaiting", role: "group", "aria-label": `${T.who(a.seat)} ${what} ${cardsText(a.cards)}: the Forecaster calls it` },
    el("p", { class: "wanted" }, `${T.who(a.seat)} ${what}${a.play === "no-play" ? (mine ? " your hand" : " their hand") : ""}: ${calling ? "you call it" : `${T.who(t.forecaster)} calls it`}.`),
    el("span", { class: `shown-cards${a.play === "string" ? " string" : ""}` }, cards),
    calling && a.play === "no-play" ? el("p", { class: "hint" }, "Right: no card of it fits. Wrong: tap the card it could have played, then Wrong.") : null,
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
  board.classList.add("secret-rule");
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
  if (t.phase === "rule") return seatDeals(T) ? "You deal this round: write the secret rule, then commit to it." : `${T.who(t.dealer)} is writing the secret rule.`;
  if (t.phase === "over") return "The round is over: the secret rule is revealed.";
  if (t.phase === "call") {
    if (T.legal("call")) return `Call ${whosePlay(T, a)}: right or wrong?`;
    return `${T.who(t.forecaster)}, the Forecaster, is calling ${whosePlay(T, a)}.`;
  }
  if (t.phase === "offer") {
    if (T.legal("forecast")) return "Declare yourself the Forecaster (you then call the others' plays), or go on.";
    return `${T.who(t.turn)} may declare themself the Forecaster.`;
  }
  if (T.legal("play")) {
    const codes = chosenCodes(T);
    if (!codes.length) return "Your turn: tap a card to play it, or two to four in order for a string; or declare no play.";
    return codes.length === 1 ? `Chosen: ${display(codes[0])}. Play it, or tap more cards for a string.` : `Your string: ${cardsText(codes)}. Play it, or tap a card to take it out.`;
  }
  if (me !== null && (t.expelled ?? []).includes(me)) return `You are expelled from this round: you keep your cards for the scores. ${T.othersTurn()}.`;
  if (me !== null && t.forecaster === me) return `You are the Forecaster: you call the others' plays. ${T.othersTurn()}.`;
  if (seatDeals(T)) return `You deal: the server judges each play by your rule. ${T.othersTurn()}.`;
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
    const words = codes.length === 0 ? "Play" : codes.length === 1 ? `Play ${display(codes[0])}` : `Play the string ${cardsText(codes)}`;
    out.push(button("play", words, "Enter", () => playChosen(T), { kind: "gold", disabled: !codes.length }));
    if (codes.length) out.push(button("clear", "Clear", "Esc", () => clearChosen(T)));
  }
  if (T.legal("no-play")) out.push(button("no-play", "No play", "N", () => noPlay(T)));
  if (T.legal("forecast")) out.push(button("forecast", "I am the Forecaster", "F", () => T.send({ move: "forecast" }), { kind: "gold" }));
  if (T.legal("pass")) out.push(button("go-on", "Go on", "P", () => T.send({ move: "pass" })));
  if (T.legal("call")) {
    const noPlayCall = t.awaiting?.play === "no-play";
    const card = noPlayCall ? named(T) : null;
    out.push(button("call-right", noPlayCall ? "Right: no card fits" : "Right", "R", () => callRight(T), { kind: "gold" }));
    out.push(button("call-wrong", noPlayCall ? (card ? `Wrong: it could take ${display(card)}` : "Wrong: it could take … (tap a card)") : "Wrong", "W", () => callWrong(T), { kind: "gold", disabled: noPlayCall && !card }));
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
      else T.toast("Choose a card first: Tab to your hand, arrows to move, Space or Enter to choose.");
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
  if (t?.phase === "rule" && seatDeals(T)) return "Keys: type the rule, Enter commits it (Shift+Enter: a new line), Tab to the examples and the library, M sound.";
  return "Keys: Tab to your hand, ← → move, Space chooses (again: out), Enter plays the chosen, Esc clears, N no play, F Forecaster, P go on, R right, W wrong, M sound.";
}

function tapCard(code, copy, T) {
  if (!T.legal("play")) return false; // the table says why not
  toggle(T, code, copy);
  return true;
}

function cardHint(code, T) {
  return `${display(code)}: tap to choose it (again: to take it out); Play sends the chosen card, or the string in the order chosen.`;
}

function handCard(code, copy, T) {
  const at = chosen(T).indexOf(`${code}/${copy}`);
  return at < 0 ? null : String(at + 1);
}

function seatBadges(seat, T) {
  const t = T.view.table;
  if (!t) return [];
  const out = [];
  if (t.forecaster === seat) out.push(el("span", { class: "role-chip forecaster", title: "the Forecaster: calls the others' plays", "data-says": "Forecaster" }, "Forecaster"));
  if ((t.expelled ?? []).includes(seat)) out.push(el("span", { class: "role-chip expelled", title: "expelled from this round", "data-says": "expelled" }, "Expelled"));
  return out;
}

function lineWords(line, T) {
  switch (line.type) {
    case "deal":
      return `Round ${line.hand}: ${T.view?.table?.server_deals || T.view?.options?.dealer === 0 ? "the server deals" : `${T.who(line.dealer)} deal${line.dealer === T.me ? "" : "s"}`}; the starter is ${display(line.starter)}.`;
    case "rule-commitment":
      return `The secret rule of round ${line.hand} is committed: fingerprint ${shortHex(line.commitment, 8)}.`;
    case "rule-reveal":
      return `Round ${line.hand}'s secret rule was: ${line.rule}`;
    case "restock":
      return `The stock ran low: a new pack of ${line.cards} cards goes under it.`;
    case "judgement": {
      const { verdict, detail, extras } = judgementWords(line, T.who);
      // The move's own line says what was played just before: this one says how it was judged.
      return [`${verdict} ${detail}.`, ...extras.map((x) => `${x}.`)].join(" ");
    }
    default:
      return null;
  }
}

function moveWords(line, T) {
  switch (line.move) {
    case "string":
      return `played the string ${cardsText(line.cards)}`;
    case "no-play":
      return "declared no play and showed their hand";
    case "forecast":
      return 'declared "I am the Forecaster"';
    case "pass":
      return "went on without forecasting";
    case "call":
      return `called it ${line.call}${line.card ? `: it could take ${display(line.card)}` : ""}`;
    case "rule":
      return "wrote the secret rule";
    default:
      return null;
  }
}

function handEndWords(line, T) {
  const names = line.winners.map(T.who).join(" and ");
  const top = line.scores[line.winners[0]];
  if (line.how === "out") return `Round ${line.hand}: ${names} went out and scored ${top}.`;
  return `Round ${line.hand} is over: ${names} scored most, ${top}.`;
}

function scoresHint(T) {
  const rounds = T.view.options?.rounds || T.view.seats.length;
  return `Each round a player scores the most cards anyone holds less their own (4 more with none), the Forecaster a bonus, the dealing seat the dealer's score. The game is ${plural(rounds, "round")}.`;
}

function emptyHand(T) {
  return seatDeals(T) ? "You deal this round: you hold no cards." : "No cards.";
}

// -- the verify page ---------------------------------------------------------------------

/** What the verify page shows of a round besides its deal: the revealed rule, checked against
 * the commitment made before the first play, the mainline and its sidelines, the Forecaster. */
function handMore(report, hand, who) {
  const sideline = hand.sidelines.flat().flat();
  const rows = [
    el("p", { class: "revealed-rule" }, el("span", {}, "The secret rule, revealed at the round's end: "), el("code", {}, hand.rule), " ",
      checkNote(hand.rule, hand.nonce, hand.commitment)),
    el("div", { class: "mainline-row" }, el("span", { class: "hint" }, `Mainline, ${plural(hand.mainline.length, "card")}: `), cardRow(hand.mainline)),
    sideline.length
      ? el("div", { class: "sideline-row" }, el("span", { class: "hint" }, `Wrong plays below it, ${plural(sideline.length, "card")}: `), cardRow(sideline))
      : null,
  ];
  const forecast = hand.forecaster === null || hand.forecaster === undefined
    ? null
    : `${who(hand.forecaster)} ended the round as the Forecaster (bonus ${hand.forecaster_bonus}).`;
  const dealer = hand.server_deals ? `The server dealt: its score ${hand.dealer_score} goes to no seat.` : `${who(hand.dealer)} dealt and scores ${hand.dealer_score}.`;
  rows.push(el("p", { class: "hint" }, [forecast, dealer].filter(Boolean).join(" ")));
  return el("div", { class: "eleusis-round" }, rows);
}

export const verifyWords = {
  leftLabel: "Cards left",
  handMore,
  // A round ends when a player has no cards left, or for the reason the rules give (all expelled,
  // a right no play with four cards or fewer, the layout's hard stop); the best score wins it.
  resultText: (report, hand, names) =>
    hand.result.how === "out"
      ? `${names[0]} went out: no cards left.`
      : `The round ended: ${hand.result.reason}; highest score ${names.join(" and ")}.`,
  restockSummary: (count) => `The stock ran low ${count === 1 ? "once" : `${count} times`}: each time a fresh pack, shuffled from the seeds, went under it`,
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
  emptyHand,
};
