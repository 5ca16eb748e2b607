"""The game protocol every rule set implements (docs/protocol.md; docs/architecture.md).

The pieces, smallest first:

* :class:`Action` — one step of play, always carrying the seat that takes it. A move of
  several squares is several ``step`` actions closed by ``stop``; text notation such as
  ``move N1 N2 M3`` is shorthand that :meth:`Ruleset.parse_actions` expands.
* :class:`Event` — something that happened, addressed to everyone (``to=None``) or to
  some seats only. Seats learn hidden facts only through events addressed to them.
* :class:`PlayerView` — what one seat (or a spectator, ``seat=None``) may know now, as
  JSON-ready data. Views are *built* from knowledge, never redacted from the full state.
* :class:`Outcome` — who won and why.
* :class:`ConfigSchema` / :class:`Option` / :class:`Config` — every option and ruling
  switch of a rule set, typed, with defaults and help.
* :class:`ActionEncoding` — a fixed discrete index per action kind and target, with a
  legal mask, for search and RL.
* :class:`Ruleset` and :class:`State` — the game itself.
* :func:`register` / :func:`get_ruleset` — the registry by id and alias.

Imports point downwards only: this module knows no game.
"""

from __future__ import annotations

import copy
import importlib
import json
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeAlias

import numpy as np
import numpy.typing as npt

from .errors import IllegalActionError, InvalidNotationError, MalformedActionError, RulesError
from .odds import OddsQuery
from .rng import Stream

__all__ = [
    "JSON",
    "Action",
    "ActionEncoding",
    "Config",
    "ConfigSchema",
    "DataFormat",
    "Event",
    "GameMetadata",
    "Option",
    "Outcome",
    "PlayerView",
    "Ruleset",
    "SightExplanation",
    "State",
    "canonical_json",
    "get_ruleset",
    "register",
    "registered_rulesets",
    "ruleset_ref",
]

JSON: TypeAlias = Any
"""A value made of dicts, lists, strings, ints, floats, bools and None."""

ArgValue: TypeAlias = int | str
"""Action arguments are ints and strings only, so actions hash, sort and encode."""


def canonical_json(value: JSON) -> str:
    """Serialise JSON data canonically (sorted keys, no spaces), for byte comparisons."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


# --------------------------------------------------------------------------- actions


@dataclass(frozen=True, slots=True, order=True)
class Action:
    """One action of one seat.

    Attributes:
        seat: the seat that takes the action (every action carries its seat).
        kind: what kind of action, e.g. ``"step"``, ``"stop"``, ``"choose"``, ``"pass"``.
        args: the action's arguments (ints and strings), e.g. ``("N2",)``.
    """

    seat: str
    kind: str
    args: tuple[ArgValue, ...] = ()

    def __post_init__(self) -> None:
        for a in self.args:
            if isinstance(a, bool) or not isinstance(a, int | str):
                raise TypeError(f"action arguments are ints or strings, got {a!r}")

    def __str__(self) -> str:
        return " ".join([self.kind, *(str(a) for a in self.args)])

    def to_json(self) -> dict[str, JSON]:
        """Return the JSON form ``{"seat": ..., "kind": ..., "args": [...]}``."""
        return {"seat": self.seat, "kind": self.kind, "args": list(self.args)}

    @classmethod
    def from_json(cls, data: JSON) -> Action:
        """Build an action from its JSON form (:class:`InvalidNotationError` if malformed)."""
        if not isinstance(data, Mapping):
            raise InvalidNotationError(str(data), "an action is an object with seat, kind, args")
        seat, kind, args = data.get("seat"), data.get("kind"), data.get("args", [])
        if not isinstance(seat, str) or not isinstance(kind, str) or not isinstance(args, list):
            raise InvalidNotationError(
                canonical_json(data), 'expected {"seat": str, "kind": str, "args": [...]}'
            )
        for a in args:
            if isinstance(a, bool) or not isinstance(a, int | str):
                raise InvalidNotationError(
                    canonical_json(data), f"action arguments are ints or strings, not {a!r}"
                )
        return cls(seat, kind, tuple(args))


# --------------------------------------------------------------------------- events


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened in the game.

    Attributes:
        kind: e.g. ``"moved"``, ``"revealed"``, ``"rolled"``.
        data: JSON-ready details.
        to: the seats that learn of it; ``None`` means everyone, spectators included.
    """

    kind: str
    data: Mapping[str, JSON] = field(default_factory=dict)
    to: frozenset[str] | None = None

    def visible_to(self, seat: str | None) -> bool:
        """Whether ``seat`` (``None`` = spectator) receives this event."""
        return self.to is None or (seat is not None and seat in self.to)

    def to_json(self) -> dict[str, JSON]:
        """Return the JSON form (the audience is not part of what a seat receives)."""
        return {"kind": self.kind, **dict(self.data)}


