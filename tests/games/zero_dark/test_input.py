"""What a person or a file hands Zero Dark, however wrong: the action notation, the
``--set`` options and mission files. Each input either works or fails at once with one
:class:`RulesError` (an :class:`InvalidNotationError` for notation, a
:class:`BadDataError` naming the file and line for files) — never a hang, a
``MemoryError`` or another exception. Counts are bounded by the game (FR-P1's Red Force,
ZD-C2's heroes, FR-G1's map size) and names are checked against what the game has."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fogofwar.core.errors import BadDataError, InvalidNotationError, RulesError
from fogofwar.core.files import DATA_FILE_LIMIT
from fogofwar.core.game import Action
from fogofwar.games.zero_dark.maps import MAX_MAP_SIDE, load_map
from fogofwar.games.zero_dark.missions import load_mission, parse_mission
from fogofwar.games.zero_dark.state import (
    MAX_RED_FORCE,
    TEAM,
    ZeroDarkState,
    parse_red_force_specs,
)

from .helpers import RS, board_text

FAST = 10.0
"""Seconds an input may take to work or fail (generous: a shared 2-core machine)."""

#: Text with the characters that broke parsers: unicode digits, control characters.
SPECIAL = ["²", "①", "٣", "Ⅻ", "\x00", "\x1b", "\u200b", "\ufeff", "ß", "İ", "\n", "=", ":"]
texts = st.one_of(
    st.text(),
    st.text(alphabet=st.sampled_from([*SPECIAL, "a", "H", "1", " ", ","]), max_size=40),
    st.builds(
        lambda s, n: s * n, st.sampled_from(["9", "x", "²", " ", "H1 "]), st.integers(1, 5000)
    ),
)


# ------------------------------------------------------------------ the notation


@pytest.fixture(scope="module")
def solo() -> ZeroDarkState:
    state = RS.new_game({}, 1)
    assert isinstance(state, ZeroDarkState)
    return state


@settings(deadline=None, derandomize=True, max_examples=300)
@given(text=texts)
def test_the_notation_parser_is_total(solo: ZeroDarkState, text: str) -> None:
    # Any text gives actions or an InvalidNotationError saying what was expected; the
    # actions it gives are then legal or refused with an IllegalActionError (RulesError).
    state = solo.clone()
    try:
        actions = RS.parse_actions(text, TEAM, state)
    except InvalidNotationError as exc:
        assert "expected" in exc.reason or "takes" in exc.reason
        assert "\n" not in str(exc)
        return
    assert actions and all(isinstance(a, Action) and a.seat == TEAM for a in actions)
    assert all(isinstance(x, str) for a in actions for x in a.args)
    for action in actions:
        try:
            state.apply(action)
        except RulesError:
            break


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("²", "action word"),
        ("step ²", None),  # an action (a square that is not one): refused when applied
        ("move", "one or more squares"),
        ("", "expected an action"),
        ("   \t", "expected an action"),
        ("activate", "1 argument"),
        ("activate H1 H2", "1 argument"),
        ("prepare rescue", "2 arguments"),
        ("stop now", "no argument"),
        ("①", "action word"),
        ("٣ ٣", "action word"),
        ("\x00", "action word"),
        ("flip " + "x" * 100_000, "no argument"),
    ],
)
def test_notation_errors_say_what_was_expected(
    solo: ZeroDarkState, text: str, says: str | None
) -> None:
    # The case: "²" is a digit to str.isdigit but not to int(): it was a
    # ValueError; now it is an InvalidNotationError (or an action to refuse).
    if says is None:
        (action,) = RS.parse_actions(text, TEAM, solo)
        assert action == Action(TEAM, "step", ("²",))
        return
    with pytest.raises(InvalidNotationError, match=says) as info:
        RS.parse_actions(text, TEAM, solo)
    assert len(str(info.value)) < 500


def test_the_notation_in_any_case(solo: ZeroDarkState) -> None:
    assert RS.parse_actions("ACTIVATE h2", TEAM, solo) == [Action(TEAM, "activate", ("H2",))]
    assert RS.parse_actions("door f3 E", TEAM, solo) == [Action(TEAM, "door", ("F3", "e"))]
    assert RS.parse_actions("Prepare Rescue BUY", "team1", solo) == [
        Action("team1", "prepare", ("rescue", "buy"))
    ]
    assert RS.parse_actions("play 10h", TEAM, solo) == [Action(TEAM, "play", ("10H",))]


# ------------------------------------------------------------------ options


def start(assignments: list[str]) -> None:
    """``--set`` assignments, parsed and a game made: it works or raises RulesError."""
    began = time.monotonic()
    try:
        config = RS.config_schema.parse_sets(assignments)
        state = RS.new_game(config, 3)
        for seat in RS.seats(state.config):
            state.view(seat).canonical()
        RS.encoding(state.config)
    except RulesError as exc:
        assert "\n" not in str(exc).strip(), exc
    assert time.monotonic() - began < FAST, assignments


FRAGMENTS = [
    "grunt", "elite", "boss", "special", "1", "2", "3", "S", "=", ",", ":", "named",
    "nemesis", "synthetic", "susceptible", "99999999999999", "60", "61", "0", "-1", "²",
    "①", "٣", "none", "dragon", "Grunt", "objectives", "survive", "exit", "rescue",
    "zd-open", "zd-corridor", "demo", ".board", ".mission", "/", "..", "\x00", " ", "",
]  # fmt: skip
values = st.one_of(texts, st.lists(st.sampled_from(FRAGMENTS), max_size=12).map("".join))
STRING_OPTIONS = [o.name for o in RS.config_schema.options]


@settings(deadline=None, derandomize=True, max_examples=250)
@given(key=st.sampled_from(STRING_OPTIONS), value=values)
def test_any_option_value_works_or_fails_quickly_with_one_line(key: str, value: str) -> None:
    # Every option (ZD-C2 heroes, FR-P1 red_force, ZD-P0 susceptible, ZD-C8 win and
    # mission, FR-G2 map, the switches): any text works or fails at once with one
    # RulesError — never a hang, a MemoryError or another exception.
    start([f"{key}={value}"])


@pytest.mark.parametrize(
    ("assignment", "says"),
    [
        ("red_force=grunt=99999999999999", "count from 0 to 60"),  # was a MemoryError
        ("red_force=grunt=" + "9" * 5000, "count from 0 to 60"),
        ("red_force=grunt=²", "count from 0 to 60"),  # was a ValueError
        (f"red_force=grunt={MAX_RED_FORCE},boss=1", f"at most {MAX_RED_FORCE} pings"),
        ("red_force=grunt=0", "at least one ping"),
        ("susceptible=dragon", "grunt, elite, boss, special"),  # was accepted, did nothing
        ("susceptible=grunt,grunt", "each tier once"),
        ("win=", "at least one condition"),
        ("win=glory", "objectives, exit"),
        ("map=nope", "zd-corridor, zd-open"),
        ("map=demo", "marker"),
        ("map=/dev/zero", "/dev/zero"),
        ("map=no/such.board", "no/such.board"),
        ("map=a\x00b.board", "control characters"),
        ("mission=nope", "the-spy"),
        ("mission=/dev/zero", "/dev/zero"),
        ("mission=a\x00b.mission", "control characters"),
        ("task=dragon", "rescue"),
        ("heroes=99999999999999", "above 6"),
    ],
)
def test_bad_options_are_one_line_rules_errors(assignment: str, says: str) -> None:
    # FR-P1: a Red Force of at most MAX_RED_FORCE pings, counts in ASCII digits; ZD-P0:
    # susceptible names tiers; ZD-C8: win names conditions; FR-G2: map names a map.
    began = time.monotonic()
    with pytest.raises(RulesError, match=says) as info:
        RS.new_game(RS.config_schema.parse_sets([assignment]), 0)
    assert "\n" not in str(info.value) and len(str(info.value)) < 400
    assert time.monotonic() - began < FAST


def test_good_option_spellings() -> None:
    # ZD-P0, ZD-C8: tiers and conditions in any case, "none" for no tier.
    state = RS.new_game({"susceptible": "Grunt, ELITE", "win": "Objectives,SURVIVE"}, 0)
    assert isinstance(state, ZeroDarkState)
    assert state.susceptible_tiers == {"grunt", "elite"}
    assert state.win == ("objectives", "survive")
    assert RS.new_game({"susceptible": "none"}, 0) is not None
    assert len(parse_red_force_specs(f"grunt={MAX_RED_FORCE}")) == MAX_RED_FORCE


# ------------------------------------------------------------------ mission files

BASE = """\
# A test mission.
name: Test
map: zd-corridor
heroes: 4
red_force: grunt=4,elite=2,boss=1:named
susceptible: grunt
task: rescue
win: rescue, survive
"""
KEYS = ["name", "description", "map", "mode", "heroes", "red_force", "susceptible", "task"]
KEYS += ["buy_time", "win", "nonsense", ""]


def parse_or_refuse(text: str, file: str = "x.mission") -> None:
    began = time.monotonic()
    try:
        mission = parse_mission(text, file=file)
    except BadDataError as exc:
        assert exc.file == file and exc.expected
        assert "\n" not in str(exc).strip()
    else:
        RS.new_game(mission.config(), 0)
    assert time.monotonic() - began < FAST


@settings(deadline=None, derandomize=True, max_examples=200)
@given(key=st.sampled_from(KEYS), value=values, where=st.integers(0, 9), drop=st.booleans())
def test_any_mission_file_variation_works_or_names_its_line(
    key: str, value: str, where: int, drop: bool
) -> None:
    # ZD-C8: a mission with any key's value replaced (or a line added) loads, or fails
    # with a BadDataError naming the file, line and what was expected — for counts too
    # (FR-P1's Red Force, ZD-C2's heroes).
    lines = BASE.splitlines()
    lines = [ln for ln in lines if not (drop and ln.startswith(key + ":"))]
    lines.insert(min(where, len(lines)), f"{key}: {value}")
    parse_or_refuse("\n".join(lines) + "\n")


@pytest.mark.parametrize(
    ("line", "says"),
    [
        ("red_force: grunt=99999999999", "count from 0 to 60"),  # was a MemoryError
        ("red_force: grunt=²", "count from 0 to 60"),
        (f"red_force: grunt={MAX_RED_FORCE + 1}", f"at most {MAX_RED_FORCE} pings"),
        ("heroes: 99999999999999999999", "heroes, 1 to 6"),
        ("heroes: ٣", "whole number"),
    ],
)
def test_mission_counts_are_bounded(line: str, says: str) -> None:
    text = BASE.replace("red_force: grunt=4,elite=2,boss=1:named", "red_force: grunt=1,boss=1")
    key = line.split(":")[0]
    text = "\n".join(ln for ln in text.splitlines() if not ln.startswith(key + ":"))
    text += "\n" + line + "\n"
    began = time.monotonic()
    with pytest.raises(BadDataError, match=says) as info:
        parse_mission(text, file="raid.mission")
    assert info.value.file == "raid.mission" and info.value.line == text.count("\n")
    assert time.monotonic() - began < FAST


@pytest.mark.parametrize(
    ("content", "says"),
    [
        (b"\x00\x01\x02\xff\xfe" * 100, "raid.mission"),  # binary junk
        (BASE.encode() + b"description: caf\xe9\n", "UTF-8"),  # invalid UTF-8
        (BASE.encode() + b"description: \x00\n", "control character"),
        (BASE.encode() + b"#" * DATA_FILE_LIMIT, "at most 1 MiB"),  # too large
    ],
)
def test_a_mission_file_that_is_no_text_names_the_file(
    tmp_path: Path, content: bytes, says: str
) -> None:
    # ZD-C8: a mission file is UTF-8 text of at most 1 MiB (fogofwar.core.files).
    path = tmp_path / "raid.mission"
    path.write_bytes(content)
    with pytest.raises(BadDataError, match=says) as info:
        load_mission(str(path))
    assert info.value.file == str(path)
    with pytest.raises(RulesError, match=r"raid\.mission"):
        RS.resolve_config({"mission": str(path)})


def test_a_mission_path_that_is_a_folder_or_missing(tmp_path: Path) -> None:
    for name in (str(tmp_path) + "/", str(tmp_path / "none.mission")):
        with pytest.raises(BadDataError):
            load_mission(name)


def big_map(side: int) -> str:
    rows = "\n".join(["." * side] * side)
    markers = {
        "heroes": "A1 B1 C1 D1 E1 F1",
        "ping": "A9 B9 C9 D9 E9 F9 G9 H9",
        "deployment": "A12 B12 C12",
        "exit": "A14",
        "objective": "A16",
    }
    return board_text(rows, markers=markers, name=f"Big {side}")


@pytest.mark.parametrize(("side", "ok"), [(MAX_MAP_SIDE, True), (MAX_MAP_SIDE + 1, False)])
def test_map_size_is_bounded(tmp_path: Path, side: int, ok: bool) -> None:
    # FR-G1: a Zero Dark map is at most MAX_MAP_SIDE squares a side (a 4-foot table in
    # inch squares); a larger one is a BadDataError naming the file, by option or mission.
    path = tmp_path / "big.board"
    path.write_text(big_map(side), encoding="utf-8")
    mission = tmp_path / "big.mission"
    mission.write_text("name: Big\nmap: big.board\nred_force: grunt=2\n", encoding="utf-8")
    if ok:
        assert load_map(str(path)).width == side
        assert load_mission(str(mission)).map == str(path.resolve())
        return
    with pytest.raises(BadDataError, match=f"at most {MAX_MAP_SIDE}") as info:
        load_map(str(path))
    assert info.value.file == str(path)
    with pytest.raises(RulesError, match=f"at most {MAX_MAP_SIDE}"):
        RS.new_game({"map": str(path)}, 0)
    with pytest.raises(BadDataError, match=r"big\.mission:2"):
        load_mission(str(mission))


def test_a_map_file_that_is_no_text_names_the_file(tmp_path: Path) -> None:
    # FR-G2: a map given by path is read as bounded UTF-8 text.
    path = tmp_path / "junk.board"
    path.write_bytes(b"\xff\xfe\x00junk" * 10)
    with pytest.raises(BadDataError) as info:
        load_map(str(path))
    assert info.value.file == str(path)


def test_one_line_errors_at_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    # The cases through the command: one line and exit status 2.
    from fogofwar.cli import main

    for assignment in ("red_force=grunt=99999999999999", "susceptible=dragon"):
        assert main(["sim", "zero-dark", "-n", "1", "--set", assignment]) == 2
        err = capsys.readouterr().err.strip()
        assert err.startswith("error:") and err.count("\n") == 0, err
