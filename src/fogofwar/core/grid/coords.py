"""Coordinates: squares and their names, square edges, the step directions and distances.

Coordinates
    Squares are named by column letters and a row number: ``A1`` is the top-left
    square, columns run ``A..Z, AA, AB, .., AZ, BA, ..`` (bijective base 26, so there is
    no upper limit), rows run from 1 downwards. Parsing accepts lower-case letters;
    names are always printed in upper case.

Edges
    Walls and doors lie on square edges. An :class:`Edge` ``("h", r, c)`` is the
    horizontal edge on *top* of square ``(r, c)`` (= the bottom edge of ``(r-1, c)``);
    ``("v", r, c)`` is the vertical edge on the *left* of ``(r, c)`` (= the right edge of
    ``(r, c-1)``). Hence ``walls_h`` has shape ``(height+1, width)`` and ``walls_v``
    ``(height, width+1)``; the outermost rows/columns are the board's boundary.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from types import MappingProxyType
from typing import Final, NamedTuple, TypeVar

from ..errors import InvalidNotationError

#: The four sides of a square, as written in board files and edge names.
SIDES: Final = ("n", "e", "s", "w")

#: The 8 step directions as ``name -> (d_row, d_col)``, clockwise from north. This is
#: also the order in which :func:`neighbours` lists squares and in which
#: :func:`shortest_path` breaks ties.
DIRECTIONS: Final[Mapping[str, tuple[int, int]]] = MappingProxyType(
    {
        "N": (-1, 0),
        "NE": (-1, 1),
        "E": (0, 1),
        "SE": (1, 1),
        "S": (1, 0),
        "SW": (1, -1),
        "W": (0, -1),
        "NW": (-1, -1),
    }
)
_DIRS: Final = tuple(DIRECTIONS.values())


# --------------------------------------------------------------------------- coordinates


def column_name(col: int) -> str:
    """Return the letters of 0-based column ``col``: 0 -> ``A``, 25 -> ``Z``, 26 -> ``AA``.

    Raises:
        ValueError: if ``col`` is negative.
    """
    if col < 0:
        raise ValueError(f"column index must be >= 0, got {col}")
    letters: list[str] = []
    n = col + 1
    while n:
        n, rem = divmod(n - 1, 26)
        letters.append(chr(65 + rem))
    return "".join(reversed(letters))


def column_index(letters: str) -> int:
    """Return the 0-based index of column ``letters`` (case-insensitive): ``AA`` -> 26.

    Raises:
        InvalidNotationError: if ``letters`` is empty or not all ASCII letters.
    """
    if not letters:
        raise InvalidNotationError(letters, "expected column letters", position=0)
    n = 0
    for i, ch in enumerate(letters):
        if not ("A" <= ch <= "Z" or "a" <= ch <= "z"):
            raise InvalidNotationError(letters, "expected column letters A-Z", position=i)
        n = n * 26 + (ord(ch.upper()) - 64)
    return n - 1


_SQUARE_NAMES: dict[tuple[int, int], str] = {}
_EDGE_NAMES: dict[tuple[str, int, int], str] = {}
_NAMES_KEPT: Final = 1 << 16  # far more squares than any board has
# Names already parsed (successfully): the square or edge each spells.
_PARSED_SQUARES: dict[str, Square] = {}
_PARSED_EDGES: dict[str, Edge] = {}
_T = TypeVar("_T")


def _remember(table: dict[str, _T], text: str, parsed: _T) -> _T:
    """Keep ``parsed`` as what ``text`` spells (a plain string only, while the table
    is not full) and return it."""
    if len(table) < _NAMES_KEPT and type(text) is str:
        table[text] = parsed
    return parsed


_EDGE_TEXT: Final = re.compile(r"([A-Za-z]+[0-9]+)\s*([nesNESwW])")


class Square(NamedTuple):
    """One square of a board: ``Square(row, col)``, 0-based, row 0 at the top.

    ``str(square)`` and :attr:`name` give the board notation (``"K17"``).
    """

    row: int
    col: int

    @property
    def name(self) -> str:
        """The square's name in board notation, e.g. ``"K17"`` for ``Square(16, 10)``."""
        # Views name every model's square at every step: names are kept once made.
        got = _SQUARE_NAMES.get(self)
        if got is None:
            if self.row < 0 or self.col < 0:
                raise ValueError(f"{tuple(self)!r} has no name: negative coordinates")
            got = f"{column_name(self.col)}{self.row + 1}"
            if len(_SQUARE_NAMES) < _NAMES_KEPT:
                _SQUARE_NAMES[self] = got
        return got

    def __str__(self) -> str:
        return self.name if self.row >= 0 and self.col >= 0 else repr(self)

    @classmethod
    def parse(cls, text: str) -> Square:
        """Parse board notation: column letters then a row number, e.g. ``"K17"``, ``"aa3"``.

        Letters may be lower case. The row number starts at 1 and has no leading zeros,
        so that every square has exactly one spelling. No surrounding whitespace.

        Raises:
            InvalidNotationError: with the 0-based position of the first bad character.
        """
        # Views name squares as text and bots and search read them back by the
        # hundred thousand; a name parses to the same square every time.
        got = _PARSED_SQUARES.get(text)
        return got if got is not None else _remember(_PARSED_SQUARES, text, cls._parse(text))

    @classmethod
    def _parse(cls, text: str) -> Square:
        n = len(text)
        i = 0
        while i < n and ("A" <= text[i] <= "Z" or "a" <= text[i] <= "z"):
            i += 1
        if i == 0:
            what = "expected a square such as K17" if n == 0 else "expected column letters"
            raise InvalidNotationError(text, what, position=0)
        j = i
        while j < n and "0" <= text[j] <= "9":
            j += 1
        if j == i:
            raise InvalidNotationError(
                text, "expected a row number after the column letters", position=i
            )
        if j < n:
            raise InvalidNotationError(text, "unexpected text after the row number", position=j)
        if i > 4 or j - i > 6:  # no board is that large: never convert a huge number
            raise InvalidNotationError(
                text, "a square of a board: at most 4 column letters and a 6-digit row"
            )
        if text[i] == "0":
            raise InvalidNotationError(
                text, "row numbers start at 1, without leading zeros", position=i
            )
        return cls(int(text[i:]) - 1, column_index(text[:i]))


