"""The line of Locations (WF-C2, WF-C3): revealing a Location as a Soldier first enters
it, the Hostiles and checks it places, a Soldier moving and entering, and the Fail
checks that entering or adding puts in the queue to be rolled (WF-A9, WF-A10).

The line: the mission's start (face up), ``slots`` face-down Locations drawn from the
shuffled Location deck as a Soldier first enters each, then the Objective (face down
until entered, named by the mission).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from ....core.game import emit
from ..cards import CheckCard
from .pieces import Check, CheckId, Hostile, HostileId, Pending, Soldier

if TYPE_CHECKING:
    from .game import WarfighterState

__all__ = ["add_checks", "enter", "move_soldier", "place", "reveal"]


def move_soldier(st: WarfighterState, s: Soldier, slot: int, *, by_action: bool) -> None:
    """``s`` moves to ``slot`` (by an Action, WF-C2, or by a card, WF-C6) and enters it."""
    frm = s.slot
    s.slot = slot
    emit(
        st.log,
        "moved",
        data={"soldier": s.id, "frm": st.slot_name(frm), "to": st.slot_name(slot)},
        by="action" if by_action else "effect",
    )
    enter(st, s, slot)


def enter(st: WarfighterState, s: Soldier, slot: int) -> None:
    """``s`` enters ``slot``: a face-down Location is revealed (the Objective by the
    mission, another from the Location deck), and its Fail checks not yet rolled wait
    to be rolled by ``s`` (WF-A9)."""
    if st.slots[slot] is None:
        name = st.mission.objective if slot == st.objective_slot else st.location_deck.draw()
        reveal(st, slot, name)
    # WF-A9: every Fail check on the Location, not yet rolled, is rolled by the
    # Soldier who entered, in the order printed.
    queued = {p.check for p in st.pending}
    for k in st.checks_at(slot):
        if k.card.is_fail_check and not k.rolled and k.id not in queued:
            st.pending.append(Pending(k.id, s.id, "WF-A9"))


def reveal(st: WarfighterState, slot: int, name: str) -> None:
    """The Location card ``name`` is turned face up on ``slot``: its checks and its
    Hostiles are placed."""
    st.slots[slot] = name
    card = st.library.locations[name]
    emit(st.log, "revealed", location=st.slot_name(slot), card=name)
    add_checks(st, card.checks, slot, st.slot_name(slot))
    for h in card.hostiles:
        place(st, h, slot, added=False)


def add_checks(
    st: WarfighterState, checks: Iterable[CheckCard], slot: int, source: str
) -> list[Check]:
    """The checks a card prints enter play on ``slot`` (``K1``, ``K2``, ...)."""
    out = []
    for card in checks:
        k = Check(CheckId(f"K{len(st.checks) + 1}"), card, slot, source)
        st.checks[k.id] = k
        out.append(k)
        emit(st.log, "check_placed", check=k.id, location=st.slot_name(slot), source=source)
    return out


def place(st: WarfighterState, name: str, slot: int, *, added: bool) -> Hostile:
    """The Hostile card ``name`` enters play on ``slot`` (``H1``, ``H2``, ...) with its
    checks; ``added`` (by a card's ``add`` or ``draw``, WF-C6) where Soldiers are, its
    Fail checks are rolled now (WF-A10)."""
    card = st.library.hostiles[name]
    h = Hostile(HostileId(f"H{len(st.hostiles) + 1}"), card, slot)
    st.hostiles[h.id] = h
    emit(st.log, "hostile_placed", hostile=h.id, card=name, location=st.slot_name(slot))
    new = add_checks(st, card.checks, slot, h.id)
    if added and st.standing(slot):
        # WF-A10: a Fail check added to a Soldier's Location is attempted now.
        for k in new:
            if k.card.is_fail_check:
                st.pending.append(Pending(k.id, None, "WF-A10"))
    return h
