"""The true state of a Rock-n-Roll match: the stand-in core (PT-C*) and the seed's rules.

One module per section of the rules, each adding its moves to the one before:

* ``pieces.py`` — the sides, the zones, the piece record, card-id order;
* ``decisions.py`` — phases, action kinds, the decisions awaited (typed), roll records;
* ``table.py`` — the phase table's parts this game adds to ``fogofwar.core.rules``;
* ``board.py`` — the match's fields, the board's queries, whose decision it is, dice;
* ``draws.py`` — draws, hands and discards, the swap (PT-C8, PT-P11, PT-R2);
* ``combat.py`` — rolls, RD dice, ROCK'N'ROLL, hits and losses (PT-C4, C5, R4);
* ``neutrals.py`` — entering a Point, the locals' decisions (PT-C2, PT-L*);
* ``orders.py`` — deployment and the order plays (PT-C2, C3, C5, L1..L3);
* ``prisoners.py`` — capture and prisoners (PT-P1..P11);
* ``exchange.py`` — prices, the goal change, the Current Act (PT-R1, R3, G1);
* ``deals.py`` — the Devil's hand and the interrupt's offer (PT-D1..D3);
* ``operations.py`` — special operations (PT-O1, O2);
* ``rounds.py`` — turns, the end of a round, the arrival, the end of the match;
* ``match.py`` — :class:`RockNRollState` and its phase table.
"""

from .board import FATES
from .decisions import (
    ORDER_KINDS,
    RULE_OF,
    Decision,
    Entry,
    First,
    Forced,
    Interact,
    Interrupt,
    Kind,
    LastRoll,
    Name,
    PayCapture,
    PayGoal,
    Pending,
    Phase,
    Pour,
    Reroll,
    RollContext,
    RollKind,
    RoundResult,
    Take,
    Withdraw,
)
from .match import RockNRollState
from .pieces import SIDES, Piece, Zone, ZoneName, id_key, other

__all__ = [
    "FATES",
    "ORDER_KINDS",
    "RULE_OF",
    "SIDES",
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
    "Piece",
    "Pour",
    "Reroll",
    "RockNRollState",
    "RollContext",
    "RollKind",
    "RoundResult",
    "Take",
    "Withdraw",
    "Zone",
    "ZoneName",
    "id_key",
    "other",
]
