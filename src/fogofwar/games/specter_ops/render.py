"""Drawing a Specter Ops view in the terminal (rich).

Built from a seat's **view** alone (``PlayerView.data``) and the public board, never from
the game state: what is drawn is exactly what that seat may know. The hunters' possibility
map is shaded; the agent's own seat also sees its square, this turn's path and its
objective sites.

Cells are two characters wide. Priority of what a cell shows, highest first: a hunter on
foot, the vehicle (with the number of hunters aboard), a placed agent (``A!``, ``B!`` for
the second agent), the agent's own square in its seat's view (``A@``; ``A*`` after the
game, in every view), a Last Seen token
(``?1``/``?2``), an objective site (``O1``…, ``X1``… once completed), an escape point
(``E``), smoke (``~~``), then the terrain (``██`` blocking, ``··`` road).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from .geometry import Geometry

__all__ = ["render_view"]

POSSIBLE = "on grey23"
PATH = "on dark_red"


def _cells(view: Mapping[str, Any], geo: Geometry) -> dict[int, tuple[str, str]]:
    """What each marked square shows: ``index -> (two characters, style)``."""
    out: dict[int, tuple[str, str]] = {}

    def mark(name: str | None, text: str, style: str) -> None:
        if name is not None:
            out.setdefault(geo.parse(name), (text[:2].ljust(2), style))

    for h in view.get("hunters", []):
        if not h["aboard"]:
            mark(h["square"], h["id"], "bold magenta" if h["stunned"] else "bold cyan")
    aboard = sum(1 for h in view.get("hunters", []) if h["aboard"])
    vehicle = view.get("vehicle") or {}
    mark(vehicle.get("square"), f"V{aboard}" if aboard else "V", "bold blue")
    agents = [view.get("agent") or {}, view.get("agent2") or {}]
    for k, a in enumerate(agents):
        mark(a.get("revealed_at"), "A!" if k == 0 else "B!", "bold red")
    secret = view.get("secret") or {}
    mark(secret.get("square"), "A@", "bold red")
    final = view.get("final") or {}
    mark(final.get("agent_square"), "A*", "bold red")  # after the game: every secret
    mark((final.get("agent2") or {}).get("square"), "B*", "bold red")
    for k, a in enumerate(agents):
        mark(a.get("last_seen"), f"?{k + 1}", "bold yellow")
    sites = {o["sector"]: (o["site"], o["done"]) for o in view.get("objectives", [])}
    own = secret.get("objective_sites") or []
    for sector, (site, done) in sites.items():
        if site is None and sector - 1 < len(own):
            site = own[sector - 1]  # the agent's own map knows the hidden sites
        mark(site, f"{'X' if done else 'O'}{sector}", "bold green" if done else "green")
    for e in (*geo.escape, *(geo.escape_five if view.get("players") == 5 else ())):
        out.setdefault(e, ("E ", "bold white"))
    for name in view.get("smoke", []):
        mark(name, "~~", "white")
    return out


def _board(view: Mapping[str, Any], geo: Geometry) -> Text:
    cells = _cells(view, geo)
    possible = {geo.parse(n) for n in view.get("possible", [])}
    possible |= {geo.parse(n) for n in view.get("possible2") or []}
    path = {geo.parse(n) for n in (view.get("secret") or {}).get("path", [])}
    text = Text()
    header = "   " + "".join(geo.name(c)[:-1].ljust(2) for c in range(geo.width))
    text.append(header.rstrip() + "\n", style="dim")
    for row in range(geo.height):
        text.append(f"{row + 1:>2} ", style="dim")
        for col in range(geo.width):
            i = row * geo.width + col
            if i in cells:
                chars, style = cells[i]
            elif not geo.passable >> i & 1:
                chars, style = "██", "grey35"
            elif geo.road >> i & 1:
                chars, style = "··", "grey50"
            else:
                chars, style = "  ", ""
            if i in path:
                style += " " + PATH
            elif i in possible:
                style += " " + POSSIBLE
            text.append(chars, style=style.strip())
        text.append("\n")
    return text


def _facts(view: Mapping[str, Any], seat: str | None) -> Table:
    table = Table.grid(padding=(0, 2))
    table.add_column(style="bold")
    table.add_column()
    table.add_row("seat", seat or "spectator")
    table.add_row("round", f"{view.get('round')} of {view.get('max_rounds')}")
    table.add_row("phase", f"{view.get('phase')} — to act: {', '.join(view.get('to_act', []))}")
    agent = view.get("agent") or {}
    table.add_row(
        "agent",
        f"objectives {agent.get('objectives_done', 0)}/4, health "
        f"{agent.get('health') if agent.get('health') is not None else '?'}, character "
        f"{agent.get('character') or '?'}",
    )
    if view.get("agent2"):
        a2 = view["agent2"]
        table.add_row(
            "agent A2",
            f"health {a2.get('health') if a2.get('health') is not None else '?'}, "
            f"character {a2.get('character') or '?'}, escaped {a2.get('escaped')}",
        )
    hunters = ", ".join(
        f"{h['id']} {h['square']}{' (aboard)' if h['aboard'] else ''}"
        f"{' stunned' if h['stunned'] else ''}{' ' + h['character'] if h.get('character') else ''}"
        for h in view.get("hunters", [])
    )
    table.add_row("hunters", hunters)
    if view.get("role"):
        table.add_row("your role", str(view["role"]["role"]))
    if view.get("traitor"):
        t = view["traitor"]
        table.add_row(
            "traitor", f"revealed: {t['revealed'] or 'no'}, accusations {t['accusations']}"
        )
    secret = view.get("secret")
    if secret:
        table.add_row(
            "secret",
            f"on {secret['square']}, path {'-'.join(secret['path'])}, health "
            f"{secret['health']}, cards {secret.get('cards') or '-'}",
        )
    table.add_row("possible", f"{view.get('possible_count', 0)} squares (shaded)")
    outcome = view.get("outcome")
    if outcome:
        table.add_row("result", f"{', '.join(outcome['sides'])} won: {outcome['reason']}")
    final = view.get("final")
    if final:
        table.add_row("final", ", ".join(f"{k} {v}" for k, v in final.items()))
    return table


def _events(view: Mapping[str, Any]) -> Text:
    text = Text()
    for e in view.get("events", [])[-12:]:
        data = ", ".join(f"{k}={v}" for k, v in e.items() if k != "kind")
        text.append(f"· {e['kind']}", style="bold")
        text.append(f" {data}\n" if data else "\n")
    return text


def render_view(view: Mapping[str, Any], geo: Geometry, seat: str | None) -> RenderableType:
    """The board and the facts of one seat's view, as a rich renderable."""
    return Group(_board(view, geo), _facts(view, seat), _events(view))
