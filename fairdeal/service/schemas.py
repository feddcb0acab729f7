"""What the API answers: one model per answer, so that ``/openapi.json`` describes every body.

:mod:`fairdeal.service.models` holds what a client sends; this module holds what
the service answers, field for field as :mod:`fairdeal.service.games` and
:mod:`fairdeal.service.sessions` build it. An answer's fields are closed (its
schema has ``additionalProperties: false``, so a field added to an answer but
not here fails tests/service/test_http_contract.py); the parts that are each
game's own (a view's ``table``, what a score sheet keeps besides the totals,
what the verifier reports of a hand) are open objects whose common fields are typed.

Every refusal has one body, :class:`Error`: ``{"detail": ...}``, a sentence,
or for a request that does not fit its schema (422) the list of what did not fit.

>>> Receipt.model_validate({"game_id": "g1", "seq": 3, "hash": "ab" * 32, "sig": "cd" * 64}).seq
3
>>> sorted(Error.model_json_schema()["properties"])
['detail']
"""

from __future__ import annotations

import json
from typing import Annotated
from typing import Any
from typing import Literal

from pydantic import BaseModel
from pydantic import ConfigDict
from pydantic import Field

from fairdeal.rules import DEFAULT
from fairdeal.rules import RULES
from fairdeal.rules.move import declared
from fairdeal.rules.move import kinds

__all__ = [
    "Error",
    "FieldError",
    "ERRORS",
    "errors",
    "OPTIONAL_TOKEN",
    "Health",
    "PublicKey",
    "Catalogue",
    "HowToPlay",
    "Declaration",
    "Receipt",
    "GameCreated",
    "LogAnnounced",
    "LogEntries",
    "LogInclusion",
    "LogConsistency",
    "RecordLog",
    "LogInfo",
    "PublicState",
    "SeatView",
    "CommitAnswer",
    "RevealAnswer",
    "MoveAnswer",
    "VerifyReport",
    "SessionCreated",
    "SessionState",
    "SessionRevealAnswer",
    "Shuffled",
    "ShuffledOrder",
    "SessionEnd",
    "LIVE_EVENT",
]

Hex64 = Annotated[str, Field(pattern=r"^[0-9a-f]{64}$")]
Signature = Annotated[str, Field(pattern=r"^[0-9a-f]{128}$", description="Ed25519, 64 bytes in hex.")]
CardCode = Annotated[str, Field(pattern=r"^[A2-9TJQK][CDHS]$", examples=["9C"])]
SeatNumber = Annotated[int, Field(ge=0)]
Timestamp = Annotated[
    str, Field(description="UTC, ISO 8601 with milliseconds and Z.", examples=["2026-01-01T12:00:00.000Z"])
]


def _absent_not_null(schema: dict[str, Any]) -> None:
    """A field that is left out of the answer, never ``null``: no default in its schema."""
    schema.pop("default", None)


def _sometimes(description: str) -> Any:
    """A field an answer has only sometimes (``server_seed`` once revealed); absent, never ``null``."""
    return Field(None, description=description, json_schema_extra=_absent_not_null)


class _Closed(BaseModel):
    """An answer whose fields are all listed. A field the service adds is kept (``extra="allow"``:
    no answer loses a field on its way out), but the schema does not list it, and the contract
    test fails until it does."""

    model_config = ConfigDict(extra="allow", json_schema_extra={"additionalProperties": False})


class _Open(BaseModel):
    """A part that is each game's own: its common fields typed, the rest whatever the game has."""

    model_config = ConfigDict(extra="allow")


# -- errors ---------------------------------------------------------------------------------------


class FieldError(BaseModel):
    """One thing in a request that does not fit its schema, as FastAPI (pydantic) reports it."""

    model_config = ConfigDict(extra="allow")

    type: str = Field(examples=["missing"])
    loc: list[str | int] = Field(
        description="Where: `body`, `path`, `query` or `header`, then the field.", examples=[["body", "seq"]]
    )
    msg: str = Field(examples=["Field required"])
    input: Any = Field(None, description="What was sent there (text escaped; NaN and Infinity as strings).")
    ctx: dict[str, Any] = _sometimes('What the constraint was (`{"ge": 0.1}`), for some errors.')


class Error(_Closed):
    """Every refusal: ``detail`` says what was wrong, in words a client can act on."""

    detail: str | list[FieldError] = Field(
        description="A sentence; for a request that does not fit its schema (422), what did not fit.",
        examples=["the record is at seq 7, not 6: fetch the view again"],
    )


