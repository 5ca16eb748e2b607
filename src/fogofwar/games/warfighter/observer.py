"""The observer: seat views of Warfighter, built from what a seat may know, and their
typed structure (:class:`WarfighterView`, read by the bots and the renderer).

The squad (and a spectator, who knows the same) sees the line of Locations — the ones
revealed with their checks and Hostiles, the face-down ones as such (the Objective by
name: the mission's briefing names it) —, every Soldier, the sizes of the Location and
Hostile decks, the Hostile discard pile (face up), the Fail checks waiting to be rolled,
the counts of the mission's figures, and this turn's events. The order of the two decks
and the seed are the umpire's secrets and are never read here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal, NotRequired, TypedDict, cast

from ...core.game import PlayerView

if TYPE_CHECKING:
    from .state import Check, Hostile, Soldier, WarfighterState

__all__ = [
    "CheckView",
    "CountsView",
    "DoorView",
    "HostileView",
    "LocationView",
    "PendingView",
    "SoldierView",
    "WarfighterView",
    "WeaponView",
    "build_view",
    "view_data",
]


class CheckView(TypedDict):
    """A check on a revealed Location (WF-A1…A11)."""

    id: str
    source: str  # "L2" (its Location card) or "H3" (its Hostile card)
    ability: str
    modifier: int
    upgun: bool
    kind: Literal["fail", "success"]
    headings: list[str]  # "success: actions +2; suppress"
    rolled: bool
    spent: bool
    attempts: int


class DoorView(TypedDict):
    """A Hostile's Door (WF-D1…D7)."""

    cover: int
    hits: int
    pick: int | None
    ekias: int
    breached: Literal["attack", "pick"] | None


class HostileView(TypedDict):
    """A living Hostile on a revealed Location (WF-C3)."""

    id: str
    name: str
    cover: int
    hits: int
    ekias: int
    cover_in_force: int
    suppressed: bool
    door: DoorView | None


class LocationView(TypedDict):
    """A Location of the line (WF-C2); checks and Hostiles once revealed."""

    id: str
    revealed: bool
    objective: bool
    card: str | None  # face down: None, but the Objective is named
    checks: NotRequired[list[CheckView]]
    hostiles: NotRequired[list[HostileView]]


class WeaponView(TypedDict):
    name: str
    shots: int
    suppressive: bool


class SoldierView(TypedDict):
    """A Soldier of the squad (WF-C1)."""

    id: str
    name: str
    location: str
    wounds: int
    out: bool
    actions: int
    cover: int
    abilities: list[str]  # "Pick 5+[3+]"
    weapon: WeaponView


class PendingView(TypedDict):
    """A Fail check waiting to be rolled (WF-A9, WF-A10)."""

    check: str
    roller: str | None
    rule: str


class CountsView(TypedDict):
    breaches_attack: int
    breaches_pick: int
    checks_rolled: int
    checks_failed: int
    checks_lacking: int
    hostiles_killed: int


class WarfighterView(TypedDict):
    """A seat's view of a Warfighter mission (``PlayerView.data``)."""

    config: dict[str, Any]  # the options (public: every player knows them)
    mission: str
    turn: int
    turns: int
    phase: Literal["soldiers", "roll", "over"]
    waiting_for: list[str]
    locations: list[LocationView]
    soldiers: list[SoldierView]
    location_deck: int
    hostile_deck: int
    hostile_discard: list[str]
    hostile_in_play: list[str]  # the cards drawn from the Hostile deck into play (public)
    hostiles_placed: int  # Hostiles that entered play so far: the next is H<n+1>
    checks_placed: int  # checks that entered play so far: the next is K<n+1>
    pending: list[PendingView]
    counts: CountsView
    events: list[dict[str, Any]]  # this turn's events: {"kind": ..., data}
    outcome: dict[str, Any] | None


def view_data(view: PlayerView) -> WarfighterView:
    """A Warfighter view's data, typed (for the bots and the renderer)."""
    return cast(WarfighterView, view.data)


def _check(k: Check) -> CheckView:
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


def _hostile(h: Hostile) -> HostileView:
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
            "breached": None if h.breached_by is None else h.breached_by.value,
        },
    }


def _soldier(state: WarfighterState, s: Soldier) -> SoldierView:
    weapon = state.weapon(s)
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


def build_view(state: WarfighterState, seat: str | None) -> WarfighterView:
    """The view of ``seat`` (``None``: a spectator; the squad knows nothing more)."""
    locations: list[LocationView] = []
    for i, name in enumerate(state.slots):
        entry: LocationView = {
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
    return {
        "config": state.config.to_json(),
        "mission": state.mission.name,
        "turn": state.turn,
        "turns": state.turns,
        "phase": state.phase.value,
        "waiting_for": sorted(state.to_act()),
        "locations": locations,
        "soldiers": [_soldier(state, s) for s in state.soldiers.values()],
        "location_deck": len(state.location_deck),
        "hostile_deck": len(state.hostile_deck),
        "hostile_discard": list(state.hostile_deck.discard_pile.cards),
        # Every card drawn into play was announced as drawn: the squad knows them.
        "hostile_in_play": list(state.hostile_deck.pile("in play").cards)
        if "in play" in state.hostile_deck.pile_names
        else [],
        "hostiles_placed": len(state.hostiles),
        "checks_placed": len(state.checks),
        "pending": [{"check": p.check, "roller": p.roller, "rule": p.rule} for p in state.pending],
        "counts": cast(CountsView, dict(vars(state.counts))),
        "events": [e.to_json() for e in state.log[state.turn_start :] if e.visible_to(seat)],
        "outcome": None if outcome is None else outcome.to_json(),
    }
