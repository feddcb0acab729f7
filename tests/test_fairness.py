"""Fairness protocol v1 against its vectors, and the Dealer's commit-reveal.

The vectors in spec/vectors/fairness.json come from the reference
implementation in spec/vectors/make_fairness_vectors.py, which does not
import fairdeal; here the library must reproduce every one of them.
"""

import hmac
import struct
from collections import Counter

import pytest
from helpers import VECTORS_DIR
from helpers import vector_script
from helpers import vectors
from hypothesis import example
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from fairdeal import fairness
from fairdeal.cards import codes
from fairdeal.cards import pack
from fairdeal.cards import parse_cards
from fairdeal.fairness import Dealer
from fairdeal.fairness import FairnessError
from fairdeal.fairness import SeedError
from fairdeal.fairness import SeedPhase
from fairdeal.fairness import Stream
from fairdeal.fairness import check_client_seed
from fairdeal.fairness import check_game_id
from fairdeal.fairness import check_label
from fairdeal.fairness import client_commitment
from fairdeal.fairness import commitment
from fairdeal.fairness import game_key
from fairdeal.fairness import label_key
from fairdeal.fairness import parse_server_seed
from fairdeal.fairness import shuffle

VECTORS = vectors("fairness.json")
SHUFFLES = VECTORS["shuffle"]
UNIFORMS = VECTORS["uniform"]
RULES = VECTORS["rules"]


REFERENCE = vector_script("make_fairness_vectors")

SEED = "00" * 32
KEY = game_key(SEED, "demo", ["alice", ""])


def _deck(vector):
    return pack(vector["packs"]) if "packs" in vector else parse_cards(vector["cards"])


# --- the vectors --------------------------------------------------------


def test_vectors_file_is_what_its_generator_writes():
    assert REFERENCE.dumps(REFERENCE.build()) == (VECTORS_DIR / "fairness.json").read_text(encoding="utf-8")
    assert VECTORS["format"] == "fairdeal/fairness-vectors/1"
    assert VECTORS["protocol"] == fairness.PROTOCOL


def test_vectors_cover_what_the_spec_promises():
    assert len(SHUFFLES) >= 20
    labels = {v["label"] for v in SHUFFLES}
    assert {"draw-for-deal", "hand/1/deal", "hand/1/restock/1", "session_9/deal-a"} <= labels
    assert len({v["server_seed"] for v in SHUFFLES}) >= 4
    assert any(not v["game_id"].isascii() for v in SHUFFLES)
    assert any(v["client_seeds"] == [] for v in SHUFFLES)
    assert any("" in v["client_seeds"] for v in SHUFFLES)
    assert any(any(not s.isascii() for s in v["client_seeds"]) for v in SHUFFLES)
    assert {v.get("packs") for v in SHUFFLES} >= {1, 2}
    assert any("cards" in v and 1 < len(v["cards"]) < 52 for v in SHUFFLES)


@pytest.mark.parametrize("vector", SHUFFLES, ids=[v["name"] for v in SHUFFLES])
def test_shuffle_vector(vector):
    seed, game_id, seeds, label = vector["server_seed"], vector["game_id"], vector["client_seeds"], vector["label"]
    assert commitment(seed) == vector["commitment"]
    assert [client_commitment(s) for s in seeds] == vector["client_commitments"]
    key = game_key(seed, game_id, seeds)
    assert key.hex() == vector["game_key"]
    assert label_key(key, label).hex() == vector["label_key"]
    assert Stream(key, label).read(64).hex() == vector["stream_first_64"]
    assert codes(shuffle(key, label, _deck(vector))) == vector["order"]


def test_label_keys_of_games_taken_in_turn_are_each_their_own_games():
    """label_key keeps the last game key's HMAC blocks: two games' keys asked in turn (two
    tables in one process) each get the key their own game key gives, as the spec computes it."""
    vector_a, vector_b = SHUFFLES[0], next(v for v in SHUFFLES if v["game_key"] != SHUFFLES[0]["game_key"])
    for vector in (vector_a, vector_b, vector_a, vector_b):
        key = bytes.fromhex(vector["game_key"])
        message = fairness._lp("fairdeal/v1/shuffle") + fairness._lp(vector["label"])
        assert label_key(key, vector["label"]) == hmac.digest(key, message, "sha256")
        assert label_key(key, vector["label"]).hex() == vector["label_key"]