# --------------------------------------------------------------------------- views & outcome


@dataclass(frozen=True, slots=True)
class PlayerView:
    """What one seat may know now, as JSON-ready data.

    A rule set builds ``data`` from the public projection of the state plus what was
    addressed to this seat; it never copies the whole state and deletes fields. Seeds,
    random-stream states and the record are never in a view.

    Attributes:
        ruleset: the rule set's id.
        seat: the seat this view belongs to, or ``None`` for a spectator.
        data: the view's content, documented per rule set.
    """

    ruleset: str
    seat: str | None
    data: Mapping[str, JSON]

    def to_json(self) -> dict[str, JSON]:
        """Return the JSON form."""
        return {"ruleset": self.ruleset, "seat": self.seat, "view": dict(self.data)}

    def canonical(self) -> str:
        """Canonical JSON text: two views are equal exactly when these strings are."""
        return canonical_json(self.to_json())


@dataclass(frozen=True, slots=True)
class Outcome:
    """The end of a game.

    Attributes:
        winners: the seats that won (empty for a draw or a game nobody won).
        sides: the sides that won (a side is a team of seats, see
            :attr:`GameMetadata.sides`); a seat may change side during a game (a traitor),
            so the rule set states the winning sides itself.
        reason: a sentence for people.
        rule: the rule ID that ended the game, if any.
    """

    winners: frozenset[str]
    sides: frozenset[str]
    reason: str
    rule: str | None = None

    @property
    def is_draw(self) -> bool:
        """True when nobody won."""
        return not self.sides

    def to_json(self) -> dict[str, JSON]:
        """Return the JSON form."""
        return {
            "winners": sorted(self.winners),
            "sides": sorted(self.sides),
            "reason": self.reason,
            "rule": self.rule,
        }


# --------------------------------------------------------------------------- config


_TYPE_NAMES: dict[type, str] = {bool: "bool", int: "int", float: "float", str: "str"}


@dataclass(frozen=True, slots=True)
class Option:
    """One typed option or ruling switch of a rule set.

    Attributes:
        name: the key used with ``--set name=value``.
        type: ``bool``, ``int``, ``float`` or ``str``.
        default: the default (for a ruling switch: the ruling).
        help: a sentence for people.
        choices: the allowed values, if restricted.
        minimum: the least allowed value (numbers).
        maximum: the greatest allowed value (numbers).
        rule: the rule ID the option belongs to, if any.
    """

    name: str
    type: type
    default: Any
    help: str
    choices: tuple[Any, ...] | None = None
    minimum: float | None = None
    maximum: float | None = None
    rule: str | None = None

    def __post_init__(self) -> None:
        if self.type not in _TYPE_NAMES:
            raise TypeError(f"option {self.name}: type must be bool, int, float or str")
        # The default must itself pass validation; a schema bug should fail loudly.
        self.validate(self.default)

    def validate(self, value: Any) -> Any:
        """Return ``value`` checked (and ints widened to float where declared).

        Raises:
            RulesError: the value has the wrong type or is out of range.
        """
        t = self.type
        if t is float and isinstance(value, int) and not isinstance(value, bool):
            value = float(value)
        ok = isinstance(value, t) and (t is bool or not isinstance(value, bool))
        if not ok:
            raise RulesError(f"option {self.name}: expected {_TYPE_NAMES[t]}, got {value!r}")
        if self.choices is not None and value not in self.choices:
            allowed = ", ".join(str(c) for c in self.choices)
            raise RulesError(f"option {self.name}: {value!r} is not one of {allowed}")
        if self.minimum is not None and value < self.minimum:
            raise RulesError(f"option {self.name}: {value!r} is below {self.minimum}")
        if self.maximum is not None and value > self.maximum:
            raise RulesError(f"option {self.name}: {value!r} is above {self.maximum}")
        return value

    def parse(self, text: str) -> Any:
        """Parse the text of ``--set name=text`` and validate it."""
        t = self.type
        value: Any
        if t is bool:
            low = text.strip().lower()
            if low in {"1", "true", "yes", "on"}:
                value = True
            elif low in {"0", "false", "no", "off"}:
                value = False
            else:
                raise RulesError(f"option {self.name}: expected true/false, got {text!r}")
        elif t is int:
            try:
                value = int(text)
            except ValueError:
                raise RulesError(f"option {self.name}: expected an integer, got {text!r}") from None
        elif t is float:
            try:
                value = float(text)
            except ValueError:
                raise RulesError(f"option {self.name}: expected a number, got {text!r}") from None
        else:
            value = text
        return self.validate(value)

    def to_json(self) -> dict[str, JSON]:
        """Return the JSON form (for the lobby and ``--help`` listings)."""
        return {
            "name": self.name,
            "type": _TYPE_NAMES[self.type],
            "default": self.default,
            "help": self.help,
            "choices": list(self.choices) if self.choices is not None else None,
            "minimum": self.minimum,
            "maximum": self.maximum,
            "rule": self.rule,
        }


