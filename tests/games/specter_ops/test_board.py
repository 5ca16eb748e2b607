"""Tests for the default Specter Ops board, ``fogofwar/data/specter-ops/specter-ops.board``.

The board is the project's own design (SO-B2) on the published grid and road pattern
(SO-B1). These tests pin every property the rules and the setup rely on: the size, the
roads, the structures, the sectors and objective sites, and the named squares.
"""

from __future__ import annotations

import itertools
from collections import deque
from collections.abc import Iterable

import numpy as np
import pytest

from fogofwar.core.grid import (
    ROAD_EW,
    ROAD_NS,
    Board,
    Square,
    builtin_board,
    builtin_boards,
    king_distance,
    reachable,
)
from fogofwar.core.sight import board_orthogonal_visible

WIDTH, HEIGHT = 23, 32

# SO-B1: the published road strips, each 2 squares wide.
NS_ROADS = ("N1-O14", "J17-K32")
EW_ROADS = ("A7-O8", "A15-O16", "J21-W22", "A23-K24")
SECTORS = {1: "A1-K16", 2: "L1-W16", 3: "A17-K32", 4: "L17-W32"}


@pytest.fixture(scope="module")
def board() -> Board:
    return builtin_board("specter-ops")


def rect(text: str) -> set[Square]:
    """The squares of a rectangle such as ``A7-O8``."""
    a, b = (Square.parse(t) for t in text.split("-"))
    return {
        Square(r, c)
        for r in range(min(a.row, b.row), max(a.row, b.row) + 1)
        for c in range(min(a.col, b.col), max(a.col, b.col) + 1)
    }


def union(rects: Iterable[str]) -> set[Square]:
    out: set[Square] = set()
    for text in rects:
        out |= rect(text)
    return out


def neighbours(square: Square) -> list[Square]:
    """The (up to 8) squares adjacent to ``square`` on the board."""
    return [
        Square(square.row + dr, square.col + dc)
        for dr, dc in itertools.product((-1, 0, 1), repeat=2)
        if (dr or dc) and 0 <= square.row + dr < HEIGHT and 0 <= square.col + dc < WIDTH
    ]


def road_squares(board: Board) -> set[Square]:
    return {Square(int(r), int(c)) for r, c in zip(*np.nonzero(board.roads), strict=True)}


def structures(board: Board) -> set[Square]:
    return {Square(int(r), int(c)) for r, c in zip(*np.nonzero(~board.passable), strict=True)}


def sites(board: Board, sector: int) -> list[Square]:
    out = []
    for k in range(1, 7):
        (square,) = board.marker(f"objective.{sector}.{k}", count=1)
        out.append(square)
    return out


def all_sites(board: Board) -> list[Square]:
    return [s for j in SECTORS for s in sites(board, j)]


def named(board: Board, *names: str) -> list[Square]:
    return [board.square(n) for n in names]


# --------------------------------------------------------------------------- size


def test_shipped_and_titled(board: Board) -> None:
    # SO-B2: one default board, shipped as data.
    assert "specter-ops" in builtin_boards()
    assert board.name == "Specter Ops compound (fogofwar original)"
    assert board.description


def test_dimensions(board: Board) -> None:
    # SO-B1: 23 columns A-W by 32 rows, A1 at the top left.
    assert (board.width, board.height) == (WIDTH, HEIGHT)
    assert board.shape == (HEIGHT, WIDTH)
    assert board.square("A1") == Square(0, 0)
    assert board.square("W1") == Square(0, WIDTH - 1)
    assert board.square("A32") == Square(HEIGHT - 1, 0)
    assert board.last_square == board.square("W32")
    assert board.square("K17") == Square(16, 10)


# --------------------------------------------------------------------------- roads


def test_road_rectangles_exactly(board: Board) -> None:
    # SO-B1: the road strips exactly as published, with their directions.
    ns, ew = union(NS_ROADS), union(EW_ROADS)
    for square in board.squares():
        bits = int(board.roads[square])
        assert bool(bits & ROAD_NS) == (square in ns), square
        assert bool(bits & ROAD_EW) == (square in ew), square
    assert int(np.count_nonzero(board.roads & ROAD_NS)) == 2 * 14 + 2 * 16
    assert int(np.count_nonzero(board.roads & ROAD_EW)) == 2 * 15 + 2 * 15 + 2 * 14 + 2 * 11
    crossings = {s for s in board.squares() if board.roads[s] == ROAD_NS | ROAD_EW}
    assert crossings == rect("N7-O8") | rect("J21-K22") | rect("J23-K24")
    assert len(road_squares(board)) == 60 + 110 - 12


