"""Square boards: coordinates, the board file format, steps, paths and rendering.

.. important:: **Axis order is (row, col), everywhere.**

   A :class:`Square` is ``Square(row, col)``, 0-based, and every array on a
   :class:`Board` is indexed ``array[row, col]`` with shape ``(height, width)``
   (as in python-tcod and numpy images, *not* ``(x, y)``). Row 0 is the top row,
   printed as row ``1``; column 0 is printed as ``A``. So ``Square.parse("K17")`` is
   ``Square(row=16, col=10)`` and its terrain is ``board.passable[16, 10]``.

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

Boards
    :func:`load_board` / :func:`parse_board` read the text format documented in
    ``docs/boards.md``: a terrain layer with a legend (passability, opacity, Cyl
    height), walls, doors, roads and named markers. Every problem in a file raises
    :class:`~fogofwar.core.errors.BadDataError` naming the file, line and column.
    :func:`builtin_board` loads the boards shipped in ``fogofwar/data/boards``.

Movement
    One step goes to one of the 8 neighbouring squares. An orthogonal step is blocked
    by a wall or closed door on the shared edge and by an impassable target square. A
    diagonal step also consults a *diagonal rule* about the two squares that share the
    crossed corner (see :class:`DiagonalStep`): ``"free"``, ``"both"`` (Specter Ops
    SO-A2), ``"either"`` (Zero Dark FR-M4), ``"none"`` or any callable. Models are
    passed per call as ``blocked`` squares (cannot be entered) and ``pass_through``
    squares (may be crossed, not stopped on).

Speed
    The step tables are built once per (board, diagonal rule, door state) and cached on
    the board (:func:`move_graph`). For moves of up to 6 steps, :func:`reachable` keeps
    the unobstructed answer per start square and reuses it whenever the blockers change
    no step of it (the usual case when the models are not close); otherwise it runs a
    breadth-first search, on adjacency sets for up to 3 steps and on Python-integer
    bitboards of the whole board beyond. Measured on a 23x32 board on a shared 2-core
    VM: ``reachable(..., 4)`` takes about 2 us when the cached answer applies, 15 us on
    average with 4 randomly placed hunters, 40-50 us with 4 hunters within 2 squares.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Final, NamedTuple, TypeAlias

import numpy as np
import numpy.typing as npt

from fogofwar.core.errors import BadDataError, InvalidNotationError
from fogofwar.core.files import read_text

if TYPE_CHECKING:
    from rich.text import Text

__all__ = [
    "DIAGONAL_RULES",
    "DIRECTIONS",
    "MAX_SIDE",
    "ROAD_EW",
    "ROAD_NS",
    "SIDES",
    "Board",
    "DiagonalRule",
    "DiagonalStep",
    "Edge",
    "ModelSpec",
    "MoveGraph",
    "Square",
    "SquareSet",
    "Terrain",
    "builtin_board",
    "builtin_boards",
    "can_step",
    "column_index",
    "column_name",
    "distance",
    "distance_map",
    "king_distance",
    "load_board",
    "manhattan",
    "move_graph",
    "neighbours",
    "parse_board",
    "reachable",
    "render_rich",
    "render_text",
    "shortest_path",
]

BoolArray: TypeAlias = npt.NDArray[np.bool_]

#: The most squares a board may have along a side: far above any tabletop map (Specter Ops
#: is 23x32), and small enough that sight tables over every pair of squares stay quick.
MAX_SIDE: Final = 64

#: Bit in :attr:`Board.roads`: the square carries an east-west road.
ROAD_EW: Final = 1
#: Bit in :attr:`Board.roads`: the square carries a north-south road.
ROAD_NS: Final = 2

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


class Square(NamedTuple):
    """One square of a board: ``Square(row, col)``, 0-based, row 0 at the top.

    ``str(square)`` and :attr:`name` give the board notation (``"K17"``).
    """

    row: int
    col: int

    @property
    def name(self) -> str:
        """The square's name in board notation, e.g. ``"K17"`` for ``Square(16, 10)``."""
        if self.row < 0 or self.col < 0:
            raise ValueError(f"{tuple(self)!r} has no name: negative coordinates")
        return f"{column_name(self.col)}{self.row + 1}"

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
        m = re.fullmatch(r"([A-Za-z]+[0-9]+)\s*([nesNESwW])", text)
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


# --------------------------------------------------------------------------- the board


@dataclass(frozen=True)
class Terrain:
    """One legend entry: what a terrain character means.

    Attributes:
        char: the single character used in the terrain layer.
        name: a one-word name (``floor``, ``building``, ``crates``).
        passable: whether models may enter the square.
        opaque: whether the square blocks every line of sight, whatever the heights.
        cyl: the height of the terrain item on the square (Zero Dark's Cyl; 0 = none).
            Sight models compare it with the viewer's Cyl.
    """

    char: str
    name: str
    passable: bool
    opaque: bool
    cyl: int = 0


def _frozen(array: npt.NDArray[Any], dtype: npt.DTypeLike) -> npt.NDArray[Any]:
    out = np.array(array, dtype=dtype, copy=True)
    out.flags.writeable = False
    return out


def _to_bits(mask: BoolArray) -> int:
    """A bool array as a Python int bitboard: bit ``r*width + c`` is ``mask[r, c]``."""
    packed = np.packbits(np.ascontiguousarray(mask, dtype=np.bool_).ravel(), bitorder="little")
    return int.from_bytes(packed.tobytes(), "little")


_CACHE_SIZE: Final = 64


class ModelSpec(NamedTuple):
    """A piece placed by a board file's ``[models]`` section (docs/boards.md).

    The kernel checks the notation only; the game that reads the board says which kinds
    and attributes it knows, and reports the rest with this line and column.

    Attributes:
        id: unique on the board, e.g. ``"H1"``.
        kind: a word, e.g. ``"hero"``, ``"bogey"``.
        square: where it stands.
        attrs: ``key=value`` attributes, in file order (values are strings).
        line, column: where the entry starts in the file (0 when made in memory).
    """

    id: str
    kind: str
    square: Square
    attrs: Mapping[str, str] = MappingProxyType({})
    line: int = 0
    column: int = 0