ERRORS: dict[int, str] = {
    400: "The body could not be read (JSON nested too deep, a number too long).",
    401: "No token, or a token that belongs to nobody here (a `WWW-Authenticate: Bearer` header says so).",
    403: "A valid token for someone who may not do this (another seat, the host making a move).",
    404: "No such game, session, rules or label; or a tree, tile or proof the log does not hold (yet).",
    409: "Too early, too late or second: a stale seq, a step out of order, a lost race. Nothing was written.",
    413: "The request body is over the service's limit (16 KiB by default, `FAIRDEAL_MAX_BODY_BYTES`).",
    422: "The request does not fit its schema, or the rules or the protocol refuse it (an illegal move).",
    429: "Over a limit of this client's: its rate of creates or moves, its running games, its open streams "
    "(a `Retry-After` header says when to try again).",
    503: "Over a limit of the whole service's: its running games (a `Retry-After` header says when to try again).",
}


def errors(*codes: int) -> dict[int | str, dict[str, Any]]:
    """The ``responses=`` of a route that may answer ``codes``, each with the one error body.

    >>> sorted(errors(404, 422))
    [404, 422]
    """
    return {
        code: {"model": Error, "description": ERRORS[code], **({"headers": _CHALLENGE} if code == 401 else {})}
        for code in codes
    }


OPTIONAL_TOKEN: dict[str, Any] = {"security": [{}]}
"""The ``openapi_extra`` of a route that answers without a token too (a spectator's live updates, an
order after the reveal): FastAPI joins it to the route's own ``security``, which becomes
``[{"HTTPBearer": []}, {}]``, a bearer token or none (OpenAPI's optional authentication). A route
whose token is required has only the first: a request without one is a 401."""

_CHALLENGE = {
    "WWW-Authenticate": {
        "description": "`Bearer`: the token goes in `Authorization: Bearer <token>`.",
        "schema": {"type": "string", "const": "Bearer"},
    }
}


# -- the service ----------------------------------------------------------------------------------


class Health(_Closed):
    status: Literal["ok", "unavailable"]
    store: Literal["sqlite", "postgresql"] = Field(description="Which database the service uses.")


class PublicKey(_Closed):
    key: Hex64 = Field(description="The raw 32-byte Ed25519 public key, in hex.")
    algorithm: Literal["Ed25519"]
    encoding: str


# -- the catalogue ---------------------------------------------------------------------------------


class OptionDeclaration(_Closed):
    name: str
    type: Literal["integer"]
    default: int
    min: int
    max: int
    unit: str = _sometimes("What the number counts (points, chips, ...).")
    help: str = _sometimes("What the option does.")
    low_means: str = _sometimes("What the lowest value means, when it is special (0: one deal per player).")
    choices: dict[str, str] = _sometimes("The values allowed, each with its meaning.")


class SeatRange(_Closed):
    min: int
    max: int


class DealLayout(_Closed):
    hands: str = Field(description="How many cards each seat gets.")
    packs: int
    two_packs_from: int | None = Field(description="Two packs from this many seats on.")
    removed: list[CardCode]
    cut_down: str | None
    extra: str | None = Field(description='A hand dealt besides the seats\' ("extra hand", "dead hand", "stops").')
    stock: bool
    starter: bool


class MoveFormField(_Closed):
    """One field of a kind of move, as a form shows it."""

    name: str = Field(description="The JSON member.")
    type: str = Field(description="card, suit, count, choice, cards, text (or a plugin's own)")
    optional: bool
    choices: list[str] = _sometimes("The words a choice (or a suit) takes.")
    least: int | None = _sometimes("A count's or a string's least.")
    most: int | None = _sometimes("A count's, a string's or a text's most.")
    doc: str = _sometimes("What the field is.")


class MoveForm(_Closed):
    """One kind of move as its game declares it (fairdeal.rules.MoveKind): what the table's
    controls are built from."""

    kind: str = Field(examples=["draw"])
    label: str = Field(examples=["Draw"])
    key: str = Field(description="The table's keyboard key for it (empty: none).")
    hint: str = Field(description='What the key hint says the key does ("bids (the amount box)").')
    said: str = Field(
        description='How the log says the move: a template of its members ("bid {amount} for the extra hand"); empty: the table\'s own words.'
    )
    syntax: str = Field(description="Its text form, as Move.parse reads it.", examples=["play CARD [naming SUIT]"])
    fields: list[MoveFormField]


