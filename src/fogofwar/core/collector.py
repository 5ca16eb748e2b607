"""Pausing Python's cyclic garbage collector around work that makes no cycles.

Some work makes tens of thousands of small containers at once — a fact worked into a
possibility map, a geometry's table of sight runs. Each few hundred of them starts a
collection, and every so often a full one, which walks every object of the process
(about 25–30 ms once the package and numpy are imported, on the development machine)
and finds nothing to free: that work makes no reference cycles, and reference counting
frees it as soon as it is dropped. :class:`CollectorPaused` keeps the collector off for
the length of a ``with`` block and leaves it as it found it: on if it was on (whatever
the block raised), off if the caller had turned it off.

Only for code that makes no cycles: cyclic garbage made inside waits for the next
collection after the block, which is all the pause changes.

A full collection that lands between two facts still walks every object of the process,
and most of them are what the imports made: :func:`freeze_loaded` (``gc.freeze``) sets
those aside once a long-lived process has loaded what it serves, so that such a
collection walks only what came later (``fogofwar serve`` does it before it listens).

What a process keeps as it goes — the caches of values it has worked out — a full
collection walks too, item by item. :func:`settle` takes immutable values out of its
sight: CPython stops tracking a tuple of atoms by itself, never a frozenset, and a cache
of frozensets of such tuples (sets of hidden keys, say) is walked entry by entry at
every full collection for as long as it is kept. Measured in random play of Specter
Ops with characters at 2–5 players (``bench/bench_openspiel_peer.py``), the longest full
collection of a row was 31–51 ms, most of it walking such caches; with their sets
settled, 25–35 ms, and 7–12 ms in a process frozen as the server's is.
"""

from __future__ import annotations

import functools
import gc
import os
from collections.abc import Callable
from types import TracebackType
from typing import ParamSpec, TypeVar

__all__ = ["NATIVE", "CollectorPaused", "freeze_loaded", "settle", "settled_cache"]

_T = TypeVar("_T")
_P = ParamSpec("_P")


class CollectorPaused:
    """``with CollectorPaused(): ...`` runs the block with the cyclic collector off.

    A class rather than a generator-based context manager: it is entered on the hot
    path (every fact of a possibility map), where the generator's frame costs more.
    """

    __slots__ = ("_was_on",)

    def __enter__(self) -> None:
        self._was_on = gc.isenabled()
        if self._was_on:
            gc.disable()

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        if self._was_on:
            gc.enable()


def freeze_loaded() -> int:
    """Move every object alive now into the collector's permanent generation.

    For a long-lived process, once it has imported and built what it serves (modules,
    rule sets, boards): full collections then skip those objects, which never become
    garbage, so a collection that lands inside a player's action walks only what the
    games made since. Measured at 3 players with characters: the slowest ``apply`` of
    15 s of random play 44 → 17 ms, the slowest full collection 43 → 18 ms.

    Returns:
        how many objects are now frozen (``gc.get_freeze_count()``).
    """
    gc.collect()  # what is garbage now is freed first, not kept for ever
    gc.freeze()
    return gc.get_freeze_count()


def settle_py(value: _T) -> _T:
    """:func:`settle` where the C extension is not built: ``value`` as it is (Python
    offers no way to stop tracking an object; the collector then walks it, which costs
    time at full collections and changes nothing else)."""
    return value


settle: Callable[[_T], _T] = settle_py
"""``settle(value) -> value``: stop the cyclic collector tracking ``value``, and the
tuples and frozensets inside it, where each holds only values the collector does not
walk (ints, strings, None, ...) or such tuples and frozensets; anything else (a list, a
dict, an instance, a tuple holding one) is left tracked, and so is what holds it.

Safe because such values can never be part of a reference cycle: they are immutable
and hold nothing that could refer back. Reference counting still frees them, as it
frees everything else. For values kept long (caches), so that full collections do not
walk them. The C form is in ``fogofwar.core._collector`` (:data:`NATIVE`); without it,
:func:`settle_py`."""

NATIVE = False
"""Whether :func:`settle` is the C form (``FOGOFWAR_PURE_PYTHON=1`` picks the Python one,
as it does for :mod:`fogofwar.core.bitsets`)."""

if not os.environ.get("FOGOFWAR_PURE_PYTHON"):
    try:
        from fogofwar.core import _collector
    except ImportError:  # built without a C compiler: the values stay tracked
        pass
    else:
        settle = _collector.settle
        NATIVE = True


def settled_cache(
    maxsize: int,
) -> Callable[[Callable[_P, _T]], functools._lru_cache_wrapper[_T]]:
    """``functools.lru_cache(maxsize=maxsize)`` whose entries are settled (:func:`settle`)
    as they are made: the arguments, which the cache keeps as its key, and the value.

    For caches of immutable values (tuples and frozensets of atoms), so that a full
    collection does not walk them; whatever is not such a value is kept as lru_cache
    keeps it. A hit costs what lru_cache's does; a miss settles its entry once."""

    def wrap(fn: Callable[_P, _T]) -> functools._lru_cache_wrapper[_T]:
        @functools.wraps(fn)
        def made(*args: _P.args, **kwargs: _P.kwargs) -> _T:
            for arg in args:
                settle(arg)
            for arg in kwargs.values():
                settle(arg)
            return settle(fn(*args, **kwargs))

        return functools.lru_cache(maxsize=maxsize)(made)

    return wrap
