"""Benchmark: exact dice distributions, fogofwar.core.dice against icepool.

Run with ``.venv/bin/python bench/bench_dice.py [--quick]``.

For each case it times, in the same run:

* **ours cold** — ``clear_caches()`` (our distribution and parse caches), then
  ``parse(text).dist()``: parsing plus every distribution computed from scratch;
* **ours warm** — ``parse(text).dist()`` with the caches full (a dictionary look-up);
* **icepool cold** — icepool's caches cleared (``icepool.d``'s ``functools.cache``,
  ``Pool.clear_cache()`` and the caches of every multiset evaluator alive), a fresh
  ``icepool.Die`` built (so no ``cached_property`` of a shared ``d6`` helps), then the
  same quantity computed;
* **icepool warm** — the same expression on icepool's module-level dice with its caches
  as they are after the first call (icepool's normal use).

Only the timed call is measured; clearing caches happens outside the clock. Each figure
is the mean per call over a batch, best of several batches. The answers are checked to
be equal (icepool's booleans read as 0/1).
"""

from __future__ import annotations

import gc
import statistics
import sys
import time
from collections.abc import Callable
from fractions import Fraction

import icepool
from icepool.evaluator.multiset_evaluator_base import MultisetEvaluatorBase

from _args import check_argv
from fogofwar.core.dice import Dist, clear_caches, parse


def icepool_fresh(sides: int) -> icepool.Die:
    return icepool.Die(range(1, sides + 1))


def as_int(die: icepool.Die) -> icepool.Die:
    return die.map(lambda v: int(v))


# (name, our notation, icepool cold (fresh dice), icepool warm (module dice))
CASES: list[tuple[str, str, Callable[[], icepool.Die], Callable[[], icepool.Die]]] = [
    (
        "exploding d6 depth 4 >= 8",
        "d6!4>=8",
        lambda: icepool_fresh(6).explode(depth=4) >= 8,
        lambda: icepool.d6.explode(depth=4) >= 8,
    ),
    (
        "5d6 counting 4+",
        "5d6#>=4",
        lambda: 5 @ (icepool_fresh(6) >= 4),
        lambda: 5 @ (icepool.d6 >= 4),
    ),
    (
        "d10+2 >= 8",
        "d10+2>=8",
        lambda: icepool_fresh(10) + 2 >= 8,
        lambda: icepool.d10 + 2 >= 8,
    ),
    (
        "10d6 keep highest 3",
        "10d6kh3",
        lambda: icepool_fresh(6).pool(10).highest(3).sum(),
        lambda: icepool.d6.pool(10).highest(3).sum(),
    ),
]

_evaluators: list[MultisetEvaluatorBase] = []  # type: ignore[type-arg]


def icepool_clear() -> None:
    """Empty every cache of icepool that could carry over from one call to the next."""
    icepool.d.cache_clear()
    icepool.z.cache_clear()
    icepool.Pool.clear_cache()
    for ev in _evaluators:
        for attr in ("_cache", "ascending_cache", "descending_cache"):
            ev.__dict__.pop(attr, None)


def collect_evaluators() -> None:
    """Find the evaluator objects icepool keeps alive (after one run of every case)."""
    _evaluators.extend(o for o in gc.get_objects() if isinstance(o, MultisetEvaluatorBase))


def per_call_us(f: Callable[[], object], before: Callable[[], None] | None, rounds: int) -> float:
    """Mean µs per call of ``f`` (``before`` runs untimed before each call), best round."""
    # Size a batch to about 0.1 s.
    t0 = time.perf_counter()
    n = 0
    while time.perf_counter() - t0 < 0.1:
        if before:
            before()
        f()
        n += 1
    best = float("inf")
    for _ in range(rounds):
        total = 0
        for _ in range(n):
            if before:
                before()
            start = time.perf_counter_ns()
            f()
            total += time.perf_counter_ns() - start
        best = min(best, total / n / 1000)
    return best


def icepool_probs(die: icepool.Die) -> dict[int, Fraction]:
    denom = die.denominator()
    return {
        int(o): Fraction(q, denom)
        for o, q in zip(die.outcomes(), die.quantities(), strict=True)
        if q
    }


def main() -> int:
    check_argv(__doc__, flags=("--quick",), plain=0)
    rounds = 3 if "--quick" in sys.argv else 7
    for _, _, cold, warm in CASES:
        cold()
        warm()
    collect_evaluators()

    rows = []
    ok = True
    for name, text, ice_cold, ice_warm in CASES:
        ours: Dist = parse(text).dist()
        same = dict(ours.items()) == icepool_probs(ice_cold()) == icepool_probs(ice_warm())
        ok &= same
        oc = per_call_us(lambda t=text: parse(t).dist(), clear_caches, rounds)
        ow = per_call_us(lambda t=text: parse(t).dist(), None, rounds)
        ic = per_call_us(ice_cold, icepool_clear, rounds)
        iw = per_call_us(ice_warm, None, rounds)
        rows.append((name, text, oc, ow, ic, iw, same))

    header = (
        f"{'case':<26} {'notation':<10} {'ours cold':>10} {'ours warm':>10} "
        f"{'icepool cold':>13} {'icepool warm':>13} {'cold ratio':>10} {'warm ratio':>10}  equal"
    )
    print(f"icepool {icepool.__version__}, Python {sys.version.split()[0]}; times in µs per call")
    print(header)
    print("-" * len(header))
    for name, text, oc, ow, ic, iw, same in rows:
        print(
            f"{name:<26} {text:<10} {oc:>10.1f} {ow:>10.2f} {ic:>13.1f} {iw:>13.1f} "
            f"{ic / oc:>9.1f}x {iw / ow:>9.0f}x  {'yes' if same else 'NO'}"
        )
    print("ratio = icepool time / our time (higher means we are faster)")
    geo = statistics.geometric_mean(ic / oc for _, _, oc, _, ic, _, _ in rows)
    print(f"cold: geometric mean speed-up {geo:.1f}x")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
