"""``fogofwar study``: what a study file may say and how a wrong one is refused, which
cells are compared and how the comparisons read, and what ``--resume`` keeps."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from fogofwar.cli import main
from fogofwar.core.errors import BadDataError
from fogofwar.sim.stats import proportion
from fogofwar.sim.study import (
    MAX_CELLS,
    MAX_GAMES,
    _sentence,
    load_study,
    read_games,
    run_study,
    study_game,
)

ROOT = Path(__file__).resolve().parents[1]


def write(tmp_path: Path, text: str, name: str = "s.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def refused(path: Path) -> BadDataError:
    with pytest.raises(BadDataError) as info:
        load_study(path)
    return info.value


WF = '[study]\nruleset = "warfighter"\n'

# --------------------------------------------------------------------------- comparisons


def test_cells_that_set_different_options_are_compared_by_their_resolved_config(
    tmp_path: Path,
) -> None:
    # A variant that sets nothing plays the rule set's default turns (0: the mission's
    # own limit); one that sets turns = 3 differs from it in that option only, so the
    # two are compared (they once were not: they set different option keys).
    text = WF + (
        'games = 20\n[seats]\nsquad = "wf-heuristic"\n'
        '[[variant]]\nname = "baseline"\n'
        '[[variant]]\nname = "short"\nconfig = { turns = 3 }\n'
    )
    study = load_study(write(tmp_path, text))
    assert study.cells[0].config["turns"] == 0 and study.cells[1].config["turns"] == 3
    said = run_study(study, workers=1)["comparisons"]
    assert {c["side"] for c in said} == {"squad", "hostiles"}
    assert all(c["cells"] == ["baseline", "short"] and c["option"] == "turns" for c in said)
    assert all(c["values"] == [0, 3] for c in said)
    squad = next(c for c in said if c["side"] == "squad")
    assert "with turns=0" in squad["sentence"] and "with turns=3" in squad["sentence"]


def test_every_pair_that_differs_in_one_thing_is_compared(tmp_path: Path) -> None:
    # A (random squad), B (the study's wf-heuristic), C (turns = 4) and D (turns = 6):
    # A-B differ in the squad's bot, B-C, B-D and C-D in the turns; A-C and A-D in two
    # things, which are not compared.
    text = WF + (
        'games = 10\nseed = 4\n[seats]\nsquad = "wf-heuristic"\n'
        '[[variant]]\nname = "A"\nseats = { squad = "random" }\n'
        '[[variant]]\nname = "B"\n'
        '[[variant]]\nname = "C"\nconfig = { turns = 4 }\n'
        '[[variant]]\nname = "D"\nconfig = { turns = 6 }\n'
    )
    said = run_study(load_study(write(tmp_path, text)), workers=1)["comparisons"]
    pairs = {(tuple(c["cells"]), c["option"]) for c in said}
    assert pairs == {
        (("A", "B"), "squad bot"),
        (("B", "C"), "turns"),
        (("B", "D"), "turns"),
        (("C", "D"), "turns"),
    }


def test_comparison_sentences_name_what_the_two_cells_share(tmp_path: Path) -> None:
    # In a 2x2 study each option's comparison is made twice, once at each value of the
    # other: each sentence says which, so no two read alike.
    text = """
