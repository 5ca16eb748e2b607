"""Horizon Wars: Zero Dark (``zero-dark``) on the FEAR grid.

See ``docs/zero-dark.md`` for the rules as implemented and the project's rulings.
"""

from ...core.game import register
from . import bots  # noqa: F401  (registers the zd-team bot)
from .ruleset import ZeroDark

RULESET = register(ZeroDark())

__all__ = ["RULESET", "ZeroDark"]
