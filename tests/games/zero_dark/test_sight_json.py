"""The web table's sight on hover (``ZeroDark.sight_json``): what a seat would see from a
square, worked out from the map and the seat's view alone by the game's own FEAR sight
code (FR-L1…L5, FR-S2…S6), and leaking nothing the view does not show (FR-P4)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from fogofwar.core.game import PlayerView
from fogofwar.core.grid import Board, Edge, Square, parse_board
from fogofwar.games.zero_dark.fear import Model, ModelState
from fogofwar.games.zero_dark.state import TEAM, ZeroDarkState

from .helpers import RS, board_text, bogey, deck_of, hero, ping, surgery_game

# A 10 × 10 map: crates (Cyl 2) on D3, a block on E5, tall terrain (Cyl 5) on H7, a wall
# east of F3 and F4, a closed door east of F5 and an open one east of F6.
ROWS = """
..........
..........
...c......
..........
....X.....
..........
.......t..
..........
..........
..........
"""
MARKERS = {
    "heroes": "A10 B10 C10 D10 E10 F10",
    "ping": "A9 C9 D9 E9 F9 G9 H9 I9",
    "deployment": "J1 J2 J3",
    "exit": "J10",
    "objective": "H1",
}


def drill(tmp_path: Path, *models: Model) -> tuple[ZeroDarkState, Board]:
    """Surgery (helpers.surgery_game): a game on the drill map (written to a file, so
    that the configuration names it) with ``models`` placed as given."""
    text = board_text(
        ROWS,
        walls=["F3 e", "F4 e"],
        doors=["F5 e closed", "F6 e open"],
        markers=MARKERS,
        name="Drill",
    )
    path = tmp_path / "drill.board"
    path.write_text(text, encoding="utf-8")
    b = parse_board(text, file=str(path))
    return surgery_game(b, models, map=str(path)), b


MODELS = (
    hero("H1", "B2", facing="SE"),
    hero("H2", "H8", facing="NW"),
    hero("H3", "E8", facing="NE", state=ModelState.PRONE),
    bogey("B1", "D6", facing="NE"),
    bogey("B2", "G3", facing="SW", state=ModelState.DOWN),
    ping("P1", "B8"),
    ping("P2", "I4"),
)


def sight(state: ZeroDarkState, square: str, seat: str | None = TEAM) -> dict[str, Any]:
    found = RS.sight_json(state.config, RS.view(state, seat), square)
    assert isinstance(found, dict)
    return found


def test_a_models_sight_agrees_with_the_games_own(tmp_path: Path) -> None:
    # FR-L1 (corner lines, blocked by walls, closed doors, terrain and models as tall as
    # the viewer), FR-L4 (down and prone models are Cyl 1), FR-L5 (the field of view),
    # FR-S2…S6 (obscured): from each model's square the answer is the game's own
    # Position.report all round, and Position.sees — the FR-P3 reveal and ZD-C3 shot
    # question — in the model's field of view.
    state, _ = drill(tmp_path, *MODELS)
    pos = state.position
    for viewer in pos.models.values():
        if viewer.kind == "ping":
            continue
        answer = sight(state, viewer.square.name)
        assert answer["viewer"] == {
            "id": viewer.id,
            "cyl": viewer.sight_cyl,
            "facing": viewer.facing,
        }
        for target in pos.models.values():
            if target.id == viewer.id:
                continue
            where = target.square.name
            report = pos.report(viewer.id, target.id, facing=False)
            assert (where in answer["seen"]) == report.los, (viewer.id, target.id)
            assert (where in answer["obscured"]) == (report.los and report.obscured)
            assert (where in answer["field"]) == pos.sees(viewer.id, target.id), (
                viewer.id,
                target.id,
            )
        assert set(answer["field"]) <= set(answer["seen"])
        assert set(answer["obscured"]) <= set(answer["seen"])
    # The position has some of everything: a target seen, one hidden, one obscured, and
    # one out of a field of view but in LOS all round.
    h1 = sight(state, "B2")
    assert "D6" in h1["seen"] and "I4" not in h1["seen"]
    assert h1["obscured"]
    assert set(h1["field"]) < set(h1["seen"])


@pytest.mark.parametrize("frm", ["A1", "E3", "J5", "G6"])
def test_a_stand_ins_sight_agrees_with_the_explainer(tmp_path: Path, frm: str) -> None:
    # FR-L1, FR-S3: from an empty square a Cyl 3 stand-in looks all round, at a Cyl 3
    # stand-in bogey on each empty square: the answer of the table's own explainer
    # (`los E3 G6`, Ruleset.explain_view_sight) for every square, and of
    # Position.report for the models on the map.
    state, b = drill(tmp_path, *MODELS)
    view = RS.view(state, TEAM)
    answer = sight(state, frm)
    assert answer["from"] == frm and answer["viewer"] == {"id": None, "cyl": 3, "facing": None}
    assert "field" not in answer
    stand_in = state.position.with_model(Model("viewer", "hero", Square.parse(frm)))
    for sq in b.squares():
        if sq.name == frm or not b.terrain_at(sq).passable:
            assert sq.name not in answer["seen"]
            continue
        on = state.position.at(sq)
        if on is not None and on.kind != "ping":
            report = stand_in.report("viewer", on.id, facing=False)
        elif sq.name not in state.position.models:  # the explainer reads B1 as a model
            report = RS.explain_view_sight(view, state.config, frm, sq.name).report
        else:
            target = stand_in.without(on.id) if on else stand_in
            target = target.with_model(Model("target", "bogey", sq))
            report = target.report("viewer", "target", facing=False)
        assert (sq.name in answer["seen"]) == report.los, (frm, sq.name)
        assert (sq.name in answer["obscured"]) == (report.los and report.obscured)


def test_the_doors_are_those_the_view_shows(tmp_path: Path) -> None:
    # FR-L1: a closed door blocks a line, an open one does not; the answer reads the
    # doors from the view: a view with the door east of F5 open sees through it.
    state, _ = drill(tmp_path, hero("H1", "F5", facing="NE"))
    view = RS.view(state, TEAM)
    closed = RS.sight_json(state.config, view, "F5")
    data = dict(view.data)
    data["doors"] = {**data["doors"], "F5 e": True}
    opened = RS.sight_json(state.config, PlayerView(view.ruleset, view.seat, data), "F5")
    assert isinstance(closed, dict) and isinstance(opened, dict)
    assert "H5" not in closed["seen"] and "H5" in opened["seen"]
    pos = state.position.with_door(Edge.parse("F5 e"), True)
    target = pos.with_model(Model("target", "bogey", Square.parse("H5")))
    assert target.report("H1", "target", facing=False).los


@pytest.mark.parametrize("square", ["Z99", "K1", "A11", "hello", "", "A0", "AAAAA1", "B2 C3", "E5"])
def test_a_square_off_the_map_or_impassable_answers_an_error(tmp_path: Path, square: str) -> None:
    # FR-G1: squares run from A1 to J10; E5 holds an impassable block where no model
    # stands: the answer says why, with no squares (never an exception: the web table
    # asks for whatever square the mouse is on).
    state, _ = drill(tmp_path, *MODELS)
    answer = sight(state, square)
    assert answer["error"] and answer["seen"] == [] and answer["obscured"] == []
    assert answer["from"] == square


def test_lower_case_names_the_same_square(tmp_path: Path) -> None:
    state, _ = drill(tmp_path, *MODELS)
    assert sight(state, "b2") == sight(state, "B2")


def test_a_ping_square_is_looked_from_by_a_stand_in(tmp_path: Path) -> None:
    # FR-P4: a ping is a counter whose bogey is the umpire's secret: it does not look;
    # from its square a stand-in looks all round.
    state, _ = drill(tmp_path, *MODELS)
    answer = sight(state, "B8")
    assert answer["viewer"]["id"] is None and "field" not in answer


def test_two_states_with_the_same_view_give_the_same_answer(tmp_path: Path) -> None:
    # FR-P4 (the pings' types are the umpire's secret), ZD-C6 (the deck's order): two
    # games that differ only in what the seat cannot see give the seat, and the
    # spectator, the same view and the same sight from every square.
    a, _ = drill(tmp_path, *MODELS)
    c, _ = drill(tmp_path, *MODELS)
    c.ping_types = {"P1": "boss", "P2": "elite"}
    c.ping_flags = {"P1": frozenset({"named"}), "P2": frozenset({"synthetic"})}
    c.deck = deck_of("AS", "BJ", "2H")
    assert a.ping_types != c.ping_types and list(a.deck) != list(c.deck)
    for seat in (TEAM, None):
        va, vc = RS.view(a, seat), RS.view(c, seat)
        assert va.data == vc.data
        # From every model's square (the pings' too) and a few empty ones.
        squares = [m.square.name for m in a.position.models.values()]
        for sq in [*squares, "A1", "J10", "E3", "G6"]:
            assert RS.sight_json(a.config, va, sq) == RS.sight_json(c.config, vc, sq)


def test_the_answer_reads_the_view_alone(tmp_path: Path) -> None:
    # The answer is a function of the view: the view's JSON, read back, gives the same
    # answer (nothing else of the state is consulted).
    state, _ = drill(tmp_path, *MODELS)
    view = RS.view(state, TEAM)
    copy = PlayerView(view.ruleset, view.seat, dict(view.data))
    assert RS.sight_json(state.config, copy, "H8") == sight(state, "H8")


def test_a_shipped_mission_game_from_each_heroes_square() -> None:
    # FR-L5, FR-P3: on a shipped map at the start, the pings a hero's field of view
    # reaches are exactly those the game turns over (none: it checked at placement).
    state = RS.new_game({}, seed=3)
    assert isinstance(state, ZeroDarkState)
    for m in state.position.models.values():
        if m.kind != "hero":
            continue
        answer = sight(state, m.square.name)
        assert answer["viewer"]["id"] == m.id
        pings = {p.square.name for p in state.position.models.values() if p.kind == "ping"}
        assert not pings & set(answer["field"])
        for p in state.position.models.values():
            if p.kind == "ping":
                assert (p.square.name in answer["field"]) == state.position.sees(m.id, p.id)
