"""A brute-force oracle for the Specter Ops possibility map (SO-I2).

Independent of ``fogofwar.games.specter_ops.knowledge``: it shares no code with the
engine's map, only the public board (terrain, roads, markers), the sight model of
``fogofwar.core.sight`` and the compass of ``geometry.bearing``. It is fed the
*public* events of a game (``Event.to is None``: what a spectator and every hunter are
told) and keeps the set of hidden **worlds** consistent with them:

    world = (agent square, steps of its last move, one objective site per sector)

With 2–3 players the sites are public (the setup event names them), so every world
has the same sites; with 4 players they are secret (SO-S3) and each sector's site is
one of the distinct squares of its six ``objective.J.K`` markers.

Facts applied (rule IDs as in ``rules/specter-ops.md``):

* the agent's move (SO-A1…A6): every legal path of 0–4 steps from the world's square
  is enumerated (one step at a time to one of the 8 neighbours; no blocking terrain, no
  hunter on foot, no squeezing between two blocking-terrain squares that touch corner to
  corner (hunters are not terrain);
  the vehicle's square may be crossed but not ended on, nor may a hunter's square —
  unless the agent has no legal step at all), and for each path the announcement the
  rules would make is worked out from the hunters' public squares: ``revealed`` at the
  end square if seen there, else ``last_seen`` at the last seen square of the path (the
  start included), else nothing. Worlds whose announcement differs are dropped;
* "Clear" / visible answers (SO-H3; after a drive: every hunter aboard, SO-L3) and
  attack distances (SO-X1);
* the motion sensor (SO-V5, SO-V6): "no movement detected" = at most 2 steps, otherwise
  at least 3 steps and the compass point from the vehicle;
* objectives at the start of the agent's turn (SO-O1…O3): each completed site was next
  to the agent; every other uncompleted sector's site was not;
* the escape rule (SO-E1): with 3 objectives done, a game that goes on after the
  agent's move means the agent is not on an escape point that no hunter holds (SO-E2).

Path enumeration is exhaustive but memoised on (square, steps so far, last seen square
so far), which is all a path's announcement and end depend on; ``naive_outcomes``
enumerates the explicit paths without the memo (for cross-checking on a few starts).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from fogofwar.core.grid import Board, Square
from fogofwar.core.sight import orthogonal_visible
from fogofwar.games.specter_ops.geometry import bearing

__all__ = [
    "MAX_STEPS",
    "POLICIES",
    "Oracle",
    "Outcome",
    "PathWorld",
    "choose",
    "engine_moves",
    "public_events",
]

MAX_STEPS = 4  # SO-A1
LONG_MOVE = 3  # SO-V5: 3 or more steps are detected by the sensor
OBJECTIVES_TO_ESCAPE = 3  # SO-E1

#: One way a move can end: (result, announced square or None, end square, steps).
Outcome = tuple[str, int | None, int, int]


def public_events(events: Iterable[Any]) -> list[dict[str, Any]]:
    """The JSON form of the events everyone is told (``to is None``)."""
    return [e.to_json() for e in events if e.to is None]


@dataclass
class PathWorld:
    """The positions the rules need to judge an agent's path: all public."""

    foot: frozenset[int]  # hunters on foot: not enterable (SO-A1), not an end (SO-A3)
    vehicle: int  # crossable, not an end (SO-A3, SO-V3)
    seen: frozenset[int]  # squares some hunter sees (SO-L*)
    memo: dict[tuple[int, int, int | None], frozenset[Outcome]] = field(default_factory=dict)


