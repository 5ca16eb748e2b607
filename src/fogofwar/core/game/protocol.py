"""The game itself: :class:`Ruleset` (metadata, options, a factory of games, the observer
and the explainer) and :class:`State` (the true state of one game, the umpire's secret)."""

from __future__ import annotations

import copyreg
import json
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Any, ClassVar, Protocol, Self, TypeVar

from ..errors import IllegalActionError, InvalidNotationError, MalformedActionError, RulesError
from ..odds import OddsQuery
from ..rng import Stream
from ..values import fresh_fields
from .actions import JSON, Action, ArgValue, Event, canonical_json, plain_event
from .config import Config, ConfigSchema
from .encoding import ActionEncoding
from .evaluation import Evaluation
from .metadata import DataFormat, GameMetadata
from .observation import HashedViewEncoder, ObservationEncoder
from .views import Outcome, PlayerView, Screen, SightExplanation

# --------------------------------------------------------------------------- ruleset & state


def _proxy(table: dict[Any, Any]) -> MappingProxyType[Any, Any]:
    return MappingProxyType(table)


def _reduce_proxy(proxy: MappingProxyType[Any, Any]) -> tuple[object, tuple[object, ...]]:
    return _proxy, (dict(proxy),)


# A read-only view of a dict is how boards, missions and states keep tables nobody may
# change, and Python cannot pickle (or deep-copy) one: a state or an RL environment
# could not be copied for lookahead or sent to another process. Pickled as a view of a
# copy of its dict, it comes back read-only as it was.
copyreg.pickle(MappingProxyType, _reduce_proxy)  # type: ignore[arg-type]


def _unregistered(ruleset: Ruleset) -> tuple[Any, ...] | None:
    return None


#: How a registered rule set pickles, or ``None`` (then as its object). The registry
#: (:mod:`.registry`, which imports this module) sets it when it is loaded.
_registered_reduce: Callable[[Ruleset], tuple[Any, ...] | None] = _unregistered


