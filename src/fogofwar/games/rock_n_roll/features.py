"""The one registry of what card names mean in code (PT-C7).

A card file names a unit's or a local's **feature**, an operation's **condition** and
its **reward**; each name is defined here, once, and the card loader rejects names that
are not. The state asks a feature for its traits (:class:`Feature`), and evaluates a
condition with :func:`condition_met` and a reward through :data:`REWARDS`: the rules of
every card live in this module or in the state's hooks that read these traits.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

__all__ = [
    "CONDITIONS",
    "FEATURES",
    "REWARDS",
    "Feature",
    "condition_met",
]


@dataclass(frozen=True, slots=True)
class Feature:
    """A named feature and the traits the state reads.

    Attributes:
        name: the name card files use.
        of: ``"unit"`` (side units) or ``"local"`` (locals only).
        text: the card text for people.
        attack_bonus: extra dice when this unit attacks by an order.
        ally_lost_rd: RD its side gains when another allied unit at its Point is lost
            (dies or is captured: a combat loss, PT-C5).
        incites_locals: its side may order one local at its Point to attack another
            there with an attack order (the Shi Ho ground of PT-L3).
        sentinel: (locals) attacks every side unit that enters its Point, after the
            sides' blocking units (PT-L10).
        avenger: (locals) strikes back once at a side unit whose attack it survives.
        drifter: (locals) after surviving a side unit's attack, withdraws to a
            neighbouring Point (the side on turn picks when there are two, PT-L11).
    """

    name: str
    of: str
    text: str
    attack_bonus: int = 0
    ally_lost_rd: int = 0
    incites_locals: bool = False
    sentinel: bool = False
    avenger: bool = False
    drifter: bool = False


FEATURES: Final[dict[str, Feature]] = {
    f.name: f
    for f in (
        Feature(
            "veteran", "unit", "Rolls 1 extra die when it attacks by an order.", attack_bonus=1
        ),
        Feature(
            "vengeful",
            "unit",
            "When another allied unit at its Point is lost (killed or captured), its side "
            "gains 1 RD.",
            ally_lost_rd=1,
        ),
        Feature(
            "shi-ho",
            "unit",
            "Its side may play an attack order to make a local at its Point attack another "
            "local there.",
            incites_locals=True,
        ),
        Feature(
            "sentinel",
            "local",
            "Attacks every unit of either side that enters its Point (after the sides' "
            "blocking units).",
            sentinel=True,
        ),
        Feature(
            "avenger",
            "local",
            "Strikes back once at a side unit whose attack it survives.",
            avenger=True,
        ),
        Feature(
            "drifter",
            "local",
            "After surviving a side unit's attack, withdraws to a neighbouring Point.",
            drifter=True,
        ),
    )
}

#: Operation conditions: name -> what the number counts (this round, for the side).
CONDITIONS: Final[dict[str, str]] = {
    "kills": "enemy units it destroyed this round",
    "captures": "enemy units it captured this round",
    "hold": "Points it holds now",
    "value": "total victory value of the Points it holds now",
}

#: Operation rewards: name -> what the side gets.
REWARDS: Final[dict[str, str]] = {
    "rd": "RD",
    "orders": "order cards drawn from its order deck",
    "units": "unit cards drawn from its unit deck",
}


def condition_met(condition: str, amount: int, figures: dict[str, int]) -> bool:
    """Whether ``condition`` with threshold ``amount`` holds for a side's ``figures``
    (a mapping with a value for every name of :data:`CONDITIONS`)."""
    return figures[condition] >= amount
