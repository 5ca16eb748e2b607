"""Brute-force oracle for the corner-line model (FR-L1, FR-L2, FR-L3, FR-C1), in exact
rational arithmetic.

This is a second, deliberately different implementation of the rulings in
``docs/sight.md``, used only by the tests. ``fogofwar.core.sight`` walks the segment with
scaled integers and judges lattice points with an 8-direction lookup table; this module
instead

* parametrises the segment with :class:`fractions.Fraction`, collects every parameter
  where it meets a grid line, and classifies each piece by its midpoint and each cut
  point by its coordinates, straight from the definitions;
* judges a lattice point with real direction vectors and an exact pseudo-angle
  ("diamond angle"), choosing how the line goes on into the target's square (or comes
  out of the viewer's) as straight as possible, as FR-L3 describes it.

It shares no code with the module under test.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction

Vec = tuple[Fraction, Fraction]
Sq = tuple[int, int]
LPoint = tuple[int, int]  # doubled (x, y), both even

_K = 8  # "just inside the cone, next to its edge": K * edge + diagonal


@dataclass
class OracleMap:
    """A map for the oracle: blocking squares and wall segments (doubled coordinates)."""

    h: int
    w: int
    blocking: set[Sq] = field(default_factory=set)
    walls: set[frozenset[LPoint]] = field(default_factory=set)

    @classmethod
    def from_arrays(cls, blocking: object, walls_h: object, walls_v: object) -> OracleMap:
        import numpy as np

        b = np.asarray(blocking, dtype=bool)
        wh = np.asarray(walls_h, dtype=bool)
        wv = np.asarray(walls_v, dtype=bool)
        h, w = b.shape
        m = cls(h, w)
        m.blocking = {(int(r), int(c)) for r, c in zip(*np.nonzero(b), strict=True)}
        for r, c in zip(*np.nonzero(wh), strict=True):
            m.walls.add(frozenset({(2 * int(c), 2 * int(r)), (2 * int(c) + 2, 2 * int(r))}))
        for r, c in zip(*np.nonzero(wv), strict=True):
            m.walls.add(frozenset({(2 * int(c), 2 * int(r)), (2 * int(c), 2 * int(r) + 2)}))
        return m


def _even(q: Fraction) -> bool:
    return q.denominator == 1 and q.numerator % 2 == 0


def _floor_half(q: Fraction) -> int:
    return (q / 2).__floor__()


def _angle(v: Vec) -> Fraction:
    """Exact pseudo-angle in [0, 4): monotone in the true angle, 1 unit per 90 degrees."""
    x, y = v
    if y >= 0:
        return y / (x + y) if x >= 0 else 1 + (-x) / (-x + y)
    return 2 + (-y) / (-x - y) if x < 0 else 3 + x / (x - y)


def _ccw(a: Vec, b: Vec) -> Fraction:
    """Sweep from a to b, counter-clockwise in pseudo-angle units, in [0, 4)."""
    return (_angle(b) - _angle(a)) % 4


def _strictly_between(s: Vec, a: Vec, b: Vec) -> bool:
    """s lies strictly inside the counter-clockwise sweep from a to b."""
    d = _ccw(a, s)
    return 0 < d < _ccw(a, b)


def _neg(v: Vec) -> Vec:
    return (-v[0], -v[1])


def _same_dir(a: Vec, b: Vec) -> bool:
    return a[0] * b[1] == a[1] * b[0] and a[0] * b[0] + a[1] * b[1] > 0


class _Judge:
    def __init__(self, m: OracleMap, viewer: Iterable[Sq], target: Iterable[Sq]) -> None:
        self.m = m
        self.viewer = set(viewer)
        self.target = set(target)

    # -- the world
    def blocks(self, sq: Sq) -> bool:
        r, c = sq
        return (
            0 <= r < self.m.h
            and 0 <= c < self.m.w
            and sq in self.m.blocking
            and sq not in self.viewer
            and sq not in self.target
        )

    def wall(self, p: LPoint, q: LPoint) -> bool:
        return frozenset({p, q}) in self.m.walls

    @staticmethod
    def square_of_diag(p: LPoint, d: tuple[int, int]) -> Sq:
        """The square whose centre is p + d (d a diagonal unit vector)."""
        return ((p[1] + d[1]) // 2, (p[0] + d[0]) // 2)

    def separators(self, p: LPoint) -> list[Vec]:
        out: list[Vec] = []
        for d in ((0, -2), (2, 0), (0, 2), (-2, 0)):
            if self.wall(p, (p[0] + d[0], p[1] + d[1])):
                out.append((Fraction(d[0]), Fraction(d[1])))
        diag = {
            d: self.blocks(self.square_of_diag(p, d)) for d in ((1, -1), (1, 1), (-1, 1), (-1, -1))
        }
        # Two squares meeting corner to corner, and no other blocking square there.
        for d1, d2, o1, o2 in (
            ((1, -1), (-1, 1), (1, 1), (-1, -1)),
            ((1, 1), (-1, -1), (1, -1), (-1, 1)),
        ):
            if diag[d1] and diag[d2] and not diag[o1] and not diag[o2]:
                out.append((Fraction(d1[0]), Fraction(d1[1])))
                out.append((Fraction(d2[0]), Fraction(d2[1])))
        return out

    # -- passages through a point
    @staticmethod
    def straight_blocked(u: Vec, seps: list[Vec]) -> bool:
        """A straight line through the point along u: separators on both sides?"""
        v = _neg(u)
        left = any(_strictly_between(s, u, v) for s in seps)
        right = any(_strictly_between(s, v, u) for s in seps)
        return left and right

    @staticmethod
    def bent_blocked(u: Vec, v: Vec, seps: list[Vec]) -> bool:
        """Turning from ray u to ray v the short way: any separator swept over?"""
        if _ccw(u, v) < 2:
            return any(_strictly_between(s, u, v) for s in seps)
        return any(_strictly_between(s, v, u) for s in seps)

    def end_blocked(self, p: LPoint, u: Vec, cells: set[Sq]) -> bool:
        """The line reaches end point p from direction u (pointing back along the line)
        and goes on into one of ``cells`` (or, read backwards, comes out of one)."""
        seps = self.separators(p)
        free = False
        for dx, dy in ((1, -1), (1, 1), (-1, 1), (-1, -1)):
            if self.square_of_diag(p, (dx, dy)) not in cells:
                continue
            cx, cy = Fraction(dx), Fraction(dy)
            if u[0] * cx > 0 and u[1] * cy > 0:
                free = True  # the line came through this very square
            elif -u[0] * cx > 0 and -u[1] * cy > 0:
                free = free or not self.straight_blocked(u, seps)
            elif (u[0] == 0 and u[1] * cy > 0) or (u[1] == 0 and u[0] * cx > 0):
                free = True  # came along one of this square's own edges
            else:
                edges: list[Vec] = [(cx, Fraction(0)), (Fraction(0), cy)]
                back = _neg(u)

                def gap(e: Vec, back: Vec = back) -> Fraction:
                    return min(_ccw(back, e), _ccw(e, back))

                near = min(edges, key=gap)
                v: Vec = (_K * near[0] + cx, _K * near[1] + cy)
                free = free or not self.bent_blocked(u, v, seps)
        return not free

    def touch_blocked(self, p: LPoint) -> bool:
        """Zero-length line: the viewer's and the target's squares share corner p."""
        seps = self.separators(p)
        diags = ((1, -1), (1, 1), (-1, 1), (-1, -1))
        for dv in diags:
            if self.square_of_diag(p, dv) not in self.viewer:
                continue
            for dt in diags:
                if self.square_of_diag(p, dt) not in self.target:
                    continue
                cv: Vec = (Fraction(dv[0]), Fraction(dv[1]))
                ct: Vec = (Fraction(dt[0]), Fraction(dt[1]))
                if dv == (-dt[0], -dt[1]):
                    if not self.straight_blocked(cv, seps):
                        return False
                else:
                    # Neighbouring squares: cross their shared edge next to p.
                    shared: Vec = (cv[0], Fraction(0)) if dv[0] == dt[0] else (Fraction(0), cv[1])
                    u: Vec = (_K * shared[0] + cv[0], _K * shared[1] + cv[1])
                    v: Vec = (_K * shared[0] + ct[0], _K * shared[1] + ct[1])
                    if not self.bent_blocked(u, v, seps):
                        return False
        return True

    # -- the whole segment
    def blocked(self, o: tuple[int, int], t: LPoint) -> bool:
        ox, oy = Fraction(o[0]), Fraction(o[1])
        tx, ty = Fraction(t[0]), Fraction(t[1])
        if (ox, oy) == (tx, ty):
            return self.touch_blocked(t)
        dx, dy = tx - ox, ty - oy

        def at(s: Fraction) -> Vec:
            return (ox + s * dx, oy + s * dy)

        cuts: set[Fraction] = {Fraction(0), Fraction(1)}
        for o_, d_ in ((ox, dx), (oy, dy)):
            if d_ == 0:
                continue
            lo, hi = sorted((o_, o_ + d_))
            k = lo.__ceil__()
            for g in range(k, hi.__floor__() + 1):
                if g % 2 == 0:
                    s = (g - o_) / d_
                    if 0 < s < 1:
                        cuts.add(s)
        ts = sorted(cuts)
        # Pieces between cuts.
        for s0, s1 in itertools.pairwise(ts):
            mx, my = at((s0 + s1) / 2)
            if _even(mx):  # along a vertical grid line
                r = _floor_half(my)
                c = int(mx) // 2
                if self.wall((int(mx), 2 * r), (int(mx), 2 * r + 2)):
                    return True
                if self.blocks((r, c - 1)) and self.blocks((r, c)):
                    return True
            elif _even(my):
                c = _floor_half(mx)
                r = int(my) // 2
                if self.wall((2 * c, int(my)), (2 * c + 2, int(my))):
                    return True
                if self.blocks((r - 1, c)) and self.blocks((r, c)):
                    return True
            elif self.blocks((_floor_half(my), _floor_half(mx))):
                return True
        # Cut points strictly inside the segment.
        for s in ts[1:-1]:
            px, py = at(s)
            if _even(px) and _even(py):
                p = (int(px), int(py))
                u: Vec = (ox - px, oy - py)
                if self.straight_blocked(u, self.separators(p)):
                    return True
            elif _even(px):
                r = _floor_half(py)
                if self.wall((int(px), 2 * r), (int(px), 2 * r + 2)):
                    return True
            elif _even(py):
                c = _floor_half(px)
                if self.wall((2 * c, int(py)), (2 * c + 2, int(py))):
                    return True
        # End points: into the target's square, out of the viewer's.
        if self.end_blocked(t, (ox - tx, oy - ty), self.target):
            return True
        return bool(
            _even(ox) and _even(oy) and self.end_blocked((o[0], o[1]), (dx, dy), self.viewer)
        )


def line_blocked(
    m: OracleMap,
    origin: tuple[int, int],
    corner: LPoint,
    *,
    viewer: Iterable[Sq],
    target: Iterable[Sq],
) -> bool:
    """Is the segment origin -> corner (doubled coordinates) blocked on this map?"""
    return _Judge(m, viewer, target).blocked(origin, corner)


def footprint_corners(cells: Iterable[Sq]) -> list[LPoint]:
    """Every corner of every square of a footprint (FR-C1)."""
    pts = {(2 * c + dx, 2 * r + dy) for r, c in cells for dx in (0, 2) for dy in (0, 2)}
    return sorted(pts)


def pair_has_los(
    m: OracleMap,
    viewer: list[Sq],
    target: list[Sq],
    *,
    any_corner: bool = False,
) -> bool:
    """FR-L1/FR-L2/FR-C1 LOS by brute force: some origin reaches some target corner."""
    if any_corner:
        origins = footprint_corners(viewer)
    else:
        origins = [(2 * c + 1, 2 * r + 1) for r, c in viewer]
    judge = _Judge(m, viewer, target)
    return any(not judge.blocked(o, t) for t in footprint_corners(target) for o in origins)
