"""``fogofwar study``: study files, their cells, results and comparisons."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
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
        (
            '[study]\nruleset = "warfighter"\n[seats]\nsquad = "so-agent"\n',
            4,
            "a bot that plays squad",
        ),
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
    # The squad never wins with 4 turns: said so, not as "92.5% less often".
    assert far["sentence"].startswith("squad wins no game with turns=4 and ")
    assert "% of the games with turns=8: " in far["sentence"] and "less often" in far["sentence"]
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


def test_names_that_look_like_markup_are_printed_as_they_are(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A variant's name is the study file's text: "[/]" once stopped the report with a
    # MarkupError, and "[red]" coloured the rest of the line.
    text = (
        '[study]\nruleset = "warfighter"\ngames = 2\nseed = 1\n'
        '[[variant]]\nname = "[/]odd [red]name"\nseats = { squad = "random" }\n'
        '[[variant]]\nname = "plain"\nseats = { squad = "wf-heuristic" }\n'
    )
    path = write(tmp_path, text, name="[red]s.toml")
    assert main(["study", str(path), "--out", str(tmp_path / "out"), "--workers", "1"]) == 0
    out = capsys.readouterr().out
    assert "[/]odd [red]name" in out and "[red]s.toml" in out


def test_resume_after_a_cut_gives_the_same_results(tmp_path: Path) -> None:
    # A study killed at any point (here: its games.jsonl cut after some lines, the last
    # one half written) goes on with --resume: no game repeated or lost, the same results.
    path = write(tmp_path, SMALL.format(games=8, turns="[4, 6]"))
    whole = tmp_path / "whole"
    assert main(["study", str(path), "--out", str(whole), "--workers", "1", "--json"]) == 0
    expected = json.loads((whole / "results.json").read_text())
    lines = (whole / "games.jsonl").read_text().splitlines(keepends=True)
    for cut in (0, 3, 11):
        part = tmp_path / f"part{cut}"
        part.mkdir()
        (part / "games.jsonl").write_text("".join(lines[:cut]) + lines[cut][:17])
        code = main(
            ["study", str(path), "--out", str(part), "--workers", "2", "--resume", "--json"]
        )
        assert code == 0
        assert json.loads((part / "results.json").read_text()) == expected
        got = [json.loads(x) for x in (part / "games.jsonl").read_text().splitlines()]
        assert sorted((g["cell"], g["game"]) for g in got) == sorted(
            (c, i) for c in ("turns=4", "turns=6") for i in range(8)
        )
    other = tmp_path / "other"
    other.mkdir()
    (other / "games.jsonl").write_text(lines[0].replace('"turns=4"', '"turns=5"'))
    code = main(["study", str(path), "--out", str(other), "--resume"])
    assert code == 2


def test_ctrl_c_stops_cleanly_and_resume_goes_on(tmp_path: Path) -> None:
    # A real Ctrl-C (SIGINT) while the games are played: exit 130, every game played
    # so far kept; --resume then gives what an uninterrupted run gives. The study is
    # started with SIGINT ignored, as a shell's background job or nohup starts it: it
    # must stop all the same.
    text = """
[study]
ruleset = "specter-ops"
games = 40
seed = 5
[config]
players = 3
characters = true
[vary]
max_rounds = [20, 40]
"""
    path = write(tmp_path, text)
    out = tmp_path / "out"
    argv = [sys.executable, "-m", "fogofwar", "study", str(path), "--out", str(out)]
    # SIGINT ignored, then exec: what a shell does for a background job (no preexec_fn,
    # which is not safe in a process with threads).
    ignored = (
        "import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_IGN); "
        "os.execv(sys.executable, [sys.executable, *sys.argv[1:]])"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", ignored, *argv[1:], "--workers", "1"],
        stdout=subprocess.PIPE,
        text=True,
    )
    games = out / "games.jsonl"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if games.exists() and len(games.read_text().splitlines()) >= 5:
            break
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    said, _ = proc.communicate(timeout=120)
    assert proc.returncode == 130 and "--resume goes on" in said
    kept = len(games.read_text().splitlines())
    assert 5 <= kept < 80
    done = subprocess.run([*argv, "--workers", "2", "--resume", "--json"], capture_output=True,
                          text=True, timeout=300, check=True)  # fmt: skip
    whole = subprocess.run(
        [sys.executable, "-m", "fogofwar", "study", str(path), "--out", str(tmp_path / "w"),
         "--workers", "1", "--json"], capture_output=True, text=True, timeout=300, check=True,
    )  # fmt: skip
    assert json.loads(done.stdout) == json.loads(whole.stdout)


def test_the_report_renders_with_its_plots(tmp_path: Path) -> None:
    # report.html parses, every image it shows exists as a PNG, report.md shows the same
    # plots; two varied options give a heat map.
    from html.parser import HTMLParser

    text = """
