"""Cards: piles and decks of any card type, and the standard 54-card playing deck.

* :class:`Pile` — an ordered stack of cards (generic over the card type): shuffle from a
  keyed :class:`~fogofwar.core.rng.Stream`, draw, peek, put cards on top or at the
  bottom. Iteration and listings go **top first**.
* :class:`Deck` — a draw pile plus a discard pile and any number of named side piles
  ("set aside"), with a ledger of the cards that are out (drawn and not yet put
  anywhere), so that a card cannot be discarded twice or conjured from nowhere.
* :class:`PlayingCard` — an immutable playing card (``"10♠"``, ``"Q♥"``, ``"Red Joker"``)
  and :func:`playing_cards`, the 52 + 2 jokers deck (Zero Dark's Control Deck, ZD-C6).

Every shuffle is the stream's own Fisher-Yates (:meth:`Stream.shuffle`), so a deck's
order is a pure function of the stream's key. Running out is an error, never a silent
reshuffle: :meth:`Pile.draw` raises :class:`EmptyPileError` (a
:class:`~fogofwar.core.errors.RulesError`) when empty, and :meth:`Pile.draw_many` raises
too unless asked for ``partial=True``, which returns the fewer cards there are. Whether
an empty deck ends the mission or is refilled is the game's decision.

Piles are cheap to :meth:`~Pile.clone` (one list copy; the cards are immutable values
shared between clones), as games are cloned for search.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Hashable, Iterable, Iterator
from dataclasses import dataclass, field
from enum import Enum, IntEnum
from typing import Final, Generic, TypeVar

from fogofwar.core.errors import InvalidNotationError, RulesError
from fogofwar.core.rng import Stream

__all__ = [
    "DISCARD",
    "Deck",
    "EmptyPileError",
    "JokerColor",
    "Pile",
    "PlayingCard",
    "Rank",
    "Suit",
    "playing_cards",
]

C = TypeVar("C", bound=Hashable)

#: The name of a deck's discard pile.
DISCARD: Final = "discard"


class EmptyPileError(RulesError):
    """A draw from a pile that has too few cards.

    Attributes:
        pile: the pile's name.
        wanted: how many cards were asked for.
        available: how many there were.
    """

    def __init__(self, pile: str, wanted: int, available: int) -> None:
        self.pile = pile
        self.wanted = wanted
        self.available = available
        what = "is empty" if available == 0 else f"has only {available} card(s)"
        super().__init__(f"cannot draw {wanted} card(s): pile {pile!r} {what}")


class Pile(Generic[C]):
    """An ordered stack of cards, top first.

    Args:
        cards: the cards, top card first.
        name: a name for messages (``"draw"``, ``"discard"``, ``"hand"``...).
    """

    __slots__ = ("_cards", "name")

    def __init__(self, cards: Iterable[C] = (), *, name: str = "pile") -> None:
        self.name = name
        # Stored bottom first, so that drawing from the top is a cheap list.pop().
        self._cards: list[C] = list(cards)
        self._cards.reverse()

    # -- reading ------------------------------------------------------------------------

    def __len__(self) -> int:
        return len(self._cards)

    def __bool__(self) -> bool:
        return bool(self._cards)

    def __iter__(self) -> Iterator[C]:
        """The cards from the top down."""
        return reversed(self._cards)

    def __contains__(self, card: object) -> bool:
        return card in self._cards

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Pile):
            return NotImplemented
        return self._cards == other._cards

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        return f"Pile({list(self)!r}, name={self.name!r})"

    @property
    def cards(self) -> tuple[C, ...]:
        """The cards, top first (a snapshot)."""
        return tuple(reversed(self._cards))

    def peek(self, n: int = 1) -> list[C]:
        """The top ``n`` cards, top first, without moving them (fewer if fewer remain)."""
        _check_count(n)
        if n == 0:
            return []
        return self._cards[: -n - 1 : -1]

    @property
    def top(self) -> C | None:
        """The top card, or ``None`` when empty."""
        return self._cards[-1] if self._cards else None

    def count(self, card: C) -> int:
        """How many copies of ``card`` the pile holds."""
        return self._cards.count(card)

    # -- changing -------------------------------------------------------------------------

    def draw(self) -> C:
        """Take the top card.

        Raises:
            EmptyPileError: the pile is empty (nothing changes).
        """
        if not self._cards:
            raise EmptyPileError(self.name, 1, 0)
        return self._cards.pop()

    def draw_many(self, n: int, *, partial: bool = False) -> list[C]:
        """Take the top ``n`` cards, in the order drawn (top first).

        Args:
            n: how many.
            partial: if true, take what there is when fewer than ``n`` remain.

        Raises:
            EmptyPileError: fewer than ``n`` cards and not ``partial`` (nothing changes).
        """
        _check_count(n)
        if n > len(self._cards) and not partial:
            raise EmptyPileError(self.name, n, len(self._cards))
        n = min(n, len(self._cards))
        taken = self._cards[len(self._cards) - n :]
        del self._cards[len(self._cards) - n :]
        taken.reverse()
        return taken

    def put(self, card: C) -> None:
        """Put one card on top."""
        self._cards.append(card)

    def put_many(self, cards: Iterable[C]) -> None:
        """Put cards on top one by one (the last one ends on top)."""
        self._cards.extend(cards)

    def put_bottom(self, card: C) -> None:
        """Slide one card under the pile."""
        self._cards.insert(0, card)

    def remove(self, card: C) -> None:
        """Take one copy of ``card`` out of the pile, wherever it is.

        Raises:
            RulesError: the card is not in the pile.
        """
        # Search from the top so the topmost copy goes.
        for i in range(len(self._cards) - 1, -1, -1):
            if self._cards[i] == card:
                del self._cards[i]
                return
        raise RulesError(f"{card} is not in pile {self.name!r}")

    def take_all(self) -> list[C]:
        """Empty the pile; return its cards top first."""
        taken = self._cards[::-1]
        self._cards.clear()
        return taken

    def shuffle(self, stream: Stream) -> None:
        """Shuffle in place; the order depends only on the cards and the stream's key."""
        stream.shuffle(self._cards)

    # -- copying ----------------------------------------------------------------------------

    def clone(self) -> Pile[C]:
        """An independent copy (the cards themselves are shared: they are immutable)."""
        other: Pile[C] = Pile.__new__(Pile)
        other.name = self.name
        other._cards = self._cards.copy()
        return other

    __copy__ = clone

    def __deepcopy__(self, memo: dict[int, object]) -> Pile[C]:
        return self.clone()


