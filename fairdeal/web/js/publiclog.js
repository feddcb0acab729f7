// The table page's check of the public log (spec/log.md): that this game's start entry (and its end
// entry, once the game is over) is in a tree the server signed, and that the server never shows this
// browser two different trees (a split view, spec/log.md section 7).
//
// Everything here is checked in the browser, against the signed checkpoint only (never the `root`
// fields of the server's JSON): the entry's leaf hash, its RFC 9162 inclusion proof, the checkpoint's
// C2SP signed-note signature by the record header's server key, and the consistency proof from the
// newest checkpoint this browser kept for the log's origin. fairdeal/tlog.py is the Python reference
// of every algorithm below; spec/vectors/log.json is their worked example.
//
//   const result = await checkRecordLog(await (await fetch(`/games/${id}/log`)).json(), serverKey, { id, commitment });
//   result.ok        // true: every entry checked
//   result.entries   // [{index, type, entry}]
//   result.signature // "checked", or "unavailable" where the browser has no Ed25519

import { t } from "./i18n.js";
import { sha256, concat, utf8, toHex } from "./protocol.js";

/** A proof, entry or checkpoint that does not hold; the message says which and why. */
export class LogCheckError extends Error {
  constructor(message) {
    super(message);
    this.name = "LogCheckError";
  }
}

// -- bytes ---------------------------------------------------------------

