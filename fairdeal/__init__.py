"""fairdeal: provably-fair card dealing for the Stops family of card games.

Embedding a fair game in your own server takes the names here only: a
:class:`Table` per game, your server's :class:`Signer` (keep its key), the
rules by name (:func:`get_rules`; :func:`catalogue` lists every game), moves
(:class:`Move`, refused with :class:`IllegalMove`), and :func:`verify` for any
record. Store each table's record (:meth:`Table.record_text`) and its server
seed (:attr:`Table.server_seed`, secret until the reveal); :meth:`Table.restore`
rebuilds the game. A finished table's :attr:`Table.outcome` (an :class:`Outcome`
of :class:`Standing` rows) is what the verifier's report of its record says.

>>> from fairdeal import Move, Seat, Signer, Table, catalogue, client_commitment, get_rules, verify
>>> signer = Signer.generate()              # in production: Signer.load_or_create("server-key.pem")
>>> rules = get_rules(catalogue()["default"])   # Crazy Eights; get_rules(name, options) for any game
>>> table = Table.new("my-game-1", rules, [Seat("Ann"), Seat("Bot", bot=True)], signer,
...                   created="2026-01-01T00:00:00Z", server_seed="00" * 32)
>>> len(table.commitment)                   # publish it before any client seed
64
>>> _ = table.commit(0, client_commitment("Ann's seed"))
>>> _ = table.reveal_client_seed(0, "Ann's seed")     # the last reveal starts the game
>>> table.turn, [card.code for card in table.view(0).hand], str(table.view(0).top)
(0, ['2C', '9C', '5H', '6S', '3H', 'QD', '8C'], '9D')
>>> table.is_legal(0, Move.parse("play 8C naming H")), table.is_legal(0, Move.parse("play 5H"))
(True, False)
>>> table.move(0, Move.parse("play 5H"))
Traceback (most recent call last):
...
fairdeal.rules.base.IllegalMove: illegal move play 5H by seat 0: 5♥ does not match 9♦ in suit or rank
>>> receipt = table.move(0, Move.parse("play QD"))      # a signed receipt back
>>> sorted(receipt), table.turn
(['at', 'game_id', 'hash', 'seq', 'sig'], 1)
>>> restored = Table.restore(table.lines, "00" * 32, signer)  # from storage, after a restart
>>> restored.seq == table.seq, restored.turn
(True, 1)
>>> verify(table.record_text()).verdict                 # the game is not over: nothing proved yet
'NOT VERIFIED: line 7: the record ends here and the server seed is not revealed (a game in progress, or a truncated record)'

The pieces beneath, for those who need them:

- :mod:`fairdeal.cards`: cards, packs, codes and display;
- :mod:`fairdeal.fairness`: fairness protocol v1 and the embeddable :class:`~fairdeal.fairness.Dealer`;
- :mod:`fairdeal.rules`: the twenty games and their catalogue;
- :mod:`fairdeal.table`: a live game (dealer, match and signed record in step);
- :mod:`fairdeal.service`: the HTTP service (``fairdeal serve``), with dealing sessions for other games.
"""

from __future__ import annotations

__version__ = "0.1.0"

from typing import TYPE_CHECKING
from typing import Any

from fairdeal.cards import Card
from fairdeal.cards import Suit
from fairdeal.fairness import Dealer
from fairdeal.fairness import client_commitment
from fairdeal.fairness import new_server_seed
from fairdeal.record import Signer
from fairdeal.rules import IllegalMove
from fairdeal.rules import Move
from fairdeal.rules import MoveError
from fairdeal.rules import OptionsError
from fairdeal.rules import Outcome
from fairdeal.rules import Standing
from fairdeal.rules import catalogue
from fairdeal.rules import get as get_rules
from fairdeal.table import Seat
from fairdeal.table import Table
from fairdeal.table import TableError
from fairdeal.table import Timing

if TYPE_CHECKING:  # pragma: no cover
    from fairdeal.bots import Bot
    from fairdeal.verification import Report

__all__ = [
    "__version__",
    "Card",
    "Dealer",
    "IllegalMove",
    "Move",
    "MoveError",
    "OptionsError",
    "Outcome",
    "Seat",
    "Signer",
    "Standing",
    "Suit",
    "Table",
    "TableError",
    "Timing",
    "catalogue",
    "client_commitment",
    "get_rules",
    "make_bot",
    "new_server_seed",
    "verify",
]


def verify(record: str | bytes | list[dict[str, Any]], *, key: str | None = None) -> Report:
    """Check a whole record as ``fairdeal-verify`` does, without the CLI: its text (or parsed lines).

    The report has ``verdict`` (``"VERIFIED"`` or ``"NOT VERIFIED: line N: <reason>"``), ``verified``,
    ``error`` (the first failing line and its reason), ``hands`` (each deal, result and score),
    ``standings`` and ``outcome`` (as :attr:`Table.outcome`). ``key`` pins the server's public key (64 hex digits). Raises
    :class:`~fairdeal.record.RecordError` for text that is not a fairdeal record at all.
    """
    from fairdeal.verification import verify as replay  # the replay machinery, loaded when first used

    return replay(record, key=key)


def make_bot(kind: str, seed: int | str | None = None) -> Bot:
    """A bot of ``kind`` (``"heuristic"`` or ``"random"``) that chooses from a seat's view:
    ``bot.choose(table.rules, table.view(seat))``. See :mod:`fairdeal.bots`."""
    from fairdeal.bots import make_bot as make  # bots import every game's heuristics: load them on demand

    return make(kind, seed)
