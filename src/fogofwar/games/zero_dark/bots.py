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

from collections.abc import Mapping, Sequence
from typing import Any

from ...bots.base import Bot, register_bot
from ...core.game import Action, Config, PlayerView
from ...core.grid import Board, Edge, Square, move_graph
from ...core.rng import Stream
from .maps import load_map

__all__ = ["TeamBot"]

FAR = 10_000


def _king(a: Square, b: Square) -> int:
    return max(abs(a.row - b.row), abs(a.col - b.col))


def _facing(frm: Square, to: Square) -> str:
    return ("N" if to.row < frm.row else "S") + ("E" if to.col >= frm.col else "W")


class TeamBot(Bot):
    """The heuristic team (solo, or one side of Versus)."""

    def reset(self, seat: str, ruleset_id: str, config: Config) -> None:
        self.seat = seat
        self.board: Board = load_map(str(config["map"]))
        self.diagonal = str(config["diagonal_block"])

    # ------------------------------------------------------------------ the view

    def _models(self, view: PlayerView) -> list[Mapping[str, Any]]:
        models: list[Mapping[str, Any]] = view.data["models"]
        return models

    def _mine(self, m: Mapping[str, Any], view: PlayerView) -> bool:
        if view.data.get("mode", "solo") == "solo":
            return m["kind"] in ("hero", "ally")
        return m["kind"] in ("hero", "ally") and m.get("team", "") == self.seat

    def _sq(self, name: str) -> Square:
        return self.board.square(name)

    def _enemies(self, view: PlayerView) -> list[Mapping[str, Any]]:
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
        opened = [Edge.parse(n) for n, is_open in view.data["doors"].items() if is_open]
        graph = move_graph(self.board, diagonal=self.diagonal, open_doors=opened)
        return graph.distance_map(list(goals))

    def _goals(self, view: PlayerView, hero: Mapping[str, Any]) -> list[Square]:
        """The squares the hero heads for: next to its task's bogey, else an objective
        not yet worked, else an exit."""
        data = view.data
        targets = data.get("task_bogeys", {})
        by_id = {m["id"]: m for m in self._models(view)}
        for key in ("double_agent", "boss_target"):
            bogey = by_id.get(targets.get(key, ""))
            if bogey is not None:
                return self._around(self._sq(bogey["squares"][0]))
        todo = [self._sq(n) for n, done in data.get("objectives", {}).items() if not done]
        if todo:
            out: list[Square] = []
            for sq in todo:
                out += [sq, *self._around(sq)]
            return out
        return list(self.board.markers.get("exit", ()))

    def _around(self, sq: Square) -> list[Square]:
        return [
            Square(sq.row + dr, sq.col + dc)
            for dr in (-1, 0, 1)
            for dc in (-1, 0, 1)
            if (dr or dc)
            and self.board.in_bounds((sq.row + dr, sq.col + dc))
            and self.board.passable[sq.row + dr, sq.col + dc]
        ]

    # ------------------------------------------------------------------ choices

    def choose(self, view: PlayerView, legal: Sequence[Action], stream: Stream) -> Action:
        kinds = {a.kind for a in legal}
        phase = view.data["phase"]
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
        data = view.data
        me = next(m for m in self._models(view) if m["id"] == data["active"])
        for kind in ("verify",):
            found = [a for a in legal if a.kind == kind]
            if found:
                return found[0]
        todo = [n for n, done in data.get("objectives", {}).items() if not done]
        exits = [a for a in legal if a.kind == "exit"]
        if exits and not todo:
            return exits[0]
        here = self._sq(me["squares"][0])
        goals = self._goals(view, me)
        dist = self._distances(view, goals) if goals else None
        enemies = self._enemies(view)
        danger = {
            self._sq(e["squares"][0])
            for e in enemies
            if e["kind"] == "bogey" and e.get("id") not in data.get("task_bogeys", {}).values()
        }
        steps = [a for a in legal if a.kind == "step"]
        if dist is not None and steps:
            d0 = int(dist[here.row, here.col])

            def score(a: Action) -> tuple[int, int]:
                sq = self._sq(str(a.args[0]))
                d = int(dist[sq.row, sq.col])
                near = any(_king(sq, b) <= 1 for b in danger)
                return (d if d >= 0 else FAR, 1 if near else 0)

            best = min(steps, key=score)
            bd, near = score(best)
            if (bd < d0 or d0 < 0 <= bd) and not near:
                return best
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
        me = next(m for m in self._models(view) if m["id"] == view.data["active"])
        here = self._sq(me["squares"][0])
        by_id = {m["id"]: m for m in self._models(view)}
        untargeted = [
            a for a in by_kind.get("dotlight", []) if not by_id[str(a.args[0])].get("targeted")
        ]
        if untargeted:
            return untargeted[0]
        shots = by_kind.get("shoot", [])
        if shots:
            return min(
                shots,
                key=lambda a: (_king(here, self._sq(by_id[str(a.args[0])]["squares"][0])), a.args),
            )
        return by_kind.get("cautious", by_kind.get("pass", list(legal)))[0]

    def _cqb(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        data = view.data
        task = (data.get("sides", {}).get(self.seat) or {}).get("task")
        agent = data.get("task_bogeys", {}).get("double_agent")
        cqb = data.get("cqb") or []
        bogey = cqb[0][1] if cqb else None
        if bogey is not None and (bogey == agent or task == "rescue"):
            return next(a for a in legal if a.kind == "persuade")
        return next(a for a in legal if a.kind == "fight")


register_bot("zd-team", TeamBot, rulesets={"zero-dark"}, help="heuristic Zero Dark team")
