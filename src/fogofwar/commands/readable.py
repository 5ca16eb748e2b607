"""Command-line help that reads as a person writes it.

Typer's help shows each option's Python type as a placeholder (``--games <int range>
[x>=1]``, ``--json <bool>``, ``--seat <list[str]>``). Here every option names its value
itself (``metavar="N"``, ``"SEAT=BOT"``, set where the option is declared) and this group
tidies the rest when a command's help is drawn:

* a flag takes no value, so it shows none (``--json``, ``-h, --help``);
* a range reads ``N (1 or more)`` or ``N (1–64)`` instead of ``[x>=1]`` (still enforced);
* an argument shows its name only (``RULESET``), not ``<str>`` beside it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from typer.core import TyperArgument, TyperGroup

__all__ = ["HELP_OPTIONS", "ReadableGroup"]

#: ``-h`` as well as ``--help``, on every command.
HELP_OPTIONS = {"help_option_names": ["-h", "--help"]}


def _tidy(params: Iterable[Any]) -> None:
    for p in params:
        if p is None or getattr(p, "_fogofwar_tidy", False):
            continue
        p._fogofwar_tidy = True
        if isinstance(p, TyperArgument) and p.metavar:
            setattr(p, "display_type_rich", lambda ctx: None)  # noqa: B010 - per instance
        if getattr(p, "is_flag", False) and p.metavar is None:
            p.metavar = ""
        low, high = getattr(p, "min", None), getattr(p, "max", None)
        if (low is not None or high is not None) and p.metavar:
            if high is None:
                span = f"{low} or more"
            elif low is None:
                span = f"at most {high}"
            else:
                span = f"{low}–{high}"
            p.metavar = f"{p.metavar} ({span})"
            setattr(p, "_get_number_range_help_str", lambda: None)  # noqa: B010


class ReadableGroup(TyperGroup):
    """A Typer group whose own help and whose commands' help are tidied (module doc).
    Give it as ``cls=`` to every ``typer.Typer`` of the command line."""

    def get_params(self, ctx: Any) -> list[Any]:
        params = super().get_params(ctx)
        _tidy(params)
        return params

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        command = super().get_command(ctx, cmd_name)
        if command is not None and not isinstance(command, TyperGroup):
            _tidy([*command.params, command.get_help_option(ctx)])
        return command
