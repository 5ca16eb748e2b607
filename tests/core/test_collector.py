"""The collector pause: off inside the block, as it was after it (an error included);
what a long-lived process has loaded, set aside from full collections."""

from __future__ import annotations

import gc
import io
import signal
from pathlib import Path

import pytest
import uvicorn
from rich.console import Console

from fogofwar.commands.serve import serve
from fogofwar.core.collector import CollectorPaused, freeze_loaded


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
