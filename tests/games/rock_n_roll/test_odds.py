"""Exact odds (PT-P10, PT-P9, PT-C4): against brute-force enumeration and icepool."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import icepool
import pytest

from fogofwar.games.rock_n_roll.odds import INTERACTIONS, KINDS, attack_odds, odds_table


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


# --------------------------------------------------------------------------- attacks


def brute_attack(
    dice: int, toughness: int, damage: int, twos: bool, rnr: bool
) -> tuple[dict[int, Fraction], Fraction]:
    # Written from the rules' text: each die of 5 or 6 (or a 2 when 2s are effective) is
    # a hit (PT-C4, PT-P9); the target dies at its toughness in hits (PT-C5); with
    # ROCK'N'ROLL a roll that does not kill is rolled again, all its dice (PT-R4).
    def hits(roll: tuple[int, ...]) -> int:
        return sum(1 for d in roll if d >= 5 or (twos and d == 2))

    rolls = list(product(range(1, 7), repeat=dice))
    counts = {k: 0 for k in range(dice + 1)}
    weight = 6**dice
    for first in rolls:
        h = hits(first)
        if rnr and damage + h < toughness:
            for second in rolls:
                counts[hits(second)] += 1
        else:
            counts[h] += weight if rnr else 1
    total = weight * weight if rnr else weight
    dist = {k: Fraction(c, total) for k, c in counts.items()}
    return dist, sum((p for k, p in dist.items() if damage + k >= toughness), Fraction(0))


@pytest.mark.parametrize("twos", [False, True])
@pytest.mark.parametrize("rnr", [False, True])
def test_attack_odds_match_brute_force(twos: bool, rnr: bool) -> None:
    # PT-C4, PT-C5, PT-P9, PT-R4: strength plus RD dice, every toughness and damage.
    for dice in range(1, 5):
        for extra in range(3 if dice <= 2 else 1):
            for toughness in range(1, 4):
                for damage in range(toughness):
                    got = attack_odds(
                        dice,
                        toughness=toughness,
                        damage=damage,
                        effective_twos=twos,
                        extra_dice=extra,
                        rock_n_roll=rnr,
                    )
                    want, kill = brute_attack(dice + extra, toughness, damage, twos, rnr)
                    assert got.hits == want
                    assert got.kill == kill
                    assert got.needed == toughness - damage


@pytest.mark.parametrize("twos", [False, True])
def test_attack_odds_match_icepool(twos: bool) -> None:
    # PT-C5: hits are a count of effective dice; ROCK'N'ROLL (PT-R4) as icepool's own
    # re-roll of a pool that falls short.
    hit = icepool.d6.map(lambda x: 1 if x >= 5 or (twos and x == 2) else 0)
    for dice in (1, 3, 6, 11):
        pool = dice @ hit
        for needed in (1, 2, 3):
            plain = attack_odds(dice, toughness=needed, effective_twos=twos)
            assert plain.hits == {k: pool.probability(k) for k in range(dice + 1)}
            assert plain.kill == pool.probability(">=", needed)
            if needed > dice:
                continue  # every roll falls short: icepool refuses to re-roll them all
            again = pool.reroll(lambda h, n=needed: h < n, depth=1)
            rerolled = attack_odds(dice, toughness=needed, effective_twos=twos, rock_n_roll=True)
            assert rerolled.hits == {k: again.probability(k) for k in range(dice + 1)}
            assert rerolled.kill == again.probability(">=", needed)


def test_attack_known_values_and_refusals() -> None:
    # PT-C5: a Rifle squad (2 dice) at toughness 1: 1 - (2/3)^2 = 5/9.
    assert attack_odds(2).kill == Fraction(5, 9)
    # PT-R4: with the re-roll, 1 - (4/9)^2.
    assert attack_odds(2, rock_n_roll=True).kill == 1 - Fraction(4, 9) ** 2
    # An Armoured car (3 dice) at a Zulu that took 1 hit needs 1 more.
    assert attack_odds(3, toughness=2, damage=1).kill == 1 - Fraction(8, 27)
    with pytest.raises(ValueError, match="PT-C5"):
        attack_odds(2, toughness=2, damage=2)
    with pytest.raises(ValueError, match="at least 1 die"):
        attack_odds(0)
    with pytest.raises(ValueError, match="extra dice"):
        attack_odds(2, extra_dice=9)


@pytest.mark.parametrize("twos", [False, True])
def test_capture_with_rock_n_roll(twos: bool) -> None:
    # PT-R4: a failed capture is rolled again, all its dice, once.
    for extra in range(3):
        once = brute("capture", twos, extra)["success"]
        got = odds_table("capture", effective_twos=twos, extra_dice=extra, rock_n_roll=True)
        assert got["success"] == 1 - (1 - once) ** 2
        assert got["backfire"] == 0
    # Prisoner interactions are not re-rolled.
    with pytest.raises(ValueError, match="PT-R4"):
        odds_table("torture", rock_n_roll=True)
