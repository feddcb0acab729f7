"""``fairdeal simulate``: bot games through a real table, written as records anyone can check."""

import hmac
import json
import re
from datetime import datetime
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import installed

from fairdeal.bots import HeuristicBot
from fairdeal.cli import main
from fairdeal.fairness import client_commitment
from fairdeal.fairness import commitment
from fairdeal.fairness import game_key
from fairdeal.fairness import shuffle
from fairdeal.match import Match
from fairdeal.record import Signer
from fairdeal.record import check_chain
from fairdeal.record import line_hash
from fairdeal.record import parse_record
from fairdeal.record import verify_head
from fairdeal.rules import Move
from fairdeal.rules import get
from fairdeal.rules.crazy_eights import CrazyEightsView
from fairdeal.simulate import SEEDED_CREATED
from fairdeal.simulate import SimulationError
from fairdeal.simulate import play
from fairdeal.simulate import simulate
from fairdeal.table import Seat
from fairdeal.table import Table

SEAT_ACTIONS = ("client-commit", "client-reveal", "move")


def files(directory):
    return {p.name: p.read_bytes() for p in sorted(Path(directory).iterdir())}


def lines_of(path):
    return parse_record(Path(path).read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def seeded(tmp_path_factory):
    """One seeded run with receipts, mixed bots, 3 players, 3 games (shared by the checks below)."""
    out = tmp_path_factory.mktemp("seeded")
    games = []
    paths = simulate("crazy-eights", 3, 3, out, seed="t1", receipts=True, bot="mixed", progress=games.append)
    return out, paths, games


# -- reproducibility ---------------------------------------------------------


def test_a_seeded_run_is_byte_identical_when_repeated(seeded, tmp_path):
    out, paths, _ = seeded
    again = simulate("crazy-eights", 3, 3, tmp_path, seed="t1", receipts=True, bot="mixed")
    assert [p.name for p in again] == [p.name for p in paths] == ["sim-t1-1.jsonl", "sim-t1-2.jsonl", "sim-t1-3.jsonl"]
    first, second = files(out), files(tmp_path)
    assert len(first) == 3 + 3 * 3  # a record and three receipt files per game
    assert first == second


def test_another_seed_gives_other_games(tmp_path):
    a = simulate("crazy-eights", 2, 1, tmp_path / "a", seed="s1")[0]
    b = simulate("crazy-eights", 2, 1, tmp_path / "b", seed="s2")[0]
    header_a, header_b = lines_of(a)[0], lines_of(b)[0]
    assert header_a["commitment"] != header_b["commitment"]
    assert header_a["server_key"] != header_b["server_key"]


def test_seeded_seeds_follow_the_documented_derivation(seeded):
    _, paths, _ = seeded
    for n, path in enumerate(paths, 1):
        lines = lines_of(path)
        server_seed = hmac.digest(b"t1", f"server/{n}".encode(), "sha256").hex()
        assert lines[-1]["server_seed"] == server_seed
        seeds = [line["seed"] for line in lines if line["type"] == "client-reveal"]
        assert seeds == [hmac.digest(b"t1", f"client/{n}/{s}".encode(), "sha256")[:16].hex() for s in range(3)]
        key = Signer.from_seed(hmac.digest(b"t1", b"signer", "sha256")).public_hex
        assert lines[0]["server_key"] == key
        assert lines[0]["created"] == SEEDED_CREATED


def test_an_unseeded_run_is_fresh_every_time(tmp_path):
    a = simulate("crazy-eights", 2, 2, tmp_path / "a")
    b = simulate("crazy-eights", 2, 1, tmp_path / "b")
    headers = [lines_of(p)[0] for p in (*a, *b)]
    assert len({h["game_id"] for h in headers}) == 3
    assert len({h["commitment"] for h in headers}) == 3
    # One signing key per run, as one server has one key.
    assert headers[0]["server_key"] == headers[1]["server_key"] != headers[2]["server_key"]
    for header, path in zip(headers, (*a, *b)):
        assert re.fullmatch(r"sim-[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}", header["game_id"])
        assert path.name == header["game_id"] + ".jsonl"
        assert header["created"] != SEEDED_CREATED
        assert datetime.strptime(header["created"], "%Y-%m-%dT%H:%M:%SZ").year >= 2024
        check_chain(lines_of(path))


# -- the records -------------------------------------------------------------


def test_records_parse_and_their_chain_and_signatures_hold(seeded):
    _, paths, _ = seeded
    for path in paths:
        check_chain(lines_of(path))


def test_every_seat_is_a_player_who_commits_then_reveals_a_client_seed(seeded):
    _, paths, _ = seeded
    for n, path in enumerate(paths, 1):
        lines = lines_of(path)
        header = lines[0]
        assert header["game_id"] == f"sim-t1-{n}"
        assert header["format"] == "fairdeal-record/2" and header["protocol"] == "fairdeal/v1"
        assert {line["at"] for line in lines} == {"2000-01-01T00:00:00.000Z"}  # SEEDED_CREATED: reproducible
        assert header["rules"] == "crazy-eights"
        assert [seat["bot"] for seat in header["seats"]] == [False] * 3
        kinds = [line["type"] for line in lines[1:8]]
        assert kinds == ["client-commit"] * 3 + ["client-reveal"] * 3 + ["start"]
        commits, reveals, start = lines[1:4], lines[4:7], lines[7]
        assert [line["seat"] for line in commits] == [line["seat"] for line in reveals] == [0, 1, 2]
        for commit, reveal in zip(commits, reveals):
            assert client_commitment(reveal["seed"]) == commit["commitment"]
        assert start["client_seeds"] == [line["seed"] for line in reveals]
        assert all(start["client_seeds"]) and start["bots"] == []


def test_every_record_ends_with_a_signed_reveal_of_the_committed_seed(seeded):
    _, paths, _ = seeded
    for path in paths:
        lines = lines_of(path)
        last = lines[-1]
        assert last["type"] == "reveal"
        assert verify_head(lines[0]["server_key"], lines[0]["game_id"], last["seq"], line_hash(last), last["sig"])
        assert commitment(last["server_seed"]) == lines[0]["commitment"]
        assert lines[-2]["type"] == "match-end"


def test_records_replay_through_the_match_line_for_line(seeded):
    """What a verifier does: derive every deal from the revealed seeds, re-apply every move."""
    _, paths, games = seeded
    for path, game in zip(paths, games):
        lines = lines_of(path)
        header, start = lines[0], next(line for line in lines if line["type"] == "start")
        key = game_key(lines[-1]["server_seed"], header["game_id"], start["client_seeds"])
        match = Match(
            get(header["rules"], header["options"]),
            len(header["seats"]),
            lambda label, cards, key=key: shuffle(key, label, cards),
        )
        replayed = [*match.start()]
        body = [
            line
            for line in lines
            if line["type"] not in ("header", "client-commit", "client-reveal", "start", "reveal")
        ]
        for line in body:
            if line["type"] == "move":
                replayed.extend(match.apply(line["seat"], Move.from_json(line), auto=line.get("auto", False)))
        strip = [{k: v for k, v in line.items() if k not in ("seq", "prev", "sig", "at")} for line in body]
        assert replayed == strip
        assert match.over and match.standings == game.standings
        assert game.moves == sum(1 for line in lines if line["type"] == "move")
        assert game.hands == sum(1 for line in lines if line["type"] == "hand-end")


def test_mixed_bots_alternate_round_the_table_and_from_game_to_game(seeded):
    _, paths, _ = seeded
    names = [[seat["name"] for seat in lines_of(p)[0]["seats"]] for p in paths]
    assert names[0] == ["seat 0 (random)", "seat 1 (heuristic)", "seat 2 (random)"]
    assert names[1] == ["seat 0 (heuristic)", "seat 1 (random)", "seat 2 (heuristic)"]


# -- receipts ----------------------------------------------------------------


def test_receipts_are_signed_and_match_the_record_line_for_line(seeded):
    out, paths, games = seeded
    for path, game in zip(paths, games):
        lines = lines_of(path)
        header = lines[0]
        assert [p.name for p in game.receipt_paths] == [f"{header['game_id']}.seat{s}.receipts.jsonl" for s in range(3)]
        for seat in range(3):
            receipt_path = out / f"{header['game_id']}.seat{seat}.receipts.jsonl"
            receipts = [json.loads(raw) for raw in receipt_path.read_text(encoding="utf-8").splitlines()]
            # A receipt for every action of this seat, and for nothing else.
            own = [line["seq"] for line in lines if line["type"] in SEAT_ACTIONS and line.get("seat") == seat]
            assert [r["seq"] for r in receipts] == own
            for receipt in receipts:
                assert receipt["game_id"] == header["game_id"]
                assert receipt["hash"] == line_hash(lines[receipt["seq"]])
                assert verify_head(
                    header["server_key"], receipt["game_id"], receipt["seq"], receipt["hash"], receipt["sig"]
                )
            assert lines[receipts[0]["seq"]]["type"] == "client-commit"
            assert lines[receipts[1]["seq"]]["type"] == "client-reveal"


def test_no_receipt_files_unless_asked(tmp_path):
    simulate("crazy-eights", 2, 1, tmp_path, seed="r")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["sim-r-1.jsonl"]


# -- bots see views ----------------------------------------------------------


class SpyBot(HeuristicBot):
    """A heuristic bot that checks what it is handed against the table it cannot see."""

    def __init__(self, seat, table):
        self.seat, self._table, self.calls = seat, table, 0

    def choose(self, rules, view):
        assert isinstance(view, CrazyEightsView)
        assert view.seat == self.seat == view.turn
        state = self._table.match.state
        assert view.hand == state.hands[self.seat]
        assert view.hand_sizes == tuple(len(hand) for hand in state.hands)
        others = {card for s, hand in enumerate(state.hands) if s != self.seat for card in hand}
        assert not others & set(view.hand)
        self.calls += 1
        return super().choose(rules, view)


def test_play_hands_each_bot_only_its_own_seats_view():
    table = Table.new(
        "spy",
        get("crazy-eights"),
        [Seat(f"p{s}") for s in range(4)],
        Signer.generate(),
        created=SEEDED_CREATED,
        server_seed="11" * 32,
    )
    for s in range(4):
        table.commit(s, client_commitment(f"c{s}"))
    for s in range(4):
        table.reveal_client_seed(s, f"c{s}")
    bots = [SpyBot(s, table) for s in range(4)]
    receipts = play(table, bots)
    assert table.match.over
    assert [len(r) for r in receipts] == [bot.calls for bot in bots]
    assert all(bot.calls for bot in bots)


# -- limits and bad input ----------------------------------------------------


def test_a_runaway_game_stops_with_a_clear_error(tmp_path):
    with pytest.raises(SimulationError, match=r"game sim-cap-1 did not finish within 5 moves") as caught:
        simulate("crazy-eights", 2, 1, tmp_path, seed="cap", max_moves=5)
    assert caught.value.game_id == "sim-cap-1" and caught.value.hand == 1
    assert not list(tmp_path.iterdir())  # nothing half-written


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"players": 1}, "2 to 6 players, not 1"),
        ({"players": 7}, "2 to 6 players, not 7"),
        ({"games": 0}, "at least 1"),
        ({"rules_name": "poker"}, "unknown rules 'poker'"),
        ({"bot": "clever"}, "unknown bot 'clever'"),
        ({"seed": "../etc"}, "a seed is"),
    ],
)
def test_bad_arguments_raise_value_error(tmp_path, kwargs, message):
    args = {"rules_name": "crazy-eights", "players": 2, "games": 1, "out_dir": tmp_path, **kwargs}
    with pytest.raises(ValueError, match=re.escape(message)):
        simulate(**args)


