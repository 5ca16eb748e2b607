"""Benchmark the precomputed sight tables of fogofwar.core.sight.

Plain script: ``python bench/bench_sight.py``. Prints

* the orthogonal-ray table (Specter Ops) for a 23x32 board: our numpy build against a
  plain-Python loop over every (viewer, target) pair;
* the corner-line all-pairs table (Zero Dark FEAR) for a 32x32 map with walls: our build
  (cold, i.e. with the per-size line templates, and warm, templates cached) against a
  plain-Python loop calling :func:`corner_sees` per pair. The loop is run on a random
  sample of pairs and extrapolated to all pairs (it would take minutes in full); the
  sample is also checked against the table.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable

import numpy as np

from fogofwar.core import sight as S
from fogofwar.core.grid import ROAD_EW, ROAD_NS


def best_of(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


# ----------------------------------------------------------------------- orthogonal


def specter_board(seed: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """A 23-column x 32-row board in the style of SO-B1: 2-wide roads and structures."""
    rng = np.random.default_rng(seed)
    h, w = 32, 23
    roads = np.zeros((h, w), dtype=np.uint8)
    roads[0:14, 13:15] |= ROAD_NS
    roads[6:8, 0:15] |= ROAD_EW
    roads[14:16, 0:15] |= ROAD_EW
    roads[16:32, 9:11] |= ROAD_NS
    roads[20:22, 9:23] |= ROAD_EW
    roads[22:24, 0:11] |= ROAD_EW
    opaque = (rng.random((h, w)) < 0.22) & (roads == 0)
    return opaque, roads


def python_orthogonal_pairs(opaque: list[list[bool]]) -> list[list[list[list[bool]]]]:
    """The baseline: for every viewer and every target, walk the row or column."""
    h, w = len(opaque), len(opaque[0])
    out = [[[[False] * w for _ in range(h)] for _ in range(w)] for _ in range(h)]
    for vr in range(h):
        for vc in range(w):
            seen = out[vr][vc]
            for tr in range(h):
                for tc in range(w):
                    if (tr, tc) == (vr, vc):
                        seen[tr][tc] = True
                    elif tr == vr:
                        step = 1 if tc > vc else -1
                        seen[tr][tc] = not any(
                            opaque[vr][c] for c in range(vc + step, tc + step, step)
                        )
                    elif tc == vc:
                        step = 1 if tr > vr else -1
                        seen[tr][tc] = not any(
                            opaque[r][vc] for r in range(vr + step, tr + step, step)
                        )
    return out


def bench_orthogonal() -> None:
    opaque, roads = specter_board()
    h, w = opaque.shape
    ours = best_of(lambda: S.orthogonal_table(opaque), 20)
    ours_road = best_of(lambda: S.orthogonal_table(opaque, roads=roads, road_rule=True), 20)
    op_list = opaque.tolist()
    t0 = time.perf_counter()
    baseline = python_orthogonal_pairs(op_list)
    py = time.perf_counter() - t0
    table = S.orthogonal_table(opaque).visible
    if not np.array_equal(table, np.array(baseline, dtype=bool)):
        raise SystemExit("orthogonal table and the Python loop disagree")
    print(f"orthogonal table, {w}x{h} board ({h * w} squares, {(h * w) ** 2:,} pairs):")
    print(f"  numpy table           {ours * 1e3:8.2f} ms")
    print(f"  numpy table, SO-L2    {ours_road * 1e3:8.2f} ms")
    print(f"  plain-Python pairs    {py * 1e3:8.1f} ms   ({py / ours:,.0f}x slower)")


# ----------------------------------------------------------------------- corner lines


def fear_map(seed: int = 2) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A 32x32 map of 8x8 rooms (walls with door gaps) and scattered terrain items."""
    rng = np.random.default_rng(seed)
    h = w = 32
    wh = np.zeros((h + 1, w), dtype=bool)
    wv = np.zeros((h, w + 1), dtype=bool)
    for k in range(0, h + 1, 8):
        wh[k, :] = True
        wv[:, k] = True
    for k in range(8, h, 8):  # two door gaps per room side
        for s in range(0, w, 8):
            for d in rng.choice(8, size=2, replace=False):
                wh[k, s + d] = False
                wv[s + d, k] = False
    wh |= rng.random(wh.shape) < 0.03
    wv |= rng.random(wv.shape) < 0.03
    cyl = np.where(rng.random((h, w)) < 0.12, rng.integers(1, 4, (h, w)), 0)
    return cyl, wh, wv


def bench_corner(samples: int = 3000) -> None:
    cyl, wh, wv = fear_map()
    h, w = cyl.shape
    S._corner_plan.cache_clear()
    t0 = time.perf_counter()
    table = S.corner_table(cyl, wh, wv, viewer_cyl=2)
    cold = time.perf_counter() - t0
    warm = best_of(lambda: S.corner_table(cyl, wh, wv, viewer_cyl=2), 5)
    rnd = random.Random(3)
    cells = [(r, c) for r in range(h) for c in range(w)]
    pairs = []
    while len(pairs) < samples:
        v, t = rnd.choice(cells), rnd.choice(cells)
        if v != t:
            pairs.append((v, t))
    per_pair = []
    disagree = 0
    for v, t in pairs:
        t0 = time.perf_counter()
        sees = S.corner_sees(cyl, wh, wv, v, t, viewer_cyl=2)
        per_pair.append(time.perf_counter() - t0)
        disagree += sees != table.sees(v, t)
    if disagree:
        raise SystemExit(f"corner table and the per-pair loop disagree on {disagree} pairs")
    n_pairs = (h * w) ** 2 - h * w
    mean = statistics.fmean(per_pair)
    print(f"corner-line all-pairs table, {w}x{h} map with walls ({n_pairs:,} pairs):")
    print(f"  numpy table, cold     {cold:8.3f} s   (includes tracing the line templates)")
    print(f"  numpy table, warm     {warm:8.3f} s   (templates cached per board size)")
    print(
        f"  plain-Python pairs    {mean * n_pairs:8.1f} s   (extrapolated: {samples} sampled "
        f"pairs, {mean * 1e6:.0f} us each; {mean * n_pairs / warm:,.0f}x the warm table)"
    )
    print(f"  LOS in {table.visible.mean():.1%} of pairs; the sample agrees with the table")


if __name__ == "__main__":
    bench_orthogonal()
    print()
    bench_corner()
