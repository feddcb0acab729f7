"""The request bodies the API accepts, each field with its size limit (a wrong one answers 422).

Each bound is the schema's too (``/openapi.json``): what a field's schema allows, the model reads,
and what it forbids, the model refuses. A whole number is written ``5`` or ``5.0``:

>>> ShuffleIn.model_validate({"label": "deal", "packs": 5.0}).packs
5
>>> ShuffleIn.model_json_schema()["properties"]["packs"]["anyOf"][0]
{'maximum': 19, 'minimum': 1, 'type': 'integer'}
"""

from __future__ import annotations

from typing import Annotated
from typing import Any

from fastapi import Request
from fastapi.exceptions import RequestValidationError
from pydantic import BaseModel
from pydantic import BeforeValidator
from pydantic import ConfigDict
from pydantic import Field
from pydantic import PrivateAttr
from pydantic import Strict
from pydantic import StrictBool
from pydantic import StringConstraints
from pydantic import field_validator
from pydantic import model_validator

from fairdeal.fairness import MAX_CLIENT_SEED_BYTES
from fairdeal.rules import DEFAULT
from fairdeal.rules import RULES
from fairdeal.rules import Move
from fairdeal.rules.move import members as move_members
from fairdeal.service.dealing import MAX_SESSION_SEATS
from fairdeal.service.dealing import MAX_SHUFFLE_CARDS
from fairdeal.table import MAX_NAME_CHARS

__all__ = [
    "one_value_each",
    "SeatIn",
    "CreateGame",
    "CommitIn",
    "RevealIn",
    "MoveIn",
    "AbandonIn",
    "CreateSession",
    "ShuffleIn",
    "MAX_SEATS",
]

MAX_SEATS = max(cls.max_seats for cls in RULES.values())
"""The most seats any game has (the catalogue's largest ``max_seats``)."""
HEX64 = r"^[0-9a-fA-F]{64}$"
LABEL = r"^[a-z0-9/_-]{1,64}$"

OptionName = Annotated[str, StringConstraints(min_length=1, max_length=40)]
CardCode = Annotated[str, StringConstraints(max_length=3, pattern=r"^(?:[2-9AaTtJjQqKk]|10)[CDHScdhs]$")]
"""A card code as :meth:`Card.parse <fairdeal.cards.Card.parse>` reads it (``AS``, ``10h``, ``td``): the
schema says exactly which, so that every code it allows is a card (a shuffle of ``"b"`` was a 422 the
schema did not foresee)."""
HostId = Annotated[
    str,
    # The server refuses a host_id starting "ip-" (the log's pseudonyms of addresses), with its reason
    # (PublicLog.host_of): the schema says so with a lookahead, which pydantic's patterns do not have.
    Field(pattern=r"^[A-Za-z0-9._-]{1,64}$", json_schema_extra={"pattern": r"^(?!ip-)[A-Za-z0-9._-]{1,64}$"}),
]


def _whole(value: Any) -> Any:
    # JSON Schema's "integer" is any number with no fraction (5.0 is one); a string or a boolean is not.
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError("must be a whole number")
    return value


def _whole_float(value: Any) -> Any:
    """``value``, but a float with no fraction the int it is (``5.0`` is ``5``; ``5.5`` stays)."""
    return int(value) if isinstance(value, float) and value.is_integer() else value


WHOLE = BeforeValidator(_whole)
"""An integer as JSON Schema has it: ``5`` and ``5.0``, never ``"5"`` or ``true``. The last of a
field's metadata, after its bounds: ``Annotated[int, Strict(), Field(ge=1, le=19), WHOLE]``. A bound
given after it (or on the field, around it) is still checked, but pydantic cannot write it into the
schema as ``minimum``/``maximum`` (it wrote ``"ge"``, which JSON Schema ignores): the schema offered
``packs: 457`` and the server refused it (see the module's example)."""


async def one_value_each(request: Request) -> None:
    """The dependency of a route with query parameters: one given twice (``?index=1&index=2``) is a
    422, as a value that does not fit its schema. Each of the API's query parameters takes one value,
    which FastAPI would read as the last one given, silently (``Depends(one_value_each)``)."""
    query = request.query_params
    for name in query:
        values = query.getlist(name)
        if len(values) > 1:
            raise RequestValidationError(
                [
                    {
                        "type": "one_value",
                        "loc": ("query", name),
                        "msg": f"{name} takes one value, not {len(values)}",
                        "input": values,
                    }
                ]
            )


Number = Annotated[float, Strict()]
"""A number as JSON Schema has it: ``5`` or ``0.5``, never ``"5"`` or ``false`` (which pydantic's lax
float read as 5.0 and 0.0, where the schema's ``"number"`` refuses them)."""


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class SeatIn(_Body):
    name: str = Field(min_length=1, max_length=MAX_NAME_CHARS, examples=["Ann"])
    bot: StrictBool = False


