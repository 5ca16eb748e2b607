"""Odds as a protocol capability: a rule set declares the queries it answers exactly.

A rule set lists its :class:`OddsQuery` objects in :meth:`Ruleset.odds_queries
<fogofwar.core.game.Ruleset.odds_queries>`. Each names its typed parameters
(:class:`OddsParam`, with help, defaults and bounds) and a function that returns an
:class:`OddsAnswer`: the exact figures as JSON (fractions as ``"p/q"`` strings) and a
table for people. ``fogofwar odds RULESET QUERY --param value [--json]`` is built from the
declarations, for built-in and plug-in rule sets alike; nothing in the command line knows
a game.

The answer must come from the code that rolls: a query computes its figures from the
same dice objects (:mod:`fogofwar.core.dice`) or outcome functions the rules use, so the
odds a player reads are the odds the umpire plays.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .errors import RulesError

__all__ = ["OddsAnswer", "OddsParam", "OddsQuery", "find_query", "fraction_text", "percent"]


def fraction_text(p: Fraction | int) -> str:
    """An exact probability as JSON text: ``"5/36"``, ``"1"``, ``"0"``."""
    return str(Fraction(p))


def percent(p: Fraction | float | int | str) -> str:
    """A probability as a percentage with two decimals, for tables: ``"13.89"``. One that
    rounds to 0.00 or 100.00 without being 0 or 1 says so (``"<0.01"``, ``">99.99"``):
    "0.00" beside a possible outcome read as an impossible one."""
    x = Fraction(p)
    text = f"{float(x) * 100:.2f}"
    if x > 0 and text == "0.00":
        return "<0.01"
    if x < 1 and text == "100.00":
        return ">99.99"
    return text


_TYPES: dict[type, str] = {int: "integer", str: "text", bool: "flag"}


@dataclass(frozen=True, slots=True)
class OddsParam:
    """One parameter of an odds query (``--name value`` on the command line).

    Attributes:
        name: the keyword the answer function takes (``pick_modifier``); the option is
            ``--pick-modifier``.
        type: ``int``, ``str`` or ``bool`` (a flag, false unless given).
        help: a sentence for people.
        default: the value when the option is not given (``None``: none).
        required: the option must be given.
        minimum: the least value of an ``int``.
        maximum: the greatest value of an ``int``.
        choices: the allowed values of a ``str`` (matched without case).
    """

    name: str
    type: type
    help: str
    default: Any = None
    required: bool = False
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[str, ...] | None = None

    def __post_init__(self) -> None:
        if self.type not in _TYPES:
            raise TypeError(f"odds parameter {self.name}: type must be int, str or bool")
        if self.type is bool and self.default is None:
            object.__setattr__(self, "default", False)

    @property
    def option(self) -> str:
        """The command-line option: ``--pick-modifier``."""
        return "--" + self.name.replace("_", "-")

    def check(self, value: Any) -> Any:
        """Return ``value`` checked (a ``str`` choice lower-cased).

        Raises:
            RulesError: the wrong type, out of bounds, or not one of the choices.
        """
        if value is None:
            if self.required:
                raise RulesError(f"{self.option} is required: {self.help}")
            return self.default
        t = self.type
        if not isinstance(value, t) or (t is int and isinstance(value, bool)):
            raise RulesError(f"{self.option}: expected {_TYPES[t]}, got {value!r}")
        if isinstance(value, int) and not isinstance(value, bool):
            if self.minimum is not None and value < self.minimum:
                raise RulesError(f"{self.option}: {value} is below {self.minimum}")
            if self.maximum is not None and value > self.maximum:
                raise RulesError(f"{self.option}: {value} is above {self.maximum}")
        if isinstance(value, str) and self.choices is not None:
            low = value.lower()
            if low not in self.choices:
                raise RulesError(
                    f"{self.option}: {value!r} is not one of {', '.join(self.choices)}"
                )
            return low
        return value

    def to_json(self) -> dict[str, Any]:
        """The JSON form (for help pages and the web lobby)."""
        return {
            "name": self.name,
            "type": _TYPES[self.type],
            "help": self.help,
            "default": self.default,
            "required": self.required,
            "minimum": self.minimum,
            "maximum": self.maximum,
            "choices": list(self.choices) if self.choices is not None else None,
        }


@dataclass(frozen=True, slots=True)
class OddsAnswer:
    """The answer to an odds query.

    Attributes:
        data: the exact figures as JSON (``--json`` prints it as it is).
        table: a rich renderable (or text) for people.
    """

    data: Any
    table: object


@dataclass(frozen=True, slots=True)
class OddsQuery:
    """One kind of roll whose exact odds a rule set gives.

    Attributes:
        name: the query's name, e.g. ``"attack"`` (``fogofwar odds RULESET attack``).
        help: what it answers, for people.
        params: its parameters, in order.
        answer: the function, called with every parameter by name, checked.
        rules: the rule IDs the roll follows.
    """

    name: str
    help: str
    params: tuple[OddsParam, ...]
    answer: Callable[..., OddsAnswer]
    rules: tuple[str, ...] = ()

    def ask(self, values: Mapping[str, Any] | None = None) -> OddsAnswer:
        """Answer with ``values`` (parameter name -> value; the rest take defaults).

        Raises:
            RulesError: an unknown parameter or a bad value (and the answer's own
                refusals, e.g. a combination the rules do not allow).
        """
        given = dict(values or {})
        known = {p.name for p in self.params}
        unknown = sorted(set(given) - known)
        if unknown:
            raise RulesError(
                f"odds {self.name}: unknown parameter {unknown[0]!r} "
                f"(parameters: {', '.join(sorted(known)) or 'none'})"
            )
        args = {p.name: p.check(given.get(p.name)) for p in self.params}
        return self.answer(**args)

    def to_json(self) -> dict[str, Any]:
        """The JSON form."""
        return {
            "name": self.name,
            "help": self.help,
            "params": [p.to_json() for p in self.params],
            "rules": list(self.rules),
        }


def find_query(ruleset_id: str, queries: Sequence[OddsQuery], name: str) -> OddsQuery:
    """The query called ``name`` (without case).

    Raises:
        RulesError: no such query, naming the ones there are.
    """
    for q in queries:
        if q.name == name.lower():
            return q
    names = ", ".join(q.name for q in queries) or "none"
    raise RulesError(f"unknown roll {name!r} for {ruleset_id}; expected one of: {names}")
