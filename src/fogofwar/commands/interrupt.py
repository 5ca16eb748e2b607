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
def ctrl_c_interrupts() -> Iterator[None]:
    """Within the block SIGINT raises :class:`KeyboardInterrupt` (Python's default),
    whatever the process started with; the handler before is put back afterwards (one
    installed outside Python, which cannot be put back, is left as Python's default).
    Off the main thread (where signal handlers cannot be set) it changes nothing."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = signal.getsignal(signal.SIGINT)
    try:
        signal.signal(signal.SIGINT, signal.default_int_handler)
        yield
    finally:
        if before is not None:
            signal.signal(signal.SIGINT, before)
