"""``fogofwar study FILE.toml``: a balance study — every cell of a study file played,
``results.json`` and ``games.jsonl`` written, the cells and their comparisons printed."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.table import Table

from ..core.game import JSON
from ..sim.command import progress_bar
from ..sim.study import load_study, run_study


def study(
    file: str, *, out: str | None, workers: int | None, json_out: bool, console: Console
) -> None:
    """Run the study ``file``; write its results into ``out`` (default: a folder named
    after the file, beside it)."""
    spec = load_study(file)
    folder = Path(out) if out else Path(file).with_suffix("")
    folder.mkdir(parents=True, exist_ok=True)
    total = spec.games * len(spec.cells)
    done: dict[str, int] = {}
    games_path = folder / "games.jsonl"
    with (
        games_path.open("w", encoding="utf-8") as games,
        progress_bar(total, enabled=not json_out, label="study") as report,
    ):

        def count(cell: str, n: int, _per_cell: int) -> None:
            done[cell] = n
            if report is not None:
                report(sum(done.values()), total)

        def write(line: dict[str, JSON]) -> None:
            games.write(json.dumps(line, ensure_ascii=False, sort_keys=True) + "\n")

        results = run_study(
            spec, workers=workers or os.cpu_count() or 1, progress=count, on_game=write
        )
    (folder / "results.json").write_text(
        json.dumps(results, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    if json_out:
        typer.echo(json.dumps(results, indent=2, ensure_ascii=False))
        return
    _print(results, console)
    console.print(f"Written: {folder / 'results.json'}, {games_path}", highlight=False)


def _print(results: Mapping[str, Any], console: Console) -> None:
    """The cells' win rates (95% intervals) and the comparisons' sentences."""
    cells = results["cells"]
    sides = list(cells[0]["wins"]) if cells else []
    table = Table(title=f"{results['study']}: {results['games_per_cell']} games a cell")
    table.add_column("cell")
    for side in sides:
        table.add_column(f"{side} wins", justify="right")
    table.add_column("draws", justify="right")
    for cell in cells:
        row = [str(cell["name"])]
        for side in sides:
            w = cell["wins"][side]
            low, high = w["ci95"]
            row.append(f"{w['rate'] * 100:.1f}% [{low * 100:.1f}, {high * 100:.1f}]")
        row.append(f"{cell['draws']['rate'] * 100:.1f}%")
        table.add_row(*row)
    console.print(table)
    for c in results["comparisons"]:
        console.print(f"· {c['sentence']}", highlight=False)
