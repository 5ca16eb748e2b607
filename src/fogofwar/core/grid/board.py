"""Boards: the terrain with its legend, walls, doors, roads, markers and placed pieces.

.. important:: **Axis order is (row, col), everywhere.**

   A :class:`Square` is ``Square(row, col)``, 0-based, and every array on a
   :class:`Board` is indexed ``array[row, col]`` with shape ``(height, width)``
   (as in python-tcod and numpy images, *not* ``(x, y)``). Row 0 is the top row,
   printed as row ``1``; column 0 is printed as ``A``. So ``Square.parse("K17")`` is
   ``Square(row=16, col=10)`` and its terrain is ``board.passable[16, 10]``.

A :class:`Board` is immutable; the file format that describes one is read by
:mod:`fogofwar.core.grid.boardfile`.
"""

from __future__ import annotations

import contextlib
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Final, NamedTuple, TypeAlias

import numpy as np
import numpy.typing as npt

from ..errors import BadDataError, InvalidNotationError
from .coords import Edge, Square

BoolArray: TypeAlias = npt.NDArray[np.bool_]

#: The most squares a board may have along a side: far above any tabletop map (Specter Ops
#: is 23x32), and small enough that sight tables over every pair of squares stay quick.
MAX_SIDE: Final = 64

#: Bit in :attr:`Board.roads`: the square carries an east-west road.
ROAD_EW: Final = 1
#: Bit in :attr:`Board.roads`: the square carries a north-south road.
ROAD_NS: Final = 2


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
        "_memos",
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
    _memos: dict[str, dict[Any, Any]]

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
        init(self, "_memos", {})

    def __setattr__(self, key: str, value: object) -> None:
        raise AttributeError(f"Board is immutable (tried to set {key!r})")

    # Pickling (process pools, Ray): mapping proxies do not pickle and unpickled arrays
    # come back writeable, so the state is plain dicts and is frozen again on load. The
    # search cache is not sent; each process rebuilds what it uses.
    _PROXIES: Final = ("legend", "doors", "markers", "_marker_lines")
    _ARRAYS: Final = ("passable", "opaque", "cyl", "walls_h", "walls_v", "roads")

    def __getstate__(self) -> dict[str, Any]:
        state = {
            key: getattr(self, key) for key in self.__slots__ if key not in ("_cache", "_memos")
        }
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
        object.__setattr__(self, "_memos", {})

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

    def memo(self, name: str) -> dict[Any, Any]:
        """A dict kept with the board for what a game works out from it and nothing
        else that changes (a board never does), such as sight answers; ``name`` keeps
        its users apart. The caller bounds what it keeps there."""
        # Apart from the table cache, whose oldest entries go first: a memo is made
        # early and would be the first dropped. Not pickled either.
        return self._memos.setdefault(name, {})

    def _remember(self, key: object, value: object) -> None:
        cache = self._cache
        if len(cache) >= _CACHE_SIZE:
            # Drop the oldest entry: door states come and go during a game. A board is
            # shared by games and their bots' threads: an entry another thread dropped
            # first, or a cache changed under the look, is no error.
            with contextlib.suppress(RuntimeError, StopIteration):
                cache.pop(next(iter(cache)), None)
        cache[key] = value
