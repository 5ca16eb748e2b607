"""The ``zero-dark`` rule set: metadata, options, action encoding, metrics."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from importlib import resources
from types import MappingProxyType
from typing import Any, ClassVar, Final

from ...core.cards import playing_cards
from ...core.errors import BadDataError, InvalidNotationError, RulesError
from ...core.game import (
    JSON,
    Action,
    ActionEncoding,
    Config,
    ConfigSchema,
    DataFormat,
    Evaluation,
    GameMetadata,
    KeptSampler,
    ObservationEncoder,
    Option,
    PlayerView,
    Ruleset,
    Screen,
    SightExplanation,
    State,
    WorldSampler,
)
from ...core.grid import Board, Square, board_json, parse_board
from ...core.odds import OddsQuery
from ...core.rng import Stream
from .encoder import ZeroDarkEncoder
from .evaluation import evaluation_for
from .fear import FACINGS, models_of
from .maps import (
    SHIPPED_MAPS,
    check_map_digest,
    digest_option,
    map_digest,
    map_for,
    require_zone,
    validate_map,
)
from .missions import SHIPPED_MISSIONS, load_mission, parse_mission
from .observer import build_view
from .odds import QUERIES
from .profiles import ROSTER, TASKS
from .render import event_sentence, render_view, screen_view
from .seat_sight import seat_sight
from .sight import explain_sight, explain_view
from .state import (
    ALLY_LINE,
    MAX_ALLIES,
    MAX_BOGEYS,
    TEAM,
    ZeroDarkState,
    parse_ally,
    parse_red_force_specs,
    parse_susceptible,
    parse_win,
)
from .state.options import check_consistent

__all__ = ["MAX_ALLIES", "MAX_BOGEYS", "ZeroDark"]

MAX_HEROES: Final = len(ROSTER)
"""Heroes in a team (ZD-C2): the roster's six."""

_KINDS: Final[Mapping[str, tuple[int, str]]] = MappingProxyType(
    {
        # kind: (arguments, the form a person types)
        "prepare": (2, "prepare TASK hand|buy"),
        "activate": (1, "activate H2"),
        "move": (-1, "move D7 E7 F8"),
        "step": (1, "step D7"),
        "stop": (0, "stop"),
        "face": (1, "face NE"),
        "door": (2, "door F3 e"),
        "exit": (0, "exit"),
        "verify": (1, "verify B3"),
        "shoot": (1, "shoot B2"),
        "dotlight": (1, "dotlight B2"),
        "interact": (0, "interact"),
        "cautious": (0, "cautious"),
        "pass": (0, "pass"),
        "done": (0, "done"),
        "fight": (0, "fight"),
        "persuade": (0, "persuade"),
        "flip": (0, "flip"),
        "play": (1, "play 7H"),
    }
)
"""The notation's action words: how many arguments each takes (-1: one or more), and
its form."""


#: The options a mission sets (:meth:`fogofwar.games.zero_dark.missions.Mission.config`):
#: a configuration holding them all is taken as resolved (a record's). A mission sets
#: ``ally`` only when its file gives the key, so it is not among them: a record made
#: before the option existed holds all of these and replays with the default.
MISSION_OPTIONS: Final = frozenset(
    ("map", "mode", "heroes", "red_force", "susceptible", "task", "buy_time", "win")
)


