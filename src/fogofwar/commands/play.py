"""``fogofwar play RULESET``: a game at the terminal, humans and bots at the seats.

Each human seat sees only its own view, drawn by the rule set's
:meth:`~fogofwar.core.game.Ruleset.render`; between two different human seats the
screen is cleared and handed over ("pass the screen to …"). Bots get their seat's view,
legal actions and their own random stream, as in ``fogofwar sim``. Actions are typed in
the rule set's notation (``help`` lists it, ``legal`` lists the legal actions); a refused
action prints its reason and rule and nothing changes. The record is saved at the end,
on ``quit`` and on Ctrl-C (in ``records/`` by default), so the game can be replayed
(``fogofwar replay``) or, unfinished, continued (``fogofwar play --resume RECORD``, with
the same seats unless ``--seat`` changes some; the record grows in place). ``quit``
exits 0; Ctrl-C and the end of input exit 130.

Secrets. Without ``--seed`` the game gets a fresh 256-bit secret that no seat sees before
the end; every seat is shown its commitment at the start, and the secret at the end, when
``fogofwar verify RECORD`` can check the whole game. With ``--seed`` the game is *seeded*
and says so: whoever knows the seed knows every secret.
"""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path

from rich.console import Console
from rich.markup import escape
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from ..bots import make_bot
from ..core.errors import IllegalActionError, InvalidNotationError, RulesError
from ..core.game import (
    Action,
    Event,
    Outcome,
    PlayerView,
    Ruleset,
    State,
    get_ruleset,
    partly_played,
    try_actions,
)
from ..core.record import Record, Recorder
from ..core.record.errors import ReplayError, TamperedRecordError
from ..core.secret import new_secret
from ..sim.runner import bot_stream
from .fit import layout, strips, window
from .interrupt import ctrl_c_interrupts
from .prompt import SeatPrompts

HUMAN = "human"

#: The prompt's own words, each with what it does (``los``, ``map`` and ``legend`` only
#: where the rule set has a sight explainer or a board).
WORDS = (
    ("legal", "every legal action"),
    ("map", "the whole board"),
    ("legend", "the board's symbols"),
    ("log", "every event you have seen"),
    ("los A B", "the sight explainer: what A sees of B"),
    ("help", "this"),
    ("quit", "save and stop (fogofwar play --resume goes on)"),
)

#: The same words, for Tab completion.
COMMANDS = tuple(word.split()[0] for word, _ in WORDS)


def help_table(notation: str, words: Sequence[tuple[str, str]]) -> Table:
    """The notation (``form  meaning`` lines) and the prompt's words as one two-column
    table: aligned, wrapped under their column at any width, and never read as markup
    (``pick S2 H3 [up]``)."""
    table = Table(box=None, show_header=False, padding=(0, 2, 0, 0))
    table.add_column(style="bold", max_width=34)  # a long form wraps in its column
    table.add_column(min_width=24)
    for line in notation.splitlines():
        form, sep, meaning = line.strip().partition("  ")
        table.add_row(Text(form), Text(meaning.strip()) if sep else Text(""))
    table.add_row("", "")
    for word, meaning in words:
        table.add_row(Text(word), Text(meaning))
    return table


#: ``play --level``: the bots of the seats not played by people. ``easy`` is each rule
#: set's heuristic bot; ``normal`` and ``hard`` search with ``ismcts`` (docs/search.md)
#: at two budgets, where the rule set samples worlds.
LEVELS: dict[str, str | None] = {
    "easy": None,
    # An iteration budget, capped in time: a long game's rollouts (Specter Ops,
    # Rock-n-Roll) stop at the cap, so no bot keeps a table waiting.
    "normal": "ismcts:iterations=100,seconds=1,rollout=heuristic",
    "hard": "ismcts:iterations=400,seconds=3,rollout=heuristic",
}
#: Where the rule set evaluates positions, the searching levels cut their rollouts
#: after this many actions (``depth``): several times the iterations in the same time,
#: and no weaker at the same iterations in the seats measured (docs/search.md).
LEVEL_DEPTH = 20


