"""How the commands take input: :func:`user_input` turns a :class:`ValueError` into a
one-line ``Error: ...`` and exit code 2, with any long hex (a server seed) hidden.

It is a module of its own so that every command module (:mod:`fairdeal.cli`,
:mod:`fairdeal.simulate`) can use it without importing another command module.

>>> import click
>>> @click.command()
... def demo() -> None:
...     with user_input():
...         raise ValueError("no seed " + "0f" * 32)
>>> from click.testing import CliRunner
>>> result = CliRunner().invoke(demo)
>>> result.exit_code, result.output
(2, 'Error: no seed <hex hidden>\\n')
"""

from __future__ import annotations

import re
from collections.abc import Callable
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TypeVar

import click

__all__ = ["InputError", "redact", "user_input", "witness_options"]

Command = TypeVar("Command", bound=Callable[..., None])

# A server seed is secret until the end of its game; a mistyped command
# (a seed without its option name, say) must not print it back. Any long
# run of hex digits in an error message is hidden, whatever it was.
_LONG_HEX = re.compile(r"[0-9a-fA-F]{16,}")


def redact(message: str) -> str:
    """``message`` with every long run of hex digits hidden.

    >>> redact("bad seed " + "ab" * 32)
    'bad seed <hex hidden>'
    """
    return _LONG_HEX.sub("<hex hidden>", message)


class InputError(click.ClickException):
    """Input the protocol refuses: printed as one ``Error: ...`` line, exit code 2."""

    exit_code = 2

    def __init__(self, message: str) -> None:
        super().__init__(redact(" ".join(message.split())))


@contextmanager
def user_input() -> Iterator[None]:
    """Report a :class:`ValueError` raised inside as bad input (exit code 2).

    :class:`~fairdeal.fairness.FairnessError` and :class:`~fairdeal.cards.CardError`
    are both ``ValueError``, and their messages already say what was wrong
    without repeating a seed; they are shown on one line, long hex hidden.
    """
    try:
        yield
    except ValueError as error:
        raise InputError(str(error)) from None


def witness_options(needs: str = "") -> Callable[[Command], Command]:
    """``--witness VKEY`` (repeatable, as ``witnesses``) and ``--quorum K``: the witnesses whose
    cosignatures of a log's checkpoint count, and how many of them must have cosigned it
    (:func:`fairdeal.cosignature.witness_policy` checks the two). ``needs``: the option they go
    with, if any (``"--log"``), for the help."""
    with_ = f"With {needs}: a" if needs else "A"

    def add(command: Command) -> Command:
        command = click.option(
            "--quorum",
            type=int,
            default=None,
            metavar="K",
            help="How many of the --witness keys must have cosigned the checkpoint (default: all).",
        )(command)
        return click.option(
            "--witness",
            "witnesses",
            multiple=True,
            metavar="VKEY",
            help=f"{with_} witness whose cosignature of the checkpoint counts: its verifier key "
            "(name+keyid+base64). Repeatable.",
        )(command)

    return add
