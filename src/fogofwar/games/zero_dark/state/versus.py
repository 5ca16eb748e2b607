"""Versus (ZD-C9, ZD-B4, ZD-B5): two teams, ``team1`` and ``team2``, each with its own
Spook. Each records in secret its Spook's task and whether it buys time
(``prepare TASK hand|buy``); once both are in, the buying-time choices are revealed
together and the setup goes on (``spook.py``). A roll-off picks the team that starts,
and the teams alternate activations; a team with nobody left to act passes.

A Spook's D is its team's secret (a task's bonus would tell the task), so the hands are
dealt from the bottom of the Control Deck (ruling, :meth:`Versus._deal_from_bottom`).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

from ....core.cards import Deck, PlayingCard
from ....core.dice import d
from ....core.game import emit
from ....core.rules import Refusal
from ..profiles import TASKS
from .pieces import Phase
from .spook import Spook

__all__ = ["PREPARE_FORM", "ROLL_OFF_DIE", "Versus"]

ROLL_OFF_DIE: Final = d(6)
"""The roll-off's die: a d6 each (ZD-C9)."""

PREPARE_FORM: Final = f"prepare TASK hand|buy, TASK one of {', '.join(TASKS)}"
"""How a team records its choices (ZD-B4)."""


class Versus(Spook):
    """Two teams: the secret setup, the roll-off, the alternation (ZD-C9, ZD-B4)."""

    # ------------------------------------------------------------------ prepare (ZD-B4)

    def _prepare_options(self, seat: str) -> Iterator[tuple[str, str]]:
        """Every task with a hand or buying time: the check picks."""
        for task in TASKS:
            yield (task, "hand")
            yield (task, "buy")

    def _check_prepare(self, seat: str, args: tuple[str, str]) -> Refusal | None:
        """ZD-B4: a task the Red Force allows (ZD-T3, ZD-T4), with a hand or buying time;
        ZD-T1: a team without a Spook has neither."""
        if self.sides[seat].spook is None:
            if args == ("none", "hand"):
                return None
            return "without a Spook a team has no task and no hand: prepare none hand", "ZD-T1"
        return self._task_refused(args[0])

    def _prepare(self, seat: str, args: tuple[str, str]) -> None:
        """ZD-B4: a Versus team's secret record of its Spook's task and whether it buys
        time; once both are in, the buying-time choices are revealed together (ZD-B5)."""
        task, buy = args
        side = self.sides[seat]
        side.task = task if side.spook else "none"
        side.buying_time = buy == "buy" and side.spook is not None
        side.prepared = True
        emit(self.events, "prepared", to=(seat,), seat=seat, task=side.task, buy=side.buying_time)
        if all(x.prepared for x in self.sides.values()):
            emit(
                self.events,
                "buying_time_choices",
                choices={x.seat: x.buying_time for x in self.sides.values()},
                rule="ZD-B5",
            )
            self.phase = Phase.CHOOSE
            self._setup_sides()

    # ------------------------------------------------------------------ the setup

    def _roll_off(self) -> None:
        """ZD-C9: a roll-off (a d6 each, again on a tie) picks the team that starts."""
        seats = list(self.sides)
        dice = ROLL_OFF_DIE.pool(len(seats))
        for k in range(100):
            rolls = list(dice.roll(self._streams.stream("roll-off", k)).faces)
            if rolls[0] != rolls[1]:
                first = seats[0] if rolls[0] > rolls[1] else seats[1]
                self.turn_seat = self.red_seat = first
                emit(
                    self.events,
                    "roll_off",
                    rolls=dict(zip(seats, rolls, strict=True)),
                    first=first,
                )
                return
        self.turn_seat = seats[0]  # pragma: no cover - 100 ties in a row

    def _deal_from_bottom(self, wants: dict[str, int]) -> dict[str, list[PlayingCard]]:
        """The Spooks' hands in Versus (ZD-C7): from the bottom of the Control Deck, one
        card to each Spook in turn (team1's from the bottom card up, team2's from the one
        above it), so that neither hand, nor the cards flipped from the top, depend on the
        other Spook's D (ruling)."""
        order = list(self.deck)  # top first
        n = len(order)
        picks: dict[str, list[int]] = {}
        for k, seat in enumerate(self.sides):
            if seat in wants:
                picks[seat] = [n - 1 - (k + 2 * j) for j in range(wants[seat]) if k + 2 * j < n]
        taken = {i for positions in picks.values() for i in positions}
        dealt = [order[i] for seat in picks for i in picks[seat]]
        rest = [card for i, card in enumerate(order) if i not in taken]
        self.deck = Deck(dealt + rest, name="control")
        return {seat: [self.deck.draw() for _ in picks[seat]] for seat in picks}

    def _alternate(self) -> None:
        """ZD-C9: after the Red Force's answer the other team activates next; a team
        with nobody left to act passes."""
        other = next(x for x in self.sides if x != self.red_seat)
        self.turn_seat = other if self._can_activate(other) else self.red_seat
