"""The derived clone: copy what is mutable, share what is a value."""

from __future__ import annotations

from dataclasses import dataclass, field

from fogofwar.core.cards import Pile
from fogofwar.core.values import fresh, fresh_fields


@dataclass(frozen=True)
class Point:
    x: int


@dataclass
class Figure:
    at: Point
    path: list[int] = field(default_factory=list)
    cards: dict[str, int] = field(default_factory=dict)


class Game:
    def __init__(self) -> None:
        self.table = ("shared", "tuple")  # a value
        self.figures = [Figure(Point(1), [1, 2], {"a": 1})]
        self.accused: dict[str, str] = {}
        self.seen: set[int] = {1}
        self.pile = Pile(["x", "y"])
        self.nested = {"k": [Figure(Point(2))]}


def test_fresh_copies_the_mutable_part_and_shares_the_values() -> None:
    g = Game()
    c = fresh_fields(g)
    assert type(c) is Game and c is not g
    assert c.table is g.table and c.figures[0].at is g.figures[0].at  # values shared
    c.figures[0].path.append(3)
    c.figures[0].cards["b"] = 2
    c.accused["hunter2"] = "H4"  # the field Specter Ops' hand-written clone forgot
    c.seen.add(2)
    c.nested["k"][0].path.append(9)
    c.pile.draw()
    assert g.figures[0].path == [1, 2] and g.figures[0].cards == {"a": 1}
    assert g.accused == {} and g.seen == {1} and g.nested["k"][0].path == []
    assert len(g.pile) == 2 and len(c.pile) == 1


def test_lists_of_values_are_copied_once() -> None:
    items = [Point(1), Point(2)]
    copy = fresh(items)
    assert copy == items and copy is not items and copy[0] is items[0]
    assert fresh(Point(3)) == Point(3)
    assert fresh((1, [2])) == (1, [2])  # a tuple is a value: build states from values


@dataclass
class Logged:
    """A mutable dataclass with its own ``__setattr__`` (it logs every set)."""

    path: list[int]
    name: str = "x"

    def __setattr__(self, key: str, value: object) -> None:
        SETS.append(key)
        object.__setattr__(self, key, value)


SETS: list[str] = []


def test_a_dataclass_is_copied_around_its_own_setattr() -> None:
    # The copier sets fields as object.__setattr__ does, as the first form did: a class
    # whose __setattr__ logs (or refuses) sets is copied without it.
    one = Logged([1])
    SETS.clear()
    two = fresh(one)
    assert two == one and two is not one and two.path is not one.path
    assert SETS == []


def test_a_dataclass_copy_keeps_fields_made_after_init() -> None:
    @dataclass
    class Later:
        kept: list[int] = field(default_factory=list)
        made: dict[str, int] = field(init=False, default_factory=dict)

    a = Later([1])
    a.made["k"] = 2
    b = fresh(a)
    assert b == a and b.made is not a.made and b.kept is not a.kept


def test_containers_of_one_kind_of_piece_are_copied_piece_by_piece() -> None:
    # A list or dict holding one mutable dataclass (pieces by id) goes straight to that
    # class's copier once it is known: the first copy learns it, the next ones use it.
    pieces = {"a": Figure(Point(1), [1]), "b": Figure(Point(2), [2])}
    row = [Figure(Point(3), [3])]
    for _ in range(2):
        copy, copied_row = fresh(pieces), fresh(row)
        assert copy == pieces and copied_row == row
        copy["a"].path.append(9)
        copied_row[0].cards["x"] = 1
        assert pieces["a"].path == [1] and row[0].cards == {}
        assert copy["b"].at is pieces["b"].at  # values still shared
