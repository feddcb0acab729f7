// The live table: one seat's page (or a spectator's). Everything it shows
// comes from the service: the seat's view (its hand, the public table, its
// legal moves and, for each card, why it cannot be played now, in the
// engine's words) and the public record, followed live. The page never
// decides what is legal; it asks, and says what the engine said.
//
// The URL is /table/GAME#seat=N&token=JOIN[&host=HOST]. The fragment never
// leaves the browser, so the seat's key is in no server log.

import { ApiError, GameApi } from "./api.js";
import { cardName, display, isRed, suitName, suitSymbol, SUIT_SYMBOLS } from "./cards.js";
import { clientCommitment, toHex, RANKS, SUITS } from "./protocol.js";
import { setSound, soundOn, sounds } from "./sound.js";
import { cardBack, cardFace, el, fill, shortHex } from "./ui.js";

// -- where we are -------------------------------------------------------------

const gameId = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] ?? "");
const fragment = new URLSearchParams(location.hash.slice(1));
const seat = fragment.has("seat") ? Number(fragment.get("seat")) : null;
const api = new GameApi(gameId, { seat: Number.isInteger(seat) ? seat : null, token: fragment.get("token"), host: fragment.get("host") });
const me = api.seat; // null: a spectator

const TITLES = {
  "crazy-eights": "Crazy Eights",
  "fan-tan": "Fan Tan",
  sjueren: "Sjueren",
  "five-or-nine": "Five or Nine",
  "play-or-pay": "Play or Pay",
  "liberty-fan-tan": "Liberty Fan-Tan",
  "crazy-eights-book": "Crazy Eights (book)",
  eights: "Eights",
  "hollywood-eights": "Hollywood Eights",
  "go-boom": "Go Boom",
  "hollywood-go-boom": "Hollywood Go Boom",
  sequence: "Sequence",
  michigan: "Michigan",
  "double-stops": "Double Stops",
  spin: "Spin",
  commit: "Commit",
  "snip-snap-snorem": "Snip Snap Snorem",
  "earl-of-coventry": "The Earl of Coventry",
  jig: "Jig",
  "rolling-stone": "Rolling Stone",
};
const SEQUENCE_GAMES = new Set(["play-or-pay", "liberty-fan-tan"]);
// Games where an eight is wild and names a suit (what the status line tells the seat).
const WILD_EIGHTS = new Set(["crazy-eights", "crazy-eights-book", "eights", "hollywood-eights"]);
// Games played for counters (Michigan and its kin, Commit): each seat's counters, the layout's.
const COUNTER_GAMES = new Set(["michigan", "double-stops", "spin", "commit"]);
// The order of a suit in a run: ace high, but in Commit, where the ace is low.
const RUN_ORDER = { commit: "A23456789TJQK" };
const ACE_HIGH = "23456789TJQKA";
// The card a holder may add to a play of his (`then`): Spin's A♦, Commit's 9♦.
const SECOND_CARD_WORDS = { spin: "Spin", commit: "the 9♦" };
// Suits in a hand alternate colours: clubs, hearts, spades, diamonds.
const HAND_SUIT_ORDER = "CHSD";

const $ = (id) => document.getElementById(id);

const ui = {
  view: null, // the latest view (or public state)
  record: [], // the public record, line by line
  lifted: null, // the card lifted in the hand
  picking: false, // the suit tokens are open for the lifted eight
  busy: false, // a move is on its way
  deadlineAt: null, // performance.now() when the turn runs out
  deadlineTotal: null,
  focused: null, // the card code that had the focus in the hand
  lastTurn: undefined,
  lastTop: null,
  lastHand: [],
  seeding: false,
  endShown: false,
};

// -- small helpers ---------------------------------------------------------------

function seatNameOf(s) {
  return ui.view?.seats?.[s]?.name ?? `Seat ${s}`;
}

function who(s) {
  return s === me ? "You" : seatNameOf(s);
}

function isBot(s) {
  return Boolean(ui.view?.seats?.[s]?.bot);
}

function legal(kind, card = undefined) {
  return (ui.view?.legal_moves ?? []).some((m) => m.move === kind && (card === undefined || m.card === card));
}

function cardNote(code) {
  return (ui.view?.cards ?? []).find((c) => c.card === code) ?? null;
}

function myTurn() {
  return me !== null && ui.view?.status === "playing" && ui.view.turn === me;
}

/** A game played for chips (the view shows a pot) or counters, rather than points. */
function isChips() {
  return (typeof ui.view?.table?.pot === "number" && ui.view.rules !== "sjueren") || isCounters();
}

/** Michigan and its kin, Commit: counters rather than chips. */
function isCounters() {
  return COUNTER_GAMES.has(ui.view?.rules);
}

/** "counters" or "chips" (one of them for n = 1). */
function chipWord(n = 2) {
  const word = isCounters() ? "counter" : "chip";
  return n === 1 ? word : `${word}s`;
}

/** The run games (Sequence, Michigan, Commit...): the view lists the runs on the table. */
function hasRuns() {
  return Array.isArray(ui.view?.table?.runs);
}

/** Snip Snap Snorem and its kin: the view shows the group being matched. */
function hasGroup() {
  return Array.isArray(ui.view?.table?.group);
}

/** Rolling Stone: the view shows the trick. */
function hasTrick() {
  return Array.isArray(ui.view?.table?.trick);
}

/** "6", "10", "queen": a rank as the status line says it. */
function rankWord(rank) {
  return { A: "ace", J: "jack", Q: "queen", K: "king", T: "10" }[rank] ?? rank;
}

/** The cards that carry a run on (one, or two after Commit's 9♦); none while a lead is due. */
function nextCards(table, rules) {
  if (!table.current) return [];
  const order = RUN_ORDER[rules] ?? ACE_HIGH;
  const after = (code) => {
    const i = order.indexOf(code[0]);
    return i + 1 < order.length ? order[i + 1] + code[1] : null;
  };
  return [after(table.current), table.fork ? after(table.fork) : null].filter(Boolean);
}

/** The second cards the seat may add to a play of `code` (Spin's A♦, Commit's 9♦): the legal moves say. */
function thenCards(code) {
  return (ui.view?.legal_moves ?? []).filter((m) => m.move === "play" && m.card === code && m.then).map((m) => m.then);
}

/** A game with a stock and a pile (Crazy Eights and its kin): the view shows a top card. */
function hasPile() {
  return typeof ui.view?.table?.top === "string";
}

/** A game played in rounds (Go Boom): the view lists the round's cards. */
function hasRound() {
  return Array.isArray(ui.view?.table?.round);
}

/** Whether playing `code` now needs a suit named with it (an eight): the legal moves say so. */
function needsSuit(code) {
  return (ui.view?.legal_moves ?? []).some((m) => m.move === "play" && m.card === code && m.suit);
}

function title(rules) {
  return TITLES[rules] ?? rules.replace(/-/g, " ").replace(/^./, (c) => c.toUpperCase());
}

function sortHand(codes) {
  const rank = (c) => RANKS.indexOf(c[0]);
  return [...codes].sort((a, b) => HAND_SUIT_ORDER.indexOf(a[1]) - HAND_SUIT_ORDER.indexOf(b[1]) || rank(a) - rank(b));
}

let toastTimer = null;
function toast(message, { kind = "info", ms = 4000 } = {}) {
  const box = $("toast");
  box.textContent = message;
  box.className = `toast ${kind}`;
  box.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => (box.hidden = true), ms);
}

function announce(message) {
  $("announce").textContent = message;
}

function log(message, { mine = false } = {}) {
  const item = el("li", { class: mine ? "mine" : null }, message);
  $("log").prepend(item);
  while ($("log").children.length > 200) $("log").lastChild.remove();
}

// -- tooltips: pointing at (or holding a finger on) a card, the stock or the pile --

const tooltip = $("tooltip");
let tipTimer = null;
let pressTimer = null;
let suppressClick = false;

function showTip(target, text) {
  if (!text) return;
  tooltip.textContent = text;
  tooltip.hidden = false;
  const box = target.getBoundingClientRect();
  const tip = tooltip.getBoundingClientRect();
  const left = Math.min(Math.max(8, box.left + box.width / 2 - tip.width / 2), window.innerWidth - tip.width - 8);
  let top = box.top - tip.height - 10;
  if (top < 8) top = box.bottom + 10;
  tooltip.style.left = `${left}px`;
  tooltip.style.top = `${top}px`;
}

function hideTip() {
  clearTimeout(tipTimer);
  tooltip.hidden = true;
}

