"""``fogofwar play``: real terminal sessions driven through a pseudo-terminal."""

from __future__ import annotations

import codecs
import contextlib
import fcntl
import io
import json
import os
import pty
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pyte
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console

from fogofwar.cli import main
from fogofwar.commands.fit import MIN_BOARD, layout
from fogofwar.commands.play import _legal_summary, drawing, parse_seat_options
from fogofwar.commands.prompt import candidates
from fogofwar.core.errors import RulesError
from fogofwar.core.game import Action, get_ruleset
from fogofwar.core.record import Record, Recorder

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a pty")

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
# prompt_toolkit leaves the cursor after the prompt's trailing blank by moving it (back
# to the line's start, then forward), not by printing the blank: read as the blanks a
# terminal shows there.
BACK_FORTH = re.compile(r"\x1b\[(\d+)D\x1b\[(\d+)C")


def plain(chunk: str) -> str:
    """Terminal output as the text a person sees (colours and cursor moves dropped)."""
    chunk = BACK_FORTH.sub(lambda m: " " * max(0, int(m[2]) - int(m[1])), chunk)
    return ANSI.sub("", chunk)


def _controlling_terminal() -> None:
    """In the child: a new session whose controlling terminal is the pty (stdin), so
    that the terminal turns Ctrl-C into SIGINT for it, as a real terminal does."""
    os.setsid()
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)
    # A shell starts background jobs with SIGINT ignored, and an ignored signal stays
    # ignored across exec: the game must start as from a terminal, with the default.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def only_record(folder: Path, ruleset: str) -> Path:
    """The one record that ``play`` saved in ``folder``'s ``records/`` (named by rule set
    and time, never by the seed)."""
    (path,) = (folder / "records").glob(f"{ruleset}-*.json")
    return path


class Session:
    """A ``fogofwar play`` process on a pty: send lines, wait for text."""

    def __init__(
        self,
        *args: str,
        cwd: Path,
        size: tuple[int, int] = (120, 60),
        command: str = "play",
        term: str = "xterm",
    ) -> None:
        self.master, slave = pty.openpty()
        cols, rows = size
        # The terminal's size, as a terminal sets it (and as the environment says).
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        self.screen = pyte.Screen(cols, rows)  # what a person sees, at that size
        self.stream = pyte.Stream(self.screen)
        # A pty answers no cursor-position request (a terminal emulator does): say so,
        # as prompt_toolkit asks, instead of it waiting and warning at each prompt.
        env = {
            **os.environ,
            **{"COLUMNS": str(cols), "LINES": str(rows), "TERM": term},
            "PROMPT_TOOLKIT_NO_CPR": "1",
        }
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "fogofwar", command, *args],
            stdin=slave,
            stdout=slave,
            stderr=slave,
            cwd=cwd,
            env=env,
            preexec_fn=_controlling_terminal,  # Ctrl-C must reach it as SIGINT
        )
        os.close(slave)
        self.seen = ""
        self.raw = ""  # everything, escape sequences included
        # A character may be split between two reads.
        self.decode = codecs.getincrementaldecoder("utf-8")(errors="replace").decode

    def expect(self, pattern: str, timeout: float = 60.0) -> str:
        """Read until ``pattern`` (a regex) appears in the output since the last match."""
        deadline = time.monotonic() + timeout
        while True:
            found = re.search(pattern, self.seen)
            if found:
                out, self.seen = self.seen[: found.end()], self.seen[found.end() :]
                return out
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"timed out waiting for {pattern!r}; got:\n{self.seen}")
            ready, _, _ = select.select([self.master], [], [], left)
            if ready:
                try:
                    chunk = self.decode(os.read(self.master, 65536))
                except OSError:  # the child closed the terminal
                    chunk = ""
                if not chunk and self.proc.poll() is not None:
                    raise AssertionError(f"the game ended before {pattern!r}:\n{self.seen}")
                self.raw += chunk
                self.stream.feed(chunk)
                self.seen += plain(chunk)

    def send(self, line: str) -> None:
        """Type ``line`` and Enter, and read past its echo: the prompt draws the accepted
        line again before the game answers."""
        os.write(self.master, (line + "\r").encode())
        self.expect(re.escape(line) + r"\r*\n")

    def interrupt(self) -> None:
        # The prompt is printed just before input() starts its read; a SIGINT landing in
        # between is acted on only after the next Enter (python/cpython#112585). A
        # person's Ctrl-C never comes within microseconds of the prompt; the test waits too.
        time.sleep(0.5)
        os.write(self.master, b"\x03")  # Ctrl-C, as the terminal sends it

    def wait(self) -> int:
        try:
            return self.proc.wait(timeout=60)
        finally:
            os.close(self.master)


