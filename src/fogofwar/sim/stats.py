"""Statistics for batches of games: win rates with Wilson intervals, and differences.

Formulas (``z`` is the normal quantile, 1.959964 for 95%):

* **Wilson score interval** for ``k`` successes in ``n`` trials, ``p = k/n``::

      centre = (p + z²/2n) / (1 + z²/n)
      half   = z / (1 + z²/n) · sqrt(p(1-p)/n + z²/4n²)
      [centre - half, centre + half]

  It stays inside [0, 1] and behaves well near 0 and 1 and for small ``n``, where the
  usual ``p ± z·sqrt(p(1-p)/n)`` does not. With ``n = 0`` the interval is [0, 1].

* **Difference of two independent proportions** ``d = p1 - p2`` by Newcombe's hybrid
  score method (Newcombe 1998, method 10), from the Wilson intervals ``[l1, u1]`` and
  ``[l2, u2]``::

      low  = d - sqrt((p1 - l1)² + (u2 - p2)²)
      high = d + sqrt((u1 - p1)² + (p2 - l2)²)
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from statistics import NormalDist

from fogofwar.core.game import JSON, Outcome

__all__ = [
    "Z95",
    "BatchStats",
    "Difference",
    "Interval",
    "Proportion",
    "Spread",
    "difference",
    "interval_text",
    "proportion",
    "spread",
    "summarize",
    "t_quantile",
    "wilson_interval",
]

Z95 = NormalDist().inv_cdf(0.975)
"""The two-sided 95% normal quantile (1.959963984540054)."""


@dataclass(frozen=True, slots=True)
class Interval:
    """A closed interval ``[low, high]``."""

    low: float
    high: float

    def __contains__(self, x: float) -> bool:
        return self.low <= x <= self.high

    def to_json(self) -> list[float | None]:
        """Return ``[low, high]``; ``null`` for an end there is none of (one game):
        JSON has no NaN, and a strict parser refuses the ``NaN`` Python would write."""
        return [_number(self.low), _number(self.high)]


def _number(x: float) -> float | None:
    """``x`` for JSON: ``None`` (``null``) for NaN."""
    return None if math.isnan(x) else x


def wilson_interval(successes: int, trials: int, z: float = Z95) -> Interval:
    """Return the Wilson score interval of ``successes`` in ``trials`` (95% by default).

    Raises:
        ValueError: counts out of range.
    """
    if trials < 0 or not 0 <= successes <= trials:
        raise ValueError(f"need 0 <= successes <= trials, got {successes}/{trials}")
    if trials == 0:
        return Interval(0.0, 1.0)
    n = trials
    p = successes / n
    z2 = z * z
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z / denom * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    # k = 0 and k = n give exactly 0 and 1 in theory; do not report rounding noise.
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == n else min(1.0, centre + half)
    return Interval(low, high)


@dataclass(frozen=True, slots=True)
class Proportion:
    """``successes`` out of ``trials``, with its rate and Wilson interval."""

    successes: int
    trials: int
    interval: Interval

    @property
    def rate(self) -> float:
        """``successes / trials`` (0 when there are no trials)."""
        return self.successes / self.trials if self.trials else 0.0

    def to_json(self) -> dict[str, JSON]:
        """Return ``{"count", "games", "rate", "ci95"}``."""
        return {
            "count": self.successes,
            "games": self.trials,
            "rate": self.rate,
            "ci95": self.interval.to_json(),
        }


def proportion(successes: int, trials: int, z: float = Z95) -> Proportion:
    """Return a :class:`Proportion` with its Wilson interval."""
    return Proportion(successes, trials, wilson_interval(successes, trials, z))


@dataclass(frozen=True, slots=True)
class Difference:
    """The difference ``p1 - p2`` of two proportions with its interval."""

    estimate: float
    interval: Interval

    @property
    def significant(self) -> bool:
        """Whether the interval excludes 0 (the rates differ at this level)."""
        return 0.0 not in self.interval


def difference(
    successes1: int, trials1: int, successes2: int, trials2: int, z: float = Z95
) -> Difference:
    """Return ``p1 - p2`` with Newcombe's hybrid score interval (95% by default).

    Use it to compare two bots (or two configurations) from independent batches.
    """
    a = wilson_interval(successes1, trials1, z)
    b = wilson_interval(successes2, trials2, z)
    p1 = successes1 / trials1 if trials1 else 0.0
    p2 = successes2 / trials2 if trials2 else 0.0
    d = p1 - p2
    low = d - math.sqrt((p1 - a.low) ** 2 + (b.high - p2) ** 2)
    high = d + math.sqrt((a.high - p1) ** 2 + (p2 - b.low) ** 2)
    return Difference(d, Interval(max(-1.0, low), min(1.0, high)))


@dataclass(frozen=True, slots=True)
class Spread:
    """A metric over the games that report it.

    Attributes:
        games: how many games report it (a game may leave a metric out: "not
            applicable", such as a task's success in a game without a task).
        mean: its mean.
        sd: its sample standard deviation (0 with fewer than two games).
        interval: the confidence interval of the mean (:func:`spread`).
        proportion: whether the metric is read as a proportion (1 or 0 in every game:
            the interval is Wilson's) rather than a mean (Student's t).
    """

    games: int
    mean: float
    sd: float
    interval: Interval
    proportion: bool = False

    def to_json(self) -> dict[str, JSON]:
        """Return the JSON form."""
        return {
            "games": self.games,
            "mean": _number(self.mean),
            "sd": _number(self.sd),
            "interval": self.interval.to_json(),
            "proportion": self.proportion,
        }


def t_quantile(p: float, df: int) -> float:
    """The ``p`` quantile (``p`` in [0.5, 1)) of Student's t with ``df`` degrees of
    freedom: ``t_quantile(0.975, 9)`` is 2.262.

    Solved from the t distribution's exact closed form for whole ``df`` (Abramowitz and
    Stegun 26.7.3-4: a finite series in the angle ``atan(t / sqrt(df))``) by bisection;
    past 300 degrees of freedom, the Cornish-Fisher expansion about the normal quantile
    (within 1e-9 there).

    Raises:
        ValueError: ``df`` below 1 or ``p`` outside [0.5, 1).
    """
    if df < 1 or not 0.5 <= p < 1:
        raise ValueError(f"need df >= 1 and 0.5 <= p < 1, got df={df}, p={p}")
    z = NormalDist().inv_cdf(p)
    if df > 300:
        v = float(df)
        return (
            z
            + (z**3 + z) / (4 * v)
            + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * v**2)
            + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * v**3)
        )
    within = 2 * p - 1  # P(|T| < t)

    def central(t: float) -> float:
        theta = math.atan(t / math.sqrt(df))
        c2 = math.cos(theta) ** 2
        if df % 2:
            term, total = math.cos(theta), 0.0
            if df > 1:
                total = term
                for k in range(3, df - 1, 2):
                    term *= c2 * (k - 1) / k
                    total += term
            return 2 / math.pi * (theta + math.sin(theta) * total)
        term = total = 1.0
        for k in range(2, df - 1, 2):
            term *= c2 * (k - 1) / k
            total += term
        return math.sin(theta) * total

    low, high = 0.0, max(1.0, 2 * z)
    while central(high) < within:
        high *= 2
    for _ in range(200):
        mid = (low + high) / 2
        if mid in (low, high):
            break
        if central(mid) < within:
            low = mid
        else:
            high = mid
    return (low + high) / 2


def interval_text(low: float | None, high: float | None) -> str:
    """``"16.8 – 33.8"`` for people, ``"—"`` where there is no interval (one game, or
    every game the same value of a metric that is not a proportion)."""
    if low is None or high is None or math.isnan(low) or math.isnan(high):
        return "—"
    return f"{low:.3f} – {high:.3f}"


def spread(values: Sequence[float], z: float = Z95, *, yes_no: bool | None = None) -> Spread:
    """The mean, standard deviation and interval of the mean of ``values``, at the
    confidence of the normal quantile ``z`` (95% by default).

    The interval is Student's t interval (the sample's own standard deviation, ``n - 1``
    degrees of freedom; the normal one is too narrow for a few games: 3 games need
    4.30 standard errors, not 1.96). A proportion (``yes_no``: a metric 1 or 0 by its
    nature, such as a win) has Wilson's interval, within [0, 1]. Where ``yes_no`` is
    ``None`` (a rule set that does not say), a metric that is 0 or 1 in every game of two
    or more is taken for one. A metric that no game makes negative (a count) has its
    interval cut at 0. One game gives no interval (both ends NaN), nor do games that all
    gave one value of a metric that is not a proportion: the t interval would be that
    point alone.

    Raises:
        ValueError: ``yes_no`` is true and a value is neither 0 nor 1.
    """
    n = len(values)
    zero_one = all(v in (0, 1) for v in values)
    if yes_no and not zero_one:
        odd = next(v for v in values if v not in (0, 1))
        raise ValueError(f"a yes/no metric is 0 or 1 in every game, got {odd}")
    proportion = zero_one if yes_no is None else yes_no
    if n == 0:
        return Spread(0, math.nan, math.nan, Interval(math.nan, math.nan), proportion)
    mean = math.fsum(values) / n
    sd = math.sqrt(math.fsum((v - mean) ** 2 for v in values) / (n - 1)) if n > 1 else 0.0
    if n == 1:
        return Spread(n, mean, sd, Interval(math.nan, math.nan), proportion)
    if proportion:
        return Spread(n, mean, sd, wilson_interval(round(math.fsum(values)), n, z), True)
    if sd == 0:
        # Every game gave the same value: Student's interval would shrink to that point
        # ("0.000 – 0.000" for a count no game made), which no sample of games shows.
        return Spread(n, mean, sd, Interval(math.nan, math.nan))
    half = t_quantile(NormalDist().cdf(z), n - 1) * sd / math.sqrt(n)
    low = mean - half
    if low < 0 <= min(values):
        # A metric no game makes negative (a count) has no negative mean: the interval
        # is cut at 0, as Wilson's is for a proportion (a table read "-0.773 – 2.273").
        low = 0.0
    return Spread(n, mean, sd, Interval(low, mean + half))


@dataclass(frozen=True, slots=True)
class BatchStats:
    """The summary of a batch of games.

    Attributes:
        games: how many games.
        wins: per side, the games that side won (with rate and interval).
        draws: the games nobody won.
        mean_length: the mean number of actions per game.
        metrics: the mean of each metric over the games that report it.
        spreads: each metric's games, mean, standard deviation and interval.
    """

    games: int
    wins: Mapping[str, Proportion]
    draws: Proportion
    mean_length: float
    metrics: Mapping[str, float]
    spreads: Mapping[str, Spread]

    def to_json(self) -> dict[str, JSON]:
        """Return the JSON form."""
        return {
            "games": self.games,
            "wins": {side: p.to_json() for side, p in self.wins.items()},
            "draws": self.draws.to_json(),
            "mean_length": self.mean_length,
            "metrics": dict(self.metrics),
            "metric_spreads": {k: v.to_json() for k, v in self.spreads.items()},
        }


def summarize(
    outcomes: Sequence[Outcome],
    lengths: Sequence[int],
    metrics: Sequence[Mapping[str, float]],
    sides: Iterable[str],
    z: float = Z95,
    *,
    yes_no: Collection[str] | None = None,
) -> BatchStats:
    """Summarise a batch: wins per side, draws, mean length, mean metrics.

    Args:
        outcomes: each game's outcome.
        lengths: each game's number of actions.
        metrics: each game's metrics.
        sides: the sides to report, in order (a side that never won still appears).
        z: the normal quantile of the intervals.
        yes_no: the metrics that are 1 or 0 by their nature (proportions, Wilson's
            interval); the others take Student's t. ``None``: read from the values
            (:func:`spread`).

    Raises:
        ValueError: a metric in ``yes_no`` that a game gives another value, naming it.
    """
    n = len(outcomes)
    if len(lengths) != n or len(metrics) != n:
        raise ValueError("outcomes, lengths and metrics need one entry per game")
    wins = {side: proportion(sum(side in o.sides for o in outcomes), n, z) for side in sides}
    draws = proportion(sum(o.is_draw for o in outcomes), n, z)
    values: dict[str, list[float]] = {}
    for m in metrics:
        for key, value in m.items():
            values.setdefault(key, []).append(value)
    spreads = {}
    for key in sorted(values):
        kind = None if yes_no is None else key in yes_no
        try:
            spreads[key] = spread(values[key], z, yes_no=kind)
        except ValueError as exc:
            raise ValueError(f"metric {key!r}: {exc}") from None
    means = {key: s.mean for key, s in spreads.items()}
    mean_length = sum(lengths) / n if n else 0.0
    return BatchStats(n, wins, draws, mean_length, means, spreads)
