"""A witness of transparency logs (``fairdeal witness``): C2SP tlog-witness over HTTP.

A log sends each new checkpoint with a consistency proof from the last one this witness cosigned
(``POST /add-checkpoint``); the witness checks the log's signature and the proof against the size
and root it keeps for that log, and only then cosigns (C2SP tlog-cosignature v1, its own Ed25519
key) and moves its state on. Its state is a SQLite file, written before it answers, so across
restarts it never cosigns two inconsistent checkpoints of one log, nor a smaller tree after a
larger. A log-signed checkpoint it refused as inconsistent is kept with the one it had cosigned:
evidence of a fork anyone can check with the log's key (``GET /evidence``, ``fairdeal witness
--evidence``). spec/log.md, section 9, is the contract.

>>> import tempfile
>>> from fairdeal.record import Signer
>>> from fairdeal.tlog import EMPTY_ROOT, Checkpoint, signed_checkpoint, verifier_key
>>> log = Signer.from_seed(bytes(32))
>>> w = Witness(tempfile.mkdtemp(), name="w.example/1", logs=[verifier_key("example.com/log", log.public_hex)], clock=lambda: 1700000000)
>>> note = signed_checkpoint(Checkpoint("example.com/log", 0, EMPTY_ROOT), log.public_hex, log.sign)
>>> answer = w.add_checkpoint(f"old 0\\n\\n{note}".encode())
>>> answer.status, answer.body.decode().startswith("\u2014 w.example/1 ")
(200, True)
>>> w.add_checkpoint(f"old 5\\n\\n{note}".encode()).status
400
>>> answer = w.add_checkpoint(f"old 0\\n\\n{note.replace('example.com/log', 'other/log')}".encode())
>>> answer.status, answer.body
(404, b'unknown log: other/log\\n')

The HTTP app (:meth:`Witness.app`) needs the service's dependencies (Starlette); the rest only
the standard library and fairdeal's log modules.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import re
import sqlite3
import threading
import time
from collections.abc import Callable
from collections.abc import Iterator
from collections.abc import Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fairdeal.cosignature import NoteKey
from fairdeal.cosignature import cosign
from fairdeal.cosignature import parse_note_key
from fairdeal.cosignature import witness_key
from fairdeal.record import Signer
from fairdeal.tlog import EMPTY_ROOT
from fairdeal.tlog import LogError
from fairdeal.tlog import open_note
from fairdeal.tlog import parse_checkpoint
from fairdeal.tlog import split_note
from fairdeal.tlog import verify_consistency

__all__ = ["Witness", "WitnessError", "Answer", "KEY_FILE", "STATE_FILE", "MAX_PROOF_LINES", "SIZE_TYPE"]

KEY_FILE = "witness-key.pem"
STATE_FILE = "witness.db"
MAX_PROOF_LINES = 63
"""C2SP tlog-witness: a client sends at most 63 consistency proof lines."""
MAX_BODY_BYTES = 128 * 1024
"""Longer requests are refused unread (a note is at most 64 KiB, the proof 63 lines of 45)."""
SIZE_TYPE = "text/x.tlog.size"
"""The content type of a 409's body: the size this witness last cosigned, in decimal."""
_OLD = re.compile(r"old (0|[1-9][0-9]{0,19})")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS logs (
    origin TEXT PRIMARY KEY, size INTEGER NOT NULL, root BLOB NOT NULL, note TEXT NOT NULL, at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS evidence (
    id INTEGER PRIMARY KEY, origin TEXT NOT NULL, at INTEGER NOT NULL, reason TEXT NOT NULL,
    cosigned_size INTEGER NOT NULL, cosigned_root BLOB NOT NULL, cosigned_note TEXT NOT NULL,
    refused_size INTEGER NOT NULL, refused_root BLOB NOT NULL, refused_note TEXT NOT NULL, proof TEXT NOT NULL,
    UNIQUE (origin, cosigned_size, cosigned_root, refused_size, refused_root));
"""


class WitnessError(ValueError):
    """A witness that cannot start: a log key that is not one, a name that is not its own."""


@dataclass(frozen=True)
class Answer:
    """An answer to ``add-checkpoint``: the HTTP status, its body and content type."""

    status: int
    body: bytes
    content_type: str = "text/plain; charset=utf-8"

    @classmethod
    def refusal(cls, status: int, reason: str) -> Answer:
        return cls(status, (" ".join(reason.split()) + "\n").encode())


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


class Witness:
    """The witness kept in ``directory``: its key (``witness-key.pem``, made on first use, mode
    0600) and its state (``witness.db``), cosigning as ``name`` the checkpoints of ``logs`` (the
    logs' note verifier keys, ``origin+keyid+base64(0x01 || key)``, the origin their name).

    ``name`` is kept in the state on first use: a later start with another name is refused (its
    key ID would change, and every cosignature it made would stop counting).
    """

    def __init__(
        self,
        directory: str | Path,
        name: str | None = None,
        logs: Sequence[str] = (),
        *,
        clock: Callable[[], float] = time.time,
    ) -> None:
        if name is not None:
            try:
                witness_key(name, "00" * 32)  # the name alone checked, before any file is made
            except LogError as exc:
                raise WitnessError(f"--name: {exc}") from None
        self.directory = Path(directory)
        self.clock = clock
        self.logs: dict[str, NoteKey] = {}
        for text in logs:
            try:
                key = parse_note_key(text)
            except LogError as exc:
                raise WitnessError(f"--log: {exc}") from None
            if key.name in self.logs and self.logs[key.name] != key:
                raise WitnessError(f"--log: two keys for log {key.name!r}; a witness trusts one key per origin")
            self.logs[key.name] = key
        self.directory.mkdir(parents=True, exist_ok=True)
        self.signer = Signer.load_or_create(self.directory / KEY_FILE)
        self._db = sqlite3.connect(self.directory / STATE_FILE, isolation_level=None, check_same_thread=False)
        self._lock = threading.Lock()
        with self._lock:
            self._db.executescript(_SCHEMA)
            row = self._db.execute("SELECT value FROM meta WHERE name = 'name'").fetchone()
        if row is None:
            if name is None:
                raise WitnessError(
                    f"{self.directory} holds no witness yet: give it a name (--name, e.g. witness.example.com/w1)"
                )
            with self._lock:
                self._db.execute("INSERT INTO meta (name, value) VALUES ('name', ?)", (name,))
        elif name is not None and name != row[0]:
            raise WitnessError(
                f"the witness in {self.directory} is named {row[0]!r}, not {name!r}: "
                "its name is part of its key ID, and cannot change"
            )
        self.name: str = name if row is None else row[0]  # type: ignore[assignment]

    def close(self) -> None:
        self._db.close()

    @property
    def verifier_key(self) -> str:
        """The witness's note verifier key (``name+keyid+base64(0x04 || key)``): what an auditor
        passes to ``--witness`` and an operator to ``FAIRDEAL_WITNESSES``."""
        return witness_key(self.name, self.signer.public_hex)

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        # BEGIN IMMEDIATE: the check of the old size and the write of the new one are one step,
        # for this process's threads (the lock) and any other process on the file (SQLite's lock).
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    # -- add-checkpoint -----------------------------------------------------------------

    def add_checkpoint(self, body: bytes) -> Answer:
        """Answer a ``POST /add-checkpoint`` whose body is ``body``, as C2SP tlog-witness says."""
        if len(body) > MAX_BODY_BYTES:
            return Answer.refusal(413, f"the request is over {MAX_BODY_BYTES} bytes")
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError:
            return Answer.refusal(400, "the request is not UTF-8")
        head, blank, note = text.partition("\n\n")
        lines = head.split("\n")
        old_line = _OLD.fullmatch(lines[0])
        if not blank or old_line is None:
            return Answer.refusal(
                400, "the request is an old size line (old N), proof lines, a blank line and a checkpoint"
            )
        old = int(old_line.group(1))
        if len(lines) - 1 > MAX_PROOF_LINES:
            return Answer.refusal(400, f"more than {MAX_PROOF_LINES} consistency proof lines")
        proof = []
        for line in lines[1:]:
            try:
                digest = base64.b64decode(line, validate=True)
            except (binascii.Error, ValueError):
                digest = b""
            if len(digest) != 32:
                return Answer.refusal(400, f"proof line {line[:48]!r} is not a 32-byte hash in base64")
            proof.append(digest)
        try:
            checkpoint_text, _ = split_note(note)
        except LogError as exc:
            return Answer.refusal(400, f"not a signed checkpoint: {exc}")
        origin = checkpoint_text.split("\n", 1)[0]
        key = self.logs.get(origin)
        if key is None:
            return Answer.refusal(404, f"unknown log: {origin[:100]}")
        try:
            open_note(note, origin, key.public_hex)
        except LogError as exc:
            return Answer.refusal(403, f"the checkpoint is not signed by the log's key: {exc}")
        try:
            checkpoint = parse_checkpoint(checkpoint_text)
        except LogError as exc:
            return Answer.refusal(400, str(exc))
        if old > checkpoint.size:
            return Answer.refusal(400, f"old size {old} is larger than the checkpoint's size {checkpoint.size}")
        with self._transaction() as db:
            row = db.execute("SELECT size, root, note FROM logs WHERE origin = ?", (origin,)).fetchone()
            size, root = (0, EMPTY_ROOT) if row is None else (int(row[0]), bytes(row[1]))
            if old != size:
                return Answer(409, f"{size}\n".encode(), SIZE_TYPE)
            if checkpoint.size == 0 and checkpoint.root != EMPTY_ROOT:
                return Answer.refusal(422, "a checkpoint of size 0 has the empty tree's root, SHA-256 of nothing")
            if old == 0 and proof:
                return Answer.refusal(422, "from old size 0 the consistency proof is empty")
            try:
                verify_consistency(old, checkpoint.size, root, checkpoint.root, proof)
            except LogError as exc:
                if row is not None:
                    self._keep_evidence(db, origin, str(exc), row, note, checkpoint.size, checkpoint.root, proof)
                return Answer.refusal(422, f"not consistent with the checkpoint of size {size} cosigned before: {exc}")
            now = int(self.clock())
            line = cosign(checkpoint_text, self.name, self.signer.public_hex, self.signer.sign, now)
            kept = checkpoint_text + "\n" + _log_lines(note, key) + line
            db.execute(
                "INSERT INTO logs (origin, size, root, note, at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (origin) DO "
                "UPDATE SET size = excluded.size, root = excluded.root, note = excluded.note, at = excluded.at",
                (origin, checkpoint.size, checkpoint.root, kept, now),
            )
        return Answer(200, line.encode())

    def _keep_evidence(
        self,
        db: sqlite3.Connection,
        origin: str,
        reason: str,
        row: tuple[Any, ...],
        note: str,
        size: int,
        root: bytes,
        proof: list[bytes],
    ) -> None:
        # Both notes are signed by the log: together they prove it showed two trees that cannot both be its.
        db.execute(
            "INSERT OR IGNORE INTO evidence (origin, at, reason, cosigned_size, cosigned_root, cosigned_note, "
            "refused_size, refused_root, refused_note, proof) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                origin,
                int(self.clock()),
                reason,
                int(row[0]),
                bytes(row[1]),
                row[2],
                size,
                root,
                note,
                json.dumps([_b64(p) for p in proof]),
            ),
        )

    # -- reading ------------------------------------------------------------------------

    def latest(self, origin: str) -> str | None:
        """The last checkpoint of ``origin`` this witness cosigned, with the log's signature and
        its own cosignature (``None`` if it never cosigned one)."""
        with self._lock:
            row = self._db.execute("SELECT note FROM logs WHERE origin = ?", (origin,)).fetchone()
        return None if row is None else str(row[0])

    def evidence(self) -> list[dict[str, Any]]:
        """Every fork refused: ``{"origin", "at", "reason", "cosigned": {"size", "root", "note"},
        "refused": {...}, "proof": [base64]}``, oldest first (roots in hex, notes as signed)."""
        with self._lock:
            rows = self._db.execute(
                "SELECT origin, at, reason, cosigned_size, cosigned_root, cosigned_note, refused_size, "
                "refused_root, refused_note, proof FROM evidence ORDER BY id"
            ).fetchall()
        return [
            {
                "origin": r[0],
                "at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(r[1])),
                "reason": r[2],
                "cosigned": {"size": r[3], "root": bytes(r[4]).hex(), "note": r[5]},
                "refused": {"size": r[6], "root": bytes(r[7]).hex(), "note": r[8]},
                "proof": json.loads(r[9]),
            }
            for r in rows
        ]

    def info(self) -> dict[str, Any]:
        """What ``GET /`` says: the witness's name and key, the logs it witnesses."""
        return {"name": self.name, "verifier_key": self.verifier_key, "logs": [str(k) for k in self.logs.values()]}

    # -- HTTP ---------------------------------------------------------------------------

    def app(self) -> Any:
        """The witness as an ASGI app: ``POST /add-checkpoint``; ``GET /<sha256(origin) hex>/checkpoint``
        (C2SP's monitoring); ``GET /evidence``; ``GET /`` (:meth:`info`)."""
        from starlette.applications import Starlette
        from starlette.concurrency import run_in_threadpool
        from starlette.requests import Request
        from starlette.responses import JSONResponse
        from starlette.responses import Response
        from starlette.routing import Route

        async def add_checkpoint(request: Request) -> Response:
            declared = request.headers.get("content-length", "")
            if declared.isdigit() and int(declared) > MAX_BODY_BYTES:
                answer = Answer.refusal(413, f"the request is over {MAX_BODY_BYTES} bytes")
            else:
                body = bytearray()
                async for chunk in request.stream():
                    body += chunk
                    if len(body) > MAX_BODY_BYTES:
                        break
                answer = await run_in_threadpool(self.add_checkpoint, bytes(body))
            # The content type exactly as given (Starlette would add a charset to text/x.tlog.size).
            return Response(answer.body, answer.status, headers={"Content-Type": answer.content_type})

        async def checkpoint(request: Request) -> Response:
            wanted = request.path_params["origin_hash"]
            for origin in self.logs:
                if hashlib.sha256(origin.encode()).hexdigest() == wanted:
                    note = await run_in_threadpool(self.latest, origin)
                    if note is not None:
                        return Response(note, media_type="text/plain; charset=utf-8")
            return Response("no checkpoint of that log cosigned here\n", 404, media_type="text/plain; charset=utf-8")

        async def evidence(request: Request) -> Response:
            return JSONResponse({"evidence": await run_in_threadpool(self.evidence)})

        async def info(request: Request) -> Response:
            return JSONResponse(self.info())

        return Starlette(
            routes=[
                Route("/add-checkpoint", add_checkpoint, methods=["POST"]),
                Route("/evidence", evidence, methods=["GET"]),
                Route("/{origin_hash:str}/checkpoint", checkpoint, methods=["GET"]),
                Route("/", info, methods=["GET"]),
            ]
        )


def _log_lines(note: str, key: NoteKey) -> str:
    """The signature lines of ``note`` by the log's key (the ones the witness verified)."""
    _, signatures = split_note(note)
    return "".join(
        f"\u2014 {name} {_b64(raw)}\n" for name, raw in signatures if name == key.name and raw[:4] == key.key_id
    )
