"""FEAR, the grid rules of Zero Dark: models on a map, sight, movement, range, states.

A :class:`Position` is a map (a kernel :class:`~fogofwar.core.grid.Board`), the doors
open now, and the models on it. Everything here is a pure function of a position and
the ruling switches (:class:`FearRules`), so the game state, the explainer
(``fogofwar los --ruleset zero-dark``), the bots and the tests ask the same questions
of the same code:

* sight (FR-L1…L5, FR-S2…S6, FR-C1): :meth:`Position.report` builds the kernel's
  corner-line report with the other models as obstacles of their Cyl (down bogeys and
  prone or out-of-action characters at Cyl 1, FR-L4), the viewer's facing, the
  ``los_origin`` switch, and the bogey or character rule for obscured targets;
* movement (FR-M1…M4): :meth:`Position.steps` lists the squares a model may step to
  next, with the squares it may cross but not stop on, and the diagonal rule's switch;
* range (FR-R1): :meth:`Position.range` by the movement rules around walls and terrain,
  ignoring models;
* engagement (FR-S1): :meth:`Position.engaged`, not through a wall unless switched on;
* facing (FR-L5): :func:`facing_towards` (a revealed bogey, a hunting bogey) and
  :func:`around` (the 8 squares a model engages from).

Squares are kernel :class:`~fogofwar.core.grid.Square` values ``(row, col)``, 0-based.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from types import MappingProxyType
from typing import Any, Final, Literal, TypeAlias

import numpy as np
import numpy.typing as npt

from ...core.errors import BadDataError, RulesError
from ...core.grid import Board, Edge, ModelSpec, MoveGraph, Square, move_graph
from ...core.sight import (
    Facing,
    ObscureRule,
    Origin,
    SightReport,
    any_corner_in_view,
    board_corner_report,
    board_corner_table,
)

__all__ = [
    "FACINGS",
    "KINDS",
    "STATES",
    "TIERS",
    "FearRules",
    "Model",
    "ModelState",
    "Position",
    "around",
    "facing_towards",
    "id_number",
    "models_of",
]

Kind: TypeAlias = Literal["hero", "ally", "bogey", "ping"]
KINDS: Final = ("hero", "ally", "bogey", "ping")
"""``hero`` and ``ally`` are *characters*; a ``ping`` is a face-down counter (FR-P1)."""


class ModelState(StrEnum):
    """A model's posture (its value is what views and map files show). Dead bogeys leave
    the map."""

    ACTIVE = "active"
    #: A character lying down.
    PRONE = "prone"
    #: A bogey at its Wnd (ZD-C3).
    DOWN = "down"
    #: A character out of action: down or dead (ZD-C5).
    OOA = "ooa"


STATES: Final = tuple(ModelState)
"""The postures in order: ``active``, ``prone``, ``down``, ``ooa`` (:class:`ModelState`)."""

FACINGS: Final = ("NE", "SE", "SW", "NW")
"""A model faces one of its square's four corners (FR-L5)."""

TIERS: Final = ("grunt", "elite", "boss", "special")


#: Memo entries of a position about one mover and the *other* models (their squares as
#: it may not enter, may cross, or finds taken): still true after that mover moves.
_MOVER_KEYS: Final = frozenset({"others", "blocked-bits", "occupied-bits"})


@dataclass(frozen=True, slots=True)
class FearRules:
    """The ruling switches of the FEAR grid (config options of ``zero-dark``).

    Attributes:
        los_origin: ``"centre"`` or ``"any_corner"`` (FR-L2).
        diagonal_block: ``"either"`` (a diagonal step past anything impassable on either
            side, or a wall at the corner, is illegal) or ``"both"`` (only when both
            sides are shut) (FR-M4).
        engage_through_walls: whether adjacent models with a wall between them are
            engaged (FR-S1; default off).
    """

    los_origin: Origin = "centre"
    diagonal_block: Literal["either", "both"] = "either"
    engage_through_walls: bool = False

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> FearRules:
        """The switches from a ``zero-dark`` configuration (or explainer options)."""
        return cls(
            los_origin=options.get("los_origin", "centre"),
            diagonal_block=options.get("diagonal_block", "either"),
            engage_through_walls=bool(options.get("engage_through_walls", False)),
        )

    def __post_init__(self) -> None:
        if self.los_origin not in ("centre", "any_corner"):
            raise RulesError(f"los_origin is centre or any_corner, not {self.los_origin!r}")
        if self.diagonal_block not in ("either", "both"):
            raise RulesError(f"diagonal_block is either or both, not {self.diagonal_block!r}")


