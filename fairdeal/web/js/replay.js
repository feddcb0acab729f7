// The hand replayer: every hand of a finished game, move by move, every seat's cards face up.
//
// The record comes from a file, pasted text, this server (?game=ID: a finished game's record is
// public), or another page of this tab (?record=handed: the verify page, replay-link.js). The
// verify page's engine (verify-worker.js: fairdeal's own Python verifier in Pyodide) checks it and
// computes every step (verifier.replayer.hand_steps, spec/replay.md); this page only draws them,
// with the table page's renderer of the game (js/games/<module>.js, through render.js) fed the
// views the engine computed. The page names no game.
//
// Keys: ← → a move, ↑ ↓ / Page Up, Page Down a hand, Home and End. The URL fragment names the
// step shown, #hand=3&move=42 (move 0 is the deal), and follows as you step.
//
// Its words are the reader's language's (i18n.js: keys "replay.*", the sentences words.js's). What
// the engine says of a step (the rule that allowed it, where the other cards lie, why a record is
// refused) it says in the page's language too: the replay call takes `lang`, and its answer's `words`
// hold those sentences translated (spec/replay.md). A step's `words`, the line `fairdeal-verify
// --moves` prints, exists in English only: an English page shows it on pointing at the move.

import { catalogue, entryOf, holdsStake, rendererOf, unitWord } from "./catalogue.js";
import { lang, t, translatePage, withNodes } from "./i18n.js";
import { rendererKit } from "./render.js";
import { handedRecord } from "./replay-link.js";
import { display } from "./cards.js";
import { cardFace, el, fill } from "./ui.js";
import { lineWords, moveSentence as sentence, moveWords } from "./words.js";

const $ = (id) => document.getElementById(id);

const ui = { data: null, lines: [], entry: null, hooks: null, hand: 0, move: 0, view: null, lastTop: null };

const T = rendererKit({ view: () => ui.view, entry: () => ui.entry, hooks: () => ui.hooks, me: null, ui });

// -- the engine ----------------------------------------------------------------------

let worker = null;
let nextId = 1;
const waiting = new Map();

function engine(call, args) {
  if (worker === null) {
    worker = new Worker(new URL("./verify-worker.js", import.meta.url), { type: "module" });
    worker.onmessage = ({ data }) => {
      const pending = waiting.get(data.id);
      if (!pending) return;
      waiting.delete(data.id);
      if (Object.hasOwn(data, "error")) pending.reject(new Error(data.error));
      else pending.resolve(data.result);
    };
    worker.onerror = (event) => {
      for (const pending of waiting.values()) pending.reject(new Error(event.message || t("replay.engine_not_started")));
      waiting.clear();
    };
  }
  const id = nextId++;
  return new Promise((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    worker.postMessage({ id, call, args });
  });
}

/** The reason in a Python error's text: its last line, without the exception's module path. */
function reason(error) {
  const lines = String(error?.message ?? error).trim().split("\n");
  return lines.at(-1).replace(/^([\w.]+\.)?(ReplayError|RecordError|ValueError): /, "");
}

// -- loading -----------------------------------------------------------------------------

function say(text, kind = "") {
  const box = $("replay-status");
  box.textContent = text;
  box.className = kind;
}

async function replay(text) {
  document.body.dataset.ready = "false";
  $("replayer").hidden = true;
  say(t("replay.checking"));
  let data;
  try {
    data = await engine("replay", [text, lang]);
  } catch (error) {
    document.body.dataset.ready = "refused";
    say(t("replay.refused", { reason: reason(error) }), "bad");
    return;
  }
  let entry = null;
  try {
    entry = entryOf(await catalogue(), data.rules);
  } catch {
    /* a copy of the page without this server: the replay names the game's renderer itself */
  }
  ui.entry = entry ?? { name: data.rules, title: data.title, module: data.module, renderer: data.renderer, unit: data.unit };
  ui.hooks = (await rendererOf(ui.entry)).default;
  ui.data = data;
  ui.lines = text.split("\n").filter((raw) => raw.trim()).map((raw) => JSON.parse(raw)); // it verified: JSON lines
  if (!data.hands.length) {
    say(t("replay.no_hands"));
    return;
  }
  fill(
    $("hand-select"),
    data.hands.map((hand, i) => el("option", { value: String(i) }, t("replay.hand_of", { hand: hand.hand, total: data.hands.length }))),
  );
  say(t("replay.verified", { title: ui.entry.title ?? data.rules, count: data.hands.length, moves: data.moves }), "good");
  $("load").hidden = true;
  $("replayer").hidden = false;
  document.body.dataset.ready = "true";
  document.body.dataset.hands = String(data.hands.length);
  fromFragment();
}

