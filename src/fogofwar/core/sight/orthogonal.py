"""Model 1 — orthogonal rays (Specter Ops, SO-L1, SO-L2, SO-L5).

:func:`orthogonal_visible`, :func:`orthogonal_sees`, :func:`orthogonal_table`,
:func:`orthogonal_runs`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from ..errors import RulesError
from ..grid import ROAD_EW, ROAD_NS, Square
from .common import BoolArray, Cell, IntArray, VisibilityTable, _bool_grid, _cell, _int_grid, _name

# ======================================================================== model 1
# Orthogonal rays (Specter Ops). A viewer sees along its row and column up to the first
# opaque square, which itself is not seen (SO-L1); its own square always (SO-L5) and never
# as a blocker of its own view (a hunter standing in smoke still sees out of its square);
# diagonals never. Figures do not block (SO-L4): the game passes only terrain and smoke.


def _prepare_opaque(opaque: Any, extra_opaque: Any | None) -> BoolArray:
    op = _bool_grid("opaque", opaque)
    if extra_opaque is not None:
        op = op | _bool_grid("extra_opaque", extra_opaque, op.shape)
    return op


def _prepare_roads(roads: Any | None, shape: tuple[int, int], road_rule: bool) -> IntArray | None:
    if not road_rule:
        return None
    if roads is None:
        raise RulesError("road_rule=True needs the roads array (SO-L2)")
    return _int_grid("roads", roads, shape)


def _ray_limits(op: BoolArray) -> tuple[IntArray, IntArray, IntArray, IntArray]:
    """For every square: the nearest opaque square strictly west, east, north and south.

    Returned as column/row indices (-1, or w / h, where there is none), so the squares a
    viewer at ``(r, c)`` sees along its row are the columns strictly between
    ``west[r, c]`` and ``east[r, c]``. The square itself never counts as its own blocker.
    """
    h, w = op.shape
    cols = np.arange(w, dtype=np.int64)
    rows = np.arange(h, dtype=np.int64)
    west = np.full((h, w), -1, dtype=np.int64)
    west[:, 1:] = np.maximum.accumulate(np.where(op, cols, -1), axis=1)[:, :-1]
    east = np.full((h, w), w, dtype=np.int64)
    east[:, :-1] = np.minimum.accumulate(np.where(op, cols, w)[:, ::-1], axis=1)[:, ::-1][:, 1:]
    north = np.full((h, w), -1, dtype=np.int64)
    north[1:, :] = np.maximum.accumulate(np.where(op, rows[:, None], -1), axis=0)[:-1, :]
    south = np.full((h, w), h, dtype=np.int64)
    south[:-1, :] = np.minimum.accumulate(np.where(op, rows[:, None], h)[::-1, :], axis=0)[::-1, :][
        1:, :
    ]
    return west, east, north, south


def _lane_neighbours(roads: IntArray, viewer: Cell) -> list[tuple[Cell, str]]:
    """The parallel-lane neighbours of a road viewer and the axis it looks along (SO-L2).

    On an east-west road the lanes are rows, so the neighbour is the square directly
    north or south that carries the same direction bit; the viewer looking east/west then
    sees along that lane too. Every such neighbour counts (a road wider than 2 or two
    roads side by side give two).
    """
    h, w = roads.shape
    r, c = viewer
    out: list[tuple[Cell, str]] = []
    if roads[r, c] & ROAD_EW:
        for nr in (r - 1, r + 1):
            if 0 <= nr < h and roads[nr, c] & ROAD_EW:
                out.append(((nr, c), "row"))
    if roads[r, c] & ROAD_NS:
        for nc in (c - 1, c + 1):
            if 0 <= nc < w and roads[r, nc] & ROAD_NS:
                out.append(((r, nc), "col"))
    return out


def orthogonal_visible(
    opaque: Any,
    viewer: Any,
    *,
    roads: Any | None = None,
    road_rule: bool = False,
    extra_opaque: Any | None = None,
) -> BoolArray:
    """The squares one viewer sees under the orthogonal-ray model, as an ``(h, w)`` mask.

    Args:
        opaque: bool ``[row, col]`` array of sight-blocking squares (buildings).
        viewer: the viewer's square ``(row, col)``.
        roads: uint8 ``[row, col]`` road bitmask (``ROAD_EW``, ``ROAD_NS``); needed only
            with ``road_rule``.
        road_rule: apply SO-L2 (a viewer on a road looking along it also sees the
            parallel lane).
        extra_opaque: more sight-blocking squares (smoke), same shape as ``opaque``.
    """
    out = np.zeros(_bool_grid("opaque", opaque).shape, dtype=np.bool_)
    runs = orthogonal_runs(
        opaque, viewer, roads=roads, road_rule=road_rule, extra_opaque=extra_opaque
    )
    for run in runs:
        if run.axis == "row":
            out[run.square[0], run.low : run.high + 1] = True
        else:
            out[run.low : run.high + 1, run.square[1]] = True
    return out


@dataclass(frozen=True, slots=True)
class Run:
    """A straight run of squares a viewer sees (SO-L1, SO-L2): along ``axis`` through
    ``square`` — the viewer's own, or a parallel lane's neighbour square — from index
    ``low`` to ``high`` inclusive (columns for a row, rows for a column). ``square`` is
    never its own blocker; any other opaque square inside would cut the run short."""

    square: Cell
    axis: Literal["row", "col"]
    low: int
    high: int
    lane: bool

    def cells(self) -> list[Cell]:
        """The run's squares ``(row, col)``, from ``low`` to ``high``."""
        r, c = self.square
        if self.axis == "row":
            return [(r, k) for k in range(self.low, self.high + 1)]
        return [(k, c) for k in range(self.low, self.high + 1)]


