"""The phase table's parts this game needs beyond :mod:`fogofwar.core.rules`.

The rules are a :class:`~fogofwar.core.rules.PhaseTable` (see ``match.py``); three
things the core table does not offer are added here, in the game package:

* **Arguments resolved against the state** (:class:`Arg`): a card id becomes the
  match's own :class:`~.pieces.Piece`, a Point's letter its Point card — the core's
  :class:`~fogofwar.core.rules.Param` parses a wire value without the state. An id that
  names nothing resolves to ``None``, which no option has: the check refuses it with its
  rule's reason, as for any other card that may not be played.
* **Optional last arguments** (:class:`Play`): ``pass`` and ``pass turn``, ``deal take``
  and ``deal return V3`` are one move each.
* **A refusal per action** for a kind the phase does not list (:class:`Table`'s
  ``refuse``): the reason names what the seat is asked (``waiting for pay (pay)``) or
  the rule of the kind it tried, not one sentence per phase.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from ....core.game import Action, ArgValue, State
from ....core.rules import Move, PhaseTable, Refusal

if TYPE_CHECKING:
    from ..cards import Operation, PointCard
    from .board import Board
    from .pieces import Piece

__all__ = [
    "Arg",
    "Play",
    "Table",
    "count_arg",
    "operation_arg",
    "piece_arg",
    "piece_or_word_arg",
    "play",
    "point_arg",
    "word_arg",
]

S = TypeVar("S", bound=State)


@dataclass(frozen=True, slots=True)
class Arg:
    """One argument of a move, resolved against the state.

    Attributes:
        name: for people ("unit", "point").
        resolve: ``resolve(state, wire)``: the typed value, or ``None`` when the wire
            value names nothing of this match (never a legal choice).
        format: the typed value back to the wire.
    """

    name: str
    resolve: Callable[[Any, ArgValue], Any]
    format: Callable[[Any], ArgValue]


@dataclass(frozen=True, slots=True)
class Play(Move[S]):
    """A move whose arguments are :class:`Arg`\\ s; the last ``optional`` of them may be
    left out (the typed arguments are then as many as the wire's). Its check decides
    legality alone (``complete``)."""

    args: tuple[Arg, ...] = ()
    optional: int = 0

    def resolve(self, state: S, action: Action) -> tuple[Any, ...] | None:
        """The typed arguments of ``action``, or ``None`` for a wrong number of them."""
        n = len(action.args)
        if not len(self.args) - self.optional <= n <= len(self.args):
            return None
        return tuple(a.resolve(state, w) for a, w in zip(self.args, action.args, strict=False))

    def action(self, seat: str, args: tuple[Any, ...]) -> Action:
        if not args:
            return Action(seat, self.kind)
        # A list, not a generator: the legal list formats every option (the hot path).
        wire = [a.format(v) for a, v in zip(self.args, args, strict=False)]
        return Action(seat, self.kind, tuple(wire))


def play(
    kind: str,
    rule: str,
    check: Callable[[S, str, tuple[Any, ...]], Refusal | None],
    effect: Callable[[S, str, tuple[Any, ...]], None],
    args: tuple[Arg, ...] = (),
    options: Callable[[S, str], Iterable[tuple[Any, ...]]] | None = None,
    *,
    optional: int = 0,
) -> Play[S]:
    """A :class:`Play` (its check complete: the options are the legal choices it allows);
    ``kind`` becomes a plain string, as actions carry it."""
    return Play(str(kind), rule, check, effect, options=options, complete=True, args=args,
                optional=optional)  # fmt: skip


@dataclass(frozen=True)
class Table(PhaseTable[S]):
    """A :class:`~fogofwar.core.rules.PhaseTable` of :class:`Play`\\ s.

    Attributes:
        refuse: ``refuse(state, action)``: why a kind the phase does not list (or a
            wrong number of arguments) is refused.
    """

    refuse: Callable[[S, Action], Refusal] | None = None

    def _found(self, state: S, action: Action) -> tuple[Play[S], tuple[Any, ...]] | None:
        move = self._move(state, action.kind)
        if not isinstance(move, Play):
            return None
        args = move.resolve(state, action)
        return None if args is None else (move, args)

    def is_legal(self, state: S, action: Action) -> bool:
        found = self._found(state, action)
        if found is None:
            return False
        move, args = found
        if move.check(state, action.seat, args) is not None:
            return False
        return move.complete or args in list(move.candidates(state, action.seat))

    def apply(self, state: S, action: Action) -> None:
        found = self._found(state, action)
        if found is None:  # apply_unchecked promises a legal action
            raise ValueError(f"{action} is not a move of phase {self.phase(state)}")
        found[0].effect(state, action.seat, found[1])

    def explain(self, state: S, action: Action) -> Refusal:
        found = self._found(state, action)
        if found is None:
            if self.refuse is None:
                return super().explain(state, action)
            return self.refuse(state, action)
        move, args = found
        refused = move.check(state, action.seat, args)
        return refused or (f"{action} is not among the choices now", move.rule)


# --------------------------------------------------------------------------- arguments


def piece_arg(name: str) -> Arg:
    """A unit or local card id: its piece in the match (``None``: not one)."""

    def resolve(state: Board, wire: ArgValue) -> Piece | None:
        return state.pieces.get(wire) if isinstance(wire, str) else None

    return Arg(name, resolve, lambda piece: piece.card.id)


def piece_or_word_arg(name: str, word: str) -> Arg:
    """A unit card id or ``word`` (``take deck``): the piece, or the word itself."""

    def resolve(state: Board, wire: ArgValue) -> Piece | str | None:
        if wire == word:
            return word
        return state.pieces.get(wire) if isinstance(wire, str) else None

    return Arg(name, resolve, lambda value: value if isinstance(value, str) else value.card.id)


def operation_arg(name: str) -> Arg:
    """An operation card's id: the card (``None``: not one)."""

    def resolve(state: Board, wire: ArgValue) -> Operation | None:
        if isinstance(wire, str) and state.cards.is_operation(wire):
            return state.cards.operation(wire)
        return None

    return Arg(name, resolve, lambda op: op.id)


def point_arg(name: str) -> Arg:
    """A Point's letter: the Point card (its position changes with a goal change)."""

    def resolve(state: Board, wire: ArgValue) -> PointCard | None:
        return next((p for p in state.points if p.letter == wire), None)

    return Arg(name, resolve, lambda point: point.letter)


def count_arg(name: str) -> Arg:
    """A whole number, as it is on the wire (``None``: not an int)."""

    def resolve(state: Board, wire: ArgValue) -> int | None:
        return wire if isinstance(wire, int) else None

    return Arg(name, resolve, int)


def word_arg(name: str, words: Iterable[str] | None = None) -> Arg:
    """A word (a card id in hand, ``rd``, ``deck``), from ``words`` when given."""
    allowed = None if words is None else frozenset(words)

    def resolve(state: Board, wire: ArgValue) -> str | None:
        if not isinstance(wire, str) or (allowed is not None and wire not in allowed):
            return None
        return wire

    return Arg(name, resolve, str)
