"""Why a Specter Ops action is illegal, and which rule says so.

Called only for actions already known to be illegal (``State.apply`` checked them), so
this module may be slow and thorough; it never changes the state.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core.errors import InvalidNotationError
from ...core.game import Action
from .characters import AGENTS, CARDS, HUNTERS, card_pool
from .state import DRIVE, MOVE

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
    if state.phase.startswith("pick"):
        return _explain_setup(state, action)
    if state.phase == "deal":
        if kind != "traitor":
            return "the agent first deals the role cards: 'traitor H1' … 'traitor H4'", "SO-T2"
        return "the traitor card goes to one of the hunters H1 … H4", "SO-T2"
    if kind in ("accuse", "reveal", "traitor"):
        return _explain_traitor(state, action)
    if kind == "use" and state.phase in ("agent", "agent_after"):
        return _explain_use(state, action)
    if state.phase == "agent_after":
        return "after moving the agent may use a card or say done", "SO-A7"
    if state.phase == "agent":
        here = state.path[-1]
        if kind == "step":
            t = _target(state, action)
            if t is None:
                return f"{' '.join(map(str, action.args))} is not a square of this board", None
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
        if kind == "attack" and len(state.agents) == 2:
            return "attack names an agent this hunter sees on the board: A1 or A2", "SO-H2"
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
            return f"{' '.join(map(str, action.args))} is not a square of this board", None
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
        if not geo.steps[h.square] >> t & 1:
            return "the diagonal step squeezes between two blocking squares", "SO-A2"
        return (
            "a hunter may not end its move on another hunter, and from there it could not "
            "move on to a free square",
            "SO-H1",
        )
    if kind == "stop":
        return "a hunter may not end its move on another hunter", "SO-H1"
    if kind == "sniff":
        return "the Beast sniffs after its movement: stop first", "SO-H2"
    # Any other kind (end, done, a setup or an agent's action) in the hunter's movement.
    kinds = ", ".join(sorted({a.kind for a in state.legal_actions(action.seat)}))
    return f"a moving hunter may {kinds} now, not {kind}", "SO-H1"


def _explain_traitor(state: SpecterOpsState, action: Action) -> tuple[str, str | None]:
    """Why an accusation, a reveal or a deal is refused (SO-T2, SO-T4)."""
    kind = action.kind
    if kind == "traitor":
        return "the role cards are dealt once, at the end of setup", "SO-T2"
    if not state.traitor_game:
        return "there is a traitor only in the 5-player game with the switch on", "SO-G1"
    if state.traitor_revealed:
        return "the traitor has already been revealed", "SO-T4"
    if state.phase != "hunter" or state.current is None:
        return f"a hunter may {kind} only at the start of its own turn", "SO-T4"
    if state.steps or state.drove:
        return f"a hunter may {kind} only at the start of its turn, before moving", "SO-T4"
    if kind == "reveal":
        return "only the traitor may reveal itself", "SO-T4"
    if action.seat in state.accused:
        return "each hunter may accuse only once per game", "SO-T4"
    return "a hunter accuses one of the other hunters (H1 … H4)", "SO-T4"


def _explain_setup(state: SpecterOpsState, action: Action) -> tuple[str, str | None]:
    """SO-S4: hunters choose in public, figure by figure; the agent a character, then
    its cards from its pool."""
    args = [str(a) for a in action.args]
    if state.phase == "pick_hunter":
        if action.kind != "character" or len(args) != 2:
            return "each hunter figure first chooses a character: character H1 gun", "SO-S4"
        if args[1] not in HUNTERS:
            return f"{args[1]!r} is not a hunter character ({', '.join(HUNTERS)})", "SO-S4"
        if any(h.character == args[1] for h in state.hunters):
            return f"{args[1]} is already taken", "SO-S4"
        return "the hunters choose in figure order, one figure at a time", "SO-S4"
    if state.phase == "pick_agent":
        if action.kind != "character" or len(args) != 1 or args[0] not in AGENTS:
            return f"the agent chooses a character: {', '.join(AGENTS)}", "SO-S4"
        return "the agent has already chosen its character", "SO-S4"
    if action.kind != "card" or len(args) != 1:
        return "the agent now chooses its equipment cards: card flash-bang", "SO-S4"
    if args[0] in state.cards:
        return f"{args[0]} is already taken", "SO-S4"
    pool = ", ".join(card_pool(state.character))
    return f"{args[0]!r} is not a card this agent may take ({pool})", "SO-S4"


def _explain_use(state: SpecterOpsState, action: Action) -> tuple[str, str | None]:
    """SO-A7 (one card per turn, before or after moving) and SO-A8 (uses)."""
    card_id = str(action.args[0]) if action.args else ""
    if card_id not in CARDS:
        return f"{card_id!r} is not an equipment card", "SO-A7"
    if card_id not in state.cards:
        return f"the agent has no {card_id} card", "SO-A7"
    if state.cards[card_id] <= 0:
        return f"{card_id} is spent: its uses are gone", "SO-A8"
    used = [c for c in (state.used_before, state.used_after) if c]
    if len(used) >= state.per_turn or card_id in used:
        return f"the agent may use {state.per_turn} card(s) per turn", "SO-A7"
    card = CARDS[card_id]
    moment = "before" if state.phase == "agent" else "after"
    if state.phase == "agent" and len(state.path) > 1:
        return "a card is used before the first step or after the last", "SO-A7"
    if card.when not in (moment, "either"):
        return f"{card.name} is used {card.when} moving", "SO-A7"
    if card.target:
        return f"{card.name} needs a {card.target} within {card.reach} squares", "SO-A7"
    return f"{card.name} cannot be used now", "SO-A7"
