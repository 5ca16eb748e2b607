"""The long fuzzing run: every rule set, a million inputs each, tampered records and
damaged data files; prints the figures.

Run: ``.venv/bin/python bench/fuzz.py [inputs] [--workers W]`` (defaults: 1,000,000
inputs per rule set, 2 workers). Each rule set's inputs are split over the configurations
people play (weights below: the slow ones — Specter Ops with characters, whose
possibility map is exact — get fewer) and over shards of 25,000 inputs with their own
seeds, played in worker processes. ``make test`` runs the same checks briefly
(tests/test_fuzz.py, tests/test_trust.py); this is the long run whose figures go into the
notes. Every finding is printed with its game seed and input, to reproduce with
``fogofwar fuzz``.
"""

from __future__ import annotations

import os
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from _args import check_argv, games_and_workers
from fogofwar.core.game import get_ruleset
from fogofwar.core.rng import stream
from fogofwar.sim.fuzz import fuzz
from fogofwar.sim.runner import run_batch
from fogofwar.sim.tamper import check_formats, check_tampering

SHARD = 25_000
#: (rule set, config, share of the rule set's inputs).
PLAN: list[tuple[str, dict[str, Any], float]] = [
    ("specter-ops", {}, 0.5),
    ("specter-ops", {"players": 2}, 0.3),
    ("specter-ops", {"players": 4, "characters": True}, 0.1),
    ("specter-ops", {"players": 5, "characters": True}, 0.1),
    ("zero-dark", {}, 0.3),
    ("zero-dark", {"mode": "versus", "map": "zd-open"}, 0.2),  # tasks: at the table (ZD-B4)
    ("zero-dark", {"spook": True, "task": "rescue", "buy_time": True}, 0.2),
    ("zero-dark", {"mission": "the-boss"}, 0.15),
    ("zero-dark", {"mission": "dead-drop"}, 0.15),
    ("rock-n-roll", {}, 0.7),
    ("rock-n-roll", {"devils_hand_blocks_rd": True}, 0.3),
    ("warfighter", {}, 1.0),
]
#: Tampered copies of finished records, per rule set; damaged copies per data file.
RECORD_TRIALS = int(os.environ.get("FUZZ_RECORD_TRIALS", "2000"))
FILE_TRIALS = int(os.environ.get("FUZZ_FILE_TRIALS", "1000"))


def _shard(job: tuple[str, dict[str, Any], int, int]) -> dict[str, Any]:
    ruleset, config, inputs, seed = job
    return fuzz(get_ruleset(ruleset), config, inputs=inputs, seed=seed).to_json()


def _records(ruleset: str) -> tuple[str, int, int, int, list[tuple[str, str]], float]:
    rs = get_ruleset(ruleset)
    batch = run_batch(rs, games=10, seed=17, records=True)
    trials, refused, verified, broken, seconds = 0, 0, 0, [], 0.0
    for i, game in enumerate(batch.games):
        assert game.record is not None
        part = check_tampering(
            game.record, stream(17, "bench-tamper", ruleset, i), trials=RECORD_TRIALS // 10
        )
        trials += part.trials
        refused += part.refused
        verified += part.verified
        broken += part.broken
        seconds += part.seconds
    return ruleset, trials, refused, verified, broken, seconds


def _files(ruleset: str) -> tuple[str, int, list[tuple[str, str]], float]:
    started = time.perf_counter()
    tried, broken = check_formats(
        get_ruleset(ruleset), stream(17, "bench-files", ruleset), trials=FILE_TRIALS
    )
    return ruleset, tried, broken, time.perf_counter() - started


def main() -> None:
    check_argv(__doc__, valued=("--workers",))
    per_ruleset, workers = games_and_workers(1_000_000, 2)
    jobs: list[tuple[str, dict[str, Any], int, int]] = []
    for ruleset, config, share in PLAN:
        total = round(per_ruleset * share)
        for k in range(0, total, SHARD):
            jobs.append((ruleset, config, min(SHARD, total - k), len(jobs)))
    print(
        f"fogofwar fuzz: {per_ruleset:,} inputs per rule set in {len(jobs)} shards of at "
        f"most {SHARD:,}, {workers} workers"
    )
    started = time.perf_counter()
    rows: dict[tuple[str, str], list[dict[str, Any]]] = {}
    with ProcessPoolExecutor(workers) as pool:
        for job, report in zip(jobs, pool.map(_shard, jobs), strict=True):
            key = (job[0], _config_text(job[1]))
            rows.setdefault(key, []).append(report)
        records = list(pool.map(_records, sorted({r for r, _, _ in PLAN})))
        files = list(pool.map(_files, sorted({r for r, _, _ in PLAN})))
    wall = time.perf_counter() - started
    header = (
        f"{'rule set':<12} {'config':<46} {'inputs':>9} {'applied':>8} {'refused':>9} "
        f"{'games':>6} {'checks':>9} {'crash':>5} {'viol.':>5} {'in/s/core':>9}"
    )
    print(header)
    totals: dict[str, list[int]] = {}
    findings: list[str] = []
    for (ruleset, config), reports in rows.items():
        s = {k: sum(r[k] for r in reports) for k in ("inputs", "applied", "refused", "games")}
        checks = sum(r["checks"] for r in reports)
        crashes = sum(r["crashes"] for r in reports)
        violations = sum(r["violations"] for r in reports)
        seconds = sum(r["seconds"] for r in reports)
        rate = s["inputs"] / seconds if seconds else 0.0
        print(
            f"{ruleset:<12} {config:<46} {s['inputs']:>9,} {s['applied']:>8,} "
            f"{s['refused']:>9,} {s['games']:>6,} {checks:>9,} {crashes:>5} {violations:>5} "
            f"{rate:>9,.0f}"
        )
        t = totals.setdefault(ruleset, [0, 0, 0])
        t[0] += s["inputs"]
        t[1] += crashes
        t[2] += violations
        for r in reports:
            findings += [f"{ruleset} {config}: {f}" for f in r["findings"]]
    print()
    for ruleset, (inputs, crashes, violations) in totals.items():
        print(f"{ruleset:<12} {inputs:>10,} inputs, {crashes} crashes, {violations} violations")
    print()
    for ruleset, trials, refused, verified, broken, seconds in records:
        print(
            f"{ruleset:<12} tampered records: {trials:,} copies of 10 finished games, "
            f"{refused:,} refused, {verified:,} still valid (meta only), "
            f"{len(broken)} fooled the umpire ({seconds:.0f} s)"
        )
        findings += [f"{ruleset} record {what}: {problem}" for what, problem in broken]
    for ruleset, tried, broken, seconds in files:
        print(
            f"{ruleset:<12} damaged data files: {tried:,} loaded, {len(broken)} failed other "
            f"than with one BadDataError ({seconds:.0f} s)"
        )
        findings += [f"{ruleset} file {what}: {problem}" for what, problem in broken]
    print(f"\nwall time {wall:.0f} s")
    for line in findings[:50]:
        print("FINDING", line)
    if findings:
        raise SystemExit(1)


def _config_text(config: dict[str, Any]) -> str:
    text = " ".join(f"{k}={v}" for k, v in config.items()) or "defaults"
    return text[:46]


if __name__ == "__main__":
    main()
