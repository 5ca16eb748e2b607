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
"""

from __future__ import annotations

import gc
from types import TracebackType

__all__ = ["CollectorPaused"]


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
