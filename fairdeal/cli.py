"""The ``fairdeal`` command: derive and check deals, and a demo of the protocol.

>>> from click.testing import CliRunner
>>> result = CliRunner().invoke(main, ["derive", "--server-seed", "00" * 32,
...     "--game-id", "demo", "--client-seed", "alice", "--client-seed", "",
...     "--label", "hand/1/deal", "--cards", "AS,KH,8D,8C,TD"])
>>> result.output
'AS 8D TD KH 8C\\n'

Each command is a subcommand of the :func:`main` group; input the protocol
refuses becomes a one-line ``Error: ...`` and exit code 2 through
:func:`~fairdeal.cli_input.user_input`, the one place that turns a :class:`ValueError` into a
usage error. This module needs only click and the protocol core, so the
command works where the service's dependencies are not installed.
"""

from __future__ import annotations

import json
import secrets
import shlex
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click

from fairdeal import __version__
from fairdeal.cards import codes
from fairdeal.cards import pack
from fairdeal.cards import parse_cards
from fairdeal.cli_input import InputError
from fairdeal.cli_input import redact
from fairdeal.cli_input import user_input
from fairdeal.cli_input import witness_options
from fairdeal.fairness import Dealer
from fairdeal.fairness import client_commitment
from fairdeal.fairness import commitment
from fairdeal.fairness import game_key
from fairdeal.fairness import shuffle
from fairdeal.rules import DEFAULT
from fairdeal.rules import SeatNames
from fairdeal.rules import catalogue_json
from fairdeal.rules import get as get_rules

__all__ = ["main", "InputError", "user_input"]

# Far more than any card game uses; it keeps a typo from filling the memory.
MAX_PACKS = 1000


class _Group(click.Group):
    """A click group whose usage errors never show a server seed."""

    def make_context(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        try:
            return super().make_context(*args, **kwargs)
        except click.UsageError as error:
            error.message = redact(error.message)  # type: ignore[misc]  # (click types it Final, yet shows it)
            raise

    def invoke(self, ctx: click.Context):  # type: ignore[no-untyped-def]
        try:
            return super().invoke(ctx)
        except click.UsageError as error:
            # Also the subcommands' own parsing errors, which happen in here.
            error.message = redact(error.message)  # type: ignore[misc]  # (click types it Final, yet shows it)
            raise


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="fairdeal")
def main() -> None:
    """fairdeal: provably-fair card dealing.

    Every card follows from a secret server seed, committed to before the
    game and revealed after it, and the players' client seeds. `fairdeal
    derive` re-derives any shuffle from them.
    """


@main.command("commitment")
@click.option("--server-seed", required=True, metavar="HEX", help="The server seed, 64 hex digits.")
def commitment_command(server_seed: str) -> None:
    """Print the commitment (SHA-256 of the 32 seed bytes) of a server seed."""
    with user_input():
        click.echo(commitment(server_seed))


@main.command("client-commitment")
@click.argument("seed")
def client_commitment_command(seed: str) -> None:
    """Print the commitment a seat sends for its client SEED (before it reveals the seed).

    It is SHA-256(lp("fairdeal/v1/client") || lp(SEED)), 64 hex digits: the
    "commitment" of POST /games/{id}/seats/{seat}/commit. A seed is 1 to 128
    UTF-8 bytes.

    \b
    Example:
      fairdeal client-commitment 'my lucky seed'
    """
    with user_input():
        if seed == "":
            # The protocol's empty seed belongs to a seat that gives none; it is never committed to.
            raise ValueError("a client seed to commit to is not empty")
        click.echo(client_commitment(seed))


@main.command("catalogue")
@click.option("--own", is_flag=True, help="fairdeal's own games only, as spec/games.json holds them (no plugin's).")
def catalogue_command(own: bool) -> None:
    """Print every installed game's declaration as JSON: what GET /rules serves (plugins
    included); with --own, fairdeal's own games, which spec/games.json holds."""
    click.echo(catalogue_json(own_only=own), nl=False)


