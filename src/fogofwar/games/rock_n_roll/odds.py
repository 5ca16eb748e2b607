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
* ``attack``: the attacker's strength in dice plus RD dice, each 5–6 a hit (PT-C4,
  PT-C5); :func:`attack_roll` counts the hits with :func:`is_hit`, the umpire's own test,
  and :func:`attack_odds` gives their distribution and the chance of a kill.
* ROCK'N'ROLL (PT-R4), ``rock_n_roll=True``: the side re-rolls all the dice of an attack
  or capture once when the first roll falls short (no kill, no capture), the use that
  makes that outcome likeliest; :func:`with_rock_n_roll` is that choice over any roll.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
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
    "AttackOdds",
    "attack_odds",
    "attack_roll",
    "capture_result",
    "capture_roll",
    "interaction_result",
    "interaction_roll",
    "is_hit",
    "odds_table",
    "roll_dice",
    "threshold_success",
    "with_rock_n_roll",
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


@functools.cache
def attack_roll(dice: int, twos: bool) -> Dice:
    """An attack of ``dice`` dice (PT-C5) as a dice object: its outcome is the number of
    hits, each die read by :func:`is_hit` (5–6, or a 2 under effective twos)."""
    return D6.map(lambda die: int(is_hit(die, twos)), "hit").pool(dice)


def with_rock_n_roll(roll: Dice, enough: Callable[[int], bool], name: str) -> Dice:
    """``roll`` with ROCK'N'ROLL (PT-R4) spent on it when its outcome is not ``enough``:
    all the dice are rolled again, once, and the second outcome stands."""
    return roll.bind(lambda x: x if enough(x) else roll, name)


@dataclass(frozen=True, slots=True)
class AttackOdds:
    """The exact odds of one attack roll (PT-C5).

    Attributes:
        hits: the probability of each number of hits, from 0 to every die hitting.
        needed: the hits that kill the target now (its toughness less the hits it has
            taken).
        kill: the probability of at least ``needed`` hits.
    """

    hits: dict[int, Fraction]
    needed: int
    kill: Fraction


def attack_odds(
    dice: int,
    *,
    toughness: int = 1,
    damage: int = 0,
    effective_twos: bool = False,
    extra_dice: int = 0,
    rock_n_roll: bool = False,
) -> AttackOdds:
    """Exact odds of an attack: ``dice`` (the attacker's strength) plus ``extra_dice`` RD
    dice at a target of ``toughness`` that has taken ``damage`` hits (PT-C4, PT-C5).

    Args:
        dice: the attacker's strength in dice, 1 or more.
        toughness: the hits that kill the target (PT-C5).
        damage: the hits the target has already taken, fewer than ``toughness``.
        effective_twos: whether the attacker's 2s count as hits (PT-P9).
        extra_dice: RD dice poured into the roll (PT-C4), at most 8.
        rock_n_roll: ROCK'N'ROLL is spent when the first roll does not kill (PT-R4).

    Raises:
        ValueError: no dice, more than 8 extra dice, a toughness below 1, or damage
            outside 0 to toughness − 1 (a unit with that many hits is dead).
    """
    if dice < 1:
        raise ValueError(f"an attack rolls at least 1 die, got {dice}")
    if not 0 <= extra_dice <= 8:
        raise ValueError(f"extra dice: 0 to 8, got {extra_dice}")
    if toughness < 1:
        raise ValueError(f"toughness must be 1 or more, got {toughness}")
    if not 0 <= damage < toughness:
        span = "0" if toughness == 1 else f"0 to {toughness - 1}"
        raise ValueError(
            f"damage must be {span} at toughness {toughness} (a unit with {toughness} "
            f"hit{'s' if toughness > 1 else ''} is dead, PT-C5), got {damage}"
        )
    needed = toughness - damage
    roll = attack_roll(dice + extra_dice, effective_twos)
    if rock_n_roll:
        roll = with_rock_n_roll(roll, lambda hits: hits >= needed, "rock_n_roll")
    dist = roll.dist()
    hits = {k: dist.pmf(k) for k in range(dice + extra_dice + 1)}
    return AttackOdds(hits, needed, dist.prob_at_least(needed))


