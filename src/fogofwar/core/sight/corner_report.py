"""Model 2 — corner lines (Zero Dark FEAR, FR-L1..FR-L5, FR-S2..FR-S6, FR-C1): the report.

:func:`corner_report` answers "what does this model see of that one?" with the umpire's
report (FR-S5); :func:`corner_sees` answers LOS only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal, TypeAlias

import numpy as np

from ..errors import RulesError
from ..grid import Square
from .common import XY, BoolArray, Cell, _cyl_value, _footprint, _int_grid, _name
from .corner_trace import (
    _CORNER_LABEL,
    _QUAD_OFFSET,
    Obstruction,
    _check_walls,
    _obstacle_heights,
    _trace,
    _World,
)

Facing: TypeAlias = Literal["NE", "SE", "SW", "NW"]
Origin: TypeAlias = Literal["centre", "any_corner"]
ObscureRule: TypeAlias = Literal["bogey", "character"]

STATUS_CLEAR: Final = "clear"
STATUS_OBSCURED: Final = "obscured"
STATUS_ENTIRELY_OBSCURED: Final = "entirely obscured"

_FACINGS: Final = ("NE", "SE", "SW", "NW")
_ORIGINS: Final = ("centre", "any_corner")
_OBSCURE_RULES: Final = ("bogey", "character")


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


def any_corner_in_view(viewer: Sequence[Cell], target: Sequence[Cell], facing: Facing) -> bool:
    """Whether some corner of ``target``'s footprint lies in the field of view of a
    ``viewer`` facing ``facing`` (FR-L5). When none does, no corner line gives LOS
    whatever lies between: the question :func:`corner_report` asks first, without a
    trace. Footprints are ``(row, col)`` squares (one, or a 2x2 block)."""
    if facing not in _FACINGS:
        raise RulesError(f"facing must be one of {_FACINGS}, got {facing!r}")
    vcells = sorted((int(r), int(c)) for r, c in viewer)
    tcells = sorted((int(r), int(c)) for r, c in target)
    return any(_in_view(corner, vcells, facing) for corner, _outer in _corners(tcells))


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
