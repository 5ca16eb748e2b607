"""Sight through smoke (SO-L1, SO-L2, SO-L5, the Smoke Grenade): the table a smoke makes
is updated for the viewers it touches only (:meth:`Geometry.sight_with`); it must be the
table built again from scratch with the smoke opaque, on every board, for any smoke."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fogofwar.core.sight import orthogonal_runs, orthogonal_runs_each, orthogonal_visible
from fogofwar.games.specter_ops.geometry import Geometry, geometry_for

BOARDS = Path(__file__).parent / "boards"
GEOMETRIES = {
    "specter-ops": geometry_for("specter-ops"),
    **{p.stem: geometry_for(str(p)) for p in sorted(BOARDS.glob("*.board"))},
}


def _fresh(geo: Geometry, smoke: int) -> tuple[int, ...]:
    return Geometry.sight_with.__wrapped__(geo, smoke)  # type: ignore[attr-defined]


@pytest.mark.parametrize("name", list(GEOMETRIES))
def test_the_runs_make_up_each_squares_sight(name: str) -> None:
    # SO-L1, SO-L2: a viewer's row, column and lanes' runs are exactly its sight.
    geo = GEOMETRIES[name]
    assert geo.road, "a board with roads tests the lanes"  # every test board has some
    for i, runs in enumerate(geo.runs):
        union = 0
        for bits, centre, _ in runs:
            assert bits >> centre & 1
            union |= bits
        assert union == geo.sight[i]


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_runs_are_what_the_viewer_sees_with_and_without_smoke(data: st.DataObject) -> None:
    # SO-L1, SO-L2: the runs of orthogonal_runs are the squares orthogonal_visible gives,
    # on the bare board and with smoke (extra opaque squares) anywhere.
    geo = GEOMETRIES[data.draw(st.sampled_from(sorted(GEOMETRIES)))]
    board = geo.board
    h, w = geo.height, geo.width
    viewer = (data.draw(st.integers(0, h - 1)), data.draw(st.integers(0, w - 1)))
    smoke = np.zeros((h, w), dtype=np.bool_)
    for r, c in data.draw(st.lists(st.tuples(st.integers(0, h - 1), st.integers(0, w - 1)))):
        smoke[r, c] = True
    for extra in (None, smoke):
        kw = {"roads": board.roads, "road_rule": True, "extra_opaque": extra}
        seen = orthogonal_visible(board.opaque, viewer, **kw)
        cells = set()
        for run in orthogonal_runs(board.opaque, viewer, **kw):
            assert run.lane == (run.square != viewer)
            cells.update(run.cells())
        assert cells == {(int(r), int(c)) for r, c in zip(*seen.nonzero(), strict=True)}


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_smoke_sight_equals_the_table_built_again(data: st.DataObject) -> None:
    # SO-L1, SO-L5 with the Smoke Grenade: smoke anywhere — on roads, on a lane's
    # neighbour square, on the viewer's own square, several at once — cuts the sight
    # exactly as the whole table built with the smoke opaque.
    name = data.draw(st.sampled_from(sorted(GEOMETRIES)))
    geo = GEOMETRIES[name]
    n = geo.width * geo.height
    road = [i for i in range(n) if geo.road >> i & 1]
    square = st.integers(0, n - 1)
    if road:
        square = st.one_of(square, st.sampled_from(road))
    smoke = 0
    for i in data.draw(st.lists(square, min_size=1, max_size=10)):
        smoke |= 1 << i
    assert _fresh(geo, smoke) == geo.sight_rebuilt(smoke)


def test_no_smoke_is_the_plain_table_and_answers_are_kept() -> None:
    geo = GEOMETRIES["specter-ops"]
    assert geo.sight_with(0) is geo.sight
    smoke = 1 << (10 * geo.width + 11)
    assert geo.sight_with(smoke) is geo.sight_with(smoke)
    assert geo.sight_with(smoke) != geo.sight


@pytest.mark.parametrize("name", list(GEOMETRIES))
def test_every_squares_runs_at_once_are_each_squares_runs(name: str) -> None:
    # SO-L1, SO-L2: the whole board's runs from one pass (orthogonal_runs_each) are each
    # square's runs (orthogonal_runs), and the geometry's bitboards are their squares.
    geo = GEOMETRIES[name]
    board, w = geo.board, geo.width
    each = orthogonal_runs_each(board.opaque, roads=board.roads, road_rule=True)
    assert len(each) == len(geo.runs) == geo.width * geo.height
    for i, runs in enumerate(each):
        one = orthogonal_runs(board.opaque, divmod(i, w), roads=board.roads, road_rule=True)
        assert runs == one
        assert geo.runs[i] == tuple(
            (
                sum(1 << (r * w + c) for r, c in run.cells()),
                run.square[0] * w + run.square[1],
                run.lane,
            )
            for run in one
        )
