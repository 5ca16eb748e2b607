"""The ``fogofwar sim`` command: play a batch of games between bots and report win rates.

Registered by the CLI as ``app.command("sim")(sim_command)``. Bad input (an unknown rule
set, seat, bot or option, a bad value) prints one line on stderr and exits with code 2.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from fogofwar.core.errors import RulesError
from fogofwar.core.game import Ruleset, get_ruleset

from .report import print_study
from .runner import (
    MAX_GAMES,
    BatchResult,
    ProgressCallback,
    check_backend,
    resolve_seats,
    run_batch,
    write_jsonl,
)
from .stats import Interval, interval_text
from .study import build_study, run_study

__all__ = ["parse_seats", "sim_command"]


def parse_seats(assignments: Sequence[str]) -> dict[str, str]:
    """Parse ``--seat SEAT=BOT`` values into ``{seat: bot}`` (seats are checked later).

    Raises:
        RulesError: not of the form ``SEAT=BOT``, or a seat given twice.
    """
    out: dict[str, str] = {}
    for text in assignments:
        seat, sep, bot = (part.strip() for part in text.partition("="))
        if not sep or not seat or not bot:
            raise RulesError(f"--seat expects SEAT=BOT, got {text!r}")
        if seat in out:
            raise RulesError(f"--seat {seat} given twice")
        out[seat] = bot
    return out


def sim_command(
    ruleset: Annotated[
        str, typer.Argument(metavar="RULESET", help="Rule set id, alias or module:attr.")
    ],
    games: Annotated[
        int, typer.Option("--games", "-n", metavar="N", min=1, max=MAX_GAMES, help="Games to play.")
    ] = 100,
    seed: Annotated[
        int,
        typer.Option(
            metavar="N",
            min=0,
            max=2**64 - 1,
            help="Batch seed, 0 to 2**64 - 1: the same seed plays the same games.",
        ),
    ] = 0,
    seat: Annotated[
        list[str] | None,
        typer.Option(
            "--seat", metavar="SEAT=BOT", help="SEAT=BOT; repeatable. Unnamed seats play 'random'."
        ),
    ] = None,
    set_: Annotated[
        list[str] | None,
        typer.Option(
            "--set", metavar="OPTION=VALUE", help="OPTION=VALUE rule set option; repeatable."
        ),
    ] = None,
    workers: Annotated[
        int | None,
        typer.Option(metavar="N", min=1, help="Worker processes (default: this machine's cores)."),
    ] = None,
    records: Annotated[
        str | None,
        typer.Option(
            "--records",
            metavar="FOLDER",
            help="Save every game's record in this folder (game-0000.json …).",
        ),
    ] = None,
    out: Annotated[
        str | None,
        typer.Option(
            "--out",
            metavar="FILE.jsonl",
            help="Also write one JSON line per game: seed, winner, length, metrics.",
        ),
    ] = None,
    backend: Annotated[
        str,
        typer.Option(metavar="local|ray", help="Where the games run."),
    ] = "local",
    address: Annotated[
        str | None,
        typer.Option(metavar="ADDR", help="With --backend ray: join this Ray cluster."),
    ] = None,
    vary: Annotated[
        list[str] | None,
        typer.Option(
            "--vary",
            metavar="OPTION=V1,V2",
            help="Play a cell per value (every combination, with several); repeatable. "
            "The quick form of fogofwar study.",
        ),
    ] = None,
    json_out: Annotated[
        bool, typer.Option("--json", help="Print JSON with exact counts instead of a table.")
    ] = False,
) -> None:
    """Play a batch of games between bots and report each side's win rate (95% Wilson CI)."""
    try:
        rs = get_ruleset(ruleset)
        overrides = rs.config_schema.parse_sets(set_ or [])
        seats = parse_seats(seat or [])
        check_backend(backend, address)
        # Where the results go, checked before any game is played: a batch of minutes
        # was lost to an --out that named a folder.
        check_outputs(records=records, out=out)
        if vary:
            if records is not None:
                raise RulesError("--records keeps one configuration's games: not with --vary")
            _sim_study(
                rs, overrides, seats, vary, games, seed, workers, out, json_out, backend, address
            )
            return
        # Check everything before the progress bar starts, so an error is one clean line.
        resolve_seats(rs, rs.resolve_config(overrides), seats)
        with progress_bar(games, enabled=not json_out) as report:
            result = run_batch(
                rs,
                games=games,
                seed=seed,
                seats=seats,
                config_overrides=overrides,
                workers=workers or os.cpu_count() or 1,
                progress=report,
                records=records is not None,
                backend=backend,
                address=address,
            )
        if records is not None:
            _save_records(result, records)
        if out is not None:
            write_jsonl(out, result.game_lines())
    except RulesError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    if json_out:
        typer.echo(json.dumps(result.to_json(), indent=2, ensure_ascii=False))
    else:
        _print_table(result, rs.metadata.name)