class Board:
    """An immutable square board. See the module docstring for the axis conventions.

    Usually made by :func:`load_board`, :func:`parse_board` or :func:`builtin_board`. The
    constructor is for programs and tests that build boards in memory; it checks shapes
    and consistency (``ValueError``), while the file loader gives positioned
    :class:`~fogofwar.core.errors.BadDataError`\\ s.

    Attributes:
        name: the board's title.
        width: the number of columns.
        height: the number of rows.
        terrain: the terrain layer, one string of ``width`` characters per row.
        legend: terrain character -> :class:`Terrain`, in file order.
        passable: bool ``(height, width)``: models may enter the square.
        opaque: bool ``(height, width)``: the square blocks sight.
        cyl: int16 ``(height, width)``: the height of the terrain item, 0 = none.
        walls_h: bool ``(height+1, width)``: ``walls_h[r, c]`` is a wall on the top edge
            of ``(r, c)``. Permanent walls only: doors are in :attr:`doors`.
        walls_v: bool ``(height, width+1)``: ``walls_v[r, c]`` is a wall on the left edge
            of ``(r, c)``.
        roads: uint8 ``(height, width)``: bitmask of :data:`ROAD_EW` and :data:`ROAD_NS`.
        doors: door edge -> whether it is open at the start, in file order.
        markers: marker name -> its squares, in file order.
        models: the pieces the file places (``[models]``), in file order; what their
            kinds and attributes mean is up to the game that reads them.
        file: where the board came from (for error messages).
        description: optional free text from the file.

    All arrays are read-only.
    """

    __slots__ = (
        "_cache",
        "_marker_lines",
        "cyl",
        "description",
        "doors",
        "file",
        "height",
        "legend",
        "markers",
        "models",
        "name",
        "opaque",
        "passable",
        "roads",
        "terrain",
        "walls_h",
        "walls_v",
        "width",
    )

    name: str
    width: int
    height: int
    terrain: tuple[str, ...]
    legend: Mapping[str, Terrain]
    passable: BoolArray
    opaque: BoolArray
    cyl: npt.NDArray[np.int16]
    walls_h: BoolArray
    walls_v: BoolArray
    roads: npt.NDArray[np.uint8]
    doors: Mapping[Edge, bool]
    markers: Mapping[str, tuple[Square, ...]]
    models: tuple[ModelSpec, ...]
    file: str
    description: str
    _marker_lines: Mapping[str, int]
    _cache: dict[object, Any]

    def __init__(
        self,
        terrain: Sequence[str],
        legend: Mapping[str, Terrain] | Iterable[Terrain],
        *,
        name: str = "",
        walls_h: npt.ArrayLike | None = None,
        walls_v: npt.ArrayLike | None = None,
        roads: npt.ArrayLike | None = None,
        doors: Mapping[Edge, bool] | None = None,
        markers: Mapping[str, Sequence[Square]] | None = None,
        file: str = "<string>",
        description: str = "",
        marker_lines: Mapping[str, int] | None = None,
        models: Sequence[ModelSpec] = (),
    ) -> None:
        """Build a board. A door on an edge that also has a wall replaces the wall.

        Raises:
            ValueError: on inconsistent shapes, unknown terrain characters, squares or
                door edges off the board, or doors on the board's boundary.
        """
        rows = tuple(terrain)
        if not rows or not rows[0]:
            raise ValueError("a board needs at least one row and one column")
        height, width = len(rows), len(rows[0])
        if any(len(row) != width for row in rows):
            raise ValueError("terrain rows differ in length")
        leg = dict(legend) if isinstance(legend, Mapping) else {t.char: t for t in legend}
        for r, row in enumerate(rows):
            for c, ch in enumerate(row):
                if ch not in leg:
                    raise ValueError(f"terrain character {ch!r} at {Square(r, c)} not in legend")
        grid = np.array([list(row) for row in rows], dtype="<U1")
        passable = np.zeros((height, width), dtype=np.bool_)
        opaque = np.zeros((height, width), dtype=np.bool_)
        cyl = np.zeros((height, width), dtype=np.int16)
        for ch, t in leg.items():
            here = grid == ch
            passable[here] = t.passable
            opaque[here] = t.opaque
            cyl[here] = t.cyl

        def layer(value: npt.ArrayLike | None, shape: tuple[int, int], dtype: Any) -> Any:
            if value is None:
                return np.zeros(shape, dtype=dtype)
            arr = np.array(value, dtype=dtype, copy=True)
            if arr.shape != shape:
                raise ValueError(f"expected an array of shape {shape}, got {arr.shape}")
            return arr

        wh = layer(walls_h, (height + 1, width), np.bool_)
        wv = layer(walls_v, (height, width + 1), np.bool_)
        rd = layer(roads, (height, width), np.uint8)
        if np.any(rd > (ROAD_EW | ROAD_NS)):
            raise ValueError("road values are bitmasks of ROAD_EW | ROAD_NS")
        door_map: dict[Edge, bool] = {}
        for edge, is_open in (doors or {}).items():
            edge = Edge(*edge)
            if edge.kind == "h":
                inside = 0 < edge.row < height and 0 <= edge.col < width
            elif edge.kind == "v":
                inside = 0 <= edge.row < height and 0 < edge.col < width
            else:
                raise ValueError(f"edge kind must be 'h' or 'v', got {edge.kind!r}")
            if not inside:
                raise ValueError(f"door {edge!r} is not between two squares of the board")
            # A door replaces the wall on its edge, so that a room can be drawn as a box
            # and then given doors.
            (wh if edge.kind == "h" else wv)[edge.row, edge.col] = False
            door_map[edge] = bool(is_open)
        marker_map: dict[str, tuple[Square, ...]] = {}
        for key, squares in (markers or {}).items():
            sqs = tuple(Square(*sq) for sq in squares)
            for sq in sqs:
                if not (0 <= sq.row < height and 0 <= sq.col < width):
                    raise ValueError(f"marker {key!r}: square {sq!r} is off the board")
            marker_map[key] = sqs
        model_list = tuple(models)
        ids = [m.id for m in model_list]
        if len(set(ids)) != len(ids):
            raise ValueError("model ids must be unique")
        for m in model_list:
            if not (0 <= m.square.row < height and 0 <= m.square.col < width):
                raise ValueError(f"model {m.id!r}: square {m.square!r} is off the board")

        init = object.__setattr__
        init(self, "name", name)
        init(self, "width", width)
        init(self, "height", height)
        init(self, "terrain", rows)
        init(self, "legend", MappingProxyType(leg))
        init(self, "passable", _frozen(passable, np.bool_))
        init(self, "opaque", _frozen(opaque, np.bool_))
        init(self, "cyl", _frozen(cyl, np.int16))
        init(self, "walls_h", _frozen(wh, np.bool_))
        init(self, "walls_v", _frozen(wv, np.bool_))
        init(self, "roads", _frozen(rd, np.uint8))
        init(self, "doors", MappingProxyType(door_map))
        init(self, "markers", MappingProxyType(marker_map))
        init(self, "models", model_list)
        init(self, "file", file)
        init(self, "description", description)
        init(self, "_marker_lines", MappingProxyType(dict(marker_lines or {})))
        init(self, "_cache", {})

    def __setattr__(self, key: str, value: object) -> None:
        raise AttributeError(f"Board is immutable (tried to set {key!r})")

    # Pickling (process pools, Ray): mapping proxies do not pickle and unpickled arrays
    # come back writeable, so the state is plain dicts and is frozen again on load. The
    # search cache is not sent; each process rebuilds what it uses.
    _PROXIES: Final = ("legend", "doors", "markers", "_marker_lines")
    _ARRAYS: Final = ("passable", "opaque", "cyl", "walls_h", "walls_v", "roads")

    def __getstate__(self) -> dict[str, Any]:
        state = {key: getattr(self, key) for key in self.__slots__ if key != "_cache"}
        for key in self._PROXIES:
            state[key] = dict(state[key])
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        for key, value in state.items():
            if key in self._PROXIES:
                value = MappingProxyType(dict(value))
            elif key in self._ARRAYS:
                value = _frozen(value, value.dtype)
            object.__setattr__(self, key, value)
        object.__setattr__(self, "_cache", {})

    def __delattr__(self, key: str) -> None:
        raise AttributeError(f"Board is immutable (tried to delete {key!r})")

    def __repr__(self) -> str:
        return f"<Board {self.name!r} {self.width}x{self.height} from {self.file}>"

    # -- squares

    @property
    def shape(self) -> tuple[int, int]:
        """``(height, width)``: the shape of the per-square arrays."""
        return (self.height, self.width)

    def in_bounds(self, square: Square | tuple[int, int]) -> bool:
        """Whether ``square`` (any ``(row, col)`` pair) lies on the board."""
        return 0 <= square[0] < self.height and 0 <= square[1] < self.width

    def squares(self) -> Iterator[Square]:
        """Every square of the board in row-major order (A1, B1, .., A2, ..)."""
        for r in range(self.height):
            for c in range(self.width):
                yield Square(r, c)

    def square(self, text: str) -> Square:
        """Parse a square name and check that it is on this board.

        Raises:
            InvalidNotationError: bad notation or a square off the board.
        """
        sq = Square.parse(text)
        if not self.in_bounds(sq):
            raise InvalidNotationError(
                text, f"off the board: squares run from A1 to {self.last_square}", position=0
            )
        return sq

    @property
    def last_square(self) -> Square:
        """The bottom-right square."""
        return Square(self.height - 1, self.width - 1)

    def terrain_at(self, square: Square) -> Terrain:
        """The legend entry of the terrain on ``square``."""
        return self.legend[self.terrain[square[0]][square[1]]]

    # -- edges

    def door_state(self, open_doors: Collection[Edge] | None = None) -> dict[Edge, bool]:
        """Door edge -> open, for the given set of open doors (``None``: initial state).

        Raises:
            ValueError: if ``open_doors`` names an edge that has no door.
        """
        if open_doors is None:
            return dict(self.doors)
        unknown = [e for e in open_doors if e not in self.doors]
        if unknown:
            raise ValueError(f"not doors on {self.name!r}: {', '.join(map(str, unknown))}")
        opened = set(open_doors)
        return {e: e in opened for e in self.doors}

    def walls(self, open_doors: Collection[Edge] | None = None) -> tuple[BoolArray, BoolArray]:
        """``(walls_h, walls_v)`` with every door that is not open added as a wall.

        Args:
            open_doors: the doors open now; ``None`` means each door as the board file
                sets it (:attr:`doors`).

        Returns:
            Two read-only bool arrays shaped like :attr:`walls_h` and :attr:`walls_v`.
        """
        key = ("walls", None if open_doors is None else frozenset(open_doors))
        hit = self._cache.get(key)
        if hit is not None:
            return hit  # type: ignore[no-any-return]
        wh = self.walls_h.copy()
        wv = self.walls_v.copy()
        for edge, is_open in self.door_state(open_doors).items():
            if not is_open:
                (wh if edge.kind == "h" else wv)[edge.row, edge.col] = True
        wh.flags.writeable = False
        wv.flags.writeable = False
        self._remember(key, (wh, wv))
        return wh, wv

    def blocks(self, edge: Edge, open_doors: Collection[Edge] | None = None) -> bool:
        """Whether a wall or a closed door lies on ``edge`` (boundary edges count)."""
        kind, r, c = edge
        if kind == "h":
            if r <= 0 or r >= self.height:
                return True
            if self.walls_h[r, c]:
                return True
        else:
            if c <= 0 or c >= self.width:
                return True
            if self.walls_v[r, c]:
                return True
        if edge in self.doors:
            if open_doors is None:
                return not self.doors[edge]
            return edge not in open_doors
        return False

    # -- markers

    def marker(self, name: str, *, count: int | None = None) -> tuple[Square, ...]:
        """The squares of marker ``name``, checking that it exists (and its size).

        Game modules call this to validate the markers they need, so that a board
        missing one gets a data error naming the file (and the marker's line).

        Raises:
            BadDataError: no such marker, or not exactly ``count`` squares.
        """
        squares = self.markers.get(name)
        if squares is None:
            raise BadDataError(
                self.file, f"a marker {name!r} in the [markers] section", found="none"
            )
        if count is not None and len(squares) != count:
            raise BadDataError(
                self.file,
                f"marker {name!r} to have {count} square{'s' if count != 1 else ''}",
                line=self._marker_lines.get(name),
                found=f"{len(squares)} square{'s' if len(squares) != 1 else ''}",
            )
        return squares

    # -- cache

    def _remember(self, key: object, value: object) -> None:
        cache = self._cache
        if len(cache) >= _CACHE_SIZE:
            # Drop the oldest entry: door states come and go during a game.
            cache.pop(next(iter(cache)))
        cache[key] = value


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


