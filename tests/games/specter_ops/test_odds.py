"""``fogofwar odds specter-ops attack``: exact hit probabilities (SO-X1…X5) with the
characters' modifiers, against a brute-force sum over die sequences and against icepool.
"""

from __future__ import annotations

import json
from fractions import Fraction

import icepool
import pytest

from fogofwar.cli import main
from fogofwar.games.specter_ops.characters import AGENTS, HUNTERS
from fogofwar.games.specter_ops.odds import attack_json as specter_ops_attack_json

SIXTH = Fraction(1, 6)


def brute_single(distance: int, modifier: int) -> Fraction:
    """One attack die, summed over every sequence of faces: k sixes then a last face.

    SO-X1: a hit when the total plus the modifier reaches the distance; SO-X3/X5: a
    natural 1 on the first die misses; SO-X4: every 6 adds another die. Once the sixes
    alone reach the distance, every continuation hits, so the sum is finite.
    """
    need = distance - modifier
    total = Fraction(0)
    k = 0
    while True:
        prefix = SIXTH**k  # k sixes in a row
        if 6 * k >= need and k > 0:
            return total + prefix  # whatever follows, it hits
        for last in range(1, 6):  # the die that ends the chain (1-5)
            if k == 0 and last == 1:
                continue  # the first die's natural 1 misses (SO-X3)
            if 6 * k + last >= need:
                total += prefix * SIXTH
        k += 1


def brute(distance: int, hunter: str, agent: str) -> Fraction:
    if distance == 0:
        return Fraction(1)  # SO-X2
    modifier = HUNTERS[hunter].attack_bonus if hunter else 0
    if agent and distance <= AGENTS[agent].close_attack_range:
        modifier += AGENTS[agent].close_attack_modifier
    p = brute_single(distance, modifier)
    dice = HUNTERS[hunter].attack_dice if hunter else 1
    return 1 - (1 - p) ** dice  # the Gun keeps the better of two attacks


def with_icepool(distance: int, modifier: int) -> Fraction:
    """The same with icepool's exploding die, deep enough that the cut-off cannot matter
    (after that many sixes the total already reaches the distance)."""
    depth = max(1, (distance - modifier) // 6 + 1)
    die = icepool.d6.explode(depth=depth)
    hits = Fraction(die.probability(">=", distance - modifier))
    if 1 + modifier >= distance:
        hits -= SIXTH  # SO-X3: the first die's natural 1 would have "hit"
    return hits


CASES = [(h, a) for h in ("", *HUNTERS) for a in ("", *AGENTS)]


@pytest.mark.parametrize(("hunter", "agent"), CASES)
def test_attack_odds_equal_brute_force(hunter: str, agent: str) -> None:
    # SO-X1…X5 (and SO-X2 at distance 0) with every hunter and agent character.
    for distance in range(0, 20):
        got = Fraction(str(specter_ops_attack_json(distance, hunter=hunter, agent=agent)["hit"]))
        assert got == brute(distance, hunter, agent), (distance, hunter, agent)


@pytest.mark.parametrize("modifier", [-2, 0, 2])
def test_single_die_agrees_with_icepool(modifier: int) -> None:
    # SO-X1, SO-X3, SO-X4, SO-X5: icepool as an independent oracle of the exploding die.
    for distance in range(1, 20):
        assert brute_single(distance, modifier) == with_icepool(distance, modifier)
        hunter = {2: "prophet", 0: ""}.get(modifier)
        if hunter is not None:
            data = specter_ops_attack_json(distance, hunter=hunter)
            assert Fraction(str(data["hit"])) == with_icepool(distance, modifier)


def test_known_values() -> None:
    # SO-X1: 5/6 at distance 1 (a natural 1 misses, SO-X3); SO-X4: 1/6 at 6 and at 7
    # (a 6 then anything), 5/36 at 8; SO-X2: certain at 0.
    hit = {d: specter_ops_attack_json(d)["hit"] for d in (0, 1, 6, 7, 8)}
    assert hit == {0: "1", 1: "5/6", 6: "1/6", 7: "1/6", 8: "5/36"}
    # The Gun's best of two at 7: 1 - (5/6)^2.
    assert specter_ops_attack_json(7, hunter="gun")["hit"] == "11/36"
    # The Spider's -2 within 3 only.
    assert specter_ops_attack_json(3, agent="spider")["modifier"] == -2
    assert specter_ops_attack_json(4, agent="spider")["modifier"] == 0


def test_cli_json_and_table(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["odds", "specter-ops", "attack", "--distance", "7", "--hunter", "Gun", "--json"])
    out = capsys.readouterr().out
    assert code == 0
    data = json.loads(out)
    assert data["hit"] == "11/36" and data["miss"] == "25/36" and data["dice"] == 2
    code = main(["odds", "specter-ops", "attack", "--agent", "spider"])
    out = capsys.readouterr().out
    assert code == 0 and "distance" in out and "2/3" in out  # 1 square: needs 3+ with -2
    code = main(["odds", "specter-ops", "attack", "--json"])
    rows = json.loads(capsys.readouterr().out)
    assert [r["distance"] for r in rows] == list(range(13))


@pytest.mark.parametrize(
    "argv",
    [
        ["--hunter", "bob"],
        ["--agent", "gun"],
        ["--distance", "-1"],
        ["--distance", "606"],  # past 100 exploding dice: was a traceback
    ],
)
def test_cli_bad_input_is_one_line(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    code = main(["odds", "specter-ops", "attack", *argv])
    err = capsys.readouterr().err
    assert code == 2 and err.startswith("error:") and err.count("\n") == 1


def test_cobra_ambush_odds() -> None:
    # SO-H4, the Cobra: stunned for sure on its square, on a d6 of 4+ orthogonally next
    # to it, never elsewhere. Brute force over the faces, and icepool.
    from fogofwar.games.specter_ops.odds import ambush_json

    brute = Fraction(sum(1 for face in range(1, 7) if face >= 4), 6)
    assert Fraction(ambush_json("next")["stunned"]) == brute
    assert Fraction(ambush_json("next")["stunned"]) == icepool.d6.probability(">=", 4)
    assert ambush_json("on")["stunned"] == "1" and ambush_json("on")["expression"] is None
    assert ambush_json("other")["stunned"] == "0"
    assert ambush_json("next")["not_stunned"] == "1/2"


def test_cobra_ambush_odds_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", "specter-ops", "ambush", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [(r["place"], r["stunned"]) for r in rows] == [
        ("on", "1"),
        ("next", "1/2"),
        ("other", "0"),
    ]
    assert main(["odds", "specter-ops", "ambush", "--place", "NEXT"]) == 0
    out = capsys.readouterr().out
    assert "1/2" in out and "50.00" in out and "SO-H4" in out
    assert main(["odds", "specter-ops", "ambush", "--place", "diagonal"]) == 2
    assert "not one of on, next, other" in capsys.readouterr().err
