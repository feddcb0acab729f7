"""The ``>>>`` examples in the service's docstrings (and the embedding example of the package) are true."""

import doctest

import pytest

import fairdeal
import fairdeal.service.app
import fairdeal.service.cli
import fairdeal.service.dealing
import fairdeal.service.errors
import fairdeal.service.games.timekeeping
import fairdeal.service.keys
import fairdeal.service.limits
import fairdeal.service.schemas
import fairdeal.service.settings
import fairdeal.service.store
import fairdeal.service.store.base
import fairdeal.service.timer

MODULES = [
    fairdeal,
    fairdeal.service.app,
    fairdeal.service.cli,
    fairdeal.service.dealing,
    fairdeal.service.errors,
    fairdeal.service.games.timekeeping,
    fairdeal.service.keys,
    fairdeal.service.limits,
    fairdeal.service.schemas,
    fairdeal.service.settings,
    fairdeal.service.store,
    fairdeal.service.store.base,
    fairdeal.service.timer,
]


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__)
def test_docstring_examples(module):
    failed, attempted = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert attempted > 0
    assert failed == 0