def orthogonal_runs(
    opaque: Any,
    viewer: Any,
    *,
    roads: Any | None = None,
    road_rule: bool = False,
    extra_opaque: Any | None = None,
) -> list[Run]:
    """The runs whose union is what ``viewer`` sees (:func:`orthogonal_visible`): its
    row and its column, and with ``road_rule`` each parallel lane's run. A view with
    more opaque squares (smoke) is these runs cut at the new squares, less the lanes
    whose neighbour square turned opaque — what lets a smoke's sight table be updated
    for the viewers it touches only.

    Args:
        opaque: bool ``[row, col]`` array of sight-blocking squares.
        viewer: the viewer's square ``(row, col)``.
        roads: uint8 ``[row, col]`` road bitmask; needed only with ``road_rule``.
        road_rule: apply SO-L2 (the parallel lanes' runs).
        extra_opaque: more sight-blocking squares (smoke), same shape as ``opaque``.
    """
    op = _prepare_opaque(opaque, extra_opaque)
    h, w = op.shape
    rd = _prepare_roads(roads, op.shape, road_rule)
    r, c = _cell("viewer", viewer, h, w)
    return _runs_at(r, c, lambda i, j: _row_col_limits(op, i, j), lambda i, j: op[i, j], rd)


_Limits = Callable[[int, int], tuple[int, int, int, int]]
"""The nearest opaque square west, east, north and south of a square (as
:func:`_row_col_limits`)."""


def _runs_at(
    r: int, c: int, limits: _Limits, dark: Callable[[int, int], Any], roads: IntArray | None
) -> list[Run]:
    """The runs of the viewer on ``(r, c)``: its row and column within ``limits``, and
    with ``roads`` each parallel lane's run whose neighbour square is not ``dark``."""
    west, east, north, south = limits(r, c)
    out = [
        Run((r, c), "row", west + 1, east - 1, False),
        Run((r, c), "col", north + 1, south - 1, False),
    ]
    if roads is not None:
        for (nr, nc), axis in _lane_neighbours(roads, (r, c)):
            if dark(nr, nc):
                continue
            lw, le, ln, ls = limits(nr, nc)
            if axis == "row":
                out.append(Run((nr, nc), "row", lw + 1, le - 1, True))
            else:
                out.append(Run((nr, nc), "col", ln + 1, ls - 1, True))
    return out


