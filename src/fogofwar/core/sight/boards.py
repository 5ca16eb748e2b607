"""The sight models on a board: thin wrappers that take a :class:`~fogofwar.core.grid.Board`
(or anything with its opacity, Cyl, roads and walls: :class:`SightBoard`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final, Protocol

import numpy as np
import numpy.typing as npt

from .common import BoolArray, IntArray, _bool_grid, _int_grid
from .corner_report import Facing, ObscureRule, Origin, SightReport, corner_report
from .corner_table import CornerTable, corner_table
from .orthogonal import OrthogonalTable, orthogonal_table, orthogonal_visible

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
# so the corner-line model sees it as taller than any model: a report's obstruction
# lists it at this height, which the words of a report write as "blocks sight".
SOLID_CYL: Final = 999


def _board_cyl(board: SightBoard) -> IntArray:
    cy = _int_grid("board.cyl", board.cyl)
    op = _bool_grid("board.opaque", board.opaque, cy.shape)
    return np.where(op, SOLID_CYL, cy)


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
