"""Tests for fogofwar.core.sight: orthogonal rays (SO-L*) and corner lines (FR-L*, FR-S*,
FR-C1), checked against an independent exact brute force (tests/core/sight_oracle.py)."""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from fogofwar.core import sight as S
from fogofwar.core.errors import RulesError
from fogofwar.core.grid import ROAD_EW, ROAD_NS, Board, Edge, Square, Terrain, builtin_board

from .sight_oracle import OracleMap, footprint_corners, line_blocked, pair_has_los

# ----------------------------------------------------------------------------- helpers


def empty(h: int = 8, w: int = 8) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    return (
        np.zeros((h, w), dtype=np.int64),
        np.zeros((h + 1, w), dtype=bool),
        np.zeros((h, w + 1), dtype=bool),
    )


def report(cyl: Any, wh: Any, wv: Any, viewer: Any, target: Any, **kw: Any) -> S.SightReport:
    kw.setdefault("viewer_cyl", 2)
    kw.setdefault("target_cyl", 2)
    return S.corner_report(cyl, wh, wv, viewer, target, **kw)


def line_to(rep: S.SightReport, corner: tuple[int, int]) -> S.CornerLine:
    return next(line for line in rep.lines if line.corner_xy == corner)


def kinds(obstructions: tuple[S.Obstruction, ...]) -> list[str]:
    return [o.kind for o in obstructions]


def segment(
    cyl: Any,
    wh: Any,
    wv: Any,
    origin: tuple[int, int],
    end: tuple[int, int],
    viewer: Any,
    target: Any,
    *,
    viewer_cyl: int = 2,
) -> tuple[S.Obstruction, ...]:
    return S.line_obstructions(
        np.asarray(cyl) >= viewer_cyl, wh, wv, origin, end, viewer=[viewer], target=[target]
    )


# ======================================================================== orthogonal

OPEN = np.zeros((6, 7), dtype=bool)


def test_so_l1_sees_row_and_column_up_to_first_opaque() -> None:
    # SO-L1: along the 4 orthogonal lines as far as the first obstacle, which is not seen.
    op = OPEN.copy()
    op[2, 5] = True
    op[4, 2] = True
    vis = S.orthogonal_visible(op, (2, 2))
    assert vis[2, 0] and vis[2, 1] and vis[2, 3] and vis[2, 4]
    assert not vis[2, 5] and not vis[2, 6]  # the blocker and what lies behind it
    assert vis[0, 2] and vis[3, 2] and not vis[4, 2] and not vis[5, 2]
    # Without the blocker the whole row is seen.
    assert S.orthogonal_visible(OPEN, (2, 2))[2, 6]


def test_so_l1_diagonals_never() -> None:
    # SO-L1 (R): diagonal lines give no sight, even on an empty board.
    vis = S.orthogonal_visible(OPEN, (2, 2))
    assert not vis[3, 3] and not vis[1, 1] and not vis[0, 4]
    assert int(vis.sum()) == 6 + 7 - 1
    explain = S.orthogonal_sees(OPEN, (2, 2), (3, 3))
    assert not explain.sees and explain.blocker is None and explain.rule == "SO-L1"


def test_so_l5_own_square_always_seen_even_in_smoke() -> None:
    # SO-L5: a hunter sees its own square; smoke on it does not blind it to its lines.
    smoke = OPEN.copy()
    smoke[2, 2] = True
    vis = S.orthogonal_visible(OPEN, (2, 2), extra_opaque=smoke)
    assert vis[2, 2] and vis[2, 6] and vis[5, 2]
    assert S.orthogonal_sees(OPEN, (2, 2), (2, 2)).via == "own"
    # ...but smoke elsewhere blocks like a building (the Smoke Grenade, via extra_opaque).
    smoke2 = OPEN.copy()
    smoke2[2, 4] = True
    assert not S.orthogonal_visible(OPEN, (2, 2), extra_opaque=smoke2)[2, 5]


def test_orthogonal_sees_explains_the_blocker() -> None:
    # SO-L1
    op = OPEN.copy()
    op[2, 4] = True
    res = S.orthogonal_sees(op, (2, 1), (2, 6))
    assert not res.sees and res.blocker == Square(2, 4) and res.rule == "SO-L1"
    assert res.to_json()["blocker"] == "E3"
    hit = S.orthogonal_sees(op, (2, 1), (2, 4))
    assert not hit.sees and hit.blocker == Square(2, 4)  # the blocking square is not seen
    ok = S.orthogonal_sees(op, (0, 4), (1, 4))
    assert ok.sees and ok.via == "column"
    json.dumps(ok.to_json())


def road_board() -> tuple[np.ndarray, np.ndarray]:
    """7x8: an east-west road on rows 2-3, a north-south road on columns 5-6."""
    op = np.zeros((7, 8), dtype=bool)
    roads = np.zeros((7, 8), dtype=np.uint8)
    roads[2:4, :] |= ROAD_EW
    roads[:, 5:7] |= ROAD_NS
    return op, roads


def test_so_l2_road_rule_sees_the_parallel_lane() -> None:
    # SO-L2 (R): on a 2-wide road, looking along it, the other lane is seen too.
    op, roads = road_board()
    plain = S.orthogonal_visible(op, (2, 1), roads=roads)
    ruled = S.orthogonal_visible(op, (2, 1), roads=roads, road_rule=True)
    assert not plain[3, 4] and ruled[3, 4] and ruled[3, 0] and ruled[3, 7]
    res = S.orthogonal_sees(op, (2, 1), (3, 4), roads=roads, road_rule=True)
    assert res.sees and res.via == "road-lane" and res.rule == "SO-L2"
    # North-south road: lanes are columns.
    ns = S.orthogonal_visible(op, (0, 6), roads=roads, road_rule=True)
    assert ns[6, 5] and not S.orthogonal_visible(op, (0, 6), roads=roads)[6, 5]


def test_so_l2_not_when_off_the_road_or_switched_off() -> None:
    # SO-L2: applies only to a viewer standing on the road, and only with the switch.
    op, roads = road_board()
    off_road = S.orthogonal_visible(op, (1, 1), roads=roads, road_rule=True)
    assert not off_road[0, 4] and not off_road[2, 4]
    assert not S.orthogonal_visible(op, (2, 1), roads=roads, road_rule=False)[3, 4]
    # Looking across the road gives nothing extra: the lane rule follows the road's axis.
    across = S.orthogonal_visible(op, (2, 1), roads=roads, road_rule=True)
    assert not across[0, 0] and not across[5, 0]