@dataclass(frozen=True, slots=True)
class Model:
    """One model (or ping counter) on the map.

    Attributes:
        id: unique on the map, e.g. ``"H1"``, ``"B3"``, ``"P2"``.
        kind: ``hero``, ``ally`` (characters), ``bogey`` or ``ping``.
        square: its square; for a Cyl 6–7 model the north-west square of its 2×2 block
            (FR-C1).
        cyl: its height, 1–7.
        facing: the corner it faces (FR-L5).
        state: its posture (:class:`ModelState`; its text is taken too, ``"down"``).
        team: the character's side in Versus (``team1``/``team2``); ``""`` in solo and
            for the Red Force.
        tier: a bogey's tier (``grunt``, ``elite``, ``boss``, ``special``), ``""`` for a
            character or a ping (whose tier is the umpire's secret, FR-P4).
    """

    id: str
    kind: Kind
    square: Square
    cyl: int = 3
    facing: Facing = "NE"
    state: ModelState = ModelState.ACTIVE
    team: str = ""
    tier: str = ""

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise RulesError(
                f"model {self.id}: kind is one of {', '.join(KINDS)}, not {self.kind!r}"
            )
        if not 1 <= self.cyl <= 7:
            raise RulesError(f"model {self.id}: Cyl is 1 to 7, not {self.cyl}")
        if self.facing not in FACINGS:
            raise RulesError(f"model {self.id}: facing is one of {', '.join(FACINGS)}")
        if type(self.state) is not ModelState:  # its text: the posture it names
            try:
                object.__setattr__(self, "state", ModelState(self.state))
            except ValueError:
                raise RulesError(f"model {self.id}: state is one of {', '.join(STATES)}") from None

    @property
    def is_character(self) -> bool:
        return self.kind in ("hero", "ally")

    @property
    def big(self) -> bool:
        """Cyl 6–7: four squares in a 2×2 block (FR-C1)."""
        return self.cyl >= 6

    @property
    def squares(self) -> tuple[Square, ...]:
        """The squares it occupies: one, or its 2×2 block (FR-C1)."""
        if self.cyl < 6:  # not big: its own square (the hot path of every rule)
            return (self.square,)
        r, c = self.square
        return (Square(r, c), Square(r, c + 1), Square(r + 1, c), Square(r + 1, c + 1))

    @property
    def sight_cyl(self) -> int:
        """Its Cyl for sight: 1 when down, prone or out of action (FR-L4)."""
        return 1 if self.state is not ModelState.ACTIVE else self.cyl

    def at(self, square: Square) -> Model:
        """The same model on another square."""
        # Spelled out: ``dataclasses.replace`` costs several times more (a mover's
        # every candidate step makes one).
        return Model(
            self.id, self.kind, square, self.cyl, self.facing, self.state, self.team, self.tier
        )


_MARGIN = 2
# Bare-map sight rows kept per board (squares × viewer heights × door states in play).
_BARE_SIGHT_KEPT = 1 << 14
# About 3 KB a report and 250 bytes a range (measured): at most about 1.5 MB and 4 MB a
# board, and a process keeps few boards. Reports are asked again within a position (every
# seat's view, the reveal checks), seldom across positions: in random play a report was
# made for 0.109 of the actions with 64 kept and with 4,096 alike. But each report is
# some thirty objects the garbage collector walks at every full collection, and 4,096 of
# them made those collections about 100 ms (the slowest applies of random play); with
# 512, about 25 ms (docs/zero-dark.md).
_REPORTS_KEPT = 1 << 9
_RANGES_KEPT = 1 << 14


def _reports(board: Board) -> dict[Any, SightReport]:
    """The corner reports worked out on ``board``, kept with it across positions
    (reports are immutable values; a search's worlds ask the same questions again and
    again). Emptied when full."""
    return board.memo("corner reports")


def _friendly(mover: Model, other: Model) -> bool:
    return mover.is_character and other.is_character and mover.team == other.team


