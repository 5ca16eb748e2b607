"""Zero Dark (FEAR) maps: the shipped maps and the marker checks of ``validate_map``."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from fogofwar.cli import app
from fogofwar.core.errors import BadDataError
from fogofwar.core.grid import (
    Board,
    Square,
    builtin_board,
    builtin_boards,
    distance,
    distance_map,
    king_distance,
    parse_board,
)
from fogofwar.core.sight import board_corner_table
from fogofwar.games.zero_dark.maps import MAP_MARKERS, SHIPPED_MAPS, load_map, validate_map

DISJOINT = ("heroes", "ping", "deployment", "exit")


@pytest.fixture(scope="module", params=SHIPPED_MAPS)
def shipped(request: pytest.FixtureRequest) -> Board:
    return load_map(request.param)


# --------------------------------------------------------------------- shipped maps


def test_shipped_maps_are_builtin_boards() -> None:
    # FR-G2: at least two maps, a corridor map and an open grid map.
    assert set(SHIPPED_MAPS) == {"zd-corridor", "zd-open"}
    assert set(SHIPPED_MAPS) <= set(builtin_boards())


def test_shipped_map_loads_and_validates(shipped: Board) -> None:
    # FR-G2: a map is a data file with squares, walls, Cyl terrain and markers.
    assert validate_map(shipped) is shipped
    assert (shipped.width, shipped.height) == (24, 24)
    assert shipped.name.startswith("Zero Dark")
    for name, least in MAP_MARKERS.items():
        assert len(shipped.marker(name)) >= least, name
    assert len(shipped.marker("objective")) <= 3
    for name in MAP_MARKERS:
        assert all(shipped.passable[sq] for sq in shipped.marker(name)), name
    seen: list[Square] = [sq for name in DISJOINT for sq in shipped.marker(name)]
    assert len(seen) == len(set(seen))


def test_shipped_map_marker_counts() -> None:
    counts = {
        name: {key: len(load_map(name).marker(key)) for key in MAP_MARKERS} for name in SHIPPED_MAPS
    }
    assert counts == {
        "zd-corridor": {"heroes": 9, "ping": 10, "deployment": 4, "exit": 4, "objective": 2},
        "zd-open": {"heroes": 6, "ping": 10, "deployment": 4, "exit": 3, "objective": 1},
    }


def deployment_zones(board: Board) -> dict[str, list[Square]]:
    """The heroes' zone and, where the map has one, the second team's (Versus)."""
    return {z: list(board.marker(z)) for z in ("heroes", "heroes2") if z in board.markers}


def test_pings_and_deployment_sites_are_away_from_the_heroes(shipped: Board) -> None:
    # Both teams' zones in Versus: a ping two squares from team2's zone was turned over
    # at setup in 17 of 40 Dead drop games, and handed team2 a start.
    for zone, heroes in deployment_zones(shipped).items():
        for name in ("ping", "deployment"):
            for sq in shipped.marker(name):
                nearest = min(king_distance(sq, h) for h in heroes)
                assert nearest > 4, f"{name} {sq} is {nearest} squares from {zone}"


def test_no_ping_or_deployment_site_is_in_sight_of_the_heroes(shipped: Board) -> None:
    # FR-P3 reveals a ping as soon as a character has LOS to it: on the shipped maps no
    # ping (and no deployment site, where complications add pings) starts in sight of a
    # Cyl 3 hero in either team's deployment zone, with the doors as the map sets them
    # (FR-L1).
    table = board_corner_table(shipped, viewer_cyl=3)
    for zone, heroes in deployment_zones(shipped).items():
        for name in ("ping", "deployment"):
            seen = [
                str(sq) for sq in shipped.marker(name) if any(table.sees(h, sq) for h in heroes)
            ]
            assert seen == [], f"{name} seen from {zone}"


def test_every_marker_square_can_be_reached_from_the_heroes(shipped: Board) -> None:
    # FR-M4 movement (diagonal rule "either"), every door opened.
    dist = distance_map(
        shipped, shipped.marker("heroes"), diagonal="either", open_doors=list(shipped.doors)
    )
    for name in MAP_MARKERS:
        for sq in shipped.marker(name):
            assert dist[sq] >= 0, f"{name} {sq} cannot be reached"


def test_corridor_map_has_rooms_doors_and_terrain() -> None:
    board = load_map("zd-corridor")
    states = set(board.doors.values())
    assert states == {True, False}  # some doors open, some closed
    assert board.walls_h.any() and board.walls_v.any()
    kinds = {(t.passable, t.opaque, t.cyl) for t in board.legend.values()}
    assert (False, True, 9) in kinds  # bulkhead
    assert (False, False, 2) in kinds  # crates
    assert (True, False, 1) in kinds  # consoles
    # The rooms are closed: from the airlock, the command deck is out of reach until
    # doors open (the C19 and S21 doors are shut at the start).
    assert distance(board, board.square("B21"), board.square("W2"), diagonal="either") is None
    assert (
        distance(
            board,
            board.square("B21"),
            board.square("W2"),
            diagonal="either",
            open_doors=list(board.doors),
        )
        == 37
    )


def test_open_map_has_every_height_and_a_corner_to_corner_pinch() -> None:
    board = load_map("zd-open")
    kinds = {(t.passable, t.opaque, t.cyl) for t in board.legend.values()}
    assert {
        (True, False, 1),
        (False, False, 2),
        (False, False, 3),
        (False, False, 4),
        (True, False, 5),
        (False, True, 9),
    } <= kinds
    blocking = ~board.passable
    # Two blocking squares touching corner to corner, with both side squares open.
    pinches = [
        (r, c)
        for r in range(board.height - 1)
        for c in range(board.width - 1)
        if blocking[r, c]
        and blocking[r + 1, c + 1]
        and not blocking[r, c + 1]
        and not blocking[r + 1, c]
    ]
    assert Square.parse("H12") in pinches


def test_map_is_squares_and_ranges_count_squares() -> None:
    # FR-G1: play is on squares and ranges are counted in squares. On open ground the
    # range is the number of king moves.
    board = load_map("zd-open")
    assert board.passable.shape == (24, 24)
    for a, b in (("A24", "X24"), ("K23", "M8"), ("L24", "E1"), ("K23", "K24")):
        sa, sb = board.square(a), board.square(b)
        assert distance(board, sa, sb, diagonal="either") == king_distance(sa, sb)
    # Round an obstacle the range grows: the pump house (D15-F17) is in the way, and
    # FR-M4 forbids cutting its corners diagonally (E14 F14 G14 G15 G16 G17 G18 F18 E18).
    assert distance(board, board.square("E14"), board.square("E18"), diagonal="either") == 8


# --------------------------------------------------------------------- broken maps

GOOD_MARKERS = {
    "heroes": "A11-C12",
    "ping": "A1-H1",
    "deployment": "J1-L1",
    "exit": "L12",
    "objective": "G6",
}


def board_text(**markers: str | None) -> str:
    """A 12x12 board; ``markers`` replace or (None) drop lines of GOOD_MARKERS."""
    rows = ["." * 12] * 5 + ["....cc......"] + ["." * 12] * 6
    lines = ["name: Bad", "[legend]", ".  floor  passable  transparent"]
    lines.append("c  crates  impassable  transparent  cyl=2")
    lines.append("[terrain]")
    lines += rows
    lines.append("[markers]")
    merged: dict[str, str | None] = {**GOOD_MARKERS, **markers}
    lines += [f"{k}: {v}" for k, v in merged.items() if v is not None]
    return "\n".join(lines) + "\n"


def bad(**markers: str | None) -> BadDataError:
    board = parse_board(board_text(**markers), file="bad.board")
    with pytest.raises(BadDataError) as info:
        validate_map(board)
    assert info.value.file == "bad.board"
    return info.value


def test_the_good_test_board_validates() -> None:
    board = parse_board(board_text(), file="bad.board")
    assert validate_map(board) is board


def test_missing_marker() -> None:
    err = bad(exit=None)
    assert err.line is None
    assert "a marker 'exit'" in str(err) and str(err).startswith("bad.board: ")


def test_too_few_squares() -> None:
    err = bad(heroes="A11-B12 C12")  # 5 squares
    assert err.line == 19
    assert str(err) == (
        "bad.board:19: expected marker 'heroes' to have at least 6 squares, found '5 squares'"
    )
    err = bad(ping="A1-G1")
    assert err.line == 20 and "at least 8 squares" in str(err)


def test_marker_on_an_impassable_square() -> None:
    err = bad(objective="E6")
    assert err.line == 23
    assert str(err) == (
        "bad.board:23: expected passable squares in marker 'objective', found 'E6 (crates)'"
    )


def test_square_in_two_markers() -> None:
    err = bad(deployment="J1 K1 B12")  # B12 is a heroes square
    assert err.line == 21
    assert "marker 'deployment' repeats a square of 'heroes'" in str(err)
    assert err.found == "B12"
    # The objective may share a square with the others.
    board = parse_board(board_text(objective="L12"), file="bad.board")
    assert validate_map(board) is board


def test_load_map_reads_a_file_and_validates_it(tmp_path: Path) -> None:
    good = tmp_path / "mine.board"
    good.write_text(board_text())
    assert load_map(str(good)).name == "Bad"
    broken = tmp_path / "broken.board"
    broken.write_text(board_text(exit=None))
    with pytest.raises(BadDataError) as info:
        load_map(str(broken))
    assert info.value.file == str(broken)
    with pytest.raises(LookupError):
        load_map("no-such-map")


def test_validate_map_rejects_non_zero_dark_boards() -> None:
    # The demo board has markers for other games (deploy, escape, ...) but no heroes.
    with pytest.raises(BadDataError, match="a marker 'heroes'"):
        validate_map(builtin_board("demo"))


# --------------------------------------------------------------------- the CLI


@pytest.mark.parametrize("name", SHIPPED_MAPS)
def test_board_show_draws_the_map(name: str) -> None:
    res = CliRunner().invoke(app, ["board", "show", name, "--plain"])
    assert res.exit_code == 0, res.output
    out = res.stdout
    assert out.splitlines()[0].split() == [chr(65 + c) for c in range(24)]  # A .. X
    assert "Markers:" in out and "heroes" in out and "ping" in out
    # Every terrain row is drawn: rows 1-24 each start with their number.
    numbers = [line.split()[0] for line in out.splitlines() if line[:3].strip().isdigit()]
    assert numbers == [str(n) for n in range(1, 25)]
    # In colour too (rich wraps the 100-column drawing at the runner's 80 columns).
    res = CliRunner().invoke(app, ["board", "show", name])
    assert res.exit_code == 0, res.output
    assert res.stdout.startswith(load_map(name).name) and "Markers:" in res.stdout


def test_board_show_marks_doors_on_the_corridor_map() -> None:
    res = CliRunner().invoke(app, ["board", "show", "zd-corridor", "--plain"])
    assert res.exit_code == 0
    assert "═══" in res.stdout and "┄┄┄" in res.stdout  # closed and open doors
    assert res.stdout.count(" X ") > 100  # the bulkhead
