"""Specter Ops (``specter-ops``): hidden movement on a 23×32 grid.

See ``docs/specter-ops.md`` for the rules as implemented and the project's rulings.
"""

from ...core.game import register
from . import bots  # noqa: F401  (registers the so-agent and so-hunter bots)
from .ruleset import SpecterOps

RULESET = register(SpecterOps())

__all__ = ["RULESET", "SpecterOps"]
