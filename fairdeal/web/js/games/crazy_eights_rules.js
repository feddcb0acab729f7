// Crazy Eights at the online table, in the browser: a port of
// fairdeal/rules/crazy_eights.py, move for move and reason for reason, so
// the verify page replays a record without trusting the server's engine.
//
// A state is a plain object of card codes (hands, stock top first, pile
// bottom first); the rules never change one, they return a new one.
//
//   const rules = new CrazyEights();
//   const [state, events] = await rules.deal(3, 0, 1, shuffle);
//   state.hands[1].length   // 5
//   rules.autoMove(state)   // {move: "play", card: "3C"} or {move: "draw"}

import { SUITS, cardIndex, pack } from "../protocol.js";
import { display, rankValue, suitIndex, suitSymbol } from "../cards.js";
import { IllegalMove, MoveError, Rules } from "../match.js";

/** What a card left in hand counts: eight 50; K, Q, J, 10: 10; ace 1; others their number. */
export function cardPoints(code) {
  const rank = rankValue(code);
  return rank === 8 ? 50 : Math.min(rank, 10);
}

const sum = (xs) => xs.reduce((a, b) => a + b, 0);
const countPoints = (hand) => sum(hand.map(cardPoints));

/** The timed-out turn's "lowest card" order: points, then rank, then suit (so eights last). */
function autoCardKey(code) {
  return [cardPoints(code), rankValue(code), suitIndex(code)];
}

function lessByKey(a, b) {
  const ka = autoCardKey(a);
  const kb = autoCardKey(b);
  for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return ka[i] < kb[i];
  return false;
}

export function fits(card, top, named) {
  if (card[0] === "8") return true;
  if (named) return card[1] === named;
  return card[1] === top[1] || card[0] === top[0];
}

/** Why `card` cannot be played now, or null: shared by the engine and explain(). */
function whyNot(card, { isTurn, over, hand, top, named, pending, drawn, canDraw }) {
  if (over) return "the hand is over";
  if (!isTurn) return "it is not your turn";
  if (!hand.includes(card)) return `you do not hold ${display(card)}`;
  if (pending && card !== pending) return `you must play or keep the card you drew (${display(pending)})`;
  if (!pending && drawn && canDraw) return "you have started drawing: draw until a card fits";
  if (fits(card, top, named)) return null;
  if (named) return `${display(card)} does not match ${suitSymbol(named)}, the suit named with ${display(top)}`;
  return `${display(card)} does not match ${display(top)} in suit or rank`;
}

/** "1st", "2nd", "3rd", "4th" ... "11th" ... "21st". */
export function ordinal(n) {
  if ([11, 12, 13].includes(n % 100)) return `${n}th`;
  return `${n}${{ 1: "st", 2: "nd", 3: "rd" }[n % 10] ?? "th"}`;
}

function mostHeldSuit(hand, fallback) {
  if (!hand.length) return fallback;
  const counts = [0, 0, 0, 0];
  for (const card of hand) counts[suitIndex(card)] += 1;
  return SUITS[counts.indexOf(Math.max(...counts))];
}

function without(hand, card) {
  const i = hand.indexOf(card);
  return [...hand.slice(0, i), ...hand.slice(i + 1)];
}

const canDraw = (state) => state.stock.length > 0 || state.pile.length > 1;
const top = (state) => state.pile[state.pile.length - 1];

export class CrazyEights extends Rules {
  static id = "crazy-eights";
  static title = "Crazy Eights";
  static minSeats = 2;
  static maxSeats = 6;
  static firstDealerRank = "A";
  static defaults = { target: 100, restock_limit: 20 };

  checkOptions() {
    const { target, restock_limit: limit } = this.options;
    if (target < 1 || target > 100000) throw new MoveError("target must be between 1 and 100000 points");
    if (limit < 0 || limit > 1000) throw new MoveError("restock_limit must be between 0 and 1000");
  }

  static handSize(seats) {
    return seats === 2 ? 7 : 5;
  }

  // -- dealing -------------------------------------------------------------

