"""The service's side of witnessing (spec/log.md, section 9): it sends the log's checkpoints to the
witnesses the operator lists in ``FAIRDEAL_WITNESSES`` (C2SP tlog-witness ``add-checkpoint``), checks
the cosignatures they answer with, and keeps them, to serve with ``GET /log/checkpoint``.

Nothing a player does waits on a witness: a round runs in the background every
``FAIRDEAL_WITNESS_INTERVAL`` seconds when the log has grown, or when someone asks for the
checkpoint (who waits for it, at most a few timeouts). A witness that is down, slow or refuses
costs its cosignature on that checkpoint, nothing else; why is logged.

>>> sites = parse_witnesses("https://w1.example/ w1.example/w+1ebcd6e7+BAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA")
>>> sites[0].url, sites[0].key.name
('https://w1.example', 'w1.example/w')
>>> parse_witnesses("w1.example/w+1ebcd6e7+BAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA")
Traceback (most recent call last):
...
ValueError: entry 1 is a witness's URL and its verifier key, separated by a space
"""

from __future__ import annotations

import asyncio
import base64
import logging
import re
import urllib.parse
from collections.abc import Awaitable
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING
from typing import Any

from fairdeal.cosignature import WitnessKey
from fairdeal.cosignature import add_cosignatures
from fairdeal.cosignature import cosigners
from fairdeal.tlog import LogError
from fairdeal.tlog import Tree
from fairdeal.tlog import split_note

if TYPE_CHECKING:  # the settings parse FAIRDEAL_WITNESSES with this module, before any store exists
    from fairdeal.service.transparency import PublicLog

__all__ = ["WitnessSite", "Witnesses", "parse_witnesses", "Post", "SIZE_TYPE"]

log = logging.getLogger("fairdeal.service")

SIZE_TYPE = "text/x.tlog.size"
MAX_ANSWER_BYTES = 64 * 1024
"""A witness's answer is a few signature lines; more is not read."""
TRIES = 3
"""Requests to one witness in one round: the first, and one more for each 409 that names a size."""
KEEP_SIZES = 64

Post = Callable[[str, bytes], Awaitable[tuple[int, str, bytes]]]
"""``post(url, body)``: the status, content type and body of the answer to ``POST url``."""


@dataclass(frozen=True)
class WitnessSite:
    """A witness the log sends its checkpoints to: its URL (the submission prefix) and key."""

    url: str
    key: WitnessKey


def parse_witnesses(text: str) -> tuple[WitnessSite, ...]:
    """``FAIRDEAL_WITNESSES``: entries separated by commas or newlines, each a witness's URL and
    its verifier key separated by spaces; ``ValueError`` naming the entry that is wrong."""
    sites: list[WitnessSite] = []
    entries = [e.strip() for e in re.split(r"[,\n]", text or "") if e.strip()]
    for number, entry in enumerate(entries, 1):
        parts = entry.split()
        if len(parts) != 2:
            raise ValueError(f"entry {number} is a witness's URL and its verifier key, separated by a space")
        url, vkey = parts
        split = urllib.parse.urlsplit(url)
        if split.scheme not in ("http", "https") or not split.netloc or split.query or split.fragment:
            raise ValueError(f"entry {number}: {url[:100]!r} is not an http:// or https:// URL")
        try:
            key = WitnessKey.parse(vkey)
        except LogError as exc:
            raise ValueError(f"entry {number}: {exc}") from None
        if any(site.key.name == key.name for site in sites):
            raise ValueError(f"entry {number}: witness {key.name!r} is listed twice")
        sites.append(WitnessSite(url.rstrip("/"), key))
    return tuple(sites)


