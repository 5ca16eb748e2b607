"""Tests for fogofwar.core.cards: piles, decks and the standard playing deck."""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fogofwar.core.cards import (
    DISCARD,
    Deck,
    EmptyPileError,
    JokerColor,
    Pile,
    PlayingCard,
    Rank,
    Suit,
    playing_cards,
)
from fogofwar.core.errors import InvalidNotationError, RulesError
from fogofwar.core.rng import stream

# ---------------------------------------------------------------------------------------
# Playing cards
# ---------------------------------------------------------------------------------------


def test_the_standard_deck_has_54_distinct_cards() -> None:
    cards = playing_cards()
    assert len(cards) == 54
    assert len(set(cards)) == 54
    assert len({str(c) for c in cards}) == 54
    assert len({c.to_json() for c in cards}) == 54
    assert sum(c.is_joker for c in cards) == 2
    assert len(playing_cards(jokers=False)) == 52
    for suit in Suit:
        assert sum(1 for c in cards if c.suit is suit) == 13
    # Zero Dark's tiers (ZD-C6): 36 pips, 12 faces, 4 aces, 2 jokers.
    assert sum(c.is_pip for c in cards) == 36
    assert sum(c.is_face for c in cards) == 12
    assert sum(c.is_ace for c in cards) == 4


def test_card_text() -> None:
    assert str(PlayingCard.of(10, Suit.SPADES)) == "10♠"
    assert str(PlayingCard.of(Rank.QUEEN, "hearts")) == "Q♥"
    assert str(PlayingCard.of(Rank.ACE, Suit.DIAMONDS)) == "A♦"
    assert str(PlayingCard.of(2, Suit.CLUBS)) == "2♣"
    assert str(PlayingCard.joker("red")) == "Red Joker"
    assert str(PlayingCard.joker(JokerColor.BLACK)) == "Black Joker"
    assert PlayingCard.of(10, "spades").to_json() == "10S"
    assert PlayingCard.joker("red").to_json() == "RJ"
    assert repr(PlayingCard.of(12, "hearts")) == "<PlayingCard Q♥>"


def test_card_values() -> None:
    assert PlayingCard.of(2, "clubs").value == 2
    assert PlayingCard.of(10, "clubs").value == 10
    assert PlayingCard.of(Rank.JACK, "clubs").value == 11
    assert PlayingCard.of(Rank.KING, "clubs").value == 13
    assert PlayingCard.of(Rank.ACE, "clubs").value == 14
    assert PlayingCard.joker("red").value == 0
    assert PlayingCard.joker("red").is_joker and not PlayingCard.of(3, "clubs").is_joker
    assert PlayingCard.of(3, "hearts").is_red and not PlayingCard.of(3, "spades").is_red
    assert PlayingCard.joker("red").is_red and not PlayingCard.joker("black").is_red
    assert Suit.SPADES.symbol == "♠" and Suit.CLUBS.letter == "C" and Suit.HEARTS.value == "hearts"
    assert [r.symbol for r in Rank][-4:] == ["J", "Q", "K", "A"]


@pytest.mark.parametrize("card", playing_cards(), ids=str)
def test_card_round_trips(card: PlayingCard) -> None:
    assert PlayingCard.parse(str(card)) == card
    assert PlayingCard.from_json(json.loads(json.dumps(card.to_json()))) == card


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("10S", "10♠"),
        ("10s", "10♠"),
        ("T♦", "10♦"),
        (" qh ", "Q♥"),
        ("Q ♥", "Q♥"),
        ("ace of spades", "A♠"),
        ("Queen of Hearts", "Q♥"),
        ("two of clubs", "2♣"),
        ("10 of diamonds", "10♦"),
        ("king of heart", "K♥"),
        ("RJ", "Red Joker"),
        ("black joker", "Black Joker"),
        ("Joker (red)", "Red Joker"),
    ],
)
def test_card_parse_spellings(text: str, expected: str) -> None:
    assert str(PlayingCard.parse(text)) == expected


@pytest.mark.parametrize(
    ("text", "position"),
    [("", 0), ("joker", 0), ("1♠", 0), ("10X", 2), ("11S", 0), ("king of cups", 8), ("Z♠", 0)],
)
def test_card_parse_errors(text: str, position: int) -> None:
    with pytest.raises(InvalidNotationError) as info:
        PlayingCard.parse(text)
    assert info.value.position == position
    assert isinstance(info.value, RulesError)