class Oracle:
    """The set of hidden worlds consistent with the public events fed so far."""

    def __init__(self, board: Board, players: int) -> None:
        wh, wv = board.walls()
        if wh[1:-1].any() or wv[:, 1:-1].any() or board.doors:
            raise ValueError("the oracle's step rule knows no walls or doors")
        self.board = board
        self.width = board.width
        self.height = board.height
        self.players = players
        self.passable = frozenset(int(i) for i in np.flatnonzero(board.passable.ravel()))
        self._sight: dict[int, frozenset[int]] = {}
        escapes = list(board.marker("escape"))
        if players >= 5 and "escape.five" in board.markers:
            escapes += list(board.marker("escape.five"))
        self.escape = frozenset(self.idx(s) for s in escapes)
        self.candidates: list[tuple[int, ...]] = []
        j = 1
        while f"objective.{j}.1" in board.markers:
            sites = [self.idx(board.marker(f"objective.{j}.{k}", count=1)[0]) for k in range(1, 7)]
            self.candidates.append(tuple(sorted(set(sites))))
            j += 1
        # -- public table, tracked from the events alone
        self.hunters: dict[str, list[Any]] = {}  # id -> [square, aboard]
        self.vehicle = -1
        self.current: str | None = None
        self.drove = False
        self.done: dict[int, int] = {}  # sector (0-based) -> its completed site
        self.pending: list[tuple[int, int]] = []  # completions announced this turn start
        self.over = False
        # -- the worlds: sites tuple -> frozenset of (square, steps of the last move)
        self.worlds: dict[tuple[int, ...], frozenset[tuple[int, int]]] = {}
        self.log: list[str] = []  # what was applied, for failure messages

    # ------------------------------------------------------------------ squares

    def idx(self, square: Square) -> int:
        return square.row * self.width + square.col

    def parse(self, name: str) -> int:
        return self.idx(self.board.square(name))

    def name(self, i: int) -> str:
        return Square(*divmod(i, self.width)).name

    def sight(self, viewer: int) -> frozenset[int]:
        """Squares a hunter on ``viewer`` sees (SO-L1, SO-L2, SO-L5)."""
        got = self._sight.get(viewer)
        if got is None:
            mask = orthogonal_visible(
                self.board.opaque,
                divmod(viewer, self.width),
                roads=self.board.roads,
                road_rule=True,
            )
            got = frozenset(int(i) for i in np.flatnonzero(mask.ravel()))
            self._sight[viewer] = got
        return got

    def neighbours(self, i: int) -> list[int]:
        r, c = divmod(i, self.width)
        out = []
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                if (dr or dc) and 0 <= r + dr < self.height and 0 <= c + dc < self.width:
                    out.append((r + dr) * self.width + c + dc)
        return out

    def adjacent(self, a: int, b: int) -> bool:
        ar, ac = divmod(a, self.width)
        br, bc = divmod(b, self.width)
        return max(abs(ar - br), abs(ac - bc)) == 1

    def can_step(self, a: int, b: int, foot: frozenset[int]) -> bool:
        """One step ``a`` → ``b`` for the agent (SO-A1, SO-A2)."""
        if not self.adjacent(a, b) or b not in self.passable or b in foot:
            return False
        ar, ac = divmod(a, self.width)
        br, bc = divmod(b, self.width)
        if ar != br and ac != bc:
            side_a, side_b = ar * self.width + bc, br * self.width + ac
            # Hunters are not terrain: they never shut a side (SO-A2).
            shut_a = side_a not in self.passable
            shut_b = side_b not in self.passable
            if shut_a and shut_b:
                return False  # SO-A2: no squeezing through a touching corner
        return True

    # ------------------------------------------------------------------ paths

    def path_world(self) -> PathWorld:
        foot = frozenset(sq for sq, aboard in self.hunters.values() if not aboard)
        seen: frozenset[int] = frozenset()
        for sq, _ in self.hunters.values():
            seen |= self.sight(sq)  # hunters aboard see from the vehicle (SO-L3)
        return PathWorld(foot, self.vehicle, seen)

    def _end_ok(self, sq: int, pw: PathWorld) -> bool:
        return sq != pw.vehicle and sq not in pw.foot  # SO-A3

    @staticmethod
    def _judge(end: int, last_seen: int | None, steps: int, pw: PathWorld) -> Outcome:
        if end in pw.seen:
            return ("revealed", end, end, steps)  # SO-A5
        if last_seen is not None:
            return ("last_seen", last_seen, end, steps)  # SO-A6
        return ("hidden", None, end, steps)

    def _trapped(self, start: int, pw: PathWorld) -> bool:
        """No legal step at all (the agent may then stay even where it may not end)."""
        for t in self.neighbours(start):
            if not self.can_step(start, t, pw.foot):
                continue
            if t != pw.vehicle:
                return False
            if any(u != t and self.can_step(t, u, pw.foot) for u in self.neighbours(t)):
                return False
        return True

    def _walk(
        self, sq: int, steps: int, last_seen: int | None, pw: PathWorld
    ) -> frozenset[Outcome]:
        key = (sq, steps, last_seen)
        got = pw.memo.get(key)
        if got is not None:
            return got
        out: set[Outcome] = set()
        if self._end_ok(sq, pw):
            out.add(self._judge(sq, last_seen, steps, pw))
        if steps < MAX_STEPS:
            for t in self.neighbours(sq):
                if self.can_step(sq, t, pw.foot):
                    out |= self._walk(t, steps + 1, t if t in pw.seen else last_seen, pw)
        result = frozenset(out)
        pw.memo[key] = result
        return result

    def outcomes(self, start: int, pw: PathWorld) -> frozenset[Outcome]:
        """Every (result, announced square, end, steps) of a legal move from ``start``."""
        first_seen = start if start in pw.seen else None
        out = self._walk(start, 0, first_seen, pw)
        if not self._end_ok(start, pw) and self._trapped(start, pw):
            out = out | {self._judge(start, first_seen, 0, pw)}
        return out

    def naive_outcomes(self, start: int, pw: PathWorld) -> set[Outcome]:
        """:meth:`outcomes` by listing every explicit path (slow; for cross-checks)."""
        out: set[Outcome] = set()
        paths: list[list[int]] = [[start]]
        while paths:
            path = paths.pop()
            end = path[-1]
            if self._end_ok(end, pw) or (len(path) == 1 and self._trapped(start, pw)):
                visible = [s for s in path if s in pw.seen]
                out.add(self._judge(end, visible[-1] if visible else None, len(path) - 1, pw))
            if len(path) - 1 < MAX_STEPS:
                for t in self.neighbours(end):
                    if self.can_step(end, t, pw.foot):
                        paths.append([*path, t])
        return out

    # ------------------------------------------------------------------ results

    def squares(self) -> set[int]:
        """The possibility map: every square of some consistent world."""
        out: set[int] = set()
        for ws in self.worlds.values():
            out |= {sq for sq, _ in ws}
        return out

    def sites(self) -> tuple[frozenset[int], ...]:
        """Per sector, the sites of some consistent world."""
        alive = [s for s, ws in self.worlds.items() if ws]
        return tuple(frozenset(s[j] for s in alive) for j in range(len(self.candidates)))

    def holds(self, square: int, steps: int, sites: Sequence[int]) -> bool:
        """Whether the world (square, steps, sites) is still consistent."""
        return (square, steps) in self.worlds.get(tuple(sites), frozenset())

    # ------------------------------------------------------------------ updates

    def _map(self, fn: Any, *, per_sites: bool = False) -> None:
        """Replace each sites' world set by ``fn(worlds)`` (or ``fn(sites, worlds)`` with
        ``per_sites``); drop the sites left with no world."""
        memo: dict[frozenset[tuple[int, int]], frozenset[tuple[int, int]]] = {}
        out = {}
        for sites, ws in self.worlds.items():
            if per_sites:
                got = frozenset(fn(sites, ws))
            else:
                got = memo.get(ws)  # many site tuples share one world set
                if got is None:
                    got = memo[ws] = frozenset(fn(ws))
            if got:
                out[sites] = got
        self.worlds = out

    def _filter(self, keep: Any) -> None:
        self._map(lambda ws: {w for w in ws if keep(w)})

    def feed(self, events: Sequence[Mapping[str, Any]]) -> None:
        """Apply a batch of public events (all those of one action, in order)."""
        kinds = [e["kind"] for e in events]
        for e in events:
            self._event(e, escaped="escaped" in kinds)

    def _event(self, e: Mapping[str, Any], *, escaped: bool) -> None:
        kind = e["kind"]
        self.log.append(f"{kind} {dict(e)}")
        if kind == "setup":
            self._setup(e)
        elif kind == "objectives_completed":
            self.pending = [(c["sector"] - 1, self.parse(c["site"])) for c in e["completed"]]
        elif kind == "agent_turn":
            self._objectives()
        elif kind == "agent_moved":
            self._moved(e["result"], None if e["square"] is None else self.parse(e["square"]))
            if not escaped and len(self.done) >= OBJECTIVES_TO_ESCAPE:
                # SO-E1: the game goes on, so the agent is not on an escape point —
                # unless a hunter stands on it, which blocks it (SO-E2).
                held = {sq for sq, _ in self.hunters.values()}
                free = self.escape - held
                self._filter(lambda w: w[0] not in free)
        elif kind in ("escaped", "game_over"):
            self.over = True
        elif kind == "order" or kind == "stun_removed":
            pass
        elif kind == "hunter_turn":
            self.current, self.drove = e["hunter"], False
        elif kind in ("got_out", "hunter_step"):
            self.hunters[e["hunter"]] = [self.parse(e["square"]), False]
        elif kind == "got_in":
            self.hunters[e["hunter"]] = [self.parse(e["square"]), True]
        elif kind == "drive":
            self.vehicle = self.parse(e["square"])
            self.drove = True
            for h in self.hunters.values():
                if h[1]:
                    h[0] = self.vehicle
        elif kind == "announcement":
            self._announcement(e)
        elif kind == "sensor":
            self._sensor(e["answer"])
        elif kind == "attack":
            here = self.hunters[e["hunter"]][0]
            dist = e["distance"]
            self._filter(lambda w: self._king(w[0], here) == dist)  # SO-X1
        else:
            raise AssertionError(f"the oracle does not know the public event {kind!r}")

    def _king(self, a: int, b: int) -> int:
        ar, ac = divmod(a, self.width)
        br, bc = divmod(b, self.width)
        return max(abs(ar - br), abs(ac - bc))

    def _setup(self, e: Mapping[str, Any]) -> None:
        self.vehicle = self.parse(e["vehicle"])
        self.hunters = {h: [self.vehicle, True] for h in e["hunters"]}  # SO-S2
        start = self.parse(e["agent"])  # SO-S5: public
        if e["objectives"] is not None:  # SO-S3: 2-3 players, public sites
            combos: Iterable[tuple[int, ...]] = [
                tuple(self.parse(o["site"]) for o in e["objectives"])
            ]
        else:  # hidden: any candidate per sector
            combos = itertools.product(*self.candidates)
        self.worlds = {tuple(c): frozenset({(start, 0)}) for c in combos}

    def _objectives(self) -> None:
        """SO-O1…O3 at the start of the agent's turn."""
        completed = dict(self.pending)
        self.pending = []
        open_sectors = [j for j in range(len(self.candidates)) if j not in self.done]
        for j in completed:
            if j in self.done:
                raise AssertionError(f"sector {j + 1} completed twice")

        def fn(sites: tuple[int, ...], ws: frozenset[tuple[int, int]]) -> set[tuple[int, int]]:
            if any(sites[j] != s for j, s in completed.items()):
                return set()
            out = set()
            for sq, steps in ws:
                if all(self.adjacent(sq, s) for s in completed.values()) and not any(
                    self.adjacent(sq, sites[j]) for j in open_sectors if j not in completed
                ):
                    out.add((sq, steps))
            return out

        self._map(fn, per_sites=True)
        self.done.update(completed)

    def _moved(self, result: str, square: int | None) -> None:
        """SO-A1…A6: the agent's secret move and its public result."""
        pw = self.path_world()
        cache: dict[int, set[tuple[int, int]]] = {}

        def ends(start: int) -> set[tuple[int, int]]:
            got = cache.get(start)
            if got is None:
                got = {
                    (end, steps)
                    for res, sq, end, steps in self.outcomes(start, pw)
                    if res == result and sq == square
                }
                cache[start] = got
            return got

        def fn(ws: frozenset[tuple[int, int]]) -> set[tuple[int, int]]:
            out: set[tuple[int, int]] = set()
            for sq in {sq for sq, _ in ws}:
                out |= ends(sq)
            return out

        self._map(fn)

    def _announcement(self, e: Mapping[str, Any]) -> None:
        """SO-H3: "Clear" or visible, to this hunter (after a drive: all aboard)."""
        if self.drove:
            viewers = [sq for sq, aboard in self.hunters.values() if aboard]
        else:
            viewers = [self.hunters[e["hunter"]][0]]
        seen: frozenset[int] = frozenset()
        for v in viewers:
            seen |= self.sight(v)
        if e["answer"] == "visible":
            at = self.parse(e["square"])
            if at not in seen:
                raise AssertionError(f"visible at {e['square']}, which no viewer sees")
            self._filter(lambda w: w[0] == at)
        elif e["answer"] == "clear":
            self._filter(lambda w: w[0] not in seen)
        else:
            raise AssertionError(f"unknown answer {e['answer']!r}")

    def _sensor(self, answer: str) -> None:
        """SO-V5, SO-V6."""
        v = self.vehicle
        vs = Square(*divmod(v, self.width))
        if answer == "no movement detected":
            self._filter(lambda w: w[1] < LONG_MOVE)
        else:
            self._filter(
                lambda w: (
                    w[1] >= LONG_MOVE
                    and w[0] != v
                    and bearing(vs, Square(*divmod(w[0], self.width))) == answer
                )
            )