/** Hover (mouse), hold (touch) and focus (keyboard) show `explain()` next to `node`. */
function explainOn(node, explain) {
  node.addEventListener("pointerenter", (event) => {
    if (event.pointerType !== "mouse") return;
    clearTimeout(tipTimer);
    tipTimer = setTimeout(() => showTip(node, explain()), 300);
  });
  node.addEventListener("pointerleave", hideTip);
  node.addEventListener("pointerdown", (event) => {
    if (event.pointerType === "mouse") return;
    suppressClick = false;
    clearTimeout(pressTimer);
    pressTimer = setTimeout(() => {
      suppressClick = true;
      showTip(node, explain());
    }, 450);
  });
  const release = () => {
    clearTimeout(pressTimer);
    if (suppressClick) setTimeout(hideTip, 1800);
  };
  node.addEventListener("pointerup", release);
  node.addEventListener("pointercancel", release);
  node.addEventListener("contextmenu", (event) => event.preventDefault());
  // Keyboard focus shows it too; a tap or a click that focuses the card does not.
  node.addEventListener("focus", () => node.matches(":focus-visible") && showTip(node, explain()));
  node.addEventListener("blur", hideTip);
}

function tapped(handler) {
  return (event) => {
    if (suppressClick) {
      suppressClick = false;
      event.preventDefault();
      return;
    }
    handler(event);
  };
}

// -- moves ---------------------------------------------------------------------

async function send(move) {
  if (ui.busy || !ui.view) return;
  ui.busy = true;
  document.body.dataset.busy = "true";
  hideTip();
  try {
    const answer = await api.move(ui.view.seq, move);
    ui.lifted = null;
    ui.picking = false;
    setView(answer.view);
  } catch (error) {
    if (error instanceof ApiError && error.status === 409) {
      toast("The table moved on before your move arrived: here is where it is now.");
    } else if (error instanceof ApiError && error.status === 422) {
      toast(String(error.detail), { kind: "bad" });
    } else {
      toast(`Your move did not go through: ${error.message}`, { kind: "bad" });
    }
    try {
      setView(await api.view());
    } catch {
      /* the live stream will bring it */
    }
  } finally {
    ui.busy = false;
    delete document.body.dataset.busy;
    render();
  }
}

function play(code, suit = null) {
  if (!suit && needsSuit(code)) {
    ui.lifted = code;
    ui.picking = true;
    render();
    $("suit-picker").querySelector("button")?.focus();
    return;
  }
  sounds.play();
  send(suit ? { move: "play", card: code, suit } : { move: "play", card: code });
}

function draw() {
  if (!legal("draw")) {
    toast(stockText());
    return;
  }
  sounds.draw();
  send({ move: "draw" });
}

function keep() {
  if (legal("keep")) send({ move: "keep" });
}

function exchange() {
  if (legal("exchange")) send({ move: "exchange" });
}

function auction() {
  if (legal("auction")) send({ move: "auction" });
}

/** A bid for the extra hand: the amount in the bid box, if the rules take it. */
function bid() {
  const box = $("bid-amount");
  const amount = Number(box?.value);
  if (!legal("bid")) return;
  if (!(ui.view.legal_moves ?? []).some((m) => m.move === "bid" && m.amount === amount)) {
    toast(`A bid is a whole number of counters, 1 to ${maxBid()}.`, { kind: "bad" });
    box?.focus();
    return;
  }
  send({ move: "bid", amount });
}

function maxBid() {
  return Math.max(0, ...(ui.view?.legal_moves ?? []).filter((m) => m.move === "bid").map((m) => m.amount));
}

/** Play `code` and then `then` with it (Spin's A♦, Commit's 9♦), one move. */
function playThen(code, then) {
  sounds.play();
  send({ move: "play", card: code, then });
}

function pass() {
  if (legal("pass")) send({ move: "pass" });
}

function tapCard(code) {
  const note = cardNote(code);
  hideTip();
  if (!note?.playable) {
    toast(note?.why_not ?? "that card cannot be played now");
    const node = $("hand").querySelector(`[data-code="${code}"]`);
    node?.classList.remove("shake");
    void node?.offsetWidth;
    node?.classList.add("shake");
    return;
  }
  if (ui.lifted === code) {
    play(code);
  } else {
    ui.lifted = code;
    ui.picking = false;
    render();
  }
}

function nameSuit(letter) {
  if (!ui.picking || !ui.lifted) return;
  const card = ui.lifted;
  ui.picking = false;
  play(card, letter);
}

// -- the view ---------------------------------------------------------------------

function setView(view) {
  if (!view) return;
  if (ui.view && view.seq < ui.view.seq) return; // an older answer overtaken by the live stream
  ui.view = view;
  if (view.seconds_left !== null && view.seconds_left !== undefined && view.turn !== null) {
    ui.deadlineAt = performance.now() + view.seconds_left * 1000;
    ui.deadlineTotal = view.turn_seconds;
  } else {
    ui.deadlineAt = null;
  }
  // Keep what the seat lifted only while it can still play it.
  const hand = view.hand ?? [];
  if (ui.lifted && (!hand.includes(ui.lifted) || !cardNote(ui.lifted)?.playable)) {
    ui.lifted = null;
    ui.picking = false;
  }
  if (view.pending && ui.lifted !== view.pending) {
    ui.lifted = view.pending; // the drawn card that fits is lifted for the seat
    ui.picking = false;
  }
  if (myTurn() && ui.lastTurn !== `${view.hand_no}/${me}` ) {
    sounds.turn();
    announce("Your turn.");
  }
  ui.lastTurn = myTurn() ? `${view.hand_no}/${me}` : null;
  ui.newCards = hand.filter((c) => !ui.lastHand.includes(c) && ui.lastHand.length);
  ui.lastHand = hand;
  seedStep();
  render();
}

// -- the client seed: made, committed and revealed by this browser -------------------------

function seedKey() {
  return `fairdeal:seed:${gameId}:${me}`;
}

function storedSeed() {
  try {
    return JSON.parse(localStorage.getItem(seedKey()) ?? "null");
  } catch {
    return null;
  }
}

function newSeed() {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return toHex(bytes);
}

async function seedStep() {
  if (me === null || ui.seeding) return;
  ui.seeding = true;
  try {
    // Commit, then reveal once every person has committed; each step reads the latest view.
    for (let step = 0; step < 2; step++) {
      const view = ui.view;
      if (!view || view.status !== "seeding" || isBot(me)) break;
      const { committed, revealed } = view.client_seeds;
      let mine = storedSeed();
      if (!committed.includes(me)) {
        if (!mine) {
          const seed = newSeed();
          mine = { seed, commitment: await clientCommitment(seed) };
          localStorage.setItem(seedKey(), JSON.stringify(mine));
        }
        await api.commit(mine.commitment);
        setView(await api.view());
      } else if (!revealed.includes(me)) {
        const humans = view.seats.filter((s) => !s.bot).map((s) => s.seat);
        if (!humans.every((s) => committed.includes(s)) || !mine) break;
        setView((await api.reveal(mine.seed)).view);
      } else {
        break;
      }
    }
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 409)) toast(`Your seed could not be sent: ${error.message}`, { kind: "bad" });
  } finally {
    ui.seeding = false;
  }
  renderSeeding();
}

// -- the record, followed live ------------------------------------------------------

function onLine(line) {
  if (line.seq !== ui.record.length) return; // already seen (a reconnect resends nothing older)
  ui.record.push(line);
  const text = describeLine(line);
  if (text) {
    log(text, { mine: line.seat === me && line.type === "move" });
    if (line.type === "move" && line.seat !== me) announce(text);
  }
  if (line.type === "move") {
    if (line.move === "play" && line.seat !== me) sounds.play();
    if (line.move === "draw" && line.seat !== me) sounds.draw();
    if (line.auto && line.seat === me) toast(`Time ran out: the table made your move (${moveWords(line)}).`, { ms: 5000 });
  }
  if (line.type === "hand-end") toast(handEndText(line), { ms: 5000 });
  renderFair();
}

function moveWords(line) {
  const rules = ui.view?.rules ?? ui.record[0]?.rules;
  switch (line.move) {
    case "play":
      return `played ${display(line.card)}${line.suit ? ` and named ${suitName(line.suit)}` : ""}${line.then ? ` then ${display(line.then)}${rules === "spin" ? ' ("Spin!")' : ""}` : ""}`;
    case "draw":
      return "drew a card";
    case "keep":
      return COUNTER_GAMES.has(rules) ? "kept their own hand (the extra hand is dead)" : "kept the card";
    case "exchange":
      return "took the extra hand (their own hand is dead)";
    case "auction":
      return "put the extra hand up for auction";
    case "bid":
      return `bid ${line.amount} for the extra hand`;
    case "pass":
      return rules === "rolling-stone" ? "could not follow and picked up the trick" : "passed";
    default:
      return line.move;
  }
}

