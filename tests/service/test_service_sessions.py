"""Generic dealing sessions over HTTP: commit-reveal, shuffles by label, hidden orders, the reveal."""

from __future__ import annotations

import json

from fairdeal.cards import codes
from fairdeal.cards import pack
from fairdeal.cards import parse_cards
from fairdeal.fairness import client_commitment
from fairdeal.fairness import commitment
from fairdeal.fairness import game_key
from fairdeal.fairness import shuffle
from fairdeal.record import check_chain
from fairdeal.record import verify_head


def test_a_session_end_to_end(api):
    created = api.ok("POST", "/sessions", status=201, json={"seats": 2, "label_prefix": "poker/"})
    sid, owner = created["session_id"], created["owner_key"]
    seat_tokens = [s["token"] for s in created["seats"]]
    seeds = ["alice's seed", "bob's seed"]
    base = f"/sessions/{sid}"

    # Client seeds: commit, then reveal; no reveal before every seat has committed.
    api.ok("POST", f"{base}/seats/0/commit", seat_tokens[0], json={"commitment": client_commitment(seeds[0])})
    early = api.call("POST", f"{base}/seats/0/reveal", seat_tokens[0], json={"seed": seeds[0]})
    assert early.status_code == 409 and "waiting for seats [1]" in early.json()["detail"]
    assert api.call("POST", f"{base}/seats/1/commit", seat_tokens[0], json={"commitment": "ab" * 32}).status_code == 403
    api.ok("POST", f"{base}/seats/1/commit", seat_tokens[1], json={"commitment": client_commitment(seeds[1])})
    # No shuffle while the seeds are open.
    assert api.call("POST", f"{base}/shuffle", owner, json={"label": "poker/1", "packs": 1}).status_code == 409
    for seat in (0, 1):
        api.ok("POST", f"{base}/seats/{seat}/reveal", seat_tokens[seat], json={"seed": seeds[seat]})
    assert api.ok("GET", base)["status"] == "dealing"

    # Shuffles: only the owner asks, only the owner reads orders before the reveal.
    assert api.call("POST", f"{base}/shuffle", seat_tokens[0], json={"label": "poker/1", "packs": 1}).status_code == 403
    dealt = api.ok("POST", f"{base}/shuffle", owner, json={"label": "poker/hand-1", "packs": 1})
    assert sorted(dealt["order"]) == sorted(codes(pack())) and dealt["count"] == 52
    assert verify_head(
        created["public_key"], sid, dealt["receipt"]["seq"], dealt["receipt"]["hash"], dealt["receipt"]["sig"]
    )
    few = api.ok("POST", f"{base}/shuffle", owner, json={"label": "poker/river", "cards": ["AS", "10h", "8d", "AS"]})
    assert sorted(few["order"]) == ["8D", "AS", "AS", "TH"]
    assert api.call("POST", f"{base}/shuffle", owner, json={"label": "poker/river", "packs": 1}).status_code == 409
    wrong_prefix = api.call("POST", f"{base}/shuffle", owner, json={"label": "bridge/1", "packs": 1})
    assert wrong_prefix.status_code == 422 and "start with 'poker/'" in wrong_prefix.json()["detail"]
    assert api.call("POST", f"{base}/shuffle", owner, json={"label": "poker/x", "cards": ["ZZ"]}).status_code == 422
    assert api.call("POST", f"{base}/shuffle", owner, json={"label": "Poker!", "packs": 1}).status_code == 422
    assert api.call("POST", f"{base}/shuffle", owner, json={"label": "poker/y"}).status_code == 422
    assert api.call("GET", f"{base}/shuffles/poker/hand-1").status_code == 401
    assert api.call("GET", f"{base}/shuffles/poker/hand-1", seat_tokens[1]).status_code == 403
    assert api.ok("GET", f"{base}/shuffles/poker/hand-1", owner)["order"] == dealt["order"]

    # The record names labels and inputs, never an order, and the owner's key is nowhere.
    text = api.client.get(f"{base}/record").text
    lines = [json.loads(line) for line in text.splitlines()]
    assert " ".join(dealt["order"][:5]) not in " ".join(str(line) for line in lines)
    assert [line["type"] for line in lines] == [
        "header",
        "client-commit",
        "client-commit",
        "client-reveal",
        "client-reveal",
        "start",
        "shuffle",
        "shuffle",
    ]
    assert lines[0]["kind"] == "session" and lines[0]["rules"] is None and lines[0]["seats"] == 2
    assert lines[6] == {**lines[6], "label": "poker/hand-1", "cards": codes(pack()), "count": 52}
    assert lines[7]["cards"] == ["AS", "TH", "8D", "AS"]
    assert owner not in text and all(t not in text for t in seat_tokens)

    # The reveal: the seed matches the commitment, and anyone derives every order again.
    revealed = api.ok("POST", f"{base}/reveal", owner)
    server_seed = revealed["server_seed"]
    assert commitment(server_seed) == created["commitment"]
    assert api.ok("GET", f"{base}/shuffles/poker/river")["order"] == few["order"]  # public now
    key = game_key(server_seed, sid, seeds)
    assert codes(shuffle(key, "poker/hand-1", pack())) == dealt["order"]
    assert codes(shuffle(key, "poker/river", parse_cards(lines[7]["cards"]))) == few["order"]
    lines = [json.loads(line) for line in api.client.get(f"{base}/record").text.splitlines()]
    check_chain(lines, created["public_key"])
    assert lines[-1]["type"] == "reveal" and "sig" in lines[-1]
    assert api.call("POST", f"{base}/shuffle", owner, json={"label": "poker/late", "packs": 1}).status_code == 409
    assert api.call("POST", f"{base}/reveal", owner).status_code == 409


