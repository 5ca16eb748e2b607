"""Exact odds (PT-P10, PT-P9, PT-C4): against brute-force enumeration and icepool."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import icepool
import pytest

from fogofwar.games.rock_n_roll.odds import INTERACTIONS, KINDS, odds_table


def brute(kind: str, twos: bool, extra: int) -> dict[str, Fraction]:
    # Written from the rules' text, independently of the module's functions.
    counts = {"success": 0, "backfire": 0, "nothing": 0}
    n = 1 + extra
    for dice in product(range(1, 7), repeat=n):
        if kind == "capture":
            ok = any(d == 6 or (twos and d == 2) for d in dice)
            counts["success" if ok else "nothing"] += 1
        else:
            d = dice[0]
            need = {"torture": 4, "execute": 5, "recruit": 6}[kind]
            if d >= need or (twos and d == 2):
                counts["success"] += 1
            elif d == 3:
                counts["backfire"] += 1
            else:
                counts["nothing"] += 1
    return {k: Fraction(v, 6**n) for k, v in counts.items()}


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("twos", [False, True])
def test_odds_match_brute_force(kind: str, twos: bool) -> None:
    # PT-P10: every outcome, with and without the effective-2s bonus (PT-P9).
    extras = range(4) if kind == "capture" else [0]
    for extra in extras:
        table = odds_table(kind, effective_twos=twos, extra_dice=extra)
        assert table == brute(kind, twos, extra)
        assert sum(table.values()) == 1


@pytest.mark.parametrize("twos", [False, True])
def test_capture_odds_match_icepool(twos: bool) -> None:
    # PT-C4: a capture with extra RD dice succeeds if any die does.
    die = icepool.d6.map(lambda x: 1 if x >= 6 or (twos and x == 2) else 0)
    for extra in range(4):
        want = (1 + extra) @ die
        got = odds_table("capture", effective_twos=twos, extra_dice=extra)
        assert got["success"] == want.probability(">=", 1)
        assert got["backfire"] == 0


@pytest.mark.parametrize("kind", sorted(INTERACTIONS))
@pytest.mark.parametrize("twos", [False, True])
def test_interaction_odds_match_icepool(kind: str, twos: bool) -> None:
    need = INTERACTIONS[kind]
    die = icepool.d6.map(
        lambda x: (
            "success" if x >= need or (twos and x == 2) else "backfire" if x == 3 else "nothing"
        )
    )
    got = odds_table(kind, effective_twos=twos)
    for outcome in ("success", "backfire", "nothing"):
        assert got[outcome] == die.probability(outcome)


def test_known_values() -> None:
    # PT-P6 thresholds: torture 4+, execute 5+, recruit 6+; exactly 3 backfires.
    assert odds_table("torture")["success"] == Fraction(1, 2)
    assert odds_table("execute")["success"] == Fraction(1, 3)
    assert odds_table("recruit")["success"] == Fraction(1, 6)
    assert odds_table("torture")["backfire"] == Fraction(1, 6)
    # PT-P9: the natural 2 also succeeds; 3 still backfires.
    assert odds_table("execute", effective_twos=True)["success"] == Fraction(1, 2)
    assert odds_table("execute", effective_twos=True)["backfire"] == Fraction(1, 6)
    assert odds_table("capture")["success"] == Fraction(1, 6)
    assert odds_table("capture", extra_dice=1)["success"] == Fraction(11, 36)


def test_bad_requests() -> None:
    # PT-C4: RD is never poured into prisoner interactions.
    with pytest.raises(ValueError, match="PT-C4"):
        odds_table("torture", extra_dice=1)
    with pytest.raises(ValueError, match="unknown roll"):
        odds_table("bribe")
    with pytest.raises(ValueError):
        odds_table("capture", extra_dice=-1)
