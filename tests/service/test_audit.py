"""`fairdeal audit` (spec/log.md, Auditing) against the real app in-process, on SQLite and PostgreSQL:
a clean log and its abandon rates, a server that left a game's end out of its log, a record whose
head is not its end entry's, a log that forked between two runs, the state file, --json, bad URLs."""

from __future__ import annotations

import json
import socket

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient
from helpers import http
from helpers import service_settings
from service_helpers import Api
from service_helpers import Clock
from service_helpers import fetcher

from fairdeal.audit import AuditError
from fairdeal.audit import audit
from fairdeal.audit import default_state_path
from fairdeal.audit import parse_duration
from fairdeal.audit import parse_now
from fairdeal.cli import main
from fairdeal.service import create_app
from fairdeal.tlog import verify_checkpoint

DAY = 24 * 3600
URL = "http://testserver"


def latest(api) -> float:
    """When the last start entry was made (headers take the wall clock's time, not the test's)."""
    entries = api.ok("GET", "/log/entries", params={"start": 0})["entries"]
    return max(parse_now(json.loads(e["entry"])["created"]) for e in entries if '"type":"start"' in e["entry"])


def play(api):
    """A few games: two bot tables over at once (alpha), a table of people abandoned and one still
    open (beta), a session revealed (beta). Their ids, by what became of them."""
    done = [
        api.create([("A", True), ("B", True)], options={"target": 1, "restock_limit": 0}, host_id="alpha")["game_id"]
        for _ in range(2)
    ]
    gone = api.create([("Ann", False), ("Bot", True)], host_id="beta")
    api.ok("POST", f"/games/{gone['game_id']}/abandon", gone["host_token"], json={"reason": "enough"})
    open_ = api.create([("Ann", False), ("Bot", True)], rules="hollywood-eights", host_id="beta")["game_id"]
    session = api.ok("POST", "/sessions", status=201, json={"seats": 1, "host_id": "beta"})
    api.ok("POST", f"/sessions/{session['session_id']}/reveal", session["owner_key"])
    for game_id in done:  # bots alone play to the end inside the create
        assert len(api.ok("GET", f"/games/{game_id}/log")["entries"]) == 2
    return {"done": done, "abandoned": gone["game_id"], "open": open_, "session": session["session_id"]}


def test_a_clean_log_has_no_problems_and_the_right_abandon_rates(api, tmp_path):
    ids = play(api)
    state = tmp_path / "audit.json"
    report = audit(URL, fetcher(api), state=state, now=latest(api) + 60)
    assert report.ok, [p.message for p in report.problems]
    assert report.warnings and "first audit" in report.warnings[0]
    assert report.entries == 9 and report.records_checked == 4 and report.consistent is None
    out = report.to_json()
    assert out["totals"] == {"started": 5, "revealed": 3, "abandoned": 1, "open": 1, "stale": 0}
    assert out["by_rules"] == {
        "crazy-eights": {"started": 3, "revealed": 2, "abandoned": 1, "open": 0, "stale": 0, "abandoned_rate": 0.3333},
        "hollywood-eights": {
            "started": 1,
            "revealed": 0,
            "abandoned": 0,
            "open": 1,
            "stale": 0,
            "abandoned_rate": None,
        },
    }
    assert out["by_host"] == {
        "alpha": {"started": 2, "revealed": 2, "abandoned": 0, "open": 0, "stale": 0, "abandoned_rate": 0.0},
        "beta": {"started": 3, "revealed": 1, "abandoned": 1, "open": 1, "stale": 0, "abandoned_rate": 0.5},
    }
    # The state: the checkpoint seen, the key trusted on first use.
    saved = json.loads(state.read_text())
    key = api.ok("GET", "/.well-known/fairdeal-log")["public_key"]
    assert saved["public_key"] == key and saved["size"] == 9
    assert verify_checkpoint(saved["checkpoint"], key).size == 9
    # The next run: a bigger log, consistent with the one seen; the open game now past its deadline.
    api.create([("A", True), ("B", True)], options={"target": 1, "restock_limit": 0}, host_id="alpha")
    again = audit(URL, fetcher(api), state=state, now=latest(api) + DAY + 1)
    assert again.consistent is True and again.previous["size"] == 9 and again.checkpoint["size"] == 11
    assert not again.warnings
    assert [(p.kind, p.id) for p in again.problems] == [("stale", ids["open"])]
    assert "hollywood-eights" in again.problems[0].message and "never ended" in again.problems[0].message
    assert again.to_json()["stale"] == [
        {
            "id": ids["open"],
            "kind": "game",
            "rules": "hollywood-eights",
            "host": "beta",
            "created": again.stale[0]["created"],
            "index": 6,
        }
    ]
    assert again.by_host["beta"]["stale"] == 1
    # A longer deadline: nothing stale.
    assert audit(URL, fetcher(api), state=state, now=latest(api) + DAY + 1, stale_after=2 * DAY).ok
    assert json.loads(state.read_text())["size"] == 11