def test_card_parse_twice_and_refusals_twice() -> None:
    """A text read once is the same card again (the reads are kept), and a refusal is
    refused again with the same position (refusals are not kept)."""
    for text in ("10S", " q♥ ", "Red Joker", "ace of clubs"):
        assert PlayingCard.parse(text) == PlayingCard._read(text)
        assert PlayingCard.parse(text) is PlayingCard.parse(text)
    for _ in range(2):
        with pytest.raises(InvalidNotationError) as info:
            PlayingCard.parse("10X")
        assert info.value.position == 2


def test_equal_cards_hash_alike_and_decks_are_fresh_lists() -> None:
    """The hash is the card's code: equal cards (however made) hash alike, and the 54
    cards of the deck hash to 54 values. ``playing_cards`` hands out a new list each
    time (a caller may shuffle it), of the same immutable cards."""
    deck = playing_cards()
    assert len({hash(c) for c in deck}) == 54
    for card in deck:
        again = PlayingCard.parse(card.to_json())
        built = (
            PlayingCard.joker(card.joker_color)
            if card.joker_color is not None
            else PlayingCard(card.rank, card.suit)
        )
        assert again == built == card
        assert hash(again) == hash(built) == hash(card)
    other = playing_cards()
    assert other == deck and other is not deck
    other.reverse()
    assert playing_cards() == deck
    assert playing_cards(jokers=False) == deck[:52]


def test_card_construction_is_checked() -> None:
    with pytest.raises(ValueError):
        PlayingCard(None, Suit.SPADES)
    with pytest.raises(ValueError):
        PlayingCard(Rank.ACE, Suit.SPADES, JokerColor.RED)
    with pytest.raises(ValueError):
        PlayingCard.of(1, "spades")
    with pytest.raises(ValueError):
        PlayingCard.of(5, "cups")
    with pytest.raises(InvalidNotationError):
        PlayingCard.from_json(5)


def test_cards_are_immutable_values() -> None:
    card = PlayingCard.of(5, "hearts")
    assert card == PlayingCard.parse("5H")
    assert hash(card) == hash(PlayingCard.parse("5♥"))
    with pytest.raises(AttributeError):
        card.rank = Rank.SIX  # type: ignore[misc]


# ---------------------------------------------------------------------------------------
# Piles
# ---------------------------------------------------------------------------------------


def test_pile_order_is_top_first() -> None:
    pile = Pile([1, 2, 3, 4], name="p")
    assert list(pile) == [1, 2, 3, 4]
    assert pile.cards == (1, 2, 3, 4)
    assert pile.top == 1
    assert pile.peek(2) == [1, 2]
    assert pile.peek(10) == [1, 2, 3, 4]  # peek returns fewer when fewer remain
    assert pile.peek(0) == []
    assert len(pile) == 4  # peeking moves nothing
    assert pile.draw() == 1
    assert pile.draw_many(2) == [2, 3]
    assert list(pile) == [4]
    pile.put(9)
    pile.put_bottom(0)
    pile.put_many([7, 8])  # 8 ends on top
    assert list(pile) == [8, 7, 9, 4, 0]
    assert 9 in pile and 5 not in pile
    assert pile.count(9) == 1


def test_pile_draw_when_empty() -> None:
    pile: Pile[int] = Pile(name="control")
    assert not pile
    assert pile.top is None
    with pytest.raises(EmptyPileError) as info:
        pile.draw()
    assert isinstance(info.value, RulesError)
    assert info.value.pile == "control" and info.value.available == 0
    pile.put_many([1, 2])
    with pytest.raises(EmptyPileError) as info2:
        pile.draw_many(3)
    assert info2.value.wanted == 3 and info2.value.available == 2
    assert len(pile) == 2  # a failed draw changes nothing
    assert pile.draw_many(3, partial=True) == [2, 1]
    assert pile.draw_many(3, partial=True) == []
    with pytest.raises(ValueError):
        pile.draw_many(-1)


def test_pile_remove_and_take_all() -> None:
    pile = Pile(["a", "b", "a", "c"])
    pile.remove("a")
    assert list(pile) == ["b", "a", "c"]  # the topmost copy goes
    with pytest.raises(RulesError):
        pile.remove("z")
    assert pile.take_all() == ["b", "a", "c"]
    assert len(pile) == 0


def test_shuffle_is_determined_by_the_stream_key() -> None:
    def order(seed: int, *key: int | str) -> list[PlayingCard]:
        pile = Pile(playing_cards())
        pile.shuffle(stream(seed, "control-deck", *key))
        return list(pile)

    a = order(1)
    assert a == order(1)
    assert sorted(map(str, a)) == sorted(map(str, playing_cards()))
    assert a != playing_cards()
    assert a != order(2)
    assert a != order(1, "mission-2")
    assert len({tuple(order(s)) for s in range(20)}) == 20


