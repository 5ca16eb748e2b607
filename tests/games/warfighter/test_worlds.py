"""Sampled Warfighter worlds (for search): consistent with the squad's view, drawn from
the view alone, with the decks' unknown order drawn afresh."""

from __future__ import annotations

from collections import Counter
from typing import cast

from fogofwar.core.game import State, get_ruleset
from fogofwar.core.rng import stream
from fogofwar.games.warfighter.state import WarfighterState

RS = get_ruleset("warfighter")


def _play(state: State, seed: int, steps: int | None = None) -> list[State]:
    """Clones of ``state`` before each action of a random game (``steps`` at most)."""
    rng = stream(seed, "play")
    out = []
    while state.outcome() is None and (steps is None or len(out) < steps):
        out.append(state.clone())
        seat = sorted(state.to_act())[0]
        state.apply(rng.choice(list(state.legal_actions(seat))))
    out.append(state.clone())
    return out


def test_a_sampled_world_gives_the_squad_its_view_and_legal_actions() -> None:
    draw = stream(1, "worlds")
    for seed in range(8):
        for state in _play(RS.new_game({}, seed), seed):
            view = state.view("squad")
            world = RS.sample_world(view, draw)
            assert world.view("squad").canonical() == view.canonical()
            assert list(world.legal_actions("squad")) == list(state.legal_actions("squad"))
            assert world.to_act() == state.to_act()
            # The unknowns are only the orders: the decks hold the real cards, and new
            # Hostiles and checks are numbered as in the real game.
            w, s = cast(WarfighterState, world), cast(WarfighterState, state)
            assert Counter(w.hostile_deck.draw_pile.cards) == Counter(
                s.hostile_deck.draw_pile.cards
            )
            assert Counter(w.location_deck.cards) == Counter(s.location_deck.cards)
            assert (len(w.hostiles), len(w.checks)) == (len(s.hostiles), len(s.checks))
            # A real game: it plays on to the end.
            _play(world, seed)


def test_the_world_is_drawn_from_the_view_alone() -> None:
    # Two games whose decks differ give the same first view; the same stream then draws
    # the same world from either: nothing of the true decks reaches the sample.
    a, b = RS.new_game({}, 1), RS.new_game({}, 2)
    assert a.view("squad").canonical() == b.view("squad").canonical()
    wa = RS.sample_world(a.view("squad"), stream(3, "w"))
    wb = RS.sample_world(b.view("squad"), stream(3, "w"))
    for w in (wa, wb):
        _play(w, 5)
    assert wa.view("squad").canonical() == wb.view("squad").canonical()


def test_the_decks_order_is_drawn_afresh() -> None:
    # The Location the squad reveals next varies with the world drawn.
    state = RS.new_game({}, 4)
    move = next(a for a in state.legal_actions("squad") if a.kind == "move")
    seen = set()
    for i in range(30):
        world = RS.sample_world(state.view("squad"), stream(i, "w"))
        world.apply(move)
        revealed = [e for e in world.view("squad").data["events"] if e["kind"] == "revealed"]
        seen.add(revealed[-1]["card"])
    assert len(seen) >= 2
