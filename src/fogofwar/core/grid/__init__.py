"""Square boards: coordinates, the board file format, steps, paths and rendering.

.. important:: **Axis order is (row, col), everywhere.**

   A :class:`Square` is ``Square(row, col)``, 0-based, and every array on a
   :class:`Board` is indexed ``array[row, col]`` with shape ``(height, width)``
   (as in python-tcod and numpy images, *not* ``(x, y)``). Row 0 is the top row,
   printed as row ``1``; column 0 is printed as ``A``. So ``Square.parse("K17")`` is
   ``Square(row=16, col=10)`` and its terrain is ``board.passable[16, 10]``.

The package, one concept a module (import from the package; the names below are its
public API):

* :mod:`~fogofwar.core.grid.coords` — squares and their names, edges, the step
  directions, distances that ignore obstacles.
* :mod:`~fogofwar.core.grid.board` — terrain, :class:`Board` and the pieces a board
  file places (:class:`ModelSpec`).
* :mod:`~fogofwar.core.grid.boardfile` — the board file format (``docs/boards.md``),
  :func:`load_board`, the built-in boards.
* :mod:`~fogofwar.core.grid.steps` — one diagonal step and the diagonal rules.
* :mod:`~fogofwar.core.grid.movegraph` — :class:`MoveGraph`, the cached step tables and
  the searches on them.
* :mod:`~fogofwar.core.grid.moves` — :func:`reachable`, :func:`shortest_path`,
  :func:`distance` and the other movement functions.
* :mod:`~fogofwar.core.grid.render` — :func:`render_text` and :func:`render_rich`.
* :mod:`~fogofwar.core.grid.export` — :func:`board_json`, a board for drawing elsewhere.
"""

from __future__ import annotations

from .board import MAX_SIDE, ROAD_EW, ROAD_NS, Board, ModelSpec, Terrain
from .board import BoolArray as BoolArray
from .boardfile import builtin_board, builtin_board_text, builtin_boards, load_board, parse_board
from .coords import (
    DIRECTIONS,
    SIDES,
    Edge,
    Square,
    column_index,
    column_name,
    king_distance,
    manhattan,
)
from .export import board_json
from .movegraph import MoveGraph, SquareSet
from .moves import (
    can_step,
    distance,
    distance_map,
    move_graph,
    neighbours,
    reachable,
    shortest_path,
)
from .render import Segment as Segment
from .render import render_rich, render_text
from .steps import DIAGONAL_RULES, DiagonalRule, DiagonalStep

__all__ = [
    "DIAGONAL_RULES",
    "DIRECTIONS",
    "MAX_SIDE",
    "ROAD_EW",
    "ROAD_NS",
    "SIDES",
    "Board",
    "DiagonalRule",
    "DiagonalStep",
    "Edge",
    "ModelSpec",
    "MoveGraph",
    "Square",
    "SquareSet",
    "Terrain",
    "board_json",
    "builtin_board",
    "builtin_board_text",
    "builtin_boards",
    "can_step",
    "column_index",
    "column_name",
    "distance",
    "distance_map",
    "king_distance",
    "load_board",
    "manhattan",
    "move_graph",
    "neighbours",
    "parse_board",
    "reachable",
    "render_rich",
    "render_text",
    "shortest_path",
]
