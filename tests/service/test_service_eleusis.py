"""Eleusis through the HTTP API, on SQLite and PostgreSQL: a person deals with a rule typed at
the table, which is checked before it is committed, kept sealed (a restarted server or a second
process goes on with it), shown to nobody else, and revealed at the round's end."""

from __future__ import annotations

import sqlite3

import psycopg
from fastapi.testclient import TestClient
from service_helpers import Api

from fairdeal.record import Signer
from fairdeal.record import check_at
from fairdeal.record import format_at
from fairdeal.record import resign
from fairdeal.service import create_app
from fairdeal.verification import verify

SIGNER = Signer.from_seed(bytes(32))  # for a forged record's own signatures

TYPED = "card.rank > last.rank or card.colour != last.colour"
SEATS = [("Ann", False), ("Ben", False), ("Cid", False), ("Dot", False)]


def _start(api: Api, **options) -> tuple[str, dict[int, str], str]:
    """A game of four people, every seat a person the test plays; its id, join tokens and host token."""
    game = api.create(SEATS, rules="eleusis", options={"dealer": 1, "rounds": 1, **options})
    return game["game_id"], api.join(game), game["host_token"]


def _views(api: Api, game_id: str, tokens: dict[int, str]) -> dict[int, dict]:
    return {seat: api.view(game_id, seat, token) for seat, token in tokens.items()}


def _dealer(views: dict[int, dict]) -> int:
    return next(iter(views.values()))["table"]["dealer"]


def _dealt_with(api: Api, game_id: str, tokens: dict[int, str], rule: str = TYPED) -> int:
    """The round's dealer gives ``rule``; returns the dealer's seat."""
    views = _views(api, game_id, tokens)
    dealer = _dealer(views)
    api.ok(
        "POST",
        f"/games/{game_id}/moves",
        tokens[dealer],
        json={"seq": views[dealer]["seq"], "move": "rule", "rule": rule},
    )
    return dealer


def _step(api: Api, game_id: str, tokens: dict[int, str]) -> dict:
    """The seat to act makes its first legal move (a player plays his first card)."""
    view = api.view(game_id, 0, tokens[0])
    seat = view["turn"]
    mine = api.view(game_id, seat, tokens[seat])
    move = mine["legal_moves"][0]
    return api.ok("POST", f"/games/{game_id}/moves", tokens[seat], json={"seq": mine["seq"], **move})["view"]


def _sealed_secret(settings, game_id: str):
    query = "SELECT sealed_secret FROM games WHERE id = "
    if settings.store_kind == "sqlite":
        with sqlite3.connect(settings.database_url[len("sqlite:///") :]) as conn:
            return conn.execute(query + "?", (game_id,)).fetchone()[0]
    with psycopg.connect(settings.database_url) as conn:
        return conn.execute(query + "%s", (game_id,)).fetchone()[0]


def test_a_person_deals_a_round_with_a_rule_typed_at_the_table(api, settings):
    game_id, tokens, _ = _start(api)
    views = _views(api, game_id, tokens)
    dealer = _dealer(views)
    mine = views[dealer]
    assert mine["table"]["phase"] == "rule" and mine["turn"] == dealer
    assert mine["legal_moves"] == [{"move": "rule"}]
    assert mine["table"]["library"] and mine["table"]["syntax_help"]

    # A rule that does not read is refused with where, and nothing is written.
    bad = api.call(
        "POST",
        f"/games/{game_id}/moves",
        tokens[dealer],
        json={"seq": mine["seq"], "move": "rule", "rule": "card.rank >"},
    )
    assert bad.status_code == 422 and "column 12" in bad.json()["detail"], bad.text
    assert api.view(game_id, dealer, tokens[dealer])["seq"] == mine["seq"]
    assert _sealed_secret(settings, game_id) is None

    answer = api.ok(
        "POST", f"/games/{game_id}/moves", tokens[dealer], json={"seq": mine["seq"], "move": "rule", "rule": TYPED}
    )
    assert answer["view"]["table"]["rule"] == TYPED
    assert _sealed_secret(settings, game_id) is not None  # sealed, not the text
    assert TYPED.encode() not in bytes(_sealed_secret(settings, game_id))

    # Nobody else sees it: not the record, not a spectator, not another seat.
    record = api.call("GET", f"/games/{game_id}/record").text
    assert TYPED not in record and '"rule-commitment"' in record
    assert TYPED not in api.call("GET", f"/games/{game_id}").text
    for seat, token in tokens.items():
        if seat != dealer:
            assert TYPED not in api.call("GET", f"/games/{game_id}/seats/{seat}/view", token).text

    view = answer["view"]
    while view["status"] == "playing":
        view = _step(api, game_id, tokens)
    lines = api.record(game_id)
    reveal = next(line for line in lines if line["type"] == "rule-reveal")
    assert reveal["rule"] == TYPED
    assert api.ok("GET", f"/games/{game_id}")["table"]["rule"] == TYPED  # public once revealed
    assert api.ok("GET", f"/games/{game_id}/verify")["verified"]
    assert _sealed_secret(settings, game_id) is None  # nothing secret is kept after the reveal


