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

Exploding dice can be cut off at a *depth* (``d6!4``: at most 4 extra dice; the last
extra die may show a 6 and simply stops) or at a probability *bound* (``d6!~1e-9``: keep
exploding while the chance of the chain going on is at least the bound). A bound cut
leaves out the rare long chains: the :class:`Dist` then lists ``P(outcome and no chain
was cut)`` for each outcome and reports the left-out mass as :attr:`Dist.truncated`.
The sampler of a bounded explosion rolls the real, unbounded process.

Every exact computation works on integer weights over one common denominator and only
makes :class:`~fractions.Fraction` objects when asked, which keeps it fast: sums are
convolutions, keep-highest/lowest is a dynamic programme over the faces with binomial
counts (never an enumeration of all rolls), counting is a binomial. Distributions are
cached per (structurally equal) expression; :func:`clear_caches` empties the caches.
"""

from __future__ import annotations

import bisect
import functools
import itertools
import math
import operator
import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Final, NoReturn

from fogofwar.core.errors import InvalidNotationError
from fogofwar.core.rng import Stream

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

#: The most dice in one pool (``100d6``).
MAX_DICE: Final = 100
#: The most faces on one die (``d1000``, or 1000 listed faces).
MAX_FACES: Final = 1000
#: The deepest explosion chain (a stated depth, or the depth a bound works out to).
MAX_DEPTH: Final = 100
#: The most distinct sorted rolls :class:`PoolApply` will enumerate.
MAX_MULTISETS: Final = 200_000
#: Integer literals in the notation are at most this large in magnitude.
_MAX_LITERAL: Final = 10**9

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


def _convolve(a: Dist, b: Dist) -> Dist:
    """The distribution of ``A + B`` for independent A and B."""
    if len(a._outcomes) == 1 and a._denom == 1:  # a constant: just shift
        return _shift(b, a._outcomes[0])
    if len(b._outcomes) == 1 and b._denom == 1:
        return _shift(a, b._outcomes[0])
    acc: dict[int, int] = {}
    get = acc.get
    bpairs = list(b._pairs())
    for x, wx in a._pairs():
        for y, wy in bpairs:
            s = x + y
            acc[s] = get(s, 0) + wx * wy
    return Dist._make(acc, a._denom * b._denom)


def _shift(a: Dist, k: int) -> Dist:
    out = object.__new__(Dist)
    out._outcomes = tuple(x + k for x in a._outcomes)
    out._weights = a._weights
    out._denom = a._denom
    out._cum = None
    out._hash = None
    return out


def _power(a: Dist, n: int) -> Dist:
    """The distribution of the sum of ``n >= 1`` independent copies (square and add)."""
    result: Dist | None = None
    base = a
    while True:
        if n & 1:
            result = base if result is None else _convolve(result, base)
        n >>= 1
        if not n:
            break
        base = _convolve(base, base)
    if result is None:  # pragma: no cover - n >= 1 always sets it
        raise ValueError("power needs n >= 1")
    return result


@functools.lru_cache(maxsize=4096)
def _cached_dist(node: Dice) -> Dist:
    return node._compute()


def clear_caches() -> None:
    """Forget every cached distribution and parsed expression (for benchmarks)."""
    _cached_dist.cache_clear()
    _parse_cached.cache_clear()


# ---------------------------------------------------------------------------------------
# Dice expressions
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Roll:
    """One sampled roll: its value and a readable trace, e.g. ``3d6[2,5,6]+2``."""

    value: int
    text: str

    def __str__(self) -> str:
        return f"{self.text} = {self.value}"


def _need_dice(x: object, what: str) -> None:
    if not isinstance(x, Dice):
        raise TypeError(f"{what} must be Dice, got {x!r}")


def _need_pool(x: object, what: str) -> None:
    if not isinstance(x, Pool):
        raise TypeError(f"{what} selects from a Pool (like d(6).pool(3)), got {x!r}")


def _as_dice(x: Dice | int) -> Dice:
    if isinstance(x, Dice):
        return x
    if isinstance(x, int):
        return Const(_outcome(x))
    raise TypeError(f"expected dice or an int, got {x!r}")


class Dice(ABC):
    """An immutable dice expression: exact distribution, sample and notation.

    Subclasses are frozen dataclasses compared structurally (``==`` and ``hash`` are
    about the expression, never about probabilities: use ``a.dist() == b.dist()`` for
    that). Build them with :func:`parse`, :func:`d` and the methods below.
    """

    __slots__ = ()

    # -- the three faces of an expression -----------------------------------------------

    def dist(self) -> Dist:
        """The exact distribution (cached per structurally equal expression)."""
        return _cached_dist(self)

    def sample(self, stream: Stream) -> int:
        """Roll once, drawing from ``stream``; the law of this is :meth:`dist`."""
        return self._sample(stream)

    def roll(self, stream: Stream) -> Roll:
        """Roll once like :meth:`sample` (same draws, same value) and keep a trace."""
        value, text = self._roll(stream)
        return Roll(value, text)

    @abstractmethod
    def _compute(self) -> Dist: ...

    @abstractmethod
    def _sample(self, stream: Stream) -> int: ...

    @abstractmethod
    def _roll(self, stream: Stream) -> tuple[int, str]: ...

    @abstractmethod
    def __str__(self) -> str: ...

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self}>"

    # -- builders ---------------------------------------------------------------------------

    def __add__(self, other: Dice | int) -> Dice:
        if not isinstance(other, Dice | int):
            return NotImplemented
        return _sum(self, _as_dice(other))

    def __radd__(self, other: int) -> Dice:
        if not isinstance(other, int):
            return NotImplemented
        return _sum(_as_dice(other), self)

    def __sub__(self, other: Dice | int) -> Dice:
        if not isinstance(other, Dice | int):
            return NotImplemented
        return _sum(self, -_as_dice(other))

    def __rsub__(self, other: int) -> Dice:
        if not isinstance(other, int):
            return NotImplemented
        return _sum(_as_dice(other), -self)

    def __neg__(self) -> Dice:
        return Neg(self)

    def compare(self, op: str, threshold: int) -> Compare:
        """1 if the total ``op threshold`` (``">="``, ``"<="``, ``">"``, ``"<"``, ``"=="``)."""
        return Compare(self, op, threshold)

    def at_least(self, threshold: int) -> Compare:
        """1 if the total is ``>= threshold``, else 0 (notation ``X>=t``)."""
        return Compare(self, ">=", threshold)

    def at_most(self, threshold: int) -> Compare:
        """1 if the total is ``<= threshold``, else 0 (notation ``X<=t``)."""
        return Compare(self, "<=", threshold)

    def above(self, threshold: int) -> Compare:
        """1 if the total is ``> threshold``, else 0 (notation ``X>t``)."""
        return Compare(self, ">", threshold)

    def below(self, threshold: int) -> Compare:
        """1 if the total is ``< threshold``, else 0 (notation ``X<t``)."""
        return Compare(self, "<", threshold)

    def exactly(self, value: int) -> Compare:
        """1 if the total is ``value``, else 0 (notation ``X==v``)."""
        return Compare(self, "==", value)

    def explode(
        self,
        depth: int | None = None,
        *,
        bound: Fraction | str | None = None,
        on: Iterable[int] | None = None,
    ) -> Explode:
        """Roll again and add on the highest outcome (or on ``on``), repeatedly.

        Give exactly one of ``depth`` (at most that many extra rolls; ``d6!4``) or
        ``bound`` (explode while the chance of the chain going on is at least ``bound``;
        ``d6!~1e-9``; the rest is reported as :attr:`Dist.truncated`).
        """
        faces = frozenset({self.dist().max_outcome()}) if on is None else frozenset(on)
        b = None if bound is None else Fraction(bound)
        return Explode(self, faces, depth, b)

    def pool(self, n: int) -> Pool:
        """``n`` independent rolls of this expression; its own value is their sum."""
        return Pool(n, self)

    def map(self, f: Callable[[int], int], name: str | None = None) -> Map:
        """The outcome ``f(x)`` of this roll's outcome ``x`` (``f`` returns an int/bool)."""
        return Map(self, f, name or _name_of(f))

    def bind(self, f: Callable[[int], Dice | int], name: str | None = None) -> Bind:
        """Roll this; its outcome ``x`` chooses the roll ``f(x)`` (dice or an int) to make.

        The monadic bind: e.g. a natural 1 misses, otherwise add a bonus die::

            d(6).bind(lambda x: 0 if x == 1 else x + d(4))
        """
        return Bind(self, f, name or _name_of(f))


