"""fairdeal.tiles (spec/log.md section 10): C2SP tlog-tiles' paths and examples, a tile's hashes
against RFC 9162's recursive definition written out here, entry bundles, reading a log by tiles."""

from __future__ import annotations

import hashlib

import pytest

from fairdeal.tiles import ENTRIES
from fairdeal.tiles import Tile
from fairdeal.tiles import TileError
from fairdeal.tiles import encode_bundle
from fairdeal.tiles import format_index
from fairdeal.tiles import parse_tile_path
from fairdeal.tiles import read_bundle
from fairdeal.tiles import read_entries
from fairdeal.tiles import tile_hashes
from fairdeal.tiles import tiles_of
from fairdeal.tiles import wrong_tiles
from fairdeal.tlog import Tree
from fairdeal.tlog import leaf_hash


def mth(leaves: list[bytes]) -> bytes:
    """RFC 9162's MTH as it is written (recursive, nothing kept): the reference for the tiles."""
    if len(leaves) == 1:
        return leaves[0]
    k = 1 << ((len(leaves) - 1).bit_length() - 1)
    return hashlib.sha256(b"\x01" + mth(leaves[:k]) + mth(leaves[k:])).digest()


def test_the_index_examples_of_the_spec():
    # tlog-tiles: "index 1234067 will be encoded as x001/x234/067".
    assert format_index(1234067) == "x001/x234/067"
    assert parse_tile_path("tile/0/x001/x234/067") == Tile(0, 1234067)
    assert [format_index(n) for n in (0, 7, 999, 1000, 1001, 999_999, 1_000_000)] == [
        "000",
        "007",
        "999",
        "x001/000",
        "x001/001",
        "x999/999",
        "x001/x000/000",
    ]
    for n in [*range(0, 3000, 7), 10**9 + 7, 2**63]:
        for tile in (Tile(0, n), Tile(5, n, 17), Tile(ENTRIES, n), Tile(ENTRIES, n, 255)):
            assert parse_tile_path(tile.path()) == tile


def test_the_tiles_of_the_spec_s_example_trees():
    # "a tree of size 70,000 will be represented by 273 full level 0 tiles, one partial level 0 tile of
    # width 112, one full level 1 tile, one partial level 1 tile of width 17, and one partial level 2
    # tile of width 1."
    tiles = tiles_of(70_000, full=True)
    assert [t for t in tiles if t.level == 0 and t.full] == [Tile(0, n) for n in range(273)]
    assert [t for t in tiles if not (t.level == 0 and t.full)] == [
        Tile(0, 273, 112),
        Tile(1, 0),
        Tile(1, 1, 17),
        Tile(2, 0, 1),
    ]
    # "a tree of size 256 will be represented by a full level 0 tile and a partial level 1 tile of width 1."
    assert tiles_of(256, full=True) == [Tile(0, 0), Tile(1, 0, 1)]
    assert tiles_of(0, full=True) == [] and tiles_of(1) == [Tile(0, 0, 1)]  # empty tiles are not served
    assert tiles_of(70_000, ENTRIES) == [Tile(ENTRIES, 273, 112)]
    # "The tile's start index is n * 256**(l+1)": the entries a tile's hashes stand for.
    assert Tile(1, 1, 17).span() == (65536, 65536 + 17 * 256)
    assert Tile(ENTRIES, 273, 112).span() == Tile(0, 273, 112).span() == (273 * 256, 70_000)


@pytest.mark.parametrize(
    "path, reason",
    [
        ("tile/0/1", "not a tile's path"),  # three digits
        ("tile/0/0001", "not a tile's path"),
        ("tile/0/x000/001", "write its index as 001"),  # one path per tile
        ("tile/0/001/002", "not a tile's path"),  # all but the last element start with x
        ("tile/0/x001", "not a tile's path"),
        ("tile/00/000", "not a tile's path"),  # no leading zeroes
        ("tile/64/000", "level is 0 to 63"),
        ("tile/-1/000", "not a tile's path"),
        ("tile/0/000.p/0", "not a tile's path"),  # widths 1 to 255
        ("tile/0/000.p/07", "not a tile's path"),
        ("tile/0/000.p/256", "1 to 255 wide"),
        ("tile/0/000.p/", "not a tile's path"),
        ("tile/0/000/", "not a tile's path"),
        ("tile/entries/000.p", "not a tile's path"),
        ("tile/data/000", "not a tile's path"),
        ("0/000", "not a tile's path"),
        ("tile/0/" + "x001/" * 8 + "000", "beyond any log"),
    ],
)
def test_a_path_that_is_no_tile_s_is_refused_with_a_reason(path, reason):
    with pytest.raises(TileError, match=reason):
        parse_tile_path(path)


