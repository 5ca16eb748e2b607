"""The registry: rule sets by id and alias, built-in ones loaded on first use, plug-ins
by ``package.module:attribute``."""

from __future__ import annotations

import importlib
from typing import Any

from ..errors import RulesError
from . import protocol
from .protocol import Ruleset

# --------------------------------------------------------------------------- registry


_REGISTRY: dict[str, Ruleset] = {}
_ALIASES: dict[str, str] = {}
_BUILTIN_MODULES: tuple[str, ...] = ("fogofwar.games",)
#: Each ``module:attribute`` reference a rule set was loaded by, to its id.
_REFS: dict[str, str] = {}


def register(ruleset: Ruleset) -> Ruleset:
    """Register a rule set under its id and aliases; returns it (usable as a decorator)."""
    for name in (ruleset.id, *ruleset.aliases):
        owner = _ALIASES.get(name)
        if owner is not None and owner != ruleset.id:
            raise TypeError(f"rule set name {name!r} already belongs to {owner!r}")
    _REGISTRY[ruleset.id] = ruleset
    for name in (ruleset.id, *ruleset.aliases):
        _ALIASES[name] = ruleset.id
    return ruleset


def _reduce(ruleset: Ruleset) -> tuple[Any, ...] | None:
    """How ``ruleset`` pickles: as its id and the name another process loads it by, when
    it is the registry's own and has such a name (built in, or a plug-in loaded by its
    ``module:attribute``); else ``None``, as its object (a plug-in registered by its own
    code, with arguments of its own, is made again from its fields)."""
    if _REGISTRY.get(ruleset.id) is not ruleset:
        return None
    ref: str | None = ruleset_ref(ruleset)
    if ref != ruleset.id:  # a plug-in: the reference it was loaded by, if any
        ref = next((r for r, i in _REFS.items() if i == ruleset.id), None)
    return None if ref is None else (_registered, (ruleset.id, ref))


def _registered(ruleset_id: str, ref: str) -> Ruleset:
    """A pickled rule set back: the registry's own (this process, or a plug-in loaded
    by ``ref`` in another).

    Raises:
        RulesError: ``ref`` loads a rule set of another id.
    """
    _load_builtins()
    found = _REGISTRY.get(ruleset_id)
    if found is not None:
        return found
    loaded = get_ruleset(ref)
    if loaded.id != ruleset_id:
        raise RulesError(f"rule set {ref!r} is {loaded.id!r}, not the pickled {ruleset_id!r}")
    return loaded


# Set here, not imported there: the protocol knows nothing of the registry.
protocol._registered_reduce = _reduce


def _load_builtins() -> None:
    for mod in _BUILTIN_MODULES:
        importlib.import_module(mod)


def registered_rulesets() -> dict[str, Ruleset]:
    """Every registered rule set by id (built-in ones are loaded first)."""
    _load_builtins()
    return dict(_REGISTRY)


def get_ruleset(name: str) -> Ruleset:
    """Return a rule set by id, alias, or ``package.module:attribute`` reference.

    The ``module:attribute`` form loads a rule set that is not built in (a plug-in, or
    a test's example game); the attribute may be a :class:`Ruleset` instance or class.

    Raises:
        RulesError: no such rule set (the message lists the known ones).
    """
    _load_builtins()
    if name in _ALIASES:
        return _REGISTRY[_ALIASES[name]]
    if ":" in name:
        module_name, _, attr = name.partition(":")
        try:
            obj: object = getattr(importlib.import_module(module_name), attr)
        except (ImportError, AttributeError) as exc:
            raise RulesError(f"cannot load rule set {name!r}: {exc}") from None
        if isinstance(obj, type) and issubclass(obj, Ruleset):
            obj = obj()
        if not isinstance(obj, Ruleset):
            raise RulesError(f"{name!r} is not a rule set")
        if obj.id not in _REGISTRY:
            register(obj)
        _REFS[name] = obj.id
        return _REGISTRY[obj.id]
    known = ", ".join(sorted(_REGISTRY)) or "none yet"
    raise RulesError(f"unknown rule set {name!r} (known: {known})")


def registered_ruleset(name: str) -> Ruleset:
    """Return a rule set already registered in this process, by id, alias or the
    ``package.module:attribute`` reference it was loaded by, importing nothing.

    For names that come from outside (a web table's request): :func:`get_ruleset`
    imports the module a reference names, which runs that module's code.

    Raises:
        RulesError: no registered rule set of that name (the message lists them).
    """
    _load_builtins()
    if name in _ALIASES:
        return _REGISTRY[_ALIASES[name]]
    if name in _REFS:
        return _REGISTRY[_REFS[name]]
    for ruleset in _REGISTRY.values():
        cls = type(ruleset)
        if name == f"{cls.__module__}:{cls.__name__}":
            return ruleset
    known = ", ".join(sorted(_REGISTRY)) or "none yet"
    raise RulesError(f"unknown rule set {name!r} (known: {known})")


def ruleset_ref(ruleset: Ruleset) -> str:
    """A name that :func:`get_ruleset` resolves in another process (for workers)."""
    if _ALIASES.get(ruleset.id) == ruleset.id and _is_builtin(ruleset):
        return ruleset.id
    cls = type(ruleset)
    return f"{cls.__module__}:{cls.__name__}"


def _is_builtin(ruleset: Ruleset) -> bool:
    return any(type(ruleset).__module__.startswith(m) for m in _BUILTIN_MODULES)
