"""The bitset kernels: the C forms (``fogofwar.core._bitsets``) against the Python
forms of ``fogofwar.core.bitsets``, which are the reference, on random inputs of every
width (one 64-bit word, several, and ints narrower or wider than a board); and the
Python forms against brute force.

In CI (``CI`` set, as ``.ci/run`` does) the C forms must be built: the tests fail
without them. Elsewhere the C rows are skipped where no C compiler built them.
"""

from __future__ import annotations

import copy
import os
import pickle
from collections.abc import Callable
from types import ModuleType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fogofwar.core import bitsets
from fogofwar.core.bitsets import PyStepper, canon_py
from fogofwar.games.specter_ops.geometry import geometry_for

_native: ModuleType | None
try:
    from fogofwar.core import _bitsets as _native
except ImportError:  # built without a C compiler
    _native = None

needs_native = pytest.mark.skipif(
    _native is None and not os.environ.get("CI"), reason="the C kernels are not built here"
)


def _c() -> ModuleType:
    if _native is None:
        pytest.fail("the C kernels (fogofwar.core._bitsets) were not built")
    return _native


def test_the_c_kernels_are_built_and_used_in_ci() -> None:
    # CI builds the package with a C compiler at hand: the extension must be there, and
    # be what the map uses (unless FOGOFWAR_PURE_PYTHON asks for the Python forms).
    if not os.environ.get("CI"):
        pytest.skip("outside CI the C kernels are optional")
    assert _native is not None
    pure = bool(os.environ.get("FOGOFWAR_PURE_PYTHON"))
    assert bitsets.NATIVE is not pure
    if bitsets.NATIVE:
        assert bitsets.canon is _native.canon
        assert bitsets.Stepper is _native.Stepper


# --------------------------------------------------------------------------- inputs

WIDTHS = (1, 3, 30, 63, 64, 65, 130, 736, 4160)  # 4160: 65 limbs, past one occupancy word
A_WIDTHS = (1, 8, 64, 65, 200, 1296)


@st.composite
def bitset(draw: st.DrawFn, width: int, *, most: int = 12) -> int:
    """Sparse, dense or empty sets of bits below ``width``."""
    kind = draw(st.sampled_from(("sparse", "dense", "empty")))
    if kind == "empty":
        return 0
    if kind == "dense":
        return draw(st.integers(min_value=0, max_value=(1 << width) - 1))
    bits = draw(st.lists(st.integers(min_value=0, max_value=width - 1), max_size=most))
    out = 0
    for b in bits:
        out |= 1 << b
    return out


@st.composite
def rect_lists(draw: st.DrawFn) -> list[tuple[int, int, int]]:
    """Rectangles whose assignments come from a small pool (as a join's do)."""
    sw = draw(st.sampled_from(WIDTHS))
    aw = draw(st.sampled_from(A_WIDTHS))
    pool = draw(st.lists(bitset(aw, most=6), min_size=1, max_size=5))
    n = draw(st.integers(min_value=0, max_value=14))
    return [(draw(bitset(sw)), draw(bitset(sw)), draw(st.sampled_from(pool))) for _ in range(n)]


@st.composite
def steppers(draw: st.DrawFn) -> tuple[list[tuple[int, int]], int, int]:
    """(directions, free, width) of a random stepper."""
    width = draw(st.sampled_from((5, 63, 64, 65, 128, 736)))
    dirs = []
    for _ in range(draw(st.integers(min_value=0, max_value=8))):
        off = draw(st.integers(min_value=1, max_value=max(1, width - 1)))
        dirs.append((off * draw(st.sampled_from((1, -1))), draw(bitset(width, most=40))))
    # The last square is free: the board spans the width the parts are drawn in.
    return dirs, draw(bitset(width, most=200)) | 1 << (width - 1), width


# --------------------------------------------------------------------------- canon


def _canon_brute(rects: list[tuple[int, int, int]]) -> tuple[tuple[int, int, int], ...]:
    per_cell: dict[tuple[int, int], int] = {}
    for short, long, a in rects:
        for kind, bits in enumerate((short, long)):
            i = 0
            while bits >> i:
                if bits >> i & 1 and a:
                    per_cell[kind, i] = per_cell.get((kind, i), 0) | a
                i += 1
    by_a: dict[int, list[int]] = {}
    for (kind, i), a in per_cell.items():
        by_a.setdefault(a, [0, 0])[kind] |= 1 << i
    return tuple((s, lg, a) for a, (s, lg) in sorted(by_a.items()))


@settings(max_examples=300, deadline=None)
@given(rect_lists())
def test_canon_is_the_union_cell_by_cell(rects: list[tuple[int, int, int]]) -> None:
    # SO-I2: the Python form against brute force (each cell with the union of the
    # assignments of the rectangles holding it, cells grouped by it, in order).
    assert canon_py(rects) == _canon_brute(rects)


@needs_native
@settings(max_examples=600, deadline=None)
@given(rect_lists())
def test_c_canon_equals_the_python_form(rects: list[tuple[int, int, int]]) -> None:
    # SO-I2: the C form makes the same parts, from any order, and is a fixed point.
    want = canon_py(rects)
    assert _c().canon(rects) == want
    assert _c().canon(list(reversed(rects))) == want
    assert _c().canon(iter(rects)) == want
    assert _c().canon(want) == want


class _Int(int):
    """An int subclass (the kernels hand out plain ints)."""


