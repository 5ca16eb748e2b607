"""The bot interface and the registry of bots by name.

A bot plays one seat. It receives exactly what a player at that seat would: the seat's
:class:`~fogofwar.core.game.PlayerView`, the seat's legal actions, and its own random
:class:`~fogofwar.core.rng.Stream` — never the state, the game's seed or the record. The
runner derives a bot's stream one-way from the batch seed, so a bot cannot recover the
game's seed from it either.

Bots are made by name through a registry, so a batch runner in another process can make
the same bots from the same names::

    register_bot("random", RandomBot)                       # any rule set
    register_bot("so-hunter", HunterBot, rulesets={"specter-ops"})
    bot = make_bot("random", "specter-ops")

A name may also be a ``package.module:attribute`` reference to a :class:`Bot` subclass or
a factory (for plug-ins and tests), which a worker process imports by itself.
"""

from __future__ import annotations

import importlib
import inspect
import math
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from fogofwar.core.errors import RulesError
from fogofwar.core.game import Action, Config, PlayerView
from fogofwar.core.rng import Stream

__all__ = [
    "Bot",
    "BotFactory",
    "BotSpec",
    "available_bots",
    "bot_spec",
    "make_bot",
    "register_bot",
]


class Bot(ABC):
    """A player program for one seat.

    Subclasses set :attr:`name` and implement :meth:`choose`. A bot may keep memory
    between calls (what it has seen so far); :meth:`reset` starts a new game.
    """

    name: str = "bot"

    def reset(self, seat: str, ruleset_id: str, config: Config) -> None:  # noqa: B027
        """Start a new game as ``seat`` of rule set ``ruleset_id`` with ``config``.

        The configuration is public (every player knows the options). The default does
        nothing; a bot with memory clears it here.
        """

    @abstractmethod
    def choose(self, view: PlayerView, legal: Sequence[Action], stream: Stream) -> Action:
        """Return one of ``legal``.

        Args:
            view: what this bot's seat may know now.
            legal: the seat's legal actions now (never empty).
            stream: this bot's own random stream for the game.
        """

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"


BotFactory = Callable[..., Bot]
"""Makes a fresh bot; a bot with parameters takes them as keywords
(``so-hunter:aggression=0.8`` calls ``HunterBot(aggression=0.8)``)."""
"""Makes a fresh bot (a :class:`Bot` subclass itself is a factory)."""


@dataclass(frozen=True, slots=True)
class BotSpec:
    """A registered bot.

    Attributes:
        name: the name used with ``--seat SEAT=NAME``.
        factory: makes a fresh bot.
        rulesets: the rule set ids it plays, or ``None`` for any.
        help: a sentence for people.
        accepts: instead of ``rulesets``, a test of a rule set id (``ismcts`` plays the
            rule sets that sample worlds, plug-ins included).
        seats: the seats it plays, as a test of the seat's name and a phrase for
            people (``so-agent`` plays the agent only); ``None`` for any seat.
    """

    name: str
    factory: BotFactory
    rulesets: frozenset[str] | None = None
    help: str = ""
    accepts: Callable[[str], bool] | None = None
    seats: tuple[Callable[[str], bool], str] | None = None

    def plays_seat(self, seat: str) -> bool:
        """Whether this bot plays ``seat`` (of a rule set it plays)."""
        return self.seats is None or self.seats[0](seat)

    def plays(self, ruleset_id: str) -> bool:
        """Whether this bot plays ``ruleset_id``."""
        if self.accepts is not None:
            return self.accepts(ruleset_id)
        return self.rulesets is None or ruleset_id in self.rulesets

    def parameters(self) -> list[str]:
        """The parameters its factory takes (``NAME:KEY=VALUE``): the keyword-only ones."""
        try:
            values = inspect.signature(self.factory).parameters.values()
        except (TypeError, ValueError):  # pragma: no cover - a C callable
            return []
        return [p.name for p in values if p.kind is inspect.Parameter.KEYWORD_ONLY]


_BOTS: dict[str, BotSpec] = {}


def register_bot(
    name: str,
    factory: BotFactory,
    *,
    rulesets: Iterable[str] | None = None,
    help: str = "",
    accepts: Callable[[str], bool] | None = None,
    seats: tuple[Callable[[str], bool], str] | None = None,
) -> BotSpec:
    """Register a bot factory under ``name``, optionally for some rule sets only
    (``rulesets``, or a test of the rule set's id, ``accepts``) and some seats only
    (``seats``: a test of the seat's name and a phrase saying which, e.g.
    ``(lambda s: s == "agent", "the agent")``).

    Registering the same name again replaces the entry (a module imported twice).
    """
    if not name or ":" in name or "=" in name or name != name.strip():
        raise TypeError(f"bad bot name {name!r} (no ':', '=' or surrounding spaces)")
    spec = BotSpec(
        name, factory, None if rulesets is None else frozenset(rulesets), help, accepts, seats
    )
    _BOTS[name] = spec
    return spec