[study]
ruleset = "rock-n-roll"
games = 6
seed = 2
[vary]
rounds = [3, 5]
max_rd_per_roll = [1, 3]
"""
    said = run_study(load_study(write(tmp_path, text)), workers=1)["comparisons"]
    sentences = [c["sentence"] for c in said]
    assert len(said) == 8 and len(set(sentences)) == len(sentences)
    for c in said:
        other = "max_rd_per_roll" if c["option"] == "rounds" else "rounds"
        assert c["shared"] == {other: c["shared"][other]}
        assert c["sentence"].startswith(f"with {other}={c['shared'][other]}: ")
    # A variant crossed with [vary]: the variant is named where both cells are its.
    text = WF + (
        "games = 6\n[vary]\nturns = [4, 6]\n"
        '[[variant]]\nname = "heuristic"\nseats = { squad = "wf-heuristic" }\n'
        '[[variant]]\nname = "random"\nseats = { squad = "random" }\n'
    )
    said = run_study(load_study(write(tmp_path, text, "v.toml")), workers=1)["comparisons"]
    by = {(tuple(c["cells"]), c["side"]): c["sentence"] for c in said}
    assert by[("heuristic, turns=4", "heuristic, turns=6"), "squad"].startswith(
        'in "heuristic": squad wins '
    )
    assert by[("heuristic, turns=4", "random, turns=4"), "squad"].startswith(
        "with turns=4: squad wins "
    )


NOT_CLEAR = r" — not a clear difference at 95% \(the interval holds 0\)$"
REAL = r" — a real difference at 95%$"
SIZE = r"\d+\.\d percentage points \[-?\d+\.\d, -?\d+\.\d\]"


@pytest.mark.parametrize(
    ("a", "b", "says"),
    [
        ((0, 20), (0, 20), "squad wins no game with X and none with Y" + NOT_CLEAR),
        ((20, 20), (20, 20), "squad wins every game with X and every one with Y" + NOT_CLEAR),
        (
            (10, 20),
            (10, 20),
            r"squad wins as often with X as with Y \(a difference of 0\.0 percentage points "
            r"\[-\d+\.\d, \d+\.\d\]\)" + NOT_CLEAR,
        ),
        (
            (0, 20),
            (16, 20),
            r"squad wins no game with X and 80\.0% of the games with Y: "
            r"80\.0 percentage points \[\d+\.\d, \d+\.\d\] less often" + REAL,
        ),
        (
            (16, 20),
            (0, 20),
            r"squad wins 80\.0% of the games with X and none with Y: "
            r"80\.0 percentage points \[\d+\.\d, \d+\.\d\] more often" + REAL,
        ),
        (
            (16, 20),
            (8, 20),
            r"squad wins 40\.0 percentage points \[\d+\.\d, \d+\.\d\] more often with X "
            "than with Y" + REAL,
        ),
        ((8, 20), (9, 20), rf"squad wins {SIZE} less often with X than with Y" + NOT_CLEAR),
    ],
)
def test_a_win_rate_of_0_or_1_is_said_plainly(
    a: tuple[int, int], b: tuple[int, int], says: str
) -> None:
    # "wins 0.0% [-16.1, 16.1] more often" once said that nothing differs, and "100.0%
    # less often" that a side never won. A difference is in percentage points.
    sentence = _sentence("squad", proportion(*a), proportion(*b), "with X", "with Y")
    assert re.fullmatch(says, sentence), sentence


# --------------------------------------------------------------------------- refusals


@pytest.mark.parametrize(
    ("text", "line", "words", "found"),
    [
        (
            WF + "[vari]\nturns = [4, 6]\n",
            3,
            "a [study], [config], [seats] or [vary] table",
            "[vari]",
        ),
        (WF + "gmaes = 5\n", 3, "a key of [study]: ruleset, games, seed, metrics", "gmaes = 5"),
        # QA: a study took seed = -1, which sim --seed (the same cells) refuses.
        (WF + "seed = -1\n", 3, "seed = a whole number from 0 to 2**64 - 1", "seed = -1"),
        (WF + 'config = "x"\n', 3, "[config] is a table of its own", 'config = "x"'),
        ("games = 3\n" + WF, 1, "a [study], [config]", "games = 3"),
        (WF + "[study.extra]\nx = 1\n", 3, "a key of [study]", "extra = { x = 1 }"),
        (
            WF + '[[variant]]\nname = "a"\nconfg = { turns = 4 }\n',
            5,
            "a key of a [[variant]]: name, config, seats",
            "confg = { turns = 4 }",
        ),
    ],
)
def test_typos_in_a_study_file_are_refused(
    tmp_path: Path, text: str, line: int, words: str, found: str
) -> None:
    # A misspelt table or key once ran a plain study as if it were not there.
    path = write(tmp_path, text)
    error = refused(path)
    assert (error.file, error.line, error.found) == (str(path), line, found), str(error)
    assert words in error.expected


@pytest.mark.parametrize(
    ("text", "line", "words", "found"),
    [
        (
            WF + "[[variant]]\nconfig = { turns = 5 }\n",
            3,
            'a name = "..." for this [[variant]]',
            None,
        ),
        (
            WF + '[[variant]]\nname = "a"\nseats = { squad = 3 }\n',
            5,
            'a bot\'s name: squad = "bot"',
            "squad = 3",
        ),
        (
            WF + '[[variant]]\nname = "a"\n[[variant]]\nname = "a"\n',
            6,
            "a name of its own",
            'name = "a"',
        ),
        (WF + "[vary]\nturns = [4, 6, 4]\n", 4, "values of turns that differ", "4"),
        (
            '[study]\nruleset = "specter-ops"\n[seats]\nhunter1 = "so-hunter:aggression"\n',
            4,
            "a bot's parameters as key=value",
            "so-hunter:aggression",
        ),
        (
            '[study]\nruleset = "specter-ops"\n[[variant]]\nname = "a"\n'
            'seats = { hunter2 = "so-hunter:sensor" }\n',
            5,
            "key=value",
            "so-hunter:sensor",
        ),
        ("[study]\ngames = 3\n", 1, 'ruleset = "..." in the [study] table', None),
        ('[study]\nruleset = ""\n', 2, 'ruleset = "..." in the [study] table', 'ruleset = ""'),
        (
            '[study]\nruleset = "warfighter"\n[config]\nturns = 5\n[[variant]]\nname = "a"\n'
            "config = { turns = 99 }\n",
            7,
            'a valid configuration for cell "a"',
            None,
        ),
        (
            '[study]\nruleset = "specter-ops"\n[seats]\nhunter1 = "so-hunter"\n[[variant]]\n'
            'name = "a"\n[[variant]]\nname = "b"\nseats = { agent = "wf-heuristic" }\n',
            9,
            "a bot that plays agent in this game",
            None,
        ),
        (
            '[study]\nruleset = "specter-ops"\n[seats]\nhunter1 = "so-hunter:aggression=2"\n',
            4,
            "a bot that plays hunter1 in this game, with valid parameters",
            "so-hunter: aggression is a number from 0 to 1, not 2",
        ),
    ],
)
def test_errors_say_the_line_and_what_was_expected_without_reprs(
    tmp_path: Path, text: str, line: int, words: str, found: str | None
) -> None:
    # Each once said a Python repr ("{'config': {'turns': 5}}"), no line, or the wrong
    # thing ("No module named 'so-hunter'", "unknown rule set ''").
    path = write(tmp_path, text)
    error = refused(path)
    assert (error.file, error.line) == (str(path), line), str(error)
    assert words in error.expected, str(error)
    if found is not None:
        assert error.found == found, str(error)
    assert "{'" not in str(error) and "No module" not in str(error)
    assert "unknown rule set ''" not in str(error)


def test_a_study_file_that_is_not_utf8_is_a_bad_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "b.toml"
    path.write_bytes(b"\xff\xfe[study]\n")
    error = refused(path)
    assert (error.file, error.line, error.found) == (str(path), 1, "byte 0xff")
    assert "UTF-8" in error.expected
    path.write_bytes(b'[study]\nruleset = "warfighter"\n# caf\xe9\n')
    assert refused(path).line == 3
    assert main(["study", str(path)]) == 2
    err = capsys.readouterr().err
    assert "b.toml:3" in err and "UTF-8" in err and "Traceback" not in err


@pytest.mark.parametrize(
    ("count", "found"),
    [
        ("99999999999999999999", "games = 99999999999999999999"),
        (str(10**9), f"games = {10**9}"),
        (str(MAX_GAMES + 1), f"games = {MAX_GAMES + 1}"),
        ("0", "games = 0"),
        ("-3", "games = -3"),
        ("5.5", "games = 5.5"),
    ],
)
def test_games_out_of_range_are_refused_with_the_range(
    tmp_path: Path, count: str, found: str
) -> None:
    # Such a number once raised OverflowError, or set out to hold 10**9 games' results.
    path = write(tmp_path, WF + f"games = {count}\n")
    error = refused(path)
    assert (error.line, error.found) == (3, found), str(error)
    assert f"1 or more and at most {MAX_GAMES:,}" in error.expected


def test_the_games_of_all_cells_and_the_cells_are_bounded(tmp_path: Path) -> None:
    # Each cell's games fit, but not all the cells' together; too many cells are
    # refused before any is made; a number of thousands of digits is a bad file.
    turns = ", ".join(str(t) for t in range(2, 13))  # 11 cells
    error = refused(write(tmp_path, WF + f"games = 100000\n[vary]\nturns = [{turns}]\n"))
    assert error.line == 3 and f"at most {MAX_GAMES:,} games in all" in error.expected
    assert error.found == "games = 100,000 in each of 11 cells: 1,100,000 games"
    assert load_study(write(tmp_path, WF + f"games = 90000\n[vary]\nturns = [{turns}]\n"))
    rounds = ", ".join(str(r) for r in range(1, 502))
    text = f"""
