"""The umpire's sight explainer for Zero Dark (``fogofwar los MAP FROM TO --ruleset zero-dark``).

The map file may place models (its ``[models]`` section); FROM and TO name a model by
id or a square. A square with a model on it means that model; an empty square gets a
stand-in (a hero looking from it, a bogey or a character to be seen on it) with the
Cyl and facing the options give. The answer is the corner-line report (FR-S5) with the
other models as obstacles, plus the range (FR-R1) and engagement (FR-S1).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from ...core.errors import RulesError
from ...core.game import SightExplanation
from ...core.grid import Board, Edge
from ...core.sight import SightReport
from .fear import FearRules, Model, Position, models_of

__all__ = ["explain_sight"]


def _resolve(
    text: str, models: dict[str, Model], board: Board, *, role: str, options: Mapping[str, Any]
) -> Model:
    if text in models:
        return models[text]
    try:
        square = board.square(text)
    except RulesError:
        known = ", ".join(models) or "none"
        raise RulesError(
            f"{role} {text!r} is neither a model of the map (models: {known}) nor a square"
        ) from None
    for m in models.values():
        if square in m.squares:
            return m
    if role == "viewer":
        return Model("viewer", "hero", square, cyl=int(options.get("viewer_cyl", 3)), facing="NE")
    kind = "hero" if options.get("character") else "bogey"
    return Model("target", kind, square, cyl=int(options.get("target_cyl", 3)))  # type: ignore[arg-type]


def _explain(
    position: Position, v: Model, t: Model, *, all_round: bool
) -> tuple[SightReport, dict[str, Any]]:
    """The report from ``v`` to ``t`` and the facts every explainer gives: the two
    models, the field of view, the status, range (FR-R1) and engagement (FR-S1)."""
    report = position.report(v.id, t.id, facing=not all_round)
    # A stand-in (an empty square) has no facing of its own: the viewer's is the one
    # given, else it looks all round; the target's plays no part (FR-L5).
    return report, {
        "viewer": _describe(v, stand_in=v.id == "viewer" and all_round),
        "target": _describe(t, stand_in=t.id == "target"),
        "field_of_view": None if all_round else v.facing,
        "sees": report.los,
        "status": report.status,
        "range": position.range(v.id, t.id),
        "engaged": position.engaged(v.id, t.id),
    }


def _describe(m: Model, *, stand_in: bool = False) -> dict[str, Any]:
    return {
        "id": m.id,
        "kind": m.kind,
        "squares": [s.name for s in m.squares],
        "cyl": m.cyl,
        "sight_cyl": m.sight_cyl,
        "facing": None if stand_in else m.facing,
        "state": str(m.state),
    }


def explain_sight(
    board: Board, viewer: str, target: str, options: Mapping[str, Any]
) -> SightExplanation:
    """Explain what ``viewer`` sees of ``target`` on ``board``.

    Options: ``los_origin``, ``diagonal_block``, ``engage_through_walls`` (the rule
    set's switches), ``open_doors`` (edges; default: the doors as the file sets them),
    ``facing`` (override the viewer's facing; ``"all"`` for all round, the default for
    a stand-in viewer), ``viewer_cyl``, ``target_cyl``, ``character`` (stand-ins).
    """
    rules = FearRules.from_options(options)
    models = {m.id: m for m in models_of(board)}
    v = _resolve(viewer, models, board, role="viewer", options=options)
    t = _resolve(target, models, board, role="target", options=options)
    if v.id == t.id:
        raise RulesError(f"the viewer and the target are the same model ({v.id})")
    facing = options.get("facing")
    all_round = facing == "all" or (facing is None and v.id == "viewer")
    if facing not in (None, "all"):
        v = replace(v, facing=str(facing).upper())  # type: ignore[arg-type]
    models[v.id] = v
    models[t.id] = t
    doors = options.get("open_doors")
    if doors is None:
        opened = frozenset(e for e, is_open in board.doors.items() if is_open)
    else:
        opened = frozenset(Edge.parse(str(e)) if not isinstance(e, Edge) else e for e in doors)
    position = Position(board, models, opened, rules)
    report, facts = _explain(position, v, t, all_round=all_round)
    facts = {
        "ruleset": "zero-dark",
        **facts,
        "rules": {
            "los_origin": rules.los_origin,
            "diagonal_block": rules.diagonal_block,
            "engage_through_walls": rules.engage_through_walls,
        },
    }
    marks: dict[Any, str] = {}
    for m in models.values():
        for sq in m.squares:
            marks[sq] = m.id[:3]
    for sq in v.squares:
        marks[sq] = "V"
    for sq in t.squares:
        marks[sq] = "T"
    return SightExplanation(report, facts, marks)


def view_models(view: Mapping[str, Any], board: Board, *, ping_cyl: int = 3) -> dict[str, Model]:
    """The models as a seat's view shows them; a ping, whose Cyl the view does not
    give, as ``ping_cyl``."""
    out: dict[str, Model] = {}
    for m in view["models"]:
        squares = [board.square(name) for name in m["squares"]]
        out[m["id"]] = Model(
            m["id"],
            m["kind"],
            squares[0],
            cyl=int(m["cyl"]) if "cyl" in m else ping_cyl,
            facing=m["facing"],
            state=m["state"],
            team=m.get("team", ""),
            tier=m.get("tier", ""),
        )
    return out


def explain_view(
    view: Mapping[str, Any], board: Board, options: Mapping[str, Any], viewer: str, target: str
) -> SightExplanation:
    """The explainer on a seat's view (``los H1 B2`` at the table): the models as the view
    shows them (a ping as a counter of unknown Cyl, which blocks nothing anyway), the
    doors as they stand, the game's switches."""
    rules = FearRules.from_options(options)
    models = view_models(view, board)
    opened = frozenset(Edge.parse(name) for name, is_open in view["doors"].items() if is_open)
    v = _resolve(viewer, models, board, role="viewer", options=options)
    t = _resolve(target, models, board, role="target", options=options)
    if v.id == t.id:
        raise RulesError(f"the viewer and the target are the same model ({v.id})")
    models[v.id] = v
    models[t.id] = t
    position = Position(board, models, opened, rules)
    report, facts = _explain(position, v, t, all_round=v.id == "viewer")
    return SightExplanation(report, facts, {sq: "V" for sq in v.squares})
