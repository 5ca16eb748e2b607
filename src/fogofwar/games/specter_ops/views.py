"""Seat views of Specter Ops, built from what each seat may know (SO-I1, SO-I2).

A view is the *public projection* (what every seat and a spectator know: the table,
the announcements, the possibility map) plus, for the agent's seat only, its secret
map. The public part is built from public fields alone; nothing is copied from the
whole state and then deleted.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core.game import PlayerView
from .state import AGENT

if TYPE_CHECKING:
    from .state import SpecterOpsState

__all__ = ["PUBLIC_PHASE", "build_view", "public_view"]

PUBLIC_PHASE = {
    "agent_after": "agent",
    "pick_hunter": "setup",
    "pick_agent": "setup",
    "pick_cards": "setup",
}


def public_view(state: SpecterOpsState, seat: str | None) -> dict[str, Any]:
    """What every seat knows now, plus the events of this round addressed to ``seat``."""
    geo = state.geo
    current = None
    if state.current is not None:
        h = state.hunters[state.current]
        current = {
            "hunter": h.id,
            "steps": state.steps,
            "limit": state._limit(h),
            "drove": state.drove,
            "started_aboard": state.started_aboard,
        }
    shown = state.public_agent_square()
    objectives = [
        {"sector": j + 1, "site": None if site is None else geo.name(site), "done": done}
        for j, (site, done) in enumerate(zip(state.public_sites, state.done, strict=True))
    ]
    possible = state.knowledge.squares
    return {
        "round": state.round,
        "max_rounds": state.max_rounds,
        "players": state.players,
        # The agent's turn and its setup look the same from outside, whatever it does.
        "phase": PUBLIC_PHASE.get(state.phase, state.phase),
        "to_act": sorted(state.to_act()),
        "current": current,
        "hunters": [
            {
                "id": h.id,
                "seat": h.seat,
                "square": geo.name(h.square),
                "aboard": h.aboard,
                "stunned": h.stunned,
                "acted": h.acted,
                "character": h.character or None,
            }
            for h in state.hunters
        ],
        "vehicle": {
            "square": geo.name(state.vehicle),
            "moved": state.vehicle_moved,
            "scanned": state.vehicle_scanned,
        },
        "agent": {
            "character": (
                state.character
                if (state.character_public or state.is_over) and state.character
                else None
            ),
            "health": state.health if state.character_public or state.is_over else None,
            "revealed_at": None if shown is None else geo.name(shown),
            "last_seen": None if state.last_seen is None else geo.name(state.last_seen),
            "objectives_done": sum(state.done),
        },
        "objectives": objectives,
        "smoke": geo.names(state._smoke_bits()),
        "sensor_jammed": state.jammed_until == state.round,
        "possible": geo.names(possible),
        "possible_count": possible.bit_count(),
        "events": [e.to_json() for e in state.events[state.round_events :] if e.visible_to(seat)],
        "outcome": None if state.outcome() is None else state.outcome().to_json(),  # type: ignore[union-attr]
    }


def build_view(state: SpecterOpsState, seat: str | None) -> PlayerView:
    """The view of ``seat`` (``None``: a spectator)."""
    data = public_view(state, seat)
    if seat == AGENT:
        geo = state.geo
        data["secret"] = {
            "square": geo.name(state.path[-1]),
            "path": [geo.name(s) for s in state.path],
            "steps_left": (
                max(0, state._move_limit() - (len(state.path) - 1))
                if state.phase == "agent"
                else None
            ),
            "last_move_steps": state.last_steps,
            "objective_sites": [geo.name(s) for s in state.sites],
            "character": state.character or None,
            "health": state.health,
            "cards": dict(state.cards),
            "moment": state.phase if state.phase.startswith(("agent", "pick")) else None,
            "move_limit": state._move_limit(),
            "used_this_turn": [c for c in (state.used_before, state.used_after) if c],
        }
    if state.is_over:
        # After the game every secret is public: the record and every view agree.
        geo = state.geo
        data["final"] = {
            "agent_square": geo.name(state.agent_square),
            "objective_sites": [geo.name(s) for s in state.sites],
            "character": state.character or None,
            "cards": dict(state.cards),
        }
    return PlayerView(state.ruleset.id, seat, data)
