"""Shared cases and random play for the RL environments' tests."""

from __future__ import annotations

from typing import Any

import numpy as np

#: Every rule set under test, with a configuration: Specter Ops at every player count,
#: Zero Dark solo and versus (one seat, then two).
CASES: list[tuple[str, dict[str, Any] | None]] = [
    ("warfighter", None),
    ("rock-n-roll", None),
    ("zero-dark", None),
    ("zero-dark", {"mode": "versus", "map": "zd-open"}),
    *(("specter-ops", {"players": n}) for n in (2, 3, 4, 5)),
]


def case_id(case: tuple[str, dict[str, Any] | None]) -> str:
    ruleset, config = case
    return ruleset + "".join(f"-{k}={v}" for k, v in (config or {}).items())


IDS = [case_id(c) for c in CASES]


def masked_choice(rng: np.random.Generator, mask: np.ndarray) -> int:
    """A uniform legal index under ``mask``."""
    return int(rng.choice(np.flatnonzero(mask)))