def _drop_last_entry(app):
    """Delete the log's last row (an end entry) and make the server rebuild its tree from the rest."""
    store = app.state.store
    with store._transaction() as cur:
        cur.execute("DELETE FROM log_entries WHERE idx = (SELECT MAX(idx) FROM log_entries)")
    store._tree = None


def test_a_server_that_left_a_game_s_end_out_of_its_log_is_named(api):
    ids = play(api)
    hidden = api.create([("Ann", False), ("Bot", True)], host_id="gamma")
    api.ok("POST", f"/games/{hidden['game_id']}/abandon", hidden["host_token"], json={"reason": "lost"})
    _drop_last_entry(api.app)
    log = api.ok("GET", f"/games/{hidden['game_id']}/log")
    assert [json.loads(e["entry"])["type"] for e in log["entries"]] == ["start"]  # what the server now serves
    # Within the deadline it is only open; past it, named, with its record's reveal as the proof.
    assert audit(URL, fetcher(api), state=None, now=latest(api) + 60).ok
    report = audit(URL, fetcher(api), state=None, now=latest(api) + DAY + 1)
    stale = {p.id: p for p in report.problems if p.kind == "stale"}
    assert set(stale) == {hidden["game_id"], ids["open"]}
    assert stale[hidden["game_id"]].details == {"revealed": True}
    assert "left its end entry out of the log" in stale[hidden["game_id"]].message
    assert stale[ids["open"]].details == {"revealed": False}
    assert report.by_host["gamma"] == {"started": 1, "revealed": 0, "abandoned": 0, "open": 1, "stale": 1}


def test_a_record_whose_head_is_not_its_end_entry_is_named(api):
    ids = play(api)
    game = ids["done"][1]
    store = api.app.state.store
    last = store.lines(game)[-1]
    line = json.loads(last)
    line["server_seed"] = "0" * 64  # another reveal than the one the log's end entry holds
    with store._transaction() as cur:
        cur.execute(
            "UPDATE lines SET line = ? WHERE game_id = ? AND seq = ?",
            (json.dumps(line, sort_keys=True, separators=(",", ":")), game, line["seq"]),
        )
    report = audit(URL, fetcher(api), state=None, now=latest(api) + 60)
    assert [(p.kind, p.id) for p in report.problems] == [("head-mismatch", game)]
    problem = report.problems[0]
    assert "(head)" in problem.message and problem.details["log"]["seq"] == problem.details["record"]["seq"]
    assert problem.details["log"]["head"] != problem.details["record"]["head"]
    # --verify-records replays them too: the changed seed no longer matches the commitment.
    full = audit(URL, fetcher(api), state=None, now=latest(api) + 60, verify_records=True)
    assert {(p.kind, p.id) for p in full.problems} == {("head-mismatch", game), ("record-invalid", game)}