def _name_of(f: Callable[..., object]) -> str:
    return getattr(f, "__name__", None) or type(f).__name__


def _sum(a: Dice, b: Dice) -> Dice:
    """``a + b``, flattening sums and folding constants at the end."""
    terms: list[Dice] = []
    for x in (a, b):
        terms.extend(x.terms if isinstance(x, Sum) else (x,))
    last, prev = terms[-1], terms[-2]
    if isinstance(last, Const) and isinstance(prev, Const):
        terms[-2:] = [Const(prev.value + last.value)]
    if len(terms) == 1:
        return terms[0]
    return Sum(tuple(terms))


# -- leaves ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, repr=False)
class Const(Dice):
    """A fixed number (notation ``2``, ``-1``)."""

    value: int

    def __post_init__(self) -> None:
        object.__setattr__(self, "value", _outcome(self.value))

    def _compute(self) -> Dist:
        return Dist.constant(self.value)

    def _sample(self, stream: Stream) -> int:
        return self.value

    def _roll(self, stream: Stream) -> tuple[int, str]:
        return self.value, str(self.value)

    def __neg__(self) -> Dice:
        return Const(-self.value)

    def __str__(self) -> str:
        return str(self.value)


def d(sides: int) -> Die:
    """The standard die with faces ``1..sides`` (notation ``d6``)."""
    if isinstance(sides, bool) or not isinstance(sides, int):
        raise TypeError(f"sides must be an int, got {sides!r}")
    if not 1 <= sides <= MAX_FACES:
        raise ValueError(f"a die has 1 to {MAX_FACES} sides, got {sides}")
    return Die(tuple(range(1, sides + 1)))


@dataclass(frozen=True, slots=True, repr=False)
class Die(Dice):
    """One die whose listed faces are equally likely (``d6``; ``d{0,0,1,1,2,3}``).

    A face listed twice is twice as likely. ``d(6)`` makes a standard die.
    """

    faces: tuple[int, ...]

    def __post_init__(self) -> None:
        faces = tuple(_outcome(x) for x in self.faces)
        if not 1 <= len(faces) <= MAX_FACES:
            raise ValueError(f"a die has 1 to {MAX_FACES} faces, got {len(faces)}")
        object.__setattr__(self, "faces", faces)

    @property
    def is_standard(self) -> bool:
        """Whether the faces are ``1..n`` in order (written ``dn``)."""
        return self.faces == tuple(range(1, len(self.faces) + 1))

    def _compute(self) -> Dist:
        return Dist.uniform(self.faces)

    def _sample(self, stream: Stream) -> int:
        # For a standard die this is exactly stream.die(n): 1 + randbelow(n).
        return self.faces[stream.randbelow(len(self.faces))]

    def _roll(self, stream: Stream) -> tuple[int, str]:
        x = self._sample(stream)
        return x, f"{self}[{x}]"

    def __str__(self) -> str:
        if self.is_standard:
            return f"d{len(self.faces)}"
        return "d{" + ",".join(map(str, self.faces)) + "}"