class Config(Mapping[str, Any]):
    """An immutable, fully resolved configuration: every option of the schema, validated."""

    __slots__ = ("_values",)

    def __init__(self, values: Mapping[str, Any]) -> None:
        self._values = dict(values)

    def __getitem__(self, key: str) -> Any:
        return self._values[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def __hash__(self) -> int:
        return hash(canonical_json(self._values))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Mapping) and dict(self._values) == dict(other)

    def __repr__(self) -> str:
        return f"Config({self._values!r})"

    def to_json(self) -> dict[str, JSON]:
        """Return the JSON form."""
        return dict(self._values)


@dataclass(frozen=True, slots=True)
class ConfigSchema:
    """Every option of a rule set, in a fixed order."""

    options: tuple[Option, ...] = ()

    def __post_init__(self) -> None:
        names = [o.name for o in self.options]
        if len(set(names)) != len(names):
            raise TypeError(f"duplicate option names in {names}")

    def option(self, name: str) -> Option:
        """Return the option called ``name`` (:class:`RulesError` naming the known ones)."""
        for o in self.options:
            if o.name == name:
                return o
        known = ", ".join(o.name for o in self.options) or "none"
        raise RulesError(f"unknown option {name!r} (options: {known})")

    def defaults(self) -> Config:
        """Return the configuration with every option at its default."""
        return Config({o.name: o.default for o in self.options})

    def resolve(self, overrides: Mapping[str, Any] | None = None) -> Config:
        """Return the defaults with ``overrides`` applied and validated."""
        values = {o.name: o.default for o in self.options}
        for name, value in (overrides or {}).items():
            values[name] = self.option(name).validate(value)
        return Config(values)

    def parse_sets(self, assignments: Iterable[str]) -> dict[str, Any]:
        """Parse ``key=value`` strings (as given to ``--set``) into typed overrides."""
        out: dict[str, Any] = {}
        for text in assignments:
            name, sep, raw = text.partition("=")
            if not sep or not name.strip():
                raise RulesError(f"expected key=value, got {text!r}")
            out[name.strip()] = self.option(name.strip()).parse(raw.strip())
        return out

    def to_json(self) -> list[dict[str, JSON]]:
        """Return the JSON form."""
        return [o.to_json() for o in self.options]


# --------------------------------------------------------------------------- metadata


