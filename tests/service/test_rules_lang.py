"""GET /rules, /rules/{name} and /rules/{name}/help in a language (``?lang=nb``): the games' words
as their packages translate them, saying which language; a language no game speaks is English;
a tag that is not one is a 422; without ``lang`` the answers are what they always were."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from helpers import service_settings

from fairdeal.rules import RULES
from fairdeal.rules import catalogue
from fairdeal.rules import how_to_play
from fairdeal.service import create_app


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with TestClient(create_app(service_settings(str(tmp_path_factory.mktemp("data"))))) as client:
        yield client


def _compact(document: Any) -> bytes:
    """How the service writes a JSON answer (Starlette's JSONResponse)."""
    return json.dumps(document, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode()


def test_without_lang_the_answers_are_the_english_byte_for_byte(client):
    assert client.get("/rules").content == _compact(catalogue())
    assert client.get("/rules/michigan").content == _compact(RULES["michigan"].declaration())
    help_ = client.get("/rules/michigan/help").json()
    assert help_ == {"name": "michigan", "title": "Michigan", "help": how_to_play("michigan")}


def test_the_catalogue_in_bokmal_says_so(client):
    answer = client.get("/rules", params={"lang": "nb"})
    assert answer.status_code == 200
    body = answer.json()
    assert body == catalogue(lang="nb") and body["lang"] == "nb"
    titles = {entry["name"]: entry["title"] for entry in body["games"]}
    assert titles["crazy-eights"] == "Vri åtter" and titles["sjueren"] == "Sjueren"
    assert client.get("/rules", params={"lang": "nb-NO"}).json() == body


def test_one_game_in_bokmal_is_its_catalogue_entry_and_the_language(client):
    body = client.get("/rules/crazy-eights-book", params={"lang": "nb"}).json()
    entry = next(e for e in catalogue(lang="nb")["games"] if e["name"] == "crazy-eights-book")
    assert body == {**entry, "lang": "nb"}
    assert body["options"][1]["choices"]["0"] == "hver spiller for seg selv"


def test_how_to_play_in_bokmal(client):
    body = client.get("/rules/crazy-eights/help", params={"lang": "nb"}).json()
    assert body == {
        "name": "crazy-eights",
        "title": "Vri åtter",
        "help": how_to_play("crazy-eights", "nb"),
        "lang": "nb",
    }
    assert body["help"].startswith("**Mål.**")


@pytest.mark.parametrize("tag", ["de", "en", "fr-CA"])
def test_a_language_no_game_speaks_is_answered_in_english(client, tag):
    body = client.get("/rules", params={"lang": tag}).json()
    assert body.pop("lang") == "en" and body == catalogue()
    help_ = client.get("/rules/fan-tan/help", params={"lang": tag}).json()
    assert help_ == {"name": "fan-tan", "title": "Fan Tan", "help": how_to_play("fan-tan"), "lang": "en"}
    assert client.get("/rules/fan-tan", params={"lang": tag}).json()["lang"] == "en"


@pytest.mark.parametrize("tag", ["", "nb_NO", "n", "nb NO", "1", "nb-", "x" * 36])
@pytest.mark.parametrize("route", ["/rules", "/rules/sjueren", "/rules/sjueren/help"])
def test_a_tag_that_is_not_one_is_a_422_naming_the_parameter(client, route, tag):
    answer = client.get(route, params={"lang": tag})
    assert answer.status_code == 422, (route, tag)
    assert [problem["loc"] for problem in answer.json()["detail"]] == [["query", "lang"]]


def test_an_unknown_game_is_still_a_404_in_any_language(client):
    for route in ("/rules/poker", "/rules/poker/help"):
        answer = client.get(route, params={"lang": "nb"})
        assert answer.status_code == 404 and "unknown rules 'poker'" in answer.json()["detail"]


def test_the_schema_documents_lang_and_the_answers_member(client):
    document = client.get("/openapi.json").json()
    for path in ("/rules", "/rules/{name}", "/rules/{name}/help"):
        parameters = {p["name"]: p for p in document["paths"][path]["get"]["parameters"]}
        assert parameters["lang"]["in"] == "query" and not parameters["lang"].get("required", False), path
        assert "422" in document["paths"][path]["get"]["responses"], path
    schemas = document["components"]["schemas"]
    for model in ("Catalogue", "Declaration", "HowToPlay"):
        assert "lang" in schemas[model]["properties"] and "lang" not in schemas[model].get("required", []), model
