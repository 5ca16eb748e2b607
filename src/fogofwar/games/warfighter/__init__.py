"""Warfighter with the Dagon expansion's ability checks and Doors (``warfighter``).

See ``docs/warfighter.md`` for the rules as implemented and the project's rulings.
"""

from ...core.game import register
from . import bots  # noqa: F401  (registers the wf-heuristic bot)
from .ruleset import Warfighter

RULESET = register(Warfighter())

__all__ = ["RULESET", "Warfighter"]
