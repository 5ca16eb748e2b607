"""``fogofwar odds``: exact distributions of dice expressions, and every rule set's odds
queries (built from :meth:`~fogofwar.core.game.Ruleset.odds_queries`: the command line
knows no game)."""

from __future__ import annotations

import inspect
import json
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

import typer
from rich.console import Console
from rich.table import Table

from ..core.dice import Compare, Dice, Dist, parse
from ..core.game import Ruleset, get_ruleset, registered_rulesets
from ..core.odds import OddsQuery, find_query, percent
from .readable import HELP_OPTIONS, ReadableGroup


def _frac(p: Fraction) -> str:
    return str(p)


def dice_json(expr: Dice) -> dict[str, object]:
    """The JSON form of an expression's exact distribution (fractions as ``"p/q"``)."""
    dist: Dist = expr.dist()
    return {
        "expression": str(expr),
        "distribution": {str(k): _frac(p) for k, p in dist.items()},
        "at_least": {
            str(k): _frac(p) for k, p in zip(dist.outcomes, dist.at_least_each(), strict=True)
        },
        "mean": _frac(dist.mean()),
        "truncated": _frac(dist.truncated),
    }


#: The longest exact fraction a table shows when it is not told the terminal's width: a
#: longer one is left to ``--json`` (the percentage beside it says the same), rather than
#: cut with "…". Given the width, a table shows every fraction that fits (:func:`_room`).
LONGEST_FRACTION = 15

#: The most outcomes a table lists, in order from the least; a roll of more (an
#: exploding d1000 has 100,000) is listed that far, and its caption says how much
#: probability the rows left out hold (``--json`` has every one). A terminal table of
#: 100,000 rows took rich two minutes to lay out, and no reader scrolls it.
MOST_ROWS = 1000


