"""The stand-in core's profiles (ZD-C2, ZD-C4, ZD-P5): heroes, allies and bogey tiers.

The Zero Dark rulebook's numbers are not in the project's sources; these are the
project's own (rulings), kept as data so that a mission may override them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Final

__all__ = [
    "ALLY",
    "BOGEYS",
    "HERO",
    "MAX_TASK_D_BONUS",
    "PING_LABEL",
    "ROSTER",
    "TASKS",
    "TASK_BONUS",
    "BogeyStats",
    "HeroStats",
]


@dataclass(frozen=True, slots=True)
class HeroStats:
    """A character's profile (ZD-C2): Mobility, Fight, Acuity, Discipline, armour, Cyl."""

    m: int
    f: int
    a: int
    d: int
    av: int
    cyl: int = 3

    def with_bonus(self, stat: str, amount: int) -> HeroStats:
        """This profile with ``stat`` (``m``, ``f``, ``a``, ``d``) raised by ``amount``."""
        values = {k: getattr(self, k) for k in ("m", "f", "a", "d", "av", "cyl")}
        values[stat] += amount
        return HeroStats(**values)


HERO: Final = HeroStats(m=4, f=4, a=4, d=3, av=1, cyl=3)
"""A generic hero: a 15-point spread, AV 1, Cyl 3 (ZD-C2, ruling)."""

ROSTER: Final[tuple[tuple[str, HeroStats], ...]] = (
    ("spook", HeroStats(m=4, f=3, a=5, d=3, av=1)),
    ("assault", HeroStats(m=4, f=5, a=3, d=3, av=2)),
    ("marksman", HeroStats(m=3, f=5, a=4, d=3, av=1)),
    ("medic", HeroStats(m=4, f=4, a=4, d=3, av=1)),
    ("breacher", HeroStats(m=4, f=4, a=3, d=4, av=2)),
    ("scout", HeroStats(m=5, f=4, a=3, d=3, av=0)),
)
"""The team in deployment order: specialism and profile, each a 15-point spread. With
``spook`` on, H1 is the Spook (ZD-C2: the specialism modelled in depth)."""

ALLY: Final = HeroStats(m=3, f=3, a=3, d=3, av=0)
"""A persuaded ally's stat line (ZD-P5, ruling; a mission may override it)."""


@dataclass(frozen=True, slots=True)
class BogeyStats:
    """A bogey tier's profile (ZD-C4): attack dice, defence, wounds, most support
    tokens, Cyl, and the CQB target number a hero rolls against (ZD-C5)."""

    att: int
    defence: int
    wnd: int
    support: int
    cyl: int
    cqb_tn: int


BOGEYS: Final[Mapping[str, BogeyStats]] = MappingProxyType(
    {
        "grunt": BogeyStats(att=3, defence=1, wnd=1, support=1, cyl=3, cqb_tn=5),
        "elite": BogeyStats(att=4, defence=2, wnd=2, support=2, cyl=3, cqb_tn=6),
        "boss": BogeyStats(att=5, defence=3, wnd=3, support=3, cyl=4, cqb_tn=7),
        "special": BogeyStats(att=4, defence=2, wnd=2, support=2, cyl=3, cqb_tn=6),
    }
)

PING_LABEL: Final[Mapping[str, str]] = MappingProxyType(
    {"grunt": "1", "elite": "2", "boss": "3", "special": "S"}
)
"""The face of a ping counter (FR-P1), seen only when it is turned over."""

TASKS: Final = ("none", "rescue", "assassination", "observation", "acquisition")
"""The Spook's priority tasks (ZD-T1)."""

TASK_BONUS: Final[Mapping[str, tuple[str, int]]] = MappingProxyType(
    {"rescue": ("a", 1), "assassination": ("d", 1), "acquisition": ("m", 1)}
)
"""A task's bonus to the Spook's profile for the mission: (stat, amount) (ZD-T3, ZD-T4,
ZD-T6); Observation gives the Dotlight upgrade instead (ZD-T5)."""

MAX_TASK_D_BONUS: Final = max((n for stat, n in TASK_BONUS.values() if stat == "d"), default=0)
"""The most a task adds to the Spook's D, and so to its hand (ZD-C7, ZD-T4)."""

BOGEY_CQB_TN: Final = 6
"""A bogey's CQB dice need 6 (ZD-C5)."""

HERO_DOWN: Final = 2
HERO_DEAD: Final = 3
"""A hero with 2 wounds is down, with 3 dead (ZD-C5)."""

INTERACT_TN: Final = 12
ACQUISITION_TN: Final = 16
CAUTIOUS_TN: Final = 10
"""ZD-C10's target numbers: interact A(12) (Acquisition A(16)), cautious move A(10)."""

DEPENDENT_RANGE: Final = 4
"""An ally must stay within 4 of its hero (ZD-D2)."""