@needs_native
def test_c_canon_keeps_the_ints_of_assignments_it_does_not_change() -> None:
    # SO-I2: a part whose assignments come out unchanged takes the input's own int (a
    # new 1,296-bit int for each was a third of what the kernels made); an int
    # subclass is never handed on, and a union is a new int.
    a, b = (1 << 1000) | 5, 1 << 3
    got = _c().canon([((1 << 700) | 3, 0, a), (4, 8, a), (16, 0, b)])
    assert got == canon_py([((1 << 700) | 3, 0, a), (4, 8, a), (16, 0, b)])
    assert [part[2] is a for part in got] == [False, True]
    overlapping = _c().canon([(3, 0, a), (1, 0, b)])
    assert overlapping == ((2, 0, a), (1, 0, a | b))
    assert overlapping[0][2] is a and overlapping[1][2] is not a
    (only,) = _c().canon([(1, 0, _Int(5))])
    assert type(only[2]) is int and only[2] == 5
    # The move kernel too: a walk's parts keep their assignments' ints.
    walks = _c().Stepper([(1, 0b1111111)], 0b11111111).walks(0, 1, 2, 3)
    ((opened, _),) = _c().played(((1, 0, a),), ((walks, 0, False, None),), ((0,),))
    assert opened and all(part[2] is a for part in opened)


@needs_native
@pytest.mark.parametrize(
    ("rects", "error"),
    [
        ([(1, 2)], TypeError),
        ([[1, 2, 3]], TypeError),
        ([(1, "x", 3)], TypeError),
        ([(1, 2, -1)], (OverflowError, ValueError)),
        ([(-1, 2, 3)], (OverflowError, ValueError)),
        (5, TypeError),
    ],
)
def test_c_canon_refuses_what_is_not_rectangles(rects: Any, error: Any) -> None:
    with pytest.raises(error):
        _c().canon(rects)


@needs_native
@settings(max_examples=300, deadline=None)
@given(rect_lists(), st.data())
def test_c_narrow_and_squares_equal_the_python_forms(
    rects: list[tuple[int, int, int]], data: st.DataObject
) -> None:
    parts = canon_py(rects)
    width = max([1, *(max(s, lg).bit_length() for s, lg, _ in parts)]) + 2
    short = data.draw(bitset(width, most=20))
    long = data.draw(bitset(width, most=20))
    # Negative masks (~m, every square but m's) and the masks that keep all.
    short = data.draw(st.sampled_from((short, ~short, -1)))
    long = data.draw(st.sampled_from((long, ~long, -1, 0)))
    got = _c().narrow(parts, short, long)
    want = bitsets.narrow_py(parts, short, long)
    assert got == want
    assert got == tuple((s & short, lg & long, a) for s, lg, a in parts if s & short or lg & long)
    # Parts left whole are the same objects; all left whole, the same tuple.
    assert [p for p in got if p in parts] == [p for p in got if any(p is q for q in parts)]
    if short == long == -1:
        assert got is parts and want is parts
    assert _c().squares(parts) == bitsets.squares_py(parts)
    assert _c().squares(rects) == bitsets.squares_py(rects)


@st.composite
def splits(draw: st.DrawFn) -> tuple[Any, int, int, int, list[tuple[int, int]]]:
    """(parts, squares, assignments, union, ruled) for ``split``: parts canonical or
    not (a square in two parts), masks negative or not, disjoint zones covering the
    union or part of it."""
    rects = draw(rect_lists())
    parts: Any = draw(st.sampled_from((rects, canon_py(rects))))
    sw = max([1, *(max(s, lg).bit_length() for s, lg, _ in rects)]) + 2
    aw = max([1, *(a.bit_length() for _, _, a in rects)]) + 2
    squares = draw(bitset(sw, most=30))
    squares = draw(st.sampled_from((squares, ~squares, -1)))
    assignments = draw(bitset(aw, most=30))
    assignments = draw(st.sampled_from((assignments, ~assignments, -1)))
    union = rest = draw(bitset(sw, most=40))
    ruled = []
    for _ in range(draw(st.integers(min_value=0, max_value=5))):
        zone = rest & draw(bitset(sw, most=30))
        rest ^= zone
        ruled.append((draw(bitset(aw, most=20)), zone))
    if draw(st.booleans()):
        ruled.append((draw(bitset(aw, most=20)), rest))
    return parts, squares, assignments, union, ruled


def _split_brute(
    parts: Any, squares: int, assignments: int, union: int, ruled: list[tuple[int, int]]
) -> tuple[tuple[int, int, int], ...]:
    # Square by square: the union of its parts' assignments (short and long merged),
    # masked, then its zone's assignments ruled out (none left inside the union but
    # outside every zone).
    per_square: dict[int, int] = {}
    for short, long, a in parts:
        bits = short | long
        i = 0
        while bits >> i:
            if bits >> i & 1:
                per_square[i] = per_square.get(i, 0) | a
            i += 1
    rects = []
    for i, a in per_square.items():
        if not squares >> i & 1:
            continue
        a &= assignments
        if union >> i & 1:
            zone = [out for out, z in ruled if z >> i & 1]
            a = a & ~zone[0] if zone else 0
        rects.append((1 << i, 0, a))
    return canon_py(rects)


@settings(max_examples=300, deadline=None)
@given(splits())
def test_split_is_the_fact_square_by_square(case: Any) -> None:
    # SO-O1, SO-O3: the objective check's kernel (Python form) against brute force.
    assert bitsets.split_py(*case) == _split_brute(*case)


