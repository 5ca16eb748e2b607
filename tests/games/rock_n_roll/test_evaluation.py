"""Rock-n-Roll's position evaluation (search's cut-off rollouts): Vietnam's chance, the
VPA's its complement, from the full state alone."""

from __future__ import annotations

from typing import cast

import pytest

from fogofwar.core.game import State, get_ruleset
from fogofwar.core.rng import stream
from fogofwar.games.rock_n_roll.evaluation import (
    EVALUATION,
    MODEL,
    NAMES,
    RockNRollEvaluation,
)
from fogofwar.games.rock_n_roll.state import RockNRollState
from tests.random_play import states_along

from .helpers import RS, P, V, fresh, place


def _states(seed: int, every: int = 40, **config: object) -> list[RockNRollState]:
    """States of a random match, one every ``every`` actions, not over."""
    state = cast(RockNRollState, RS.new_game(config, seed))
    return states_along(state, stream(seed, "rnr-evaluation"), every=every)


def test_the_model_has_one_weight_per_feature() -> None:
    assert MODEL.names == NAMES
    assert len(MODEL.weights) == len(MODEL.names)
    assert RS.evaluation(RS.resolve_config({})) is EVALUATION
    assert RS.evaluation(RS.resolve_config({"rounds": 3})) is EVALUATION
    assert len(EVALUATION.features(fresh())) == len(NAMES)
    assert EVALUATION.side == V


@pytest.mark.parametrize("seed", [1, 2])
def test_the_chance_is_a_probability_and_the_sides_share_it(seed: int) -> None:
    # PT-C6: a match has two sides; the one that wins more rounds wins it.
    states = _states(seed)
    assert len(states) > 5
    for state in states:
        p = EVALUATION.chance(state)
        assert 0.0 < p < 1.0
        assert all(isinstance(f, float) for f in EVALUATION.features(state))
        assert EVALUATION.on_side(state, V) and not EVALUATION.on_side(state, P)
        assert EVALUATION(state, V) == p
        assert EVALUATION(state, V) + EVALUATION(state, P) == pytest.approx(1.0)


def test_a_round_won_moves_the_chance_to_the_winner() -> None:
    # PT-C6: the rounds won decide the match.
    level = EVALUATION.chance(fresh())
    for side, sign in ((V, 1), (P, -1)):
        state = fresh()
        state.rounds_won[side] += 1
        assert EVALUATION.features(state)[NAMES.index("rounds")] == sign / 3
        assert sign * (EVALUATION.chance(state) - level) > 0.1
        assert EVALUATION(state, V) + EVALUATION(state, P) == pytest.approx(1.0)


def test_a_point_held_late_in_the_round_counts_for_its_holder() -> None:
    # PT-C2, PT-C6: units on a Point hold it; holding counts at the round's end (PT-C3).
    state = fresh()
    for side in (V, P):
        for _ in range(16):
            state.order_deck[side].draw()
    level = EVALUATION.chance(state)

    def units(side: str, strength: int) -> list[str]:
        return [c for c in state.unit_deck[side] if state.pieces[c].card.strength == strength]

    place(state, units(V, 2)[0], "C")
    features = EVALUATION.features(state)
    assert features[NAMES.index("held")] > 0.2
    assert features[NAMES.index("strength")] > 0
    assert EVALUATION.chance(state) > level
    for unit in units(P, 2)[:2]:
        place(state, unit, "C")
    assert EVALUATION.features(state)[NAMES.index("held")] < 0
    assert EVALUATION.chance(state) < level


def test_the_evaluation_refuses_another_games_state() -> None:
    other: State = get_ruleset("zero-dark").new_game({}, 0)
    with pytest.raises(TypeError):
        RockNRollEvaluation().features(other)
