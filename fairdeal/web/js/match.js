// The match driver in the browser: a port of fairdeal/match.py and of what
// fairdeal/rules/base.py gives every game (moves, illegal moves, standings).
//
// It emits exactly the record events the server's Match emits, so the
// verifier can feed it a record's moves and compare line by line:
//
//   const match = new Match(new CrazyEights(), 3, (label, cards) => shuffle(key, label, cards));
//   await match.start()            // [{type: "draw-for-deal", ...}, {type: "deal", ...}]
//   await match.apply(1, {move: "draw"})

import { pack } from "./protocol.js";
import { parseCard, parseSuit } from "./cards.js";

/** A move the rules do not allow now, with a reason a person understands. */
export class IllegalMove extends Error {
  constructor(reason, { move = null, seat = null } = {}) {
    const where = move === null ? "" : ` ${moveText(move)}` + (seat === null ? "" : ` by seat ${seat}`);
    super(`illegal move${where}: ${reason}`);
    this.name = "IllegalMove";
    this.reason = reason;
  }
}

/** A move that cannot even be read, or options the game does not take. */
export class MoveError extends Error {
  constructor(message) {
    super(message);
    this.name = "MoveError";
  }
}

export const MOVE_KINDS = ["play", "draw", "keep", "pass"];

/**
 * A move from a record line or a request: {move, card?, suit?}, normalised
 * to codes ("8H", suit "S"); MoveError when it cannot be read (as Move.from_json).
 */
export function moveFromJson(data) {
  if (data === null || typeof data !== "object" || Array.isArray(data)) throw new MoveError("a move is a JSON object");
  const kind = data.move;
  if (!MOVE_KINDS.includes(kind)) {
    throw new MoveError(`unknown move ${JSON.stringify(kind)}: expected one of ${MOVE_KINDS.join(", ")}`);
  }
  const card = data.card ?? null;
  const suit = data.suit ?? null;
  if (kind !== "play") {
    if (card !== null || suit !== null) throw new MoveError(`a ${kind} names no card and no suit`);
    return { move: kind };
  }
  const code = typeof card === "string" ? parseCard(card) : null;
  if (typeof card === "string" && code === null) throw new MoveError(`not a card code: ${JSON.stringify(card)}`);
  let letter = null;
  if (suit !== null) {
    letter = parseSuit(suit);
    if (letter === null) throw new MoveError(`not a suit: ${JSON.stringify(suit)}`);
  }
  if (code === null) throw new MoveError('a play names its card, e.g. {"move": "play", "card": "9C"}');
  return letter === null ? { move: "play", card: code } : { move: "play", card: code, suit: letter };
}

/** "play 9C", "play 8H naming S", "draw". */
export function moveText(move) {
  if (move.move !== "play") return move.move;
  return `play ${move.card}` + (move.suit ? ` naming ${move.suit}` : "");
}

export function sameMove(a, b) {
  return a.move === b.move && (a.card ?? null) === (b.card ?? null) && (a.suit ?? null) === (b.suit ?? null);
}

/** Seats by total, highest first; equal totals share a place. */
export function standings(totals) {
  const order = totals.map((_, s) => s).sort((a, b) => totals[b] - totals[a] || a - b);
  return order.map((s) => ({ seat: s, total: totals[s], place: 1 + totals.filter((t) => t > totals[s]).length }));
}

/**
 * The draw for the first dealer (protocol v1, step 10): the full pack,
 * shuffled by "draw-for-deal", dealt face up from seat 0 round the table;
 * the first seat to get a card of the game's rank deals first.
 */
/** The first `count` cards of `order`, one at a time round the table from the dealer's left. */
export function dealRound(order, seats, dealer, count = order.length) {
  const deal = Array.from({ length: seats }, () => []);
  order.slice(0, count).forEach((card, i) => deal[(dealer + 1 + i) % seats].push(card));
  return deal;
}

export async function drawForDeal(rules, seats, shuffle) {
  const order = await shuffle("draw-for-deal", pack());
  const i = order.findIndex((code) => code[0] === rules.firstDealerRank);
  return { dealer: i % seats, cards: order.slice(0, i + 1) };
}

/** A whole match of one game, driven move by move. Every method that shuffles is async. */
export class Match {
  constructor(rules, seats, shuffle) {
    rules.checkSeats(seats);
    this.rules = rules;
    this.seats = seats;
    this._shuffle = shuffle;
    this.state = null;
    this.totals = rules.initialTotals(seats);
    this.hands = []; // {hand, dealer, summary, result, totals} per finished hand
    this.firstDealer = null;
    this.over = false;
  }

