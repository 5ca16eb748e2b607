"""The ``specter-ops`` rule set: metadata, options, action encoding, notation, metrics."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from importlib import resources
from types import MappingProxyType
from typing import Any, ClassVar, cast

from ...core.errors import IllegalActionError, InvalidNotationError
from ...core.game import (
    JSON,
    Action,
    ActionEncoding,
    ConfigSchema,
    DataFormat,
    Evaluation,
    GameMetadata,
    ObservationEncoder,
    Option,
    PlayerView,
    Ruleset,
    Screen,
    State,
    WorldSampler,
)
from ...core.grid import board_json, parse_board
from ...core.odds import OddsQuery
from ...core.rng import Stream
from .characters import AGENTS, CARDS, HUNTERS
from .encoder import SpecterOpsEncoder
from .geometry import build_geometry, geometry_for
from .observer import build_view
from .odds import QUERIES
from .render import event_sentence, render_view, screen_view
from .state import AGENT, FIGURES, HUNTER_SEATS, Kind, Phase, SpecterOpsState, seats_for

__all__ = ["SpecterOps"]


class SpecterOps(Ruleset):
    """Specter Ops: one hidden agent against hunters on a 23×32 grid."""

    id = "specter-ops"
    aliases = ("specterops", "so")
    version = "0.1.0"
    metadata = GameMetadata(
        name="Specter Ops",
        seats=(AGENT, *HUNTER_SEATS),
        sides={AGENT: "agent", **{s: "hunters" for s in HUNTER_SEATS}},
        min_players=2,
        max_players=5,
        information="imperfect",
        simultaneous=False,
        # At most 200 rounds (max_rounds' maximum), each at most 5 agent actions and,
        # per hunter, a choice, 10 drives or 4 steps, a stop, an attack or end.
        max_length=200 * (5 + 4 * 14) + 100,
        description=(
            "Hidden movement: a secret agent completes objectives and escapes while "
            "hunters search with sight, a vehicle, a motion sensor and dice attacks."
        ),
    )
    default_bots: ClassVar[Mapping[str, str]] = MappingProxyType(
        {AGENT: "so-agent", **{s: "so-hunter" for s in HUNTER_SEATS}}
    )
    # The hunters' single steps are compared on common worlds (docs/search.md): the
    # tree's choices were no better than so-hunter's at the studies' budget.
    level_search: ClassVar[Mapping[str, str]] = MappingProxyType(
        {s: "root=paired" for s in HUNTER_SEATS}
    )
    notation_help = """\
  move N1 N2 M3   several steps (then stop if the move does not end by itself)
  step N2 / stop  one step / end the move here
  drive K18 K19   drive the vehicle        sensor / sniff / attack / end
  next H2         choose the hunter who acts next
  use flash-bang K5, character cobra, card adrenal-surge, done   (characters)
  traitor H3, accuse H2, reveal, attack A2                         (traitor game)"""
    action_forms: ClassVar[Mapping[str, tuple[str, str | None]]] = {
        "step": ("one neighbouring square of the board, e.g. step N2", "SO-A1"),
        "stop": ("no arguments: it ends the move where the figure stands", "SO-A1"),
        "drive": ("one road square next to the vehicle, e.g. drive K18", "SO-V1"),
        "next": ("the hunter to act next, H1 to H4", "SO-R1"),
        "sensor": ("no arguments", "SO-V5"),
        "sniff": ("no arguments (the Beast, after moving 3 or fewer steps)", "SO-H2"),
        "attack": ("no arguments, or the agent attacked (A1 or A2) in the traitor game", "SO-H2"),
        "end": ("no arguments: it ends the hunter's turn", "SO-R1"),
        "done": ("no arguments: it ends the agent's turn", "SO-A7"),
        "traitor": ("the hunter dealt the traitor card, H1 to H4", "SO-T2"),
        "accuse": ("the hunter accused, H1 to H4", "SO-T4"),
        "reveal": ("no arguments", "SO-T4"),
        "character": (
            "a character: the agent's (character cobra) or a hunter's (character H1 gun)",
            "SO-S4",
        ),
        "card": ("an equipment card, e.g. card adrenal-surge", "SO-S4"),
        "use": ("a card and, for some, its square or hunter: use flash-bang K5", "SO-A7"),
    }
    config_schema = ConfigSchema(
        (
            Option(
                "players",
                int,
                3,
                "Number of players (agent + hunter players).",
                minimum=2,
                maximum=5,
                rule="SO-G4",
            ),
            Option(
                "board",
                str,
                "specter-ops",
                "A built-in board's name or a board file's path.",
                rule="SO-B2",
                file_suffix=".board",
                offered=("specter-ops",),
            ),
            Option("max_rounds", int, 40, "The round limit.", minimum=1, maximum=200, rule="SO-R2"),
            Option(
                "characters",
                bool,
                True,
                "Play with characters and equipment (setup choices, abilities, cards); "
                "off: the base game.",
                rule="SO-S4",
            ),
            Option(
                "traitor",
                bool,
                True,
                "Play the 5-player game with a traitor (SO-T*).",
                rule="SO-G1",
            ),
            Option(
                "equipment_per_turn",
                int,
                1,
                "Equipment cards the agent may use per turn (2: one before, one after moving).",
                minimum=1,
                maximum=2,
                rule="SO-A7",
            ),
        )
    )

    def seats(self, config: Mapping[str, Any] | None = None) -> tuple[str, ...]:
        return seats_for(int(self.resolve_config(config)["players"]))

    def inert_options(self, config: Mapping[str, Any] | None = None) -> Mapping[str, str]:
        """``traitor`` below 5 players (SO-T1…T6 are the 5-player game) and
        ``equipment_per_turn`` without characters (no equipment in the base game)."""
        cfg = self.resolve_config(config)
        out = {}
        if int(cfg["players"]) != 5:
            out["traitor"] = f"the traitor plays only at 5 players (SO-T2), not {cfg['players']}"
        if not cfg["characters"]:
            out["equipment_per_turn"] = "the base game (characters=false) has no equipment"
        return out

    def side_notes(self, config: Mapping[str, Any] | None = None) -> Mapping[str, str]:
        """SO-T2, SO-T6: in the traitor game one hunter seat, dealt in secret, wins with
        the agent."""
        cfg = self.resolve_config(config)
        if int(cfg["players"]) != 5 or not cfg["traitor"]:
            return {}
        return {
            "agent": "and the traitor, a hunter seat dealt in secret (SO-T6)",
            "hunters": "less the traitor (SO-T6)",
        }

    def preview_kinds(self, config: Mapping[str, Any]) -> Mapping[str, frozenset[str]]:
        # While a figure moves, its next steps follow from the board, the figures every
        # seat sees and its own steps left: a step rolls nothing, and the agent's hidden
        # square blocks no hunter. A hunter's step is announced ("hunter_step"); the
        # agent's is silent. The step that ends a movement causes the answer (SO-E2)
        # or the agent's path event, and ends the trial there.
        return {"step": frozenset({"hunter_step"})}

    def board_json(self, config: Mapping[str, Any]) -> JSON:
        """The board for the web table's drawing: its squares, structures, roads and
        markers (sectors, objective sites, escape points) as the board file has them."""
        return board_json(geometry_for(str(self.resolve_config(config)["board"])).board)

    def new_game(self, config: Mapping[str, Any] | None = None, seed: int | str = 0) -> State:
        cfg = self.resolve_config(config)
        return SpecterOpsState(self, cfg, geometry_for(str(cfg["board"])), seed)

    def encoding(self, config: Mapping[str, Any] | None = None) -> ActionEncoding:
        cfg = self.resolve_config(config)
        geo = geometry_for(str(cfg["board"]))
        names = [geo.name(i) for i in range(geo.width * geo.height)]
        templates: list[tuple[str, tuple[int | str, ...]]] = [("step", (n,)) for n in names]
        templates += [("drive", (n,)) for n in names]
        templates += [("next", (f,)) for f in FIGURES]
        templates += [("stop", ()), ("sensor", ()), ("attack", ()), ("end", ())]
        templates += [("sniff", ()), ("done", ())]
        # The traitor game (SO-T2…T6): the deal, accusations, the reveal, two agents.
        templates += [("traitor", (f,)) for f in FIGURES]
        templates += [("accuse", (f,)) for f in FIGURES]
        templates += [("reveal", ()), ("attack", ("A1",)), ("attack", ("A2",))]
        templates += [("character", (f, h)) for f in FIGURES for h in HUNTERS]
        templates += [("character", (a,)) for a in AGENTS]
        templates += [("card", (c,)) for c in CARDS]
        for c in CARDS.values():
            if c.target == "square":
                templates += [("use", (c.id, n)) for n in names]
            elif c.target == "hunter":
                templates += [("use", (c.id, f)) for f in FIGURES]
            else:
                templates.append(("use", (c.id,)))
        return ActionEncoding(templates)

    def observation_encoder(self, config: Mapping[str, Any] | None = None) -> ObservationEncoder:
        """Board planes of a seat's view for ``config``'s board and player count
        (:class:`.encoder.SpecterOpsEncoder`), one encoder per board and count."""
        cfg = self.resolve_config(config)
        key = (str(cfg["board"]), int(cfg["players"]))
        cache: dict[tuple[str, int], ObservationEncoder] = self.__dict__.setdefault(
            "_observation_encoders", {}
        )
        if key not in cache:
            cache[key] = SpecterOpsEncoder(geometry_for(key[0]), key[1])
        return cache[key]

    def view(self, state: State, seat: str | None) -> PlayerView:
        """The observer: ``seat``'s view of ``state``, built from what it may know
        (:mod:`.observer`). Refusals are the state's phase table's (:mod:`.state.game`)."""
        return PlayerView(self.id, seat, build_view(cast(SpecterOpsState, state), seat))

    def sample_world(self, view: PlayerView, stream: Stream) -> State:
        """A full state consistent with ``view``: the hidden agent's square, kit, sites
        and the traitor drawn from what the seat's map allows, the rolls to come from a
        new seed (:mod:`.worlds`)."""
        from .worlds import sample_world

        return sample_world(self, view, stream)

    def world_sampler(self, view: PlayerView) -> WorldSampler:
        """Worlds from ``view`` as :meth:`sample_world` draws them, with what the view
        fixes worked out once (:class:`.worlds.SpecterOpsSampler`)."""
        from .worlds import SpecterOpsSampler

        return SpecterOpsSampler(self, view)

    def odds_queries(self) -> Sequence[OddsQuery]:
        """The rolls whose exact odds ``fogofwar odds`` gives (see :mod:`.odds`)."""
        return QUERIES

    def evaluation(self, config: Mapping[str, Any]) -> Evaluation:
        """The agent side's chance from a full state (:mod:`.evaluation`), for
        ``ismcts``'s ``depth``: one fitted model per player count, whose hunters, health
        and secret sites change the game (SO-G4, SO-F1, SO-S3)."""
        from .evaluation import agent_chance

        return agent_chance(self.resolve_config(config))

    def data_formats(self) -> Sequence[DataFormat]:
        """Board files, validated as Specter Ops boards (sectors, objective sites, escape
        points, the vehicle's road)."""
        folder = resources.files("fogofwar").joinpath("data", "specter-ops")
        name = "specter-ops.board"
        return (
            DataFormat(
                "a Specter Ops board file",
                {name: folder.joinpath(name).read_text(encoding="utf-8")},
                lambda text, file: build_geometry(parse_board(text, file=file)),
            ),
        )

    def yes_no_metrics(self, config: Mapping[str, Any] | None = None) -> frozenset[str] | None:
        """The game's results and the character chosen: 1 or 0 in every game."""
        return frozenset(
            {"agent_won", "escaped", "eliminated", "time_out", "traitor_revealed"}
            | {"agent2_escaped", "traitor_won"}
            | {f"agent_is_{char}" for char in AGENTS}
        )

    def metrics(self, state: State) -> dict[str, float]:
        if not isinstance(state, SpecterOpsState):
            return {}
        sq = state.geo.square(state.agents[0].square)
        out = {
            "agent_won": 1.0 if state.end_reason == "escaped" else 0.0,
            "rounds": float(state.round),
            "objectives": float(sum(state.done)),
            "escaped": 1.0 if state.end_reason == "escaped" else 0.0,
            "eliminated": 1.0 if state.end_reason == "eliminated" else 0.0,
            "time_out": 1.0 if state.end_reason == "time" else 0.0,
            "agent_health": float(state.agents[0].health),
            "end_row": float(sq.row + 1),
            "end_col": float(sq.col + 1),
        }
        if state.with_characters:
            # Per-character indicators: their means are how often each was chosen, and
            # a designer can split win rates by character.
            a1 = state.agents[0]
            for char in AGENTS:
                out[f"agent_is_{char}"] = 1.0 if a1.character == char else 0.0
            out["card_uses"] = float(sum(CARDS[c].uses - left for c, left in a1.cards.items()))
        if state.traitor_game:
            # SO-T4…T6: how often the traitor is found, how, and what it saw for the agent.
            out["traitor_revealed"] = 1.0 if state.traitor_revealed else 0.0
            out["concealed_sightings"] = float(len(state.concealed))
            out["accusations"] = float(len(state.accused))
            out["failed_accusations"] = float(state.failed_accusations)
            out["agent2_escaped"] = (
                1.0 if len(state.agents) == 2 and state.agents[1].escaped else 0.0
            )
            # The traitor wins with the agent's side (SO-T2), while a batch's table lists
            # its seat under the hunters it started with: its own rate, by role.
            outcome = state.outcome()
            traitor_seat = f"hunter{state.traitor[1:]}" if state.traitor else None
            out["traitor_won"] = (
                1.0 if outcome is not None and traitor_seat in outcome.winners else 0.0
            )
        return out

    def describe_event(self, event: Mapping[str, Any]) -> str | None:
        return event_sentence(event)

    def screen(self, view: PlayerView, config: Mapping[str, Any]) -> Screen:
        return screen_view(view, self.resolve_config(config))

    def render(self, view: PlayerView, config: Mapping[str, Any]) -> object:
        """The board with what ``view``'s seat knows (shaded possibility map), its facts
        and this round's events (see :mod:`.render`)."""
        return render_view(view, self.resolve_config(config))

    def parse_actions(self, text: str, seat: str, state: State) -> list[Action]:
        """Parse notation: ``step N2``, ``move N1 N2 M3`` (steps, then ``stop`` if the move
        does not end by itself), ``drive K18 K19``, ``order H2 H1``, ``next H2``,
        ``stop``, ``sensor``, ``attack`` (``attack A2`` with two agents), ``end``, and in
        the traitor game ``traitor H3`` (the agent's deal), ``accuse H2``, ``reveal``.

        The expansion is checked on a copy of the game, so a bad step is reported with
        its reason before anything is played.
        """
        words = text.split()
        if not words:
            raise InvalidNotationError(text, "expected an action")
        # Where each word starts: an error quotes the whole line and points into it.
        starts = [m.start() for m in re.finditer(r"\S+", text)]
        verb, args = words[0].lower(), words[1:]
        if verb == "attack" and [a.upper() for a in args] in (["A1"], ["A2"]):
            return [Action(seat, verb, (args[0].upper(),))]  # two agents (SO-T5)
        if verb in ("traitor", "accuse"):
            if len(args) != 1:
                raise InvalidNotationError(text, f"{verb} names one figure, e.g. '{verb} H2'")
            return [Action(seat, verb, (args[0].upper(),))]
        if verb in ("stop", "sensor", "attack", "end", "pass", "sniff", "done", "reveal"):
            if args:
                raise InvalidNotationError(
                    text,
                    f"{verb} takes no squares" + (" (only A1 or A2)" if verb == "attack" else ""),
                    position=starts[1],
                )
            return [Action(seat, "end" if verb == "pass" else verb)]
        if verb in ("character", "card", "use"):
            if not args:
                raise InvalidNotationError(text, f"{verb} needs what it names")
            return [Action(seat, verb, tuple(_name_arg(a) for a in args))]
        if verb in ("next", "order"):
            if len(args) != 1:
                raise InvalidNotationError(
                    text,
                    "the hunters choose who acts next one figure at a time, e.g. 'next H2' "
                    "(the others choose after seeing what it did)",
                )
            return [Action(seat, "next", (args[0].upper(),))]
        if verb not in ("step", "move", "drive"):
            raise InvalidNotationError(
                text,
                "expected step, move, drive, next, order, stop, sensor, attack, use, end, "
                "character, card, traitor, accuse or reveal (write an action as the "
                "legal actions are listed)",
                position=starts[0],
            )
        if not args:
            raise InvalidNotationError(text, f"{verb} needs at least one square")
        if not isinstance(state, SpecterOpsState):
            raise InvalidNotationError(text, "not a Specter Ops game")
        geo = state.geo
        squares = []
        for word, at in zip(args, starts[1:], strict=True):
            try:
                squares.append(geo.name(geo.parse(word.upper())))
            except InvalidNotationError as exc:
                # The board knows the word alone: quote the line, at the word's column.
                raise InvalidNotationError(
                    text, exc.reason, position=at + (exc.position or 0)
                ) from None
        kind = Kind.DRIVE.value if verb == "drive" else Kind.STEP.value
        here = _mover_square(state, seat)
        if verb == "move" and here is not None and squares[0] == geo.name(here):
            squares = squares[1:]  # `move N1 N2 M3` names the start square too
        out = [Action(seat, kind, (s,)) for s in squares]
        if verb == "step":
            return out
        trial = state.clone()
        for n, a in enumerate(out):
            trial.apply(a)  # raises IllegalActionError with the reason and rule
            if seat not in trial.to_act() or trial.phase not in (Phase.AGENT, Phase.HUNTER):
                if n + 1 < len(out):
                    limit_rule = (
                        "SO-V1" if kind == Kind.DRIVE else "SO-A1" if seat == AGENT else "SO-H1"
                    )
                    raise IllegalActionError(
                        out[n + 1],
                        f"the move ended after {n + 1} steps",
                        seat=seat,
                        rule=limit_rule,
                    )
                return out
        stop = Action(seat, Kind.STOP.value)
        if trial.is_legal(stop):
            out.append(stop)
        else:
            reason, rule = trial.explain_illegal(stop)
            raise IllegalActionError(stop, reason, seat=seat, rule=rule)
        return out


def _name_arg(word: str) -> str:
    """Normalise a word of notation: card and character ids in lower case, hunter
    figures and squares in upper case."""
    low = word.lower()
    if low in CARDS or low in AGENTS or low in HUNTERS:
        return low
    return word.upper()


def _mover_square(state: SpecterOpsState, seat: str) -> int | None:
    if state.phase in (Phase.AGENT, Phase.AGENT_AFTER) and seat == state.focus.seat:
        return state.focus.path[-1]
    if state.current is not None:
        h = state.hunters[state.current]
        return state.vehicle if h.aboard else h.square
    return None
