"""Rock-n-Roll cards as data (PT-C7, PT-C8).

The shipped cards are text files in ``fogofwar/data/rock-n-roll`` (the format is in
``docs/rock-n-roll.md``): one card line per row, ``|`` between the fields, ``#``
comments and blank lines ignored. Each file holds one kind of card:

* ``units.cards``: ``side | name | kind | strength | toughness | feature | copies``
* ``orders.cards``: ``side | name | kind | value | copies``
* ``locals.cards``: ``name | strength | toughness | feature | copies``
* ``operations.cards``: ``name | condition N | reward N | copies``
* ``points.cards``: ``letter | victory value | RD income`` (in row order)
* ``setup.cards``: ``key | value`` (the defaults of PT-C8)

Loading validates every field; a problem raises :class:`BadDataError` naming the file,
the line and what was expected. Card ids are given in file order: ``V1``… (Vietnam
units), ``P1``… (VPA units), ``VO1``…/``PO1``… (orders), ``L1``… (locals), ``S1``…
(operations).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from importlib.abc import Traversable
from os import PathLike
from pathlib import Path
from typing import Final

from ...core.errors import BadDataError
from ...core.files import DATA_FILE_LIMIT, read_text
from .features import CONDITIONS, FEATURES, REWARDS

__all__ = [
    "FILES",
    "MAX_DECK",
    "MAX_DICE",
    "MAX_LINE",
    "MAX_NAME",
    "MAX_ROUND_WINS",
    "MAX_TOUGHNESS",
    "MAX_VALUE",
    "ORDER_KINDS",
    "SETUP_KEYS",
    "SIDES",
    "UNIT_KINDS",
    "CardSet",
    "Operation",
    "OrderCard",
    "PointCard",
    "UnitCard",
    "load_cards",
    "parse_card_files",
    "read_card_files",
]

SIDES: Final[tuple[str, str]] = ("vietnam", "vpa")
UNIT_KINDS: Final[tuple[str, ...]] = ("line", "blocking")
ORDER_KINDS: Final[tuple[str, ...]] = ("attack", "manoeuvre", "reinforce", "ambush", "supply")
SETUP_KEYS: Final[tuple[str, ...]] = (
    "start_units",
    "start_orders",
    "start_rd",
    "arrival_units",
    "arrival_orders",
    "turn_orders",
    "hand_limit",
    "unit_deck",
    "order_deck",
    "locals",
    "operations",
    "round_wins",
)
FILES: Final[tuple[str, ...]] = (
    "setup.cards",
    "points.cards",
    "units.cards",
    "orders.cards",
    "locals.cards",
    "operations.cards",
)
#: The most cards of one deck: a side's units or orders, the locals, the operations (the
#: defaults of PT-C8 are 20, 24, 8 and 8). A bound keeps a card file from asking for
#: millions of cards, and the action encoding, which lists attack and ambush pairs of
#: pieces, small (it grows with the square of the cards).
MAX_DECK: Final = 60
#: The most dice a unit rolls by its strength, and an ambush card adds (PT-C4, PT-C5):
#: every die is rolled, so a card cannot ask for millions of them.
MAX_DICE: Final = 10
#: The most hits a unit takes before it dies (toughness, PT-C5): as many as the dice.
MAX_TOUGHNESS: Final = MAX_DICE
#: The largest amount of RD, victory value or condition a card gives (PT-C2, PT-O1, PT-C8).
MAX_VALUE: Final = 99
#: The most rounds a match may need to win: the ``rounds`` option allows at most 9.
MAX_ROUND_WINS: Final = 9
#: The longest card name (names are shown in views and on the screen).
MAX_NAME: Final = 40
#: The longest line of a card file, comments included.
MAX_LINE: Final = 400
_INT: Final = re.compile(r"-?[0-9]{1,9}")
_UNIT_PREFIX: Final = {"vietnam": "V", "vpa": "P"}
_ORDER_PREFIX: Final = {"vietnam": "VO", "vpa": "PO"}


@dataclass(frozen=True, slots=True)
class UnitCard:
    """A unit card: a side's unit or a local (``side == "locals"``, ``kind == "local"``)."""

    id: str
    side: str
    name: str
    kind: str
    strength: int
    toughness: int
    feature: str | None

    @property
    def blocking(self) -> bool:
        """Whether it is a blocking unit (PT-C2)."""
        return self.kind == "blocking"

    @property
    def is_local(self) -> bool:
        """Whether it is a local (PT-L1)."""
        return self.kind == "local"