function handEndText(line) {
  const names = line.winners.map(who);
  if (line.how === "out") {
    const gain = line.scores[line.winners[0]];
    return `Hand ${line.hand}: ${names[0]} went out${isChips() ? "" : ` and scored ${gain}`}.`;
  }
  return `Hand ${line.hand} is blocked: ${names.join(" and ")} held the lowest count and scored ${line.scores[line.winners[0]]}.`;
}

/** Who pays or is paid: a seat, the pot, or a layout card (Michigan's counters lie on them). */
function party(x, start = false) {
  if (x === "pot") return start ? "The pot" : "the pot";
  if (typeof x === "string") return `${start ? "The" : "the"} ${display(x)}`;
  return who(x);
}

function describeLine(line) {
  switch (line.type) {
    case "header":
      return `Table opened. Fingerprint ${shortHex(line.commitment, 8)}.`;
    case "client-commit":
      return `${who(line.seat)} committed to a seed.`;
    case "client-reveal":
      return `${who(line.seat)} revealed a seed.`;
    case "start":
      return "Every seed is in: the game key is fixed.";
    case "draw-for-deal":
      return `Draw for the deal: ${line.cards.map(display).join(" ")}. ${who(line.dealer)} deal${line.dealer === me ? "" : "s"} first.`;
    case "deal":
      return `Hand ${line.hand}: ${who(line.dealer)} deal${line.dealer === me ? "" : "s"}.${line.turned?.length ? ` Starter ${display(line.turned.at(-1))}.` : ""}`;
    case "move":
      return `${who(line.seat)} ${moveWords(line)}${line.auto ? " (time ran out)" : ""}.`;
    case "restock":
      return `The stock ran out: the pile became a new stock of ${line.cards} cards.`;
    case "chips":
      return `${party(line.from, true)} paid ${line.amount} ${chipWord(line.amount)} to ${party(line.to)} (${line.reason.replace(/-/g, " ")}).`;
    case "put-down":
      return `${who(line.seat)} put down ${line.cards.map(display).join(" ")} with it.`;
    case "pick-up":
      return `${who(line.seat)} picked up ${line.cards.map(display).join(" ")}.`;
    case "hand-end":
      return handEndText(line);
    case "match-end":
      return "The game is over.";
    case "abandon":
      return `The game was abandoned: ${line.reason}.`;
    case "reveal":
      return "The server revealed its seed: anyone can now check every deal.";
    default:
      return null;
  }
}

// -- rendering ---------------------------------------------------------------------

function render() {
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
  $("game-title").textContent = `${title(view.rules)}${view.hand_no ? ` · hand ${view.hand_no}` : ""}`;
  document.title = `${myTurn() ? "● Your turn · " : ""}${title(view.rules)} · fairdeal`;
  renderOpponents();
  renderCenter();
  renderMe();
  renderHand();
  renderActions();
  renderStatus();
  renderTimer();
  renderScores();
  renderFair();
  renderSeeding();
  renderEnd();
}

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
  if (count !== undefined) facts.push(`${count} card${count === 1 ? "" : "s"}`);
  if (isChips()) facts.push(`${chipsOf(s)} ${chipWord(chipsOf(s))}`);
  else if (view.rules === "rolling-stone") facts.push(`${view.totals?.[s] ?? 0} deal${view.totals?.[s] === 1 ? "" : "s"} won`);
  else facts.push(`${view.totals?.[s] ?? 0} point${view.totals?.[s] === 1 ? "" : "s"}`);
  return facts;
}

function renderOpponents() {
  const view = ui.view;
  const order = seatOrder();
  const mid = (order.length - 1) / 2;
  fill(
    $("opponents"),
    order.map((s, i) => {
      const count = view.table?.hand_sizes?.[s] ?? 0;
      const turn = view.status === "playing" && view.turn === s;
      const dealer = view.table?.dealer === s;
      const label = [seatNameOf(s), isBot(s) ? "bot" : null, ...seatFacts(s), dealer ? "dealer" : null, turn ? "playing now" : null].filter(Boolean).join(", ");
      const fan = el("span", { class: "fan", "aria-hidden": "true" }, Array.from({ length: Math.min(count, 7) }, () => cardBack()));
      const node = el(
        "li",
        { class: `opp${turn ? " turn" : ""}${isBot(s) ? " is-bot" : ""}`, "data-seat": s, "aria-label": label, "aria-current": turn ? "true" : null },
        el("span", { class: "avatar", "aria-hidden": "true" }, isBot(s) ? "⚙" : (seatNameOf(s)[0] ?? "?").toUpperCase()),
        el("span", { class: "opp-name" }, seatNameOf(s), isBot(s) ? el("span", { class: "badge bot" }, "bot") : null, dealer ? el("span", { class: "dealer-chip", title: "dealer" }, "D") : null),
        fan,
        el("span", { class: "opp-facts" }, seatFacts(s).join(" · ")),
        turn && ui.deadlineAt ? el("span", { class: "opp-timer", "data-timer": "true" }) : null,
      );
      node.style.setProperty("--lift", `${Math.round(Math.abs(i - mid) * 10)}px`);
      return node;
    }),
  );
}

function stockText() {
  const t = ui.view?.table;
  if (!t) return "";
  const base = `The stock: ${t.stock_size} card${t.stock_size === 1 ? "" : "s"}.`;
  if (ui.view.status !== "playing") return base;
  if (!myTurn()) return `${base} It is not your turn.`;
  if (ui.view.pending) return `${base} You must play or keep the card you drew (${display(ui.view.pending)}).`;
  if (!legal("draw")) return `${base} There is nothing to draw: the stock is empty and the pile has only its top card.`;
  if (t.stock_size === 0) return `${base} Drawing shuffles the pile under its top card into a new stock.`;
  return `${base} Tap to draw (D).${ui.view.rules === "crazy-eights" ? " Stop at the first card that fits." : ""}`;
}

function pileText() {
  const t = ui.view?.table;
  if (!t) return "";
  const top = `${cardName(t.top)} (${display(t.top)})`;
  const named = t.named ? ` named ${suitName(t.named)} ${suitSymbol(t.named)}` : "";
  const eight = WILD_EIGHTS.has(ui.view.rules);
  const rank = t.top[0] === "T" ? "10" : t.top[0];
  const wants = t.named
    ? `a ${suitName(t.named).slice(0, -1)}${eight ? " or an eight" : ""}`
    : `a ${suitName(t.top[1]).slice(0, -1)}${eight ? `, a ${rank} or an eight` : ` or a ${rank}`}`;
  return `The pile: ${t.pile_size} card${t.pile_size === 1 ? "" : "s"}, on top ${top}${named}. Next: ${wants}.`;
}

function renderCenter() {
  const view = ui.view;
  const pile = hasPile() || hasRound();
  const rows = Boolean(view.table?.rows);
  const board = hasRuns() || hasGroup() || hasTrick();
  $("stock-pile").hidden = !pile;
  $("rows").hidden = !rows;
  $("board").hidden = !board;
  if (hasRound()) renderRound();
  else if (pile) renderStockPile();
  else if (rows) renderRows();
  else if (hasRuns()) renderRuns();
  else if (hasGroup()) renderGroup();
  else if (hasTrick()) renderTrick();
  renderSuitPicker();
}

/** A few cards face down, with how many: Michigan's extra (or dead) hand, Commit's stops. */
function faceDown(count, label, id) {
  return el(
    "div",
    { class: "face-down", id, role: "img", "aria-label": `${label}: ${count} card${count === 1 ? "" : "s"} face down` },
    el("span", { class: "stack small", "aria-hidden": "true" }, Array.from({ length: Math.min(3, count) }, () => cardBack())),
    el("span", { class: "face-down-label" }, label, el("b", {}, ` ${count}`)),
  );
}

/**
 * The run games: the layout and its counters (Michigan), the extra hand or the stops,
 * the bids, and the runs on the table, the one going on last and larger.
 */
