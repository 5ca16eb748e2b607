"""Sampled Specter Ops worlds (for search): consistent with a seat's view, drawn from the
view alone, the hidden agent, its kit, the hidden sites and the traitor drawn from what
the seat's map allows."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, cast

import pytest

from fogofwar.core.game import Action, State, get_ruleset
from fogofwar.core.rng import stream
from fogofwar.games.specter_ops.state import AGENT, SpecterOpsState

RS = get_ruleset("specter-ops")


def _so(state: State) -> SpecterOpsState:
    return cast(SpecterOpsState, state)


def _random_game(config: dict[str, Any], seed: int) -> list[SpecterOpsState]:
    """Clones of a random game's state before each action, and the end."""
    state = RS.new_game(config, seed)
    rng = stream(seed, "play")
    out = []
    while not state.is_over:
        out.append(_so(state.clone()))
        (seat,) = state.to_act()
        state.apply(rng.choice(list(state.legal_actions(seat))))
    out.append(_so(state))
    return out


def _play_on(world: State, seed: int, limit: int = 300) -> None:
    rng = stream(seed, "on")
    for _ in range(limit):
        if world.is_over:
            return
        (seat,) = world.to_act()
        world.apply(rng.choice(list(world.legal_actions(seat))))


@pytest.mark.parametrize(
    "config",
    [
        {"players": 2},
        {"players": 3},
        {"players": 4, "equipment_per_turn": 2},
        {"players": 5},
        {"players": 3, "characters": False},
        {"players": 5, "characters": False},
    ],
    ids=["2p", "3p", "4p-two-cards", "5p-traitor", "3p-base", "5p-base-traitor"],
)
def test_a_sampled_world_gives_every_seat_its_view_and_legal_actions(
    config: dict[str, Any],
) -> None:
    # SO-I1, SO-I2: built from the seat's view alone, the world tells that seat exactly
    # what the real game tells it, offers the same actions, and plays on to the end.
    draw = stream(1, "worlds")
    states = _random_game(config, 3)
    for n, state in enumerate(states):
        if n % 3 and n != len(states) - 1:
            continue
        for seat in state.seats:
            view = state.view(seat)
            world = RS.sample_world(view, draw)
            assert world.view(seat).canonical() == view.canonical(), (n, seat)
            assert list(world.legal_actions(seat)) == list(state.legal_actions(seat))
            assert world.to_act() == state.to_act()
            if n % 40 == 6:
                _play_on(world, n)


def test_the_agents_world_keeps_its_secrets() -> None:
    # The agent knows its square, path, kit and the sites (SO-S3, SO-S4): its world has
    # the true ones; only the rolls to come are new.
    draw = stream(2, "worlds")
    for state in _random_game({"players": 4}, 5)[::25]:
        world = _so(RS.sample_world(state.view(AGENT), draw))
        a, w = state.agents[0], world.agents[0]
        assert (w.path, w.character, w.cards, w.health) == (a.path, a.character, a.cards, a.health)
        assert world.sites == state.sites


def test_the_world_is_drawn_from_the_view_alone() -> None:
    # Two 4-player games with different hidden sites give the hunters the same first
    # views; the same stream then draws the same world from either.
    a, b = RS.new_game({"players": 4}, 1), RS.new_game({"players": 4}, 2)
    assert _so(a).sites != _so(b).sites
    for seat in ("hunter1", "hunter2"):
        assert a.view(seat).canonical() == b.view(seat).canonical()
        wa = _so(RS.sample_world(a.view(seat), stream(3, "w")))
        wb = _so(RS.sample_world(b.view(seat), stream(3, "w")))
        assert wa.sites == wb.sites
        assert wa.view(AGENT).canonical() == wb.view(AGENT).canonical()