class Ruleset(ABC):
    """A rule set: metadata, options, and a factory of games.

    Subclasses set the class attributes and implement :meth:`new_game`; they register
    an instance with :func:`register`.

    A deep copy of a rule set is itself. A registered one pickles as the name another
    process loads it by (its id, or the ``module:attribute`` a plug-in was loaded by):
    it comes back as the registry's own instance, as the states that name it expect.
    Any other pickles as its object.
    """

    def __reduce__(self) -> str | tuple[Any, ...]:
        return _registered_reduce(self) or super().__reduce__()

    def __deepcopy__(self, memo: dict[int, object]) -> Self:
        """A rule set is not copied: its copy is itself, as a state's clone shares it."""
        return self

    id: ClassVar[str]
    aliases: ClassVar[tuple[str, ...]] = ()
    version: ClassVar[str] = "0.1.0"
    metadata: ClassVar[GameMetadata]
    config_schema: ClassVar[ConfigSchema] = ConfigSchema()
    #: The bot a seat gets when a person asks for "a bot" without naming one (``play``),
    #: by seat; seats not listed get ``random``.
    default_bots: ClassVar[Mapping[str, str]] = {}
    #: Kinds of action that only carry out a move step by step — a route's steps, a
    #: turn on the spot, the move's end — once the decision that starts it is taken. A
    #: search bot may leave a decision whose legal actions are all of these kinds to the
    #: seat's heuristic (``ismcts``'s ``steps=heuristic``) and search the decisions that
    #: choose something; empty (the default): every decision is a choice.
    route_kinds: ClassVar[frozenset[str]] = frozenset()
    #: Extra ``ismcts`` parameters for some seats at ``play``'s searching levels (``normal``
    #: and ``hard``), by seat (``"root=paired"``): where a rule set has measured a way of
    #: searching that plays a seat better; seats not listed search with the level's own.
    level_search: ClassVar[Mapping[str, str]] = {}
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

    def umpire_sides(self, config: Mapping[str, Any] | None = None) -> tuple[str, ...]:
        """The sides with no seat that a game of ``config`` can end as the winner of,
        played by the umpire (Warfighter's hostiles, solo Zero Dark's Red Force): a
        batch's table lists them beside the seats' sides, a win rate of 0 included."""
        return ()

    def inert_options(self, config: Mapping[str, Any] | None = None) -> Mapping[str, str]:
        """The options that change nothing in a game of ``config``, option -> why
        (Specter Ops' ``traitor`` below 5 players): a study that compares two cells
        differing only in such an option says that they play the same game. Empty where
        every option counts."""
        return {}

    def side_notes(self, config: Mapping[str, Any] | None = None) -> Mapping[str, str]:
        """What a batch's table says after the seats of a side whose seats a game of
        ``config`` does not fix at the start, side -> a phrase (Specter Ops' traitor: the
        agent's ``"and the traitor, a hunter seat dealt in secret (SO-T6)"``). Empty where
        every seat keeps the side :attr:`GameMetadata.sides` gives it."""
        return {}

    def players_config(self, players: int, given: Mapping[str, Any]) -> dict[str, Any]:
        """The options that make a game of ``players`` players (``play --players N``),
        beside the options ``given`` (``--set``); where they name one the other way, the
        caller refuses the two.

        The default sets the ``players`` option where the rule set has one; a rule set
        for a fixed number of players takes that number and sets nothing. A rule set
        whose seats follow another option (Zero Dark's ``mode``) says so here.

        Raises:
            RulesError: a number of players the rule set is not played by.
        """
        self.check_player_count(players)
        meta = self.metadata
        if any(o.name == "players" for o in self.config_schema.options):
            return {"players": players}
        if meta.min_players == meta.max_players:
            return {}
        raise RulesError(  # a rule set of several counts must say which options give them
            f"--players: {self.id} has no option for the number of players "
            f"(fogofwar rulesets lists its options)"
        )

    def check_player_count(self, players: int) -> None:
        """Refuse a number of players the metadata's range leaves out.

        Raises:
            RulesError: naming the range.
        """
        low, high = self.metadata.min_players, self.metadata.max_players
        if not low <= players <= high:
            count = f"{low} player{'s' * (low != 1)}" if low == high else f"{low}–{high} players"
            raise RulesError(f"--players {players}: {self.id} is played by {count}")

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

    def observation_encoder(self, config: Mapping[str, Any] | None = None) -> ObservationEncoder:
        """The encoder of a seat's view as a fixed-shape array under ``config`` (for
        learning, :mod:`fogofwar.rl`). The default hashes the view's fields
        (:class:`~.observation.HashedViewEncoder`); a rule set gives its own, which keeps
        its board's geometry or its cards."""
        return HashedViewEncoder()

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

    def yes_no_metrics(self, config: Mapping[str, Any] | None = None) -> frozenset[str] | None:
        """The metrics of a game of ``config`` that are 1 or 0 by their nature (won,
        escaped): a batch gives their mean a proportion's interval (Wilson's), and every
        other metric Student's t, whatever values the games gave. ``None``, the default
        for a rule set that does not say, reads it from the values: a metric that is 0
        or 1 in every game of the batch is taken for a proportion."""
        return None

    def data_formats(self) -> Sequence[DataFormat]:
        """The kinds of data file this rule set reads, with shipped samples."""
        return ()

    def odds_queries(self) -> Sequence[OddsQuery]:
        """The rolls whose exact odds this rule set gives (``fogofwar odds RULESET``)."""
        return ()

    def screen(self, view: PlayerView, config: Mapping[str, Any]) -> Screen:
        """The drawing of ``view`` split for the terminal (:class:`Screen`): a rule set
        with a board gives it apart, so that a small terminal shows a window of it
        around the seat's own figures. The default: no board, :meth:`render` as facts."""
        return Screen(board=None, facts=self.render(view, config))

    def describe_event(self, event: Mapping[str, Any]) -> str | None:
        """An event (its JSON form, as a seat receives it) as a sentence for people, for
        the terminal's log and the drawings; ``None`` leaves it out of a person's log.
        The default lists its fields (:func:`~fogofwar.core.game.plain_event`)."""
        return plain_event(event)

    def missions(self) -> Mapping[str, str]:
        """The missions it ships, by name (``--set mission=NAME``), each with a line for
        people (``fogofwar missions``); none by default."""
        return {}

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

    def board_json(self, config: Mapping[str, Any]) -> JSON:
        """The game's board for drawing it (the web table's SVG), as
        :func:`fogofwar.core.grid.board_json` gives it, or ``None`` for a game without
        one. Only what every seat may know: the board file, never a hidden piece."""
        return None

    def preview_kinds(self, config: Mapping[str, Any]) -> Mapping[str, frozenset[str]]:
        """The kinds of action a seat may *try* before it sends them (the web table's
        path entry: a click adds a step, and the page shows the steps legal after it),
        each with the kinds of event it causes while nothing is decided.

        A rule set names a kind here only if, as long as the tried actions cause only
        those events, the legal actions of these kinds that follow are decided by what
        the seat already knows (no die is rolled, nothing hidden is consulted). The
        first tried action that causes any other event ends the trial: that is where
        something gets decided (the end of a move, an answer), and the page learns only
        that the trial ends there, which it does in every world the seat's view allows.
        The test suite checks this for every rule set that names kinds. Default: none.
        """
        return {}

    def sight_json(self, config: Mapping[str, Any], view: PlayerView, square: str) -> JSON:
        """What the seat of ``view`` would see from ``square`` (the web table shows it
        when a square is hovered), computed from the board and ``view`` alone, so it
        tells the seat nothing it does not know; ``None`` for a game that offers no such
        sight (the default)."""
        return None

    def sample_world(self, view: PlayerView, stream: Stream) -> State:
        """Return a full state consistent with ``view`` (for search over hidden
        information): it gives the seat that very view and legal list, its unknowns drawn
        from ``stream``, under a new seed. Optional: :attr:`can_sample_worlds` says
        whether a rule set offers it."""
        raise NotImplementedError(f"{self.id} cannot sample worlds")

    def world_sampler(self, view: PlayerView) -> WorldSampler:
        """Return a sampler of worlds from ``view``: ``sampler(stream)`` is the world
        :meth:`sample_world` draws from ``view`` and ``stream``, and ``sampler(stream,
        views=False)`` that world made to skip what only views need (:meth:`State.
        skip_views`), for a search that reads no view of it.

        A search draws hundreds of worlds from one view: a rule set may override this to
        work out once what the view fixes (its table, what each unknown may be) and keep
        it for every draw. The default calls :meth:`sample_world` for each; the
        conformance suite plays an override's worlds beside :meth:`sample_world`'s
        (every seat's views and the same random actions; without views, to the end)."""
        return _EachAnew(self, view)

    def evaluation(self, config: Mapping[str, Any]) -> Evaluation | None:
        """The rule set's estimate of who wins a game not yet over, for search that cuts
        its rollouts short (:class:`~fogofwar.core.game.evaluation.Evaluation`), or
        ``None`` (the default): search then plays every rollout to the end."""
        return None

    @property
    def can_sample_worlds(self) -> bool:
        """Whether the rule set implements :meth:`sample_world` (search bots that sample
        hidden information need it; the conformance suite checks it wherever it is)."""
        return type(self).sample_world is not Ruleset.sample_world

    def board_marks(self, board: Any) -> Mapping[Any, str] | None:
        """How this rule set draws the pieces a board file places (``fogofwar board
        show``): every square a piece covers, with its mark (at most 3 characters), or
        ``None`` (the default) where the rule set does not read the board's pieces."""
        return None

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


