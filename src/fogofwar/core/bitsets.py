"""Bitset kernels: a hidden mover's steps and the canonical form of a union of
rectangles, with Python ints as bitsets.

Each kernel has a pure-Python form here (:func:`canon_py`, :class:`PyStepper`), which is
the reference, and a C form in the extension module ``fogofwar.core._bitsets``, built
when the package is installed with a C compiler at hand. :data:`NATIVE` says which one
:func:`canon` and :class:`Stepper` are; ``FOGOFWAR_PURE_PYTHON=1`` in the environment
picks the Python forms even where the extension is built. The two give the same results
(tests compare them on random inputs of every width, and play whole games with each).

Why C at all: Specter Ops' possibility map (docs/specter-ops.md) walks and joins sets of
736-bit squares by 1,296-bit site assignments; in Python every AND, OR and shift on them
makes a new object, and at 5 players those made an agent's move take a tenth of a
second. The C forms read each int once into 64-bit limbs and write the results back
once.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from typing import Any, Protocol, TypeVar

__all__ = [
    "NATIVE",
    "PySplitter",
    "PyStepper",
    "PyWalks",
    "SplitFn",
    "Splitter",
    "StepFn",
    "Stepper",
    "WalksFn",
    "canon",
    "canon_py",
    "grouped",
    "grouped_py",
    "keys_after",
    "keys_after_py",
    "made_twice",
    "merged",
    "merged_py",
    "narrow",
    "narrow_py",
    "narrowed",
    "narrowed_py",
    "ored",
    "ored_py",
    "ored_targets",
    "played",
    "played_py",
    "split_py",
    "squares",
    "squares_py",
]

Rect = tuple[int, int, int]
"""(short, long, assignments): two sets of cells and a set of site assignments."""

K = TypeVar("K", bound=Hashable)


class WalksFn(Protocol):
    """Unseen walks from many starts through one set of seen squares (:meth:`StepFn.walks`)."""

    def parts(self, parts: Sequence[Rect], no_end: int, longer: bool, /) -> tuple[Rect, ...]: ...


class StepFn(Protocol):
    """One step of a hidden mover on a bitboard, and an unseen walk of such steps."""

    def __call__(self, frontier: int, /) -> int: ...

    def walk(self, start: int, seen: int, short: int, total: int, /) -> list[int]: ...

    def walks(self, seen: int, short: int, total: int, longer: int, /) -> WalksFn: ...


def canon_py(rects: Iterable[Rect]) -> tuple[Rect, ...]:
    """The canonical parts of a union of rectangles (cells × assignments): each cell (a
    square after a short or a long move) with the assignments of every rectangle that
    holds it, cells with the same assignments in one part, parts in order of their
    assignments. Column by column this stays small: the squares of a map carry few
    distinct sets of assignments (measured: at most a few dozen where the assignments'
    own squares are all 1,296 different)."""
    by_a: dict[int, list[int]] = {}
    for short, long, a in rects:
        if a and (short or long):
            cur = by_a.get(a)
            if cur is None:
                by_a[a] = [short, long]
            else:
                cur[0] |= short
                cur[1] |= long
    if len(by_a) > 1:
        # Refine in place: each cell takes the union of the assignments of the
        # rectangles that hold it. Cells with the same union so far stay together (a
        # later rectangle splits them alike). A rectangle touches only the groups its
        # cells meet and stops once every cell of it is placed, so the work is about
        # the splits made, not rectangles × groups. (The adds are written out: a
        # helper's call costs a tenth of the map's time here.)
        cells: dict[int, list[int]] = {}
        # Wide sets first: a narrower one then mostly falls inside and splits nothing.
        for a2 in sorted(by_a, key=int.bit_count, reverse=True):
            s2, l2 = by_a[a2]
            if cells:
                # A snapshot: a group made or grown below holds only cells of this
                # rectangle, which it has already placed, so it needs no visit.
                for a1, c in list(cells.items()):
                    s_in = c[0] & s2
                    l_in = c[1] & l2
                    if not (s_in or l_in):
                        continue
                    s2 ^= s_in
                    l2 ^= l_in
                    u = a1 | a2
                    if u != a1:
                        t = cells.get(u)
                        if s_in == c[0] and l_in == c[1]:
                            # The whole group moves to the wider set.
                            del cells[a1]
                            if t is None:
                                cells[u] = c
                            else:
                                t[0] |= s_in
                                t[1] |= l_in
                                c[0] = c[1] = 0  # a stale snapshot entry meets nothing
                        else:
                            c[0] ^= s_in
                            c[1] ^= l_in
                            if t is None:
                                cells[u] = [s_in, l_in]
                            else:
                                t[0] |= s_in
                                t[1] |= l_in
                    if not (s2 or l2):
                        break
            if s2 or l2:
                t = cells.get(a2)
                if t is None:
                    cells[a2] = [s2, l2]
                else:
                    t[0] |= s2
                    t[1] |= l2
        by_a = cells
    return tuple((short, long, a) for a, (short, long) in sorted(by_a.items()))


def narrow_py(parts: Sequence[Rect], short_bits: int, long_bits: int) -> tuple[Rect, ...]:
    """Each part's short squares AND ``short_bits`` and long squares AND ``long_bits``
    (a negative mask ``~m``: every square but ``m``'s), empty parts left out. A part
    left whole is the same object, and so are the parts when nothing changed (a
    possibility map's caches key on their identity)."""
    out = []
    same = True
    for part in parts:
        short, long, a = part
        s = short & short_bits
        lg = long & long_bits
        if s == short and lg == long:
            out.append(part)
        elif s or lg:
            out.append((s, lg, a))
            same = False
        else:
            same = False
    if same and type(parts) is tuple:
        return parts
    return tuple(out)


def split_py(
    parts: Sequence[Rect],
    squares: int,
    assignments: int,
    union: int,
    ruled: Sequence[tuple[int, int]],
) -> tuple[Rect, ...]:
    """The canonical parts of ``parts`` after a fact that keeps some squares and rules
    out assignments square by square (Specter Ops' objective check, SO-O1, SO-O3).

    The short and long squares of each part merge into its short ones (a new move
    starts), then every part keeps its squares in ``squares`` and its assignments in
    ``assignments`` (either may be negative, ``~m``: all but ``m``'s). Within ``union``
    a square keeps only the assignments of its zone: ``ruled`` pairs ``(out, zone)``,
    disjoint zones covering ``union``, a square of ``zone`` losing the assignments of
    ``out``. Squares outside ``union`` keep their assignments; squares left with none
    go. The result is canonical (:func:`canon_py`), its long squares empty."""
    merged: list[Rect] = []
    every = 0
    overlap = False
    for short, long, a in parts:
        sq = short | long
        overlap = overlap or bool(sq & every)
        every |= sq
        merged.append((sq, 0, a))
    if overlap:
        # A square short in one part and long in another: its assignments join.
        merged = list(canon_py(merged))
    by_a: dict[int, int] = {}
    for sq, _, a in merged:
        sq &= squares
        a &= assignments
        if not (sq and a):
            continue
        away = sq & ~union
        if away:
            by_a[a] = by_a.get(a, 0) | away
        sq &= union
        for out, zone in ruled:
            if not sq:
                break
            inside = sq & zone
            if inside:
                sq ^= inside
                left = a & ~out
                if left:
                    by_a[left] = by_a.get(left, 0) | inside
    return tuple((sq, 0, a) for a, sq in sorted(by_a.items()))


Way = tuple["WalksFn | tuple[Rect, ...]", int, bool, int | None]
"""One way of playing a hidden move, for :func:`played_py`: its source (unseen walks,
or the rectangles it makes, given), the squares it may not end on, whether its walks
run longer (Adrenal Surge), and the squares on which it is concealed (or None)."""


def played_py(
    parts: Sequence[Rect], ways: Sequence[Way], targets: Sequence[tuple[int, ...]]
) -> tuple[tuple[tuple[Rect, ...], tuple[Rect, ...]], ...]:
    """A hidden move's parts, worked out for every target at once.

    Each way's rectangles are its source's: for walks, ``walks.parts(parts, no_end,
    longer)``; given rectangles as they are. With a concealing mask a way's rectangles
    split in two, the squares off the mask (open) and on it (hidden). Each target, a
    tuple of way indices, gets the canonical union (:func:`canon_py`) of its ways'
    open rectangles and of their hidden ones: ``(open, hidden)``.

    Raises:
        ValueError: a part lies past a walk's board, or a mask is negative.
    """
    made: list[tuple[tuple[Rect, ...], tuple[Rect, ...]]] = []
    for source, no_end, longer, conceal in ways:
        if no_end < 0 or (conceal is not None and conceal < 0):
            raise ValueError("a way's squares must not be negative")
        rects = source if isinstance(source, tuple) else source.parts(parts, no_end, longer)
        if conceal is None:
            made.append((rects, ()))
        else:
            made.append((narrow_py(rects, ~conceal, ~conceal), narrow_py(rects, conceal, conceal)))
    out = []
    for ways_of in targets:
        for i in ways_of:
            if not 0 <= i < len(made):
                raise IndexError(f"a target names way {i} of {len(made)}")
        opened = [made[i][0] for i in ways_of if made[i][0]]
        hidden = [made[i][1] for i in ways_of if made[i][1]]
        out.append(
            (
                canon_py(itertools.chain.from_iterable(opened)) if opened else (),
                canon_py(itertools.chain.from_iterable(hidden)) if hidden else (),
            )
        )
    return tuple(out)


def made_twice(sets: Iterable[frozenset[K]]) -> set[K]:
    """The entries in more than one of ``sets``, found with set operations: a set keeps
    its entries' hashes, so no entry is hashed again (a move's keys, most of them in one
    set only)."""
    seen: set[K] = set()
    twice: set[K] = set()
    for keys in sets:
        if not seen.isdisjoint(keys):
            twice |= seen & keys
        seen |= keys
    return twice


def keys_after_py(
    made: Iterable[tuple[int, int, frozenset[K]]],
) -> dict[tuple[int, int], frozenset[K]]:
    """The keys after a move by their (short, long) squares, from ``(short, long, keys)``
    triples (each set of ways' OR, with the keys it makes): a key made more than once
    (in two groups: a use spent in one, none in the other) gets the OR of its squares,
    and keys with the same squares share one entry. Keys are any hashable values.

    The C form does the same set operations in the same order, so the dict and its sets
    come out in the same order too. It takes tuples, ``set`` and ``frozenset`` themselves
    (not subclasses, whose operations could return anything) and non-negative ints, and
    refuses the rest; the Python form is looser."""
    made = list(made)
    out: dict[tuple[int, int], frozenset[K]] = {}
    # The keys made more than once (at 3 players about a quarter of a move's keys):
    # only those are gathered one by one.
    twice = made_twice(moved for _, _, moved in made)
    acc: dict[K, list[int]] = {}
    for short, long, moved in made:
        if twice:
            for key in moved & twice:
                got = acc.get(key)
                if got is None:
                    acc[key] = [short, long]
                else:
                    got[0] |= short
                    got[1] |= long
            moved = moved - twice
            if not moved:
                continue
        cur = out.get((short, long))
        out[short, long] = moved if cur is None else cur | moved
    if acc:
        grouped: dict[tuple[int, int], list[K]] = {}
        for key, (short, long) in acc.items():
            grouped.setdefault((short, long), []).append(key)
        for sl, ks in grouped.items():
            cur = out.get(sl)
            out[sl] = frozenset(ks) if cur is None else cur.union(ks)
    return out


PlainGroup = tuple[Rect, tuple[int, ...], tuple[tuple[tuple[int, ...], frozenset[K]], ...]]
"""A group of a plain move, for :func:`ored_py`: its one part, the indices of the ways
its keys play (into the move's ways), and its targets: each a tuple of indices into
those ways, with the keys they make."""


def ored_targets(
    done: Sequence[tuple[int, int]],
    targets: Iterable[tuple[tuple[int, ...], frozenset[K]]],
    made: list[tuple[int, int, frozenset[K]]],
) -> bool:
    """Add to ``made`` each target's ``(short, long, keys)``: the OR of the (short, long)
    squares of its ways in ``done``. Returns whether some target's came to nothing (its
    keys are left out: a key lost)."""
    lost = False
    for played, keys in targets:
        short = long = 0
        for j in played:
            if not 0 <= j < len(done):
                raise IndexError(f"a target names way {j} of {len(done)}")
            s, lg = done[j]
            short |= s
            long |= lg
        if short or long:
            made.append((short, long, keys))
        else:
            lost = True
    return lost


def ored_py(
    groups: Sequence[PlainGroup[K]], ways: Sequence[tuple[WalksFn, int, bool]], full: int
) -> tuple[dict[tuple[Rect, ...], frozenset[K]], int, bool]:
    """An unseen move of a map whose groups are one part each (no hidden sites, no
    traitor): each group's ways walked from its part's squares (``walks.parts(part,
    no_end, longer)`` of each way), each target's ways ORed, and the keys joined by
    :func:`keys_after_py`.

    Returns:
        The groups after the move, ``{((short, long, full),): keys}``; every square of
        them; and whether some target's squares came to nothing (a key lost).

    The C form checks every argument first (tuples throughout, the set types
    themselves, every way given), so it refuses some input this form would not reach.
    """
    made: list[tuple[int, int, frozenset[K]]] = []
    lost = False
    for part, ids, targets in groups:
        done: list[tuple[int, int]] = []
        for i in ids:
            if not 0 <= i < len(ways):
                raise IndexError(f"a group names way {i} of {len(ways)}")
            walks, no_end, longer = ways[i]
            got = walks.parts((part,), no_end, longer)
            done.append((got[0][0], got[0][1]) if got else (0, 0))
        lost |= ored_targets(done, targets, made)
    out: dict[tuple[Rect, ...], frozenset[K]] = {}
    every = 0
    for (short, long), keys in keys_after_py(made).items():
        out[((short, long, full),)] = keys
        every |= short | long
    return out, every, lost


class SplitFn(Protocol):
    """:func:`split_py` with its zones fixed (:data:`Splitter`)."""

    def __call__(
        self, parts: Sequence[Rect], squares: int, assignments: int, /
    ) -> tuple[Rect, ...]: ...


class PySplitter:
    """:func:`split_py` with ``union`` and ``ruled`` fixed: one fact's zones, applied to
    every group of a map (the C form loads the zones once for all of them)."""

    __slots__ = ("_ruled", "_union")

    def __init__(self, union: int, ruled: Sequence[tuple[int, int]]) -> None:
        self._union = union
        self._ruled = tuple(ruled)

    def __call__(
        self, parts: Sequence[Rect], squares: int, assignments: int, /
    ) -> tuple[Rect, ...]:
        return split_py(parts, squares, assignments, self._union, self._ruled)


def narrowed_py(
    groups: Mapping[tuple[Rect, ...], frozenset[K]], short_bits: int, long_bits: int
) -> tuple[dict[tuple[Rect, ...], frozenset[K]], int, bool]:
    """Every group's parts narrowed (:func:`narrow_py`) at once: a fact that only removes
    squares, for every key alike (a "Clear", the motion sensor's answer).

    Groups whose parts come out equal join (the union of their keys); a group whose
    parts come out empty, or that has no keys, is left out.

    Returns:
        The groups after, every square of them, and whether no group came out empty
        (every key kept).
    """
    out: dict[tuple[Rect, ...], frozenset[K]] = {}
    every = 0
    kept = True
    for parts, keys in groups.items():
        if not isinstance(keys, frozenset):
            raise TypeError("narrowed() takes {parts tuple: frozenset of keys}")
        got = narrow_py(parts, short_bits, long_bits)
        if not got:
            kept = False
            continue
        if not keys:
            continue
        every |= squares_py(got)
        _join_into(out, got, keys)
    return out, every, kept


def merged_py(
    pairs: Iterable[tuple[tuple[Rect, ...], frozenset[K], int]],
) -> tuple[dict[tuple[Rect, ...], frozenset[K]], int, bool]:
    """Groups of one part each, a mask for each: the objective check where the sites are
    public (a new move starts, so the short/long split merges). Each ``(parts, keys,
    bits)`` becomes the part ``((short | long) & bits, 0, assignments)``; groups whose
    parts come out equal join (the union of their keys); a group left empty, or without
    keys, is left out.

    Returns:
        The groups after, every square of them, and whether none came out empty (every
        key kept).
    """
    out: dict[tuple[Rect, ...], frozenset[K]] = {}
    every = 0
    kept = True
    for parts, keys, bits in pairs:
        if len(parts) != 1 or not isinstance(keys, frozenset):
            raise TypeError("merged() takes (parts of one part, frozenset of keys, bits) triples")
        ((short, long, a),) = parts
        squares = (short | long) & bits
        if not squares:
            kept = False
            continue
        if not keys:
            continue
        every |= squares
        _join_into(out, ((squares, 0, a),), keys)
    return out, every, kept


def grouped_py(
    pairs: Iterable[tuple[tuple[Rect, ...], frozenset[K]]],
    known: Mapping[tuple[Rect, ...], Any] | None = None,
) -> dict[tuple[Rect, ...], frozenset[K]]:
    """The groups of ``(parts, keys)`` pairs, in order: the keys of equal parts joined
    (``cur | keys``, the first's first; a pair whose keys are the very set there adds
    nothing).

    ``known`` (the map's old groups) changes nothing here. The C form takes the hash of
    a parts object that is one of its keys from it instead of hashing the parts again
    (dozens of 700- to 1,300-bit integers, whose hashes Python does not keep), and
    hashes other parts by Python's own formulas (``hash_of``). It is stricter: ``known``
    is given (``None`` for none), and each pair is a tuple of two.
    """
    out: dict[tuple[Rect, ...], frozenset[K]] = {}
    for parts, keys in pairs:
        _join_into(out, parts, keys)
    return out


def _join_into(
    out: dict[tuple[Rect, ...], frozenset[K]], parts: tuple[Rect, ...], keys: frozenset[K]
) -> None:
    """``out[parts] = keys``, or its union with the keys there (``cur | keys``; nothing
    when they are the very set): the group join of :func:`narrowed_py`,
    :func:`merged_py` and :func:`grouped_py` (the C forms' ``group_join``)."""
    cur = out.setdefault(parts, keys)
    if cur is not keys:
        out[parts] = cur | keys


def squares_py(parts: Sequence[Rect]) -> int:
    """The union of the parts' short and long squares."""
    out = 0
    for short, long, _ in parts:
        out |= short | long
    return out


class PyStepper:
    """One step on a bitboard: the OR over ``directions`` ``(offset, squares)`` of
    ``frontier & squares`` shifted by ``offset`` bits (left when positive), AND ``free``.

    Args:
        directions: per direction, the bit offset of a step and the squares a step that
            way may leave from.
        free: the squares a step may end on.
    """

    __slots__ = ("_free", "_neg", "_pos", "width")

    def __init__(self, directions: Sequence[tuple[int, int]], free: int) -> None:
        for off, squares in directions:
            if not off or squares < 0:
                raise ValueError(f"a step needs a non-zero offset and squares, not {off}")
        if free < 0:
            raise ValueError("the free squares must not be negative")
        self._pos = tuple((off, s) for off, s in directions if off > 0)
        self._neg = tuple((-off, s) for off, s in directions if off < 0)
        self._free = free
        #: The board's bits: its widest mask, in whole 64-bit words (as the C form).
        self.width = _words(max([free, *(s for _, s in directions)], key=int.bit_length))

    def __call__(self, frontier: int, /) -> int:
        nxt = 0
        for off, s in self._pos:
            nxt |= (frontier & s) << off
        for off, s in self._neg:
            nxt |= (frontier & s) >> off
        return nxt & self._free

    def walk(self, start: int, seen: int, short: int, total: int, /) -> list[int]:
        """[short, long, last layer] of a walk of up to ``total`` steps from ``start``
        through squares not in ``seen`` (revisits allowed): the squares after 0 to
        ``short`` steps, after ``short + 1`` to ``total``, and after exactly ``total``."""
        if not 0 <= short <= total:
            raise ValueError(f"walk() needs 0 <= short <= total, not {short} and {total}")
        layer = start & ~seen
        near = layer
        far = 0
        for k in range(1, total + 1):
            layer = self(layer) & ~seen
            if k <= short:
                near |= layer
            else:
                far |= layer
        return [near, far, layer]

    def walks(self, seen: int, short: int, total: int, longer: int, /) -> PyWalks:
        """Unseen walks through the squares not in ``seen``, kept by start
        (:class:`PyWalks`)."""
        return PyWalks(self, seen, short, total, longer)


class PyWalks:
    """Unseen walks of a :class:`PyStepper` from many starts through the squares not in
    ``seen``: the squares after 0 to ``short`` steps, and after ``short + 1`` to
    ``total`` (or to ``longer``, Adrenal Surge's 6). Each start's walk is kept: the
    parts of a possibility map's groups share their starts."""

    __slots__ = ("_kept", "_longer", "_seen", "_short", "_step", "_total", "_width")

    def __init__(self, step: PyStepper, seen: int, short: int, total: int, longer: int) -> None:
        if not 0 <= short <= total <= longer:
            raise ValueError(
                f"walks() needs 0 <= short <= total <= longer, not {short}, {total} and {longer}"
            )
        if seen < 0:
            raise ValueError("the seen squares must not be negative")
        self._step = step
        self._seen = seen
        self._short, self._total, self._longer = short, total, longer
        self._width = max(step.width, _words(seen))
        self._kept: dict[int, list[int]] = {}

    def parts(self, parts: Sequence[Rect], no_end: int, longer: bool, /) -> tuple[Rect, ...]:
        """For each ``(short, long, assignments)`` part, the squares not in ``no_end``
        that its walk from ``short | long`` reaches after 0 to ``short`` steps and after
        the rest (to ``longer`` steps with ``longer``), with the part's assignments;
        empty rectangles are left out."""
        if no_end < 0:
            raise ValueError("the squares not ended on must not be negative")
        out = []
        for short0, long0, a in parts:
            start = short0 | long0
            if start >> self._width:
                raise ValueError(f"a part's squares lie past the board's {self._width} bits")
            w = self._kept.get(start)
            if w is None:
                w = self._kept[start] = self._step.walk(start, self._seen, self._short, self._total)
            if longer:
                if len(w) == 3:
                    layer, far = w[2], w[1]
                    for _ in range(self._longer - self._total):
                        layer = self._step(layer) & ~self._seen
                        far |= layer
                    w.append(far)
                far = w[3]
            else:
                far = w[1]
            short = w[0] & ~no_end
            long = far & ~no_end
            if short or long:
                out.append((short, long, a))
        return tuple(out)


def _words(bits: int) -> int:
    """The bits of ``bits``' width rounded up to whole 64-bit words (at least one)."""
    return max(64, -(-bits.bit_length() // 64) * 64)


canon: Callable[[Iterable[Rect]], tuple[Rect, ...]] = canon_py
narrow: Callable[[Sequence[Rect], int, int], tuple[Rect, ...]] = narrow_py
squares: Callable[[Sequence[Rect]], int] = squares_py
Splitter: Callable[[int, Sequence[tuple[int, int]]], SplitFn] = PySplitter
played: Callable[
    [Sequence[Rect], Sequence[Way], Sequence[tuple[int, ...]]],
    tuple[tuple[tuple[Rect, ...], tuple[Rect, ...]], ...],
] = played_py
Stepper: Callable[[Sequence[tuple[int, int]], int], StepFn] = PyStepper
keys_after: Callable[
    [Iterable[tuple[int, int, frozenset[Any]]]], dict[tuple[int, int], frozenset[Any]]
] = keys_after_py
narrowed: Callable[
    [Mapping[tuple[Rect, ...], frozenset[Any]], int, int],
    tuple[dict[tuple[Rect, ...], frozenset[Any]], int, bool],
] = narrowed_py
merged: Callable[
    [Iterable[tuple[tuple[Rect, ...], frozenset[Any], int]]],
    tuple[dict[tuple[Rect, ...], frozenset[Any]], int, bool],
] = merged_py
ored: Callable[
    [Sequence[PlainGroup[Any]], Sequence[tuple[WalksFn, int, bool]], int],
    tuple[dict[tuple[Rect, ...], frozenset[Any]], int, bool],
] = ored_py
grouped: Callable[
    [Iterable[tuple[tuple[Rect, ...], frozenset[Any]]], Mapping[tuple[Rect, ...], Any] | None],
    dict[tuple[Rect, ...], frozenset[Any]],
] = grouped_py
NATIVE = False
if not os.environ.get("FOGOFWAR_PURE_PYTHON"):
    try:
        from fogofwar.core import _bitsets
    except ImportError:  # built without a C compiler: the Python forms serve
        pass
    else:
        canon = _bitsets.canon
        narrow = _bitsets.narrow
        squares = _bitsets.squares
        Splitter = _bitsets.Splitter
        played = _bitsets.played
        Stepper = _bitsets.Stepper
        keys_after = _bitsets.keys_after
        ored = _bitsets.ored
        merged = _bitsets.merged
        narrowed = _bitsets.narrowed
        grouped = _bitsets.grouped
        NATIVE = True