class Witnesses:
    """The witnesses of one process's log: what each was last known to have cosigned, the
    cosignatures they gave per checkpoint size, and the rounds that ask them."""

    def __init__(
        self,
        log: PublicLog,
        sites: tuple[WitnessSite, ...],
        timeout: float = 5.0,
        interval: float = 10.0,
        transport: Any = None,
    ) -> None:
        self.log = log
        self.sites = sites
        self.timeout = timeout
        self.interval = interval
        self.transport = transport
        """An ``httpx`` async transport for the requests (tests: the witnesses in-process)."""
        self.post: Post = self._post
        self.failures: dict[str, str] = {}
        """Each witness's last failure, by name (gone once it cosigns again)."""
        self._known: dict[str, int] = {}  # the size each witness said it last cosigned
        self._cosigned: dict[int, dict[str, str]] = {}  # size -> witness name -> its line
        self._tried: set[int] = set()  # sizes a round has been through
        self._round: asyncio.Task[int] | None = None
        self._client: Any = None

    # -- life ---------------------------------------------------------------------------

    async def start(self) -> None:
        import httpx

        self._client = httpx.AsyncClient(
            transport=self.transport,
            timeout=self.timeout,
            follow_redirects=False,
            headers={"User-Agent": "fairdeal-log"},
        )

    async def stop(self) -> None:
        if self._round is not None and not self._round.done():
            self._round.cancel()
        if self._client is not None:
            await self._client.aclose()
            self._client = None

    async def run(self) -> None:
        """Every :attr:`interval` seconds, a round if the log grew since the last one."""
        while True:
            await asyncio.sleep(self.interval)
            try:
                tree = await self.log.store.log_tree_async()
                if len(tree) not in self._tried:
                    await asyncio.shield(await self._start_round())
            except Exception:  # a database that is away now and then must not end the rounds for good
                log.exception("a round of the witnesses failed")

    # -- serving ------------------------------------------------------------------------

    def cosigned(self, note: str, size: int) -> str:
        """``note`` (the log's checkpoint of ``size``) with the cosignatures kept for it, in the
        order the witnesses are listed."""
        have = self._cosigned.get(size, {})
        return add_cosignatures(note, [have[s.key.name] for s in self.sites if s.key.name in have])

    async def checkpoint(self) -> str:
        """The checkpoint of now with its cosignatures: if no round has been through this size
        yet, one is run and waited for (at most :data:`TRIES` timeouts), so that an auditor who
        asks gets a witnessed checkpoint, or the one there is."""
        loop = asyncio.get_running_loop()
        size = len(await self.log.store.log_tree_async())
        deadline = loop.time() + self.timeout * TRIES
        while size not in self._tried and loop.time() < deadline:
            try:
                # Shielded: a client that hangs up does not cancel the round for everyone else.
                await asyncio.wait_for(asyncio.shield(await self._start_round()), deadline - loop.time())
            except TimeoutError:
                break
            except Exception:  # the checkpoint is still served, with what cosignatures there are
                log.exception("a round of the witnesses failed")
                break
        # The log may have grown meanwhile: a larger checkpoint the witnesses cosigned is as good.
        tree = await self.log.store.log_tree_async()
        size = max((s for s in self._cosigned if size <= s <= len(tree)), default=min(size, len(tree)))
        return self.cosigned(self.log.checkpoint(size, tree), size)

    async def _start_round(self) -> asyncio.Task[int]:
        if self._round is None or self._round.done():
            self._round = asyncio.create_task(self._witness())
        return self._round

    # -- a round ------------------------------------------------------------------------

    async def _witness(self) -> int:
        """Send the checkpoint of now to every witness that has not cosigned it; its size."""
        tree = await self.log.store.log_tree_async()
        size = len(tree)
        note = self.log.checkpoint(size, tree)
        have = self._cosigned.get(size, {})
        await asyncio.gather(
            *(self._submit(site, size, note, tree) for site in self.sites if site.key.name not in have)
        )
        self._tried.add(size)
        for old in sorted(self._tried)[:-KEEP_SIZES]:
            self._tried.discard(old)
        for old in sorted(self._cosigned)[:-KEEP_SIZES]:
            del self._cosigned[old]
        return size

    def _fail(self, site: WitnessSite, size: int, reason: str) -> None:
        self.failures[site.key.name] = reason
        log.warning("witness %s did not cosign the checkpoint of size %d: %s", site.key.name, size, reason)

    async def _submit(self, site: WitnessSite, size: int, note: str, tree: Tree) -> None:
        """``add-checkpoint`` to one witness; on a 409, again from the size it names."""
        name = site.key.name
        old = self._known.get(name, 0)
        for _ in range(TRIES):
            if old > size:
                # It cosigned a larger tree of this origin: this process's view is behind (another
                # process's round got there first), or the log it saw is not this one.
                self._fail(site, size, f"it has cosigned a tree of {old} entries, and this log has {size}")
                return
            proof = "".join(base64.b64encode(h).decode() + "\n" for h in tree.consistency_proof(old, size))
            try:
                status, content_type, answer = await self.post(
                    f"{site.url}/add-checkpoint", f"old {old}\n{proof}\n{note}".encode()
                )
            except Exception as exc:  # noqa: BLE001 (whatever the network does, the log goes on)
                self._fail(site, size, f"no answer ({type(exc).__name__}: {exc})")
                return
            if status == 200:
                self._keep(site, size, note, answer)
                return
            if status == 409 and content_type.split(";")[0].strip() == SIZE_TYPE:
                said = answer.decode("ascii", "replace").strip()
                if not said.isdigit() or int(said) == old:
                    self._fail(site, size, f"409 with size {said[:24]!r}, from old size {old}")
                    return
                old = self._known[name] = int(said)
                continue
            self._fail(site, size, f"HTTP {status}: {answer[:300].decode('utf-8', 'replace').strip()}")
            return
        self._fail(site, size, f"it named another size {TRIES} times")

    def _keep(self, site: WitnessSite, size: int, note: str, answer: bytes) -> None:
        """Keep the witness's cosignature from its 200 answer, once it verifies on ``note``."""
        try:
            lines = [line + "\n" for line in answer.decode("utf-8").split("\n") if line]
            ours = []
            for line in lines:
                _, [(signer, raw)] = split_note("x\n\n" + line)
                if signer == site.key.name and raw[:4] == site.key.key_id:
                    ours.append(line)
            if not ours or site.key.name not in cosigners(add_cosignatures(note, ours), [site.key]):
                raise LogError("no cosignature by its key in the answer")
        except (UnicodeDecodeError, ValueError) as exc:
            self._fail(site, size, f"a 200 whose cosignature does not verify: {exc}")
            return
        self._known[site.key.name] = size
        self._cosigned.setdefault(size, {})[site.key.name] = ours[-1]
        self.failures.pop(site.key.name, None)

    async def _post(self, url: str, body: bytes) -> tuple[int, str, bytes]:
        assert self._client is not None, "Witnesses.start() first"
        async with self._client.stream("POST", url, content=body) as answer:
            data = bytearray()
            async for chunk in answer.aiter_bytes():
                data += chunk
                if len(data) > MAX_ANSWER_BYTES:
                    break
            return answer.status_code, answer.headers.get("content-type", ""), bytes(data)
