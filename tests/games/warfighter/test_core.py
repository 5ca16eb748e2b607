"""The stand-in core, WF-C1…C7: Soldiers, Locations, Hostiles, attacks, dice, card
effects as data, the hostile turn, winning and losing."""

from __future__ import annotations

import pytest

from fogofwar.core.errors import BadDataError, IllegalActionError
from fogofwar.games.warfighter.cardfile import parse_cards
from fogofwar.games.warfighter.state import SEAT

from .helpers import RS, act, game, kinds, legal, only, rig

EMPTY = "location Empty\n"
POST = "location Post\n  hostiles: Grunt\n"


def test_c1_soldier_actions_and_abilities() -> None:
    # WF-C1: a Soldier has a name, Actions per turn (default 2), a location, abilities.
    g = game(EMPTY, squad="Able, Charlie", deck="Empty")
    able, charlie = g.soldiers["S1"], g.soldiers["S2"]
    assert (able.card.name, able.actions, charlie.actions) == ("Able", 2, 3)
    assert [str(a) for a in able.card.abilities] == ["Pick 5+[3+]", "Search 6+"]
    pick = able.card.ability("pick")
    assert pick is not None and (pick.need, pick.upgunned) == (5, 3)
    assert charlie.card.ability("Pick") is None
    act(g, "move S1 L2; move S1 L1")
    assert able.actions == 0 and "move S1 L2" not in legal(g)
    with pytest.raises(IllegalActionError) as err:
        act(g, "move S1 L2")
    assert err.value.rule == "WF-C1"
    # Charlie's card gives 3 Actions: a third move is legal.
    act(g, "move S2 L2; move S2 L1; move S2 L2")
    assert charlie.actions == 0 and g.slot_name(charlie.slot) == "L2"


def test_c2_moving_between_connected_locations() -> None:
    # WF-C2: Soldiers move between connected Locations for 1 Action.
    g = game(EMPTY, deck="Empty")
    assert "move S1 L2" in legal(g) and "move S1 L3" not in legal(g)
    with pytest.raises(IllegalActionError) as err:
        act(g, "move S1 L3")
    assert err.value.rule == "WF-C2"
    events = act(g, "move S1 L2")
    assert only(events, "revealed") == [{"location": "L2", "card": "Empty"}]
    assert g.soldiers["S1"].actions == 1 and g.soldiers["S1"].slot == 1


def test_c3_hostiles_and_striking_range() -> None:
    # WF-C3: a Hostile has Cover and Hits; Striking Range is the same Location.
    g = game(POST, deck="Post")
    act(g, "move S1 L2")
    h = g.hostiles["H1"]
    assert (h.card.cover, h.card.hits, h.card.door) == (6, 1, None)
    assert "attack S1 H1" in legal(g) and "attack S2 H1" not in legal(g)
    with pytest.raises(IllegalActionError) as err:
        act(g, "attack S2 H1")
    assert err.value.rule == "WF-C3"


@pytest.mark.parametrize(
    ("rolls", "ekias", "alive"),
    [([8, 7, 10], 2, False), ([8, 1, 2], 1, True), ([7, 7, 1], 0, True)],
)
def test_c4_attack_a_d10_per_shot(rolls: list[int], ekias: int, alive: bool) -> None:
    # WF-C4: a d10 per shot; each roll >= the Cover is an EKIA; dead at its Hits.
    g = game("location Den\n  hostiles: Brute\n", squad="Baker", deck="Den")
    act(g, "move S1 L2")
    rig(g, attack=rolls)
    events = act(g, "attack S1 H1")
    [attack] = only(events, "attack")
    assert (attack["cover"], attack["rolls"], attack["ekias"]) == (8, rolls, ekias)
    assert g.hostiles["H1"].alive is alive
    assert ("killed" in kinds(events)) is (not alive)
    assert g.soldiers["S1"].actions == 0  # a move and an attack


