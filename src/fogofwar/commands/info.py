"""``fogofwar rulesets``: the registered rule sets, their seats and options."""

from __future__ import annotations

import json

import typer
from rich.console import Console
from rich.table import Table

from ..core.game import registered_rulesets


def rulesets(*, json_out: bool, console: Console) -> None:
    """Print every registered rule set with its metadata and config schema."""
    found = registered_rulesets()
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
            f"({meta.min_players}–{meta.max_players} players; seats: {', '.join(meta.seats)})"
        )
        table = Table("option", "type", "default", "allowed", "help")
        for o in rs.config_schema.options:
            allowed = ", ".join(map(str, o.choices)) if o.choices else ""
            if o.minimum is not None or o.maximum is not None:
                allowed = f"{o.minimum if o.minimum is not None else ''}..{o.maximum or ''}"
            table.add_row(o.name, o.type.__name__, str(o.default), allowed, o.help)
        console.print(table)
