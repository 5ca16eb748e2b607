"""Card texts as data (WF-C6): the effects of a check's heading, applied to the Soldier
who rolled and to the check's Location.

``wound N`` / ``wound N-roll``, ``suppress`` (Hostiles only, never a Door, WF-D3),
``add NAME`` / ``remove NAME``, ``actions +N`` / ``actions -N`` (stopping at 0),
``draw N`` / ``discard N`` (the Hostile deck, never reshuffled: an empty deck gives
nothing, and an event says so), ``move forward`` / ``move back`` (no Action; entering
runs WF-A9), ``end win`` / ``end lose``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from ....core.game import emit
from ..cards import Effect
from .line import move_soldier, place
from .losses import finish, remove, wound
from .pieces import Soldier

if TYPE_CHECKING:
    from .game import WarfighterState

__all__ = ["apply_effects"]


def apply_effects(
    st: WarfighterState, effects: Iterable[Effect], s: Soldier, slot: int, roll: int
) -> None:
    """The effects in order, until one ends the mission."""
    for e in effects:
        if st.result is not None:
            return
        _effect(st, e, s, slot, roll)


def _effect(st: WarfighterState, e: Effect, s: Soldier, slot: int, roll: int) -> None:
    """One effect of WF-C6, for the Soldier who rolled, on the check's Location."""
    verb = e.verb
    where = st.slot_name(slot)
    if verb == "wound":
        wound(st, s, e.value(roll), cause="check")
    elif verb == "suppress":
        # WF-D3: Hostiles gain Suppresses, their Doors never do.
        for h in st.hostiles_at(slot):
            h.suppressed = True
            emit(st.log, "suppressed", hostile=h.id)
    elif verb == "add":
        place(st, e.target, slot, added=True)
    elif verb == "remove":
        gone = next((h for h in st.hostiles_at(slot) if h.card.name == e.target), None)
        if gone is None:
            emit(st.log, "nothing_to_remove", card=e.target, location=where)
        else:
            remove(st, gone, "removed")
    elif verb == "actions":
        if not s.out:
            s.actions = max(0, s.actions + e.amount)
            emit(st.log, "actions", soldier=s.id, change=e.amount, left=s.actions)
    elif verb == "draw":
        for _ in range(e.amount):
            if not len(st.hostile_deck):
                emit(st.log, "hostile_deck_empty")
                break
            name = st.hostile_deck.draw()
            st.hostile_deck.set_aside(name, "in play")
            emit(st.log, "drawn", card=name, location=where)
            place(st, name, slot, added=True)
    elif verb == "discard":
        for _ in range(e.amount):
            if not len(st.hostile_deck):
                emit(st.log, "hostile_deck_empty")
                break
            name = st.hostile_deck.draw()
            st.hostile_deck.discard(name)
            emit(st.log, "discarded", card=name)
    elif verb == "move":
        to = s.slot + (1 if e.target == "forward" else -1)
        if not s.out and 0 <= to < st.slot_count:
            move_soldier(st, s, to, by_action=False)
    elif verb == "end":
        won = e.target == "win"
        finish(st, won, f"a card ends the mission ({e.target})", "WF-C6")
