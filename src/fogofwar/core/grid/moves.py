"""Steps, reachability, paths and distances on a board: the functions most callers use.

Movement
    One step goes to one of the 8 neighbouring squares. An orthogonal step is blocked
    by a wall or closed door on the shared edge and by an impassable target square. A
    diagonal step also consults a *diagonal rule* about the two squares that share the
    crossed corner (see :class:`DiagonalStep`): ``"free"``, ``"both"`` (Specter Ops
    SO-A2), ``"either"`` (Zero Dark FR-M4), ``"none"`` or any callable. Models are
    passed per call as ``blocked`` squares (cannot be entered) and ``pass_through``
    squares (may be crossed, not stopped on).

Each function looks up the board's cached :class:`~fogofwar.core.grid.movegraph.MoveGraph`
for its diagonal rule and door state (:func:`move_graph`) and asks it.
"""

from __future__ import annotations

from collections.abc import Collection

import numpy as np
import numpy.typing as npt

from .board import Board
from .coords import Edge, Square
from .movegraph import MoveGraph, SquareSet
from .steps import DiagonalRule


def move_graph(
    board: Board,
    *,
    diagonal: str | DiagonalRule = "both",
    open_doors: Collection[Edge] | None = None,
) -> MoveGraph:
    """The (cached) :class:`MoveGraph` of ``board`` for a diagonal rule and door state.

    The cache lives on the board and keeps the 64 most recent tables; a callable rule is
    cached by identity, so pass the same function object each time.
    """
    if open_doors is None:
        key: tuple[object, ...] = ("moves", diagonal, None)
    else:
        state = board.door_state(open_doors)
        key = ("moves", diagonal, frozenset(e for e, o in state.items() if not o))
    graph = board._cache.get(key)
    if graph is None:
        graph = MoveGraph(board, diagonal, open_doors)
        board._remember(key, graph)
    return graph


def _graph(
    board: Board, diagonal: str | DiagonalRule, open_doors: Collection[Edge] | None
) -> MoveGraph:
    # Fast path for the common call: initial doors, a hashable rule already cached.
    if open_doors is None:
        graph = board._cache.get(("moves", diagonal, None))
        if graph is not None:
            return graph  # type: ignore[no-any-return]
    return move_graph(board, diagonal=diagonal, open_doors=open_doors)


def neighbours(
    board: Board,
    square: Square,
    *,
    diagonal: str | DiagonalRule = "both",
    blocked: SquareSet | None = None,
    open_doors: Collection[Edge] | None = None,
) -> list[Square]:
    """The squares one legal step from ``square``, clockwise from north (N, NE, .., NW).

    Args:
        board: the board.
        square: where the mover stands (it never blocks itself).
        diagonal: a name in :data:`DIAGONAL_RULES` or a :data:`DiagonalRule`.
        blocked: squares that cannot be entered (e.g. enemy models); they also count
            as blocked side squares for the diagonal rule.
        open_doors: doors open now; ``None`` = the board's initial door state.
    """
    return _graph(board, diagonal, open_doors).neighbours(square, blocked=blocked)


def can_step(
    board: Board,
    a: Square,
    b: Square,
    *,
    diagonal: str | DiagonalRule = "both",
    blocked: SquareSet | None = None,
    open_doors: Collection[Edge] | None = None,
) -> bool:
    """Whether one step from ``a`` to ``b`` is legal (same arguments as :func:`neighbours`)."""
    return _graph(board, diagonal, open_doors).can_step(a, b, blocked=blocked)


def reachable(
    board: Board,
    start: Square | SquareSet,
    max_steps: int | None,
    *,
    diagonal: str | DiagonalRule = "both",
    blocked: SquareSet | None = None,
    pass_through: SquareSet | None = None,
    can_end: SquareSet | None = None,
    open_doors: Collection[Edge] | None = None,
) -> dict[Square, int]:
    """The squares where a move of at most ``max_steps`` steps can end, with step counts.

    Every step costs 1. The start square is included with 0 steps (a model may stay).

    Args:
        board: the board.
        start: the mover's square, or several (the count is then from the nearest).
            Start squares never block, even if also listed in ``blocked``.
        max_steps: the most steps; ``None`` = no limit.
        diagonal: a name in :data:`DIAGONAL_RULES` or a :data:`DiagonalRule`.
        blocked: squares that cannot be entered or crossed (enemy models, and for
            SO-A1 the hunters). They are blocked side squares for the diagonal rule.
        pass_through: squares that may be crossed but not ended on (FR-M2 friends,
            SO-A3 the vehicle): reached as usual, but left out of the result. They
            do not count as blocked for the diagonal rule. ``blocked`` wins if a square
            is in both.
        can_end: if given, only these squares may be ended on (a filter on the result:
            the search itself may cross any square not blocked).
        open_doors: the doors open now; ``None`` = the board's initial door state.

    Returns:
        ``{square: steps}``, ordered by steps, then row-major.
    """
    return _graph(board, diagonal, open_doors).reachable(
        start, max_steps, blocked=blocked, pass_through=pass_through, can_end=can_end
    )


def distance_map(
    board: Board,
    start: Square | SquareSet,
    max_steps: int | None = None,
    *,
    diagonal: str | DiagonalRule = "both",
    blocked: SquareSet | None = None,
    pass_through: SquareSet | None = None,
    open_doors: Collection[Edge] | None = None,
) -> npt.NDArray[np.int16]:
    """:func:`reachable` as an int16 array ``(height, width)``: steps, or -1 where a move
    cannot end (unreachable, beyond ``max_steps``, blocked or pass-through)."""
    return _graph(board, diagonal, open_doors).distance_map(
        start, max_steps, blocked=blocked, pass_through=pass_through
    )


def shortest_path(
    board: Board,
    start: Square,
    goal: Square,
    *,
    diagonal: str | DiagonalRule = "both",
    blocked: SquareSet | None = None,
    open_doors: Collection[Edge] | None = None,
) -> list[Square] | None:
    """A shortest path from ``start`` to ``goal``, both included; ``None`` if there is none.

    All steps cost 1 (breadth-first search). The start never blocks; a goal in
    ``blocked`` is unreachable (remove it from ``blocked`` to path *to* a model).

    Ties are broken deterministically: at each square the path takes the first
    direction, in the order N, NE, E, SE, S, SW, W, NW, that still lies on a shortest
    path. So the path is the lexicographically smallest sequence of directions.
    """
    return _graph(board, diagonal, open_doors).shortest_path(start, goal, blocked=blocked)


def distance(
    board: Board,
    start: Square,
    goal: Square,
    *,
    diagonal: str | DiagonalRule = "both",
    blocked: SquareSet | None = None,
    open_doors: Collection[Edge] | None = None,
) -> int | None:
    """The number of steps of a shortest path (``len(shortest_path(...)) - 1``), or ``None``.

    With ``diagonal="either"`` and no ``blocked`` this is Zero Dark's range (FR-R1):
    adjacent squares are at range 1.
    """
    return _graph(board, diagonal, open_doors).distance(start, goal, blocked=blocked)
