"""Capture and prisoners (PT-P1..PT-P11).

* **Capture** (PT-P1..P5): ``capture T`` in the orders phase, no order card needed, with
  more own units than enemy units at T's Point; then ``pay CARD`` or ``pay rd``
  (``exchange.py``), RD dice and the roll: any die 6+ captures. The prisoner lies at the
  captor's base. Locals cannot be captured.
* **Prisoners at the end of the round** (PT-P6..P9): the winner names the prisoner to
  free (``free U``), then each captor acts on each prisoner, Vietnam's first, by id:
  ``torture``, ``execute``, ``recruit`` or ``spare``; one die, no RD, no re-roll.
"""

from __future__ import annotations

from typing import Final

from ....core.game import emit
from ....core.rules import Refusal
from ..odds import capture_result, interaction_result
from .decisions import Interact, Kind, Name, PayCapture, Phase, RollContext, RollKind
from .orders import Orders
from .pieces import SIDES, Piece, Zone, id_key, other

__all__ = ["CAPTURE_RD", "Prisoners"]

CAPTURE_RD: Final = 2  # PT-R1


class Prisoners(Orders):
    """Captures, and what captors do with their prisoners."""

    # ------------------------------------------------------------------ capture (PT-P1)

    def _capture_options(self, s: str) -> list[tuple[Piece]]:
        return [
            (pc,)
            for pos in range(len(self.points))
            if self.superior(pos, s)
            for pc in self.at(pos)
            if pc.owner == other(s) and self._can_pay_capture(s, pc)
        ]

    def _check_capture(self, s: str, args: tuple[Piece | None]) -> Refusal | None:
        """PT-P1: in the orders phase, an enemy unit at a Point where the side has more
        units than the enemy, if the side can pay (PT-P2); PT-P5: not a local."""
        (target,) = args
        if (
            self.phase == Phase.ORDERS
            and target is not None
            and target.zone == Zone.POINT
            and target.owner == other(s)
            and self.superior(target.pos, s)
            and self._can_pay_capture(s, target)
        ):
            return None
        if target is not None:
            if target.card.is_local:
                return "locals cannot be captured", "PT-P5"
            if self.phase != Phase.ORDERS:
                return "a capture is made in the orders phase", "PT-P2"
            if target.zone == Zone.POINT and not self.superior(target.pos, s):
                return "a capture needs more own units than enemy units at the Point", "PT-P1"
            return "no card or 2 RD to pay for the capture", "PT-P2"
        if self.rd[s] < CAPTURE_RD:
            return "a capture costs a card or 2 RD", "PT-R1"
        return self._not_now(s, Kind.CAPTURE)

    def _can_pay_capture(self, s: str, target: Piece) -> bool:
        if self.rd[s] >= CAPTURE_RD or self.hand[s]:
            return True
        return any(self._may_pay_with(s, pc, target) for pc in self.pieces.values())

    def _may_pay_with(self, s: str, pc: Piece, target: Piece) -> bool:
        """PT-P2: an own unit from a Point may pay for the capture of ``target``, if the
        capture keeps its superiority (PT-P1, ruling)."""
        if pc.zone != Zone.POINT or pc.owner != s:
            return False
        return pc.pos != target.pos or self.superior(pc.pos, s, less=1)

    def _capture_declared(self, s: str, args: tuple[Piece]) -> None:
        (target,) = args
        self.chain_open = True
        self.pending = PayCapture(s, target.card.id)
        emit(self.log, "capture_declared", side=s, target=target.card.id)

    def _capture_price(self, p: PayCapture) -> list[str]:
        """What may pay for the capture: ``rd`` (2 RD), a card in hand, an own unit from
        a Point (PT-P2)."""
        s = p.seat
        target = self.pieces[p.target]
        out = ["rd"] if self.rd[s] >= CAPTURE_RD else []
        out += self.hand[s]
        out += [pc.card.id for pc in self.pieces.values() if self._may_pay_with(s, pc, target)]
        return out

    def _check_capture_price(self, p: PayCapture, what: str | None) -> Refusal | None:
        s = p.seat
        if what == "rd":
            if self.rd[s] >= CAPTURE_RD:
                return None
        elif what is not None:
            pc = self.pieces.get(what)
            if what in self.hand[s] or (
                pc is not None and self._may_pay_with(s, pc, self.pieces[p.target])
            ):
                return None
        return "pay with 2 RD (pay rd) or one card from hand or a Point", "PT-P2"

    def _capture_paid(self, p: PayCapture) -> None:
        """The capture is paid for: the superiority is checked again (ruling), then RD
        dice and the roll (PT-P2, PT-C4)."""
        s = p.seat
        target = self.pieces[p.target]
        if target.zone != Zone.POINT or not self.superior(target.pos, s):
            emit(self.log, "capture_failed", side=s, target=target.card.id)
            self._chain_done()
            return
        self.roll = RollContext(RollKind.CAPTURE, s, target.card.id, 1)
        self._ask_pour(s)

    def _capture_rolled(self, dice: list[int]) -> None:
        """The capture roll is kept: any die 6+ captures (PT-P2)."""
        assert self.roll is not None
        s = self.roll.side
        target = self.pieces[self.roll.target]
        if target.zone == Zone.POINT and capture_result(dice, self.twos(s)) == "success":
            self._capture(s, target)
        else:
            emit(self.log, "capture_failed", side=s, target=target.card.id)
        self._chain_done()

    def _capture(self, s: str, target: Piece) -> None:
        """PT-P3, PT-P4: the prisoner lies at the captor's base: no Point, not dead (the
        Devil's option 2 cannot return it)."""
        pos = target.pos
        lost = target.owner
        target.zone, target.holder, target.pos, target.hits = Zone.PRISON, s, -1, 0
        emit(self.log, "captured", side=s, unit=target.card.id, point=self.letter(pos))
        self.stats[s]["captures"] += 1
        self.round_stats[s]["captures"] += 1
        if lost is not None:
            self._combat_loss(lost, target, pos)

    # ------------------------------------------------------------------ the prisoner to free

    def _free_options(self, s: str) -> list[tuple[Piece]]:
        assert isinstance(self.pending, Name)
        return [(self.pieces[u],) for u in self.pending.candidates]

    def _check_free(self, s: str, args: tuple[Piece | None]) -> Refusal | None:
        """PT-P7: the round's winner names one of its own units held prisoner (ruling: it
        must name one when it has any)."""
        (unit,) = args
        if isinstance(self.pending, Name):
            if unit is not None and unit.card.id in self.pending.candidates:
                return None
            return self._waiting(Kind.FREE)
        return "name one of your own units held prisoner", "PT-P7"

    def _free(self, s: str, args: tuple[Piece]) -> None:
        self._answer(Name)
        (prisoner,) = args
        self.named = prisoner.card.id
        emit(self.log, "named", side=s, prisoner=self.named)
        self._next_interaction()

    # ------------------------------------------------------------------ interactions (PT-P6)

    def _next_interaction(self) -> None:
        while self.interact_queue:
            captor, uid = self.interact_queue.pop(0)
            pc = self.pieces[uid]
            if pc.zone == Zone.PRISON and pc.holder == captor:
                self.pending = Interact(captor, uid)
                return
        self._finish_round()

    def _prompt_options(self, s: str) -> list[tuple[Piece]]:
        assert isinstance(self.pending, Interact)
        return [(self.pieces[self.pending.unit],)]

    def _check_prompt(self, s: str, kind: Kind, args: tuple[Piece | None]) -> Refusal | None:
        """PT-P6: the captor acts on the prisoner whose turn it is."""
        (unit,) = args
        p = self.pending
        if isinstance(p, Interact):
            if unit is not None and unit.card.id == p.unit:
                return None
            return self._waiting(kind)
        return self._not_now(s, kind)

    def _interact(self, captor: str, kind: Kind, args: tuple[Piece]) -> None:
        self._answer(Interact)
        (pc,) = args
        uid = pc.card.id
        victim = pc.owner or pc.card.side
        if kind == Kind.SPARE:
            emit(self.log, "spared", side=captor, prisoner=uid)
            self._next_interaction()
            return
        # A single die, no RD (PT-C4), no ROCK'N'ROLL (ruling: PT-P6 allows one
        # interaction per prisoner, a re-roll would be a second); "exactly 3" is read
        # from the natural die (PT-P9).
        die = self._dice(captor, 1, key="interaction")[0]
        result = interaction_result(kind, die, self.twos(captor))
        emit(
            self.log,
            "interaction",
            side=captor,
            prisoner=uid,
            interaction=str(kind),
            die=die,
            result=result,
        )
        if result == "success":
            if kind == Kind.TORTURE:
                self.stats[captor]["tortured"] += 1
                # PT-P11: from the captor's order deck, re-formed from its discard pile
                # when empty (as it usually is at the end of a round), over the limit.
                self._reward_orders(captor, 1, cause="torture")
            elif kind == Kind.EXECUTE:
                self.stats[captor]["executed"] += 1
                pc.zone, pc.holder, pc.owner = Zone.GONE, None, None
                self.twos_rounds[captor].add(self.round + 1)
            else:
                self.stats[captor]["recruited"] += 1
                pc.zone, pc.holder, pc.owner, pc.dead = Zone.HQ, captor, captor, False
        elif result == "backfire":
            self.stats[captor]["backfired"] += 1
            if kind == Kind.TORTURE:
                # PT-P11: the opponent draws from its own order deck (re-formed from its
                # discard pile when empty), whatever its hand holds.
                self._reward_orders(other(captor), 1, cause="torture backfire")
            else:
                self._returns_home(captor, victim, pc)
        self._next_interaction()

    def _returns_home(self, captor: str, victim: str, pc: Piece) -> None:
        """PT-P11: the prisoner returns to its side's HQ, taking 1 order card at random
        (keyed stream) from the captor's hand to its side's hand."""
        uid = pc.card.id
        pc.zone, pc.holder, pc.dead = Zone.HQ, victim, False
        emit(self.log, "returned_home", side=victim, unit=uid, rule="PT-P11")
        orders = sorted((c for c in self.hand[captor] if self.cards.is_order(c)), key=id_key)
        if orders:
            st = self._streams.stream("backfire", self.round, uid)
            card = st.choice(orders)
            self.hand[captor].remove(card)
            self.hand[victim].append(card)
            self._show(victim, card)
            emit(self.log, "order_taken", to=SIDES, data={"from": captor, "to": victim},
                 card=card)  # fmt: skip
        else:
            # Ruling: a captor holding no order card loses none.
            emit(
                self.log,
                "nothing_taken",
                side=captor,
                to_side=victim,
                reason="the captor holds no order card",
                rule="PT-P11",
            )

    def _torture(self, s: str, args: tuple[Piece]) -> None:
        self._interact(s, Kind.TORTURE, args)

    def _execute(self, s: str, args: tuple[Piece]) -> None:
        self._interact(s, Kind.EXECUTE, args)

    def _recruit(self, s: str, args: tuple[Piece]) -> None:
        self._interact(s, Kind.RECRUIT, args)

    def _spare(self, s: str, args: tuple[Piece]) -> None:
        self._interact(s, Kind.SPARE, args)
