"""Bot games through a real :class:`~fairdeal.table.Table`, each written as a signed record.

``fairdeal simulate`` plays whole matches between bots and writes one record
per game, exactly as the service would store it: every seat is a player
(``"bot": false`` in the header) that commits to a client seed and reveals it
through the table, a bot then chooses each of its moves from that seat's view
alone, and the game ends with the server seed's reveal. So every simulated
record exercises the whole protocol, and any verifier can check it.

>>> import tempfile
>>> from fairdeal.rules import DEFAULT
>>> from fairdeal.record import parse_record, check_chain
>>> with tempfile.TemporaryDirectory() as out:
...     paths = simulate(DEFAULT, 3, 2, out, seed="doc")
...     lines = parse_record(paths[0].read_text())
>>> [p.name for p in paths]
['sim-doc-1.jsonl', 'sim-doc-2.jsonl']
>>> check_chain(lines)
>>> [line["type"] for line in lines[1:5]], lines[-1]["type"]
(['client-commit', 'client-commit', 'client-commit', 'client-reveal'], 'reveal')

.. warning::
   A *seeded* simulation (``seed=...``, ``--seed``) derives its server seeds,
   client seeds and signing key from that seed, so anyone who knows the seed
   knows every card before it is dealt. That is what makes it reproducible
   byte for byte, and it is for tests only: such records prove nothing about
   fairness. Without a seed, every game gets fresh CSPRNG seeds and the run a
   fresh signing key, as a live table would.
"""

from __future__ import annotations

import hmac
import re
import secrets
import time
import uuid
from collections.abc import Callable
from collections.abc import Mapping
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field
from pathlib import Path
from typing import Any

import click

from fairdeal.bots import Bot
from fairdeal.bots import make_bot
from fairdeal.cli_input import user_input
from fairdeal.fairness import client_commitment
from fairdeal.fairness import new_server_seed
from fairdeal.record import Signer
from fairdeal.record import canonical
from fairdeal.rules import DEFAULT
from fairdeal.rules import Rules
from fairdeal.rules import Standing
from fairdeal.rules import get
from fairdeal.table import Seat
from fairdeal.table import Table

__all__ = [
    "BOT_CHOICES",
    "MAX_MOVES",
    "SEEDED_CREATED",
    "SimulatedGame",
    "SimulationError",
    "check_arguments",
    "play",
    "simulate",
    "simulate_command",
]

BOT_CHOICES = ("heuristic", "random", "mixed")
"""``mixed`` alternates the kinds round the table, and from game to game."""

MAX_MOVES = 100_000
"""Moves one simulated game may take before it is stopped as runaway.

A hand cannot go on for ever (the stock may run out only ``restock_limit``
times), but a match could in principle: a blocked hand in which every seat
holds the same count scores nothing. Real games take a few hundred moves.
"""

SEEDED_CREATED = "2000-01-01T00:00:00Z"
"""The ``created`` time of every seeded game's header, so that reruns are byte-identical."""

_SEED = re.compile(r"[A-Za-z0-9._-]{1,64}")


class SimulationError(RuntimeError):
    """A simulated game that did not finish within its move cap.

    Not a :class:`ValueError`: the input was fine, the game ran away.
    """

    def __init__(self, game_id: str, moves: int, hand: int) -> None:
        self.game_id = game_id
        self.moves = moves
        self.hand = hand
        super().__init__(f"game {game_id} did not finish within {moves} moves (stopped in hand {hand})")


@dataclass
class SimulatedGame:
    """One finished game: where its record went, and what it took."""

    game_id: str
    path: Path
    moves: int
    hands: int
    standings: tuple[Standing, ...]
    receipt_paths: list[Path] = field(default_factory=list)


def check_arguments(rules_name: str, players: int, games: int, bot: str, seed: str | int | None) -> Rules[Any, Any]:
    """The rules for a simulation, or a :class:`ValueError` saying which argument is wrong.

    >>> check_arguments(DEFAULT, 7, 1, "heuristic", None)
    Traceback (most recent call last):
    ...
    fairdeal.rules.base.OptionsError: Crazy Eights is for 2 to 6 players, not 7
    """
    rules = get(rules_name)
    rules.check_seats(players)
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise ValueError(f"games must be a whole number of at least 1, not {games!r}")
    if bot not in BOT_CHOICES:
        raise ValueError(f"unknown bot {bot!r}; choose one of {', '.join(BOT_CHOICES)}")
    if bot != "random" and "heuristic" not in rules.bot_kinds():
        raise ValueError(f"the heuristic bot does not play {rules.name}; use bot 'random'")
    if seed is not None and not _SEED.fullmatch(str(seed)):
        raise ValueError("a seed is 1 to 64 letters, digits, '.', '_' or '-' (it becomes part of the game ids)")
    return rules


