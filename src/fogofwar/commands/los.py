"""``fogofwar los``: explain line of sight between two squares on a board."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import typer
from rich.console import Console, Group
from rich.table import Table

from ..core.errors import RulesError
from ..core.grid import Board, Edge, Square, render_rich
from ..core.sight import board_corner_report, orthogonal_sees
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
                f"{s} (Cyl {c})" for s, c in zip(o["squares"], o["cyl"], strict=True)
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
        console.print(f"{viewer.name} {verdict} {target.name}: {ortho.reason} [{ortho.rule}]")
        _picture(board, viewer, target, console, blockers=[ortho.blocker] if ortho.blocker else [])
        return
    if facing is not None and facing.upper() not in FACINGS:
        raise RulesError(f"--facing must be one of {', '.join(FACINGS)}, got {facing!r}")
    if origin not in ORIGINS:
        raise RulesError(f"--origin must be one of {', '.join(ORIGINS)}, got {origin!r}")
    doors = [Edge.parse(t) for t in open_doors]
    for edge in doors:
        if edge not in board.doors:
            raise RulesError(f"--open {edge.name}: there is no door on that edge")
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
    _picture(board, viewer, target, console, blockers=[])


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
    from ..core.game import get_ruleset

    rs = get_ruleset(ruleset)
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
        doors = [Edge.parse(t) for t in open_doors]
        for edge in doors:
            if edge not in board.doors:
                raise RulesError(f"--open {edge.name}: there is no door on that edge")
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
    console.print(
        f"{v['id']} ({v['kind']}, Cyl {v['sight_cyl']}, {view}) → "
        f"{t['id']} ({t['kind']}, Cyl {t['sight_cyl']}, {t['state']}): "
        f"[bold {colour}]{report.status}[/]" + ("" if report.los else " — no line of sight")
    )
    rng = "no route" if facts["range"] is None else str(facts["range"])
    console.print(
        f"range {rng} (FR-R1); {'engaged' if facts['engaged'] else 'not engaged'} (FR-S1)"
    )
    console.print(_lines_table(data["lines"]))
    console.print(Group(render_rich(board, marks=dict(found.marks))), soft_wrap=True)


def _picture(
    board: Board, viewer: Square, target: Square, console: Console, *, blockers: list[Square]
) -> None:
    marks = {viewer: "V", target: "T"}
    for b in blockers:
        marks.setdefault(b, "X")
    console.print(Group(render_rich(board, marks=marks)), soft_wrap=True)