function renderRuns() {
  const view = ui.view;
  const t = view.table;
  const parts = [];
  if (t.layout) {
    const pair = new Set(view.rules === "double-stops" ? ["TH", "9H"] : []);
    parts.push(
      el(
        "ul",
        { class: "layout", id: "layout", "aria-label": "The layout: counters on the pay cards" },
        Object.entries(t.layout).map(([code, n]) =>
          el(
            "li",
            { "data-code": code, class: pair.has(code) ? "pair" : null, "aria-label": `${cardName(code)}: ${n} ${chipWord(n)}${pair.has(code) ? ", paid only to a player who plays both 10♥ and 9♥" : ""}` },
            cardFace(code, { attrs: { "aria-hidden": "true" } }),
            el("span", { class: "counters", "aria-hidden": "true", title: `${n} ${chipWord(n)}` }, String(n)),
          ),
        ),
      ),
    );
  }
  const side = [];
  if (t.dead_size) {
    const label = view.rules === "commit" ? "Stops" : t.phase === "play" ? "Dead hand" : "Extra hand";
    side.push(faceDown(t.dead_size, label, "dead"));
  }
  // The bids while the auction lasts (the play log keeps them after).
  if (t.phase === "auction") {
    side.push(
      el(
        "ul",
        { class: "bids", id: "bids", "aria-label": "Bids for the extra hand" },
        (t.bids ?? []).map((b) => el("li", {}, `${who(b.seat)}: ${b.bid === null ? "pass" : `bid ${b.bid}`}`)),
        t.phase === "auction" ? el("li", { class: "hint" }, `${who(t.turn)} to bid…`) : null,
      ),
    );
  }
  if (t.discarded?.length) {
    side.push(el("div", { class: "discarded", id: "discarded", "aria-label": `The hand you put aside (dead): ${t.discarded.map(cardName).join(", ")}` }, el("span", { class: "hint" }, "Your dead hand"), el("span", { class: "run mini" }, t.discarded.map((c) => cardFace(c)))));
  }
  // The layout and what lies beside the runs share one row, to leave the felt's height to the runs.
  if (side.length || parts.length) parts.splice(0, parts.length, el("div", { class: "board-side" }, parts, side));
  const runs = t.runs ?? [];
  const going = t.current !== null && runs.length ? runs.at(-1) : null;
  const done = going ? runs.slice(0, -1) : runs;
  const next = nextCards(t, view.rules);
  parts.push(
    el(
      "ol",
      { class: "runs-done", id: "runs-done", "aria-label": done.length ? `Runs played: ${done.length}` : "No run stopped yet" },
      done.map((run) => el("li", { "aria-label": `${display(run[0])} to ${display(run.at(-1))}` }, el("span", { class: "run mini" }, run.map((c) => cardFace(c))))),
    ),
  );
  parts.push(
    el(
      "div",
      { class: "run-now", id: "run-now", role: "group", "aria-label": going ? `The run: ${going.map(display).join(" ")}; next ${next.map(display).join(" or ") || "none"}` : "A lead is due" },
      going
        ? [el("span", { class: "run" }, going.map((c) => cardFace(c))), next.length ? el("span", { class: "card ghost next", "aria-hidden": "true" }, next.map(display).join("/")) : null]
        : el("span", { class: "card ghost", "aria-hidden": "true" }, t.stopped ? suitSymbol(t.stopped) : "…"),
      // The status line says whose turn it is; a spectator reads it here.
      me === null ? el("span", { class: "by" }, runCaption(t, going, next)) : null,
    ),
  );
  fill($("board"), parts);
}

function runCaption(t, going, next) {
  if (t.phase === "choose") return `${who(t.dealer)} decide${t.dealer === me ? "" : "s"} about the extra hand`;
  if (t.phase === "auction") return "The extra hand is up for auction";
  if (t.turn === null || t.turn === undefined) return "";
  if (going) return `${who(t.turn)} hold${t.turn === me ? "" : "s"} ${next.map(display).join(" or ")}: ${t.turn === me ? "your" : "their"} turn (turns follow the cards)`;
  if (t.privilege) return `${who(t.turn)} spun and lead${t.turn === me ? "" : "s"}: a pay card or a new suit`;
  return `${who(t.turn)} lead${t.turn === me ? "" : "s"}${t.stopped ? ` (not ${suitName(t.stopped)}: that run stopped)` : ""}`;
}

/** Snip Snap Snorem, the Earl of Coventry, Jig: the group so far, each card with its call. */
function renderGroup() {
  const view = ui.view;
  const t = view.table;
  const group = t.group;
  const list = el(
    "ol",
    { class: "round group", id: "group", "aria-label": group.length ? `This group: ${group.map((g) => `${who(g.seat)} ${cardName(g.card)}${g.call ? `, "${g.call}"` : ""}`).join("; ")}` : "A new group" },
    group.length
      ? group.map((g, i) => el("li", { class: i === group.length - 1 ? "last" : null }, cardFace(g.card), el("span", { class: "by" }, who(g.seat)), g.call ? el("q", { class: "call" }, g.call) : null))
      : el("li", { class: "leads" }, el("span", { class: "card ghost", "aria-hidden": "true" }), el("span", { class: "by" }, t.turn === null ? "" : `${who(t.turn)} lead${t.turn === me ? "" : "s"}`)),
  );
  const wanted = t.wanted ? el("p", { class: "wanted", id: "wanted" }, view.rules === "jig" ? `Next in the series: a ${rankWord(t.wanted)}` : `Next: a ${rankWord(t.wanted)}`) : null;
  const pot = el("div", { class: "pot", role: "img", "aria-label": `Pot: ${t.pot} chips` }, el("span", { class: "chips", "aria-hidden": "true" }, "●●●"), ` Pot ${t.pot}`);
  fill($("board"), list, wanted, pot, el("p", { class: "hint laid" }, `${t.laid.length} card${t.laid.length === 1 ? "" : "s"} put down this deal`));
}

/** Rolling Stone: the trick so far, the suit led, what was put aside, and how the last trick ended. */
function renderTrick() {
  const t = ui.view.table;
  const trick = el(
    "ol",
    { class: "round trick", id: "trick", "aria-label": t.trick.length ? `This trick: ${t.trick.map((p) => `${who(p.seat)} ${cardName(p.card)}`).join(", ")}` : "A new trick" },
    t.trick.length
      ? t.trick.map((p, i) => el("li", { class: i === t.trick.length - 1 ? "last" : null }, cardFace(p.card), el("span", { class: "by" }, who(p.seat))))
      : el("li", { class: "leads" }, el("span", { class: "card ghost", "aria-hidden": "true" }), el("span", { class: "by" }, t.turn === null ? "" : `${who(t.turn)} lead${t.turn === me ? "" : "s"}`)),
  );
  const led = t.led ? el("p", { class: "wanted", id: "led" }, `${suitName(t.led)[0].toUpperCase()}${suitName(t.led).slice(1)} ${suitSymbol(t.led)} led: follow suit, or pick up the trick`) : null;
  const last = t.last ? el("p", { class: "hint", id: "last-trick" }, lastTrickText(t.last)) : null;
  fill($("board"), trick, led, el("p", { class: "hint aside-count" }, `Put aside: ${t.aside} card${t.aside === 1 ? "" : "s"} · tricks: ${t.tricks}`), last);
}

function lastTrickText(last) {
  const plays = last.plays.map((p) => `${who(p.seat)} ${display(p.card)}`).join(", ");
  if (last.end === "aside") return `Last trick: ${plays}; all followed, put aside; ${who(last.by)} lead${last.by === me ? "" : "s"}.`;
  if (last.end === "picked-up") return `Last trick: ${plays}; ${who(last.by)} could not follow and picked it up.`;
  return `Last trick: ${plays}; ${who(last.by)} went out.`;
}

function stockButton() {
  const t = ui.view.table;
  const drawable = legal("draw");
  const stock = el(
    "button",
    {
      type: "button",
      class: `stock${drawable ? " live" : ""}${t.stock_size === 0 ? " empty" : ""}`,
      id: "stock",
      "aria-label": `Stock, ${t.stock_size} card${t.stock_size === 1 ? "" : "s"}${drawable ? ", draw a card" : ""}`,
      "aria-disabled": drawable ? null : "true",
      onclick: tapped(draw),
    },
    el("span", { class: "stack", "aria-hidden": "true" }, t.stock_size ? [cardBack(), cardBack(), cardBack()].slice(0, Math.min(3, t.stock_size)) : el("span", { class: "card ghost" })),
    el("span", { class: "count", "aria-hidden": "true" }, String(t.stock_size)),
  );
  explainOn(stock, stockText);
  return stock;
}

