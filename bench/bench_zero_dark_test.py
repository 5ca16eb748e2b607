"""The exact distribution of a Zero Dark test (ZD-C1) for 10d12, against the plain
enumeration, in the same run.

Run: ``.venv/bin/python bench/bench_zero_dark_test.py [TN ...]`` (default 10 20 30).

* ours: ``grouping.distribution(10, TN)`` in a **fresh process** each (nothing cached;
  the time includes importing the module and numpy, shown apart);
* plain: every sorted roll of 10d12 (352,716 of them) with its multinomial weight and
  the exact best split of each (``successes``), in this process, the solver's memo
  cleared first.

Both must give the same distribution; the script checks it.
"""

from __future__ import annotations

import itertools
import json
import math
import subprocess
import sys
import time
from fractions import Fraction

from _args import check_argv
from fogofwar.games.zero_dark import grouping

CHILD = """
import json, time
t0 = time.perf_counter()
from fogofwar.games.zero_dark.grouping import distribution
t1 = time.perf_counter()
d = distribution(10, {tn})
t2 = time.perf_counter()
print(json.dumps({{"import": t1 - t0, "solve": t2 - t1,
                  "dist": {{str(k): [v.numerator, v.denominator] for k, v in d.items()}}}}))
"""


def fresh(tn: int) -> tuple[float, float, dict[int, Fraction]]:
    out = subprocess.run(
        [sys.executable, "-c", CHILD.format(tn=tn)], check=True, capture_output=True, text=True
    )
    data = json.loads(out.stdout)
    dist = {int(k): Fraction(n, q) for k, (n, q) in data["dist"].items()}
    return data["import"], data["solve"], dist


def plain(tn: int) -> tuple[float, dict[int, Fraction]]:
    grouping._solve.cache_clear()
    start = time.perf_counter()
    fact = [math.factorial(k) for k in range(11)]
    counts: dict[int, int] = {}
    for roll in itertools.combinations_with_replacement(range(12, 0, -1), 10):
        ways = fact[10]
        for _, run in itertools.groupby(roll):
            ways //= fact[sum(1 for _ in run)]
        k = grouping.successes(roll, tn)
        counts[k] = counts.get(k, 0) + ways
    elapsed = time.perf_counter() - start
    top = max(counts)
    return elapsed, {k: Fraction(counts.get(k, 0), 12**10) for k in range(top + 1)}


def main() -> None:
    check_argv(__doc__, plain=99)
    tns = [int(a) for a in sys.argv[1:]] or [10, 20, 30]
    print("Zero Dark test, 10d12: exact distribution of successes (ZD-C1)")
    print(f"{'TN':>4} {'ours (fresh)':>13} {'+ import':>9} {'plain':>8} {'speed-up':>9}  P(0..)")
    for tn in tns:
        imp, ours, dist = fresh(tn)
        slow, want = plain(tn)
        if dist != want:
            raise SystemExit(f"TN {tn}: the two methods disagree")
        probs = " ".join(f"{float(p):.4f}" for p in dist.values())
        print(f"{tn:>4} {ours:>12.2f}s {imp:>8.2f}s {slow:>7.2f}s {slow / ours:>8.1f}×  {probs}")


if __name__ == "__main__":
    main()
