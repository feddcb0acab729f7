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

import { catalogue, entryOf, holdsStake, rendererOf, unitWord } from "./catalogue.js";
import { rendererKit } from "./render.js";
import { handedRecord } from "./replay-link.js";
import { cardFace, el, fill } from "./ui.js";

const $ = (id) => document.getElementById(id);

const ui = { data: null, entry: null, hooks: null, hand: 0, move: 0, view: null, lastTop: null };

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
      for (const pending of waiting.values()) pending.reject(new Error(event.message || "the engine did not start"));
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
  say("Checking the record and dealing every hand again, in your browser…");
  let data;
  try {
    data = await engine("replay", [text]);
  } catch (error) {
    document.body.dataset.ready = "refused";
    say(`This record cannot be replayed: ${reason(error)}`, "bad");
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
  if (!data.hands.length) {
    say("The record verifies, but no hand was dealt: there is nothing to replay.");
    return;
  }
  fill(
    $("hand-select"),
    data.hands.map((hand, i) => el("option", { value: String(i) }, `${hand.hand} of ${data.hands.length}`)),
  );
  say(`VERIFIED. ${ui.entry.title ?? data.rules}: ${data.hands.length} hand${data.hands.length === 1 ? "" : "s"}, ${data.moves} moves.`, "good");
  $("load").hidden = true;
  $("replayer").hidden = false;
  document.body.dataset.ready = "true";
  document.body.dataset.hands = String(data.hands.length);
  fromFragment();
}

async function fromServer(gameId) {
  say("Loading the game's record from this server…");
  const response = await fetch(`/games/${encodeURIComponent(gameId)}/record`, { headers: { Accept: "application/x-ndjson" } });
  if (!response.ok) {
    document.body.dataset.ready = "refused";
    say(response.status === 404 ? "There is no such game on this server." : `The record did not load (HTTP ${response.status}).`, "bad");
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

function render() {
  const data = ui.data;
  const hand = data.hands[ui.hand];
  const step = hand.steps[ui.move];
  ui.view = viewOf(step);
  const last = hand.steps.length - 1;
  document.body.dataset.hand = String(hand.hand);
  document.body.dataset.move = String(ui.move);
  document.body.dataset.line = String(step.line);
  $("replay-title").textContent = `${ui.entry.title ?? data.rules} · hand ${hand.hand} of ${data.hands.length}`;
  document.title = `Hand ${hand.hand}, ${ui.move ? `move ${ui.move}` : "the deal"} · replay · fairdeal`;

  const slider = $("move-slider");
  slider.max = String(last);
  slider.value = String(ui.move);
  slider.setAttribute("aria-valuetext", ui.move ? `move ${ui.move} of ${last}` : `the deal (${last} moves)`);
  $("hand-select").value = String(ui.hand);
  $("prev-move").disabled = ui.hand === 0 && ui.move === 0;
  $("next-move").disabled = ui.hand === data.hands.length - 1 && ui.move === last;
  $("prev-hand").disabled = ui.hand === 0;
  $("next-hand").disabled = ui.hand === data.hands.length - 1;

  // The move just made, in the engine's words, and the rule that allowed it.
  const where = ui.move ? `Move ${ui.move} of ${last} · record line ${step.line}` : `The deal · ${last} moves follow`;
  $("where").textContent = where;
  const words = step.kind === "deal" ? step.words.split("\n")[0] : step.words.split(" | ")[0];
  fill($("move-words"), el("span", { title: step.words }, words));
  fill($("move-why"), step.why ? [el("b", {}, "Allowed: "), step.why] : []);
  fill($("move-events"), step.events.map((text) => el("li", {}, text)));

  // The table as the game's renderer draws it, from the engine's view.
  const used = ui.hooks.drawTable(T);
  for (const id of ["stock-pile", "rows", "board"]) $(id).hidden = id !== used;
  $("turn-now").textContent = step.turn === null ? (hand.result ? `Hand ${hand.hand} is over.` : "") : `${T.othersTurn()}.`;

  // Every seat's cards, face up.
  fill(
    $("seats"),
    data.seats.map((seat, s) => {
      const turn = step.turn === s;
      const dealer = hand.dealer === s;
      return el(
        "li",
        { class: `replay-seat${turn ? " turn" : ""}${step.kind === "move" && step.seat === s ? " moved" : ""}`, "data-seat": s, "aria-current": turn ? "true" : null },
        el(
          "p",
          { class: "seat-head" },
          el("b", {}, seat.name),
          seat.bot ? el("span", { class: "badge bot" }, "bot") : null,
          dealer ? el("span", { class: "dealer-chip", title: "dealer" }, "D") : null,
          el("span", { class: "seat-facts" }, `${step.hands[s].length} card${step.hands[s].length === 1 ? "" : "s"} · ${holding(s, step)}`),
          turn ? el("span", { class: "your-turn" }, "to play") : null,
        ),
        el("span", { class: "cards replay-hand", "aria-label": `${seat.name}'s cards` }, step.hands[s].map((code) => cardFace(code))),
      );
    }),
  );
  fill(
    $("places"),
    step.places.map((place) =>
      el("li", { "data-place": place.place }, el("span", { class: "hint" }, `${place.place[0].toUpperCase()}${place.place.slice(1)}: ${place.cards.length}`), el("span", { class: "cards small" }, place.cards.map((code) => cardFace(code)))),
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
    else say("No record was handed over in this tab: choose or paste one.");
  }
}

boot();
