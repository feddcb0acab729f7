"""The service's side of the transparency log (spec/log.md): signed checkpoints, proofs, pages of
entries, a record's entries, the host pseudonyms. The entries themselves are written by the store,
in the transactions that create and end records (:meth:`fairdeal.service.store.Store._insert_log`).

>>> from fairdeal.record import Signer
>>> from fairdeal.service.keys import Sealer
>>> from fairdeal.service.store import open_store
>>> log = PublicLog(open_store("sqlite:///:memory:"), Signer.from_seed(bytes(32)), Sealer(bytes(32)), "example.com/log")
>>> log.checkpoint().splitlines()[:3]
['example.com/log', '0', '47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=']
>>> log.host_of(None, "192.0.2.1") == log.host_of(None, "192.0.2.1"), log.host_of("alice", "192.0.2.1")
(True, 'alice')
"""

from __future__ import annotations

import hashlib
import hmac
import json
import threading
from collections import OrderedDict
from typing import Any

from fairdeal.record import Signer
from fairdeal.service.errors import NotFound
from fairdeal.service.errors import Rejected
from fairdeal.service.keys import Sealer
from fairdeal.service.store import Store
from fairdeal.tiles import Tile
from fairdeal.tiles import encode_bundle
from fairdeal.tiles import tile_hashes
from fairdeal.tlog import HOST_ID
from fairdeal.tlog import Checkpoint
from fairdeal.tlog import LogError
from fairdeal.tlog import Tree
from fairdeal.tlog import signed_checkpoint
from fairdeal.tlog import verifier_key

__all__ = ["PublicLog", "default_origin", "MAX_PAGE", "HOST_PREFIX"]

MAX_PAGE = 100
"""At most this many entries in one answer of ``GET /log/entries``."""
HOST_PREFIX = "ip-"
"""A host pseudonym's prefix: an operator's ``host_id`` may not start with it."""
_HOST_LABEL = "fairdeal/v1/log-host"


def default_origin(public_hex: str) -> str:
    """The origin of a log whose operator set none: stable for the key, and plainly not a host.

    >>> default_origin("ab" * 32)
    'fairdeal.invalid/log/abababababababab'
    """
    return f"fairdeal.invalid/log/{public_hex[:16]}"


