"""Rules as phase tables: each rule stated once.

A game moves through **phases** (an enum per rule set). In each phase some action
**kinds** are allowed, and for each kind a :class:`Move` says:

* ``params`` — the typed arguments (:class:`Param`: how an action's wire argument, an
  int or a string, becomes the value the rules use — resolved against the state, so a
  card id can become the match's own piece — and back), parsed once at the boundary.
  Trailing parameters may be optional (``attack S1 H3 [door]``);
* ``options`` — the candidates for the legal list (the neighbours of a square, the cards
  in hand), as typed arguments;
* ``check`` — **the rule**: ``None`` when the move is allowed, else ``(reason, rule
  ID)``. The legal list is the options that pass it, the fast legality check is it, and
  a refusal's reason and rule ID are what it returns — so a rule is written once;
* ``effect`` — what the move does to the state (its events go to the state's log).

:class:`PhaseTable` turns the table into the protocol's ``legal_actions``,
``is_legal``, ``apply_unchecked`` and ``explain_illegal`` (mix :class:`TableState` into a
game's state). What a game may add, all optional and all in the table:

* ``order`` — a phase's legal list in the game's own order across kinds (a Soldier's
  moves, then its attacks, then the next Soldier's);
* ``phase_rules`` — the refusal of a kind the phase does not allow: fixed, or from the
  state and the action (``the Fail check K3 must be rolled first``); by default the
  kinds the phase allows, under its first move's rule;
* ``notation`` — a refusal of words that do not fit the action's notation, asked before
  the arguments are parsed;
* ``malformed`` — the refusal of arguments that do not parse (by default the move's
  ``takes``, or its parameters' names).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, ClassVar, Final, Generic, TypeVar

from .errors import InvalidNotationError
from .game import Action, ArgValue, Event, State

__all__ = [
    "NO_DEFAULT",
    "Move",
    "Param",
    "PhaseTable",
    "Refusal",
    "TableState",
    "flag_param",
    "int_param",
    "text_param",
    "word_param",
]

S = TypeVar("S", bound=State)
Refusal = tuple[str, str | None]
"""Why a move is not allowed: ``(reason, rule ID or None)``."""

#: A parameter's default when an omitted optional argument leaves the typed arguments
#: shorter (``pass`` and ``pass turn`` are one move with one or no argument).
NO_DEFAULT: Final = object()

#: What a parse may raise for a wire value it does not take.
_NOT_TAKEN: Final = (ValueError, KeyError, TypeError, InvalidNotationError)


@dataclass(frozen=True, slots=True)
class Param:
    """One typed argument of an action kind.

    Attributes:
        name: for people and errors ("square", "amount").
        parse: ``parse(state, wire)``: the wire argument (int or str) to the typed value;
            raises ``ValueError``, ``KeyError``, ``TypeError`` or
            :class:`InvalidNotationError` for one it does not take. It may return a value
            no option has (``None`` for a card id that names nothing in the match), which
            the move's check then refuses under the rule it breaks.
        format: the typed value back to the wire argument; ``None`` when the typed value
            is its own wire form (an id kept as text: the legal list's hot path skips it).
        optional: the argument may be left out (only trailing parameters).
        default: the typed value of an omitted optional argument; a move's wire form
            leaves out a trailing optional argument equal to it. :data:`NO_DEFAULT`: the
            typed arguments are then as many as the wire's.
    """

    name: str
    parse: Callable[[Any, ArgValue], Any]
    format: Callable[[Any], ArgValue] | None = None
    optional: bool = False
    default: Any = NO_DEFAULT


def int_param(name: str) -> Param:
    """An integer argument, as it is on the wire (ints only: not ``"3"``, not a bool)."""

    def parse(state: object, value: ArgValue) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"{name} is a whole number, not {value!r}")
        return value

    return Param(name, parse)


def word_param(name: str, words: Iterable[str] | None = None, *, optional: bool = False) -> Param:
    """A word argument (a card id, a figure), from ``words`` when given."""
    allowed = None if words is None else frozenset(words)

    def parse(state: object, value: ArgValue) -> str:
        if not isinstance(value, str) or (allowed is not None and value not in allowed):
            raise ValueError(f"{name}: not {value!r}")
        return value

    return Param(name, parse, optional=optional)


def text_param(name: str) -> Param:
    """Any argument, as text (an id: one that names nothing in play is refused by the
    move's check, under the rule it breaks)."""
    return Param(name, lambda state, value: str(value))


def flag_param(word: str) -> Param:
    """An optional last word (``door``, ``up``): ``True`` when given, ``False`` when
    left out."""

    def parse(state: object, value: ArgValue) -> bool:
        if value != word:
            raise ValueError(f"expected {word!r}, not {value!r}")
        return True

    return Param(word, parse, lambda on: word, optional=True, default=False)


_MADE_LIMIT = 1 << 16
"""The most actions one :class:`Move` keeps made (its options are a game's own: a
Specter Ops card's targets, Rock-n-Roll's units; far fewer in practice)."""


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
    _least: int = field(init=False, repr=False, compare=False)
    _plain: bool = field(init=False, repr=False, compare=False)
    _made: dict[tuple[str, tuple[Any, ...]], Action] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        required = [p for p in self.params if not p.optional]
        if self.params[: len(required)] != tuple(required):
            raise ValueError(f"{self.kind}: optional parameters come last")
        object.__setattr__(self, "_least", len(required))
        # No formatting and no default to leave out: typed arguments are the wire's.
        plain = all(p.format is None and p.default is NO_DEFAULT for p in self.params)
        object.__setattr__(self, "_plain", plain)
        object.__setattr__(self, "_made", {})

    def candidates(self, state: S, seat: str) -> Iterable[tuple[Any, ...]]:
        return ((),) if self.options is None else self.options(state, seat)

    def action(self, seat: str, args: tuple[Any, ...]) -> Action:
        """The action of typed arguments ``args`` (trailing defaults left out).

        Actions are immutable values, so each one is made once and then shared, by its
        seat and wire arguments (ints and strings, so the cache holds values only and is
        bounded by the game's actions; at most :data:`_MADE_LIMIT` kept): a legal list
        names the same actions turn after turn (a card's every target square in Specter
        Ops, a search's rollouts), and making them was a third of listing them.
        """
        if self._plain or not args:
            wire = args if type(args) is tuple else tuple(args)
        else:
            n = len(args)
            while n > self._least and self.params[n - 1].default is not NO_DEFAULT:
                if args[n - 1] != self.params[n - 1].default:
                    break
                n -= 1
            # A tuple of a list, not a generator: the legal list formats every option
            # (the hot path).
            wire = tuple(
                [
                    a if p.format is None else p.format(a)
                    for p, a in zip(self.params, args[:n], strict=False)
                ]
            )
        for a in wire:
            kind = type(a)
            if kind is not str and kind is not int:
                # Not plainly an int or a string (a bool, a float, an int subclass that
                # compares equal to a kept int): made and checked by Action every time.
                return Action(seat, self.kind, wire)
        key = (seat, wire)
        made = self._made.get(key)
        if made is None:
            made = Action(seat, self.kind, wire)
            if len(self._made) < _MADE_LIMIT:
                self._made[key] = made
        return made

    def parse(self, state: S, action: Action) -> tuple[Any, ...] | None:
        """The typed arguments of ``action``, or ``None`` when they do not parse (a
        wrong number of them, or one its parameter does not take)."""
        wire = action.args
        n = len(wire)
        if not self._least <= n <= len(self.params):
            return None
        try:
            out = [p.parse(state, a) for p, a in zip(self.params, wire, strict=False)]
        except _NOT_TAKEN:
            return None
        for p in self.params[n:]:
            if p.default is NO_DEFAULT:
                break
            out.append(p.default)
        return tuple(out)


#: A refusal fixed for a phase, or made from the state and the action.
PhaseRefusal = Refusal | Callable[[Any, Action], Refusal]


@dataclass(frozen=True)
class PhaseTable(Generic[S]):
    """A rule set's rules as a table: phase -> the moves allowed in it.

    Attributes:
        phase: the state's current phase (an enum member).
        moves: phase -> the moves allowed, in the legal list's order.
        phase_rules: phase -> the refusal of a kind it does not allow: ``(reason,
            rule)`` or ``refuse(state, action)``. By default the kinds the phase allows,
            under its first move's rule.
        order: phase -> ``order(state, seat)``: the candidates of all its moves in the
            legal list's order, each ``(kind, typed args)``, instead of move by move.
        notation: ``notation(state, action)``: the refusal of words that do not fit the
            action's notation (or of a kind the game does not have), asked before the
            arguments are parsed; ``None`` when they fit.
        malformed: ``malformed(state, action)``: the refusal of arguments that do not
            parse; by default the move's ``takes`` under its rule.
    """

    phase: Callable[[S], Enum]
    moves: Mapping[Enum, Sequence[Move[S]]]
    phase_rules: Mapping[Enum, PhaseRefusal] = field(default_factory=dict)
    order: Mapping[Enum, Callable[[S, str], Iterable[tuple[str, tuple[Any, ...]]]]] = field(
        default_factory=dict
    )
    notation: Callable[[S, Action], Refusal | None] | None = None
    malformed: Callable[[S, Action], Refusal] | None = None
    _kinds: Mapping[Enum, Mapping[str, Move[S]]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        kinds = {phase: {m.kind: m for m in moves} for phase, moves in self.moves.items()}
        object.__setattr__(self, "_kinds", kinds)

    def move(self, state: S, kind: str) -> Move[S] | None:
        """The move of ``kind`` in the state's phase, or ``None`` if it allows none."""
        moves = self._kinds.get(self.phase(state))
        return None if moves is None else moves.get(kind)

    def legal_actions(self, state: S, seat: str) -> list[Action]:
        """The options of every move of the phase that pass its check."""
        phase = self.phase(state)
        out: list[Action] = []
        order = self.order.get(phase)
        if order is not None:
            moves = self._kinds[phase]
            for kind, args in order(state, seat):
                move = moves[kind]
                if move.check(state, seat, args) is None:
                    out.append(move.action(seat, args))
            return out
        for move in self.moves.get(phase, ()):
            check = move.check
            for args in move.candidates(state, seat):
                if check(state, seat, args) is None:
                    out.append(move.action(seat, args))
        return out

    def is_legal(self, state: S, action: Action) -> bool:
        """Whether ``action`` is legal for a seat that is to act: the phase allows its
        kind, its arguments parse, and the move's check passes."""
        move = self.move(state, action.kind)
        if move is None:
            return False
        args = move.parse(state, action)
        if args is None or move.check(state, action.seat, args) is not None:
            return False
        if move.complete:
            return True
        candidates = move.candidates(state, action.seat)
        try:
            return args in set(candidates)
        except TypeError:  # unhashable typed values: compare one by one
            return args in list(move.candidates(state, action.seat))

    def apply(self, state: S, action: Action) -> None:
        """Apply a legal action: its move's effect on its typed arguments."""
        move = self.move(state, action.kind)
        args = None if move is None else move.parse(state, action)
        if move is None or args is None:  # apply_unchecked promises a legal action
            raise ValueError(f"{action} is not a move of phase {self.phase(state)}")
        move.effect(state, action.seat, args)

    def explain(self, state: S, action: Action) -> Refusal:
        """Why a (known illegal) action of a seat that is to act is refused."""
        phase = self.phase(state)
        move = self.move(state, action.kind)
        if move is None:
            fixed = self.phase_rules.get(phase)
            if fixed is not None:
                return fixed if isinstance(fixed, tuple) else fixed(state, action)
        if self.notation is not None:
            found = self.notation(state, action)
            if found is not None:
                return found
        if move is None:
            moves = self.moves.get(phase, ())
            kinds = ", ".join(sorted({m.kind for m in moves})) or "nothing"
            return f"{action.kind} is not a move now (now: {kinds})", (
                moves[0].rule if moves else None
            )
        args = move.parse(state, action)
        if args is None:
            if self.malformed is not None:
                return self.malformed(state, action)
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
    (:meth:`event_log`) and the effects the table calls. A game whose turn rules say
    more than "not your turn" to a seat that may not act overrides
    :meth:`explain_not_to_act`.
    """

    rules: ClassVar[PhaseTable[Any]]
    # The legal list last handed out in this position (a tuple: the caller may change
    # its list), or None. ``apply`` checks an action with the rules after the caller
    # listed the legal actions, nearly always to take one of them: an action that *is*
    # one of them is legal without asking the rules again. Moves share their actions
    # across positions (``Move.action``), so "the same object" is nearly "an equal
    # one": what makes this sound is that a state changes only through
    # ``apply_unchecked``, which forgets the list before and after (a subclass's own
    # too, wrapped when its class is made: ``__init_subclass__``; one patched in later
    # is not). A slot, not a field: no part of the game (``vars``, a clone, a
    # fingerprint, a pickle or a copy).
    __slots__ = ("_legal",)
    _legal: tuple[Action, ...] | None

    def __getstate__(self) -> dict[str, Any]:
        # Pickles and copies carry the game's fields, never the list (a copy is made
        # to be changed).
        return self.__dict__

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        own = cls.__dict__.get("apply_unchecked")
        if own is not None and not getattr(own, "forgets_the_legal_list", False):
            # A game's own apply (which need not call this class's) forgets the list.
            @functools.wraps(own)
            def apply_unchecked(self: TableState, action: Action) -> list[Event]:
                self._legal = None
                try:
                    events: list[Event] = own(self, action)
                finally:  # a list made during the apply is of no position
                    self._legal = None
                return events

            apply_unchecked.forgets_the_legal_list = True  # type: ignore[attr-defined]
            cls.apply_unchecked = apply_unchecked  # type: ignore[method-assign]

    def event_log(self) -> list[Event]:
        """The state's events so far, in order (an effect appends to it)."""
        log: list[Event] = getattr(self, "events")  # noqa: B009 - the usual attribute
        return log

    def legal_actions(self, seat: str) -> list[Action]:
        if seat not in self.to_act():
            return []
        out = self.rules.legal_actions(self, seat)
        self._legal = tuple(out)
        return out

    def is_legal(self, action: Action) -> bool:
        try:
            listed = self._legal
        except AttributeError:  # nothing listed yet
            listed = None
        if listed is not None:
            for a in listed:
                if a is action:
                    return True
        return action.seat in self.to_act() and self.rules.is_legal(self, action)

    def apply_unchecked(self, action: Action) -> list[Event]:
        self._legal = None
        log = self.event_log()
        start = len(log)
        try:
            self.rules.apply(self, action)
        finally:  # a list made during the apply is of no position
            self._legal = None
        return log[start:]

    def explain_not_to_act(self, action: Action) -> Refusal:
        """Why a seat that is not to act (the game not over) may not act now."""
        return self.protocol_refusal(action)

    def explain_illegal(self, action: Action) -> Refusal:
        if self.is_over:
            return self.protocol_refusal(action)
        if action.seat not in self.to_act():
            return self.explain_not_to_act(action)
        return self.rules.explain(self, action)
