"""Copies of a frozen, slotted state with some fields changed, made fast: a verifier replays every
move through its rules, and most of a move's time went to :func:`dataclasses.replace`. The rules'
state classes share these (:mod:`fairdeal.rules.base` re-exports them)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from typing import Any
from typing import TypeVar

__all__ = ["fast_replace", "fast_update"]

T = TypeVar("T")


def fast_replace(cls: type[T]) -> Callable[..., T]:
    """``dataclasses.replace`` for one frozen, slotted state class, about four times as fast.

    A verifier replays every move through its rules, and most of a move's time
    went to ``dataclasses.replace``; the state classes share this one helper.
    Like the ``__init__`` that :mod:`dataclasses` writes, it is Python source made
    for the class: one keyword per field and a line per field (see :func:`_copier`).
    Made once per class: code shared by several games' states asks for it by the state's type.

    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True, slots=True)
    ... class Point:
    ...     x: int
    ...     y: int = 0
    >>> fast_replace(Point)(Point(1, 2), y=5)
    Point(x=1, y=5)
    >>> fast_replace(Point)(Point(1, 2), z=5)
    Traceback (most recent call last):
    ...
    TypeError: Point has no field 'z'
    """
    replace: Callable[..., T] | None = _REPLACERS.get(cls)
    if replace is None:
        replace = _REPLACERS[cls] = _make_replace(cls)
    return replace


_REPLACERS: dict[type, Callable[..., Any]] = {}
""":func:`fast_replace`'s functions, one per class (a dict: functools.cache would forget their type)."""


def _make_replace(cls: type[T]) -> Callable[..., T]:
    names = [f.name for f in fields(cls)]  # type: ignore[arg-type]  # (T: a dataclass, as said)
    header = [
        f"def replace(_fr_state, /, *, {''.join(f'{name}=_fr_keep, ' for name in names)}**_fr_unknown):\n",
        "    if _fr_unknown:\n",
        "        raise TypeError(f'{_fr_cls.__name__} has no field {next(iter(_fr_unknown))!r}')\n",
    ]
    values = {name: f"_fr_state.{name} if {name} is _fr_keep else {name}" for name in names}
    return _copier(cls, "fast_replace", header, values)


def fast_update(cls: type[T], *changed: str) -> Callable[..., T]:
    """A copy of a state of ``cls`` with the fields ``changed`` set, given in that order, and
    the others kept: for a move that always sets the same fields, a little quicker still than
    :func:`fast_replace` (no keyword to match, no test of which fields were given).

    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True, slots=True)
    ... class Point:
    ...     x: int
    ...     y: int = 0
    >>> fast_update(Point, "y")(Point(1, 2), 5)
    Point(x=1, y=5)
    """
    names = [f.name for f in fields(cls)]  # type: ignore[arg-type]  # (T: a dataclass, as said)
    unknown = [name for name in changed if name not in names]
    if unknown or len(set(changed)) != len(changed):
        raise TypeError(f"{cls.__name__} has no field {unknown[0]!r}" if unknown else "a field named twice")
    header = [f"def update(_fr_state{''.join(f', {name}' for name in changed)}, /):\n"]
    values = {name: name if name in changed else f"_fr_state.{name}" for name in names}
    return _copier(cls, "fast_update", header, values)


def _copier(cls: type[T], maker: str, header: list[str], values: dict[str, str]) -> Callable[..., T]:
    """The function whose source is ``header`` and then a copy of ``_fr_state`` with each field
    set to its expression in ``values``.

    The copy is filled in as an instance of a plain class with the same slots and bases (a frozen
    class refuses assignment, and setting a slot through its descriptor is a call per field), then
    made an instance of ``cls``: CPython allows that between classes whose instances are laid
    out alike, and it is checked once here.
    """
    # Every name of the function's own starts with _fr_: a field name never does.
    if any(name.startswith("_fr_") for name in values):  # pragma: no cover
        raise TypeError(f"{cls.__name__} has a field named _fr_...: {maker} cannot build its copier")
    scope: dict[str, Any] = {"_fr_new": object.__new__, "_fr_cls": cls, "_fr_keep": _KEEP_FIELD}
    # On the class's own bases, so that a state adding fields to a base state's (HandState's) is
    # laid out alike; with object's setting and deleting of attributes, which a frozen base refuses
    # (both: a class that overrides either one sets every attribute through a Python call).
    own = {
        "__slots__": cls.__dict__.get("__slots__", ()),
        "__setattr__": object.__setattr__,
        "__delattr__": object.__delattr__,
    }
    blank = type(f"_Blank{cls.__name__}", cls.__bases__, own)
    try:
        probe: Any = object.__new__(blank)
        for name in values:
            object.__setattr__(probe, name, None)
        probe.__class__ = cls
        laid_out_alike = all(getattr(probe, name) is None for name in values)
    except (TypeError, AttributeError):  # pragma: no cover - another layout
        laid_out_alike = False
    if laid_out_alike:
        scope["_fr_blank"] = blank
        body = [
            "    _fr_copy = _fr_new(_fr_blank)\n",
            *(f"    _fr_copy.{name} = {value}\n" for name, value in values.items()),
            "    _fr_copy.__class__ = _fr_cls\n",
        ]
    else:  # pragma: no cover
        scope.update({f"_fr_set_{name}": getattr(cls, name).__set__ for name in values})
        body = [
            "    _fr_copy = _fr_new(_fr_cls)\n",
            *(f"    _fr_set_{name}(_fr_copy, {value})\n" for name, value in values.items()),
        ]
    exec("".join([*header, *body, "    return _fr_copy\n"]), scope)  # (as dataclasses makes __init__)
    copier: Callable[..., T] = next(value for key, value in scope.items() if key in ("replace", "update"))
    copier.__qualname__ = f"{maker}({cls.__name__})"
    return copier


_KEEP_FIELD = object()
"""The default of every keyword of a :func:`fast_replace` function: that field is kept."""
