"""Observation encoders of every rule set: fixed shape and bounds over random games,
built from the view alone (a view rebuilt from JSON gives the same array), and no leak:
two states that give a seat the same view give it the same array."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest

from fogofwar.core.game import PlayerView, State, get_ruleset
from fogofwar.core.game.observation import ObservationEncoder
from fogofwar.core.rng import stream
from fogofwar.games.rock_n_roll import encoder as rnr_encoder
from fogofwar.games.rock_n_roll.encoder import RockNRollEncoder
from fogofwar.games.warfighter.encoder import WarfighterEncoder
from fogofwar.rl import aec_env

from .helpers import CASES, IDS


def _rebuilt(view: PlayerView) -> PlayerView:
    """The view as a client would get it: through JSON, no state behind it."""
    data = json.loads(json.dumps(view.to_json()))
    return PlayerView(data["ruleset"], data["seat"], data["view"])


def _check(encoder: ObservationEncoder, view: PlayerView) -> np.ndarray:
    x = encoder.encode(view)
    assert x.dtype == np.float32 and x.shape == tuple(encoder.shape)
    assert np.isfinite(x).all()
    assert x.min() >= encoder.low and x.max() <= encoder.high
    assert np.array_equal(x, encoder.encode(_rebuilt(view)))
    # A new array on every call, the caller's own (the environments hand it out as is).
    assert not np.shares_memory(x, encoder.encode(view))
    return x


@pytest.mark.parametrize(("ruleset", "config"), CASES, ids=IDS)
def test_shape_bounds_and_view_alone(ruleset: str, config: dict[str, Any] | None) -> None:
    rs = get_ruleset(ruleset)
    cfg = rs.resolve_config(config)
    encoder = rs.observation_encoder(cfg)
    names = encoder.describe()
    assert len(encoder.axes) == len(encoder.shape)
    assert not names or len(names) == encoder.shape[0]
    steps = 40 if ruleset == "specter-ops" else 200
    seen: dict[str, np.ndarray] = {}
    for seed in (0, 1):
        state = rs.new_game(cfg, seed)
        rng = np.random.default_rng(seed)
        for _ in range(steps):
            if state.outcome() is not None:
                break
            for seat in (*rs.seats(cfg), None):
                view = state.view(seat)
                x = _check(encoder, view)
                # The same view (in this game or another) always gives the same array.
                key = view.canonical()
                if key in seen:
                    assert np.array_equal(seen[key], x)
                seen[key] = x
            seat = min(state.to_act())
            legal = state.legal_actions(seat)
            state.apply(legal[int(rng.integers(len(legal)))])


def test_own_encoders_are_used() -> None:
    for ruleset, cls in (("warfighter", WarfighterEncoder), ("rock-n-roll", RockNRollEncoder)):
        rs = get_ruleset(ruleset)
        encoder = rs.observation_encoder(rs.resolve_config(None))
        assert isinstance(encoder, cls)
        assert encoder.axes == ("feature",)
        assert len(set(encoder.describe())) == encoder.shape[0]  # every entry named once


def test_rock_n_roll_cards_the_seat_cannot_place_are_blank() -> None:
    rs = get_ruleset("rock-n-roll")
    cfg = rs.resolve_config(None)
    encoder = rs.observation_encoder(cfg)
    names = list(encoder.describe())
    state = rs.new_game(cfg, 3)
    mine = encoder.encode(state.view("vietnam"))
    hand = [c["id"] for c in state.view("vietnam").data["hand"]]  # type: ignore[union-attr]
    for card in hand:
        assert mine[names.index(f"{card}.my_hand")] == 1.0
    # The other hand's cards: nothing of them in vietnam's array.
    theirs = [c["id"] for c in state.view("vpa").data["hand"]]  # type: ignore[union-attr]
    for card in theirs:
        block = [i for i, n in enumerate(names) if n.startswith(f"{card}.")]
        assert not mine[block].any()


def test_rock_n_roll_units_on_the_points_are_encoded_from_the_view() -> None:
    # Every unit on a Point marks its card's block (the Point, its owner, its hits) and
    # counts in its Point's units and strength, read back by the entries' names, at
    # every step of random games.
    rs = get_ruleset("rock-n-roll")
    cfg = rs.resolve_config(None)
    encoder = rs.observation_encoder(cfg)
    at = {n: i for i, n in enumerate(encoder.describe())}
    checked = 0
    for seed in range(3):
        state = rs.new_game(cfg, seed)
        rng = stream(seed, "encoder")
        for _ in range(150):
            if state.is_over:
                break
            view = state.view("vpa")
            x = encoder.encode(view)
            for p in view.data["points"]:  # type: ignore[index]
                pos = p["pos"]
                count: dict[str, float] = {}
                strength: dict[str, float] = {}
                for u in p["units"]:
                    side = u["side"] if u["side"] in ("vietnam", "vpa") else "locals"
                    count[side] = count.get(side, 0) + 1
                    strength[side] = strength.get(side, 0) + u["strength"]
                    assert x[at[f"{u['id']}.point{pos}"]] == 1.0
                    if u["owner"] is not None:
                        assert x[at[f"{u['id']}.owner_{u['owner']}"]] == 1.0
                    hits = np.float32(u["hits"] / max(1, u["toughness"]))
                    assert x[at[f"{u['id']}.hits"]] == hits
                    checked += 1
                for side in ("vietnam", "vpa", "locals"):
                    units = x[at[f"point{pos}.units_{side}"]]
                    power = x[at[f"point{pos}.strength_{side}"]]
                    assert units == pytest.approx(count.get(side, 0) / rnr_encoder._MANY)
                    assert power == pytest.approx(strength.get(side, 0) / rnr_encoder._STRENGTH)
            (seat,) = sorted(state.to_act())[:1]
            legal = state.legal_actions(seat)
            state.apply(legal[rng.randbelow(len(legal))])
    assert checked > 100


def test_warfighter_new_games_give_the_same_first_array() -> None:
    rs = get_ruleset("warfighter")
    cfg = rs.resolve_config(None)
    a, b = rs.new_game(cfg, 0), rs.new_game(cfg, 1)
    # Different hidden decks, the same view: the same array.
    assert a.location_deck.cards != b.location_deck.cards  # type: ignore[attr-defined]
    assert a.view("squad").canonical() == b.view("squad").canonical()
    encoder = rs.observation_encoder(cfg)
    assert np.array_equal(encoder.encode(a.view("squad")), encoder.encode(b.view("squad")))
    # And through the environment, seeded differently.
    env1, env2 = aec_env("warfighter"), aec_env("warfighter")
    env1.reset(seed=1)
    env2.reset(seed=2)
    assert env1.unwrapped.game_state.view("squad") == env2.unwrapped.game_state.view("squad")
    o1, o2 = env1.observe("squad"), env2.observe("squad")
    assert np.array_equal(o1["observation"], o2["observation"])
    assert np.array_equal(o1["action_mask"], o2["action_mask"])


def _lockstep(a: State, b: State, hidden_seat: str, steps: int) -> int:
    """Play two copies of one game alike, except that ``hidden_seat`` picks differently
    (its first legal action in ``a``, its last in ``b``); the number of steps after
    which another seat's views are equal while the hidden seat's differ, each time
    checking that every other seat's arrays are equal."""
    rs = a.ruleset
    encoder = rs.observation_encoder(a.config)
    rng = np.random.default_rng(0)
    others = [s for s in rs.seats(a.config) if s != hidden_seat]
    equal = 0
    for _ in range(steps):
        if a.outcome() is not None or b.outcome() is not None or a.to_act() != b.to_act():
            break
        seat = min(a.to_act())
        la, lb = a.legal_actions(seat), b.legal_actions(seat)
        if seat == hidden_seat:
            a.apply(la[0])
            b.apply(lb[-1])
        elif la != lb:
            break
        else:
            i = int(rng.integers(len(la)))
            a.apply(la[i])
            b.apply(lb[i])
        if a.view(hidden_seat) == b.view(hidden_seat):
            continue
        for other in others:
            va, vb = a.view(other), b.view(other)
            if va.canonical() == vb.canonical():
                equal += 1
                assert np.array_equal(encoder.encode(va), encoder.encode(vb)), other
    return equal


