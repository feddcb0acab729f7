"""Simulated rounds of Eleusis verify: the records ``fairdeal simulate`` writes for 4 to 8
players, the server dealing and the seats dealing in turn, heuristic and random bots.

Every round's rule is committed, revealed and re-judged play by play by the verifier. The bots'
reasoning is most of the time, so the number of rounds is what the test needs (:data:`ROUNDS`).
"""

from __future__ import annotations

from collections import Counter

from fairdeal.simulate import simulate
from fairdeal.verification import verify

ROUNDS = 120
"""About 20 games (a round for each player): every player count with either dealer twice or
more. With these seeds every kind of line and move, a seat writing the rule, and both ends of a
round (a player out, the layout blocked) first come within the first 55 rounds (measured over
1,000 rounds, which this test played before)."""


def test_simulated_rounds_verify(tmp_path):
    rounds = 0
    seen: Counter[tuple[int, int]] = Counter()
    ends: Counter[str] = Counter()
    game = 0
    while rounds < ROUNDS:
        players, dealer = 4 + game % 5, game // 5 % 2
        (path,) = simulate(
            "eleusis",
            players,
            1,
            tmp_path / str(game),
            seed=f"many-{game}",
            bot="mixed",
            options={"dealer": dealer, "rounds": 0},
        )
        report = verify(path.read_text())
        assert report.verified, f"{path.name}: {report.error}"
        assert len(report.hands) == players and report.standings is not None
        rounds += len(report.hands)
        seen[players, dealer] += 1
        ends.update(hand.how for hand in report.hands)
        game += 1
    assert set(seen) == {(p, d) for p in range(4, 9) for d in (0, 1)}
    assert ends["out"] > ROUNDS / 2 and ends["blocked"]  # most rounds end when a player has no cards left