def level_bots(rs: Ruleset, config: Mapping[str, object], level: str) -> dict[str, str]:
    """The bot of every seat at ``level`` (``play --level``).

    Raises:
        RulesError: an unknown level, or a searching level for a rule set that does not
            sample worlds (naming the levels it has).
    """
    if level not in LEVELS:
        raise RulesError(f"--level {level!r}: expected one of {', '.join(LEVELS)}")
    search = LEVELS[level]
    if search is None:
        return dict(rs.default_bots)
    if not rs.can_sample_worlds:
        raise RulesError(
            f"--level {level}: {rs.id} has only --level easy (its heuristic bots): "
            f"searching bots need a rule set that samples worlds (docs/search.md)"
        )
    if rs.evaluation(rs.resolve_config(config)) is not None:
        search += f",depth={LEVEL_DEPTH}"
    extra = rs.level_search
    return {s: f"{search},{extra[s]}" if extra.get(s) else search for s in rs.seats(config)}


def parse_seat_options(
    items: Sequence[str], seats: Sequence[str], defaults: Mapping[str, str] | None = None
) -> dict[str, str]:
    """``SEAT=human|bot|BOTNAME`` options to a seat -> player map. With none, the first
    seat is human and the others bots; seats not named are bots. "bot" is the rule set's
    default bot for the seat (``defaults``), else ``random``."""
    defaults = defaults or {}
    chosen: dict[str, str] = {}
    for item in items:
        seat, sep, who = item.partition("=")
        if not sep or not seat or not who:
            raise RulesError(f"--seat {item!r}: expected SEAT=human or SEAT=bot (or a bot name)")
        if seat not in seats:
            raise RulesError(f"--seat {item!r}: no seat {seat!r}; seats: {', '.join(seats)}")
        if seat in chosen:  # the later would silently win (sim refuses the same)
            raise RulesError(f"--seat {seat} given twice")
        # "Human" and "BOT" are what a person means by them; bot names stay as written.
        if who.lower() in (HUMAN, "bot"):
            who = who.lower()
        chosen[seat] = defaults.get(seat, "random") if who == "bot" else who
    if not items:
        chosen[seats[0]] = HUMAN
    return {s: chosen.get(s, defaults.get(s, "random")) for s in seats}


def drawing(rs: Ruleset, view: PlayerView, config: Mapping[str, object]) -> object:
    """A rule set's drawing of a view, ready to print: plain text is printed as it is
    (a card game's ``V12[V! 2x2]`` is not console markup)."""
    out = rs.render(view, config)
    return Text(out) if isinstance(out, str) else out


def result_line(outcome: Outcome) -> str:
    """The line that ends a game, in ``play`` and ``replay`` alike: who won (``nobody``
    for a draw), why, and the rule, e.g. ``Result: nobody won — no hero is left on the
    table [ZD-C8]``."""
    won = ", ".join(sorted(outcome.sides)) or "nobody"
    tag = f" [{outcome.rule}]" if outcome.rule else ""
    return f"Result: {won} won — {outcome.reason}{tag}"


#: The most events listed under "Since …"; earlier ones are counted, not shown.
NEWS = 40


def _legal_summary(legal: Sequence[Action], width: int | None = None) -> str:
    """The legal actions on one line, by kind: up to 12 arguments a kind, then a count.
    Given a ``width`` it does not fit, each kind shows fewer arguments (down to its
    count alone) before anything is cut, so that every kind stays in sight: a Specter
    Ops agent's ``done`` came after nine cards and fell off an 80-column line."""
    by_kind: dict[str, list[str]] = {}
    for a in legal:
        by_kind.setdefault(a.kind, []).append(" ".join(str(x) for x in a.args))

    def line(most: int) -> str:
        parts = []
        for kind, args in by_kind.items():
            shown = [x for x in args if x]
            if len(shown) < len(args):
                parts.append(kind)  # the bare kind (``pass``) beside ``pass turn``
            if len(shown) > most:
                listed = "".join(f"{x} | " for x in shown[:most])
                parts.append(
                    f"{kind} ({len(shown)}: {listed}…)" if most else f"{kind} ({len(shown)})"
                )
            elif shown:
                parts.append(f"{kind} {' | '.join(shown)}")
        return "; ".join(parts)

    for most in range(12, -1, -1):
        out = line(most)
        if width is None or len(out) <= width:
            break
    return out


