"""RD exchange rates and what they buy (PT-R1, PT-R3, PT-G1): paying for a capture or a
goal change, the goal change itself, and the Current Act.

* ``pay CARD`` / ``pay rd`` answers a declared capture (one card from hand or an own unit
  from a Point, or 2 RD: ``prisoners.py`` says which) or goal change (two cards from
  hand, one ``pay`` each, or 4 RD, not mixed).
* ``goal X Y`` (PT-G1), in the orders phase: the Point cards swap places; units stay.
* ``act`` (PT-R3), in the orders phase, for 4 RD: the top card of the order deck is
  turned up and must be played at once (``Forced``); with no legal use it is discarded.
"""

from __future__ import annotations

from typing import Final

from ....core.game import emit
from ....core.rules import Refusal
from ..cards import PointCard
from .decisions import Forced, Kind, PayCapture, PayGoal, Phase
from .pieces import id_key
from .prisoners import CAPTURE_RD, Prisoners

__all__ = ["ACT_RD", "GOAL_RD", "Exchange"]

GOAL_RD: Final = 4  # PT-R1
ACT_RD: Final = 4  # PT-R1


class Exchange(Prisoners):
    """Prices paid, goal changes and the Current Act."""

    # ------------------------------------------------------------------ pay (PT-R1)

    def _pay_options(self, s: str) -> list[tuple[str]]:
        p = self.pending
        if isinstance(p, PayCapture):
            what = self._capture_price(p)
        else:
            assert isinstance(p, PayGoal)
            what = self._goal_price(p)
        return [(c,) for c in sorted(what, key=lambda c: (c != "rd", id_key(c)))]

    def _check_pay(self, s: str, args: tuple[str | None]) -> Refusal | None:
        """PT-P2, PT-G1: the price of the capture or goal change declared."""
        (what,) = args
        p = self.pending
        if isinstance(p, PayCapture):
            return self._check_capture_price(p, what)
        if isinstance(p, PayGoal):
            return self._check_goal_price(p, what)
        return self._not_now(s, Kind.PAY)

    def _pay(self, s: str, args: tuple[str]) -> None:
        p = self.pending
        assert isinstance(p, PayCapture | PayGoal)
        self.pending = None
        (what,) = args
        if what == "rd":
            cost = CAPTURE_RD if isinstance(p, PayCapture) else GOAL_RD
            self.rd[s] -= cost
            emit(self.log, "paid", side=s, rd=cost)
            done = True
        else:
            self._discard_card(s, what)
            emit(self.log, "paid", side=s, card=what)
            p.paid.append(what)
            done = isinstance(p, PayCapture) or len(p.paid) == 2
        if not done:  # a goal change's second card
            assert isinstance(p, PayGoal)
            if not self._goal_price(p):  # pragma: no cover - declared only when payable
                self._chain_done()
                return
            self.pending = p
            return
        if isinstance(p, PayGoal):
            self._goal_paid(p)
        else:
            self._capture_paid(p)

    # ------------------------------------------------------------------ goal change (PT-G1)

    def _goal_options(self, s: str) -> list[tuple[PointCard, PointCard]]:
        points = sorted(self.points, key=lambda p: p.letter)
        return [(a, b) for i, a in enumerate(points) for b in points[i + 1 :]]

    def _check_goal(
        self, s: str, args: tuple[PointCard | None, PointCard | None]
    ) -> Refusal | None:
        """PT-G1: in the orders phase, two Points (named in letter order) swap places,
        for two cards from hand or 4 RD."""
        a, b = args
        if (
            self.phase == Phase.ORDERS
            and a is not None
            and b is not None
            and a.letter < b.letter
            and (len(self.hand[s]) >= 2 or self.rd[s] >= GOAL_RD)
        ):
            return None
        return "a goal change costs 2 cards from hand or 4 RD", "PT-G1"

    def _goal_declared(self, s: str, args: tuple[PointCard, PointCard]) -> None:
        self.chain_open = True
        a, b = args
        points = [a.letter, b.letter]
        self.pending = PayGoal(s, points)
        emit(self.log, "goal_declared", side=s, points=points)

    def _goal_price(self, p: PayGoal) -> list[str]:
        """Two cards from hand, one ``pay`` each, or 4 RD, not mixed (ruling)."""
        s = p.seat
        out = ["rd"] if not p.paid and self.rd[s] >= GOAL_RD else []
        if p.paid or len(self.hand[s]) >= 2:
            out += self.hand[s]
        return out

    def _check_goal_price(self, p: PayGoal, what: str | None) -> Refusal | None:
        s = p.seat
        if what == "rd":
            if not p.paid and self.rd[s] >= GOAL_RD:
                return None
            return f"a goal change by RD costs {GOAL_RD} RD (held: {self.rd[s]})", "PT-G1"
        if what is not None and what in self.hand[s] and (p.paid or len(self.hand[s]) >= 2):
            return None
        return "a goal change costs two cards from hand, one pay each, or pay rd", "PT-G1"

    def _goal_paid(self, p: PayGoal) -> None:
        a, b = (self.pos_of(x) for x in p.points)
        self.points[a], self.points[b] = self.points[b], self.points[a]
        # PT-G1: units stay at their positions, now on the other Points.
        emit(self.log, "goal_changed", side=p.seat, points=p.points)
        self._chain_done()

    # ------------------------------------------------------------------ Current Act (PT-R3)

    def _check_act(self, s: str, args: tuple[()]) -> Refusal | None:
        """PT-R3: in the orders phase, 4 RD (PT-R1) and an order deck to turn up."""
        if self.phase == Phase.ORDERS and self.rd[s] >= ACT_RD and self.order_deck[s]:
            return None
        return "Current Act costs 4 RD and needs an order deck", "PT-R1"

    def _act(self, s: str, args: tuple[()]) -> None:
        """Current Act (PT-R3): pay 4 RD, play the top card of the order deck at once."""
        self.rd[s] -= ACT_RD
        card = self.order_deck[s].draw()
        emit(self.log, "current_act", side=s, card=card)
        self.forced = card
        if self._has_order_play(s, {self.cards.order(card).kind}):
            self.chain_open = True
            self.pending = Forced(s, card)
        else:
            self.order_discard[s].append(card)
            emit(self.log, "no_use", side=s, card=card)
            self.forced = None
