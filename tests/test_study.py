"""``fogofwar study``: study files, their cells, results and comparisons."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from fogofwar.cli import main
from fogofwar.core.errors import BadDataError
from fogofwar.sim.runner import game_seed
from fogofwar.sim.study import cell_seed, load_study, run_study

ROOT = Path(__file__).resolve().parents[1]

SMALL = """
[study]
ruleset = "warfighter"
games = {games}
seed = 3

[seats]
squad = "wf-heuristic"

[vary]
turns = {turns}
"""


def write(tmp_path: Path, text: str, name: str = "s.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_shipped_studies_load() -> None:
    files = sorted((ROOT / "studies").glob("*.toml"))
    assert {f.name.split("-")[0] for f in files} >= {"specter", "zero", "rock", "warfighter"}
    for f in files:
        study = load_study(f)
        assert study.cells and study.games >= 1


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ('[study]\nruleset = "chess"\n', 2, "a rule set this fogofwar plays"),
        (
            '[study]\nruleset = "warfighter"\n[vary]\nsquads = [1, 2]\n',
            4,
            "an option of warfighter",
        ),
        ('[study]\nruleset = "warfighter"\n[vary]\nturns = [4, 99]\n', 4, "a valid configuration"),
        ('[study]\nruleset = "warfighter"\n[seats]\nsquad = "so-agent"\n', 3, "bots that play"),
        ('[study]\nruleset = "warfighter"\n[seats]\nagent = "random"\n', 4, "a seat of warfighter"),
        ('[study]\nruleset = "warfighter"\nmetrics = ["elo"]\n', 3, "a metric of warfighter"),
        ('[study]\nruleset = "warfighter"\ngames = 0\n', 3, "1 or more"),
        ("[study\n", None, "a TOML study file"),
    ],
)
def test_bad_study_files_name_file_line_and_what(
    tmp_path: Path, text: str, line: int | None, words: str
) -> None:
    path = write(tmp_path, text)
    with pytest.raises(BadDataError) as info:
        load_study(path)
    assert info.value.file == str(path) and words in str(info.value)
    if line is not None:
        assert info.value.line == line, str(info.value)


def test_results_do_not_depend_on_the_workers(tmp_path: Path) -> None:
    study = load_study(write(tmp_path, SMALL.format(games=6, turns="[4, 6]")))
    one = run_study(study, workers=1)
    two = run_study(study, workers=2)
    assert one == two
    assert [c["name"] for c in one["cells"]] == ["turns=4", "turns=6"]
    assert one["cells"][0]["seed"] == cell_seed(3, study.cells[0]) == "3/turns=4"


def test_comparisons_say_whether_a_difference_is_real(tmp_path: Path) -> None:
    study = load_study(write(tmp_path, SMALL.format(games=40, turns="[4, 8, 9]")))
    results = run_study(study, workers=1)
    said = {(tuple(c["cells"]), c["side"]): c for c in results["comparisons"]}
    far = said[("turns=4", "turns=8"), "squad"]
    assert far["significant"] and far["difference"] < 0
    assert (
        far["sentence"].startswith("squad wins ")
        and "less often with turns=4 than with turns=8" in far["sentence"]
    )
    assert far["sentence"].endswith("a real difference at 95%")
    near = said[("turns=8", "turns=9"), "squad"]
    assert not near["significant"]
    assert near["sentence"].endswith("not a clear difference at 95% (the interval holds 0)")
    low, high = near["interval"]
    assert low <= 0 <= high


def test_study_command_writes_results_and_games(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, SMALL.format(games=5, turns="[4, 6]"))
    out = tmp_path / "out"
    code = main(["study", str(path), "--out", str(out), "--workers", "1", "--json"])
    assert code == 0
    printed = json.loads(capsys.readouterr().out)
    saved = json.loads((out / "results.json").read_text())
    assert printed == saved and saved["games_per_cell"] == 5 and len(saved["cells"]) == 2
    lines = [json.loads(x) for x in (out / "games.jsonl").read_text().splitlines()]
    assert [(g["cell"], g["game"]) for g in lines] == [
        (c, i) for c in ("turns=4", "turns=6") for i in range(5)
    ]
    assert lines[0]["seed"] == game_seed("3/turns=4", 0)  # any game can be played again
    wins = saved["cells"][0]["wins"]["squad"]["count"]
    assert wins == sum("squad" in g["sides"] for g in lines if g["cell"] == "turns=4")
    code = main(["study", str(tmp_path / "missing.toml")])
    assert code == 2 and "missing.toml" in capsys.readouterr().err
