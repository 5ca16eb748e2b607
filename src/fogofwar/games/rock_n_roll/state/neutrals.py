"""Entering a Point, and the locals' own decisions (PT-C2, PT-L7..PT-L11).

When a side unit enters a Point (deployed, reinforced or manoeuvred), the enemy's
blocking units attack it first (by id), then the sentinels (Zulu before Rong, PT-L10);
with two sentinels the side on turn picks the order (``first L``). Locals enter freely
and ignore each other (PT-L4, PT-L7). A drifter that survives an attack withdraws to a
neighbouring Point, where the side on turn says when there are two (``withdraw X``,
PT-L11; the attack's resolution in ``combat.py`` asks).
"""

from __future__ import annotations

from ....core.game import emit
from ....core.rules import Refusal
from ..cards import PointCard
from .combat import Combat
from .decisions import Entry, First, Kind, Withdraw
from .pieces import Piece, Zone, other

__all__ = ["Neutrals"]


class Neutrals(Combat):
    """The attacks on a unit entering a Point, and the locals' decisions."""

    def _enter(self, pc: Piece) -> None:
        """A unit enters a Point: the entry attacks (PT-C2, PT-L7, PT-L10, PT-L11)."""
        if pc.card.is_local:
            self._chain_done()  # locals enter freely (PT-L7) and ignore locals (PT-L4)
            return
        here = self.at(pc.pos)
        blockers = [b.card.id for b in here if b.card.blocking and b.owner == other(pc.owner or "")]
        sentinels = [
            b.card.id
            for b in here
            if b.card.is_local and (f := self._feature(b)) is not None and f.sentinel
        ]
        self.entry = Entry(pc.card.id, blockers, sentinels)
        self._entry_next()

    def _entry_next(self, first: str | None = None) -> None:
        assert self.entry is not None
        victim = self.pieces[self.entry.victim]
        sides = self.entry.sides
        locs = self.entry.locals
        while victim.zone == Zone.POINT and (sides or locs):
            # The sides' features before the locals' (PT-L10).
            if sides:
                attacker = sides.pop(0)
            elif first is not None:
                locs.remove(first)
                attacker, first = first, None
            elif len(locs) > 1:
                # PT-L11: the side on turn orders the locals' attacks.
                self.pending = First(self.turn, list(locs))
                return
            else:
                attacker = locs.pop(0)
            a = self.pieces[attacker]
            if a.zone != Zone.POINT or a.pos != victim.pos:
                continue
            self._strike(a, victim, len_dice=a.card.strength, why="entry")
        self.entry = None
        self._chain_done()

    # ------------------------------------------------------------------ first (PT-L11)

    def _first_options(self, s: str) -> list[tuple[Piece]]:
        assert isinstance(self.pending, First)
        return [(self.pieces[c],) for c in self.pending.candidates]

    def _check_first(self, s: str, args: tuple[Piece | None]) -> Refusal | None:
        """PT-L11: the side on turn names one of the sentinels to attack first."""
        (local,) = args
        p = self.pending
        if isinstance(p, First) and local is not None and local.card.id in p.candidates:
            return None
        return self._not_now(s, Kind.FIRST)

    def _first(self, s: str, args: tuple[Piece]) -> None:
        self._answer(First)
        (local,) = args
        self._entry_next(first=local.card.id)

    # ------------------------------------------------------------------ withdraw (PT-L11)

    def _withdraw_options(self, s: str) -> list[tuple[PointCard]]:
        assert isinstance(self.pending, Withdraw)
        return [(self.points[q],) for q in self.pending.options]

    def _check_withdraw(self, s: str, args: tuple[PointCard | None]) -> Refusal | None:
        """PT-L11: the side on turn names the neighbouring Point the drifter withdraws to."""
        (point,) = args
        p = self.pending
        if isinstance(p, Withdraw) and point is not None and self.pos_of(point.letter) in p.options:
            return None
        return self._not_now(s, Kind.WITHDRAW)

    def _withdraw(self, s: str, args: tuple[PointCard]) -> None:
        p = self._answer(Withdraw)
        (point,) = args
        local = self.pieces[p.local]
        local.pos = self.pos_of(point.letter)
        emit(self.log, "withdrew", local=local.card.id, point=point.letter)
        self._chain_done()
