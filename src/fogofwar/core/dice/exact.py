"""The exact computations on distributions: integer-weight algorithms, never sampling.

Every exact computation works on integer weights over one common denominator and only
makes :class:`~fractions.Fraction` objects when asked, which keeps it fast: sums are
convolutions, keep-highest/lowest is a dynamic programme over the faces with binomial
counts (never an enumeration of all rolls), counting is a binomial. Each node of a dice
expression computes its distribution with these, from its parts' distributions.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence

from ..errors import RulesError
from .dist import Dist, _outcome
from .limits import MAX_PAIRS


def _convolve(a: Dist, b: Dist) -> Dist:
    """The distribution of ``A + B`` for independent A and B.

    Raises:
        RulesError: more than :data:`MAX_PAIRS` pairs of outcomes to combine.
    """
    if len(a._outcomes) == 1 and a._denom == 1:  # a constant: just shift
        return _shift(b, a._outcomes[0])
    if len(b._outcomes) == 1 and b._denom == 1:
        return _shift(a, b._outcomes[0])
    if len(a._outcomes) * len(b._outcomes) > MAX_PAIRS:
        raise RulesError(
            f"an exact distribution too large to work out: a sum of {len(a._outcomes):,} "
            f"outcomes and {len(b._outcomes):,} ({MAX_PAIRS:,} pairs at most a step); "
            "fewer dice or faces"
        )
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


def _explode(base: Dist, on: frozenset[int], levels: int, *, bounded: bool) -> Dist:
    """The law of an explosion (:class:`~fogofwar.core.dice.nodes.Explode`): ``base`` rolled
    again and added while it shows an outcome of ``on``, for at most ``levels`` extra rolls;
    ``bounded`` cuts the chains still going (a bound), else the last roll cannot explode
    (a depth)."""
    denom = base._denom
    stop = [(x, w) for x, w in base._pairs() if x not in on]
    go = [(x, w) for x, w in base._pairs() if x in on]
    if not go or levels == 0:
        return base
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


def _count(elem: Dist, n: int, test: Callable[[int], bool]) -> Dist:
    """How many of ``n`` i.i.d. rolls of ``elem`` pass ``test``: a binomial."""
    yes = sum(w for x, w in elem._pairs() if test(x))
    no = sum(elem._weights) - yes
    comb = math.comb
    # Binomial: C(n, c) yes**c no**(n-c) over denom**n.
    weights = {c: comb(n, c) * yes**c * no ** (n - c) for c in range(n + 1)}
    return Dist._make(weights, elem._denom**n)


def _apply(elem: Dist, n: int, f: Callable[[tuple[int, ...]], int]) -> Dist:
    """``f`` of ``n`` i.i.d. rolls of ``elem`` sorted in increasing order, exact by
    enumerating the distinct sorted rolls with multinomial weights."""
    outs = elem._outcomes
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
        y = _outcome(f(combo))
        acc[y] = acc.get(y, 0) + weight
    return Dist._make(acc, elem._denom**n)


def _bind(denom: int, subs: Sequence[tuple[int, Dist]]) -> Dist:
    """The mixture of the ``subs``: each distribution chosen with its weight over ``denom``."""
    common = math.lcm(*(sd._denom for _, sd in subs)) if subs else 1
    acc: dict[int, int] = {}
    for w, sd in subs:
        f = w * (common // sd._denom)
        for y, wy in sd._pairs():
            acc[y] = acc.get(y, 0) + f * wy
    return Dist._make(acc, denom * common)