class TableLabel(_Closed):
    """What a page calls a member of a game's table (its view's ``table``), as the game labels it."""

    label: str = Field(examples=["Cards to draw"])
    values: dict[str, str] = _sometimes("What each of a text member's values means, by value.")
    fields: dict[str, TableLabel] = _sometimes("Its own members' labels, by name (a member that is an object).")


class Declaration(_Closed):
    """One game, as its rules module declares it."""

    name: str = Field(examples=[DEFAULT])
    title: str = Field(examples=["Crazy Eights"])
    family: str
    module: str = Field(description="The rules module's last name (a plugin's: its own).")
    renderer: str = Field(
        description="The browser's renderer, web/js/games/<renderer>.js; generic for a game without one of its own."
    )
    summary: str
    seats: SeatRange
    options: list[OptionDeclaration]
    unit: str = Field(description="What the standings count: points, chips, counters, deals ...")
    layout: DealLayout
    first_dealer_rank: str = Field(pattern=r"^[A2-9TJQK]$")
    moves: list[str] = Field(description="The kinds of move its seats make (each declared in move_forms).")
    move_forms: list[MoveForm]
    two_card_plays: bool
    bots: list[str] = Field(description="The bot kinds that can play a seat of this game: heuristic, random.")
    table: dict[str, TableLabel] = _sometimes(
        "What a page calls the members of the game's table that the game labels (Rules.table_json's Label), by "
        "name: for a renderer that knows no game (generic.js); a game with a renderer of its own labels none."
    )
    lang: str = _sometimes(
        "The language of its words, when one was asked for (GET /rules/{name}?lang=), as the catalogue's `lang`; "
        "never in the catalogue's own entries."
    )


class HowToPlay(_Closed):
    """One game's "How to play", as the lobby and the table show it."""

    name: str = Field(examples=[DEFAULT])
    title: str = Field(examples=["Crazy Eights"])
    help: str = Field(description="For players: markdown of paragraphs, `- ` bullet lists and `**bold**` only.")
    lang: str = _sometimes(
        "The language `help` is in, when one was asked for (`?lang=nb`): the one asked for where the game's "
        "package has it, else `en`."
    )


class Catalogue(_Closed):
    version: int
    lang: str = _sometimes(
        "The language of the games' words, when one was asked for (`?lang=nb`): the one asked for where "
        "a game translates into it (the words a game leaves out stay English), else `en`."
    )
    default: str = Field(description="The game a table is when its rules are not given.")
    families: list[str]
    games: list[Declaration]


# -- games ----------------------------------------------------------------------------------------


class LogAnnounced(_Closed):
    """The start entry's place in the transparency log (spec/log.md), proved against a checkpoint."""

    index: int = Field(ge=0)
    checkpoint: str = Field(
        description="A signed checkpoint (C2SP tlog-checkpoint in a signed note) that holds the entry."
    )
    inclusion: list[Hex64] = Field(
        description="The entry's RFC 9162 inclusion proof against that checkpoint's root, hex."
    )


class Receipt(_Closed):
    """The server's signature over one record line: proof that the line was written."""

    game_id: str = Field(description="The game's (or the session's) id.")
    seq: int = Field(ge=0)
    hash: Hex64 = Field(description="The line's hash, as the next line's `prev`.")
    sig: Signature
    at: str = _sometimes(
        "When the server wrote the line (record format 2), `YYYY-MM-DDTHH:MM:SS.mmmZ` in UTC: a copy of the "
        "line's own `at`, which `hash` covers (a record of format 1 has none)."
    )
    log: LogAnnounced = _sometimes(
        "A seat's `client-commit` receipt only: the game's (or session's) start entry in the transparency log, "
        "with its inclusion proof against a checkpoint of now (spec/log.md). Not covered by `sig`: the "
        "checkpoint is signed itself."
    )


class CreatedSeat(_Closed):
    seat: SeatNumber
    name: str
    bot: bool
    join_token: str = _sometimes("A human seat's token, shown this once.")


class LogEntry(_Closed):
    index: int = Field(ge=0)
    entry: str = Field(description="The entry's canonical JSON: the exact bytes the log hashes.")


class LogEntries(_Closed):
    size: int = Field(ge=0, description="The log's size now.")
    entries: list[LogEntry]