@needs_native
@settings(max_examples=600, deadline=None)
@given(splits())
def test_c_splitter_equals_the_python_form(case: Any) -> None:
    parts, squares, assignments, union, ruled = case
    want = bitsets.split_py(parts, squares, assignments, union, ruled)
    assert bitsets.PySplitter(union, ruled)(parts, squares, assignments) == want
    splitter = _c().Splitter(union, iter(ruled))
    assert splitter(parts, squares, assignments) == want
    assert splitter(iter(parts), squares, assignments) == want
    # Zones narrower than the parts (the splitter widens itself) and wider.
    narrow = _c().Splitter(0, [])
    assert narrow(parts, squares, assignments) == bitsets.split_py(
        parts, squares, assignments, 0, []
    )
    # The wider zone lies past every square of the case (the parts reach 4,160 bits).
    far = max([union.bit_length(), *(max(s, lg).bit_length() for s, lg, _ in parts)]) + 64
    wide = _c().Splitter(union | 1 << far, [*ruled, (1 << (far + 500), 1 << far)])
    assert wide(parts, squares, assignments) == want


@needs_native
def test_c_splitter_called_again_while_loading_a_mask() -> None:
    # Inverting a negative int subclass runs Python code, which may call the same
    # splitter with wider parts (so that it widens): the first call still answers
    # as the Python form does.
    splitter = _c().Splitter(0b1111, [(1, 0b0011), (2, 0b1100)])

    class Again(int):
        def __invert__(self) -> int:
            splitter([(1 << 2000, 0, 1 << 3000)], -1, -1)
            return int.__invert__(int(self))

    want = bitsets.split_py([(0b1111, 0, 0b11)], -1, -1, 0b1111, [(1, 0b0011), (2, 0b1100)])
    assert splitter([(0b1111, 0, 0b11)], Again(-1), -1) == want


@needs_native
@pytest.mark.parametrize(
    ("ruling", "args", "error"),
    [
        ((0, []), ([(1, 2)], -1, -1), TypeError),
        ((0, []), (5, -1, -1), TypeError),
        ((0, []), ([(1, 2, 3)], "x", -1), TypeError),
        ((0, []), ([(1, -2, 3)], -1, -1), (OverflowError, ValueError)),
        ((0, [(1, 2, 3)]), None, TypeError),
        ((0, 5), None, TypeError),
        ((-4, []), None, (OverflowError, ValueError)),
        ((0, [(-1, 2)]), None, (OverflowError, ValueError)),
    ],
)
def test_c_splitter_refuses_bad_arguments(ruling: Any, args: Any, error: Any) -> None:
    with pytest.raises(error):
        _c().Splitter(*ruling)(*(args or ([], -1, -1)))


# --------------------------------------------------------------------------- steps


def _pair(dirs: list[tuple[int, int]], free: int) -> tuple[Any, PyStepper]:
    return _c().Stepper(dirs, free), PyStepper(dirs, free)


@needs_native
@settings(max_examples=300, deadline=None)
@given(steppers(), st.data())
def test_c_steps_and_walks_equal_the_python_forms(
    spec: tuple[list[tuple[int, int]], int, int], data: st.DataObject
) -> None:
    dirs, free, width = spec
    c, py = _pair(dirs, free)
    for _ in range(4):
        # Frontiers and seen squares may reach past the board (kept in layer 0).
        frontier = data.draw(bitset(width + data.draw(st.sampled_from((0, 0, 70))), most=30))
        seen = data.draw(bitset(width + data.draw(st.sampled_from((0, 70))), most=30))
        assert c(frontier) == py(frontier)
        short = data.draw(st.integers(min_value=0, max_value=3))
        total = short + data.draw(st.integers(min_value=0, max_value=3))
        assert c.walk(frontier, seen, short, total) == py.walk(frontier, seen, short, total)


@needs_native
@settings(max_examples=200, deadline=None)
@given(steppers(), st.data())
def test_a_c_stepper_pickles_and_copies_into_the_same_steps(
    spec: tuple[list[tuple[int, int]], int, int], data: st.DataObject
) -> None:
    # A state that holds one (Specter Ops' bots, a move graph's memo) could not be
    # pickled or deep-copied where the kernels are built, and could in pure Python.
    dirs, free, width = spec
    c, _ = _pair(dirs, free)
    for twin in (pickle.loads(pickle.dumps(c)), copy.deepcopy(c)):
        assert type(twin) is type(c)
        for _ in range(3):
            frontier = data.draw(bitset(width + data.draw(st.sampled_from((0, 70))), most=30))
            seen = data.draw(bitset(width, most=30))
            assert twin(frontier) == c(frontier)
            assert twin.walk(frontier, seen, 1, 3) == c.walk(frontier, seen, 1, 3)


@needs_native
def test_a_c_stepper_with_a_step_past_the_board_pickles() -> None:
    # Such a step adds nothing and is kept as offset 0, which Stepper() refuses: it is
    # given back as the board's width.
    c = _c().Stepper([(1, 0b0111), (10**30, 0b1111), (-(2**70), 0b1111)], 0b1111)
    twin = pickle.loads(pickle.dumps(c))
    assert [twin(f) for f in range(16)] == [c(f) for f in range(16)]


