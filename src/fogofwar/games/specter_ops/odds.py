"""Specter Ops' exact odds, from the dice objects the game rolls: a hunter's attack
(SO-X1…X5) and the Cobra's ambush (its stun, SO-H4).

``fogofwar odds specter-ops attack [--distance D] [--hunter H] [--agent A] [--json]``;
``fogofwar odds specter-ops ambush [--place on|next|other] [--json]``.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from rich.table import Table

from ...core.errors import RulesError
from ...core.odds import OddsAnswer, OddsParam, OddsQuery, fraction_text, percent
from .characters import AGENTS, HUNTERS
from .state import AMBUSH_DIE, ambush_stuns, attack_dice, attack_modifier

__all__ = ["AMBUSH_PLACES", "QUERIES", "ambush_json", "attack_json"]

RULES = ("SO-X1", "SO-X2", "SO-X3", "SO-X4", "SO-X5")


def attack_json(distance: int, *, hunter: str = "", agent: str = "") -> dict[str, Any]:
    """The exact hit probability of a Specter Ops attack (SO-X1…X5, SO-X2 at distance 0)
    with the characters' modifiers: the Gun's best of two, the Prophet's +2, the
    Spider's -2 within 3. The figures come from :func:`attack_dice`, the object the game
    rolls."""
    if hunter and hunter not in HUNTERS:
        raise RulesError(f"unknown hunter {hunter!r}: expected one of {', '.join(HUNTERS)}")
    if agent and agent not in AGENTS:
        raise RulesError(f"unknown agent {agent!r}: expected one of {', '.join(AGENTS)}")
    if distance < 0:
        raise RulesError(f"the distance must be 0 or more, not {distance}")
    if distance == 0:
        hit = Fraction(1)  # SO-X2: the agent on the hunter's own square
        modifier, dice_text = 0, "automatic"
    else:
        roll = attack_dice(hunter, agent, distance)
        hit = roll.dist().prob_at_least(1)
        modifier, dice_text = attack_modifier(hunter, agent, distance), str(roll)
    return {
        "game": "specter-ops",
        "roll": "attack",
        "distance": distance,
        "hunter": hunter or None,
        "agent": agent or None,
        "modifier": modifier,
        "dice": HUNTERS[hunter].attack_dice if hunter else 1,
        "expression": dice_text,
        "hit": fraction_text(hit),
        "miss": fraction_text(1 - hit),
        "rules": list(RULES),
    }


def _attack(distance: int | None, hunter: str, agent: str) -> OddsAnswer:
    hunter, agent = hunter.lower(), agent.lower()
    distances = [distance] if distance is not None else list(range(13))
    rows = [attack_json(d, hunter=hunter, agent=agent) for d in distances]
    who = ", ".join(x for x in (hunter and f"hunter {hunter}", agent and f"agent {agent}") if x)
    table = Table(title=f"Specter Ops attack{' — ' + who if who else ''}", title_justify="left")
    for col in ("distance", "modifier", "hit", "%"):
        table.add_column(col, justify="right")
    for row in rows:
        table.add_row(
            str(row["distance"]),
            f"{row['modifier']:+d}",
            str(row["hit"]),
            percent(str(row["hit"])),
        )
    roll = "d6"
    if hunter and HUNTERS[hunter].attack_dice > 1:
        roll = f"{HUNTERS[hunter].attack_dice}d6, the best kept,"
    notes = [f"{roll} hits on ≥ distance, a natural 1 misses, 6s explode (SO-X1…X5)"]
    if 0 in distances:
        notes.append("distance 0: the agent on the hunter's square is hit (SO-X2)")
    table.caption = "; ".join(notes)
    return OddsAnswer(rows[0] if distance is not None else rows, table)


#: Where a hunter ends its move, seen from the hidden Cobra, and what each means.
AMBUSH_PLACES: dict[str, str] = {
    "on": "on the Cobra's square: stunned, no roll",
    "next": "orthogonally next to it: stunned on a d6 of 4+",
    "other": "anywhere else (a diagonal too): no ambush",
}


def ambush_json(place: str) -> dict[str, Any]:
    """The exact chance that the hidden Cobra's ambush stuns a hunter ending its move at
    ``place`` (``on``, ``next`` or ``other``, :data:`AMBUSH_PLACES`); the roll next to it
    is :data:`AMBUSH_DIE` read by :func:`ambush_stuns`, the game's own."""
    if place not in AMBUSH_PLACES:
        raise RulesError(f"unknown place {place!r}: expected one of {', '.join(AMBUSH_PLACES)}")
    roll = None
    if place == "on":
        stun = Fraction(1)
    elif place == "next":
        roll = AMBUSH_DIE.map(lambda face: int(ambush_stuns(face)), "stuns")
        stun = roll.dist().pmf(1)
    else:
        stun = Fraction(0)
    return {
        "game": "specter-ops",
        "roll": "ambush",
        "agent": "cobra",
        "place": place,
        "expression": str(AMBUSH_DIE) if roll is not None else None,
        "stunned": fraction_text(stun),
        "not_stunned": fraction_text(1 - stun),
        "rules": ["SO-H4"],
    }


def _ambush(place: str | None) -> OddsAnswer:
    places = [place] if place is not None else list(AMBUSH_PLACES)
    rows = [ambush_json(p) for p in places]
    table = Table(title="Specter Ops: the Cobra's ambush", title_justify="left")
    for col in ("hunter ends its move", "stunned", "%"):
        table.add_column(col, justify="right")
    for row in rows:
        table.add_row(AMBUSH_PLACES[row["place"]], row["stunned"], percent(row["stunned"]))
    table.caption = (
        "only the hidden Cobra ambushes, and only hunters on foot (SO-V4); the roll and the "
        "stun are public; a stunned hunter moves at most 2 steps and may not attack (SO-H4)"
    )
    return OddsAnswer(rows[0] if place is not None else rows, table)


QUERIES: tuple[OddsQuery, ...] = (
    OddsQuery(
        "attack",
        "Exact hit probability of a hunter's attack, with the characters' modifiers.",
        (
            OddsParam(
                "distance",
                int,
                "Squares to the agent (king moves, 0-99; the board is 32 long); omit for a "
                "table 0-12.",
                minimum=0,
                maximum=99,
            ),
            OddsParam("hunter", str, "The attacking hunter: gun, prophet, …", default=""),
            OddsParam("agent", str, "The agent's character: spider, …", default=""),
        ),
        _attack,
        RULES,
    ),
    OddsQuery(
        "ambush",
        "Exact chance that the hidden Cobra's ambush stuns a hunter ending its move near it.",
        (
            OddsParam(
                "place",
                str,
                "Where the hunter ends its move: on the Cobra's square, next to it "
                "(orthogonally) or elsewhere; omit for all three.",
                choices=tuple(AMBUSH_PLACES),
            ),
        ),
        _ambush,
        ("SO-H4",),
    ),
)
