"""Tests for fogofwar.core.grid: coordinates, the board format, steps, paths, rendering.

Golden files live in tests/core/data: ``small.board`` (every feature, arrays checked
exactly here), the renders ``small.txt`` and ``demo.txt`` (regenerate on purpose with
``FOGOFWAR_REGEN=1``), and ``bad/*.board``, whose first line says which error (line,
column, expected text) the file must raise.
"""

from __future__ import annotations

import copy
import itertools
import os
import pickle
import re
from collections import deque
from collections.abc import Collection
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from fogofwar.core.errors import BadDataError, InvalidNotationError, RulesError
from fogofwar.core.grid import (
    DIAGONAL_RULES,
    DIRECTIONS,
    ROAD_EW,
    ROAD_NS,
    Board,
    DiagonalRule,
    DiagonalStep,
    Edge,
    Square,
    Terrain,
    builtin_board,
    builtin_boards,
    can_step,
    column_index,
    column_name,
    distance,
    distance_map,
    king_distance,
    load_board,
    manhattan,
    move_graph,
    neighbours,
    parse_board,
    reachable,
    render_rich,
    render_text,
    shortest_path,
)

DATA = Path(__file__).parent / "data"
REGEN = os.environ.get("FOGOFWAR_REGEN") == "1"

FLOOR = Terrain(".", "floor", True, False, 0)
BLOCK = Terrain("X", "block", False, True, 9)
LEGEND = (FLOOR, BLOCK)


def sq(name: str) -> Square:
    return Square.parse(name)


def board_of(*rows: str, walls: str = "", doors: str = "") -> Board:
    """A board from terrain rows ('.' floor, 'X' block) and [walls]/[doors] lines."""
    text = "name: t\n[legend]\n. floor passable transparent\nX block impassable opaque\n"
    text += "[terrain]\n" + "\n".join(rows) + "\n[walls]\n" + walls + "\n[doors]\n" + doors
    return parse_board(text)


def names(squares: Collection[Square] | None) -> list[str] | None:
    return None if squares is None else [s.name for s in squares]


# --------------------------------------------------------------------------- coordinates


@pytest.mark.parametrize(
    ("text", "row", "col"),
    [
        ("A1", 0, 0),
        ("Z1", 0, 25),
        ("AA3", 2, 26),
        ("AZ1", 0, 51),
        ("BA1", 0, 52),
        ("ZZ1", 0, 701),
        ("AAA1", 0, 702),
        ("K17", 16, 10),  # SO-B1: columns by letter, rows by number
        ("W32", 31, 22),
    ],
)
def test_square_names(text: str, row: int, col: int) -> None:
    assert Square.parse(text) == Square(row, col)
    assert Square(row, col).name == text
    assert str(Square(row, col)) == text


def test_square_parse_accepts_lower_case_and_prints_upper() -> None:
    assert Square.parse("k17") == Square(16, 10)
    assert Square.parse("aA3").name == "AA3"


@given(st.integers(0, 5000), st.integers(0, 20000))
def test_square_name_round_trip(row: int, col: int) -> None:
    square = Square(row, col)
    assert Square.parse(square.name) == square
    assert Square.parse(square.name.lower()) == square
    assert column_index(column_name(col)) == col


def test_column_names_are_ordered_like_a_spreadsheet() -> None:
    assert [column_name(c) for c in (0, 25, 26, 27, 701, 702, 18277)] == [
        "A",
        "Z",
        "AA",
        "AB",
        "ZZ",
        "AAA",
        "ZZZ",
    ]
    with pytest.raises(ValueError):
        column_name(-1)


@pytest.mark.parametrize(
    ("text", "position", "reason"),
    [
        ("", 0, "expected a square"),
        ("17", 0, "column letters"),
        ("K", 1, "row number"),
        ("K0", 1, "start at 1"),
        ("K07", 1, "leading zeros"),
        ("K17x", 3, "after the row number"),
        (" K17", 0, "column letters"),
        ("K-1", 1, "row number"),
        ("Ä1", 0, "column letters"),
        ("K١", 1, "row number"),  # an Arabic-Indic digit is not a row number
    ],
)
def test_square_parse_errors(text: str, position: int, reason: str) -> None:
    with pytest.raises(InvalidNotationError) as info:
        Square.parse(text)
    assert info.value.position == position
    assert reason in info.value.reason
    assert isinstance(info.value, RulesError)


def test_square_without_name() -> None:
    with pytest.raises(ValueError):
        _ = Square(-1, 0).name
    assert str(Square(-1, 0)) == "Square(row=-1, col=0)"


def test_distances() -> None:
    assert king_distance(sq("A1"), sq("D3")) == 3  # SO-L5: king-move distance
    assert manhattan(sq("A1"), sq("D3")) == 5
    assert king_distance(sq("K17"), sq("K17")) == 0


def test_directions_are_clockwise_from_north() -> None:
    assert list(DIRECTIONS) == ["N", "NE", "E", "SE", "S", "SW", "W", "NW"]
    assert DIRECTIONS["NE"] == (-1, 1)


# --------------------------------------------------------------------------- edges


@pytest.mark.parametrize(
    ("square", "side", "edge", "name"),
    [
        ("D7", "n", Edge("h", 6, 3), "D6 s"),
        ("D7", "s", Edge("h", 7, 3), "D7 s"),
        ("D7", "w", Edge("v", 6, 3), "C7 e"),
        ("D7", "e", Edge("v", 6, 4), "D7 e"),
        ("A1", "n", Edge("h", 0, 0), "A1 n"),
        ("A1", "w", Edge("v", 0, 0), "A1 w"),
    ],
)
def test_edges(square: str, side: str, edge: Edge, name: str) -> None:
    assert Edge.of(sq(square), side) == edge
    assert Edge.of(sq(square), side.upper()) == edge
    assert edge.name == name
    assert str(edge) == name
    assert Edge.parse(name) == edge
    assert Edge.parse(f"{square}{side}") == edge
    a, b = edge.squares
    if a.row >= 0 and a.col >= 0:
        assert Edge.between(a, b) == edge
        assert Edge.between(b, a) == edge


