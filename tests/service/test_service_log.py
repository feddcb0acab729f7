"""The transparency log in the service (spec/log.md), on SQLite and PostgreSQL: a start entry in the
transaction that creates a game or session, an end entry with its reveal, the create answer's proof,
the tree rebuilt from the store by a new process, and no fork when two stores append at once."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor

from fairdeal.record import line_hash
from fairdeal.record import parse_record
from fairdeal.service.sessions import SessionService
from fairdeal.service.store import open_store
from fairdeal.tlog import Tree
from fairdeal.tlog import leaf_hash
from fairdeal.tlog import verify_checkpoint
from fairdeal.tlog import verify_consistency
from fairdeal.tlog import verify_inclusion


def _checked(api, announced, key):
    """The create answer's ``log``: its checkpoint verifies, and the entry is in it."""
    cp = verify_checkpoint(announced["checkpoint"], key, api.client.app.state.log.origin)
    entries = api.ok("GET", "/log/entries", params={"start": announced["index"], "end": announced["index"] + 1})
    entry = entries["entries"][0]["entry"]
    verify_inclusion(
        leaf_hash(entry.encode()),
        announced["index"],
        cp.size,
        [bytes.fromhex(h) for h in announced["inclusion"]],
        cp.root,
    )
    return json.loads(entry), cp


def test_games_and_sessions_are_announced_and_their_ends_logged(api):
    key = api.ok("GET", "/.well-known/fairdeal-key")["key"]
    info = api.ok("GET", "/.well-known/fairdeal-log")
    assert info["public_key"] == key and info["checkpoint"].endswith("/log/checkpoint")
    # A table of people: announced at once, with the host the operator named.
    game = api.create([("Ann", False), ("Bot", True)], host_id="club.member-7")
    start, first = _checked(api, game["log"], key)
    assert start == {
        "type": "start",
        "kind": "game",
        "id": game["game_id"],
        "rules": "crazy-eights",
        "commitment": game["commitment"],
        "created": start["created"],
        "host": "club.member-7",
    }
    assert api.ok("GET", f"/games/{game['game_id']}/log")["entries"][0]["entry"] == json.dumps(
        start, sort_keys=True, separators=(",", ":")
    )
    api.ok("POST", f"/games/{game['game_id']}/abandon", game["host_token"], json={"reason": "enough"})
    # A table of bots alone plays to its end inside the create: both entries at once.
    bots = api.create([("A", True), ("B", True)], options={"target": 5})
    _, second = _checked(api, bots["log"], key)
    # A session, its host the client's pseudonym.
    session = api.ok("POST", "/sessions", status=201, json={"seats": 1})
    opened, _ = _checked(api, session["log"], key)
    assert opened["kind"] == "session" and "rules" not in opened and opened["host"].startswith("ip-")
    api.ok("POST", f"/sessions/{session['session_id']}/reveal", session["owner_key"])
    # Every record's entries: its start and its end, the end naming the record's last line.
    note = api.client.get("/log/checkpoint").text
    cp = verify_checkpoint(note, key)
    for kind, record_id, how in [
        ("games", game["game_id"], "abandoned"),
        ("games", bots["game_id"], "revealed"),
        ("sessions", session["session_id"], "revealed"),
    ]:
        lines = parse_record(api.client.get(f"/{kind}/{record_id}/record").text)
        log = api.ok("GET", f"/{kind}/{record_id}/log")
        assert log["checkpoint"] == note and log["size"] == cp.size
        start, end = (json.loads(e["entry"]) for e in log["entries"])
        assert start["type"] == "start" and start["commitment"] == lines[0]["commitment"]
        assert end == {
            "type": "end",
            "id": record_id,
            "how": how,
            "seq": lines[-1]["seq"],
            "head": line_hash(lines[-1]),
        }
        for e in log["entries"]:
            verify_inclusion(
                leaf_hash(e["entry"].encode()), e["index"], cp.size, [bytes.fromhex(h) for h in e["inclusion"]], cp.root
            )
    # Every checkpoint given out is consistent with the latest.
    for old in (first, second):
        proof = api.ok("GET", "/log/proof/consistency", params={"first": old.size, "second": cp.size})
        verify_consistency(old.size, cp.size, old.root, cp.root, [bytes.fromhex(h) for h in proof["proof"]])
    assert cp.size == 6
    # The operator's host_id may not pose as a pseudonym.
    assert api.call("POST", "/games", json={"seats": [{"name": "A"}], "host_id": "ip-00"}).status_code == 422
    assert api.call("POST", "/sessions", json={"seats": 1, "host_id": "not valid"}).status_code == 422