function renderStockPile() {
  const t = ui.view.table;
  const stock = stockButton();
  const fresh = ui.lastTop !== null && ui.lastTop !== `${t.top}/${t.pile_size}`;
  ui.lastTop = `${t.top}/${t.pile_size}`;
  const under = t.pile_size > 1 ? el("span", { class: "under", "aria-hidden": "true" }, cardBack(), cardBack()) : null;
  const pile = el(
    "div",
    { class: "pile", id: "pile", tabindex: "0", role: "img", "aria-label": `Pile: ${cardName(t.top)}${t.named ? `, ${suitName(t.named)} named` : ""}` },
    under,
    cardFace(t.top, { attrs: { class: `card ${isRed(t.top) ? "red" : "black"} top${fresh ? " fresh" : ""}` } }),
    t.named ? el("span", { class: `token ${isRed(t.named) ? "red" : "black"}`, "aria-hidden": "true", title: `${suitName(t.named)} named` }, suitSymbol(t.named)) : null,
  );
  explainOn(pile, pileText);
  fill($("stock-pile"), stock, pile);
}

/** Go Boom's round: the cards played so far, each with who played it; the last is the one to match. */
function renderRound() {
  const t = ui.view.table;
  const plays = t.round;
  const round = el(
    "ol",
    { class: "round", id: "round", "aria-label": plays.length ? `This round: ${plays.map((p) => `${who(p.seat)} ${cardName(p.card)}`).join(", ")}` : "A new round" },
    plays.length
      ? plays.map((p, i) => el("li", { class: i === plays.length - 1 ? "last" : null }, cardFace(p.card), el("span", { class: "by" }, who(p.seat))))
      : el("li", { class: "leads" }, el("span", { class: "card ghost", "aria-hidden": "true" }), el("span", { class: "by" }, `${who(t.leader)} lead${t.leader === me ? "" : "s"}`)),
  );
  fill($("stock-pile"), stockButton(), round);
}

function rowRun(rules, suit, row) {
  if (!row) return [];
  const [low, high] = row;
  if (SEQUENCE_GAMES.has(rules)) {
    const out = [];
    let i = RANKS.indexOf(low[0]);
    for (;;) {
      out.push(RANKS[i] + suit);
      if (RANKS[i] === high[0] || out.length >= 13) return out;
      i = (i + 1) % 13;
    }
  }
  const order = rules === "sjueren" ? "23456789TJQKA" : RANKS;
  return order.slice(order.indexOf(low[0]), order.indexOf(high[0]) + 1).split("").map((r) => r + suit);
}

function renderRows() {
  const view = ui.view;
  const t = view.table;
  const rows = [...SUITS].map((suit, i) => {
    const run = rowRun(view.rules, suit, t.rows?.[suit]);
    const opening = t.opening ? (t.opening === "10" ? "T" : t.opening) : null;
    const cards = run.length
      ? el("span", { class: "run" }, run.map((code) => cardFace(code)))
      : el("span", { class: "run empty" }, el("span", { class: "card ghost", "aria-hidden": "true" }, opening && !SEQUENCE_GAMES.has(view.rules) ? display(opening + suit) : SUIT_SYMBOLS[i]));
    const label = run.length ? `${suitName(suit)}: ${display(run[0])} to ${display(run.at(-1))}` : `${suitName(suit)}: not opened yet`;
    return el("div", { class: "suit-row", role: "group", "aria-label": label }, el("span", { class: `row-suit ${isRed(suit) ? "red" : "black"}`, "aria-hidden": "true" }, SUIT_SYMBOLS[i]), cards);
  });
  const pot = isChips() ? el("div", { class: "pot", role: "img", "aria-label": `Pot: ${t.pot} chips` }, el("span", { class: "chips", "aria-hidden": "true" }, "●●●"), ` Pot ${t.pot}`) : null;
  fill($("rows"), rows, pot);
}

function renderSuitPicker() {
  const picker = $("suit-picker");
  const open = ui.picking && ui.lifted && needsSuit(ui.lifted) && myTurn();
  picker.hidden = !open;
  if (!open) {
    fill(picker);
    return;
  }
  fill(
    picker,
    el("span", { class: "picker-title" }, `Name a suit for ${display(ui.lifted)}`),
    [...SUITS].map((letter, i) =>
      el(
        "button",
        { type: "button", class: `suit-token ${isRed(letter) ? "red" : "black"}`, "data-suit": letter, "aria-label": `Name ${suitName(letter)} (${i + 1})`, onclick: () => nameSuit(letter) },
        el("span", { class: "glyph", "aria-hidden": "true" }, SUIT_SYMBOLS[i]),
        el("span", { class: "suit-word" }, suitName(letter)),
        el("kbd", { "aria-hidden": "true" }, String(i + 1)),
      ),
    ),
  );
}

function renderMe() {
  const view = ui.view;
  if (me === null) {
    fill($("me-head"), el("span", { class: "spectating" }, "Watching: you are not seated at this table."));
    return;
  }
  const dealer = view.table?.dealer === me;
  fill(
    $("me-head"),
    el("span", { class: "me-name" }, seatNameOf(me), el("span", { class: "badge you" }, "you"), isBot(me) ? el("span", { class: "badge bot" }, "bot") : null, dealer ? el("span", { class: "dealer-chip", title: "dealer" }, "D") : null),
    el("span", { class: "me-facts" }, seatFacts(me).join(" · ")),
    myTurn() ? el("span", { class: "your-turn" }, "Your turn") : null,
  );
}

function renderHand() {
  const view = ui.view;
  const handNode = $("hand");
  const active = handNode.contains(document.activeElement) ? document.activeElement?.dataset?.code : null;
  const codes = sortHand(view.hand ?? []);
  const turn = myTurn();
  const buttons = codes.map((code, i) => {
    const note = cardNote(code);
    const playable = Boolean(note?.playable) && turn;
    const lifted = ui.lifted === code;
    const label = `${cardName(code)}, ${playable ? "playable" : "not playable"}${lifted ? ", lifted" : ""}`;
    // A screen reader hears why not, in the engine's words, after the card's name.
    const why = note?.why_not && turn ? el("span", { class: "visually-hidden", id: `why-${i}` }, note.why_not) : null;
    const node = cardFace(code, {
      tag: "button",
      label,
      attrs: {
        type: "button",
        tabindex: "-1",
        "aria-describedby": why ? `why-${i}` : null,
        "aria-pressed": lifted ? "true" : "false",
        "data-then": playable && thenCards(code).length ? "yes" : null,
        class: `card ${isRed(code) ? "red" : "black"}${playable ? " playable" : " dim"}${lifted ? " lifted" : ""}${(ui.newCards ?? []).includes(code) ? " fresh" : ""}${turn ? "" : " waiting"}`,
      },
    });
    if (why) node.append(why);
    node.addEventListener("click", tapped(() => tapCard(code)));
    explainOn(node, () => (note?.why_not ? `${display(code)}: ${note.why_not}` : turn ? `${display(code)} can be played: tap to lift, tap again to play.` : display(code)));
    return node;
  });
  fill(handNode, buttons);
  if (!buttons.length) fill(handNode, el("span", { class: "empty-hand hint" }, view.status === "seeding" ? "Your cards come when every seed is in." : me === null ? "" : "No cards."));
  // One card takes the Tab stop; the arrows move along the hand.
  const focusCode = active ?? ui.focused;
  const target = buttons.find((b) => b.dataset.code === focusCode) ?? buttons.find((b) => b.dataset.code === ui.lifted) ?? buttons.find((b) => b.classList.contains("playable")) ?? buttons[0];
  if (target) target.tabIndex = 0;
  if (active && target) target.focus({ preventScroll: true });
  fitHand();
}

/** Overlap the cards so the hand fits its width (a phone holds a big hand too). */
function fitHand() {
  const handNode = $("hand");
  const cards = [...handNode.querySelectorAll(".card")];
  handNode.classList.remove("crowded");
  if (!cards.length) return;
  const style = getComputedStyle(handNode);
  const width = handNode.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 2;
  const gap = 6;
  const MIN_SLICE = 16; // enough of each card to show its corner (rank over suit)
  let cardWidth = cards[0].offsetWidth || 80;
  if (cards.length > 1 && (width - cardWidth) / (cards.length - 1) < MIN_SLICE + 6) {
    handNode.classList.add("crowded"); // smaller cards before the overlap gets too deep
    cardWidth = cards[0].offsetWidth || cardWidth;
  }
  let step = cardWidth + gap;
  if (cards.length > 1 && cards.length * step - gap > width) step = Math.max(MIN_SLICE, (width - cardWidth) / (cards.length - 1));
  handNode.style.setProperty("--step", `${step - cardWidth}px`);
}

