"""Turns, the end of a round and the arrival (PT-C3, PT-C6, PT-C8, PT-A1, PT-O2).

A match is rounds of: arrival (PT-C8, PT-A1) → alternating turns, each a deployment
phase then an orders phase (``orders``, ``end``; either may be skipped) → the end of the
round when the side due to start its turn finds its order deck empty (PT-C3). At the
end of a round: the winner (PT-C6), the prisoner to free and the interactions
(``prisoners.py``), the freeing, the operations revealed; then the next arrival or the
end of the match.
"""

from __future__ import annotations

from ....core.cards import Pile
from ....core.game import Outcome, emit
from ....core.rules import Refusal
from .decisions import Kind, Name, Phase, Take
from .operations import Operations
from .pieces import SIDES, Zone, id_key, other

__all__ = ["Rounds"]


class Rounds(Operations):
    """Turns, rounds and the match's end."""

    # ------------------------------------------------------------------ the turn (PT-C3)

    def _check_orders(self, s: str, args: tuple[()]) -> Refusal | None:
        """PT-C3: the deployment phase gives way to the orders phase."""
        return None if self.phase == Phase.DEPLOY else self._not_now(s, Kind.ORDERS)

    def _orders(self, s: str, args: tuple[()]) -> None:
        self.phase = Phase.ORDERS
        emit(self.log, "phase", side=s, phase=Phase.ORDERS.value)

    def _check_end(self, s: str, args: tuple[()]) -> Refusal | None:
        """PT-C3: the side on turn ends its turn, from either phase."""
        return None

    def _end(self, s: str, args: tuple[()]) -> None:
        emit(self.log, "turn_ended", side=s)
        self._start_turn(other(self.turn))

    def _start_turn(self, side: str) -> None:
        self.turn = side
        self.phase = Phase.DEPLOY
        self.hq_deploys = 0
        self.window_passed = False
        self.declined = None
        if not self.order_deck[side]:
            # PT-C3: the order deck has run out: the end of the round.
            self._end_round()
            return
        emit(self.log, "turn", side=side, round=self.round)
        self._draw_orders(side, self.setup["turn_orders"], burn=True)

    # ------------------------------------------------------------------ the end of a round

    def _end_round(self) -> None:
        self.phase = Phase.END
        values = {s: self.held_value(s) for s in SIDES}
        a, b = (values[s] for s in SIDES)
        winner = None if a == b else (SIDES[0] if a > b else SIDES[1])
        if winner is not None:
            self.rounds_won[winner] += 1
        self.last_loser = None if winner is None else other(winner)
        self.results.append({"round": self.round, "values": values, "winner": winner})
        emit(self.log, "round_over", round=self.round, values=values, winner=winner)
        self.named = None
        self.interact_queue = [(c, u) for c in SIDES for u in self.prisoners(c)]
        if winner is not None:
            mine = [u for u in self.prisoners(other(winner)) if self.pieces[u].owner == winner]
            if mine:
                # PT-P7: the prisoner to free is named before the interactions.
                self.pending = Name(winner, mine)
                return
        self._next_interaction()

    def _finish_round(self) -> None:
        named = self.named
        if named is not None:
            pc = self.pieces[named]
            if pc.zone == Zone.PRISON:
                home = pc.owner or pc.card.side
                pc.zone, pc.holder, pc.dead = Zone.HQ, home, False
                self.stats[home]["freed"] += 1
                emit(self.log, "freed", unit=named, side=home)
            else:
                # PT-P8: no other prisoner this round. The named one died (executed), changed
                # sides (recruited), or went home already (an execute or recruit's backfire,
                # PT-P6): only the first two are PT-P8's "cannot be freed", the last needs
                # no freeing, and the event says which.
                named_by = self.results[-1]["winner"]
                why = (
                    "executed"
                    if pc.zone == Zone.GONE
                    else "recruited"
                    if pc.owner != named_by
                    else "returned"
                )
                emit(self.log, "not_freed", unit=named, why=why)
        winner = self.results[-1]["winner"]
        for side in SIDES:
            for op_id in self.completed_ops(side):
                self._reveal(side, op_id, end_of_round=True)
        self.results[-1]["revealed_by_winner"] = [o for s, o in self.just_revealed if s == winner]
        self.named = None
        wins = int(self.setup["round_wins"])
        limit = int(self.config["rounds"])
        leader = next((s for s in SIDES if self.rounds_won[s] >= wins), None)
        if leader is not None or self.round >= limit:
            self._end_match(leader)
            return
        for pc in self.pieces.values():
            pc.hits = 0  # damage lasts for the round (ruling)
        self.round += 1
        self.declined_round = None  # the offer of PT-D3 is made again each round
        self.round_stats = {s: {"kills": 0, "captures": 0} for s in SIDES}
        self._arrival()

    def _end_match(self, leader: str | None) -> None:
        self.phase = Phase.OVER
        if leader is None:
            a, b = (self.rounds_won[s] for s in SIDES)
            leader = None if a == b else (SIDES[0] if a > b else SIDES[1])
        if leader is None:
            self._outcome = Outcome(frozenset(), frozenset(), "rounds won are level", "PT-C6")
        else:
            self._outcome = Outcome(
                frozenset({leader}),
                frozenset({leader}),
                f"{leader} won {self.rounds_won[leader]} "
                + ("round" if self.rounds_won[leader] == 1 else "rounds"),
                "PT-C6",
            )
        emit(self.log, "match_over", winner=leader, rounds_won=dict(self.rounds_won))

    # ------------------------------------------------------------------ the arrival

    def _arrival(self) -> None:
        r = self.round
        emit(self.log, "round", round=r)
        if r > 1:
            self.phase = Phase.ARRIVAL
            for side in SIDES:
                cards = self.order_deck[side].take_all() + self.order_discard[side]
                self.order_discard[side] = []
                deck = Pile(sorted(cards, key=id_key), name=f"{side} orders")
                deck.shuffle(self._streams.stream("deck", "orders", side, r))
                self.order_deck[side] = deck
        self._arrival_deals(SIDES)

    def _arrival_deals(self, sides: tuple[str, ...]) -> None:
        """Each of ``sides`` in turn: its units, its orders and its income; then the
        loser's bonus and the next round's first turn. A side whose HQ holds units takes
        the arrival's units one at a time, from the deck or the HQ (PT-C2): the arrival
        waits for that decision and goes on from it (:meth:`_arrival_after_take`)."""
        for side in sides:
            if self.round > 1:
                # PT-C8 (ruling): the starting hand is round 1's arrival; later arrivals
                # deal units then orders up to the hand limit, and a card that would
                # exceed it stays in its deck.
                due = min(
                    int(self.setup["arrival_units"]),
                    max(0, int(self.setup["hand_limit"]) - len(self.hand[side])),
                )
                if due and self.hq(side):
                    # PT-C2 (Fact): units may be taken from the HQ in the arrival phase.
                    self.pending = Take(side, due, arrival=True)
                    return
                self._draw_units(side, due)
            self._arrival_rest(side)
        self._arrival_end()

    def _arrival_after_take(self, side: str) -> None:
        """``side`` has taken its arrival's units (PT-C2): its orders and income, then
        the sides after it."""
        self._arrival_rest(side)
        self._arrival_deals(SIDES[SIDES.index(side) + 1 :])

    def _arrival_rest(self, side: str) -> None:
        """The arrival's orders (PT-C8) and ``side``'s income from the Points it holds."""
        if self.round > 1:
            self._draw_orders(side, self.setup["arrival_orders"], burn=False)
        holders = self.holders()
        income = sum(p.income for p, h in zip(self.points, holders, strict=True) if h == side)
        if income:
            self.rd[side] += income
            emit(self.log, "income", side=side, rd=income)

    def _arrival_end(self) -> None:
        """The loser's bonus (PT-A1), the revealed operations back under the deck, and
        the round's first turn."""
        r = self.round
        loser = self.last_loser
        if loser is not None:
            self._arrival_bonus(loser)
        for _, o in self.just_revealed:
            self.ops_deck.put_bottom(o)
            self.ops_returned += 1
        self.just_revealed = []
        if r == 1:
            starter = SIDES[0]
        elif loser is not None:
            starter = loser
        else:
            starter = other(self.starter)
        self.starter = starter
        self._start_turn(starter)

    def _arrival_bonus(self, loser: str) -> None:
        """PT-A1: the loser's locals and operations cards, while they remain."""
        if self.locals_deck:
            c = self.locals_deck.draw()
            self.pieces[c].zone, self.pieces[c].holder = Zone.HAND, loser
            self.hand[loser].append(c)
            self._drew(loser, [c])
        op: str | None = None
        if self.ops_deck:
            op = self.ops_deck.draw()
            # A draw that reaches the cards put back in the open uses one up.
            self.ops_returned = min(self.ops_returned, len(self.ops_deck))
        else:
            # PT-O2: the winner's just revealed operation, when the deck is empty.
            mine = [o for s, o in self.just_revealed if s == other(loser)]
            if mine:
                op = mine[0]
                self.just_revealed.remove((other(loser), op))
                emit(self.log, "took_revealed", side=loser, operation=op)
        if op is not None:
            self.ops[loser].append(op)
            emit(self.log, "operation_dealt", to=[loser], side=loser, operation=op)
            emit(self.log, "operation_drawn", side=loser)