@needs_native
@settings(max_examples=200, deadline=None)
@given(steppers(), st.data())
def test_c_walkers_equal_the_python_form(
    spec: tuple[list[tuple[int, int]], int, int], data: st.DataObject
) -> None:
    dirs, free, width = spec
    c, py = _pair(dirs, free)
    seen = data.draw(bitset(width, most=30))
    short = data.draw(st.integers(min_value=0, max_value=2))
    total = short + data.draw(st.integers(min_value=0, max_value=2))
    longer = total + data.draw(st.integers(min_value=0, max_value=2))
    cw, pw = c.walks(seen, short, total, longer), py.walks(seen, short, total, longer)
    starts = data.draw(st.lists(bitset(width, most=6), min_size=1, max_size=4))
    # Several calls on one walker: the kept walks (and their longer form, made on
    # demand) must give what fresh ones would.
    for _ in range(3):
        parts = [
            (data.draw(st.sampled_from(starts)), data.draw(bitset(width, most=3)), a)
            for a in data.draw(st.lists(st.integers(min_value=1, max_value=1 << 80), max_size=5))
        ]
        no_end = data.draw(bitset(width, most=40))
        far = data.draw(st.booleans())
        got = cw.parts(parts, no_end, far)
        assert got == pw.parts(parts, no_end, far)
        # The assignments pass through as they are.
        assert {id(r[2]) for r in got} <= {id(p[2]) for p in parts}


@needs_native
@settings(max_examples=300, deadline=None)
@given(steppers(), st.data())
def test_c_played_equals_the_python_form(
    spec: tuple[list[tuple[int, int]], int, int], data: st.DataObject
) -> None:
    # SO-A1, SO-I2: a hidden move's ways (walks, given rectangles, concealed or not)
    # joined per target in one call, against the Python form on Python walkers.
    dirs, free, width = spec
    c, py = _pair(dirs, free)
    seen = data.draw(bitset(width, most=30))
    walkers = [(c.walks(seen, 1, 2, 3), py.walks(seen, 1, 2, 3))]
    walkers.append((c.walks(0, 2, 4, 6), py.walks(0, 2, 4, 6)))
    pool = data.draw(st.lists(bitset(200, most=8).filter(bool), min_size=1, max_size=4))
    parts = canon_py(
        (
            data.draw(bitset(width, most=6)),
            data.draw(bitset(width, most=3)),
            data.draw(st.sampled_from(pool)),
        )
        for _ in range(data.draw(st.integers(min_value=0, max_value=6)))
    )
    c_ways: list[Any] = []
    py_ways: list[Any] = []
    for _ in range(data.draw(st.integers(min_value=0, max_value=5))):
        no_end = data.draw(bitset(width, most=40))
        conceal = data.draw(st.sampled_from((None, data.draw(bitset(width, most=40)))))
        longer = data.draw(st.booleans())
        if data.draw(st.booleans()):
            cw, pw = walkers[data.draw(st.integers(min_value=0, max_value=1))]
            c_ways.append((cw, no_end, longer, conceal))
            py_ways.append((pw, no_end, longer, conceal))
        else:
            rects = tuple(data.draw(rect_lists()))
            c_ways.append((rects, no_end, longer, conceal))
            py_ways.append((rects, no_end, longer, conceal))
    n = len(c_ways)
    targets = (
        [
            tuple(data.draw(st.lists(st.integers(min_value=0, max_value=n - 1), max_size=4)))
            for _ in range(4)
        ]
        if n
        else [()]
    )
    want = bitsets.played_py(parts, py_ways, targets)
    assert _c().played(parts, c_ways, targets) == want
    # The Python form on the C walkers too (a form's walks are interchangeable).
    assert bitsets.played_py(parts, c_ways, targets) == want
    # Each target is the union of its ways' rectangles, open and hidden apart.
    for made_by, (opened, hidden) in zip(targets, want, strict=True):
        rects = [bitsets.played_py(parts, py_ways, [(i,)])[0] for i in made_by]
        assert opened == canon_py(r for o, _ in rects for r in o)
        assert hidden == canon_py(r for _, h in rects for r in h)


@needs_native
@pytest.mark.parametrize(
    ("ways", "targets", "error"),
    [
        ([(5, 0, False, None)], [(0,)], TypeError),
        ([((), 0, False)], [(0,)], TypeError),
        ([((), -1, False, None)], [(0,)], (OverflowError, ValueError)),
        ([((), 0, False, -2)], [(0,)], (OverflowError, ValueError)),
        ([((), 0, False, None)], [(1,)], IndexError),
        ([((), 0, False, None)], [5], TypeError),
        ([(((1, 2),), 0, False, None)], [(0,)], TypeError),
    ],
)
def test_c_played_refuses_bad_arguments(ways: Any, targets: Any, error: Any) -> None:
    with pytest.raises(error):
        _c().played([(1, 0, 1)], ways, targets)


def test_played_refuses_parts_past_the_board() -> None:
    step = PyStepper([(1, 0b1111)], 0b1111)
    with pytest.raises(ValueError, match="past the board"):
        bitsets.played_py([(1 << 70, 0, 1)], [(step.walks(0, 1, 2, 3), 0, False, None)], [(0,)])
    if _native is not None:
        cstep = _native.Stepper([(1, 0b1111)], 0b1111)
        with pytest.raises(ValueError, match="past the board"):
            _native.played([(1 << 70, 0, 1)], [(cstep.walks(0, 1, 2, 3), 0, False, None)], [(0,)])


# --------------------------------------------------------------------------- keys_after, ored

# Keys as a move's are: tuples of tuples, equal ones made apart (not the same object).
_KEY_POOL = [(("h" * (i % 3), i % 2 == 0), i % 5, (i % 3, 0, -1)) for i in range(24)]


@st.composite
def key_sets(draw: st.DrawFn) -> frozenset[Any]:
    picked = draw(st.lists(st.sampled_from(range(len(_KEY_POOL))), min_size=0, max_size=8))
    # A fresh tuple for each: the join must compare keys by value.
    return frozenset(tuple(_KEY_POOL[i]) if draw(st.booleans()) else _KEY_POOL[i] for i in picked)


