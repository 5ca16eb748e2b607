"""Play games between bots: one game (:func:`play_game`) or a batch (:func:`run_batch`).

Seeds. A batch has one seed. Game ``i`` of the batch is played with

* ``game_seed(seed, i)`` — the game's seed (every roll and shuffle of the umpire), and
* ``bot_seed(seed, i)`` — the root of the bots' streams: the bot at ``seat`` draws from
  ``stream(bot_seed, "bot", seat)``,

both taken from a one-way hash (BLAKE2b) of ``(seed, i, purpose)``. So a bot's stream
tells it nothing about the game's seed, the bots' choices do not shift the umpire's rolls,
and a game's result depends on its index alone: not on the worker count, the chunking or
the order in which games finish.

Workers. :func:`run_batch` plays chunks of games in local processes. The rule set travels
to a worker as a name (:func:`~fogofwar.core.game.ruleset_ref`), bots as registry names,
so plug-in and test rule sets work there too (they are imported by ``module:attr``).
Workers are started with ``spawn``: the same on every platform, and safe beside threads
(a progress bar's refresher, say).
"""

from __future__ import annotations

import hashlib
import json
import math
import multiprocessing
import os
import pickle
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from fogofwar.bots import Bot, make_bot
from fogofwar.core.errors import BadDataError, RulesError
from fogofwar.core.game import JSON, Config, Outcome, Ruleset, get_ruleset, ruleset_ref
from fogofwar.core.record import Record, Recorder
from fogofwar.core.rng import Stream, encode_key, stream

from .stats import Z95, BatchStats, summarize

__all__ = [
    "MAX_GAMES",
    "BatchResult",
    "GameLengthError",
    "GameResult",
    "ProgressCallback",
    "bot_seed",
    "bot_stream",
    "game_seed",
    "play_game",
    "resolve_seats",
    "run_batch",
]

ProgressCallback = Callable[[int, int], None]
"""Called as ``progress(games_done, games_total)`` while a batch runs."""

DEFAULT_BOT = "random"


class GameLengthError(RulesError):
    """A game ran past its rule set's ``metadata.max_length`` (a rule set or bot bug)."""


# --------------------------------------------------------------------------- seeds


def _derive(seed: int | str, index: int, purpose: str) -> int:
    key = encode_key((seed, index, purpose))
    digest = hashlib.blake2b(key, digest_size=8, person=b"fogofwar-sim").digest()
    # 53 bits: a seed in a record stays exact for JSON readers that use doubles.
    return int.from_bytes(digest, "big") >> 11


def game_seed(seed: int | str, index: int) -> int:
    """The seed of game ``index`` of a batch with ``seed``."""
    return _derive(seed, index, "game")


def bot_seed(seed: int | str, index: int) -> int:
    """The root of the bots' streams in game ``index`` of a batch with ``seed``."""
    return _derive(seed, index, "bots")


def bot_stream(root: int | str, seat: str, *at: int) -> Stream:
    """The random stream of the bot at ``seat``, below the bots' root seed ``root``; with
    ``at`` (the actions played), that decision's own (a game that may stop and go on)."""
    return stream(root, "bot", seat, *at)


# --------------------------------------------------------------------------- one game


@dataclass(frozen=True)
class GameResult:
    """The result of one game.

    Attributes:
        outcome: who won and why.
        length: the number of actions played.
        metrics: the rule set's per-game figures (:meth:`Ruleset.metrics`).
        record: the game's record, if it was kept.
    """

    outcome: Outcome
    length: int
    metrics: Mapping[str, float]
    record: Record | None = None


