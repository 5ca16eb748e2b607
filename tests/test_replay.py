"""``fogofwar replay``, ``sim --records`` and the Specter Ops terminal drawing."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from fogofwar.cli import main
from fogofwar.core.game import Action, get_ruleset
from fogofwar.core.record import Record, Recorder
from fogofwar.games.specter_ops.state import SpecterOpsState
from tests.games.specter_ops.helpers import games_apart_hidden

RS = get_ruleset("specter-ops")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("records")
    code = main(
        [
            "sim",
            "specter-ops",
            "-n",
            "2",
            "--set",
            "max_rounds=3",
            "--records",
            str(folder),
            "--json",
        ]
    )
    assert code == 0
    return folder


def test_sim_saves_a_record_per_game(records: Path) -> None:
    files = sorted(p.name for p in records.iterdir())
    assert files == ["game-0000.json", "game-0001.json"]
    record = Record.load(records / "game-0000.json")
    assert record.ruleset == "specter-ops" and record.outcome is not None
    record.replay()  # every action legal, the same outcome


def test_replay_a_seat(records: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "replay", str(records / "game-0000.json"), "--seat", "hunter1")
    assert code == 0
    assert "A B C D" in out and "seat" in out and "hunter1" in out
    assert "possible" in out and "result" in out
    assert "A@" not in out  # the agent's own marker is in the agent's view only
    code, out, _ = run(capsys, "replay", str(records / "game-0000.json"), "--seat", "agent")
    assert code == 0 and "secret" in out


def test_replay_whole_after_the_game(records: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Without --seat a finished game is shown whole: the final secrets, the agent's square.
    code, out, _ = run(capsys, "replay", str(records / "game-0001.json"))
    assert code == 0 and "final" in out and "A*" in out and "everyone" in out
    # It ends with the result line (item 6 of issue 21), stepped or not.
    record = Record.load(records / "game-0001.json")
    assert record.outcome is not None
    assert out.rstrip().splitlines()[-1].startswith("Result: ")
    assert record.outcome.reason in out.rstrip().splitlines()[-1]


def test_replay_step_by_step(records: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = Record.load(records / "game-0000.json")
    code, out, _ = run(
        capsys, "replay", str(records / "game-0000.json"), "--seat", "hunter2", "--step"
    )
    assert code == 0
    assert out.count("after action") == len(record.actions)
    assert "start — hunter2" in out
    assert out.rstrip().splitlines()[-1].startswith("Result: ")
    # A hunter's frame titles do not name the agent's (secret) steps.
    assert "agent: step" not in out


def test_replay_refuses_bad_input(records: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = str(records / "game-0000.json")
    code, _, err = run(capsys, "replay", path, "--seat", "hunter9")
    assert code == 2 and "no seat 'hunter9'" in err and err.count("\n") == 1
    code, _, err = run(capsys, "replay", str(records / "missing.json"))
    assert code == 2 and err.startswith("error:")


def test_replay_unfinished_needs_a_seat(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Anything but one seat's view of an unfinished game would show hidden things.
    recorder = Recorder(RS, {"characters": False, "players": 2}, 5)
    recorder.apply(Action("agent", "step", ("N2",)))
    path = tmp_path / "unfinished.json"
    recorder.record().save(path)
    code, _, err = run(capsys, "replay", str(path))
    assert code == 2 and "not over" in err and "--seat" in err
    code, out, _ = run(capsys, "replay", str(path), "--seat", "agent")
    assert code == 0 and "last action of 1" in out


def test_replay_damaged_record_names_the_action(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    recorder = Recorder(RS, {"characters": False, "players": 2}, 5)
    recorder.apply(Action("agent", "step", ("N2",)))
    data = recorder.record().to_json()
    data["actions"] = [{"seat": "agent", "kind": "step", "args": ["A30"]}]  # not adjacent
    path = tmp_path / "damaged.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    code, _, err = run(capsys, "replay", str(path), "--seat", "agent")
    assert code == 2 and "action 1 (" in err  # counted from 1, as replay --step counts


def test_replay_other_rule_sets_fall_back_to_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "recs"
    code = main(
        ["sim", "tests.example_game:HideAndSeek", "-n", "1", "--records", str(folder), "--json"]
    )
    capsys.readouterr()
    assert code == 0
    code, out, _ = run(capsys, "replay", str(folder / "game-0000.json"))
    assert code == 0 and '"ruleset": "hide-and-seek"' in out


def test_render_is_built_from_the_view_only() -> None:
    # SO-I1: the drawing of a hunter's view is the same whatever the hidden agent's
    # square; the agent's own drawing shows it.
    a, b = games_apart_hidden()
    from rich.console import Console

    def drawn(state: SpecterOpsState, seat: str) -> str:
        console = Console(width=120, record=True, color_system=None)
        console.print(RS.render(state.view(seat), state.config))
        return console.export_text()

    assert a.view("hunter1").data == b.view("hunter1").data
    assert drawn(a, "hunter1") == drawn(b, "hunter1")
    assert drawn(a, "agent") != drawn(b, "agent") and "A@" in drawn(a, "agent")


def test_demo_plays_a_game(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "demo")
    assert code == 0 and "A game: Specter Ops" in out and "Result:" in out
    # The other rule sets: a game each between heuristic bots, and a roll's odds.
    assert "The other rule sets" in out
    for name in ("Zero Dark: the-boss", "Rock-n-Roll, 3 rounds", "Warfighter: Dagon"):
        assert name in out
    assert "[PT-C6]" in out and "success 1/3, backfire 1/6, nothing 1/2" in out


def _frames(out: str) -> dict[int, str]:
    """A stepped replay's frames by action number (1 is the frame after action 1)."""
    parts = re.split(r"after action (\d+) of \d+", out)
    return {int(n): text for n, text in zip(parts[1::2], parts[2::2], strict=True)}


