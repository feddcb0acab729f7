"""What the verify page calls in Pyodide: the verifier, with signatures checked by the browser.

Pyodide has no ``cryptography`` wheel, and the browser's Ed25519 (Web Crypto) is asynchronous,
so Python cannot call it in the middle of a replay. The page's worker does two steps instead:

1. :func:`signature_requests` lists the (public key, message, signature) triples, in hex, that
   the record's signatures need (it walks the lines and computes each chain head: no replay);
2. the worker checks them all with ``crypto.subtle.verify``, then :func:`verify_json` runs
   :func:`verifier.verify` answering every signature check from those results. Should the run
   need a triple it was not given, the answer names it in ``missing`` and the worker checks it
   and runs again (the walk and the verifier agree, so that does not happen for a record the
   walk can read).

The result is ``fairdeal-verify --json``'s object for the record (without ``file``), its
text report and the header's facts the page shows besides (``facts``): the page shows what the CLI would say, computed by the same code.
Given the page's language (``lang``), the answer also says in it what the verifier wrote for people
(``words``: the failure's reason and each hand's), while the report and the text stay the CLI's English.

>>> from pathlib import Path
>>> from fairdeal.record import ed25519_check
>>> text = (Path(__file__).parents[1] / "spec" / "vectors" / "record-example.jsonl").read_text()
>>> requests = signature_requests(text)
>>> checked = [[*triple, ed25519_check(*map(bytes.fromhex, triple))] for triple in requests]
>>> answer = verify_json(text, checked)
>>> answer["missing"], answer["report"]["verified"], answer["text"].splitlines()[-1]
([], True, 'VERIFIED')
>>> unchecked = verify_json(text, [])     # the first signature it needs is not answered
>>> unchecked["report"]["error"]["reason"], unchecked["missing"] == requests[:1]
('bad signature', True)
>>> verify_json(text, [], lang="nb")["words"]["reason"]
'ugyldig signatur'
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from contextlib import nullcontext
from typing import Any

from fairdeal.record import GENESIS
from fairdeal.record import KnownSignatures
from fairdeal.record import RecordError
from fairdeal.record import head_message
from fairdeal.record import line_hash
from fairdeal.record import parse_record
from fairdeal.record import signature_check
from fairdeal.rules import in_language
from fairdeal.verification import Report
from fairdeal.verification import verify
from verifier.report import json_report
from verifier.report import text_report

__all__ = ["signature_requests", "verify_json", "verify_bytes", "catalogue", "call", "CALLABLE"]

CALLABLE = ("verifier.browser.", "verifier.replayer.")
"""The modules whose functions the page's worker may call (its own whitelist names each one)."""

Triple = tuple[str, str, str]


def signature_requests(text: str, key: str | None = None) -> list[list[str]]:
    """The (key, message, signature) triples, hex, that verifying ``text`` checks; ``key``
    pins the server's key as ``fairdeal-verify --key`` does."""
    try:
        lines = parse_record(text)
    except RecordError:
        return []
    header = lines[0]
    game_id = header.get("game_id")
    public = key.strip().lower() if key else header.get("server_key")
    if not isinstance(game_id, str) or not isinstance(public, str):
        return []
    triples: list[list[str]] = []
    head = GENESIS
    for index, line in enumerate(lines):
        if line.get("seq") != index or line.get("prev") != head:
            break  # the chain breaks here: the verifier stops before any later signature
        digest = line_hash(line)
        sig = line.get("sig")
        if isinstance(sig, str):
            try:
                triples.append([public, head_message(game_id, index, digest).hex(), sig])
            except (ValueError, TypeError):
                pass
        head = digest
    return triples


