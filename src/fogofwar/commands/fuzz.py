"""``fogofwar fuzz RULESET``: throw hostile input at a rule set and report what broke.

Runs :func:`fogofwar.sim.fuzz.fuzz` (random legal, illegal and malformed actions,
notation, JSON and encoding indices from every seat, after the end too) and, with
``--records N``, :func:`fogofwar.sim.tamper.check_tampering` on records of finished games.
Exit status 0 when nothing broke, 1 when something did (each finding is listed with the
game's seed and the input, so it can be reproduced), 2 for bad options.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn
from rich.table import Table

from ..core.game import Config, get_ruleset
from ..core.rng import stream
from ..sim.fuzz import FuzzReport, fuzz
from ..sim.runner import run_batch
from ..sim.tamper import TamperReport, check_tampering

__all__ = ["fuzz_command"]


def fuzz_command(
    ruleset_name: str,
    *,
    inputs: int,
    seed: int,
    sets: Sequence[str],
    records: int,
    json_out: bool,
    console: Console,
) -> int:
    """Fuzz one rule set; returns the exit status."""
    rs = get_ruleset(ruleset_name)
    config = rs.resolve_config(rs.config_schema.parse_sets(list(sets)))
    if json_out:
        report = fuzz(rs, config, inputs=inputs, seed=seed)
    else:
        with Progress(
            TextColumn(f"fuzzing {rs.id}"),
            BarColumn(),
            MofNCompleteColumn(),
            console=console,
            transient=True,
        ) as bar:
            task = bar.add_task("inputs", total=inputs)
            report = fuzz(
                rs,
                config,
                inputs=inputs,
                seed=seed,
                progress=lambda n: bar.update(task, completed=n),
            )
    tampering = _tamper(rs.id, config, seed, records) if records else None
    ok = report.ok and (tampering is None or tampering.ok)
    if json_out:
        out = report.to_json()
        if tampering is not None:
            out["records"] = {
                "trials": tampering.trials,
                "refused": tampering.refused,
                "verified": tampering.verified,
                "broken": [list(b) for b in tampering.broken],
            }
        console.print_json(json.dumps(out))
    else:
        _print(console, report, tampering)
    return 0 if ok else 1


def _tamper(ruleset: str, config: Config, seed: int, trials: int) -> TamperReport:
    """Tamper with the records of a few finished bot games, ``trials`` copies in all."""
    rs = get_ruleset(ruleset)
    games = max(1, min(5, trials // 20))
    batch = run_batch(rs, games=games, seed=seed, config_overrides=config, records=True)
    total = TamperReport()
    for i, game in enumerate(batch.games):
        if game.record is None:
            continue
        part = check_tampering(
            game.record, stream(seed, "tamper", ruleset, i), trials=trials // games
        )
        total.trials += part.trials
        total.refused += part.refused
        total.verified += part.verified
        total.broken += part.broken
        total.seconds += part.seconds
    return total


def _print(console: Console, report: FuzzReport, tampering: TamperReport | None) -> None:
    data = report.to_json()
    table = Table(title=f"fogofwar fuzz {report.ruleset} (seed {report.seed})")
    table.add_column("figure")
    table.add_column("value", justify="right")
    for key in (
        "inputs",
        "applied",
        "refused",
        "games",
        "finished",
        "checks",
        "crashes",
        "violations",
        "inputs_per_second",
    ):
        table.add_row(key.replace("_", " "), str(data[key]))
    if tampering is not None:
        table.add_row("tampered records", str(tampering.trials))
        table.add_row("  refused", str(tampering.refused))
        table.add_row("  still valid (meta only)", str(tampering.verified))
        table.add_row("  fooled the umpire", str(len(tampering.broken)))
    # They need not add up to the inputs: a line of notation may be several actions,
    # each applied or refused, and an input that reads as no action is refused once.
    table.caption = "applied and refused count actions; one line of notation may be several"
    console.print(table)
    for f in report.findings:
        console.print(
            f"[bold red]{f.kind}[/] game seed {f.game_seed}, after {f.position} actions, "
            f"input {escape(repr(f.input))}: {escape(f.message)}",
            highlight=False,
        )
    if tampering is not None:
        for what, problem in tampering.broken[:20]:
            console.print(f"[bold red]record[/] {escape(f'{what}: {problem}')}", highlight=False)
    if report.ruleless:
        kinds = ", ".join(f"{k} {n}" for k, n in sorted(report.ruleless.items()))
        console.print(f"[dim]refusals without a rule ID, by kind: {kinds}[/]", highlight=False)