def _room(width: int | None, first: int, passfail: bool) -> int:
    """The longest fraction that keeps a table of ``width`` columns whole: what its
    other columns and rules leave, shared by its fraction columns (one for a pass/fail
    roll, two otherwise), and at least as long as the "(--json)" put in a longer one's
    place."""
    if width is None:
        return LONGEST_FRACTION
    # Every column is padded by a blank each side, and n columns have n + 1 rules.
    if passfail:
        left = width - 4 * 3 - max(first, 6) - len("100.00")
        return max(len("(--json)"), left)
    left = width - 6 * 3 - 4 - max(first, 7) - 2 * len("100.00")
    return max(len("(--json)"), left // 2)


def dice_table(expr: Dice, *, title: str | None = None, width: int | None = None) -> Table:
    """A rich table of outcome, probability (exact and %), and P(≥ outcome); a pass/fail
    roll (a comparison such as ``3d6>=10``) reads no / yes, without P(≥). Given the
    terminal's ``width``, it shows every exact fraction that fits it."""
    dist = expr.dist()
    table = Table(title=title or f"{expr}", title_justify="left")
    passfail = isinstance(expr, Compare)
    longest = _room(width, max((len(str(k)) for k in dist.outcomes), default=1), passfail)

    def short(p: Fraction) -> str:
        text = _frac(p)
        return text if len(text) <= longest else "(--json)"

    table.add_column("passes" if passfail else "outcome", justify="right")
    table.add_column("probability", justify="right")
    table.add_column("%", justify="right")
    if not passfail:
        table.add_column("P(≥)", justify="right")
        table.add_column("P(≥) %", justify="right")
    long = False
    at_least = dist.at_least_each()
    rows = list(zip(dist.items(), at_least, strict=True))
    for (k, p), ge in rows[:MOST_ROWS]:
        row = [("yes" if k else "no") if passfail else str(k), short(p)]
        row.append(percent(p))
        if not passfail:
            row += [short(ge), percent(ge)]
            long = long or len(_frac(ge)) > longest
        long = long or len(_frac(p)) > longest
        table.add_row(*row)
    mean = dist.mean()
    caption = f"passes {percent(mean)}%" if passfail else f"mean {short(mean)} ≈ {float(mean):.4f}"
    if len(rows) > MOST_ROWS:
        (first, _), rest = rows[MOST_ROWS]
        caption += (
            f"; the first {MOST_ROWS:,} of {len(rows):,} outcomes listed: those from "
            f"{first} on ({percent(rest)}%) are in --json"
        )
    if dist.is_truncated:
        caption += f"; truncated mass {short(dist.truncated)} (not listed)"
    if long:
        caption += f"; fractions over {longest} characters: --json has them exact"
    table.caption = caption
    return table


def odds_dice(expression: str, *, json_out: bool, console: Console) -> None:
    """Print the exact distribution of a dice expression."""
    expr = parse(expression)
    if json_out:
        typer.echo(json.dumps(dice_json(expr), indent=2))
    else:
        console.print(dice_table(expr, width=console.width))


def add_ruleset_odds(odds_app: typer.Typer, argv: Sequence[str]) -> None:
    """Give ``fogofwar odds`` one group per rule set that declares odds queries, built
    from the declarations (:meth:`~fogofwar.core.game.Ruleset.odds_queries`).

    Called before the command line runs ``odds``: ``argv`` names a plug-in rule set
    (``odds package.module:Class QUERY``) to load, and an unknown query gets one line
    naming the ones there are.
    """
    named = argv[1] if len(argv) > 1 and not argv[1].startswith("-") else None
    rulesets = {rs.id: rs for rs in registered_rulesets().values() if rs.odds_queries()}
    if named is not None and named not in rulesets and named != "dice":
        rs = get_ruleset(named)  # loads a plug-in; a RulesError names the known ones
        rulesets[named] = rs
    present = {info.name for info in odds_app.registered_groups}
    for name, rs in rulesets.items():
        if name not in present and rs.odds_queries():
            odds_app.add_typer(_ruleset_app(rs), name=name)
    if named in rulesets and len(argv) > 2 and not argv[2].startswith("-"):
        find_query(rulesets[named].id, rulesets[named].odds_queries(), argv[2])


def _ruleset_app(rs: Ruleset) -> typer.Typer:
    sub = typer.Typer(
        cls=ReadableGroup,
        help=f"{rs.metadata.name}: exact odds of its rolls.",
        no_args_is_help=True,
        add_completion=False,
        context_settings=HELP_OPTIONS,
    )
    for query in rs.odds_queries():
        sub.command(query.name, help=query.help)(_query_function(query))
    return sub


def _query_function(query: OddsQuery) -> Callable[..., None]:
    """A function whose signature Typer reads as the query's options (and ``--json``)."""

    def run(**values: Any) -> None:
        json_out = values.pop("json_out")
        answer = query.ask(values)
        if json_out:
            typer.echo(json.dumps(answer.data, indent=2))
            return
        table = answer.table
        if isinstance(table, Table):
            # A cell too long for the terminal wraps onto the next line: cut with "…",
            # 7518827268/381469726… read as a number near 19.7, not 0.0000020.
            for column in table.columns:
                column.overflow = "fold"
        Console(highlight=False).print(table)

    params = []
    for p in query.params:
        if p.type is bool:
            option = typer.Option(False, p.option, help=p.help)
            annotation: Any = bool
        else:
            option = typer.Option(
                ... if p.required else p.default,
                p.option,
                metavar="N" if p.type is int else p.name.upper(),
                # No min/max here: the query's own check refuses a value out of
                # bounds in one line, the way the rest of the command reports.
                help=p.help,
            )
            annotation = p.type if p.required or p.default is not None else p.type | None
        params.append(
            inspect.Parameter(
                p.name, inspect.Parameter.KEYWORD_ONLY, default=option, annotation=annotation
            )
        )
    params.append(
        inspect.Parameter(
            "json_out",
            inspect.Parameter.KEYWORD_ONLY,
            default=typer.Option(False, "--json", help="Print JSON with exact fractions."),
            annotation=bool,
        )
    )
    run.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    run.__name__ = query.name.replace("-", "_")
    return run
