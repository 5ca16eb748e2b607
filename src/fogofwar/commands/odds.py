"""``fogofwar odds dice``: exact distributions of dice expressions."""

from __future__ import annotations

import json
from fractions import Fraction

import typer
from rich.console import Console
from rich.table import Table

from ..core.dice import Dice, Dist, parse


def _frac(p: Fraction) -> str:
    return str(p)


def dice_json(expr: Dice) -> dict[str, object]:
    """The JSON form of an expression's exact distribution (fractions as ``"p/q"``)."""
    dist: Dist = expr.dist()
    return {
        "expression": str(expr),
        "distribution": {str(k): _frac(p) for k, p in dist.items()},
        "at_least": {str(k): _frac(dist.prob_at_least(k)) for k in dist.outcomes},
        "mean": _frac(dist.mean()),
        "truncated": _frac(dist.truncated),
    }


def dice_table(expr: Dice, *, title: str | None = None) -> Table:
    """A rich table of outcome, probability (exact and %), and P(≥ outcome)."""
    dist = expr.dist()
    table = Table(title=title or f"{expr}", title_justify="left")
    table.add_column("outcome", justify="right")
    table.add_column("probability", justify="right")
    table.add_column("%", justify="right")
    table.add_column("P(≥)", justify="right")
    table.add_column("P(≥) %", justify="right")
    for k, p in dist.items():
        ge = dist.prob_at_least(k)
        table.add_row(
            str(k), _frac(p), f"{float(p) * 100:.2f}", _frac(ge), f"{float(ge) * 100:.2f}"
        )
    mean = dist.mean()
    caption = f"mean {_frac(mean)} ≈ {float(mean):.4f}"
    if dist.is_truncated:
        caption += f"; truncated mass {_frac(dist.truncated)} (not listed)"
    table.caption = caption
    return table


def odds_dice(expression: str, *, json_out: bool, console: Console) -> None:
    """Print the exact distribution of a dice expression."""
    expr = parse(expression)
    if json_out:
        typer.echo(json.dumps(dice_json(expr), indent=2))
    else:
        console.print(dice_table(expr))
