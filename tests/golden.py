"""Golden files shared by the rule sets' tests: a diff-friendly JSON layout and the
compare-or-regenerate check (``FOGOFWAR_REGEN=1``, ``make golden``, writes the files;
otherwise any difference fails, naming the entry that changed)."""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from fogofwar.core.game import Action, State
from fogofwar.core.rng import Stream

REGEN = os.environ.get("FOGOFWAR_REGEN") == "1"


def digest(text: str) -> str:
    """A short digest of a view's canonical text: a golden step stays one line."""
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def random_steps(
    state: State, seats: Sequence[str | None], rng: Stream
) -> tuple[list[list[Any]], list[Action]]:
    """Play ``state`` to its end, each action uniform over the legal actions of the first
    seat to act (from ``rng``). One row a step — the seat, the action, how many legal
    actions it had, the event kinds and a digest of each of ``seats``' views after it —
    and the actions played."""
    steps: list[list[Any]] = []
    actions: list[Action] = []
    while not state.is_over:
        seat = sorted(state.to_act())[0]
        legal = state.legal_actions(seat)
        action = rng.choice(legal)
        events = state.apply(action)
        actions.append(action)
        steps.append(
            [
                seat,
                str(action),
                len(legal),
                [e.kind for e in events],
                [digest(state.view(s).canonical()) for s in seats],
            ]
        )
    return steps, actions


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