class TerminalGame:
    """One game at the terminal (see the module doc)."""

    def __init__(
        self,
        ruleset: Ruleset,
        config: Mapping[str, object],
        seed: int | None,
        players: Mapping[str, str],
        *,
        console: Console,
        record_path: Path,
        read: Callable[[str], str] | None = None,
        resume: Record | None = None,
    ) -> None:
        self.rs = ruleset
        self.config = ruleset.resolve_config(config)
        self.players = dict(players)
        self.console = console
        self.record_path = record_path
        self.ask: Callable[[str | None, str], str]
        # Whether a person types at a terminal: only then is the screen handed over with
        # a pause for Enter. Lines from a pipe, a file or ``read`` are actions, one each:
        # a pause would swallow the next seat's line.
        self.typed = read is None and sys.stdin.isatty()
        if read is not None:
            self.ask = lambda seat, prompt: read(prompt)
        elif sys.stdin.isatty() and console.is_terminal:
            # Arrow keys, history per seat and Tab completion of the legal actions.
            self.ask = SeatPrompts(lambda s: self.state.legal_actions(s), COMMANDS).ask
        else:  # a pipe or a file: plain lines
            self.ask = lambda seat, prompt: console.input(prompt)
        meta = {"players": dict(self.players), "started": datetime.now(UTC).isoformat()}
        if resume is None:
            # Without a seed the recorder draws the game's secret; this object never
            # holds it.
            self.recorder = Recorder(ruleset, self.config, seed, meta=meta)
        else:
            # The record's own secret, told apart from a chosen seed by its flag.
            meta = {**resume.meta, "players": dict(self.players)}
            self.recorder = Recorder(
                ruleset, self.config, resume.seed, meta=meta, seeded=resume.seeded
            )
        self.bots = {}
        for seat, who in self.players.items():
            if who != HUMAN:
                bot = make_bot(who, ruleset.id, seat)
                bot.reset(seat, ruleset.id, self.config)
                self.bots[seat] = bot
        # The bots' streams: reproducible from a chosen seed (a resumed seeded game's
        # from its record's), else from their own random root (their choices are in the
        # record, so a replay never needs it), as strong a secret as the game's: a bot
        # agent's hidden path follows from it. A stream a decision, keyed by the
        # actions played (as the web table's): a seeded game resumed from its record
        # goes on as it would have without the stop.
        if resume is not None and resume.seeded:
            root: int | str = resume.seed
        else:
            root = seed if seed is not None else new_secret()
        self._bot_root = root
        self.last_human: str | None = None
        # Every event so far (from the start's too), and where each human last looked.
        self.log: list[Event] = []
        self.since: dict[str, int] = {}
        if resume is not None:
            self._replay(resume)

    def _replay(self, record: Record) -> None:
        """Play a saved record's actions again, checking each against its digest (a
        changed record is refused, naming the first action that differs)."""
        for i, action in enumerate(record.actions):
            self.since[action.seat] = len(self.log)
            try:
                self.log += self.recorder.apply(action)
            except IllegalActionError as exc:
                raise ReplayError(record.source, i, action, exc.reason, exc.rule) from exc
            if record.digests and self.recorder.digests_since(i) != (record.digests[i],):
                raise TamperedRecordError.at_action(record.source, i, action, action.seat)
        record.check_end(self.state)

    @property
    def state(self) -> State:
        return self.recorder.state

    def run(self) -> int:
        """Play to the end or until ``quit`` (0), or until Ctrl-C / end of input (130),
        saving the record either way."""
        # Ctrl-C stops the game and saves it, however the process was started.
        with ctrl_c_interrupts():
            return self._run()

    def _run(self) -> int:
        try:
            while not self.state.is_over:
                seat = sorted(self.state.to_act())[0]
                if seat in self.bots:
                    legal = tuple(self.state.legal_actions(seat))
                    view = self.state.view(seat)
                    stream = bot_stream(self._bot_root, seat, len(self.recorder))
                    action = self.bots[seat].choose(view, legal, stream)
                    self.log += self.recorder.apply(action)
                elif not self._human_turn(seat):
                    self._save("stopped")
                    return 0
        except (KeyboardInterrupt, EOFError):
            # Saved before anything is printed: piped through `tee`, Ctrl-C stops the
            # reader too, and the first print failed before the record was written.
            self._save("stopped", newline=True)
            return 130
        self.console.print(Rule("the game is over: every secret is shown"))
        self.console.print(drawing(self.rs, self.state.view(None), self.config), soft_wrap=True)
        outcome = self.state.outcome()
        if outcome is not None:
            line = Text(result_line(outcome))  # never markup: a reason may hold [brackets]
            line.stylize("bold", 0, len("Result:"))
            self.console.print(line, highlight=False)
        self._save("saved")
        self._reveal()
        return 0

    def announce(self) -> None:
        """The opening lines every seat sees: the seats, and the commitment to the secret
        (or that the game is seeded)."""
        rec = self.recorder
        self.console.print(
            f"[bold]{escape(self.rs.metadata.name)}[/]: "
            + escape(", ".join(f"{s} {w}" for s, w in self.players.items()))
            + ". Type help for the notation.",
            highlight=False,
        )
        if len(rec):
            self.console.print(
                f"Resumed from {self.record_path}: {len(rec)} actions played again.",
                markup=False,
                highlight=False,
            )
        if rec.seeded:
            self.console.print(
                "[bold yellow]This game is seeded:[/] whoever knows its seed knows every "
                "secret of it (hands, decks, hidden squares), and a small seed can be "
                "found from what a player sees. Play without --seed for a secret game.",
                highlight=False,
            )
        self.console.print(
            f"Commitment to the game's secret: {rec.commitment}", highlight=False, soft_wrap=True
        )
        self.console.print(
            "[dim]Note it: at the end the secret is shown, and fogofwar verify RECORD checks "
            "that it matches and that every roll and draw came from it.[/]",
            highlight=False,
        )
        if (
            HUMAN in self.players.values()
            and self.rs.screen(self.state.view(None), self.config).legend
        ):
            self.console.print("[bold]The symbols on the board[/] (legend shows them again):")
            self._legend()

    def _reveal(self) -> None:
        """After the end: the secret, so that anyone can verify the game."""
        record = self.recorder.record()
        for line in (
            f"The game's secret: {record.seed}",
            f"Its commitment, shown at the start: {record.commitment}",
            f"Check the whole game: fogofwar verify {self.record_path}",
        ):
            self.console.print(line, markup=False, highlight=False, soft_wrap=True)

    def _human_turn(self, seat: str) -> bool:
        """One action (or a notation that expands to several) of a human seat; False to
        stop the game."""
        humans = [s for s, who in self.players.items() if who == HUMAN]
        # The first screen too (a new game or a resumed one): whoever typed the command
        # is not the seat to act, and Rock-n-Roll's first screen is the VPA's hand.
        if len(humans) > 1 and self.last_human != seat:
            self._clear()
            if self.typed:
                self.ask(None, f"Pass the screen to {seat} and press Enter ")
                self._clear()
        self.last_human = seat
        self.console.print(Rule(f"{seat} to act"))
        news = [e for e in self.log[self.since.get(seat, 0) :] if e.visible_to(seat)]
        lines = [t for t in (self.rs.describe_event(e.to_json()) for e in news) if t][-NEWS:]
        # The events are listed once, here: the drawing leaves out its own log of them.
        view = self.state.view(seat)
        screen = self.rs.screen(
            PlayerView(view.ruleset, view.seat, {**view.data, "events": []}), self.config
        )
        width, height = self.console.size
        board = screen.board
        board_h = 0 if board is None else self._height(board, width)
        fit = layout(
            height=height,
            fixed=3,  # the rule above, the legal line and the prompt below
            facts=self._height(screen.facts, width),
            news=len(lines),
            board=board_h,
        )
        if lines and fit.news:
            # From the seat's own last action on: its dice and results come first.
            earlier = len(lines) - fit.news
            more = (
                f" [dim](the latest {fit.news}; log shows all {len(lines)})[/]" if earlier else ""
            )
            self.console.print(f"[bold]Since {escape(seat)}'s last action:[/]{more}")
            for line in lines[-fit.news :]:
                self.console.print(
                    f"  {escape(line)}", highlight=False, no_wrap=fit.cut, overflow="ellipsis"
                )
        if board is not None:
            if fit.cut or board_h > fit.board:
                board = window(
                    board, width=width, height=fit.board, header=screen.header,
                    margin=screen.margin, focus=screen.focus,
                )  # fmt: skip
            self.console.print(board, soft_wrap=True, highlight=False)
            if fit.cut:
                self.console.print(
                    "[dim]a window of the board: map shows all of it, legend its symbols[/]"
                )
        facts = screen.facts
        # Words wrap at the terminal's width (a board never reaches here: it is apart).
        self.console.print(Text(facts) if isinstance(facts, str) else facts)
        while True:
            legal = self.state.legal_actions(seat)
            room = width - len("legal: ") if fit.cut else None
            self.console.print(
                f"[dim]legal:[/] {escape(_legal_summary(legal, room))}",
                highlight=False,
                no_wrap=fit.cut,  # a small terminal: one line (legal lists them all)
                overflow="ellipsis",
            )
            text = self.ask(seat, f"{seat}> ").strip()
            if text == "quit":  # not "exit": a rule set may have an exit action
                return False
            if text in ("help", "?"):
                self.console.print("Type an action in the rule set's notation, then Enter.")
                self.console.print(help_table(self.rs.notation_help.rstrip(), self._words()))
                continue
            if text == "map":
                self._map(seat)
                continue
            if text == "legend":
                self._legend()
                continue
            if text == "log":
                for e in self.log:
                    said = self.rs.describe_event(e.to_json()) if e.visible_to(seat) else None
                    if said:
                        self.console.print(f"  {escape(said)}", highlight=False)
                continue
            if text == "legal":
                for a in legal:
                    self.console.print(f"  {escape(str(a))}", highlight=False)
                continue
            if text.split()[:1] == ["los"]:
                self._explain(seat, text.split()[1:])
                continue
            if not text:
                continue
            try:
                actions = self.rs.parse_actions(text, seat, self.state)
                # All or nothing while the input decides nothing; past an action that
                # decides something (a roll), what comes before the refused action is
                # played, so that the refusal does not tell the roll before it counts.
                tried = try_actions(self.rs, self.state, actions)
            except (IllegalActionError, InvalidNotationError) as exc:
                self.console.print(f"[bold red]refused:[/] {escape(str(exc))}", highlight=False)
                continue
            self.since[seat] = len(self.log)  # its own action's results are news to it
            played = actions if tried is None else actions[: tried[0]]
            for a in played:
                self.log += self.recorder.apply(a)
            if tried is not None:
                said = partly_played(tried[0], actions, tried[1])
                self.console.print(f"[bold red]refused:[/] {escape(said)}", highlight=False)
            return True

    def _words(self) -> list[tuple[str, str]]:
        """The prompt's words that mean something in this rule set."""
        board = self.rs.screen(self.state.view(None), self.config).board is not None
        sight = type(self.rs).explain_view_sight is not Ruleset.explain_view_sight
        skip = ({"map", "legend"} if not board else set()) | ({"los A B"} if not sight else set())
        return [(w, m) for w, m in WORDS if w not in skip]

    def _height(self, renderable: object, width: int) -> int:
        """Lines ``renderable`` takes at ``width``."""
        thing = Text(renderable) if isinstance(renderable, str) else renderable
        options = self.console.options.update(width=width)
        return len(self.console.render_lines(thing, options, pad=False))  # type: ignore[arg-type]

    def _map(self, seat: str) -> None:
        """``map``: the whole board, in strips as wide as the terminal."""
        view = self.state.view(seat)
        screen = self.rs.screen(view, self.config)
        if screen.board is None:
            self.console.print(drawing(self.rs, view, self.config), soft_wrap=True)
            return
        width = self.console.size.width
        for strip in strips(screen.board, width=width, margin=screen.margin):
            self.console.print(strip, soft_wrap=True, highlight=False)

    def _legend(self) -> None:
        """``legend``: every symbol of the rule set's drawing."""
        screen = self.rs.screen(self.state.view(None), self.config)
        if not screen.legend:
            self.console.print(
                f"{self.rs.metadata.name}'s screen is words: no symbols", highlight=False
            )
            return
        table = Table(box=None, show_header=False, padding=(0, 1))
        table.add_column(style="bold", no_wrap=True)
        table.add_column()
        for symbol, meaning in screen.legend:
            table.add_row(Text(symbol), Text(meaning))  # never read as markup
        self.console.print(table)

    def _clear(self) -> None:
        """Clear the screen and the terminal's scrollback, so that the next player cannot
        scroll back to the last one's secrets."""
        self.console.clear()
        if self.console.is_terminal:
            self.console.file.write("\x1b[3J")  # erase the scrollback (xterm and most)
            self.console.file.flush()

    def _explain(self, seat: str, words: list[str]) -> None:
        """``los FROM TO``: the rule set's sight explainer on what ``seat`` knows now."""
        if len(words) != 2:
            self.console.print("los needs two models or squares: los H1 B2", highlight=False)
            return
        try:
            found = self.rs.explain_view_sight(
                self.state.view(seat), self.config, words[0], words[1]
            )
        except NotImplementedError:
            self.console.print(f"{self.rs.metadata.name} has no sight explainer", highlight=False)
            return
        except RulesError as exc:
            self.console.print(f"[bold red]refused:[/] {escape(str(exc))}", highlight=False)
            return
        from .los import _lines_table

        report, facts = found.report, found.facts
        self.console.print(
            f"{escape(words[0])} → {escape(words[1])}: [bold]{report.status}[/]; "
            + (f"range {facts['range']}, " if facts.get("range") is not None else "")
            + ("engaged" if facts.get("engaged") else "not engaged"),
            highlight=False,
        )
        self.console.print(_lines_table(report.to_json()["lines"]))

    def _save(self, what: str, *, newline: bool = False) -> None:
        self.record_path.parent.mkdir(parents=True, exist_ok=True)
        self.recorder.record().save(self.record_path)
        try:
            if newline:
                self.console.print()
            self._saved(what)
        except (BrokenPipeError, SystemExit):
            # Nobody reads the output any more (rich turns a broken pipe into SystemExit
            # once it has sent the output to /dev/null): the record is kept.
            pass

    def _saved(self, what: str) -> None:
        """Say where the record went (and how to go on with an unfinished game)."""
        if not self.record_path.is_file():
            # --record /dev/null, a pipe: nothing to replay or go on with there.
            self.console.print(
                f"Record {what}: sent to {self.record_path}, which is not a file: it cannot "
                "be replayed or continued from there.",
                markup=False,
                highlight=False,
                soft_wrap=True,
            )
            return
        # An unfinished game's replay is no invitation to print on a shared screen.
        replay = f" (fogofwar replay {self.record_path} --seat …)" if self.state.is_over else ""
        self.console.print(
            f"Record {what}: {self.record_path}{replay}",
            markup=False,
            highlight=False,
            soft_wrap=True,  # a path to copy stays on one line
        )
        if not self.state.is_over:
            self.console.print(
                f"Continue it: fogofwar play --resume {self.record_path}",
                highlight=False,
                soft_wrap=True,
            )
            if not self.recorder.seeded:
                self.console.print(
                    "[dim]Until the game is over the record holds its secret: keep it from "
                    "the players.[/]",
                    highlight=False,
                )


