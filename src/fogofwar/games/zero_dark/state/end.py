"""The mission's end and its report (ZD-C5, ZD-C8, ZD-T2, ZD-T7): the mission ends when
the Control Deck is exhausted (ZD-C6, ``deck.py``) or when no hero is left on the table;
each side's win conditions, tasks and XP are then settled from the record.

In solo play the mission succeeds when every win condition holds (a failure is the Red
Force's win); in Versus the team that met more conditions wins, then the one with more
objectives, then the one that lost fewer heroes (ruling).
"""

from __future__ import annotations

from ....core.game import Outcome, emit
from ..fear import ModelState, id_number
from ..profiles import DEPENDENT_RANGE
from .pieces import TEAM, Phase, Side
from .pings import Pings

__all__ = ["MissionEnd"]


class MissionEnd(Pings):
    """The end of the mission: when it comes, and its report."""

    def _check_end(self) -> None:
        """The mission also ends when no hero is left on the table to act."""
        if self._outcome is not None:
            return
        standing = [h for h in self.heroes() if h.state is not ModelState.OOA]
        if not standing:
            self._finish_mission("no hero is left on the table", "ZD-C8")

    def _finish_mission(self, reason: str, rule: str) -> None:
        """ZD-C5 (lost heroes), ZD-C8 (the objectives and the XP), ZD-T2/T7 (each task
        settled from the record), with the mission report; in Versus the team that met
        more win conditions wins, then the one with more objectives, then the one that
        lost fewer heroes (ruling: the rules do not say, docs/zero-dark.md)."""
        heroes = sorted(set(self.xp), key=id_number)
        lost = [h for h in heroes if self._is_lost(h)]
        objectives = [sq.name for sq in self.board.markers.get("objective", ())]
        all_done = set(objectives) <= set(self.objectives_done)
        gained: dict[str, list[tuple[str, int]]] = {h: [] for h in heroes}
        results: dict[str, bool | None] = {}
        scores: dict[str, tuple[int, int, int]] = {}
        conditions: dict[str, dict[str, bool]] = {}
        for side in self.sides.values():
            mine = [h for h in side.heroes if h in gained]
            mine_lost = [h for h in mine if h in lost]
            done = sum(1 for seat in self.objectives_by.values() if seat == side.seat)
            task = self._task_result(side, lost)
            met = {
                c: self._condition(c, side, task, all_done if self.mode == "solo" else done > 0)
                for c in self.win
            }
            met["survive"] = met.get("survive", True) and len(mine_lost) < len(mine)
            if "survive" not in self.win:
                del met["survive"]
            conditions[side.seat] = met
            success = all(met.values())
            scores[side.seat] = (sum(met.values()), done, -len(mine_lost))
            for h in mine:
                if h not in lost:
                    gained[h].append(("survived", 1))
                    if success:
                        gained[h].append(("mission success", 2))
            result = task
            results[side.seat] = None if result is None else result[0]
            if side.spook is None or result is None:
                continue
            ok, extra = result
            if ok:
                gained[side.spook].append((f"task {side.task}", 5))
                if extra:
                    gained[side.spook].append(("rescue: the ally kept", 2))
                continue
            if self.xp.get(side.spook, 0) + sum(x for _, x in gained[side.spook]) > 0:
                gained[side.spook].append((f"task {side.task} failed", -1))
                continue

            # ZD-T2: the Spook has no XP to lose; the team loses it.
            def total(h: str) -> int:
                return self.xp[h] + sum(x for _, x in gained[h])

            others = sorted(
                (h for h in mine if h != side.spook), key=lambda h: (-total(h), id_number(h))
            )
            if others and total(others[0]) > 0:
                gained[others[0]].append((f"task {side.task} failed (team)", -1))
        for h, items in gained.items():
            self.xp[h] += sum(x for _, x in items)
        if self.mode == "solo":
            success = all(conditions[TEAM].values())
            winners = frozenset({TEAM}) if success else frozenset()
            # A failed mission is the Red Force's win (the umpire's side, no seat).
            sides = frozenset({"heroes"}) if success else frozenset({"red force"})
            result_text = "success" if success else "failure"
        else:
            best = max(scores.values())
            top = [seat for seat, score in scores.items() if score == best]
            winners = frozenset(top) if len(top) == 1 else frozenset()
            sides = winners
            result_text = f"{top[0]} wins" if len(top) == 1 else "a draw"
        self.report = {
            "result": result_text,
            "reason": reason,
            "objectives": {o: o in self.objectives_done for o in objectives},
            "objectives_by": dict(self.objectives_by),
            "win": list(self.win),
            "conditions": conditions,
            "lost": lost,
            "exited": sorted(self.exited, key=id_number),
            "task": self.task if self.mode == "solo" else None,
            "task_success": results.get(TEAM) if self.mode == "solo" else None,
            "tasks": {
                x.seat: {"task": x.task, "success": results[x.seat]} for x in self.sides.values()
            },
            "xp": {h: {"gained": gained[h], "total": self.xp[h]} for h in heroes},
            "flips": self.flips,
            "cards_left": len(self.deck),
        }
        self._outcome = Outcome(winners, sides, reason, rule)
        self.phase = Phase.OVER
        emit(self.events, "mission_end", reason=reason, rule=rule, report=self.report)

    def _condition(
        self, name: str, side: Side, task: tuple[bool, bool] | None, objectives: bool
    ) -> bool:
        """A mission's win condition for ``side`` (ZD-C8; see docs/missions.md):
        ``objectives`` (solo: every objective worked; Versus: one at least), ``exit`` (a
        hero left by an exit), ``extract`` (the rescued double agent left by an exit),
        the tasks by name (that task succeeded), ``survive`` (not every hero lost)."""
        if name == "objectives":
            return objectives
        if name == "exit":
            return any(h in self.exited for h in side.heroes)
        if name == "extract":
            return side.rescued is not None and side.rescued in self.exited
        if name == "survive":
            return True  # settled by the caller, from the lost heroes
        return side.task == name and task is not None and task[0]

    def _is_lost(self, hero: str) -> bool:
        """ZD-C5: dead, or out of action at the end (a hero that left is not lost)."""
        if hero in self.dead:
            return True
        model = self.position.models.get(hero)
        return hero not in self.exited and model is not None and model.state is ModelState.OOA

    def _task_result(self, side: Side, lost: list[str]) -> tuple[bool, bool] | None:
        """ZD-T3…T7: (success, Rescue's extra +2) of a side's task, from the record."""
        task, spook = side.task, side.spook
        if spook is None or task == "none":
            return None
        if task == "rescue":
            ally = side.rescued
            if ally is None:
                return (False, False)
            if ally == "left":
                return (True, True)
            a = self.position.models.get(ally)
            s = self.position.models.get(spook)
            kept = ally in self.exited and ally not in self.dead
            if a is not None and s is not None:
                r = self.position.range(ally, spook)
                kept = kept or (r is not None and r <= DEPENDENT_RANGE)
            return (True, kept)
        if task == "assassination":
            return (side.verified, False)
        if task == "observation":
            return (len(side.observed) >= 5, False)
        return (side.acquired and spook not in lost, False)  # acquisition
