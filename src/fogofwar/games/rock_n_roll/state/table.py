"""The arguments of Rock-n-Roll's moves, resolved against the match
(:class:`~fogofwar.core.rules.Param`), and :func:`play`, the one way the phase table
(``match.py``) states a move.

A card id becomes the match's own :class:`~.pieces.Piece`, a Point's letter its Point
card. An id that names nothing resolves to ``None``, which no option has: the move's
check refuses it with its rule's reason, as for any other card that may not be played.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, TypeVar

from ....core.game import ArgValue, State
from ....core.rules import Move, Param, Refusal

if TYPE_CHECKING:
    from ..cards import Operation, PointCard
    from .board import Board
    from .pieces import Piece

__all__ = [
    "count_arg",
    "operation_arg",
    "piece_arg",
    "piece_or_word_arg",
    "play",
    "point_arg",
    "word_arg",
]

S = TypeVar("S", bound=State)


def play(
    kind: str,
    rule: str,
    check: Callable[[S, str, tuple[Any, ...]], Refusal | None],
    effect: Callable[[S, str, tuple[Any, ...]], None],
    args: tuple[Param, ...] = (),
    options: Callable[[S, str], Iterable[tuple[Any, ...]]] | None = None,
    *,
    optional: int = 0,
) -> Move[S]:
    """A move whose check decides legality alone (``complete``: the options are the
    legal choices it allows); its last ``optional`` arguments may be left out (``pass``
    and ``pass turn``, ``deal take`` and ``deal return V3``), the typed arguments then
    as many as the wire's. ``kind`` becomes a plain string, as actions carry it."""
    if optional:
        last = [Param(a.name, a.parse, a.format, optional=True) for a in args[-optional:]]
        args = (*args[:-optional], *last)
    return Move(str(kind), rule, check, effect, args, options, complete=True)


# --------------------------------------------------------------------------- arguments


def piece_arg(name: str) -> Param:
    """A unit or local card id: its piece in the match (``None``: not one)."""

    def resolve(state: Board, wire: ArgValue) -> Piece | None:
        return state.pieces.get(wire) if isinstance(wire, str) else None

    return Param(name, resolve, lambda piece: piece.card.id)


def piece_or_word_arg(name: str, word: str) -> Param:
    """A unit card id or ``word`` (``take deck``): the piece, or the word itself."""

    def resolve(state: Board, wire: ArgValue) -> Piece | str | None:
        if wire == word:
            return word
        return state.pieces.get(wire) if isinstance(wire, str) else None

    return Param(name, resolve, lambda value: value if isinstance(value, str) else value.card.id)


def operation_arg(name: str) -> Param:
    """An operation card's id: the card (``None``: not one)."""

    def resolve(state: Board, wire: ArgValue) -> Operation | None:
        if isinstance(wire, str) and state.cards.is_operation(wire):
            return state.cards.operation(wire)
        return None

    return Param(name, resolve, lambda op: op.id)


def point_arg(name: str) -> Param:
    """A Point's letter: the Point card (its position changes with a goal change)."""

    def resolve(state: Board, wire: ArgValue) -> PointCard | None:
        return next((p for p in state.points if p.letter == wire), None)

    return Param(name, resolve, lambda point: point.letter)


def count_arg(name: str) -> Param:
    """A whole number, as it is on the wire (``None``: not an int)."""

    def resolve(state: Board, wire: ArgValue) -> int | None:
        return wire if isinstance(wire, int) else None

    return Param(name, resolve)


def word_arg(name: str, words: Iterable[str] | None = None) -> Param:
    """A word (a card id in hand, ``rd``, ``deck``), from ``words`` when given."""
    allowed = None if words is None else frozenset(words)

    def resolve(state: Board, wire: ArgValue) -> str | None:
        if not isinstance(wire, str) or (allowed is not None and wire not in allowed):
            return None
        return wire

    return Param(name, resolve)