def play_game(
    ruleset: Ruleset,
    config: Mapping[str, Any] | None,
    seed: int | str,
    bots: Mapping[str, Bot],
    *,
    bot_seed: int,
    record: bool = True,
) -> GameResult:
    """Play one game between bots, one bot per seat.

    Whenever several seats are to act (a simultaneous secret choice) each chooses in
    turn, in sorted seat order, from its own view; a correct rule set shows no seat
    another's pending choice, so the order does not matter.

    Args:
        ruleset: the rule set.
        config: options (completed with defaults and validated).
        seed: the game's seed.
        bots: the bot of every seat.
        bot_seed: the root of the bots' streams (see :func:`bot_stream`).
        record: keep the game's record in the result.

    Raises:
        RulesError: a seat without a bot, or a bot for no seat.
        IllegalActionError: a bot chose an illegal action (a note names the bot).
        GameLengthError: the game ran past ``ruleset.metadata.max_length`` actions.
    """
    cfg = ruleset.resolve_config(config)
    seats = ruleset.seats(cfg)
    missing = [s for s in seats if s not in bots]
    extra = sorted(set(bots) - set(seats))
    if missing or extra:
        raise RulesError(
            f"{ruleset.id} needs one bot per seat ({', '.join(seats)}); "
            f"missing: {', '.join(missing) or 'none'}; unknown seats: {', '.join(extra) or 'none'}"
        )
    # The record (and its digest chain) only when it is kept: studies play without.
    recorder = (
        Recorder(ruleset, cfg, seed, meta={"bots": {s: bots[s].name for s in seats}})
        if record
        else None
    )
    state = recorder.state if recorder is not None else ruleset.new_game(cfg, seed)
    apply = recorder.apply if recorder is not None else state.apply
    for seat in seats:
        bots[seat].reset(seat, ruleset.id, cfg)
    streams = {seat: bot_stream(bot_seed, seat) for seat in seats}
    limit = ruleset.metadata.max_length
    length = 0
    while (outcome := state.outcome()) is None:
        acting = sorted(state.to_act())
        if not acting:
            raise RulesError(f"{ruleset.id}: the game is not over but no seat may act")
        for seat in acting:
            if seat not in state.to_act():  # an earlier seat's action ended this turn
                continue
            if length >= limit:
                raise GameLengthError(
                    f"{ruleset.id}: the game passed its maximum length of {limit} actions "
                    f"(metadata.max_length) without ending"
                )
            bot = bots[seat]
            action = bot.choose(state.view(seat), tuple(state.legal_actions(seat)), streams[seat])
            try:
                apply(action)
            except RulesError as exc:
                exc.add_note(f"chosen by bot {bot.name!r} at seat {seat}, action {length}")
                raise
            length += 1
    return GameResult(
        outcome=outcome,
        length=length,
        metrics=ruleset.metrics(state),
        record=recorder.record() if recorder is not None else None,
    )


# --------------------------------------------------------------------------- batches


