"""Ability checks, WF-A1…A11."""

from __future__ import annotations

import pytest

from fogofwar.core.errors import BadDataError, IllegalActionError
from fogofwar.games.warfighter.cardfile import parse_cards
from fogofwar.games.warfighter.odds import check_odds, check_result

from .helpers import RS, act, game, kinds, legal, only, rig


def lab(check: str, *headings: str, hostiles: str = "") -> str:
    lines = ["location Lab"]
    if hostiles:
        lines.append(f"  hostiles: {hostiles}")
    lines.append(f"  check: {check}")
    lines += [f"  {h}" for h in headings]
    return "\n".join(lines) + "\n"


def test_a1_abilities_are_keyword_number_plus() -> None:
    # WF-A1: a keyword followed by a number and '+' is an ability.
    lib = parse_cards(
        "weapon W\n  shots: 1\nsoldier X\n  abilities: Pick 7+, Medic 6+[4+]\n  weapon: W\n"
    )
    x = lib.soldiers["X"]
    assert [(a.keyword, a.need, a.upgunned) for a in x.abilities] == [
        ("Pick", 7, None),
        ("Medic", 6, 4),
    ]
    # Without the '+' it is no ability: the file is refused, naming the line.
    with pytest.raises(BadDataError) as err:
        parse_cards("weapon W\n  shots: 1\nsoldier X\n  abilities: Pick 7\n  weapon: W\n")
    assert err.value.line == 4 and "Pick 7+" in str(err.value)


@pytest.mark.parametrize(("natural", "success"), [(6, True), (10, True), (5, False), (1, False)])
def test_a2_a_d10_at_least_the_number(natural: int, success: bool) -> None:
    # WF-A2: the check succeeds when the roll is at least the Soldier's number (Search 6+).
    g = game(lab("Search", "success: actions +1"), deck="Lab")
    act(g, "move S1 L2")
    rig(g, check=[natural])
    [check] = only(act(g, "check S1 K1"), "check")
    assert (check["natural"], check["target"], check["success"]) == (natural, 6, success)
    assert g.soldiers["S1"].actions == (1 if success else 0)


@pytest.mark.parametrize(
    ("modifier", "natural", "success"),
    [("+1", 5, True), ("+1", 4, False), ("-2", 7, False), ("-2", 8, True)],
)
def test_a3_modifiers_add_to_the_roll(modifier: str, natural: int, success: bool) -> None:
    # WF-A3: '+X' adds to the roll, '-X' subtracts.
    g = game(lab(f"Search {modifier}", "success: actions +1"), deck="Lab")
    act(g, "move S1 L2")
    rig(g, check=[natural])
    [check] = only(act(g, "check S1 K1"), "check")
    assert check["roll"] == natural + int(modifier) and check["success"] is success


@pytest.mark.parametrize(("natural", "wounds", "actions"), [(8, 0, 2), (3, 1, 1)])
def test_a4_success_and_fail_headings(natural: int, wounds: int, actions: int) -> None:
    # WF-A4: the Success heading on success, the Fail heading on failure (Baker: Swim 6+,
    # rolled on entering, WF-A9).
    g = game(lab("Swim", "success: actions +1", "fail: wound 1"), squad="Baker", deck="Lab")
    rig(g, check=[natural])
    events = act(g, "move S1 L2")
    [check] = only(events, "check")
    assert check["heading"] == ("success" if natural >= 6 else "fail")
    assert g.soldiers["S1"].wounds == wounds and g.soldiers["S1"].actions == actions


@pytest.mark.parametrize(("natural", "actions"), [(9, 3), (2, 1)])
def test_a4_text_under_no_heading_only_on_success(natural: int, actions: int) -> None:
    # WF-A4: with neither heading, the text is executed only on success.
    g = game(lab("Search", "text: actions +2"), deck="Lab")
    act(g, "move S1 L2")
    rig(g, check=[natural])
    [check] = only(act(g, "check S1 K1"), "check")
    assert check["heading"] == ("text" if natural >= 6 else None)
    assert g.soldiers["S1"].actions == actions - 1 + 0  # the check cost its Action
    assert not g.checks["K1"].card.is_fail_check


