// The seat's moves: what a tap, a button or a key sends to the server (one at a time), and the
// hand's lifting and putting back. The page never decides what is legal: the view's legal moves
// say which controls there are, and a refusal is said in the engine's words.

import { ApiError } from "../api.js";
import { sounds } from "../sound.js";
import { setView } from "./live.js";
import { toast } from "./messages.js";
import { hideTip } from "./tips.js";
import { render } from "./view.js";
import { $, api, cardNote, chipWord, closePicker, game, legal, lift, liftToName, maxBid, moved, needsSuit, putBack, setBusy, T, ui } from "./state.js";

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

export function exchange() {
  if (legal("exchange")) send({ move: "exchange" });
}

export function auction() {
  if (legal("auction")) send({ move: "auction" });
}

/** A bid for the extra hand: the amount in the bid box, if the rules take it. */
export function bid() {
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