def test_edge_errors() -> None:
    with pytest.raises(ValueError):
        Edge.between(sq("A1"), sq("B2"))
    with pytest.raises(ValueError):
        Edge.of(sq("A1"), "x")
    with pytest.raises(InvalidNotationError) as info:
        Edge.parse("D7")
    assert info.value.position == 2
    with pytest.raises(InvalidNotationError):
        Edge.parse("D7 up")
    with pytest.raises(InvalidNotationError):
        Edge.parse("7D e")


# --------------------------------------------------------------------------- golden board


@pytest.fixture(scope="module")
def small() -> Board:
    return load_board(DATA / "small.board")


@pytest.fixture(scope="module")
def demo() -> Board:
    return builtin_board("demo")


def test_small_board_header_and_legend(small: Board) -> None:
    assert small.name == "Small golden"
    assert small.description == "for the tests"
    assert small.file == str(DATA / "small.board")
    assert (small.width, small.height, small.shape) == (6, 5, (5, 6))
    assert list(small.legend) == [".", "c", "B", "t"]
    assert small.legend["c"] == Terrain("c", "crate", False, False, 2)
    assert small.legend["B"] == Terrain("B", "block", False, True, 9)
    assert small.terrain == ("..B...", ".c..t.", "......", "..BB..", "......")
    assert small.terrain_at(sq("E2")).name == "tree"
    assert small.last_square == sq("F5")
    assert "Small golden" in repr(small)


def test_small_board_arrays(small: Board) -> None:
    np.testing.assert_array_equal(
        small.passable,
        [
            [1, 1, 0, 1, 1, 1],
            [1, 0, 1, 1, 1, 1],
            [1, 1, 1, 1, 1, 1],
            [1, 1, 0, 0, 1, 1],
            [1, 1, 1, 1, 1, 1],
        ],
    )
    np.testing.assert_array_equal(small.opaque, np.array(small.cyl) == 9)
    np.testing.assert_array_equal(
        small.cyl,
        [
            [0, 0, 9, 0, 0, 0],
            [0, 2, 0, 0, 5, 0],
            [0, 0, 0, 0, 0, 0],
            [0, 0, 9, 9, 0, 0],
            [0, 0, 0, 0, 0, 0],
        ],
    )
    assert small.cyl.dtype == np.int16
    # walls_h[r, c]: the top edge of (r, c). A1-C1 n lies on the boundary; a3-b3 S is
    # under row 3; the box E4-F5 has its top at row index 3 and bottom at 5.
    np.testing.assert_array_equal(
        small.walls_h,
        [
            [1, 1, 1, 0, 0, 0],
            [0, 0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0, 0],
            [1, 1, 0, 0, 1, 1],
            [0, 0, 0, 0, 0, 0],
            [0, 0, 0, 0, 1, 1],
        ],
    )
    # walls_v[r, c]: the left edge of (r, c). D1 e stays a wall; D2 e is a door now;
    # the box's west wall is a wall on E4 and a door on E5; its east wall is the boundary.
    np.testing.assert_array_equal(
        small.walls_v,
        [
            [0, 0, 0, 0, 1, 0, 0],
            [0, 0, 0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0, 0, 0],
            [0, 0, 0, 0, 1, 0, 1],
            [0, 0, 0, 0, 0, 0, 1],
        ],
    )
    ns, ew, both = ROAD_NS, ROAD_EW, ROAD_NS | ROAD_EW
    np.testing.assert_array_equal(
        small.roads,
        [
            [ns, 0, 0, 0, 0, 0],
            [ns, 0, 0, 0, 0, 0],
            [ns, 0, 0, 0, 0, 0],
            [ns, 0, 0, 0, 0, 0],
            [both, ew, ew, ew, ew, ew],
        ],
    )
    assert small.roads.dtype == np.uint8


def test_small_board_doors_and_markers(small: Board) -> None:
    assert list(small.doors.items()) == [
        (Edge.of(sq("E5"), "w"), False),
        (Edge.of(sq("D2"), "e"), True),
        (Edge.of(sq("F4"), "s"), True),
    ]
    assert list(small.markers) == ["start", "goals"]
    assert names(small.markers["start"]) == ["A1"]
    # Squares in file order, rectangles row by row.
    assert names(small.markers["goals"]) == ["F1", "E5", "B2", "C2", "B3", "C3"]
    assert small.marker("goals", count=6) == small.markers["goals"]


def test_board_is_immutable(small: Board) -> None:
    for array in (small.passable, small.opaque, small.cyl, small.walls_h, small.walls_v):
        with pytest.raises(ValueError):
            array[0, 0] = 1
    with pytest.raises(ValueError):
        small.roads[0, 0] = 0
    with pytest.raises(AttributeError):
        small.name = "other"
    with pytest.raises(TypeError):
        small.doors[Edge("h", 1, 1)] = True  # type: ignore[index]
    with pytest.raises(TypeError):
        small.markers["x"] = ()  # type: ignore[index]


def test_board_pickles(small: Board) -> None:
    reachable(small, sq("A1"), 3)  # fill the search cache, which is not pickled
    small.memo("answers")["kept"] = 1  # nor are the memos a game keeps with the board
    for clone in (pickle.loads(pickle.dumps(small)), copy.deepcopy(small)):
        assert clone is not small
        assert clone.memo("answers") == {}
        assert small.memo("answers") == {"kept": 1}
        assert (clone.name, clone.shape, clone.terrain) == (small.name, small.shape, small.terrain)
        assert dict(clone.doors) == dict(small.doors)
        assert dict(clone.markers) == dict(small.markers)
        assert dict(clone.legend) == dict(small.legend)
        np.testing.assert_array_equal(clone.walls_v, small.walls_v)
        with pytest.raises(ValueError):
            clone.walls_v[0, 0] = True
        with pytest.raises(AttributeError):
            clone.name = "x"
        assert reachable(clone, sq("A1"), 3) == reachable(small, sq("A1"), 3)
        with pytest.raises(BadDataError) as info:
            clone.marker("start", count=3)
        assert info.value.line == 35