@pytest.mark.parametrize("vector", [v for v in SHUFFLES if v["client_seeds"]], ids=lambda v: v["name"])
def test_dealer_deals_the_vectors(vector):
    """A Dealer run through commit-reveal reaches the same game key as the vector."""
    seeds = vector["client_seeds"]
    humans = [seat for seat, s in enumerate(seeds) if s]  # seats with "" play as bots
    dealer = Dealer(vector["game_id"], len(seeds), vector["server_seed"], humans)
    assert dealer.commitment == vector["commitment"]
    for seat in humans:
        dealer.commit(seat, vector["client_commitments"][seat])
    for seat in humans:
        dealer.reveal_client_seed(seat, seeds[seat])
    if not humans:
        dealer.start()
    assert dealer.key_fixed
    assert dealer.seat_seeds() == seeds
    assert codes(dealer.shuffle(vector["label"], _deck(vector))) == vector["order"]


def test_upper_case_seed_is_the_same_seed():
    vector = SHUFFLES[4]
    upper = vector["server_seed"].upper()
    assert commitment(upper) == vector["commitment"]
    assert game_key(upper, vector["game_id"], vector["client_seeds"]).hex() == vector["game_key"]


def test_commitment_hashes_the_seed_bytes_not_its_hex_text():
    import hashlib

    assert commitment(SEED) == hashlib.sha256(bytes(32)).hexdigest()
    assert commitment(SEED) != hashlib.sha256(SEED.encode()).hexdigest()


# --- uniform(n), through the real Stream fed chosen bytes ---------------

SENTINEL = 0x5E5E0000


@pytest.fixture
def fed_stream(monkeypatch):
    """A real :class:`Stream` whose block source gives chosen words instead of HMAC output.

    After the chosen words come sentinel words ``SENTINEL + i``, so the next
    word read tells how many words were consumed.
    """

    def make(words):
        padded = list(words) + [SENTINEL + i for i in range(64)]
        data = struct.pack(f">{len(padded)}I", *padded)

        def blocks(self, start, count):
            chunk = data[32 * start : 32 * (start + count)]
            assert len(chunk) == 32 * count, "the test fed too few words"
            return chunk

        monkeypatch.setattr(fairness._BlockHmac, "blocks", blocks)
        return Stream(KEY, "test")

    return make


def _consumed(stream, fed):
    nxt = stream.u32()
    assert nxt >= SENTINEL, "a fed word was left unread"
    return len(fed) + nxt - SENTINEL


@pytest.mark.parametrize("vector", UNIFORMS, ids=[v["note"] for v in UNIFORMS])
def test_uniform_vector(vector, fed_stream):
    words = list(struct.unpack(f">{len(vector['stream']) // 8}I", bytes.fromhex(vector["stream"])))
    stream = fed_stream(words)
    assert stream.uniform(vector["n"]) == vector["result"]
    assert _consumed(stream, words) == vector["words_consumed"]


@pytest.mark.parametrize("n", [0, -1, 2**32 + 1])
def test_uniform_refuses_n_out_of_range(n):
    with pytest.raises(FairnessError, match="1 <= n <= 2\\*\\*32"):
        Stream(KEY, "x").uniform(n)


def test_uniform_reads_the_stream_in_order():
    vector = SHUFFLES[0]
    stream = Stream(bytes.fromhex(vector["game_key"]), vector["label"])
    first = bytes.fromhex(vector["stream_first_64"])
    words = struct.unpack(">16I", first)
    # n = 2**32 returns each word unchanged, so it shows which word was read.
    assert [stream.uniform(2**32) for _ in range(16)] == list(words)


def test_stream_read_is_word_aligned():
    with pytest.raises(FairnessError, match="4-byte words"):
        Stream(KEY, "x").read(3)


# --- Stream.shuffle, including its rejection path ------------------------


