"""The transparency log (spec/log.md): its signed checkpoint, entries, proofs, a record's entries."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import PlainTextResponse

from fairdeal.service.deps import GameId, SessionId, StoreDep
from fairdeal.service.schemas import LogConsistency, LogEntries, LogInclusion, LogInfo, RecordLog, errors
from fairdeal.service.transparency import PublicLog

router = APIRouter(tags=["log"])

# An index or size: at most 2**53, past any log's size and within what JSON numbers hold exactly.
Position = Annotated[int, Query(ge=0, le=2**53)]
OptionalPosition = Annotated[int | None, Query(ge=0, le=2**53)]


def _log(request: Request) -> PublicLog:
    return request.app.state.log


@router.get(
    "/log/checkpoint",
    response_class=PlainTextResponse,
    responses={200: {"content": {"text/plain": {"schema": {"type": "string"}}},
                     "description": "The signed checkpoint of the log now: C2SP tlog-checkpoint in a C2SP signed note."}},
)
async def checkpoint(request: Request, store: StoreDep) -> PlainTextResponse:
    """The log's current tree head, signed with the server's key (the one that signs records)."""
    return PlainTextResponse(await store.call(_log(request).checkpoint))


@router.get("/.well-known/fairdeal-log", response_model=LogInfo)
async def log_info(request: Request) -> dict[str, Any]:
    """Where the log's checkpoint is, its origin, and the key that signs it."""
    log = _log(request)
    return {"checkpoint": str(request.url_for("checkpoint")), "origin": log.origin,
            "public_key": log.signer.public_hex, "verifier_key": log.verifier_key}


@router.get("/log/entries", response_model=LogEntries, responses=errors(422))
async def entries(request: Request, store: StoreDep, start: Position, end: OptionalPosition = None) -> dict[str, Any]:
    """Entries ``start`` to ``end`` (exclusive), at most 100 (each the exact bytes the log hashes)."""
    return await store.call(_log(request).entries, start, end)


@router.get("/log/proof/inclusion", response_model=LogInclusion, responses=errors(422))
async def inclusion(request: Request, store: StoreDep, index: Position, size: OptionalPosition = None) -> dict[str, Any]:
    """The RFC 9162 inclusion proof of entry ``index`` in the tree of ``size`` (default: now)."""
    return await store.call(_log(request).inclusion, index, size)


@router.get("/log/proof/consistency", response_model=LogConsistency, responses=errors(422))
async def consistency(request: Request, store: StoreDep, first: Position,
                      second: OptionalPosition = None) -> dict[str, Any]:
    """The RFC 9162 consistency proof from the tree of ``first`` to that of ``second`` (default: now)."""
    return await store.call(_log(request).consistency, first, second)


@router.get("/games/{game_id}/log", response_model=RecordLog, responses=errors(404, 422), tags=["games"])
async def game_log(request: Request, store: StoreDep, game_id: GameId) -> dict[str, Any]:
    """The game's entries in the log (its start, and its end once revealed), with inclusion proofs."""
    return await store.call(_log(request).of_record, game_id, "game")


@router.get("/sessions/{session_id}/log", response_model=RecordLog, responses=errors(404, 422), tags=["sessions"])
async def session_log(request: Request, store: StoreDep, session_id: SessionId) -> dict[str, Any]:
    """The session's entries in the log (its start, and its end once revealed), with inclusion proofs."""
    return await store.call(_log(request).of_record, session_id, "session")
