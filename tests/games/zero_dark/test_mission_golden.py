"""Golden playthroughs of the shipped missions (ZD-C8): for a fixed seed and a fixed
policy (uniform over the legal actions of the first seat to act, from a keyed stream),
every action with its seat and number of legal actions, the events, a digest of every
seat's view and the spectator's, the full views at the end, the outcome and the XP.
``FOGOFWAR_REGEN=1`` (``make golden``) rewrites ``golden/mission-*.json``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from fogofwar.core.game import get_ruleset
from fogofwar.core.record import Record, Recorder
from fogofwar.core.rng import stream
from fogofwar.games.zero_dark.missions import SHIPPED_MISSIONS
from fogofwar.games.zero_dark.state import ZeroDarkState
from tests import golden

RS = get_ruleset("zero-dark")
GOLDEN = Path(__file__).parent / "golden"


def playthrough(mission: str, seed: int) -> tuple[dict[str, Any], ZeroDarkState, list[Any]]:
    config = {"mission": mission}
    state = RS.new_game(config, seed)
    assert isinstance(state, ZeroDarkState)
    seats = (*RS.seats(config), None)
    rng = stream(seed, "mission-golden")
    steps, actions = golden.random_steps(state, seats, rng)
    outcome = state.outcome()
    assert outcome is not None
    final = {str(s): {k: v for k, v in state.view(s).data.items() if k != "events"} for s in seats}
    data = {
        "mission": mission,
        "seed": seed,
        "config": dict(RS.resolve_config(config).to_json()),
        "columns": "seat, action, legal actions, event kinds, view digests (seats, spectator)",
        "steps": steps,
        "final_views": final,
        "outcome": outcome.to_json(),
        "report": state.report,
    }
    # Through JSON once: tuples in the report become lists, as in the file.
    return json.loads(json.dumps(data)), state, actions


@pytest.mark.parametrize("mission", SHIPPED_MISSIONS)
def test_mission_golden(mission: str) -> None:
    # ZD-C8: each shipped mission, played to its end: every seat's view, outcome, XP.
    data, state, _ = playthrough(mission, 7)
    report = state.report
    assert report is not None and set(report["xp"]) == set(state.xp)
    assert data["outcome"]["rule"] in ("ZD-C6", "ZD-C8")
    golden.check_golden(GOLDEN, f"mission-{mission}.json", data)


@pytest.mark.parametrize("mission", SHIPPED_MISSIONS)
def test_mission_records_replay_exactly(mission: str) -> None:
    # A mission's record (its config names the mission) replays to the same views.
    _, state, actions = playthrough(mission, 11)
    recorder = Recorder(RS, {"mission": mission}, 11)
    for action in actions:
        recorder.apply(action)
    assert recorder.state.outcome() == state.outcome()
    again = Record.loads(recorder.record().dumps()).replay()
    for seat in (*RS.seats(state.config), None):
        assert again.view(seat).canonical() == state.view(seat).canonical()