def test_walls_with_doors(small: Board) -> None:
    e4w, d2e, f4s = Edge.of(sq("E5"), "w"), Edge.of(sq("D2"), "e"), Edge.of(sq("F4"), "s")
    wh, wv = small.walls()  # initial state: only E5 w is closed
    assert wv[4, 4] and not wv[1, 4] and not wh[4, 5]
    assert not wh.flags.writeable
    wh, wv = small.walls(open_doors=[e4w])
    assert not wv[4, 4] and wv[1, 4] and wh[4, 5]
    wh, wv = small.walls(open_doors=())
    assert wv[4, 4] and wv[1, 4] and wh[4, 5]
    # The permanent walls never include doors.
    assert not small.walls_v[4, 4] and not small.walls_v[1, 4]
    assert small.blocks(e4w) and not small.blocks(d2e) and not small.blocks(f4s)
    assert not small.blocks(e4w, open_doors={e4w})
    assert small.blocks(Edge("h", 0, 4))  # the boundary
    assert small.blocks(Edge.of(sq("D1"), "e"))
    assert not small.blocks(Edge.of(sq("C3"), "e"))
    with pytest.raises(ValueError, match="not doors"):
        small.walls(open_doors=[Edge("h", 2, 2)])


def test_board_square_and_markers(small: Board) -> None:
    assert small.square("f5") == Square(4, 5)
    assert small.in_bounds(Square(4, 5)) and not small.in_bounds(Square(5, 0))
    assert not small.in_bounds((0, -1))
    with pytest.raises(InvalidNotationError, match="off the board"):
        small.square("G1")
    with pytest.raises(InvalidNotationError):
        small.square("1G")
    with pytest.raises(BadDataError, match="a marker 'exit'"):
        small.marker("exit")
    with pytest.raises(BadDataError) as info:
        small.marker("start", count=2)
    assert info.value.line == 35
    assert info.value.found == "1 square"
    assert info.value.file == small.file
    assert len(list(small.squares())) == 30


def test_demo_board_uses_every_feature(demo: Board) -> None:
    assert (demo.width, demo.height) == (16, 12)
    assert "demo" in builtin_boards()
    assert len(set(demo.cyl.ravel().tolist())) >= 4  # terrain of several Cyl heights
    assert (demo.opaque & ~demo.passable).any()  # an opaque building
    assert (~demo.passable & ~demo.opaque & (np.array(demo.cyl) > 0)).any()  # crates
    assert set(demo.doors.values()) == {True, False}
    assert (demo.roads == ROAD_NS | ROAD_EW).sum() == 4  # the 2-wide crossing
    assert (demo.roads == ROAD_NS).any() and (demo.roads == ROAD_EW).any()
    assert {"start", "escape", "sector.1", "ping"} <= set(demo.markers)
    # Walls with a corner and a joint, away from the boundary: count each interior
    # corner point's arms (a T joint has 3, a corner 2 at right angles).
    wh, wv = demo.walls_h, demo.walls_v
    shapes = set()
    for r in range(1, demo.height):
        for c in range(1, demo.width):
            up, down = bool(wv[r - 1, c]), bool(wv[r, c])
            left, right = bool(wh[r, c - 1]), bool(wh[r, c])
            if up + down + left + right == 3:
                shapes.add("joint")
            if up + down + left + right == 2 and (up or down) and (left or right):
                shapes.add("corner")
    assert shapes == {"joint", "corner"}


def test_builtin_board_errors() -> None:
    with pytest.raises(LookupError, match=r"available: .*demo"):
        builtin_board("no-such-board")
    with pytest.raises(LookupError):
        builtin_board("../boards/demo")


def test_parse_board_variants() -> None:
    text = (DATA / "small.board").read_text(encoding="utf-8")
    crlf = parse_board(text.replace("\n", "\r\n"), file="crlf")
    bom = parse_board("\ufeff" + text)
    for other in (crlf, bom):
        np.testing.assert_array_equal(other.walls_v, load_board(DATA / "small.board").walls_v)
    assert crlf.file == "crlf"
    assert bom.file == "<string>"
    # Indented rows, a header with format 1, no optional sections.
    minimal = parse_board(
        "name: m\nformat: 1\n[terrain]\n  ..\n  ..\n[legend]\n. f passable opaque"
    )
    assert minimal.shape == (2, 2) and minimal.opaque.all() and not minimal.doors


def test_errors_name_file_line_and_column(tmp_path: Path) -> None:
    path = tmp_path / "x.board"
    path.write_text("name: x\n[legend]\n. floor passable transparent\n[terrain]\n..\n.?\n")
    with pytest.raises(BadDataError) as info:
        load_board(path)
    assert str(info.value) == (
        f"{path}:6:2: expected a terrain character defined in [legend], found '?'"
    )


def _bad_files() -> list[Path]:
    return sorted((DATA / "bad").glob("*.board"))


@pytest.mark.parametrize("path", _bad_files(), ids=lambda p: p.stem)
def test_bad_board_files(path: Path) -> None:
    first = path.read_text(encoding="utf-8").splitlines()[0]
    m = re.fullmatch(r"# expect: (\d+):(\d+) (.+)", first)
    assert m is not None, f"{path.name} lacks its '# expect: LINE:COL text' line"
    with pytest.raises(BadDataError) as info:
        load_board(path)
    error = info.value
    assert (error.file, error.line, error.column) == (str(path), int(m[1]), int(m[2]))
    assert m[3] in error.expected


def test_there_are_bad_files_for_every_section() -> None:
    stems = {p.stem.split("_")[0] for p in _bad_files()}
    assert {"legend", "wall", "door", "road", "marker", "header", "unknown"} <= stems
    assert len(_bad_files()) >= 40


def test_board_constructor_checks() -> None:
    with pytest.raises(ValueError, match="differ in length"):
        Board(["..", "."], LEGEND)
    with pytest.raises(ValueError, match="not in legend"):
        Board([".?"], LEGEND)
    with pytest.raises(ValueError, match="at least one row"):
        Board([], LEGEND)
    with pytest.raises(ValueError, match="shape"):
        Board([".."], LEGEND, walls_h=np.zeros((1, 2), bool))
    with pytest.raises(ValueError, match="not between two squares"):
        Board(["..", ".."], LEGEND, doors={Edge("h", 0, 0): True})
    with pytest.raises(ValueError, match="off the board"):
        Board([".."], LEGEND, markers={"m": [Square(3, 3)]})
    with pytest.raises(ValueError, match="bitmask"):
        Board([".."], LEGEND, roads=[[4, 0]])
    # A door replaces a wall on its edge, as in files.
    walls_v = np.zeros((1, 3), bool)
    walls_v[0, 1] = True
    board = Board([".."], LEGEND, walls_v=walls_v, doors={Edge("v", 0, 1): False})
    assert not board.walls_v[0, 1] and board.walls()[1][0, 1]
    assert walls_v[0, 1]  # the caller's array is copied, not changed


