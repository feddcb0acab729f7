// The game record in the browser: read it, check its hash chain and Ed25519
// signatures, re-derive every shuffle from the revealed seeds and replay every
// move through the rules (spec/record.md; fairdeal/record.py and
// verifier/replay.py are the Python side). verifyRecord() is the whole check:
//
//   const report = await verifyRecord(await (await fetch(`/games/${id}/record`)).arrayBuffer());
//   report.verified           // true, or false with report.error = {line, reason}
//   report.hands[0].deal[1]   // seat 1's first hand as dealt: ["7H", "JD", ...]
//
// It checks in the same order as fairdeal-verify and names the same first
// failing line: the header, the chain and its signatures, the server seed
// against its commitment, the client seeds, then the replay of the lines
// before any failure found so far; the earliest failing line wins.

import {
  FairnessError,
  PROTOCOL,
  checkClientSeed,
  checkGameId,
  checkLabel,
  clientCommitment,
  commitment,
  concat,
  fromHex,
  gameKey,
  isCard,
  lp,
  pack,
  sha256,
  shuffle,
  toHex,
  u64,
  utf8,
} from "./protocol.js";
import { catalogue, entryOf, rendererOf } from "./catalogue.js";
import { IllegalMove, Match, MoveError, dealRound, drawForDeal, moveFromJson } from "./match.js";

export const FORMAT = "fairdeal-record/1";
export const GENESIS = "0".repeat(64);
/** Lines the server must sign: each hand's end, the match's end, an abandon and the reveal. */
export const SIGNED_TYPES = new Set(["hand-end", "match-end", "abandon", "reveal"]);
export const MAX_SEAT_NAME = 40;
export const NOT_REVEALED = "the record ends here and the server seed is not revealed (a game in progress, or a truncated record)";

/**
 * What this page knows of the game named `name`: its catalogue entry (GET /rules,
 * as the rules declare it) and its module in js/games/. A module may replay the
 * game move by move (`engines[name]`, a rules class); else this page checks
 * everything up to the deals and derives each deal from the seeds, with the
 * catalogue's deal layout (packs, cards taken out, the first dealer's rank) and
 * the module's `dealing`: `size(n)` (cards each, "all": the whole pack, one at a
 * time from the dealer's left), or its own `deal(order, seats, dealer)`, `cards(n)`
 * (a cut-down pack), `starter(stock)` (the cards turned for a starter), `follow(hand,
 * line)` (what a move, chips or hand-end line adds to the hand's report). The scores
 * it shows are then the record's. Null when the catalogue has no such game.
 */
export async function gameOf(name) {
  const games = await catalogue();
  const entry = typeof name === "string" ? entryOf(games, name) : null;
  if (!entry) return { entry: null, engine: null, family: null, known: games.games.map((g) => g.name) };
  const mod = await rendererOf(entry);
  const engine = mod.engines?.[name] ?? null;
  const layout = entry.layout;
  const packs = (n) => (layout.two_packs_from && n >= layout.two_packs_from ? 2 : layout.packs);
  const removed = new Set(layout.removed ?? []);
  const family = {
    title: entry.title,
    minSeats: entry.seats.min,
    maxSeats: entry.seats.max,
    firstDealerRank: entry.first_dealer_rank,
    cards: (n) => pack(packs(n)).filter((code) => !removed.has(code)),
    size: () => "all",
    ...mod.dealing,
  };
  return { entry, engine, family, known: games.games.map((g) => g.name) };
}

/** A fault at a line of the record (1-based `line`; null when it is no record at all). */
export class RecordError extends Error {
  constructor(line, reason) {
    super(line ? `line ${line}: ${reason}` : reason);
    this.name = "RecordError";
    this.line = line;
    this.reason = reason;
  }
}

const HEX64 = /^[0-9a-f]{64}$/;
const SIG = /^[0-9a-f]{128}$/;
const isObject = (x) => x !== null && typeof x === "object" && !Array.isArray(x);
const show = (x) => (x === undefined ? "nothing" : canonical(x));

// -- canonical JSON and hashes ---------------------------------------------

// Keys sort by code point, as Python's sort_keys does (JavaScript's default
// sort compares UTF-16 units, which differs above U+FFFF).
function byCodePoint(a, b) {
  const x = Array.from(a, (ch) => ch.codePointAt(0));
  const y = Array.from(b, (ch) => ch.codePointAt(0));
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
  return x.length - y.length;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * The one encoding of a line: JSON, keys sorted, no spaces, non-ASCII as is,
 * integers only; Python's json.dumps(sort_keys=True, separators=(",", ":"),
 * ensure_ascii=False) of the same value.
 */
export function canonical(value) {
  if (value === null || typeof value === "boolean") return JSON.stringify(value);
  if (typeof value === "string") {
    if (LONE_SURROGATE.test(value)) throw new RecordError(null, "a string that is not valid Unicode text");
    return JSON.stringify(value);
  }
  if (typeof value === "number") {
    if (!Number.isSafeInteger(value)) throw new RecordError(null, `the number ${value} is not an integer (records hold integers only)`);
    return String(value);
  }
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  const keys = Object.keys(value).sort(byCodePoint);
  return `{${keys.map((k) => `${canonical(k)}:${canonical(value[k])}`).join(",")}}`;
}

