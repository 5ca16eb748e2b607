"""``fogofwar study FILE.toml``: a balance study — every cell of a study file played,
``results.json``, ``games.jsonl`` and the report with its plots written, the cells and
their comparisons printed."""

from __future__ import annotations

import json
import os
from pathlib import Path

import typer
from rich.console import Console

from ..core.errors import RulesError
from ..core.game import JSON
from ..sim.command import progress_bar
from ..sim.report import drawn_files, print_study, write_report
from ..sim.runner import check_backend, game_line, write_jsonl
from ..sim.study import (
    cell_seed,
    check_settings_kept,
    load_study,
    read_games,
    run_study,
    settings_json,
)
from .interrupt import ctrl_c_interrupts


def study(
    file: str,
    *,
    out: str | None,
    workers: int | None,
    resume: bool,
    json_out: bool,
    console: Console,
    backend: str = "local",
    address: str | None = None,
    fresh: bool = False,
) -> int:
    """Run the study ``file``; write its results into ``out`` (default: a folder named
    after the file, beside it). Returns the exit status: 0, or 130 when stopped by
    Ctrl-C (every game played so far is in ``games.jsonl``; ``--resume`` goes on).

    A folder that holds games already is refused unless ``resume`` goes on with them or
    ``fresh`` throws them away: a forgotten ``--resume`` lost hours of games. The
    study's settings (:func:`~fogofwar.sim.study.settings_json`) are written into
    ``results.json`` before the first game, so that a study stopped before its end
    keeps them for ``--resume`` to compare.
    """
    check_backend(backend, address)
    if resume and fresh:
        raise RulesError("--resume keeps the games and --fresh throws them away: give one")
    spec = load_study(file)
    folder = Path(out) if out else Path(file).with_suffix("")
    where = f"--out {out}" if out else f"{folder} (the study's folder)"
    if folder.exists() and not folder.is_dir():
        raise RulesError(f"{where}: a file, not a folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise RulesError(f"{where}: cannot make the folder ({exc.strerror})") from None
    games_path = folder / "games.jsonl"
    if not resume and not fresh:
        held = _lines(games_path)
        if held:
            again = f"fogofwar study {file}{f' --out {out}' if out else ''}"
            raise RulesError(
                f"{games_path} already holds {held} game{'s' * (held != 1)} of a study: "
                f"{again} --resume goes on with them, --fresh throws them away"
            )
    results_path = folder / "results.json"
    if resume:
        check_settings_kept(results_path, spec)
    elif fresh:
        # The games go, and with them what was drawn of them.
        for old in (games_path, *drawn_files(folder)):
            old.unlink(missing_ok=True)
    known = read_games(games_path, spec) if resume else {}
    if not (resume and _whole(results_path)):
        # A finished study's whole results stay until a resume replaces them whole.
        settings = json.dumps(settings_json(spec), indent=2, ensure_ascii=False) + "\n"
        results_path.write_text(settings, encoding="utf-8")
    if resume:
        # Keep only whole lines: a line cut short by a kill is played again.
        write_jsonl(games_path, (
            {"cell": c.name, **game_line(cell_seed(spec.seed, c), i, g)}
            for c in spec.cells for i, g in sorted(known.get(c.name, {}).items())
        ))  # fmt: skip
    total = spec.games * len(spec.cells)
    try:
        with (
            ctrl_c_interrupts(terminate=True),
            games_path.open("a" if resume else "w", encoding="utf-8") as games,
            progress_bar(total, enabled=not json_out, label="study") as report,
        ):

            def write(line: dict[str, JSON]) -> None:
                games.write(json.dumps(line, ensure_ascii=False, sort_keys=True) + "\n")
                games.flush()  # a kill loses no game that was played

            results = run_study(
                spec,
                workers=workers or os.cpu_count() or 1,
                progress=report,
                on_game=write,
                known=known,
                backend=backend,
                address=address,
            )
    except KeyboardInterrupt:
        saved = sum(1 for _ in games_path.open(encoding="utf-8"))
        console.print(
            f"Stopped: {saved} of {total} games are in {games_path}; "
            f"fogofwar study {file}{f' --out {out}' if out else ''} --resume goes on.",
            markup=False,
            highlight=False,
            soft_wrap=True,
        )
        return 130
    (folder / "results.json").write_text(
        json.dumps(results, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    lines = [json.loads(x) for x in games_path.read_text(encoding="utf-8").splitlines()]
    write_report(folder, results, lines)
    if json_out:
        typer.echo(json.dumps(results, indent=2, ensure_ascii=False))
        return 0
    print_study(results, console)
    console.print(
        f"Written in {folder}: results.json, games.jsonl, report.md, report.html and plots",
        markup=False,
        highlight=False,
    )
    return 0


def _lines(path: Path) -> int:
    """The lines of ``path``, 0 where there is no such file."""
    try:
        with path.open("rb") as f:
            return sum(1 for line in f if line.strip())
    except FileNotFoundError:
        return 0


def _whole(path: Path) -> bool:
    """Whether ``path`` holds a whole study's results (not only its settings)."""
    try:
        return "comparisons" in json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, TypeError):
        return False