@dataclass(frozen=True)
class BatchResult:
    """The games of a batch, by game index, with what is needed to repeat them.

    Attributes:
        ruleset: the rule set's id.
        ruleset_version: its version.
        config: the resolved configuration.
        seed: the batch seed.
        seats: the bot name at every seat.
        sides: every seat's side.
        games: each game's result; ``games[i]`` is game ``i``.
    """

    ruleset: str
    ruleset_version: str
    config: Config
    seed: int | str
    seats: Mapping[str, str]
    sides: Mapping[str, str]
    games: tuple[GameResult, ...] = field(repr=False)
    processes: frozenset[int] = field(default=frozenset(), repr=False, compare=False)
    """The process ids that played this call's games (this process, pool workers, or
    Ray workers): how the games ran, never what they gave."""

    def side_names(self) -> list[str]:
        """The sides, in seat order, each once; then the sides with no seat that the
        rule set says its game can be won by (``Ruleset.umpire_sides``: Warfighter's
        hostiles, listed where they won nothing too), and any other side that won."""
        names = list(dict.fromkeys(self.sides[s] for s in self.seats))
        umpire = get_ruleset(self.ruleset).umpire_sides(self.config)
        names += [side for side in umpire if side not in names]
        others = {side for g in self.games for side in g.outcome.sides} - set(names)
        return names + sorted(others)

    def joined_sides(self) -> dict[str, dict[str, int]]:
        """Side -> seat -> the games that seat won with that side though it started on
        another (Specter Ops' traitor wins with the agent); seats in seat order."""
        order = list(self.seats)
        out: dict[str, dict[str, int]] = {}
        for g in self.games:
            for seat in g.outcome.winners:
                if seat in self.sides and self.sides[seat] not in g.outcome.sides:
                    for side in g.outcome.sides:
                        won = out.setdefault(side, {})
                        won[seat] = won.get(seat, 0) + 1
        return {
            side: dict(sorted(won.items(), key=lambda kv: order.index(kv[0])))
            for side, won in sorted(out.items())
        }

    def stats(self, z: float = Z95) -> BatchStats:
        """Wins per side with Wilson intervals, draws, mean length and mean metrics."""
        return summarize(
            [g.outcome for g in self.games],
            [g.length for g in self.games],
            [g.metrics for g in self.games],
            self.side_names(),
            z,
            yes_no=get_ruleset(self.ruleset).yes_no_metrics(self.config),
        )

    def to_json(self) -> dict[str, JSON]:
        """The batch's settings and statistics (not the games) as JSON."""
        stats = self.stats()
        return {
            "ruleset": self.ruleset,
            "ruleset_version": self.ruleset_version,
            "config": self.config.to_json(),
            "seed": self.seed,
            "games": stats.games,
            "seats": {s: {"bot": bot, "side": self.sides[s]} for s, bot in self.seats.items()},
            "wins": {side: p.to_json() for side, p in stats.wins.items()},
            # A side whose seats a game does not fix (a traitor), and the seats that won
            # with a side they did not start on.
            "side_notes": dict(get_ruleset(self.ruleset).side_notes(self.config)),
            "joined_sides": self.joined_sides(),
            "draws": stats.draws.to_json(),
            "mean_length": stats.mean_length,
            "metrics": dict(stats.metrics),
            "metric_spreads": {k: v.to_json() for k, v in stats.spreads.items()},
        }

    def game_lines(self) -> list[dict[str, JSON]]:
        """One JSON object per game, in order (:func:`game_line`; ``sim --out``)."""
        return [game_line(self.seed, i, g) for i, g in enumerate(self.games)]


def game_line(seed: int | str, index: int, game: GameResult) -> dict[str, JSON]:
    """A game of a batch as one JSON object: its index and seed, the winners and sides,
    why it ended, its length and its metrics (:func:`game_from_line` reads it back)."""
    return {
        "game": index,
        "seed": game_seed(seed, index),
        "winners": sorted(game.outcome.winners),
        "sides": sorted(game.outcome.sides),
        "reason": game.outcome.reason,
        "rule": game.outcome.rule,
        "length": game.length,
        "metrics": dict(game.metrics),
    }


def game_from_line(line: Mapping[str, Any]) -> GameResult:
    """The :class:`GameResult` a :func:`game_line` holds (without its record)."""
    outcome = Outcome(
        frozenset(line["winners"]), frozenset(line["sides"]), line["reason"], line["rule"]
    )
    metrics = {str(k): float(v) for k, v in line["metrics"].items()}
    return GameResult(outcome, int(line["length"]), metrics)


@dataclass(frozen=True)
class _Chunk:
    """Games ``start`` to ``stop - 1`` of a batch: everything a worker needs, picklable."""

    ruleset: str
    config: dict[str, JSON]
    seats: dict[str, str]
    seed: int | str
    start: int
    stop: int
    records: bool


