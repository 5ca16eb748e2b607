"""Balance studies: a study file, its cells, and their results (``fogofwar study``).

A study file (TOML) names a rule set, a base configuration, the bots at the seats, the
options to vary and the games per cell::

    [study]
    ruleset = "specter-ops"
    games = 200                 # per cell
    seed = 1
    metrics = ["rounds"]        # optional: the metrics to report (default: all)

    [config]                    # the base configuration (defaults for the rest)
    players = 3

    [seats]                     # bots by seat (the rest play "random")
    agent = "so-agent"
    hunter1 = "so-hunter"

    [vary]                      # every combination of these values is a cell
    characters = [true, false]

or named variants, which may also change the bots::

    [[variant]]
    name = "no cards"
    config = { characters = false }
    seats = { agent = "random" }

With both, every variant is played at every combination of ``[vary]``.

Each cell's games are seeded from the study's seed, the cell's name and the game's
index only (:func:`cell_seed`), so a study gives the same results on any number of
workers. Every cell reports its wins per side with Wilson 95% intervals and each
metric's spread; every pair of cells that differ in one option is compared side by side
with Newcombe's interval and a sentence saying whether the difference is real at 95%.

Errors name the file, the line and what was expected.
"""

from __future__ import annotations

import itertools
import json
import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..bots import make_bot
from ..core.errors import BadDataError, RulesError
from ..core.game import JSON, Ruleset, get_ruleset
from .runner import (
    BatchResult,
    GameResult,
    ProgressCallback,
    bot_seed,
    check_backend,
    game_from_line,
    game_line,
    game_seed,
    play_game,
    ray_start,
    resolve_seats,
    run_batch,
)
from .stats import difference

__all__ = [
    "Cell",
    "Study",
    "build_study",
    "cell_seed",
    "compare",
    "load_study",
    "read_games",
    "run_study",
    "seats_in",
    "study_game",
]


@dataclass(frozen=True, slots=True)
class Cell:
    """One configuration of a study.

    Attributes:
        name: ``"characters=true, players=2"`` for a combination, the variant's name,
            or both (``"random hunters, players=3"``).
        options: the options this cell sets over the base configuration.
        seats: the bots this cell sets over the study's seats (a variant's ``seats``,
            those its game has).
        variant: the variant's name, if the cell is one's.
        bots: the bot of every seat its game has, the study's and the variant's
            together (set by :func:`build_study`; what comparisons compare).
    """

    name: str
    options: Mapping[str, JSON]
    seats: Mapping[str, str] = field(default_factory=dict)
    variant: str | None = None
    bots: Mapping[str, str] = field(default_factory=dict)

    def factors(self) -> dict[str, JSON]:
        """What sets this cell apart, for comparisons: its options and the bot of every
        seat of its game (as ``"agent bot"``)."""
        return {**self.options, **{f"{s} bot": b for s, b in self.bots.items()}}


@dataclass(frozen=True)
class Study:
    """A study file, checked (see the module doc)."""

    file: str
    ruleset: Ruleset
    config: Mapping[str, JSON]
    seats: Mapping[str, str]
    games: int
    seed: int | str
    metrics: tuple[str, ...]
    cells: tuple[Cell, ...]
    varied: tuple[str, ...] = field(default=())


def _value(v: JSON) -> str:
    return json.dumps(v) if isinstance(v, bool) or v is None else str(v)


def _wins(side: str) -> str:
    """The verb for a side: "the agent wins", "hunters win"."""
    return "win" if side.endswith("s") and not side.endswith("ss") else "wins"


def seats_in(seats: Mapping[str, str], here: Sequence[str]) -> dict[str, str]:
    """The bots of the seats a cell's game has (a study may name ``hunter4`` for its
    5-player cells only)."""
    return {s: b for s, b in seats.items() if s in here}


def cell_seed(study_seed: int | str, cell: Cell) -> str:
    """The batch seed of a cell: the study's seed and the cell's name only."""
    return f"{study_seed}/{cell.name}"


