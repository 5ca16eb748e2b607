"""Drawing a Zero Dark view in the terminal (rich), from the view alone.

Models are drawn by id (``H1``, ``B2``; the pings ``P3`` as the counters they are),
doors as the view says they stand; under the map: the turn, the hero acting, the
Control Deck and this activation's events.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text

from ...core.grid import Board, Edge, render_rich

__all__ = ["render_view"]


def _event_line(e: Mapping[str, Any]) -> str | None:
    kind = e["kind"]
    if kind == "flip":
        return f"flip {e['card']} ({e['left']} left)"
    if kind == "activated":
        return f"{e['model']} activates"
    if kind in ("ping_step", "bogey_step", "step"):
        return f"{e['model']} → {e['square']}"
    if kind == "ping_revealed":
        article = "an" if e["tier"][0] in "aeiou" else "a"
        return f"{e['ping']} is {article} {e['tier']} ({e['face']}): now {e['bogey']} [{e['rule']}]"
    if kind == "ping_placed":
        return f"{e['ping']} placed on {e['square']}"
    if kind == "complication":
        return f"complication ({e['card']})"
    if kind == "face":
        return f"{e['model']} faces {e['facing']}"
    if kind == "door":
        return f"{e['model']} {'opens' if e['open'] else 'closes'} the door {e['edge']}"
    if kind == "mission_end":
        return f"mission over: {e['reason']} [{e['rule']}]"
    return None


def render_view(view: Mapping[str, Any], board: Board) -> RenderableType:
    """The map with the models of ``view`` and the facts under it."""
    marks = {}
    for m in view["models"]:
        for name in m["squares"]:
            marks[board.square(name)] = m["id"][:3]
    opened = [Edge.parse(name) for name, is_open in view["doors"].items() if is_open]
    picture = render_rich(board, marks=marks, open_doors=opened)
    facts = Text(
        f"turn {view['turn']} · deck {view['deck']['left']} left · "
        + (f"{view['active']} acting, {view['steps']} steps" if view["active"] else "choose a hero")
        + (f" · acted: {', '.join(view['acted'])}" if view["acted"] else "")
    )
    heroes = [
        f"{m['id']} {m['squares'][0]} facing {m['facing']}"
        + ("" if m["state"] == "active" else f" ({m['state']})")
        for m in view["models"]
        if m["kind"] in ("hero", "ally")
    ]
    recent: list[str] = []
    for e in reversed(view["events"]):
        if e["kind"] == "activation":
            break
        line = _event_line(e)
        if line is not None:
            recent.append(line)
    parts: list[RenderableType] = [picture, facts, Text("; ".join(heroes))]
    if recent:
        parts.append(Text("\n".join(reversed(recent[-12:])), style="dim"))
    return Group(*parts)
