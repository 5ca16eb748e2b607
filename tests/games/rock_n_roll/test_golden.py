"""Golden match playthroughs (fixed seeds): for a fixed policy (uniform over the legal
actions of the first seat to act, from a keyed stream) every action with its seat and
number of legal actions, the event kinds, a digest of every seat's view and the
spectator's, the full views at the end and the outcome; and record replay.
``FOGOFWAR_REGEN=1`` (``make golden``) rewrites ``golden/match-*.json``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from fogofwar.core.game import Action
from fogofwar.core.record import Record, Recorder
from fogofwar.core.rng import stream
from fogofwar.games.rock_n_roll.state import RockNRollState
from tests import golden

from .helpers import RS

GOLDEN = Path(__file__).parent / "golden"
SEEDS = (7, 21)


def playthrough(seed: int) -> tuple[dict[str, Any], RockNRollState, list[Action]]:
    state = RS.new_game({}, seed)
    assert isinstance(state, RockNRollState)
    seats = (*RS.seats(), None)
    rng = stream(seed, "match-golden")
    steps, actions = golden.random_steps(state, seats, rng)
    outcome = state.outcome()
    assert outcome is not None
    final = {str(s): dict(state.view(s).data) for s in seats}
    data = {
        "seed": seed,
        "config": dict(RS.resolve_config({}).to_json()),
        "columns": "seat, action, legal actions, event kinds, view digests (seats, spectator)",
        "steps": steps,
        "final_views": final,
        "outcome": outcome.to_json(),
        "metrics": RS.metrics(state),
    }
    return json.loads(json.dumps(data)), state, actions


@pytest.mark.parametrize("seed", SEEDS)
def test_match_golden(seed: int) -> None:
    # PT-C3/PT-C6: a whole match, every seat's view, legal actions and the outcome.
    data, _, _ = playthrough(seed)
    assert data["outcome"]["rule"] == "PT-C6"
    golden.check_golden(GOLDEN, f"match-{seed}.json", data)


@pytest.mark.parametrize("seed", SEEDS)
def test_records_replay_exactly(seed: int) -> None:
    _, state, actions = playthrough(seed)
    recorder = Recorder(RS, {}, seed)
    for action in actions:
        recorder.apply(action)
    assert recorder.state.outcome() == state.outcome()
    again = Record.loads(recorder.record().dumps()).replay()
    for seat in (*RS.seats(), None):
        assert again.view(seat).canonical() == state.view(seat).canonical()


def test_same_seed_same_match() -> None:
    a, _, _ = playthrough(3)
    b, _, _ = playthrough(3)
    assert a == b
