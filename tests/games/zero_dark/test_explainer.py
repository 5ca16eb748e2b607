"""The Zero Dark sight explainer (``fogofwar los MAP FROM TO --ruleset zero-dark``), the
``[models]`` section it reads, terminal notation, illegal-action reasons and drawing.

``golden/explainer.json`` holds the explainer's JSON for fixed questions on the shipped
maps; ``FOGOFWAR_REGEN=1`` (``make golden``) rewrites it, otherwise a difference fails.
"""

from __future__ import annotations

import json
import os
import random
import re
from pathlib import Path

import pytest

from fogofwar.cli import main
from fogofwar.core.errors import BadDataError, IllegalActionError, RulesError
from fogofwar.core.game import Action, get_ruleset
from fogofwar.core.grid import builtin_board, parse_board
from fogofwar.games.zero_dark.fear import models_of
from fogofwar.games.zero_dark.sight import explain_sight

GOLDEN = Path(__file__).parent / "golden" / "explainer.json"
REGEN = os.environ.get("FOGOFWAR_REGEN") == "1"
RS = get_ruleset("zero-dark")

QUESTIONS: list[list[str]] = [
    ["zd-sight-drill", "H1", "E1"],
    ["zd-sight-drill", "H1", "G1"],
    ["zd-sight-drill", "H1", "X1"],
    ["zd-sight-drill", "H1", "BIG"],
    ["zd-sight-drill", "H2", "G1"],
    ["zd-sight-drill", "A1", "G1"],
    ["zd-sight-drill", "A1", "G2"],
    ["zd-sight-drill", "G1", "A1"],
    ["zd-sight-drill", "H1", "E1", "--facing", "all"],
    ["zd-sight-drill", "H1", "E1", "--origin", "any_corner"],
    ["zd-sight-drill", "E1", "X1", "--open", "J8 w"],
    ["zd-corridor", "B21", "E20"],
    ["zd-corridor", "B21", "F3"],
    ["zd-corridor", "L4", "L9", "--open", "L9 n"],
    ["zd-corridor", "L4", "L9"],
    ["zd-corridor", "K12", "N9", "--target-cyl", "1"],
    ["zd-open", "L23", "I2"],
    ["zd-open", "H11", "J14", "--viewer-cyl", "2"],
    ["zd-open", "G13", "J12", "--character"],
    ["zd-open", "A1", "X24", "--set", "los_origin=any_corner"],
]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def ask(capsys: pytest.CaptureFixture[str], question: list[str]) -> dict[str, object]:
    code, out, err = run(
        capsys, "los", *question[:3], "--ruleset", "zero-dark", "--json", *question[3:]
    )
    assert code == 0, err
    data: dict[str, object] = json.loads(out)
    return data