function renderActions() {
  const view = ui.view;
  const buttons = [];
  if (myTurn()) {
    const pending = view.pending;
    if (pending) {
      buttons.push(el("button", { type: "button", class: "gold", id: "play-it", onclick: () => play(pending) }, `Play it (${display(pending)})`));
      if (legal("keep")) buttons.push(el("button", { type: "button", class: "secondary", id: "keep-it", onclick: keep }, "Keep it", el("kbd", {}, "K")));
    } else if (ui.lifted && cardNote(ui.lifted)?.playable) {
      const lifted = ui.lifted;
      buttons.push(el("button", { type: "button", class: "gold", id: "play", onclick: () => play(lifted) }, `Play ${display(lifted)}`, el("kbd", {}, "Enter")));
      // Spin's A♦, Commit's 9♦: the same play with the second card added, one move.
      for (const then of thenCards(lifted)) {
        const words = view.rules === "spin" ? ' ("Spin")' : "";
        buttons.push(el("button", { type: "button", class: "gold", id: "play-then", "data-then": then, onclick: () => playThen(lifted, then) }, `Play ${display(lifted)} then ${display(then)}${words}`, el("kbd", {}, "T")));
      }
      buttons.push(el("button", { type: "button", class: "secondary", id: "lower", onclick: lower }, "Put back", el("kbd", {}, "Esc")));
    }
    if (legal("keep") && !pending) buttons.push(el("button", { type: "button", class: "gold", id: "keep-hand", onclick: keep }, "Keep my hand", el("kbd", {}, "K")));
    if (legal("exchange")) buttons.push(el("button", { type: "button", class: "secondary", id: "exchange", onclick: exchange }, "Take the extra hand", el("kbd", {}, "X")));
    if (legal("auction")) buttons.push(el("button", { type: "button", class: "secondary", id: "auction", onclick: auction }, "Auction the extra hand", el("kbd", {}, "A")));
    if (legal("bid")) buttons.push(bidBox());
    if (!pending && legal("draw")) buttons.push(el("button", { type: "button", class: "secondary", id: "draw", onclick: draw }, "Draw", el("kbd", {}, "D")));
    if (legal("pass")) buttons.push(el("button", { type: "button", class: "secondary", id: "pass", onclick: pass }, passLabel(), el("kbd", {}, "P")));
  }
  fill($("actions"), buttons);
  $("keys").textContent = keysText();
}

/** The bid for the extra hand: an amount (1 to the most the table allows) and its button. */
function bidBox() {
  const most = maxBid();
  const old = $("bid-amount");
  const input = el("input", { type: "number", id: "bid-amount", min: "1", max: String(most), step: "1", value: old?.value || "1", inputmode: "numeric", "aria-label": `Counters to bid, 1 to ${most}` });
  input.addEventListener("focus", () => input.select()); // typing replaces the amount
  input.addEventListener("keydown", (event) => {
    if (event.key === "Enter") {
      event.preventDefault();
      bid();
    }
  });
  return el(
    "span",
    { class: "bid-box", role: "group", "aria-label": "Bid for the extra hand" },
    el("label", { for: "bid-amount" }, "Bid"),
    input,
    el("button", { type: "button", class: "gold", id: "bid", onclick: bid }, "Bid", el("kbd", {}, "B")),
  );
}

function passLabel() {
  const view = ui.view;
  if (view.rules === "rolling-stone") return "Pick up the trick";
  if (legal("bid")) return "Pass (no bid)";
  if (hasGroup()) return "Pass (a chip to the pot)";
  return (view.cards ?? []).some((c) => c.playable) ? "Pass (with a penalty)" : "Pass";
}

/** The keys this game's controls answer to. */
function keysText() {
  const rules = ui.view?.rules;
  const base = "Keys: Tab to your hand, ← → move, Enter lifts and plays";
  if (COUNTER_GAMES.has(rules) && rules !== "commit") {
    return `${base}, K keeps your hand, X takes the extra hand, A auctions it, B bids (the amount box), P passes${rules === "spin" ? ", T plays the lifted card then A♦ (Spin)" : ""}, M sound.`;
  }
  if (rules === "commit") return `${base}, T plays the lifted card then 9♦, M sound.`;
  if (rules === "sequence") return `${base}, M sound.`;
  if (rules === "rolling-stone") return `${base}, P picks up the trick, M sound.`;
  if (hasGroup()) return `${base}, P passes, M sound.`;
  return "Keys: Tab to your hand, ← → move, Enter lifts and plays, D draws, K keeps, P passes, 1–4 name a suit, M sound.";
}

function lower() {
  ui.lifted = null;
  ui.picking = false;
  render();
}

function renderStatus() {
  $("status").textContent = statusText();
}

function statusText() {
  const view = ui.view;
  if (view.status === "seeding") return "Waiting for every player's seed…";
  if (view.status === "over") return "The game is over.";
  if (view.status === "abandoned") return "The game was abandoned.";
  const t = view.table;
  if (hasRuns()) return runStatus(view, t);
  if (hasGroup()) return groupStatus(view, t);
  if (hasTrick()) return trickStatus(view, t);
  if (!myTurn()) {
    if (view.turn === null || view.turn === undefined) return "";
    return `${seatNameOf(view.turn)}'s turn${isBot(view.turn) ? " (bot)" : ""}.`;
  }
  if (hasRound()) {
    if (t.previous && legal("play")) return `Your turn: match ${display(t.previous)} in suit or rank.`;
    if (t.previous) return legal("draw") ? `Nothing matches ${display(t.previous)}: draw until a card does.` : "Nothing matches and the stock is gone: pass.";
    return "Your turn: lead any card.";
  }
  if (!hasPile()) {
    if (legal("play")) return `Your turn: play a card that builds on a row${legal("pass") ? ", or pass and pay" : ""}.`;
    return "Your turn: nothing can go on the table, so you pass.";
  }
  if (view.pending) return `You drew ${display(view.pending)} and it fits: play it or keep it.`;
  if (legal("draw") && !legal("play")) {
    return t.drawn ? "No fit yet: draw again." : "Nothing in your hand fits: draw from the stock.";
  }
  if (legal("pass")) return "Nothing fits and nothing is left to draw: pass.";
  const wants = t.named ? `a ${suitName(t.named).slice(0, -1)} (named)` : `a ${suitName(t.top[1]).slice(0, -1)} or a ${t.top[0] === "T" ? "10" : t.top[0]}`;
  const eight = WILD_EIGHTS.has(view.rules) ? ", or an eight" : "";
  return `Your turn: play ${wants}${eight}${legal("draw") ? " — or draw" : ""}.`;
}

function othersTurn(view) {
  if (view.turn === null || view.turn === undefined) return "";
  return `${seatNameOf(view.turn)}'s turn${isBot(view.turn) ? " (bot)" : ""}`;
}

function runStatus(view, t) {
  if (t.phase === "choose") {
    return myTurn() ? "You deal: keep your hand, take the extra hand (yours is then dead), or auction the extra hand." : `${seatNameOf(t.dealer)} is deciding about the extra hand.`;
  }
  if (t.phase === "auction") return myTurn() ? `The extra hand is up for auction: bid 1 to ${maxBid()} counters, or pass.` : `The extra hand is up for auction: ${othersTurn(view)} to bid.`;
  const next = nextCards(t, view.rules);
  if (!myTurn()) {
    if (view.turn === null || view.turn === undefined) return "";
    return t.current ? `${othersTurn(view)}: they hold ${next.map(display).join(" or ")}, the next card.` : `${othersTurn(view)}: they lead.`;
  }
  const plays = [...new Set((view.legal_moves ?? []).filter((m) => m.move === "play").map((m) => m.card))];
  const seconds = (view.legal_moves ?? []).some((m) => m.then);
  const extra = seconds ? ` Lift it, then T adds ${view.rules === "spin" ? "A♦ (Spin)" : "9♦"}.` : "";
  if (t.current) return `Your turn: play ${plays.map(display).join(" or ")}, the next card.${extra}`;
  if (t.privilege) return `Spin! Lead a pay card or your lowest card of a new suit.${extra}`;
  if (view.rules === "commit") return `Your turn: lead any card.${extra}`;
  if (t.stopped) return `The ${suitName(t.stopped)} run stopped: lead your lowest card of another suit.${extra}`;
  return `Your turn: lead your lowest card of a suit.${extra}`;
}

function groupStatus(view, t) {
  const rank = t.wanted ? rankWord(t.wanted) : null;
  if (!myTurn()) return othersTurn(view) ? `${othersTurn(view)}: ${rank ? `a ${rank} next` : "they lead"}.` : "";
  if (!rank) return "Your turn: lead any card; every card of its rank you hold goes down with it.";
  if (legal("play")) return `Your turn: put down your ${rank}s (every one you hold goes down).`;
  return `No ${rank} in your hand: pass and put a chip in the pot.`;
}

