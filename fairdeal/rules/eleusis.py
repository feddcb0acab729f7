"""Eleusis: the dealer's secret rule says which cards go on the mainline; the players find it out.

The rule text is ../shared/rules/hoyle-fan-tan-variants-eleusis-crazy-eights.txt
(Eleusis); spec/games/eleusis.md says where it was read one way rather than another.

Two packs are shuffled; each player gets 14 cards and one more card turns up as the
starter, the first card of the **mainline**. The dealer (the server, or a seat that
sits the round out) holds a secret rule, committed to before the first play and
revealed at the round's end. In turn a player plays a card, a **string** of two to
four cards, or declares **no play**; the rule judges it: a right card goes on the
mainline, a wrong one below it on a **sideline** and costs two cards per card. A player
who believes he has found the rule may become the **Forecaster** and call the others'
plays; whoever gets rid of his cards ends the round, and the scores are counted from
the cards left in hand.

>>> from fairdeal.fairness import GameShuffle, game_key
>>> rules = Eleusis()
>>> shuffle = GameShuffle(game_key("00" * 32, "doc", [""] * 4))
>>> state, events = rules.deal(4, dealer=0, hand=1, shuffle=shuffle)
>>> [len(h) for h in state.hands], len(state.mainline), state.phase, [e["type"] for e in events]
([14, 14, 14, 14], 1, 'play', ['deal', 'rule-commitment'])
>>> view = rules.view(state, state.turn)
>>> view.rule is None and view.hand == state.hands[state.turn]   # the rule stays the server's secret
True
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Callable
from collections.abc import Sequence
from typing import Any
from typing import cast

from fairdeal.cards import Card
from fairdeal.cards import Rank
from fairdeal.cards import pack
from fairdeal.fairness import rule_commitment
from fairdeal.rules.base import NOT_YOUR_TURN
from fairdeal.rules.base import Event
from fairdeal.rules.base import HandResult
from fairdeal.rules.base import IllegalMove
from fairdeal.rules.base import Layout
from fairdeal.rules.base import Move
from fairdeal.rules.base import Option
from fairdeal.rules.base import Rules
from fairdeal.rules.base import ScoreSheet
from fairdeal.rules.base import Secret
from fairdeal.rules.base import Shuffler
from fairdeal.rules.base import fast_replace
from fairdeal.rules.base import has_turn
from fairdeal.rules.base import not_held
from fairdeal.rules.base import stream_bytes
from fairdeal.rules.eleusis_state import NOT_DEALT_BONUS
from fairdeal.rules.eleusis_state import PHASES
from fairdeal.rules.eleusis_state import EleusisState
from fairdeal.rules.eleusis_state import Judgement
from fairdeal.rules.eleusis_state import Pending
from fairdeal.rules.eleusis_state import player_order
from fairdeal.rules.eleusis_state import rejected_cards
from fairdeal.rules.eleusis_views import EleusisSummary
from fairdeal.rules.eleusis_views import EleusisTable
from fairdeal.rules.eleusis_views import EleusisView
from fairdeal.rules.eleusis_views import describe_judgement
from fairdeal.rules.eleusis_views import round_summary
from fairdeal.rules.eleusis_views import seat_view
from fairdeal.rules.move import CARD
from fairdeal.rules.move import PASS
from fairdeal.rules.move import PLAY
from fairdeal.rules.move import Cards
from fairdeal.rules.move import Choice
from fairdeal.rules.move import Field
from fairdeal.rules.move import MoveKind
from fairdeal.rules.move import Text
from fairdeal.rules.position import Places
from fairdeal.rules.position import PositionError
from fairdeal.rules.position import check_seat
from fairdeal.rules.position import hand_places
from fairdeal.rules.secret_rule import LIBRARY
from fairdeal.rules.secret_rule import Env
from fairdeal.rules.secret_rule import Play
from fairdeal.rules.secret_rule import RuleError
from fairdeal.rules.secret_rule import SecretRule
from fairdeal.rules.summary import SeatNames
from fairdeal.rules.summary import display
from fairdeal.rules.summary import safe
from fairdeal.said import Said
from fairdeal.said import seats_words

__all__ = [
    "CALL",
    "Eleusis",
    "EleusisState",
    "EleusisSummary",
    "EleusisView",
    "Judgement",
    "Pending",
    "consistent_rules",
    "first_player",
    "high_count_scores",
    "player_order",
    "FORECAST",
    "NO_PLAY",
    "RULE",
    "STRING",
]


MAX_STRING = 4
"""The most cards a string holds."""
MAX_RULE_TEXT = 1000
"""Longer than any rule the rule language reads (it refuses its own limits with the column)."""


def _call_names_a_card(move: Move) -> str | None:
    if move.card is not None and move.verdict != "wrong":
        return "only a call of 'wrong' names a card (the one that could have been played)"
    return None


STRING = MoveKind(
    "string",
    (Field("cards", Cards(2, MAX_STRING), doc="Two to four cards, in the order played."),),
    label="Play string",
    doc="Play a string of two to four cards at once.",
)
NO_PLAY = MoveKind("no-play", label="No play", key="N", doc="Declare that no card of one's hand may be played.")
FORECAST = MoveKind("forecast", label="Forecast", key="F", doc="Having just played, declare oneself the Forecaster.")
CALL = MoveKind(
    "call",
    (
        Field("verdict", Choice(("right", "wrong")), member="call", noun="call", doc="The Forecaster's call."),
        Field("card", CARD, optional=True, doc="Calling a no-play wrong: the card that could have been played."),
    ),
    label="Call",
    doc="The Forecaster calls the last play right or wrong.",
    check=_call_names_a_card,
)
RULE = MoveKind(
    "rule",
    (
        Field(
            "text",
            Text(MAX_RULE_TEXT),
            optional=True,
            member="rule",
            noun="rule",
            secret=True,
            doc="The dealer's secret rule, in the game's rule language; never in the record, never shown to another seat.",
        ),
    ),
    label="Choose rule",
    doc="The dealer chooses the round's secret rule (committed to, revealed at the round's end).",
)

HAND_SIZE = 14
"""Cards dealt to each player."""
RESTOCK_AT = 4
"""A stock of this many cards or fewer gets another full pack put under it."""
WRONG_CARD_PENALTY = 2
"""Cards drawn per card of a wrong play or string."""
NO_PLAY_PENALTY = 5
"""Cards drawn for a wrong no-play, and by an overthrown Forecaster."""
NO_PLAY_RELIEF = 4
"""A right no-play with five or more cards: the fresh hand has this many cards fewer."""
OUT_BONUS = 4
"""A player with no cards at the round's end scores this much more."""
EXPEL_LAYOUT = 40
"""With no Forecaster, an incorrect play with this many cards on the layout expels the player."""
EXPEL_AFTER_MARKER = 30
"""With a Forecaster, an incorrect play with this many cards after the marker expels the player."""
FORECAST_AFTER = 4
"""The heuristic bot forecasts only once the mainline has this many cards."""
HARD_STOP = 300
"""A round ends when its layout reaches this many cards: every game ends (spec/games/eleusis.md)."""
RULE_TURNS = 6
"""A seat-mode dealer has this many turns' time to give the round's rule (:meth:`Eleusis.turn_factor`)."""


