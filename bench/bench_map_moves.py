"""Specter Ops: what one agent move costs the possibility map, move by move (issue 20).

Run: ``.venv/bin/python bench/bench_map_moves.py [--players 5] [--games 3] [--fold]
[--forms]``.
Random games with characters (the bench's stream, seeds 0 to GAMES-1); every agent move
(``PossibilityMap.moved``) is timed, with the map's groups, keys and parts going in,
the canonical joins it makes (``knowledge._canon``: calls, rectangles in, parts out)
and the groups and parts coming out. Printed: the slowest moves, the median move, and
the joins' share of all move time. ``--fold`` also measures an idea that was dropped:
folding the traitor's role into the site-assignment bits (each role a block of the
assignment integer), so that keys differ by kit only; it prints, at each hunters'
round of 5-player games, the groups and parts now and with the roles folded. ``--forms`` works
every agent move both with the bitset kernels in C (``fogofwar.core.bitsets``) and with
their pure-Python forms, checks that the maps are equal, and prints both times.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable, Iterable
from typing import Any

import fogofwar.games.specter_ops.knowledge as knowledge
from fogofwar.core.game import get_ruleset
from fogofwar.core.rng import stream
from fogofwar.games.specter_ops.knowledge import Part, Parts, PossibilityMap

COLUMNS = (
    "ms",
    "groups",
    "keys",
    "parts",
    "joins",
    "rects in",
    "parts out",
    "groups after",
    "parts after",
)


def instrument() -> tuple[list[tuple[float, ...]], list[float]]:
    """Wrap ``_canon`` and ``moved``: the rows of every move, and the joins' seconds."""
    rows: list[tuple[float, ...]] = []
    joins: list[tuple[int, int]] = []
    join_time = [0.0]
    canon = knowledge._canon
    moved = PossibilityMap.moved

    def timed_canon(rects: Iterable[Part]) -> Parts:
        rects = list(rects)
        t = time.perf_counter()
        out = canon(rects)
        join_time[0] += time.perf_counter() - t
        joins.append((len(rects), len(out)))
        return out

    def timed_moved(self: PossibilityMap, geo: Any, **kw: Any) -> PossibilityMap:
        n = len(joins)
        keys = sum(len(k) for k in self.groups.values())
        parts = sum(len(p) for p in self.groups)
        t = time.perf_counter()
        out = moved(self, geo, **kw)
        ms = (time.perf_counter() - t) * 1000
        made = joins[n:]
        rows.append(
            (
                ms,
                len(self.groups),
                keys,
                parts,
                len(made),
                sum(r for r, _ in made),
                sum(p for _, p in made),
                len(out.groups),
                sum(len(p) for p in out.groups),
            )
        )
        return out

    knowledge._canon = timed_canon
    PossibilityMap.moved = timed_moved  # type: ignore[method-assign]
    return rows, join_time


def folded(m: PossibilityMap) -> tuple[int, int]:
    """The groups and parts of ``m`` with the traitor's role folded into the assignment
    bits (one block of ``space.full``'s width per role)."""
    roles = sorted({k[0] for ks in m.groups.values() for k in ks})
    index = {r: i for i, r in enumerate(roles)}
    width = m.space.full.bit_length()
    by_kit: dict[tuple[Any, ...], list[Part]] = {}
    for parts, keys in m.groups.items():
        for role, cid, uses in keys:
            shift = index[role] * width
            by_kit.setdefault((cid, uses), []).extend((s, lg, a << shift) for s, lg, a in parts)
    groups = {knowledge._canon(rects) for rects in by_kit.values()}
    return len(groups), sum(len(p) for p in groups)


def forms() -> list[tuple[float, float]]:
    """Wrap ``moved``: each agent move is worked twice, by the bitset kernels (C where
    built) and by their Python forms (``fogofwar.core.bitsets``), alternating which goes
    first; the rows are (kernels ms, Python forms ms) and the maps must be equal."""
    from _forms import use

    moved = PossibilityMap.moved
    rows: list[tuple[float, float]] = []

    def timed(self: PossibilityMap, geo: Any, **kw: Any) -> PossibilityMap:
        ms: dict[str, float] = {}
        got: dict[str, PossibilityMap] = {}
        order = ("c", "py") if len(rows) % 2 else ("py", "c")
        for form in order:
            use(form == "c")
            t = time.perf_counter()
            got[form] = moved(self, geo, **kw)
            ms[form] = (time.perf_counter() - t) * 1000
        use(True)
        if got["c"] != got["py"]:
            raise AssertionError("the kernels and the Python forms made different maps")
        rows.append((ms["c"], ms["py"]))
        return got["c"]

    PossibilityMap.moved = timed  # type: ignore[method-assign]
    return rows


def play(players: int, games: int, each: Callable[[Any], None] | None = None) -> None:
    rs = get_ruleset("specter-ops")
    for seed in range(games):
        state = rs.new_game({"players": players}, seed)
        rng = stream(seed, "bench")
        while not state.is_over:
            (seat,) = state.to_act()
            state.apply(rng.choice(state.legal_actions(seat)))
            if each is not None:
                each(state)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=5)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--fold", action="store_true")
    parser.add_argument(
        "--forms", action="store_true", help="time every move with the C kernels and without"
    )
    args = parser.parse_args()
    if args.forms:
        from fogofwar.core import bitsets

        if not bitsets.NATIVE:
            raise SystemExit("the C kernels are not built here (or FOGOFWAR_PURE_PYTHON is set)")
        timings = forms()
        play(args.players, args.games)
        print(f"{args.players} players, {args.games} games, {len(timings)} agent moves")
        print("slowest moves (ms): C kernels, Python forms, ratio")
        for c, py in sorted(timings, key=lambda r: r[1], reverse=True)[:8]:
            print(f"{c:9.1f}  {py:9.1f}  {py / c:5.2f}")
        c_all = sum(c for c, _ in timings)
        py_all = sum(py for _, py in timings)
        print(f"all moves: {c_all / 1000:.2f} s with the kernels, {py_all / 1000:.2f} s without")
        return
    if args.fold:
        print("round  roles  groups  parts | folded: groups  parts")

        def fold(state: Any) -> None:
            m = state.agents[0].knowledge
            if str(state.phase) != "order" or len(m.groups) < 20:
                return
            roles = len({k[0] for ks in m.groups.values() for k in ks})
            g, p = folded(m)
            parts = sum(len(x) for x in m.groups)
            print(f"{state.round:5}  {roles:5}  {len(m.groups):6}  {parts:5} | {g:14}  {p:5}")

        play(args.players, args.games, fold)
        return
    rows, join_time = instrument()
    play(args.players, args.games)
    if not rows:
        print("no agent move")
        return
    print(f"{args.players} players, {args.games} games, {len(rows)} agent moves")
    print("  ".join(f"{c:>11}" for c in COLUMNS))
    for row in sorted(rows, reverse=True)[:8]:
        print("  ".join(f"{v:>11.1f}" if i == 0 else f"{int(v):>11,}" for i, v in enumerate(row)))
    median = [statistics.median(r[i] for r in rows) for i in range(len(COLUMNS))]
    print("median " + "  ".join(f"{v:>11.1f}" for v in median))
    total = sum(r[0] for r in rows) / 1000
    print(f"moves {total:.2f} s in all; the canonical joins {join_time[0]:.2f} s of it")


if __name__ == "__main__":
    main()
