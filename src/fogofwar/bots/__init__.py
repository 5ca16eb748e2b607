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
from .ismcts import IsmctsBot, searchable
from .random_bot import RandomBot

register_bot(
    "ismcts",
    IsmctsBot,
    accepts=searchable,
    help="information-set MCTS, for rule sets that sample worlds "
    "(iterations, seconds, c, rollout=random|heuristic, prior, depth, steps=heuristic|search)",
)

__all__ = [
    "Bot",
    "BotFactory",
    "BotSpec",
    "IsmctsBot",
    "RandomBot",
    "available_bots",
    "bot_spec",
    "make_bot",
    "register_bot",
]
