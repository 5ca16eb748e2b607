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
