"""The transparency log as static tiles: `C2SP tlog-tiles <https://c2sp.org/tlog-tiles>`_.

A tile is a run of up to 256 consecutive Merkle Tree Hashes at one height of the log's tree
(:mod:`fairdeal.tlog`); an entry bundle is the entries under a level 0 tile, each prefixed by
its length. Both are addressed by paths such as ``tile/0/x001/x234/067`` (index 1234067) and,
when fewer than 256 wide, ``.p/<width>``. spec/log.md section 10 is the contract.

>>> tile = parse_tile_path("tile/0/x001/x234/067.p/8")
>>> tile
Tile(level=0, index=1234067, width=8)
>>> tile.path(), tile.span()  # the entries its hashes stand for
('tile/0/x001/x234/067.p/8', (315921152, 315921160))
>>> [t.path() for t in tiles_of(70_000)]  # a tree of 70,000: past 273 full tiles of level 0, 1 of level 1
['tile/0/273.p/112', 'tile/1/001.p/17', 'tile/2/000.p/1']

Pure, like :mod:`fairdeal.tlog`: the reading functions take the HTTP fetch as a callable.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from collections.abc import Iterator
from collections.abc import Sequence
from dataclasses import dataclass

from fairdeal.tlog import Tree

__all__ = [
    "TileError",
    "TILE_WIDTH",
    "HASH_SIZE",
    "ENTRIES",
    "MAX_LEVEL",
    "Tile",
    "format_index",
    "parse_tile_path",
    "tiles_of",
    "tile_hashes",
    "encode_bundle",
    "read_bundle",
    "read_entries",
    "wrong_tiles",
]

TILE_HEIGHT = 8
TILE_WIDTH = 1 << TILE_HEIGHT
"""Hashes in a full tile, entries in a full bundle."""
HASH_SIZE = 32
ENTRIES = -1
"""The level of an entry bundle (it lies under the level 0 tile of the same index)."""
MAX_LEVEL = 63
MAX_ENTRY = 0xFFFF
"""The longest entry a bundle can hold: its length is a big-endian uint16."""
_MAX_ELEMENTS = 8
"""Path elements of an index at most: 10**24 is past any tree of 2**64 entries."""


class TileError(ValueError):
    """A path that is no tile's, a tile that is malformed, or data that is not the tile it should be."""


@dataclass(frozen=True)
class Tile:
    """Tile ``index`` of ``level`` (0 to 63, or :data:`ENTRIES` for an entry bundle), ``width``
    hashes (or entries) wide: 256 for a full tile, 1 to 255 for a partial one.

    >>> Tile(1, 0).span(), Tile(ENTRIES, 2, 5).path()
    ((0, 65536), 'tile/entries/002.p/5')
    >>> Tile(0, 0, 0)
    Traceback (most recent call last):
    ...
    fairdeal.tiles.TileError: a tile is 1 to 256 wide, not 0
    """

    level: int
    index: int
    width: int = TILE_WIDTH

    def __post_init__(self) -> None:
        if type(self.level) is not int or not ENTRIES <= self.level <= MAX_LEVEL:
            raise TileError(f"a tile's level is 0 to {MAX_LEVEL} (or entries), not {self.level!r}")
        if type(self.index) is not int or self.index < 0:
            raise TileError(f"a tile's index is a whole number, not {self.index!r}")
        if type(self.width) is not int or not 1 <= self.width <= TILE_WIDTH:
            raise TileError(f"a tile is 1 to {TILE_WIDTH} wide, not {self.width!r}")

    @property
    def full(self) -> bool:
        return self.width == TILE_WIDTH

    @property
    def is_bundle(self) -> bool:
        return self.level == ENTRIES

    def path(self) -> str:
        """Where the tile is under the log's prefix."""
        level = "entries" if self.is_bundle else str(self.level)
        partial = "" if self.full else f".p/{self.width}"
        return f"tile/{level}/{format_index(self.index)}{partial}"

    def span(self) -> tuple[int, int]:
        """The entries ``D[start:end]`` the tile's hashes (or a bundle's entries) stand for.

        Hash ``i`` of a tile of level ``l`` is ``MTH(D[(n*256 + i) * 256**l : (n*256 + i + 1) * 256**l])``.
        """
        step = TILE_WIDTH ** max(self.level, 0)  # what one hash covers
        start = self.index * TILE_WIDTH * step
        return start, start + self.width * step


