"""The names of a match's moments and the decisions awaited in them, typed.

* :class:`Phase` — the turn's phases and the match's end (what views show as ``phase``);
* :class:`Kind` — the action kinds, and :data:`RULE_OF`, the rule each belongs to;
* :class:`Decision` — what the seat to act is asked: the interrupt's offer to the side
  off turn, or a pending decision (a step of a multi-step action, or a player's decision
  at the end of a round);
* the pending decisions themselves (:class:`Pending` and one dataclass per kind), the
  roll being made (:class:`RollContext`), the entry attacks under way (:class:`Entry`),
  and the records a view shows (:class:`LastRoll`, :class:`RoundResult`).

Pending decisions and rolls name cards by id, never by their :class:`Piece`: a cloned
state copies its pieces, and an id finds the clone's own.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from enum import StrEnum
from typing import Any, ClassVar, Final, NotRequired, TypedDict

__all__ = [
    "ORDER_KINDS",
    "PROMPTS",
    "RULE_OF",
    "Decision",
    "Entry",
    "First",
    "Forced",
    "Interact",
    "Interrupt",
    "Kind",
    "LastRoll",
    "Name",
    "PayCapture",
    "PayGoal",
    "Pending",
    "Phase",
    "Pour",
    "Reroll",
    "RollContext",
    "RollKind",
    "RoundResult",
    "Take",
    "Withdraw",
]


class Phase(StrEnum):
    """The phase of the turn (PT-C3), or the match's end of round and end."""

    DEPLOY = "deploy"
    ORDERS = "orders"
    END = "end"  # the end of the round's decisions
    ARRIVAL = "arrival"  # the arrival's decisions: units taken from the HQ (PT-C2)
    OVER = "over"


class Kind(StrEnum):
    """The action kinds (their notation is ``ruleset.NOTATION``)."""

    DEPLOY = "deploy"
    ORDERS = "orders"
    END = "end"
    ATTACK = "attack"
    AMBUSH = "ambush"
    MANOEUVRE = "manoeuvre"
    REINFORCE = "reinforce"
    SUPPLY = "supply"
    POUR = "pour"
    RNR = "rnr"
    KEEP = "keep"
    CAPTURE = "capture"
    PAY = "pay"
    GOAL = "goal"
    ACT = "act"
    SWAP = "swap"
    DEAL = "deal"
    PASS = "pass"
    TAKE = "take"
    FREE = "free"
    TORTURE = "torture"
    EXECUTE = "execute"
    RECRUIT = "recruit"
    SPARE = "spare"
    REVEAL = "reveal"
    FIRST = "first"
    WITHDRAW = "withdraw"


#: The order plays, in the legal list's order.
ORDER_KINDS: Final = (Kind.ATTACK, Kind.AMBUSH, Kind.MANOEUVRE, Kind.REINFORCE, Kind.SUPPLY)
#: A captor's interactions with a prisoner (PT-P6), in the legal list's order.
PROMPTS: Final = (Kind.TORTURE, Kind.EXECUTE, Kind.RECRUIT, Kind.SPARE)

#: The rule each action kind belongs to, for illegal-action reasons.
RULE_OF: Final[dict[str, str]] = {
    Kind.DEPLOY: "PT-C2",
    Kind.ATTACK: "PT-C5",
    Kind.AMBUSH: "PT-C5",
    Kind.MANOEUVRE: "PT-C2",
    Kind.REINFORCE: "PT-C3",
    Kind.SUPPLY: "PT-C8",
    Kind.CAPTURE: "PT-P1",
    Kind.GOAL: "PT-G1",
    Kind.ACT: "PT-R3",
    Kind.SWAP: "PT-R2",
    Kind.RNR: "PT-R4",
    Kind.KEEP: "PT-R4",
    Kind.POUR: "PT-C4",
    Kind.PAY: "PT-R1",
    Kind.DEAL: "PT-D1",
    Kind.TAKE: "PT-D1",
    Kind.PASS: "PT-D3",
    Kind.REVEAL: "PT-O1",
    Kind.FREE: "PT-P7",
    Kind.TORTURE: "PT-P6",
    Kind.EXECUTE: "PT-P6",
    Kind.RECRUIT: "PT-P6",
    Kind.SPARE: "PT-P6",
    Kind.FIRST: "PT-L11",
    Kind.WITHDRAW: "PT-L11",
    Kind.ORDERS: "PT-C3",
    Kind.END: "PT-C3",
}


class Decision(StrEnum):
    """What the seat to act is asked, when it is not the turn's own play: the offer of
    the interrupt to the side off turn (PT-D3), or a pending decision (its ``kind``, as
    views show it)."""

    OFFER = "offer"  # the side off turn: deal interrupt, pass, pass turn or pass round
    INTERRUPT = "interrupt"  # play the interrupt's order (PT-D3)
    FORCED = "forced"  # play the Current Act's card (PT-R3)
    POUR = "pour"  # RD dice into the roll (PT-C4)
    RNR = "rnr"  # ROCK'N'ROLL or keep (PT-R4)
    PAY = "pay"  # pay for a capture (PT-P2) or a goal change (PT-G1)
    TAKE = "take"  # the Devil's hand's units (PT-D1), or the arrival's (PT-C2)
    FIRST = "first"  # which sentinel attacks first (PT-L11)
    WITHDRAW = "withdraw"  # where a drifter withdraws (PT-L11)
    NAME = "name"  # the prisoner to free (PT-P7)
    INTERACT = "interact"  # a captor's interaction with a prisoner (PT-P6)