[study]
ruleset = "rock-n-roll"
games = 4
seed = 2
[vary]
rounds = [3, 5]
max_rd_per_roll = [1, 3]
"""
    path = write(tmp_path, text)
    out = tmp_path / "out"
    assert main(["study", str(path), "--out", str(out), "--workers", "1"]) == 0

    class Images(HTMLParser):
        def __init__(self) -> None:
            super().__init__()
            self.sources: list[str] = []
            self.tags: list[str] = []

        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            self.tags.append(tag)
            if tag == "img":
                self.sources.append(str(dict(attrs)["src"]))

    page = Images()
    page.feed((out / "report.html").read_text())
    page.close()
    assert "table" in page.tags and "h1" in page.tags
    assert {"win-rates.png", "heat-map.png"} <= set(page.sources)
    assert any(s.startswith("metric-") for s in page.sources)
    markdown = (out / "report.md").read_text()
    for src in page.sources:
        assert (out / src).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", src
        assert f"]({src})" in markdown
    assert "## Comparisons" in markdown
    assert "more often" in markdown or "less often" in markdown
    # QA: a yes/no metric's box plot showed nothing; it is drawn as the share of games
    # with its interval, and a counted one's box plot marks its mean.
    yes_no = [
        m
        for m in json.loads((out / "results.json").read_text())["cells"][0]["metrics"]
        if all(
            g["metrics"].get(m, 0) in (0, 1)
            for g in map(json.loads, (out / "games.jsonl").read_text().splitlines())
        )
    ]
    assert yes_no, "the study has a yes/no metric"
    assert f"The share of each cell's games with {yes_no[0]}, with its 95% interval." in markdown
    assert "(▲: the mean)" in markdown
    # A designer's QA: the plots say how many games stand behind them, and the heat
    # map gives each cell's interval; the table names the length's unit.
    assert markdown.count("(4 games a cell") >= 2
    assert "with its Wilson 95% interval (4 games a cell; n/a:" in markdown
    assert "mean length (actions)" in markdown


def test_sim_vary_is_the_quick_form_of_a_study(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # `sim --vary turns=4,6` plays the cells a study file with [vary] turns = [4, 6]
    # plays, with the same seeds: the same cells and comparisons.
    code = main(["sim", "warfighter", "-n", "6", "--seed", "3", "--seat", "squad=wf-heuristic",
                 "--vary", "turns=4,6", "--workers", "1", "--json"])  # fmt: skip
    quick = json.loads(capsys.readouterr().out)
    assert code == 0
    path = write(tmp_path, SMALL.format(games=6, turns="[4, 6]"))
    full = run_study(load_study(path), workers=1)
    assert quick["cells"] == full["cells"] and quick["comparisons"] == full["comparisons"]
    code = main(["sim", "warfighter", "-n", "2", "--vary", "turns=4", "--records", "r"])
    assert code == 2 and "not with --vary" in capsys.readouterr().err


def test_ray_gives_the_same_results_from_its_own_workers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The same games on Ray tasks as in this process: the same results, and they really
    # ran in Ray's worker processes (their process ids, as Ray reports them, are not
    # this one's).
    import os

    pytest.importorskip("ray")
    from fogofwar.sim.runner import run_batch

    here = run_batch("warfighter", games=6, seed=3, seats={"squad": "wf-heuristic"})
    there = run_batch(
        "warfighter", games=6, seed=3, seats={"squad": "wf-heuristic"}, backend="ray", workers=2
    )
    assert there.games == here.games and there.stats() == here.stats()
    assert here.processes == {os.getpid()}
    assert there.processes and os.getpid() not in there.processes
    path = write(tmp_path, SMALL.format(games=4, turns="[4, 6]"))
    local = run_study(load_study(path), workers=1)
    code = main(["study", str(path), "--out", str(tmp_path / "r"), "--backend", "ray",
                 "--workers", "2", "--json"])  # fmt: skip
    assert code == 0 and json.loads(capsys.readouterr().out) == local
    code = main(["study", str(path), "--backend", "cloud"])
    assert code == 2 and "local or ray" in capsys.readouterr().err


def test_bots_take_parameters(tmp_path: Path) -> None:
    # `so-hunter:aggression=0.9` makes a hunter bot with that parameter; a parameter a
    # bot does not take, or a bad value, is refused by name; a study's seats may use them,
    # and the default values play exactly as the plain bot does.
    from fogofwar.bots import make_bot
    from fogofwar.core.errors import RulesError
    from fogofwar.core.game import get_ruleset
    from fogofwar.sim.runner import run_batch

    get_ruleset("specter-ops")  # its bots are registered with it
    bot = make_bot("so-hunter:aggression=0.9,sensor=0", "specter-ops")
    assert (bot.aggression, bot.sensor) == (0.9, 0.0)  # type: ignore[attr-defined]
    with pytest.raises(RulesError, match=r"no parameter speed .*it takes: aggression, sensor"):
        make_bot("so-hunter:speed=2", "specter-ops")
    with pytest.raises(RulesError, match="aggression is a number from 0 to 1"):
        make_bot("so-hunter:aggression=3", "specter-ops")
    with pytest.raises(RulesError, match="no parameter"):
        make_bot("random:x=1", "specter-ops")
    config = {"players": 2, "characters": False, "max_rounds": 6}
    plain = run_batch("specter-ops", games=3, seed=4, config_overrides=config,
                      seats={"hunter1": "so-hunter"})  # fmt: skip
    same = run_batch("specter-ops", games=3, seed=4, config_overrides=config,
                     seats={"hunter1": "so-hunter:aggression=0.5"})  # fmt: skip
    assert plain.games == same.games
    eager = 'hunter1 = "so-hunter:aggression=0.9"'
    study = load_study(write(tmp_path, '[study]\nruleset = "specter-ops"\n[seats]\n' + eager))
    assert study.seats == {"hunter1": "so-hunter:aggression=0.9"}
    zeal = 'hunter1 = "so-hunter:zeal=1"'
    bad = write(tmp_path, '[study]\nruleset = "specter-ops"\n[seats]\n' + zeal, "b.toml")
    with pytest.raises(BadDataError, match="no parameter zeal"):
        load_study(bad)


def test_variants_may_change_the_bots(tmp_path: Path) -> None:
    # A variant's seats make a cell with other bots: cells that differ in one bot are
    # compared like cells that differ in one option ("squad bot=...").
    text = """