def _line(text: str, key: str) -> int | None:
    """The first line of ``text`` that sets ``key`` (TOML gives no positions)."""
    for n, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if stripped.startswith((f"{key} ", f"{key}=", f"[{key}]", f'"{key}"')):
            return n
    return None


def load_study(path: str | Path) -> Study:
    """Read and check a study file.

    Raises:
        BadDataError: not TOML, or an unknown rule set, option, value, seat, bot or
            metric (naming the file, the line and what was expected).
    """
    name = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise BadDataError(name, "a readable study file", found=exc.strerror) from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise BadDataError(name, "a TOML study file", found=str(exc)) from None

    def bad(key: str, expected: str, found: object = None) -> BadDataError:
        shown = None if found is None else str(found)
        return BadDataError(name, expected, line=_line(text, key), found=shown)

    head = data.get("study")
    if not isinstance(head, dict):
        raise bad("study", "a [study] table with ruleset, games and seed")
    try:
        rs = get_ruleset(str(head.get("ruleset", "")))
    except RulesError as exc:
        raise bad("ruleset", "a rule set this fogofwar plays", exc) from None
    games = head.get("games", 100)
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise bad("games", "games: a whole number of games per cell, 1 or more", games)
    seed = head.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int | str):
        raise bad("seed", "seed: a whole number or a string", seed)
    base = data.get("config", {})
    if not isinstance(base, dict):
        raise bad("config", "a [config] table of options")
    vary = data.get("vary", {})
    if not isinstance(vary, dict):
        raise bad("vary", "a [vary] table: option = [values]")
    variants = data.get("variant", [])
    if not isinstance(variants, list):
        raise bad("variant", "[[variant]] tables with a name and a config")
    seats = data.get("seats", {})
    if not isinstance(seats, dict) or not all(isinstance(b, str) for b in seats.values()):
        raise bad("seats", 'a [seats] table: seat = "bot"')
    metrics = head.get("metrics", [])
    if not isinstance(metrics, list) or not all(isinstance(m, str) for m in metrics):
        raise bad("metrics", 'metrics = ["name", ...]', metrics)
    return build_study(
        name, rs, config=base, seats=seats, games=games, seed=seed, metrics=metrics,
        vary=vary, variants=variants, bad=bad,
    )  # fmt: skip