@pytest.mark.parametrize(
    ("name", "bits"),
    [
        ("N1", ROAD_NS),
        ("O14", ROAD_NS),
        ("N15", ROAD_EW),  # the N-O road ends at row 14; row 15 is the east-west road
        ("A7", ROAD_EW),
        ("O8", ROAD_NS | ROAD_EW),
        ("P7", 0),
        ("A16", ROAD_EW),
        ("O15", ROAD_EW),
        ("P15", 0),
        ("J16", ROAD_EW),  # J-K starts at row 17: no crossing on rows 15-16
        ("J17", ROAD_NS),
        ("K32", ROAD_NS),
        ("K21", ROAD_NS | ROAD_EW),
        ("W22", ROAD_EW),
        ("I21", 0),
        ("A24", ROAD_EW),
        ("K23", ROAD_NS | ROAD_EW),
        ("L23", 0),
        ("L17", 0),
    ],
)
def test_road_samples(board: Board, name: str, bits: int) -> None:
    # SO-B1
    assert int(board.roads[board.square(name)]) == bits


def test_roads_are_clear(board: Board) -> None:
    # SO-B2: road squares are passable, transparent and drawn as `=`; nothing else is.
    for square in board.squares():
        on_road = bool(board.roads[square])
        assert (board.terrain[square.row][square.col] == "=") == on_road, square
        if on_road:
            assert board.passable[square] and not board.opaque[square], square


def road_distances(board: Board, start: Square) -> dict[Square, int]:
    """Steps between road squares (8 neighbours), from ``start``."""
    roads = road_squares(board)
    dist = {start: 0}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        for nxt in neighbours(here):
            if nxt in roads and nxt not in dist:
                dist[nxt] = dist[here] + 1
                queue.append(nxt)
    return dist


def test_road_network_connected(board: Board) -> None:
    # SO-B1, SO-V1: the vehicle can drive from its start to every road square.
    start = board.square("K17")
    dist = road_distances(board, start)
    assert set(dist) == road_squares(board)
    # SO-S2: both vehicle starts lie on one stretch of the J-K road.
    assert dist[board.square("K23")] == 6
    # The strips meet end to end: the N-O road reaches the rows 15-16 road.
    assert road_distances(board, board.square("N1"))[board.square("N15")] == 14


# --------------------------------------------------------------------------- structures


def test_structure_count(board: Board) -> None:
    # SO-B2: a few hundred structure squares.
    assert 200 <= len(structures(board)) <= 320


def test_structures_block_movement_and_sight(board: Board) -> None:
    # SO-B2, SO-B3: buildings and objective sites block movement and sight; nothing
    # else does.
    assert np.array_equal(board.opaque, ~board.passable)
    for square in structures(board):
        assert board.terrain[square.row][square.col] in "XO", square
    assert {t.char for t in board.legend.values() if not t.passable} == {"X", "O"}


def test_every_open_square_reachable_from_n1(board: Board) -> None:
    # SO-B2, SO-A2 (diagonal rule "both"): no pockets; the agent can reach every open
    # square from its start.
    found = reachable(board, board.square("N1"), None)
    passable = {s for s in board.squares() if board.passable[s]}
    assert set(found) == passable


def test_named_squares_free(board: Board) -> None:
    # SO-B2: every named square is passable.
    for name in ("A3", "N1", "W3", "H1", "K17", "K23"):
        square = board.square(name)
        assert board.passable[square] and not board.opaque[square], name


# --------------------------------------------------------------------------- sectors and sites


def test_sectors_partition_the_board(board: Board) -> None:
    # SO-B2: 4 sectors, every square in exactly one.
    names = sorted(k for k in board.markers if k.startswith("sector."))
    assert names == [f"sector.{j}" for j in SECTORS]
    count = np.zeros(board.shape, dtype=int)
    for j, text in SECTORS.items():
        squares = board.marker(f"sector.{j}")
        assert set(squares) == rect(text)
        assert len(squares) == len(rect(text))
        for square in squares:
            count[square] += 1
    assert np.all(count == 1)


def test_six_sites_per_sector(board: Board) -> None:
    # SO-B2: 6 numbered candidate sites per sector, one square each, nothing more.
    expected = {f"objective.{j}.{k}" for j in SECTORS for k in range(1, 7)}
    assert {k for k in board.markers if k.startswith("objective")} == expected
    for j in SECTORS:
        sector = set(board.marker(f"sector.{j}"))
        for square in sites(board, j):
            assert square in sector, (j, square)


def test_sites_are_structures(board: Board) -> None:
    # SO-B3: objective sites are blocking squares; every `O` square is a site.
    found = all_sites(board)
    assert len(set(found)) == 24
    for square in found:
        assert board.terrain[square.row][square.col] == "O", square
        assert not board.passable[square] and board.opaque[square], square
    o_squares = {s for s in board.squares() if board.terrain[s.row][s.col] == "O"}
    assert o_squares == set(found)


def test_sites_can_be_worked(board: Board) -> None:
    # SO-O1: the agent can stand next to each site, on open ground it can reach.
    found = reachable(board, board.square("N1"), None)
    for square in all_sites(board):
        stands = [
            n
            for n in neighbours(square)
            if board.terrain[n.row][n.col] == "." and not board.roads[n] and n in found
        ]
        assert len(stands) >= 3, square