def test_so_l2_lane_stops_at_a_blocker_in_the_lane() -> None:
    # SO-L2 (R): the parallel lane is seen up to its first blocking square.
    op, roads = road_board()
    op[3, 3] = True  # a wreck in the far lane
    vis = S.orthogonal_visible(op, (2, 1), roads=roads, road_rule=True)
    assert vis[3, 2] and not vis[3, 3] and not vis[3, 4]
    assert vis[2, 4]  # the viewer's own lane is still open
    res = S.orthogonal_sees(op, (2, 1), (3, 5), roads=roads, road_rule=True)
    assert not res.sees and res.blocker == Square(3, 3) and res.rule == "SO-L2"
    # A blocked lane neighbour hides the whole lane.
    op2, _ = road_board()
    op2[3, 1] = True
    vis2 = S.orthogonal_visible(op2, (2, 1), roads=roads, road_rule=True)
    assert not vis2[3, 0] and not vis2[3, 2]


def test_orthogonal_validation() -> None:
    with pytest.raises(RulesError):
        S.orthogonal_visible(OPEN, (2, 2), road_rule=True)  # no roads array
    with pytest.raises(RulesError):
        S.orthogonal_visible(OPEN, (9, 2))
    with pytest.raises(RulesError):
        S.orthogonal_visible(np.zeros(5, dtype=bool), (0, 0))
    with pytest.raises(RulesError):
        S.orthogonal_visible(OPEN, (1, 1), extra_opaque=np.zeros((2, 2), dtype=bool))
    with pytest.raises(ValueError):  # RulesError is a ValueError
        S.orthogonal_table(OPEN, roads=np.zeros((6, 7), dtype=float), road_rule=True)


@st.composite
def ortho_boards(draw: st.DrawFn) -> tuple[np.ndarray, np.ndarray]:
    h = draw(st.integers(1, 7))
    w = draw(st.integers(1, 7))
    op = draw(hnp.arrays(np.bool_, (h, w), elements=st.booleans()))
    roads = draw(hnp.arrays(np.uint8, (h, w), elements=st.sampled_from([0, 1, 2, 3])))
    return op, roads


@given(ortho_boards())
def test_orthogonal_table_matches_per_viewer(board: tuple[np.ndarray, np.ndarray]) -> None:
    # SO-L1, SO-L2: the numpy table equals the one-viewer function and the explanations.
    op, roads = board
    h, w = op.shape
    for rule in (False, True):
        table = S.orthogonal_table(op, roads=roads, road_rule=rule)
        for r in range(h):
            for c in range(w):
                mask = S.orthogonal_visible(op, (r, c), roads=roads, road_rule=rule)
                assert np.array_equal(table.mask((r, c)), mask)
                for tr in range(h):
                    for tc in range(w):
                        sees = S.orthogonal_sees(op, (r, c), (tr, tc), roads=roads, road_rule=rule)
                        assert sees.sees == bool(mask[tr, tc])
        assert table.matrix().shape == (h * w, h * w)


@given(ortho_boards())
def test_orthogonal_symmetric_without_road_rule(board: tuple[np.ndarray, np.ndarray]) -> None:
    # SO-L1: rays are symmetric between two non-opaque squares.
    op, _ = board
    vis = S.orthogonal_table(op).visible
    clear = ~op
    both = clear[:, :, None, None] & clear[None, None, :, :]
    assert np.array_equal(vis & both, vis.transpose(2, 3, 0, 1) & both)


@given(ortho_boards(), st.data())
def test_orthogonal_extra_opaque_never_adds_sight(
    board: tuple[np.ndarray, np.ndarray], data: st.DataObject
) -> None:
    # SO-L1, SO-L2: adding an opaque square never adds sight.
    op, roads = board
    h, w = op.shape
    r, c = data.draw(st.integers(0, h - 1)), data.draw(st.integers(0, w - 1))
    more = op.copy()
    more[r, c] = True
    for rule in (False, True):
        before = S.orthogonal_table(op, roads=roads, road_rule=rule).visible
        after = S.orthogonal_table(more, roads=roads, road_rule=rule).visible
        assert not (after & ~before).any()


@given(ortho_boards())
def test_orthogonal_blocking_square_itself_not_seen(board: tuple[np.ndarray, np.ndarray]) -> None:
    # SO-L1 (R), SO-L5: no opaque square is ever seen, except the viewer's own.
    op, roads = board
    h, w = op.shape
    for rule in (False, True):
        vis = S.orthogonal_table(op, roads=roads, road_rule=rule).visible
        seen_opaque = vis & op[None, None, :, :]
        own = np.zeros_like(vis)
        own.reshape(h * w, h * w)[np.arange(h * w), np.arange(h * w)] = True
        assert not (seen_opaque & ~own).any()


def test_orthogonal_table_api() -> None:
    op, roads = road_board()
    table = S.orthogonal_table(op, roads=roads, road_rule=True)
    assert table.sees((2, 1), (3, 4)) and not table.sees((1, 1), (3, 4))
    assert table.seen_by((3, 4))[2, 1]
    assert not table.visible.flags.writeable


# ======================================================================== corner lines


def test_fr_l1_blocked_by_terrain_of_equal_or_greater_cyl() -> None:
    # FR-L1: a square holding terrain of Cyl >= the viewer's blocks; lower terrain does not.
    cyl, wh, wv = empty()
    cyl[:, 3] = 2
    assert report(cyl, wh, wv, (3, 1), (3, 5), viewer_cyl=2).status == "entirely obscured"
    assert report(cyl, wh, wv, (3, 1), (3, 5), viewer_cyl=3).los
    blocker = line_to(report(cyl, wh, wv, (3, 1), (3, 5)), (10, 6)).blocked_by[0]
    assert blocker.kind == "square" and blocker.squares == (Square(3, 3),)
    assert blocker.heights == (2,)


def test_fr_l1_models_block_like_terrain() -> None:
    # FR-L1: a bogey or character of Cyl >= the viewer's blocks; a smaller one does not.
    cyl, wh, wv = empty()
    wall_of_models = {(r, 3): 2 for r in range(8)}
    assert not report(cyl, wh, wv, (3, 1), (3, 5), occupants=wall_of_models).los
    small = {(r, 3): 1 for r in range(8)}
    assert report(cyl, wh, wv, (3, 1), (3, 5), occupants=small).los


def test_fr_l1_one_clear_corner_line_is_enough() -> None:
    # FR-L1: LOS if at least one corner line is clear.
    cyl, wh, wv = empty()
    cyl[2, 3] = 5  # hides the upper corners of F3 from B4 but not the lower ones
    rep = report(cyl, wh, wv, (3, 1), (2, 5))
    assert [line.sight for line in rep.lines] == [False, False, True, True]
    assert rep.los and S.corner_sees(cyl, wh, wv, (3, 1), (2, 5), viewer_cyl=2)


