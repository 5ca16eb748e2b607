"""Exact distributions: :class:`Dist`, ``int`` outcomes with :class:`~fractions.Fraction`
probabilities, and the comparison operators of the notation and the builders."""

from __future__ import annotations

import bisect
import itertools
import math
import operator
from collections.abc import Callable, Iterable, Iterator, Mapping
from fractions import Fraction
from typing import Final

from ..rng import Stream

#: The comparison operators of the notation and the builders.
COMPARISONS: Final[Mapping[str, Callable[[int, int], bool]]] = {
    ">=": operator.ge,
    "<=": operator.le,
    ">": operator.gt,
    "<": operator.lt,
    "==": operator.eq,
}


def _outcome(value: object) -> int:
    """Check that an outcome is an int (bools become 0/1) and return it."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return value
    raise TypeError(f"dice outcomes are ints, got {value!r}")


# ---------------------------------------------------------------------------------------
# Dist: an exact distribution
# ---------------------------------------------------------------------------------------


class Dist(Mapping[int, Fraction]):
    """An exact, immutable distribution over ``int`` outcomes.

    A read-only mapping ``outcome -> Fraction``, iterated in increasing order of outcome,
    listing only outcomes of positive probability (use :meth:`pmf` for "0 if absent").
    The probabilities sum to 1, unless the distribution was cut off (an explosion to a
    bound): then they sum to ``1 - truncated``, each listed probability is that of the
    outcome *and* no cut, and the ``prob_*`` methods give lower bounds that are short of
    the true values by at most :attr:`truncated` in all.

    Internally the probabilities are integer weights over one common denominator, in
    lowest terms, so equal distributions have equal representations (and hashes).

    Args:
        probabilities: ``{outcome: probability}`` or ``(outcome, probability)`` pairs
            (repeated outcomes add up). Probabilities are Fractions or ints; they must
            not be negative nor sum to more than 1.
    """

    __slots__ = ("_cum", "_denom", "_hash", "_outcomes", "_weights")

    _outcomes: tuple[int, ...]
    _weights: tuple[int, ...]
    _denom: int
    _cum: tuple[int, ...] | None
    _hash: int | None

    def __init__(
        self, probabilities: Mapping[int, Fraction | int] | Iterable[tuple[int, Fraction | int]]
    ) -> None:
        pairs = probabilities.items() if isinstance(probabilities, Mapping) else probabilities
        acc: dict[int, Fraction] = {}
        for raw, p in pairs:
            x = _outcome(raw)
            q = Fraction(p)
            if q < 0:
                raise ValueError(f"negative probability {q} for outcome {x}")
            acc[x] = acc.get(x, Fraction(0)) + q
        denom = math.lcm(*(q.denominator for q in acc.values())) if acc else 1
        weights = {x: q.numerator * (denom // q.denominator) for x, q in acc.items()}
        if sum(weights.values()) > denom:
            raise ValueError("probabilities sum to more than 1")
        self._set(weights, denom)

    def _set(self, weights: Mapping[int, int], denom: int) -> None:
        keys = sorted(x for x, w in weights.items() if w)
        ws = [weights[x] for x in keys]
        g = math.gcd(denom, *ws)
        if g > 1:
            denom //= g
            ws = [w // g for w in ws]
        self._outcomes = tuple(keys)
        self._weights = tuple(ws)
        self._denom = denom
        self._cum = None
        self._hash = None

    @classmethod
    def _make(cls, weights: Mapping[int, int], denom: int) -> Dist:
        """Fast constructor from integer weights over ``denom`` (no validation)."""
        self = object.__new__(cls)
        self._set(weights, denom)
        return self

    @classmethod
    def constant(cls, value: int) -> Dist:
        """The distribution that is ``value`` for certain."""
        return cls._make({_outcome(value): 1}, 1)

    @classmethod
    def uniform(cls, outcomes: Iterable[int]) -> Dist:
        """Each listed outcome equally likely (a repeated outcome counts repeatedly)."""
        weights: dict[int, int] = {}
        n = 0
        for raw in outcomes:
            x = _outcome(raw)
            weights[x] = weights.get(x, 0) + 1
            n += 1
        if n == 0:
            raise ValueError("a uniform distribution needs at least one outcome")
        return cls._make(weights, n)

    # -- mapping protocol ---------------------------------------------------------------

    def __getitem__(self, outcome: int) -> Fraction:
        i = bisect.bisect_left(self._outcomes, outcome)
        if i < len(self._outcomes) and self._outcomes[i] == outcome:
            return Fraction(self._weights[i], self._denom)
        raise KeyError(outcome)

    def __iter__(self) -> Iterator[int]:
        return iter(self._outcomes)

    def __len__(self) -> int:
        return len(self._outcomes)

    def __contains__(self, outcome: object) -> bool:
        if not isinstance(outcome, int):
            return False
        i = bisect.bisect_left(self._outcomes, outcome)
        return i < len(self._outcomes) and self._outcomes[i] == outcome

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Dist):
            return (
                self._denom == other._denom
                and self._outcomes == other._outcomes
                and self._weights == other._weights
            )
        if isinstance(other, Mapping):
            return dict(self.items()) == dict(other.items())
        return NotImplemented

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash((self._outcomes, self._weights, self._denom))
        return self._hash

    def __repr__(self) -> str:
        body = ", ".join(f"{x}: {Fraction(w, self._denom)}" for x, w in self._pairs())
        cut = f", truncated={self.truncated}" if self.is_truncated else ""
        return f"Dist({{{body}}}{cut})"

    def _pairs(self) -> Iterator[tuple[int, int]]:
        return zip(self._outcomes, self._weights, strict=True)

    # -- raw weights ----------------------------------------------------------------------

    @property
    def outcomes(self) -> tuple[int, ...]:
        """The outcomes of positive probability, in increasing order."""
        return self._outcomes

    @property
    def denominator(self) -> int:
        """The common denominator of all probabilities (lowest terms)."""
        return self._denom

    @property
    def weights(self) -> tuple[int, ...]:
        """Integer weights, one per outcome: ``P(outcome) = weight / denominator``."""
        return self._weights

    @property
    def mass(self) -> Fraction:
        """The total probability listed: 1, or ``1 - truncated``."""
        return Fraction(sum(self._weights), self._denom)

    @property
    def truncated(self) -> Fraction:
        """The probability left out by a cut-off explosion (0 if none)."""
        return 1 - self.mass

    @property
    def is_truncated(self) -> bool:
        """Whether some probability was left out."""
        return sum(self._weights) != self._denom

    # -- probabilities ----------------------------------------------------------------------

    def pmf(self, outcome: int) -> Fraction:
        """``P(X == outcome)``; 0 for an outcome not listed."""
        i = bisect.bisect_left(self._outcomes, outcome)
        if i < len(self._outcomes) and self._outcomes[i] == outcome:
            return Fraction(self._weights[i], self._denom)
        return Fraction(0)

    def prob_at_least(self, k: int) -> Fraction:
        """``P(X >= k)``."""
        i = bisect.bisect_left(self._outcomes, k)
        return Fraction(sum(self._weights[i:]), self._denom)

    def at_least_each(self) -> tuple[Fraction, ...]:
        """``P(X >= k)`` for each outcome ``k`` in order, as :meth:`prob_at_least` gives
        them, in one pass from the top (a table of every outcome asked one at a time
        summed every weight above each: minutes for a roll of 100,000 outcomes)."""
        out: list[Fraction] = []
        above = 0
        for w in reversed(self._weights):
            above += w
            out.append(Fraction(above, self._denom))
        return tuple(reversed(out))

    def prob_above(self, k: int) -> Fraction:
        """``P(X > k)``."""
        i = bisect.bisect_right(self._outcomes, k)
        return Fraction(sum(self._weights[i:]), self._denom)

    def prob_at_most(self, k: int) -> Fraction:
        """``P(X <= k)``."""
        i = bisect.bisect_right(self._outcomes, k)
        return Fraction(sum(self._weights[:i]), self._denom)

    def prob_below(self, k: int) -> Fraction:
        """``P(X < k)``."""
        i = bisect.bisect_left(self._outcomes, k)
        return Fraction(sum(self._weights[:i]), self._denom)

    def prob(self, op: str, k: int) -> Fraction:
        """``P(X op k)`` for an operator of :data:`COMPARISONS` (``">="``, ...)."""
        test = _comparison(op)
        return Fraction(sum(w for x, w in self._pairs() if test(x, k)), self._denom)

    def min_outcome(self) -> int:
        """The least outcome (``ValueError`` if the distribution is empty)."""
        if not self._outcomes:
            raise ValueError("empty distribution")
        return self._outcomes[0]

    def max_outcome(self) -> int:
        """The greatest outcome (``ValueError`` if the distribution is empty)."""
        if not self._outcomes:
            raise ValueError("empty distribution")
        return self._outcomes[-1]

    def mean(self) -> Fraction:
        """The mean over the listed outcomes (conditional on no cut, if truncated)."""
        total = sum(self._weights)
        if total == 0:
            raise ValueError("empty distribution has no mean")
        return Fraction(sum(x * w for x, w in self._pairs()), total)

    def variance(self) -> Fraction:
        """The variance over the listed outcomes (conditional on no cut, if truncated)."""
        mu = self.mean()
        total = sum(self._weights)
        return sum((Fraction(w, total) * (x - mu) ** 2 for x, w in self._pairs()), Fraction(0))

    # -- transformations ----------------------------------------------------------------

    def map(self, f: Callable[[int], int]) -> Dist:
        """The distribution of ``f(X)``."""
        acc: dict[int, int] = {}
        for x, w in self._pairs():
            y = _outcome(f(x))
            acc[y] = acc.get(y, 0) + w
        return Dist._make(acc, self._denom)

    def sample(self, stream: Stream) -> int:
        """Draw one outcome (from the listed outcomes, renormalised if truncated).

        Dice expressions sample their own process (:meth:`Dice.sample`); this draws
        from a bare distribution, one :meth:`Stream.randbelow` call per draw.
        """
        if self._cum is None:
            self._cum = tuple(itertools.accumulate(self._weights))
        if not self._cum:
            raise ValueError("cannot sample an empty distribution")
        r = stream.randbelow(self._cum[-1])
        return self._outcomes[bisect.bisect_right(self._cum, r)]

    def to_json(self) -> dict[str, str]:
        """``{"outcome": "numerator/denominator"}`` strings, for records and the web."""
        return {str(x): str(Fraction(w, self._denom)) for x, w in self._pairs()}


def _comparison(op: str) -> Callable[[int, int], bool]:
    try:
        return COMPARISONS[op]
    except KeyError:
        raise ValueError(
            f"unknown comparison {op!r}; use one of {', '.join(COMPARISONS)}"
        ) from None
