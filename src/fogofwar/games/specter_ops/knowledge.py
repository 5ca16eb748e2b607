"""The hunters' possibility map (SO-I2): where the agent may be, from public facts only.

:class:`PossibilityMap` is updated **only** from what the hunters are told — the
public events of the game (hunters' squares, the vehicle, "Clear" answers, reveals,
Last Seen tokens, sensor answers, completed objectives, the escape rule) — and never
reads the agent's true square. That makes SO-I1 structural: nothing secret can leak
into a hunter's view through the map, and the map is exactly the set of squares an
agent could be on given those facts.

Representation. The hunters do not know the hidden objective sites of a 4–5 player
game, and "no objective was completed at the start of the agent's turn" says the
agent was not next to *its* site: the map must be kept jointly with the possible
sites. A :class:`Group` is ``(short, long, allowed)``: for **every** assignment of
sites drawn from ``allowed`` (one candidate set per sector), the agent may be on the
squares of ``short`` (if its last move had ≤ 2 steps) or ``long`` (3–4 steps — the
motion sensor's threshold, SO-V5). Groups are split only where a fact treats site
candidates differently, which is rare, so there are usually one or a few.

Moves are *walks* (a square may be revisited), so the squares after exactly ``k``
steps are computed by ``k`` applications of :meth:`MoveGraph.step_bits`.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from .geometry import Geometry

__all__ = ["Group", "PossibilityMap"]

MAX_STEPS = 4
SHORT_MOVE = 2  # "2 or fewer steps" gives "no movement detected" (SO-V5)


def _merge_products(
    products: list[tuple[frozenset[int], ...]],
) -> list[tuple[frozenset[int], ...]]:
    """Merge products of site sets that differ in one sector only (their union is then
    again a product), until no two do. Same squares for both means one group will do.
    """
    items = list(dict.fromkeys(products))
    changed = True
    while changed and len(items) > 1:
        changed = False
        n = len(items[0])
        for j in range(n):
            # Products equal outside sector j merge into one: union of their sector j.
            buckets: dict[tuple[frozenset[int], ...], frozenset[int]] = {}
            for p in items:
                key = p[:j] + p[j + 1 :]
                buckets[key] = buckets.get(key, frozenset()) | p[j]
            if len(buckets) < len(items):
                items = [(*k[:j], v, *k[j:]) for k, v in buckets.items()]
                changed = True
    return items


@dataclass(frozen=True, slots=True)
class Group:
    """Squares where the agent may be, for every site assignment drawn from ``allowed``.

    Attributes:
        short: bitboard, if the agent's last move had at most 2 steps.
        long: bitboard, if it had 3 or 4 steps.
        allowed: per sector, the candidate site indices still possible (a completed
            sector holds its one known site).
    """

    short: int
    long: int
    allowed: tuple[frozenset[int], ...]

    @property
    def squares(self) -> int:
        """Every square of the group."""
        return self.short | self.long


@dataclass(frozen=True, slots=True)
class PossibilityMap:
    """The exact set of squares where the agent may be, as the hunters know it.

    Immutable: every update returns a new map.
    """

    groups: tuple[Group, ...]

    # ------------------------------------------------------------------ queries

    @property
    def squares(self) -> int:
        """Bitboard of every square the agent may be on."""
        out = 0
        for g in self.groups:
            out |= g.squares
        return out

    def possible_sites(self) -> tuple[frozenset[int], ...]:
        """Per sector, the objective sites that are still possible."""
        n = len(self.groups[0].allowed) if self.groups else 0
        return tuple(frozenset().union(*(g.allowed[j] for g in self.groups)) for j in range(n))

    # ------------------------------------------------------------------ start

    @classmethod
    def start(cls, square: int, sites: Sequence[frozenset[int]]) -> PossibilityMap:
        """The map at setup: the agent is on its start square (public, SO-S5).

        Args:
            square: the agent's start square.
            sites: per sector, the candidate sites the hunters allow: the one public
                site with 2–3 players, all six with 4–5 (SO-S3).
        """
        return cls((Group(1 << square, 0, tuple(frozenset(s) for s in sites)),))

    # ------------------------------------------------------------------ facts

    def _normalise(self, groups: Iterable[Group]) -> PossibilityMap:
        """Drop empty groups and merge groups with the same squares and sectors alike."""
        by_squares: dict[tuple[int, int], list[tuple[frozenset[int], ...]]] = {}
        for g in groups:
            if g.short or g.long:
                by_squares.setdefault((g.short, g.long), []).append(g.allowed)
        out: list[Group] = []
        for (short, long), products in by_squares.items():
            for allowed in _merge_products(products):
                out.append(Group(short, long, allowed))
        return PossibilityMap(tuple(out))

    def keep(self, bits: int) -> PossibilityMap:
        """Keep only squares in ``bits`` (a "Clear" answer keeps the unseen squares)."""
        return self._normalise(
            replace(g, short=g.short & bits, long=g.long & bits) for g in self.groups
        )

    def revealed(self, square: int) -> PossibilityMap:
        """The agent is seen on ``square`` (SO-A5, SO-H3)."""
        return self.keep(1 << square)

    def sensor(self, moved: bool, bits: int = 0) -> PossibilityMap:
        """The motion sensor's answer (SO-V5).

        Args:
            moved: True if the last move had 3+ steps (a bearing was given).
            bits: with ``moved``, the squares in the bearing's compass sector.
        """
        if moved:
            return self._normalise(replace(g, short=0, long=g.long & bits) for g in self.groups)
        return self._normalise(replace(g, long=0) for g in self.groups)

    def objectives(
        self, geo: Geometry, completed: dict[int, int], open_sectors: Iterable[int]
    ) -> PossibilityMap:
        """The start of the agent's turn (SO-O1, SO-O3): ``completed`` maps each sector
        whose objective was completed now to its site; every other sector of
        ``open_sectors`` (not yet completed) was *not* next to the agent.

        After the start, the steps of "the last move" are those of the new move, so the
        short/long split is merged here too.
        """
        open_list = [j for j in open_sectors if j not in completed]
        out: list[Group] = []
        for g in self.groups:
            squares = g.squares
            allowed = list(g.allowed)
            ok = True
            for j, site in completed.items():
                if site not in allowed[j]:
                    ok = False
                    break
                allowed[j] = frozenset({site})
                squares &= geo.adjacent[site]
            if not ok or not squares:
                continue
            # Split each open sector's candidates into those next to some square of the
            # group (each its own class) and the rest (one class: removes nothing).
            classes: list[list[tuple[frozenset[int], int]]] = []
            for j in open_list:
                touching = [s for s in allowed[j] if geo.adjacent[s] & squares]
                rest = allowed[j].difference(touching)
                cls = [(frozenset({s}), geo.adjacent[s]) for s in touching]
                if rest:
                    cls.append((frozenset(rest), 0))
                classes.append(cls)
            for combo in itertools.product(*classes):
                remove = 0
                new_allowed = list(allowed)
                for j, (cands, adj) in zip(open_list, combo, strict=True):
                    new_allowed[j] = cands
                    remove |= adj
                left = squares & ~remove
                if left:
                    out.append(Group(left, 0, tuple(new_allowed)))
        return self._normalise(out)

    def moved(
        self,
        geo: Geometry,
        *,
        result: str,
        square: int | None,
        blocked: int,
        no_end: int,
        unseen: int,
    ) -> PossibilityMap:
        """The agent's secret move of 0–4 steps and its public result (SO-A1…A6).

        Args:
            result: ``"revealed"`` (seen at the end, on ``square``), ``"last_seen"``
                (seen during the move, last on ``square``, not at the end) or
                ``"hidden"`` (never seen).
            square: the announced square for the first two results.
            blocked: squares the agent may not enter (hunters on foot, SO-A1); they do
                not count for the squeeze rule (SO-A2).
            no_end: squares it may cross but not end on (the vehicle, SO-A3) — and the
                hunters' squares, which it cannot end on either.
            unseen: squares no hunter sees now.
        """
        terrain_step = geo.graph.stepper()  # SO-A2: the squeeze looks at terrain only

        def step(layer: int) -> int:
            return terrain_step(layer) & ~blocked

        out: list[Group] = []
        for g in self.groups:
            start = g.squares
            if result == "hidden":
                layer = start & unseen
                layers = [layer]
                for _ in range(MAX_STEPS):
                    layer = step(layer) & unseen
                    layers.append(layer)
                short = (layers[0] | layers[1] | layers[2]) & ~no_end
                long = (layers[3] | layers[4]) & ~no_end
            else:
                if square is None:
                    raise ValueError(f"a {result} result needs its square")
                mark = 1 << square
                # Exact walks from the start, any squares: when can the agent be on it?
                layer = start
                at: list[int] = [0] if start & mark else []
                for k in range(1, MAX_STEPS + 1):
                    layer = step(layer)
                    if layer & mark:
                        at.append(k)
                if not at:
                    continue
                if result == "revealed":
                    short = mark if min(at) <= SHORT_MOVE else 0
                    long = mark if any(k > SHORT_MOVE for k in at) else 0
                else:  # last seen on `square`, then only unseen squares, at least 1 step
                    suffix = [mark]
                    layer = mark
                    for _ in range(MAX_STEPS):
                        layer = step(layer) & unseen
                        suffix.append(layer)
                    short = long = 0
                    for i in at:
                        for j in range(1, MAX_STEPS - i + 1):
                            if i + j <= SHORT_MOVE:
                                short |= suffix[j]
                            else:
                                long |= suffix[j]
                    short &= ~no_end
                    long &= ~no_end
            out.append(Group(short, long, g.allowed))
        return self._normalise(out)
