"""Reliability of a real server: killed with SIGKILL mid-game, raced, and run twice on one database.

Every test here runs ``fairdeal serve`` as a subprocess on a free port of
127.0.0.1 (uvicorn, one worker), over SQLite *and* PostgreSQL, and talks to
it with httpx like any client would. Human seats are played by
:class:`Player`, a client loop that chooses from the seat's view and keeps
every receipt; bot seats are played by the server's own timer. What is
checked at the end is what a player would check: every receipt's line is in
the record at its seq with its hash, the record's seqs run 0, 1, 2, ...
without a gap or a repeat, and the record verifies (the verifier's API,
``fairdeal-verify`` with the receipts, and the server's ``/verify``).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from dataclasses import field
from pathlib import Path
from typing import Any

import httpx
import pytest
from helpers import http
from helpers import local_client
from service_helpers import choose
from service_helpers import free_port

from fairdeal.fairness import client_commitment
from fairdeal.record import Signer
from fairdeal.record import canonical
from fairdeal.record import line_hash
from fairdeal.record import resign
from fairdeal.record import verify_head
from fairdeal.tlog import Checkpoint
from fairdeal.tlog import verify_checkpoint
from fairdeal.tlog import verify_consistency
from fairdeal.verification import verify
from fairdeal.verification.receipts import check_receipts

BIN = Path(sys.executable).parent
FAIRDEAL = str(BIN / "fairdeal")
FAIRDEAL_VERIFY = str(BIN / "fairdeal-verify")

STARTUP_SECONDS = 60.0
"""How long a server may take to answer /health (a loaded CI machine is slow, never this slow)."""
GAME_SECONDS = 180.0
"""How long the games of one test may take to play out, restarts included, before the test fails."""
SHORT_MATCH = {"target": 30, "restock_limit": 20}
"""A match to 30 points: mostly one hand, some fifty moves at four seats."""
LONGER_MATCH = {"target": 50, "restock_limit": 20}
"""A match to 50 points: a hand or two, about a hundred moves at four seats."""


class Server:
    """One ``fairdeal serve`` process on 127.0.0.1; :meth:`start` again after :meth:`kill` restarts it
    on the same port, data dir and database."""

    def __init__(self, data_dir: Path, database_url: str, log_dir: Path, name: str = "server") -> None:
        self.data_dir, self.database_url, self.log_dir, self.name = data_dir, database_url, log_dir, name
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None
        self.starts = 0

    @property
    def log_path(self) -> Path:
        return self.log_dir / f"{self.name}-{self.starts}.log"

    def start(self) -> Server:
        self.starts += 1
        env = {
            **os.environ,
            # Bots move by the server's timer, a moment after they get the turn: the timer's own
            # appends are killed mid-way too, and a restarted server must pick their deadlines up.
            "FAIRDEAL_BOT_DELAY": "0.01",
            "FAIRDEAL_NEXT_HAND_SECONDS": "0",
            "FAIRDEAL_TICK_SECONDS": "0.02",
            "FAIRDEAL_LOG_LEVEL": "info",
            # The operator's limits, high: every request of a test comes from one address.
            "FAIRDEAL_CREATE_RATE": "1000000/minute",
            "FAIRDEAL_MOVE_RATE": "1000000/minute",
            "FAIRDEAL_MAX_GAMES_PER_CLIENT": "1000000",
            "FAIRDEAL_MAX_STREAMS_PER_CLIENT": "10000",
        }
        with open(self.log_path, "wb") as log:  # a file, not a pipe: a full pipe would stall the server
            self.process = subprocess.Popen(
                [
                    FAIRDEAL,
                    "serve",
                    "--host",
                    "127.0.0.1",
                    "--port",
                    str(self.port),
                    "--data-dir",
                    str(self.data_dir),
                    "--database-url",
                    self.database_url,
                    "--workers",
                    "1",
                ],
                stdout=log,
                stderr=subprocess.STDOUT,
                env=env,
                start_new_session=True,  # its own process group: killed whole, whatever it started
            )
        self.wait_ready()
        return self

    def wait_ready(self, timeout: float = STARTUP_SECONDS) -> None:
        give_up = time.monotonic() + timeout
        while True:
            assert self.process is not None and self.process.poll() is None, f"{self.name} exited:\n{self.log()}"
            try:
                if http("GET", f"{self.url}/health", timeout=2).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            assert time.monotonic() < give_up, f"{self.name} did not answer /health in {timeout} s:\n{self.log()}"
            time.sleep(0.05)

    def kill(self) -> None:
        """SIGKILL: no shutdown, no flush, no goodbye; whatever was in flight is cut."""
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=30)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.kill()

    def log(self) -> str:
        return "".join(path.read_text(errors="replace") for path in sorted(self.log_dir.glob(f"{self.name}-*.log")))[
            -4000:
        ]

    def statuses(self) -> list[int]:
        """The status of every request in the access logs of every start."""
        found = []
        for path in self.log_dir.glob(f"{self.name}-*.log"):
            for line in path.read_text(errors="replace").splitlines():
                if line.startswith('{"method"'):
                    found.append(json.loads(line)["status"])
        return found


@pytest.fixture
def servers(tmp_path: Path, database_url: str) -> Iterator[Callable[[str], Server]]:
    """Make servers on the test's database and one shared data dir; every one is stopped at the end."""
    made: list[Server] = []
    logs = tmp_path / "logs"
    logs.mkdir()

    def make(name: str = "server") -> Server:
        server = Server(tmp_path / "data", database_url, logs, name)
        made.append(server)
        return server

    try:
        yield make
    finally:
        for server in made:
            server.stop()


