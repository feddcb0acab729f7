// Fairness protocol v1 (spec/fairness.md) in the browser.
//
// An implementation of its own, written from the spec, so that a player who
// checks a game here need not trust the server's code: SHA-256 and
// HMAC-SHA256 come from Web Crypto (crypto.subtle). Where the page is not a
// secure context (plain http on a LAN address) the browser hides
// crypto.subtle; then the small SHA-256 at the end of this file stands in,
// so a phone on the local network can still commit to its client seed.
//
//   await commitment("00".repeat(32))
//   // "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925"
//   const key = await gameKey("00".repeat(32), "demo", ["alice", ""]);
//   (await shuffle(key, "hand/1/deal", pack())).slice(0, 5)
//   // ["7H", "JD", "5S", "6C", "5C"]

export const PROTOCOL = "fairdeal/v1";
export const MAX_CLIENT_SEED_BYTES = 128;
export const MAX_GAME_ID_BYTES = 128;

const TWO32 = 2 ** 32;
const LABEL = /^[a-z0-9/_-]{1,64}$/;
const HEX64 = /^[0-9a-f]{64}$/;

/** Input the protocol refuses (bad hex, bad label, an oversized client seed). */
export class FairnessError extends Error {
  constructor(message) {
    super(message);
    this.name = "FairnessError";
  }
}

// -- bytes ---------------------------------------------------------------

const encoder = new TextEncoder();

/** A string as UTF-8 bytes. */
export function utf8(text) {
  return encoder.encode(text);
}

/** Lowercase hex of bytes. */
export function toHex(bytes) {
  let out = "";
  for (const b of bytes) out += b.toString(16).padStart(2, "0");
  return out;
}

