"""``fogofwar los``: explain line of sight between two squares on a board."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import typer
from rich.console import Console, Group
from rich.markup import escape
from rich.table import Table

from ..core.errors import RulesError
from ..core.grid import Board, Edge, Square, render_rich
from ..core.sight import board_corner_report, orthogonal_sees
from ..core.sight.boards import SOLID_CYL
from .board import open_board

FACINGS = ("NE", "SE", "SW", "NW")
ORIGINS = ("centre", "any_corner")
MODELS = ("orthogonal", "corner")


def _describe(obstructions: Sequence[dict[str, Any]]) -> str:
    parts = []
    for o in obstructions:
        what = o["kind"]
        if "squares" in o:
            what += " " + ", ".join(
                # An opaque square is listed at the model's "taller than anything" height,
                # which is in no board file: it is said as what it does.
                f"{s} (blocks sight)" if c >= SOLID_CYL else f"{s} (Cyl {c})"
                for s, c in zip(o["squares"], o["cyl"], strict=True)
            )
        if "walls" in o:
            what += " " + ", ".join(o["walls"])
        if "point" in o:
            what += " at " + o["point"]
        parts.append(what)
    return "; ".join(parts) or "—"


def _lines_table(lines: Sequence[dict[str, Any]]) -> Table:
    """The corner lines of a report (FR-S5): sight, and what blocks or interrupts each."""
    table = Table("corner", "from", "in view", "sight", "blocked by", "interrupted by")
    for line in lines:
        table.add_row(
            line["corner"],
            line["origin"],
            "yes" if line["in_view"] else "no",
            "[green]yes[/]" if line["sight"] else "[red]no[/]",
            _describe(line["blocked_by"]),
            _describe(line["interrupted_by"]),
        )
    return table


def _square(board: Board, text: str) -> Square:
    return board.square(text)


def _point(board: Board, name: str) -> tuple[float, float]:
    """``(x, y)`` of a square's centre (``"C10"``) or one of its corners (``"F8 nw"``),
    in squares from the board's top left."""
    square, _, corner = name.partition(" ")
    sq = board.square(square)
    x = sq.col + {"w": 0.0, "e": 1.0}.get(corner[1:2], 0.5)
    y = sq.row + {"n": 0.0, "s": 1.0}.get(corner[:1], 0.5)
    return x, y


def crossed(board: Board, origin: str, corner: str) -> set[Square]:
    """The squares a corner line from ``origin`` to ``corner`` passes through (for the
    drawing; the verdict comes from the sight rules, never from this)."""
    (x0, y0), (x1, y1) = _point(board, origin), _point(board, corner)
    steps = int(max(abs(x1 - x0), abs(y1 - y0)) * 64) + 2
    out: set[Square] = set()
    for k in range(1, steps):
        t = k / steps
        x, y = x0 + t * (x1 - x0), y0 + t * (y1 - y0)
        sq = Square(min(int(y), board.height - 1), min(int(x), board.width - 1))
        out.add(sq)
    return out


#: What the line drawing's colours mean (printed under it).
LINES_KEY = (
    "green: squares the lines with sight cross · red: the lines without · "
    "red letter: what blocks a line · yellow letter: what interrupts it (obscures)"
)