def test_a5_success_checks_by_a_soldier_on_the_location_for_an_action() -> None:
    # WF-A5: a Success check may be attempted by a Soldier on the Location, for an Action.
    g = game(lab("Search", "success: suppress", hostiles="Grunt"), squad="Able, Charlie",
             deck="Lab")  # fmt: skip
    act(g, "move S1 L2")
    assert "check S1 K1" in legal(g)
    with pytest.raises(IllegalActionError) as err:
        act(g, "check S2 K1")  # Charlie is still in camp (and lacks Search)
    assert err.value.rule == "WF-A5"
    rig(g, check=[2])
    act(g, "check S1 K1")
    assert g.soldiers["S1"].actions == 0 and g.checks["K1"].attempts == 1
    assert "check S1 K1" not in legal(g)  # no Action left


def test_a6_a_fail_check_is_rolled_only_once() -> None:
    # WF-A6: a Location's Fail check, once rolled, is not rolled for later Soldiers.
    g = game(lab("Swim", "fail: wound 1"), deck="Lab")
    rig(g, check=[1])
    first = act(g, "move S2 L2")
    assert len(only(first, "check")) == 1 and g.checks["K1"].rolled
    second = act(g, "move S1 L2")
    assert not only(second, "check") and g.soldiers["S1"].wounds == 0
    with pytest.raises(IllegalActionError) as err:
        act(g, "check S1 K1")
    assert err.value.rule == "WF-A6"


def test_a6_a_success_is_gained_only_once() -> None:
    # WF-A6: a Success check, once succeeded, is spent; a failed one may be tried again.
    g = game(lab("Search", "success: actions +1"), squad="Charlie, Able", deck="Lab")
    act(g, "move S2 L2")
    rig(g, check=[3, 9])
    act(g, "check S2 K1")
    assert not g.checks["K1"].spent and g.soldiers["S2"].actions == 0
    g.soldiers["S2"].actions = 2
    act(g, "check S2 K1")
    assert g.checks["K1"].spent and g.checks["K1"].attempts == 2
    assert "check S2 K1" not in legal(g)
    with pytest.raises(IllegalActionError) as err:
        act(g, "check S2 K1")
    assert err.value.rule == "WF-A6"


@pytest.mark.parametrize(("up", "success", "left"), [(True, True, 0), (False, False, 1)])
def test_a7_upgunned_checks(up: bool, success: bool, left: int) -> None:
    # WF-A7: the bracketed number may be used (Able: Pick 5+[3+]) for one more Action.
    g = game(lab("Pick", "success: suppress", hostiles="Grunt"), deck="Lab")
    g.soldiers["S1"].actions = 3
    act(g, "move S1 L2")
    rig(g, check=[4])
    [check] = only(act(g, "check S1 K1" + (" up" if up else "")), "check")
    assert (check["target"], check["upgunned"], check["success"]) == (3 if up else 5, up, success)
    assert g.soldiers["S1"].actions == left


def test_a7_upgunning_needs_brackets_an_allowing_card_and_an_action() -> None:
    # WF-A7: not without a bracketed number, not where the card says so, not without
    # the extra Action.
    g = game(lab("Search", "success: suppress", hostiles="Grunt"), deck="Lab")
    act(g, "move S1 L2")
    with pytest.raises(IllegalActionError) as err:
        act(g, "check S1 K1 up")  # Search 6+ has no bracketed number
    assert err.value.rule == "WF-A7"
    g2 = game(lab("Pick no-upgun", "success: suppress", hostiles="Grunt"), deck="Lab")
    g2.soldiers["S1"].actions = 3
    act(g2, "move S1 L2")
    assert "check S1 K1" in legal(g2) and "check S1 K1 up" not in legal(g2)
    with pytest.raises(IllegalActionError) as err:
        act(g2, "check S1 K1 up")
    assert err.value.rule == "WF-A7"
    g3 = game(lab("Pick", "success: suppress", hostiles="Grunt"), deck="Lab")
    act(g3, "move S1 L2")  # one Action left: no upgunning
    with pytest.raises(IllegalActionError) as err:
        act(g3, "check S1 K1 up")
    assert err.value.rule == "WF-A7"


