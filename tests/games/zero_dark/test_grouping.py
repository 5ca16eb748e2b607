"""ZD-C1, the grouping test: the best split against an independent brute force over
subsets, the exact distribution against enumeration of every ordered roll, against
icepool, and against the kernel's plain enumeration of sorted rolls."""

from __future__ import annotations

import itertools
import json
from collections import Counter
from fractions import Fraction
from functools import cache

import icepool
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fogofwar.cli import main
from fogofwar.core.dice import d
from fogofwar.core.errors import RulesError
from fogofwar.games.zero_dark import grouping
from fogofwar.games.zero_dark.grouping import MAX_DICE, best_split, distribution, successes


@cache
def brute(dice: tuple[int, ...], tn: int) -> int:
    """The most groups by brute force: every subset holding the first die as its group,
    or the first die left out (a different method from the game's search)."""
    if not dice:
        return 0
    first, rest = dice[0], dice[1:]
    best = brute(rest, tn)  # the first die in no group
    n = len(rest)
    for mask in range(1 << n):
        chosen = [rest[i] for i in range(n) if mask >> i & 1]
        if first + sum(chosen) >= tn:
            left = tuple(rest[i] for i in range(n) if not mask >> i & 1)
            best = max(best, 1 + brute(left, tn))
    return best


def test_examples() -> None:
    # ZD-C1: A(16) with 12, 9, 7, 4, 3: 12+4 and 9+7 → 2 successes (3 left over).
    assert successes([12, 9, 7, 4, 3], 16) == 2
    split = best_split([12, 9, 7, 4, 3], 16)
    assert len(split) == 2 and all(sum(g) >= 16 for g in split)
    # A die reaching the TN alone is a group by itself.
    assert successes([12, 12, 1], 12) == 2
    # Nothing reaches: no success (a case where the rule gives nothing).
    assert successes([1, 2, 3], 16) == 0
    assert best_split([1, 2, 3], 16) == ()
    # The greedy "largest with smallest" split is not always best: 9+3 and 8+4 beat
    # 9+... here the search must find two pairs.
    assert successes([9, 8, 4, 3], 12) == 2
    assert successes([], 5) == 0


@settings(deadline=None, derandomize=True, max_examples=300)
@given(st.lists(st.integers(1, 12), min_size=0, max_size=9), st.integers(1, 40))
def test_best_split_equals_brute_force(dice: list[int], tn: int) -> None:
    # ZD-C1: the umpire finds the best split exactly.
    want = brute(tuple(sorted(dice, reverse=True)), tn)
    assert successes(dice, tn) == want
    groups = best_split(dice, tn)
    assert len(groups) == want
    assert all(sum(g) >= tn for g in groups)
    used = Counter(x for g in groups for x in g)
    assert not used - Counter(dice)  # the groups are made of the rolled dice, each once


def brute_distribution(n: int, tn: int) -> dict[int, Fraction]:
    counts: Counter[int] = Counter()
    for roll in itertools.product(range(1, 13), repeat=n):
        counts[brute(tuple(sorted(roll, reverse=True)), tn)] += 1
    top = max(counts)
    return {k: Fraction(counts[k], 12**n) for k in range(top + 1)}


@pytest.mark.parametrize(("n", "tn"), [(0, 5), (1, 12), (2, 12), (3, 7), (3, 16), (4, 12), (4, 20)])
def test_distribution_equals_every_ordered_roll(n: int, tn: int) -> None:
    # ZD-C1: the odds, against enumerating every ordered roll with the brute force.
    assert distribution(n, tn) == brute_distribution(n, tn)


@pytest.mark.parametrize(("n", "tn"), [(5, 10), (5, 20), (6, 16), (6, 30)])
def test_distribution_equals_icepool(n: int, tn: int) -> None:
    # icepool as an independent oracle: its pool of sorted rolls, mapped by the brute force.
    pool = icepool.d12.pool(n).expand()
    die = pool.map(lambda roll: brute(tuple(sorted(roll, reverse=True)), tn))
    want = {int(k): Fraction(die.quantity(k), die.denominator()) for k in die.outcomes()}
    got = {k: p for k, p in distribution(n, tn).items() if p}
    assert got == want


@pytest.mark.parametrize(("n", "tn"), [(8, 12), (8, 25), (7, 40)])
def test_distribution_equals_the_plain_enumeration(n: int, tn: int) -> None:
    # The numpy screening and the memoised search give what the kernel's plain
    # enumeration of sorted rolls gives with the exact solver on each.
    plain = d(12).pool(n).apply(lambda roll: successes(roll, tn)).dist()
    got = distribution(n, tn)
    assert {k: p for k, p in got.items() if p} == {k: plain[k] for k in plain}
    assert sum(got.values()) == 1