def _lines_picture(
    board: Board,
    lines: Sequence[dict[str, Any]],
    marks: dict[Square, str],
    console: Console,
    *,
    open_doors: Sequence[Edge] | None = None,
) -> None:
    """The board with each corner line's squares shaded and what blocks or interrupts
    each marked (FR-S5), under the table that says it in words."""
    ends = set(marks)
    seen: set[Square] = set()
    unseen: set[Square] = set()
    styles: dict[Square, str] = {}
    for line in lines:
        squares = crossed(board, line["origin"], line["corner"]) - ends
        (seen if line["sight"] else unseen).update(squares)
        for key, style in (
            ("interrupted_by", "bold black on yellow"),
            ("blocked_by", "bold white on red"),
        ):
            for o in line[key]:
                for name in o.get("squares", ()):
                    sq = board.square(name)
                    if sq not in ends:
                        styles[sq] = style
    shade = {sq: "on dark_red" for sq in unseen} | {sq: "on dark_green" for sq in seen}
    shade = {sq: style for sq, style in shade.items() if sq not in styles}  # letters win
    marks = dict(marks)
    for sq in styles:
        marks.setdefault(sq, board.terrain_at(sq).char)
    picture = render_rich(
        board, marks=marks, mark_styles=styles, highlight=shade, open_doors=open_doors
    )
    console.print(Group(picture), soft_wrap=True)
    console.print(LINES_KEY, style="dim", highlight=False)


def los(
    file: str,
    viewer_text: str,
    target_text: str,
    *,
    model: str,
    viewer_cyl: int,
    target_cyl: int,
    facing: str | None,
    origin: str,
    character: bool,
    road_rule: bool,
    open_doors: Sequence[str],
    json_out: bool,
    console: Console,
) -> None:
    """Print whether ``viewer`` sees ``target`` and why."""
    if model not in MODELS:
        raise RulesError(f"--model must be one of {', '.join(MODELS)}, got {model!r}")
    board = open_board(file)
    viewer = _square(board, viewer_text)
    target = _square(board, target_text)
    if model == "orthogonal":
        ortho = orthogonal_sees(
            board.opaque, viewer, target, roads=board.roads, road_rule=road_rule
        )
        if json_out:
            found = {"model": "orthogonal", "viewer": viewer.name, "target": target.name}
            typer.echo(json.dumps({**found, **ortho.to_json()}, indent=2))
            return
        verdict = "[green]sees[/]" if ortho.sees else "[red]does not see[/]"
        why = escape(f"{ortho.reason} [{ortho.rule}]")
        console.print(f"{viewer.name} {verdict} {target.name}: {why}")
        _picture(board, viewer, target, console, blockers=[ortho.blocker] if ortho.blocker else [])
        return
    if facing is not None and facing.upper() not in FACINGS:
        raise RulesError(f"--facing must be one of {', '.join(FACINGS)}, got {facing!r}")
    if origin not in ORIGINS:
        raise RulesError(f"--origin must be one of {', '.join(ORIGINS)}, got {origin!r}")
    doors = _open_doors(board, open_doors)
    report = board_corner_report(
        board,
        viewer,
        target,
        viewer_cyl=viewer_cyl,
        target_cyl=target_cyl,
        open_doors=doors if doors else None,
        origin=origin,  # type: ignore[arg-type]
        facing=facing.upper() if facing else None,  # type: ignore[arg-type]
        obscure_rule="character" if character else "bogey",
    )
    data: dict[str, Any] = report.to_json()
    if json_out:
        typer.echo(json.dumps({"model": "corner", **data}, indent=2))
        return
    colour = {"clear": "green", "obscured": "yellow"}.get(report.status, "red")
    console.print(
        f"{viewer.name} (Cyl {viewer_cyl}) → {target.name} (Cyl {target_cyl}): "
        f"[bold {colour}]{report.status}[/]" + ("" if report.los else " — no line of sight")
    )
    console.print(_lines_table(data["lines"]))
    _lines_picture(
        board,
        data["lines"],
        {viewer: "V", target: "T"},
        console,
        open_doors=doors if doors else None,
    )  # none given: as the board sets them


def _open_doors(board: Board, texts: Sequence[str]) -> list[Edge]:
    """``--open`` edges, each a door of ``board``: refused as typed, saying whether the
    square is off the board or the edge holds no door."""
    doors = []
    for text in texts:
        edge = Edge.parse(text)
        if not any(board.in_bounds(sq) for sq in edge.squares):
            raise RulesError(
                f"--open {text.strip()}: that square is off the board "
                f"({board.width} columns, {board.height} rows)"
            )
        if edge not in board.doors:
            raise RulesError(f"--open {text.strip()}: there is no door on that edge")
        doors.append(edge)
    return doors