function withoutSig(line) {
  const { sig, ...rest } = line;
  return rest;
}

/** SHA-256 of the line's canonical encoding without its sig, hex. */
export async function lineHash(line) {
  return toHex(await sha256(utf8(canonical(withoutSig(line)))));
}

/** What a signature signs: lp("fairdeal/v1/head") || lp(game_id) || u64(seq) || hash bytes. */
export function headMessage(gameId, seq, hashHex) {
  return concat(lp("fairdeal/v1/head"), lp(gameId), u64(seq), fromHex(hashHex));
}

// -- reading ---------------------------------------------------------------

function bytesOf(data) {
  if (typeof data === "string") return utf8(data);
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  return data;
}

const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** One line's object, or a string saying why it cannot be read. */
function readLine(raw) {
  if (raw.length && raw[raw.length - 1] === 0x0d) raw = raw.subarray(0, -1);
  let text;
  try {
    text = strictUtf8.decode(raw);
  } catch {
    return "not UTF-8 text";
  }
  if (!text.trim()) return "an empty line (a record has one JSON object on every line)";
  let obj;
  try {
    obj = JSON.parse(text);
  } catch (error) {
    return error instanceof RangeError ? "not a record line (nested too deeply)" : `not a complete JSON object (${error.message}; a truncated record?)`;
  }
  if (!isObject(obj)) return "not a JSON object";
  let encoded;
  try {
    encoded = canonical(obj);
  } catch (error) {
    return error.reason ?? "not a record line";
  }
  // The hash is of the canonical encoding; a line in any other form (spaces,
  // key order, escapes, a key twice, 1.0 for 1) could be read differently.
  if (encoded !== text) return "not in canonical form (keys sorted, no spaces, UTF-8; spec/record.md)";
  return obj;
}

/**
 * The record's lines up to the first that cannot be read, and that failure
 * ({line, reason} or null). Throws RecordError when the data is not a
 * fairdeal record at all (empty, or a first line that is not a header).
 */
export function readLines(data) {
  const bytes = bytesOf(data);
  const raws = [];
  let start = 0;
  for (let i = 0; i <= bytes.length; i++) {
    if (i === bytes.length || bytes[i] === 0x0a) {
      raws.push(bytes.subarray(start, i));
      start = i + 1;
    }
  }
  if (raws.length && raws[raws.length - 1].length === 0) raws.pop(); // the newline ending the last line
  if (!raws.length) throw new RecordError(null, "not a fairdeal record: the file is empty");
  const lines = [];
  for (let i = 0; i < raws.length; i++) {
    const obj = readLine(raws[i]);
    if (i === 0 && (typeof obj === "string" || obj.type !== "header")) {
      let first;
      try {
        first = JSON.parse(strictUtf8.decode(raws[0]));
      } catch {
        throw new RecordError(null, "not a fairdeal record: the first line is not JSON");
      }
      if (!isObject(first) || first.type !== "header") throw new RecordError(null, "not a fairdeal record: the first line is not a record header");
    }
    if (typeof obj === "string") return { lines, failure: { line: i + 1, reason: obj } };
    lines.push(obj);
  }
  return { lines, failure: null };
}

/** The lines of a record, or a RecordError at the first line that cannot be read. */
export function parseRecord(data) {
  const { lines, failure } = readLines(data);
  if (failure) throw new RecordError(failure.line, failure.reason);
  return lines;
}

// -- signatures and the chain -----------------------------------------------

async function importServerKey(publicHex) {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) throw new RecordError(1, "this page cannot check signatures: open it over https or on localhost");
  try {
    return await subtle.importKey("raw", fromHex(publicHex), { name: "Ed25519" }, false, ["verify"]);
  } catch (error) {
    if (error?.name === "NotSupportedError") {
      throw new RecordError(1, "this browser cannot check Ed25519 signatures; try a current Chrome, Firefox or Safari");
    }
    throw new RecordError(1, "the header's server_key is not an Ed25519 public key");
  }
}

async function signatureHolds(key, sigHex, message) {
  try {
    return await crypto.subtle.verify({ name: "Ed25519" }, key, fromHex(sigHex), message);
  } catch {
    return false;
  }
}

/** Whether a receipt {game_id, seq, hash, sig} is the server's signature of that chain head. */
export async function verifyReceipt(publicHex, receipt) {
  if (typeof receipt?.sig !== "string" || !SIG.test(receipt.sig) || !HEX64.test(receipt.hash ?? "")) return false;
  const key = await importServerKey(publicHex);
  return signatureHolds(key, receipt.sig, headMessage(receipt.game_id, receipt.seq, receipt.hash));
}

