"""The benches' switch between the bitset kernels in C and their Python forms."""

from __future__ import annotations

from typing import Any

import fogofwar.games.specter_ops.knowledge as knowledge
from fogofwar.core import bitsets
from fogofwar.core.grid import movegraph

NAMES = ("_canon", "_narrow", "_squares", "_Splitter", "_played")


def use(native: bool) -> None:
    """Make the possibility map use the C kernels (``native``) or the Python forms."""
    if native:
        forms: list[Any] = [
            bitsets.canon,
            bitsets.narrow,
            bitsets.squares,
            bitsets.Splitter,
            bitsets.played,
        ]
        stepper: Any = bitsets.Stepper
    else:
        forms = [
            bitsets.canon_py,
            bitsets.narrow_py,
            bitsets.squares_py,
            bitsets.PySplitter,
            bitsets.played_py,
        ]
        stepper = bitsets.PyStepper
    for name, form in zip(NAMES, forms, strict=True):
        setattr(knowledge, name, form)
    movegraph.Stepper = stepper  # type: ignore[misc]
