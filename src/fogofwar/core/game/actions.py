"""Actions and events: what a seat does, and what happened and who learns of it.

* :class:`Action` — one step of play, always carrying the seat that takes it. A move of
  several squares is several ``step`` actions closed by ``stop``; text notation such as
  ``move N1 N2 M3`` is shorthand that :meth:`Ruleset.parse_actions` expands.
* :class:`Event` — something that happened, addressed to everyone (``to=None``) or to
  some seats only. Seats learn hidden facts only through events addressed to them.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeAlias

from ..errors import InvalidNotationError

JSON: TypeAlias = Any
"""A value made of dicts, lists, strings, ints, floats, bools and None."""

ArgValue: TypeAlias = int | str
"""Action arguments are ints and strings only, so actions hash, sort and encode."""


def canonical_json(value: JSON) -> str:
    """Serialise JSON data canonically (sorted keys, no spaces), for byte comparisons."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


# --------------------------------------------------------------------------- actions


@dataclass(frozen=True, slots=True, order=True)
class Action:
    """One action of one seat.

    Attributes:
        seat: the seat that takes the action (every action carries its seat).
        kind: what kind of action, e.g. ``"step"``, ``"stop"``, ``"choose"``, ``"pass"``.
        args: the action's arguments (ints and strings), e.g. ``("N2",)``.
    """

    seat: str
    kind: str
    args: tuple[ArgValue, ...] = ()
    # The hash, worked out once: search and the action masks look actions up in dicts
    # many times each. Not part of the value (equality, order, repr) nor of a pickle
    # (a string's hash differs between processes: ``__reduce__`` makes it anew).
    _hash: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        for a in self.args:
            if isinstance(a, bool) or not isinstance(a, int | str):
                raise TypeError(f"action arguments are ints or strings, got {a!r}")
        object.__setattr__(self, "_hash", hash((self.seat, self.kind, self.args)))

    def __hash__(self) -> int:
        return self._hash

    def __reduce__(self) -> tuple[type[Action], tuple[str, str, tuple[ArgValue, ...]]]:
        return (type(self), (self.seat, self.kind, self.args))

    def __str__(self) -> str:
        return " ".join([self.kind, *(str(a) for a in self.args)])

    def to_json(self) -> dict[str, JSON]:
        """Return the JSON form ``{"seat": ..., "kind": ..., "args": [...]}``."""
        return {"seat": self.seat, "kind": self.kind, "args": list(self.args)}

    @classmethod
    def from_json(cls, data: JSON) -> Action:
        """Build an action from its JSON form (:class:`InvalidNotationError` if malformed)."""
        if not isinstance(data, Mapping):
            raise InvalidNotationError(str(data), "an action is an object with seat, kind, args")
        seat, kind, args = data.get("seat"), data.get("kind"), data.get("args", [])
        if not isinstance(seat, str) or not isinstance(kind, str) or not isinstance(args, list):
            raise InvalidNotationError(
                canonical_json(data), 'expected {"seat": str, "kind": str, "args": [...]}'
            )
        for a in args:
            if isinstance(a, bool) or not isinstance(a, int | str):
                raise InvalidNotationError(
                    canonical_json(data), f"action arguments are ints or strings, not {a!r}"
                )
        return cls(seat, kind, tuple(args))


# --------------------------------------------------------------------------- events


#: The JSON-ready types that are containers (copied, never shared, between a state's
#: log and the views).
_CONTAINERS: frozenset[type] = frozenset({list, dict, tuple})


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened in the game.

    Attributes:
        kind: e.g. ``"moved"``, ``"revealed"``, ``"rolled"``.
        data: JSON-ready details.
        to: the seats that learn of it; ``None`` means everyone, spectators included.
    """

    kind: str
    data: Mapping[str, JSON] = field(default_factory=dict)
    to: frozenset[str] | None = None
    #: Whether a field is a list, a dict or a tuple (copied for each view); worked out
    #: at the first :meth:`to_json`.
    _nested: bool | None = field(default=None, init=False, repr=False, compare=False)

    def visible_to(self, seat: str | None) -> bool:
        """Whether ``seat`` (``None`` = spectator) receives this event."""
        return self.to is None or (seat is not None and seat in self.to)

    def to_json(self) -> dict[str, JSON]:
        """Return the JSON form (the audience is not part of what a seat receives): a
        fresh value, so that a seat that writes into its view (a bot's careless edit)
        changes neither the log nor what any seat is told later."""
        # (getattr: an Event pickled before the field existed has it unset.)
        nested = getattr(self, "_nested", None)
        if nested is None:
            nested = any(type(v) in _CONTAINERS for v in self.data.values())
            object.__setattr__(self, "_nested", nested)
        if not nested:  # plain fields only (most events): nothing to copy
            return {"kind": self.kind, **self.data}
        return {"kind": self.kind, **{k: fresh_json(v) for k, v in self.data.items()}}


def fresh_json(value: Any) -> Any:
    """A copy of JSON-ready ``value`` that shares no list or dict with it (tuples are
    rebuilt too, for the lists they may hold); anything else is immutable and kept."""
    kind = type(value)
    if kind is list:
        return [fresh_json(v) for v in value]
    if kind is dict:
        return {k: fresh_json(v) for k, v in value.items()}
    if kind is tuple:
        return tuple(fresh_json(v) for v in value)
    return value


def emit(
    log: list[Event],
    kind: str,
    /,
    *,
    to: Iterable[str] | None = None,
    data: Mapping[str, JSON] | None = None,
    **fields: JSON,
) -> Event:
    """Append an event to a state's log and return it: the one way every rule set
    records what happened.

    Args:
        log: the state's event log.
        kind: the event's kind.
        to: the seats told; ``None``, everyone.
        data: the event's fields as a mapping, for a field whose name is not a keyword
            argument (``to``, ``from``); ``fields`` are added to it.
        **fields: the event's fields.
    """
    body = fields if data is None else {**data, **fields}
    # The log keeps what happened: a list or dict the state goes on changing (a goal's
    # points, a roll's faces) is copied, not shared.
    for value in body.values():
        if type(value) in _CONTAINERS:
            body = {k: fresh_json(v) for k, v in body.items()}
            break
    event = Event(kind, body, None if to is None else frozenset(to))
    log.append(event)
    return event


def _plain(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list | tuple):
        return ", ".join(_plain(v) for v in value)
    if isinstance(value, Mapping):
        return " ".join(_plain(v) for v in value.values())
    return str(value)


def plain_event(event: Mapping[str, Any]) -> str:
    """An event's JSON form as a line for people when its rule set has no sentence for
    it: its kind, then each field that has a value (``attack: hunter H2, distance 3, dice
    1, 6, hit yes``), never a Python repr."""
    kind = str(event.get("kind", "event")).replace("_", " ")
    fields = [
        f"{str(k).replace('_', ' ')} {_plain(v)}"
        for k, v in event.items()
        if k != "kind" and v is not None and v != [] and v != ""
    ]
    return f"{kind}: {', '.join(fields)}" if fields else kind


def sentence(table: Mapping[str, Any], event: Mapping[str, Any]) -> str | None:
    """``table[kind](event)``: a rule set's sentence for an event, or ``None`` when it has
    none for that kind or the event lacks a field the sentence reads (then the caller
    falls back to :func:`plain_event`)."""
    make = table.get(str(event.get("kind")))
    if make is None:
        return None
    try:
        return str(make(event))
    except (KeyError, TypeError, ValueError):
        return None