def test_human_agent_against_bots(tmp_path: Path) -> None:
    # The default: the person at the keyboard is the agent, the hunters are bots.
    s = Session(
        "specter-ops",
        *("--players", "2", "--seed", "4", "--set", "max_rounds=2"),
        *("--set", "characters=false"),
        cwd=tmp_path,
    )
    first = s.expect(r"agent> ")
    assert "agent hum" in first.replace("\n", "") or "agent human" in first
    # Its secret map; at the start its figure is on N1 for everyone to see (SO-S5).
    assert "secret" in first and "A!" in first
    s.send("step A30")
    refused = s.expect(r"agent> ")
    assert "refused" in refused and "SO-A1" in refused  # the reason and the rule
    s.send("move N1 N2 M3")
    s.expect(r"agent> ")  # round 2: the bots played the hunters
    s.send("stop")
    end = s.expect(r"Record saved: ")
    assert "Result:" in end and "hunters won" in end
    assert s.wait() == 0
    record = Record.load(only_record(tmp_path, "specter-ops"))
    assert record.outcome is not None and record.outcome.rule == "SO-G3"
    assert record.replay().outcome() == record.outcome
    assert [str(a) for a in record.actions[:3]] == ["step N2", "step M3", "stop"]


def test_two_humans_pass_the_screen_and_ctrl_c_saves(tmp_path: Path) -> None:
    s = Session(
        "specter-ops",
        "--players",
        "2",
        "--seed",
        "5",
        "--seat",
        "agent=human",
        "--seat",
        "hunter1=human",
        "--record",
        "game.json",
        *("--set", "characters=false"),
        cwd=tmp_path,
    )
    # The first screen is handed over too: whoever typed the command is not the agent.
    first = s.expect(r"Pass the screen to agent and press Enter ")
    assert "agent to act" not in first  # the agent's screen comes after the Enter
    s.send("")
    s.expect(r"agent> ")
    s.send("move N1 N2")
    handoff = s.expect(r"Pass the screen to hunter1 and press Enter ")
    assert "A@" not in handoff.split("agent> ")[-1]  # the agent's map is gone
    s.send("")
    hunter = s.expect(r"hunter1> ")
    assert "A@" not in hunter and "secret" not in hunter  # the hunter sees no secret
    # What happened since: the agent's public result, never its path.
    assert "Since hunter1's last action" in hunter and "The agent moved unseen." in hunter
    assert "path" not in hunter and "N2" not in hunter.split("The agent moved")[1][:40]
    # Events read as sentences, never as Python reprs, and each is listed once.
    assert "['H1'" not in hunter and "=None" not in hunter and "square=" not in hunter
    assert hunter.count("The agent moved unseen.") == 1
    assert "role" not in hunter or "loyal" in hunter
    s.send("attack")
    assert "refused" in s.expect(r"hunter1> ")
    s.interrupt()
    saved = s.expect(r"Record stopped: ")
    assert "game.json" in saved + s.expect(r"\n")
    assert s.wait() == 130
    record = Record.load(tmp_path / "game.json")
    assert record.outcome is None and [str(a) for a in record.actions] == ["step N2", "stop"]


def test_a_second_enter_typed_ahead_does_not_pass_the_hand_over(tmp_path: Path) -> None:
    # The agent presses Enter twice after its move. The second Enter used to answer the
    # hand-over at once (prompt_toolkit keeps keys read past a line for the next
    # prompt), and the agent was shown the hunter's screen.
    s = Session(
        "specter-ops",
        *("--players", "2", "--seed", "5", "--set", "characters=false"),
        *("--seat", "agent=human", "--seat", "hunter1=human"),
        cwd=tmp_path,
    )
    s.expect(r"Pass the screen to agent and press Enter ")
    s.send("")
    s.expect(r"agent> ")
    os.write(s.master, b"move N1 N2\r\r")  # Enter twice, in one burst
    s.expect(r"Pass the screen to hunter1 and press Enter ")
    try:
        shown = s.expect(r"hunter1> ", timeout=2.0)
    except AssertionError:
        shown = ""
    assert not shown, f"the typed-ahead Enter passed the hand-over:\n{shown}"
    s.send("")  # the hunter's own Enter
    s.expect(r"hunter1> ")
    s.interrupt()
    s.expect(r"Record stopped: ")
    assert s.wait() == 130
    (path,) = (tmp_path / "records").glob("specter-ops-*.json")
    assert [str(a) for a in Record.load(path).actions] == ["step N2", "stop"]


def test_a_shared_game_is_refused_where_the_screen_cannot_be_cleared(tmp_path: Path) -> None:
    # TERM=dumb: the hand-over's clear does nothing, so every seat's screen would stay
    # in sight of the next player. One person with bots plays as ever.
    s = Session(
        "rock-n-roll",
        *("--seed", "5", "--seat", "vpa=human", "--seat", "vietnam=human"),
        cwd=tmp_path,
        term="dumb",
    )
    refused = s.expect(r"fogofwar serve\)\.")
    assert "vietnam, vpa would share this terminal" in " ".join(refused.split())
    assert "TERM=dumb" in refused
    assert s.wait() != 0
    assert not (tmp_path / "records").exists()  # refused before the game began
    alone = Session(
        "rock-n-roll", *("--seed", "5", "--seat", "vpa=human"), cwd=tmp_path, term="dumb"
    )
    alone.expect(r"vpa> ")
    alone.interrupt()
    alone.expect(r"Record stopped: ")
    assert alone.wait() == 130


