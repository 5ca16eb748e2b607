"""The web table's games, apart from the web: tables, seats and their links, what each
link may see and do, bots at seats, persistence and recovery.

The :class:`Hall` holds every live table in memory and the :class:`~.store.Store`
holds what rebuilds them. It reaches games only through the protocol (``Ruleset``,
``State``, the record), like the terminal and the runner, so every rule set and plug-in
gets a web table.

What a link receives is built from its seat's view alone (:meth:`Table.message`): the
view, the seat's legal actions, the events addressed to it (numbered per seat, so that
the count of hidden events is not given away), whose turn it is, the commitment to the
table's secret — and the secret only once the game is over. Nothing in a message names
the table, so two tables whose public facts agree send the same bytes to their
hunters.

Every method runs on one thread (the server's event loop): bots think in worker
threads, from a copy of their view and legal list, and their choice comes back to be
applied here like a human's.
"""

from __future__ import annotations

import functools
import hashlib
import io
import json
import secrets
import sys
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final

from rich.console import Console
from rich.text import Text

from ..bots import Bot, make_bot
from ..core.errors import IllegalActionError, InvalidNotationError, RulesError
from ..core.game import (
    JSON,
    Action,
    Config,
    Event,
    PlayerView,
    Ruleset,
    State,
    canonical_json,
    decides,
    get_ruleset,
    partly_played,
    try_actions,
)
from ..core.record import Recorder, verify_record
from ..core.rng import Stream, stream
from ..core.rules import TableState
from ..core.secret import new_secret
from .guard import Guard
from .store import Store, StoredTable

__all__ = [
    "HUMAN",
    "MAX_MESSAGE",
    "BotTurn",
    "Clock",
    "Forbidden",
    "Hall",
    "Misdirected",
    "NotFound",
    "Refused",
    "Stale",
    "Table",
    "owner_of",
    "preview_actions",
]

#: A seat played by a person (any other seat kind names a bot).
HUMAN: Final = "human"
#: The largest message a client may send (the API's bodies and the websocket's frames).
MAX_MESSAGE: Final = 64 * 1024

#: The table options a creator may give (each checked; any other key is refused, so
#: that nothing unchecked is stored with a table).
_TABLE_OPTIONS: Final = frozenset({"bot_pause", "clock", "clock_increment"})
#: The most actions one preview may try (a Specter Ops move has at most 6 steps).
_MAX_PREVIEW: Final = 16
#: Bits of a link token (``secrets.token_urlsafe``: 32 bytes, 256 bits).
_TOKEN_BYTES: Final = 32


class NotFound(LookupError):
    """No such table."""


class Forbidden(PermissionError):
    """A token that is no link of the table, or a link that may not do this."""


class Misdirected(LookupError):
    """A table that another worker of the server holds.

    Attributes:
        owner: the index of the worker that holds it.
    """

    def __init__(self, table_id: str, owner: int) -> None:
        super().__init__(f"table {table_id!r} is held by worker {owner}")
        self.owner = owner