class LogInclusion(_Closed):
    index: int = Field(ge=0)
    size: int = Field(ge=1)
    root: Hex64 = Field(description="The root at size (trust the signed checkpoint's, not this one).")
    proof: list[Hex64]


class LogConsistency(_Closed):
    first: int = Field(ge=0)
    second: int = Field(ge=0)
    first_root: Hex64
    second_root: Hex64
    proof: list[Hex64]


class RecordLogEntry(_Closed):
    index: int = Field(ge=0)
    entry: str
    inclusion: list[Hex64]


class RecordLog(_Closed):
    """A game's or session's entries in the log, each with its inclusion proof against ``checkpoint``."""

    checkpoint: str
    size: int = Field(ge=1)
    entries: list[RecordLogEntry]


class LogInfo(_Closed):
    """Where the transparency log is and how to check its checkpoints."""

    checkpoint: str = Field(description="The URL of the current signed checkpoint.")
    origin: str
    public_key: Hex64
    verifier_key: str = Field(description="The key as note verifiers write it: origin+keyID+base64(0x01||key).")
    witnesses: list[str] = Field(
        description="The verifier keys (name+keyID+base64(0x04||key)) of the witnesses the service sends its "
        "checkpoints to, in FAIRDEAL_WITNESSES' order; empty without (spec/log.md section 9)."
    )


class GameCreated(_Closed):
    """A new table: its id, the commitment to its server seed, and the tokens (shown this once)."""

    game_id: str
    commitment: Hex64
    host_token: str
    seats: list[CreatedSeat]
    public_key: Hex64
    seq: int
    status: Literal["seeding", "playing", "over", "abandoned"]
    log: LogAnnounced = _sometimes("The start entry in the transparency log (a service with a log).")


class TableSeat(_Closed):
    seat: SeatNumber
    name: str
    bot: bool = Field(description="Played by a bot (from the start, or since the host started without it).")


class ClientSeeds(_Closed):
    open: bool = Field(description="Whether seats may still commit and reveal.")
    committed: list[SeatNumber]
    revealed: list[SeatNumber]


class Table(_Open):
    """The public table as the game shows it: each game has its own fields besides these."""

    dealer: SeatNumber
    hand_no: int
    hand_sizes: list[int]
    turn: SeatNumber | None


class Sheet(_Open):
    """The score sheet: the totals, and what a game keeps besides (Hollywood scoring: ``games``)."""

    totals: list[int]


class HandEnd(_Open):
    """A finished hand: how it ended and what it scored (with what the sheet keeps besides)."""

    hand: int
    dealer: SeatNumber
    how: str
    winners: list[SeatNumber]
    counts: list[int]
    scores: list[int]
    totals: list[int]
    reason: str = Field(description="How it ended, in the rules' words (`everyone passed in turn`).")
    cards_left: list[list[CardCode]] = _sometimes(
        "The hand that has just ended (between hands, or the match's last): every seat's cards left, by seat."
    )


class Standing(_Closed):
    seat: SeatNumber
    total: int
    place: int = Field(ge=1, description="Equal totals share a place.")


class LegalMove(BaseModel):
    """A move the seat may make now, as ``POST /games/{game_id}/moves`` takes it (with ``seq``):
    in the OpenAPI document, one schema per kind of move, as its game declares it."""

    model_config = ConfigDict(extra="allow")

    move: str


class CardNote(_Closed):
    card: CardCode
    playable: bool
    why_not: str | None = Field(description="Why the card cannot be played now; null when it can.")


class NextHand(_Closed):
    """The pause between hands: the next deal waits for every person, or for the countdown."""

    hand: int = Field(description="The hand to be dealt.")
    deadline: Timestamp | None = Field(description="When the countdown runs out and the hand is dealt anyway.")
    seconds_left: float | None
    ready: list[SeatNumber] = Field(description="The people who said they are ready.")
    waiting: list[SeatNumber] = Field(description="The people the deal still waits for.")
    cards_left: list[list[CardCode]] = Field(
        description="Every seat's cards left at the hand's end, by seat (shown to be counted)."
    )


class Again(_Closed):
    """The table "Play again" made from this one."""

    game_id: str
    seat: SeatNumber = _sometimes("In a seat's own view: its seat at the new table.")
    token: str = _sometimes("In a seat's own view: its join token at the new table.")


