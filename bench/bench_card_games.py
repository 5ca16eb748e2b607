"""Rock-n-Roll, Warfighter and Zero Dark missions under random play: actions per second.

Run: ``.venv/bin/python bench/bench_card_games.py [games]`` (default 20). Random legal
actions from a keyed stream, each checked by ``apply`` (legality, the rules, events);
then as many other games (the next seeds) building the acting seat's view before every
action, as a bot or the terminal does. Other games, because what the first pass kept
(Zero Dark's sight reports, kept with the board) would otherwise serve the second from
positions it has seen before, which no real game does. One core; the figures are this
machine's, ±20% between runs.

Each row also prints the slowest single ``apply`` of its games (views included) and the
longest full collection of Python's garbage collector while they ran (``gc.callbacks``):
where the two are about equal, a full collection landed in that apply.
"""

from __future__ import annotations

import sys
import time
from typing import Any

from _args import check_argv
from _full_collections import FullCollections
from fogofwar.core.game import get_ruleset
from fogofwar.core.rng import stream

GAMES: tuple[tuple[str, dict[str, Any]], ...] = (
    ("rock-n-roll", {}),
    ("warfighter", {"mission": "dagon"}),
    ("zero-dark", {"mission": "the-spy"}),
    ("zero-dark", {"mission": "dead-drop"}),
)


def run(
    ruleset: str, config: dict[str, Any], games: int, views: bool, first: int = 0
) -> tuple[int, float, float]:
    """Random play of ``games`` games from seed ``first``: (actions, seconds, the slowest
    apply's seconds)."""
    rs = get_ruleset(ruleset)
    actions = 0
    slowest = 0.0
    clock = time.perf_counter
    start = clock()
    for seed in range(first, first + games):
        state = rs.new_game(config, seed)
        rng = stream(seed, "bench")
        while not state.is_over:
            seat = sorted(state.to_act())[0]
            if views:
                state.view(seat)
            action = rng.choice(state.legal_actions(seat))
            began = clock()
            state.apply(action)
            slowest = max(slowest, clock() - began)
            actions += 1
    return actions, clock() - start, slowest


def main() -> None:
    check_argv(__doc__)
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    print(f"random legal actions, {games} games per row")
    print(
        f"{'game':<24} {'actions/game':>12} {'actions/s':>10} {'with views/s':>13}"
        f" {'slowest apply':>14} {'longest full collection':>24}"
    )
    full = FullCollections()
    for ruleset, config in GAMES:
        label = ruleset + (f" {config['mission']}" if "mission" in config else "")
        full.reset()
        n, secs, slow = run(ruleset, config, games, views=False)
        n_v, secs_v, slow_v = run(ruleset, config, games, views=True, first=games)
        slowest = f"{max(slow, slow_v) * 1000:>11.1f} ms"
        collected = f"{full.longest * 1000:>21.1f} ms" if full.longest else f"{'none':>24}"
        print(
            f"{label:<24} {n / games:>12.0f} {n / secs:>10,.0f} {n_v / secs_v:>13,.0f}"
            f" {slowest} {collected}"
        )


if __name__ == "__main__":
    main()