def test_a7_a_fail_check_on_entering_may_be_upgunned() -> None:
    # WF-A7 (R): a forced Fail check may be upgunned with an Action left: the player
    # chooses before the roll.
    g = game(lab("Pick", "fail: wound 1"), deck="Lab")
    act(g, "move S1 L2")
    assert g.phase == "roll" and legal(g) == {"roll S1 K1", "roll S1 K1 up"}
    rig(g, check=[3])
    [check] = only(act(g, "roll S1 K1 up"), "check")
    assert check["success"] and check["target"] == 3 and g.soldiers["S1"].actions == 0
    assert check["rule"] == "WF-A9"


@pytest.mark.parametrize(
    ("action", "rule", "words"),
    [
        ("roll S2 K1 up", "WF-A9", "S1 entered the Location: S1 rolls"),
        ("roll S2 K1", "WF-A9", "S1 entered the Location: S1 rolls"),
        ("roll S9 K1 up", "WF-C1", "roll names a Soldier: S1, S2"),
    ],
)
def test_a9_a_roll_by_another_soldier_is_refused_for_who_rolls(
    action: str, rule: str, words: str
) -> None:
    # WF-A9: the Soldier who entered rolls (Able, whose Pick 5+[3+] may be upgunned).
    # Asked of another Soldier, upgunned (WF-A7) or not, the refusal names who rolls.
    g = game(lab("Pick", "fail: wound 1"), squad="Able, Baker", deck="Lab")
    act(g, "move S1 L2")
    assert g.phase == "roll"
    with pytest.raises(IllegalActionError) as err:
        act(g, action)
    assert err.value.rule == rule and words in str(err.value)
    assert g.phase == "roll" and g.soldiers["S2"].actions == 2


def test_a7_a_roll_upgunned_says_what_it_lacks() -> None:
    # WF-A7: a Soldier who may roll the Siren's Swim check (WF-A10) but not upgunned
    # is told why; WF-A8: one without the ability makes no roll, so none to upgun.
    g = game(lab("Search", "success: add Siren"), squad="Able, Baker", deck="Lab")
    act(g, "move S1 L2; move S2 L2")
    rig(g, check=[9])
    act(g, "check S1 K1")
    assert g.phase == "roll" and legal(g) == {"roll S1 K2", "roll S2 K2"}
    with pytest.raises(IllegalActionError) as err:
        act(g, "roll S2 K2 up")  # Baker: Swim 6+
    assert err.value.rule == "WF-A7" and "S2's Swim has no upgunned number" in str(err.value)
    with pytest.raises(IllegalActionError) as err:
        act(g, "roll S1 K2 up")  # Able lacks Swim
    assert err.value.rule == "WF-A8" and "no roll is made" in str(err.value)
    assert g.phase == "roll"


def test_a8_only_soldiers_with_the_ability_perform_it() -> None:
    # WF-A8: a Soldier lacking the ability may not attempt the check.
    g = game(lab("Swim", "success: suppress", hostiles="Grunt"), deck="Lab")
    act(g, "move S1 L2; move S2 L2")
    assert "check S2 K1" in legal(g) and "check S1 K1" not in legal(g)
    with pytest.raises(IllegalActionError) as err:
        act(g, "check S1 K1")
    assert err.value.rule == "WF-A8"


