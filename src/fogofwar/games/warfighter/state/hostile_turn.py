"""The hostile turn and the end of a turn (WF-C7), automatic after ``end``.

Each living Hostile on a Location with Soldiers, in id order, attacks the one with the
fewest wounds (ties by the seeded RNG): a d10 reaching that Soldier's Cover wounds. A
suppressed Hostile skips its attack and loses the Suppress (WF-C4). Then the turn is
over: after the last turn the mission is lost; otherwise every standing Soldier gets its
Actions back.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ....core.game import emit
from ..rolls import D10, reaches
from .losses import finish, wound
from .pieces import Phase

if TYPE_CHECKING:
    from .game import WarfighterState

__all__ = ["hostile_turn"]


def hostile_turn(st: WarfighterState) -> None:
    """WF-C7: each Hostile attacks the Soldier on its Location with the fewest wounds
    (ties by the seeded RNG); a d10 at least that Soldier's Cover wounds."""
    emit(st.log, "hostile_turn", turn=st.turn)
    for h in list(st.hostiles.values()):
        if not h.alive or st.result is not None:
            continue
        there = st.standing(h.slot)
        if not there:
            continue
        if h.suppressed:
            h.suppressed = False
            emit(st.log, "suppressed_skips", hostile=h.id)
            continue
        least = min(s.wounds for s in there)
        tied = [s for s in there if s.wounds == least]
        target = tied[0]
        if len(tied) > 1:
            target = st.stream("hostile-target", st.turn, h.id).choice(tied)
        roll = D10.sample(st.stream("hostile-attack", st.turn, h.id))
        hit = reaches(roll, target.card.cover)
        emit(
            st.log,
            "hostile_attack",
            hostile=h.id,
            soldier=target.id,
            roll=roll,
            cover=target.card.cover,
            hit=hit,
        )
        if hit:
            wound(st, target, 1, cause=h.id)
    if st.result is not None:
        return
    emit(st.log, "turn_over", turn=st.turn)
    if st.turn >= st.turns:
        finish(st, False, f"the turn limit ({st.turns}) passed", "WF-C7")
        return
    st.turn += 1
    st.turn_start = len(st.log)
    for s in st.standing():
        s.actions = s.card.actions
        s.attacks = 0
    st.phase = Phase.SOLDIERS
