"""The ``fairdeal`` command: what a player types and what it prints."""

import json
import shlex
import subprocess
import sys

import pytest
from click.testing import CliRunner
from helpers import installed
from helpers import vectors

from fairdeal.cards import Card
from fairdeal.cards import Rank
from fairdeal.cards import pack
from fairdeal.cli import main
from fairdeal.fairness import commitment
from fairdeal.fairness import game_key
from fairdeal.fairness import shuffle

VECTORS = vectors("fairness.json")["shuffle"]
SEED = "00" * 32
# The console script pip installed next to this interpreter.


def run(*args):
    return CliRunner().invoke(main, list(args))


def derive_args(vector, *extra):
    args = ["derive", "--server-seed", vector["server_seed"], "--game-id", vector["game_id"]]
    for seed in vector["client_seeds"]:
        args += ["--client-seed", seed]
    args += ["--label", vector["label"]]
    if "packs" in vector:
        args += ["--packs", str(vector["packs"])]
    else:
        args += ["--cards", ",".join(vector["cards"])]
    return [*args, *extra]


def vector(name):
    return next(v for v in VECTORS if v["name"] == name)


def test_commitment():
    result = run("commitment", "--server-seed", SEED)
    assert result.exit_code == 0
    assert result.stdout == commitment(SEED) + "\n"
    assert result.stdout == "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925\n"


@pytest.mark.parametrize(
    "name",
    [
        "doc example: fairness.py docstring",
        "no client seeds",
        "two packs",
        "first restock",
        "CJK game id and emoji client seed",
        "short list, deal label",
        "draw for the first dealer",
    ],
)
def test_derive_prints_the_vector_order(name):
    v = vector(name)
    result = run(*derive_args(v))
    assert result.exit_code == 0, result.output
    assert result.stdout == " ".join(v["order"]) + "\n"
    result = run(*derive_args(v, "--json"))
    assert result.exit_code == 0, result.output
    assert result.stdout.count("\n") == 1
    assert json.loads(result.stdout) == {"commitment": v["commitment"], "label": v["label"], "order": v["order"]}


def test_derive_defaults_to_one_pack_and_matches_the_library():
    result = run(
        "derive",
        "--server-seed",
        SEED,
        "--game-id",
        "demo",
        "--client-seed",
        "alice",
        "--client-seed",
        "",
        "--label",
        "hand/1/deal",
    )
    key = game_key(SEED, "demo", ["alice", ""])
    assert result.stdout.split() == [c.code for c in shuffle(key, "hand/1/deal", pack())]


def test_derive_cards_accepts_10_and_lower_case_and_prints_codes():
    v = vector("short list, deal label")  # AS KH 8D 8C TD
    result = run(*derive_args(v)[:-1], "as, KH 8d,8C,10d")
    assert result.exit_code == 0, result.output
    assert result.stdout.split() == v["order"]


def test_seat_count_is_the_number_of_client_seeds():
    one = run("derive", "--server-seed", SEED, "--game-id", "demo", "--client-seed", "", "--label", "x")
    two = run(
        "derive", "--server-seed", SEED, "--game-id", "demo", "--client-seed", "", "--client-seed", "", "--label", "x"
    )
    assert one.stdout != two.stdout


BAD = [
    (["commitment", "--server-seed", "zz" * 32], "hex digits"),
    (["commitment", "--server-seed", "0" * 63], "64 hex digits"),
    (["derive", "--server-seed", "ab" * 31, "--game-id", "g", "--label", "x"], "64 hex digits"),
    (["derive", "--server-seed", SEED, "--game-id", "g", "--label", "Hand/1"], "a label is"),
    (["derive", "--server-seed", SEED, "--game-id", "g", "--label", "x" * 65], "a label is"),
    (
        ["derive", "--server-seed", SEED, "--game-id", "g", "--label", "x", "--client-seed", "a" * 129],
        "128 UTF-8 bytes",
    ),
    (["derive", "--server-seed", SEED, "--game-id", "", "--label", "x"], "game id"),
    (["derive", "--server-seed", SEED, "--game-id", "a\nb", "--label", "x"], "control characters"),
    (["derive", "--server-seed", SEED, "--game-id", "g", "--label", "x", "--cards", "AS,1X"], "'1X'"),
    (["derive", "--server-seed", SEED, "--game-id", "g", "--label", "x", "--cards", " , "], "no card"),
    (["derive", "--server-seed", SEED, "--game-id", "g", "--label", "x", "--packs", "0"], "number of packs"),
    (["derive", "--server-seed", SEED, "--game-id", "g", "--label", "x", "--packs", "-3"], "number of packs"),
    (["derive", "--server-seed", SEED, "--game-id", "g", "--label", "x", "--packs", "10000000"], "at most"),
    (["derive", "--server-seed", SEED, "--game-id", "g", "--label", "x", "--packs", "2", "--cards", "AS"], "not both"),
]