def test_a_restarted_server_goes_on_with_the_sealed_rule(settings, clock, new_ids):
    app = create_app(settings, clock=clock, new_ids=new_ids)
    with TestClient(app) as client:
        api = Api(client)
        game_id, tokens, _ = _start(api)
        dealer = _dealt_with(api, game_id, tokens)
        for _ in range(5):
            _step(api, game_id, tokens)
        before = api.view(game_id, dealer, tokens[dealer])
    restarted = create_app(settings, clock=clock, new_ids=new_ids)  # nothing cached, the same database
    with TestClient(restarted) as client:
        api = Api(client)
        assert api.view(game_id, dealer, tokens[dealer]) == before
        view = before
        while view["status"] == "playing":
            view = _step(api, game_id, tokens)
        assert api.ok("GET", f"/games/{game_id}/verify")["verified"]
    restarted.state.store.close()
    app.state.store.close()


def test_a_second_process_catches_up_on_a_rule_the_first_was_given(two_processes):
    a, b = two_processes
    game_id, tokens, _ = _start(a)
    _views(b, game_id, tokens)  # b caches the game before the rule
    dealer = _dealt_with(a, game_id, tokens)
    _step(a, game_id, tokens)
    assert b.view(game_id, dealer, tokens[dealer])["table"]["rule"] == TYPED
    assert b.view(game_id, dealer, tokens[dealer]) == a.view(game_id, dealer, tokens[dealer])


def test_an_abandoned_round_reveals_its_rule_and_verifies(api):
    game_id, tokens, host = _start(api)
    _dealt_with(api, game_id, tokens)
    for _ in range(3):
        _step(api, game_id, tokens)
    api.ok("POST", f"/games/{game_id}/abandon", host, json={"reason": "closing time"})
    kinds = [line["type"] for line in api.record(game_id)][-3:]
    assert kinds == ["rule-reveal", "abandon", "reveal"]
    assert api.ok("GET", f"/games/{game_id}/verify")["verified"]


def test_a_dealer_has_six_turns_to_give_the_rule_then_the_table_gives_the_suggested_one(api, clock):
    game_id, tokens, host = _start(api)
    views = _views(api, game_id, tokens)
    dealer = _dealer(views)
    suggested = views[dealer]["table"]["suggested"]
    games = api.app.state.games
    clock.advance(6 * 20 - 0.5)
    assert games.run_due() == 0  # still writing
    clock.advance(1)
    assert games.run_due() == 1
    rule_move = next(line for line in api.record(game_id) if line.get("move") == "rule")
    assert rule_move["auto"] is True and "rule" not in rule_move
    assert api.view(game_id, dealer, tokens[dealer])["table"]["rule"] == suggested
    # The next turn, a player's, has one turn's time again.
    assert api.view(game_id, dealer, tokens[dealer])["seconds_left"] == 20
    # The record verifies with its times: the rule came after six turns' time (format 2) ...
    api.ok("POST", f"/games/{game_id}/abandon", host, json={"reason": "closing time"})
    lines = api.record(game_id)
    at = next(i for i, line in enumerate(lines) if line.get("move") == "rule")
    assert check_at(lines[at]["at"]) - check_at(lines[at - 1]["at"]) == 120_500
    assert api.ok("GET", f"/games/{game_id}/verify")["verified"]
    # ... and the same record with the rule written after one turn's time, re-signed, does not.
    lines[at]["at"] = format_at(check_at(lines[at - 1]["at"]) + 60_000)
    error = verify(resign(lines, SIGNER)).error
    assert error.line == at + 1 and error.reason.endswith("plus 20000 ms x 6)")
