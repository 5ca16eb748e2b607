"""The benches' switch between the bitset kernels in C and their Python forms."""

from __future__ import annotations

from typing import Any

import fogofwar.games.specter_ops.knowledge as knowledge
from fogofwar.core import bitsets
from fogofwar.core.grid import movegraph

#: Every kernel the possibility map holds, by its name there and in ``bitsets`` (the C
#: form's name, and the Python form's): a kernel left out of a switch would be handed
#: the other form's walkers and splitters (``_ored`` once was).
KERNELS = (
    ("_canon", "canon", "canon_py"),
    ("_narrow", "narrow", "narrow_py"),
    ("_squares", "squares", "squares_py"),
    ("_Splitter", "Splitter", "PySplitter"),
    ("_played", "played", "played_py"),
    ("_narrowed_groups", "narrowed", "narrowed_py"),
    ("_merged", "merged", "merged_py"),
    ("_grouped", "grouped", "grouped_py"),
    ("_keys_after", "keys_after", "keys_after_py"),
    ("_ored", "ored", "ored_py"),
)


def use(native: bool) -> None:
    """Make the possibility map use the C kernels (``native``, where built) or the
    Python forms."""
    source: Any = bitsets
    if native:
        from fogofwar.core import _bitsets  # built only where a C compiler was

        source = _bitsets
    for name, c_name, py_name in KERNELS:
        setattr(knowledge, name, getattr(source, c_name if native else py_name))
    movegraph.Stepper = source.Stepper if native else bitsets.PyStepper  # type: ignore[misc]