def test_a_seats_commit_receipt_carries_the_start_entry_against_a_checkpoint_of_now(api):
    # One who joins by a link never sees the create answer: their first receipt proves the announcement.
    from fairdeal.fairness import client_commitment

    key = api.ok("GET", "/.well-known/fairdeal-key")["key"]
    game = api.create([("Ann", False), ("Bea", False)])
    api.create([("Other", False), ("Bot", True)])  # the log grows after the game's start: the proof is against now
    token = game["seats"][1]["join_token"]
    receipt = api.ok(
        "POST", f"/games/{game['game_id']}/seats/1/commit", token, json={"commitment": client_commitment("bea")}
    )["receipt"]
    start, cp = _checked(api, receipt["log"], key)
    assert start["id"] == game["game_id"] and receipt["log"]["index"] == game["log"]["index"]
    assert cp.size == game["log"]["index"] + 2 and cp.size == api.ok("GET", "/log/entries", params={"start": 0})["size"]
    # The reveal's receipt is only a receipt.
    api.ok(
        "POST",
        f"/games/{game['game_id']}/seats/0/commit",
        game["seats"][0]["join_token"],
        json={"commitment": client_commitment("ann")},
    )
    assert (
        "log" not in api.ok("POST", f"/games/{game['game_id']}/seats/1/reveal", token, json={"seed": "bea"})["receipt"]
    )
    # A session's seat too.
    session = api.ok("POST", "/sessions", status=201, json={"seats": 1})
    seat = session["seats"][0]["token"]
    got = api.ok(
        "POST", f"/sessions/{session['session_id']}/seats/0/commit", seat, json={"commitment": client_commitment("s")}
    )["receipt"]
    opened, _ = _checked(api, got["log"], key)
    assert opened["id"] == session["session_id"] and opened["kind"] == "session"


def test_the_tree_is_rebuilt_from_the_store_and_two_stores_never_fork_it(api, settings):
    made = [api.create([("Ann", False), ("Bot", True)]) for _ in range(3)]
    app = api.client.app
    before = app.state.log.tree()
    root, size = before.root(), len(before)
    # A second store on the database (another process, after a restart): the same tree, from the rows.
    other = open_store(settings.database_url)
    try:
        assert other.log_tree().root() == root and len(other.log_tree()) == size
        # Both stores open sessions at once, from many threads: one tree, every index taken once.
        sessions = app.state.sessions
        services = [SessionService(store, sessions.signer, sessions.sealer) for store in (app.state.store, other)]

        def open_one(n):
            return services[n % 2].create(1, host=f"h{n}")["session_id"]

        with ThreadPoolExecutor(8) as pool:
            ids = list(pool.map(open_one, range(24)))
        rows = other.log_entries(0, 1000)
        assert [index for index, _ in rows] == list(range(size + 24))
        assert sorted(json.loads(text)["id"] for _, text in rows[size:]) == sorted(ids)
        tree = Tree([leaf_hash(text.encode()) for _, text in rows])
        assert tree.root(size) == root
        assert app.state.store.log_tree().root() == tree.root() == other.log_tree().root()
    finally:
        other.close()
    assert made[0]["log"]["index"] == 0


# -- fairdeal-verify --log's checks (fairdeal/verification/log.py), the server's answers through the test client ----


def _fetch(api):
    from fairdeal.verification.log import LogUnavailable

    def fetch(url):
        response = api.client.get(url.removeprefix("http://testserver"))
        if response.status_code != 200:
            raise LogUnavailable(f"{url}: HTTP {response.status_code} {response.text[:100]}")
        return response.content

    return fetch


