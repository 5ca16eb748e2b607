"""Benchmark the precomputed sight tables of fogofwar.core.sight.

Plain script: ``python bench/bench_sight.py``. Prints

* the orthogonal-ray table (Specter Ops) for a 23x32 board: our numpy build against a
  plain-Python loop over every (viewer, target) pair;
* the corner-line all-pairs table (Zero Dark FEAR) for a 32x32 map with walls: our build
  (cold, i.e. with the per-size line templates, and warm, templates cached) against a
  plain-Python loop calling :func:`corner_sees` per pair. The loop is run on a random
  sample of pairs and extrapolated to all pairs (it would take minutes in full); the
  sample is also checked against the table;
* the corner-line all-pairs table on the Zero Dark maps: each shipped map (24x24, via
  :func:`fogofwar.games.zero_dark.maps.load_map`) and a generated 48x48 map with walls
  and mixed Cyl terrain, for a Cyl 3 viewer: cold (the first build for that board size,
  which traces the line templates) and cached (templates cached, best of 3), with the
  pairs per second. A sample of pairs is checked against :func:`corner_sees`.
"""

from __future__ import annotations

import functools
import itertools
import random
import statistics
import time
from collections.abc import Callable

import numpy as np

from _args import check_argv
from fogofwar.core import sight as S
from fogofwar.core.grid import ROAD_EW, ROAD_NS
from fogofwar.games.zero_dark.maps import SHIPPED_MAPS, load_map


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


# ----------------------------------------------------------------------- Zero Dark maps


def generated_map(size: int = 48, seed: int = 4) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A ``size`` x ``size`` FEAR map: ``(cyl, walls_h, walls_v)`` as corner_table takes.

    Rooms of 6 to 12 squares a side are walled off along random cuts, each wall with a
    door gap or two; walls get a few random extra segments; terrain items of Cyl 1-5
    are scattered over 15% of the squares and solid blocks (Cyl 999, as the board
    wrappers treat opaque squares) over 4%.
    """
    rng = np.random.default_rng(seed)
    h = w = size
    wh = np.zeros((h + 1, w), dtype=bool)
    wv = np.zeros((h, w + 1), dtype=bool)
    cuts_r = [0]
    while cuts_r[-1] < h:
        cuts_r.append(min(h, cuts_r[-1] + int(rng.integers(6, 13))))
    cuts_c = [0]
    while cuts_c[-1] < w:
        cuts_c.append(min(w, cuts_c[-1] + int(rng.integers(6, 13))))
    for r in cuts_r[1:-1]:
        wh[r, :] = True
        for c0, c1 in itertools.pairwise(cuts_c):
            for c in rng.choice(np.arange(c0, c1), size=int(rng.integers(1, 3)), replace=False):
                wh[r, c] = False
    for c in cuts_c[1:-1]:
        wv[:, c] = True
        for r0, r1 in itertools.pairwise(cuts_r):
            for r in rng.choice(np.arange(r0, r1), size=int(rng.integers(1, 3)), replace=False):
                wv[r, c] = False
    wh |= rng.random(wh.shape) < 0.02
    wv |= rng.random(wv.shape) < 0.02
    roll = rng.random((h, w))
    cyl = np.where(roll < 0.15, rng.integers(1, 6, (h, w)), 0)
    cyl = np.where(roll > 0.96, 999, cyl)
    return cyl, wh, wv


def check_sample(
    cyl: np.ndarray,
    wh: np.ndarray,
    wv: np.ndarray,
    table: S.CornerTable,
    *,
    viewer_cyl: int,
    samples: int,
    seed: int,
) -> None:
    """Check ``samples`` random pairs of the table against the per-pair :func:`corner_sees`."""
    h, w = cyl.shape
    rnd = random.Random(seed)
    for _ in range(samples):
        v = (rnd.randrange(h), rnd.randrange(w))
        t = (rnd.randrange(h), rnd.randrange(w))
        if S.corner_sees(cyl, wh, wv, v, t, viewer_cyl=viewer_cyl) != table.sees(v, t):
            raise SystemExit(f"corner table and corner_sees disagree on {v} -> {t}")


def bench_zero_dark_maps(viewer_cyl: int = 3, samples: int = 300) -> None:
    # (label, build the table, the arrays that corner_sees takes for the sample check)
    cases: list[
        tuple[str, Callable[[], S.CornerTable], tuple[np.ndarray, np.ndarray, np.ndarray]]
    ] = []
    for name in SHIPPED_MAPS:
        board = load_map(name)
        build = functools.partial(S.board_corner_table, board, viewer_cyl=viewer_cyl)
        cases.append((name, build, (S._board_cyl(board), *board.walls())))
    cyl, wh, wv = generated_map()
    build = functools.partial(S.corner_table, cyl, wh, wv, viewer_cyl=viewer_cyl)
    cases.append(("generated 48x48", build, (cyl, wh, wv)))
    print(f"corner-line all-pairs tables on Zero Dark maps (viewer Cyl {viewer_cyl}):")
    header = (
        f"  {'map':<16} {'size':>6} {'pairs':>11} {'cold s':>8} {'cached s':>9} "
        f"{'pairs/s cached':>15} {'LOS':>6}"
    )
    print(header)
    print("  " + "-" * (len(header) - 2))
    for label, build, arrays in cases:
        S._corner_plan.cache_clear()  # cold: the first build for this board size
        t0 = time.perf_counter()
        table = build()
        cold = time.perf_counter() - t0
        cached = best_of(build, 3)
        h, w = table.shape
        n_pairs = (h * w) ** 2 - h * w
        check_sample(*arrays, table, viewer_cyl=viewer_cyl, samples=samples, seed=5)
        print(
            f"  {label:<16} {f'{w}x{h}':>6} {n_pairs:>11,} {cold:>8.3f} {cached:>9.3f} "
            f"{n_pairs / cached:>15,.0f} {table.visible.mean():>6.1%}"
        )
    print(
        f"  (cold: line templates traced for the size; cached: best of 3; "
        f"{samples} sampled pairs per map agree with corner_sees)"
    )


if __name__ == "__main__":
    check_argv(__doc__, plain=0)
    bench_orthogonal()
    print()
    bench_corner()
    print()
    bench_zero_dark_maps()