class PublicState(_Closed):
    """What a spectator sees: the public table, scores, whose turn; no hidden card."""

    game_id: str
    rules: str
    options: dict[str, int]
    status: Literal["seeding", "playing", "between-hands", "over", "abandoned"]
    seq: int = Field(ge=0, description="The record's length: a move names it.")
    commitment: Hex64
    seats: list[TableSeat]
    client_seeds: ClientSeeds
    turn: SeatNumber | None
    turn_seconds: float
    bot_seconds: float = Field(description="How long a bot waits before it moves.")
    next_hand_seconds: float = Field(description="The pause between hands (0: the next hand is dealt at once).")
    deadline: Timestamp | None = Field(
        description="When the seat to act runs out of time (null for a bot, or no turn)."
    )
    seconds_left: float | None
    table: Table | None = Field(description="Null until the first deal.")
    hand_no: int
    totals: list[int]
    sheet: Sheet
    hands: list[HandEnd]
    standings: list[Standing] | None = Field(description="Once the match is over.")
    server_seed: Hex64 = _sometimes("Once revealed (at the match's end, or the abandon).")
    next_hand: NextHand = _sometimes("While the status is `between-hands`.")
    again: Again = _sometimes("Once the host played this table again.")


class SeatView(PublicState):
    """What one seat sees: the public state, and its hand, its legal moves and a note for every card."""

    seat: SeatNumber
    your_turn: bool
    hand: list[CardCode]
    pending: CardCode | None = Field(description="A card drawn that must be played or kept (Crazy Eights).")
    legal_moves: list[LegalMove]
    cards: list[CardNote] = Field(description="For every card in hand: whether it can be played now, and why not.")


class CommitAnswer(_Closed):
    receipt: Receipt


class RevealAnswer(_Closed):
    receipt: Receipt
    view: SeatView


class MoveAnswer(_Closed):
    receipt: Receipt
    view: SeatView = Field(description="The seat's view just after the move (and the bots' replies).")


class Failure(_Closed):
    line: int = Field(ge=1)
    reason: str


class HandResult(_Closed):
    how: str
    winners: list[SeatNumber]
    counts: list[int]
    reason: str


class VerifiedHand(_Open):
    """A hand as the seed and the rules give it: the deal and what followed (each game's own
    fields), the result, the scores."""

    hand: int
    dealer: SeatNumber
    result: HandResult
    scores: list[int]
    totals: list[int]
    dealt_at: Timestamp = _sometimes("When the server wrote the hand's deal line (record format 2).")
    ended_at: Timestamp = _sometimes("When it wrote the hand's end (record format 2).")


class Timing(_Closed):
    """A format 2 record header's timing: the table's timer, in whole milliseconds."""

    turn_ms: int = Field(
        ge=0, description="A person's turn (times the rules' turn factor); every auto-move is checked against it."
    )
    bot_ms: int = Field(ge=0, description="A bot's wait before its move.")
    next_hand_ms: int = Field(ge=0, description="The longest pause between hands.")


class ReportSeat(_Closed):
    name: str
    bot: bool


class VerifyReport(_Closed):
    """``fairdeal-verify --json``'s report of the stored record, checked against this server's key."""

    verified: bool
    game_id: str | None
    rules: str | None
    options: dict[str, int]
    seats: list[ReportSeat]
    hands: list[VerifiedHand]
    standings: list[Standing] | None
    abandoned: str | None = Field(description="The reason given, when the game was abandoned.")
    timing: Timing = _sometimes("A format 2 record's timing, as its header gives it.")
    error: Failure | None = Field(description="The first line that fails; null when verified.")


# -- dealing sessions -------------------------------------------------------------------------------


class SessionToken(_Closed):
    seat: SeatNumber
    token: str


class SessionCreated(_Closed):
    session_id: str
    commitment: Hex64
    owner_key: str
    seats: list[SessionToken]
    public_key: Hex64
    label_prefix: str
    seq: int
    log: LogAnnounced = _sometimes("The start entry in the transparency log (a service with a log).")


class ShuffleCount(_Closed):
    label: str
    count: int


class SessionState(_Closed):
    session_id: str
    status: Literal["seeding", "dealing", "revealed"]
    seq: int
    seats: int
    label_prefix: str
    commitment: Hex64
    client_seeds: ClientSeeds
    shuffles: list[ShuffleCount]
    server_seed: Hex64 = _sometimes("Once revealed.")