def _in_order(joined: dict[Any, frozenset[Any]]) -> list[Any]:
    """A join's result as it iterates: its entries and each set's keys in order."""
    return [(sl, list(keys)) for sl, keys in joined.items()]


@needs_native
@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(rect_lists(), key_sets()), max_size=8), st.data())
def test_c_narrowed_equals_the_python_form_in_order(groups_in: Any, data: st.DataObject) -> None:
    # SO-I2, SO-H3, SO-V5: a fact that removes squares for every key ("Clear", the
    # sensor) narrows every group at once; groups left equal join, groups left empty go.
    groups: dict[Any, Any] = {}
    for rects, keys in groups_in:
        parts = canon_py(rects)
        if parts:
            groups[parts] = groups.get(parts, frozenset()) | keys
    width = max([r.bit_length() for p in groups for x in p for r in x[:2]] + [1])
    masks = []
    for _ in range(2):
        m = data.draw(bitset(width + 1, most=40))
        masks.append(~m if data.draw(st.booleans()) else m)
    want = bitsets.narrowed_py(groups, masks[0], masks[1])
    got = _c().narrowed(groups, masks[0], masks[1])
    assert got == want
    assert _in_order(got[0]) == _in_order(want[0])
    # The definition: each group narrowed, equal ones joined, empty ones out.
    joined: dict[Any, Any] = {}
    for parts, keys in groups.items():
        narrowed = bitsets.narrow_py(parts, masks[0], masks[1])
        if narrowed and keys:
            joined[narrowed] = joined.get(narrowed, frozenset()) | keys
    assert want[0] == joined
    assert want[1] == bitsets.squares_py([r for parts in joined for r in parts])
    assert want[2] is all(bitsets.narrow_py(p, masks[0], masks[1]) for p in groups)


@needs_native
@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(WIDTHS), key_sets(), st.integers(0, 2), st.data()), max_size=10
    )
)
def test_c_merged_equals_the_python_form_in_order(drawn: Any) -> None:
    # SO-O1, SO-O3: the objective check with public sites, every group at once: each
    # group's one part keeps its squares (short and long merged) within its mask (one a
    # reach; negative ones too), equal groups join, empty ones go.
    masks: dict[int, int] = {}
    pairs = []
    for width, keys, reach, data in drawn:
        if reach not in masks:
            m = data.draw(bitset(width + 1, most=40))
            masks[reach] = ~m if data.draw(st.booleans()) else m
        part = (data.draw(bitset(width, most=6)), data.draw(bitset(width, most=6)), 1)
        pairs.append(((part,), keys, masks[reach]))
    want = bitsets.merged_py(pairs)
    got = _c().merged(pairs)
    assert got == want
    assert _in_order(got[0]) == _in_order(want[0])
    joined: dict[Any, Any] = {}
    for ((short, long, a),), keys, bits in pairs:
        squares = (short | long) & bits
        if squares and keys:
            joined[((squares, 0, a),)] = joined.get(((squares, 0, a),), frozenset()) | keys
    assert want[0] == joined
    assert want[1] == bitsets.squares_py([r for parts in joined for r in parts])
    assert want[2] is all((p[0][0] | p[0][1]) & bits for p, _, bits in pairs)


def test_merged_refuses_groups_of_several_parts() -> None:
    bad = [(((1, 0, 1), (2, 0, 2)), frozenset({1}), 3)]
    with pytest.raises(TypeError):
        bitsets.merged_py(bad)
    if _native is not None:
        with pytest.raises(TypeError):
            _native.merged(bad)
        with pytest.raises(TypeError):
            _native.merged([(((1, 0, 1),), frozenset({1}), "3")])


def _parts_values(draw: st.DrawFn) -> Any:
    """Ints of every width the hash takes two digits at a time (odd and even counts of
    30-bit digits, the modulus 2**61 - 1 and its multiples), and tuples of them."""
    width = draw(st.sampled_from((0, 1, 29, 30, 31, 60, 61, 62, 64, 90, 736, 1296, 1400)))
    n = draw(st.integers(0, (1 << width) - 1)) if width else 0
    n = draw(st.sampled_from((n, (1 << width) - 1, ((1 << 61) - 1) * (n + 1))))
    return draw(st.sampled_from((n, (n,), (n, n + 1, 3), ((n, 0, 1), (2, n, n)), ())))


parts_values = st.composite(_parts_values)


@needs_native
@settings(max_examples=1000, deadline=None)
@given(parts_values())
def test_c_hash_of_is_pythons_hash(value: Any) -> None:
    # SO-I2: the group joins put parts in dicts under hashes worked out in C (Python's
    # own formulas on the ints' digits); a wrong one would lose a group in a lookup.
    assert _c().hash_of(value) == hash(value)


def test_c_hash_of_hashes_anything_as_python_does() -> None:
    if _native is None:
        pytest.skip("the C kernels are not built")
    for value in (-5, -(1 << 100), True, "K17", 2.5, (1, ("a", -3)), frozenset({1})):
        assert _native.hash_of(value) == hash(value)
    with pytest.raises(TypeError):
        _native.hash_of([1])


