"""Rock-n-Roll's position evaluation (for search that cuts its rollouts short,
:class:`~fogofwar.core.game.evaluation.Evaluation`): a logistic model of Vietnam's
chance (the VPA's is its complement, a drawn match a half to both) from a few
differences, Vietnam's less the VPA's, of the full state.

The weights come from ``bench/fit_evaluation.py rock-n-roll`` (docs/rock-n-roll.md,
"Evaluation (for search)"); one model serves every configuration (the options set the
most rounds and the RD rules, and the rounds won are counted against the wins a match
needs, the card files' ``round_wins``).
"""

from __future__ import annotations

from typing import Final

from ...core.game import Evaluation, LogisticModel, State
from .state import SIDES, RockNRollState, Zone

__all__ = ["EVALUATION", "MODEL", "NAMES", "RockNRollEvaluation"]

#: The features' names, in the model's order (see :meth:`RockNRollEvaluation.features`).
NAMES: Final = ("rounds", "held", "strength", "reserves", "rd")

#: Scales that bring the sums of strength and RD to about -1..1.
STRENGTH_SCALE: Final = 20.0
RD_SCALE: Final = 10.0

#: Fitted by ``bench/fit_evaluation.py rock-n-roll 400`` (400 matches of ``rnr-heuristic``
#: bots, a row every 5 actions; held-out figures in docs/rock-n-roll.md).
MODEL: Final = LogisticModel(
    names=NAMES,
    weights=(2.5323, 1.0092, 1.561, 0.4513, 0.4264),
    bias=-0.2593,
)


class RockNRollEvaluation(Evaluation):
    """Vietnam's chance to win a Rock-n-Roll match."""

    side = SIDES[0]

    def __init__(self, model: LogisticModel = MODEL) -> None:
        self.model = model

    def on_side(self, state: State, seat: str) -> bool:
        return seat == SIDES[0]

    def features(self, state: State) -> tuple[float, ...]:
        """Each Vietnam's less the VPA's: ``rounds`` (rounds won, per the rounds a
        match needs, PT-C6), ``held`` (the victory value of the Points held, per the
        row's total, times how far the round has come by the order decks left: holding
        counts at the round's end, PT-C3, PT-C6), ``strength`` (the dice of the units on
        the Points, each times its toughness left, PT-C5), ``reserves`` (the dice of the
        units in hand and in the HQ, to be deployed, PT-C2) and ``rd`` (RD to pour into
        rolls and pay with, PT-C4, PT-R1)."""
        if not isinstance(state, RockNRollState):
            raise TypeError(f"a Rock-n-Roll evaluation reads a Rock-n-Roll state, not {state!r}")
        first, second = SIDES
        wins = int(state.setup["round_wins"])
        point, reserve = Zone.POINT, (Zone.HAND, Zone.HQ)
        held = [0] * len(state.points)
        strength = 0.0
        reserves = 0
        for pc in state.pieces.values():
            zone = pc.zone
            if zone == point:
                sign = 1 if pc.owner == first else -1 if pc.owner == second else 0
                if sign:
                    held[pc.pos] += sign
                    card = pc.card
                    left = max(0, card.toughness - pc.hits) / card.toughness
                    strength += sign * card.strength * left
            elif zone in reserve and not pc.card.is_local:
                reserves += pc.card.strength if pc.holder == first else -pc.card.strength
        total = sum(p.value for p in state.points) or 1
        value = sum(p.value * ((h > 0) - (h < 0)) for p, h in zip(state.points, held, strict=True))
        full = 2 * int(state.setup["order_deck"]) or 1
        come = 1.0 - (len(state.order_deck[first]) + len(state.order_deck[second])) / full
        return (
            (state.rounds_won[first] - state.rounds_won[second]) / wins,
            value / total * max(0.0, come),
            strength / STRENGTH_SCALE,
            reserves / STRENGTH_SCALE,
            (state.rd[first] - state.rd[second]) / RD_SCALE,
        )


EVALUATION: Final = RockNRollEvaluation()
"""The rule set's evaluation (one for every configuration)."""
