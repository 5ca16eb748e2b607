"""The Zero Dark observation encoder: fixed shape, bounds, the view alone, meanings."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest

from fogofwar.core.game import Action, Observation, PlayerView, State
from fogofwar.core.grid import Square
from fogofwar.core.rng import stream
from fogofwar.games.zero_dark.encoder import PLANES, SCALARS, ZeroDarkEncoder
from fogofwar.games.zero_dark.maps import map_for
from fogofwar.games.zero_dark.state import ZeroDarkState

from .helpers import RS

SOLO: dict[str, Any] = {}
VERSUS: dict[str, Any] = {"mode": "versus", "map": "zd-open"}


def _zd(state: State) -> ZeroDarkState:
    assert isinstance(state, ZeroDarkState)
    return state


def _encoder(config: dict[str, Any]) -> ZeroDarkEncoder:
    enc = RS.observation_encoder(config)
    assert isinstance(enc, ZeroDarkEncoder)
    return enc


def _plane(enc: ZeroDarkEncoder, obs: Observation, name: str) -> set[str]:
    """The squares a plane marks, by name."""
    rows, cols = np.nonzero(obs[list(enc.describe()).index(name)])
    return {Square(int(r), int(c)).name for r, c in zip(rows, cols, strict=True)}


def _scalar(enc: ZeroDarkEncoder, obs: Observation, name: str) -> float:
    plane = obs[list(enc.describe()).index(name)]
    assert np.all(plane == plane[0, 0])  # a broadcast scalar
    return float(plane[0, 0])


def _random_states(config: dict[str, Any], seed: int) -> list[ZeroDarkState]:
    """Every state of a random mission, to its end."""
    state = _zd(RS.new_game(config, seed))
    rng = stream(seed, "test-encoder")
    out = [state.clone()]
    while not state.is_over and len(out) < 2000:
        seat = rng.choice(sorted(state.to_act()))
        state.apply(rng.choice(list(state.legal_actions(seat))))
        out.append(state.clone())
    return out


def _squares(view: PlayerView, pred: Any) -> set[str]:
    return {sq for m in view.data["models"] if pred(m) for sq in m["squares"]}


@pytest.mark.parametrize("config", [SOLO, VERSUS], ids=["solo", "versus"])
def test_shape_and_bounds_for_every_seat_at_every_step(config: dict[str, Any]) -> None:
    enc = _encoder(config)
    board = map_for(str(RS.resolve_config(config)["map"]))
    assert enc.shape == (len(PLANES) + len(SCALARS), board.height, board.width)
    assert enc.axes == ("channel", "row", "col")
    assert len(enc.describe()) == enc.shape[0] and len(set(enc.describe())) == enc.shape[0]
    phases: set[str] = set()
    for seed in (1, 2):
        states = _random_states(config, seed)
        assert states[-1].is_over
        for state in states:
            for seat in (*RS.seats(config), None):
                view = state.view(seat)
                obs = enc.encode(view)
                assert obs.shape == enc.shape and obs.dtype == np.float32
                assert obs.min() >= enc.low and obs.max() <= enc.high
                # The model planes mean what they say, at every step.
                assert _plane(enc, obs, "ping") == _squares(view, lambda m: m["kind"] == "ping")
                assert _plane(enc, obs, "bogey") == _squares(view, lambda m: m["kind"] == "bogey")
                own = seat or RS.seats(config)[0]
                assert _plane(enc, obs, "own_hero") == _squares(
                    view, lambda m, own=own: m["kind"] == "hero" and m.get("team", own) == own
                )
                phases.add(view.data["phase"])
                assert _scalar(enc, obs, f"phase_{view.data['phase']}") == 1.0
    assert {"choose", "move", "tested", "red", "over"} <= phases


def test_the_encoder_reads_the_view_alone() -> None:
    # A view rebuilt from its JSON (what a remote learner receives) gives the same array.
    enc = _encoder(VERSUS)
    for state in _random_states(VERSUS, 3)[::15]:
        for seat in (*RS.seats(VERSUS), None):
            view = state.view(seat)
            wire = json.loads(json.dumps(view.to_json()))
            rebuilt = PlayerView(wire["ruleset"], wire["seat"], wire["view"])
            assert np.array_equal(enc.encode(rebuilt), enc.encode(view))


def test_what_the_pings_hide_and_the_decks_order_change_nothing() -> None:
    # Surgery: the pings' secret types swapped and the Control Deck reordered. The view
    # is the same, and so is the array.
    enc = _encoder(SOLO)
    state = _zd(RS.new_game(SOLO, 4))
    other = _zd(state.clone())
    pings = sorted(state.ping_types)
    other.ping_types = dict(zip(pings, reversed([state.ping_types[p] for p in pings]), strict=True))
    other.ping_flags = {p: state.ping_flags[p] for p in reversed(pings)}
    cards = list(other.deck)
    for _ in cards:
        other.deck.draw()
    for c in cards:
        other.deck.put_back(c)
    assert other.ping_types != state.ping_types and list(other.deck) != list(state.deck)
    for seat in ("team", None):
        assert other.view(seat).canonical() == state.view(seat).canonical()
        assert np.array_equal(enc.encode(other.view(seat)), enc.encode(state.view(seat)))


def test_the_other_teams_secret_choices_change_nothing() -> None:
    # Versus (ZD-B4): games that differ only in team1's secret task and hand look alike to
    # team2, and give it the same array; team1's own arrays differ (its task).
    enc = _encoder(VERSUS)
    games = []
    for task in ("none", "assassination"):
        st = _zd(RS.new_game(VERSUS, 2))
        st.apply(Action("team1", "prepare", (task, "hand")))
        st.apply(Action("team2", "prepare", ("none", "hand")))
        games.append(st)
    a, b = games
    assert a.view("team2").canonical() == b.view("team2").canonical()
    assert np.array_equal(enc.encode(a.view("team2")), enc.encode(b.view("team2")))
    mine_a, mine_b = enc.encode(a.view("team1")), enc.encode(b.view("team1"))
    assert _scalar(enc, mine_a, "task_none") == 1.0
    assert _scalar(enc, mine_b, "task_assassination") == 1.0


def test_the_map_planes_match_the_map() -> None:
    for config in (SOLO, VERSUS):
        enc = _encoder(config)
        board = map_for(str(RS.resolve_config(config)["map"]))
        view = RS.new_game(config, 0).view(RS.seats(config)[0])
        obs = enc.encode(view)
        names = list(enc.describe())
        assert np.array_equal(obs[names.index("impassable")], (~board.passable).astype(np.float32))
        assert np.array_equal(obs[names.index("opaque")], board.opaque.astype(np.float32))
        assert np.array_equal(obs[names.index("wall_n")], board.walls_h[:-1].astype(np.float32))
        assert np.array_equal(obs[names.index("wall_e")], board.walls_v[:, 1:].astype(np.float32))
        cyl = obs[names.index("terrain_cyl")]
        assert cyl.max() == 1.0 and np.array_equal(cyl > 0, board.cyl > 0)
        assert _plane(enc, obs, "exit") == {s.name for s in board.markers["exit"]}
        assert _plane(enc, obs, "objective_open") == {
            name for name, done in view.data["objectives"].items() if not done
        }
        for door, is_open in view.data["doors"].items():
            square = door.split()[0]
            assert square in _plane(enc, obs, "door_open" if is_open else "door_closed")


def test_the_teams_own_and_enemy_planes() -> None:
    enc = _encoder(VERSUS)
    state = _zd(RS.new_game(VERSUS, 5))
    for seat, other in (("team1", "team2"), ("team2", "team1")):
        view = state.view(seat)
        obs = enc.encode(view)
        mine = _squares(view, lambda m, s=seat: m.get("team") == s)
        theirs = _squares(view, lambda m, s=other: m.get("team") == s)
        assert mine and theirs
        assert _plane(enc, obs, "own_hero") == mine
        assert _plane(enc, obs, "enemy_hero") == theirs
        assert _scalar(enc, obs, "versus") == 1.0
    # Solo: the seat's heroes are its own, and its hand is counted.
    solo = _zd(RS.new_game(SOLO, 5))
    view = solo.view("team")
    enc_solo = _encoder(SOLO)
    obs = enc_solo.encode(view)
    assert _plane(enc_solo, obs, "own_hero") == _squares(view, lambda m: m["kind"] == "hero")
    assert not _plane(enc_solo, obs, "enemy_hero")
    hand = view.data.get("hand") or []
    assert _scalar(enc_solo, obs, "hand_size") == pytest.approx(min(1.0, len(hand) / 10))


def test_folded_scalars_hold_the_same_values() -> None:
    board = map_for("zd-open")
    planes = ZeroDarkEncoder(board)
    folded = ZeroDarkEncoder(board, scalars="folded")
    assert folded.shape == (len(PLANES) + 1, board.height, board.width)
    assert len(folded.describe()) == folded.shape[0]
    view = _random_states(VERSUS, 6)[40].view("team1")
    a, b = planes.encode(view), folded.encode(view)
    assert np.array_equal(a[: len(PLANES)], b[: len(PLANES)])
    flat = b[len(PLANES) :].reshape(-1)[: len(SCALARS)]
    assert np.array_equal(flat, a[len(PLANES) :, 0, 0])
    with pytest.raises(ValueError, match="folded"):
        ZeroDarkEncoder(board, scalars="flat")  # type: ignore[arg-type]


def test_one_encoder_per_map() -> None:
    assert RS.observation_encoder({}) is RS.observation_encoder({"mode": "solo"})
    assert RS.observation_encoder(VERSUS) is not RS.observation_encoder({})
