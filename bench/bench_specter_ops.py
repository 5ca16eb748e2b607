"""Specter Ops random play: actions per second on one core, by player count.

Run: ``.venv/bin/python bench/bench_specter_ops.py [games]``. Random legal actions from a
keyed stream, every action checked by ``apply`` (the umpire's full work: legality, the
possibility map, events), views not built. The OpenSpiel comparison belongs to the
bots-and-benchmark work; this prints our own figures.
"""

from __future__ import annotations

import sys
import time

from fogofwar.core.game import get_ruleset
from fogofwar.core.rng import stream


def run(config: dict[str, object], games: int) -> tuple[int, float]:
    rs = get_ruleset("specter-ops")
    actions = 0
    start = time.perf_counter()
    for seed in range(games):
        state = rs.new_game(config, seed)
        rng = stream(seed, "bench")
        while not state.is_over:
            (seat,) = state.to_act()
            state.apply(rng.choice(state.legal_actions(seat)))
            actions += 1
    return actions, time.perf_counter() - start


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    print(f"Specter Ops, random legal actions, {games} games per row")
    head = f"{'players':>7} {'characters':>10} {'rounds':>6} {'games':>5} {'actions':>8}"
    print(f"{head} {'seconds':>8} {'actions/s':>10}")
    for characters in (False, True):
        for players in (2, 3, 4, 5):
            rounds, n = 40, games
            if players == 5 and characters:
                # The traitor's role, hidden sites and 3-card kits together: the map peaks
                # at tens of thousands of groups (docs/specter-ops.md), so a short game.
                rounds, n = 12, 1
            config = {"players": players, "characters": characters, "max_rounds": rounds}
            actions, seconds = run(config, n)
            print(
                f"{players:>7} {characters!s:>10} {rounds:>6} {n:>5} {actions:>8} "
                f"{seconds:>8.2f} {actions / seconds:>10.0f}"
            )


if __name__ == "__main__":
    main()