def king_distance(a: Square, b: Square) -> int:
    """Chebyshev (king-move) distance: ``max(|d_row|, |d_col|)``, ignoring all obstacles."""
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def manhattan(a: Square, b: Square) -> int:
    """Manhattan (rook-step) distance: ``|d_row| + |d_col|``, ignoring all obstacles."""
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


class Edge(NamedTuple):
    """One square edge, where walls and doors lie.

    ``Edge("h", r, c)`` is the horizontal edge on top of square ``(r, c)``;
    ``Edge("v", r, c)`` is the vertical edge on the left of square ``(r, c)``. ``r`` may
    be ``height`` for ``h`` edges (the bottom boundary) and ``c`` may be ``width`` for
    ``v`` edges (the right boundary).
    """

    kind: str
    row: int
    col: int

    @classmethod
    def of(cls, square: Square, side: str) -> Edge:
        """The edge on side ``side`` (``n``, ``e``, ``s`` or ``w``) of ``square``."""
        r, c = square
        side = side.lower()
        if side == "n":
            return cls("h", r, c)
        if side == "s":
            return cls("h", r + 1, c)
        if side == "w":
            return cls("v", r, c)
        if side == "e":
            return cls("v", r, c + 1)
        raise ValueError(f"side must be one of n, e, s, w; got {side!r}")

    @classmethod
    def between(cls, a: Square, b: Square) -> Edge:
        """The edge shared by two orthogonally adjacent squares.

        Raises:
            ValueError: if the squares are not orthogonally adjacent.
        """
        if a[1] == b[1] and abs(a[0] - b[0]) == 1:
            return cls("h", max(a[0], b[0]), a[1])
        if a[0] == b[0] and abs(a[1] - b[1]) == 1:
            return cls("v", a[0], max(a[1], b[1]))
        raise ValueError(f"{a} and {b} are not orthogonally adjacent")

    @property
    def squares(self) -> tuple[Square, Square]:
        """The two squares the edge separates: (above, below) or (left, right).

        On the board's boundary one of them lies off the board.
        """
        if self.kind == "h":
            return Square(self.row - 1, self.col), Square(self.row, self.col)
        return Square(self.row, self.col - 1), Square(self.row, self.col)

    @property
    def name(self) -> str:
        """Canonical name ``"<square> <side>"``, e.g. ``"D7 e"``.

        The square is the one above (``s``) or left (``e``) of the edge, except on the top
        and left boundary (``n``/``w`` of row 1 or column A), so that a named edge on a
        board always names a square on that board.
        """
        got = _EDGE_NAMES.get(self)
        if got is None:
            got = self._name()
            if len(_EDGE_NAMES) < _NAMES_KEPT:
                _EDGE_NAMES[self] = got
        return got

    def _name(self) -> str:
        if self.kind == "h":
            if self.row == 0:
                return f"{Square(0, self.col).name} n"
            return f"{Square(self.row - 1, self.col).name} s"
        if self.col == 0:
            return f"{Square(self.row, 0).name} w"
        return f"{Square(self.row, self.col - 1).name} e"

    def __str__(self) -> str:
        try:
            return self.name
        except ValueError:
            return repr(self)

    @classmethod
    def parse(cls, text: str) -> Edge:
        """Parse ``"D7 e"`` (also ``"D7e"``, ``"d7 E"``): a square and one of its sides.

        Raises:
            InvalidNotationError: if the text is not a square followed by n, e, s or w.
        """
        got = _PARSED_EDGES.get(text)
        return got if got is not None else _remember(_PARSED_EDGES, text, cls._parse(text))

    @classmethod
    def _parse(cls, text: str) -> Edge:
        m = _EDGE_TEXT.fullmatch(text)
        if m is None:
            sq_end = re.match(r"[A-Za-z]*[0-9]*", text)
            pos = sq_end.end() if sq_end else 0
            if pos == len(text) or text[pos:].isspace():
                raise InvalidNotationError(
                    text, "expected a side n, e, s or w after the square", position=pos
                )
            Square.parse(text[:pos])  # report a bad square precisely, if that is it
            raise InvalidNotationError(
                text, "expected a square and a side, e.g. 'D7 e'", position=pos
            )
        return cls.of(Square.parse(m.group(1)), m.group(2))