@dataclass
class Player:
    """The human seats of one table, played over HTTP from their views until the match ends.

    Requests go to ``urls`` in turn (one server, or several serving the same
    database). A refused stale move (409) is chosen again from a fresh view;
    a server that is down is waited for. Every receipt is kept, with the
    move it answered.
    """

    urls: list[str]
    game: dict[str, Any]
    tokens: dict[int, str]
    progress: threading.Condition
    give_up: float
    receipts: list[dict[str, Any]] = field(default_factory=list)
    moves: list[tuple[dict[str, Any], dict[str, Any], str]] = field(default_factory=list)
    """(receipt, the move sent, the url that accepted it)."""
    requests: dict[str, int] = field(default_factory=dict)
    hold: list[int] = field(default_factory=list)
    """Shared by the players of a test: while it holds a number, no player moves once the players
    together made that many (the test kills the server there, however slow the machine is)."""
    others: list[Player] = field(default_factory=list)

    @property
    def game_id(self) -> str:
        return self.game["game_id"]

    def _next_url(self, method: str) -> str:
        # Reads and writes alternate each on their own: moves go to one server, then the other.
        self.requests[method] = self.requests.get(method, -1) + 1
        return self.urls[self.requests[method] % len(self.urls)]

    def call(
        self, client: httpx.Client, method: str, path: str, token: str | None = None, **kwargs: Any
    ) -> tuple[httpx.Response, str]:
        """A request to the next server, retried (after waiting for a server) while none answers."""
        while True:
            assert time.monotonic() < self.give_up, f"game {self.game_id}: out of time"
            url = self._next_url(method)
            headers = {"Authorization": f"Bearer {token}"} if token else {}
            try:
                return client.request(method, url + path, headers=headers, timeout=30, **kwargs), url
            except httpx.TransportError:
                if method == "POST":
                    # Cut off: the server may or may not have written it. No receipt, no claim.
                    return httpx.Response(599), url
                self._wait_for_a_server(client)

    def _wait_for_a_server(self, client: httpx.Client) -> None:
        while time.monotonic() < self.give_up:
            for url in self.urls:
                try:
                    if client.get(url + "/health", timeout=2).status_code == 200:
                        return
                except httpx.TransportError:
                    pass
            time.sleep(0.05)

    def join(self, client: httpx.Client, seeds: dict[int, str]) -> None:
        for seat, token in self.tokens.items():
            response, _ = self.call(
                client,
                "POST",
                f"/games/{self.game_id}/seats/{seat}/commit",
                token,
                json={"commitment": client_commitment(seeds[seat])},
            )
            assert response.status_code == 200, response.text
            self.receipts.append(response.json()["receipt"])
        for seat, token in self.tokens.items():
            response, _ = self.call(
                client, "POST", f"/games/{self.game_id}/seats/{seat}/reveal", token, json={"seed": seeds[seat]}
            )
            assert response.status_code == 200, response.text
            self.receipts.append(response.json()["receipt"])

    def view(self, client: httpx.Client, seat: int) -> dict[str, Any]:
        response, _ = self.call(client, "GET", f"/games/{self.game_id}/seats/{seat}/view", self.tokens[seat])
        assert response.status_code == 200, response.text
        return response.json()

    def play(self) -> None:
        first = min(self.tokens)
        with local_client() as client:
            while True:
                view = self.view(client, first)
                if view["status"] != "playing":
                    assert view["status"] == "over" and "server_seed" in view, view["status"]
                    return
                seat = view["turn"]
                if seat not in self.tokens:
                    time.sleep(0.01)  # a bot's turn: the server's timer plays it; look again
                    continue
                if seat != first:
                    view = self.view(client, seat)
                if not view["your_turn"]:
                    continue  # the turn moved on between the two views
                move = choose(view)
                with self.progress:
                    self.progress.wait_for(
                        lambda: not self.hold or moves_made(self.others) < self.hold[0],
                        timeout=max(0.0, self.give_up - time.monotonic()),
                    )
                response, url = self.call(
                    client, "POST", f"/games/{self.game_id}/moves", self.tokens[seat], json={"seq": view["seq"], **move}
                )
                if response.status_code == 200:
                    receipt = response.json()["receipt"]
                    assert receipt["seq"] == view["seq"]
                    with self.progress:
                        self.receipts.append(receipt)
                        self.moves.append((receipt, {"seat": seat, **move}, url))
                        self.progress.notify_all()
                else:
                    # Stale (another action came first), or cut off by a kill: look again. Anything
                    # else is a bug: the move came from the view's legal moves.
                    assert response.status_code in (409, 599), f"{response.status_code}: {response.text}"


