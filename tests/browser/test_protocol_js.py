"""The table page's protocol v1 (fairdeal/web/js/protocol.js, Web Crypto: its client seed commitments)
against spec/vectors/fairness.json, and the verify page's engine against Python."""

from __future__ import annotations

import json
from pathlib import Path

import pytest


VECTORS = json.loads((Path(__file__).resolve().parents[2] / "spec" / "vectors" / "fairness.json").read_text())
EXAMPLE = Path(__file__).resolve().parents[2] / "spec" / "vectors" / "record-example.jsonl"


@pytest.fixture(scope="module")
def protocol_page(server, browser):
    # One page for the module: the vectors are pure computation.
    context = browser.new_context()
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server + "/verify")
    page.wait_for_selector("body[data-verdict='idle']")
    yield page
    context.close()
    assert not errors


def test_every_shuffle_vector(protocol_page):
    results = protocol_page.evaluate(
        """async (cases) => {
          const P = await import('/js/protocol.js');
          const out = [];
          for (const c of cases) {
            const key = await P.gameKey(c.server_seed, c.game_id, c.client_seeds);
            const stream = await P.Stream.open(key, c.label);
            out.push({
              commitment: await P.commitment(c.server_seed),
              client_commitments: await Promise.all(c.client_seeds.map(P.clientCommitment)),
              game_key: P.toHex(key),
              label_key: P.toHex(await P.labelKey(key, c.label)),
              stream_first_64: P.toHex(await stream.read(64)),
              order: await P.shuffle(key, c.label, c.cards ?? P.pack(c.packs)),
            });
          }
          return out;
        }""",
        VECTORS["shuffle"],
    )
    assert len(results) == len(VECTORS["shuffle"]) >= 20
    for case, got in zip(VECTORS["shuffle"], results):
        for field in ("commitment", "client_commitments", "game_key", "label_key", "stream_first_64", "order"):
            assert got[field] == case[field], f"{case['name']}: {field}"


def test_every_uniform_vector_with_its_rejections(protocol_page):
    results = protocol_page.evaluate(
        """async (cases) => {
          const P = await import('/js/protocol.js');
          return Promise.all(cases.map(async (c) => {
            const words = P.fromHex(c.stream);
            const stream = new P.Stream(null);
            let read = 0;
            // Feed the vector's words instead of HMAC blocks, one at a time.
            stream._more = async () => { stream._words.push(new DataView(words.buffer).getUint32(4 * read)); read += 1; };
            const result = await stream.uniform(c.n);
            return {result, words: read};
          }));
        }""",
        VECTORS["uniform"],
    )
    assert any(case["words_consumed"] > 1 for case in VECTORS["uniform"])  # the rejection path is covered
    for case, got in zip(VECTORS["uniform"], results):
        assert (got["result"], got["words"]) == (case["result"], case["words_consumed"]), case["note"]


def test_worked_example_of_the_spec(protocol_page):
    order = protocol_page.evaluate(
        """async () => {
          const P = await import('/js/protocol.js');
          const key = await P.gameKey('00'.repeat(32), 'demo', ['alice', '']);
          return P.shuffle(key, 'hand/1/deal', ['AS', 'KH', '8D', '8C', 'TD']);
        }"""
    )
    assert order == ["AS", "8D", "TD", "KH", "8C"]


def test_plain_javascript_sha256_matches_web_crypto(protocol_page):
    # The stand-in for pages without crypto.subtle (plain http on a LAN address).
    agree = protocol_page.evaluate(
        """async () => {
          const P = await import('/js/protocol.js');
          const out = [];
          for (const n of [0, 1, 55, 56, 63, 64, 65, 119, 120, 200, 1000]) {
            const bytes = new Uint8Array(n).map((_, i) => (i * 31 + 7) & 255);
            out.push(P.toHex(P.sha256Js(bytes)) === P.toHex(await P.sha256(bytes)));
            out.push(P.toHex(P.hmacJs(bytes, bytes.slice(0, 9))) === P.toHex(await P.hmac(bytes, bytes.slice(0, 9))));
          }
          return out;
        }"""
    )
    assert agree and all(agree)


def test_refusals_match_the_spec(protocol_page):
    errors = protocol_page.evaluate(
        """async () => {
          const P = await import('/js/protocol.js');
          const tries = [
            () => P.parseServerSeed('00'.repeat(31)),
            () => P.parseServerSeed('zz'.repeat(32)),
            () => P.checkLabel('Hand/1'),
            () => P.checkClientSeed('x'.repeat(129)),
            () => P.checkGameId('a\\u0007b'),
          ];
          return tries.map((f) => { try { f(); return null; } catch (e) { return e.name; } });
        }"""
    )
    assert errors == ["FairnessError"] * 5


def test_the_pages_engine_hashes_and_signs_heads_as_python_does(protocol_page):
    # Canonical JSON, line hashes and the signed head message are the verifier's own Python in the
    # page (Pyodide's hashlib); a record with awkward text is checked there as the CLI checks it.
    from fairdeal.record import Signer, resign
    from verifier.browser import signature_requests

    from .records import text

    lines = [json.loads(raw) for raw in EXAMPLE.read_text().splitlines()]
    lines[0]["seats"][0]["name"] = "Zoë 🂡 tab\tquote\"\u2028"
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