  async deal(seats, dealer, hand, shuffle) {
    this.checkSeats(seats);
    const order = await shuffle(`hand/${hand}/deal`, pack());
    const size = CrazyEights.handSize(seats);
    const first = (dealer + 1) % seats;
    // One card at a time, clockwise from the dealer's left: card i goes to seat first + i.
    const hands = Array.from({ length: seats }, () => []);
    for (let i = 0; i < size * seats; i++) hands[(first + i) % seats].push(order[i]);
    const stock = order.slice(size * seats);
    const turned = [];
    let starter;
    for (;;) {
      starter = stock.shift();
      turned.push(starter);
      if (starter[0] !== "8") break;
      // Protocol v1, step 11: an eight goes back into the middle of the stock.
      stock.splice(Math.floor(stock.length / 2), 0, starter);
    }
    const state = {
      hand,
      dealer,
      hands,
      stock,
      pile: [starter],
      named: null,
      turn: first,
      drawn: 0,
      pending: null,
      passes: 0,
      restocks: 0,
      result: null,
      dealt: hands.map((h) => [...h]),
      turned,
      restocked: [],
    };
    return [state, [{ type: "deal", hand, dealer, turned: [...turned] }]];
  }

  // -- seeing --------------------------------------------------------------

  /** What `seat` sees (null: a spectator), shaped like the view's JSON. */
  view(state, seat) {
    const own = seat !== null && seat === state.turn;
    return {
      seat,
      hand_no: state.hand,
      dealer: state.dealer,
      hand: seat === null ? [] : [...state.hands[seat]],
      hand_sizes: state.hands.map((h) => h.length),
      top: top(state),
      named: state.named,
      stock_size: state.stock.length,
      pile_size: state.pile.length,
      turn: state.turn,
      drawn: state.drawn,
      pending: own ? state.pending : null,
      passes: state.passes,
      restocks: state.restocks,
      restock_limit: this.options.restock_limit,
      result: state.result,
    };
  }

  /** Why `card` cannot be played now in `view`, or null when it can. */
  explain(view, card) {
    return whyNot(card, {
      isTurn: view.seat !== null && view.seat === view.turn,
      over: view.result !== null,
      hand: view.hand,
      top: view.top,
      named: view.named,
      pending: view.pending,
      drawn: view.drawn,
      canDraw: view.stock_size > 0 || view.pile_size > 1,
    });
  }

  legalMoves(view) {
    if (view.result !== null || view.seat === null || view.seat !== view.turn) return [];
    const plays = (card) => (card[0] === "8" ? [...SUITS].map((suit) => ({ move: "play", card, suit })) : [{ move: "play", card }]);
    if (view.pending) return [...plays(view.pending), { move: "keep" }];
    const drawable = view.stock_size > 0 || view.pile_size > 1;
    if (view.drawn && drawable) return [{ move: "draw" }];
    const moves = [];
    const held = [...new Set(view.hand)].sort((a, b) => cardIndex(a) - cardIndex(b));
    for (const card of held) if (fits(card, view.top, view.named)) moves.push(...plays(card));
    if (drawable) moves.push({ move: "draw" });
    else if (!moves.length) moves.push({ move: "pass" });
    return moves;
  }

  // -- playing -------------------------------------------------------------

  async apply(state, seat, move, shuffle) {
    const illegal = (reason) => new IllegalMove(reason, { move, seat });
    if (state.result !== null) throw illegal("the hand is over");
    if (seat !== state.turn) throw illegal("it is not your turn");
    switch (move.move) {
      case "play":
        return this._play(state, seat, move, illegal);
      case "draw":
        if (state.pending) throw illegal(`you must play or keep the card you drew (${display(state.pending)})`);
        if (!canDraw(state)) throw illegal("there is nothing to draw: the stock is empty and the pile has only its top card");
        return this._draw(state, seat, shuffle);
      case "keep":
        if (!state.pending) throw illegal("you can only keep a card you have just drawn that fits");
        return [nextTurn(state, 0), []];
      case "pass": {
        if (state.pending) throw illegal(`you must play or keep the card you drew (${display(state.pending)})`);
        if (canDraw(state)) throw illegal("you may pass only when there is nothing to draw");
        const playable = state.hands[seat].filter((c) => fits(c, top(state), state.named));
        if (playable.length) throw illegal(`you may pass only when you cannot play, and ${display(playable[0])} fits`);
        const passes = state.passes + 1;
        if (passes === state.hands.length) return [blocked({ ...state, passes }, "everyone passed in turn"), []];
        return [nextTurn(state, passes), []];
      }
      default:
        throw illegal(`Crazy Eights has no move ${JSON.stringify(move.move)}`);
    }
  }