@dataclass(frozen=True, slots=True)
class GameMetadata:
    """Facts about a game, in the style of OpenSpiel's ``GameType``.

    Attributes:
        name: the game's name for people.
        seats: every seat name the game can have, in turn order where that applies.
        sides: each seat's starting side (team). A side wins or loses as one.
        min_players: fewest players.
        max_players: most players.
        information: ``"perfect"`` or ``"imperfect"``.
        chance: ``"deterministic"``, ``"explicit"`` (rolls and shuffles at chance points).
        simultaneous: whether seats ever act at once (secret simultaneous choices).
        max_length: an upper bound on the number of actions in a game (for runners).
        description: a paragraph for people.
    """

    name: str
    seats: tuple[str, ...]
    sides: Mapping[str, str]
    min_players: int
    max_players: int
    information: str = "imperfect"
    chance: str = "explicit"
    simultaneous: bool = False
    max_length: int = 10_000
    description: str = ""

    def to_json(self) -> dict[str, JSON]:
        """Return the JSON form."""
        return {
            "name": self.name,
            "seats": list(self.seats),
            "sides": dict(self.sides),
            "min_players": self.min_players,
            "max_players": self.max_players,
            "information": self.information,
            "chance": self.chance,
            "simultaneous": self.simultaneous,
            "max_length": self.max_length,
            "description": self.description,
        }


# --------------------------------------------------------------------------- encoding


class ActionEncoding:
    """A fixed discrete index for every (kind, args) an action can have.

    The index does not include the seat: an RL agent or a search asks for the mask of
    the seat it plays. Built from the full, ordered list of templates a rule set can ever
    produce for a configuration, so the size is fixed for that configuration.
    """

    __slots__ = ("_index", "_templates")

    def __init__(self, templates: Iterable[tuple[str, tuple[ArgValue, ...]]]) -> None:
        self._templates: tuple[tuple[str, tuple[ArgValue, ...]], ...] = tuple(templates)
        self._index: dict[tuple[str, tuple[ArgValue, ...]], int] = {}
        for i, t in enumerate(self._templates):
            if t in self._index:
                raise TypeError(f"duplicate action template {t!r}")
            self._index[t] = i

    @property
    def size(self) -> int:
        """The number of indices."""
        return len(self._templates)

    def has(self, action: Action) -> bool:
        """Whether the action's kind and arguments have an index."""
        return (action.kind, action.args) in self._index

    def kinds(self) -> frozenset[str]:
        """Every action kind of the encoding."""
        return frozenset(kind for kind, _ in self._templates)

    def forms(self, kind: str) -> list[tuple[ArgValue, ...]]:
        """The argument tuples of ``kind``, in index order."""
        return [args for k, args in self._templates if k == kind]

    def encode(self, action: Action) -> int:
        """Return the index of an action (:class:`RulesError` if it has none)."""
        try:
            return self._index[(action.kind, action.args)]
        except KeyError:
            raise RulesError(f"action {action} has no index in this encoding") from None

    def decode(self, index: int, seat: str) -> Action:
        """Return the action with this index, taken by ``seat``."""
        if not 0 <= index < len(self._templates):
            raise RulesError(f"action index {index} out of range 0..{len(self._templates) - 1}")
        kind, args = self._templates[index]
        return Action(seat, kind, args)

    def mask(self, actions: Iterable[Action]) -> npt.NDArray[np.bool_]:
        """Return a boolean mask with True at the index of every given action."""
        m = np.zeros(len(self._templates), dtype=np.bool_)
        for a in actions:
            m[self.encode(a)] = True
        return m

    def legal_mask(self, state: State, seat: str) -> npt.NDArray[np.bool_]:
        """Return the legal-action mask of ``seat`` in ``state``."""
        return self.mask(state.legal_actions(seat))


# --------------------------------------------------------------------------- data files


@dataclass(frozen=True, slots=True)
class DataFormat:
    """A kind of data file a rule set reads (boards, cards, missions), for tools that
    check every format at once: the file fuzzer (``bench/fuzz.py``), validators.

    Attributes:
        name: what the files are, for people ("a Zero Dark mission file").
        samples: shipped examples, file name -> text.
        load: parse one file's text (``load(text, file_name)``), raising
            :class:`~fogofwar.core.errors.BadDataError` naming the file and line when it
            does not validate.
    """

    name: str
    samples: Mapping[str, str]
    load: Callable[[str, str], object]


# --------------------------------------------------------------------------- explainer


@dataclass(frozen=True, slots=True)
class SightExplanation:
    """What a rule set's sight explainer found (see :meth:`Ruleset.explain_sight`).

    Attributes:
        report: the sight report (a :class:`~fogofwar.core.sight.SightReport`).
        facts: further JSON-ready answers (range, engagement, the two models...).
        marks: square -> text of at most 3 characters, to draw the pieces on the board.
    """

    report: Any
    facts: Mapping[str, JSON]
    marks: Mapping[Any, str]


