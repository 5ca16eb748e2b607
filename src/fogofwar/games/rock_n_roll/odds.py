"""Exact odds of Rock-n-Roll's threshold rolls (PT-P10), from the dice the rules roll.

Every die of the game is :data:`D6` (PT-C4): the state rolls its dice with
:func:`roll_dice` and reads them through :func:`is_hit`, :func:`threshold_success`,
:func:`capture_result` and :func:`interaction_result`. :func:`capture_roll` and
:func:`interaction_roll` are those outcome functions over the same dice object, and
:func:`odds_table` is their exact distribution, so the odds command and the umpire
cannot disagree.

* ``capture``: 1 die plus ``extra_dice`` RD dice; success if any die succeeds on 6+
  (PT-P2, PT-C4); there is no backfire.
* ``torture`` 4+, ``execute`` 5+, ``recruit`` 6+: one die, never with RD dice (PT-C4);
  a natural 3 is a backfire (PT-P6).
* ``effective_twos``: after an execution (PT-P6) a natural 2 also succeeds a threshold
  roll, and a 2 is a hit in attacks (PT-P9).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from fractions import Fraction
from typing import Final

from rich.table import Table

from ...core.dice import Dice, parse
from ...core.errors import RulesError
from ...core.odds import OddsAnswer, OddsParam, OddsQuery, fraction_text, percent
from ...core.rng import Stream

__all__ = [
    "CAPTURE_THRESHOLD",
    "D6",
    "HIT_FACES",
    "INTERACTIONS",
    "KINDS",
    "QUERIES",
    "capture_result",
    "capture_roll",
    "interaction_result",
    "interaction_roll",
    "is_hit",
    "odds_table",
    "roll_dice",
    "threshold_success",
]

#: The die of every roll: attacks, captures, interactions, features' attacks (PT-C4).
D6: Final[Dice] = parse("d6")
#: A roll's results, in the order of their outcome codes in the dice objects below.
RESULTS: Final = ("success", "backfire", "nothing")
#: A die is effective on 5 or 6 in attacks (PT-C4).
HIT_FACES: Final = frozenset({5, 6})
#: A capture needs 6+ on a die (PT-P2).
CAPTURE_THRESHOLD: Final = 6
#: Prisoner interactions and their thresholds (PT-P6).
INTERACTIONS: Final[dict[str, int]] = {"torture": 4, "execute": 5, "recruit": 6}
#: The kinds :func:`odds_table` knows.
KINDS: Final[tuple[str, ...]] = ("capture", *INTERACTIONS)
#: The natural face that backfires a prisoner interaction (PT-P6).
BACKFIRE_FACE: Final = 3


def roll_dice(stream: Stream, n: int) -> list[int]:
    """``n`` dice of :data:`D6` from ``stream``, in order (each draws what
    ``stream.die(6)`` would)."""
    return [D6.sample(stream) for _ in range(n)]


def is_hit(die: int, twos: bool) -> bool:
    """Whether an attack die hits: 5–6, or a 2 under effective twos (PT-C4, PT-P9)."""
    return die in HIT_FACES or (twos and die == 2)


def threshold_success(die: int, threshold: int, twos: bool) -> bool:
    """Whether a die passes an ``N+`` check; under effective twos a natural 2 also does."""
    return die >= threshold or (twos and die == 2)


def capture_result(dice: Sequence[int], twos: bool) -> str:
    """``"success"`` if any die passes 6+ (PT-P2, PT-C4), else ``"nothing"``."""
    ok = any(threshold_success(d, CAPTURE_THRESHOLD, twos) for d in dice)
    return "success" if ok else "nothing"


def interaction_result(kind: str, die: int, twos: bool) -> str:
    """``"success"``, ``"backfire"`` (a natural 3) or ``"nothing"`` for an interaction."""
    if threshold_success(die, INTERACTIONS[kind], twos):
        return "success"
    if die == BACKFIRE_FACE:
        return "backfire"
    return "nothing"


@functools.cache
def capture_roll(dice: int, twos: bool) -> Dice:
    """A capture of ``dice`` dice (PT-P2) as a dice object: the index in
    :data:`RESULTS` of :func:`capture_result` of the dice rolled."""
    return D6.pool(dice).apply(lambda rolls: RESULTS.index(capture_result(rolls, twos)),
                               "capture")  # fmt: skip


@functools.cache
def interaction_roll(kind: str, twos: bool) -> Dice:
    """A prisoner interaction (PT-P6) as a dice object: the index in :data:`RESULTS` of
    :func:`interaction_result` of the die rolled."""
    return D6.map(lambda die: RESULTS.index(interaction_result(kind, die, twos)), kind)


def odds_table(
    kind: str, *, effective_twos: bool = False, extra_dice: int = 0
) -> dict[str, Fraction]:
    """Exact probabilities of ``"success"``, ``"backfire"`` and ``"nothing"``.

    Args:
        kind: ``capture``, ``torture``, ``execute`` or ``recruit``.
        effective_twos: whether the roller's 2s count as effective (PT-P9).
        extra_dice: RD dice added to a capture (PT-C4); interactions take none.

    Raises:
        ValueError: an unknown kind, negative extra dice, or extra dice on an
            interaction (RD is never spent on prisoner interactions, PT-C4).
    """
    if kind not in KINDS:
        raise ValueError(f"unknown roll {kind!r} (kinds: {', '.join(KINDS)})")
    if extra_dice < 0:
        raise ValueError(f"extra dice must not be negative, got {extra_dice}")
    if kind != "capture" and extra_dice:
        raise ValueError(f"RD dice are never added to {kind} (PT-C4)")
    if extra_dice > 8:
        raise ValueError("at most 8 extra dice")
    if kind == "capture":
        roll = capture_roll(1 + extra_dice, effective_twos)
    else:
        roll = interaction_roll(kind, effective_twos)
    dist = roll.dist()
    return {result: dist.pmf(i) for i, result in enumerate(RESULTS)}


# --------------------------------------------------------------------------- the odds queries


def _roll(kind: str, effective_twos: bool, rd: int) -> OddsAnswer:
    try:
        table = odds_table(kind, effective_twos=effective_twos, extra_dice=rd)
    except ValueError as exc:
        raise RulesError(str(exc)) from exc
    data = {
        "game": "rock-n-roll",
        "roll": kind,
        "effective_twos": effective_twos,
        "rd_dice": rd,
        **{k: fraction_text(p) for k, p in table.items()},
        "rules": ["PT-P2", "PT-C4"] if kind == "capture" else ["PT-P6", "PT-P9", "PT-P10"],
    }
    dice = f"1d6 + {rd} RD" if rd else "1d6"
    title = f"Rock-n-Roll {kind}: {dice}" + (", 2s effective" if effective_twos else "")
    out = Table(title=title, title_justify="left")
    for col in ("outcome", "probability", "%"):
        out.add_column(col, justify="right")
    for key in ("success", "backfire", "nothing"):
        out.add_row(key, fraction_text(table[key]), percent(table[key]))
    twos = " (or a natural 2: 2s effective, PT-P9)" if effective_twos else ""
    out.caption = (
        f"6+ on any die{twos} (PT-P2)"
        if kind == "capture"
        else f"one die, no RD: {INTERACTIONS[kind]}+{twos}; a natural 3 backfires (PT-P6)"
        + ("" if effective_twos else "; 2s are effective after an execution (PT-P9)")
    )
    return OddsAnswer(data, out)


def _query(kind: str) -> OddsQuery:
    what = (
        "a capture (6+ on any die, PT-P2)"
        if kind == "capture"
        else f"a prisoner's {kind} ({INTERACTIONS[kind]}+; a natural 3 backfires, PT-P6)"
    )
    return OddsQuery(
        kind,
        f"Exact odds of {what}: success, backfire and nothing.",
        (
            OddsParam("effective_twos", bool, "The roller's 2s count as effective (PT-P9)."),
            # RD dice go into captures only: an interaction is one die (PT-C4).
            *(
                (
                    OddsParam(
                        "rd",
                        int,
                        "RD dice added to a capture (PT-C4).",
                        default=0,
                        minimum=0,
                        maximum=8,
                    ),
                )
                if kind == "capture"
                else ()
            ),
        ),
        lambda effective_twos, rd=0: _roll(kind, effective_twos, rd),
        ("PT-P2", "PT-C4") if kind == "capture" else ("PT-P6", "PT-P9", "PT-P10"),
    )


#: ``fogofwar odds rock-n-roll capture|torture|execute|recruit [--effective-twos] [--rd N]``.
QUERIES: Final[tuple[OddsQuery, ...]] = tuple(_query(k) for k in KINDS)
