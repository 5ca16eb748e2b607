"""The hunters' possibility map (SO-I2) against an independent brute force.

``tests/games/specter_ops/oracle.py`` tracks every hidden world (agent square, steps of
its last move, objective sites) consistent with the public events, enumerating the
agent's paths step by step; it shares no code with ``knowledge.py``. After every action
of many random games the engine's map must equal the oracle's squares exactly (never a
square the agent cannot be on) and hold the true square; with hidden sites (4 players,
SO-S3) the possible sites must agree too.
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fogofwar.core.game import Action, get_ruleset
from fogofwar.core.grid import Board, Square, builtin_board, can_step, load_board
from fogofwar.core.rng import stream
from fogofwar.games.specter_ops.geometry import geometry_for
from fogofwar.games.specter_ops.state import SpecterOpsState
from tests.games.specter_ops.oracle import (
    POLICIES,
    Oracle,
    choose,
    engine_moves,
    public_events,
)

BOARDS = Path(__file__).parent / "boards"
SMALL = str(BOARDS / "small.board")
TIGHT = str(BOARDS / "tight.board")
PILLARS = str(BOARDS / "pillars.board")
ALL_BOARDS = [SMALL, TIGHT, PILLARS, "specter-ops"]
ALL_IDS = ["small", "tight", "pillars", "default"]
RULES = get_ruleset("specter-ops")


def new_game(board: str, players: int, seed: int, rounds: int) -> SpecterOpsState:
    state = RULES.new_game({"players": players, "board": board, "max_rounds": rounds}, seed)
    assert isinstance(state, SpecterOpsState)
    return state


def board_of(board: str) -> Board:
    return load_board(board) if board.endswith(".board") else builtin_board(board)


def names(state: SpecterOpsState, squares: set[int]) -> list[str]:
    return sorted(state.geo.name(i) for i in squares)


def tally(counts: Counter[str], events: list[dict[str, Any]]) -> None:
    for e in events:
        kind = e["kind"]
        if kind == "agent_moved":
            kind += "/" + e["result"]
        elif kind == "announcement":
            kind += "/" + e["answer"]
        elif kind == "sensor":
            kind += "/none" if e["answer"] == "no movement detected" else "/bearing"
        counts[kind] += 1


def check(state: SpecterOpsState, oracle: Oracle, where: str) -> None:
    """The engine's map equals the oracle's and holds the truth (SO-I2)."""
    engine = set(state.geo.indices(state.knowledge.squares))
    truth = state.agent_square
    # The oracle itself must keep the true world, or it is not a sound reference.
    assert oracle.holds(truth, state.last_steps, state.sites), f"{where}: oracle lost the truth"
    assert truth in engine, f"{where}: the map lost the agent's square {state.geo.name(truth)}"
    expected = oracle.squares()
    assert engine == expected, (
        f"{where}: map - oracle = {names(state, engine - expected)}, "
        f"oracle - map = {names(state, expected - engine)}\n" + "\n".join(oracle.log[-12:])
    )
    assert tuple(state.knowledge.possible_sites()) == oracle.sites(), f"{where}: sites differ"
    # The view shows the same map (SO-I2: the umpire gives it to the hunters).
    shown = state.view(None).to_json()["view"]
    assert shown["possible"] == state.geo.names(state.knowledge.squares)  # type: ignore[index]


def play_checked(
    board: str, players: int, seed: int, rounds: int, policy: str, counts: Counter[str]
) -> int:
    """Play one random game, checking the map after every action; returns actions."""
    state = new_game(board, players, seed, rounds)
    oracle = Oracle(board_of(board), players)
    oracle.feed(public_events(state.events))
    check(state, oracle, f"seed {seed} setup")
    rng = stream(seed, "test")
    n = 0
    while not state.is_over:
        seat = next(iter(state.to_act()))
        action = choose(state, seat, rng, policy)
        before = len(state.events)
        state.apply(action)
        n += 1
        events = public_events(state.events[before:])
        tally(counts, events)
        if any(e["kind"] == "agent_moved" for e in events) and sum(state.done) >= 3:
            counts["escape_rule"] += 1
        oracle.feed(events)
        check(state, oracle, f"seed {seed} action {n} {action}")
    counts["games"] += 1
    return n


# --------------------------------------------------------------------------- the oracle itself


@pytest.mark.parametrize("board", ALL_BOARDS, ids=ALL_IDS)
def test_oracle_step_rule_matches_grid(board: str) -> None:
    """The oracle's own step check (SO-A1, SO-A2) agrees with fogofwar.core.grid."""
    b = board_of(board)
    oracle = Oracle(b, 3)
    rnd = random.Random(7)
    passable = sorted(oracle.passable)
    for _ in range(4):
        foot = frozenset(rnd.sample(passable, 6))
        blocked = {Square(*divmod(i, b.width)) for i in foot}
        for a in passable:
            for t in oracle.neighbours(a):
                frm, to = Square(*divmod(a, b.width)), Square(*divmod(t, b.width))
                # SO-A2 looks at terrain only; a hunter just cannot be entered.
                expected = can_step(b, frm, to, diagonal="both") and to not in blocked
                assert oracle.can_step(a, t, foot) == expected, (a, t)


