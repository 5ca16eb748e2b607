"""Rock-n-Roll (``rock-n-roll``): Vietnam against the VPA, with prisoners, deals and locals.

See ``docs/rock-n-roll.md`` for the stand-in core, the card file format and the
project's rulings.
"""

from ...core.game import register
from .ruleset import RockNRoll

RULESET = register(RockNRoll())

from . import bots  # noqa: E402, F401  (registers the rnr-heuristic bot)

__all__ = ["RULESET", "RockNRoll"]