/**
 * Check numbering, the hash chain and every signature (fairdeal.record.check_chain);
 * throws RecordError at the first fault. Lines the format requires signed,
 * and the last line, must carry a valid sig. Returns the lines' hashes.
 */
export async function checkChain(lines, publicHex = undefined) {
  if (!lines.length || lines[0].type !== "header") throw new RecordError(1, "the first line is not a header");
  const gameId = lines[0].game_id;
  if (typeof gameId !== "string") throw new RecordError(1, "the header has no game id");
  const key = await importServerKey(publicHex ?? lines[0].server_key);
  const hashes = [];
  let head = GENESIS;
  const last = lines.length - 1;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.seq !== i) throw new RecordError(i + 1, `sequence number ${show(line.seq)}, expected ${i}`);
    if (line.prev !== head) throw new RecordError(i + 1, "prev does not match the hash of the line before");
    const digest = await lineHash(line);
    if ("sig" in line) {
      if (typeof line.sig !== "string" || !(await signatureHolds(key, line.sig, headMessage(gameId, i, digest)))) {
        throw new RecordError(i + 1, "bad signature");
      }
    } else if (SIGNED_TYPES.has(line.type) || i === last) {
      throw new RecordError(i + 1, `${i === last ? "the last line" : `a ${line.type} line`} is not signed`);
    }
    hashes.push(digest);
    head = digest;
  }
  return hashes;
}

// A record that stops before its reveal (a game in progress) ends on a line the
// server did not sign; "not revealed" says why it does not verify better than
// "not signed".
async function chain(lines, key) {
  lines.forEach((line, i) => {
    if ("sig" in line && !(typeof line.sig === "string" && SIG.test(line.sig))) {
      throw new RecordError(i + 1, "sig is not 128 lowercase hex digits (an Ed25519 signature)");
    }
  });
  try {
    await checkChain(lines, key);
  } catch (error) {
    const last = lines[lines.length - 1];
    const unfinishedTail =
      error.line === lines.length &&
      lines.length > 1 &&
      !("sig" in last) &&
      !SIGNED_TYPES.has(last.type) &&
      last.seq === lines.length - 1 &&
      last.prev === (await lineHash(lines[lines.length - 2]));
    if (!unfinishedTail) throw error;
  }
}

// -- the whole check --------------------------------------------------------

/** Thrown inside the replay: a fault at line index `index` (0-based). */
class Fail extends Error {
  constructor(index, reason) {
    super(reason);
    this.index = index;
    this.reason = reason;
  }
}

const same = (a, b) => canonical(a) === canonical(b);
const SEED_LINES = new Set(["draw-for-deal", "deal", "restock"]);
const CHAIN_FIELDS = new Set(["seq", "prev", "sig"]);

function noExtra(index, line, allowed) {
  for (const key of Object.keys(line)) {
    if (!allowed.includes(key) && !CHAIN_FIELDS.has(key)) throw new Fail(index, `${line.type} has a field "${key}" that the format does not give`);
  }
}

/** Fail at the first field where a line differs from the engine's event. */
function compare(index, line, expected) {
  const kind = expected.type;
  if (line.type !== kind) {
    throw new Fail(index, `a ${line.type} line, but the ${SEED_LINES.has(kind) ? "seed gives" : "rules give"} a ${kind} line here`);
  }
  const source = SEED_LINES.has(kind) ? "the seed gives" : "the rules give";
  for (const [key, value] of Object.entries(expected)) {
    if (!(key in line)) throw new Fail(index, `${kind} has no ${key}, but ${source} ${show(value)}`);
    if (!same(line[key], value)) throw new Fail(index, `${kind} ${key} ${show(line[key])} but ${source} ${show(value)}`);
  }
  noExtra(index, line, Object.keys(expected));
}

const ISO_8601 = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2})(?::?(\d{2})(?::?(\d{2})(?:[.,]\d{1,9})?)?)?(?:Z|[+-]\d{2}(?::?\d{2}(?::?\d{2}(?:\.\d{1,6})?)?)?)?)?$/;

/** A date, or a date and time, in the ISO 8601 forms a record uses ("2026-01-01T00:00:00Z"). */
export function isIsoDateTime(text) {
  const m = typeof text === "string" ? ISO_8601.exec(text) : null;
  if (!m) return false;
  const [year, month, day, hour = 0, minute = 0, second = 0] = m.slice(1).map((x) => (x === undefined ? undefined : Number(x)));
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return year >= 1 && month >= 1 && month <= 12 && day >= 1 && day <= days && hour <= 23 && minute <= 59 && second <= 59;
}

function seatNumber(index, line, seats) {
  const seat = line.seat;
  if (!Number.isInteger(seat) || seat < 0 || seat >= seats) {
    throw new Fail(index, `${line.type} seat ${show(seat)} is not a seat of this ${seats}-seat game`);
  }
  return seat;
}