def builtin_boards() -> list[str]:
    """The names of the boards shipped in ``fogofwar/data/boards``, sorted."""
    folder = resources.files("fogofwar").joinpath("data", "boards")
    return sorted(
        entry.name[: -len(_BOARD_SUFFIX)]
        for entry in folder.iterdir()
        if entry.name.endswith(_BOARD_SUFFIX)
    )


def builtin_board(name: str) -> Board:
    """Load the shipped board ``name`` (the file ``fogofwar/data/boards/<name>.board``).

    Raises:
        LookupError: no such board; the message lists the available ones.
    """
    entry = resources.files("fogofwar").joinpath("data", "boards", name + _BOARD_SUFFIX)
    if "/" in name or "\\" in name or not entry.is_file():
        raise LookupError(f"no built-in board {name!r}; available: {', '.join(builtin_boards())}")
    file = f"fogofwar/data/boards/{name}.board"
    return parse_board(read_text(entry, file=file, what="a board file"), file=file)


# --------------------------------------------------------------------------- movement


class DiagonalStep(NamedTuple):
    """What a diagonal rule sees of one diagonal step.

    The step goes from ``frm`` to ``to`` across the corner shared by four squares:
    ``frm``, ``to`` and the two *side* squares ``side_a = (frm.row, to.col)`` and
    ``side_b = (to.row, frm.col)``. The step could also be made in two orthogonal steps,
    via ``side_a`` or via ``side_b``; ``a_walled`` says a wall or closed door lies on
    the route via ``side_a`` (on the edge ``frm|side_a`` or ``side_a|to``), i.e. on one
    of the two wall segments that meet the crossed corner on ``side_a``'s side.

    ``a_blocked`` / ``b_blocked`` say the side square holds something impassable to the
    mover: impassable terrain, or a square in the call's ``blocked`` set. (Squares in
    ``pass_through`` are not blocked.)
    """

    frm: Square
    to: Square
    side_a: Square
    side_b: Square
    a_blocked: bool
    b_blocked: bool
    a_walled: bool
    b_walled: bool


#: A diagonal rule: ``True`` if the diagonal step is allowed. It must be a pure
#: function of its argument (it is evaluated once per square and case, then cached).
DiagonalRule: TypeAlias = Callable[[DiagonalStep], bool]


def _rule_free(s: DiagonalStep) -> bool:
    # Squares at the corner do not matter; walls do when they fence frm off from to.
    return not (s.a_walled and s.b_walled)


def _rule_both(s: DiagonalStep) -> bool:
    return not ((s.a_blocked or s.a_walled) and (s.b_blocked or s.b_walled))


def _rule_either(s: DiagonalStep) -> bool:
    return not (s.a_blocked or s.a_walled or s.b_blocked or s.b_walled)


def _rule_none(s: DiagonalStep) -> bool:
    return False


#: The named diagonal rules:
#:
#: ``"free"``
#:     any diagonal step, unless walls at the corner separate the two squares (a
#:     straight wall through the corner, or a wall corner around ``frm`` or ``to``).
#: ``"both"``
#:     forbidden only when *both* routes round the corner are shut (side square blocked
#:     or walled): no squeezing between two blocks touching corner to corner. SO-A2.
#: ``"either"``
#:     forbidden when *either* side square is blocked or *any* wall touches the crossed
#:     corner. FR-M4.
#: ``"none"``
#:     no diagonal steps at all (orthogonal movement only).
DIAGONAL_RULES: Final[Mapping[str, DiagonalRule]] = MappingProxyType(
    {"free": _rule_free, "both": _rule_both, "either": _rule_either, "none": _rule_none}
)


def _vector_rule(
    name: str, ab: BoolArray, bb: BoolArray, aw: BoolArray, bw: BoolArray
) -> BoolArray:
    """The named rules on whole arrays (same logic as the scalar functions above)."""
    if name == "free":
        return ~(aw & bw)
    if name == "both":
        return ~((ab | aw) & (bb | bw))
    if name == "either":
        return ~(ab | aw | bb | bw)
    return np.zeros_like(ab)


#: Squares given to the search functions: any collection of :class:`Square` (or
#: ``(row, col)`` pairs), or a bool array of shape ``(height, width)``.
SquareSet: TypeAlias = Collection[Square] | BoolArray


