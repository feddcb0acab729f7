"""A service with two witnesses (spec/log.md section 9), on SQLite and PostgreSQL: its checkpoints come
cosigned; a fork of its store (the database copied, different games appended to each) gets no
cosignature, the auditor and `fairdeal-verify --log` with a quorum refuse it, and each witness keeps
both signed roots as evidence, across a restart; a witness that is down costs only its cosignature."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient
from helpers import http
from helpers import service_settings
from load import database
from service_helpers import Api
from service_helpers import Clock
from service_helpers import fetcher

from fairdeal.audit import audit
from fairdeal.cli import main
from fairdeal.cosignature import WitnessKey
from fairdeal.cosignature import cosigners
from fairdeal.record import parse_record
from fairdeal.service import Settings
from fairdeal.service import create_app
from fairdeal.service.keys import load_keys
from fairdeal.service.settings import SettingsError
from fairdeal.service.store import open_store
from fairdeal.service.transparency import default_origin
from fairdeal.tlog import verifier_key
from fairdeal.tlog import verify_checkpoint
from fairdeal.verification.log import check_log
from fairdeal.witness import Witness

URL = "http://testserver"
BOTS = {"options": {"target": 1, "restock_limit": 0}}


class Witnesses(httpx.AsyncBaseTransport):
    """The witnesses in this process, each an ASGI app at http://<name>/; one can be restarted (a
    new Witness on its directory) or taken down."""

    def __init__(self, directory: Path, log_key: str) -> None:
        self.directory, self.log_key = directory, log_key
        self.up: dict[str, Witness] = {}
        self.apps: dict[str, Any] = {}
        for host in ("w1", "w2"):
            self.start(host, name=f"{host}.example/witness")

    def start(self, host: str, name: str | None = None) -> None:
        self.up[host] = Witness(self.directory / host, name=name, logs=[self.log_key])
        self.apps[host] = httpx.ASGITransport(app=self.up[host].app())

    def restart(self, host: str) -> None:
        self.up.pop(host).close()
        self.start(host)

    def stop(self, host: str) -> None:
        self.up.pop(host).close()
        self.apps.pop(host)

    def setting(self) -> str:
        return ", ".join(f"http://{host}/ {w.verifier_key}" for host, w in self.up.items())

    def keys(self) -> list[str]:
        return [w.verifier_key for w in self.up.values()]

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        transport = self.apps.get(request.url.host)
        if transport is None:
            raise httpx.ConnectError(f"{request.url.host}: connection refused", request=request)
        return await transport.handle_async_request(request)


@pytest.fixture
def witnesses(tmp_path: Path) -> Any:
    # The service's key first (the data directory's), to configure the witnesses with its log's key.
    signer, _ = load_keys(tmp_path / "data")
    transport = Witnesses(tmp_path / "witnesses", verifier_key(default_origin(signer.public_hex), signer.public_hex))
    yield transport
    for witness in transport.up.values():
        witness.close()


def service(
    tmp_path: Path,
    database_url: str,
    witnesses: Witnesses,
    new_ids: Any,
    setting: str | None = None,
    interval: float = 0,
) -> Any:
    settings = service_settings(
        tmp_path / "data",
        database_url,
        create_rate="off",
        move_rate="off",
        max_games_per_client=0,
        witnesses=witnesses.setting() if setting is None else setting,
        witness_timeout=5,
        witness_interval=interval,
    )
    return create_app(settings, clock=Clock(), new_ids=new_ids, witness_transport=witnesses)


@contextlib.contextmanager
def running(app: Any):
    try:
        with TestClient(app) as client:
            yield Api(client)
    finally:
        app.state.store.close()


def copy_store(source: Any, url: str) -> None:
    """The fork: every row of the service's database copied into a new one (the same schema)."""
    target = open_store(url)
    try:
        with target._transaction() as cur:
            for table in ("games", "sessions", "seat_tokens", "lines", "log_entries"):
                for row in source._query(f"SELECT * FROM {table}"):
                    cur.execute(f"INSERT INTO {table} VALUES ({', '.join('?' * len(row))})", tuple(row))
    finally:
        target.close()