def _rejecting_words():
    """Words for a 52-card shuffle with rejections in awkward places.

    Draw k (k = 0 ... 50) is uniform(52 - k); 0xFFFFFFFF is rejected by every
    n that is not a power of two.
    """
    words = []
    for k in range(51):
        n = 52 - k
        if k in (0, 5, 6, 7, 49, 50) and n & (n - 1):  # first draw, a block edge, the last draws
            words.append(0xFFFFFFFF)
        if k == 21:
            words += [0xFFFFFFFF] * 9  # nine in a row for n = 31: more than a block of rejections
        words.append((k * 0x9E3779B9 + 12345) & 0xFFFFFFFF)
    return words


def test_shuffle_rejection_path_matches_reference_fisher_yates(fed_stream):
    words = _rejecting_words()
    stream = fed_stream(words)
    got = codes(stream.shuffle(pack()))
    expected = REFERENCE.ref_shuffle(iter(words), REFERENCE.ONE_PACK)
    assert got == expected
    rejected = [52, 47, 46, 45, 3] + [31] * 9  # n = 2 (k = 50) accepts 0xFFFFFFFF
    assert _consumed(stream, words) == len(words) == 51 + len(rejected)


def test_shuffle_without_rejection_takes_one_word_per_draw(fed_stream):
    words = [(k * 2654435761) & 0x7FFFFFFF for k in range(51)]
    stream = fed_stream(words)
    assert codes(stream.shuffle(pack())) == REFERENCE.ref_shuffle(iter(words), REFERENCE.ONE_PACK)
    assert _consumed(stream, words) == 51


def test_stream_goes_on_after_a_shuffle():
    vector = next(v for v in SHUFFLES if v["name"] == "short list, deal label")
    stream = Stream(bytes.fromhex(vector["game_key"]), vector["label"])
    assert codes(stream.shuffle(_deck(vector))) == vector["order"]
    # Five cards take four words; the fifth word is next.
    assert stream.read(4).hex() == vector["stream_first_64"][32:40]


def test_long_lists_follow_the_same_protocol():
    """Past 1024 items the shuffle leaves its fast path; the result must not change."""
    items = list(range(1100))
    assert shuffle(KEY, "big", items) == REFERENCE.ref_shuffle(REFERENCE.ref_words(KEY, "big"), items)


def test_same_inputs_same_order_and_input_untouched():
    cards = pack(2)
    first = shuffle(KEY, "hand/1/deal", cards)
    assert shuffle(KEY, "hand/1/deal", cards) == first
    assert cards == pack(2)
    assert shuffle(KEY, "hand/2/deal", cards) != first
    assert shuffle(game_key(SEED, "demo", ["alice", "x"]), "hand/1/deal", cards) != first


@settings(derandomize=True, max_examples=200, deadline=None)
@given(
    key=st.binary(min_size=32, max_size=32),
    label=st.from_regex(r"[a-z0-9/_-]{1,64}", fullmatch=True),
    items=st.lists(st.integers(0, 5), max_size=120),
)
@example(key=bytes(32), label="draw-for-deal", items=[])
@example(key=bytes(32), label="x", items=[7])
def test_every_shuffle_is_a_permutation(key, label, items):
    out = shuffle(key, label, items)
    assert Counter(out) == Counter(items)
    assert out == REFERENCE.ref_shuffle(REFERENCE.ref_words(key, label), items)


# --- input the protocol refuses -----------------------------------------


@pytest.mark.parametrize(
    "seed, message",
    [
        ("zz" * 32, "hex digits 0-9a-f only"),
        ("0" * 63, "not 63 characters"),
        ("0" * 66, "not 66 characters"),
        ("", "not 0 characters"),
        (bytes(32), "must be a string"),
        (None, "must be a string"),
    ],
)
def test_bad_server_seeds_are_refused_without_echo(seed, message):
    with pytest.raises(FairnessError, match=message) as info:
        parse_server_seed(seed)
    if isinstance(seed, str) and seed:
        assert seed not in str(info.value)
    with pytest.raises(FairnessError):
        commitment(seed)


def test_a_nearly_hex_seed_is_not_echoed():
    seed = "ab" * 31 + "xy"
    with pytest.raises(FairnessError) as info:
        game_key(seed, "demo", [])
    assert "abab" not in str(info.value)


@pytest.mark.parametrize("label", ["", "Hand/1/deal", "hand 1", "hand.1", "é", "a" * 65, "hand/1/deal\n", None])
def test_bad_labels_are_refused(label):
    with pytest.raises(FairnessError, match="a label is 1 to 64 characters"):
        check_label(label)
    with pytest.raises(FairnessError):
        shuffle(KEY, label, [1, 2, 3])


