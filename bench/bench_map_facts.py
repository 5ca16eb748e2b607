"""Specter Ops' possibility map alone: every public fact of random games, replayed.

Run: ``.venv/bin/python bench/bench_map_facts.py [--players 3] [--games 20] [--repeat 5]``.

Plays ``games`` random games (the keyed streams of ``bench_specter_ops.py``, characters
on), keeping each fact worked into the agent's map with the map it was given, then
works every fact into its map again ``repeat`` times with the collector off: the best
run's CPU seconds, in all and by fact (the line of the rules that states it). Nothing
else is timed: not the rules, not the legal actions.

Timings on a shared machine move by a quarter from run to run. To compare two versions
of the code, count instructions instead, which are the same every run: under valgrind's
callgrind, ``PYTHONHASHSEED=0 PYTHONMALLOC=malloc valgrind --tool=callgrind
--callgrind-out-file=/dev/null .venv/bin/python bench/bench_map_facts.py --games 3
--repeat R --quiet`` once with ``R`` = 2 and once with 0 ("Collected"): half the
difference is one replay's instructions.
"""

from __future__ import annotations

import argparse
import gc
import time
from collections import Counter
from collections.abc import Callable

from fogofwar.core.game import get_ruleset
from fogofwar.core.rng import stream
from fogofwar.games.specter_ops.knowledge import PossibilityMap
from fogofwar.games.specter_ops.state import SpecterOpsState

Fact = Callable[[PossibilityMap], PossibilityMap]


def record(players: int, games: int) -> list[tuple[PossibilityMap, Fact]]:
    """(map, fact) for every fact worked into the agent's map in ``games`` games."""
    kept: list[tuple[PossibilityMap, Fact]] = []
    learn = SpecterOpsState._learn

    def keep(self: SpecterOpsState, fact: Fact) -> None:
        kept.append((self.focus.knowledge, fact))
        learn(self, fact)

    SpecterOpsState._learn = keep  # type: ignore[method-assign]
    try:
        for seed in range(games):
            state = get_ruleset("specter-ops").new_game({"players": players}, seed)
            rng = stream(seed, "bench")
            while not state.is_over:
                (seat,) = state.to_act()
                state.apply(rng.choice(state.legal_actions(seat)))
    finally:
        SpecterOpsState._learn = learn  # type: ignore[method-assign]
    return kept


def name(fact: Fact) -> str:
    """Where a fact is stated: its lambda's file and line, or what it calls."""
    code = getattr(fact, "__code__", None)
    if code is not None:
        return f"{code.co_filename.rsplit('/', 1)[-1]}:{code.co_firstlineno}"
    return getattr(getattr(fact, "func", fact), "__qualname__", repr(fact))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--quiet", action="store_true", help="print nothing (callgrind)")
    args = parser.parse_args()
    kept = record(args.players, args.games)
    gc.disable()  # the facts' own work, not the collections it happens to start
    best: tuple[float, Counter[str]] | None = None
    for _ in range(args.repeat):
        spent: Counter[str] = Counter()
        start = time.process_time()
        for knowledge, fact in kept:
            t = time.process_time()
            fact(knowledge)
            spent[name(fact)] += time.process_time() - t
        total = time.process_time() - start
        if best is None or total < best[0]:
            best = (total, spent)
    if args.quiet or best is None:
        return
    total, spent = best
    print(
        f"{args.players} players, {args.games} games: {len(kept)} facts, best of "
        f"{args.repeat}: {total:.3f} CPU s ({total / len(kept) * 1e6:.1f} µs a fact)"
    )
    for where, took in spent.most_common(8):
        print(f"  {where:<40} {took:.3f} s")


if __name__ == "__main__":
    main()