def test_c5_d10s_from_the_seeded_rng() -> None:
    # WF-C5: every die is a d10 from the game's keyed streams: the same seed plays the
    # same game, another seed another.
    from fogofwar.core.rng import stream

    def play(seed: int) -> list[str]:
        g = RS.new_game({}, seed)
        pick = stream(seed, "test-policy")
        while not g.is_over:
            g.apply(pick.choice(g.legal_actions(SEAT)))
        return [e.kind + str(sorted(e.data.items())) for e in g.log]

    a, b, c = play(3), play(3), play(4)
    assert a == b and a != c
    g = RS.new_game({}, 5)
    pick = stream(5, "test-policy")
    while not g.is_over:
        g.apply(pick.choice(g.legal_actions(SEAT)))
    faces = [r for e in g.log if e.kind == "attack" for r in e.data["rolls"]]
    faces += [e.data["roll"] for e in g.log if e.kind == "hostile_attack"]
    faces += [e.data["natural"] for e in g.log if e.kind == "check" and e.data["natural"]]
    assert faces and all(1 <= f <= 10 for f in faces)


LAB = "location Lab\n  hostiles: Grunt\n  check: Search\n  success: {effect}\n"


@pytest.mark.parametrize(
    "effect",
    [
        "wound 2",
        "suppress",
        "add Brute",
        "remove Grunt",
        "actions +2",
        "actions -5",
        "draw 1",
        "discard 1",
        "move forward",
        "move back",
        "end win",
        "end lose",
    ],
)
def test_c6_card_texts_are_data(effect: str) -> None:
    # WF-C6: each effect of the vocabulary, from a card's text, with no code per card.
    g = game(LAB.format(effect=effect), deck="Lab", hostile_deck="Brute, Grunt")
    act(g, "move S1 L2")
    rig(g, check=[10])
    before = {h.id for h in g.hostiles_at(1)}
    events = act(g, "check S1 K1")
    s1 = g.soldiers["S1"]
    after = {h.id for h in g.hostiles_at(1)}
    verb = effect.split()[0]
    if verb == "wound":
        assert s1.wounds == 2
    elif verb == "suppress":
        assert g.hostiles["H1"].suppressed
    elif verb in ("add", "draw"):
        assert len(after - before) == 1
        added = g.hostiles[(after - before).pop()]
        assert added.card.name == (
            "Brute" if verb == "add" else g.hostile_deck.pile("in play").cards[0]
        )
    elif verb == "remove":
        assert after == before - {"H1"} and "removed" in kinds(events)
    elif effect == "actions +2":
        assert s1.actions == 0 + 2
    elif effect == "actions -5":
        assert s1.actions == 0
    elif verb == "discard":
        assert len(g.hostile_deck.discard_pile) == 1 and len(g.hostile_deck) == 1
    elif effect == "move forward":
        assert g.slot_name(s1.slot) == "L3" and g.slots[2] == "Goal"
    elif effect == "move back":
        assert g.slot_name(s1.slot) == "L1"
    else:
        outcome = g.outcome()
        assert outcome is not None and bool(outcome.winners) is (effect == "end win")
        assert outcome.rule == "WF-C6"


def test_c6_an_unknown_effect_is_refused() -> None:
    # WF-C6: only the vocabulary's effects; anything else is a data error.
    with pytest.raises(BadDataError) as err:
        parse_cards(LAB.format(effect="teleport home"), file="lab.wf")
    assert (err.value.file, err.value.line) == ("lab.wf", 4)
    assert "an effect" in str(err.value)


def test_c7_the_hostile_attacks_the_least_wounded() -> None:
    # WF-C7: each Hostile attacks the Soldier on its Location with the fewest wounds.
    g = game(POST, deck="Post")
    act(g, "move S1 L2; move S2 L2")
    g.soldiers["S1"].wounds = 1
    rig(g, hostile_attack=[7])
    events = act(g, "end")
    [attack] = only(events, "hostile_attack")
    assert attack["soldier"] == "S2" and attack["hit"]  # Baker's Cover 7: hit
    assert g.soldiers["S2"].wounds == 1 and g.soldiers["S1"].wounds == 1


