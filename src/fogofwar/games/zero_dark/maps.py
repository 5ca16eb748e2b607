"""Zero Dark (FEAR) maps: the markers a map must have, and the shipped maps.

A Zero Dark map is a board file in the kernel's format (``docs/boards.md``): squares,
walls and doors on square edges, terrain items with a Cyl height and whether they are
passable (FR-G1, FR-G2). On top of the format, Zero Dark needs these markers:

``heroes``
    the heroes' deployment zone (at least 6 squares);
``ping``
    the ping sites where the Red Force starts face down (FR-P1; at least 8);
``deployment``
    the Red Force's deployment sites, where complications add pings (ZD-C6; at least 3);
``exit``
    the way out (at least 1);
``objective``
    the mission's objectives, e.g. a data terminal (at least 1).

Every marker square must be passable, and no square may be in two of ``heroes``,
``ping``, ``deployment`` and ``exit``. :func:`validate_map` checks this and
:func:`load_map` loads a shipped map (``zd-corridor``, ``zd-open``) or a file.

A record keeps the digest of its map's text (:func:`map_digest`, the ``map_digest``
option): :func:`check_map_digest` refuses a map file changed since, naming the file,
rather than letting the replay diverge as if the record had been changed.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType
from typing import Final, TypeVar

from fogofwar.core.errors import BadDataError, RulesError
from fogofwar.core.files import check_digest_option, data_file, read_text, text_digest
from fogofwar.core.grid import Board, Square, builtin_board_text, builtin_boards, parse_board

__all__ = [
    "MAP_MARKERS",
    "MAX_MAP_SIDE",
    "SHIPPED_MAPS",
    "check_map_digest",
    "digest_option",
    "free_ping_sites",
    "load_map",
    "map_digest",
    "map_for",
    "map_of",
    "validate_map",
]

#: The most squares on a side of a Zero Dark map: a 4-foot table in inch squares (FR-G1:
#: inches are counted in squares). The shipped maps are 24 × 24.
MAX_MAP_SIDE: Final = 48

#: Marker name -> the least number of squares a Zero Dark map must give it.
MAP_MARKERS: Final[Mapping[str, int]] = MappingProxyType(
    {"heroes": 6, "ping": 8, "deployment": 3, "exit": 1, "objective": 1}
)

#: The Zero Dark maps shipped in ``fogofwar/data/zero-dark`` (FR-G2): a corridor map and
#: an open grid map.
SHIPPED_MAPS: Final[tuple[str, ...]] = ("zd-corridor", "zd-open")

_T = TypeVar("_T")

#: Markers that may not share a square: each square has one role at the start.
_DISJOINT: Final = ("heroes", "ping", "deployment", "exit")


def validate_map(board: Board) -> Board:
    """Check that ``board`` has the markers Zero Dark needs (FR-G2).

    Args:
        board: a loaded board.

    Returns:
        ``board`` itself, so that calls can be chained.

    Raises:
        BadDataError: naming the board's file and the marker's line, when the map is
            larger than :data:`MAX_MAP_SIDE` on a side, a marker of
            :data:`MAP_MARKERS` is missing or has too few squares, a marker square is
            impassable, or a square lies in two of ``heroes``, ``ping``,
            ``deployment`` and ``exit``.
    """
    lines = board._marker_lines
    if board.width > MAX_MAP_SIDE or board.height > MAX_MAP_SIDE:
        raise BadDataError(
            board.file,
            f"a Zero Dark map of at most {MAX_MAP_SIDE} × {MAX_MAP_SIDE} squares (FR-G1)",
            found=f"{board.width} × {board.height}",
        )
    for name, least in MAP_MARKERS.items():
        squares = board.marker(name)
        if len(squares) < least:
            raise BadDataError(
                board.file,
                f"marker {name!r} to have at least {least} square{'s' if least != 1 else ''}",
                line=lines.get(name),
                found=f"{len(squares)} square{'s' if len(squares) != 1 else ''}",
            )
        for sq in squares:
            if not board.passable[sq]:
                raise BadDataError(
                    board.file,
                    f"passable squares in marker {name!r}",
                    line=lines.get(name),
                    found=f"{sq} ({board.terrain_at(sq).name})",
                )
    owner: dict[Square, str] = {}
    for name in _DISJOINT:
        for sq in board.markers[name]:
            first = owner.setdefault(sq, name)
            if first != name:
                raise BadDataError(
                    board.file,
                    f"each square in one of {', '.join(_DISJOINT)} "
                    f"(marker {name!r} repeats a square of {first!r})",
                    line=lines.get(name),
                    found=str(sq),
                )
    return board


def load_map(name: str) -> Board:
    """Load and validate a Zero Dark map.

    Args:
        name: the name of a built-in board (``"zd-corridor"``), or the path of a
            ``.board`` file (anything containing a path separator or ending in
            ``.board``).

    A file is read with :func:`fogofwar.core.files.read_text` (a regular file of at most
    1 MiB of UTF-8 text, at most :data:`~fogofwar.core.grid.MAX_SIDE` squares a side).

    Raises:
        BadDataError: the file cannot be read, is not a text file of at most 1 MiB, does
            not parse or lacks what :func:`validate_map` checks (naming the file).
        LookupError: no built-in board of that name.
    """
    text, file = _source(name)
    return validate_map(parse_board(text, file=file))


def _source(name: str) -> tuple[str, str]:
    """The text of the map ``name`` and the file's name for messages (see
    :func:`load_map`; raises as it does)."""
    if is_path(name, ".board"):
        check_file_name(name, "a board file")
        path = data_file(name)  # a web table's map by name, from the operator's folders
        # An operator's file is named as the option names it, not by the server's path.
        file = name if path != Path(name) else str(path)
        return read_text(path, file=file, what="a board file"), file
    if name not in builtin_boards():  # checked first: any text is not a file name
        shown = name if len(name) <= 40 else name[:39] + "…"
        raise LookupError(f"no built-in board {shown!r}; available: {', '.join(SHIPPED_MAPS)}")
    return builtin_board_text(name)


def map_of(name: str) -> Board:
    """The map of the ``map`` option (FR-G2): :func:`load_map`, with a one-line
    :class:`RulesError` for a name that is no shipped map.

    Raises:
        BadDataError: as :func:`load_map`.
        RulesError: no shipped map of that name, saying which there are.
    """
    return _unknown_is_rules_error(name, load_map)


def _unknown_is_rules_error(name: str, load: Callable[[str], _T]) -> _T:
    """``load(name)``, a :class:`LookupError` (no shipped map of that name) turned into
    the ``map`` option's one-line :class:`RulesError`."""
    try:
        return load(name)
    except LookupError:
        shown = name if len(name) <= 40 else name[:39] + "…"
        raise RulesError(
            f"map: expected a shipped map ({', '.join(SHIPPED_MAPS)}) or the path of a "
            f".board file, got {shown!r}"
        ) from None


