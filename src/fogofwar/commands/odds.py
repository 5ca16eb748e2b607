"""``fogofwar odds dice``: exact distributions of dice expressions."""

from __future__ import annotations

import json
from fractions import Fraction
from typing import cast

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


def specter_ops_attack_json(
    distance: int, *, hunter: str = "", agent: str = ""
) -> dict[str, object]:
    """The exact hit probability of a Specter Ops attack (SO-X1…X5, SO-X2 at distance 0)
    with the characters' modifiers: the Gun's best of two, the Prophet's +2, the
    Spider's -2 within 3."""
    from ..core.errors import RulesError
    from ..games.specter_ops.characters import AGENTS, HUNTERS
    from ..games.specter_ops.state import attack_dice, attack_modifier

    if hunter and hunter not in HUNTERS:
        raise RulesError(f"unknown hunter {hunter!r}: expected one of {', '.join(HUNTERS)}")
    if agent and agent not in AGENTS:
        raise RulesError(f"unknown agent {agent!r}: expected one of {', '.join(AGENTS)}")
    if distance < 0:
        raise RulesError(f"the distance must be 0 or more, not {distance}")
    if distance == 0:
        hit = Fraction(1)  # SO-X2: the agent on the hunter's own square
        modifier, dice_text = 0, "automatic"
    else:
        roll = attack_dice(hunter, agent, distance)
        hit = roll.dist().prob_at_least(1)
        modifier, dice_text = attack_modifier(hunter, agent, distance), str(roll)
    return {
        "game": "specter-ops",
        "roll": "attack",
        "distance": distance,
        "hunter": hunter or None,
        "agent": agent or None,
        "modifier": modifier,
        "dice": HUNTERS[hunter].attack_dice if hunter else 1,
        "expression": dice_text,
        "hit": _frac(hit),
        "miss": _frac(1 - hit),
        "rules": ["SO-X1", "SO-X2", "SO-X3", "SO-X4", "SO-X5"],
    }


def odds_specter_ops_attack(
    distance: int | None, *, hunter: str, agent: str, json_out: bool, console: Console
) -> None:
    """Print the hit probability at one distance, or a table for distances 0–12."""
    distances = [distance] if distance is not None else list(range(13))
    rows = [specter_ops_attack_json(d, hunter=hunter, agent=agent) for d in distances]
    if json_out:
        typer.echo(json.dumps(rows[0] if distance is not None else rows, indent=2))
        return
    who = ", ".join(x for x in (hunter and f"hunter {hunter}", agent and f"agent {agent}") if x)
    table = Table(title=f"Specter Ops attack{' — ' + who if who else ''}", title_justify="left")
    for col in ("distance", "modifier", "hit", "%"):
        table.add_column(col, justify="right")
    for row in rows:
        hit = Fraction(str(row["hit"]))
        table.add_row(
            str(row["distance"]),
            f"{row['modifier']:+d}",
            str(row["hit"]),
            f"{float(hit) * 100:.2f}",
        )
    table.caption = "d6, hits on ≥ distance, a natural 1 misses, 6s explode (SO-X1…X5)"
    console.print(table)


def zero_dark_test_json(dice: int, tn: int) -> dict[str, object]:
    """The exact distribution of successes of a Zero Dark test (ZD-C1): ``dice`` d12s
    split into the greatest number of groups whose sums each reach ``tn``."""
    from ..games.zero_dark.grouping import distribution

    dist = distribution(dice, tn)
    mean = sum((k * p for k, p in dist.items()), Fraction(0))
    at_least: dict[str, str] = {}
    acc = Fraction(0)
    for k in sorted(dist, reverse=True):
        acc += dist[k]
        at_least[str(k)] = _frac(acc)
    return {
        "game": "zero-dark",
        "roll": "test",
        "dice": dice,
        "tn": tn,
        "successes": {str(k): _frac(p) for k, p in dist.items()},
        "at_least": dict(sorted(at_least.items(), key=lambda kv: int(kv[0]))),
        "mean": _frac(mean),
        "rules": ["ZD-C1"],
    }


def odds_zero_dark_test(dice: int, tn: int, *, json_out: bool, console: Console) -> None:
    """Print the distribution of successes of a Zero Dark test."""
    data = zero_dark_test_json(dice, tn)
    if json_out:
        typer.echo(json.dumps(data, indent=2))
        return
    table = Table(title=f"Zero Dark test: {dice}d12 at TN {tn}", title_justify="left")
    for col in ("successes", "probability", "%", "at least", "%≥"):
        table.add_column(col, justify="right")
    succ = cast(dict[str, str], data["successes"])
    ge = cast(dict[str, str], data["at_least"])
    for k, p in succ.items():
        table.add_row(
            k,
            str(p),
            f"{float(Fraction(p)) * 100:.3f}",
            str(ge[k]),
            f"{float(Fraction(ge[k])) * 100:.3f}",
        )
    table.caption = (
        f"mean {float(Fraction(str(data['mean']))):.4f}; the dice split into the most groups "
        "whose sums reach the TN, one success each (ZD-C1)"
    )
    console.print(table)


