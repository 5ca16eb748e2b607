"""Position evaluation: an estimate of who will win a game that is not over, for search
that cuts its rollouts short (``ismcts``'s ``depth``).

A rule set that offers one returns an :class:`Evaluation` from
:meth:`~fogofwar.core.game.Ruleset.evaluation`. Its shape is a logistic model over a few
named features of the *full* state (search evaluates its own sampled worlds, never the
real game): the chance that one side of the game, the model's *side*, wins, with a draw
counting a half. The features are the rule set's choice (objectives done, wounds,
rounds left, ...); the weights are fitted to the outcomes of games between the rule
set's heuristic bots by ``bench/fit_evaluation.py``, which prints them with their
held-out log loss and Brier score beside the base rate's.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..errors import RulesError

if TYPE_CHECKING:
    from .protocol import State

__all__ = ["Evaluation", "LogisticModel"]


@dataclass(frozen=True, slots=True)
class LogisticModel:
    """``P(side wins) = 1 / (1 + exp(-(bias + Σ weights·features)))``.

    Attributes:
        names: the features' names, in order (for people and for the fit's printout).
        weights: one weight per feature.
        bias: the intercept.
    """

    names: tuple[str, ...]
    weights: tuple[float, ...]
    bias: float = 0.0

    def __post_init__(self) -> None:
        if len(self.names) != len(self.weights):
            raise RulesError(
                f"a logistic model has one weight per feature: {len(self.names)} names, "
                f"{len(self.weights)} weights"
            )

    def chance(self, features: Sequence[float]) -> float:
        """The modelled chance, in (0, 1), for one row of features."""
        if len(features) != len(self.weights):
            raise RulesError(
                f"the model takes {len(self.weights)} features ({', '.join(self.names)}), "
                f"not {len(features)}"
            )
        z = self.bias
        for w, f in zip(self.weights, features, strict=True):
            z += w * f
        # Either branch keeps exp() from overflowing on a large |z|.
        if z >= 0:
            return 1.0 / (1.0 + math.exp(-z))
        e = math.exp(z)
        return e / (1.0 + e)


class Evaluation(ABC):
    """A rule set's estimate of a seat's result from a full state that is not over.

    Subclasses set :attr:`model` and implement :meth:`features` (of the model's side)
    and :meth:`on_side`. :meth:`__call__` gives a seat's expected reward in [0, 1]: the
    side's chance for a seat on it, its complement for any other (a draw is a half to
    everyone, so the two add up to 1).
    """

    #: The fitted model of the side's chance.
    model: LogisticModel
    #: The side whose chance the model gives (for people: "agent", "team", ...).
    side: str

    @abstractmethod
    def features(self, state: State) -> tuple[float, ...]:
        """The model's features of ``state`` (a game not over), in :attr:`model`'s order."""

    @abstractmethod
    def on_side(self, state: State, seat: str) -> bool:
        """Whether ``seat`` plays for the model's side in ``state`` (in a game with a
        hidden traitor, the state says who it is)."""

    def chance(self, state: State) -> float:
        """The side's modelled chance to win ``state``."""
        return self.model.chance(self.features(state))

    def __call__(self, state: State, seat: str) -> float:
        p = self.chance(state)
        return p if self.on_side(state, seat) else 1.0 - p