def test_a8_a_lacking_soldier_fails_without_a_roll() -> None:
    # WF-A8: no roll is made; the Fail heading is executed.
    g = game(lab("Swim", "fail: wound 1"), deck="Lab")
    events = act(g, "move S1 L2")  # Able lacks Swim
    [check] = only(events, "check")
    assert check["lacks"] and check["natural"] is None and not check["success"]
    assert check["rule"] == "WF-A8" and g.soldiers["S1"].wounds == 1


@pytest.mark.parametrize(("squad", "natural", "wounds"), [("Able", None, 2), ("Baker", 1, 0)])
def test_a8_a_trap_reads_a_natural_one(squad: str, natural: int | None, wounds: int) -> None:
    # WF-A8: for a lacking Soldier a Trap reads the roll as a 1 nothing increases (not
    # even the check's +3): wound 3-roll gives 2 wounds. Baker, with Swim, rolls.
    g = game(lab("Swim +3", "trap: wound 3-roll"), squad=squad, deck="Lab")
    if natural is not None:
        rig(g, check=[natural])
    [check] = only(act(g, "move S1 L2"), "check")
    assert check["heading"] == "trap" and not check["success"]
    assert check["reading"] == (1 if natural is None else natural + 3)
    # No roll is made for the lacking Soldier: the event says so (WF-A8).
    assert check["roll"] == (None if natural is None else natural + 3)
    assert check["treated_as"] == (1 if natural is None else None)
    assert g.soldiers["S1"].wounds == wounds


@pytest.mark.parametrize(
    ("squad", "natural", "wounds", "reading"),
    [("Able", None, 3, 0), ("Baker", 1, 3, 0), ("Baker", 3, 1, 2)],
)
def test_a8_a_trap_decrease_still_applies(
    squad: str, natural: int | None, wounds: int, reading: int
) -> None:
    # WF-A8: "a natural 1, which nothing can increase": a decrease is no increase, so
    # Swim -1 reads 1 - 1 = 0 for a lacking Soldier (as for a Swimmer rolling a 1):
    # wound 3-roll gives 3 wounds.
    g = game(lab("Swim -1", "trap: wound 3-roll"), squad=squad, deck="Lab")
    if natural is not None:
        rig(g, check=[natural])
    [check] = only(act(g, "move S1 L2"), "check")
    assert check["reading"] == reading and check["modifier"] == -1
    assert g.soldiers["S1"].wounds == wounds


def test_a8_check_result_blocks_increases_only() -> None:
    # WF-A8: with no roll (natural None) the reading is 1 + min(modifier, 0); a rolled
    # check adds its whole modifier (WF-A3).
    assert check_result(None, 6, 3) == (False, 1)
    assert check_result(None, 6, 0) == (False, 1)
    assert check_result(None, 6, -2) == (False, -1)
    assert check_result(1, 6, 3) == (False, 4)
    assert check_result(1, 6, -2) == (False, -1)


@pytest.mark.parametrize(("squad", "wounds"), [("Able", 2), ("Baker", 0)])
def test_a8_a_plain_fail_heading_reads_the_same_without_a_roll(squad: str, wounds: int) -> None:
    # WF-A8 (ruling): a plain Fail heading for a lacking Soldier makes no roll; an effect
    # that depends on the roll reads it as for a Trap (a natural 1 nothing increases),
    # and the event reports no roll. Baker, with Swim, rolls 1 + 3 = 4 (fails against
    # 6+) and the effect reads his roll: 3 - 4 gives no wound.
    g = game(lab("Swim +3", "fail: wound 3-roll"), squad=squad, deck="Lab")
    if squad == "Baker":
        rig(g, check=[1])
    [check] = only(act(g, "move S1 L2"), "check")
    assert check["heading"] == "fail" and not check["success"]
    if squad == "Able":
        assert check["natural"] is None and check["roll"] is None
        assert check["treated_as"] == 1 and check["reading"] == 1
    else:
        assert check["natural"] == 1 and check["roll"] == 4 and check["treated_as"] is None
    assert g.soldiers["S1"].wounds == wounds