def ruleset_los(
    file: str,
    viewer: str,
    target: str,
    *,
    ruleset: str,
    sets: Sequence[str],
    viewer_cyl: int,
    target_cyl: int,
    facing: str | None,
    origin: str,
    character: bool,
    open_doors: Sequence[str] | None,
    json_out: bool,
    console: Console,
) -> None:
    """Explain sight under a rule set's rules (its models, switches and states)."""
    from ..core.game import Ruleset, get_ruleset, registered_rulesets

    def _explains(r: Ruleset) -> bool:
        return type(r).explain_sight is not Ruleset.explain_sight

    rs = get_ruleset(ruleset)
    if not _explains(rs):
        having = [r.id for r in registered_rulesets().values() if _explains(r)]
        hint = " (Specter Ops' sight: --model orthogonal)" if rs.id == "specter-ops" else ""
        raise RulesError(
            f"{rs.id} has no sight explainer of its own{hint}; --ruleset takes "
            f"{', '.join(having) or 'none installed'}"
        )
    board = open_board(file)
    options: dict[str, Any] = dict(rs.config_schema.parse_sets(sets))
    if "los_origin" not in options and any(
        o.name == "los_origin" for o in rs.config_schema.options
    ):
        if origin not in ORIGINS:
            raise RulesError(f"--origin must be one of {', '.join(ORIGINS)}, got {origin!r}")
        options["los_origin"] = origin
    options.update(viewer_cyl=viewer_cyl, target_cyl=target_cyl, character=character)
    if facing is not None:
        options["facing"] = facing if facing.lower() == "all" else facing.upper()
    if open_doors is not None:
        doors = _open_doors(board, open_doors)
        options["open_doors"] = doors
    found = rs.explain_sight(board, viewer, target, options)
    report = found.report
    data: dict[str, Any] = {"model": "corner", **report.to_json(), **found.facts}
    if json_out:
        typer.echo(json.dumps(data, indent=2))
        return
    facts = found.facts
    v, t = facts["viewer"], facts["target"]
    colour = {"clear": "green", "obscured": "yellow"}.get(report.status, "red")
    view = "all round" if facts["field_of_view"] is None else f"facing {facts['field_of_view']}"
    # A model is named with its kind and square, a square as a square: "hero H1 on B9"
    # and "square H1" can never be taken for each other.
    console.print(
        f"{_who(v)} (Cyl {v['sight_cyl']}, {view}) → "
        f"{_who(t)} (Cyl {t['sight_cyl']}, {t['state']}): "
        f"[bold {colour}]{report.status}[/]" + ("" if report.los else " — no line of sight")
    )
    rng = "no route" if facts["range"] is None else str(facts["range"])
    console.print(
        f"range {rng} (FR-R1); {'engaged' if facts['engaged'] else 'not engaged'} (FR-S1)"
    )
    console.print(_lines_table(data["lines"]))
    _lines_picture(
        board, data["lines"], dict(found.marks), console, open_doors=options.get("open_doors")
    )


def _who(m: dict[str, Any]) -> str:
    """``hero H1 on B9``, or ``square H1`` for a square that holds no model."""
    squares = m.get("squares") or []
    if m["id"] in ("viewer", "target") and squares:  # an empty square: a stand-in looks
        return f"square {', '.join(squares)} (a {m['kind']} stand-in)"
    where = f" on {', '.join(squares)}" if squares else ""
    return f"{m['kind']} {m['id']}{where}"


def _picture(
    board: Board, viewer: Square, target: Square, console: Console, *, blockers: list[Square]
) -> None:
    marks = {viewer: "V", target: "T"}
    for b in blockers:
        marks.setdefault(b, "X")
    console.print(Group(render_rich(board, marks=marks)), soft_wrap=True)
