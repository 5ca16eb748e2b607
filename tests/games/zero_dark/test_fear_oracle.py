"""Zero Dark sight through :class:`Position` against the exact brute force.

Random small maps with walls, doors, terrain of mixed Cyl (opaque squares too) and
models of every kind and state: the LOS that ``Position.report`` gives must equal the
independent rational-arithmetic oracle of ``tests/core/sight_oracle.py`` fed with the
blocking squares as the FEAR rules define them — terrain or another model of Cyl ≥ the
viewer's (FR-L1), down bogeys and prone or out-of-action characters at Cyl 1 (FR-L4),
pings blocking nothing (ruling), both line origins (FR-L2), 2×2 models (FR-C1). And
``Position.sees``, which answers from the all-pairs table where the bare map already
hides the target, must agree with the full report.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from fogofwar.core.errors import RulesError
from fogofwar.core.grid import Board, Edge, Square, Terrain
from fogofwar.games.zero_dark.fear import FACINGS, FearRules, Model, Position, around

from ...core.sight_oracle import OracleMap, pair_has_los

LEGEND = [
    Terrain(".", "floor", True, False, 0),
    Terrain("r", "rubble", True, False, 1),
    Terrain("c", "crates", False, False, 2),
    Terrain("w", "low_wall", False, False, 3),
    Terrain("t", "tree", True, False, 5),
    Terrain("X", "bulkhead", False, True, 9),
]
WEIGHTS = [0.62, 0.08, 0.1, 0.06, 0.08, 0.06]


def random_position(rng: np.random.Generator, origin: str) -> Position:
    h, w = int(rng.integers(6, 9)), int(rng.integers(6, 9))
    chars = [t.char for t in LEGEND]
    rows = ["".join(rng.choice(chars, size=w, p=WEIGHTS)) for _ in range(h)]
    walls_h = rng.random((h + 1, w)) < 0.12
    walls_v = rng.random((h, w + 1)) < 0.12
    doors: dict[Edge, bool] = {}
    for _ in range(2):
        r, c = int(rng.integers(1, h)), int(rng.integers(w))
        doors[Edge("h", r, c)] = bool(rng.random() < 0.5)
    board = Board(rows, LEGEND, name="random", walls_h=walls_h, walls_v=walls_v, doors=doors)
    free = [Square(r, c) for r in range(h) for c in range(w) if board.passable[r, c]]
    rng.shuffle(free)  # type: ignore[arg-type]
    taken: set[Square] = set()
    models: list[Model] = []
    kinds = ["hero", "ally", "bogey", "ping"]
    for k, sq in enumerate(free[: int(rng.integers(4, 9))]):
        kind = kinds[int(rng.integers(4))]
        cyl = int(rng.integers(1, 6))
        if kind == "bogey" and rng.random() < 0.2:
            cyl = 6  # a 2x2 model (FR-C1), if its block is free
            block = [
                sq,
                Square(sq.row, sq.col + 1),
                Square(sq.row + 1, sq.col),
                Square(sq.row + 1, sq.col + 1),
            ]
            if (
                not all(b in free and b not in taken for b in block)
                or sq.row + 1 >= h
                or sq.col + 1 >= w
            ):
                cyl = 3
        m = Model(
            f"M{k}",
            kind,  # type: ignore[arg-type]
            sq,
            cyl=cyl,
            facing=FACINGS[int(rng.integers(4))],
            state=("active", "prone", "down", "ooa")[int(rng.integers(4))]
            if kind != "ping"
            else "active",
        )
        if any(s in taken for s in m.squares):
            continue
        taken.update(m.squares)
        models.append(m)
    opened = frozenset(e for e, is_open in doors.items() if is_open)
    return Position(board, {m.id: m for m in models}, opened, FearRules(los_origin=origin))  # type: ignore[arg-type]


def oracle_los(position: Position, viewer: Model, target: Model, any_corner: bool) -> bool:
    board = position.board
    vcyl = viewer.sight_cyl
    heights = np.where(board.opaque, 999, board.cyl).astype(int)
    for m in position.models.values():
        if m.id in (viewer.id, target.id) or m.kind == "ping":
            continue
        for sq in m.squares:
            heights[sq.row, sq.col] = max(heights[sq.row, sq.col], m.sight_cyl)
    for sq in (*viewer.squares, *target.squares):
        heights[sq.row, sq.col] = 0  # the viewer's and target's squares never block
    wh, wv = board.walls(position.open_doors)
    om = OracleMap.from_arrays(heights >= vcyl, wh, wv)
    vs = [(s.row, s.col) for s in viewer.squares]
    ts = [(s.row, s.col) for s in target.squares]
    return pair_has_los(om, vs, ts, any_corner=any_corner)


@pytest.mark.parametrize("seed", range(20))
def test_position_sight_equals_the_brute_force(seed: int) -> None:
    # FR-L1, FR-L2, FR-L3, FR-L4, FR-C1 through the game's positions.
    rng = np.random.default_rng(seed)
    checked = 0
    for origin in ("centre", "any_corner"):
        position = random_position(rng, origin)
        ids = list(position.models)
        for v in ids:
            for t in ids:
                if v == t:
                    continue
                viewer, target = position.model(v), position.model(t)
                got = position.report(v, t, facing=False).los
                assert got == oracle_los(position, viewer, target, origin == "any_corner"), (
                    seed,
                    origin,
                    viewer,
                    target,
                )
                # The table shortcut of sees() never changes an answer.
                assert position.sees(v, t) == position.report(v, t).los
                checked += 1
    assert checked > 10


@pytest.mark.parametrize("seed", range(40))
def test_step_squares_are_each_square_s_rule(seed: int) -> None:
    # FR-M1, FR-M2, FR-M3, FR-M4: a one-square model's next steps, worked out together
    # (Position.step_squares, which legal lists and can_move_to read), are the squares
    # around it that pass the rule asked one square at a time (_can_step: walls, doors,
    # terrain, diagonals, models it may not enter; _can_end: a move through a model it
    # may only cross must still end where it may stop), for every number of steps left
    # and both diagonal rules.
    rng = np.random.default_rng(5000 + seed)
    position = random_position(rng, "centre")
    for diagonal in ("either", "both"):
        pos = replace(position, rules=FearRules(diagonal_block=diagonal))
        w = pos.board.width
        for mover in pos.models.values():
            if mover.cyl >= 6:
                with pytest.raises(RulesError):
                    pos.step_squares(mover.id, 4)
                continue
            for left in range(6):
                expected = {
                    to
                    for to in around(mover.square)
                    if left > 0
                    and pos.board.in_bounds(to)
                    and pos._can_step(mover, to)
                    and pos._can_end(mover, to, left - 1)
                }
                bits = pos.step_squares(mover.id, left)
                got = {Square(*divmod(i, w)) for i in range(pos.board.height * w) if bits >> i & 1}
                assert got == expected, (seed, diagonal, mover.id, left)
                for to in around(mover.square):
                    assert pos.can_move_to(mover.id, to, left) == (to in expected)


@pytest.mark.parametrize("seed", range(20))
def test_answers_carried_to_a_moved_position_are_fresh_answers(seed: int) -> None:
    # FR-M1…M4: a position made by moving one model (with_model, every step of a move)
    # keeps what the other models are to that model (they did not move) and the step
    # graph; every model's answers there equal those of the same position made afresh.
    rng = np.random.default_rng(7000 + seed)
    pos = random_position(rng, "any_corner")
    for _ in range(4):
        small = [m for m in pos.models.values() if m.cyl < 6]
        if not small:
            return
        for m in pos.models.values():  # fill the memo with every mover's answers
            pos._others(m)
            if m.cyl < 6:
                pos.step_squares(m.id, 3)
        mover = small[int(rng.integers(len(small)))]
        bits = pos.step_squares(mover.id, 1)  # squares it may step to and stop on
        w = pos.board.width
        targets = [Square(*divmod(i, w)) for i in range(pos.board.height * w) if bits >> i & 1]
        if not targets:
            continue
        moved = pos.with_model(mover.at(targets[int(rng.integers(len(targets)))]))
        fresh = Position(pos.board, dict(moved.models), moved.open_doors, moved.rules)
        for m in moved.models.values():
            assert moved._others(m) == fresh._others(m), (seed, m.id)
            if m.cyl < 6:
                for left in range(4):
                    assert moved.step_squares(m.id, left) == fresh.step_squares(m.id, left)
        pos = moved