class WorldSampler(Protocol):
    """Worlds drawn from one view (:meth:`Ruleset.world_sampler`)."""

    def __call__(self, stream: Stream, *, views: bool = True) -> State:
        """The world :meth:`Ruleset.sample_world` draws from the view and ``stream``;
        with ``views=False`` it skips what only views need (:meth:`State.skip_views`)."""
        ...  # pragma: no cover - a protocol


class KeptSampler:
    """A :class:`WorldSampler` over a rule set's ``sample(ruleset, view, stream, kept)``:
    the function draws one world, and ``kept`` (a list, empty before the first world)
    is where it keeps what the view fixes for the worlds after it (its table, say)."""

    __slots__ = ("_kept", "_ruleset", "_sample", "_view")

    def __init__(
        self,
        sample: Callable[[Ruleset, PlayerView, Stream, list[Any]], State],
        ruleset: Ruleset,
        view: PlayerView,
    ) -> None:
        self._sample = sample
        self._ruleset = ruleset
        self._view = view
        self._kept: list[Any] = []

    def __call__(self, stream: Stream, *, views: bool = True) -> State:
        world = self._sample(self._ruleset, self._view, stream, self._kept)
        if not views:
            world.skip_views()
        return world


S = TypeVar("S", bound="State")
X = TypeVar("X")


def kept_table(kept: list[Any] | None, lay: Callable[[], tuple[S, X]]) -> tuple[S, X]:
    """The table a :class:`KeptSampler`'s world starts from, and what the view says of
    its unknowns: a copy of the kept ones, else ``lay()``'s (kept, a copy, where ``kept``
    is a sampler's empty list). The caller gives the table the world's own seed."""
    if kept:
        table, said = kept
        return table.clone(), said
    table, said = lay()
    if kept is not None:
        kept[:] = [table.clone(), said]
    return table, said


class _EachAnew:
    """:meth:`Ruleset.world_sampler`'s default: :meth:`Ruleset.sample_world` for each
    world."""

    __slots__ = ("_ruleset", "_view")

    def __init__(self, ruleset: Ruleset, view: PlayerView) -> None:
        self._ruleset = ruleset
        self._view = view

    def __call__(self, stream: Stream, *, views: bool = True) -> State:
        world = self._ruleset.sample_world(self._view, stream)
        if not views:
            world.skip_views()
        return world


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

    def clone(self, *, search: bool = False) -> Self:
        """Return an independent copy (for search), derived from the fields: the mutable
        containers are copied and the values shared (:func:`fogofwar.core.values.
        fresh_fields`), the rule set among them. No rule set lists its fields by hand.

        Args:
            search: the copy skips what only views need (:meth:`skip_views`).
        """
        copy = fresh_fields(self)
        if search:
            copy.skip_views()
        return copy

    def __deepcopy__(self, memo: dict[int, object]) -> Self:
        """:func:`copy.deepcopy` is :meth:`clone`: an independent game that shares the
        immutable values (boards, tables, the rule set) rather than copying them."""
        copy = self.clone()
        memo[id(self)] = copy
        return copy

    def skip_views(self) -> None:
        """From now on, skip the work that only views need (a search's determinised
        world, whose views nobody reads): the legal actions, the rules' effects and the
        outcome stay exactly the same, while views may go stale (a rule set's knowledge
        bookkeeping, say). The default skips nothing; the conformance suite checks that
        a state that skips plays like one that does not."""
        return  # nothing to skip: a rule set with view-only work overrides this

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