def play(
    ruleset_name: str | None,
    *,
    seats: Sequence[str],
    sets: Sequence[str],
    players: int | None,
    seed: int | None,
    record: str | None,
    console: Console,
    resume: str | None = None,
    level: str = "easy",
) -> int:
    """Set up and play one game at the terminal (or go on with the saved one
    ``resume``); returns the exit status. ``level`` chooses the bots (:data:`LEVELS`)."""
    if resume is not None:
        return _resume(ruleset_name, resume, seats=seats, console=console, others=(
            ("--set", bool(sets)), ("--players", players is not None),
            ("--seed", seed is not None), ("--record", record is not None),
            ("--level", level != "easy"),
        ))  # fmt: skip
    if ruleset_name is None:
        raise RulesError("play needs a rule set (fogofwar rulesets lists them) or --resume RECORD")
    rs = get_ruleset(ruleset_name)
    overrides = rs.config_schema.parse_sets(list(sets))
    if players is not None:
        for key, value in rs.players_config(players, overrides).items():
            if key in overrides and overrides[key] != value:
                raise RulesError(
                    f"--players {players} means --set {key}={value}, and --set "
                    f"{key}={overrides[key]} says otherwise: give one"
                )
            overrides[key] = value
    config = rs.resolve_config(overrides)
    seat_names = rs.seats(config)
    who = parse_seat_options(seats, seat_names, level_bots(rs, config, level))
    if level != "easy" and all(w == HUMAN for w in who.values()):
        # Said, not refused: the level is right, there is just no bot for it to set.
        console.print(
            f"--level {level}: every seat is played by a person, so no bot plays at it "
            f"(--seat SEAT=bot gives a seat to a bot).",
            highlight=False,
        )
    for seat, name in who.items():
        if name != HUMAN:
            make_bot(name, rs.id, seat)  # a bad bot fails here, before the game
    _check_shared_screen(who, console)
    path = Path(record) if record else default_record_path(rs.id)
    if record:
        _check_new_record(path)
    else:
        _check_writable_place(path)
    game = TerminalGame(rs, config, seed, who, console=console, record_path=path)
    game.announce()
    return game.run()


