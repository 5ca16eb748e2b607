"""Balance studies' speed: games per second of each rule set's default bots on 1 and 2
local workers and on Ray with 2 CPUs, in one run, and the scaling from 1 to 2 workers.

Run: ``.venv/bin/python bench/bench_study.py [games]`` (default 200 games a row), or
``... --scaling GAMES`` for the scaling of one Specter Ops study of GAMES games (10,000
for the issue's figure) from 1 to 2 local workers alone, with a check that both gave
the same ``results.json``.
Every row is a one-cell study of the rule set's default configuration with its default
bots at every seat (Specter Ops: 3 players, so-agent against so-hunter), the same seeds
on every backend (the results are the same; only the time differs). Ray rows need the
``ray`` extra; without it they are skipped.
"""

from __future__ import annotations

import sys
import time

from _args import check_argv, games_and_workers
from fogofwar.core.game import get_ruleset
from fogofwar.sim.runner import run_batch
from fogofwar.sim.study import build_study, run_study

RULESETS = ("specter-ops", "zero-dark", "rock-n-roll", "warfighter")


def rate(ruleset: str, games: int, workers: int, backend: str) -> float:
    """Games per second of one batch of the default bots (start-up included)."""
    rs = get_ruleset(ruleset)
    here = rs.seats(rs.resolve_config({}))
    seats = {s: b for s, b in rs.default_bots.items() if s in here}
    start = time.perf_counter()
    run_batch(rs, games=games, seed="bench", seats=seats, workers=workers, backend=backend)
    return games / (time.perf_counter() - start)


def scaling(games: int) -> None:
    """One Specter Ops study (3 players, the heuristic bots) on 1, then 2 workers."""
    rs = get_ruleset("specter-ops")
    here = rs.seats(rs.resolve_config({}))
    seats = {s: b for s, b in rs.default_bots.items() if s in here}
    study = build_study("scaling", rs, config={}, seats=seats, games=games, seed="scaling")
    times, results = [], []
    for workers in (1, 2):
        start = time.perf_counter()
        results.append(run_study(study, workers=workers))
        times.append(time.perf_counter() - start)
        rate = games / times[-1]
        print(f"{games} games, {workers} worker(s): {times[-1]:.0f} s, {rate:.1f} games/s")
    print(f"scaling 1->2: {times[0] / (2 * times[1]):.2f}")
    print(f"same results.json on 1 and 2 workers: {results[0] == results[1]}")
    print(f"2 workers: {games / times[1] * 3600:,.0f} games/hour")


def main() -> None:
    check_argv(__doc__, valued=("--scaling", "--workers"))
    if "--scaling" in sys.argv:
        scaling(int(sys.argv[sys.argv.index("--scaling") + 1]))
        return
    games, _ = games_and_workers(200, 2)
    try:
        import ray  # noqa: F401

        backends = [("local", 1), ("local", 2), ("ray", 2)]
    except ImportError:
        backends = [("local", 1), ("local", 2)]
    head = "".join(f"{f'{b} x{w}':>14}" for b, w in backends)
    print(f"Studies: games per second of the default bots, {games} games a row")
    print(f"{'rule set':<14}{head}{'scaling 1->2':>14}")
    for ruleset in RULESETS:
        rates = [rate(ruleset, games, w, b) for b, w in backends]
        efficiency = rates[1] / (2 * rates[0])
        cells = "".join(f"{r:>14,.1f}" for r in rates)
        print(f"{ruleset:<14}{cells}{efficiency:>14.2f}")
    per_hour = rate("specter-ops", games, 2, "local") * 3600
    print(f"Specter Ops 3 players, heuristic bots, 2 local workers: {per_hour:,.0f} games/hour")


if __name__ == "__main__":
    main()
