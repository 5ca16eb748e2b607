"""Zero Dark missions as data files (ZD-C8): the shipped missions, the format's
defaults, one broken mission per error, and missions loaded from a path."""

from __future__ import annotations

import os
import pickle
from importlib import resources
from pathlib import Path

import pytest

from fogofwar.core.errors import BadDataError, RulesError
from fogofwar.core.game import get_ruleset
from fogofwar.core.record import Record, Recorder, verify_record
from fogofwar.core.rng import stream
from fogofwar.games.zero_dark.maps import map_digest
from fogofwar.games.zero_dark.missions import (
    SHIPPED_MISSIONS,
    WIN_CONDITIONS,
    Mission,
    load_mission,
    parse_mission,
)
from fogofwar.games.zero_dark.profiles import ALLY
from fogofwar.games.zero_dark.state import ZeroDarkState

RS = get_ruleset("zero-dark")
FILE = "test.mission"

#: A valid solo mission; the error tests change one line of it.
BASE = """\
# A test mission.
name: Test
map: zd-corridor
red_force: grunt=4,elite=2,boss=1:named
"""


def broken(text: str, *, folder: Path | None = None) -> BadDataError:
    with pytest.raises(BadDataError) as info:
        parse_mission(text, file=FILE, folder=folder)
    err = info.value
    assert err.file == FILE
    return err


def shipped_board_text(name: str) -> str:
    entry = resources.files("fogofwar").joinpath("data", "zero-dark", name + ".board")
    return entry.read_text(encoding="utf-8")


# --------------------------------------------------------------------- shipped missions


def test_shipped_missions_are_the_folder() -> None:
    # ZD-C8: every mission file in fogofwar/data/zero-dark is listed, and no other.
    folder = resources.files("fogofwar").joinpath("data", "zero-dark")
    names = {e.name[: -len(".mission")] for e in folder.iterdir() if e.name.endswith(".mission")}
    assert names == set(SHIPPED_MISSIONS)
    assert len(SHIPPED_MISSIONS) >= 3


@pytest.mark.parametrize("name", SHIPPED_MISSIONS)
@pytest.mark.parametrize("seed", [0, 7])
def test_shipped_mission_loads_and_starts_a_game(name: str, seed: int) -> None:
    # ZD-C8: a mission's config creates a game of its map, heroes and Red Force.
    mission = load_mission(name)
    assert mission.file == f"fogofwar/data/zero-dark/{name}.mission"
    assert mission.name and mission.description
    assert set(mission.win) <= set(WIN_CONDITIONS)
    state = RS.new_game(mission.config(), seed)
    assert isinstance(state, ZeroDarkState)
    assert state.mode == mission.mode
    seats = ("team",) if mission.mode == "solo" else ("team1", "team2")
    assert state.to_act() == frozenset(seats)
    assert len(state.heroes()) == mission.heroes * len(seats)
    assert len(state.pings()) == sum(
        int(part.split("=")[1].split(":")[0]) for part in mission.red_force.split(",")
    )
    if mission.mode == "solo":
        assert state.sides["team"].task == mission.task
        assert state.sides["team"].buying_time == mission.buy_time


def test_the_spy() -> None:
    # ZD-C8, ZD-T3: Rescue on the corridor map, the grunts susceptible, the named Boss
    # never the double agent.
    mission = load_mission("the-spy")
    assert (mission.map, mission.mode, mission.task) == ("zd-corridor", "solo", "rescue")
    assert mission.win == ("rescue", "extract", "survive")
    assert mission.susceptible == "grunt"
    for seed in range(5):
        state = RS.new_game(mission.config(), seed)
        assert isinstance(state, ZeroDarkState)
        agent = state.sides["team"].double_agent
        assert agent is not None and not state.ping_flags[agent] & {"named", "nemesis"}