function trickStatus(view, t) {
  if (!myTurn()) return othersTurn(view) ? `${othersTurn(view)}.` : "";
  if (!t.led) return "Your turn: lead any card.";
  if (legal("play")) return `Your turn: follow suit with a ${suitName(t.led).slice(0, -1)}.`;
  return `You hold no ${suitName(t.led)}: pick up the trick, then lead.`;
}

function renderTimer() {
  const box = $("timer");
  const show = ui.deadlineAt !== null && ui.view?.status === "playing";
  box.hidden = !(show && myTurn());
  tick();
}

function tick() {
  if (ui.deadlineAt === null) return;
  const left = Math.max(0, (ui.deadlineAt - performance.now()) / 1000);
  const total = ui.deadlineTotal || 20;
  const fraction = Math.max(0, Math.min(1, left / total));
  $("timer-fill").style.transform = `scaleX(${fraction})`;
  $("timer").classList.toggle("low", left <= 5);
  $("timer-text").textContent = `${Math.ceil(left)} s`;
  for (const node of document.querySelectorAll("[data-timer]")) {
    node.textContent = `${Math.ceil(left)} s`;
    node.style.setProperty("--left", String(fraction));
  }
}

setInterval(tick, 200);

function renderScores() {
  const view = ui.view;
  const seats = view.seats;
  const chips = isChips();
  const target = view.options?.target;
  const head = el("tr", {}, el("th", { scope: "col" }, "Hand"), seats.map((s) => el("th", { scope: "col", title: s.name }, s.seat === me ? "You" : s.name)));
  const hands = (view.hands ?? []).map((h) =>
    el(
      "tr",
      {},
      el("th", { scope: "row" }, String(h.hand)),
      seats.map((s) => el("td", { class: h.winners.includes(s.seat) ? "won" : null }, chips ? signed(h.scores[s.seat]) : String(h.scores[s.seat]), h.winners.includes(s.seat) ? el("span", { class: "visually-hidden" }, " (won the hand)") : null)),
    ),
  );
  const totals = el("tr", { class: "totals" }, el("th", { scope: "row" }, chips ? (isCounters() ? "Counters" : "Chips") : "Total"), seats.map((s) => el("td", {}, String(view.totals?.[s.seat] ?? 0))));
  fill(
    $("panel-scores"),
    el("h2", {}, chips ? (isCounters() ? "Counters" : "Chips") : "Scores"),
    el("p", { class: "hint" }, scoresHint(view, chips, target)),
    el("table", { class: "scores", id: "scores" }, el("thead", {}, head), el("tbody", {}, hands, totals)),
    hollywoodGames(view, target),
    !chips && target && !view.sheet?.games ? progressBars(view, target) : null,
    api.host && view.status === "playing"
      ? el("div", { class: "host-tools" }, el("h3", {}, "Host"), el("button", { type: "button", class: "secondary", id: "abandon", onclick: abandonGame }, "Abandon the game"))
      : null,
  );
}

/** Hollywood scoring: the three games on the sheet, each seat's score in each (a game closes at the target). */
function hollywoodGames(view, target) {
  const games = view.sheet?.games;
  if (!Array.isArray(games)) return null;
  const seats = view.seats;
  const head = el("tr", {}, el("th", { scope: "col" }, "Game"), seats.map((s) => el("th", { scope: "col", title: s.name }, s.seat === me ? "You" : s.name)));
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

function scoresHint(view, chips, target) {
  const deals = view.options?.deals;
  const session = deals === undefined ? "" : ` The game is ${deals || view.seats.length} deals${deals ? "" : ", each player dealing once"}.`;
  if (chips) return `${isCounters() ? "Counters" : "Chips"} each seat holds after every deal.${session}`;
  if (view.rules === "rolling-stone") return `Deals won: the first out wins the deal.${session}`;
  if (view.rules === "sequence") return `Points lost in each deal, a point for every card left.${session}`;
  if (view.sheet?.games) return "Points scored in each hand; each total is the sum of that seat's three games (below).";
  if (target) return `Points scored in each hand; the game ends after a hand in which someone reaches ${target}.`;
  return `What each seat scored in each hand.${session}`;
}

function signed(n) {
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
      return el("li", {}, el("span", { class: "who" }, s.seat === me ? "You" : s.name), bar, el("span", { class: "num" }, `${total}/${target}`));
    }),
  );
}

function clientSeedsFromRecord() {
  const start = ui.record.find((l) => l.type === "start");
  const revealed = new Map(ui.record.filter((l) => l.type === "client-reveal").map((l) => [l.seat, l.seed]));
  return { start, revealed };
}

function renderFair() {
  const view = ui.view;
  if (!view) return;
  const { start, revealed } = clientSeedsFromRecord();
  const committed = new Set(view.client_seeds?.committed ?? []);
  const mine = me !== null ? storedSeed() : null;
  const seedRows = view.seats.map((s) => {
    let state;
    if (start) {
      const value = start.client_seeds[s.seat];
      state = value ? el("code", { class: "seed" }, value) : el("span", { class: "hint" }, s.bot ? "bot: no seed" : "no seed");
    } else if (revealed.has(s.seat)) {
      state = el("code", { class: "seed" }, revealed.get(s.seat));
    } else if (s.bot) {
      state = el("span", { class: "hint" }, "bot: no seed");
    } else {
      state = el("span", { class: "hint" }, committed.has(s.seat) ? "committed, not yet revealed" : "waiting for a commitment");
    }
    return el("li", {}, el("span", { class: "who" }, s.seat === me ? "You" : s.name), state);
  });
  const over = view.status === "over" || view.status === "abandoned";
  fill(
    $("panel-fair"),
    el("h2", {}, "Why it is fair"),
    el("p", {}, "A secret seed shuffles every deal and every new stock of this game. Its fingerprint was fixed before any player's seed existed; the seed itself is shown at the end, so anyone can deal every hand again and check it."),
    el("h3", {}, "Fingerprint, from the start"),
    el("code", { class: "hex", id: "fair-commitment" }, view.commitment),
    el("h3", {}, "Players' seeds"),
    el("p", { class: "hint" }, "Each player's browser picks a seed and commits to it before any is shown, so nobody can choose theirs after seeing another."),
    el("ul", { class: "seeds", id: "fair-seeds" }, seedRows),
    mine ? el("p", { class: "hint", id: "my-seed" }, "Your browser's seed: ", el("code", {}, mine.seed), " — committed as ", el("code", {}, shortHex(mine.commitment, 10)), ".") : null,
    el("h3", {}, "Server seed, at the end"),
    view.server_seed ? el("code", { class: "hex", id: "fair-server-seed" }, view.server_seed) : el("p", { class: "hint", id: "fair-server-seed" }, "Hidden until the game ends."),
    el("p", {}, el("a", { class: over ? "button gold" : "button secondary", href: `/verify?game=${encodeURIComponent(gameId)}`, id: "verify-link" }, "Verify this game")),
    over ? null : el("p", { class: "hint" }, "Before the end the check can only say the seed is not revealed yet."),
  );
}

function renderSeeding() {
  const view = ui.view;
  const open = view?.status === "seeding";
  $("seeding").hidden = !open;
  if (!open) return;
  const { committed, revealed } = view.client_seeds;
  const mine = me !== null ? storedSeed() : null;
  const rows = view.seats.map((s) => {
    const status = s.bot ? "bot" : revealed.includes(s.seat) ? "seed revealed ✔" : committed.includes(s.seat) ? "committed ✔" : "waiting…";
    return el("li", {}, el("span", { class: "who" }, s.seat === me ? `${s.name} (you)` : s.name, s.bot ? el("span", { class: "badge bot" }, "bot") : null), el("span", { class: "state" }, status));
  });
  const lostSeed = me !== null && committed.includes(me) && !revealed.includes(me) && !mine;
  fill(
    $("seeding-body"),
    el("p", {}, "Each player's browser picks a random seed and commits to it. When every player has committed, the seeds are revealed and mixed with the server's secret seed to shuffle the cards."),
    el("p", { class: "hint" }, "Fingerprint of the server's seed: ", el("code", {}, shortHex(view.commitment, 16))),
    el("ul", { class: "seed-status" }, rows),
    mine ? el("p", { class: "hint" }, "Your seed: ", el("code", {}, mine.seed)) : null,
    lostSeed ? el("p", { class: "error" }, "This seat committed from another browser: open the game there to reveal its seed, or the host can start without it.") : null,
    api.host
      ? el(
          "div",
          { class: "host-start" },
          el("button", { type: "button", class: "secondary", id: "start-now", onclick: startNow }, "Start now with bots"),
          el("p", { class: "hint" }, "Every seat whose seed is not revealed yet is then played by a bot. Seeds are revealed only once every player has committed, so until then that means every seat, yours too."),
        )
      : null,
  );
}