# --------------------------------------------------------------------------- ruleset & state


class Ruleset(ABC):
    """A rule set: metadata, options, and a factory of games.

    Subclasses set the class attributes and implement :meth:`new_game`; they register
    an instance with :func:`register`.
    """

    id: ClassVar[str]
    aliases: ClassVar[tuple[str, ...]] = ()
    version: ClassVar[str] = "0.1.0"
    metadata: ClassVar[GameMetadata]
    config_schema: ClassVar[ConfigSchema] = ConfigSchema()
    #: The bot a seat gets when a person asks for "a bot" without naming one (``play``),
    #: by seat; seats not listed get ``random``.
    default_bots: ClassVar[Mapping[str, str]] = {}
    notation_help: ClassVar[str] = "  kind arg arg ...   an action's kind, then its arguments"
    """A few lines on the rule set's text notation, for ``play``'s ``help``."""

    def resolve_config(self, config: Mapping[str, Any] | None = None) -> Config:
        """Return ``config`` completed with defaults and validated against the schema."""
        names = {o.name for o in self.config_schema.options}
        if isinstance(config, Config) and set(config) == names:
            return config
        return self.config_schema.resolve(config)

    def seats(self, config: Mapping[str, Any] | None = None) -> tuple[str, ...]:
        """Return the seats of a game with this configuration (default: all seats)."""
        return self.metadata.seats

    @abstractmethod
    def new_game(self, config: Mapping[str, Any] | None = None, seed: int | str = 0) -> State:
        """Return the initial state of a game.

        All randomness of the game comes from keyed streams under ``seed``.
        """

    #: What each action kind takes, for refusals of malformed actions: kind -> (a phrase
    #: such as ``"one square of the board, e.g. step K17"``, the rule that defines it).
    #: Kinds not listed are described from the action encoding's templates.
    action_forms: ClassVar[Mapping[str, tuple[str, str | None]]] = {}
    #: The rule that defines each action kind, for kinds :attr:`action_forms` does not
    #: describe: a malformed action is refused under it.
    action_rules: ClassVar[Mapping[str, str]] = {}

    def encoding(self, config: Mapping[str, Any] | None = None) -> ActionEncoding:
        """Return the action encoding for a configuration."""
        raise NotImplementedError(f"{self.id} has no action encoding")

    def cached_encoding(self, config: Config) -> ActionEncoding | None:
        """The action encoding of ``config``, built once per configuration (``None`` when
        the rule set has none)."""
        cache: dict[str, ActionEncoding | None] = self.__dict__.setdefault("_encodings", {})
        key = canonical_json(config.to_json())
        if key not in cache:
            try:
                cache[key] = self.encoding(config)
            except NotImplementedError:
                cache[key] = None
        return cache[key]

    def malformed(self, action: Action, config: Config) -> tuple[str, str | None] | None:
        """Why ``action`` can never be legal in a game of ``config`` — an unknown seat or
        kind, or the wrong number of arguments — as ``(reason, rule)``; ``None`` when its
        shape is one the game knows (which says nothing about whether it is legal now).

        The shapes are the action encoding's templates: every action a game of this
        configuration can ever offer has an index there. The rule is the one that defines
        the action kind (:attr:`action_forms`).
        """
        seats = self.seats(config)
        if action.seat not in seats:
            return f"there is no seat {action.seat!r} (seats: {', '.join(seats)})", None
        encoding = self.cached_encoding(config)
        if encoding is None or encoding.has(action):
            return None
        forms = encoding.forms(action.kind)
        if not forms:
            kinds = ", ".join(sorted(encoding.kinds()))
            return f"{self.metadata.name} has no action {action.kind!r} (actions: {kinds})", None
        if any(len(f) == len(action.args) for f in forms):
            return None  # the arguments' values: see unknown_argument
        return self._what_it_takes(action, _describe_forms(action, forms), detail=False)

    def unknown_argument(self, action: Action, config: Config) -> tuple[str, str | None] | None:
        """Why an action of a known shape can never be legal: an argument that no action of
        its kind ever has (a square off the board, a card not in the game), as ``(reason,
        rule)``; ``None`` when the encoding has the action or the rule set has none."""
        encoding = self.cached_encoding(config)
        if encoding is None or encoding.has(action):
            return None
        forms = encoding.forms(action.kind)
        if not forms:
            return None
        return self._what_it_takes(action, _describe_forms(action, forms), detail=True)

    def _what_it_takes(
        self, action: Action, generic: str, *, detail: bool
    ) -> tuple[str, str | None]:
        """The rule set's description of the kind when it has one (with the generic
        ``detail`` of which argument is wrong), else the generic one from the encoding."""
        described = self.action_forms.get(action.kind)
        if described is None:
            return generic, self.action_rules.get(action.kind)
        more = f" ({generic})" if detail else ""
        return f"{action.kind} takes {described[0]}{more}", described[1]

    def metrics(self, state: State) -> dict[str, float]:
        """Return per-game figures for balance studies (called on finished games)."""
        return {}

    def data_formats(self) -> Sequence[DataFormat]:
        """The kinds of data file this rule set reads, with shipped samples."""
        return ()

    def odds_queries(self) -> Sequence[OddsQuery]:
        """The rolls whose exact odds this rule set gives (``fogofwar odds RULESET``)."""
        return ()

    def render(self, view: PlayerView, config: Mapping[str, Any]) -> object:
        """A terminal drawing of ``view`` for ``replay`` and ``play``: a rich renderable or
        text, built from the view alone. The default is the view's JSON."""
        return json.dumps(view.to_json(), indent=2, ensure_ascii=False, sort_keys=True)

    def parse_actions(self, text: str, seat: str, state: State) -> list[Action]:
        """Parse the text notation of one or more actions of ``seat``.

        The default form is ``kind arg arg ...``; integers are read as ints. Rule sets
        override this to expand shorthand (``move N1 N2 M3`` → steps and a stop).
        """
        words = text.split()
        if not words:
            raise InvalidNotationError(text, "expected an action")
        args: list[ArgValue] = []
        for w in words[1:]:
            args.append(int(w) if _is_int(w) else w)
        return [Action(seat, words[0], tuple(args))]

    def view(self, state: State, seat: str | None) -> PlayerView:
        """The observer: what ``seat`` (``None``: a spectator) may know of ``state`` now.

        The rule set builds views, not the state: the state holds the truth and never
        imports the view code (``State.view`` asks here). A rule set whose states build
        their own views (the older shape) overrides :meth:`State.view` instead.
        """
        raise NotImplementedError(f"{self.id} builds no views")

    def explain_illegal(self, state: State, action: Action) -> tuple[str, str | None]:
        """Why ``action`` (known to be illegal) is refused in ``state``: ``(reason, rule
        ID or None)``. The default is the protocol's answer
        (:meth:`State.protocol_refusal`); a rule set overrides it, or
        :meth:`State.explain_illegal`, to name its rules."""
        return state.protocol_refusal(action)

    def sample_world(self, view: PlayerView, stream: Stream) -> State:
        """Return a full state consistent with ``view`` (for search over hidden information)."""
        raise NotImplementedError(f"{self.id} cannot sample worlds")

    def explain_sight(
        self, board: Any, viewer: str, target: str, config: Mapping[str, Any]
    ) -> SightExplanation:
        """The umpire's sight explainer under this rule set (``fogofwar los --ruleset``):
        ``board`` is a :class:`~fogofwar.core.grid.Board` whose pieces the rule set reads;
        ``viewer`` and ``target`` name pieces or squares; ``config`` holds options."""
        raise NotImplementedError(f"{self.id} has no sight explainer")

    def explain_view_sight(
        self, view: PlayerView, config: Mapping[str, Any], viewer: str, target: str
    ) -> SightExplanation:
        """The sight explainer on a seat's view (``los`` in ``play``): built from what the
        seat knows, never from the game's hidden state."""
        raise NotImplementedError(f"{self.id} has no sight explainer")