def test_the_boss() -> None:
    # ZD-C8, ZD-T4: Assassination aboard the derelict, with a Boss in the Red Force.
    mission = load_mission("the-boss")
    assert (mission.map, mission.mode, mission.task) == ("zd-corridor", "solo", "assassination")
    assert mission.win == ("assassination", "survive")
    state = RS.new_game(mission.config(), 3)
    assert isinstance(state, ZeroDarkState)
    target = state.sides["team"].boss_target
    assert target is not None and state.ping_types[target] == "boss"


def test_dead_drop() -> None:
    # ZD-C8, ZD-C9, ZD-B4: Versus, three heroes a team; the tasks and buying time are
    # chosen at the table, so the mission sets neither.
    mission = load_mission("dead-drop")
    assert (mission.map, mission.mode, mission.heroes) == ("zd-open", "versus", 3)
    assert mission.win == ("objectives", "survive")
    assert (mission.task, mission.buy_time) == ("none", False)
    assert "task" not in mission.lines and "buy_time" not in mission.lines
    assert "secret" in mission.description and "buy time" in mission.description
    state = RS.new_game(mission.config(), 0)
    assert isinstance(state, ZeroDarkState)
    assert state.phase == "prepare"


def test_unknown_shipped_mission(capsys: pytest.CaptureFixture[str]) -> None:
    # ZD-C8: an unknown name lists the shipped missions — one line at the command line.
    with pytest.raises(LookupError, match="the-spy"):
        load_mission("no-such-mission")
    with pytest.raises(RulesError, match="the-spy, the-boss, dead-drop"):
        RS.resolve_config({"mission": "no-such-mission"})
    from fogofwar.cli import main

    assert main(["play", "zero-dark", "--mission", "nosuch"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: no shipped mission 'nosuch'") and err.count("\n") == 1


# --------------------------------------------------------------------- the format


def test_defaults_and_lines() -> None:
    # ZD-C8: defaults for every optional key; each key's line is kept.
    mission = parse_mission(BASE, file=FILE)
    assert mission == Mission(
        name="Test",
        description="",
        file=FILE,
        map="zd-corridor",
        mode="solo",
        heroes=4,
        red_force="grunt=4,elite=2,boss=1:named",
        susceptible="",
        task="none",
        buy_time=False,
        win=("objectives", "survive"),
    )
    assert dict(mission.lines) == {"name": 2, "map": 3, "red_force": 4}
    assert mission.config() == {
        "map": "zd-corridor",
        "mode": "solo",
        "heroes": 4,
        "red_force": "grunt=4,elite=2,boss=1:named",
        "susceptible": "",
        "task": "none",
        "buy_time": False,
        "win": "objectives,survive",
    }
    copy = pickle.loads(pickle.dumps(mission))
    assert copy == mission and copy.lines == mission.lines
    with pytest.raises(TypeError):
        mission.lines["name"] = 9  # type: ignore[index]


def test_every_key_comments_blank_lines_and_case() -> None:
    # ZD-C8: comments anywhere, blank lines, indentation; words in any case.
    text = """\
\ufeff# header

  name:   The run   # trailing comment
description: Out by the lift.
map: zd-corridor
mode: Solo
heroes: 2
red_force: grunt=3, elite=1
susceptible: Grunt, elite
task: Observation
buy_time: TRUE
win: exit, observation, survive
"""
    mission = parse_mission(text, file=FILE)
    assert mission.name == "The run"
    assert mission.description == "Out by the lift."
    assert (mission.mode, mission.heroes, mission.task, mission.buy_time) == (
        "solo",
        2,
        "observation",
        True,
    )
    assert mission.susceptible == "grunt,elite"
    assert mission.win == ("exit", "observation", "survive")
    assert mission.lines["name"] == 3 and mission.lines["win"] == 12
    state = RS.new_game(mission.config(), 0)
    assert isinstance(state, ZeroDarkState)
    assert state.sides["team"].buying_time


def test_susceptible_none() -> None:
    # ZD-C8, ZD-P0: "none" is the same as leaving the key out.
    assert parse_mission(BASE + "susceptible: none\n").susceptible == ""


# --------------------------------------------------------------------- broken missions


def test_line_without_colon() -> None:
    # ZD-C8
    err = broken(BASE + "  heroes 4\n")
    assert (err.line, err.column, err.found) == (5, 3, "heroes 4")
    assert "'key: value'" in err.expected


def test_line_without_key() -> None:
    # ZD-C8
    err = broken(BASE + ": 4\n")
    assert (err.line, err.column) == (5, 1)
    assert "'key: value'" in err.expected


def test_unknown_key() -> None:
    # ZD-C8
    err = broken(BASE + "red-force: grunt=1\n")
    assert (err.line, err.column, err.found) == (5, 1, "red-force")
    assert "a mission key: name, description, map" in err.expected


def test_key_given_twice() -> None:
    # ZD-C8
    err = broken(BASE + "map: zd-open\n")
    assert (err.line, err.column, err.found) == (5, 1, "map")
    assert "each key once ('map' was given on line 3)" in err.expected


def test_empty_value() -> None:
    # ZD-C8
    err = broken(BASE + "description:   # nothing\n")
    assert (err.line, err.column) == (5, 13)
    assert "a value after 'description:'" in err.expected


@pytest.mark.parametrize("key", ["name", "map", "red_force"])
def test_missing_required_key(key: str) -> None:
    # ZD-C8: a missing required key is reported on line 1.
    text = "\n".join(line for line in BASE.splitlines() if not line.startswith(key + ":"))
    err = broken(text)
    assert (err.line, err.column) == (1, 1)
    assert f"a '{key}: ...' line" in err.expected


@pytest.mark.parametrize("value", ["four", "-1", "4.0", "٤"])
def test_bad_int(value: str) -> None:
    # ZD-C8
    err = broken(BASE + f"heroes: {value}\n")
    assert (err.line, err.column, err.found) == (5, 9, value)
    assert "a whole number of heroes" in err.expected


@pytest.mark.parametrize("value", ["0", "7"])
def test_heroes_out_of_range(value: str) -> None:
    # ZD-C8, ZD-C2
    err = broken(BASE + f"heroes: {value}\n")
    assert (err.line, err.column, err.found) == (5, 9, value)
    assert "1 to 6 heroes" in err.expected


@pytest.mark.parametrize("value", ["yes", "1", "maybe"])
def test_bad_bool(value: str) -> None:
    # ZD-C8
    err = broken(BASE + f"buy_time: {value}\n")
    assert (err.line, err.column, err.found) == (5, 11, value)
    assert "true or false" in err.expected


def test_bad_mode() -> None:
    # ZD-C8, ZD-C9
    err = broken(BASE + "mode: coop\n")
    assert (err.line, err.column, err.found) == (5, 7, "coop")
    assert "solo or versus" in err.expected


def test_unknown_map_name() -> None:
    # ZD-C8, FR-G2
    err = broken(BASE.replace("zd-corridor", "zd-nowhere"))
    assert (err.line, err.column, err.found) == (3, 6, "zd-nowhere")
    assert "a shipped map (zd-corridor, zd-open)" in err.expected


def test_builtin_board_that_is_no_zero_dark_map() -> None:
    # ZD-C8, FR-G2: the demo board lacks Zero Dark's markers.
    err = broken(BASE.replace("zd-corridor", "demo"))
    assert (err.line, err.column, err.found) == (3, 6, "demo")
    assert "a Zero Dark map that loads" in err.expected and "heroes" in err.expected
    assert isinstance(err.__cause__, BadDataError)


def test_missing_map_file(tmp_path: Path) -> None:
    # ZD-C8: a map path is resolved from the mission file's folder.
    (tmp_path / "elsewhere.board").write_text(shipped_board_text("zd-open"), encoding="utf-8")
    err = broken(BASE.replace("zd-corridor", "maps/elsewhere.board"), folder=tmp_path)
    assert (err.line, err.column, err.found) == (3, 6, "maps/elsewhere.board")
    assert "an existing .board file (relative to the mission file's folder)" in err.expected


def test_map_path_not_a_board(tmp_path: Path) -> None:
    # ZD-C8
    (tmp_path / "depot.txt").write_text(shipped_board_text("zd-open"), encoding="utf-8")
    err = broken(BASE.replace("zd-corridor", "./depot.txt"), folder=tmp_path)
    assert (err.line, err.column, err.found) == (3, 6, "./depot.txt")
    assert "an existing .board file" in err.expected


def test_map_file_that_does_not_load(tmp_path: Path) -> None:
    # ZD-C8: the board's own error (its file and line) is in the mission's error.
    text = shipped_board_text("zd-open").replace("exit: A1 B1 A2", "exit: A1 B1 A2 A1")
    (tmp_path / "bad.board").write_text(text, encoding="utf-8")
    err = broken(BASE.replace("zd-corridor", "bad.board"), folder=tmp_path)
    assert (err.line, err.column, err.found) == (3, 6, "bad.board")
    assert "a Zero Dark map that loads" in err.expected and "bad.board:" in err.expected
    assert isinstance(err.__cause__, BadDataError)


def test_versus_map_without_heroes2() -> None:
    # ZD-C8, ZD-C9: a Versus map needs the second team's deployment zone.
    err = broken(BASE + "mode: versus\n")
    assert (err.line, err.column) == (3, 6)
    assert err.found is not None and err.found.startswith("zd-corridor")
    assert "'heroes2' marker" in err.expected


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("grunt=4,goblin=2", "'goblin=2'"),
        ("grunt=x", "'grunt=x'"),
        ("grunt=2:sleepy", "not 'sleepy'"),
        ("grunt=0", "at least one ping"),
    ],
)
def test_bad_red_force(value: str, message: str) -> None:
    # ZD-C8, FR-P1: the Red Force's own error is in the message.
    err = broken(BASE.replace("grunt=4,elite=2,boss=1:named", value))
    assert (err.line, err.column, err.found) == (4, 12, value)
    assert "a Red Force such as" in err.expected and message in err.expected


