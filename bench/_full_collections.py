"""The benches' timer of Python's full garbage collections."""

from __future__ import annotations

import gc
import time


class FullCollections:
    """The longest full collection (the collector's generation 2) since :meth:`reset`,
    timed with the collector's own callbacks: what a long process's slowest apply
    comes to where the rules' own work is not slow."""

    def __init__(self) -> None:
        self.longest = 0.0
        self._began = 0.0
        gc.callbacks.append(self._callback)

    def _callback(self, phase: str, info: dict[str, int]) -> None:
        if info["generation"] != 2:
            return
        if phase == "start":
            self._began = time.perf_counter()
        else:
            self.longest = max(self.longest, time.perf_counter() - self._began)

    def reset(self) -> None:
        self.longest = 0.0