def available_bots(ruleset_id: str | None = None) -> list[str]:
    """The names of the registered bots (for ``ruleset_id`` only, if given), sorted."""
    # A copy: asking a bot whether it plays a rule set may load the built-in rule sets,
    # whose bots register themselves meanwhile.
    return sorted(n for n, s in list(_BOTS.items()) if ruleset_id is None or s.plays(ruleset_id))


def bot_spec(name: str, ruleset_id: str) -> BotSpec:
    """Return the registered bot ``name`` for rule set ``ruleset_id``.

    ``name`` may be a ``module:attribute`` reference, which is imported.

    Raises:
        RulesError: no such bot, or it does not play that rule set (the message lists
            the bots that do).
    """
    name, _ = split_params(name)
    if ":" in name:
        base = name.partition(":")[0]
        if base in _BOTS:
            # ``so-hunter:aggression``: a registered bot's parameter without its value,
            # not a module reference.
            raise RulesError(
                f"bot {name!r}: a bot's parameters are KEY=VALUE after the colon "
                f"({base}:NAME=VALUE[,NAME=VALUE...])"
            )
        return _load_ref(name)
    spec = _BOTS.get(name)
    known = ", ".join(available_bots(ruleset_id)) or "none"
    if spec is None:
        raise RulesError(f"unknown bot {name!r} for {ruleset_id} (bots: {known})")
    if not spec.plays(ruleset_id):
        if spec.accepts is not None or not spec.rulesets:
            raise RulesError(
                f"bot {name!r} does not play {ruleset_id}"
                + (f": {spec.help}" if spec.help else "")
                + f" (bots: {known})"
            )
        plays = ", ".join(sorted(spec.rulesets))
        raise RulesError(f"bot {name!r} plays only {plays}, not {ruleset_id} (bots: {known})")
    return spec


def split_params(name: str) -> tuple[str, dict[str, int | float | str]]:
    """``"so-hunter:aggression=0.8,sensor=0"`` -> ``("so-hunter", {...})``: a bot's name
    and its parameters (numbers where they read as numbers). A ``module:attribute``
    reference has no ``=`` after its colon, so it stays a name."""
    base, sep, rest = name.partition(":")
    if not sep or "=" not in rest:
        return name, {}
    params: dict[str, int | float | str] = {}
    for item in rest.split(","):
        key, eq, text = item.partition("=")
        if not eq or not key.strip() or not text.strip():
            raise RulesError(f"bot {name!r}: expected NAME:KEY=VALUE[,KEY=VALUE...]")
        value: int | float | str = text.strip()
        for kind in (int, float):
            try:
                value = kind(text)
                break
            except ValueError:
                continue
        if isinstance(value, float) and not math.isfinite(value):
            # nan passes every "x < 0" check and then misleads a search for good.
            raise RulesError(f"bot {name!r}: {key.strip()}={text.strip()} is not a finite number")
        if key.strip() in params:
            raise RulesError(f"bot {name!r}: {key.strip()} is given twice; give it once")
        params[key.strip()] = value
    return base, params


def make_bot(name: str, ruleset_id: str, seat: str | None = None) -> Bot:
    """Make a fresh bot by name for rule set ``ruleset_id`` (see :func:`bot_spec`) and,
    when given, ``seat``; a name may carry parameters, ``so-hunter:aggression=0.8``
    (:func:`split_params`).

    Raises:
        RulesError: an unknown bot, one that does not play ``seat`` (naming the seats it
            plays), or a parameter it does not take or a bad value (naming the
            parameters it takes).
    """
    base, params = split_params(name)
    spec = bot_spec(base, ruleset_id)
    if seat is not None and not spec.plays_seat(seat):
        assert spec.seats is not None
        others = [n for n in available_bots(ruleset_id) if _BOTS[n].plays_seat(seat)]
        raise RulesError(
            f"bot {base!r} plays {spec.seats[1]}, not {seat} "
            f"(bots for {seat}: {', '.join(others) or 'none'})"
        )
    factory = spec.factory
    if params:
        accepted = spec.parameters()
        unknown = sorted(set(params) - set(accepted))
        if unknown:
            takes = ", ".join(accepted) or "no parameters"
            raise RulesError(
                f"bot {base!r} has no parameter {', '.join(unknown)} (it takes: {takes})"
            )
    bot = factory(**params)
    if not isinstance(bot, Bot):
        raise RulesError(f"bot {name!r} made a {type(bot).__name__}, not a Bot")
    return bot


def _load_ref(ref: str) -> BotSpec:
    module_name, _, attr = ref.partition(":")
    try:
        obj: object = getattr(importlib.import_module(module_name), attr)
    except (ImportError, AttributeError, ValueError) as exc:
        raise RulesError(f"cannot load bot {ref!r}: {exc}") from None
    if not callable(obj):
        raise RulesError(f"{ref!r} is not a bot class or factory")
    factory: BotFactory = obj  # checked by make_bot when it is called
    return BotSpec(ref, factory)
