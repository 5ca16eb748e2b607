"""Rock-n-Roll, Warfighter and Zero Dark missions under random play: actions per second.

Run: ``.venv/bin/python bench/bench_card_games.py [games]`` (default 20). Random legal
actions from a keyed stream, each checked by ``apply`` (legality, the rules, events);
then the same games again building the acting seat's view before every action, as a bot
or the terminal does. One core; the figures are this machine's, ±20% between runs.
"""

from __future__ import annotations

import sys
import time
from typing import Any

from fogofwar.core.game import get_ruleset
from fogofwar.core.rng import stream

GAMES: tuple[tuple[str, dict[str, Any]], ...] = (
    ("rock-n-roll", {}),
    ("warfighter", {"mission": "dagon"}),
    ("zero-dark", {"mission": "the-spy"}),
    ("zero-dark", {"mission": "dead-drop"}),
)


def run(ruleset: str, config: dict[str, Any], games: int, views: bool) -> tuple[int, float]:
    rs = get_ruleset(ruleset)
    actions = 0
    start = time.perf_counter()
    for seed in range(games):
        state = rs.new_game(config, seed)
        rng = stream(seed, "bench")
        while not state.is_over:
            seat = sorted(state.to_act())[0]
            if views:
                state.view(seat)
            state.apply(rng.choice(state.legal_actions(seat)))
            actions += 1
    return actions, time.perf_counter() - start


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    print(f"random legal actions, {games} games per row")
    print(f"{'game':<24} {'actions/game':>12} {'actions/s':>10} {'with views/s':>13}")
    for ruleset, config in GAMES:
        label = ruleset + (f" {config['mission']}" if "mission" in config else "")
        n, secs = run(ruleset, config, games, views=False)
        _, secs_v = run(ruleset, config, games, views=True)
        print(f"{label:<24} {n / games:>12.0f} {n / secs:>10,.0f} {n / secs_v:>13,.0f}")


if __name__ == "__main__":
    main()