@pytest.mark.parametrize("label", ["a" * 64, "draw-for-deal", "hand/12/restock/3", "x_y-z/0"])
def test_good_labels(label):
    assert check_label(label) == label


def test_client_seed_size_limit_is_in_utf8_bytes():
    assert check_client_seed("a" * 128) == "a" * 128
    assert check_client_seed("é" * 64) == "é" * 64  # 128 bytes
    assert check_client_seed("") == ""
    for seed in ["a" * 129, "é" * 65, "🂡" * 33]:
        with pytest.raises(FairnessError, match="at most 128 UTF-8 bytes"):
            client_commitment(seed)
        with pytest.raises(FairnessError, match="at most 128 UTF-8 bytes"):
            game_key(SEED, "demo", ["ok", seed])
    with pytest.raises(FairnessError, match="valid Unicode"):
        check_client_seed("\udcff")
    with pytest.raises(FairnessError, match="must be a string"):
        check_client_seed(b"bytes")


def test_client_seeds_must_be_a_list_not_a_string():
    with pytest.raises(FairnessError, match="one seed per seat"):
        game_key(SEED, "demo", "alice")


@pytest.mark.parametrize(
    "game_id, message",
    [
        ("", "non-empty"),
        (None, "non-empty"),
        ("g" * 129, "at most 128 UTF-8 bytes"),
        ("é" * 65, "at most 128 UTF-8 bytes"),
        ("a\nb", "control characters"),
        ("tab\there", "control characters"),
        ("del\x7f", "control characters"),
    ],
)
def test_bad_game_ids_are_refused(game_id, message):
    with pytest.raises(FairnessError, match=message):
        check_game_id(game_id)
    with pytest.raises(FairnessError):
        game_key(SEED, game_id, [])


def test_good_game_ids():
    for game_id in ["x", "g" * 128, "partie-été-♠", "table 7 / game 42"]:
        assert check_game_id(game_id) == game_id


# --- the Dealer's commit-reveal -----------------------------------------


def _dealer(humans=(0, 1, 2), seats=4):
    return Dealer("table-1", seats, SEED, list(humans))


def test_commit_reveal_in_order_fixes_the_key():
    dealer = _dealer()
    seeds = {0: "alice", 1: "bob", 2: "carol"}
    for seat, seed in seeds.items():
        assert not dealer.all_committed
        dealer.commit(seat, client_commitment(seed))
    assert dealer.all_committed
    for seat, seed in seeds.items():
        assert not dealer.key_fixed
        dealer.reveal_client_seed(seat, seed)
    assert dealer.key_fixed
    assert dealer.seat_seeds() == ["alice", "bob", "carol", ""]
    expected = shuffle(game_key(SEED, "table-1", ["alice", "bob", "carol", ""]), "hand/1/deal", pack())
    assert dealer.shuffle("hand/1/deal", pack()) == expected


def test_no_reveal_before_every_seat_has_committed():
    dealer = _dealer()
    dealer.commit(0, client_commitment("alice"))
    with pytest.raises(FairnessError, match=r"waiting for seats \[1, 2\]"):
        dealer.reveal_client_seed(0, "alice")


def test_a_reveal_must_match_its_commitment():
    dealer = _dealer(humans=[0, 1])
    dealer.commit(0, client_commitment("alice"))
    dealer.commit(1, client_commitment("bob"))
    with pytest.raises(FairnessError, match="does not match its commitment"):
        dealer.reveal_client_seed(0, "alicE")
    dealer.reveal_client_seed(0, "alice")  # the right seed is still accepted
    assert not dealer.key_fixed


def test_no_second_commit_or_reveal():
    dealer = _dealer(humans=[0, 1])
    dealer.commit(0, client_commitment("alice"))
    with pytest.raises(FairnessError, match="already committed"):
        dealer.commit(0, client_commitment("other"))
    dealer.commit(1, client_commitment("bob"))
    dealer.reveal_client_seed(0, "alice")
    with pytest.raises(FairnessError, match="already revealed"):
        dealer.reveal_client_seed(0, "alice")


