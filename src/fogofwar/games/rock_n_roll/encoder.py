"""The observation encoder of Rock-n-Roll: a seat's view as a flat vector of counts and
one-hot cards, for learning (:mod:`fogofwar.rl`).

Every card of the game (units, locals, orders, operations: the shipped card files,
public) has a block saying where the seat knows it to be — on which Point, in which
HQ, a prisoner at which base, in the seat's hand, known in a hand, discarded,
executed — and a card the seat cannot place (the other hand, the decks) is all zeros
there: the encoder reads the view alone (:func:`~.observer.view_data`), so nothing
hidden enters. Sides are absolute (``vietnam``, ``vpa``); the ``seat`` block says whose
view it is. Every entry lies in ``[0, 1]``; :meth:`describe` names them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...core.game import PlayerView
from ...core.game.features import FeatureLayout, FlatEncoder, index_of
from ...core.game.observation import Observation
from .cards import SIDES, CardSet
from .observer import view_data
from .state import Decision, Phase

__all__ = ["RockNRollEncoder"]

_PHASES = tuple(p.value for p in Phase)
_DECISIONS = tuple(d.value for d in Decision)
#: Scales of counts that have no fixed bound: RD, kills, units on a Point, dice.
_RD = 20.0
_MANY = 10.0
_DICE = 10.0
_STRENGTH = 20.0
_UNIT_PLACES = (
    *(f"point{i}" for i in range(5)),
    "hq",
    "hq_dead",
    *(f"prisoner_at_{s}" for s in SIDES),
    "my_hand",
    *(f"known_in_hand_{s}" for s in SIDES),
    "executed",
    "locals_discard",
    *(f"owner_{s}" for s in SIDES),
    "hits",
    "roll_target",
    "roll_attacker",
    "entry_victim",
    "pending",
)
_ORDER_PLACES = (
    "my_hand",
    *(f"known_in_hand_{s}" for s in SIDES),
    *(f"discard_{s}" for s in SIDES),
    *(f"borrowed_by_{s}" for s in SIDES),
    "current_act",
    "pending",
)
_OPERATION_PLACES = ("mine", *(f"held_by_{s}" for s in SIDES), "deck_bottom", "revealed")


class RockNRollEncoder(FlatEncoder):
    """A seat's view of a Rock-n-Roll match as ``(feature,)`` floats in ``[0, 1]``.

    Blocks (see :meth:`describe`):

    * ``seat``: whose view (``vietnam``, ``vpa`` or ``spectator``).
    * ``game``: the round, the turn and phase, who starts, who acts, the interrupt's
      offer, the roll under way and the last roll (its faces), the shared decks, the
      match's end.
    * ``pending``: the decision awaited, its seat and its size.
    * ``vietnam``/``vpa``: RD, rounds won, hand and deck sizes, held operations,
      the Devil's hand used, ROCK'N'ROLL, 2s, the value held, the round's kills and
      captures, the HQ and the prisoners.
    * ``point0``…``point4``: each position of the row: its letter, value, income, who
      holds it, each side's units and strength there.
    * One block per unit or local (``V1``…, ``P1``…, ``L1``…): where it is, whose it
      is, its hits over its toughness, and its part in the roll, entry or decision.
    * One per order (``VO1``…, ``PO1``…): in the seat's hand, known in a hand,
      discarded, borrowed, the Current Act's card, part of a decision.
    * One per operation (``S1``…): the seat's own, held (shown at the end), at the
      bottom of the deck in the open, revealed.
    """

    def __init__(self, cards: CardSet, config: Mapping[str, Any]) -> None:
        setup = cards.setup
        self._setup = setup
        self._points = max(1, len(cards.points))
        self._letters = sorted(p.letter for p in cards.points)
        self._letter = index_of(self._letters)
        self._value_max = max(1, max(p.value for p in cards.points))
        self._income_max = max(1, max(p.income for p in cards.points))
        self._held_max = max(1, sum(p.value for p in cards.points))
        self._rounds = int(config["rounds"])
        pieces = [c.id for c in (*cards.units, *cards.locals)]
        orders = [c.id for c in cards.orders]
        operations = [c.id for c in cards.operations]
        self._piece = index_of(pieces)
        self._order = index_of(orders)
        self._operation = index_of(operations)
        lay = FeatureLayout()
        self._seat = lay.block("seat", [*SIDES, "spectator"])
        game = [
            "round",
            "rounds_limit",
            "round_wins",
            *(f"turn_{s}" for s in SIDES),
            *(f"phase_{p}" for p in _PHASES),
            *(f"starter_{s}" for s in SIDES),
            *(f"to_act_{s}" for s in SIDES),
            "hq_deploys",
            "chain_open",
            *(f"interrupting_{s}" for s in SIDES),
            "window_passed",
            *(f"declined_{s}" for s in SIDES),
            *(f"declined_round_{s}" for s in SIDES),
            "current_act",
            "entry",
            "roll",
            "roll_attack",
            "roll_capture",
            *(f"roll_side_{s}" for s in SIDES),
            "roll_dice",
            "roll_extra",
            "roll_rolled",
            *(f"last_roll_{s}" for s in SIDES),
            "last_roll_attack",
            "last_roll_capture",
            "last_roll_reroll",
            *(f"last_roll_face{f}" for f in range(1, 7)),
            "locals_deck",
            "operations_deck",
            "executed",
            "interact_queue",
            "named",
            *(f"won_{s}" for s in SIDES),
            "over",
        ]
        self._g = lay.block("game", game)
        self._gi = index_of(game)
        pending = [
            *(f"kind_{k}" for k in _DECISIONS),
            *(f"seat_{s}" for s in SIDES),
            "left",
            "options",
            "candidates",
            "paid",
            "points",
        ]
        self._p = lay.block("pending", pending)
        self._pi = index_of(pending)
        side = [
            "rd",
            "rounds_won",
            "hand",
            "unit_deck",
            "order_deck",
            "order_discard",
            "operations",
            "deal_used",
            "rnr_available",
            "effective_twos",
            "held_value",
            "round_kills",
            "round_captures",
            "twos_next",
            "hq",
            "hq_dead",
            "prisoners",
        ]
        self._s = {s: lay.block(s, side) for s in SIDES}
        self._si = index_of(side)
        point = [
            *(f"letter={x}" for x in self._letters),
            "value",
            "income",
            *(f"held_by_{s}" for s in SIDES),
            *(f"units_{s}" for s in (*SIDES, "locals")),
            *(f"strength_{s}" for s in (*SIDES, "locals")),
        ]
        self._pt = [lay.block(f"point{i}", point) for i in range(len(cards.points))]
        self._pti = index_of(point)
        self._u = [lay.block(c, _UNIT_PLACES) for c in pieces]
        self._ui = index_of(_UNIT_PLACES)
        # The indices a Point's every unit writes, named once (not formatted per unit).
        self._pt_units = {s: self._pti[f"units_{s}"] for s in (*SIDES, "locals")}
        self._pt_strength = {s: self._pti[f"strength_{s}"] for s in (*SIDES, "locals")}
        self._at_point = [self._ui.get(f"point{i}") for i in range(len(cards.points))]
        self._owner_place = {s: self._ui[f"owner_{s}"] for s in SIDES}
        self._hits_place = self._ui["hits"]
        self._o = [lay.block(c, _ORDER_PLACES) for c in orders]
        self._oi = index_of(_ORDER_PLACES)
        self._op = [lay.block(c, _OPERATION_PLACES) for c in operations]
        self._opi = index_of(_OPERATION_PLACES)
        self.layout = lay

    # ------------------------------------------------------------------ helpers

    def _unit(self, x: Observation, card: str, place: str, value: float = 1.0) -> None:
        i = self._piece.get(card)
        if i is not None:
            x[self._u[i] + self._ui[place]] = value

    def _order_at(self, x: Observation, card: str, place: str) -> None:
        i = self._order.get(card)
        if i is not None:
            x[self._o[i] + self._oi[place]] = 1.0

    def _card(self, x: Observation, card: str, unit_place: str, order_place: str) -> None:
        """A card that may be a unit, a local or an order."""
        if card in self._piece:
            self._unit(x, card, unit_place)
        else:
            self._order_at(x, card, order_place)

    def _operation_at(self, x: Observation, card: str, place: str) -> None:
        i = self._operation.get(card)
        if i is not None:
            x[self._op[i] + self._opi[place]] = 1.0

    # ------------------------------------------------------------------ the view

    def fill(self, x: Observation, view: PlayerView) -> None:
        d = view_data(view)
        seat = view.seat
        x[self._seat + (SIDES.index(seat) if seat in SIDES else 2)] = 1.0
        self._game(x, d)
        self._pending(x, d)
        setup = self._setup
        for s in SIDES:
            o, si = self._s[s], self._si
            side = d["sides"][s]
            x[o + si["rd"]] = side["rd"] / _RD
            x[o + si["rounds_won"]] = side["rounds_won"] / max(1, d["round_wins"])
            x[o + si["hand"]] = side["hand"] / max(1, setup["hand_limit"])
            x[o + si["unit_deck"]] = side["unit_deck"] / max(1, setup["unit_deck"])
            x[o + si["order_deck"]] = side["order_deck"] / max(1, setup["order_deck"])
            x[o + si["order_discard"]] = len(side["order_discard"]) / max(1, setup["order_deck"])
            x[o + si["operations"]] = side["operations"] / max(1, setup["operations"])
            x[o + si["deal_used"]] = float(side["deal_used"])
            x[o + si["rnr_available"]] = float(side["rnr_available"])
            x[o + si["effective_twos"]] = float(side["effective_twos"])
            x[o + si["held_value"]] = side["held_value"] / self._held_max
            x[o + si["round_kills"]] = side["round_kills"] / _MANY
            x[o + si["round_captures"]] = side["round_captures"] / _MANY
            x[o + si["twos_next"]] = float(side["twos_next"])
            alive = [u for u in side["hq"] if not u["dead"]]
            x[o + si["hq"]] = len(alive) / _MANY
            x[o + si["hq_dead"]] = (len(side["hq"]) - len(alive)) / _MANY
            x[o + si["prisoners"]] = len(side["prisoners"]) / _MANY
            for u in side["hq"]:
                self._unit(x, u["id"], "hq_dead" if u["dead"] else "hq")
            for prisoner in side["prisoners"]:
                self._unit(x, prisoner["id"], f"prisoner_at_{s}")
            for c in side["order_discard"]:
                self._order_at(x, c, f"discard_{s}")
        for point in d["points"]:
            self._point(x, point)
        for c in d["executed"]:
            self._unit(x, c, "executed")
        for c in d["locals_discard"]:
            self._unit(x, c, "locals_discard")
        for card in d.get("hand", []):
            self._card(x, card["id"], "my_hand", "my_hand")
        for s, known in d.get("known_hands", {}).items():
            for c in known:
                self._card(x, c, f"known_in_hand_{s}", f"known_in_hand_{s}")
        for s, hand in d.get("hands", {}).items():  # the match is over: every hand shown
            for card in hand:
                self._card(x, card["id"], f"known_in_hand_{s}", f"known_in_hand_{s}")
        for s, borrowed in d.get("borrowed", {}).items():
            for c in borrowed:
                self._order_at(x, c, f"borrowed_by_{s}")
        if d["forced"]:
            self._order_at(x, d["forced"], "current_act")
        for op in d.get("operations", []):
            self._operation_at(x, op["id"], "mine")
        for s, ops in d.get("held_operations", {}).items():
            for op in ops:
                self._operation_at(x, op["id"], f"held_by_{s}")
        for c in d["operations_bottom"]:
            self._operation_at(x, c, "deck_bottom")
        for _, c in d.get("set_aside", []):
            self._operation_at(x, c, "revealed")
        for result in d["results"]:
            for c in result.get("revealed_by_winner", []):
                self._operation_at(x, c, "revealed")

    def _game(self, x: Observation, d: Any) -> None:
        g, gi = self._g, self._gi

        def flag(name: str, value: float = 1.0) -> None:
            x[g + gi[name]] = value

        flag("round", d["round"] / max(1, d["rounds_limit"]))
        flag("rounds_limit", d["rounds_limit"] / 9)
        flag("round_wins", d["round_wins"] / 9)
        for key in ("turn", "starter", "interrupting", "declined", "declined_round"):
            if d[key] in SIDES:
                flag(f"{key}_{d[key]}")
        if d["phase"] in _PHASES:
            flag(f"phase_{d['phase']}")
        for s in d["to_act"]:
            if s in SIDES:
                flag(f"to_act_{s}")
        flag("hq_deploys", float(d["hq_deploys"]))
        flag("chain_open", float(d["chain_open"]))
        flag("window_passed", float(d["window_passed"]))
        flag("current_act", float(d["forced"] is not None))
        entry = d["entry"]
        if entry is not None:
            flag("entry")
            self._unit(x, entry["victim"], "entry_victim")
        roll = d["roll"]
        if roll is not None:
            flag("roll")
            if roll["kind"] in ("attack", "capture"):
                flag(f"roll_{roll['kind']}")
            if roll["side"] in SIDES:
                flag(f"roll_side_{roll['side']}")
            flag("roll_dice", roll["dice"] / _DICE)
            flag("roll_extra", roll["extra"] / _DICE)
            flag("roll_rolled", len(roll["rolled"]) / _DICE)
            self._unit(x, roll["target"], "roll_target")
            if roll["attacker"]:
                self._unit(x, roll["attacker"], "roll_attacker")
        last = d["last_roll"]
        if last is not None:
            if last["side"] in SIDES:
                flag(f"last_roll_{last['side']}")
            if last["kind"] in ("attack", "capture"):
                flag(f"last_roll_{last['kind']}")
            flag("last_roll_reroll", float(last["reroll"]))
            dice = last["dice"]
            for face in range(1, 7):
                flag(f"last_roll_face{face}", dice.count(face) / max(1, len(dice)))
        flag("locals_deck", d["locals_deck"] / max(1, self._setup["locals"]))
        flag("operations_deck", d["operations_deck"] / max(1, self._setup["operations"]))
        flag("executed", len(d["executed"]) / _MANY)
        flag("interact_queue", len(d["interact_queue"]) / _MANY)
        flag("named", float(d["named"] is not None))
        outcome = d["outcome"]
        if outcome is not None:
            flag("over")
            for s in outcome["sides"]:
                if s in SIDES:
                    flag(f"won_{s}")

    def _pending(self, x: Observation, d: Any) -> None:
        pending = d["pending"]
        if pending is None:
            return
        p, pi = self._p, self._pi
        if pending["kind"] in _DECISIONS:
            x[p + pi[f"kind_{pending['kind']}"]] = 1.0
        if pending["seat"] in SIDES:
            x[p + pi[f"seat_{pending['seat']}"]] = 1.0
        x[p + pi["left"]] = (pending.get("left") or 0) / _MANY
        for key in ("options", "candidates", "paid", "points"):
            x[p + pi[key]] = len(pending.get(key) or ()) / _MANY
        for key in ("card", "target", "local", "unit"):
            ref = pending.get(key)
            if isinstance(ref, str):
                self._card(x, ref, "pending", "pending")
        for key in ("candidates", "paid"):
            for ref in pending.get(key) or ():
                if isinstance(ref, str):
                    self._card(x, ref, "pending", "pending")

    def _point(self, x: Observation, point: Any) -> None:
        pos = point["pos"]
        if not 0 <= pos < len(self._pt):
            return
        o, pti = self._pt[pos], self._pti
        letter = self._letter.get(point["letter"])
        if letter is not None:
            x[o + letter] = 1.0
        x[o + pti["value"]] = point["value"] / self._value_max
        x[o + pti["income"]] = point["income"] / self._income_max
        if point["held_by"] in SIDES:
            x[o + pti[f"held_by_{point['held_by']}"]] = 1.0
        # Each unit as _unit would write it, with the places' indices looked up once.
        here = self._at_point[pos]
        owner_place, hits = self._owner_place, self._hits_place
        piece, blocks = self._piece, self._u
        for u in point["units"]:
            side = u["side"] if u["side"] in SIDES else "locals"
            x[o + self._pt_units[side]] += 1.0 / _MANY
            x[o + self._pt_strength[side]] += u["strength"] / _STRENGTH
            i = piece.get(u["id"])
            if i is None:
                continue
            base = blocks[i]
            x[base + (here if here is not None else self._ui[f"point{pos}"])] = 1.0
            owner = owner_place.get(u["owner"])
            if owner is not None:
                x[base + owner] = 1.0
            x[base + hits] = u["hits"] / max(1, u["toughness"])