[study]
ruleset = "warfighter"
games = 30
seed = 2

[[variant]]
name = "heuristic"
seats = { squad = "wf-heuristic" }

[[variant]]
name = "random"
seats = { squad = "random" }
"""
    study = load_study(write(tmp_path, text))
    results = run_study(study, workers=1)
    assert [c["bots"] for c in results["cells"]] == [{"squad": "wf-heuristic"}, {"squad": "random"}]
    said = [c for c in results["comparisons"] if c["side"] == "squad"]
    assert len(said) == 1 and said[0]["option"] == "squad bot"
    assert (
        "of the games with squad bot=wf-heuristic and none with squad bot=random: "
        in (said[0]["sentence"])
    )
    assert said[0]["difference"] > 0 and said[0]["significant"]


def test_variants_cross_the_varied_options(tmp_path: Path) -> None:
    # With [vary] and variants, every variant plays at every combination; a variant's
    # bots count for the seats its cell's game has, and seats whose bots change alike
    # are one difference ("hunter1, hunter2 bot"). Two dimensions make a heat map.
    text = """
[study]
ruleset = "specter-ops"
games = 4
seed = 5
[config]
characters = false
[vary]
players = [2, 3]
[[variant]]
name = "random hunters"
seats = { agent = "so-agent", hunter1 = "random", hunter2 = "random" }
[[variant]]
name = "so-hunters"
seats = { agent = "so-agent", hunter1 = "so-hunter", hunter2 = "so-hunter" }
"""
    study = load_study(write(tmp_path, text))
    assert [c.name for c in study.cells] == [
        "random hunters, players=2",
        "so-hunters, players=2",
        "random hunters, players=3",
        "so-hunters, players=3",
    ]
    assert study.cells[0].seats == {"agent": "so-agent", "hunter1": "random"}
    assert study.cells[3].options == {"players": 3} and study.cells[3].variant == "so-hunters"
    out = tmp_path / "out"
    assert main(["study", str(tmp_path / "s.toml"), "--out", str(out), "--workers", "1"]) == 0
    results = json.loads((out / "results.json").read_text())
    assert results["variants"] == ["random hunters", "so-hunters"]
    by_option = {(tuple(c["cells"]), c["option"]) for c in results["comparisons"]}
    assert (("random hunters, players=2", "so-hunters, players=2"), "hunter1 bot") in by_option
    assert (("random hunters, players=3", "so-hunters, players=3"), "hunter1, hunter2 bot") in (
        by_option
    )
    assert (("random hunters, players=2", "random hunters, players=3"), "players") in by_option
    # Cells that differ in both the players and the bots are not compared.
    assert not any(set(c) == {"random hunters, players=2", "so-hunters, players=3"}
                   for c, _ in by_option)  # fmt: skip
    assert (out / "heat-map.png").exists()


def test_a_variant_may_not_set_a_varied_option(tmp_path: Path) -> None:
    text = """
