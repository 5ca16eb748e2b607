"""What makes Zero Dark fast must not change what it answers: maps shared between games,
the FR-R1 range by an early-stopping search, the reveal check's bare-map shortcut."""

from __future__ import annotations

import os
from importlib import resources
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fogofwar.core.grid import Board, Square
from fogofwar.games.zero_dark.fear import FACINGS, Model, Position
from fogofwar.games.zero_dark.maps import SHIPPED_MAPS, map_for

from .helpers import RS

MAPS = {name: map_for(name) for name in SHIPPED_MAPS}


def test_a_shipped_map_is_loaded_once_and_shared_by_every_game() -> None:
    a = RS.new_game(None, 1)
    b = RS.new_game(None, 2)
    assert a.board is b.board  # type: ignore[attr-defined]
    assert map_for(str(RS.resolve_config(None)["map"])) is a.board  # type: ignore[attr-defined]


def test_a_map_file_is_loaded_again_when_it_changes(tmp_path: Path) -> None:
    shipped = resources.files("fogofwar") / "data" / "zero-dark" / "zd-open.board"
    text = shipped.read_text(encoding="utf-8")
    file = tmp_path / "mine.board"
    file.write_text(text, encoding="utf-8")
    first = map_for(str(file))
    assert map_for(str(file)) is first
    name = next(line for line in text.splitlines() if line.startswith("name:"))
    file.write_text(text.replace(name, "name: Mine, changed"), encoding="utf-8")
    os.utime(file, ns=(1, 10**18))  # a new stamp even on a coarse clock
    second = map_for(str(file))
    assert second is not first
    assert second.name == "Mine, changed"


def _passable(board: Board) -> list[Square]:
    return [s for s in board.squares() if board.terrain_at(s).passable]


@st.composite
def _pairs(draw: st.DrawFn) -> tuple[str, Square, Square]:
    name = draw(st.sampled_from(sorted(MAPS)))
    squares = _passable(MAPS[name])
    a = draw(st.sampled_from(squares))
    b = draw(st.sampled_from(squares))
    return name, a, b


@settings(max_examples=150, deadline=None)
@given(_pairs())
def test_the_range_is_the_distance_maps_fewest_steps(pair: tuple[str, Square, Square]) -> None:
    """FR-R1: the breadth-first search that stops at the target gives what the whole
    distance map gives: 0 on the same square, None where no route leads."""
    name, a, b = pair
    pos = Position.initial(MAPS[name], ())
    dist = pos.graph.distance_map([a])
    expected = None if dist[b.row, b.col] < 0 else int(dist[b.row, b.col])
    assert pos.range_between([a], [b]) == expected
    assert pos.range_between([a], [b]) == expected  # the kept answer


@st.composite
def _sightings(draw: st.DrawFn) -> tuple[Position, Model, Model]:
    name = draw(st.sampled_from(sorted(MAPS)))
    board = MAPS[name]
    squares = _passable(board)
    a = draw(st.sampled_from(squares))
    b = draw(st.sampled_from([s for s in squares if s != a]))
    facing = draw(st.sampled_from(FACINGS))
    who = Model("H1", "hero", a, facing=facing)
    ping = Model("P1", "ping", b, cyl=3)
    return Position.initial(board, (who, ping)), who, ping


@settings(max_examples=300, deadline=None)
@given(_sightings())
def test_the_reveal_checks_shortcut_skips_only_pairs_that_reveal_nothing(
    case: tuple[Position, Model, Model],
) -> None:
    """FR-P3: the reveal check skips a character and a ping when the bare map's table
    has no line between them and they are not next to each other; then neither the
    engagement nor the sight check can reveal the ping."""
    pos, who, ping = case
    r, c = who.square
    pr, pc = ping.square
    apart = max(abs(r - pr), abs(c - pc)) > 1
    if apart and pos.bare_map_hides(who, ping):
        assert not pos.terrain_table(who.sight_cyl)[r, c][pr, pc]
        assert not pos.engaged(who.id, ping.id)
        assert not pos.sees(who.id, ping.id)


def test_one_relative_name_in_two_folders_is_two_maps(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shipped = resources.files("fogofwar") / "data" / "zero-dark" / "zd-open.board"
    text = shipped.read_text(encoding="utf-8")
    name = next(line for line in text.splitlines() if line.startswith("name:"))
    for folder in ("one", "two"):
        (tmp_path / folder).mkdir()
        mine = text.replace(name, f"name: Map {folder}")
        (tmp_path / folder / "mine.board").write_text(mine, encoding="utf-8")
    monkeypatch.chdir(tmp_path / "one")
    first = map_for("mine.board")
    monkeypatch.chdir(tmp_path / "two")
    second = map_for("mine.board")
    assert (first.name, second.name) == ("Map one", "Map two")
