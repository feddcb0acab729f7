"""fairdeal: provably-fair card dealing for the Stops family of card games.

The public pieces:

- :mod:`fairdeal.cards`: cards, packs, codes and display;
- :mod:`fairdeal.fairness`: fairness protocol v1 and the embeddable :class:`~fairdeal.fairness.Dealer`.
"""

__version__ = "0.1.0"
