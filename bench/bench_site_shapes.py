"""Specter Ops' hidden objective sites in two other shapes than the map's (issue 20).

Run: ``.venv/bin/python bench/bench_site_shapes.py [--players 4] [--games 3]``
(4 or 5 players: the sites are hidden only there, SO-S3).

The possibility map keeps a key's worlds as parts "these squares, with exactly these
site assignments possible", a set of the 1,296 assignments as one integer
(docs/specter-ops.md, "The possibility map's shape"). This bench measures two other
shapes, each found not to pay, so that the figures of docs/specter-ops.md ("The site
assignments, measured against other shapes") can be made again:

* **Products.** A world's sites are tied to its squares only by the objective checks
  (SO-O1, SO-O3), each ruling out, sector by sector, the candidates within reach of
  the agent's square: one history's possible sites are a product, a set of candidates
  per sector (24 bits). A key's parts are then kept by product, a square in as many
  parts as it has products (one inside another's on the same square dropped), and a
  join is an OR by product with no refinement. The bench plays the same random games
  (the bench's stream, characters on) once with the map as it is and once with the
  products, both with the kernels' Python forms (the C forms know only the map's
  shape), checks after every action that the two maps agree on everything a view
  reads (squares, sites, kits with their squares, roles), and prints the parts a map
  holds and the actions a second of each.
* **Sectors out of play.** A sector whose candidates no part tells apart (or a
  completed one) could be left out of the numbering. At every agent move of the
  map's own run, the bench counts the sectors the map's parts tell apart.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import _forms
import fogofwar.games.specter_ops.knowledge as knowledge
from bench_map_moves import play
from fogofwar.core import bitsets
from fogofwar.games.specter_ops.knowledge import PossibilityMap, SiteSpace

Rect = tuple[int, int, int]

SECTOR_BITS = 8
"""Bits a sector takes in a product, whatever its candidates (at most 7), the last one
set in every product of a space that has the sector. Every space's products (the
second agent's map starts from fewer candidates, or none) then share one test of
emptiness, and a bit past the sectors keeps a space without sectors non-empty."""

PRESENT = tuple(1 << (SECTOR_BITS * j + SECTOR_BITS - 1) for j in range(4))
CANDIDATES = tuple(((1 << (SECTOR_BITS - 1)) - 1) << (SECTOR_BITS * j) for j in range(4))
ALWAYS = 1 << (SECTOR_BITS * 4)


def product_space(candidates: tuple[tuple[int, ...], ...]) -> SiteSpace:
    """The product shape's :class:`SiteSpace`: one bit per candidate site, so that a
    set of candidates per sector (a product of assignments) is one small integer and
    the map's ``sites()`` reads it as it reads a set of assignments."""
    if len(candidates) > len(PRESENT) or any(len(c) >= SECTOR_BITS for c in candidates):
        raise ValueError(f"more sectors or candidates than a product holds: {candidates}")
    masks = tuple(
        {site: 1 << (SECTOR_BITS * j + i) for i, site in enumerate(sector)}
        for j, sector in enumerate(candidates)
    )
    full = ALWAYS
    for j, m in enumerate(masks):
        full |= PRESENT[j]
        for bit in m.values():
            full |= bit
    return SiteSpace(candidates, full, masks)


def possible(a: int) -> bool:
    """Whether the product ``a`` holds an assignment: no sector it has is left empty."""
    return bool(a & ALWAYS) and all(
        a & c for p, c in zip(PRESENT, CANDIDATES, strict=True) if a & p
    )


def completed_masks(
    space: SiteSpace, near: Sequence[int], completed: dict[int, int]
) -> tuple[int, int]:
    """``knowledge._completed_masks`` for products: each completed sector keeps only
    its site (the other sectors as they were)."""
    squares = assignments = -1
    for j, site in completed.items():
        every = 0
        for m in space.masks[j].values():
            every |= m
        assignments &= space.masks[j].get(site, 0) | ~every
        squares &= near[site]
    return squares, assignments


def pruned(by_a: dict[int, list[int]]) -> tuple[Rect, ...]:
    """Parts by product, a square dropped from a part whose product lies inside another
    part's that holds it too; in order of their products."""
    items = list(by_a.items())
    for a1, c1 in items:
        for a2, c2 in items:
            if a1 != a2 and not a1 & ~a2:
                c1[0] &= ~c2[0]
                c1[1] &= ~c2[1]
    return tuple((s, lg, a) for a, (s, lg) in sorted(by_a.items()) if s or lg)


def product_canon(rects: Iterable[Rect]) -> tuple[Rect, ...]:
    """The join of the product shape: an OR by product, then :func:`pruned`."""
    by_a: dict[int, list[int]] = {}
    for short, long, a in rects:
        if possible(a) and (short or long):
            both = by_a.setdefault(a, [0, 0])
            both[0] |= short
            both[1] |= long
    return pruned(by_a)