def test_the_hidden_values_are_drawn_from_the_map() -> None:
    # A hunter's worlds put the hidden agent on the squares its map allows — on many
    # of them — and draw the hidden sites among those still possible.
    states = _random_game({"players": 4}, 7)
    state = next(s for s in states[60:] if bin(s.agents[0].knowledge.squares).count("1") > 8)
    allowed = state.agents[0].knowledge.squares
    sites = state.agents[0].knowledge.possible_sites()
    squares, picks, chars = set(), set(), set()
    for i in range(40):
        world = _so(RS.sample_world(state.view("hunter1"), stream(i, "w")))
        a1 = world.agents[0]
        assert allowed >> a1.square & 1
        assert all(s in sites[j] for j, s in enumerate(world.sites))
        squares.add(a1.square)
        picks.add(world.sites)
        chars.add(a1.character)
    assert len(squares) >= 5 and len(picks) >= 5
    assert chars <= state.agents[0].knowledge.possible_characters()


def test_a_loyal_hunters_world_draws_another_traitor() -> None:
    # SO-T2: a loyal hunter knows it is loyal; its worlds make one of the others the
    # traitor, those the map allows. The traitor's and the agent's worlds keep the true
    # one.
    states = _random_game({"players": 5}, 4)
    state = next(s for s in states if s.traitor and s.phase.value == "hunter")
    loyal = next(h.seat for h in state.hunters if h.id != state.traitor)
    mine = {h.id for h in state.hunters if h.seat == loyal}
    drawn = set()
    for i in range(30):
        world = _so(RS.sample_world(state.view(loyal), stream(i, "w")))
        assert world.traitor not in mine
        drawn.add(world.traitor)
    assert len(drawn) >= 2
    for seat in (AGENT, state.traitor_seat):
        world = _so(RS.sample_world(state.view(seat), stream(0, "w")))
        assert world.traitor == state.traitor


def test_the_second_agent_choosing_sees_the_character_in_use() -> None:
    # SO-T5: the revealed traitor picks a character not in use, so it sees which one
    # the agent holds: its worlds give the agent that character, and the same choices.
    for seed in range(8):
        for state in _random_game({"players": 5}, seed):
            if len(state.agents) == 2 and state.phase.value == "pick_agent":
                seat = state.agents[1].seat
                world = _so(RS.sample_world(state.view(seat), stream(seed, "w")))
                assert world.agents[0].character == state.agents[0].character
                assert list(world.legal_actions(seat)) == list(state.legal_actions(seat))
                return
    pytest.fail("no game reached the second agent's choice")


def test_a_search_world_keeps_no_map() -> None:
    # skip_views: a search's world plays the same rules without the hunters' maps (only
    # views read them, SO-I2); the maps stay as they were when it began to skip.
    state = _so(RS.new_game({"players": 5}, 2))
    rng = stream(2, "setup")
    while not state.traitor:  # past the setup, whose picks start the maps
        (seat,) = state.to_act()
        state.apply(rng.choice(list(state.legal_actions(seat))))
    fast = _so(state.clone(search=True))
    before = (fast.agents[0].knowledge, fast.traitor_map)
    _play_on(fast, 2, limit=400)
    assert fast.agents[0].knowledge == before[0]
    # The traitor's own map ends at its reveal (SO-T5: it becomes the second agent), in
    # a search's world as in the game; until then it is the map it began with.
    assert fast.traitor_map == (None if fast.traitor_revealed else before[1])
    assert fast.round > 3


def test_the_two_agents_never_share_a_character() -> None:
    # SO-T5: once the traitor is revealed, every seat's worlds give the two agents
    # different characters (a drawn one is never the other's), the traitor's world the
    # agent's true character (it saw which card was missing when it chose).
    checked = 0
    for seed in range(8):
        for state in _random_game({"players": 5}, seed)[::4]:
            if len(state.agents) < 2 or not state.agents[1].character:
                continue
            for seat in state.seats:
                world = _so(RS.sample_world(state.view(seat), stream(seed, "w", seat)))
                a1, a2 = world.agents
                assert a1.character != a2.character, (seed, seat)
                if seat == state.agents[1].seat:
                    assert a1.character == state.agents[0].character
                checked += 1
        if checked > 40:
            return
    assert checked, "no game reached a second agent with a character"


