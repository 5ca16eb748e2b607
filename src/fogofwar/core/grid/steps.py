"""One diagonal step and the diagonal rules that allow or forbid it.

An orthogonal step is blocked by a wall or closed door on the shared edge and by an
impassable target square. A diagonal step also consults a *diagonal rule* about the two
squares that share the crossed corner (see :class:`DiagonalStep`): ``"free"``, ``"both"``
(Specter Ops SO-A2), ``"either"`` (Zero Dark FR-M4), ``"none"`` or any callable.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Final, NamedTuple, TypeAlias

import numpy as np

from .board import BoolArray
from .coords import Square

# --------------------------------------------------------------------------- movement


class DiagonalStep(NamedTuple):
    """What a diagonal rule sees of one diagonal step.

    The step goes from ``frm`` to ``to`` across the corner shared by four squares:
    ``frm``, ``to`` and the two *side* squares ``side_a = (frm.row, to.col)`` and
    ``side_b = (to.row, frm.col)``. The step could also be made in two orthogonal steps,
    via ``side_a`` or via ``side_b``; ``a_walled`` says a wall or closed door lies on
    the route via ``side_a`` (on the edge ``frm|side_a`` or ``side_a|to``), i.e. on one
    of the two wall segments that meet the crossed corner on ``side_a``'s side.

    ``a_blocked`` / ``b_blocked`` say the side square holds something impassable to the
    mover: impassable terrain, or a square in the call's ``blocked`` set. (Squares in
    ``pass_through`` are not blocked.)
    """

    frm: Square
    to: Square
    side_a: Square
    side_b: Square
    a_blocked: bool
    b_blocked: bool
    a_walled: bool
    b_walled: bool


#: A diagonal rule: ``True`` if the diagonal step is allowed. It must be a pure
#: function of its argument (it is evaluated once per square and case, then cached).
DiagonalRule: TypeAlias = Callable[[DiagonalStep], bool]


def _rule_free(s: DiagonalStep) -> bool:
    # Squares at the corner do not matter; walls do when they fence frm off from to.
    return not (s.a_walled and s.b_walled)


def _rule_both(s: DiagonalStep) -> bool:
    return not ((s.a_blocked or s.a_walled) and (s.b_blocked or s.b_walled))


def _rule_either(s: DiagonalStep) -> bool:
    return not (s.a_blocked or s.a_walled or s.b_blocked or s.b_walled)


def _rule_none(s: DiagonalStep) -> bool:
    return False


#: The named diagonal rules:
#:
#: ``"free"``
#:     any diagonal step, unless walls at the corner separate the two squares (a
#:     straight wall through the corner, or a wall corner around ``frm`` or ``to``).
#: ``"both"``
#:     forbidden only when *both* routes round the corner are shut (side square blocked
#:     or walled): no squeezing between two blocks touching corner to corner. SO-A2.
#: ``"either"``
#:     forbidden when *either* side square is blocked or *any* wall touches the crossed
#:     corner. FR-M4.
#: ``"none"``
#:     no diagonal steps at all (orthogonal movement only).
DIAGONAL_RULES: Final[Mapping[str, DiagonalRule]] = MappingProxyType(
    {"free": _rule_free, "both": _rule_both, "either": _rule_either, "none": _rule_none}
)


def _vector_rule(
    name: str, ab: BoolArray, bb: BoolArray, aw: BoolArray, bw: BoolArray
) -> BoolArray:
    """The named rules on whole arrays (same logic as the scalar functions above)."""
    if name == "free":
        return ~(aw & bw)
    if name == "both":
        return ~((ab | aw) & (bb | bw))
    if name == "either":
        return ~(ab | aw | bb | bw)
    return np.zeros_like(ab)
