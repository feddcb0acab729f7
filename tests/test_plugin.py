"""A game from a package outside fairdeal plays through every driver: the example plugin
(examples/switch/, installed by ``make test``) registers Switch in the entry-point group
``fairdeal.games``, and nothing in fairdeal names it. The browser's table, verify page and
replayer are tried in tests/browser/test_generic_renderer.py.
"""

from __future__ import annotations

import json
import warnings
from importlib import metadata
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import installed
from helpers import service_settings
from test_verifier_support import play

import fairdeal.rules as registry
from fairdeal.cli import main
from fairdeal.rules import GROUP
from fairdeal.rules import RULES
from fairdeal.rules import PluginError
from fairdeal.rules import Rules
from fairdeal.rules import catalogue
from fairdeal.rules import discover
from fairdeal.rules import how_to_play
from fairdeal.rules import own
from fairdeal.simulate import simulate
from fairdeal.verification import verify
from fairdeal.web.engine import engine_bundle

warnings.filterwarnings("ignore", message=".*httpx.*")
from fastapi.testclient import TestClient  # noqa: E402

from fairdeal.fairness import client_commitment  # noqa: E402
from fairdeal.service import create_app  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
PLUGIN = ROOT / "examples" / "switch"


def test_the_installed_plugin_is_found_through_its_entry_point():
    cls = RULES["switch"]
    assert cls.__module__ == "fairdeal_switch" and not own(cls) and issubclass(cls, Rules)
    entry = next(e for e in metadata.entry_points(group=GROUP) if e.name == "switch")
    assert entry.value == "fairdeal_switch:Switch" and entry.dist.metadata["Name"] == "fairdeal-switch"
    # In the catalogue GET /rules serves, after fairdeal's own games of its family (the lobby's
    # group); not in spec/games.json, which holds fairdeal's own.
    games = catalogue()["games"]
    names = [game["name"] for game in games]
    family = [game["name"] for game in games if game["family"] == cls.family]
    assert family[-1] == "switch" and names.index("switch") == len(family) - 1
    assert "switch" not in [g["name"] for g in catalogue(own_only=True)["games"]]
    assert games[names.index("switch")]["renderer"] == "generic"
    # Its "How to play" comes from its own package.
    assert how_to_play("switch") == (PLUGIN / "fairdeal_switch" / "help" / "switch.md").read_text(encoding="utf-8")


def test_no_file_of_fairdeal_names_the_plugin():
    for folder in ("fairdeal", "verifier", "spec"):
        for path in (ROOT / folder).rglob("*"):
            fetched = {"vendor", "pyodide"} & set(path.relative_to(ROOT).parts)  # npm packages, not ours
            if path.is_file() and path.suffix in (".py", ".js", ".html", ".css", ".md", ".json") and not fetched:
                text = path.read_text(encoding="utf-8", errors="replace")
                assert "fairdeal_switch" not in text and '"switch"' not in text, path


class _Entry:
    """An entry point as importlib.metadata gives it, loading what it is told to."""

    def __init__(self, name: str, value: str, loads: object) -> None:
        self.name, self.value, self.group, self._loads = name, value, GROUP, loads

    def load(self) -> object:
        if isinstance(self._loads, Exception):
            raise self._loads
        return self._loads


@pytest.mark.parametrize(
    ("entry", "said"),
    [
        (_Entry("poker", "poker:Poker", ImportError("No module named 'poker'")), "does not load: ImportError"),
        (_Entry("poker", "poker:Poker", dict), "is not a subclass of fairdeal.rules.Rules"),
        (_Entry("poker", "fairdeal_switch:Switch", RULES["switch"]), "its class's name is 'switch', not the entry's"),
        (_Entry("jig", "poker:Jig", RULES["switch"]), "its class's name is 'switch'"),
    ],
)
def test_a_broken_plugin_is_named_with_what_is_wrong(monkeypatch, entry, said):
    real = list(metadata.entry_points(group=GROUP))
    monkeypatch.setattr(registry.metadata, "entry_points", lambda group: [*real, entry])
    with pytest.raises(PluginError, match=said) as caught:
        discover()
    assert caught.value.entry == f"{entry.name} = {entry.value}" and isinstance(caught.value, ValueError)