def test_unknown_susceptible_tier() -> None:
    # ZD-C8, ZD-P0: the column points at the bad tier.
    err = broken(BASE + "susceptible: grunt, ogre\n")
    assert (err.line, err.column, err.found) == (5, 21, "ogre")
    assert "a bogey tier susceptible to persuasion: grunt, elite, boss, special" in err.expected


def test_susceptible_empty_item() -> None:
    # ZD-C8
    err = broken(BASE + "susceptible: grunt,\n")
    assert (err.line, err.column, err.found) == (5, 20, "")


def test_susceptible_tier_twice() -> None:
    # ZD-C8
    err = broken(BASE + "susceptible: grunt,elite,grunt\n")
    assert (err.line, err.column, err.found) == (5, 26, "grunt")
    assert "each tier once" in err.expected


def test_ally_stat_line_sets_the_persuaded_allys_profile() -> None:
    # ZD-P5: the ally stat line is "overridable per mission": the ``ally`` key, in the
    # docs' stat-line form (any case, any order), is kept normalised, passed on as the
    # ``ally`` option and given to the allies the game makes.
    mission = parse_mission(BASE + "ally: av1 d3 a3 f4 m4\n", file=FILE)
    assert mission.ally == "M4 F4 A3 D3 AV1" and mission.lines["ally"] == 5
    assert mission.config()["ally"] == "M4 F4 A3 D3 AV1"
    state = RS.new_game(mission.config(), 0)
    assert isinstance(state, ZeroDarkState)
    assert (state.ally_profile.m, state.ally_profile.f, state.ally_profile.av) == (4, 4, 1)
    assert state.stats("A1") == state.ally_profile  # an ally's sheet before it has one
    # Not given: the stand-in core's line, and the option is not set by the mission.
    plain = parse_mission(BASE, file=FILE)
    assert plain.ally == "" and "ally" not in plain.config()
    plain_state = RS.new_game(plain.config(), 0)
    assert isinstance(plain_state, ZeroDarkState) and plain_state.stats("A1") == ALLY


