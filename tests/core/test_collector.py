"""The collector pause: off inside the block, as it was after it (an error included);
what a long-lived process has loaded, set aside from full collections; immutable values
settled out of the collector's sight, and only those."""

from __future__ import annotations

import gc
import io
import os
import signal
import weakref
from pathlib import Path
from typing import NamedTuple

import pytest
import uvicorn
from rich.console import Console

from fogofwar.commands.serve import serve
from fogofwar.core import collector
from fogofwar.core.collector import CollectorPaused, freeze_loaded, settle_py, settled_cache

needs_c = pytest.mark.skipif(not collector.NATIVE, reason="settle's C form is not built")


def test_paused_inside_and_on_again_after() -> None:
    assert gc.isenabled()
    with CollectorPaused():
        assert not gc.isenabled()
        with CollectorPaused():  # nested: the inner block leaves it off
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()


def test_on_again_after_an_error() -> None:
    with pytest.raises(ValueError), CollectorPaused():
        raise ValueError("inside")
    assert gc.isenabled()


def test_left_off_when_the_caller_had_it_off() -> None:
    gc.disable()
    try:
        with CollectorPaused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_freeze_sets_what_is_alive_aside() -> None:
    kept = [object() for _ in range(100)]
    garbage: list[object] = []
    garbage.append(garbage)  # a cycle: freed by the collection before the freeze
    del garbage
    try:
        frozen = freeze_loaded()
        assert frozen == gc.get_freeze_count() > len(kept)
        assert gc.isenabled()
        # A full collection now walks only what came after.
        assert sum(len(gc.get_objects(g)) for g in range(3)) < frozen
    finally:
        gc.unfreeze()


def test_serve_freezes_what_it_loaded_before_it_listens(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # The web table's process: every rule set loaded and set aside before serving.
    seen: list[int] = []

    def run(self: uvicorn.Server, *args: object, **kwargs: object) -> None:
        seen.append(gc.get_freeze_count())

    monkeypatch.setattr(uvicorn.Server, "run", run)
    before = signal.getsignal(signal.SIGTERM)
    try:
        got = serve(
            host="127.0.0.1", port=1, db=tmp_path / "tables.db", sync="normal",
            bot_pause=0.0, new=None, seats=(), sets=(), seed=None,
            console=Console(file=io.StringIO()),
        )  # fmt: skip
    finally:
        gc.unfreeze()
        signal.signal(signal.SIGTERM, before)
    assert got == 0
    assert len(seen) == 1 and seen[0] > 10_000


# --------------------------------------------------------------------------- settle


def _key(i: int) -> tuple[tuple[str, bool], int, tuple[int, int, int]]:
    # Made at run time, as the map's keys are: new tuples start tracked.
    return ((f"H{i % 3}", bool(i % 2)), i, (i, -1, i % 4))


@needs_c
def test_settle_stops_tracking_frozensets_of_tuples_of_atoms() -> None:
    keys = frozenset(_key(i) for i in range(50))
    entry = ((("stop", ""),), ((0, 1), keys), keys)
    assert gc.is_tracked(keys) and gc.is_tracked(entry)
    assert collector.settle(entry) is entry
    assert not gc.is_tracked(entry) and not gc.is_tracked(keys)
    assert not any(gc.is_tracked(k) for k in keys)
    # Still the same values: equal, hashable, usable in set operations, and freed by
    # reference counting like any other (the collector only stops walking them).
    assert keys == frozenset(_key(i) for i in range(50))
    assert len(keys | {_key(99)}) == 51 and hash(keys) == hash(frozenset(keys))


class _Named(NamedTuple):
    a: int


class _Thing:
    pass


@needs_c
@pytest.mark.parametrize(
    "inside",
    [[1], {"a": 1}, {1}, _Thing(), _Named(1)],
    ids=["list", "dict", "set", "instance", "tuple subclass"],
)
def test_settle_leaves_tracked_what_may_hold_a_cycle(inside: object) -> None:
    # A value that can hold a reference back (mutable, or an instance) keeps itself and
    # every tuple holding it in the collector's sight.
    held = (1, ("x", inside))
    settle(held)
    assert gc.is_tracked(held) and gc.is_tracked(held[1])


@needs_c
@pytest.mark.parametrize("inside", [_Thing(), _Named(1)], ids=["instance", "tuple subclass"])
def test_settle_leaves_tracked_a_frozenset_holding_one(inside: object) -> None:
    held = frozenset({(1, inside), (2, "y")})
    settle(held)
    assert gc.is_tracked(held)


def settle(value: object) -> object:
    return collector.settle(value)


@needs_c
def test_a_cycle_through_a_list_is_still_collected() -> None:
    # The list stays tracked, so the cycle it makes through a settled-looking tuple is
    # found and freed (the instance in it dies with it).
    thing = _Thing()
    gone = weakref.ref(thing)
    cycle: list[object] = [thing]
    cycle.append((1, cycle))
    settle(cycle[1])
    assert gc.is_tracked(cycle[1])
    del cycle, thing
    gc.collect()
    assert gone() is None


@needs_c
def test_settle_leaves_values_past_its_depth_tracked() -> None:
    deep: object = frozenset({1})
    for _ in range(100):
        deep = (deep,)
    settle(deep)
    assert gc.is_tracked(deep)  # the outer tuples are past the guard's depth


def test_settle_py_is_the_value_as_it_is() -> None:
    keys = frozenset(_key(i) for i in range(5))
    assert settle_py(keys) is keys and gc.is_tracked(keys)


def test_settle_is_the_c_form_in_ci() -> None:
    if not os.environ.get("CI"):
        pytest.skip("outside CI the C form is optional")
    assert collector.NATIVE is not bool(os.environ.get("FOGOFWAR_PURE_PYTHON"))


def test_settled_cache_caches_and_settles_its_entries() -> None:
    calls: list[frozenset[object]] = []

    @settled_cache(8)
    def split(keys: frozenset[tuple[object, ...]]) -> tuple[frozenset[object], ...]:
        calls.append(keys)
        return (frozenset(k for k in keys if k[1] % 2), frozenset(k for k in keys if k[1] % 2 == 0))

    keys = frozenset(_key(i) for i in range(10))
    got = split(keys)
    assert split(keys) is got and calls == [keys]  # a hit: the cached value itself
    assert got == (
        frozenset(_key(i) for i in (1, 3, 5, 7, 9)),
        frozenset(_key(i) for i in (0, 2, 4, 6, 8)),
    )
    assert split.cache_info().currsize == 1
    if collector.NATIVE:
        assert not gc.is_tracked(keys) and not any(gc.is_tracked(part) for part in got)
    # A keyword argument is a key of its own (as in lru_cache), settled too.
    more = frozenset(_key(i) for i in range(10, 14))
    assert split(keys=more) == split(keys=more) and len(calls) == 2
    if collector.NATIVE:
        assert not gc.is_tracked(more)