def verify_json(
    text: str | bytes, checked: Sequence[Sequence[Any]] | None = None, key: str | None = None, lang: str | None = None
) -> dict[str, Any]:
    """Verify ``text``, signatures answered from ``checked`` ([key, message, sig, valid] rows;
    None: by the checker in force, as :func:`call` sets it).

    Returns ``{"report": <fairdeal-verify --json's object>, "text": <its text report>,
    "missing": [triples it needed and was not given]}``; ``report`` is None and ``error`` says
    why when the text is not a fairdeal record at all (the CLI's "cannot read it"). With ``lang``,
    a language tag (the page's): ``error`` in that language, and ``words``, what the report says
    for people in it (``reason``: the failure's, or None; ``hands``: each hand's reason), where
    fairdeal translates it (:func:`fairdeal.rules.in_language`), else in English.
    """
    known = (
        None if checked is None else KnownSignatures({(str(k), str(m), str(s)): bool(ok) for k, m, s, ok in checked})
    )
    try:
        with signature_check(known) if known is not None else nullcontext():
            report = verify(text, key=key)
    except (RecordError, ValueError) as exc:
        return {"report": None, "text": "", "error": in_language(str(exc), lang), "missing": _missing(known)}
    answer = {
        "report": json.loads(json_report(report)),
        "text": text_report(report),
        "facts": _facts(report),
        "missing": _missing(known),
    }
    if lang is not None:
        words = {
            "reason": None if report.error is None else report.error.reason,
            "hands": [h.reason for h in report.hands],
        }
        answer["words"] = in_language(words, lang)
    return answer


def verify_bytes(
    data_b64: str, checked: Sequence[Sequence[Any]] | None = None, key: str | None = None, lang: str | None = None
) -> dict[str, Any]:
    """:func:`verify_json` of a file's bytes, given in base64: for a file that is not UTF-8 text,
    which the page cannot hand over as text without changing it (the CLI reads bytes too).

    >>> import base64
    >>> verify_bytes(base64.b64encode(b"\\xff\\n").decode())["error"]
    'not a fairdeal record: the first line is not JSON'
    """
    import base64

    return verify_json(base64.b64decode(data_b64), checked, key, lang)


def _facts(report: Report) -> dict[str, Any]:
    """What the page shows besides the JSON report: the header's and the reveal's facts."""
    return {
        "kind": report.kind,
        "seats": report.seats,
        "created": report.created,
        "server_key": report.server_key,
        "commitment": report.commitment,
        "client_seeds": report.client_seeds,
        "server_seed": report.server_seed,
        "first_dealer": report.first_dealer,
    }


def _missing(known: KnownSignatures | None) -> list[list[str]]:
    return [] if known is None else [list(triple) for triple in known.missing]


def catalogue(lang: str | None = None) -> dict[str, Any]:
    """The games' catalogue (``GET /rules``'s, ``?lang=`` as there), from the engine itself: the page
    needs no server.

    >>> from fairdeal.rules import DEFAULT, RULES
    >>> catalogue()["default"] == DEFAULT and len(catalogue()["games"]) == len(RULES)
    True
    >>> catalogue("nb")["lang"]
    'nb'
    """
    from fairdeal.rules import catalogue as games

    return games(lang=lang)


def call(target: str, args_json: str, checked_json: str = "[]") -> str:
    """Call ``target`` (``"module.function"``) with the JSON list ``args_json``, every signature it
    checks answered from ``checked_json`` ([key, message, sig, valid] rows); the worker's one door
    into Python. Returns JSON: ``{"result": ..., "missing": [triples asked for and not given]}``.

    >>> import json
    >>> json.loads(call("verifier.browser.signature_requests", '["not a record"]'))
    {'result': [], 'missing': []}
    >>> call("os.system", '["true"]')
    Traceback (most recent call last):
    ...
    ValueError: the page may not call os.system
    """
    import importlib

    module, _, name = target.rpartition(".")
    if not target.startswith(CALLABLE) or not name or name.startswith("_"):
        raise ValueError(f"the page may not call {target}")
    function = getattr(importlib.import_module(module), name)
    known = KnownSignatures({(str(k), str(m), str(s)): bool(ok) for k, m, s, ok in json.loads(checked_json)})
    with signature_check(known):
        result = function(*json.loads(args_json))
    return json.dumps({"result": result, "missing": [list(t) for t in known.missing]}, ensure_ascii=False)