def _flat(text: str) -> str:
    return " ".join(text.split())  # a long sentence may wrap at the console's width


@pytest.mark.parametrize(
    ("ruleset", "config", "ends_a_turn"),
    [
        ("warfighter", {}, "— hostile turn"),
        ("zero-dark", {"map": "zd-open"}, "Turn 2."),
        ("rock-n-roll", {}, None),
        ("specter-ops", {"characters": False, "players": 2}, None),
    ],
)
def test_replay_step_shows_what_the_seat_was_told(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    ruleset: str,
    config: dict[str, object],
    ends_a_turn: str | None,
) -> None:
    # Each step of `replay --step` shows every event its seat was told at that action,
    # as play's "Since …" does: an action that ends a turn too (Warfighter's end, then
    # the hostile turn; Zero Dark's last flip, the pings' moves, the next turn), whose
    # events the view's "this turn" list has already dropped.
    rs = get_ruleset(ruleset)
    recorder = Recorder(rs, config, 7)
    pick = random.Random(7)
    while not recorder.state.is_over and len(recorder) < 150:
        seat = sorted(recorder.state.to_act())[0]
        recorder.apply(pick.choice(list(recorder.state.legal_actions(seat))))
    path = tmp_path / "game.json"
    recorder.record().save(path)
    record = Record.load(path)
    for seat in rs.seats(record.config):
        code, out, _ = run(capsys, "replay", str(path), "--seat", seat, "--step")
        assert code == 0
        frames = _frames(out)
        assert len(frames) == len(record.actions)
        for n, (_, events) in enumerate(record.steps(rs), start=0):
            if n == 0:
                continue
            frame = _flat(frames[n])
            for e in events:
                said = rs.describe_event(e.to_json()) if e.visible_to(seat) else None
                if said:
                    assert _flat(said) in frame, (seat, n, said)
        if ends_a_turn is not None:
            assert ends_a_turn in out, seat
