"""``fairdeal client-commitment SEED``: what a curl user sends to commit to a client seed."""

import pytest
from click.testing import CliRunner
from helpers import installed
from helpers import vectors

from fairdeal.cli import main
from fairdeal.fairness import Dealer

VECTORS = vectors("fairness.json")["shuffle"]

# Every non-empty client seed of the spec's vectors, with the commitment the independent generator gave it.
SEEDS = sorted(
    {
        (seed, fingerprint)
        for v in VECTORS
        for seed, fingerprint in zip(v["client_seeds"], v["client_commitments"])
        if seed
    }
)


def test_the_vectors_cover_several_seeds():
    assert len(SEEDS) >= 5


@pytest.mark.parametrize(("seed", "expected"), SEEDS)
def test_prints_the_spec_vectors_commitment(seed, expected):
    result = CliRunner().invoke(main, ["client-commitment", seed])
    assert result.exit_code == 0
    assert result.output == expected + "\n"


def test_the_printed_commitment_is_accepted_when_the_seed_is_revealed():
    dealer = Dealer.new("g1", 1)
    printed = CliRunner().invoke(main, ["client-commitment", "my lucky seed"]).output.strip()
    dealer.commit(0, printed)
    dealer.reveal_client_seed(0, "my lucky seed")
    assert dealer.seat_seeds() == ["my lucky seed"]


@pytest.mark.parametrize(
    ("seed", "message"),
    [
        ("x" * 129, "Error: a client seed is at most 128 UTF-8 bytes, this one is 129"),
        ("é" * 65, "Error: a client seed is at most 128 UTF-8 bytes, this one is 130"),
        ("", "Error: a client seed to commit to is not empty"),
    ],
)
def test_a_seed_the_protocol_refuses_is_a_one_line_error(seed, message):
    result = CliRunner().invoke(main, ["client-commitment", seed])
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [message]


def test_the_installed_command_and_its_help():
    done = installed("fairdeal", "client-commitment", "alice")
    assert done.returncode == 0 and done.stdout == "36e3a00adca4299076cc074780294b856a6d1610d74d9f0785206916183f01c5\n"
    helped = installed("fairdeal", "--help")
    assert helped.returncode == 0 and "client-commitment" in helped.stdout
