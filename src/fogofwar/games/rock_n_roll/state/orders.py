"""Deployment and the order plays (PT-C2, PT-C3, PT-C5, PT-L1..PT-L3).

* ``deploy U X`` (PT-C2): in the deployment phase, a unit from hand onto an outermost
  Point, or at most one a phase from the HQ; a local from hand onto any Point (PT-L1).
* The orders, in the orders phase — or on the interrupt's offer (PT-D3) or the Current
  Act's card (PT-R3): ``attack U T`` (T at U's Point), ``ambush U T`` (T at U's Point
  too, with the card's extra dice), ``manoeuvre U X`` (to a neighbouring
  Point), ``reinforce U X`` (from hand onto a Point where the side has a unit),
  ``supply`` (the richest supply card's RD). Equal cards are spent lowest id first.
  Locals obey no order (PT-L2), except on Shi Ho's ground, where its side may make one
  local attack another there (PT-L3).
"""

from __future__ import annotations

from collections.abc import Collection

from ....core.game import emit
from ....core.rules import Refusal
from ..cards import PointCard
from .decisions import Forced, Interrupt, Kind, Phase, RollContext, RollKind
from .neutrals import Neutrals
from .pieces import Piece, Zone, id_key, other

__all__ = ["Orders"]

Target = tuple[Piece | None, Piece | None]
ToPoint = tuple[Piece | None, PointCard | None]
#: The decisions an order play answers (PT-D3, PT-R3).
_ANSWERED_BY_ORDERS = (Interrupt, Forced)
_ORDERS = Phase.ORDERS  # a module constant: the checks run for every option listed