def _describe_forms(action: Action, forms: Sequence[tuple[ArgValue, ...]]) -> str:
    """What ``action.kind`` takes, from its templates: with the right number of arguments,
    which argument is not one the game has (and what it could be); else the argument
    counts with an example of each (``"no arguments"``, ``"1 argument, e.g. 'step A1'"``)."""
    kind, args = action.kind, action.args
    same = [f for f in forms if len(f) == len(args)]
    if same:
        for i, arg in enumerate(args):
            values = list(dict.fromkeys(f[i] for f in same))
            if arg not in values:
                shown = ", ".join(str(v) for v in values[:8])
                more = f", … ({len(values)} in all)" if len(values) > 8 else ""
                return f"{kind}'s {_ordinal(i)} argument is one of {shown}{more}, not {arg!s}"
        return f"{kind}'s arguments are one of its listed combinations (legal lists them)"
    by_count: dict[int, tuple[ArgValue, ...]] = {}
    for example in forms:
        by_count.setdefault(len(example), example)
    parts = []
    for n, example in sorted(by_count.items()):
        if n == 0:
            parts.append("no arguments")
        else:
            shown = " ".join([kind, *(str(a) for a in example)])
            parts.append(f"{n} argument{'s' if n > 1 else ''}, e.g. {shown!r}")
    return f"{kind} takes {' or '.join(parts)}"


