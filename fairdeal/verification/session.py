"""Dealing-session records (spec/sessions.md): the same format as a game's, other line types.

A session is fairness protocol v1 without a game: client seeds, then shuffles of
any cards under the operator's labels, then the reveal. A verifier checks the
chain and signatures, the commit-reveal, the server seed against its
commitment and that every shuffle line is a well-formed request; after the
reveal it derives each shuffle's order (the record never holds it), which
the operator's game is then checked against by whoever knows that game.

:func:`fairdeal.verification.verify` hands a record whose header says ``"kind":
"session"`` to :func:`verify_session`; its :class:`~fairdeal.verification.replay.Report`
then has ``kind == "session"`` and the derived ``shuffles``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from fairdeal.cards import ALL_CARDS
from fairdeal.cards import codes
from fairdeal.cards import parse_cards
from fairdeal.fairness import PROTOCOL
from fairdeal.fairness import SEED_LINES
from fairdeal.fairness import FairnessError
from fairdeal.fairness import SeedPhase
from fairdeal.fairness import check_game_id
from fairdeal.fairness import check_label
from fairdeal.fairness import game_key
from fairdeal.fairness import shuffle
from fairdeal.record import FORMATS
from fairdeal.said import Said
from fairdeal.verification.replay import NOT_REVEALED
from fairdeal.verification.replay import Report
from fairdeal.verification.replay import _check_times
from fairdeal.verification.replay import _Fail
from fairdeal.verification.replay import _header_and_chain
from fairdeal.verification.replay import _header_keys
from fairdeal.verification.replay import _no_extra
from fairdeal.verification.replay import _Replay
from fairdeal.verification.replay import _seed_line
from fairdeal.verification.replay import _show
from fairdeal.verification.replay import unknown_format
from fairdeal.verification.replay import unknown_protocol

__all__ = ["verify_session", "MAX_SESSION_SEATS", "MAX_SHUFFLE_CARDS"]

MAX_SESSION_SEATS = 16
MAX_SHUFFLE_CARDS = 1024
MAX_PREFIX = 32

_HEADER_FIELDS = frozenset(
    {
        "type",
        "format",
        "protocol",
        "kind",
        "game_id",
        "rules",
        "seats",
        "label_prefix",
        "commitment",
        "server_key",
        "created",
        "at",
    }
)
_CODES = frozenset(card.code for card in ALL_CARDS)
_PREFIX = re.compile(r"[a-z0-9/_-]*")


def verify_session(
    lines: Sequence[dict[str, Any]], hashes: list[str] | None, report: Report, key: str | None
) -> Report:
    """Check a session record; ``report`` may already hold an unreadable line's failure."""
    report.kind = "session"
    report.shuffles = []
    replay = _Replay(lines, report, None)
    end = _header_and_chain(lambda: _header(lines[0], report, key), lines, report, hashes)
    if end is None:
        return report
    try:
        seed = replay.server_seed()
        _lines(lines, end, report, seed)
        if report.error is None and lines[-1].get("type") != "reveal":
            raise _Fail(end - 1, NOT_REVEALED)
    except _Fail as failure:
        report.fail(failure.index + 1, failure.reason)
    # Format 2: every line's at well formed, never going back (after the lines' own checks).
    _check_times(lines, len(lines) if report.error is None else report.error.line, report)
    report.verified = report.error is None
    return report


