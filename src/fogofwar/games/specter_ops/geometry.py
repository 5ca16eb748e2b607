"""A Specter Ops board prepared for play: bitboards, sight tables, sites, the compass.

Everything here is derived once per board and shared by every game on it (and by the
possibility map). Squares are *indices* ``row * width + col`` in the hot paths and
:class:`~fogofwar.core.grid.Square` values at the edges; a set of squares is a
bitboard (a Python ``int`` whose bit ``i`` is square ``i``), as in
:class:`fogofwar.core.grid.MoveGraph`.
"""

from __future__ import annotations

import functools
import weakref
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ...core.collector import CollectorPaused
from ...core.errors import BadDataError, RulesError
from ...core.files import data_file, read_text
from ...core.game import Action
from ...core.grid import (
    Board,
    MoveGraph,
    Square,
    builtin_board,
    builtin_boards,
    move_graph,
    parse_board,
)
from ...core.sight import board_orthogonal_table, orthogonal_runs_each

__all__ = ["COMPASS", "Geometry", "bearing", "geometry_for"]

COMPASS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
"""The 8 points of the board's compass (SO-V6), clockwise from north."""


#: The most lists of square actions a geometry keeps (see :meth:`Geometry.square_actions`).
_ACTION_LISTS = 1 << 16


def bearing(frm: Square, to: Square) -> str:
    """The compass point from ``frm`` towards ``to`` (SO-V6).

    Each point is a 45° sector centred on its direction; north is row 1's edge. A
    bearing exactly on a sector border goes to the cardinal point. With integer
    squares the border (at 22.5° from a cardinal) can only be met when ``frm == to``;
    the test ``a < (√2 − 1)·b`` is done exactly as ``(a + b)² < 2b²``.
    """
    dx = to.col - frm.col
    dy = frm.row - to.row  # north is up: rows grow southwards
    if dx == 0 and dy == 0:
        raise ValueError("no bearing from a square to itself")
    a, b = abs(dx), abs(dy)
    # Within 22.5° of the vertical axis (border included: cardinal wins).
    if (a + b) ** 2 <= 2 * b * b:
        return "N" if dy > 0 else "S"
    if (a + b) ** 2 <= 2 * a * a:
        return "E" if dx > 0 else "W"
    if dy > 0:
        return "NE" if dx > 0 else "NW"
    return "SE" if dx > 0 else "SW"


def _bits_of(mask: np.ndarray) -> int:
    flat = np.packbits(mask.ravel().astype(np.bool_), bitorder="little")
    return int.from_bytes(flat.tobytes(), "little")


def _table_bits(visible: np.ndarray) -> tuple[int, ...]:
    """Per square (row-major), the bitboard of ``visible[row, col]`` — packed in one
    call for the whole table (a smoke makes a new one mid-game)."""
    h, w = visible.shape[:2]
    packed = np.packbits(visible.reshape(h * w, h * w).astype(np.bool_), axis=1, bitorder="little")
    raw, k = packed.tobytes(), packed.shape[1]
    return tuple(int.from_bytes(raw[i * k : (i + 1) * k], "little") for i in range(h * w))


_NAMED_KEPT = 4096
"""The most square sets :meth:`Geometry.names` keeps named, per geometry."""
# Kept beside the geometries, not in them: a pickled state (a worker's, a replay's)
# does not carry them.
_NAMED: weakref.WeakKeyDictionary[Geometry, dict[int, tuple[str, ...]]] = (
    weakref.WeakKeyDictionary()
)


