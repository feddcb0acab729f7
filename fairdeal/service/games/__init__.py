"""Live card tables: create, client seeds, moves, bots, the turn timer, the reveal; views for seats.

Every change to a game is a :class:`~fairdeal.table.Table` call whose new
record lines are appended atomically (:class:`~fairdeal.service.live.LiveRecords`);
everything a client reads is computed from the table those lines replay to.

The table's own rules live here too:

- a bot seat (marked in the header, or a seat the host started without)
  moves by itself, the table's ``bot_seconds`` after it got the turn; with a
  delay of 0 it moves within the request that handed it the turn;
- a table with people (``next_hand_seconds`` > 0) holds the next deal after a
  hand's end: it deals when every person has said they are ready, or when its
  countdown (the row's deadline) runs out. Who is ready is the row's, not the
  record's: the record's lines are the same as a table's that deals at once;
- a human seat has ``turn_seconds`` for its turn; when the deadline passes
  the server plays the rules' auto-move for it (``"auto": true`` in the
  record) until the turn moves on or a card is played. A turn is what a seat
  does until it hands the turn on or makes a move other than a draw: the
  clock goes on through Crazy Eights' draws, and starts again for each card
  of a run a seat plays on its own (Sequence, Michigan);
- the server seed is revealed in the same append as the match's end or the
  host's abandon.

Every record line's time (``at``, record format 2) and every deadline come from
the service's one clock, the deadline in whole milliseconds from the time of the
line after which the turn began: so the verifier, computing a turn's deadline
from the record's times and the header's ``timing``, finds every auto-move at or
after it (spec/record.md).

Deadlines are stored with the game, so a restarted server (or another
process) carries on where the last one was; :meth:`GameService.run_due`
does what is due, and the append's expected length makes sure that only
one process does it.

:class:`GameService` is one class made of one per concern, each in its module:

- :mod:`.core`: the state, the stored rows and their replays, and the steps of every action with
  what follows each by itself (bots that move at once, the next deal, the reveal, the deadline);
- :mod:`.creating`: a new table, the operator's caps on them, a finished table played again;
- :mod:`.seating`: the client seeds' commitments and reveals, the host's start;
- :mod:`.moving`: a seat's move, its readiness for the next hand, the host's abandon;
- :mod:`.timekeeping`: the timer's due turns, and tables of bots alone expired;
- :mod:`.reading`: what a seat and a spectator see (seating and moving answer with it, so they
  build on it).
"""

from __future__ import annotations

from fairdeal.service.games.core import BETWEEN_HANDS as BETWEEN_HANDS
from fairdeal.service.games.core import MAX_FOLLOW_UP_MOVES as MAX_FOLLOW_UP_MOVES
from fairdeal.service.games.core import status_of as status_of
from fairdeal.service.games.creating import MAX_BOT_SECONDS as MAX_BOT_SECONDS
from fairdeal.service.games.creating import MAX_NEXT_HAND_SECONDS as MAX_NEXT_HAND_SECONDS
from fairdeal.service.games.creating import Created
from fairdeal.service.games.creating import Creating
from fairdeal.service.games.moving import Moving
from fairdeal.service.games.reading import Reading
from fairdeal.service.games.reading import iso_time
from fairdeal.service.games.reading import now_iso
from fairdeal.service.games.seating import Seating
from fairdeal.service.games.timekeeping import Timekeeping

__all__ = ["GameService", "Created", "iso_time", "now_iso"]


class GameService(Creating, Seating, Moving, Timekeeping, Reading):
    """The live games of one process, over a shared store."""