def odds_table(
    kind: str, *, effective_twos: bool = False, extra_dice: int = 0, rock_n_roll: bool = False
) -> dict[str, Fraction]:
    """Exact probabilities of ``"success"``, ``"backfire"`` and ``"nothing"``.

    Args:
        kind: ``capture``, ``torture``, ``execute`` or ``recruit``.
        effective_twos: whether the roller's 2s count as effective (PT-P9).
        extra_dice: RD dice added to a capture (PT-C4); interactions take none.
        rock_n_roll: a failed capture is re-rolled once with ROCK'N'ROLL (PT-R4);
            interactions take none.

    Raises:
        ValueError: an unknown kind, negative extra dice, or extra dice or ROCK'N'ROLL
            on an interaction (RD is never spent on prisoner interactions, PT-C4, and
            ROCK'N'ROLL re-rolls attacks and captures, PT-R4).
    """
    if kind not in KINDS:
        raise ValueError(f"unknown roll {kind!r} (kinds: {', '.join(KINDS)})")
    if extra_dice < 0:
        raise ValueError(f"extra dice must not be negative, got {extra_dice}")
    if kind != "capture" and extra_dice:
        raise ValueError(f"RD dice are never added to {kind} (PT-C4)")
    if kind != "capture" and rock_n_roll:
        raise ValueError(f"ROCK'N'ROLL re-rolls attacks and captures, not {kind} (PT-R4)")
    if extra_dice > 8:
        raise ValueError("at most 8 extra dice")
    if kind == "capture":
        roll = capture_roll(1 + extra_dice, effective_twos)
        if rock_n_roll:
            success = RESULTS.index("success")
            roll = with_rock_n_roll(roll, lambda x: x == success, "rock_n_roll")
    else:
        roll = interaction_roll(kind, effective_twos)
    dist = roll.dist()
    return {result: dist.pmf(i) for i, result in enumerate(RESULTS)}


# --------------------------------------------------------------------------- the odds queries


#: The caption's words for ROCK'N'ROLL spent on a roll that falls short (PT-R4).
_RNR_NOTE: Final = "ROCK'N'ROLL re-rolls all the dice once when the first roll {what} (PT-R4)"


def _roll(kind: str, effective_twos: bool, rd: int, rock_n_roll: bool = False) -> OddsAnswer:
    try:
        table = odds_table(
            kind, effective_twos=effective_twos, extra_dice=rd, rock_n_roll=rock_n_roll
        )
    except ValueError as exc:
        raise RulesError(str(exc)) from exc
    capture = kind == "capture"
    data = {
        "game": "rock-n-roll",
        "roll": kind,
        "effective_twos": effective_twos,
        "rd_dice": rd,
        **({"rock_n_roll": rock_n_roll} if capture else {}),
        **{k: fraction_text(p) for k, p in table.items()},
        "rules": (["PT-P2", "PT-C4"] + (["PT-R4"] if rock_n_roll else []))
        if capture
        else ["PT-P6", "PT-P9", "PT-P10"],
    }
    dice = f"1d6 + {rd} RD" if rd else "1d6"
    title = (
        f"Rock-n-Roll {kind}: {dice}"
        + (", 2s effective" if effective_twos else "")
        + (", ROCK'N'ROLL" if rock_n_roll else "")
    )
    out = Table(title=title, title_justify="left")
    for col in ("outcome", "probability", "%"):
        out.add_column(col, justify="right")
    for key in ("success", "backfire", "nothing"):
        out.add_row(key, fraction_text(table[key]), percent(table[key]))
    twos = " (or a natural 2: 2s effective, PT-P9)" if effective_twos else ""
    out.caption = (
        f"6+ on any die{twos} (PT-P2)"
        + ("; " + _RNR_NOTE.format(what="fails") if rock_n_roll else "")
        if capture
        else f"one die, no RD: {INTERACTIONS[kind]}+{twos}; a natural 3 backfires (PT-P6)"
        + ("" if effective_twos else "; 2s are effective after an execution (PT-P9)")
    )
    return OddsAnswer(data, out)