def _resume(
    ruleset_name: str | None,
    path: str,
    *,
    seats: Sequence[str],
    console: Console,
    others: Sequence[tuple[str, bool]],
) -> int:
    """``play --resume RECORD``: the record's game, seats, config and secret, its actions
    played again (and checked), then on from there; the record is saved in place."""
    given = [name for name, used in others if used]
    if given:
        raise RulesError(
            f"--resume goes on with the record's own game: {', '.join(given)} cannot "
            "change it (--seat may)"
        )
    saved = Record.load(path)
    # It grows in place: a file that cannot be written is refused before the game.
    _check_writable_file(Path(path), option="--resume ")
    rs = saved.check_ruleset()
    if ruleset_name is not None and ruleset_name != rs.id:
        if ruleset_name.endswith(".json") or Path(ruleset_name).is_file():
            # `--resume records/specter-ops-*.json` with two records: the shell gave
            # the second file where a rule set may be named.
            raise RulesError(
                f"--resume takes one record, and {ruleset_name} is a second file where a "
                f"rule set may be named: did a pattern match more than one record? Name "
                f"the one to go on with (the last one saved: ls -t records | head -1)"
            )
        raise RulesError(f"{path} is a {rs.id} game, not {ruleset_name}")
    if saved.outcome is not None:
        raise RulesError(f"{path}: that game is over; fogofwar replay {path} shows it")
    config = saved.resolved_config(rs)
    seat_names = rs.seats(config)
    before = saved.meta.get("players")
    kept = [
        f"{s}={w}"
        for s, w in (before.items() if isinstance(before, dict) else ())
        if s in seat_names and isinstance(w, str) and w
    ]
    # The record's seats, each --seat given now in place of the record's for its seat
    # (a seat named twice now is refused as ever).
    named = {item.partition("=")[0] for item in seats}
    kept = [item for item in kept if item.partition("=")[0] not in named]
    who = parse_seat_options([*kept, *seats], seat_names, rs.default_bots)
    for seat, name in who.items():
        if name != HUMAN:
            make_bot(name, rs.id, seat)
    _check_shared_screen(who, console)
    game = TerminalGame(
        rs, config, None, who, console=console, record_path=Path(path), resume=saved
    )
    game.announce()
    return game.run()