def test_a_shared_game_is_refused_when_its_output_is_piped(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # `fogofwar play ... | tee game.log`: a person types at the terminal, and the log
    # would keep every seat's screens. Lines fed from a file are a script: played.
    from fogofwar.commands.play import play

    piped = Console(file=io.StringIO(), width=100)
    assert not piped.is_terminal
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys.stdin, "isatty", lambda: True)
    two = ["vpa=human", "vietnam=human"]
    args = {"sets": [], "players": None, "seed": 5, "record": None, "console": piped}
    with pytest.raises(RulesError, match="its output is not a terminal") as refused:
        play("rock-n-roll", seats=two, **args)  # type: ignore[arg-type]
    assert "fogofwar serve" in str(refused.value)
    assert not (tmp_path / "records").exists()
    monkeypatch.setattr(sys.stdin, "isatty", lambda: False)
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    assert play("rock-n-roll", seats=two, **args) == 0  # type: ignore[arg-type]


def test_prompt_history_per_seat_and_tab_completion(tmp_path: Path) -> None:
    # Up recalls the seat's own last line (it used to be refused as "invalid notation
    # '\x1b[A'"); Tab completes kinds and arguments of the legal actions; and in a
    # pass-the-screen game the agent's typed moves never come back to a hunter's Up.
    s = Session(
        "specter-ops",
        *("--players", "2", "--seed", "5", "--set", "characters=false"),
        *("--seat", "agent=human", "--seat", "hunter1=human"),
        cwd=tmp_path,
    )
    s.expect(r"Pass the screen to agent and press Enter ")
    s.send("move N3 N4")  # typed at the hand-over by mistake: thrown away, and forgotten
    s.expect(r"agent> ")
    s.send("legal")
    listed = s.expect(r"agent> ")
    assert "step N2" in listed
    os.write(s.master, b"\x1b[A\r")  # Up, Enter: "legal" again
    s.expect(r"agent> legal\r*\n")
    again = s.expect(r"agent> ")
    assert "step N2" in again and "invalid notation" not in again
    for keys in (b"ste\t", b"N\t", b"\r"):  # Tab: "step ", then the one legal N square
        os.write(s.master, keys)
        time.sleep(0.3)  # a person's pace: completion answers before the next key
    s.expect(r"agent> step N2 ?\r*\n")
    s.expect(r"agent> ")
    s.send("stop")
    s.expect(r"Pass the screen to hunter1 and press Enter ")
    os.write(s.master, b"\x1b[A")  # Up at the hand-over: nothing comes back
    time.sleep(0.3)
    os.write(s.master, b"\r")
    handed = s.expect(r"hunter1> ")
    assert "N3" not in handed
    os.write(s.master, b"\x1b[A\r")  # the hunter's history is its own: empty
    accepted = s.expect(r"hunter1>[^\n]*\n")
    assert "stop" not in accepted and "N2" not in accepted and "legal" not in accepted
    s.interrupt()
    s.expect(r"Record stopped: ")
    assert s.wait() == 130
    (path,) = (tmp_path / "records").glob("specter-ops-*.json")
    assert [str(a) for a in Record.load(path).actions] == ["step N2", "stop"]


def test_seat_options_take_human_and_bot_in_any_case() -> None:
    # `--seat agent=Human` was refused as "unknown bot 'Human'".
    seats = ("agent", "hunter1")
    got = parse_seat_options(["agent=Human", "hunter1=BOT"], seats, {"hunter1": "so-hunter"})
    assert got == {"agent": "human", "hunter1": "so-hunter"}


def test_completion_candidates() -> None:
    legal = [
        Action("agent", "step", ("M1",)),
        Action("agent", "step", ("N2",)),
        Action("agent", "stop"),
    ]
    commands = ("help", "legal", "quit")
    assert candidates(legal, [], commands) == {"step", "stop", "help", "legal", "quit"}
    assert candidates(legal, ["step"], commands) == {"M1", "N2"}
    # A notation that expands to several actions: the arguments of the legal ones.
    assert candidates(legal, ["move", "N1"], commands) == {"M1", "N2"}
    assert candidates(legal, ["step", "N2"], commands) == set()  # nothing after it
    assert candidates(legal, ["help"], commands) == set()


def test_quit_saves_and_stops(tmp_path: Path) -> None:
    # The default game has characters (SO-S4): the bot hunters pick theirs, then the
    # agent at the keyboard is asked for its own.
    s = Session("specter-ops", "--seed", "1", "--record", "q.json", cwd=tmp_path)
    first = s.expect(r"agent> ")
    assert "character cobra" in first
    s.send("help")
    assert "move N1 N2 M3" in s.expect(r"agent> ")
    s.send("quit")
    s.expect(r"Record stopped: ")
    assert s.wait() == 0
    actions = Record.load(tmp_path / "q.json").actions
    assert actions and all(a.seat != "agent" and a.kind == "character" for a in actions)


