"""Ctrl-C for the long-running commands (``play``, ``study``): it must stop them cleanly
even when the process was started with SIGINT ignored — a shell's background job, or a
launcher such as ``nohup`` — since an ignored signal is inherited across exec and
Python then leaves it ignored, so the command would run on to its end."""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["ctrl_c_interrupts"]


@contextmanager
def ctrl_c_interrupts(*, terminate: bool = False) -> Iterator[None]:
    """Within the block SIGINT raises :class:`KeyboardInterrupt` (Python's default),
    whatever the process started with; the handler before is put back afterwards (one
    installed outside Python, which cannot be put back, is left as Python's default).
    With ``terminate`` SIGTERM (``kill``, a batch system's stop) raises it too, so the
    command stops as cleanly as on Ctrl-C instead of dying with its work unsaved.
    Off the main thread (where signal handlers cannot be set) it changes nothing."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    signals = (signal.SIGINT, signal.SIGTERM) if terminate else (signal.SIGINT,)
    before = {sig: signal.getsignal(sig) for sig in signals}
    try:
        for sig in signals:
            signal.signal(sig, signal.default_int_handler)
        yield
    finally:
        for sig, handler in before.items():
            if handler is not None:
                signal.signal(sig, handler)
