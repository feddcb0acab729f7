"""What the table page computes itself (fairdeal/web/js/protocol.js: a seat's client seed commitment)
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
