"""Tampered records and damaged files, generated: can a file fool the umpire?

Two generators, each seeded by a keyed stream so that a run is reproducible:

* :func:`tamper_record` changes a finished game's record the way someone who wants a
  different result would — swapping, changing, dropping or repeating actions, another
  seed, config or outcome, forged digests — or damages its text (flipped bytes, cut
  short, deep nesting, huge numbers). :func:`check_tampering` asserts the promise: a
  changed record never verifies (:func:`~fogofwar.core.record.verify_record`), and loading
  or replaying it fails with one :class:`~fogofwar.core.errors.BadDataError` — never
  another exception. Only changes to what the chain does not cover (``meta``, the
  ``engine`` that wrote it) leave a record verifiable.
* :func:`damage` mutates the text of a data file (a board, cards, a mission) — bytes,
  lines, numbers, binary junk, huge counts — for a loader to refuse cleanly.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from fogofwar.core.errors import BadDataError, RulesError
from fogofwar.core.files import decode_text
from fogofwar.core.game import JSON, DataFormat, Ruleset
from fogofwar.core.record import Record, RecordVersionError, verify_record
from fogofwar.core.rng import Stream
from fogofwar.core.secret import commitment

__all__ = [
    "TamperReport",
    "check_formats",
    "check_loader",
    "check_tampering",
    "damage",
    "tamper_record",
]


def _essence(record: Record) -> tuple[Any, ...]:
    """What the digest chain and the commitment vouch for."""
    return (
        record.ruleset,
        json.dumps(dict(record.config), sort_keys=True),
        record.seed,
        record.seeded,
        record.commitment,
        record.actions,
        record.digests,
        record.outcome,
    )


def tamper_record(data: dict[str, JSON], stream: Stream) -> tuple[str, str]:
    """One tampered copy of a record's JSON form: ``(what was done, the file's text)``.

    What was done names actions counted from 1, as the replay's errors do."""
    r = stream
    d = json.loads(json.dumps(data))
    actions: list[JSON] = d["actions"]
    n = len(actions)
    how = r.randbelow(16)
    if how == 0 and n >= 2:
        i = r.randbelow(n - 1)
        actions[i], actions[i + 1] = actions[i + 1], actions[i]
        return f"swapped actions {i + 1} and {i + 2}", json.dumps(d)
    if how == 1 and n >= 2:
        i, j = sorted(r.sample(range(n), 2))
        actions[j] = json.loads(json.dumps(actions[i]))
        actions[j]["seat"] = actions[j]["seat"] if r.randbelow(2) else actions[i]["seat"]
        return f"action {j + 1} replaced by a copy of action {i + 1}", json.dumps(d)
    if how == 2 and n >= 1:
        i = r.randbelow(n)
        del actions[i]
        if r.randbelow(2):
            del d["digests"][i]
        return f"dropped action {i + 1}", json.dumps(d)
    if how == 3 and n >= 1:
        i = r.randbelow(n)
        actions.insert(i, actions[i])
        d["digests"].insert(i, d["digests"][i])
        return f"repeated action {i + 1}", json.dumps(d)
    if how == 4:
        d["seed"] = r.choice((0, 1, 5, 2**64 - 1, "ab" * 16, "0" * 64))
        if r.randbelow(2):
            d["commitment"] = commitment(d["seed"])
            return "another seed with its own commitment", json.dumps(d)
        return "another seed", json.dumps(d)
    if how == 5 and d["config"]:
        key = r.choice(sorted(d["config"]))
        value = d["config"][key]
        if isinstance(value, bool):
            d["config"][key] = not value
        elif isinstance(value, int):
            d["config"][key] = value + r.choice((1, -1))
        else:
            del d["config"][key]
        return f"config {key} changed", json.dumps(d)
    if how == 6 and n >= 1:
        i = r.randbelow(n)
        digest = d["digests"][i]
        d["digests"][i] = digest[:-1] + ("0" if digest[-1] != "0" else "1")
        return f"action {i + 1}'s digest forged", json.dumps(d)
    if how == 7 and d.get("outcome") is not None:
        d["outcome"]["reason"] += " (really)"
        return "outcome reason changed", json.dumps(d)
    if how == 8 and d.get("outcome") is not None:
        if r.randbelow(2):
            # Passes for an unfinished game unless the replay's end is checked.
            if r.randbelow(2):
                del d["outcome"]
            else:
                d["outcome"] = None
            return "outcome removed", json.dumps(d)
        d["outcome"]["sides"] = []
        d["outcome"]["winners"] = []
        return "outcome made a draw", json.dumps(d)
    if how == 9:
        d["seeded"] = not d["seeded"]
        return "seeded flag flipped", json.dumps(d)
    if how == 10 and n >= 1:
        i = r.randbelow(n)
        args = actions[i]["args"]
        actions[i]["args"] = [*args, r.choice((1, "x", 10**40))] if r.randbelow(2) else args[:-1]
        return f"action {i + 1}'s arguments changed", json.dumps(d)
    # Damage to the text itself.
    text = json.dumps(d)
    if how == 11:
        cut = r.randbelow(len(text))
        return f"cut short at byte {cut}", text[:cut]
    if how == 12:
        depth = r.choice((20, 2000, 100_000))
        deep = "[" * depth + "]" * depth
        return f"JSON nested {depth} deep", text[:-1] + f', "meta": {deep}}}'
    if how == 13:
        return "a 5000-digit number", text.replace('"seed": ', '"seed": ' + "9" * 5000 + ', "x": ')
    if how == 14:
        return "meta changed (not covered by the chain)", json.dumps(
            {**d, "meta": {"note": "edited"}}
        )
    i = r.randbelow(len(text))
    return f"byte {i} flipped", text[:i] + chr((ord(text[i]) + 1 + r.randbelow(90)) % 0x7F) + text[
        i + 1 :
    ]


