"""``fogofwar odds rock-n-roll`` and ``fogofwar odds warfighter``: the commands print the
rule sets' exact odds (the functions are checked against brute force and icepool in the
games' own tests)."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from fogofwar.games.rock_n_roll.odds import odds_table
from fogofwar.games.warfighter.odds import check_odds, door_odds

from .test_cli import run


@pytest.mark.parametrize("roll", ["capture", "torture", "execute", "recruit"])
@pytest.mark.parametrize("twos", [False, True])
def test_rock_n_roll_json(capsys: pytest.CaptureFixture[str], roll: str, twos: bool) -> None:
    # PT-P10: exact success / backfire (a natural 3, PT-P6) / nothing, with and without
    # the effective 2s of PT-P9.
    argv = ["odds", "rock-n-roll", roll, "--json"] + (["--effective-twos"] if twos else [])
    code, out, _ = run(capsys, *argv)
    data = json.loads(out)
    want = odds_table(roll, effective_twos=twos)
    assert code == 0 and {k: Fraction(data[k]) for k in want} == want
    assert sum(Fraction(data[k]) for k in ("success", "backfire", "nothing")) == 1


def test_rock_n_roll_values_and_rd(capsys: pytest.CaptureFixture[str]) -> None:
    # PT-P6: execute 5+, backfire on exactly 3; PT-P9 adds the 2; PT-C4: RD dice only on
    # a capture, which succeeds if any die shows 6.
    _, out, _ = run(capsys, "odds", "rock-n-roll", "execute", "--json")
    data = json.loads(out)
    assert (data["success"], data["backfire"], data["nothing"]) == ("1/3", "1/6", "1/2")
    _, out, _ = run(capsys, "odds", "rock-n-roll", "execute", "--effective-twos", "--json")
    assert json.loads(out)["success"] == "1/2"
    _, out, _ = run(capsys, "odds", "rock-n-roll", "capture", "--rd", "2", "--json")
    assert Fraction(json.loads(out)["success"]) == 1 - Fraction(5, 6) ** 3
    # Not offered where it never applies: an interaction is one die (PT-C4).
    code, _, err = run(capsys, "odds", "rock-n-roll", "torture", "--rd", "1")
    assert code == 2 and "No such option: --rd" in err
    code, _, err = run(capsys, "odds", "rock-n-roll", "bribe")
    assert code == 2 and "attack, capture, torture, execute, recruit" in err


def test_rock_n_roll_table(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "odds", "rock-n-roll", "recruit")
    assert code == 0 and "backfire" in out and "1/6" in out and "PT-P6" in out


def test_warfighter_check(capsys: pytest.CaptureFixture[str]) -> None:
    # WF-A2/A3/A7: d10 against N+ with a modifier, or the upgunned value; WF-A8: a Soldier
    # lacking the ability never succeeds.
    code, out, _ = run(capsys, "odds", "warfighter", "check", "--need", "7", "--json")
    assert code == 0 and Fraction(json.loads(out)["success"]) == check_odds(7)
    _, out, _ = run(
        capsys, "odds", "warfighter", "check", "--need", "7", "--modifier", "-1", "--json"
    )
    assert Fraction(json.loads(out)["success"]) == check_odds(7, modifier=-1)
    _, out, _ = run(
        capsys, "odds", "warfighter", "check", "--need", "6", "--upgunned", "4", "--json"
    )
    assert Fraction(json.loads(out)["success"]) == check_odds(6, upgunned=4)
    _, out, _ = run(
        capsys, "odds", "warfighter", "check", "--need", "2", "--lacks-ability", "--json"
    )
    assert json.loads(out)["success"] == "0"
    code, out, _ = run(capsys, "odds", "warfighter", "check", "--need", "7")
    assert code == 0 and "success" in out and "%" in out
    code, _, err = run(capsys, "odds", "warfighter", "check", "--need", "0")
    assert code == 2 and err.startswith("error:")


def test_warfighter_door(capsys: pytest.CaptureFixture[str]) -> None:
    # WF-D*: the Actions to breach by attacking (EKIAs against the Cover until the Hits)
    # and by picking; beyond the bound one tail figure; each side sums to 1.
    argv = ["odds", "warfighter", "door", "--cover", "7", "--hits", "2", "--shots", "2"]
    code, out, _ = run(capsys, *argv, "--pick", "6", "--bound", "5", "--json")
    data = json.loads(out)
    raw = door_odds(7, 2, shots=2, pick=6, bound=5)
    assert code == 0
    for key, part in (("attack", raw["attack"]), ("picking", raw["pick"])):
        got = data[key]
        assert isinstance(part, dict)
        assert {int(n): Fraction(p) for n, p in got["actions"].items()} == part["actions"]
        total = sum(Fraction(p) for p in got["actions"].values()) + Fraction(got["tail"])
        assert total == 1
    code, out, _ = run(capsys, *argv, "--bound", "4")
    assert code == 0 and "more than 4 Actions" in out and "picking" not in out


def test_warfighter_door_upgunned_pick(capsys: pytest.CaptureFixture[str]) -> None:
    # WF-A7, WF-A11: an upgunned pick uses the bracketed number and costs two Actions a
    # try, so a breach by picking ends only on even Actions.
    argv = ["odds", "warfighter", "door", "--cover", "7", "--hits", "2", "--pick", "6"]
    code, out, _ = run(capsys, *argv, "--upgunned", "4", "--bound", "6", "--json")
    picking = json.loads(out)["picking"]
    raw = door_odds(7, 2, pick=6, upgunned=4, bound=6)["pick"]
    assert isinstance(raw, dict) and code == 0
    assert {int(n): Fraction(p) for n, p in picking["actions"].items()} == raw["actions"]
    assert set(picking["actions"]) == {"2", "4", "6"} and picking["actions"]["2"] == "7/10"
    code, _, err = run(
        capsys, "odds", "warfighter", "door", "--cover", "7", "--hits", "2", "--upgunned", "4"
    )
    assert code == 2 and "--pick" in err


def test_rock_n_roll_attack(capsys: pytest.CaptureFixture[str]) -> None:
    # PT-C5: a Ranger team (3 dice) and 1 RD die at a Zulu (toughness 2); PT-R4 re-rolls.
    argv = ["odds", "rock-n-roll", "attack", "--dice", "3", "--rd", "1", "--toughness", "2"]
    code, out, _ = run(capsys, *argv, "--json")
    data = json.loads(out)
    assert code == 0 and data["hits_needed"] == 2
    assert Fraction(data["kill"]) == 1 - Fraction(2, 3) ** 4 - 4 * Fraction(2, 3) ** 3 / 3
    assert sum(Fraction(p) for p in data["hits"].values()) == 1
    code, out, _ = run(capsys, *argv, "--rnr", "--json")
    once = 1 - Fraction(2, 3) ** 4 - 4 * Fraction(2, 3) ** 3 / 3
    assert Fraction(json.loads(out)["kill"]) == 1 - (1 - once) ** 2
    assert "PT-R4" in json.loads(out)["rules"]
    code, out, _ = run(capsys, *argv)
    assert code == 0 and "kill" in out and "P(at least)" in out
    code, _, err = run(capsys, "odds", "rock-n-roll", "attack", "--dice", "2", "--damage", "1")
    assert code == 2 and "damage must be 0 at toughness 1 (a unit with 1 hit is dead" in err
    code, _, err = run(capsys, "odds", "rock-n-roll", "attack")
    assert code == 2 and "--dice" in err
    # A capture's re-roll (PT-R4): 1 - (5/6)^2.
    code, out, _ = run(capsys, "odds", "rock-n-roll", "capture", "--rnr", "--json")
    assert Fraction(json.loads(out)["success"]) == 1 - Fraction(5, 6) ** 2
