"""What a web table's request may name (docs/server.md, "What a request may name").

The command line may name anything: a plug-in's module, a bot's class, any file on the
machine, since whoever types it runs the program. A request to the web table comes from
whoever can reach the server, so every name in it that could reach code or a file is
checked here, before anything is imported or opened:

* a rule set: one registered in the server's process (built in, or a plug-in the operator
  loaded with ``fogofwar serve --plugin REF``), never a module to import (importing runs
  the module's code);
* a seat's player: ``human``, ``bot`` or a registered bot's name with its parameters,
  never a ``module:attribute`` (loading one calls whatever it names);
* an option that reads a file (:attr:`~fogofwar.core.game.Option.file_suffix`: a board, a
  map, a mission): its default, one of its offered names (the shipped ones), or the name
  of a file with that suffix in a folder the operator offers (``fogofwar serve --data
  DIR``), which the server then reads by its own path. Anything else is refused before
  a file is opened: a bad file's error quotes the line it could not read, which would
  hand any file's first line to whoever asked.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Final

from ..bots import available_bots
from ..bots.base import bot_spec, split_params
from ..core.errors import RulesError
from ..core.files import offer_data_folders
from ..core.game import Option, Ruleset, registered_ruleset

__all__ = ["MAX_BOT_SECONDS", "Guard"]

#: A player that is no bot, and the word for a seat's default bot (as Hall.create reads).
_NOT_BOTS = frozenset({"human", "bot"})


def _shown(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:59] + "…"


class Guard:
    """The checks on a request's names (see the module documentation).

    Args:
        data_dirs: the folders whose files the operator offers to the lobby
            (``fogofwar serve --data DIR``), by file name; the first folder that has a
            name wins.
    """

    def __init__(self, data_dirs: Sequence[Path | str] = ()) -> None:
        self.data_dirs = tuple(Path(d).resolve() for d in data_dirs)
        for folder in self.data_dirs:
            if not folder.is_dir():
                raise RulesError(f"--data {folder}: expected a folder")
        # The rule sets find an offered file by its name (fogofwar.core.files.data_file):
        # a game's options, views and record name it so, never by the server's paths.
        offer_data_folders(self.data_dirs)

    def ruleset(self, name: object) -> Ruleset:
        """The registered rule set a request names (nothing is imported).

        Raises:
            RulesError: not a registered rule set's id, alias or reference.
        """
        if not isinstance(name, str):
            raise RulesError(f"ruleset: expected a rule set's id, got {_shown(name)}")
        return registered_ruleset(name)

    def files(self, option: Option) -> dict[str, Path]:
        """The operator's files for ``option``, by file name: each offered folder's
        files (not its subfolders) that end in the option's suffix, hidden ones left out.
        Read at every call, so a file put in the folder is offered at once."""
        out: dict[str, Path] = {}
        suffix = option.file_suffix
        if suffix is None:
            return out
        for folder in self.data_dirs:
            try:
                entries = sorted(os.scandir(folder), key=lambda e: e.name)
            except OSError:
                continue
            for entry in entries:
                if entry.name.startswith(".") or not entry.name.endswith(suffix):
                    continue
                try:
                    if not entry.is_file():
                        continue
                except OSError:
                    continue
                out.setdefault(entry.name, Path(entry.path))
        return out

    def offered(self, ruleset: Ruleset) -> dict[str, list[str]]:
        """Every file-reading option of ``ruleset`` with the values a request may give
        it besides its default: its offered names, then the operator's files."""
        return {
            o.name: [*o.offered, *(n for n in self.files(o) if n not in o.offered)]
            for o in ruleset.config_schema.options
            if o.file_suffix is not None
        }

    def config(self, ruleset: Ruleset, config: Mapping[str, Any]) -> dict[str, Any]:
        """``config``, each file-reading option checked: an operator's file stays named
        by its file name, which the rule sets find in the offered folders.

        Raises:
            RulesError: a file-reading option's value that is neither its default, nor
                an offered name, nor an operator's file (no file is opened).
        """
        out = dict(config)
        for option in ruleset.config_schema.options:
            if option.file_suffix is None or option.name not in config:
                continue
            value = config[option.name]
            if value == option.default or value in option.offered:
                continue
            files = self.files(option)
            if isinstance(value, str) and value in files:
                continue
            names = [*option.offered, *files]
            raise RulesError(
                f"option {option.name}: {_shown(value)} is not one this server offers "
                f"({', '.join(names)}); a web table opens no other file (its operator "
                "can offer files with `fogofwar serve --data DIR`)"
            )
        return out

    def seats(self, ruleset: Ruleset, seats: Mapping[str, Any]) -> dict[str, Any]:
        """Each seat's player checked: ``human``, ``bot`` or a registered bot's name
        (parameters allowed; whether that bot plays the seat is the table's check). A
        bot that takes a time budget (``seconds``: ``ismcts``) thinks at most
        :data:`MAX_BOT_SECONDS` a decision here: ``ismcts:iterations=100000000`` kept
        threads busy for days, and the tables waiting on them.

        Returns:
            The seats, each bot with a time budget given its capped ``seconds``.

        Raises:
            RulesError: a player that is not a string, or names no registered bot.
        """
        registered = set(available_bots())
        out = dict(seats)
        for seat, who in seats.items():
            if not isinstance(who, str):
                raise RulesError(
                    f"seat {seat}: expected 'human' or a bot's name, got {_shown(who)}"
                )
            if who in _NOT_BOTS:
                continue
            base, _ = split_params(who)
            if base not in registered:
                known = ", ".join(available_bots(ruleset.id)) or "none"
                raise RulesError(
                    f"seat {seat}: no bot {_shown(base)} on this server (bots for "
                    f"{ruleset.id}: {known})"
                )
            out[seat] = _time_capped(who, ruleset.id)
        return out


#: The longest a bot at a web table thinks about one decision, in seconds.
MAX_BOT_SECONDS: Final = 5.0


def _time_capped(who: str, ruleset_id: str) -> str:
    """``who`` with its ``seconds`` set to at most :data:`MAX_BOT_SECONDS` (0, no limit,
    included), where its bot takes a time budget; other bots as given."""
    base, params = split_params(who)
    if "seconds" not in _keywords(base, ruleset_id):
        return who
    given = params.get("seconds", 0)
    if not isinstance(given, int | float) or given < 0 or 0 < given <= MAX_BOT_SECONDS:
        return who  # within the limit, or a bad value the bot itself refuses
    params["seconds"] = MAX_BOT_SECONDS
    return base + ":" + ",".join(f"{k}={v}" for k, v in params.items())


def _keywords(bot: str, ruleset_id: str) -> list[str]:
    """The parameters a registered bot takes (none where it does not play the rule set:
    the table refuses it)."""
    try:
        return bot_spec(bot, ruleset_id).parameters()
    except RulesError:
        return []