def test_pile_clone_is_independent() -> None:
    pile = Pile(playing_cards(), name="control")
    twin = pile.clone()
    assert twin == pile and twin.name == "control"
    twin.draw()
    assert len(twin) == 53 and len(pile) == 54
    assert twin != pile
    assert copy.copy(pile) == pile and copy.deepcopy(pile) == pile
    assert copy.deepcopy(pile) is not pile


@given(st.lists(st.integers(0, 9), max_size=20), st.integers(0, 10**6))
def test_shuffle_permutes(cards: list[int], seed: int) -> None:
    pile = Pile(cards)
    pile.shuffle(stream(seed, "shuffle"))
    assert sorted(pile) == sorted(cards)


# ---------------------------------------------------------------------------------------
# Decks
# ---------------------------------------------------------------------------------------


def control_deck(seed: int = 1) -> Deck[PlayingCard]:
    deck = Deck(playing_cards(), name="control")
    deck.shuffle(stream(seed, "control"))
    return deck


def test_deck_draw_and_discard() -> None:
    deck = control_deck()
    top = deck.peek(3)
    card = deck.draw()
    assert card == top[0]
    assert len(deck) == 53
    assert deck.out_count == 1 and deck.out[card] == 1
    deck.discard(card)
    assert deck.out_count == 0
    assert deck.discard_pile.top == card
    assert list(deck)[:2] == top[1:]
    with pytest.raises(RulesError, match="not out"):
        deck.discard(card)  # already down
    assert len(deck.discard_pile) == 1  # the failed discard changed nothing


def test_deck_set_aside_and_reshuffle_zero_dark_buying_time() -> None:
    # ZD-B2/B3: the first D flips are set aside; when the deck runs out they become the
    # new Control Deck.
    deck = control_deck()
    spook_d = 3
    flipped = []
    for i in range(54):
        card = deck.draw()
        flipped.append(card)
        if i < spook_d:
            deck.set_aside(card, "buying-time")
        else:
            deck.discard(card)
    assert len(deck) == 0
    with pytest.raises(EmptyPileError):
        deck.draw()
    assert list(deck.pile("buying-time")) == flipped[:spook_d][::-1]
    assert deck.pile_names == (DISCARD, "buying-time")
    deck.reshuffle(stream(1, "control", "buying-time"), "buying-time")
    assert sorted(map(str, deck)) == sorted(map(str, flipped[:spook_d]))
    assert len(deck.pile("buying-time")) == 0
    assert len(deck.discard_pile) == 54 - spook_d


def test_deck_reshuffle_discard_by_default() -> None:
    deck = control_deck()
    for card in deck.draw_many(10):
        deck.discard(card)
    deck.reshuffle(stream(1, "again"))
    assert len(deck) == 54 and len(deck.discard_pile) == 0
    with pytest.raises(RulesError):
        deck.reshuffle(stream(1, "again"), "no-such-pile")
    assert len(deck) == 54


def test_deck_put_back_and_take() -> None:
    deck = Deck(["a", "b", "c"], name="d")
    a = deck.draw()
    deck.put_back(a, bottom=True)
    assert list(deck) == ["b", "c", "a"]
    b = deck.draw()
    deck.put_back(b)
    assert list(deck) == ["b", "c", "a"]
    with pytest.raises(RulesError):
        deck.put_back("z")
    card = deck.draw()
    deck.discard(card)
    assert deck.take(card) == card
    assert deck.out_count == 1
    with pytest.raises(RulesError):
        deck.take(card)
    with pytest.raises(RulesError):
        deck.take(card, "nowhere")


def test_deck_draw_many_partial() -> None:
    deck = Deck([1, 2, 3])
    with pytest.raises(EmptyPileError):
        deck.draw_many(4)
    assert len(deck) == 3 and deck.out_count == 0
    assert deck.draw_many(4, partial=True) == [1, 2, 3]
    assert deck.out_count == 3


def test_deck_clone_is_independent() -> None:
    deck = control_deck()
    card = deck.draw()
    deck.set_aside(card, "aside")
    held = deck.draw()
    twin = deck.clone()
    assert twin == deck
    twin.discard(held)
    twin.draw()
    assert twin != deck
    assert deck.out[held] == 1 and len(deck) == 52 and len(deck.discard_pile) == 0
    assert copy.deepcopy(deck) == deck
    assert "52 to draw" in repr(deck)


def test_same_key_same_game() -> None:
    a, b = control_deck(7), control_deck(7)
    assert [a.draw() for _ in range(54)] == [b.draw() for _ in range(54)]
    assert list(control_deck(7)) != list(control_deck(8))