@dataclass(frozen=True, slots=True)
class OrderCard:
    """An order card; ``value`` is an ambush's extra dice or a supply card's RD."""

    id: str
    side: str
    name: str
    kind: str
    value: int


@dataclass(frozen=True, slots=True)
class Operation:
    """A special operation (PT-O1): reveal it when the condition holds for the reward."""

    id: str
    name: str
    condition: str
    amount: int
    reward: str
    reward_amount: int


@dataclass(frozen=True, slots=True)
class PointCard:
    """A strategic Point (PT-C2)."""

    letter: str
    value: int
    income: int


@dataclass(frozen=True)
class CardSet:
    """Every card of a game, validated."""

    setup: dict[str, int]
    points: tuple[PointCard, ...]
    units: tuple[UnitCard, ...]
    orders: tuple[OrderCard, ...]
    locals: tuple[UnitCard, ...]
    operations: tuple[Operation, ...]
    _unit_index: dict[str, UnitCard] = field(init=False, repr=False, compare=False)
    _order_index: dict[str, OrderCard] = field(init=False, repr=False, compare=False)
    _op_index: dict[str, Operation] = field(init=False, repr=False, compare=False)
    #: Each order card's kind, by id.
    order_kinds: dict[str, str] = field(init=False, repr=False, compare=False)
    _foreign_orders: dict[str, frozenset[str]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # Frozen: the look-up tables are set once, here.
        object.__setattr__(self, "_unit_index", {c.id: c for c in (*self.units, *self.locals)})
        object.__setattr__(self, "_order_index", {c.id: c for c in self.orders})
        object.__setattr__(self, "_op_index", {c.id: c for c in self.operations})
        object.__setattr__(self, "order_kinds", {c.id: c.kind for c in self.orders})
        foreign = {s: frozenset(c.id for c in self.orders if c.side != s) for s in SIDES}
        object.__setattr__(self, "_foreign_orders", foreign)

    def __deepcopy__(self, memo: dict[int, object]) -> CardSet:
        # Immutable: a cloned game (search) shares its cards.
        return self

    def unit(self, card_id: str) -> UnitCard:
        """The unit or local card with this id."""
        return self._unit_index[card_id]

    def order(self, card_id: str) -> OrderCard:
        """The order card with this id."""
        return self._order_index[card_id]

    def operation(self, card_id: str) -> Operation:
        """The operation card with this id."""
        return self._op_index[card_id]

    def is_unit(self, card_id: str) -> bool:
        """Whether the id is a unit's or a local's."""
        return card_id in self._unit_index

    def foreign_orders(self, side: str) -> frozenset[str]:
        """The ids of the order cards not of ``side`` (a side of :data:`SIDES`)."""
        return self._foreign_orders[side]

    def is_order(self, card_id: str) -> bool:
        """Whether the id is an order card's."""
        return card_id in self._order_index

    def is_operation(self, card_id: str) -> bool:
        """Whether the id is an operation card's."""
        return card_id in self._op_index


# --------------------------------------------------------------------------- parsing


def _short(text: str, limit: int = 60) -> str:
    """``text`` for an error message, cut to ``limit`` characters."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


@dataclass(frozen=True, slots=True)
class _Row:
    file: str
    line: int
    fields: tuple[str, ...]

    def fail(self, expected: str, found: str | None = None) -> BadDataError:
        shown = None if found is None else _short(found)
        return BadDataError(self.file, expected, line=self.line, found=shown)

    def integer(self, i: int, what: str, minimum: int, maximum: int) -> int:
        """Field ``i`` as a whole number (ASCII digits) from ``minimum`` to ``maximum``."""
        return _integer(self, self.fields[i], what, minimum, maximum)

    def choice(self, i: int, what: str, allowed: tuple[str, ...] | list[str]) -> str:
        text = self.fields[i]
        if text not in allowed:
            raise self.fail(f"{what}: one of {', '.join(allowed)}", text)
        return text

    def name(self, i: int) -> str:
        """Field ``i`` as a card name: printable, at most :data:`MAX_NAME` characters."""
        text = self.fields[i]
        if len(text) > MAX_NAME or not text.isprintable():
            raise self.fail(f"a card name of at most {MAX_NAME} printable characters", text)
        return text


def _integer(row: _Row, text: str, what: str, minimum: int, maximum: int) -> int:
    expected = f"{what}: a whole number from {minimum} to {maximum}"
    if not _INT.fullmatch(text):
        raise row.fail(expected, text)
    value = int(text)
    if not minimum <= value <= maximum:
        raise row.fail(expected, text)
    return value


def _rows(text: str, file: str, columns: tuple[str, ...]) -> list[_Row]:
    rows = []
    for number, raw in enumerate(text.splitlines(), start=1):
        if len(raw) > MAX_LINE:
            raise BadDataError(
                file,
                f"a line of at most {MAX_LINE} characters",
                line=number,
                found=f"{len(raw)} characters",
            )
        body = raw.split("#", 1)[0].strip()
        if not body:
            continue
        fields = tuple(f.strip() for f in body.split("|"))
        if len(fields) != len(columns):
            raise BadDataError(
                file,
                f"{len(columns)} fields separated by '|': {' | '.join(columns)}",
                line=number,
                found=f"{len(fields)} fields",
            )
        if any(not f for f in fields):
            raise BadDataError(
                file, "no empty field (write - for none)", line=number, found=_short(body)
            )
        rows.append(_Row(file, number, fields))
    return rows


def _feature(row: _Row, i: int, of: str) -> str | None:
    name = row.fields[i]
    if name == "-":
        return None
    known = sorted(n for n, f in FEATURES.items() if f.of == of)
    if name not in known:
        raise row.fail(f"a {of} feature: - or one of {', '.join(known)}", name)
    return name


def _pair(
    row: _Row, i: int, what: str, names: Mapping[str, str], maxima: Mapping[str, int]
) -> tuple[str, int]:
    words = row.fields[i].split()
    if len(words) != 2 or words[0] not in names:
        raise row.fail(f"{what}: NAME N with NAME one of {', '.join(names)}", row.fields[i])
    top = maxima.get(words[0], MAX_VALUE)
    return words[0], _integer(row, words[1], f"{what}: the number after {words[0]}", 1, top)


class _Names:
    """Each card name once per side in a file: a card repeats by its ``copies`` field,
    and two lines of one name would be two different cards shown alike."""

    def __init__(self) -> None:
        self.seen: dict[tuple[str, str], int] = {}

    def add(self, row: _Row, side: str, name: str) -> None:
        key = (side, " ".join(name.split()).casefold())
        if key in self.seen:
            raise row.fail(
                f"each card name once (line {self.seen[key]} has it: repeat a card with "
                "its copies field)",
                name,
            )
        self.seen[key] = row.line


class _Count:
    """The running size of the decks a file fills, checked against their bound at the
    line that would exceed it (so that ``copies 99999999`` is refused, not built)."""

    def __init__(self, file: str, what: str, sizes: Mapping[str, int]) -> None:
        self.file = file
        self.what = what
        self.sizes = sizes
        self.count: dict[str, int] = {}

    def add(self, row: _Row, side: str, copies_field: int) -> int:
        top = self.sizes.get(side, MAX_DECK)
        copies = row.integer(copies_field, "copies", 1, MAX_DECK)
        n = self.count.get(side, 0) + copies
        if n > top:
            label = self.what if side == "" else f"{side} {self.what}"
            raise row.fail(f"at most {top} {label} in all (copies included)", str(n))
        self.count[side] = n
        return copies


#: The setup keys' bounds that depend on no other key: (least, most).
_SETUP_BOUNDS: Final[dict[str, tuple[int, int]]] = {
    "start_rd": (0, MAX_VALUE),
    "hand_limit": (1, 2 * MAX_DECK),
    "unit_deck": (1, MAX_DECK),
    "order_deck": (1, MAX_DECK),
    "locals": (0, MAX_DECK),
    "operations": (0, MAX_DECK),
    "round_wins": (1, MAX_ROUND_WINS),
}
#: The setup keys bounded by a deck's size: key -> (least, the deck's key).
_SETUP_BY_DECK: Final[dict[str, tuple[int, str]]] = {
    "start_units": (0, "unit_deck"),
    "start_orders": (0, "order_deck"),
    "arrival_units": (0, "unit_deck"),
    "arrival_orders": (0, "order_deck"),
    # At least 1: the turn's draw is the round's clock (PT-C3); 0 would never end it.
    "turn_orders": (1, "order_deck"),
}


def parse_setup(text: str, file: str = "setup.cards") -> dict[str, int]:
    """Parse ``setup.cards``: every key of :data:`SETUP_KEYS` once, each within its
    bound (a deck's size at most :data:`MAX_DECK`; draws at most the deck's size; the
    starting hand within the hand limit)."""
    rows: dict[str, _Row] = {}
    last = 0
    for row in _rows(text, file, ("key", "value")):
        key = row.choice(0, "a setup key", SETUP_KEYS)
        if key in rows:
            raise row.fail(f"each setup key once ({key} is repeated)", key)
        rows[key] = row
        last = row.line
    missing = [k for k in SETUP_KEYS if k not in rows]
    if missing:
        raise BadDataError(file, f"the setup keys {', '.join(missing)}", line=last or None)
    out: dict[str, int] = {}
    for key, (low, high) in _SETUP_BOUNDS.items():
        out[key] = rows[key].integer(1, key, low, high)
    for key, (low, deck) in _SETUP_BY_DECK.items():
        out[key] = rows[key].integer(1, f"{key} (at most {deck})", low, out[deck])
    start = out["start_units"] + out["start_orders"]
    if start > out["hand_limit"]:
        raise rows["start_orders"].fail(
            f"a starting hand within the hand limit: start_units + start_orders at most "
            f"hand_limit ({out['hand_limit']})",
            str(start),
        )
    return {k: out[k] for k in SETUP_KEYS}


def parse_points(text: str, file: str = "points.cards") -> tuple[PointCard, ...]:
    """Parse ``points.cards``: at least 3 Points with distinct letters A-Z."""
    points: list[PointCard] = []
    last = 0
    for row in _rows(text, file, ("letter", "victory value", "RD income")):
        letter = row.fields[0]
        if len(letter) != 1 or not "A" <= letter <= "Z":
            raise row.fail("a Point's letter: one capital letter A to Z", letter)
        if any(p.letter == letter for p in points):
            raise row.fail(f"a new Point letter ({letter} is already used)", letter)
        points.append(
            PointCard(
                letter,
                row.integer(1, "victory value", 0, MAX_VALUE),
                row.integer(2, "RD income", 0, MAX_VALUE),
            )
        )
        last = row.line
    if len(points) < 3:
        raise BadDataError(file, "at least 3 Points", line=last or None, found=str(len(points)))
    return tuple(points)


def parse_units(
    text: str, file: str = "units.cards", *, sizes: Mapping[str, int] | None = None
) -> tuple[UnitCard, ...]:
    """Parse ``units.cards`` (both sides' unit decks); ``sizes`` bounds each side's deck
    (default :data:`MAX_DECK`)."""
    cols = ("side", "name", "kind", "strength", "toughness", "feature", "copies")
    out: list[UnitCard] = []
    count = _Count(file, "units", sizes or {})
    names = _Names()
    seq = dict.fromkeys(SIDES, 0)
    for row in _rows(text, file, cols):
        side = row.choice(0, "a side", SIDES)
        name = row.name(1)
        kind = row.choice(2, "a unit kind", UNIT_KINDS)
        strength = row.integer(3, "strength (dice)", 1, MAX_DICE)
        toughness = row.integer(4, "toughness (hits)", 1, MAX_TOUGHNESS)
        feature = _feature(row, 5, "unit")
        names.add(row, side, name)
        for _ in range(count.add(row, side, 6)):
            seq[side] += 1
            card_id = f"{_UNIT_PREFIX[side]}{seq[side]}"
            out.append(UnitCard(card_id, side, name, kind, strength, toughness, feature))
    return tuple(out)


def parse_orders(
    text: str, file: str = "orders.cards", *, sizes: Mapping[str, int] | None = None
) -> tuple[OrderCard, ...]:
    """Parse ``orders.cards`` (both sides' order decks); ``sizes`` bounds each side's
    deck (default :data:`MAX_DECK`)."""
    out: list[OrderCard] = []
    count = _Count(file, "orders", sizes or {})
    names = _Names()
    seq = dict.fromkeys(SIDES, 0)
    for row in _rows(text, file, ("side", "name", "kind", "value", "copies")):
        side = row.choice(0, "a side", SIDES)
        name = row.name(1)
        kind = row.choice(2, "an order kind", ORDER_KINDS)
        value = row.integer(3, "value (extra dice or RD)", 0, MAX_DICE)
        if kind == "supply" and value < 1:
            raise row.fail("value: a supply card grants at least 1 RD", row.fields[3])
        names.add(row, side, name)
        for _ in range(count.add(row, side, 4)):
            seq[side] += 1
            out.append(OrderCard(f"{_ORDER_PREFIX[side]}{seq[side]}", side, name, kind, value))
    return tuple(out)


def parse_locals(
    text: str, file: str = "locals.cards", *, size: int = MAX_DECK
) -> tuple[UnitCard, ...]:
    """Parse ``locals.cards``; ``size`` bounds the deck."""
    out: list[UnitCard] = []
    count = _Count(file, "locals", {"": size})
    names = _Names()
    for row in _rows(text, file, ("name", "strength", "toughness", "feature", "copies")):
        name = row.name(0)
        strength = row.integer(1, "strength (dice)", 1, MAX_DICE)
        toughness = row.integer(2, "toughness (hits)", 1, MAX_TOUGHNESS)
        feature = _feature(row, 3, "local")
        names.add(row, "", name)
        for _ in range(count.add(row, "", 4)):
            out.append(
                UnitCard(f"L{len(out) + 1}", "locals", name, "local", strength, toughness, feature)
            )
    return tuple(out)


def parse_operations(
    text: str,
    file: str = "operations.cards",
    *,
    size: int = MAX_DECK,
    decks: Mapping[str, int] | None = None,
) -> tuple[Operation, ...]:
    """Parse ``operations.cards``; ``size`` bounds the deck, ``decks`` the ``orders``
    and ``units`` rewards (``{"orders": N, "units": N}``, default :data:`MAX_DECK`)."""
    out: list[Operation] = []
    count = _Count(file, "operations", {"": size})
    names = _Names()
    rewards = {"orders": MAX_DECK, "units": MAX_DECK, **(decks or {})}
    for row in _rows(text, file, ("name", "condition", "reward", "copies")):
        name = row.name(0)
        condition, amount = _pair(row, 1, "a condition", CONDITIONS, {})
        reward, reward_amount = _pair(row, 2, "a reward", REWARDS, rewards)
        names.add(row, "", name)
        for _ in range(count.add(row, "", 3)):
            out.append(
                Operation(f"S{len(out) + 1}", name, condition, amount, reward, reward_amount)
            )
    return tuple(out)


def _check_size(file: str, text: str, what: str, found: int, wanted: int) -> None:
    if found != wanted:
        lines = len(text.splitlines()) or None
        raise BadDataError(file, f"{wanted} {what} (setup.cards)", line=lines, found=str(found))


def parse_card_files(texts: Mapping[str, str]) -> CardSet:
    """Parse and cross-check the six card files, given as ``{file name: text}``.

    Raises:
        BadDataError: a file is missing or a field, line, bound or deck size is wrong.
    """
    for name in FILES:
        if name not in texts:
            raise BadDataError(name, "the card file (it is missing)")
    setup = parse_setup(texts["setup.cards"])
    points = parse_points(texts["points.cards"])
    units = parse_units(texts["units.cards"], sizes=dict.fromkeys(SIDES, setup["unit_deck"]))
    orders = parse_orders(texts["orders.cards"], sizes=dict.fromkeys(SIDES, setup["order_deck"]))
    locals_ = parse_locals(texts["locals.cards"], size=setup["locals"])
    operations = parse_operations(
        texts["operations.cards"],
        size=setup["operations"],
        decks={"orders": setup["order_deck"], "units": setup["unit_deck"]},
    )
    for side in SIDES:
        n = sum(1 for u in units if u.side == side)
        _check_size("units.cards", texts["units.cards"], f"{side} units", n, setup["unit_deck"])
        n = sum(1 for o in orders if o.side == side)
        _check_size("orders.cards", texts["orders.cards"], f"{side} orders", n, setup["order_deck"])
    _check_size("locals.cards", texts["locals.cards"], "locals", len(locals_), setup["locals"])
    _check_size(
        "operations.cards",
        texts["operations.cards"],
        "operations",
        len(operations),
        setup["operations"],
    )
    return CardSet(setup, points, units, orders, locals_, operations)


def read_card_files(folder: str | PathLike[str] | Traversable) -> dict[str, str]:
    """The texts of the six card files in ``folder`` (a path or a packaged resource),
    each read through :func:`fogofwar.core.files.read_text`: at most
    :data:`~fogofwar.core.files.DATA_FILE_LIMIT` bytes of UTF-8 text, no binary data.

    Raises:
        BadDataError: a file is missing, unreadable, too large or not text.
    """
    base: Traversable = folder if isinstance(folder, Traversable) else Path(folder)
    return {
        name: read_text(base.joinpath(name), file=name, limit=DATA_FILE_LIMIT, what="a card file")
        for name in FILES
    }


_CACHE: dict[str, CardSet] = {}


def load_cards() -> CardSet:
    """The shipped cards (``fogofwar/data/rock-n-roll``), loaded and validated once."""
    if "shipped" not in _CACHE:
        folder = resources.files("fogofwar").joinpath("data", "rock-n-roll")
        _CACHE["shipped"] = parse_card_files(read_card_files(folder))
    return _CACHE["shipped"]