def test_the_owner_starts_early_and_silent_seats_count_as_empty_seeds(api):
    created = api.ok("POST", "/sessions", status=201, json={"seats": 3})
    sid, owner = created["session_id"], created["owner_key"]
    assert api.call("POST", f"/sessions/{sid}/start", created["seats"][0]["token"]).status_code == 403
    state = api.ok("POST", f"/sessions/{sid}/start", owner)
    assert state["status"] == "dealing" and state["client_seeds"]["open"] is False
    dealt = api.ok("POST", f"/sessions/{sid}/shuffle", owner, json={"label": "deal", "packs": 2})
    seed = api.ok("POST", f"/sessions/{sid}/reveal", owner)["server_seed"]
    assert codes(shuffle(game_key(seed, sid, ["", "", ""]), "deal", pack(2))) == dealt["order"]
    assert (
        api.call(
            "POST", f"/sessions/{sid}/seats/0/commit", created["seats"][0]["token"], json={"commitment": "ab" * 32}
        ).status_code
        == 409
    )


def test_session_input_limits(api):
    assert api.call("POST", "/sessions", json={"seats": 0}).status_code == 422
    assert api.call("POST", "/sessions", json={"seats": 17}).status_code == 422
    assert api.call("POST", "/sessions", json={"seats": 1, "label_prefix": "UPPER"}).status_code == 422
    created = api.ok("POST", "/sessions", status=201, json={})
    sid, owner = created["session_id"], created["owner_key"]
    api.ok("POST", f"/sessions/{sid}/start", owner)
    assert api.call("POST", f"/sessions/{sid}/shuffle", owner, json={"label": "x", "packs": 20}).status_code == 422
    assert api.call("POST", f"/sessions/{sid}/shuffle", owner, json={"label": "x", "cards": []}).status_code == 422
    assert (
        api.call(
            "POST", f"/sessions/{sid}/shuffle", owner, json={"label": "x", "cards": ["AS"], "packs": 1}
        ).status_code
        == 422
    )
    missing = api.call("GET", f"/sessions/{sid}/shuffles/never", owner)
    assert missing.status_code == 404 and missing.json()["detail"] == "label 'never' has not dealt in this session"


def test_the_example_in_spec_sessions_md_is_what_the_code_writes():
    from pathlib import Path

    from fairdeal.record import Signer
    from fairdeal.record import canonical
    from fairdeal.service.dealing import DealingSession

    spec = (Path(__file__).resolve().parents[2] / "spec" / "sessions.md").read_text(encoding="utf-8")
    session = DealingSession.new(
        "s-example", 2, Signer.from_seed(bytes(32)), created="2026-01-01T00:00:00Z", server_seed="00" * 32
    )
    for seat, seed in enumerate(["alice", "bob"]):
        session.commit(seat, client_commitment(seed))
    for seat, seed in enumerate(["alice", "bob"]):
        session.reveal_client_seed(seat, seed)
    order, _ = session.shuffle("round/1", parse_cards("AS KS QS JS TS"))
    session.reveal()
    assert canonical(session.lines[0]).decode() in spec
    for line in session.lines[1:]:
        shown = {k: (v[:8] + "..." if k in ("prev", "sig") else v) for k, v in line.items()}
        assert canonical(shown).decode() in spec
    assert f"The order of `round/1` is `{' '.join(codes(order))}`" in spec
