"""Options and configurations: every option and ruling switch of a rule set, typed, with
defaults and help (:class:`ConfigSchema`, :class:`Option`, :class:`Config`)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from ..errors import RulesError
from .actions import JSON, canonical_json

# --------------------------------------------------------------------------- config


_TYPE_NAMES: dict[type, str] = {bool: "bool", int: "int", float: "float", str: "str"}


@dataclass(frozen=True, slots=True)
class Option:
    """One typed option or ruling switch of a rule set.

    Attributes:
        name: the key used with ``--set name=value``.
        type: ``bool``, ``int``, ``float`` or ``str``.
        default: the default (for a ruling switch: the ruling).
        help: a sentence for people.
        choices: the allowed values, if restricted.
        minimum: the least allowed value (numbers).
        maximum: the greatest allowed value (numbers).
        rule: the rule ID the option belongs to, if any.
        filled: the program fills it in (a record's digest of a data file), so it is no
            choice for people: the lobby's form leaves it out and ``rulesets`` marks it;
            ``--set`` and the API still take it, as a record replays it.
        file_suffix: the option reads a data file (a board, a map, a mission): a value
            other than the ``offered`` names is a file's path, ending in this suffix.
            The command line may name any file; a web table's request only the offered
            names and the files its operator offers (docs/server.md).
        offered: the values offered by name (the shipped boards or missions): a
            pick-list, not a restriction (``choices`` restricts).
    """

    name: str
    type: type
    default: Any
    help: str
    choices: tuple[Any, ...] | None = None
    minimum: float | None = None
    maximum: float | None = None
    rule: str | None = None
    filled: bool = False
    file_suffix: str | None = None
    offered: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.type not in _TYPE_NAMES:
            raise TypeError(f"option {self.name}: type must be bool, int, float or str")
        # The default must itself pass validation; a schema bug should fail loudly.
        self.validate(self.default)

    def validate(self, value: Any) -> Any:
        """Return ``value`` checked (and ints widened to float where declared).

        Raises:
            RulesError: the value has the wrong type or is out of range.
        """
        t = self.type
        if t is float and isinstance(value, int) and not isinstance(value, bool):
            value = float(value)
        ok = isinstance(value, t) and (t is bool or not isinstance(value, bool))
        if not ok:
            raise RulesError(f"option {self.name}: expected {_TYPE_NAMES[t]}, got {value!r}")
        if self.choices is not None and value not in self.choices:
            allowed = ", ".join(str(c) for c in self.choices)
            raise RulesError(f"option {self.name}: {value!r} is not one of {allowed}")
        if self.minimum is not None and value < self.minimum:
            raise RulesError(f"option {self.name}: {value!r} is below {self.minimum}")
        if self.maximum is not None and value > self.maximum:
            raise RulesError(f"option {self.name}: {value!r} is above {self.maximum}")
        return value

    def parse(self, text: str) -> Any:
        """Parse the text of ``--set name=text`` and validate it."""
        t = self.type
        value: Any
        if t is bool:
            low = text.strip().lower()
            if low in {"1", "true", "yes", "on"}:
                value = True
            elif low in {"0", "false", "no", "off"}:
                value = False
            else:
                raise RulesError(f"option {self.name}: expected true/false, got {text!r}")
        elif t is int:
            try:
                value = int(text)
            except ValueError:
                raise RulesError(f"option {self.name}: expected an integer, got {text!r}") from None
        elif t is float:
            try:
                value = float(text)
            except ValueError:
                raise RulesError(f"option {self.name}: expected a number, got {text!r}") from None
        else:
            value = text
        return self.validate(value)

    def to_json(self) -> dict[str, JSON]:
        """Return the JSON form (for the lobby and ``--help`` listings)."""
        return {
            "name": self.name,
            "type": _TYPE_NAMES[self.type],
            "default": self.default,
            "help": self.help,
            "choices": list(self.choices) if self.choices is not None else None,
            "minimum": self.minimum,
            "maximum": self.maximum,
            "rule": self.rule,
            "filled": self.filled,
            "file_suffix": self.file_suffix,
            "offered": list(self.offered),
        }


class Config(Mapping[str, Any]):
    """An immutable, fully resolved configuration: every option of the schema, validated."""

    __slots__ = ("_values",)

    def __init__(self, values: Mapping[str, Any]) -> None:
        self._values = dict(values)

    def __getitem__(self, key: str) -> Any:
        return self._values[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def __hash__(self) -> int:
        return hash(canonical_json(self._values))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Mapping) and dict(self._values) == dict(other)

    def __repr__(self) -> str:
        return f"Config({self._values!r})"

    def to_json(self) -> dict[str, JSON]:
        """Return the JSON form."""
        return dict(self._values)


@dataclass(frozen=True, slots=True)
class ConfigSchema:
    """Every option of a rule set, in a fixed order."""

    options: tuple[Option, ...] = ()

    def __post_init__(self) -> None:
        names = [o.name for o in self.options]
        if len(set(names)) != len(names):
            raise TypeError(f"duplicate option names in {names}")

    def option(self, name: str) -> Option:
        """Return the option called ``name`` (:class:`RulesError` naming the known ones)."""
        for o in self.options:
            if o.name == name:
                return o
        known = ", ".join(o.name for o in self.options) or "none"
        raise RulesError(f"unknown option {name!r} (options: {known})")

    def defaults(self) -> Config:
        """Return the configuration with every option at its default."""
        return Config({o.name: o.default for o in self.options})

    def resolve(self, overrides: Mapping[str, Any] | None = None) -> Config:
        """Return the defaults with ``overrides`` applied and validated."""
        values = {o.name: o.default for o in self.options}
        for name, value in (overrides or {}).items():
            values[name] = self.option(name).validate(value)
        return Config(values)

    def parse_sets(self, assignments: Iterable[str]) -> dict[str, Any]:
        """Parse ``key=value`` strings (as given to ``--set``) into typed overrides.

        Raises:
            RulesError: not ``key=value``, an unknown option or a bad value, or an option
                set twice (the later would silently win: a study file refuses it too).
        """
        out: dict[str, Any] = {}
        given: dict[str, str] = {}
        for text in assignments:
            name, sep, raw = text.partition("=")
            if not sep or not name.strip():
                raise RulesError(f"expected key=value, got {text!r}")
            key = name.strip()
            out[key] = self.option(key).parse(raw.strip())
            if key in given:
                raise RulesError(f"{key} is set twice: {given[key]} and {text.strip()}")
            given[key] = text.strip()
        return out

    def to_json(self) -> list[dict[str, JSON]]:
        """Return the JSON form."""
        return [o.to_json() for o in self.options]
