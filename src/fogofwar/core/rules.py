"""Rules as phase tables: each rule stated once.

A game moves through **phases** (an enum per rule set). In each phase some action
**kinds** are allowed, and for each kind a :class:`Move` says:

* ``params`` — the typed arguments (:class:`Param`: how an action's wire argument, an
  int or a string, becomes the value the rules use, and back), parsed once at the
  boundary;
* ``options`` — the candidates for the legal list (the neighbours of a square, the cards
  in hand), as typed arguments;
* ``check`` — **the rule**: ``None`` when the move is allowed, else ``(reason, rule
  ID)``. The legal list is the options that pass it, the fast legality check is it, and
  a refusal's reason and rule ID are what it returns — so a rule is written once;
* ``effect`` — what the move does to the state (its events go to the state's log).

:class:`PhaseTable` turns the table into the protocol's ``legal_actions``,
``is_legal``, ``apply_unchecked`` and ``explain_illegal`` (mix :class:`TableState` into a
game's state). A kind the phase does not allow is refused under the phase's own rule,
naming the kinds it allows.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, ClassVar, Generic, TypeVar

from .errors import InvalidNotationError
from .game import Action, ArgValue, Event, State

__all__ = [
    "Move",
    "Param",
    "PhaseTable",
    "Refusal",
    "TableState",
    "int_param",
    "word_param",
]

S = TypeVar("S", bound=State)
Refusal = tuple[str, str | None]
"""Why a move is not allowed: ``(reason, rule ID or None)``."""


@dataclass(frozen=True, slots=True)
class Param:
    """One typed argument of an action kind.

    Attributes:
        name: for people and errors ("square", "amount").
        parse: the wire argument (int or str) to the typed value; raises ``ValueError``,
            ``KeyError`` or :class:`InvalidNotationError` for one it does not take.
        format: the typed value back to the wire argument.
    """

    name: str
    parse: Callable[[ArgValue], Any]
    format: Callable[[Any], ArgValue]


def int_param(name: str) -> Param:
    """An integer argument, as it is on the wire (ints only: not ``"3"``, not a bool)."""

    def parse(value: ArgValue) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"{name} is a whole number, not {value!r}")
        return value

    return Param(name, parse, lambda v: int(v))


def word_param(name: str, words: Iterable[str] | None = None) -> Param:
    """A word argument (a card id, a figure), from ``words`` when given."""
    allowed = None if words is None else frozenset(words)

    def parse(value: ArgValue) -> str:
        if not isinstance(value, str) or (allowed is not None and value not in allowed):
            raise ValueError(f"{name}: not {value!r}")
        return value

    return Param(name, parse, lambda v: str(v))


@dataclass(frozen=True, slots=True)
class Move(Generic[S]):
    """One action kind allowed in a phase (see the module documentation).

    Attributes:
        kind: the action's kind.
        rule: the rule ID that defines the move.
        check: the rule: ``check(state, seat, args)`` is ``None`` when allowed, else
            ``(reason, rule)``. ``args`` are the typed arguments.
        effect: ``effect(state, seat, args)`` changes the state.
        params: the typed arguments.
        options: ``options(state, seat)``: the candidate typed arguments for the legal
            list (default: the one candidate with no arguments).
        complete: the check alone decides legality (the options need not be consulted
            by ``is_legal``); set it when ``check`` refuses everything ``options`` would
            not offer.
        takes: what the arguments are, for a refusal of arguments that do not parse
            (default: the parameters' names).
    """

    kind: str
    rule: str
    check: Callable[[S, str, tuple[Any, ...]], Refusal | None]
    effect: Callable[[S, str, tuple[Any, ...]], None]
    params: tuple[Param, ...] = ()
    options: Callable[[S, str], Iterable[tuple[Any, ...]]] | None = None
    complete: bool = False
    takes: str = ""

    def candidates(self, state: S, seat: str) -> Iterable[tuple[Any, ...]]:
        return ((),) if self.options is None else self.options(state, seat)

    def action(self, seat: str, args: tuple[Any, ...]) -> Action:
        wire = tuple(p.format(a) for p, a in zip(self.params, args, strict=True))
        return Action(seat, self.kind, wire)

    def parse(self, action: Action) -> tuple[Any, ...] | None:
        """The typed arguments of ``action``, or ``None`` when they do not parse."""
        if len(action.args) != len(self.params):
            return None
        try:
            return tuple(p.parse(a) for p, a in zip(self.params, action.args, strict=True))
        except (ValueError, KeyError, InvalidNotationError):
            return None


@dataclass(frozen=True)
class PhaseTable(Generic[S]):
    """A rule set's rules as a table: phase -> the moves allowed in it.

    Attributes:
        phase: the state's current phase (an enum member).
        moves: phase -> the moves allowed, in the legal list's order.
        phase_rules: phase -> the refusal of a kind it does not allow (what the phase
            allows, and the rule that says so); by default the kinds it allows, under
            its first move's rule.
    """

    phase: Callable[[S], Enum]
    moves: Mapping[Enum, Sequence[Move[S]]]
    phase_rules: Mapping[Enum, Refusal] = field(default_factory=dict)

    def _move(self, state: S, kind: str) -> Move[S] | None:
        for move in self.moves.get(self.phase(state), ()):
            if move.kind == kind:
                return move
        return None

    def legal_actions(self, state: S, seat: str) -> list[Action]:
        """The options of every move of the phase that pass its check."""
        out: list[Action] = []
        for move in self.moves.get(self.phase(state), ()):
            for args in move.candidates(state, seat):
                if move.check(state, seat, args) is None:
                    out.append(move.action(seat, args))
        return out

    def is_legal(self, state: S, action: Action) -> bool:
        """Whether ``action`` is legal for a seat that is to act: the phase allows its
        kind, its arguments parse, and the move's check passes."""
        move = self._move(state, action.kind)
        if move is None:
            return False
        args = move.parse(action)
        if args is None or move.check(state, action.seat, args) is not None:
            return False
        return move.complete or args in set(map(tuple, move.candidates(state, action.seat)))

    def apply(self, state: S, action: Action) -> None:
        """Apply a legal action: its move's effect on its typed arguments."""
        move = self._move(state, action.kind)
        args = None if move is None else move.parse(action)
        if move is None or args is None:  # apply_unchecked promises a legal action
            raise ValueError(f"{action} is not a move of phase {self.phase(state)}")
        move.effect(state, action.seat, args)

    def explain(self, state: S, action: Action) -> Refusal:
        """Why a (known illegal) action of a seat that is to act is refused."""
        phase = self.phase(state)
        moves = self.moves.get(phase, ())
        move = self._move(state, action.kind)
        if move is None:
            if phase in self.phase_rules:
                return self.phase_rules[phase]
            kinds = ", ".join(sorted({m.kind for m in moves})) or "nothing"
            return f"{action.kind} is not a move now (now: {kinds})", (
                moves[0].rule if moves else None
            )
        args = move.parse(action)
        if args is None:
            names = " ".join(p.name for p in move.params) or "no arguments"
            return move.takes or f"{action.kind} takes {names}", move.rule
        found = move.check(state, action.seat, args)
        if found is not None:
            return found
        return f"{action} is not among the choices now", move.rule


class TableState(State):
    """A state whose rules are a :class:`PhaseTable` (the class attribute ``rules``).

    It gives ``legal_actions``, ``is_legal``, ``apply_unchecked`` and
    ``explain_illegal``; the game gives ``to_act``, ``outcome``, its event log
    (:meth:`event_log`) and the effects the table calls.
    """

    rules: ClassVar[PhaseTable[Any]]

    def event_log(self) -> list[Event]:
        """The state's events so far, in order (an effect appends to it)."""
        log: list[Event] = getattr(self, "events")  # noqa: B009 - the usual attribute
        return log

    def legal_actions(self, seat: str) -> list[Action]:
        if seat not in self.to_act():
            return []
        return self.rules.legal_actions(self, seat)

    def is_legal(self, action: Action) -> bool:
        return action.seat in self.to_act() and self.rules.is_legal(self, action)

    def apply_unchecked(self, action: Action) -> list[Event]:
        log = self.event_log()
        start = len(log)
        self.rules.apply(self, action)
        return log[start:]

    def explain_illegal(self, action: Action) -> Refusal:
        if self.is_over or action.seat not in self.to_act():
            return self.protocol_refusal(action)
        return self.rules.explain(self, action)
