"""Doors, WF-D1…D7."""

from __future__ import annotations

import pytest

from fogofwar.core.errors import IllegalActionError
from fogofwar.games.warfighter.state import WarfighterState

from .helpers import act, game, kinds, legal, only, rig

BUNKER = "location Yard\n  hostiles: Bunker\n"  # Door: cover 5, hits 2, pick -1
VAULT = "location Yard\n  hostiles: Vault\n"  # Door: cover 4, hits 1, no Pick


def at_door(cards: str = BUNKER, squad: str = "Able, Baker") -> WarfighterState:
    g = game(cards, squad=squad, deck="Yard")
    act(g, "move S1 L2")
    if "," in squad:
        act(g, "move S2 L2")
    for s in g.soldiers.values():
        s.actions = 3
    return g


def test_d1_a_door_is_attacked_or_picked() -> None:
    # WF-D1: the Door is a separate target; Picked if it has Pick, its value a modifier.
    g = at_door()
    assert {"attack S1 H1", "attack S1 H1 door", "pick S1 H1", "pick S1 H1 up"} <= legal(g)
    rig(g, pick=[6])
    [pick] = only(act(g, "pick S1 H1"), "pick")
    assert (pick["natural"], pick["modifier"], pick["roll"], pick["target"]) == (6, -1, 5, 5)
    assert pick["success"]
    # A Door without Pick can be attacked, not picked.
    v = at_door(VAULT)
    assert "attack S1 H1 door" in legal(v) and "pick S1 H1" not in legal(v)
    with pytest.raises(IllegalActionError) as err:
        act(v, "pick S1 H1")
    assert err.value.rule == "WF-D5"


def test_d2_attacking_the_door_uses_its_cover_and_keeps_its_ekias_apart() -> None:
    # WF-D2: any Weapon, the Door's Cover (5, not the Hostile's 9); its own EKIAs.
    g = at_door()
    rig(g, attack=[5, 4, 9])
    [attack] = only(act(g, "attack S2 H1 door"), "attack")
    assert attack["cover"] == 5 and attack["ekias"] == 2 and attack["rule"] == "WF-D2"
    h = g.hostiles["H1"]
    assert h.door_ekias == 2 and h.ekias == 0 and h.alive


def test_d3_doors_gain_no_suppresses() -> None:
    # WF-D3: a suppressive weapon on the Door suppresses nothing; on the Hostile it does.
    g = at_door(squad="Charlie")
    rig(g, attack=[1, 1, 1, 1])
    act(g, "attack S1 H1 door")
    assert not g.hostiles["H1"].suppressed and "suppressed" not in kinds(g.log)
    seen = g.view("squad").data["locations"][1]["hostiles"][0]
    assert seen["id"] == "H1" and seen["suppressed"] is False
    assert seen["door"]["ekias"] == 0  # four misses on the Door
    act(g, "attack S1 H1")
    assert g.hostiles["H1"].suppressed
    seen = g.view("squad").data["locations"][1]["hostiles"][0]
    assert seen["suppressed"] is True


@pytest.mark.parametrize(("rolls", "breached"), [([5, 6, 1], True), ([5, 1, 1], False)])
def test_d4_breached_at_the_doors_hits(rolls: list[int], breached: bool) -> None:
    # WF-D4: the Door is Breached when its EKIAs reach its Hits (2).
    g = at_door()
    rig(g, attack=rolls)
    events = act(g, "attack S2 H1 door")
    h = g.hostiles["H1"]
    assert h.breached is breached and (h.breached_by == "attack") is breached
    assert ("breached" in kinds(events)) is breached
    if breached:
        assert "attack S2 H1 door" not in legal(g)
        with pytest.raises(IllegalActionError) as err:
            act(g, "attack S2 H1 door")
        assert err.value.rule == "WF-D4"
        assert g.counts.breaches_attack == 1


def test_d5_picks_breach_and_may_be_retried() -> None:
    # WF-D5: a Pick check for an Action; a success Breaches; picks may be tried again.
    g = at_door()
    rig(g, pick=[2, 3, 8])
    act(g, "pick S1 H1")
    assert not g.hostiles["H1"].breached and "pick S1 H1" in legal(g)
    act(g, "pick S1 H1")
    assert not g.hostiles["H1"].breached and g.soldiers["S1"].actions == 1
    events = act(g, "pick S1 H1")
    assert g.hostiles["H1"].breached_by == "pick" and only(events, "breached")[0]["rule"] == "WF-D5"
    assert g.counts.breaches_pick == 1 and g.counts.checks_failed == 2
    assert "pick S1 H1" not in legal(g)


def test_d5_only_a_soldier_with_pick() -> None:
    # WF-D5 with WF-A8: Baker lacks the Pick ability.
    g = at_door()
    assert "pick S2 H1" not in legal(g)
    with pytest.raises(IllegalActionError) as err:
        act(g, "pick S2 H1")
    assert err.value.rule == "WF-A8"


@pytest.mark.parametrize(("breached", "cover"), [(True, 5), (False, 9)])
def test_d6_d7_the_cover_against_the_hostile(breached: bool, cover: int) -> None:
    # WF-D6: once Breached the Hostile is attacked at the Door's Cover (5);
    # WF-D7: before, it can still be attacked, at its printed Cover (9).
    g = at_door()
    if breached:
        rig(g, pick=[9])
        act(g, "pick S1 H1")
    rig(g, attack=[5, 5, 5])
    [attack] = only(act(g, "attack S2 H1"), "attack")
    assert attack["cover"] == cover and attack["ekias"] == (3 if breached else 0)
    assert attack["rule"] == ("WF-D6" if breached else "WF-C4")
    assert g.hostiles["H1"].alive is not breached


def test_d6_a_door_with_more_cover_than_its_hostile() -> None:
    # WF-D6 (R): the Door's Cover "may" be used: the attacker keeps the better, so a
    # Door with more Cover than its Hostile leaves the printed Cover in force.
    extra = (
        "hostile Shack\n  cover: 5\n  hits: 1\n  door: cover 8, hits 1\n"
        "location Yard\n  hostiles: Shack\n"
    )
    g = at_door(extra)
    rig(g, attack=[9, 1, 1])
    act(g, "attack S2 H1 door")
    assert g.hostiles["H1"].breached and g.hostiles["H1"].cover_in_force() == 5