class PublicLog:
    """Checkpoints and proofs of the store's log, signed with the service's key."""

    KEEP_CHECKPOINTS = 64
    KEEP_TILES = 256
    """Full tiles and bundles kept in memory (a bundle of 256 entries is about 50 KB)."""

    def __init__(self, store: Store, signer: Signer, sealer: Sealer, origin: str = "") -> None:
        self.store = store
        self.signer = signer
        self.origin = origin or default_origin(signer.public_hex)
        self._host_key = sealer.derive(_HOST_LABEL)
        self._notes: dict[int, str] = {}
        self._tiles: OrderedDict[Tile, bytes] = OrderedDict()
        self._lock = threading.Lock()

    @property
    def verifier_key(self) -> str:
        return verifier_key(self.origin, self.signer.public_hex)

    # -- hosts ---------------------------------------------------------------------------

    def host_of(self, host_id: str | None, address: str | None) -> str:
        """What a start entry says of who opened it: ``host_id`` as given, else the pseudonym of
        the client's address (``-`` when there is no address either)."""
        if host_id is not None:
            if not HOST_ID.fullmatch(host_id) or host_id.startswith(HOST_PREFIX):
                raise Rejected(f"host_id is 1 to 64 of A-Z a-z 0-9 . _ - and does not start with {HOST_PREFIX!r}")
            return host_id
        if not address:
            return "-"
        digest = hmac.new(self._host_key, address.encode(), hashlib.sha256).hexdigest()
        return HOST_PREFIX + digest[:20]

    # -- checkpoints and proofs -------------------------------------------------------------

    def tree(self) -> Tree:
        return self.store.log_tree()

    def checkpoint(self, size: int | None = None, tree: Tree | None = None) -> str:
        """The signed checkpoint of the log at ``size`` (default: now), signed once per size."""
        tree = tree or self.tree()
        size = len(tree) if size is None else size
        with self._lock:
            note = self._notes.get(size)
        if note is None:
            note = signed_checkpoint(
                Checkpoint(self.origin, size, tree.root(size)), self.signer.public_hex, self.signer.sign
            )
            with self._lock:
                self._notes[size] = note
                while len(self._notes) > self.KEEP_CHECKPOINTS:
                    del self._notes[min(self._notes)]
        return note

    def announce(self, index: int) -> dict[str, Any]:
        """The create answer's ``log``: the start entry's index, a checkpoint that holds it, the proof."""
        tree = self.tree()
        return {
            "index": index,
            "checkpoint": self.checkpoint(tree=tree),
            "inclusion": [h.hex() for h in tree.inclusion_proof(index, len(tree))],
        }

    async def announce_async(self, index: int) -> dict[str, Any]:
        """:meth:`announce`, reading the tree from the event loop where the store allows."""
        tree = await self.store.log_tree_async()
        return {
            "index": index,
            "checkpoint": self.checkpoint(tree=tree),
            "inclusion": [h.hex() for h in tree.inclusion_proof(index, len(tree))],
        }

    def announced(self, record_id: str) -> dict[str, Any] | None:
        """:meth:`announce` for the start entry of game or session ``record_id``, against the
        checkpoint of now: what a seat's first receipt (its ``client-commit``) carries, so that one
        who joined by a link, and never saw the create answer, knows the game is in the log.
        ``None`` for a record the log never announced (made before the log)."""
        rows = self.store.log_of(record_id)
        return None if not rows else self.announce(rows[0][0])

    async def announced_async(self, record_id: str) -> dict[str, Any] | None:
        """:meth:`announced`, reading from the event loop where the store allows."""
        rows = await self.store.log_of_async(record_id)
        return None if not rows else await self.announce_async(rows[0][0])

    # A tree, an entry or a proof the log does not hold is a 404, as an unknown id or a tile past the
    # log's end is (the parameters fit their schema: what they name is not there, or not yet).

    def _size(self, tree: Tree, size: int | None, what: str) -> int:
        if size is None:
            return len(tree)
        if not 0 <= size <= len(tree):
            raise NotFound(f"{what} {size} is not between 0 and the log's size {len(tree)}")
        return size

    def inclusion(self, index: int, size: int | None = None) -> dict[str, Any]:
        tree = self.tree()
        size = self._size(tree, size, "size")
        if not 0 <= index < size:
            raise NotFound(f"index {index} is not in a tree of {size}")
        return {
            "index": index,
            "size": size,
            "root": tree.root(size).hex(),
            "proof": [h.hex() for h in tree.inclusion_proof(index, size)],
        }

    def consistency(self, first: int, second: int | None = None) -> dict[str, Any]:
        tree = self.tree()
        second = self._size(tree, second, "second")
        if not 0 <= first <= second:
            raise NotFound(f"first {first} is not between 0 and second {second}")
        try:
            proof = tree.consistency_proof(first, second)
        except LogError as exc:  # pragma: no cover - the sizes were checked
            raise Rejected(str(exc)) from None
        return {
            "first": first,
            "second": second,
            "first_root": tree.root(first).hex(),
            "second_root": tree.root(second).hex(),
            "proof": [h.hex() for h in proof],
        }

    def entries(self, start: int, end: int | None = None) -> dict[str, Any]:
        size = self.store.log_size()
        if end is None:
            end = start + MAX_PAGE
        # Cut to the page and the log's size; an end before start, or a start past the size, is an empty page.
        end = min(end, start + MAX_PAGE, size)
        return {
            "size": size,
            "entries": [{"index": i, "entry": text} for i, text in self.store.log_entries(start, end)],
        }

    def tile(self, tile: Tile) -> bytes:
        """A hash tile or an entry bundle of the log (C2SP tlog-tiles, spec/log.md section 10);
        :class:`NotFound` when the log is not yet that far. A full tile never changes, so the last
        ones asked for are kept."""
        with self._lock:
            data = self._tiles.get(tile)
            if data is not None:
                self._tiles.move_to_end(tile)
                return data
        tree = self.tree()
        start, end = tile.span()
        if end > len(tree):
            what = "entry bundle" if tile.is_bundle else "tile"
            raise NotFound(f"{what} {tile.path()} holds entries up to {end}, and the log has {len(tree)}")
        if tile.is_bundle:
            rows = self.store.log_entries(start, end)
            if [i for i, _ in rows] != list(range(start, end)):  # pragma: no cover - the tree holds them
                raise RuntimeError(f"the log's entries {start} to {end} are not all stored")
            data = encode_bundle([text.encode() for _, text in rows])
        else:
            data = tile_hashes(tree, tile)
        if tile.full:
            with self._lock:
                self._tiles[tile] = data
                while len(self._tiles) > self.KEEP_TILES:
                    self._tiles.popitem(last=False)
        return data

    def of_record(self, record_id: str, what: str) -> dict[str, Any]:
        """A game's or session's entries and their inclusion proofs against the checkpoint given."""
        tree = self.tree()
        rows = [(i, text) for i, text in self.store.log_of(record_id) if i < len(tree)]
        if not rows or json.loads(rows[0][1]).get("kind") != what:
            raise NotFound(f"there is no {what} {record_id!r} in the log")
        return {
            "checkpoint": self.checkpoint(tree=tree),
            "size": len(tree),
            "entries": [
                {"index": i, "entry": text, "inclusion": [h.hex() for h in tree.inclusion_proof(i, len(tree))]}
                for i, text in rows
            ],
        }