#: :meth:`MoveGraph.reachable` reuses cached unobstructed answers up to this many steps.
_LOCAL_MAX_STEPS: Final = 6
#: When it cannot, it searches locally up to this many steps and with bitboards beyond
#: (measured on a 23x32 board: local is faster up to 3 steps, bitboards from 4).
_LOCAL_SEARCH_STEPS: Final = 3
#: Unobstructed short-move results kept per :class:`MoveGraph` (cleared when full).
_BALL_CACHE_SIZE: Final = 8192


def _shift(x: int, k: int) -> int:
    return x << k if k >= 0 else x >> -k


class MoveGraph:
    """The step tables of one board under one diagonal rule and one door state.

    Built by :func:`move_graph` (cached per board); the module-level functions
    (:func:`reachable`, :func:`shortest_path`, ...) use it. Use it directly in hot loops
    to skip the cache lookup, and use the ``*_bits`` methods to skip converting squares:
    a *bitboard* is a Python ``int`` whose bit ``row * width + col`` is a square.
    """

    __slots__ = (
        "_adj",
        "_all",
        "_alone",
        "_balls",
        "_diag",
        "_monotone",
        "_nbytes",
        "_offsets",
        "_paired",
        "_passable",
        "_sensitive",
        "_shifts",
        "_static",
        "_steps",
        "board",
        "height",
        "squares_list",
        "width",
    )
    _shifts: tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]

    def __init__(
        self,
        board: Board,
        diagonal: str | DiagonalRule = "both",
        open_doors: Collection[Edge] | None = None,
    ) -> None:
        self.board = board
        h, w = self.height, self.width = board.height, board.width
        n = h * w
        self._nbytes = (n + 7) // 8
        self._all = (1 << n) - 1
        self._passable = _to_bits(board.passable)
        self.squares_list = tuple(Square(r, c) for r in range(h) for c in range(w))
        wh, wv = board.walls(open_doors)
        blocked = ~board.passable
        rows, cols = np.indices((h, w))
        if isinstance(diagonal, str):
            if diagonal not in DIAGONAL_RULES:
                raise ValueError(
                    f"unknown diagonal rule {diagonal!r}; use one of "
                    f"{', '.join(DIAGONAL_RULES)} or a callable"
                )
            rule_name: str | None = diagonal
            rule = DIAGONAL_RULES[diagonal]
        else:
            rule_name, rule = None, diagonal

        offsets: list[int] = []
        static: list[int] = []
        # Per direction, shape (4, n): whether the step is allowed when neither side
        # square is dynamically blocked, only side_a, only side_b, both.
        tables: list[npt.NDArray[np.bool_]] = []
        # Per diagonal direction: (direction index, offset to side_a, offset to side_b,
        # sources allowed when only side_a is dynamically blocked, only side_b, both).
        diag: list[tuple[int, int, int, int, int, int]] = []
        for d, (dr, dc) in enumerate(_DIRS):
            offsets.append(dr * w + dc)
            tr, tc = rows + dr, cols + dc
            inside = (tr >= 0) & (tr < h) & (tc >= 0) & (tc < w)
            trc, tcc = np.clip(tr, 0, h - 1), np.clip(tc, 0, w - 1)
            target_ok = inside & board.passable[trc, tcc]
            if dr == 0 or dc == 0:
                if dr:
                    edge = wh[rows + (1 if dr > 0 else 0), cols]
                else:
                    edge = wv[rows, cols + (1 if dc > 0 else 0)]
                ok = target_ok & ~edge
                static.append(_to_bits(ok))
                tables.append(np.broadcast_to(ok.ravel(), (4, n)))
                continue
            # Side squares (clipped where the step leaves the board; masked by target_ok).
            a_r, a_c = rows, tcc
            b_r, b_c = trc, cols
            a_blk = blocked[a_r, a_c]
            b_blk = blocked[b_r, b_c]
            hr = np.clip(rows + (1 if dr > 0 else 0), 0, h)
            vc = np.clip(cols + (1 if dc > 0 else 0), 0, w)
            a_wall = wv[rows, vc] | wh[hr, tcc]  # frm|side_a, side_a|to
            b_wall = wh[hr, cols] | wv[trc, vc]  # frm|side_b, side_b|to
            masks: list[int] = []
            table = np.zeros((4, n), dtype=np.bool_)
            for k, (dyn_a, dyn_b) in enumerate(
                ((False, False), (True, False), (False, True), (True, True))
            ):
                ab = a_blk | dyn_a
                bb = b_blk | dyn_b
                if rule_name is not None:
                    ok = _vector_rule(rule_name, ab, bb, a_wall, b_wall)
                else:
                    ok = np.zeros((h, w), dtype=np.bool_)
                    for r, c in zip(*np.nonzero(target_ok), strict=True):
                        step = DiagonalStep(
                            Square(int(r), int(c)),
                            Square(int(r) + dr, int(c) + dc),
                            Square(int(r), int(c) + dc),
                            Square(int(r) + dr, int(c)),
                            bool(ab[r, c]),
                            bool(bb[r, c]),
                            bool(a_wall[r, c]),
                            bool(b_wall[r, c]),
                        )
                        ok[r, c] = bool(rule(step))
                table[k] = (target_ok & ok).ravel()
                masks.append(_to_bits(target_ok & ok))
            tables.append(table)
            static.append(masks[0])
            diag.append((d, dc, dr * w, masks[1], masks[2], masks[3]))
        self._offsets = tuple(offsets)
        self._static = tuple(static)
        self._diag = tuple(diag)
        self._build_lists(tables)

    def _build_lists(self, tables: Sequence[npt.NDArray[np.bool_]]) -> None:
        """Adjacency lists for the local search that :meth:`reachable` uses for short moves.

        ``_adj[i]``: the squares one step from square index ``i`` with nothing
        dynamically blocked. ``_steps[i]``: every possibly legal step from ``i`` as
        ``(target, side_a, side_b, allowed per case)`` (sides -1 for orthogonal steps).
        ``_sensitive[b]``: the squares some of whose steps change when ``b`` is blocked.
        ``_alone[b]``: the squares with a step that changes when ``b`` alone is blocked.
        ``_paired[b]``: ``(square, other side)`` for steps that change only when ``b`` and
        the other side square are both blocked (e.g. the "both" rule on open ground).
        """
        w = self.width
        n = self.height * w
        ok = [[t[k].tolist() for k in range(4)] for t in tables]
        adj: list[tuple[int, ...]] = []
        steps: list[tuple[tuple[int, int, int, tuple[bool, bool, bool, bool]], ...]] = []
        sensitive: dict[int, set[int]] = {}
        alone: dict[int, set[int]] = {}
        paired: dict[int, set[tuple[int, int]]] = {}
        for i in range(n):
            near: list[int] = []
            here: list[tuple[int, int, int, tuple[bool, bool, bool, bool]]] = []
            for d, (dr, dc) in enumerate(_DIRS):
                cases = (ok[d][0][i], ok[d][1][i], ok[d][2][i], ok[d][3][i])
                if not any(cases):
                    continue
                j = i + self._offsets[d]
                a = b = -1
                if dr and dc:
                    a, b = i + dc, i + dr * w
                    if cases[0] != cases[1] or cases[2] != cases[3]:
                        sensitive.setdefault(a, set()).add(i)
                    if cases[0] != cases[2] or cases[1] != cases[3]:
                        sensitive.setdefault(b, set()).add(i)
                    if cases[0] != cases[1]:
                        alone.setdefault(a, set()).add(i)
                    if cases[0] != cases[2]:
                        alone.setdefault(b, set()).add(i)
                    if cases[0] != cases[3]:
                        paired.setdefault(a, set()).add((i, b))
                        paired.setdefault(b, set()).add((i, a))
                if cases[0]:
                    near.append(j)
                here.append((j, a, b, cases))
            adj.append(tuple(near))
            steps.append(tuple(here))
        self._adj = tuple(frozenset(a) for a in adj)
        self._steps = tuple(steps)
        self._sensitive = {k: tuple(sorted(v)) for k, v in sensitive.items()}
        self._alone = {k: frozenset(v) for k, v in alone.items()}
        self._paired = {k: tuple(sorted(v)) for k, v in paired.items()}
        # Monotone: blocking a side square never allows a step that was not allowed.
        self._monotone = all(
            c[1] <= c[0] and c[2] <= c[0] and c[3] <= c[1] and c[3] <= c[2]
            for here in steps
            for _, _, _, c in here
        )
        self._balls: dict[tuple[int, int], tuple[dict[Square, int], set[int], set[int]]] = {}

    # -- conversions

    def bits(self, squares: SquareSet | Square | None) -> int:
        """A set of squares (or one square, or a bool array) as a bitboard.

        Raises:
            ValueError: a square off the board or an array of the wrong shape.
        """
        if squares is None:
            return 0
        if isinstance(squares, np.ndarray):
            if squares.shape != (self.height, self.width):
                raise ValueError(
                    f"expected a bool array of shape {(self.height, self.width)}, "
                    f"got {squares.shape}"
                )
            return _to_bits(squares)
        out = 0
        for i in self.indices(squares):
            out |= 1 << i
        return out

    def indices(self, squares: SquareSet | Square | None) -> set[int]:
        """A set of squares as square indices ``row * width + col``.

        Raises:
            ValueError: a square off the board or an array of the wrong shape.
        """
        if squares is None:
            return set()
        h, w = self.height, self.width
        if isinstance(squares, np.ndarray):
            if squares.shape != (h, w):
                raise ValueError(f"expected a bool array of shape {(h, w)}, got {squares.shape}")
            return set(np.flatnonzero(squares).tolist())
        items: Iterable[Any] = squares
        if isinstance(squares, tuple) and len(squares) == 2 and isinstance(squares[0], int):
            items = (squares,)  # one square, not a collection of two
        out: set[int] = set()
        for sq in items:
            r, c = sq
            if not (0 <= r < h and 0 <= c < w):
                raise ValueError(f"square {sq!r} is off the board")
            out.add(r * w + c)
        return out

    def squares(self, bits: int) -> list[Square]:
        """The squares of a bitboard, in row-major order."""
        if not bits:
            return []
        idx = self._indices(bits)
        sq = self.squares_list
        return [sq[i] for i in idx]

    def bit_indices(self, bits: int) -> list[int]:
        """The square indices ``row * width + col`` of a bitboard, ascending."""
        return self._indices(bits)

    def _indices(self, bits: int) -> list[int]:
        if bits.bit_count() <= 8:
            # Few bits: peeling them one by one beats the numpy round trip.
            out: list[int] = []
            while bits:
                low = bits & -bits
                out.append(low.bit_length() - 1)
                bits ^= low
            return out
        raw = np.frombuffer(bits.to_bytes(self._nbytes, "little"), dtype=np.uint8)
        found: list[int] = np.flatnonzero(np.unpackbits(raw, bitorder="little")).tolist()
        return found

    def _layer_matrix(self, layers: Sequence[int]) -> tuple[list[int], list[int]]:
        """(distances, square indices) of all bits of ``layers``, by layer then index."""
        nb = self._nbytes
        raw = np.frombuffer(b"".join(x.to_bytes(nb, "little") for x in layers), dtype=np.uint8)
        matrix = np.unpackbits(raw, bitorder="little").reshape(len(layers), nb * 8)
        dist, idx = np.nonzero(matrix)
        return dist.tolist(), idx.tolist()

    # -- the search

    def _sources(self, blocked: int) -> tuple[int, ...]:
        """Per direction: the squares from which a step that way is allowed."""
        if not blocked:
            return self._static
        out = list(self._static)
        for d, off_a, off_b, m_a, m_b, m_ab in self._diag:
            # Bit i of ba: the side_a square of a step from i is blocked.
            ba = _shift(blocked, -off_a)
            bb = _shift(blocked, -off_b)
            s = out[d] & ~(ba | bb)
            if m_a:
                s |= m_a & ba & ~bb
            if m_b:
                s |= m_b & bb & ~ba
            if m_ab:
                s |= m_ab & ba & bb
            out[d] = s
        return tuple(out)

    def layers_bits(
        self, start: int, max_steps: int | None = None, *, blocked: int = 0, stop: int = 0
    ) -> list[int]:
        """Breadth-first layers: ``layers[k]`` is the bitboard of squares first reached in k
        steps (``layers[0] == start``).

        Args:
            start: bitboard of start squares (several = distance to the nearest).
            max_steps: at most this many steps; ``None`` = until nothing new is reached.
            blocked: bitboard of squares that cannot be entered (the starts are exempt).
            stop: end early once a layer meets this bitboard (0: never).
        """
        blocked &= ~start
        sources = self._sources(blocked)
        pos = [(off, s) for off, s in zip(self._offsets, sources, strict=True) if s and off > 0]
        neg = [(-off, s) for off, s in zip(self._offsets, sources, strict=True) if s and off < 0]
        free = self._all & ~blocked
        visited = start
        frontier = start
        layers = [start]
        steps = 0 if max_steps is None else max_steps
        while frontier and (max_steps is None or steps > 0):
            if stop and frontier & stop:
                break
            nxt = 0
            for off, s in pos:
                nxt |= (frontier & s) << off
            for off, s in neg:
                nxt |= (frontier & s) >> off
            nxt &= free & ~visited
            if not nxt:
                break
            visited |= nxt
            layers.append(nxt)
            frontier = nxt
            steps -= 1
        return layers

    def step_bits(self, frontier: int, *, blocked: int = 0) -> int:
        """Bitboard of the squares exactly one legal step from any square of ``frontier``.

        Unlike :meth:`layers_bits` nothing is marked visited: applying it ``k`` times
        gives the squares where a *walk* of exactly ``k`` steps can be (revisits
        allowed), which is what a hidden mover's possible squares need. For many calls
        with the same ``blocked``, :meth:`stepper` is faster.

        Args:
            frontier: bitboard of the squares stepped from.
            blocked: bitboard of squares that cannot be entered; they also count for the
                diagonal rule, as in :meth:`layers_bits`.
        """
        return self.stepper(blocked)(frontier)

    def _split(
        self, sources: tuple[int, ...]
    ) -> tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]:
        pos = tuple((off, s) for off, s in zip(self._offsets, sources, strict=True) if off > 0)
        neg = tuple((-off, s) for off, s in zip(self._offsets, sources, strict=True) if off < 0)
        return pos, neg

    def stepper(self, blocked: int = 0, *, avoid: int = 0) -> Callable[[int], int]:
        """:meth:`step_bits` with ``blocked`` fixed, as a function of the frontier.

        The per-direction masks are worked out once here, not on every step.

        Args:
            blocked: squares that cannot be entered and count for the diagonal rule.
            avoid: squares that cannot be entered but do *not* count for the diagonal
                rule (figures, where only terrain shuts a diagonal).
        """
        if blocked:
            pos, neg = self._split(self._sources(blocked))
        else:
            # Without blocked squares the shifts are the board's own: made once (the
            # hot path of a hidden mover's legal steps).
            try:
                pos, neg = self._shifts
            except AttributeError:
                self._shifts = pos, neg = self._split(self._static)
        free = self._all & ~blocked & ~avoid

        def step(frontier: int) -> int:
            nxt = 0
            for off, s in pos:
                nxt |= (frontier & s) << off
            for off, s in neg:
                nxt |= (frontier & s) >> off
            return nxt & free

        return step

    def reach_bits(
        self, start: int, max_steps: int, *, blocked: int = 0, pass_through: int = 0
    ) -> int:
        """Bitboard of the squares where a move of at most ``max_steps`` can end."""
        visited = 0
        for layer in self.layers_bits(start, max_steps, blocked=blocked):
            visited |= layer
        return visited & ~pass_through

    def _local_layers(self, starts: set[int], max_steps: int, blocked: set[int]) -> list[set[int]]:
        """Breadth-first layers of square indices, on adjacency sets.

        For short moves this touches only the squares near the start, so it beats the
        whole-board bitboards; each layer is one C-level set union.
        """
        adj = self._adj
        sensitive: set[int] = set()
        if blocked:
            table = self._sensitive
            for b in blocked:
                sensitive.update(table.get(b, ()))
        visited = starts | blocked
        frontier = set(starts)
        layers = [frontier]
        steps_of = self._steps
        for _ in range(max_steps):
            if sensitive and not sensitive.isdisjoint(frontier):
                # Squares whose diagonal steps depend on the blockers: filter those steps.
                special = frontier & sensitive
                nxt = set().union(*map(adj.__getitem__, frontier - special))
                for i in special:
                    nxt.update(
                        [
                            j
                            for j, a, b, cases in steps_of[i]
                            if cases[(a in blocked) + 2 * (b in blocked)]
                        ]
                    )
            else:
                nxt = set().union(*map(adj.__getitem__, frontier))
            nxt -= visited
            if not nxt:
                break
            visited |= nxt
            layers.append(nxt)
            frontier = nxt
        return layers

    def _as_dict(self, layers: Sequence[set[int]], drop: set[int]) -> dict[Square, int]:
        """``{square: steps}`` from index layers, by steps then row-major, less ``drop``."""
        get = self.squares_list.__getitem__
        out: dict[Square, int] = {}
        for k, layer in enumerate(layers):
            out.update(dict.fromkeys(map(get, sorted(layer - drop if drop else layer)), k))
        return out

    def _ball(self, s: int, max_steps: int) -> tuple[dict[Square, int], set[int], set[int]]:
        """From square index ``s`` with nothing blocked (cached): the result, the squares
        first reached by the last step, and those reached before it (whose steps are
        taken).
        """
        key = (s, max_steps)
        hit = self._balls.get(key)
        if hit is None:
            layers = self._local_layers({s}, max_steps, set())
            result = self._as_dict(layers, set())
            inner = set().union(*layers[:max_steps])
            last = layers[max_steps] if len(layers) > max_steps else set()
            if len(self._balls) >= _BALL_CACHE_SIZE:
                self._balls.clear()
            hit = self._balls[key] = (result, last, inner)
        return hit

    def _unaffected(self, blocked: set[int], inner: set[int]) -> bool:
        """Whether ``blocked`` leaves every distance of the unobstructed search unchanged.

        True when no blocked square is reached before the last step and no step taken
        from ``inner`` changes. Holds only for monotone rules (blocking never adds steps);
        blocked squares on the last layer must still be dropped from the result.
        """
        alone, paired = self._alone, self._paired
        for b in blocked:
            if b in inner:
                return False
            if b in alone and not inner.isdisjoint(alone[b]):
                return False
            for i, other in paired.get(b, ()):
                if other in blocked and i in inner:
                    return False
        return True

    def reachable(
        self,
        start: Square | SquareSet,
        max_steps: int | None,
        *,
        blocked: SquareSet | None = None,
        pass_through: SquareSet | None = None,
        can_end: SquareSet | None = None,
    ) -> dict[Square, int]:
        """See :func:`reachable`."""
        if max_steps is not None and max_steps < 0:
            raise ValueError(f"max_steps must be >= 0, got {max_steps}")
        if can_end is not None:
            allowed = {self.squares_list[i] for i in self.indices(can_end)}
            found = self.reachable(start, max_steps, blocked=blocked, pass_through=pass_through)
            return {square: k for square, k in found.items() if square in allowed}
        if max_steps is not None and max_steps <= _LOCAL_MAX_STEPS:
            starts = self.indices(start)
            stop = self.indices(blocked) - starts if blocked is not None else set()
            sq = self.squares_list
            if len(starts) == 1 and self._monotone:
                # Blocking only removes steps (a monotone rule), so blockers that change
                # no step taken in the unobstructed search leave its distances as they
                # are: reuse it, less the blocked squares it reached on the last step.
                result, last, inner = self._ball(next(iter(starts)), max_steps)
                if not stop or self._unaffected(stop, inner):
                    out = dict(result)
                    drop = stop & last
                    if pass_through is not None:
                        drop |= self.indices(pass_through)
                    for i in drop:
                        out.pop(sq[i], None)
                    return out
            if max_steps <= _LOCAL_SEARCH_STEPS:
                layers = self._local_layers(starts, max_steps, stop)
                return self._as_dict(layers, self.indices(pass_through))
        bit_layers = self.layers_bits(self.bits(start), max_steps, blocked=self.bits(blocked))
        if pass_through is not None:
            keep = ~self.bits(pass_through)
            bit_layers = [x & keep for x in bit_layers]
        dist, idx = self._layer_matrix(bit_layers)
        return dict(zip(map(self.squares_list.__getitem__, idx), dist, strict=True))

    def distance_map(
        self,
        start: Square | SquareSet,
        max_steps: int | None = None,
        *,
        blocked: SquareSet | None = None,
        pass_through: SquareSet | None = None,
    ) -> npt.NDArray[np.int16]:
        """See :func:`distance_map`."""
        if max_steps is not None and max_steps < 0:
            raise ValueError(f"max_steps must be >= 0, got {max_steps}")
        layers = self.layers_bits(self.bits(start), max_steps, blocked=self.bits(blocked))
        if pass_through is not None:
            keep = ~self.bits(pass_through)
            layers = [x & keep for x in layers]
        out = np.full(self.height * self.width, -1, dtype=np.int16)
        dist, idx = self._layer_matrix(layers)
        out[idx] = dist
        return out.reshape(self.height, self.width)

    def neighbours(self, square: Square, *, blocked: SquareSet | None = None) -> list[Square]:
        """See :func:`neighbours`."""
        w = self.width
        i = self.bits(square).bit_length() - 1
        blk = self.bits(blocked) & ~(1 << i)
        sources = self._sources(blk)
        out: list[Square] = []
        for off, s in zip(self._offsets, sources, strict=True):
            if (s >> i) & 1 and not (blk >> (i + off)) & 1:
                out.append(Square(*divmod(i + off, w)))
        return out

    def can_step(self, a: Square, b: Square, *, blocked: SquareSet | None = None) -> bool:
        """See :func:`can_step`."""
        dr, dc = b[0] - a[0], b[1] - a[1]
        if (dr, dc) == (0, 0) or abs(dr) > 1 or abs(dc) > 1:
            return False
        if not self.board.in_bounds(b):
            return False
        i = self.bits(a).bit_length() - 1
        blk = self.bits(blocked) & ~(1 << i)
        d = _DIRS.index((dr, dc))
        j = i + self._offsets[d]
        return bool((self._sources(blk)[d] >> i) & 1) and not (blk >> j) & 1

    def shortest_path(
        self,
        start: Square,
        goal: Square,
        *,
        blocked: SquareSet | None = None,
    ) -> list[Square] | None:
        """See :func:`shortest_path`."""
        w = self.width
        s = self.bits(start).bit_length() - 1
        g = self.bits(goal).bit_length() - 1
        if s == g:
            return [Square(*start)]
        start_bit, goal_bit = 1 << s, 1 << g
        blk = self.bits(blocked) & ~start_bit
        if blk & goal_bit:
            return None
        sources = self._sources(blk)
        # Backward breadth-first search from the goal: back[k] = squares k steps from it.
        enter = self._passable & ~blk
        pred = [(off, src) for off, src in zip(self._offsets, sources, strict=True) if src]
        back = [goal_bit]
        seen = goal_bit
        frontier = goal_bit
        while not frontier & start_bit:
            nxt = 0
            for off, src in pred:
                nxt |= _shift(frontier, -off) & src
            nxt &= (enter | start_bit) & ~seen
            if not nxt:
                return None
            seen |= nxt
            back.append(nxt)
            frontier = nxt
        # Walk forward, taking at each step the first direction (N, NE, E, ...) that
        # stays on a shortest path: the documented tie-break.
        path = [Square(*start)]
        cur = s
        for k in range(len(back) - 2, -1, -1):
            layer = back[k]
            for off, src in zip(self._offsets, sources, strict=True):
                nb = cur + off
                if (src >> cur) & 1 and (layer >> nb) & 1:
                    cur = nb
                    break
            path.append(Square(*divmod(cur, w)))
        return path

    def distance(
        self, start: Square, goal: Square, *, blocked: SquareSet | None = None
    ) -> int | None:
        """See :func:`distance`."""
        goal_bit = self.bits(goal)
        layers = self.layers_bits(self.bits(start), None, blocked=self.bits(blocked), stop=goal_bit)
        if layers[-1] & goal_bit:
            return len(layers) - 1
        return None