/** Bytes from hex (even length, 0-9a-f in either case). */
export function fromHex(text) {
  if (typeof text !== "string" || text.length % 2 || !/^[0-9a-fA-F]*$/.test(text)) {
    throw new FairnessError("not hex digits");
  }
  const out = new Uint8Array(text.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(text.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** The concatenation of byte arrays. */
export function concat(...parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** u32(n): 4 bytes, big-endian, unsigned. */
export function u32(n) {
  if (!Number.isInteger(n) || n < 0 || n >= TWO32) throw new FairnessError(`u32 out of range: ${n}`);
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, n, false);
  return out;
}

/** u64(n): 8 bytes, big-endian, unsigned (n a Number up to 2^53 or a BigInt). */
export function u64(n) {
  const big = BigInt(n);
  if (big < 0n || big >= 1n << 64n) throw new FairnessError(`u64 out of range: ${n}`);
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, big, false);
  return out;
}

/** lp(x) = u32(len(b)) || b, with b the bytes of x (a string is UTF-8). */
export function lp(value) {
  const bytes = typeof value === "string" ? utf8(value) : value;
  return concat(u32(bytes.length), bytes);
}

// -- hashing -------------------------------------------------------------

const subtle = globalThis.crypto?.subtle;

/** Whether the page has Web Crypto (it needs https or localhost). */
export const HAS_WEB_CRYPTO = Boolean(subtle);

/** SHA-256 of bytes, 32 bytes. */
export async function sha256(bytes) {
  if (subtle) return new Uint8Array(await subtle.digest("SHA-256", bytes));
  return sha256Js(bytes);
}

/** An HMAC-SHA256 under one key, for many messages: `const mac = await hmacKey(k); await mac(m)`. */
export async function hmacKey(key) {
  // Web Crypto refuses an empty key, which HMAC allows (the protocol never uses one).
  if (subtle && key.length) {
    const k = await subtle.importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    return async (msg) => new Uint8Array(await subtle.sign("HMAC", k, msg));
  }
  return async (msg) => hmacJs(key, msg);
}

/** HMAC-SHA256(key, msg), 32 bytes. */
export async function hmac(key, msg) {
  return (await hmacKey(key))(msg);
}

// -- seeds, commitments, the game key -------------------------------------

/**
 * The 32 bytes of a server seed written as 64 hex digits (upper case and
 * surrounding spaces accepted). The error never repeats the input: it may be
 * a real seed.
 */
export function parseServerSeed(serverSeed) {
  if (typeof serverSeed !== "string") throw new FairnessError("the server seed must be a string of 64 hex digits");
  const text = serverSeed.trim().toLowerCase();
  if (text.length !== 64) {
    throw new FairnessError(`the server seed must be 64 hex digits (32 bytes), not ${text.length} characters`);
  }
  if (!HEX64.test(text)) throw new FairnessError("the server seed must be hex digits 0-9a-f only");
  return fromHex(text);
}

/** The fingerprint published at the start: SHA-256 of the 32 seed bytes, hex. */
export async function commitment(serverSeed) {
  return toHex(await sha256(parseServerSeed(serverSeed)));
}

/** The seed if it is a string of at most 128 UTF-8 bytes. */
export function checkClientSeed(seed) {
  if (typeof seed !== "string") throw new FairnessError("a client seed must be a string");
  const size = utf8(seed).length;
  if (size > MAX_CLIENT_SEED_BYTES) {
    throw new FairnessError(`a client seed is at most ${MAX_CLIENT_SEED_BYTES} UTF-8 bytes, this one is ${size}`);
  }
  return seed;
}

/** A seat's commitment to its client seed: SHA-256(lp("fairdeal/v1/client") || lp(seed)), hex. */
export async function clientCommitment(seed) {
  checkClientSeed(seed);
  return toHex(await sha256(concat(lp("fairdeal/v1/client"), lp(seed))));
}

/** The game id if it is 1 to 128 UTF-8 bytes with no control character. */
export function checkGameId(gameId) {
  if (typeof gameId !== "string" || !gameId) throw new FairnessError("a game id must be a non-empty string");
  const size = utf8(gameId).length;
  if (size > MAX_GAME_ID_BYTES) {
    throw new FairnessError(`a game id is at most ${MAX_GAME_ID_BYTES} UTF-8 bytes, this one is ${size}`);
  }
  if (/[\u0000-\u001f\u007f]/.test(gameId)) throw new FairnessError("a game id must not contain control characters");
  return gameId;
}

/** The label if it is 1 to 64 characters of a-z 0-9 / _ -. */
export function checkLabel(label) {
  if (typeof label !== "string" || !LABEL.test(label)) {
    throw new FairnessError(`a label is 1 to 64 characters of a-z 0-9 / _ -, not ${JSON.stringify(String(label).slice(0, 80))}`);
  }
  return label;
}

/**
 * The 32-byte game key; `clientSeeds` has one entry per seat, in seat order
 * ("" for a seat without one).
 * HMAC(server_seed, lp("fairdeal/v1/game") || lp(game_id) || u32(n) || lp(seed_0) || ...)
 */
export async function gameKey(serverSeed, gameId, clientSeeds) {
  const key = parseServerSeed(serverSeed);
  checkGameId(gameId);
  if (!Array.isArray(clientSeeds)) throw new FairnessError("client seeds must be a list with one seed per seat");
  const parts = [lp("fairdeal/v1/game"), lp(gameId), u32(clientSeeds.length)];
  for (const seed of clientSeeds) parts.push(lp(checkClientSeed(seed)));
  return hmac(key, concat(...parts));
}

/** K = HMAC(game_key, lp("fairdeal/v1/shuffle") || lp(label)): the key of one label's stream. */
export async function labelKey(key, label) {
  return hmac(key, concat(lp("fairdeal/v1/shuffle"), lp(checkLabel(label))));
}

// -- the stream, uniform(n), the shuffle ----------------------------------

/**
 * The byte stream of one label, HMAC(K, u64(0)) || HMAC(K, u64(1)) || ...,
 * read in 4-byte big-endian words.
 *
 *   const stream = await Stream.open(key, "hand/1/deal");
 *   await stream.uniform(52)   // 0 <= j < 52
 */
export class Stream {
  constructor(mac) {
    this._mac = mac;
    this._block = 0; // the next block to compute
    this._words = []; // fetched, unread words
  }

  static async open(key, label) {
    return new Stream(await hmacKey(await labelKey(key, label)));
  }

  /** Fetch at least `count` more words (whole blocks, computed together). */
  async _more(count) {
    const blocks = Math.ceil(count / 8);
    const start = this._block;
    this._block += blocks;
    const macs = await Promise.all(Array.from({ length: blocks }, (_, i) => this._mac(u64(start + i))));
    for (const block of macs) {
      const view = new DataView(block.buffer, block.byteOffset, block.byteLength);
      for (let i = 0; i < 32; i += 4) this._words.push(view.getUint32(i, false));
    }
  }

  /** The next word of the stream, an unsigned integer below 2^32. */
  async u32() {
    if (!this._words.length) await this._more(1);
    return this._words.shift();
  }

  /** The next `n` bytes (a multiple of 4). */
  async read(n) {
    if (!Number.isInteger(n) || n < 0 || n % 4) throw new FairnessError("the stream is read in whole 4-byte words");
    const parts = [];
    for (let i = 0; i < n / 4; i++) parts.push(u32(await this.u32()));
    return concat(...parts);
  }

  /**
   * A uniform integer in [0, n), 1 <= n <= 2^32, without modulo bias: read a
   * word x; if x < 2^32 - (2^32 mod n) return x mod n, else read again.
   * (Every number here stays below 2^53, so plain doubles are exact.)
   */
  async uniform(n) {
    if (!Number.isInteger(n) || n < 1 || n > TWO32) throw new FairnessError(`uniform(n) needs 1 <= n <= 2^32, not ${n}`);
    const limit = TWO32 - (TWO32 % n);
    for (;;) {
      const x = await this.u32();
      if (x < limit) return x % n;
    }
  }

  /** Fisher-Yates from the back with uniform(i + 1); element 0 is the top of the stock. */
  async shuffle(items) {
    const a = Array.from(items);
    // One word per step unless a word is rejected (probability below 2^-20 here).
    if (a.length > 1 && this._words.length < a.length - 1) await this._more(a.length - 1 - this._words.length);
    for (let i = a.length - 1; i >= 1; i--) {
      const j = await this.uniform(i + 1);
      [a[i], a[j]] = [a[j], a[i]];
    }
    return a;
  }
}

/** The protocol's shuffle of `items` by the stream of `label` under game key `key`; `items` is not changed. */
export async function shuffle(key, label, items) {
  return (await Stream.open(key, label)).shuffle(items);
}

// -- cards: codes and order -------------------------------------------------

/** Rank letters in card order: ace low. */
export const RANKS = "A23456789TJQK";
/** Suit letters in card order: clubs, diamonds, hearts, spades. */
export const SUITS = "CDHS";

const CODE = /^[A23456789TJQK][CDHS]$/;

/** Whether `code` is a card code such as "AC", "TD", "KS". */
export function isCard(code) {
  return typeof code === "string" && CODE.test(code);
}

/** A card's place in one pack's card order, 0 (AC) to 51 (KS). */
export function cardIndex(code) {
  if (!isCard(code)) throw new FairnessError(`not a card code: ${JSON.stringify(code)}`);
  return SUITS.indexOf(code[1]) * 13 + RANKS.indexOf(code[0]);
}

/** One pack's 52 codes in card order. */
export const ALL_CARDS = Object.freeze(Array.from(SUITS, (s) => Array.from(RANKS, (r) => r + s)).flat());

/** A game pack of `packs` packs in card order: pack 1's 52 cards, then pack 2's... */
export function pack(packs = 1) {
  if (!Number.isInteger(packs) || packs < 1) throw new FairnessError("the number of packs must be a positive integer");
  return Array.from({ length: packs }, () => ALL_CARDS).flat();
}

/** Codes sorted into card order (a new array). */
export function sortCards(codes) {
  return [...codes].sort((a, b) => cardIndex(a) - cardIndex(b));
}

// -- SHA-256 for pages without Web Crypto ----------------------------------
// FIPS 180-4, written plainly; used only when crypto.subtle is missing. The
// tests check it against Web Crypto.

const K256 = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

/** SHA-256 in plain JavaScript (all arithmetic kept to unsigned 32 bits with >>> 0). */
export function sha256Js(bytes) {
  const bitLength = bytes.length * 8;
  const padded = new Uint8Array(Math.ceil((bytes.length + 9) / 64) * 64);
  padded.set(bytes);
  padded[bytes.length] = 0x80;
  const tail = new DataView(padded.buffer);
  tail.setUint32(padded.length - 8, Math.floor(bitLength / TWO32), false);
  tail.setUint32(padded.length - 4, bitLength >>> 0, false);
  const h = new Uint32Array([
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
  ]);
  const w = new Uint32Array(64);
  const rotr = (x, n) => (x >>> n) | (x << (32 - n));
  for (let off = 0; off < padded.length; off += 64) {
    for (let i = 0; i < 16; i++) w[i] = tail.getUint32(off + 4 * i, false);
    for (let i = 16; i < 64; i++) {
      const s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >>> 3);
      const s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >>> 10);
      w[i] = (w[i - 16] + s0 + w[i - 7] + s1) >>> 0;
    }
    let [a, b, c, d, e, f, g, hh] = h;
    for (let i = 0; i < 64; i++) {
      const t1 = (hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K256[i] + w[i]) >>> 0;
      const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
      hh = g;
      g = f;
      f = e;
      e = (d + t1) >>> 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) >>> 0;
    }
    h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e; h[5] += f; h[6] += g; h[7] += hh;
  }
  const out = new Uint8Array(32);
  const view = new DataView(out.buffer);
  for (let i = 0; i < 8; i++) view.setUint32(4 * i, h[i], false);
  return out;
}

/** HMAC-SHA256 (RFC 2104) over sha256Js. */
export function hmacJs(key, msg) {
  let k = key.length > 64 ? sha256Js(key) : key;
  const block = new Uint8Array(64);
  block.set(k);
  const inner = block.map((b) => b ^ 0x36);
  const outer = block.map((b) => b ^ 0x5c);
  return sha256Js(concat(outer, sha256Js(concat(inner, msg))));
}
