"""What a seat would see from a square, for the web table's map (``sight_json``).

The answer is worked out from the map and the seat's **view** alone — the models as the
view shows them (a ping as a counter of Cyl 3: the Cyl every ping is placed with, and
which blocks nothing anyway), the doors as the view shows them open or closed, the
game's switches — by the game's own FEAR sight code (:meth:`.fear.Position.report`, and
:meth:`.fear.Position.report_if_seen` for a model's field of view), so it tells the seat
nothing its view does not (FR-L1…L5, FR-S2…S6, FR-C1).

From ``square`` looks the model the view shows standing there (not a ping: a counter
does not look), with its Cyl, state and facing, or else a stand-in: a hero of Cyl 3
seeing all round. Each other square a model may stand on is looked at: the model the
view shows there (the character or bogey rule for obscured targets, FR-S3/FR-S4), or a
stand-in bogey of Cyl 3 (FR-S3). The answer::

    {"from": "K7", "viewer": {"id": "H2" | null, "cyl": 3, "facing": "NE" | null},
     "seen": [...], "obscured": [...],            # all round (FR-L1, FR-S3…S6)
     "field": [...], "field_obscured": [...]}     # only with a model: its field of view (FR-L5)

``seen`` lists the squares with LOS (some corner line clear); ``obscured`` those of them
that are obscured but not entirely (a shot at +2, ZD-C3); squares with no LOS are in
neither. ``field``/``field_obscured`` say the same within the viewer model's field of
view — what it would turn over (FR-P3) and may shoot (ZD-C3) now. (A model may also
shoot a taller target whose cylinder alone it sees over lower obstacles, FR-S6: such a
target has no LOS and is in none of the lists.) A square that is not on the map, or one
no model may stand on, gets ``{"from", "error", "seen": [], "obscured": []}``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from ...core.errors import RulesError
from ...core.grid import Board, Edge
from .fear import FearRules, Model, Position
from .profiles import BOGEYS
from .sight import view_models

__all__ = ["PING_CYL", "STAND_IN_CYL", "seat_sight"]

STAND_IN_CYL: Final = 3
"""The Cyl of a stand-in viewer (a hero's) or target (a Grunt's)."""

PING_CYL: Final = BOGEYS["grunt"].cyl
"""A ping's Cyl: every ping is placed as a Grunt's counter (``state/pings.py``); the
view does not show it (FR-P4), but it is the same for all."""

VIEWER = "viewer"
TARGET = "target"


def _refusal(square: str, reason: str) -> dict[str, Any]:
    return {"from": square, "error": reason, "seen": [], "obscured": []}


def seat_sight(
    view: Mapping[str, Any], board: Board, options: Mapping[str, Any], square: str
) -> dict[str, Any]:
    """What the seat whose view is ``view`` would see from ``square`` (module doc)."""
    try:
        at = board.square(square)
    except RulesError as exc:
        return _refusal(square, str(exc))
    name = at.name
    if not board.terrain_at(at).passable:
        return _refusal(name, f"no model may stand on {name}: its terrain is impassable")
    rules = FearRules.from_options(options)
    models = view_models(view, board, ping_cyl=PING_CYL)
    opened = frozenset(Edge.parse(e) for e, is_open in view["doors"].items() if is_open)
    standing = next((m for m in models.values() if at in m.squares), None)
    if standing is None or standing.kind == "ping":
        # A stand-in looks from here; a ping under it is only a counter (it blocks
        # nothing, ruling) and makes way.
        models = {k: m for k, m in models.items() if at not in m.squares}
        viewer = Model(VIEWER, "hero", at, cyl=STAND_IN_CYL)
        models[VIEWER] = viewer
        own = False
    else:
        viewer = standing
        own = True
    position = Position(board, models, opened, rules)
    table = (
        position.terrain_table(viewer.sight_cyl)
        if rules.los_origin == "centre" and not viewer.big
        else None
    )
    seen: list[str] = []
    obscured: list[str] = []
    field: list[str] = []
    field_obscured: list[str] = []
    occupied = {sq: m for m in position.models.values() for sq in m.squares}
    for sq in board.squares():
        if sq in viewer.squares or not board.terrain_at(sq).passable:
            continue
        target = occupied.get(sq)
        big = target is not None and target.big
        if table is not None and not big and not table[at.row, at.col, sq.row, sq.col]:
            continue  # the bare map already hides it: no LOS at all (as the game asks)
        if target is None:
            pos = position.with_model(Model(TARGET, "bogey", sq, cyl=STAND_IN_CYL))
            target_id = TARGET
        else:
            pos, target_id = position, target.id
        report = pos.report(viewer.id, target_id, facing=False)
        if not report.los:
            continue
        seen.append(sq.name)
        if report.obscured:
            obscured.append(sq.name)
        if own:
            # The game's own question for turning pings over and shooting (FR-P3, ZD-C3).
            in_field = pos.report_if_seen(viewer.id, target_id)
            if in_field is not None and in_field.los:
                field.append(sq.name)
                if in_field.obscured:
                    field_obscured.append(sq.name)
    out: dict[str, Any] = {
        "from": name,
        "viewer": {
            "id": viewer.id if own else None,
            "cyl": viewer.sight_cyl,
            "facing": viewer.facing if own else None,
        },
        "seen": seen,
        "obscured": obscured,
    }
    if own:
        out["field"] = field
        out["field_obscured"] = field_obscured
    return out