[study]
ruleset = "warfighter"
[vary]
turns = [4, 6]
[[variant]]
name = "short"
config = { turns = 5 }
"""
    with pytest.raises(BadDataError, match="that \\[vary\\] does not vary"):
        load_study(write(tmp_path, text))


def test_cells_whose_games_have_other_sides_report(tmp_path: Path) -> None:
    # A solo mission (side "team") beside a Versus one ("team1", "team2"): each table
    # and plot shows every side, "—" where a cell's game has none such.
    text = """
[study]
ruleset = "zero-dark"
games = 1
seed = 1
[[variant]]
name = "solo"
config = { mission = "the-spy" }
[[variant]]
name = "versus"
config = { mission = "dead-drop" }
"""
    path = write(tmp_path, text)
    out = tmp_path / "out"
    assert main(["study", str(path), "--out", str(out), "--workers", "1"]) == 0
    results = json.loads((out / "results.json").read_text())
    sides = [set(c["wins"]) for c in results["cells"]]
    assert sides[0] != sides[1]
    markdown = (out / "report.md").read_text()
    assert "team1 wins" in markdown and "—" in markdown
    assert (out / "win-rates.png").exists()


def test_any_game_of_a_study_replays(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # `fogofwar replay games.jsonl --game LINE` plays that game again from the study's
    # results.json (the cell's config and bots) and the line's seed, and shows it; a
    # line whose game ends otherwise, or a file without its results.json, is refused.
    text = SMALL.format(games=4, turns="[4, 6]")
    path = write(tmp_path, text)
    out = tmp_path / "out"
    assert main(["study", str(path), "--out", str(out), "--workers", "2"]) == 0
    games = out / "games.jsonl"
    lines = games.read_text().splitlines()
    capsys.readouterr()
    for n in (1, len(lines)):
        assert main(["replay", str(games), "--game", str(n)]) == 0
        shown = capsys.readouterr().out
        assert "Result:" in shown
    from fogofwar.sim.study import study_game

    entry = json.loads(lines[5])
    again = study_game(games, 6)
    assert again.length == entry["length"] and sorted(again.outcome.winners) == entry["winners"]
    entry["length"] += 1
    lines[5] = json.dumps(entry)
    games.write_text("\n".join(lines) + "\n")
    assert main(["replay", str(games), "--game", "6"]) == 2
    assert "ends as its line says" in capsys.readouterr().err
    assert main(["replay", str(games), "--game", "99"]) == 2
    assert "line 99" in capsys.readouterr().err
    (out / "results.json").unlink()
    assert main(["replay", str(games), "--game", "1"]) == 2
    assert "results.json" in capsys.readouterr().err


def test_a_bot_the_study_sets_counts_in_comparisons(tmp_path: Path) -> None:
    # One variant changes the agent's bot and an option, the other only the option: the
    # cells differ in two things, and the difference is credited to neither.
    text = """
[study]
ruleset = "specter-ops"
games = 2
seed = 1
[seats]
agent = "so-agent"
[[variant]]
name = "a"
config = { characters = true }
seats = { agent = "random" }
[[variant]]
name = "b"
config = { characters = false }
"""
    study = load_study(write(tmp_path, text))
    assert study.cells[1].bots["agent"] == "so-agent"
    assert study.cells[0].factors()["agent bot"] == "random"
    assert run_study(study, workers=1)["comparisons"] == []


def _children(pid: int) -> set[int]:
    """The processes whose parent is ``pid`` (from /proc)."""
    out = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        # "pid (name) state ppid ...": the name may hold spaces, so split after it.
        if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
            out.add(int(entry.name))
    return out


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
@pytest.mark.parametrize("how", ["SIGTERM", "SIGKILL"])
def test_a_stopped_study_leaves_no_worker_playing(tmp_path: Path, how: str) -> None:
    # A study of slow games (a searching agent) on two workers, stopped while its first
    # chunks are played. SIGTERM stops it like Ctrl-C (exit 130, the resume hint) and
    # its workers with it, without playing their chunks out; after SIGKILL, which
    # runs no clean-up, the orphaned workers end themselves.
    text = """
