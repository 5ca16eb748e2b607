"""A record's fields: the format's name and version, the bounds every field is checked
against on load, and the small readers the loader uses."""

from __future__ import annotations

import json

from ..errors import BadDataError
from ..game import JSON, Outcome

__all__ = ["FORMAT", "FORMAT_VERSION", "outcome_from_json"]


FORMAT = "fogofwar-record"
FORMAT_VERSION = 2

_FIELDS = (
    "format",
    "version",
    "engine",
    "ruleset",
    "ruleset_version",
    "config",
    "seeded",
    "commitment",
    "seed",
    "actions",
    "digests",
    "outcome",
    "meta",
)
_FIELDS_V1 = tuple(f for f in _FIELDS if f not in ("seeded", "commitment", "digests"))

#: Bounds on a record's fields: far above any real game, far below trouble.
_MAX_ACTIONS = 1_000_000
_MAX_TEXT = 200
_MAX_META_DEPTH = 16
_HEX = frozenset("0123456789abcdef")


def _engine_version() -> str:
    # Imported late: the package's __init__ may one day import from core.
    from fogofwar import __version__

    return __version__


def _compact(value: JSON) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def _kind(value: object) -> str:
    names = {dict: "an object", list: "a list", str: "a string", bool: "a boolean"}
    if value is None:
        return "null"
    return names.get(type(value), "a number" if isinstance(value, int | float) else "?")


def _short(value: object, limit: int = 60) -> str:
    text = json.dumps(value, ensure_ascii=False) if _is_json(value) else repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _is_json(value: object) -> bool:
    try:
        json.dumps(value)
    except (TypeError, ValueError):
        return False
    return True


def _is_hex(value: object, length: int) -> bool:
    return isinstance(value, str) and len(value) == length and _HEX.issuperset(value)


def _depth(value: JSON) -> int:
    """How deeply ``value`` nests (iteratively: a deep value cannot blow the stack)."""
    deepest, todo = 0, [(value, 1)]
    while todo:
        item, depth = todo.pop()
        if isinstance(item, dict | list):
            deepest = max(deepest, depth)
            if depth > _MAX_META_DEPTH:
                break
            todo += [(v, depth + 1) for v in (item.values() if isinstance(item, dict) else item)]
    return deepest


def _major(version: str) -> str:
    return version.split(".", 1)[0].strip()


def outcome_from_json(data: JSON, source: str = "<data>") -> Outcome:
    """Build an :class:`Outcome` from its JSON form (:class:`BadDataError` if malformed)."""
    expected = (
        '"outcome": null or {"winners": [str], "sides": [str], "reason": str, "rule": str|null}'
    )
    if not isinstance(data, dict):
        raise BadDataError(source, expected, found=_kind(data))
    winners, sides = data.get("winners"), data.get("sides")
    reason, rule = data.get("reason"), data.get("rule")
    if (
        not isinstance(winners, list)
        or not isinstance(sides, list)
        or not all(isinstance(x, str) for x in (*winners, *sides))
        or not isinstance(reason, str)
        or not (rule is None or isinstance(rule, str))
    ):
        raise BadDataError(source, expected, found=_short(data))
    return Outcome(frozenset(winners), frozenset(sides), reason, rule)