def _check_count(n: int) -> None:
    if isinstance(n, bool) or not isinstance(n, int):
        raise TypeError(f"a number of cards is an int, got {n!r}")
    if n < 0:
        raise ValueError(f"a number of cards cannot be negative, got {n}")


class Deck(Generic[C]):
    """A draw pile, a discard pile and named side piles, with a ledger of cards out.

    Cards leave the draw pile with :meth:`draw` (or :meth:`draw_many`) and are *out*
    until the game puts them somewhere: :meth:`discard`, :meth:`set_aside` (to a named
    side pile) or :meth:`put_back` (onto the draw pile). Putting down a card that is not
    out raises a :class:`RulesError` and changes nothing. :meth:`reshuffle` gathers
    piles into the draw pile and shuffles it.

    Args:
        cards: the cards of the draw pile, top first (shuffle it with :meth:`shuffle`).
        name: the deck's name, for messages.
    """

    __slots__ = ("_draw", "_out", "_piles", "name")

    def __init__(self, cards: Iterable[C] = (), *, name: str = "deck") -> None:
        self.name = name
        self._draw: Pile[C] = Pile(cards, name=f"{name}/draw")
        self._piles: dict[str, Pile[C]] = {DISCARD: Pile(name=f"{name}/{DISCARD}")}
        self._out: Counter[C] = Counter()

    # -- reading ------------------------------------------------------------------------

    def __len__(self) -> int:
        """The number of cards left to draw."""
        return len(self._draw)

    def __iter__(self) -> Iterator[C]:
        """The draw pile, top first."""
        return iter(self._draw)

    def __repr__(self) -> str:
        sides = ", ".join(f"{k}={len(p)}" for k, p in self._piles.items())
        return f"<Deck {self.name!r}: {len(self._draw)} to draw, {sides}, {self.out_count} out>"

    def __eq__(self, other: object) -> bool:
        """Same draw pile, same side piles (by name and contents) and same cards out."""
        if not isinstance(other, Deck):
            return NotImplemented
        return self._draw == other._draw and self._piles == other._piles and self._out == other._out

    __hash__ = None  # type: ignore[assignment]  # mutable

    @property
    def draw_pile(self) -> Pile[C]:
        """The draw pile (read it; change it through the deck's methods)."""
        return self._draw

    @property
    def discard_pile(self) -> Pile[C]:
        """The discard pile, most recent discard on top."""
        return self._piles[DISCARD]

    def pile(self, name: str) -> Pile[C]:
        """The side pile ``name`` (created empty on first use), or the discard pile."""
        if name not in self._piles:
            self._piles[name] = Pile(name=f"{self.name}/{name}")
        return self._piles[name]

    @property
    def pile_names(self) -> tuple[str, ...]:
        """The names of the discard and side piles, in order of creation."""
        return tuple(self._piles)

    @property
    def out(self) -> Counter[C]:
        """The cards that are out (drawn and not yet put down): a copy."""
        return Counter(self._out)

    @property
    def out_count(self) -> int:
        """How many cards are out."""
        return self._out.total()

    def peek(self, n: int = 1) -> list[C]:
        """The top ``n`` cards of the draw pile, top first (fewer if fewer remain)."""
        return self._draw.peek(n)

    # -- moving cards -------------------------------------------------------------------

    def shuffle(self, stream: Stream) -> None:
        """Shuffle the draw pile."""
        self._draw.shuffle(stream)

    def draw(self) -> C:
        """Draw (flip) the top card; it is out until put down.

        Raises:
            EmptyPileError: the draw pile is empty (nothing changes).
        """
        card = self._draw.draw()
        self._out[card] += 1
        return card

    def draw_many(self, n: int, *, partial: bool = False) -> list[C]:
        """Draw ``n`` cards (fewer with ``partial=True`` when fewer remain).

        Raises:
            EmptyPileError: fewer than ``n`` cards and not ``partial`` (nothing changes).
        """
        cards = self._draw.draw_many(n, partial=partial)
        self._out.update(cards)
        return cards

    def _take_out(self, card: C) -> None:
        if self._out[card] <= 0:
            raise RulesError(f"{card} is not out of deck {self.name!r}: draw it first")
        self._out[card] -= 1
        if not self._out[card]:
            del self._out[card]

    def discard(self, card: C) -> None:
        """Put a drawn card on the discard pile.

        Raises:
            RulesError: the card is not out (nothing changes).
        """
        self._take_out(card)
        self._piles[DISCARD].put(card)

    def set_aside(self, card: C, pile: str = "aside") -> None:
        """Put a drawn card on the named side pile (created on first use).

        Raises:
            RulesError: the card is not out (nothing changes).
        """
        self._take_out(card)
        self.pile(pile).put(card)

    def put_back(self, card: C, *, bottom: bool = False) -> None:
        """Return a drawn card to the draw pile, on top (or at the bottom).

        Raises:
            RulesError: the card is not out (nothing changes).
        """
        self._take_out(card)
        if bottom:
            self._draw.put_bottom(card)
        else:
            self._draw.put(card)

    def take(self, card: C, pile: str = DISCARD) -> C:
        """Take a card out of the discard pile or a side pile (it is then out)."""
        source = self._piles.get(pile)
        if source is None:
            raise RulesError(f"deck {self.name!r} has no pile {pile!r}")
        source.remove(card)
        self._out[card] += 1
        return card

    def reshuffle(self, stream: Stream, *piles: str) -> None:
        """Move the named piles (default: the discard pile) into the draw pile; shuffle it.

        The cards still in the draw pile are shuffled together with them (for Zero Dark's
        "set-aside cards become the new Control Deck", ZD-B3, the draw pile is empty).

        Raises:
            RulesError: a named pile does not exist (nothing changes).
        """
        names = piles or (DISCARD,)
        for name in names:
            if name not in self._piles:
                raise RulesError(f"deck {self.name!r} has no pile {name!r}")
        for name in names:
            self._draw.put_many(self._piles[name].take_all())
        self._draw.shuffle(stream)

    # -- copying ----------------------------------------------------------------------------

    def clone(self) -> Deck[C]:
        """An independent copy (list copies; the cards themselves are shared)."""
        other: Deck[C] = Deck.__new__(Deck)
        other.name = self.name
        other._draw = self._draw.clone()
        other._piles = {k: p.clone() for k, p in self._piles.items()}
        other._out = Counter(self._out)
        return other

    __copy__ = clone

    def __deepcopy__(self, memo: dict[int, object]) -> Deck[C]:
        return self.clone()