  _play(state, seat, move, illegal) {
    const card = move.card;
    const hand = state.hands[seat];
    const problem = whyNot(card, {
      isTurn: true,
      over: false,
      hand,
      top: top(state),
      named: state.named,
      pending: state.pending,
      drawn: state.drawn,
      canDraw: canDraw(state),
    });
    if (problem) throw illegal(problem);
    if (card[0] === "8" && !move.suit) throw illegal(`name a suit for ${display(card)}`);
    if (card[0] !== "8" && move.suit) throw illegal("only an eight names a suit");
    const newHand = without(hand, card);
    const hands = state.hands.map((h, s) => (s === seat ? newHand : h));
    const played = { ...state, hands, pile: [...state.pile, card], named: move.suit ?? null };
    if (!newHand.length) {
      const counts = hands.map(countPoints);
      const scores = counts.map((_, s) => (s === seat ? sum(counts) : 0));
      const result = { how: "out", winners: [seat], counts, scores, reason: `seat ${seat} went out` };
      return [{ ...played, turn: null, drawn: 0, pending: null, passes: 0, result }, []];
    }
    return [nextTurn(played, 0), []];
  }

  async _draw(state, seat, shuffle) {
    const events = [];
    if (!state.stock.length) {
      // The stock ran out: rebuild it from the pile under its top card, unless
      // it already has run out as often as the table allows.
      if (state.restocks >= this.options.restock_limit) {
        return [blocked(state, `the stock ran out for the ${ordinal(state.restocks + 1)} time`), []];
      }
      const r = state.restocks + 1;
      const gathered = state.pile.slice(0, -1).sort((a, b) => cardIndex(a) - cardIndex(b));
      const stock = await shuffle(`hand/${state.hand}/restock/${r}`, gathered);
      state = { ...state, stock, pile: [top(state)], restocks: r, restocked: [...state.restocked, stock] };
      events.push({ type: "restock", hand: state.hand, restock: r, cards: stock.length });
    }
    const [card, ...stock] = state.stock;
    const hands = state.hands.map((h, s) => (s === seat ? [...h, card] : h));
    const fitting = fits(card, top(state), state.named);
    return [{ ...state, hands, stock, drawn: state.drawn + 1, pending: fitting ? card : null, passes: 0 }, events];
  }

  // -- the table's timer ---------------------------------------------------

  /**
   * What the table plays for a seat whose timer ran out: the fitting card it
   * drew; while drawing, draw on; else its lowest playable card, else draw,
   * else pass. A timed-out eight names the suit it then holds most of.
   */
  autoMove(state) {
    if (state.result !== null || state.turn === null) throw new IllegalMove("the hand is over");
    const hand = state.hands[state.turn];
    if (state.pending) return autoPlay(state.pending, hand);
    if (state.drawn && canDraw(state)) return { move: "draw" };
    const playable = hand.filter((c) => fits(c, top(state), state.named));
    if (playable.length) return autoPlay(playable.reduce((a, b) => (lessByKey(b, a) ? b : a)), hand);
    return canDraw(state) ? { move: "draw" } : { move: "pass" };
  }

  // -- reporting -----------------------------------------------------------

  summary(state) {
    return {
      deal: state.dealt.map((h) => [...h]),
      starter: state.turned[state.turned.length - 1],
      turned: [...state.turned],
      restocks: state.restocked.map((stock, i) => ({ restock: i + 1, stock: [...stock] })),
    };
  }
}

function autoPlay(card, hand) {
  if (card[0] !== "8") return { move: "play", card };
  return { move: "play", card, suit: mostHeldSuit(without(hand, card), card[1]) };
}

function nextTurn(state, passes) {
  return { ...state, turn: (state.turn + 1) % state.hands.length, drawn: 0, pending: null, passes };
}

function blocked(state, reason) {
  const counts = state.hands.map(countPoints);
  const low = Math.min(...counts);
  const winners = counts.flatMap((c, s) => (c === low ? [s] : []));
  const won = sum(counts.map((c) => c - low));
  const scores = counts.map((c) => (c === low ? won : 0));
  return { ...state, turn: null, drawn: 0, pending: null, result: { how: "blocked", winners, counts, scores, reason } };
}