@pytest.mark.parametrize(("index", "target"), [(0, "S1"), (1, "S2")])
def test_c7_ties_by_the_seeded_rng(index: int, target: str) -> None:
    # WF-C7: ties between the least wounded are broken by the seeded RNG.
    g = game(POST, deck="Post")
    act(g, "move S1 L2; move S2 L2")
    rig(g, hostile_target=[index], hostile_attack=[1])
    [attack] = only(act(g, "end"), "hostile_attack")
    assert attack["soldier"] == target and not attack["hit"]


@pytest.mark.parametrize(("roll", "hit"), [(6, True), (5, False)])
def test_c7_a_hit_needs_the_soldiers_cover(roll: int, hit: bool) -> None:
    # WF-C7: a d10 against the Soldier's Cover (Able's is 6); a hit wounds.
    g = game(POST, squad="Able", deck="Post")
    act(g, "move S1 L2")
    rig(g, hostile_attack=[roll])
    act(g, "end")
    assert g.soldiers["S1"].wounds == (1 if hit else 0)


def test_c7_three_wounds_and_every_soldier_out() -> None:
    # WF-C7: a Soldier with 3 wounds is out; the mission is lost when every Soldier is.
    g = game(POST, deck="Post")
    act(g, "move S1 L2")
    g.soldiers["S1"].wounds = 2
    rig(g, hostile_attack=[10])
    events = act(g, "end")
    assert g.soldiers["S1"].out and "out" in kinds(events)
    assert not g.is_over  # Baker still stands
    assert not any(a.startswith(("move S1", "attack S1")) for a in legal(g))
    act(g, "move S2 L2")
    g.soldiers["S2"].wounds = 2
    rig(g, hostile_attack=[10])
    act(g, "end")
    outcome = g.outcome()
    assert outcome is not None and not outcome.winners and outcome.sides == {"hostiles"}
    assert (outcome.reason, outcome.rule) == ("every Soldier is out", "WF-C7")


def test_c7_won_when_the_objective_is_cleared() -> None:
    # WF-C7: won when the Objective Location is cleared (a Soldier there, no Hostile).
    g = game("location Goal2\n  hostiles: Grunt, Grunt\n", squad="Charlie", objective="Goal2")
    act(g, "move S1 L2")
    rig(g, attack=[10, 1, 10, 1])
    act(g, "attack S1 H1")
    assert not g.is_over  # one Hostile is left on the Objective
    act(g, "attack S1 H2")
    outcome = g.outcome()
    assert outcome is not None and outcome.winners == frozenset({SEAT})
    assert outcome.rule == "WF-C7"


@pytest.mark.parametrize(("turns", "over"), [(1, True), (2, False)])
def test_c7_lost_when_the_turn_limit_passes(turns: int, over: bool) -> None:
    # WF-C7: the mission is lost when the turn limit passes.
    g = game(EMPTY, deck="Empty", turns=turns)
    act(g, "end")
    assert g.is_over is over
    if over:
        outcome = g.outcome()
        assert outcome is not None and not outcome.winners and "turn limit" in outcome.reason
    else:
        assert g.turn == 2 and g.soldiers["S1"].actions == 2


def test_c7_the_seat_is_squad_and_the_hostile_turn_is_automatic() -> None:
    # WF-C7: one seat, squad; a suppressed Hostile skips its attack and loses the Suppress.
    assert RS.metadata.seats == ("squad",)
    g = game(POST, deck="Post")
    act(g, "move S1 L2")
    g.hostiles["H1"].suppressed = True
    events = act(g, "end")
    assert "suppressed_skips" in kinds(events) and not only(events, "hostile_attack")
    assert not g.hostiles["H1"].suppressed
    assert g.to_act() == frozenset({SEAT})
