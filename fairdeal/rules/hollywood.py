"""Hollywood scoring: three games kept at once on one score sheet.

The Stops chapter (../shared/rules/stops-family.txt, Hollywood Eights and
Hollywood Go Boom) and the Hoyle text (Hollywood Eights) keep three game
scores for each player. A player's first win is entered in game 1, the
second in games 1 and 2, the third and later ones in all three. A game
closes when some player reaches the target (100) in it; later wins are
entered only in the games still open. When the third game closes the match
is over, and the winner is the player with the highest sum of the three.

"Later hands are scored only in the second and third games ... Thereafter,
the scores are entered only in the third game score": so a win is entered
in every open game up to and including the first open game in which the
player has no entry yet (in every open game once it has one in each). While
no game has closed this is exactly "first win in game 1, second in games 1
and 2, third and later in all three". spec/games/hollywood-eights.md says
why.

The text's example, one player winning five hands in a row with 10, 25, 40,
20 and 28 points (the other player wins none):

>>> sheet = HollywoodSheet.start(2, target=100)
>>> for points in (10, 25, 40, 20, 28):
...     sheet = sheet.add_win((0,), (points, 0))
>>> [game[0] for game in sheet.games], sheet.totals[0]
([123, 113, 88], 324)
>>> sheet.open_games, sheet.over
((2,), False)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from fairdeal.rules.base import GameState
from fairdeal.rules.base import ScoreSheet

__all__ = ["GAMES", "HollywoodScoring", "HollywoodSheet"]

GAMES = 3
"""How many games a Hollywood sheet keeps at once."""


@dataclass(frozen=True, slots=True)
class HollywoodSheet(ScoreSheet):
    """Three game scores per seat. ``totals`` (what the standings rank) are each seat's sum
    of its three game scores.

    ``games[g][s]`` is seat ``s``'s score in game ``g`` (0, 1, 2); ``entries[g][s]``
    how many wins of seat ``s`` were entered in game ``g``. A game is closed once some
    seat's score in it reaches ``target``.
    """

    games: tuple[tuple[int, ...], ...] = ()
    entries: tuple[tuple[int, ...], ...] = ()
    target: int = 100

    @classmethod
    def start(cls, seats: int, target: int) -> HollywoodSheet:
        """An empty sheet for ``seats`` seats, each game closing at ``target``."""
        zero = (0,) * seats
        return cls(totals=zero, games=(zero,) * GAMES, entries=(zero,) * GAMES, target=target)

    def closed(self, game: int) -> bool:
        """Whether game ``game`` (0, 1, 2) is over: someone has reached the target in it."""
        return max(self.games[game]) >= self.target

    @property
    def open_games(self) -> tuple[int, ...]:
        """The games still open, in order."""
        return tuple(g for g in range(GAMES) if not self.closed(g))

    @property
    def over(self) -> bool:
        """All three games are closed: the match is over."""
        return not self.open_games

    def games_for(self, seat: int) -> tuple[int, ...]:
        """The games a win of ``seat`` is entered in now: every open game up to and including
        the first open one in which the seat has no entry yet.

        >>> sheet = HollywoodSheet.start(2, 100)
        >>> sheet.games_for(0)
        (0,)
        >>> sheet.add_win((0,), (5, 0)).games_for(0)
        (0, 1)
        """
        out = []
        for g in self.open_games:
            out.append(g)
            if self.entries[g][seat] == 0:
                break
        return tuple(out)

    def add_win(self, winners: Sequence[int], scores: Sequence[int]) -> HollywoodSheet:
        """The sheet after a hand won by ``winners`` (several: partners), each scoring
        ``scores[seat]``. A hand without winners (a tie) changes nothing.

        Which games a winner's score enters is decided on the sheet as it was before the
        hand, so partners who win together are entered alike.
        """
        games = [list(g) for g in self.games]
        entries = [list(e) for e in self.entries]
        for seat in winners:
            for g in self.games_for(seat):
                games[g][seat] += scores[seat]
                entries[g][seat] += 1
        games_t = tuple(tuple(g) for g in games)
        totals = tuple(sum(g[s] for g in games_t) for s in range(len(self.totals)))
        return HollywoodSheet(
            totals=totals, games=games_t, entries=tuple(tuple(e) for e in entries), target=self.target
        )

    def add(self, scores: Sequence[int]) -> HollywoodSheet:
        """A hand's scores without saying who won: every seat that scored is a winner."""
        return self.add_win([s for s, points in enumerate(scores) if points], scores)

    def record(self) -> dict[str, Any]:
        """``totals``, and ``games``: each game's scores in seat order (game 1 first)."""
        return {"totals": list(self.totals), "games": [list(g) for g in self.games]}

    def table_rows(self) -> list[tuple[str, Sequence[int]]]:
        """Each game's scores after the hand, under the totals: ``game 1`` to ``game 3``."""
        return [(f"game {g}", scores) for g, scores in enumerate(self.games, 1)]


class HollywoodScoring:
    """Mixin for a :class:`~fairdeal.rules.base.Rules` whose match is scored Hollywood style.

    The hand's ``result.winners`` are entered with their ``result.scores``; the match is
    over when all three games have closed at the ``target`` option.
    """

    options: dict[str, int]

    def new_sheet(self, seats: int) -> HollywoodSheet:
        return HollywoodSheet.start(seats, self.options["target"])

    def score_hand(self, sheet: ScoreSheet, state: GameState) -> HollywoodSheet:
        # The sheet is always new_sheet's: the match keeps the one the rules made.
        assert isinstance(sheet, HollywoodSheet) and state.result is not None
        return sheet.add_win(state.result.winners, state.result.scores)

    def match_over(self, sheet: ScoreSheet, hands_played: int) -> bool:
        assert isinstance(sheet, HollywoodSheet)
        return sheet.over