class CreateGame(_Body):
    rules: str = Field(DEFAULT, min_length=1, max_length=40)
    options: dict[OptionName, Annotated[int, Strict(), Field(ge=-1_000_000, le=1_000_000), WHOLE]] = Field(
        default_factory=dict, max_length=8, examples=[{"target": 100, "restock_limit": 20}]
    )
    seats: list[SeatIn] = Field(min_length=1, max_length=MAX_SEATS)
    turn_seconds: Number | None = Field(
        None, ge=0.1, le=86400, allow_inf_nan=False, description="A human seat's time for one turn (default 20)."
    )
    bot_seconds: Number | None = Field(
        None,
        ge=0,
        le=10,
        allow_inf_nan=False,
        description="How long a bot waits before it moves (default: the server's, 1, at a table with people; 0 for bots alone).",
    )
    next_hand_seconds: Number | None = Field(
        None,
        ge=0,
        le=120,
        allow_inf_nan=False,
        description="The pause between hands for the people to be ready (default: the server's, 20, at a table "
        "with people; 0 for bots alone; 0 deals the next hand at once).",
    )
    host_id: HostId | None = Field(
        None,
        examples=["alice"],
        description="Who opens it, as the transparency log's start entry says (an account name of the operator's; "
        "not one starting ip-). Without it the log names the client address's pseudonym (spec/log.md).",
    )


class CommitIn(_Body):
    commitment: str = Field(
        pattern=HEX64,
        description='SHA-256(lp("fairdeal/v1/client") || lp(seed)), 64 hex digits (see `fairdeal commitment`).',
    )


def _seed_size(seed: str) -> str:
    size = len(seed.encode("utf-8", "surrogatepass"))
    if size > MAX_CLIENT_SEED_BYTES:
        raise ValueError(f"a client seed is at most {MAX_CLIENT_SEED_BYTES} UTF-8 bytes, this one is {size}")
    return seed


class RevealIn(_Body):
    # The protocol bounds a seed in UTF-8 bytes (spec/fairness.md), which JSON Schema cannot count: the
    # schema gives the bound it can (128 characters, which every seed of 128 bytes is within) and the
    # byte bound as x-maxBytes, and a seed within the first but over the second is a 422 that says so.
    seed: str = Field(
        max_length=MAX_CLIENT_SEED_BYTES,
        json_schema_extra={"x-maxBytes": MAX_CLIENT_SEED_BYTES},
        description="The client seed committed to: at most 128 UTF-8 bytes (x-maxBytes), so at most 128 characters.",
    )

    _check_seed = field_validator("seed")(_seed_size)


class MoveIn(_Body):
    """A seat's move: ``move`` names its kind, and the members its game declares for that kind
    follow (:class:`fairdeal.rules.MoveKind`; the OpenAPI document gives one schema per kind, made
    from the declarations). What the members hold is read by :meth:`Move.from_json`."""

    model_config = ConfigDict(extra="allow")

    seq: Annotated[int, Strict(), Field(ge=0, le=1_000_000_000), WHOLE] = Field(
        description="The record length the move was chosen on (the view's seq)."
    )
    move: str = Field(min_length=1, max_length=32, examples=["play"])
    seat: Annotated[int, Strict(), Field(ge=0, le=MAX_SEATS - 1), WHOLE] | None = Field(
        None, description="Optional: the seat the token must be."
    )

    _move: Move = PrivateAttr()

    @model_validator(mode="after")
    def _read(self) -> MoveIn:
        # The declarations are the schema: a member no kind declares, or one its kind does not
        # read or holds wrongly, is the body's 422 like any other (a MoveError is a ValueError).
        members = move_members()
        for name in self.model_extra or {}:
            if name not in members:
                raise ValueError(f"a move has no member {name!r} (a move's members: {', '.join(members)})")
        # A count written 5.0 is the integer 5, as for the body's own fields (the schema's "integer").
        given = {name: _whole_float(value) for name, value in (self.model_extra or {}).items()}
        self._move = Move.from_json({"move": self.move, **given})
        return self

    def read(self) -> Move:
        """The move the body gives."""
        return self._move


class AbandonIn(_Body):
    reason: str = Field(default="abandoned by the host", min_length=1, max_length=200)


class CreateSession(_Body):
    seats: Annotated[int, Strict(), Field(ge=1, le=MAX_SESSION_SEATS), WHOLE] = Field(
        1, description="How many client seeds the session takes."
    )
    label_prefix: str = Field(
        "", pattern=r"^[a-z0-9/_-]{0,32}$", description="Every shuffle's label must start with it."
    )
    host_id: HostId | None = Field(
        None,
        examples=["alice"],
        description="Who opens it, as the transparency log's start entry says (an account name of the operator's; "
        "not one starting ip-). Without it the log names the client address's pseudonym (spec/log.md).",
    )


class ShuffleIn(_Body):
    # One of the two, as the validator below says: the schema says so too (a null is as good as left out).
    model_config = ConfigDict(
        json_schema_extra={
            "oneOf": [
                {"required": ["cards"], "properties": {"cards": {"type": "array"}}},
                {"required": ["packs"], "properties": {"packs": {"type": "integer"}}},
            ]
        }
    )

    label: str = Field(pattern=LABEL, examples=["round/1/deal"])
    cards: list[CardCode] | None = Field(
        None, min_length=1, max_length=MAX_SHUFFLE_CARDS, examples=[["AS", "KH", "8D"]]
    )
    packs: Annotated[int, Strict(), Field(ge=1, le=MAX_SHUFFLE_CARDS // 52), WHOLE] | None = Field(
        None, description="Shuffle this many full packs in card order."
    )

    @model_validator(mode="after")
    def _one_source(self) -> ShuffleIn:
        if (self.cards is None) == (self.packs is None):
            raise ValueError("give either cards or packs")
        return self
