// Cards that move across the table, and the queue that keeps the page's updates in order.
//
// A flight is a ghost: a copy of a card (its face or its back) laid out fixed at the place
// it goes to and animated there from where it comes from (the Web Animations API, between two
// boxes), so the real table under it is never moved or re-laid. Each flight is a promise that
// settles when the ghost lands. A ghost that lands on a pile may stay there (`keep`) until the
// page draws the view that holds the card, so the table never shows less than the record says,
// and never more.
//
// The page's live updates (record lines and views) go through one UpdateQueue: a line may start
// flights from the page as it stands (tableMotion: which cards a line moves, from where to
// where), and whatever arrives meanwhile waits its turn, in order.
//
// Nothing moves for a person who asks for reduced motion, nor in a hidden tab (nobody would see
// it, and a tab coming back would have a backlog to play): the updates still keep their order.

import { isRed, SUIT_SYMBOLS } from "./cards.js";
import { SUITS } from "./protocol.js";
import { cardBack, cardFace, el } from "./ui.js";

const reduced = matchMedia("(prefers-reduced-motion: reduce)");

/** A flight's length in milliseconds; a deal's cards leave DEAL_STAGGER_MS apart. */
export const FLIGHT_MS = 300;
export const DEAL_STAGGER_MS = 45;

/** Whether cards may move now: motion not reduced and the page in sight. */
export function motionOn() {
  return !reduced.matches && !document.hidden;
}

const running = new Set(); // the Animation objects in the air
const landed = new Set(); // ghosts kept where they landed, until the page draws the view

// A tab sent to the background finishes its flights at once (its animations would stall).
document.addEventListener("visibilitychange", () => {
  if (document.hidden) for (const animation of [...running]) animation.finish();
});

function layer() {
  let node = document.getElementById("flights");
  if (!node) {
    node = el("div", { class: "flights", id: "flights", "aria-hidden": "true" });
    document.body.append(node);
  }
  return node;
}

/** Whether `node` is on the page and laid out (a hidden part of the table is not). */
function shown(node) {
  if (!node?.isConnected) return false;
  const box = node.getBoundingClientRect();
  return box.width > 0 && box.height > 0;
}

/**
 * The card-shaped box a flight starts or ends at on `node`: the node itself if it is a card,
 * else its last card (a pile's top, a fan's last back, a hand's last card), else a card of
 * `width` px centred on the node. Null when the node is not shown.
 */
export function cardBox(node, { width = 64 } = {}) {
  if (!shown(node)) return null;
  const card = node.matches(".card") ? node : [...node.querySelectorAll(".card")].filter(shown).at(-1);
  if (card) return card.getBoundingClientRect();
  const box = node.getBoundingClientRect();
  const w = Math.min(width, box.width, box.height / 1.4);
  return new DOMRect(box.left + box.width / 2 - w / 2, box.top + box.height / 2 - (w * 1.4) / 2, w, w * 1.4);
}

/**
 * Fly `ghost` (a card face or back, made for the flight) from the box `from` to the box `to`
 * (DOMRects). Resolves when it lands; `keep` leaves it lying there until clearLanded(), at
 * `anchor()` (the box it lies on now) if the table moved meanwhile.
 */