# Annotated: fast_replace is cached, and the cache's wrapper does not keep its generic type.
_replace: Callable[..., EleusisState] = fast_replace(EleusisState)

ROUND_OVER = Said("the round is over")
_PHASE_FIRST = {
    "rule": Said("give the round's secret rule first"),
    "offer": Said("declare yourself Forecaster or pass"),
    "call": Said("call the play right or wrong"),
}
"""Why no card may be played now, by the round's phase (the seat's turn, but not to play)."""
_NOT_NOW = {
    "forecast": Said("you may declare yourself Forecaster just after your own play"),
    "call": Said("only the Forecaster calls, and only a play just made"),
    "pass": Said("play a card, a string, or declare no play"),
}
"""Why a kind of move is refused when a play is due."""


def first_player(players: Sequence[int], starter: Card) -> int:
    """Who plays first: count the players from the dealer's left up to the starter's value
    (ace 1 ... king 13), going round as often as needed.

    >>> first_player((2, 3, 0), Card.parse("4H")), first_player((1, 2, 3, 0), Card.parse("KS"))
    (2, 1)
    """
    return players[(int(starter.rank) - 1) % len(players)]


def high_count_scores(counts: Sequence[int]) -> list[int]:
    """The players' scores from the cards in their hands: the high count less one's own,
    and 4 more with no cards. The rule text's example:

    >>> high_count_scores([4, 10, 6, 0])
    [6, 0, 4, 14]
    """
    high = max(counts)
    return [high - n + (OUT_BONUS if n == 0 else 0) for n in counts]


@functools.lru_cache(maxsize=256)
def _parsed(text: str) -> SecretRule:
    return SecretRule.parse(text)


# -- a move worked out: the round's cards, mutable until frozen back -------------------


class _Cards:
    """The cards of a round while one move (or the deal) is worked out: draws from the stock
    restock it as the rules say, and the events they cause are collected."""

    def __init__(self, state: EleusisState | None, hand: int, shuffle: Shuffler) -> None:
        self.hand = hand
        self.shuffle = shuffle
        self.events: list[Event] = []
        if state is None:
            return
        self.hands = [list(h) for h in state.hands]
        self.stock = list(state.stock)
        self.mainline = list(state.mainline)
        self.sidelines = [list(column) for column in state.sidelines]
        self.restocks = state.restocks
        self.restocked = list(state.restocked)

    def restock_if_low(self) -> None:
        # Checked after every card taken from the stock (and after the deal's): the stock
        # never runs dry, so a draw always finds a card.
        while len(self.stock) <= RESTOCK_AT:
            self.restocks += 1
            fresh = self.shuffle(f"hand/{self.hand}/restock/{self.restocks}", pack())
            self.stock.extend(fresh)
            self.restocked.append(tuple(fresh))
            self.events.append({"type": "restock", "hand": self.hand, "restock": self.restocks, "cards": len(fresh)})

    def take(self) -> Card:
        card = self.stock.pop(0)
        self.restock_if_low()
        return card

    def draw(self, seat: int, n: int) -> None:
        for _ in range(n):
            self.hands[seat].append(self.take())

    def to_mainline(self, cards: Sequence[Card]) -> None:
        for card in cards:
            self.mainline.append(card)
            self.sidelines.append([])

    def to_sideline(self, cards: Sequence[Card]) -> None:
        self.sidelines[-1].append(tuple(cards))

    def give_up(self, seat: int, cards: Sequence[Card]) -> None:
        hand = self.hands[seat]
        for card in cards:
            hand.remove(card)

    @property
    def rejected(self) -> int:
        return rejected_cards(self.sidelines)

    def into(self, state: EleusisState, **changes: Any) -> EleusisState:
        return _replace(
            state,
            hands=tuple(tuple(h) for h in self.hands),
            stock=tuple(self.stock),
            mainline=tuple(self.mainline),
            sidelines=tuple(tuple(column) for column in self.sidelines),
            restocks=self.restocks,
            restocked=tuple(self.restocked),
            **changes,
        )