def play(api: Api, host: str, n: int) -> list[str]:
    """``n`` tables of bots, over at once: a start and an end entry each."""
    return [api.create([("A", True), ("B", True)], host_id=host, **BOTS)["game_id"] for _ in range(n)]


def test_a_fork_gets_no_cosignature_the_auditor_refuses_it_and_the_witnesses_keep_the_evidence(
    tmp_path, database_url, witnesses, new_ids, request
):
    keys = witnesses.keys()
    with running(service(tmp_path, database_url, witnesses, new_ids)) as api:
        play(api, "alice", 2)
        checkpoint = api.client.get("/log/checkpoint").text
        assert set(cosigners(checkpoint, [WitnessKey.parse(k) for k in keys])) == {
            "w1.example/witness",
            "w2.example/witness",
        }
        assert verify_checkpoint(checkpoint, api.ok("GET", "/.well-known/fairdeal-log")["public_key"]).size == 4

        # The fork: the database as it is now, in another store of the same kind, the same keys.
        kind = "sqlite" if database_url.startswith("sqlite") else "postgresql"
        fork_url = stack_database(request, kind, tmp_path)
        copy_store(api.app.state.store, fork_url)

        honest_games = play(api, "alice", 1)
        honest = api.client.get("/log/checkpoint").text
        assert honest.count("\u2014") == 3 and verify_checkpoint(honest, api.app.state.signer.public_hex).size == 6
        report = audit(URL, fetcher(api), state=None, witnesses=keys, quorum=2)
        assert report.ok, [p.message for p in report.problems]
        assert report.witnesses == {
            "quorum": 2,
            "given": ["w1.example/witness", "w2.example/witness"],
            "cosigned": ["w1.example/witness", "w2.example/witness"],
        }
        record = parse_record(api.client.get(f"/games/{honest_games[0]}/record").content)
        logged = check_log(record, honest, URL, fetch=fetcher(api), witnesses=[WitnessKey.parse(k) for k in keys])
        assert logged.verified and logged.cosigned == ["w1.example/witness", "w2.example/witness"], logged.error

    # Both witnesses restart between the log's submission and the fork's: they keep their word.
    witnesses.restart("w1")
    witnesses.restart("w2")
    with running(service(tmp_path, fork_url, witnesses, new_ids)) as fork:
        fork_games = play(fork, "mallory", 2)
        forked = fork.client.get("/log/checkpoint").text
        cp = verify_checkpoint(forked, fork.app.state.signer.public_hex)  # signed by the one key, like the honest one
        assert cp.size == 8 and forked.count("\u2014") == 1  # the log's signature alone: no witness cosigned it
        failures = fork.app.state.witnesses.failures
        assert set(failures) == {"w1.example/witness", "w2.example/witness"}
        assert all(
            "HTTP 422" in why and "not consistent with the checkpoint of size 6" in why for why in failures.values()
        )
        # The auditor that requires the witnesses refuses it, even with a quorum of one.
        for quorum in (1, 2):
            report = audit(URL, fetcher(fork), state=None, witnesses=keys, quorum=quorum)
            assert [p.kind for p in report.problems] == ["not-witnessed"], [p.message for p in report.problems]
            assert f"from 0 of the {quorum} witnesses required" in report.problems[0].message
        assert audit(URL, fetcher(fork), state=None).ok  # without witnesses, the fork passes: the split view
        record = parse_record(fork.client.get(f"/games/{fork_games[0]}/record").content)
        logged = check_log(record, forked, URL, fetch=fetcher(fork), witnesses=[WitnessKey.parse(k) for k in keys])
        assert not logged.verified and "not witnessed as required" in logged.error
        assert "none from w1.example/witness, w2.example/witness" in logged.error

    # Each witness names both roots, each in a checkpoint the log signed.
    for host in ("w1", "w2"):
        [evidence] = witnesses.up[host].evidence()
        assert evidence["cosigned"]["size"] == 6 and evidence["refused"]["size"] == 8
        assert evidence["cosigned"]["root"] == verify_checkpoint(honest, api.app.state.signer.public_hex).root.hex()
        assert evidence["refused"]["root"] == cp.root.hex()
        assert verify_checkpoint(evidence["refused"]["note"], api.app.state.signer.public_hex).size == 8