# -- arithmetic --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, repr=False)
class Sum(Dice):
    """The total of two or more independent terms (``3d6+2``, ``d6-d4``)."""

    terms: tuple[Dice, ...]

    def __post_init__(self) -> None:
        if len(self.terms) < 2:
            raise ValueError("a Sum needs at least two terms")
        for t in self.terms:
            if not isinstance(t, Dice):
                raise TypeError(f"Sum terms are Dice, got {t!r}")

    def _compute(self) -> Dist:
        shift = 0
        acc: Dist | None = None
        for t in self.terms:
            if isinstance(t, Const):  # constants only shift: no convolution
                shift += t.value
                continue
            td = t.dist()
            acc = td if acc is None else _convolve(acc, td)
        if acc is None:
            return Dist.constant(shift)
        return _shift(acc, shift) if shift else acc

    def _sample(self, stream: Stream) -> int:
        return sum(t._sample(stream) for t in self.terms)

    def _roll(self, stream: Stream) -> tuple[int, str]:
        total = 0
        parts: list[str] = []
        for t in self.terms:
            v, text = t._roll(stream)
            total += v
            parts.append(_wrap_text(t, text))
        return total, _join_terms(parts)

    def __str__(self) -> str:
        return _join_terms([_wrap(t) for t in self.terms])


def _join_terms(parts: list[str]) -> str:
    out = parts[0]
    for p in parts[1:]:
        out += p if p.startswith("-") else "+" + p
    return out


def _wrap(node: Dice) -> str:
    """The notation of a term of a sum, in parentheses where precedence needs them."""
    return f"({node})" if isinstance(node, Compare | Sum) else str(node)


def _wrap_text(node: Dice, text: str) -> str:
    return f"({text})" if isinstance(node, Compare | Sum) else text


@dataclass(frozen=True, slots=True, repr=False)
class Neg(Dice):
    """Minus a roll (``-d6``; ``d6-d4`` is ``d6`` plus ``Neg(d4)``)."""

    operand: Dice

    def __post_init__(self) -> None:
        _need_dice(self.operand, "the operand of Neg")

    def _compute(self) -> Dist:
        base = self.operand.dist()
        return Dist._make({-x: w for x, w in base._pairs()}, base._denom)

    def _sample(self, stream: Stream) -> int:
        return -self.operand._sample(stream)

    def _roll(self, stream: Stream) -> tuple[int, str]:
        v, text = self.operand._roll(stream)
        return -v, "-" + _wrap_neg(self.operand, text)

    def __neg__(self) -> Dice:
        return self.operand

    def __str__(self) -> str:
        return "-" + _wrap_neg(self.operand, str(self.operand))


def _wrap_neg(node: Dice, s: str) -> str:
    return f"({s})" if isinstance(node, Sum | Compare | Neg) or s.startswith("-") else s


@dataclass(frozen=True, slots=True, repr=False)
class Compare(Dice):
    """1 if the total meets a threshold, else 0 (``d10+2>=8``, ``2d6<5``)."""

    operand: Dice
    op: str
    threshold: int

    def __post_init__(self) -> None:
        _need_dice(self.operand, "the operand of Compare")
        _comparison(self.op)
        object.__setattr__(self, "threshold", _outcome(self.threshold))

    def _compute(self) -> Dist:
        base = self.operand.dist()
        test = COMPARISONS[self.op]
        t = self.threshold
        yes = no = 0
        for x, w in base._pairs():
            if test(x, t):
                yes += w
            else:
                no += w
        return Dist._make({1: yes, 0: no}, base._denom)

    def _sample(self, stream: Stream) -> int:
        return int(COMPARISONS[self.op](self.operand._sample(stream), self.threshold))

    def _roll(self, stream: Stream) -> tuple[int, str]:
        v, text = self.operand._roll(stream)
        hit = int(COMPARISONS[self.op](v, self.threshold))
        return hit, f"{text} ({v}) {self.op} {self.threshold}"

    def __str__(self) -> str:
        inner = str(self.operand)
        if isinstance(self.operand, Compare):
            inner = f"({inner})"
        return f"{inner}{self.op}{self.threshold}"


# -- exploding ---------------------------------------------------------------------------


def _format_bound(b: Fraction) -> str:
    if b.numerator == 1:
        k = len(str(b.denominator)) - 1
        if b.denominator == 10**k and k > 0:
            return f"1e-{k}"
    return f"{b.numerator}/{b.denominator}"