async function fromServer(gameId) {
  say(t("replay.loading"));
  const response = await fetch(`/games/${encodeURIComponent(gameId)}/record`, { headers: { Accept: "application/x-ndjson" } });
  if (!response.ok) {
    document.body.dataset.ready = "refused";
    say(response.status === 404 ? t("table.no_such_game") : t("replay.not_loaded", { status: response.status }), "bad");
    return;
  }
  await replay(await response.text());
}

// -- stepping ----------------------------------------------------------------------------

function clamp(n, low, high) {
  return Math.max(low, Math.min(high, n));
}

/** Show step `move` of hand index `hand` (both clamped), and name it in the address. */
function go(hand, move) {
  const hands = ui.data?.hands;
  if (!hands?.length) return;
  ui.hand = clamp(hand, 0, hands.length - 1);
  ui.move = clamp(move, 0, hands[ui.hand].steps.length - 1);
  history.replaceState(null, "", `#hand=${hands[ui.hand].hand}&move=${ui.move}`);
  render();
}

function fromFragment() {
  const fragment = new URLSearchParams(location.hash.slice(1));
  const number = Number(fragment.get("hand") ?? 1);
  const index = ui.data.hands.findIndex((h) => h.hand === number);
  go(index < 0 ? 0 : index, Number(fragment.get("move") ?? 0) || 0);
}

function stepHand(by) {
  go(ui.hand + by, 0);
}

function stepMove(by) {
  const steps = ui.data.hands[ui.hand].steps;
  const move = ui.move + by;
  // Past a hand's last step is the next hand's deal; before its deal, the last hand's end.
  if (move >= steps.length && ui.hand + 1 < ui.data.hands.length) go(ui.hand + 1, 0);
  else if (move < 0 && ui.hand > 0) go(ui.hand - 1, ui.data.hands[ui.hand - 1].steps.length - 1);
  else go(ui.hand, move);
}

// -- drawing -------------------------------------------------------------------------------

/** The view a renderer is fed: the engine's spectator view of the step, in the service's shape. */
function viewOf(step) {
  const data = ui.data;
  return {
    rules: data.rules,
    options: data.options,
    status: "playing",
    seats: data.seats,
    turn: step.turn,
    table: step.table,
    hand_no: data.hands[ui.hand].hand,
    totals: step.totals,
    legal_moves: [],
  };
}

function holding(s, step) {
  const total = step.totals[s] ?? 0;
  const unit = ui.entry.unit ?? "points";
  if (holdsStake(unit)) {
    const now = total + (step.table.net?.[s] ?? 0);
    return `${now} ${unitWord(unit, now)}`;
  }
  return `${total} ${unitWord(unit, total)}`;
}

/** Cards in `after` that are not in `before` (codes; a game of two packs holds a card twice). */
function gained(before, after) {
  const left = [...before];
  return after.filter((code) => {
    const at = left.indexOf(code);
    if (at < 0) return true;
    left.splice(at, 1);
    return false;
  });
}

/** A move's line as the log says it, with the cards it took named: "Ann drew 3♦.", "Bob picked up the trick, and took 9♣ 4♣." */
function moveSentence(line, before, step) {
  const taken = gained(before.hands[step.seat], step.hands[step.seat]).map(display);
  let words = moveWords(line, T);
  // A move that draws "a card" ("et kort") names it, or says none was left (a blocked hand's last draw).
  const aCard = t("replay.a_card");
  if (words.includes(aCard) && taken.length < 2) words = taken.length ? words.replace(aCard, taken[0]) : t("replay.none_left");
  else if (taken.length) words = t("replay.and_took", { move: words, cards: taken.join(" ") });
  return sentence(line, T, words);
}