@dataclass(slots=True)
class Pending:
    """A decision awaited from one seat; its fields are what views show besides the
    kind and the seat."""

    kind: ClassVar[Decision]
    seat: str

    def to_json(self) -> dict[str, Any]:
        """The view's ``pending``: the kind, the seat and the decision's data."""
        out: dict[str, Any] = {"kind": self.kind.value}
        for f in fields(self):
            value = getattr(self, f.name)
            out[f.name] = list(value) if isinstance(value, list) else value
        return out


@dataclass(slots=True)
class Interrupt(Pending):
    """The side off turn plays one order of its hand (PT-D3)."""

    kind: ClassVar[Decision] = Decision.INTERRUPT


@dataclass(slots=True)
class Forced(Pending):
    """The Current Act's top card is played at once (PT-R3)."""

    kind: ClassVar[Decision] = Decision.FORCED
    card: str


@dataclass(slots=True)
class Pour(Pending):
    """RD dice are declared before the roll (PT-C4)."""

    kind: ClassVar[Decision] = Decision.POUR


@dataclass(slots=True)
class Reroll(Pending):
    """ROCK'N'ROLL (``rnr``) or ``keep`` after a roll (PT-R4)."""

    kind: ClassVar[Decision] = Decision.RNR


@dataclass(slots=True)
class PayCapture(Pending):
    """A declared capture of ``target`` awaits its price (PT-P2)."""

    kind: ClassVar[Decision] = Decision.PAY
    purpose: ClassVar[str] = "capture"
    target: str
    paid: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {**Pending.to_json(self), "purpose": self.purpose}


@dataclass(slots=True)
class PayGoal(Pending):
    """A declared goal change of two Points awaits its price (PT-G1)."""

    kind: ClassVar[Decision] = Decision.PAY
    purpose: ClassVar[str] = "goal"
    points: list[str]
    paid: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {**Pending.to_json(self), "purpose": self.purpose}


@dataclass(slots=True)
class Take(Pending):
    """Units to take one at a time, each the top of the unit deck or a unit from the HQ:
    ``left`` still to take. The Devil's hand in the deployment phase (PT-D1), or, with
    ``arrival``, the units the arrival deals when the HQ holds some (PT-C2)."""

    kind: ClassVar[Decision] = Decision.TAKE
    left: int
    arrival: bool = False


@dataclass(slots=True)
class First(Pending):
    """The side on turn picks which sentinel attacks first (PT-L11)."""

    kind: ClassVar[Decision] = Decision.FIRST
    candidates: list[str]


@dataclass(slots=True)
class Withdraw(Pending):
    """The side on turn picks where a drifter withdraws: ``options`` are positions."""

    kind: ClassVar[Decision] = Decision.WITHDRAW
    local: str
    options: list[int]


@dataclass(slots=True)
class Name(Pending):
    """The round's winner names the prisoner to free (PT-P7)."""

    kind: ClassVar[Decision] = Decision.NAME
    candidates: list[str]


@dataclass(slots=True)
class Interact(Pending):
    """A captor acts on one prisoner (PT-P6)."""

    kind: ClassVar[Decision] = Decision.INTERACT
    unit: str


class RollKind(StrEnum):
    """The rolls RD dice and ROCK'N'ROLL apply to (PT-C4, PT-R4)."""

    ATTACK = "attack"
    CAPTURE = "capture"


@dataclass(slots=True)
class RollContext:
    """A roll under way: declared, then RD poured, rolled, and kept or re-rolled.

    Attributes:
        kind: an attack by an order or a capture.
        side: the side rolling.
        target: the id of the unit attacked or to be captured.
        dice: the dice before RD (the unit's strength and bonuses; 1 for a capture).
        attacker: the attacking unit's id (attacks).
        extra: the RD dice poured (PT-C4).
        rolled: the dice as rolled (the last roll, after a re-roll).
    """

    kind: RollKind
    side: str
    target: str
    dice: int
    attacker: str | None = None
    extra: int = 0
    rolled: list[int] = field(default_factory=list)


@dataclass(slots=True)
class Entry:
    """The attacks on a unit entering a Point still to come (PT-C2, PT-L10): the
    enemy's blocking units first, then the sentinels (ids)."""

    victim: str
    sides: list[str]
    locals: list[str]


class LastRoll(TypedDict):
    """The latest attack or capture roll, as views show it."""

    side: str
    kind: str
    dice: list[int]
    reroll: bool


class RoundResult(TypedDict):
    """One round's result (PT-C6), as views show it."""

    round: int
    values: dict[str, int]
    winner: str | None
    #: The operations the winner revealed at that end of round (PT-O2).
    revealed_by_winner: NotRequired[list[str]]
