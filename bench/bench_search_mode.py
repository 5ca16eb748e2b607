"""Specter Ops random play with and without the view-only work (``State.skip_views``,
what a search's world skips): actions per second on one core, whole games with
characters (the default), at 3, 4 and 5 players (5 with the traitor).

Run: ``.venv/bin/python bench/bench_search_mode.py [seconds]`` (default 8 s a row).
"""

from __future__ import annotations

import time

from _args import check_argv, extra_args
from fogofwar.core.game import get_ruleset
from fogofwar.core.rng import stream


def rate(players: int, *, skip: bool, seconds: float) -> float:
    """Actions per second of random whole games for ``seconds``."""
    rs = get_ruleset("specter-ops")
    done, seed = 0, 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = rs.new_game({"players": players}, seed)
        if skip:
            state.skip_views()
        pick = stream(seed, "bench-search-mode")
        seed += 1
        while not state.is_over:
            (seat,) = state.to_act()
            state.apply_unchecked(pick.choice(state.legal_actions(seat)))
            done += 1
    return done / (time.perf_counter() - start)


def main() -> None:
    check_argv(__doc__)
    args = extra_args()
    seconds = float(args[0]) if args else 8.0
    print("Specter Ops random play, actions per second (one core):")
    print(f"  {'players':<8} {'with views':>12} {'skip_views':>12} {'ratio':>7}")
    for players in (3, 4, 5):
        full = rate(players, skip=False, seconds=seconds)
        fast = rate(players, skip=True, seconds=seconds)
        print(f"  {players:<8} {full:>12,.0f} {fast:>12,.0f} {fast / full:>6.1f}x")


if __name__ == "__main__":
    main()