def move_graph(
    board: Board,
    *,
    diagonal: str | DiagonalRule = "both",
    open_doors: Collection[Edge] | None = None,
) -> MoveGraph:
    """The (cached) :class:`MoveGraph` of ``board`` for a diagonal rule and door state.

    The cache lives on the board and keeps the 64 most recent tables; a callable rule is
    cached by identity, so pass the same function object each time.
    """
    if open_doors is None:
        key: tuple[object, ...] = ("moves", diagonal, None)
    else:
        state = board.door_state(open_doors)
        key = ("moves", diagonal, frozenset(e for e, o in state.items() if not o))
    graph = board._cache.get(key)
    if graph is None:
        graph = MoveGraph(board, diagonal, open_doors)
        board._remember(key, graph)
    return graph


def _graph(
    board: Board, diagonal: str | DiagonalRule, open_doors: Collection[Edge] | None
) -> MoveGraph:
    # Fast path for the common call: initial doors, a hashable rule already cached.
    if open_doors is None:
        graph = board._cache.get(("moves", diagonal, None))
        if graph is not None:
            return graph  # type: ignore[no-any-return]
    return move_graph(board, diagonal=diagonal, open_doors=open_doors)


def neighbours(
    board: Board,
    square: Square,
    *,
    diagonal: str | DiagonalRule = "both",
    blocked: SquareSet | None = None,
    open_doors: Collection[Edge] | None = None,
) -> list[Square]:
    """The squares one legal step from ``square``, clockwise from north (N, NE, .., NW).

    Args:
        board: the board.
        square: where the mover stands (it never blocks itself).
        diagonal: a name in :data:`DIAGONAL_RULES` or a :data:`DiagonalRule`.
        blocked: squares that cannot be entered (e.g. enemy models); they also count
            as blocked side squares for the diagonal rule.
        open_doors: doors open now; ``None`` = the board's initial door state.
    """
    return _graph(board, diagonal, open_doors).neighbours(square, blocked=blocked)


