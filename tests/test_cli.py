"""The ``fogofwar`` command line, driven through :func:`fogofwar.cli.main`."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from fogofwar.cli import main
from fogofwar.core.errors import RulesError
from fogofwar.rl import single_seat_env
from fogofwar.sim.runner import run_batch

DATA = Path(__file__).parent / "core" / "data"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_help_lists_the_commands(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--help")
    assert code == 0
    for command in ("odds", "board", "los", "sim", "demo", "rulesets"):
        assert command in out


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--version")
    assert code == 0 and out.startswith("fogofwar ")


def test_odds_dice_json_is_exact(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "odds", "dice", "2d6", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["distribution"]["7"] == "1/6"
    assert data["distribution"]["2"] == "1/36"
    assert sum(Fraction(p) for p in data["distribution"].values()) == 1
    assert data["mean"] == "7"
    assert data["at_least"]["11"] == "1/12"


def test_odds_dice_table(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "odds", "dice", "2d6")
    assert code == 0
    assert "1/36" in out and "mean" in out and "P(≥)" in out


def test_odds_of_a_roll_of_many_outcomes_list_the_first_thousand(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # d1000!3 has 3,997 outcomes: the table lists the first 1,000 and says where the
    # rest are (a 100,000-row table took minutes); --json has every one, with P(>=).
    code, out, _ = run(capsys, "odds", "dice", "d1000!3")
    assert code == 0
    rows = [line for line in out.splitlines() if line.count("│") > 2]
    assert len(rows) == 1000
    said = " ".join(out.split())
    assert "the first 1,000 of 3,997 outcomes listed: those from 1002 on (0.10%)" in said
    code, out, _ = run(capsys, "odds", "dice", "d1000!3", "--json")
    data = json.loads(out)
    assert len(data["distribution"]) == len(data["at_least"]) == 3997
    assert data["at_least"]["1"] == "1" and data["at_least"]["1002"] == "999/1000000"


def test_odds_of_a_pass_fail_roll_read_yes_and_no(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "odds", "dice", "d6!4>=8")
    assert code == 0
    rows = {line.split("│")[1].strip(): line for line in out.splitlines() if line.count("│") > 2}
    assert set(rows) == {"no", "yes"} and "5/36" in rows["yes"] and "13.89" in rows["yes"]
    assert "P(≥)" not in out and "passes 13.89%" in out


def test_odds_tables_leave_long_fractions_to_json(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # At 60 columns a fraction such as 60466175/60466176 is not cut with "…": the table
    # shows the percentage, and --json the fraction.
    monkeypatch.setenv("COLUMNS", "60")
    code, out, _ = run(capsys, "odds", "dice", "10d6kh3")
    assert code == 0 and "…" not in out and "(--json)" in out and "1/60466176" not in out
    assert "--json has them exact" in " ".join(out.split())
    assert max(len(line) for line in out.splitlines()) <= 60
    code, out, _ = run(capsys, "odds", "dice", "10d6kh3", "--json")
    assert json.loads(out)["at_least"]["4"] == "60466175/60466176"
    # An 80-column terminal has room for all of them: they were left to --json at 15
    # characters whatever the width, with 16 columns of the terminal unused.
    monkeypatch.setenv("COLUMNS", "80")
    code, out, _ = run(capsys, "odds", "dice", "10d6kh3")
    assert code == 0 and "(--json)" not in out and "…" not in out
    assert "60466175/60466176" in out and "mean 243195197/15116544" in out
    assert max(len(line) for line in out.splitlines()) <= 80


def test_a_rule_sets_odds_table_folds_a_long_fraction_instead_of_cutting_it(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # QA: at 80 columns `7518827268/381469726…` read as about 19.7; the value is
    # 7518827268/3814697265625. A long cell now wraps onto the next line, whole.
    monkeypatch.setenv("COLUMNS", "80")
    argv = ["odds", "warfighter", "door", "--cover", "7", "--hits", "2", "--shots", "2"]
    code, out, _ = run(capsys, *argv, "--pick", "6")
    assert code == 0 and "…" not in out
    rows: dict[str, str] = {}
    label = ""
    for line in out.splitlines():
        cells = line.split("│")
        if len(cells) > 3:
            label = cells[1].strip() or label
            rows[label] = rows.get(label, "") + cells[2].strip()
    code, data, _ = run(capsys, *argv, "--pick", "6", "--json")
    exact = json.loads(data)
    assert "7518827268/3814697265625" in rows.values()
    assert "7518827268/3814697265625" in json.dumps(exact)


def test_help_reads_as_written(capsys: pytest.CaptureFixture[str]) -> None:
    # Readable placeholders, -h beside --help, shell completion offered.
    code, out, _ = run(capsys, "sim", "-h")
    assert code == 0
    for typed in ("<int", "<list", "<bool>", "<str>", "x>=1"):
        assert typed not in out, typed
    assert "N (1 or more)" in out and "SEAT=BOT" in out and "RULESET" in out
    code, out, _ = run(capsys, "odds", "specter-ops", "attack", "-h")
    assert code == 0 and "<bool>" not in out and "--distance" in out
    code, out, _ = run(capsys, "--help")
    assert code == 0 and "--install-completion" in out and "-h" in out


def test_bad_dice_notation_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "odds", "dice", "2d6+")
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("error:")
    assert "Traceback" not in err


def test_board_show_builtin_and_file(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "board", "show", "demo", "--plain")
    assert code == 0 and "Markers:" in out and " A   B   C" in out
    code, out, _ = run(capsys, "board", "show", str(DATA / "small.board"), "--json")
    assert code == 0
    data = json.loads(out)
    assert data["width"] > 0 and len(data["terrain"]) == data["height"]


def test_board_show_missing_file(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "board", "show", "no/such.board")
    assert code == 2 and err.startswith("error:") and err.count("\n") == 1


def test_board_show_bad_file_names_line_and_column(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    bad = tmp_path / "bad.board"
    bad.write_text("name: x\n[legend]\n. floor passable transparent\n[terrain]\n..\n.x\n")
    code, _, err = run(capsys, "board", "show", str(bad))
    assert code == 2
    assert f"{bad}:6:2" in err


def test_los_corner_json(capsys: pytest.CaptureFixture[str]) -> None:
    # FR-S5: the report says clear / obscured / entirely obscured, line by line.
    code, out, _ = run(capsys, "los", "demo", "C10", "F8", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["model"] == "corner"
    assert data["status"] == "obscured" and data["los"] is True
    assert len(data["lines"]) == 4
    code, out, _ = run(capsys, "los", "demo", "J5", "L3", "--json")
    data = json.loads(out)
    assert data["status"] == "entirely obscured"
    assert all(line["blocked_by"] for line in data["lines"])


def test_serve_refuses_table_options_without_new(capsys: pytest.CaptureFixture[str]) -> None:
    # `serve --seat agent=human` started a plain lobby and dropped the seat unsaid.
    code, _, err = run(capsys, "serve", "--seat", "agent=human", "--seed", "3")
    assert code == 2
    assert "--seat, --seed describe the table that --new RULESET makes" in " ".join(err.split())


def test_los_words_an_opaque_square_as_blocking_sight(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # FR-L3: the demo's building blocks sight whatever the heights. It was listed as
    # "C2 (Cyl 999)", a height in no board file; the JSON keeps the model's number.
    code, out, _ = run(capsys, "los", "demo", "D2", "A2")
    assert code == 0 and "999" not in out
    assert "square C2 (blocks" in out  # the table wraps the cell: "(blocks sight)"
    code, out, _ = run(capsys, "los", "demo", "D2", "A2", "--json")
    assert code == 0 and "999" in out


def test_los_corner_table_and_facing(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "los", "demo", "H12", "H1", "--facing", "NE")
    assert code == 0 and "H1 ne" in out
    code, _, err = run(capsys, "los", "demo", "H12", "H1", "--facing", "N")
    assert code == 2 and "--facing" in err


def test_los_open_door_changes_the_answer(capsys: pytest.CaptureFixture[str]) -> None:
    _, shut, _ = run(capsys, "los", "demo", "J3", "L3", "--json")
    _, opened, _ = run(capsys, "los", "demo", "J3", "L3", "--json", "--open", "K3 w")
    assert json.loads(shut)["los"] is False
    assert json.loads(opened)["los"] is True
    code, _, err = run(capsys, "los", "demo", "J3", "L3", "--open", "A1 w")
    assert code == 2 and "no door" in err


def test_los_draws_the_boards_open_door_open(capsys: pytest.CaptureFixture[str]) -> None:
    # QA (the docs): the sight used the demo board's open door N5 s as the file sets it,
    # while the picture drew every door closed (═══); board show drew it open (┄┄).
    code, out, _ = run(capsys, "los", "demo", "C10", "F8")
    assert code == 0 and "┄" in out


def test_los_orthogonal(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "los", "demo", "H12", "H1", "--model", "orthogonal", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["sees"] is True and data["via"] == "column"
    code, out, _ = run(capsys, "los", "demo", "A4", "A1", "--model", "orthogonal", "--json")
    data = json.loads(out)
    assert data["sees"] is False and data["blocker"] == "A3"


def test_los_bad_square(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "los", "demo", "Z99", "A1")
    assert code == 2 and err.startswith("error:")


def test_rulesets_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rulesets", "--json")
    assert code == 0 and isinstance(json.loads(out), list)


def test_rulesets_mark_the_options_fogofwar_fills_in(capsys: pytest.CaptureFixture[str]) -> None:
    # A data file's digest is filled in by the program (a record keeps it): the listing
    # says so, and the JSON form (the lobby's) flags it; a player's choice is not flagged.
    code, out, _ = run(capsys, "rulesets", "--json")
    options = {o["name"]: o for rs in json.loads(out) for o in rs["options"]}
    assert options["mission_digest"]["filled"] and options["map_digest"]["filled"]
    assert not options["mission"]["filled"]
    code, out, _ = run(capsys, "rulesets")
    # The table wraps its cells; the note is read with the cells' lines joined.
    words = " ".join(w for w in re.split(r"[\s│┃|]+", out) if w)
    assert code == 0 and "(filled in by fogofwar)" in words, words


@pytest.mark.parametrize("columns", ["80", "140"])
def test_rulesets_show_every_name_and_value_whole(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, columns: str
) -> None:
    # QA: at 80 columns the table cut `engage_through…` and `grunt=5,elite=…`: the
    # names a designer types into --set could not be read. A narrow terminal now gets a
    # paragraph an option; one rule set can be asked for alone.
    monkeypatch.setenv("COLUMNS", columns)
    code, out, _ = run(capsys, "rulesets", "zero-dark")
    assert code == 0 and "…" not in out and "specter-ops" not in out
    assert max(len(line) for line in out.splitlines()) <= int(columns)
    words = "".join(out.split())
    for name in ("engage_through_walls", "rescue_excludes_synthetic", "grunt=5,elite=2,boss=1"):
        assert name in words, name
    assert "default false" in out or "│ false" in out
    code, _, err = run(capsys, "rulesets", "chess")
    assert code == 2 and "unknown rule set 'chess'" in err


def test_sim_with_a_plugin_ruleset(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "sim", "tests.example_game:HideAndSeek", "-n", "10", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["games"] == 10


def test_sim_unknown_ruleset(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "sim", "no-such-game")
    assert code == 2 and "unknown rule set" in err


def test_demo_runs(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "demo")
    assert code == 0
    assert "Exact odds" in out and "entirely obscured" in out and "5/36" in out


def test_console_script_exit_status() -> None:
    # The installed entry point exits with main()'s status.
    proc = subprocess.run(
        [sys.executable, "-m", "fogofwar", "odds", "dice", "3q"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 2
    assert proc.stderr.startswith("error:")


def test_a_bot_at_a_seat_it_does_not_play_is_refused_before_any_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The Specter Ops bots play one side each: the agent's bot at a hunter's seat (or the
    # hunters' at the agent's) is refused with the bots that play that seat, not a
    # traceback from inside the first game.
    code, _, err = run(capsys, "sim", "specter-ops", "-n", "2", "--seat", "hunter1=so-agent")
    assert code == 2 and err.count("\n") == 1
    assert "bot 'so-agent' plays the agent, not hunter1 (bots for hunter1:" in err
    assert "so-hunter" in err
    code, _, err = run(capsys, "sim", "specter-ops", "--seat", "hunter1=so-hunter:aggression")
    assert code == 2 and "parameters are KEY=VALUE" in err and "No module" not in err
    code, _, err = run(capsys, "play", "specter-ops", "--seat", "agent=so-hunter")
    assert code == 2 and "bot 'so-hunter' plays the hunters, not agent" in err
    study = tmp_path / "s.toml"
    study.write_text(
        '[study]\nruleset = "specter-ops"\ngames = 2\n[seats]\nhunter1 = "so-agent"\n',
        encoding="utf-8",
    )
    code, _, err = run(capsys, "study", str(study), "--out", str(tmp_path / "out"))
    assert code == 2 and "plays the agent, not hunter1" in err
    with pytest.raises(RulesError, match="plays the hunters, not agent"):
        single_seat_env("specter-ops", "hunter1", opponents={"agent": "so-hunter"})


def test_listing_bots_boards_and_missions(capsys: pytest.CaptureFixture[str]) -> None:
    # What there is, without reading an error message to find out.
    code, out, _ = run(capsys, "bots", "--json")
    bots = {b["name"]: b for b in json.loads(out)}
    assert code == 0 and {"random", "so-agent", "so-hunter", "zd-team"} <= set(bots)
    assert bots["random"]["plays"] == ["any"] and bots["so-agent"]["plays"] == ["specter-ops"]
    assert bots["so-hunter"]["default_for"] == ["specter-ops: hunter1 hunter2 hunter3 hunter4"]
    assert bots["so-agent"]["seats"] == "the agent" and bots["random"]["seats"] is None
    code, out, _ = run(capsys, "bots", "zero-dark", "--json")
    # ismcts plays it too: zero-dark samples worlds (docs/search.md).
    assert code == 0 and [b["name"] for b in json.loads(out)] == ["ismcts", "random", "zd-team"]
    code, out, _ = run(capsys, "bots", "zero-dark")
    assert code == 0 and "zd-team" in out and "so-agent" not in out
    # QA: so-hunter's parameters were nowhere, and "default for" read as sim's default.
    assert bots["so-hunter"]["parameters"] == ["aggression", "sensor"]
    code, out, _ = run(capsys, "bots", "specter-ops")
    words = " ".join(w for w in re.split(r"[\s│┃]+", out) if w)
    assert "(parameters: aggression, sensor)" in words and "play's bot for" in words
    assert "sim and study play random where no bot is named" in words
    code, out, _ = run(capsys, "boards", "--json")
    boards = {b["name"]: b for b in json.loads(out)}
    assert code == 0 and boards["specter-ops"]["width"] == 23 and "zd-open" in boards
    code, out, _ = run(capsys, "missions", "--json")
    found = {(m["ruleset"], m["name"]) for m in json.loads(out)}
    assert code == 0 and ("zero-dark", "the-spy") in found and ("warfighter", "dagon") in found
    code, out, _ = run(capsys, "missions", "zero-dark")
    assert code == 0 and "the-boss" in out and "dagon" not in out
    code, _, err = run(capsys, "missions", "specter-ops")
    assert code == 2 and "specter-ops has no missions" in err and err.count("\n") == 1


def test_rulesets_say_players_plainly(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rulesets")
    assert code == 0 and "(2–5 players;" in out and "(2 players;" in out
    assert "2–2" not in out and "1–1" not in out


def test_sim_shows_its_progress_at_a_terminal(tmp_path: Path) -> None:
    # Long work shows progress: at a terminal a bar with games done, the rate and the
    # time left (on stderr, gone at the end); none with --json or into a pipe.
    import os
    import pty
    import select
    import subprocess
    import sys

    def run_in(argv: list[str], *, tty: bool) -> str:
        env = {**os.environ, "COLUMNS": "100", "LINES": "30", "TERM": "xterm"}
        if not tty:
            done = subprocess.run(
                [sys.executable, "-m", "fogofwar", *argv], capture_output=True, text=True,
                env=env, cwd=tmp_path, timeout=300, check=True,
            )  # fmt: skip
            return done.stdout + done.stderr
        master, slave = pty.openpty()
        proc = subprocess.Popen(
            [sys.executable, "-m", "fogofwar", *argv], stdin=slave, stdout=slave,
            stderr=slave, env=env, cwd=tmp_path,
        )  # fmt: skip
        os.close(slave)
        out = b""
        while True:
            ready, _, _ = select.select([master], [], [], 60)
            if not ready:
                break
            try:
                chunk = os.read(master, 65536)
            except OSError:
                break
            if not chunk:
                break
            out += chunk
        proc.wait(timeout=60)
        os.close(master)
        return out.decode(errors="replace")

    argv = ["sim", "specter-ops", "-n", "12", "--workers", "1", "--set", "max_rounds=3"]
    shown = run_in(argv, tty=True)
    assert "playing" in shown and "games/s" in shown and "left" in shown and "12/12" in shown
    assert "agent" in shown  # the results table
    piped = run_in(argv, tty=False)
    assert "playing" not in piped and "games/s" not in piped and "agent" in piped
    quiet = run_in([*argv, "--json"], tty=True)
    assert "playing" not in quiet and '"games": 12' in quiet.replace("\r", "")


def test_inputs_past_their_bounds_get_one_line_not_a_traceback(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Each of these crashed (or ran for hours): a rule set without a sight explainer, an
    # attack distance that needs more than 100 exploding dice, a TN past int32, a
    # door's million shots, a batch of 10^20 games. RD dice go into captures only.
    code, _, err = run(capsys, "los", "demo", "C10", "F8", "--ruleset", "specter-ops")
    assert code == 2 and "no sight explainer" in err and "--model orthogonal" in err
    assert err.count("\n") == 1
    code, _, err = run(capsys, "los", "demo", "C10", "F8", "--ruleset", "warfighter")
    assert code == 2 and "--ruleset takes zero-dark" in err
    for argv in (
        ("odds", "specter-ops", "attack", "--distance", "606"),
        ("odds", "zero-dark", "test", "--dice", "1", "--tn", "2147483648"),
        ("odds", "warfighter", "door", "--cover", "5", "--hits", "20", "--shots", "1000000"),
        ("odds", "rock-n-roll", "torture", "--rd", "1"),
        ("sim", "warfighter", "-n", "99999999999999999999"),
        ("odds", "dice", "100d1000"),  # ran for hours: now a second or two, then refused
    ):
        code, out, err = run(capsys, *argv)
        assert code == 2 and "Traceback" not in out + err, argv
    code, out, _ = run(capsys, "odds", "specter-ops", "attack", "--distance", "99", "--json")
    assert code == 0 and json.loads(out)["hit"] == "1/4231664861184"
    with pytest.raises(RulesError, match="games must be 0 to 1,000,000"):
        run_batch("warfighter", games=10**20)
    with pytest.raises(RulesError, match="games must be 0 to 1,000,000"):
        run_batch("warfighter", games=1_000_001)


def test_play_never_overwrites_a_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # --record names a new file: an existing one (an unfinished game with its secret)
    # is kept, and a folder fails before the game, not when its record is saved.
    kept = tmp_path / "g.json"
    kept.write_text("{}", encoding="utf-8")
    code, _, err = run(capsys, "play", "warfighter", "--record", str(kept))
    assert code == 2 and "the file exists" in err and "--resume" in err
    assert kept.read_text(encoding="utf-8") == "{}"
    code, _, err = run(capsys, "play", "warfighter", "--record", str(tmp_path))
    assert code == 2 and "that is a folder" in err
    code, _, err = run(capsys, "play", "warfighter", "--record", str(kept / "x.json"))
    assert code == 2 and "is not a folder" in err


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs Linux's /proc")
def test_play_refuses_a_record_it_cannot_write_before_the_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # A folder that takes no new file (/proc, whatever the permission bits say) is
    # refused in one line before the first move, not once the game and its secret are
    # played and lost.
    monkeypatch.setattr("sys.stdin", io.StringIO("check S1 K1\nquit\n"))
    code, out, err = run(capsys, "play", "warfighter", "--record", "/proc/x.json")
    assert code == 2 and err.count("\n") == 1
    assert err.startswith("error: --record /proc/x.json: cannot save a record in /proc")
    assert "squad>" not in out and "Commitment" not in out
    # A missing folder is made when the record is saved; a device takes it as asked.
    nested = tmp_path / "new" / "folder" / "w.json"
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    code, out, _ = run(capsys, "play", "warfighter", "--record", str(nested))
    assert code == 0 and nested.is_file()
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    code, out, _ = run(capsys, "play", "warfighter", "--record", "/dev/null")
    # ... and is not offered as a record to replay or go on with.
    assert code == 0 and "Record stopped: sent to /dev/null, which is not a file" in out
    assert "--resume" not in out and "replay /dev/null" not in out


def test_resume_refuses_a_record_it_cannot_grow(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # play --resume saves in place: a record that cannot be written (a read-only disk;
    # faked here, as an administrator may write anything) is refused before the game.
    path = tmp_path / "r.json"
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    assert run(capsys, "play", "warfighter", "--record", str(path))[0] == 0

    def read_only(name: object, flags: int, *args: object) -> int:
        raise OSError(30, "Read-only file system")

    monkeypatch.setattr("fogofwar.commands.play.os.open", read_only)
    code, out, err = run(capsys, "play", "--resume", str(path))
    assert code == 2 and err.count("\n") == 1 and "Read-only file system" in err
    assert err.startswith(f"error: --resume {path}: cannot be written") and "squad>" not in out


def test_resume_given_two_records_by_a_pattern_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # `play --resume records/warfighter-*.json` after two games: the shell passes the
    # second record where a rule set may be named ("... is a warfighter game, not
    # records/warfighter-....json" said nothing of what went wrong).
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    for path in (first, second):
        monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
        assert run(capsys, "play", "warfighter", "--record", str(path))[0] == 0
    code, out, err = run(capsys, "play", "--resume", str(first), str(second))
    assert code == 2 and "squad>" not in out
    said = " ".join(err.split())
    assert f"--resume takes one record, and {second} is a second file" in said
    assert "did a pattern match more than one record?" in said
    code, _, err = run(capsys, "play", "specter-ops", "--resume", str(first))
    assert code == 2 and f"{first} is a warfighter game, not specter-ops" in err


def test_play_words_a_draw_as_replay_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # ZD-C8: no hero left on the table and no winner: "nobody won", in play as in replay
    # (play printed "Result:  won").
    path = tmp_path / "draw.json"
    code, out, _ = run(
        capsys, "play", "zero-dark", "--mission", "dead-drop", "--seat", "team1=zd-team",
        "--seat", "team2=zd-team", "--seed", "25", "--record", str(path),
    )  # fmt: skip
    assert code == 0
    (played,) = [line for line in out.splitlines() if line.startswith("Result:")]
    assert played == "Result: nobody won — no hero is left on the table [ZD-C8]"
    code, out, _ = run(capsys, "replay", str(path))
    assert code == 0 and out.rstrip().splitlines()[-1] == played


def test_piped_play_hands_the_screen_over_without_a_pause(tmp_path: Path) -> None:
    # From a pipe play reads one action a line (docs/terminal.md): handing the screen
    # from team1 to team2 waits for no Enter, which swallowed team2's line (ZD-B4: each
    # team records its choice in secret).
    lines = "prepare rescue hand\nprepare none buy\nquit\n"
    done = subprocess.run(
        [sys.executable, "-m", "fogofwar", "play", "zero-dark", "--mission", "dead-drop",
         "--seat", "team1=human", "--seat", "team2=human", "--record", "r.json"],
        input=lines, capture_output=True, text=True, cwd=tmp_path, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "press Enter" not in done.stdout
    from fogofwar.core.record import Record

    actions = [str(a) for a in Record.load(tmp_path / "r.json").actions]
    assert actions == ["prepare rescue hand", "prepare none buy"]


def test_what_would_silently_win_or_mislead_is_said(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # An option given twice (the later silently won), --vary beside --set of the same
    # option, a study's games.jsonl without --game (it said "expected valid JSON"), an
    # --open door off the board (it named another square), an expression starting "-".
    code, _, err = run(
        capsys, "sim", "warfighter", "-n", "1", "--set", "turns=4", "--set", "turns=5"
    )
    assert code == 2 and "turns is set twice: turns=4 and turns=5" in err
    code, _, err = run(
        capsys, "sim", "warfighter", "-n", "1", "--vary", "turns=4,5", "--set", "turns=5"
    )
    assert code == 2 and "--vary turns and --set turns" in err
    lines = tmp_path / "games.jsonl"
    lines.write_text('{"cell": "a"}\n{"cell": "b"}\n', encoding="utf-8")
    code, _, err = run(capsys, "replay", str(lines))
    assert code == 2 and "pass --game N" in err
    code, _, err = run(capsys, "los", "demo", "C10", "F8", "--open", "Z99 n")
    assert code == 2 and "--open Z99 n: that square is off the board" in err
    code, out, _ = run(capsys, "odds", "dice", "-d6+3", "--json")
    assert code == 0 and json.loads(out)["distribution"]["-3"] == "1/6"


def test_resume_takes_a_seat_given_now_in_place_of_the_records(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # QA (the docs): "--seat may change who plays a seat" on --resume, yet every --seat
    # was refused as "given twice" (the record's seat and the new one).
    path = tmp_path / "w.json"
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    assert run(capsys, "play", "warfighter", "--record", str(path))[0] == 0
    code, _, err = run(
        capsys, "play", "--resume", str(path), "--seat", "squad=bot", "--seat", "squad=human"
    )
    assert code == 2 and "given twice" in err  # twice now is still refused
    code, out, err = run(capsys, "play", "--resume", str(path), "--seat", "squad=wf-heuristic")
    assert code == 0, err
    assert "squad wf-heuristic" in out and "Result:" in out  # the bot played it to the end
    record = json.loads(path.read_text(encoding="utf-8"))
    assert record["meta"]["players"] == {"squad": "wf-heuristic"}
