"""Zero Dark's exact odds: a test's successes (ZD-C1), from the grouping the game rolls.

``fogofwar odds zero-dark test --dice N --tn T [--json]``.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from rich.table import Table

from ...core.odds import OddsAnswer, OddsParam, OddsQuery, fraction_text, percent
from .grouping import MAX_DICE, SIDES, distribution

__all__ = ["QUERIES", "test_json"]


def test_json(dice: int, tn: int) -> dict[str, Any]:
    """The exact distribution of successes of a Zero Dark test (ZD-C1): ``dice`` d12s
    split into the greatest number of groups whose sums each reach ``tn``."""
    dist = distribution(dice, tn)
    mean = sum((k * p for k, p in dist.items()), Fraction(0))
    at_least: dict[str, str] = {}
    acc = Fraction(0)
    for k in sorted(dist, reverse=True):
        acc += dist[k]
        at_least[str(k)] = fraction_text(acc)
    return {
        "game": "zero-dark",
        "roll": "test",
        "dice": dice,
        "tn": tn,
        "successes": {str(k): fraction_text(p) for k, p in dist.items()},
        "at_least": dict(sorted(at_least.items(), key=lambda kv: int(kv[0]))),
        "mean": fraction_text(mean),
        "rules": ["ZD-C1"],
    }


def _test(dice: int, tn: int) -> OddsAnswer:
    data = test_json(dice, tn)
    table = Table(title=f"Zero Dark test: {dice}d12 at TN {tn}", title_justify="left")
    for col in ("successes", "probability", "%", "at least", "%≥"):
        table.add_column(col, justify="right")
    succ, ge = data["successes"], data["at_least"]
    for k, p in succ.items():
        if Fraction(p) == 0:
            continue  # an impossible count (2d12 at TN 1 always makes 2): the JSON has it
        table.add_row(
            k,
            p,
            percent(p),
            ge[k],
            percent(ge[k]),
        )
    table.caption = (
        f"mean {float(Fraction(data['mean'])):.4f}; the dice split into the most groups "
        "whose sums reach the TN, one success each (ZD-C1)"
    )
    return OddsAnswer(data, table)


QUERIES: tuple[OddsQuery, ...] = (
    OddsQuery(
        "test",
        "Exact distribution of successes of a test: the dice split into the most groups "
        "reaching the TN (ZD-C1).",
        (
            OddsParam(
                "dice",
                int,
                f"The stat: how many d12s (0-{MAX_DICE}; 11 and more take seconds).",
                required=True,
            ),
            OddsParam(
                "tn",
                int,
                f"The target number each group must reach (1-{SIDES * MAX_DICE}: "
                f"{MAX_DICE} d12s at most).",
                required=True,
                minimum=1,
                maximum=SIDES * MAX_DICE,
            ),
        ),
        _test,
        ("ZD-C1",),
    ),
)
