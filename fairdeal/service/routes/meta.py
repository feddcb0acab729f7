"""The service itself: its health and its public signing key."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi import Request
from fastapi.responses import JSONResponse

from fairdeal.service.deps import StoreDep
from fairdeal.service.schemas import Health
from fairdeal.service.schemas import PublicKey

router = APIRouter(tags=["service"])


@router.get(
    "/health",
    response_model=Health,
    responses={503: {"model": Health, "description": "The database does not answer (`status` is `unavailable`)."}},
)
async def health(store: StoreDep) -> Any:
    """``ok`` and which database it uses, once the database answers."""
    try:
        await store.ping_async()
    except Exception:  # noqa: BLE001 (any failure of the database is the answer: unavailable)
        return JSONResponse({"status": "unavailable", "store": store.kind}, status_code=503)
    return {"status": "ok", "store": store.kind}


@router.get("/.well-known/fairdeal-key", response_model=PublicKey)
def public_key(request: Request) -> dict[str, str]:
    """The Ed25519 public key that signs every record line, receipt and reveal of this server.

    Pin it when you verify a record (``fairdeal-verify --key``): a record signed
    by any other key was not written by this server.
    """
    return {
        "key": request.app.state.signer.public_hex,
        "algorithm": "Ed25519",
        "encoding": "hex, raw 32-byte public key",
    }
