"""The Devil's hand (PT-D1..PT-D3): once per match.

* ``deal take``: in the deployment phase two ``take`` steps (``take deck`` or ``take U``
  from the HQ); in the orders phase two orders from the deck, drawn as PT-P11 draws.
  Offered only when both cards can be had (ruling).
* ``deal return U``: a unit of its own that died, from the HQ to the hand, in the
  deployment phase.
* ``deal interrupt``: the side off turn is offered it before every action of the side
  on turn that starts something, and answers first — ``deal interrupt`` when it holds an
  order it could play, ``pass``, ``pass turn`` (declined for the rest of the turn) or
  ``pass round`` (for the rest of the round); the offer is made whether or not it holds
  one, so ``to_act`` reveals nothing of its hand. It then plays one order
  (``orders.py``), and the turn resumes.

After any deal: no ROCK'N'ROLL; no RD dice either when ``devils_hand_blocks_rd`` is on
(PT-D2).
"""

from __future__ import annotations

from typing import Final

from ....core.game import emit
from ....core.rules import Refusal
from .decisions import Interrupt, Kind, Phase, Take
from .exchange import Exchange
from .pieces import Piece, Zone

__all__ = ["DEAL_CARDS", "Deals"]

DEAL_CARDS: Final = 2  # PT-D1: "take 2 cards"
#: PT-D3: what the side off turn may do.
OFF_TURN: Final = ("off turn a side may only interrupt with its Devil's hand, or pass", "PT-D3")

DealArgs = tuple[str | None] | tuple[str | None, Piece | None]


class Deals(Exchange):
    """The Devil's hand and the interrupt's offer."""

    # ------------------------------------------------------------------ on turn (PT-D1)

    def _deal_options(self, s: str) -> list[DealArgs]:
        out: list[DealArgs] = [("take",)]
        if self.phase == Phase.DEPLOY:
            out += [("return", self.pieces[u]) for u in self.hq(s)]
        return out

    def _check_deal(self, s: str, args: DealArgs) -> Refusal | None:
        """PT-D1: once per match, two cards — units from the deck or the HQ in the
        deployment phase, orders from the deck in the orders phase, and only when both
        can be had (ruling) — or a dead unit of its own back from the HQ to the hand, in
        the deployment phase."""
        if not self.dealt[s]:
            if args == ("take",) and self._cards_to_take(s) >= DEAL_CARDS:
                return None
            if len(args) == 2 and args[0] == "return" and self.phase == Phase.DEPLOY:
                unit = args[1]
                if self.in_hq(s, unit) and unit is not None and unit.dead and unit.owner == s:
                    return None
        if self.dealt[s]:
            return "the Devil's hand is struck once per match", "PT-D1"
        if args[0] == "return":
            return "only a dead unit, in the deployment phase", "PT-D1"
        if args == ("take",) and s == self.turn:
            where = "unit deck and HQ" if self.phase == Phase.DEPLOY else "order deck and discard"
            return f"the deal takes 2 cards: the {where} must hold two", "PT-D1"
        return "not available now", "PT-D3" if s != self.turn else "PT-D1"

    def _cards_to_take(self, s: str) -> int:
        """The cards ``deal take`` could give now: units in the deck and the HQ in the
        deployment phase; orders in the deck and its discard pile (PT-P11) after."""
        if self.phase == Phase.DEPLOY:
            return len(self.unit_deck[s]) + len(self.hq(s))
        return self._orders_left(s)

    def _deal(self, s: str, args: DealArgs) -> None:
        option = args[0]
        assert option is not None
        self.dealt[s] = True
        self.stats[s]["deals"] += 1
        emit(self.log, "deal", side=s, option=option)
        if option == "take":
            if self.phase == Phase.DEPLOY and s == self.turn:
                self.pending = Take(s, DEAL_CARDS)
            else:
                self._reward_orders(s, DEAL_CARDS, cause="deal")
        elif option == "return" and len(args) == 2 and args[1] is not None:
            pc = args[1]
            pc.zone, pc.holder, pc.dead = Zone.HAND, s, False
            self.hand[s].append(pc.card.id)
            self._show(s, pc.card.id)
            emit(self.log, "returned", side=s, unit=pc.card.id)

    # ------------------------------------------------------------------ take (PT-D1)

    def _take_options(self, s: str) -> list[tuple[Piece | str]]:
        out: list[tuple[Piece | str]] = [("deck",)] if self.unit_deck[s] else []
        return out + [(self.pieces[u],) for u in self.hq(s)]

    def _check_take(self, s: str, args: tuple[Piece | str | None]) -> Refusal | None:
        """PT-D1: the deal's units, one ``take`` each: the top of the unit deck or a unit
        from the HQ; PT-C2: the arrival's units alike."""
        (what,) = args
        p = self.pending
        if isinstance(p, Take):
            if what == "deck" and self.unit_deck[s]:
                return None
            if isinstance(what, Piece) and self.in_hq(s, what):
                return None
            if p.arrival:
                return "a unit is taken from the top of the unit deck or from the HQ", "PT-C2"
        return self._not_now(s, Kind.TAKE)

    def _take(self, s: str, args: tuple[Piece | str]) -> None:
        p = self._answer(Take)
        (what,) = args
        if isinstance(what, Piece):
            what.zone, what.dead = Zone.HAND, False
            self.hand[s].append(what.card.id)
            self._show(s, what.card.id)
            emit(self.log, "took", side=s, unit=what.card.id)
        else:
            self._draw_units(s, 1, limit=False)
        p.left -= 1
        if p.left > 0 and self._take_options(s):
            self.pending = p
        elif p.arrival:
            self._arrival_after_take(s)

    # ------------------------------------------------------------------ the offer (PT-D3)

    def _interrupt_options(self, s: str) -> list[tuple[str]]:
        return [("interrupt",)]

    def _check_interrupt(self, s: str, args: DealArgs) -> Refusal | None:
        """PT-D3: the side off turn strikes its Devil's hand to play one order now."""
        if args == ("interrupt",) and self._has_order_play(s, self._order_kinds(s)):
            return None
        return OFF_TURN

    def _interrupt(self, s: str, args: DealArgs) -> None:
        self._deal(s, args)
        self.interrupting = s
        self.pending = Interrupt(s)

    def _pass_options(self, s: str) -> list[tuple[()] | tuple[str]]:
        return [(), ("turn",), ("round",)]

    def _check_pass(self, s: str, args: tuple[()] | tuple[str | None]) -> Refusal | None:
        """PT-D3: the side off turn lets the next action go (``pass``), the rest of the
        opponent's turn (``pass turn``) or of the round (``pass round``, (R): "don't ask
        again this round")."""
        if s == self.turn:
            return self._not_now(s, Kind.PASS)
        return None if args in ((), ("turn",), ("round",)) else OFF_TURN

    def _pass(self, s: str, args: tuple[()] | tuple[str]) -> None:
        self.window_passed = True
        if args == ("turn",):
            self.declined = s
        elif args == ("round",):
            self.declined_round = s