def _play_chunk(chunk: _Chunk, ruleset: Ruleset | None = None) -> list[GameResult]:
    if ruleset is None:  # in a worker: find the rule set by name
        ruleset = get_ruleset(chunk.ruleset)
    config = ruleset.resolve_config(chunk.config)
    results = []
    for i in range(chunk.start, chunk.stop):
        # Fresh bots for every game: no bot memory leaks from one game into the next,
        # so a game's result depends on its index only.
        bots = {seat: make_bot(name, ruleset.id, seat) for seat, name in chunk.seats.items()}
        seed = game_seed(chunk.seed, i)
        try:
            result = play_game(
                ruleset, config, seed, bots, bot_seed=bot_seed(chunk.seed, i), record=chunk.records
            )
        except Exception as exc:
            exc.add_note(f"in game {i} of the batch (game seed {seed})")
            raise
        results.append(result)
    return results


def _exit_with_parent(parent: int) -> None:
    """A pool worker's start: it ends itself once the process that started it is gone
    (killed, even by SIGKILL, which runs no clean-up there), instead of playing out a
    chunk whose games nobody will receive."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()


def _stop_workers(pool: ProcessPoolExecutor) -> None:
    """Cancel a pool's chunks not yet started and terminate its worker processes (the
    executor would only wait for them)."""
    # ``_processes`` is the executor's own map of its workers (CPython 3.8 and later;
    # 3.14 adds ``terminate_workers`` for this), taken before ``shutdown`` drops it.
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.terminate()
    for process in processes:
        process.join(5)


def _play_chunk_in_worker(chunk: _Chunk) -> tuple[int, list[GameResult]]:
    try:
        return os.getpid(), _play_chunk(chunk)
    except Exception as exc:
        raise _picklable(exc) from None


#: The Ray backend's settings when this process starts Ray itself: no dashboard, a small
#: object store (results are small), the workers' own log lines not echoed here.
RAY_START = {
    "include_dashboard": False,
    "object_store_memory": 100 * 1024 * 1024,
    "configure_logging": False,
    "log_to_driver": False,
}


def check_backend(backend: str, address: str | None) -> None:
    """Refuse a backend other than ``local`` or ``ray``, or an address without Ray."""
    if backend not in ("local", "ray"):
        raise RulesError(f"--backend: local or ray, not {backend!r}")
    if address is not None and backend != "ray":
        raise RulesError("--address joins a Ray cluster: give --backend ray too")


def write_jsonl(path: str | Path, lines: Iterable[Mapping[str, Any]]) -> None:
    """Write ``path``: one JSON object a line (JSON Lines, for tools such as pandas)."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    with target.open("w", encoding="utf-8") as f:
        for line in lines:
            f.write(json.dumps(line, ensure_ascii=False, sort_keys=True) + "\n")


def ray_start(address: str | None, workers: int) -> bool:
    """Start Ray here (``address`` None: a local Ray with ``workers`` CPUs) or join the
    cluster at ``address``; returns whether this call started it (then the caller
    shuts it down). Usage statistics are off."""
    try:
        import ray
    except ImportError:  # pragma: no cover - the test extra installs it
        raise RulesError("the ray backend needs Ray: pip install 'fogofwar[ray]'") from None
    if ray.is_initialized():
        return False
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    if address is None:
        ray.init(num_cpus=workers, **RAY_START)  # type: ignore[arg-type]
    else:
        ray.init(address=address, configure_logging=False, log_to_driver=False)
    return True


def _run_on_ray(
    chunks: list[_Chunk], collect: Callable[[_Chunk, list[GameResult], int], None]
) -> None:
    import ray

    task = ray.remote(_play_chunk_in_worker)
    pending = {task.remote(chunk): chunk for chunk in chunks}
    try:
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=1)
            for ref in ready:
                pid, played = ray.get(ref)
                collect(pending.pop(ref), played, pid)
    except BaseException:
        for ref in pending:
            ray.cancel(ref)
        raise


