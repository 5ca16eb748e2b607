"""The registry: rule sets by id and alias, built-in ones loaded on first use, plug-ins
by ``package.module:attribute``."""

from __future__ import annotations

import importlib

from ..errors import RulesError
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
    # Pickled (or deep-copied), it comes back as the registry's own instance, loaded by
    # the name another process knows it by (Ruleset.__reduce__).
    ruleset._pickled_as = (get_ruleset, (ruleset_ref(ruleset),))
    return ruleset


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
