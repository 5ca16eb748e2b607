"""The answers a board keeps across positions (sight reports, ranges) are the answers
worked out afresh with every model: a report looks only at the models near its lines,
and a range ignores models (FR-R1)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from fogofwar.core.grid import Square
from fogofwar.core.sight import any_corner_in_view, board_corner_report
from fogofwar.games.zero_dark.fear import FACINGS, Model, Position

from .test_fear_oracle import random_position


def fresh_report(position: Position, viewer: Model, target: Model, facing: bool) -> object:
    """The report with every other model as an obstacle, nothing kept."""
    occupants: dict[tuple[int, int], int] = {}
    for m in position.models.values():
        if m.id in (viewer.id, target.id) or m.kind == "ping":
            continue
        for sq in m.squares:
            occupants[(sq.row, sq.col)] = m.sight_cyl
    return board_corner_report(
        position.board,
        viewer.squares,
        target.squares,
        viewer_cyl=viewer.sight_cyl,
        target_cyl=target.sight_cyl,
        occupants=occupants,
        open_doors=position.open_doors,
        origin=position.rules.los_origin,
        facing=viewer.facing if facing else None,
        obscure_rule="character" if target.is_character else "bogey",
    )


@pytest.mark.parametrize("seed", range(12))
def test_a_kept_report_is_the_report_with_every_model(seed: int) -> None:
    # FR-L1, FR-L4, FR-L5, FR-S3, FR-S4, FR-C1: the whole report, lines and obstacles.
    rng = np.random.default_rng(1000 + seed)
    checked = 0
    for origin in ("centre", "any_corner"):
        position = random_position(rng, origin)
        ids = list(position.models)
        for _ in range(3):  # the same board, models moved: answers kept across positions
            for v in ids:
                for t in ids:
                    if v == t:
                        continue
                    viewer, target = position.model(v), position.model(t)
                    for facing in (True, False):
                        got = position.report(v, t, facing=facing)
                        assert got == fresh_report(position, viewer, target, facing), (
                            seed,
                            v,
                            t,
                            facing,
                        )
                        checked += 1
            position = moved(position, rng)
    assert checked > 50


def moved(position: Position, rng: np.random.Generator) -> Position:
    """The same board with one small model moved to a free square, if one is free."""
    taken = {sq for m in position.models.values() for sq in m.squares}
    board = position.board
    free = [
        Square(r, c)
        for r in range(board.height)
        for c in range(board.width)
        if board.passable[r, c] and Square(r, c) not in taken
    ]
    small = [m for m in position.models.values() if m.cyl < 6]
    if not free or not small:
        return position
    m = small[int(rng.integers(len(small)))]
    to = free[int(rng.integers(len(free)))]
    models = {**position.models, m.id: m.at(to)}
    return Position(board, models, position.open_doors, position.rules)


@pytest.mark.parametrize("seed", range(6))
def test_a_kept_range_is_the_breadth_first_range(seed: int) -> None:
    # FR-R1: the fewest squares to reach a model, models ignored, kept with the board.
    rng = np.random.default_rng(2000 + seed)
    position = random_position(rng, "centre")
    graph = position.graph
    ids = list(position.models)
    for _ in range(3):
        for a in ids:
            for b in ids:
                got = position.range(a, b)
                again = Position(
                    position.board, position.models, position.open_doors, position.rules
                ).range(a, b)
                sa, sb = position.model(a).squares, position.model(b).squares
                want: int | None = None
                if set(sa) & set(sb):
                    want = 0
                else:
                    goal = graph.bits(sb)
                    for k, layer in enumerate(graph.layers_bits(graph.bits(sa))):
                        if layer & goal:
                            want = k
                            break
                assert got == again == want, (seed, a, b)
        position = moved(position, rng)


@pytest.mark.parametrize("seed", range(8))
def test_kept_bare_map_answers_are_the_table(seed: int) -> None:
    # FR-L1, FR-L5, FR-P3: the reveal checks' shortcut — no line over walls, doors and
    # terrain — read from rows kept with the board, is the all-pairs table's answer,
    # whatever the doors do between positions on the same board.
    rng = np.random.default_rng(3000 + seed)
    base = random_position(rng, "centre")
    doors = sorted(base.board.doors)
    checked = 0
    for position in (base, moved(base, rng)):
        for open_doors in (frozenset(), frozenset(doors), base.open_doors, frozenset()):
            p = Position(position.board, position.models, open_doors, position.rules)
            models = list(p.models.values())
            for v in models:
                table = p.terrain_table(v.sight_cyl)
                for t in models:
                    want = (
                        not (v.big or t.big)
                        and not table[v.square.row, v.square.col, t.square.row, t.square.col]
                    )
                    assert p.bare_map_hides(v, t) == want, (seed, v.id, t.id, open_doors)
                    checked += 1
            # The reveal check's pairs: next to the target, or not hidden by the map.
            want_pairs = [
                [
                    i
                    for i, v in enumerate(models)
                    if not p.bare_map_hides(v, t)
                    or max(abs(v.square.row - t.square.row), abs(v.square.col - t.square.col)) <= 1
                ]
                for t in models
            ]
            assert p.pairs_to_check(models, models) == want_pairs
            assert p.pairs_to_check(models[::-1], models) == [
                [len(models) - 1 - i for i in reversed(row)] for row in want_pairs
            ]
            assert p.pairs_to_check([], models) == [[] for _ in models]
    assert checked > 50
    # Another origin has no shortcut.
    other = random_position(rng, "any_corner")
    assert not any(
        other.bare_map_hides(v, t) for v in other.models.values() for t in other.models.values()
    )
    everyone = list(other.models.values())
    assert other.pairs_to_check(everyone, everyone) == [
        list(range(len(everyone))) for _ in everyone
    ]


@pytest.mark.parametrize("seed", range(8))
def test_no_corner_in_view_is_no_line_in_view(seed: int) -> None:
    # FR-L5: the field of view's shortcut (no target corner on the facing side, so no
    # line to trace) agrees with the report's own lines, and ``sees`` with its LOS.
    rng = np.random.default_rng(4000 + seed)
    position = random_position(rng, "centre" if seed % 2 else "any_corner")
    behind = 0
    for facing in FACINGS:
        models = {k: replace(m, facing=facing) for k, m in position.models.items()}
        p = Position(position.board, models, position.open_doors, position.rules)
        for v in models.values():
            for t in models.values():
                if v.id == t.id:
                    continue
                report = p.report(v.id, t.id)
                shown = any_corner_in_view(v.squares, t.squares, facing)
                assert shown == any(line.in_view for line in report.lines), (seed, v.id, t.id)
                assert p.sees(v.id, t.id) == report.los, (seed, v.id, t.id, facing)
                behind += not shown
    assert behind > 0