def orthogonal_runs_each(
    opaque: Any, *, roads: Any | None = None, road_rule: bool = False
) -> list[list[Run]]:
    """:func:`orthogonal_runs` of every square, in row-major order, from one pass over
    the board for the nearest opaque square each way (a whole table's runs at once: a
    square at a time costs a few numpy calls per square)."""
    op = _prepare_opaque(opaque, None)
    h, w = op.shape
    rd = _prepare_roads(roads, op.shape, road_rule)
    west, east, north, south = (a.tolist() for a in _ray_limits(op))
    opaque_rows: list[list[bool]] = op.tolist()

    def limits(i: int, j: int) -> tuple[int, int, int, int]:
        return west[i][j], east[i][j], north[i][j], south[i][j]

    def dark(i: int, j: int) -> bool:
        return opaque_rows[i][j]

    return [_runs_at(r, c, limits, dark, rd) for r in range(h) for c in range(w)]


def _row_col_limits(op: BoolArray, r: int, c: int) -> tuple[int, int, int, int]:
    h, w = op.shape
    left = np.flatnonzero(op[r, :c])
    right = np.flatnonzero(op[r, c + 1 :])
    up = np.flatnonzero(op[:r, c])
    down = np.flatnonzero(op[r + 1 :, c])
    return (
        int(left[-1]) if left.size else -1,
        c + 1 + int(right[0]) if right.size else w,
        int(up[-1]) if up.size else -1,
        r + 1 + int(down[0]) if down.size else h,
    )


@dataclass(frozen=True, slots=True)
class OrthogonalSight:
    """Whether one square sees another under the orthogonal model, and why.

    Attributes:
        sees: the answer.
        via: ``"own"`` (same square, SO-L5), ``"row"`` / ``"column"`` (SO-L1),
            ``"road-lane"`` (SO-L2), or ``None`` when not seen.
        blocker: the opaque square that stops the line, when one does (it may be the
            target itself: a blocking square is not seen).
        rule: the rule ID behind the answer.
        reason: one sentence for people.
    """

    sees: bool
    via: Literal["own", "row", "column", "road-lane"] | None
    blocker: Square | None
    rule: str
    reason: str

    def to_json(self) -> dict[str, Any]:
        return {
            "sees": self.sees,
            "via": self.via,
            "blocker": None if self.blocker is None else self.blocker.name,
            "rule": self.rule,
            "reason": self.reason,
        }


def _first_opaque(op: BoolArray, cells: Iterable[Cell]) -> Cell | None:
    for cell in cells:
        if op[cell]:
            return cell
    return None


def _between(a: Cell, b: Cell) -> list[Cell]:
    """Squares strictly after ``a`` up to and including ``b`` on a shared row/column."""
    (r0, c0), (r1, c1) = a, b
    if r0 == r1:
        step = 1 if c1 > c0 else -1
        return [(r0, c) for c in range(c0 + step, c1 + step, step)]
    step = 1 if r1 > r0 else -1
    return [(r, c0) for r in range(r0 + step, r1 + step, step)]


