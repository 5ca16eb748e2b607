"""Sampled worlds: a full Rock-n-Roll state consistent with a seat's view (for search).

Everything on the table is public and in the view: the Points and the pieces on them,
the HQs and prisons, the discard piles, the RD, the decision awaited and the roll or
entry under way, the interrupt's offer, the round's figures. What a seat does not know
is the other side's hand (bar the cards it saw go in), the order of every deck, the
other side's held operations, and the seed of every roll to come. A sampled world
rebuilds the table from the view alone and draws those, each pile from the cards the
view leaves unaccounted for:

* **The other hand and the decks.** A card is accounted for where the seat sees it: on
  a Point, in an HQ or a prison, executed, in a discard pile, in its own hand, played
  as the Current Act, or known to be in the other hand (taken from the HQ, returned by
  the Devil's hand, taken in a backfire). The rest lie in the decks and the other hand,
  and each kind has its own places: the other side's units in its unit deck or its
  hand, the locals in the locals deck or that hand, and each order in the order deck or
  hand of the side whose piles it cycles through (its own side's, unless a backfire
  moved it: the view's ``borrowed``). The seat's own decks hold exactly their share
  (it knows its own hand). Each pool is shuffled uniformly and dealt to its deck (as
  many as the view counts) and the rest to the other hand, then the hand is shuffled:
  every arrangement consistent with the view is equally likely, as it is to the seat,
  for every draw into the other hand was made in secret from a shuffled deck. The one
  thing the other side announced about its hand is kept: while it plays its interrupt
  (PT-D3) it holds an order it could play, so a deal without one is drawn again
  (rejection leaves the others equally likely; after ``_TRIES`` more draws, a last
  resort swaps one playable order in from its order deck).
* **The operations.** The cards put back at the bottom of the operations deck in the
  open stay there in their order (``operations_bottom``); the others not in the seat's
  hand are shuffled uniformly into the top of the deck and the other side's held
  operations (as many as it holds).
* **The rolls to come** (and every reshuffle) use a new seed drawn from the stream; the
  game's own seed never leaves the umpire.

Once the match is over every hand and held operation is in the view, and kept.

The world keeps the view's events (the seat's last ones, each with the audience its
kind has) rather than the whole log, and the counters that only key the umpire's
streams (rolls, reshuffles) or feed the match's statistics start afresh: none of them
is part of a seat's view or of the legal actions. The world gives the seat exactly the
view it was drawn from, and the same legal actions.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from copy import copy
from dataclasses import dataclass, fields
from typing import Any, Final, cast

from ...core.cards import Pile
from ...core.game import Event, Outcome, PlayerView, Ruleset, kept_table
from ...core.rng import Stream, Streams
from .cards import SIDES, load_cards
from .observer import ViewData, unit_face, view_data
from .state import (
    Entry,
    First,
    Forced,
    Interact,
    Interrupt,
    Name,
    PayCapture,
    PayGoal,
    Pending,
    Phase,
    Pour,
    Reroll,
    RockNRollState,
    RollContext,
    RollKind,
    RoundResult,
    Take,
    Withdraw,
    Zone,
    ZoneName,
    id_key,
    other,
)

__all__ = ["WorldError", "sample_kept", "sample_world"]

#: The pending decisions by the view's ``kind`` (and ``purpose`` for a payment).
_PENDING: Final[dict[tuple[str, str | None], type[Pending]]] = {
    (cls.kind.value, getattr(cls, "purpose", None)): cls
    for cls in (
        Interrupt,
        Forced,
        Pour,
        Reroll,
        PayCapture,
        PayGoal,
        Take,
        First,
        Withdraw,
        Name,
        Interact,
    )
}

#: The events a seat alone receives (``side``'s own) and those only the seats receive:
#: one table, so a world's log gives each kind the audience the game gave it.
_OWN_EVENTS: Final = frozenset({"drew", "operation_dealt"})
_SEATS_EVENTS: Final = frozenset({"order_taken"})


#: Deals drawn again for a hand that fits the interrupt announced, before the last resort.
_TRIES: Final = 64


class WorldError(ValueError):
    """A view a world cannot be drawn from (a spectator's, or one that does not add up)."""


def _audience(kind: str, data: Mapping[str, Any]) -> frozenset[str] | None:
    if kind in _OWN_EVENTS:
        return frozenset({str(data["side"])})
    if kind in _SEATS_EVENTS:
        return frozenset(SIDES)
    return None


def _event(entry: Mapping[str, Any]) -> Event:
    """A view's event back in a log, with the audience its kind has."""
    data = {k: v for k, v in entry.items() if k != "kind"}
    return Event(entry["kind"], data, _audience(entry["kind"], data))


def _pending(p: Mapping[str, Any] | None) -> Pending | None:
    if p is None:
        return None
    cls = _PENDING.get((p["kind"], p.get("purpose")))
    if cls is None:
        raise WorldError(f"a pending decision this rule set does not have: {p['kind']!r}")
    make: Callable[..., Pending] = cls  # each class's own fields, as its to_json wrote them
    return make(**{f.name: copy(p[f.name]) for f in fields(cls)})


def _dealt(
    pool: list[str], into_deck: int, stream: Stream, what: str
) -> tuple[list[str], list[str]]:
    """``pool`` shuffled: the first ``into_deck`` for the deck (top first), the rest for
    the other hand."""
    if into_deck > len(pool):
        raise WorldError(f"the view counts {into_deck} {what} in a deck, {len(pool)} are unseen")
    cards = sorted(pool, key=id_key)  # a fixed order before the shuffle: the view alone
    stream.shuffle(cards)
    return cards[:into_deck], cards[into_deck:]


def _place(
    st: RockNRollState,
    card: str,
    zone: ZoneName,
    holder: str | None,
    owner: str | None,
    *,
    pos: int = -1,
    hits: int = 0,
    dead: bool = False,
) -> None:
    pc = st.pieces[card]
    pc.zone, pc.holder, pc.owner, pc.pos, pc.hits, pc.dead = zone, holder, owner, pos, hits, dead


def sample_world(ruleset: Ruleset, view: PlayerView, stream: Stream) -> RockNRollState:
    """A state that gives ``view`` to its seat, its unknowns drawn from ``stream`` (see
    the module doc).

    Raises:
        WorldError: ``view`` is a spectator's (a world is drawn for a seat), or its
            counts do not add up (not a view this rule set made).
    """
    return sample_kept(ruleset, view, stream, None)


def sample_kept(
    ruleset: Ruleset, view: PlayerView, stream: Stream, kept: list[Any] | None
) -> RockNRollState:
    """:func:`sample_world`; ``kept``: the table and the unseen cards, kept for the
    worlds after the first (a :class:`~fogofwar.core.game.KeptSampler`'s list), or
    ``None``."""
    me = view.seat
    if me is None or me not in SIDES:
        raise WorldError("a world is drawn from a seat's view, not a spectator's")
    d = view_data(view)
    seed = f"{stream.bits64():016x}{stream.bits64():016x}"  # 128 bits: the world's own rolls

    def lay() -> tuple[RockNRollState, _Unseen]:
        cfg = ruleset.resolve_config(d["config"])
        st = RockNRollState.undealt(ruleset, cfg, load_cards(), seed)
        _table(st, d)
        _pieces(st, d)
        return st, _unseen(st, d, me)

    st, unseen = kept_table(kept, lay)
    st._streams = Streams(seed)
    # Uniform over the deals the view allows: one that contradicts what the other side
    # announced is drawn again (rejection keeps the rest equally likely).
    _deal(st, d, me, unseen, stream)
    tries = 0
    while not _announced(st, me):
        if tries == _TRIES:
            _make_playable(st, me)
            break
        _deal(st, d, me, unseen, stream)
        tries += 1
    _operations(st, d, me, stream)
    return st


def _table(st: RockNRollState, d: ViewData) -> None:
    """Everything public but the pieces and the piles, as the view shows it."""
    letters = {p.letter: p for p in st.cards.points}
    st.points = [letters[p["letter"]] for p in d["points"]]
    st.round = d["round"]
    st.turn = d["turn"]
    st.starter = d["starter"]
    st.phase = Phase(d["phase"])
    st.hq_deploys = d["hq_deploys"]
    for s in SIDES:
        side = d["sides"][s]
        st.rd[s] = side["rd"]
        st.rounds_won[s] = side["rounds_won"]
        st.dealt[s] = side["deal_used"]
        # ROCK'N'ROLL: only whether it was used this round matters (PT-R4).
        used = not side["deal_used"] and not side["rnr_available"]
        st.rnr_round[s] = st.round if used else 0
        # The 2s: whether effective this round and the next (earlier rounds are past).
        due = ((st.round, side["effective_twos"]), (st.round + 1, side["twos_next"]))
        st.twos_rounds[s] = {r for r, on in due if on}
        st.round_stats[s] = {"kills": side["round_kills"], "captures": side["round_captures"]}
        st.order_discard[s] = list(side["order_discard"])
    st.locals_discard = list(d["locals_discard"])
    st.pending = _pending(cast("Mapping[str, Any] | None", d["pending"]))
    r = d["roll"]
    st.roll = (
        None
        if r is None
        else RollContext(
            RollKind(r["kind"]),
            r["side"],
            r["target"],
            r["dice"],
            r["attacker"],
            r["extra"],
            list(r["rolled"]),
        )
    )
    e = d["entry"]
    st.entry = None if e is None else Entry(e["victim"], list(e["sides"]), list(e["locals"]))
    st.chain_open = d["chain_open"]
    st.interrupting = d["interrupting"]
    st.window_passed = d["window_passed"]
    st.declined = d["declined"]
    st.declined_round = d["declined_round"]
    st.forced = d["forced"]
    st.named = d["named"]
    st.interact_queue = [(c, u) for c, u in d["interact_queue"]]
    # Copies of their own (the world's end of round writes into the last one).
    st.results = [cast("RoundResult", json.loads(json.dumps(x))) for x in d["results"]]
    last = st.results[-1]["winner"] if st.results else None
    st.last_loser = None if last is None else other(last)
    roll = d["last_roll"]
    st.last_roll = None if roll is None else {**roll, "dice": list(roll["dice"])}
    out = d["outcome"]
    st._outcome = (
        None
        if out is None
        else Outcome(frozenset(out["winners"]), frozenset(out["sides"]), out["reason"], out["rule"])
    )
    st.log = [_event(ev) for ev in d["events"]]


def _pieces(st: RockNRollState, d: ViewData) -> None:
    """The pieces the seat sees, where it sees them; the rest stay in ``Zone.DECK`` for
    now (in a deck or the other hand)."""
    for pc in st.pieces.values():
        pc.zone = Zone.DECK
    for p in d["points"]:
        for u in p["units"]:
            owner = u["owner"]
            _place(st, u["id"], Zone.POINT, owner, owner, pos=p["pos"], hits=u["hits"])
    for s in SIDES:
        for h in d["sides"][s]["hq"]:
            _place(st, h["id"], Zone.HQ, s, h["owner"], hits=h["hits"], dead=h["dead"])
        for u in d["sides"][s]["prisoners"]:
            _place(st, u["id"], Zone.PRISON, s, u["owner"], hits=u["hits"])
    for c in d["executed"]:
        _place(st, c, Zone.GONE, None, None)
    for c in d["locals_discard"]:
        _place(st, c, Zone.DISCARD, None, None)


@dataclass(slots=True)
class _Unseen:
    """The cards the seat's view leaves unplaced, by the piles they may lie in.

    Attributes:
        mine: the seat's hand, in order.
        known: the cards of the other hand every seat saw go in (all of it once the
            match is over).
        units: per side, its units not seen (its unit deck, or the other hand).
        locals: the locals not seen (the locals deck, or the other hand).
        orders: per side, the orders not seen that cycle through its piles.
    """

    mine: list[str]
    known: list[str]
    units: dict[str, list[str]]
    locals: list[str]
    orders: dict[str, list[str]]


def _unseen(st: RockNRollState, d: ViewData, me: str) -> _Unseen:
    """The seat's hand placed, and what is left unseen (see :class:`_Unseen`); the units
    and locals not seen are those ``_pieces`` left in ``Zone.DECK``."""
    cards, opp = st.cards, other(me)
    for face in d.get("hand", []):
        unit = unit_face(face)
        if unit is not None:
            _place(st, unit["id"], Zone.HAND, me, unit["owner"])
    mine = [face["id"] for face in d.get("hand", [])]
    shown = d.get("known_hands", {})
    st.shown = {s: list(shown.get(s, [])) for s in SIDES}
    hands = d.get("hands")
    known = list(shown.get(opp, [])) if hands is None else [c["id"] for c in hands[opp]]
    seen = {*mine, *known}
    unseen = [
        c.id
        for c in (*cards.units, *cards.locals)
        if c.id not in seen and st.pieces[c.id].zone == Zone.DECK
    ]
    out_of_piles = seen | {c for s in SIDES for c in d["sides"][s]["order_discard"]}
    if d["forced"] is not None:
        out_of_piles.add(d["forced"])
    # Each order cycles through one side's piles: its own, unless a backfire moved it.
    moved = {c: s for s, ids in d.get("borrowed", {}).items() for c in ids}
    orders: dict[str, list[str]] = {s: [] for s in SIDES}
    for o in cards.orders:
        if o.id not in out_of_piles:
            orders[moved.get(o.id, o.side)].append(o.id)
    return _Unseen(
        mine,
        known,
        {s: [c for c in unseen if cards.unit(c).side == s] for s in SIDES},
        [c for c in unseen if cards.unit(c).is_local],
        orders,
    )


def _deal(st: RockNRollState, d: ViewData, me: str, unseen: _Unseen, stream: Stream) -> None:
    """The unseen units, locals and orders dealt between the decks and the other hand:
    the seat's own decks take exactly their share, the other side's pools fill its decks
    as the view counts them and the rest go to its hand."""
    cards, sides, opp = st.cards, d["sides"], other(me)
    hidden: list[str] = []
    for s in SIDES:
        deck, rest = _dealt(unseen.units[s], sides[s]["unit_deck"], stream, f"{s} units")
        st.unit_deck[s] = Pile(deck, name=f"{s} units")
        if rest and s == me:
            raise WorldError(f"{len(rest)} of {me}'s units are nowhere in the view")
        hidden += rest
    deck, rest = _dealt(unseen.locals, d["locals_deck"], stream, "locals")
    st.locals_deck = Pile(deck, name="locals")
    hidden += rest
    for s in SIDES:
        deck, rest = _dealt(unseen.orders[s], sides[s]["order_deck"], stream, f"{s} orders")
        st.order_deck[s] = Pile(deck, name=f"{s} orders")
        if rest and s == me:
            raise WorldError(f"{len(rest)} of {me}'s orders are nowhere in the view")
        hidden += rest
    if "hands" in d and hidden:
        raise WorldError("the other hand is in the view, yet cards are unseen")
    stream.shuffle(hidden)  # drawn in secret: every order of the hand alike
    theirs = [*unseen.known, *hidden]
    if len(theirs) != sides[opp]["hand"]:
        raise WorldError(f"{opp}'s hand holds {sides[opp]['hand']} cards, {len(theirs)} found")
    st.hand = {me: list(unseen.mine), opp: theirs}
    for c in theirs:
        if cards.is_unit(c):
            # A unit in a hand fights for that side (drawn, or taken from its HQ).
            _place(st, c, Zone.HAND, opp, None if cards.unit(c).is_local else opp)
    for pile in (*st.unit_deck.values(), st.locals_deck):
        for c in pile:
            card = cards.unit(c)
            owner = None if card.is_local else card.side
            _place(st, c, Zone.DECK, owner, owner)


def _announced(st: RockNRollState, me: str) -> bool:
    """Whether the other hand fits what its side announced: an interrupt being played
    (PT-D3) was struck holding an order it could play."""
    p, opp = st.pending, other(me)
    return (
        not isinstance(p, Interrupt)
        or p.seat != opp
        or st._has_order_play(opp, st._order_kinds(opp))
    )


def _make_playable(st: RockNRollState, me: str) -> None:
    """The last resort when no draw fitted the interrupt: one order of the other hand
    (not a known one) changes places with a playable one of its order deck."""
    opp, cards = other(me), st.cards
    known = set(st.known_hand(opp))
    mine = [i for i, c in enumerate(st.hand[opp]) if cards.is_order(c) and c not in known]
    deck = st.order_deck[opp]
    good = [c for c in deck if st._has_order_play(opp, {cards.order(c).kind})]
    if mine and good:
        i, card = mine[0], good[0]
        out = st.hand[opp][i]
        st.hand[opp][i] = card
        st.order_deck[opp] = Pile([out if c == card else c for c in deck], name=deck.name)


def _operations(st: RockNRollState, d: ViewData, me: str, stream: Stream) -> None:
    """The held operations and the operations deck: the cards put back in the open stay
    at the bottom, the others unseen are dealt between the top and the other side."""
    opp = other(me)
    bottom = list(d["operations_bottom"])
    held = {me: [o["id"] for o in d.get("operations", [])]}
    if "held_operations" in d:
        held[opp] = [o["id"] for o in d["held_operations"][opp]]
    # Once the match is over, those revealed at its last end of round are set aside.
    st.just_revealed = [(side, o) for side, o in d.get("set_aside", [])]
    seen = {o for ops in held.values() for o in ops} | set(bottom)
    seen |= {o for _, o in st.just_revealed}
    pool = [o.id for o in st.cards.operations if o.id not in seen]
    top, rest = _dealt(pool, d["operations_deck"] - len(bottom), stream, "operations")
    if opp not in held:
        held[opp] = rest
    elif rest:
        raise WorldError("the held operations are in the view, yet operations are unseen")
    if len(held[opp]) != d["sides"][opp]["operations"]:
        count = d["sides"][opp]["operations"]
        raise WorldError(f"{opp} holds {count} operations, {len(held[opp])} found")
    st.ops = {s: list(held[s]) for s in SIDES}
    st.ops_deck = Pile([*top, *bottom], name="operations")
    st.ops_returned = len(bottom)
