"""Game records: versioned JSON files that replay to the same game everywhere.

A record holds what is needed to play a game again from the start: the rule set's id
and version, the resolved configuration, the seed, and every action with its seat. Its
JSON form (format version 1)::

    {
      "format": "fogofwar-record",
      "version": 1,
      "engine": "0.1.0",
      "ruleset": "hide-and-seek",
      "ruleset_version": "1.0.0",
      "config": {"cells": 9, ...},
      "seed": 42,
      "actions": [
        {"seat": "hider", "kind": "bid", "args": [1]},
        ...
      ],
      "outcome": {"winners": [...], "sides": [...], "reason": "...", "rule": "EX-7"},
      "meta": {}
    }

``outcome`` is ``null`` for an unfinished game; ``meta`` is free-form JSON (players,
bots, dates). Replaying applies every action *checked*, so a damaged or doctored record
fails with the index of the first illegal action, and a finished record's outcome is
checked against the replay.

Compatibility: a record with a newer format version, or from a rule set whose major
version differs from the installed one, is refused with :class:`RecordVersionError`.
A different minor or patch version of the rule set replays (it promises the same rules).

During a game the record is the umpire's secret (it holds the seed): it never goes into a
view or an event, and a bot never sees it.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from os import PathLike
from pathlib import Path
from typing import Any

from .errors import BadDataError, IllegalActionError, InvalidNotationError, RulesError
from .game import JSON, Action, Event, Outcome, Ruleset, State, get_ruleset

__all__ = [
    "FORMAT",
    "FORMAT_VERSION",
    "Record",
    "RecordVersionError",
    "Recorder",
    "ReplayError",
    "outcome_from_json",
]

FORMAT = "fogofwar-record"
FORMAT_VERSION = 1

_FIELDS = (
    "format",
    "version",
    "engine",
    "ruleset",
    "ruleset_version",
    "config",
    "seed",
    "actions",
    "outcome",
    "meta",
)


def _engine_version() -> str:
    # Imported late: the package's __init__ may one day import from core.
    from fogofwar import __version__

    return __version__


class RecordVersionError(BadDataError):
    """A record this fogofwar cannot replay: a newer format, or other rules.

    Attributes:
        recorded: the version the record was made with.
        supported: the version this fogofwar has.
    """

    def __init__(self, file: str, what: str, recorded: str, supported: str, advice: str) -> None:
        super().__init__(file, f"{what} {supported}", found=recorded)
        self.recorded = recorded
        self.supported = supported
        self._parts = (file, what, recorded, supported, advice)
        # The generic "expected X, found Y" wording reads badly here; say it plainly.
        self.args = (
            f"{file}: recorded with {what} {recorded}; this fogofwar plays {supported} ({advice})",
        )

    def __reduce__(self) -> tuple[Any, ...]:
        # Rebuild from the constructor's arguments (args holds only the message).
        return type(self), self._parts, self.__dict__


class ReplayError(BadDataError):
    """A recorded action that is illegal when the record is replayed.

    The :class:`IllegalActionError` the state raised is the ``__cause__``.

    Attributes:
        index: the 0-based position of the action in the record's ``actions``.
        action: the action.
        reason: why it is illegal.
        rule: the rule ID that forbids it, if any.
    """

    def __init__(
        self, file: str, index: int, action: Action, reason: str, rule: str | None
    ) -> None:
        super().__init__(file, "a legal action", found=f"actions[{index}]: {action}")
        self.index = index
        self.action = action
        self.reason = reason
        self.rule = rule
        tag = f" [{rule}]" if rule else ""
        self.args = (f"{file}: action {index} ({action.seat}: {action}) is illegal: {reason}{tag}",)

    def __reduce__(self) -> tuple[Any, ...]:
        parts = (self.file, self.index, self.action, self.reason, self.rule)
        return type(self), parts, self.__dict__


@dataclass(frozen=True)
class Record:
    """A game record (see the module documentation for the JSON form).

    Attributes:
        ruleset: the rule set's id.
        ruleset_version: the rule set's version when the game was played.
        config: the fully resolved configuration (JSON form).
        seed: the game's seed.
        actions: every applied action, in order.
        outcome: the result, or ``None`` for an unfinished game.
        meta: free-form JSON (players, bots, dates).
        engine: the fogofwar version that wrote the record.
        version: the record format version.
        source: where the record came from, for error messages (not saved).
    """

    ruleset: str
    ruleset_version: str
    config: Mapping[str, JSON]
    seed: int | str
    actions: tuple[Action, ...] = ()
    outcome: Outcome | None = None
    meta: Mapping[str, JSON] = field(default_factory=dict)
    engine: str = field(default_factory=_engine_version)
    version: int = FORMAT_VERSION
    source: str = field(default="<record>", compare=False, repr=False)

    # ------------------------------------------------------------------ JSON

    def to_json(self) -> dict[str, JSON]:
        """Return the JSON form (a dict of plain JSON values)."""
        return {
            "format": FORMAT,
            "version": self.version,
            "engine": self.engine,
            "ruleset": self.ruleset,
            "ruleset_version": self.ruleset_version,
            "config": dict(self.config),
            "seed": self.seed,
            "actions": [a.to_json() for a in self.actions],
            "outcome": None if self.outcome is None else self.outcome.to_json(),
            "meta": dict(self.meta),
        }

    def dumps(self) -> str:
        """Return the record as JSON text: one field per line, one action per line.

        One action a line keeps records readable and their diffs small.
        """
        data = self.to_json()
        lines = ["{"]
        for i, key in enumerate(_FIELDS):
            comma = "," if i < len(_FIELDS) - 1 else ""
            value = data[key]
            if key == "actions" and value:
                lines.append(f'  "{key}": [')
                rows = [_compact(a) for a in value]
                lines.extend(f"    {row}," for row in rows[:-1])
                lines.append(f"    {rows[-1]}")
                lines.append(f"  ]{comma}")
            else:
                lines.append(f'  "{key}": {_compact(value)}{comma}')
        lines.append("}")
        return "\n".join(lines) + "\n"

    def save(self, path: str | PathLike[str]) -> None:
        """Write the record to ``path`` (UTF-8 JSON)."""
        Path(path).write_text(self.dumps(), encoding="utf-8")

    @classmethod
    def loads(cls, text: str, source: str = "<string>") -> Record:
        """Read a record from JSON text.

        Raises:
            BadDataError: not JSON (with line and column), or not a valid record
                (saying what was expected where).
            RecordVersionError: a newer record format than this fogofwar reads.
        """
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise BadDataError(
                source, f"valid JSON ({exc.msg})", line=exc.lineno, column=exc.colno
            ) from None
        return cls.from_json(data, source=source)

    @classmethod
    def load(cls, path: str | PathLike[str]) -> Record:
        """Read a record file (errors name the file; see :meth:`loads`)."""
        name = str(path)
        try:
            text = Path(path).read_text(encoding="utf-8")
        except UnicodeDecodeError as exc:
            raise BadDataError(name, "UTF-8 text", found=f"byte {exc.start}") from None
        except OSError as exc:
            raise BadDataError(name, "a readable record file", found=exc.strerror) from None
        return cls.loads(text, source=name)

    @classmethod
    def from_json(cls, data: JSON, source: str = "<data>") -> Record:
        """Build a record from its JSON form, validating every field."""
        if not isinstance(data, dict):
            raise BadDataError(source, "a JSON object (a fogofwar record)", found=_kind(data))
        if data.get("format") != FORMAT:
            raise BadDataError(source, f'"format": "{FORMAT}"', found=_short(data.get("format")))
        version = data.get("version")
        if isinstance(version, bool) or not isinstance(version, int) or version < 1:
            raise BadDataError(source, '"version": a positive integer', found=_short(version))
        if version > FORMAT_VERSION:
            engine = data.get("engine")
            by = f" by fogofwar {engine}" if isinstance(engine, str) else ""
            raise RecordVersionError(
                source,
                "record format version",
                f"{version}{by}",
                f"{FORMAT_VERSION} (fogofwar {_engine_version()})",
                "upgrade fogofwar to read it",
            )
        unknown = sorted(set(data) - set(_FIELDS))
        if unknown:
            raise BadDataError(
                source, f"only the fields {', '.join(_FIELDS)}", found=", ".join(unknown)
            )
        for key in ("engine", "ruleset", "ruleset_version"):
            if not isinstance(data.get(key), str) or not data[key]:
                raise BadDataError(
                    source, f'"{key}": a non-empty string', found=_short(data.get(key))
                )
        config = data.get("config")
        if not isinstance(config, dict):
            raise BadDataError(source, '"config": an object', found=_kind(config))
        seed = data.get("seed")
        if isinstance(seed, bool) or not isinstance(seed, int | str):
            raise BadDataError(source, '"seed": an integer or a string', found=_short(seed))
        raw_actions = data.get("actions")
        if not isinstance(raw_actions, list):
            raise BadDataError(source, '"actions": a list', found=_kind(raw_actions))
        actions = []
        for i, raw in enumerate(raw_actions):
            try:
                actions.append(Action.from_json(raw))
            except InvalidNotationError:
                raise BadDataError(
                    source,
                    f'actions[{i}]: {{"seat": string, "kind": string, "args": [ints and strings]}}',
                    found=_short(raw),
                ) from None
        outcome = data.get("outcome")
        meta = data.get("meta", {})
        if not isinstance(meta, dict):
            raise BadDataError(source, '"meta": an object', found=_kind(meta))
        return cls(
            ruleset=data["ruleset"],
            ruleset_version=data["ruleset_version"],
            config=config,
            seed=seed,
            actions=tuple(actions),
            outcome=None if outcome is None else outcome_from_json(outcome, source),
            meta=meta,
            engine=data["engine"],
            version=version,
            source=source,
        )

    # ------------------------------------------------------------------ replay

    def check_ruleset(self, ruleset: Ruleset | None = None) -> Ruleset:
        """Return the rule set this record replays under, checking id and major version.

        Args:
            ruleset: the rule set to use; by default the registered one with the
                record's id.

        Raises:
            RulesError: the rule set is unknown (listing the known ones).
            BadDataError: ``ruleset`` has another id than the record.
            RecordVersionError: the rule set's major version differs from the record's.
        """
        rs = ruleset if ruleset is not None else get_ruleset(self.ruleset)
        if rs.id != self.ruleset:
            raise BadDataError(self.source, f"a record of {rs.id}", found=self.ruleset)
        if _major(rs.version) != _major(self.ruleset_version):
            raise RecordVersionError(
                self.source,
                f"{rs.id} version",
                self.ruleset_version,
                rs.version,
                "the major versions differ, so the rules may have changed",
            )
        return rs

    def states(self, ruleset: Ruleset | None = None, *, clone: bool = True) -> Iterator[State]:
        """Step through the replay: the initial state, then the state after each action.

        Args:
            ruleset: as for :meth:`check_ruleset`.
            clone: yield an independent snapshot each time (default). With ``False`` the
                same live state is yielded and advanced, which is faster; copy what you
                keep.

        Raises:
            ReplayError: a recorded action is illegal (naming its index).
            BadDataError: the config does not fit the rule set, or the replayed outcome
                differs from the recorded one (checked once every action is applied).
        """
        rs = self.check_ruleset(ruleset)
        try:
            config = rs.resolve_config(self.config)
        except RulesError as exc:
            raise BadDataError(self.source, f"a config for {rs.id}", found=str(exc)) from None
        state = rs.new_game(config, self.seed)
        yield state.clone() if clone else state
        for i, action in enumerate(self.actions):
            try:
                state.apply(action)
            except IllegalActionError as exc:
                raise ReplayError(self.source, i, action, exc.reason, exc.rule) from exc
            yield state.clone() if clone else state
        if self.outcome is not None and state.outcome() != self.outcome:
            got = state.outcome()
            raise BadDataError(
                self.source,
                f"the recorded outcome ({self.outcome.reason})",
                found="an unfinished game" if got is None else got.reason,
            )

    def replay(self, ruleset: Ruleset | None = None) -> State:
        """Play the record again and return the final state (see :meth:`states`)."""
        *_, final = self.states(ruleset, clone=False)  # one live state, yielded repeatedly
        return final


class Recorder:
    """Play a game and keep its record.

    Every action goes through :meth:`apply`, which checks it and records it once it is
    legal (an illegal action raises and is not recorded). Acting on :attr:`state`
    directly bypasses the record.

    Example:
        >>> rec = Recorder(ruleset, {"cells": 7}, seed=5)        # doctest: +SKIP
        >>> rec.apply(Action("hider", "bid", (1,)))               # doctest: +SKIP
        >>> rec.record().save("game.json")                        # doctest: +SKIP
    """

    def __init__(
        self,
        ruleset: Ruleset,
        config: Mapping[str, Any] | None = None,
        seed: int | str = 0,
        *,
        meta: Mapping[str, JSON] | None = None,
    ) -> None:
        self.ruleset = ruleset
        self.config = ruleset.resolve_config(config)
        self._seed = seed  # the umpire's secret, like the record itself
        self.state = ruleset.new_game(self.config, seed)
        self.meta: dict[str, JSON] = dict(meta or {})
        self._actions: list[Action] = []

    @property
    def actions(self) -> tuple[Action, ...]:
        """The actions applied so far."""
        return tuple(self._actions)

    def apply(self, action: Action) -> list[Event]:
        """Apply ``action`` (checked) and record it.

        Raises:
            IllegalActionError: as :meth:`State.apply`; nothing is recorded.
        """
        events = self.state.apply(action)
        self._actions.append(action)
        return events

    def record(self) -> Record:
        """Return the record of the game so far (with the outcome once it is over)."""
        return Record(
            ruleset=self.ruleset.id,
            ruleset_version=self.ruleset.version,
            config=self.config.to_json(),
            seed=self._seed,
            actions=tuple(self._actions),
            outcome=self.state.outcome(),
            meta=dict(self.meta),
        )

    def __repr__(self) -> str:
        return f"Recorder({self.ruleset.id}, {len(self._actions)} actions)"


# --------------------------------------------------------------------------- helpers


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
