"""Seat views of Zero Dark, built from what a seat may know (FR-P4).

In solo and co-op play the team's seat and a spectator know the same things: the map
and its doors, every model on it, the pings as face-down counters (where they are, never
what they are), the Control Deck's size and its discard pile, and this turn's public
events.
The umpire's secrets — ping types, the deck's order, the seed — are never read here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core.game import PlayerView

if TYPE_CHECKING:
    from .fear import Model
    from .state import ZeroDarkState

__all__ = ["build_view"]


def _model(m: Model) -> dict[str, Any]:
    out: dict[str, Any] = {
        "id": m.id,
        "kind": m.kind,
        "squares": [s.name for s in m.squares],
        "facing": m.facing,
        "state": m.state,
    }
    if m.kind != "ping":
        # A ping's Cyl and tier are those of what it hides: not shown (FR-P4).
        out["cyl"] = m.cyl
    if m.kind == "bogey":
        out["tier"] = m.tier
    if m.team:
        out["team"] = m.team
    return out


def build_view(state: ZeroDarkState, seat: str | None) -> PlayerView:
    """The view of ``seat`` (``None``: a spectator)."""
    pos = state.position
    models = sorted(pos.models.values(), key=lambda m: (m.kind, int(m.id[1:])))
    data: dict[str, Any] = {
        "map": pos.board.name,
        "turn": state.turn,
        "phase": state.phase,
        "active": state.active,
        "steps": state.steps,
        "acted": sorted(state.acted),
        "doors": {e.name: (e in pos.open_doors) for e in sorted(pos.board.doors)},
        "models": [_model(m) for m in models],
        "deck": {
            "left": len(state.deck),
            "discard": [c.to_json() for c in state.deck.discard_pile],
        },
        # This turn's events (every event stays in the record).
        "events": [e.to_json() for e in state.events[state.turn_start :] if e.visible_to(seat)],
        "outcome": None if state.outcome() is None else state.outcome().to_json(),  # type: ignore[union-attr]
    }
    return PlayerView(state.ruleset.id, seat, data)
