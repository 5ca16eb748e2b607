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
    from .state import Agent, SpecterOpsState

__all__ = ["PUBLIC_PHASE", "build_view", "public_view"]

PUBLIC_PHASE = {
    "agent_after": "agent",
    "pick_hunter": "setup",
    "pick_agent": "setup",
    "pick_cards": "setup",
    "deal": "setup",
}


def _public_agent(state: SpecterOpsState, a: Agent) -> dict[str, Any]:
    """What every seat knows of one agent figure."""
    geo = state.geo
    known = a.character_public or state.is_over
    return {
        "id": a.id,
        "character": a.character if known and a.character else None,
        "health": a.health if known else None,
        "revealed_at": None if a.shown is None else geo.name(a.shown),
        "last_seen": None if a.last_seen is None else geo.name(a.last_seen),
        "escaped": a.escaped,
    }


def _possible(state: SpecterOpsState, seat: str | None) -> int:
    """The first agent's possibility map as ``seat`` knows it (SO-I2): a loyal hunter's
    worlds are those in which another hunter is the traitor; the traitor's own map adds
    its concealed sightings (SO-T3); everyone else gets the public map."""
    a1 = state.agents[0]
    if not state.traitor_game or state.traitor_revealed or seat is None or seat == AGENT:
        return a1.knowledge.squares
    if seat == state.traitor_seat and state.traitor_map is not None:
        return state.traitor_map.squares
    mine = {h.id for h in state.hunters if h.seat == seat}
    if not mine:
        return a1.knowledge.squares
    return a1.knowledge.squares_where(lambda r: r[0] not in mine)


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
    objectives = [
        {"sector": j + 1, "site": None if site is None else geo.name(site), "done": done}
        for j, (site, done) in enumerate(zip(state.public_sites, state.done, strict=True))
    ]
    a1 = state.agents[0]
    possible = _possible(state, seat)
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
            **{k: v for k, v in _public_agent(state, a1).items() if k not in ("id", "escaped")},
            "objectives_done": sum(state.done),
        },
        "objectives": objectives,
        "smoke": geo.names(state._smoke_bits()),
        "sensor_jammed": state.jammed_until == state.round,
        "possible": geo.names(possible),
        "possible_count": possible.bit_count(),
        **_traitor_public(state),
        "events": [e.to_json() for e in state.events[state.round_events :] if e.visible_to(seat)],
        "outcome": None if state.outcome() is None else state.outcome().to_json(),  # type: ignore[union-attr]
    }


def _traitor_public(state: SpecterOpsState) -> dict[str, Any]:
    """The public side of the traitor game (SO-T2…T6): whether roles are dealt, who was
    accused, who was revealed, and the second agent's public traces."""
    if not state.traitor_game:
        return {}
    revealed = state.traitor if state.traitor_revealed else None
    return {
        "traitor": {
            "dealt": bool(state.traitor),
            "revealed": revealed,
            "accusations": dict(sorted(state.accused.items())),
        },
        "agent2": _public_agent(state, state.agents[1]) if len(state.agents) == 2 else None,
        "possible2": (
            state.geo.names(state.agents[1].knowledge.squares) if len(state.agents) == 2 else None
        ),
    }


def _secret(state: SpecterOpsState, index: int) -> dict[str, Any]:
    """An agent's own secret map (its seat only)."""
    geo = state.geo
    a = state.agents[index]
    focused = state.focus == index
    in_turn = focused and state.phase in ("agent", "agent_after")
    limit = state._move_limit() if in_turn else 4
    out: dict[str, Any] = {
        "square": geo.name(a.path[-1]),
        "path": [geo.name(s) for s in a.path],
        "steps_left": (
            max(0, limit - (len(a.path) - 1)) if focused and state.phase == "agent" else None
        ),
        "last_move_steps": a.last_steps,
        "character": a.character or None,
        "health": a.health,
        "cards": dict(a.cards),
        "moment": (state.phase if focused and state.phase.startswith(("agent", "pick")) else None),
        "move_limit": limit,
        "used_this_turn": [c for c in (a.used_before, a.used_after) if c] if in_turn else [],
    }
    if index == 0:
        out["objective_sites"] = [geo.name(s) for s in state.sites]
        if state.traitor:
            out["traitor"] = state.traitor  # SO-T2: the agent knows the traitor
    return out


def build_view(state: SpecterOpsState, seat: str | None) -> PlayerView:
    """The view of ``seat`` (``None``: a spectator)."""
    data = public_view(state, seat)
    if seat == AGENT:
        data["secret"] = _secret(state, 0)
    elif seat is not None and state.traitor_game and state.traitor:
        # SO-T2: each hunter seat knows its own role; the traitor its concealed
        # sightings (SO-T3) and, once revealed, its own agent's secret map (SO-T5).
        mine = seat == state.traitor_seat
        data["role"] = {
            "role": "traitor" if mine else "loyal",
            "concealed": list(state.concealed) if mine else None,
        }
        if mine and len(state.agents) == 2:
            data["secret"] = _secret(state, 1)
    if state.is_over:
        # After the game every secret is public: the record and every view agree.
        geo = state.geo
        a1 = state.agents[0]
        data["final"] = {
            "agent_square": geo.name(a1.square),
            "objective_sites": [geo.name(s) for s in state.sites],
            "character": a1.character or None,
            "cards": dict(a1.cards),
        }
        if state.traitor_game:
            data["final"]["traitor"] = state.traitor or None
            data["final"]["concealed"] = list(state.concealed)
            if len(state.agents) == 2:
                a2 = state.agents[1]
                data["final"]["agent2"] = {
                    "square": geo.name(a2.square),
                    "character": a2.character or None,
                    "cards": dict(a2.cards),
                }
    return PlayerView(state.ruleset.id, seat, data)