async function startNow() {
  try {
    await api.start();
    setView(await api.view());
  } catch (error) {
    toast(`Could not start: ${error.message}`, { kind: "bad" });
  }
}

async function abandonGame() {
  if (!confirm("Abandon this game? The server reveals its seed and the game ends.")) return;
  try {
    await api.abandon();
    setView(await api.view());
  } catch (error) {
    toast(`Could not abandon: ${error.message}`, { kind: "bad" });
  }
}

function placeWord(p) {
  return ["", "1st", "2nd", "3rd", "4th", "5th", "6th", "7th", "8th"][p] ?? `${p}th`;
}

function renderEnd() {
  const view = ui.view;
  const over = (view.status === "over" && view.standings) || view.status === "abandoned";
  if (!over) {
    $("end").hidden = true;
    return;
  }
  if (ui.endShown === "closed") return;
  const standings = view.standings ?? [];
  const shared = (p) => standings.filter((r) => r.place === p).length > 1;
  const winners = standings.filter((r) => r.place === 1).map((r) => who(r.seat));
  const headline =
    view.status === "abandoned"
      ? "The game was abandoned."
      : winners.length > 1
        ? `${winners.join(" and ")} share first place!`
        : winners[0] === "You"
          ? "You win!"
          : `${winners[0]} wins.`;
  const first = !ui.endShown;
  if (first) {
    ui.endShown = true;
    hideTip();
    $("toast").hidden = true; // the dialog says it all
    if (standings.some((r) => r.place === 1 && r.seat === me)) sounds.win();
  }
  $("end-title").textContent = view.status === "abandoned" ? "Game abandoned" : "Game over";
  const focusedId = $("end").contains(document.activeElement) ? document.activeElement.id : null;
  fill(
    $("end-body"),
    el("p", { class: "headline", id: "winner" }, headline),
    standings.length
      ? el(
          "table",
          { class: "standings", id: "standings" },
          el("thead", {}, el("tr", {}, el("th", {}, "Place"), el("th", {}, "Player"), el("th", { class: "num" }, isCounters() ? "Counters" : isChips() ? "Chips" : view.rules === "rolling-stone" ? "Deals won" : "Points"))),
          el(
            "tbody",
            {},
            standings.map((r) =>
              el("tr", { class: r.place === 1 ? "first" : null }, el("td", {}, `${placeWord(r.place)}${shared(r.place) ? " (shared)" : ""}`), el("td", {}, who(r.seat), isBot(r.seat) ? el("span", { class: "badge bot" }, "bot") : null), el("td", { class: "num" }, String(r.total))),
            ),
          ),
        )
      : null,
    el("p", {}, "The server has revealed its seed. Check every deal and every score yourself:"),
    el(
      "p",
      { class: "end-actions" },
      el("a", { class: "button gold", href: `/verify?game=${encodeURIComponent(gameId)}`, id: "end-verify" }, "Verify this game"),
      el("button", { type: "button", class: "secondary", id: "end-close", onclick: () => ((ui.endShown = "closed"), ($("end").hidden = true)) }, "Look at the table"),
      el("a", { class: "button secondary", href: "/" }, "New table"),
    ),
  );
  $("end").hidden = false;
  // A redraw replaces the buttons: the focus stays where it was (on Verify the first time).
  const focus = first ? $("end-verify") : focusedId ? $(focusedId) : null;
  focus?.focus();
}

// -- the side panel (a drawer on a phone) ---------------------------------------------

function showPanel(name) {
  for (const tab of ["scores", "fair", "log"]) {
    $(`tab-${tab}`).setAttribute("aria-selected", String(tab === name));
    $(`panel-${tab}`).hidden = tab !== name;
  }
}

for (const tab of ["scores", "fair", "log"]) $(`tab-${tab}`).addEventListener("click", () => showPanel(tab));

function openSide(name) {
  showPanel(name);
  document.body.classList.add("side-open");
  $("open-scores").setAttribute("aria-expanded", "true");
  $("open-fair").setAttribute("aria-expanded", "true");
  $(`tab-${name}`).focus();
}

function closeSide() {
  document.body.classList.remove("side-open");
  $("open-scores").setAttribute("aria-expanded", "false");
  $("open-fair").setAttribute("aria-expanded", "false");
}

$("open-scores").addEventListener("click", () => openSide("scores"));
$("open-fair").addEventListener("click", () => openSide("fair"));
$("close-side").addEventListener("click", closeSide);

function showSound() {
  $("sound").setAttribute("aria-pressed", String(soundOn()));
  $("sound").title = soundOn() ? "Sound is on: M turns it off" : "Sound is off: M turns it on";
}

function toggleSound() {
  setSound(!soundOn());
  showSound();
  toast(soundOn() ? "Sound on (M turns it off)." : "Sound off (M turns it on).", { ms: 1800 });
}

$("sound").addEventListener("click", toggleSound);

// -- the keyboard -----------------------------------------------------------------------

function handButtons() {
  return [...$("hand").querySelectorAll("button.card")];
}

$("hand").addEventListener("focusin", (event) => {
  const code = event.target?.dataset?.code;
  if (!code) return;
  ui.focused = code;
  for (const b of handButtons()) b.tabIndex = b === event.target ? 0 : -1;
});

document.addEventListener("keydown", (event) => {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const target = event.target;
  if (target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return;
  const key = event.key;
  const inHand = $("hand").contains(target) && target.dataset?.code;
  if (inHand && (key === "ArrowLeft" || key === "ArrowRight" || key === "Home" || key === "End")) {
    const buttons = handButtons();
    let i = buttons.indexOf(target);
    if (key === "ArrowLeft") i = Math.max(0, i - 1);
    if (key === "ArrowRight") i = Math.min(buttons.length - 1, i + 1);
    if (key === "Home") i = 0;
    if (key === "End") i = buttons.length - 1;
    buttons[i].focus();
    event.preventDefault();
    return;
  }
  if (inHand && (key === "Enter" || key === " ")) {
    tapCard(target.dataset.code);
    event.preventDefault();
    return;
  }
  switch (key.toLowerCase()) {
    case "d":
      if (myTurn()) draw();
      break;
    case "k":
      keep();
      break;
    case "x":
      exchange();
      break;
    case "a":
      auction();
      break;
    case "b":
      if (legal("bid")) $("bid-amount")?.focus();
      break;
    case "t":
      if (myTurn() && ui.lifted && thenCards(ui.lifted).length) playThen(ui.lifted, thenCards(ui.lifted)[0]);
      break;
    case "p":
      pass();
      break;
    case "m":
      toggleSound();
      break;
    case "1":
    case "2":
    case "3":
    case "4":
      if (ui.picking) nameSuit(SUITS[Number(key) - 1]);
      break;
    case "escape":
      if (document.body.classList.contains("side-open")) closeSide();
      else if (ui.lifted) lower();
      hideTip();
      break;
    default:
      return;
  }
});

window.addEventListener("resize", fitHand);
window.addEventListener("scroll", hideTip, { passive: true });

// -- starting up ------------------------------------------------------------------------

async function loadRecord() {
  try {
    const text = await api.record();
    ui.record = text
      .split("\n")
      .filter((raw) => raw.trim())
      .map((raw) => JSON.parse(raw));
    for (const line of ui.record.slice(-12)) {
      const words = describeLine(line);
      if (words) log(words);
    }
  } catch {
    ui.record = [];
  }
}

async function boot() {
  showSound();
  if (!gameId) {
    fill($("status"), "No game here. ", el("a", { href: "/" }, "Open a table"));
    return;
  }
  try {
    await loadRecord();
    setView(await api.view());
  } catch (error) {
    document.body.dataset.phase = "error";
    const why = error instanceof ApiError && error.status === 404 ? "There is no such game on this server." : error instanceof ApiError && (error.status === 401 || error.status === 403) ? "This link's seat key is not valid for this game." : error.message;
    $("game-title").textContent = "Table unavailable";
    fill($("status"), why, " ", el("a", { href: "/" }, "Open a new table"));
    return;
  }
  api.follow(
    (event) => {
      if (event.event === "line") onLine(JSON.parse(event.data));
      else if (event.event === "view" || event.event === "state") setView(event.parsed ?? JSON.parse(event.data));
    },
    {
      from: ui.record.length,
      onStatus: (status) => {
        document.body.dataset.live = status;
        if (status === "reconnecting") $("status").textContent = "Connection lost: reconnecting…";
      },
    },
  );
}

boot();
