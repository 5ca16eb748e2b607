"""The Spook (the supplement's specialist, ZD-C7, ZD-B*, ZD-T*): each side's Spook
gets its priority task with the task's bonus or equipment (ZD-T1), the umpire's secret
picks for it — the double agent to rescue (ZD-T3), the Boss to assassinate (ZD-T4) —,
then either a hand of D cards from the Control Deck (ZD-C7) or buying time: the first D
flips set aside as a second deck (ZD-B1…B6, in ``deck.py``). The Spook verifies the
down Boss it must assassinate (``verify B3``, ZD-T4) as its automatic action.

What each task has come to is settled when the mission ends (``end.py``).
"""

from __future__ import annotations

from ....core.cards import PlayingCard
from ....core.errors import RulesError
from ....core.game import ArgValue, emit
from ....core.rules import Refusal
from ..fear import Model, ModelState, id_number
from ..profiles import TASK_BONUS
from .pieces import Side
from .tested import Tested

__all__ = ["Spook"]


class Spook(Tested):
    """The Spooks' setup, hands and tasks (ZD-C7, ZD-B1, ZD-T*)."""

    def _setup_sides(self) -> None:
        """Each side's Spook: the task with its equipment (ZD-T1), the umpire's secret
        picks (ZD-T3, ZD-T4), then the hand or buying time (ZD-C7, ZD-B1; with both Versus
        Spooks buying, the set-aside count is the sum of their D, ZD-B4, ZD-B5); then the
        reveal check of the placement and, in Versus, the roll-off (ZD-C9)."""
        for side in self.sides.values():
            self._equip(side)
        hands = self._deal()
        for side in self.sides.values():
            self._announce(side, hands.get(side.seat, []))
        self._reveal_check()
        if self.mode != "solo":
            self._roll_off()

    def _equip(self, side: Side) -> None:
        """ZD-T1: the task's bonus or equipment; ZD-T3, ZD-T4: the umpire's secret picks,
        each from a stream keyed by its purpose and the side (so that one side's secret
        choice shifts no draw of the other's)."""
        spook = side.spook
        if spook is None:
            return
        side.base_d = self.stats(spook).d
        if side.task in TASK_BONUS:
            stat, amount = TASK_BONUS[side.task]
            self.hero_stats[spook] = self.stats(spook).with_bonus(stat, amount)
        if side.task == "observation":
            self.upgrades[spook].append("dotlight")  # ZD-T5: the task's equipment
        if side.task == "rescue":
            exclude = {"nemesis", "named"}
            if self.config["rescue_excludes_synthetic"]:
                exclude.add("synthetic")
            pool = sorted((p for p, f in self.ping_flags.items() if not f & exclude), key=id_number)
            if not pool:
                raise RulesError("the Rescue task needs a ping that may be a double agent (ZD-T3)")
            side.double_agent = self._streams.stream("double-agent", side.seat).choice(pool)
        if side.task == "assassination":
            bosses = sorted((p for p, t in self.ping_types.items() if t == "boss"), key=id_number)
            if not bosses:
                raise RulesError("the Assassination task needs a Boss ping (ZD-T4)")
            side.boss_target = self._streams.stream("boss-target", side.seat).choice(bosses)

    def _deal(self) -> dict[str, list[PlayingCard]]:
        """ZD-C7: each Spook that does not buy time draws D cards (its D in force at the
        start, task bonuses included, ZD-B6); ZD-B2, ZD-B4, ZD-B5: the Spooks that buy
        time set aside the first flips, the sum of their D. Solo: the hand is the top D
        cards; Versus: see :meth:`~.versus.Versus._deal_from_bottom`."""
        wants: dict[str, int] = {}
        for side in self.sides.values():
            if side.spook is None:
                continue
            d = self.stats(side.spook).d
            if side.buying_time:
                self.aside_target += d
            else:
                wants[side.seat] = d
        if self.mode == "solo":
            return {
                seat: [self.deck.draw() for _ in range(min(d, len(self.deck)))]
                for seat, d in wants.items()
            }
        return self._deal_from_bottom(wants)

    def _announce(self, side: Side, hand: list[PlayingCard]) -> None:
        """The private events of a side's setup: its hand or buying time, and its task."""
        spook = side.spook
        if spook is None:
            return
        private = None if self.mode == "solo" else (side.seat,)
        if side.buying_time:
            d = self.stats(spook).d
            emit(self.events, "buying_time", to=private, spook=spook, cards=d, rule="ZD-B1")
        else:
            side.hand = hand
            emit(self.events, "hand_drawn", to=private, spook=spook, cards=len(hand), rule="ZD-C7")
        emit(self.events, "task", to=private, spook=spook, task=side.task, rule="ZD-T1")

    def _task_refused(self, task: str) -> tuple[str, str] | None:
        """Why ``task`` cannot be chosen with this Red Force (ZD-T3: no ping may be the
        double agent; ZD-T4: no Boss ping), or ``None``."""
        if task == "rescue":
            exclude = {"nemesis", "named"}
            if self.config["rescue_excludes_synthetic"]:
                exclude.add("synthetic")
            if all(f & exclude for f in self.ping_flags.values()):
                return "no ping may be the double agent: the Rescue task cannot be chosen", "ZD-T3"
        if task == "assassination" and "boss" not in self.ping_types.values():
            return "no Boss ping: the Assassination task cannot be chosen", "ZD-T4"
        return None

    # ------------------------------------------------------------------ verify (ZD-T4)

    def _verifiable(self, hero: Model) -> str | None:
        """ZD-T4: the Spook engaged with the down Boss it must verify."""
        side = self.side_of(hero)
        target = side.boss_target
        if hero.id != side.spook or target is None or side.verified:
            return None
        boss = self.position.models.get(target)
        if (
            boss is None
            or boss.state is not ModelState.DOWN
            or not self.position.engaged(hero.id, boss.id)
        ):
            return None
        return boss.id

    def _check_verify(self, seat: str, args: tuple[str]) -> Refusal | None:
        """ZD-T4: the Spook engaged with the down Boss of its Assassination task puts it
        into the dead state, instead of moving."""
        if self.steps == 0 and args[0] == self._verifiable(self._hero()):
            return None
        return self._verify_words(args)

    def _verify_words(self, args: tuple[ArgValue, ...]) -> Refusal:
        hero = self._hero()
        return f"{hero.id} is not the Spook engaged with the down Boss to verify", "ZD-T4"

    def _verify(self, seat: str, args: tuple[str]) -> None:
        """ZD-T4: the Spook puts the down Boss into the dead state."""
        (boss_id,) = args
        self.side_of(self._hero()).verified = True
        emit(self.events, "verified", model=self.active, boss=boss_id, rule="ZD-T4")
        self._kill_bogey(self.position.model(boss_id))
        self._end_automatic(moved=False)