def can_step(
    board: Board,
    a: Square,
    b: Square,
    *,
    diagonal: str | DiagonalRule = "both",
    blocked: SquareSet | None = None,
    open_doors: Collection[Edge] | None = None,
) -> bool:
    """Whether one step from ``a`` to ``b`` is legal (same arguments as :func:`neighbours`)."""
    return _graph(board, diagonal, open_doors).can_step(a, b, blocked=blocked)


def reachable(
    board: Board,
    start: Square | SquareSet,
    max_steps: int | None,
    *,
    diagonal: str | DiagonalRule = "both",
    blocked: SquareSet | None = None,
    pass_through: SquareSet | None = None,
    can_end: SquareSet | None = None,
    open_doors: Collection[Edge] | None = None,
) -> dict[Square, int]:
    """The squares where a move of at most ``max_steps`` steps can end, with step counts.

    Every step costs 1. The start square is included with 0 steps (a model may stay).

    Args:
        board: the board.
        start: the mover's square, or several (the count is then from the nearest).
            Start squares never block, even if also listed in ``blocked``.
        max_steps: the most steps; ``None`` = no limit.
        diagonal: a name in :data:`DIAGONAL_RULES` or a :data:`DiagonalRule`.
        blocked: squares that cannot be entered or crossed (enemy models, and for
            SO-A1 the hunters). They are blocked side squares for the diagonal rule.
        pass_through: squares that may be crossed but not ended on (FR-M2 friends,
            SO-A3 the vehicle): reached as usual, but left out of the result. They
            do not count as blocked for the diagonal rule. ``blocked`` wins if a square
            is in both.
        can_end: if given, only these squares may be ended on (a filter on the result:
            the search itself may cross any square not blocked).
        open_doors: the doors open now; ``None`` = the board's initial door state.

    Returns:
        ``{square: steps}``, ordered by steps, then row-major.
    """
    return _graph(board, diagonal, open_doors).reachable(
        start, max_steps, blocked=blocked, pass_through=pass_through, can_end=can_end
    )


