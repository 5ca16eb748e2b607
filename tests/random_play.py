"""Random play shared by the rule sets' tests: states met along a game."""

from __future__ import annotations

from typing import TypeVar

from fogofwar.core.game import State
from fogofwar.core.rng import Stream

S = TypeVar("S", bound=State)


def states_along(state: S, rng: Stream, *, every: int = 1, limit: int | None = None) -> list[S]:
    """Clones of ``state`` every ``every`` actions of a random game (the first seat to act
    picks uniformly from ``rng``), until it is over or ``limit`` actions are played;
    ``state`` is played on."""
    out: list[S] = []
    n = 0
    while not state.is_over and (limit is None or n < limit):
        if n % every == 0:
            out.append(state.clone())
        seat = sorted(state.to_act())[0]
        state.apply(rng.choice(list(state.legal_actions(seat))))
        n += 1
    return out