def test_the_verifier_finds_a_record_in_the_log_and_names_what_does_not_match(api):
    from fairdeal.record import Signer
    from fairdeal.record import resign
    from fairdeal.verification.log import LogUnavailable
    from fairdeal.verification.log import check_log

    fetch = _fetch(api)
    game = api.create([("A", True), ("B", True)], options={"target": 5}, host_id="alice")
    open_game = api.create([("Ann", False), ("Bot", True)])
    lines = parse_record(api.client.get(f"/games/{game['game_id']}/record").text)
    note = api.client.get("/log/checkpoint").text
    ok = check_log(lines, note, "http://testserver", fetch=fetch)
    assert ok.verified, ok.error
    assert [e["type"] for e in ok.entries] == ["start", "end"] and "LOG VERIFIED" in str(ok)
    # A record whose end is not the one the log holds: its last line changed (and re-signed by the server's key).
    changed = [dict(line) for line in lines]
    changed[-1]["server_seed"] = "00" * 32
    bad = check_log(changed, note, "http://testserver", fetch=fetch)
    assert not bad.verified and "head is" in bad.error and "in the log" in bad.error, bad.error
    # Cut before its reveal, while the log says it ended.
    cut = check_log(lines[:-1], note, "http://testserver", fetch=fetch)
    assert "ended at line" in cut.error
    # Another commitment in the header.
    other = [dict(line) for line in lines]
    other[0]["commitment"] = "ab" * 32
    assert "start entry 0: commitment is" in check_log(other, note, "http://testserver", fetch=fetch).error
    # A checkpoint signed by another key than the record's.
    stranger = resign(lines, Signer.from_seed(bytes(32)))
    assert "does not verify" in check_log(stranger, note, "http://testserver", fetch=fetch).error
    # A checkpoint from before the end entry was written.
    old = api.client.app.state.log.checkpoint(1)
    assert "take a newer checkpoint" in check_log(lines, old, "http://testserver", fetch=fetch).error
    # The server rolled back below the checkpoint: it signs a smaller tree and cannot prove
    # against the larger one (its 404). A failed check, not a server that cannot be asked.
    size = len(api.client.app.state.log.tree())

    def rolled_back(url):
        if url.endswith("/log/checkpoint"):
            return api.client.app.state.log.checkpoint(size - 1).encode()
        if "/log/proof/" in url:
            raise LogUnavailable(f"{url}: HTTP 404 the tree has {size - 1} entries")
        return fetch(url)

    rolled = check_log(lines, note, "http://testserver", fetch=rolled_back)
    assert (
        not rolled.verified
        and f"now signs a tree of size {size - 1}, smaller than the checkpoint's {size}" in rolled.error
    )
    # A game this log never held.
    unknown = [dict(lines[0], game_id="nosuchgame"), *lines[1:]]
    assert "no entry for game nosuchgame" in check_log(unknown, note, "http://testserver", fetch=fetch).error
    # An unfinished record: its start is enough.
    started = parse_record(api.client.get(f"/games/{open_game['game_id']}/record").text)
    now = api.client.get("/log/checkpoint").text
    assert [e["type"] for e in check_log(started, now, "http://testserver", fetch=fetch).entries] == ["start"]


def test_a_game_made_before_the_log_gets_no_end_entry(api):
    # As a database from before the log: the game's row and lines, no start entry.
    game = api.create([("Ann", False), ("Bot", True)])
    store = api.client.app.state.store
    with store._transaction() as cur:
        cur.execute("DELETE FROM log_entries WHERE record_id = ?", (game["game_id"],))
    store._tree = None  # (this process's cache held the deleted leaf; a database never loses one)
    api.ok("POST", f"/games/{game['game_id']}/abandon", game["host_token"], json={"reason": "enough"})
    assert store.log_of(game["game_id"]) == [] and store.log_size() == 0
    assert api.call("GET", f"/games/{game['game_id']}/log").status_code == 404