def test_explainer_golden_on_the_shipped_maps(capsys: pytest.CaptureFixture[str]) -> None:
    # FR-S5: the umpire's report (status, every corner line, what blocks or interrupts
    # it) with FR-R1 range and FR-S1 engagement, for fixed questions on shipped maps.
    found = {" ".join(q): ask(capsys, q) for q in QUESTIONS}
    if REGEN:
        GOLDEN.parent.mkdir(exist_ok=True)
        GOLDEN.write_text(json.dumps(found, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    stored = json.loads(GOLDEN.read_text(encoding="utf-8"))
    for key, value in found.items():
        assert stored.get(key) == value, f"{key} differs; rerun with FOGOFWAR_REGEN=1 if intended"
    assert set(stored) == set(found)


def test_explainer_reads_the_models_states_and_facing(capsys: pytest.CaptureFixture[str]) -> None:
    data = ask(capsys, ["zd-sight-drill", "H2", "G1"])
    viewer = data["viewer"]
    assert isinstance(viewer, dict)
    # FR-L4: a prone character sees (and blocks) as Cyl 1.
    assert viewer["state"] == "prone" and viewer["sight_cyl"] == 1 and viewer["cyl"] == 3
    assert data["field_of_view"] == "NE"  # FR-L5: the model's own facing
    big = ask(capsys, ["zd-sight-drill", "H1", "BIG"])
    target = big["target"]
    assert isinstance(target, dict)
    assert target["squares"] == ["H8", "I8", "H9", "I9"]  # FR-C1
    assert len(big["lines"]) == 9  # type: ignore[arg-type]  # FR-C1: every corner of the block


def test_explainer_facing_decides_sight(capsys: pytest.CaptureFixture[str]) -> None:
    # FR-L5: G1 faces SW; A1 at C6 is in front of it; turned NE it is behind.
    front = ask(capsys, ["zd-sight-drill", "G1", "A1"])
    back = ask(capsys, ["zd-sight-drill", "G1", "A1", "--facing", "NE"])
    assert front["los"] is True
    assert back["los"] is False
    assert all(not line["in_view"] for line in back["lines"])  # type: ignore[attr-defined]


def test_explainer_doors(capsys: pytest.CaptureFixture[str]) -> None:
    # FR-L3: a closed door blocks like a wall; the file's state unless --open says.
    shut = ask(capsys, ["zd-corridor", "L4", "L9"])
    opened = ask(capsys, ["zd-corridor", "L4", "L9", "--open", "L9 n"])
    assert shut["los"] is False and opened["los"] is True


def test_explainer_table_output(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "los", "zd-sight-drill", "H1", "E1", "--ruleset", "zero-dark")
    assert code == 0
    # Models named with their kind and square: "H1" the hero is never "square H1".
    assert "hero H1 on B9 (Cyl 3, facing NE) → bogey E1 on L3 (Cyl 3, active)" in out
    assert "range 11 (FR-R1); not engaged (FR-S1)" in out
    assert "blocked by" in out
    # FR-S5: the lines drawn on the board, with the key to their colours.
    assert "green: squares the lines with sight cross" in out


def test_explainer_draws_each_line(capsys: pytest.CaptureFixture[str]) -> None:
    # The squares each corner line crosses are shaded: green where the line has sight,
    # red where it has none; a blocker's and an interrupter's letters are coloured.
    from rich.console import Console

    from fogofwar.commands.los import _lines_picture, crossed
    from fogofwar.core.grid import builtin_board

    board = builtin_board("demo")
    assert {s.name for s in crossed(board, "C10", "F8 nw")} == {"C10", "D9", "E8"}
    assert {s.name for s in crossed(board, "A1", "C1 sw")} == {"A1", "B1"}
    lines = [
        {"origin": "C10", "corner": "F8 nw", "sight": True, "blocked_by": [],
         "interrupted_by": [{"kind": "square", "squares": ["D9"], "cyl": [2]}]},
        {"origin": "C10", "corner": "F8 se", "sight": False,
         "blocked_by": [{"kind": "square", "squares": ["E9"], "cyl": [5]}], "interrupted_by": []},
    ]  # fmt: skip
    console = Console(record=True, width=100, color_system="256", force_terminal=True)
    _lines_picture(board, lines, {board.square("C10"): "V", board.square("F8"): "T"}, console)
    ansi = console.export_text(styles=True, clear=False)
    plain = console.export_text()
    assert "V" in plain and "T" in plain and "yellow letter" in plain
    # Background colours: dark green (22) for the line with sight, dark red (88) for the
    # one without, yellow for the interrupter, red for the blocker.
    for code in ("48;5;22", "48;5;88", "43", "41"):
        assert code in ansi, code


def test_explainer_errors(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "los", "zd-sight-drill", "H1", "Q77", "--ruleset", "zero-dark")
    assert code == 2 and "neither a model of the map" in err
    code, _, err = run(capsys, "los", "zd-sight-drill", "H1", "H1", "--ruleset", "zero-dark")
    assert code == 2 and "same model" in err
    code, _, err = run(
        capsys, "los", "zd-sight-drill", "H1", "E1", "--ruleset", "zero-dark", "--open", "A1 n"
    )
    assert code == 2 and "no door" in err
    code, _, err = run(
        capsys, "los", "zd-sight-drill", "H1", "E1", "--ruleset", "zero-dark", "--facing", "UP"
    )
    assert code == 2 and "facing" in err


def test_explain_sight_stand_ins() -> None:
    board = builtin_board("zd-open")
    found = explain_sight(board, "L23", "L20", {"viewer_cyl": 2, "character": True})
    assert found.facts["viewer"]["id"] == "viewer"  # type: ignore[index]
    assert found.facts["target"]["kind"] == "hero"  # type: ignore[index]
    assert found.report.obscure_rule == "character"  # FR-S4 for a character target
    assert found.facts["field_of_view"] is None  # a stand-in viewer sees all round
    # FR-L5: and its JSON says so, not a facing it does not have; nor has the target.
    assert found.facts["viewer"]["facing"] is None  # type: ignore[index]
    assert found.facts["target"]["facing"] is None  # type: ignore[index]
    faced = explain_sight(board, "L23", "L20", {"facing": "NW"})
    assert faced.facts["field_of_view"] == faced.facts["viewer"]["facing"] == "NW"  # type: ignore[index]
    model = explain_sight(builtin_board("zd-sight-drill"), "H1", "G1", {"facing": "all"})
    assert model.facts["field_of_view"] is None
    assert model.facts["viewer"]["facing"] == "NE"  # type: ignore[index]  # the model's own


BOARD = """name: models
[legend]
. floor passable transparent
c crates impassable transparent cyl=2
[terrain]
....
.c..
....
[models]
{models}
"""


def test_models_section_is_read_as_zero_dark_models() -> None:
    board = parse_board(
        BOARD.format(models="H1 hero A1 facing=se\nB1 bogey D3 tier=elite state=down")
    )
    m = {x.id: x for x in models_of(board)}
    assert m["H1"].facing == "SE" and m["H1"].cyl == 3
    assert m["B1"].tier == "elite" and m["B1"].sight_cyl == 1  # FR-L4


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("H1 wizard A1", "a model kind"),
        ("H1 hero A1 cyl=9", "cyl=1 to cyl=7"),
        ("H1 hero A1 facing=N", "facing="),
        ("H1 hero A1 state=asleep", "state="),
        ("H1 hero A1 colour=red", "model attributes"),
        ("H1 hero A1 tier=boss", "on a bogey"),
        ("H1 hero B2", "passable"),
        ("H1 hero A1\nH2 hero A1", "one model per square"),
        ("BIG bogey A2 cyl=6", "passable"),
        ("BIG bogey D3 cyl=6", "passable squares of the map"),
    ],
)
def test_bad_models_name_file_and_line(line: str, expected: str) -> None:
    board = parse_board(BOARD.format(models=line), file="bad.board")
    with pytest.raises(BadDataError) as info:
        models_of(board)
    assert info.value.file == "bad.board"
    assert info.value.line is not None and info.value.line >= 10
    assert expected in str(info.value)