def test_nothing_is_accepted_after_the_key_is_fixed():
    dealer = _dealer(humans=[0])
    dealer.commit(0, client_commitment("alice"))
    dealer.reveal_client_seed(0, "alice")
    assert dealer.key_fixed
    with pytest.raises(FairnessError, match="already fixed"):
        dealer.commit(0, client_commitment("alice"))
    with pytest.raises(FairnessError, match="already fixed"):
        dealer.reveal_client_seed(0, "alice")
    with pytest.raises(FairnessError, match="already fixed"):
        dealer.start()


def test_start_early_uses_the_empty_string_for_missing_seeds():
    dealer = _dealer(humans=[0, 1, 2])
    dealer.commit(0, client_commitment("alice"))
    dealer.commit(1, client_commitment("bob"))
    assert dealer.start() == ["", "", "", ""]  # committed but never revealed counts as ""
    assert dealer.shuffle("hand/1/deal", pack()) == shuffle(game_key(SEED, "table-1", [""] * 4), "hand/1/deal", pack())
    with pytest.raises(FairnessError, match="already fixed"):
        dealer.commit(2, client_commitment("carol"))


def test_start_after_some_reveals_keeps_them():
    dealer = _dealer(humans=[0, 1])
    dealer.commit(0, client_commitment("alice"))
    dealer.commit(1, client_commitment("bob"))
    dealer.reveal_client_seed(1, "bob")
    assert dealer.start() == ["", "bob", "", ""]


def test_bots_bring_no_seed():
    dealer = _dealer(humans=[0])
    with pytest.raises(FairnessError, match="seat 3 is played by a bot and brings no client seed"):
        dealer.commit(3, client_commitment("bot"))


def test_no_shuffle_before_the_key_is_fixed():
    dealer = _dealer()
    with pytest.raises(FairnessError, match="not fixed yet"):
        dealer.shuffle("hand/1/deal", pack())


def test_a_revealed_seed_closes_the_commit_reveal():
    # A seat that has seen the server seed could choose its client seed to suit it.
    dealer = _dealer(humans=[0, 1])
    dealer.commit(0, client_commitment("alice"))
    seed = dealer.reveal()
    assert commitment(seed) == dealer.commitment
    with pytest.raises(FairnessError, match="revealed"):
        dealer.commit(1, client_commitment("bob"))
    with pytest.raises(FairnessError, match="revealed"):
        dealer.start()


def test_repr_never_shows_the_seed():
    dealer = Dealer.new("table-1", 2)
    seed = dealer.reveal()
    for text in (repr(dealer), str(dealer), f"{dealer}"):
        assert seed not in text
        assert seed[:16] not in text
    assert dealer.commitment[:16] in repr(dealer)


def test_fresh_seeds_differ_and_commit():
    a, b = Dealer.new("g", 2), Dealer.new("g", 2)
    assert a.commitment != b.commitment
    assert len(fairness.new_server_seed()) == 64


@pytest.mark.parametrize(
    "args, message",
    [
        (("table", 0, SEED), "number of seats"),
        (("table", True, SEED), "number of seats"),
        (("table", 2, SEED, [2]), "seat 2 is not a seat"),
        (("table", 2, SEED, [-1]), "seat -1 is not a seat"),
        (("", 2, SEED), "game id"),
        (("table", 2, "00"), "64 hex digits"),
    ],
)
def test_dealer_refuses_bad_set_up(args, message):
    with pytest.raises(FairnessError, match=message):
        Dealer(*args)


def test_commitments_must_be_hex():
    dealer = _dealer()
    with pytest.raises(FairnessError, match="commitment is not 64 lowercase hex digits"):
        dealer.commit(0, "alice")
    dealer.commit(0, client_commitment("alice").upper())
    assert dealer.client_commitments[0] == client_commitment("alice")


# -- the seed phase: one sequence for the server and the verifier ---------------