@pytest.mark.parametrize(("squad", "rolled", "lacking"), [("Able", 0, 1), ("Baker", 1, 0)])
def test_a8_metrics_count_no_roll_for_a_lacking_soldier(
    squad: str, rolled: int, lacking: int
) -> None:
    # WF-A8: no roll is made for a lacking Soldier: checks_rolled (and checks_failed)
    # leave it out; checks_lacking counts it.
    g = game(lab("Swim", "fail: wound 1"), squad=squad, deck="Lab")
    if squad == "Baker":
        rig(g, check=[1])
    act(g, "move S1 L2")
    m = RS.metrics(g)
    assert m["checks_rolled"] == rolled and m["checks_failed"] == rolled
    assert m["checks_lacking"] == lacking


def test_a9_a_fail_check_is_rolled_on_entering() -> None:
    # WF-A9: a check with a Failure condition is rolled as soon as a Soldier enters.
    g = game(lab("Swim", "failure: wound 1"), squad="Baker", deck="Lab")
    rig(g, check=[2])
    events = act(g, "move S1 L2")
    assert kinds(events)[:2] == ["moved", "revealed"]
    [check] = only(events, "check")
    assert check["rule"] == "WF-A9" and check["heading"] == "failure"
    # A Success check is not rolled on entering.
    g2 = game(lab("Swim", "success: actions +1"), squad="Baker", deck="Lab")
    assert not only(act(g2, "move S1 L2"), "check")


def test_a10_a_fail_check_added_is_attempted_immediately() -> None:
    # WF-A10: the Siren's Fail check, added to a Soldier's Location, is rolled at once;
    # with one Soldier there, by that Soldier.
    g = game(lab("Search", "success: add Siren"), squad="Able, Baker", deck="Lab")
    act(g, "move S1 L2")
    rig(g, check=[9])
    events = act(g, "check S1 K1")
    checks = only(events, "check")
    assert [c["check"] for c in checks] == ["K1", "K2"]
    assert checks[1]["rule"] == "WF-A8" and checks[1]["lacks"]  # Able lacks Swim
    assert g.soldiers["S1"].wounds == 1 and g.phase == "soldiers"


def test_a10_with_several_soldiers_the_player_picks() -> None:
    # WF-A10 (R): with several Soldiers there, the player picks who rolls; nothing else
    # may be done first.
    g = game(lab("Search", "success: add Siren"), squad="Able, Baker", deck="Lab")
    act(g, "move S1 L2; move S2 L2")
    rig(g, check=[9, 6])
    act(g, "check S1 K1")
    assert g.phase == "roll" and legal(g) == {"roll S1 K2", "roll S2 K2"}
    with pytest.raises(IllegalActionError) as err:
        act(g, "move S2 L1")
    assert err.value.rule == "WF-A10"
    [check] = only(act(g, "roll S2 K2"), "check")
    assert check["soldier"] == "S2" and check["success"] and g.phase == "soldiers"
    assert check["rule"] == "WF-A10"


def test_a10_not_where_no_soldier_is() -> None:
    # WF-A10: added to a Location with no Soldier, the check waits for one to enter
    # (WF-A9).
    g = game(lab("Search", "success: move back; add Siren"), squad="Able", deck="Lab")
    act(g, "move S1 L2")
    rig(g, check=[9])
    events = act(g, "check S1 K1")
    assert len(only(events, "check")) == 1 and g.slot_name(g.soldiers["S1"].slot) == "L1"
    assert not g.checks["K2"].rolled
    g.soldiers["S1"].actions = 1
    [check] = only(act(g, "move S1 L2"), "check")
    assert check["check"] == "K2" and check["rule"] == "WF-A8"


def test_a11_the_odds_of_a_check() -> None:
    # WF-A11: the exact chance of any check (the odds module; test_odds.py checks more).
    assert check_odds(6) == pytest.approx(0.5)
    assert check_odds(6, modifier=-1, upgunned=4) == pytest.approx(0.6)
    assert check_odds(6, lacks_ability=True) == 0