@pytest.mark.parametrize(
    ("value", "column", "found", "message"),
    [
        ("M3 F3 A3 D3 AV9", 19, "AV9", "AV from 0 to 8, not 9"),
        ("M3 F3 A3 D3 AV0 m2", 23, "m2", "M is given twice"),
        ("M3 F3 X3 D3 AV0", 13, "X3", "each word a stat (M, F, A, D, AV, Cyl)"),
        ("M3 F3 A3 D13 AV0", 16, "D13", "D from 1 to 12, not 13"),
        ("M3 F3 A3 D3 AV0 Cyl6", 23, "Cyl6", "Cyl from 1 to 5, not 6"),
        ("M3 F3 A3 D3", 18, "M3 F3 A3 D3", "AV missing"),
    ],
)
def test_bad_ally_stat_line(value: str, column: int, found: str, message: str) -> None:
    # ZD-P5, ZD-C8: a bad stat line stops loading with the file, line and column of the
    # offending word (the end of the value for a missing stat).
    err = broken(BASE + f"ally: {value}\n")
    assert (err.line, err.column, err.found) == (5, column, found)
    assert err.expected.startswith("a stat line such as M3 F3 A3 D3 AV0 (ZD-P5)")
    assert message in err.expected


def test_unknown_task() -> None:
    # ZD-C8, ZD-T1
    err = broken(BASE + "task: sabotage\n")
    assert (err.line, err.column, err.found) == (5, 7, "sabotage")
    assert "a priority task: none, rescue, assassination" in err.expected