# --------------------------------------------------------------------------- rendering


def _golden(name: str, text: str) -> None:
    path = DATA / name
    if REGEN or not path.exists():
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8"), (
        f"{name} differs; rerun with FOGOFWAR_REGEN=1 if the change is intended"
    )


def test_render_small_golden(small: Board) -> None:
    text = render_text(small, marks={sq("A1"): "@", sq("F1"): "h1"}, legend=True)
    _golden("small.txt", text)


def test_render_demo_golden(demo: Board) -> None:
    _golden("demo.txt", render_text(demo, legend=True))


def test_render_details(small: Board) -> None:
    lines = render_text(small).splitlines()
    assert lines[0].split() == ["A", "B", "C", "D", "E", "F"]
    assert lines[1].startswith("  ┌") and lines[-1].startswith("  └")
    assert "║" in lines[10]  # E5 w closed
    assert "┆" in lines[4]  # D2 e open
    assert "║" not in render_text(small, open_doors=list(small.doors))
    with pytest.raises(ValueError, match="3 characters"):
        render_text(small, marks={sq("A1"): "long"})
    with pytest.raises(ValueError, match="off the board"):
        render_text(small, marks={Square(9, 9): "x"})


def test_render_rich_matches_text(small: Board, demo: Board) -> None:
    for board in (small, demo):
        rich_text = render_rich(board, marks={sq("B2"): "@"}, legend=True)
        assert rich_text.plain == render_text(board, marks={sq("B2"): "@"}, legend=True)[:-1]
    lit = render_rich(small, highlight=[sq("A3")], highlight_style="on red")
    assert any("on red" in str(span.style) for span in lit.spans)


# --------------------------------------------------------------------------- steps


def test_neighbours_on_open_ground() -> None:
    board = board_of("...", "...", "...")
    for rule in ("free", "both", "either"):
        assert names(neighbours(board, sq("B2"), diagonal=rule)) == [
            "B1",
            "C1",
            "C2",
            "C3",
            "B3",
            "A3",
            "A2",
            "A1",
        ]
        assert names(neighbours(board, sq("A1"), diagonal=rule)) == ["B1", "B2", "A2"]
    assert names(neighbours(board, sq("B2"), diagonal="none")) == ["B1", "C2", "B3", "A2"]


def test_impassable_terrain_and_blocked_squares() -> None:
    board = board_of("X..", "...", "...")
    assert names(neighbours(board, sq("B2"), diagonal="free")) == [
        "B1",
        "C1",
        "C2",
        "C3",
        "B3",
        "A3",
        "A2",
    ]
    got = neighbours(board, sq("B2"), diagonal="free", blocked={sq("C2"), sq("B2")})
    assert "C2" not in names(got)  # type: ignore[operator]
    assert len(got) == 6  # the mover's own square never blocks it
    arr = np.zeros((3, 3), bool)
    arr[1, 2] = True
    assert neighbours(board, sq("B2"), diagonal="free", blocked=arr) == got


# The four squares round the corner between A1, B1, A2 and B2; the step is A1 -> B2.
CORNER_CASES = [
    # (rows, walls, blocked, {rule: allowed})
    ("touching blocks", (".X", "X."), "", (), {"free": 1, "both": 0, "either": 0, "none": 0}),
    ("one block", (".X", ".."), "", (), {"free": 1, "both": 1, "either": 0, "none": 0}),
    ("open", ("..", ".."), "", (), {"free": 1, "both": 1, "either": 1, "none": 0}),
    ("wall touches", ("..", ".."), "A1 e", (), {"free": 1, "both": 1, "either": 0}),
    ("wall end below", ("..", ".."), "A2 e", (), {"free": 1, "both": 1, "either": 0}),
    ("straight wall", ("..", ".."), "A1-B1 s", (), {"free": 0, "both": 0, "either": 0}),
    ("straight wall v", ("..", ".."), "A1-A2 e", (), {"free": 0, "both": 0, "either": 0}),
    ("corner round A1", ("..", ".."), "A1 e\nA1 s", (), {"free": 0, "both": 0, "either": 0}),
    ("corner round B1", ("..", ".."), "B1 w\nB1 s", (), {"free": 1, "both": 1, "either": 0}),
    ("wall and block", (".X", ".."), "B2 n", (), {"free": 1, "both": 1, "either": 0}),
    ("wall + block shut", (".X", ".."), "A2 e", (), {"free": 1, "both": 0, "either": 0}),
    ("model + block", (".X", ".."), "", ("A2",), {"free": 1, "both": 0, "either": 0}),
    ("one model", ("..", ".."), "", ("B1",), {"free": 1, "both": 1, "either": 0}),
    ("two models", ("..", ".."), "", ("B1", "A2"), {"free": 1, "both": 0, "either": 0}),
    ("target blocked", ("..", ".X"), "", (), {"free": 0, "both": 0, "either": 0}),
    ("target model", ("..", ".."), "", ("B2",), {"free": 0, "both": 0, "either": 0}),
]


@pytest.mark.parametrize(
    ("rows", "walls", "blocked", "allowed"),
    [case[1:] for case in CORNER_CASES],
    ids=[case[0] for case in CORNER_CASES],
)
def test_diagonal_rules(
    rows: tuple[str, ...], walls: str, blocked: tuple[str, ...], allowed: dict[str, int]
) -> None:
    board = board_of(*rows, walls=walls)
    models = {sq(b) for b in blocked}
    for rule, expected in allowed.items():
        forward = can_step(board, sq("A1"), sq("B2"), diagonal=rule, blocked=models)
        back = can_step(board, sq("B2"), sq("A1"), diagonal=rule, blocked=models)
        assert forward == bool(expected), rule
        if "B2" not in blocked and rows[1][1] == ".":
            assert back == bool(expected), rule  # the named rules are symmetric