# -- the rules ------------------------------------------------------------------------------


class Eleusis(Rules[EleusisState, EleusisView]):
    """Eleusis: 4 to 8 seats, two packs and more, a secret rule per round.

    Options: ``dealer`` (0: the server deals and holds the rule every round; 1: the seats
    deal in turn, the dealer sitting the round out) and ``rounds`` (0: as many as seats).
    """

    renderer = "eleusis"
    table_json = EleusisTable

    name = "eleusis"
    lobby_order = 210
    title = "Eleusis"
    family = "Secret-rule games"
    summary_line = "Find the dealer's secret rule from the cards it accepts; get rid of your cards, or forecast."
    min_seats = 4
    max_seats = 8
    first_dealer_rank = Rank.KING
    unit = "points"
    OPTIONS = (
        Option(
            "dealer",
            0,
            0,
            1,
            help="who deals and holds the secret rule",
            choices={0: "the server deals every round", 1: "the seats deal in turn"},
        ),
        Option("rounds", 0, 0, 100, help="rounds in the game", low_means="as many rounds as players"),
    )
    layout = Layout(hands="14 each (not the dealer)", packs=2, stock=True, starter=True)
    moves = (PLAY, PASS, STRING, NO_PLAY, FORECAST, CALL, RULE)
    secret = Secret("rule", move="rule", commitment="rule-commitment", reveal="rule-reveal", digest=rule_commitment)
    """The dealer's rule: committed to when it is given, revealed at the round's end (spec/fairness.md)."""
    state_type = EleusisState

    @property
    def server_deals(self) -> bool:
        return self.options["dealer"] == 0

    def rounds_in_game(self, seats: int) -> int:
        return self.options["rounds"] or seats

    # -- the game: rounds ----------------------------------------------------------------

    def match_over(self, sheet: ScoreSheet, hands_played: int) -> bool:
        return hands_played >= self.rounds_in_game(len(sheet.totals))

    # -- dealing ---------------------------------------------------------------------------

    def deal(self, seats: int, dealer: int, hand: int, shuffle: Shuffler) -> tuple[EleusisState, list[Event]]:
        self.check_seats(seats)
        server = self.server_deals
        players = player_order(seats, dealer, server)
        cards = _Cards(None, hand, shuffle)
        cards.stock = list(shuffle(f"hand/{hand}/deal", pack(2)))
        cards.restocks, cards.restocked = 0, []
        cards.hands = [[] for _ in range(seats)]
        # One card at a time round the players from the dealer's left; eight players
        # need more than two packs, so the stock is restocked as it runs low.
        for _ in range(HAND_SIZE):
            for seat in players:
                cards.hands[seat].append(cards.take())
        starter = cards.take()
        cards.mainline, cards.sidelines = [starter], [[]]
        # The Shuffler type names cards, but the fair dealer's shuffle takes any sequence
        # (GameShuffle is generic): here it shuffles the library's indices.
        shuffle_indices = cast(Callable[[str, Sequence[int]], list[int]], shuffle)
        chosen = shuffle_indices(f"hand/{hand}/rule", list(range(len(LIBRARY))))[0]
        nonce = stream_bytes(shuffle, f"hand/{hand}/rule-nonce", 32).hex()
        first = first_player(players, starter)
        restocks = cards.events
        base = EleusisState(
            hand=hand,
            dealer=dealer,
            server_deals=server,
            hands=(),
            stock=(),
            mainline=(),
            sidelines=(),
            turn=None,
            phase="rule",
            rule=None,
            nonce=nonce,
            commitment=None,
            chosen=chosen,
            first=first,
        )
        state = cards.into(base)
        state = _replace(state, dealt=state.hands)
        events: list[Event] = [{"type": "deal", "hand": hand, "dealer": dealer, "starter": starter.code}, *restocks]
        if server:
            text = LIBRARY[chosen].text
            state, committed = self._commit(state, text)
            events.append(committed)
        else:
            state = _replace(state, turn=dealer)
        return state, events

    def _commit(self, state: EleusisState, text: str) -> tuple[EleusisState, Event]:
        commitment = rule_commitment(text, state.nonce)
        state = _replace(state, rule=text, commitment=commitment, phase="play", turn=state.first)
        return state, {"type": "rule-commitment", "hand": state.hand, "commitment": commitment}

    # -- seeing ------------------------------------------------------------------------------

    def view(self, state: EleusisState, seat: int | None) -> EleusisView:
        """See :func:`~fairdeal.rules.eleusis_views.seat_view`."""
        return seat_view(state, seat)

    def legal_moves(self, view: EleusisView) -> list[Move]:
        """The seat's moves now. In a play turn: each card held, every string of **two**
        cards held, and no-play; a string of three or four cards held is legal too (apply
        takes it) but left out of the list, which would run to tens of thousands."""
        if view.result is not None or not has_turn(view):
            return []
        if view.phase == "rule":
            return [RULE(text) for text in view.library]
        if view.phase == "offer":
            return [FORECAST(), Move.pass_()]
        if view.phase == "call":
            pending = view.pending
            assert pending is not None, "phase 'call' has a pending play (check_position holds to it)"
            if pending.play == "no-play":
                return [CALL("right"), *(CALL("wrong", c) for c in sorted(set(pending.cards)))]
            return [CALL("right"), CALL("wrong")]
        held = Counter(view.hand)
        singles = sorted(held)
        # In card order already: no sort of the pairs (a big hand has hundreds).
        pairs = [_pair(a, b) for i, a in enumerate(singles) for j, b in enumerate(singles) if i != j or held[a] > 1]
        return [*(Move.play(c) for c in singles), *pairs, NO_PLAY()]

    def explain(self, view: EleusisView, card: Card) -> str | None:
        if view.result is not None:
            return ROUND_OVER
        if view.seat is not None and view.seat in view.expelled:
            return Said("you were expelled from this round")
        if view.seat is not None and view.seat == view.forecaster:
            return Said("the Forecaster plays no cards while he forecasts")
        if not has_turn(view):
            return NOT_YOUR_TURN
        if view.phase != "play":
            return _PHASE_FIRST.get(view.phase, NOT_YOUR_TURN)
        if card not in view.hand:
            return not_held(card)
        return None

    # -- playing -------------------------------------------------------------------------------

    def apply(self, state: EleusisState, seat: int, move: Move, shuffle: Shuffler) -> tuple[EleusisState, list[Event]]:
        def illegal(reason: str) -> IllegalMove:
            return IllegalMove(reason, move=move, seat=seat)

        if state.result is not None:
            raise illegal(ROUND_OVER)
        if seat != state.turn:
            raise illegal(NOT_YOUR_TURN)
        kind, phase = move.kind, state.phase
        if phase == "rule":
            if kind != "rule":
                raise illegal(Said("the dealer gives the round's secret rule first"))
            if move.text is None:
                raise illegal(Said("a rule move gives its rule"))
            try:
                rule = SecretRule.parse(move.text)
            except RuleError as error:
                raise illegal(str(error)) from None
            state, event = self._commit(state, rule.text)
            return state, [event]
        if kind == "rule":
            raise illegal(Said("the rule is given once, before the first play"))
        if phase == "offer":
            if kind == "forecast":
                return self._forecast(state, seat)
            if kind == "pass":
                return self._next(state, seat)
            raise illegal(Said("you have just played: declare yourself Forecaster ('forecast') or not ('pass')"))
        if phase == "call":
            awaiting = state.pending
            assert awaiting is not None, "phase 'call' has a pending play (check_position holds to it)"
            if kind != "call":
                raise illegal(Said("call seat {seat}'s play right or wrong", seat=awaiting.seat))
            if awaiting.play == "no-play":
                if move.verdict == "wrong" and move.card is None:
                    raise illegal(Said("calling a no-play wrong, name the card that could have been played"))
                if move.card is not None and move.card not in awaiting.cards:
                    raise illegal(Said("seat {seat} does not hold {card}", seat=awaiting.seat, card=move.card))
            elif move.card is not None:
                raise illegal(Said("only a call of a no-play names a card"))
            return self._judge(state, awaiting, move, shuffle)
        # phase == "play"
        if kind in ("forecast", "call", "pass"):
            raise illegal(_NOT_NOW[kind])
        hand = state.hands[seat]
        if kind == "play":
            assert move.card is not None, "a play names its card (Move checks its fields)"
            if move.suit is not None or move.then is not None:
                raise illegal(Said("an Eleusis play is one card (a string names its cards)"))
            if move.card not in hand:
                raise illegal(not_held(move.card))
            pending = Pending(seat, "play", (move.card,))
        elif kind == "string":
            assert move.cards is not None, "a string names its cards (Move checks its fields)"
            missing = Counter(move.cards) - Counter(hand)
            if missing:
                lacking = tuple(sorted(missing.elements()))
                if any(c in hand for c in missing):
                    raise illegal(Said("you do not hold {cards} twice", cards=lacking))
                raise illegal(Said("you do not hold {cards}", cards=lacking))
            pending = Pending(seat, "string", move.cards)
        elif kind == "no-play":
            pending = Pending(seat, "no-play", hand)
        else:
            raise illegal(self.no_move(kind))
        if state.forecaster is not None:
            return _replace(state, phase="call", turn=state.forecaster, pending=pending), []
        return self._judge(state, pending, None, shuffle)

    def _judge(
        self, state: EleusisState, pending: Pending, call: Move | None, shuffle: Shuffler
    ) -> tuple[EleusisState, list[Event]]:
        """Judge ``pending`` (and the Forecaster's ``call`` of it) and complete the play."""
        rule = _parsed(state.rule)
        cards = _Cards(state, state.hand, shuffle)
        seat, play = pending.seat, pending.play
        layout_before = state.layout_size
        mainline = tuple(cards.mainline)
        rejected = cards.rejected
        penalty = returned = fresh = 0
        dealer_card: Card | None = None
        overthrown = False
        round_ends = False
        if play != "no-play":
            right = rule.accepts_all(mainline, pending.cards, rejected)
            cards.give_up(seat, pending.cards)
            (cards.to_mainline if right else cards.to_sideline)(pending.cards)
            if call is not None:
                overthrown = (call.verdict == "right") != right
            if not right and not overthrown:
                penalty = WRONG_CARD_PENALTY * len(pending.cards)
        else:
            fitting = [c for c in cards.hands[seat] if rule.accepts(mainline, c, rejected)]
            right = not fitting
            named = None if call is None else call.card
            if call is not None:
                if call.verdict == "right":
                    overthrown = not right
                else:
                    overthrown = named not in fitting
            if named is not None and not overthrown:
                # The Forecaster named a right card: it goes on, the player draws five.
                dealer_card, penalty = named, NO_PLAY_PENALTY
            elif fitting:
                # The dealer puts the first right card of the hand on; no penalty if overthrown.
                dealer_card, penalty = fitting[0], 0 if overthrown else NO_PLAY_PENALTY
            if dealer_card is not None:
                cards.give_up(seat, (dealer_card,))
                cards.to_mainline((dealer_card,))
            else:
                # The no-play was right: the hand goes to the bottom of the stock.
                shown = cards.hands[seat]
                returned = len(shown)
                cards.stock.extend(shown)
                cards.hands[seat] = []
                if returned <= NO_PLAY_RELIEF:
                    round_ends = True
                else:
                    fresh = returned - NO_PLAY_RELIEF
                    cards.draw(seat, fresh)
        cards.draw(seat, penalty)
        forecaster = state.forecaster
        changes: dict[str, Any] = {}
        forecaster_penalty = 0
        if overthrown:
            assert forecaster is not None, "only a Forecaster's call is overthrown"
            forecaster_penalty = NO_PLAY_PENALTY
            cards.draw(forecaster, forecaster_penalty)
            changes.update(forecaster=None, marker=None, marker_layout=0)
        incorrect = not right
        expelled = False
        if incorrect and not overthrown and seat not in state.expelled:
            if forecaster is None:
                expelled = layout_before >= EXPEL_LAYOUT
            else:
                expelled = layout_before - state.marker_layout >= EXPEL_AFTER_MARKER
        if expelled:
            changes["expelled"] = state.expelled | {seat}
        judgement = Judgement(
            seat=seat,
            play=play,
            cards=pending.cards,
            right=right,
            mainline_size=len(mainline),
            rejected=rejected,
            penalty=penalty,
            dealer_card=dealer_card,
            returned=returned,
            fresh=fresh,
            forecaster=forecaster,
            call=None if call is None else call.verdict,
            call_card=None if call is None else call.card,
            overthrown=overthrown,
            forecaster_penalty=forecaster_penalty,
            expelled=expelled,
        )
        events = [*cards.events, {"type": "judgement", "hand": state.hand, **judgement.to_json()}]
        state = cards.into(state, pending=None, judgements=state.judgements + (judgement,), **changes)
        if round_ends or not state.hands[seat]:
            return self._end(state, "out", Said("{seats} has no cards left", seats=seats_words([seat])), events)
        if state.layout_size >= HARD_STOP:
            return self._end(state, "blocked", Said("the layout reached {n} cards", n=HARD_STOP), events)
        if self._may_declare(state, seat):
            return _replace(state, phase="offer", turn=seat), events
        return self._next(state, seat, events)

    def _may_declare(self, state: EleusisState, seat: int) -> bool:
        """The four conditions, the first being that ``seat`` has just played."""
        if state.forecaster is not None or seat in state.was_forecaster or seat in state.expelled:
            return False
        others = [p for p in state.players if p != seat and p not in state.expelled]
        return len(others) >= 2

    def _forecast(self, state: EleusisState, seat: int) -> tuple[EleusisState, list[Event]]:
        state = _replace(
            state,
            forecaster=seat,
            marker=len(state.mainline) - 1,
            marker_layout=state.layout_size,
            was_forecaster=state.was_forecaster | {seat},
        )
        return self._next(state, seat)

    def _active(self, state: EleusisState) -> list[int]:
        return [p for p in state.players if p != state.forecaster and p not in state.expelled]

    def _next(
        self, state: EleusisState, seat: int, events: list[Event] | None = None
    ) -> tuple[EleusisState, list[Event]]:
        """The turn passes left from ``seat`` to the next player who takes turns; with none
        left (all expelled, or all but the Forecaster) the round ends."""
        events = [] if events is None else events
        active = set(self._active(state))
        for k in range(1, state.seats + 1):
            candidate = (seat + k) % state.seats
            if candidate in active:
                return _replace(state, phase="play", turn=candidate), events
        if state.forecaster is None:
            return self._end(state, "blocked", Said("every player is expelled"), events)
        return self._end(state, "blocked", Said("every player but the Forecaster is expelled"), events)

    def _end(self, state: EleusisState, how: str, reason: str, events: list[Event]) -> tuple[EleusisState, list[Event]]:
        """Score the round and reveal its rule."""
        players = state.players
        counts = tuple(len(h) for h in state.hands)
        player_scores = high_count_scores([counts[p] for p in players])
        scores = [0] * state.seats
        for p, score in zip(players, player_scores):
            scores[p] = score
        bonus = 0
        if state.forecaster is not None:
            assert state.marker is not None, "a Forecaster has a marker (check_position holds to it)"
            after_mainline = len(state.mainline) - 1 - state.marker
            after_sideline = state.layout_size - state.marker_layout - after_mainline
            bonus = after_mainline + 2 * after_sideline
            scores[state.forecaster] += bonus
        best = max(scores[p] for p in players)
        dealer_score = best if state.forecaster is None else min(best, 2 * state.marker_layout)
        not_dealt: frozenset[int] = frozenset()
        if not state.server_deals:
            scores[state.dealer] = dealer_score
            rounds = self.options["rounds"]
            if rounds and rounds < state.seats and state.hand == rounds:
                dealt = {(state.dealer - k) % state.seats for k in range(rounds)}
                not_dealt = frozenset(s for s in range(state.seats) if s not in dealt)
                for s in not_dealt:
                    scores[s] += NOT_DEALT_BONUS
        if how == "out":
            winners = tuple(p for p in players if counts[p] == 0)
        else:
            top = max(scores)
            winners = tuple(s for s in range(state.seats) if scores[s] == top)
        result = HandResult(how, winners, counts, tuple(scores), reason)
        state = _replace(
            state,
            phase="over",
            turn=None,
            pending=None,
            result=result,
            dealer_score=dealer_score,
            forecaster_bonus=bonus,
            not_dealt=not_dealt,
        )
        return state, [*events, self._reveal(state)]

    @staticmethod
    def _reveal(state: EleusisState) -> Event:
        return {"type": "rule-reveal", "hand": state.hand, "rule": state.rule, "nonce": state.nonce}

    def abandon_events(self, state: EleusisState) -> list[Event]:
        """The round's rule revealed when the game is abandoned after it was committed."""
        if state.rule is None or state.result is not None:
            return []
        return [self._reveal(state)]

    # -- the table's timer ---------------------------------------------------------------------

    def auto_move(self, state: EleusisState) -> Move:
        """A timed-out seat: the dealer picks the library rule the server would have; a
        player plays the first card of his hand; the offer is passed; the Forecaster calls
        the play right."""
        if state.result is not None or state.turn is None:
            raise IllegalMove("the round is over")
        if state.phase == "rule":
            return RULE(LIBRARY[state.chosen].text)
        if state.phase == "offer":
            return Move.pass_()
        if state.phase == "call":
            return CALL("right")
        return Move.play(state.hands[state.turn][0])

    # -- the heuristic bot ---------------------------------------------------------------------

    def turn_factor(self, state: EleusisState) -> int:
        """A dealer writing the round's rule has :data:`RULE_TURNS` turns' time (two minutes at
        the table's twenty seconds): a rule is not typed in the time a card is played."""
        return RULE_TURNS if state.phase == "rule" else 1

    def heuristic_move(self, view: EleusisView, moves: Sequence[Move]) -> Move:
        """See :func:`eleusis_choice`."""
        return eleusis_choice(view, moves)

    # -- the position (state JSON, spec/state.md) ----------------------------------------------

    def card_places(self, state: EleusisState) -> Places:
        places: Places = [
            *hand_places(state.hands),
            (Said("in the stock"), state.stock),
            (Said("on the mainline"), state.mainline),
            (Said("on a sideline"), [c for column in state.sidelines for entry in column for c in entry]),
        ]
        if not state.restocks:
            return places
        # The pack the position is checked against is the layout's two packs; a restock's
        # packs are counted by check_position, and one copy of each card per restock is
        # taken off the places here (from the stock's bottom up, then the other places).
        surplus = Counter({card: state.restocks for card in pack()})
        trimmed: Places = []
        for place, cards in reversed(places):
            kept = []
            for card in reversed(list(cards)):
                if surplus[card]:
                    surplus[card] -= 1
                else:
                    kept.append(card)
            trimmed.append((place, kept[::-1]))
        return trimmed[::-1]

    def check_position(self, state: EleusisState) -> None:
        seats = state.seats
        if state.phase not in PHASES:
            raise PositionError(f"{state.phase!r} is not one of {', '.join(PHASES)}", field="phase")
        if not state.mainline:
            raise PositionError("the mainline holds at least the starter", field="mainline")
        if len(state.sidelines) != len(state.mainline):
            raise PositionError(
                f"{len(state.sidelines)} sidelines for {len(state.mainline)} mainline cards: one per card",
                field="sidelines",
            )
        for i, column in enumerate(state.sidelines):
            for j, entry in enumerate(column):
                if not 1 <= len(entry) <= MAX_STRING:
                    raise PositionError(
                        "a sideline entry is the 1 to 4 cards of one play", field=f"sidelines[{i}][{j}]"
                    )
        if state.server_deals is False and state.hands[state.dealer]:
            raise PositionError("the dealing seat holds no cards", field=f"hands[{state.dealer}]")
        if not 0 <= state.chosen < len(LIBRARY):
            raise PositionError(f"{state.chosen} is no index of the library's {len(LIBRARY)} rules", field="chosen")
        if state.first not in state.players:
            raise PositionError(f"seat {state.first} is not a player", field="first")
        if state.rule is not None:
            try:
                _parsed(state.rule)
            except RuleError as error:
                raise PositionError(str(error), field="rule") from None
            if state.commitment != rule_commitment(state.rule, state.nonce):
                raise PositionError("not the commitment to the rule and nonce", field="commitment")
        elif state.phase != "rule" or state.server_deals:
            raise PositionError("a round past the rule phase has its rule", field="rule")
        if (state.phase == "over") != (state.result is not None):
            raise PositionError("phase 'over' is the phase of a finished round", field="phase")
        if (state.phase == "call") != (state.pending is not None):
            raise PositionError("a pending play is there exactly in phase 'call'", field="pending")
        if (state.forecaster is None) != (state.marker is None):
            raise PositionError("a Forecaster has a marker and a marker a Forecaster", field="marker")
        if state.marker is not None and not 0 <= state.marker < len(state.mainline):
            raise PositionError(f"{state.marker} is not a mainline index", field="marker")
        if state.forecaster is not None:
            check_seat(state.forecaster, seats, "forecaster")
            if state.forecaster not in state.was_forecaster:
                raise PositionError("the Forecaster is among those who were", field="was_forecaster")
        for field, group in (("expelled", state.expelled), ("was_forecaster", state.was_forecaster)):
            for s in group:
                if s not in state.players:
                    raise PositionError(f"seat {s} is not a player", field=field)
        turn = state.turn
        if turn is not None:
            if state.phase == "rule" and turn != state.dealer:
                raise PositionError("the dealer gives the rule", field="turn")
            if state.phase == "call" and turn != state.forecaster:
                raise PositionError("the Forecaster calls", field="turn")
            if state.phase in ("play", "offer") and (turn not in self._active(state)):
                raise PositionError(f"seat {turn} takes no turns now", field="turn")
        # A restock adds a full pack: every card is then there 2 + restocks times.
        if state.restocks:
            counts = Counter(
                [
                    *(c for h in state.hands for c in h),
                    *state.stock,
                    *state.mainline,
                    *(c for column in state.sidelines for entry in column for c in entry),
                ]
            )
            copies = 2 + state.restocks
            for card in pack():
                if counts[card] != copies:
                    raise PositionError(
                        f"{card} is there {counts[card]} times; two packs and {state.restocks} restock(s) have {copies}"
                    )

    # -- reporting -------------------------------------------------------------------------------

    def summary(self, state: EleusisState) -> EleusisSummary:
        """See :func:`~fairdeal.rules.eleusis_views.round_summary`."""
        return round_summary(state)

    def describe_deal(self, state: EleusisState, names: SeatNames) -> list[str]:
        lines = super().describe_deal(state, names)
        who = "the server deals and holds the rule" if state.server_deals else "he holds the rule and plays no cards"
        lines[0] += f" ({who}), starter {state.mainline[0].display}, first to play {names.seat(state.first)}"
        return lines

    def move_words(self, before: EleusisState, seat: int, move: Move, after: EleusisState | None) -> str:
        if move.kind == "rule":
            text = "gives the secret rule" + (f" {safe(after.rule)}" if after is not None and after.rule else "")
        elif move.kind == "string":
            assert move.cards is not None, "a string names its cards (Move checks its fields)"
            text = "string " + display(move.cards)
        elif move.kind == "call":
            text = f"calls {move.verdict}" + ("" if move.card is None else f", naming {move.card.display}")
        elif move.kind == "forecast":
            text = "declares himself the Forecaster"
        elif move.kind == "pass":
            text = "does not forecast"
        elif move.kind == "play":
            assert move.card is not None, "a play names its card (Move checks its fields)"
            text = f"play {move.card.display}"
        else:
            text = move.kind
        return text

    def describe_table(self, before: EleusisState, after: EleusisState, names: SeatNames) -> str:
        if len(after.judgements) == len(before.judgements):
            return ""
        return f"; mainline {display(after.mainline)}; {rejected_cards(after.sidelines)} on sidelines"

    def describe_event(self, event: Event, names: SeatNames) -> str:
        kind = event.get("type")
        if kind == "deal":
            return f"round {event['hand']} dealt, starter {display(str(event.get('starter')))}"
        if kind == "rule-commitment":
            return f"the secret rule is committed: {safe(event['commitment'])}"
        if kind == "rule-reveal":
            return f"the secret rule was: {safe(event['rule'])} (nonce {safe(event['nonce'])})"
        if kind == "restock":
            return f"the stock ran low: pack {event['restock']} of {event['cards']} cards goes under it"
        if kind == "judgement":
            return describe_judgement(event, names)
        return super().describe_event(event, names)

    def why_legal(self, view: EleusisView, move: Move) -> str:
        kind = move.kind
        if kind == "play":
            assert move.card is not None, "a play names its card (Move checks its fields)"
            return Said("any card held may be played: the rule judges {card}", card=move.card)
        if kind == "string":
            assert move.cards is not None, "a string names its cards (Move checks its fields)"
            return Said("a string of {n} cards held: the rule judges them together", n=len(move.cards))
        if kind == "call":
            target = view.pending
            assert target is not None, "a call is legal only with a pending play to call"
            what = Said("the no-play") if target.play == "no-play" else target.cards
            if move.verdict == "right":
                called = Said("the Forecaster calls {what} right", what=what)
            else:
                called = Said("the Forecaster calls {what} wrong", what=what)
            return called if move.card is None else Said("{call}, naming {card}", call=called, card=move.card)
        return _WHY.get(kind) or super().why_legal(view, move)