@pytest.mark.parametrize(("key", "value"), [("task", "observation"), ("buy_time", "false")])
def test_task_or_buy_time_in_versus(key: str, value: str) -> None:
    # ZD-C8, ZD-B4: in Versus both are chosen at the table.
    text = BASE.replace("zd-corridor", "zd-open") + f"mode: versus\n{key}: {value}\n"
    err = broken(text)
    assert (err.line, err.found) == (6, value)
    assert err.column == len(key) + 3
    assert f"no '{key}' in a Versus mission" in err.expected and "at the table" in err.expected


def test_unknown_win_condition() -> None:
    # ZD-C8
    err = broken(BASE + "win: objectives, glory\n")
    assert (err.line, err.column, err.found) == (5, 18, "glory")
    assert "a win condition: " + ", ".join(WIN_CONDITIONS) in err.expected


def test_win_condition_twice() -> None:
    # ZD-C8
    err = broken(BASE + "win: survive,survive\n")
    assert (err.line, err.column, err.found) == (5, 14, "survive")
    assert "each win condition once" in err.expected


@pytest.mark.parametrize("cond", ["rescue", "assassination", "observation", "acquisition"])
def test_win_condition_needs_its_task(cond: str) -> None:
    # ZD-C8, ZD-T3…T6: a task's success can only be required when the mission sets it.
    err = broken(BASE + f"win: survive, {cond}\n")
    assert (err.line, err.column, err.found) == (5, 15, cond)
    assert f"{cond!r} needs 'task: {cond}'" in err.expected
    other = "acquisition" if cond != "acquisition" else "observation"
    err = broken(BASE + f"task: {other}\nwin: {cond}\n")
    assert (err.line, err.column, err.found) == (6, 6, cond)
    assert f"the mission's task is {other!r}" in err.expected


def test_win_condition_needs_a_task_in_versus() -> None:
    # ZD-C8, ZD-B4: Versus tasks are secret, so no task win condition.
    err = broken(BASE.replace("zd-corridor", "zd-open") + "mode: versus\nwin: rescue\n")
    assert (err.line, err.column, err.found) == (6, 6, "rescue")
    assert "in Versus the tasks are chosen at the table" in err.expected


@pytest.mark.parametrize(
    "force",
    [
        "boss=1:named,elite=2:nemesis",
        "grunt=3:synthetic,boss=1:named",
        "grunt=2:named:susceptible",
    ],
)
def test_rescue_without_a_possible_double_agent(force: str) -> None:
    # ZD-C8, ZD-T3: the double agent is never a Nemesis, named or Synthetic bogey.
    text = BASE.replace("grunt=4,elite=2,boss=1:named", force) + "task: rescue\n"
    err = broken(text)
    assert (err.line, err.column, err.found) == (4, 12, force)
    assert "a ping that may be the double agent for the Rescue task (ZD-T3)" in err.expected
    assert err.expected.endswith("(with 'task' on line 5)")


