"""The tested action (ZD-C1 tests, ZD-C2): after the automatic action a character
shoots (``shoot B2``, ZD-C3), marks a target with its dotlight (``dotlight B2``,
ZD-L1…L4), works an objective or the dead-drop (``interact``, ZD-C10, ZD-T6), moves
cautiously (``cautious``, ZD-C10) or does nothing (``pass``). Each success beyond the
first is a bonus action (``activation.py``).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ....core.game import ArgValue, emit
from ....core.grid import Square
from ....core.rules import Refusal
from ..fear import Model, ModelState
from ..profiles import ACQUISITION_TN, CAUTIOUS_TN, INTERACT_TN
from .movement import Movement
from .pieces import Kind

__all__ = ["Tested"]


class Tested(Movement):
    """The tested actions: shoot, dotlight, interact, cautious, pass (ZD-C2)."""

    def _tested_order(self, seat: str) -> Iterator[tuple[str, tuple[Any, ...]]]:
        """The candidates of the tested action in the legal list's order: per enemy a
        shot and a dotlight, then ``interact``, ``cautious`` and ``pass``. The moves'
        checks decide which are legal."""
        for b in self._enemies(self._hero()):
            yield Kind.SHOOT, (b.id,)
            yield Kind.DOTLIGHT, (b.id,)
        yield Kind.INTERACT, ()
        yield Kind.CAUTIOUS, ()
        yield Kind.PASS, ()

    # ------------------------------------------------------------------ shoot, dotlight

    def _in_sight(self, hero: Model, target_id: str) -> bool:
        """ZD-C3, FR-L5, FR-S2, FR-S6: an enemy (a bogey; in Versus a character of the
        other team standing, ZD-C9) in the character's field of view and not entirely
        obscured: a corner line in view reaches the corner or, stopped only by obstacles
        lower than the target, its cylinder (then it is obscured: +2 to the TN)."""
        target = self.position.models.get(target_id)
        if target is None:
            return False
        if target.kind != "bogey" and (
            self.mode == "solo"
            or not target.is_character
            or target.state is ModelState.OOA
            or self.seat_of(target) == self.seat_of(hero)
        ):
            return False
        report = self.position.report_if_not_hidden(hero.id, target.id)
        return report is not None and not report.entirely_obscured

    def _check_shoot(self, seat: str, args: tuple[str]) -> Refusal | None:
        """ZD-C3: an enemy in view and not entirely obscured."""
        hero = self._hero()
        return None if self._in_sight(hero, args[0]) else self._shot_words(hero, Kind.SHOOT)

    def _check_dotlight(self, seat: str, args: tuple[str]) -> Refusal | None:
        """ZD-L1: with the Dotlight upgrade, a Shoot action: an enemy in view and not
        entirely obscured (ZD-C3)."""
        hero = self._hero()
        if "dotlight" in self.upgrades.get(hero.id, []) and self._in_sight(hero, args[0]):
            return None
        return self._shot_words(hero, Kind.DOTLIGHT)

    def _shot_words(self, hero: Model, kind: Kind) -> Refusal:
        if kind is Kind.DOTLIGHT and "dotlight" not in self.upgrades.get(hero.id, []):
            return f"{hero.id} has no dotlight", "ZD-L1"
        return (
            f"{hero.id} sees no enemy there in its view (none, or entirely obscured)",
            "ZD-C3",
        )

    def _shoot_words(self, args: tuple[ArgValue, ...]) -> Refusal:
        return self._shot_words(self._hero(), Kind.SHOOT)

    def _dotlight_words(self, args: tuple[ArgValue, ...]) -> Refusal:
        return self._shot_words(self._hero(), Kind.DOTLIGHT)

    def _shoot_at(self, seat: str, args: tuple[str]) -> None:
        self._shoot(args[0], dotlight=False)

    def _dotlight_at(self, seat: str, args: tuple[str]) -> None:
        self._shoot(args[0], dotlight=True)

    def _target_armour(self, target: Model) -> int:
        if target.kind == "bogey":
            return self.bogey_stats(target).defence
        return self.stats(target.id).av

    def _shoot(self, target_id: str, *, dotlight: bool) -> None:
        """ZD-C3 (and ZD-L* with a dotlight): F dice (+1 on a targeted bogey) at TN =
        range + armour + 2 if obscured (a dotlight ignores the armour)."""
        hero = self._hero()
        target = self.position.model(target_id)
        report = self.position.report(hero.id, target.id)
        rng = self.shooting_range(hero, target)
        armour = 0 if dotlight else self._target_armour(target)
        tn = rng + armour + (2 if report.obscured else 0)
        dice = self.stats(hero.id).f + (1 if target.id in self.targeted else 0)
        purpose = "dotlight" if dotlight else "shoot"
        emit(self.events, purpose, model=hero.id, target=target.id, range=rng, status=report.status)
        hits, _ = self._roll(dice, tn, f"{purpose} {target.id}", hero.id)
        if dotlight:
            spent = self._dotlight_hits(hero, target, hits)
            # ZD-L4: the successes left are bonus actions "as normal": never the first.
            self._begin_bonus(1 + max(0, hits - max(spent, 1)) if hits else 0)
            return
        if target.kind == "bogey":
            self._hits_on_bogey(target, hits, shot=True)
        else:
            self._wound_character(target.id, hits)  # Versus: a hero shot (ZD-C9)
        self._begin_bonus(hits)

    def _dotlight_hits(self, hero: Model, target: Model, hits: int) -> int:
        """ZD-L1…L4: never wounds; one success targets; a second removes a support token
        (two if already targeted), at most one token per shot; the rest are bonus
        actions. Returns the successes spent."""
        spent = 0
        if hits and target.id not in self.targeted:
            self.targeted.add(target.id)
            spent = 1
            side = self.side_of(hero)
            if hero.id == side.spook and target.kind == "bogey":
                side.observed.add(target.id)  # ZD-T5: the Spook's targetings of bogeys
            emit(self.events, "targeted", model=target.id, by=hero.id, rule="ZD-L2")
        need = 1 if spent else 2
        if hits - spent >= need and self.support.get(target.id, 0) > 0:
            self.support[target.id] -= 1
            spent += need
            rule = "ZD-L2" if need == 1 else "ZD-L3"
            emit(
                self.events,
                "support_removed",
                model=target.id,
                left=self.support[target.id],
                rule=rule,
            )
        return spent

    # ------------------------------------------------------------------ interact

    def _near_square(self, model: Model, square: Square) -> bool:
        """On ``square`` or engaged with it: one of its 8 neighbours, not across a wall
        (FR-S1 for a marker, ruling)."""
        for sq in model.squares:
            if sq == square:
                return True
            if max(abs(sq.row - square.row), abs(sq.col - square.col)) == 1 and (
                self.position.rules.engage_through_walls or not self.position.walled(sq, square)
            ):
                return True
        return False

    def _interaction(self, hero: Model) -> tuple[str, Square] | None:
        """What ``interact`` would work on: an objective not yet done (A(12)), or the
        dead-drop for the Spook on the Acquisition task (A(16), ZD-T6, ZD-C10)."""
        side = self.side_of(hero)
        if (
            side.task == "acquisition"
            and hero.id == side.spook
            and not side.acquired
            and self._near_square(hero, self.deployment_marker)
        ):
            return ("dead-drop", self.deployment_marker)
        for sq in self.board.markers.get("objective", ()):
            if sq.name not in self.objectives_done and self._near_square(hero, sq):
                return ("objective", sq)
        return None

    def _check_interact(self, seat: str, args: tuple[()]) -> Refusal | None:
        """ZD-C10: an objective not yet worked, or the dead-drop (ZD-T6), on or next to
        the character's square."""
        return None if self._interaction(self._hero()) is not None else self._interact_words(())

    def _interact_words(self, args: tuple[ArgValue, ...]) -> Refusal:
        return f"{self._hero().id} is not engaged with an objective it can work on", "ZD-C10"

    def _interact(self, seat: str, args: tuple[()]) -> None:
        hero = self._hero()
        found = self._interaction(hero)
        if found is None:  # pragma: no cover - legal only with something to work on
            raise RuntimeError("nothing to interact with")
        what, square = found
        tn = ACQUISITION_TN if what == "dead-drop" else INTERACT_TN
        hits, _ = self._roll(self.stats(hero.id).a, tn, f"interact {what}", hero.id)
        if hits:
            if what == "dead-drop":
                self.side_of(hero).acquired = True
                emit(self.events, "acquired", model=hero.id, square=square.name, rule="ZD-T6")
            else:
                self.objectives_done.append(square.name)
                self.objectives_by[square.name] = self.seat_of(hero)
                emit(self.events, "objective", model=hero.id, square=square.name, rule="ZD-C8")
        self._begin_bonus(hits)

    def _cautious(self, seat: str, args: tuple[()]) -> None:
        """ZD-C10: an A(10) test; a success cancels the primary action of the next flip."""
        hero = self._hero()
        hits, _ = self._roll(self.stats(hero.id).a, CAUTIOUS_TN, "cautious", hero.id)
        if hits:
            self.cancel_next = True
            emit(self.events, "cautious", model=hero.id, rule="ZD-C10")
        self._begin_bonus(hits)

    def _check_anyway(self, seat: str, args: tuple[()]) -> Refusal | None:
        """ZD-C2, ZD-C10: a cautious move or no tested action at all is always allowed."""
        return None

    def _pass(self, seat: str, args: tuple[()]) -> None:
        emit(self.events, "pass", model=self.active)
        self._finish_activation()