def build_study(
    name: str,
    rs: Ruleset,
    *,
    config: Mapping[str, Any],
    seats: Mapping[str, str],
    games: int,
    seed: int | str,
    metrics: Sequence[str] = (),
    vary: Mapping[str, Sequence[Any]] | None = None,
    variants: Sequence[Any] = (),
    bad: Callable[[str, str, object], Exception] | None = None,
) -> Study:
    """A checked :class:`Study` (a file's, or ``sim --vary``'s).

    Raises:
        RulesError: an unknown option, value, seat, bot or metric (``bad`` makes the
            error: a study file's names its file and line).
    """
    if bad is None:

        def bad(key: str, expected: str, found: object = None) -> Exception:
            return RulesError(
                f"{key}: expected {expected}" + (f", found {found}" if found is not None else "")
            )

    base = dict(config)
    vary = dict(vary or {})
    known = {o.name for o in rs.config_schema.options}
    for key in base:
        if key not in known:
            raise bad(key, f"an option of {rs.id} ({', '.join(sorted(known))})", key)
    for key, values in vary.items():
        if key not in known:
            raise bad(key, f"an option of {rs.id} ({', '.join(sorted(known))})", key)
        if not isinstance(values, list | tuple) or not values:
            raise bad(key, f"{key} = [a list of values]", values)
    keys = list(vary)
    combos: list[Cell] = []
    for combo in itertools.product(*(vary[k] for k in keys)) if keys else ():
        options = dict(zip(keys, combo, strict=True))
        label = ", ".join(f"{k}={_value(v)}" for k, v in options.items())
        combos.append(Cell(label, options))
    kinds: list[Cell] = []
    for v in variants:
        if not isinstance(v, dict) or not isinstance(v.get("name"), str):
            raise bad("variant", 'a [[variant]] with name = "..." and config = {...}', v)
        options = v.get("config", {})
        if not isinstance(options, dict):
            raise bad("variant", "a variant's config = { option = value, ... }", options)
        for key in options:
            if key not in known:
                raise bad(key, f"an option of {rs.id} ({', '.join(sorted(known))})", key)
            if key in vary:
                raise bad(key, f"a variant's option that [vary] does not vary ({key} is)", key)
        bots = v.get("seats", {})
        if not isinstance(bots, dict) or not all(isinstance(b, str) for b in bots.values()):
            raise bad("variant", 'a variant\'s seats = { seat = "bot", ... }', bots)
        kinds.append(Cell(v["name"], dict(options), dict(bots), variant=v["name"]))
    named = [s for c in kinds for s in c.seats]
    if combos and kinds:
        # Every variant at every combination, the combinations outermost (the table
        # then reads by combination).
        cells = [
            Cell(f"{k.name}, {c.name}", {**c.options, **k.options}, k.seats, k.variant)
            for c in combos
            for k in kinds
        ]
    else:
        cells = combos or kinds or [Cell("base", {})]
    if len({c.name for c in cells}) != len(cells):
        raise bad("variant", "cells with distinct names", ", ".join(c.name for c in cells))
    probes: dict[str, float] = {}
    every_seat: set[str] = set()
    for i, cell in enumerate(cells):
        try:
            resolved = rs.resolve_config({**base, **cell.options})
        except RulesError as exc:
            first = next(iter(cell.options), "config")
            raise bad(first, f"a valid configuration for cell {cell.name!r}", exc) from None
        here = rs.seats(resolved)
        every_seat.update(here)
        try:
            every = resolve_seats(rs, resolved, seats_in({**seats, **cell.seats}, here))
        except RulesError as exc:
            raise bad("seats", "bots that play this game", exc) from None
        probes.update(rs.metrics(rs.new_game(resolved, 0)))
        # A cell's bots are those of the seats its game has: a variant naming hunter4
        # compares its 3-player cells by the seats they play.
        cells[i] = Cell(cell.name, cell.options, seats_in(cell.seats, here), cell.variant, every)
    for seat in {*seats, *named}:
        if seat not in every_seat:
            raise bad(seat, f"a seat of {rs.id} ({', '.join(sorted(every_seat))})", seat)
    for m in metrics:
        if m not in probes:
            raise bad("metrics", f"a metric of {rs.id} ({', '.join(sorted(probes))})", m)
    return Study(
        name, rs, base, dict(seats), games, seed, tuple(metrics), tuple(cells), tuple(keys)
    )


def compare(study: Study, results: Sequence[BatchResult]) -> list[dict[str, JSON]]:
    """Every pair of cells that differ in exactly one varied option, side by side: the
    difference of each side's win rate with Newcombe's 95% interval, and a sentence."""
    out: list[dict[str, JSON]] = []
    by_cell = list(zip(study.cells, results, strict=True))
    for (a, ra), (b, rb) in itertools.combinations(by_cell, 2):
        if set(a.options) != set(b.options):
            continue
        # Every seat's bot counts, the study's as much as a variant's; a seat only one
        # of the two games has (hunter2 at 3 players, not at 2) is part of the option
        # that sets the players, not a difference of its own.
        fa, fb = a.factors(), b.factors()
        differ = [k for k in fa if k in fb and fa[k] != fb[k]]
        if not differ:
            continue
        key, va, vb = differ[0], fa[differ[0]], fb[differ[0]]
        if len(differ) > 1:
            # Several seats whose bots change alike (every hunter random, then every
            # hunter so-hunter) are one difference: "hunter1, hunter2 bot".
            alike = all(k.endswith(" bot") and (fa[k], fb[k]) == (va, vb) for k in differ)
            if not alike:
                continue
            key = ", ".join(k.removesuffix(" bot") for k in differ) + " bot"
        sa, sb = ra.stats(), rb.stats()
        for side in sa.wins:
            pa, pb = sa.wins[side], sb.wins.get(side)
            if pb is None:
                continue
            d = difference(pa.successes, pa.trials, pb.successes, pb.trials)
            low, high = d.interval.low, d.interval.high
            # Said as "more" or "less" often, the interval in the same direction.
            more = "more" if d.estimate >= 0 else "less"
            shown = (low, high) if d.estimate >= 0 else (-high, -low)
            verdict = (
                "a real difference at 95%"
                if d.significant
                else "not a clear difference at 95% (the interval holds 0)"
            )
            sentence = (
                f"{side} {_wins(side)} {abs(d.estimate) * 100:.1f}% [{shown[0] * 100:.1f}, "
                f"{shown[1] * 100:.1f}] {more} often with {key}={_value(va)} "
                f"than with {key}={_value(vb)} — {verdict}"
            )
            out.append(
                {
                    "cells": [a.name, b.name],
                    "option": key,
                    "values": [va, vb],
                    "side": side,
                    "difference": d.estimate,
                    "interval": [low, high],
                    "significant": d.significant,
                    "sentence": sentence,
                }
            )
    return out


