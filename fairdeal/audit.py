"""``fairdeal audit``: read a service's whole transparency log and say what is wrong with it.

The auditor (spec/log.md, "Auditing") fetches the signed checkpoint and every entry, rebuilds the
RFC 9162 tree from the entries and checks its root against the checkpoint; checks the new
checkpoint is consistent with the one it saw last time (kept in a state file); then reads the
entries: games and sessions started but never ended past a deadline, the share abandoned per rules
and per host, and every ended record whose last line is not the head its end entry names. Given the
verifier keys of witnesses, it also requires the checkpoint to carry a quorum of their cosignatures
(:mod:`fairdeal.cosignature`): a checkpoint the witnesses were not shown may be of a fork.

With ``tiles=True`` it reads the log as C2SP tlog-tiles alone (spec/log.md section 10): the
checkpoint, the entry bundles and every hash tile, and no JSON endpoint.

The core, :func:`audit`, takes a ``fetch`` callable, so tests run it against the app in-process
and the command wraps :mod:`urllib`:

>>> def fetch(url):  # a server that is not there
...     raise Unreachable(f"{url}: connection refused")
>>> audit("http://localhost:1", fetch, state=None)
Traceback (most recent call last):
...
fairdeal.audit.Unreachable: http://localhost:1/.well-known/fairdeal-log: connection refused

Like :mod:`fairdeal.tlog` it needs only the standard library and the record's helpers; the
record checks (:mod:`fairdeal.verification`) are imported only when it fetches or verifies records.
"""

from __future__ import annotations

import json
import os
import re
import time
import urllib.parse
from collections.abc import Callable
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field
from datetime import UTC
from datetime import datetime
from pathlib import Path
from typing import Any

from fairdeal.cosignature import WitnessKey
from fairdeal.cosignature import cosigners
from fairdeal.cosignature import require_quorum
from fairdeal.cosignature import witness_policy
from fairdeal.record import RecordError
from fairdeal.record import line_hash
from fairdeal.record import parse_record
from fairdeal.tiles import TileError
from fairdeal.tiles import read_entries
from fairdeal.tiles import wrong_tiles
from fairdeal.tlog import LogError
from fairdeal.tlog import Tree
from fairdeal.tlog import leaf_hash
from fairdeal.tlog import parse_entry
from fairdeal.tlog import verify_checkpoint
from fairdeal.tlog import verify_consistency

__all__ = [
    "AuditError",
    "Unreachable",
    "Fetch",
    "Problem",
    "AuditReport",
    "audit",
    "url_fetch",
    "parse_duration",
    "parse_now",
    "default_state_path",
    "STATE_FORMAT",
]

STATE_FORMAT = "fairdeal-audit-state/1"
PAGE = 100
"""Entries asked for per ``GET /log/entries`` (the server's page, spec/log.md section 5)."""
_HEX64 = re.compile(r"[0-9a-f]{64}")


class AuditError(ValueError):
    """Input the auditor cannot work with: a bad URL or state file, a server that answers
    nonsense; the command prints it and exits with code 2."""


class Unreachable(AuditError):
    """The server did not answer (or not with 200)."""


Fetch = Callable[[str], bytes]
"""``fetch(url)``: the body of a 200 answer to ``GET url``; :class:`Unreachable` otherwise."""


def url_fetch(url: str, timeout: float = 30.0) -> bytes:
    """:data:`Fetch` over HTTP(S) with :mod:`urllib`.

    >>> url_fetch("ftp://example.com/")
    Traceback (most recent call last):
    ...
    fairdeal.audit.AuditError: 'ftp://example.com/' is not an http:// or https:// URL
    """
    if urllib.parse.urlsplit(url).scheme not in ("http", "https"):
        raise AuditError(f"{url!r} is not an http:// or https:// URL")
    from fairdeal.verification.log import LogUnavailable
    from fairdeal.verification.log import url_fetch as fetch_whole

    try:
        return fetch_whole(url, timeout, limit=None)  # the verifier's fetch: one way to ask a server
    except LogUnavailable as exc:
        raise Unreachable(str(exc)) from None