@dataclass(frozen=True, eq=False)
class Position:
    """A map, its doors and its models: what the FEAR rules look at.

    A position never changes (its ``with_*`` methods make new ones), so what it works
    out about its models — the squares a mover may not enter, its step graph — is worked
    out once and kept with it.

    Attributes:
        board: the map.
        models: the models by id (pings included).
        open_doors: the doors open now (edges of the board's doors).
        rules: the ruling switches.
    """

    board: Board
    models: Mapping[str, Model]
    open_doors: frozenset[Edge] = frozenset()
    rules: FearRules = field(default_factory=FearRules)
    _memo: dict[Any, Any] = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "models", MappingProxyType(dict(self.models)))
        taken: dict[Square, list[Model]] = {}
        for m in self.models.values():
            self._check_place(m)
            for sq in m.squares:
                # Each model on a square is checked against every other one there, so
                # that the order of the models never matters (and with_model agrees).
                here = taken.setdefault(sq, [])
                for other in here:
                    self._check_share(m, other, sq)
                here.append(m)
        for e in self.open_doors:
            if e not in self.board.doors:
                raise RulesError(f"{e.name} is not a door of {self.board.name}")

    def _check_place(self, m: Model) -> None:
        """A model stands on the map, on passable terrain."""
        for sq in m.squares:
            if not self.board.in_bounds(sq):
                raise RulesError(f"model {m.id} is off the map at {sq.name}")
            if not self.board.terrain_at(sq).passable:
                raise RulesError(f"model {m.id} stands on impassable {sq.name}")

    def _check_share(self, m: Model, other: Model, sq: Square) -> None:
        """Two models share a square only mid-move, one crossing the other."""
        if not (self.may_cross(m, other) or self.may_cross(other, m)):
            raise RulesError(f"models {other.id} and {m.id} share {sq.name}")

    def _with_models(self, models: dict[str, Model]) -> Position:
        """This position with ``models`` (already checked), its doors and rules."""
        new = object.__new__(type(self))
        object.__setattr__(new, "board", self.board)
        object.__setattr__(new, "models", MappingProxyType(models))
        object.__setattr__(new, "open_doors", self.open_doors)
        object.__setattr__(new, "rules", self.rules)
        object.__setattr__(new, "_memo", {})
        return new

    # ------------------------------------------------------------------ lookups

    @classmethod
    def initial(
        cls, board: Board, models: Iterable[Model], rules: FearRules | None = None
    ) -> Position:
        """A position with the doors as the map file sets them."""
        opened = frozenset(e for e, is_open in board.doors.items() if is_open)
        return cls(board, {m.id: m for m in models}, opened, rules or FearRules())

    def with_model(self, model: Model) -> Position:
        """This position with ``model`` added or replaced."""
        # The other models were checked against each other when this position was made:
        # only the new one is checked (a move's every step makes a position).
        self._check_place(model)
        mine = set(model.squares)
        for m in self.models.values():
            if m.id != model.id:
                for sq in m.squares:
                    if sq in mine:
                        self._check_share(model, m, sq)
        new = self._with_models({**self.models, model.id: model})
        # What stays true when only ``model`` changed: the step graph (the map and its
        # doors), and what the other models are to ``model`` itself (they did not move).
        # A move makes a position at every step, and its next step asks these again.
        carried = new._memo
        for key, value in self._memo.items():
            if key == "graph" or (
                isinstance(key, tuple) and key[0] in _MOVER_KEYS and key[1] == model.id
            ):
                carried[key] = value
        return new

    def without(self, model_id: str) -> Position:
        """This position with a model removed."""
        return self._with_models({k: v for k, v in self.models.items() if k != model_id})

    def with_door(self, edge: Edge, is_open: bool) -> Position:
        """This position with a door opened or closed."""
        if edge not in self.board.doors:
            raise RulesError(f"{edge.name} is not a door of {self.board.name}")
        doors = self.open_doors | {edge} if is_open else self.open_doors - {edge}
        return replace(self, open_doors=frozenset(doors))

    def model(self, model_id: str) -> Model:
        found = self.models.get(model_id)
        if found is None:
            raise RulesError(f"no model {model_id!r} on the map")
        return found

    def at(self, square: Square) -> Model | None:
        """The model on ``square``, if any (the first in the models' order, where one
        crosses another mid-move)."""
        on: dict[Square, Model] | None = self._memo.get("on")
        if on is None:
            # Worked out once per position: a complication's search for a free square
            # asks for every square of the map.
            on = {}
            for m in self.models.values():
                for sq in m.squares:
                    on.setdefault(sq, m)
            self._memo["on"] = on
        return on.get(square)

    def _each(self, exclude: Iterable[str] = ()) -> Iterator[Model]:
        skip = set(exclude)
        return (m for m in self.models.values() if m.id not in skip)

    @property
    def graph(self) -> MoveGraph:
        """The step graph of the map for the diagonal switch and the doors now (FR-M1, FR-M4)."""
        found: MoveGraph | None = self._memo.get("graph")
        if found is None:
            found = move_graph(
                self.board, diagonal=self.rules.diagonal_block, open_doors=self.open_doors
            )
            self._memo["graph"] = found
        return found

    # ------------------------------------------------------------------ sight

    def report(self, viewer_id: str, target_id: str, *, facing: bool = True) -> SightReport:
        """The corner-line report from one model to another (FR-L1…L5, FR-S2…S6, FR-C1).

        Other models are obstacles of their sight Cyl (FR-L4); pings are counters, not
        models, and block nothing (ruling). A character target is judged by FR-S4, any
        other by FR-S3. ``facing=False`` ignores the field of view (LOS that is not used
        to see, e.g. the explainer's all-round answer).
        """
        viewer, target = self.model(viewer_id), self.model(target_id)
        vsq, tsq = viewer.squares, target.squares
        # Only what lies near the lines can change them: every corner line runs inside
        # the box of the two footprints, and the obscured rule looks one square past
        # the target (FR-S4); two squares of margin keep the answer exact.
        rows = [sq.row for sq in vsq] + [sq.row for sq in tsq]
        cols = [sq.col for sq in vsq] + [sq.col for sq in tsq]
        top, bottom = min(rows) - _MARGIN, max(rows) + _MARGIN
        left, right = min(cols) - _MARGIN, max(cols) + _MARGIN
        occupants: dict[tuple[int, int], int] = {}
        for m in self._each((viewer.id, target.id)):
            if m.kind == "ping":
                continue
            for sq in m.squares:
                if top <= sq.row <= bottom and left <= sq.col <= right:
                    # Two models share a square while one crosses the other (FR-M2,
                    # FR-M3): the taller one stands in the line's way (FR-L1).
                    k = (sq.row, sq.col)
                    occupants[k] = max(occupants.get(k, 0), m.sight_cyl)
        shown = viewer.facing if facing else None
        rule: ObscureRule = "character" if target.is_character else "bogey"
        key = (
            vsq,
            tsq,
            viewer.sight_cyl,
            target.sight_cyl,
            tuple(sorted(occupants.items())),
            self.open_doors,
            self.rules.los_origin,
            shown,
            rule,
        )
        reports = _reports(self.board)
        found = reports.get(key)
        if found is None:
            found = board_corner_report(
                self.board,
                vsq,
                tsq,
                viewer_cyl=viewer.sight_cyl,
                target_cyl=target.sight_cyl,
                occupants=occupants,
                open_doors=self.open_doors,
                origin=self.rules.los_origin,
                facing=shown,
                obscure_rule=rule,
            )
            if len(reports) >= _REPORTS_KEPT:
                reports.clear()
            reports[key] = found
        return found

    def sees(self, viewer_id: str, target_id: str) -> bool:
        """LOS used to see: some corner line in the field of view is clear (FR-L1, FR-L5)."""
        viewer = self.model(viewer_id)
        if viewer.facing in FACINGS and not any_corner_in_view(
            viewer.squares, self.model(target_id).squares, viewer.facing
        ):
            return False  # behind the model: no line to trace (FR-L5)
        report = self.report_if_seen(viewer_id, target_id)
        return report is not None and report.los

    def report_if_seen(self, viewer_id: str, target_id: str) -> SightReport | None:
        """:meth:`report` (with the field of view), or ``None`` when the bare map already
        hides the target. Other models only add obstacles and the field of view only
        removes lines, so no LOS over the bare map (walls, doors, terrain) means none at
        all: the all-pairs table answers most questions without tracing a line. Each
        answer is kept with the position (a shot's check and the reveal checks ask
        again)."""
        # The bare map's answer first: most pairs end here, before any memo.
        if self.bare_map_hides(self.model(viewer_id), self.model(target_id)):
            return None
        key = ("seen", viewer_id, target_id)
        found: SightReport | None
        if key in self._memo:
            found = self._memo[key]
            return found
        found = self.report(viewer_id, target_id)
        self._memo[key] = found
        return found

    def report_if_not_hidden(self, viewer_id: str, target_id: str) -> SightReport | None:
        """:meth:`report` (with the field of view), or ``None`` when the bare map already
        hides the target's whole cylinder (FR-S2, FR-S6): what a shot asks (ZD-C3: "an
        entirely obscured target cannot be shot"). A corner line sees the cylinder unless
        something of the viewer's Cyl or more *and* the target's Cyl or more stops it, so
        the bare map seen at the taller of the two heights answers first; the report is
        the same one :meth:`report_if_seen` keeps."""
        viewer, target = self.model(viewer_id), self.model(target_id)
        height = max(viewer.sight_cyl, target.sight_cyl)
        if self.bare_map_hides(viewer, target, height=height):
            return None
        key = ("seen", viewer_id, target_id)
        found: SightReport | None = self._memo.get(key)
        if found is None:
            found = self.report(viewer_id, target_id)
            self._memo[key] = found
        return found

    def bare_map_hides(self, viewer: Model, target: Model, *, height: int | None = None) -> bool:
        """Whether the bare map (walls, doors, terrain) already leaves no line from
        ``viewer`` to ``target``: then no model and no field of view can give one. Known
        from the all-pairs table for centre-origin lines between 1×1 models; ``False``
        (not known) otherwise. ``height`` is the Cyl the lines are drawn for (the
        viewer's sight Cyl unless told: terrain of that Cyl or more stops them)."""
        if self.rules.los_origin != "centre" or viewer.big or target.big:
            return False
        t = target.square
        bits = self._bare_sight(viewer, height)
        return not bits >> (t[0] * self.board.width + t[1]) & 1

    def pairs_to_check(self, viewers: Sequence[Model], targets: Sequence[Model]) -> list[list[int]]:
        """For each target, the viewers (their indices, in order) that a reveal check
        (FR-P3) must ask about it: those next to it (engagement) or to which the bare
        map does not already hide it (:meth:`bare_map_hides`). Worked out a viewer at a
        time on bitboards: most targets of most viewers need no question at all."""
        w = self.board.width
        out: list[list[int]] = [[] for _ in targets]
        small = 0  # the 1×1 targets' squares
        at: dict[int, int] = {}
        big: list[int] = []
        for j, t in enumerate(targets):
            if t.big:
                big.append(j)
            else:
                i = t.square[0] * w + t.square[1]
                small |= 1 << i
                at[i] = j
        every = list(range(len(targets)))
        for v, viewer in enumerate(viewers):
            if self.rules.los_origin != "centre" or viewer.big:
                ask = every  # no shortcut: every target is asked about
            else:
                near = (self._bare_sight(viewer) | self._ring(viewer.square)) & small
                if not near and not big:
                    continue
                ask = big.copy()
                while near:
                    low = near & -near
                    ask.append(at[low.bit_length() - 1])
                    near ^= low
            for j in ask:
                out[j].append(v)
        return out

    def _ring(self, square: Square) -> int:
        """``square`` and the squares around it (a king's move away), as a bitboard."""
        kept = self.board.memo("ring")
        key = (square[0], square[1])
        found: int | None = kept.get(key)
        if found is None:
            h, w = self.board.height, self.board.width
            found = 0
            for r in range(max(0, square[0] - 1), min(h, square[0] + 2)):
                for c in range(max(0, square[1] - 1), min(w, square[1] + 2)):
                    found |= 1 << (r * w + c)
            kept[key] = found
        return found

    def _bare_sight(self, viewer: Model, height: int | None = None) -> int:
        """The squares a 1×1 ``viewer`` has a centre-origin line to over the bare map,
        as a bitboard (row-major): one row of :meth:`terrain_table`, kept with the
        board by line height (the viewer's sight Cyl unless told), square and open
        doors (the reveal checks ask after every step)."""
        v = viewer.square
        cyl = viewer.sight_cyl if height is None else height
        key = (cyl, v[0], v[1], self.open_doors)
        kept = self.board.memo("bare sight")
        found: int | None = kept.get(key)
        if found is None:
            row = self.terrain_table(cyl)[v[0], v[1]]
            packed = np.packbits(row.ravel(), bitorder="little")
            found = int.from_bytes(packed.tobytes(), "little")
            if len(kept) >= _BARE_SIGHT_KEPT:
                kept.clear()
            kept[key] = found
        return found

    def terrain_table(self, viewer_cyl: int) -> npt.NDArray[np.bool_]:
        """All-pairs centre-origin LOS over the bare map with the doors as they are now,
        for a viewer of ``viewer_cyl``: ``[vr, vc, tr, tc]`` (cached on the board)."""
        key = ("zd-terrain-los", viewer_cyl, self.open_doors)
        hit = self.board._cache.get(key)
        if hit is None:
            hit = board_corner_table(
                self.board, viewer_cyl=viewer_cyl, open_doors=self.open_doors
            ).visible
            self.board._remember(key, hit)
        table: npt.NDArray[np.bool_] = hit
        return table

    # ------------------------------------------------------------------ movement

    def _others(
        self, mover: Model
    ) -> tuple[frozenset[Square], frozenset[Square], frozenset[Square]]:
        """The squares of the models other than ``mover``: those it may not enter, those it
        may cross, and all of them (FR-M2, FR-M3). They depend on who the mover is, never
        on where it stands."""
        key = ("others", mover.id, mover.kind, mover.team)
        found: tuple[frozenset[Square], frozenset[Square], frozenset[Square]] | None
        found = self._memo.get(key)
        if found is None:
            blocked: set[Square] = set()
            crossed: set[Square] = set()
            for m in self._each((mover.id,)):
                (crossed if self.may_cross(mover, m) else blocked).update(m.squares)
            found = (frozenset(blocked), frozenset(crossed), frozenset(blocked | crossed))
            self._memo[key] = found
        return found

    def impassable_to(self, mover: Model) -> frozenset[Square]:
        """Squares of models ``mover`` may not enter (FR-M2, FR-M3)."""
        return self._others(mover)[0]

    def crossable_by(self, mover: Model) -> frozenset[Square]:
        """Squares of models ``mover`` may move through but not stop on (FR-M2, FR-M3)."""
        return self._others(mover)[1]

    @staticmethod
    def may_cross(mover: Model, other: Model) -> bool:
        """Whether ``mover`` may move through ``other``'s squares (never stop there)."""
        if mover.is_character:
            # FR-M2: down bogeys and friendly characters; bogeys, pings (face-down
            # bogeys) and enemy characters are impassable.
            return (other.kind == "bogey" and other.state is ModelState.DOWN) or _friendly(
                mover, other
            )
        # FR-M3: other bogeys (pings too) and out-of-action characters.
        return other.kind in ("bogey", "ping") or other.state is ModelState.OOA

    def can_step(self, model_id: str, to: Square) -> bool:
        """Whether the model may make one step onto ``to`` (its north-west square for a
        2×2 model), ignoring where it may stop (FR-M1, FR-M2, FR-M3, FR-M4)."""
        return self._can_step(self.model(model_id), to)

    def _can_step(self, mover: Model, to: Square) -> bool:
        """:meth:`can_step` of ``mover`` where it stands (here or mid-move)."""
        dr, dc = to.row - mover.square.row, to.col - mover.square.col
        if max(abs(dr), abs(dc)) != 1:
            return False
        graph = self.graph
        # A 2×2 model moves as a block: each of its squares makes the same step (ruling).
        squares = mover.squares
        others = self._blocked_bits(mover)
        if mover.cyl < 6:
            # One square (the hot path: every step of every legal list): the graph
            # leaves the mover's own square out of ``blocked`` and answers off the map.
            return graph.can_step(mover.square, to, blocked=others)
        blocked = others & ~graph.bits(squares)
        for sq in squares:
            dest = Square(sq.row + dr, sq.col + dc)
            if not self.board.in_bounds(dest):
                return False
            if not graph.can_step(sq, dest, blocked=blocked):
                return False
        return True

    def can_stop(self, model_id: str, square: Square) -> bool:
        """Whether the model may end a move with its (north-west) square on ``square``:
        on no other model (FR-M2, FR-M3)."""
        mover = self.model(model_id)
        # Where it stands (every facing of a legal list asks): no moved model to make.
        return self._may_stop(mover if mover.square == square else mover.at(square))

    def _may_stop(self, mover: Model) -> bool:
        """Whether ``mover`` may end its move where it stands: on no other model."""
        taken = self._others(mover)[2]
        return not any(sq in taken for sq in mover.squares)

    def steps(self, model_id: str, steps_left: int) -> list[Square]:
        """The squares the model may step to now with ``steps_left`` steps (this one
        included) still allowed: a square it may cross but not stop on only if the move
        can still end legally (FR-M2, FR-M3), in row-major order."""
        if steps_left <= 0:
            return []
        return [
            to
            for to in _neighbours(self.model(model_id).square)
            if self.can_move_to(model_id, to, steps_left)
        ]

    def can_move_to(self, model_id: str, to: Square, steps_left: int) -> bool:
        """Whether the model's next step may be onto ``to`` with ``steps_left`` steps (this
        one included) still allowed: it may step there, and the move can still end on a
        square it may stop on (FR-M1…M4) — the one rule of :meth:`steps`, for one square."""
        if steps_left <= 0:
            return False
        mover = self.model(model_id)
        if mover.cyl < 6:
            # A one-square model: its next steps are worked out together, once per
            # position (every candidate of a legal list asks).
            if not self.board.in_bounds(to):
                return False
            return bool(
                self.step_squares(model_id, steps_left) >> (to.row * self.board.width + to.col) & 1
            )
        if not self._can_step(mover, to):
            return False
        return self._can_end(mover, to, steps_left - 1)

    def step_squares(self, model_id: str, steps_left: int) -> int:
        """The squares a one-square model's next step may go to (a bitboard, index ``row *
        width + col``), with ``steps_left`` steps (this one included) still allowed:
        :meth:`can_move_to` of each square around it at once (FR-M1…M4).

        Kept with the position (it never changes). One step of the board's stepper from
        the model's square, the other models' impassable squares blocked (they also shut
        diagonals, FR-M4, as in :meth:`_can_step`), then the squares of models it may
        only cross are kept where its move can still end legally (FR-M2, FR-M3).

        Raises:
            RulesError: the model covers more than one square (a 2×2 model moves as a
                block: ask :meth:`can_move_to`).
        """
        mover = self.model(model_id)
        if mover.cyl >= 6:
            raise RulesError(f"{model_id} covers 2x2 squares: its steps are asked one by one")
        key = ("step-squares", model_id, mover.square, steps_left)
        found: int | None = self._memo.get(key)
        if found is not None:
            return found
        out = 0
        if steps_left > 0:
            graph = self.graph
            here = 1 << (mover.square.row * self.board.width + mover.square.col)
            # The mover's own square is never blocked for it (as graph.can_step has it).
            blocked = self._blocked_bits(mover) & ~here
            reached = graph.step_bits(here, blocked=blocked) & ~here
            occupied = self._others_bits(mover, "occupied-bits")
            out = reached & ~occupied
            w = self.board.width
            for i in graph.bit_indices(reached & occupied):
                if self._can_end(mover, Square(*divmod(i, w)), steps_left - 1):
                    out |= 1 << i
        self._memo[key] = out
        return out

    def _blocked_bits(self, mover: Model) -> int:
        """The squares of the models ``mover`` may not enter, as a bitboard (kept)."""
        return self._others_bits(mover, "blocked-bits")

    def _others_bits(self, mover: Model, which: Literal["blocked-bits", "occupied-bits"]) -> int:
        """:meth:`_others` as a bitboard, kept: the squares ``mover`` may not enter
        (``"blocked-bits"``) or all the other models' (``"occupied-bits"``)."""
        key = (which, mover.id, mover.kind, mover.team)
        found: int | None = self._memo.get(key)
        if found is None:
            squares = self._others(mover)[0 if which == "blocked-bits" else 2]
            found = self._memo[key] = self.graph.bits(squares)
        return found

    def _can_end(self, mover: Model, square: Square, steps_left: int) -> bool:
        """Whether ``mover``, stepped onto ``square``, may stop there or go on with
        ``steps_left`` steps to a square it may stop on (the other models stay put)."""
        if mover.cyl < 6:
            # A one-square model: its footprint is the square (the common case, asked
            # for every step of every legal list; no model made to ask it).
            if square not in self._others(mover)[2]:
                return True
            moved = None
        else:
            moved = mover.at(square)
            if self._may_stop(moved):
                return True
        if steps_left == 0:
            return False
        if moved is None:
            moved = mover.at(square)
        return any(
            self._can_end(moved, nxt, steps_left - 1)
            for nxt in _neighbours(square)
            if self._can_step(moved, nxt)
        )

    # ------------------------------------------------------------------ range, states

    def range(self, a_id: str, b_id: str) -> int | None:
        """FR-R1: the fewest squares a model would move through to reach the other's
        square, that square counted (adjacent = 1), by FR-M1/FR-M4 around walls and
        terrain, models ignored. ``None`` when no route exists."""
        a, b = self.model(a_id), self.model(b_id)
        return self.range_between(a.squares, b.squares)

    def range_between(self, frm: Iterable[Square], to: Iterable[Square]) -> int | None:
        """FR-R1 between two sets of squares (models' footprints)."""
        starts = tuple(frm)
        goals = tuple(to)
        if set(goals) & set(starts):
            return 0
        key = ("range", starts, goals)
        found: int | None
        if key in self._memo:
            found = self._memo[key]
            return found
        # Models are ignored, so the answer is the map's, kept with the board across
        # positions (a search's worlds ask for the same ranges again and again).
        kept = self.board.memo("ranges")
        wide = (self.rules.diagonal_block, self.open_doors, starts, goals)
        if wide in kept:
            found = self._memo[key] = kept[wide]
            return found
        # Breadth-first from the starts, stopping at the first layer that meets a goal:
        # its index is the fewest steps.
        graph = self.graph
        goal_bits = graph.bits(goals)
        found = None
        for k, layer in enumerate(graph.layers_bits(graph.bits(starts), stop=goal_bits)):
            if layer & goal_bits:
                found = k
                break
        self._memo[key] = found
        if len(kept) >= _RANGES_KEPT:
            kept.clear()
        kept[wide] = found
        return found

    def engaged(self, a_id: str, b_id: str) -> bool:
        """FR-S1: some square of one is among the 8 neighbours of a square of the other,
        and (unless ``engage_through_walls``) no wall or closed door lies between them."""
        a, b = self.model(a_id), self.model(b_id)
        for sa in a.squares:
            for sb in b.squares:
                if max(abs(sa.row - sb.row), abs(sa.col - sb.col)) != 1:
                    continue
                if self.rules.engage_through_walls or not self.walled(sa, sb):
                    return True
        return False

    def walled(self, a: Square, b: Square) -> bool:
        """Whether walls (closed doors included) stand between two adjacent squares: on
        their shared edge, or, for diagonal neighbours, at the shared corner so that
        they separate the two (a wall straight through it, or a wall corner round
        either square); a wall that only ends at the corner does not."""
        doors = self.open_doors
        if a.row == b.row or a.col == b.col:
            return self.board.blocks(Edge.between(a, b), doors)
        side_a, side_b = Square(a.row, b.col), Square(b.row, a.col)
        a_walled = self.board.blocks(Edge.between(a, side_a), doors) or self.board.blocks(
            Edge.between(side_a, b), doors
        )
        b_walled = self.board.blocks(Edge.between(a, side_b), doors) or self.board.blocks(
            Edge.between(side_b, b), doors
        )
        return a_walled and b_walled


