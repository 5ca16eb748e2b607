"""Exact odds (WF-A11): ability checks and the Actions to Breach a Door, against
brute force and icepool."""

from __future__ import annotations

import itertools
import json
from fractions import Fraction

import icepool
import pytest
from hypothesis import given
from hypothesis import strategies as st

from fogofwar.core.errors import RulesError
from fogofwar.games.warfighter.odds import (
    check_odds,
    check_result,
    door_odds,
    hostile_json,
    hostile_odds,
)

from .helpers import act, game, only, rig


def brute_check(need: int, modifier: int, upgunned: int | None, lacks: bool) -> Fraction:
    if lacks:
        return Fraction(0)
    target = need if upgunned is None else upgunned
    return Fraction(sum(face + modifier >= target for face in range(1, 11)), 10)


@given(
    need=st.integers(1, 11),
    modifier=st.integers(-5, 5),
    upgunned=st.one_of(st.none(), st.integers(1, 10)),
    lacks=st.booleans(),
)
def test_a11_check_odds_match_brute_force_and_icepool(
    need: int, modifier: int, upgunned: int | None, lacks: bool
) -> None:
    # WF-A11 (with WF-A2, A3, A7, A8): exact success chance of any check.
    p = check_odds(need, modifier=modifier, upgunned=upgunned, lacks_ability=lacks)
    assert p == brute_check(need, modifier, upgunned, lacks)
    if not lacks:
        target = need if upgunned is None else upgunned
        assert p == (icepool.d10 + modifier).probability(">=", target)


def test_a8_a_lacking_soldier_never_succeeds() -> None:
    # WF-A8: whatever the modifier, no roll and no success; a Trap reads a 1.
    assert check_odds(1, modifier=9, lacks_ability=True) == 0
    assert check_odds(1, modifier=9) == 1
    assert check_result(None, 1, 9) == (False, 1)
    assert check_result(1, 1, 9) == (True, 10)


def test_check_odds_refuse_bad_numbers() -> None:
    with pytest.raises(RulesError):
        check_odds(0)


def brute_door(
    cover: int, hits: int, shots: int, bound: int
) -> tuple[dict[int, Fraction], Fraction]:
    """Every sequence of bound x shots d10s, equally likely."""
    out: dict[int, Fraction] = {}
    total = 10 ** (bound * shots)
    counts: dict[int, int] = {}
    never = 0
    for rolls in itertools.product(range(1, 11), repeat=bound * shots):
        have = 0
        for n in range(bound):
            have += sum(r >= cover for r in rolls[n * shots : (n + 1) * shots])
            if have >= hits:
                counts[n + 1] = counts.get(n + 1, 0) + 1
                break
        else:
            never += 1
    for n, c in counts.items():
        out[n] = Fraction(c, total)
    return out, Fraction(never, total)


@pytest.mark.parametrize(
    ("cover", "hits", "shots", "bound"),
    [(5, 2, 1, 4), (9, 1, 2, 3), (7, 3, 2, 3), (11, 1, 1, 3), (1, 2, 3, 2)],
)
def test_door_attack_distribution_matches_brute_force(
    cover: int, hits: int, shots: int, bound: int
) -> None:
    # WF-D2, WF-D4: a d10 per shot at the Door's Cover, Breached at its Hits.
    got = door_odds(cover, hits, shots=shots, bound=bound)
    attack = got["attack"]
    assert isinstance(attack, dict)
    dist, tail = brute_door(cover, hits, shots, bound)
    assert attack["actions"] == dist and attack["tail"] == tail
    assert sum(dist.values()) + tail == 1


@given(
    cover=st.integers(1, 11),
    hits=st.integers(1, 5),
    shots=st.integers(1, 4),
    bound=st.integers(1, 12),
)
def test_door_attack_distribution_matches_icepool(
    cover: int, hits: int, shots: int, bound: int
) -> None:
    # P(breached by Action n) = P(the EKIAs of n Actions reach the Hits).
    attack = door_odds(cover, hits, shots=shots, bound=bound)["attack"]
    assert isinstance(attack, dict)
    ekia = icepool.Die([int(face >= cover) for face in range(1, 11)])
    cumulative = Fraction(0)
    for n in range(1, bound + 1):
        cumulative += attack["actions"].get(n, Fraction(0))
        reached = (n * shots) @ ekia
        assert cumulative == reached.probability(">=", hits)
    assert attack["tail"] == 1 - cumulative


