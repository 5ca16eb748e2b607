"""Zero Dark missions as data files (ZD-C8).

A mission names its map, the heroes, the Red Force, which bogeys are susceptible to
persuasion (and, if it likes, the persuaded ally's stat line, ZD-P5), the Spook's
priority task (solo) and the win conditions. It is a small
text file, by convention ``*.mission`` (``docs/missions.md``)::

    # The double agent in the derelict.
    name: The spy
    map: zd-corridor
    heroes: 4
    red_force: grunt=4,elite=2,boss=1:named
    susceptible: grunt
    task: rescue
    win: rescue, survive

:func:`parse_mission` checks the whole file, the map and the Red Force included, and
reports the first problem as a :class:`BadDataError` with the file, line and column;
:func:`load_mission` loads a shipped mission (``fogofwar/data/zero-dark``) or a file.
:meth:`Mission.config` gives the ``zero-dark`` options that the mission sets.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from importlib import resources
from pathlib import Path
from types import MappingProxyType
from typing import Any, Final

from fogofwar.core.errors import BadDataError, RulesError
from fogofwar.core.files import DATA_FILE_LIMIT, data_file, data_name, read_text
from fogofwar.core.grid import Board

from .maps import SHIPPED_MAPS, check_file_name, free_ping_sites, is_path, load_map
from .profiles import BOGEYS, TASKS
from .state.options import WIN_CONDITIONS as STATE_WIN_CONDITIONS
from .state.options import (
    OptionConflict,
    StatLineError,
    check_consistent,
    parse_ally,
    parse_red_force_specs,
    stat_line,
)

__all__ = [
    "SHIPPED_MISSIONS",
    "WIN_CONDITIONS",
    "Mission",
    "load_mission",
    "parse_mission",
]

#: The conditions a mission may require to succeed; all that it names must hold
#: (ZD-C8). ``objectives``: every objective square worked; ``exit``: at least one hero
#: left by an exit square; ``extract``: the persuaded double agent left by an exit;
#: ``rescue``, ``assassination``, ``observation``,
#: ``acquisition``: that priority task succeeded (ZD-T3…T6); ``survive``: not every
#: hero lost (ZD-C5).
WIN_CONDITIONS: Final[tuple[str, ...]] = STATE_WIN_CONDITIONS

#: The missions shipped in ``fogofwar/data/zero-dark`` (the file ``NAME.mission``).
SHIPPED_MISSIONS: Final[tuple[str, ...]] = ("the-spy", "the-boss", "dead-drop")

_SUFFIX: Final = ".mission"
_KEYS: Final = (
    "name",
    "description",
    "map",
    "mode",
    "heroes",
    "red_force",
    "susceptible",
    "ally",
    "task",
    "buy_time",
    "win",
)
_REQUIRED: Final = ("name", "map", "red_force")
_DEFAULT_WIN: Final = ("objectives", "survive")
_LINE_RE: Final = re.compile(r"(\s*)([^:]*?)(\s*):(.*)")


@dataclass(frozen=True)
class Mission:
    """A Zero Dark mission (ZD-C8), as read from a ``.mission`` file.

    Attributes:
        name: the mission's title.
        description: free text ("" when the file gives none).
        file: the file's path or name, as errors name it.
        map: a shipped map's name, or the absolute path of a ``.board`` file (a
            relative path in the file is resolved from the mission file's folder).
        mode: ``"solo"`` or ``"versus"``.
        heroes: heroes in a team, 1 to 6.
        red_force: the Red Force's pings (:func:`~.state.parse_red_force_specs`).
        susceptible: comma-separated bogey tiers susceptible to persuasion ("" = none).
        task: the Spook's priority task in solo (``"none"`` in Versus).
        buy_time: whether the Spook buys time (solo).
        win: the win conditions (from :data:`WIN_CONDITIONS`); all must hold.
        ally: the persuaded ally's stat line (``M3 F3 A3 D3 AV0``, ZD-P5), or "" for the
            stand-in core's.
        lines: each key given in the file -> its line number (for later errors).
    """

    name: str
    description: str
    file: str
    map: str
    mode: str
    heroes: int
    red_force: str
    susceptible: str
    task: str
    buy_time: bool
    win: tuple[str, ...]
    ally: str = ""
    lines: Mapping[str, int] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        if not isinstance(self.lines, MappingProxyType):
            object.__setattr__(self, "lines", MappingProxyType(dict(self.lines)))

    def __reduce__(self) -> tuple[Any, ...]:
        # A mapping proxy does not pickle; missions cross process boundaries (batches).
        values = {f.name: getattr(self, f.name) for f in fields(self)}
        values["lines"] = dict(self.lines)
        return (_make_mission, (values,))

    def config(self) -> dict[str, object]:
        """The ``zero-dark`` config options the mission sets (``ally`` only when the file
        gives one)."""
        out: dict[str, object] = {
            "map": self.map,
            "mode": self.mode,
            "heroes": self.heroes,
            "red_force": self.red_force,
            "susceptible": self.susceptible,
            "task": self.task,
            "buy_time": self.buy_time,
            "win": ",".join(self.win),
        }
        if self.ally:
            out["ally"] = self.ally
        return out


def _make_mission(values: dict[str, Any]) -> Mission:
    """Re-create a mission from its fields (used by pickle)."""
    return Mission(**values)


class _Entry:
    __slots__ = ("column", "line", "value")

    def __init__(self, value: str, line: int, column: int) -> None:
        self.value = value
        self.line = line
        self.column = column


def _items(entry: _Entry) -> list[tuple[str, int]]:
    """The comma-separated items of a value with their 1-based columns (stripped;
    an empty item keeps the column where it would start)."""
    out: list[tuple[str, int]] = []
    start = 0
    for part in entry.value.split(","):
        lead = len(part) - len(part.lstrip())
        out.append((part.strip(), entry.column + start + lead))
        start += len(part) + 1
    return out


class _Parser:
    def __init__(self, text: str, file: str, folder: Path | None) -> None:
        self.text = text[1:] if text.startswith("\ufeff") else text
        self.file = file
        self.folder = folder
        self.entries: dict[str, _Entry] = {}

    def fail(
        self, expected: str, line: int | None, column: int | None, found: str | None = None
    ) -> BadDataError:
        return BadDataError(self.file, expected, line=line, column=column, found=found)

    def fail_at(self, key: str, expected: str, found: str | None = None) -> BadDataError:
        entry = self.entries[key]
        return self.fail(
            expected, entry.line, entry.column, entry.value if found is None else found
        )

    # -- the lines

    def read(self) -> None:
        for number, raw in enumerate(self.text.splitlines(), 1):
            cut = raw.find("#")
            body = (raw if cut < 0 else raw[:cut]).rstrip()
            if not body.strip():
                continue
            m = _LINE_RE.match(body)
            key = m.group(2) if m else ""
            if m is None or not key:
                col = len(body) - len(body.lstrip()) + 1
                raise self.fail(
                    "a line 'key: value' (" + ", ".join(_KEYS) + ")",
                    number,
                    col,
                    body.strip(),
                )
            key_col = len(m.group(1)) + 1
            if key not in _KEYS:
                raise self.fail("a mission key: " + ", ".join(_KEYS), number, key_col, key)
            if key in self.entries:
                raise self.fail(
                    f"each key once ({key!r} was given on line {self.entries[key].line})",
                    number,
                    key_col,
                    key,
                )
            rest = m.group(4)
            value = rest.strip()
            value_col = m.end(3) + 2 + (len(rest) - len(rest.lstrip()))
            if not value:
                raise self.fail(f"a value after '{key}:'", number, value_col)
            self.entries[key] = _Entry(value, number, value_col)
        for key in _REQUIRED:
            if key not in self.entries:
                raise self.fail(f"a '{key}: ...' line (the key is required)", 1, 1)

    def get(self, key: str, default: str) -> str:
        entry = self.entries.get(key)
        return default if entry is None else entry.value

    # -- the values

    def parse(self) -> Mission:
        self.read()
        mode = self.mode()
        if mode == "versus":
            for key in ("task", "buy_time"):
                if key in self.entries:
                    raise self.fail_at(
                        key,
                        f"no '{key}' in a Versus mission (each team chooses its Spook's "
                        "task and whether it buys time in secret at the table, ZD-B4)",
                    )
        heroes = self.heroes()
        buy_time = self.buy_time()
        task = self.task()
        specs = self.red_force()
        susceptible = self.susceptible()
        ally = self.ally()
        win = self.win()
        self.consistent(mode, task, buy_time, win, specs)
        map_name = self.map(mode, heroes, len(specs))
        return Mission(
            name=self.entries["name"].value,
            description=self.get("description", ""),
            file=self.file,
            map=map_name,
            mode=mode,
            heroes=heroes,
            red_force=self.entries["red_force"].value,
            susceptible=susceptible,
            task=task,
            buy_time=buy_time,
            win=win,
            ally=ally,
            lines={k: e.line for k, e in self.entries.items()},
        )

    def mode(self) -> str:
        mode = self.get("mode", "solo").lower()
        if mode not in ("solo", "versus"):
            raise self.fail_at("mode", "a mode: solo or versus (ZD-C9)")
        return mode

    def heroes(self) -> int:
        if "heroes" not in self.entries:
            return 4
        value = self.entries["heroes"].value
        if not re.fullmatch(r"[0-9]{1,3}", value):
            raise self.fail_at("heroes", "a whole number of heroes, 1 to 6 (ZD-C2)")
        n = int(value)
        if not 1 <= n <= 6:
            raise self.fail_at("heroes", "1 to 6 heroes (ZD-C2)")
        return n

    def buy_time(self) -> bool:
        value = self.get("buy_time", "false").lower()
        if value not in ("true", "false"):
            raise self.fail_at("buy_time", "true or false (ZD-B1)")
        return value == "true"

    def task(self) -> str:
        task = self.get("task", "none").lower()
        if task not in TASKS:
            raise self.fail_at("task", "a priority task: " + ", ".join(TASKS) + " (ZD-T1)")
        return task

    def red_force(self) -> tuple[tuple[str, frozenset[str]], ...]:
        try:
            return parse_red_force_specs(self.entries["red_force"].value)
        except RulesError as exc:
            raise self.fail_at(
                "red_force", f"a Red Force such as grunt=5,elite=2,boss=1:named ({exc})"
            ) from exc

    def susceptible(self) -> str:
        entry = self.entries.get("susceptible")
        if entry is None or entry.value.lower() == "none":
            return ""
        what = "a bogey tier susceptible to persuasion: " + ", ".join(BOGEYS) + " (ZD-P0)"
        return ",".join(self._words(entry, BOGEYS, what, "each tier once"))

    def ally(self) -> str:
        """ZD-P5: the persuaded ally's stat line, ``M3 F3 A3 D3 AV0`` ("" when not
        given: the stand-in core's); an error points at the offending word."""
        entry = self.entries.get("ally")
        if entry is None:
            return ""
        try:
            return stat_line(parse_ally(entry.value))
        except StatLineError as exc:
            raise self.fail(
                f"a stat line such as M3 F3 A3 D3 AV0 (ZD-P5): {exc.detail}",
                entry.line,
                entry.column + exc.offset,
                exc.found if exc.found is not None else entry.value,
            ) from exc

    def win(self) -> tuple[str, ...]:
        entry = self.entries.get("win")
        if entry is None:
            return _DEFAULT_WIN
        what = "a win condition: " + ", ".join(WIN_CONDITIONS) + " (ZD-C8)"
        return tuple(self._words(entry, WIN_CONDITIONS, what, "each win condition once"))

    def _words(self, entry: Any, allowed: Any, expected: str, once: str) -> list[str]:
        """The comma-separated words of ``entry``, each in ``allowed`` and given once."""
        out: list[str] = []
        for item, col in _items(entry):
            word = item.lower()
            if word not in allowed:
                raise self.fail(expected, entry.line, col, item)
            if word in out:
                raise self.fail(once, entry.line, col, item)
            out.append(word)
        return out

    def consistent(
        self,
        mode: str,
        task: str,
        buy_time: bool,
        win: tuple[str, ...],
        specs: tuple[tuple[str, frozenset[str]], ...],
    ) -> None:
        """The checks across keys, the very ones the ``zero-dark`` options get
        (:func:`~.state.options.check_consistent`), reported at the offending key's line
        (a win condition at its column)."""
        try:
            check_consistent(
                mode=mode, spook=True, task=task, buy_time=buy_time, win=win, specs=specs
            )
        except OptionConflict as exc:
            entry = self.entries[exc.key]
            column = entry.column
            found = entry.value
            if exc.item is not None:
                column, found = next(
                    (col, item) for item, col in _items(entry) if item.lower() == exc.item
                )
            expected = exc.expected
            other = self.entries.get(exc.also) if exc.also is not None else None
            if other is not None:
                expected += f" (with '{exc.also}' on line {other.line})"
            raise self.fail(expected, entry.line, column, found) from None

    def map(self, mode: str, heroes: int, pings: int) -> str:
        entry = self.entries["map"]
        value = entry.value
        is_path = value.endswith(".board") or "/" in value or "\\" in value
        name = value
        if is_path:
            path = Path(value)
            if not path.is_absolute():
                path = (self.folder if self.folder is not None else Path.cwd()) / path
            path = path.resolve()
            if path.suffix != ".board" or not path.is_file():
                raise self.fail_at(
                    "map",
                    "an existing .board file (relative to the mission file's folder) "
                    "or a shipped map: " + ", ".join(SHIPPED_MAPS),
                )
            # Beside an operator's mission, its map is named by file name, as the
            # mission is: the options and records never hold the server's paths.
            name = data_name(path)
        try:
            board = load_map(name)
        except LookupError as exc:
            raise self.fail_at(
                "map",
                "a shipped map (" + ", ".join(SHIPPED_MAPS) + ") or the path of a .board file",
            ) from exc
        except (BadDataError, OSError) as exc:
            raise self.fail_at("map", f"a Zero Dark map that loads ({exc})") from exc
        if mode == "versus":
            self.check_versus_map(board, heroes)
        free = len(free_ping_sites(board, mode, heroes))
        if pings > free:
            raise self.fail_at(
                "red_force",
                f"at most {free} pings, one for each ping site of the map that no hero "
                f"deploys on ({self.entries['map'].value} on line {entry.line}, FR-P1)",
                f"{self.entries['red_force'].value} ({pings} pings)",
            )
        return name

    def check_versus_map(self, board: Board, heroes: int) -> None:
        zone = board.markers.get("heroes2", ())
        if len(zone) < heroes:
            raise self.fail_at(
                "map",
                f"a map with a 'heroes2' marker of at least {heroes} squares for Versus "
                "(the second team's deployment zone, ZD-C9)",
                f"{self.entries['map'].value} ({len(zone)} squares in 'heroes2')",
            )


