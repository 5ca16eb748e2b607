"""The Specter Ops observation encoder: fixed shape, bounds, the view alone, meanings."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest

from fogofwar.core.game import Observation, PlayerView, get_ruleset
from fogofwar.core.rng import stream
from fogofwar.games.specter_ops.encoder import PLANES, SCALARS, SpecterOpsEncoder
from fogofwar.games.specter_ops.geometry import geometry_for
from fogofwar.games.specter_ops.state import SpecterOpsState

RS = get_ruleset("specter-ops")


def _so(state: object) -> SpecterOpsState:
    assert isinstance(state, SpecterOpsState)
    return state


def _encoder(config: dict[str, Any]) -> SpecterOpsEncoder:
    enc = RS.observation_encoder(config)
    assert isinstance(enc, SpecterOpsEncoder)
    return enc


def _plane(enc: SpecterOpsEncoder, obs: Observation, name: str) -> set[str]:
    """The squares a plane marks, by name."""
    rows, cols = np.nonzero(obs[list(enc.describe()).index(name)])
    return {enc.geo.name(int(r) * enc.geo.width + int(c)) for r, c in zip(rows, cols, strict=True)}


def _scalar(enc: SpecterOpsEncoder, obs: Observation, name: str) -> float:
    plane = obs[list(enc.describe()).index(name)]
    assert np.all(plane == plane[0, 0])  # a broadcast scalar
    return float(plane[0, 0])


def _random_states(config: dict[str, Any], seed: int, limit: int) -> list[SpecterOpsState]:
    """Every state of a random game (at most ``limit`` actions)."""
    state = _so(RS.new_game(config, seed))
    rng = stream(seed, "test-encoder")
    out = [state.clone()]
    while not state.is_over and len(out) <= limit:
        seat = rng.choice(sorted(state.to_act()))
        state.apply(rng.choice(list(state.legal_actions(seat))))
        out.append(state.clone())
    return out


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_shape_and_bounds_for_every_seat_at_every_step(players: int) -> None:
    config = {"players": players, "max_rounds": 12}
    enc = _encoder(config)
    geo = geometry_for("specter-ops")
    assert enc.shape == (len(PLANES) + len(SCALARS), geo.height, geo.width)
    assert enc.axes == ("channel", "row", "col")
    assert len(enc.describe()) == enc.shape[0] and len(set(enc.describe())) == enc.shape[0]
    seen_phases: set[str] = set()
    states = [s for seed in (players, 10 + players) for s in _random_states(config, seed, 600)]
    for state in states:
        for seat in (*RS.seats(config), None):
            view = state.view(seat)
            obs = enc.encode(view)
            assert obs.shape == enc.shape and obs.dtype == np.float32
            assert obs.min() >= enc.low and obs.max() <= enc.high
            # The planes mean what they say, at every step.
            assert _plane(enc, obs, "possible") == set(view.data["possible"])
            hunters = view.data["hunters"]
            assert _plane(enc, obs, "own_hunter") == {
                h["square"] for h in hunters if h["seat"] == seat
            }
            secret = view.data.get("secret")
            assert _plane(enc, obs, "own_agent") == ({secret["square"]} if secret else set())
            seen_phases.add(view.data["phase"])
            assert _scalar(enc, obs, f"phase_{view.data['phase']}") == 1.0
    assert {"setup", "agent", "order", "hunter", "attack", "over"} <= seen_phases


def test_the_encoder_reads_the_view_alone() -> None:
    # A view rebuilt from its JSON (what a remote learner receives) gives the same array.
    config = {"players": 5, "max_rounds": 3}
    enc = _encoder(config)
    for state in _random_states(config, 11, limit=120)[::10]:
        for seat in (*RS.seats(config), None):
            view = state.view(seat)
            wire = json.loads(json.dumps(view.to_json()))
            rebuilt = PlayerView(wire["ruleset"], wire["seat"], wire["view"])
            assert np.array_equal(enc.encode(rebuilt), enc.encode(view))


def test_the_same_view_gives_the_same_array() -> None:
    # 4 players: the objective sites are hidden (SO-F1), so new games with different
    # seeds differ in the agent's secrets and give each hunter the same first view.
    config = {"players": 4, "characters": False}
    enc = _encoder(config)
    a, b = _so(RS.new_game(config, 1)), _so(RS.new_game(config, 2))
    assert a.sites != b.sites
    for seat in RS.seats(config)[1:]:
        assert a.view(seat).canonical() == b.view(seat).canonical()
        assert np.array_equal(enc.encode(a.view(seat)), enc.encode(b.view(seat)))
    # The agent knows its sites: its arrays differ.
    assert not np.array_equal(enc.encode(a.view("agent")), enc.encode(b.view("agent")))


def test_moving_the_hidden_agent_changes_no_hunters_array() -> None:
    # Surgery: the hidden agent moved to another square its possibility map allows. The
    # hunters' views do not change, so neither do their arrays; the agent's does.
    config = {"players": 3, "characters": False}
    enc = _encoder(config)
    states = [
        s
        for s in _random_states(config, 5, limit=200)
        if s.phase == "hunter" and s.agents[0].shown is None and s.agents[0].knowledge.squares
    ]
    assert states
    state = states[len(states) // 2]
    a1 = state.agents[0]
    other = next(i for i in state.geo.indices(a1.knowledge.squares) if i != a1.square)
    moved = state.clone()
    moved.agents[0].square = other
    moved.agents[0].path = [other]
    for seat in ("hunter1", "hunter2", None):
        assert moved.view(seat).canonical() == state.view(seat).canonical()
        assert np.array_equal(enc.encode(moved.view(seat)), enc.encode(state.view(seat)))
    mine = enc.encode(moved.view("agent"))
    assert _plane(enc, mine, "own_agent") == {state.geo.name(other)}
    assert not np.array_equal(mine, enc.encode(state.view("agent")))


def test_the_board_planes_match_the_board() -> None:
    config = {"players": 5}
    enc = _encoder(config)
    geo = geometry_for("specter-ops")
    obs = enc.encode(RS.new_game(config, 0).view("hunter1"))
    names = list(enc.describe())
    passable = geo.board.passable.astype(np.float32)
    assert np.array_equal(obs[names.index("passable")], passable)
    assert np.array_equal(obs[names.index("blocking")], 1 - passable)
    assert np.array_equal(obs[names.index("road")], (geo.board.roads != 0).astype(np.float32))
    escape = {geo.name(i) for i in geo.escape + geo.escape_five}
    assert _plane(enc, obs, "escape") == escape == {"A3", "N1", "W3", "H1"}
    # With 3 players H1 is no escape point.
    three = _encoder({"players": 3})
    assert _plane(three, three.encode(RS.new_game({}, 0).view("agent")), "escape") == {
        "A3",
        "N1",
        "W3",
    }


def test_the_agents_own_planes_and_scalars() -> None:
    config = {"players": 3, "characters": False}
    enc = _encoder(config)
    state = _so(RS.new_game(config, 3))
    view = state.view("agent")
    obs = enc.encode(view)
    secret = view.data["secret"]
    assert _plane(enc, obs, "own_agent") == {secret["square"]} == {"N1"}
    assert _plane(enc, obs, "objective_site") == set(secret["objective_sites"])
    assert _scalar(enc, obs, "role_agent") == 1.0 and _scalar(enc, obs, "role_hunter") == 0.0
    assert _scalar(enc, obs, "own_steps_left") == pytest.approx(4 / 6)
    assert _scalar(enc, obs, "round") == pytest.approx(1 / 40)
    # A hunter seat: its figure, the others', the vehicle; no agent of its own.
    hunter = enc.encode(state.view("hunter2"))
    assert _plane(enc, hunter, "own_hunter") == {state.geo.name(state.hunters[1].square)}
    assert _plane(enc, hunter, "other_hunter") == {state.geo.name(state.hunters[0].square)}
    assert _plane(enc, hunter, "vehicle") == {state.geo.name(state.vehicle)}
    assert not _plane(enc, hunter, "own_agent")
    assert _scalar(enc, hunter, "role_hunter") == 1.0


def test_the_traitor_knows_its_role() -> None:
    config = {"players": 5}
    enc = _encoder(config)
    for state in _random_states(config, 7, limit=80):
        if state.traitor:
            break
    else:
        pytest.fail("no traitor dealt")
    seat = state.traitor_seat
    assert _scalar(enc, enc.encode(state.view(seat)), "role_traitor") == 1.0
    loyal = next(s for s in RS.seats(config)[1:] if s != seat)
    assert _scalar(enc, enc.encode(state.view(loyal)), "role_traitor") == 0.0
    assert _scalar(enc, enc.encode(state.view(loyal)), "traitor_game") == 1.0


def test_a_loyal_seat_sees_the_traitor_the_record_proves() -> None:
    # SO-T4: role.proves in a loyal seat's view is its traitor_proven_<figure> scalar
    # and a line of its terminal drawing; the same position's spectator has neither.
    from fogofwar.bots import make_bot
    from fogofwar.rl.common import render_text

    config = {"players": 5}
    enc = _encoder(config)
    state = RS.new_game(config, 0)
    bots = {s: make_bot(RS.default_bots.get(s, "random"), RS.id) for s in RS.seats(state.config)}
    for s, b in bots.items():
        b.reset(s, RS.id, state.config)
    for n in range(3000):
        seat = min(state.to_act())
        for h in RS.seats(state.config)[1:]:
            role = state.view(h).to_json()["view"].get("role") or {}  # type: ignore[union-attr]
            proves = role.get("proves")
            if proves:
                x = enc.encode(state.view(h))
                for fig in ("H1", "H2", "H3", "H4"):
                    assert _scalar(enc, x, f"traitor_proven_{fig}") == float(fig == proves)
                spectator = enc.encode(state.view(None))
                assert all(
                    _scalar(enc, spectator, f"traitor_proven_{f}") == 0.0
                    for f in ("H1", "H2", "H3", "H4")
                )
                text = render_text(RS, state.view(h), state.config)
                assert f"the record proves {proves} the traitor" in text
                assert "the record proves" not in render_text(RS, state.view(None), state.config)
                return
        state.apply(bots[seat].choose(state.view(seat), state.legal_actions(seat), stream(n, "b")))
        if state.is_over:
            state = RS.new_game(config, n)
            for s, b in bots.items():
                b.reset(s, RS.id, state.config)
    pytest.fail("no loyal seat was ever proven a traitor")


def test_folded_scalars_hold_the_same_values() -> None:
    geo = geometry_for("specter-ops")
    planes = SpecterOpsEncoder(geo, 3)
    folded = SpecterOpsEncoder(geo, 3, scalars="folded")
    assert folded.shape == (len(PLANES) + 1, geo.height, geo.width)
    assert len(folded.describe()) == folded.shape[0]
    state = _random_states({"players": 3}, 2, limit=40)[-1]
    view = state.view("agent")
    a, b = planes.encode(view), folded.encode(view)
    assert np.array_equal(a[: len(PLANES)], b[: len(PLANES)])
    flat = b[len(PLANES) :].reshape(-1)[: len(SCALARS)]
    assert np.array_equal(flat, a[len(PLANES) :, 0, 0])
    with pytest.raises(ValueError, match="folded"):
        SpecterOpsEncoder(geo, 3, scalars="flat")  # type: ignore[arg-type]


def test_one_encoder_per_board_and_player_count() -> None:
    assert RS.observation_encoder({"players": 3}) is RS.observation_encoder({})
    assert RS.observation_encoder({"players": 4}) is not RS.observation_encoder({})


def test_kept_map_cells_equal_a_fresh_encoders(monkeypatch: pytest.MonkeyPatch) -> None:
    # SO-I2: an encoder keeps each possibility map's cells by the list's value; whether
    # kept, evicted (a bound of 2 empties it often) or new, the array is a fresh
    # encoder's, for every seat's map (loyal hunters', the traitor's, A2's).
    from fogofwar.games.specter_ops import encoder as module

    monkeypatch.setattr(module, "_KEPT", 2)
    config = {"players": 5, "max_rounds": 6}
    geo = _encoder(config).geo
    shared = module.SpecterOpsEncoder(geo, 5)
    second_agent = 0
    for state in _random_states(config, 5, limit=400)[::3]:
        for seat in (*RS.seats(config), None):
            view = state.view(seat)
            fresh = module.SpecterOpsEncoder(geo, 5)
            obs = shared.encode(view)
            assert np.array_equal(obs, fresh.encode(view))
            # ... and the planes are the view's lists, whatever was kept.
            assert _plane(shared, obs, "possible") == set(view.data["possible"])
            assert _plane(shared, obs, "possible2") == set(view.data.get("possible2") or ())
            second_agent += bool(view.data.get("possible2"))
    assert second_agent  # the traitor was revealed: A2's map was encoded too
    assert 0 < len(shared._kept) <= 2
