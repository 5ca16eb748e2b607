"""Warfighter's notation: each action's words (``attack S H [door]``) and the refusal
of words that do not fit, with the rule that defines the action. The rule set's
``malformed`` and the phase table's ``notation`` (``game.py``) both use them."""

from __future__ import annotations

from typing import Final

__all__ = ["SHAPES", "shape_error"]

#: Each action's words after its name: (notation, its rule, the optional last word).
SHAPES: Final[dict[str, tuple[str, str, str | None]]] = {
    "move": ("move S L", "WF-C2", None),
    "attack": ("attack S H [door]", "WF-C4", "door"),
    "pick": ("pick S H [up]", "WF-D5", "up"),
    "check": ("check S K [up]", "WF-A5", "up"),
    "roll": ("roll S K [up]", "WF-A9", "up"),
    "end": ("end", "WF-C7", None),
}


def shape_error(kind: str, args: tuple[int | str, ...]) -> tuple[str, str] | None:
    """Why ``args`` do not fit the action's notation, with the rule, or None if they do."""
    notation, rule, last = SHAPES[kind]
    if kind == "end":
        if args:
            return "end takes no arguments: it ends the whole Soldier Turn", rule
        return None
    if len(args) == 3 and args[2] == "up" and last != "up":
        # Only ability checks may be upgunned (a move or an attack has no number).
        return f"{kind} cannot be upgunned: only ability checks and picks can", "WF-A7"
    if len(args) < 2 or len(args) > 3 or (len(args) == 3 and args[2] != last):
        return f"{kind} is written {notation}", rule
    return None
