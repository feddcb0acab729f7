"""Every ``>>>`` example in the package's docstrings is true: each module of fairdeal and verifier."""

import doctest
import importlib
import pkgutil

import pytest

import fairdeal
import verifier


def _modules() -> list[str]:
    names = []
    for package in (fairdeal, verifier):
        names.append(package.__name__)
        names.extend(info.name for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."))
    return sorted(names)


MODULES = _modules()


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    failed, _ = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert failed == 0


EXAMPLES = {
    "fairdeal": 1,
    "fairdeal.bots": 1,
    "fairdeal.cards": 1,
    "fairdeal.fairness": 1,
    "fairdeal.rules": 1,
    "fairdeal.rules.base": 6,
    "fairdeal.rules.commit": 6,
    "fairdeal.rules.eights": 6,
    "fairdeal.rules.fan_tan": 1,
    "fairdeal.rules.go_boom": 6,
    "fairdeal.rules.hollywood": 4,
    "fairdeal.rules.michigan": 6,
    "fairdeal.rules.position": 1,
    "fairdeal.rules.rolling_stone": 1,
    "fairdeal.rules.sequence": 6,
    "fairdeal.rules.snip_snap": 1,
    "fairdeal.simulate": 1,
    "fairdeal.table": 1,
    "fairdeal.verification.replay": 1,
}
"""The modules whose docstrings show their use, and how many examples each has at least (the tests
above check that every example of every module is true)."""


@pytest.mark.parametrize(("name", "least"), EXAMPLES.items())
def test_the_modules_that_show_their_use_have_examples(name, least):
    tests = doctest.DocTestFinder().find(importlib.import_module(name))
    assert sum(len(t.examples) for t in tests) >= least