class SessionRevealAnswer(_Closed):
    receipt: Receipt
    session: SessionState


class ShuffledOrder(_Closed):
    label: str
    order: list[CardCode] = Field(description="Top first.")
    count: int


class Shuffled(ShuffledOrder):
    receipt: Receipt


class SessionEnd(_Closed):
    server_seed: Hex64
    seq: int


# -- each game's view, typed ----------------------------------------------------------------------

VIEWS = ("PublicState", "SeatView")
"""The answers whose ``table`` is each game's own: typed per game in the OpenAPI document."""


def typed_moves(document: dict[str, Any]) -> dict[str, Any]:
    """``document`` with ``LegalMove`` and ``MoveIn`` (a move's body) each a union of one closed
    schema per kind of move any installed game reads, discriminated by ``move``: each from the
    kind's declaration (:meth:`MoveKind.schema`, the widest where games differ in optional fields).

    >>> from fairdeal.service import Settings, create_app
    >>> import tempfile
    >>> document = create_app(Settings(data_dir=tempfile.mkdtemp())).openapi()
    >>> bid = document["components"]["schemas"]["BidMoveIn"]
    >>> bid["required"], bid["properties"]["amount"]["minimum"]
    (['move', 'amount', 'seq'], 1)
    """
    schemas = document["components"]["schemas"]
    names = sorted({name for cls in RULES.values() for name in cls.reads}, key=kinds().index)
    for answer, extra in (
        ("LegalMove", {}),
        ("MoveIn", {key: value for key, value in schemas["MoveIn"]["properties"].items() if key in ("seq", "seat")}),
    ):
        mapping = {}
        for name in names:
            schema = declared(name).schema()
            variant = schema["title"] + ("In" if answer == "MoveIn" else "")
            schema["title"] = variant
            schema["properties"].update(extra)
            if "seq" in extra:
                schema["required"].append("seq")
            schema["additionalProperties"] = False
            schemas[variant] = schema
            mapping[name] = f"#/components/schemas/{variant}"
        schemas[answer] = {
            "title": answer,
            "description": schemas[answer].get("description", ""),
            "oneOf": [{"$ref": ref} for ref in mapping.values()],
            "discriminator": {"propertyName": "move", "mapping": mapping},
        }
    return document


def typed_new_games(document: dict[str, Any]) -> dict[str, Any]:
    """``document`` with ``CreateGame`` (the body of ``POST /games``) a union of one closed schema
    per installed game: the game's variant (``<Name>CreateGame``, from its rules name) has ``rules``
    the game's name, ``seats`` as many as it is played with and ``options`` the ones it takes, each
    in the range a new table may set (or among its ``choices``), as its catalogue entry says. What
    the server refuses for a game, the schema does not offer: a table of one, an option the game
    has not. The default game's variant alone may leave ``rules`` out.

    >>> from fairdeal.rules import DEFAULT, RULES
    >>> from fairdeal.service import Settings, create_app
    >>> import tempfile
    >>> schemas = create_app(Settings(data_dir=tempfile.mkdtemp())).openapi()["components"]["schemas"]
    >>> def variant(name): return schemas["".join(p.capitalize() for p in name.split("-")) + "CreateGame"]
    >>> variant(DEFAULT)["required"], variant(DEFAULT)["properties"]["rules"]["const"] == DEFAULT
    (['seats'], True)
    >>> name, cls = next((n, c) for n, c in RULES.items() if n != DEFAULT and c.OPTIONS)
    >>> other = variant(name)
    >>> other["required"], other["properties"]["seats"]["minItems"] == cls.min_seats
    (['seats', 'rules'], True)
    >>> sorted(other["properties"]["options"]["properties"]) == sorted(o.name for o in cls.OPTIONS)
    True
    """
    schemas = document["components"]["schemas"]
    common = schemas["CreateGame"]
    variants = []
    for name, cls in RULES.items():
        variant = "".join(part.capitalize() for part in name.split("-")) + "CreateGame"
        schema = json.loads(json.dumps(common))  # a deep copy: the variants share nothing
        schema["title"] = variant
        schema["description"] = f"A new table of {cls.title}."
        properties = schema["properties"]
        properties["rules"] = {"const": name, "title": "Rules", **({"default": name} if name == DEFAULT else {})}
        properties["seats"].update(minItems=cls.min_seats, maxItems=cls.max_seats)
        options = {}
        for option in cls.OPTIONS:
            # A new table's range, the catalogue's min and max (a record may hold more: Option.record_high).
            bounds = (
                {"enum": sorted(option.choices)}
                if option.choices is not None
                else {"minimum": option.low, "maximum": option.high}
            )
            options[option.name] = {"type": "integer", **bounds, "default": option.default, "description": option.help}
        properties["options"] = {
            "type": "object",
            "properties": options,
            "additionalProperties": False,
            "title": "Options",
            "description": "The game's options (GET /rules/{name}); one left out has its default.",
        }
        if name != DEFAULT:
            schema["required"] = [*schema["required"], "rules"]
        schemas[variant] = schema
        variants.append({"$ref": f"#/components/schemas/{variant}"})
    # No discriminator: the default game's variant has no required ``rules`` (OpenAPI's discriminator
    # needs one); ``rules`` is a ``const`` in each, so a body fits one variant at most.
    schemas["CreateGame"] = {
        "title": "CreateGame",
        "description": "A new table: its game (`rules`, default " + DEFAULT + "), seats, options and pace.",
        "oneOf": variants,
    }
    return document