@needs_native
@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(rect_lists(), key_sets(), st.booleans()), max_size=10))
def test_c_grouped_equals_the_python_form_in_order(drawn: Any) -> None:
    # SO-I2: a fact's groups joined where their parts came out equal, the keys' union in
    # order; parts that are the old map's own objects take the hashes its dict keeps.
    old: dict[Any, Any] = {}
    pairs = []
    for rects, keys, fresh in drawn:
        parts = canon_py(rects)
        old.setdefault(parts, keys)
        # A copy where drawn: equal parts met as other objects join by value.
        pairs.append((tuple(tuple(r) for r in parts) if fresh else parts, keys))
    want = bitsets.grouped_py(pairs)
    for known in (old, None, {}):
        got = _c().grouped(pairs, known)
        assert got == want
        assert _in_order(got) == _in_order(want)
        # Every entry is found by an equal object made anew: its hash is Python's.
        for parts, keys in want.items():
            assert got[tuple(tuple(r) for r in parts)] == keys
    joined: dict[Any, Any] = {}
    for parts, keys in pairs:
        joined[parts] = joined.get(parts, frozenset()) | keys
    assert want == joined


class _CountedTuple(tuple):  # type: ignore[type-arg]
    """A tuple that counts the times it is hashed."""

    hashed = 0

    def __hash__(self) -> int:
        type(self).hashed += 1
        return tuple.__hash__(self)


def test_c_grouped_takes_the_hashes_the_old_groups_keep() -> None:
    if _native is None:
        pytest.skip("the C kernels are not built")
    # Where CPython takes hashes from the caller (3.11-3.12): the old dict's hash, not a
    # new one; elsewhere each new group's parts are hashed once, as Python's setdefault.
    parts = _CountedTuple(((1, 2, 3),))
    old = {parts: frozenset({"a"})}
    before = _CountedTuple.hashed
    got = _native.grouped([(parts, frozenset({"b"}))], old)
    assert _CountedTuple.hashed == before + (0 if _native.KNOWN_HASH else 1)
    assert got == {((1, 2, 3),): frozenset({"b"})}
    _native.grouped([(parts, frozenset({"b"}))], None)
    assert _CountedTuple.hashed == before + (1 if _native.KNOWN_HASH else 2)
    with pytest.raises(TypeError):
        _native.grouped([(parts,)], old)
    with pytest.raises(TypeError):
        _native.grouped([([1], frozenset())], None)


def test_narrowed_refuses_groups_that_are_not_sets_of_keys() -> None:
    with pytest.raises(TypeError):
        bitsets.narrowed_py({((1, 0, 1),): [1]}, 1, 1)  # type: ignore[dict-item]
    if _native is not None:
        with pytest.raises(TypeError):
            _native.narrowed({((1, 0, 1),): [1]}, 1, 1)
        with pytest.raises(TypeError):
            _native.narrowed([(((1, 0, 1),), frozenset())], 1, 1)


@needs_native
@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(WIDTHS), st.sampled_from(WIDTHS), key_sets(), st.data()),
        max_size=10,
    )
)
def test_c_keys_after_equals_the_python_form_in_order(made: Any) -> None:
    # SO-I2, SO-A7: the keys after a move, each the OR of the squares of every triple that
    # makes it; the C form gives the same dict and sets in the same order (the map's
    # groups are walked in that order).
    triples = [
        (data.draw(bitset(sw, most=6)), data.draw(bitset(lw, most=6)), keys)
        for sw, lw, keys, data in made
    ]
    want = bitsets.keys_after_py(triples)
    got = _c().keys_after(triples)
    assert got == want
    assert _in_order(got) == _in_order(want)
    by_key: dict[Any, list[int]] = {}
    for short, long, keys in triples:
        for key in keys:
            cur = by_key.setdefault(key, [0, 0])
            cur[0] |= short
            cur[1] |= long
    assert {key: (s, lg) for (s, lg), keys in want.items() for key in keys} == {
        key: (s, lg) for key, (s, lg) in by_key.items()
    }


@needs_native
@settings(max_examples=300, deadline=None)
@given(steppers(), st.data())
def test_c_ored_equals_the_python_form(
    spec: tuple[list[tuple[int, int]], int, int], data: st.DataObject
) -> None:
    # SO-A1, SO-A7, SO-I2: a plain unseen move's groups walked per way, ORed per target
    # and joined by key, against the Python form on Python walkers; the same dict, sets
    # and order, every square, and whether a target came to nothing.
    dirs, free, width = spec
    c, py = _pair(dirs, free)
    seens = [data.draw(bitset(width, most=30)) for _ in range(2)]
    walkers = [(c.walks(s, 2, 4, 6), py.walks(s, 2, 4, 6)) for s in seens]
    c_ways: list[Any] = []
    py_ways: list[Any] = []
    for _ in range(data.draw(st.integers(min_value=1, max_value=5))):
        cw, pw = walkers[data.draw(st.integers(min_value=0, max_value=1))]
        no_end = data.draw(bitset(width, most=40))
        longer = data.draw(st.booleans())
        c_ways.append((cw, no_end, longer))
        py_ways.append((pw, no_end, longer))
    groups: list[Any] = []
    for _ in range(data.draw(st.integers(min_value=0, max_value=6))):
        part = (data.draw(bitset(width, most=6)), data.draw(bitset(width, most=3)), 1)
        ids = tuple(
            data.draw(
                st.lists(
                    st.integers(min_value=0, max_value=len(c_ways) - 1), min_size=1, max_size=4
                )
            )
        )
        targets = tuple(
            (
                tuple(
                    data.draw(
                        st.lists(
                            st.integers(min_value=0, max_value=len(ids) - 1), min_size=1, max_size=3
                        )
                    )
                ),
                data.draw(key_sets().filter(bool)),
            )
            for _ in range(data.draw(st.integers(min_value=1, max_value=4)))
        )
        groups.append((part, ids, targets))
    want = bitsets.ored_py(groups, py_ways, 1)
    got = _c().ored(groups, c_ways, 1)
    assert got == want
    assert _in_order(got[0]) == _in_order(want[0])
    # The same as walking each way and joining the ORs with keys_after_py.
    made = []
    lost = False
    for part, ids, targets in groups:
        done = [
            (lambda r: (r[0][0], r[0][1]) if r else (0, 0))(
                py_ways[i][0].parts((part,), py_ways[i][1], py_ways[i][2])
            )
            for i in ids
        ]
        for played, keys in targets:
            short = long = 0
            for j in played:
                short |= done[j][0]
                long |= done[j][1]
            if short or long:
                made.append((short, long, keys))
            else:
                lost = True
    joined = bitsets.keys_after_py(made)
    assert want[0] == {((s, lg, 1),): keys for (s, lg), keys in joined.items()}
    assert want[1] == bitsets.squares_py([p for parts in want[0] for p in parts])
    assert want[2] is lost