def _neighbours(square: Square) -> Iterator[Square]:
    """The 8 squares around ``square``, row by row (some may be off the map)."""
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            if dr or dc:
                yield Square(square.row + dr, square.col + dc)


def around(square: Square) -> list[Square]:
    """The 8 squares around ``square``, row by row (some may be off the map)."""
    return list(_neighbours(square))


def facing_towards(frm: Square, to: Square) -> Facing:
    """The facing from ``frm`` most towards ``to`` (FR-L5; a revealed bogey faces its
    finder, a bogey turns to the hero it hunts)."""
    north = to.row < frm.row
    east = to.col >= frm.col
    return ("N" if north else "S") + ("E" if east else "W")  # type: ignore[return-value]


def id_number(model_id: str) -> int:
    """The number of a model id (``"B12"`` → 12; 0 for none): ids sort by it."""
    digits = model_id[1:]
    return int(digits) if digits.isascii() and digits.isdigit() and len(digits) < 6 else 0


_ATTRS: Final = ("cyl", "facing", "state", "team", "tier")


def _model_of(board: Board, spec: ModelSpec) -> Model:
    def fail(expected: str, found: str) -> BadDataError:
        return BadDataError(
            board.file, expected, line=spec.line or None, column=spec.column or None, found=found
        )

    if spec.kind not in KINDS:
        raise fail(f"a model kind: {', '.join(KINDS)}", spec.kind)
    for key in spec.attrs:
        if key not in _ATTRS:
            raise fail(f"model attributes {', '.join(_ATTRS)}", key)
    cyl_text = spec.attrs.get("cyl", "3")
    if not (cyl_text.isascii() and cyl_text.isdigit() and len(cyl_text) <= 2) or not (
        1 <= int(cyl_text) <= 7
    ):
        raise fail("cyl=1 to cyl=7", f"cyl={cyl_text}")
    facing = spec.attrs.get("facing", "NE").upper()
    if facing not in FACINGS:
        raise fail(f"facing={'|'.join(FACINGS)}", f"facing={facing}")
    state = spec.attrs.get("state", "active").lower()
    if state not in STATES:
        raise fail(f"state={'|'.join(STATES)}", f"state={state}")
    tier = spec.attrs.get("tier", "").lower()
    if tier and (spec.kind != "bogey" or tier not in TIERS):
        raise fail(f"tier={'|'.join(TIERS)} on a bogey", f"tier={tier}")
    model = Model(
        spec.id,
        spec.kind,  # type: ignore[arg-type]
        spec.square,
        cyl=int(cyl_text),
        facing=facing,  # type: ignore[arg-type]
        state=ModelState(state),
        team=spec.attrs.get("team", ""),
        tier=tier,
    )
    for sq in model.squares:
        if not board.in_bounds(sq) or not board.terrain_at(sq).passable:
            raise fail(
                "a model on passable squares of the map",
                sq.name if board.in_bounds(sq) else "off the map",
            )
    return model


def models_of(board: Board) -> list[Model]:
    """The models a map file places in its ``[models]`` section (``ID KIND SQUARE
    cyl=N facing=NE state=down team=team1 tier=elite``), checked as Zero Dark models.

    Raises:
        BadDataError: naming the file, line and column of a bad entry (an unknown kind
            or attribute, a bad value, impassable squares, two models on one square).
    """
    out = [_model_of(board, spec) for spec in board.models]
    taken: dict[Square, str] = {}
    for spec, m in zip(board.models, out, strict=True):
        for sq in m.squares:
            if sq in taken:
                raise BadDataError(
                    board.file,
                    "one model per square",
                    line=spec.line or None,
                    column=spec.column or None,
                    found=f"{m.id} on {sq.name}, where {taken[sq]} stands",
                )
            taken[sq] = m.id
    return out
