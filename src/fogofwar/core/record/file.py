"""A game record as a value: load, validate, save and replay it (the JSON form is in
the package documentation)."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from os import PathLike
from pathlib import Path

from ..errors import BadDataError, IllegalActionError, InvalidNotationError, RulesError
from ..files import RECORD_FILE_LIMIT, read_text
from ..game import JSON, Action, Config, Event, Outcome, Ruleset, State, get_ruleset
from ..rng import check_seed
from ..secret import commitment, matches
from .chain import DIGEST_CHARS, chain_start, chain_step
from .errors import RecordVersionError, ReplayError, TamperedRecordError
from .fields import (
    _FIELDS,
    _FIELDS_V1,
    _MAX_ACTIONS,
    _MAX_META_DEPTH,
    _MAX_TEXT,
    FORMAT,
    FORMAT_VERSION,
    _compact,
    _depth,
    _engine_version,
    _is_hex,
    _kind,
    _major,
    _short,
    outcome_from_json,
)

__all__ = ["Record"]


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
        for state, _ in self.steps(ruleset, clone=clone):
            yield state

    def steps(
        self, ruleset: Ruleset | None = None, *, clone: bool = True
    ) -> Iterator[tuple[State, list[Event]]]:
        """:meth:`states`, each with the events that led to it: none for the initial
        state, then each action's events (every seat's: filter them with
        :meth:`~fogofwar.core.game.Event.visible_to`). A stepped replay shows a seat what
        it was told at each action, a turn's end included, which the view's own list of
        this turn's events no longer holds once the next turn has begun.

        Raises:
            as :meth:`states`.
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
        yield (state.clone() if clone else state), []
        for i, action in enumerate(self.actions):
            try:
                events = state.apply(action)
            except IllegalActionError as exc:
                raise ReplayError(self.source, i, action, exc.reason, exc.rule) from exc
            if check:
                chain = chain_step(chain, action, events, state)
                if chain.hex()[:DIGEST_CHARS] != self.digests[i]:
                    raise TamperedRecordError.at_action(self.source, i, action, action.seat)
            yield (state.clone() if clone else state), events
        self.check_end(state)

    def check_end(self, state: State) -> None:
        """That ``state``, this record's actions played, ends as the record says: its
        outcome, or unfinished when the record has none.

        Raises:
            BadDataError: another outcome; or a finished game where the record has no
                outcome, which (removed) would pass for an unfinished game.
        """
        got = state.outcome()
        if got != self.outcome:
            raise BadDataError(
                self.source,
                "an unfinished game (the record has no outcome)"
                if self.outcome is None
                else f"the recorded outcome ({self.outcome.reason})",
                found="an unfinished game" if got is None else f"a finished game: {got.reason}",
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
