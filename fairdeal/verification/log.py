"""Is a record's game in the server's transparency log (spec/log.md)? What ``fairdeal-verify --log`` checks.

The server's answers are not trusted: the checkpoint's signature is checked with the record's
server key, and every entry's inclusion proof against that checkpoint's root; the entries' fields
are compared with the record's; given witnesses' keys, the checkpoint must carry a quorum of their
cosignatures (spec/log.md, section 9). Fetching is a function of the caller's (``urllib`` by default),
so this module runs without a network too.

>>> from fairdeal.tlog import LogError
>>> server_of("cards.example.com/log")
'https://cards.example.com'
>>> server_of("fairdeal.invalid/log/0123")
Traceback (most recent call last):
...
fairdeal.tlog.LogError: the checkpoint's origin 'fairdeal.invalid/log/0123' does not say where the log is: give the server's URL (--log-server)
"""

from __future__ import annotations

import http.client
import json
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field
from typing import Any

from fairdeal.cosignature import WitnessKey
from fairdeal.cosignature import require_quorum
from fairdeal.record import line_hash
from fairdeal.tlog import Checkpoint
from fairdeal.tlog import LogError
from fairdeal.tlog import leaf_hash
from fairdeal.tlog import parse_checkpoint
from fairdeal.tlog import parse_entry
from fairdeal.tlog import verify_checkpoint
from fairdeal.tlog import verify_inclusion

__all__ = ["LogCheck", "LogUnavailable", "check_log", "read_checkpoint", "server_of", "url_fetch"]

Fetch = Callable[[str], bytes]
"""``fetch(url)``: the body of a 200 answer; :class:`LogUnavailable` for anything else."""


class LogUnavailable(ValueError):
    """The log cannot be read (no server, a refusal, not a checkpoint): bad input, not a verdict."""


@dataclass
class LogCheck:
    """The verdict: ``error`` is ``None`` when every entry was found and matched."""

    checkpoint: Checkpoint | None = None
    entries: list[dict[str, Any]] = field(default_factory=list)
    """The record's entries checked: ``{"index", "type"}``."""
    error: str | None = None
    cosigned: list[str] = field(default_factory=list)
    """The witnesses required whose cosignatures verified (names)."""

    @property
    def verified(self) -> bool:
        return self.error is None

    def __str__(self) -> str:
        if self.error is not None:
            return f"LOG NOT VERIFIED: {self.error}"
        assert self.checkpoint is not None
        found = " and ".join(f"{e['type']} entry {e['index']}" for e in self.entries)
        witnessed = f", cosigned by {', '.join(self.cosigned)}" if self.cosigned else ""
        return (
            f"LOG VERIFIED: {found} in the checkpoint of {self.checkpoint.origin} at size {self.checkpoint.size}"
            f"{witnessed}"
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "verified": self.verified,
            "error": self.error,
            "entries": self.entries,
            "origin": None if self.checkpoint is None else self.checkpoint.origin,
            "size": None if self.checkpoint is None else self.checkpoint.size,
            "cosigned": self.cosigned,
        }