def is_path(name: str, suffix: str) -> bool:
    """Whether a map or mission ``name`` is a file's path (it ends in ``suffix`` or holds
    a path separator) rather than a shipped one's name."""
    return name.endswith(suffix) or "/" in name or "\\" in name


def check_file_name(name: str, what: str) -> str:
    """``name`` as a file name for messages, or a :class:`BadDataError` when it holds a
    control character (a NUL byte cannot name a file: ``open`` would raise ValueError)."""
    shown = name if len(name) <= 200 else name[:199] + "…"
    if any(ord(c) < 32 or ord(c) == 127 for c in name):
        raise BadDataError(repr(shown), f"the path of {what}, without control characters")
    try:
        os.fsencode(name)
    except UnicodeError:
        raise BadDataError(repr(shown), f"the path of {what} that the system can encode") from None
    return shown


def _stamp(name: str) -> tuple[str, int, int] | None:
    """What tells a map file's versions apart: its absolute path (the same relative name
    in another working directory is another file), time of change and size; ``None``
    for a shipped map. Raises :class:`OSError` or :class:`ValueError` (a NUL byte in the
    name) when the file cannot be looked at."""
    if not is_path(name, ".board"):
        return None
    path = data_file(name)
    st = os.stat(path)
    return (os.path.abspath(path), st.st_mtime_ns, st.st_size)


