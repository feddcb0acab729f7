// The verify page's engine: fairdeal's own Python verifier, run in Pyodide inside this Web Worker.
//
// Start it as a module worker: new Worker(new URL("./verify-worker.js", import.meta.url), { type: "module" }).
// It loads Pyodide from ../pyodide/, reads ../engine/manifest.json, fetches the engine bundle it names
// (the installed fairdeal and verifier Python files, one deterministic zip), checks the bundle's SHA-256
// against the manifest with Web Crypto, unpacks it into Pyodide's file system and imports the verifier.
// Every URL is relative to this file, so the same files work under the app and in an exported folder.
//
// Protocol (a small RPC; spec/verify-page.md):
//   page -> worker  {id, call, args}          call: a name in CALLS below; args: a JSON-able list
//   worker -> page  {id, result} | {id, error}
// The worker loads the engine on the first message and stays up: later calls cost only the call.
//
// Signatures: Pyodide has no cryptography wheel, and Web Crypto is asynchronous, so Python cannot check
// Ed25519 in the middle of a replay. For a call marked `signed`, the worker first asks Python which
// (public key, message, signature) triples the record (args[0]) needs (verifier.browser.signature_requests),
// checks them all with crypto.subtle.verify({name: "Ed25519"}), then makes the call with every signature
// check answered from those results (verifier.browser.call). If the call needed a triple it was not given,
// the worker checks that one too and calls again. SHA-256 and HMAC are Pyodide's own hashlib and hmac.
//
// Registering a function: add an entry to CALLS, {target: "module.function", signed: true|false}.
// Only functions of verifier.browser and verifier.replayer can be called (verifier.browser.CALLABLE says
// so on the Python side too). The function takes the args, returns something JSON can carry; a signed one
// takes the record's text first. A module is imported when first called, so an entry may name a module
// that is not in this version of the bundle: calling it then answers {error}.

import { loadPyodide } from "../pyodide/pyodide.mjs";

export const CALLS = {
  // {report: fairdeal-verify --json's object, text: its text report, words: its reasons in the page's
  // language, missing: []}; args: [text, null, key?, lang?]
  verify: { target: "verifier.browser.verify_json", signed: true },
  // the same for a file that is not UTF-8 text; args: [its bytes in base64, null, key?, lang?]
  verify_bytes: { target: "verifier.browser.verify_bytes", signed: true },
  // [[key, message, sig], ...] hex; args: [text, key?]
  signature_requests: { target: "verifier.browser.signature_requests", signed: false },
  // the games' catalogue (GET /rules's), from the engine: the page needs no server for it; args: [lang?]
  catalogue: { target: "verifier.browser.catalogue", signed: false },
  // the hand replayer (verifier/replayer.py): every step of every hand, and with lang, `words`: what it
  // says for people in the page's language; args: [text, lang?]
  replay: { target: "verifier.replayer.hand_steps", signed: true },
  // {sha256, size, version, python, pyodide}: what this worker runs
  engine: { target: null, signed: false },
};

const ROOT = new URL("../", import.meta.url);
let engine = null; // the promise of {pyodide, info}, made once

function fromHex(hex) {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.substr(2 * i, 2), 16);
  return bytes;
}

function toHex(buffer) {
  return Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("");
}

async function load() {
  const manifestResponse = await fetch(new URL("engine/manifest.json", ROOT), { cache: "no-cache" });
  if (!manifestResponse.ok) throw new Error(`cannot load the engine manifest (HTTP ${manifestResponse.status})`);
  const manifest = await manifestResponse.json();
  const [pyodide, zip] = await Promise.all([
    loadPyodide({ indexURL: new URL("pyodide/", ROOT).href, stdout: () => {}, stderr: () => {} }),
    fetch(new URL(`engine/${manifest.bundle}`, ROOT)).then((r) => {
      if (!r.ok) throw new Error(`cannot load the engine bundle (HTTP ${r.status})`);
      return r.arrayBuffer();
    }),
  ]);
  const sha256 = toHex(await crypto.subtle.digest("SHA-256", zip));
  if (sha256 !== manifest.sha256) throw new Error(`the engine bundle's SHA-256 is ${sha256}, not the manifest's ${manifest.sha256}`);
  pyodide.unpackArchive(zip, "zip", { extractDir: "/engine" });
  const python = pyodide.runPython(`
import sys
sys.path.insert(0, "/engine")
sys.dont_write_bytecode = True
import verifier.browser
sys.version.split()[0]
`);
  const info = { sha256, size: zip.byteLength, version: manifest.version, python, pyodide: pyodide.version };
  return { pyodide, info, call: pyodide.pyimport("verifier.browser").call };
}

const keys = new Map(); // public key hex -> the promise of a CryptoKey (or null: not a key)

async function checkOne([keyHex, messageHex, sigHex]) {
  if (!keys.has(keyHex)) {
    keys.set(keyHex, crypto.subtle.importKey("raw", fromHex(keyHex), { name: "Ed25519" }, false, ["verify"]).catch(() => null));
  }
  const key = await keys.get(keyHex);
  let valid = false;
  if (key !== null) {
    try {
      valid = await crypto.subtle.verify({ name: "Ed25519" }, key, fromHex(sigHex), fromHex(messageHex));
    } catch {
      valid = false;
    }
  }
  return [keyHex, messageHex, sigHex, valid];
}

async function run(name, args) {
  const entry = Object.hasOwn(CALLS, name) ? CALLS[name] : null;
  if (entry === null) throw new Error(`no such call: ${name}`);
  if (engine === null) engine = load();
  const { info, call } = await engine;
  if (entry.target === null) return info;
  let checked = [];
  if (entry.signed) {
    const requests = JSON.parse(call("verifier.browser.signature_requests", JSON.stringify([args[0]])));
    checked = await Promise.all(requests.result.map(checkOne));
  }
  // Each round answers every triple the last one asked for, so a record with n signatures takes at
  // most n rounds; the walk in signature_requests makes it one.
  for (let round = 0; ; round++) {
    const answer = JSON.parse(call(entry.target, JSON.stringify(args), JSON.stringify(checked)));
    if (answer.missing.length === 0) return answer.result;
    if (round > 1000) throw new Error("the verifier keeps asking for signatures it was given");
    checked = checked.concat(await Promise.all(answer.missing.map(checkOne)));
  }
}

// One call at a time, in order: Python runs on this one thread anyway.
let queue = Promise.resolve();
self.onmessage = (event) => {
  const { id, call, args } = event.data || {};
  queue = queue.then(async () => {
    try {
      self.postMessage({ id, result: await run(call, Array.isArray(args) ? args : []) });
    } catch (error) {
      self.postMessage({ id, error: String(error && error.message ? error.message : error) });
    }
  });
};