/**
 * The record's lines step `index` of `hand` shows, in the table's words (words.js): a move's line
 * and what followed it before the next move (a restock, chips, the hand's end), or the hand's
 * deal and what came with it. Every card is face up here, so a move that took cards says which.
 */
function sentences(hand, index) {
  const step = hand.steps[index];
  const lines = ui.lines;
  const at = step.kind === "deal" ? lines.findIndex((l) => l.type === "deal" && l.hand === hand.hand) : step.line - 1;
  const out = [];
  for (let i = Math.max(at, 0); at >= 0 && i < lines.length; i++) {
    if (i > at && (lines[i].type === "move" || lines[i].type === "deal")) break;
    const text = i === at && step.kind === "move" ? moveSentence(lines[i], hand.steps[index - 1], step) : lineWords(lines[i], T);
    if (text) out.push(text);
  }
  return out.length ? out : [step.words.split("\n")[0]];
}

// The places every game with a stock and a pile names alike (the rules' card_places), in the page's
// words; a game's own places are the rules' words, in the page's language (the replay's `words`).
const PLACES = { "in the stock": "replay.in_stock", "on the pile": "replay.on_pile", "on the table": "replay.on_table" };

/** "In the stock" ("I trekkbunken"): where cards lie, as a line of the list says it (a game's own place, as the engine words it in the page's language). */
function placeWords(place) {
  const words = Object.hasOwn(PLACES, place) ? t(PLACES[place]) : (ui.data.words?.places?.[place] ?? place);
  return `${words[0].toUpperCase()}${words.slice(1)}`;
}

function render() {
  const data = ui.data;
  const hand = data.hands[ui.hand];
  const step = hand.steps[ui.move];
  ui.view = viewOf(step);
  const last = hand.steps.length - 1;
  document.body.dataset.hand = String(hand.hand);
  document.body.dataset.move = String(ui.move);
  document.body.dataset.line = String(step.line);
  $("replay-title").textContent = t("replay.title_hand", { title: ui.entry.title ?? data.rules, hand: hand.hand, total: data.hands.length });
  document.title = ui.move ? t("replay.doc_title_move", { hand: hand.hand, move: ui.move }) : t("replay.doc_title_deal", { hand: hand.hand });

  const slider = $("move-slider");
  slider.max = String(last);
  slider.value = String(ui.move);
  slider.setAttribute("aria-valuetext", ui.move ? t("replay.slider_move", { move: ui.move, last }) : t("replay.slider_deal", { last }));
  $("hand-select").value = String(ui.hand);
  $("prev-move").disabled = ui.hand === 0 && ui.move === 0;
  $("next-move").disabled = ui.hand === data.hands.length - 1 && ui.move === last;
  $("prev-hand").disabled = ui.hand === 0;
  $("next-hand").disabled = ui.hand === data.hands.length - 1;

  // The move just made and what followed it, as the table's log says them (on an English page,
  // the verifier's own words on pointing), and the rule that allowed it, in the page's language.
  const where = ui.move ? t("replay.where_move", { move: ui.move, last, line: step.line }) : t("replay.where_deal", { last });
  $("where").textContent = where;
  const [said, ...after] = sentences(hand, ui.move);
  fill($("move-words"), el("span", { title: lang === "en" ? step.words : null }, said));
  const why = data.words?.hands[ui.hand]?.why[ui.move] ?? step.why;
  fill($("move-why"), why ? [el("b", {}, t("replay.allowed")), " ", why] : []);
  fill($("move-events"), after.map((text) => el("li", {}, text)));

  // The table as the game's renderer draws it, from the engine's view.
  const used = ui.hooks.drawTable(T);
  for (const id of ["stock-pile", "rows", "board"]) $(id).hidden = id !== used;
  $("turn-now").textContent = step.turn === null ? (hand.result ? t("replay.hand_over", { hand: hand.hand }) : "") : `${T.othersTurn()}.`;

  // Every seat's cards, face up; the dealer's chip where the game puts it (none when the server deals).
  const dealerSeat = ui.hooks.dealerSeat ? ui.hooks.dealerSeat(T) : hand.dealer;
  fill(
    $("seats"),
    data.seats.map((seat, s) => {
      const turn = step.turn === s;
      const dealer = dealerSeat === s;
      return el(
        "li",
        { class: `replay-seat${turn ? " turn" : ""}${step.kind === "move" && step.seat === s ? " moved" : ""}`, "data-seat": s, "aria-current": turn ? "true" : null },
        el(
          "p",
          { class: "seat-head" },
          el("b", {}, seat.name),
          seat.bot ? el("span", { class: "badge bot" }, t("table.bot")) : null,
          dealer ? el("span", { class: "dealer-chip", title: t("table.dealer") }, t("table.dealer_chip")) : null,
          el("span", { class: "seat-facts" }, t("replay.seat_facts", { count: step.hands[s].length, holding: holding(s, step) })),
          turn ? el("span", { class: "your-turn" }, t("replay.to_play")) : null,
        ),
        el("span", { class: "cards replay-hand", "aria-label": t("replay.cards_of", { name: seat.name }) }, step.hands[s].map((code) => cardFace(code))),
      );
    }),
  );
  fill(
    $("places"),
    step.places.map((place) =>
      el("li", { "data-place": place.place }, el("span", { class: "hint" }, `${placeWords(place.place)}: ${place.cards.length}`), el("span", { class: "cards small" }, place.cards.map((code) => cardFace(code)))),
    ),
  );
}

