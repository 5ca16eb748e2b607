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

from dataclasses import dataclass, field
from importlib import resources
from typing import Final

from ...core.errors import BadDataError
from .features import CONDITIONS, FEATURES, REWARDS

__all__ = [
    "FILES",
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

    def __post_init__(self) -> None:
        # Frozen: the look-up tables are set once, here.
        object.__setattr__(self, "_unit_index", {c.id: c for c in (*self.units, *self.locals)})
        object.__setattr__(self, "_order_index", {c.id: c for c in self.orders})
        object.__setattr__(self, "_op_index", {c.id: c for c in self.operations})

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

    def is_order(self, card_id: str) -> bool:
        """Whether the id is an order card's."""
        return card_id in self._order_index


# --------------------------------------------------------------------------- parsing


@dataclass(frozen=True, slots=True)
class _Row:
    file: str
    line: int
    fields: tuple[str, ...]

    def fail(self, expected: str, found: str | None = None) -> BadDataError:
        return BadDataError(self.file, expected, line=self.line, found=found)

    def integer(self, i: int, what: str, minimum: int) -> int:
        text = self.fields[i]
        try:
            value = int(text)
        except ValueError:
            raise self.fail(f"{what}: an integer", text) from None
        if value < minimum:
            raise self.fail(f"{what}: an integer of at least {minimum}", text)
        return value

    def choice(self, i: int, what: str, allowed: tuple[str, ...] | list[str]) -> str:
        text = self.fields[i]
        if text not in allowed:
            raise self.fail(f"{what}: one of {', '.join(allowed)}", text)
        return text


def _rows(text: str, file: str, columns: tuple[str, ...]) -> list[_Row]:
    rows = []
    for number, raw in enumerate(text.splitlines(), start=1):
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
            raise BadDataError(file, "no empty field (write - for none)", line=number, found=body)
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


def _pair(row: _Row, i: int, what: str, names: dict[str, str]) -> tuple[str, int]:
    words = row.fields[i].split()
    if len(words) != 2 or words[0] not in names:
        raise row.fail(f"{what}: NAME N with NAME one of {', '.join(names)}", row.fields[i])
    try:
        n = int(words[1])
    except ValueError:
        raise row.fail(f"{what}: an integer after {words[0]}", words[1]) from None
    if n < 1:
        raise row.fail(f"{what}: an integer of at least 1", words[1])
    return words[0], n


def parse_setup(text: str, file: str = "setup.cards") -> dict[str, int]:
    """Parse ``setup.cards``: every key of :data:`SETUP_KEYS` once."""
    out: dict[str, int] = {}
    last = 0
    for row in _rows(text, file, ("key", "value")):
        key = row.choice(0, "a setup key", SETUP_KEYS)
        if key in out:
            raise row.fail(f"each setup key once ({key} is repeated)", key)
        out[key] = row.integer(1, key, 0)
        last = row.line
    missing = [k for k in SETUP_KEYS if k not in out]
    if missing:
        raise BadDataError(file, f"the setup keys {', '.join(missing)}", line=last or None)
    return out


def parse_points(text: str, file: str = "points.cards") -> tuple[PointCard, ...]:
    """Parse ``points.cards``: at least 3 Points with distinct one-letter names."""
    points: list[PointCard] = []
    last = 0
    for row in _rows(text, file, ("letter", "victory value", "RD income")):
        letter = row.fields[0]
        if len(letter) != 1 or not letter.isalpha() or not letter.isupper():
            raise row.fail("a Point's letter: one capital letter", letter)
        if any(p.letter == letter for p in points):
            raise row.fail(f"a new Point letter ({letter} is already used)", letter)
        points.append(
            PointCard(letter, row.integer(1, "victory value", 0), row.integer(2, "RD income", 0))
        )
        last = row.line
    if len(points) < 3:
        raise BadDataError(file, "at least 3 Points", line=last or None, found=str(len(points)))
    return tuple(points)


def _copies(row: _Row, i: int) -> int:
    return row.integer(i, "copies", 1)


def parse_units(text: str, file: str = "units.cards") -> tuple[UnitCard, ...]:
    """Parse ``units.cards`` (both sides' unit decks)."""
    cols = ("side", "name", "kind", "strength", "toughness", "feature", "copies")
    out: list[UnitCard] = []
    count = dict.fromkeys(SIDES, 0)
    for row in _rows(text, file, cols):
        side = row.choice(0, "a side", SIDES)
        kind = row.choice(2, "a unit kind", UNIT_KINDS)
        strength = row.integer(3, "strength", 1)
        toughness = row.integer(4, "toughness", 1)
        feature = _feature(row, 5, "unit")
        for _ in range(_copies(row, 6)):
            count[side] += 1
            card_id = f"{_UNIT_PREFIX[side]}{count[side]}"
            out.append(UnitCard(card_id, side, row.fields[1], kind, strength, toughness, feature))
    return tuple(out)


def parse_orders(text: str, file: str = "orders.cards") -> tuple[OrderCard, ...]:
    """Parse ``orders.cards`` (both sides' order decks)."""
    out: list[OrderCard] = []
    count = dict.fromkeys(SIDES, 0)
    for row in _rows(text, file, ("side", "name", "kind", "value", "copies")):
        side = row.choice(0, "a side", SIDES)
        kind = row.choice(2, "an order kind", ORDER_KINDS)
        value = row.integer(3, "value", 0)
        if kind == "supply" and value < 1:
            raise row.fail("value: a supply card grants at least 1 RD", row.fields[3])
        for _ in range(_copies(row, 4)):
            count[side] += 1
            out.append(
                OrderCard(f"{_ORDER_PREFIX[side]}{count[side]}", side, row.fields[1], kind, value)
            )
    return tuple(out)


def parse_locals(text: str, file: str = "locals.cards") -> tuple[UnitCard, ...]:
    """Parse ``locals.cards``."""
    out: list[UnitCard] = []
    for row in _rows(text, file, ("name", "strength", "toughness", "feature", "copies")):
        strength = row.integer(1, "strength", 1)
        toughness = row.integer(2, "toughness", 1)
        feature = _feature(row, 3, "local")
        for _ in range(_copies(row, 4)):
            out.append(
                UnitCard(
                    f"L{len(out) + 1}",
                    "locals",
                    row.fields[0],
                    "local",
                    strength,
                    toughness,
                    feature,
                )
            )
    return tuple(out)


def parse_operations(text: str, file: str = "operations.cards") -> tuple[Operation, ...]:
    """Parse ``operations.cards``."""
    out: list[Operation] = []
    for row in _rows(text, file, ("name", "condition", "reward", "copies")):
        condition, amount = _pair(row, 1, "a condition", CONDITIONS)
        reward, reward_amount = _pair(row, 2, "a reward", REWARDS)
        for _ in range(_copies(row, 3)):
            out.append(
                Operation(
                    f"S{len(out) + 1}", row.fields[0], condition, amount, reward, reward_amount
                )
            )
    return tuple(out)


def _check_size(file: str, text: str, what: str, found: int, wanted: int) -> None:
    if found != wanted:
        lines = len(text.splitlines()) or None
        raise BadDataError(file, f"{wanted} {what} (setup.cards)", line=lines, found=str(found))


def parse_card_files(texts: dict[str, str]) -> CardSet:
    """Parse and cross-check the six card files, given as ``{file name: text}``.

    Raises:
        BadDataError: a file is missing or a field, line or deck size is wrong.
    """
    for name in FILES:
        if name not in texts:
            raise BadDataError(name, "the card file (it is missing)")
    setup = parse_setup(texts["setup.cards"])
    points = parse_points(texts["points.cards"])
    units = parse_units(texts["units.cards"])
    orders = parse_orders(texts["orders.cards"])
    locals_ = parse_locals(texts["locals.cards"])
    operations = parse_operations(texts["operations.cards"])
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


_CACHE: dict[str, CardSet] = {}


def load_cards() -> CardSet:
    """The shipped cards (``fogofwar/data/rock-n-roll``), loaded and validated once."""
    if "shipped" not in _CACHE:
        folder = resources.files("fogofwar").joinpath("data", "rock-n-roll")
        texts = {name: folder.joinpath(name).read_text(encoding="utf-8") for name in FILES}
        _CACHE["shipped"] = parse_card_files(texts)
    return _CACHE["shipped"]
