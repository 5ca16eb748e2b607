"""Wounds, Hostiles leaving play, and the end of the mission (WF-C7).

* A Soldier with :data:`~.pieces.OUT_AT` wounds is out; the mission is **lost** when
  every Soldier is out (:func:`wound`).
* A Hostile killed or removed leaves play with its checks (:func:`remove`).
* The mission is **won** when the Objective is revealed, a Soldier stands on it and no
  Hostile is left there (:func:`objective_cleared`, checked after every action once no
  Fail check is waiting); a lost mission is the win of the side ``hostiles``, the
  umpire's, which has no seat (:func:`finish`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from ....core.game import Outcome, emit
from .pieces import HOSTILES, OUT_AT, SEAT, SIDE, Hostile, Phase, Soldier

if TYPE_CHECKING:
    from .game import WarfighterState

__all__ = ["finish", "objective_cleared", "remove", "wound"]


def wound(st: WarfighterState, s: Soldier, n: int, *, cause: str) -> None:
    """``n`` wounds to ``s`` (from a check's effect or a Hostile's attack)."""
    if s.out or n <= 0:
        return
    s.wounds = min(OUT_AT, s.wounds + n)
    emit(st.log, "wounded", soldier=s.id, wounds=s.wounds, cause=cause)
    if s.wounds >= OUT_AT:
        s.out = True
        s.actions = 0
        emit(st.log, "out", soldier=s.id)
        if not st.standing():
            finish(st, False, "every Soldier is out", "WF-C7")


def remove(st: WarfighterState, h: Hostile, how: Literal["killed", "removed"]) -> None:
    """``h`` leaves play, killed (WF-C4) or removed by a card (WF-C6); its checks go
    with it, a Fail check of its waiting to be rolled included."""
    h.alive = False
    if how == "killed":
        st.counts.hostiles_killed += 1
    for k in st.checks.values():
        if k.source == h.id:
            k.gone = True  # its checks leave with it
    st.pending = [p for p in st.pending if st.checks[p.check].source != h.id]
    emit(st.log, how, hostile=h.id)


def objective_cleared(st: WarfighterState) -> None:
    """WF-C7: the mission is won once the Objective is revealed, a Soldier stands on it
    and no Hostile is left there."""
    obj = st.objective_slot
    if st.slots[obj] is not None and st.standing(obj) and not st.hostiles_at(obj):
        finish(st, True, "the Objective Location is cleared", "WF-C7")


def finish(st: WarfighterState, won: bool, reason: str, rule: str) -> None:
    """The mission ends, won or lost."""
    # A lost mission is the hostiles' win: the umpire's side, with no seat.
    st.result = Outcome(
        frozenset({SEAT}) if won else frozenset(),
        frozenset({SIDE}) if won else frozenset({HOSTILES}),
        reason,
        rule,
    )
    st.phase = Phase.OVER
    st.pending = []
    emit(st.log, "game_over", won=won, reason=reason, rule=rule)