@dataclass
class TamperReport:
    """The figures of :func:`check_tampering`.

    Attributes:
        trials: tampered copies tried.
        refused: copies that failed to load or to verify (as they should).
        verified: copies that still verified (their essence unchanged: meta, engine).
        broken: copies that fooled the umpire, or crashed it: ``(what, problem)``.
        seconds: the run's wall time.
    """

    trials: int = 0
    refused: int = 0
    verified: int = 0
    broken: list[tuple[str, str]] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        """Nothing fooled or crashed the umpire."""
        return not self.broken


def check_tampering(record: Record, stream: Stream, *, trials: int) -> TamperReport:
    """Tamper with ``record`` ``trials`` times; every copy must be refused unless what the
    chain vouches for is unchanged (see the module documentation)."""
    report = TamperReport()
    original = _essence(record)
    data = record.to_json()
    started = time.perf_counter()
    for _ in range(trials):
        what, text = tamper_record(data, stream)
        report.trials += 1
        try:
            copy = Record.loads(text, source="<tampered>")
            verdict = verify_record(copy)
        except RecordVersionError:
            report.refused += 1
            continue
        except BadDataError:
            report.refused += 1
            continue
        except RulesError as exc:
            report.broken.append((what, f"refused with {type(exc).__name__}: {exc}"))
            continue
        except Exception as exc:
            report.broken.append((what, f"{type(exc).__name__}: {exc}"))
            continue
        if not verdict.verified:
            report.refused += 1
        elif _essence(copy) == original:
            report.verified += 1
        else:
            report.broken.append((what, "a changed record verified"))
    report.seconds = time.perf_counter() - started
    return report


