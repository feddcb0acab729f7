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


def test_the_core_modules_have_examples():
    for name in (
        "fairdeal",
        "fairdeal.cards",
        "fairdeal.fairness",
        "fairdeal.rules",
        "fairdeal.table",
        "fairdeal.verification.replay",
    ):
        tests = doctest.DocTestFinder().find(importlib.import_module(name))
        assert sum(len(t.examples) for t in tests) > 0, name
