"""Statistical checks that the shuffle treats every order alike.

Both tests are Pearson chi-square tests at significance level alpha = 0.001.
Their inputs are fixed (one fixed server seed, labels numbered from 0), so
each statistic is one fixed number: the test cannot flake, and a change to
the shuffle that made it fail would be a change worth looking at.

scipy is not a dependency, so the critical values are hard-coded. They are
the 0.999 quantiles of the chi-square distribution, computed by bisection on
the regularized upper incomplete gamma function Q(dof/2, x/2) (series and
continued fraction, as in Numerical Recipes §6.2), and agree with printed
tables (49.728 for 23 degrees of freedom) and with the Wilson-Hilferty
approximation (2829.60 for 2601).
"""

import itertools
from collections import Counter

from fairdeal.cards import pack
from fairdeal.fairness import game_key
from fairdeal.fairness import shuffle

KEY = game_key("5eed" * 16, "uniformity", ["alice", "bob"])

CHI2_999_DOF_23 = 49.728  # 24 orders of 4 cards: 23 degrees of freedom
CHI2_999_DOF_2601 = 2829.59  # 52 cards x 52 positions: (52 - 1) ** 2 degrees of freedom


def test_all_24_orders_of_four_cards_are_equally_likely():
    """24,000 labels ``u/{i}`` each shuffle four cards; every order should come up about 1,000 times."""
    cards = ("AC", "2C", "3C", "4C")
    counts = Counter(tuple(shuffle(KEY, f"u/{i}", cards)) for i in range(24_000))
    assert set(counts) == set(itertools.permutations(cards))
    expected = 24_000 / 24
    statistic = sum((observed - expected) ** 2 / expected for observed in counts.values())
    assert statistic < CHI2_999_DOF_23, counts


def test_every_card_is_equally_likely_at_every_position():
    """10,000 shuffles of a full pack: each (card, position) cell should hold about 10,000 / 52.

    Each shuffle puts every card in exactly one position and every position
    holds exactly one card, so the table's row and column sums are fixed and
    only (52 - 1) ** 2 cells vary freely. For sums of uniform random
    permutation matrices the Pearson statistic sum((O - E)**2 / E) then tends
    to 52/51 times a chi-square with (52 - 1) ** 2 degrees of freedom (the
    covariance of one permutation matrix is 1/(n - 1) times the projection on
    that subspace, by symmetry), so the statistic is scaled by 51/52 before
    it is compared.
    """
    shuffles, n = 10_000, 52
    cards = pack()
    table = [[0] * n for _ in range(n)]
    for i in range(shuffles):
        for position, card in enumerate(shuffle(KEY, f"p/{i}", cards)):
            table[card.index][position] += 1
    expected = shuffles / n
    assert all(row_total == shuffles for row_total in map(sum, table))
    pearson = sum((observed - expected) ** 2 / expected for row in table for observed in row)
    statistic = pearson * (n - 1) / n
    assert statistic < CHI2_999_DOF_2601
    # And no single cell is wildly off: 5 standard deviations of a binomial(10,000, 1/52).
    sd = (shuffles * (1 / n) * (1 - 1 / n)) ** 0.5
    assert all(abs(observed - expected) < 5 * sd for row in table for observed in row)