_WHY = {
    "no-play": Said("a player may always declare that no card of his fits"),
    "forecast": Said(
        "he has just played, there is no Forecaster, two others still play and he has not forecast this round"
    ),
    "pass": Said("he need not declare himself the Forecaster"),
    "rule": Said("the dealer gives the round's secret rule"),
}
"""Why a move of each kind that names no card was allowed, as the hand replayer says it."""


# -- the heuristic bot ----------------------------------------------------------------------


def _facts(view: EleusisView) -> list[tuple[Play, bool]]:
    """What the layout (and the right no-plays) says of the rule: each play as it was judged
    (with the mainline and rejected count then), and whether it was accepted."""
    facts = []
    mainline, sidelines = view.mainline, view.sidelines
    rejected = 0

    def before(count: int) -> tuple[Card, ...]:
        # The starter and the last three of the mainline's first ``count`` cards: all a rule reads.
        return (mainline[0], *mainline[max(1, count - 3) : count])

    for i, column in enumerate(sidelines):
        if i:
            facts.append((Play.of(before(i), (mainline[i],), rejected, i), True))
        for entry in column:
            facts.append((Play.of(before(i + 1), entry, rejected, i + 1), False))
            rejected += len(entry)
    for j in view.judgements:
        if j.play == "no-play" and j.right:
            for card in set(j.cards):
                facts.append((Play.of(before(j.mainline_size), (card,), j.rejected, j.mainline_size), False))
    return facts


