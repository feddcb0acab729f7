"""Bots that choose a seat's move from that seat's view, and nothing else.

A bot is handed the rules and ``rules.view(state, seat)``: its own hand and
the public table (DESIGN.md, principle 5). It never gets the state, the
match or the table, so it cannot peek at another hand or at the stock; the
rules' :meth:`~fairdeal.rules.Rules.legal_moves` and
:meth:`~fairdeal.rules.Rules.explain` work on a view too.

This module knows no game: the heuristic bot plays what each game's rules
advise (:meth:`~fairdeal.rules.Rules.heuristic_move`, beside the game in
``fairdeal/rules/``), and which bots a game offers is in its catalogue entry
(:meth:`~fairdeal.rules.Rules.bot_kinds`).

>>> from fairdeal.fairness import game_key, shuffle
>>> from fairdeal.match import Match
>>> from fairdeal.rules import DEFAULT, get
>>> key = game_key("00" * 32, "doc", ["", ""])
>>> match = Match(get(DEFAULT), 2, lambda label, cards: shuffle(key, label, cards))
>>> _ = match.start()
>>> view = match.view(match.turn)
>>> moves = match.rules.legal_moves(view)
>>> make_bot("heuristic").choose(match.rules, view) == match.rules.heuristic_move(view, moves)
True
>>> make_bot("random", seed=7).choose(match.rules, view) in moves
True
>>> [RandomBot(1).choose(match.rules, view) for _ in range(2)] == [RandomBot(1).choose(match.rules, view)] * 2
True
"""

from __future__ import annotations

import random
from typing import Any

from fairdeal.rules.base import GameView
from fairdeal.rules.base import Move
from fairdeal.rules.base import Rules

__all__ = [
    "Bot",
    "BotError",
    "RandomBot",
    "HeuristicBot",
    "BOT_KINDS",
    "make_bot",
]

BOT_KINDS = ("heuristic", "random")
"""The kinds :func:`make_bot` builds."""


class BotError(ValueError):
    """A bot asked for a move it cannot make: not its turn, or a game it does not know.

    >>> str(BotError("it is not this seat's turn", seat=1))
    "bot for seat 1: it is not this seat's turn"
    """

    def __init__(self, reason: str, *, seat: int | None = None) -> None:
        self.reason = reason
        self.seat = seat
        super().__init__(f"bot for seat {seat}: {reason}" if seat is not None else f"bot: {reason}")


class Bot:
    """The bot protocol: :meth:`choose` one move from a seat's view.

    Subclasses must return one of ``rules.legal_moves(view)`` and must not keep
    a reference to anything but what they are given.
    """

    kind: str = "bot"

    def choose(self, rules: Rules[Any, Any], view: GameView) -> Move:
        """The move for the seat whose ``view`` this is; raises :class:`BotError` when it has none."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


def _legal(rules: Rules[Any, Any], view: GameView) -> list[Move]:
    moves = rules.legal_moves(view)
    if not moves:
        raise BotError("the seat has no legal move now (not its turn, or the hand is over)", seat=view.seat)
    return moves


class RandomBot(Bot):
    """Picks uniformly among the legal moves, with its own seeded generator.

    Each way of playing a card is a move of its own (an eight naming each of
    four suits is four moves), so such a card is that much likelier. Two bots
    with the same seed given the same views choose the same moves (the module's example shows it).
    """

    kind = "random"

    def __init__(self, seed: int | str | None = None) -> None:
        self.seed = seed
        self._rng = random.Random(seed)

    def __repr__(self) -> str:
        return f"RandomBot({self.seed!r})"

    def choose(self, rules: Rules[Any, Any], view: GameView) -> Move:
        return self._rng.choice(_legal(rules, view))


class HeuristicBot(Bot):
    """A deterministic bot that plays as each game's rule text advises: the game's own
    :meth:`~fairdeal.rules.Rules.heuristic_move` (where eights are wild it saves them and
    names the suit it holds most of; where rows build from the sevens it plays toward its
    far cards).

    A game without one is refused, as its catalogue entry says (``bots``).

    >>> from fairdeal.fairness import game_key, shuffle
    >>> from fairdeal.match import Match
    >>> from fairdeal.rules import DEFAULT, get
    >>> key = game_key("22" * 32, "doc", ["", "", ""])
    >>> match = Match(get(DEFAULT), 3, lambda label, cards: shuffle(key, label, cards))
    >>> _ = match.start()
    >>> view = match.view(match.turn)
    >>> HeuristicBot().choose(match.rules, view) in match.rules.legal_moves(view)
    True
    >>> try:
    ...     HeuristicBot().choose(match.rules, match.view((match.turn + 1) % 3))
    ... except BotError as error:
    ...     print(error.reason)
    the seat has no legal move now (not its turn, or the hand is over)
    """

    kind = "heuristic"

    def choose(self, rules: Rules[Any, Any], view: GameView) -> Move:
        kinds = rules.bot_kinds()
        if self.kind not in kinds:
            raise BotError(f"{rules.title} has no heuristic bot; it offers {', '.join(kinds)}", seat=view.seat)
        return rules.heuristic_move(view, _legal(rules, view))


def make_bot(kind: str, seed: int | str | None = None) -> Bot:
    """A bot of ``kind`` (``"heuristic"`` or ``"random"``); ``seed`` seeds a random bot.

    >>> make_bot("random", 3), make_bot("heuristic")
    (RandomBot(3), HeuristicBot())
    >>> try:
    ...     make_bot("clever")
    ... except BotError as error:
    ...     print(error)
    bot: unknown bot kind 'clever'; known: heuristic, random
    """
    if kind == "random":
        return RandomBot(seed)
    if kind == "heuristic":
        return HeuristicBot()
    raise BotError(f"unknown bot kind {kind!r}; known: {', '.join(BOT_KINDS)}")