// -- controls ------------------------------------------------------------------------------

function onKey(event) {
  if (!ui.data || $("replayer").hidden) return;
  const target = event.target;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return;
  if (target instanceof HTMLInputElement && target.id !== "move-slider") return;
  const keys = {
    ArrowRight: () => stepMove(1),
    ArrowLeft: () => stepMove(-1),
    ArrowDown: () => stepHand(1),
    PageDown: () => stepHand(1),
    ArrowUp: () => stepHand(-1),
    PageUp: () => stepHand(-1),
    Home: () => go(ui.hand, 0),
    End: () => go(ui.hand, Infinity),
  };
  const action = keys[event.key];
  if (!action || event.altKey || event.ctrlKey || event.metaKey) return;
  event.preventDefault(); // the slider's own arrow keys would step twice
  action();
}

async function readFile(file) {
  if (file) await replay(await file.text());
}

function boot() {
  translatePage();
  fill($("replay-intro"), withNodes("replay.intro", { command: el("code", {}, "fairdeal-verify") }));
  fill($("drop-hint"), withNodes("replay.drop_hint", { file: el("code", {}, ".jsonl") }));
  $("file").addEventListener("change", (event) => readFile(event.target.files?.[0]));
  const drop = $("drop");
  drop.addEventListener("dragover", (event) => event.preventDefault());
  drop.addEventListener("drop", (event) => {
    event.preventDefault();
    readFile(event.dataTransfer?.files?.[0]);
  });
  $("paste-go").addEventListener("click", () => replay($("paste").value));
  $("move-slider").addEventListener("input", (event) => go(ui.hand, Number(event.target.value)));
  $("hand-select").addEventListener("change", (event) => go(Number(event.target.value), 0));
  $("prev-move").addEventListener("click", () => stepMove(-1));
  $("next-move").addEventListener("click", () => stepMove(1));
  $("prev-hand").addEventListener("click", () => stepHand(-1));
  $("next-hand").addEventListener("click", () => stepHand(1));
  document.addEventListener("keydown", onKey);
  window.addEventListener("hashchange", () => ui.data && fromFragment());

  const query = new URLSearchParams(location.search);
  if (query.get("game")) {
    fromServer(query.get("game"));
  } else if (query.get("record") === "handed") {
    const text = handedRecord();
    if (text) replay(text);
    else say(t("replay.none_handed"));
  } else if ($("file").files?.length) {
    // Chosen while the page was still loading its words: its change fired before this listened.
    readFile($("file").files[0]);
  }
}

boot();