def test_quit_then_resume_goes_on_from_the_record(tmp_path: Path) -> None:
    # quit exits 0 and says how to continue; --resume replays the record (its seats, its
    # secret) and the game goes on where it stopped, the record growing in place.
    args = ("--players", "2", "--seed", "5", "--set", "characters=false")
    s = Session("specter-ops", *args, cwd=tmp_path)
    s.expect(r"agent> ")
    s.send("move N1 N2")
    s.expect(r"agent> ")  # the bot hunters have moved
    s.send("quit")
    stopped = s.expect(r"Continue it: fogofwar play --resume \S+\.json")
    assert "records/specter-ops-" in stopped
    assert s.wait() == 0
    path = only_record(tmp_path, "specter-ops")
    before = Record.load(path)
    state = before.replay()
    assert not state.is_over and state.to_act() == {"agent"}
    step = str(state.legal_actions("agent")[0])

    s = Session("--resume", str(path.relative_to(tmp_path)), cwd=tmp_path)
    back = s.expect(r"agent> ")
    assert f"Resumed from records/{path.name}: {len(before.actions)} actions" in back
    assert before.commitment is not None and before.commitment in back  # the same secret
    assert "Since agent's last action" in back  # what the bots did before the quit
    s.send(step)
    s.expect(r"agent> ")
    s.send("quit")
    s.expect(r"Record stopped: ")
    assert s.wait() == 0
    after = Record.load(path)
    assert after.actions[: len(before.actions)] == before.actions
    assert str(after.actions[len(before.actions)]) == step
    assert after.seed == before.seed and after.meta["players"] == before.meta["players"]
    assert after.replay().view("agent") is not None  # and it replays whole


def test_a_seeded_game_resumed_goes_on_as_it_would_have(tmp_path: Path) -> None:
    # A seeded game's bots draw from the seed (docs/trust.md), a stream a decision keyed
    # by the actions played: stopped and resumed from its record, the game goes on as
    # the game played through (an audit found the resumed bots drawing from a fresh
    # secret). The agent at the keyboard plays the first legal action each turn.
    from rich.console import Console

    from fogofwar.commands.play import TerminalGame

    rs = get_ruleset("specter-ops")
    config = {"players": 3, "characters": False}
    players = {"agent": "human", "hunter1": "random", "hunter2": "random"}

    def play(turns: int, path: Path, resume: Record | None = None) -> Record:
        lines = iter([*([""] * turns), "quit"])

        def read(prompt: str) -> str:
            line = next(lines)
            return line or str(game.state.legal_actions("agent")[0])

        game = TerminalGame(
            rs, config, None if resume else 7, players, console=Console(file=io.StringIO()),
            record_path=path, read=read, resume=resume,
        )  # fmt: skip
        assert game.run() == 0
        return Record.load(path)

    through = play(8, tmp_path / "through.json")
    stopped = play(3, tmp_path / "stopped.json")
    assert stopped.seeded and len(stopped.actions) < len(through.actions)
    resumed = play(5, tmp_path / "stopped.json", resume=stopped)
    assert resumed.actions == through.actions
    assert any(a.seat != "agent" for a in resumed.actions[len(stopped.actions) :])


