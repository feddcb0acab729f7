"""The log as C2SP tlog-tiles (spec/log.md section 10), on SQLite and PostgreSQL: a log of 1,000+
entries read by its tiles gives the roots and proofs of the JSON endpoints; partial tiles, tiles
beyond the tree, malformed paths, caching headers; `fairdeal audit --tiles` on a good log, a
modified one and a forked one."""

from __future__ import annotations

import gzip
import json

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient
from helpers import service_settings
from service_helpers import Api
from service_helpers import Clock
from service_helpers import fetcher
from test_audit import URL
from test_audit import latest
from test_audit import play

from fairdeal.audit import AuditError
from fairdeal.audit import audit
from fairdeal.cli import main
from fairdeal.service import create_app
from fairdeal.tiles import ENTRIES
from fairdeal.tiles import read_bundle
from fairdeal.tiles import tiles_of
from fairdeal.tlog import Tree
from fairdeal.tlog import leaf_hash
from fairdeal.tlog import start_entry
from fairdeal.tlog import verify_checkpoint
from fairdeal.tlog import verify_consistency
from fairdeal.tlog import verify_inclusion

IMMUTABLE = "public, max-age=31536000, immutable"
PREFIX = f"{URL}/log"
CREATED = "2027-01-15T08:00:00Z"
"""When the entries :func:`fill` makes were created: the start of the tests' clock, as the games'."""


def fill(app, count: int) -> None:
    """Append ``count`` session start entries straight to the store's log (the path a create takes,
    without playing anything): a big log, cheaply."""
    store = app.state.store
    first = store.log_size()
    with store._transaction() as cur:
        for n in range(first, first + count):
            entry = start_entry("session", f"f{n}", f"{n:064x}", CREATED, f"h{n % 7}")
            store._insert_log(cur, f"f{n}", entry)


def get(api: Api, path: str, status: int = 200, **headers: str) -> bytes:
    answer = api.client.get(path, headers=headers)
    assert answer.status_code == status, (path, answer.text)
    return answer.content


def key_of(api: Api) -> str:
    return api.ok("GET", "/.well-known/fairdeal-log")["public_key"]


