"""Bots: they play only legal moves, from their own seat's view, and the heuristic one plays well."""

import pytest

from fairdeal.bots import BOT_KINDS
from fairdeal.bots import Bot
from fairdeal.bots import BotError
from fairdeal.bots import HeuristicBot
from fairdeal.bots import RandomBot
from fairdeal.bots import make_bot
from fairdeal.cards import Card
from fairdeal.cards import Suit
from fairdeal.cards import parse_cards
from fairdeal.fairness import GameShuffle
from fairdeal.fairness import game_key
from fairdeal.fairness import shuffle
from fairdeal.match import Match
from fairdeal.rules import RULES as RULES_BY_NAME
from fairdeal.rules import CrazyEights
from fairdeal.rules import Move
from fairdeal.rules import Rules
from fairdeal.rules import catalogue
from fairdeal.rules import get
from fairdeal.rules.crazy_eights import CrazyEightsView

RULES = get("crazy-eights")


def view(hand, top, *, named=None, pending=None, drawn=0, stock=30, pile=5, sizes=None, seat=0, turn=0):
    """A seat's view built by hand: no game state exists behind it at all."""
    hand = tuple(parse_cards(hand))
    return CrazyEightsView(
        seat=seat,
        hand_no=1,
        dealer=1,
        hand=hand,
        hand_sizes=sizes or (len(hand), 7),
        top=Card.parse(top),
        named=None if named is None else Suit.parse(named),
        stock_size=stock,
        pile_size=pile,
        turn=turn,
        drawn=drawn,
        pending=None if pending is None else Card.parse(pending),
        passes=0,
        restocks=0,
        restock_limit=20,
        result=None,
    )


def play(card, suit=None):
    return Move.play(Card.parse(card), None if suit is None else Suit.parse(suit))


def new_match(players, number, target=100):
    key = game_key(f"{number:064x}", f"bots-{players}-{number}", [""] * players)
    return Match(get("crazy-eights", {"target": target}), players, lambda label, cards: shuffle(key, label, cards))


def play_out(match, bots, check=None):
    """Play ``match`` to its end; every move is chosen from the acting seat's view only."""
    match.start()
    moves = 0
    while not match.over:
        seat = match.turn
        seat_view = match.view(seat)
        move = bots[seat].choose(match.rules, seat_view)
        if check:
            check(seat, seat_view, move)
        match.apply(seat, move)
        moves += 1
    return moves


# -- legality ----------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_bots_only_ever_choose_legal_moves(players):
    kinds_seen = set()

    def check(seat, seat_view, move):
        assert move in RULES.legal_moves(seat_view), (seat, move, seat_view)
        kinds_seen.add(move.kind)

    total = 0
    for number in range(6):
        # Heuristic and random bots at the same table, in turn at every seat.
        bots = [make_bot(BOT_KINDS[(number + s) % 2], seed=number * 10 + s) for s in range(players)]
        match = new_match(players, number)
        total += play_out(match, bots, check)
        assert max(match.totals) >= 100
    assert total > 100
    assert {"play", "draw", "keep"} <= kinds_seen


def test_random_bot_is_reproducible_from_its_seed():
    def moves_of(seed):
        chosen = []
        play_out(new_match(3, 1), [RandomBot(seed) for _ in range(3)], lambda s, v, m: chosen.append(m))
        return chosen

    assert moves_of(5) == moves_of(5)
    assert moves_of(5) != moves_of(6)


def test_random_bot_picks_among_all_legal_moves():
    seat_view = view("9C 9H KS 8D", "9D")
    legal = RULES.legal_moves(seat_view)
    bot = RandomBot(0)
    picked = {bot.choose(RULES, seat_view) for _ in range(400)}
    assert picked == set(legal)  # 9C, 9H, the eight naming each of 4 suits, draw


def test_heuristic_bot_is_deterministic():
    def moves_of():
        chosen = []
        play_out(new_match(4, 2), [HeuristicBot() for _ in range(4)], lambda s, v, m: chosen.append(m))
        return chosen

    assert moves_of() == moves_of()


# -- the heuristic -----------------------------------------------------------


def test_heuristic_saves_an_eight_while_another_card_fits():
    assert HeuristicBot().choose(RULES, view("8C 9D 2S", "9H")) == play("9D")


