"""Why a Specter Ops action is illegal, and which rule says so.

Called only for actions already known to be illegal (``State.apply`` checked them), so
this module may be slow and thorough; it never changes the state.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core.errors import InvalidNotationError
from ...core.game import Action
from .state import AGENT, DRIVE, MOVE

if TYPE_CHECKING:
    from .state import SpecterOpsState

__all__ = ["explain"]


def _target(state: SpecterOpsState, action: Action) -> int | None:
    if len(action.args) != 1:
        return None
    try:
        return state.geo.parse(str(action.args[0]))
    except InvalidNotationError:
        return None


def _adjacent(state: SpecterOpsState, a: int, b: int) -> bool:
    return bool(state.geo.adjacent[a] >> b & 1)


def explain(state: SpecterOpsState, action: Action) -> tuple[str, str | None] | None:
    """``(reason, rule)`` for an illegal action, or None to use the generic reason."""
    kind = action.kind
    geo = state.geo
    if state.phase == "agent":
        here = state.path[-1]
        if kind == "step":
            t = _target(state, action)
            if t is None:
                return f"{action.args!r} is not a square of this board", None
            if len(state.path) - 1 >= MOVE:
                return f"the agent moves at most {MOVE} steps", "SO-A1"
            if not _adjacent(state, here, t):
                return f"{geo.name(t)} is not next to {geo.name(here)}", "SO-A1"
            if not geo.passable >> t & 1:
                return f"{geo.name(t)} is blocking terrain", "SO-A1"
            if any(h.square == t and not h.aboard for h in state.hunters):
                return f"a hunter stands on {geo.name(t)}", "SO-A1"
            if t == state.vehicle:
                return (
                    f"the vehicle's square {geo.name(t)} may be crossed but not ended on, "
                    "and this step could not go on",
                    "SO-A3",
                )
            return (
                f"the diagonal step {geo.name(here)}-{geo.name(t)} squeezes between two "
                "blocking squares",
                "SO-A2",
            )
        if kind == "stop":
            if here == state.vehicle:
                return "the agent may not end its move on the vehicle's square", "SO-A3"
            return "the agent may not end its move on a hunter's square", "SO-A3"
        return f"the agent may only step or stop now, not {kind}", "SO-A1"
    if state.phase == "order":
        if kind == "next":
            return "that hunter has already acted this round, or is not in the game", "SO-R1"
        return "the hunters must first choose who acts next (next H1 …)", "SO-R1"
    if state.current is None:  # pragma: no cover
        return None
    h = state.hunters[state.current]
    if state.phase == "attack":
        return "the hunter may now attack or end its turn", "SO-H2"
    # The hunter's movement.
    if kind == "attack":
        if h.aboard:
            return "a hunter aboard the vehicle may not attack", "SO-X6"
        if h.stunned:
            return "a stunned hunter may not attack", "SO-H4"
        return "a hunter attacks after its movement, when it sees the agent", "SO-H2"
    if kind == "sensor":
        if not h.aboard or not state.started_aboard:
            return "only a hunter that started its turn aboard may use the sensor", "SO-V7"
        return "the sensor may not be used in a round in which the vehicle moved", "SO-V7"
    if kind == "drive":
        if not h.aboard:
            return "only a hunter aboard the vehicle may drive it", "SO-V1"
        if state.vehicle_scanned:
            return "a vehicle that was scanned from does not move this round", "SO-V7"
        if state.drove >= DRIVE:
            return f"the vehicle drives at most {DRIVE} steps", "SO-V1"
        t = _target(state, action)
        if t is None or not geo.road >> t & 1:
            return "the vehicle drives only along the road", "SO-V1"
        if not _adjacent(state, state.vehicle, t):
            return "the vehicle drives one square per step", "SO-V1"
        return "a hunter on foot stands there", "SO-V1"
    if kind == "step":
        t = _target(state, action)
        if t is None:
            return f"{action.args!r} is not a square of this board", None
        if h.aboard:
            if state.drove:
                return "getting out ends the movement; this hunter has driven", "SO-V2"
            return (
                f"getting out goes to a free square next to the vehicle, not {geo.name(t)}",
                "SO-V2",
            )
        limit = state._limit(h)
        if state.steps >= limit:
            if h.stunned:
                return f"a stunned hunter moves at most {limit} steps", "SO-H4"
            return f"a hunter moves at most {limit} steps", "SO-H1"
        if not _adjacent(state, h.square, t):
            return f"{geo.name(t)} is not next to {geo.name(h.square)}", "SO-H1"
        if not geo.passable >> t & 1:
            return f"{geo.name(t)} is blocking terrain", "SO-H1"
        if not geo.graph.step_bits(1 << h.square) >> t & 1:
            return "the diagonal step squeezes between two blocking squares", "SO-A2"
        return (
            "a hunter may not end its move on another hunter, and from there it could not "
            "move on to a free square",
            "SO-H1",
        )
    if kind == "stop":
        return "a hunter may not end its move on another hunter", "SO-H1"
    if action.seat == AGENT:  # pragma: no cover - to_act excludes it
        return None
    return None
