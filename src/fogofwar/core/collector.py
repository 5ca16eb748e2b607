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
"""

from __future__ import annotations

import gc
from types import TracebackType

__all__ = ["CollectorPaused", "freeze_loaded"]


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
