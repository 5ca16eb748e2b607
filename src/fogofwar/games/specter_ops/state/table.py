"""The shape of Specter Ops' phase table: its typed arguments and its three kinds of
move, each stating its rule once (``game.py`` lists them phase by phase).

* :func:`square_move` — a move to one square of the board (``step N2``, ``drive K18``).
  Its rule is ``targets``, the bitboard of the squares it allows now; ``why`` names the
  part of the rule a square breaks. The check, the options, the legal list (the
  geometry's shared actions of that bitboard) and the refusal all come from the two.
* :func:`plain_move` — a move without arguments (``stop``, ``sensor``, ``done``): its
  rule is ``allowed``; ``refusal`` says why not.
* :func:`move` — any other move: a check over typed arguments, and its options.

Every move also says how it refuses arguments that do not parse (a wrong number of
them, a word that names no square): :attr:`TableMove.unparsed`.

What :mod:`fogofwar.core.rules` lacks, added here (:class:`SpecterTable`):

* that refusal per move (the core table has one ``malformed`` for all);
* speed, since random play asks for a legal list and a legality check at every action:
  a square move's legal actions are the geometry's shared actions of its bitboard and
  its legality one bit test; a plain move's legality is its rule; a move whose options
  are made from its rule's own parts (``exact``: the agent's cards) is not checked
  option by option;
* ``sequence``: a phase whose moves come in an order that depends on the position (a
  hunter aboard gets out before it drives; the Puppet on foot drives before it walks).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING, Any, NewType, TypeVar

from ....core.errors import InvalidNotationError
from ....core.game import Action, ArgValue
from ....core.rules import Move, Param, PhaseTable, Refusal

if TYPE_CHECKING:
    from .board import Board

__all__ = [
    "SpecterTable",
    "SquareName",
    "TableMove",
    "loose_square",
    "move",
    "not_a_square",
    "plain_move",
    "square_move",
    "square_param",
    "word_param",
]

S = TypeVar("S", bound="Board")

#: A square as actions name it (``"K17"``): one of the board's exact names.
SquareName = NewType("SquareName", str)


@functools.lru_cache(maxsize=256)
def _plain(seat: str, kind: str) -> Action:
    """An action without arguments, made once (actions are immutable values)."""
    return Action(seat, kind)


# --------------------------------------------------------------------------- arguments


def square_param(name: str) -> Param:
    """A square of the board by its exact name (``K17``); any other word does not parse
    (the move's :attr:`~TableMove.unparsed` says why)."""

    def parse(state: Board, wire: ArgValue) -> SquareName:
        if state.geo.index_of(wire) is None:
            raise ValueError(f"{name}: {wire!r} is not a square of this board")
        return SquareName(str(wire))

    return Param(name, parse)


def word_param(name: str, *, optional: bool = False) -> Param:
    """Any argument, as text: a figure, a character, a card (one that names nothing is
    refused by the move's check, under the rule it breaks)."""
    return Param(name, lambda state, wire: str(wire), optional=optional)


def loose_square(state: Board, action: Action) -> int | None:
    """The square an action's one argument names, in any spelling the board reads
    (``n2``), for the refusal of a step or drive; None if there is none."""
    if len(action.args) != 1:
        return None
    try:
        return state.geo.parse(str(action.args[0]))
    except InvalidNotationError:
        return None


def not_a_square(action: Action) -> Refusal:
    """The refusal of a step or drive whose arguments name no square (no rule: the
    encoding then says what the kind takes)."""
    return f"{' '.join(map(str, action.args))} is not a square of this board", None


# --------------------------------------------------------------------------- moves


@dataclass(frozen=True, slots=True, kw_only=True)
class TableMove(Move[S]):
    """A move of Specter Ops' table (:class:`~fogofwar.core.rules.Move`, and):

    Attributes:
        unparsed: ``unparsed(state, action)``: why an action of this kind whose
            arguments do not parse is refused.
        targets: a move to a square (:func:`square_move`): ``targets(state)``, the
            bitboard of the squares its rule allows now.
        allowed: a move without arguments (:func:`plain_move`): ``allowed(state)``,
            whether its rule allows it now.
        exact: the options are the legal choices themselves, made from the rule's own
            parts as the check is (the legal list does not check them one by one).
    """

    unparsed: Callable[[S, Action], Refusal]
    targets: Callable[[S], int] | None = None
    allowed: Callable[[S], bool] | None = None
    exact: bool = False

    def allows(self, state: S, action: Action) -> bool:
        """Whether ``action`` (of this move's kind, by the seat to act) passes the move's
        check: ``is_legal``'s question, asked of a square move's bitboard or a plain
        move's rule directly (an action is checked on every ``apply``)."""
        targets = self.targets
        if targets is not None:
            args = action.args
            square = state.geo.index_of(args[0]) if len(args) == 1 else None
            return square is not None and bool(targets(state) >> square & 1)
        if self.allowed is not None:
            return not action.args and self.allowed(state)
        typed = self.parse(state, action)
        return typed is not None and self.check(state, action.seat, typed) is None

    def play(self, state: S, action: Action) -> None:
        """Apply a legal action of this move: its effect on the typed arguments (a square
        move's and a plain move's are the wire's: a square's name, or none)."""
        if self.targets is not None or self.allowed is not None:
            self.effect(state, action.seat, action.args)
            return
        typed = self.parse(state, action)
        if typed is None:  # apply_unchecked promises a legal action
            raise ValueError(f"{action} is not a move of phase {state.phase}")
        self.effect(state, action.seat, typed)


def square_move(
    kind: str,
    rule: str,
    targets: Callable[[S], int],
    why: Callable[[S, int], Refusal],
    effect: Callable[[S, str, tuple[SquareName]], None],
    unparsed: Callable[[S, Action], Refusal] | None = None,
) -> TableMove[S]:
    """A move to one square (see the module doc): ``targets`` is its rule, ``why(state,
    square)`` the part of it a square breaks. Arguments that name no square are refused
    as such, or by ``unparsed`` when given."""

    def check(state: S, seat: str, args: tuple[SquareName]) -> Refusal | None:
        square = state.geo.index_of(args[0])
        assert square is not None  # the parameter took it
        return None if targets(state) >> square & 1 else why(state, square)

    def options(state: S, seat: str) -> list[tuple[SquareName]]:
        return [(SquareName(n),) for n in state.geo.names(targets(state))]

    def no_square(state: S, action: Action) -> Refusal:
        square = loose_square(state, action)
        return not_a_square(action) if square is None else why(state, square)

    return TableMove(
        str(kind),
        rule,
        check,
        effect,
        (square_param("square"),),
        options,
        complete=True,
        unparsed=no_square if unparsed is None else unparsed,
        targets=targets,
    )


def plain_move(
    kind: str,
    rule: str,
    allowed: Callable[[S], bool],
    refusal: Callable[[S], Refusal],
    effect: Callable[[S, str, tuple[()]], None],
) -> TableMove[S]:
    """A move without arguments: allowed when ``allowed``, else refused with
    ``refusal`` — as is the move given arguments."""

    def check(state: S, seat: str, args: tuple[()]) -> Refusal | None:
        return None if allowed(state) else refusal(state)

    return TableMove(
        str(kind),
        rule,
        check,
        effect,
        complete=True,
        unparsed=lambda state, action: refusal(state),
        allowed=allowed,
    )


def move(
    kind: str,
    rule: str,
    check: Callable[[S, str, Any], Refusal | None],
    effect: Callable[[S, str, Any], None],
    params: tuple[Param, ...],
    options: Callable[[S, str], Iterable[tuple[Any, ...]]],
    unparsed: Callable[[S, Action], Refusal],
    *,
    exact: bool = False,
) -> TableMove[S]:
    """A move whose check decides legality alone: its options are the candidates (or,
    ``exact``, the legal choices)."""
    return TableMove(
        str(kind),
        rule,
        check,
        effect,
        params,
        options,
        complete=True,
        unparsed=unparsed,
        exact=exact,
    )


# --------------------------------------------------------------------------- the table


@dataclass(frozen=True)
class SpecterTable(PhaseTable[S]):
    """Specter Ops' phase table (:class:`~fogofwar.core.rules.PhaseTable`, and):

    Attributes:
        sequence: phase -> ``sequence(state)``: the phase's moves in the legal list's
            order for this position, when it is not the table's.
    """

    sequence: Mapping[Enum, Callable[[S], Sequence[TableMove[S]]]] = field(default_factory=dict)
    _rows: Mapping[Enum, Mapping[str, TableMove[S]]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        PhaseTable.__post_init__(self)
        rows: dict[Enum, dict[str, TableMove[S]]] = {}
        for phase, moves in self.moves.items():
            for m in moves:
                if not isinstance(m, TableMove):
                    raise TypeError(f"{m.kind}: every move of the table is a TableMove")
                rows.setdefault(phase, {})[m.kind] = m
        object.__setattr__(self, "_rows", rows)
        if self.malformed is None:
            # Every move says how it refuses arguments that do not parse.
            object.__setattr__(self, "malformed", self._unparsed)

    def _move(self, state: S, kind: str) -> TableMove[S] | None:
        row = self._rows.get(self.phase(state))
        return None if row is None else row.get(kind)

    def _unparsed(self, state: S, action: Action) -> Refusal:
        found = self._move(state, action.kind)
        assert found is not None  # explain asks only for a move of the phase
        return found.unparsed(state, action)

    def is_legal(self, state: S, action: Action) -> bool:
        """Whether the phase allows ``action``'s kind and its move's check passes."""
        row = self._rows.get(self.phase(state))  # _move, inlined: asked at every action
        found = None if row is None else row.get(action.kind)
        return found is not None and found.allows(state, action)

    def apply(self, state: S, action: Action) -> None:
        """Apply a legal action: its move's effect."""
        row = self._rows.get(self.phase(state))
        found = None if row is None else row.get(action.kind)
        if found is None:  # apply_unchecked promises a legal action
            raise ValueError(f"{action} is not a move of phase {self.phase(state)}")
        found.play(state, action)

    def legal_actions(self, state: S, seat: str) -> list[Action]:
        """The options of every move of the phase that pass its check: a square move's
        straight from its bitboard (one shared action per square), a plain move's one
        shared action, any other move's options one by one."""
        phase = self.phase(state)
        order = self.sequence.get(phase)
        row = self._rows.get(phase)
        moves = order(state) if order is not None else () if row is None else row.values()
        square_actions = state.geo.square_actions
        out: list[Action] = []
        for m in moves:
            targets = m.targets
            if targets is not None:
                bits = targets(state)
                if bits:
                    out += square_actions(seat, m.kind, bits)
                continue
            allowed = m.allowed
            if allowed is not None:
                if allowed(state):
                    out.append(_plain(seat, m.kind))
                continue
            if m.exact:
                for args in m.candidates(state, seat):
                    out.append(m.action(seat, args) if args else _plain(seat, m.kind))
                continue
            check = m.check
            for args in m.candidates(state, seat):
                if check(state, seat, args) is None:
                    out.append(m.action(seat, args) if args else _plain(seat, m.kind))
        return out