function newReport() {
  return {
    kind: "game",
    verified: false,
    deals_only: false,
    error: null,
    game_id: null,
    rules: null,
    options: {},
    seats: [],
    created: null,
    server_key: null,
    commitment: null,
    client_seeds: null,
    bots: null,
    server_seed: null,
    first_dealer: null,
    draw: [],
    hands: [],
    standings: null,
    totals: null,
    abandoned: null,
    key_pinned: false,
    label_prefix: null,
    shuffles: null,
    lines: 0,
    moves: 0,
  };
}

function failAt(report, line, reason) {
  if (report.error === null || line < report.error.line) report.error = { line, reason };
  report.verified = false;
}

/** The header's time, commitment and server key (checked against a pinned `key`), for games and sessions. */
function headerKeys(line, report, key) {
  const fail = (reason) => {
    throw new Fail(0, reason);
  };
  if (!isIsoDateTime(line.created)) fail(`header created ${show(line.created)} is not an ISO 8601 date and time`);
  report.created = line.created;
  if (typeof line.commitment !== "string" || !HEX64.test(line.commitment)) fail("header commitment is not 64 lowercase hex digits");
  report.commitment = line.commitment;
  if (typeof line.server_key !== "string" || !HEX64.test(line.server_key)) {
    fail("header server_key is not 64 lowercase hex digits (an Ed25519 public key)");
  }
  if (key && line.server_key !== key) {
    fail(`the header's server_key ${line.server_key.slice(0, 16)}... is not the key you gave (${key.slice(0, 16)}...)`);
  }
  report.server_key = key ?? line.server_key;
  report.key_pinned = Boolean(key);
}

class Replay {
  constructor(lines, report, key = null) {
    this.lines = lines;
    this.report = report;
    this.key = key; // the server's published key, when the caller pins it
    this.rules = null; // a rules object, when this page replays the game
    this.family = null; // the game's deal facts (gameOf), when it only derives the deals
    this.game = null; // what gameOf() says of the header's game, loaded before the header is read
    this.match = null;
    this.derived = []; // deals-only: hands derived from the deal lines
  }

  header() {
    const { report, lines } = this;
    const line = lines[0];
    const fail = (reason) => {
      throw new Fail(0, reason);
    };
    if (line.type !== "header") fail("the first line is not a header");
    if (line.format !== FORMAT) fail(`unknown record format ${show(line.format)}: this page reads ${FORMAT} only`);
    if (line.protocol !== PROTOCOL) fail(`unknown fairness protocol ${show(line.protocol)}: this page knows ${PROTOCOL} only`);
    if ("kind" in line) fail(`unknown record kind ${show(line.kind)}: this page reads games and sessions`);
    try {
      report.game_id = checkGameId(line.game_id);
    } catch (error) {
      fail(`header game_id: ${error.message}`);
    }
    const { rules: name, options } = line;
    if (!isObject(options)) fail(`header options ${show(options)} is not a JSON object`);
    report.rules = typeof name === "string" ? name : null;
    const { engine, family, known } = this.game;
    if (engine) {
      try {
        this.rules = new engine(options);
      } catch (error) {
        fail(`header: ${error.message}`);
      }
      report.options = { ...this.rules.options };
    } else if (family) {
      // Its options are the rules' to check (fairdeal-verify does): here only that they are integers.
      this.family = family;
      if (!Object.values(options).every(Number.isInteger)) fail(`header: every option of ${name} is an integer`);
      report.options = { ...options };
    } else {
      fail(`header: unknown rules ${show(name)}; this page knows ${[...known].sort().join(", ")}`);
    }
    // Defaults may change between versions: a record names every option it was played with.
    const missing = this.rules ? Object.keys(this.rules.options).filter((k) => !(k in options)) : [];
    if (missing.length) fail(`header options do not give ${show(missing[0])} (a record lists every option of ${name})`);
    const seats = line.seats;
    if (!Array.isArray(seats)) fail("header seats is not a list");
    seats.forEach((seat, n) => {
      if (!isObject(seat) || typeof seat.bot !== "boolean") fail(`header seat ${n} needs a name and whether a bot plays it`);
      const length = typeof seat.name === "string" ? [...seat.name].length : 0;
      if (length < 1 || length > MAX_SEAT_NAME) fail(`header seat ${n}: a seat name is 1 to ${MAX_SEAT_NAME} characters`);
    });
    if (this.rules) {
      try {
        this.rules.checkSeats(seats.length);
      } catch (error) {
        fail(`header seats: ${error.message}`);
      }
    } else if (seats.length < this.family.minSeats || seats.length > this.family.maxSeats) {
      fail(`header seats: ${this.family.title} is for ${this.family.minSeats} to ${this.family.maxSeats} players, not ${seats.length}`);
    }
    report.seats = seats.map((s) => ({ name: s.name, bot: s.bot }));
    headerKeys(line, report, this.key);
  }

