"""Line-of-sight models over a square grid, and precomputed visibility tables.

Two models live here; both are game-agnostic array functions (python-tcod style: the
geometry is a function of numpy arrays, options are keyword-only) with thin wrappers
that take a :class:`~fogofwar.core.grid.Board`.

Model 1 — orthogonal rays (Specter Ops, SO-L1, SO-L2, SO-L5)
    :func:`orthogonal_visible`, :func:`orthogonal_sees`, :func:`orthogonal_table`,
    :func:`orthogonal_runs`, :func:`orthogonal_runs_each`.

Model 2 — corner lines (Zero Dark FEAR, FR-L1..FR-L5, FR-S2..FR-S6, FR-C1)
    :func:`corner_report`, :func:`corner_sees`, :func:`corner_table`,
    :func:`line_obstructions`.

The geometry rulings are documented in ``docs/sight.md``; the comments in the modules say
why each piece is the way it is.

The package, one concept a module (import from the package):

* :mod:`~fogofwar.core.sight.common` — what both models share: coordinates (axis order,
  doubled coordinates), names, argument checks, :class:`VisibilityTable`.
* :mod:`~fogofwar.core.sight.orthogonal` — model 1.
* :mod:`~fogofwar.core.sight.corner_trace` — model 2's kernel: one line traced exactly
  and the obstructions it meets.
* :mod:`~fogofwar.core.sight.corner_report` — model 2's report (FR-S5).
* :mod:`~fogofwar.core.sight.corner_table` — model 2's all-pairs table.
* :mod:`~fogofwar.core.sight.boards` — both models on a :class:`~fogofwar.core.grid.Board`.
"""

from __future__ import annotations

from .boards import (
    SightBoard,
    board_corner_report,
    board_corner_table,
    board_orthogonal_table,
    board_orthogonal_visible,
)
from .boards import _board_cyl as _board_cyl
from .common import XY as XY
from .common import BoolArray as BoolArray
from .common import Cell as Cell
from .common import EdgeRef as EdgeRef
from .common import IntArray as IntArray
from .common import VisibilityTable, corner_name
from .corner_report import (
    STATUS_CLEAR,
    STATUS_ENTIRELY_OBSCURED,
    STATUS_OBSCURED,
    CornerLine,
    SightReport,
    any_corner_in_view,
    corner_report,
    corner_sees,
)
from .corner_report import Facing as Facing
from .corner_report import ObscureRule as ObscureRule
from .corner_report import Origin as Origin
from .corner_table import CornerTable, corner_table
from .corner_table import _corner_plan as _corner_plan
from .corner_trace import Event as Event
from .corner_trace import Obstruction, line_obstructions
from .corner_trace import ObstructionKind as ObstructionKind
from .corner_trace import _World as _World
from .orthogonal import (
    OrthogonalSight,
    OrthogonalTable,
    Run,
    orthogonal_runs,
    orthogonal_runs_each,
    orthogonal_sees,
    orthogonal_table,
    orthogonal_visible,
)

__all__ = [
    "STATUS_CLEAR",
    "STATUS_ENTIRELY_OBSCURED",
    "STATUS_OBSCURED",
    "CornerLine",
    "CornerTable",
    "Obstruction",
    "OrthogonalSight",
    "OrthogonalTable",
    "Run",
    "SightBoard",
    "SightReport",
    "VisibilityTable",
    "any_corner_in_view",
    "board_corner_report",
    "board_corner_table",
    "board_orthogonal_table",
    "board_orthogonal_visible",
    "corner_name",
    "corner_report",
    "corner_sees",
    "corner_table",
    "line_obstructions",
    "orthogonal_runs",
    "orthogonal_runs_each",
    "orthogonal_sees",
    "orthogonal_table",
    "orthogonal_visible",
]