@needs_native
@pytest.mark.parametrize(
    ("groups", "ways", "error"),
    [
        ([((1, 0, 1), (0,), (((0,), frozenset({1})),))], [(5, 0, False)], TypeError),
        ([((1, 0, 1), (1,), (((0,), frozenset({1})),))], "walks", IndexError),
        ([((1, 0, 1), (0,), (((1,), frozenset({1})),))], "walks", IndexError),
        ([((1, 0, 1), (0,), (((0,), [1]),))], "walks", TypeError),
        ([((1, 0), (0,), (((0,), frozenset({1})),))], "walks", TypeError),
        ([((1, 0, 1), (0,), (((0,), frozenset({1})),))], "negative", (OverflowError, ValueError)),
        ([((1 << 70, 0, 1), (0,), (((0,), frozenset({1})),))], "walks", ValueError),
    ],
)
def test_c_ored_refuses_bad_arguments(groups: Any, ways: Any, error: Any) -> None:
    step = _c().Stepper([(1, 0b1111)], 0b1111)
    if ways == "walks":
        ways = [(step.walks(0, 1, 2, 3), 0, False)]
    elif ways == "negative":
        ways = [(step.walks(0, 1, 2, 3), -1, False)]
    with pytest.raises(error):
        _c().ored(groups, ways, 1)


@needs_native
def test_c_ored_keeps_what_it_uses_when_called_code_changes_the_arguments() -> None:
    # A flag's __bool__ and a key's __eq__ run Python code during the call: the kernel
    # works on tuples of its own, so emptying the caller's lists frees nothing it uses
    # (found by review: these read freed memory before, which AddressSanitizer caught;
    # a plain build may or may not crash on that).
    step = _c().Stepper([(1, 0b1111)], 0b1111)
    ways: list[Any] = []

    class Emptying:
        def __bool__(self) -> bool:
            ways.clear()
            ways.extend([None] * 1000)
            return False

    ways += [(step.walks(0, 1, 2, 3), 0, Emptying()), (step.walks(0, 1, 2, 3), 0, False)]
    groups: list[Any] = [((1, 0, 1), (0, 1), (((0,), frozenset({1})),))]
    want = bitsets.ored_py(
        groups, [(PyStepper([(1, 0b1111)], 0b1111).walks(0, 1, 2, 3), 0, False)] * 2, 1
    )
    assert _c().ored(groups, ways, 1) == want

    class Key:
        armed = False

        def __init__(self, v: int) -> None:
            self.v = v

        def __hash__(self) -> int:
            return 7

        def __eq__(self, other: object) -> bool:
            if Key.armed:
                Key.armed = False
                groups.clear()
            return isinstance(other, Key) and self.v == other.v

    groups[:] = [
        ((1, 0, 1), (0,), (((0,), frozenset({Key(1)})),)),
        ((2, 0, 1), (0,), (((0,), frozenset({Key(2), Key(3)})),)),
    ]
    Key.armed = True
    got = _c().ored(groups, [(step.walks(0, 1, 2, 3), 0, False)], 1)
    assert sorted(k.v for keys in got[0].values() for k in keys) == [1, 2, 3]


@needs_native
def test_c_joins_take_sets_themselves_not_subclasses() -> None:
    # A subclass's set operations could return anything; the C join refuses it.
    class Odd(frozenset):  # type: ignore[type-arg]
        def __and__(self, other: object) -> Any:
            return [1]

    with pytest.raises(TypeError):
        _c().keys_after([(1, 0, Odd({1})), (2, 0, Odd({1}))])
    step = _c().Stepper([(1, 0b1111)], 0b1111)
    with pytest.raises(TypeError):
        _c().ored([((1, 0, 1), (0,), (((0,), Odd({1})),))], [(step.walks(0, 1, 2, 3), 0, False)], 1)


def test_ored_refuses_parts_past_the_board_and_bad_indices() -> None:
    step = PyStepper([(1, 0b1111)], 0b1111)
    ways = [(step.walks(0, 1, 2, 3), 0, False)]
    with pytest.raises(ValueError, match="past the board"):
        bitsets.ored_py([((1 << 70, 0, 1), (0,), (((0,), frozenset({1})),))], ways, 1)
    with pytest.raises(IndexError):
        bitsets.ored_py([((1, 0, 1), (1,), (((0,), frozenset({1})),))], ways, 1)
    with pytest.raises(IndexError):
        bitsets.ored_py([((1, 0, 1), (0,), (((2,), frozenset({1})),))], ways, 1)


