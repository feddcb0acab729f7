"""What the service writes for people, in the page's language (``?lang=nb``): a seat's view (its cards'
``why_not``), the public state (its hands' ``reason``), a move's answer and its refusal, the live
stream, every refusal's ``detail``; in English, exactly as before, without ``lang``. The language
changes the words and nothing else, never the record."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from helpers import service_settings
from service_helpers import played_out

from fairdeal.fairness import client_commitment
from fairdeal.service import create_app

NB = {"lang": "nb"}


@pytest.fixture
def client(tmp_path: Any, new_ids: Any) -> Iterator[TestClient]:
    """An app of the test's own, whose games are dealt from seeds fixed by the test's name: a view
    with no card to refuse, or a table of bots that outlasts a request, is the same every run."""
    with TestClient(create_app(service_settings(str(tmp_path)), new_ids=new_ids)) as client:
        yield client


def _table(client: TestClient, seats: list[dict[str, Any]], **more: Any) -> tuple[str, dict[Any, str]]:
    made = client.post("/games", json={"seats": seats, **more}).json()
    tokens: dict[Any, str] = {"host": made["host_token"]}
    tokens.update((seat["seat"], seat["join_token"]) for seat in made["seats"] if "join_token" in seat)
    people = [seat for seat in tokens if seat != "host"]
    for seat in people:
        commitment = client_commitment(f"seed {seat}")
        answer = client.post(
            f"/games/{made['game_id']}/seats/{seat}/commit",
            json={"commitment": commitment},
            headers=_auth(tokens[seat]),
        )
        assert answer.status_code == 200, answer.text
    for seat in people:
        answer = client.post(
            f"/games/{made['game_id']}/seats/{seat}/reveal", json={"seed": f"seed {seat}"}, headers=_auth(tokens[seat])
        )
        assert answer.status_code == 200, answer.text
    return made["game_id"], tokens


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _but(view: dict[str, Any], *words: str) -> dict[str, Any]:
    """A view without its words for people: its cards' why-not notes and its hands' reasons."""
    out = {key: value for key, value in view.items() if key not in ("seconds_left", "deadline")}
    if "cards" in out and "why_not" in words:
        out["cards"] = [{**card, "why_not": None} for card in out["cards"]]
    if "reason" in words:
        out["hands"] = [{**hand, "reason": ""} for hand in out["hands"]]
    return out


def test_a_seats_view_in_bokmal_differs_from_the_english_in_its_why_not_notes_alone(client):
    game_id, tokens = _table(client, [{"name": "Kari"}, {"name": "Ola"}, {"name": "Bot", "bot": True}])
    url = f"/games/{game_id}/seats/0/view"
    english = client.get(url, headers=_auth(tokens[0])).json()
    nb = client.get(url, params=NB, headers=_auth(tokens[0])).json()
    assert _but(nb, "why_not") == _but(english, "why_not")
    notes = [(en["why_not"], no["why_not"]) for en, no in zip(english["cards"], nb["cards"], strict=True)]
    assert any(en for en, _ in notes) or english["turn"] != 0
    for en, no in notes:
        assert (en is None) == (no is None) and (en is None or en != no), (en, no)
    # The other seat: not its turn, in Norwegian.
    other = client.get(f"/games/{game_id}/seats/1/view", params=NB, headers=_auth(tokens[1])).json()
    turn = other["turn"]
    whose = 0 if turn == 1 else 1
    waiting = client.get(f"/games/{game_id}/seats/{whose}/view", params=NB, headers=_auth(tokens[whose])).json()
    assert {card["why_not"] for card in waiting["cards"]} == {"det er ikke din tur"}
    # A tag no game speaks is English; without lang, English as it always was.
    assert _but(client.get(url, params={"lang": "de"}, headers=_auth(tokens[0])).json()) == _but(english)


def test_a_refused_move_and_other_refusals_in_bokmal(client):
    game_id, tokens = _table(client, [{"name": "Kari"}, {"name": "Ola"}, {"name": "Bot", "bot": True}])
    view = client.get(f"/games/{game_id}/seats/0/view", headers=_auth(tokens[0])).json()
    seat = view["turn"]
    mine = client.get(f"/games/{game_id}/seats/{seat}/view", params=NB, headers=_auth(tokens[seat])).json()
    unplayable = next((card for card in mine["cards"] if not card["playable"]), None)
    if unplayable is not None:
        refused = client.post(
            f"/games/{game_id}/moves",
            params=NB,
            json={"seq": mine["seq"], "move": "play", "card": unplayable["card"]},
            headers=_auth(tokens[seat]),
        )
        assert refused.status_code == 422 and refused.json()["detail"] == unplayable["why_not"]
        english = client.post(
            f"/games/{game_id}/moves",
            json={"seq": mine["seq"], "move": "play", "card": unplayable["card"]},
            headers=_auth(tokens[seat]),
        )
        assert english.status_code == 422 and english.json()["detail"] != refused.json()["detail"]
    other = 1 - seat
    move = {"seq": mine["seq"], **mine["legal_moves"][0]}
    answer = client.post(f"/games/{game_id}/moves", params=NB, json=move, headers=_auth(tokens[other]))
    assert answer.status_code == 422 and answer.json()["detail"] == "det er ikke din tur"
    stale = client.post(f"/games/{game_id}/moves", params=NB, json={**move, "seq": 1}, headers=_auth(tokens[seat]))
    assert stale.status_code == 409
    assert stale.json()["detail"] == f"protokollen er ved seq {mine['seq']}, ikke 1: hent visningen på nytt"
    host = client.post(f"/games/{game_id}/moves", params=NB, json=move, headers=_auth(tokens["host"]))
    assert host.json()["detail"] == "vertens nøkkel gjør ingen trekk: bruk plassnøkkelen"
    nobody = client.get(f"/games/{game_id}/seats/0/view", params=NB, headers=_auth("not-a-token"))
    assert nobody.status_code == 401 and nobody.json()["detail"] == "det er ikke en nøkkel til dette spillet"
    missing = client.get("/games/nosuchgame", params=NB)
    assert missing.status_code == 404 and missing.json()["detail"] == "finner ikke spillet 'nosuchgame'"
    # The move itself, answered with the seat's new view in Norwegian.
    made = client.post(f"/games/{game_id}/moves", params=NB, json=move, headers=_auth(tokens[seat]))
    assert made.status_code == 200
    notes = {card["why_not"] for card in made.json()["view"]["cards"]} - {None}
    assert notes and all("not" not in note.split() for note in notes), notes


@pytest.mark.parametrize("tag", ["", "nb_NO", "nb NO", "x" * 36])
def test_a_tag_that_is_not_one_is_a_422_and_one_given_twice_too(client, tag):
    game_id, tokens = _table(client, [{"name": "Kari"}, {"name": "Bot", "bot": True}])
    assert client.get(f"/games/{game_id}", params={"lang": tag}).status_code == 422
    view = client.get(f"/games/{game_id}/seats/0/view", params={"lang": tag}, headers=_auth(tokens[0]))
    assert view.status_code == 422
    twice = client.get(f"/games/{game_id}/seats/0/view?lang=nb&lang=en", headers=_auth(tokens[0]))
    assert twice.status_code == 422 and "lang takes one value" in twice.text


def test_the_public_state_says_each_hands_reason_in_bokmal_and_the_record_is_the_same(client):
    game_id, _ = _table(
        client,
        [{"name": "Bot A", "bot": True}, {"name": "Bot B", "bot": True}],
        rules="crazy-eights",
        options={"target": 30},
    )
    played_out(client.app, lambda: client.get(f"/games/{game_id}").json()["status"])
    english = client.get(f"/games/{game_id}").json()
    nb = client.get(f"/games/{game_id}", params=NB).json()
    assert english["status"] == "over" and len(english["hands"]) >= 1
    assert _but(nb, "reason") == _but(english, "reason")
    for en, no in zip(english["hands"], nb["hands"], strict=True):
        assert en["reason"] != no["reason"], (en["reason"], no["reason"])
        if en["how"] == "out":
            assert no["reason"] == en["reason"].replace("seat", "plass").replace("went out", "gikk ut")
    record = client.get(f"/games/{game_id}/record")
    assert record.status_code == 200 and "plass" not in record.text and "gikk" not in record.text


def test_the_live_stream_sends_the_seats_view_in_its_language(client):
    game_id, tokens = _table(client, [{"name": "Kari"}, {"name": "Bot", "bot": True}])
    english = client.get(f"/games/{game_id}/seats/0/view", headers=_auth(tokens[0])).json()
    with client.stream(
        "GET", f"/games/{game_id}/events", params={"wait": 0, "lang": "nb"}, headers=_auth(tokens[0])
    ) as stream:
        text = "".join(stream.iter_text())
    data = next(line[6:] for line in text.splitlines() if line.startswith("data: {"))
    streamed = json.loads(data)
    assert _but(streamed, "why_not") == _but(english, "why_not")
    nb = client.get(f"/games/{game_id}/seats/0/view", params=NB, headers=_auth(tokens[0])).json()
    assert [card["why_not"] for card in streamed["cards"]] == [card["why_not"] for card in nb["cards"]]