def damage(text: str, stream: Stream) -> tuple[str, bytes]:
    """One damaged copy of a data file's text: ``(what was done, the bytes)``."""
    r = stream
    lines = text.splitlines(keepends=True)
    how = r.randbelow(12)
    if how == 0 and lines:
        i = r.randbelow(len(lines))
        return f"line {i + 1} repeated 5000 times", "".join(
            lines[: i + 1] + [lines[i]] * 5000 + lines[i + 1 :]
        ).encode()
    if how == 1 and lines:
        i = r.randbelow(len(lines))
        del lines[i]
        return f"line {i + 1} deleted", "".join(lines).encode()
    if how == 2:
        big = r.choice(("99999999", "99999999999999999999", "9" * 5000, "-1", "0", "²", "①"))
        out, n = _replace_numbers(text, big, r)
        return f"{n} numbers set to {big[:12]}", out.encode()
    if how == 3:
        cut = r.randbelow(len(text) + 1)
        return f"cut at character {cut}", text[:cut].encode()
    if how == 4:
        junk = bytes(r.randbelow(256) for _ in range(r.randint(1, 64)))
        i = r.randbelow(len(text) + 1)
        return f"{len(junk)} random bytes at {i}", text[:i].encode() + junk + text[i:].encode()
    if how == 5:
        return "invalid UTF-8", text.encode()[: r.randbelow(len(text) + 1)] + b"\xff\xfe\xc3"
    if how == 6:
        return "binary junk", bytes(r.randbelow(256) for _ in range(512))
    if how == 7 and lines:
        i = r.randbelow(len(lines))
        return f"line {i + 1} made 100000 characters long", "".join(
            [*lines[:i], lines[i].rstrip("\n") + "x" * 100000 + "\n", *lines[i + 1 :]]
        ).encode()
    if how == 8 and lines:
        i, j = r.randbelow(len(lines)), r.randbelow(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
        return f"lines {i + 1} and {j + 1} swapped", "".join(lines).encode()
    if how == 9:
        words = text.split()
        if words:
            w = r.choice(words)
            return f"word {w[:20]!r} duplicated", text.replace(w, w + " " + w, 1).encode()
    if how == 10:
        i = r.randbelow(len(text) + 1)
        return f"NUL at {i}", (text[:i] + "\x00" + text[i:]).encode()
    i = r.randbelow(max(len(text), 1))
    ch = chr(r.randint(0x20, 0x7E))
    return f"character {i} set to {ch!r}", (text[:i] + ch + text[i + 1 :]).encode()


def _replace_numbers(text: str, big: str, r: Stream) -> tuple[str, int]:
    count = 0

    def swap(m: re.Match[str]) -> str:
        nonlocal count
        if r.randbelow(3) == 0:
            count += 1
            return big
        return m.group(0)

    return re.sub(r"\d+", swap, text), count


def check_loader(
    load: Callable[[bytes], object], text: str, stream: Stream, *, trials: int
) -> list[tuple[str, str]]:
    """Damage ``text`` ``trials`` times and load each copy; returns what broke: a loader
    must either load the copy or raise :class:`BadDataError` (nothing else)."""
    broken: list[tuple[str, str]] = []
    for _ in range(trials):
        what, data = damage(text, stream)
        try:
            load(data)
        except BadDataError:
            continue
        except Exception as exc:
            broken.append((what, f"{type(exc).__name__}: {str(exc)[:200]}"))
    return broken


def check_formats(
    ruleset: Ruleset, stream: Stream, *, trials: int
) -> tuple[int, list[tuple[str, str]]]:
    """Damage every shipped sample of every data format of ``ruleset``
    (:meth:`~fogofwar.core.game.Ruleset.data_formats`) ``trials`` times each; returns the
    number of damaged files loaded and what broke (``(format: what was done, problem)``)."""
    tried, broken = 0, []
    for fmt in ruleset.data_formats():
        for name, text in fmt.samples.items():

            def load(data: bytes, fmt: DataFormat = fmt, name: str = name) -> object:
                return fmt.load(decode_text(data, file=name, what=fmt.name), name)

            found = check_loader(load, text, stream.fork(fmt.name, name), trials=trials)
            tried += trials
            broken += [(f"{name}: {what}", problem) for what, problem in found]
    return tried, broken