def odds_rock_n_roll(
    roll: str, *, effective_twos: bool, rd: int, json_out: bool, console: Console
) -> None:
    """Print the odds of a Rock-n-Roll capture or prisoner interaction (PT-P10)."""
    from ..core.errors import RulesError
    from ..games.rock_n_roll.odds import KINDS, odds_table

    if roll not in KINDS:
        raise RulesError(f"unknown roll {roll!r}; expected one of: {', '.join(KINDS)}")
    try:
        table = odds_table(roll, effective_twos=effective_twos, extra_dice=rd)
    except ValueError as exc:
        raise RulesError(str(exc)) from exc
    data = {
        "game": "rock-n-roll",
        "roll": roll,
        "effective_twos": effective_twos,
        "rd_dice": rd,
        **{k: _frac(p) for k, p in table.items()},
        "rules": ["PT-P2", "PT-C4"] if roll == "capture" else ["PT-P6", "PT-P9", "PT-P10"],
    }
    if json_out:
        typer.echo(json.dumps(data, indent=2))
        return
    dice = f"1d6 + {rd} RD" if rd else "1d6"
    title = f"Rock-n-Roll {roll}: {dice}" + (", 2s effective" if effective_twos else "")
    out = Table(title=title, title_justify="left")
    for col in ("outcome", "probability", "%"):
        out.add_column(col, justify="right")
    for key in ("success", "backfire", "nothing"):
        out.add_row(key, _frac(table[key]), f"{float(table[key]) * 100:.2f}")
    out.caption = (
        "6+ on any die (PT-P2)"
        if roll == "capture"
        else "one die, no RD; a natural 3 backfires (PT-P6); 2s effective after an "
        "execution (PT-P9)"
    )
    console.print(out)


def odds_warfighter_check(
    need: int,
    *,
    modifier: int,
    upgunned: int | None,
    lacks_ability: bool,
    json_out: bool,
    console: Console,
) -> None:
    """Print the chance of a Warfighter ability check (WF-A*)."""
    from ..games.warfighter.odds import check_json

    data = check_json(need, modifier=modifier, upgunned=upgunned, lacks_ability=lacks_ability)
    if json_out:
        typer.echo(json.dumps(data, indent=2))
        return
    label = f"{upgunned}+ upgunned" if upgunned is not None else f"{need}+"
    if modifier:
        label += f", modifier {modifier:+d}"
    if lacks_ability:
        label += ", lacking the ability"
    out = Table(title=f"Warfighter check: d10, {label}", title_justify="left")
    for col in ("outcome", "probability", "%"):
        out.add_column(col, justify="right")
    for key in ("success", "failure"):
        p = Fraction(str(data[key]))
        out.add_row(key, str(p), f"{float(p) * 100:.2f}")
    console.print(out)


def odds_warfighter_door(
    cover: int,
    hits: int,
    *,
    shots: int,
    pick: int | None,
    pick_modifier: int,
    upgunned: int | None = None,
    bound: int,
    json_out: bool,
    console: Console,
) -> None:
    """Print the distribution of Actions needed to breach a Warfighter Door (WF-D*)."""
    from ..core.errors import RulesError
    from ..games.warfighter.odds import door_json

    if upgunned is not None and pick is None:
        raise RulesError("--upgunned is the picker's upgunned Pick: give --pick too")
    data = door_json(
        cover,
        hits,
        shots=shots,
        pick=pick,
        pick_modifier=pick_modifier,
        upgunned=upgunned,
        bound=bound,
    )
    if json_out:
        typer.echo(json.dumps(data, indent=2))
        return
    title = f"Warfighter door: Cover {cover}, Hits {hits}, {shots} shot(s) an Action"
    if pick is not None:
        title += f"; Pick {pick}+" + (f" {pick_modifier:+d}" if pick_modifier else "")
        if upgunned is not None:
            title += f", upgunned {upgunned}+ (2 Actions a try)"
    out = Table(title=title, title_justify="left")
    out.add_column("Actions", justify="right")
    ways = [("attack", "attack")] + ([("picking", "pick")] if data["picking"] else [])
    for _, label in ways:
        out.add_column(f"{label}: P(=)", justify="right")
        out.add_column(f"{label}: P(≤) %", justify="right")
    for n in range(1, bound + 1):
        row = [str(n)]
        for key, _ in ways:
            part = cast(dict[str, dict[str, str]], data[key])
            p = part["actions"].get(str(n), "0")
            at_most = part["at_most"].get(str(n))
            if at_most is None:  # no breach can end on this Action (an upgunned pick)
                done = [Fraction(v) for k, v in part["at_most"].items() if int(k) <= n]
                at_most = str(max(done, default=Fraction(0)))
            row += [p, f"{float(Fraction(at_most)) * 100:.2f}"]
        out.add_row(*row)
    tail = [f"{label}: {cast(dict[str, str], data[key])['tail']}" for key, label in ways]
    out.caption = f"more than {bound} Actions — " + "; ".join(tail)
    console.print(out)