def test_so_a2_no_squeezing_through_touching_corners() -> None:
    # SO-A2: a diagonal step between two blocking squares touching corner to corner is
    # illegal under "both"; with only one of them it is legal.
    pinch = board_of(".X", "X.")
    assert not can_step(pinch, sq("A1"), sq("B2"), diagonal="both")
    assert reachable(pinch, sq("A1"), 4, diagonal="both") == {sq("A1"): 0}
    one = board_of(".X", "..")
    assert can_step(one, sq("A1"), sq("B2"), diagonal="both")
    assert reachable(one, sq("A1"), 1, diagonal="both") == {sq("A1"): 0, sq("A2"): 1, sq("B2"): 1}


def test_fr_m4_no_diagonal_past_anything_impassable() -> None:
    # FR-M4: "either" forbids a diagonal step beside one impassable square, beside an
    # enemy model, or across a corner that a wall touches; without them it is allowed.
    one = board_of(".X", "..")
    assert not can_step(one, sq("A1"), sq("B2"), diagonal="either")
    open_ = board_of("..", "..")
    assert can_step(open_, sq("A1"), sq("B2"), diagonal="either")
    assert not can_step(open_, sq("A1"), sq("B2"), diagonal="either", blocked=[sq("B1")])
    walled = board_of("..", "..", walls="B1 s")
    assert not can_step(walled, sq("A1"), sq("B2"), diagonal="either")
    assert can_step(walled, sq("A1"), sq("B2"), diagonal="both")


def test_fr_m1_walls_and_doors_block_orthogonal_steps() -> None:
    # FR-M1: never through a wall; a closed door is a wall until it is opened.
    board = board_of("...", "...", "...", walls="A1 e", doors="B2 e closed\nB2 s open")
    assert not can_step(board, sq("A1"), sq("B1"))
    assert not can_step(board, sq("B2"), sq("C2"))
    assert can_step(board, sq("B2"), sq("B3"))
    door = Edge.of(sq("B2"), "e")
    assert can_step(board, sq("B2"), sq("C2"), open_doors={door})
    assert not can_step(board, sq("B2"), sq("B3"), open_doors={door})
    assert can_step(board, sq("A2"), sq("B2"))
    assert not can_step(board, sq("A1"), sq("C1"))  # not adjacent
    assert not can_step(board, sq("A1"), sq("A1"))
    assert not can_step(board, sq("A1"), Square(-1, 0))


def test_custom_diagonal_rule() -> None:
    calls: list[DiagonalStep] = []

    def only_beside_blocks(step: DiagonalStep) -> bool:
        calls.append(step)
        return step.a_blocked or step.b_blocked  # not monotone: blocking *allows* steps

    board = board_of("...", ".X.", "...")
    assert not can_step(board, sq("A1"), sq("B2"), diagonal=only_beside_blocks)  # target
    assert can_step(board, sq("A2"), sq("B3"), diagonal=only_beside_blocks)  # beside B2
    assert can_step(board, sq("A2"), sq("B1"), diagonal=only_beside_blocks)
    open_ = board_of("...", "...", "...")
    assert not can_step(open_, sq("A1"), sq("B2"), diagonal=only_beside_blocks)
    assert can_step(open_, sq("A1"), sq("B2"), diagonal=only_beside_blocks, blocked=[sq("B1")])
    got = reachable(open_, sq("A1"), 1, diagonal=only_beside_blocks, blocked=[sq("B1")])
    assert got == {sq("A1"): 0, sq("A2"): 1, sq("B2"): 1}
    step = next(s for s in calls if s.frm == sq("A2") and s.to == sq("B3"))
    assert (step.side_a, step.side_b) == (sq("B2"), sq("A3"))


def test_unknown_diagonal_rule() -> None:
    with pytest.raises(ValueError, match="unknown diagonal rule"):
        neighbours(board_of(".."), sq("A1"), diagonal="sometimes")
    assert set(DIAGONAL_RULES) == {"free", "both", "either", "none"}


# --------------------------------------------------------------------------- paths


def test_shortest_path_tie_break() -> None:
    board = board_of("...", "...", "...")
    # Two shortest paths A1 -> C2: via B1 (E then SE) and via B2 (SE then E). The path
    # takes the first direction in N, NE, E, SE, ... order that stays shortest: E.
    assert names(shortest_path(board, sq("A1"), sq("C2"))) == ["A1", "B1", "C2"]
    assert names(shortest_path(board, sq("C2"), sq("A1"))) == ["C2", "B2", "A1"]  # W < NW
    assert names(shortest_path(board, sq("A1"), sq("A1"))) == ["A1"]
    assert names(shortest_path(board, sq("A3"), sq("C3"), diagonal="none")) == ["A3", "B3", "C3"]


def test_paths_around_walls_and_doors(small: Board) -> None:
    d1, e1 = sq("D1"), sq("E1")
    # D1|E1 is a wall. "both": round the corner via the open door D2 e in 2 steps.
    assert names(shortest_path(small, d1, e1, diagonal="both")) == ["D1", "E2", "E1"]
    # "either": the wall touches the corner, so D1 -> D2 -> E2 (door) -> E1.
    assert names(shortest_path(small, d1, e1, diagonal="either")) == ["D1", "D2", "E2", "E1"]
    # Door closed: round the end of the wall, through row 3.
    closed = shortest_path(small, d1, e1, diagonal="either", open_doors=())
    assert names(closed) == ["D1", "D2", "D3", "E3", "E2", "E1"]
    assert distance(small, d1, e1, diagonal="either", open_doors=()) == 5
    # The walled room E4-F5 is shut while its door E5 w is closed.
    assert distance(small, sq("D5"), sq("E5"), diagonal="free") is None
    assert shortest_path(small, sq("D5"), sq("F4"), diagonal="free") is None
    opened = {Edge.of(sq("E5"), "w")}
    assert distance(small, sq("D5"), sq("E5"), diagonal="either", open_doors=opened) == 1
    # F4 s is an open door inside the room; "either" may not cut the corner it touches.
    assert distance(small, sq("D5"), sq("F4"), diagonal="either", open_doors=opened) == 3
    assert distance(small, sq("D5"), sq("F4"), diagonal="both", open_doors=opened) == 2