def format_index(index: int) -> str:
    """A tile's index as path elements of three digits, all but the last with an ``x``.

    >>> format_index(1234067), format_index(5), format_index(1000)
    ('x001/x234/067', '005', 'x001/000')
    """
    text = f"{index % 1000:03d}"
    while index >= 1000:
        index //= 1000
        text = f"x{index % 1000:03d}/{text}"
    return text


_PATH = re.compile(r"tile/(entries|0|[1-9][0-9]?)/((?:x[0-9]{3}/)*[0-9]{3})(?:\.p/([1-9][0-9]{0,2}))?")


def parse_tile_path(path: str) -> Tile:
    """The tile at ``path`` (``tile/<L>/<N>[.p/<W>]`` or ``tile/entries/<N>[.p/<W>]``); only the
    one way tlog-tiles writes a tile is read, so each tile has one path.

    >>> parse_tile_path("tile/entries/x001/000.p/255")
    Tile(level=-1, index=1000, width=255)
    >>> parse_tile_path("tile/0/x000/001")
    Traceback (most recent call last):
    ...
    fairdeal.tiles.TileError: 'tile/0/x000/001' is not a tile's path: write its index as 001
    """
    match = _PATH.fullmatch(path)
    if match is None:
        raise TileError(
            f"{path[:80]!r} is not a tile's path: tile/<level 0-{MAX_LEVEL}>/<index>[.p/<width 1-255>] "
            "or tile/entries/<index>[.p/<width>], the index in 3-digit elements like x001/x234/067"
        )
    level, elements, width = match.groups()
    if elements.count("/") >= _MAX_ELEMENTS:
        raise TileError(f"{path[:80]!r}: index beyond any log")
    index = int(elements.replace("x", "").replace("/", ""))
    if format_index(index) != elements:
        raise TileError(f"{path!r} is not a tile's path: write its index as {format_index(index)}")
    if width is not None and int(width) >= TILE_WIDTH:
        raise TileError(f"{path!r} is not a tile's path: a partial tile is 1 to {TILE_WIDTH - 1} wide")
    return Tile(ENTRIES if level == "entries" else int(level), index, TILE_WIDTH if width is None else int(width))


