"""Reading the files a user hands fogofwar: bounded, text only, one clear error."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fogofwar.cli import main
from fogofwar.core.errors import BadDataError
from fogofwar.core.files import DATA_FILE_LIMIT, decode_text, read_text
from fogofwar.core.grid import MAX_SIDE, builtin_board, builtin_boards, load_board, parse_board
from fogofwar.core.rng import stream
from fogofwar.sim.tamper import check_loader, damage

DATA = Path(__file__).resolve().parents[2] / "src" / "fogofwar" / "data"
BOARDS = DATA / "boards"


def test_devices_pipes_and_folders_are_refused_before_they_are_read(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.board"
    os.mkfifo(fifo)  # opening it would block until someone writes
    for path, found in (
        (Path("/dev/zero"), "a device or a pipe"),
        (Path("/dev/urandom"), "a device or a pipe"),
        (fifo, "a device or a pipe"),
        (tmp_path, "a directory"),
    ):
        with pytest.raises(BadDataError) as info:
            read_text(path, what="a board file")
        assert info.value.found == found and info.value.file == str(path)


def test_missing_files_and_bad_names(tmp_path: Path) -> None:
    with pytest.raises(BadDataError, match="that can be read"):
        read_text(tmp_path / "nothing.board")
    with pytest.raises(BadDataError, match="file name"):
        read_text("a\x00b.board")


def test_a_file_over_the_limit_is_refused_without_reading_it(tmp_path: Path) -> None:
    big = tmp_path / "big.board"
    with big.open("wb") as fh:
        fh.truncate(3 * 1024**3)  # 3 GB (sparse): refused from its size alone
    started = time.perf_counter()
    with pytest.raises(BadDataError, match="at most 1 MiB"):
        read_text(big)
    assert time.perf_counter() - started < 5
    exact = tmp_path / "exact.board"
    exact.write_bytes(b"a" * DATA_FILE_LIMIT)
    assert len(read_text(exact)) == DATA_FILE_LIMIT


def test_binary_and_invalid_utf8_name_the_line(tmp_path: Path) -> None:
    path = tmp_path / "x.board"
    path.write_bytes(b"name: x\nformat: 1\n\xff\xfe\n")
    with pytest.raises(BadDataError) as info:
        read_text(path)
    assert info.value.line == 3 and "UTF-8" in str(info.value)
    path.write_bytes(b"name: x\n\n  ab\x00cd\n")
    with pytest.raises(BadDataError) as info:
        read_text(path)
    assert (info.value.line, info.value.column) == (3, 5)
    assert "control character 0x00" in str(info.value)


def test_a_byte_order_mark_and_tabs_are_text() -> None:
    assert decode_text("\ufeffa\tb\r\n".encode(), file="f") == "a\tb\r\n"


def test_a_huge_board_is_refused_at_once(tmp_path: Path) -> None:
    # A 3000 x 3000 terrain used to run for 27 s and then fail with a traceback.
    text = (BOARDS / "demo.board").read_text(encoding="utf-8")
    head, _, rest = text.partition("[terrain]")
    _, _, tail = rest.partition("\n\n")
    rows = "\n".join("  " + "." * 3000 for _ in range(3000))
    path = tmp_path / "huge.board"
    path.write_text(f"{head}[terrain]\n{rows}\n\n{tail}", encoding="utf-8")
    started = time.perf_counter()
    with pytest.raises(BadDataError, match="at most 1 MiB"):  # 9 MB: refused by its size
        load_board(path)
    assert time.perf_counter() - started < 5
    rows = "\n".join("  " + "." * 300 for _ in range(300))
    path.write_text(f"{head}[terrain]\n{rows}\n\n{tail}", encoding="utf-8")
    with pytest.raises(BadDataError, match=f"at most {MAX_SIDE} squares in a row"):
        load_board(path)
    rows = "\n".join("  " + "." * 20 for _ in range(MAX_SIDE + 5))
    path.write_text(f"{head}[terrain]\n{rows}\n\n{tail}", encoding="utf-8")
    with pytest.raises(BadDataError, match=f"at most {MAX_SIDE} rows"):
        load_board(path)


@pytest.mark.parametrize("junk", ["/dev/zero", "/dev/urandom"])
def test_the_cli_gives_one_line_for_devices(junk: str, capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (["board", "show", junk], ["replay", junk], ["verify", junk]):
        code = main(argv)
        err = capsys.readouterr().err
        assert code == 2 and err.startswith("error:") and err.count("\n") == 1, (argv, err)


def _load_board(data: bytes) -> object:
    return parse_board(decode_text(data, file="x.board", what="a board file"), file="x.board")


@pytest.mark.parametrize("name", builtin_boards())
def test_damaged_boards_load_or_fail_cleanly(name: str) -> None:
    # Generated damage (bytes, lines, numbers, junk, huge lines): a board loads or raises
    # one BadDataError — never another exception.
    text = next(DATA.glob(f"*/{name}.board")).read_text(encoding="utf-8")
    assert builtin_board(name).name
    broken = check_loader(_load_board, text, stream(1, "board-damage", name), trials=60)
    assert broken == []


@settings(max_examples=80, deadline=None)
@given(st.integers(min_value=0, max_value=2**40))
def test_one_damaged_board(key: int) -> None:
    text = (DATA / "zero-dark" / "zd-open.board").read_text(encoding="utf-8")
    what, data = damage(text, stream(key, "one-board"))
    try:
        _load_board(data)
    except BadDataError as exc:
        assert str(exc).startswith("x.board"), what