def test_shortest_path_unreachable_and_blocked() -> None:
    board = board_of("..X..", "..X..", "..X..")
    assert shortest_path(board, sq("A1"), sq("E1")) is None
    assert distance(board, sq("A1"), sq("E1")) is None
    assert shortest_path(board, sq("A1"), sq("C1")) is None  # impassable goal
    open_ = board_of("...", "...")
    assert shortest_path(open_, sq("A1"), sq("C1"), blocked=[sq("C1")]) is None
    # The start may be listed among the blocked squares (all models' squares).
    assert names(shortest_path(open_, sq("A1"), sq("C1"), blocked=[sq("A1")])) == [
        "A1",
        "B1",
        "C1",
    ]
    detour = shortest_path(open_, sq("A1"), sq("C1"), blocked=[sq("B1")], diagonal="free")
    assert names(detour) == ["A1", "B2", "C1"]
    assert shortest_path(open_, sq("A1"), sq("C1"), blocked=[sq("B1")], diagonal="either")
    assert distance(open_, sq("A1"), sq("C1"), blocked=[sq("B1")], diagonal="either") == 4


def test_fr_r1_range_counts_the_target_square(demo: Board) -> None:
    # FR-R1: range = fewest squares moved through to reach the target, counting it;
    # adjacent = 1, by the movement rules (FR-M1, FR-M4), ignoring models.
    assert distance(demo, sq("A4"), sq("B4"), diagonal="either") == 1
    assert distance(demo, sq("A4"), sq("A4"), diagonal="either") == 0
    # Round the flats (A1-C3): D2 to A4 is 3 king moves but 5 steps, as "either" may
    # not cut the corner of C3 (D3 -> C4).
    assert king_distance(sq("D2"), sq("A4")) == 3
    assert distance(demo, sq("D2"), sq("A4"), diagonal="either") == 5
    assert distance(demo, sq("D2"), sq("A4"), diagonal="both") == 4
    # J3 to L3: the office's front door K3 w is closed, so the way in is the back door.
    # Down column J, along row 6 and in by the open back door N5 s, then N5-M4-L3.
    assert distance(demo, sq("J3"), sq("L3"), diagonal="either") == 10
    opened = set(demo.doors) | {Edge.of(sq("K3"), "w")}
    assert distance(demo, sq("J3"), sq("L3"), diagonal="either", open_doors=opened) == 2


# --------------------------------------------------------------------------- reachable


def test_so_a1_legal_move_counts_on_the_demo_board(demo: Board) -> None:
    # SO-A1 / SO-H1: 0-4 steps, 8 directions, not through blocking terrain. Counts
    # from fixed squares (golden: they change only if the demo board changes).
    counts = {
        (start, rule): len(reachable(demo, sq(start), 4, diagonal=rule))
        for start in ("H12", "A4", "D10", "L4")
        for rule in ("both", "either")
    }
    assert counts == {
        ("H12", "both"): 42,
        ("H12", "either"): 40,
        ("A4", "both"): 28,
        ("A4", "either"): 26,
        ("D10", "both"): 47,  # D10 sits between the crates D9 and E10...
        ("D10", "either"): 25,  # ...which "either" may not pass diagonally
        ("L4", "both"): 35,  # inside the office
        ("L4", "either"): 25,
    }
    for (start, rule), count in counts.items():
        ref = reference_distances(demo, sq(start), rule, set(), None)
        assert count == sum(1 for d in ref.values() if d <= 4)


def test_reachable_steps_and_order() -> None:
    board = board_of(".....", ".....")
    got = reachable(board, sq("A1"), 2, diagonal="both")
    assert got == {
        sq("A1"): 0,
        sq("B1"): 1,
        sq("A2"): 1,
        sq("B2"): 1,
        sq("C1"): 2,
        sq("C2"): 2,
    }
    assert list(got.values()) == sorted(got.values())
    assert reachable(board, sq("A1"), 0) == {sq("A1"): 0}
    assert len(reachable(board, sq("A1"), None)) == 10
    with pytest.raises(ValueError):
        reachable(board, sq("A1"), -1)
    with pytest.raises(ValueError, match="off the board"):
        reachable(board, Square(5, 5), 2)


def test_pass_through_squares() -> None:
    # FR-M2 / SO-A3: friends (or the vehicle) may be crossed but not ended on.
    corridor = board_of(".....")
    friend = {sq("C1")}
    got = reachable(corridor, sq("A1"), 4, pass_through=friend)
    assert names(got) == ["A1", "B1", "D1", "E1"]
    assert got[sq("E1")] == 4
    enemy = reachable(corridor, sq("A1"), 4, blocked=friend)
    assert names(enemy) == ["A1", "B1"]
    both = reachable(corridor, sq("A1"), 4, blocked=friend, pass_through=friend)
    assert names(both) == ["A1", "B1"]  # blocked wins
    # A pass-through square is not blocked for the diagonal rule...
    pinch = board_of(".X", "..")
    assert sq("B2") in reachable(pinch, sq("A1"), 1, diagonal="both", pass_through=[sq("A2")])
    # ...but a blocked one is.
    assert sq("B2") not in reachable(pinch, sq("A1"), 1, diagonal="both", blocked=[sq("A2")])
    # The start itself is left out if it is a pass-through square.
    assert sq("A1") not in reachable(corridor, sq("A1"), 2, pass_through=[sq("A1")])
    dmap = distance_map(corridor, sq("A1"), 4, pass_through=friend)
    assert dmap.tolist() == [[0, 1, -1, 3, 4]]
    # can_end restricts the end squares only; the way there may cross other squares.
    ends = reachable(corridor, sq("A1"), 4, pass_through=friend, can_end=[sq("C1"), sq("E1")])
    assert ends == {sq("E1"): 4}


def test_reachable_from_several_starts_and_long_moves(demo: Board) -> None:
    starts = [sq("A4"), sq("P4")]
    got = reachable(demo, starts, 3)
    for square, steps in got.items():
        dists = [distance(demo, s, square) for s in starts]
        assert steps == min(d for d in dists if d is not None)
    # Long moves (the vehicle's 10 steps) use the bitboard search: same answers.
    far = reachable(demo, sq("H12"), 10, blocked=[sq("H11")])
    dmap = distance_map(demo, sq("H12"), 10, blocked=[sq("H11")])
    assert far == {Square(int(r), int(c)): int(dmap[r, c]) for r, c in np.argwhere(dmap >= 0)}
    short = reachable(demo, sq("H12"), 6, blocked=[sq("H11")])
    assert short == {k: v for k, v in far.items() if v <= 6}