  get handNo() {
    return this.state === null ? 0 : this.state.hand;
  }

  /** The seat to act, or null before the start and after the end. */
  get turn() {
    return this.state === null || this.over ? null : this.state.turn;
  }

  get standings() {
    return standings(this.totals);
  }

  async start() {
    if (this.state !== null) throw new IllegalMove("the match has already started");
    const { dealer, cards } = await drawForDeal(this.rules, this.seats, this._shuffle);
    this.firstDealer = dealer;
    return [{ type: "draw-for-deal", cards, dealer }, ...(await this._deal(dealer, 1))];
  }

  async _deal(dealer, hand) {
    const [state, events] = await this.rules.deal(this.seats, dealer, hand, this._shuffle);
    this.state = state;
    return events;
  }

  /**
   * Make `move` for `seat`; the move's event and all that follows from it.
   * An auto move must be exactly the rules' autoMove. Throws IllegalMove and
   * changes nothing when the move is not allowed.
   */
  async apply(seat, move, { auto = false } = {}) {
    if (this.state === null) throw new IllegalMove("the match has not started", { move, seat });
    if (this.over) throw new IllegalMove("the match is over", { move, seat });
    if (auto) {
      const expected = this.rules.autoMove(this.state);
      if (seat !== this.state.turn) throw new IllegalMove("it is not your turn", { move, seat });
      if (!sameMove(move, expected)) throw new IllegalMove(`the auto-move here is ${moveText(expected)}`, { move, seat });
    }
    const [state, derived] = await this.rules.apply(this.state, seat, move, this._shuffle);
    const event = { type: "move", seat, ...move };
    if (auto) event.auto = true;
    const events = [event, ...derived];
    this.state = state;
    if (state.result !== null) events.push(...(await this._endHand()));
    return events;
  }

  autoMove() {
    if (this.state === null || this.over) throw new IllegalMove("no one is to act");
    return this.rules.autoMove(this.state);
  }

  async _endHand() {
    const state = this.state;
    const result = state.result;
    this.totals = this.totals.map((t, s) => t + result.scores[s]);
    this.hands.push({
      hand: state.hand,
      dealer: state.dealer,
      summary: this.rules.summary(state),
      result,
      totals: [...this.totals],
    });
    const events = [
      {
        type: "hand-end",
        hand: state.hand,
        how: result.how,
        winners: [...result.winners],
        counts: [...result.counts],
        scores: [...result.scores],
        totals: [...this.totals],
      },
    ];
    if (this.rules.matchOver(this.totals, this.hands.length)) {
      this.over = true;
      events.push({ type: "match-end", standings: this.standings });
    } else {
      events.push(...(await this._deal((state.dealer + 1) % this.seats, state.hand + 1)));
    }
    return events;
  }
}

/** What every game's rules share: options checked like fairdeal/rules/base.py does. */
export class Rules {
  constructor(options = {}) {
    if (options === null || typeof options !== "object" || Array.isArray(options)) {
      throw new MoveError("options are a JSON object");
    }
    const defaults = this.constructor.defaults;
    const unknown = Object.keys(options).filter((k) => !(k in defaults)).sort();
    if (unknown.length) {
      throw new MoveError(`${this.constructor.id} has no option ${JSON.stringify(unknown[0])}; options: ${Object.keys(defaults).join(", ")}`);
    }
    const merged = { ...defaults, ...options };
    for (const [key, value] of Object.entries(merged)) {
      if (!Number.isInteger(value)) throw new MoveError(`option ${JSON.stringify(key)} must be an integer, not ${JSON.stringify(value)}`);
    }
    this.options = merged;
    this.checkOptions();
  }

  get name() {
    return this.constructor.id;
  }

  get firstDealerRank() {
    return this.constructor.firstDealerRank;
  }

  checkOptions() {}

  checkSeats(seats) {
    const { minSeats, maxSeats, title } = this.constructor;
    if (!Number.isInteger(seats) || seats < minSeats || seats > maxSeats) {
      throw new MoveError(`${title} is for ${minSeats} to ${maxSeats} players, not ${seats}`);
    }
  }

  initialTotals(seats) {
    return Array(seats).fill(0);
  }

  matchOver(totals /* , handsPlayed */) {
    return Math.max(...totals) >= this.options.target;
  }
}
