"""Every draw of Warfighter and an empty deck (WF-C6, WF-C7): the Location deck never
runs out; the Hostile deck is never reshuffled, so an empty one draws and discards
nothing, and the event says so."""

from __future__ import annotations

from .helpers import act, game, kinds, only, rig


def lab(effects: str) -> str:
    return f"location Lab\n  check: Search\n  success: {effects}\n"


def test_c6_draw_stops_at_an_empty_hostile_deck_and_says_so() -> None:
    # WF-C6: `draw 2` from a Hostile deck of one card places that card; the second draw
    # finds the deck empty: nothing, and a `hostile_deck_empty` event.
    g = game(lab("draw 2"), squad="Able", deck="Lab", hostile_deck="Grunt")
    act(g, "move S1 L2")
    rig(g, check=[9])
    events = act(g, "check S1 K1")
    assert [d["card"] for d in only(events, "drawn")] == ["Grunt"]
    assert kinds(events).count("hostile_deck_empty") == 1 and len(g.hostile_deck) == 0
    # Where it does not apply: a deck of two gives both, no event.
    g = game(lab("draw 2"), squad="Able", deck="Lab", hostile_deck="Grunt, Brute")
    act(g, "move S1 L2")
    rig(g, check=[9])
    events = act(g, "check S1 K1")
    assert len(only(events, "drawn")) == 2 and "hostile_deck_empty" not in kinds(events)


def test_c6_the_hostile_discard_is_never_reshuffled_into_the_deck() -> None:
    # WF-C6 (ruling): `discard` removes Hostiles for good (its benefit); a later `draw`
    # from the empty deck does not take them back.
    g = game(lab("discard 1; draw 1"), squad="Able", deck="Lab", hostile_deck="Brute")
    act(g, "move S1 L2")
    rig(g, check=[9])
    events = act(g, "check S1 K1")
    assert [d["card"] for d in only(events, "discarded")] == ["Brute"]
    assert not only(events, "drawn") and "hostile_deck_empty" in kinds(events)
    assert not [h for h in g.hostiles.values() if h.card.name == "Brute"]


def test_c7_the_location_deck_never_runs_out() -> None:
    # WF-C7: `slots` is at most the Location deck's cards, so every face-down Location
    # entered draws one; the cards beyond the slots stay unseen.
    g = game(
        "location Yard\nlocation Pier\nlocation Dock\n",
        squad="Able",
        deck="Yard, Pier, Dock",
        slots=2,
    )
    g.soldiers["S1"].actions = 10
    act(g, "move S1 L2; move S1 L3")
    seen = [g.slots[1], g.slots[2]]
    assert len(set(seen)) == 2 and len(g.location_deck) == 1
    assert "revealed" in kinds(act(g, "move S1 L4"))  # the Objective, not from the deck
    assert len(g.location_deck) == 1