  /** The revealed seed, checked against the header's commitment (null before the reveal). */
  async serverSeed() {
    for (let index = 0; index < this.lines.length; index++) {
      const line = this.lines[index];
      if (line.type !== "reveal") continue;
      noExtra(index, line, ["type", "server_seed"]);
      const seed = line.server_seed;
      if (typeof seed !== "string" || !HEX64.test(seed)) throw new Fail(index, "reveal server_seed is not 64 lowercase hex digits");
      if ((await commitment(seed)) !== this.report.commitment) {
        throw new Fail(index, "the revealed server seed does not match the commitment in the header");
      }
      this.report.server_seed = seed;
      return seed;
    }
    return null;
  }

  /** Check the commit-reveal lines up to the start line; returns the start line's index. */
  async seeds(end) {
    const { report, lines } = this;
    const seats = report.seats.length;
    const humans = report.seats.flatMap((s, i) => (s.bot ? [] : [i]));
    const committed = new Map();
    const revealed = new Map();
    for (let index = 1; index < end; index++) {
      const line = lines[index];
      const fail = (reason) => {
        throw new Fail(index, reason);
      };
      switch (line.type) {
        case "client-commit": {
          noExtra(index, line, ["type", "seat", "commitment"]);
          const seat = seatNumber(index, line, seats);
          if (!humans.includes(seat)) fail(`seat ${seat} is played by a bot and brings no client seed`);
          if (committed.has(seat)) fail(`seat ${seat} has already committed to a client seed`);
          if (typeof line.commitment !== "string" || !HEX64.test(line.commitment)) fail("client-commit commitment is not 64 lowercase hex digits");
          committed.set(seat, line.commitment);
          break;
        }
        case "client-reveal": {
          noExtra(index, line, ["type", "seat", "seed"]);
          const seat = seatNumber(index, line, seats);
          if (!humans.includes(seat)) fail(`seat ${seat} is played by a bot and brings no client seed`);
          const waiting = humans.filter((s) => !committed.has(s));
          // Otherwise a late seat could choose its seed knowing this one.
          if (waiting.length) fail(`seat ${seat} revealed its client seed before every seat committed (waiting for seats ${waiting.join(", ")})`);
          if (revealed.has(seat)) fail(`seat ${seat} has already revealed its client seed`);
          try {
            checkClientSeed(line.seed);
          } catch (error) {
            fail(`client-reveal seed: ${error.message}`);
          }
          if ((await clientCommitment(line.seed)) !== committed.get(seat)) fail(`seat ${seat}'s client seed does not match its commitment`);
          revealed.set(seat, line.seed);
          break;
        }
        case "start": {
          noExtra(index, line, ["type", "client_seeds", "bots"]);
          const expected = Array.from({ length: seats }, (_, s) => revealed.get(s) ?? "");
          const given = line.client_seeds;
          if (!Array.isArray(given) || given.length !== seats) fail(`start client_seeds must list one seed for each of the ${seats} seats`);
          for (let s = 0; s < seats; s++) {
            if (!same(given[s], expected[s])) {
              fail(`start client_seeds[${s}] is ${show(given[s])} but ${revealed.has(s) ? `seat ${s} revealed ${show(expected[s])}` : `seat ${s} revealed none`}`);
            }
          }
          const bots = report.seats.flatMap((seat, s) => (seat.bot || !revealed.has(s) ? [s] : []));
          if (!same(line.bots, bots)) fail(`start bots ${show(line.bots)} but the seats without a client seed are ${canonical(bots)}`);
          report.client_seeds = expected;
          report.bots = bots;
          return index;
        }
        case "abandon":
        case "reveal":
          return index;
        case "header":
          fail("a second header");
          break;
        default:
          fail(`a ${line.type} line before the start (client seeds come first)`);
      }
    }
    return end;
  }

  abandon(index, line) {
    noExtra(index, line, ["type", "reason"]);
    if (typeof line.reason !== "string" || [...line.reason].length > 200) throw new Fail(index, "abandon reason is text of at most 200 characters");
    this.report.abandoned = line.reason;
  }

  /** Replay the lines from the start line to `end`; returns the reveal's index (or `end`). */
  async play(start, end, seed) {
    const { report, lines } = this;
    const key = await gameKey(seed, report.game_id, report.client_seeds);
    const derive = (label, cards) => shuffle(key, label, cards);
    if (this.family) return this.deals(start, end, key);
    const match = (this.match = new Match(this.rules, report.seats.length, derive));
    const pending = await match.start();
    report.first_dealer = match.firstDealer;
    for (let index = start + 1; index < end; index++) {
      const line = lines[index];
      if (pending.length) {
        compare(index, line, pending.shift());
        if (line.type === "draw-for-deal") report.draw = line.cards;
        continue;
      }
      const kind = line.type;
      if (kind === "reveal") {
        if (!match.over && report.abandoned === null) throw new Fail(index, "the server seed is revealed before the game is over");
        return index;
      }
      if (match.over || report.abandoned !== null) {
        throw new Fail(index, `a ${kind} line after the ${report.abandoned !== null ? "abandon" : "match-end"}: only the reveal may follow`);
      }
      if (kind === "move") {
        if (!Number.isInteger(line.seat)) throw new Fail(index, `move seat ${show(line.seat)} is not a seat number`);
        if ("auto" in line && line.auto !== true) throw new Fail(index, `move auto ${show(line.auto)}: auto is true when present`);
        let events;
        try {
          events = await match.apply(line.seat, moveFromJson(line), { auto: line.auto === true });
        } catch (error) {
          if (error instanceof IllegalMove || error instanceof MoveError) throw new Fail(index, error.message);
          throw error;
        }
        compare(index, line, events[0]);
        pending.push(...events.slice(1));
        report.moves += 1;
      } else if (kind === "abandon") {
        this.abandon(index, line);
      } else if (["client-commit", "client-reveal", "start"].includes(kind)) {
        throw new Fail(index, `a ${kind} line after the start: the client seeds were fixed at the start`);
      } else {
        throw new Fail(index, `a ${kind} line where the rules expect a move`);
      }
    }
    return end;
  }