def _derive(seed: str, label: str) -> bytes:
    """32 bytes for ``label`` from a simulation seed: ``HMAC-SHA256(seed, label)``. Predictable by design."""
    return hmac.digest(seed.encode(), label.encode(), "sha256")


def _kind(bot: str, game: int, seat: int) -> str:
    if bot != "mixed":
        return bot
    return ("heuristic", "random")[(game + seat) % 2]


def play(table: Table, bots: Sequence[Bot], *, max_moves: int = MAX_MOVES) -> list[list[dict[str, Any]]]:
    """Play a started table to the end of its match, each seat's move chosen by ``bots[seat]``.

    A bot is handed the rules and its seat's view, never the table. Returns
    each seat's move receipts. Raises :class:`SimulationError` after
    ``max_moves`` moves.
    """
    receipts: list[list[dict[str, Any]]] = [[] for _ in table.seats]
    moves = 0
    match, rules = table.match, table.rules
    while not match.over:
        if moves >= max_moves:
            raise SimulationError(table.game_id, moves, match.hand_no)
        seat = match.turn
        assert seat is not None  # (a started table that deals at once: while the match goes on, a seat is to act)
        move = bots[seat].choose(rules, match.view(seat))
        receipts[seat].append(table.move(seat, move))
        moves += 1
    return receipts


def simulate(
    rules_name: str,
    players: int,
    games: int,
    out_dir: str | Path,
    seed: str | int | None = None,
    receipts: bool = False,
    bot: str = "heuristic",
    progress: Callable[[SimulatedGame], None] | None = None,
    *,
    options: Mapping[str, Any] | None = None,
    max_moves: int = MAX_MOVES,
) -> list[Path]:
    """Play ``games`` bot games of ``rules_name`` for ``players`` seats; write their records to ``out_dir``.

    Each game's record is ``out_dir/<game_id>.jsonl``; with ``receipts``, each
    seat's receipts (for its client-commit, client-reveal and every move) go
    to ``out_dir/<game_id>.seat<N>.receipts.jsonl``, one JSON object a line.
    ``bot`` is ``"heuristic"``, ``"random"`` or ``"mixed"`` (seat kinds
    alternate round the table and from game to game). ``progress`` is called
    with each :class:`SimulatedGame` as it is written. Returns the record
    paths in game order.

    With ``seed`` the run is reproducible byte for byte: game ``n`` (from 1)
    is ``sim-<seed>-<n>``, its server seed is ``HMAC-SHA256(seed,
    "server/<n>")``, seat ``s``'s client seed ``HMAC-SHA256(seed,
    "client/<n>/<s>")`` (the first 16 bytes, hex), a random bot's generator
    is seeded from ``"bot/<n>/<s>"``, the signing key is
    ``Signer.from_seed(HMAC-SHA256(seed, "signer"))`` and every header's
    ``created`` and every line's ``at`` is :data:`SEEDED_CREATED`.

    **A seeded simulation's server seeds are predictable: for testing only.**
    Anyone who knows ``seed`` can deal every hand in advance and sign as the
    server. Without ``seed``, the seeds come from the OS CSPRNG, the game
    ids from uuid4, the key is fresh and ``created`` is the real time.
    """
    rules = check_arguments(rules_name, players, games, bot, seed)
    if options:
        rules = get(rules.name, options)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    seed_text = None if seed is None else str(seed)
    if seed_text is None:
        signer = Signer.generate()
    else:
        signer = Signer.from_seed(_derive(seed_text, "signer"))

    paths = []
    for n in range(1, games + 1):
        if seed_text is None:
            game_id = f"sim-{uuid.uuid4()}"
            server_seed = new_server_seed()
            client_seeds = [secrets.token_hex(16) for _ in range(players)]
            bot_seeds: list[int | None] = [secrets.randbits(64) for _ in range(players)]
            created, clock = None, time.time  # the real time, on every line
        else:
            game_id = f"sim-{seed_text}-{n}"
            server_seed = _derive(seed_text, f"server/{n}").hex()
            client_seeds = [_derive(seed_text, f"client/{n}/{s}")[:16].hex() for s in range(players)]
            bot_seeds = [int.from_bytes(_derive(seed_text, f"bot/{n}/{s}")[:8], "big") for s in range(players)]
            created, clock = SEEDED_CREATED, None  # every line at SEEDED_CREATED: byte-identical reruns
        kinds = [_kind(bot, n, s) for s in range(players)]
        bots = [make_bot(kind, bot_seeds[s]) for s, kind in enumerate(kinds)]
        seats = [Seat(f"seat {s} ({kind})") for s, kind in enumerate(kinds)]

        table = Table.new(game_id, rules, seats, signer, created=created, clock=clock, server_seed=server_seed)
        seat_receipts: list[list[dict[str, Any]]] = [[] for _ in range(players)]
        # Every seat commits before any reveals: the order the protocol demands.
        for s, client_seed in enumerate(client_seeds):
            seat_receipts[s].append(table.commit(s, client_commitment(client_seed)))
        for s, client_seed in enumerate(client_seeds):
            seat_receipts[s].append(table.reveal_client_seed(s, client_seed))
        for s, more in enumerate(play(table, bots, max_moves=max_moves)):
            seat_receipts[s].extend(more)
        table.reveal()

        path = out / f"{game_id}.jsonl"
        path.write_text(table.writer.text(), encoding="utf-8")
        game = SimulatedGame(
            game_id=game_id,
            path=path,
            moves=sum(1 for line in table.lines if line["type"] == "move"),
            hands=len(table.match.hands),
            standings=table.match.standings,
        )
        if receipts:
            for s, items in enumerate(seat_receipts):
                receipt_path = out / f"{game_id}.seat{s}.receipts.jsonl"
                receipt_path.write_text("".join(canonical(r).decode() + "\n" for r in items), encoding="utf-8")
                game.receipt_paths.append(receipt_path)
        paths.append(path)
        if progress is not None:
            progress(game)
    return paths