def test_a_log_that_forked_between_two_runs_is_reported_and_the_state_kept(api, settings, tmp_path, monkeypatch):
    import fairdeal.audit

    play(api)
    state = tmp_path / "audit.json"
    assert audit(URL, fetcher(api), state=state, now=latest(api) + 60).ok
    seen = state.read_text()
    # The same service (its keys, its origin) on another database: a second tree, grown apart.
    other = create_app(service_settings(settings.data_dir, f"sqlite:///{tmp_path / 'fork.db'}"), clock=Clock())
    try:
        with TestClient(other) as client:
            fork = Api(client)
            for _ in range(6):
                fork.create([("A", True), ("B", True)], options={"target": 1, "restock_limit": 0}, host_id="alpha")
            report = audit(URL, fetcher(fork), state=state, now=latest(api) + 60)
            assert report.consistent is False
            assert [p.kind for p in report.problems] == ["inconsistent"]
            message = report.problems[0].message
            assert "FORKED" in message and "size 9" in message and "size 12" in message
            assert report.problems[0].details["previous"]["size"] == 9
            assert state.read_text() == seen  # the next run reports it again
            # The same through the command: exit 1, both checkpoints shown.
            monkeypatch.setattr(fairdeal.audit, "url_fetch", fetcher(fork))
            result = CliRunner().invoke(
                main, ["audit", URL, "--state", str(state), "--now", str(int(latest(api) + 60))]
            )
            assert result.exit_code == 1, result.output
            assert "inconsistent: THE LOG FORKED" in result.output
            assert result.output.count("fairdeal.invalid/log/") >= 4  # the log's name, and in both checkpoints
            assert state.read_text() == seen
            # Seen the other way round, the log shrank from 12 to 9.
            other_state = tmp_path / "other.json"
            assert audit(URL, fetcher(fork), state=other_state, now=latest(api) + 60).ok
            shrank = audit(URL, fetcher(api), state=other_state, now=latest(api) + 60)
            assert shrank.origin == report.origin and shrank.public_key == report.public_key  # one service, two trees
            assert [p.kind for p in shrank.problems] == ["inconsistent"] and "the log shrank" in shrank.problems[
                0
            ].message
    finally:
        other.state.store.close()


def test_a_changed_key_or_a_bad_signature_is_a_problem(api, tmp_path):
    play(api)
    state = tmp_path / "audit.json"
    assert audit(URL, fetcher(api), state=state, now=latest(api)).ok
    saved = json.loads(state.read_text())
    saved["public_key"] = "ab" * 32
    state.write_text(json.dumps(saved))
    report = audit(URL, fetcher(api), state=state, now=latest(api))
    assert [p.kind for p in report.problems] == ["key-changed", "bad-signature"]
    assert "--key" in report.problems[0].message
    assert json.loads(state.read_text())["public_key"] == "ab" * 32  # not replaced by the server's word
    # Pinning the right key with --key goes on.
    key = api.ok("GET", "/.well-known/fairdeal-log")["public_key"]
    assert audit(URL, fetcher(api), state=state, key=key, now=latest(api)).ok
    assert json.loads(state.read_text())["public_key"] == key


def test_the_command_s_json_and_text(api, tmp_path, monkeypatch):
    """The command with urllib swapped for the test client (over HTTP: test_the_command_over_http)."""
    import fairdeal.audit

    ids = play(api)
    monkeypatch.setattr(fairdeal.audit, "url_fetch", fetcher(api))
    state = tmp_path / "state.json"
    now = str(int(latest(api) + DAY + 1))
    result = CliRunner().invoke(main, ["audit", URL, "--state", str(state), "--now", now, "--json"])
    assert result.exit_code == 1, result.output
    out = json.loads(result.stdout)
    assert set(out) == {
        "ok",
        "url",
        "origin",
        "public_key",
        "checkpoint",
        "previous",
        "consistent",
        "witnesses",
        "now",
        "stale_after",
        "entries",
        "records_checked",
        "totals",
        "by_rules",
        "by_host",
        "stale",
        "problems",
        "warnings",
    }
    assert out["witnesses"] is None  # none required (spec/log.md section 9)
    assert out["ok"] is False and out["stale_after"] == DAY and out["now"].endswith("Z")
    assert set(out["checkpoint"]) == {"size", "root", "note"} and out["previous"] is None
    assert out["problems"] == [
        {"kind": "stale", "id": ids["open"], "revealed": False, "message": out["problems"][0]["message"]}
    ]
    text = CliRunner().invoke(main, ["audit", URL, "--state", str(state), "--now", now, "--stale-after", "2d"])
    assert text.exit_code == 0, text.output
    assert "no problems found" in text.output and "previous checkpoint: size 9" in text.output
    assert (
        "crazy-eights" in text.output and "beta" in text.output and "1 abandoned =  50% of those ended" in text.output
    )