  /** Deals only: check the draw for the first dealer and derive every deal. */
  async deals(start, end, key) {
    const { report, lines } = this;
    const seats = report.seats.length;
    for (let index = start + 1; index < end; index++) {
      const line = lines[index];
      if (line.type === "reveal") return index;
      if (line.type === "draw-for-deal") {
        const { dealer, cards } = await drawForDeal(this.family, seats, (label, c) => shuffle(key, label, c));
        compare(index, line, { type: "draw-for-deal", cards, dealer });
        report.first_dealer = dealer;
        report.draw = cards;
      } else if (line.type === "deal" && Number.isInteger(line.hand) && Number.isInteger(line.dealer)) {
        // Deals are numbered from 1 and pass to the left, the first from the draw's dealer.
        const before = this.derived.at(-1);
        const hand = before ? before.hand + 1 : 1;
        const dealer = before ? (before.dealer + 1) % seats : report.first_dealer;
        if (line.hand !== hand) throw new Fail(index, `deal hand ${show(line.hand)} but this is hand ${hand}`);
        if (line.dealer !== dealer) throw new Fail(index, `deal dealer ${show(line.dealer)} but the deal passes to seat ${dealer}`);
        const family = this.family;
        const order = await shuffle(key, `hand/${line.hand}/deal`, family.cards(seats));
        const entry = { hand: line.hand, dealer: line.dealer, deal: null, restocks: [], result: null, scores: null, totals: null };
        let dealt = order.length;
        if (family.deal) {
          // Michigan's extra hand, Commit's stops: the game's own deal.
          Object.assign(entry, family.deal(order, seats, line.dealer));
        } else {
          const size = family.size(seats);
          dealt = size === "all" ? order.length : size * seats;
          entry.deal = dealRound(order, seats, line.dealer, dealt);
        }
        if (family.starter) {
          // The starter, turned from the stock as the game turns it.
          const turned = family.starter(order.slice(dealt));
          if ("turned" in line && !same(line.turned, turned)) throw new Fail(index, `deal turned ${show(line.turned)} but the seed gives ${show(turned)}`);
          Object.assign(entry, { starter: turned.at(-1), turned });
        }
        this.derived.push(entry);
      } else if (line.type === "hand-end") {
        const hand = this.derived.find((h) => h.hand === line.hand);
        if (hand && "layout" in line) hand.layout = line.layout;
        if (hand) Object.assign(hand, { result: { how: line.how, winners: line.winners, counts: line.counts }, scores: line.scores, totals: line.totals });
        if (hand) this.family.follow?.(hand, line);
      } else if ((line.type === "move" || line.type === "chips") && this.derived.length) {
        // What the game reads from its moves for the report (who took an extra hand, say).
        this.family.follow?.(this.derived.at(-1), line);
      } else if (line.type === "match-end") {
        report.standings = line.standings;
      } else if (line.type === "abandon") {
        this.abandon(index, line);
      }
    }
    return end;
  }

  /** Copy the hands (and the standings, once the match is over) into the report. */
  finish() {
    const { match, report } = this;
    if (this.family) {
      report.hands = this.derived;
      return;
    }
    if (!match) return;
    report.hands = match.hands.map((h) => ({
      hand: h.hand,
      dealer: h.dealer,
      ...h.summary,
      result: { how: h.result.how, winners: h.result.winners, counts: h.result.counts, reason: h.result.reason },
      scores: h.result.scores,
      totals: h.totals,
    }));
    if (match.hands.length) report.totals = [...match.totals];
    if (match.over) report.standings = match.standings;
  }
}

/**
 * Check a whole record, given as its bytes or text (or its lines already
 * parsed): never throws; the report says VERIFIED (verified: true) or where
 * the first fault is (error: {line, reason}). For a game this page does not
 * replay, deals_only is true and verified false even when nothing failed.
 *
 * `key` (64 hex digits) pins the server's published public key instead of
 * trusting the one the header names.
 */
