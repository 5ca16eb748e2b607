"""Types of the C extension ``fogofwar.core._bitsets`` (see fogofwar.core.bitsets)."""

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

KNOWN_HASH: int
"""1 where dicts are read and written with hashes worked out here (CPython 3.11–3.12)."""

def canon(rects: Iterable[tuple[int, int, int]], /) -> tuple[tuple[int, int, int], ...]: ...
def narrow(
    parts: Sequence[tuple[int, int, int]], short_bits: int, long_bits: int, /
) -> tuple[tuple[int, int, int], ...]: ...
def played(
    parts: Sequence[tuple[int, int, int]],
    ways: Sequence[tuple[object, int, bool, int | None]],
    targets: Sequence[tuple[int, ...]],
    /,
) -> tuple[tuple[tuple[tuple[int, int, int], ...], tuple[tuple[int, int, int], ...]], ...]: ...
def squares(parts: Sequence[tuple[int, int, int]], /) -> int: ...

class Stepper:
    def __init__(self, directions: Sequence[tuple[int, int]], free: int) -> None: ...
    def __call__(self, frontier: int, /) -> int: ...
    def walk(self, start: int, seen: int, short: int, total: int, /) -> list[int]: ...
    def walks(self, seen: int, short: int, total: int, longer: int, /) -> Walks: ...

class Walks:
    def parts(
        self, parts: Sequence[tuple[int, int, int]], no_end: int, longer: bool, /
    ) -> tuple[tuple[int, int, int], ...]: ...

class Splitter:
    def __init__(self, union: int, ruled: Sequence[tuple[int, int]]) -> None: ...
    def __call__(
        self, parts: Sequence[tuple[int, int, int]], squares: int, assignments: int, /
    ) -> tuple[tuple[int, int, int], ...]: ...

def keys_after(
    made: Iterable[tuple[int, int, frozenset[Any]]], /
) -> dict[tuple[int, int], frozenset[Any]]: ...
def ored(
    groups: Sequence[
        tuple[
            tuple[int, int, int],
            tuple[int, ...],
            tuple[tuple[tuple[int, ...], frozenset[Any]], ...],
        ]
    ],
    ways: Sequence[tuple[Any, int, bool]],
    full: int,
    /,
) -> tuple[dict[tuple[tuple[int, int, int], ...], frozenset[Any]], int, bool]: ...
def narrowed(
    groups: Mapping[tuple[tuple[int, int, int], ...], frozenset[Any]],
    short_bits: int,
    long_bits: int,
    /,
) -> tuple[dict[tuple[tuple[int, int, int], ...], frozenset[Any]], int, bool]: ...
def merged(
    pairs: Iterable[tuple[tuple[tuple[int, int, int], ...], frozenset[Any], int]], /
) -> tuple[dict[tuple[tuple[int, int, int], ...], frozenset[Any]], int, bool]: ...
def grouped(
    pairs: Iterable[tuple[tuple[tuple[int, int, int], ...], frozenset[Any]]],
    known: Mapping[tuple[tuple[int, int, int], ...], Any] | None,
    /,
) -> dict[tuple[tuple[int, int, int], ...], frozenset[Any]]: ...
def hash_of(value: object, /) -> int: ...