def test_fr_l2_own_and_target_squares_never_block() -> None:
    # FR-L2: the active model's square and the target's square never block.
    cyl, wh, wv = empty()
    cyl[3, 1] = 9
    cyl[3, 5] = 9
    occ = {(3, 1): 7, (3, 5): 7}
    rep = report(cyl, wh, wv, (3, 1), (3, 5), occupants=occ)
    assert rep.status == "clear"  # nor are they obstacles for FR-S3
    cyl2, _, _ = empty()
    cyl2[3, 3] = 9
    assert not report(cyl2, wh, wv, (3, 1), (3, 5)).los


def test_fr_l2_any_corner_origin() -> None:
    # FR-L2 (R): los_origin = any_corner lets the line start at a corner of the square.
    cyl, wh, wv = empty()
    cyl[2, 3] = 3  # right in front of the viewer's centre lines
    centre = report(cyl, wh, wv, (2, 2), (2, 5))
    corner = report(cyl, wh, wv, (2, 2), (2, 5), origin="any_corner")
    assert not centre.los and corner.los
    seen = [line for line in corner.lines if line.sight]
    assert seen and all(line.origin_xy[0] % 2 == 0 for line in seen)
    # The top corner of the viewer sees the target's NW corner along the blocker's top edge
    # (touching an edge does not block, FR-L3).
    assert line_to(corner, (10, 4)).origin_xy == (4, 4)  # the first origin that works
    assert corner.to_json()["lines"][0]["origin"] == "C3 nw"


# -- FR-L3: one test per clause


def test_fr_l3_touching_a_corner_does_not_block() -> None:
    # FR-L3: a line that only touches a blocking square's corner is not blocked.
    cyl, wh, wv = empty()
    cyl[0, 1] = 3  # its SW corner (2, 2) lies on the 45-degree line from A1's centre
    line = line_to(report(cyl, wh, wv, (0, 0), (3, 3)), (6, 6))
    assert line.sight and not line.blocked_by


def test_fr_l3_touching_an_edge_does_not_block() -> None:
    # FR-L3: running along a blocking square's edge (possible from a corner origin).
    cyl, wh, wv = empty()
    cyl[1, 1] = 3
    assert segment(cyl, wh, wv, (2, 2), (6, 2), (1, 0), (1, 3)) == ()


def test_fr_l3_diagonal_pinch_blocks() -> None:
    # FR-L3: through the point where two blocking squares meet corner to corner: blocked.
    cyl, wh, wv = empty()
    cyl[0, 1] = 3
    cyl[1, 0] = 3
    line = line_to(report(cyl, wh, wv, (0, 0), (3, 3)), (6, 6))
    assert not line.sight
    (pinch,) = line.blocked_by
    assert pinch.kind == "pinch" and pinch.point == (1, 1)
    assert set(pinch.squares) == {Square(0, 1), Square(1, 0)}
    assert pinch.to_json(8, 8)["point"] == "B2 nw"
    # A low square does not make a pinch for a taller viewer.
    cyl[1, 0] = 1
    assert line_to(report(cyl, wh, wv, (0, 0), (3, 3)), (6, 6)).sight


def test_fr_l3_pinch_and_no_other_blocking_square() -> None:
    # FR-L3: with a third blocking square at the point it is no longer a pinch: the line is
    # stopped by that square's interior instead (still blocked, differently reported).
    cyl, wh, wv = empty()
    cyl[0, 1] = cyl[1, 0] = cyl[1, 1] = 3
    line = line_to(report(cyl, wh, wv, (0, 0), (3, 3)), (6, 6))
    assert not line.sight and "pinch" not in kinds(line.blocked_by)
    assert kinds(line.blocked_by)[0] == "square"


def test_fr_l3_wall_crossed_blocks() -> None:
    # FR-L3: a line that crosses a wall from one side to the other is blocked.
    cyl, wh, wv = empty()
    wv[0, 2] = True
    rep = report(cyl, wh, wv, (0, 0), (0, 3))
    assert rep.status == "entirely obscured"
    for line in rep.lines:
        assert [(o.kind, o.edges) for o in line.blocked_by] == [("wall", (Edge("v", 0, 2),))]
    assert rep.to_json()["lines"][0]["blocked_by"][0]["walls"] == ["B1 e"]
    assert report(*empty(), (0, 0), (0, 3)).status == "clear"


