"""Seat views of Rock-n-Roll, built from what a seat may know (PT-C1, secrets).

Public: the row of Points with every unit and local on it, the sides' RD, rounds won,
the counts of hands, decks and held operations, the face-up order discards, the HQs,
the prisoners at each base, the executed units, the Devil's hand and ROCK'N'ROLL
states, the pending decision, the last roll and the round results. A seat also sees its
own hand and its own unrevealed operations, and the events addressed to it. The decks'
order, the other hand, the other side's operations and the seed are never read here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core.game import PlayerView
from .cards import SIDES

if TYPE_CHECKING:
    from .state import Piece, RockNRollState

__all__ = ["EVENTS_SHOWN", "build_view"]

#: How many of the latest events a view carries.
EVENTS_SHOWN = 16


def unit_json(piece: Piece) -> dict[str, Any]:
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


def _card_json(state: RockNRollState, card_id: str) -> dict[str, Any]:
    if state.cards.is_order(card_id):
        o = state.cards.order(card_id)
        return {"id": o.id, "name": o.name, "kind": o.kind, "value": o.value}
    return unit_json(state.pieces[card_id])


def build_view(state: RockNRollState, seat: str | None) -> PlayerView:
    """The view of ``seat`` (``None``: a spectator)."""
    points = []
    for pos, p in enumerate(state.points):
        points.append(
            {
                "pos": pos,
                "letter": p.letter,
                "value": p.value,
                "income": p.income,
                "held_by": state.held_by(pos),
                "units": [unit_json(pc) for pc in state.at(pos)],
            }
        )
    sides: dict[str, Any] = {}
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
        pending = {"kind": state.pending.kind, "seat": state.pending.seat, **state.pending.data}
    events: list[dict[str, Any]] = []
    for e in reversed(state.log):
        if e.visible_to(seat):
            events.append(e.to_json())
            if len(events) == EVENTS_SHOWN:
                break
    events.reverse()
    data: dict[str, Any] = {
        "round": state.round,
        "rounds_limit": int(state.config["rounds"]),
        "round_wins": int(state.setup["round_wins"]),
        "turn": state.turn,
        "phase": state.phase,
        "to_act": sorted(state.to_act()),
        "points": points,
        "sides": sides,
        "locals_deck": len(state.locals_deck),
        "locals_discard": list(state.locals_discard),
        "operations_deck": len(state.ops_deck),
        "executed": sorted(pc.card.id for pc in state.pieces.values() if pc.zone == "gone"),
        "pending": pending,
        "named": state.named,
        "last_roll": state.last_roll,
        "results": [dict(r) for r in state.results],
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


def _operations_json(state: RockNRollState, side: str) -> list[dict[str, Any]]:
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