def stack_database(request: Any, kind: str, tmp_path: Path) -> str:
    """A second, empty database of the kind under test (dropped after the test)."""
    stack = contextlib.ExitStack()
    request.addfinalizer(stack.close)
    (tmp_path / "fork").mkdir()
    return stack.enter_context(database(kind, tmp_path / "fork", "fairdeal_fork"))


def test_a_restarted_service_learns_the_witnesses_sizes_from_their_409s(tmp_path, database_url, witnesses, new_ids):
    with running(service(tmp_path, database_url, witnesses, new_ids)) as api:
        play(api, "alice", 1)
        assert api.client.get("/log/checkpoint").text.count("\u2014") == 3
    # A new process knows nothing of the witnesses: it sends "old 0", is told their size, and proves from it.
    with running(service(tmp_path, database_url, witnesses, new_ids)) as api:
        play(api, "alice", 2)
        checkpoint = api.client.get("/log/checkpoint").text
        assert checkpoint.count("\u2014") == 3 and not api.app.state.witnesses.failures
        assert verify_checkpoint(checkpoint, api.app.state.signer.public_hex).size == 6
        assert api.client.get("/log/checkpoint").text == checkpoint  # nothing new: no new round, the same note


def test_the_log_s_description_lists_the_witnesses_keys_in_the_operator_s_order(tmp_path, witnesses, new_ids):
    # What the table's "Why it is fair" panel and the verify page name the cosigners from.
    app = service(tmp_path, f"sqlite:///{tmp_path / 'fd.db'}", witnesses, new_ids)
    with running(app) as api:
        info = api.ok("GET", "/.well-known/fairdeal-log")
        assert info["witnesses"] == witnesses.keys()
        assert [WitnessKey.parse(key).name for key in info["witnesses"]] == ["w1.example/witness", "w2.example/witness"]
    alone = service(tmp_path / "alone", f"sqlite:///{tmp_path / 'alone.db'}", witnesses, new_ids, setting="")
    with running(alone) as api:
        assert api.ok("GET", "/.well-known/fairdeal-log")["witnesses"] == []


def test_the_background_rounds_witness_a_grown_log_unasked(tmp_path, witnesses, new_ids):
    import time

    app = service(tmp_path, f"sqlite:///{tmp_path / 'fd.db'}", witnesses, new_ids, interval=0.05)
    with running(app) as api:
        play(api, "alice", 1)
        give_up = time.monotonic() + 30
        both = {"w1.example/witness", "w2.example/witness"}
        # Nobody asks for the checkpoint; each witness's cosignature lands when its answer comes (the
        # size's entry appears with the first of them).
        while set(app.state.witnesses._cosigned.get(2, ())) != both:
            assert time.monotonic() < give_up, (app.state.witnesses._cosigned.get(2), app.state.witnesses.failures)
            time.sleep(0.02)
    assert witnesses.up["w1"].latest(app.state.log.origin) is not None


def test_a_witness_that_is_down_costs_only_its_cosignature(tmp_path, witnesses, new_ids, monkeypatch):
    import fairdeal.audit

    keys = witnesses.keys()
    setting = witnesses.setting()
    witnesses.stop("w2")
    with running(service(tmp_path, f"sqlite:///{tmp_path / 'fd.db'}", witnesses, new_ids, setting=setting)) as api:
        play(api, "alice", 2)  # the games are played: nothing waits on a witness
        checkpoint = api.client.get("/log/checkpoint").text
        assert set(cosigners(checkpoint, [WitnessKey.parse(k) for k in keys])) == {"w1.example/witness"}
        assert "no answer (ConnectError" in api.app.state.witnesses.failures["w2.example/witness"]
        assert audit(URL, fetcher(api), state=None, witnesses=keys, quorum=1).ok
        # Through the command: a quorum of both is refused, exit 1, the missing witness named.
        monkeypatch.setattr(fairdeal.audit, "url_fetch", fetcher(api))
        args = ["audit", URL, "--no-state", "--witness", keys[0], "--witness", keys[1]]
        refused = CliRunner().invoke(main, args)
        assert refused.exit_code == 1, refused.output
        assert "witnesses: cosigned by w1.example/witness (2 of 2 required)" in refused.output
        assert "not-witnessed: the checkpoint of size 4 is not witnessed as required" in refused.output
        assert "none from w2.example/witness" in refused.output
        passed = CliRunner().invoke(main, [*args, "--quorum", "1", "--json"])
        assert passed.exit_code == 0, passed.output
        assert json.loads(passed.stdout)["witnesses"]["cosigned"] == ["w1.example/witness"]
        for bad, says in [
            (["--witness", "nonsense"], "--witness: verifier key 'nonsense'"),
            (["--quorum", "1"], "--quorum goes with --witness"),
            (["--witness", keys[0], "--quorum", "2"], "--quorum is from 1 to the 1 witnesses given, not 2"),
        ]:
            result = CliRunner().invoke(main, ["audit", URL, "--no-state", *bad])
            assert result.exit_code == 2 and says in result.output, result.output


