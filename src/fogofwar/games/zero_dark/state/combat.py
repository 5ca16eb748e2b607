"""Wounds and close combat (ZD-C3, ZD-C5): what hits do to a bogey (support tokens
first when shot, then wounds, down at its Wnd, dead when hit again) and to a character
(down at 2 wounds, dead at 3: out of action either way), and the CQBs.

A model that moves into engagement fights CQB at once: the CQBs are queued and resolved
in order, both sides rolling together. Against a bogey that is susceptible (ZD-P0) the
hero's player chooses ``fight`` or ``persuade`` (ZD-P1, the phase ``cqb``); once the queue
is empty, play goes on where it was started from (:class:`~.pieces.Resume`).
"""

from __future__ import annotations

from dataclasses import replace

from ....core.game import emit
from ....core.rules import Refusal
from ..fear import Model, ModelState
from ..profiles import BOGEY_CQB_TN, HERO_DEAD, HERO_DOWN
from .allies import Allies
from .pieces import Phase, Resume

__all__ = ["Combat"]


class Combat(Allies):
    """Wounds (ZD-C3, ZD-C5) and the CQB queue (ZD-C5, ZD-P1)."""

    # ------------------------------------------------------------------ the moves

    def _check_cqb_choice(self, seat: str, args: tuple[()]) -> Refusal | None:
        """ZD-P1: against a susceptible bogey the hero fights or persuades, as its
        player chooses."""
        return None

    def _fight(self, seat: str, args: tuple[()]) -> None:
        self._resolve_cqb(persuade=False)
        self._run_cqb()  # the rest of the queue, then where it was started from

    def _persuade(self, seat: str, args: tuple[()]) -> None:
        self._resolve_cqb(persuade=True)
        self._run_cqb()

    # ------------------------------------------------------------------ wounds

    def _hits_on_bogey(self, bogey: Model, hits: int, *, shot: bool) -> None:
        """ZD-C3: each hit of a shot removes a support token if the bogey has one, else
        wounds it; at Wnd wounds it is down; a down bogey hit again is dead. CQB hits
        wound (ZD-C5)."""
        for _ in range(hits):
            current = self.position.models.get(bogey.id)
            if current is None:
                return
            if shot and self.support.get(bogey.id, 0) > 0:
                self.support[bogey.id] -= 1
                emit(
                    self.events,
                    "support_removed",
                    model=bogey.id,
                    left=self.support[bogey.id],
                    rule="ZD-C3",
                )
                continue
            if current.state is ModelState.DOWN:
                if any(bogey.id == x.boss_target for x in self.sides.values()):
                    # ZD-T4: the Boss to assassinate is only down until verified.
                    emit(self.events, "only_down", model=bogey.id, rule="ZD-T4")
                    continue
                self._kill_bogey(current)
                return
            self.wounds[bogey.id] = self.wounds.get(bogey.id, 0) + 1
            emit(self.events, "wounded", model=bogey.id, wounds=self.wounds[bogey.id])
            if self.wounds[bogey.id] >= self.bogey_stats(current).wnd:
                self._set(replace(current, state=ModelState.DOWN))
                emit(self.events, "down", model=bogey.id, rule="ZD-C3")
                self._reveal_check()  # FR-P3: a down bogey is Cyl 1 (FR-L4)

    def _kill_bogey(self, bogey: Model) -> None:
        self.position = self.position.without(bogey.id)
        self.targeted.discard(bogey.id)
        emit(self.events, "dead", model=bogey.id, rule="ZD-C3")
        self._reveal_check()  # FR-P3: "as soon as" a line it stood in opens

    def _wound_character(self, model_id: str, hits: int) -> None:
        """ZD-C5: a character with 2 wounds is down, with 3 dead; both are out of action."""
        current = self.position.models.get(model_id)
        if current is None or not hits:
            return
        self.wounds[model_id] = self.wounds.get(model_id, 0) + hits
        w = self.wounds[model_id]
        emit(self.events, "wounded", model=model_id, wounds=w)
        if w >= HERO_DEAD:
            self._kill_character(model_id)
        elif w >= HERO_DOWN and current.state is not ModelState.OOA:
            self._set(replace(current, state=ModelState.OOA))
            emit(self.events, "down", model=model_id, rule="ZD-C5")
            self._reveal_check()  # FR-P3: out of action, it is Cyl 1 (FR-L4)

    def _kill_character(self, model_id: str) -> None:
        current = self.position.models.get(model_id)
        if current is None:
            return
        self.dead.add(model_id)
        if self.reunite is not None and model_id in self.reunite:
            self.reunite = None  # ZD-D2 binds a living pair only
        self._set(replace(current, state=ModelState.OOA))
        emit(self.events, "dead", model=model_id, rule="ZD-C5")
        if current.kind == "ally":
            # An ally treated as dead leaves the table (ZD-D3).
            self.position = self.position.without(model_id)
        self._reveal_check()  # FR-P3: out of action or gone, a line may open

    # ------------------------------------------------------------------ CQB (ZD-C5)

    def _run_cqb(self) -> None:
        """Resolve the queued CQBs in order; stop for the team's choice where a hero may
        persuade (ZD-P1); then go on where the queue was started from."""
        while self.cqb_queue:
            waiting = self.cqb_queue[0]
            char_id, bogey_id = waiting.char, waiting.bogey
            char = self.position.models.get(char_id)
            bogey = self.position.models.get(bogey_id)
            if (
                char is None
                or bogey is None
                or char.state is ModelState.OOA
                or bogey.state in (ModelState.DOWN, ModelState.OOA)
                or not self.position.engaged(char_id, bogey_id)
            ):
                self.cqb_queue.pop(0)
                continue
            if bogey.kind == "bogey" and char.kind == "hero" and self._susceptible(bogey, char):
                self.phase = Phase.CQB
                emit(self.events, "cqb_choice", model=char_id, bogey=bogey_id, rule="ZD-P1")
                return
            self._resolve_cqb(persuade=False)
            if self._outcome is not None:
                return
        self._continue_after_cqb()

    def _resolve_cqb(self, *, persuade: bool) -> None:
        """Both sides roll at once (ZD-C5): the character D (A when persuading) at TN 5/6/7
        by the bogey's tier, the bogey Att + support at TN 6; each success wounds the
        other side, except the persuading test, which never wounds (ZD-P2); more
        successes than the bogey persuade it (ZD-P1)."""
        fight = self.cqb_queue.pop(0)
        char_id, bogey_id, who = fight.char, fight.bogey, fight.moved
        char = self.position.model(char_id)
        bogey = self.position.model(bogey_id)
        emit(self.events, "cqb", model=char_id, bogey=bogey_id, moved=who, persuade=persuade)
        if bogey.is_character:
            # Versus: two characters fight with D at TN 6 each (ZD-C9, ruling).
            ours, _ = self._roll(self.stats(char_id).d, BOGEY_CQB_TN, "cqb", char_id)
            theirs, _ = self._roll(self.stats(bogey_id).d, BOGEY_CQB_TN, "cqb", bogey_id)
            self._wound_character(bogey_id, ours)
            self._wound_character(char_id, theirs)
            return
        stats = self.bogey_stats(bogey)
        mine = self.stats(char_id).a if persuade else self.stats(char_id).d
        ours, _ = self._roll(mine, stats.cqb_tn, "persuade" if persuade else "cqb", char_id)
        theirs, _ = self._roll(
            stats.att + self.support.get(bogey_id, 0), BOGEY_CQB_TN, "cqb", bogey_id
        )
        if not persuade:
            self._hits_on_bogey(bogey, ours, shot=False)
        self._wound_character(char_id, theirs)
        if persuade and ours > theirs:
            self._persuaded(bogey, char)

    def _continue_after_cqb(self) -> None:
        step, self.after_cqb = self.after_cqb, Resume.NOTHING
        if step is Resume.AUTOMATIC:
            self._after_automatic()
        elif step is Resume.FLIP:
            self._after_flip()