def test_rescue_with_a_possible_double_agent() -> None:
    # ZD-C8, ZD-T3: one unflagged (or only susceptible) ping is enough.
    force = "boss=1:named,grunt=1:susceptible"
    text = BASE.replace("grunt=4,elite=2,boss=1:named", force) + "task: rescue\n"
    assert parse_mission(text).task == "rescue"


def test_assassination_without_a_boss() -> None:
    # ZD-C8, ZD-T4
    text = BASE.replace("grunt=4,elite=2,boss=1:named", "grunt=4,elite=2")
    err = broken(text + "task: assassination\n")
    assert (err.line, err.column, err.found) == (4, 12, "grunt=4,elite=2")
    assert "a boss in the Red Force for the Assassination task (ZD-T4)" in err.expected
    assert err.expected.endswith("(with 'task' on line 5)")


def test_error_message_names_file_line_and_column() -> None:
    # ZD-C8
    err = broken(BASE + "mode: coop\n")
    assert str(err).startswith("test.mission:5:7: expected a mode: solo or versus")


# --------------------------------------------------------------------- from a path


def test_load_mission_from_a_path_with_a_relative_map(tmp_path: Path) -> None:
    # ZD-C8: a relative map path is resolved from the mission file's folder.
    (tmp_path / "maps").mkdir()
    board = tmp_path / "maps" / "depot.board"
    board.write_text(shipped_board_text("zd-open"), encoding="utf-8")
    (tmp_path / "missions").mkdir()
    path = tmp_path / "missions" / "raid.mission"
    path.write_text(
        "name: Raid\nmap: ../maps/depot.board\nheroes: 3\nred_force: grunt=3,boss=1\n"
        "mode: versus\n",
        encoding="utf-8",
    )
    mission = load_mission(str(path))
    assert mission.file == str(path)
    assert Path(mission.map).is_absolute()
    assert Path(mission.map) == board.resolve()
    state = RS.new_game(mission.config(), 0)
    assert isinstance(state, ZeroDarkState)
    assert len(state.heroes()) == 6


def test_load_mission_from_a_path_reports_that_file(tmp_path: Path) -> None:
    # ZD-C8: errors name the file as given.
    path = tmp_path / "bad.mission"
    path.write_text(BASE + "heroes: 9\n", encoding="utf-8")
    with pytest.raises(BadDataError) as info:
        load_mission(str(path))
    assert (info.value.file, info.value.line) == (str(path), 5)


def test_load_mission_not_utf8(tmp_path: Path) -> None:
    # ZD-C8: a mission file is UTF-8 text.
    path = tmp_path / "latin.mission"
    path.write_bytes(BASE.encode() + "description: caf\xe9\n".encode("latin-1"))
    with pytest.raises(BadDataError, match="UTF-8") as info:
        load_mission(str(path))
    assert info.value.file == str(path)


def test_play_a_mission_with_a_bot_and_replay_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # ZD-C8: `play zero-dark --mission NAME` sets the mission's options; the record
    # replays to the same end, per seat and whole.
    from fogofwar.cli import main
    from fogofwar.core.record import Record

    path = tmp_path / "boss.json"
    code = main(
        [
            "play",
            "zero-dark",
            "--mission",
            "the-boss",
            "--seat",
            "team=bot",
            "--seed",
            "1",
            "--record",
            str(path),
        ]
    )
    out = capsys.readouterr().out
    assert code == 0 and "Result:" in out
    record = Record.load(path)
    assert record.config["mission"] == "the-boss" and record.config["task"] == "assassination"
    assert record.config["win"] == "assassination,survive"
    state = record.replay()
    assert state.outcome() == record.outcome
    assert main(["replay", str(path), "--seat", "team"]) == 0
    assert "mission" in capsys.readouterr().out