def owner_of(table_id: str, workers: int) -> int:
    """The worker (0 to ``workers - 1``) that holds a table: fixed by its id, so every
    worker knows where any table lives."""
    digest = hashlib.sha256(table_id.encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big") % workers


class Stale(RuntimeError):
    """An action sent against a version of what its link shows that is no longer the
    current one (:meth:`Table.seat_version`).

    Attributes:
        version: the link's current version.
    """

    def __init__(self, sent: int, version: int) -> None:
        super().__init__(
            f"what this link shows has changed since version {sent} (now {version}): look "
            "at the new view and send the action again if it still stands"
        )
        self.version = version


class _Mismatch(RuntimeError):
    """A stored table whose seed does not match its commitment (it will not change)."""


class Refused(ValueError):
    """An action or notation the rules refuse; nothing changed, unless the reason says
    that the first actions of the input were played (:func:`~fogofwar.core.game.try_actions`).

    Attributes:
        reason: why.
        rule: the rule ID, if any.
    """

    def __init__(self, reason: str, rule: str | None) -> None:
        super().__init__(reason if rule is None else f"{reason} [{rule}]")
        self.reason = reason
        self.rule = rule


@dataclass(frozen=True, slots=True)
class BotTurn:
    """What a bot needs to choose, copied out of the table so that it can think in a
    worker thread: its view, its legal actions and its stream."""

    table: Table
    seat: str
    version: int
    bot: Bot
    view: Any
    legal: tuple[Action, ...]
    stream: Stream
    chosen_by: str | None = None

    @classmethod
    def at(cls, table: Table, seat: str, bot: Bot, chosen_by: str | None = None) -> BotTurn:
        """``bot``'s turn for ``seat`` now (``chosen_by``: ``"clock"`` when it plays for a
        seat out of time). Its stream is keyed by the version: a restarted server's bots
        draw as before."""
        state = table.recorder.state
        return cls(
            table,
            seat,
            table.version,
            bot,
            state.view(seat),
            tuple(state.legal_actions(seat)),
            stream(table.bot_root, chosen_by or "bot", seat, table.version),
            chosen_by,
        )

    def choose(self) -> Action:
        return self.bot.choose(self.view, self.legal, self.stream)


@dataclass(eq=False, slots=True)
class Clock:
    """A table's clocks: a time bank for each human seat, spent while the seat is to act
    (a seat among several to act spends its own), with an increment each time it has
    acted. A seat out of time has its turn played by its default bot.

    Attributes:
        bank: seconds each seat starts with.
        increment: seconds added to a seat's bank each time it has acted.
        left: each timed seat's seconds left as of ``since``.
        since: when ``left`` was last brought up to date (``time.time()``).
    """

    bank: float
    increment: float
    left: dict[str, float]
    since: float

    def running(self, to_act: Iterable[str]) -> list[str]:
        """The timed seats whose clocks run now."""
        return sorted(s for s in to_act if s in self.left)

    def charge(self, to_act: Iterable[str], now: float) -> None:
        """Spend the time since the last change from the clocks that ran."""
        spent = max(0.0, now - self.since)
        for seat in self.running(to_act):
            self.left[seat] = max(0.0, self.left[seat] - spent)
        self.since = now

    def remaining(self, seat: str, to_act: Iterable[str], now: float) -> float:
        """A timed seat's seconds left now."""
        running = seat in set(to_act)
        spent = max(0.0, now - self.since) if running else 0.0
        return max(0.0, self.left[seat] - spent)

    def to_json(self, to_act: Iterable[str], now: float) -> dict[str, JSON]:
        """The clocks as every link sees them (whose clock runs is public: it is whose
        turn it is)."""
        acting = set(to_act)
        return {
            seat: {
                "left": round(self.remaining(seat, acting, now), 3),
                "running": seat in acting,
            }
            for seat in sorted(self.left)
        }


@dataclass(frozen=True, slots=True)
class _Look:
    """What a link shows at one position (:meth:`Table._look`)."""

    version: int
    view: PlayerView
    legal: Sequence[Action]
    view_json: JSON
    legal_json: list[JSON]
    to_act: list[JSON]


@dataclass(eq=False)
class Table:
    """One live game at the web table.

    Attributes:
        id: the table's id (in its links).
        ruleset: the rule set.
        players: seat -> ``"human"`` or the bot's name.
        recorder: the game and its record (the umpire's secret: the seed is in it).
        created: when the table was created (ISO 8601, UTC).
        options: the table's options (``bot_pause`` in seconds).
        events: every event so far, with its audience.
        listeners: called after every change (the web layer pushes new views).
    """

    id: str
    ruleset: Ruleset
    players: dict[str, str]
    recorder: Recorder
    created: str
    options: dict[str, JSON]
    bot_root: int | str
    events: list[Event] = field(default_factory=list)
    bots: dict[str, Bot] = field(default_factory=dict)
    listeners: set[Callable[[Table], None]] = field(default_factory=set)
    clock: Clock | None = None
    #: The versions whose action a seat's default bot chose, the seat out of time.
    timed_out: set[int] = field(default_factory=set)
    #: The seats told they are out of time for good (a clock without an increment).
    told_out: set[str] = field(default_factory=set)
    clock_bots: dict[str, Bot] = field(default_factory=dict)
    _seat_events: dict[str | None, list[Event]] = field(default_factory=dict)
    _replay: tuple[int, Recorder, list[Event]] | None = None
    _verdict: dict[str, JSON] | None = None
    _board: list[JSON] | None = None
    _drawings: dict[str | None, tuple[int, str]] = field(default_factory=dict)
    #: What each link shows, worked out once a position (:meth:`_look`).
    _looks: dict[str | None, tuple[tuple[int, int], _Look]] = field(default_factory=dict)
    #: When the public facts (the spectators' view) last changed (``time.monotonic()``):
    #: a bot acts a pause after it (:meth:`Hall.pause_until`), not after a change that
    #: left them as they were (a hidden mover's step, a seat's private news).
    public_at: float = field(default_factory=time.monotonic)

    @property
    def board(self) -> JSON:
        """The game's board for drawing (``None`` for a game without one)."""
        if self._board is None:
            self._board = [_board_json(self.ruleset, self.recorder.config)]
        return self._board[0]

    @property
    def version(self) -> int:
        """How many actions have been accepted (the table's own count: no link is told
        it before the end, since it counts the hidden actions too)."""
        return len(self.recorder)

    def seat_version(self, seat: str | None) -> int:
        """The version of what ``seat``'s link (``None``: the spectator) shows: a number
        that changes when, and only when, something the link receives changes (its
        view, its legal actions, its events, whose turn it is, the outcome). It is made
        from those alone, so it tells the seat nothing more: an unseen agent's steps
        leave a hunter's version as it was, where a count of the table's actions would
        count them. The same position gives the same number, after a restart too."""
        return self._look(seat).version

    def _look(self, seat: str | None) -> _Look:
        """What ``seat``'s link shows now, worked out once a position."""
        at = (self.version, len(self.events))
        kept = self._looks.get(seat)
        if kept is not None and kept[0] == at:
            return kept[1]
        state = self.recorder.state
        view = state.view(seat)
        legal = state.legal_actions(seat) if seat is not None else []
        outcome = state.outcome()
        view_json = view.to_json()
        legal_json: list[JSON] = [a.to_json() for a in legal]
        to_act: list[JSON] = sorted(state.to_act())
        told = len(self.seat_events(seat))
        shown = canonical_json(
            [to_act, view_json, legal_json, told, None if outcome is None else outcome.to_json()]
        )
        # 48 bits: exact in a browser's numbers; a collision is 1 in 2**48 a change.
        digest = hashlib.blake2b(shown.encode("utf-8"), digest_size=6).digest()
        look = _Look(int.from_bytes(digest, "big"), view, legal, view_json, legal_json, to_act)
        self._looks[seat] = (at, look)
        return look

    @property
    def over(self) -> bool:
        return self.recorder.state.is_over

    def add_events(self, events: Iterable[Event]) -> None:
        """Add events (the game's and the table's own notices) in order."""
        for e in events:
            self.events.append(e)
            for seat, mine in self._seat_events.items():
                if e.visible_to(seat):
                    mine.append(e)

    def seat_events(self, seat: str | None) -> list[Event]:
        """The events addressed to ``seat`` (``None``: the public ones), in order."""
        mine = self._seat_events.get(seat)
        if mine is None:
            # Kept up to date from now on: a message is built after every change.
            mine = self._seat_events[seat] = [e for e in self.events if e.visible_to(seat)]
        return mine

    def message(self, seat: str | None, since: int = 0) -> dict[str, JSON]:
        """What the link of ``seat`` (``None``: the spectator) receives now: its view,
        its legal actions, its events from its ``since``-th on, and the table's public
        facts. See docs/server.md."""
        state = self.recorder.state
        look = self._look(seat)
        view, legal = look.view, look.legal
        mine = self.seat_events(seat)
        since = max(0, min(since, len(mine)))
        events = [e.to_json() for e in mine[since:]]
        outcome = state.outcome()
        out: dict[str, JSON] = {
            "ruleset": self.ruleset.id,
            "seat": seat,
            "players": dict(self.players),
            "version": look.version,
            "to_act": list(look.to_act),
            "view": look.view_json,
            "legal": list(look.legal_json),
            "notation": [str(a) for a in legal],
            # A game with a board is drawn by the page; the others as the terminal draws.
            "drawing": None if self.board is not None else self.drawing(seat, view),
            "events": events,
            "sentences": self.sentences(events),
            "next": len(mine),
            "seeded": self.recorder.seeded,
            "commitment": self.recorder.commitment,
            "over": outcome is not None,
            "outcome": None if outcome is None else outcome.to_json(),
            "clocks": None
            if self.clock is None
            else self.clock.to_json(() if outcome else state.to_act(), time.time()),
        }
        if outcome is not None:
            # After the end every secret may be shown: the seed, and whether the record
            # verifies against the commitment every seat saw at the start.
            record = self.recorder.record()
            out["secret"] = record.seed
            out["verified"] = self.verdict()
            out["actions"] = self.version  # the replay's length
        return out

    def replay(self, seat: str | None, at: int) -> dict[str, JSON]:
        """The finished game as it stood after ``at`` actions, as ``seat`` (``None``: a
        spectator) saw it then: its view, the action that led there and the events it
        caused for that seat. Stepping on by one replays one action.

        Raises:
            Forbidden: the game is not over (a replay shows every secret).
        """
        if not self.over:
            raise Forbidden("the replay shows every secret: it opens after the end")
        at = max(0, min(at, self.version))
        cached = self._replay
        if cached is None or cached[0] > at:
            start = Recorder(
                self.ruleset,
                self.recorder.config,
                self.recorder.record().seed,
                seeded=self.recorder.seeded,
            )
            cached = (0, start, _setup_events(start.state))
        done, rec, events = cached
        actions = self.recorder.actions
        for a in actions[done:at]:
            events = rec.apply(a)
        self._replay = cached = (at, rec, events)
        state = rec.state
        told = [e.to_json() for e in events if e.visible_to(seat)]
        view = state.view(seat)
        return {
            "ruleset": self.ruleset.id,
            "seat": seat,
            "version": at,
            "of": self.version,
            "action": None if at == 0 else str(actions[at - 1]),
            "to_act": sorted(state.to_act()),
            "view": view.to_json(),
            # The panel beside the board shows the replayed view too, not the end's.
            "drawing": None if self.board is not None else self.drawing(seat, view, kept=False),
            "legal": [],
            "notation": [],
            "events": told,
            "sentences": self.sentences(told),
        }

    def sentences(self, events: Sequence[Mapping[str, Any]]) -> list[JSON]:
        """Each event (its JSON form, as the seat receives it) as the rule set's sentence
        for people (:meth:`~fogofwar.core.game.Ruleset.describe_event`, the terminal's
        log), ``None`` where the rule set leaves it out of a person's log. Made from
        what the seat receives and nothing else, so it tells the seat nothing more."""
        describe = self.ruleset.describe_event
        return [describe(e) for e in events]

    def drawing(self, seat: str | None, view: PlayerView, *, kept: bool = True) -> str:
        """The terminal's drawing of ``view`` (the rule set's ``render``, from the view
        alone) as HTML, for the pages of games without a board of their own; made once
        for each version of what the seat's link shows (``kept`` False: a replayed
        view's, made each time)."""
        shown = self.seat_version(seat) if kept else -1
        cached = self._drawings.get(seat) if kept else None
        if cached is not None and cached[0] == shown:
            return cached[1]
        console = Console(
            record=True,
            file=io.StringIO(),
            width=110,
            color_system="truecolor",
            legacy_windows=False,
        )
        out = self.ruleset.render(view, self.recorder.config)
        # Plain text is printed as it is, as the terminal prints it: read as console
        # markup, a card game's "[rock'n'roll]" and "[dealt]" flags were dropped.
        console.print(Text(out) if isinstance(out, str) else out, soft_wrap=True)
        drawn = console.export_html(inline_styles=True, code_format="<pre>{code}</pre>")
        if kept:
            self._drawings[seat] = (shown, drawn)
        return drawn

    def verdict(self) -> dict[str, JSON]:
        """``fogofwar verify``'s verdict on the finished game (computed once)."""
        if self._verdict is None:
            verdict = verify_record(self.recorder.record())
            self._verdict = {
                "verified": verdict.verified,
                "checks": list(verdict.checks),
                "problem": verdict.problem,
            }
        return self._verdict

    def changed(self) -> None:
        for listener in list(self.listeners):
            listener(self)


class Hall:
    """Every table of one server (see the module documentation).

    Args:
        store: where tables and their actions are kept.
        bot_pause: seconds a bot waits before it acts, so people can follow (a table's
            ``bot_pause`` option overrides it).
        data_dirs: the folders whose data files (boards, maps, missions) a request may
            name, by file name (:class:`~fogofwar.server.guard.Guard`).
    """

    def __init__(
        self,
        store: Store,
        *,
        bot_pause: float = 0.6,
        worker: int = 0,
        workers: int = 1,
        data_dirs: Sequence[Path | str] = (),
    ) -> None:
        if not 0 <= worker < workers:
            raise ValueError(f"worker {worker} of {workers}")
        #: What a request may name (the app checks every request with it).
        self.guard = Guard(data_dirs)
        #: The stored tables that could not be rebuilt, with the reason (their links
        #: answer "not found" with it; the server names them when it starts).
        self.unresumed: dict[str, str] = {}
        self.store = store
        self.bot_pause = bot_pause
        self.worker = worker
        self.workers = workers
        self.tables: dict[str, Table] = {}
        self._next_worker = worker

    def owns(self, table_id: str) -> bool:
        """Whether this worker holds the table (always, with one worker)."""
        return owner_of(table_id, self.workers) == self.worker

    # ------------------------------------------------------------------ tables

    def create(
        self,
        ruleset: str,
        config: Mapping[str, Any] | None = None,
        seats: Mapping[str, str] | None = None,
        *,
        seed: int | str | None = None,
        options: Mapping[str, JSON] | None = None,
    ) -> tuple[Table, dict[str, str], str]:
        """Create a table: its game, its players and its links.

        Args:
            ruleset: a rule set's id or alias (or a plug-in reference).
            config: option overrides.
            seats: seat -> ``"human"``, ``"bot"`` (the rule set's default bot for the
                seat) or a bot's name. Seats not named are bots; with no seats at all,
                the first seat is human.
            seed: a chosen seed (the table is then *seeded*, and says so); by default
                the game gets a fresh 256-bit secret.
            options: the table's own options (``bot_pause``).

        Returns:
            The table, the token of each human seat, and the spectator's token.

        Raises:
            RulesError: an unknown rule set, seat, bot or option, or a bad seed.
        """
        rs = get_ruleset(ruleset)
        cfg = rs.resolve_config(config)
        names = tuple(rs.seats(cfg))
        chosen = dict(seats or {})
        if not chosen and names:
            chosen = {names[0]: HUMAN}
        unknown = sorted(set(chosen) - set(names))
        if unknown:
            raise RulesError(f"no seat {unknown[0]!r} in this game (seats: {', '.join(names)})")
        players: dict[str, str] = {}
        for seat in names:
            who = str(chosen.get(seat, "bot"))
            if who == "bot":
                who = rs.default_bots.get(seat, "random")
            if who != HUMAN:
                make_bot(who, rs.id, seat)  # a bad bot fails here, before the table exists
            players[seat] = who
        table_options = dict(options or {})
        unknown_options = sorted(set(table_options) - _TABLE_OPTIONS)
        if unknown_options:
            raise RulesError(
                f"no table option {unknown_options[0]!r} (options: "
                f"{', '.join(sorted(_TABLE_OPTIONS))})"
            )
        pause = table_options.get("bot_pause", self.bot_pause)
        if isinstance(pause, bool) or not isinstance(pause, int | float) or not 0 <= pause <= 10:
            raise RulesError(f"bot_pause: a number of seconds from 0 to 10, not {pause!r}")
        table_options["bot_pause"] = float(pause)
        for name, most in (("clock", 86400), ("clock_increment", 3600)):
            value = table_options.get(name)
            if value is None:
                continue
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise RulesError(f"{name}: a number of seconds, not {value!r}")
            if not (0 < value <= most if name == "clock" else 0 <= value <= most):
                lowest = 0 if name != "clock" else "above 0"
                raise RulesError(f"{name}: from {lowest} to {most} s ({most // 60} minutes)")
            table_options[name] = float(value)
        if "clock_increment" in table_options and "clock" not in table_options:
            raise RulesError("clock_increment: only with a clock")
        recorder = Recorder(rs, cfg, seed, meta={"players": dict(players)})
        record = recorder.record()
        # The bots' streams: reproducible from a chosen seed, else from a root of their
        # own (their choices are in the record; the root only keeps a restart's bots on
        # the same streams). A bot's stream decides its hidden choices (a bot agent's
        # path), so its root is a secret as strong as the game's: 256 bits.
        bot_root: int | str = new_secret() if seed is None else seed
        table_options["bot_root"] = bot_root
        created = datetime.now(UTC).isoformat(timespec="microseconds")
        # Tables go to the workers in turn; a table's id says which worker holds it.
        target = self._next_worker
        self._next_worker = (self._next_worker + 1) % self.workers
        table_id = secrets.token_urlsafe(12)
        while owner_of(table_id, self.workers) != target:
            table_id = secrets.token_urlsafe(12)
        tokens = {
            seat: secrets.token_urlsafe(_TOKEN_BYTES) for seat in names if players[seat] == HUMAN
        }
        spectator = secrets.token_urlsafe(_TOKEN_BYTES)
        self.store.create_table(
            StoredTable(
                id=table_id,
                ruleset=rs.id,
                config=cfg.to_json(),
                seed=_seed_text(record.seed),
                seeded=recorder.seeded,
                commitment=recorder.commitment,
                seats=players,
                options=table_options,
                created=created,
                finished=None,
            ),
            [*((t, s) for s, t in tokens.items()), (spectator, None)],
        )
        # A table of another worker is not kept here: that worker loads it from the
        # store when one of its links is first used.
        table = self._table(
            table_id, rs, players, recorder, created, table_options, bot_root,
            keep=target == self.worker,
        )  # fmt: skip
        return table, tokens, spectator

    def _table(
        self,
        table_id: str,
        rs: Ruleset,
        players: dict[str, str],
        recorder: Recorder,
        created: str,
        options: dict[str, JSON],
        bot_root: int | str,
        *,
        keep: bool = True,
        register: bool = True,
    ) -> Table:
        table = Table(table_id, rs, players, recorder, created, options, bot_root)
        # The log starts with the setup's events (a new recorder: no action yet).
        if not len(recorder):
            table.add_events(_setup_events(recorder.state))
        bank = options.get("clock")
        if isinstance(bank, int | float):
            increment = options.get("clock_increment", 0.0)
            table.clock = Clock(
                float(bank),
                float(increment) if isinstance(increment, int | float) else 0.0,
                {seat: float(bank) for seat, who in players.items() if who == HUMAN},
                time.time(),
            )
        if not keep:
            return table
        for seat, who in players.items():
            if who != HUMAN:
                bot = make_bot(who, rs.id, seat)
                bot.reset(seat, rs.id, recorder.config)
                table.bots[seat] = bot
        if register:
            self.tables[table_id] = table
        return table

    def resume(self) -> list[Table]:
        """Rebuild every unfinished table of the store by replaying its actions (after
        a restart). A finished table is rebuilt when one of its links is next used
        (:meth:`table`): a store keeps every game ever played, and replaying them all
        made each start slower and the process larger.

        Returns:
            The tables rebuilt.
        """
        out = []
        for stored in self.store.tables(unfinished=True):
            if stored.id not in self.tables and self.owns(stored.id):
                table = self._rebuild_or_note(stored)
                if table is not None:
                    out.append(table)
        return out

    def _rebuild_or_note(self, stored: StoredTable) -> Table | None:
        """A stored table rebuilt, or ``None``: one table that cannot be rebuilt (its
        data file edited since, a plug-in not installed) must not keep the server and
        every other table down. The reason goes to the operator (standard error); a
        failure that will repeat (the rules or the data refuse the stored game, a seed
        that does not match) is kept in :attr:`unresumed`, so the rebuild is not tried
        again at every request; another (a busy database) is tried again next time.
        A table half rebuilt is never left live."""
        try:
            return self._rebuild(stored)
        except Exception as exc:  # any failure of one table's rebuild
            self.tables.pop(stored.id, None)
            reason = f"{type(exc).__name__}: {exc}"
            print(f"fogofwar serve: table {stored.id} not brought back: {reason}", file=sys.stderr)
            if isinstance(exc, RulesError | _Mismatch):
                self.unresumed[stored.id] = reason
            return None

    def _rebuild(self, stored: StoredTable) -> Table:
        rs = get_ruleset(stored.ruleset)
        seed = _seed_value(stored.seed)
        # A chosen seed and a drawn secret are told apart by the stored flag.
        meta: dict[str, JSON] = {"players": dict(stored.seats)}
        recorder = Recorder(rs, stored.config, seed, meta=meta, seeded=stored.seeded)
        if recorder.commitment != stored.commitment:
            raise _Mismatch(f"table {stored.id}: the stored seed does not match its commitment")
        root = stored.options.get("bot_root", 0)
        table = self._table(
            stored.id,
            rs,
            dict(stored.seats),
            recorder,
            stored.created,
            dict(stored.options),
            root if isinstance(root, int | str) else 0,
            register=False,  # live only once whole: a rebuild may run in a worker thread
        )
        for action, chosen_by in self.store.actions_chosen(stored.id):
            if chosen_by == "clock":
                self._out_of_time(table, action.seat)
                table.timed_out.add(table.version)
            table.add_events(recorder.apply(action))
        if table.clock is not None:
            # Time does not run while the server is down: each clock goes on from where
            # it stood at the table's last action.
            left = self.store.clocks(stored.id)
            if left is not None:
                table.clock.left.update({s: v for s, v in left.items() if s in table.clock.left})
            table.clock.since = time.time()
        self.tables[stored.id] = table
        return table

    def table(self, table_id: str) -> Table:
        """The live table ``table_id`` (rebuilt from the store when not in memory).

        Raises:
            NotFound: no such table.
            Misdirected: another worker holds it.
        """
        table = self.tables.get(table_id)
        if table is not None:
            return table
        stored = self.store.table(table_id)
        if stored is None:
            raise NotFound(f"no table {table_id!r}")
        if not self.owns(table_id):
            raise Misdirected(table_id, owner_of(table_id, self.workers))
        table = None if table_id in self.unresumed else self._rebuild_or_note(stored)
        if table is None:
            # The reason (a file's path, say) is the operator's: the server printed it.
            raise NotFound(
                f"table {table_id!r} could not be brought back from the store (the "
                "server's operator has the reason)"
            )
        return table

    def seat_of(self, table: Table, token: str) -> str | None:
        """The seat whose link ``token`` is (``None``: the spectator's link).

        Raises:
            Forbidden: the token is no link of this table.
        """
        known, seat = self.store.seat_of(table.id, token)
        if not known:
            raise Forbidden("this link is not one of this table's")
        return seat

    # ------------------------------------------------------------------ acting

    def act(
        self,
        table: Table,
        seat: str | None,
        *,
        action: JSON = None,
        notation: str | None = None,
        version: int | None = None,
    ) -> list[Action]:
        """Apply a seat's action (JSON) or notation (one or more actions, all or none
        while they decide nothing: :meth:`_try_all`), stored before this returns.

        Raises:
            Forbidden: the spectator's link, or an action for another seat.
            Stale: ``version`` is not that of what the seat's link shows now.
            Refused: the notation does not parse or the rules refuse an action (with
                the reason and rule ID); nothing changed, but for the actions of the
                input that the reason says were played.
        """
        if seat is None:
            raise Forbidden("a spectator's link cannot act")
        if version is not None and version != table.seat_version(seat):
            raise Stale(version, table.seat_version(seat))
        state = table.recorder.state
        if (action is None) == (notation is None):
            raise Refused("send an action or a notation, not both nor neither", None)
        try:
            if notation is not None:
                actions = table.ruleset.parse_actions(notation, seat, state)
            else:
                parsed = Action.from_json(action)
                if parsed.seat != seat:
                    raise Forbidden(f"this link acts for {seat}, not for {parsed.seat}")
                actions = [parsed]
            if not actions:
                raise Refused("no action in that notation", None)
            if len(actions) > 1:
                self._try_all(table, actions)
            # One action is checked as it is applied: a refused one changes nothing.
            self._apply(table, actions)
        except IllegalActionError as exc:
            raise Refused(exc.reason, exc.rule) from exc
        except InvalidNotationError as exc:
            raise Refused(str(exc), None) from exc
        return actions

    def _try_all(self, table: Table, actions: Sequence[Action]) -> None:
        """Check several actions as a whole (:func:`~fogofwar.core.game.try_actions`):
        all or nothing while they decide nothing; after one decides something, the
        actions before the refused one are played for real and the rest refused.

        Raises:
            Refused: an action the rules refuse (after playing the actions before it,
                where one of them decided something).
        """
        tried = try_actions(table.ruleset, table.recorder.state, actions)
        if tried is not None:
            i, exc = tried
            self._apply(table, actions[:i])
            raise Refused(partly_played(i, actions, exc), exc.rule) from exc

    def preview(
        self, table: Table, seat: str | None, actions: JSON, *, version: int | None = None
    ) -> list[Action]:
        """Try a seat's actions without applying them: the legal actions of the
        rule set's preview kinds that would follow (the web table's path entry).

        Only kinds the rule set names in ``preview_kinds`` may be tried, and the trial
        ends at the first action that causes an event other than those the rule set
        names for its kind (a move's end, an answer): from there nothing follows, and
        a further action is refused. So trying tells the seat nothing it does not know.

        Raises:
            Forbidden: the spectator's link, or an action for another seat.
            Stale: ``version`` is not that of what the seat's link shows now.
            Refused: a kind that may not be tried, an action after the trial's end, or
                an action the rules refuse.
        """
        if seat is None:
            raise Forbidden("a spectator's link cannot act")
        if version is not None and version != table.seat_version(seat):
            raise Stale(version, table.seat_version(seat))
        if not isinstance(actions, list) or not 0 < len(actions) <= _MAX_PREVIEW:
            raise Refused(f"actions: a list of 1 to {_MAX_PREVIEW} actions", None)
        try:
            parsed = [Action.from_json(raw) for raw in actions]
        except InvalidNotationError as exc:
            raise Refused(str(exc), None) from exc
        for action in parsed:
            if action.seat != seat:
                raise Forbidden(f"this link acts for {seat}, not for {action.seat}")
        return preview_actions(table.ruleset, table.recorder.state, seat, parsed)

    def _apply(
        self, table: Table, actions: Sequence[Action], *, chosen_by: str | None = None
    ) -> None:
        """Apply legal actions, store them, then tell the listeners."""
        start = table.version
        rec = table.recorder
        clock = table.clock
        # What the spectators' link shows now (the public facts): the bots' pause runs
        # from the last change to it (below). Timing is paced by public changes alone:
        # pacing by a seat's private ones would let the others time them.
        public = table.seat_version(None)
        before = frozenset(rec.state.to_act())
        if clock is not None:
            clock.charge(before, time.time())
        if chosen_by == "clock":
            self._out_of_time(table, actions[0].seat)
        for a in actions:
            table.add_events(rec.apply(a))
        if clock is not None:
            # A seat that has acted gets its increment.
            for seat in clock.running(before - frozenset(rec.state.to_act())):
                clock.left[seat] += clock.increment
        digests = rec.digests_since(start)
        finished = datetime.now(UTC).isoformat() if rec.state.is_over else None
        self.store.append(
            table.id,
            start,
            actions,
            digests,
            finished,
            chosen_by=chosen_by,
            clocks=None if clock is None else dict(clock.left),
        )
        if chosen_by == "clock":
            table.timed_out.update(range(start, table.version))
        if table.seat_version(None) != public:
            table.public_at = time.monotonic()
        # Every person's link worked out now, not when first asked: a link's first
        # answer after a change it cannot see would take longer, and say so.
        for seat, player in table.players.items():
            if player == "human":
                table.seat_version(seat)
        table.changed()

    def _out_of_time(self, table: Table, seat: str) -> None:
        """Announce, to everyone, that ``seat``'s default bot plays for it: once for a
        run of its actions so chosen, and without an increment once in the game (the
        seat never has time again, so every later turn of it would repeat the news)."""
        version = table.version
        if version - 1 in table.timed_out and table.recorder.actions[-1].seat == seat:
            return
        clock = table.clock
        if clock is not None and not clock.increment:
            if seat in table.told_out:
                return
            table.told_out.add(seat)
        table.add_events(
            [Event("out_of_time", {"seat": seat, "bot": self._clock_bot(table, seat)[0]})]
        )

    def _clock_bot(self, table: Table, seat: str) -> tuple[str, Bot]:
        """The default bot that plays for ``seat`` when it is out of time."""
        name = table.ruleset.default_bots.get(seat, "random")
        bot = table.clock_bots.get(seat)
        if bot is None:
            bot = make_bot(name, table.ruleset.id, seat)
            bot.reset(seat, table.ruleset.id, table.recorder.config)
            table.clock_bots[seat] = bot
        return name, bot

    # ------------------------------------------------------------------ clocks

    def clock_deadline(self, table: Table) -> tuple[str, float] | None:
        """The timed seat to act that runs out of time first, and when
        (``time.time()``); ``None`` when no clock runs."""
        clock = table.clock
        if clock is None or table.over:
            return None
        to_act = table.recorder.state.to_act()
        running = clock.running(to_act)
        if not running:
            return None
        seat = min(running, key=lambda s: clock.left[s])
        return seat, clock.since + clock.left[seat]

    def clock_turn(self, table: Table) -> BotTurn | None:
        """The turn of a seat out of time, for its default bot to play; ``None`` when no
        seat to act is out of time."""
        due = self.clock_deadline(table)
        if due is None or due[1] > time.time():
            return None
        return BotTurn.at(table, due[0], self._clock_bot(table, due[0])[1], "clock")

    # ------------------------------------------------------------------ bots

    def bot_to_act(self, table: Table) -> bool:
        """Whether a bot is to act at ``table`` (cheap: no view is built)."""
        return not table.over and any(s in table.bots for s in table.recorder.state.to_act())

    def bot_turn(self, table: Table) -> BotTurn | None:
        """The next bot to act at ``table``, with a copy of what it may see; ``None``
        when no bot is to act."""
        state = table.recorder.state
        if state.is_over:
            return None
        for seat in sorted(state.to_act()):
            bot = table.bots.get(seat)
            if bot is not None:
                return BotTurn.at(table, seat, bot)
        return None

    def bot_acts(self, turn: BotTurn, action: Action) -> bool:
        """Apply a bot's choice (a seat's bot, or the default bot of a seat out of time)
        if the table is still where the bot looked."""
        table = turn.table
        if table.version != turn.version or table.over:
            return False
        self._apply(table, [action], chosen_by=turn.chosen_by)
        return True

    def pause(self, table: Table) -> float:
        """How long a bot waits before it acts, so that people can follow (the table's
        ``bot_pause``, else the server's)."""
        pause = table.options.get("bot_pause", self.bot_pause)
        return float(pause) if isinstance(pause, int | float) else self.bot_pause

    def pause_until(self, table: Table) -> float:
        """When (``time.monotonic()``) a bot that has chosen may act: a pause after the
        last change to the public facts. A bot thinks first and then waits for it, so a
        bot agent's unseen move (steps that change nothing public) lands a pause after
        the hunters' last action whatever its length, while its thinking takes less
        than the pause: paced a pause a step, or each step's thinking added to the wait,
        its length would show in how long it took."""
        return table.public_at + self.pause(table)


def _setup_events(state: State) -> list[Event]:
    """The events of a game's setup (what was dealt, drawn and placed before the first
    action), each with its own audience, from a state that no action has changed yet: a
    table's log starts with them, so that a seat's events begin where its view does."""
    return list(state.event_log()) if isinstance(state, TableState) else []


def preview_actions(
    ruleset: Ruleset, state: State, seat: str, actions: Sequence[Action]
) -> list[Action]:
    """The legal actions of ``ruleset``'s preview kinds that would follow ``actions``
    of ``seat`` from ``state`` (which is not changed); see :meth:`Hall.preview`.

    Raises:
        Refused: a kind that may not be tried, an action after the trial's end, or an
            action the rules refuse.
    """
    kinds = ruleset.preview_kinds(state.config)
    trial = state.clone()
    try:
        for i, action in enumerate(actions):
            if action.kind not in kinds:
                allowed = ", ".join(sorted(kinds)) or "none"
                raise Refused(
                    f"{action.kind} cannot be tried before it is sent (this game lets a "
                    f"seat try: {allowed})",
                    None,
                )
            if decides(kinds, action, trial.apply(action)):
                if i + 1 < len(actions):
                    raise Refused(
                        f"the move is decided at action {i + 1} ({action}): send it, then go on",
                        None,
                    )
                return []
    except IllegalActionError as exc:
        raise Refused(exc.reason, exc.rule) from exc
    return [a for a in trial.legal_actions(seat) if a.kind in kinds]


@functools.lru_cache(maxsize=64)
def _board_of(ruleset: Ruleset, config: str) -> JSON:
    return ruleset.board_json(json.loads(config))


def _board_json(ruleset: Ruleset, config: Config) -> JSON:
    """The board for drawing, made once for all tables of one rule set and config (a
    Specter Ops board takes milliseconds to export)."""
    return _board_of(ruleset, json.dumps(config.to_json(), sort_keys=True))


def _seed_text(seed: int | str) -> str:
    # An integer seed is kept as "int:N", a secret as its hex: the two never collide.
    return f"int:{seed}" if isinstance(seed, int) else seed


def _seed_value(text: str) -> int | str:
    return int(text[4:]) if text.startswith("int:") else text