# ---------------------------------------------------------------------------------------
# Playing cards
# ---------------------------------------------------------------------------------------


class Suit(Enum):
    """The four suits; the value is the ASCII name."""

    SPADES = "spades"
    HEARTS = "hearts"
    DIAMONDS = "diamonds"
    CLUBS = "clubs"

    @property
    def symbol(self) -> str:
        """``♠ ♥ ♦ ♣``."""
        return _SUIT_SYMBOL[self]

    @property
    def letter(self) -> str:
        """``S H D C``."""
        return self.value[0].upper()

    @property
    def is_red(self) -> bool:
        """Hearts and diamonds are red."""
        return self in (Suit.HEARTS, Suit.DIAMONDS)


_SUIT_SYMBOL: Final = {
    Suit.SPADES: "♠",
    Suit.HEARTS: "♥",
    Suit.DIAMONDS: "♦",
    Suit.CLUBS: "♣",
}


class Rank(IntEnum):
    """Ranks 2..10, J, Q, K, A; the int value is the card's value (ace high, 14)."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def symbol(self) -> str:
        """``2``..``10``, ``J``, ``Q``, ``K``, ``A``."""
        return str(self.value) if self.value <= 10 else "JQKA"[self.value - 11]

    @property
    def is_face(self) -> bool:
        """J, Q or K."""
        return Rank.JACK <= self <= Rank.KING


class JokerColor(Enum):
    """The two jokers of a 54-card deck."""

    BLACK = "black"
    RED = "red"


@dataclass(frozen=True, slots=True, repr=False)
class PlayingCard:
    """A card of the standard deck: a rank and a suit, or a joker.

    ``str`` gives ``"10♠"``, ``"Q♥"``, ``"A♣"``, ``"Black Joker"``, ``"Red Joker"``;
    :meth:`to_json` an ASCII code (``"10S"``, ``"QH"``, ``"AC"``, ``"BJ"``, ``"RJ"``);
    :meth:`parse` reads either (and a few more spellings, see there).

    Build one with :meth:`of` or :meth:`joker`. ``value`` is 2..10, J 11, Q 12, K 13,
    A 14 (ace high) and 0 for a joker.
    """

    rank: Rank | None
    suit: Suit | None
    joker_color: JokerColor | None = None
    # The ASCII code, made once: views list whole piles of cards at every step.
    _code: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.joker_color is None:
            if not isinstance(self.rank, Rank) or not isinstance(self.suit, Suit):
                raise ValueError("a card that is not a joker needs a Rank and a Suit")
            code = self.rank.symbol + self.suit.letter
        elif self.rank is not None or self.suit is not None:
            raise ValueError("a joker has no rank or suit")
        else:
            code = self._color()[0].upper() + "J"
        object.__setattr__(self, "_code", code)

    def __hash__(self) -> int:
        # The code names the card (equal cards, equal codes): one string hash, where
        # the derived hash hashed a tuple of enum members, each through Python.
        return hash(self._code)

    @classmethod
    def of(cls, rank: Rank | int, suit: Suit | str) -> PlayingCard:
        """The card of ``rank`` (a :class:`Rank` or 2..14) and ``suit`` (or its name)."""
        return cls(Rank(rank), Suit(suit))

    @classmethod
    def joker(cls, color: JokerColor | str) -> PlayingCard:
        """The red or the black joker."""
        return cls(None, None, JokerColor(color))

    @property
    def is_joker(self) -> bool:
        """Whether this is a joker."""
        return self.joker_color is not None

    @property
    def is_face(self) -> bool:
        """J, Q or K."""
        return self.rank is not None and self.rank.is_face

    @property
    def is_ace(self) -> bool:
        """An ace."""
        return self.rank is Rank.ACE

    @property
    def is_pip(self) -> bool:
        """2 to 10."""
        return self.rank is not None and self.rank <= Rank.TEN

    @property
    def value(self) -> int:
        """2..10, J 11, Q 12, K 13, A 14; a joker is 0."""
        return 0 if self.rank is None else int(self.rank)

    @property
    def is_red(self) -> bool:
        """Hearts, diamonds and the red joker."""
        if self.suit is not None:
            return self.suit.is_red
        return self.joker_color is JokerColor.RED

    def __str__(self) -> str:
        if self.rank is not None and self.suit is not None:
            return self.rank.symbol + self.suit.symbol
        return f"{self._color().capitalize()} Joker"

    def __repr__(self) -> str:
        return f"<PlayingCard {self}>"

    def to_json(self) -> str:
        """The ASCII code: ``"10S"``, ``"QH"``, ``"BJ"``, ``"RJ"``."""
        return self._code

    def _color(self) -> str:
        return self.joker_color.value if self.joker_color is not None else ""

    @classmethod
    def from_json(cls, data: object) -> PlayingCard:
        """Read :meth:`to_json`'s code (any form :meth:`parse` takes is accepted)."""
        if not isinstance(data, str):
            raise InvalidNotationError(repr(data), "a playing card is a string like '10S'")
        return cls.parse(data)

    @classmethod
    def parse(cls, text: str) -> PlayingCard:
        """Read a card: ``"10♠"``, ``"10S"``, ``"Q♥"``, ``"qh"``, ``"T♦"``, ``"10 of spades"``,
        ``"queen of hearts"``, ``"Red Joker"``, ``"RJ"``, ``"black joker"``.

        Case and surrounding spaces do not matter.

        Raises:
            InvalidNotationError: the text is not a card.
        """
        # Cards are values: a text read once is the same card again (views and sampled
        # worlds read the same few codes over and over); a refusal is not kept.
        known = _PARSED.get(text) if cls is PlayingCard else None
        if known is not None:
            return known
        card = cls._read(text)
        if cls is PlayingCard and len(_PARSED) < _PARSED_MAX:
            _PARSED[text] = card
        return card

    @classmethod
    def _read(cls, text: str) -> PlayingCard:
        """:meth:`parse` without the kept answers."""
        s = text.strip().lower()
        start = len(text) - len(text.lstrip())
        if not s:
            raise InvalidNotationError(text, "empty card", position=0)
        squeezed = re.sub(r"[\s()_-]+", "", s)
        if squeezed == "joker":
            raise InvalidNotationError(
                text, "say which joker: 'Red Joker' or 'Black Joker'", position=start
            )
        if squeezed in _JOKERS:
            return cls.joker(_JOKERS[squeezed])
        m = _LONG_RE.fullmatch(s) or _SHORT_RE.fullmatch(s)
        if not m:
            raise InvalidNotationError(
                text,
                "expected a card like '10♠', 'QH', 'ace of spades' or 'Red Joker'",
                position=start,
            )
        rank_text, suit_text = m.group(1), m.group(2)
        rank = _RANK_WORDS.get(rank_text)
        if rank is None:
            raise InvalidNotationError(
                text, f"unknown rank {rank_text!r} (2-10, J, Q, K, A)", position=start
            )
        suit = _SUIT_WORDS.get(suit_text)
        if suit is None:
            raise InvalidNotationError(
                text,
                f"unknown suit {suit_text!r} (♠ ♥ ♦ ♣, S H D C, or spades/hearts/...)",
                position=start + m.start(2),
            )
        return cls(rank, suit)