def test_heuristic_plays_an_eight_rather_than_draw_when_nothing_else_fits():
    # Hearts: two; spades: one. The eight names hearts, the suit it then holds most of.
    assert HeuristicBot().choose(RULES, view("8C 2H 5H 9S", "KD")) == play("8C", "H")


def test_heuristic_plays_eights_as_its_last_cards():
    assert HeuristicBot().choose(RULES, view("8S 8D", "KD")) == play("8D", "C")
    assert HeuristicBot().choose(RULES, view("8S", "KD")).card == Card.parse("8S")


def test_heuristic_names_the_most_held_suit_not_counting_eights():
    # Counting the eights, diamonds, spades and hearts would tie; the eights are wild, so hearts.
    assert HeuristicBot().choose(RULES, view("8C 8D 8S 3H", "KH", named="D")) == play("8C", "H")
    assert HeuristicBot().choose(RULES, view("8C 3S 4S 5C KH", "2D")) == play("8C", "S")


def test_heuristic_names_the_suit_worth_more_on_a_tie():
    assert HeuristicBot().choose(RULES, view("8C 2H KS", "3D")) == play("8C", "S")


def test_heuristic_prefers_its_longest_suit():
    # 9H and 9S both fit on 9D; the bot holds three hearts.
    assert HeuristicBot().choose(RULES, view("5H 9H JH 9S 2C", "9D")) == play("9H")
    # Against a named suit only that suit fits (and the eight, which waits).
    assert HeuristicBot().choose(RULES, view("5H 9H JH 9S 8C", "8D", named="S")) == play("9S")


def test_heuristic_sheds_the_card_worth_most_in_the_same_suit():
    assert HeuristicBot().choose(RULES, view("3C KC 4H", "7C")) == play("KC")


def test_heuristic_plays_a_drawn_card_that_fits():
    # It drew the 4D; while a drawn card waits only it (or keep) is legal.
    assert HeuristicBot().choose(RULES, view("2S 3S 4D", "9D", pending="4D", drawn=1)) == play("4D")


def test_heuristic_keeps_a_drawn_eight_for_later():
    assert HeuristicBot().choose(RULES, view("2S 3S 8D", "9H", pending="8D", drawn=3)) == Move.keep()


def test_heuristic_plays_a_drawn_eight_when_an_opponent_is_nearly_out():
    seat_view = view("2S 3S 8D", "9H", pending="8D", drawn=3, sizes=(3, 4, 2))
    assert HeuristicBot().choose(RULES, seat_view) == play("8D", "S")


def test_heuristic_draws_when_it_cannot_play():
    assert HeuristicBot().choose(RULES, view("2S 3S", "9H")) == Move.draw()
    # Having drawn a card that does not fit, it must draw on.
    assert HeuristicBot().choose(RULES, view("2S 3S 4C", "9H", drawn=1)) == Move.draw()


def test_heuristic_passes_only_when_nothing_else_is_legal():
    stuck = view("2S 3S", "9H", stock=0, pile=1)
    assert RULES.legal_moves(stuck) == [Move.pass_()]
    assert HeuristicBot().choose(RULES, stuck) == Move.pass_()
    # With an empty stock but a card that fits, it plays instead.
    assert HeuristicBot().choose(RULES, view("2S 3H", "9H", stock=0, pile=1)) == play("3H")


def test_heuristic_beats_random_clearly():
    """200 two-player matches with fixed seeds, each bot in turn seat 0; the counts cannot flake."""
    heuristic_wins = 0
    for number in range(200):
        seat = number % 2
        bots = [None, None]
        bots[seat], bots[1 - seat] = HeuristicBot(), RandomBot(number)
        match = new_match(2, 1000 + number)
        play_out(match, bots)
        heuristic_wins += match.totals[seat] > match.totals[1 - seat]
    assert heuristic_wins >= 180, heuristic_wins


# -- what a bot sees ---------------------------------------------------------


class RulesSpy:
    """Stands in for the rules: answers only questions about a view, and logs them."""

    def __init__(self, rules):
        self._rules = rules
        self.name = rules.name
        self.asked = []

    def legal_moves(self, seat_view):
        self.asked.append(("legal_moves", seat_view))
        return self._rules.legal_moves(seat_view)

    def explain(self, seat_view, card):
        self.asked.append(("explain", seat_view))
        return self._rules.explain(seat_view, card)

    def bot_kinds(self):
        return self._rules.bot_kinds()

    def heuristic_move(self, seat_view, moves):
        self.asked.append(("heuristic_move", seat_view))
        return self._rules.heuristic_move(seat_view, moves)


