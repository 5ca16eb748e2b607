"""Type stub of the C extension ``fogofwar.core._collector`` (``_collector.c``)."""

from typing import TypeVar

_T = TypeVar("_T")

def settle(value: _T, /) -> _T: ...
