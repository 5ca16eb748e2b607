"""Activations (ZD-C2, ZD-C9): the team chooses a hero or ally to activate
(``activate H2``); its activation is one automatic action (``movement.py``), then one
tested action (``tested.py``) whose successes beyond the first are bonus actions —
automatic actions again, ``done`` forgoing the rest. Each character acts once a turn;
when the activation ends the Red Force answers (``deck.py``).

ZD-D2 binds the choice: an ally more than 4 from its hero, or that hero, acts next; the
ally that does not close is treated as dead when the activation ends (ZD-D3).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

from ....core.game import emit
from ....core.rules import Refusal
from ..fear import Model, ModelState, id_number
from .combat import Combat
from .pieces import Cqb, Phase, Resume

__all__ = ["DONE_WHEN", "Activation"]

#: ZD-C2: ``done`` forgoes the bonus actions left, but not in the middle of one's move.
DONE_WHEN: Final[Refusal] = ("done forgoes bonus actions, before a bonus action's move", "ZD-C2")


class Activation(Combat):
    """Choosing who acts, and an activation's course (ZD-C2, ZD-C9, ZD-D2, ZD-D3)."""

    # ------------------------------------------------------------------ activate

    def _can_activate(self, seat: str | None = None) -> list[Model]:
        """Heroes and allies that may be activated now — of ``seat``'s team when given,
        else each of its own team's — as the check of ``activate`` allows them."""
        return [
            m
            for m in self._characters_in_order()
            if self._check_activate(self.seat_of(m) if seat is None else seat, (m.id,)) is None
        ]

    def _characters_in_order(self) -> list[Model]:
        """Every hero and ally on the map: heroes first, then by number."""
        return sorted(
            (m for m in self.position.models.values() if m.is_character),
            key=lambda m: (m.kind != "hero", id_number(m.id)),
        )

    def _activate_options(self, seat: str) -> Iterator[tuple[str]]:
        """Every hero and ally on the map, in order: the check picks the seat's."""
        return ((m.id,) for m in self._characters_in_order())

    def _check_activate(self, seat: str, args: tuple[str]) -> Refusal | None:
        """ZD-C9: a hero or ally of the seat's team, not yet acted this turn, not out of
        action (ZD-C5); ZD-D2: while an ally is too far from its hero, one of the two
        (if either may act)."""
        (model_id,) = args
        model = self.position.models.get(model_id)
        if model is None or not model.is_character:
            return f"no hero or ally {model_id!r} to activate", "ZD-C9"
        owner = self.seat_of(model)
        if owner != seat:
            return f"{model.id} is {owner}'s to activate", "ZD-C9"
        if model.id in self.acted:
            return f"{model.id} has already acted this turn", "ZD-C9"
        if model.state is ModelState.OOA:
            return f"{model.id} is out of action", "ZD-C5"
        pair = self.reunite
        if pair is not None and model.id not in pair and self._pair_may_act(seat):
            return f"{pair.ally} is more than 4 from {pair.hero}: one of them acts next", "ZD-D2"
        return None

    def _pair_may_act(self, seat: str) -> bool:
        """Whether the ally too far from its hero, or the hero, may be activated by
        ``seat`` now (ZD-D2 binds only then)."""
        for member in self.reunite or ():
            m = self.position.models.get(member)
            if (
                m is not None
                and m.is_character
                and m.state is not ModelState.OOA
                and m.id not in self.acted
                and self.seat_of(m) == seat
            ):
                return True
        return False

    def _activate(self, seat: str, args: tuple[str]) -> None:
        (model_id,) = args
        self.active = model_id
        self.steps = 0
        self.bonus = 0
        self.in_bonus = False
        self.phase = Phase.MOVE
        self.engaged_at_start = self._engaged_bogeys(self.position.model(model_id))
        emit(self.events, "activation", model=model_id, turn=self.turn)

    # ------------------------------------------------------------------ done

    def _check_done(self, seat: str, args: tuple[()]) -> Refusal | None:
        """ZD-C2: the bonus actions left may be forgone, but not in the middle of one's
        move."""
        return DONE_WHEN if self.steps else None

    def _done(self, seat: str, args: tuple[()]) -> None:
        self._finish_activation()

    # ------------------------------------------------------------------ the course

    def _end_automatic(self, *, moved: bool) -> None:
        """The automatic action (or a bonus action) is over: CQB for each bogey the
        move brought into engagement (ZD-C5), then the tested action or the next bonus."""
        hero = self._hero()
        self.steps = 0
        if moved:
            for b in sorted(self._engaged_bogeys(hero) - self.engaged_at_start, key=id_number):
                self.cqb_queue.append(Cqb(hero.id, b, "hero"))
            self.engaged_at_start = self._engaged_bogeys(hero)
        self.after_cqb = Resume.AUTOMATIC
        self._run_cqb()

    def _after_automatic(self) -> None:
        if self.active is None or self.active not in self.position.models:
            self._finish_activation()
            return
        if self.position.model(self.active).state is ModelState.OOA:
            self._finish_activation()  # down or dead in the CQB
            return
        if self.in_bonus:
            self.bonus -= 1
            if self.bonus <= 0:
                self._finish_activation()
            else:
                self.phase = Phase.BONUS
            return
        self.phase = Phase.TESTED

    def _begin_bonus(self, successes: int) -> None:
        """Successes beyond the first of a tested action are bonus actions (ZD-C2)."""
        self.bonus = max(0, successes - 1)
        if self.bonus and self.active in self.position.models:
            self.in_bonus = True
            self.phase = Phase.BONUS
            self.engaged_at_start = self._engaged_bogeys(self._hero())
            emit(self.events, "bonus_actions", model=self.active, count=self.bonus, rule="ZD-C2")
        else:
            self._finish_activation()

    def _finish_activation(self) -> None:
        who = self.active
        if who is not None and who in self.position.models:
            self.red_seat = self.seat_of(self.position.model(who))
        if who is not None:
            self.acted.add(who)
            emit(self.events, "activation_end", model=who)
        self.active = None
        self.steps = 0
        self.bonus = 0
        self.in_bonus = False
        if who is not None:
            self._end_of_activation_checks(who)
        self._red_force()

    def _end_of_activation_checks(self, who: str) -> None:
        """ZD-D3: the ally that had to close on its hero and did not is treated as dead."""
        if self.reunite is not None and who in self.reunite:
            ally, hero = self.reunite
            self.reunite = None
            if self._too_far(ally, hero):
                emit(self.events, "ally_lost", ally=ally, hero=hero, rule="ZD-D3")
                self._kill_character(ally)
        self._dependent_check()
