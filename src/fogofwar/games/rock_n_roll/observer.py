"""The observer: seat views of Rock-n-Roll, built from what a seat may know (PT-C1,
secrets), and the typed structure of a view's JSON (:class:`ViewData`).

Public: the row of Points with every unit and local on it, the sides' RD, rounds won,
the counts of hands, decks and held operations, the face-up order discards, the HQs,
the prisoners at each base, the executed units, the Devil's hand and ROCK'N'ROLL
states, the pending decision, the last roll and the round results; and what both
players see at the table that drives the turn: the options, who started the round, the
units deployed from the HQ this phase, the roll and the entry attacks under way, the
interrupt's offer (passed, declined for the turn or the round, being played), the
Current Act's card, the interactions still due, the kills and captures of the round,
the 2s due next round, the operations put back at the bottom of their deck, and the
outcome. A seat also sees its own hand and its own unrevealed operations, the events
addressed to it, the cards each hand is known to hold (put there in the open) and the
orders each side holds of the other's (taken in a backfire). The decks' order, the
other hand's secret cards, the other side's operations and the seed are never read
here. Everything a seat knows is in its view, so a world can be drawn from the view
alone (:mod:`.worlds`).

The bots and the terminal drawing read views through :func:`view_data`, typed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NotRequired, TypedDict, cast

from ...core.game import PlayerView, fresh_json
from .cards import SIDES
from .state import Zone, id_key

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
    #: The round's kills and captures (operation conditions, PT-O1).
    round_kills: int
    round_captures: int
    #: Whether its 2s are effective next round (an execution, PT-P9).
    twos_next: bool


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


class RollJSON(TypedDict):
    """The attack or capture roll under way (``RollContext``): declared in the open."""

    kind: str
    side: str
    target: str
    dice: int
    attacker: str | None
    extra: int
    rolled: list[int]


class EntryJSON(TypedDict):
    """The attacks still to come on a unit entering a Point (``Entry``, PT-L10)."""

    victim: str
    sides: list[str]
    locals: list[str]


class OutcomeJSON(TypedDict):
    """The match's result, once over."""

    winners: list[str]
    sides: list[str]
    reason: str
    rule: str | None


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
    #: The match's options (every player knows them).
    config: dict[str, Any]
    #: The side that started the round (the next round's starter follows from it).
    starter: str
    #: Units deployed from the HQ in this deployment phase (at most one, PT-C2).
    hq_deploys: int
    #: A multi-step action is under way: the interrupt's offer waits (PT-D3).
    chain_open: bool
    #: The offer of PT-D3: the side playing its interrupt; the side off turn passed
    #: before this action; declined for the rest of the turn or round.
    interrupting: str | None
    window_passed: bool
    declined: str | None
    declined_round: str | None
    #: The Current Act's card while it is played (PT-R3).
    forced: str | None
    roll: RollJSON | None
    entry: EntryJSON | None
    #: The captors' interactions still due at the end of the round ([captor, unit]).
    interact_queue: list[list[str]]
    #: The cards at the bottom of the operations deck put there in the open, top first.
    operations_bottom: list[str]
    outcome: OutcomeJSON | None
    #: A seat's own hand and held operations (not a spectator's).
    hand: NotRequired[list[CardJSON]]
    operations: NotRequired[list[OperationJSON]]
    #: For a seat: per side, the cards of its hand every seat saw enter it (a unit taken
    #: from the HQ or returned, PT-D1; an order taken in a backfire, PT-P11)...
    known_hands: NotRequired[dict[str, list[str]]]
    #: ...and the other side's orders in its order deck or hand (taken in a backfire,
    #: then played and shuffled back: each change of sides was seen by both seats).
    borrowed: NotRequired[dict[str, list[str]]]
    #: Once the match is over, every hand and held operation.
    hands: NotRequired[dict[str, list[CardJSON]]]
    held_operations: NotRequired[dict[str, list[OperationJSON]]]
    #: ...and the operations revealed at the last end of round ([side, id]).
    set_aside: NotRequired[list[list[str]]]


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
            "round_kills": state.round_stats[s]["kills"],
            "round_captures": state.round_stats[s]["captures"],
            "twos_next": state.round + 1 in state.twos_rounds[s],
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
        # The state's own dict (its dice a list): the view gets a copy of it.
        "last_roll": fresh_json(state.last_roll),
        "results": [cast("RoundResult", fresh_json(r)) for r in state.results],
        "events": events,
        "config": state.config.to_json(),
        "starter": state.starter,
        "hq_deploys": state.hq_deploys,
        "chain_open": state.chain_open,
        "interrupting": state.interrupting,
        "window_passed": state.window_passed,
        "declined": state.declined,
        "declined_round": state.declined_round,
        "forced": state.forced,
        "roll": _roll_json(state),
        "entry": _entry_json(state),
        "interact_queue": [[c, u] for c, u in state.interact_queue],
        "operations_bottom": _operations_bottom(state),
        "outcome": _outcome_json(state),
    }
    if seat is not None:
        data["hand"] = [_card_json(state, c) for c in state.hand[seat]]
        data["operations"] = _operations_json(state, seat)
        # Seats only: the backfire's order changes hands before both seats, not the
        # spectators (its event goes to the seats).
        data["known_hands"] = {s: state.known_hand(s) for s in SIDES}
        data["borrowed"] = {s: _borrowed(state, s) for s in SIDES}
    if state.is_over:
        # Once the match is over nothing is secret: every hand and held operation.
        data["hands"] = {s: [_card_json(state, c) for c in state.hand[s]] for s in SIDES}
        data["held_operations"] = {s: _operations_json(state, s) for s in SIDES}
    if state.is_over or state.just_revealed:
        # The operations revealed at the last end of round (in the open), set aside
        # (PT-O2) until the arrival's end puts them back under the deck: while a side
        # takes its arrival's units (PT-C2), or for good when the match is over.
        data["set_aside"] = [[s, o] for s, o in state.just_revealed]
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


def _roll_json(state: RockNRollState) -> RollJSON | None:
    r = state.roll
    if r is None:
        return None
    return {
        "kind": str(r.kind),
        "side": r.side,
        "target": r.target,
        "dice": r.dice,
        "attacker": r.attacker,
        "extra": r.extra,
        "rolled": list(r.rolled),
    }


def _entry_json(state: RockNRollState) -> EntryJSON | None:
    e = state.entry
    if e is None:
        return None
    return {"victim": e.victim, "sides": list(e.sides), "locals": list(e.locals)}


def _operations_bottom(state: RockNRollState) -> list[str]:
    n = min(state.ops_returned, len(state.ops_deck))
    return list(state.ops_deck.cards[len(state.ops_deck) - n :])


def _outcome_json(state: RockNRollState) -> OutcomeJSON | None:
    out = state.outcome()
    if out is None:
        return None
    return {
        "winners": sorted(out.winners),
        "sides": sorted(out.sides),
        "reason": out.reason,
        "rule": out.rule,
    }


def _borrowed(state: RockNRollState, side: str) -> list[str]:
    """The other side's order cards in ``side``'s order deck or hand (PT-P11's backfire
    moved them; every move since was in the open or within ``side``'s own piles)."""
    theirs = state.cards.foreign_orders(side)
    out = [c for c in (*state.order_deck[side], *state.hand[side]) if c in theirs]
    return sorted(out, key=id_key)