def test_options_change_the_game(tmp_path):
    path = simulate("crazy-eights", 2, 1, tmp_path, seed="o", options={"target": 20})[0]
    lines = lines_of(path)
    assert lines[0]["options"]["target"] == 20
    assert lines[-2]["type"] == "match-end" and lines[-2]["standings"][0]["total"] >= 20


# -- the command -------------------------------------------------------------


def test_command_writes_records_and_prints_one_summary_line(tmp_path):
    out = tmp_path / "sims"
    result = CliRunner().invoke(
        main,
        [
            "simulate",
            "--rules",
            "crazy-eights",
            "--players",
            "3",
            "--games",
            "2",
            "--out",
            str(out),
            "--seed",
            "c1",
            "--receipts",
            "--bot",
            "mixed",
        ],
    )
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    moves = sum(
        1 for name in ("sim-c1-1", "sim-c1-2") for line in lines_of(out / f"{name}.jsonl") if line["type"] == "move"
    )
    assert result.stdout == f"simulated 2 games of crazy-eights, {moves} moves: records and 6 receipt files in {out}\n"
    library = simulate("crazy-eights", 3, 2, tmp_path / "lib", seed="c1", receipts=True, bot="mixed")
    assert files(out) == files(library[0].parent)


@pytest.mark.parametrize(
    "args, message",
    [
        (["--players", "7", "--games", "1"], "Error: Crazy Eights is for 2 to 6 players, not 7"),
        (["--players", "1", "--games", "1"], "Error: Crazy Eights is for 2 to 6 players, not 1"),
        (["--players", "2", "--games", "0"], "Error: games must be a whole number of at least 1, not 0"),
        (
            ["--players", "2", "--games", "1", "--rules", "hearts"],
            "Error: unknown rules 'hearts'; known: commit, crazy-eights",
        ),
        (["--players", "2", "--games", "1", "--seed", "a b"], "Error: a seed is 1 to 64 letters"),
    ],
)
def test_command_bad_input_is_one_line_on_stderr_and_exit_2(tmp_path, args, message):
    result = CliRunner().invoke(main, ["simulate", "--out", str(tmp_path / "out"), *args])
    assert result.exit_code == 2
    assert result.stdout == ""
    assert len(result.stderr.splitlines()) == 1 and result.stderr.startswith(message)
    assert not (tmp_path / "out").exists()