@dataclass(frozen=True, slots=True, repr=False)
class Explode(Dice):
    """Roll again and add while the roll shows an outcome of ``on`` (``d6!4``, ``d6!~1e-9``).

    Exactly one of ``depth`` (the most extra rolls; a chain that reaches it just stops) or
    ``bound`` (keep going while the chance of ``j`` explosions in a row is ``>= bound``;
    longer chains are left out of :meth:`dist` and reported as its ``truncated`` mass)
    must be given. The sampler of a bounded explosion rolls without limit, as the rules
    do; it stops with certainty because some outcome does not explode.

    Attributes:
        operand: the roll that explodes (usually one die).
        on: the outcomes that explode (``Dice.explode`` defaults to the highest).
        depth: the most extra rolls, or ``None``.
        bound: the probability bound, or ``None``.
    """

    operand: Dice
    on: frozenset[int]
    depth: int | None = None
    bound: Fraction | None = None
    _chain: int = field(default=0, init=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        _need_dice(self.operand, "the operand of Explode")
        object.__setattr__(self, "on", frozenset(_outcome(x) for x in self.on))
        if (self.depth is None) == (self.bound is None):
            raise ValueError("an explosion needs exactly one of a depth or a bound")
        if self.bound is None:
            if isinstance(self.depth, bool) or not isinstance(self.depth, int):
                raise TypeError(f"depth must be an int, got {self.depth!r}")
            if not 0 <= self.depth <= MAX_DEPTH:
                raise ValueError(f"explosion depth must be 0 to {MAX_DEPTH}, got {self.depth}")
            object.__setattr__(self, "_chain", self.depth)
            return
        b = Fraction(self.bound)
        if not 0 < b < 1:
            raise ValueError(f"explosion bound must be between 0 and 1, got {b}")
        object.__setattr__(self, "bound", b)
        base = self.operand.dist()
        go = sum(w for x, w in base._pairs() if x in self.on)
        stop = sum(base._weights) - go
        if stop == 0:
            raise ValueError("every outcome explodes: the chain would never end")
        # The least J with P(J explosions in a row) = (go/denom)**J < b.
        j = 0
        num, den = 1, 1
        while num * b.denominator >= b.numerator * den:
            j += 1
            num *= go
            den *= base._denom
            if j > MAX_DEPTH:
                raise ValueError(
                    f"explosion bound {b} needs more than {MAX_DEPTH} levels for {self.operand}"
                )
        object.__setattr__(self, "_chain", j)

    def _compute(self) -> Dist:
        base = self.operand.dist()
        denom = base._denom
        stop = [(x, w) for x, w in base._pairs() if x not in self.on]
        go = [(x, w) for x, w in base._pairs() if x in self.on]
        levels = self._chain
        if not go or levels == 0:
            return base
        bounded = self.depth is None
        # Level j (j explosions so far): chain[s] = weight of the j exploding outcomes
        # summing to s, over denom**j. A level contributes chain * stop; the last level of
        # a depth cut contributes chain * base (that roll cannot explode); a bound cut
        # drops the chains still going, which is exactly the truncated mass.
        top = levels if bounded else levels + 1
        acc: dict[int, int] = {}
        get = acc.get
        chain: dict[int, int] = {0: 1}
        for j in range(levels):
            scale = denom ** (top - j - 1)
            for s, cw in chain.items():
                f = cw * scale
                for x, w in stop:
                    acc[s + x] = get(s + x, 0) + f * w
            nxt: dict[int, int] = {}
            for s, cw in chain.items():
                for x, w in go:
                    nxt[s + x] = nxt.get(s + x, 0) + cw * w
            chain = nxt
        if not bounded:
            for s, cw in chain.items():
                for x, w in base._pairs():
                    acc[s + x] = get(s + x, 0) + cw * w
        return Dist._make(acc, denom**top)

    def _sample(self, stream: Stream) -> int:
        x = self.operand._sample(stream)
        total = x
        extra = 0
        limit = self.depth
        while x in self.on and (limit is None or extra < limit):
            x = self.operand._sample(stream)
            total += x
            extra += 1
        return total

    def _roll(self, stream: Stream) -> tuple[int, str]:
        x = self.operand._sample(stream)
        seen = [x]
        limit = self.depth
        while x in self.on and (limit is None or len(seen) <= limit):
            x = self.operand._sample(stream)
            seen.append(x)
        return sum(seen), f"{self}[{'+'.join(map(str, seen))}]"

    @property
    def is_notation(self) -> bool:
        """Whether the notation writes this (``dX!n`` / ``dX!~b`` on a die's top face)."""
        return isinstance(self.operand, Die) and self.on == {max(self.operand.faces)}

    def __str__(self) -> str:
        if self.is_notation:
            cut = str(self.depth) if self.bound is None else "~" + _format_bound(self.bound)
            return f"{self.operand}!{cut}"
        faces = "{" + ",".join(map(str, sorted(self.on))) + "}"
        cut = f"depth={self.depth}" if self.bound is None else f"bound={_format_bound(self.bound)}"
        return f"explode({self.operand}, on={faces}, {cut})"


# -- pools -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, repr=False)
class Pool(Dice):
    """``n`` independent rolls of ``die`` (``3d6``); its value is their sum.

    Select from it with :meth:`highest`, :meth:`lowest`, :meth:`count`, :meth:`count_in`
    or any function of the sorted rolls with :meth:`apply`.
    """

    n: int
    die: Dice

    def __post_init__(self) -> None:
        _need_dice(self.die, "the die of a Pool")
        if isinstance(self.n, bool) or not isinstance(self.n, int):
            raise TypeError(f"the number of dice must be an int, got {self.n!r}")
        if not 1 <= self.n <= MAX_DICE:
            raise ValueError(f"a pool has 1 to {MAX_DICE} dice, got {self.n}")

    def highest(self, k: int = 1) -> Keep:
        """The sum of the ``k`` highest rolls (``10d6kh3``)."""
        return Keep(self, k, highest=True)

    def lowest(self, k: int = 1) -> Keep:
        """The sum of the ``k`` lowest rolls (``4d6kl1``)."""
        return Keep(self, k, highest=False)

    def count(self, op: str, threshold: int) -> Count:
        """How many rolls meet ``op threshold`` (``5d6#>=4``)."""
        _comparison(op)
        return Count(self, op, (_outcome(threshold),))

    def count_in(self, faces: Iterable[int]) -> Count:
        """How many rolls show one of ``faces`` (``5d6#{5,6}``)."""
        return Count(self, "in", tuple(sorted({_outcome(x) for x in faces})))

    def apply(self, f: Callable[[tuple[int, ...]], int], name: str | None = None) -> PoolApply:
        """``f`` of the rolls sorted in increasing order (for small pools).

        Exact by enumerating the distinct sorted rolls with multinomial weights; refuses
        pools with more than :data:`MAX_MULTISETS` of them.
        """
        return PoolApply(self, f, name or _name_of(f))

    def _compute(self) -> Dist:
        return _power(self.die.dist(), self.n)

    def _rolls(self, stream: Stream) -> list[int]:
        draw = self.die._sample
        return [draw(stream) for _ in range(self.n)]

    def _sample(self, stream: Stream) -> int:
        return sum(self._rolls(stream))

    def _roll(self, stream: Stream) -> tuple[int, str]:
        rolls = self._rolls(stream)
        return sum(rolls), f"{self}[{','.join(map(str, rolls))}]"

    def __str__(self) -> str:
        if isinstance(self.die, Die) or (isinstance(self.die, Explode) and self.die.is_notation):
            return f"{self.n}{self.die}"
        return f"pool({self.n}, {self.die})"


@dataclass(frozen=True, slots=True, repr=False)
class Keep(Dice):
    """The sum of the ``k`` highest (or lowest) rolls of a pool (``10d6kh3``, ``4d6kl1``)."""

    source: Pool
    k: int
    highest: bool = True

    def __post_init__(self) -> None:
        _need_pool(self.source, "Keep")
        if isinstance(self.k, bool) or not isinstance(self.k, int):
            raise TypeError(f"the number of dice to keep must be an int, got {self.k!r}")
        if not 1 <= self.k <= self.source.n:
            raise ValueError(f"cannot keep {self.k} of {self.source.n} dice")

    def _compute(self) -> Dist:
        return _keep(self.source.die.dist(), self.source.n, self.k, self.highest)

    def _select(self, rolls: list[int]) -> tuple[list[int], list[int]]:
        ordered = sorted(rolls, reverse=self.highest)
        return ordered[: self.k], ordered[self.k :]

    def _sample(self, stream: Stream) -> int:
        return sum(self._select(self.source._rolls(stream))[0])

    def _roll(self, stream: Stream) -> tuple[int, str]:
        kept, dropped = self._select(self.source._rolls(stream))
        tail = "|" + ",".join(map(str, dropped)) if dropped else ""
        return sum(kept), f"{self}[{','.join(map(str, kept))}{tail}]"

    def __str__(self) -> str:
        return f"{self.source}{'kh' if self.highest else 'kl'}{self.k}"


def _keep(elem: Dist, n: int, k: int, highest: bool) -> Dist:
    """Exact sum of the ``k`` best of ``n`` i.i.d. rolls, by a DP over the faces.

    Faces are visited best first. A state is (dice placed so far ``u < k``, their sum):
    at a face of weight ``w`` with ``R = n - u`` dice left, ``c`` of them show it with
    weight ``C(R, c) * w**c``. Once ``u + c >= k`` the kept sum is settled and the
    remaining ``R - c`` dice only have to fall below, weight ``B**(R - c)`` (``B`` =
    weight of the worse faces); summed over all such ``c`` that is
    ``(w + B)**R - sum_{c < k - u} C(R, c) w**c B**(R - c)``, so the work is
    ``O(faces * k * sums * k)``, independent of ``n`` beyond small-int arithmetic.
    """
    pairs = list(elem._pairs())
    if highest:
        pairs.reverse()
    below = sum(elem._weights)
    comb = math.comb
    states: dict[tuple[int, int], int] = {(0, 0): 1}
    result: dict[int, int] = {}
    rget = result.get
    for v, w in pairs:
        below -= w
        bpow = [1] * (n + 1)  # bpow[i] = below**i
        for i in range(1, n + 1):
            bpow[i] = bpow[i - 1] * below
        nxt: dict[tuple[int, int], int] = {}
        nget = nxt.get
        for (u, s), weight in states.items():
            left = n - u
            need = k - u
            settled = (w + below) ** left
            wc = 1
            for c in range(need):
                t = comb(left, c) * wc
                settled -= t * bpow[left - c]
                key = (u + c, s + c * v)
                nxt[key] = nget(key, 0) + weight * t
                wc *= w
            if settled:
                total = s + need * v
                result[total] = rget(total, 0) + weight * settled
        states = nxt
    return Dist._make(result, elem._denom**n)


@dataclass(frozen=True, slots=True, repr=False)
class Count(Dice):
    """How many rolls of a pool meet a test (``5d6#>=4``, ``5d6#6``, ``6d6#{2,5,6}``).

    ``op`` is a comparison of :data:`COMPARISONS` with ``values`` one threshold, or
    ``"in"`` with ``values`` the sorted faces that count.
    """

    source: Pool
    op: str
    values: tuple[int, ...]

    def __post_init__(self) -> None:
        _need_pool(self.source, "Count")
        if self.op == "in":
            vals = tuple(sorted({_outcome(x) for x in self.values}))
            if not vals:
                raise ValueError("count needs at least one face to count")
            object.__setattr__(self, "values", vals)
        else:
            _comparison(self.op)
            if len(self.values) != 1:
                raise ValueError(f"count {self.op} needs one threshold, got {self.values!r}")
            object.__setattr__(self, "values", (_outcome(self.values[0]),))

    def test(self, x: int) -> bool:
        """Whether one roll ``x`` counts."""
        if self.op == "in":
            return x in self.values
        return COMPARISONS[self.op](x, self.values[0])

    def _compute(self) -> Dist:
        elem = self.source.die.dist()
        yes = sum(w for x, w in elem._pairs() if self.test(x))
        no = sum(elem._weights) - yes
        n = self.source.n
        comb = math.comb
        # Binomial: C(n, c) yes**c no**(n-c) over denom**n.
        weights = {c: comb(n, c) * yes**c * no ** (n - c) for c in range(n + 1)}
        return Dist._make(weights, elem._denom**n)

    def _sample(self, stream: Stream) -> int:
        return sum(1 for x in self.source._rolls(stream) if self.test(x))

    def _roll(self, stream: Stream) -> tuple[int, str]:
        rolls = self.source._rolls(stream)
        marks = [f"{x}*" if self.test(x) else str(x) for x in rolls]
        return sum(1 for x in rolls if self.test(x)), f"{self}[{','.join(marks)}]"

    def __str__(self) -> str:
        if self.op == "in":
            return f"{self.source}#{{{','.join(map(str, self.values))}}}"
        if self.op == "==":
            return f"{self.source}#{self.values[0]}"
        return f"{self.source}#{self.op}{self.values[0]}"


@dataclass(frozen=True, slots=True, repr=False)
class PoolApply(Dice):
    """Any function of a pool's rolls, sorted in increasing order (no notation).

    For tests no notation covers, e.g. Zero Dark's "greatest number of groups whose sums
    reach the TN", with the game's own ``best_split`` function:
    ``d(12).pool(4).apply(best_split)``.
    """

    source: Pool
    f: Callable[[tuple[int, ...]], int]
    name: str = "f"

    def __post_init__(self) -> None:
        _need_pool(self.source, "PoolApply")
        if not callable(self.f):
            raise TypeError(f"PoolApply needs a function, got {self.f!r}")

    def _compute(self) -> Dist:
        elem = self.source.die.dist()
        n = self.source.n
        outs = elem._outcomes
        if math.comb(len(outs) + n - 1, n) > MAX_MULTISETS:
            raise ValueError(f"{self.source} has too many distinct rolls to enumerate")
        wmap = dict(elem._pairs())
        fact = math.factorial
        nfact = fact(n)
        acc: dict[int, int] = {}
        for combo in itertools.combinations_with_replacement(outs, n):
            # Multinomial weight of this sorted roll: n! / prod(c_i!) * prod(w_i**c_i).
            ways = nfact
            weight = 1
            for x, grp in itertools.groupby(combo):
                c = sum(1 for _ in grp)
                ways //= fact(c)
                weight *= wmap[x] ** c
            weight *= ways
            y = _outcome(self.f(combo))
            acc[y] = acc.get(y, 0) + weight
        return Dist._make(acc, elem._denom**n)

    def _sample(self, stream: Stream) -> int:
        return _outcome(self.f(tuple(sorted(self.source._rolls(stream)))))

    def _roll(self, stream: Stream) -> tuple[int, str]:
        rolls = tuple(sorted(self.source._rolls(stream)))
        return _outcome(self.f(rolls)), f"{self.name}({self.source}[{','.join(map(str, rolls))}])"

    def __str__(self) -> str:
        return f"apply({self.source}, {self.name})"


# -- outcome -> result functions -----------------------------------------------------------


@dataclass(frozen=True, slots=True, repr=False)
class Map(Dice):
    """``f(x)`` of a roll's outcome ``x`` (no notation; ``Dice.map``)."""

    operand: Dice
    f: Callable[[int], int]
    name: str = "f"

    def __post_init__(self) -> None:
        _need_dice(self.operand, "the operand of Map")
        if not callable(self.f):
            raise TypeError(f"Map needs a function, got {self.f!r}")

    def _compute(self) -> Dist:
        return self.operand.dist().map(self.f)

    def _sample(self, stream: Stream) -> int:
        return _outcome(self.f(self.operand._sample(stream)))

    def _roll(self, stream: Stream) -> tuple[int, str]:
        v, text = self.operand._roll(stream)
        return _outcome(self.f(v)), f"{self.name}({text})"

    def __str__(self) -> str:
        return f"map({self.operand}, {self.name})"


@dataclass(frozen=True, slots=True, repr=False)
class Bind(Dice):
    """Roll ``operand``; its outcome ``x`` chooses the next roll ``f(x)`` (``Dice.bind``)."""

    operand: Dice
    f: Callable[[int], Dice | int]
    name: str = "f"

    def __post_init__(self) -> None:
        _need_dice(self.operand, "the operand of Bind")
        if not callable(self.f):
            raise TypeError(f"Bind needs a function, got {self.f!r}")

    def _next(self, x: int) -> Dice:
        return _as_dice(self.f(x))

    def _compute(self) -> Dist:
        first = self.operand.dist()
        subs = [(w, self._next(x).dist()) for x, w in first._pairs()]
        common = math.lcm(*(sd._denom for _, sd in subs)) if subs else 1
        acc: dict[int, int] = {}
        for w, sd in subs:
            f = w * (common // sd._denom)
            for y, wy in sd._pairs():
                acc[y] = acc.get(y, 0) + f * wy
        return Dist._make(acc, first._denom * common)

    def _sample(self, stream: Stream) -> int:
        return self._next(self.operand._sample(stream))._sample(stream)

    def _roll(self, stream: Stream) -> tuple[int, str]:
        x, first = self.operand._roll(stream)
        v, then = self._next(x)._roll(stream)
        return v, f"{first} -> {then}"

    def __str__(self) -> str:
        return f"bind({self.operand}, {self.name})"


def best_of(dice: Dice, n: int = 2) -> Keep:
    """Roll ``dice`` ``n`` times and keep the best (highest) result."""
    return Pool(n, dice).highest(1)


def worst_of(dice: Dice, n: int = 2) -> Keep:
    """Roll ``dice`` ``n`` times and keep the worst (lowest) result."""
    return Pool(n, dice).lowest(1)


def exploding_check(
    sides: int,
    target: int,
    *,
    modifier: int = 0,
    natural_miss: int | None = 1,
    depth: int | None = None,
) -> Bind:
    """1 if ``d<sides>`` exploding on its top face, plus ``modifier``, reaches ``target``.

    The natural (first) die decides first: if it shows ``natural_miss`` the check fails
    whatever the total. A top face rolls another die and adds it, and so on (an extra die
    adds its face, a 1 included, and explodes in turn on the top face). Specter Ops'
    attack is ``exploding_check(6, distance)`` (SO-X1, X3, X4, X5).

    Rolling stops as soon as the total reaches the target (more dice only add), so with
    ``depth=None`` the explosion is unlimited, as the rules say, and still exact: at most
    about ``target / sides`` dice can matter. ``depth`` caps the number of extra dice.

    Raises:
        ValueError: the target needs more than :data:`MAX_DEPTH` extra dice.
    """
    die = d(sides)
    if depth is not None and not 0 <= depth <= MAX_DEPTH:
        raise ValueError(f"depth must be 0 to {MAX_DEPTH}, got {depth}")
    if depth is None and (target - modifier) // sides > MAX_DEPTH:
        raise ValueError(f"target {target} needs more than {MAX_DEPTH} exploding dice")
    name = f"check(d{sides}!{'' if depth is None else depth}{modifier:+d}>={target})"

    def step(total: int, extra: int) -> Callable[[int], Dice | int]:
        def next_die(face: int) -> Dice | int:
            if extra == 0 and face == natural_miss:
                return 0
            reached = total + face
            if reached + modifier >= target:
                return 1  # settled: the hunter need not roll again
            if face == sides and (depth is None or extra < depth):
                return die.bind(step(reached, extra + 1), name)
            return 0

        return next_die

    return die.bind(step(0, 0), name)


# ---------------------------------------------------------------------------------------
# The notation
# ---------------------------------------------------------------------------------------

_DIGITS = re.compile(r"[0-9]+")
_PROB = re.compile(r"[0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?(?:/[0-9]+)?")
_CMP = re.compile(r">=|<=|==|=|>|<")
_SPACE = " \t"


class _Parser:
    """Recursive descent over the grammar in docs/dice.md (positions are 0-based)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0

    def fail(self, reason: str, pos: int | None = None) -> NoReturn:
        raise InvalidNotationError(self.text, reason, position=self.pos if pos is None else pos)

    def peek(self) -> str:
        return self.text[self.pos : self.pos + 1]

    def skip_space(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos] in _SPACE:
            self.pos += 1

    def number(self, what: str) -> tuple[int, int]:
        """An unsigned integer literal and its position."""
        m = _DIGITS.match(self.text, self.pos)
        if not m:
            found = self.peek()
            self.fail(f"expected {what}" + (f", found {found!r}" if found else ""))
        if len(m.group()) > 9:
            self.fail(f"number too large (at most {_MAX_LITERAL:,})")
        self.pos = m.end()
        return int(m.group()), m.start()

    def signed(self, what: str) -> int:
        neg = self.peek() == "-"
        if neg:
            self.pos += 1
        value, _ = self.number(what)
        return -value if neg else value

    def comparison_op(self) -> str | None:
        m = _CMP.match(self.text, self.pos)
        if not m:
            return None
        self.pos = m.end()
        return "==" if m.group() == "=" else m.group()

    def parse(self) -> Dice:
        self.skip_space()
        if self.pos == len(self.text):
            self.fail("empty dice notation")
        node = self.comparison()
        self.skip_space()
        if self.pos < len(self.text):
            c = self.peek()
            hint = " (did you mean '#' to count dice?)" if c in "<>=" else ""
            self.fail(f"unexpected {c!r}{hint}")
        return node

    def comparison(self) -> Dice:
        node = self.sum()
        save = self.pos
        self.skip_space()
        op = self.comparison_op()
        if op is None:
            self.pos = save
            return node
        self.skip_space()
        threshold = self.signed(f"a whole number after {op!r}")
        return Compare(node, op, threshold)

    def sum(self) -> Dice:
        terms: list[Dice] = []
        sign = "+"
        if self.peek() == "-":
            self.pos += 1
            self.skip_space()
            sign = "-"
        while True:
            term = self.term()
            terms.append(-term if sign == "-" else term)
            save = self.pos
            self.skip_space()
            sign = self.peek()
            if sign not in ("+", "-") or not sign:
                self.pos = save
                break
            self.pos += 1
            self.skip_space()
        return terms[0] if len(terms) == 1 else Sum(tuple(terms))

    def term(self) -> Dice:
        c = self.peek()
        if c == "(":
            start = self.pos
            self.pos += 1
            self.skip_space()
            node = self.comparison()
            self.skip_space()
            if self.peek() != ")":
                self.fail(f"expected ')' to close the '(' at column {start + 1}")
            self.pos += 1
            return node
        if c and c in "0123456789":
            value, start = self.number("a number")
            if self.peek() in ("d", "D") and self.peek():
                return self.dice(value, start)
            return Const(value)
        if c in ("d", "D") and c:
            return self.dice(None, self.pos)
        found = f", found {c!r}" if c else ", found the end"
        self.fail(f"expected a die (like d6 or 3d6), a number or '('{found}")

    def dice(self, count: int | None, start: int) -> Dice:
        self.pos += 1  # the 'd'
        die = self.faces()
        node: Dice = die
        if self.peek() == "!":
            node = self.explosion(die)
        select = self.text[self.pos : self.pos + 2].lower()
        if count is None and not (select[:1] in ("k", "#") or select in ("dh", "dl")):
            return node
        n = 1 if count is None else count
        if not 1 <= n <= MAX_DICE:
            self.fail(f"a pool has 1 to {MAX_DICE} dice, got {n}", start)
        pool = Pool(n, node)
        if select in ("kh", "kl", "dh", "dl") or select[:1] == "k":
            return self.keep(pool, select)
        if select[:1] == "#":
            return self.count(pool)
        return pool

    def faces(self) -> Die:
        if self.peek() == "{":
            open_pos = self.pos
            self.pos += 1
            faces: list[int] = []
            while True:
                self.skip_space()
                faces.append(self.signed("a face value (a whole number)"))
                self.skip_space()
                c = self.peek()
                if c == "}":
                    self.pos += 1
                    break
                if c != ",":
                    self.fail("expected ',' or '}' in the list of faces")
                self.pos += 1
            if len(faces) > MAX_FACES:
                self.fail(f"a die has at most {MAX_FACES} faces", open_pos)
            return Die(tuple(faces))
        sides, at = self.number("the number of sides or '{faces}' after 'd'")
        if not 1 <= sides <= MAX_FACES:
            self.fail(f"a die has 1 to {MAX_FACES} sides, got {sides}", at)
        return d(sides)

    def explosion(self, die: Die) -> Explode:
        bang = self.pos
        self.pos += 1
        on = frozenset({max(die.faces)})
        if self.peek() == "~":
            self.pos += 1
            m = _PROB.match(self.text, self.pos)
            if not m:
                self.fail("expected a probability bound after '!~' (like 1e-9 or 1/1000)")
            try:
                bound = Fraction(m.group())
            except (ValueError, ZeroDivisionError):
                self.fail(f"bad probability bound {m.group()!r}")
            at = self.pos
            self.pos = m.end()
            try:
                return Explode(die, on, bound=bound)
            except ValueError as exc:
                self.fail(str(exc), at)
        if not self.peek() or self.peek() not in "0123456789":
            self.fail(
                "expected an explosion depth (like d6!4) or a bound (like d6!~1e-9) after '!'"
            )
        depth, at = self.number("an explosion depth")
        if depth > MAX_DEPTH:
            self.fail(f"explosion depth must be at most {MAX_DEPTH}", at)
        try:
            return Explode(die, on, depth=depth)
        except ValueError as exc:  # pragma: no cover - depth checked above
            self.fail(str(exc), bang)

    def keep(self, pool: Pool, select: str) -> Keep:
        if select in ("kh", "kl", "dh", "dl"):
            self.pos += 2
        else:  # plain "k" = keep highest
            select = "kh"
            self.pos += 1
        k, at = self.number(f"the number of dice after {select!r}")
        n = pool.n
        if select[0] == "d":
            if not 0 <= k < n:
                self.fail(f"cannot drop {k} of {n} dice", at)
            return Keep(pool, n - k, highest=select == "dl")
        if not 1 <= k <= n:
            self.fail(f"cannot keep {k} of {n} dice", at)
        return Keep(pool, k, highest=select == "kh")

    def count(self, pool: Pool) -> Count:
        self.pos += 1  # the '#'
        if self.peek() == "{":
            self.pos += 1
            faces: list[int] = []
            while True:
                self.skip_space()
                faces.append(self.signed("a face to count (a whole number)"))
                self.skip_space()
                c = self.peek()
                if c == "}":
                    self.pos += 1
                    break
                if c != ",":
                    self.fail("expected ',' or '}' in the faces to count")
                self.pos += 1
            return Count(pool, "in", tuple(faces))
        op = self.comparison_op() or "=="
        value = self.signed("a threshold after '#' (like #>=4 or #6)")
        return Count(pool, op, (value,))


@functools.lru_cache(maxsize=1024)
def _parse_cached(text: str) -> Dice:
    return _Parser(text).parse()


def parse(text: str) -> Dice:
    """Parse dice notation (see ``docs/dice.md``) into an immutable :class:`Dice`.

    ``str()`` of the result is the canonical notation, and ``parse(str(x)) == x``.

    Raises:
        InvalidNotationError: with the 0-based ``position`` of the problem.
    """
    if not isinstance(text, str):
        raise TypeError(f"dice notation is a str, got {text!r}")
    return _parse_cached(text)
