"""The random bot: uniform over the legal actions, for any rule set."""

from __future__ import annotations

from collections.abc import Sequence

from fogofwar.core.game import Action, PlayerView
from fogofwar.core.rng import Stream

from .base import Bot, register_bot

__all__ = ["RandomBot"]


class RandomBot(Bot):
    """Pick one legal action uniformly at random from the bot's own stream."""

    name = "random"

    def choose(self, view: PlayerView, legal: Sequence[Action], stream: Stream) -> Action:
        return stream.choice(legal)


register_bot("random", RandomBot, help="uniformly random legal actions (any rule set)")
