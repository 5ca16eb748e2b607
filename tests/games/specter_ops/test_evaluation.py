"""The Specter Ops position evaluation (for ``ismcts``'s ``depth``): a fitted model of
the agent side's chance over features of the true state."""

from __future__ import annotations

from functools import partial
from typing import Any, cast

import pytest

from fogofwar.core.game import LogisticModel, State, get_ruleset
from fogofwar.core.rng import stream
from fogofwar.games.specter_ops.evaluation import MODELS, NAMES, AgentChance
from fogofwar.games.specter_ops.state import AGENT, SpecterOpsState
from tests.random_play import states_along

RS = get_ruleset("specter-ops")
CONFIGS = [
    {"players": 2},
    {"players": 3},
    {"players": 4},
    {"players": 5},
    {"players": 3, "characters": False},
]


def _so(state: State) -> SpecterOpsState:
    return cast(SpecterOpsState, state)


def _evaluation(config: dict[str, Any]) -> AgentChance:
    found = RS.evaluation(RS.resolve_config(config))
    assert isinstance(found, AgentChance)
    return found


def _states(
    config: dict[str, Any], seed: int, every: int = 5, limit: int = 200
) -> list[SpecterOpsState]:
    """Clones of a random game's states that are not over, every ``every`` actions of
    its first ``limit``."""
    state = _so(RS.new_game(config, seed))
    return states_along(state, stream(seed, "evaluation"), every=every, limit=limit)


def _past_setup(config: dict[str, Any], seed: int) -> SpecterOpsState:
    """A random game at the agent's first move (the characters and the deal done)."""
    state = _so(RS.new_game(config, seed))
    rng = stream(seed, "setup")
    while state.phase.value != "agent":
        (seat,) = state.to_act()
        state.apply(rng.choice(list(state.legal_actions(seat))))
    return state


def test_every_player_count_has_a_model_with_one_weight_per_feature() -> None:
    for players, model in MODELS.items():
        assert isinstance(model, LogisticModel)
        assert model.names == NAMES
        assert len(model.weights) == len(model.names), players
    for config in CONFIGS:
        ev = _evaluation(config)
        assert ev.side == "agent"
        assert ev.model is MODELS[max(3, config["players"])]
        state = RS.new_game(config, 0)
        assert len(ev.features(state)) == len(ev.model.names)


@pytest.mark.parametrize("config", CONFIGS, ids=["2p", "3p", "4p", "5p-traitor", "3p-base"])
def test_the_chance_is_strictly_between_0_and_1_and_the_sides_add_up_to_1(
    config: dict[str, Any],
) -> None:
    ev = _evaluation(config)
    checked = 0
    for seed in range(3):
        for state in _states(config, seed):
            features = ev.features(state)
            assert all(-1e-9 <= f <= 1 + 1e-9 for f in features), features
            agent = ev(state, AGENT)
            assert 0 < agent < 1
            # SO-T6: the traitor's seat wins with the agent; the loyal hunters do not.
            for seat in state.seats[1:]:
                value = ev(state, seat)
                if seat == state.traitor_seat:
                    assert ev.on_side(state, seat)
                    assert value == agent
                else:
                    assert not ev.on_side(state, seat)
                    assert agent + value == pytest.approx(1.0)
            checked += 1
    assert checked > 20


def test_the_traitor_seat_is_on_the_agents_side() -> None:
    # SO-T2, SO-T6: once dealt, the traitor's seat is on the agent's side.
    state = _past_setup({"players": 5}, 1)
    assert state.traitor_seat
    ev = _evaluation({"players": 5})
    assert ev.on_side(state, state.traitor_seat)
    assert ev(state, state.traitor_seat) == ev(state, AGENT)
    loyal = [s for s in state.seats if s not in (AGENT, state.traitor_seat)]
    assert len(loyal) == 3
    assert not any(ev.on_side(state, s) for s in loyal)