@click.command("simulate")
@click.option(
    "--rules",
    "rules_name",
    default=DEFAULT,
    show_default=True,
    metavar="NAME",
    help="The game to play (see `fairdeal catalogue`).",
)
@click.option("--players", type=int, required=True, metavar="N", help="Seats at each table.")
@click.option("--games", type=int, required=True, metavar="K", help="How many games (whole matches) to play.")
@click.option(
    "--out",
    "out_dir",
    required=True,
    metavar="DIR",
    type=click.Path(file_okay=False, path_type=Path),
    help="Where to write the records (created if missing).",
)
@click.option(
    "--seed",
    default=None,
    metavar="S",
    help="Make the run reproducible byte for byte. Its server seeds are then predictable: for testing only.",
)
@click.option("--receipts", is_flag=True, help="Also write each seat's receipts, DIR/<game_id>.seat<N>.receipts.jsonl.")
@click.option("--bot", type=click.Choice(BOT_CHOICES), default="heuristic", show_default=True, help="Which bots play.")
@click.option(
    "--option",
    "option_texts",
    multiple=True,
    metavar="NAME=N",
    help="A rules option (see `fairdeal catalogue`), e.g. --option dealer=1; repeat for more.",
)
def simulate_command(
    rules_name: str,
    players: int,
    games: int,
    out_dir: Path,
    seed: str | None,
    receipts: bool,
    bot: str,
    option_texts: tuple[str, ...],
) -> None:
    """Play bot games through a real table and write each one's signed record.

    \b
    Example:
      fairdeal simulate --rules crazy-eights --players 4 --games 10 --out sims --seed 1
      fairdeal simulate --rules eleusis --players 5 --games 2 --out sims --option dealer=1
    """
    with user_input():
        # Only the arguments are checked as input; a failure while playing is a bug, not bad input.
        options = _options(option_texts)
        check_arguments(rules_name, players, games, bot, seed)
        if options:
            get(rules_name, options).check_seats(players)
    played: list[SimulatedGame] = []
    try:
        simulate(
            rules_name,
            players,
            games,
            out_dir,
            seed=seed,
            receipts=receipts,
            bot=bot,
            progress=played.append,
            options=options,
        )
    except SimulationError as error:
        raise click.ClickException(str(error)) from None
    except OSError as error:
        raise click.ClickException(f"cannot write the records to {out_dir}: {error.strerror or error}") from None
    moves = sum(game.moves for game in played)
    extra = f" and {sum(len(g.receipt_paths) for g in played)} receipt files" if receipts else ""
    click.echo(f"simulated {len(played)} games of {rules_name}, {moves} moves: records{extra} in {out_dir}")


def _options(texts: Sequence[str]) -> dict[str, int]:
    """``--option NAME=N`` values as a rules' options (each checked by the rules themselves)."""
    options: dict[str, int] = {}
    for text in texts:
        name, equals, value = text.partition("=")
        if not equals or not name or not re.fullmatch(r"-?[0-9]{1,9}", value):
            raise ValueError(f"--option {text!r}: write NAME=N, N a whole number (e.g. --option target=50)")
        options[name] = int(value)
    return options