def _header(line: dict[str, Any], report: Report, key: str | None) -> None:
    if line.get("format") not in FORMATS:
        raise _Fail(0, unknown_format(line.get("format")))
    if line.get("protocol") != PROTOCOL:
        raise _Fail(0, unknown_protocol(line.get("protocol")))
    for field in sorted(set(line) - _HEADER_FIELDS - {"seq", "prev", "sig"}):
        raise _Fail(0, Said("a session header has no field {field}", field=repr(field)))
    try:
        report.game_id = check_game_id(line.get("game_id"))
    except FairnessError as exc:
        raise _Fail(0, Said("header game_id: {reason}", reason=str(exc))) from None
    if line.get("rules", _Fail) is not None:
        raise _Fail(0, Said("a session header has rules null"))
    seats = line.get("seats")
    if type(seats) is not int or not 1 <= seats <= MAX_SESSION_SEATS:
        raise _Fail(
            0,
            Said(
                "session seats {seats}: a session has 1 to {most} client seeds",
                seats=_show(seats),
                most=MAX_SESSION_SEATS,
            ),
        )
    prefix = line.get("label_prefix")
    if not isinstance(prefix, str) or len(prefix) > MAX_PREFIX or not _PREFIX.fullmatch(prefix):
        raise _Fail(0, Said("label_prefix is at most {most} characters of a-z 0-9 / _ -", most=MAX_PREFIX))
    report.label_prefix = prefix
    report.seats = [{"seat": s} for s in range(seats)]
    _header_keys(line, report, key)


def _lines(lines: Sequence[dict[str, Any]], end: int, report: Report, seed: str | None) -> None:
    # (The header and verify_session have set them.)
    game_id, prefix, shuffles = report.game_id, report.label_prefix, report.shuffles
    assert game_id is not None and prefix is not None and shuffles is not None
    phase = SeedPhase(len(report.seats))  # every seat of a session brings a client seed
    key: bytes | None = None
    labels: set[str] = set()
    for index in range(1, end):
        line = lines[index]
        kind = line.get("type")
        if kind == "reveal":
            if index + 1 < end:
                raise _Fail(
                    index + 1,
                    Said(
                        "a {kind} line after the reveal: the reveal is the last line",
                        kind=str(lines[index + 1].get("type")),
                    ),
                )
            return
        if kind == "start" and phase.started:
            raise _Fail(index, Said("a second start"))
        if kind in SEED_LINES:
            _seed_line(index, phase, line)
            if kind == "start":
                report.client_seeds = phase.seat_seeds()
                if seed is not None:
                    key = game_key(seed, game_id, report.client_seeds)
        elif kind == "shuffle":
            if not phase.started:
                raise _Fail(index, Said("a shuffle before the start (the client seeds are still open)"))
            shuffles.append(_shuffle(index, line, prefix, labels, key))
        else:
            raise _Fail(index, Said("a {kind} line: a dealing session has none", kind=str(kind)))


def _shuffle(index: int, line: dict[str, Any], prefix: str, labels: set[str], key: bytes | None) -> dict[str, Any]:
    _no_extra(index, line, ("type", "label", "cards", "count"))
    if "sig" not in line:
        raise _Fail(index, Said("a shuffle line is not signed"))
    cards, count = line.get("cards"), line.get("count")
    try:
        label = check_label(line.get("label"))
    except FairnessError as exc:
        raise _Fail(index, Said("shuffle label: {reason}", reason=str(exc))) from None
    if not label.startswith(prefix):
        raise _Fail(
            index,
            Said(
                "shuffle label {label} does not start with the session's prefix {prefix}",
                label=repr(label),
                prefix=repr(prefix),
            ),
        )
    if label in labels:
        raise _Fail(index, Said("label {label} has already dealt in this session", label=repr(label)))
    labels.add(label)
    if not isinstance(cards, list) or not 1 <= len(cards) <= MAX_SHUFFLE_CARDS:
        raise _Fail(index, Said("shuffle cards: a shuffle takes 1 to {most} card codes", most=MAX_SHUFFLE_CARDS))
    for code in cards:
        if code not in _CODES:
            raise _Fail(
                index, Said("shuffle cards: {code} is not a card code (A23456789TJQK then CDHS)", code=_show(code))
            )
    if type(count) is not int or count != len(cards):
        raise _Fail(index, Said("shuffle count {count} but it lists {n} cards", count=_show(count), n=len(cards)))
    derived = {"label": label, "count": count, "cards": list(cards), "line": index + 1}
    if key is not None:
        derived["order"] = codes(shuffle(key, label, parse_cards(cards)))
    return derived
