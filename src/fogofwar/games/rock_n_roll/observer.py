"""The observer: seat views of Rock-n-Roll, built from what a seat may know (PT-C1,
secrets), and the typed structure of a view's JSON (:class:`ViewData`).

Public: the row of Points with every unit and local on it, the sides' RD, rounds won,
the counts of hands, decks and held operations, the face-up order discards, the HQs,
the prisoners at each base, the executed units, the Devil's hand and ROCK'N'ROLL
states, the pending decision, the last roll and the round results. A seat also sees its
own hand and its own unrevealed operations, and the events addressed to it. The decks'
order, the other hand, the other side's operations and the seed are never read here.

The bots and the terminal drawing read views through :func:`view_data`, typed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NotRequired, TypedDict, cast

from ...core.game import PlayerView
from .cards import SIDES
from .state import Zone

if TYPE_CHECKING:
    from .state import LastRoll, Piece, RockNRollState, RoundResult

__all__ = [
    "EVENTS_SHOWN",
    "CardJSON",
    "OperationJSON",
    "OrderJSON",
    "PendingJSON",
    "PointJSON",
    "SideJSON",
    "UnitJSON",
    "ViewData",
    "build_view",
    "unit_face",
    "view_data",
]

#: How many of the latest events a view carries.
EVENTS_SHOWN = 16


class UnitJSON(TypedDict):
    """A unit's or local's public face (``side``: ``vietnam``, ``vpa`` or ``locals``)."""

    id: str
    name: str
    side: str
    owner: str | None
    kind: str
    strength: int
    toughness: int
    feature: str | None
    hits: int


class HQUnitJSON(UnitJSON):
    """A unit in an HQ: whether it died (the Devil's hand may return it, PT-D1)."""

    dead: bool


class OrderJSON(TypedDict):
    """An order card in a hand."""

    id: str
    name: str
    kind: str
    value: int


#: A card in a hand: a unit or local, or an order (which has no ``strength``).
CardJSON = UnitJSON | OrderJSON


class OperationJSON(TypedDict):
    """A held operation (PT-O1): its condition and reward."""

    id: str
    name: str
    condition: str
    amount: int
    reward: str
    reward_amount: int


class PointJSON(TypedDict):
    """A Point of the row, at position ``pos``, and the pieces on it."""

    pos: int
    letter: str
    value: int
    income: int
    held_by: str | None
    units: list[UnitJSON]


class SideJSON(TypedDict):
    """One side's public facts (``hand``: how many cards it holds)."""

    rd: int
    rounds_won: int
    hand: int
    unit_deck: int
    order_deck: int
    order_discard: list[str]
    hq: list[HQUnitJSON]
    prisoners: list[UnitJSON]
    operations: int
    deal_used: bool
    rnr_available: bool
    effective_twos: bool
    held_value: int


class PendingJSON(TypedDict):
    """The decision awaited: its kind and seat, and the decision's own fields (the
    state's ``Pending`` dataclasses: ``card``, ``target``, ``points``, ``paid``,
    ``purpose``, ``left``, ``candidates``, ``local``, ``options``, ``unit``)."""

    kind: str
    seat: str
    card: NotRequired[str]
    purpose: NotRequired[str]
    target: NotRequired[str]
    points: NotRequired[list[str]]
    paid: NotRequired[list[str]]
    left: NotRequired[int]
    candidates: NotRequired[list[str]]
    local: NotRequired[str]
    options: NotRequired[list[int]]
    unit: NotRequired[str]


class ViewData(TypedDict):
    """A Rock-n-Roll view's JSON (``PlayerView.data``)."""

    round: int
    rounds_limit: int
    round_wins: int
    turn: str
    phase: str
    to_act: list[str]
    points: list[PointJSON]
    sides: dict[str, SideJSON]
    locals_deck: int
    locals_discard: list[str]
    operations_deck: int
    executed: list[str]
    pending: PendingJSON | None
    named: str | None
    last_roll: LastRoll | None
    results: list[RoundResult]
    events: list[dict[str, Any]]
    #: A seat's own hand and held operations (not a spectator's).
    hand: NotRequired[list[CardJSON]]
    operations: NotRequired[list[OperationJSON]]
    #: Once the match is over, every hand and held operation.
    hands: NotRequired[dict[str, list[CardJSON]]]
    held_operations: NotRequired[dict[str, list[OperationJSON]]]


def unit_face(card: CardJSON) -> UnitJSON | None:
    """A card in hand as a unit or local, or ``None`` for an order (orders have no
    strength)."""
    return cast("UnitJSON", card) if "strength" in card else None


def view_data(view: PlayerView) -> ViewData:
    """A Rock-n-Roll view's data, typed (the view must be one :func:`build_view` made)."""
    return cast("ViewData", view.data)


def unit_json(piece: Piece) -> UnitJSON:
    """A unit's or local's public face."""
    c = piece.card
    return {
        "id": c.id,
        "name": c.name,
        "side": c.side,
        "owner": piece.owner,
        "kind": c.kind,
        "strength": c.strength,
        "toughness": c.toughness,
        "feature": c.feature,
        "hits": piece.hits,
    }


def _card_json(state: RockNRollState, card_id: str) -> CardJSON:
    if state.cards.is_order(card_id):
        o = state.cards.order(card_id)
        return {"id": o.id, "name": o.name, "kind": o.kind, "value": o.value}
    return unit_json(state.pieces[card_id])


def build_view(state: RockNRollState, seat: str | None) -> PlayerView:
    """The view of ``seat`` (``None``: a spectator); its data is a :class:`ViewData`."""
    points: list[PointJSON] = []
    holders = state.holders()
    for pos, p in enumerate(state.points):
        points.append(
            {
                "pos": pos,
                "letter": p.letter,
                "value": p.value,
                "income": p.income,
                "held_by": holders[pos],
                "units": [unit_json(pc) for pc in state.at(pos)],
            }
        )
    sides: dict[str, SideJSON] = {}
    for s in SIDES:
        sides[s] = {
            "rd": state.rd[s],
            "rounds_won": state.rounds_won[s],
            "hand": len(state.hand[s]),
            "unit_deck": len(state.unit_deck[s]),
            "order_deck": len(state.order_deck[s]),
            "order_discard": list(state.order_discard[s]),
            "hq": [
                {**unit_json(state.pieces[u]), "dead": state.pieces[u].dead} for u in state.hq(s)
            ],
            "prisoners": [unit_json(state.pieces[u]) for u in state.prisoners(s)],
            "operations": len(state.ops[s]),
            "deal_used": state.dealt[s],
            "rnr_available": state.rnr_available(s),
            "effective_twos": state.twos(s),
            "held_value": state.held_value(s),
        }
    pending = None
    if state.pending is not None:
        pending = cast("PendingJSON", state.pending.to_json())
    events: list[dict[str, Any]] = []
    for e in reversed(state.log):
        if e.visible_to(seat):
            events.append(e.to_json())
            if len(events) == EVENTS_SHOWN:
                break
    events.reverse()
    data: ViewData = {
        "round": state.round,
        "rounds_limit": int(state.config["rounds"]),
        "round_wins": int(state.setup["round_wins"]),
        "turn": state.turn,
        "phase": str(state.phase),
        "to_act": sorted(state.to_act()),
        "points": points,
        "sides": sides,
        "locals_deck": len(state.locals_deck),
        "locals_discard": list(state.locals_discard),
        "operations_deck": len(state.ops_deck),
        "executed": sorted(pc.card.id for pc in state.pieces.values() if pc.zone == Zone.GONE),
        "pending": pending,
        "named": state.named,
        "last_roll": state.last_roll,
        "results": [cast("RoundResult", dict(r)) for r in state.results],
        "events": events,
    }
    if seat is not None:
        data["hand"] = [_card_json(state, c) for c in state.hand[seat]]
        data["operations"] = _operations_json(state, seat)
    if state.is_over:
        # Once the match is over nothing is secret: every hand and held operation.
        data["hands"] = {s: [_card_json(state, c) for c in state.hand[s]] for s in SIDES}
        data["held_operations"] = {s: _operations_json(state, s) for s in SIDES}
    return PlayerView(state.ruleset.id, seat, data)


def _operations_json(state: RockNRollState, side: str) -> list[OperationJSON]:
    return [
        {
            "id": o.id,
            "name": o.name,
            "condition": o.condition,
            "amount": o.amount,
            "reward": o.reward,
            "reward_amount": o.reward_amount,
        }
        for o in (state.cards.operation(i) for i in state.ops[side])
    ]
