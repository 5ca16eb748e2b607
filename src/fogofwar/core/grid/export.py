"""A board as JSON, for drawing it elsewhere (the web table's SVG): every square with its
terrain, the walls, the doors as the file places them, the roads and the markers.

Axis order: each square carries ``x`` (its column) and ``y`` (its row), 0-based from the
top left, as an SVG draws them; ``name`` is the board notation (``K17``). A wall or door
is a segment between two grid points ``[x1, y1, x2, y2]`` in square units. Everything
here is the board file's: a rule set exports only a board whose every fact is public.
"""

from __future__ import annotations

from typing import Any

from .board import ROAD_EW, ROAD_NS, Board
from .coords import Edge

__all__ = ["board_json", "edge_segment"]


def edge_segment(edge: Edge) -> list[int]:
    """The segment ``[x1, y1, x2, y2]`` of a square edge, in square units."""
    if edge.kind == "h":
        return [edge.col, edge.row, edge.col + 1, edge.row]
    return [edge.col, edge.row, edge.col, edge.row + 1]


def board_json(board: Board) -> dict[str, Any]:
    """The board as JSON (see the module documentation)."""
    squares = []
    for sq in board.squares():
        t = board.terrain_at(sq)
        road = int(board.roads[sq.row, sq.col])
        squares.append(
            {
                "name": sq.name,
                "x": sq.col,
                "y": sq.row,
                "terrain": t.name,
                "passable": bool(t.passable),
                "opaque": bool(t.opaque),
                "cyl": int(t.cyl),
                "road": [d for d, bit in (("ew", ROAD_EW), ("ns", ROAD_NS)) if road & bit],
            }
        )
    walls = [
        [c, r, c + 1, r]
        for r in range(board.height + 1)
        for c in range(board.width)
        if board.walls_h[r, c]
    ] + [
        [c, r, c, r + 1]
        for r in range(board.height)
        for c in range(board.width + 1)
        if board.walls_v[r, c]
    ]
    return {
        "name": board.name,
        "width": board.width,
        "height": board.height,
        "squares": squares,
        "walls": walls,
        "doors": [{"segment": edge_segment(e), "open": bool(o)} for e, o in board.doors.items()],
        "markers": {name: [s.name for s in sqs] for name, sqs in board.markers.items()},
    }