export async function verifyRecord(input, { key = null } = {}) {
  const report = newReport();
  try {
    if (key !== null && !HEX64.test(key.trim().toLowerCase())) throw new RecordError(null, "a server key is 64 hex digits (the raw Ed25519 public key)");
    await verifyInto(input, report, key === null ? null : key.trim().toLowerCase());
  } catch (error) {
    if (error instanceof RecordError) failAt(report, error.line ?? 1, error.reason);
    else failAt(report, 1, `the check stopped: ${error?.message ?? error}`);
  }
  report.verified = report.error === null && !report.deals_only;
  return report;
}

async function verifyInto(input, report, key) {
  let lines = input;
  if (!Array.isArray(input)) {
    const read = readLines(input);
    lines = read.lines;
    if (read.failure) failAt(report, read.failure.line, read.failure.reason);
  }
  report.lines = lines.length;
  if (!lines.length) {
    failAt(report, 1, "the record is empty");
    return;
  }
  if (lines[0].type === "header" && lines[0].kind === "session") {
    await verifySession(lines, report, key);
    return;
  }
  const replay = new Replay(lines, report, key);
  replay.game = await gameOf(lines[0].rules);
  try {
    replay.header();
  } catch (error) {
    if (error instanceof Fail) {
      failAt(report, error.index + 1, error.reason);
      return;
    }
    throw error;
  }
  report.deals_only = Boolean(replay.family);
  try {
    await chain(lines, report.server_key);
  } catch (error) {
    if (!(error instanceof RecordError)) throw error;
    failAt(report, error.line, error.reason);
  }
  const end = report.error === null ? lines.length : report.error.line - 1;
  try {
    const seed = await replay.serverSeed();
    const start = await replay.seeds(end);
    if (start < end) {
      const kind = lines[start].type;
      let reveal;
      if (kind === "reveal") throw new Fail(start, "the server seed is revealed before the game is over");
      if (kind === "abandon") {
        replay.abandon(start, lines[start]);
        reveal = start + 1;
        if (reveal < end && lines[reveal].type !== "reveal") {
          throw new Fail(reveal, `a ${lines[reveal].type} line after the abandon: only the reveal may follow`);
        }
      } else if (seed === null) {
        reveal = end;
      } else {
        reveal = await replay.play(start, end, seed);
      }
      if (reveal + 1 < end) throw new Fail(reveal + 1, `a ${lines[reveal + 1].type} line after the reveal: the reveal is the last line`);
    }
    // Finished or not, a record without its reveal proves nothing yet.
    if (report.error === null && lines[lines.length - 1].type !== "reveal") throw new Fail(end - 1, NOT_REVEALED);
  } catch (error) {
    if (!(error instanceof Fail)) throw error;
    failAt(report, error.index + 1, error.reason);
  } finally {
    replay.finish();
  }
}

// -- dealing sessions (spec/sessions.md) ---------------------------------------

export const MAX_SESSION_SEATS = 16;
export const MAX_SHUFFLE_CARDS = 1024;
const SESSION_HEADER = new Set(["type", "format", "protocol", "kind", "game_id", "rules", "seats", "label_prefix", "commitment", "server_key", "created"]);

/**
 * A dealing session's record: protocol v1 without a game. Checked for deals
 * only (the chain, the commit-reveal, the seed, every shuffle request); after
 * the reveal each shuffle's order is derived here (the record never holds it),
 * for whoever knows the operator's game to compare.
 */
async function verifySession(lines, report, key) {
  report.kind = "session";
  report.shuffles = [];
  const replay = new Replay(lines, report, key);
  try {
    sessionHeader(lines[0], report, key);
  } catch (error) {
    if (!(error instanceof Fail)) throw error;
    failAt(report, error.index + 1, error.reason);
    return;
  }
  try {
    await chain(lines, report.server_key);
  } catch (error) {
    if (!(error instanceof RecordError)) throw error;
    failAt(report, error.line, error.reason);
  }
  const end = report.error === null ? lines.length : report.error.line - 1;
  try {
    const seed = await replay.serverSeed();
    await sessionLines(lines, end, report, seed);
    if (report.error === null && lines[lines.length - 1].type !== "reveal") throw new Fail(end - 1, NOT_REVEALED);
  } catch (error) {
    if (!(error instanceof Fail)) throw error;
    failAt(report, error.index + 1, error.reason);
  }
}

function sessionHeader(line, report, key) {
  const fail = (reason) => {
    throw new Fail(0, reason);
  };
  if (line.format !== FORMAT) fail(`unknown record format ${show(line.format)}: this page reads ${FORMAT} only`);
  if (line.protocol !== PROTOCOL) fail(`unknown fairness protocol ${show(line.protocol)}: this page knows ${PROTOCOL} only`);
  const extra = Object.keys(line).filter((k) => !SESSION_HEADER.has(k) && !CHAIN_FIELDS.has(k)).sort();
  if (extra.length) fail(`a session header has no field "${extra[0]}"`);
  try {
    report.game_id = checkGameId(line.game_id);
  } catch (error) {
    fail(`header game_id: ${error.message}`);
  }
  if (line.rules !== null) fail("a session header has rules null");
  if (!Number.isInteger(line.seats) || line.seats < 1 || line.seats > MAX_SESSION_SEATS) {
    fail(`session seats ${show(line.seats)}: a session has 1 to ${MAX_SESSION_SEATS} client seeds`);
  }
  if (typeof line.label_prefix !== "string" || line.label_prefix.length > 32 || !/^[a-z0-9/_-]*$/.test(line.label_prefix)) {
    fail("label_prefix is at most 32 characters of a-z 0-9 / _ -");
  }
  report.label_prefix = line.label_prefix;
  report.seats = Array.from({ length: line.seats }, (_, s) => ({ seat: s, name: `seat ${s}`, bot: false }));
  headerKeys(line, report, key);
}

