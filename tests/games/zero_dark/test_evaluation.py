"""Zero Dark's position evaluation (search's cut-off rollouts): the heroes' chance in
solo, team1's in Versus, from the full state alone."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, cast

import pytest

from fogofwar.core.game import State, get_ruleset
from fogofwar.core.rng import stream
from fogofwar.games.zero_dark.evaluation import (
    MISSION_MODELS,
    SOLO,
    SOLO_FEATURES,
    VERSUS,
    VERSUS_FEATURES,
    ZeroDarkEvaluation,
)
from fogofwar.games.zero_dark.fear import ModelState
from fogofwar.games.zero_dark.missions import SHIPPED_MISSIONS
from fogofwar.games.zero_dark.state import TEAM, ZeroDarkState
from tests.random_play import states_along

from .helpers import RS

CONFIGS: list[dict[str, Any]] = [
    {},
    {"mission": "the-spy"},
    {"mission": "the-boss"},
    {"mission": "dead-drop"},
    {"mission": "dead-drop", "mode": "solo"},  # a Versus mission played solo
    {"map": "zd-open", "task": "observation", "buy_time": True},
    {"mode": "versus", "map": "zd-open"},
]


def _evaluation(config: dict[str, Any]) -> ZeroDarkEvaluation:
    ev = RS.evaluation(RS.resolve_config(config))
    assert isinstance(ev, ZeroDarkEvaluation)
    return ev


def _states(config: dict[str, Any], seed: int, every: int = 15) -> list[ZeroDarkState]:
    """States of a random game of ``config``, one every ``every`` actions, not over."""
    state = cast(ZeroDarkState, RS.new_game(config, seed))
    return states_along(state, stream(seed, "zd-evaluation"), every=every)


def test_every_model_has_one_weight_per_feature() -> None:
    for model in (SOLO, VERSUS, *MISSION_MODELS.values()):
        assert len(model.weights) == len(model.names)
    assert set(MISSION_MODELS) == set(SHIPPED_MISSIONS)
    for config in CONFIGS:
        ev = _evaluation(config)
        versus = RS.resolve_config(config)["mode"] == "versus"
        assert ev.model.names == (VERSUS_FEATURES if versus else SOLO_FEATURES)
        assert len(ev.features(RS.new_game(config, 0))) == len(ev.model.names)


def test_each_shipped_mission_gets_its_own_weights() -> None:
    # ZD-C8: a mission sets the map, the Red Force and the win conditions: its weights.
    for name in SHIPPED_MISSIONS:
        assert _evaluation({"mission": name}).model is MISSION_MODELS[name]
    assert _evaluation({}).model is SOLO
    assert _evaluation({"mode": "versus", "map": "zd-open"}).model is VERSUS


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: ",".join(map(str, c.values())) or "-")
def test_the_chance_is_a_probability_and_the_seats_share_it(config: dict[str, Any]) -> None:
    # ZD-C9: solo has the one seat, the team; Versus two, team1 (the side) and team2.
    ev = _evaluation(config)
    seats = RS.seats(config)
    states = _states(config, 3, every=10)
    assert len(states) > 2
    for state in states:
        p = ev.chance(state)
        assert 0.0 < p < 1.0
        assert all(isinstance(f, float) for f in ev.features(state))
        if len(seats) == 2:
            assert [ev.on_side(state, s) for s in seats] == [True, False]
            assert ev(state, seats[0]) + ev(state, seats[1]) == pytest.approx(1.0)
        else:
            assert ev.on_side(state, TEAM)
            assert ev(state, TEAM) == p


def _fresh(config: dict[str, Any], seed: int = 0) -> ZeroDarkState:
    return cast(ZeroDarkState, RS.new_game(config, seed))


def test_objectives_worked_raise_the_heroes_chance() -> None:
    # ZD-C8: the default mission needs every objective worked (and a hero left).
    ev = _evaluation({})
    state = _fresh({})
    progress = SOLO_FEATURES.index("progress")
    marked = [sq.name for sq in state.board.markers["objective"]]
    assert len(marked) == 2
    seen = [(ev.features(state)[progress], ev.chance(state))]
    for name in marked:
        state.objectives_done.append(name)
        seen.append((ev.features(state)[progress], ev.chance(state)))
    assert [f for f, _ in seen] == [0.0, 0.5, 1.0]
    assert seen[0][1] < seen[1][1] < seen[2][1]
    assert seen[2][1] > seen[0][1] + 0.1


def test_lost_heroes_and_flipped_cards_lower_the_heroes_chance() -> None:
    # ZD-C5: a dead hero is lost; ZD-C6: the mission ends when the deck is exhausted.
    ev = _evaluation({"mission": "the-spy"})
    start = ev.chance(_fresh({"mission": "the-spy"}))
    state = _fresh({"mission": "the-spy"})
    state.dead.add("H2")
    assert ev.features(state)[SOLO_FEATURES.index("heroes")] == 0.75
    assert ev.chance(state) < start
    state = _fresh({"mission": "the-spy"})
    for _ in range(30):
        state.deck.draw()
    assert ev.chance(state) < start


def test_the_boss_down_then_verified_raises_the_chance() -> None:
    # ZD-T4: the Assassination's Boss is turned over, put down, then verified.
    config = {"mission": "the-boss"}
    ev = _evaluation(config)
    state = _fresh(config)
    side = state.sides[TEAM]
    ping = side.boss_target
    assert ping is not None and ping in state.position.models
    chances = [ev.chance(state)]
    state._reveal(state.position.model(ping), state.position.model(side.heroes[0]), "sight")
    boss = state.position.model(str(side.boss_target))
    assert boss.kind == "bogey"
    chances.append(ev.chance(state))
    state._set(replace(boss, state=ModelState.DOWN))
    chances.append(ev.chance(state))
    side.verified = True
    chances.append(ev.chance(state))
    assert chances == sorted(chances) and len(set(chances)) == 4


def test_a_versus_objective_is_a_gain_for_one_team_and_a_loss_for_the_other() -> None:
    # ZD-C8 (Versus): a team meets the objectives condition with one objective worked.
    config = {"mission": "dead-drop"}
    ev = _evaluation(config)
    state = _fresh(config)
    level = ev(state, "team1")
    (cache,) = state.board.markers["objective"]  # the depot's data cache
    for team, sign in (("team1", 1), ("team2", -1)):
        edited = cast(ZeroDarkState, state.clone())
        edited.objectives_done.append(cache.name)
        edited.objectives_by[cache.name] = team
        assert sign * (ev(edited, "team1") - level) > 0
        assert ev(edited, "team1") + ev(edited, "team2") == pytest.approx(1.0)


def test_the_evaluation_refuses_another_games_state() -> None:
    other: State = get_ruleset("rock-n-roll").new_game({}, 0)
    with pytest.raises(TypeError):
        _evaluation({}).features(other)