def _check_shared_screen(who: Mapping[str, str], console: Console) -> None:
    """People who share one terminal are handed the screen in turn, and each hand-over
    clears it (and the scrollback). A terminal that cannot be cleared would leave every
    seat's secrets in sight of the next, so such a game is refused before it starts:
    output piped or redirected (``| tee``: the log keeps every screen) or a terminal
    that declares it cannot move the cursor (``TERM=dumb``). Lines fed from a pipe or a
    file are a script, not people taking turns, and are not refused."""
    humans = sorted(seat for seat, name in who.items() if name == HUMAN)
    if len(humans) < 2 or not sys.stdin.isatty():
        return
    if not console.is_terminal:
        why = "its output is not a terminal (piped or redirected), so the output would keep"
    elif console.is_dumb_terminal:
        term = os.environ.get("TERM", "")
        why = f"TERM={term} says it cannot clear the screen, so the screen would keep"
    else:
        return
    raise RulesError(
        f"{', '.join(humans)} would share this terminal, but {why} every seat's "
        "secrets for the next player to read. Play at a terminal without redirecting "
        "its output, or give each person a seat of their own at the web table "
        "(fogofwar serve)."
    )


def _check_new_record(path: Path) -> None:
    """``--record FILE`` names a new file: an existing record (an unfinished game with
    its secret, perhaps) is never overwritten, and a folder, a file under a file or in a
    folder that takes no file fails now, not when the game ends and its record is lost.
    A device is taken as asked (``/dev/null``: no record) if it can be written."""
    if path.is_dir():
        raise RulesError(f"--record {path}: that is a folder; name a new file in it")
    if path.is_file():  # not a device: --record /dev/null keeps no record, as asked
        raise RulesError(
            f"--record {path}: the file exists (fogofwar play --resume {path} goes on "
            "with its game); name a new file"
        )
    if path.exists():
        _check_writable_file(path, option="--record ")  # a device: written in place
        return
    _check_writable_place(path, option="--record ")