def open_tables(
    url: str,
    tables: int,
    progress: threading.Condition,
    give_up: float,
    seats: int = 4,
    humans: int = 2,
    options: dict[str, int] = SHORT_MATCH,
) -> list[Player]:
    """``tables`` tables of ``humans`` human seats then bots, every client seed committed and revealed."""
    players = []
    with local_client() as client:
        for t in range(tables):
            body = {
                "options": options,
                "seats": [{"name": f"T{t} seat {s}", "bot": s >= humans} for s in range(seats)],
                "turn_seconds": 600,  # no human runs out of time while its server is down
            }
            response = client.post(f"{url}/games", json=body, timeout=30)
            assert response.status_code == 201, response.text
            game = response.json()
            tokens = {s["seat"]: s["join_token"] for s in game["seats"] if "join_token" in s}
            player = Player([url], game, tokens, progress, give_up)
            player.join(client, {seat: f"table {t} seat {seat}" for seat in tokens})
            players.append(player)
    hold: list[int] = []
    for player in players:
        player.hold, player.others = hold, players
    return players


def moves_made(players: list[Player]) -> int:
    return sum(len(player.moves) for player in players)


def wait_for(progress: threading.Condition, done: Callable[[], bool], give_up: float, what: str) -> None:
    with progress:
        assert progress.wait_for(done, timeout=max(0.0, give_up - time.monotonic())), f"no {what} in time"


