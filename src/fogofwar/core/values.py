"""Copying a game state without a list of its fields: the derived ``clone``.

A state's fields hold *values*: immutable objects (numbers, strings, tuples, frozensets,
frozen dataclasses, the rule set's tables) and the mutable containers built from them
(lists, dicts, sets, dataclasses that are not frozen). :func:`fresh` copies exactly the
mutable part, recursively, and shares the rest. A new field is then copied without
anyone remembering to add it to a hand-written ``clone`` — the bug such lists invite
(Specter Ops shared its accusations dict between a state and its clones).

It is much faster than :func:`copy.deepcopy` (which also copies every immutable value
and keeps a memo), and the protocol's conformance suite checks each rule set's clones for
independence.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, TypeVar, cast

__all__ = ["fresh", "fresh_fields"]

T = TypeVar("T")

# type -> how fresh copies it: "" (an immutable value: shared), "list", "dict", "set",
# "dataclass" (a mutable dataclass: its fields), "clone" (an object with a clone()).
_HOW: dict[type, str] = {
    int: "", str: "", bool: "", float: "", type(None): "", tuple: "", frozenset: "",
    list: "list", dict: "dict", set: "set",
}  # fmt: skip
# The types whose values are shared (how == ""), as a set: a membership test is what a
# copy asks of every field.
_SHARED: set[type] = {t for t, how in _HOW.items() if not how}
_COPIERS: dict[type, Callable[[Any], Any]] = {}  # a mutable dataclass -> its copier


def _copier(cls: type) -> Callable[[Any], Any]:
    """A function that copies a mutable dataclass of ``cls`` as :func:`fresh` does: a new
    object whose every field is the old one's value, or a fresh copy of it where it is
    mutable. Written out field by field (as :mod:`dataclasses` writes its methods), since
    a state copies its pieces for every sampled world of a search: a field shared is one
    attribute read and one store, not a call through :func:`fresh` and
    ``object.__setattr__``."""
    names = tuple(f.name for f in dataclasses.fields(cls))
    lines = ["def copy(value):", "    out = new(cls)"]
    # A class with its own __setattr__ is set around it, as object.__setattr__ does.
    plain = not any("__setattr__" in vars(k) for k in cls.__mro__ if k is not object)
    for name in names:
        lines.append(f"    x = value.{name}")
        value = "x if type(x) in shared else fresh(x)"
        if plain:
            lines.append(f"    out.{name} = {value}")
        else:
            lines.append(f"    setattr_(out, {name!r}, {value})")
    lines.append("    return out")
    scope: dict[str, Any] = {
        "new": object.__new__,
        "cls": cls,
        "shared": _SHARED,
        "fresh": fresh,
        "setattr_": object.__setattr__,
    }
    exec("\n".join(lines), scope)  # the code above is made of field names only
    return cast(Callable[[Any], Any], scope["copy"])


def _learn(cls: type) -> str:
    """How to copy values of a type not met before (found once per type)."""
    params = getattr(cls, "__dataclass_params__", None)
    if params is not None and not params.frozen:
        how = "dataclass"
        _COPIERS[cls] = _copier(cls)
    elif callable(getattr(cls, "clone", None)):
        how = "clone"  # a mutable object that knows how to copy itself (a Pile)
    elif issubclass(cls, list | dict | set):
        how = "list" if issubclass(cls, list) else "dict" if issubclass(cls, dict) else "set"
    else:
        how = ""  # a value: frozen dataclasses, the rule set's tables
    _HOW[cls] = how
    if not how:
        _SHARED.add(cls)
    return how


def _one_copier(kinds: set[type]) -> Callable[[Any], Any] | None:
    """The copier of the one mutable dataclass that ``kinds`` holds, if that is all it
    holds (learned already): a container of pieces is copied without going through
    :func:`fresh` for each."""
    if len(kinds) != 1:
        return None
    (kind,) = kinds
    return _COPIERS.get(kind)


def fresh(value: T) -> T:
    """A copy of ``value`` that shares nothing mutable with it (see the module doc)."""
    cls = type(value)
    how = _HOW.get(cls)
    if how is None:
        how = _learn(cls)
    if not how:
        return value
    out: Any
    if how == "list":
        items: Any = value
        kinds = set(map(type, items))
        if kinds <= _SHARED:
            out = list(items)
        elif (copy := _one_copier(kinds)) is not None:
            out = [copy(v) for v in items]  # a list of one kind of piece
        else:
            out = [fresh(v) for v in items]
    elif how == "dict":
        mapping: Any = value
        kinds = set(map(type, mapping.values()))
        if kinds <= _SHARED:
            out = dict(mapping)
        elif (copy := _one_copier(kinds)) is not None:
            out = {k: copy(v) for k, v in mapping.items()}  # pieces by id, say
        else:
            out = {k: fresh(v) for k, v in mapping.items()}
    elif how == "set":
        out = set(value)  # type: ignore[call-overload]
    elif how == "clone":
        out = value.clone()  # type: ignore[attr-defined]
    else:
        out = _COPIERS[cls](value)
    return out  # type: ignore[no-any-return]


def fresh_fields(obj: T) -> T:
    """A copy of an object (a game state) whose every field is :func:`fresh`."""
    new = object.__new__(type(obj))
    shared = _SHARED
    new.__dict__.update(
        {
            name: value if type(value) in shared else fresh(value)
            for name, value in vars(obj).items()
        }
    )
    return new
