"""Helpers for Rock-n-Roll tests: a fresh match, hand-built positions, scripted dice."""

from __future__ import annotations

from typing import Any

import fogofwar.games.rock_n_roll  # noqa: F401  (registers the rule set)
from fogofwar.core.game import Action, Event, get_ruleset
from fogofwar.games.rock_n_roll.state import Phase, RockNRollState, Take, other

RS = get_ruleset("rock-n-roll")
V, P = "vietnam", "vpa"


def fresh(seed: int = 0, **config: Any) -> RockNRollState:
    """A new match: round 1, Vietnam's deployment phase."""
    st = RS.new_game(config, seed)
    assert isinstance(st, RockNRollState)
    return st


def detach(st: RockNRollState, card: str) -> None:
    """Take a card out of every hand, deck and pile (for hand-built positions)."""
    for side in (V, P):
        if card in st.hand[side]:
            st.hand[side].remove(card)
        for pile in (st.unit_deck[side], st.order_deck[side]):
            if card in pile:
                pile.remove(card)
        if card in st.order_discard[side]:
            st.order_discard[side].remove(card)
    if card in st.locals_deck:
        st.locals_deck.remove(card)
    if card in st.ops_deck:
        st.ops_deck.remove(card)


def empty_hands(st: RockNRollState) -> None:
    """Put every card in hand into a state where it is out of play."""
    for side in (V, P):
        for c in list(st.hand[side]):
            detach(st, c)
            if c in st.pieces:
                st.pieces[c].zone = "box"


def place(st: RockNRollState, uid: str, letter: str, owner: str | None = "card") -> None:
    """Put a unit or local on the Point with this letter."""
    detach(st, uid)
    pc = st.pieces[uid]
    pc.zone, pc.pos, pc.hits, pc.dead = "point", st.pos_of(letter), 0, False
    if pc.card.is_local:
        pc.owner, pc.holder = None, None
    else:
        pc.owner = pc.card.side if owner == "card" else owner
        pc.holder = pc.owner


def give(st: RockNRollState, side: str, card: str) -> None:
    """Put a card into a side's hand."""
    detach(st, card)
    st.hand[side].append(card)
    if card in st.pieces:
        pc = st.pieces[card]
        pc.zone, pc.holder = "hand", side


def orders_phase(st: RockNRollState) -> None:
    st.phase = Phase.ORDERS


def script_dice(st: RockNRollState, *rolls: list[int]) -> list[tuple[str | None, int]]:
    """Make the next rolls come out as given; returns the (side, n) of each roll asked."""
    queue = [list(r) for r in rolls]
    asked: list[tuple[str | None, int]] = []

    def fake(side: str | None, n: int, *, key: str = "roll") -> list[int]:
        asked.append((side, n))
        dice = queue.pop(0)
        assert len(dice) == n, f"scripted {dice} for a roll of {n} dice"
        return dice

    st._dice = fake  # type: ignore[method-assign]
    return asked


def act(st: RockNRollState, seat: str, kind: str, *args: int | str) -> list[Event]:
    """Apply an action of ``seat``. When ``seat`` is on turn and the other side has the
    offer of its interrupt open (PT-D3: it answers first), that side passes first: the
    tests of other rules read as the sides' own actions."""
    events = answer_offer(st, seat)
    return events + st.apply(Action(seat, kind, tuple(args)))


def answer_offer(st: RockNRollState, seat: str) -> list[Event]:
    """If ``seat`` is on turn and the other side has its interrupt's offer open (PT-D3),
    that side passes, so that ``seat`` may act."""
    off = other(st.turn)
    if seat == st.turn and st.to_act() == {off} and st.pending is None:
        return st.apply(Action(off, "pass"))
    return []


def legal(st: RockNRollState, seat: str) -> set[str]:
    """``seat``'s legal actions, once an open offer of the other side's interrupt has
    been passed (see :func:`answer_offer`)."""
    answer_offer(st, seat)
    return {str(a) for a in st.legal_actions(seat)}


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]


def unit_of(st: RockNRollState, side: str, name: str) -> str:
    """The first card id of a unit or local by name."""
    for c in (*st.cards.units, *st.cards.locals):
        if c.name == name and (c.side == side or side == "locals"):
            return c.id
    raise KeyError(name)


def orders_of(st: RockNRollState, side: str, kind: str) -> list[str]:
    return [o.id for o in st.cards.orders if o.side == side and o.kind == kind]


def end_round_now(st: RockNRollState) -> list[Event]:
    """End the turn of the side on turn with the other side's order deck empty (PT-C3)."""
    nxt = P if st.turn == V else V
    st.order_discard[nxt] += st.order_deck[nxt].take_all()
    st.pending = None
    return act(st, st.turn, "end")


def finish_arrival(st: RockNRollState) -> list[Event]:
    """Take the arrival's units while a side's HQ holds some (PT-C2): from the deck while
    it has cards, else the HQ's first unit."""
    events: list[Event] = []
    while isinstance(st.pending, Take) and st.pending.arrival:
        seat = st.pending.seat
        what = "deck" if st.unit_deck[seat] else st.hq(seat)[0]
        events += st.apply(Action(seat, "take", (what,)))
    return events


def imprison(st: RockNRollState, uid: str, captor: str) -> None:
    """Put a unit at ``captor``'s base as a prisoner (PT-P4)."""
    detach(st, uid)
    pc = st.pieces[uid]
    pc.zone, pc.holder, pc.pos, pc.owner = "prison", captor, -1, pc.card.side
