"""``fogofwar board show``: draw a board file or a built-in board."""

from __future__ import annotations

import json
from pathlib import Path

import typer
from rich.console import Console
from rich.markup import escape

from ..core.errors import RulesError
from ..core.grid import (
    Board,
    Square,
    builtin_board,
    builtin_boards,
    load_board,
    render_rich,
    render_text,
)


def open_board(name: str) -> Board:
    """Load ``name`` as a file if one exists there, else as a built-in board's name."""
    path = Path(name)
    if path.exists() or path.suffix == ".board" or "/" in name:
        return load_board(path)
    if name in builtin_boards():
        return builtin_board(name)
    known = ", ".join(builtin_boards())
    raise RulesError(f"no board file {name!r} and no built-in board of that name ({known})")


def board_json(board: Board) -> dict[str, object]:
    """The board's data as JSON: size, terrain rows, legend, doors, markers."""
    return {
        "name": board.name,
        "width": board.width,
        "height": board.height,
        "terrain": list(board.terrain),
        "legend": {
            ch: {"name": t.name, "passable": t.passable, "opaque": t.opaque, "cyl": t.cyl}
            for ch, t in board.legend.items()
        },
        "doors": {
            edge.name: ("open" if is_open else "closed") for edge, is_open in board.doors.items()
        },
        "markers": {k: [s.name for s in v] for k, v in board.markers.items()},
        "models": [
            {"id": m.id, "kind": m.kind, "square": m.square.name, **dict(m.attrs)}
            for m in board.models
        ],
    }


def board_show(name: str, *, plain: bool, json_out: bool, console: Console) -> None:
    """Print a board."""
    board = open_board(name)
    if json_out:
        typer.echo(json.dumps(board_json(board), indent=2))
    elif plain:
        typer.echo(render_text(board, legend=True, marks=_model_marks(board)), nl=False)
    else:
        console.print(f"[bold]{escape(board.name)}[/] — {board.width}×{board.height}")
        console.print(render_rich(board, legend=True, marks=_model_marks(board)), soft_wrap=True)


def _model_marks(board: Board) -> dict[Square, str]:
    """The pieces a board file places, drawn by their ids (at most 3 characters) on
    every square each covers, as the first rule set that reads them draws them (a Zero
    Dark Cyl 6 model covers 2×2 squares, as `los --ruleset zero-dark` draws it); on
    the square the file names where no rule set reads them."""
    if not board.models:
        return {}
    from ..core.game import registered_rulesets

    for ruleset in registered_rulesets().values():
        marks = ruleset.board_marks(board)
        if marks is not None:
            return dict(marks)
    return {m.square: m.id[:3] for m in board.models}