def test_two_plugins_may_not_take_one_name(monkeypatch):
    class Other(RULES["switch"]):  # type: ignore[misc, valid-type]
        pass

    real = list(metadata.entry_points(group=GROUP))
    monkeypatch.setattr(
        registry.metadata, "entry_points", lambda group: [*real, _Entry("switch", "other:Other", Other)]
    )
    with pytest.raises(PluginError, match="another game is already registered as 'switch'"):
        discover()


def test_the_plugin_plays_at_a_table_and_its_record_verifies():
    game = play("plugin-table", 3, humans=2, rules="switch", options={"target": 30})
    report = verify(game.text)
    assert report.verified, report.error
    assert report.rules == "switch" and report.hands and report.standings


def test_the_bots_play_it(tmp_path):
    # Every bot the game offers plays whole matches of it through a table (its heuristic
    # bot is the game's own advice; the random one needs nothing of the game).
    assert RULES["switch"].bot_kinds() == ("heuristic", "random")
    for kind in RULES["switch"].bot_kinds():
        paths = simulate("switch", 4, 2, tmp_path / kind, seed=f"bots-{kind}", bot=kind)
        assert all(verify(path.read_text(encoding="utf-8")).verified for path in paths)


def test_fairdeal_simulate_and_fairdeal_verify_take_it(tmp_path):
    result = CliRunner().invoke(
        main,
        ["simulate", "--rules", "switch", "--players", "4", "--games", "2", "--out", str(tmp_path), "--seed", "p1"],
    )
    assert result.exit_code == 0, result.output
    records = sorted(tmp_path.glob("*.jsonl"))
    assert len(records) == 2
    proc = installed("fairdeal-verify", "--json", *map(str, records))
    assert proc.returncode == 0, proc.stderr
    reports = [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]
    assert [r["verified"] for r in reports] == [True, True] and {r["rules"] for r in reports} == {"switch"}
    moves = installed("fairdeal-verify", "--moves", str(records[0]))
    assert moves.returncode == 0 and moves.stdout.splitlines()[-1] == "VERIFIED"


def test_the_engine_bundle_carries_the_plugin_for_the_browser():
    names = engine_bundle().names
    assert "fairdeal_switch/__init__.py" in names
    assert "fairdeal_switch-0.1.0.dist-info/entry_points.txt" in names


def test_the_service_serves_and_plays_it(tmp_path):
    settings = service_settings(tmp_path / "data", f"sqlite:///{tmp_path / 'db.sqlite'}")
    app = create_app(settings)
    with TestClient(app) as client:
        assert client.get("/rules/switch").json()["title"] == RULES["switch"].title
        assert client.get("/rules/switch/help").json()["help"] == how_to_play("switch")
        body = {
            "rules": "switch",
            "options": {"target": 30},
            "seats": [{"name": "Ann", "bot": False}, {"name": "Bot 1", "bot": True}, {"name": "Bot 2", "bot": True}],
        }
        game = client.post("/games", json=body)
        assert game.status_code == 201, game.text
        gid, token = game.json()["game_id"], game.json()["seats"][0]["join_token"]
        auth = {"Authorization": f"Bearer {token}"}
        assert (
            client.post(
                f"/games/{gid}/seats/0/commit", headers=auth, json={"commitment": client_commitment("ann")}
            ).status_code
            == 200
        )
        assert client.post(f"/games/{gid}/seats/0/reveal", headers=auth, json={"seed": "ann"}).status_code == 200
        view = client.get(f"/games/{gid}/seats/0/view", headers=auth).json()
        kinds = set()
        for _ in range(3000):
            if view["status"] != "playing":
                break
            assert view["your_turn"], "bots move at once, so it is always Ann's turn"
            move = view["legal_moves"][0]
            kinds.add(move["move"])
            answer = client.post(f"/games/{gid}/moves", headers=auth, json={"seq": view["seq"], **move})
            assert answer.status_code == 200, answer.text
            view = answer.json()["view"]
        assert view["status"] == "over" and view["rules"] == "switch" and "play" in kinds
        report = client.get(f"/games/{gid}/verify").json()
        assert report["verified"] is True and report["rules"] == "switch"
        assert verify(client.get(f"/games/{gid}/record").text).verified
    app.state.store.close()
