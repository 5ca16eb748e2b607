"""The ``zero-dark`` rule set: metadata, options, action encoding, metrics."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, ClassVar, Final

from ...core.cards import playing_cards
from ...core.errors import InvalidNotationError, RulesError
from ...core.game import (
    Action,
    ActionEncoding,
    Config,
    ConfigSchema,
    GameMetadata,
    Option,
    PlayerView,
    Ruleset,
    SightExplanation,
    State,
)
from ...core.grid import Board
from .fear import FACINGS
from .maps import SHIPPED_MAPS, load_map
from .profiles import TASKS
from .state import TEAM, ZeroDarkState, parse_red_force

MAX_BOGEYS = 60
"""Bogey ids the action encoding covers (B1…): pings turned over and complications."""

MAX_ALLIES = 10

__all__ = ["ZeroDark"]


#: The options a mission sets (:meth:`fogofwar.games.zero_dark.missions.Mission.config`).
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
        chance="explicit",
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
            ),
            Option(
                "mission",
                str,
                "",
                "A mission (a shipped one's name or a .mission file): it sets the map, the "
                "teams, the Red Force, the task and the win conditions (--set overrides).",
                rule="ZD-C8",
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
                "rescue_excludes_synthetic",
                bool,
                True,
                "The Rescue task's double agent is never a Synthetic bogey.",
                rule="ZD-T3",
            ),
        )
    )

    def resolve_config(self, config: Mapping[str, Any] | None = None) -> Config:
        """The options, with a mission's settings under what was given explicitly."""
        given = dict(config or {})
        name = str(given.get("mission") or "")
        # A resolved configuration (a record's) already holds every option a mission
        # sets, and those win over the mission's: the mission file is not read again, so
        # a record replays where its mission file is not (another folder, machine).
        if name and not given.keys() >= MISSION_OPTIONS:
            from .missions import load_mission

            try:
                mission = load_mission(name)
            except LookupError as exc:  # an unknown name: one line, with the choices
                raise RulesError(str(exc).strip("'\"")) from None
            given = {**mission.config(), **given}
        return super().resolve_config(given)

    def seats(self, config: Mapping[str, Any] | None = None) -> tuple[str, ...]:
        mode = self.resolve_config(config)["mode"]
        return (TEAM,) if mode == "solo" else ("team1", "team2")

    def new_game(self, config: Mapping[str, Any] | None = None, seed: int | str = 0) -> State:
        cfg = self.resolve_config(config)
        parse_red_force(str(cfg["red_force"]))  # a bad option fails before the map loads
        return ZeroDarkState(self, cfg, load_map(str(cfg["map"])), seed)

    def encoding(self, config: Mapping[str, Any] | None = None) -> ActionEncoding:
        cfg = self.resolve_config(config)
        board = load_map(str(cfg["map"]))
        names = [sq.name for sq in board.squares()]
        templates: list[tuple[str, tuple[int | str, ...]]] = [
            ("activate", (f"H{i + 1}",)) for i in range(12)
        ]
        templates += [("prepare", (t, b)) for t in TASKS for b in ("hand", "buy")]
        templates += [("step", (n,)) for n in names]
        templates += [("face", (f,)) for f in FACINGS]
        templates += [("door", tuple(e.name.split())) for e in sorted(board.doors)]
        templates += [("stop", ()), ("exit", ()), ("done", ()), ("pass", ()), ("cautious", ())]
        templates += [("interact", ()), ("fight", ()), ("persuade", ()), ("flip", ())]
        templates += [("activate", (f"A{i}",)) for i in range(1, MAX_ALLIES + 1)]
        bogeys = [f"B{i}" for i in range(1, MAX_BOGEYS + 1)]
        templates += [("shoot", (b,)) for b in bogeys] + [("dotlight", (b,)) for b in bogeys]
        templates += [("verify", (b,)) for b in bogeys]
        templates += [("play", (c.to_json(),)) for c in playing_cards(jokers=True)]
        return ActionEncoding(templates)

    def render(self, view: PlayerView, config: Mapping[str, Any]) -> object:
        """The map with the models ``view``'s seat knows of, and the last events."""
        from .render import render_view

        return render_view(view.data, load_map(str(self.resolve_config(config)["map"])))

    def parse_actions(self, text: str, seat: str, state: State) -> list[Action]:
        """Notation: ``activate H2``, ``step D7``, ``move D7 E7 F8`` (steps, then
        ``stop``), ``face NE``, ``door F3 e``, ``stop``."""
        words = text.split()
        if words and words[0].lower() == "move":
            if len(words) < 2:
                raise InvalidNotationError(text, "move needs squares: move D7 E7", position=0)
            return [Action(seat, "step", (w.upper(),)) for w in words[1:]] + [Action(seat, "stop")]
        if words and words[0].lower() in ("step", "face", "activate"):
            return [Action(seat, words[0].lower(), tuple(w.upper() for w in words[1:]))]
        return super().parse_actions(text, seat, state)

    def explain_sight(
        self, board: Board, viewer: str, target: str, config: Mapping[str, Any]
    ) -> SightExplanation:
        from .explain import explain_sight

        return explain_sight(board, viewer, target, config)

    def explain_view_sight(
        self, view: PlayerView, config: Mapping[str, Any], viewer: str, target: str
    ) -> SightExplanation:
        from .explain import explain_view

        cfg = self.resolve_config(config)
        return explain_view(view.data, load_map(str(cfg["map"])), cfg, viewer, target)

    def metrics(self, state: State) -> dict[str, float]:
        """Per-mission figures for balance studies (ZD-C8): the result, the task's
        success (1/0; -1 without a task), XP gained, cards left, heroes lost, turns, flips
        and pings turned over."""
        if not isinstance(state, ZeroDarkState):
            return {}
        report = state.report or {}
        task = report.get("task_success")
        xp = report.get("xp", {})
        return {
            "success": 1.0 if report.get("result") == "success" else 0.0,
            "task_success": -1.0 if task is None else float(bool(task)),
            "xp": float(sum(sum(n for _, n in v["gained"]) for v in xp.values())),
            "cards_left": float(len(state.deck)),
            "heroes_lost": float(len(report.get("lost", []))),
            "turns": float(state.turn),
            "flips": float(state.flips),
            "pings_revealed": float(len(state.revealed)),
        }