[study]
ruleset = "specter-ops"
games = 1
[vary]
max_rounds = [{rounds}]
characters = [true, false]
"""
    error = refused(write(tmp_path, text))
    assert error.line == 5 and f"at most {MAX_CELLS:,} cells" in error.expected
    assert error.found == "1,002 cells"
    error = refused(write(tmp_path, WF + "games = " + "9" * 5000 + "\n"))
    assert error.line == 3 and error.found == "a number of thousands of digits"
    docs = (ROOT / "docs" / "studies.md").read_text(encoding="utf-8")
    assert f"{MAX_GAMES:,}" in docs and f"{MAX_CELLS:,}" in docs


def test_sim_vary_says_its_problems_without_a_file(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["sim", "warfighter", "-n", "2", "--vary", "turns=4,4"])
    assert code == 2 and "turns: expected values of turns that differ" in capsys.readouterr().err


# --------------------------------------------------------------------------- resume

SMALL = WF + 'games = 6\nseed = 3\n[seats]\nsquad = "wf-heuristic"\n[vary]\nturns = [4, 6]\n'


@pytest.fixture
def played(tmp_path: Path) -> tuple[Path, Path, list[dict[str, object]]]:
    """A study played whole: its file, its games.jsonl and the lines."""
    path = write(tmp_path, SMALL)
    out = tmp_path / "out"
    assert main(["study", str(path), "--out", str(out), "--workers", "1", "--json"]) == 0
    games = out / "games.jsonl"
    return path, games, [json.loads(x) for x in games.read_text().splitlines()]


def _edit_winners_away(lines: list[dict[str, object]]) -> int:
    n = next(i for i, g in enumerate(lines) if g["sides"] == ["squad"])
    lines[n]["winners"] = []  # the squad's side won, but no seat of it
    return n


def _edit_winner_side(lines: list[dict[str, object]]) -> int:
    n = next(i for i, g in enumerate(lines) if g["sides"] == ["squad"])
    lines[n]["sides"] = ["hostiles"]  # the squad won, but with the hostiles' side
    return n


def _edit(field: str, value: object, n: int = 2) -> object:
    def edit(lines: list[dict[str, object]]) -> int:
        lines[n][field] = value
        return n

    return edit


def _twice(lines: list[dict[str, object]]) -> int:
    lines.append(dict(lines[1]))
    return len(lines) - 1


@pytest.mark.parametrize(
    ("edit", "words"),
    [
        (_edit_winners_away, "a seat of side squad among the winners"),
        (_edit_winner_side, "winners of whom one starts on a side that won"),
        (_edit("winners", ["agent"]), "winners among the seats of its game (squad)"),
        (_edit("winners", "squad"), 'winners = ["...", ...]'),
        (_edit("length", -1), "length = 0 to"),
        (_edit("length", 10**9), "length = 0 to"),
        (_edit("metrics", {"won": "yes"}), "metrics = { name = a number"),
        (_edit("reason", None), 'reason = "..."'),
        (_edit("game", 99), "game = 0 to 5"),
        (_edit("cell", "turns=5"), "a game of a cell of s.toml"),
        (_twice, 'one line per game (game 1 of "turns=4" is on line 2 too)'),
    ],
)
def test_resume_refuses_a_line_whose_result_does_not_check(
    played: tuple[Path, Path, list[dict[str, object]]],
    capsys: pytest.CaptureFixture[str],
    edit: object,
    words: str,
) -> None:
    # Each of these lines was once counted as it was (or its game counted twice).
    path, games, lines = played
    n = edit(lines)  # type: ignore[operator]
    games.write_text("".join(json.dumps(g) + "\n" for g in lines))
    capsys.readouterr()
    code = main(["study", str(path), "--out", str(games.parent), "--resume", "--json"])
    err = capsys.readouterr().err
    assert code == 2 and f"games.jsonl:{n + 1}:" in err and words in err, err


def test_resume_replays_a_last_line_cut_inside_a_character(tmp_path: Path) -> None:
    # A kill while a line is written may cut a character of a cell's name in two: that
    # line is played again, as any line cut short (it once stopped with a traceback);
    # a bad byte on a line that is not the last is refused with its line.
    text = WF + 'games = 4\nseed = 1\n[[variant]]\nname = "café"\n[[variant]]\nname = "thé"\n'
    path = write(tmp_path, text)
    whole = tmp_path / "whole"
    assert main(["study", str(path), "--out", str(whole), "--workers", "1", "--json"]) == 0
    expected = json.loads((whole / "results.json").read_text())
    data = (whole / "games.jsonl").read_bytes()
    lines = data.splitlines(keepends=True)
    cut = lines[5][: lines[5].index("é".encode()) + 1]  # half of the é
    part = tmp_path / "part"
    part.mkdir()
    (part / "games.jsonl").write_bytes(b"".join(lines[:5]) + cut)
    assert main(["study", str(path), "--out", str(part), "--resume", "--json"]) == 0
    assert json.loads((part / "results.json").read_text()) == expected
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "games.jsonl").write_bytes(b"".join(lines[:2]) + cut + b"\n" + b"".join(lines[6:]))
    with pytest.raises(BadDataError) as info:
        from fogofwar.sim.study import read_games

        read_games(bad / "games.jsonl", load_study(path))
    assert info.value.line == 3 and re.match(r"byte 0x", info.value.found or "")


def test_resume_refuses_games_played_with_a_mission_file_since_edited(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A designer edits the mission file between two sittings: --resume would put games of
    # two missions in one cell. The results.json of the first sitting keeps each cell's
    # configuration, the mission's digest with it, and the resume is refused, naming it.
    data = Path(__file__).parents[1] / "src" / "fogofwar" / "data" / "warfighter"
    for name in ("dagon.wf", "cards.wf"):
        (tmp_path / name).write_text((data / name).read_text(encoding="utf-8"), encoding="utf-8")
    mission = tmp_path / "dagon.wf"
    text = WF + f'games = 2\nseed = 3\n[config]\nmission = "{mission.as_posix()}"\n'
    path = write(tmp_path, text)
    out = tmp_path / "out"
    assert main(["study", str(path), "--out", str(out), "--workers", "1", "--json"]) == 0
    assert main(["study", str(path), "--out", str(out), "--workers", "1", "--resume"]) == 0
    mission.write_text(mission.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    capsys.readouterr()
    code = main(["study", str(path), "--out", str(out), "--workers", "1", "--resume"])
    err = capsys.readouterr().err
    assert code == 2 and "results.json" in err and "mission_digest" in err, err
    assert "--fresh instead of --resume plays the study again from the start" in err
    # Played afresh, the study is whole again.
    assert main(["study", str(path), "--out", str(out), "--workers", "1", "--fresh"]) == 0


def stop_after(monkeypatch: pytest.MonkeyPatch, games: int) -> None:
    """Make the next ``fogofwar study`` stop as Ctrl-C stops it, after ``games`` games."""
    played: list[object] = []

    def stopping(study: Any, **options: Any) -> Any:
        keep = options["on_game"]

        def on_game(line: Any) -> None:
            keep(line)
            played.append(line)
            if len(played) == games:
                raise KeyboardInterrupt

        return run_study(study, **{**options, "on_game": on_game, "workers": 1})

    monkeypatch.setattr("fogofwar.commands.study.run_study", stopping)


def test_a_stopped_study_keeps_its_settings_for_resume_to_compare(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # QA: a study stopped by Ctrl-C left no results.json, so --resume after the study
    # file's bots were changed put random and heuristic games in one cell without a word.
    text = WF + "games = 4\nseed = 1\n"
    path = write(tmp_path, text)
    out = tmp_path / "out"
    stop_after(monkeypatch, 2)
    assert main(["study", str(path), "--out", str(out), "--workers", "1"]) == 130
    monkeypatch.undo()
    kept = json.loads((out / "results.json").read_text(encoding="utf-8"))
    assert kept["ruleset"] == "warfighter" and "comparisons" not in kept
    assert [c["name"] for c in kept["cells"]] == ["base"] and "wins" not in kept["cells"][0]
    # A game of the stopped study plays again from what it kept.
    assert study_game(out / "games.jsonl", 1).length > 0
    write(tmp_path, text + '[seats]\nsquad = "wf-heuristic"\n')
    capsys.readouterr()
    code = main(["study", str(path), "--out", str(out), "--workers", "1", "--resume"])
    err = capsys.readouterr().err
    assert code == 2 and 'played with squad bot = "wf-heuristic"' in err, err
    assert "found 'squad bot = \"random\"'" in err
    # The hint names what changes a bot (the file, a default), not a data file.
    assert "the study file or a default bot changed since?" in err
    # With the file as it was, --resume finishes it as one run would have.
    write(tmp_path, text)
    assert main(["study", str(path), "--out", str(out), "--resume", "--json"]) == 0
    whole = tmp_path / "whole"
    assert main(["study", str(path), "--out", str(whole), "--workers", "1", "--json"]) == 0
    assert json.loads((out / "results.json").read_text()) == json.loads(
        (whole / "results.json").read_text()
    )


def test_a_folder_that_holds_games_is_not_played_over_without_a_word(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # QA: run again without --resume, a study cut the kept games.jsonl to its own new
    # games (76 games to 14): a forgotten flag lost hours of games.
    path = write(tmp_path, WF + "games = 4\nseed = 1\n")
    out = tmp_path / "out"
    stop_after(monkeypatch, 3)
    assert main(["study", str(path), "--out", str(out), "--workers", "1"]) == 130
    monkeypatch.undo()
    before = (out / "games.jsonl").read_bytes()
    capsys.readouterr()
    code = main(["study", str(path), "--out", str(out), "--workers", "1"])
    err = " ".join(capsys.readouterr().err.split())
    assert code == 2 and "already holds 3 games of a study" in err
    assert "--resume goes on with them, --fresh throws them away" in err
    assert (out / "games.jsonl").read_bytes() == before
    code = main(["study", str(path), "--out", str(out), "--resume", "--fresh"])
    assert code == 2 and "give one" in capsys.readouterr().err
    assert main(["study", str(path), "--out", str(out), "--workers", "1", "--fresh"]) == 0
    assert len((out / "games.jsonl").read_text().splitlines()) == 4
    # --out naming a file: one line that says so, not "File exists".
    a_file = tmp_path / "afile"
    a_file.write_text("", encoding="utf-8")
    code = main(["study", str(path), "--out", str(a_file)])
    assert code == 2 and f"--out {a_file}: a file, not a folder" in capsys.readouterr().err


# --------------------------------------------------------------------------- shipped results


@pytest.mark.parametrize(
    "name", sorted(p.parent.name for p in (ROOT / "studies").glob("*/games.jsonl"))
)
def test_a_shipped_studys_results_are_what_its_games_give_today(name: str) -> None:
    # The figures docs/search.md quotes come from these files. A change to the
    # statistics (or to what a cell records) must be followed by `fogofwar study
    # FILE --resume`, which plays nothing and writes results.json again: this fails
    # until it is.
    study = load_study(ROOT / "studies" / f"{name}.toml")
    known = read_games(ROOT / "studies" / name / "games.jsonl", study)
    assert all(len(known.get(c.name, {})) == study.games for c in study.cells)
    played = run_study(study, known=known)
    shipped = json.loads((ROOT / "studies" / name / "results.json").read_text(encoding="utf-8"))
    assert json.loads(json.dumps(played)) == shipped


def test_a_resume_keeps_whole_results_and_fresh_clears_what_was_drawn(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A review: --resume wrote the settings over a finished study's whole results.json
    # before playing, so stopping it lost them; --fresh left the old report beside new
    # games.
    path = write(tmp_path, WF + "games = 2\nseed = 1\n")
    out = tmp_path / "out"
    assert main(["study", str(path), "--out", str(out), "--workers", "1"]) == 0
    whole = (out / "results.json").read_text(encoding="utf-8")
    assert "comparisons" in whole and (out / "report.md").exists()
    write(tmp_path, WF + "games = 4\nseed = 1\n")
    stop_after(monkeypatch, 1)
    assert main(["study", str(path), "--out", str(out), "--resume"]) == 130
    assert (out / "results.json").read_text(encoding="utf-8") == whole
    stop_after(monkeypatch, 1)
    assert main(["study", str(path), "--out", str(out), "--fresh"]) == 130
    monkeypatch.undo()
    assert "comparisons" not in json.loads((out / "results.json").read_text(encoding="utf-8"))
    assert not (out / "report.md").exists() and not list(out.glob("*.png"))
    assert len((out / "games.jsonl").read_text(encoding="utf-8").splitlines()) == 1


def test_the_umpires_side_is_compared_where_it_won_no_game(tmp_path: Path) -> None:
    # QA (the docs): a side with no seat (Warfighter's hostiles) was listed only in the
    # cells where it won, so "hostiles win no game with turns=…" could never be said
    # and its fall from 100% to 0% was not compared.
    path = write(
        tmp_path,
        WF + 'games = 3\nseed = 0\n[seats]\nsquad = "wf-heuristic"\n[vary]\nturns = [1, 8]\n',
    )
    study = load_study(path)
    results = run_study(study)
    for cell in results["cells"]:
        assert set(cell["wins"]) == {"squad", "hostiles"}, cell["wins"]
    said = " ".join(c["sentence"] for c in results["comparisons"])
    assert "hostiles win" in said
