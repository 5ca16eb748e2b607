"""The true state of a Warfighter mission and its rules (WF-C*, WF-A*, WF-D*), one
module per section of the rules:

* :mod:`.pieces` — Soldiers, Hostiles and their Doors, checks, the Fail check waiting,
  the tallies, the phases;
* :mod:`.table` — the notation's words, the typed parameters, the phase table's shape;
* :mod:`.turn` — the Soldier Turn: who may act, the order of the choices, ``move``,
  ``end`` (WF-C1, WF-C2, WF-C7);
* :mod:`.line` — the line of Locations: revealing, placing, entering (WF-C2, WF-C3);
* :mod:`.combat` — attacks and Doors (WF-C4, WF-D1…D7);
* :mod:`.checks` — ability checks and the Fail checks waiting (WF-A1…A11);
* :mod:`.effects` — card texts as data (WF-C6);
* :mod:`.hostile_turn` — the hostile turn and the end of a turn (WF-C7);
* :mod:`.losses` — wounds, Hostiles leaving play, the mission's end (WF-C7);
* :mod:`.game` — :class:`WarfighterState` and the phase table that assembles the rest.

Actions (the notation of :attr:`~..ruleset.Warfighter.notation_help`):

* ``move S L`` — a Soldier moves to a connected Location (1 Action, WF-C2);
* ``attack S H`` / ``attack S H door`` — attack a Hostile or its Door (1 Action,
  WF-C4, WF-D2, WF-D6, WF-D7);
* ``pick S H`` / ``pick S H up`` — a Pick check on a Hostile's Door (WF-D5, WF-A7);
* ``check S K`` / ``check S K up`` — attempt a Success check on the Location (WF-A5);
* ``roll S K`` / ``roll S K up`` — the Soldier who rolls a pending Fail check (WF-A9,
  WF-A10); offered only when there is a choice;
* ``end`` — end the Soldier Turn; the hostile turn follows (WF-C7).
"""

from .game import WarfighterState
from .pieces import (
    HOSTILES,
    OUT_AT,
    SEAT,
    SIDE,
    Breach,
    Check,
    CheckId,
    Counts,
    Hostile,
    HostileId,
    LocationId,
    Pending,
    Phase,
    Soldier,
    SoldierId,
)
from .table import SHAPES, shape_error

__all__ = [
    "HOSTILES",
    "OUT_AT",
    "SEAT",
    "SHAPES",
    "SIDE",
    "Breach",
    "Check",
    "CheckId",
    "Counts",
    "Hostile",
    "HostileId",
    "LocationId",
    "Pending",
    "Phase",
    "Soldier",
    "SoldierId",
    "WarfighterState",
    "shape_error",
]
