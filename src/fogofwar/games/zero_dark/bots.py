"""A heuristic Zero Dark team bot, ``zd-team``. Like every bot it sees only its seat's
view, the seat's legal actions and its own random stream; the map is public.

Each activation goes to the standing hero nearest its goal: the double agent or the Boss
to verify once the Spook knows which bogey it is (its task), else the nearest objective
not yet worked, else the exit. It steps along a shortest route to the goal, keeping out
of engagement with a bogey it does not mean to fight, and ends its move facing the
nearest known enemy (to see pings turned over and to have shots). Its tested action
works an objective when it can, shoots the nearest visible enemy, else makes a cautious
move (a success cancels the next flip, ZD-C10). It persuades the double agent and any
susceptible bogey when its task is Rescue, and fights otherwise; it always flips rather
than play a card.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...bots.base import Bot, register_bot
from ...core.game import Action, Config, PlayerView
from ...core.grid import Board, Edge, Square, move_graph
from ...core.rng import Stream
from .fear import FearRules, Position
from .maps import map_for
from .observer import ModelView, SideView, view_data

__all__ = ["TeamBot"]

FAR = 10_000


_AROUND = tuple((dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1))  # king ≤ 1, itself too


def _king(a: Square, b: Square) -> int:
    return max(abs(a.row - b.row), abs(a.col - b.col))


def _facing(frm: Square, to: Square) -> str:
    return ("N" if to.row < frm.row else "S") + ("E" if to.col >= frm.col else "W")


class TeamBot(Bot):
    """The heuristic team (solo, or one side of Versus)."""

    def reset(self, seat: str, ruleset_id: str, config: Config) -> None:
        self.seat = seat
        self.board: Board = map_for(str(config["map"]))
        self.diagonal = str(config["diagonal_block"])
        self._graph: Any = None
        self._bare: Position | None = None
        self.rules = FearRules.from_options(config)
        self._dist_cache: dict[Any, Any] = {}
        # Answers that depend on the map alone or on a few names of the view, kept: a
        # search's rollouts ask them at every step.
        self._door_edges: dict[tuple[str, ...], tuple[Edge, ...]] = {}
        self._open_edges: dict[tuple[tuple[str, bool], ...], frozenset[Edge]] = {}
        self._around_of: dict[Square, list[Square]] = {}
        self.win = {w.strip() for w in str(config.get("win", "")).split(",") if w.strip()}

    # ------------------------------------------------------------------ the view

    def _models(self, view: PlayerView) -> list[ModelView]:
        return view_data(view)["models"]

    def _mine(self, m: ModelView, view: PlayerView) -> bool:
        if view_data(view).get("mode", "solo") == "solo":
            return m["kind"] in ("hero", "ally")
        return m["kind"] in ("hero", "ally") and m.get("team", "") == self.seat

    def _sq(self, name: str) -> Square:
        return self.board.square(name)

    def _enemies(self, view: PlayerView) -> list[ModelView]:
        """Active bogeys and pings, and in Versus the other team's standing characters."""
        out = []
        for m in self._models(view):
            if m["state"] != "active":
                continue
            if m["kind"] in ("bogey", "ping") or (
                m["kind"] in ("hero", "ally") and not self._mine(m, view)
            ):
                out.append(m)
        return out

    def _distances(self, view: PlayerView, goals: Sequence[Square]) -> Any:
        """Steps to the nearest goal, by routes through every door: a hero opens a closed
        door on its way (ZD-C2), so shut rooms are not out of reach."""
        names = tuple(view_data(view)["doors"])
        doors = self._door_edges.get(names)
        if doors is None:
            doors = self._door_edges[names] = tuple(Edge.parse(n) for n in names)
        key = (tuple(goals), doors)
        cached = self._dist_cache.get(key)
        if cached is None:
            if self._graph is None:
                self._graph = move_graph(self.board, diagonal=self.diagonal, open_doors=list(doors))
            cached = self._graph.distance_map(list(goals))
            self._dist_cache[key] = cached
        return cached

    def _side(self, view: PlayerView) -> SideView | dict[str, Any]:
        side = view_data(view).get("sides", {}).get(self.seat)
        return side or {}

    def _task_bogey(self, view: PlayerView, key: str) -> ModelView | None:
        """The standing bogey of the seat's task (``double_agent``, ``boss_target``) once
        the Spook knows which one it is."""
        bogey_id = view_data(view).get("task_bogeys", {}).get(key, "")
        for m in self._models(view):
            if m["id"] == bogey_id and m["kind"] == "bogey" and m["state"] != "ooa":
                return m
        return None

    def _rescued(self, view: PlayerView) -> list[ModelView]:
        """The seat's allies: in a Rescue mission the persuaded double agent among them."""
        return [
            m
            for m in self._models(view)
            if m["kind"] == "ally" and m["state"] != "ooa" and self._mine(m, view)
        ]

    def _exits(self) -> list[Square]:
        return list(self.board.markers.get("exit", ()))

    def _goals(self, view: PlayerView, hero: ModelView) -> list[Square]:
        """The squares the hero heads for, by its role in the mission: an extracted ally
        and its hero make for the exit; the Spook closes on its task's bogey (the
        double agent to persuade, or the Boss once down, to verify) while the others
        close on the Boss to shoot it or keep by the Spook; unrevealed pings are sought
        while the task's bogey is unknown; then objectives; else the exit."""
        data = view_data(view)
        side = self._side(view)
        spook, task = side.get("spook"), side.get("task")
        here = self._sq(hero["squares"][0])
        allies = self._rescued(view)
        by_id = {m["id"]: m for m in self._models(view)}
        partner = by_id.get(str(hero.get("hero", ""))) if hero["kind"] == "ally" else None
        if partner is not None and partner["state"] != "ooa":
            # ZD-D2: an ally keeps within 4 of its hero; beyond 3 it closes first.
            at = self._sq(partner["squares"][0])
            if _king(here, at) > 3 or partner["id"] in (data.get("dependent") or []):
                return self._around(at)
        if "extract" in self.win and allies:
            ward = self._sq(allies[0]["squares"][0])
            if hero["kind"] == "ally":
                return self._exits()
            if allies[0].get("hero") == hero["id"] and _king(here, ward) <= 2:
                # The ally's hero leads it out, never more than 2 ahead (ZD-D2).
                return self._exits()
            # The others escort the extracted ally out.
            return self._around(ward)
        if task in ("rescue", "assassination"):
            key = "double_agent" if task == "rescue" else "boss_target"
            target = self._task_bogey(view, key)
            if target is not None:
                at = self._sq(target["squares"][0])
                if hero["id"] == spook and (task == "rescue" or target["state"] == "down"):
                    return self._around(at)
                if task == "assassination":
                    return self._around(at)
                if spook in by_id and spook != hero["id"]:
                    return self._around(self._sq(by_id[spook]["squares"][0]))
            elif not self._task_done(view, task):
                scouts = [
                    self._sq(m["squares"][0])
                    for m in self._models(view)
                    if m["kind"] == "hero"
                    and m["id"] != spook
                    and m["state"] == "active"
                    and self._mine(m, view)
                ]
                if hero["id"] == spook and scouts:
                    # The Spook follows its scouts until its bogey is turned over.
                    near_scout = min(scouts, key=lambda p: (_king(here, p), p.name))
                    return self._around(near_scout)
                pings = [
                    self._sq(m["squares"][0]) for m in self._models(view) if m["kind"] == "ping"
                ]
                if pings:
                    dist = self._distances(view, [here])
                    reach = [p for p in pings if int(dist[p.row, p.col]) >= 0]
                    if reach:
                        near = min(reach, key=lambda p: (int(dist[p.row, p.col]), p.name))
                        return [near, *self._around(near)]
        todo = [self._sq(n) for n, done in data.get("objectives", {}).items() if not done]
        if todo and ("objectives" in self.win or task == "acquisition"):
            out: list[Square] = []
            for sq in todo:
                out += [sq, *self._around(sq)]
            return out
        return self._exits()

    def _shooters(
        self, view: PlayerView, enemies: Sequence[ModelView], mine: set[str]
    ) -> list[tuple[Square, int]]:
        """Revealed enemies that may shoot: their squares and sight Cyl."""
        return [
            (self._sq(e["squares"][0]), int(e.get("cyl", 3)))
            for e in enemies
            if e["kind"] != "ping" and e["id"] not in mine
        ]

    def _exposure(
        self, view: PlayerView, sq: Square, shooters: Sequence[tuple[Square, int]]
    ) -> int:
        """How many shooters have a line to ``sq`` over the bare map and its doors (the
        all-pairs table of FR-L1; models and facing ignored: a cheap, cautious count)."""
        if not shooters:
            return 0
        state = tuple(view_data(view)["doors"].items())
        opened = self._open_edges.get(state)
        if opened is None:
            if len(self._open_edges) >= 64:
                self._open_edges.clear()
            opened = self._open_edges[state] = frozenset(
                Edge.parse(n) for n, is_open in state if is_open
            )
        if self._bare is None or self._bare.open_doors != opened:
            self._bare = Position(self.board, {}, opened, self.rules)
        n = 0
        for at, cyl in shooters:
            if self._bare.terrain_table(cyl)[at.row, at.col, sq.row, sq.col]:
                n += 1
        return n

    def _own_targets(self, view: PlayerView, me: ModelView) -> set[str]:
        """The bogeys ``me`` means to engage: the Spook's double agent, or its Boss once
        down (to verify it); every other enemy is kept out of engagement."""
        side = self._side(view)
        if me["id"] != side.get("spook"):
            return set()
        out = set()
        agent = self._task_bogey(view, "double_agent")
        if agent is not None:
            out.add(str(agent["id"]))
        boss = self._task_bogey(view, "boss_target")
        if boss is not None and boss["state"] == "down":
            out.add(str(boss["id"]))
        return out

    def _task_done(self, view: PlayerView, task: object) -> bool:
        if task == "rescue":
            return bool(self._rescued(view))
        if task == "assassination":
            boss = view_data(view).get("task_bogeys", {}).get("boss_target")
            return boss is not None and self._task_bogey(view, "boss_target") is None
        return False

    def _around(self, sq: Square) -> list[Square]:
        """The passable squares around ``sq`` on the map (a new list; kept per square)."""
        found = self._around_of.get(sq)
        if found is None:
            found = self._around_of[sq] = [
                Square(sq.row + dr, sq.col + dc)
                for dr in (-1, 0, 1)
                for dc in (-1, 0, 1)
                if (dr or dc)
                and self.board.in_bounds((sq.row + dr, sq.col + dc))
                and self.board.passable[sq.row + dr, sq.col + dc]
            ]
        return list(found)

    # ------------------------------------------------------------------ choices

    def choose(self, view: PlayerView, legal: Sequence[Action], stream: Stream) -> Action:
        kinds = {a.kind for a in legal}
        phase = view_data(view)["phase"]
        if "prepare" in kinds:
            return next(a for a in legal if a.args == ("none", "hand"))
        if phase == "red":
            return next(a for a in legal if a.kind == "flip")
        if phase == "cqb":
            return self._cqb(view, legal)
        if "activate" in kinds:
            return self._activate(view, legal)
        if phase == "tested":
            return self._tested(view, legal)
        return self._automatic(view, legal)

    def _activate(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        by_id = {m["id"]: m for m in self._models(view)}
        best: tuple[int, str] | None = None
        for a in legal:
            m = by_id.get(str(a.args[0]))
            if m is None:
                continue
            dist = self._distances(view, self._goals(view, m))
            here = self._sq(m["squares"][0])
            d = int(dist[here.row, here.col])
            key = (d if d >= 0 else FAR, str(a.args[0]))
            if best is None or key < best:
                best = key
        if best is None:
            return legal[0]
        return next(a for a in legal if a.args == (best[1],))

    def _automatic(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        data = view_data(view)
        me = next(m for m in self._models(view) if m["id"] == data["active"])
        for kind in ("verify",):
            found = [a for a in legal if a.kind == kind]
            if found:
                return found[0]
        here = self._sq(me["squares"][0])
        goals = self._goals(view, me)
        exits = [a for a in legal if a.kind == "exit"]
        # Heroes leave after the extracted ally: ZD-D2 ties it to its hero, and the
        # others escort it.
        waiting = me["kind"] != "ally" and "extract" in self.win and bool(self._rescued(view))
        if exits and set(goals) <= set(self._exits()) and not waiting:
            # An ally leaves before its hero (ZD-D2 ties it to the hero on the table).
            return exits[0]
        dist = self._distances(view, goals) if goals else None
        enemies = self._enemies(view)
        mine = self._own_targets(view, me)
        danger = {
            self._sq(e["squares"][0])
            for e in enemies
            if e["kind"] in ("bogey", "ping") and e["id"] not in mine
        }
        steps = [a for a in legal if a.kind == "step"]
        if dist is not None and steps:
            d0 = int(dist[here.row, here.col])

            to = {a: self._sq(str(a.args[0])) for a in steps}  # each step's square

            def gain(a: Action) -> int:
                sq = to[a]
                d = int(dist[sq.row, sq.col])
                return d if d >= 0 else FAR

            shooters = self._shooters(view, enemies, mine)

            def cost(sq: Square, d: int) -> int:
                # A step nearer the goal is worth less than a shot at the hero: each
                # enemy with a line over the map to a square adds 3 (moving with cover).
                return d + 3 * self._exposure(view, sq, shooters)

            here_cost = cost(here, d0 if d0 >= 0 else FAR)
            # Squares next to (or on) a danger: a step there is not safe.
            # Plain (row, col) pairs: a Square is one, equal and hashed alike.
            near = {(b.row + dr, b.col + dc) for b in danger for dr, dc in _AROUND}
            safe = [
                a
                for a in steps
                if to[a] not in near and (gain(a) < d0 or (d0 < 0 and gain(a) < FAR))
            ]
            if safe:
                best = min(safe, key=lambda a: (cost(to[a], gain(a)), a.args))
                if cost(to[best], gain(best)) <= here_cost or view_data(view)["steps"] == 0:
                    return best
            # A shut door in the way: open it (the automatic action, ZD-C2).
            shut = [
                a
                for a in legal
                if a.kind == "door"
                and not view_data(view)["doors"].get(" ".join(map(str, a.args)), True)
            ]
            if shut:
                return shut[0]
        # No progress: end the move facing the nearest known enemy.
        if enemies:
            nearest = min(enemies, key=lambda e: _king(here, self._sq(e["squares"][0])))
            want = _facing(here, self._sq(nearest["squares"][0]))
            turn = [a for a in legal if a.kind == "face" and a.args == (want,)]
            if turn:
                return turn[0]
        for kind in ("stop", "done"):
            found = [a for a in legal if a.kind == kind]
            if found:
                return found[0]
        return legal[0]

    def _tested(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        by_kind: dict[str, list[Action]] = {}
        for a in legal:
            by_kind.setdefault(a.kind, []).append(a)
        if "interact" in by_kind:
            return by_kind["interact"][0]
        me = next(m for m in self._models(view) if m["id"] == view_data(view)["active"])
        here = self._sq(me["squares"][0])
        by_id = {m["id"]: m for m in self._models(view)}
        untargeted = [
            a for a in by_kind.get("dotlight", []) if not by_id[str(a.args[0])].get("targeted")
        ]
        if untargeted:
            return untargeted[0]
        # Never shoot the double agent; the Boss to assassinate first, then the nearest.
        agent = view_data(view).get("task_bogeys", {}).get("double_agent")
        boss = view_data(view).get("task_bogeys", {}).get("boss_target")
        shots = [a for a in by_kind.get("shoot", []) if a.args[0] != agent]
        if shots:
            return min(
                shots,
                key=lambda a: (
                    a.args[0] != boss,
                    _king(here, self._sq(by_id[str(a.args[0])]["squares"][0])),
                    a.args,
                ),
            )
        return by_kind.get("cautious", by_kind.get("pass", list(legal)))[0]

    def _cqb(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        # Persuade the double agent (ZD-T3); fight everything else, since persuading a
        # bogey that is not susceptible only risks wounds (ZD-P0, ZD-P2).
        data = view_data(view)
        agent = data.get("task_bogeys", {}).get("double_agent")
        cqb = data.get("cqb") or []
        bogey = cqb[0][1] if cqb else None
        if bogey is not None and bogey == agent:
            return next(a for a in legal if a.kind == "persuade")
        return next(a for a in legal if a.kind == "fight")


register_bot("zd-team", TeamBot, rulesets={"zero-dark"}, help="heuristic Zero Dark team")