export function fly(ghost, from, to, { delay = 0, ms = FLIGHT_MS, keep = false, anchor = null, turn = 0 } = {}) {
  if (!from || !to || !motionOn() || typeof ghost.animate !== "function") return Promise.resolve();
  ghost.classList.add("flying-card");
  ghost.removeAttribute("id");
  const place = (box) => Object.assign(ghost.style, { left: `${box.left}px`, top: `${box.top}px`, width: `${box.width}px`, height: `${box.height}px` });
  place(to);
  ghost.style.setProperty("--w", `${to.width}px`);
  layer().append(ghost);
  const dx = from.left + from.width / 2 - (to.left + to.width / 2);
  const dy = from.top + from.height / 2 - (to.top + to.height / 2);
  const scale = from.width / to.width || 1;
  const animation = ghost.animate(
    [
      { transform: `translate(${dx}px, ${dy}px) scale(${scale}) rotate(${turn}deg)`, opacity: delay ? 0 : 1, offset: 0 },
      { opacity: 1, offset: 0.05 },
      { transform: "none", opacity: 1, offset: 1 },
    ],
    { duration: ms, delay, easing: "cubic-bezier(.25,.7,.35,1)", fill: "backwards" },
  );
  running.add(animation);
  // A flight never holds the page up for long, even if the browser stops painting.
  const settled = Promise.race([animation.finished.catch(() => {}), new Promise((resolve) => setTimeout(resolve, delay + ms + 400))]);
  return settled.then(() => {
    running.delete(animation);
    if (!keep) return ghost.remove();
    landed.add(ghost);
    // The page may have moved the table under the flight (a row of buttons came or went).
    const now = anchor?.();
    if (now && (Math.abs(now.left - to.left) > 1 || Math.abs(now.top - to.top) > 1)) place(new DOMRect(now.left, now.top, to.width, to.height));
  });
}

/** Remove every ghost left lying where it landed: the page has drawn the view that holds its card. */
export function clearLanded() {
  for (const ghost of landed) ghost.remove();
  landed.clear();
}

/**
 * Drop a suit `token` (an element as the table's pile draws its named suit) onto `node`, where
 * the pile's own style puts it, over the cards in flight; it lies there until clearLanded().
 */
export function dropToken(token, node) {
  if (!shown(node) || !motionOn()) return Promise.resolve();
  // Measured where the pile would place it, then laid over the ghosts that landed on the pile.
  node.append(token);
  const box = token.getBoundingClientRect();
  token.remove();
  token.classList.add("flying-token");
  Object.assign(token.style, { position: "fixed", left: `${box.left}px`, top: `${box.top}px`, right: "auto", bottom: "auto", width: `${box.width}px`, height: `${box.height}px` });
  layer().append(token);
  landed.add(token);
  const animation = token.animate(
    [
      { transform: "translateY(-34px) scale(1.8)", opacity: 0 },
      { transform: "none", opacity: 1 },
    ],
    { duration: FLIGHT_MS, easing: "cubic-bezier(.3,1.4,.5,1)" },
  );
  running.add(animation);
  return Promise.race([animation.finished.catch(() => {}), new Promise((resolve) => setTimeout(resolve, FLIGHT_MS + 400))]).then(() => running.delete(animation));
}

// -- the table page's cards, moving for a record line ---------------------------------------

/**
 * A card of the hand is about to leave it (hidden while it flies): if it has the keyboard's focus,
 * the card beside it takes it (the next, else the one before), so the keyboard stays in the hand
 * instead of falling to the page.
 */
function keepFocusIn(card) {
  if (document.activeElement !== card) return;
  const stays = (node) => node?.matches?.(".card:not(.in-flight)");
  let next = card.nextElementSibling;
  while (next && !stays(next)) next = next.nextElementSibling;
  let before = card.previousElementSibling;
  while (!next && before && !stays(before)) before = before.previousElementSibling;
  (next ?? before)?.focus({ preventScroll: true });
}

/**
 * What a record line moves on the table page, from the page as it stands: a deal's backs from the
 * stock to every seat, a draw's back from the stock to the seat, a played card from the seat (this
 * seat's own from its hand) to where it lands, and a named suit's token onto it. `me` is the page's
 * seat (null: a spectator), `hooks()` the game's renderer hooks and `T` what they are handed
 * (render.js: `landing(line, T)`, `playedCards(line, T)`), `leaving` the page's list of the cards
 * in flight from its hand (its hand keeps their places empty until the view without them).
 * Returns moveCards(line, ms): a promise that settles when they have landed.
 */