@dataclass(frozen=True, eq=False)
class Geometry:
    """A Specter Ops board with everything the rules and the possibility map need.

    Attributes:
        board: the board.
        graph: the step graph with SO-A2's squeeze rule (``diagonal="both"``).
        width, height: the board's size.
        passable: bitboard of squares figures may stand on.
        road: bitboard of road squares (the vehicle drives only on these, SO-V1).
        sight: ``sight[i]`` = bitboard of squares seen from square ``i`` (SO-L1, SO-L2,
            SO-L5), the road rule included.
        adjacent: ``adjacent[i]`` = bitboard of the 8 neighbours of ``i``.
        sites: ``sites[sector][k]`` = index of candidate objective site ``k + 1``.
        escape: the escape points of a 2–4 player game (SO-E1).
        escape_five: the extra escape points of the 5-player game.
        agent_start: the agent's start square (SO-S5).
        vehicle_start: the vehicle's start with 2–3 players; ``vehicle_start_four``
            with 4–5 (SO-S2).
    """

    board: Board
    graph: MoveGraph
    width: int
    height: int
    passable: int
    road: int
    sight: tuple[int, ...]
    adjacent: tuple[int, ...]
    sites: tuple[tuple[int, ...], ...]
    escape: tuple[int, ...]
    escape_five: tuple[int, ...]
    agent_start: int
    vehicle_start: int
    vehicle_start_four: int

    # -- squares and indices

    def index(self, square: Square) -> int:
        """The index of a square."""
        return square.row * self.width + square.col

    def square(self, index: int) -> Square:
        """The square of an index."""
        return Square(*divmod(index, self.width))

    @functools.cached_property
    def _names(self) -> tuple[str, ...]:
        # Square names are asked for on every legal action and event: made once.
        return tuple(self.square(i).name for i in range(self.width * self.height))

    @functools.cached_property
    def _index_of(self) -> dict[str, int]:
        return {n: i for i, n in enumerate(self._names)}

    def name(self, index: int) -> str:
        """The name of an index's square, e.g. ``"K17"``."""
        return self._names[index]

    def index_of(self, name: object) -> int | None:
        """The index of a square given by its exact name (``"K17"``), else None: the
        names actions carry, checked on every step."""
        return self._index_of.get(name) if isinstance(name, str) else None

    def parse(self, text: str) -> int:
        """The index of a square given by name (InvalidNotationError if off the board)."""
        found = self._index_of.get(text)
        if found is not None:
            return found
        return self.index(self.board.square(text))  # other spellings, and the errors

    def names(self, bits: int) -> list[str]:
        """Square names of a bitboard, row-major."""
        # Views name the same sets again and again (a possibility map between its
        # updates, a search's worlds): each set is worked out once (a bounded cache).
        kept = _NAMED.get(self)
        if kept is None:
            kept = _NAMED.setdefault(self, {})
        found = kept.get(bits)
        if found is None:
            names = self._names
            found = tuple([names[i] for i in self.graph.bit_indices(bits)])
            if len(kept) >= _NAMED_KEPT:
                kept.clear()
            kept[bits] = found
        return list(found)

    def indices(self, bits: int) -> list[int]:
        """Indices of a bitboard, ascending."""
        return self.graph.bit_indices(bits)

    @functools.cached_property
    def steps(self) -> tuple[int, ...]:
        """``steps[i]``: bitboard of the squares one step from ``i`` on the bare board
        (SO-A2's squeeze rule), the same as ``graph.step_bits(1 << i)``, made once
        because every legal-step list starts from it."""
        step = self.graph.stepper()
        return tuple(step(1 << i) for i in range(self.width * self.height))

    @functools.cached_property
    def _square_actions(self) -> dict[tuple[str, str], list[Action | None]]:
        return {}

    @functools.cached_property
    def _action_lists(self) -> dict[tuple[str, str, int], tuple[Action, ...]]:
        return {}

    def square_actions(self, seat: str, kind: str, bits: int) -> tuple[Action, ...]:
        """``Action(seat, kind, (name,))`` for each square of ``bits``, row-major.

        Actions are immutable values, so each one is made once per geometry and then
        shared, and so are the lists of them: legal lists are rebuilt at every action,
        most of them are steps, and the same squares come back again and again."""
        key = (seat, kind, bits)
        lists = self._action_lists
        found = lists.get(key)
        if found is not None:
            return found
        row = self._square_actions.get((seat, kind))
        if row is None:
            row = self._square_actions[seat, kind] = [None] * (self.width * self.height)
        out: list[Action] = []
        names = self._names
        for i in self.graph.bit_indices(bits):
            a = row[i]
            if a is None:
                a = row[i] = Action(seat, kind, (names[i],))
            out.append(a)
        if len(lists) >= _ACTION_LISTS:
            lists.clear()  # a bound on the memory: the lists in use come back at once
        found = lists[key] = tuple(out)
        return found

    def sees(self, viewer: int, target: int) -> bool:
        """Whether a hunter on ``viewer`` sees ``target`` (SO-L*)."""
        return bool(self.sight[viewer] >> target & 1)

    def seen_by(self, viewers: Iterable[int]) -> int:
        """Bitboard of squares seen by hunters on ``viewers``."""
        out = 0
        for v in viewers:
            out |= self.sight[v]
        return out

    @functools.cached_property
    def sector_of_site(self) -> dict[int, int]:
        """Candidate site index → its sector (0-based)."""
        return {site: j for j, sites in enumerate(self.sites) for site in sites}

    @functools.lru_cache(maxsize=4096)  # noqa: B019 - geometries live as long as the process
    def compass_bits(self, origin: int, point: str) -> int:
        """Bitboard of the squares whose bearing from ``origin`` is ``point``."""
        o = self.square(origin)
        out = 0
        for i in range(self.width * self.height):
            if i != origin and bearing(o, self.square(i)) == point:
                out |= 1 << i
        return out

    @functools.lru_cache(maxsize=8)  # noqa: B019 - geometries live as long as the process
    def near(self, distance: int) -> tuple[int, ...]:
        """``near(d)[i]``: bitboard of the squares within king distance ``d`` of ``i``
        (``i`` itself excluded)."""
        return tuple(self.within(i, distance) & ~(1 << i) for i in range(self.width * self.height))

    @functools.lru_cache(maxsize=2048)  # noqa: B019
    def orthogonal(self, index: int) -> int:
        """Bitboard of the up to 4 orthogonal neighbours of ``index``."""
        r, c = divmod(index, self.width)
        out = 0
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            if 0 <= r + dr < self.height and 0 <= c + dc < self.width:
                out |= 1 << ((r + dr) * self.width + c + dc)
        return out

    @functools.cached_property
    def runs(self) -> tuple[tuple[tuple[int, int, bool], ...], ...]:
        """Per square, the runs its :attr:`sight` is the union of (its row, its column,
        its parallel lanes', SO-L1, SO-L2), each ``(bitboard, centre, lane)``: the run's
        squares, the index of the square it runs through, and whether that is a lane's
        neighbour rather than the viewer. Made on the first smoke."""
        w, h = self.width, self.height
        # A run's squares as a bitboard by arithmetic: a row run is one block of bits,
        # a column run its column's bits within a block of rows.
        column = [sum(1 << (r * w + c) for r in range(h)) for c in range(w)]
        out: list[tuple[tuple[int, int, bool], ...]] = []
        # Thousands of tuples and no cycles: the collector would only walk the process.
        with CollectorPaused():
            each = orthogonal_runs_each(self.board.opaque, roads=self.board.roads, road_rule=True)
            for runs in each:
                mine: list[tuple[int, int, bool]] = []
                for run in runs:
                    r, c = run.square
                    if run.axis == "row":
                        bits = ((1 << (run.high - run.low + 1)) - 1) << (r * w + run.low)
                    else:
                        rows = ((1 << ((run.high + 1) * w)) - 1) & ~((1 << (run.low * w)) - 1)
                        bits = column[c] & rows
                    mine.append((bits, r * w + c, run.lane))
                out.append(tuple(mine))
        return tuple(out)

    @functools.lru_cache(maxsize=64)  # noqa: B019
    def sight_with(self, extra_opaque: int) -> tuple[int, ...]:
        """The sight table with extra sight-blocking squares (smoke): bitboards as
        :attr:`sight`.

        Only the viewers that see a smoke square change: each of their runs
        (:attr:`runs`) is cut at the nearest smoke on either side of the square it runs
        through, and a lane whose neighbour square is in smoke is lost — what the whole
        table built again with the smoke opaque gives (a test compares the two), in a
        fraction of the time.
        """
        if not extra_opaque:
            return self.sight
        runs = self.runs
        out = list(self.sight)
        for i, seen in enumerate(out):
            if seen & extra_opaque:
                bits = 0
                for run, centre, lane in runs[i]:
                    smoke = extra_opaque & run
                    if smoke:
                        if lane and smoke >> centre & 1:
                            continue  # the lane's neighbour square is opaque now
                        smoke &= ~(1 << centre)  # a square never blocks its own run
                        below = smoke & ((1 << centre) - 1)
                        if below:
                            run &= ~((1 << below.bit_length()) - 1)
                        above = smoke >> centre
                        if above:
                            run &= (1 << (centre + (above & -above).bit_length() - 1)) - 1
                    bits |= run
                out[i] = bits
        return tuple(out)

    def sight_rebuilt(self, extra_opaque: int) -> tuple[int, ...]:
        """:meth:`sight_with` the slow way, the whole table built again with the smoke
        opaque (the reference its tests compare with)."""
        mask = np.zeros(self.width * self.height, dtype=np.bool_)
        for i in self.indices(extra_opaque):
            mask[i] = True
        table = board_orthogonal_table(
            self.board, road_rule=True, extra_opaque=mask.reshape(self.height, self.width)
        )
        return _table_bits(table.visible)

    @functools.lru_cache(maxsize=8192)  # noqa: B019 - asked for on every sighting check
    def within(self, origin: int, distance: int) -> int:
        """Bitboard of squares within king distance ``distance`` of ``origin``."""
        o = self.square(origin)
        w = self.width
        c0, c1 = max(0, o.col - distance), min(w - 1, o.col + distance)
        row = ((1 << (c1 - c0 + 1)) - 1) << c0  # the columns, as one block of bits a row
        out = 0
        for r in range(max(0, o.row - distance), min(self.height, o.row + distance + 1)):
            out |= row << (r * w)
        return out


