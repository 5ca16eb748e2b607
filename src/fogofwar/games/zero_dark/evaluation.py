"""Zero Dark's position evaluation (for search that cuts its rollouts short,
:class:`~fogofwar.core.game.evaluation.Evaluation`): a logistic model of the heroes'
chance from a few figures of the full state.

Solo (the side ``heroes``, the seat ``team``): how far the mission's win conditions
have come, the heroes not lost, the Control Deck's cards to come, the work still to do
late in the deck, and the steps to the mission's next goal. Versus (the side ``team1``;
``team2`` gets the complement, a draw being a half to both): the progress, heroes and
steps of each team, team1's less team2's.

Each shipped mission has its own weights (:data:`MISSION_MODELS`): the same figure
weighs differently on different missions (The boss is a race against the deck, time's
weight 3.3; The spy's walk out with the spy makes the steps to the goal count double),
and one fit to both solo missions loses on each (held-out log loss 0.440 against its own
0.410 on The boss, 0.278 against 0.272 on The spy). Any other solo configuration gets
:data:`SOLO`, any other Versus one :data:`VERSUS`. The weights come from ``bench/fit_evaluation.py``
(docs/zero-dark.md, "Evaluation (for search)").
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from types import MappingProxyType
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from ...core.game import Evaluation, LogisticModel, State
from ...core.grid import Board, Square, move_graph
from .fear import ModelState
from .state import TEAM, Side, ZeroDarkState

__all__ = [
    "MISSION_MODELS",
    "SOLO",
    "SOLO_FEATURES",
    "VERSUS",
    "VERSUS_FEATURES",
    "ZeroDarkEvaluation",
    "evaluation_for",
]

#: The solo features, in the model's order (see :meth:`ZeroDarkEvaluation.features`).
SOLO_FEATURES: Final = ("progress", "heroes", "time", "late", "goal")
#: The Versus features: each team's figure, team1's less team2's.
VERSUS_FEATURES: Final = ("progress", "heroes", "goal")

#: A full Control Deck (ZD-C6): 52 cards and two Jokers.
DECK: Final = 54
#: The Observation task's count of bogeys to target (ZD-T5).
OBSERVE: Final = 5

# Fitted by ``bench/fit_evaluation.py zero-dark 200 --set mission=NAME`` (200 games of
# ``zd-team`` bots, a row every 5 actions; held-out log loss against the base rate's in
# docs/zero-dark.md).
MISSION_MODELS: Final[Mapping[str, LogisticModel]] = MappingProxyType(
    {
        "the-spy": LogisticModel(
            names=SOLO_FEATURES,
            weights=(1.9505, 0.277, 0.9219, -4.1555, -2.4283),
            bias=-0.9572,
        ),
        "the-boss": LogisticModel(
            names=SOLO_FEATURES,
            weights=(1.0382, 0.2848, 3.3161, -1.9634, -1.1128),
            bias=-3.7031,
        ),
        "dead-drop": LogisticModel(
            names=VERSUS_FEATURES,
            weights=(2.3461, 1.2035, -2.327),
            bias=0.4364,
        ),
    }
)

#: Any other solo configuration: one fit to the rows of both solo missions together. The
#: default configuration (every objective of ``zd-corridor`` and survival) cannot be
#: fitted: its heuristic team never wins (0 of 200 games); this model still ranks its
#: positions by the same figures.
SOLO: Final = LogisticModel(
    names=SOLO_FEATURES,
    weights=(1.3462, 0.1764, 1.2909, -4.1024, -1.5511),
    bias=-1.5542,
)
#: Any other Versus configuration: Dead drop's weights (the one Versus mission).
VERSUS: Final = MISSION_MODELS["dead-drop"]


class ZeroDarkEvaluation(Evaluation):
    """The heroes' chance (solo) or team1's (Versus) in a Zero Dark mission."""

    def __init__(self, model: LogisticModel, versus: bool) -> None:
        self.model = model
        self.versus = versus
        self.side = "team1" if versus else "heroes"

    def on_side(self, state: State, seat: str) -> bool:
        """Solo: the team's seat; Versus: team1's (team2 is the other side)."""
        return seat == ("team1" if self.versus else TEAM)

    def features(self, state: State) -> tuple[float, ...]:
        """Solo: ``progress`` (the win conditions but survival, each in [0, 1] — a
        fraction of the objectives worked, the task's bogey turned over, down, verified
        …, averaged), ``heroes`` (the fraction not lost: standing or left by the exit,
        ZD-C5), ``time`` (the Control Deck's flips to come, the Spook's hand and a second
        deck counted, per full deck: ZD-C6, ZD-C7, ZD-B3), ``late`` ((1 - progress)·(1 -
        time): the work left as the deck runs out) and ``goal`` (the steps from the side
        to its next goal, per the map's width and height; 1 when out of reach or not yet
        known). Versus: ``progress``, ``heroes`` and ``goal``, team1's less team2's."""
        if not isinstance(state, ZeroDarkState):
            raise TypeError(f"a Zero Dark evaluation reads a Zero Dark state, not {state!r}")
        if self.versus:
            a, b = (_side_figures(state, side) for side in state.sides.values())
            return (a[0] - b[0], a[1] - b[1], a[2] - b[2])
        progress, heroes, goal = _side_figures(state, state.sides[TEAM])
        time = _cards_to_come(state) / DECK
        return (progress, heroes, time, (1.0 - progress) * max(0.0, 1.0 - time), goal)


def evaluation_for(config: Mapping[str, Any]) -> ZeroDarkEvaluation:
    """The evaluation of a resolved configuration: its shipped mission's weights when it
    is played in the mode they were fitted for, else the generic solo or Versus ones."""
    versus = config["mode"] != "solo"
    mission = str(config.get("mission") or "")
    generic = VERSUS if versus else SOLO
    model = MISSION_MODELS.get(mission, generic)
    if model.names != generic.names:
        # A mission played in the other mode (its options overridden): its own weights
        # are for the other mode's features.
        model = generic
    return ZeroDarkEvaluation(model, versus)


# --------------------------------------------------------------------------- figures


def _cards_to_come(state: ZeroDarkState) -> int:
    """The activations the Control Deck has left (ZD-C6): its cards, the cards still to
    come again from the second deck (ZD-B3) and the cards of the Spooks' hands, each an
    activation without a flip (ZD-C7)."""
    deck = state.deck
    left = len(deck)
    if state.aside_target and not state.second_deck:
        aside = len(deck.pile("aside")) if "aside" in deck.pile_names else 0
        left += min(state.aside_target, aside + len(deck))
    return left + sum(len(side.hand) for side in state.sides.values())


def _side_figures(state: ZeroDarkState, side: Side) -> tuple[float, float, float]:
    """(progress, heroes, goal) of one side."""
    models = state.position.models
    n = len(side.heroes) or 1
    kept = 0
    standing: list[Square] = []
    spook: Square | None = None
    for h in side.heroes:
        if h in state.exited:
            kept += 1
            continue
        m = models.get(h)
        if h in state.dead or m is None or m.state is ModelState.OOA:
            continue
        kept += 1
        standing.append(m.square)
        if h == side.spook:
            spook = m.square
    parts: list[float] = []
    goal: float | None = None
    scale = float(state.board.width + state.board.height)

    def steps(targets: Collection[Square], frm: list[Square]) -> float:
        if not targets or not frm:
            return 1.0
        dist = _steps_map(state, targets)
        found = [int(dist[s.row, s.col]) for s in frm]
        best = min((d for d in found if d >= 0), default=-1)
        return 1.0 if best < 0 else min(1.0, best / scale)

    def hunt(bid: str | None, revealed: float) -> tuple[float, float]:
        """The task's bogey (ZD-T3, ZD-T4): ``revealed`` once it is turned over (else 0),
        and the Spook's king-move distance to it (else 1)."""
        m = models.get(bid or "")
        if m is None or m.kind != "bogey":
            return (0.0, 1.0)
        if spook is None:
            return (revealed, 1.0)
        near = max(abs(m.square.row - spook.row), abs(m.square.col - spook.col))
        return (revealed, min(1.0, near / scale))

    for cond in state.win:
        part, near = 1.0, 0.0
        if cond == "survive":
            continue
        if cond == "objectives":
            marked = state.board.markers.get("objective", ())
            todo = [sq for sq in marked if sq.name not in state.objectives_done]
            if state.mode == "solo":
                part = 1.0 - len(todo) / max(1, len(marked))
            else:  # Versus: one objective at least (ZD-C8)
                part = float(any(seat == side.seat for seat in state.objectives_by.values()))
            near = 0.0 if part >= 1.0 else steps(todo, standing)
        elif cond == "acquisition":
            part = float(side.task == "acquisition" and side.acquired and spook is not None)
            if not side.acquired:
                near = steps((state.deployment_marker,), [] if spook is None else [spook])
        elif cond == "rescue":
            if side.rescued is None:
                part, near = hunt(side.double_agent, 0.25)
        elif cond == "assassination":
            if not side.verified:
                boss = models.get(side.boss_target or "")
                down = boss is not None and boss.state is ModelState.DOWN
                part, near = hunt(side.boss_target, 2 / 3 if down else 1 / 3)
        elif cond == "extract":
            ally = models.get(side.rescued or "")
            if side.rescued is None or side.rescued not in state.exited:
                part = 0.0 if ally is None else 0.5
                near = 1.0 if ally is None else steps(_exits(state.board), [ally.square])
        elif cond == "exit":
            part = float(any(h in state.exited for h in side.heroes))
            near = 0.0 if part else steps(_exits(state.board), standing)
        elif cond == "observation":
            part = min(1.0, len(side.observed) / OBSERVE)
        parts.append(part)
        if goal is None and part < 1.0:
            goal = near
    progress = sum(parts) / len(parts) if parts else 1.0
    return (progress, kept / n, 0.0 if goal is None else goal)


def _exits(board: Board) -> tuple[Square, ...]:
    return tuple(board.markers.get("exit", ()))


def _steps_map(state: ZeroDarkState, targets: Collection[Square]) -> npt.NDArray[np.int16]:
    """Steps to the nearest of ``targets`` with every door open (a hero opens a closed
    door on its way, ZD-C2), cached on the board like its other tables."""
    board = state.board
    diagonal = str(state.config["diagonal_block"])
    key = ("zd-eval-steps", diagonal, frozenset(targets))
    hit = board._cache.get(key)
    if hit is None:
        graph = move_graph(board, diagonal=diagonal, open_doors=list(board.doors))
        hit = graph.distance_map(list(targets))
        board._remember(key, hit)
    table: npt.NDArray[np.int16] = hit
    return table
