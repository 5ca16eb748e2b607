"""Line-of-sight models over a square grid, and precomputed visibility tables.

Two models live here; both are game-agnostic array functions (python-tcod style: the
geometry is a function of numpy arrays, options are keyword-only) with thin wrappers
that take a :class:`~fogofwar.core.grid.Board`.

Axis order and coordinates
    Every array is indexed ``[row, col]``; row 0 is the top of the board, so "north" is
    smaller rows. A square is ``(row, col)`` (a ``grid.Square`` works: it is such a
    tuple). Walls use the board's layout: ``walls_h[r, c]`` is the wall on the *top*
    edge of square ``(r, c)`` (shape ``(h + 1, w)``), ``walls_v[r, c]`` the wall on its
    *left* edge (shape ``(h, w + 1)``).

    The corner-line model works in **doubled coordinates** ``(x, y)`` so that every
    point it needs is an integer and no decision uses floating point: square
    ``(r, c)`` spans ``x`` in ``[2c, 2c + 2]`` and ``y`` in ``[2r, 2r + 2]``, its centre
    is ``(2c + 1, 2r + 1)`` and its corners have even coordinates. A *lattice point*
    ``(R, C)`` (a square corner) is the point ``(2C, 2R)``: the north-west corner of
    square ``(R, C)``.

Model 1 — orthogonal rays (Specter Ops, SO-L1, SO-L2, SO-L5)
    :func:`orthogonal_visible`, :func:`orthogonal_sees`, :func:`orthogonal_table`.

Model 2 — corner lines (Zero Dark FEAR, FR-L1..FR-L5, FR-S2..FR-S6, FR-C1)
    :func:`corner_report`, :func:`corner_sees`, :func:`corner_table`,
    :func:`line_obstructions`.

The geometry rulings are documented in ``docs/sight.md``; the comments below say why
each piece is the way it is.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal, Protocol, TypeAlias

import numpy as np
import numpy.typing as npt

from .errors import RulesError
from .grid import ROAD_EW, ROAD_NS, Edge, Square

__all__ = [
    "STATUS_CLEAR",
    "STATUS_ENTIRELY_OBSCURED",
    "STATUS_OBSCURED",
    "CornerLine",
    "CornerTable",
    "Obstruction",
    "OrthogonalSight",
    "OrthogonalTable",
    "SightBoard",
    "SightReport",
    "VisibilityTable",
    "board_corner_report",
    "board_corner_table",
    "board_orthogonal_table",
    "board_orthogonal_visible",
    "corner_name",
    "corner_report",
    "corner_sees",
    "corner_table",
    "line_obstructions",
    "orthogonal_sees",
    "orthogonal_table",
    "orthogonal_visible",
]

BoolArray: TypeAlias = npt.NDArray[np.bool_]
IntArray: TypeAlias = npt.NDArray[np.int64]
Cell: TypeAlias = tuple[int, int]
"""A square ``(row, col)``, or a lattice point ``(R, C)`` where the text says so."""
XY: TypeAlias = tuple[int, int]
"""A point in doubled coordinates ``(x, y)``."""
EdgeRef: TypeAlias = tuple[str, int, int]
"""An edge as ``(kind, row, col)``: ``"h"`` = top edge of ``(row, col)``, ``"v"`` = left."""

Facing: TypeAlias = Literal["NE", "SE", "SW", "NW"]
Origin: TypeAlias = Literal["centre", "any_corner"]
ObscureRule: TypeAlias = Literal["bogey", "character"]
ObstructionKind: TypeAlias = Literal["square", "wall", "wall-along", "seam", "pinch", "wall-point"]

STATUS_CLEAR: Final = "clear"
STATUS_OBSCURED: Final = "obscured"
STATUS_ENTIRELY_OBSCURED: Final = "entirely obscured"

_FACINGS: Final = ("NE", "SE", "SW", "NW")
_ORIGINS: Final = ("centre", "any_corner")
_OBSCURE_RULES: Final = ("bogey", "character")


# ----------------------------------------------------------------------------- names


def _name(cell: Cell) -> str:
    return Square(*cell).name


def corner_name(point: Cell, height: int, width: int) -> str:
    """Name a lattice point ``(R, C)`` as a corner of an on-board square: ``"K17 nw"``.

    The point is named from the square south-east of it when there is one (its NW
    corner), else from the nearest square that has it. The style follows
    :attr:`grid.Edge.name` (``"K17 n"``).
    """
    r, c = point
    if r < height and c < width:
        return f"{_name((r, c))} nw"
    if r < height:
        return f"{_name((r, c - 1))} ne"
    if c < width:
        return f"{_name((r - 1, c))} sw"
    return f"{_name((r - 1, c - 1))} se"


# ----------------------------------------------------------------------- validation


def _bool_grid(name: str, value: Any, shape: tuple[int, int] | None = None) -> BoolArray:
    arr = np.asarray(value)
    if arr.ndim != 2 or arr.shape[0] == 0 or arr.shape[1] == 0:
        raise RulesError(f"{name} must be a non-empty 2-D [row, col] array, got shape {arr.shape}")
    if shape is not None and arr.shape != shape:
        raise RulesError(f"{name} must have shape {shape}, got {arr.shape}")
    return np.asarray(arr, dtype=np.bool_)


def _int_grid(name: str, value: Any, shape: tuple[int, int] | None = None) -> IntArray:
    arr = np.asarray(value)
    if arr.ndim != 2 or arr.shape[0] == 0 or arr.shape[1] == 0:
        raise RulesError(f"{name} must be a non-empty 2-D [row, col] array, got shape {arr.shape}")
    if shape is not None and arr.shape != shape:
        raise RulesError(f"{name} must have shape {shape}, got {arr.shape}")
    if arr.dtype == np.bool_ or not np.issubdtype(arr.dtype, np.integer):
        raise RulesError(f"{name} must hold integers, got dtype {arr.dtype}")
    out = np.asarray(arr, dtype=np.int64)
    if (out < 0).any():
        raise RulesError(f"{name} must not hold negative values")
    return out


def _cell(name: str, value: Any, height: int, width: int) -> Square:
    try:
        row, col = value
    except (TypeError, ValueError):
        raise RulesError(f"{name} must be a (row, col) square, got {value!r}") from None
    if isinstance(row, bool) or isinstance(col, bool):
        raise RulesError(f"{name} must be a (row, col) square of ints, got {value!r}")
    if not isinstance(row, int | np.integer) or not isinstance(col, int | np.integer):
        raise RulesError(f"{name} must be a (row, col) square of ints, got {value!r}")
    r, c = int(row), int(col)
    if not (0 <= r < height and 0 <= c < width):
        raise RulesError(f"{name} {value!r} is off the {height}x{width} board")
    return Square(r, c)


def _cyl_value(name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < 1:
        raise RulesError(f"{name} must be a positive integer Cyl, got {value!r}")
    return int(value)


def _footprint(name: str, value: Any, height: int, width: int) -> tuple[Square, ...]:
    """One square, or the four squares of a 2x2 block (FR-C1), sorted row-major."""
    if (
        isinstance(value, tuple)
        and len(value) == 2
        and all(isinstance(v, int | np.integer) and not isinstance(v, bool) for v in value)
    ):
        return (_cell(name, value, height, width),)
    try:
        items = list(value)
    except TypeError:
        raise RulesError(f"{name} must be a square or a 2x2 block of squares") from None
    cells = sorted({_cell(name, v, height, width) for v in items})
    if len(cells) == 1:
        return (cells[0],)
    if len(cells) == 4:
        r0, c0 = cells[0]
        if cells == [(r0, c0), (r0, c0 + 1), (r0 + 1, c0), (r0 + 1, c0 + 1)]:
            return tuple(cells)
    raise RulesError(f"{name} must be one square or four squares forming a 2x2 block (FR-C1)")


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
    op = _prepare_opaque(opaque, extra_opaque)
    h, w = op.shape
    rd = _prepare_roads(roads, op.shape, road_rule)
    r, c = _cell("viewer", viewer, h, w)
    out = np.zeros((h, w), dtype=np.bool_)
    west, east, north, south = _row_col_limits(op, r, c)
    out[r, west + 1 : east] = True
    out[north + 1 : south, c] = True
    if rd is not None:
        for (nr, nc), axis in _lane_neighbours(rd, (r, c)):
            if op[nr, nc]:
                continue
            lw, le, ln, ls = _row_col_limits(op, nr, nc)
            if axis == "row":
                out[nr, lw + 1 : le] = True
            else:
                out[ln + 1 : ls, nc] = True
    return out


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
class VisibilityTable:
    """Every viewer's visible squares at once: ``visible[vr, vc, tr, tc]`` (read-only)."""

    visible: BoolArray

    @property
    def shape(self) -> tuple[int, int]:
        """The board's ``(height, width)``."""
        return (int(self.visible.shape[0]), int(self.visible.shape[1]))

    def mask(self, viewer: Any) -> BoolArray:
        """The ``(h, w)`` mask of squares that ``viewer`` sees."""
        r, c = _cell("viewer", viewer, *self.shape)
        out: BoolArray = self.visible[r, c]
        return out

    def seen_by(self, target: Any) -> BoolArray:
        """The ``(h, w)`` mask of viewer squares from which ``target`` is seen."""
        r, c = _cell("target", target, *self.shape)
        out: BoolArray = self.visible[:, :, r, c]
        return out

    def sees(self, viewer: Any, target: Any) -> bool:
        """Whether ``viewer`` sees ``target``."""
        r, c = _cell("viewer", viewer, *self.shape)
        tr, tc = _cell("target", target, *self.shape)
        return bool(self.visible[r, c, tr, tc])

    def matrix(self) -> BoolArray:
        """The table as an ``(h*w, h*w)`` matrix, rows = viewer ``r*w + c``."""
        h, w = self.shape
        return self.visible.reshape(h * w, h * w)


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