def rejected_before(sidelines: Sequence[Sequence[Sequence[Card]]], index: int) -> int:
    """The sideline cards under the mainline cards before ``index``."""
    return sum(len(entry) for column in sidelines[:index] for entry in column)


@functools.lru_cache(maxsize=52 * 52)
def _pair(first: Card, second: Card) -> Move:
    """The string of two cards, made once: a big hand's legal moves hold hundreds of them."""
    return STRING((first, second))


@functools.lru_cache(maxsize=1 << 15)
def _library_verdicts(envs: tuple[Env, ...]) -> int:
    """Which library rules accept a play (its :class:`~fairdeal.rules.secret_rule.Play` envs):
    bit ``i`` for ``LIBRARY[i]``."""
    play, mask = Play(envs), 0
    for i, rule in enumerate(LIBRARY):
        if rule.accepts_play(play):
            mask |= 1 << i
    return mask


def consistent_rules(view: EleusisView, rules: Sequence[SecretRule] = LIBRARY) -> tuple[list[SecretRule], int]:
    """The ``rules`` that break the fewest facts of the layout (every mainline card accepted
    after those before it, every sideline entry rejected at its place, every card of a right
    no-play rejected), and how many they break: the rules a player still believes in.

    >>> from dataclasses import replace
    >>> from fairdeal.cards import parse_cards
    >>> from fairdeal.fairness import GameShuffle, game_key
    >>> state, _ = Eleusis().deal(4, 0, 1, GameShuffle(game_key("00" * 32, "doc", [""] * 4)))
    >>> view = replace(Eleusis().view(state, 1), mainline=tuple(parse_cards("7H 2S 4H 5D")), sidelines=((), (), (), ()))
    >>> alternate = SecretRule.parse("card.colour != last.colour")
    >>> consistent_rules(view, [alternate])   # 5D after 4H breaks it
    ([SecretRule(text='card.colour != last.colour')], 1)
    """
    facts = _facts(view)
    if rules is LIBRARY:
        # The bot's own question, asked at every turn of every seat: each play's verdicts by the
        # whole library are remembered as one bit mask, so a turn costs a lookup a play.
        broken_by = [0] * len(LIBRARY)  # the facts LIBRARY[i] breaks
        everything = (1 << len(LIBRARY)) - 1
        for play, accepted in facts:
            wrong = _library_verdicts(play.envs) ^ (everything if accepted else 0)
            while wrong:
                low = wrong & -wrong
                broken_by[low.bit_length() - 1] += 1
                wrong ^= low
        least = min(broken_by)
        return [rule for rule, count in zip(LIBRARY, broken_by) if count == least], least
    best: list[SecretRule] = []
    fewest: int | None = None
    for rule in rules:
        broken = 0
        accepts = rule.accepts_play
        for play, accepted in facts:
            if accepts(play) != accepted:
                broken += 1
                if fewest is not None and broken > fewest:
                    break
        if fewest is None or broken < fewest:
            best, fewest = [rule], broken
        elif broken == fewest:
            best.append(rule)
    return best, fewest or 0


