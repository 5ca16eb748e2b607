"""The true state of a Rock-n-Roll match: the stand-in core (PT-C*) and the seed's rules.

A match is rounds of: arrival (PT-C8, PT-A1) → alternating turns, each a deployment
phase then an orders phase (PT-C3) → the end of the round when the side on turn finds
its order deck empty, in the order of PT-C3. Multi-step actions are steps of the same
seat (docs/protocol.md, "Seats and turns"): an attack is declared, then RD dice are poured
(``pour N``), the dice rolled, and a ROCK'N'ROLL offered (``rnr`` / ``keep``); a capture
or a goal change is declared, then paid (``pay CARD`` / ``pay rd``). Decisions that
belong to a player (the prisoner to free, each interaction, the order of the locals'
attacks, a drifter's disputed move) are actions of that seat.

Chance: every roll is drawn from a keyed stream ``("roll", side, n)`` (the side's n-th
roll; ``("roll", "locals", n)`` for locals), and decks are shuffled from keys per deck,
side and round, so hidden draws never shift a public roll.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from ...core.cards import Pile
from ...core.game import Action, Config, Event, Outcome, Ruleset, State
from ...core.rng import Streams
from .cards import SIDES, CardSet, UnitCard
from .features import FEATURES, condition_met
from .odds import capture_result, interaction_result, is_hit

__all__ = ["SIDES", "Piece", "RockNRollState", "other"]

ORDER_ACTIONS: Final = ("attack", "ambush", "manoeuvre", "reinforce", "supply")
CAPTURE_RD: Final = 2  # PT-R1
GOAL_RD: Final = 4  # PT-R1
ACT_RD: Final = 4  # PT-R1
DEAL_CARDS: Final = 2  # PT-D1: "take 2 cards"
SWAP_RD: Final = 1  # PT-R2
FATES: Final = ("tortured", "executed", "recruited", "backfired", "freed")
#: The rule each action kind belongs to, for illegal-action reasons.
RULE_OF: Final[dict[str, str]] = {
    "deploy": "PT-C2",
    "attack": "PT-C5",
    "ambush": "PT-C5",
    "manoeuvre": "PT-C2",
    "reinforce": "PT-C3",
    "supply": "PT-C8",
    "capture": "PT-P1",
    "goal": "PT-G1",
    "act": "PT-R3",
    "swap": "PT-R2",
    "rnr": "PT-R4",
    "keep": "PT-R4",
    "pour": "PT-C4",
    "pay": "PT-R1",
    "deal": "PT-D1",
    "take": "PT-D1",
    "pass": "PT-D3",
    "reveal": "PT-O1",
    "free": "PT-P7",
    "torture": "PT-P6",
    "execute": "PT-P6",
    "recruit": "PT-P6",
    "spare": "PT-P6",
    "first": "PT-L11",
    "withdraw": "PT-L11",
    "orders": "PT-C3",
    "end": "PT-C3",
}


def other(side: str) -> str:
    """The opposing side."""
    return SIDES[1] if side == SIDES[0] else SIDES[0]


@dataclass(slots=True)
class Piece:
    """Where one unit or local card is and what it fights for.

    Attributes:
        card: the card.
        owner: the side it fights for (a recruited unit: its captor, PT-P6); ``None``
            for a neutral local (PT-T4).
        zone: ``deck``, ``hand``, ``point``, ``hq``, ``prison``, ``gone`` (executed),
            or ``discard`` (a dead local, PT-L5).
        holder: the side whose deck, hand, HQ or prison holds it.
        pos: its position in the row when on a Point.
        hits: hits taken this round (PT-C5).
        dead: in its HQ because it died (Devil's hand option 2).
    """

    card: UnitCard
    owner: str | None
    zone: str
    holder: str | None
    pos: int = -1
    hits: int = 0
    dead: bool = False


@dataclass(slots=True)
class Pending:
    """A decision awaited from one seat."""

    kind: str
    seat: str
    data: dict[str, Any] = field(default_factory=dict)


class RockNRollState(State):
    """One Rock-n-Roll match (seats ``vietnam`` and ``vpa``)."""

    def __init__(self, ruleset: Ruleset, config: Config, cards: CardSet, seed: int | str) -> None:
        self.ruleset = ruleset
        self.config = config
        self.cards = cards
        self._streams = Streams(seed)
        setup = cards.setup
        self.setup = dict(setup)
        self.points = list(cards.points)
        self.pieces: dict[str, Piece] = {}
        self.unit_deck: dict[str, Pile[str]] = {}
        self.order_deck: dict[str, Pile[str]] = {}
        self.order_discard: dict[str, list[str]] = {s: [] for s in SIDES}
        # PT-P11: how often each side's order deck was re-formed from its discard pile
        # (a key of the shuffle's stream).
        self.reforms = dict.fromkeys(SIDES, 0)
        self.hand: dict[str, list[str]] = {s: [] for s in SIDES}
        self.ops: dict[str, list[str]] = {s: [] for s in SIDES}
        for side in SIDES:
            ids = [u.id for u in cards.units if u.side == side]
            for u in cards.units:
                if u.side == side:
                    self.pieces[u.id] = Piece(u, side, "deck", side)
            self.unit_deck[side] = Pile(ids, name=f"{side} units")
            self.unit_deck[side].shuffle(self._streams.stream("deck", "units", side))
            orders = [o.id for o in cards.orders if o.side == side]
            self.order_deck[side] = Pile(orders, name=f"{side} orders")
            self.order_deck[side].shuffle(self._streams.stream("deck", "orders", side, 1))
        for loc in cards.locals:
            self.pieces[loc.id] = Piece(loc, None, "deck", None)
        self.locals_deck: Pile[str] = Pile([c.id for c in cards.locals], name="locals")
        self.locals_deck.shuffle(self._streams.stream("deck", "locals"))
        self.locals_discard: list[str] = []
        self.ops_deck: Pile[str] = Pile([c.id for c in cards.operations], name="operations")
        self.ops_deck.shuffle(self._streams.stream("deck", "operations"))
        self.just_revealed: list[tuple[str, str]] = []
        self.rd = dict.fromkeys(SIDES, int(setup["start_rd"]))
        self.rounds_won = dict.fromkeys(SIDES, 0)
        self.round = 1
        self.turn = SIDES[0]
        self.starter = SIDES[0]
        self.phase = "deploy"
        self.hq_deploys = 0
        self.dealt = dict.fromkeys(SIDES, False)
        self.rnr_round = dict.fromkeys(SIDES, 0)
        # PT-P9: the rounds in which each side's 2s are effective. A set, not one round:
        # an execution at the end of round r must not cancel the 2s still due in r.
        self.twos_rounds: dict[str, set[int]] = {s: set() for s in SIDES}
        self.rolls = {**dict.fromkeys(SIDES, 0), "locals": 0}
        self.round_stats = {s: {"kills": 0, "captures": 0} for s in SIDES}
        self.stats: dict[str, dict[str, int]] = {
            s: {
                "kills": 0,
                "losses": 0,
                "captures": 0,
                "deals": 0,
                "rnr": 0,
                **dict.fromkeys(FATES, 0),
            }
            for s in SIDES
        }
        self.pending: Pending | None = None
        self.roll_ctx: dict[str, Any] = {}
        self.chain_open = False
        self.interrupting: str | None = None
        self.window_passed = False
        # The side that declined its interrupt for the rest of the opponent's turn
        # (``pass turn``): a convenience, the offer of PT-D3 taken as refused in advance.
        self.declined: str | None = None
        self.forced: str | None = None
        self.named: str | None = None
        self.interact_queue: list[tuple[str, str]] = []
        self.entry: dict[str, Any] = {}
        self.results: list[dict[str, Any]] = []
        self.last_loser: str | None = None
        self._outcome: Outcome | None = None
        self.log: list[Event] = []
        self.last_roll: dict[str, Any] | None = None
        self.actions_taken = 0
        for side in SIDES:
            # PT-C8: the starting hand (within the hand limit: the card files check it).
            self._draw_units(side, int(setup["start_units"]), limit=False)
            self._draw_orders(side, int(setup["start_orders"]), burn=False, limit=False)
        self._arrival()

    # ------------------------------------------------------------------ queries

    @property
    def streams(self) -> Streams:
        """The game's keyed streams (the umpire's secret)."""
        return self._streams

    def letter(self, pos: int) -> str:
        """The letter of the Point now at position ``pos``."""
        return self.points[pos].letter

    def pos_of(self, letter: str) -> int:
        """The position of the Point with this letter."""
        for i, p in enumerate(self.points):
            if p.letter == letter:
                return i
        raise KeyError(letter)

    def at(self, pos: int) -> list[Piece]:
        """The pieces on the Point at ``pos``, by id."""
        return sorted(
            (p for p in self.pieces.values() if p.zone == "point" and p.pos == pos),
            key=lambda p: _id_key(p.card.id),
        )

    def count(self, pos: int, side: str) -> int:
        """The units fighting for ``side`` at ``pos`` (locals never count, PT-L2)."""
        # Counted without the sorted listing of ``at``: this runs for every Point on
        # every legal-action listing (holding, superiority), the hot path of play.
        return sum(
            1
            for p in self.pieces.values()
            if p.zone == "point" and p.pos == pos and p.owner == side
        )

    def held_by(self, pos: int) -> str | None:
        """The side holding the Point at ``pos``: more units there (PT-C6)."""
        a, b = (self.count(pos, s) for s in SIDES)
        if a == b:
            return None
        return SIDES[0] if a > b else SIDES[1]

    def held_value(self, side: str) -> int:
        """The total victory value of the Points ``side`` holds."""
        return sum(p.value for i, p in enumerate(self.points) if self.held_by(i) == side)

    def held_count(self, side: str) -> int:
        """How many Points ``side`` holds."""
        return sum(1 for i in range(len(self.points)) if self.held_by(i) == side)

    def neighbours(self, pos: int) -> list[int]:
        """The positions next to ``pos`` in the row."""
        return [q for q in (pos - 1, pos + 1) if 0 <= q < len(self.points)]

    def outer(self) -> tuple[int, int]:
        """The two outermost positions, where units are deployed (PT-C2)."""
        return (0, len(self.points) - 1)

    def twos(self, side: str | None) -> bool:
        """Whether ``side``'s 2s are effective this round (PT-P6, PT-P9)."""
        return side is not None and self.round in self.twos_rounds[side]

    def prisoners(self, captor: str) -> list[str]:
        """The ids of the prisoners ``captor`` holds, sorted."""
        return sorted(
            (p.card.id for p in self.pieces.values() if p.zone == "prison" and p.holder == captor),
            key=_id_key,
        )

    def hq(self, side: str) -> list[str]:
        """The ids of the units in ``side``'s HQ, sorted."""
        return sorted(
            (p.card.id for p in self.pieces.values() if p.zone == "hq" and p.holder == side),
            key=_id_key,
        )

    def rnr_available(self, side: str) -> bool:
        """ROCK'N'ROLL: once per round (PT-R4), never after a deal (PT-D2)."""
        return not self.dealt[side] and self.rnr_round[side] != self.round

    def rd_dice_allowed(self, side: str) -> bool:
        """Whether ``side`` may pour RD into rolls (PT-C4; PT-D2's switch)."""
        return not (self.dealt[side] and bool(self.config["devils_hand_blocks_rd"]))

    def figures(self, side: str) -> dict[str, int]:
        """What operation conditions count for ``side`` (see features.CONDITIONS)."""
        return {
            "kills": self.round_stats[side]["kills"],
            "captures": self.round_stats[side]["captures"],
            "hold": self.held_count(side),
            "value": self.held_value(side),
        }

    def completed_ops(self, side: str) -> list[str]:
        """The operations ``side`` holds whose conditions are met now (PT-O1)."""
        out = []
        for op_id in self.ops[side]:
            op = self.cards.operation(op_id)
            if condition_met(op.condition, op.amount, self.figures(side)):
                out.append(op_id)
        return out

    def _hand_orders(self, side: str, kind: str) -> list[str]:
        return [
            c
            for c in self.hand[side]
            if self.cards.is_order(c) and self.cards.order(c).kind == kind
        ]

    def _feature(self, piece: Piece) -> Any:
        return FEATURES.get(piece.card.feature or "")

    # ------------------------------------------------------------------ protocol

    def to_act(self) -> frozenset[str]:
        if self._outcome is not None:
            return frozenset()
        if self.pending is not None:
            return frozenset({self.pending.seat})
        # PT-D3: before each of its opponent's actions the side not on turn answers the
        # offer of its interrupt first (deal interrupt, pass, or pass turn); then the
        # side on turn acts. One seat at a time, so a table (or a batch) asks the off-turn
        # side before every action of either side alike.
        if self._window_open():
            return frozenset({other(self.turn)})
        return frozenset({self.turn})

    def _window_open(self) -> bool:
        return (
            self.pending is None
            and not self.chain_open
            and not self.dealt[other(self.turn)]
            and not self.window_passed
            and self.declined != other(self.turn)
        )

    def outcome(self) -> Outcome | None:
        return self._outcome

    def legal_actions(self, seat: str) -> Sequence[Action]:
        if seat not in self.to_act():
            return []
        p = self.pending
        if p is not None:
            return self._pending_actions(p)
        if seat != self.turn:
            acts = [Action(seat, "pass"), Action(seat, "pass", ("turn",))]
            if self._order_actions(seat):
                acts.insert(0, Action(seat, "deal", ("interrupt",)))
            return acts
        return self._turn_actions(seat)

    def _pending_actions(self, p: Pending) -> list[Action]:
        s = p.seat
        k = p.kind
        if k == "interrupt":
            return self._order_actions(s)
        if k == "forced":
            card = self.cards.order(p.data["card"])
            return [a for a in self._order_actions(s, forced=card.kind)]
        if k == "pour":
            top = min(self.rd[s], int(self.config["max_rd_per_roll"]))
            return [Action(s, "pour", (n,)) for n in range(top + 1)]
        if k == "rnr":
            return [Action(s, "rnr"), Action(s, "keep")]
        if k == "pay":
            return self._pay_actions(p)
        if k == "take":
            acts = [Action(s, "take", ("deck",))] if self.unit_deck[s] else []
            return acts + [Action(s, "take", (u,)) for u in self.hq(s)]
        if k == "first":
            return [Action(s, "first", (c,)) for c in p.data["candidates"]]
        if k == "withdraw":
            return [Action(s, "withdraw", (self.letter(q),)) for q in p.data["options"]]
        if k == "name":
            return [Action(s, "free", (u,)) for u in p.data["candidates"]]
        if k == "interact":
            u = p.data["unit"]
            return [Action(s, kind, (u,)) for kind in ("torture", "execute", "recruit", "spare")]
        raise RuntimeError(f"unknown pending {k}")  # pragma: no cover

    def _pay_actions(self, p: Pending) -> list[Action]:
        s = p.seat
        acts: list[Action] = []
        paid = p.data["paid"]
        if p.data["purpose"] == "capture":
            if self.rd[s] >= CAPTURE_RD:
                acts.append(Action(s, "pay", ("rd",)))
            acts += [Action(s, "pay", (c,)) for c in self.hand[s]]
            # A unit from a Point may pay, if the capture keeps its superiority (PT-P1).
            target = self.pieces[p.data["target"]]
            for pc in self.pieces.values():
                if pc.zone == "point" and pc.owner == s:
                    if pc.pos == target.pos and self.count(pc.pos, s) - 1 <= self.count(
                        pc.pos, other(s)
                    ):
                        continue
                    acts.append(Action(s, "pay", (pc.card.id,)))
        else:
            if not paid and self.rd[s] >= GOAL_RD:
                acts.append(Action(s, "pay", ("rd",)))
            if paid or len(self.hand[s]) >= 2:
                acts += [Action(s, "pay", (c,)) for c in self.hand[s]]
        return sorted(acts, key=lambda a: (a.args[0] != "rd", _id_key(str(a.args[0]))))

    def _turn_actions(self, s: str) -> list[Action]:
        acts: list[Action] = []
        if self.phase == "deploy":
            lo, hi = self.outer()
            for c in self.hand[s]:
                if not self.cards.is_unit(c):
                    continue
                card = self.cards.unit(c)
                where = range(len(self.points)) if card.is_local else (lo, hi)
                acts += [Action(s, "deploy", (c, self.letter(q))) for q in where]
            if self.hq_deploys == 0:
                for u in self.hq(s):
                    if self.pieces[u].owner == s:
                        acts += [Action(s, "deploy", (u, self.letter(q))) for q in (lo, hi)]
            if not self.dealt[s]:
                # PT-D1: two units from the deck or the HQ; offered only when both can
                # be had (ruling), so the deal never gives less than it says.
                if len(self.unit_deck[s]) + len(self.hq(s)) >= DEAL_CARDS:
                    acts.append(Action(s, "deal", ("take",)))
                for u in self.hq(s):
                    pc = self.pieces[u]
                    if pc.dead and pc.owner == s:
                        acts.append(Action(s, "deal", ("return", u)))
        else:
            acts += self._order_actions(s)
            for pos in range(len(self.points)):
                if self.count(pos, s) <= self.count(pos, other(s)):
                    continue
                for pc in self.at(pos):
                    if pc.owner == other(s) and self._can_pay_capture(s, pc):
                        acts.append(Action(s, "capture", (pc.card.id,)))
            if len(self.hand[s]) >= 2 or self.rd[s] >= GOAL_RD:
                letters = sorted(p.letter for p in self.points)
                for i, a in enumerate(letters):
                    for b in letters[i + 1 :]:
                        acts.append(Action(s, "goal", (a, b)))
            if self.rd[s] >= ACT_RD and self.order_deck[s]:
                acts.append(Action(s, "act"))
            if not self.dealt[s] and self._orders_left(s) >= DEAL_CARDS:
                # PT-D1: two orders, drawn as PT-P11 draws (the discard re-forms an empty
                # deck); offered only when both can be had (ruling).
                acts.append(Action(s, "deal", ("take",)))
        if self.rd[s] >= SWAP_RD:
            for c in self.hand[s]:
                unit = self.cards.is_unit(c) and not self.cards.unit(c).is_local
                if (self.cards.is_order(c) and self.order_deck[s]) or (unit and self.unit_deck[s]):
                    acts.append(Action(s, "swap", (c,)))
        acts += [Action(s, "reveal", (o,)) for o in self.completed_ops(s)]
        if self.phase == "deploy":
            acts.append(Action(s, "orders"))
        acts.append(Action(s, "end"))
        return acts

    def _can_pay_capture(self, s: str, target: Piece) -> bool:
        if self.rd[s] >= CAPTURE_RD or self.hand[s]:
            return True
        p = Pending("pay", s, {"purpose": "capture", "target": target.card.id, "paid": []})
        return bool(self._pay_actions(p))

    def _order_actions(self, s: str, forced: str | None = None) -> list[Action]:
        """The order plays open to ``s`` (orders in hand, or the one forced card)."""
        if forced is not None:
            kinds = {forced}
        else:
            kinds = {self.cards.order(c).kind for c in self.hand[s] if self.cards.is_order(c)}
        acts: list[Action] = []
        mine = [p for p in self.pieces.values() if p.zone == "point" and p.owner == s]
        mine.sort(key=lambda p: _id_key(p.card.id))
        for kind in ("attack", "ambush"):
            if kind not in kinds:
                continue
            for a in mine:
                reach = [a.pos] if kind == "attack" else [a.pos, *self.neighbours(a.pos)]
                for q in sorted(reach):
                    for t in self.at(q):
                        if t.owner == other(s) or t.owner is None:
                            acts.append(Action(s, kind, (a.card.id, t.card.id)))
            if kind == "attack":
                # PT-L3: a ground such as Shi Ho's feature lets locals be ordered to attack
                # each other, at the inciting unit's Point.
                for a in mine:
                    feat = self._feature(a)
                    if feat is None or not feat.incites_locals:
                        continue
                    locals_here = [t for t in self.at(a.pos) if t.card.is_local]
                    for x in locals_here:
                        for y in locals_here:
                            if x is not y:
                                acts.append(Action(s, "attack", (x.card.id, y.card.id)))
        if "manoeuvre" in kinds:
            for a in mine:
                acts += [
                    Action(s, "manoeuvre", (a.card.id, self.letter(q)))
                    for q in self.neighbours(a.pos)
                ]
        if "reinforce" in kinds:
            held = sorted({p.pos for p in mine})
            for c in self.hand[s]:
                if self.cards.is_unit(c) and not self.cards.unit(c).is_local:
                    acts += [Action(s, "reinforce", (c, self.letter(q))) for q in held]
        if "supply" in kinds:
            acts.append(Action(s, "supply"))
        return list(dict.fromkeys(acts))

    # ------------------------------------------------------------------ illegal actions

    def explain_illegal(self, action: Action) -> tuple[str, str | None]:
        if self.is_over:
            return super().explain_illegal(action)
        if action.seat not in self.to_act():
            return self._explain_not_to_act(action)
        rule = RULE_OF.get(action.kind)
        s, k, args = action.seat, action.kind, action.args
        target = self.pieces.get(str(args[-1])) if args else None
        first = self.pieces.get(str(args[0])) if args else None
        if self.pending is not None and self.pending.kind != k:
            want = sorted({a.kind for a in self.legal_actions(s)})
            return f"waiting for {self.pending.kind} ({', '.join(want)})", rule
        if k == "pay" and self.pending is not None:
            if self.pending.data.get("purpose") == "capture":
                return "pay with 2 RD (pay rd) or one card from hand or a Point", "PT-P2"
            if args == ("rd",):
                return f"a goal change by RD costs {GOAL_RD} RD (held: {self.rd[s]})", "PT-G1"
            return "a goal change costs two cards from hand, one pay each, or pay rd", "PT-G1"
        if self.pending is None and s != self.turn:
            return "off turn a side may only interrupt with its Devil's hand, or pass", "PT-D3"
        if k == "capture" and target is not None:
            if target.card.is_local:
                return "locals cannot be captured", "PT-P5"
            if self.phase != "orders":
                return "a capture is made in the orders phase", "PT-P2"
            if target.zone == "point" and self.count(target.pos, s) <= self.count(
                target.pos, other(s)
            ):
                return "a capture needs more own units than enemy units at the Point", "PT-P1"
            return "no card or 2 RD to pay for the capture", "PT-P2"
        if k in ("attack", "ambush", "manoeuvre") and first is not None and first.card.is_local:
            if k == "attack" and self.phase == "orders":
                return "locals attack each other only on a ground such as Shi Ho's", "PT-L3"
            return "locals do not obey order cards", "PT-L2"
        if k == "reinforce" and first is not None and (first.zone != "hand" or first.holder != s):
            return "a reinforcement comes from the hand", "PT-C3"
        if k in ORDER_ACTIONS and self.phase != "orders" and self.pending is None:
            return "orders are played in the orders phase", "PT-C3"
        if k in ORDER_ACTIONS and not self._hand_orders(s, k):
            return f"no {k} order in hand", "PT-C3"
        if k == "capture" and self.rd[s] < CAPTURE_RD:
            return "a capture costs a card or 2 RD", "PT-R1"
        if k == "act":
            return "Current Act costs 4 RD and needs an order deck", "PT-R1"
        if k == "goal":
            return "a goal change costs 2 cards from hand or 4 RD", "PT-G1"
        if k == "rnr":
            if self.dealt[s]:
                return "no rerolls after the Devil's hand", "PT-D2"
            return "ROCK'N'ROLL is once per round, after a roll", "PT-R4"
        if k == "pour":
            if not self.rd_dice_allowed(s):
                return "no RD dice after the Devil's hand (devils_hand_blocks_rd)", "PT-D2"
            return "RD dice: at most the RD held and max_rd_per_roll", "PT-C4"
        if k == "deal":
            if self.dealt[s]:
                return "the Devil's hand is struck once per match", "PT-D1"
            if args and args[0] == "return":
                return "only a dead unit, in the deployment phase", "PT-D1"
            if args == ("take",) and s == self.turn:
                where = "unit deck and HQ" if self.phase == "deploy" else "order deck and discard"
                return f"the deal takes 2 cards: the {where} must hold two", "PT-D1"
            return "not available now", "PT-D3" if s != self.turn else "PT-D1"
        if k == "deploy":
            if first is not None and first.card.is_local:
                if self.phase != "deploy":
                    return "locals are deployed in the deployment phase", "PT-L1"
                return "the local is not in this side's hand", "PT-L1"
            if first is not None and first.zone == "hq" and self.hq_deploys:
                return "one unit a deployment phase may come from the HQ", "PT-C2"
            if first is not None and (first.zone not in ("hand", "hq") or first.holder != s):
                return f"{first.card.id} is not in {s}'s hand or HQ", "PT-C2"
            return "units are deployed onto the outermost Points, from hand or HQ", "PT-C2"
        if k == "free":
            return "name one of your own units held prisoner", "PT-P7"
        if k == "swap":
            return "a swap costs the card and 1 RD, with a deck to draw from", "PT-R2"
        if k == "reveal":
            return "the operation's conditions are not met", "PT-O1"
        reason, _ = super().explain_illegal(action)
        return reason, rule

    def _explain_not_to_act(self, action: Action) -> tuple[str, str | None]:
        """A seat that may not act now: the turn rule that says whose move it is."""
        reason, _ = super().explain_illegal(action)
        if action.kind not in RULE_OF:
            return reason, None  # not an action of this game at all
        s = action.seat
        if self.phase == "end":
            # PT-C3: the end of the round's decisions belong to the winner and the captors.
            return f"{reason}: the end of the round's decisions are the other side's", "PT-C3"
        if s != self.turn:
            # PT-D3: off turn, a side acts only on its interrupt's offer.
            return f"{reason}: off turn a side acts only when offered its interrupt", "PT-D3"
        if self.interrupting is not None:
            return f"{reason}: the opponent is playing its interrupt", "PT-D3"
        if self._window_open():
            return (
                f"{reason}: the opponent answers the offer of its interrupt first "
                "(deal interrupt, pass or pass turn)",
                "PT-D3",
            )
        return f"{reason}: the other side's decision comes first", "PT-C3"

    # ------------------------------------------------------------------ apply

    def apply_unchecked(self, action: Action) -> list[Event]:
        start = len(self.log)
        self.actions_taken += 1
        s, k = action.seat, action.kind
        p = self.pending
        if p is not None:
            self.pending = None
            self._resolve_pending(p, action)
        elif s != self.turn:
            if k == "pass":
                self.window_passed = True
                if action.args == ("turn",):
                    self.declined = s
            else:  # deal interrupt
                self._deal(s, "interrupt")
                self.interrupting = s
                self.pending = Pending("interrupt", s)
        else:
            self.window_passed = False
            self._turn_action(action)
        return self.log[start:]

    def _emit(self, kind: str, to: str | None = None, **data: Any) -> None:
        self.log.append(Event(kind, data, None if to is None else frozenset({to})))

    def _turn_action(self, action: Action) -> None:
        s, k, args = action.seat, action.kind, action.args
        if k == "end":
            self._emit("turn_ended", side=s)
            self._next_turn()
        elif k == "orders":
            self.phase = "orders"
            self._emit("phase", side=s, phase="orders")
        elif k == "deploy":
            self._deploy(s, str(args[0]), self.pos_of(str(args[1])))
        elif k == "swap":
            self._swap(s, str(args[0]))
        elif k == "reveal":
            self._reveal(s, str(args[0]), end_of_round=False)
        elif k == "deal":
            self._deal(s, str(args[0]), str(args[1]) if len(args) > 1 else None)
        elif k == "capture":
            self.chain_open = True
            self.pending = Pending(
                "pay", s, {"purpose": "capture", "target": str(args[0]), "paid": []}
            )
            self._emit("capture_declared", side=s, target=str(args[0]))
        elif k == "goal":
            self.chain_open = True
            pts = [str(args[0]), str(args[1])]
            self.pending = Pending("pay", s, {"purpose": "goal", "points": pts, "paid": []})
            self._emit("goal_declared", side=s, points=pts)
        elif k == "act":
            self._act(s)
        else:
            self._play_order(action)

    def _resolve_pending(self, p: Pending, action: Action) -> None:
        s, k, args = action.seat, action.kind, action.args
        if p.kind in ("interrupt", "forced"):
            self._play_order(action)
        elif k == "pour":
            self._roll(int(args[0]))
        elif k in ("rnr", "keep"):
            if k == "rnr":
                self.rnr_round[s] = self.round
                self.stats[s]["rnr"] += 1
                self._emit("rock_n_roll", side=s)
                self._roll(int(self.roll_ctx["extra"]), reroll=True)
            else:
                self._finish_roll()
        elif k == "pay":
            self._pay(p, str(args[0]))
        elif k == "take":
            self._take(p, str(args[0]))
        elif k == "first":
            self._entry_next(first=str(args[0]))
        elif k == "withdraw":
            local = self.pieces[p.data["local"]]
            local.pos = self.pos_of(str(args[0]))
            self._emit("withdrew", local=local.card.id, point=str(args[0]))
            self._chain_done()
        elif k == "free":
            self.named = str(args[0])
            self._emit("named", side=s, prisoner=self.named)
            self._next_interaction()
        elif k in ("torture", "execute", "recruit", "spare"):
            self._interact(s, k, str(args[0]))

    # ------------------------------------------------------------------ cards

    def _draw_units(self, side: str, n: int, *, limit: bool = True) -> list[str]:
        got = []
        for _ in range(n):
            if not self.unit_deck[side]:
                break
            if limit and len(self.hand[side]) >= self.setup["hand_limit"]:
                break
            c = self.unit_deck[side].draw()
            self.hand[side].append(c)
            self.pieces[c].zone = "hand"
            got.append(c)
        self._drew(side, got)
        return got

    def _draw_orders(self, side: str, n: int, *, burn: bool, limit: bool = True) -> list[str]:
        got, burned = [], []
        for _ in range(n):
            if not self.order_deck[side]:
                break
            c = self.order_deck[side].draw()
            if limit and len(self.hand[side]) >= self.setup["hand_limit"]:
                if burn:
                    self.order_discard[side].append(c)
                    burned.append(c)
                    continue
                self.order_deck[side].put(c)
                break
            self.hand[side].append(c)
            got.append(c)
        self._drew(side, got)
        if burned:
            # Over the hand limit the turn's draw is discarded face up, so the round's
            # clock (the order deck) still runs down.
            self._emit("burned", side=side, cards=burned)
        return got

    def _orders_left(self, side: str) -> int:
        """The orders ``side`` could still draw: its deck and its discard pile (PT-P11)."""
        return len(self.order_deck[side]) + len(self.order_discard[side])

    def _reward_orders(self, side: str, n: int, *, cause: str) -> list[str]:
        """Draw ``n`` orders the rules give ``side`` (torture and its backfire, PT-P6; an
        operation's reward, PT-O1; the Devil's hand, PT-D1), the way PT-P11 says: from
        its order deck; an empty deck is first re-formed from its discard pile, shuffled
        (a keyed stream); only when deck and discard are both empty is nothing drawn,
        and the ``nothing_drawn`` event says so. The hand limit (PT-C8) never cancels
        such a draw."""
        got: list[str] = []
        for _ in range(n):
            if not self.order_deck[side] and not self._reform_orders(side):
                self._emit(
                    "nothing_drawn",
                    side=side,
                    cards="orders",
                    missing=n - len(got),
                    cause=cause,
                    reason="its order deck and discard pile are both empty",
                    rule="PT-P11",
                )
                break
            c = self.order_deck[side].draw()
            self.hand[side].append(c)
            got.append(c)
        self._drew(side, got)
        return got

    def _reform_orders(self, side: str) -> bool:
        """PT-P11: shuffle ``side``'s order discard pile to form its empty order deck (a
        stream keyed by side, round and the re-forming's number). False if it is empty."""
        discard = self.order_discard[side]
        if not discard:
            return False
        self.reforms[side] += 1
        deck = Pile(sorted(discard, key=_id_key), name=f"{side} orders")
        deck.shuffle(
            self._streams.stream("deck", "orders", side, self.round, "reform", self.reforms[side])
        )
        self.order_deck[side] = deck
        self.order_discard[side] = []
        self._emit("deck_reformed", side=side, cards=len(deck), rule="PT-P11")
        return True

    def _reward_units(self, side: str, n: int, *, cause: str) -> list[str]:
        """Draw ``n`` units the rules give ``side`` (an operation's reward, PT-O1): never
        cancelled by the hand limit (PT-P11's principle); units have no discard pile to
        re-form the deck from (they go to the HQ, PT-C2), so an empty unit deck gives
        nothing more, and the ``nothing_drawn`` event says so."""
        got = self._draw_units(side, n, limit=False)
        if len(got) < n:
            self._emit(
                "nothing_drawn",
                side=side,
                cards="units",
                missing=n - len(got),
                cause=cause,
                reason="its unit deck is empty",
                rule="PT-O1",
            )
        return got

    def _drew(self, side: str, cards: list[str]) -> None:
        if cards:
            self._emit("drew", to=side, side=side, cards=cards)
            self._emit("draws", side=side, n=len(cards))

    def _discard_card(self, side: str, card: str) -> None:
        """Discard one of ``side``'s cards from hand or a Point (PT-P2, PT-R2, PT-G1)."""
        if card in self.hand[side]:
            self.hand[side].remove(card)
        if self.cards.is_order(card):
            self.order_discard[side].append(card)
            return
        pc = self.pieces[card]
        if pc.card.is_local:
            pc.zone, pc.holder, pc.owner = "discard", None, None
            self.locals_discard.append(card)
            return
        # Units given up in exchanges go to their side's HQ (PT-C2).
        home = pc.owner or pc.card.side
        pc.zone, pc.holder, pc.pos, pc.hits, pc.dead = "hq", home, -1, 0, False

    def _swap(self, s: str, card: str) -> None:
        self.rd[s] -= SWAP_RD
        self._discard_card(s, card)
        self._emit("swapped", side=s, card=card)
        if self.cards.is_order(card):
            self._draw_orders(s, 1, burn=False, limit=False)
        else:
            self._draw_units(s, 1, limit=False)

    # ------------------------------------------------------------------ deployment

    def _deploy(self, s: str, uid: str, pos: int) -> None:
        pc = self.pieces[uid]
        from_hq = pc.zone == "hq"
        if from_hq:
            self.hq_deploys += 1
        else:
            self.hand[s].remove(uid)
        self.chain_open = True
        self._emit("deployed", side=s, unit=uid, point=self.letter(pos), hq=from_hq)
        if pc.card.is_local:
            pc.owner, pc.holder = None, None  # neutral once deployed (PT-T4)
        pc.zone, pc.pos, pc.dead = "point", pos, False
        self._enter(pc)

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
        self.entry = {"victim": pc.card.id, "sides": blockers, "locals": sentinels}
        self._entry_next()

    def _entry_next(self, first: str | None = None) -> None:
        victim = self.pieces[self.entry["victim"]]
        sides: list[str] = self.entry["sides"]
        locs: list[str] = self.entry["locals"]
        while victim.zone == "point" and (sides or locs):
            # The sides' features before the locals' (PT-L10).
            if sides:
                attacker = sides.pop(0)
            elif first is not None:
                locs.remove(first)
                attacker, first = first, None
            elif len(locs) > 1:
                # PT-L11: the side on turn orders the locals' attacks.
                self.pending = Pending("first", self.turn, {"candidates": list(locs)})
                return
            else:
                attacker = locs.pop(0)
            a = self.pieces[attacker]
            if a.zone != "point" or a.pos != victim.pos:
                continue
            self._strike(a, victim, len_dice=a.card.strength, why="entry")
        self.entry = {}
        self._chain_done()

    def _strike(self, a: Piece, victim: Piece, *, len_dice: int, why: str) -> list[int]:
        """A feature's attack: no RD dice, no reroll (PT-L9 for locals)."""
        side = a.owner
        dice = self._dice(side, len_dice)
        hits = sum(1 for d in dice if is_hit(d, self.twos(side)))
        self._emit(
            "attacked",
            attacker=a.card.id,
            target=victim.card.id,
            dice=dice,
            hits=hits,
            cause=why,
        )
        self._hit(victim, hits, by=side)
        return dice

    def _dice(self, side: str | None, n: int, *, key: str = "roll") -> list[int]:
        who = side or "locals"
        self.rolls[who] += 1
        st = self._streams.stream(key, who, self.rolls[who])
        return [st.die(6) for _ in range(n)]

    def _hit(self, victim: Piece, hits: int, *, by: str | None) -> None:
        victim.hits += hits
        if victim.hits >= victim.card.toughness:
            self._kill(victim, by=by)

    def _kill(self, victim: Piece, *, by: str | None) -> None:
        pos = victim.pos
        lost = victim.owner
        self._emit("died", unit=victim.card.id, point=self.letter(pos))
        if victim.card.is_local:
            # PT-L5: dead locals leave for the rest of the match.
            victim.zone, victim.pos, victim.hits = "discard", -1, 0
            self.locals_discard.append(victim.card.id)
            return
        # A dead unit goes to its own side's HQ; a recruited one's service ends (ruling).
        home = victim.card.side
        victim.zone, victim.holder, victim.owner = "hq", home, home
        victim.pos, victim.hits, victim.dead = -1, 0, True
        if by is not None and lost is not None and by != lost:
            self.stats[by]["kills"] += 1
            self.round_stats[by]["kills"] += 1
        if lost is not None:
            self._combat_loss(lost, victim, pos)

    def _combat_loss(self, side: str, lost: Piece, pos: int) -> None:
        """Death or capture (PT-C5, PT-P3): statistics and the features that react."""
        self.stats[side]["losses"] += 1
        for pc in self.at(pos):
            feat = self._feature(pc)
            if pc is not lost and pc.owner == side and feat is not None and feat.ally_lost_rd:
                self.rd[side] += feat.ally_lost_rd
                self._emit("feature", unit=pc.card.id, feature=feat.name, rd=feat.ally_lost_rd)

    def _chain_done(self) -> None:
        self.chain_open = False
        self.forced = None
        self.interrupting = None
        self.roll_ctx = {}

    # ------------------------------------------------------------------ orders

    def _spend_order(self, s: str, kind: str) -> str:
        if self.forced is not None:
            card = self.forced
            self.order_discard[s].append(card)
            return card
        cards = self._hand_orders(s, kind)
        # Equal cards: the lowest id; supply cards: the richest first.
        card = max(cards, key=lambda c: (self.cards.order(c).value, -_id_key(c)[1]))
        self.hand[s].remove(card)
        self.order_discard[s].append(card)
        return card

    def _play_order(self, action: Action) -> None:
        s, k, args = action.seat, action.kind, action.args
        card = self._spend_order(s, k)
        self.chain_open = True
        self._emit("order", side=s, card=card, order=k, args=list(args))
        if k == "supply":
            gain = self.cards.order(card).value
            self.rd[s] += gain
            self._emit("rd_gained", side=s, rd=gain)
            self._chain_done()
        elif k == "manoeuvre":
            pc = self.pieces[str(args[0])]
            pc.pos = self.pos_of(str(args[1]))
            self._enter(pc)
        elif k == "reinforce":
            uid = str(args[0])
            self.hand[s].remove(uid)
            pc = self.pieces[uid]
            pc.zone, pc.pos = "point", self.pos_of(str(args[1]))
            self._enter(pc)
        else:
            attacker = self.pieces[str(args[0])]
            target = self.pieces[str(args[1])]
            if attacker.card.is_local:
                # Locals use no RD and no rerolls (PT-L9); they ignore each other (PT-L4).
                self._strike(attacker, target, len_dice=attacker.card.strength, why="incited")
                self._chain_done()
                return
            feat = self._feature(attacker)
            bonus = (feat.attack_bonus if feat is not None else 0) + (
                self.cards.order(card).value if k == "ambush" else 0
            )
            self.roll_ctx = {
                "kind": "attack",
                "side": s,
                "attacker": attacker.card.id,
                "target": target.card.id,
                "dice": attacker.card.strength + bonus,
                "extra": 0,
            }
            self._ask_pour(s)

    def _ask_pour(self, s: str) -> None:
        if self.rd[s] > 0 and self.rd_dice_allowed(s) and int(self.config["max_rd_per_roll"]) > 0:
            self.pending = Pending("pour", s)
        else:
            self._roll(0)

    def _roll(self, extra: int, *, reroll: bool = False) -> None:
        ctx = self.roll_ctx
        s = ctx["side"]
        if not reroll:
            self.rd[s] -= extra
            ctx["extra"] = extra
        dice = self._dice(s, int(ctx["dice"]) + extra)
        ctx["rolled"] = dice
        self.last_roll = {"side": s, "kind": ctx["kind"], "dice": dice, "reroll": reroll}
        self._emit("rolled", side=s, roll=ctx["kind"], dice=dice, rd=extra, reroll=reroll)
        if not reroll and self.rnr_available(s):
            self.pending = Pending("rnr", s)
            return
        self._finish_roll()

    def _finish_roll(self) -> None:
        ctx = self.roll_ctx
        s = ctx["side"]
        dice: list[int] = ctx["rolled"]
        target = self.pieces[ctx["target"]]
        twos = self.twos(s)
        if ctx["kind"] == "capture":
            if target.zone == "point" and capture_result(dice, twos) == "success":
                self._capture(s, target)
            else:
                self._emit("capture_failed", side=s, target=target.card.id)
            self._chain_done()
            return
        attacker = self.pieces[ctx["attacker"]]
        hits = sum(1 for d in dice if is_hit(d, twos))
        self._emit("hits", side=s, target=target.card.id, hits=hits)
        if target.zone != "point":
            self._chain_done()
            return
        self._hit(target, hits, by=s)
        feat = self._feature(target)
        if target.zone == "point" and target.card.is_local and feat is not None:
            if feat.avenger and attacker.zone == "point":
                self._strike(target, attacker, len_dice=target.card.strength, why="avenger")
            if feat.drifter:
                options = self.neighbours(target.pos)
                if len(options) > 1:
                    self.pending = Pending(
                        "withdraw", self.turn, {"local": target.card.id, "options": options}
                    )
                    return
                target.pos = options[0]
                self._emit("withdrew", local=target.card.id, point=self.letter(options[0]))
        self._chain_done()

    def _capture(self, s: str, target: Piece) -> None:
        pos = target.pos
        lost = target.owner
        target.zone, target.holder, target.pos, target.hits = "prison", s, -1, 0
        self._emit("captured", side=s, unit=target.card.id, point=self.letter(pos))
        self.stats[s]["captures"] += 1
        self.round_stats[s]["captures"] += 1
        if lost is not None:
            self._combat_loss(lost, target, pos)

    def _pay(self, p: Pending, what: str) -> None:
        s = p.seat
        purpose = p.data["purpose"]
        if what == "rd":
            cost = CAPTURE_RD if purpose == "capture" else GOAL_RD
            self.rd[s] -= cost
            self._emit("paid", side=s, rd=cost)
            done = True
        else:
            self._discard_card(s, what)
            self._emit("paid", side=s, card=what)
            p.data["paid"].append(what)
            done = purpose == "capture" or len(p.data["paid"]) == 2
        if not done:
            if not self._pay_actions(p):  # pragma: no cover - declared only when payable
                self._chain_done()
                return
            self.pending = p
            return
        if purpose == "goal":
            a, b = (self.pos_of(x) for x in p.data["points"])
            self.points[a], self.points[b] = self.points[b], self.points[a]
            # PT-G1: units stay at their positions, now on the other Points.
            self._emit("goal_changed", side=s, points=p.data["points"])
            self._chain_done()
            return
        target = self.pieces[p.data["target"]]
        if target.zone != "point" or self.count(target.pos, s) <= self.count(target.pos, other(s)):
            self._emit("capture_failed", side=s, target=target.card.id)
            self._chain_done()
            return
        self.roll_ctx = {"kind": "capture", "side": s, "target": target.card.id, "dice": 1}
        self._ask_pour(s)

    def _act(self, s: str) -> None:
        """Current Act (PT-R3): pay 4 RD, play the top card of the order deck at once."""
        self.rd[s] -= ACT_RD
        card = self.order_deck[s].draw()
        self._emit("current_act", side=s, card=card)
        self.forced = card
        kind = self.cards.order(card).kind
        if self._order_actions(s, forced=kind):
            self.chain_open = True
            self.pending = Pending("forced", s, {"card": card})
        else:
            self.order_discard[s].append(card)
            self._emit("no_use", side=s, card=card)
            self.forced = None

    # ------------------------------------------------------------------ Devil's hand

    def _deal(self, s: str, option: str, unit: str | None = None) -> None:
        self.dealt[s] = True
        self.stats[s]["deals"] += 1
        self._emit("deal", side=s, option=option)
        if option == "take":
            if self.phase == "deploy" and s == self.turn:
                self.pending = Pending("take", s, {"left": 2})
            else:
                self._reward_orders(s, DEAL_CARDS, cause="deal")
        elif option == "return" and unit is not None:
            pc = self.pieces[unit]
            pc.zone, pc.holder, pc.dead = "hand", s, False
            self.hand[s].append(unit)
            self._emit("returned", side=s, unit=unit)

    def _take(self, p: Pending, what: str) -> None:
        s = p.seat
        if what == "deck":
            self._draw_units(s, 1, limit=False)
        else:
            pc = self.pieces[what]
            pc.zone, pc.dead = "hand", False
            self.hand[s].append(what)
            self._emit("took", side=s, unit=what)
        p.data["left"] -= 1
        if p.data["left"] > 0 and self._pending_actions(p):
            self.pending = p

    # ------------------------------------------------------------------ operations

    def _reveal(self, s: str, op_id: str, *, end_of_round: bool) -> None:
        op = self.cards.operation(op_id)
        self.ops[s].remove(op_id)
        self._emit("revealed", side=s, operation=op_id, name=op.name, reward=op.reward)
        if op.reward == "rd":
            self.rd[s] += op.reward_amount
        elif op.reward == "orders":
            self._reward_orders(s, op.reward_amount, cause="operation")
        else:
            self._reward_units(s, op.reward_amount, cause="operation")
        if end_of_round:
            # Held aside until the next arrival, the loser's own card too (ruling): the
            # loser may take only the winner's card (PT-O2) and must not draw back its own.
            self.just_revealed.append((s, op_id))
        else:
            self.ops_deck.put_bottom(op_id)  # PT-O1: back to the operations deck

    # ------------------------------------------------------------------ turns & rounds

    def _next_turn(self) -> None:
        self._start_turn(other(self.turn))

    def _start_turn(self, side: str) -> None:
        self.turn = side
        self.phase = "deploy"
        self.hq_deploys = 0
        self.window_passed = False
        self.declined = None
        if not self.order_deck[side]:
            # PT-C3: the order deck has run out: the end of the round.
            self._end_round()
            return
        self._emit("turn", side=side, round=self.round)
        self._draw_orders(side, self.setup["turn_orders"], burn=True)

    def _end_round(self) -> None:
        self.phase = "end"
        values = {s: self.held_value(s) for s in SIDES}
        a, b = (values[s] for s in SIDES)
        winner = None if a == b else (SIDES[0] if a > b else SIDES[1])
        if winner is not None:
            self.rounds_won[winner] += 1
        self.last_loser = None if winner is None else other(winner)
        self.results.append({"round": self.round, "values": values, "winner": winner})
        self._emit("round_over", round=self.round, values=values, winner=winner)
        self.named = None
        self.interact_queue = [(c, u) for c in SIDES for u in self.prisoners(c)]
        if winner is not None:
            mine = [u for u in self.prisoners(other(winner)) if self.pieces[u].owner == winner]
            if mine:
                # PT-P7: the prisoner to free is named before the interactions.
                self.pending = Pending("name", winner, {"candidates": mine})
                return
        self._next_interaction()

    def _next_interaction(self) -> None:
        while self.interact_queue:
            captor, uid = self.interact_queue.pop(0)
            pc = self.pieces[uid]
            if pc.zone == "prison" and pc.holder == captor:
                self.pending = Pending("interact", captor, {"unit": uid})
                return
        self._finish_round()

    def _interact(self, captor: str, kind: str, uid: str) -> None:
        pc = self.pieces[uid]
        victim = pc.owner or pc.card.side
        if kind == "spare":
            self._emit("spared", side=captor, prisoner=uid)
            self._next_interaction()
            return
        # A single die, no RD (PT-C4), no ROCK'N'ROLL (ruling: PT-P6 allows one
        # interaction per prisoner, a re-roll would be a second); "exactly 3" is read
        # from the natural die (PT-P9).
        die = self._dice(captor, 1, key="interaction")[0]
        result = interaction_result(kind, die, self.twos(captor))
        self._emit(
            "interaction", side=captor, prisoner=uid, interaction=kind, die=die, result=result
        )
        if result == "success":
            if kind == "torture":
                self.stats[captor]["tortured"] += 1
                # PT-P11: from the captor's order deck, re-formed from its discard pile
                # when empty (as it usually is at the end of a round), over the limit.
                self._reward_orders(captor, 1, cause="torture")
            elif kind == "execute":
                self.stats[captor]["executed"] += 1
                pc.zone, pc.holder, pc.owner = "gone", None, None
                self.twos_rounds[captor].add(self.round + 1)
            else:
                self.stats[captor]["recruited"] += 1
                pc.zone, pc.holder, pc.owner, pc.dead = "hq", captor, captor, False
        elif result == "backfire":
            self.stats[captor]["backfired"] += 1
            if kind == "torture":
                # PT-P11: the opponent draws from its own order deck (re-formed from its
                # discard pile when empty), whatever its hand holds.
                self._reward_orders(other(captor), 1, cause="torture backfire")
            else:
                # PT-P11: the prisoner returns to its side's HQ, taking 1 order card at
                # random (keyed stream) from the captor's hand to its side's hand.
                pc.zone, pc.holder, pc.dead = "hq", victim, False
                self._emit("returned_home", side=victim, unit=uid, rule="PT-P11")
                orders = sorted(
                    (c for c in self.hand[captor] if self.cards.is_order(c)), key=_id_key
                )
                if orders:
                    st = self._streams.stream("backfire", self.round, uid)
                    card = st.choice(orders)
                    self.hand[captor].remove(card)
                    self.hand[victim].append(card)
                    self.log.append(
                        Event(
                            "order_taken",
                            {"from": captor, "to": victim, "card": card},
                            frozenset(SIDES),
                        )
                    )
                else:
                    # Ruling: a captor holding no order card loses none.
                    self._emit(
                        "nothing_taken",
                        side=captor,
                        to_side=victim,
                        reason="the captor holds no order card",
                        rule="PT-P11",
                    )
        self._next_interaction()

    def _finish_round(self) -> None:
        named = self.named
        if named is not None:
            pc = self.pieces[named]
            if pc.zone == "prison":
                home = pc.owner or pc.card.side
                pc.zone, pc.holder, pc.dead = "hq", home, False
                self.stats[home]["freed"] += 1
                self._emit("freed", unit=named, side=home)
            else:
                # PT-P8: died or changed sides: no other prisoner this round.
                self._emit("not_freed", unit=named)
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
        self.round_stats = {s: {"kills": 0, "captures": 0} for s in SIDES}
        self._arrival()

    def _end_match(self, leader: str | None) -> None:
        self.phase = "over"
        if leader is None:
            a, b = (self.rounds_won[s] for s in SIDES)
            leader = None if a == b else (SIDES[0] if a > b else SIDES[1])
        if leader is None:
            self._outcome = Outcome(frozenset(), frozenset(), "rounds won are level", "PT-C6")
        else:
            self._outcome = Outcome(
                frozenset({leader}),
                frozenset({leader}),
                f"{leader} won {self.rounds_won[leader]} rounds",
                "PT-C6",
            )
        self._emit("match_over", winner=leader, rounds_won=dict(self.rounds_won))

    def _arrival(self) -> None:
        r = self.round
        self._emit("round", round=r)
        if r > 1:
            for side in SIDES:
                cards = self.order_deck[side].take_all() + self.order_discard[side]
                self.order_discard[side] = []
                deck = Pile(sorted(cards, key=_id_key), name=f"{side} orders")
                deck.shuffle(self._streams.stream("deck", "orders", side, r))
                self.order_deck[side] = deck
        for side in SIDES:
            if r > 1:
                # PT-C8 (ruling): the starting hand is round 1's arrival; later arrivals
                # deal units then orders up to the hand limit, and a card that would
                # exceed it stays in its deck.
                self._draw_units(side, self.setup["arrival_units"])
                self._draw_orders(side, self.setup["arrival_orders"], burn=False)
            income = sum(p.income for i, p in enumerate(self.points) if self.held_by(i) == side)
            if income:
                self.rd[side] += income
                self._emit("income", side=side, rd=income)
        loser = self.last_loser
        if loser is not None:
            # PT-A1: the loser's locals and operations cards, while they remain.
            if self.locals_deck:
                c = self.locals_deck.draw()
                self.pieces[c].zone, self.pieces[c].holder = "hand", loser
                self.hand[loser].append(c)
                self._drew(loser, [c])
            op: str | None = None
            if self.ops_deck:
                op = self.ops_deck.draw()
            else:
                # PT-O2: the winner's just revealed operation, when the deck is empty.
                mine = [o for s, o in self.just_revealed if s == other(loser)]
                if mine:
                    op = mine[0]
                    self.just_revealed.remove((other(loser), op))
                    self._emit("took_revealed", side=loser, operation=op)
            if op is not None:
                self.ops[loser].append(op)
                self._emit("operation_dealt", to=loser, side=loser, operation=op)
                self._emit("operation_drawn", side=loser)
        for _, o in self.just_revealed:
            self.ops_deck.put_bottom(o)
        self.just_revealed = []
        if r == 1:
            starter = SIDES[0]
        elif loser is not None:
            starter = loser
        else:
            starter = other(self.starter)
        self.starter = starter
        self._start_turn(starter)

    # ------------------------------------------------------------------ views


@functools.cache
def _id_key(card_id: str) -> tuple[str, int]:
    """Sort ids as prefix then number: V2 before V10."""
    i = len(card_id)
    while i > 0 and "0" <= card_id[i - 1] <= "9":  # ASCII only: int() refuses "²"
        i -= 1
    return (card_id[:i], int(card_id[i:]) if i < len(card_id) else 0)