def _sim_study(
    rs: Ruleset,
    overrides: dict[str, Any],
    seats: dict[str, str],
    vary: Sequence[str],
    games: int,
    seed: int,
    workers: int | None,
    out: str | None,
    json_out: bool,
    backend: str = "local",
    address: str | None = None,
) -> None:
    """``sim --vary``: a study of the cells the values make, printed as ``study`` does."""
    values: dict[str, list[Any]] = {}
    for item in vary:
        key, sep, text = item.partition("=")
        if not sep or not key or not text:
            raise RulesError(f"--vary {item!r}: expected OPTION=V1,V2")
        if key in overrides or key in values:
            # The later would silently win; a study file refuses the same.
            again = "--set" if key in overrides else "--vary"
            raise RulesError(f"--vary {key} and {again} {key}: give each option once")
        values[key] = [rs.config_schema.parse_sets([f"{key}={v}"])[key] for v in text.split(",")]
    spec = build_study(
        "sim", rs, config=overrides, seats=seats, games=games, seed=seed, vary=values
    )
    lines: list[dict[str, Any]] = []
    with progress_bar(games * len(spec.cells), enabled=not json_out) as report:
        results = run_study(
            spec, workers=workers or os.cpu_count() or 1, progress=report,
            on_game=lines.append, backend=backend, address=address,
        )  # fmt: skip
    if out is not None:
        write_jsonl(out, lines)
    if json_out:
        typer.echo(json.dumps(results, indent=2, ensure_ascii=False))
    else:
        print_study(results, Console())


def check_outputs(*, records: str | None = None, out: str | None = None) -> None:
    """Refuse, before anything is played, outputs that could not be written or would
    overwrite: ``out`` (a JSON Lines file) naming a folder, ``records`` naming a file or
    a folder that already holds game records (a second batch overwrote the first one's
    records in part, leaving two batches' records mixed).

    Raises:
        RulesError: saying which option and why.
    """
    if out is not None and Path(out).is_dir():
        raise RulesError(f"--out {out}: a folder; name the file to write (results.jsonl)")
    if records is None:
        return
    folder = Path(records)
    if folder.exists() and not folder.is_dir():
        raise RulesError(f"--records {records}: a file, not a folder")
    if folder.is_dir() and any(folder.glob("game-*.json")):
        raise RulesError(
            f"--records {records}: the folder already holds game records (game-*.json); "
            "name a new or empty folder"
        )


def _save_records(result: BatchResult, folder: str) -> None:
    """Write each game's record as ``folder/game-NNNN.json`` (``fogofwar replay`` reads
    them)."""
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    width = max(4, len(str(len(result.games) - 1)))
    for index, game in enumerate(result.games):
        if game.record is not None:
            game.record.save(out / f"game-{index:0{width}d}.json")


@contextmanager
def progress_bar(
    total: int, *, enabled: bool, label: str = "playing"
) -> Iterator[ProgressCallback | None]:
    """A rich progress bar on stderr (stdout stays clean for the results): games done, the
    rate, the time spent and the time left; none with ``--json`` or when stderr is not a
    terminal (a pipe, a log file). Yields ``report(games done, total)``."""
    console = Console(stderr=True)
    if not enabled or not console.is_terminal:
        yield None
        return
    with Progress(
        TextColumn(label),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[rate]}"),
        TimeElapsedColumn(),
        TextColumn("left"),
        TimeRemainingColumn(),
        console=console,
        transient=True,
    ) as bar:
        task = bar.add_task("games", total=total, rate="")
        start = time.monotonic()

        def report(done: int, _total: int) -> None:
            spent = time.monotonic() - start
            rate = f"{done / spent:,.1f} games/s" if spent > 0 and done else ""
            bar.update(task, completed=done, rate=rate)

        yield report


def _print_table(result: BatchResult, name: str) -> None:
    stats = result.stats()
    console = Console()
    table = Table(
        title=f"{name}: {stats.games} game{'' if stats.games == 1 else 's'}, seed {result.seed}",
        caption=f"mean length {stats.mean_length:.1f} actions",
    )
    table.add_column("side")
    table.add_column("seats (bot)")
    table.add_column("wins", justify="right")
    table.add_column("win rate", justify="right")
    table.add_column("95% CI", justify="right")
    notes = get_ruleset(result.ruleset).side_notes(result.config)
    joined = result.joined_sides()
    for side, p in stats.wins.items():
        seats = ", ".join(f"{s} ({b})" for s, b in result.seats.items() if result.sides[s] == side)
        seats = seats or "(the umpire)"
        if side in notes:
            seats += f" {notes[side]}"
        if joined.get(side):
            seats += "; won with it from another side: " + ", ".join(
                f"{s} ×{n}" for s, n in joined[side].items()
            )
        table.add_row(side, seats, str(p.successes), _pct(p.rate), _ci(p.interval))
    d = stats.draws
    table.add_row("(draw)", "", str(d.successes), _pct(d.rate), _ci(d.interval))
    console.print(table)
    if stats.spreads:
        metrics = Table(
            title="metrics per game",
            caption="a metric a game leaves out (not applicable there) is not counted; "
            "a yes/no metric's interval is Wilson's, another's Student's t; —: one game, "
            "or every game the same value of a metric that is not yes/no",
        )
        metrics.add_column("metric")
        metrics.add_column("games", justify="right")
        metrics.add_column("mean", justify="right")
        metrics.add_column("sd", justify="right")
        metrics.add_column("95% CI of the mean", justify="right")
        for key, sp in stats.spreads.items():
            low, high = sp.interval.to_json()
            metrics.add_row(
                key, str(sp.games), f"{sp.mean:.3f}", f"{sp.sd:.3f}", interval_text(low, high)
            )
        console.print(metrics)


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _ci(interval: Interval) -> str:
    return f"{_pct(interval.low)} – {_pct(interval.high)}"
