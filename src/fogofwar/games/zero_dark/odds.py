"""Zero Dark's exact odds: a test's successes (ZD-C1), from the grouping the game rolls,
and a persuasion's chance (ZD-P1: two tests rolled at once, compared).

``fogofwar odds zero-dark test --dice N --tn T [--json]``;
``fogofwar odds zero-dark persuade --a N --tier T [--support S] [--json]``.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from rich.table import Table

from ...core.errors import RulesError
from ...core.odds import OddsAnswer, OddsParam, OddsQuery, fraction_text, percent
from .grouping import MAX_DICE, SIDES, distribution
from .profiles import BOGEY_CQB_TN, BOGEYS

__all__ = ["QUERIES", "persuade_json", "test_json"]


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


def persuade_json(a: int, tier: str, support: int | None = None) -> dict[str, Any]:
    """The exact odds of persuading a bogey (ZD-P1, ZD-P2): the hero's A d12s at the
    tier's CQB TN and the bogey's Att + ``support`` d12s at TN 6, rolled at once; more
    successes than the bogey's persuade it, and each of the bogey's successes wounds the
    hero (the hero's never wound the bogey). ``support``: the bogey's tokens left (its
    tier's full support when ``None``)."""
    stats = BOGEYS[tier]
    left = stats.support if support is None else support
    if not 0 <= left <= stats.support:
        raise RulesError(f"a {tier} has 0 to {stats.support} support tokens, not {left}")
    ours = distribution(a, stats.cqb_tn)
    theirs = distribution(stats.att + left, BOGEY_CQB_TN)
    persuaded = Fraction(0)
    below = Fraction(0)  # P(the bogey's successes < k), k rising
    for k in range(max(ours) + 1):
        if k > 0:
            below += theirs.get(k - 1, Fraction(0))
        persuaded += ours.get(k, Fraction(0)) * below
    mean = sum((k * p for k, p in theirs.items()), Fraction(0))
    # The bogey's successes as rolled: each wounds the hero, who is down at 2 wounds and
    # dead at 3 (ZD-C5), so past those the count tells only how surely.
    return {
        "game": "zero-dark",
        "roll": "persuade",
        "a": a,
        "tier": tier,
        "support": left,
        "hero_dice": a,
        "hero_tn": stats.cqb_tn,
        "bogey_dice": stats.att + left,
        "bogey_tn": BOGEY_CQB_TN,
        "persuaded": fraction_text(persuaded),
        "bogey_successes": {str(k): fraction_text(p) for k, p in theirs.items()},
        "mean_bogey_successes": fraction_text(mean),
        "rules": ["ZD-P1", "ZD-P2", "ZD-C5"],
    }


def _persuade(a: int, tier: str, support: int | None) -> OddsAnswer:
    data = persuade_json(a, tier, support)
    table = Table(
        title=(
            f"Zero Dark persuasion: A {a} ({a}d12 at TN {data['hero_tn']}) against "
            f"{'an' if tier[0] in 'aeiou' else 'a'} {tier} "
            f"with {data['support']} support ({data['bogey_dice']}d12 at TN {BOGEY_CQB_TN})"
        ),
        title_justify="left",
    )
    for col in ("bogey's successes", "probability", "%"):
        table.add_column(col, justify="right")
    for k, p in data["bogey_successes"].items():
        if Fraction(p):
            table.add_row(k, p, percent(p))
    table.caption = (
        f"persuaded (more successes than the bogey's): {data['persuaded']} "
        f"({percent(data['persuaded'])}%), even if the hero falls (ZD-P3); the hero's test "
        "never wounds the bogey, and each of the bogey's successes wounds the hero: down at "
        "2 wounds, dead at 3 (ZD-P1, ZD-P2, ZD-C5)"
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
    OddsQuery(
        "persuade",
        "Exact chance to persuade a bogey in CQB: the hero's A against the tier's TN, more "
        "successes than the bogey's Att + support at TN 6 (ZD-P1).",
        (
            OddsParam(
                "a",
                int,
                "The hero's A: how many d12s (1-12).",
                required=True,
                minimum=1,
                maximum=12,
            ),
            OddsParam("tier", str, "The bogey's tier.", required=True, choices=tuple(BOGEYS)),
            OddsParam(
                "support",
                int,
                "The bogey's support tokens left (default: its tier's full support).",
                minimum=0,
                maximum=3,
            ),
        ),
        _persuade,
        ("ZD-P1", "ZD-P2", "ZD-C5"),
    ),
)
