"""Seat views of Zero Dark, built from what a seat may know (FR-P4).

In solo and co-op play the team's seat knows the map and its doors, every model on it
with its public state (wounds, support tokens, the targeted state, flags), the pings as
face-down counters (where they are, never what they are), the Control Deck's size, its
discard pile and the set-aside cards' number, the Spook's hand, the task, the
objectives, the XP and this turn's public events; a spectator knows the same but the
hand. The umpire's secrets — ping types and flags, the deck's order, the double agent
and the Boss to assassinate, the seed — are never read here.

In Versus a team's task, profiles, upgrades and hand are its own: the other team and
spectators see neither the size of a hand nor the deck's own count, only the two
together (a task's bonus to D would show in either).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core.game import PlayerView

if TYPE_CHECKING:
    from .fear import Model
    from .state import ZeroDarkState

__all__ = ["build_view"]


def _model(state: ZeroDarkState, m: Model, seat: str | None) -> dict[str, Any]:
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
        out["support"] = state.support.get(m.id, 0)
        out["wounds"] = state.wounds.get(m.id, 0)
        out["targeted"] = m.id in state.targeted
        # Flags are public once the bogey is on the table (not whether it is the
        # double agent: that is the umpire's secret until persuaded, ZD-T3).
        out["flags"] = sorted(state.flags.get(m.id, frozenset()) - {"susceptible"})
    if m.is_character:
        out["wounds"] = state.wounds.get(m.id, 0)
        # In Versus a team's sheets are its own: a task's bonus or equipment would tell
        # the other team the task (ZD-B4, ZD-T1); in solo everything but the hand is open.
        if state.mode == "solo" or seat == state.seat_of(m) or state.is_over:
            s = state.stats(m.id)
            out["profile"] = {"m": s.m, "f": s.f, "a": s.a, "d": s.d, "av": s.av}
            out["upgrades"] = list(state.upgrades.get(m.id, []))
        if m.kind == "hero":
            out["role"] = state.specialism.get(m.id, "")  # the hero's specialism
        else:
            out["hero"] = state.ally_of.get(m.id)
    if m.team:
        out["team"] = m.team
    return out


def build_view(state: ZeroDarkState, seat: str | None) -> PlayerView:
    """The view of ``seat`` (``None``: a spectator)."""
    pos = state.position
    models = sorted(pos.models.values(), key=lambda m: (m.kind, m.id))
    data: dict[str, Any] = {
        "map": pos.board.name,
        "turn": state.turn,
        "phase": state.phase,
        "active": state.active,
        "steps": state.steps,
        "acted": sorted(state.acted),
        "doors": {e.name: (e in pos.open_doors) for e in sorted(pos.board.doors)},
        "models": [_model(state, m, seat) for m in models],
        "deck": {
            # Versus: the deck and the Spooks' hands together (a hand's size is its
            # team's secret, ruling); solo: the deck.
            "left": state.cards_to_come(),
            "discard": [c.to_json() for c in state.deck.discard_pile],
            "set_aside": len(state.deck.pile("aside")) if "aside" in state.deck.pile_names else 0,
            "second_deck": state.second_deck,
        },
        "bonus": state.bonus,
        "cqb": [list(c) for c in state.cqb_queue[:1]],
        "mode": state.mode,
        "turn_seat": state.turn_seat if state.mode != "solo" else None,
        # Each side's Spook, whether it buys time (public once recorded, ZD-B5) and the
        # size of its hand; a side's task is its own until the mission's report.
        "sides": {
            x.seat: {
                "spook": x.spook,
                "buying_time": x.buying_time if state.phase != "prepare" else None,
                "hand_size": len(x.hand) if state.mode == "solo" or seat == x.seat else None,
                "task": x.task if state.mode == "solo" or seat == x.seat or state.is_over else None,
                "acquired": x.acquired if state.mode == "solo" or seat == x.seat else None,
            }
            for x in state.sides.values()
        },
        "cautious": state.cancel_next,
        "dependent": None if state.reunite is None else list(state.reunite),
        "objectives": {
            sq.name: sq.name in state.objectives_done
            for sq in pos.board.markers.get("objective", ())
        },
        "exited": sorted(state.exited),
        "dead": sorted(state.dead),
        "xp": dict(state.xp),
        "report": state.report,
        # This turn's events (every event stays in the record).
        "events": [e.to_json() for e in state.events[state.turn_start :] if e.visible_to(seat)],
        "outcome": None if state.outcome() is None else state.outcome().to_json(),  # type: ignore[union-attr]
    }
    mine = state.sides.get(seat) if seat is not None else None
    if mine is not None:
        # The Spook's hand is its player's (ZD-C7); others see only its size. The task's
        # bogeys are the player's to know once turned over (ZD-T3, ZD-T4).
        data["hand"] = [c.to_json() for c in mine.hand]
        data["task_bogeys"] = {
            name: value
            for name, value in (
                ("double_agent", mine.double_agent),
                ("boss_target", mine.boss_target),
            )
            if value is not None and value.startswith("B")
        }
    return PlayerView(state.ruleset.id, seat, data)