def test_a_resolved_config_does_not_read_the_mission_again(tmp_path: Path) -> None:
    # ZD-C8: a record holds the resolved options, so it replays without its mission file
    # (the mission's options are exactly those a resolved config carries).
    from fogofwar.games.zero_dark.ruleset import MISSION_OPTIONS

    assert set(load_mission("the-spy").config()) == MISSION_OPTIONS
    (tmp_path / "mine.mission").write_text(BASE.replace("zd-corridor", "zd-open"), encoding="utf-8")
    path = str(tmp_path / "mine.mission")
    resolved = RS.resolve_config({"mission": path})
    assert resolved["map"] == "zd-open"
    (tmp_path / "mine.mission").unlink()
    assert RS.resolve_config(dict(resolved)) == resolved
    with pytest.raises(BadDataError, match=r"mine\.mission"):
        RS.resolve_config({"mission": path})  # a bare mission name still needs the file


# ------------------------------------------------------- the map's digest in a record


def custom_mission(tmp_path: Path) -> tuple[Path, str]:
    """A mission file naming a board file of its own beside it (zd-open's text)."""
    (tmp_path / "good.board").write_text(shipped_board_text("zd-open"), encoding="utf-8")
    (tmp_path / "good.mission").write_text(
        "name: Good\nmap: good.board\nred_force: grunt=4,elite=2,boss=1\n", encoding="utf-8"
    )
    return tmp_path / "good.board", str(tmp_path / "good.mission")


def played(config: dict[str, object], seed: int, actions: int) -> Record:
    """A record of ``actions`` random legal actions (fewer if the mission ends)."""
    rec = Recorder(RS, config, seed)
    pick = stream(seed, "map-digest")
    while not rec.state.is_over and len(rec.actions) < actions:
        seat = sorted(rec.state.to_act())[0]
        rec.apply(pick.choice(list(rec.state.legal_actions(seat))))
    return Record.loads(rec.record().dumps())


def test_a_record_keeps_its_maps_digest_and_refuses_the_map_changed_since(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # FR-G2, ZD-C8 (the QA case): a record of a mission on a board file keeps the
    # board's digest; once a crate is moved in the file, verify, replay and resume say
    # the file changed since the record was made (naming it), not that the record was
    # changed at some action.
    from fogofwar.cli import main

    board, mission = custom_mission(tmp_path)
    record = played({"mission": mission}, 1, 400)
    assert record.config["map_digest"] == map_digest(str(board))
    assert len(str(record.config["map_digest"])) == 16
    path = tmp_path / "custom.json"
    path.write_text(record.dumps(), encoding="utf-8")
    assert main(["verify", str(path)]) == 0
    capsys.readouterr()
    text = board.read_text(encoding="utf-8")
    moved = text.replace("  .t..c....vv", "  .t...c...vv", 1)  # one crate, one square on
    assert moved != text and len(moved) == len(text)
    board.write_text(moved, encoding="utf-8")
    # The same size: a later time of change tells the new version apart (a coarse clock
    # could give the edit the old one within a test).
    stat = board.stat()
    os.utime(board, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))
    changed = "the file changed since the record was made"
    assert main(["verify", str(path)]) == 1
    out = "".join(capsys.readouterr().out.split())  # the console wraps long lines
    assert "".join(changed.split()) in out and str(board) in out and "atorbefore" not in out
    with pytest.raises(BadDataError) as info:
        Record.loads(path.read_text(encoding="utf-8")).replay()
    assert changed in str(info.value) and str(board) in str(info.value)
    assert not verify_record(Record.loads(path.read_text(encoding="utf-8"))).verified
    # The file as it was replays again.
    board.write_text(text, encoding="utf-8")
    os.utime(board, ns=(stat.st_atime_ns, stat.st_mtime_ns + 2 * 10**9))
    assert verify_record(Record.loads(path.read_text(encoding="utf-8"))).verified