@pytest.mark.parametrize("config", [{"players": 3}, {"players": 5}], ids=["3p", "5p-traitor"])
def test_the_features_do_not_read_what_a_search_world_skips(config: dict[str, Any]) -> None:
    # SO-I2: a search's world skips the hunters' possibility maps (skip_views); the
    # features read the true state only, so the same game gives the same features.
    ev = _evaluation(config)
    for seed in range(2):
        state = _past_setup(config, seed)
        fast = _so(state.clone(search=True))
        assert fast.searching and not state.searching
        rng = stream(seed, "skip")
        for _ in range(150):
            if state.is_over:
                break
            assert ev.features(fast) == ev.features(state)
            (seat,) = state.to_act()
            action = rng.choice(list(state.legal_actions(seat)))
            state.apply(action)
            fast.apply(action)
        assert fast.is_over == state.is_over


def test_a_sampled_world_is_evaluated() -> None:
    # A search evaluates the worlds it samples from a seat's view (SO-I1): the hidden
    # agent and sites are drawn, and the evaluation reads them.
    ev = _evaluation({"players": 4})
    draw = stream(3, "worlds")
    for state in _states({"players": 4}, 3, every=25)[1:6]:
        for seat in state.seats:
            world = RS.sample_world(state.view(seat), draw)
            assert 0 < ev(world, seat) < 1


def _away(state: SpecterOpsState, sector: int) -> int:
    """King's moves from the agent to the sector's objective site."""
    here = state.geo.square(state.agents[0].square)
    site = state.geo.square(state.sites[sector])
    return max(abs(site.row - here.row), abs(site.col - here.col))


def test_one_more_objective_raises_the_agents_chance() -> None:
    # SO-O1, SO-E1: the agent completes objectives to escape. Surgery: an open objective
    # other than the nearest is marked done, at the start of the agent's move.
    ev = _evaluation({"players": 3})
    for seed in range(4):
        state = _past_setup({"players": 3}, seed)
        before = ev.features(state)
        far = max((j for j, d in enumerate(state.done) if not d), key=partial(_away, state))
        edited = _so(state.clone())
        edited.done[far] = True
        after = ev.features(edited)
        assert after[0] == pytest.approx(before[0] + 1 / 3)
        assert after[5] <= before[5]  # the walk left is no longer
        assert ev.chance(edited) > ev.chance(state)


def test_a_wound_or_a_hunter_close_by_lowers_the_agents_chance() -> None:
    # SO-A9, SO-E3: a hit costs 1 health and 0 loses. Surgery: one health less.
    ev = _evaluation({"players": 4})
    state = _past_setup({"players": 4}, 2)
    hurt = _so(state.clone())
    hurt.agents[0].health -= 1
    assert ev.features(hurt)[1] < ev.features(state)[1]
    assert ev.chance(hurt) < ev.chance(state)
    # SO-H2: a hunter nearby may see and attack the agent. Surgery: a hunter on foot
    # stands next to the agent (the agent's square unchanged).
    near = _so(state.clone())
    a1 = near.agents[0]
    h = near.hunters[0]
    h.square = next(i for i in near.geo.indices(near.geo.adjacent[a1.square] & near.geo.passable))
    h.aboard = False
    assert ev.features(near)[3] < ev.features(state)[3]
    assert ev.chance(near) < ev.chance(state)


def test_after_the_reveal_both_agents_count() -> None:
    # SO-T6: once the traitor is revealed the side needs both agents out and loses with
    # either: a wound to the second agent lowers the side's chance, and an agent that
    # has escaped no longer counts (its health is not the side's).
    from .helpers import play, start_turn
    from .test_traitor import announcement_setup

    state = announcement_setup("H3")
    seat = start_turn(state, "H3")
    play(state, seat, "step", "O9")
    play(state, seat, "stop")  # a concealed sighting: the accusation will be proven
    play(state, start_turn(state, "H4"), "accuse", "H3")
    assert state.traitor_revealed and len(state.agents) == 2
    ev = _evaluation({"players": 5})
    hurt = _so(state.clone())
    hurt.agents[1].health -= 1
    assert ev.features(hurt)[1] < ev.features(state)[1]
    assert ev.chance(hurt) < ev.chance(state)
    out = _so(state.clone())
    out.agents[0].health = 1
    before = ev.features(out)[1]
    out.agents[0].escaped = True
    assert ev.features(out)[1] > before  # only the second agent's health is left