def test_a_tile_s_hashes_are_the_merkle_tree_hashes_the_spec_defines():
    leaves = [leaf_hash(i.to_bytes(3, "big")) for i in range(70_000)]
    tree = Tree(leaves)
    for tile in tiles_of(70_000):  # the partial ones, up to level 2
        data = tile_hashes(tree, tile)
        step = 256**tile.level
        start = tile.index * 256 * step
        want = [mth(leaves[start + i * step : start + (i + 1) * step]) for i in range(tile.width)]
        assert data == b"".join(want) and len(data) == 32 * tile.width
    # A full level 1 tile's hash i is the root of full level 0 tile i; a partial tile is its full one's prefix.
    level1 = tile_hashes(tree, Tile(1, 0))
    assert level1[32 * 7 : 32 * 8] == mth(leaves[7 * 256 : 8 * 256]) == tree.subtree(7 * 256, 8 * 256)
    assert tile_hashes(tree, Tile(1, 0, 9)) == level1[: 32 * 9]
    assert tree.root(70_000) == mth(
        [
            tree.root(65536),
            mth([mth(leaves[65536 + i * 256 : 65536 + (i + 1) * 256]) for i in range(17)] + [mth(leaves[69888:])]),
        ]
    )
    with pytest.raises(ValueError):
        tile_hashes(tree, Tile(0, 273))  # beyond the tree
    with pytest.raises(TileError):
        tile_hashes(tree, Tile(ENTRIES, 0))


def test_entry_bundles():
    entries = [b"", b"{}", bytes(range(256)) * 3, b"x" * 0xFFFF]
    data = encode_bundle(entries)
    assert data[:6] == bytes.fromhex("00000002") + b"{}"  # big-endian uint16 lengths
    assert read_bundle(data, 4) == entries
    for cut, width, reason in [
        (data[:-1], 4, "cut short"),
        (data + b"\x00", 4, "more than the 4"),
        (data, 5, "not the 5"),
        (data + b"\x00\x00", 4, "more than"),
    ]:
        with pytest.raises(TileError, match=reason):
            read_bundle(cut, width)
    with pytest.raises(TileError, match="does not fit"):
        encode_bundle([b"x" * 0x10000])


def test_a_log_is_read_back_from_its_tiles_and_a_wrong_tile_is_named():
    entries = [b'{"n":%d}' % i for i in range(600)]
    tree = Tree([leaf_hash(e) for e in entries])
    served: dict[str, bytes] = {}
    for tile in tiles_of(600, full=True):
        served[f"https://x.example/log/{tile.path()}"] = tile_hashes(tree, tile)
    for tile in tiles_of(600, ENTRIES, full=True):
        start, end = tile.span()
        served[f"https://x.example/log/{tile.path()}"] = encode_bundle(entries[start:end])
    fetched: list[str] = []

    def fetch(url: str) -> bytes:
        fetched.append(url)
        return served[url]

    assert read_entries(fetch, "https://x.example/log", 600) == entries
    assert fetched == [
        "https://x.example/log/tile/entries/000",
        "https://x.example/log/tile/entries/001",
        "https://x.example/log/tile/entries/002.p/88",
    ]
    assert list(wrong_tiles(fetch, "https://x.example/log", tree)) == []
    # An older size reads other partial tiles: the beginnings of the tiles served now.
    for tile in tiles_of(300):
        now = next(t for t in tiles_of(600, full=True) if (t.level, t.index) == (tile.level, tile.index))
        served[f"https://x.example/log/{tile.path()}"] = served[f"https://x.example/log/{now.path()}"][
            : 32 * tile.width
        ]
    # (each entry there is {"n":2xx}, 9 bytes, after its 2-byte length)
    served["https://x.example/log/tile/entries/001.p/44"] = served["https://x.example/log/tile/entries/001"][: 44 * 11]
    assert read_entries(fetch, "https://x.example/log", 300) == entries[:300]
    assert list(wrong_tiles(fetch, "https://x.example/log", Tree(tree.leaves[:300]))) == []
    # A level 1 hash that is not the root of its level 0 tile.
    served["https://x.example/log/tile/1/000.p/2"] = served["https://x.example/log/tile/1/000.p/2"][:32] + bytes(32)
    assert list(wrong_tiles(fetch, "https://x.example/log", tree)) == ["tile/1/000.p/2"]
    served["https://x.example/log/tile/0/001"] = bytes(100)
    with pytest.raises(TileError, match="100 bytes, not the 8192"):
        list(wrong_tiles(fetch, "https://x.example/log", tree))
    served["https://x.example/log/tile/entries/001"] = b"\x00"
    with pytest.raises(TileError, match="tile/entries/001: entry bundle"):
        read_entries(fetch, "https://x.example/log", 600)
