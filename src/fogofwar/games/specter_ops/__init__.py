"""Specter Ops (``specter-ops``): hidden movement on a 23×32 grid.

See ``docs/specter-ops.md`` for the rules as implemented and the project's rulings.
"""

from ...core.game import register
from .ruleset import SpecterOps

RULESET = register(SpecterOps())

__all__ = ["RULESET", "SpecterOps"]