class Orders(Neutrals):
    """Deploying units and playing orders."""

    # ------------------------------------------------------------------ deploy (PT-C2)

    def _deploy_options(self, s: str) -> list[tuple[Piece, PointCard]]:
        lo, hi = self.outer()
        out = []
        for c in self.hand[s]:
            if not self.cards.is_unit(c):
                continue
            where = range(len(self.points)) if self.cards.unit(c).is_local else (lo, hi)
            out += [(self.pieces[c], self.points[q]) for q in where]
        if self.hq_deploys == 0:
            for u in self.hq(s):
                if self.pieces[u].owner == s:
                    out += [(self.pieces[u], self.points[q]) for q in (lo, hi)]
        return out

    def _check_deploy(self, s: str, args: tuple[Piece | None, PointCard | None]) -> Refusal | None:
        """PT-C2: in the deployment phase a side deploys units from its hand onto either
        outermost Point, and at most one unit a phase from its HQ (ruling); PT-L1: a local
        from hand onto any Point."""
        pc, point = args
        if self.phase == Phase.DEPLOY and pc is not None and point is not None:
            outer = self.pos_of(point.letter) in self.outer()
            if pc.card.id in self.hand[s]:
                if outer or pc.card.is_local:
                    return None
            elif outer and self.in_hq(s, pc) and pc.owner == s and not self.hq_deploys:
                return None
        if pc is not None and pc.card.is_local:
            if self.phase != Phase.DEPLOY:
                return "locals are deployed in the deployment phase", "PT-L1"
            return "the local is not in this side's hand", "PT-L1"
        if pc is not None and pc.zone == Zone.HQ and self.hq_deploys:
            return "one unit a deployment phase may come from the HQ", "PT-C2"
        if pc is not None and (pc.zone not in (Zone.HAND, Zone.HQ) or pc.holder != s):
            return f"{pc.card.id} is not in {s}'s hand or HQ", "PT-C2"
        return "units are deployed onto the outermost Points, from hand or HQ", "PT-C2"

    def _deploy(self, s: str, args: tuple[Piece, PointCard]) -> None:
        pc, point = args
        pos = self.pos_of(point.letter)
        uid = pc.card.id
        from_hq = pc.zone == Zone.HQ
        if from_hq:
            self.hq_deploys += 1
        else:
            self.hand[s].remove(uid)
        self.chain_open = True
        emit(self.log, "deployed", side=s, unit=uid, point=point.letter, hq=from_hq)
        if pc.card.is_local:
            pc.owner, pc.holder = None, None  # neutral once deployed (PT-T4)
        pc.zone, pc.pos, pc.dead = Zone.POINT, pos, False
        self._enter(pc)

    # ------------------------------------------------------------------ which orders

    def _playable(self, s: str, kind: str) -> bool:
        """Whether ``s`` may play an order of ``kind`` now: the Current Act's card is of
        that kind (PT-R3), or else its hand holds one."""
        p = self.pending
        if isinstance(p, Forced):
            return self.cards.order(p.card).kind == kind
        return kind in map(self.cards.order_kinds.get, self.hand[s])

    def _mine(self, s: str, pc: Piece | None) -> bool:
        """Whether ``pc`` is a unit fighting for ``s`` on a Point."""
        return pc is not None and pc.zone == Zone.POINT and pc.owner == s

    def _has_order_play(self, s: str, kinds: Collection[str]) -> bool:
        """Whether ``s`` could play an order of one of ``kinds`` now: its hand's, on the
        interrupt's offer (PT-D3); the Current Act's card's (PT-R3)."""
        return (
            (Kind.ATTACK in kinds and any(self._attack_legal(s, *a) for a in self._attacks(s)))
            or (Kind.AMBUSH in kinds and any(self._ambush_legal(s, *a) for a in self._ambushes(s)))
            or (
                Kind.MANOEUVRE in kinds
                and any(self._manoeuvre_legal(s, *a) for a in self._manoeuvres(s))
            )
            or (
                Kind.REINFORCE in kinds
                and any(self._reinforce_legal(s, *a) for a in self._reinforcements(s))
            )
            or Kind.SUPPLY in kinds
        )

    # ------------------------------------------------------------------ the plays' rules

    def _attack_legal(self, s: str, a: Piece | None, t: Piece | None) -> bool:
        """PT-C5: an attack on an enemy unit or a local at the attacker's Point; PT-L3:
        on Shi Ho's ground, one local there attacks another."""
        if t is None or t.zone != Zone.POINT or a is None:
            return False
        if self._mine(s, a):
            return t.pos == a.pos and (t.owner == other(s) or t.owner is None)
        return (
            a.card.is_local
            and a.zone == Zone.POINT
            and t.card.is_local
            and t.pos == a.pos
            and t is not a
            and any(self._incites(s, pc, a.pos) for pc in self.pieces.values())
        )

    def _incites(self, s: str, pc: Piece, pos: int) -> bool:
        """Whether ``pc`` is ``s``'s unit at ``pos`` whose ground makes locals fight (PT-L3)."""
        if not (self._mine(s, pc) and pc.pos == pos):
            return False
        feat = self._feature(pc)
        return feat is not None and feat.incites_locals

    def _ambush_legal(self, s: str, a: Piece | None, t: Piece | None) -> bool:
        """PT-C5: an ambush on an enemy unit or a local at the same Point (an attack with
        the card's extra dice)."""
        return (
            self._mine(s, a)
            and t is not None
            and t.zone == Zone.POINT
            and a is not None
            and t.pos == a.pos
            and (t.owner == other(s) or t.owner is None)
        )

    def _manoeuvre_legal(self, s: str, a: Piece | None, point: PointCard | None) -> bool:
        """PT-C2: a unit manoeuvres to a neighbouring Point."""
        return (
            self._mine(s, a)
            and a is not None
            and point is not None
            and self.pos_of(point.letter) in self.neighbours(a.pos)
        )

    def _reinforce_legal(self, s: str, u: Piece | None, point: PointCard | None) -> bool:
        """PT-C3: a unit from hand onto a Point where the side has a unit (not a local)."""
        if u is None or point is None or u.card.is_local or u.card.id not in self.hand[s]:
            return False
        pos = self.pos_of(point.letter)
        return any(pc.pos == pos for pc in self.on_points(s))

    def _order_check(self, s: str, kind: Kind, first: Piece | None, legal: bool) -> Refusal | None:
        """An order play's refusal: on the interrupt's offer or the Current Act, the one
        decision awaited; on turn, PT-L2/PT-L3 for a local ordered, PT-C3 for a
        reinforcement not from the hand, the orders phase and the card in hand."""
        if isinstance(self.pending, _ANSWERED_BY_ORDERS):
            return None if legal and self._playable(s, kind) else self._waiting(kind)
        if legal and self.phase == _ORDERS and self._playable(s, kind):
            return None
        ordered = kind in (Kind.ATTACK, Kind.AMBUSH, Kind.MANOEUVRE)
        if ordered and first is not None and first.card.is_local:
            if kind == Kind.ATTACK and self.phase == Phase.ORDERS:
                return "locals attack each other only on a ground such as Shi Ho's", "PT-L3"
            return "locals do not obey order cards", "PT-L2"
        from_hand = first is None or (first.zone == Zone.HAND and first.holder == s)
        if kind == Kind.REINFORCE and not from_hand:
            return "a reinforcement comes from the hand", "PT-C3"
        if self.phase != Phase.ORDERS:
            return "orders are played in the orders phase", "PT-C3"
        if not self._hand_orders(s, kind):
            return f"no {kind} order in hand", "PT-C3"
        return self._not_now(s, kind)

    def _check_attack(self, s: str, args: Target) -> Refusal | None:
        return self._order_check(s, Kind.ATTACK, args[0], self._attack_legal(s, *args))

    def _check_ambush(self, s: str, args: Target) -> Refusal | None:
        return self._order_check(s, Kind.AMBUSH, args[0], self._ambush_legal(s, *args))

    def _check_manoeuvre(self, s: str, args: ToPoint) -> Refusal | None:
        return self._order_check(s, Kind.MANOEUVRE, args[0], self._manoeuvre_legal(s, *args))

    def _check_reinforce(self, s: str, args: ToPoint) -> Refusal | None:
        return self._order_check(s, Kind.REINFORCE, args[0], self._reinforce_legal(s, *args))

    def _check_supply(self, s: str, args: tuple[()]) -> Refusal | None:
        return self._order_check(s, Kind.SUPPLY, None, True)

    # ------------------------------------------------------------------ the plays' options

    def _attack_options(self, s: str) -> list[tuple[Piece, Piece]]:
        return self._attacks(s) if self._playable(s, Kind.ATTACK) else []

    def _ambush_options(self, s: str) -> list[tuple[Piece, Piece]]:
        return self._ambushes(s) if self._playable(s, Kind.AMBUSH) else []

    def _manoeuvre_options(self, s: str) -> list[tuple[Piece, PointCard]]:
        return self._manoeuvres(s) if self._playable(s, Kind.MANOEUVRE) else []

    def _reinforce_options(self, s: str) -> list[tuple[Piece, PointCard]]:
        return self._reinforcements(s) if self._playable(s, Kind.REINFORCE) else []

    def _supply_options(self, s: str) -> list[tuple[()]]:
        return [()] if self._playable(s, Kind.SUPPLY) else []

    def _attacks(self, s: str) -> list[tuple[Piece, Piece]]:
        """The attacks' candidates, whatever the cards (in the legal list's order)."""
        mine = self.on_points(s)
        out = [
            (a, t) for a in mine for t in self.at(a.pos) if t.owner == other(s) or t.owner is None
        ]
        # PT-L3: a ground such as Shi Ho's feature lets locals be ordered to attack each
        # other, at the inciting unit's Point (two such units there offer them once).
        done: set[int] = set()
        for a in mine:
            feat = self._feature(a)
            if feat is None or not feat.incites_locals or a.pos in done:
                continue
            done.add(a.pos)
            here = [t for t in self.at(a.pos) if t.card.is_local]
            out += [(x, y) for x in here for y in here if x is not y]
        return out

    def _ambushes(self, s: str) -> list[tuple[Piece, Piece]]:
        return [
            (a, t)
            for a in self.on_points(s)
            for t in self.at(a.pos)
            if t.owner == other(s) or t.owner is None
        ]

    def _manoeuvres(self, s: str) -> list[tuple[Piece, PointCard]]:
        return [(a, self.points[q]) for a in self.on_points(s) for q in self.neighbours(a.pos)]

    def _reinforcements(self, s: str) -> list[tuple[Piece, PointCard]]:
        held = sorted({p.pos for p in self.on_points(s)})
        return [
            (self.pieces[c], self.points[q])
            for c in self.hand[s]
            if self.cards.is_unit(c) and not self.cards.unit(c).is_local
            for q in held
        ]

    # ------------------------------------------------------------------ the plays' effects

    def _order_played(self, s: str, kind: Kind, wire: list[str]) -> str:
        """Spend the order card (the Current Act's, or the best of its kind in hand) and
        say so; the interrupt's or the Current Act's decision is answered."""
        if isinstance(self.pending, _ANSWERED_BY_ORDERS):
            self.pending = None
        if self.forced is not None:
            card = self.forced
        else:
            cards = self._hand_orders(s, kind)
            # Equal cards: the lowest id; supply cards: the richest first.
            card = max(cards, key=lambda c: (self.cards.order(c).value, -id_key(c)[1]))
            self.hand[s].remove(card)
        self.order_discard[s].append(card)
        self.chain_open = True
        emit(self.log, "order", side=s, card=card, order=str(kind), args=wire)
        return card

    def _supply(self, s: str, args: tuple[()]) -> None:
        card = self._order_played(s, Kind.SUPPLY, [])
        gain = self.cards.order(card).value
        self.rd[s] += gain
        emit(self.log, "rd_gained", side=s, rd=gain)
        self._chain_done()

    def _manoeuvre(self, s: str, args: tuple[Piece, PointCard]) -> None:
        pc, point = args
        self._order_played(s, Kind.MANOEUVRE, [pc.card.id, point.letter])
        pc.pos = self.pos_of(point.letter)
        self._enter(pc)

    def _reinforce(self, s: str, args: tuple[Piece, PointCard]) -> None:
        pc, point = args
        self._order_played(s, Kind.REINFORCE, [pc.card.id, point.letter])
        self.hand[s].remove(pc.card.id)
        pc.zone, pc.pos = Zone.POINT, self.pos_of(point.letter)
        self._enter(pc)

    def _attack(self, s: str, args: tuple[Piece, Piece]) -> None:
        self._strike_order(s, Kind.ATTACK, *args)

    def _ambush(self, s: str, args: tuple[Piece, Piece]) -> None:
        self._strike_order(s, Kind.AMBUSH, *args)

    def _strike_order(self, s: str, kind: Kind, attacker: Piece, target: Piece) -> None:
        card = self._order_played(s, kind, [attacker.card.id, target.card.id])
        if attacker.card.is_local:
            # Locals use no RD and no rerolls (PT-L9); they ignore each other (PT-L4).
            self._strike(attacker, target, len_dice=attacker.card.strength, why="incited")
            self._chain_done()
            return
        feat = self._feature(attacker)
        bonus = (feat.attack_bonus if feat is not None else 0) + (
            self.cards.order(card).value if kind == Kind.AMBUSH else 0
        )
        self.roll = RollContext(
            RollKind.ATTACK,
            s,
            target.card.id,
            attacker.card.strength + bonus,
            attacker=attacker.card.id,
        )
        self._ask_pour(s)