def test_specter_ops_hidden_sites_do_not_reach_the_hunters_arrays() -> None:
    rs = get_ruleset("specter-ops")
    cfg = rs.resolve_config({"players": 4})
    a, b = rs.new_game(cfg, 0), rs.new_game(cfg, 0)
    assert _lockstep(a, b, "agent", 30) >= 1


@pytest.mark.parametrize(("ruleset", "config"), CASES, ids=IDS)
def test_sampled_worlds_behind_a_view_give_the_same_array(
    ruleset: str, config: dict[str, Any] | None
) -> None:
    """A world drawn behind a seat's view (other hands, decks, hidden pieces drawn anew)
    gives the seat that very view, so the same array, whatever else differs."""
    rs = get_ruleset(ruleset)
    cfg = rs.resolve_config(config)
    encoder = rs.observation_encoder(cfg)
    state = rs.new_game(cfg, 5)
    rng = np.random.default_rng(5)
    for _ in range(30):
        if state.outcome() is not None:
            break
        seat = min(state.to_act())
        state.apply(state.legal_actions(seat)[0 if rng.random() < 0.5 else -1])
    differs = 0
    for seat in rs.seats(cfg):
        view = state.view(seat)
        x = encoder.encode(view)
        for k in range(3):
            world = rs.sample_world(view, stream(k, "world", seat))
            assert world.view(seat) == view
            assert np.array_equal(encoder.encode(world.view(seat)), x)
            differs += world.view(None) != state.view(None) or any(
                world.view(s) != state.view(s) for s in rs.seats(cfg)
            )
    if ruleset == "rock-n-roll":
        assert differs  # the other hand was drawn anew, unseen
