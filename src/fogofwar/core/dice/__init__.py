"""Dice: one description gives both the exact distribution and a sample.

A :class:`Dice` is a small immutable expression tree (in the style of icepool's dice and
python-chess's value objects). Every node can

* compute its **exact** distribution, a :class:`Dist` of ``int`` outcomes with
  :class:`~fractions.Fraction` probabilities (:meth:`Dice.dist`), and
* **sample** itself from a keyed :class:`~fogofwar.core.rng.Stream`
  (:meth:`Dice.sample`, or :meth:`Dice.roll` for a value with a readable trace),

and the distribution is the exact law of the sampler: the odds command and the rules
roll with the very same objects.

Expressions come from the notation (:func:`parse`, documented in ``docs/dice.md``)::

    parse("3d6+2"), parse("10d6kh3"), parse("d6!4>=8"), parse("5d6#>=4")

or from the builders, which also cover rolls no notation expresses (``map``, ``bind``,
pool functions)::

    d(6).explode(4).at_least(8)
    d(6).pool(5).count(">=", 4)
    d(6).bind(lambda natural: 0 if natural == 1 else natural + d(6))

Outcomes are always ``int``. A comparison or a yes/no roll gives ``1`` for yes and ``0``
for no, so yes/no results can be summed and counted like any other outcome.

The package, one concept a module (import from the package):

* :mod:`~fogofwar.core.dice.limits` — the limits on expressions (:data:`MAX_DICE`, ...).
* :mod:`~fogofwar.core.dice.dist` — :class:`Dist`, exact distributions.
* :mod:`~fogofwar.core.dice.exact` — the exact computations on distributions.
* :mod:`~fogofwar.core.dice.nodes` — the expression tree: :class:`Dice` and its nodes.
* :mod:`~fogofwar.core.dice.builders` — :func:`d`, :func:`best_of`, :func:`worst_of`,
  :func:`exploding_check`.
* :mod:`~fogofwar.core.dice.notation` — :func:`parse`; :func:`clear_caches`.
"""

from __future__ import annotations

from .builders import best_of, d, exploding_check, worst_of
from .dist import COMPARISONS, Dist
from .limits import MAX_DEPTH, MAX_DICE, MAX_FACES, MAX_MULTISETS
from .nodes import (
    Bind,
    Compare,
    Const,
    Count,
    Dice,
    Die,
    Explode,
    Keep,
    Map,
    Neg,
    Pool,
    PoolApply,
    Roll,
    Sum,
)
from .notation import clear_caches, parse

__all__ = [
    "COMPARISONS",
    "MAX_DEPTH",
    "MAX_DICE",
    "MAX_FACES",
    "MAX_MULTISETS",
    "Bind",
    "Compare",
    "Const",
    "Count",
    "Dice",
    "Die",
    "Dist",
    "Explode",
    "Keep",
    "Map",
    "Neg",
    "Pool",
    "PoolApply",
    "Roll",
    "Sum",
    "best_of",
    "clear_caches",
    "d",
    "exploding_check",
    "parse",
    "worst_of",
]