def test_sites_apart(board: Board) -> None:
    # SO-O3: no square is next to two sites; they are at least 3 squares apart.
    for a, b in itertools.combinations(all_sites(board), 2):
        assert king_distance(a, b) >= 3, (a, b)


def test_sites_away_from_escape_points(board: Board) -> None:
    # SO-E1, SO-S5: no site next to an escape point or the agent's start.
    points = [*board.marker("escape"), *board.marker("escape.five"), *board.marker("agent_start")]
    for site, point in itertools.product(all_sites(board), points):
        assert king_distance(site, point) >= 2, (site, point)


# --------------------------------------------------------------------------- named squares


def test_escape_points(board: Board) -> None:
    # SO-E1: A3, N1 and W3; H1 only in the 5-player game.
    assert board.marker("escape") == tuple(named(board, "A3", "N1", "W3"))
    assert board.marker("escape.five") == tuple(named(board, "H1"))
    for square in (*board.marker("escape"), *board.marker("escape.five")):
        assert board.passable[square], square


def test_agent_start(board: Board) -> None:
    # SO-S5: the agent starts at N1.
    assert board.marker("agent_start", count=1) == (board.square("N1"),)


def test_vehicle_starts(board: Board) -> None:
    # SO-S2: K17, or K23 with 4-5 players; both on a road.
    assert board.marker("vehicle_start", count=1) == (board.square("K17"),)
    assert board.marker("vehicle_start.four", count=1) == (board.square("K23"),)
    for name in ("vehicle_start", "vehicle_start.four"):
        (square,) = board.marker(name)
        assert board.passable[square] and board.roads[square], name


# --------------------------------------------------------------------------- sight


def test_structure_blocks_sight(board: Board) -> None:
    # SO-L1: G13 has a structure at H13 to its east; the line stops there, and the
    # blocking square itself is not seen.
    viewer = board.square("G13")
    seen = board_orthogonal_visible(board, viewer)
    assert not board.passable[board.square("H13")]
    assert seen[viewer]
    assert not seen[board.square("H13")]
    assert not seen[board.square("K13")]  # open, but behind H13-J13
    # West: E13 is seen, D13 (a structure) stops the line, C13 is behind it.
    assert seen[board.square("E13")]
    assert not seen[board.square("D13")]
    assert not seen[board.square("C13")]
    # North: G11 is seen; the site G10 stops the line before the road at G8.
    assert seen[board.square("G11")]
    assert not seen[board.square("G10")]
    assert not seen[board.square("G8")]
    # No diagonal sight.
    assert not seen[board.square("F12")]


def test_sight_stops_at_the_first_structure(board: Board) -> None:
    # SO-L1: from every open square, each orthogonal line runs to the first structure.
    for viewer in board.squares():
        if not board.passable[viewer]:
            continue
        seen = board_orthogonal_visible(board, viewer)
        expected = np.zeros(board.shape, dtype=bool)
        expected[viewer] = True
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            r, c = viewer.row + dr, viewer.col + dc
            while 0 <= r < HEIGHT and 0 <= c < WIDTH and not board.opaque[r, c]:
                expected[r, c] = True
                r, c = r + dr, c + dc
        assert np.array_equal(seen, expected), viewer


def test_sight_lines_mixed(board: Board) -> None:
    # SO-L1: the layout gives both long and short sight lines off the roads.
    counts = [
        int(board_orthogonal_visible(board, s).sum())
        for s in board.squares()
        if board.passable[s] and not board.roads[s]
    ]
    assert max(counts) >= 20
    assert min(counts) <= 5
    assert 6 <= int(np.median(counts)) <= 16


def test_road_lanes(board: Board) -> None:
    # SO-L2: on the 2-wide rows 7-8 road a hunter looking along it sees the other lane,
    # up to the first structure (P8).
    viewer = board.square("A7")
    seen = board_orthogonal_visible(board, viewer, road_rule=True)
    assert seen[board.square("O8")]
    assert not seen[board.square("P8")]
    plain = board_orthogonal_visible(board, viewer)
    assert not plain[board.square("O8")]


def test_square_names_of_a_bitboard_are_row_major_and_the_callers_own() -> None:
    # SO-I2: the views name the possibility map's squares; the names are kept per set.
    from fogofwar.games.specter_ops.geometry import geometry_for

    geo = geometry_for("specter-ops")
    bits = 1 << geo.parse("B3") | 1 << geo.parse("A1") | 1 << geo.parse("C2")
    first = geo.names(bits)
    assert sorted(first) == ["A1", "B3", "C2"]
    assert first == sorted(first, key=geo.parse)  # row-major: by index
    first.append("Z99")  # a caller's list: changing it changes nothing kept
    assert geo.names(bits) == [geo.name(i) for i in geo.indices(bits)]
    assert geo.names(0) == []