async function sessionLines(lines, end, report, seed) {
  const seats = report.seats.length;
  const committed = new Map();
  const revealed = new Map();
  const labels = new Set();
  let started = false;
  let key = null;
  for (let index = 1; index < end; index++) {
    const line = lines[index];
    const kind = line.type;
    const fail = (reason) => {
      throw new Fail(index, reason);
    };
    if (kind === "reveal") {
      if (index + 1 < end) throw new Fail(index + 1, `a ${lines[index + 1].type} line after the reveal: the reveal is the last line`);
      return;
    }
    if ((kind === "client-commit" || kind === "client-reveal") && started) fail(`a ${kind} line after the start: the client seeds were fixed at the start`);
    if (kind === "client-commit") {
      noExtra(index, line, ["type", "seat", "commitment"]);
      const seat = seatNumber(index, line, seats);
      if (committed.has(seat)) fail(`seat ${seat} has already committed to a client seed`);
      if (typeof line.commitment !== "string" || !HEX64.test(line.commitment)) fail("client-commit commitment is not 64 lowercase hex digits");
      committed.set(seat, line.commitment);
    } else if (kind === "client-reveal") {
      noExtra(index, line, ["type", "seat", "seed"]);
      const seat = seatNumber(index, line, seats);
      const waiting = Array.from({ length: seats }, (_, s) => s).filter((s) => !committed.has(s));
      if (waiting.length) fail(`seat ${seat} revealed its client seed before every seat committed (waiting for seats ${waiting.join(", ")})`);
      if (revealed.has(seat)) fail(`seat ${seat} has already revealed its client seed`);
      try {
        checkClientSeed(line.seed);
      } catch (error) {
        fail(`client-reveal seed: ${error.message}`);
      }
      if ((await clientCommitment(line.seed)) !== committed.get(seat)) fail(`seat ${seat}'s client seed does not match its commitment`);
      revealed.set(seat, line.seed);
    } else if (kind === "start") {
      if (started) fail("a second start");
      noExtra(index, line, ["type", "client_seeds"]);
      const expected = Array.from({ length: seats }, (_, s) => revealed.get(s) ?? "");
      if (!Array.isArray(line.client_seeds) || line.client_seeds.length !== seats) fail(`start client_seeds must list one seed for each of the ${seats} seats`);
      line.client_seeds.forEach((value, s) => {
        if (value !== expected[s]) fail(`start client_seeds[${s}] is ${show(value)} but ${revealed.has(s) ? `seat ${s} revealed ${show(expected[s])}` : `seat ${s} revealed none`}`);
      });
      started = true;
      report.client_seeds = expected;
      if (seed !== null) key = await gameKey(seed, report.game_id, expected);
    } else if (kind === "shuffle") {
      if (!started) fail("a shuffle before the start (the client seeds are still open)");
      report.shuffles.push(await sessionShuffle(index, line, report.label_prefix, labels, key));
    } else {
      fail(`a ${kind} line: a dealing session has none`);
    }
  }
}

async function sessionShuffle(index, line, prefix, labels, key) {
  const fail = (reason) => {
    throw new Fail(index, reason);
  };
  noExtra(index, line, ["type", "label", "cards", "count"]);
  if (!("sig" in line)) fail("a shuffle line is not signed");
  const { label, cards, count } = line;
  try {
    checkLabel(label);
  } catch (error) {
    fail(`shuffle label: ${error.message}`);
  }
  if (!label.startsWith(prefix)) fail(`shuffle label ${show(label)} does not start with the session's prefix ${show(prefix)}`);
  if (labels.has(label)) fail(`label ${show(label)} has already dealt in this session`);
  labels.add(label);
  if (!Array.isArray(cards) || cards.length < 1 || cards.length > MAX_SHUFFLE_CARDS) fail(`shuffle cards: a shuffle takes 1 to ${MAX_SHUFFLE_CARDS} card codes`);
  for (const code of cards) if (!isCard(code)) fail(`shuffle cards: ${show(code)} is not a card code (A23456789TJQK then CDHS)`);
  if (!Number.isInteger(count) || count !== cards.length) fail(`shuffle count ${show(count)} but it lists ${cards.length} cards`);
  const derived = { label, count, cards: [...cards] };
  if (key !== null) derived.order = await shuffle(key, label, cards);
  return derived;
}
