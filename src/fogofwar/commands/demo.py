"""``fogofwar demo`` — the main job of ``make demo``.

It shows what the kernel does, on the shipped demo board: the board itself, what a
viewer sees under the orthogonal model (Specter Ops), a corner-line explanation
(Zero Dark's FEAR grid), and exact odds tables computed by the dice module; then a
quick Specter Ops game between bots, drawn from a hunter's view and whole at the end.
"""

from __future__ import annotations

from rich.console import Console
from rich.panel import Panel
from rich.rule import Rule
from rich.table import Table

from ..core.dice import exploding_check, parse
from ..core.odds import percent
from ..core.sight import board_corner_report, board_orthogonal_visible
from .board import open_board
from .odds import dice_table


def demo(board_name: str, *, console: Console) -> None:
    """Print the kernel demo."""
    board = open_board(board_name)
    console.print(
        Panel.fit(
            "[bold]fogofwar[/] — a digital umpire for tabletop wargames.\n"
            "What the kernel under the games does, then a game of Specter Ops between bots.",
            border_style="cyan",
        )
    )

    console.print(Rule(f"1. A board: {board.name} ({board.width}×{board.height})"))
    from ..core.grid import render_rich

    console.print(render_rich(board, legend=True), soft_wrap=True)

    console.print(Rule("2. Orthogonal sight with the road rule (Specter Ops, SO-L1, SO-L2)"))
    viewer = board.square("H12")
    seen = board_orthogonal_visible(board, viewer, road_rule=True)
    squares = [sq for sq in board.squares() if seen[sq.row, sq.col]]
    console.print(
        f"A hunter on {viewer.name}, on the north-south road, sees {len(squares)} squares "
        "(shaded): its own column up to the first building, its row both ways, and the "
        "parallel lane of the road (I)."
    )
    console.print(render_rich(board, marks={viewer: "H"}, highlight=squares), soft_wrap=True)

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
        attack.add_row(str(distance), str(p), percent(p))
    console.print(attack)
    console.print(
        dice_table(parse("d10+2>=8"), title="A dice expression: d10+2 ≥ 8", width=console.width)
    )
    game_demo(console)
    others_demo(console)
    console.print(
        "Try: [bold]fogofwar odds dice '10d6kh3'[/], [bold]fogofwar los demo C10 F8[/], "
        "[bold]fogofwar odds specter-ops attack --hunter gun[/], "
        "[bold]fogofwar play zero-dark --mission the-spy[/], "
        "[bold]fogofwar play rock-n-roll[/], [bold]fogofwar play warfighter[/], "
        "[bold]fogofwar sim specter-ops -n 200[/], [bold]fogofwar --help[/]."
    )


def game_demo(console: Console, *, seed: int = 3, rounds: int = 12) -> None:
    """A quick Specter Ops game between the heuristic bots: the table halfway through as
    hunter1 sees it (the possibility map shaded), then the end, whole, and the result."""
    from ..bots import make_bot
    from ..core.game import get_ruleset
    from ..sim.runner import play_game

    rs = get_ruleset("specter-ops")
    config = rs.resolve_config({"players": 3, "max_rounds": rounds})
    bots = {seat: make_bot(rs.default_bots.get(seat, "random"), rs.id) for seat in rs.seats(config)}
    result = play_game(rs, config, seed, bots, bot_seed=seed)
    record = result.record
    if record is None:  # pragma: no cover - play_game keeps it by default
        return
    console.print(Rule(f"5. A game: Specter Ops, 3 players, heuristic bots, seed {seed}"))
    half = len(record.actions) // 2
    for i, state in enumerate(record.states(rs, clone=False)):
        if i == half:
            console.print(f"After {i} of {len(record.actions)} actions, as hunter1 sees it:")
            console.print(rs.render(state.view("hunter1"), config))
    console.print("The end, every secret shown:")
    console.print(rs.render(state.view(None), config))
    outcome = result.outcome
    console.print(
        f"[bold]Result:[/] {', '.join(sorted(outcome.sides))} won — {outcome.reason} "
        f"[{outcome.rule}], {result.length} actions."
    )


def others_demo(console: Console, *, seed: int = 1) -> None:
    """The other rule sets in a few lines each: one game between their heuristic bots
    (the result and the rule set's own figures) and the odds of a roll."""
    from ..bots import make_bot
    from ..core.game import get_ruleset
    from ..core.odds import find_query
    from ..sim.runner import play_game

    console.print(Rule("6. The other rule sets: a game each between heuristic bots"))
    games = (
        ("zero-dark", {"mission": "the-boss"}, "Zero Dark: the-boss", ("heroes_lost", "turns")),
        (
            "rock-n-roll",
            {"rounds": 3},
            "Rock-n-Roll, 3 rounds",
            ("prisoners_vietnam", "prisoners_vpa", "executed", "deals"),
        ),
        (
            "warfighter",
            {"mission": "dagon"},
            "Warfighter: Dagon",
            ("turns", "checks_failed", "soldiers_lost"),
        ),
    )
    table = Table("game", "result", "figures", title=f"seed {seed}")
    for ruleset_id, options, label, keys in games:
        rs = get_ruleset(ruleset_id)
        config = rs.resolve_config(options)
        bots = {s: make_bot(rs.default_bots.get(s, "random"), rs.id) for s in rs.seats(config)}
        result = play_game(rs, config, seed, bots, bot_seed=seed)
        outcome = result.outcome
        won = ", ".join(sorted(outcome.sides)) or "nobody"
        figures = ", ".join(f"{k} {result.metrics.get(k, 0):g}" for k in keys)
        table.add_row(label, f"{won} won: {outcome.reason} [{outcome.rule}]", figures)
    console.print(table)
    # The odds through the rule sets' declared queries, as `fogofwar odds` asks them.
    rnr, wf = get_ruleset("rock-n-roll"), get_ruleset("warfighter")
    execute = find_query(rnr.id, rnr.odds_queries(), "execute").ask().data
    check = find_query(wf.id, wf.odds_queries(), "check").ask({"need": 7, "modifier": -1}).data
    console.print(
        "Rock-n-Roll, executing a prisoner (5+ on one die, a natural 3 backfires): "
        + ", ".join(f"{k} {execute[k]}" for k in ("success", "backfire", "nothing"))
        + f"; Warfighter, a Pick 7+ check at -1: success {check['success']}."
    )