def test_blockers_far_away_do_not_change_the_answer(demo: Board) -> None:
    plain = reachable(demo, sq("D10"), 4, diagonal="either")
    assert reachable(demo, sq("D10"), 4, diagonal="either", blocked=[sq("P1")]) == plain
    near = reachable(demo, sq("D10"), 4, diagonal="either", blocked=[sq("D11")])
    assert sq("D11") not in near and near != plain


def test_move_graph_bitboards(demo: Board) -> None:
    graph = move_graph(demo, diagonal="both")
    assert move_graph(demo, diagonal="both") is graph  # cached on the board
    start = graph.bits(sq("H12"))
    ends = graph.reach_bits(start, 4, blocked=graph.bits([sq("H11")]))
    assert set(graph.squares(ends)) == set(reachable(demo, sq("H12"), 4, blocked=[sq("H11")]))
    assert graph.squares(0) == []
    mask = np.zeros(demo.shape, bool)
    mask[11, 7] = True
    assert graph.bits(mask) == start == graph.bits([sq("H12")])
    with pytest.raises(ValueError, match="shape"):
        graph.bits(np.zeros((2, 2), bool))


# --------------------------------------------------------------------------- properties


def reference_distances(
    board: Board,
    start: Square,
    rule: str | DiagonalRule,
    blocked: set[Square],
    open_doors: Collection[Edge] | None,
) -> dict[Square, int]:
    """A plain breadth-first search written from the rules' definitions."""
    dist = {start: 0}
    queue = deque([start])
    while queue:
        cur = queue.popleft()
        for nxt in reference_steps(board, cur, rule, blocked, open_doors):
            if nxt not in dist:
                dist[nxt] = dist[cur] + 1
                queue.append(nxt)
    return dist


def reference_steps(
    board: Board,
    cur: Square,
    rule: str | DiagonalRule,
    blocked: set[Square],
    open_doors: Collection[Edge] | None,
) -> list[Square]:
    wh, wv = board.walls(open_doors)

    def wall(a: Square, b: Square) -> bool:
        kind, r, c = Edge.between(a, b)
        return bool(wh[r, c] if kind == "h" else wv[r, c])

    def stopped(s: Square) -> bool:
        return not board.passable[s] or s in blocked

    out = []
    for dr, dc in DIRECTIONS.values():
        to = Square(cur.row + dr, cur.col + dc)
        if not board.in_bounds(to) or stopped(to):
            continue
        if dr and dc:
            side_a, side_b = Square(cur.row, to.col), Square(to.row, cur.col)
            step = DiagonalStep(
                cur,
                to,
                side_a,
                side_b,
                stopped(side_a),
                stopped(side_b),
                wall(cur, side_a) or wall(side_a, to),
                wall(cur, side_b) or wall(side_b, to),
            )
            check = DIAGONAL_RULES[rule] if isinstance(rule, str) else rule
            if not check(step):
                continue
        elif wall(cur, to):
            continue
        out.append(to)
    return out


@st.composite
def random_boards(draw: st.DrawFn) -> Board:
    h = draw(st.integers(1, 6))
    w = draw(st.integers(1, 6))
    cells = draw(st.lists(st.sampled_from("...X"), min_size=h * w, max_size=h * w))
    rows = ["".join(cells[r * w : (r + 1) * w]) for r in range(h)]
    wall_bits = st.lists(st.booleans(), min_size=(h + 1) * w, max_size=(h + 1) * w)
    walls_h = np.array(draw(wall_bits), bool).reshape(h + 1, w)
    walls_v = np.array(
        draw(st.lists(st.booleans(), min_size=h * (w + 1), max_size=h * (w + 1))), bool
    ).reshape(h, w + 1)
    inner = [Edge("h", r, c) for r in range(1, h) for c in range(w)]
    inner += [Edge("v", r, c) for r in range(h) for c in range(1, w)]
    doors = draw(st.dictionaries(st.sampled_from(inner), st.booleans())) if inner else {}
    return Board(rows, LEGEND, walls_h=walls_h, walls_v=walls_v, doors=doors)


@st.composite
def scenarios(draw: st.DrawFn) -> tuple[Board, str, Square, Square, set[Square], set[Square]]:
    board = draw(random_boards())
    every = list(board.squares())
    squares = st.sampled_from(every)
    rule = draw(st.sampled_from(["free", "both", "either", "none"]))
    blocked = draw(st.sets(squares, max_size=4))
    passing = draw(st.sets(squares, max_size=3))
    return board, rule, draw(squares), draw(squares), blocked, passing


