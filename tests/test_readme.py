"""Every command line of the README runs as written (issue 21, item 11).

The lines of its ``sh`` blocks that start with ``fogofwar``, and the inline ones of three
words or more, are run in order in a fresh folder by the installed ``fogofwar`` command,
as a newcomer would type them — with smaller game counts, so that the suite stays quick,
and with ``quit`` typed at every ``play`` prompt. ``serve`` runs a server until Ctrl-C:
it is left to the server and browser tests.
"""

from __future__ import annotations

import glob
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
FOGOFWAR = Path(sys.executable).with_name("fogofwar")

#: Options whose number is a count of games or inputs: cut to a few.
COUNTS = {"--games": 3, "-n": 3, "--inputs": 3}
#: ``fuzz --records N`` tampers N times; ``sim --records`` takes a folder.
FEW = {"fuzz": {"-n": 60, "--records": 2}}


def command_lines() -> list[str]:
    """The README's command lines, in order."""
    text = README.read_text(encoding="utf-8")
    out: list[str] = []
    fenced = False
    for line in text.splitlines():
        if line.startswith("```"):
            fenced = line.strip() == "```sh" and not fenced
            continue
        if fenced and line.startswith("fogofwar "):
            out.append(line)
    inline = [m for m in re.findall(r"`(fogofwar [^`\n]+)`", text) if len(m.split()) >= 3]
    return out + inline


def _argv(line: str, cwd: Path) -> list[str]:
    args = shlex.split(line, comments=True)[1:]
    few = FEW.get(args[0], {}) if args else {}
    out: list[str] = []
    for i, arg in enumerate(args):
        before = args[i - 1] if i else ""
        if arg.isdigit() and before in few:
            arg = str(min(int(arg), few[before]))
        elif arg.isdigit() and before in COUNTS:
            arg = str(min(int(arg), COUNTS[before]))
        if "*" in arg:
            found = sorted(glob.glob(arg, root_dir=cwd))
            assert len(found) == 1, f"{line!r}: {arg} names {found}"
            arg = found[0]
        out.append(arg)
    return out


def test_the_readme_has_its_examples() -> None:
    lines = command_lines()
    assert len(lines) > 30
    for word in ("play", "sim", "odds", "replay", "verify", "los", "bots", "--resume"):
        assert any(word in line.split() for line in lines), word


@pytest.mark.skipif(not FOGOFWAR.exists(), reason="needs the installed fogofwar command")
def test_every_readme_command_runs_as_written(tmp_path: Path) -> None:
    # The example game of the test suite is found from the folder one works in.
    (tmp_path / "tests").symlink_to(ROOT / "tests", target_is_directory=True)
    (tmp_path / "studies").symlink_to(ROOT / "studies", target_is_directory=True)
    failed = []
    for line in command_lines():
        argv = _argv(line, tmp_path)
        if argv[:1] == ["serve"]:
            continue
        problem = run_as_typed(argv, tmp_path)
        if problem:
            failed.append(f"{line}\n  -> {problem}")
    assert not failed, "\n".join(failed)


def run_as_typed(argv: list[str], cwd: Path) -> str | None:
    """Run the installed ``fogofwar`` with ``argv`` in ``cwd`` as a newcomer would (a bare
    environment, ``quit`` at every prompt): ``None`` when it works, else what went wrong
    (its exit status and the end of its stderr)."""
    done = subprocess.run(
        [str(FOGOFWAR), *argv],
        cwd=cwd,
        input="quit\n" * 3,
        capture_output=True,
        text=True,
        timeout=300,
        env={"PATH": str(FOGOFWAR.parent), "COLUMNS": "100", "HOME": str(cwd)},
    )
    if done.returncode != 0 or "Traceback" in done.stderr:
        return f"exit {done.returncode}: {done.stderr.strip()[-300:]}"
    return None