def tiles_of(size: int, level: int | None = None, *, full: bool = False) -> list[Tile]:
    """The tiles of a tree of ``size`` entries, level by level (or at ``level`` only; :data:`ENTRIES`
    for its bundles): the partial one last at each level, and the full ones before it if ``full``.

    >>> [t.path() for t in tiles_of(256)]  # a full level 0 tile, and one hash of level 1
    ['tile/1/000.p/1']
    >>> [t.path() for t in tiles_of(513, ENTRIES, full=True)]
    ['tile/entries/000', 'tile/entries/001', 'tile/entries/002.p/1']
    """
    if type(size) is not int or size < 0:
        raise TileError(f"a tree's size is a whole number, not {size!r}")
    levels = [level] if level is not None else range(MAX_LEVEL + 1)
    out: list[Tile] = []
    for at in levels:
        hashes = size // TILE_WIDTH ** max(at, 0)  # at this level: whole subtrees of 256**at entries
        if not hashes:
            break
        if full:
            out.extend(Tile(at, n) for n in range(hashes // TILE_WIDTH))
        if hashes % TILE_WIDTH:
            out.append(Tile(at, hashes // TILE_WIDTH, hashes % TILE_WIDTH))
    return out


def tile_hashes(tree: Tree, tile: Tile) -> bytes:
    """The hash tile's bytes: its hashes, each 32 bytes, from ``tree`` (which must hold the tile's
    span: a :class:`fairdeal.tlog.LogError` otherwise).

    >>> from fairdeal.tlog import leaf_hash
    >>> tree = Tree([leaf_hash(bytes([i % 256, i // 256])) for i in range(300)])
    >>> tile_hashes(tree, Tile(0, 1, 44)) == b"".join(tree.leaves[256:])
    True
    >>> tile_hashes(tree, Tile(1, 0, 1)) == tree.root(256)
    True
    """
    if tile.is_bundle:
        raise TileError(f"{tile.path()} is an entry bundle, not a tile of hashes")
    start, end = tile.span()
    step = (end - start) // tile.width
    return b"".join(tree.subtree(at, at + step) for at in range(start, end, step))


def encode_bundle(entries: Sequence[bytes]) -> bytes:
    """An entry bundle: each entry as its length (big-endian uint16) and its bytes.

    >>> encode_bundle([b"ab", b""]).hex()
    '000261620000'
    """
    out = bytearray()
    for entry in entries:
        if len(entry) > MAX_ENTRY:
            raise TileError(f"an entry of {len(entry)} bytes does not fit in a bundle (at most {MAX_ENTRY})")
        out += len(entry).to_bytes(2, "big") + entry
    return bytes(out)


def read_bundle(data: bytes, width: int) -> list[bytes]:
    """The ``width`` entries in bundle ``data``; :class:`TileError` if it holds other than that.

    >>> read_bundle(bytes.fromhex("000261620000"), 2)
    [b'ab', b'']
    >>> read_bundle(bytes.fromhex("000261"), 1)
    Traceback (most recent call last):
    ...
    fairdeal.tiles.TileError: entry bundle: entry 0 is cut short (2 bytes said, 1 there)
    """
    entries: list[bytes] = []
    at = 0
    while at < len(data):
        if len(entries) == width:
            raise TileError(f"entry bundle: more than the {width} entries it should hold")
        if at + 2 > len(data):
            raise TileError(f"entry bundle: entry {len(entries)} is cut short in its length")
        length = int.from_bytes(data[at : at + 2], "big")
        entry = data[at + 2 : at + 2 + length]
        if len(entry) != length:
            raise TileError(
                f"entry bundle: entry {len(entries)} is cut short ({length} bytes said, {len(entry)} there)"
            )
        entries.append(entry)
        at += 2 + length
    if len(entries) != width:
        raise TileError(f"entry bundle: {len(entries)} entries, not the {width} it should hold")
    return entries


# -- reading a log by its tiles ------------------------------------------------------------------

Fetch = Callable[[str], bytes]
"""``fetch(url)``: the body of a 200 answer (as :data:`fairdeal.audit.Fetch`)."""


def read_entries(
    fetch: Fetch, prefix: str, size: int, progress: Callable[[int, int], None] | None = None
) -> list[bytes]:
    """The first ``size`` entries of the log at ``prefix`` (where ``<prefix>/tile/`` is), from its
    entry bundles; :class:`TileError` naming a bundle that is not what it should be."""
    entries: list[bytes] = []
    for bundle in tiles_of(size, ENTRIES, full=True):
        url = f"{prefix}/{bundle.path()}"
        try:
            entries += read_bundle(fetch(url), bundle.width)
        except TileError as exc:
            raise TileError(f"{url}: {exc}") from None
        if progress:
            progress(len(entries), size)
    return entries


def wrong_tiles(fetch: Fetch, prefix: str, tree: Tree, size: int | None = None) -> Iterator[str]:
    """The paths of the hash tiles of the tree of ``size`` (default: all ``tree``) that the log at
    ``prefix`` serves otherwise than ``tree`` has them; every tile is read, full and partial, so a
    client that takes its proofs from the tiles is shown the tree of the entries.

    A tile of the wrong length is a :class:`TileError`: that server does not serve tiles."""
    size = len(tree) if size is None else size
    for tile in tiles_of(size, full=True):
        url = f"{prefix}/{tile.path()}"
        data = fetch(url)
        if len(data) != tile.width * HASH_SIZE:
            raise TileError(f"{url}: {len(data)} bytes, not the {tile.width * HASH_SIZE} of {tile.width} hashes")
        if data != tile_hashes(tree, tile):
            yield tile.path()