def test_command_usage_errors_exit_2(tmp_path):
    for args in (["--players", "two", "--games", "1"], ["--players", "2", "--games", "1", "--bot", "clever"]):
        result = CliRunner().invoke(main, ["simulate", "--out", str(tmp_path), *args])
        assert result.exit_code == 2
        assert "Traceback" not in result.output


def test_command_reports_an_output_directory_it_cannot_make(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    result = CliRunner().invoke(main, ["simulate", "--players", "2", "--games", "1", "--out", str(blocker / "sub")])
    assert result.exit_code == 1
    assert result.stderr.startswith(f"Error: cannot write the records to {blocker / 'sub'}: ")
    assert len(result.stderr.splitlines()) == 1


def test_installed_script(tmp_path):
    out = tmp_path / "run"
    done = installed("fairdeal", "simulate", "--players", "2", "--games", "2", "--out", str(out), "--seed", "p")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("simulated 2 games of crazy-eights, ") and done.stdout.count("\n") == 1
    library = simulate("crazy-eights", 2, 2, tmp_path / "lib", seed="p")
    assert files(out) == files(library[0].parent)

    bad = installed("fairdeal", "simulate", "--players", "9", "--games", "1", "--out", str(tmp_path / "bad"))
    assert bad.returncode == 2
    assert bad.stdout == ""
    assert bad.stderr == "Error: Crazy Eights is for 2 to 6 players, not 9\n"