def test_board_show_draws_models(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "board", "show", "zd-sight-drill", "--plain")
    assert code == 0
    for mark in ("H1", "H2", "A1", "G1", "E1", "X1", "BIG", "P1"):
        assert mark in out
    # FR-C1: the Cyl 6 bogey covers H8-I9, drawn on all four squares as `los` draws it.
    rows = {line.split("│")[0].strip(): line for line in out.splitlines() if "│" in line}
    assert rows["8"].count("BIG") == 2 and rows["9"].count("BIG") == 2
    _, explained, _ = run(capsys, "los", "zd-sight-drill", "H1", "G1", "--ruleset", "zero-dark")
    assert explained.count("BIG") == 4
    code, out, _ = run(capsys, "board", "show", "zd-sight-drill", "--json")
    models = json.loads(out)["models"]
    assert {"id": "G2", "kind": "bogey", "square": "E4", "tier": "grunt", "state": "down"} in models


# ------------------------------------------------------------------ the game's notation


def test_parse_move_shorthand() -> None:
    state = RS.new_game({}, 1)
    assert RS.parse_actions("move b19 c18", "team", state) == [
        Action("team", "step", ("B19",)),
        Action("team", "step", ("C18",)),
        Action("team", "stop"),
    ]
    assert RS.parse_actions("door F3 e", "team", state) == [Action("team", "door", ("F3", "e"))]
    assert RS.parse_actions("face ne", "team", state) == [Action("team", "face", ("NE",))]


@pytest.mark.parametrize(
    ("setup", "action", "reason", "rule"),
    [
        ([], Action("team", "step", ("A19",)), "activate", "ZD-C9"),
        ([], Action("team", "activate", ("H9",)), "no hero", "ZD-C9"),
        (["activate H1"], Action("team", "step", ("D9",)), "not one step", "FR-M1"),
        (["activate H1"], Action("team", "step", ("Q99",)), "not a square", "FR-G1"),
        (["activate H1"], Action("team", "face", ("NE",)), "already faces", "FR-L5"),
        (["activate H1"], Action("team", "door", ("F3", "e")), "no door", "ZD-C2"),
        (
            ["activate H1", "stop", "pass", "flip"],
            Action("team", "activate", ("H1",)),
            "already acted",
            "ZD-C9",
        ),
    ],
)
def test_illegal_actions_say_why_and_change_nothing(
    setup: list[str], action: Action, reason: str, rule: str
) -> None:
    state = RS.new_game({}, 1)
    for text in setup:
        for a in RS.parse_actions(text, "team", state):
            state.apply(a)
    before = state.view(None).canonical()
    with pytest.raises(IllegalActionError) as info:
        state.apply(action)
    assert reason in info.value.reason and info.value.rule == rule
    assert state.view(None).canonical() == before


