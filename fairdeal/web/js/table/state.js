// The live table's state, and its one owner: where the page is (the game, the seat and its
// key, from the URL), what it shows (`ui`: the seat's view, the record, what the hand has
// lifted...), the game at the table (`game`: its catalogue entry and its renderer's hooks), and
// `T`, what the renderer is handed. The other modules of the page (js/table/*.js) read `ui` and
// `game` freely and change them only through the functions below; a renderer keeps its own
// things in `T.ui` (lastTop), and motion.js puts the cards in flight in `ui.leaving`.
//
// This module imports no other module of the page: everything the page does that T offers a
// renderer (send a move, draw, render...) is given to it at start (`pageDoes`, in table.js).

import { GameApi } from "../api.js";
import { lang } from "../i18n.js";
import { holdsStake, unitWord } from "../catalogue.js";
import { rendererKit, seatNumber, sessionWords as sessionSentence, turnWords, youOr, youOrObject } from "../render.js";

// -- where we are -------------------------------------------------------------
//
// The URL is /table/GAME#seat=N&token=JOIN[&host=HOST]. The fragment never leaves the browser,
// so the seat's key is in no server log.

export const gameId = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] ?? "");
const fragment = new URLSearchParams(location.hash.slice(1));
const seat = fragment.has("seat") ? Number(fragment.get("seat")) : null;
export const api = new GameApi(gameId, { seat: Number.isInteger(seat) ? seat : null, token: fragment.get("token"), host: fragment.get("host"), lang });
export const me = api.seat; // null: a spectator

export const $ = (id) => document.getElementById(id);

// -- what the page shows ----------------------------------------------------------