_DURATION = re.compile(r"(?:([0-9]+)d)?(?:([0-9]+)h)?(?:([0-9]+)m)?(?:([0-9]+)s)?")


def parse_duration(text: str) -> int:
    """Seconds in a duration written like ``24h``, ``90m``, ``1h30m``, ``2d`` or ``3600s``
    (a bare number is seconds).

    >>> parse_duration("1h30m"), parse_duration("2d"), parse_duration("45")
    (5400, 172800, 45)
    """
    text = text.strip()
    if text.isdigit():
        return int(text)
    match = _DURATION.fullmatch(text)
    if not text or match is None:
        raise AuditError(f"duration {text!r} is not like 24h, 90m, 1h30m, 2d or 3600s")
    d, h, m, s = (int(g or 0) for g in match.groups())
    return ((d * 24 + h) * 60 + m) * 60 + s


def _when(seconds: float) -> str:
    return datetime.fromtimestamp(seconds, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _seconds(created: str) -> float:
    return datetime.strptime(created, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC).timestamp()


def parse_now(text: str) -> float:
    """A time given as ``YYYY-MM-DDTHH:MM:SSZ`` or as seconds since the epoch.

    >>> parse_now("2027-01-15T08:00:00Z") == parse_now("1800000000")
    True
    """
    try:
        return float(text) if re.fullmatch(r"[0-9]+(\.[0-9]+)?", text) else _seconds(text)
    except ValueError:
        raise AuditError(f"time {text!r} is not YYYY-MM-DDTHH:MM:SSZ or seconds since the epoch") from None


def default_state_path(url: str) -> Path:
    """Where the state of the audits of ``url`` is kept: ``$XDG_CACHE_HOME`` (else ``~/.cache``)
    ``/fairdeal/audit/`` and a name made of the URL's host, port and path.

    The name comes from the URL the auditor was given, not from what the server says of itself,
    so a server cannot make an auditor forget what it saw by naming itself differently.

    >>> default_state_path("https://cards.example.com:8443/fd/").name
    'cards.example.com_8443_fd.json'
    """
    parts = urllib.parse.urlsplit(url)
    name = re.sub(r"[^A-Za-z0-9.-]+", "_", f"{parts.netloc}{parts.path}").strip("_") or "log"
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(cache) / "fairdeal" / "audit" / f"{name}.json"


@dataclass
class Problem:
    """One thing wrong: ``kind`` (below), a sentence, and the game or session it is about.

    Kinds: ``bad-signature``, ``key-changed``, ``origin-changed``, ``root-mismatch``,
    ``bad-entry``, ``tile-mismatch``, ``inconsistent``, ``duplicate-start``, ``end-without-start``,
    ``duplicate-end``, ``stale``, ``head-mismatch``, ``record-missing``, ``record-invalid``,
    ``not-witnessed``.
    """

    kind: str
    message: str
    id: str | None = None
    details: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "id": self.id, "message": self.message, **self.details}


def _group() -> dict[str, Any]:
    return {"started": 0, "revealed": 0, "abandoned": 0, "open": 0, "stale": 0}


def _rate(group: dict[str, Any]) -> dict[str, Any]:
    ended = group["revealed"] + group["abandoned"]
    return {**group, "abandoned_rate": round(group["abandoned"] / ended, 4) if ended else None}


