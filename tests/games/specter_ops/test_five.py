"""The 5-player game without a traitor (SO-G1's switch `traitor=false`), SO-T1's setup.

These tests cover what the 5-player game has with or without the traitor: four hunters,
secret objectives, the vehicle on K23, 3 cards, and H1 as a fourth escape point. The
traitor itself (SO-T2…T6) is tested in test_traitor.py and test_traitor_map.py.
"""

from __future__ import annotations

import json

import pytest

from fogofwar.core.game import Action, get_ruleset
from fogofwar.core.rng import stream
from fogofwar.games.specter_ops.knowledge import PossibilityMap
from fogofwar.games.specter_ops.state import SpecterOpsState

RS = get_ruleset("specter-ops")
FIVE = {"characters": False, "players": 5, "traitor": False}


def new(**extra: object) -> SpecterOpsState:
    state = RS.new_game({**FIVE, **extra}, 7)
    assert isinstance(state, SpecterOpsState)
    return state


def test_t1_five_player_setup() -> None:
    # SO-T1: objectives secret, the vehicle on K23 with every hunter aboard, H1 an extra
    # escape point; SO-G4: four hunter figures, one per hunter seat.
    state = new()
    geo = state.geo
    assert state.seats == ("agent", "hunter1", "hunter2", "hunter3", "hunter4")
    assert [h.id for h in state.hunters] == ["H1", "H2", "H3", "H4"]
    assert [h.seat for h in state.hunters] == ["hunter1", "hunter2", "hunter3", "hunter4"]
    assert geo.name(state.vehicle) == "K23"
    assert all(h.aboard and h.square == state.vehicle for h in state.hunters)
    assert state.hidden_sites and state.public_sites == [None] * 4
    view = state.view("hunter2").to_json()["view"]
    assert all(o["site"] is None for o in view["objectives"])
    assert "H1" in geo.names(state.escape_bits())
    # Health 4: the +2 is for the 4-player game only (SO-F1).
    assert state.focus.health == 4
    # With 2-4 players H1 is no escape point.
    four = RS.new_game({"characters": False, "players": 4}, 7)
    assert isinstance(four, SpecterOpsState)
    assert "H1" not in geo.names(four.escape_bits())


def test_t1_three_cards_with_five_players() -> None:
    # SO-T1: the agent takes 3 equipment cards (not 5 as with 4 players).
    state = new(characters=True)
    for k, char in enumerate(("beast", "gun", "prophet", "puppet")):
        state.apply(Action(f"hunter{k + 1}", "character", (f"H{k + 1}", char)))
    state.apply(Action("agent", "character", ("spider",)))
    for card in ("flash-bang", "smoke-grenade", "signal-jammer"):
        assert state.phase == "pick_cards"
        state.apply(Action("agent", "card", (card,)))
    assert state.phase == "agent" and len(state.focus.cards) == 3


def test_t1_escape_at_h1_with_five_players() -> None:
    # SO-T1, SO-E1: with 3 objectives done the agent escapes at H1 (5 players only).
    state = new()
    state.done = [True, True, True, False]  # surgery: 3 of 4 done
    h2 = state.geo.parse("H2")
    state.focus.square = h2  # surgery: the agent next to H1
    state.focus.path = [h2]
    state.focus.knowledge = PossibilityMap.start(h2, state.focus.knowledge.possible_sites())
    state.apply(Action("agent", "step", ("H1",)))
    state.apply(Action("agent", "stop"))
    outcome = state.outcome()
    assert outcome is not None and outcome.sides == {"agent"} and outcome.rule == "SO-E1"


def test_five_player_random_games_keep_the_map_true() -> None:
    # SO-I2 with 5 players: the true square is always in the map.
    for seed in range(3):
        state = RS.new_game({**FIVE, "max_rounds": 8}, seed)
        assert isinstance(state, SpecterOpsState)
        rng = stream(seed, "five")
        while not state.is_over:
            (seat,) = state.to_act()
            state.apply(rng.choice(state.legal_actions(seat)))
            if state.phase not in ("agent", "agent_after"):
                assert state.focus.knowledge.squares >> state.focus.square & 1


def test_a_batch_says_the_traitor_wins_with_the_agent(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # SO-T2, SO-T6: the traitor is a hunter seat dealt in secret and wins with the agent.
    # A batch's table said the agent's side was the agent alone and the hunters' side all
    # four hunter seats; it now says so, and which seats won with the agent.
    from tests.test_cli import run

    argv = ["sim", "specter-ops", "-n", "10", "--set", "players=5", "--seat", "agent=so-agent"]
    code, out, _ = run(capsys, *argv, "--json")
    data = json.loads(out)
    assert code == 0
    assert data["side_notes"] == {
        "agent": "and the traitor, a hunter seat dealt in secret (SO-T6)",
        "hunters": "less the traitor (SO-T6)",
    }
    joined = data["joined_sides"]
    assert set(joined) <= {"agent"} and data["wins"]["agent"]["count"] > 0
    # Every agent's win is the traitor's too, and no hunter seat wins with the agent
    # outside the traitor game.
    assert sum(joined["agent"].values()) == data["wins"]["agent"]["count"]
    assert set(joined["agent"]) <= {"hunter1", "hunter2", "hunter3", "hunter4"}
    monkeypatch.setenv("COLUMNS", "250")  # the table's rows whole, one line each
    code, out, _ = run(capsys, *argv)
    said = " ".join(out.split())
    assert "and the traitor, a hunter seat dealt in secret (SO-T6)" in said
    assert "won with it from another side: " in said
    code, out, _ = run(capsys, *argv, "--set", "traitor=false", "--json")
    data = json.loads(out)
    assert data["side_notes"] == {} and data["joined_sides"] == {}