class ProductSplitter:
    """The objective check's splitter for products (:func:`bitsets.split_py`'s
    work, with a product left with an empty sector dropped)."""

    def __init__(self, union: int, ruled: Sequence[tuple[int, int]]) -> None:
        self._union = union
        self._ruled = tuple(ruled)

    def __call__(self, parts: Sequence[Rect], squares: int, assignments: int) -> tuple[Rect, ...]:
        by_a: dict[int, list[int]] = {}

        def put(a: int, sq: int) -> None:
            cur = by_a.setdefault(a, [0, 0])
            cur[0] |= sq

        for short, long, a in parts:
            sq = (short | long) & squares
            a &= assignments
            if not (sq and possible(a)):
                continue
            away = sq & ~self._union
            if away:
                put(a, away)
            sq &= self._union
            for out, zone in self._ruled:
                inside = sq & zone
                if inside:
                    sq ^= inside
                    left = a & ~out
                    if possible(left):
                        put(left, inside)
        return pruned(by_a)


@contextmanager
def products() -> Iterator[None]:
    """The map in the product shape (Python forms) while the block runs."""
    saved = {
        name: getattr(knowledge, name)
        for name in ("site_space", "_completed_masks", "_canon", "_Splitter", "_played")
    }
    canon_py = bitsets.canon_py
    knowledge._start.cache_clear()
    knowledge._ZONES.clear()
    knowledge.site_space = product_space  # type: ignore[assignment]
    knowledge._completed_masks = completed_masks
    knowledge._canon = product_canon
    knowledge._Splitter = ProductSplitter
    knowledge._played = bitsets.played_py
    bitsets.canon_py = product_canon  # played_py's join
    try:
        yield
    finally:
        for name, value in saved.items():
            setattr(knowledge, name, value)
        bitsets.canon_py = canon_py
        knowledge._start.cache_clear()
        knowledge._ZONES.clear()


def told_apart(m: PossibilityMap) -> int:
    """How many sectors some part of ``m`` tells apart: its set of assignments is
    neither the same for every candidate of the sector nor within one candidate's."""
    space = m.space
    sizes = [len(c) for c in space.candidates]
    count = 0
    for j, masks in enumerate(space.masks):
        stride = 1
        for n in sizes[j + 1 :]:
            stride *= n
        first = masks[space.candidates[j][0]]
        for parts in m.groups:
            apart = False
            for _, _, a in parts:
                base = a & first
                free = all(
                    (base << (stride * i)) == (a & masks[c])
                    for i, c in enumerate(space.candidates[j])
                )
                one = sum(1 for c in space.candidates[j] if a & masks[c]) == 1
                if not (free or one):
                    apart = True
                    break
            if apart:
                count += 1
                break
    return count


def readings(players: int, games: int) -> tuple[list[tuple[Any, ...]], list[int], float]:
    """The random games of ``bench_map_moves.py``: what the views read of the agent's
    map after every action, the parts it holds, and the CPU seconds."""
    seen: list[tuple[Any, ...]] = []
    parts: list[int] = []

    def each(state: Any) -> None:
        m = state.agents[0].knowledge
        seen.append(
            (
                m.squares,
                m.possible_sites(),
                sorted(m.kit_squares().items()),
                sorted(m.possible_roles()),
            )
        )
        parts.append(m.size)

    start = time.process_time()
    play(players, games, each)
    return seen, parts, time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=4, choices=(4, 5))
    parser.add_argument("--games", type=int, default=3)
    args = parser.parse_args()
    _forms.use(False)
    apart: Counter[int] = Counter()
    moved = PossibilityMap.moved

    def counting(self: PossibilityMap, *a: Any, **k: Any) -> PossibilityMap:
        apart[told_apart(self)] += 1
        return moved(self, *a, **k)

    exact, exact_parts, exact_time = readings(args.players, args.games)
    actions = len(exact)
    # The sectors counted in a run of their own: the count is not the map's time.
    PossibilityMap.moved = counting  # type: ignore[method-assign]
    try:
        play(args.players, args.games)
    finally:
        PossibilityMap.moved = moved  # type: ignore[method-assign]
    with products():
        prod, prod_parts, prod_time = readings(args.players, args.games)
    same = exact == prod
    print(f"{args.players} players, {args.games} games, {actions:,} actions (Python forms)")
    print("shape       parts a map: mean   most   actions/s")
    for label, got, took in (
        ("the map's", exact_parts, exact_time),
        ("products", prod_parts, prod_time),
    ):
        print(f"{label:<10} {sum(got) / len(got):>18.1f} {max(got):>6,} {actions / took:>11,.0f}")
    print(f"the views' reading of the two maps equal after every action: {'yes' if same else 'NO'}")
    print("agent moves by the sectors their map tells apart:")
    for n in sorted(apart, reverse=True):
        print(f"  {n} sectors: {apart[n]} moves")


if __name__ == "__main__":
    main()
