"""The pieces on the table and the typed values of the rules: Soldiers (WF-C1),
Hostiles with their Doors (WF-C3, WF-D1…D7), ability checks (WF-A1…A11), the Fail
check waiting to be rolled, the mission's tallies, and the phases."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Final, Literal, NewType

from ..cards import CheckCard, HostileCard, SoldierCard

__all__ = [
    "HOSTILES",
    "OUT_AT",
    "SEAT",
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
]

SEAT: Final = "squad"
SIDE: Final = "squad"
#: The side that wins a lost mission (the umpire's, with no seat).
HOSTILES: Final = "hostiles"
#: A Soldier with this many wounds is out (WF-C7).
OUT_AT: Final = 3

#: The ids the actions name: ``S1`` (a Soldier, in the squad's order), ``H3`` (a Hostile,
#: in the order it entered play), ``K4`` (a check), ``L2`` (a Location of the line).
SoldierId = NewType("SoldierId", str)
HostileId = NewType("HostileId", str)
CheckId = NewType("CheckId", str)
LocationId = NewType("LocationId", str)


class Phase(StrEnum):
    """Where the game is (its value is what the view shows)."""

    #: The Soldier Turn: the squad's Soldiers act, then ``end`` (WF-C1, WF-C7).
    SOLDIERS = "soldiers"
    #: A Fail check waits for the player to pick who rolls it (WF-A9, WF-A10).
    ROLL = "roll"
    #: The mission is won or lost.
    OVER = "over"


class Breach(StrEnum):
    """How a Door was Breached (its value is what views and events show)."""

    ATTACK = "attack"  # its EKIAs reached its Hits (WF-D4)
    PICK = "pick"  # a Pick check succeeded (WF-D5)


@dataclass
class Soldier:
    """A Soldier in play (WF-C1)."""

    id: SoldierId
    card: SoldierCard
    slot: int
    actions: int
    wounds: int = 0
    out: bool = False
    attacks: int = 0  # attacks this turn: a key of the attack's dice stream


@dataclass
class Hostile:
    """A Hostile in play (WF-C3) and its Door (WF-D1…D7)."""

    id: HostileId
    card: HostileCard
    slot: int
    ekias: int = 0
    door_ekias: int = 0  # kept apart from the Hostile's (WF-D2)
    breached_by: Breach | None = None  # WF-D4, WF-D5
    suppressed: bool = False
    alive: bool = True
    picks: int = 0  # Pick checks tried: a key of the check's dice stream

    @property
    def breached(self) -> bool:
        """Whether its Door is Breached."""
        return self.breached_by is not None

    def cover_in_force(self) -> int:
        """The Cover an attack on the Hostile itself rolls against: printed, or the
        Door's once it is Breached (WF-D6, WF-D7); the attacker takes the better."""
        door = self.card.door
        if door is not None and self.breached:
            return min(door.cover, self.card.cover)
        return self.card.cover


@dataclass
class Check:
    """An ability check on the table: on a Location card or a Hostile card there."""

    id: CheckId
    card: CheckCard
    slot: int
    source: str  # "L2" (a Location) or "H3" (a Hostile)
    rolled: bool = False  # a Fail check, once rolled (WF-A6)
    spent: bool = False  # a Success check, once succeeded (WF-A6)
    attempts: int = 0
    gone: bool = False  # its Hostile died or left


@dataclass(frozen=True)
class Pending:
    """A Fail check to be rolled now (WF-A9, WF-A10).

    Attributes:
        check: the check's id.
        roller: the Soldier who entered (WF-A9), or None: any Soldier on the Location,
            the player picks (WF-A10).
        rule: ``WF-A9`` or ``WF-A10``.
    """

    check: CheckId
    roller: SoldierId | None
    rule: Literal["WF-A9", "WF-A10"]


@dataclass
class Counts:
    """The mission's tallies, for the metrics and the view (in this order)."""

    breaches_attack: int = 0
    breaches_pick: int = 0
    checks_rolled: int = 0  # ability checks and Pick checks rolled
    checks_failed: int = 0
    checks_lacking: int = 0  # a lacking Soldier's check: no roll made (WF-A8)
    hostiles_killed: int = 0