def _cell_json(study: Study, cell: Cell, result: BatchResult) -> dict[str, JSON]:
    stats = result.stats()
    spreads = {
        k: v.to_json() for k, v in stats.spreads.items() if not study.metrics or k in study.metrics
    }
    return {
        "name": cell.name,
        "variant": cell.variant,
        "options": dict(cell.options),
        "bots": dict(cell.seats),
        "config": result.config.to_json(),
        "seed": cell_seed(study.seed, cell),
        "games": stats.games,
        "wins": {side: p.to_json() for side, p in stats.wins.items()},
        "draws": stats.draws.to_json(),
        "mean_length": stats.mean_length,
        "metrics": spreads,
    }


def study_game(games: str | Path, line: int) -> GameResult:
    """Play again the game on line ``line`` (1 up) of a study's ``games.jsonl``, with its
    record: the cell's configuration and bots come from the ``results.json`` beside it,
    the game's seed from the line, the bots' streams from the cell's seed and the game's
    index — exactly as the study played it (``fogofwar replay games.jsonl --game N``).

    Raises:
        BadDataError: no such line, a line that is not a study's game, no
            ``results.json`` beside the file, or a game that does not end as the line
            says (the file was made by another version of the rule set or its bots).
    """
    name = str(games)
    try:
        lines = Path(games).read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise BadDataError(name, "a study's games.jsonl", found=exc.strerror) from None
    if not 1 <= line <= len(lines):
        raise BadDataError(name, f"a game on line {line} (the file has {len(lines)} lines)")
    try:
        entry = json.loads(lines[line - 1])
        cell_name, index, seed = entry["cell"], int(entry["game"]), entry["seed"]
    except (ValueError, KeyError, TypeError):
        raise BadDataError(name, "a study's game: cell, game, seed, ...", line=line) from None
    beside = Path(games).with_name("results.json")
    try:
        results = json.loads(beside.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        raise BadDataError(
            str(beside), "the study's results.json beside its games.jsonl (a study ended or "
            "stopped writes it; finish a killed one with --resume)",
        ) from None  # fmt: skip
    cell = next((c for c in results.get("cells", []) if c.get("name") == cell_name), None)
    if cell is None:
        raise BadDataError(name, f"a cell of {beside.name}", line=line, found=str(cell_name))
    rs = get_ruleset(str(results["ruleset"]))
    config = rs.resolve_config(cell["config"])
    bots = resolve_seats(
        rs, config, seats_in({**results["seats"], **cell["bots"]}, rs.seats(config))
    )
    game = play_game(
        rs, config, seed, {s: make_bot(b, rs.id) for s, b in bots.items()},
        bot_seed=bot_seed(cell["seed"], index), record=True,
    )  # fmt: skip
    winners = sorted(game.outcome.winners)
    if winners != entry.get("winners") or game.length != entry.get("length"):
        raise BadDataError(
            name, "a game that ends as its line says", line=line,
            found=f"{game.length} actions won by {', '.join(winners) or 'nobody'}"
            " (made by another version of the rule set or its bots?)",
        )  # fmt: skip
    return game


def read_games(path: str | Path, study: Study) -> dict[str, dict[int, GameResult]]:
    """The games a study's ``games.jsonl`` already holds, by cell and index, to resume
    it. A last line cut short (the study was killed while writing it) is left out: that
    game is played again.

    Raises:
        BadDataError: a line of another study (an unknown cell, or a seed that is not
            the one the study gives that game).
    """
    cells = {c.name: c for c in study.cells}
    out: dict[str, dict[int, GameResult]] = {}
    text = Path(path).read_text(encoding="utf-8") if Path(path).exists() else ""
    lines = text.splitlines()
    for n, raw in enumerate(lines, start=1):
        try:
            line = json.loads(raw)
        except json.JSONDecodeError:
            if n == len(lines):
                break  # cut short by the kill
            raise BadDataError(str(path), "one JSON object per line", line=n) from None
        cell = cells.get(line.get("cell"))
        index = line.get("game")
        if cell is None or not isinstance(index, int) or not 0 <= index < study.games:
            raise BadDataError(str(path), f"a game of {Path(study.file).name}", line=n)
        if line.get("seed") != game_seed(cell_seed(study.seed, cell), index):
            raise BadDataError(
                str(path), f"the seed {Path(study.file).name} gives this game", line=n
            )
        out.setdefault(cell.name, {})[index] = game_from_line(line)
    return out


def run_study(
    study: Study,
    *,
    workers: int = 1,
    progress: ProgressCallback | None = None,
    on_game: Callable[[dict[str, JSON]], None] | None = None,
    known: Mapping[str, Mapping[int, GameResult]] | None = None,
    backend: str = "local",
    address: str | None = None,
) -> dict[str, JSON]:
    """Play every cell of ``study`` and return its results (``results.json``).

    Args:
        workers: local processes per cell (the results do not depend on it).
        progress: called with (games done, games in the study) over all its cells.
        on_game: called with each game's line (``games.jsonl``) as soon as it is
            played (with workers, a cell's games may come out of order).
        known: games already played, by cell and index (:func:`read_games`): they are
            not played again.
        backend: ``"local"`` or ``"ray"`` (Ray started once for the whole study, or the
            cluster at ``address`` joined); the results are the same.
    """
    check_backend(backend, address)
    started = ray_start(address, workers) if backend == "ray" else False
    try:
        results = _play_cells(study, workers, progress, on_game, known, backend, address)
    finally:
        if started:
            import ray

            ray.shutdown()
    return {
        "study": Path(study.file).name,
        "ruleset": study.ruleset.id,
        "ruleset_version": study.ruleset.version,
        "seed": study.seed,
        "games_per_cell": study.games,
        "seats": dict(study.seats),
        "base_config": dict(study.config),
        "varied": list(study.varied),
        "variants": list(dict.fromkeys(c.variant for c in study.cells if c.variant)),
        "cells": [_cell_json(study, c, r) for c, r in zip(study.cells, results, strict=True)],
        "comparisons": compare(study, results),
    }


def _play_cells(
    study: Study,
    workers: int,
    progress: ProgressCallback | None,
    on_game: Callable[[dict[str, JSON]], None] | None,
    known: Mapping[str, Mapping[int, GameResult]] | None,
    backend: str,
    address: str | None,
) -> list[BatchResult]:
    results: list[BatchResult] = []
    for cell in study.cells:
        report: ProgressCallback | None = None
        if progress is not None:
            before = study.games * len(results)  # the cells already played

            def report(done: int, _games: int, before: int = before) -> None:
                progress(before + done, study.games * len(study.cells))

        config = {**study.config, **cell.options}
        seed = cell_seed(study.seed, cell)

        def save(
            start: int, played: list[GameResult], name: str = cell.name, s: str = seed
        ) -> None:
            if on_game is not None:
                for k, game in enumerate(played):
                    on_game({"cell": name, **game_line(s, start + k, game)})

        result = run_batch(
            study.ruleset,
            games=study.games,
            seed=seed,
            seats=dict(cell.bots),  # every seat's bot, resolved once by build_study
            config_overrides=config,
            workers=workers,
            progress=report,
            known=(known or {}).get(cell.name),
            on_games=save,
            backend=backend,
            address=address,
        )
        results.append(result)
    return results