/** Bytes of lowercase (or uppercase) hex; LogCheckError if it is not hex. */
export function fromHex(hex) {
  if (typeof hex !== "string" || hex.length % 2 || /[^0-9a-fA-F]/.test(hex)) throw new LogCheckError(`${String(hex).slice(0, 20)} is not hex`);
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

function fromBase64(text) {
  let raw;
  try {
    raw = atob(text);
  } catch {
    return null;
  }
  const out = Uint8Array.from(raw, (c) => c.charCodeAt(0));
  // Only the one canonical spelling (padding included), as fairdeal.tlog.parse_checkpoint asks.
  return btoa(raw) === text ? out : null;
}

function equal(a, b) {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

// -- RFC 9162 section 2.1.1: hashing ----------------------------------------------

/** SHA-256(0x00 || entry): the leaf hash of an entry (its canonical JSON text, as the server gave it). */
export async function leafHash(entry) {
  return sha256(concat(new Uint8Array([0]), typeof entry === "string" ? utf8(entry) : entry));
}

/** SHA-256(0x01 || left || right). */
export async function nodeHash(left, right) {
  return sha256(concat(new Uint8Array([1]), left, right));
}

// Indexes and sizes go up to 2**53 (JSON's exact integers): halved by division, since JavaScript's
// bit operators would cut them to 32 bits.
const half = (n) => Math.floor(n / 2);
const odd = (n) => n % 2 === 1;

function hashes(proof) {
  if (!Array.isArray(proof)) throw new LogCheckError("a proof is a list of hashes");
  return proof.map((p) => {
    const bytes = typeof p === "string" ? fromHex(p) : p;
    if (bytes.length !== 32) throw new LogCheckError("a proof is a list of 32-byte hashes");
    return bytes;
  });
}

function isSize(n) {
  return Number.isSafeInteger(n) && n >= 0;
}

/**
 * Check an inclusion proof as RFC 9162 section 2.1.3.2 says (fairdeal.tlog.verify_inclusion):
 * `leaf` the entry's leaf hash, `proof` hex or bytes, `root` the root of the tree of `size`.
 * Returns nothing; throws LogCheckError saying why it fails.
 */
export async function verifyInclusion(leaf, index, size, proof, root) {
  proof = hashes(proof);
  if (!isSize(index) || !isSize(size) || index >= size) throw new LogCheckError(`leaf index ${index} is not in a tree of ${size}`);
  // 2.1.3.2 steps 2-5: fn and sn walk up from the leaf and from the last leaf; r is the running hash.
  let fn = index;
  let sn = size - 1;
  let r = leaf;
  for (const p of proof) {
    if (sn === 0) throw new LogCheckError(`inclusion proof of leaf ${index} in a tree of ${size} is too long`);
    if (odd(fn) || fn === sn) {
      r = await nodeHash(p, r);
      // A right edge: skip the levels where this node has no sibling.
      if (!odd(fn)) while (fn !== 0 && !odd(fn)) [fn, sn] = [half(fn), half(sn)];
    } else {
      r = await nodeHash(r, p);
    }
    [fn, sn] = [half(fn), half(sn)];
  }
  if (sn !== 0) throw new LogCheckError(`inclusion proof of leaf ${index} in a tree of ${size} is too short`);
  if (!equal(r, root)) throw new LogCheckError(`inclusion proof of leaf ${index} in a tree of ${size} does not lead to the root`);
}

/** SHA-256 of nothing: the root of the empty tree. */
export const EMPTY_ROOT = fromHex("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");

/**
 * Check a consistency proof from the tree of `first` to that of `second` as RFC 9162 section 2.1.4.2
 * says (fairdeal.tlog.verify_consistency). first == second needs an empty proof and equal roots
 * (two roots for one size is a fork); first == 0 an empty proof.
 */
export async function verifyConsistency(first, second, firstRoot, secondRoot, proof) {
  proof = hashes(proof);
  const what = `consistency proof from size ${first} to ${second}`;
  if (!isSize(first) || !isSize(second) || first > second) throw new LogCheckError(`${what}: the sizes must be 0 <= first <= second`);
  if (first === 0 || first === second) {
    if (proof.length) throw new LogCheckError(`${what} must be empty`);
    if (first === 0 && !equal(firstRoot, EMPTY_ROOT)) throw new LogCheckError(`${what}: the root of an empty tree is SHA-256 of nothing`);
    if (first === second && !equal(firstRoot, secondRoot)) throw new LogCheckError(`${what}: two different roots for one size (a fork)`);
    return;
  }
  if (!proof.length) throw new LogCheckError(`${what} is empty`);
  // 2.1.4.2 step 1: when first is a power of two, the proof leaves out the first root itself.
  if (Number.isInteger(Math.log2(first))) proof = [firstRoot, ...proof];
  // Steps 2-4: fn, sn from the last leaves of both trees, past the levels where first's is a right child.
  let fn = first - 1;
  let sn = second - 1;
  while (odd(fn)) [fn, sn] = [half(fn), half(sn)];
  let fr = proof[0];
  let sr = proof[0];
  // Step 6: fr rebuilds the first root, sr the second.
  for (const c of proof.slice(1)) {
    if (sn === 0) throw new LogCheckError(`${what} is too long`);
    if (odd(fn) || fn === sn) {
      [fr, sr] = [await nodeHash(c, fr), await nodeHash(c, sr)];
      if (!odd(fn)) while (fn !== 0 && !odd(fn)) [fn, sn] = [half(fn), half(sn)];
    } else {
      sr = await nodeHash(sr, c);
    }
    [fn, sn] = [half(fn), half(sn)];
  }
  if (sn !== 0) throw new LogCheckError(`${what} is too short`);
  if (!equal(fr, firstRoot)) throw new LogCheckError(`${what} does not lead to the first root`);
  if (!equal(sr, secondRoot)) throw new LogCheckError(`${what} does not lead to the second root`);
}

// -- C2SP signed notes and checkpoints ---------------------------------------------------

const DASH = "\u2014 ";

/** The 4-byte key ID of an Ed25519 key in a signed note: SHA-256(name || 0x0A || 0x01 || key)[:4] (C2SP signed-note). */
export async function keyId(name, publicKey) {
  return (await sha256(concat(utf8(name), new Uint8Array([0x0a, 0x01]), publicKey))).slice(0, 4);
}

/** The origin, size and root of a checkpoint's text (C2SP tlog-checkpoint, as fairdeal.tlog.parse_checkpoint). */
export function parseCheckpoint(text) {
  if (!text.endsWith("\n")) throw new LogCheckError("a checkpoint's text ends with a newline");
  const [origin, size, root, ...extensions] = text.slice(0, -1).split("\n");
  if (root === undefined) throw new LogCheckError("a checkpoint has an origin, a tree size and a root hash");
  if (!origin) throw new LogCheckError("a checkpoint's origin is not empty");
  if (!/^(0|[1-9][0-9]{0,15})$/.test(size) || !Number.isSafeInteger(Number(size))) throw new LogCheckError(`checkpoint tree size ${size.slice(0, 24)} is not a decimal number`);
  const digest = fromBase64(root);
  if (!digest || digest.length !== 32) throw new LogCheckError("checkpoint root hash is not 32 bytes in base64");
  if (extensions.some((line) => !line)) throw new LogCheckError("a checkpoint's extension lines are not empty");
  return { origin, size: Number(size), root: digest };
}

async function importKey(publicKey) {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) return null;
  try {
    return await subtle.importKey("raw", publicKey, { name: "Ed25519" }, false, ["verify"]);
  } catch (error) {
    // A browser without Ed25519 says NotSupportedError; any other failure is a bad key.
    if (error?.name === "NotSupportedError") return null;
    throw new LogCheckError(`the server key ${toHex(publicKey).slice(0, 16)}… is not an Ed25519 key`);
  }
}

/**
 * The checkpoint a signed note holds, its signature by the key named after its origin checked with
 * `publicHex` (the record header's `server_key`): `{origin, size, root, note, signature}`, where
 * `signature` is "checked", or "unavailable" when this browser cannot check Ed25519 (then the
 * proofs are checked against an unsigned root, and the page says so). Signatures by other keys (a
 * witness's) are ignored; a bad one by the server's key, or none, is a LogCheckError.
 */
export async function verifyCheckpoint(note, publicHex) {
  if (typeof note !== "string" || note.length > 65536) throw new LogCheckError("not a signed checkpoint");
  const cut = note.lastIndexOf("\n\n");
  if (cut < 0 || !note.endsWith("\n")) throw new LogCheckError("not a signed note: no blank line before its signatures");
  const text = note.slice(0, cut + 1);
  if (/[\u0000-\u0009\u000b-\u001f]/.test(text)) throw new LogCheckError("a note holds no control characters but newlines");
  const checkpoint = parseCheckpoint(text);
  const name = checkpoint.origin;
  const publicKey = fromHex(publicHex);
  const want = await keyId(name, publicKey);
  let signature = null;
  for (const line of note.slice(cut + 2, -1).split("\n")) {
    if (!line.startsWith(DASH)) throw new LogCheckError("a signature line does not start with an em dash and a space");
    const [signer, sig64, ...rest] = line.slice(DASH.length).split(" ");
    const raw = sig64 === undefined ? null : fromBase64(sig64);
    if (!signer || !raw || raw.length < 5 || rest.length) throw new LogCheckError("a signature line is malformed");
    if (signer !== name || !equal(raw.slice(0, 4), want)) continue;
    signature = raw.slice(4);
  }
  if (!signature) throw new LogCheckError(`the checkpoint is not signed by ${name} with this game's server key`);
  const key = await importKey(publicKey);
  if (key === null) return { ...checkpoint, note, signature: "unavailable" };
  const good = await globalThis.crypto.subtle.verify({ name: "Ed25519" }, key, signature, utf8(text)).catch(() => false);
  if (!good) throw new LogCheckError(`the checkpoint's signature by ${name} does not verify under the server key`);
  return { ...checkpoint, note, signature: "checked" };
}

// -- witnesses' cosignatures (C2SP tlog-cosignature, cosignature/v1) -------------------

/**
 * A witness's note verifier key, `name+keyID+base64(0x04 || Ed25519 key)` (C2SP signed-note, as
 * fairdeal.cosignature.WitnessKey.parse reads it): `{name, id, publicKey}`. LogCheckError if it is
 * not one, or its key ID is not the key's.
 */
export async function parseWitnessKey(text) {
  // The name and key ID hold no "+"; base64 may.
  const [, name, id, key64] = /^([^+\s]+)\+([^+]*)\+(.*)$/.exec(String(text).trim()) ?? [];
  const raw = key64 === undefined ? null : fromBase64(key64);
  if (!name || !/^[0-9a-f]{8}$/.test(id) || !raw || raw.length !== 33 || raw[0] !== 0x04) {
    throw new LogCheckError(`${String(text).slice(0, 40)} is not a witness's cosignature/v1 verifier key`);
  }
  const publicKey = raw.slice(1);
  const keyID = (await sha256(concat(utf8(name), new Uint8Array([0x0a, 0x04]), publicKey))).slice(0, 4);
  if (toHex(keyID) !== id) throw new LogCheckError(`witness key ${name}: its key ID is not its key's`);
  return { name, id: keyID, publicKey };
}

/**
 * The witnesses of `keys` (parseWitnessKey's answers) whose cosignature of the checkpoint `note`
 * verifies, in the keys' order: `[{name, time}]`, `time` the witness's timestamp (seconds since
 * 1970). A witness's signed message is "cosignature/v1\ntime <time>\n" and the checkpoint's text.
 * A line by an unknown key, or one that does not verify, is not counted; null where this browser
 * cannot check Ed25519.
 */
export async function cosigners(note, keys) {
  const cut = note.lastIndexOf("\n\n");
  if (cut < 0 || !note.endsWith("\n")) throw new LogCheckError("not a signed note: no blank line before its signatures");
  const text = note.slice(0, cut + 1);
  const lines = note.slice(cut + 2, -1).split("\n").filter((line) => line.startsWith(DASH));
  const found = [];
  for (const key of keys) {
    for (const line of lines) {
      const [signer, sig64] = line.slice(DASH.length).split(" ");
      const raw = signer === key.name && sig64 !== undefined ? fromBase64(sig64) : null;
      if (!raw || raw.length !== 4 + 8 + 64 || !equal(raw.slice(0, 4), key.id)) continue;
      const time = new DataView(raw.buffer, raw.byteOffset + 4, 8).getBigUint64(0);
      const cryptoKey = await importKey(key.publicKey);
      if (cryptoKey === null) return null;
      const message = concat(utf8(`cosignature/v1\ntime ${time}\n`), utf8(text));
      const good = await globalThis.crypto.subtle.verify({ name: "Ed25519" }, cryptoKey, raw.slice(12), message).catch(() => false);
      if (good) {
        found.push({ name: key.name, time: Number(time) });
        break;
      }
    }
  }
  return found;
}

/**
 * Which of the witnesses `keyTexts` (verifier keys, as /.well-known/fairdeal-log's `witnesses`
 * lists them) cosigned the checkpoint `note`: `{of, cosigned}` (cosigners' answer), or null for a
 * log without witnesses. The list is the service's word; an auditor who pins the keys it trusts
 * runs `fairdeal audit --witness KEY --quorum K` (spec/log.md).
 */
export async function witnessesOf(note, keyTexts) {
  if (!keyTexts.length) return null;
  const keys = await Promise.all(keyTexts.map(parseWitnessKey));
  return { of: keys.length, cosigned: await cosigners(note, keys) };
}

/**
 * witnessesOf's answer (or `{error}`) in a sentence for the page, in its language (i18n.js, keys
 * "log.*"). The error's own words are the check's, in English, as LogCheckError says them.
 */
export function witnessWords(witnessed) {
  if (witnessed.error) return t("log.witnesses_unchecked", { reason: witnessed.error });
  const { of, cosigned } = witnessed;
  const witnesses = t("log.witnesses", { count: of });
  if (cosigned === null) return t("log.witnesses_no_ed25519", { witnesses });
  if (!cosigned.length) return t("log.witnesses_none", { witnesses });
  const names = cosigned.map((w) => w.name);
  const list = names.length === 1 ? names[0] : t("log.and", { rest: names.slice(0, -1).join(", "), last: names.at(-1) });
  return t("log.cosigned", { names: list, n: cosigned.length, witnesses });
}

// -- a record's entries -------------------------------------------------------------

/**
 * Check a record's entries (GET /games/{id}/log: `{checkpoint, entries: [{index, entry, inclusion}]}`,
 * or one entry as a commit receipt's `log` gives it with the entry's text added) against the
 * checkpoint, signed by `publicHex`. `expect` is what the start entry must say: `{id, commitment,
 * kind ("game"), rules}` (any left out is not compared). Never throws: `{ok, error, checkpoint,
 * entries: [{index, type, entry}]}` (`error` says what failed; `checkpoint` is set once it verified).
 */
export async function checkRecordLog(log, publicHex, expect = {}) {
  const result = { ok: false, error: null, checkpoint: null, entries: [] };
  try {
    const checkpoint = await verifyCheckpoint(log.checkpoint, publicHex);
    result.checkpoint = checkpoint;
    if (!Array.isArray(log.entries) || !log.entries.length) throw new LogCheckError("the log gave no entry for this game");
    for (const { index, entry, inclusion } of log.entries) {
      let parsed;
      try {
        parsed = JSON.parse(entry);
      } catch {
        throw new LogCheckError(`entry ${index} is not JSON`);
      }
      if (index >= checkpoint.size) throw new LogCheckError(`entry ${index} is not in the checkpoint of size ${checkpoint.size}`);
      try {
        await verifyInclusion(await leafHash(entry), index, checkpoint.size, inclusion, checkpoint.root);
      } catch (error) {
        throw new LogCheckError(`entry ${index}: ${error.message}`);
      }
      result.entries.push({ index, type: parsed?.type, entry: parsed });
    }
    const [start, ...rest] = result.entries;
    if (start.entry?.type !== "start") throw new LogCheckError(`entry ${start.index} is not a start entry`);
    for (const field of ["id", "commitment", "kind", "rules"]) {
      if (expect[field] !== undefined && start.entry[field] !== expect[field]) {
        throw new LogCheckError(`start entry ${start.index}: its ${field} is ${JSON.stringify(start.entry[field])}, the game's is ${JSON.stringify(expect[field])}`);
      }
    }
    if (rest.length > 1 || rest.some((e) => e.entry?.type !== "end" || e.entry.id !== start.entry.id)) {
      throw new LogCheckError("the log holds more for this game than one start and one end");
    }
    result.ok = true;
  } catch (error) {
    result.error = error instanceof LogCheckError ? error.message : `the log could not be checked: ${error.message}`;
  }
  return result;
}

// -- checkpoint memory: the split-view defence (spec/log.md section 7) ------------------------

const MEMORY = "fairdeal.log.checkpoint/";
const FORKS = "fairdeal.log.fork/";

function memoryKey(prefix, origin, publicHex) {
  return `${prefix}${origin} ${publicHex}`;
}

/**
 * Compare a verified checkpoint (verifyCheckpoint's answer) with the newest this browser kept for
 * its origin and key, then keep the newer. `consistency(first, second)` fetches
 * GET /log/proof/consistency and gives its JSON. The roots compared are the two signed
 * checkpoints', never the server's JSON. Returns `{status, previous}`: "first" (nothing kept
 * yet), "same", "consistent", "unchecked" (the proof could not be fetched: `error`), or "fork" (with `previous` and `checkpoint`, both signed notes, to
 * report: the server showed two different logs). A fork once seen is kept and told again.
 */
export async function rememberCheckpoint(checkpoint, publicHex, consistency, storage = globalThis.localStorage) {
  const key = memoryKey(MEMORY, checkpoint.origin, publicHex);
  const forkKey = memoryKey(FORKS, checkpoint.origin, publicHex);
  const seenFork = JSON.parse(storage.getItem(forkKey) ?? "null");
  const keptNote = storage.getItem(key);
  let status = "first";
  let previous = null;
  if (keptNote) {
    previous = await verifyCheckpoint(keptNote, publicHex).catch(() => null);
  }
  if (previous) {
    const [older, newer] = previous.size <= checkpoint.size ? [previous, checkpoint] : [checkpoint, previous];
    try {
      if (older.size === newer.size) {
        if (!equal(older.root, newer.root)) throw new LogCheckError(`two checkpoints of size ${older.size} with different roots`);
        status = "same";
      } else {
        let answer;
        try {
          answer = await consistency(older.size, newer.size);
        } catch (error) {
          // Not proof of a fork (the network, say), but not a comparison either: the page says so.
          return { status: "unchecked", previous: previous.note, error: `the log's consistency proof could not be fetched: ${error.message}` };
        }
        await verifyConsistency(older.size, newer.size, older.root, newer.root, answer?.proof);
        status = "consistent";
      }
    } catch (error) {
      const fork = { previous: previous.note, checkpoint: checkpoint.note, error: error.message };
      storage.setItem(forkKey, JSON.stringify(fork));
      return { status: "fork", ...fork };
    }
  }
  if (!previous || checkpoint.size > previous.size) storage.setItem(key, checkpoint.note);
  if (seenFork) return { status: "fork", ...seenFork };
  return { status, previous: previous?.note ?? null };
}
