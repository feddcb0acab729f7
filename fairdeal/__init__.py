"""fairdeal: provably-fair card dealing for the Stops family of card games.

The public pieces:

- :mod:`fairdeal.cards`: cards, packs, codes and display;
- :mod:`fairdeal.fairness`: fairness protocol v1 and the embeddable :class:`~fairdeal.fairness.Dealer`;
- :mod:`fairdeal.table`: a live game (dealer, match and signed record in step), to embed in any server;
- :mod:`fairdeal.service`: the HTTP service (``fairdeal serve``), with dealing sessions for other games.

Embedding a fair game in your own server takes these names only: a
:class:`Table` per game, your server's :class:`Signer` (keep its key), and
the rules by name. Store the record's lines and the server seed (secret
until the reveal); :meth:`Table.restore` rebuilds the game from them.

>>> from fairdeal import Seat, Signer, Table, client_commitment, get_rules
>>> signer = Signer.generate()              # in production: Signer.load_or_create("server-key.pem")
>>> table = Table.new("my-game-1", get_rules("crazy-eights"), [Seat("Ann"), Seat("Bot", bot=True)], signer,
...                   created="2026-01-01T00:00:00Z")
>>> len(table.dealer.commitment)            # publish it before any client seed
64
>>> _ = table.commit(0, client_commitment("Ann's seed"))
>>> _ = table.reveal_client_seed(0, "Ann's seed")     # the last reveal starts the game
>>> seat = table.match.turn
>>> receipt = table.move(seat, table.match.auto_move())  # any legal move; a signed receipt back
>>> sorted(receipt)
['game_id', 'hash', 'seq', 'sig']
>>> restored = Table.restore(table.lines, table.dealer.reveal(), signer)  # from storage, after a restart
>>> restored.seq == table.seq
True
"""

__version__ = "0.1.0"

from fairdeal.fairness import Dealer, client_commitment  # noqa: E402
from fairdeal.record import Signer  # noqa: E402
from fairdeal.rules import get as get_rules  # noqa: E402
from fairdeal.table import Seat, Table  # noqa: E402

__all__ = ["__version__", "Table", "Seat", "Dealer", "Signer", "get_rules", "client_commitment"]
