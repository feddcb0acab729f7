"""Dealing sessions for games fairdeal does not know: commit-reveal of client seeds, shuffles by label, reveal."""

from __future__ import annotations

from typing import Annotated
from typing import Any

from fastapi import APIRouter
from fastapi import Path
from fastapi import Request
from fastapi import Response

from fairdeal.cards import CardError
from fairdeal.cards import pack
from fairdeal.cards import parse_cards
from fairdeal.service.deps import OwnerDep
from fairdeal.service.deps import SessionId
from fairdeal.service.deps import SessionsDep
from fairdeal.service.deps import SessionSeatDep
from fairdeal.service.deps import TokenDep
from fairdeal.service.errors import Forbidden
from fairdeal.service.errors import Rejected
from fairdeal.service.limits import request_client
from fairdeal.service.models import LABEL
from fairdeal.service.models import CommitIn
from fairdeal.service.models import CreateSession
from fairdeal.service.models import RevealIn
from fairdeal.service.models import ShuffleIn
from fairdeal.service.schemas import OPTIONAL_TOKEN
from fairdeal.service.schemas import CommitAnswer
from fairdeal.service.schemas import SessionCreated
from fairdeal.service.schemas import SessionEnd
from fairdeal.service.schemas import SessionRevealAnswer
from fairdeal.service.schemas import SessionState
from fairdeal.service.schemas import Shuffled
from fairdeal.service.schemas import ShuffledOrder
from fairdeal.service.schemas import errors

router = APIRouter(prefix="/sessions", tags=["dealing sessions"])

SEAT_STEP = errors(400, 401, 403, 404, 409, 422)
OWNER_STEP = errors(401, 403, 404, 409, 422)
READ = errors(404, 422)


@router.post("", status_code=201, response_model=SessionCreated, responses=errors(400, 422, 429))
async def create_session(body: CreateSession, sessions: SessionsDep, request: Request) -> dict[str, Any]:
    """Open a session: the commitment to its server seed, the owner key, one token per seat, and its
    start entry's place in the transparency log (``log``, spec/log.md).

    The keys are shown this once; the server keeps only their hashes. 429 when this client
    creates too fast (the rate is shared with games).
    """
    client = request_client(request)
    limits = request.app.state.limits
    limits.creates.check(client, limits.now(), "games and sessions created")
    host = request.app.state.log.host_of(body.host_id, client)
    return await sessions.store.call(sessions.create, body.seats, body.label_prefix, host)


@router.get("/{session_id}", response_model=SessionState, response_model_exclude_unset=True, responses=READ)
async def session_state(session_id: SessionId, sessions: SessionsDep) -> dict[str, Any]:
    """The session's public state: seeds committed and revealed, labels dealt (not their orders)."""
    return await sessions.store.call(sessions.state, session_id)


@router.post(
    "/{session_id}/seats/{seat}/commit",
    response_model=CommitAnswer,
    response_model_exclude_unset=True,
    responses=SEAT_STEP,
)
async def commit(session_id: SessionId, seat: SessionSeatDep, body: CommitIn, sessions: SessionsDep) -> dict[str, Any]:
    """Commit to the seat's client seed (its token required)."""
    return {"receipt": await sessions.store.call(sessions.commit, session_id, seat, body.commitment.lower())}


@router.post(
    "/{session_id}/seats/{seat}/reveal",
    response_model=SessionRevealAnswer,
    response_model_exclude_unset=True,
    responses=SEAT_STEP,
)
async def reveal_seed(
    session_id: SessionId, seat: SessionSeatDep, body: RevealIn, sessions: SessionsDep
) -> dict[str, Any]:
    """Reveal the seat's client seed, once every seat has committed; the last reveal starts the session."""
    receipt = await sessions.store.call(sessions.reveal_seed, session_id, seat, body.seed)
    return {"receipt": receipt, "session": await sessions.store.call(sessions.state, session_id)}


@router.post(
    "/{session_id}/start", response_model=SessionState, response_model_exclude_unset=True, responses=OWNER_STEP
)
async def start(session_id: SessionId, owner: OwnerDep, sessions: SessionsDep) -> dict[str, Any]:
    """The owner fixes the key now: seats without a revealed seed count with the empty string."""
    await sessions.store.call(sessions.start, session_id)
    return await sessions.store.call(sessions.state, session_id)


@router.post(
    "/{session_id}/shuffle",
    response_model=Shuffled,
    response_model_exclude_unset=True,
    responses={**OWNER_STEP, **errors(400)},
)
async def shuffle(session_id: SessionId, owner: OwnerDep, body: ShuffleIn, sessions: SessionsDep) -> dict[str, Any]:
    """Shuffle ``cards`` (or ``packs`` full packs in card order) by ``label``: the order, top first.

    The record keeps the label and the cards, not the order: only the owner
    sees it before the reveal.
    """
    try:
        if body.cards is not None:
            cards = parse_cards(body.cards)
        else:
            assert body.packs is not None, "ShuffleIn gives cards or packs (its validator)"
            cards = pack(body.packs)
    except CardError as exc:
        raise Rejected(str(exc)) from None
    return await sessions.store.call(sessions.shuffle, session_id, body.label, cards)


@router.get(
    "/{session_id}/shuffles/{label:path}",
    response_model=ShuffledOrder,
    responses=errors(401, 403, 404, 422),
    openapi_extra=OPTIONAL_TOKEN,  # anyone's after the reveal
)
async def shuffled_order(
    session_id: SessionId,
    label: Annotated[str, Path(pattern=LABEL)],
    sessions: SessionsDep,
    token: TokenDep,
) -> dict[str, Any]:
    """The order a label dealt: the owner's at any time, everyone's after the reveal."""
    if (await sessions.store.call(sessions.state, session_id))["status"] != "revealed":
        if not (await sessions.store.call(sessions.authenticate, session_id, token)).is_host:
            raise Forbidden("before the reveal only the owner may read a shuffled order")
    return await sessions.store.call(sessions.order, session_id, label)


@router.post("/{session_id}/reveal", response_model=SessionEnd, responses=OWNER_STEP)
async def reveal(session_id: SessionId, owner: OwnerDep, sessions: SessionsDep) -> dict[str, Any]:
    """End the session: the server seed is revealed and appended to the record."""
    return await sessions.store.call(sessions.reveal, session_id)


@router.get(
    "/{session_id}/record",
    response_class=Response,
    responses={
        200: {
            "content": {"application/x-ndjson": {"schema": {"type": "string"}}},
            "description": "The record, one canonical JSON object per line (spec/sessions.md).",
        },
        **READ,
    },
)
async def record(session_id: SessionId, sessions: SessionsDep) -> Response:
    """The session's record as JSON Lines: no order is in it, so it is public at any time."""
    return Response(await sessions.store.call(sessions.record_text, session_id), media_type="application/x-ndjson")