def test_the_tiles_give_the_roots_and_proofs_of_the_json_endpoints(api):
    play(api)
    fill(api.app, 1030)
    key = key_of(api)
    note = api.client.get("/log/checkpoint")
    assert note.headers["content-type"] == "text/plain; charset=utf-8" and note.headers["cache-control"] == "no-cache"
    cp = verify_checkpoint(note.text, key)
    size = cp.size
    assert size == 1039
    # The entries, from the bundles: the exact bytes /log/entries gives.
    entries: list[bytes] = []
    for bundle in tiles_of(size, ENTRIES, full=True):
        answer = api.client.get(f"/log/{bundle.path()}")
        assert answer.headers["content-type"] == "application/octet-stream"
        assert answer.headers["cache-control"] == IMMUTABLE
        entries += read_bundle(answer.content, bundle.width)
    assert [bundle.path() for bundle in tiles_of(size, ENTRIES, full=True)][-1] == "tile/entries/004.p/15"
    for start in range(0, size, 100):
        page = api.ok("GET", "/log/entries", params={"start": start})["entries"]
        assert [e["entry"].encode() for e in page] == entries[start : start + 100]
    tree = Tree([leaf_hash(e) for e in entries])
    assert tree.root() == cp.root
    # The hash tiles: level 0 the leaves, level 1 the roots of full level 0 tiles.
    level0 = b"".join(get(api, f"/log/{t.path()}") for t in tiles_of(size, 0, full=True))
    assert level0 == b"".join(tree.leaves)
    level1 = get(api, "/log/tile/1/000.p/4")
    assert level1 == b"".join(Tree(tree.leaves[n * 256 : (n + 1) * 256]).root() for n in range(4))
    # From the tiles alone, the roots and proofs of every size are the JSON endpoints'.
    for index, at in [
        (0, size),
        (255, size),
        (256, size),
        (1000, size),
        (size - 1, size),
        (3, 256),
        (300, 1024),
        (700, 701),
    ]:
        proof = api.ok("GET", "/log/proof/inclusion", params={"index": index, "size": at})
        assert proof["root"] == tree.root(at).hex()
        assert proof["proof"] == [h.hex() for h in tree.inclusion_proof(index, at)]
        verify_inclusion(leaf_hash(entries[index]), index, at, tree.inclusion_proof(index, at), tree.root(at))
    for first, second in [(1, size), (256, size), (300, 1024), (1000, size), (512, 768), (size, size)]:
        proof = api.ok("GET", "/log/proof/consistency", params={"first": first, "second": second})
        assert (proof["first_root"], proof["second_root"]) == (tree.root(first).hex(), tree.root(second).hex())
        assert proof["proof"] == [h.hex() for h in tree.consistency_proof(first, second)]
        verify_consistency(first, second, tree.root(first), tree.root(second), tree.consistency_proof(first, second))
    # Bundles are compressed for a client that takes gzip (and not for one that does not).
    raw = api.client.get("/log/tile/entries/000", headers={"Accept-Encoding": "gzip"})
    assert raw.headers["content-encoding"] == "gzip" and raw.headers["vary"] == "Accept-Encoding"
    assert read_bundle(raw.content, 256) == entries[:256]  # (the client took the gzip off)
    plain = api.client.get("/log/tile/entries/000", headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers and read_bundle(plain.content, 256) == entries[:256]
    refused = api.client.get("/log/tile/entries/000", headers={"Accept-Encoding": "gzip;q=0"})
    assert "content-encoding" not in refused.headers
    assert len(gzip.compress(plain.content)) < len(plain.content) / 3


def test_partial_tiles_and_tiles_beyond_the_tree(api):
    def missing(path: str, reason: str) -> None:
        answer = api.client.get(path)
        assert answer.status_code == 404, (path, answer.text)
        assert reason in answer.json()["detail"], (path, answer.json())

    # The empty log has no tile at all.
    missing("/log/tile/0/000.p/1", "the log has 0")
    missing("/log/tile/entries/000.p/1", "entry bundle tile/entries/000.p/1 holds entries up to 1, and the log has 0")
    fill(api.app, 300)
    tree = api.app.state.log.tree()
    full = get(api, "/log/tile/0/000")
    assert full == b"".join(tree.leaves[:256])
    assert get(api, "/log/tile/0/001.p/44") == b"".join(tree.leaves[256:300])
    # Any width up to the tree's: a client holding an older checkpoint reads its own (the beginning).
    assert get(api, "/log/tile/0/001.p/10") == b"".join(tree.leaves[256:266])
    assert get(api, "/log/tile/0/000.p/5") == full[: 5 * 32]
    answer = api.client.get("/log/tile/0/001.p/44")
    assert answer.headers["cache-control"] == IMMUTABLE and answer.headers["content-type"] == "application/octet-stream"
    missing("/log/tile/0/001.p/45", "holds entries up to 301, and the log has 300")
    missing("/log/tile/0/001", "holds entries up to 512")
    missing("/log/tile/0/002.p/1", "holds entries up to 513")
    assert get(api, "/log/tile/1/000.p/1") == tree.root(256)
    missing("/log/tile/1/000.p/2", "up to 512")
    missing("/log/tile/1/000", "up to 65536")
    missing("/log/tile/2/000.p/1", "up to 65536")
    missing("/log/tile/63/000.p/1", "up to")
    missing("/log/tile/0/x001/x234/067", "up to")
    assert len(read_bundle(get(api, "/log/tile/entries/001.p/44"), 44)) == 44
    missing("/log/tile/entries/001", "up to 512")
    # Malformed paths: a 404 with the reason (a 422 past any tile's length), never a 500.
    for path in [
        "0/1",
        "0/x000/001",
        "00/000",
        "64/000",
        "0/000.p/256",
        "0/000.p/0",
        "0/000/",
        "entries",
        "entries/000.p",
        "x/000",
        "0/" + "x999/" * 9 + "999",
        "0/%00",
        "0/000.p/1/",
        "0/" + "x999/" * 40 + "999",
    ]:
        answer = api.client.get(f"/log/tile/{path}")
        assert answer.status_code == (422 if len(path) > 64 else 404) and answer.json()["detail"], (path, answer.text)
    missing("/log/tile/0/x000/001", "write its index as 001")
    # The log grows: the tiles served before are the beginnings of the ones served now.
    fill(api.app, 300)
    assert get(api, "/log/tile/0/001")[: 44 * 32] == b"".join(tree.leaves[256:300])
    assert get(api, "/log/tile/0/000") == full
    assert get(api, "/log/tile/1/000.p/2")[:32] == tree.root(256)


def _modify_entry(app, index: int) -> None:
    """Change an entry's text behind the tree's back (its stored leaf hash is left as it was)."""
    store = app.state.store
    (text,) = [t for i, t in store.log_entries(index, index + 1)]
    changed = text.replace('"host":"h', '"host":"H')
    assert changed != text
    with store._transaction() as cur:
        cur.execute("UPDATE log_entries SET entry = ? WHERE idx = ?", (changed, index))
    app.state.log._tiles.clear()  # (the bundle kept in memory is the one before)


def test_audit_by_tiles_alone_passes_on_a_good_log_and_fails_on_a_modified_one(api, tmp_path):
    ids = play(api)
    fill(api.app, 1030)
    key = key_of(api)
    now = latest(api) + 60
    fetched: list[str] = []
    json_fetch = fetcher(api)

    def fetch(url: str) -> bytes:
        fetched.append(url)
        return json_fetch(url)

    state = tmp_path / "tiles.json"
    report = audit(PREFIX, fetch, state=state, key=key, tiles=True, now=now)
    assert report.ok, [p.message for p in report.problems]
    assert report.entries == 1039 and report.origin == api.app.state.log.origin and report.records_checked == 0
    assert report.warnings == [
        "records not checked: the log was read by its tiles alone (give the service's URL with --records)"
    ]
    # Only the checkpoint and the tiles were read: 5 bundles, 5 tiles of level 0, 1 of level 1.
    assert all(url == f"{PREFIX}/checkpoint" or url.startswith(f"{PREFIX}/tile/") for url in fetched)
    assert len(fetched) == 1 + 5 + 5 + 1
    # The same counts as the audit through the JSON endpoints; with --records, the records checked too.
    by_json = audit(URL, json_fetch, state=None, now=now)
    with_records = audit(PREFIX, json_fetch, state=None, key=key, tiles=True, records=URL, now=now)
    assert (
        with_records.ok and not with_records.warnings and with_records.records_checked == by_json.records_checked == 4
    )
    assert {k: v for k, v in with_records.to_json().items() if k not in ("url", "warnings")} == {
        k: v for k, v in by_json.to_json().items() if k not in ("url", "warnings")
    }
    # The next audit: a bigger log, consistent with the state's checkpoint (no key needed now).
    fill(api.app, 300)
    again = audit(PREFIX, fetch, state=state, tiles=True, now=now)
    assert again.ok and again.consistent is True and again.previous["size"] == 1039 and again.checkpoint["size"] == 1339
    # An entry changed behind the tree: its bundle no longer hashes to the root, and every tile above is
    # now other than the tree of the entries served.
    _modify_entry(api.app, 1000)
    bad = audit(PREFIX, fetch, state=state, tiles=True, now=now)
    assert [p.kind for p in bad.problems] == ["root-mismatch", "tile-mismatch", "inconsistent"]
    assert bad.problems[1].details["tiles"] == ["tile/0/003", "tile/1/000.p/5"]
    assert json.loads(state.read_text())["size"] == 1339  # the state does not move on
    # A stale session is still named without its record: the log alone says it never ended.
    late = audit(PREFIX, json_fetch, state=None, key=key, tiles=True, now=now + 2 * 24 * 3600)
    assert ids["open"] in {p.id for p in late.problems if p.kind == "stale"}


def test_audit_by_tiles_alone_catches_a_fork_and_a_lying_tile(api, settings, tmp_path):
    play(api)
    fill(api.app, 1030)
    key = key_of(api)
    now = latest(api) + 60
    state = tmp_path / "tiles.json"
    assert audit(PREFIX, fetcher(api), state=state, key=key, tiles=True, now=now).ok
    seen = state.read_text()
    # A hash tile that lies (the entries and checkpoint right): named, the rest fine.
    honest = fetcher(api)

    def lying(url: str) -> bytes:
        data = honest(url)
        return data[:32] + bytes(32) + data[64:] if url.endswith("/tile/0/002") else data

    report = audit(PREFIX, lying, state=None, key=key, tiles=True, now=now)
    assert [(p.kind, p.details["tiles"]) for p in report.problems] == [("tile-mismatch", ["tile/0/002"])]
    # The same service (its keys, its origin) on another database: a second tree, grown apart.
    other = create_app(service_settings(settings.data_dir, f"sqlite:///{tmp_path / 'fork.db'}"), clock=Clock())
    try:
        with TestClient(other) as client:
            fork = Api(client)
            fill(other, 1100)
            forked = audit(PREFIX, fetcher(fork), state=state, tiles=True, now=now)
            assert forked.consistent is False and [p.kind for p in forked.problems] == ["inconsistent"]
            assert "FORKED" in forked.problems[0].message and "size 1039" in forked.problems[0].message
            assert state.read_text() == seen
            # Through the command: exit 1; without a key to check the log with, exit 2 and why.
            import fairdeal.audit

            with pytest.MonkeyPatch.context() as patch:
                patch.setattr(fairdeal.audit, "url_fetch", fetcher(fork))
                result = CliRunner().invoke(
                    main, ["audit", PREFIX, "--tiles", "--state", str(state), "--now", str(int(now))]
                )
                assert result.exit_code == 1 and "inconsistent: THE LOG FORKED" in result.output, result.output
                result = CliRunner().invoke(main, ["audit", PREFIX, "--tiles", "--no-state"])
                assert result.exit_code == 2 and "give it with --key HEX" in result.output, result.output
                patch.setattr(fairdeal.audit, "url_fetch", fetcher(api))
                result = CliRunner().invoke(
                    main,
                    [
                        "audit",
                        PREFIX,
                        "--tiles",
                        "--key",
                        key,
                        "--records",
                        URL,
                        "--no-state",
                        "--json",
                        "--now",
                        str(int(now)),
                    ],
                )
                assert result.exit_code == 0, result.output
                assert json.loads(result.output)["records_checked"] == 4
    finally:
        other.state.store.close()
    with pytest.raises(AuditError, match="--key"):
        audit(PREFIX, fetcher(api), state=None, tiles=True)