@pytest.mark.parametrize("kind", BOT_KINDS)
def test_a_bot_decides_from_the_view_it_is_given_and_nothing_else(kind):
    # A view made up by hand has no state, match or table behind it; the bot
    # needs none, and it asks the rules only about that very view.
    spy = RulesSpy(RULES)
    seat_view = view("8C 2H 5H 9S", "KD", seat=2, turn=2, sizes=(5, 5, 4))
    move = make_bot(kind, seed=1).choose(spy, seat_view)
    assert move in RULES.legal_moves(seat_view)
    assert spy.asked and all(asked is seat_view for _, asked in spy.asked)


def test_a_view_holds_no_other_seats_cards():
    match = new_match(4, 3)
    match.start()
    seat = match.turn
    seat_view = match.view(seat)
    own = set(match.state.hands[seat])
    others = {card for s, hand in enumerate(match.state.hands) if s != seat for card in hand}
    hidden = others | set(match.state.stock)
    seen = {value for value in vars_of(seat_view) if isinstance(value, Card)}
    seen |= {
        card for value in vars_of(seat_view) if isinstance(value, tuple) for card in value if isinstance(card, Card)
    }
    assert own <= seen
    assert not seen & hidden


def vars_of(seat_view):
    return [getattr(seat_view, name) for name in seat_view.__dataclass_fields__]


def test_bot_errors_say_what_is_wrong():
    not_my_turn = view("2S", "9S", seat=0, turn=1)
    with pytest.raises(BotError, match="seat 0") as caught:
        HeuristicBot().choose(RULES, not_my_turn)
    assert isinstance(caught.value, ValueError)
    with pytest.raises(BotError, match="no legal move"):
        RandomBot(1).choose(RULES, not_my_turn)
    with pytest.raises(BotError, match="unknown bot kind 'smart'"):
        make_bot("smart")


def test_make_bot_builds_each_kind():
    assert isinstance(make_bot("heuristic"), HeuristicBot)
    bot = make_bot("random", seed=9)
    assert isinstance(bot, RandomBot) and bot.seed == 9
    assert all(isinstance(make_bot(kind), Bot) for kind in BOT_KINDS)


# -- every game brings its own heuristic -------------------------------------


def test_each_game_declares_the_bots_it_offers():
    for entry in catalogue()["games"]:
        assert entry["bots"] == list(RULES_BY_NAME[entry["name"]].bot_kinds()) == ["heuristic", "random"]


@pytest.mark.parametrize("name", sorted(RULES_BY_NAME))
def test_the_heuristic_bot_plays_legal_moves_in_every_game(name):
    rules = get(name)
    seats = type(rules).min_seats
    key = game_key("ab" * 32, f"every-{name}", [""] * seats)
    match = Match(rules, seats, GameShuffle(key))
    match.start()
    for _ in range(60):
        if match.over:
            break
        seat_view = match.view(match.turn)
        move = HeuristicBot().choose(rules, seat_view)
        assert move == rules.heuristic_move(seat_view, rules.legal_moves(seat_view))
        assert move in rules.legal_moves(seat_view)
        match.apply(match.turn, move)


def test_a_game_without_a_heuristic_is_refused_as_its_declaration_says():
    class NoAdvice(CrazyEights):
        """A variant whose rule text gives no advice: only the random bot plays it."""

        name = "no-advice"
        title = "No Advice"
        heuristic_move = Rules.heuristic_move

    rules = NoAdvice()
    assert NoAdvice.bot_kinds() == ("random",) and NoAdvice.declaration()["bots"] == ["random"]
    seat_view = view("8C 9D 2S", "9H")
    with pytest.raises(BotError, match="seat 0: No Advice has no heuristic bot; it offers random"):
        HeuristicBot().choose(rules, seat_view)
    assert RandomBot(1).choose(rules, seat_view) in rules.legal_moves(seat_view)


def test_the_bots_module_names_no_game():
    import inspect

    import fairdeal.bots

    source = inspect.getsource(fairdeal.bots)
    assert "from fairdeal.rules." not in source.replace("from fairdeal.rules.base import", "")
    for name, cls in RULES_BY_NAME.items():
        # A rules name as a string, a title or a class: "eights" the word is no game's name.
        assert f'"{name}"' not in source and cls.title not in source and cls.__name__ not in source, name
