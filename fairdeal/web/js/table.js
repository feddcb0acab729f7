// The live table: one seat's page (or a spectator's). Everything it shows
// comes from the service: the seat's view (its hand, the public table, its
// legal moves and, for each card, why it cannot be played now, in the
// engine's words) and the public record, followed live. The page never
// decides what is legal; it asks, and says what the engine said.
//
// The page names no game: the catalogue (GET /rules) gives the game's title and
// unit, and its renderer module (js/games/<renderer>.js, picked by the catalogue's
// `renderer`) draws the table and says the game's words. What a renderer shows that
// depends on the rules (a run's next cards, a row's open ends, what fits the pile)
// comes in the view from the engine.
//
// The URL is /table/GAME#seat=N&token=JOIN[&host=HOST]. The fragment never
// leaves the browser, so the seat's key is in no server log.

import { ApiError, GameApi, request } from "./api.js";
import { catalogue, entryOf, holdsStake, rendererOf, unitWord } from "./catalogue.js";
import { cardName, display, isRed, suitName, SUIT_SYMBOLS } from "./cards.js";
import { clientCommitment, toHex, RANKS, SUITS } from "./protocol.js";
import { howToPlay } from "./help.js";
import { checkRecordLog, rememberCheckpoint } from "./publiclog.js";
import { keepLinks, keptLinks, linkItem, seatLink } from "./links.js";
import { clearLanded, motionOn, tableMotion, FLIGHT_MS, UpdateQueue } from "./motion.js";
import { playWords, rendererKit } from "./render.js";
import { setSound, soundOn, sounds } from "./sound.js";
import { cardBack, cardFace, cardRow, el, fill, saveFile, shortHex } from "./ui.js";

// -- where we are -------------------------------------------------------------

const gameId = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] ?? "");
const fragment = new URLSearchParams(location.hash.slice(1));
const seat = fragment.has("seat") ? Number(fragment.get("seat")) : null;
const api = new GameApi(gameId, { seat: Number.isInteger(seat) ? seat : null, token: fragment.get("token"), host: fragment.get("host") });
const me = api.seat; // null: a spectator

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
  publicLog: null, // what this page checked of the game in the public log (js/publiclog.js), null until then
  logEndAsked: false, // the game's log was asked again for its end entry, once the game was over
  nextAt: null, // between hands: performance.now() when the countdown deals the next hand
  betweenShown: null, // the hand whose end the sheet shows
  againPoll: null, // after the end: looking for the table the host played again
  heard: 0, // record lines received: shown, or waiting in the queue of updates
  ahead: null, // a view newer than the lines received: it waits for them
  spent: null, // the seq of the shown view this seat has just moved on (its answer is on its way)
  leaving: [], // the cards in flight from this seat's hand to the table, until the view without them
};

// The game at this table: its catalogue entry and its renderer's hooks (set before the first render).
const game = { entry: null, hooks: null };

// What a renderer (js/games/<module>.js) is handed (render.js): this page's view and seat, and
// the page's own helpers, so the renderer's hooks can act for the seat.
const T = rendererKit({
  view: () => ui.view,
  entry: () => game.entry,
  hooks: () => game.hooks,
  me,
  ui,
  who: (s) => who(s),
  seatNameOf: (s) => seatNameOf(s),
  isBot: (s) => isBot(s),
  legal: (kind, card) => legal(kind, card),
  myTurn: () => myTurn(),
  othersTurn: () => othersTurn(),
  holdsStake: () => isChips(),
  stake: (n) => chipWord(n),
  maxBid: () => maxBid(),
  sessionWords: () => sessionWords(),
  explainOn: (node, explain) => explainOn(node, explain),
  tapped: (handler) => tapped(handler),
  draw: () => draw(),
  send: (move, options) => send(move, options),
  render: () => render(),
  toast: (message, options) => toast(message, options),
});

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
  // A view this seat has already moved on is not its turn any more, though its answer may still wait in the queue.
  return me !== null && ui.view?.status === "playing" && ui.view.turn === me && ui.view.seq !== ui.spent;
}

/** A game whose standings count what players hold (chips, counters), not what they scored. */
function isChips() {
  return holdsStake(game.entry?.unit);
}

/** "counters" or "chips" (one of them for n = 1): what a game is played for. */
function chipWord(n = 2) {
  return unitWord(game.entry?.unit === "counters" ? "counters" : "chips", n);
}

/** The second cards the seat may add to a play of `code` (Spin's A♦, Commit's 9♦): the legal moves say. */
function thenCards(code) {
  return (ui.view?.legal_moves ?? []).filter((m) => m.move === "play" && m.card === code && m.then).map((m) => m.then);
}

/** Whether playing `code` now needs a suit named with it (an eight): the legal moves say so. */
function needsSuit(code) {
  return (ui.view?.legal_moves ?? []).some((m) => m.move === "play" && m.card === code && m.suit);
}

