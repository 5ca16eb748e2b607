"""Golden playthroughs of the Dagon mission: for fixed seeds, a keyed random policy and
the heuristic bot play to the end; every action with its number of legal actions, the
events, a digest of the squad's view, the final view and the outcome.
``FOGOFWAR_REGEN=1`` (``make golden``) rewrites ``golden/*.json``. Records replay
exactly."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from fogofwar.bots import make_bot
from fogofwar.core.game import Action
from fogofwar.core.record import Record, Recorder
from fogofwar.core.rng import stream
from fogofwar.games.warfighter.state import SEAT, WarfighterState
from fogofwar.sim.runner import bot_stream
from tests import golden

from .helpers import RS

GOLDEN = Path(__file__).parent / "golden"


def playthrough(policy: str, seed: int) -> tuple[dict[str, Any], WarfighterState, list[Action]]:
    config = {"mission": "dagon"}
    state = RS.new_game(config, seed)
    assert isinstance(state, WarfighterState)
    rng = stream(seed, "wf-golden")
    bot = make_bot("wf-heuristic", RS.id) if policy == "heuristic" else None
    if bot is not None:
        bot.reset(SEAT, RS.id, state.config)
    bot_rng = bot_stream(seed, SEAT)
    steps: list[list[Any]] = []
    actions: list[Action] = []
    while not state.is_over:
        legal = state.legal_actions(SEAT)
        if bot is None:
            action = rng.choice(legal)
        else:
            action = bot.choose(state.view(SEAT), tuple(legal), bot_rng)
        events = state.apply(action)
        actions.append(action)
        steps.append(
            [
                str(action),
                len(legal),
                [e.kind for e in events],
                golden.digest(state.view(SEAT).canonical()),
            ]
        )
    outcome = state.outcome()
    assert outcome is not None
    data = {
        "policy": policy,
        "seed": seed,
        "config": RS.resolve_config(config).to_json(),
        "columns": "action, legal actions, event kinds, squad's view digest",
        "steps": steps,
        "log": [e.to_json() for e in state.log],
        "final_view": {k: v for k, v in state.view(SEAT).data.items() if k != "events"},
        "outcome": outcome.to_json(),
        "metrics": RS.metrics(state),
    }
    return json.loads(json.dumps(data)), state, actions


@pytest.mark.parametrize(("policy", "seed"), [("random", 7), ("heuristic", 7), ("heuristic", 8)])
def test_dagon_golden(policy: str, seed: int) -> None:
    # WF-C7: the shipped mission played to its end, every step and the final view.
    data, _, _ = playthrough(policy, seed)
    assert data["outcome"]["rule"] in ("WF-C6", "WF-C7")
    golden.check_golden(GOLDEN, f"dagon-{policy}-{seed}.json", data)


@pytest.mark.parametrize(("policy", "seed"), [("random", 12), ("heuristic", 13)])
def test_records_replay_exactly(policy: str, seed: int) -> None:
    _, state, actions = playthrough(policy, seed)
    recorder = Recorder(RS, {"mission": "dagon"}, seed)
    for action in actions:
        recorder.apply(action)
    again = Record.loads(recorder.record().dumps()).replay()
    assert again.outcome() == state.outcome()
    for seat in (SEAT, None):
        assert again.view(seat).canonical() == state.view(seat).canonical()
    assert isinstance(again, WarfighterState)
    assert [e.to_json() for e in again.log] == [e.to_json() for e in state.log]