def _attack(
    dice: int, rd: int, toughness: int, damage: int, effective_twos: bool, rock_n_roll: bool
) -> OddsAnswer:
    try:
        odds = attack_odds(
            dice,
            toughness=toughness,
            damage=damage,
            effective_twos=effective_twos,
            extra_dice=rd,
            rock_n_roll=rock_n_roll,
        )
    except ValueError as exc:
        raise RulesError(str(exc)) from exc
    rules = ["PT-C4", "PT-C5"] + (["PT-P9"] if effective_twos else [])
    data = {
        "game": "rock-n-roll",
        "roll": "attack",
        "dice": dice,
        "rd_dice": rd,
        "toughness": toughness,
        "damage": damage,
        "effective_twos": effective_twos,
        "rock_n_roll": rock_n_roll,
        "hits": {str(k): fraction_text(p) for k, p in odds.hits.items()},
        "hits_needed": odds.needed,
        "kill": fraction_text(odds.kill),
        "rules": rules + (["PT-R4"] if rock_n_roll else []),
    }
    pool = f"{dice}d6 + {rd} RD" if rd else f"{dice}d6"
    title = (
        f"Rock-n-Roll attack: {pool} at toughness {toughness}"
        + (f" with {damage} hit{'s' if damage > 1 else ''} taken" if damage else "")
        + (", 2s effective" if effective_twos else "")
        + (", ROCK'N'ROLL" if rock_n_roll else "")
    )
    out = Table(title=title, title_justify="left")
    for col in ("hits", "probability", "%", "P(at least)", "% at least"):
        out.add_column(col, justify="right")
    at_least = Fraction(1)
    for k, p in odds.hits.items():
        out.add_row(
            str(k), fraction_text(p), percent(p), fraction_text(at_least), percent(at_least)
        )
        at_least -= p
    hit = "5 or 6, or a natural 2 (2s effective, PT-P9)" if effective_twos else "5 or 6"
    out.caption = (
        f"a hit on each die of {hit} (PT-C4); {odds.needed} hit"
        f"{'s' if odds.needed > 1 else ''} kill{'' if odds.needed > 1 else 's'} (PT-C5): "
        f"kill {fraction_text(odds.kill)} = {percent(odds.kill)}%"
        + ("; " + _RNR_NOTE.format(what="does not kill") if rock_n_roll else "")
    )
    return OddsAnswer(data, out)


_RNR_PARAM: Final = OddsParam(
    "rnr",
    bool,
    "ROCK'N'ROLL is still the side's this round (PT-R4) and re-rolls the dice once when "
    "they fall short.",
)

#: ``fogofwar odds rock-n-roll attack --dice N [--rd R] [--toughness T] [--damage D]``.
ATTACK: Final = OddsQuery(
    "attack",
    "Exact odds of an attack (5+ a hit on each die, PT-C5): hits and the chance of a kill.",
    (
        OddsParam(
            "dice",
            int,
            "The attacker's strength in dice (PT-C5).",
            required=True,
            minimum=1,
            maximum=12,
        ),
        OddsParam("rd", int, "RD dice poured in (PT-C4).", default=0, minimum=0, maximum=8),
        OddsParam(
            "toughness", int, "The target's toughness (PT-C5).", default=1, minimum=1, maximum=6
        ),
        OddsParam(
            "damage",
            int,
            "Hits the target has already taken (PT-C5).",
            default=0,
            minimum=0,
            maximum=5,
        ),
        OddsParam("effective_twos", bool, "The attacker's 2s are hits (PT-P9)."),
        _RNR_PARAM,
    ),
    lambda dice, rd, toughness, damage, effective_twos, rnr: _attack(
        dice, rd, toughness, damage, effective_twos, rnr
    ),
    ("PT-C4", "PT-C5", "PT-P9", "PT-R4"),
)


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
                    _RNR_PARAM,
                )
                if kind == "capture"
                else ()
            ),
        ),
        lambda effective_twos, rd=0, rnr=False: _roll(kind, effective_twos, rd, rnr),
        ("PT-P2", "PT-C4", "PT-R4") if kind == "capture" else ("PT-P6", "PT-P9", "PT-P10"),
    )


#: ``fogofwar odds rock-n-roll attack|capture|torture|execute|recruit ...``.
QUERIES: Final[tuple[OddsQuery, ...]] = (ATTACK, *(_query(k) for k in KINDS))
