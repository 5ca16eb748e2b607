"""Game records: versioned JSON files that replay to the same game everywhere.

A record holds what is needed to play a game again from the start: the rule set's id
and version, the resolved configuration, the seed, and every action with its seat. Its
JSON form (format version 2)::

    {
      "format": "fogofwar-record",
      "version": 2,
      "engine": "0.1.0",
      "ruleset": "hide-and-seek",
      "ruleset_version": "1.0.0",
      "config": {"cells": 9, ...},
      "seeded": false,
      "commitment": "3f2a…",            # SHA-256 of the seed (fogofwar.core.secret)
      "seed": "9c41…",                  # a 256-bit secret, or a chosen integer seed
      "actions": [
        {"seat": "hider", "kind": "bid", "args": [1]},
        ...
      ],
      "digests": ["0be1c2d3e4f5a6b7", ...],   # one per action: the digest chain
      "outcome": {"winners": [...], "sides": [...], "reason": "...", "rule": "EX-7"},
      "meta": {}
    }

``outcome`` is ``null`` for an unfinished game; ``meta`` is free-form JSON (players,
bots, dates). ``seeded`` is true when someone chose the seed (``--seed``, a study), so
that whoever knows it knows every secret; otherwise the seed is a fresh secret that no
seat saw before the end, and ``commitment`` is what every seat was shown at the start.

**The digest chain.** ``digests[i]`` is the first 16 hex digits of a SHA-256 chain over
everything the umpire produced: it starts from the rule set, the config, the commitment
and every seat's opening view, and each action adds the action, every event it caused
(with its audience), the seats to act next and the outcome. Replaying checks the chain
action by action, so a record whose actions were swapped, changed, dropped or replayed
under another seed, config or rule version is refused at the first action where it
diverges (:class:`TamperedRecordError`) — even where every action is still legal.

Replaying applies every action *checked*, so an illegal action fails with its index
(:class:`ReplayError`), and a finished record's outcome is checked against the replay.
Every field is validated on load; out-of-range values (a seed of ``10**100``, a config
missing an option) are refused with one line.

Compatibility: format 1 records (no commitment, no digests) still load and replay, as
seeded games that cannot be verified. A record with a newer format version, or from a
rule set whose major version differs from the installed one, is refused with
:class:`RecordVersionError`. A different minor or patch version of the rule set replays
(it promises the same rules).

During a game the record is the umpire's secret (it holds the seed): it never goes into a
view or an event, and a bot never sees it.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from os import PathLike
from pathlib import Path
from typing import Any

from .errors import BadDataError, IllegalActionError, InvalidNotationError, RulesError
from .files import RECORD_FILE_LIMIT, read_text
from .game import JSON, Action, Config, Event, Outcome, Ruleset, State, canonical_json, get_ruleset
from .rng import check_seed
from .secret import commitment, matches, new_secret

__all__ = [
    "FORMAT",
    "FORMAT_VERSION",
    "Record",
    "RecordVersionError",
    "Recorder",
    "ReplayError",
    "TamperedRecordError",
    "Verdict",
    "chain_start",
    "chain_step",
    "outcome_from_json",
    "verify_record",
]

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

#: Hex digits of each action's chain digest kept in a record (64 bits).
DIGEST_CHARS = 16
_CHAIN_PREFIX = b"fogofwar-chain-v1\x00"
#: Bounds on a record's fields: far above any real game, far below trouble.
_MAX_ACTIONS = 1_000_000
_MAX_TEXT = 200
_MAX_META_DEPTH = 16
_HEX = frozenset("0123456789abcdef")


def chain_start(
    ruleset: Ruleset, config: Config, committed: str, seeded: bool, state: State
) -> bytes:
    """The digest chain's start: the rule set, config, commitment, whether the game was
    seeded, and every opening view. (Not the rule set's version: a minor version promises
    the same rules, so its records replay.)"""
    seats: list[str | None] = [*ruleset.seats(config), None]
    views = {str(seat): state.view(seat).canonical() for seat in seats}
    payload = canonical_json(
        {
            "ruleset": ruleset.id,
            "config": config.to_json(),
            "commitment": committed,
            "seeded": seeded,
            "views": views,
        }
    )
    return hashlib.sha256(_CHAIN_PREFIX + payload.encode("utf-8")).digest()


def chain_step(previous: bytes, action: Action, events: Sequence[Event], state: State) -> bytes:
    """The next link: the action, every event it caused (with its audience), who acts
    next and the outcome, hashed onto ``previous``."""
    outcome = state.outcome()
    payload = canonical_json(
        {
            "action": action.to_json(),
            "events": [
                [e.kind, dict(e.data), None if e.to is None else sorted(e.to)] for e in events
            ],
            "to_act": sorted(state.to_act()),
            "outcome": None if outcome is None else outcome.to_json(),
        }
    )
    return hashlib.sha256(previous + payload.encode("utf-8")).digest()


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


class TamperedRecordError(BadDataError):
    """A record whose replay does not give what the record says it gave.

    Raised at the first action whose digest differs (the record was changed at or before
    it), or when the seed is not the one committed to.

    Attributes:
        index: the 0-based index of the first action that diverges (``None`` when the
            seed itself does not match the commitment).
    """

    def __init__(self, file: str, index: int | None, message: str) -> None:
        super().__init__(file, "an unchanged record", found=message)
        self.index = index
        self._parts = (file, index, message)
        self.args = (f"{file}: {message}",)

    def __reduce__(self) -> tuple[Any, ...]:
        return type(self), self._parts, self.__dict__


@dataclass(frozen=True)
class Record:
    """A game record (see the module documentation for the JSON form).

    Attributes:
        ruleset: the rule set's id.
        ruleset_version: the rule set's version when the game was played.
        config: the fully resolved configuration (JSON form).
        seed: the game's seed.
        actions: every applied action, in order.
        digests: the digest chain, one per action (empty for a format 1 record).
        seeded: whether someone chose the seed (then it is no secret).
        commitment: the commitment to the seed shown to every seat at the start
            (``None`` for a format 1 record).
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
    digests: tuple[str, ...] = ()
    seeded: bool = True
    commitment: str | None = None
    meta: Mapping[str, JSON] = field(default_factory=dict)
    engine: str = field(default_factory=_engine_version)
    version: int = FORMAT_VERSION
    source: str = field(default="<record>", compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.commitment is None and self.version >= 2:
            # A format 2 record always names its commitment; one built by hand gets it.
            object.__setattr__(self, "commitment", commitment(self.seed))

    # ------------------------------------------------------------------ JSON

    def to_json(self) -> dict[str, JSON]:
        """Return the JSON form (a dict of plain JSON values), in the record's format."""
        data: dict[str, JSON] = {
            "format": FORMAT,
            "version": self.version,
            "engine": self.engine,
            "ruleset": self.ruleset,
            "ruleset_version": self.ruleset_version,
            "config": dict(self.config),
            "seeded": self.seeded,
            "commitment": self.commitment,
            "seed": self.seed,
            "actions": [a.to_json() for a in self.actions],
            "digests": list(self.digests),
            "outcome": None if self.outcome is None else self.outcome.to_json(),
            "meta": dict(self.meta),
        }
        return {k: data[k] for k in (_FIELDS if self.version >= 2 else _FIELDS_V1)}

    @property
    def verifiable(self) -> bool:
        """Whether the record carries a commitment and a digest chain to verify."""
        return self.commitment is not None and len(self.digests) == len(self.actions)

    def dumps(self) -> str:
        """Return the record as JSON text: one field per line, one action per line.

        One action a line keeps records readable and their diffs small.
        """
        data = self.to_json()
        lines = ["{"]
        for i, key in enumerate(data):
            comma = "," if i < len(data) - 1 else ""
            value = data[key]
            if key in ("actions", "digests") and value:
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
        """Write the record to ``path`` (UTF-8 JSON), readable by its owner only: until
        the game is over it holds the game's secret."""
        p = Path(path)
        fd = os.open(p, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(self.dumps())

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
        except RecursionError:
            raise BadDataError(source, "JSON nested a few levels deep", found="deeper") from None
        except ValueError as exc:  # e.g. an integer of more than 4300 digits
            raise BadDataError(source, "valid JSON", found=str(exc)[:80]) from None
        return cls.from_json(data, source=source)

    @classmethod
    def load(cls, path: str | PathLike[str]) -> Record:
        """Read a record file (errors name the file; see :meth:`loads`)."""
        text = read_text(path, limit=RECORD_FILE_LIMIT, what="a record file")
        return cls.loads(text, source=str(path))

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
            by = f" by fogofwar {engine[:40]}" if isinstance(engine, str) else ""
            raise RecordVersionError(
                source,
                "record format version",
                f"{version}{by}",
                f"{FORMAT_VERSION} (fogofwar {_engine_version()})",
                "upgrade fogofwar to read it",
            )
        fields = _FIELDS if version >= 2 else _FIELDS_V1
        unknown = sorted(set(data) - set(fields))
        if unknown:
            raise BadDataError(
                source, f"only the fields {', '.join(fields)}", found=_short(", ".join(unknown))
            )
        for key in ("engine", "ruleset", "ruleset_version"):
            value = data.get(key)
            if not isinstance(value, str) or not value or len(value) > _MAX_TEXT:
                raise BadDataError(
                    source,
                    f'"{key}": a non-empty string of at most {_MAX_TEXT} characters',
                    found=_short(value),
                )
        config = data.get("config")
        if not isinstance(config, dict) or not all(
            isinstance(v, str | int | float | bool) and len(k) <= _MAX_TEXT
            for k, v in config.items()
        ):
            raise BadDataError(
                source,
                '"config": an object of options (names to strings, numbers, booleans)',
                found=_short(config),
            )
        seed = data.get("seed")
        try:
            seed = check_seed(seed)
        except (TypeError, RulesError) as exc:
            raise BadDataError(
                source,
                '"seed": an integer from 0 to 2**64 - 1 or a secret of 32 to 128 lowercase '
                "hex digits",
                found=_short(seed),
            ) from exc
        actions = cls._actions_from_json(data.get("actions"), source)
        digests: tuple[str, ...] = ()
        seeded: bool = True
        committed: str | None = None
        if version >= 2:
            raw_seeded = data.get("seeded")
            if not isinstance(raw_seeded, bool):
                raise BadDataError(source, '"seeded": true or false', found=_short(raw_seeded))
            seeded = raw_seeded
            committed = data.get("commitment")
            if not _is_hex(committed, 64):
                raise BadDataError(
                    source, '"commitment": 64 lowercase hex digits', found=_short(committed)
                )
            raw_digests = data.get("digests")
            if not isinstance(raw_digests, list) or len(raw_digests) != len(actions):
                raise BadDataError(
                    source,
                    f'"digests": a list of {len(actions)} digests, one per action',
                    found=_kind(raw_digests)
                    if not isinstance(raw_digests, list)
                    else f"{len(raw_digests)} digests",
                )
            for i, d in enumerate(raw_digests):
                if not _is_hex(d, DIGEST_CHARS):
                    raise BadDataError(
                        source,
                        f"digests[{i}]: {DIGEST_CHARS} lowercase hex digits",
                        found=_short(d),
                    )
            digests = tuple(raw_digests)
        outcome = data.get("outcome")
        meta = data.get("meta", {})
        if not isinstance(meta, dict):
            raise BadDataError(source, '"meta": an object', found=_kind(meta))
        if _depth(meta) > _MAX_META_DEPTH:
            raise BadDataError(
                source, f'"meta": JSON nested at most {_MAX_META_DEPTH} levels', found="deeper"
            )
        return cls(
            ruleset=data["ruleset"],
            ruleset_version=data["ruleset_version"],
            config=config,
            seed=seed,
            actions=actions,
            outcome=None if outcome is None else outcome_from_json(outcome, source),
            digests=digests,
            seeded=seeded,
            commitment=committed,
            meta=meta,
            engine=data["engine"],
            version=version,
            source=source,
        )

    @staticmethod
    def _actions_from_json(raw_actions: JSON, source: str) -> tuple[Action, ...]:
        if not isinstance(raw_actions, list):
            raise BadDataError(source, '"actions": a list', found=_kind(raw_actions))
        if len(raw_actions) > _MAX_ACTIONS:
            raise BadDataError(
                source,
                f'"actions": at most {_MAX_ACTIONS:,} actions',
                found=f"{len(raw_actions):,}",
            )
        actions = []
        for i, raw in enumerate(raw_actions):
            try:
                action = Action.from_json(raw)
                if len(action.seat) > _MAX_TEXT or len(str(action)) > _MAX_TEXT:
                    raise InvalidNotationError(str(raw), "too long")
            except InvalidNotationError:
                raise BadDataError(
                    source,
                    f'actions[{i}]: {{"seat": string, "kind": string, "args": [ints and strings]}}',
                    found=_short(raw),
                ) from None
            actions.append(action)
        return tuple(actions)

    # ------------------------------------------------------------------ replay

    def check_ruleset(self, ruleset: Ruleset | None = None) -> Ruleset:
        """Return the rule set this record replays under, checking id and major version.

        Args:
            ruleset: the rule set to use; by default the registered one with the
                record's id.

        Raises:
            BadDataError: the rule set is unknown (listing the known ones), or
                ``ruleset`` has another id than the record.
            RecordVersionError: the rule set's major version differs from the record's.
        """
        if ruleset is None:
            try:
                ruleset = get_ruleset(self.ruleset)
            except RulesError as exc:  # a record of a rule set this fogofwar lacks
                raise BadDataError(
                    self.source, "a record of a rule set this fogofwar plays", found=str(exc)
                ) from None
        rs = ruleset
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
        config = self.resolved_config(rs)
        if len(self.actions) > rs.metadata.max_length:
            raise BadDataError(
                self.source,
                f"at most {rs.metadata.max_length} actions (the longest {rs.id} game)",
                found=str(len(self.actions)),
            )
        if self.commitment is not None and not matches(self.seed, self.commitment):
            raise TamperedRecordError(
                self.source, None, "the seed is not the one committed to at the start"
            )
        try:
            state = rs.new_game(config, self.seed)
        except RulesError as exc:
            raise BadDataError(self.source, f"a game {rs.id} can set up", found=str(exc)) from None
        check = self.commitment is not None and bool(self.digests)
        chain = chain_start(rs, config, self.commitment or "", self.seeded, state) if check else b""
        yield state.clone() if clone else state
        for i, action in enumerate(self.actions):
            try:
                events = state.apply(action)
            except IllegalActionError as exc:
                raise ReplayError(self.source, i, action, exc.reason, exc.rule) from exc
            if check:
                chain = chain_step(chain, action, events, state)
                if chain.hex()[:DIGEST_CHARS] != self.digests[i]:
                    raise TamperedRecordError(
                        self.source,
                        i,
                        f"action {i} ({action.seat}: {action}) does not give what the record "
                        "says it gave: the record was changed at or before this action",
                    )
            yield state.clone() if clone else state
        if self.outcome is not None and state.outcome() != self.outcome:
            got = state.outcome()
            raise BadDataError(
                self.source,
                f"the recorded outcome ({self.outcome.reason})",
                found="an unfinished game" if got is None else got.reason,
            )

    def resolved_config(self, ruleset: Ruleset) -> Config:
        """The record's config, checked: every option of the rule set present (a record
        never relies on defaults, which may change), each value valid.

        Raises:
            BadDataError: a missing, unknown or invalid option.
        """
        names = [o.name for o in ruleset.config_schema.options]
        missing = [n for n in names if n not in self.config]
        if missing:
            raise BadDataError(
                self.source,
                f"a config naming every option of {ruleset.id}",
                found=f"no {', '.join(missing)}",
            )
        try:
            return ruleset.resolve_config(self.config)
        except RulesError as exc:
            raise BadDataError(self.source, f"a config for {ruleset.id}", found=str(exc)) from None

    def replay(self, ruleset: Ruleset | None = None) -> State:
        """Play the record again and return the final state (see :meth:`states`)."""
        *_, final = self.states(ruleset, clone=False)  # one live state, yielded repeatedly
        return final


@dataclass(frozen=True)
class Verdict:
    """What :func:`verify_record` found.

    Attributes:
        verified: every check passed.
        checks: one sentence per check, in order.
        problem: why it failed (``None`` when verified).
        actions: the record's number of actions.
        finished: whether the game is over.
    """

    verified: bool
    checks: tuple[str, ...]
    problem: str | None
    actions: int
    finished: bool


def verify_record(record: Record) -> Verdict:
    """Check that a game was played fairly from its secret: the seed matches the
    commitment every seat was shown, every action replays from it to its recorded digest
    (so every roll, draw and shuffle came from the seed), and the outcome is the recorded
    one. A format 1 record cannot be verified.

    Raises:
        BadDataError: the record's rule set is not installed, or
            (:class:`RecordVersionError`) it needs another version of it.
    """
    n, finished = len(record.actions), record.outcome is not None
    checks: list[str] = []

    def failed(problem: str) -> Verdict:
        return Verdict(False, tuple(checks), problem, n, finished)

    committed = record.commitment
    if committed is None or not record.verifiable:
        return failed(
            f"a format {record.version} record has no commitment and no digest chain: "
            "it replays, but it cannot be verified"
        )
    if record.seeded:
        checks.append(
            "the game was seeded: its seed was chosen, not secret, so whoever knew it could "
            "know every hidden fact"
        )
    if not matches(record.seed, committed):
        return failed(f"the seed does not match the commitment {committed}")
    checks.append(f"the seed matches the commitment {committed}")
    record.check_ruleset()  # another fogofwar is needed: the record cannot be judged here
    try:
        record.replay()
    except BadDataError as exc:
        return failed(str(exc))
    checks.append(
        f"all {n} actions replay from the seed to their recorded digests: every roll, draw "
        "and shuffle came from it"
    )
    if record.outcome is not None:
        checks.append(f"the outcome is the recorded one: {record.outcome.reason}")
    else:
        checks.append("the game is not over: it is verified as far as it was played")
    return Verdict(True, tuple(checks), None, n, finished)


class Recorder:
    """Play a game and keep its record.

    Every action goes through :meth:`apply`, which checks it and records it once it is
    legal (an illegal action raises and is not recorded), with its link of the digest
    chain. Acting on :attr:`state` directly bypasses the record.

    Without a ``seed`` the game gets a fresh secret (:func:`~fogofwar.core.secret.new_secret`)
    and is not *seeded*; :attr:`commitment` is what to show every seat at the start.

    Example:
        >>> rec = Recorder(ruleset, {"cells": 7}, seed=5)        # doctest: +SKIP
        >>> rec.apply(Action("hider", "bid", (1,)))               # doctest: +SKIP
        >>> rec.record().save("game.json")                        # doctest: +SKIP
    """

    def __init__(
        self,
        ruleset: Ruleset,
        config: Mapping[str, Any] | None = None,
        seed: int | str | None = None,
        *,
        meta: Mapping[str, JSON] | None = None,
    ) -> None:
        self.ruleset = ruleset
        self.config = ruleset.resolve_config(config)
        self.seeded = seed is not None
        # The umpire's secret, like the record itself.
        self._seed = check_seed(new_secret() if seed is None else seed)
        self.commitment = commitment(self._seed)
        self.state = ruleset.new_game(self.config, self._seed)
        self.meta: dict[str, JSON] = dict(meta or {})
        self._actions: list[Action] = []
        self._digests: list[str] = []
        self._chain = chain_start(ruleset, self.config, self.commitment, self.seeded, self.state)

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
        self._chain = chain_step(self._chain, action, events, self.state)
        self._digests.append(self._chain.hex()[:DIGEST_CHARS])
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
            digests=tuple(self._digests),
            seeded=self.seeded,
            commitment=self.commitment,
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