def eleusis_choice(view: EleusisView, moves: Sequence[Move]) -> Move:
    """The heuristic bot: it keeps the library rules that best agree with the layout.

    - As the seat-mode dealer it picks the rule the server would (``suggested``).
    - In its turn it plays the card most of those rules accept, a string of two when they all
      accept two cards in a row, and declares no play when none of them accepts any card.
    - Offered to forecast, it does when exactly one rule agrees with everything so far.
    - As Forecaster it calls as most of the rules say.
    """
    first = moves[0]
    if first.kind == "rule":
        return next((m for m in moves if m.text == view.suggested), first)
    candidates, broken = consistent_rules(view)
    mainline, rejected = view.mainline, rejected_cards(view.sidelines)
    if first.kind == "forecast":
        sure = len(candidates) == 1 and not broken and len(mainline) >= FORECAST_AFTER
        return FORECAST() if sure else Move.pass_()
    if first.kind == "call":
        pending = view.pending
        assert pending is not None, "offered a call, the seat has a pending play to call"
        if pending.play == "no-play":
            votes: Counter[Card | None] = Counter()  # None: no card fits, the no-play is right
            for rule in candidates:
                fit = [c for c in pending.cards if rule.accepts(mainline, c, rejected)]
                votes[fit[0] if fit else None] += 1
            choice, _ = votes.most_common(1)[0]
            return CALL("right") if choice is None else CALL("wrong", choice)
        yes = sum(rule.accepts_all(mainline, pending.cards, rejected) for rule in candidates)
        return CALL("right" if 2 * yes >= len(candidates) else "wrong")
    hand = view.hand
    score = {card: sum(rule.accepts(mainline, card, rejected) for rule in candidates) for card in set(hand)}
    best = max(sorted(score), key=lambda c: score[c])
    if score[best] == 0:
        return NO_PLAY()
    if score[best] == len(candidates) and len(hand) > 1:
        rest = list(hand)
        rest.remove(best)
        line = (*mainline, best)
        for card in sorted(set(rest)):
            if all(rule.accepts(line, card, rejected) for rule in candidates):
                string = STRING((best, card))
                if string in moves:
                    return string
    return Move.play(best)
