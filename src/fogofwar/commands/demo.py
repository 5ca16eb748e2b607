"""``fogofwar demo`` — the main job of ``make demo`` until a game lands.

It shows what the kernel does, on the shipped demo board: the board itself, what a
viewer sees under the orthogonal model (Specter Ops), a corner-line explanation
(Zero Dark's FEAR grid), and exact odds tables computed by the dice module.
"""

from __future__ import annotations

from rich.console import Console
from rich.panel import Panel
from rich.rule import Rule
from rich.table import Table

from ..core.dice import exploding_check, parse
from ..core.sight import board_corner_report, board_orthogonal_visible
from .board import open_board
from .odds import dice_table


def demo(board_name: str, *, console: Console) -> None:
    """Print the kernel demo."""
    board = open_board(board_name)
    console.print(
        Panel.fit(
            "[bold]fogofwar[/] — a digital umpire for tabletop wargames.\n"
            "No game has landed yet; this is what the kernel under them does.",
            border_style="cyan",
        )
    )

    console.print(Rule(f"1. A board: {board.name} ({board.width}×{board.height})"))
    from ..core.grid import render_rich

    console.print(render_rich(board, legend=True))

    console.print(Rule("2. Orthogonal sight with the road rule (Specter Ops, SO-L1, SO-L2)"))
    viewer = board.square("H12")
    seen = board_orthogonal_visible(board, viewer, road_rule=True)
    squares = [sq for sq in board.squares() if seen[sq.row, sq.col]]
    console.print(
        f"A hunter on {viewer.name}, on the north-south road, sees {len(squares)} squares "
        "(shaded): its own column up to the first building, its row both ways, and the "
        "parallel lane of the road (I)."
    )
    console.print(render_rich(board, marks={viewer: "H"}, highlight=squares))

    console.print(Rule("3. Corner lines (Zero Dark FEAR, FR-L1, FR-L3, FR-S5)"))
    for v_text, t_text in (("C10", "F8"), ("J5", "L3")):
        v, t = board.square(v_text), board.square(t_text)
        report = board_corner_report(board, v, t, viewer_cyl=3, target_cyl=3)
        table = Table(
            "corner",
            "sight",
            "blocked or interrupted by",
            title=f"{v.name} → {t.name}: {report.status}",
        )
        for line in report.to_json()["lines"]:
            obstacles = line["blocked_by"] or line["interrupted_by"]
            what = "; ".join(
                o["kind"] + " " + ", ".join(o.get("squares", []) + o.get("walls", []))
                for o in obstacles
            )
            table.add_row(line["corner"], "yes" if line["sight"] else "no", what or "—")
        console.print(table)

    console.print(Rule("4. Exact odds"))
    attack = Table(title="Specter Ops attack: d6, a natural 1 misses, 6s explode (SO-X1…X5)")
    attack.add_column("distance", justify="right")
    attack.add_column("P(hit)", justify="right")
    attack.add_column("%", justify="right")
    for distance in range(1, 11):
        p = exploding_check(6, distance).dist().prob_at_least(1)
        attack.add_row(str(distance), str(p), f"{float(p) * 100:.2f}")
    console.print(attack)
    console.print(dice_table(parse("d10+2>=8"), title="Warfighter-style check: d10+2 ≥ 8"))
    console.print(
        "Try: [bold]fogofwar odds dice '10d6kh3'[/], [bold]fogofwar los demo C10 F8[/], "
        "[bold]fogofwar board show demo[/], [bold]fogofwar --help[/]."
    )
