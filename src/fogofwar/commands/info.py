"""What there is: ``fogofwar rulesets`` (the rule sets, their seats and options),
``bots``, ``boards`` and ``missions``."""

from __future__ import annotations

import json
from typing import Any

import typer
from rich.console import Console
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from ..bots import available_bots
from ..bots.base import bot_spec
from ..core.errors import RulesError
from ..core.game import Ruleset, get_ruleset, registered_rulesets
from ..core.grid import builtin_board, builtin_boards


def rulesets(*, json_out: bool, console: Console, ruleset: str | None = None) -> None:
    """Print every registered rule set (or ``ruleset`` alone) with its metadata and
    config schema."""
    found = {rs.id: rs for rs in _chosen(ruleset)}
    if json_out:
        data = [
            {
                "id": rs.id,
                "aliases": list(rs.aliases),
                "version": rs.version,
                "metadata": rs.metadata.to_json(),
                "options": rs.config_schema.to_json(),
            }
            for rs in found.values()
        ]
        typer.echo(json.dumps(data, indent=2))
        return
    if not found:
        console.print("No rule sets are built in yet; the kernel is ready for them.")
        return
    for rs in found.values():
        meta = rs.metadata
        console.print(
            f"[bold]{rs.id}[/] {rs.version} — {meta.name} "
            f"({_players(meta.min_players, meta.max_players)}; seats: {', '.join(meta.seats)})"
        )
        rows = []
        for o in rs.config_schema.options:
            allowed = ", ".join(map(str, o.choices)) if o.choices else ""
            if o.minimum is not None or o.maximum is not None:
                allowed = f"{o.minimum if o.minimum is not None else ''}..{o.maximum or ''}"
            # An option the program fills in says so: it is no choice for people.
            note = " (filled in by fogofwar)" if o.filled else ""
            # As --set takes it: true, not Python's True.
            default = str(o.default).lower() if isinstance(o.default, bool) else str(o.default)
            rows.append((o.name, o.type.__name__, default, allowed, o.help + note))
        if console.width >= WIDE:
            table = Table()
            # A name or a value is typed into --set or a study file: never cut with "…".
            longest = max((len(r[0]) for r in rows), default=6)
            table.add_column("option", no_wrap=True, min_width=longest)
            table.add_column("type", no_wrap=True)
            table.add_column("default", overflow="fold")
            table.add_column("allowed", overflow="fold")
            table.add_column("help", ratio=1)
            for row in rows:
                table.add_row(*row)
            console.print(table)
            continue
        # A narrow terminal: an option a paragraph, its name and values whole on the
        # first line (five columns left the help a word a line, and cut the names).
        for name, kind, default, allowed, text in rows:
            first = Text("  ")
            first.append(name, style="bold")
            first.append(f"  {kind}, default {default if default != '' else '(empty)'}")
            if allowed:
                first.append(f"; {allowed}")
            console.print(first, overflow="fold")
            console.print(Padding(Text(text), (0, 0, 0, 6)))


#: The narrowest terminal ``rulesets`` draws its options' table in (a narrower one gets
#: a paragraph an option).
WIDE = 110


def _players(low: int, high: int) -> str:
    return f"{low} player{'s' if low != 1 else ''}" if low == high else f"{low}–{high} players"


def _chosen(ruleset: str | None) -> list[Ruleset]:
    if ruleset is None:
        return list(registered_rulesets().values())
    return [get_ruleset(ruleset)]


def bots(ruleset: str | None, *, json_out: bool, console: Console) -> None:
    """Every bot (or those that play ``ruleset``): its name for ``--seat SEAT=NAME``, the
    rule sets it plays, the seats it is the default for, and what it does."""
    chosen = _chosen(ruleset)
    rows: list[dict[str, Any]] = []
    playable = {rs.id: set(available_bots(rs.id)) for rs in chosen}
    for name in available_bots(chosen[0].id if ruleset is not None else None):
        plays = [rs_id for rs_id, names in playable.items() if name in names]
        if not plays:
            continue
        default = []
        for rs in chosen:
            seats = [seat for seat, b in rs.default_bots.items() if b == name]
            if seats:
                default.append(f"{rs.id}: {' '.join(seats)}")
        spec = bot_spec(name, plays[0])
        rows.append(
            {
                "name": name,
                "plays": ["any"] if spec.rulesets is None else plays,
                # The seats it plays, where it plays only some ("the agent").
                "seats": None if spec.seats is None else spec.seats[1],
                "default_for": default,
                "help": spec.help,
                "parameters": spec.parameters(),
            }
        )
    if json_out:
        typer.echo(json.dumps(rows, indent=2))
        return
    table = Table(title="Bots (--seat SEAT=BOT, or BOT:KEY=VALUE,...)")
    table.add_column("bot", no_wrap=True)
    table.add_column("plays")
    # play's: a batch (sim, study) plays random where no bot is named.
    table.add_column("play's bot for")
    table.add_column("what it does", overflow="fold", ratio=1)
    for r in rows:
        playing = ", ".join(r["plays"]) + (f" ({r['seats']})" if r["seats"] else "")
        does = r["help"]
        missing = [p for p in r["parameters"] if p not in does]
        if missing:  # the parameters its sentence does not name already
            said = len(missing) < len(r["parameters"])
            does += f" ({'also ' if said else 'parameters: '}{', '.join(missing)})"
        table.add_row(r["name"], playing, "; ".join(r["default_for"]), does)
    console.print(table)
    console.print(
        "play gives a seat its rule set's bot (the third column) where --seat SEAT=bot names "
        "none; sim and study play random where no bot is named.",
        highlight=False,
    )


def boards(*, json_out: bool, console: Console) -> None:
    """The shipped boards: name, size and description (``fogofwar board show NAME``)."""
    rows = []
    for name in builtin_boards():
        b = builtin_board(name)
        rows.append(
            {"name": name, "width": b.width, "height": b.height, "description": b.description}
        )
    if json_out:
        typer.echo(json.dumps(rows, indent=2))
        return
    table = Table("board", "size", "description", title="Boards (fogofwar board show NAME)")
    for r in rows:
        table.add_row(str(r["name"]), f"{r['width']}×{r['height']}", str(r["description"]))
    console.print(table)


def missions(ruleset: str | None, *, json_out: bool, console: Console) -> None:
    """The shipped missions of every rule set that has some (or of ``ruleset``)."""
    rows = [
        {"ruleset": rs.id, "name": name, "description": text}
        for rs in _chosen(ruleset)
        for name, text in rs.missions().items()
    ]
    if ruleset is not None and not rows:
        raise RulesError(
            f"{ruleset} has no missions; rule sets with missions: "
            + ", ".join(rs.id for rs in registered_rulesets().values() if rs.missions())
        )
    if json_out:
        typer.echo(json.dumps(rows, indent=2))
        return
    table = Table("rule set", "mission", "what", title="Missions (--set mission=NAME)")
    for r in rows:
        table.add_row(r["ruleset"], r["name"], r["description"])
    console.print(table)