@pytest.mark.parametrize("board", ALL_BOARDS, ids=ALL_IDS)
def test_oracle_sight_matches_geometry(board: str) -> None:
    """The oracle's sight (SO-L1, SO-L2, SO-L5) is the engine's sight table."""
    geo = geometry_for(board)
    oracle = Oracle(board_of(board), 3)
    for i in oracle.passable:
        assert set(geo.indices(geo.sight[i])) == oracle.sight(i)


def test_memoised_paths_equal_explicit_paths() -> None:
    """The memoised path search gives what listing every explicit path gives."""
    counts: Counter[str] = Counter()
    checked = 0
    for seed in range(3):
        state = new_game(SMALL, 3, seed, 4)
        oracle = Oracle(board_of(SMALL), 3)
        oracle.feed(public_events(state.events))
        rng = stream(seed, "test")
        while not state.is_over:
            if state.phase == "agent" and len(state.path) == 1:
                pw = oracle.path_world()
                for start in sorted(oracle.squares())[:6]:
                    assert oracle.outcomes(start, pw) == oracle.naive_outcomes(start, pw)
                    checked += 1
            before = len(state.events)
            state.apply(choose(state, next(iter(state.to_act())), rng, "kinds"))
            events = public_events(state.events[before:])
            tally(counts, events)
            oracle.feed(events)
    assert checked >= 20


def test_engine_moves_are_the_oracle_paths() -> None:
    """SO-A1…A6: the moves the engine allows the agent, with the announcement each
    makes, are exactly the oracle's legal paths — so the map cannot include a square
    the engine would not let the agent reach, nor miss one it would."""
    turns = 0
    for board, players, seed in (
        (SMALL, 2, 11),
        (SMALL, 3, 12),
        (SMALL, 4, 13),
        (TIGHT, 3, 14),
        (PILLARS, 2, 15),
        (PILLARS, 4, 16),
    ):
        state = new_game(board, players, seed, 8)
        oracle = Oracle(board_of(board), players)
        oracle.feed(public_events(state.events))
        rng = stream(seed, "test")
        while not state.is_over:
            if state.phase == "agent" and len(state.path) == 1:
                got = set()
                for actions, after in engine_moves(state):
                    moved = public_events(after.events[len(state.events) :])
                    event = next(e for e in moved if e["kind"] == "agent_moved")
                    square = None if event["square"] is None else state.geo.parse(event["square"])
                    steps = sum(a.kind == "step" for a in actions)
                    got.add((event["result"], square, after.agent_square, steps))
                expected = oracle.outcomes(state.agent_square, oracle.path_world())
                assert got == set(expected), f"seed {seed} round {state.round}"
                turns += 1
            before = len(state.events)
            state.apply(choose(state, next(iter(state.to_act())), rng, "kinds"))
            oracle.feed(public_events(state.events[before:]))
    assert turns >= 30


