"""Bots: the bot interface, the registry of bots by name, and the bots that ship.

Importing this package registers every bot that ships (``random`` for any rule set;
per-game bots as they are added).
"""

from __future__ import annotations

from .base import (
    Bot,
    BotFactory,
    BotSpec,
    available_bots,
    bot_spec,
    make_bot,
    register_bot,
)
from .random_bot import RandomBot

__all__ = [
    "Bot",
    "BotFactory",
    "BotSpec",
    "RandomBot",
    "available_bots",
    "bot_spec",
    "make_bot",
    "register_bot",
]