def test_the_state_file_s_default_place(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert default_state_path("http://localhost:8000") == tmp_path / "fairdeal" / "audit" / "localhost_8000.json"
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert default_state_path("https://a.example/").parts[-4:] == (".cache", "fairdeal", "audit", "a.example.json")


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.parametrize(
    "args, says",
    [
        (["audit", "not a url"], "is not a service's base URL"),
        (["audit", "ftp://example.com"], "is not a service's base URL"),
        (["audit", "http://127.0.0.1:{port}"], "/.well-known/fairdeal-log:"),
        (["audit", "http://127.0.0.1:{port}", "--stale-after", "soon"], "duration 'soon'"),
        (["audit", "http://127.0.0.1:{port}", "--key", "xyz"], "64 hex digits"),
    ],
)
def test_bad_input_is_a_message_and_exit_2(args, says, tmp_path):
    port = _closed_port()
    args = [a.format(port=port) for a in args] + ["--state", str(tmp_path / "s.json")]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2, result.output
    assert says in result.output and "Traceback" not in result.output


def test_a_bad_state_file_is_bad_input(tmp_path):
    state = tmp_path / "s.json"
    state.write_text("{}")
    with pytest.raises(AuditError, match="not a fairdeal-audit-state/1 file"):
        audit(URL, lambda url: b"", state=state)
    assert parse_duration("24h") == DAY and parse_duration("1h30m") == 5400


@pytest.fixture
def live(app):
    """The app served over real HTTP by uvicorn, in a thread of this process."""
    import threading
    import time

    import uvicorn

    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=_closed_port(), log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    give_up = time.monotonic() + 30
    while not server.started:
        assert thread.is_alive() and time.monotonic() < give_up
        time.sleep(0.01)
    yield f"http://127.0.0.1:{server.config.port}"
    server.should_exit = True
    thread.join(30)


def test_the_command_over_http(live, tmp_path):
    for host in ("alpha", "alpha", "beta"):
        made = http(
            "POST",
            f"{live}/games",
            json={
                "seats": [{"name": "A", "bot": True}, {"name": "B", "bot": True}],
                "options": {"target": 1, "restock_limit": 0},
                "host_id": host,
            },
        )
        assert made.status_code == 201, made.text
    key = http("GET", f"{live}/.well-known/fairdeal-key").json()["key"]
    state = tmp_path / "s.json"
    result = CliRunner().invoke(main, ["audit", live + "/", "--key", key, "--state", str(state), "--verify-records"])
    assert result.exit_code == 0, result.output
    assert "6 entries: 3 started, 3 revealed, 0 abandoned, 0 open (0 past 24h)" in result.output
    assert "3 ended records checked" in result.output and "no problems found" in result.output
    assert "warning" not in result.output  # the key was pinned
    again = CliRunner().invoke(main, ["audit", live, "--state", str(state), "--json"])
    assert again.exit_code == 0 and json.loads(again.stdout)["consistent"] is True
    # A base URL that is not a fairdeal service: the message, exit 2.
    missing = CliRunner().invoke(main, ["audit", live + "/nothing-here", "--no-state"])
    assert missing.exit_code == 2 and "HTTP 404" in missing.output