def _ordinal(i: int) -> str:
    return ("first", "second", "third", "fourth")[i] if i < 4 else f"number {i + 1}"


def _is_int(word: str) -> bool:
    # ASCII digits only: str.isdigit() also accepts '²' and '①', which int() refuses.
    body = word[1:] if word[:1] in "+-" else word
    return 0 < len(body) <= 30 and body.isascii() and body.isdigit()


class State(ABC):
    """The true state of one game; the umpire's secret.

    Rule sets implement :meth:`to_act`, :meth:`legal_actions`, :meth:`apply_unchecked`,
    :meth:`view`, :meth:`outcome` and :meth:`clone`; :meth:`apply` checks legality here,
    once for every rule set, and asks :meth:`explain_illegal` for the reason and rule.
    """

    ruleset: Ruleset
    config: Config

    @abstractmethod
    def to_act(self) -> frozenset[str]:
        """The seats that may act now (several for simultaneous secret choices; none when over)."""

    @abstractmethod
    def legal_actions(self, seat: str) -> Sequence[Action]:
        """The legal actions of ``seat`` now (empty when it may not act)."""

    @abstractmethod
    def apply_unchecked(self, action: Action) -> list[Event]:
        """Apply an action known to be legal; return the events it caused."""

    def view(self, seat: str | None) -> PlayerView:
        """What ``seat`` may know now (``None``: a spectator), built by the rule set's
        observer (:meth:`Ruleset.view`)."""
        return self.ruleset.view(self, seat)

    @abstractmethod
    def outcome(self) -> Outcome | None:
        """The result once the game is over, else ``None``."""

    def clone(self) -> State:
        """Return an independent copy (for search). Rule sets may override for speed."""
        # The rule set is shared by every game (registered once, may hold large tables):
        # copy the game, not the rule set.
        ruleset = getattr(self, "ruleset", None)
        memo: dict[int, Any] = {} if ruleset is None else {id(ruleset): ruleset}
        return copy.deepcopy(self, memo)

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.outcome() is not None

    def is_legal(self, action: Action) -> bool:
        """Whether ``action`` is legal now."""
        return action.seat in self.to_act() and action in self.legal_actions(action.seat)

    def explain_illegal(self, action: Action) -> tuple[str, str | None]:
        """Say why a (known illegal) action is illegal: ``(reason, rule ID or None)``.

        The default asks the rule set (:meth:`Ruleset.explain_illegal`); rule sets
        override one or the other to name the rule, and fall back to
        :meth:`protocol_refusal` for what they do not recognise.
        """
        return self.ruleset.explain_illegal(self, action)

    def protocol_refusal(self, action: Action) -> tuple[str, str | None]:
        """The protocol's reason for a refusal: the game is over (naming the rule that
        ended it), the seat may not act now, or the action is not among the legal kinds."""
        outcome = self.outcome()
        if outcome is not None:
            # The rule that ended the game is the one that forbids acting on.
            return f"the game is over ({outcome.reason})", outcome.rule
        if action.seat not in self.to_act():
            waiting = ", ".join(sorted(self.to_act()))
            return f"{action.seat} may not act now (waiting for {waiting})", None
        kinds = sorted({a.kind for a in self.legal_actions(action.seat)})
        return f"not a legal action now (legal kinds: {', '.join(kinds)})", None

    def apply(self, action: Action) -> list[Event]:
        """Apply ``action`` after checking it; an illegal action changes nothing.

        Raises:
            MalformedActionError: an action of a shape this game never has (an unknown
                seat or kind, wrong arguments), saying what the action takes.
            IllegalActionError: with the action, seat, reason and rule ID.
        """
        if not self.is_legal(action):
            raise self.refusal(action)
        return self.apply_unchecked(action)

    def refusal(self, action: Action) -> IllegalActionError:
        """The error that refuses ``action`` (known to be illegal now): malformed input
        first (it is wrong in every position), then the rule set's explanation."""
        rs = self.ruleset
        bad = rs.malformed(action, self.config)
        if bad is not None:
            return MalformedActionError(action, bad[0], seat=action.seat, rule=bad[1])
        reason, rule = self.explain_illegal(action)
        if rule is None and not self.is_over:
            # The rule set named no rule: an argument no game of this kind ever takes
            # (a square off the board) is malformed input, and says what the kind takes.
            unknown = rs.unknown_argument(action, self.config)
            if unknown is not None:
                named = any(str(a) in reason for a in action.args)
                return MalformedActionError(
                    action,
                    reason if named else unknown[0],
                    seat=action.seat,
                    rule=unknown[1],
                )
        return IllegalActionError(action, reason, seat=action.seat, rule=rule)


