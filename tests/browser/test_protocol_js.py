"""What the table page computes itself (fairdeal/web/js/protocol.js: a seat's client seed commitment)
against spec/vectors/fairness.json, and the verify page's engine against Python."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

VECTORS = json.loads((Path(__file__).resolve().parents[2] / "spec" / "vectors" / "fairness.json").read_text())
EXAMPLE = Path(__file__).resolve().parents[2] / "spec" / "vectors" / "record-example.jsonl"


@pytest.fixture
def protocol_page(verify_page):
    # The verify page the test process keeps open (conftest.py): the vectors are pure computation,
    # and its engine, started once, is the one the last test here checks.
    return verify_page.page


def test_every_client_commitment_vector(protocol_page):
    # A seat's browser commits to its seed itself (the seed stays there until the reveal).
    seeds = [seed for case in VECTORS["shuffle"] for seed in case["client_seeds"]]
    got = protocol_page.evaluate(
        """async (seeds) => {
          const P = await import('/js/protocol.js');
          return Promise.all(seeds.map(P.clientCommitment));
        }""",
        seeds,
    )
    expected = [c for case in VECTORS["shuffle"] for c in case["client_commitments"]]
    assert len(got) >= 20 and got == expected
    assert any(seed == "" for seed in seeds) and any(not seed.isascii() for seed in seeds if seed)


def test_the_sha256_for_pages_without_web_crypto_matches_web_crypto(protocol_page):
    # The stand-in for pages without crypto.subtle (plain http on a LAN address): @noble/hashes.
    agree = protocol_page.evaluate(
        """async () => {
          const P = await import('/js/protocol.js');
          const out = [];
          for (const n of [0, 1, 55, 56, 63, 64, 65, 119, 120, 200, 1000]) {
            const bytes = new Uint8Array(n).map((_, i) => (i * 31 + 7) & 255);
            out.push(P.toHex(await P.sha256WithoutWebCrypto(bytes)) === P.toHex(await P.sha256(bytes)));
          }
          return out;
        }"""
    )
    assert agree and all(agree)


def test_an_oversized_client_seed_is_refused(protocol_page):
    error = protocol_page.evaluate(
        """async () => {
          const P = await import('/js/protocol.js');
          try { await P.clientCommitment('x'.repeat(129)); return null; } catch (e) { return [e.name, e.message]; }
        }"""
    )
    assert error == ["FairnessError", "a client seed is at most 128 UTF-8 bytes, this one is 129"]


def test_the_pages_engine_hashes_and_signs_heads_as_python_does(protocol_page):
    # Canonical JSON, line hashes and the signed head message are the verifier's own Python in the
    # page (Pyodide's hashlib); a record with awkward text is checked there as the CLI checks it.
    from fairdeal.record import Signer
    from fairdeal.record import resign
    from verifier.browser import signature_requests

    from .records import text

    lines = [json.loads(raw) for raw in EXAMPLE.read_text().splitlines()]
    lines[0]["seats"][0]["name"] = 'Zoë 🂡 tab\tquote"\u2028'
    forged = text(resign(lines, Signer.from_seed(b"\x05" * 32)))
    got = protocol_page.evaluate(
        """async (t) => ({
          requests: await globalThis.fairdealEngine('signature_requests', t),
          verdict: (await globalThis.fairdealEngine('verify', t, null, null)).report,
        })""",
        forged,
    )
    assert got["requests"] == signature_requests(forged)
    assert got["verdict"]["verified"] and got["verdict"]["seats"][0]["name"] == lines[0]["seats"][0]["name"]


LOG = json.loads((Path(__file__).resolve().parents[2] / "spec" / "vectors" / "log.json").read_text())


def test_the_table_pages_log_checks_follow_the_worked_example(protocol_page):
    # js/publiclog.js: RFC 9162 leaf hashes, inclusion and consistency proofs, and the C2SP signed
    # checkpoint, in the browser, against spec/vectors/log.json (made from the RFC's definitions alone).
    got = protocol_page.evaluate(
        """async (v) => {
          const L = await import('/js/publiclog.js');
          const P = await import('/js/protocol.js');
          const leaves = await Promise.all(v.entries.map(async (e) => P.toHex(await L.leafHash(e))));
          const root = (n) => L.fromHex(v.roots[n]);
          const inclusion = [];
          for (const c of v.inclusion) {
            await L.verifyInclusion(L.fromHex(leaves[c.index]), c.index, c.size, c.proof, root(c.size));
            inclusion.push(c.index);
          }
          const consistency = [];
          for (const c of v.consistency) {
            await L.verifyConsistency(c.first, c.second, root(c.first), root(c.second), c.proof);
            consistency.push([c.first, c.second]);
          }
          await L.verifyConsistency(0, 3, root(0), root(3), []);
          await L.verifyConsistency(3, 3, root(3), root(3), []);
          const cp = await L.verifyCheckpoint(v.checkpoint, v.public_key);
          const log = await L.checkRecordLog(
            { checkpoint: v.checkpoint, entries: [0, 2].map((i) => ({ index: i, entry: v.entries[i], inclusion: v.inclusion[i].proof })) },
            v.public_key, { id: 'g1', kind: 'game', rules: 'crazy-eights', commitment: '1'.repeat(64) });
          return { leaves, inclusion, consistency, origin: cp.origin, size: cp.size, root: P.toHex(cp.root),
                   signature: cp.signature, keyId: P.toHex(await L.keyId(v.origin, L.fromHex(v.public_key))),
                   log: { ok: log.ok, error: log.error, entries: log.entries.map((e) => [e.index, e.type]) } };
        }""",
        LOG,
    )
    assert got["leaves"] == LOG["leaf_hashes"]
    assert got["inclusion"] == [0, 1, 2] and got["consistency"] == [[1, 3], [2, 3]]
    assert (got["origin"], got["size"], got["root"], got["signature"]) == (
        LOG["origin"],
        3,
        LOG["roots"]["3"],
        "checked",
    )
    assert got["keyId"] == LOG["key_id"]
    assert got["log"] == {"ok": True, "error": None, "entries": [[0, "start"], [2, "end"]]}


def test_a_tampered_proof_entry_or_checkpoint_is_caught_by_the_page(protocol_page):
    from fairdeal.record import Signer
    from fairdeal.tlog import Checkpoint
    from fairdeal.tlog import signed_checkpoint

    other = Signer.from_seed(b"\x07" * 32)
    # The right text and origin, signed by another key: not the game's server's checkpoint.
    foreign = signed_checkpoint(
        Checkpoint(LOG["origin"], 3, bytes.fromhex(LOG["roots"]["3"])), other.public_hex, other.sign
    )
    got = protocol_page.evaluate(
        """async ([v, foreign]) => {
          const L = await import('/js/publiclog.js');
          const flip = (hex) => (hex[0] === '0' ? '1' : '0') + hex.slice(1);
          const entries = (proof0, entry0 = v.entries[0]) => [{ index: 0, entry: entry0, inclusion: proof0 }];
          const check = (log, expect = {}) => L.checkRecordLog(log, v.public_key, expect).then((r) => [r.ok, r.error]);
          const lines = v.checkpoint.split('\\n');
          const otherRoot = [lines[0], lines[1], 'A'.repeat(43) + '=', ...lines.slice(3)].join('\\n');
          const [p0, p1] = v.inclusion[0].proof;
          const fails = async (f) => { try { await f(); return null; } catch (e) { return [e.name, e.message]; } };
          return {
            good: await check({ checkpoint: v.checkpoint, entries: entries([p0, p1]) }),
            proof: await check({ checkpoint: v.checkpoint, entries: entries([flip(p0), p1]) }),
            short: await check({ checkpoint: v.checkpoint, entries: entries([p0]) }),
            entry: await check({ checkpoint: v.checkpoint, entries: entries([p0, p1], v.entries[0].replace('alice', 'mallory')) }),
            game: await check({ checkpoint: v.checkpoint, entries: entries([p0, p1]) }, { id: 'g2' }),
            root: await check({ checkpoint: otherRoot, entries: entries([p0, p1]) }),
            foreign: await check({ checkpoint: foreign, entries: entries([p0, p1]) }),
            consistency: await fails(() => L.verifyConsistency(2, 3, L.fromHex(v.roots['2']), L.fromHex(v.roots['3']), [flip(v.consistency[1].proof[0])])),
            fork: await fails(() => L.verifyConsistency(3, 3, L.fromHex(v.roots['3']), L.fromHex(v.roots['2']), [])),
          };
        }""",
        [LOG, foreign],
    )
    assert got["good"] == [True, None]
    assert got["proof"] == [False, "entry 0: inclusion proof of leaf 0 in a tree of 3 does not lead to the root"]
    assert got["short"] == [False, "entry 0: inclusion proof of leaf 0 in a tree of 3 is too short"]
    assert got["entry"] == [False, "entry 0: inclusion proof of leaf 0 in a tree of 3 does not lead to the root"]
    assert got["game"] == [False, 'start entry 0: its id is "g1", the game\'s is "g2"']
    assert got["root"] == [False, f"the checkpoint's signature by {LOG['origin']} does not verify under the server key"]
    assert got["foreign"] == [False, f"the checkpoint is not signed by {LOG['origin']} with this game's server key"]
    assert got["consistency"] == [
        "LogCheckError",
        "consistency proof from size 2 to 3 does not lead to the second root",
    ]
    assert got["fork"] == [
        "LogCheckError",
        "consistency proof from size 3 to 3: two different roots for one size (a fork)",
    ]


def test_the_page_remembers_checkpoints_and_catches_a_split_view(protocol_page):
    # spec/log.md section 7: the newest checkpoint per origin is kept; a newer one must extend it.
    from fairdeal.record import Signer
    from fairdeal.tlog import Checkpoint
    from fairdeal.tlog import Tree
    from fairdeal.tlog import leaf_hash
    from fairdeal.tlog import signed_checkpoint

    signer = Signer.from_seed(bytes(range(32)))
    tree = Tree([leaf_hash(e.encode()) for e in LOG["entries"]])
    forked = Tree([*tree.leaves[:2], leaf_hash(b'{"type":"other"}')])

    def note(t, size):
        return signed_checkpoint(Checkpoint(LOG["origin"], size, t.root(size)), signer.public_hex, signer.sign)

    proofs = {f"{m},{n}": [h.hex() for h in tree.consistency_proof(m, n)] for m, n in [(1, 2), (2, 3), (1, 3)]}
    got = protocol_page.evaluate(
        """async ([key, notes, proofs]) => {
          const L = await import('/js/publiclog.js');
          const kept = new Map();
          const storage = { getItem: (k) => kept.get(k) ?? null, setItem: (k, x) => kept.set(k, String(x)) };
          const asked = [];
          const consistency = async (m, n) => { asked.push([m, n]); return { proof: proofs[`${m},${n}`] ?? [] }; };
          const seen = async (n) => (await L.rememberCheckpoint(await L.verifyCheckpoint(notes[n], key), key, consistency, storage));
          const out = [];
          for (const n of ['2', '2', '3', '1', 'forked', '3']) { const r = await seen(n); out.push([n, r.status, r.previous === notes[n === 'forked' ? '3' : n] || null]); }
          const fork = await seen('3');
          return { out, asked, kept: [...kept.values()].filter((x) => x.startsWith(notes['3'].split('\\n')[0])).length,
                   fork: [fork.status, fork.previous === notes['3'], fork.checkpoint === notes.forked, fork.error] };
        }""",
        [
            signer.public_hex,
            {"1": note(tree, 1), "2": note(tree, 2), "3": note(tree, 3), "forked": note(forked, 3)},
            proofs,
        ],
    )
    statuses = [status for _, status, _ in got["out"]]
    # Seen once, again, a newer one (a proof from 2 to 3 asked), an older one (from 1 to the kept 3), then a fork.
    assert statuses == ["first", "same", "consistent", "consistent", "fork", "fork"]
    assert got["asked"] == [[2, 3], [1, 3]]
    # The fork is told again on every later look, with both signed checkpoints to report.
    assert got["fork"] == ["fork", True, True, "two checkpoints of size 3 with different roots"]
