"""Rock-n-Roll bots: the heuristic bot against the random one, on both seats.

Run: ``.venv/bin/python bench/study_rock_n_roll_bots.py [games] [--workers W]``
(defaults: 400 matches per pairing, 2 workers). Three pairings — random against random
(the seats' own balance), ``rnr-heuristic`` as Vietnam against a random VPA, and a
random Vietnam against ``rnr-heuristic`` as the VPA — with each side's win rate and its
95% Wilson interval, then, per seat, the heuristic's win rate minus the random bot's on
that seat against the same random opponent, as a difference with Newcombe's 95%
interval, and the match figures the rule set reports (prisoners, fates, deals, rounds).

Batch seeds are fixed, so a run repeats exactly (any worker count).
"""

from __future__ import annotations

import time

import fogofwar.games.rock_n_roll  # noqa: F401  (registers the rule set and its bot)
from _args import games_and_workers
from fogofwar.core.game import get_ruleset
from fogofwar.sim.runner import run_batch
from fogofwar.sim.stats import BatchStats, difference

SEATS = ("vietnam", "vpa")
FIGURES = (
    "rounds",
    "prisoners_vietnam",
    "prisoners_vpa",
    "tortured",
    "executed",
    "recruited",
    "backfired",
    "freed",
    "deals",
)


def pairing(vietnam: str, vpa: str, games: int, workers: int) -> BatchStats:
    result = run_batch(
        get_ruleset("rock-n-roll"),
        games=games,
        seed=f"rnr-bots-{vietnam}-{vpa}",
        seats={"vietnam": vietnam, "vpa": vpa},
        workers=workers,
    )
    return result.stats()


def main() -> None:
    games, workers = games_and_workers(400, 2)
    start = time.perf_counter()
    print(f"Rock-n-Roll bots, {games} matches per pairing: win rates (95% CI)")
    stats = {}
    for vietnam, vpa in (
        ("random", "random"),
        ("rnr-heuristic", "random"),
        ("random", "rnr-heuristic"),
    ):
        s = pairing(vietnam, vpa, games, workers)
        stats[vietnam, vpa] = s
        parts = []
        for seat in SEATS:
            w = s.wins[seat]
            lo, hi = w.interval.low, w.interval.high
            parts.append(f"{seat} {w.rate:6.1%} [{lo:.1%}, {hi:.1%}]")
        print(
            f"  vietnam={vietnam:<13} vpa={vpa:<13} "
            + "  ".join(parts)
            + f"  draws {s.draws.rate:5.1%}  ({s.mean_length:.0f} actions)"
        )
        figures = ", ".join(f"{k} {s.metrics.get(k, 0.0):.2f}" for k in FIGURES)
        print(f"    per match: {figures}")
    rr = stats["random", "random"]
    for seat, key in (
        ("vietnam", ("rnr-heuristic", "random")),
        ("vpa", ("random", "rnr-heuristic")),
    ):
        h = stats[key].wins[seat]
        r = rr.wins[seat]
        d = difference(h.successes, h.trials, r.successes, r.trials)
        lo, hi = d.interval.low, d.interval.high
        print(
            f"  rnr-heuristic − random as {seat} (vs a random opponent): "
            f"{d.estimate:+.1%} [{lo:+.1%}, {hi:+.1%}]"
        )
    print(f"  ({time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
