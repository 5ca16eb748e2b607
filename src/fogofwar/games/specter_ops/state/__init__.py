"""The true state of a Specter Ops game and its rules (SO-*), one module per section of
the rules:

* :mod:`.pieces` — the seats and numbers of the rules, the phases and action kinds, the
  hunter and agent figures, smoke, the traitor's concealed sightings;
* :mod:`.table` — the typed arguments and the three kinds of move of the phase table;
* :mod:`.board` — the fields and the queries every section reads (sight, the agent in
  focus, whose turn it is, the end);
* :mod:`.setup` — the characters and the agent's equipment (SO-S4);
* :mod:`.agent_turn` — objectives, the agent's move and what it reveals (SO-O*, SO-A1…A6,
  SO-E1);
* :mod:`.equipment` — the equipment cards (SO-A7, SO-A8);
* :mod:`.sightings` — the answers at the end of a hunter's movement (SO-H3, SO-V5, the
  Cobra);
* :mod:`.hunter_turn` — the order, a hunter's movement, the vehicle, the end of the
  round (SO-R1, SO-H1, SO-H4, SO-V*);
* :mod:`.attacks` — attacks and the Beast's sniff (SO-H2, SO-X*), the attack's dice;
* :mod:`.traitor` — the traitor game (SO-T2…T6);
* :mod:`.game` — :class:`SpecterOpsState` and the phase table that assembles the rest.

The hunters' knowledge is :mod:`..knowledge`'s possibility map; the seats' views are the
observer's (:mod:`..observer`), which reads this package and is never read by it.
"""

from .attacks import attack_dice, attack_modifier, roll_attack
from .game import SpecterOpsState
from .pieces import (
    AGENT,
    AGENT_SIDE,
    BASE_HEALTH,
    DRIVE,
    FIGURES,
    HUNTER_SEATS,
    HUNTER_SIDE,
    MOVE,
    STUNNED_MOVE,
    SURGE_MOVE,
    Agent,
    Hunter,
    Kind,
    Moment,
    Phase,
    Sighting,
    Smoke,
    cards_to_take,
    hunter_count,
    seats_for,
)
from .setup import possible_kits
from .sightings import AMBUSH_DIE, ambush_stuns
from .table import SquareName

__all__ = [
    "AGENT",
    "AGENT_SIDE",
    "AMBUSH_DIE",
    "BASE_HEALTH",
    "DRIVE",
    "FIGURES",
    "HUNTER_SEATS",
    "HUNTER_SIDE",
    "MOVE",
    "STUNNED_MOVE",
    "SURGE_MOVE",
    "Agent",
    "Hunter",
    "Kind",
    "Moment",
    "Phase",
    "Sighting",
    "Smoke",
    "SpecterOpsState",
    "SquareName",
    "ambush_stuns",
    "attack_dice",
    "attack_modifier",
    "cards_to_take",
    "hunter_count",
    "possible_kits",
    "roll_attack",
    "seats_for",
]
