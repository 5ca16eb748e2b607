"""The agent side's chance to win a Specter Ops game not yet over, for ``ismcts``'s
``depth`` (see :mod:`fogofwar.core.game.evaluation`).

The features read the true state only — the first agent's square, health and
objectives, the hunters' squares, the round — never the hunters' possibility maps,
which a search's world does not keep (:meth:`~.state.SpecterOpsState.skip_views`):

* **objectives** — objectives completed, as a fraction of the 3 the escape needs
  (SO-O1, SO-E1);
* **health** — the agent's health left, over 8 (the most it can have: 4, +2 with 4
  players, +2 for the Orangutan; SO-S6, SO-F1); a hit costs 1 and 0 loses (SO-E3);
* **rounds left** — the fraction of the round limit still to play (SO-G3);
* **hunter distance** — king's moves to the nearest hunter figure, capped at 12, over 12;
* **goal distance** — steps (terrain only) to the next goal: a square next to an open
  objective site, or once 3 are done an escape point (SO-O1, SO-E1); capped at 24, over 24;
* **route** — steps of the shortest walk that completes the objectives still needed and
  ends on an escape point (the distances between sites cached per board); capped at 80,
  over 80.

After the traitor's reveal (SO-T6) the side needs both agents to escape and loses if
either is eliminated: the agents still on the board give the lowest health, the nearest
hunter to either, and the longer of their walks.

Most games the heuristic bots play end with the agent eliminated: the steps it still
has to walk while the hunters look for it (route, goal) weigh most, then its health and
the objectives behind it. The agent seen or not, the hunters within 4, its cards left
and whether it may escape now were tried and added nothing on held-out games.

The weights differ by player count (the hunters' number, the agent's health and the
secret sites change the game, SO-G4, SO-F1, SO-S3: the agent won 13.5% of the fit's rows
with 2–3 players, 7.1% with 4, 2.3% with 5), so each count has its own fitted model
(:func:`agent_chance`); 2 players play the 3-player game's figures (two hunters, one
seat moving both) and share its model.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from ...core.game import Evaluation, LogisticModel, State
from .geometry import Geometry
from .state import AGENT, SpecterOpsState
from .state.pieces import OBJECTIVES_TO_ESCAPE

__all__ = ["MODELS", "NAMES", "AgentChance", "agent_chance"]

NAMES = (
    "objectives",
    "health",
    "rounds left",
    "hunter distance",
    "goal distance",
    "route",
)
_MAX_HEALTH = 8
_FAR_KING = 12
_FAR_GOAL = 24
_FAR_ROUTE = 80
_UNREACHABLE = 10_000


@functools.lru_cache(maxsize=512)
def _field(geo: Geometry, targets: int) -> tuple[int, ...]:
    """Steps (terrain only) from every square to the nearest of ``targets``."""
    return tuple(geo.graph.distance_list(targets, unreachable=_UNREACHABLE))


def _next_to(geo: Geometry, site: int) -> int:
    """The squares from which an objective site is completed (SO-O1)."""
    return geo.adjacent[site] & geo.passable


@functools.lru_cache(maxsize=4096)
def _gap(geo: Geometry, site: int, targets: int) -> int:
    """Steps from the squares next to ``site`` to the nearest of ``targets``."""
    field = _field(geo, targets)
    return min(field[i] for i in geo.indices(_next_to(geo, site)))


# Secret sites (4-5 players) give each sampled world its own sites: room for many.
@functools.lru_cache(maxsize=1 << 16)
def _tail(geo: Geometry, site: int, others: frozenset[int], need: int, escape: int) -> int:
    """Steps of the shortest walk from ``site`` that completes ``need`` more of
    ``others`` and ends on an escape point."""
    if need == 0:
        return _gap(geo, site, escape)
    return min(
        _gap(geo, site, _next_to(geo, nxt)) + _tail(geo, nxt, others - {nxt}, need - 1, escape)
        for nxt in others
    )


# A search evaluates many worlds whose agents stand on the same squares.
@functools.lru_cache(maxsize=1 << 16)
def _walks(
    geo: Geometry,
    here: int,
    done: int,
    sites: tuple[int, ...],
    completed: tuple[bool, ...],
    escape: int,
) -> tuple[int, int]:
    """(goal, route) steps from ``here``: to the next goal, and of the whole walk
    through the objectives still needed to an escape point."""
    if done >= OBJECTIVES_TO_ESCAPE:
        out = _field(geo, escape)[here]
        return out, out
    need = OBJECTIVES_TO_ESCAPE - done
    open_sites = frozenset(s for s, d in zip(sites, completed, strict=True) if not d)
    goal = route = _UNREACHABLE
    for site in open_sites:
        first = _field(geo, _next_to(geo, site))[here]
        goal = min(goal, first)
        route = min(route, first + _tail(geo, site, open_sites - {site}, need - 1, escape))
    return goal, route


class AgentChance(Evaluation):
    """The agent side's chance (the traitor's seat included, SO-T6) under ``model``."""

    side = "agent"

    def __init__(self, model: LogisticModel) -> None:
        self.model = model

    def features(self, state: State) -> tuple[float, ...]:
        if not isinstance(state, SpecterOpsState):
            raise TypeError(f"a Specter Ops state, not {type(state).__name__}")
        geo = state.geo
        done = sum(state.done)
        escape = state.escape_bits()
        w = geo.width
        # After the traitor's reveal (SO-T6) the side needs both agents out and loses
        # with either: the weaker one sets health and nearness, the slower one the walk.
        health, near, goal, route = _MAX_HEALTH, _FAR_KING, 0, 0
        for agent in state.agents:
            if agent.escaped:
                continue
            here = agent.path[-1] if agent.path else agent.square  # mid-move: where it is
            g, r = _walks(geo, here, done, state.sites, tuple(state.done), escape)
            goal, route = max(goal, g), max(route, r)
            health = min(health, agent.health)
            row, col = divmod(here, w)
            for h in state.hunters:
                hr, hc = divmod(h.square, w)
                near = min(near, max(abs(hr - row), abs(hc - col)))
        rounds = state.max_rounds
        return (
            min(done, OBJECTIVES_TO_ESCAPE) / OBJECTIVES_TO_ESCAPE,
            health / _MAX_HEALTH,
            (rounds - state.round + 1) / rounds,
            near / _FAR_KING,
            min(goal, _FAR_GOAL) / _FAR_GOAL,
            min(route, _FAR_ROUTE) / _FAR_ROUTE,
        )

    def on_side(self, state: State, seat: str) -> bool:
        if not isinstance(state, SpecterOpsState):
            raise TypeError(f"a Specter Ops state, not {type(state).__name__}")
        # SO-T6: the traitor wins with the agent (its seat is known once dealt).
        return seat == AGENT or (bool(state.traitor_seat) and seat == state.traitor_seat)


#: The fitted models by player count: ``bench/fit_evaluation.py specter-ops 1000 --set
#: players=N`` (the default options: characters on, the traitor on with 5).
MODELS: Mapping[int, LogisticModel] = {
    3: LogisticModel(NAMES, (2.9147, 1.668, 2.5144, 1.4112, -0.9205, -1.9225), -5.5748),
    4: LogisticModel(NAMES, (2.336, 0.9692, 1.5343, 0.9934, -1.0513, -2.6605), -4.642),
    5: LogisticModel(NAMES, (2.2657, 0.6021, 1.0191, 0.8726, -1.4728, -2.7321), -4.6148),
}
_CHANCES = {n: AgentChance(m) for n, m in MODELS.items()}


def agent_chance(config: Mapping[str, Any]) -> AgentChance:
    """The evaluation for a resolved configuration: its player count's model (2 players
    share the 3-player one)."""
    return _CHANCES[max(3, int(config["players"]))]
