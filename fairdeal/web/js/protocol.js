// What the table page computes itself: a seat's commitment to its client seed (spec/fairness.md,
// section 3), made in the player's browser so that the seed stays there until the reveal, and the
// card codes the pages read. Everything a verdict rests on (the game key, the shuffles, the replay)
// is fairdeal's own Python, run by the verify page's worker (verify-worker.js); nothing here re-derives it.
//
// SHA-256 comes from Web Crypto (crypto.subtle). Where the page is not a secure context (plain
// http on a LAN address) the browser hides crypto.subtle; then @noble/hashes' SHA-256 (fetched by
// `make` into /vendor/, loaded only then) stands in, so a phone on the local network can still
// commit to its client seed.
//
//   await clientCommitment("alice")
//   // "36e3a00adca4299076cc074780294b856a6d1610d74d9f0785206916183f01c5", as `fairdeal client-commitment alice` prints it

export const MAX_CLIENT_SEED_BYTES = 128;

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
  return sha256WithoutWebCrypto(bytes);
}

/** SHA-256 by @noble/hashes, the stand-in for pages without Web Crypto (its module is loaded once, when first needed). */
export async function sha256WithoutWebCrypto(bytes) {
  const { sha256: noble } = await import("/vendor/noble-hashes/sha2.js");
  return noble(bytes);
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