@pytest.mark.parametrize(("n", "tn"), [(5, 10), (6, 30)])
def test_distribution_in_chunks_equals_icepool(
    n: int, tn: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # 11-13 dice are screened a chunk of sorted rolls at a time (2.5 million rolls at
    # 13): chunks of 7 rolls add up to icepool's distribution, as one chunk does.
    monkeypatch.setattr(grouping, "_CHUNK", 7)
    grouping.distribution.cache_clear()
    try:
        pool = icepool.d12.pool(n).expand()
        die = pool.map(lambda roll: brute(tuple(sorted(roll, reverse=True)), tn))
        want = {int(k): Fraction(die.quantity(k), die.denominator()) for k in die.outcomes()}
        assert {k: p for k, p in distribution(n, tn).items() if p} == want
    finally:
        grouping.distribution.cache_clear()


def test_the_most_dice_a_test_rolls_have_odds() -> None:
    # ZD-C1 "for any (dice, TN)", an audit's finding: an ally of F 12 (the ``ally``
    # option's most, ZD-P5) shooting a targeted bogey (+1 die, ZD-C3) rolls 13 d12s,
    # where the odds stopped at 10. Cheap TNs of 11-13 dice: every die reaches TN 1
    # alone, and the sum of 11 dice never reaches 133.
    assert MAX_DICE == 13
    for n in (11, 13):
        dist = distribution(n, 1)
        assert dist[n] == 1 and list(dist) == list(range(n + 1))
    assert distribution(11, 133) == {0: Fraction(1)}


@pytest.mark.parametrize(
    ("a", "tier", "support"), [(3, "grunt", 0), (4, "elite", 2), (2, "boss", 1)]
)
def test_persuasion_odds_equal_icepool(a: int, tier: str, support: int) -> None:
    # ZD-P1: persuaded when the hero's A test (at the tier's CQB TN, ZD-C5) makes more
    # successes than the bogey's Att + support at TN 6. icepool's pools of sorted
    # rolls, each mapped by the brute-force split, compared.
    from fogofwar.games.zero_dark.odds import persuade_json
    from fogofwar.games.zero_dark.profiles import BOGEYS

    stats = BOGEYS[tier]

    def test(n: int, tn: int) -> icepool.Die[int]:
        return icepool.d12.pool(n).expand().map(lambda roll: brute(tuple(sorted(roll)[::-1]), tn))

    hero, bogey = test(a, stats.cqb_tn), test(stats.att + support, 6)
    data = persuade_json(a, tier, support)
    won = hero > bogey
    assert Fraction(data["persuaded"]) == Fraction(won.quantity(True), won.denominator())
    got = {int(k): Fraction(p) for k, p in data["bogey_successes"].items() if Fraction(p)}
    assert got == {int(k): Fraction(bogey.quantity(k), bogey.denominator()) for k in bogey}


def test_persuasion_odds_command(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["odds", "zero-dark", "persuade", "--a", "5", "--tier", "elite"])
    out = " ".join(capsys.readouterr().out.split())
    assert code == 0 and "against an elite with 2 support (6d12 at TN 6)" in out
    assert "persuaded" in out and "(ZD-P1" in out
    code = main(["odds", "zero-dark", "persuade", "--a", "5", "--tier", "grunt", "--support", "2"])
    assert code == 2 and "a grunt has 0 to 1 support tokens" in capsys.readouterr().err


def test_distribution_shape_and_errors() -> None:
    dist = distribution(10, 10)
    assert list(dist) == list(range(11)) and sum(dist.values()) == 1
    assert dist[10] == Fraction(3**10, 12**10)  # every die 10 or more
    with pytest.raises(RulesError):
        distribution(14, 10)
    with pytest.raises(RulesError):
        distribution(3, 0)
    with pytest.raises(RulesError):
        successes([13], 5)


def test_odds_command_json(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["odds", "zero-dark", "test", "--dice", "3", "--tn", "12", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and data["rules"] == ["ZD-C1"]
    assert data["successes"]["3"] == "1/1728"  # three 12s
    assert sum(Fraction(p) for p in data["successes"].values()) == 1
    assert data["at_least"]["0"] == "1"
    code = main(["odds", "zero-dark", "test", "--dice", "4", "--tn", "16"])
    out = capsys.readouterr().out
    assert code == 0 and "4d12 at TN 16" in out
    code = main(["odds", "zero-dark", "test", "--dice", "14", "--tn", "16"])
    assert code == 2 and "0 to 13 dice" in capsys.readouterr().err