def _picklable(exc: Exception) -> Exception:
    """``exc``, or a plain error with its message and notes if ``exc`` cannot be pickled.

    An error from a worker travels back pickled, and an exception whose ``__init__``
    takes more than its message (``IllegalActionError``, ``BadDataError``) cannot be
    rebuilt: the pool would report only that a worker "terminated abruptly".
    """
    try:
        pickle.loads(pickle.dumps(exc))
    except Exception:
        kind = RulesError if isinstance(exc, RulesError) else RuntimeError
        plain = kind(f"{type(exc).__name__}: {exc}")
        for note in getattr(exc, "__notes__", ()):
            plain.add_note(note)
        return plain
    return exc


def seat_hint(ruleset: Ruleset, seat: str) -> str | None:
    """Where a seat that this game lacks is played: ``"hunter4 plays with 5 players
    (players=5)"`` (the fewest players that have it, by
    :meth:`~fogofwar.core.game.Ruleset.players_config`), or ``None``."""
    meta = ruleset.metadata
    for players in range(meta.min_players, meta.max_players + 1):
        try:
            given = ruleset.players_config(players, {})
            seats = ruleset.seats(ruleset.resolve_config(given))
        except (RulesError, BadDataError):
            continue
        if seat in seats:
            how = ", ".join(f"{k}={v}" for k, v in given.items())
            return f"{seat} plays with {players} player{'s' * (players != 1)}" + (
                f" ({how})" if how else ""
            )
    return None


def resolve_seats(
    ruleset: Ruleset, config: Config, seats: Mapping[str, str] | None = None
) -> dict[str, str]:
    """Return the bot name of every seat: those given, ``"random"`` for the rest.

    Raises:
        RulesError: a seat the game does not have, or a bot that does not exist or does
            not play this rule set or that seat.
    """
    all_seats = ruleset.seats(config)
    chosen = dict(seats or {})
    unknown = sorted(set(chosen) - set(all_seats))
    if unknown:
        hint = seat_hint(ruleset, unknown[0])
        raise RulesError(
            f"{ruleset.id} has no seat {', '.join(map(repr, unknown))} "
            f"(seats: {', '.join(all_seats)}{f'; {hint}' if hint else ''})"
        )
    names = {seat: chosen.get(seat, DEFAULT_BOT) for seat in all_seats}
    for seat, name in names.items():
        # Fail here (a bad parameter, a bot at a seat it does not play), before any game.
        make_bot(name, ruleset.id, seat)
    return names


#: The most games one batch plays, as a study file's (docs/studies.md): 7.5 hours of
#: Specter Ops' heuristic bots on two cores and about 2.6 GB of results held in memory;
#: a bound on what a batch sets aside before it starts (a typo's 10^9 would not fit).
MAX_GAMES: Final = 1_000_000


