"""The ``>>>`` examples in the core modules' docstrings are true."""

import doctest

import pytest

import fairdeal.cards
import fairdeal.cli
import fairdeal.fairness


@pytest.mark.parametrize("module", [fairdeal.cards, fairdeal.fairness, fairdeal.cli], ids=lambda m: m.__name__)
def test_docstring_examples(module):
    failed, attempted = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert attempted > 0
    assert failed == 0