def test_a_world_keeps_the_traitor_the_record_proves() -> None:
    # SO-T4: when every world of a loyal seat's map has one hunter as the traitor with a
    # concealed sighting (its view's role.proves), the seat's sampled world has that
    # traitor and a concealed sighting: the same view, and the accusation is proven
    # there as it would be in the game.
    from fogofwar.bots import make_bot

    rs = get_ruleset("specter-ops")
    checked = 0
    for seed in range(4):
        state = cast(SpecterOpsState, rs.new_game({"players": 5}, seed))
        bots = {
            s: make_bot(rs.default_bots.get(s, "random"), rs.id) for s in rs.seats(state.config)
        }
        for s, b in bots.items():
            b.reset(s, rs.id, state.config)
        n = 0
        while not state.is_over and checked < 6:
            seat = min(state.to_act())
            view = state.view(seat)
            role = view.to_json()["view"].get("role") or {}  # type: ignore[union-attr]
            proves = role.get("proves")
            legal = state.legal_actions(seat)
            accuse = next((a for a in legal if a.kind == "accuse" and a.args[0] == proves), None)
            if accuse is not None:
                world = cast(SpecterOpsState, rs.sample_world(view, stream(seed, "w", n)))
                assert world.view(seat).canonical() == view.canonical()
                assert world.traitor == proves and world.concealed
                world.apply(accuse)
                assert world.traitor_revealed
                checked += 1
            state.apply(bots[seat].choose(view, legal, stream(seed, "bot", n)))
            n += 1
    assert checked > 0


def test_an_agent_on_the_vehicles_square_moved_no_step() -> None:
    # SO-A3, SO-V5: no move ends on the vehicle's square, so an agent standing there
    # (here the traitor, revealed aboard, as the second agent) made a move of no step,
    # and the motion sensor reads no movement. A sampled world drew the steps of the
    # last move from 0 to 4 regardless, and the sensor then asked for a bearing from
    # the vehicle to its own square: a searching hunter's rollout stopped a 5-player
    # game of the balance run on it (the position below, replayed).
    path = Path(__file__).parent / "positions" / "traitor-aboard.json"
    pos = json.loads(path.read_text())
    state = _so(RS.new_game(pos["config"], pos["seed"]))
    for seat, kind, args in pos["actions"]:
        state.apply(Action(seat, kind, tuple(args)))
    seat = pos["seat"]
    assert state.agents[1].square == state.vehicle
    assert state.agents[1].last_steps == 0
    assert any(a.kind == "sensor" for a in state.legal_actions(seat))
    view = state.view(seat)
    answers = set()
    for k in range(40):
        world = _so(RS.sample_world(view, stream(k, "aboard")))
        assert world.view(seat).canonical() == view.canonical()
        assert world.agents[1].square == world.vehicle
        assert world.agents[1].last_steps == 0
        world.apply(next(a for a in world.legal_actions(seat) if a.kind == "sensor"))
        answers |= {e.data["answer"] for e in world.events if e.kind == "sensor"}
    assert "no movement detected" in answers


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_a_world_sampled_in_setup_gives_the_same_views_as_the_game(players: int) -> None:
    # SO-S3: the agent's map starts, when it has set up, from the sites each sector
    # allows: the public sites with 2-3 players, not those a sampled world's own new
    # game rolled (with them, the hunter's view of the world parted from the game's
    # within 17-56 actions in these games). A world drawn at a hunter's first choice
    # and played with the game's actions (up to the first attack, whose roll is the
    # world's own) gives that hunter the game's views at every step.
    played = 0
    for seed in range(4):
        real = RS.new_game({"players": players}, seed)
        seat = min(real.to_act())
        assert seat != AGENT and _so(real).phase.value == "pick_hunter"
        world = RS.world_sampler(real.view(seat))(stream(seed, "setup-world"))
        rng = stream(seed, "setup-play")
        for _ in range(120):
            if real.is_over:
                break
            actor = min(real.to_act())
            action = rng.choice(list(real.legal_actions(actor)))
            if action.kind == "attack":
                break
            real.apply(action)
            world.apply(action)
            assert world.view(seat).canonical() == real.view(seat).canonical()
            played += 1
    assert played > 200
