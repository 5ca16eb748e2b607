"""The shape of Warfighter's rules as a phase table (:mod:`fogofwar.core.rules`): the
notation's words, the typed parameters, and what the game's table adds to the core's.

* :data:`SHAPES` and :func:`shape_error` — each action's words (``attack S H [door]``)
  and the refusal of words that do not fit, with the rule that defines the action (the
  rule set's ``malformed`` and the table's refusals both use them).
* The parameters: ids as typed ids (:func:`id_param`, with :class:`IdMove`), an optional
  last word as a flag (:func:`flag_param`, with :class:`WordMove`).
* :class:`WarfighterTable` — a :class:`~fogofwar.core.rules.PhaseTable` whose legal list
  follows the game's own order across kinds (per Soldier, per target), whose phases may
  refuse other kinds with a reason from the state (the Fail check waiting), and which
  refuses badly worded actions before parsing them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Final, TypeVar

from ....core.errors import InvalidNotationError
from ....core.game import Action, ArgValue, State
from ....core.rules import Move, Param, PhaseTable, Refusal

__all__ = [
    "SHAPES",
    "IdMove",
    "WarfighterTable",
    "WordMove",
    "flag_param",
    "id_param",
    "shape_error",
]

S = TypeVar("S", bound=State)

#: Each action's words after its name: (notation, its rule, the optional last word).
SHAPES: Final[dict[str, tuple[str, str, str | None]]] = {
    "move": ("move S L", "WF-C2", None),
    "attack": ("attack S H [door]", "WF-C4", "door"),
    "pick": ("pick S H [up]", "WF-D5", "up"),
    "check": ("check S K [up]", "WF-A5", "up"),
    "roll": ("roll S K [up]", "WF-A9", "up"),
    "end": ("end", "WF-C7", None),
}


def shape_error(kind: str, args: tuple[int | str, ...]) -> tuple[str, str] | None:
    """Why ``args`` do not fit the action's notation, with the rule, or None if they do."""
    notation, rule, last = SHAPES[kind]
    if kind == "end":
        if args:
            return "end takes no arguments: it ends the whole Soldier Turn", rule
        return None
    if len(args) == 3 and args[2] == "up" and last != "up":
        # Only ability checks may be upgunned (a move or an attack has no number).
        return f"{kind} cannot be upgunned: only ability checks and picks can", "WF-A7"
    if len(args) < 2 or len(args) > 3 or (len(args) == 3 and args[2] != last):
        return f"{kind} is written {notation}", rule
    return None


def id_param(name: str) -> Param:
    """An id the action names (``S1``, ``H3``, ``K4``, ``L2``), as text. Any argument
    parses: one that names nothing in play is refused by the move's check, under the
    rule it breaks (a Soldier that is not in the squad, WF-C1; a Hostile that is not
    in play, WF-C3; ...)."""
    return Param(name, str, str)


def flag_param(word: str) -> Param:
    """An optional last word (``door``, ``up``): ``True`` when given (see
    :class:`WordMove`)."""

    def parse(value: ArgValue) -> bool:
        if value != word:
            raise ValueError(f"expected {word!r}, not {value!r}")
        return True

    return Param(word, parse, lambda on: word)


@dataclass(frozen=True, slots=True)
class WordMove(Move[S]):
    """A move whose last parameter is an optional word (:func:`flag_param`):
    ``attack S1 H3`` parses to ``(S1, H3, False)``, ``attack S1 H3 door`` to
    ``(S1, H3, True)``, and back. Its other parameters are ids (:func:`id_param`),
    which are their own wire form."""

    def action(self, seat: str, args: tuple[Any, ...]) -> Action:
        head = args[:-1]
        return Action(seat, self.kind, (*head, self.params[-1].name) if args[-1] else head)

    def parse(self, action: Action) -> tuple[Any, ...] | None:
        n = len(self.params)
        if len(action.args) not in (n - 1, n):
            return None
        try:
            out = tuple(p.parse(a) for p, a in zip(self.params, action.args, strict=False))
        except (ValueError, KeyError, InvalidNotationError):
            return None
        return out if len(action.args) == n else (*out, False)


@dataclass(frozen=True, slots=True)
class IdMove(Move[S]):
    """A move whose parameters are all ids (:func:`id_param`), their own wire form:
    ``move S1 L2``, ``end``."""

    def action(self, seat: str, args: tuple[Any, ...]) -> Action:
        return Action(seat, self.kind, args)


@dataclass(frozen=True)
class WarfighterTable(PhaseTable[S]):
    """A phase table with three things the core's lacks (see the module doc).

    Attributes:
        order: phase -> the candidates of all its moves in the legal list's order, each
            ``(kind, typed args)``: the game lists a Soldier's moves, then per Hostile
            its attacks and picks, then its checks, Soldier by Soldier. (Each move's
            ``options`` are the same candidates, of its kind.)
        refusals: phase -> the refusal of any kind the phase does not allow, from the
            state (``the Fail check K3 must be rolled first``), instead of
            ``phase_rules``' fixed one.
        notation: the refusal of an action whose words do not fit its kind (from
            :func:`shape_error`), or of a kind the game does not have, before its
            arguments are parsed; ``None`` when the words fit.
    """

    order: Mapping[Enum, Callable[[S, str], Iterable[tuple[str, tuple[Any, ...]]]]] = field(
        default_factory=dict
    )
    refusals: Mapping[Enum, Callable[[S], Refusal]] = field(default_factory=dict)
    notation: Callable[[S, Action], Refusal | None] | None = None
    _kinds: Mapping[Enum, Mapping[str, Move[S]]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        kinds = {phase: {m.kind: m for m in moves} for phase, moves in self.moves.items()}
        object.__setattr__(self, "_kinds", kinds)

    def legal_actions(self, state: S, seat: str) -> list[Action]:
        phase = self.phase(state)
        order = self.order.get(phase)
        if order is None:
            return PhaseTable.legal_actions(self, state, seat)
        moves = self._kinds[phase]
        out: list[Action] = []
        for kind, args in order(state, seat):
            move = moves[kind]
            if move.check(state, seat, args) is None:
                out.append(move.action(seat, args))
        return out

    def explain(self, state: S, action: Action) -> Refusal:
        phase = self.phase(state)
        refuse = self.refusals.get(phase)
        if refuse is not None and self._move(state, action.kind) is None:
            return refuse(state)
        if self.notation is not None:
            found = self.notation(state, action)
            if found is not None:
                return found
        return PhaseTable.explain(self, state, action)