@lru_cache(maxsize=8)
def _loaded_map(name: str, stamp: tuple[str, int, int] | None) -> Board:
    """A map loaded once per name (and, for a file, its absolute path, size and time of
    change): its sight tables are cached on it."""
    return map_of(name)


@lru_cache(maxsize=8)
def _digest(name: str, stamp: tuple[str, int, int] | None) -> tuple[str, str]:
    """The digest of a map's text and its file's name, read once per version."""
    text, file = _unknown_is_rules_error(name, _source)
    return text_digest(text), file


def map_for(name: str) -> Board:
    """:func:`map_of`, loaded once per name (a file again when it changes): games,
    views and bots on one map share it, and so the sight tables and step graphs cached
    on it (a board never changes; its caches are derived data)."""
    try:
        stamp = _stamp(name)
    except (OSError, ValueError):
        return map_of(name)  # the loader's own error
    return _loaded_map(name, stamp)


def map_digest(name: str) -> str:
    """The digest of the map ``name``'s text (16 hex digits of its SHA-256), read again
    when the file changes: a record keeps it (the ``map_digest`` option).

    Raises:
        BadDataError: the file cannot be read (as :func:`load_map`).
        RulesError: no shipped map of that name.
    """
    return _versioned_digest(name)[0]


def _versioned_digest(name: str) -> tuple[str, str]:
    """:func:`_digest` of the map's present version (raises as :func:`map_digest`)."""
    try:
        stamp = _stamp(name)
    except (OSError, ValueError):
        _unknown_is_rules_error(name, _source)  # the loader's own error
        raise  # the file came back between the two looks: the first error stands
    return _digest(name, stamp)


def digest_option(given: str) -> str:
    """The ``map_digest`` option checked: empty, or 16 lowercase hex digits (a digest a
    record keeps).

    Raises:
        RulesError: anything else.
    """
    return check_digest_option("map_digest", given, of=" of its map")


def check_map_digest(name: str, given: str) -> None:
    """Refuse the map ``name`` when its text no longer has the digest ``given`` (a
    record's ``map_digest``; empty: nothing to check). The digest is compared before the
    map is checked, so a file edited since the record was made is named as such even
    when it no longer passes the map checks.

    Raises:
        RulesError: ``given`` is not empty and not 16 lowercase hex digits.
        BadDataError: naming the file: it changed since the record was made (or, as
            :func:`load_map`, it cannot be read).
    """
    if not digest_option(given):
        return
    now, file = _versioned_digest(name)
    if now != given:
        raise BadDataError(
            file,
            f"the map file as it was when the record was made (digest {given})",
            found=f"digest {now}: the file changed since the record was made",
        )


def free_ping_sites(board: Board, mode: str, heroes: int) -> list[Square]:
    """The ping sites left free at the start (FR-P1): those no hero deploys on. The
    first team deploys on ``heroes`` (never a ping site); in Versus the second team on
    the first ``heroes`` squares of ``heroes2``, which may hold ping sites."""
    taken: set[Square] = set(board.marker("heroes")[:heroes])
    if mode == "versus" and "heroes2" in board.markers:
        taken |= set(board.marker("heroes2")[:heroes])
    return [sq for sq in board.marker("ping") if sq not in taken]


def require_zone(board: Board, zone: str, *, named: str | None = None) -> None:
    """That ``board`` has the deployment ``zone`` (``heroes2``: the second team's, for
    Versus, ZD-C9). ``named``: the map as the options name it (``zd-corridor``), said
    before the board's own name.

    Raises:
        RulesError: it has none, naming the shipped maps that have one.
    """
    if zone not in board.markers:
        have = [m for m in SHIPPED_MAPS if zone in map_for(m).markers]
        raise RulesError(
            f"the map {f'{named} ({board.name})' if named else board.name} has no {zone!r} "
            f"deployment zone for Versus: choose a map "
            f"that has one (map {' or '.join(have)}; at the command line "
            f"--set map={' or map='.join(have)})"
        )