def parse_mission(text: str, *, file: str = "<string>", folder: Path | None = None) -> Mission:
    """Read and check a mission (ZD-C8).

    Args:
        text: the mission file's text.
        file: the name to put in errors and :attr:`Mission.file`.
        folder: the folder that a relative map path is resolved from (the current
            directory when ``None``).

    Raises:
        BadDataError: naming ``file``, the line and column of the offending value (line 1
            for a missing required key) and what was expected: a line without a colon,
            an unknown key, a key given twice, an empty value, a bad number or boolean,
            a mode not solo/versus, heroes not 1 to 6, a map that is unknown or does not
            load (or, in Versus, lacks a ``heroes2`` zone for the team), a bad Red Force,
            an unknown tier in ``susceptible``, a bad ``ally`` stat line (ZD-P5), an
            unknown task, a task or ``buy_time`` in Versus, an unknown win condition or
            one that needs a task the mission does not set, a Rescue task without a
            ping that may be the double agent (ZD-T3) or an Assassination task without a
            boss (ZD-T4).
    """
    return _Parser(text, file, folder).parse()


def load_mission(name: str) -> Mission:
    """Load a shipped mission (``"the-spy"``) or a ``.mission`` file.

    A file is read with :func:`fogofwar.core.files.read_text`: at most
    :data:`~fogofwar.core.files.DATA_FILE_LIMIT` bytes of UTF-8 text, no binary data.

    Args:
        name: a name from :data:`SHIPPED_MISSIONS`, or the path of a mission file
            (anything containing a path separator or ending in ``.mission``); a relative
            map path in it is resolved from the file's folder.

    Raises:
        BadDataError: the mission does not validate (see :func:`parse_mission`), or the
            file cannot be read, is too large, not UTF-8 or not text (naming the file).
        LookupError: no shipped mission of that name.
    """
    if is_path(name, _SUFFIX):
        file = check_file_name(name, "a mission file")
        path = data_file(name)  # a web table's mission by name, from the operator's folders
        text = read_text(path, file=file, limit=DATA_FILE_LIMIT, what="a mission file")
        return parse_mission(text, file=file, folder=path.parent)
    if name not in SHIPPED_MISSIONS:
        shown = name if len(name) <= 40 else name[:39] + "…"
        raise LookupError(f"no shipped mission {shown!r}; available: {', '.join(SHIPPED_MISSIONS)}")
    folder = resources.files("fogofwar").joinpath("data", "zero-dark")
    entry = folder.joinpath(name + _SUFFIX)
    file = f"fogofwar/data/zero-dark/{name}{_SUFFIX}"
    return parse_mission(
        read_text(entry, file=file, limit=DATA_FILE_LIMIT, what="a mission file"),
        file=file,
        folder=folder if isinstance(folder, Path) else None,
    )
