"""Warfighter's dice (WF-C5) and what a roll decides: the one place both the rules
(``state/``) and the exact odds (:mod:`.odds`) take them from.

Every roll is :data:`D10`, a dice object of :mod:`fogofwar.core.dice`: the rules draw it
with ``D10.sample(stream)`` (exactly what ``stream.die(10)`` draws) and the odds read
its exact distribution, :data:`FACES`. What a roll decides is an outcome function over
it, written once:

* :func:`check_result` — an ability check (WF-A2, WF-A3, WF-A7, WF-A8), and a Pick
  check on a Door (WF-D5);
* :func:`reaches` — a d10 reaching a Cover: an attack's shot scores an EKIA (WF-C4,
  WF-D2) and a Hostile's attack wounds (WF-C7).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Final

from ...core.dice import Die, d

__all__ = ["D10", "DIE", "FACES", "LACKING_NATURAL", "check_result", "reaches"]

#: Every roll of Warfighter is a d10 (WF-C5).
D10: Final[Die] = d(10)
#: The number of its faces.
DIE: Final = len(D10.faces)
#: Its exact distribution: ``(face, probability)`` pairs, for the odds.
FACES: Final[tuple[tuple[int, Fraction], ...]] = tuple(D10.dist().items())
#: The natural roll a Soldier lacking the ability is read as (WF-A8).
LACKING_NATURAL: Final = 1


def check_result(natural: int | None, target: int, modifier: int) -> tuple[bool, int]:
    """Decide an ability check (WF-A2, WF-A3, WF-A8): ``(success, roll)``.

    Args:
        natural: the d10 rolled, or ``None`` for a Soldier who lacks the ability: no roll
            is made, the check fails, and the roll reads as a natural 1 that nothing can
            increase (WF-A8): a negative modifier still lowers it, a positive one does
            not (``Swim -1`` reads 0, ``Swim +2`` reads 1).
        target: the Soldier's number, or its upgunned number (WF-A7).
        modifier: the check's modifier (WF-A3).
    """
    if natural is None:
        return False, LACKING_NATURAL + min(modifier, 0)
    roll = natural + modifier
    return roll >= target, roll


def reaches(roll: int, cover: int) -> bool:
    """Whether a d10 reaches a Cover: a shot's EKIA (WF-C4, WF-D2), a Hostile's hit
    (WF-C7)."""
    return roll >= cover