def test_the_seed_phase_reads_the_lines_the_dealer_wrote():
    dealer = _dealer(humans=[0, 2])
    lines = []
    for seat, seed in ((2, "carol"), (0, "")):
        dealer.commit(seat, client_commitment(seed))
        lines.append({"type": "client-commit", "seat": seat, "commitment": dealer.client_commitments[seat]})
    for seat, seed in ((0, ""), (2, "carol")):
        dealer.reveal_client_seed(seat, seed)
        lines.append({"type": "client-reveal", "seat": seat, "seed": seed})
    lines.append(dealer.start_line())
    assert lines[-1] == {"type": "start", "client_seeds": ["", "", "carol", ""], "bots": [1, 3]}
    phase = SeedPhase(4, humans=[0, 2])
    for line in lines:
        phase.read({**line, "seq": 1, "prev": "00" * 32})  # the chain's fields are the record's, not the phase's
    assert phase.started and phase.seat_seeds() == dealer.seat_seeds() and phase.bots() == [1, 3]


@pytest.mark.parametrize(
    ("line", "reason", "out_of_order"),
    [
        (
            {"type": "client-commit", "seat": 1, "commitment": "ab" * 32},
            "seat 1 is played by a bot and brings no client seed",
            True,
        ),
        (
            {"type": "client-commit", "seat": 4, "commitment": "ab" * 32},
            "client-commit seat 4 is not a seat of this 4-seat game",
            True,
        ),
        (
            {"type": "client-commit", "seat": 0, "commitment": "AB" * 32},
            "client-commit commitment is not 64 lowercase hex digits",
            False,
        ),
        (
            {"type": "client-commit", "seat": 0, "commitment": "ab" * 32, "x": 1},
            "client-commit has a field 'x' that the format does not give",
            False,
        ),
        (
            {"type": "client-reveal", "seat": 0, "seed": "ann"},
            "seat 0 revealed its client seed before every seat committed (waiting for seats [0, 2])",
            True,
        ),
        (
            {"type": "start", "client_seeds": ["", "", "", ""], "bots": [0, 1, 2]},
            "start bots [0, 1, 2] but the seats without a client seed are [0, 1, 2, 3]",
            False,
        ),
        (
            {"type": "start", "client_seeds": ["", ""], "bots": []},
            "start client_seeds must list one seed for each of the 4 seats",
            False,
        ),
    ],
)
def test_the_seed_phase_says_why_it_refuses_a_step(line, reason, out_of_order):
    phase = SeedPhase(4, humans=[0, 2])
    with pytest.raises(SeedError) as refused:
        phase.read(line)
    assert (refused.value.reason, refused.value.out_of_order) == (reason, out_of_order)
    assert isinstance(refused.value, FairnessError) and not phase.commitments and not phase.started


def test_a_session_phase_names_no_bots_and_every_seat_brings_a_seed():
    phase = SeedPhase(2)
    assert phase.humans == (0, 1) and phase.start_line() == {"type": "start", "client_seeds": ["", ""]}
    with pytest.raises(SeedError, match="start has a field 'bots' that the format does not give"):
        phase.read({"type": "start", "client_seeds": ["", ""], "bots": [0, 1]})
    phase.read({"type": "start", "client_seeds": ["", ""]})
    with pytest.raises(
        SeedError, match="a client-commit line after the start: the client seeds were fixed at the start"
    ):
        phase.commit(0, client_commitment("late"))


@pytest.mark.parametrize("vector", RULES, ids=[v["name"] for v in RULES])
def test_secret_rule_vectors(vector):
    key = game_key(vector["server_seed"], vector["game_id"], vector["client_seeds"])
    hand = vector["hand"]
    nonce = fairness.stream_bytes(key, f"hand/{hand}/rule-nonce", 32).hex()
    assert nonce == vector["nonce"]
    assert shuffle(key, f"hand/{hand}/rule", range(vector["library_size"]))[0] == vector["server_rule_index"]
    assert fairness.rule_commitment(vector["rule"], nonce) == vector["commitment"]


def test_a_rule_commitment_binds_rule_and_nonce():
    nonce = "00" * 32
    base = fairness.rule_commitment("card.rank > 3", nonce)
    assert fairness.rule_commitment("card.rank > 4", nonce) != base
    assert fairness.rule_commitment("card.rank > 3", "01" + "00" * 31) != base
    with pytest.raises(fairness.FairnessError, match="64 lowercase hex"):
        fairness.rule_commitment("card.rank > 3", "00" * 31)
    with pytest.raises(fairness.FairnessError, match="64 lowercase hex"):
        fairness.rule_commitment("card.rank > 3", "AB" * 32)