# ---------------------------------------------------------------------- engine-side helpers
# Used by the tests to *drive* games (choose actions, list the agent's possible moves);
# the oracle above never calls them.

POLICIES = ("uniform", "kinds", "roaming")


def choose(state: Any, seat: str, rng: Any, policy: str) -> Any:
    """A random legal action of ``seat`` from the stream ``rng``.

    ``uniform``: any legal action alike. ``kinds``: first a kind of action (step, stop,
    drive, sensor, attack, …) alike, then an action of it, so that rare kinds (the
    sensor, driving, attacking) come up often. ``roaming``: as ``kinds``, but the agent
    steps rather than stops 4 times in 5 (long moves, for the sensor's threshold).
    """
    legal = list(state.legal_actions(seat))
    if policy == "uniform":
        return rng.choice(legal)
    steps = [a for a in legal if a.kind == "step"]
    if policy == "roaming" and seat == "agent" and steps and rng.randbelow(5):
        return rng.choice(steps)
    kind = rng.choice(sorted({a.kind for a in legal}))
    return rng.choice([a for a in legal if a.kind == kind])


def engine_moves(state: Any) -> list[tuple[list[Any], Any]]:
    """Every distinct agent move the engine allows now, by (end, steps, last seen square).

    ``state`` must be at the start of the agent's move. Returns ``(actions, after)``
    pairs: the actions of one representative move (its steps, then ``stop`` unless the
    4th step ended it) and a clone of the game after them. Moves are explored through
    the engine's own legal actions.
    """
    geo = state.geo
    seen = geo.seen_by([h.square for h in state.hunters])
    out: list[tuple[list[Any], Any]] = []
    visited: set[tuple[int, int, int | None]] = set()
    start = state.path[-1]
    stack = [(state.clone(), [], start if seen >> start & 1 else None)]
    while stack:
        node, actions, last = stack.pop()
        key = (node.path[-1], len(node.path) - 1, last)
        if key in visited:
            continue
        visited.add(key)
        for a in node.legal_actions("agent"):
            nxt = node.clone()
            nxt.apply(a)
            if a.kind == "stop" or nxt.phase != "agent":
                out.append(([*actions, a], nxt))
            else:
                sq = nxt.path[-1]
                stack.append((nxt, [*actions, a], sq if seen >> sq & 1 else last))
    return out