def test_a_map_set_by_option_and_the_shipped_maps_get_a_digest(tmp_path: Path) -> None:
    # FR-G2: the digest is filled in for any map (a shipped one's text too), kept when
    # given, and a malformed one is refused with the option's name.
    board, _ = custom_mission(tmp_path)
    cfg = RS.resolve_config({"map": str(board)})
    assert cfg["map_digest"] == map_digest(str(board))
    shipped = RS.resolve_config({})["map_digest"]
    assert shipped == map_digest("zd-corridor") and shipped != cfg["map_digest"]
    assert RS.resolve_config(dict(cfg)) == cfg
    for bad in ("xyz", "ABCDEF0123456789", "0" * 17):
        with pytest.raises(RulesError, match="option map_digest: expected empty or 16"):
            RS.resolve_config({"map_digest": bad})
    # A map that does not load keeps an empty digest: the game says why.
    assert RS.resolve_config({"map": str(tmp_path / "none.board")})["map_digest"] == ""


# ------------------------------------------------ the Red Force against the ping sites


def test_more_pings_than_the_maps_free_ping_sites(tmp_path: Path) -> None:
    # FR-P1, ZD-C8 (the QA case): each ping needs a ping site no hero deploys on, so a
    # mission asking for more is refused on load at its red_force line, not when the
    # game starts.
    text = "name: A\nmap: zd-open\nred_force: grunt=20\n"
    err = broken(text)
    assert (err.line, err.column, err.found) == (3, 12, "grunt=20 (20 pings)")
    assert err.expected.startswith("at most 10 pings, one for each ping site of the map")
    assert "(zd-open on line 2, FR-P1)" in err.expected
    path = tmp_path / "toomany.mission"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(BadDataError, match=r"toomany\.mission:3:12: expected at most 10"):
        load_mission(str(path))
    # As many pings as free sites is fine, and the game places them all.
    mission = parse_mission(text.replace("20", "10"))
    state = RS.new_game(mission.config(), 1)
    assert isinstance(state, ZeroDarkState) and len(state.pings()) == 10


# ------------------------------------- one consistency check for files and options


@pytest.mark.parametrize(
    ("lines", "options", "message"),
    [
        ("win: rescue", {"win": "rescue"}, "'rescue' needs task=rescue"),
        (
            "task: observation\nwin: acquisition",
            {"task": "observation", "win": "acquisition"},
            "'acquisition' needs task=acquisition",
        ),
        (
            "mode: versus\nwin: objectives, rescue",
            {"mode": "versus", "win": "objectives,rescue"},
            "in Versus the tasks are chosen at the table",
        ),
        (
            "task: rescue\nred_force: grunt=2:named",
            {"task": "rescue", "red_force": "grunt=2:named"},
            "may be the double agent",
        ),
        (
            "task: assassination\nred_force: grunt=4",
            {"task": "assassination", "red_force": "grunt=4"},
            "needs a boss",
        ),
    ],
)
def test_a_mission_file_and_the_options_refuse_the_same_combinations(
    lines: str, options: dict[str, str], message: str
) -> None:
    # ZD-C8, ZD-T1…T6, ZD-B4: one check across the options serves mission files and
    # --set alike, so neither accepts what the other refuses.
    text = "name: Test\nmap: zd-open\n" + lines + "\n"
    if "red_force" not in lines:
        text += "red_force: grunt=4,elite=2,boss=1:named\n"
    err = broken(text)
    assert err.line >= 3 and err.column is not None
    with pytest.raises(RulesError, match=message):
        RS.resolve_config({"map": "zd-open", **options})


def test_a_shipped_missions_task_cannot_be_dropped_by_option(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # ZD-C8, ZD-T3 (the QA case): the-spy wins by rescue, so --set task=none would make
    # it unwinnable: refused in one line naming the options, exit 2.
    from fogofwar.cli import main

    with pytest.raises(RulesError, match=r"win: the condition 'rescue' needs task=rescue"):
        RS.resolve_config({"mission": "the-spy", "task": "none"})
    assert RS.resolve_config({"mission": "the-spy", "task": "rescue"})["task"] == "rescue"
    code = main(["sim", "zero-dark", "-n", "1", "--set", "win=rescue"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1
    assert "needs task=rescue" in err and "the task is 'none'" in err
