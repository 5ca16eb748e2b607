"""Specter Ops: the slowest single ``apply`` of random games, replayed (issue 20's 50 ms).

Run: ``.venv/bin/python bench/bench_slowest_apply.py [--players 5] [--games 3]
[--repeat 7]``.

Plays ``games`` random games with characters (the streams of ``bench_map_moves.py``),
finds the slowest single ``apply`` of each player count, then replays it ``repeat``
times from a copy of the state before it, alternating the bitset kernels in C
(``fogofwar.core.bitsets``, where built) and their pure-Python forms, with the collector
paused as a web table's process has it for the map's work. Printed: each form's best and
median milliseconds. A single timing on a shared machine moves by half; the best of
several is the figure to compare.
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

from _forms import use
from fogofwar.core import bitsets
from fogofwar.core.game import Action, get_ruleset
from fogofwar.core.rng import stream


def slowest(players: int, games: int) -> tuple[float, Any, Action]:
    """(ms, state before, action) of the slowest apply of ``games`` random games."""
    rs = get_ruleset("specter-ops")
    worst: tuple[float, Any, Action] | None = None
    for seed in range(games):
        state = rs.new_game({"players": players}, seed)
        rng = stream(seed, "bench")
        while not state.is_over:
            (seat,) = state.to_act()
            action = rng.choice(state.legal_actions(seat))
            before = state.clone()
            t = time.perf_counter()
            state.apply(action)
            ms = (time.perf_counter() - t) * 1000
            if worst is None or ms > worst[0]:
                worst = (ms, before, action)
    assert worst is not None
    return worst


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=5)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    forms = [True, False] if bitsets.NATIVE else [False]
    ms, before, action = slowest(args.players, args.games)
    print(f"{args.players} players, {args.games} games: slowest apply {ms:.1f} ms ({action})")
    times: dict[bool, list[float]] = {f: [] for f in forms}
    for i in range(args.repeat * len(forms)):
        native = forms[i % len(forms)]
        use(native)
        state = before.clone()
        t = time.perf_counter()
        state.apply(action)
        times[native].append((time.perf_counter() - t) * 1000)
    use(bitsets.NATIVE)
    for native, got in times.items():
        label = "C kernels" if native else "Python forms"
        print(f"{label:>13}: best {min(got):6.1f} ms, median {statistics.median(got):6.1f} ms")


if __name__ == "__main__":
    main()