def joint_board(*edges: tuple[str, int, int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    cyl, wh, wv = empty()
    for kind, r, c in edges:
        (wh if kind == "h" else wv)[r, c] = True
    return cyl, wh, wv


# The line from A1's centre (1, 1) to F3's NW corner (10, 4) passes exactly through the
# lattice point (4, 2) (row 1, col 2), going from its NW side to its SE side.
JOINT_LINE = ((0, 0), (2, 5), (10, 4))


def joint_line(cyl: Any, wh: Any, wv: Any) -> S.CornerLine:
    viewer, target, corner = JOINT_LINE
    return line_to(report(cyl, wh, wv, viewer, target), corner)


def test_fr_l3_wall_crossed_exactly_at_a_joint_blocks() -> None:
    # FR-L3: crossing a straight wall exactly where two of its segments join blocks.
    line = joint_line(*joint_board(("v", 0, 2), ("v", 1, 2)))
    assert not line.sight
    (obs,) = line.blocked_by
    assert obs.kind == "wall-point" and obs.point == (1, 2)
    assert set(obs.edges) == {Edge("v", 0, 2), Edge("v", 1, 2)}


def test_fr_l3_wall_free_end_does_not_block() -> None:
    # FR-L3: only touching a wall's free end does not block.
    assert joint_line(*joint_board(("v", 0, 2))).sight
    assert joint_line(*joint_board(("v", 1, 2))).sight


def test_fr_l3_wall_crossed_at_its_corner_blocks() -> None:
    # FR-L3: an L-shaped wall whose inside the line leaves through the corner point.
    line = joint_line(*joint_board(("v", 0, 2), ("h", 1, 1)))  # arms north and west
    assert not line.sight and kinds(line.blocked_by) == ["wall-point"]


def test_fr_l3_outside_of_a_wall_corner_does_not_block() -> None:
    # FR-L3: touching the outside of a wall corner does not block.
    assert joint_line(*joint_board(("v", 0, 2), ("h", 1, 2))).sight  # arms north and east
    assert joint_line(*joint_board(("v", 1, 2), ("h", 1, 1))).sight  # arms south and west


def test_fr_l3_wall_t_joint_blocks() -> None:
    # FR-L3: a T joint always has an arm on each side of a line through it.
    line = joint_line(*joint_board(("h", 1, 1), ("h", 1, 2), ("v", 1, 2)))  # W, E, S arms
    assert not line.sight and kinds(line.blocked_by) == ["wall-point"]


def test_fr_l3_running_along_a_wall_blocks() -> None:
    # FR-L3: a line that runs along a wall is blocked (only from a corner origin).
    cyl, wh, wv = empty()
    wh[1, 2] = True
    (obs,) = segment(cyl, wh, wv, (2, 2), (6, 2), (1, 0), (1, 3))
    assert obs.kind == "wall-along" and obs.edges == (Edge("h", 1, 2),)
    wh[1, 2] = False
    assert segment(cyl, wh, wv, (2, 2), (6, 2), (1, 0), (1, 3)) == ()


def test_fr_l3_ruling_running_between_two_blocking_squares_blocks() -> None:
    # FR-L3 (ruling in docs/sight.md): the edge between two blocking squares is inside
    # solid terrain; running along it blocks like the corner-to-corner pinch.
    cyl, wh, wv = empty()
    cyl[0, 1] = cyl[1, 1] = 3
    (obs,) = segment(cyl, wh, wv, (2, 2), (6, 2), (1, 0), (1, 3))
    assert obs.kind == "seam" and set(obs.squares) == {Square(0, 1), Square(1, 1)}
    cyl[0, 1] = 0
    assert segment(cyl, wh, wv, (2, 2), (6, 2), (1, 0), (1, 3)) == ()


def test_fr_l3_wall_along_target_near_edge_hides_its_corners() -> None:
    # FR-L3: at the target corner the line goes on into the target's square, so a wall
    # along the target's near edge hides the corners on it (and the far ones behind it).
    cyl, wh, wv = empty()
    wh[3, 3] = True  # top edge of D4; the viewer is straight north
    rep = report(cyl, wh, wv, (0, 3), (3, 3))
    assert rep.status == "entirely obscured"
    assert kinds(line_to(rep, (6, 6)).blocked_by) == ["wall-point"]
    assert kinds(line_to(rep, (8, 6)).blocked_by) == ["wall-point"]
    assert kinds(line_to(rep, (6, 8)).blocked_by) == ["wall"]
    # The same wall on the far edge separates nothing: all four lines are clear.
    cyl, wh, wv = empty()
    wh[4, 3] = True
    assert report(cyl, wh, wv, (0, 3), (3, 3)).status == "clear"


def test_fr_l3_wall_ending_at_target_corner_on_the_far_side_does_not_block() -> None:
    # FR-L3: only a wall *separating* the line's side from the target's square blocks.
    cyl, wh, wv = empty()
    wv[2, 3] = True  # runs north from D4's NW corner (6, 6): beside the line, not across
    line = line_to(report(cyl, wh, wv, (0, 3), (3, 3)), (6, 6))
    assert line.sight


def test_fr_l3_pinch_at_the_target_corner_blocks() -> None:
    # FR-L3: a corner-to-corner pinch at the target corner that separates the line from
    # the target's square blocks it.
    cyl, wh, wv = empty()
    cyl[2, 3] = cyl[3, 2] = 3  # meet at D4's NW corner (6, 6)
    line = line_to(report(cyl, wh, wv, (0, 0), (3, 3)), (6, 6))
    assert not line.sight and kinds(line.blocked_by) == ["pinch"]
    assert line.blocked_by[0].point == (3, 3)


def test_fr_l3_corner_origin_comes_out_of_the_viewers_square() -> None:
    # FR-L3/FR-L2 (ruling): with any_corner the line is treated as coming out of the
    # viewer's square, so a wall on the viewer's own edge cannot be peeked past.
    cyl, wh, wv = empty()
    wv[1, 2] = True  # east edge of B2
    (obs,) = segment(cyl, wh, wv, (4, 2), (8, 4), (1, 1), (2, 4))
    assert obs.kind == "wall-point" and obs.point == (1, 2)
    wv[1, 2] = False
    assert segment(cyl, wh, wv, (4, 2), (8, 4), (1, 1), (2, 4)) == ()


def test_fr_l3_shared_corner_of_viewer_and_target() -> None:
    # FR-L3: from a shared corner (any_corner, diagonal neighbours) the zero-length line
    # passes straight from one square into the other: a pinch or a crossing wall stops it.
    cyl, wh, wv = empty()
    assert segment(cyl, wh, wv, (4, 4), (4, 4), (1, 1), (2, 2)) == ()
    cyl[1, 2] = cyl[2, 1] = 3
    assert kinds(segment(cyl, wh, wv, (4, 4), (4, 4), (1, 1), (2, 2))) == ["pinch"]


def test_fr_l3_exact_arithmetic_near_misses() -> None:
    # FR-L3 (R): exact integer geometry. On a long board a line passes within 1/1000 of
    # a square's corner; floating point could not tell touching from passing through.
    h, w = 3, 40
    _, wh, wv = empty(h, w)
    blocked = np.zeros((h, w), dtype=bool)
    oracle_free = OracleMap(h, w)
    for c in range(2, 38):
        for r in (0, 2):
            blocked[r, c] = True
            oracle_free.blocking.add((r, c))
    for corner in footprint_corners([(1, 39)]):
        mine = bool(S.line_obstructions(blocked, wh, wv, (1, 3), corner, target=[(1, 39)]))
        assert mine == line_blocked(oracle_free, (1, 3), corner, viewer=[(1, 0)], target=[(1, 39)])


def test_fr_l4_down_models_are_cyl_1() -> None:
    # FR-L4: the caller passes a down bogey (or prone character) as Cyl 1, which then
    # blocks only Cyl-1 viewers.
    cyl, wh, wv = empty()
    down = {(r, 3): 1 for r in range(8)}
    assert report(cyl, wh, wv, (3, 1), (3, 5), occupants=down, viewer_cyl=2).los
    assert not report(cyl, wh, wv, (3, 1), (3, 5), occupants=down, viewer_cyl=1).los
    # As a target a prone character is Cyl 1: nothing lower can leave its cylinder seen.
    assert report(cyl, wh, wv, (3, 1), (3, 5), target_cyl=1).status == "clear"


def test_fr_l5_field_of_view_is_a_closed_half_plane() -> None:
    # FR-L5: facing NE, the viewer sees corners on or north-east of the diagonal through
    # its NW and SE corners.
    cyl, wh, wv = empty()
    viewer = (3, 3)  # its NW corner (6, 6), SE corner (8, 8): the boundary is x == y
    assert report(cyl, wh, wv, viewer, (0, 6), facing="NE").los
    behind = report(cyl, wh, wv, viewer, (6, 0), facing="NE")
    assert not behind.los and not any(line.in_view for line in behind.lines)
    assert behind.status == "entirely obscured"
    assert report(cyl, wh, wv, viewer, (6, 0)).los  # no facing: all round
    diag = report(cyl, wh, wv, viewer, (5, 5), facing="NE")
    # E6's corners: NW (10, 10) and SE (12, 12) on the boundary (closed), NE in, SW out.
    assert [line.in_view for line in diag.lines] == [True, True, False, True]
    assert diag.los


@pytest.mark.parametrize(
    ("facing", "seen", "hidden"),
    [("SE", (6, 6), (0, 0)), ("SW", (6, 0), (0, 6)), ("NW", (0, 0), (6, 6))],
)
def test_fr_l5_each_facing(facing: str, seen: tuple[int, int], hidden: tuple[int, int]) -> None:
    # FR-L5
    cyl, wh, wv = empty()
    assert report(cyl, wh, wv, (3, 3), seen, facing=facing).los
    assert not report(cyl, wh, wv, (3, 3), hidden, facing=facing).los
    assert not S.corner_sees(cyl, wh, wv, (3, 3), hidden, viewer_cyl=2, facing=facing)


def test_fr_s2_entirely_obscured_when_no_line_reaches() -> None:
    # FR-S2, FR-S5: no LOS to any corner (nor to the cylinder): entirely obscured.
    cyl, wh, wv = empty()
    cyl[:, 3] = 4
    rep = report(cyl, wh, wv, (3, 1), (3, 5), target_cyl=4)
    assert rep.entirely_obscured and not rep.los
    assert all(not line.sight and not line.cylinder_sight for line in rep.lines)


def test_fr_s3_low_obstacle_or_model_obscures_a_bogey() -> None:
    # FR-S3: LOS exists but a line passes through a square with an obstacle (any height;
    # another model counts) -> obscured; with nothing in the way -> clear.
    cyl, wh, wv = empty()
    assert report(cyl, wh, wv, (3, 1), (3, 5)).status == "clear"
    cyl[3, 3] = 1  # a crate lower than the viewer: does not block, does obscure
    rep = report(cyl, wh, wv, (3, 1), (3, 5))
    assert rep.los and rep.status == "obscured" and rep.obscured
    assert all(kinds(line.interrupted_by) == ["square"] for line in rep.lines)
    assert all(not line.blocked_by for line in rep.lines)
    cyl2, _, _ = empty()
    assert report(cyl2, wh, wv, (3, 1), (3, 5), occupants={(3, 3): 1}).status == "obscured"


def test_fr_s3_a_crossed_wall_obscures() -> None:
    # FR-S3: a line passing through a wall makes the target obscured when LOS remains.
    cyl, wh, wv = empty()
    wv[2, 3] = True  # D3's west edge: crossed by the line from B4 to F3's NW corner; the
    # line to the NE corner passes exactly through the wall's free end (6, 6)
    rep = report(cyl, wh, wv, (3, 1), (2, 5))
    assert rep.los and rep.status == "obscured"
    assert [kinds(line.interrupted_by) for line in rep.lines] == [["wall"], [], [], []]


def test_fr_s3_target_itself_is_never_an_obstacle() -> None:
    # FR-S3: the target (and its square's terrain) is never an obstacle.
    cyl, wh, wv = empty()
    cyl[3, 5] = 2
    assert report(cyl, wh, wv, (3, 1), (3, 5), occupants={(3, 5): 3}).status == "clear"


def test_fr_s4_character_counts_only_engaged_obstacles() -> None:
    # FR-S4: a character as target is obscured only by obstacles and walls it is
    # engaged with (adjacent to it).
    cyl, wh, wv = empty()
    cyl[3, 2] = 1  # a crate next to the viewer, far from the target
    assert report(cyl, wh, wv, (3, 1), (3, 6)).status == "obscured"
    assert report(cyl, wh, wv, (3, 1), (3, 6), obscure_rule="character").status == "clear"
    cyl[3, 2] = 0
    cyl[3, 5] = 1  # the crate next to the target
    assert report(cyl, wh, wv, (3, 1), (3, 6), obscure_rule="character").status == "obscured"
    # A wall touching the target's square counts; a wall away from it does not.
    cyl, wh, wv = empty()
    wh[3, 6] = True  # G3's south edge, crossed by the lines to its far corners
    assert report(cyl, wh, wv, (4, 1), (2, 6), obscure_rule="character").status == "obscured"
    cyl, wh, wv = empty()
    wh[3, 4] = True  # E4's north edge, two squares from G3
    assert report(cyl, wh, wv, (4, 1), (2, 6)).status == "obscured"
    assert report(cyl, wh, wv, (4, 1), (2, 6), obscure_rule="character").status == "clear"


def test_fr_s5_report_lists_lines_and_what_blocks() -> None:
    # FR-S5: the report gives each corner line, whether it gives LOS, and by what it is
    # blocked or interrupted; JSON with square and edge names.
    cyl, wh, wv = empty()
    cyl[2, 3] = 5  # D3 blocks the lines to F3's upper corners
    cyl[3, 3] = 1  # a crate on D4 interrupts the lower ones
    rep = report(cyl, wh, wv, (3, 1), (2, 5))
    data = rep.to_json()
    json.dumps(data)
    assert data["viewer"] == ["B4"] and data["target"] == ["F3"]
    assert [line["corner"] for line in data["lines"]] == ["F3 nw", "F3 ne", "F3 sw", "F3 se"]
    assert data["status"] == "obscured" and data["los"] is True
    top = data["lines"][0]
    assert top["sight"] is False
    assert top["blocked_by"] == [{"kind": "square", "squares": ["D3"], "cyl": [5]}]
    low = data["lines"][2]
    assert low["sight"] is True and low["interrupted_by"][0]["squares"] == ["D4"]


def test_fr_s6_lower_obstacles_leave_the_cylinder_seen() -> None:
    # FR-S6: a line stopped only by obstacles lower than the target still sees its
    # cylinder: the target is obscured, not entirely obscured.
    cyl, wh, wv = empty()
    cyl[:, 3] = 3  # blocks a Cyl-2 viewer everywhere
    tall = report(cyl, wh, wv, (3, 1), (3, 5), target_cyl=4)
    assert not tall.los and tall.status == "obscured"
    assert all(line.cylinder_sight and not line.sight for line in tall.lines)
    same = report(cyl, wh, wv, (3, 1), (3, 5), target_cyl=3)
    assert same.status == "entirely obscured"
    wv[3, 4] = True  # a wall is never "lower": it stops the cylinder too
    wv[2, 4] = True
    wv[4, 4] = True
    walled = report(cyl, wh, wv, (3, 1), (3, 5), target_cyl=4)
    assert walled.status == "entirely obscured"


def test_fr_s6_a_pinch_with_a_lower_square_sees_the_cylinder() -> None:
    # FR-S6 (R, docs/sight.md): a pinch of a Cyl 5 square (C2) and a Cyl 3 one (B3) stops
    # two lines of a Cyl 3 viewer; above B3 they only touch C2's corner (FR-L3), so they
    # see a Cyl 4 target's cylinder: obscured, not entirely obscured. With B3 as tall as
    # C2 the pinch stops the cylinder too.
    cyl, wh, wv = empty(5, 6)
    cyl[1, 2], cyl[2, 1], cyl[3, 2] = 5, 3, 5
    rep = report(cyl, wh, wv, (0, 0), (3, 3), viewer_cyl=3, target_cyl=4)
    assert not rep.los and rep.status == "obscured"
    pinched = [line for line in rep.lines if line.blocked_by[0].kind == "pinch"]
    assert len(pinched) == 2 and all(line.cylinder_sight for line in pinched)
    cyl[2, 1] = 5
    assert report(cyl, wh, wv, (0, 0), (3, 3), viewer_cyl=3, target_cyl=4).status == (
        "entirely obscured"
    )


def test_fr_c1_big_target_sight_to_an_inner_corner() -> None:
    # FR-C1: sight to a Cyl 6-7 model (a 2x2 block) may be drawn to any corner of any of
    # its squares. Here only the midpoint of its east side is reached: a wall hides the
    # upper square's east edge, a tall crate the lower corner.
    cyl, wh, wv = empty(6, 6)
    cyl[3, 4] = 3
    wv[2, 4] = True
    block = [(2, 2), (2, 3), (3, 2), (3, 3)]
    rep = report(cyl, wh, wv, (2, 5), block, target_cyl=6)
    assert len(rep.lines) == 9 and sum(line.outer for line in rep.lines) == 4
    assert [line.corner_xy for line in rep.lines if line.sight] == [(8, 6)]
    assert rep.los and rep.status == "obscured"
    assert pair_has_los(OracleMap.from_arrays(cyl >= 2, wh, wv), [(2, 5)], block)


def test_fr_c1_big_viewer_and_footprint_validation() -> None:
    # FR-C1: a 2x2 model's own squares never block its lines.
    cyl, wh, wv = empty()
    big = [(1, 1), (1, 2), (2, 1), (2, 2)]
    cyl[1, 1] = cyl[1, 2] = cyl[2, 1] = cyl[2, 2] = 9
    assert report(cyl, wh, wv, big, (6, 6), viewer_cyl=6).status == "clear"
    with pytest.raises(RulesError):
        report(cyl, wh, wv, (0, 0), [(1, 1), (1, 2), (2, 1), (3, 3)])
    with pytest.raises(RulesError):
        report(cyl, wh, wv, (0, 0), [(1, 1), (1, 2)])
    with pytest.raises(RulesError):
        report(cyl, wh, wv, big, (1, 1))  # overlap


def test_corner_validation() -> None:
    cyl, wh, wv = empty()
    with pytest.raises(RulesError):
        report(cyl, wh[:-1], wv, (0, 0), (1, 1))
    with pytest.raises(RulesError):
        report(cyl.astype(float), wh, wv, (0, 0), (1, 1))
    with pytest.raises(RulesError):
        report(cyl, wh, wv, (0, 0), (1, 1), viewer_cyl=0)
    with pytest.raises(RulesError):
        report(cyl, wh, wv, (0, 0), (1, 1), origin="middle")
    with pytest.raises(RulesError):
        report(cyl, wh, wv, (0, 0), (1, 1), facing="N")
    with pytest.raises(RulesError):
        report(cyl, wh, wv, (0, 0), (1, 1), obscure_rule="hero")
    with pytest.raises(RulesError):
        report(cyl, wh, wv, (0, 0), (1, 1), occupants={(9, 9): 2})
    with pytest.raises(RulesError):
        report(cyl, wh, wv, (0, 0), (8, 1))
    with pytest.raises(RulesError):
        S.line_obstructions(cyl > 0, wh, wv, (1, 1), (3, 4))  # end not a corner


def test_board_wrappers_on_the_demo_board() -> None:
    # The Board wrappers: opaque squares block whatever the heights; doors are walls
    # unless open.
    board = builtin_board("demo")
    table = S.board_orthogonal_table(board, road_rule=True)
    h8, h1 = Square.parse("H8"), Square.parse("H1")
    assert table.shape == (board.height, board.width)
    assert table.sees(h8, h1) == S.orthogonal_sees(board.opaque, h8, h1).sees
    assert S.board_orthogonal_visible(board, h8).shape == (board.height, board.width)
    # The office's front door K3 w (closed) between J3 and L3.
    j3, l3 = Square.parse("J3"), Square.parse("L3")
    shut = S.board_corner_report(board, j3, l3, viewer_cyl=2, target_cyl=2)
    door = Edge.of(Square.parse("K3"), "w")
    opened = S.board_corner_report(
        board, j3, l3, viewer_cyl=2, target_cyl=2, open_doors=[door, *board.doors]
    )
    assert not shut.los and opened.los
    assert S.board_corner_table(board, viewer_cyl=2).sees(j3, l3) is False
    # The flats A1-C3 (opaque) stop the line from D2 to A2.
    d2 = Square.parse("D2")
    assert not S.board_corner_report(board, d2, Square.parse("A2"), viewer_cyl=7, target_cyl=2).los
    assert S.board_corner_report(board, d2, Square.parse("D6"), viewer_cyl=2, target_cyl=2).los


def test_board_opaque_square_blocks_whatever_its_cyl() -> None:
    # grid.Terrain: an opaque square blocks every line of sight, whatever the heights.
    legend = [Terrain(".", "floor", True, False), Terrain("s", "screen", False, True, 1)]
    board = Board(["...", ".s.", "..."], legend)
    assert not S.board_corner_report(board, (1, 0), (1, 2), viewer_cyl=5, target_cyl=5).los
    clear = Board(["...", ".c.", "..."], [legend[0], Terrain("c", "crate", False, False, 1)])
    assert S.board_corner_report(clear, (1, 0), (1, 2), viewer_cyl=5, target_cyl=5).los


# ======================================================================== properties


def random_map(
    rng: np.random.Generator, h: int, w: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, dict[tuple[int, int], int]]:
    """Blockers of mixed Cyl (with deliberate corner-to-corner pairs), scattered walls and
    wall structures (L corners, T joints, crosses, runs) and a few models."""
    cyl = np.where(rng.random((h, w)) < rng.uniform(0.08, 0.3), rng.integers(1, 5, (h, w)), 0)
    for _ in range(int(rng.integers(0, 3))):  # touching corners
        r, c = int(rng.integers(0, h - 1)), int(rng.integers(0, w - 1))
        k = int(rng.integers(2, 5))
        if rng.random() < 0.5:
            cyl[r, c] = cyl[r + 1, c + 1] = k
        else:
            cyl[r, c + 1] = cyl[r + 1, c] = k
    wh = rng.random((h + 1, w)) < rng.uniform(0.0, 0.15)
    wv = rng.random((h, w + 1)) < rng.uniform(0.0, 0.15)
    for _ in range(int(rng.integers(0, 5))):  # joints at a lattice point: L, T or cross
        pr, pc = int(rng.integers(1, h)), int(rng.integers(1, w))
        arms = rng.permutation(4)[: int(rng.integers(2, 5))]
        for arm in arms:
            if arm == 0:
                wv[pr - 1, pc] = True
            elif arm == 1:
                wh[pr, pc] = True
            elif arm == 2:
                wv[pr, pc] = True
            else:
                wh[pr, pc - 1] = True
    occupants = {
        (int(rng.integers(h)), int(rng.integers(w))): int(rng.integers(1, 5))
        for _ in range(int(rng.integers(0, 4)))
    }
    return cyl, wh, wv, occupants


def heights_of(cyl: np.ndarray, occupants: dict[tuple[int, int], int]) -> np.ndarray:
    out = cyl.copy()
    for (r, c), v in occupants.items():
        out[r, c] = max(out[r, c], v)
    return out


@pytest.mark.parametrize("seed", [11, 12, 13])
def test_oracle_all_pairs_centre_origin(seed: int) -> None:
    # FR-L1, FR-L2, FR-L3: every corner line of every viewer/target pair agrees with the
    # exact brute force, on random maps.
    rng = np.random.default_rng(seed)
    h, w = (6, 6) if seed != 13 else (6, 7)
    cyl, wh, wv, occ = random_map(rng, h, w)
    viewer_cyl = int(rng.integers(1, 4))
    blocking = heights_of(cyl, occ) >= viewer_cyl
    om = OracleMap.from_arrays(blocking, wh, wv)
    cells = [(r, c) for r in range(h) for c in range(w)]
    for v in cells:
        o = (2 * v[1] + 1, 2 * v[0] + 1)
        for t in cells:
            if t == v:
                continue
            for corner in footprint_corners([t]):
                mine = bool(
                    S.line_obstructions(blocking, wh, wv, o, corner, viewer=[v], target=[t])
                )
                assert mine == line_blocked(om, o, corner, viewer=[v], target=[t]), (v, t, corner)


@pytest.mark.parametrize("seed", range(4))
def test_oracle_any_corner_and_big_models(seed: int) -> None:
    # FR-L2 (any_corner), FR-L3 (runs along walls and seams, end corners, zero-length
    # lines), FR-C1 (2x2 viewers and targets): sampled pairs against the brute force.
    rng = np.random.default_rng(100 + seed)
    h, w = int(rng.integers(6, 9)), int(rng.integers(6, 9))
    cyl, wh, wv, occ = random_map(rng, h, w)
    blocking = heights_of(cyl, occ) >= int(rng.integers(1, 4))
    om = OracleMap.from_arrays(blocking, wh, wv)

    def footprint() -> list[tuple[int, int]]:
        r, c = int(rng.integers(h - 1)), int(rng.integers(w - 1))
        if rng.random() < 0.25:
            return [(r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)]
        return [(int(rng.integers(h)), int(rng.integers(w)))]

    checked = 0
    while checked < 60:
        vs, ts = footprint(), footprint()
        if set(vs) & set(ts):
            continue
        checked += 1
        any_corner = rng.random() < 0.75
        origins = footprint_corners(vs) if any_corner else [(2 * c + 1, 2 * r + 1) for r, c in vs]
        for o in origins:
            for corner in footprint_corners(ts):
                mine = bool(S.line_obstructions(blocking, wh, wv, o, corner, viewer=vs, target=ts))
                assert mine == line_blocked(om, o, corner, viewer=vs, target=ts), (
                    vs,
                    ts,
                    o,
                    corner,
                )
        rep = S.corner_report(
            cyl,
            wh,
            wv,
            vs,
            ts,
            viewer_cyl=2,
            target_cyl=2,
            occupants=occ,
            origin="any_corner" if any_corner else "centre",
        )
        oracle_map = OracleMap.from_arrays(heights_of(cyl, occ) >= 2, wh, wv)
        assert rep.los == pair_has_los(oracle_map, vs, ts, any_corner=any_corner)


@pytest.mark.parametrize("seed", [21, 22])
def test_corner_table_matches_pairs_and_oracle(seed: int) -> None:
    # FR-L1: the vectorised all-pairs table agrees with corner_sees and the brute force.
    rng = np.random.default_rng(seed)
    h, w = 7, 6
    cyl, wh, wv, occ = random_map(rng, h, w)
    table = S.corner_table(cyl, wh, wv, viewer_cyl=2, occupants=occ)
    om = OracleMap.from_arrays(heights_of(cyl, occ) >= 2, wh, wv)
    for vr in range(h):
        for vc in range(w):
            for tr in range(h):
                for tc in range(w):
                    if (vr, vc) == (tr, tc):
                        assert table.visible[vr, vc, tr, tc]
                        continue
                    got = bool(table.visible[vr, vc, tr, tc])
                    assert got == S.corner_sees(
                        cyl, wh, wv, (vr, vc), (tr, tc), viewer_cyl=2, occupants=occ
                    )
                    if (vr * w + vc + tr * w + tc) % 5 == 0:  # a fifth against the oracle
                        assert got == pair_has_los(om, [(vr, vc)], [(tr, tc)])
    assert table.matrix().shape == (h * w, h * w)
    assert table.sees((0, 0), (0, 0)) and table.mask((0, 0)).shape == (h, w)


@pytest.mark.parametrize("seed", [31, 32])
def test_report_status_against_oracle(seed: int) -> None:
    # FR-S3, FR-S5, FR-S6: the status follows from brute-force lines in three worlds:
    # blocking (>= viewer Cyl), the cylinder (>= max of both Cyl) and obstacles (any).
    rng = np.random.default_rng(seed)
    h, w = 7, 7
    cyl, wh, wv, occ = random_map(rng, h, w)
    heights = heights_of(cyl, occ)
    for _ in range(80):
        v = (int(rng.integers(h)), int(rng.integers(w)))
        t = (int(rng.integers(h)), int(rng.integers(w)))
        if v == t:
            continue
        vcyl, tcyl = int(rng.integers(1, 5)), int(rng.integers(1, 5))
        rep = S.corner_report(cyl, wh, wv, v, t, viewer_cyl=vcyl, target_cyl=tcyl, occupants=occ)
        o = (2 * v[1] + 1, 2 * v[0] + 1)
        worlds = [
            OracleMap.from_arrays(heights >= vcyl, wh, wv),
            OracleMap.from_arrays(heights >= max(vcyl, tcyl), wh, wv),
            OracleMap.from_arrays(heights >= 1, wh, wv),
        ]
        sight, cyl_sight, clean = (
            [not line_blocked(m, o, c, viewer=[v], target=[t]) for c in footprint_corners([t])]
            for m in worlds
        )
        if not any(cyl_sight):
            expected = "entirely obscured"
        elif not any(sight) or not all(clean):
            expected = "obscured"
        else:
            expected = "clear"
        assert rep.status == expected, (v, t, vcyl, tcyl)
        corners = footprint_corners([t])
        assert {line.corner_xy: line.sight for line in rep.lines} == dict(
            zip(corners, sight, strict=True)
        )


@pytest.mark.parametrize("seed", [41, 42])
def test_fr_l3_no_other_blocking_square_changes_no_answer(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # FR-L3 (ruling in docs/sight.md): reading "two blocking squares meet corner to corner
    # (and no other blocking square)" literally or as "at least those two" gives the same
    # answer for every line; only the report differs.
    rng = np.random.default_rng(seed)
    h, w = 7, 7
    blocking = rng.random((h, w)) < 0.45
    _, wh, wv = empty(h, w)
    lines = []
    for _ in range(300):
        v = (int(rng.integers(h)), int(rng.integers(w)))
        t = (int(rng.integers(h)), int(rng.integers(w)))
        if v != t:
            for o in [(2 * v[1] + 1, 2 * v[0] + 1), *footprint_corners([v])]:
                lines += [(v, t, o, c) for c in footprint_corners([t])]

    def answers() -> list[bool]:
        return [
            bool(S.line_obstructions(blocking, wh, wv, o, c, viewer=[v], target=[t]))
            for v, t, o, c in lines
        ]

    literal = answers()
    original = S._World.separators

    def at_least_two(self: Any, R: int, C: int) -> int:
        seps = original(self, R, C) & 0b01010101  # keep the walls, redo the pinches
        if self.blocks(R - 1, C) and self.blocks(R, C - 1):
            seps |= (1 << 1) | (1 << 5)
        if self.blocks(R - 1, C - 1) and self.blocks(R, C):
            seps |= (1 << 3) | (1 << 7)
        return seps

    monkeypatch.setattr(S._World, "separators", at_least_two)
    assert answers() == literal


def test_corner_names() -> None:
    assert S.corner_name((1, 1), 8, 8) == "B2 nw"
    assert S.corner_name((1, 8), 8, 8) == "H2 ne"
    assert S.corner_name((8, 2), 8, 8) == "C8 sw"
    assert S.corner_name((8, 8), 8, 8) == "H8 se"


@st.composite
def corner_maps(draw: st.DrawFn) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    h = draw(st.integers(3, 6))
    w = draw(st.integers(3, 6))
    cyl = draw(hnp.arrays(np.int64, (h, w), elements=st.sampled_from([0, 0, 0, 1, 2, 3])))
    sparse = st.sampled_from([False, False, False, True])
    wh = draw(hnp.arrays(np.bool_, (h + 1, w), elements=sparse))
    wv = draw(hnp.arrays(np.bool_, (h, w + 1), elements=sparse))
    return cyl, wh, wv


def cells_of(data: st.DataObject, h: int, w: int) -> tuple[tuple[int, int], tuple[int, int]]:
    v = (data.draw(st.integers(0, h - 1)), data.draw(st.integers(0, w - 1)))
    t = data.draw(st.tuples(st.integers(0, h - 1), st.integers(0, w - 1)).filter(lambda x: x != v))
    return v, t


def segment_meets_open_square(o: tuple[int, int], e: tuple[int, int], sq: tuple[int, int]) -> bool:
    """Exact: does the closed segment o-e contain a point strictly inside square sq?"""
    r, c = sq
    lo, hi = Fraction(0), Fraction(1)
    for p, d, a, b in (
        (o[0], e[0] - o[0], 2 * c, 2 * c + 2),
        (o[1], e[1] - o[1], 2 * r, 2 * r + 2),
    ):
        if d == 0:
            if not a < p < b:
                return False
            continue
        t1, t2 = sorted((Fraction(a - p, d), Fraction(b - p, d)))
        lo, hi = max(lo, t1), min(hi, t2)
    return lo < hi


@given(corner_maps(), st.data())
def test_a_line_with_sight_never_passes_a_blocking_interior(
    board: tuple[np.ndarray, np.ndarray, np.ndarray], data: st.DataObject
) -> None:
    # FR-L1, FR-L3: a line that gives sight meets no blocking square's interior.
    cyl, wh, wv = board
    h, w = cyl.shape
    v, t = cells_of(data, h, w)
    origin = data.draw(st.sampled_from(["centre", "any_corner"]))
    rep = S.corner_report(cyl, wh, wv, v, t, viewer_cyl=2, target_cyl=2, origin=origin)
    blockers = [
        (r, c) for r in range(h) for c in range(w) if cyl[r, c] >= 2 and (r, c) not in (v, t)
    ]
    for line in rep.lines:
        if line.sight:
            for sq in blockers:
                assert not segment_meets_open_square(line.origin_xy, line.corner_xy, sq)


@given(corner_maps(), st.data())
def test_adding_a_blocker_never_adds_sight(
    board: tuple[np.ndarray, np.ndarray, np.ndarray], data: st.DataObject
) -> None:
    # FR-L1, FR-L3, FR-S5: one more blocker or wall never adds sight nor improves status.
    cyl, wh, wv = board
    h, w = cyl.shape
    v, t = cells_of(data, h, w)
    origin = data.draw(st.sampled_from(["centre", "any_corner"]))
    tcyl = data.draw(st.integers(1, 4))
    before = S.corner_report(cyl, wh, wv, v, t, viewer_cyl=2, target_cyl=tcyl, origin=origin)
    cyl2, wh2, wv2 = cyl.copy(), wh.copy(), wv.copy()
    what = data.draw(st.sampled_from(["square", "h", "v"]))
    if what == "square":
        r, c = data.draw(st.integers(0, h - 1)), data.draw(st.integers(0, w - 1))
        cyl2[r, c] = max(cyl2[r, c], data.draw(st.integers(1, 4)))
    elif what == "h":
        wh2[data.draw(st.integers(0, h)), data.draw(st.integers(0, w - 1))] = True
    else:
        wv2[data.draw(st.integers(0, h - 1)), data.draw(st.integers(0, w))] = True
    after = S.corner_report(cyl2, wh2, wv2, v, t, viewer_cyl=2, target_cyl=tcyl, origin=origin)
    order = {"clear": 0, "obscured": 1, "entirely obscured": 2}
    assert order[after.status] >= order[before.status]
    for b, a in zip(before.lines, after.lines, strict=True):
        assert b.sight or not a.sight
        assert b.cylinder_sight or not a.cylinder_sight