def typed_views(document: dict[str, Any]) -> dict[str, Any]:
    """``document`` (FastAPI's OpenAPI document) with each of :data:`VIEWS` a union of one closed
    schema per game, discriminated by ``rules``: the game's variant (``CrazyEightsSeatView``) has
    ``rules`` the game's name and ``table`` its declared table (:meth:`Rules.table_schema`), so a
    client generated from the document has a type for every member a game's view holds.
    Plugins' games included: the document is made from the installed games.

    >>> from fairdeal.service import Settings, create_app
    >>> import tempfile
    >>> document = create_app(Settings(data_dir=tempfile.mkdtemp())).openapi()
    >>> view = document["components"]["schemas"]["SeatView"]
    >>> view["discriminator"]["mapping"][DEFAULT]
    '#/components/schemas/CrazyEightsSeatView'
    >>> document["components"]["schemas"]["CrazyEightsSeatView"]["properties"]["table"]["anyOf"][0]["title"]
    'CrazyEightsTable'
    """
    schemas = document["components"]["schemas"]
    for view in VIEWS:
        common = schemas[view]
        mapping = {}
        for name, cls in RULES.items():
            variant = "".join(part.capitalize() for part in name.split("-")) + view
            schema = json.loads(json.dumps(common))  # a deep copy: the variants share nothing
            schema["title"] = variant
            schema["description"] = f"{common.get('description', view)} ({cls.title})"
            schema["properties"]["rules"] = {"const": name, "title": "Rules"}
            schema["properties"]["table"] = {
                "anyOf": [cls.table_schema(), {"type": "null"}],
                "description": "The public table as the game shows it (null until the first deal).",
            }
            schemas[variant] = schema
            mapping[name] = f"#/components/schemas/{variant}"
        schemas[view] = {
            "title": view,
            "description": common.get("description", ""),
            "oneOf": [{"$ref": ref} for ref in mapping.values()],
            "discriminator": {"propertyName": "rules", "mapping": mapping},
        }
    return document


# -- live updates -----------------------------------------------------------------------------------


def _event(kind: str, data: dict[str, Any], description: str, *, with_id: bool = False) -> dict[str, Any]:
    properties: dict[str, Any] = {
        "event": {"const": kind},
        "data": {"type": "string", "contentMediaType": "application/json", "contentSchema": data},
        "id": {"type": "string", "pattern": "^[0-9]+$", "description": "The last record line's seq."},
    }
    return {
        "type": "object",
        "description": description,
        "properties": properties,
        "required": ["event", "data", *(["id"] if with_id else [])],
    }


LIVE_EVENT: dict[str, Any] = {
    "description": "One server-sent event (for Open API before 3.2, the schema of each event).",
    "oneOf": [
        _event(
            "line",
            {"type": "object", "required": ["type", "seq", "prev"]},
            "A new record line, as GET /games/{game_id}/record has it; its `id` is its seq.",
            with_id=True,
        ),
        _event("state", {"$ref": "#/components/schemas/PublicState"}, "The public state after a batch of lines."),
        _event("view", {"$ref": "#/components/schemas/SeatView"}, "The seat's view after a batch (with its token)."),
    ],
}
"""The events of ``GET /games/{game_id}/events``: a record line, then the state (or the seat's view)."""
