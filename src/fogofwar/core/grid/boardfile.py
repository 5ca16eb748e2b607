"""The board file format: the parser, :func:`load_board` and the boards shipped.

Boards
    :func:`load_board` / :func:`parse_board` read the text format documented in
    ``docs/boards.md``: a terrain layer with a legend (passability, opacity, Cyl
    height), walls, doors, roads and named markers. Every problem in a file raises
    :class:`~fogofwar.core.errors.BadDataError` naming the file, line and column.
    :func:`builtin_board` loads the boards shipped in ``fogofwar/data/boards`` and in each
game's folder under ``fogofwar/data``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from types import MappingProxyType
from typing import Final, NamedTuple

import numpy as np
import numpy.typing as npt

from ..errors import BadDataError, InvalidNotationError
from ..files import read_text
from .board import MAX_SIDE, ROAD_EW, ROAD_NS, Board, BoolArray, ModelSpec, Terrain
from .coords import SIDES, Edge, Square

# --------------------------------------------------------------------------- the file format

_SECTIONS: Final = ("legend", "terrain", "walls", "doors", "roads", "markers", "models")
_WORD_RE: Final = re.compile(r"[A-Za-z][A-Za-z0-9_\-]*")
_HEADER_KEYS: Final = ("name", "description", "format")
_TOKEN_RE: Final = re.compile(r"\S+")
_MARKER_NAME_RE: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_.\-]*")
_CYL_MAX: Final = 999


class _Line(NamedTuple):
    number: int  # 1-based
    text: str  # the line with its comment cut off; columns are unchanged


def _tokens(text: str, offset: int = 0) -> list[tuple[str, int]]:
    """Whitespace-separated tokens with their 1-based columns."""
    return [(m.group(), m.start() + 1) for m in _TOKEN_RE.finditer(text, offset)]


class _Parser:
    """One pass over a board file; every error is a positioned :class:`BadDataError`."""

    def __init__(self, text: str, file: str) -> None:
        self.file = file
        if text.startswith("\ufeff"):
            text = text[1:]
        self.lines = text.splitlines()
        self.header: list[_Line] = []
        self.sections: dict[str, tuple[int, list[_Line]]] = {}
        self.height = 0
        self.width = 0

    def fail(
        self, expected: str, line: int | None, column: int | None, found: str | None = None
    ) -> BadDataError:
        return BadDataError(self.file, expected, line=line, column=column, found=found)

    # -- structure

    def split(self) -> None:
        current: list[_Line] | None = None
        for number, raw in enumerate(self.lines, 1):
            cut = raw.find("#")
            body = (raw if cut < 0 else raw[:cut]).rstrip()
            stripped = body.lstrip()
            if not stripped:
                continue
            col = len(body) - len(stripped) + 1
            if stripped.startswith("["):
                if not stripped.endswith("]"):
                    raise self.fail(
                        "a section header such as [terrain], closed by ]", number, col, stripped
                    )
                inner = stripped[1:-1]
                name = inner.strip()
                name_col = col + 1 + (len(inner) - len(inner.lstrip()))
                if name not in _SECTIONS:
                    raise self.fail(
                        "a section name: " + ", ".join(f"[{s}]" for s in _SECTIONS),
                        number,
                        name_col,
                        name,
                    )
                if name in self.sections:
                    first = self.sections[name][0]
                    raise self.fail(
                        f"each section once ([{name}] began on line {first})",
                        number,
                        name_col,
                        f"[{name}]",
                    )
                current = []
                self.sections[name] = (number, current)
            elif current is None:
                self.header.append(_Line(number, body))
            else:
                current.append(_Line(number, body))

    def parse_header(self) -> tuple[str, str]:
        values: dict[str, tuple[str, int]] = {}
        for line in self.header:
            m = re.match(r"(\s*)([A-Za-z_]\w*)(\s*):(.*)", line.text)
            if m is None:
                col = len(line.text) - len(line.text.lstrip()) + 1
                raise self.fail(
                    "a header line 'key: value' (name, description, format) "
                    "or a section header such as [legend]",
                    line.number,
                    col,
                    line.text.strip(),
                )
            key = m.group(2)
            key_col = len(m.group(1)) + 1
            if key not in _HEADER_KEYS:
                raise self.fail(
                    "a header key: " + ", ".join(_HEADER_KEYS), line.number, key_col, key
                )
            if key in values:
                raise self.fail(
                    f"each header key once ({key!r} was given on line {values[key][1]})",
                    line.number,
                    key_col,
                    key,
                )
            value = m.group(4).strip()
            value_col = m.end(3) + 2 + (len(m.group(4)) - len(m.group(4).lstrip()))
            if not value:
                raise self.fail(f"a value after '{key}:'", line.number, value_col)
            if key == "format" and value != "1":
                raise self.fail("format 1 (the only board format)", line.number, value_col, value)
            values[key] = (value, line.number)
        if "name" not in values:
            line_no = self.header[0].number if self.header else 1
            raise self.fail("a 'name: ...' line before the first section", line_no, 1)
        return values["name"][0], values.get("description", ("", 0))[0]

    def section(self, name: str) -> list[_Line]:
        return self.sections[name][1] if name in self.sections else []

    def require(self, name: str) -> None:
        if name not in self.sections:
            raise self.fail(f"a [{name}] section", len(self.lines) + 1 if self.lines else 1, 1)

    # -- legend and terrain

    def parse_legend(self) -> dict[str, Terrain]:
        legend: dict[str, Terrain] = {}
        where: dict[str, int] = {}
        for line in self.section("legend"):
            toks = _tokens(line.text)
            char, col = toks[0]
            if len(char) != 1:
                raise self.fail(
                    "a single terrain character, then a name and its properties",
                    line.number,
                    col,
                    char,
                )
            if not char.isprintable():
                raise self.fail("a printable terrain character", line.number, col, repr(char))
            if char in legend:
                raise self.fail(
                    f"each legend character once ({char!r} was defined on line {where[char]})",
                    line.number,
                    col,
                    char,
                )
            end_col = len(line.text) + 1
            if len(toks) < 2:
                raise self.fail("a terrain name after the character", line.number, end_col)
            tname, ncol = toks[1]
            if tname.lower() in ("passable", "impassable", "transparent", "opaque") or (
                tname.lower().startswith("cyl=")
            ):
                raise self.fail("a terrain name before the properties", line.number, ncol, tname)
            passable: bool | None = None
            opaque: bool | None = None
            cyl: int | None = None
            for tok, tcol in toks[2:]:
                low = tok.lower()
                if low in ("passable", "impassable"):
                    if passable is not None:
                        raise self.fail("passability given once", line.number, tcol, tok)
                    passable = low == "passable"
                elif low in ("transparent", "opaque"):
                    if opaque is not None:
                        raise self.fail("opacity given once", line.number, tcol, tok)
                    opaque = low == "opaque"
                elif low.startswith("cyl="):
                    if cyl is not None:
                        raise self.fail("cyl given once", line.number, tcol, tok)
                    digits = tok[4:]
                    if (
                        not digits.isascii()
                        or not digits.isdigit()
                        or len(digits) > 3
                        or int(digits) > _CYL_MAX
                    ):
                        raise self.fail(
                            f"a whole number 0-{_CYL_MAX} after cyl=",
                            line.number,
                            tcol + 4,
                            digits,
                        )
                    cyl = int(digits)
                else:
                    raise self.fail(
                        "a terrain property: passable, impassable, transparent, opaque or cyl=N",
                        line.number,
                        tcol,
                        tok,
                    )
            if passable is None:
                raise self.fail("'passable' or 'impassable'", line.number, end_col)
            if opaque is None:
                raise self.fail("'transparent' or 'opaque'", line.number, end_col)
            legend[char] = Terrain(char, tname, passable, opaque, cyl or 0)
            where[char] = line.number
        if not legend:
            header_line = self.sections["legend"][0]
            raise self.fail("at least one legend line", header_line + 1, 1)
        return legend

    def parse_terrain(self, legend: Mapping[str, Terrain]) -> list[str]:
        rows: list[str] = []
        for line in self.section("terrain"):
            text = line.text
            start = len(text) - len(text.lstrip())
            row = text[start:]
            for i, ch in enumerate(row):
                col = start + i + 1
                if ch.isspace():
                    raise self.fail(
                        "one terrain character per square, with no spaces inside a row",
                        line.number,
                        col,
                        repr(ch),
                    )
                if ch not in legend:
                    raise self.fail("a terrain character defined in [legend]", line.number, col, ch)
            if len(row) > MAX_SIDE:
                raise self.fail(
                    f"at most {MAX_SIDE} squares in a row",
                    line.number,
                    start + MAX_SIDE + 1,
                    f"{len(row)} squares",
                )
            if rows and len(row) != len(rows[0]):
                width = len(rows[0])
                bad_col = start + min(len(row), width) + 1
                raise self.fail(
                    f"{width} squares in every row, like the first row",
                    line.number,
                    bad_col,
                    f"{len(row)} squares",
                )
            rows.append(row)
            if len(rows) > MAX_SIDE:
                raise self.fail(f"at most {MAX_SIDE} rows of terrain", line.number, 1)
        if not rows:
            header_line = self.sections["terrain"][0]
            raise self.fail("at least one terrain row", header_line + 1, 1)
        self.height, self.width = len(rows), len(rows[0])
        return rows

    # -- squares and ranges

    def square(self, text: str, line: int, col: int) -> Square:
        try:
            sq = Square.parse(text)
        except InvalidNotationError as exc:
            raise self.fail(
                f"a square such as C3 ({exc.reason})", line, col + (exc.position or 0), text
            ) from None
        if not (sq.row < self.height and sq.col < self.width):
            last = Square(self.height - 1, self.width - 1).name
            raise self.fail(f"a square on the board (A1 to {last})", line, col, text)
        return sq

    def rect(self, token: str, line: int, col: int) -> tuple[int, int, int, int]:
        """A square ``C3`` or a rectangle ``C3-F5`` (corners in any order).

        Returns ``(row0, col0, row1, col1)`` with ``row0 <= row1`` and ``col0 <= col1``.
        """
        parts = token.split("-")
        if len(parts) > 2:
            cut = len(parts[0]) + len(parts[1]) + 1
            raise self.fail(
                "a square (C3) or a rectangle of two corners (C3-F5)", line, col + cut, token
            )
        a = self.square(parts[0], line, col)
        b = a if len(parts) == 1 else self.square(parts[1], line, col + len(parts[0]) + 1)
        return min(a.row, b.row), min(a.col, b.col), max(a.row, b.row), max(a.col, b.col)

    # -- edges, roads, markers

    def parse_walls(self) -> tuple[BoolArray, BoolArray]:
        wh = np.zeros((self.height + 1, self.width), dtype=np.bool_)
        wv = np.zeros((self.height, self.width + 1), dtype=np.bool_)
        for line in self.section("walls"):
            toks = _tokens(line.text)
            token, col = toks[0]
            r0, c0, r1, c1 = self.rect(token, line.number, col)
            if len(toks) < 2:
                raise self.fail(
                    "a side after the squares: n, e, s, w or box", line.number, len(line.text) + 1
                )
            for side, scol in toks[1:]:
                side = side.lower()
                if side in ("n", "s"):
                    if r0 != r1:
                        raise self.fail(
                            f"a run of squares in one row for a wall on side {side!r}",
                            line.number,
                            col,
                            token,
                        )
                    wh[r0 if side == "n" else r1 + 1, c0 : c1 + 1] = True
                elif side in ("e", "w"):
                    if c0 != c1:
                        raise self.fail(
                            f"a run of squares in one column for a wall on side {side!r}",
                            line.number,
                            col,
                            token,
                        )
                    wv[r0 : r1 + 1, c0 if side == "w" else c1 + 1] = True
                elif side == "box":
                    wh[r0, c0 : c1 + 1] = True
                    wh[r1 + 1, c0 : c1 + 1] = True
                    wv[r0 : r1 + 1, c0] = True
                    wv[r0 : r1 + 1, c1 + 1] = True
                else:
                    raise self.fail("a side: n, e, s, w or box", line.number, scol, side)
        return wh, wv

    def parse_doors(self) -> dict[Edge, bool]:
        doors: dict[Edge, bool] = {}
        where: dict[Edge, int] = {}
        for line in self.section("doors"):
            toks = _tokens(line.text)
            token, col = toks[0]
            sq = self.square(token, line.number, col)
            end_col = len(line.text) + 1
            if len(toks) < 2:
                raise self.fail("a side after the square: n, e, s or w", line.number, end_col)
            side, scol = toks[1]
            if side.lower() not in SIDES:
                raise self.fail("a side: n, e, s or w", line.number, scol, side)
            edge = Edge.of(sq, side)
            if (edge.kind == "h" and edge.row in (0, self.height)) or (
                edge.kind == "v" and edge.col in (0, self.width)
            ):
                raise self.fail(
                    "a door between two squares of the board, not on its outer edge",
                    line.number,
                    scol,
                    f"{token} {side}",
                )
            if edge in doors:
                raise self.fail(
                    f"each door once (this edge has a door from line {where[edge]})",
                    line.number,
                    col,
                    f"{token} {side}",
                )
            if len(toks) < 3:
                raise self.fail("'open' or 'closed' after the side", line.number, end_col)
            state, stcol = toks[2]
            if state.lower() not in ("open", "closed"):
                raise self.fail("'open' or 'closed'", line.number, stcol, state)
            if len(toks) > 3:
                raise self.fail(
                    "one door per line: square, side, open|closed",
                    line.number,
                    toks[3][1],
                    toks[3][0],
                )
            doors[edge] = state.lower() == "open"
            where[edge] = line.number
        return doors

    def parse_roads(self, passable: BoolArray, rows: Sequence[str]) -> npt.NDArray[np.uint8]:
        roads = np.zeros((self.height, self.width), dtype=np.uint8)
        for line in self.section("roads"):
            toks = _tokens(line.text)
            token, col = toks[0]
            r0, c0, r1, c1 = self.rect(token, line.number, col)
            if len(toks) < 2:
                raise self.fail(
                    "a road direction after the squares: ns or ew",
                    line.number,
                    len(line.text) + 1,
                )
            bits = 0
            for word, wcol in toks[1:]:
                low = word.lower()
                if low == "ns":
                    bits |= ROAD_NS
                elif low == "ew":
                    bits |= ROAD_EW
                else:
                    raise self.fail("a road direction: ns or ew", line.number, wcol, word)
            area = passable[r0 : r1 + 1, c0 : c1 + 1]
            if not area.all():
                rr, cc = np.argwhere(~area)[0]
                bad = Square(int(rr) + r0, int(cc) + c0)
                raise self.fail(
                    "road squares that are passable",
                    line.number,
                    col,
                    f"{bad} ({rows[bad.row][bad.col]!r})",
                )
            roads[r0 : r1 + 1, c0 : c1 + 1] |= bits
        return roads

    def parse_markers(self) -> tuple[dict[str, tuple[Square, ...]], dict[str, int]]:
        markers: dict[str, tuple[Square, ...]] = {}
        lines: dict[str, int] = {}
        for line in self.section("markers"):
            text = line.text
            start = len(text) - len(text.lstrip())
            colon = text.find(":")
            if colon < 0:
                raise self.fail(
                    "a marker line 'name: squares' (a colon after the name)",
                    line.number,
                    start + 1,
                    text.strip(),
                )
            name = text[:colon].strip()
            if not _MARKER_NAME_RE.fullmatch(name):
                raise self.fail(
                    "a marker name of letters, digits, '_', '.' and '-', "
                    "starting with a letter or '_'",
                    line.number,
                    start + 1,
                    name,
                )
            if name in markers:
                raise self.fail(
                    f"each marker name once ({name!r} was given on line {lines[name]})",
                    line.number,
                    start + 1,
                    name,
                )
            items = _tokens(text, colon + 1)
            if not items:
                raise self.fail(
                    "at least one square or rectangle after the colon", line.number, len(text) + 1
                )
            squares: list[Square] = []
            seen: set[Square] = set()
            for token, col in items:
                r0, c0, r1, c1 = self.rect(token, line.number, col)
                for r in range(r0, r1 + 1):
                    for c in range(c0, c1 + 1):
                        sq = Square(r, c)
                        if sq in seen:
                            raise self.fail(
                                f"each square once in marker {name!r}",
                                line.number,
                                col,
                                f"{sq} again",
                            )
                        seen.add(sq)
                        squares.append(sq)
            markers[name] = tuple(squares)
            lines[name] = line.number
        return markers, lines

    def parse_models(self) -> list[ModelSpec]:
        models: list[ModelSpec] = []
        where: dict[str, int] = {}
        for line in self.section("models"):
            toks = _tokens(line.text)
            if len(toks) < 3:
                col = toks[0][1] if toks else 1
                raise self.fail(
                    "a model line 'ID KIND SQUARE [key=value ...]'",
                    line.number,
                    col,
                    line.text.strip(),
                )
            (mid, id_col), (kind, kind_col), (square, sq_col) = toks[:3]
            if not _MARKER_NAME_RE.fullmatch(mid):
                raise self.fail(
                    "a model id of letters, digits, '_', '.' and '-', starting with a letter "
                    "or '_'",
                    line.number,
                    id_col,
                    mid,
                )
            if mid in where:
                raise self.fail(
                    f"each model id once ({mid!r} was given on line {where[mid]})",
                    line.number,
                    id_col,
                    mid,
                )
            if not _WORD_RE.fullmatch(kind):
                raise self.fail("a model kind (a word such as hero)", line.number, kind_col, kind)
            sq = self.square(square, line.number, sq_col)
            attrs: dict[str, str] = {}
            for token, col in toks[3:]:
                key, eq, value = token.partition("=")
                if not eq or not _WORD_RE.fullmatch(key) or not value:
                    raise self.fail("an attribute key=value", line.number, col, token)
                if key in attrs:
                    raise self.fail(f"each attribute once per model ({key!r})", line.number, col)
                attrs[key] = value
            where[mid] = line.number
            models.append(ModelSpec(mid, kind, sq, MappingProxyType(attrs), line.number, id_col))
        return models

    def parse(self) -> Board:
        self.split()
        name, description = self.parse_header()
        self.require("legend")
        self.require("terrain")
        legend = self.parse_legend()
        rows = self.parse_terrain(legend)
        passable = np.array([[legend[ch].passable for ch in row] for row in rows], dtype=bool)
        walls_h, walls_v = self.parse_walls()
        doors = self.parse_doors()
        roads = self.parse_roads(passable, rows)
        markers, marker_lines = self.parse_markers()
        models = self.parse_models()
        return Board(
            rows,
            legend,
            name=name,
            walls_h=walls_h,
            walls_v=walls_v,
            roads=roads,
            doors=doors,
            markers=markers,
            file=self.file,
            description=description,
            marker_lines=marker_lines,
            models=models,
        )


def parse_board(text: str, *, file: str = "<string>") -> Board:
    """Parse a board from text in the format of ``docs/boards.md``.

    Args:
        text: the file's contents.
        file: the name to put in error messages and :attr:`Board.file`.

    Raises:
        BadDataError: naming ``file``, the 1-based line and column, and what was expected.
    """
    return _Parser(text, file).parse()


def load_board(path: str | Path) -> Board:
    """Load a board file (UTF-8 text of at most 1 MiB, at most :data:`MAX_SIDE` squares a
    side).

    Raises:
        BadDataError: the file cannot be read, is not a text file of that size, or does
            not validate (with line and column).
    """
    p = Path(path)
    return parse_board(read_text(p, what="a board file"), file=str(p))


_BOARD_SUFFIX: Final = ".board"


def _shipped() -> dict[str, tuple[Traversable, str]]:
    """Every shipped board by name: the kernel's own in ``fogofwar/data/boards``, each
    game's in its folder ``fogofwar/data/<game>/``; the file's name is the board's."""
    data = resources.files("fogofwar").joinpath("data")
    out: dict[str, tuple[Traversable, str]] = {}
    for folder in sorted(data.iterdir(), key=lambda f: (f.name != "boards", f.name)):
        if not folder.is_dir():
            continue
        for entry in sorted(folder.iterdir(), key=lambda e: e.name):
            if entry.name.endswith(_BOARD_SUFFIX):
                name = entry.name[: -len(_BOARD_SUFFIX)]
                out.setdefault(name, (entry, f"fogofwar/data/{folder.name}/{entry.name}"))
    return out


def builtin_boards() -> list[str]:
    """The names of the shipped boards (``fogofwar/data/boards`` and each game's folder
    under ``fogofwar/data``), sorted."""
    return sorted(_shipped())


def builtin_board(name: str) -> Board:
    """Load the shipped board ``name`` (the file ``<name>.board`` in
    ``fogofwar/data/boards`` or a game's folder under ``fogofwar/data``).

    Raises:
        LookupError: no such board; the message lists the available ones.
    """
    text, file = builtin_board_text(name)
    return parse_board(text, file=file)


def builtin_board_text(name: str) -> tuple[str, str]:
    """The text of the shipped board ``name`` and its file's name for messages (a
    game that keeps a digest of its board reads the text it parses).

    Raises:
        LookupError: no such board; the message lists the available ones.
    """
    found = _shipped().get(name)
    if "/" in name or "\\" in name or found is None:
        raise LookupError(f"no built-in board {name!r}; available: {', '.join(builtin_boards())}")
    entry, file = found
    return read_text(entry, file=file, what="a board file"), file