def url_fetch(url: str, timeout: float = 30.0, limit: int | None = 4 * 1024 * 1024) -> bytes:
    """:data:`Fetch` over HTTP(S) with ``urllib``: at most ``limit`` bytes of the body (a log's
    answers are small; ``None`` for a whole record)."""
    request = urllib.request.Request(url, headers={"User-Agent": "fairdeal-verify"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as answer:
            body: bytes = answer.read() if limit is None else answer.read(limit)
            return body
    except urllib.error.HTTPError as exc:
        detail = exc.read(300).decode("utf-8", "replace")
        raise LogUnavailable(f"{url}: HTTP {exc.code} {detail}") from None
    except (urllib.error.URLError, http.client.HTTPException, OSError, ValueError) as exc:
        reason = getattr(exc, "reason", exc)
        raise LogUnavailable(f"{url}: cannot reach it ({reason})") from None


def server_of(origin: str) -> str:
    """The server a checkpoint's origin names: ``https://`` and the origin without its ``/log``."""
    if not origin.endswith("/log") or len(origin) <= len("/log"):
        raise LogError(
            f"the checkpoint's origin {origin!r} does not say where the log is: give the server's URL (--log-server)"
        )
    return "https://" + origin[: -len("/log")]


def read_checkpoint(
    source: str, fetch: Fetch = url_fetch, read: Callable[[str], bytes] | None = None
) -> tuple[str, str | None]:
    """The checkpoint note ``source`` names and the server it came from: a URL (the service's base
    or its ``/log/checkpoint``) is fetched, anything else is read as a file (server ``None``)."""
    if source.startswith(("http://", "https://")):
        base = source.rstrip("/")
        if base.endswith("/log/checkpoint"):
            base = base[: -len("/log/checkpoint")]
        data = fetch(base + "/log/checkpoint")
        server: str | None = base
    else:
        if read is None:
            raise LogUnavailable("no way to read a file here")
        data = read(source)
        server = None
    try:
        note = data.decode("utf-8")
    except UnicodeDecodeError:
        raise LogUnavailable(f"{source}: the checkpoint is not UTF-8 text") from None
    cut = note.rfind("\n\n")
    try:
        parse_checkpoint(note[: cut + 1] if cut >= 0 else note)
    except LogError as exc:
        raise LogUnavailable(f"{source}: not a signed checkpoint ({exc})") from None
    return note, server


def _json(fetch: Fetch, url: str) -> Any:
    try:
        return json.loads(fetch(url))
    except ValueError as exc:
        if isinstance(exc, LogUnavailable):
            raise
        raise LogUnavailable(f"{url}: the answer is not JSON") from None


def _rolled_back(fetch: Fetch, base: str, cp: Checkpoint, key: str) -> str | None:
    """Why the server's log cannot prove anything against ``cp`` if it now signs a smaller tree
    (a log only grows: it was rolled back, or this is another fork), else ``None``."""
    try:
        now = verify_checkpoint(fetch(f"{base}/log/checkpoint").decode("utf-8"), key)
    except (LogUnavailable, LogError, UnicodeDecodeError):
        return None
    if now.size >= cp.size:
        return None
    return (
        f"the log at {base} now signs a tree of size {now.size}, smaller than the checkpoint's {cp.size}: "
        "a log only grows, so it was rolled back (or this is another fork of it)"
    )


_START_FIELDS = ("kind", "id", "rules", "commitment", "created")


def check_log(
    lines: Sequence[dict[str, Any]],
    note: str,
    server: str,
    key: str | None = None,
    fetch: Fetch = url_fetch,
    witnesses: Sequence[WitnessKey] = (),
    quorum: int | None = None,
) -> LogCheck:
    """Check that the record ``lines`` is in the log whose signed checkpoint is ``note``, with the
    proofs of ``server`` (its base URL). ``key``: the server's key, else the record header's.
    ``witnesses``: when given, ``quorum`` of them (default: all) must have cosigned the checkpoint.
    :class:`LogUnavailable` when the server cannot be asked; a failed check is the verdict."""
    check = LogCheck()
    header = lines[0]
    key = key or header.get("server_key")
    try:
        check.checkpoint = cp = verify_checkpoint(note, key if isinstance(key, str) else "")
    except LogError as exc:
        check.error = f"the checkpoint does not verify with the record's server key: {exc}"
        return check
    if witnesses:
        try:
            check.cosigned = sorted(require_quorum(note, witnesses, quorum))
        except LogError as exc:
            check.error = f"the checkpoint is not witnessed as required: {exc}"
            return check
    record_id = header.get("game_id")
    if not isinstance(record_id, str):
        check.error = "the record's header has no game id"
        return check
    kind = "session" if header.get("kind") == "session" else "game"
    base = server.rstrip("/")
    try:
        found = _json(fetch, f"{base}/{kind}s/{urllib.parse.quote(record_id, safe='')}/log")
    except LogUnavailable as exc:
        if " HTTP 404 " in f" {exc} ":
            check.error = f"the log has no entry for {kind} {record_id}"
            return check
        raise
    entries = []
    try:
        for item in found["entries"]:
            entries.append((int(item["index"]), item["entry"], parse_entry(item["entry"])))
    except (KeyError, TypeError, ValueError) as exc:
        check.error = f"the server's entries for {record_id} are malformed ({exc})"
        return check
    starts = [e for e in entries if e[2]["type"] == "start"]
    ends = [e for e in entries if e[2]["type"] == "end"]
    if len(starts) != 1 or len(ends) > 1 or any(e[2]["id"] != record_id for e in entries):
        check.error = (
            f"the log holds {len(starts)} start and {len(ends)} end entries for {record_id}: "
            "exactly one start and at most one end are allowed"
        )
        return check
    index, _, start = starts[0]
    want = {"kind": kind, "id": record_id, "commitment": header.get("commitment"), "created": header.get("created")}
    if kind == "game":
        want["rules"] = header.get("rules")
    for name in _START_FIELDS:
        if name in want and start.get(name) != want[name]:
            check.error = f"start entry {index}: {name} is {start.get(name)!r} in the log, {want[name]!r} in the record"
            return check
    checked = [starts[0]]
    last = lines[-1]
    if last.get("type") == "reveal":
        if not ends:
            check.error = (
                f"the record ends with its reveal (line {last.get('seq')}) but the log has no end entry for {record_id}"
            )
            return check
        index, _, end = ends[0]
        how = "abandoned" if any(line.get("type") == "abandon" for line in lines) else "revealed"
        for name, value in (("seq", last.get("seq")), ("head", line_hash(last)), ("how", how)):
            if end[name] != value:
                check.error = f"end entry {index}: {name} is {end[name]!r} in the log, {value!r} in the record"
                return check
        checked.append(ends[0])
    elif ends:
        index, _, end = ends[0]
        check.error = (
            f"end entry {index}: the log says {record_id} ended at line {end['seq']}, "
            f"but this record stops at line {last.get('seq')} without its reveal"
        )
        return check
    for index, text, entry in checked:
        if index >= cp.size:
            check.error = (
                f"{entry['type']} entry {index} is not in the checkpoint, of size {cp.size}: take a newer checkpoint"
            )
            return check
        try:
            proof = _json(fetch, f"{base}/log/proof/inclusion?index={index}&size={cp.size}")
        except LogUnavailable:
            shrunk = _rolled_back(fetch, base, cp, key if isinstance(key, str) else "")
            if shrunk is None:
                raise
            check.error = shrunk
            return check
        try:
            hashes = [bytes.fromhex(h) for h in proof["proof"]]
            verify_inclusion(leaf_hash(text.encode()), index, cp.size, hashes, cp.root)
        except (KeyError, TypeError, ValueError) as exc:
            check.error = f"{entry['type']} entry {index} is not in the checkpoint's tree: {exc}"
            return check
        check.entries.append({"index": index, "type": entry["type"]})
    return check
