"""The transparency log (spec/log.md): its signed checkpoint, entries, proofs, a record's entries,
and the same log as C2SP tlog-tiles (section 10): ``/log`` is the tiles' prefix."""

from __future__ import annotations

import gzip
from typing import Annotated
from typing import Any

from fastapi import APIRouter
from fastapi import Depends
from fastapi import Path
from fastapi import Query
from fastapi import Request
from fastapi.responses import PlainTextResponse
from fastapi.responses import Response

from fairdeal.service.deps import GameId
from fairdeal.service.deps import SessionId
from fairdeal.service.deps import StoreDep
from fairdeal.service.errors import NotFound
from fairdeal.service.models import one_value_each
from fairdeal.service.schemas import LogConsistency
from fairdeal.service.schemas import LogEntries
from fairdeal.service.schemas import LogInclusion
from fairdeal.service.schemas import LogInfo
from fairdeal.service.schemas import RecordLog
from fairdeal.service.schemas import errors
from fairdeal.service.transparency import PublicLog
from fairdeal.tiles import TileError
from fairdeal.tiles import parse_tile_path

router = APIRouter(tags=["log"])

ONE_VALUE_EACH = [Depends(one_value_each)]
"""The query's parameters are each given once."""

# An index or size: at most 2**53, past any log's size and within what JSON numbers hold exactly.
Position = Annotated[int, Query(ge=0, le=2**53)]
OptionalPosition = Annotated[int | None, Query(ge=0, le=2**53)]


def _log(request: Request) -> PublicLog:
    log: PublicLog = request.app.state.log
    return log


@router.get(
    "/log/checkpoint",
    response_class=PlainTextResponse,
    responses={
        200: {
            "content": {"text/plain": {"schema": {"type": "string"}}},
            "description": "The signed checkpoint of the log now: C2SP tlog-checkpoint in a C2SP signed note.",
        }
    },
)
async def checkpoint(request: Request, store: StoreDep) -> PlainTextResponse:
    """The log's current tree head, signed with the server's key (the one that signs records),
    and cosigned by the witnesses that did (spec/log.md section 9)."""
    witnesses = request.app.state.witnesses
    if witnesses is not None:
        return PlainTextResponse(await witnesses.checkpoint(), headers={"Cache-Control": "no-cache"})
    # It changes with every entry: caches must ask again (tlog-tiles: no caching beyond a few seconds).
    return PlainTextResponse(await store.call(_log(request).checkpoint), headers={"Cache-Control": "no-cache"})


# What follows /log/tile/: the longest tile path is under 64 characters (tiles.parse_tile_path says the rest).
TilePath = Annotated[str, Path(max_length=64)]
IMMUTABLE = "public, max-age=31536000, immutable"
"""A tile's caching: a tile, full or partial, is the same bytes for as long as the log exists."""


def _gzip_accepted(request: Request) -> bool:
    for part in request.headers.get("accept-encoding", "").split(","):
        name, _, params = part.strip().partition(";")
        if name.strip().lower() == "gzip":
            q = params.strip().replace(" ", "").lower()
            return q not in ("q=0", "q=0.0", "q=0.00", "q=0.000")
    return False


@router.get(
    "/log/tile/{path:path}",
    response_class=Response,
    responses={
        200: {
            "content": {"application/octet-stream": {"schema": {"type": "string", "format": "binary"}}},
            "description": "A hash tile (256 hashes of 32 bytes, or fewer for a partial one) or an entry bundle.",
        },
        **errors(404, 422),
    },
)
async def tile(request: Request, store: StoreDep, path: TilePath) -> Response:
    """``/log/tile/<L>/<N>[.p/<W>]`` and ``/log/tile/entries/<N>[.p/<W>]``: the log as C2SP tlog-tiles."""
    try:
        wanted = parse_tile_path(f"tile/{path}")
    except TileError as exc:
        raise NotFound(str(exc)) from None
    data = await store.call(_log(request).tile, wanted)
    headers = {"Cache-Control": IMMUTABLE}
    if wanted.is_bundle:
        # tlog-tiles: bundles should be compressed (entries of JSON shrink to about a fifth).
        headers["Vary"] = "Accept-Encoding"
        if _gzip_accepted(request):
            data, headers["Content-Encoding"] = gzip.compress(data, mtime=0), "gzip"
    return Response(data, media_type="application/octet-stream", headers=headers)


@router.get("/.well-known/fairdeal-log", response_model=LogInfo)
async def log_info(request: Request) -> dict[str, Any]:
    """Where the log's checkpoint is, its origin, the key that signs it and the witnesses' keys."""
    log = _log(request)
    witnesses = request.app.state.witnesses
    return {
        "checkpoint": str(request.url_for("checkpoint")),
        "origin": log.origin,
        "public_key": log.signer.public_hex,
        "verifier_key": log.verifier_key,
        "witnesses": [] if witnesses is None else [str(site.key) for site in witnesses.sites],
    }


@router.get("/log/entries", response_model=LogEntries, responses=errors(422), dependencies=ONE_VALUE_EACH)
async def entries(request: Request, store: StoreDep, start: Position, end: OptionalPosition = None) -> dict[str, Any]:
    """Entries ``start`` to ``end`` (exclusive), at most 100 (each the exact bytes the log hashes): those
    the log holds, none past its size (or for an ``end`` before ``start``)."""
    return await store.call(_log(request).entries, start, end)


@router.get(
    "/log/proof/inclusion", response_model=LogInclusion, responses=errors(404, 422), dependencies=ONE_VALUE_EACH
)
async def inclusion(
    request: Request, store: StoreDep, index: Position, size: OptionalPosition = None
) -> dict[str, Any]:
    """The RFC 9162 inclusion proof of entry ``index`` in the tree of ``size`` (default: now); 404 for an
    index not below the size, or a size past the log's."""
    return await store.call(_log(request).inclusion, index, size)


@router.get(
    "/log/proof/consistency", response_model=LogConsistency, responses=errors(404, 422), dependencies=ONE_VALUE_EACH
)
async def consistency(
    request: Request, store: StoreDep, first: Position, second: OptionalPosition = None
) -> dict[str, Any]:
    """The RFC 9162 consistency proof from the tree of ``first`` to that of ``second`` (default: now); 404
    for a first past the second, or a second past the log's size."""
    return await store.call(_log(request).consistency, first, second)


@router.get("/games/{game_id}/log", response_model=RecordLog, responses=errors(404, 422), tags=["games"])
async def game_log(request: Request, store: StoreDep, game_id: GameId) -> dict[str, Any]:
    """The game's entries in the log (its start, and its end once revealed), with inclusion proofs."""
    return await store.call(_log(request).of_record, game_id, "game")


@router.get("/sessions/{session_id}/log", response_model=RecordLog, responses=errors(404, 422), tags=["sessions"])
async def session_log(request: Request, store: StoreDep, session_id: SessionId) -> dict[str, Any]:
    """The session's entries in the log (its start, and its end once revealed), with inclusion proofs."""
    return await store.call(_log(request).of_record, session_id, "session")