_PARSED: dict[str, PlayingCard] = {}
"""The cards read so far, by their text (:meth:`PlayingCard.parse`)."""
_PARSED_MAX: Final = (
    4096  # texts kept at most: the games read a few dozen codes; a bound for odd input
)

_RANK_WORDS: Final[dict[str, Rank]] = {
    **{str(r.value): r for r in Rank if r <= Rank.TEN},
    "t": Rank.TEN,
    "ten": Rank.TEN,
    "j": Rank.JACK,
    "jack": Rank.JACK,
    "q": Rank.QUEEN,
    "queen": Rank.QUEEN,
    "k": Rank.KING,
    "king": Rank.KING,
    "a": Rank.ACE,
    "ace": Rank.ACE,
    **{
        w: Rank(i)
        for i, w in enumerate(("two", "three", "four", "five", "six", "seven", "eight", "nine"), 2)
    },
}
_SUIT_WORDS: Final[dict[str, Suit]] = {
    **{s.symbol: s for s in Suit},
    **{s.letter.lower(): s for s in Suit},
    **{s.value: s for s in Suit},
    **{s.value[:-1]: s for s in Suit},  # "spade", "heart", ...
}
_JOKERS: Final[dict[str, JokerColor]] = {
    "redjoker": JokerColor.RED,
    "jokerred": JokerColor.RED,
    "rj": JokerColor.RED,
    "blackjoker": JokerColor.BLACK,
    "jokerblack": JokerColor.BLACK,
    "bj": JokerColor.BLACK,
}
_SHORT_RE: Final = re.compile(r"(10|[2-9]|[tjqka])\s*(\S+)")
_LONG_RE: Final = re.compile(r"(\w+)\s+of\s+(\w+)")


def playing_cards(*, jokers: bool = True) -> list[PlayingCard]:
    """The standard deck in a fixed order: ♠ ♥ ♦ ♣, each 2..A, then the two jokers.

    Args:
        jokers: include the black and the red joker (54 cards) or not (52).
    """
    # A new list of the same cards each time: cards are immutable values, made once.
    return list(_WITH_JOKERS if jokers else _WITH_JOKERS[:-2])


_WITH_JOKERS: Final[tuple[PlayingCard, ...]] = (
    *(PlayingCard(rank, suit) for suit in Suit for rank in Rank),
    PlayingCard.joker(JokerColor.BLACK),
    PlayingCard.joker(JokerColor.RED),
)