@dataclass
class AuditReport:
    """What :func:`audit` found; ``ok`` when there is no problem (warnings are not problems)."""

    url: str
    origin: str | None = None
    public_key: str | None = None
    checkpoint: dict[str, Any] | None = None
    previous: dict[str, Any] | None = None
    consistent: bool | None = None
    witnesses: dict[str, Any] | None = None
    """With witnesses required: ``{"quorum", "given", "cosigned"}`` (names)."""
    now: float = 0.0
    stale_after: int = 0
    entries: int = 0
    totals: dict[str, int] = field(default_factory=_group)
    by_rules: dict[str, dict[str, Any]] = field(default_factory=dict)
    by_host: dict[str, dict[str, Any]] = field(default_factory=dict)
    stale: list[dict[str, Any]] = field(default_factory=list)
    records_checked: int = 0
    problems: list[Problem] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    def problem(self, kind: str, message: str, record_id: str | None = None, **details: Any) -> None:
        self.problems.append(Problem(kind, message, record_id, details))

    def to_json(self) -> dict[str, Any]:
        """The ``--json`` object; its shape is spec/log.md's "Auditing"."""
        return {
            "ok": self.ok,
            "url": self.url,
            "origin": self.origin,
            "public_key": self.public_key,
            "checkpoint": self.checkpoint,
            "previous": self.previous,
            "consistent": self.consistent,
            "witnesses": self.witnesses,
            "now": _when(self.now),
            "stale_after": self.stale_after,
            "entries": self.entries,
            "records_checked": self.records_checked,
            "totals": self.totals,
            "by_rules": {k: _rate(v) for k, v in sorted(self.by_rules.items())},
            "by_host": {k: _rate(v) for k, v in sorted(self.by_host.items())},
            "stale": self.stale,
            "problems": [p.to_json() for p in self.problems],
            "warnings": self.warnings,
        }

    def text(self) -> str:
        """The report for people."""
        out = [f"fairdeal audit of {self.url}"]
        if self.origin is not None:
            out.append(f"log {self.origin}, key {self.public_key}")
        if self.checkpoint is not None:
            out.append(f"checkpoint: size {self.checkpoint['size']}, root {self.checkpoint['root']}")
        if self.previous is not None:
            verdict = {True: "consistent", False: "NOT CONSISTENT", None: "not checked"}[self.consistent]
            out.append(f"previous checkpoint: size {self.previous['size']}, root {self.previous['root']}: {verdict}")
        if self.witnesses is not None:
            w = self.witnesses
            out.append(
                f"witnesses: cosigned by {', '.join(w['cosigned']) or 'none'} "
                f"({w['quorum']} of {len(w['given'])} required)"
            )
        for warning in self.warnings:
            out.append(f"warning: {warning}")
        if self.checkpoint is not None and self.entries == self.checkpoint["size"]:
            t = self.totals
            out.append(
                f"{self.entries} entries: {t['started']} started, {t['revealed']} revealed, "
                f"{t['abandoned']} abandoned, {t['open']} open ({t['stale']} past {_duration(self.stale_after)})"
            )
            out.append(f"{self.records_checked} ended records checked against their end entries")
            for title, groups in (("by rules", self.by_rules), ("by host", self.by_host)):
                if groups:
                    out.append(f"{title}:")
                    width = max(len(k) for k in groups)
                    for name, group in sorted(groups.items()):
                        g = _rate(group)
                        rate = "-" if g["abandoned_rate"] is None else f"{g['abandoned_rate']:.0%}"
                        out.append(
                            f"  {name:<{width}}  {g['started']:>5} started  {g['abandoned']:>5} abandoned = "
                            f"{rate:>4} of those ended  {g['stale']:>4} stale"
                        )
        if self.problems:
            out.append(f"PROBLEMS ({len(self.problems)}):")
            out.extend(f"  {p.kind}: {p.message}" for p in self.problems)
        else:
            out.append("no problems found")
        return "\n".join(out) + "\n"


def _duration(seconds: int) -> str:
    if seconds and seconds % 3600 == 0:
        return f"{seconds // 3600}h"
    if seconds and seconds % 60 == 0:
        return f"{seconds // 60}m"
    return f"{seconds}s"


Progress = Callable[[str, int, int], None]
"""``progress(phase, done, total)``: ``phase`` is ``entries`` or ``records``."""


