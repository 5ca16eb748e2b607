"""Every command line in the docs' code blocks runs as written.

``tests/test_readme.py`` runs the README's command lines; this runs those of
``docs/*.md`` the same way (the lines of a code block that start with ``fogofwar``, in
order, in a fresh folder, by the installed command; smaller game counts; ``quit`` at
every ``play`` prompt; ``serve`` left to the server tests). A reader copies these lines,
so a renamed option or a rule set the line names wrongly must fail here, not for them.

Two lines name a file of the reader's own, and the folder gets one made for them: a
board (a copy of the shipped ``demo``) and a record that ``quit`` saved (the one the
``play`` line before it saved). The study files are run from copies with 3 games a cell.
Inline commands in the prose are not run: most of them are templates (``fogofwar verify
RECORD``).
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from .test_readme import FOGOFWAR, ROOT, _argv, run_as_typed

DOCS = ROOT / "docs"


def command_lines() -> list[tuple[str, str]]:
    """``(page, line)`` for every ``fogofwar`` line of the docs' code blocks, in order."""
    out: list[tuple[str, str]] = []
    for page in sorted(DOCS.glob("*.md")):
        fenced = False
        for line in page.read_text(encoding="utf-8").splitlines():
            if line.startswith("```"):
                fenced = not fenced
                continue
            if fenced and line.startswith("fogofwar "):
                out.append((page.name, line))
    return out


def _demo_board(folder: Path) -> None:
    shutil.copy(ROOT / "src/fogofwar/data/boards/demo.board", folder / "my-map.board")


def _record_quit_saved(folder: Path) -> None:
    (saved,) = sorted((folder / "records").glob("specter-ops-*.json"))[:1]
    shutil.copy(saved, folder / "records/specter-ops-20261203-101500.json")


#: The reader's own files that some lines name, made in the folder before the line runs.
OWN_FILES: dict[str, Callable[[Path], None]] = {
    "my-map.board": _demo_board,
    "records/specter-ops-20261203-101500.json": _record_quit_saved,
}


def test_the_docs_have_command_lines() -> None:
    lines = command_lines()
    assert len(lines) > 20
    assert {page for page, _ in lines} >= {"boards.md", "protocol.md", "search.md", "terminal.md"}


@pytest.mark.skipif(not FOGOFWAR.exists(), reason="needs the installed fogofwar command")
def test_every_docs_command_runs_as_written(tmp_path: Path) -> None:
    # The example game of the test suite is found from the folder one works in.
    (tmp_path / "tests").symlink_to(ROOT / "tests", target_is_directory=True)
    studies = tmp_path / "studies"
    studies.mkdir()
    for study in (ROOT / "studies").glob("*.toml"):
        text = study.read_text(encoding="utf-8")
        (studies / study.name).write_text(
            re.sub(r"^games = \d+", "games = 3", text, flags=re.M), encoding="utf-8"
        )
    failed = []
    for page, line in command_lines():
        argv = _argv(line, tmp_path)
        if argv[:1] == ["serve"]:
            continue
        for arg in argv:
            if arg in OWN_FILES and not (tmp_path / arg).exists():
                OWN_FILES[arg](tmp_path)
        problem = run_as_typed(argv, tmp_path)
        if problem:
            failed.append(f"{page}: {line}\n  -> {problem}")
    assert not failed, "\n".join(failed)