[study]
ruleset = "specter-ops"
games = 40
seed = 5
[config]
players = 3
[seats]
agent = "ismcts:iterations=400"
"""
    path = write(tmp_path, text)
    argv = [sys.executable, "-m", "fogofwar", "study", str(path), "--out", str(tmp_path / "o"),
            "--workers", "2"]  # fmt: skip
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    workers: set[int] = set()
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and len(workers) < 2:
        workers = {p for p in _children(proc.pid) if "spawn_main" in _cmdline(p)}
        time.sleep(0.1)
    assert len(workers) == 2, "the study's workers did not start"
    time.sleep(2)  # into their first chunks (each of four searched games)
    proc.send_signal(getattr(signal, how))
    said, _ = proc.communicate(timeout=60)
    if how == "SIGTERM":
        assert proc.returncode == 130 and "--resume goes on" in said
    else:
        assert proc.returncode == -signal.SIGKILL
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and any(_alive(p) for p in workers):
        time.sleep(0.1)
    assert not [p for p in workers if _alive(p)], "a worker played on after the study stopped"


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace")
    except OSError:
        return ""


def test_a_comparison_in_an_option_that_changes_nothing_says_so(tmp_path: Path) -> None:
    # A designer varied Specter Ops' traitor at 3 players (the traitor is the 5-player
    # game's, SO-T2) and read a "difference" between two cells that play the same game.
    text = (
        '[study]\nruleset = "specter-ops"\ngames = 4\nseed = 1\n'
        "[config]\ncharacters = false\n"
        "[vary]\nplayers = [3, 5]\ntraitor = [true, false]\nequipment_per_turn = [1, 2]\n"
    )
    results = run_study(load_study(write(tmp_path, text)), workers=1)
    said = {(tuple(c["cells"]), c["side"]): c for c in results["comparisons"]}
    names = [c["name"] for c in results["cells"]]
    three = [n for n in names if "players=3" in n]
    inert = [c for c in said.values() if c["option"] == "traitor" and "players=3" in c["cells"][0]]
    assert inert and all(
        c["inert"] == "the traitor plays only at 5 players (SO-T2), not 3" for c in inert
    )
    for c in inert:
        assert (
            "; but traitor changes nothing here (the traitor plays only at 5 players"
            in (c["sentence"])
        )
        assert c["sentence"].endswith("both cells play the same game, so any difference is chance")
    # At 5 players the traitor counts; without characters there is no equipment at all.
    five = [c for c in said.values() if c["option"] == "traitor" and "players=5" in c["cells"][0]]
    assert five and all(c["inert"] is None and "changes nothing" not in c["sentence"] for c in five)
    per_turn = [c for c in said.values() if c["option"] == "equipment_per_turn"]
    assert per_turn and all(
        c["inert"] == "the base game (characters=false) has no equipment" for c in per_turn
    )
    assert three and all(c["inert"] is None for c in said.values() if c["option"] == "players")


def test_a_study_report_says_where_the_traitor_changes_the_sides(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # SO-T6: at 5 players one hunter seat, the traitor, wins with the agent; the
    # report's win table counted its sides by their starting seats without a word.
    text = '[study]\nruleset = "specter-ops"\ngames = 2\nseed = 1\n[vary]\nplayers = [3, 5]\n'
    path = write(tmp_path, text)
    assert main(["study", str(path), "--out", str(tmp_path / "out"), "--workers", "1"]) == 0
    line = (
        "In players=5 the sides are — agent: its seats and the traitor, a hunter seat dealt "
        "in secret (SO-T6); hunters: its seats less the traitor (SO-T6)."
    )
    assert " ".join(capsys.readouterr().out.split()).count(line) == 1
    report = (tmp_path / "out" / "report.md").read_text(encoding="utf-8")
    assert line in report and "players=3 the sides" not in report
    assert f"<p>{line}</p>" in (tmp_path / "out" / "report.html").read_text(encoding="utf-8")
