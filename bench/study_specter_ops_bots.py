"""Specter Ops bots: the heuristic bots against the random ones, by player count.

Run: ``.venv/bin/python bench/study_specter_ops_bots.py [games] [players ...] [--workers W]``
(defaults: 400 games per pairing, players 2 3 4 5, 2 workers). Four pairings per player
count — agent random / so-agent × hunters random / so-hunter — with the agent's win rate
and its 95% Wilson interval, then the two comparisons the bots are built for, as
differences with Newcombe's 95% interval:

* the heuristic agent against the random agent, both facing random hunters;
* heuristic hunters against random hunters, both facing the heuristic agent (the
  hunters' win rate, 1 − the agent's).

Batch seeds are fixed, so a run repeats exactly (any worker count).
"""

from __future__ import annotations

import time

from _args import extra_args, games_and_workers
from fogofwar.core.game import get_ruleset
from fogofwar.sim.runner import run_batch
from fogofwar.sim.stats import difference


def agent_wins(players: int, agent: str, hunters: str, games: int, workers: int) -> int:
    rs = get_ruleset("specter-ops")
    seats = {s: (agent if s == "agent" else hunters) for s in rs.seats({"players": players})}
    result = run_batch(
        rs,
        games=games,
        seed=f"bots-{players}",
        seats=seats,
        config_overrides={"players": players},
        workers=workers,
    )
    return result.stats().wins["agent"].successes


def main() -> None:
    games, workers = games_and_workers(400, 2)
    args = extra_args()
    counts = [int(a) for a in args[1:]] or [2, 3, 4, 5]
    print(f"Specter Ops bots, {games} games per pairing, agent's win rate (95% CI)")
    for players in counts:
        start = time.perf_counter()
        wins = {}
        for agent in ("random", "so-agent"):
            for hunters in ("random", "so-hunter"):
                n = agent_wins(players, agent, hunters, games, workers)
                wins[agent, hunters] = n
                rate = n / games
                print(f"  {players}p agent={agent:<8} hunters={hunters:<9} agent wins {rate:6.1%}")
        a = difference(wins["so-agent", "random"], games, wins["random", "random"], games)
        h = difference(
            games - wins["so-agent", "so-hunter"], games, games - wins["so-agent", "random"], games
        )
        for label, d in (
            ("so-agent − random agent (vs random hunters)", a),
            ("so-hunter − random hunters (vs so-agent)", h),
        ):
            lo, hi = d.interval.low, d.interval.high
            print(f"  {players}p {label}: {d.estimate:+.1%} [{lo:+.1%}, {hi:+.1%}]")
        print(f"  ({time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
