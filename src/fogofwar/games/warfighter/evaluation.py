"""The squad's chance to win a Warfighter mission not yet over, for ``ismcts``'s
``depth`` (see :mod:`fogofwar.core.game.evaluation`).

The features read the full state (a search's world has its decks drawn, so the
Locations still face down are known there):

* **soldiers** — the Soldiers not out, as a fraction of the squad (WF-C7);
* **health** — the wounds the standing Soldiers may still take before they are out, as
  a fraction of the squad's (:data:`~.state.OUT_AT` each, WF-C7);
* **actions left** — the Actions the standing Soldiers have left this turn and will get
  in the turns to come, as a fraction of the mission's (WF-C1, WF-C7);
* **workload** — the Actions the mission still needs over the Actions left (capped at
  4): every standing Soldier's moves to the Objective (WF-C2), plus the attacks expected
  to kill every Hostile in play and on the Locations still face down ahead, the
  Objective's included — each straight at its Cover in force or through its Door,
  whichever is expected sooner, with the squad's mean shots (WF-C4, WF-D2, WF-D6,
  WF-D7);
* **progress** — the furthest Location a standing Soldier has reached, as a fraction of
  the line (WF-C2).

Most lost missions run out of turns (WF-C7), so the workload against the Actions left
weighs most; the Soldiers and their wounds say how long the squad lasts and how fast it
fights. The turns left alone and the work alone, besides the workload, took weights of
the wrong sign on held-out games and were dropped. One model serves every mission and
turn limit: each feature is a fraction of the mission's own numbers.
"""

from __future__ import annotations

import functools

from ...core.game import Evaluation, LogisticModel, State
from .cards import HostileCard
from .odds import ekia_chance
from .state import OUT_AT, SEAT, WarfighterState

__all__ = ["SQUAD_CHANCE", "SquadChance"]

#: The most Actions one Hostile is expected to take (a Cover no shot reaches).
_HOPELESS = 30.0
#: The workload's cap (Actions needed per Action left).
_WORKLOAD_CAP = 4.0


@functools.lru_cache(maxsize=64)
def _ekia(cover: int) -> float:
    """The chance that one shot reaches ``cover`` (WF-C4)."""
    return float(ekia_chance(cover))


def _shots_needed(hits: int, cover: int, shots: float) -> float:
    """Expected attacks to deal ``hits`` EKIAs at ``cover`` with ``shots`` dice each."""
    if hits <= 0:
        return 0.0
    per = shots * _ekia(cover)
    return _HOPELESS if per <= 0 else min(_HOPELESS, hits / per)


def _effort(card: HostileCard, ekias: int, door_ekias: int, breached: bool, shots: float) -> float:
    """Expected attacks to kill a Hostile: straight at its Cover in force, or first
    through its Door and then at the Door's Cover when lower (WF-D2, WF-D6, WF-D7)."""
    left = card.hits - ekias
    door = card.door
    if door is None:
        return _shots_needed(left, card.cover, shots)
    inside = min(door.cover, card.cover)
    if breached:
        return _shots_needed(left, inside, shots)
    direct = _shots_needed(left, card.cover, shots)
    through = _shots_needed(door.hits - door_ekias, door.cover, shots)
    return min(direct, through + _shots_needed(left, inside, shots))


class SquadChance(Evaluation):
    """The squad's chance to clear the Objective (WF-C7)."""

    side = "squad"
    #: ``bench/fit_evaluation.py warfighter 1000`` (the Dagon mission, its 6 turns).
    model = LogisticModel(
        ("soldiers", "health", "actions left", "workload", "progress"),
        (1.4582, 1.0048, 0.8229, -5.6656, 1.7933),
        2.2877,
    )

    def features(self, state: State) -> tuple[float, ...]:
        if not isinstance(state, WarfighterState):
            raise TypeError(f"a Warfighter state, not {type(state).__name__}")
        squad = state.soldiers.values()
        standing = [s for s in squad if not s.out]
        last = state.objective_slot
        if not standing:  # pragma: no cover - the mission is lost then
            return (0.0, 0.0, 0.0, 1.0, 0.0)
        shots = sum(state.weapon(s).shots for s in standing) / len(standing)
        work = float(sum(last - s.slot for s in standing))  # WF-C2: 1 Action a move
        for h in state.hostiles.values():
            if h.alive:
                work += _effort(h.card, h.ekias, h.door_ekias, h.breached, shots)
        # The Locations still face down: the deck's next cards, in the line's order, then
        # the Objective (WF-C2, WF-C3).
        hidden = sum(1 for i in range(last) if state.slots[i] is None)
        ahead = state.location_deck.peek(hidden) if hidden else []
        if state.slots[last] is None:
            ahead.append(state.mission.objective)
        for name in ahead:
            for hostile in state.library.locations[name].hostiles:
                work += _effort(state.library.hostiles[hostile], 0, 0, False, shots)
        per_turn = sum(s.card.actions for s in standing)
        left = sum(s.actions for s in standing) + (state.turns - state.turn) * per_turn
        mission = state.turns * sum(s.card.actions for s in squad)
        return (
            len(standing) / len(state.soldiers),
            sum(OUT_AT - s.wounds for s in standing) / (OUT_AT * len(state.soldiers)),
            left / mission,
            min(work / max(left, 1), _WORKLOAD_CAP),
            max(s.slot for s in standing) / last,
        )

    def on_side(self, state: State, seat: str) -> bool:
        return seat == SEAT


SQUAD_CHANCE = SquadChance()