def check_records(url: str, players: list[Player], tmp_path: Path) -> list[list[dict[str, Any]]]:
    """Every table's record: whole, in order, holding every receipt's line, verified three ways."""
    key = http("GET", f"{url}/.well-known/fairdeal-key").json()["key"]
    records = []
    receipt_lines = []
    paths = []
    for player in players:
        game_id = player.game_id
        text = http("GET", f"{url}/games/{game_id}/record", timeout=30).text
        lines = [json.loads(line) for line in text.splitlines()]
        # One record: seq 0, 1, 2, ... with no gap, no repeat, no fork.
        assert [line["seq"] for line in lines] == list(range(len(lines)))
        assert lines[-1]["type"] == "reveal" and lines[-2]["type"] == "match-end"
        # Every receipt the server gave is its line, at its seq: signed by the server, same hash.
        for receipt in player.receipts:
            assert receipt["game_id"] == game_id
            assert verify_head(key, game_id, receipt["seq"], receipt["hash"], receipt["sig"])
            assert line_hash(lines[receipt["seq"]]) == receipt["hash"]
        # ... and the move it answered, exactly as sent.
        for receipt, move, _ in player.moves:
            line = lines[receipt["seq"]]
            assert line["type"] == "move" and "auto" not in line
            assert {k: line[k] for k in ("seat", "move", "card", "suit") if k in line} == move
        assert len({receipt["seq"] for receipt in player.receipts}) == len(player.receipts)
        report = verify(text, key=key)
        assert report.verified, report.error
        assert [check.status for check in check_receipts(report, player.receipts)] == ["ok"] * len(player.receipts)
        answer = http("GET", f"{url}/games/{game_id}/verify", timeout=60).json()
        assert answer["verified"] is True and answer["game_id"] == game_id
        path = tmp_path / f"{game_id}.jsonl"
        path.write_text(text, encoding="utf-8")
        paths.append(str(path))
        receipt_lines += [json.dumps(receipt) for receipt in player.receipts]
        records.append(lines)
    receipts_path = tmp_path / "receipts.jsonl"
    receipts_path.write_text("\n".join(receipt_lines) + "\n", encoding="utf-8")
    done = subprocess.run(
        [FAIRDEAL_VERIFY, "--key", key, "--receipts", str(receipts_path), "--json", *paths],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    reports = [json.loads(line) for line in done.stdout.splitlines()]
    assert [r["verified"] for r in reports] == [True] * len(players)
    assert sum(len(r["receipts"]) for r in reports) == len(receipt_lines)
    assert {c["status"] for r in reports for c in r["receipts"]} == {"ok"}
    # Every game's start and end are in the transparency log, proved against the server's checkpoint.
    logged = subprocess.run(
        [FAIRDEAL_VERIFY, "--log", url, "--json", *paths], capture_output=True, text=True, timeout=120
    )
    assert logged.returncode == 0, logged.stdout + logged.stderr
    assert [json.loads(line)["log"]["entries"][-1]["type"] for line in logged.stdout.splitlines()] == ["end"] * len(
        players
    )
    return records


def checkpoint(url: str) -> Checkpoint:
    """The server's current checkpoint, its signature checked with the server's key."""
    key = http("GET", f"{url}/.well-known/fairdeal-key").json()["key"]
    return verify_checkpoint(http("GET", f"{url}/log/checkpoint", timeout=30).text, key)


def check_consistent(url: str, old: Checkpoint) -> Checkpoint:
    """The server's checkpoint now, proved an append-only extension of ``old`` (RFC 9162 consistency)."""
    new = checkpoint(url)
    proof = http("GET", f"{url}/log/proof/consistency", params={"first": old.size, "second": new.size}).json()
    verify_consistency(old.size, new.size, old.root, new.root, [bytes.fromhex(h) for h in proof["proof"]])
    return new


# -- kill -9 ----------------------------------------------------------------------------------------


def test_a_server_killed_twice_mid_game_loses_no_receipted_move_and_every_game_finishes(servers, tmp_path):
    server = servers().start()
    progress = threading.Condition()
    give_up = time.monotonic() + GAME_SECONDS
    players = open_tables(server.url, 4, progress, give_up, options=LONGER_MATCH)
    kills = []
    seen = [checkpoint(server.url)]  # the four tables' start entries
    assert seen[0].size == 4
    with ThreadPoolExecutor(len(players)) as pool:
        games = [pool.submit(player.play) for player in players]
        hold = players[0].hold
        for kill_after in (12, 45):  # two different points: early in the first hand, and later on
            with progress:
                hold[:] = [kill_after]  # the players stop there (a move already sent may still land)
                progress.notify_all()
            wait_for(
                progress,
                lambda: moves_made(players) >= kill_after or all(g.done() for g in games),
                give_up,
                f"{kill_after} moves",
            )
            kills.append(moves_made(players))
            seen.append(checkpoint(server.url))
            with progress:
                hold.clear()  # the players go on, and are cut off:
                progress.notify_all()
            server.kill()  # in the middle of the tables' requests and the timer's bot moves
            server.start()
            # The restarted server rebuilt the tree from the store: it extends every checkpoint it signed before.
            seen.append(check_consistent(server.url, seen[-1]))
        for game in games:
            game.result()  # re-raises what went wrong in a player
    assert server.starts == 3
    assert kills[0] < kills[1] < moves_made(players), kills  # both kills came while the games were going on
    final = check_consistent(server.url, seen[0])
    assert final.size == 8  # a start and an end for each table
    records = check_records(server.url, players, tmp_path)
    # A record whose end is not the one in the log (a line changed, the chain re-signed with the
    # server's own key): fairdeal-verify --log names the end entry's head; a saved checkpoint works too.
    signer = Signer.load_or_create(tmp_path / "data" / "server-key.pem")
    lines = [dict(line) for line in records[0]]
    lines[1]["note"] = "rewritten"
    forged = tmp_path / "forged.jsonl"
    forged.write_text("".join(canonical(line).decode() + "\n" for line in resign(lines, signer)), encoding="utf-8")
    saved = tmp_path / "checkpoint.txt"
    saved.write_text(http("GET", f"{server.url}/log/checkpoint").text, encoding="utf-8")
    done = subprocess.run(
        [FAIRDEAL_VERIFY, "--log", str(saved), "--log-server", server.url, str(forged)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1 and "LOG NOT VERIFIED: end entry" in done.stdout and "head is" in done.stdout, (
        done.stdout
    )
    # The bots played by the timer all through, before and after each restart.
    assert all(any(line.get("seat") in (2, 3) for line in record if line["type"] == "move") for record in records)
    assert 500 not in server.statuses()


# -- racing submissions ------------------------------------------------------------------------------


def race(
    urls: list[str], game_id: str, token: str, bodies: list[dict[str, Any]]
) -> list[tuple[int, dict[str, Any], dict[str, Any]]]:
    """Send every body at once (one thread and connection each, released together), to ``urls`` in turn;
    (status, body, answer) for each."""
    barrier = threading.Barrier(len(bodies))
    # One client (thread-safe, and costly to make) with a connection for every thread.
    limits = httpx.Limits(max_connections=len(bodies), max_keepalive_connections=len(bodies))

    def submit(client: httpx.Client, i: int) -> tuple[int, dict[str, Any], dict[str, Any]]:
        url = urls[i % len(urls)]
        barrier.wait(timeout=60)
        response = client.post(
            f"{url}/games/{game_id}/moves", json=bodies[i], headers={"Authorization": f"Bearer {token}"}
        )
        return response.status_code, bodies[i], response.json()

    with local_client(timeout=60, limits=limits) as client, ThreadPoolExecutor(len(bodies)) as pool:
        return list(pool.map(lambda i: submit(client, i), range(len(bodies))))


def wait_for_turn(player: Player) -> dict[str, Any]:
    """The view of the first human seat to have the turn (the bots' moves come from the server's timer)."""
    with local_client() as client:
        while True:
            for seat in player.tokens:
                view = player.view(client, seat)
                if view["your_turn"] and view["legal_moves"]:
                    return view
            time.sleep(0.01)


def test_fifty_concurrent_submissions_of_a_move_are_one_200_and_forty_nine_409(servers, tmp_path):
    server = servers().start()
    progress = threading.Condition()
    [player] = open_tables(server.url, 1, progress, time.monotonic() + GAME_SECONDS, seats=2, humans=1)
    game_id, token = player.game_id, player.tokens[0]
    raced = []
    for variant in ("the same move", "every legal move"):
        view = wait_for_turn(player)
        if variant == "the same move":
            bodies = [{"seq": view["seq"], **choose(view)}] * 50
        else:
            bodies = [{"seq": view["seq"], **view["legal_moves"][i % len(view["legal_moves"])]} for i in range(50)]
        results = race([server.url], game_id, token, bodies)
        statuses = sorted(status for status, _, _ in results)
        assert statuses == [200] + [409] * 49, statuses
        [(_, body, answer)] = [result for result in results if result[0] == 200]
        assert all("fetch the view" in answer["detail"] for status, _, answer in results if status == 409)
        player.receipts.append(answer["receipt"])
        player.moves.append(
            (answer["receipt"], {"seat": 0, **{k: v for k, v in body.items() if k != "seq"}}, server.url)
        )
        raced.append(view["seq"])
    player.play()  # to the end, so that the record verifies
    [record] = check_records(server.url, [player], tmp_path)
    for seq in raced:
        assert sum(1 for line in record if line["seq"] == seq) == 1
    assert 500 not in server.statuses()


# -- two servers, one database ---------------------------------------------------------------------------


def read_stream(url: str, game_id: str, opened: threading.Event) -> list[dict[str, Any]]:
    """A spectator's server-sent events from seq 0 until the stream ends (after the reveal): the lines."""
    lines = []
    with local_client(timeout=httpx.Timeout(30, read=GAME_SECONDS)) as client:
        with client.stream(
            "GET", f"{url}/games/{game_id}/events", params={"from": 0, "wait": GAME_SECONDS}
        ) as response:
            assert response.status_code == 200
            opened.set()
            kind = None
            for text in response.iter_lines():
                if text.startswith("event: "):
                    kind = text[7:]
                elif text.startswith("data: ") and kind == "line":
                    lines.append(json.loads(text[6:]))
    return lines


def test_two_servers_on_one_database_serve_the_same_games_from_interleaved_requests(servers, tmp_path):
    one, two = servers("one").start(), servers("two").start()
    urls = [one.url, two.url]
    progress = threading.Condition()
    give_up = time.monotonic() + GAME_SECONDS
    # Tables opened on both servers at once: their start entries take one index each, in one tree.
    with ThreadPoolExecutor(6) as pool:
        answers = list(
            pool.map(
                lambda n: http(
                    "POST",
                    f"{urls[n % 2]}/games",
                    timeout=30,
                    json={"seats": [{"name": "A"}, {"name": "B", "bot": True}], "host_id": f"host{n}"},
                ),
                range(12),
            )
        )
    assert [answer.status_code for answer in answers] == [201] * 12
    opened = [answer.json() for answer in answers]
    tree = [checkpoint(url) for url in urls]
    assert tree[0] == tree[1] and tree[0].size == 12
    assert sorted(made["log"]["index"] for made in opened) == list(range(12))
    players = open_tables(one.url, 3, progress, give_up)
    for player in players:
        player.urls = urls  # from now on every request of every player alternates between the two
    # A race between the processes: twenty submissions of one move, half to each.
    first = players[0]
    view = wait_for_turn(first)
    seat = view["seat"]
    results = race(urls, first.game_id, first.tokens[seat], [{"seq": view["seq"], **choose(view)}] * 20)
    assert sorted(status for status, _, _ in results) == [200] + [409] * 19
    [(_, body, answer)] = [result for result in results if result[0] == 200]
    first.receipts.append(answer["receipt"])
    first.moves.append((answer["receipt"], {"seat": seat, **{k: v for k, v in body.items() if k != "seq"}}, "either"))
    # A spectator on server one, watching the first table whose moves go half through server two.
    opened = threading.Event()
    with ThreadPoolExecutor(len(players) + 1) as pool:
        stream = pool.submit(read_stream, one.url, first.game_id, opened)
        assert opened.wait(30)
        games = [pool.submit(player.play) for player in players]
        for game in games:
            game.result()
        streamed = stream.result(timeout=GAME_SECONDS)
    records = check_records(two.url, players, tmp_path)
    assert streamed == records[0]  # every line, in order, the reveal last
    through_two = {receipt["seq"] for receipt, _, url in first.moves if url == two.url}
    assert through_two and through_two <= {line["seq"] for line in streamed if line["type"] == "move"}
    for player in players:
        assert {url for _, _, url in player.moves} >= set(urls)
    # Both servers answer the same record, byte for byte, and one log: each extends the other's checkpoints.
    for player in players:
        assert (
            http("GET", f"{one.url}/games/{player.game_id}/record").text
            == http("GET", f"{two.url}/games/{player.game_id}/record").text
        )
    assert check_consistent(one.url, check_consistent(two.url, tree[0])).size == 12 + 3 * 2
    assert 500 not in one.statuses() + two.statuses()