export function tableMotion({ me, hooks, T, leaving }) {
  const $ = (id) => document.getElementById(id);

  /** Where a seat's cards are on the page: this seat's hand, or the other seat's fan of backs. */
  function seatNode(s) {
    if (s === me) return $("hand");
    const seat = $("opponents").querySelector(`li[data-seat="${s}"]`);
    return seat?.querySelector(".fan .card") ? seat.querySelector(".fan") : seat;
  }

  /** Where cards are drawn from: the stock, else the middle of the table. */
  const stockNode = () => $("stock") ?? $("center");

  /** Where a played card lands: where the renderer says (a row, the mainline), else the pile, else the middle the game shows. */
  function landingNode(line) {
    const own = hooks()?.landing?.(line, T);
    if (own) return own;
    if ($("pile")?.isConnected) return $("pile");
    return ["stock-pile", "rows", "board"].map($).find((node) => !node.hidden) ?? $("center");
  }

  /** The cards a move puts on the table: a play's card (and its second card), or what the renderer says. */
  function playedCards(line) {
    const own = hooks()?.playedCards?.(line, T);
    if (own) return own;
    return line.move === "play" && line.card ? [line.card, line.then].filter(Boolean) : [];
  }

  async function playCards(line, cards, ms) {
    const target = landingNode(line);
    const to = cardBox(target);
    const flights = cards.map((code, i) => {
      // This seat's own card leaves its place in the hand (one copy of it); another seat's, its fan.
      const mine = line.seat === me ? $("hand").querySelector(`.card[data-code="${code}"]:not(.in-flight)`) : null;
      const from = cardBox(mine ?? seatNode(line.seat));
      if (mine) {
        keepFocusIn(mine);
        mine.classList.add("in-flight");
        leaving.push(code); // hidden still if the hand is drawn again meanwhile
      }
      // A second card lands a little aside, so both show until the view draws them.
      const aside = (box) => box && new DOMRect(box.left + 14 * i, box.top + 6 * i, box.width, box.height);
      return fly(cardFace(code), from, aside(to), { ms, delay: (i * ms) / 3, keep: true, anchor: () => aside(cardBox(target)), turn: i % 2 ? 10 : -12 });
    });
    await Promise.all(flights);
    if (line.suit) {
      const token = el("span", { class: `token ${isRed(line.suit) ? "red" : "black"}`, "aria-hidden": "true" }, SUIT_SYMBOLS[SUITS.indexOf(line.suit)]);
      await dropToken(token, target);
    }
  }

  /** A deal: backs from the stock to each seat in turn (the dealer's left first), twice round, quickly. */
  function dealCards(line) {
    const seats = T.view?.seats ?? [];
    const from = cardBox(stockNode());
    const flights = [];
    for (let round = 0; round < 2; round++) {
      seats.forEach((_, i) => {
        const s = (line.dealer + 1 + i) % seats.length;
        const delay = (round * seats.length + i) * DEAL_STAGGER_MS;
        flights.push(fly(cardBack(), from, cardBox(seatNode(s), { width: 40 }), { delay, ms: FLIGHT_MS * 0.8 }));
      });
    }
    return Promise.all(flights);
  }

  return function moveCards(line, ms = FLIGHT_MS) {
    if (line.type === "deal") return dealCards(line);
    if (line.type !== "move") return Promise.resolve();
    // A run of draws goes briskly.
    if (line.move === "draw") return fly(cardBack(), cardBox(stockNode()), cardBox(seatNode(line.seat), { width: 40 }), { ms: ms * 0.6 });
    const cards = playedCards(line);
    return cards.length ? playCards(line, cards, ms) : Promise.resolve();
  };
}

/**
 * One first-in, first-out line of updates: push(task) runs `task` (it may return a promise,
 * e.g. its flights) after every task pushed before it has finished.
 */
export class UpdateQueue {
  #tasks = [];
  #running = false;

  /** How many tasks wait behind the one running. */
  get waiting() {
    return this.#tasks.length;
  }

  push(task) {
    this.#tasks.push(task);
    if (!this.#running) this.#run();
  }

  async #run() {
    this.#running = true;
    while (this.#tasks.length) {
      const task = this.#tasks.shift();
      try {
        await task();
      } catch (error) {
        // One update that fails must not stop the ones after it; the console says why.
        console.error(error);
      }
    }
    this.#running = false;
  }
}