def run_batch(
    ruleset: str | Ruleset,
    *,
    games: int,
    seed: int | str = 0,
    seats: Mapping[str, str] | None = None,
    config_overrides: Mapping[str, Any] | None = None,
    workers: int = 1,
    progress: ProgressCallback | None = None,
    records: bool = False,
    known: Mapping[int, GameResult] | None = None,
    on_games: Callable[[int, list[GameResult]], None] | None = None,
    backend: str = "local",
    address: str | None = None,
) -> BatchResult:
    """Play ``games`` games between bots and collect the results by game index.

    Args:
        ruleset: a rule set, or its id, alias or ``module:attr`` reference.
        games: how many games.
        seed: the batch seed (see the module documentation for how games derive theirs).
        seats: the bot name for some seats; the others get ``"random"``.
        config_overrides: option values; the rest are defaults.
        workers: processes to play in; 1 plays here, in this process.
        progress: called with ``(games_done, games_total)`` as chunks finish.
        records: keep every game's record.
        known: results of some games already played (a study resumed from its file):
            they are not played again (a game's result depends on its index only).
        on_games: called with ``(first index, results)`` as each run of consecutive
            games finishes (in any order across workers), to save them as they come.
        backend: ``"local"`` (this process, or a pool of ``workers`` processes) or
            ``"ray"`` (Ray tasks: a local Ray with ``workers`` CPUs, or the cluster at
            ``address``). The results are the same on either.

    Returns:
        The results; identical for any ``workers``.

    Raises:
        RulesError: an unknown rule set, seat, bot or option, or a bad value (checked
            before any game starts), or a failure in a game (a note names the game).
            From a worker, an error that cannot be pickled comes back as a plain
            :class:`RulesError` (or :class:`RuntimeError`) with its message and notes.
    """
    rs = get_ruleset(ruleset) if isinstance(ruleset, str) else ruleset
    if not 0 <= games <= MAX_GAMES:
        raise RulesError(f"games must be 0 to {MAX_GAMES:,}, got {games:,}")
    if workers < 1:
        raise RulesError(f"workers must be 1 or more, got {workers}")
    check_backend(backend, address)
    config = rs.resolve_config(config_overrides)
    bot_names = resolve_seats(rs, config, seats)
    all_seats = tuple(bot_names)
    ref = ruleset_ref(rs)
    if workers > 1 and get_ruleset(ref).id != rs.id:  # fail here, not in every worker
        raise RulesError(f"rule set {rs.id} cannot be found by workers as {ref!r}")
    # Here, a game a chunk (the progress moves with each game); across workers, about
    # eight chunks each (a game's result depends on its index only, not on the chunks),
    # at most 10 games: a chunk's games are kept when it ends, so a study of slow games
    # (searching bots, minutes a game) stopped midway loses at most 10 a worker.
    per_chunk = 1 if workers == 1 else max(1, min(10, math.ceil(games / (workers * 8))))
    results: list[GameResult | None] = [None] * games
    for i, r in (known or {}).items():
        if 0 <= i < games:
            results[i] = r
    chunks: list[_Chunk] = []
    i = 0
    while i < games:
        if results[i] is not None:
            i += 1
            continue
        stop = i
        while stop < games and stop - i < per_chunk and results[stop] is None:
            stop += 1
        chunks.append(_Chunk(ref, config.to_json(), bot_names, seed, i, stop, records))
        i = stop
    done = games - sum(c.stop - c.start for c in chunks)
    pids: set[int] = set()

    def collect(chunk: _Chunk, played: list[GameResult], pid: int | None = None) -> None:
        nonlocal done
        pids.add(os.getpid() if pid is None else pid)
        results[chunk.start : chunk.stop] = played
        done += len(played)
        if on_games is not None:
            on_games(chunk.start, played)
        if progress is not None:
            progress(done, games)

    if progress is not None and done:
        progress(done, games)
    if backend == "ray":
        started = ray_start(address, workers)
        try:
            _run_on_ray(chunks, collect)
        finally:
            if started:
                import ray

                ray.shutdown()
    elif workers == 1 or len(chunks) <= 1:
        for chunk in chunks:
            # The rule set object itself, not its name: it may be unregistered here.
            collect(chunk, _play_chunk(chunk, rs))
    else:
        context = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(
            min(workers, len(chunks)),
            mp_context=context,
            initializer=_exit_with_parent,
            initargs=(os.getpid(),),
        ) as pool:
            futures: dict[Future[tuple[int, list[GameResult]]], _Chunk] = {
                pool.submit(_play_chunk_in_worker, chunk): chunk for chunk in chunks
            }
            try:
                for future in as_completed(futures):
                    pid, played = future.result()
                    collect(futures[future], played, pid)
            except BaseException:
                # Stopped (Ctrl-C, SIGTERM) or a chunk failed: the games under way are
                # lost either way, so the workers stop now rather than play them out.
                _stop_workers(pool)
                raise
    final = tuple(r for r in results if r is not None)
    if len(final) != games:  # pragma: no cover - every chunk fills its slots or raises
        raise RulesError("a batch lost games")
    return BatchResult(
        ruleset=rs.id,
        ruleset_version=rs.version,
        config=config,
        seed=seed,
        seats=bot_names,
        sides={seat: rs.metadata.sides[seat] for seat in all_seats},
        games=final,
        processes=frozenset(pids),
    )
