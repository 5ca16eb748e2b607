"""Warfighter bots: the heuristic squad against the random one on the Dagon mission.

Run: ``.venv/bin/python bench/study_warfighter_bots.py [games] [--workers W]``
(defaults: 400 games per bot, 1 worker; more workers need ``warfighter`` among the
built-in rule sets, which worker processes load by name). Each bot plays the same
batch of seeds; the table gives each one's win rate with its 95% Wilson interval and
the means of the mission's metrics, then the difference of the win rates (heuristic −
random) with Newcombe's 95% interval. Batch seeds are fixed, so a run repeats exactly
(any worker count).
"""

from __future__ import annotations

import time

import fogofwar.games.warfighter  # noqa: F401  (registers the rule set and its bot)
from _args import games_and_workers
from fogofwar.core.game import get_ruleset
from fogofwar.sim.runner import run_batch
from fogofwar.sim.stats import difference, wilson_interval

METRICS = (
    "turns",
    "breaches_attack",
    "breaches_pick",
    "checks_rolled",
    "checks_failed",
    "hostiles_killed",
    "soldiers_lost",
)


def main() -> None:
    games, workers = games_and_workers(400, 1)
    rs = get_ruleset("warfighter")
    print(f"Warfighter, mission Dagon: {games} games per bot, the squad's win rate (95% CI)")
    wins: dict[str, int] = {}
    for bot in ("wf-heuristic", "random"):
        start = time.perf_counter()
        result = run_batch(
            rs,
            games=games,
            seed="wf-bots",
            seats={"squad": bot},
            config_overrides={"mission": "dagon"},
            workers=workers,
        )
        stats = result.stats()
        n = stats.wins["squad"].successes
        wins[bot] = n
        ci = wilson_interval(n, games)
        means = {m: sum(g.metrics[m] for g in result.games) / games for m in METRICS}
        print(
            f"  {bot:<13} wins {n / games:6.1%} [{ci.low:.1%}, {ci.high:.1%}]  "
            + "  ".join(f"{m} {v:.2f}" for m, v in means.items())
            + f"  ({time.perf_counter() - start:.0f} s)"
        )
    d = difference(wins["wf-heuristic"], games, wins["random"], games)
    lo, hi = d.interval.low, d.interval.high
    print(
        f"  wf-heuristic − random: {d.estimate:+.1%} [{lo:+.1%}, {hi:+.1%}]"
        + ("  (significant)" if d.significant else "")
    )


if __name__ == "__main__":
    main()
