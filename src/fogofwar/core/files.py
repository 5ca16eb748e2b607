"""Reading the project's data files safely: a size limit, UTF-8, no binary junk.

Every file fogofwar reads that a user may hand it (boards, card files, missions, records)
goes through :func:`read_text`, so that ``/dev/zero``, a 3 GB file, a binary file or
invalid UTF-8 gives one :class:`~fogofwar.core.errors.BadDataError` naming the file and
what was expected, never a traceback, a hang or a :class:`MemoryError`.

The limits are generous for real files (the largest shipped file is a few kilobytes) and
small enough that a parser never has to defend against gigabytes.
"""

from __future__ import annotations

import hashlib
import re
import stat
from collections.abc import Sequence
from importlib.abc import Traversable
from os import PathLike
from pathlib import Path
from typing import Final

from .errors import BadDataError, RulesError

__all__ = [
    "DATA_FILE_LIMIT",
    "RECORD_FILE_LIMIT",
    "check_digest_option",
    "data_file",
    "data_name",
    "decode_text",
    "offer_data_folders",
    "read_text",
    "text_digest",
]

#: The folders whose files an option may name by file name alone (``fogofwar serve
#: --data DIR``): a web table's boards, maps and missions, kept in its games' options
#: and records by name, never by the server's own paths.
_DATA_FOLDERS: list[Path] = []


def offer_data_folders(folders: Sequence[Path]) -> None:
    """Name the folders :func:`data_file` looks in first (replacing any named before)."""
    _DATA_FOLDERS[:] = [Path(f) for f in folders]


def data_file(name: str) -> Path:
    """The file an option's value names: a bare file name found in an offered folder
    (:func:`offer_data_folders`, the first that has it), else the path as written
    (relative to the working folder)."""
    if _DATA_FOLDERS and name and "/" not in name and "\\" not in name and name not in (".", ".."):
        for folder in _DATA_FOLDERS:
            path = folder / name
            try:
                if path.is_file():
                    return path
            except (OSError, ValueError):  # a name the system refuses
                break
    return Path(name)


def data_name(path: Path) -> str:
    """How an option names ``path``: its bare file name where :func:`data_file` finds it
    by that name (a file of an offered folder), else the path itself."""
    if _DATA_FOLDERS and data_file(path.name) == path:
        return path.name
    return str(path)


#: The most bytes a board, card or mission file may hold (1 MiB).
DATA_FILE_LIMIT: Final = 1 << 20
#: The most bytes a game record may hold (64 MiB: a long game with every digest).
RECORD_FILE_LIMIT: Final = 64 << 20

# Control characters other than tab, line feed and carriage return: binary data.
_CONTROL: Final = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def read_text(
    path: str | PathLike[str] | Traversable,
    *,
    file: str | None = None,
    limit: int = DATA_FILE_LIMIT,
    what: str = "a text file",
) -> str:
    """Read a UTF-8 text file of at most ``limit`` bytes.

    A byte-order mark is dropped. Only regular files are read (a device such as
    ``/dev/zero`` or a named pipe is refused before it is opened), and never more than
    ``limit + 1`` bytes, so a huge file costs nothing.

    Args:
        path: the file (a path, or a packaged resource).
        file: the name for error messages (default: ``path`` as text).
        limit: the most bytes allowed.
        what: what the file should be, for the error message ("a board file").

    Raises:
        BadDataError: the file is missing or unreadable, a directory, a device or a pipe,
            larger than ``limit``, not UTF-8, or holds NUL bytes or other control characters.
    """
    name = file if file is not None else str(path)
    try:
        if isinstance(path, Traversable) and not isinstance(path, Path):
            with path.open("rb") as fh:
                data = fh.read(limit + 1)
        else:
            data = _read_regular(Path(path), name, limit, what)
    except OSError as exc:
        found = exc.strerror or type(exc).__name__
        raise BadDataError(name, f"{what} that can be read", found=found) from None
    except ValueError as exc:
        if isinstance(exc, BadDataError):
            raise
        # A path with a NUL byte in it.
        raise BadDataError(name, f"{what}: a file name", found=str(exc)) from None
    if len(data) > limit:
        raise BadDataError(name, f"{what} of at most {_size(limit)}", found="a larger file")
    return decode_text(data, file=name, what=what)


def _read_regular(path: Path, name: str, limit: int, what: str) -> bytes:
    info = path.stat()
    if not stat.S_ISREG(info.st_mode):
        # A directory, a device (/dev/zero) or a named pipe (whose open would block).
        found = "a directory" if stat.S_ISDIR(info.st_mode) else "a device or a pipe"
        raise BadDataError(name, f"{what} (a regular file)", found=found)
    if info.st_size > limit:
        raise BadDataError(name, f"{what} of at most {_size(limit)}", found="a larger file")
    with open(path, "rb") as fh:
        return fh.read(limit + 1)


def decode_text(data: bytes, *, file: str, what: str = "a text file") -> str:
    """Decode bytes as UTF-8 text (BOM dropped), refusing binary data with its line.

    Raises:
        BadDataError: invalid UTF-8, or a NUL or other control character (tab, line
            breaks and carriage returns are allowed), naming the line and column.
    """
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise BadDataError(
            file, f"{what} in UTF-8", line=line, found=f"byte {data[exc.start]:#04x}"
        ) from None
    bad = _CONTROL.search(text)
    if bad is not None:
        i = bad.start()
        line = text.count("\n", 0, i) + 1
        column = i - (text.rfind("\n", 0, i) + 1) + 1
        raise BadDataError(
            file,
            f"{what} (text, not binary data)",
            line=line,
            column=column,
            found=f"control character {ord(text[i]):#04x}",
        )
    return text


def _size(n: int) -> str:
    if n % (1 << 20) == 0:
        return f"{n >> 20} MiB"
    if n % (1 << 10) == 0:
        return f"{n >> 10} KiB"
    return f"{n} bytes"


# A file's digest as a record keeps it (a mission's, a map's): 16 lowercase hex digits.
_DIGEST: Final = re.compile(r"[0-9a-f]{16}", re.ASCII)


def text_digest(text: str) -> str:
    """The digest a record keeps of a data file's text: the first 16 hex digits of the
    SHA-256 of its UTF-8, so that a file changed since the record was made is refused
    by name rather than replayed differently."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def check_digest_option(option: str, given: str, *, of: str = "") -> str:
    """A digest option's value (``mission_digest``, ``map_digest``) checked: empty, or
    16 lowercase hex digits (:func:`text_digest`); ``of`` says of what, for the message.

    Raises:
        RulesError: anything else.
    """
    if given and not _DIGEST.fullmatch(given):
        shown = given if len(given) <= 40 else given[:39] + "…"
        raise RulesError(
            f"option {option}: expected empty or 16 lowercase hex digits (the digest a "
            f"record keeps{of}), got {shown!r}"
        )
    return given