# ======================================================================== model 2
# Corner lines (Zero Dark FEAR). The segment from the origin to a target corner is traced
# exactly into the things it meets, in order:
#   square interiors it passes, edges it crosses at an interior point of the edge, edges
#   it runs along, and lattice points it passes through (with the directions it comes from
#   and goes to), plus its end points when they are lattice points.
# Each of these is then judged against a "world" (which squares block, which edges are
# walls). Directions at a lattice point are 8 codes clockwise from north:
#   0 N, 1 NE, 2 E, 3 SE, 4 S, 5 SW, 6 W, 7 NW
# even codes are the four half-edges leaving the point, odd codes the four squares around
# it (quadrants).

_EV_SQ: Final = 0  # (code, row, col)                 passes the square's interior
_EV_CROSS_H: Final = 1  # (code, row, col)            crosses h-edge inside it
_EV_CROSS_V: Final = 2  # (code, row, col)            crosses v-edge inside it
_EV_RUN_H: Final = 3  # (code, row, col)              runs along h-edge
_EV_RUN_V: Final = 4  # (code, row, col)              runs along v-edge
_EV_PT: Final = 5  # (code, R, C, a, b)               through lattice point: from a to b
_EV_START: Final = 6  # (code, R, C, b)               starts at a lattice point going b
_EV_END: Final = 7  # (code, R, C, a)                 ends at a lattice point, coming from a
_EV_TOUCH: Final = 8  # (code, R, C)                  zero-length line at a lattice point

Event: TypeAlias = tuple[int, ...]

# Quadrant code -> offset of that square from lattice point (R, C).
_QUAD_OFFSET: Final[dict[int, Cell]] = {1: (-1, 0), 3: (0, 0), 5: (0, -1), 7: (-1, -1)}
# Corner of a square, as a quadrant code seen from the corner point: the NW corner of a
# square has the square to its SE, etc.
_CORNER_LABEL: Final[dict[int, str]] = {3: "nw", 5: "ne", 1: "sw", 7: "se"}


def _dir8(dx: int, dy: int) -> int:
    if dx == 0:
        return 0 if dy < 0 else 4
    if dy == 0:
        return 2 if dx > 0 else 6
    if dx > 0:
        return 1 if dy < 0 else 3
    return 7 if dy < 0 else 5


def _halfedge(R: int, C: int, d: int) -> EdgeRef:
    """The unit edge leaving lattice point (R, C) in even direction ``d``."""
    if d == 0:
        return ("v", R - 1, C)
    if d == 2:
        return ("h", R, C)
    if d == 4:
        return ("v", R, C)
    return ("h", R, C - 1)


def _crossings(o: int, d: int, den: int) -> list[int]:
    """Scaled parameters k (t = k/den) where o + t*d is an even integer, 0 < t < 1."""
    if d == 0:
        return []
    unit = den // abs(d)
    end = o + d
    if d > 0:
        first = o + 1 if o & 1 else o + 2
        return [(x - o) * unit for x in range(first, end, 2)]
    first = o - 1 if o & 1 else o - 2
    return [(o - x) * unit for x in range(first, end, -2)]


