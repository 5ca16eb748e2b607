"""The step tables of a board (:class:`MoveGraph`) and the searches on them.

Speed
    The step tables are built once per (board, diagonal rule, door state) and cached on
    the board (:func:`move_graph`). For moves of up to 6 steps, :func:`reachable` keeps
    the unobstructed answer per start square and reuses it whenever the blockers change
    no step of it (the usual case when the models are not close); otherwise it runs a
    breadth-first search, on adjacency sets for up to 3 steps and on Python-integer
    bitboards of the whole board beyond. Measured on a 23x32 board on a shared 2-core
    VM: ``reachable(..., 4)`` takes about 2 us when the cached answer applies, 15 us on
    average with 4 randomly placed hunters, 40-50 us with 4 hunters within 2 squares.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Sequence
from typing import Any, Final, TypeAlias, TypeVar

import numpy as np
import numpy.typing as npt

from ..bitsets import StepFn, Stepper
from .board import Board, BoolArray
from .coords import _DIRS, Edge, Square
from .steps import DIAGONAL_RULES, DiagonalRule, DiagonalStep, _vector_rule

#: Squares given to the search functions: any collection of :class:`Square` (or
#: ``(row, col)`` pairs), or a bool array of shape ``(height, width)``.
SquareSet: TypeAlias = Collection[Square] | BoolArray


#: :meth:`MoveGraph.reachable` reuses cached unobstructed answers up to this many steps.
_LOCAL_MAX_STEPS: Final = 6
#: When it cannot, it searches locally up to this many steps and with bitboards beyond
#: (measured on a 23x32 board: local is faster up to 3 steps, bitboards from 4).
_LOCAL_SEARCH_STEPS: Final = 3
#: Unobstructed short-move results kept per :class:`MoveGraph` (cleared when full).
_BALL_CACHE_SIZE: Final = 8192
_SOURCE_MEMO_SIZE: Final = 64


_T = TypeVar("_T")
_K = TypeVar("_K")


def _kept(memo: dict[_K, _T], key: _K, make: Callable[[_K], _T]) -> _T:
    """``make(key)``, kept in ``memo`` (emptied when it holds
    :data:`_SOURCE_MEMO_SIZE` entries)."""
    found = memo.get(key)
    if found is None:
        if len(memo) >= _SOURCE_MEMO_SIZE:
            memo.clear()
        found = memo[key] = make(key)
    return found


def _stepper(
    shifts: tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]], free: int
) -> StepFn:
    """A :data:`Stepper` of ``(positive, negative)`` shifts, ending on ``free``."""
    pos, neg = shifts
    return Stepper((*pos, *((-off, s) for off, s in neg)), free)


def _shift(x: int, k: int) -> int:
    return x << k if k >= 0 else x >> -k


def _to_bits(mask: BoolArray) -> int:
    """A bool array as a Python int bitboard: bit ``r*width + c`` is ``mask[r, c]``."""
    packed = np.packbits(np.ascontiguousarray(mask, dtype=np.bool_).ravel(), bitorder="little")
    return int.from_bytes(packed.tobytes(), "little")


class MoveGraph:
    """The step tables of one board under one diagonal rule and one door state.

    Built by :func:`move_graph` (cached per board); the module-level functions
    (:func:`reachable`, :func:`shortest_path`, ...) use it. Use it directly in hot loops
    to skip the cache lookup, and use the ``*_bits`` methods to skip converting squares:
    a *bitboard* is a Python ``int`` whose bit ``row * width + col`` is a square.
    """

    __slots__ = (
        "_adj",
        "_all",
        "_alone",
        "_avoid_memo",
        "_balls",
        "_diag",
        "_monotone",
        "_nbytes",
        "_offsets",
        "_paired",
        "_passable",
        "_sensitive",
        "_shifts",
        "_source_memo",
        "_static",
        "_stepper_memo",
        "_steps",
        "board",
        "height",
        "squares_list",
        "width",
    )
    _shifts: tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]

    def __init__(
        self,
        board: Board,
        diagonal: str | DiagonalRule = "both",
        open_doors: Collection[Edge] | None = None,
    ) -> None:
        self.board = board
        h, w = self.height, self.width = board.height, board.width
        n = h * w
        self._nbytes = (n + 7) // 8
        self._all = (1 << n) - 1
        self._passable = _to_bits(board.passable)
        self.squares_list = tuple(Square(r, c) for r in range(h) for c in range(w))
        wh, wv = board.walls(open_doors)
        blocked = ~board.passable
        rows, cols = np.indices((h, w))
        if isinstance(diagonal, str):
            if diagonal not in DIAGONAL_RULES:
                raise ValueError(
                    f"unknown diagonal rule {diagonal!r}; use one of "
                    f"{', '.join(DIAGONAL_RULES)} or a callable"
                )
            rule_name: str | None = diagonal
            rule = DIAGONAL_RULES[diagonal]
        else:
            rule_name, rule = None, diagonal

        offsets: list[int] = []
        static: list[int] = []
        # Per direction, shape (4, n): whether the step is allowed when neither side
        # square is dynamically blocked, only side_a, only side_b, both.
        tables: list[npt.NDArray[np.bool_]] = []
        # Per diagonal direction: (direction index, offset to side_a, offset to side_b,
        # sources allowed when only side_a is dynamically blocked, only side_b, both).
        diag: list[tuple[int, int, int, int, int, int]] = []
        for d, (dr, dc) in enumerate(_DIRS):
            offsets.append(dr * w + dc)
            tr, tc = rows + dr, cols + dc
            inside = (tr >= 0) & (tr < h) & (tc >= 0) & (tc < w)
            trc, tcc = np.clip(tr, 0, h - 1), np.clip(tc, 0, w - 1)
            target_ok = inside & board.passable[trc, tcc]
            if dr == 0 or dc == 0:
                if dr:
                    edge = wh[rows + (1 if dr > 0 else 0), cols]
                else:
                    edge = wv[rows, cols + (1 if dc > 0 else 0)]
                ok = target_ok & ~edge
                static.append(_to_bits(ok))
                tables.append(np.broadcast_to(ok.ravel(), (4, n)))
                continue
            # Side squares (clipped where the step leaves the board; masked by target_ok).
            a_r, a_c = rows, tcc
            b_r, b_c = trc, cols
            a_blk = blocked[a_r, a_c]
            b_blk = blocked[b_r, b_c]
            hr = np.clip(rows + (1 if dr > 0 else 0), 0, h)
            vc = np.clip(cols + (1 if dc > 0 else 0), 0, w)
            a_wall = wv[rows, vc] | wh[hr, tcc]  # frm|side_a, side_a|to
            b_wall = wh[hr, cols] | wv[trc, vc]  # frm|side_b, side_b|to
            masks: list[int] = []
            table = np.zeros((4, n), dtype=np.bool_)
            for k, (dyn_a, dyn_b) in enumerate(
                ((False, False), (True, False), (False, True), (True, True))
            ):
                ab = a_blk | dyn_a
                bb = b_blk | dyn_b
                if rule_name is not None:
                    ok = _vector_rule(rule_name, ab, bb, a_wall, b_wall)
                else:
                    ok = np.zeros((h, w), dtype=np.bool_)
                    for r, c in zip(*np.nonzero(target_ok), strict=True):
                        step = DiagonalStep(
                            Square(int(r), int(c)),
                            Square(int(r) + dr, int(c) + dc),
                            Square(int(r), int(c) + dc),
                            Square(int(r) + dr, int(c)),
                            bool(ab[r, c]),
                            bool(bb[r, c]),
                            bool(a_wall[r, c]),
                            bool(b_wall[r, c]),
                        )
                        ok[r, c] = bool(rule(step))
                table[k] = (target_ok & ok).ravel()
                masks.append(_to_bits(target_ok & ok))
            tables.append(table)
            static.append(masks[0])
            diag.append((d, dc, dr * w, masks[1], masks[2], masks[3]))
        self._offsets = tuple(offsets)
        self._static = tuple(static)
        self._diag = tuple(diag)
        self._source_memo: dict[int, tuple[int, ...]] = {}
        self._stepper_memo: dict[int, StepFn] = {}
        self._avoid_memo: dict[tuple[object, int], StepFn] = {}
        self._build_lists(tables)

    #: Caches of step functions (native objects, where the kernels are built): left out
    #: of a pickle or a deep copy and made again as they are asked for.
    _MEMOS = ("_source_memo", "_stepper_memo", "_avoid_memo")

    def __getstate__(self) -> dict[str, object]:
        return {
            k: getattr(self, k) for k in self.__slots__ if k not in self._MEMOS and hasattr(self, k)
        }

    def __setstate__(self, state: dict[str, object]) -> None:
        for k, v in state.items():
            setattr(self, k, v)
        for k in self._MEMOS:
            setattr(self, k, {})

    def _build_lists(self, tables: Sequence[npt.NDArray[np.bool_]]) -> None:
        """Adjacency lists for the local search that :meth:`reachable` uses for short moves.

        ``_adj[i]``: the squares one step from square index ``i`` with nothing
        dynamically blocked. ``_steps[i]``: every possibly legal step from ``i`` as
        ``(target, side_a, side_b, allowed per case)`` (sides -1 for orthogonal steps).
        ``_sensitive[b]``: the squares some of whose steps change when ``b`` is blocked.
        ``_alone[b]``: the squares with a step that changes when ``b`` alone is blocked.
        ``_paired[b]``: ``(square, other side)`` for steps that change only when ``b`` and
        the other side square are both blocked (e.g. the "both" rule on open ground).
        """
        w = self.width
        n = self.height * w
        ok = [[t[k].tolist() for k in range(4)] for t in tables]
        adj: list[tuple[int, ...]] = []
        steps: list[tuple[tuple[int, int, int, tuple[bool, bool, bool, bool]], ...]] = []
        sensitive: dict[int, set[int]] = {}
        alone: dict[int, set[int]] = {}
        paired: dict[int, set[tuple[int, int]]] = {}
        for i in range(n):
            near: list[int] = []
            here: list[tuple[int, int, int, tuple[bool, bool, bool, bool]]] = []
            for d, (dr, dc) in enumerate(_DIRS):
                cases = (ok[d][0][i], ok[d][1][i], ok[d][2][i], ok[d][3][i])
                if not any(cases):
                    continue
                j = i + self._offsets[d]
                a = b = -1
                if dr and dc:
                    a, b = i + dc, i + dr * w
                    if cases[0] != cases[1] or cases[2] != cases[3]:
                        sensitive.setdefault(a, set()).add(i)
                    if cases[0] != cases[2] or cases[1] != cases[3]:
                        sensitive.setdefault(b, set()).add(i)
                    if cases[0] != cases[1]:
                        alone.setdefault(a, set()).add(i)
                    if cases[0] != cases[2]:
                        alone.setdefault(b, set()).add(i)
                    if cases[0] != cases[3]:
                        paired.setdefault(a, set()).add((i, b))
                        paired.setdefault(b, set()).add((i, a))
                if cases[0]:
                    near.append(j)
                here.append((j, a, b, cases))
            adj.append(tuple(near))
            steps.append(tuple(here))
        self._adj = tuple(frozenset(a) for a in adj)
        self._steps = tuple(steps)
        self._sensitive = {k: tuple(sorted(v)) for k, v in sensitive.items()}
        self._alone = {k: frozenset(v) for k, v in alone.items()}
        self._paired = {k: tuple(sorted(v)) for k, v in paired.items()}
        # Monotone: blocking a side square never allows a step that was not allowed.
        self._monotone = all(
            c[1] <= c[0] and c[2] <= c[0] and c[3] <= c[1] and c[3] <= c[2]
            for here in steps
            for _, _, _, c in here
        )
        self._balls: dict[tuple[int, int], tuple[dict[Square, int], set[int], set[int]]] = {}

    # -- conversions

    def bits(self, squares: SquareSet | Square | None) -> int:
        """A set of squares (or one square, or a bool array) as a bitboard.

        Raises:
            ValueError: a square off the board or an array of the wrong shape.
        """
        if squares is None:
            return 0
        if isinstance(squares, np.ndarray):
            if squares.shape != (self.height, self.width):
                raise ValueError(
                    f"expected a bool array of shape {(self.height, self.width)}, "
                    f"got {squares.shape}"
                )
            return _to_bits(squares)
        out = 0
        for i in self.indices(squares):
            out |= 1 << i
        return out

    def indices(self, squares: SquareSet | Square | None) -> set[int]:
        """A set of squares as square indices ``row * width + col``.

        Raises:
            ValueError: a square off the board or an array of the wrong shape.
        """
        if squares is None:
            return set()
        h, w = self.height, self.width
        if isinstance(squares, np.ndarray):
            if squares.shape != (h, w):
                raise ValueError(f"expected a bool array of shape {(h, w)}, got {squares.shape}")
            return set(np.flatnonzero(squares).tolist())
        items: Iterable[Any] = squares
        if isinstance(squares, tuple) and len(squares) == 2 and isinstance(squares[0], int):
            items = (squares,)  # one square, not a collection of two
        out: set[int] = set()
        for sq in items:
            r, c = sq
            if not (0 <= r < h and 0 <= c < w):
                raise ValueError(f"square {sq!r} is off the board")
            out.add(r * w + c)
        return out

    def squares(self, bits: int) -> list[Square]:
        """The squares of a bitboard, in row-major order."""
        if not bits:
            return []
        idx = self._indices(bits)
        sq = self.squares_list
        return [sq[i] for i in idx]

    def bit_indices(self, bits: int) -> list[int]:
        """The square indices ``row * width + col`` of a bitboard, ascending."""
        return self._indices(bits)

    def _indices(self, bits: int) -> list[int]:
        if bits.bit_count() <= 8:
            # Few bits: peeling them one by one beats the numpy round trip.
            out: list[int] = []
            while bits:
                low = bits & -bits
                out.append(low.bit_length() - 1)
                bits ^= low
            return out
        raw = np.frombuffer(bits.to_bytes(self._nbytes, "little"), dtype=np.uint8)
        found: list[int] = np.flatnonzero(np.unpackbits(raw, bitorder="little")).tolist()
        return found

    def _layer_matrix(self, layers: Sequence[int]) -> tuple[list[int], list[int]]:
        """(distances, square indices) of all bits of ``layers``, by layer then index."""
        nb = self._nbytes
        raw = np.frombuffer(b"".join(x.to_bytes(nb, "little") for x in layers), dtype=np.uint8)
        matrix = np.unpackbits(raw, bitorder="little").reshape(len(layers), nb * 8)
        dist, idx = np.nonzero(matrix)
        return dist.tolist(), idx.tolist()

    # -- the search

    def _sources(self, blocked: int) -> tuple[int, ...]:
        """Per direction: the squares from which a step that way is allowed (kept for the
        last few ``blocked`` sets: a legal list asks for the same one many times)."""
        if not blocked:
            return self._static
        return _kept(self._source_memo, blocked, self._sources_of)

    def _layer_stepper(self, blocked: int) -> StepFn:
        """:meth:`stepper` of ``blocked``, kept for the last few sets (as the sources:
        a route asks for the same blocked squares at every step of a move)."""
        return _kept(self._stepper_memo, blocked, self.stepper)

    def _sources_of(self, blocked: int) -> tuple[int, ...]:
        out = list(self._static)
        for d, off_a, off_b, m_a, m_b, m_ab in self._diag:
            # Bit i of ba: the side_a square of a step from i is blocked.
            ba = _shift(blocked, -off_a)
            bb = _shift(blocked, -off_b)
            s = out[d] & ~(ba | bb)
            if m_a:
                s |= m_a & ba & ~bb
            if m_b:
                s |= m_b & bb & ~ba
            if m_ab:
                s |= m_ab & ba & bb
            out[d] = s
        return tuple(out)

    def layers_bits(
        self, start: int, max_steps: int | None = None, *, blocked: int = 0, stop: int = 0
    ) -> list[int]:
        """Breadth-first layers: ``layers[k]`` is the bitboard of squares first reached in k
        steps (``layers[0] == start``).

        Args:
            start: bitboard of start squares (several = distance to the nearest).
            max_steps: at most this many steps; ``None`` = until nothing new is reached.
            blocked: bitboard of squares that cannot be entered (the starts are exempt).
            stop: end early once a layer meets this bitboard (0: never).
        """
        blocked &= ~start
        # One step of the breadth-first search is the board's stepper (the C kernel
        # where built): its sources and free squares are those of ``blocked``, so only
        # what was visited is left to mask. Range and route questions ask for these
        # layers at every step of an automated move.
        step = self._layer_stepper(blocked)
        visited = start
        frontier = start
        layers = [start]
        steps = 0 if max_steps is None else max_steps
        while frontier and (max_steps is None or steps > 0):
            if stop and frontier & stop:
                break
            nxt = step(frontier) & ~visited
            if not nxt:
                break
            visited |= nxt
            layers.append(nxt)
            frontier = nxt
            steps -= 1
        return layers

    def step_bits(self, frontier: int, *, blocked: int = 0) -> int:
        """Bitboard of the squares exactly one legal step from any square of ``frontier``.

        Unlike :meth:`layers_bits` nothing is marked visited: applying it ``k`` times
        gives the squares where a *walk* of exactly ``k`` steps can be (revisits
        allowed), which is what a hidden mover's possible squares need. The stepper of
        ``blocked`` is kept for the last few sets (a legal list asks again with the same
        models in the way).

        Args:
            frontier: bitboard of the squares stepped from.
            blocked: bitboard of squares that cannot be entered; they also count for the
                diagonal rule, as in :meth:`layers_bits`.
        """
        return self._layer_stepper(blocked)(frontier)

    def _split(
        self, sources: tuple[int, ...]
    ) -> tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]:
        pos = tuple((off, s) for off, s in zip(self._offsets, sources, strict=True) if off > 0)
        neg = tuple((-off, s) for off, s in zip(self._offsets, sources, strict=True) if off < 0)
        return pos, neg

    def stepper(self, blocked: int = 0, *, avoid: int = 0) -> StepFn:
        """:meth:`step_bits` with ``blocked`` fixed, as a function of the frontier.

        The per-direction masks are worked out once here, not on every step. The
        result also walks (:meth:`StepFn.walk`: the layers of an unseen walk in one
        call); it is the C kernel where built (:mod:`fogofwar.core.bitsets`).

        Args:
            blocked: squares that cannot be entered and count for the diagonal rule.
            avoid: squares that cannot be entered but do *not* count for the diagonal
                rule (figures, where only terrain shuts a diagonal).
        """
        if not blocked:
            # Kept for the last few sets avoided: every move of a hidden mover's map
            # asks for one with the figures on foot and one without, and making a
            # stepper (its masks read into words) takes 1.1 µs, a kept one 0.2 µs. The
            # key holds the Stepper class: the kernels' tests swap it for the Python
            # form and compare the two.
            return _kept(self._avoid_memo, (Stepper, avoid), self._avoiding)
        return _stepper(self._split(self._sources(blocked)), self._all & ~blocked & ~avoid)

    def _avoiding(self, key: tuple[object, int]) -> StepFn:
        """:meth:`stepper` without blocked squares, avoiding ``key[1]`` (made anew)."""
        # The board's own shifts, made once (the hot path of a hidden mover's steps).
        try:
            shifts = self._shifts
        except AttributeError:
            shifts = self._shifts = self._split(self._static)
        return _stepper(shifts, self._all & ~key[1])

    def reach_bits(
        self, start: int, max_steps: int, *, blocked: int = 0, pass_through: int = 0
    ) -> int:
        """Bitboard of the squares where a move of at most ``max_steps`` can end."""
        visited = 0
        for layer in self.layers_bits(start, max_steps, blocked=blocked):
            visited |= layer
        return visited & ~pass_through

    def _local_layers(self, starts: set[int], max_steps: int, blocked: set[int]) -> list[set[int]]:
        """Breadth-first layers of square indices, on adjacency sets.

        For short moves this touches only the squares near the start, so it beats the
        whole-board bitboards; each layer is one C-level set union.
        """
        adj = self._adj
        sensitive: set[int] = set()
        if blocked:
            table = self._sensitive
            for b in blocked:
                sensitive.update(table.get(b, ()))
        visited = starts | blocked
        frontier = set(starts)
        layers = [frontier]
        steps_of = self._steps
        for _ in range(max_steps):
            if sensitive and not sensitive.isdisjoint(frontier):
                # Squares whose diagonal steps depend on the blockers: filter those steps.
                special = frontier & sensitive
                nxt = set().union(*map(adj.__getitem__, frontier - special))
                for i in special:
                    nxt.update(
                        [
                            j
                            for j, a, b, cases in steps_of[i]
                            if cases[(a in blocked) + 2 * (b in blocked)]
                        ]
                    )
            else:
                nxt = set().union(*map(adj.__getitem__, frontier))
            nxt -= visited
            if not nxt:
                break
            visited |= nxt
            layers.append(nxt)
            frontier = nxt
        return layers

    def _as_dict(self, layers: Sequence[set[int]], drop: set[int]) -> dict[Square, int]:
        """``{square: steps}`` from index layers, by steps then row-major, less ``drop``."""
        get = self.squares_list.__getitem__
        out: dict[Square, int] = {}
        for k, layer in enumerate(layers):
            out.update(dict.fromkeys(map(get, sorted(layer - drop if drop else layer)), k))
        return out

    def _ball(self, s: int, max_steps: int) -> tuple[dict[Square, int], set[int], set[int]]:
        """From square index ``s`` with nothing blocked (cached): the result, the squares
        first reached by the last step, and those reached before it (whose steps are
        taken).
        """
        key = (s, max_steps)
        hit = self._balls.get(key)
        if hit is None:
            layers = self._local_layers({s}, max_steps, set())
            result = self._as_dict(layers, set())
            inner = set().union(*layers[:max_steps])
            last = layers[max_steps] if len(layers) > max_steps else set()
            if len(self._balls) >= _BALL_CACHE_SIZE:
                self._balls.clear()
            hit = self._balls[key] = (result, last, inner)
        return hit

    def _unaffected(self, blocked: set[int], inner: set[int]) -> bool:
        """Whether ``blocked`` leaves every distance of the unobstructed search unchanged.

        True when no blocked square is reached before the last step and no step taken
        from ``inner`` changes. Holds only for monotone rules (blocking never adds steps);
        blocked squares on the last layer must still be dropped from the result.
        """
        alone, paired = self._alone, self._paired
        for b in blocked:
            if b in inner:
                return False
            if b in alone and not inner.isdisjoint(alone[b]):
                return False
            for i, other in paired.get(b, ()):
                if other in blocked and i in inner:
                    return False
        return True

    def reachable(
        self,
        start: Square | SquareSet,
        max_steps: int | None,
        *,
        blocked: SquareSet | None = None,
        pass_through: SquareSet | None = None,
        can_end: SquareSet | None = None,
    ) -> dict[Square, int]:
        """See :func:`reachable`."""
        if max_steps is not None and max_steps < 0:
            raise ValueError(f"max_steps must be >= 0, got {max_steps}")
        if can_end is not None:
            allowed = {self.squares_list[i] for i in self.indices(can_end)}
            found = self.reachable(start, max_steps, blocked=blocked, pass_through=pass_through)
            return {square: k for square, k in found.items() if square in allowed}
        if max_steps is not None and max_steps <= _LOCAL_MAX_STEPS:
            starts = self.indices(start)
            stop = self.indices(blocked) - starts if blocked is not None else set()
            sq = self.squares_list
            if len(starts) == 1 and self._monotone:
                # Blocking only removes steps (a monotone rule), so blockers that change
                # no step taken in the unobstructed search leave its distances as they
                # are: reuse it, less the blocked squares it reached on the last step.
                result, last, inner = self._ball(next(iter(starts)), max_steps)
                if not stop or self._unaffected(stop, inner):
                    out = dict(result)
                    drop = stop & last
                    if pass_through is not None:
                        drop |= self.indices(pass_through)
                    for i in drop:
                        out.pop(sq[i], None)
                    return out
            if max_steps <= _LOCAL_SEARCH_STEPS:
                layers = self._local_layers(starts, max_steps, stop)
                return self._as_dict(layers, self.indices(pass_through))
        bit_layers = self.layers_bits(self.bits(start), max_steps, blocked=self.bits(blocked))
        if pass_through is not None:
            keep = ~self.bits(pass_through)
            bit_layers = [x & keep for x in bit_layers]
        dist, idx = self._layer_matrix(bit_layers)
        return dict(zip(map(self.squares_list.__getitem__, idx), dist, strict=True))

    def distance_map(
        self,
        start: Square | SquareSet,
        max_steps: int | None = None,
        *,
        blocked: SquareSet | None = None,
        pass_through: SquareSet | None = None,
    ) -> npt.NDArray[np.int16]:
        """See :func:`distance_map`."""
        if max_steps is not None and max_steps < 0:
            raise ValueError(f"max_steps must be >= 0, got {max_steps}")
        layers = self.layers_bits(self.bits(start), max_steps, blocked=self.bits(blocked))
        if pass_through is not None:
            keep = ~self.bits(pass_through)
            layers = [x & keep for x in layers]
        out = np.full(self.height * self.width, -1, dtype=np.int16)
        dist, idx = self._layer_matrix(layers)
        out[idx] = dist
        return out.reshape(self.height, self.width)

    def distance_list(self, start: int, *, unreachable: int) -> list[int]:
        """Steps from every square (row-major index) to the nearest square of the
        bitboard ``start``, ``unreachable`` where no walk leads: :meth:`distance_map` on
        bitboards, as a plain list (a bot's many lookups are faster on one)."""
        layers = self.layers_bits(start)
        nb = self._nbytes
        raw = np.frombuffer(b"".join(x.to_bytes(nb, "little") for x in layers), dtype=np.uint8)
        matrix = np.unpackbits(raw, bitorder="little").reshape(len(layers), nb * 8)
        dist, idx = np.nonzero(matrix)
        out = np.full(nb * 8, unreachable, dtype=np.int64)
        out[idx] = dist
        found: list[int] = out[: self.height * self.width].tolist()
        return found

    def neighbours(self, square: Square, *, blocked: SquareSet | None = None) -> list[Square]:
        """See :func:`neighbours`."""
        w = self.width
        i = self.bits(square).bit_length() - 1
        blk = self.bits(blocked) & ~(1 << i)
        sources = self._sources(blk)
        out: list[Square] = []
        for off, s in zip(self._offsets, sources, strict=True):
            if (s >> i) & 1 and not (blk >> (i + off)) & 1:
                out.append(Square(*divmod(i + off, w)))
        return out

    def can_step(self, a: Square, b: Square, *, blocked: SquareSet | int | None = None) -> bool:
        """See :func:`can_step`; ``blocked`` may also be a bitboard."""
        dr, dc = b[0] - a[0], b[1] - a[1]
        if (dr, dc) == (0, 0) or abs(dr) > 1 or abs(dc) > 1:
            return False
        if not self.board.in_bounds(b):
            return False
        if not self.board.in_bounds(a):
            raise ValueError(f"square {a!r} is off the board")
        i = a[0] * self.width + a[1]
        if isinstance(blocked, int) and not isinstance(blocked, bool):
            blk = blocked & ~(1 << i)
        else:
            blk = self.bits(blocked) & ~(1 << i)  # type: ignore[arg-type]
        d = _DIRS.index((dr, dc))
        j = i + self._offsets[d]
        return bool((self._sources(blk)[d] >> i) & 1) and not (blk >> j) & 1

    def shortest_path(
        self,
        start: Square,
        goal: Square,
        *,
        blocked: SquareSet | None = None,
    ) -> list[Square] | None:
        """See :func:`shortest_path`."""
        w = self.width
        s = self.bits(start).bit_length() - 1
        g = self.bits(goal).bit_length() - 1
        if s == g:
            return [Square(*start)]
        start_bit, goal_bit = 1 << s, 1 << g
        blk = self.bits(blocked) & ~start_bit
        if blk & goal_bit:
            return None
        sources = self._sources(blk)
        # Backward breadth-first search from the goal: back[k] = squares k steps from it.
        enter = self._passable & ~blk
        pred = [(off, src) for off, src in zip(self._offsets, sources, strict=True) if src]
        back = [goal_bit]
        seen = goal_bit
        frontier = goal_bit
        while not frontier & start_bit:
            nxt = 0
            for off, src in pred:
                nxt |= _shift(frontier, -off) & src
            nxt &= (enter | start_bit) & ~seen
            if not nxt:
                return None
            seen |= nxt
            back.append(nxt)
            frontier = nxt
        # Walk forward, taking at each step the first direction (N, NE, E, ...) that
        # stays on a shortest path: the documented tie-break.
        path = [Square(*start)]
        cur = s
        for k in range(len(back) - 2, -1, -1):
            layer = back[k]
            for off, src in zip(self._offsets, sources, strict=True):
                nb = cur + off
                if (src >> cur) & 1 and (layer >> nb) & 1:
                    cur = nb
                    break
            path.append(Square(*divmod(cur, w)))
        return path

    def distance(
        self, start: Square, goal: Square, *, blocked: SquareSet | None = None
    ) -> int | None:
        """See :func:`distance`."""
        goal_bit = self.bits(goal)
        layers = self.layers_bits(self.bits(start), None, blocked=self.bits(blocked), stop=goal_bit)
        if layers[-1] & goal_bit:
            return len(layers) - 1
        return None