def distance_map(
    board: Board,
    start: Square | SquareSet,
    max_steps: int | None = None,
    *,
    diagonal: str | DiagonalRule = "both",
    blocked: SquareSet | None = None,
    pass_through: SquareSet | None = None,
    open_doors: Collection[Edge] | None = None,
) -> npt.NDArray[np.int16]:
    """:func:`reachable` as an int16 array ``(height, width)``: steps, or -1 where a move
    cannot end (unreachable, beyond ``max_steps``, blocked or pass-through)."""
    return _graph(board, diagonal, open_doors).distance_map(
        start, max_steps, blocked=blocked, pass_through=pass_through
    )


def shortest_path(
    board: Board,
    start: Square,
    goal: Square,
    *,
    diagonal: str | DiagonalRule = "both",
    blocked: SquareSet | None = None,
    open_doors: Collection[Edge] | None = None,
) -> list[Square] | None:
    """A shortest path from ``start`` to ``goal``, both included; ``None`` if there is none.

    All steps cost 1 (breadth-first search). The start never blocks; a goal in
    ``blocked`` is unreachable (remove it from ``blocked`` to path *to* a model).

    Ties are broken deterministically: at each square the path takes the first
    direction, in the order N, NE, E, SE, S, SW, W, NW, that still lies on a shortest
    path. So the path is the lexicographically smallest sequence of directions.
    """
    return _graph(board, diagonal, open_doors).shortest_path(start, goal, blocked=blocked)


def distance(
    board: Board,
    start: Square,
    goal: Square,
    *,
    diagonal: str | DiagonalRule = "both",
    blocked: SquareSet | None = None,
    open_doors: Collection[Edge] | None = None,
) -> int | None:
    """The number of steps of a shortest path (``len(shortest_path(...)) - 1``), or ``None``.

    With ``diagonal="either"`` and no ``blocked`` this is Zero Dark's range (FR-R1):
    adjacent squares are at range 1.
    """
    return _graph(board, diagonal, open_doors).distance(start, goal, blocked=blocked)


# --------------------------------------------------------------------------- rendering

# Box-drawing glyph of a wall corner, by which of its arms (up, right, down, left) exist.
_CORNERS: Final = {
    (False, False, False, False): " ",
    (True, False, False, False): "╵",
    (False, True, False, False): "╶",
    (False, False, True, False): "╷",
    (False, False, False, True): "╴",
    (True, False, True, False): "│",
    (False, True, False, True): "─",
    (False, True, True, False): "┌",
    (False, False, True, True): "┐",
    (True, True, False, False): "└",
    (True, False, False, True): "┘",
    (True, True, True, False): "├",
    (True, False, True, True): "┤",
    (False, True, True, True): "┬",
    (True, True, False, True): "┴",
    (True, True, True, True): "┼",
}
_H_GLYPH: Final = {"wall": "───", "closed": "═══", "open": "┄┄┄", "": "   "}
_V_GLYPH: Final = {"wall": "│", "closed": "║", "open": "┆", "": " "}
_ROAD_GLYPH: Final = {ROAD_EW: "=", ROAD_NS: "‖", ROAD_EW | ROAD_NS: "+"}
_EDGE_STYLE: Final = {"wall": "bold bright_white", "closed": "bold red", "open": "green", "": ""}

