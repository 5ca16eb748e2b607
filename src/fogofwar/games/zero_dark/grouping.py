"""ZD-C1, the Zero Dark test: roll a stat's worth of d12s and split the dice into the
greatest number of groups whose sums each reach the target number (TN); each group is
one success.

Finding the best split is a small bin-covering problem. :func:`best_split` solves it
exactly:

* a die that reaches the TN alone is a group by itself (putting other dice with it
  never helps: they could only be freed);
* the rest is a search over the *minimal* groups (no die could be dropped) that hold
  the largest die left — some best split has the largest die in a group, since it
  could replace any die of a group that leaves it out — memoised on the multiset;
* an upper bound (the total, the fewest dice a group needs, and the most disjoint
  pairs that reach the TN, other groups needing three dice) ends the search as soon
  as a split meets it; a group is closed by the smallest die that completes it (a
  larger one could be swapped for it), which also makes the first split tried a best
  fit.

:func:`successes_dice` is a test as a kernel dice object (``n`` d12s whose value is
the successes): the rules roll it, and read the dice from its :attr:`Roll.faces
<fogofwar.core.dice.Roll>`. :func:`distribution` gives its exact law fast — every sorted
roll with its multinomial weight, screened with numpy — and the odds command shows it;
the tests check the two against each other.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import numpy.typing as npt

from ...core.dice import Dice
from ...core.dice import d as die
from ...core.errors import RulesError

__all__ = [
    "D12",
    "MAX_DICE",
    "SIDES",
    "best_split",
    "distribution",
    "successes",
    "successes_dice",
]

SIDES = 12
"""Zero Dark tests roll d12s (ZD-C1)."""

D12 = die(SIDES)
"""The die of every test (ZD-C1)."""

MAX_DICE = 13
"""The exact distribution is offered for up to this many dice (ZD-C1): the most a test
rolls, a stat of 12 (the ``ally`` option's highest, ZD-P5) and a targeted bogey's die
(ZD-C3)."""

#: Sorted rolls screened at once by :func:`distribution` (bounds its memory).
_CHUNK = 200_000


def _check(dice: Sequence[int], tn: int) -> None:
    if tn < 1:
        raise RulesError(f"a target number is at least 1, not {tn}")
    for d in dice:
        if not 1 <= d <= SIDES:
            raise RulesError(f"a d{SIDES} shows 1 to {SIDES}, not {d}")


def successes(dice: Iterable[int], tn: int) -> int:
    """The greatest number of groups of ``dice`` whose sums each reach ``tn`` (ZD-C1)."""
    ordered = tuple(sorted(dice, reverse=True))
    _check(ordered, tn)
    big = 0
    for d in ordered:
        if d < tn:
            break
        big += 1
    return big + _solve(ordered[big:], tn)


@dataclass(frozen=True, slots=True)
class _Successes:
    """The successes of sorted dice at a TN: a value, so equal tests are equal dice
    objects (and share their cached distribution)."""

    tn: int

    def __call__(self, dice: tuple[int, ...]) -> int:
        return successes(dice, self.tn)


@functools.lru_cache(maxsize=1024)
def successes_dice(dice: int, tn: int) -> Dice:
    """A ZD-C1 test as a dice object: ``dice`` d12s (1 or more) whose value is the
    successes at ``tn``. ``successes_dice(n, tn).roll(stream)`` draws the dice one by
    one, as ``stream.die(12)`` would, and keeps them in :attr:`Roll.faces`; its exact law
    is :func:`distribution` (the kernel's enumeration gives the same, more slowly)."""
    return D12.pool(dice).apply(_Successes(tn), f"groups>={tn}")


def best_split(dice: Iterable[int], tn: int) -> tuple[tuple[int, ...], ...]:
    """A best split of ``dice`` into groups reaching ``tn`` (largest dice first in each
    group, the groups in decreasing order of their first die); dice left out of every
    group are not listed. ``len(best_split(d, tn)) == successes(d, tn)``."""
    ordered = tuple(sorted(dice, reverse=True))
    _check(ordered, tn)
    groups: list[tuple[int, ...]] = [(d,) for d in ordered if d >= tn]
    rest = tuple(d for d in ordered if d < tn)
    while True:
        target = _solve(rest, tn)
        if target == 0:
            return tuple(groups)
        for group, remaining in _minimal_groups(rest, tn):
            if 1 + _solve(remaining, tn) == target:
                groups.append(group)
                rest = remaining
                break
        else:  # pragma: no cover - _solve found a split, so one of these is it
            raise RuntimeError("no group achieves the best split")


# ---------------------------------------------------------------------------- the search


def _upper_bound(small: tuple[int, ...], tn: int) -> int:
    """At most this many groups: by the total; by the fewest dice a group needs (the
    largest dice first); and since two dice under half the TN never reach it together,
    a group without a die of at least half the TN needs three dice or more."""
    total = sum(small)
    acc = need = 0
    for d in small:
        acc += d
        need += 1
        if acc >= tn:
            break
    else:
        return 0
    n = len(small)
    bound = min(total // tn, n // need)
    # Every group has 2 dice or more; at most ``pairs`` disjoint pairs reach the TN, and
    # with p pairs the other groups need 3 dice each and are made of what the pairs leave:
    # both dice of a pair are at least TN - the largest die, so p pairs take at least the
    # 2p smallest such dice (and at least p TNs).
    pairs = _pairs(small, tn)
    eligible = sorted(d for d in small if d >= tn - small[0])
    best = 0
    spent = 0
    for p in range(pairs + 1):
        if p:
            if 2 * p > len(eligible):
                break
            spent += eligible[2 * p - 2] + eligible[2 * p - 1]
        rest = total - max(p * tn, spent)
        best = max(best, p + min(rest // tn, (n - 2 * p) // 3))
    return min(bound, best)


def _pairs(small: tuple[int, ...], tn: int) -> int:
    """The most disjoint pairs of dice that each reach ``tn`` (descending dice): the
    largest die left with the smallest that completes it; a smallest die that cannot
    complete even the largest is no use in a pair."""
    i, j, found = len(small) - 1, 0, 0
    while j < i:
        if small[i] + small[j] >= tn:
            found += 1
            j += 1
        i -= 1
    return found


@functools.lru_cache(maxsize=1 << 20)
def _solve(small: tuple[int, ...], tn: int) -> int:
    """Best number of groups of ``small`` (descending, every die below ``tn``)."""
    bound = _upper_bound(small, tn)
    if bound == 0:
        return 0
    return _search(small, tn, bound, 0)


def _search(small: tuple[int, ...], tn: int, bound: int, best: int) -> int:
    """The best number of groups of ``small``, knowing it is at most ``bound`` and at
    least ``best``. The first group tried is the largest die with the smallest that
    completes it (a best fit), so the first path down is a good split already; a group
    whose remaining dice cannot beat ``best`` (by their bound) is not searched."""
    for _, remaining in _minimal_groups(small, tn):
        if 1 + _upper_bound(remaining, tn) <= best:
            continue
        found = 1 + _solve(remaining, tn)
        if found > best:
            best = found
            if best >= bound:
                break
    return best


def _minimal_groups(
    small: tuple[int, ...], tn: int
) -> Iterable[tuple[tuple[int, ...], tuple[int, ...]]]:
    """The minimal groups holding the largest die that a best split needs, with the dice
    left: the other members chosen from the rest (descending, equal values taken in
    order, so each multiset once), the group closed by the smallest die that makes
    the sum reach ``tn``."""
    first, rest = small[0], small[1:]
    n = len(rest)
    suffix = [0] * (n + 1)
    for i in range(n - 1, -1, -1):
        suffix[i] = suffix[i + 1] + rest[i]
    chosen: list[int] = []

    def walk(start: int, total: int) -> Iterable[tuple[tuple[int, ...], tuple[int, ...]]]:
        # The dice from ``start`` that would complete the group come first (descending);
        # only the smallest of them is tried: swapping a larger completing die for it
        # keeps every split valid and frees the larger die.
        last = -1
        k = start
        while k < n and total + rest[k] >= tn:
            last = k
            k += 1
        if last >= 0:
            chosen.append(last)
            picked = set(chosen)
            group = (first, *(rest[i] for i in chosen))
            yield group, tuple(rest[i] for i in range(n) if i not in picked)
            chosen.pop()
        prev = None
        for i in range(k, n):
            v = rest[i]
            if v == prev:
                continue
            prev = v
            if total + suffix[i] < tn:
                return  # even every die from here on falls short
            chosen.append(i)
            yield from walk(i + 1, total + v)
            chosen.pop()

    return walk(0, first)


# ------------------------------------------------------------------------- distributions


def _rolls(dice: int) -> npt.NDArray[np.int16]:
    """Every sorted roll of ``dice`` d12s, one row each, largest die first."""
    rows = np.arange(SIDES, 0, -1, dtype=np.int16).reshape(-1, 1)
    for _ in range(dice - 1):
        last = rows[:, -1]
        # Each row goes on with every value up to its last die (descending rows).
        reps = last.astype(np.int64)
        base = np.repeat(rows, reps, axis=0)
        starts = np.cumsum(reps) - reps
        nxt = np.arange(base.shape[0]) - np.repeat(starts, reps)
        values = np.repeat(last, reps) - nxt.astype(np.int16)
        rows = np.concatenate([base, values.reshape(-1, 1)], axis=1)
    return rows if dice else np.zeros((1, 0), dtype=np.int16)


def _screen(rolls: npt.NDArray[np.int16], tn: int) -> tuple[npt.NDArray[np.int64], ...]:
    """For every roll at once: the dice that reach ``tn`` alone, an upper bound on the
    groups of the others (as :func:`_upper_bound`) and a greedy split of them (the
    largest die left topped up with the smallest): where the two meet, that is the
    answer; elsewhere the exact search decides."""
    m, n = rolls.shape
    big = (rolls >= tn).sum(axis=1)
    count = n - big
    # Rows are descending, so the dice below the TN are each row's last ``count``: move
    # them to the front (zeros after them).
    cols = np.arange(n)
    where = np.minimum(big[:, None] + cols, n - 1)
    small = np.where(cols < count[:, None], np.take_along_axis(rolls, where, axis=1), 0)
    small = small.astype(np.int32)
    total = small.sum(axis=1)
    flat = small.ravel()
    base = np.arange(m) * n

    def at(k: npt.NDArray[np.int64]) -> npt.NDArray[np.int32]:
        found: npt.NDArray[np.int32] = flat[base + np.clip(k, 0, n - 1)]
        return found

    reach = np.cumsum(small, axis=1) >= tn
    need = np.where(reach.any(axis=1), reach.argmax(axis=1) + 1, 0)
    bound = np.where(need > 0, np.minimum(total // tn, count // np.maximum(need, 1)), 0)
    # As _upper_bound: at most ``pairs`` disjoint pairs reach the TN; other groups need
    # three dice. Two pointers per row: the largest die left and the smallest.
    i = count - 1
    j = np.zeros(m, dtype=np.int64)
    pairs = np.zeros(m, dtype=np.int64)
    for _ in range(n):
        live = j < i
        if not live.any():
            break
        ok = live & (at(i) + at(j) >= tn)
        pairs += ok
        j += ok
        i -= live
    # ... and the sum the pairs leave for the other groups: the dice of p pairs are at
    # least TN - the largest die, so they take at least the 2p smallest such dice. Those
    # are, ascending, the small dice from the row's end back to the first below that.
    low = tn - small[:, 0]
    eligible = ((small >= low[:, None]) & (small > 0)).sum(axis=1)
    backwards = np.cumsum(small[:, ::-1], axis=1)  # from the smallest die up
    zeros = n - count  # the padding at the row's end comes first in ``backwards``
    best = np.minimum(total // tn, count // 3)  # p = 0
    skipped = count - eligible  # small dice below ``low``: the smallest ones
    start = zeros + skipped - 1  # where the cumulative sum before the eligible dice is
    before = np.where(
        start >= 0, np.take_along_axis(backwards, np.maximum(start, 0)[:, None], axis=1)[:, 0], 0
    )
    for p in range(1, n // 2 + 1):
        upto = np.minimum(start + 2 * p, n - 1)
        spent = np.take_along_axis(backwards, upto[:, None], axis=1)[:, 0] - before
        cost = np.maximum(p * tn, spent)
        feasible = (p <= pairs) & (2 * p <= eligible)
        here = p + np.minimum((total - cost) // tn, (count - 2 * p) // 3)
        best = np.where(feasible, np.maximum(best, here), best)
    bound = np.minimum(bound, best)
    # Greedy: two pointers per row over the small dice (descending).
    hi = np.zeros(m, dtype=np.int64)
    lo = count - 1
    acc = np.zeros(m, dtype=np.int64)
    groups = np.zeros(m, dtype=np.int64)
    live = hi <= lo
    for _ in range(n):
        # Open a group with the largest die left where none is open.
        opening = live & (acc == 0)
        acc = np.where(opening, at(hi), acc)
        hi = np.where(opening, hi + 1, hi)
        # Top it up with the smallest die left.
        topping = live & (acc > 0) & (acc < tn) & (hi <= lo)
        acc = np.where(topping, acc + at(lo), acc)
        lo = np.where(topping, lo - 1, lo)
        closed = live & (acc >= tn)
        groups += closed
        acc = np.where(closed, 0, acc)
        live = live & (hi <= lo)
        if not live.any():
            break
    return big.astype(np.int64), bound.astype(np.int64), groups, small.astype(np.int64)


def _best_fit(small: npt.NDArray[np.int64], tn: int) -> npt.NDArray[np.int64]:
    """The best-fit greedy split of each row at once (a lower bound): open a group with
    the largest die left, then add the smallest die that completes it, else the largest
    die left; stop at the first group that cannot be completed."""
    avail = small.astype(np.int32)
    m, n = avail.shape
    rows = np.arange(m)
    groups = np.zeros(m, dtype=np.int64)
    alive = np.ones(m, dtype=bool)
    never = np.int32(1 << 20)
    for _ in range(n // 2 + 1):
        first = avail.argmax(axis=1)
        acc = np.where(alive, avail[rows, first], 0)
        avail[rows, first] = np.where(alive, 0, avail[rows, first])
        alive &= acc > 0
        for _ in range(n):
            building = alive & (acc < tn)
            if not building.any():
                break
            need = (tn - acc)[:, None]
            fits = np.where((avail >= need) & (avail > 0), avail, never)
            k = fits.argmin(axis=1)
            found = fits[rows, k] < never
            take = np.where(found, k, avail.argmax(axis=1))
            v = np.where(building, avail[rows, take], 0)
            acc += v
            avail[rows, take] -= v
            alive &= ~(building & (v == 0))  # nothing left to add: no more groups
        done = alive & (acc >= tn)
        groups += done
        alive = done
        if not alive.any():
            break
    return groups


@functools.lru_cache(maxsize=256)
def distribution(dice: int, tn: int) -> dict[int, Fraction]:
    """The exact distribution of successes of a test of ``dice`` d12s at ``tn`` (ZD-C1):
    success count -> probability, every count from 0 to the most possible.

    Every sorted roll is weighed by its number of orders; all of them are screened at
    once with numpy (:func:`_screen`) and only the rolls where the greedy split falls
    short of the bound are searched exactly (:func:`_solve`, memoised).

    Raises:
        RulesError: ``dice`` outside 0..:data:`MAX_DICE` or ``tn`` below 1.
    """
    if not 0 <= dice <= MAX_DICE:
        raise RulesError(f"the exact test distribution is for 0 to {MAX_DICE} dice, not {dice}")
    if tn < 1:
        raise RulesError(f"a target number is at least 1, not {tn}")
    if dice == 0:
        return {0: Fraction(1)}
    rolls = _rolls(dice)
    fact = np.array([math.factorial(k) for k in range(dice + 1)], dtype=np.int64)
    counts = np.zeros(dice + 1, dtype=np.int64)
    # A chunk of rolls at a time: the screen's arrays are rows x dice, and 13 dice have
    # 2.5 million sorted rolls (about 2 GB at once; a chunk's are a few dozen MB).
    for first in range(0, rolls.shape[0], _CHUNK):
        chunk = rolls[first : first + _CHUNK]
        m = chunk.shape[0]
        cells = (np.arange(m)[:, None] * (SIDES + 1) + chunk).ravel()
        faces = np.bincount(cells, minlength=m * (SIDES + 1)).reshape(m, SIDES + 1)
        ways = fact[dice] // np.prod(fact[faces], axis=1)
        big, bound, greedy, small = _screen(chunk, tn)
        best = greedy.copy()
        hard = np.flatnonzero(greedy < bound)
        if hard.size:
            best[hard] = np.maximum(best[hard], _best_fit(small[hard], tn))
        left = np.flatnonzero(best < bound)
        rows = zip(
            left.tolist(),
            small[left].tolist(),
            bound[left].tolist(),
            best[left].tolist(),
            strict=True,
        )
        for i, row, top, found in rows:
            # The screen's bound and greedy split are known: search between them.
            best[i] = _search(tuple(x for x in row if x), tn, top, found)
        np.add.at(counts, big + best, ways)
    while len(counts) > 1 and counts[-1] == 0:
        counts = counts[:-1]
    total = SIDES**dice
    return {k: Fraction(int(c), total) for k, c in enumerate(counts.tolist())}