# --------------------------------------------------------------------------- random games


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("board", [SMALL, TIGHT, PILLARS], ids=["small", "tight", "pillars"])
def test_map_equals_oracle(board: str, players: int) -> None:
    """SO-I2 after every action of random games on small boards, all player counts
    (4 players: hidden sites, SO-S3), three action policies."""
    counts: Counter[str] = Counter()
    actions = 0
    for seed in range(24):
        policy = POLICIES[seed % len(POLICIES)]
        actions += play_checked(board, players, 100 * players + seed, 10, policy, counts)
    assert actions > 1500
    # The games must exercise the facts the map is built from.
    for kind in (
        "agent_moved/hidden",
        "agent_moved/revealed",
        "agent_moved/last_seen",  # SO-A6
        "announcement/clear",  # SO-H3
        "announcement/visible",
        "sensor/none",  # SO-V5
        "drive",  # SO-V1, SO-L3
        "attack",
        "objectives_completed",  # SO-O1
    ):
        assert counts[kind] > 0, (kind, counts)


def test_rare_facts_are_covered() -> None:
    """Over a fixed batch of games the oracle comparison meets the rare facts too:
    a sensor bearing (SO-V5, SO-V6), several objectives at once (SO-O3), the escape
    rule (SO-E1) and an escape."""
    counts: Counter[str] = Counter()
    for seed in range(24):
        play_checked(TIGHT, 2 + seed % 3, 900 + seed, 12, "roaming", counts)
    assert counts["sensor/bearing"] > 0, counts
    assert counts["escape_rule"] > 0, counts
    assert counts["escaped"] > 0, counts


@pytest.mark.parametrize("players", [2, 3])
def test_map_equals_oracle_default_board(players: int) -> None:
    """SO-I2 on the shipped board, the first three rounds."""
    counts: Counter[str] = Counter()
    for seed in range(30):
        play_checked("specter-ops", players, seed, 3, POLICIES[seed % 3], counts)
    assert counts["agent_moved/hidden"] > 0
    assert counts["announcement/clear"] > 0


@settings(max_examples=30, deadline=None)
@given(data=st.data(), players=st.sampled_from([2, 3, 4]), seed=st.integers(0, 2**16))
def test_true_square_always_in_map(data: st.DataObject, players: int, seed: int) -> None:
    """SO-I2: for any sequence of legal actions the map holds the agent's true square
    (and, with hidden sites, the true sites are still possible)."""
    state = new_game(SMALL, players, seed, 5)
    for _ in range(120):
        if state.is_over:
            break
        seat = next(iter(state.to_act()))
        legal = state.legal_actions(seat)
        state.apply(legal[data.draw(st.integers(0, len(legal) - 1))])
        assert state.knowledge.squares >> state.agent_square & 1
        sites = state.knowledge.possible_sites()
        assert all(s in sites[j] for j, s in enumerate(state.sites))


# --------------------------------------------------------------------------- set positions


def play(state: SpecterOpsState, oracle: Oracle, *moves: str) -> None:
    """Apply moves given as ``seat: action args`` and check the map after each."""
    for text in moves:
        seat, _, rest = text.partition(":")
        kind, *args = rest.split()
        before = len(state.events)
        state.apply(Action(seat.strip(), kind, tuple(args)))
        oracle.feed(public_events(state.events[before:]))
        check(state, oracle, text)


def test_agent_under_a_hunter_must_leave() -> None:
    """SO-H5, SO-A3: a hunter that ends on the hidden agent's square reveals it; the
    agent may not end its next move there, so the map drops that square."""
    state = new_game(SMALL, 2, 5, 6)
    oracle = Oracle(board_of(SMALL), 2)
    oracle.feed(public_events(state.events))
    play(
        state,
        oracle,
        "agent: step B1",
        "agent: step C1",
        "agent: step D1",
        "agent: stop",
        "hunter1: next H1",
        "hunter1: drive E5",
        "hunter1: drive E4",
        "hunter1: drive E3",
        "hunter1: drive E2",
        "hunter1: stop",
    )
    assert state.knowledge.squares >> state.geo.parse("D1") & 1
    play(state, oracle, "hunter1: step D1")  # H2 gets out onto the agent (SO-V2)
    assert state.events[-1].kind == "announcement"
    assert state.events[-1].data["answer"] == "visible"
    assert state.geo.names(state.knowledge.squares) == ["D1"]
    play(state, oracle, "hunter1: end", "agent: step D2", "agent: step D3", "agent: stop")
    assert not state.knowledge.squares >> state.geo.parse("D1") & 1