def _marker_index(board: Board, name: str) -> int:
    squares = board.marker(name, count=1)
    return squares[0].row * board.width + squares[0].col


def build_geometry(board: Board) -> Geometry:
    """Prepare a board for Specter Ops, checking the markers it needs.

    Raises:
        BadDataError: a marker is missing or malformed, or a named square is blocked.
    """
    w, h = board.width, board.height
    graph = move_graph(board, diagonal="both")
    table = board_orthogonal_table(board, road_rule=True)
    sight = _table_bits(table.visible)
    adjacent: list[int] = []
    for r in range(h):
        for c in range(w):
            bits = 0
            for dr in (-1, 0, 1):
                for dc in (-1, 0, 1):
                    if (dr or dc) and 0 <= r + dr < h and 0 <= c + dc < w:
                        bits |= 1 << ((r + dr) * w + c + dc)
            adjacent.append(bits)
    sectors: list[tuple[int, ...]] = []
    j = 1
    while any(k.startswith(f"objective.{j}.") for k in board.markers):
        sites = []
        for k in range(1, 7):
            sites.append(_marker_index(board, f"objective.{j}.{k}"))
        sectors.append(tuple(sites))
        j += 1
    if len(sectors) != 4:
        raise BadDataError(
            board.file or board.name,
            "markers objective.1.1 … objective.4.6 (4 sectors of 6 sites, SO-B2)",
            found=f"{len(sectors)} sectors",
        )
    escape = tuple(s.row * w + s.col for s in board.marker("escape"))
    five = (
        tuple(s.row * w + s.col for s in board.marker("escape.five"))
        if "escape.five" in board.markers
        else ()
    )
    passable = _bits_of(board.passable)
    road = _bits_of(board.roads != 0)
    geo = Geometry(
        board=board,
        graph=graph,
        width=w,
        height=h,
        passable=passable,
        road=road,
        sight=sight,
        adjacent=tuple(adjacent),
        sites=tuple(sectors),
        escape=escape,
        escape_five=five,
        agent_start=_marker_index(board, "agent_start"),
        vehicle_start=_marker_index(board, "vehicle_start"),
        vehicle_start_four=_marker_index(board, "vehicle_start.four"),
    )
    for label, idx in (
        ("agent_start", geo.agent_start),
        ("vehicle_start", geo.vehicle_start),
        ("vehicle_start.four", geo.vehicle_start_four),
        *(("escape", e) for e in escape + five),
    ):
        if not passable >> idx & 1:
            raise BadDataError(
                board.file or board.name,
                f"marker {label} on a passable square",
                found=geo.name(idx),
            )
    for idx in (geo.vehicle_start, geo.vehicle_start_four):
        if not road >> idx & 1:
            raise BadDataError(
                board.file or board.name,
                "vehicle starts on road squares (SO-S2)",
                found=geo.name(idx),
            )
    return geo


@functools.lru_cache(maxsize=16)
def geometry_for(board: str) -> Geometry:
    """The geometry of a built-in board (by name) or a board file (by path), cached."""
    known = ", ".join(builtin_boards())
    shown = board if len(board) <= 60 else board[:59] + "…"
    if not board or len(board) > 4096 or not board.isprintable():
        raise RulesError(
            f"board: expected a built-in board ({known}) or a board file's path of at most "
            f"4096 printable characters, got {shown!r}"
        )
    path = data_file(board)  # a web table's board by name, from the operator's folders
    try:
        is_file = path.suffix == ".board" or "/" in board or path.exists()
    except OSError:  # a name the system refuses (too long a part, say)
        is_file = True
    if is_file:
        # An operator's file is named as the option names it, not by the server's path.
        file = board if path != Path(board) else str(path)
        text = read_text(path, file=file, what="a board file")
        return build_geometry(parse_board(text, file=file))
    if board not in builtin_boards():
        raise RulesError(f"no board file {shown!r} and no built-in board of that name ({known})")
    return build_geometry(builtin_board(board))