export const ui = {
  view: null, // the latest view (or public state)
  record: [], // the public record, line by line
  lifted: null, // the card lifted in the hand
  picking: false, // the suit tokens are open for the lifted eight
  busy: false, // a move is on its way
  deadlineAt: null, // performance.now() when the turn runs out
  deadlineTotal: null,
  focused: null, // the card code that had the focus in the hand
  focusedCopy: null, // and which copy of it (two packs), "0" when not said
  lastTurn: undefined,
  lastTop: null, // the renderer's (crazy_eights.js: the pile's top last drawn)
  lastHand: [],
  newCards: [], // the cards the last view brought to the hand
  seeding: false, // this browser is sending its seed (commit or reveal)
  endShown: false, // the end's sheet: false, true (shown) or "closed"
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
export const game = { entry: null, hooks: null };

// What the page does for a renderer (T.send, T.draw, T.render, T.toast, T.explainOn, T.tapped),
// given by the modules that do it when the page starts.
const page = {};

/** The page's own actions, for T: `{ send, draw, render, toast, explainOn, tapped }`. */
export function pageDoes(actions) {
  Object.assign(page, actions);
}

// What a renderer (js/games/<module>.js) is handed (render.js): this page's view and seat, and
// the page's own helpers, so the renderer's hooks can act for the seat.
export const T = rendererKit({
  view: () => ui.view,
  entry: () => game.entry,
  hooks: () => game.hooks,
  me,
  ui,
  who: (s) => who(s),
  whom: (s) => youOrObject(seatNameOf(s), s === me),
  seatNameOf: (s) => seatNameOf(s),
  isBot: (s) => isBot(s),
  legal: (kind, card) => legal(kind, card),
  myTurn: () => myTurn(),
  othersTurn: () => othersTurn(),
  holdsStake: () => isChips(),
  stake: (n) => chipWord(n),
  mostOf: (kind, member) => mostOf(kind, member),
  sessionWords: () => sessionWords(),
  explainOn: (node, explain) => page.explainOn(node, explain),
  tapped: (handler) => page.tapped(handler),
  draw: () => page.draw(),
  send: (move, options) => page.send(move, options),
  render: () => page.render(),
  toast: (message, options) => page.toast(message, options),
});

// -- reading it ----------------------------------------------------------------------

export function seatNameOf(s) {
  return ui.view?.seats?.[s]?.name ?? seatNumber(s);
}

/** A seat as a sentence's subject: "You" ("Du") for this page's seat, else its name. */
export function who(s) {
  return youOr(seatNameOf(s), s === me);
}

export function isBot(s) {
  return Boolean(ui.view?.seats?.[s]?.bot);
}

export function legal(kind, card = undefined) {
  return (ui.view?.legal_moves ?? []).some((m) => m.move === kind && (card === undefined || m.card === card));
}

export function cardNote(code) {
  return (ui.view?.cards ?? []).find((c) => c.card === code) ?? null;
}

export function myTurn() {
  // A view this seat has already moved on is not its turn any more, though its answer may still wait in the queue.
  return me !== null && ui.view?.status === "playing" && ui.view.turn === me && ui.view.seq !== ui.spent;
}

/** "Ann's turn", "Bot 2's turn (bot)"; "" when nobody is to act. */
function othersTurn() {
  const view = ui.view;
  // This seat's own turn, once it has moved (its answer still in the queue), is nobody's to announce.
  if (view.turn === null || view.turn === undefined || view.turn === me) return "";
  return turnWords(seatNameOf(view.turn), isBot(view.turn));
}

/** A game whose standings count what players hold (chips, counters), not what they scored. */
export function isChips() {
  return holdsStake(game.entry?.unit);
}

/** "counters" or "chips" (one of them for n = 1): what a game is played for. */
export function chipWord(n = 2) {
  return unitWord(game.entry?.unit === "counters" ? "counters" : "chips", n);
}

/** "Chips", "Counters", "Points", "Deals won": what the game's standings count, as a heading. */
export function unitTitle() {
  const words = unitWord(game.entry?.unit ?? "points");
  return words[0].toUpperCase() + words.slice(1);
}

/** " The game is 3 deals.": how long a session of deals lasts (none for a game played to a target). */
export function sessionWords() {
  return sessionSentence(ui.view);
}

/** The second cards the seat may add to a play of `code` (Spin's A♦, Commit's 9♦): the legal moves say. */
export function thenCards(code) {
  return (ui.view?.legal_moves ?? []).filter((m) => m.move === "play" && m.card === code && m.then).map((m) => m.then);
}

/** Whether playing `code` now needs a suit named with it (an eight): the legal moves say so. */
export function needsSuit(code) {
  return (ui.view?.legal_moves ?? []).some((m) => m.move === "play" && m.card === code && m.suit);
}

/** The largest `member` among the legal moves of `kind` (a bid's amount: the most the table allows). */
export function mostOf(kind, member) {
  return Math.max(0, ...(ui.view?.legal_moves ?? []).filter((m) => m.move === kind).map((m) => m[member]));
}

/**
 * The game's kinds of move as it declares them (the catalogue's `move_forms`: label, key, hint,
 * the log's words, fields): the controls, keys and log words of every move but a card's play are
 * made from these, so a game's own kinds need no code here.
 */
export function moveForms() {
  return game.entry?.move_forms ?? [];
}

export function title() {
  return game.entry?.title ?? ui.view?.rules ?? "";
}

// -- changing it ---------------------------------------------------------------------

/** The game at the table: its catalogue entry and its renderer's hooks. */
export function setGame(entry, hooks) {
  game.hooks = hooks;
  game.entry = entry;
}

/** The record as the page first reads it: every line so far has been heard. */
export function setRecord(lines) {
  ui.record = lines;
  ui.heard = ui.record.length;
}

/** A record line joins the record (true), unless it is not the next one. */
export function addLine(line) {
  if (line.seq !== ui.record.length) return false; // already seen (a reconnect resends nothing older)
  ui.record.push(line);
  return true;
}

/** A line came from the stream (true), unless it was heard before. */
export function hearLine(line) {
  if (line.seq !== ui.heard) return false; // already heard (a reconnect resends nothing older)
  ui.heard += 1;
  return true;
}

/** A view newer than the lines heard waits for them: the newest such is kept. */
export function holdAhead(view) {
  if (!ui.ahead || view.seq >= ui.ahead.seq) ui.ahead = view;
}

/** The view that waited, taken (null if none). */
export function takeAhead() {
  const view = ui.ahead;
  ui.ahead = null;
  return view;
}

/**
 * A view becomes the one shown (false: it is older than the one shown, and is not). Sets the
 * turn's deadline, the next hand's countdown, what the hand keeps lifted; `turnBegins` is true
 * the first time this view makes it the seat's turn in this hand.
 */
export function takeView(view) {
  if (ui.view && view.seq < ui.view.seq) return false; // an older answer overtaken by the live stream
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
  return true;
}

/** After a view is taken: whose turn it is now (true: the seat's, new in this hand), and the hand's new cards. */
export function noteTurnAndHand(view) {
  const hand = view.hand ?? [];
  const begins = myTurn() && ui.lastTurn !== `${view.hand_no}/${me}`;
  ui.lastTurn = myTurn() ? `${view.hand_no}/${me}` : null;
  ui.newCards = hand.filter((c) => !ui.lastHand.includes(c) && ui.lastHand.length);
  ui.lastHand = hand;
  return begins;
}

/** The cards in flight lie in the view now. */
export function landed() {
  ui.leaving.length = 0;
}

/** Lift a card of the hand (the suit tokens closed). */
export function lift(code) {
  ui.lifted = code;
  ui.picking = false;
}

/** Lift a card that needs a suit named, and open the suit tokens for it. */
export function liftToName(code) {
  ui.lifted = code;
  ui.picking = true;
}

/** Close the suit tokens (a suit was named). */
export function closePicker() {
  ui.picking = false;
}

/** Put the lifted card back (none lifted, the tokens closed). */
export function putBack() {
  ui.lifted = null;
  ui.picking = false;
}

/** A move is on its way (true) or back (false). */
export function setBusy(busy) {
  ui.busy = busy;
}

/** A move made at view `at` went through: nothing is lifted, and that view is spent. */
export function moved(at) {
  putBack();
  ui.spent = at; // the view moved on (the stream may have brought the next one already)
}

/** The card of the hand that has the focus (the Tab stop when the hand is drawn again). */
export function focusCard(code, copy) {
  ui.focused = code;
  ui.focusedCopy = copy;
}

/** This browser is sending its seed (true), or done. */
export function setSeeding(sending) {
  ui.seeding = sending;
}

/** What this page checked of the game in the public log. */
export function setPublicLog(state) {
  ui.publicLog = state;
}

/** The game's log was asked again for its end entry. */
export function askedLogEnd() {
  ui.logEndAsked = true;
}

/** The hand whose end the between-hands sheet shows (null: none). */
export function setBetweenShown(hand) {
  ui.betweenShown = hand;
}

/** The end's sheet: true once shown, "closed" once the seat closed it. */
export function setEndShown(shown) {
  ui.endShown = shown;
}

/** After the end, look every 5 s (`look`) for the table the host played again; `look` null: stop looking. */
export function pollAgain(look) {
  if (!look) {
    clearInterval(ui.againPoll);
    ui.againPoll = null;
    return;
  }
  ui.againPoll ??= setInterval(look, 5000);
}
