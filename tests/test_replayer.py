"""The hand replayer (verifier/replayer.py): every deal and move of a verified record, all
cards face up, each move with the rule that allowed it; spec/replay.md."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

from fairdeal.cards import codes
from fairdeal.cards import pack
from fairdeal.fairness import GameShuffle
from fairdeal.fairness import game_key
from fairdeal.record import canonical
from fairdeal.rules import RULES
from fairdeal.rules import Move
from fairdeal.rules import get
from fairdeal.simulate import simulate
from fairdeal.verification import verify
from verifier.replayer import FORMAT
from verifier.replayer import ReplayError
from verifier.replayer import hand_steps

GOLDEN = Path(__file__).parent / "golden" / "crazy-eights-4p.jsonl"


def text(lines) -> str:
    return "".join(canonical(line).decode() + "\n" for line in lines)


def record(tmp_path: Path, rules: str, seats: int, options=None, bot="heuristic", seed="replayer") -> str:
    return simulate(rules, seats, 1, tmp_path, seed=seed, bot=bot, options=options)[0].read_text()


def every_card(step) -> Counter:
    return Counter(
        [c for hand in step["hands"] for c in hand] + [c for place in step["places"] for c in place["cards"]]
    )


def check_hand(record_text: str, hand: dict, packs: Counter) -> None:
    """What a player checks stepping through a hand: it starts with the deal; every move is
    the record's move line, by its seat; every step holds the whole pack, each card once;
    the seat to act at one step is the seat that moves at the next."""
    lines = [json.loads(line) for line in record_text.splitlines()]
    steps = hand["steps"]
    assert steps[0]["kind"] == "deal" and steps[0]["move"] is None
    for step in steps:
        assert every_card(step) == packs, step["line"]
        assert step["table"]["hand_sizes"] == [len(h) for h in step["hands"]]
    for before, step in zip(steps, steps[1:]):
        line = lines[step["line"] - 1]
        assert step["kind"] == "move" and line["type"] == "move"
        assert (step["seat"], step["move"], step["auto"]) == (
            line["seat"],
            str(Move.from_json(line)),
            bool(line.get("auto")),
        )
        assert before["turn"] == step["seat"]
        assert step["why"] and step["words"].startswith(f"seat {step['seat']} (")
    assert steps[-1]["turn"] is None and hand["result"] is not None


def test_a_whole_michigan_deal(tmp_path):
    played = record(tmp_path, "michigan", 4, {"deals": 1})
    replay = hand_steps(played)
    assert (replay["format"], replay["rules"], replay["module"], replay["unit"]) == (
        FORMAT,
        "michigan",
        "michigan",
        "counters",
    )
    assert [s["name"] for s in replay["seats"]] == [s["name"] for s in verify(played).seats]
    [hand] = replay["hands"]
    check_hand(played, hand, Counter(codes(pack())))
    moves = [json.loads(line) for line in played.splitlines() if '"type":"move"' in line]
    assert len(hand["steps"]) == 1 + len(moves) == 1 + replay["moves"]
    # The extra hand is face up until the dealer decides; the first step says what he did.
    assert any(p["place"] == "in the extra hand" for p in hand["steps"][0]["places"])
    decided = hand["steps"][1]
    assert decided["seat"] == hand["dealer"] and decided["why"].startswith("the dealer ")
    # The counters: the layout is staked at the deal, and the last step's net is the hand's score.
    assert sum(hand["steps"][0]["table"]["layout"].values()) > 0
    assert hand["steps"][-1]["table"]["net"] == hand["result"]["scores"]
    assert hand["result"]["totals"] == [t + s for t, s in zip(hand["steps"][-1]["totals"], hand["result"]["scores"])]
    assert hand["result"]["totals"] == verify(played).to_json()["hands"][0]["totals"]
    # Every card played is in a run once the deal is over.
    runs = [c for run in hand["steps"][-1]["table"]["runs"] for c in run]
    played_cards = [s["move"].split()[1] for s in hand["steps"][1:] if s["move"].startswith("play")]
    assert sorted(runs) == sorted(played_cards)


def test_a_whole_crazy_eights_hand_with_restocks():
    played = GOLDEN.read_text()
    replay = hand_steps(played)
    report = verify(played)
    assert len(replay["hands"]) == len(report.hands)
    for hand in replay["hands"]:
        check_hand(played, hand, Counter(codes(pack())))
    first = replay["hands"][0]
    restocks = [s for s in first["steps"] if any(e.startswith("the stock ran out: restock") for e in s["events"])]
    assert len(restocks) == report.hands[0].summary.to_json()["restocks"].__len__() == 2
    for step in restocks:
        assert step["move"] == "draw" and "from a new stock" in step["why"]
        assert step["table"]["restocks"] >= 1
    # The deal as the replayer shows it is the verifier's deal.
    assert first["steps"][0]["hands"] == report.hands[0].deal
    assert first["result"]["totals"] == list(report.hands[0].totals)
    assert replay["standings"] == report.to_json()["standings"]


def test_the_words_are_fairdeal_verify_moves():
    """Each move's words are the line `fairdeal-verify --moves` prints for it."""
    played = GOLDEN.read_text()
    golden = (GOLDEN.parent / "crazy-eights-4p-moves-hand3.txt").read_text().splitlines()
    printed = {int(m.group(1)): m.group(2) for m in (re.match(r"line (\d+): (.*)", line) for line in golden) if m}
    hand3 = hand_steps(played)["hands"][2]
    shown = {s["line"]: s["words"] for s in hand3["steps"][1:]}
    assert printed and shown == printed