def test_resume_refuses_what_it_cannot_continue(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    rs = get_ruleset("specter-ops")
    rec = Recorder(rs, {"players": 2, "characters": False}, 3, meta={"players": {}})
    rec.apply(rec.state.legal_actions("agent")[0])
    rec.record().save(tmp_path / "open.json")
    data = json.loads((tmp_path / "open.json").read_text())
    data["digests"][0] = "0" * len(data["digests"][0])
    (tmp_path / "changed.json").write_text(json.dumps(data))
    finished = Recorder(rs, {"players": 2, "characters": False, "max_rounds": 1}, 3)
    while not finished.state.is_over:
        (seat,) = finished.state.to_act()
        finished.apply(finished.state.legal_actions(seat)[-1])
    finished.record().save(tmp_path / "done.json")
    for argv, words in (
        (["play", "--resume", "changed.json"], "changed at or before this action"),
        (["play", "--resume", "done.json"], "that game is over"),
        (["play", "zero-dark", "--resume", "open.json"], "is a specter-ops game"),
        (["play", "--resume", "open.json", "--seed", "4"], "--seed cannot change it"),
        (["play", "--resume", "missing.json"], "missing.json"),
        (["play"], "--resume RECORD"),
    ):
        code = main(argv)
        err = capsys.readouterr().err
        assert code == 2 and err.startswith("error:") and err.count("\n") == 1, (argv, err)
        assert words in err, (argv, err)


def _shown(s: Session) -> list[str]:
    """The terminal's lines as a person sees them now (trailing blanks dropped)."""
    return [line.rstrip() for line in s.screen.display]


def _settle(s: Session, prompt: str) -> list[str]:
    s.expect(prompt)
    time.sleep(0.3)  # the prompt's own drawing
    with contextlib.suppress(AssertionError):
        s.expect(r"\Z\n", timeout=0.3)  # read what is left
    return _shown(s)


@pytest.mark.parametrize("size", [(80, 24), (160, 70)])
def test_specter_ops_screen_fits_the_terminal(tmp_path: Path, size: tuple[int, int]) -> None:
    # At 80×24 the board is a window around the agent's own figure with its column
    # letters; the status, the legal line and the prompt stay in sight. At a large size
    # it is all there. `map` shows the whole board, `legend` every symbol.
    cols, rows = size
    s = Session(
        "specter-ops", *("--players", "2", "--seed", "4", "--set", "characters=false"),
        cwd=tmp_path, size=size,
    )  # fmt: skip
    start = s.expect(r"agent> ")
    assert "an escape point" in start  # the legend, once at the start
    lines = _settle(s, r"")
    assert len(lines) == rows and all(len(line) <= cols for line in lines)
    text = "\n".join(lines)
    assert [line for line in lines if line][-1].startswith("agent>")
    assert any(line.startswith("legal: step") for line in lines)
    assert "round     1 of 40" in text and "secret    on N1" in text
    letters = [line for line in lines if line.lstrip().startswith("A B C D")]
    assert letters and ("A!" in text or "A@" in text)
    if rows < 32:
        assert "map shows all of it" in text and "32 " not in text
    else:
        assert "map shows all" not in text and "32 " in text and "objectives 0/4" in text
    s.send("map")
    whole = s.expect(r"agent> ")
    assert "32 " in whole and " 1 " in whole and "A B C" in whole
    s.interrupt()
    s.expect(r"Record stopped: ")
    assert s.wait() == 130


def test_zero_dark_screen_fits_80_columns(tmp_path: Path) -> None:
    # The 99-column map is cut left and right around the hero in focus, not wrapped.
    s = Session("zero-dark", "--seed", "3", cwd=tmp_path, size=(80, 24))
    lines = _settle(s, r"team> ")
    assert all(len(line) <= 80 for line in lines) and lines[-1].startswith("team>")
    text = "\n".join(lines)
    assert "H1↗" in text and "turn 1 · deck 51 left" in text and "legal: activate" in text
    assert any(line.lstrip().startswith("A   B   C") for line in lines)
    assert "map shows all of it" in text
    s.send("map")  # the whole map in strips of 80 columns: every column letter
    whole = s.expect(r"team> ")
    assert " X " in whole and "24 " in whole and all(f" {c} " in whole for c in "ABWX")
    s.send("legend")
    legend = s.expect(r"team> ")
    assert "a ping" in legend and "closed door" in legend and "bulkhead" in legend
    s.send("quit")
    s.expect(r"Record stopped: ")
    assert s.wait() == 0


def test_seat_options() -> None:
    seats = ("agent", "hunter1", "hunter2")
    assert parse_seat_options([], seats) == {
        "agent": "human",
        "hunter1": "random",
        "hunter2": "random",
    }
    assert parse_seat_options(["hunter2=human"], seats) == {
        "agent": "random",
        "hunter1": "random",
        "hunter2": "human",
    }
    # "bot" and unnamed seats get the rule set's default bot (Specter Ops: heuristic).
    defaults = {"agent": "so-agent", "hunter1": "so-hunter", "hunter2": "so-hunter"}
    assert parse_seat_options(["agent=bot", "hunter1=random"], seats, defaults) == {
        "agent": "so-agent",
        "hunter1": "random",
        "hunter2": "so-hunter",
    }
    for bad in (["hunter9=human"], ["agent"], ["agent="]):
        with pytest.raises(RulesError):
            parse_seat_options(bad, seats)


def test_play_bad_options_are_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (
        ["play", "specter-ops", "--seat", "hunter7=human"],
        ["play", "specter-ops", "--players", "9"],
        ["play", "specter-ops", "--seat", "agent=nobot"],
        ["play", "no-such-game"],
    ):
        code = main(argv)
        err = capsys.readouterr().err
        assert code == 2 and err.startswith("error:") and err.count("\n") == 1, (argv, err)


def test_all_bots_game_runs_to_the_end(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Every seat a bot: the game plays itself and ends with the whole board and result.
    monkeypatch.chdir(tmp_path)
    code = main(
        ["play", "specter-ops", "--seat", "agent=bot", "--seed", "2", "--set", "max_rounds=3"]
    )
    out = capsys.readouterr().out
    assert code == 0 and "Result:" in out and "final" in out
    assert only_record(tmp_path, "specter-ops").exists()


def test_zero_dark_team_at_the_terminal(tmp_path: Path) -> None:
    # The team seat plays; a refused step names its rule; the tested action, then the
    # Spook's choice of a flip; quit saves a record that replays.
    s = Session(
        "zero-dark", "--set", "map=zd-open", "--seed", "4", "--record", "zd.json", cwd=tmp_path
    )
    first = s.expect(r"team> ")
    assert "H1" in first and "hand: " in first
    s.send("help")
    assert "activate H2" in s.expect(r"team> ")
    s.send("los H1 H2")  # the sight explainer on the team's own view
    explained = s.expect(r"team> ")
    assert "H1 → H2:" in explained and "range" in explained and "blocked by" in explained
    s.send("los H1 Q99")
    assert "refused" in s.expect(r"team> ")
    s.send("activate H1")
    s.expect(r"team> ")
    s.send("step A1")
    refused = s.expect(r"team> ")
    assert "refused" in refused and "FR-M1" in refused
    s.send("move J22 J21")
    assert "tested action" in s.expect(r"team> ")
    s.send("pass")
    assert "flip the Control Deck" in s.expect(r"team> ")
    s.send("flip")
    after = s.expect(r"team> ")
    assert "flip" in after and "choose who acts" in after
    s.send("quit")
    s.expect(r"Record stopped: ")
    assert s.wait() == 0
    record = Record.load(tmp_path / "zd.json")
    assert [str(a) for a in record.actions] == [
        "activate H1",
        "step J22",
        "step J21",
        "stop",
        "pass",
        "flip",
    ]
    assert record.replay().view(None).canonical()


DRILL_BOARD = """\
name: Zero Dark: exit drill
description: A room by the exit and a hall behind a bulkhead.
format: 1

[legend]
.  deck      passable    transparent
X  bulkhead  impassable  opaque       cyl=9

[terrain]
  ......X.....
  ......X.....
  ......X.....
  ......X.....
  ......X.....
  ............

[markers]
heroes: A1-C2
exit: D1-D2
ping: J1-L2 J3 K3
deployment: J5 K5 L5
objective: A6
"""

DRILL_MISSION = """\
name: Exit drill
description: Walk to the exit and leave.
map: drill.board
mode: solo
heroes: 1
red_force: grunt=1
task: none
buy_time: false
win: exit
"""


def test_zero_dark_mission_at_the_terminal(tmp_path: Path) -> None:
    # ZD-C8 at the table: a whole mission from a mission file, played at a real terminal
    # by the team's seat — the map with the facing arrows, the Control Deck and hand, a
    # move, the tested action, the Spook's flip, the exit, the mission report, the record.
    (tmp_path / "drill.board").write_text(DRILL_BOARD, encoding="utf-8")
    (tmp_path / "drill.mission").write_text(DRILL_MISSION, encoding="utf-8")
    s = Session("zero-dark", "--mission", "drill.mission", "--seed", "3", cwd=tmp_path)
    first = s.expect(r"team> ")
    found = re.search(r"H1 ([A-C])([12]) ([↗↖↘↙])(NE|NW|SE|SW)", first)
    assert found is not None, first
    col, row, arrow = found.group(1), found.group(2), found.group(3)
    assert f"H1{arrow}" in first  # the facing on the map itself
    # The Control Deck less the Spook's hand of D cards (ZD-C7); the ping as a counter of
    # unknown type (FR-P4).
    assert "deck 51 left" in first and "hand: " in first and "P1?" in first
    s.send("activate H1")
    s.expect(r"team> ")
    path = [f"{c}{row}" for c in "BCD" if c > col]
    s.send("move " + " ".join(path))
    assert "tested action" in s.expect(r"team> ")
    s.send("pass")
    assert "flip the Control Deck" in s.expect(r"team> ")
    s.send("flip")
    assert "choose who acts" in s.expect(r"team> ")
    s.send("activate H1")
    s.expect(r"team> ")
    s.send("exit")
    end = s.expect(r"Record saved: ")
    assert "mission success" in end and "H1" in end and "XP" in end
    assert s.wait() == 0
    record = Record.load(only_record(tmp_path, "zero-dark"))
    assert record.outcome is not None and record.outcome.rule == "ZD-C8"
    assert record.replay().outcome() == record.outcome
    assert [str(a) for a in record.actions][-1] == "exit"


def test_rock_n_roll_at_the_terminal(tmp_path: Path) -> None:
    # PT-C3 at the table: Vietnam's seat deploys, a refused action names its rule, the
    # orders phase, the end of the turn; the VPA bot plays; quit saves a record that
    # replays. The VPA's hand never shows on Vietnam's screen.
    s = Session(
        "rock-n-roll",
        "--seat",
        "vietnam=human",
        "--seed",
        "3",
        "--record",
        "rnr.json",
        cwd=tmp_path,
    )
    first = s.expect(r"vietnam> ")
    assert "hand: V1[" in first and "vpa: RD 3" in first
    assert "VP" not in first.split("hand: ", 1)[1].split("\n", 1)[0]  # only its own cards
    s.send("deploy V1 C")
    refused = s.expect(r"vietnam> ")
    assert "refused" in refused and "PT-C2" in refused  # only the outermost Points
    s.send("deploy V1 A")
    assert "V1" in s.expect(r"vietnam> ")
    s.send("orders")
    s.expect(r"vietnam> ")
    s.send("end")
    offer = s.expect(r"vietnam> ", timeout=120)
    # PT-D3: before each of the VPA's actions Vietnam is offered its interrupt;
    # "pass turn" declines it for the rest of the VPA's turn.
    assert "legal: deal interrupt; pass" in offer
    s.send("pass turn")
    back = s.expect(r"vietnam> ", timeout=120)
    assert "turn: vietnam" in back and "Since vietnam's last action" in back
    s.send("quit")
    s.expect(r"Record stopped: ")
    assert s.wait() == 0
    record = Record.load(tmp_path / "rnr.json")
    mine = [str(a) for a in record.actions if a.seat == "vietnam"]
    assert mine[:4] == ["deploy V1 A", "orders", "end", "pass turn"]
    assert any(a.seat == "vpa" for a in record.actions)
    assert record.replay().view(None).canonical()


def test_warfighter_at_the_terminal(tmp_path: Path) -> None:
    # WF-C5 at the table: the squad's seat moves a Soldier (the Location's checks roll on
    # entering, WF-A4), a refused action names its rule, the turn ends and the hostile
    # turn follows; quit saves a record that replays.
    s = Session(
        "warfighter", "--mission", "dagon", "--seed", "3", "--record", "wf.json", cwd=tmp_path
    )
    first = s.expect(r"squad> ")
    assert "Dagon" in first and "S1 " in first and "face down" in first
    s.send("move S1 L5")
    refused = s.expect(r"squad> ")
    assert "refused" in refused and "WF-C" in refused
    # Input that looks like console markup is refused as notation and shown as typed
    # (a "[/]" used to stop the game with a traceback).
    s.send("[/] [red]x")
    odd = s.expect(r"squad> ")
    assert "refused" in odd and "[/]" in odd and "Traceback" not in odd
    s.send("move S1 L2")
    entered = s.expect(r"squad> ")
    assert "L2 revealed" in entered
    s.send("end")
    after = s.expect(r"squad> ", timeout=120)
    assert "turn 2" in after
    s.send("quit")
    s.expect(r"Record stopped: ")
    assert s.wait() == 0
    record = Record.load(tmp_path / "wf.json")
    assert [str(a) for a in record.actions][:2] == ["move S1 L2", "end"]
    assert record.replay().view(None).canonical()


@pytest.mark.parametrize(
    ("ruleset", "extra", "seat"),
    [
        ("rock-n-roll", ["--seat", "vietnam=bot", "--set", "rounds=3"], "vpa"),
        ("warfighter", ["--seat", "squad=bot", "--mission", "dagon"], "squad"),
    ],
)
def test_card_games_with_bots_run_to_the_end(
    ruleset: str,
    extra: list[str],
    seat: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Every seat a bot (the default heuristic): the game plays itself to its result, and
    # the record replays to the same outcome.
    monkeypatch.chdir(tmp_path)
    code = main(["play", ruleset, *extra, "--seed", "5"])
    out = capsys.readouterr().out
    assert code == 0 and "Result:" in out
    path = only_record(tmp_path, ruleset)
    record = Record.load(path)
    assert record.outcome is not None and record.replay().outcome() == record.outcome
    # `replay`: one seat's view, and the whole game once it is over.
    n = len(record.actions)
    assert main(["replay", str(path), "--seat", seat]) == 0
    assert f"end of {n} — {seat}" in capsys.readouterr().out
    assert main(["replay", str(path)]) == 0
    assert f"end of {n}" in capsys.readouterr().out


def test_legal_summary_keeps_the_bare_kind() -> None:
    # "pass" and "pass turn" are two actions; long lists are cut with their count.
    legal = [
        Action("vpa", "deal", ("interrupt",)),
        Action("vpa", "pass"),
        Action("vpa", "pass", ("turn",)),
    ]
    assert _legal_summary(legal) == "deal interrupt; pass; pass turn"
    many = [Action("s", "deploy", (f"V{i}", "A")) for i in range(14)]
    summary = _legal_summary(many)
    assert summary.startswith("deploy (14: V0 A | V1 A |") and summary.endswith("| …)")


def test_plain_text_drawings_are_not_markup() -> None:
    # A card game's "V12[V! 2x2]" and "[dealt, rock'n'roll]" are text, not console markup.
    from rich.console import Console

    rs = get_ruleset("rock-n-roll")
    state = rs.new_game({}, 3)
    console = Console(width=200, record=True)
    console.print(drawing(rs, state.view("vpa"), state.config))
    text = console.export_text()
    assert "key: ID[side(V Vietnam" in text and "[rock'n'roll]" in text


def test_a_seat_sees_the_results_of_its_own_action(tmp_path: Path) -> None:
    # The dice and results of the seat's own action come first in "Since …" (here a
    # Warfighter move: the Location's checks rolled on entering, WF-A9).
    s = Session("warfighter", "--mission", "dagon", "--seed", "3", cwd=tmp_path)
    s.expect(r"squad> ")
    s.send("move S1 L2")
    after = s.expect(r"squad> ")
    news = after.split("Since squad's last action:", 1)[1]
    assert "S1 L1 → L2" in news and "L2 revealed" in news  # sentences, not kinds
    s.send("quit")
    s.expect(r"Record stopped: ")
    assert s.wait() == 0


def test_play_listens_to_ctrl_c_and_restores_the_handler(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Started with SIGINT ignored (a background job), play still turns Ctrl-C into a saved
    # stop while it runs, and leaves the handler as it found it.
    monkeypatch.chdir(tmp_path)
    seen: list[object] = []

    def read(prompt: str) -> str:
        seen.append(signal.getsignal(signal.SIGINT))
        raise KeyboardInterrupt

    from rich.console import Console

    from fogofwar.commands.play import TerminalGame

    rs = get_ruleset("warfighter")
    config = rs.resolve_config({})
    before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        game = TerminalGame(
            rs,
            config,
            1,
            {"squad": "human"},
            console=Console(),
            record_path=tmp_path / "r.json",
            read=read,
        )
        assert game.run() == 130
        assert seen == [signal.default_int_handler]
        assert signal.getsignal(signal.SIGINT) == signal.SIG_IGN
    finally:
        signal.signal(signal.SIGINT, before)
    assert Record.load(tmp_path / "r.json").actions == ()


@pytest.mark.parametrize(
    ("ruleset", "has", "lacks"),
    [
        ("warfighter", ["pick S2 H3 [up]", "legal", "quit"], ["los A B", "map", "legend"]),
        ("rock-n-roll", ["deploy V3 A", "log"], ["los A B", "map"]),
        ("specter-ops", ["move N1 N2 M3", "map", "legend"], ["los A B"]),
        ("zero-dark", ["los A B", "map", "legend"], []),
    ],
)
def test_help_lists_the_words_that_apply(
    tmp_path: Path, ruleset: str, has: list[str], lacks: list[str]
) -> None:
    # The notation aligned in two columns ("[up]" is text, not markup), then only the
    # prompt's words that mean something here: no sight explainer in a card game.
    from rich.console import Console

    from fogofwar.commands.play import TerminalGame

    rs = get_ruleset(ruleset)
    config = {"characters": False} if ruleset == "specter-ops" else {}
    seat = rs.seats(rs.resolve_config(config))[0]
    lines = iter(["help", "quit"])
    console = Console(record=True, width=80, height=40)
    game = TerminalGame(
        rs, config, 1, {seat: "human"}, console=console, record_path=tmp_path / "h.json",
        read=lambda prompt: next(lines),
    )  # fmt: skip
    assert game.run() == 0
    out = console.export_text().split("Type an action", 1)[1]
    words = {line.split("  ")[0].strip() for line in out.splitlines()}
    for word in has:
        assert word in out, word
    for word in lacks:
        assert word not in words, word


def test_replay_steps_one_action_per_enter(tmp_path: Path) -> None:
    # `replay --step` at a terminal: one action per Enter, q stops (no flood of frames).
    rs = get_ruleset("specter-ops")
    rec = Recorder(rs, {"players": 2, "characters": False, "max_rounds": 1}, 3)
    while not rec.state.is_over:
        (seat,) = rec.state.to_act()
        rec.apply(rec.state.legal_actions(seat)[-1])
    rec.record().save(tmp_path / "g.json")
    s = Session("g.json", "--seat", "hunter1", "--step", cwd=tmp_path, command="replay")
    first = s.expect(r"Enter for the next action, q to stop ")
    assert "start — hunter1" in first and "after action 1 " not in first
    s.send("")
    second = s.expect(r"Enter for the next action, q to stop ")
    assert "after action 1 of" in second and "after action 2 of" not in second
    s.send("q")
    assert s.wait() == 0


@settings(max_examples=500, deadline=None)
@given(
    height=st.integers(10, 90),
    facts=st.integers(0, 20),
    news=st.integers(0, 40),
    board=st.integers(0, 80),
)
def test_layout_fits_the_height(height: int, facts: int, news: int, board: int) -> None:
    # Rule, news (with its heading), board (with the "a window" line when cut), facts,
    # legal line and prompt: never more lines than the terminal has, when the terminal
    # leaves the board its minimum; everything whole when it all fits.
    fit = layout(height=height, fixed=3, facts=facts, news=news, board=board)
    used = 3 + facts + (1 + fit.news if fit.news else 0) + fit.board + (1 if fit.cut else 0)
    if height - 3 - facts >= MIN_BOARD + 2:
        assert used <= height
    if 3 + facts + board + news + (1 if news else 0) <= height:
        assert (fit.news, fit.board, fit.cut) == (news, board, False)
    assert fit.news <= news and fit.board <= max(board, 2)


def test_a_refused_input_does_not_tell_a_roll_before_it_counts(tmp_path: Path) -> None:
    # "check S1 K1; check S1 K1; ..." was tried as a whole and refused with nothing
    # played, in words that told whether the first check's roll succeeded ("gained
    # already") or failed ("no Actions left"), so a bad roll could be declined. The
    # actions before the refused one are now played, and the roll counts.
    s = Session(
        "warfighter", "--mission", "dagon", "--seed", "3", "--record", "wf.json", cwd=tmp_path
    )
    s.expect(r"squad> ")
    s.send("check S1 K1; check S1 K1; move S1 L9")
    answer = s.expect(r"squad> ")
    assert "refused" in answer and "actions were played" in answer
    s.send("quit")
    s.expect(r"Record stopped: ")
    assert s.wait() == 0
    record = Record.load(tmp_path / "wf.json")
    assert [str(a) for a in record.actions][:1] == ["check S1 K1"]


def test_a_cut_legal_line_keeps_every_kind_in_sight() -> None:
    # At 80 columns the agent's card choice listed nine cards and cut the line before
    # `done`: each kind now shows fewer of its arguments, down to its count.
    legal = [Action("agent", "card", (f"card-number-{i}",)) for i in range(9)]
    legal.append(Action("agent", "done"))
    whole = _legal_summary(legal)
    assert whole.endswith("; done") and len(whole) > 73
    cut = _legal_summary(legal, 73)
    assert len(cut) <= 73 and cut.endswith("; done")
    assert cut.startswith("card (9: card-number-0 | ") and "…)" in cut
    assert _legal_summary(legal, 20) == "card (9); done"
    assert _legal_summary(legal, len(whole)) == whole


def test_ctrl_c_with_nobody_reading_still_saves_the_record(tmp_path: Path) -> None:
    # Piped through `tee`, Ctrl-C stops the reader too: the first print after it failed
    # (a broken pipe) before the record was written, and the game was lost.
    from rich.console import Console

    from fogofwar.commands.play import TerminalGame

    class Gone(io.StringIO):
        broken = False

        def write(self, text: str) -> int:
            if self.broken:
                raise BrokenPipeError
            return super().write(text)

    out = Gone()

    def read(prompt: str) -> str:
        out.broken = True
        raise KeyboardInterrupt

    rs = get_ruleset("specter-ops")
    game = TerminalGame(
        rs, {"characters": False}, 1, {"agent": "human"}, console=Console(file=out, width=80),
        record_path=tmp_path / "g.json", read=read,
    )  # fmt: skip
    assert game.run() == 130
    assert Record.load(tmp_path / "g.json").outcome is None
