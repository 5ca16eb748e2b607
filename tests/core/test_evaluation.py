"""The logistic model behind a rule set's position evaluation (search's cut rollouts)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fogofwar.core.errors import RulesError
from fogofwar.core.game import LogisticModel


def test_a_model_has_one_weight_per_feature() -> None:
    with pytest.raises(RulesError, match="one weight per feature: 2 names, 1 weights"):
        LogisticModel(("a", "b"), (1.0,))
    model = LogisticModel(("a", "b"), (1.0, -2.0), 0.5)
    with pytest.raises(RulesError, match=r"takes 2 features \(a, b\), not 3"):
        model.chance((1.0, 2.0, 3.0))


def test_the_chance_is_the_logistic_of_the_score() -> None:
    model = LogisticModel(("a", "b"), (1.0, -2.0), 0.5)
    z = 0.5 + 1.0 * 0.3 - 2.0 * 0.4
    assert model.chance((0.3, 0.4)) == pytest.approx(1 / (1 + math.exp(-z)))
    assert LogisticModel((), (), 0.0).chance(()) == 0.5


@given(st.floats(-1e6, 1e6), st.floats(-1e3, 1e3))
def test_the_chance_never_overflows_and_is_monotonic(x: float, w: float) -> None:
    model = LogisticModel(("x",), (w,))
    p = model.chance((x,))
    assert 0.0 <= p <= 1.0
    q = model.chance((x + 1.0,))
    assert (q >= p) if w >= 0 else (q <= p)
