"""The collector pause: off inside the block, as it was after it (an error included)."""

from __future__ import annotations

import gc

import pytest

from fogofwar.core.collector import CollectorPaused


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
