"""Model 2 — corner lines (Zero Dark FEAR): one line traced exactly, and what it meets.

The kernel of the corner-line model: :func:`line_obstructions` and the pieces the report
(:mod:`~fogofwar.core.sight.corner_report`) and the whole-board table
(:mod:`~fogofwar.core.sight.corner_table`) are built from.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal, TypeAlias

import numpy as np

from ..errors import RulesError
from ..grid import Edge, Square
from .common import (
    XY,
    BoolArray,
    Cell,
    EdgeRef,
    IntArray,
    _bool_grid,
    _cell,
    _cyl_value,
    _int_grid,
    corner_name,
)

ObstructionKind: TypeAlias = Literal["square", "wall", "wall-along", "seam", "pinch", "wall-point"]


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
