"""The FEAR grid rules through :class:`~fogofwar.games.zero_dark.fear.Position`: sight
(FR-L*), movement (FR-M*), range (FR-R1), states (FR-S*) and big models (FR-C1).

Each test builds a small board from text (``helpers.board``; legend: ``.`` floor,
``c`` crates Cyl 2 impassable, ``w`` low wall Cyl 3 impassable, ``t`` tall Cyl 5
passable, ``X`` opaque block) and asks the position. The kernel's own tests cover the
corner-line geometry in depth; here a few cases per rule pin the game's use of it.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from fogofwar.core.errors import RulesError
from fogofwar.core.grid import Edge
from fogofwar.core.sight import CornerLine
from fogofwar.games.zero_dark.fear import FearRules, Model, Position

from .helpers import ally, board, bogey, hero, names, open_board, ping, position, sq
from .test_fear_oracle import random_position

# A 7x3 strip: the viewer on A2, the target on E2, something on C2 between them.
STRIP = ".......\n..{}....\n......."


def strip(item: str) -> str:
    return STRIP.format(item)


def line_to(pos: Position, viewer: str, target: str, corner: tuple[int, int]) -> CornerLine:
    """The corner line of the report to the target corner at doubled coordinates."""
    report = pos.report(viewer, target)
    (line,) = [ln for ln in report.lines if ln.corner_xy == corner]
    return line


# =============================================================== FR-L1 line of sight


@pytest.mark.parametrize(
    ("item", "viewer_cyl", "seen"),
    [
        (".", 3, True),  # nothing between
        ("c", 3, True),  # crates, Cyl 2 < 3: lower than the viewer
        ("w", 3, False),  # low wall, Cyl 3 = the viewer's: blocks
        ("w", 4, True),  # ... but not a Cyl 4 viewer (a boss looks over it)
        ("t", 4, False),  # tall passable terrain, Cyl 5
        ("X", 4, False),  # opaque
    ],
)
def test_terrain_blocks_when_as_tall_as_the_viewer(item: str, viewer_cyl: int, seen: bool) -> None:
    # FR-L1: a line is blocked by a square holding terrain of Cyl >= the viewer's Cyl.
    pos = position(board(strip(item)), hero("H1", "A2", cyl=viewer_cyl), bogey("B1", "E2"))
    assert pos.sees("H1", "B1") is seen
    assert pos.report("H1", "B1").los is seen


@pytest.mark.parametrize(
    ("obstacle", "seen"),
    [
        (bogey("B2", "C2"), False),  # a bogey of the viewer's Cyl
        (ally("A1", "C2"), False),  # a character of the viewer's Cyl
        (bogey("B2", "C2", cyl=4), False),  # taller
        (bogey("B2", "C2", cyl=2), True),  # lower than the viewer
        (ping("P1", "C2"), True),  # a ping is a counter: it blocks nothing (ruling)
    ],
)
def test_models_block_when_as_tall_as_the_viewer(obstacle: Model, seen: bool) -> None:
    # FR-L1: a square holding a bogey or character of Cyl >= the viewer's blocks.
    pos = position(open_board(7, 3), hero("H1", "A2"), bogey("B1", "E2"), obstacle)
    assert pos.sees("H1", "B1") is seen


def test_one_clear_corner_line_is_enough() -> None:
    # FR-L1: LOS when at least one corner line is clear. A Cyl 3 ally on C3 stops one
    # of the four lines from A1 to E3; the others see.
    pos = position(open_board(7, 5), hero("H1", "A1", facing="SE"), bogey("B1", "E3"))
    assert all(line.sight for line in pos.report("H1", "B1").lines)
    pos = pos.with_model(ally("A1", "C3"))
    sight = [line.sight for line in pos.report("H1", "B1").lines]
    assert sight.count(False) == 1 and pos.sees("H1", "B1")


def test_walls_block_sight() -> None:
    # FR-L1: a wall stops the line (a closed door too; an open door does not).
    b = board(".......\n.......\n.......", walls=["D1-D3 e"])
    pos = position(b, hero("H1", "A2"), bogey("B1", "F2"))
    assert not pos.sees("H1", "B1")
    b = board(".......\n.......\n.......", walls=["D1 e", "D3 e"], doors=["D2 e closed"])
    pos = position(b, hero("H1", "A2"), bogey("B1", "F2"))
    assert pos.report("H1", "B1").lines[0].blocked_by  # the line to F2 nw is stopped
    opened = pos.with_door(Edge.parse("D2 e"), True)
    assert opened.sees("H1", "B1")
    assert not opened.with_door(Edge.parse("D2 e"), False).sees("H1", "B1")


# =============================================================== FR-L2 the line's origin


def test_los_origin_switch_changes_the_answer() -> None:
    # FR-L2: from the centre of C2 every line to C4 passes through the block on C3;
    # with `any_corner` a line from C2's south-west corner runs along the block's edge.
    b = board(".....\n.....\n..X..\n.....\n.....")
    models = (hero("H1", "C2", facing="SE"), bogey("B1", "C4"))
    centre = position(b, *models)
    corner = position(b, *models, los_origin="any_corner")
    assert not centre.sees("H1", "B1")
    assert corner.sees("H1", "B1")
    report = corner.report("H1", "B1")
    assert report.origin == "any_corner"
    assert {line.origin_xy for line in report.lines if line.sight} <= {
        (4, 2),
        (6, 2),
        (4, 4),
        (6, 4),
    }
    # With nothing in the way both origins agree.
    for rules in ("centre", "any_corner"):
        assert position(open_board(5, 5), *models, los_origin=rules).sees("H1", "B1")


def test_own_and_target_squares_never_block() -> None:
    # FR-L2: the viewer's and the target's squares never block, whatever stands there:
    # a tall (Cyl 5, passable) square under the viewer and under the target.
    b = board("t...t\n.....")
    pos = position(b, hero("H1", "A1", facing="SE"), bogey("B1", "E1"))
    assert pos.report("H1", "B1").status == "clear"
    assert pos.sees("H1", "B1")
    b = board("t.t.t\n.....")  # ... but one between them does
    assert not position(b, hero("H1", "A1", facing="SE"), bogey("B1", "E1")).sees("H1", "B1")


def test_fear_rules_reject_unknown_switches() -> None:
    # FR-L2, FR-M4: the switches take their listed values only.
    with pytest.raises(RulesError):
        FearRules(los_origin="edge")  # type: ignore[arg-type]
    with pytest.raises(RulesError):
        FearRules(diagonal_block="never")  # type: ignore[arg-type]


# =============================================================== FR-L3 exact geometry

DIAG = ".....\n.....\n.....\n.....\n....."


@pytest.mark.parametrize(
    ("rows", "walls", "blocked"),
    [
        (DIAG, [], False),
        # The line A1 centre -> D4 nw corner runs along the diagonal through the lattice
        # point (2, 2) (the corner shared by B2, C2, B3, C3).
        (DIAG, ["B2 s"], False),  # only touches the wall's free end: not blocked
        (DIAG, ["B2-C2 s"], True),  # crosses the wall at a point inside it: blocked
        (DIAG, ["B2 s", "B2 e"], True),  # crosses at the wall's corner: blocked
        (".....\n..w..\n.....\n.....\n.....", [], False),  # touches one square's corner
        (".....\n..w..\n.w...\n.....\n.....", [], True),  # corner-to-corner pinch
    ],
)
def test_exact_geometry(rows: str, walls: list[str], blocked: bool) -> None:
    # FR-L3: a line that only touches a wall end or a blocking square's corner is not
    # blocked; one crossing a wall (at a joint or corner too) or a pinch is.
    pos = position(board(rows, walls=walls), hero("H1", "A1", facing="SE"), bogey("B1", "D4"))
    line = line_to(pos, "H1", "B1", (6, 6))
    assert line.sight is not blocked
    assert bool(line.blocked_by) is blocked


def test_pinch_is_reported_as_such() -> None:
    # FR-L3, FR-S5: the report names the pinch and its squares.
    b = board(".....\n..w..\n.w...\n.....\n.....")
    pos = position(b, hero("H1", "A1", facing="SE"), bogey("B1", "D4"))
    (obstruction,) = line_to(pos, "H1", "B1", (6, 6)).blocked_by
    assert obstruction.kind == "pinch"
    assert names(obstruction.squares) == ["C2", "B3"]


# =============================================================== FR-L4 Cyl 1 states


@pytest.mark.parametrize(
    "obstacle",
    [
        bogey("B2", "C2", state="down"),
        hero("H2", "C2", state="prone"),
        hero("H2", "C2", state="ooa"),
        ally("A1", "C2", state="prone"),
    ],
)
def test_down_prone_and_ooa_models_are_cyl_1_obstacles(obstacle: Model) -> None:
    # FR-L4: a down bogey, a prone character or an OOA hero counts as Cyl 1: a Cyl 3
    # viewer sees over it; standing (active) the same model blocks.
    assert obstacle.sight_cyl == 1
    pos = position(open_board(7, 3), hero("H1", "A2"), bogey("B1", "E2"), obstacle)
    assert pos.sees("H1", "B1")
    line = pos.report("H1", "B1").lines[0]
    assert [o.heights for o in line.interrupted_by] == [(1,)]
    standing = Model(obstacle.id, obstacle.kind, obstacle.square, tier=obstacle.tier)
    assert standing.sight_cyl == 3
    assert not pos.with_model(standing).sees("H1", "B1")


@pytest.mark.parametrize("state", ["prone", "ooa"])
def test_prone_viewer_is_cyl_1(state: str) -> None:
    # FR-L4: a prone (or OOA) viewer is Cyl 1: crates (Cyl 2) now stop its lines.
    b = board(strip("c"))
    low = position(b, hero("H1", "A2", state=state), bogey("B1", "E2"))
    assert not low.sees("H1", "B1")
    assert low.report("H1", "B1").viewer_cyl == 1
    up = position(b, hero("H1", "A2"), bogey("B1", "E2"))
    assert up.sees("H1", "B1")


def test_down_bogey_target_is_cyl_1() -> None:
    # FR-L4 with FR-S6: a down bogey behind crates (Cyl 2, taller than it) is entirely
    # obscured to a prone viewer; standing, its cylinder shows over them.
    b = board(strip("c"))
    pos = position(b, hero("H1", "A2", state="prone"), bogey("B1", "E2", state="down"))
    assert pos.report("H1", "B1").status == "entirely obscured"
    pos = position(b, hero("H1", "A2", state="prone"), bogey("B1", "E2"))
    assert pos.report("H1", "B1").status == "obscured"


# =============================================================== FR-L5 facing


def test_target_behind_the_viewer_is_not_seen() -> None:
    # FR-L5: facing NE from C3, the field of view is the half-plane NE of the diagonal
    # through C3's NW and SE corners. A3 lies wholly behind it; E1 in front.
    b = open_board(7, 5)
    behind = position(b, hero("H1", "C3", facing="NE"), bogey("B1", "A3"))
    assert not behind.sees("H1", "B1")
    report = behind.report("H1", "B1")
    assert not any(line.in_view for line in report.lines)
    assert report.status == "entirely obscured"
    assert behind.report("H1", "B1", facing=False).los  # the all-round answer
    front = position(b, hero("H1", "C3", facing="NE"), bogey("B1", "E1"))
    assert front.sees("H1", "B1")
    # Turning round sees the one behind and loses the one in front.
    assert position(b, hero("H1", "C3", facing="SW"), bogey("B1", "A3")).sees("H1", "B1")
    assert not position(b, hero("H1", "C3", facing="SW"), bogey("B1", "E1")).sees("H1", "B1")


def test_field_of_view_is_a_closed_half_plane() -> None:
    # FR-L5 (R): corners on the bounding diagonal are in view. A2's SE corner and D5's
    # NW corner lie on the diagonal through C3's NW and SE corners; their other corners
    # lie behind it.
    b = open_board(7, 5)
    for target in ("A2", "D5"):
        pos = position(b, hero("H1", "C3", facing="NE"), bogey("B1", target))
        in_view = [line.in_view for line in pos.report("H1", "B1").lines]
        assert in_view.count(True) == 1, target
        assert pos.sees("H1", "B1"), target
    # A1 has three corners in front and is seen; A3 none.
    pos = position(b, hero("H1", "C3", facing="NE"), bogey("B1", "A1"))
    assert [line.in_view for line in pos.report("H1", "B1").lines].count(True) == 3


# =============================================================== FR-M1 steps


def test_steps_go_to_the_eight_neighbours() -> None:
    # FR-M1: one square per step, in any of the 8 directions.
    pos = position(open_board(5, 5), hero("H1", "C3"))
    assert names(pos.steps("H1", 4)) == ["B2", "C2", "D2", "B3", "D3", "B4", "C4", "D4"]
    assert not pos.can_step("H1", sq("C5"))  # two squares away
    assert pos.steps("H1", 0) == []
    # In a corner, three.
    assert names(position(open_board(5, 5), hero("H1", "A1")).steps("H1", 1)) == [
        "B1",
        "A2",
        "B2",
    ]


def test_steps_never_cross_walls_or_impassable_terrain() -> None:
    # FR-M1: never through a wall or an impassable obstacle.
    b = board("...\n.X.\n...", walls=["A2 e"])
    pos = position(b, hero("H1", "A2"))
    assert names(pos.steps("H1", 4)) == ["A1", "A3"]  # B2 is a block, A2 e a wall
    # A diagonal B1 -> A2 passes the wall's end at A2's NE corner: FR-M4 forbids it.
    assert not position(b, hero("H1", "B1")).can_step("H1", sq("A2"))
    b = board("...\n...\n...", doors=["A2 e closed"])
    pos = position(b, hero("H1", "A2"))
    assert sq("B2") not in pos.steps("H1", 1)
    assert sq("B2") in pos.with_door(Edge.parse("A2 e"), True).steps("H1", 1)


# =============================================================== FR-M2 characters' moves

ROW = "....\n....\n...."


@pytest.mark.parametrize(
    ("other", "crossable"),
    [
        (hero("H2", "B2"), True),  # a friendly character
        (ally("A1", "B2"), True),
        (bogey("B1", "B2", state="down"), True),  # a down bogey
        (bogey("B1", "B2"), False),  # an active bogey
        (ping("P1", "B2"), False),  # a ping (a face-down bogey)
        (hero("H2", "B2", team="team2"), False),  # an enemy character (Versus)
    ],
)
def test_characters_cross_friends_and_down_bogeys_only(other: Model, crossable: bool) -> None:
    # FR-M2: a character moves through down bogeys and friendly characters but may not
    # stop on them; bogeys and enemy characters are impassable to it.
    mover = hero("H1", "A2", team="team1" if other.team == "team2" else "")
    pos = position(board(ROW), mover, other)
    assert (sq("B2") in pos.steps("H1", 2)) is crossable  # through, on to C*
    assert sq("B2") not in pos.steps("H1", 1)  # never the end of a move
    assert not pos.can_stop("H1", sq("B2"))
    assert (sq("B2") in pos.crossable_by(pos.model("H1"))) is crossable
    assert (sq("B2") in pos.impassable_to(pos.model("H1"))) is not crossable


def test_crossing_needs_a_legal_end() -> None:
    # FR-M2: a friend may be crossed only if the move can still end off it. In a dead
    # end (the board's edge behind the friend) only by stepping back with a step to
    # spare.
    pos = position(board(".."), hero("H1", "A1"), hero("H2", "B1"))
    assert pos.steps("H1", 1) == []
    assert names(pos.steps("H1", 2)) == ["B1"]
    # Mid-move on the friend's square, the hero must step off it.
    mid = position(board("...\n..."), hero("H1", "B1"), hero("H2", "B1"))
    assert not mid.can_stop("H1", sq("B1"))
    assert sq("A1") in mid.steps("H1", 1)


# =============================================================== FR-M3 bogeys' moves


@pytest.mark.parametrize(
    ("other", "crossable"),
    [
        (bogey("B2", "B2"), True),  # another bogey
        (bogey("B2", "B2", state="down"), True),
        (ping("P1", "B2"), True),  # a ping
        (hero("H1", "B2", state="ooa"), True),  # an out-of-action character
        (hero("H1", "B2"), False),  # any other character
        (hero("H1", "B2", state="prone"), False),
        (ally("A1", "B2"), False),
    ],
)
@pytest.mark.parametrize("mover", [bogey("B1", "A2"), ping("P9", "A2")])
def test_bogeys_cross_bogeys_and_ooa_characters(
    mover: Model, other: Model, crossable: bool
) -> None:
    # FR-M3: bogeys (and pings, which move like them) move through other bogeys and OOA
    # characters but may not stop on them; all other characters are impassable.
    pos = position(board(ROW), mover, other)
    assert (sq("B2") in pos.steps(mover.id, 2)) is crossable
    assert sq("B2") not in pos.steps(mover.id, 1)
    assert not pos.can_stop(mover.id, sq("B2"))


# =============================================================== FR-M4 diagonals


@pytest.mark.parametrize(
    ("rows", "walls", "extra", "either", "both"),
    [
        ("...\n...\n...", [], None, True, True),  # open ground
        (".c.\n...\n...", [], None, False, True),  # crates on one side (B1)
        (".c.\nc..\n...", [], None, False, False),  # both sides shut
        ("...\n...\n...", ["B1 w"], None, False, True),  # a wall touching the corner
        ("...\n...\n...", [], bogey("B1", "B1"), False, True),  # a bogey on one side
        ("...\n...\n...", [], hero("H2", "B1"), True, True),  # a friend shuts nothing
    ],
)
def test_diagonal_rule_switch(
    rows: str, walls: list[str], extra: Model | None, either: bool, both: bool
) -> None:
    # FR-M4: the diagonal step A1 -> B2 passes the side squares B1 and A2: illegal
    # under "either" if either side holds something impassable to the mover or a wall
    # touches the corner; under "both" only if both sides are shut.
    models = [hero("H1", "A1")] + ([extra] if extra is not None else [])
    b = board(rows, walls=walls)
    assert position(b, *models).can_step("H1", sq("B2")) is either
    assert position(b, *models, diagonal_block="both").can_step("H1", sq("B2")) is both


def test_orthogonal_steps_ignore_the_diagonal_rule() -> None:
    # FR-M4 applies to diagonal steps only: A1 -> B1 beside crates on A2 is fine.
    b = board("...\nc..\n...")
    for rule in ("either", "both"):
        assert position(b, hero("H1", "A1"), diagonal_block=rule).can_step("H1", sq("B1"))


# =============================================================== FR-M5 no climbing


def test_passable_terrain_with_a_cyl_is_walked_over() -> None:
    # FR-M5 (R): climbing is not modelled; a passable tall item (Cyl 5) is walked over,
    # impassable crates (Cyl 2) and low walls (Cyl 3) are not climbed.
    b = board("t.c\n...\n..w")
    pos = position(b, hero("H1", "B2"))
    assert names(pos.steps("H1", 4)) == ["A1", "B1", "A2", "C2", "A3", "B3"]
    assert pos.can_stop("H1", sq("A1"))
    assert not pos.can_step("H1", sq("C1")) and not pos.can_step("H1", sq("C3"))
    with pytest.raises(RulesError):
        position(b, hero("H1", "C1"))  # no model stands on crates


# =============================================================== FR-R1 range


def test_range_counts_squares_adjacent_is_one() -> None:
    # FR-R1: the fewest squares moved through, the target's counted: adjacent = 1.
    pos = position(open_board(7, 5), hero("H1", "A1"), bogey("B1", "B2"), bogey("B2", "E4"))
    assert pos.range("H1", "B1") == 1
    assert pos.range("H1", "B2") == 4  # king moves on open ground
    assert pos.range("B1", "H1") == 1


def test_range_goes_around_walls_by_the_movement_rules() -> None:
    # FR-R1 (R): by FR-M1 and FR-M4 around walls. From A2 to C2 past the wall B1-B2 e:
    # under "either" the diagonal B3 -> C2 touches the wall's end, so A2 B3 C3 C2 = 3;
    # under "both" B3 -> C2 is allowed: 2. Without the wall, 2.
    b = board("...\n...\n...", walls=["B1-B2 e"])
    models = (hero("H1", "A2"), bogey("B1", "C2"))
    assert position(b, *models).range("H1", "B1") == 3
    assert position(b, *models, diagonal_block="both").range("H1", "B1") == 2
    assert position(board("...\n...\n..."), *models).range("H1", "B1") == 2


def test_range_ignores_models_and_fails_without_a_route() -> None:
    # FR-R1: models are ignored (a bogey standing in the only way round changes
    # nothing); a closed room has no range.
    b = board("...\n...\n...", walls=["B1-B2 e"])
    pos = position(b, hero("H1", "A2"), bogey("B1", "C2"), bogey("B2", "B3"), hero("H2", "C3"))
    assert pos.range("H1", "B1") == 3
    closed = board("...\n...\n...", walls=["B1-B3 e"])
    assert position(closed, hero("H1", "A2"), bogey("B1", "C2")).range("H1", "B1") is None
    # Impassable terrain is gone round: A1 to C1 past crates on B1 and B2, by FR-M4:
    # under "either" no diagonal past the crates (A2 A3 B3 C3 C2 C1), under "both" A2 B3
    # C2 C1.
    crates = board(".c.\n.c.\n...")
    models = (hero("H1", "A1"), bogey("B1", "C1"))
    assert position(crates, *models).range("H1", "B1") == 6
    assert position(crates, *models, diagonal_block="both").range("H1", "B1") == 4


# =============================================================== FR-S1 engagement


@pytest.mark.parametrize(
    ("other", "engaged"),
    [
        ("B2", True),
        ("C2", True),
        ("D2", True),
        ("B3", True),
        ("D4", True),
        ("E3", False),  # two squares away
        ("A1", False),
    ],
)
def test_engaged_in_the_eight_neighbours(other: str, engaged: bool) -> None:
    # FR-S1: a model in any of the 8 adjacent squares of another is engaged with it.
    pos = position(open_board(5, 5), hero("H1", "C3"), bogey("B1", other))
    assert pos.engaged("H1", "B1") is engaged
    assert pos.engaged("B1", "H1") is engaged


def test_not_engaged_through_a_wall_or_closed_door() -> None:
    # FR-S1 (R): not through a wall (switch engage_through_walls); a closed door is a
    # wall, an open one is not.
    b = board("...\n...\n...", walls=["A1-A3 e"])
    models = (hero("H1", "A2"), bogey("B1", "B2"))
    assert not position(b, *models).engaged("H1", "B1")
    assert position(b, *models, engage_through_walls=True).engaged("H1", "B1")
    b = board("...\n...\n...", walls=["A1 e", "A3 e"], doors=["A2 e closed"])
    shut = position(b, *models)
    assert not shut.engaged("H1", "B1")
    assert shut.with_door(Edge.parse("A2 e"), True).engaged("H1", "B1")
    b = board("...\n...\n...", walls=["A1 e", "A3 e"], doors=["A2 e open"])
    assert position(b, *models).engaged("H1", "B1")


def test_diagonal_engagement_and_wall_corners() -> None:
    # FR-S1 (R): diagonal neighbours are separated by a wall straight through the
    # shared corner; a wall that only ends at the corner does not separate them.
    models = (hero("H1", "A1"), bogey("B1", "B2"))
    through = board("...\n...\n...", walls=["A1-A2 e"])  # a straight wall past the corner
    assert not position(through, *models).engaged("H1", "B1")
    fenced = board("...\n...\n...", walls=["A1 e", "A1 s"])  # a corner round A1
    assert not position(fenced, *models).engaged("H1", "B1")
    assert position(fenced, *models, engage_through_walls=True).engaged("H1", "B1")
    end = board("...\n...\n...", walls=["A1 e"])  # ends at the corner
    assert position(end, *models).engaged("H1", "B1")


# =============================================================== FR-S2 entirely obscured


def test_entirely_obscured() -> None:
    # FR-S2: no LOS to any corner nor to any part of the cylinder.
    hidden = position(board(strip("X")), hero("H1", "A2"), bogey("B1", "E2"))
    report = hidden.report("H1", "B1")
    assert report.status == "entirely obscured" and report.entirely_obscured
    assert not any(line.sight or line.cylinder_sight for line in report.lines)
    seen = position(open_board(7, 3), hero("H1", "A2"), bogey("B1", "E2"))
    assert not seen.report("H1", "B1").entirely_obscured


# =============================================================== FR-S3 obscured (bogey)


def test_another_model_obscures_a_bogey_target() -> None:
    # FR-S3: a bogey target is obscured when some corner line passes through a square
    # with an obstacle: another model counts. A Cyl 3 ally on C3 cuts one line A1 -> E3.
    b = open_board(7, 5)
    pos = position(b, hero("H1", "A1", facing="SE"), bogey("B1", "E3"))
    assert pos.report("H1", "B1").status == "clear"
    pos = pos.with_model(ally("A1", "C3"))
    report = pos.report("H1", "B1")
    assert report.status == "obscured" and report.obscured and report.los
    cut = [line for line in report.lines if line.interrupted_by]
    assert len(cut) == 1
    assert [o.to_json(5, 7) for o in cut[0].interrupted_by] == [
        {"kind": "square", "squares": ["C3"], "cyl": [3]}
    ]


def test_the_target_itself_is_never_an_obstacle() -> None:
    # FR-S3: the target (Cyl 5 here, on a tall square too) never obscures itself.
    b = board("t....\n.....")
    pos = position(b, hero("H1", "E2", facing="NW"), bogey("B1", "A1", cyl=5))
    assert pos.report("H1", "B1").status == "clear"


# =============================================================== FR-S4 obscured (character)


@pytest.mark.parametrize(
    ("rows", "bogey_status", "hero_status"),
    [
        (".......\n.......\n..c....\n.......\n.......", "obscured", "clear"),  # C3: far
        (".......\n.......\n...c...\n.......\n.......", "obscured", "obscured"),  # D3: adj.
        (".......\n.......\n.......\n.......\n.......", "clear", "clear"),
    ],
)
def test_character_target_counts_only_what_it_is_engaged_with(
    rows: str, bogey_status: str, hero_status: str
) -> None:
    # FR-S4: a character target is obscured only by obstacles adjacent to it; a bogey
    # target (FR-S3) by any on the lines. The viewer is a bogey on A1, the target on E3;
    # crates (Cyl 2) never stop the lines of a Cyl 3 viewer.
    b = board(rows)
    as_bogey = position(b, bogey("V", "A1", facing="SE"), bogey("T", "E3")).report("V", "T")
    as_hero = position(b, bogey("V", "A1", facing="SE"), hero("T", "E3")).report("V", "T")
    assert as_bogey.obscure_rule == "bogey" and as_hero.obscure_rule == "character"
    assert as_bogey.status == bogey_status
    assert as_hero.status == hero_status
    assert as_bogey.los and as_hero.los


@pytest.mark.parametrize(
    ("walls", "bogey_status", "hero_status"),
    [
        (["D1 e"], "obscured", "clear"),  # a wall away from the target
        (["E1 e"], "obscured", "obscured"),  # a wall on the target's edge
        ([], "clear", "clear"),
    ],
)
def test_character_target_counts_only_walls_it_touches(
    walls: list[str], bogey_status: str, hero_status: str
) -> None:
    # FR-S4: walls too count for a character target only when it is engaged with them
    # (they touch its square). From A3 a short wall stops the lines to F1's upper
    # corners; the lower ones see.
    b = board(".......\n.......\n.......", walls=walls)
    as_bogey = position(b, bogey("V", "A3"), bogey("T", "F1")).report("V", "T")
    as_hero = position(b, bogey("V", "A3"), hero("T", "F1")).report("V", "T")
    assert as_bogey.los and as_hero.los
    assert as_bogey.status == bogey_status
    assert as_hero.status == hero_status


def test_ally_target_uses_the_character_rule() -> None:
    # FR-S4: an ally is a character too.
    b = board(".......\n.......\n..c....\n.......\n.......")
    report = position(b, bogey("V", "A1", facing="SE"), ally("T", "E3")).report("V", "T")
    assert report.obscure_rule == "character" and report.status == "clear"


# =============================================================== FR-S5 the report


def test_status_strings_and_what_blocks() -> None:
    # FR-S5: "clear", "obscured" (LOS, some corner line through an obstacle of any
    # height), "entirely obscured" (no LOS), with what blocks or interrupts each line.
    def report_json(item: str) -> dict[str, Any]:
        pos = position(board(strip(item)), hero("H1", "A2"), bogey("B1", "E2"))
        return pos.report("H1", "B1").to_json()

    clear = report_json(".")
    assert clear["status"] == "clear" and clear["los"] is True
    assert all(not ln["blocked_by"] and not ln["interrupted_by"] for ln in clear["lines"])

    low = report_json("c")  # crates, Cyl 2: interrupts but does not block
    assert low["status"] == "obscured" and low["los"] is True
    first = low["lines"][0]
    assert first["corner"] == "E2 nw" and first["sight"] is True
    assert first["blocked_by"] == []
    assert first["interrupted_by"] == [{"kind": "square", "squares": ["C2"], "cyl": [2]}]

    wall = report_json("w")  # a low wall, Cyl 3: blocks a Cyl 3 viewer
    assert wall["status"] == "entirely obscured" and wall["los"] is False
    assert wall["lines"][0]["blocked_by"] == [{"kind": "square", "squares": ["C2"], "cyl": [3]}]


def test_report_names_walls() -> None:
    # FR-S5: a wall on the line is reported by its edge.
    b = board(".......\n.......\n.......", walls=["D1-D2 e"])
    data = position(b, hero("H1", "A2"), bogey("B1", "F2")).report("H1", "B1").to_json()
    assert data["status"] == "entirely obscured"
    assert data["lines"][0]["blocked_by"] == [{"kind": "wall", "walls": ["D2 e"]}]
    # A short wall (D1 e) stops the lines from A3 to F1's upper corners; the lower ones
    # pass below its end: seen, but obscured.
    b = board(".......\n.......\n.......", walls=["D1 e"])
    report = position(b, hero("H1", "A3", facing="NE"), bogey("B1", "F1")).report("H1", "B1")
    assert report.status == "obscured"
    assert [(ln["corner"], ln["sight"]) for ln in report.to_json()["lines"]] == [
        ("F1 nw", False),
        ("F1 ne", False),
        ("F1 sw", True),
        ("F1 se", True),
    ]
    assert report.lines[0].blocked_by[0].kind == "wall"


# =============================================================== FR-S6 lower obstacles


@pytest.mark.parametrize(("target_cyl", "status"), [(3, "entirely obscured"), (4, "obscured")])
def test_obstacle_lower_than_the_target_leaves_it_obscured(target_cyl: int, status: str) -> None:
    # FR-S6: a low wall (Cyl 3) stops every line of a Cyl 3 viewer; a Cyl 4 target's
    # cylinder shows over it (obscured, not entirely), a Cyl 3 target's does not.
    pos = position(board(strip("w")), hero("H1", "A2"), bogey("B1", "E2", cyl=target_cyl))
    report = pos.report("H1", "B1")
    assert not report.los
    assert report.status == status
    assert any(line.cylinder_sight for line in report.lines) is (target_cyl == 4)


def test_prone_viewer_sees_a_cylinder_over_crates() -> None:
    # FR-S6 with FR-L4: a prone viewer (Cyl 1) has no LOS past crates (Cyl 2), but a
    # standing Cyl 3 target shows over them.
    pos = position(board(strip("c")), hero("H1", "A2", state="prone"), bogey("B1", "E2"))
    report = pos.report("H1", "B1")
    assert not report.los and report.status == "obscured"


# =============================================================== FR-C1 big models


def test_big_model_occupies_a_two_by_two_block() -> None:
    # FR-C1: Cyl 1-5 one square, Cyl 6-7 a 2x2 block (its NW square is its square).
    assert names(bogey("B1", "C3", cyl=5).squares) == ["C3"]
    for cyl in (6, 7):
        assert names(bogey("B1", "C3", cyl=cyl).squares) == ["C3", "D3", "C4", "D4"]
    b = open_board(5, 5)
    pos = position(b, bogey("B1", "C3", cyl=6))
    assert pos.at(sq("D4")) is not None and pos.at(sq("E5")) is None
    with pytest.raises(RulesError):
        position(b, bogey("B1", "C3", cyl=6), hero("H1", "D4"))  # it holds D4
    with pytest.raises(RulesError):
        position(b, bogey("B1", "E5", cyl=6))  # off the map


def test_a_model_added_is_checked_as_a_new_position_checks_it() -> None:
    # FR-C1, FR-M2, FR-M3: with_model checks the model it places (on the map, on
    # passable terrain, sharing a square only where one may cross the other) and makes
    # the position the constructor makes; a refused model changes nothing.
    b = board(".....\n..c..\n.....\n.....\n.....")
    pos = position(b, bogey("B1", "C3", cyl=6), hero("H1", "A1"), hero("H2", "A2"))
    for bad in (
        hero("H3", "D4"),  # on the big bogey's block
        bogey("B2", "E5", cyl=6),  # off the map
        hero("H3", "C2"),  # on crates
        bogey("B1", "A1"),  # B1 moved onto a hero
    ):
        with pytest.raises(RulesError):
            pos.with_model(bad)
        with pytest.raises(RulesError):
            Position(pos.board, {**pos.models, bad.id: bad}, pos.open_doors, pos.rules)
    assert names(pos.models["B1"].squares) == ["C3", "D3", "C4", "D4"]
    # Three on one square (never at rest): each pair is checked, in any order. Enemy
    # heroes may not share a square even with a down bogey between them.
    b2 = open_board(5, 5)
    a = hero("HA", "B2", team="team2")
    down = bogey("BD", "B2", state="down")
    c = hero("HC", "B2", team="team1")
    for order in ((a, down, c), (c, a, down), (down, c, a)):
        with pytest.raises(RulesError):
            position(b2, *order)
    with pytest.raises(RulesError):
        position(b2, a, down).with_model(c)
    for good in (hero("H1", "A2"), bogey("B1", "D3", cyl=6), hero("H3", "E1")):
        made = pos.with_model(good)  # a friend crossed (FR-M2); the bogey moved; a new one
        fresh = Position(pos.board, {**pos.models, good.id: good}, pos.open_doors, pos.rules)
        assert dict(made.models) == dict(fresh.models)
        assert (made.board, made.open_doors, made.rules) == (
            fresh.board,
            fresh.open_doors,
            fresh.rules,
        )
        assert dict(made.without(good.id).models) == {
            k: v for k, v in pos.models.items() if k != good.id
        }


@pytest.mark.parametrize("seed", range(6))
def test_the_model_on_a_square_is_the_first_that_holds_it(seed: int) -> None:
    # FR-C1, FR-M2: ``at`` (kept with the position) names the first model in the
    # models' order whose squares hold the square, on every square of random positions,
    # one with a friend crossed mid-move among them.
    pos = random_position(np.random.default_rng(700 + seed), "centre")
    shared = 0
    heroes = [m for m in pos.models.values() if m.kind == "hero" and not m.big]
    if heroes:
        crossing = Model("HX", "hero", heroes[0].square, team=heroes[0].team)
        pos = pos.with_model(crossing)
        shared += 1
    for square in pos.board.squares():
        want = next((m for m in pos.models.values() if square in m.squares), None)
        assert pos.at(square) is want
        assert pos.at((square.row, square.col)) is want
    assert shared or not heroes


def test_big_model_is_seen_through_any_of_its_squares() -> None:
    # FR-C1 (R): sight may be drawn to any corner of any of its squares. From C1 the
    # block on C2 hides C3, but a Cyl 6 model on C3-D4 shows through D3 and D4.
    b = board(".......\n..X....\n.......\n.......\n.......")
    small = position(b, hero("H1", "C1", facing="SE"), bogey("B1", "C3"))
    big = position(b, hero("H1", "C1", facing="SE"), bogey("B1", "C3", cyl=6))
    assert not small.sees("H1", "B1")
    assert big.sees("H1", "B1")
    report = big.report("H1", "B1")
    assert len(report.lines) == 9  # every corner of the 2x2 block
    assert sum(line.outer for line in report.lines) == 4


def test_big_viewer_sees_from_any_of_its_squares() -> None:
    # FR-C1: a Cyl 6 viewer looks from its block; the target beside the block is seen
    # from the near square even where the NW square's view is blocked.
    b = board(".......\n.......\n...X...\n.......\n.......")
    pos = position(b, bogey("V", "B2", cyl=6, facing="SE"), hero("T", "F3"))
    assert pos.sees("V", "T")


def test_big_model_steps_as_a_block() -> None:
    # FR-C1 (R): a 2x2 model steps as a block, each of its squares making the step; it
    # cannot squeeze through the 1-wide gap at D4 that a Cyl 3 model walks through.
    b = board("......\n......\n......\n..X.XX\n......")
    big = position(b, bogey("B1", "C2", cyl=6))
    assert names(big.steps("B1", 4)) == ["B1", "C1", "D1", "B2", "D2"]
    assert not big.can_step("B1", sq("D3"))
    small = position(b, bogey("B1", "D3"))
    assert sq("D4") in small.steps("B1", 1)
    # A model on one square of the block's way stops that step.
    blocked = big.with_model(hero("H1", "E2"))
    assert names(blocked.steps("B1", 4)) == ["B1", "C1", "B2"]  # D1, D2 would take E2


def test_big_model_engages_and_ranges_from_its_block() -> None:
    # FR-C1 with FR-S1 and FR-R1: engagement and range count from any of its squares.
    pos = position(open_board(7, 7), bogey("B1", "B2", cyl=6), hero("H1", "D4"), hero("H2", "F4"))
    assert pos.engaged("B1", "H1")
    assert not pos.engaged("B1", "H2")
    assert pos.range("B1", "H1") == 1
    assert pos.range("B1", "H2") == 3