@given(scenarios(), st.integers(0, 8), st.booleans())
def test_search_matches_reference_bfs(
    scenario: tuple[Board, str, Square, Square, set[Square], set[Square]],
    max_steps: int,
    doors_flipped: bool,
) -> None:
    board, rule, start, goal, blocked, passing = scenario
    open_doors = [e for e, o in board.doors.items() if o != doors_flipped]
    # The mover never blocks itself: the start is exempt from ``blocked``.
    ref = reference_distances(board, start, rule, blocked - {start}, open_doors)
    kw = {"diagonal": rule, "blocked": blocked, "open_doors": open_doors}
    # reachable: the reference within max_steps, less the pass-through squares.
    want = {s: d for s, d in ref.items() if d <= max_steps and s not in passing}
    got = reachable(board, start, max_steps, pass_through=passing, **kw)  # type: ignore[arg-type]
    assert got == want
    assert list(got.values()) == sorted(got.values())
    # The same again without blockers exercises the cached unobstructed answer.
    free = reachable(board, start, max_steps, diagonal=rule, open_doors=open_doors)
    ref_free = reference_distances(board, start, rule, set(), open_doors)
    assert free == {s: d for s, d in ref_free.items() if d <= max_steps}
    # The same distances as a plain list over the bitboards (the bots' form).
    graph = move_graph(board, diagonal=rule, open_doors=open_doors)
    plain = graph.distance_list(graph.bits(start), unreachable=-1)
    width = board.width
    assert {Square(*divmod(i, width)): d for i, d in enumerate(plain) if d >= 0} == ref_free
    # The layers stopped at the goal (a route's question): they end with the goal's
    # layer, its index the distance; every layer is the reference's squares at it.
    layers = graph.layers_bits(
        graph.bits(start), blocked=graph.bits(blocked), stop=graph.bits(goal)
    )
    for k, layer in enumerate(layers):
        assert layer == graph.bits([s for s, d in ref.items() if d == k])
    if goal in ref:
        assert len(layers) - 1 == ref[goal]
    # distance_map without a limit.
    dmap = distance_map(board, start, **kw)  # type: ignore[arg-type]
    assert {Square(int(r), int(c)): int(dmap[r, c]) for r, c in np.argwhere(dmap >= 0)} == ref
    # neighbours, in direction order.
    steps = reference_steps(board, start, rule, blocked - {start}, open_doors)
    assert neighbours(board, start, **kw) == steps  # type: ignore[arg-type]
    # shortest_path: length = BFS distance; every step legal; no blocked square entered.
    path = shortest_path(board, start, goal, **kw)  # type: ignore[arg-type]
    dist = distance(board, start, goal, **kw)  # type: ignore[arg-type]
    if goal not in ref:
        assert path is None and dist is None
    else:
        assert path is not None
        assert len(path) - 1 == ref[goal] == dist
        assert path[0] == start and path[-1] == goal
        for a, b in itertools.pairwise(path):
            assert b in reference_steps(board, a, rule, blocked - {start}, open_doors)


@given(random_boards(), st.sampled_from(["free", "both", "either"]))
def test_named_rules_are_symmetric_and_nested(board: Board, rule: str) -> None:
    # Every step legal under "either" is legal under "both", and "both" under "free".
    order = ["either", "both", "free"]
    for square in board.squares():
        if not board.passable[square]:
            continue
        here = set(neighbours(board, square, diagonal=rule))
        for other in here:
            assert square in neighbours(board, other, diagonal=rule)
        looser = order[min(order.index(rule) + 1, 2)]
        assert here <= set(neighbours(board, square, diagonal=looser))


# --------------------------------------------------------------------------- docs


def _doc_block(after: str) -> str:
    """The first fenced block after the line ``after`` in docs/boards.md."""
    doc = (Path(__file__).parents[2] / "docs" / "boards.md").read_text(encoding="utf-8")
    rest = doc[doc.index(after) :]
    start = rest.index("```\n") + 4
    return rest[start : rest.index("```", start)]


def test_docs_example_is_the_demo_board(demo: Board) -> None:
    example = parse_board(_doc_block("## A complete example"), file="docs")
    assert example.terrain == demo.terrain
    assert dict(example.legend) == dict(demo.legend)
    assert dict(example.doors) == dict(demo.doors)
    assert dict(example.markers) == dict(demo.markers)
    for name in ("walls_h", "walls_v", "roads"):
        np.testing.assert_array_equal(getattr(example, name), getattr(demo, name))


def test_docs_picture_is_the_demo_render(demo: Board) -> None:
    assert _doc_block("The demo board:") == render_text(demo)


def truth_table_rule(table: int) -> DiagonalRule:
    """Any of the 65536 rules that look only at the four booleans of a DiagonalStep."""

    def rule(step: DiagonalStep) -> bool:
        bit = step.a_blocked + 2 * step.b_blocked + 4 * step.a_walled + 8 * step.b_walled
        return bool(table >> bit & 1)

    return rule


@given(scenarios(), st.integers(0, 0xFFFF), st.integers(0, 7))
def test_any_custom_rule_is_honoured(
    scenario: tuple[Board, str, Square, Square, set[Square], set[Square]],
    table: int,
    max_steps: int,
) -> None:
    board, _, start, goal, blocked, _ = scenario
    rule = truth_table_rule(table)  # often not monotone: then no cached shortcut
    ref = reference_distances(board, start, rule, blocked - {start}, None)
    got = reachable(board, start, max_steps, diagonal=rule, blocked=blocked)
    assert got == {s: d for s, d in ref.items() if d <= max_steps}
    assert distance(board, start, goal, diagonal=rule, blocked=blocked) == ref.get(goal)
    steps = reference_steps(board, start, rule, blocked - {start}, None)
    assert neighbours(board, start, diagonal=rule, blocked=blocked) == steps


# --------------------------------------------------------------------------- export


def test_board_json_draws_what_the_file_says() -> None:
    from fogofwar.core.grid import board_json, builtin_board

    board = builtin_board("zd-corridor")
    data = board_json(board)
    assert (data["width"], data["height"]) == (board.width, board.height)
    assert len(data["squares"]) == board.width * board.height
    # x is the column and y the row (the SVG's axes), and the name is the notation.
    b3 = next(s for s in data["squares"] if s["name"] == "B3")
    assert (b3["x"], b3["y"]) == (1, 2)
    assert b3["terrain"] == board.terrain_at(board.square("B3")).name
    walls = int(board.walls_h.sum()) + int(board.walls_v.sum())
    assert len(data["walls"]) == walls and len(data["doors"]) == len(board.doors)
    for x1, y1, x2, y2 in data["walls"]:
        assert abs(x2 - x1) + abs(y2 - y1) == 1  # one square edge each
    assert set(data["markers"]) == set(board.markers)
    import json

    json.dumps(data)  # plain JSON


def test_parsed_names_are_remembered_and_bad_ones_refused_every_time() -> None:
    # Square and edge names are parsed once (views name them as text, bots read them
    # back by the hundred thousand); a refused name is never remembered.
    from fogofwar.core.grid.coords import Edge, InvalidNotationError, Square

    for text in ("K17", "k17", "AA3"):
        assert Square.parse(text) is Square.parse(text)
    assert Square.parse("k17") == Square.parse("K17") == Square(16, 10)
    assert Edge.parse("D7 e") == Edge.parse("d7E") == Edge.of(Square(6, 3), "e")
    for _ in range(2):
        with pytest.raises(InvalidNotationError, match="leading zeros"):
            Square.parse("K017")
        with pytest.raises(InvalidNotationError, match="a side n, e, s or w"):
            Edge.parse("D7")
