"""Scripted ZD-C1 tests for the Zero Dark rule tests (test_core.py, test_spook.py).

:class:`Dice` monkeypatches a game's ``state._roll`` (the method that rolls a ZD-C1 test
and returns ``(successes, rolled)``) with a script of chosen successes, in the order the
tests are rolled, and records every test asked for (who, purpose, dice, TN), so a rule
test can both choose the results and check the dice and target numbers. The grouping
itself (ZD-C1) is tested in test_grouping.py. Each caller says in a comment that its
dice are scripted.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from fogofwar.games.zero_dark.state import ZeroDarkState


@dataclass(frozen=True)
class Roll:
    """One test the engine asked for."""

    who: str
    purpose: str
    dice: int
    tn: int


class Dice:
    """A script of successes for ``state._roll``.

    Each entry is a number of successes, or ``(who, successes)`` to check that the test
    is rolled by ``who``. With the script used up, ``default`` successes are returned,
    or (``default=None``) the test fails: an unexpected roll is a test error.
    """

    def __init__(
        self,
        monkeypatch: pytest.MonkeyPatch,
        state: ZeroDarkState,
        *script: int | tuple[str, int],
        default: int | None = None,
    ) -> None:
        self.script: list[int | tuple[str, int]] = list(script)
        self.default = default
        self.calls: list[Roll] = []
        monkeypatch.setattr(state, "_roll", self)

    def add(self, *script: int | tuple[str, int]) -> None:
        """More successes at the end of the script."""
        self.script += script

    def __call__(self, dice: int, tn: int, purpose: str, who: str) -> tuple[int, list[Any]]:
        roll = Roll(who, purpose, dice, tn)
        self.calls.append(roll)
        if self.script:
            entry = self.script.pop(0)
            if isinstance(entry, tuple):
                expected, successes = entry
                assert who == expected, f"scripted a test by {expected}, got {roll}"
            else:
                successes = entry
        elif self.default is not None:
            successes = self.default
        else:
            raise AssertionError(f"an unscripted test: {roll}")
        return successes, []

    @property
    def left(self) -> int:
        """Entries of the script not used yet."""
        return len(self.script)