@pytest.mark.parametrize("args, message", BAD, ids=[" ".join(a[2:])[-40:] for a, _ in BAD])
def test_bad_input_is_one_error_line_and_exit_2(args, message):
    result = run(*args)
    assert result.exit_code == 2
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("Error: ")
    assert message in lines[0]
    assert "Traceback" not in result.output


@pytest.mark.parametrize(
    "args",
    [
        ["derive", "--game-id", "g", "--label", "x"],
        ["derive", "--server-seed", SEED, "--game-id", "g", "--label", "x", "--packs", "two"],
        ["derive", "--server-seed", SEED, "--game-id", "g", "--label", "x", "--shuffle"],
        ["nonsense"],
    ],
)
def test_usage_errors_exit_2_without_traceback(args):
    result = run(*args)
    assert result.exit_code == 2
    assert result.stderr.splitlines()[-1].startswith("Error: ")
    assert "Traceback" not in result.output


def test_a_misplaced_seed_is_not_echoed():
    secret = "6d939393cacfd829f1ff06302b3cf526e8dc9d8dce262ec5dc068d1f5cab1c9e"
    for args in (
        ["commitment", "--server-seed", SEED, secret],
        ["derive", "--server-seed", SEED, "--game-id", "g", "--label", "x", secret],
        ["derive", "--server-seed", SEED, "--game-id", "g", "--label", "x", "--cards", secret],
        ["derive", "--server-seed", secret[:-1], "--game-id", "g", "--label", "x"],
    ):
        result = run(*args)
        assert result.exit_code == 2
        assert secret[:16] not in result.output


def test_installed_console_script():
    v = vector("two packs")
    done = installed("fairdeal", *derive_args(v, "--json"))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["order"] == v["order"]

    bad = installed("fairdeal", "derive", "--server-seed", "xy" * 32, "--game-id", "g", "--label", "x")
    assert bad.returncode == 2
    assert bad.stdout == ""
    assert bad.stderr == "Error: the server seed must be hex digits 0-9a-f only\n"


def test_cli_imports_without_the_service_dependencies():
    code = (
        "import sys\n"
        "for name in ('fastapi', 'uvicorn', 'starlette', 'pydantic'):\n"
        "    sys.modules[name] = None  # any import of them now fails\n"
        "import fairdeal.cards, fairdeal.fairness, fairdeal.cli\n"
        "fairdeal.cli.main(['commitment', '--server-seed', '00' * 32])\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout == commitment(SEED) + "\n"


def _starter(stock):
    """Crazy Eights: an eight turned as starter goes into the middle of the stock."""
    stock = list(stock)
    card = stock.pop(0)
    while card.rank is Rank.EIGHT:
        stock.insert(len(stock) // 2, card)
        card = stock.pop(0)
    return card, stock


def test_demo_prints_a_derive_command_that_reproduces_its_deal():
    result = run("demo")
    assert result.exit_code == 0, result.output
    out = result.stdout
    command = next(line.strip() for line in out.splitlines() if line.strip().startswith("fairdeal derive "))
    args = shlex.split(command)
    assert args.count("--client-seed") == 4

    derived = run(*args[1:], "--json")
    assert derived.exit_code == 0, derived.output
    data = json.loads(derived.stdout)
    assert data["label"] == "hand/1/deal"
    # The commitment shown first is the one the revealed seed gives.
    assert data["commitment"] in out.split("3. Hand 1")[0]

    order = [Card.parse(code) for code in data["order"]]
    hands = [[] for _ in range(4)]
    for k in range(20):
        hands[(1 + k) % 4].append(order[k])  # one at a time, starting left of the dealer (seat 0)
    for seat, hand in enumerate(hands):
        assert f"seat {seat} (P{seat}): {' '.join(card.display for card in hand)}\n" in out
    starter, stock = _starter(order[20:])
    assert f"hand 1, dealer seat 0 (P0), starter {starter.display}\n" in out


def test_demo_is_fresh_each_time():
    first, second = run("demo").stdout, run("demo").stdout
    assert first != second


def test_help_lists_the_commands():
    result = run("--help")
    assert result.exit_code == 0
    for command in ("commitment", "derive", "demo"):
        assert command in result.stdout
