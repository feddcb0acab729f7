// What the table page computes itself: a seat's commitment to its client seed (spec/fairness.md,
// section 3), made in the player's browser so that the seed stays there until the reveal, and the
// card codes the pages read. Everything a verdict rests on (the game key, the shuffles, the replay)
// is fairdeal's own Python, run by the verify page's worker (verify-worker.js); nothing here re-derives it.
//
// SHA-256 comes from Web Crypto (crypto.subtle). Where the page is not a secure context (plain
// http on a LAN address) the browser hides crypto.subtle; then the small SHA-256 at the end of this
// file stands in, so a phone on the local network can still commit to its client seed.
//
//   await clientCommitment("alice")
//   // "36e3a00adca4299076cc074780294b856a6d1610d74d9f0785206916183f01c5", as `fairdeal client-commitment alice` prints it

export const MAX_CLIENT_SEED_BYTES = 128;

const TWO32 = 2 ** 32;

/** Input the protocol refuses (an oversized client seed). */
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

/** lp(x) = u32(len(b)) || b, with b the bytes of x (a string is UTF-8). */
export function lp(value) {
  const bytes = typeof value === "string" ? utf8(value) : value;
  const out = new Uint8Array(4 + bytes.length);
  new DataView(out.buffer).setUint32(0, bytes.length, false);
  out.set(bytes, 4);
  return out;
}

// -- hashing and the client seed's commitment ---------------------------------

const subtle = globalThis.crypto?.subtle;

/** Whether the page has Web Crypto (it needs https or localhost). */
export const HAS_WEB_CRYPTO = Boolean(subtle);

/** SHA-256 of bytes, 32 bytes. */
export async function sha256(bytes) {
  if (subtle) return new Uint8Array(await subtle.digest("SHA-256", bytes));
  return sha256Js(bytes);
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

// -- cards: codes and order -------------------------------------------------

/** Rank letters in card order: ace low. */
export const RANKS = "A23456789TJQK";
/** Suit letters in card order: clubs, diamonds, hearts, spades. */
export const SUITS = "CDHS";

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