def test_a_record_that_does_not_verify_is_refused(tmp_path):
    lines = [json.loads(line) for line in GOLDEN.read_text().splitlines()]
    n = next(i for i, line in enumerate(lines) if line["type"] == "move" and line["move"] == "play")
    lines[n]["card"] = "KD" if lines[n]["card"] != "KD" else "QD"
    with pytest.raises(
        ReplayError, match=rf"^the record does not verify, so its hands are not replayed: line {n + 1}: "
    ):
        hand_steps(text(lines))


def test_a_record_whose_seed_is_not_revealed_is_refused():
    lines = [json.loads(line) for line in GOLDEN.read_text().splitlines()]
    with pytest.raises(ReplayError, match="the server seed is not revealed"):
        hand_steps(text(lines[:-1]))
    with pytest.raises(ValueError):
        hand_steps("")


# -- the rule that allowed a move, family by family ----------------------------------------


def whys(tmp_path, rules: str, seats: int) -> list[str]:
    replay = hand_steps(record(tmp_path, rules, seats, bot="random", seed="why"))
    return [s["why"] for h in replay["hands"] for s in h["steps"][1:]]


CARD = r"(10|[2-9AJQK])[♣♦♥♠]"
FAMILIES = {
    "crazy-eights": [
        rf"^{CARD} on {CARD}: (same suit|same rank|\w+ were named)$",
        r"an eight is wild: names \w+\)?$",
        r"^no card fits: draws$",
        r"^plays the card just drawn \(",
    ],
    "eights": [rf"^{CARD} on {CARD}: (same suit|same rank)$", r"^an eight is wild: names \w+$"],
    "go-boom": [
        rf"^{CARD} leads the round: any card may lead$",
        rf"^{CARD} on {CARD}: same (suit|rank)$",
        r"^no card matches: draws$",
    ],
    "fan-tan": [
        rf"^{CARD} starts the \w+ row$",
        rf"^{CARD} goes next to {CARD} on the \w+ row$",
        r"^cannot play: passes and pays 1 chip$",
    ],
    "sequence": [rf"^{CARD} starts a new run: the lowest \w+ in hand$", rf"^{CARD} follows {CARD} in the run$"],
    "michigan": [r"^the dealer (keeps|takes|puts) ", rf"^{CARD} follows {CARD} in the run$"],
    "snip-snap-snorem": [
        rf"^{CARD} starts a new group: any card may lead$",
        rf"^{CARD} carries the group on: the next card is an? \w+$",
        r"^cannot carry the group on \(the next card is an? \w+\): passes$",
    ],
    "rolling-stone": [
        rf"^{CARD} leads the trick: any card may lead$",
        rf"^{CARD} follows suit: \w+ were led$",
        r"^holds no \w+: cannot follow, picks up the trick$",
    ],
}


@pytest.mark.parametrize("rules", sorted(FAMILIES))
def test_why_legal_says_the_familys_rule(tmp_path, rules):
    seats = 4 if RULES[rules].max_seats >= 4 else RULES[rules].min_seats
    said = whys(tmp_path, rules, seats)
    for pattern in FAMILIES[rules]:
        assert any(re.search(pattern, why) for why in said), (pattern, sorted(set(said))[:20])


def test_why_legal_of_a_chosen_position():
    rules = get("crazy-eights")
    state, _ = rules.deal(2, 1, 1, lambda label, cards: list(cards)[::-1])
    view = rules.view(state, state.turn)
    top, said = view.top, {}
    for move in rules.legal_moves(view):
        said[str(move)] = rules.why_legal(view, move)
    for move, why in said.items():
        card = move.split()[1] if move.startswith("play") else None
        if card and card[0] == "8":
            assert why == f"an eight is wild: names {dict(C='clubs', D='diamonds', H='hearts', S='spades')[move[-1]]}"
        elif card:
            same = "same suit" if card[1] == top.code[1] else "same rank"
            assert why.endswith(f"on {top.display}: {same}"), why
    assert said["draw"] in ("no card fits: draws", "a card fits, but drawing is allowed: draws")
    # Every game has a sentence for every legal move of the first seat to act.
    for name, cls in RULES.items():
        game = get(name)
        state, _ = game.deal(cls.min_seats, 0, 1, GameShuffle(game_key("00" * 32, f"why-{name}", [""] * cls.min_seats)))
        view = game.view(state, state.turn)
        for move in game.legal_moves(view):
            why = game.why_legal(view, move)
            assert why and "\n" not in why, (name, move)
