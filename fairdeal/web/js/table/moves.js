// The seat's moves: what a tap, a button or a key sends to the server (one at a time), and the
// hand's lifting and putting back. The page never decides what is legal: the view's legal moves
// say which controls there are, and a refusal is said in the engine's words.

import { ApiError } from "../api.js";
import { t } from "../i18n.js";
import { sounds } from "../sound.js";
import { setView } from "./live.js";
import { toast } from "./messages.js";
import { hideTip } from "./tips.js";
import { render } from "./view.js";
import { $, api, cardNote, chipWord, closePicker, game, isChips, legal, lift, liftToName, moved, mostOf, needsSuit, putBack, setBusy, T, ui } from "./state.js";

/**
 * Post `move`; true when it went through. `refused(detail)`, if given, says the rules' refusal
 * (a 400 or 422) where the move was made (a rule box) instead of in a toast.
 */
export async function send(move, { refused = null } = {}) {
  if (ui.busy || !ui.view) return false;
  let done = false;
  setBusy(true);
  document.body.dataset.busy = "true";
  hideTip();
  try {
    const at = ui.view.seq;
    const answer = await api.move(at, move);
    moved(at);
    done = true;
    setView(answer.view);
  } catch (error) {
    if (refused && error instanceof ApiError && (error.status === 400 || error.status === 422)) {
      refused(String(error.detail));
    } else if (error instanceof ApiError && error.status === 409) {
      toast(t("table.moved_on"));
    } else if (error instanceof ApiError && error.status === 422) {
      toast(String(error.detail), { kind: "bad" });
    } else {
      toast(t("table.move_failed", { reason: error.message }), { kind: "bad" });
    }
    try {
      setView(await api.view());
    } catch {
      /* the live stream will bring it */
    }
  } finally {
    setBusy(false);
    delete document.body.dataset.busy;
    render();
  }
  return done;
}

export function play(code, suit = null) {
  if (!suit && needsSuit(code)) {
    liftToName(code);
    render();
    $("suit-picker").querySelector("button")?.focus();
    return;
  }
  sounds.play();
  send(suit ? { move: "play", card: code, suit } : { move: "play", card: code });
}

export function draw() {
  if (!legal("draw")) {
    const why = game.hooks?.stockText?.(T);
    if (why) toast(why);
    return;
  }
  sounds.draw();
  send({ move: "draw" });
}

export function keep() {
  if (legal("keep")) send({ move: "keep" });
}

/** The id of the box a form's field is typed in: `bid-amount`. */
export function fieldBox(form, field) {
  return `${form.kind}-${field.name}`;
}

/**
 * Make a move of a declared kind (the catalogue's `move_forms`) from its control: a kind without
 * fields at once; a count from its box, which must be one of the legal moves' (the page never
 * decides what is legal, but says what the box takes); a choice with the word chosen.
 */
export function act(form, chosen = {}) {
  if (form.kind === "draw") return draw();
  if (!legal(form.kind)) return;
  const move = { move: form.kind, ...chosen };
  for (const field of form.fields) {
    if (field.name in move || field.optional) continue;
    const box = $(fieldBox(form, field));
    move[field.name] = field.type === "count" ? Number(box?.value) : box?.value;
    const offered = (ui.view.legal_moves ?? []).filter((m) => m.move === form.kind);
    if (field.type === "count" && !offered.some((m) => m[field.name] === move[field.name])) {
      const range = { label: form.label, least: Math.min(...offered.map((m) => m[field.name])), most: mostOf(form.kind, field.name), unit: chipWord(2) };
      toast(t(isChips() ? "table.whole_number_unit" : "table.whole_number", range), { kind: "bad" });
      box?.focus();
      return;
    }
  }
  send(move);
}

/** Play `code` and then `then` with it (Spin's A♦, Commit's 9♦), one move. */
export function playThen(code, then) {
  sounds.play();
  send({ move: "play", card: code, then });
}

export function pass() {
  if (legal("pass")) send({ move: "pass" });
}

export function tapCard(code, copy = 0) {
  const note = cardNote(code);
  hideTip();
  // A game that chooses several cards in order (a string) takes the tap itself.
  if (game.hooks?.tapCard?.(code, copy, T)) return;
  if (!note?.playable) {
    toast(note?.why_not ?? t("table.cannot_play"));
    const node = $("hand").querySelector(`[data-code="${code}"]`);
    node?.classList.remove("shake");
    void node?.offsetWidth;
    node?.classList.add("shake");
    return;
  }
  if (ui.lifted === code) {
    play(code);
  } else {
    lift(code);
    render();
  }
}

export function nameSuit(letter) {
  if (!ui.picking || !ui.lifted) return;
  const card = ui.lifted;
  closePicker();
  play(card, letter);
}

/** Put the lifted card back in the hand. */
export function lower() {
  putBack();
  render();
}