def test_trapped_agent_stays_in_the_map() -> None:
    """A hunter on the agent's square and hunters on its only ways out (A2, B1; B2 is a
    structure): the agent has no legal step, so it may stay where it may not otherwise
    end (SO-A3; the engine's ruling). The map must keep that square (SO-I2)."""
    state = new_game(SMALL, 4, 5, 8)
    oracle = Oracle(board_of(SMALL), 4)
    oracle.feed(public_events(state.events))
    play(
        state,
        oracle,
        "agent: stop",
        "hunter1: next H1",
        "hunter1: step E4",  # each gets out of the vehicle (SO-V2)
        "hunter1: next H2",
        "hunter2: step F4",
        "hunter3: step E5",
        "agent: stop",
        "hunter1: next H1",
        *("hunter1: step D3", "hunter1: step D2", "hunter1: step C1", "hunter1: step B1"),
        "hunter1: end",  # it sees the agent on A1 and may attack (SO-H2): it does not
        "hunter1: next H2",
        *("hunter2: step E3", "hunter2: step D3", "hunter2: step C3", "hunter2: step B3"),
        *("hunter3: step D4", "hunter3: step C3", "hunter3: step B3", "hunter3: step A3"),
        "hunter3: end",
        "agent: stop",
        "hunter1: next H1",
        *("hunter1: step A1", "hunter1: stop", "hunter1: end"),  # onto the agent (SO-H5)
        "hunter1: next H2",
        *("hunter2: step A2", "hunter2: stop", "hunter2: end"),
        *("hunter3: step A2", "hunter3: step B1", "hunter3: stop", "hunter3: end"),
    )
    assert state.phase == "agent"
    assert state.legal_actions("agent") == [Action("agent", "stop")]
    play(state, oracle, "agent: stop")
    assert state.geo.names(state.knowledge.squares) == ["A1"]
    assert state.view(None).to_json()["view"]["agent"]["revealed_at"] == "A1"  # type: ignore[index]


def test_held_escape_point_stays_in_the_map() -> None:
    """SO-E1, SO-E2, SO-I2: the agent, trapped on the escape point A1 under a hunter,
    completes its 3rd objective (B2) and cannot move; a hunter on the escape point
    blocks it, so the game goes on with the agent there — and the map must keep A1
    (the escape rule only rules out escape points that no hunter holds)."""
    state = new_game(TIGHT, 4, 1, 10)  # secret sites: B2, E2, B6, F6
    assert [state.geo.name(s) for s in state.sites][:3] == ["B2", "E2", "B6"]
    oracle = Oracle(board_of(TIGHT), 4)
    oracle.feed(public_events(state.events))
    play(
        state,
        oracle,
        *("agent: step D4", "agent: step C5", "agent: stop"),  # E2 done at the start
        *("hunter1: next H1", "hunter1: step G4", "hunter1: next H2", "hunter2: step H4"),
        "hunter3: step G5",
        "agent: stop",  # B6 done: 2 objectives
        "hunter1: next H1",
        *("hunter1: step F3", "hunter1: step E3", "hunter1: step D2", "hunter1: step C1"),
        "hunter1: next H2",
        *("hunter2: step G3", "hunter2: step F3", "hunter2: step E3", "hunter2: step D3"),
        *("hunter3: step F4", "hunter3: step E4", "hunter3: step D4", "hunter3: stop"),
        *("agent: step B4", "agent: step A3", "agent: step A2", "agent: step A1"),
        *("hunter1: next H1", "hunter1: step B1", "hunter1: stop", "hunter1: end"),
        "hunter1: next H2",
        *("hunter2: step C3", "hunter2: step B3", "hunter2: step A2", "hunter2: stop"),
        "hunter2: end",
        *("hunter3: step C3", "hunter3: step B3", "hunter3: step A2", "hunter3: step A1"),
        "hunter3: end",
    )
    assert sum(state.done) == 3  # B2, next to A1, completed at the start of the turn
    assert state.legal_actions("agent") == [Action("agent", "stop")]
    play(state, oracle, "agent: stop")
    assert not state.is_over
    assert state.geo.names(state.knowledge.squares) == ["A1"]
