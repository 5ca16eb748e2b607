"""Dice expressions: the immutable tree of :class:`Dice` nodes.

Every node computes its exact distribution (:meth:`Dice.dist`, from
:mod:`~fogofwar.core.dice.exact`), samples itself from a keyed stream (:meth:`Dice.sample`)
and prints its notation (``str``). The nodes form one family: the builders of the base
class make every kind of node, and every node is a :class:`Dice`.

Exploding dice can be cut off at a *depth* (``d6!4``: at most 4 extra dice; the last
extra die may show a 6 and simply stops) or at a probability *bound* (``d6!~1e-9``: keep
exploding while the chance of the chain going on is at least the bound). A bound cut
leaves out the rare long chains: the :class:`Dist` then lists ``P(outcome and no chain
was cut)`` for each outcome and reports the left-out mass as :attr:`Dist.truncated`.
The sampler of a bounded explosion rolls the real, unbounded process.

Distributions are cached per (structurally equal) expression;
:func:`~fogofwar.core.dice.notation.clear_caches` empties the caches.
"""

from __future__ import annotations

import functools
import math
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable
from contextvars import ContextVar
from dataclasses import dataclass, field
from fractions import Fraction

from ..rng import Stream
from .dist import COMPARISONS, Dist, _comparison, _outcome
from .exact import _apply, _bind, _convolve, _count, _explode, _keep, _power, _shift
from .limits import MAX_DEPTH, MAX_DICE, MAX_FACES, MAX_MULTISETS

#: Where :meth:`Dice.roll` collects the faces of the dice rolled (``None``: not rolling).
_FACES: ContextVar[list[int] | None] = ContextVar("fogofwar_dice_faces", default=None)


def _short(x: Fraction) -> str:
    """A fraction for an error message: exact while short (``1/1000``), else about
    (``≈ 1e-400``), so that a bound of hundreds of digits prints on one line."""
    text = str(x)
    if len(text) <= 24:
        return text
    if x == 0:
        return "0"
    sign = "-" if x < 0 else ""
    x = abs(x)
    exp = len(str(x.numerator)) - len(str(x.denominator))
    mant = x / Fraction(10) ** exp
    while mant >= 10:
        mant, exp = mant / 10, exp + 1
    while mant < 1:
        mant, exp = mant * 10, exp - 1
    return f"≈ {sign}{float(mant):.3g}e{exp}"


@functools.lru_cache(maxsize=4096)
def _cached_dist(node: Dice) -> Dist:
    return node._compute()


# ---------------------------------------------------------------------------------------
# Dice expressions
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Roll:
    """One sampled roll: its value, a readable trace (e.g. ``3d6[2,5,6]+2``) and the
    face every die showed, in the order rolled (``(2, 5, 6)``) — for a rule that reads
    a natural die, and for events that show the dice."""

    value: int
    text: str
    faces: tuple[int, ...] = ()

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
        faces: list[int] = []
        token = _FACES.set(faces)
        try:
            value, text = self._roll(stream)
        finally:
            _FACES.reset(token)
        return Roll(value, text, tuple(faces))

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
        x = self.faces[stream.randbelow(len(self.faces))]
        shown = _FACES.get()
        if shown is not None:  # inside Dice.roll: keep every face, in order
            shown.append(x)
        return x

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
            raise ValueError(f"explosion bound must be between 0 and 1, got {_short(b)}")
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
                    f"explosion bound {_short(b)} needs more than {MAX_DEPTH} levels for "
                    f"{self.operand}"
                )
        object.__setattr__(self, "_chain", j)

    def _compute(self) -> Dist:
        return _explode(self.operand.dist(), self.on, self._chain, bounded=self.depth is None)

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
        return _count(self.source.die.dist(), self.source.n, self.test)

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
        return _apply(elem, n, self.f)

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
        return _bind(first._denom, subs)

    def _sample(self, stream: Stream) -> int:
        return self._next(self.operand._sample(stream))._sample(stream)

    def _roll(self, stream: Stream) -> tuple[int, str]:
        x, first = self.operand._roll(stream)
        v, then = self._next(x)._roll(stream)
        return v, f"{first} -> {then}"

    def __str__(self) -> str:
        return f"bind({self.operand}, {self.name})"
