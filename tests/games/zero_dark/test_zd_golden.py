"""Golden files for Zero Dark (FEAR): legal-step counts, ranges and a whole game.

* ``golden/steps-{map}.json`` — for each shipped map: a lone hero (no other model, the
  doors as the file sets them) on every passable square, the number of its legal steps
  with 4 steps left (FR-M1, FR-M4), drawn as one string a row (``#`` impassable); the
  counts are also checked against an independent reading of FR-M1/FR-M4 written here
  from the board arrays. And the FR-R1 range from the first ``heroes`` square to every
  ``ping`` site.
* ``golden/game-open-3.json`` — ``zero-dark`` seed 3 on ``zd-open``, random legal
  actions from ``stream(3, "golden")`` until the mission ends: per action the action,
  the legal actions it was chosen from, the events it caused and a digest of the team's
  and the spectator's full views; at the end of every activation the views in full
  (the spectator's without its event list, which the per-action events rebuild; the
  team's as its difference from the spectator's); the outcome and the metrics.

The files are regenerated only on purpose: ``FOGOFWAR_REGEN=1`` writes them; otherwise
any difference fails the test, naming the first entry that changed.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import pytest

from fogofwar.core.game import canonical_json
from fogofwar.core.grid import Board, Edge, Square
from fogofwar.core.rng import stream
from fogofwar.games.zero_dark.fear import FearRules, Model, Position
from fogofwar.games.zero_dark.maps import SHIPPED_MAPS, load_map
from fogofwar.games.zero_dark.state import TEAM, ZeroDarkState
from tests import golden

from .helpers import RS

GOLDEN = Path(__file__).parent / "golden"


def check_golden(name: str, data: dict[str, Any]) -> None:
    """Compare ``data`` with ``golden/name`` (or write it with FOGOFWAR_REGEN=1)."""
    golden.check_golden(GOLDEN, name, data)


# ====================================================================== step counts


def oracle_steps(board: Board, square: Square) -> int:
    """FR-M1 and FR-M4 ("either") for a lone model, from the board's arrays: a step goes
    to one of the 8 neighbours on the board that is passable; an orthogonal step is
    stopped by a wall or closed door on the edge crossed; a diagonal step needs both
    side squares passable and no wall or closed door on any of the four edges that meet
    at the corner crossed."""
    wh, wv = board.walls()  # closed doors as walls

    def passable(r: int, c: int) -> bool:
        return 0 <= r < board.height and 0 <= c < board.width and bool(board.passable[r, c])

    def h_wall(r: int, c: int) -> bool:  # the edge on top of (r, c)
        return bool(wh[r, c])

    def v_wall(r: int, c: int) -> bool:  # the edge left of (r, c)
        return bool(wv[r, c])

    r0, c0 = square
    count = 0
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            r, c = r0 + dr, c0 + dc
            if not (dr or dc) or not passable(r, c):
                continue
            if dr == 0:
                if v_wall(r0, max(c0, c)):
                    continue
            elif dc == 0:
                if h_wall(max(r0, r), c0):
                    continue
            else:
                if not (passable(r0, c) and passable(r, c0)):
                    continue
                # The corner point between the four squares; its four half-edges.
                pr, pc = max(r0, r), max(c0, c)
                edges = (
                    h_wall(pr, pc - 1),  # west arm
                    h_wall(pr, pc),  # east arm
                    v_wall(pr - 1, pc),  # north arm
                    v_wall(pr, pc),  # south arm
                )
                if any(edges):
                    continue
            count += 1
    return count


def step_counts(name: str) -> dict[str, Any]:
    board = load_map(name)
    rules = FearRules()
    rows: list[str] = []
    total = 0
    for r in range(board.height):
        row = ""
        for c in range(board.width):
            square = Square(r, c)
            if not board.passable[r, c]:
                row += "#"
                continue
            pos = Position.initial(board, [Model("H1", "hero", square)], rules)
            n = len(pos.steps("H1", 4))
            assert n == oracle_steps(board, square), f"{name} {square.name}"
            assert n == len(pos.steps("H1", 1))  # alone, every step can end the move
            row += str(n)
            total += n
        rows.append(row)
    start = board.marker("heroes")[0]
    sites = board.marker("ping")
    models = [Model("H1", "hero", start)] + [
        Model(f"P{i + 1}", "ping", site) for i, site in enumerate(sites)
    ]
    pos = Position.initial(board, models, rules)
    ranges = {site.name: pos.range("H1", f"P{i + 1}") for i, site in enumerate(sites)}
    return {
        "map": name,
        "doors_open": sorted(e.name for e in pos.open_doors),
        "steps": rows,
        "total_steps": total,
        "ranges_from": start.name,
        "ranges": ranges,
    }


@pytest.mark.parametrize("name", SHIPPED_MAPS)
def test_golden_step_counts_and_ranges(name: str) -> None:
    # FR-M1, FR-M4, FR-M5: a lone hero's legal steps from every square; FR-R1: ranges
    # from the heroes' zone to the ping sites (doors as the file sets them).
    data = step_counts(name)
    # FR-R1 is never less than the king distance and is None only without a route.
    board = load_map(name)
    start = board.square(data["ranges_from"])
    for site, rng in data["ranges"].items():
        sq = board.square(site)
        king = max(abs(sq.row - start.row), abs(sq.col - start.col))
        assert rng is None or rng >= king, site
    check_golden(f"steps-{name}.json", data)


def test_step_oracle_sees_walls_and_doors() -> None:
    # FR-M4: the oracle above and the engine agree where a wall touches a corner and a
    # door is open or shut (the corridor map's reactor doors).
    board = load_map("zd-corridor")
    door = Edge.parse("F3 e")
    assert door in board.doors and not board.doors[door]
    square = board.square("F3")
    shut = Position.initial(board, [Model("H1", "hero", square)])
    assert board.square("G3") not in shut.steps("H1", 1)
    opened = shut.with_door(door, True)
    assert board.square("G3") in opened.steps("H1", 1)
    assert len(shut.steps("H1", 1)) == oracle_steps(board, square)


# ====================================================================== a whole game


def digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def snapshot(state: ZeroDarkState) -> dict[str, Any]:
    """The spectator's view without its events, and the team's as its difference."""
    public = {k: v for k, v in state.view(None).data.items() if k != "events"}
    team = {k: v for k, v in state.view(TEAM).data.items() if k != "events"}
    diff: dict[str, Any] = {k: v for k, v in team.items() if public.get(k) != v}
    missing = sorted(set(public) - set(team))
    if missing:
        diff["-"] = missing
    return {"spectator": public, "team": diff}


def play_golden(seed: int, game_map: str) -> dict[str, Any]:
    config = {"map": game_map}
    state = RS.new_game(config, seed)
    assert isinstance(state, ZeroDarkState)
    rng = stream(seed, "golden")
    steps: list[list[Any]] = []
    snapshots: dict[str, Any] = {"start": snapshot(state)}
    start_events = [e.to_json() for e in state.events]
    while not state.is_over:
        legal = state.legal_actions(TEAM)
        assert legal and len(set(legal)) == len(legal)
        action = rng.choice(legal)
        events = state.apply(action)
        team, spectator = state.view(TEAM), state.view(None)
        # Solo play: the team's view is the spectator's plus the Spook's hand and the
        # task's bogeys once turned over (ZD-C7, ZD-T3, ZD-T4).
        private = {"hand", "task_bogeys", "events"}
        assert {k: v for k, v in team.data.items() if k not in private} == {
            k: v for k, v in spectator.data.items() if k not in private
        }
        told = [e for e in team.data["events"] if e["kind"] not in ("double_agent", "boss_target")]
        assert told == spectator.data["events"]
        steps.append(
            [
                str(action),
                " ".join(str(a).replace(" ", "_") for a in legal),
                [e.to_json() for e in events],
                digest(team.canonical()),
                digest(spectator.canonical()),
            ]
        )
        if {"activation_end", "mission_end"} & {e.kind for e in events}:
            snapshots[str(len(steps) - 1)] = snapshot(state)
    outcome = state.outcome()
    assert outcome is not None
    assert state.legal_actions(TEAM) == []
    return {
        "config": dict(RS.resolve_config(config).to_json()),
        "seed": seed,
        "policy": f"uniform over the legal actions from stream({seed}, 'golden')",
        "columns": "action, legal actions, events, team view digest, spectator view digest",
        "start_events": start_events,
        "steps": steps,
        "snapshots": snapshots,
        "outcome": outcome.to_json(),
        "metrics": RS.metrics(state),
        "events": sorted({e.kind for e in state.events}),
    }


def test_golden_game() -> None:
    # FR-L*, FR-M*, FR-R1, FR-S1, FR-P1…P4, ZD-C6, ZD-C9: a whole mission, every view.
    data = play_golden(3, "zd-open")
    # The mission ends when the Control Deck runs out or no hero is left standing.
    assert data["outcome"]["rule"] in ("ZD-C6", "ZD-C8")
    flips = [ev for step in data["steps"] for ev in step[2] if ev["kind"] == "flip"]
    assert 0 < len(flips) <= 54
    ends = [ev for step in data["steps"] for ev in step[2] if ev["kind"] == "mission_end"]
    assert len(ends) == 1 and "xp" in ends[0]["report"]
    assert {"ping_revealed", "activated", "complication"} <= set(data["events"])
    check_golden("game-open-3.json", data)


def test_golden_game_is_deterministic() -> None:
    # The same seed and policy give the same game: the golden file is meaningful.
    a, b = play_golden(3, "zd-open"), play_golden(3, "zd-open")
    assert canonical_json(a) == canonical_json(b)