def _trace(ox: int, oy: int, tx: int, ty: int) -> list[Event]:
    """Trace the segment (ox, oy) -> (tx, ty) in doubled coordinates, exactly.

    The segment is cut at every parameter where it meets a grid line (x or y even);
    the pieces between cuts lie inside one square or along one edge, and the cuts are
    edge crossings or lattice points. All arithmetic is on integers scaled by
    ``den = |dx| * |dy|``.
    """
    dx = tx - ox
    dy = ty - oy
    if dx == 0 and dy == 0:
        return [(_EV_TOUCH, ty >> 1, tx >> 1)]
    events: list[Event] = []
    if not (ox & 1 or oy & 1):
        events.append((_EV_START, oy >> 1, ox >> 1, _dir8(dx, dy)))
    den = (abs(dx) or 1) * (abs(dy) or 1)
    xs = _crossings(ox, dx, den)
    ys = _crossings(oy, dy, den)
    xrun = dx == 0 and not ox & 1  # the whole segment lies on a vertical grid line
    yrun = dy == 0 and not oy & 1
    a_in = _dir8(-dx, -dy)
    b_out = _dir8(dx, dy)
    ox2, oy2 = ox * 2 * den, oy * 2 * den
    den4 = 4 * den
    i = j = 0
    nx, ny = len(xs), len(ys)
    prev = 0
    big = den + 1
    while True:
        kx = xs[i] if i < nx else big
        ky = ys[j] if j < ny else big
        k = kx if kx < ky else ky
        last = k == big
        if last:
            k = den
        # The open piece (prev, k): its midpoint (scaled by 2*den) places it.
        mid = prev + k
        if xrun:
            events.append((_EV_RUN_V, (oy2 + dy * mid) // den4, ox >> 1))
        elif yrun:
            events.append((_EV_RUN_H, oy >> 1, (ox2 + dx * mid) // den4))
        else:
            events.append((_EV_SQ, (oy2 + dy * mid) // den4, (ox2 + dx * mid) // den4))
        if last:
            break
        fx = kx == k
        fy = ky == k
        if fx:
            i += 1
        if fy:
            j += 1
        xn = ox * den + dx * k  # x * den at the cut
        yn = oy * den + dy * k
        if (fx or xrun) and (fy or yrun):
            events.append((_EV_PT, yn // (2 * den), xn // (2 * den), a_in, b_out))
        elif fx:
            events.append((_EV_CROSS_V, yn // (2 * den), xn // (2 * den)))
        else:
            events.append((_EV_CROSS_H, yn // (2 * den), xn // (2 * den)))
        prev = k
    if not (tx & 1 or ty & 1):
        events.append((_EV_END, ty >> 1, tx >> 1, a_in))
    return events


def _build_pass_table() -> tuple[int, ...]:
    """``_PASS[(a*8 + b)*256 + seps]``: the separators that stop a passage a -> b.

    A line through a lattice point P comes in from direction ``a`` and leaves in
    direction ``b``; ``seps`` is the bitmask of separator rays at P (walls on the four
    half-edges; a corner-to-corner pinch as the two diagonal rays into its squares).
    Going straight through (b opposite a), the line crosses the separators only if it
    has one on each side (FR-L3: crossing a wall at a joint or corner, or a pinch; a free
    wall end or the outside of a wall corner is on one side only). At an end point the
    line "goes on into" the target's square (FR-L3): it turns from ``a`` to the target
    quadrant ``b`` the short way, and any separator it sweeps over stops it — that is
    what makes a wall along the target's near edge hide the corners on it.
    Result 0 = free.
    """
    out: list[int] = []
    for a in range(8):
        for b in range(8):
            d = (b - a) % 8
            for seps in range(256):
                if d == 0:
                    out.append(0)
                    continue
                if d == 4:
                    arc1 = sum(1 << ((a + s) % 8) for s in (1, 2, 3))
                    arc2 = sum(1 << ((a + s) % 8) for s in (5, 6, 7))
                    s1, s2 = seps & arc1, seps & arc2
                    out.append(s1 | s2 if s1 and s2 else 0)
                    continue
                if d < 4:
                    arc = sum(1 << ((a + s) % 8) for s in range(1, d))
                else:
                    arc = sum(1 << ((b + s) % 8) for s in range(1, 8 - d))
                out.append(seps & arc)
    return tuple(out)


_PASS: Final = _build_pass_table()


@dataclass(frozen=True, slots=True)
class Obstruction:
    """One thing a corner line meets that blocks or interrupts it (FR-L3, FR-S5).

    Attributes:
        kind: ``"square"`` (passes the square's interior), ``"wall"`` (crosses a wall
            between its ends), ``"wall-along"`` (runs along a wall), ``"seam"`` (runs
            along the edge between two blocking squares), ``"pinch"`` (through a point
            where two blocking squares meet corner to corner, or a pinch at an end
            corner that separates the line from the square), ``"wall-point"`` (crosses
            walls exactly at a joint or corner, or a wall at an end corner separates
            the line from the square).
        squares: the squares involved.
        heights: their Cyl heights (terrain item or model, the taller), same order.
        edges: the wall edges involved.
        point: the lattice point ``(R, C)`` (the NW corner of square ``(R, C)``) for the
            point kinds, else ``None``.
    """

    kind: ObstructionKind
    squares: tuple[Square, ...] = ()
    heights: tuple[int, ...] = ()
    edges: tuple[Edge, ...] = ()
    point: Cell | None = None

    def to_json(self, height: int, width: int) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        if self.squares:
            out["squares"] = [s.name for s in self.squares]
            out["cyl"] = list(self.heights)
        if self.edges:
            out["walls"] = [e.name for e in self.edges]
        if self.point is not None:
            out["point"] = corner_name(self.point, height, width)
        return out


class _World:
    """What blocks, for one question (sight, the target's cylinder, or obstacles).

    ``block`` already leaves out the viewer's and the target's squares, which never
    block or obstruct (FR-L2, FR-S3). Stored as Python lists: the per-line evaluation
    is a tight Python loop and list indexing is several times faster than numpy scalars.
    """

    __slots__ = ("block", "h", "heights", "target", "viewer", "w", "wh", "wv")

    def __init__(
        self,
        block: BoolArray,
        walls_h: BoolArray,
        walls_v: BoolArray,
        heights: IntArray,
        viewer: Iterable[Cell],
        target: Iterable[Cell],
    ) -> None:
        self.h, self.w = (int(n) for n in block.shape)
        self.viewer = frozenset(viewer)
        self.target = frozenset(target)
        blk = block.copy()
        for r, c in self.viewer | self.target:
            blk[r, c] = False
        self.block: list[list[bool]] = blk.tolist()
        self.wh: list[list[bool]] = walls_h.tolist()
        self.wv: list[list[bool]] = walls_v.tolist()
        self.heights: list[list[int]] = heights.tolist()

    def blocks(self, r: int, c: int) -> bool:
        return 0 <= r < self.h and 0 <= c < self.w and self.block[r][c]

    def wall(self, edge: EdgeRef) -> bool:
        kind, r, c = edge
        if kind == "h":
            return 0 <= r <= self.h and 0 <= c < self.w and self.wh[r][c]
        return 0 <= r < self.h and 0 <= c <= self.w and self.wv[r][c]

    def separators(self, R: int, C: int) -> int:
        seps = 0
        for d in (0, 2, 4, 6):
            if self.wall(_halfedge(R, C, d)):
                seps |= 1 << d
        ne = self.blocks(R - 1, C)
        se = self.blocks(R, C)
        sw = self.blocks(R, C - 1)
        nw = self.blocks(R - 1, C - 1)
        # A pinch is exactly two blocking squares meeting corner to corner (FR-L3). With a
        # third one the line meets a blocking interior or seam anyway, so "and no other
        # blocking square" changes no answer; it does keep the report from naming both.
        if ne and sw and not nw and not se:
            seps |= (1 << 1) | (1 << 5)
        if nw and se and not ne and not sw:
            seps |= (1 << 3) | (1 << 7)
        return seps

    def quadrants(self, R: int, C: int, cells: frozenset[Cell]) -> list[int]:
        return [q for q, (dr, dc) in _QUAD_OFFSET.items() if (R + dr, C + dc) in cells]

    def point_obstruction(self, R: int, C: int, mask: int) -> Obstruction:
        edges = tuple(Edge(*_halfedge(R, C, d)) for d in (0, 2, 4, 6) if mask >> d & 1)
        squares: list[Cell] = []
        if mask & ((1 << 1) | (1 << 5)):
            squares += [(R - 1, C), (R, C - 1)]
        if mask & ((1 << 3) | (1 << 7)):
            squares += [(R - 1, C - 1), (R, C)]
        return Obstruction(
            "pinch" if squares else "wall-point",
            squares=tuple(Square(*sq) for sq in squares),
            heights=tuple(self.heights[r][c] for r, c in squares),
            edges=edges,
            point=(R, C),
        )

    def square(
        self, kind: ObstructionKind, cells: Sequence[Cell], edges: tuple[Edge, ...]
    ) -> Obstruction:
        return Obstruction(
            kind,
            squares=tuple(Square(*cell) for cell in cells),
            heights=tuple(self.heights[r][c] for r, c in cells),
            edges=edges,
        )

    def evaluate(self, events: Sequence[Event], first_only: bool = False) -> list[Obstruction]:
        """The obstructions a traced line meets in this world, in order along the line."""
        out: list[Obstruction] = []
        for ev in events:
            code = ev[0]
            if code == _EV_SQ:
                if self.blocks(ev[1], ev[2]):
                    out.append(self.square("square", [(ev[1], ev[2])], ()))
            elif code in (_EV_CROSS_H, _EV_CROSS_V):
                cross: EdgeRef = ("h" if code == _EV_CROSS_H else "v", ev[1], ev[2])
                if self.wall(cross):
                    out.append(Obstruction("wall", edges=(Edge(*cross),)))
            elif code in (_EV_RUN_H, _EV_RUN_V):
                r, c = ev[1], ev[2]
                if code == _EV_RUN_H:
                    edge: EdgeRef = ("h", r, c)
                    sides = [(r - 1, c), (r, c)]
                else:
                    edge = ("v", r, c)
                    sides = [(r, c - 1), (r, c)]
                if self.wall(edge):
                    out.append(Obstruction("wall-along", edges=(Edge(*edge),)))
                elif self.blocks(*sides[0]) and self.blocks(*sides[1]):
                    # Ruling: the edge between two blocking squares is inside solid
                    # terrain, so running along it blocks like the pinch (any_corner only).
                    out.append(self.square("seam", sides, (Edge(*edge),)))
            elif code == _EV_PT:
                R, C = ev[1], ev[2]
                mask = _PASS[(ev[3] * 8 + ev[4]) * 256 + self.separators(R, C)]
                if mask:
                    out.append(self.point_obstruction(R, C, mask))
            else:
                R, C = ev[1], ev[2]
                if code == _EV_START:
                    pairs = [(v, ev[3]) for v in self.quadrants(R, C, self.viewer)]
                elif code == _EV_END:
                    pairs = [(ev[3], q) for q in self.quadrants(R, C, self.target)]
                else:  # _EV_TOUCH: from the viewer's square straight into the target's
                    vq = self.quadrants(R, C, self.viewer)
                    pairs = [(v, q) for v in vq for q in self.quadrants(R, C, self.target)]
                seps = self.separators(R, C)
                masks = [_PASS[(a * 8 + b) * 256 + seps] for a, b in pairs]
                if masks and all(masks):
                    out.append(self.point_obstruction(R, C, masks[0]))
            if first_only and out:
                break
        return out


def _obstacle_heights(cyl: IntArray, occupants: Mapping[Any, Any] | None) -> IntArray:
    """Height of each square: its terrain item's Cyl or its tallest model's, if taller."""
    h, w = cyl.shape
    heights = cyl.copy()
    if occupants:
        for key, value in occupants.items():
            r, c = _cell("occupant square", key, h, w)
            heights[r, c] = max(heights[r, c], _cyl_value(f"Cyl of the model on {key!r}", value))
    return heights


def _check_walls(walls_h: Any, walls_v: Any, h: int, w: int) -> tuple[BoolArray, BoolArray]:
    return (
        _bool_grid("walls_h", walls_h, (h + 1, w)),
        _bool_grid("walls_v", walls_v, (h, w + 1)),
    )


def line_obstructions(
    blocking: Any,
    walls_h: Any,
    walls_v: Any,
    origin: XY,
    end: XY,
    *,
    viewer: Iterable[Any] = (),
    target: Iterable[Any] = (),
    heights: Any | None = None,
) -> tuple[Obstruction, ...]:
    """The obstructions on one segment, in doubled coordinates: the low-level kernel.

    ``origin`` is a square centre (odd, odd) or a corner (even, even); ``end`` a corner.
    ``blocking`` is the bool ``[row, col]`` array of blocking squares; the squares in
    ``viewer`` and ``target`` never block, and the segment's end points are treated as
    coming out of a ``viewer`` square / going on into a ``target`` square (FR-L3).
    An empty result means the line is clear.
    """
    blk = _bool_grid("blocking", blocking)
    h, w = blk.shape
    wh, wv = _check_walls(walls_h, walls_v, h, w)
    hts = np.zeros((h, w), np.int64) if heights is None else _int_grid("heights", heights, (h, w))
    vs = [_cell("viewer", v, h, w) for v in viewer]
    ts = [_cell("target", t, h, w) for t in target]
    for name, (x, y) in (("origin", origin), ("end", end)):
        if not (0 <= x <= 2 * w and 0 <= y <= 2 * h):
            raise RulesError(f"{name} {(x, y)} is off the board (doubled coordinates)")
    if end[0] & 1 or end[1] & 1:
        raise RulesError("end must be a square corner (even doubled coordinates)")
    world = _World(blk, wh, wv, hts, vs, ts)
    return tuple(world.evaluate(_trace(origin[0], origin[1], end[0], end[1])))


# ------------------------------------------------------------------------- reports


@dataclass(frozen=True, slots=True)
class CornerLine:
    """One corner line of a report (FR-S5).

    Attributes:
        corner_xy: the target corner, doubled coordinates.
        origin_xy: where the line starts (the viewer's centre, or with ``any_corner`` the
            best corner of the viewer's square for this target corner), doubled.
        outer: whether the corner is one of the four outer corners of the target (always
            true for a one-square target; the inner corners of a 2x2 target, FR-C1, give
            sight but are left out of the obscured test).
        in_view: whether the corner lies in the viewer's field of view (FR-L5; always
            true without a facing).
        sight: the line gives LOS (FR-L1): in view and nothing blocks it.
        cylinder_sight: the line sees part of the target's cylinder (FR-S6): in view and
            nothing blocks it but obstacles lower than the target.
        blocked_by: what stops the line for sight (squares of Cyl >= the viewer's, walls,
            pinches, seams), in order along the line.
        interrupted_by: the obstacles of any height and walls it meets (FR-S3), or only
            those the target is engaged with under the character rule (FR-S4).
    """

    corner_xy: XY
    origin_xy: XY
    outer: bool
    in_view: bool
    sight: bool
    cylinder_sight: bool
    blocked_by: tuple[Obstruction, ...]
    interrupted_by: tuple[Obstruction, ...]

    @property
    def corner(self) -> Cell:
        """The target corner as a lattice point ``(R, C)``."""
        return (self.corner_xy[1] // 2, self.corner_xy[0] // 2)


def _point_label(xy: XY, cells: Sequence[Cell]) -> str:
    """Name a point relative to the first of ``cells`` that has it: ``"K17:NE"``."""
    x, y = xy
    if x & 1 and y & 1:
        return _name((y // 2, x // 2))
    R, C = y // 2, x // 2
    for r, c in cells:
        for q, (dr, dc) in _QUAD_OFFSET.items():
            if (R + dr, C + dc) == (r, c):
                return f"{_name((r, c))} {_CORNER_LABEL[q]}"
    return f"({x},{y})"


@dataclass(frozen=True, slots=True)
class SightReport:
    """The umpire's answer to "what does this model see of that one?" (FR-S5).

    Attributes:
        height, width: the board's size (for names).
        viewer, target: their squares (one, or a 2x2 block).
        viewer_cyl, target_cyl: their Cyl.
        origin, facing, obscure_rule: the options used.
        lines: one :class:`CornerLine` per target corner: 4, or 9 for a 2x2 target.
        status: ``"clear"``, ``"obscured"`` or ``"entirely obscured"``.
    """

    height: int
    width: int
    viewer: tuple[Square, ...]
    viewer_cyl: int
    target: tuple[Square, ...]
    target_cyl: int
    origin: Origin
    facing: Facing | None
    obscure_rule: ObscureRule
    lines: tuple[CornerLine, ...]
    status: str

    @property
    def los(self) -> bool:
        """At least one corner line gives LOS (FR-L1, with FR-L5's field of view)."""
        return any(line.sight for line in self.lines)

    @property
    def entirely_obscured(self) -> bool:
        return self.status == STATUS_ENTIRELY_OBSCURED

    @property
    def obscured(self) -> bool:
        """Obscured but not entirely (FR-S3/FR-S4/FR-S6): shootable at a penalty."""
        return self.status == STATUS_OBSCURED

    def to_json(self) -> dict[str, Any]:
        h, w = self.height, self.width
        return {
            "viewer": [s.name for s in self.viewer],
            "viewer_cyl": self.viewer_cyl,
            "target": [s.name for s in self.target],
            "target_cyl": self.target_cyl,
            "origin": self.origin,
            "facing": self.facing,
            "obscure_rule": self.obscure_rule,
            "los": self.los,
            "status": self.status,
            "lines": [
                {
                    "corner": _point_label(line.corner_xy, self.target),
                    "origin": _point_label(line.origin_xy, self.viewer),
                    "outer": line.outer,
                    "in_view": line.in_view,
                    "sight": line.sight,
                    "cylinder_sight": line.cylinder_sight,
                    "blocked_by": [o.to_json(h, w) for o in line.blocked_by],
                    "interrupted_by": [o.to_json(h, w) for o in line.interrupted_by],
                }
                for line in self.lines
            ],
        }


def _block_box(cells: Sequence[Cell]) -> tuple[int, int, int, int]:
    """Doubled-coordinate bounds (x0, y0, x1, y1) of a footprint."""
    r0, c0 = cells[0]
    r1, c1 = cells[-1]
    return (2 * c0, 2 * r0, 2 * c1 + 2, 2 * r1 + 2)


def _corners(cells: Sequence[Cell]) -> list[tuple[XY, bool]]:
    """Every corner of every square of the footprint (FR-C1), with "is outer"."""
    x0, y0, x1, y1 = _block_box(cells)
    return [
        ((x, y), x in (x0, x1) and y in (y0, y1))
        for y in range(y0, y1 + 1, 2)
        for x in range(x0, x1 + 1, 2)
    ]


def _origins(cells: Sequence[Cell], origin: Origin) -> list[XY]:
    if origin == "centre":
        return [(2 * c + 1, 2 * r + 1) for r, c in cells]
    return [xy for xy, _outer in _corners(cells)]


def _in_view(xy: XY, viewer: Sequence[Cell], facing: Facing | None) -> bool:
    """FR-L5: the closed half-plane bounded by the diagonal through the viewer square's
    two other corners, on the facing side (for a 2x2 viewer, its block's corners)."""
    if facing is None:
        return True
    x, y = xy
    x0, y0, x1, _y1 = _block_box(viewer)
    if facing == "NE":
        return x - y >= x0 - y0
    if facing == "SW":
        return x - y <= x0 - y0
    if facing == "SE":
        return x + y >= x1 + y0
    return x + y <= x1 + y0


def _touching_edges(cells: Sequence[Cell], h: int, w: int) -> tuple[BoolArray, BoolArray]:
    """Masks of the edges that touch the footprint (share at least a point with it)."""
    mh = np.zeros((h + 1, w), dtype=np.bool_)
    mv = np.zeros((h, w + 1), dtype=np.bool_)
    for r, c in cells:
        mh[max(r, 0) : r + 2, max(c - 1, 0) : c + 2] = True
        mv[max(r - 1, 0) : r + 2, max(c, 0) : c + 2] = True
    return mh, mv


def _neighbourhood(cells: Sequence[Cell], h: int, w: int) -> BoolArray:
    mask = np.zeros((h, w), dtype=np.bool_)
    for r, c in cells:
        mask[max(r - 1, 0) : r + 2, max(c - 1, 0) : c + 2] = True
    return mask


@dataclass(frozen=True, slots=True)
class _Candidate:
    origin: XY
    blocked: tuple[Obstruction, ...]
    cyl_blocked: bool
    interrupted: tuple[Obstruction, ...]

    def rank(self, in_view: bool) -> tuple[bool, bool, bool]:
        sight = in_view and not self.blocked
        return (sight and not self.interrupted, sight, in_view and not self.cyl_blocked)


def corner_report(
    cyl: Any,
    walls_h: Any,
    walls_v: Any,
    viewer: Any,
    target: Any,
    *,
    viewer_cyl: int,
    target_cyl: int,
    occupants: Mapping[Any, int] | None = None,
    origin: Origin = "centre",
    facing: Facing | None = None,
    obscure_rule: ObscureRule = "bogey",
) -> SightReport:
    """Corner-line sight from one model to another, with the umpire's report (FR-S5).

    Args:
        cyl: int ``[row, col]`` array, the Cyl of each square's terrain item (0 = none).
        walls_h, walls_v: bool wall arrays (closed doors included), see the module doc.
        viewer: the active model's square, or its four squares if it is Cyl 6-7.
        target: the target's square, or its 2x2 block (FR-C1).
        viewer_cyl, target_cyl: their Cyl (pass 1 for a down bogey or prone
            character, FR-L4).
        occupants: ``{(row, col): Cyl}`` of the other models (bogeys, characters); a
            model's square blocks like terrain of its Cyl (FR-L1). Entries on the
            viewer's or target's squares are ignored.
        origin: ``"centre"`` (default) or ``"any_corner"`` (FR-L2).
        facing: ``"NE"``, ``"SE"``, ``"SW"``, ``"NW"`` or ``None`` for all round (FR-L5).
        obscure_rule: ``"bogey"`` (FR-S3: every obstacle counts) or ``"character"``
            (FR-S4: only obstacles and walls the target is engaged with).
    """
    cy = _int_grid("cyl", cyl)
    h, w = cy.shape
    wh, wv = _check_walls(walls_h, walls_v, h, w)
    vcells = _footprint("viewer", viewer, h, w)
    tcells = _footprint("target", target, h, w)
    if set(vcells) & set(tcells):
        raise RulesError("the viewer and the target overlap")
    vcyl = _cyl_value("viewer_cyl", viewer_cyl)
    tcyl = _cyl_value("target_cyl", target_cyl)
    if origin not in _ORIGINS:
        raise RulesError(f"origin must be one of {_ORIGINS}, got {origin!r}")
    if facing is not None and facing not in _FACINGS:
        raise RulesError(f"facing must be one of {_FACINGS} or None, got {facing!r}")
    if obscure_rule not in _OBSCURE_RULES:
        raise RulesError(f"obscure_rule must be one of {_OBSCURE_RULES}, got {obscure_rule!r}")
    heights = _obstacle_heights(cy, occupants)

    sight_world = _World(heights >= vcyl, wh, wv, heights, vcells, tcells)
    cyl_world = _World(heights >= max(vcyl, tcyl), wh, wv, heights, vcells, tcells)
    obstacles = heights >= 1
    owh, owv = wh, wv
    if obscure_rule == "character":
        # FR-S4: only what the character is engaged with (adjacent squares, and walls
        # touching its square) makes it obscured.
        obstacles = obstacles & _neighbourhood(tcells, h, w)
        mh, mv = _touching_edges(tcells, h, w)
        owh, owv = wh & mh, wv & mv
    obst_world = _World(obstacles, owh, owv, heights, vcells, tcells)

    lines: list[CornerLine] = []
    origins = _origins(vcells, origin)
    for corner, outer in _corners(tcells):
        in_view = _in_view(corner, vcells, facing)
        best: _Candidate | None = None
        for o in origins:
            events = _trace(o[0], o[1], corner[0], corner[1])
            blocked = tuple(sight_world.evaluate(events))
            # Blocked for the cylinder implies blocked for sight (taller-only subset),
            # so only a blocked line needs the second look.
            cyl_blocked = bool(blocked) and bool(cyl_world.evaluate(events, first_only=True))
            cand = _Candidate(o, blocked, cyl_blocked, tuple(obst_world.evaluate(events)))
            # Per target corner keep the best origin: LOS without obstacles, then LOS,
            # then a view of the cylinder; ties go to the first origin (stable order).
            if best is None or cand.rank(in_view) > best.rank(in_view):
                best = cand
        if best is None:  # pragma: no cover - every footprint has an origin
            raise RulesError("no origin for the corner lines")
        sight = in_view and not best.blocked
        lines.append(
            CornerLine(
                corner_xy=corner,
                origin_xy=best.origin,
                outer=outer,
                in_view=in_view,
                sight=sight,
                cylinder_sight=in_view and not best.cyl_blocked,
                blocked_by=best.blocked,
                interrupted_by=best.interrupted,
            )
        )
    return SightReport(
        height=h,
        width=w,
        viewer=vcells,
        viewer_cyl=vcyl,
        target=tcells,
        target_cyl=tcyl,
        origin=origin,
        facing=facing,
        obscure_rule=obscure_rule,
        lines=tuple(lines),
        status=_status(lines),
    )


def _status(lines: Sequence[CornerLine]) -> str:
    """FR-S5 with FR-S6: see the module documentation (docs/sight.md)."""
    if not any(line.cylinder_sight for line in lines):
        return STATUS_ENTIRELY_OBSCURED
    if not any(line.sight for line in lines):
        return STATUS_OBSCURED  # FR-S6: only the lower-than-target obstacles stop it
    if any(line.interrupted_by for line in lines if line.outer and line.in_view):
        return STATUS_OBSCURED
    return STATUS_CLEAR


def corner_sees(
    cyl: Any,
    walls_h: Any,
    walls_v: Any,
    viewer: Any,
    target: Any,
    *,
    viewer_cyl: int,
    occupants: Mapping[Any, int] | None = None,
    origin: Origin = "centre",
    facing: Facing | None = None,
) -> bool:
    """FR-L1 LOS only (some corner line is clear): the fast question, no report."""
    cy = _int_grid("cyl", cyl)
    h, w = cy.shape
    wh, wv = _check_walls(walls_h, walls_v, h, w)
    vcells = _footprint("viewer", viewer, h, w)
    tcells = _footprint("target", target, h, w)
    if set(vcells) & set(tcells):
        raise RulesError("the viewer and the target overlap")
    vcyl = _cyl_value("viewer_cyl", viewer_cyl)
    if origin not in _ORIGINS:
        raise RulesError(f"origin must be one of {_ORIGINS}, got {origin!r}")
    if facing is not None and facing not in _FACINGS:
        raise RulesError(f"facing must be one of {_FACINGS} or None, got {facing!r}")
    heights = _obstacle_heights(cy, occupants)
    world = _World(heights >= vcyl, wh, wv, heights, vcells, tcells)
    origins = _origins(vcells, origin)
    for corner, _outer in _corners(tcells):
        if not _in_view(corner, vcells, facing):
            continue
        for o in origins:
            if not world.evaluate(_trace(o[0], o[1], corner[0], corner[1]), first_only=True):
                return True
    return False


# --------------------------------------------------------------- whole-board table
# The squares, edges and points that a line from a viewer's centre to a corner of a
# target at offset (dr, dc) meets do not depend on where the viewer stands, so each line
# is traced once per offset ("template") and evaluated for every viewer position at once.
# Every thing a template can meet is reduced to one bit of one feature layer at a position
# relative to the viewer:
#   0 SQ   the square blocks                 (never the viewer's or the target's square)
#   1 WH   wall on an h-edge                 2 WV   wall on a v-edge
#   3 PTB  a "\" line (NW-SE) through the lattice point is stopped there: a pinch of the
#          NE and SW squares, or walls on both of its sides
#   4 PTS  the same for a "/" line (NE-SW)
# A line into the target corner coming from the opposite quadrant is a straight pass (PTB
# or PTS); from a neighbouring quadrant it only needs the half-edge between the two free
# of walls; from the target's own square it needs nothing. The pinch squares of a through
# pass are never the viewer's or target's square (a line cannot pass a corner of its end
# squares without entering them), so the features need no per-pair masking.
# Viewer positions are packed as bits: a layer shifted by a column offset is stored as one
# uint64 word (or more) per row, so one template evaluates for all viewers with a gather of
# h words per element and an OR.

_N_LAYERS: Final = 5
_BUCKET: Final = 8  # templates are padded to a multiple of this many elements


@dataclass(frozen=True, slots=True)
class _Plan:
    """Everything about the corner table that depends only on the board size."""

    nr: int  # padded rows per (layer, shift) block
    nshift: int
    # Per bucket: the offset indices it holds and their element rows, shape (n, 4, L).
    buckets: tuple[tuple[IntArray, IntArray], ...]


def _template_elements(dr: int, dc: int, kx: int, ky: int) -> list[tuple[int, int, int]]:
    """The (layer, i, j) features whose OR says the line from the viewer's centre to
    corner (kx, ky) of the square at offset (dr, dc) is blocked."""
    tx, ty = 2 * dc + 2 * kx, 2 * dr + 2 * ky
    # The target square, seen from its corner T, lies in this quadrant.
    q = {(0, 0): 3, (1, 0): 5, (0, 1): 1, (1, 1): 7}[(kx, ky)]
    out: list[tuple[int, int, int]] = []
    for ev in _trace(1, 1, tx, ty):
        code = ev[0]
        if code == _EV_SQ:
            if (ev[1], ev[2]) != (0, 0) and (ev[1], ev[2]) != (dr, dc):
                out.append((0, ev[1], ev[2]))
        elif code == _EV_CROSS_H:
            out.append((1, ev[1], ev[2]))
        elif code == _EV_CROSS_V:
            out.append((2, ev[1], ev[2]))
        elif code == _EV_PT:
            out.append((3 if ev[3] in (3, 7) else 4, ev[1], ev[2]))
        elif code == _EV_END:
            a = ev[3]
            if a == q:
                continue
            if (a - q) % 8 == 4:
                out.append((3 if a in (3, 7) else 4, ev[1], ev[2]))
            else:
                d = (a + 1) % 8 if (q - a) % 8 == 2 else (a - 1) % 8
                kind, er, ec = _halfedge(ev[1], ev[2], d)
                out.append((1 if kind == "h" else 2, er, ec))
    return out


# A plan for 32x32 holds about 10 MB of indices; a game uses one or two board sizes.
@functools.lru_cache(maxsize=4)
def _corner_plan(h: int, w: int) -> _Plan:
    """Trace every (offset, corner) line once and lay the templates out for gathering.

    Only lines going south-east (x and y both increasing) are traced; the other three
    quarters are their mirror images, mapped feature by feature (mirroring x sends
    square column j to -j, v-edge column j to 1-j, lattice column J to 1-J, and swaps the
    two diagonal point layers; mirroring y likewise for rows).
    """
    pad = h + 1
    nr = 3 * (h + 1)
    nshift = 2 * w + 1
    layer_l: list[int] = []
    i_l: list[int] = []
    j_l: list[int] = []
    key_l: list[tuple[int, int, int, int]] = []
    counts: list[int] = []
    for dr in range(h):
        for ky in (0, 1):
            if dr == 0 and ky == 0:
                continue
            for dc in range(w):
                for kx in (0, 1):
                    if dc == 0 and kx == 0:
                        continue
                    els = _template_elements(dr, dc, kx, ky)
                    key_l.append((dr, dc, kx, ky))
                    counts.append(len(els))
                    for el_layer, el_i, el_j in els:
                        layer_l.append(el_layer)
                        i_l.append(el_i)
                        j_l.append(el_j)
    layer0 = np.asarray(layer_l, dtype=np.int64)
    i0 = np.asarray(i_l, dtype=np.int64)
    j0 = np.asarray(j_l, dtype=np.int64)
    keys = np.asarray(key_l, dtype=np.int64).reshape(-1, 4)
    cnt = np.asarray(counts, dtype=np.int64)
    base_of = np.repeat(np.arange(len(cnt)), cnt)
    pos0 = np.arange(len(layer0)) - np.repeat(np.cumsum(cnt) - cnt, cnt)

    n_off = (2 * h - 1) * (2 * w - 1)
    lmax = int(cnt.max(initial=0)) + 1
    dummy = (0 * nshift + w) * nr + 0  # rows 0..h-1 of this block are padding: all zero
    idx = np.full((n_off * 4, lmax), dummy, dtype=np.int64)
    length = np.zeros(n_off * 4, dtype=np.int64)
    for fx in (False, True):
        for fy in (False, True):
            lay, ii, jj = layer0, i0, j0
            mdr, mdc, mkx, mky = keys[:, 0], keys[:, 1], keys[:, 2], keys[:, 3]
            if fx:
                jj = np.where(lay <= 1, -jj, 1 - jj)
                mdc, mkx = -mdc, 1 - mkx
            if fy:
                ii = np.where((lay == 0) | (lay == 2), -ii, 1 - ii)
                mdr, mky = -mdr, 1 - mky
            if fx != fy:
                lay = np.where(lay == 3, 4, np.where(lay == 4, 3, lay))
            tid = ((mdr + h - 1) * (2 * w - 1) + (mdc + w - 1)) * 4 + mky * 2 + mkx
            rows = (lay * nshift + (jj + w)) * nr + (ii + pad)
            idx[tid[base_of], pos0] = rows
            length[tid] = cnt
    per_off = length.reshape(n_off, 4).max(axis=1)
    per_off[n_off // 2] = 0  # offset (0, 0): the viewer's own square, set true later
    padded = (per_off + _BUCKET - 1) // _BUCKET * _BUCKET
    padded = np.maximum(padded, 1)
    idx3 = idx.reshape(n_off, 4, lmax)
    buckets: list[tuple[IntArray, IntArray]] = []
    for size in np.unique(padded):
        offs = np.flatnonzero(padded == size)
        block = np.full((len(offs), 4, int(size)), dummy, dtype=np.int64)
        take = min(int(size), lmax)
        block[:, :, :take] = idx3[offs, :, :take]
        offs.setflags(write=False)
        block.setflags(write=False)
        buckets.append((offs, block))
    return _Plan(nr=nr, nshift=nshift, buckets=tuple(buckets))


def _feature_layers(blocking: BoolArray, wh: BoolArray, wv: BoolArray) -> BoolArray:
    h, w = blocking.shape
    layers = np.zeros((_N_LAYERS, h + 1, w + 1), dtype=np.bool_)
    layers[0, :h, :w] = blocking
    layers[1, : h + 1, :w] = wh
    layers[2, :h, : w + 1] = wv
    bp = np.zeros((h + 2, w + 2), dtype=np.bool_)
    bp[1 : h + 1, 1 : w + 1] = blocking
    # Around lattice point (R, C): NE = (R-1, C), SE = (R, C), SW = (R, C-1), NW = (R-1, C-1).
    ne, se = bp[0 : h + 1, 1 : w + 2], bp[1 : h + 2, 1 : w + 2]
    sw, nw = bp[1 : h + 2, 0 : w + 1], bp[0 : h + 1, 0 : w + 1]
    vp = np.zeros((h + 2, w + 1), dtype=np.bool_)
    vp[1 : h + 1, :] = wv
    hp = np.zeros((h + 1, w + 2), dtype=np.bool_)
    hp[:, 1 : w + 1] = wh
    n, s = vp[0 : h + 1, :], vp[1 : h + 2, :]
    e, west = hp[:, 1 : w + 2], hp[:, 0 : w + 1]
    # The through-pass rule of _PASS for the two diagonal directions: a pinch of the two
    # squares off the line, or walls on both sides of it.
    layers[3] = (ne & sw) | ((n | e) & (s | west))
    layers[4] = (nw & se) | ((e | s) & (west | n))
    return layers


def _packed_shifts(layers: BoolArray, h: int, w: int, plan: _Plan) -> npt.NDArray[np.uint64]:
    """``out[word, (layer * nshift + j + w) * nr + pad + row]``: bit vc = layer[row, vc + j]."""
    nwords = (w + 63) // 64
    pad = h + 1
    out = np.zeros((_N_LAYERS, plan.nshift, plan.nr, nwords), dtype=np.uint64)
    shifted = np.zeros((_N_LAYERS, h + 1, nwords * 64), dtype=np.bool_)
    for si, j in enumerate(range(-w, w + 1)):
        shifted[:] = False
        lo, hi = max(0, -j), min(w, w + 1 - j)
        if lo < hi:
            shifted[:, :, lo:hi] = layers[:, :, lo + j : hi + j]
        packed = np.packbits(shifted, axis=-1, bitorder="little")
        out[:, si, pad : pad + h + 1, :] = packed.view(np.uint64)
    return np.ascontiguousarray(out.reshape(-1, nwords).T)


def _corner_visibility(blocking: BoolArray, wh: BoolArray, wv: BoolArray) -> BoolArray:
    h, w = blocking.shape
    nwords = (w + 63) // 64
    plan = _corner_plan(h, w)
    words = _packed_shifts(_feature_layers(blocking, wh, wv), h, w, plan)
    n_off = (2 * h - 1) * (2 * w - 1)
    vis_words = np.zeros((n_off, h, nwords), dtype=np.uint64)
    for wd in range(nwords):
        # windows[k] = the h consecutive rows starting at k: one element's rows for every
        # viewer row at once (a strided view, so the gather copies contiguous runs).
        windows = np.lib.stride_tricks.sliding_window_view(words[wd], h)
        for offs, block in plan.buckets:
            per = block.shape[1] * block.shape[2] * h
            step = max(1, 1_000_000 // per)  # keep each gather around 8 MB
            for s0 in range(0, len(offs), step):
                sel = block[s0 : s0 + step]
                got = windows[sel.reshape(-1)].reshape(*sel.shape, h)
                blocked = np.bitwise_or.reduce(got, axis=2)  # each corner line
                # LOS when at least one of the four corner lines is unblocked.
                vis_words[offs[s0 : s0 + step], :, wd] = ~np.bitwise_and.reduce(blocked, axis=1)
    rel = np.unpackbits(vis_words.view(np.uint8), axis=-1, bitorder="little")[..., :w]
    vr = np.arange(h)[:, None, None, None]
    vc = np.arange(w)[None, :, None, None]
    tr = np.arange(h)[None, None, :, None]
    tc = np.arange(w)[None, None, None, :]
    off = (tr - vr + h - 1) * (2 * w - 1) + (tc - vc + w - 1)
    vis: BoolArray = rel[off, vr, vc].astype(np.bool_)
    d = np.arange(h * w)
    vis.reshape(h * w, h * w)[d, d] = True
    return vis


@dataclass(frozen=True, slots=True, eq=False)
class CornerTable(VisibilityTable):
    """All-pairs corner-line LOS: ``visible[vr, vc, tr, tc]`` (read-only).

    Centre origin, no facing, one-square viewer and target, terrain (and any occupants
    passed) and walls; built by :func:`corner_table`.
    """

    viewer_cyl: int


def corner_table(
    cyl: Any,
    walls_h: Any,
    walls_v: Any,
    *,
    viewer_cyl: int,
    occupants: Mapping[Any, int] | None = None,
) -> CornerTable:
    """All-pairs FR-L1 LOS (centre origin, no facing) for a viewer of ``viewer_cyl``.

    Gives the same answers as :func:`corner_sees` for every pair, vectorised with numpy;
    the per-board-size line templates are cached.
    """
    cy = _int_grid("cyl", cyl)
    h, w = cy.shape
    wh, wv = _check_walls(walls_h, walls_v, h, w)
    vcyl = _cyl_value("viewer_cyl", viewer_cyl)
    heights = _obstacle_heights(cy, occupants)
    vis = _corner_visibility(heights >= vcyl, wh, wv)
    vis.setflags(write=False)
    return CornerTable(vis, vcyl)


# ------------------------------------------------------------------ board wrappers


class SightBoard(Protocol):
    """The part of ``grid.Board`` that this module reads."""

    @property
    def opaque(self) -> npt.NDArray[Any]: ...
    @property
    def cyl(self) -> npt.NDArray[Any]: ...
    @property
    def roads(self) -> npt.NDArray[Any]: ...
    def walls(self, open_doors: Any = None) -> tuple[npt.NDArray[Any], npt.NDArray[Any]]: ...


# An opaque board square "blocks every line of sight, whatever the heights" (grid.Terrain),
# so the corner-line model sees it as taller than any model.
_SOLID_CYL: Final = 999


def _board_cyl(board: SightBoard) -> IntArray:
    cy = _int_grid("board.cyl", board.cyl)
    op = _bool_grid("board.opaque", board.opaque, cy.shape)
    return np.where(op, _SOLID_CYL, cy)


def board_orthogonal_visible(
    board: SightBoard, viewer: Any, *, road_rule: bool = False, extra_opaque: Any | None = None
) -> BoolArray:
    """:func:`orthogonal_visible` on a board's opacity and roads."""
    return orthogonal_visible(
        board.opaque,
        viewer,
        roads=board.roads,
        road_rule=road_rule,
        extra_opaque=extra_opaque,
    )


def board_orthogonal_table(
    board: SightBoard, *, road_rule: bool = False, extra_opaque: Any | None = None
) -> OrthogonalTable:
    """:func:`orthogonal_table` on a board's opacity and roads."""
    return orthogonal_table(
        board.opaque, roads=board.roads, road_rule=road_rule, extra_opaque=extra_opaque
    )


def board_corner_report(
    board: SightBoard,
    viewer: Any,
    target: Any,
    *,
    viewer_cyl: int,
    target_cyl: int,
    occupants: Mapping[Any, int] | None = None,
    open_doors: Any = None,
    origin: Origin = "centre",
    facing: Facing | None = None,
    obscure_rule: ObscureRule = "bogey",
) -> SightReport:
    """:func:`corner_report` on a board: its Cyl layer (opaque squares count as taller
    than any model) and its walls with the closed doors (``open_doors`` as in
    :meth:`grid.Board.walls`)."""
    wh, wv = board.walls(open_doors)
    return corner_report(
        _board_cyl(board),
        wh,
        wv,
        viewer,
        target,
        viewer_cyl=viewer_cyl,
        target_cyl=target_cyl,
        occupants=occupants,
        origin=origin,
        facing=facing,
        obscure_rule=obscure_rule,
    )


def board_corner_table(
    board: SightBoard,
    *,
    viewer_cyl: int,
    occupants: Mapping[Any, int] | None = None,
    open_doors: Any = None,
) -> CornerTable:
    """:func:`corner_table` on a board (see :func:`board_corner_report` for the layers)."""
    wh, wv = board.walls(open_doors)
    return corner_table(_board_cyl(board), wh, wv, viewer_cyl=viewer_cyl, occupants=occupants)