class ZeroDark(Ruleset):
    """Horizon Wars: Zero Dark on the FEAR grid (solo: the team against the umpire)."""

    id = "zero-dark"
    aliases = ("zerodark", "zd", "fear")
    version = "0.1.0"
    metadata = GameMetadata(
        name="Horizon Wars: Zero Dark (FEAR)",
        seats=(TEAM, "team1", "team2"),
        sides={TEAM: "heroes", "team1": "team1", "team2": "team2"},
        min_players=1,
        max_players=2,
        information="imperfect",
        simultaneous=True,  # Versus: the secret setup choices (ZD-B4)
        # At most 54 flips (108 with buying time), each after one activation of at most
        # 1 + M steps + a facing or stop, a tested action and its bonus actions.
        max_length=110 * 40,
        description=(
            "Close-quarters fighting in the dark: heroes move and turn on a grid with "
            "exact corner-line sight while the Control Deck drives hidden pings."
        ),
    )
    default_bots: ClassVar[Mapping[str, str]] = MappingProxyType(
        {TEAM: "zd-team", "team1": "zd-team", "team2": "zd-team"}
    )
    # A hero's move once activated: its steps, a door on the way (the automatic
    # action) and the facing it ends with. The search chooses the hero, its tested
    # action, the cards and the exits; the route is the heuristic's (docs/search.md).
    route_kinds: ClassVar[frozenset[str]] = frozenset({"step", "face", "stop", "door"})
    notation_help = """\
  activate H2         choose the hero who acts next
  move D7 E7 F8       several steps, then stop (up to M steps)
  step D7 / stop      one step / end the move here
  face NE             a new facing: the automatic action, or the end of a move
  door F3 e           open or close a door on an edge of the hero's square
  exit / verify B3    leave by the exit / verify the down Boss (Assassination)
  shoot B2            the tested action: also dotlight B2, interact, cautious, pass
  done                forgo the bonus actions left
  fight / persuade    a CQB against a susceptible bogey
  flip / play 7H      the Control Deck, or a card from the Spook's hand"""
    config_schema = ConfigSchema(
        (
            Option(
                "map",
                str,
                SHIPPED_MAPS[0],
                f"A shipped map ({', '.join(SHIPPED_MAPS)}) or a board file's path.",
                rule="FR-G2",
                file_suffix=".board",
                offered=SHIPPED_MAPS,
            ),
            Option(
                "map_digest",
                str,
                "",
                "The map file's digest, filled in when empty; a record keeps it, and a map "
                "file that no longer matches is refused.",
                rule="FR-G2",
                filled=True,
            ),
            Option(
                "mission",
                str,
                "",
                f"A mission (a shipped one: {', '.join(SHIPPED_MISSIONS)}; or a .mission "
                "file): it sets the map, the teams, the Red Force, the task and the win "
                "conditions (--set overrides).",
                rule="ZD-C8",
                file_suffix=".mission",
                offered=SHIPPED_MISSIONS,
            ),
            Option(
                "mode",
                str,
                "solo",
                "solo: the team against the umpire; versus: two teams (team1, team2).",
                choices=("solo", "versus"),
                rule="ZD-C9",
            ),
            Option("heroes", int, 4, "Heroes in a team.", minimum=1, maximum=6, rule="ZD-C2"),
            Option(
                "red_force",
                str,
                "grunt=5,elite=2,boss=1",
                "The Red Force's pings as tier=count (grunt, elite, boss, special).",
                rule="FR-P1",
            ),
            Option(
                "los_origin",
                str,
                "centre",
                "Where a corner line starts: the centre of the active square or any corner.",
                choices=("centre", "any_corner"),
                rule="FR-L2",
            ),
            Option(
                "diagonal_block",
                str,
                "either",
                "A diagonal step is illegal past anything impassable on either side "
                "(either) or only on both sides (both).",
                choices=("either", "both"),
                rule="FR-M4",
            ),
            Option(
                "engage_through_walls",
                bool,
                False,
                "Whether adjacent models with a wall between them are engaged.",
                rule="FR-S1",
            ),
            Option(
                "spook", bool, True, "H1 is a Spook (its hand, buying time, tasks).", rule="ZD-C7"
            ),
            Option(
                "buy_time",
                bool,
                False,
                "The Spook buys time: no hand; the first D flips are set aside as a second deck.",
                rule="ZD-B1",
            ),
            Option(
                "task",
                str,
                "none",
                "The Spook's priority task.",
                choices=TASKS,
                rule="ZD-T1",
            ),
            Option(
                "susceptible",
                str,
                "",
                "Bogey tiers susceptible to persuasion (comma-separated), besides flagged ones.",
                rule="ZD-P0",
            ),
            Option(
                "win",
                str,
                "objectives,survive",
                "The mission's win conditions, all needed: objectives, exit, extract, rescue, "
                "assassination, observation, acquisition, survive.",
                rule="ZD-C8",
            ),
            Option(
                "ally",
                str,
                ALLY_LINE,
                "A persuaded ally's stat line: M, F, A, D (1-12), AV (0-8), optional Cyl.",
                rule="ZD-P5",
            ),
            Option(
                "rescue_excludes_synthetic",
                bool,
                True,
                "The Rescue task's double agent is never a Synthetic bogey.",
                rule="ZD-T3",
            ),
        )
    )

    action_forms: ClassVar[Mapping[str, tuple[str, str | None]]] = MappingProxyType(
        {
            "prepare": ("a task and hand or buy: prepare rescue hand", "ZD-B4"),
            "activate": ("one hero or ally: activate H2", "ZD-C9"),
            "step": ("one square: step D7", "FR-M1"),
            "face": ("one facing, NE, SE, SW or NW: face NE", "FR-L5"),
            "door": ("a square and a side: door F3 e", "ZD-C2"),
            "shoot": ("one target: shoot B2", "ZD-C3"),
            "dotlight": ("one target: dotlight B2", "ZD-L1"),
            "verify": ("the down Boss: verify B3", "ZD-T4"),
            "play": ("a card of the Spook's hand: play 7H", "ZD-C7"),
            "stop": ("nothing: it ends the move where the hero stands", "ZD-C2"),
            "exit": ("nothing: the hero leaves by the exit square it is on", "ZD-C8"),
            "interact": ("nothing: the objective or dead-drop next to the hero", "ZD-C10"),
            "cautious": ("nothing: an A(10) test", "ZD-C10"),
            "pass": ("nothing: no tested action", "ZD-C2"),
            "done": ("nothing: the bonus actions left are forgone", "ZD-C2"),
            "fight": ("nothing: the hero fights this CQB with D", "ZD-C5"),
            "persuade": ("nothing: the hero persuades with A", "ZD-P1"),
            "flip": ("nothing: the Control Deck's top card", "ZD-C6"),
        }
    )

    def resolve_config(self, config: Mapping[str, Any] | None = None) -> Config:
        """The options, with a mission's settings under what was given explicitly; the
        text options are checked here, and so are the options against one another
        (:func:`~.state.options.check_consistent`, the checks a mission file gets): one-
        line :class:`RulesError` errors saying what is allowed. An empty ``map_digest``
        is filled in with the digest of the map's text, so that a record of a map file
        replays exactly or is refused by :meth:`new_game` once the file has changed; the
        map itself is checked when a game is made."""
        given = dict(config or {})
        name = given.get("mission") or ""
        # A resolved configuration (a record's) already holds every option a mission
        # sets, and those win over the mission's: the mission file is not read again, so
        # a record replays where its mission file is not (another folder, machine).
        if isinstance(name, str) and name and not given.keys() >= MISSION_OPTIONS:
            try:
                mission = load_mission(name)
            except LookupError as exc:  # an unknown name: one line, with the choices
                raise RulesError(str(exc).strip("'\"")) from None
            given = {**mission.config(), **given}
        cfg = super().resolve_config(given)
        specs = parse_red_force_specs(str(cfg["red_force"]))
        parse_susceptible(str(cfg["susceptible"]))
        win = parse_win(str(cfg["win"]))
        parse_ally(str(cfg["ally"]))
        check_consistent(
            mode=str(cfg["mode"]),
            spook=bool(cfg["spook"]),
            task=str(cfg["task"]),
            buy_time=bool(cfg["buy_time"]),
            win=win,
            specs=specs,
            rescue_excludes_synthetic=bool(cfg["rescue_excludes_synthetic"]),
        )
        if cfg["mode"] == "versus":
            # Refused with the options, not at the first game (an RL environment is
            # made from them long before its first reset).
            try:
                board = map_for(str(cfg["map"]))
            except (RulesError, BadDataError):
                board = None  # a map that does not load: new_game says why
            if board is not None:
                require_zone(board, "heroes2", named=str(cfg["map"]))
        if not digest_option(str(cfg["map_digest"])):
            try:
                digest = map_digest(str(cfg["map"]))
            except (RulesError, BadDataError):
                digest = ""  # a map that does not load: new_game says why
            if digest:
                cfg = Config({**cfg, "map_digest": digest})
        return cfg

    def board(self, config: Mapping[str, Any] | None = None) -> Board:
        """The map of a configuration (FR-G2), or a one-line :class:`RulesError`; a
        :class:`BadDataError` naming the file when it no longer has the configuration's
        ``map_digest`` (it changed since the record was made)."""
        cfg = self.resolve_config(config)
        check_map_digest(str(cfg["map"]), str(cfg["map_digest"]))
        return map_for(str(cfg["map"]))

    def seats(self, config: Mapping[str, Any] | None = None) -> tuple[str, ...]:
        mode = self.resolve_config(config)["mode"]
        return (TEAM,) if mode == "solo" else ("team1", "team2")

    def umpire_sides(self, config: Mapping[str, Any] | None = None) -> tuple[str, ...]:
        """A failed solo mission is the Red Force's win (ZD-C8); a Versus one is won by a
        team or nobody."""
        return ("red force",) if self.resolve_config(config)["mode"] == "solo" else ()

    def players_config(self, players: int, given: Mapping[str, Any]) -> dict[str, Any]:
        """One player is the solo game (the team against the umpire), two are Versus
        (``mode``). With neither a mission nor a map given, two players get the shipped
        Versus mission (``dead-drop``): the default map has no second team's zone."""
        self.check_player_count(players)
        if players == 1:
            return {"mode": "solo"}
        if given.get("mission") or given.get("map"):
            return {"mode": "versus"}
        return {"mode": "versus", "mission": "dead-drop"}

    def board_json(self, config: Mapping[str, Any]) -> JSON:
        """The map for the web table's drawing: its terrain, walls and doors as the board
        file places them (every fact of it public; models come from the views)."""
        return board_json(self.board(config))

    def new_game(self, config: Mapping[str, Any] | None = None, seed: int | str = 0) -> State:
        cfg = self.resolve_config(config)  # bad options fail before the map loads
        return ZeroDarkState(self, cfg, self.board(cfg), seed)

    def observation_encoder(self, config: Mapping[str, Any] | None = None) -> ObservationEncoder:
        """Board planes of a seat's view on ``config``'s map
        (:class:`.encoder.ZeroDarkEncoder`), one encoder per map."""
        name = str(self.resolve_config(config)["map"])
        board = map_for(name)  # a map file changed on disk is loaded again
        cache: dict[str, ZeroDarkEncoder] = self.__dict__.setdefault("_observation_encoders", {})
        found = cache.get(name)
        if found is None or found.board is not board:
            found = cache[name] = ZeroDarkEncoder(board)
        return found

    def view(self, state: State, seat: str | None) -> PlayerView:
        """The observer: ``seat``'s view of ``state``, built from what it may know
        (:mod:`.observer`)."""
        return build_view(state, seat)  # type: ignore[arg-type]

    def sample_world(self, view: PlayerView, stream: Stream) -> State:
        """A full state consistent with ``view``: what the pings hide, the other team's
        secrets, the deck's order and the rolls to come drawn from ``stream``
        (:mod:`.worlds`)."""
        from .worlds import sample_world

        return sample_world(self, view, stream)

    def world_sampler(self, view: PlayerView) -> WorldSampler:
        """Worlds from ``view`` as :meth:`sample_world` draws them, the table the view
        shows laid out once for them all (:func:`.worlds.sample_kept`)."""
        from .worlds import sample_kept

        return KeptSampler(sample_kept, self, view)

    def odds_queries(self) -> Sequence[OddsQuery]:
        """The rolls whose exact odds ``fogofwar odds`` gives (see :mod:`.odds`)."""
        return QUERIES

    def evaluation(self, config: Mapping[str, Any]) -> Evaluation:
        """The heroes' chance (solo; Versus: team1's) from the mission's progress, the
        heroes left, the Control Deck's cards to come and the steps to the next goal
        (:mod:`.evaluation`). Each shipped mission has weights of its own (one fit to
        both solo missions predicts each worse held out), any other configuration the
        generic solo or Versus ones."""
        return evaluation_for(self.resolve_config(config))

    def missions(self) -> Mapping[str, str]:
        out = {}
        for name in SHIPPED_MISSIONS:
            m = load_mission(name)
            task = f", task {m.task}" if m.mode == "solo" and m.task != "none" else ""
            out[name] = f"{m.name}: {m.mode}, {m.heroes} heroes on {m.map}{task}"
        return out

    def data_formats(self) -> Sequence[DataFormat]:
        """Maps (board files validated as Zero Dark maps) and mission files."""
        data = resources.files("fogofwar").joinpath("data")

        def samples(folder: str, names: Sequence[str]) -> dict[str, str]:
            return {n: data.joinpath(folder, n).read_text(encoding="utf-8") for n in names}

        return (
            DataFormat(
                "a Zero Dark map",
                samples("zero-dark", [f"{m}.board" for m in SHIPPED_MAPS]),
                lambda text, file: validate_map(parse_board(text, file=file)),
            ),
            DataFormat(
                "a Zero Dark mission file",
                samples("zero-dark", [f"{m}.mission" for m in SHIPPED_MISSIONS]),
                lambda text, file: parse_mission(text, file=file),
            ),
        )

    def encoding(self, config: Mapping[str, Any] | None = None) -> ActionEncoding:
        """Every action a mission of ``config`` can offer: the heroes of both teams
        (``H1`` … ``H12``), every ally and bogey id a mission can reach (:data:`MAX_ALLIES`,
        :data:`MAX_BOGEYS`), and as targets of ``shoot`` and ``dotlight`` the bogeys and,
        in Versus, the other team's heroes and allies (ZD-C9)."""
        cfg = self.resolve_config(config)
        board = self.board(cfg)
        names = [sq.name for sq in board.squares()]
        heroes = [f"H{i}" for i in range(1, 2 * MAX_HEROES + 1)]
        allies = [f"A{i}" for i in range(1, MAX_ALLIES + 1)]
        templates: list[tuple[str, tuple[int | str, ...]]] = [("activate", (h,)) for h in heroes]
        templates += [("prepare", (t, b)) for t in TASKS for b in ("hand", "buy")]
        templates += [("step", (n,)) for n in names]
        templates += [("face", (f,)) for f in FACINGS]
        templates += [("door", tuple(e.name.split())) for e in sorted(board.doors)]
        templates += [("stop", ()), ("exit", ()), ("done", ()), ("pass", ()), ("cautious", ())]
        templates += [("interact", ()), ("fight", ()), ("persuade", ()), ("flip", ())]
        templates += [("activate", (a,)) for a in allies]
        bogeys = [f"B{i}" for i in range(1, MAX_BOGEYS + 1)]
        targets = bogeys + (heroes + allies if cfg["mode"] != "solo" else [])
        templates += [("shoot", (t,)) for t in targets] + [("dotlight", (t,)) for t in targets]
        templates += [("verify", (b,)) for b in bogeys]
        templates += [("play", (c.to_json(),)) for c in playing_cards(jokers=True)]
        return ActionEncoding(templates)

    def describe_event(self, event: Mapping[str, Any]) -> str | None:
        return event_sentence(event)

    def screen(self, view: PlayerView, config: Mapping[str, Any]) -> Screen:
        return screen_view(view, self.resolve_config(config))

    def render(self, view: PlayerView, config: Mapping[str, Any]) -> object:
        """The map with the models ``view``'s seat knows of, and the last events."""
        return render_view(view, self.resolve_config(config))

    def parse_actions(self, text: str, seat: str, state: State) -> list[Action]:
        """Notation: ``activate H2``, ``step D7``, ``move D7 E7 F8`` (steps, then
        ``stop``), ``face NE``, ``door F3 e``, ``stop`` … (``notation_help``); words in
        any case. Any text gives actions (which may still be illegal now) or raises
        :class:`InvalidNotationError` saying what was expected."""
        words = text.split()
        if not words:
            raise InvalidNotationError(text, "expected an action (help lists them)")
        kind = words[0].lower()
        args = words[1:]
        if kind not in _KINDS:
            known = ", ".join(_KINDS)
            # The error quotes a long input around the problem itself (``quoted``).
            raise InvalidNotationError(
                text,
                f"expected an action word: {known}; not {_short(words[0])}",
                position=0,
            )
        arity, form = _KINDS[kind]
        if (arity < 0 and not args) or (arity >= 0 and len(args) != arity):
            took = "no argument" if arity == 0 else "one or more squares" if arity < 0 else None
            what = took or f"{arity} argument{'s' if arity > 1 else ''}"
            raise InvalidNotationError(
                text, f"{kind} takes {what}: {form}", position=text.index(words[0])
            )
        if kind == "move":
            return [Action(seat, "step", (w.upper(),)) for w in args] + [Action(seat, "stop")]
        if kind == "prepare":
            return [Action(seat, kind, (args[0].lower(), args[1].lower()))]
        if kind == "door":
            return [Action(seat, kind, (args[0].upper(), args[1].lower()))]
        return [Action(seat, kind, tuple(w.upper() for w in args))]

    def board_marks(self, board: Board) -> dict[Square, str] | None:
        """The models of a map file on every square each covers (a Cyl 6+ model on its
        2×2 block, FR-C1), or ``None`` where its pieces are not Zero Dark models."""
        try:
            models = models_of(board)
        except BadDataError:
            return None
        return {sq: m.id[:3] for m in models for sq in m.squares}

    def explain_sight(
        self, board: Board, viewer: str, target: str, config: Mapping[str, Any]
    ) -> SightExplanation:
        return explain_sight(board, viewer, target, config)

    def explain_view_sight(
        self, view: PlayerView, config: Mapping[str, Any], viewer: str, target: str
    ) -> SightExplanation:
        cfg = self.resolve_config(config)
        return explain_view(view.data, self.board(cfg), cfg, viewer, target)

    def sight_json(self, config: Mapping[str, Any], view: PlayerView, square: str) -> JSON:
        """What ``view``'s seat would see from ``square`` (the web table's map shows it
        when a square is hovered): the squares in LOS all round, those obscured, and for
        a model standing there its field of view, from the map and the view alone
        (:mod:`.seat_sight`); a square off the map or impassable answers with an
        ``"error"`` and no squares."""
        cfg = self.resolve_config(config)
        return seat_sight(view.data, map_for(str(cfg["map"])), cfg, square)

    def yes_no_metrics(self, config: Mapping[str, Any] | None = None) -> frozenset[str] | None:
        """The mission's success and its task's; the rest are counts."""
        return frozenset({"success", "task_success"})

    def metrics(self, state: State) -> dict[str, float]:
        """Per-mission figures for balance studies (ZD-C8): the result, the task's
        success (1/0; left out without a task, so that it is never averaged in), XP
        gained, cards left, heroes lost, turns, flips and pings turned over."""
        if not isinstance(state, ZeroDarkState):
            return {}
        report = state.report
        # A task's success: not yet (0) before the report; left out without a task.
        task = (
            (False if state.task != "none" else None) if report is None else report["task_success"]
        )
        xp = {} if report is None else report["xp"]
        return {
            "success": 1.0 if report is not None and report["result"] == "success" else 0.0,
            **({} if task is None else {"task_success": float(bool(task))}),
            "xp": float(sum(sum(n for _, n in v["gained"]) for v in xp.values())),
            "cards_left": float(len(state.deck)),
            "heroes_lost": float(0 if report is None else len(report["lost"])),
            "turns": float(state.turn),
            "flips": float(state.flips),
            "pings_revealed": float(len(state.revealed)),
        }


def _short(text: str, limit: int = 60) -> str:
    """``text`` cut to ``limit`` characters for a message (a long input stays one line)."""
    return text if len(text) <= limit else text[: limit - 1] + "…"