def test_door_pick_distribution() -> None:
    # WF-D5: one Pick check per Action (Pick 5+ at -1: 5/10), tried again until it works;
    # upgunned (3+): 7/10 a try, two Actions each (WF-A7).
    got = door_odds(5, 2, pick=5, pick_modifier=-1, bound=4)
    pick = got["pick"]
    assert isinstance(pick, dict)
    half = Fraction(1, 2)
    assert pick["per_try"] == half
    assert pick["actions"] == {n: half**n for n in range(1, 5)}
    assert pick["tail"] == half**4
    up = door_odds(5, 2, pick=5, pick_modifier=-1, upgunned=3, bound=4)["pick"]
    assert isinstance(up, dict)
    p = Fraction(7, 10)
    assert up["actions"] == {2: p, 4: (1 - p) * p} and up["tail"] == (1 - p) ** 2
    assert door_odds(5, 2)["pick"] is None
    never = door_odds(5, 2, pick=11, pick_modifier=-1, bound=3)["pick"]
    assert isinstance(never, dict) and never["actions"] == {} and never["tail"] == 1


def test_json_forms_for_the_odds_command() -> None:
    # WF-A11: what `fogofwar odds warfighter check|door --json` prints.
    import json

    from fogofwar.games.warfighter.odds import check_json, door_json

    c = check_json(6, modifier=-1, upgunned=4)
    assert (c["success"], c["failure"]) == ("3/5", "2/5")
    assert check_json(6, lacks_ability=True)["success"] == "0"
    d = door_json(5, 2, shots=1, pick=5, pick_modifier=-1, bound=3)
    json.dumps(d)
    attack, picking = d["attack"], d["picking"]
    assert isinstance(attack, dict) and isinstance(picking, dict)
    assert attack["actions"] == {"2": "9/25", "3": "36/125"} and attack["at_most"]["3"] == "81/125"
    assert attack["tail"] == "44/125"
    assert picking["actions"] == {"1": "1/2", "2": "1/4", "3": "1/8"} and picking["tail"] == "1/8"
    assert door_json(5, 2)["picking"] is None