def _json(fetch: Fetch, url: str) -> Any:
    body = fetch(url)
    try:
        return json.loads(body)
    except (UnicodeDecodeError, ValueError):
        raise AuditError(f"{url}: the answer is not JSON") from None


def _load_state(path: Path | None) -> dict[str, Any] | None:
    if path is None or not path.exists():
        return None
    try:
        state = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise AuditError(f"state file {path}: cannot read it ({exc})") from None
    if not isinstance(state, dict) or state.get("format") != STATE_FORMAT:
        raise AuditError(f"state file {path}: not a {STATE_FORMAT} file")
    return state


def _save_state(path: Path, state: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    # Written aside and renamed: a killed audit leaves the old state, never half a file.
    scratch = path.with_name(path.name + ".tmp")
    scratch.write_text(json.dumps(state, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    scratch.replace(path)


def _checkpoint_json(note: str, size: int, root: bytes) -> dict[str, Any]:
    return {"size": size, "root": root.hex(), "note": note}


def audit(
    url: str,
    fetch: Fetch,
    *,
    state: Path | None,
    key: str | None = None,
    stale_after: int = 24 * 3600,
    now: float | None = None,
    verify_records: bool = False,
    progress: Progress | None = None,
    witnesses: Sequence[str] = (),
    quorum: int | None = None,
    tiles: bool = False,
    records: str | None = None,
) -> AuditReport:
    """Audit the log of the service at base URL ``url``; see the module docstring.

    ``state`` is the state file (``None``: remember nothing); ``key`` the log's public key (64
    hex digits) to pin, else the one the state file holds, else the one the server gives (then
    kept). ``witnesses``: verifier keys of witnesses (``name+keyid+base64(0x04 || key)``) of which
    ``quorum`` (default: all) must have cosigned the checkpoint (``not-witnessed`` if not).
    With ``tiles``, ``url`` is the log's tlog-tiles prefix (``<url>/checkpoint``,
    ``<url>/tile/...``), read alone: the key is ``key`` or the state's (there is no description to
    trust on first use), the origin the checkpoint's, and the records are read from the service at
    ``records`` (its base URL) if given, else not at all (a warning says so).
    Raises :class:`AuditError` for input it cannot work with; everything found wrong is
    in the report's ``problems``. The state is updated only by an audit whose checkpoint verified
    and was consistent with the last one, so a fork is reported again on every run until someone
    looks.
    """
    base = url.rstrip("/")
    parts = urllib.parse.urlsplit(base)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise AuditError(f"{url!r} is not a service's base URL (http://host:port or https://host)")
    if key is not None:
        key = key.strip().lower()
        if not _HEX64.fullmatch(key):
            raise AuditError("--key is the log's Ed25519 public key, 64 hex digits")
    keys = _witness_keys(witnesses, quorum)
    now = time.time() if now is None else now
    report = AuditReport(url=base, now=now, stale_after=stale_after)
    saved = _load_state(state)

    if tiles:
        origin, trusted, note_url = _tiles_source(report, base, key, saved)
    else:
        origin, trusted, note_url = _described(report, base, fetch, key, saved)
    note_bytes = fetch(note_url)
    try:
        note = note_bytes.decode("utf-8")
        checkpoint = verify_checkpoint(note, trusted, origin)
    except (UnicodeDecodeError, LogError) as exc:
        report.problem("bad-signature", f"the checkpoint at {note_url} does not verify under key {trusted}: {exc}")
        return report
    if tiles:  # the origin is the checkpoint's (its key's name, so signed): was it the one seen before?
        report.origin = origin = checkpoint.origin
        if saved is not None and saved.get("origin") != origin:
            report.problem(
                "origin-changed", f"the log's origin is now {origin!r}, not {saved.get('origin')!r} as before"
            )
    size = checkpoint.size
    report.checkpoint = _checkpoint_json(note, size, checkpoint.root)
    if keys:
        _witnessed(report, note, keys, quorum)

    # Every entry up to the checkpoint's size, page by page (the log may grow meanwhile: ignore the rest).
    texts: list[str] = []
    while not tiles and len(texts) < size:  # (by tiles: below)
        page = _json(fetch, f"{base}/log/entries?start={len(texts)}&end={min(len(texts) + PAGE, size)}")
        got = page.get("entries") if isinstance(page, dict) else None
        if not isinstance(got, list):
            raise AuditError(f"{base}/log/entries?start={len(texts)}: not a page of entries")
        if not got:
            report.entries = len(texts)
            report.problem("root-mismatch", f"the server serves {len(texts)} entries, yet its checkpoint has {size}")
            return report
        for item in got:
            if len(texts) == size:
                break
            if not isinstance(item, dict) or item.get("index") != len(texts) or not isinstance(item.get("entry"), str):
                raise AuditError(f"{base}/log/entries: entry {len(texts)} is not where it should be")
            texts.append(item["entry"])
        if progress:
            progress("entries", len(texts), size)
    raw = _tiled_entries(base, fetch, size, progress) if tiles else [t.encode("utf-8") for t in texts]
    report.entries = size
    tree = Tree([leaf_hash(t) for t in raw])
    if tree.root(size) != checkpoint.root:
        report.problem(
            "root-mismatch",
            f"the {size} entries served hash to root {tree.root(size).hex()}, "
            f"not the checkpoint's {checkpoint.root.hex()}: the entries are not the log the server signed",
        )

    if tiles:
        _check_tiles(report, base, fetch, tree)
    consistent = _consistency(report, base, fetch, saved, checkpoint.size, checkpoint.root, note, tree, tiles)
    entries = _read_entries(report, raw)
    if not tiles or records is not None:
        _check_records(report, records.rstrip("/") if records else base, fetch, entries, verify_records, progress)
    else:  # a log's tiles are not its service: the records are somewhere else
        report.warnings.append(
            "records not checked: the log was read by its tiles alone (give the service's URL with --records)"
        )
        for stale in report.stale:
            _stale_problem(report, entries[stale["id"]], None)

    # A checkpoint the witnesses did not cosign may be a fork shown to this auditor alone: not kept.
    if (
        state is not None
        and consistent
        and not any(
            p.kind in ("key-changed", "origin-changed", "root-mismatch", "not-witnessed") for p in report.problems
        )
    ):
        _save_state(
            state,
            {
                "format": STATE_FORMAT,
                "url": base,
                "origin": origin,
                "public_key": trusted,
                "checkpoint": note,
                "size": size,
                "root": checkpoint.root.hex(),
                "audited": _when(now),
            },
        )
    return report


def _witness_keys(witnesses: Sequence[str], quorum: int | None) -> list[WitnessKey]:
    """The witnesses' keys, parsed, and the quorum checked against them; :class:`AuditError` if bad."""
    try:
        return list(witness_policy(witnesses, quorum))
    except LogError as exc:
        raise AuditError(str(exc)) from None


def _witnessed(report: AuditReport, note: str, keys: list[WitnessKey], quorum: int | None) -> None:
    """Whether a quorum of the given witnesses cosigned the checkpoint; ``not-witnessed`` if not."""
    names = sorted({k.name for k in keys})
    try:
        found = sorted(cosigners(note, keys))
    except LogError:
        found = []  # require_quorum says what is wrong with it
    report.witnesses = {"quorum": len(names) if quorum is None else quorum, "given": names, "cosigned": found}
    try:
        require_quorum(note, keys, quorum)
    except LogError as exc:
        report.problem(
            "not-witnessed",
            f"the checkpoint of size {report.checkpoint['size'] if report.checkpoint else '?'} "
            f"is not witnessed as required: {exc}",
        )


def _described(
    report: AuditReport, base: str, fetch: Fetch, key: str | None, saved: dict[str, Any] | None
) -> tuple[str, str, str]:
    """The log's origin, the key to check it with, and its checkpoint's URL, from the service's
    description of its log (``/.well-known/fairdeal-log``)."""
    info = _json(fetch, f"{base}/.well-known/fairdeal-log")
    if not isinstance(info, dict) or not all(
        isinstance(info.get(k), str) for k in ("checkpoint", "origin", "public_key")
    ):
        raise AuditError(f"{base}/.well-known/fairdeal-log: not a fairdeal log's description")
    served_key = info["public_key"].lower()
    report.origin = origin = info["origin"]
    trusted = key or (saved or {}).get("public_key") or served_key
    report.public_key = trusted
    if served_key != trusted:
        report.problem(
            "key-changed",
            f"the server now gives the log's key as {served_key}, not {trusted} "
            f"({'the one pinned with --key' if key else 'the one seen on first use'}); "
            "if the operator changed it on purpose, run again with --key NEW-KEY",
        )
    if saved is not None and saved.get("origin") != origin:
        report.problem("origin-changed", f"the log's origin is now {origin!r}, not {saved.get('origin')!r} as before")
    if key is not None and saved is not None and saved.get("public_key") not in (None, key):
        report.warnings.append(f"--key {key} replaces the key the state file kept, {saved.get('public_key')}")
    if saved is None and key is None:
        report.warnings.append(
            f"first audit of this log: trusting the key it gives, {served_key} (pin it with --key to be sure)"
        )

    note_url = urllib.parse.urljoin(base + "/", info["checkpoint"])
    return origin, trusted, note_url


def _tiles_source(
    report: AuditReport, base: str, key: str | None, saved: dict[str, Any] | None
) -> tuple[None, str, str]:
    """:func:`_described` for a log read by its tiles alone: the key pinned or kept, no origin
    (the checkpoint's own is read, and compared with the state's), the checkpoint at
    ``<prefix>/checkpoint``."""
    trusted = key or (saved or {}).get("public_key")
    if not isinstance(trusted, str):
        raise AuditError(
            "a log read by its tiles alone does not say its key: give it with --key HEX "
            "(later audits keep it in the state file)"
        )
    report.public_key = trusted
    if key is not None and saved is not None and saved.get("public_key") not in (None, key):
        report.warnings.append(f"--key {key} replaces the key the state file kept, {saved.get('public_key')}")
    return None, trusted, f"{base}/checkpoint"


def _tiled_entries(base: str, fetch: Fetch, size: int, progress: Progress | None) -> list[bytes]:
    """The first ``size`` entries, from the entry bundles of the log at tiles prefix ``base``."""
    try:
        return read_entries(fetch, base, size, progress and (lambda done, total: progress("entries", done, total)))
    except TileError as exc:
        raise AuditError(f"{exc} (not a log's tiles)") from None


def _check_tiles(report: AuditReport, base: str, fetch: Fetch, tree: Tree) -> None:
    """Every hash tile of the tree against the tree of the entries (one problem for all wrong ones)."""
    try:
        wrong = list(wrong_tiles(fetch, base, tree))
    except TileError as exc:
        raise AuditError(f"{exc} (not a log's tiles)") from None
    if wrong:
        shown = ", ".join(wrong[:5]) + (f" and {len(wrong) - 5} more" if len(wrong) > 5 else "")
        report.problem(
            "tile-mismatch",
            f"{len(wrong)} hash tiles served are not the tree of the entries served: "
            f"{shown}; a client that takes its proofs from them is shown another log",
            tiles=wrong,
        )


def _consistency(
    report: AuditReport,
    base: str,
    fetch: Fetch,
    saved: dict[str, Any] | None,
    size: int,
    root: bytes,
    note: str,
    tree: Tree,
    tiles: bool = False,
) -> bool:
    """Check the checkpoint against the last one the state holds; whether the state may move on."""
    if saved is None:
        return True
    try:
        old_size, old_root, old_note = int(saved["size"]), bytes.fromhex(saved["root"]), str(saved["checkpoint"])
    except (KeyError, TypeError, ValueError):
        raise AuditError("the state file's checkpoint is malformed (size, root, checkpoint)") from None
    report.previous = _checkpoint_json(old_note, old_size, old_root)
    if old_size > size:
        report.consistent = False
        report.problem(
            "inconsistent",
            f"the log shrank: it had {old_size} entries, its checkpoint now says {size}\n"
            f"previous checkpoint:\n{_indent(old_note)}\nnew checkpoint:\n{_indent(note)}",
            previous=report.previous,
            checkpoint=report.checkpoint,
        )
        return False
    try:
        if old_size == size:
            proof: list[bytes] = []
        elif tiles:  # the proof a tiles client makes: from the tree the tiles gave (checked against them)
            proof = tree.consistency_proof(old_size, size)
        else:
            answer = _json(fetch, f"{base}/log/proof/consistency?first={old_size}&second={size}")
            proof = [bytes.fromhex(h) for h in answer["proof"]]
        verify_consistency(old_size, size, old_root, root, proof)
        # The entries are here too: the old tree must be their prefix (a second, independent look).
        if tree.root(old_size) != old_root:
            raise LogError(f"the first {old_size} entries served do not hash to the previous root")
    except (LogError, KeyError, TypeError, ValueError) as exc:
        if isinstance(exc, AuditError):
            raise
        report.consistent = False
        report.problem(
            "inconsistent",
            f"THE LOG FORKED OR WAS REWRITTEN: the checkpoint of size {size} is not "
            f"an extension of the one of size {old_size} seen before ({exc})\n"
            f"previous checkpoint:\n{_indent(old_note)}\nnew checkpoint:\n{_indent(note)}",
            previous=report.previous,
            checkpoint=report.checkpoint,
        )
        return False
    report.consistent = True
    return True


def _indent(note: str) -> str:
    return "\n".join("      " + line for line in note.rstrip("\n").split("\n"))


@dataclass
class _Record:
    id: str
    kind: str | None = None
    start: dict[str, Any] | None = None
    start_index: int | None = None
    end: dict[str, Any] | None = None
    end_index: int | None = None


def _read_entries(report: AuditReport, texts: list[bytes]) -> dict[str, _Record]:
    """The records the entries tell of, with the counts, the stale ones, and what cannot be."""
    records: dict[str, _Record] = {}
    for index, text in enumerate(texts):
        try:
            entry = parse_entry(text)
        except LogError as exc:
            report.problem("bad-entry", f"entry {index}: {exc}", index=index)
            continue
        record = records.setdefault(entry["id"], _Record(entry["id"]))
        if entry["type"] == "start":
            if record.start is not None:
                report.problem(
                    "duplicate-start",
                    f"{entry['kind']} {entry['id']} is started twice (entries {record.start_index} and {index})",
                    entry["id"],
                    index=index,
                )
                continue
            record.start, record.start_index, record.kind = entry, index, entry["kind"]
        else:
            if record.start is None:
                report.problem(
                    "end-without-start",
                    f"entry {index} ends {entry['id']}, which no earlier entry started",
                    entry["id"],
                    index=index,
                )
            if record.end is not None:
                report.problem(
                    "duplicate-end",
                    f"{entry['id']} is ended twice (entries {record.end_index} and {index})",
                    entry["id"],
                    index=index,
                )
                continue
            record.end, record.end_index = entry, index
    for record in records.values():
        if record.start is None:
            continue
        start = record.start
        groups = [report.totals, report.by_host.setdefault(start["host"], _group())]
        if record.kind == "game":
            groups.append(report.by_rules.setdefault(start["rules"], _group()))
        late = record.end is None and report.now - _seconds(start["created"]) > report.stale_after
        for group in groups:
            group["started"] += 1
            if record.end is not None:
                group[record.end["how"]] += 1
            else:
                group["open"] += 1
                group["stale"] += late
        if late:
            report.stale.append(
                {
                    "id": record.id,
                    "kind": record.kind,
                    "rules": start.get("rules"),
                    "host": start["host"],
                    "created": start["created"],
                    "index": record.start_index,
                }
            )
    return records


def _record_url(base: str, record: _Record) -> str:
    return f"{base}/{'sessions' if record.kind == 'session' else 'games'}/{urllib.parse.quote(record.id)}/record"


def _check_records(
    report: AuditReport,
    base: str,
    fetch: Fetch,
    records: dict[str, _Record],
    verify_records: bool,
    progress: Progress | None,
) -> None:
    """Each ended record's last line against its end entry; each stale one's record, to say whether
    it is really unfinished or the server left its end out of the log."""
    stale = {s["id"] for s in report.stale}
    todo = [r for r in records.values() if (r.end is not None and r.start is not None) or r.id in stale]
    for done, record in enumerate(todo, 1):
        try:
            text = fetch(_record_url(base, record))
        except Unreachable as exc:
            if record.end is not None:
                report.problem(
                    "record-missing",
                    f"{record.kind} {record.id} ended (entry {record.end_index}) but its record cannot be read: {exc}",
                    record.id,
                )
            else:
                _stale_problem(report, record, None)
            continue
        try:
            lines = parse_record(text)
        except RecordError as exc:
            lines = None
            if record.end is not None:
                report.problem(
                    "head-mismatch", f"{record.kind} {record.id}: its record is not readable ({exc})", record.id
                )
        if record.end is None:
            _stale_problem(report, record, lines)
        elif lines is not None:
            report.records_checked += 1
            _compare(report, record, lines)
            if verify_records:
                _verify(report, record, text)
        if progress:
            progress("records", done, len(todo))


def _stale_problem(report: AuditReport, record: _Record, lines: list[dict[str, Any]] | None) -> None:
    start = record.start or {}
    what = f"{record.kind} {record.id}" + (f" ({start['rules']})" if start.get("rules") else "")
    message = (
        f"{what} started {start.get('created')} by host {start.get('host')} (entry {record.start_index}) "
        f"and never ended in the log"
    )
    revealed = lines is not None and lines[-1].get("type") == "reveal"
    if revealed:
        message += ": yet its record ends with a reveal, so the server left its end entry out of the log"
    report.problem("stale", message, record.id, revealed=revealed)


def _compare(report: AuditReport, record: _Record, lines: list[dict[str, Any]]) -> None:
    end, start, last = record.end or {}, record.start or {}, lines[-1]
    header = lines[0]
    found = {
        "seq": last.get("seq"),
        "head": line_hash(last),
        "how": "abandoned" if any(line.get("type") == "abandon" for line in lines) else "revealed",
    }
    wrong = [name for name in ("seq", "head", "how") if found[name] != end.get(name)]
    if last.get("type") != "reveal":
        wrong.insert(0, "type")
    for name in ("commitment", "created", "rules"):
        if name in start and header.get(name) != start[name]:
            wrong.append(f"header {name}")
    if wrong:
        report.problem(
            "head-mismatch",
            f"{record.kind} {record.id}: its record does not match the log "
            f"({', '.join(wrong)}): the end entry {record.end_index} says seq {end.get('seq')} head "
            f"{end.get('head')} ({end.get('how')}), the record's last line is seq {found['seq']} "
            f"{last.get('type')} hash {found['head']} ({found['how']})",
            record.id,
            log={k: end.get(k) for k in ("seq", "head", "how")},
            record=found,
        )


def _verify(report: AuditReport, record: _Record, text: bytes) -> None:
    from fairdeal.verification import verify  # the slow part: loaded only when records are verified

    try:
        result = verify(text, key=report.public_key)
    except ValueError as exc:
        report.problem("record-invalid", f"{record.kind} {record.id}: {exc}", record.id)
        return
    if not result.verified:
        report.problem("record-invalid", f"{record.kind} {record.id}: {result.verdict}", record.id)
