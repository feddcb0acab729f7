"""Cards: codes, parsing, display, names, packs and card order (protocol step 8)."""

import pickle

import pytest

from fairdeal.cards import ALL_CARDS
from fairdeal.cards import Card
from fairdeal.cards import CardError
from fairdeal.cards import Rank
from fairdeal.cards import Suit
from fairdeal.cards import codes
from fairdeal.cards import pack
from fairdeal.cards import parse_cards

ONE_PACK_CODES = [
    "AC",
    "2C",
    "3C",
    "4C",
    "5C",
    "6C",
    "7C",
    "8C",
    "9C",
    "TC",
    "JC",
    "QC",
    "KC",
    "AD",
    "2D",
    "3D",
    "4D",
    "5D",
    "6D",
    "7D",
    "8D",
    "9D",
    "TD",
    "JD",
    "QD",
    "KD",
    "AH",
    "2H",
    "3H",
    "4H",
    "5H",
    "6H",
    "7H",
    "8H",
    "9H",
    "TH",
    "JH",
    "QH",
    "KH",
    "AS",
    "2S",
    "3S",
    "4S",
    "5S",
    "6S",
    "7S",
    "8S",
    "9S",
    "TS",
    "JS",
    "QS",
    "KS",
]


def test_one_pack_is_in_protocol_card_order():
    assert codes(pack()) == ONE_PACK_CODES
    assert [card.index for card in pack()] == list(range(52))
    assert tuple(pack()) == ALL_CARDS


@pytest.mark.parametrize("decks", [1, 2, 3, 4])
def test_k_packs_are_pack_one_then_pack_two_and_so_on(decks):
    cards = pack(decks)
    assert len(cards) == 52 * decks
    for i in range(decks):
        assert codes(cards[52 * i : 52 * (i + 1)]) == ONE_PACK_CODES


def test_pack_is_a_fresh_list():
    cards = pack()
    cards.pop()
    assert len(pack()) == 52


@pytest.mark.parametrize("decks", [0, -1, True, 1.5, "2", None])
def test_bad_pack_counts_are_refused(decks):
    with pytest.raises(CardError, match="number of packs"):
        pack(decks)


@pytest.mark.parametrize(
    "code, expected",
    [
        ("10H", "TH"),
        ("10h", "TH"),
        ("TH", "TH"),
        ("th", "TH"),
        (" 8c ", "8C"),
        ("AS", "AS"),
        ("qd", "QD"),
        ("KC", "KC"),
    ],
)
def test_parse_accepts_codes_with_10_any_case_and_spaces(code, expected):
    assert Card.parse(code).code == expected
    assert Card.parse(code) is Card.parse(expected)


def test_every_code_parses_back_to_its_card():
    for card in ALL_CARDS:
        assert Card.parse(card.code) is card
        assert str(card) == card.code
        assert eval(repr(card)) is card


@pytest.mark.parametrize(
    "code, display, name",
    [
        ("8H", "8♥", "eight of hearts"),
        ("TD", "10♦", "ten of diamonds"),
        ("AS", "A♠", "ace of spades"),
        ("QC", "Q♣", "queen of clubs"),
        ("KS", "K♠", "king of spades"),
        ("JH", "J♥", "jack of hearts"),
    ],
)
def test_display_and_names(code, display, name):
    card = Card.parse(code)
    assert card.display == display
    assert card.name == name


@pytest.mark.parametrize("code", ["1X", "", "11H", "10", "HH", "A", "ASS", "1H", "0C", "8♥", "ZZ"])
def test_bad_codes_raise_card_error_naming_the_input(code):
    with pytest.raises(CardError) as info:
        Card.parse(code)
    assert info.value.code == code
    assert repr(code) in str(info.value)
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize("code", [None, 8, ["AS"]])
def test_non_strings_are_not_cards(code):
    with pytest.raises(CardError):
        Card.parse(code)


def test_parse_cards_takes_commas_spaces_or_a_list():
    assert codes(parse_cards("AS, 10H 8c")) == ["AS", "TH", "8C"]
    assert codes(parse_cards(["AS", "10H"])) == ["AS", "TH"]
    assert parse_cards("") == []
    with pytest.raises(CardError, match="'9X'"):
        parse_cards("AS,9X,KH")


def test_cards_compare_in_card_order():
    assert Card.parse("AS") > Card.parse("KH")
    assert Card.parse("KC") < Card.parse("AD")
    assert Card.parse("2C") <= Card.parse("2C") >= Card.parse("AC")
    shuffled = pack()[::-1][10:] + pack()[::-1][:10]
    assert sorted(shuffled) == pack()


def test_cards_are_interned_immutable_and_pickle_to_themselves():
    card = Card(Rank.EIGHT, Suit.HEARTS)
    assert card is Card.parse("8H") is Card(8, 2)
    assert pickle.loads(pickle.dumps(card)) is card
    assert len({Card.parse("8H"), Card.parse("8h"), Card.parse("8D")}) == 2
    with pytest.raises(AttributeError):
        card.rank = Rank.NINE


@pytest.mark.parametrize(
    "text, suit",
    [("h", Suit.HEARTS), ("♠", Suit.SPADES), ("Clubs", Suit.CLUBS), ("diamond", Suit.DIAMONDS), (" S ", Suit.SPADES)],
)
def test_suit_parse(text, suit):
    assert Suit.parse(text) is suit


@pytest.mark.parametrize("text", ["", "X", "hearts!", "CD"])
def test_bad_suits_are_refused(text):
    with pytest.raises(CardError, match="not a suit"):
        Suit.parse(text)


def test_rank_and_suit_letters():
    assert "".join(rank.letter for rank in Rank) == "A23456789TJQK"
    assert "".join(suit.letter for suit in Suit) == "CDHS"
    assert Rank.TEN.label == "10"
    assert [suit.symbol for suit in Suit] == ["♣", "♦", "♥", "♠"]