@needs_native
def test_c_steps_on_the_specter_ops_board() -> None:
    # SO-A2: the board's own steps (walls, the diagonal squeeze, figures avoided) from
    # every square and from sets of squares, and the unseen walks of a hidden move.
    graph = geometry_for("specter-ops").graph
    n = graph.board.height * graph.board.width
    blocked = sum(1 << i for i in range(5, n, 37))
    for make in (
        lambda: graph.stepper(),
        lambda: graph.stepper(avoid=blocked),
        lambda: graph.stepper(blocked),
    ):
        step = _made_with(_c().Stepper, make)
        ref = _made_with(PyStepper, make)
        assert type(step) is _c().Stepper
        assert type(ref) is PyStepper
        for i in range(n):
            assert step(1 << i) == ref(1 << i)
        frontier = sum(1 << i for i in range(0, n, 11))
        seen = sum(1 << i for i in range(3, n, 7))
        assert step.walk(frontier, seen, 2, 4) == ref.walk(frontier, seen, 2, 4)


def test_steppers_without_blocked_squares_are_kept_by_the_squares_avoided() -> None:
    # SO-A2: every move of a hidden mover's map asks for the same two steppers; the one
    # kept steps as the Python form made anew, another set of squares avoided gets its
    # own, and a swapped Stepper class is not handed an old object of the other class.
    from fogofwar.core.grid import movegraph

    graph = geometry_for("specter-ops").graph
    n = graph.board.height * graph.board.width
    avoid = sum(1 << i for i in range(5, n, 37))
    kept = graph.stepper(avoid=avoid)
    assert type(kept) is movegraph.Stepper
    assert graph.stepper(avoid=avoid) is kept
    assert graph.stepper(avoid=avoid | 1) is not kept
    ref = _made_with(PyStepper, lambda: graph.stepper(avoid=avoid))
    assert type(ref) is PyStepper
    for i in range(n):
        assert kept(1 << i) == ref(1 << i)
    assert type(graph.stepper(avoid=avoid)) is movegraph.Stepper


def _made_with(stepper: Any, make: Callable[[], Any]) -> Any:
    """What ``make`` gives with ``stepper`` as the move graph's stepper class."""
    from fogofwar.core.grid import movegraph

    was = movegraph.Stepper
    movegraph.Stepper = stepper
    try:
        return make()
    finally:
        movegraph.Stepper = was


@pytest.mark.parametrize("kind", ["python", "c"])
def test_steppers_refuse_bad_arguments(kind: str) -> None:
    if kind == "c" and _native is None and not os.environ.get("CI"):
        pytest.skip("the C kernels are not built here")
    make = PyStepper if kind == "python" else _c().Stepper
    with pytest.raises(ValueError, match="non-zero offset"):
        make([(0, 1)], 3)
    with pytest.raises((ValueError, OverflowError)):
        make([(1, -1)], 3)
    with pytest.raises((ValueError, OverflowError)):
        make([(1, 1)], -3)
    step = make([(1, 3)], 7)
    with pytest.raises(ValueError, match="short <= total"):
        step.walk(1, 0, 3, 2)
    with pytest.raises(ValueError, match="short <= total <= longer"):
        step.walks(0, 2, 4, 3)
    with pytest.raises(ValueError, match="past the board"):
        step.walks(0, 1, 2, 3).parts([(1 << 200, 0, 1)], 0, False)
    with pytest.raises((ValueError, OverflowError)):
        step.walks(0, 1, 2, 3).parts([(1, 0, 1)], -1, False)


def test_python_walk_is_the_layers_by_brute_force() -> None:
    # A walk's layers on a line of 10 squares: one step right or left, squares 4 and 6
    # seen: from square 5 nothing can move (both neighbours seen), from 2 the walk
    # stays on 0–3.
    line = (1 << 10) - 1
    step = PyStepper([(1, line & ~(1 << 9)), (-1, line & ~1)], line)
    seen = 1 << 4 | 1 << 6
    assert step.walk(1 << 5, seen, 2, 4) == [1 << 5, 0, 0]
    near, far, last = step.walk(1 << 2, seen, 2, 4)
    assert near == 0b1111  # 0–2 steps from 2: squares 0–3
    assert far == 0b1111  # 3–4 steps: 0–3 too
    assert last == 0b0101  # exactly 4 steps: 0 and 2, the parity of the start


@needs_native
@pytest.mark.parametrize("off", [64, -64, 127, -128, 2**20, 2**63 - 1, -(2**63), 2**70, -(2**70)])
def test_c_steps_past_the_board_add_nothing(off: int) -> None:
    # An offset as wide as the board or wider shifts every square off it, as the
    # Python form's shift does (no read outside the board's words: -2**63 once did).
    c = _c().Stepper([(1, 0b1111), (off, 0b1010)], (1 << 64) - 1)
    alone = PyStepper([(1, 0b1111)], (1 << 64) - 1)
    for frontier in (0, 1, 0b1010, (1 << 64) - 1, 1 << 200):
        assert c(frontier) == alone(frontier)
        if abs(off) <= 2**20:  # a shift Python can make
            assert c(frontier) == PyStepper([(1, 0b1111), (off, 0b1010)], (1 << 64) - 1)(frontier)


@needs_native
def test_c_narrow_keeps_empty_parts_it_does_not_narrow() -> None:
    # A part with no squares is left as it is by masks that keep everything (the
    # Python form keeps it, and the same tuple), and goes once a mask narrows it.
    parts = ((0, 0, 1), (3, 1, 2))
    assert _c().narrow(parts, -1, -1) is parts
    assert bitsets.narrow_py(parts, -1, -1) is parts
    assert _c().narrow(parts, 1, 1) == bitsets.narrow_py(parts, 1, 1) == ((0, 0, 1), (1, 1, 2))
    assert _c().narrow([*parts], -1, -1) == parts
    assert isinstance(_c().Walks, type)
