"""Golden files shared by the rule sets' tests: a diff-friendly JSON layout and the
compare-or-regenerate check (``FOGOFWAR_REGEN=1``, ``make golden``, writes the files;
otherwise any difference fails, naming the entry that changed)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

REGEN = os.environ.get("FOGOFWAR_REGEN") == "1"


def _compact(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def _order(key: str) -> tuple[int, str]:
    return (int(key), "") if key.isdigit() else (-1, key)


def dumps(data: dict[str, Any]) -> str:
    """JSON text with one top-level field a line, and one element a line inside lists and
    objects one level down: small files whose diffs point at the entry that changed."""
    lines = ["{"]
    keys = sorted(data)
    for i, key in enumerate(keys):
        value = data[key]
        comma = "," if i < len(keys) - 1 else ""
        if isinstance(value, list) and value:
            rows = [_compact(v) for v in value]
        elif isinstance(value, dict) and value:
            rows = [f"{_compact(k)}:{_compact(value[k])}" for k in sorted(value, key=_order)]
        else:
            lines.append(f"{_compact(key)}:{_compact(value)}{comma}")
            continue
        opening, closing = ("[", "]") if isinstance(value, list) else ("{", "}")
        lines.append(f"{_compact(key)}:{opening}")
        lines += [f" {row}," for row in rows[:-1]] + [f" {rows[-1]}"]
        lines.append(f"{closing}{comma}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def check_golden(directory: Path, name: str, data: dict[str, Any]) -> None:
    """Compare ``data`` with ``directory/name`` (or write it with FOGOFWAR_REGEN=1)."""
    path = directory / name
    text = dumps(data)
    assert json.loads(text) == data
    if REGEN:
        directory.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return
    assert path.exists(), f"{path} is missing: run `make golden` (FOGOFWAR_REGEN=1)"
    stored = json.loads(path.read_text(encoding="utf-8"))
    assert sorted(stored) == sorted(data), f"{name}: the top-level keys differ"
    # Piece by piece first, for a readable failure.
    for key in sorted(data):
        got, want = data[key], stored[key]
        if isinstance(got, list) and isinstance(want, list):
            for i, (g, w) in enumerate(zip(got, want, strict=False)):
                assert g == w, f"{name}: {key}[{i}] differs (regenerate with FOGOFWAR_REGEN=1)"
            assert len(got) == len(want), f"{name}: {key} has {len(got)} entries, not {len(want)}"
        elif isinstance(got, dict) and isinstance(want, dict):
            for k in sorted(set(got) | set(want)):
                assert got.get(k) == want.get(k), f"{name}: {key}[{k!r}] differs"
        assert got == want, f"{name}: {key} differs"
    assert json.loads(text) == stored
