"""Dealing sessions kept by the service: :class:`~fairdeal.service.dealing.DealingSession` over the store.

The owner key (returned once, at creation) may shuffle, start early, reveal,
and read the orders before the reveal; each seat's token commits and
reveals that seat's client seed. After the reveal anyone may read every
order, and derive it again from the record.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from collections.abc import Sequence
from typing import TYPE_CHECKING
from typing import Any
from typing import TypeVar

from fairdeal.cards import Card
from fairdeal.cards import codes
from fairdeal.fairness import FairnessError
from fairdeal.fairness import new_server_seed
from fairdeal.record import canonical
from fairdeal.service.dealing import DealingSession
from fairdeal.service.dealing import SessionError
from fairdeal.service.errors import NotFound
from fairdeal.service.errors import Rejected
from fairdeal.service.errors import Stale
from fairdeal.service.keys import hash_token
from fairdeal.service.keys import new_token
from fairdeal.service.live import Cached
from fairdeal.service.live import LiveRecords
from fairdeal.service.store import SessionRow

if TYPE_CHECKING:  # pragma: no cover
    from fairdeal.service.transparency import PublicLog

__all__ = ["SessionService"]

T = TypeVar("T")  # what an action returns


def status_of(session: DealingSession) -> str:
    if session.revealed:
        return "revealed"
    return "dealing" if session.started else "seeding"


class SessionService(LiveRecords[DealingSession]):
    table_name = "sessions"
    what = "session"

    def _row(self, record_id: str) -> SessionRow | None:
        return self.store.session(record_id)

    async def _row_async(self, record_id: str) -> SessionRow | None:
        return await self.store.session_async(record_id)

    def _host_hash(self, row: SessionRow) -> str:
        return row.owner_hash

    def _restore(self, lines: list[dict[str, Any]], server_seed: str, row: SessionRow) -> DealingSession:
        return DealingSession.restore(lines, server_seed, self.signer, clock=self.clock)

    log: PublicLog | None = None
    """The transparency log the create answers prove their start entry against (set by the app)."""

    def create(self, seats: int, label_prefix: str = "", host: str = "-") -> dict[str, Any]:
        session_id = secrets.token_urlsafe(12)
        server_seed = new_server_seed()
        try:
            session = DealingSession.new(
                session_id, seats, self.signer, clock=self.clock, label_prefix=label_prefix, server_seed=server_seed
            )
        except (SessionError, FairnessError) as exc:
            raise Rejected(str(exc)) from None
        owner_key = new_token()
        tokens = {seat: new_token() for seat in range(seats)}
        row = SessionRow(
            id=session_id,
            created=session.lines[0]["created"],
            status=status_of(session),
            sealed_seed=self.sealer.seal(session_id, server_seed),
            owner_hash=hash_token(owner_key),
            seats=seats,
            length=session.seq,
        )
        seat_hashes = {seat: hash_token(t) for seat, t in tokens.items()}
        index = self.store.create_session(
            row, seat_hashes, [canonical(line).decode() for line in session.lines], host=host
        )
        self._keep_new(session_id, Cached(session, row.owner_hash, seat_hashes, row))  # as it is: no reading it back
        return {
            "session_id": session_id,
            "commitment": session.dealer.commitment,
            "owner_key": owner_key,
            "seats": [{"seat": seat, "token": token} for seat, token in tokens.items()],
            "public_key": self.signer.public_hex,
            "label_prefix": label_prefix,
            "seq": session.seq,
            **({"log": self.log.announce(index)} if self.log is not None and index is not None else {}),
        }

    def _act(self, session_id: str, action: Callable[[DealingSession], T]) -> T:
        def guarded(session: DealingSession, row: SessionRow) -> T:
            try:
                return action(session)
            except FairnessError as exc:
                raise Rejected(str(exc)) from None
            except SessionError as exc:
                raise Stale(str(exc)) from None

        def after(session: DealingSession, row: SessionRow) -> dict[str, Any]:
            status = status_of(session)
            return {"status": None if status == row.status else status}

        return self.act(session_id, guarded, after=after)

    def commit(self, session_id: str, seat: int, commitment: str) -> dict[str, Any]:
        """The seat's commitment's receipt, with the session's start entry in the log (``log``)."""
        receipt = self._act(session_id, lambda s: s.commit(seat, commitment))
        announced = None if self.log is None else self.log.announced(session_id)
        return receipt if announced is None else {**receipt, "log": announced}

    def reveal_seed(self, session_id: str, seat: int, seed: str) -> dict[str, Any]:
        # A seed that does not match its commitment is a FairnessError (422), a reveal out of order a SessionError (409).
        return self._act(session_id, lambda s: s.reveal_client_seed(seat, seed))

    def start(self, session_id: str) -> dict[str, Any]:
        return self._act(session_id, lambda s: s.start())

    def shuffle(self, session_id: str, label: str, cards: Sequence[Card]) -> dict[str, Any]:
        def deal(session: DealingSession) -> dict[str, Any]:
            order, receipt = session.shuffle(label, cards)
            return {"label": label, "order": codes(order), "count": len(order), "receipt": receipt}

        return self._act(session_id, deal)

    def reveal(self, session_id: str) -> dict[str, Any]:
        line = self._act(session_id, lambda s: s.reveal())
        return {"server_seed": line["server_seed"], "seq": line["seq"]}

    def order(self, session_id: str, label: str) -> dict[str, Any]:
        def read(session: DealingSession, row: SessionRow) -> dict[str, Any]:
            try:
                order = session.order(label)
            except SessionError as exc:
                raise NotFound(str(exc)) from None
            return {"label": label, "order": codes(order), "count": len(order)}

        return self.read(session_id, read)

    def state(self, session_id: str) -> dict[str, Any]:
        def read(session: DealingSession, row: SessionRow) -> dict[str, Any]:
            dealer = session.dealer
            out = {
                "session_id": session.session_id,
                "status": status_of(session),
                "seq": session.seq,
                "seats": session.seats,
                "label_prefix": session.label_prefix,
                "commitment": dealer.commitment,
                "client_seeds": {
                    "open": not session.started,
                    "committed": sorted(dealer.client_commitments),
                    "revealed": sorted(dealer.client_seeds),
                },
                "shuffles": [{"label": label, "count": len(cards)} for label, cards in session.shuffles.items()],
            }
            if session.revealed:
                out["server_seed"] = session.revealed_seed
            return out

        return self.read(session_id, read)