function title() {
  return game.entry?.title ?? ui.view?.rules ?? "";
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
  $("said").textContent = message; // the same words for a screen reader, said once, politely
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

/** The engine's why-not: "8♥ does not match 9♣ in suit or rank" names its card itself; else the card is named first. */
function whyNotWords(code, why) {
  return why.includes(display(code)) ? why : `${display(code)}: ${why}`;
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

/**
 * Post `move`; true when it went through. `refused(detail)`, if given, says the rules' refusal
 * (a 400 or 422) where the move was made (a rule box) instead of in a toast.
 */
async function send(move, { refused = null } = {}) {
  if (ui.busy || !ui.view) return false;
  let done = false;
  ui.busy = true;
  document.body.dataset.busy = "true";
  hideTip();
  try {
    const at = ui.view.seq;
    const answer = await api.move(at, move);
    ui.lifted = null;
    ui.picking = false;
    ui.spent = at; // the view moved on (the stream may have brought the next one already)
    done = true;
    setView(answer.view);
  } catch (error) {
    if (refused && error instanceof ApiError && (error.status === 400 || error.status === 422)) {
      refused(String(error.detail));
    } else if (error instanceof ApiError && error.status === 409) {
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
  return done;
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
    const why = game.hooks?.stockText?.(T);
    if (why) toast(why);
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
    toast(`A bid is a whole number of ${chipWord(2)}, 1 to ${maxBid()}.`, { kind: "bad" });
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

function tapCard(code, copy = 0) {
  const note = cardNote(code);
  hideTip();
  // A game that chooses several cards in order (a string) takes the tap itself.
  if (game.hooks?.tapCard?.(code, copy, T)) return;
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

// -- the live updates, in order -------------------------------------------------------
//
// Record lines and views (from the stream, a move's answer, a fetch) go through one queue. A
// line is applied to the page as it stands and may start cards moving; what arrives meanwhile
// waits. A view is shown only once the lines it holds have been applied: a move's answer comes
// back before the stream's lines that lead to it, and the card must fly before it lies there.

const updates = new UpdateQueue();
let aheadTimer = null;
// The cards a record line moves, from the page as it stands (before the view that holds the move).
const moveCards = tableMotion({ me, hooks: () => game.hooks, T, leaving: ui.leaving });

/** A new view (from anywhere): shown after the updates before it, and after the lines it holds. */
function setView(view) {
  if (!view) return;
  if (view.seq > ui.heard) {
    if (!ui.ahead || view.seq >= ui.ahead.seq) ui.ahead = view;
    // The stream brings the lines at once; if it cannot (reconnecting), the view is shown anyway.
    clearTimeout(aheadTimer);
    aheadTimer = setTimeout(() => releaseAhead(true), 2500);
    return;
  }
  updates.push(() => showView(view));
}

function releaseAhead(anyway = false) {
  if (!ui.ahead || (!anyway && ui.ahead.seq > ui.heard)) return;
  const view = ui.ahead;
  ui.ahead = null;
  clearTimeout(aheadTimer);
  updates.push(() => showView(view));
}

/** A record line from the stream: applied after the updates before it. */
function hearLine(line) {
  if (line.seq !== ui.heard) return; // already heard (a reconnect resends nothing older)
  ui.heard += 1;
  updates.push(() => onLine(line, updates.waiting));
  releaseAhead();
}

// -- the view ---------------------------------------------------------------------

function showView(view) {
  if (!view) return;
  if (ui.view && view.seq < ui.view.seq) return; // an older answer overtaken by the live stream
  ui.view = view;
  const pause = view.status === "between-hands" ? view.next_hand : null;
  ui.nextAt = pause && typeof pause.seconds_left === "number" ? performance.now() + pause.seconds_left * 1000 : null;
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
  ui.leaving.length = 0;
  render();
  clearLanded(); // the cards that flew lie in the view now
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
    // Commit, then reveal once every person has committed; each step reads the view it fetched
    // (the page shows that view only once its lines have come).
    let view = ui.view;
    for (let step = 0; step < 2; step++) {
      if (!view || view.status !== "seeding" || isBot(me)) break;
      const { committed, revealed } = view.client_seeds;
      let mine = storedSeed();
      if (!committed.includes(me)) {
        if (!mine) {
          const seed = newSeed();
          mine = { seed, commitment: await clientCommitment(seed) };
          localStorage.setItem(seedKey(), JSON.stringify(mine));
        }
        const { receipt } = await api.commit(mine.commitment);
        if (receipt?.log) checkAnnounced(receipt.log);
        view = await api.view();
        setView(view);
      } else if (!revealed.includes(me)) {
        const humans = view.seats.filter((s) => !s.bot).map((s) => s.seat);
        if (!humans.every((s) => committed.includes(s)) || !mine) break;
        view = (await api.reveal(mine.seed)).view;
        setView(view);
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

/** Apply a record line; its cards move (a promise) unless `behind` updates wait after it (catching up). */
function onLine(line, behind = 0) {
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
  // A table that pauses between hands says it on its sheet; one that deals at once, in a message.
  if (line.type === "hand-end" && !(ui.view?.next_hand_seconds > 0)) toast(handEndText(line), { ms: 5000 });
  renderFair();
  // Cards move only for a line the shown view does not hold yet, and not while catching up.
  if (ui.view && line.seq >= ui.view.seq && behind < 12 && motionOn()) return moveCards(line, behind > 3 ? FLIGHT_MS / 2 : FLIGHT_MS);
}

/** A move as the log says it; the game's renderer may say it its own way. */
function moveWords(line) {
  const own = game.hooks?.moveWords?.(line, T);
  if (own) return own;
  switch (line.move) {
    case "play":
      return playWords(line);
    case "draw":
      return "drew a card";
    case "keep":
      return "kept the card";
    case "exchange":
      return "took the extra hand (their own hand is dead)";
    case "auction":
      return "put the extra hand up for auction";
    case "bid":
      return `bid ${line.amount} for the extra hand`;
    case "pass":
      return "passed";
    default:
      return line.move;
  }
}

/** `words` without the `lead` a title above them already says ("Hand 2: Ann went out" under "Hand 2"). */
function underTitle(words, lead) {
  if (!words.startsWith(lead)) return words;
  const rest = words.slice(lead.length);
  return rest[0].toUpperCase() + rest.slice(1);
}

function handEndText(line) {
  const own = game.hooks?.handEndWords?.(line, T);
  if (own) return own;
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
  const own = game.hooks?.lineWords?.(line, T);
  if (own) return own;
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
      return `The stock ran out: the pile became a new stock of ${line.cards} card${line.cards === 1 ? "" : "s"}.`;
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
  $("game-title").textContent = `${title()}${view.hand_no ? ` · hand ${view.hand_no}` : ""}`;
  document.title = `${myTurn() ? "● Your turn · " : ""}${title()} · fairdeal`;
  renderOpponents();
  renderCenter();
  renderMe();
  renderHand();
  renderActions();
  renderStatus();
  renderTimer();
  renderScores();
  renderFair();
  // Once over, the game's end entry is in the log too: asked for once.
  if ((view.status === "over" || view.status === "abandoned") && ui.publicLog?.checkpoint && !ui.logEndAsked && !ui.publicLog.entries.some((e) => e.type === "end")) {
    ui.logEndAsked = true;
    fetchPublicLog();
  }
  renderSeeding();
  renderBetween();
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
  else facts.push(`${view.totals?.[s] ?? 0} ${unitWord(game.entry?.unit ?? "points", view.totals?.[s] ?? 0)}`);
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
      const dealer = dealerSeat() === s;
      const badges = seatBadges(s);
      const label = [seatNameOf(s), isBot(s) ? "bot" : null, ...seatFacts(s), dealer ? "dealer" : null, ...badges.map((b) => b.dataset.says ?? b.textContent), turn ? "playing now" : null].filter(Boolean).join(", ");
      const fan = el("span", { class: "fan", "aria-hidden": "true" }, Array.from({ length: Math.min(count, 7) }, () => cardBack()));
      const node = el(
        "li",
        { class: `opp${turn ? " turn" : ""}${isBot(s) ? " is-bot" : ""}`, "data-seat": s, "aria-label": label, "aria-current": turn ? "true" : null },
        avatar(s),
        el("span", { class: "opp-name" }, seatNameOf(s), isBot(s) ? el("span", { class: "badge bot" }, "bot") : null, dealer ? el("span", { class: "dealer-chip", title: "dealer" }, "D") : null, badges),
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

/** Who wears the dealer's chip: the view's dealer, unless the game says another (or none: the server deals). */
function dealerSeat() {
  const own = game.hooks?.dealerSeat;
  return own ? own(T) : ui.view.table?.dealer;
}

/** A seat's marks besides bot and dealer, as the game's renderer draws them (each says its word in `data-says`). */
function seatBadges(s) {
  return game.hooks?.seatBadges?.(s, T) ?? [];
}

/** The middle of the table, as the game's renderer draws it (the stock and pile, the rows, or the board). */
function renderCenter() {
  const used = ui.view.table ? game.hooks.drawTable(T) : null;
  for (const id of ["stock-pile", "rows", "board"]) $(id).hidden = id !== used;
  renderSuitPicker();
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
  const dealer = dealerSeat() === me;
  fill(
    $("me-head"),
    el("span", { class: "me-name" }, seatNameOf(me), el("span", { class: "badge you" }, "you"), isBot(me) ? el("span", { class: "badge bot" }, "bot") : null, dealer ? el("span", { class: "dealer-chip", title: "dealer" }, "D") : null, seatBadges(me)),
    el("span", { class: "me-facts" }, seatFacts(me).join(" · ")),
    myTurn() ? el("span", { class: "your-turn" }, "Your turn") : null,
  );
}

function renderHand() {
  const view = ui.view;
  const handNode = $("hand");
  const active = handNode.contains(document.activeElement) ? document.activeElement?.dataset?.code : null;
  const activeCopy = handNode.contains(document.activeElement) ? (document.activeElement?.dataset?.copy ?? "0") : null;
  const codes = sortHand(view.hand ?? []);
  const turn = myTurn();
  const copies = new Map(); // two packs: the second 7♥ of a hand is copy 1
  const leaving = [...ui.leaving]; // cards flying to the table (motion): their places stay empty
  const buttons = codes.map((code, i) => {
    const note = cardNote(code);
    const playable = Boolean(note?.playable) && turn;
    const copy = copies.get(code) ?? 0;
    copies.set(code, copy + 1);
    // A game that chooses cards in order marks each chosen card with its place (1, 2, 3...).
    const mark = game.hooks.handCard?.(code, copy, T) ?? null;
    const lifted = ui.lifted === code || Boolean(mark);
    const label = `${cardName(code)}, ${playable ? "playable" : "not playable"}${mark ? `, chosen ${mark}` : lifted ? ", lifted" : ""}`;
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
        "data-copy": String(copy),
        "data-order": mark,
        "data-then": playable && thenCards(code).length ? "yes" : null,
        class: `card ${isRed(code) ? "red" : "black"}${playable ? " playable" : " dim"}${lifted ? " lifted" : ""}${(ui.newCards ?? []).includes(code) ? " fresh" : ""}${turn ? "" : " waiting"}${takeOut(leaving, code) ? " in-flight" : ""}`,
      },
    });
    if (why) node.append(why);
    if (mark) node.append(el("span", { class: "order-mark", "aria-hidden": "true" }, mark));
    node.addEventListener("click", tapped(() => tapCard(code, copy)));
    // The tip says what the face does not: why not, or how to play it; never the card's name again.
    explainOn(node, () => (note?.why_not ? whyNotWords(code, note.why_not) : turn ? (game.hooks.cardHint?.(code, T) ?? `${display(code)} can be played: tap to lift, tap again to play.`) : null));
    return node;
  });
  fill(handNode, buttons);
  if (!buttons.length) fill(handNode, el("span", { class: "empty-hand hint" }, view.status === "seeding" ? "Your cards come when every seed is in." : me === null ? "" : (game.hooks.emptyHand?.(T) ?? "No cards.")));
  // One card takes the Tab stop; the arrows move along the hand.
  const focusCode = active ?? ui.focused;
  const focusCopy = active ? activeCopy : (ui.focusedCopy ?? "0");
  const target = buttons.find((b) => b.dataset.code === focusCode && b.dataset.copy === focusCopy) ?? buttons.find((b) => b.dataset.code === focusCode) ?? buttons.find((b) => b.dataset.code === ui.lifted) ?? buttons.find((b) => b.classList.contains("playable")) ?? buttons[0];
  if (target) target.tabIndex = 0;
  if (active && target) target.focus({ preventScroll: true });
  fitHand();
}

/** Take one `code` out of `codes` (true), if it is there. */
function takeOut(codes, code) {
  const i = codes.indexOf(code);
  if (i >= 0) codes.splice(i, 1);
  return i >= 0;
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
  // A game with controls of its own (a string's Play and Clear, a Forecaster's calls) draws them.
  const own = game.hooks.actions?.(T);
  if (own) {
    fill($("actions"), own);
    $("keys").textContent = keysText();
    return;
  }
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
        const words = game.hooks.thenWords?.(T) ?? "";
        buttons.push(el("button", { type: "button", class: "gold", id: "play-then", "data-then": then, onclick: () => playThen(lifted, then) }, `Play ${display(lifted)} then ${display(then)}${words}`, el("kbd", {}, "T")));
      }
      buttons.push(el("button", { type: "button", class: "secondary", id: "lower", onclick: lower }, "Put back", el("kbd", {}, "Esc")));
    }
    if (legal("keep") && !pending) buttons.push(el("button", { type: "button", class: "gold", id: "keep-hand", onclick: keep }, label("keep"), el("kbd", {}, "K")));
    if (legal("exchange")) buttons.push(el("button", { type: "button", class: "secondary", id: "exchange", onclick: exchange }, label("exchange"), el("kbd", {}, "X")));
    if (legal("auction")) buttons.push(el("button", { type: "button", class: "secondary", id: "auction", onclick: auction }, label("auction"), el("kbd", {}, "A")));
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
  const input = el("input", { type: "number", id: "bid-amount", min: "1", max: String(most), step: "1", value: old?.value || "1", inputmode: "numeric", "aria-label": `${chipWord(2)[0].toUpperCase()}${chipWord(2).slice(1)} to bid, 1 to ${most}` });
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

/** A control's words: the game's renderer names its moves (Michigan's "Take the extra hand"). */
function label(kind) {
  return game.hooks.labels?.[kind] ?? { keep: "Keep", exchange: "Exchange", auction: "Auction" }[kind] ?? kind;
}

function passLabel() {
  return game.hooks.passLabel?.(T) ?? "Pass";
}

// The keys this page binds (the keydown handler below) for each move kind a game may declare,
// and what each does. A key is named in the hint only if the game's catalogue entry declares
// its move, so a table never offers a key that does nothing there.
const MOVE_KEYS = [
  ["draw", "D draws"],
  ["keep", "K keeps"],
  ["exchange", "X exchanges"],
  ["auction", "A auctions"],
  ["bid", "B bids (the amount box)"],
  ["pass", "P passes"],
];

/**
 * The key hint: the keys that act in this game, from the catalogue's `moves` and the keys this
 * page binds. A renderer may reword a key (`keyWords`: {pass: "P picks up the trick"}), add its
 * own (`keyLines(T)`: ["1–4 name a suit"]), or, if its keys are its own altogether, say them all
 * (`keys(T)`).
 */
function keysText() {
  const own = game.hooks.keys?.(T);
  if (own) return own;
  const moves = game.entry?.moves ?? [];
  const words = game.hooks.keyWords ?? {};
  const parts = moves.includes("play") ? ["Tab to your hand", "← → move", "Enter lifts and plays"] : [];
  if (game.entry?.two_card_plays) parts.push(words.then ?? "T plays the lifted card with its second card");
  for (const [kind, say] of MOVE_KEYS) if (moves.includes(kind)) parts.push(words[kind] ?? say);
  parts.push(...(game.hooks.keyLines?.(T) ?? []), "M sound");
  return `Keys: ${parts.join(", ")}.`;
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
  if (view.status === "between-hands") return `Hand ${view.hand_no} is over: the next deal waits for everyone.`;
  if (!view.table) return "";
  return game.hooks.status(T);
}

/** "Ann's turn", "Bot 2's turn (bot)"; "" when nobody is to act. */
function othersTurn() {
  const view = ui.view;
  // This seat's own turn, once it has moved (its answer still in the queue), is nobody's to announce.
  if (view.turn === null || view.turn === undefined || view.turn === me) return "";
  return `${seatNameOf(view.turn)}'s turn${isBot(view.turn) ? " (bot)" : ""}`;
}

function renderTimer() {
  const box = $("timer");
  const show = ui.deadlineAt !== null && ui.view?.status === "playing";
  box.hidden = !(show && myTurn());
  tick();
}

function tick() {
  if (ui.deadlineAt === null) return;
  // Whole seconds: the bar and the numbers change once a second and nothing is written between
  // (every write lays out and repaints the table: at 5 writes a second an idle table took a
  // quarter of a core in Chromium's software rendering, once a second a twentieth; measured).
  const seconds = Math.ceil(Math.max(0, (ui.deadlineAt - performance.now()) / 1000));
  // Four decimals: CSS gives a transform back with six digits at most, so the comparison below holds.
  const fraction = String(Math.round(1e4 * Math.max(0, Math.min(1, seconds / (ui.deadlineTotal || 20)))) / 1e4);
  const text = `${seconds} s`;
  const fill = $("timer-fill");
  const scale = `scaleX(${fraction})`;
  if (fill.style.transform !== scale) fill.style.transform = scale;
  $("timer").classList.toggle("low", seconds <= 5);
  writeText($("timer-text"), text);
  for (const node of document.querySelectorAll("[data-timer]")) {
    writeText(node, text);
    if (node.style.getPropertyValue("--left") !== fraction) node.style.setProperty("--left", fraction);
  }
}

/** Sets a node's text only when it differs: an unchanged write still costs a layout. */
function writeText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}

function tickNext() {
  const node = $("next-countdown");
  if (!node || ui.nextAt === null) return;
  const left = Math.max(0, Math.ceil((ui.nextAt - performance.now()) / 1000));
  writeText(node, left > 0 ? `Next hand in ${left} s` : "Dealing the next hand…");
}

setInterval(tick, 200);
setInterval(tickNext, 250);

function renderScores() {
  const view = ui.view;
  const chips = isChips();
  const target = view.options?.target;
  const extra = game.hooks.scoresExtra?.(T) ?? null;
  fill(
    $("panel-scores"),
    el("h2", {}, chips ? unitTitle() : "Scores"),
    el("p", { class: "hint" }, scoresHint(view, chips, target)),
    scoresTable(view, "scores"),
    extra,
    !chips && target && !extra ? progressBars(view, target) : null,
    api.host && (view.status === "playing" || view.status === "between-hands")
      ? el("div", { class: "host-tools" }, el("h3", {}, "Host"), el("button", { type: "button", class: "secondary", id: "abandon", onclick: abandonGame }, "Abandon the game"))
      : null,
  );
}

/** Hand by hand, what each seat scored (or won and paid), and the totals: the side panel's and the end's. */
function scoresTable(view, id) {
  const seats = view.seats;
  const chips = isChips();
  const head = el("tr", {}, el("th", { scope: "col" }, "Hand"), seats.map((s) => el("th", { scope: "col", title: s.name }, s.seat === me ? "You" : s.name)));
  const hands = (view.hands ?? []).map((h) =>
    el(
      "tr",
      {},
      el("th", { scope: "row" }, String(h.hand)),
      seats.map((s) => el("td", { class: h.winners.includes(s.seat) ? "won" : null }, chips ? signed(h.scores[s.seat]) : String(h.scores[s.seat]), h.winners.includes(s.seat) ? el("span", { class: "visually-hidden" }, " (won the hand)") : null)),
    ),
  );
  const totals = el("tr", { class: "totals" }, el("th", { scope: "row" }, chips ? unitTitle() : "Total"), seats.map((s) => el("td", {}, String(view.totals?.[s.seat] ?? 0))));
  return el("table", { class: "scores", id }, el("thead", {}, head), el("tbody", {}, hands, totals));
}

/** "Chips", "Counters", "Points", "Deals won": what the game's standings count, as a heading. */
function unitTitle() {
  const words = unitWord(game.entry?.unit ?? "points");
  return words[0].toUpperCase() + words.slice(1);
}

/** " The game is 3 deals.": how long a session of deals lasts (none for a game played to a target). */
function sessionWords() {
  const deals = ui.view.options?.deals;
  return deals === undefined ? "" : ` The game is ${deals === 1 ? "1 deal" : `${deals || ui.view.seats.length} deals`}${deals ? "" : ", each player dealing once"}.`;
}

function scoresHint(view, chips, target) {
  const own = game.hooks.scoresHint?.(T);
  if (own) return own;
  const session = sessionWords();
  if (chips) return `${unitTitle()} each seat holds after every deal.${session}`;
  if (target) return `Points scored in each hand; the game ends after a hand in which someone reaches ${target}.`;
  if (game.entry?.unit === "deals") return `Deals won: one to the winner of each deal.${session}`;
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

// -- the public log, checked in this browser (spec/log.md) ------------------------------

/**
 * Check the game's entries in the public log (`log` as GET /games/{id}/log gives it) with the
 * record header's server key, then compare the checkpoint with the newest this browser kept for the
 * log (spec/log.md section 7: a server that shows two logs is caught here). Never throws.
 */
async function checkPublicLog(log) {
  const header = ui.record[0]?.type === "header" ? ui.record[0] : null;
  if (!header) return; // the record could not be read: no key to check with
  const result = await checkRecordLog(log, header.server_key, { id: gameId, kind: "game", rules: header.rules, commitment: header.commitment });
  const end = result.entries.find((e) => e.type === "end");
  const last = ui.record[ui.record.length - 1];
  if (result.ok && end && last?.type === "reveal" && last.seq !== end.entry.seq) {
    Object.assign(result, { ok: false, error: `end entry ${end.index}: the log says the record ends at line ${end.entry.seq}, this page's record at line ${last.seq}` });
  }
  let memory = null;
  if (result.checkpoint) {
    const consistency = (first, second) => request("GET", `/log/proof/consistency?first=${first}&second=${second}`);
    memory = await rememberCheckpoint(result.checkpoint, header.server_key, consistency).catch((error) => ({ status: "unchecked", error: error.message }));
  }
  ui.publicLog = { ...result, memory };
  renderFair();
}

/** The game's entries in the log, asked of the server (a spectator, a reload, the end). */
async function fetchPublicLog() {
  try {
    await checkPublicLog(await request("GET", `${api.base}/log`));
  } catch (error) {
    const missing = error instanceof ApiError && error.status === 404;
    ui.publicLog = { ok: false, missing, error: missing ? "this game is not in the server's public log" : `the server's log could not be read: ${error.message}`, entries: [] };
    renderFair();
  }
}

/** A commit receipt's `log` (the start entry's index, a checkpoint, the proof): the entry's text is asked for, the rest checked here. */
async function checkAnnounced(announced) {
  try {
    const { index, checkpoint, inclusion } = announced;
    const page = await request("GET", `/log/entries?start=${index}&end=${index + 1}`);
    const entry = page.entries?.[0]?.entry ?? "";
    await checkPublicLog({ checkpoint, entries: [{ index, entry, inclusion }] });
  } catch {
    await fetchPublicLog();
  }
}

function logWords(e) {
  return e.type === "end" ? `its end (${e.entry.how}): entry ${e.index}` : `entry ${e.index}`;
}

function publicLogBlock() {
  const state = ui.publicLog;
  const heading = el("h3", {}, "In the public log");
  if (!state) return el("div", { id: "fair-log", "data-state": "checking" }, heading, el("p", { class: "hint" }, "Checking…"));
  if (!state.ok && !state.checkpoint) {
    return el("div", { id: "fair-log", "data-state": state.missing ? "missing" : "failed" }, heading,
      el("p", { class: "error", id: "fair-log-status" }, state.missing ? "This game is not in the server's public log: it was never announced there (a game from before the log has no entry)." : `Not confirmed in the public log: ${state.error}.`));
  }
  const cp = state.checkpoint;
  const memory = state.memory;
  const signed = cp.signature === "checked" ? "checked against the log's signed checkpoint" : "checked against the log's checkpoint (signature not checked in this browser)";
  const words = state.entries.map(logWords);
  const fork = memory?.status === "fork";
  return el(
    "div",
    { id: "fair-log", "data-state": fork ? "fork" : state.ok ? "ok" : "failed" },
    heading,
    fork
      ? el("div", { class: "error", id: "fair-log-fork", role: "alert" },
          el("p", {}, el("strong", {}, "This server has shown two different logs."), " An honest log only grows, so one of them was rewritten or shown only to some: report both checkpoints below (each is signed by the server)."),
          el("p", { class: "hint" }, memory.error),
          el("pre", { class: "hex" }, memory.previous),
          el("pre", { class: "hex" }, memory.checkpoint))
      : null,
    state.ok
      ? el("p", { id: "fair-log-status" }, `In the public log: ${words.join(", ")} of ${cp.size}, ${signed}.`)
      : el("p", { class: "error", id: "fair-log-status" }, `Not confirmed in the public log: ${state.error}.`),
    el("p", { class: "hint" }, "Log: ", el("code", { id: "fair-log-origin" }, cp.origin), ". Announced before the first card, so the game cannot be dropped or dealt again with another seed unseen."),
    memory?.status === "unchecked" ? el("p", { class: "error" }, `This log's checkpoints could not be compared: ${memory.error}.`) : null,
    memory && !fork && memory.status !== "unchecked"
      ? el("p", { class: "hint" }, memory.status === "first" ? "This browser keeps this checkpoint, to check that the log's next ones extend it." : "It extends the checkpoints this browser saw before: one log for everybody.")
      : null,
  );
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
    publicLogBlock(),
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
    api.host ? othersLinks() : null,
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

let othersBlock = null;

/**
 * For the host: every other human seat's link, as this browser kept them when it opened the table
 * (js/links.js), with Copy and QR. Built once, so a QR shown or a "Copied" stays while the view updates.
 */
function othersLinks() {
  if (othersBlock) return othersBlock;
  const kept = keptLinks(gameId);
  const others = (kept?.seats ?? []).filter((s) => s.seat !== me);
  const humans = ui.view.seats.filter((s) => !s.bot && s.seat !== me);
  othersBlock = el(
    "section",
    { class: "others-links", id: "others-links", "aria-labelledby": "others-links-title" },
    el("h3", { id: "others-links-title" }, "The other players' links"),
    !humans.length
      ? el("p", { class: "hint" }, "Every other seat is a bot: nobody else needs a link.")
      : kept
        ? [el("p", { class: "hint" }, "Send each player their own link: it is their seat's key."), el("ul", { class: "link-list" }, others.map((s) => linkItem(s.name, s.url)))]
        : el("p", { class: "hint", id: "no-links" }, "This browser did not open this table, so it has no other seat's link. They are kept by the browser that opened it, under its recent tables."),
  );
  return othersBlock;
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

// -- between hands: the hand's end, every seat's cards, "Next hand" ---------------------

/** "Ann", "Ann and Bob", "Ann, Bob and Cy". */
function names(seats) {
  const words = seats.map(who);
  return words.length > 1 ? `${words.slice(0, -1).join(", ")} and ${words[words.length - 1]}` : words[0] ?? "";
}

function renderBetween() {
  const view = ui.view;
  const box = $("between");
  const pause = view.status === "between-hands" ? view.next_hand : null;
  const ended = view.hands?.[view.hands.length - 1];
  if (!pause || !ended) {
    const had = !box.hidden && box.contains(document.activeElement);
    box.hidden = true;
    ui.betweenShown = null;
    // The sheet had the keyboard: the new hand takes it.
    if (had) ($("hand").querySelector("button.card[tabindex='0']") ?? $("actions").querySelector("button"))?.focus({ preventScroll: true });
    return;
  }
  const first = ui.betweenShown !== ended.hand;
  ui.betweenShown = ended.hand;
  const focusedId = box.contains(document.activeElement) ? document.activeElement.id : null;
  const chips = isChips();
  const line = ui.record.findLast?.((l) => l.type === "hand-end" && l.hand === ended.hand);
  const head = el(
    "tr",
    {},
    el("th", { scope: "col" }, "Player"),
    el("th", { scope: "col" }, "Cards left"),
    el("th", { scope: "col", class: "num" }, "Count"),
    el("th", { scope: "col", class: "num" }, chips ? "This hand" : "Score"),
    el("th", { scope: "col", class: "num" }, chips ? unitTitle() : "Total"),
  );
  const rows = view.seats.map((s) => {
    const left = pause.cards_left?.[s.seat] ?? [];
    const score = ended.scores?.[s.seat] ?? 0;
    return el(
      "tr",
      { class: ended.winners.includes(s.seat) ? "won" : null, "data-seat": String(s.seat) },
      el("th", { scope: "row" }, who(s.seat), isBot(s.seat) ? el("span", { class: "badge bot" }, "bot") : null),
      el("td", { class: "left" }, left.length ? cardRow(left) : el("span", { class: "hint" }, "none")),
      el("td", { class: "num count" }, String(ended.counts?.[s.seat] ?? left.length)),
      el("td", { class: "num score" }, chips ? signed(score) : String(score)),
      el("td", { class: "num total" }, String(view.totals?.[s.seat] ?? 0)),
    );
  });
  const mine = me !== null && pause.waiting.includes(me);
  const waiting = pause.waiting.filter((s) => s !== me);
  $("between-title").textContent = `Hand ${ended.hand}`;
  fill(
    $("between-body"),
    line ? el("p", { class: "headline", id: "between-headline" }, underTitle(handEndText(line), `Hand ${ended.hand}: `)) : null,
    el("table", { class: "standings hand-end-table", id: "hand-end-table" }, el("thead", {}, head), el("tbody", {}, rows)),
    el(
      "p",
      { class: "next-hand" },
      mine ? el("button", { type: "button", class: "gold", id: "next-hand", onclick: readyNext }, "Next hand") : null,
      el("span", { id: "next-countdown", class: "countdown" }),
      !mine && waiting.length ? el("span", { id: "next-waiting", class: "hint" }, `Waiting for ${names(waiting)}…`) : null,
    ),
  );
  tickNext();
  box.hidden = false;
  // Who is ready is no record line, yet the live stream tells of it, from whichever server process
  // noted it (PostgreSQL's NOTIFY; elsewhere the stream looks at the game's row): no polling here.
  if (first) announce(line ? handEndText(line) : `Hand ${ended.hand} is over.`);
  const focus = first && mine ? $("next-hand") : focusedId ? $(focusedId) : null;
  focus?.focus({ preventScroll: true });
}

/** This seat is ready for the next deal; the answer is the view (the new hand, if everyone was). */
async function readyNext() {
  const button = $("next-hand");
  if (button) button.disabled = true;
  try {
    setView(await api.ready());
  } catch (error) {
    if (button) button.disabled = false;
    if (error instanceof ApiError && error.status === 409) setView(await api.view()); // dealt meanwhile
    else toast(`The table did not hear you: ${error.message}`, { kind: "bad" });
  }
}

/** "Play again" for the host; for another seat, once the host has, its link to the next table. */
function againControls(view) {
  const again = view.again;
  const close = el("button", { type: "button", class: "secondary", id: "end-close", onclick: () => ((ui.endShown = "closed"), ($("end").hidden = true)) }, "Look at the table");
  const fresh = el("a", { class: "button secondary", href: "/" }, "New table");
  if (api.host && !again) return [el("button", { type: "button", class: "gold", id: "end-again", onclick: playAgain }, "Play again"), close, fresh];
  if (again?.token !== undefined) {
    return [el("a", { class: "button gold", id: "end-join-next", href: seatLink(again.game_id, again.seat, again.token) }, "Join the next table"), close, fresh];
  }
  if (again) return [el("a", { class: "button secondary", id: "end-watch-next", href: `/table/${encodeURIComponent(again.game_id)}` }, "Watch the next table"), close, fresh];
  return [close, fresh];
}

/** The host's new table with the same seats: its links kept, then this browser takes its seat there. */
async function playAgain() {
  const button = $("end-again");
  if (button) button.disabled = true;
  try {
    const created = await api.again();
    keepLinks(created, { rules: ui.view.rules, title: title() });
    const mine = created.seats.find((s) => s.seat === me && s.join_token);
    location.assign(mine ? seatLink(created.game_id, mine.seat, mine.join_token, created.host_token) : `/table/${encodeURIComponent(created.game_id)}#host=${encodeURIComponent(created.host_token)}`);
  } catch (error) {
    if (button) button.disabled = false;
    toast(`No new table: ${error.message}`, { kind: "bad" });
  }
}

/** After the end the live stream stops: a seat looks now and then for the table the host played again. */
function watchForAgain(view) {
  const waiting = me !== null && !view.again && !api.host;
  if (!waiting) {
    clearInterval(ui.againPoll);
    ui.againPoll = null;
    return;
  }
  ui.againPoll ??= setInterval(async () => {
    try {
      const fresh = await api.view();
      if (fresh.again) setView(fresh);
    } catch {
      // the next look may get through
    }
  }, 5000);
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
          el("thead", {}, el("tr", {}, el("th", {}, "Place"), el("th", {}, "Player"), el("th", { class: "num" }, unitTitle()))),
          el(
            "tbody",
            {},
            standings.map((r) =>
              el("tr", { class: r.place === 1 ? "first" : null }, el("td", {}, `${placeWord(r.place)}${shared(r.place) ? " (shared)" : ""}`), el("td", {}, who(r.seat), isBot(r.seat) ? el("span", { class: "badge bot" }, "bot") : null), el("td", { class: "num" }, String(r.total))),
            ),
          ),
        )
      : null,
    (view.hands ?? []).length > 1 ? el("details", { class: "end-hands" }, el("summary", {}, "Hand by hand"), scoresTable(view, "end-hands")) : null,
    el("p", {}, "The server has revealed its seed. Check every deal and every score yourself:"),
    el(
      "p",
      { class: "end-actions" },
      el("a", { class: "button gold", href: `/verify?game=${encodeURIComponent(gameId)}`, id: "end-verify" }, "Verify this game"),
      view.status === "over" ? el("a", { class: "button secondary", href: `/replay?game=${encodeURIComponent(gameId)}`, id: "end-replay" }, "Replay the hands") : null,
      el("button", { type: "button", class: "secondary", id: "end-download", onclick: downloadRecord }, "Download record"),
    ),
    el("p", { class: "end-actions" }, ...againControls(view)),
  );
  watchForAgain(view);
  $("end").hidden = false;
  // A redraw replaces the buttons: the focus stays where it was (on Verify the first time).
  const focus = first ? $("end-verify") : focusedId ? $(focusedId) : null;
  focus?.focus();
}

// -- the side panel (a drawer on a phone) ---------------------------------------------

const TABS = ["scores", "fair", "log", "help"];
const OPENERS = ["open-scores", "open-fair", "open-help"];

function showPanel(name) {
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
  fill($("panel-help"), el("p", { class: "hint" }, "Loading…"));
  fill($("panel-help"), await howToPlay(name));
}

for (const tab of TABS) $(`tab-${tab}`).addEventListener("click", () => showPanel(tab));

function openSide(name) {
  showPanel(name);
  document.body.classList.add("side-open");
  for (const id of OPENERS) $(id).setAttribute("aria-expanded", "true");
  $(`tab-${name}`).focus();
}

function closeSide() {
  document.body.classList.remove("side-open");
  for (const id of OPENERS) $(id).setAttribute("aria-expanded", "false");
}

$("open-scores").addEventListener("click", () => openSide("scores"));
$("open-fair").addEventListener("click", () => openSide("fair"));
$("open-help").addEventListener("click", () => openSide("help"));
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

/** The public record as the server keeps it, byte for byte, saved as <game id>.jsonl: it holds no secret, so any time. */
async function downloadRecord() {
  try {
    const response = await fetch(`${api.base}/record`, { cache: "no-store" });
    if (!response.ok) throw new Error(`the server answered ${response.status}`);
    saveFile(new Uint8Array(await response.arrayBuffer()), `${gameId}.jsonl`);
  } catch (error) {
    toast(`The record could not be downloaded: ${error.message}`, { kind: "bad" });
  }
}

$("download-record").addEventListener("click", downloadRecord);

// -- the keyboard -----------------------------------------------------------------------

function handButtons() {
  return [...$("hand").querySelectorAll("button.card")];
}

$("hand").addEventListener("focusin", (event) => {
  const code = event.target?.dataset?.code;
  if (!code) return;
  ui.focused = code;
  ui.focusedCopy = event.target.dataset.copy ?? "0";
  for (const b of handButtons()) b.tabIndex = b === event.target ? 0 : -1;
});

document.addEventListener("keydown", (event) => {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const target = event.target;
  if (target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return;
  const key = event.key;
  if (!$("between").hidden && key.toLowerCase() !== "m") {
    // Between hands no game key applies: Enter (on the page, not on a link or a button) is "Next hand".
    if (key === "Enter" && $("next-hand") && !(target instanceof HTMLButtonElement || target instanceof HTMLAnchorElement)) {
      readyNext();
      event.preventDefault();
    }
    return;
  }
  // The game's own keys first (Enter plays the chosen cards, N declares no play...).
  if (game.hooks?.key?.(event, T)) {
    event.preventDefault();
    return;
  }
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
    tapCard(target.dataset.code, Number(target.dataset.copy ?? 0));
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
  } catch {
    ui.record = [];
  }
  ui.heard = ui.record.length;
}

/** The game's catalogue entry and its renderer module, picked by the entry's `renderer`. */
async function loadGame(name) {
  const entry = entryOf(await catalogue(), name);
  if (!entry) throw new Error(`this server's list of games has no ${name}`);
  game.hooks = (await rendererOf(entry)).default;
  game.entry = entry;
}

async function boot() {
  showSound();
  if (!gameId) {
    fill($("status"), "No game here. ", el("a", { href: "/" }, "Open a table"));
    return;
  }
  try {
    await loadRecord();
    const view = await api.view();
    await loadGame(view.rules);
    // The log's last lines, in the game's words.
    for (const line of ui.record.slice(-12)) {
      const words = describeLine(line);
      if (words) log(words);
    }
    setView(view);
    fetchPublicLog();
  } catch (error) {
    document.body.dataset.phase = "error";
    const why = error instanceof ApiError && error.status === 404 ? "There is no such game on this server." : error instanceof ApiError && (error.status === 401 || error.status === 403) ? "This link's seat key is not valid for this game." : error.message;
    $("game-title").textContent = "Table unavailable";
    fill($("status"), why, " ", el("a", { href: "/" }, "Open a new table"));
    return;
  }
  api.follow(
    (event) => {
      if (event.event === "line") hearLine(JSON.parse(event.data));
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
