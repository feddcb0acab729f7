"""Eleusis as the table and the record show it: what a seat sees (:class:`EleusisView`), the
public table's JSON (:class:`EleusisTable`), a round's summary (:class:`EleusisSummary`) and a
judgement in words.

The rules (the deal, the moves, the judgements, the scores) are in :mod:`fairdeal.rules.eleusis`,
which imports this module; the round's state is in :mod:`fairdeal.rules.eleusis_state`, which
both import (this one never imports the rules).

>>> from fairdeal.fairness import GameShuffle, game_key
>>> from fairdeal.rules.eleusis import Eleusis
>>> state, _ = Eleusis().deal(4, dealer=0, hand=1, shuffle=GameShuffle(game_key("00" * 32, "doc", [""] * 4)))
>>> view = seat_view(state, 1)
>>> view.hand == state.hands[1], view.rule, view.layout_size, round_summary(state).starter == state.mainline[0]
(True, None, 1, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any
from typing import NotRequired
from typing import TypedDict

from fairdeal.cards import Card
from fairdeal.cards import codes
from fairdeal.rules.base import Event
from fairdeal.rules.base import HandResult
from fairdeal.rules.base import TableJSON
from fairdeal.rules.base import check_view_seat
from fairdeal.rules.eleusis_state import NOT_DEALT_BONUS
from fairdeal.rules.eleusis_state import EleusisState
from fairdeal.rules.eleusis_state import Judgement
from fairdeal.rules.eleusis_state import Pending
from fairdeal.rules.eleusis_state import rejected_cards
from fairdeal.rules.secret_rule import EXAMPLES
from fairdeal.rules.secret_rule import LIBRARY
from fairdeal.rules.secret_rule import SYNTAX_HELP
from fairdeal.rules.summary import HandSummary
from fairdeal.rules.summary import SeatNames
from fairdeal.rules.summary import display
from fairdeal.rules.summary import safe

__all__ = [
    "AwaitingCall",
    "EleusisSummary",
    "EleusisTable",
    "EleusisView",
    "JudgementJSON",
    "describe_judgement",
    "rejected_cards",
    "round_summary",
    "seat_view",
]


# -- what a seat sees -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class EleusisView:
    """What one seat sees (``seat`` is ``None`` for a spectator, who sees no hand).

    ``rule`` is the secret rule's text: only the seat-mode dealer's own view has it before
    the reveal; everyone's has it once the round is over (``nonce`` too). In phase
    ``rule`` the dealer's view has the ``library`` to pick from, the ``examples``,
    ``syntax_help``, and ``suggested``, the library rule the server would pick.
    """

    seat: int | None
    hand_no: int
    dealer: int
    server_deals: bool
    players: tuple[int, ...]
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    mainline: tuple[Card, ...]
    sidelines: tuple[tuple[tuple[Card, ...], ...], ...]
    marker: int | None
    marker_layout: int
    turn: int | None
    phase: str
    forecaster: int | None
    expelled: frozenset[int]
    was_forecaster: frozenset[int]
    pending: Pending | None
    stock_size: int
    restocks: int
    judgements: tuple[Judgement, ...]
    commitment: str | None
    rule: str | None
    nonce: str | None
    library: tuple[str, ...]
    examples: tuple[str, ...]
    syntax_help: str | None
    suggested: str | None
    result: HandResult | None
    dealer_score: int | None
    forecaster_bonus: int

    @property
    def layout_size(self) -> int:
        return len(self.mainline) + rejected_cards(self.sidelines)

    @property
    def last(self) -> Judgement | None:
        """The last judgement, if any."""
        return self.judgements[-1] if self.judgements else None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "seat": self.seat,
            "hand_no": self.hand_no,
            "dealer": self.dealer,
            "server_deals": self.server_deals,
            "players": list(self.players),
            "hand": codes(self.hand),
            "hand_sizes": list(self.hand_sizes),
            "mainline": codes(self.mainline),
            "sidelines": [[codes(entry) for entry in column] for column in self.sidelines],
            "marker": self.marker,
            "layout_size": self.layout_size,
            "turn": self.turn,
            "phase": self.phase,
            "forecaster": self.forecaster,
            "expelled": sorted(self.expelled),
            "was_forecaster": sorted(self.was_forecaster),
            "awaiting": None if self.pending is None else self.pending.to_json(),
            "stock_size": self.stock_size,
            "restocks": self.restocks,
            "last": None if self.last is None else self.last.to_json(),
            "judgements": len(self.judgements),
            "commitment": self.commitment,
            "rule": self.rule,
            "nonce": self.nonce,
            "dealer_score": self.dealer_score,
            "forecaster_bonus": self.forecaster_bonus,
        }
        if self.library:
            out["library"] = list(self.library)
            out["examples"] = list(self.examples)
            out["syntax_help"] = self.syntax_help
            out["suggested"] = self.suggested
        return out


def seat_view(state: EleusisState, seat: int | None) -> EleusisView:
    """What ``seat`` sees of ``state`` (``None``: a spectator): :meth:`Eleusis.view
    <fairdeal.rules.eleusis.Eleusis.view>`."""
    check_view_seat(seat, state.seats)
    over = state.phase == "over"
    dealer_sees = not state.server_deals and seat == state.dealer
    choosing = dealer_sees and state.phase == "rule"
    return EleusisView(
        seat=seat,
        hand_no=state.hand,
        dealer=state.dealer,
        server_deals=state.server_deals,
        players=state.players,
        hand=() if seat is None else state.hands[seat],
        hand_sizes=tuple(len(h) for h in state.hands),
        mainline=state.mainline,
        sidelines=state.sidelines,
        marker=state.marker,
        marker_layout=state.marker_layout,
        turn=state.turn,
        phase=state.phase,
        forecaster=state.forecaster,
        expelled=state.expelled,
        was_forecaster=state.was_forecaster,
        pending=state.pending,
        stock_size=len(state.stock),
        restocks=state.restocks,
        judgements=state.judgements,
        commitment=state.commitment,
        rule=state.rule if over or dealer_sees else None,
        nonce=state.nonce if over else None,
        library=tuple(r.text for r in LIBRARY) if choosing else (),
        examples=tuple(r.text for r in EXAMPLES) if choosing else (),
        syntax_help=SYNTAX_HELP if choosing else None,
        suggested=LIBRARY[state.chosen].text if choosing else None,
        result=state.result,
        dealer_score=state.dealer_score,
        forecaster_bonus=state.forecaster_bonus,
    )


# -- the public table's JSON ---------------------------------------------------------------


class AwaitingCall(TypedDict):
    """The play the Forecaster has still to call: who made it, what kind, its cards."""

    seat: int
    play: str
    cards: list[Card]


class JudgementJSON(TypedDict):
    """How the last play was judged, as its record line has it: what every play has, then what
    only some have."""

    seat: int
    play: str
    cards: list[Card]
    right: bool
    mainline_size: int
    rejected: int
    penalty: int
    dealer_card: NotRequired[Card]
    returned: NotRequired[int]
    fresh: NotRequired[int]
    forecaster: NotRequired[int]
    call: NotRequired[str]
    call_card: NotRequired[Card]
    overthrown: NotRequired[bool]
    forecaster_penalty: NotRequired[int]
    expelled: NotRequired[bool]


class EleusisTable(TableJSON):
    """The public table of an Eleusis round: the mainline and its sidelines (one column per
    mainline card, each a list of the plays rejected under it), the marker, the Forecaster, the
    play awaiting a call, the last judgement and the rule's commitment (its text and nonce once
    revealed); the dealer writing a rule also sees the library and the syntax help."""

    server_deals: bool
    players: list[int]
    mainline: list[Card]
    sidelines: list[list[list[Card]]]
    marker: int | None
    layout_size: int
    phase: str
    forecaster: int | None
    expelled: list[int]
    was_forecaster: list[int]
    awaiting: AwaitingCall | None
    stock_size: int
    restocks: int
    last: JudgementJSON | None
    judgements: int
    commitment: str | None
    rule: str | None
    nonce: str | None
    dealer_score: int | None
    forecaster_bonus: int
    library: NotRequired[list[str]]
    examples: NotRequired[list[str]]
    syntax_help: NotRequired[str]
    suggested: NotRequired[str]


# -- the round in the report -----------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class EleusisSummary(HandSummary):
    """An Eleusis round: the deal (each player's 14 cards; the dealing seat's are none), the
    starter, the rule with its nonce and commitment, the layout, the Forecaster, who was
    expelled, every judgement, the dealer's score and the Forecaster's bonus."""

    server_deals: bool
    starter: Card
    rule: str | None
    nonce: str
    commitment: str | None
    mainline: tuple[Card, ...]
    sidelines: tuple[tuple[tuple[Card, ...], ...], ...]
    marker: int | None
    forecaster: int | None
    expelled: tuple[int, ...]
    judgements: tuple[Judgement, ...]
    dealer_score: int | None
    forecaster_bonus: int
    not_dealt: tuple[int, ...] = ()
    restocks: tuple[tuple[Card, ...], ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            **super().to_json(),
            "server_deals": self.server_deals,
            "starter": self.starter.code,
            "rule": self.rule,
            "nonce": self.nonce,
            "commitment": self.commitment,
            "mainline": codes(self.mainline),
            "sidelines": [[codes(entry) for entry in column] for column in self.sidelines],
            "marker": self.marker,
            "forecaster": self.forecaster,
            "expelled": list(self.expelled),
            "judgements": [j.to_json() for j in self.judgements],
            "dealer_score": self.dealer_score,
            "forecaster_bonus": self.forecaster_bonus,
            "not_dealt": list(self.not_dealt),
            "restocks": [{"restock": r, "stock": codes(s)} for r, s in enumerate(self.restocks, 1)],
        }

    def lines(self, names: SeatNames) -> list[str]:
        out = super().lines(names)
        out.append(f"  starter {self.starter.display}; secret rule {safe(self.rule)}")
        out.append(f"  nonce {self.nonce}, commitment {self.commitment}")
        out.append(f"  mainline {display(self.mainline)}")
        for i, column in enumerate(self.sidelines):
            if column:
                out.append(f"    under {self.mainline[i].display}: " + " / ".join(display(entry) for entry in column))
        if self.forecaster is not None:
            assert self.marker is not None, "a Forecaster has a marker (check_position holds to it)"
            out.append(
                f"  Forecaster {names.seat(self.forecaster)}, marker on {self.mainline[self.marker].display} "
                f"(mainline card {self.marker + 1}), bonus {self.forecaster_bonus}"
            )
        if self.expelled:
            out.append(f"  expelled: {names.seats(self.expelled)}")
        out.append(
            f"  dealer's score {self.dealer_score}"
            + (" (no seat gets it: the server dealt)" if self.server_deals else "")
        )
        if self.not_dealt:
            out.append(f"  +{NOT_DEALT_BONUS} to each seat that has not dealt: {names.seats(self.not_dealt)}")
        for r, stock in enumerate(self.restocks, 1):
            out.append(f"  restock {r}: {display(stock)}")
        return out

    def blocked_winners(self, winners: Sequence[int], names: SeatNames) -> str:
        return f"highest score: {names.seats(winners)}"


def round_summary(state: EleusisState) -> EleusisSummary:
    """The round's summary for the report: :meth:`Eleusis.summary
    <fairdeal.rules.eleusis.Eleusis.summary>`."""
    return EleusisSummary(
        deal=state.dealt,
        server_deals=state.server_deals,
        starter=state.mainline[0],
        rule=state.rule,
        nonce=state.nonce,
        commitment=state.commitment,
        mainline=state.mainline,
        sidelines=state.sidelines,
        marker=state.marker,
        forecaster=state.forecaster,
        expelled=tuple(sorted(state.expelled)),
        judgements=state.judgements,
        dealer_score=state.dealer_score,
        forecaster_bonus=state.forecaster_bonus,
        not_dealt=tuple(sorted(state.not_dealt)),
        restocks=state.restocked,
    )


def describe_judgement(event: Event, names: SeatNames) -> str:
    """A judgement event in words."""
    who = names.seat(event.get("seat"))
    play = event.get("play")
    what = "no play" if play == "no-play" else display([str(c) for c in event.get("cards", [])])
    text = f"{who}: {what} is {'right' if event.get('right') else 'wrong'}"
    if event.get("call") is not None:
        named = event.get("call_card")
        text += f"; Forecaster {names.seat(event.get('forecaster'))} called {safe(event['call'])}"
        text += "" if named is None else f" ({display(str(named))})"
        text += ": overthrown, draws 5" if event.get("overthrown") else ": correct"
    if event.get("dealer_card") is not None:
        text += f"; {display(str(event['dealer_card']))} goes on the mainline"
    if event.get("returned"):
        text += f"; {event['returned']} cards to the stock" + (
            f", a fresh hand of {event['fresh']}" if event.get("fresh") else ""
        )
    if event.get("penalty"):
        text += f"; draws {event['penalty']}"
    if event.get("expelled"):
        text += "; expelled"
    return text
