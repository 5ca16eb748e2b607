"""The limits every dice expression keeps to, so that no roll or exact distribution can
grow without bound (the notation reports them with their position)."""

from __future__ import annotations

from typing import Final

#: The most dice in one pool (``100d6``).
MAX_DICE: Final = 100
#: The most faces on one die (``d1000``, or 1000 listed faces).
MAX_FACES: Final = 1000
#: The deepest explosion chain (a stated depth, or the depth a bound works out to).
MAX_DEPTH: Final = 100
#: The most distinct sorted rolls :class:`PoolApply` will enumerate.
MAX_MULTISETS: Final = 200_000
#: The most pairs of outcomes one step of an exact sum combines (a second or two of work
#: here): ``100d6`` and ``30d100`` are within it; ``10d1000`` (4,000 x 4,000 outcomes in
#: a step) is not, and ``20d1000`` ran for a minute, ``100d1000`` for hours.
MAX_PAIRS: Final = 5_000_000
#: The deepest nesting of parentheses (``((d6))`` is 2): the parser and every walk of an
#: expression recurse once a level, and 500 levels ran past Python's recursion limit.
MAX_NESTING: Final = 50