@main.command("export-verifier")
@click.argument("directory", type=click.Path(file_okay=False, path_type=Path))
def export_verifier_command(directory: Path) -> None:
    """Write the verify page as a static folder DIRECTORY that any file server can host.

    The page, its scripts, the engine bundle (fairdeal's own verifier code) and
    Pyodide's core files, every URL relative: verifying a record there calls no
    API and sends the record nowhere. DIRECTORY must be new or empty.

    \b
    Example:
      fairdeal export-verifier audit/ && python -m http.server -d audit/ 8800
    """
    from fairdeal.web.engine import engine_bundle
    from fairdeal.web.export import export_verifier

    with user_input():
        files = export_verifier(directory)
    click.echo(f"wrote {len(files)} files to {directory}; engine bundle SHA-256 {engine_bundle().sha256}")


@main.command("derive")
@click.option("--server-seed", required=True, metavar="HEX", help="The revealed server seed, 64 hex digits.")
@click.option("--game-id", required=True, metavar="ID", help="The game id.")
@click.option(
    "--client-seed",
    "client_seeds",
    multiple=True,
    metavar="S",
    help="One per seat, in seat order (seat 0 first); give '' for a seat without one. "
    "The number of seats is the number of these options.",
)
@click.option(
    "--label", required=True, metavar="LABEL", help="What is shuffled: hand/1/deal, hand/1/restock/1, draw-for-deal ..."
)
@click.option(
    "--packs", type=int, default=None, metavar="N", help="Shuffle a game pack of N packs in card order (default 1)."
)
@click.option(
    "--cards",
    default=None,
    metavar="CODE,CODE,...",
    help="Shuffle exactly these cards, in this order (a restock's cards in card order).",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object: commitment, label, order.")
def derive_command(
    server_seed: str,
    game_id: str,
    client_seeds: Sequence[str],
    label: str,
    packs: int | None,
    cards: str | None,
    as_json: bool,
) -> None:
    """Print the order a label's shuffle gives, top of the stock first.

    \b
    Example:
      fairdeal derive --server-seed 00...00 --game-id demo \\
        --client-seed alice --client-seed '' --label hand/1/deal
    """
    with user_input():
        if packs is not None and cards is not None:
            raise ValueError("give --packs or --cards, not both")
        fingerprint = commitment(server_seed)
        key = game_key(server_seed, game_id, list(client_seeds))
        if cards is None:
            if packs is not None and packs > MAX_PACKS:
                raise ValueError(f"--packs is at most {MAX_PACKS}")
            deck = pack(1 if packs is None else packs)
        else:
            deck = parse_cards(cards)
            if not deck:
                raise ValueError("--cards names no card")
        order = codes(shuffle(key, label, deck))
    if as_json:
        click.echo(json.dumps({"commitment": fingerprint, "label": label, "order": order}))
    else:
        click.echo(" ".join(order))


@main.command("demo")
def demo_command() -> None:
    """Deal one 4-player hand of the default game fairly, then show how to check it."""
    rules, seats, label = get_rules(DEFAULT), 4, "hand/1/deal"
    game_id = f"demo-{secrets.token_hex(4)}"
    dealer = Dealer.new(game_id, seats)
    echo = click.echo

    echo(f"fairdeal demo: {rules.title}, game {game_id}, {seats} seats, dealer seat 0.\n")
    echo("1. The server picks a secret seed and publishes its commitment first:")
    echo(f"   {dealer.commitment}\n")

    echo("2. Every seat commits to a client seed; only then are the seeds revealed:")
    chosen = {seat: secrets.token_hex(8) for seat in range(seats)}
    for seat, seed in chosen.items():
        dealer.commit(seat, client_commitment(seed))
    for seat, seed in chosen.items():
        dealer.reveal_client_seed(seat, seed)
        echo(f"   seat {seat}: commits {dealer.client_commitments[seat][:16]}..., reveals {seed!r}")
    echo("   Every seed matches its commitment; the game key is now fixed.\n")

    # The game deals as its rules say, from the shuffle of label hand/1/deal (protocol step 11).
    state, _ = rules.deal(seats, 0, 1, dealer.shuffler)
    names = SeatNames(tuple(f"P{seat}" for seat in range(seats)))
    echo(f"3. Hand 1 (label {label}), dealt by the rules of {rules.title}, one card at a time from seat 1:")
    for line in rules.describe_deal(state, names):
        echo(f"   {line.strip()}")
    echo("")

    server_seed = dealer.reveal()
    echo("4. After the game the server reveals its seed; its SHA-256 is the commitment:")
    echo(f"   {server_seed}")
    assert commitment(server_seed) == dealer.commitment
    echo("   matches the commitment from step 1.\n")

    args = ["fairdeal", "derive", "--server-seed", server_seed, "--game-id", game_id]
    for seed in dealer.seat_seeds():
        args += ["--client-seed", seed]
    args += ["--label", label]
    echo("Check it yourself: this prints the shuffled pack, top first. Seat 1 got the")
    echo(f"1st card, seat 2 the 2nd, and so on round the table (spec/games/ says the rest of {rules.title}'s deal).")
    echo(f"   {shlex.join(args)}")


@main.command("audit")
@click.argument("url")
@click.option(
    "--key",
    default=None,
    metavar="HEX",
    help="The log's public key to pin (64 hex digits); else the one seen on first use, kept in the state file.",
)
@click.option(
    "--state",
    "state_path",
    default=None,
    type=click.Path(dir_okay=False, path_type=Path),
    help="The state file: the last checkpoint seen (default: under $XDG_CACHE_HOME or ~/.cache, fairdeal/audit/).",
)
@click.option("--no-state", is_flag=True, help="Remember nothing: no consistency with an earlier run.")
@click.option(
    "--stale-after",
    default="24h",
    metavar="DURATION",
    show_default=True,
    help="A game or session not ended this long after it started is reported (24h, 90m, 2d, 3600s).",
)
@click.option("--verify-records", is_flag=True, help="Also replay every ended record with the verifier (slow).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (spec/log.md, Auditing).")
@witness_options()
@click.option(
    "--tiles",
    is_flag=True,
    help="URL is the log's C2SP tlog-tiles prefix (https://host/log): read it by its tiles alone (needs --key the first time).",
)
@click.option(
    "--records",
    default=None,
    metavar="URL",
    help="With --tiles: the service's base URL, to check the ended records against the log.",
)
@click.option(
    "--now", default=None, hidden=True, help="The time to measure from (tests): YYYY-MM-DDTHH:MM:SSZ or epoch seconds."
)
def audit_command(
    url: str,
    key: str | None,
    state_path: Path | None,
    no_state: bool,
    stale_after: str,
    verify_records: bool,
    as_json: bool,
    witnesses: Sequence[str],
    quorum: int | None,
    tiles: bool,
    records: str | None,
    now: str | None,
) -> None:
    """Audit the transparency log of the fairdeal service at URL (its base URL).

    Checks the signed checkpoint, rebuilds the tree from every entry, checks it
    is consistent with the checkpoint seen last time, and reports every game or
    session started and never ended past --stale-after, the share abandoned per
    rules and per host, and every record whose last line is not the head its end
    entry names. With --witness, the checkpoint must carry the cosignatures of
    --quorum of those witnesses (all by default), or it is refused. Exit code 0:
    nothing wrong; 1: problems found; 2: bad input or the server cannot be reached.

    \b
    Example:
      fairdeal audit https://cards.example.com --stale-after 48h \\
        --witness 'w1.example/w+1a2b3c4d+BA...' --witness 'w2.example/w+...' --quorum 2
      fairdeal audit https://cards.example.com/log --tiles --key HEX
    """
    import sys

    from fairdeal.audit import audit
    from fairdeal.audit import default_state_path
    from fairdeal.audit import parse_duration
    from fairdeal.audit import parse_now
    from fairdeal.audit import url_fetch

    with user_input():
        state = None if no_state else (state_path or default_state_path(url))
        bar: list[Any] = []  # the phase's bar, while one is shown

        def progress(phase: str, done: int, total: int) -> None:
            # For people only: on stderr, when it is a terminal; --json's stdout stays one object.
            if not sys.stderr.isatty():
                return
            if bar and bar[0].label != phase:
                bar.pop().render_finish()
            if not bar:
                bar.append(click.progressbar(length=total, label=phase, file=sys.stderr))
                bar[0].render_progress()
            bar[0].update(done - bar[0].pos)

        report = audit(
            url,
            url_fetch,
            state=state,
            key=key,
            stale_after=parse_duration(stale_after),
            now=None if now is None else parse_now(now),
            verify_records=verify_records,
            progress=progress,
            witnesses=witnesses,
            quorum=quorum,
            tiles=tiles,
            records=records,
        )
        if bar:
            bar.pop().render_finish()
    if as_json:
        click.echo(json.dumps(report.to_json(), indent=1, sort_keys=True))
    else:
        click.echo(report.text(), nl=False)
    if not report.ok:
        sys.exit(1)


@main.command("witness")
@click.option(
    "--data-dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("witness"),
    show_default=True,
    help="The witness's key (witness-key.pem, made on first start) and state (witness.db).",
)
@click.option(
    "--name",
    default=None,
    metavar="NAME",
    help="The witness's name, a schema-less URL (witness.example.com/w1); needed on the first start, kept.",
)
@click.option(
    "--log",
    "logs",
    multiple=True,
    metavar="VKEY",
    help="A log to witness: its verifier key (the verifier_key of its /.well-known/fairdeal-log). Repeatable.",
)
@click.option("--host", default="127.0.0.1", show_default=True, help="The address to listen on.")
@click.option("--port", default=8100, show_default=True, type=click.IntRange(0, 65535), help="The port to listen on.")
@click.option("--evidence", is_flag=True, help="Print the forks this witness refused (JSON) and exit.")
@click.option("--show-key", is_flag=True, help="Print the witness's verifier key and exit.")
def witness_command(
    data_dir: Path, name: str | None, logs: Sequence[str], host: str, port: int, evidence: bool, show_key: bool
) -> None:
    """Run a witness of fairdeal logs (C2SP tlog-witness): it cosigns each checkpoint a log sends
    that is consistent with the last one it cosigned, and never one that is not, across restarts.

    A log's operator lists the witness's URL and verifier key in FAIRDEAL_WITNESSES; auditors
    require its cosignature with --witness. spec/log.md, section 9.

    \b
    Example:
      fairdeal witness --name witness.example.com/w1 --port 8100 \\
        --log 'cards.example.com/log+1a2b3c4d+AR...'
    """
    from fairdeal.witness import STATE_FILE
    from fairdeal.witness import Witness

    with user_input():
        if (evidence or show_key) and not (data_dir / STATE_FILE).exists():
            raise ValueError(f"{data_dir} holds no witness (no {STATE_FILE}): give --data-dir")
        witness = Witness(data_dir, name=name, logs=logs)
    try:
        if evidence:
            click.echo(
                json.dumps(
                    {"name": witness.name, "verifier_key": witness.verifier_key, "evidence": witness.evidence()},
                    indent=1,
                )
            )
            return
        if show_key:
            click.echo(witness.verifier_key)
            return
        if not logs:
            raise click.UsageError("give the logs to witness: --log VKEY (repeatable)")
        try:
            import uvicorn
        except ImportError as exc:
            raise click.ClickException(
                f"the witness needs the service's extra: pip install 'fairdeal[service]' ({exc.name} is missing)"
            ) from None
        click.echo(f"fairdeal witness {witness.name} on http://{host}:{port}")
        click.echo(f"  verifier key: {witness.verifier_key}")
        click.echo(f"  witnessing: {', '.join(witness.logs)}")
        uvicorn.run(witness.app(), host=host, port=port, log_level="info")
    finally:
        witness.close()


# fairdeal.simulate owns the command (it takes user_input from fairdeal.cli_input, as this module does).
from fairdeal.simulate import simulate_command  # noqa: E402

main.add_command(simulate_command, "simulate")

# The service's command imports uvicorn and FastAPI only when it runs.
from fairdeal.service.cli import serve  # noqa: E402

main.add_command(serve, "serve")


if __name__ == "__main__":  # pragma: no cover
    main()
