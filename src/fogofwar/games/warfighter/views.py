"""Seat views of Warfighter, built from what a seat may know.

The squad (and a spectator, who knows the same) sees the line of Locations — the ones
revealed with their checks and Hostiles, the face-down ones as such (the Objective by
name: the mission's briefing names it) —, every Soldier, the sizes of the Location and
Hostile decks, the Hostile discard pile (face up), the Fail checks waiting to be rolled,
the counts of the mission's figures, and this turn's events. The order of the two decks
and the seed are the umpire's secrets and are never read here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core.game import PlayerView

if TYPE_CHECKING:
    from .state import Check, Hostile, Soldier, WarfighterState

__all__ = ["build_view"]


def _check(k: Check) -> dict[str, Any]:
    card = k.card
    return {
        "id": k.id,
        "source": k.source,
        "ability": card.ability,
        "modifier": card.modifier,
        "upgun": card.upgun,
        "kind": "fail" if card.is_fail_check else "success",
        "headings": [str(h) for h in card.headings],
        "rolled": k.rolled,
        "spent": k.spent,
        "attempts": k.attempts,
    }


def _hostile(h: Hostile) -> dict[str, Any]:
    door = h.card.door
    return {
        "id": h.id,
        "name": h.card.name,
        "cover": h.card.cover,
        "hits": h.card.hits,
        "ekias": h.ekias,
        "cover_in_force": h.cover_in_force(),
        "suppressed": h.suppressed,
        "door": None
        if door is None
        else {
            "cover": door.cover,
            "hits": door.hits,
            "pick": door.pick,
            "ekias": h.door_ekias,
            "breached": h.breached_by,
        },
    }


def _soldier(state: WarfighterState, s: Soldier) -> dict[str, Any]:
    weapon = state.library.weapons[s.card.weapon]
    return {
        "id": s.id,
        "name": s.card.name,
        "location": state.slot_name(s.slot),
        "wounds": s.wounds,
        "out": s.out,
        "actions": s.actions,
        "cover": s.card.cover,
        "abilities": [str(a) for a in s.card.abilities],
        "weapon": {"name": weapon.name, "shots": weapon.shots, "suppressive": weapon.suppressive},
    }


def build_view(state: WarfighterState, seat: str | None) -> PlayerView:
    """The view of ``seat`` (``None``: a spectator; the squad knows nothing more)."""
    locations = []
    for i, name in enumerate(state.slots):
        entry: dict[str, Any] = {
            "id": state.slot_name(i),
            "revealed": name is not None,
            "objective": i == state.objective_slot,
            # The Objective is named by the mission's briefing; other face-down cards not.
            "card": state.mission.objective if i == state.objective_slot else name,
        }
        if name is not None:
            entry["checks"] = [_check(k) for k in state.checks_at(i)]
            entry["hostiles"] = [_hostile(h) for h in state.hostiles_at(i)]
        locations.append(entry)
    outcome = state.outcome()
    data: dict[str, Any] = {
        "mission": state.mission.name,
        "turn": state.turn,
        "turns": state.turns,
        "phase": state.phase,
        "waiting_for": sorted(state.to_act()),
        "locations": locations,
        "soldiers": [_soldier(state, s) for s in state.soldiers.values()],
        "location_deck": len(state.location_deck),
        "hostile_deck": len(state.hostile_deck),
        "hostile_discard": list(state.hostile_deck.discard_pile.cards),
        "pending": [{"check": p.check, "roller": p.roller, "rule": p.rule} for p in state.pending],
        "counts": dict(state.counts),
        "events": [e.to_json() for e in state.log[state.turn_start :] if e.visible_to(seat)],
        "outcome": None if outcome is None else outcome.to_json(),
    }
    return PlayerView(state.ruleset.id, seat, data)