Segment: TypeAlias = tuple[str, str]  # (text, rich style)


def _terrain_style(t: Terrain) -> str:
    if t.opaque and not t.passable:
        return "bold bright_white on grey35"
    if t.opaque:
        return "bold bright_white on grey23"
    if not t.passable:
        return "bold dark_orange"
    if t.cyl > 0:
        return "green"
    return "grey50"


def _compact(squares: Sequence[Square], limit: int = 8) -> str:
    """``A1-C3`` for a full rectangle in row-major order, else a (shortened) list."""
    if len(squares) > 1:
        r0, c0 = squares[0]
        r1, c1 = squares[-1]
        rect = [Square(r, c) for r in range(r0, r1 + 1) for c in range(c0, c1 + 1)]
        if list(squares) == rect:
            return f"{squares[0]}-{squares[-1]}"
    names = [str(s) for s in squares[:limit]]
    if len(squares) > limit:
        names.append(f"... ({len(squares)} squares)")
    return " ".join(names)


def _render(
    board: Board,
    marks: Mapping[Square, str] | None,
    open_doors: Collection[Edge] | None,
    highlight: Collection[Square] | None,
    highlight_style: str,
    mark_style: str,
    legend: bool,
    mark_styles: Mapping[Square, str] | None = None,
    under_marks: Mapping[Square, tuple[str, str]] | None = None,
) -> list[list[Segment]]:
    h, w = board.height, board.width
    state = board.door_state(open_doors)
    marks = dict(marks or {})
    for sq, text in marks.items():
        if not board.in_bounds(sq):
            raise ValueError(f"mark on {sq!r}: off the board")
        if len(text) > 3:
            raise ValueError(f"mark {text!r} on {sq}: at most 3 characters")
    lit = set(highlight or ())

    def h_edge(r: int, c: int) -> str:
        if r in (0, h) or board.walls_h[r, c]:
            return "wall"
        e = Edge("h", r, c)
        return ("open" if state[e] else "closed") if e in state else ""

    def v_edge(r: int, c: int) -> str:
        if c in (0, w) or board.walls_v[r, c]:
            return "wall"
        e = Edge("v", r, c)
        return ("open" if state[e] else "closed") if e in state else ""

    label_w = len(str(h))
    pad = " " * (label_w + 1)
    lines: list[list[Segment]] = []
    header = pad + " " + "".join(column_name(c).center(3) + " " for c in range(w))
    lines.append([(header.rstrip(), "bold")])
    for r in range(h + 1):
        seg: list[Segment] = [(pad, "")]
        for c in range(w + 1):
            arms = (
                r > 0 and bool(v_edge(r - 1, c)),
                c < w and bool(h_edge(r, c)),
                r < h and bool(v_edge(r, c)),
                c > 0 and bool(h_edge(r, c - 1)),
            )
            seg.append((_CORNERS[arms], "bold bright_white"))
            if c < w:
                kind = h_edge(r, c)
                under = (under_marks or {}).get(Square(r - 1, c)) if r > 0 and not kind else None
                if under is not None:
                    # A note under a square (a counter's tokens) where no wall is drawn.
                    seg.append((under[0][:3].center(3), under[1]))
                else:
                    seg.append((_H_GLYPH[kind], _EDGE_STYLE[kind]))
        lines.append(seg)
        if r == h:
            break
        seg = [(str(r + 1).rjust(label_w) + " ", "bold")]
        for c in range(w + 1):
            kind = v_edge(r, c)
            seg.append((_V_GLYPH[kind], _EDGE_STYLE[kind]))
            if c == w:
                break
            sq = Square(r, c)
            t = board.legend[board.terrain[r][c]]
            road = int(board.roads[r, c])
            if sq in marks:
                text = marks[sq].center(3)
                style = (mark_styles or {}).get(sq, mark_style)
            elif road:
                text, style = f" {_ROAD_GLYPH[road]} ", "bright_black on grey15"
            else:
                text, style = f" {t.char} ", _terrain_style(t)
            if sq in lit:
                style = f"{style} {highlight_style}".strip()
            seg.append((text, style))
        lines.append(seg)
    if legend:
        lines.extend([(text, "")] for text in _legend_lines(board))
    return lines


def _legend_lines(board: Board) -> list[str]:
    out = [""]
    if board.name:
        out.append(f"{board.name} ({board.width}x{board.height}, A1-{board.last_square})")
    out.append("Terrain:")
    width = max(len(t.name) for t in board.legend.values())
    for t in board.legend.values():
        props = [
            "passable" if t.passable else "impassable",
            "opaque" if t.opaque else "transparent",
        ]
        if t.cyl:
            props.append(f"cyl {t.cyl}")
        out.append(f"  {t.char}  {t.name.ljust(width)}  {', '.join(props)}")
    out.append("Edges: ─│ wall   ═║ closed door   ┄┆ open door")
    if board.roads.any():
        out.append("Roads: = east-west   ‖ north-south   + both")
    if board.markers:
        out.append("Markers:")
        width = max(len(k) for k in board.markers)
        for key, squares in board.markers.items():
            out.append(f"  {key.ljust(width)}  {_compact(squares)}")
    return out


def render_text(
    board: Board,
    *,
    marks: Mapping[Square, str] | None = None,
    open_doors: Collection[Edge] | None = None,
    legend: bool = False,
) -> str:
    """The board as plain text: column letters on top, row numbers on the left.

    Each square is 3 characters wide between edge columns, and rows alternate with edge
    rows, so walls (``─ │`` with box-drawing corners), closed doors (``═ ║``) and open
    doors (``┄ ┆``) sit between the squares. A square shows its mark, else its road
    (``=`` east-west, ``‖`` north-south, ``+`` both), else its terrain character.

    Args:
        board: the board.
        marks: text of at most 3 characters to show on squares (models, markers).
        open_doors: doors open now; ``None`` = the board's initial door state.
        legend: append the terrain legend, the glyph key and the markers.

    Raises:
        ValueError: a mark longer than 3 characters or off the board.
    """
    lines = _render(board, marks, open_doors, None, "", "", legend)
    return "\n".join("".join(text for text, _ in line).rstrip() for line in lines) + "\n"


def render_rich(
    board: Board,
    *,
    marks: Mapping[Square, str] | None = None,
    open_doors: Collection[Edge] | None = None,
    highlight: Collection[Square] | None = None,
    highlight_style: str = "on dark_blue",
    mark_style: str = "bold magenta",
    mark_styles: Mapping[Square, str] | None = None,
    under_marks: Mapping[Square, tuple[str, str]] | None = None,
    legend: bool = False,
) -> Text:
    """The same picture as :func:`render_text`, as a coloured ``rich.text.Text``.

    Args:
        highlight: squares to shade with ``highlight_style`` (e.g. a possibility map).
        mark_style: the rich style of marks.
        mark_styles: a style per marked square, overriding ``mark_style`` there (e.g.
            a model's side and state).
        under_marks: ``(text, style)`` drawn in the gap under a square (at most 3
            characters; e.g. a counter's tokens), where no wall or door is drawn there.

    Returns:
        a :class:`rich.text.Text` (rich is imported on first use only).
    """
    from rich.text import Text  # deferred: the search code must not pay for rich

    lines = _render(
        board,
        marks,
        open_doors,
        highlight,
        highlight_style,
        mark_style,
        legend,
        mark_styles,
        under_marks,
    )
    out = Text()
    for n, line in enumerate(lines):
        if n:
            out.append("\n")
        for text, style in line:
            out.append(text, style=style or None)
    out.rstrip()
    return out