# --------------------------------------------------------------------------- registry


_REGISTRY: dict[str, Ruleset] = {}
_ALIASES: dict[str, str] = {}
_BUILTIN_MODULES: tuple[str, ...] = ("fogofwar.games",)


def register(ruleset: Ruleset) -> Ruleset:
    """Register a rule set under its id and aliases; returns it (usable as a decorator)."""
    for name in (ruleset.id, *ruleset.aliases):
        owner = _ALIASES.get(name)
        if owner is not None and owner != ruleset.id:
            raise TypeError(f"rule set name {name!r} already belongs to {owner!r}")
    _REGISTRY[ruleset.id] = ruleset
    for name in (ruleset.id, *ruleset.aliases):
        _ALIASES[name] = ruleset.id
    return ruleset


def _load_builtins() -> None:
    for mod in _BUILTIN_MODULES:
        importlib.import_module(mod)


def registered_rulesets() -> dict[str, Ruleset]:
    """Every registered rule set by id (built-in ones are loaded first)."""
    _load_builtins()
    return dict(_REGISTRY)


def get_ruleset(name: str) -> Ruleset:
    """Return a rule set by id, alias, or ``package.module:attribute`` reference.

    The ``module:attribute`` form loads a rule set that is not built in (a plug-in, or
    a test's example game); the attribute may be a :class:`Ruleset` instance or class.

    Raises:
        RulesError: no such rule set (the message lists the known ones).
    """
    _load_builtins()
    if name in _ALIASES:
        return _REGISTRY[_ALIASES[name]]
    if ":" in name:
        module_name, _, attr = name.partition(":")
        try:
            obj: object = getattr(importlib.import_module(module_name), attr)
        except (ImportError, AttributeError) as exc:
            raise RulesError(f"cannot load rule set {name!r}: {exc}") from None
        if isinstance(obj, type) and issubclass(obj, Ruleset):
            obj = obj()
        if not isinstance(obj, Ruleset):
            raise RulesError(f"{name!r} is not a rule set")
        if obj.id not in _REGISTRY:
            register(obj)
        return _REGISTRY[obj.id]
    known = ", ".join(sorted(_REGISTRY)) or "none yet"
    raise RulesError(f"unknown rule set {name!r} (known: {known})")


def ruleset_ref(ruleset: Ruleset) -> str:
    """A name that :func:`get_ruleset` resolves in another process (for workers)."""
    if _ALIASES.get(ruleset.id) == ruleset.id and _is_builtin(ruleset):
        return ruleset.id
    cls = type(ruleset)
    return f"{cls.__module__}:{cls.__name__}"


def _is_builtin(ruleset: Ruleset) -> bool:
    return any(type(ruleset).__module__.startswith(m) for m in _BUILTIN_MODULES)
