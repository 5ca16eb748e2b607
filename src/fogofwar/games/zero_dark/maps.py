"""Zero Dark (FEAR) maps: the markers a map must have, and the shipped maps.

A Zero Dark map is a board file in the kernel's format (``docs/boards.md``): squares,
walls and doors on square edges, terrain items with a Cyl height and whether they are
passable (FR-G1, FR-G2). On top of the format, Zero Dark needs these markers:

``heroes``
    the heroes' deployment zone (at least 6 squares);
``ping``
    the ping sites where the Red Force starts face down (FR-P1; at least 8);
``deployment``
    the Red Force's deployment sites, where complications add pings (ZD-C6; at least 3);
``exit``
    the way out (at least 1);
``objective``
    the mission's objectives, e.g. a data terminal (at least 1).

Every marker square must be passable, and no square may be in two of ``heroes``,
``ping``, ``deployment`` and ``exit``. :func:`validate_map` checks this and
:func:`load_map` loads a shipped map (``zd-corridor``, ``zd-open``) or a file.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Final

from fogofwar.core.errors import BadDataError
from fogofwar.core.grid import Board, Square, builtin_board, load_board

__all__ = ["MAP_MARKERS", "SHIPPED_MAPS", "load_map", "validate_map"]

#: Marker name -> the least number of squares a Zero Dark map must give it.
MAP_MARKERS: Final[Mapping[str, int]] = MappingProxyType(
    {"heroes": 6, "ping": 8, "deployment": 3, "exit": 1, "objective": 1}
)

#: The Zero Dark maps shipped in ``fogofwar/data/boards`` (FR-G2): a corridor map and
#: an open grid map.
SHIPPED_MAPS: Final[tuple[str, ...]] = ("zd-corridor", "zd-open")

#: Markers that may not share a square: each square has one role at the start.
_DISJOINT: Final = ("heroes", "ping", "deployment", "exit")


def validate_map(board: Board) -> Board:
    """Check that ``board`` has the markers Zero Dark needs (FR-G2).

    Args:
        board: a loaded board.

    Returns:
        ``board`` itself, so that calls can be chained.

    Raises:
        BadDataError: naming the board's file and the marker's line, when a marker of
            :data:`MAP_MARKERS` is missing or has too few squares, a marker square is
            impassable, or a square lies in two of ``heroes``, ``ping``,
            ``deployment`` and ``exit``.
    """
    lines = board._marker_lines
    for name, least in MAP_MARKERS.items():
        squares = board.marker(name)
        if len(squares) < least:
            raise BadDataError(
                board.file,
                f"marker {name!r} to have at least {least} square{'s' if least != 1 else ''}",
                line=lines.get(name),
                found=f"{len(squares)} square{'s' if len(squares) != 1 else ''}",
            )
        for sq in squares:
            if not board.passable[sq]:
                raise BadDataError(
                    board.file,
                    f"passable squares in marker {name!r}",
                    line=lines.get(name),
                    found=f"{sq} ({board.terrain_at(sq).name})",
                )
    owner: dict[Square, str] = {}
    for name in _DISJOINT:
        for sq in board.markers[name]:
            first = owner.setdefault(sq, name)
            if first != name:
                raise BadDataError(
                    board.file,
                    f"each square in one of {', '.join(_DISJOINT)} "
                    f"(marker {name!r} repeats a square of {first!r})",
                    line=lines.get(name),
                    found=str(sq),
                )
    return board


def load_map(name: str) -> Board:
    """Load and validate a Zero Dark map.

    Args:
        name: the name of a built-in board (``"zd-corridor"``), or the path of a
            ``.board`` file (anything containing a path separator or ending in
            ``.board``).

    Raises:
        BadDataError: the file does not parse or lacks what :func:`validate_map` checks.
        LookupError: no built-in board of that name.
        OSError: the file cannot be read.
    """
    if name.endswith(".board") or "/" in name or "\\" in name:
        return validate_map(load_board(Path(name)))
    return validate_map(builtin_board(name))