def test_fairdeal_verify_requires_the_witnesses_it_is_given(tmp_path, witnesses, new_ids):
    import threading
    import time

    import uvicorn
    from service_helpers import free_port

    from verifier.cli import main as verify_main

    keys = witnesses.keys()
    app = service(tmp_path, f"sqlite:///{tmp_path / 'fd.db'}", witnesses, new_ids)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=free_port(), log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        give_up = time.monotonic() + 30
        while not server.started:
            assert thread.is_alive() and time.monotonic() < give_up
            time.sleep(0.01)
        base = f"http://127.0.0.1:{server.config.port}"
        game = http(
            "POST", f"{base}/games", json={"seats": [{"name": "A", "bot": True}, {"name": "B", "bot": True}], **BOTS}
        ).json()["game_id"]
        (tmp_path / "record.jsonl").write_bytes(http("GET", f"{base}/games/{game}/record").content)
        (tmp_path / "bare").write_text(app.state.log.checkpoint())  # the log's signature alone

        def run(*args: str) -> Any:
            return CliRunner().invoke(verify_main, [str(tmp_path / "record.jsonl"), *args])

        ok = run("--log", base, "--witness", keys[0], "--witness", keys[1])
        assert ok.exit_code == 0, ok.output
        assert ok.output.splitlines()[-1].endswith("at size 2, cosigned by w1.example/witness, w2.example/witness")
        refused = run("--log", str(tmp_path / "bare"), "--log-server", base, "--witness", keys[0], "--quorum", "1")
        assert refused.exit_code == 1, refused.output
        assert "LOG NOT VERIFIED: the checkpoint is not witnessed as required" in refused.output
        assert run("--log", str(tmp_path / "bare"), "--log-server", base).exit_code == 0  # no witness asked for
        for bad, says in [
            (["--log", base, "--witness", "x+y+z"], "--witness"),
            (["--log", base, "--witness", keys[0], "--quorum", "0"], "--quorum"),
            (["--witness", keys[0]], "--witness goes with --log"),
        ]:
            result = run(*bad)
            assert result.exit_code == 2 and says in result.output, result.output
    finally:
        server.should_exit = True
        thread.join(30)
        app.state.store.close()


@pytest.mark.parametrize(
    "value, says",
    [
        ("http://w1.example/", "entry 1 is a witness's URL and its verifier key"),
        (
            "ftp://w1.example/ w1.example/w+1ebcd6e7+BAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
            "not an http:// or https:// URL",
        ),
        (
            "http://w1.example/ w1.example/w+1ebcd6e7+AQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
            "signature type is 0x01, not 0x04",
        ),
        (
            "http://a/ w1.example/w+1ebcd6e7+BAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA,\n"
            "http://b/ w1.example/w+1ebcd6e7+BAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
            "entry 2: witness 'w1.example/w' is listed twice",
        ),
    ],
)
def test_a_bad_witnesses_setting_is_named_at_start(tmp_path, value, says, monkeypatch):
    with pytest.raises(SettingsError, match="FAIRDEAL_WITNESSES: ") as caught:
        Settings.from_env({"FAIRDEAL_DATA_DIR": str(tmp_path), "FAIRDEAL_WITNESSES": value})
    assert says in str(caught.value)
    monkeypatch.setenv("FAIRDEAL_WITNESSES", value)
    result = CliRunner().invoke(main, ["serve", "--data-dir", str(tmp_path)])
    assert result.exit_code == 2 and "FAIRDEAL_WITNESSES" in result.output and "Traceback" not in result.output