def _check_writable_file(path: Path, *, option: str) -> None:
    """That the existing ``path`` (a device, or the record ``--resume`` grows in place)
    can be written, tried without changing it.

    Raises:
        RulesError: it cannot be opened for writing.
    """
    try:
        # Appending, so nothing is cut; not blocking, so a named pipe with no reader
        # does not wait here for ever.
        os.close(os.open(path, os.O_WRONLY | os.O_APPEND | os.O_NONBLOCK))
    except OSError as exc:
        raise RulesError(f"{option}{path}: cannot be written ({exc.strerror or exc})") from None


def _check_writable_place(path: Path, *, option: str = "") -> None:
    """That a new record can be saved at ``path`` when the game ends: its folder, or the
    nearest folder above it that exists (the missing ones are made on saving), takes a
    new file. Tried, not judged from the permission bits, which a read-only file system
    or ``/proc`` ignore (and an administrator passes).

    Raises:
        RulesError: a file where a folder should be, or a folder that takes no file.
    """
    for parent in path.parents:
        if parent.exists():
            if not parent.is_dir():
                raise RulesError(f"{option}{path}: {parent} is not a folder")
            try:
                with tempfile.TemporaryFile(dir=parent, prefix=".fogofwar-"):
                    pass
            except OSError as exc:
                raise RulesError(
                    f"{option}{path}: cannot save a record in {parent} "
                    f"({exc.strerror or exc}): name a file (--record FILE) in a folder "
                    "you can write"
                ) from None
            return


def default_record_path(ruleset_id: str, folder: Path = Path("records")) -> Path:
    """A new record file in ``records/`` named by the rule set and the local time (never
    by the seed, which is the game's secret), e.g.
    ``records/specter-ops-20261202-143005.json``."""
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    path = folder / f"{ruleset_id}-{stamp}.json"
    n = 2
    while path.exists():
        path = folder / f"{ruleset_id}-{stamp}-{n}.json"
        n += 1
    return path
