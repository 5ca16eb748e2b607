"""The Warfighter position evaluation (for ``ismcts``'s ``depth``): a fitted model of the
squad's chance over features of the full state."""

from __future__ import annotations

from typing import cast

import pytest

from fogofwar.core.game import State, get_ruleset
from fogofwar.core.rng import stream
from fogofwar.games.warfighter.evaluation import SQUAD_CHANCE, SquadChance
from fogofwar.games.warfighter.state import HOSTILES, OUT_AT, SEAT, WarfighterState
from tests.random_play import states_along

from .helpers import game

RS = get_ruleset("warfighter")


def _wf(state: State) -> WarfighterState:
    return cast(WarfighterState, state)


def _evaluation(turns: int = 0) -> SquadChance:
    found = RS.evaluation(RS.resolve_config({"turns": turns}))
    assert isinstance(found, SquadChance)
    return found


def _states(seed: int, turns: int = 0) -> list[WarfighterState]:
    """Clones of a random mission's states that are not over, before each action."""
    state = _wf(RS.new_game({"turns": turns}, seed))
    return states_along(state, stream(seed, "evaluation"))


def test_the_model_has_one_weight_per_feature() -> None:
    ev = _evaluation()
    assert ev is SQUAD_CHANCE
    assert ev.side == "squad"
    assert len(ev.model.weights) == len(ev.model.names) == 5
    assert len(ev.features(RS.new_game({}, 0))) == len(ev.model.names)


@pytest.mark.parametrize("turns", [0, 3, 9])
def test_the_chance_is_strictly_between_0_and_1_and_the_sides_add_up_to_1(turns: int) -> None:
    ev = _evaluation(turns)
    checked = 0
    for seed in range(6):
        for state in _states(seed, turns):
            features = ev.features(state)
            assert all(0 <= f <= 4 for f in features), features
            assert all(0 <= f <= 1 for i, f in enumerate(features) if i != 3), features
            squad = ev(state, SEAT)
            assert 0 < squad < 1
            # A lost mission is the win of the hostiles' side, which has no seat (WF-C7).
            assert ev.on_side(state, SEAT) and not ev.on_side(state, HOSTILES)
            assert squad + ev(state, HOSTILES) == pytest.approx(1.0)
            checked += 1
    assert checked > 50


def test_the_features_are_the_same_in_a_search_world() -> None:
    # A search's world (clone(search=True), skip_views) plays the same rules; the
    # features read the same full state.
    ev = _evaluation()
    for seed in range(3):
        state = _wf(RS.new_game({}, seed))
        fast = _wf(state.clone(search=True))
        rng = stream(seed, "skip")
        while not state.is_over:
            assert ev.features(fast) == ev.features(state)
            action = rng.choice(list(state.legal_actions(SEAT)))
            state.apply(action)
            fast.apply(action)
        assert fast.is_over


def test_a_sampled_world_is_evaluated() -> None:
    # The search evaluates worlds sampled from the squad's view: the decks' order drawn.
    ev = _evaluation()
    draw = stream(2, "worlds")
    for state in _states(2)[::5]:
        world = RS.sample_world(state.view(SEAT), draw)
        assert 0 < ev(world, SEAT) < 1


def test_more_progress_raises_the_squads_chance() -> None:
    # WF-C2: the squad moves along the line towards the Objective. Surgery: every
    # Soldier one Location further on (still face down: the same Hostiles ahead).
    ev = _evaluation()
    state = _wf(RS.new_game({}, 4))
    ahead = _wf(state.clone())
    for s in ahead.soldiers.values():
        s.slot = 1
    before, after = ev.features(state), ev.features(ahead)
    assert after[4] > before[4]  # progress
    assert after[3] < before[3]  # fewer moves left in the workload
    assert ev.chance(ahead) > ev.chance(state)


def test_wounds_a_lost_soldier_and_time_lower_the_squads_chance() -> None:
    ev = _evaluation()
    state = _wf(RS.new_game({}, 5))
    base = ev.chance(state)
    # WF-C7: wounds bring a Soldier nearer to out. Surgery: one wound.
    hurt = _wf(state.clone())
    hurt.soldiers["S1"].wounds = 1
    assert ev.features(hurt)[1] < ev.features(state)[1]
    assert ev.chance(hurt) < base
    # WF-C7: a Soldier out takes its Actions and its firepower with it.
    out = _wf(state.clone())
    out.soldiers["S2"].wounds = OUT_AT
    out.soldiers["S2"].out = True
    out.soldiers["S2"].actions = 0
    assert ev.chance(out) < ev.chance(hurt)
    # WF-C7: the turn limit. Surgery: the same position two turns later.
    late = _wf(state.clone())
    late.turn += 2
    assert ev.features(late)[2] < ev.features(state)[2]
    assert ev.chance(late) < base


def test_a_hostile_killed_raises_the_squads_chance() -> None:
    # WF-C4: a Hostile killed leaves play; the attacks it would need are no longer
    # work. A small mission: its Objective guarded by a Grunt, then the Grunt gone.
    state = game(turns=3)
    ev = SQUAD_CHANCE
    state.apply(RS.parse_actions("move S1 L2", SEAT, state)[0])
    assert not state.is_over and state.hostiles_at(1)
    cleared = _wf(state.clone())
    for h in cleared.hostiles.values():
        h.alive = False
    assert ev.features(cleared)[3] < ev.features(state)[3]
    assert ev.chance(cleared) > ev.chance(state)