def orthogonal_sees(
    opaque: Any,
    viewer: Any,
    target: Any,
    *,
    roads: Any | None = None,
    road_rule: bool = False,
    extra_opaque: Any | None = None,
) -> OrthogonalSight:
    """Whether ``viewer`` sees ``target`` (orthogonal model), with the explanation.

    Same arguments as :func:`orthogonal_visible`, plus the target square.
    """
    op = _prepare_opaque(opaque, extra_opaque)
    h, w = op.shape
    rd = _prepare_roads(roads, op.shape, road_rule)
    v = _cell("viewer", viewer, h, w)
    t = _cell("target", target, h, w)
    tn = _name(t)
    if v == t:
        return OrthogonalSight(True, "own", None, "SO-L5", f"{tn} is the viewer's own square")
    blocked: Cell | None = None
    rule = "SO-L1"
    if v[0] == t[0] or v[1] == t[1]:
        via: Literal["row", "column"] = "row" if v[0] == t[0] else "column"
        blocked = _first_opaque(op, _between(v, t))
        if blocked is None:
            return OrthogonalSight(True, via, None, "SO-L1", f"clear {via} line to {tn}")
    if rd is not None:
        for (nr, nc), axis in _lane_neighbours(rd, v):
            on_lane = (axis == "row" and t[0] == nr) or (axis == "col" and t[1] == nc)
            if not on_lane:
                continue
            lane_block = (nr, nc) if op[nr, nc] else _first_opaque(op, _between((nr, nc), t))
            if lane_block is None:
                return OrthogonalSight(
                    True,
                    "road-lane",
                    None,
                    "SO-L2",
                    f"{tn} is on the parallel lane of the road, seen from "
                    f"{_name((nr, nc))} onwards",
                )
            if blocked is None:
                blocked, rule = lane_block, "SO-L2"
    if blocked is not None:
        bn = _name(blocked)
        what = f"{tn} is opaque" if blocked == t else f"{bn} blocks the line"
        return OrthogonalSight(False, None, Square(*blocked), rule, f"{what}; not seen")
    return OrthogonalSight(
        False, None, None, "SO-L1", f"{tn} is on no row or column line of the viewer"
    )


@dataclass(frozen=True, slots=True, eq=False)
class OrthogonalTable(VisibilityTable):
    """The orthogonal model's table; built by :func:`orthogonal_table`."""


def orthogonal_table(
    opaque: Any,
    *,
    roads: Any | None = None,
    road_rule: bool = False,
    extra_opaque: Any | None = None,
) -> OrthogonalTable:
    """All-pairs visibility for the orthogonal model, built with numpy (no Python loop
    over squares). Same options as :func:`orthogonal_visible`."""
    op = _prepare_opaque(opaque, extra_opaque)
    h, w = op.shape
    rd = _prepare_roads(roads, op.shape, road_rule)
    west, east, north, south = _ray_limits(op)
    xs = np.arange(w)
    ys = np.arange(h)
    # rowmask[r, c, x]: a viewer at (r, c) sees (r, x) along its row; same for columns.
    rowmask = (xs > west[..., None]) & (xs < east[..., None])
    colmask = (ys > north[..., None]) & (ys < south[..., None])
    vis = np.zeros((h, w, h, w), dtype=np.bool_)
    rr, cc = np.indices((h, w))
    vis[rr, cc, rr, :] = rowmask
    vis[rr, cc, :, cc] |= colmask
    if rd is not None:
        # SO-L2: the parallel lane's run is exactly what a viewer standing on the lane
        # neighbour would see along that row (or column), so reuse row/colmask there.
        ew = (rd & ROAD_EW) != 0
        ns = (rd & ROAD_NS) != 0
        if h > 1:
            r2, c2 = np.indices((h - 1, w))
            up = ew[1:, :] & ew[:-1, :] & ~op[:-1, :]  # viewer (r+1, c), lane row r
            vis[r2 + 1, c2, r2, :] |= rowmask[r2, c2] & up[..., None]
            down = ew[:-1, :] & ew[1:, :] & ~op[1:, :]  # viewer (r, c), lane row r+1
            vis[r2, c2, r2 + 1, :] |= rowmask[r2 + 1, c2] & down[..., None]
        if w > 1:
            r3, c3 = np.indices((h, w - 1))
            left = ns[:, 1:] & ns[:, :-1] & ~op[:, :-1]  # viewer (r, c+1), lane col c
            vis[r3, c3 + 1, :, c3] |= colmask[r3, c3] & left[..., None]
            right = ns[:, :-1] & ns[:, 1:] & ~op[:, 1:]  # viewer (r, c), lane col c+1
            vis[r3, c3, :, c3 + 1] |= colmask[r3, c3 + 1] & right[..., None]
    vis.setflags(write=False)
    return OrthogonalTable(vis)
