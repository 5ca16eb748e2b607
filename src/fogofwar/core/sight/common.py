"""What the two sight models share: coordinates, names, argument checks, visibility tables.

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
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeAlias

import numpy as np
import numpy.typing as npt

from ..errors import RulesError
from ..grid import Square

BoolArray: TypeAlias = npt.NDArray[np.bool_]
IntArray: TypeAlias = npt.NDArray[np.int64]
Cell: TypeAlias = tuple[int, int]
"""A square ``(row, col)``, or a lattice point ``(R, C)`` where the text says so."""
XY: TypeAlias = tuple[int, int]
"""A point in doubled coordinates ``(x, y)``."""
EdgeRef: TypeAlias = tuple[str, int, int]
"""An edge as ``(kind, row, col)``: ``"h"`` = top edge of ``(row, col)``, ``"v"`` = left."""


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