def test_c5_the_rules_and_the_odds_roll_the_same_die() -> None:
    # WF-C5: every roll is the dice object D10: drawing it draws exactly what
    # stream.die(10) draws (the same faces, in the same order), and the odds read its
    # exact distribution with the outcome functions the rules decide with.
    from fogofwar.core.rng import stream
    from fogofwar.games.warfighter.odds import ekia_chance
    from fogofwar.games.warfighter.rolls import D10, FACES, reaches

    a, b = stream(3, "d10"), stream(3, "d10")
    assert [D10.sample(a) for _ in range(200)] == [b.die(10) for _ in range(200)]
    assert dict(FACES) == {face: Fraction(1, 10) for face in range(1, 11)}
    for cover in range(1, 12):
        assert ekia_chance(cover) == D10.dist().prob_at_least(cover)
        assert all(reaches(face, cover) is (face >= cover) for face, _ in FACES)


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        # WF-A7: an upgunned number is below the one it upguns (7+ "upgunned" from 5+).
        ("check --need 5 --upgunned 7", "--upgunned 7: an upgunned number is below"),
        ("door --cover 5 --hits 1 --pick 6 --upgunned 6", "below the number it upguns"),
        # The data files' ranges (docs/warfighter.md): a d10's N+ 1-11, a modifier ±10.
        ("check --need 12", "--need: 12 is above 11"),
        ("check --need 5 --modifier 12", "--modifier: 12 is above 10"),
        ("door --cover 0 --hits 1", "--cover: 0 is below 1"),
        # A pick's modifier without a pick was dropped without a word.
        ("door --cover 5 --hits 1 --pick-modifier 3", "give --pick too"),
    ],
)
def test_the_odds_command_refuses_what_no_soldier_or_door_has(
    argv: str, said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from fogofwar.cli import main

    assert main(["odds", "warfighter", *argv.split()]) == 2
    assert said in capsys.readouterr().err


@given(cover=st.integers(1, 11), hostiles=st.integers(0, 5), wounds=st.integers(0, 2))
def test_c7_hostile_turn_odds_match_brute_force_and_icepool(
    cover: int, hostiles: int, wounds: int
) -> None:
    # WF-C7: each Hostile attacking the Soldier rolls a d10 that wounds on reaching its
    # Cover; a Soldier is out at 3 wounds, and an out Soldier is attacked no more (the
    # count stops there). Every combination of faces, played in order.
    got = hostile_odds(cover, hostiles=hostiles, wounds=wounds)
    counts: dict[int, int] = {}
    for faces in itertools.product(range(1, 11), repeat=hostiles):
        taken = 0
        for face in faces:
            if wounds + taken >= 3:
                break
            taken += face >= cover
        counts[taken] = counts.get(taken, 0) + 1
    most = min(hostiles, 3 - wounds)
    assert got == {k: Fraction(counts.get(k, 0), 10**hostiles) for k in range(most + 1)}
    hits = hostiles @ icepool.Die([int(face >= cover) for face in range(1, 11)])
    for k, p in got.items():
        assert p == (hits.probability(k) if k < most else hits.probability(">=", most))
    data = hostile_json(cover, hostiles=hostiles, wounds=wounds)
    assert Fraction(str(data["out"])) == hits.probability(">=", 3 - wounds)


def test_c7_hostile_odds_match_the_hostile_turn_played() -> None:
    # WF-C7, an audit's finding: the odds listed wounds past the one that puts a Soldier
    # out, which the hostile turn never deals (an out Soldier is attacked no more). The
    # rules' own hostile turn: Able (Cover 6, 1 wound) alone with three Grunts, Baker
    # elsewhere; every pattern of hits and misses, weighed by its chance, against the odds.
    p = Fraction(1, 2)  # a d10 reaching 6
    played: dict[int, Fraction] = {}
    for pattern in itertools.product((True, False), repeat=3):
        g = game(
            "location Nest\n  hostiles: Grunt, Grunt, Grunt\n", squad="Able, Baker", deck="Nest"
        )
        act(g, "move S1 L2")
        able = g.soldiers["S1"]
        able.wounds = 1
        faces = [10 if hit else 1 for hit in pattern]
        rig(g, hostile_attack=faces)
        attacks = only(act(g, "end"), "hostile_attack")
        taken = able.wounds - 1
        # The attacks after the one that put Able out (its second wound) are never rolled.
        hits = [i for i, hit in enumerate(pattern) if hit]
        assert len(attacks) == (hits[1] + 1 if len(hits) >= 2 else 3)
        assert able.out == (len(hits) >= 2)
        weight = Fraction(1)
        for hit in pattern:
            weight *= p if hit else 1 - p
        played[taken] = played.get(taken, Fraction(0)) + weight
    assert (
        played
        == hostile_odds(6, hostiles=3, wounds=1)
        == {
            0: Fraction(1, 8),
            1: Fraction(3, 8),
            2: Fraction(1, 2),
        }
    )


def test_the_hostile_odds_command(capsys: pytest.CaptureFixture[str]) -> None:
    # A designer's QA: the hostile turn's d10 against Cover had no odds command.
    from fogofwar.cli import main

    assert main(["odds", "warfighter", "hostile", "--cover", "7", "--hostiles", "3"]) == 0
    assert "27/125" in capsys.readouterr().out
    argv = ["odds", "warfighter", "hostile", "--cover", "7", "--hostiles", "3", "--wounds", "1"]
    assert main([*argv, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    # With one wound, a second wound puts it out: no third is dealt (WF-C7).
    assert data["wounds_taken"] == {"0": "27/125", "1": "54/125", "2": "44/125"}
    assert data["out"] == "44/125" and data["per_attack"] == "2/5"
    assert main(["odds", "warfighter", "hostile", "--cover", "7", "--wounds", "3"]) == 2
    assert "--wounds: 3 is above 2" in capsys.readouterr().err
