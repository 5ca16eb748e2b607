"""The automatic action (ZD-C2) on the FEAR grid: a move of up to M single steps
(``step D7`` …, closed by ``stop`` or by ``face NE``), a turn to a new facing
(``face SW``), a door opened or closed instead of moving (``door F3 e``), or leaving by
the exit (``exit``, ZD-C8); the Spook's ``verify`` (ZD-T4) is in ``spook.py``. A bonus
action is an automatic action again.

Each step follows FR-M1…M4 (one square, no wall or closed door between, no diagonal past
anything impassable, crossing but never stopping on another model), and the move may
only end where the model may stop. Every step, facing and door is followed by the reveal
check (FR-P3); the end of the move by the CQBs it started (ZD-C5).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any, Final, NamedTuple

from ....core.game import ArgValue, emit
from ....core.grid import Edge, Square
from ....core.rules import Refusal
from ..fear import FACINGS, Model, Position, around
from .activation import Activation
from .pieces import Kind, short

__all__ = ["Misspelt", "Movement"]

_FACINGS_ARE: Final[Refusal] = (f"a facing is one of {', '.join(FACINGS)}: face NE", "FR-L5")


class Misspelt(NamedTuple):
    """A square named otherwise than the board names it (``d7`` for ``D7``): taken as the
    square, but never a legal step (the legal list names each square one way); refused
    under the rule of the geometry it breaks, as any step is."""

    square: Square


class Movement(Activation):
    """The automatic action: step, stop, face, door, exit (ZD-C2, FR-M*, FR-L5)."""

    def _automatic_order(self, seat: str) -> Iterator[tuple[str, tuple[Any, ...]]]:
        """The candidates of the automatic action in the legal list's order: a step to
        each square of the map around the model (row by row), each facing, ``stop``, the
        doors on its square's edges, ``exit``, and ``verify`` of its side's Boss. The
        moves' checks decide which are legal."""
        hero = self._hero()
        board = self.board
        # A one-square hero's steps are worked out together (Position.step_squares, the
        # rule of _check_step for every square around it): only those are offered, so the
        # legal list explains no refused step. A 2×2 hero's are checked one by one.
        allowed = (
            self.position.step_squares(hero.id, self.stats(hero.id).m - self.steps)
            if hero.cyl < 6
            else -1
        )
        w = board.width
        for to in around(hero.square):
            if board.in_bounds(to) and allowed >> (to.row * w + to.col) & 1:
                yield Kind.STEP, (to,)
        for f in FACINGS:
            yield Kind.FACE, (f,)
        yield Kind.STOP, ()
        for e in self._doors_at(hero):
            yield Kind.DOOR, tuple(e.name.split())
        yield Kind.EXIT, ()
        boss = self.side_of(hero).boss_target
        if boss is not None:
            yield Kind.VERIFY, (boss,)

    def _bonus_order(self, seat: str) -> Iterator[tuple[str, tuple[Any, ...]]]:
        """A bonus action's candidates: the automatic action's, then ``done``."""
        yield from self._automatic_order(seat)
        yield Kind.DONE, ()

    def _doors_at(self, hero: Model) -> list[Edge]:
        """Doors on the edges of the hero's squares (it opens or closes one, ZD-C2)."""
        out: set[Edge] = set()
        for sq in hero.squares:
            for side in "nesw":
                e = Edge.of(sq, side)
                if e in self.board.doors:
                    out.add(e)
        return sorted(out)

    def _may_not_stop(self, hero: Model) -> Refusal | None:
        """FR-M2, FR-M3: a move (and so a facing, which ends it) may not end on another
        model."""
        if self.position.can_stop(hero.id, hero.square):
            return None
        return f"{hero.id} may not end its move on {hero.square.name}: another model", "FR-M2"

    # ------------------------------------------------------------------ step

    def _check_step(self, seat: str, args: tuple[Square | Misspelt]) -> Refusal | None:
        """ZD-C2: up to M steps; FR-M1: to a square next to the model's, not across a wall
        or closed door, onto passable terrain; FR-M4: no diagonal past anything
        impassable; FR-M2, FR-M3: through another model only where it may, and only if
        the move can still end where it may stop."""
        (to,) = args
        exact = not isinstance(to, Misspelt)
        if isinstance(to, Misspelt):
            to = to.square
        hero = self._hero()
        m = self.stats(hero.id).m
        if self.steps >= m:
            return f"{hero.id} has used its {m} steps", "ZD-C2"
        here = hero.square
        dr, dc = to.row - here.row, to.col - here.col
        if max(abs(dr), abs(dc)) != 1:
            return f"{to.name} is not one step from {here.name}", "FR-M1"
        pos = self.position
        if exact and pos.can_move_to(hero.id, to, m - self.steps):
            return None
        other = pos.at(to)
        if other is not None and other.id != hero.id and not Position.may_cross(hero, other):
            return f"{other.id} blocks {to.name}", "FR-M2"
        terrain = self.board.terrain_at(to)
        if not terrain.passable:
            return f"{to.name} is impassable ({terrain.name})", "FR-M1"
        if dr and dc and not pos.can_step(hero.id, to):
            return (
                f"no diagonal step from {here.name} to {to.name}: something impassable "
                "beside it, or a wall at the corner",
                "FR-M4",
            )
        if not pos.can_step(hero.id, to):
            return f"a wall or closed door stands between {here.name} and {to.name}", "FR-M1"
        return f"{hero.id} could not end its move after stepping onto {to.name}", "FR-M2"

    def _step_words(self, args: tuple[ArgValue, ...]) -> Refusal:
        """``step`` takes one square of the map (FR-G1)."""
        if len(args) != 1:
            return "a step goes to one square: step D7", "FR-M1"
        return f"{short(str(args[0]))} is not a square of {self.board.name}", "FR-G1"

    def _step(self, seat: str, args: tuple[Square]) -> None:
        (to,) = args
        hero = self._hero()
        self._set(hero.at(to))
        self.steps += 1
        emit(self.events, "step", model=hero.id, square=to.name)
        self._reveal_check()

    # ------------------------------------------------------------------ stop, face

    def _check_stop(self, seat: str, args: tuple[()]) -> Refusal | None:
        """ZD-C2: the move ends where the model stands, if it may stop there."""
        return self._may_not_stop(self._hero())

    def _stop_words(self, args: tuple[ArgValue, ...]) -> Refusal:
        return self._may_not_stop(self._hero()) or (
            "stop takes nothing: it ends the move where the hero stands",
            "ZD-C2",
        )

    def _stop(self, seat: str, args: tuple[()]) -> None:
        self._end_automatic(moved=self.steps > 0)

    def _check_face(self, seat: str, args: tuple[str]) -> Refusal | None:
        """FR-L5: a new facing, one of the four corners, is the automatic action or the
        end of a move (which must end where the model may stop)."""
        (facing,) = args
        hero = self._hero()
        refused = self._may_not_stop(hero)
        if refused is not None:
            return refused
        if facing.upper() == hero.facing:
            return f"{hero.id} already faces {hero.facing}", "FR-L5"
        return None if facing in FACINGS else _FACINGS_ARE

    def _face_words(self, args: tuple[ArgValue, ...]) -> Refusal:
        return self._may_not_stop(self._hero()) or _FACINGS_ARE

    def _face(self, seat: str, args: tuple[str]) -> None:
        (facing,) = args
        moved = self.steps > 0
        hero = self._hero()
        self._set(replace(hero, facing=facing))  # type: ignore[arg-type]
        emit(self.events, "face", model=hero.id, facing=facing)
        self._reveal_check()
        self._end_automatic(moved=moved)

    # ------------------------------------------------------------------ door, exit

    def _check_door(self, seat: str, args: tuple[str, str]) -> Refusal | None:
        """ZD-C2: a door on an edge of the model's square is opened or closed instead of
        moving (named as the legal list names it: ``door F3 e``)."""
        if self.steps or args not in {tuple(e.name.split()) for e in self._doors_at(self._hero())}:
            return self._door_words(args)
        return None

    def _door_words(self, args: tuple[ArgValue, ...]) -> Refusal:
        if self.steps:
            return "a door is opened or closed instead of moving, not after steps", "ZD-C2"
        return f"no door on an edge of {self._hero().id}'s square there (door F3 e)", "ZD-C2"

    def _door(self, seat: str, args: tuple[str, str]) -> None:
        edge = Edge.parse(" ".join(args))
        now_open = edge not in self.position.open_doors
        self.position = self.position.with_door(edge, now_open)
        emit(self.events, "door", model=self.active, edge=edge.name, open=now_open)
        self._reveal_check()
        self._end_automatic(moved=False)

    def _check_exit(self, seat: str, args: tuple[()]) -> Refusal | None:
        """ZD-C8: a model on an exit square leaves the table, instead of moving."""
        if self.steps or self._hero().square not in self.board.markers.get("exit", ()):
            return self._exit_words(args)
        return None

    def _exit_words(self, args: tuple[ArgValue, ...]) -> Refusal:
        if self.steps:
            return "the exit is taken instead of moving, not after steps", "ZD-C8"
        return f"{self._hero().id} is not on an exit square", "ZD-C8"

    def _exit(self, seat: str, args: tuple[()]) -> None:
        """Leaving the table by the exit (an automatic action; the activation ends)."""
        hero = self._hero()
        self.red_seat = self.seat_of(hero)
        self.exited.add(hero.id)
        self.position = self.position.without(hero.id)
        emit(self.events, "exit", model=hero.id, square=hero.square.name, rule="ZD-C8")
        self._reveal_check()  # FR-P3: a line the hero stood in may open
        self._finish_activation()