@pytest.mark.parametrize("config", [{}, {"mode": "versus", "map": "zd-open"}])
def test_the_choose_first_refusal_names_a_model_that_may_act(config: dict[str, str]) -> None:
    # ZD-C9: while a seat chooses who acts, another kind is refused with an example that
    # is itself legal: never "activate H1" once H1 has acted (or is out of action).
    state = RS.new_game({}, 1)
    for text in ("activate H1", "stop", "pass", "flip"):
        for a in RS.parse_actions(text, "team", state):
            state.apply(a)
    with pytest.raises(IllegalActionError) as info:
        state.apply(Action("team", "step", ("A1",)))
    assert info.value.rule == "ZD-C9"
    assert "(activate H2)" in info.value.reason, info.value.reason
    # And in every choice of random games, solo and Versus.
    pick = random.Random(3)
    for seed in range(3):
        state = RS.new_game(config, seed)
        checked = 0
        while not state.is_over and checked < 40:
            seat = sorted(state.to_act())[0]
            if state.phase == "choose":
                reason, rule = state.explain_illegal(Action(seat, "step", ("A1",)))
                found = re.search(r"\(activate (\w+)\)", reason)
                assert rule == "ZD-C9" and found is not None, reason
                assert state.is_legal(Action(seat, "activate", (found[1],))), reason
                checked += 1
            state.apply(pick.choice(list(state.legal_actions(seat))))
        assert checked


def test_a_hero_may_not_stop_on_a_friend() -> None:
    # FR-M2: H1 (A20) may cross H2 (B20) but not stop there.
    state = RS.new_game({}, 1)
    state.apply(Action("team", "activate", ("H1",)))
    assert state.position.model("H2").square.name == "B20"
    state.apply(Action("team", "step", ("B20",)))
    assert Action("team", "stop") not in state.legal_actions("team")
    with pytest.raises(IllegalActionError) as info:
        state.apply(Action("team", "stop"))
    assert info.value.rule == "FR-M2"
    assert any(a.kind == "step" for a in state.legal_actions("team"))


def test_render_draws_the_view() -> None:
    from rich.console import Console

    state = RS.new_game({}, 2)
    console = Console(width=200, record=True)
    console.print(RS.render(state.view("team"), state.config))
    text = console.export_text()
    assert "H1" in text and "turn 1" in text and f"deck {len(state.deck)} left" in text
    assert "hand: " in text  # the Spook's hand, in the team's own view
    for ping in state.pings():
        assert ping.id in text


def test_unknown_ruleset_option(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(
        capsys, "los", "zd-open", "A1", "B2", "--ruleset", "zero-dark", "--set", "nope=1"
    )
    assert code == 2 and "unknown option" in err
    with pytest.raises(RulesError):
        RS.new_game({"red_force": "dragons=2"}, 0)


def test_explainer_on_a_view_uses_only_the_view() -> None:
    # FR-S5 at the table (`los` in play): built from the seat's view, so two games whose
    # pings differ only in their hidden types explain alike (FR-P4).
    a, b = RS.new_game({}, 3), RS.new_game({}, 3)
    types = list(b.ping_types.items())  # type: ignore[attr-defined]
    b.ping_types = {p: t for (p, _), (_, t) in zip(types, reversed(types), strict=True)}  # type: ignore[attr-defined]
    ping = next(iter(a.ping_types))  # type: ignore[attr-defined]
    ea = RS.explain_view_sight(a.view("team"), a.config, "H1", ping)
    eb = RS.explain_view_sight(b.view("team"), b.config, "H1", ping)
    assert ea.report.to_json() == eb.report.to_json() and ea.facts == eb.facts
    assert ea.facts["field_of_view"] == a.position.model("H1").facing  # type: ignore[attr-defined]
    with pytest.raises(NotImplementedError):
        get_ruleset("specter-ops").explain_view_sight(a.view(None), {}, "A1", "A2")
