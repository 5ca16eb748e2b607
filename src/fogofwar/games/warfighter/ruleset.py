"""The ``warfighter`` rule set: metadata, options, action encoding, notation, metrics."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import lru_cache
from types import MappingProxyType
from typing import Any, ClassVar, cast

from ...core.errors import BadDataError, InvalidNotationError, RulesError
from ...core.files import check_digest_option
from ...core.game import (
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
    State,
    WorldSampler,
    plain_event,
)
from ...core.odds import OddsQuery
from ...core.rng import Stream
from .cardfile import (
    LIBRARY_FILE,
    MAX_LIST,
    SHIPPED_MISSIONS,
    check_mission_name,
    merge,
    parse_cards,
    read_mission,
)
from .cards import CardLibrary, CheckCard, MissionCard
from .encoder import WarfighterEncoder
from .observer import build_view
from .odds import QUERIES
from .render import event_line, render_view
from .state import SEAT, SHAPES, WarfighterState, shape_error
from .state.pieces import HOSTILES

__all__ = [
    "ENCODING_LIMIT",
    "MAX_CHECKS",
    "MAX_HOSTILES",
    "MAX_LINE_ACTIONS",
    "MAX_NOTATION",
    "Warfighter",
    "capacity",
    "mission_of",
]

#: The least number of Hostile ids (H1…) and check ids (K1…) the action encoding covers;
#: a mission that can put more in play gets a larger encoding (see :func:`capacity`).
MAX_HOSTILES = 40
MAX_CHECKS = 40
#: The most Hostiles, and the most checks, a mission may put in play: beyond this a
#: mission file is refused on load (the action encoding would grow without use).
ENCODING_LIMIT = MAX_LIST
_SOLDIERS = 6
#: The most actions one line of notation may hold (a whole Soldier Turn of the largest
#: squad, and some: 6 Soldiers of at most 6 Actions, plus rolls and ``end``).
MAX_LINE_ACTIONS = 100
#: The most characters of one line of notation.
MAX_NOTATION = 4000
#: One word of the notation: an id (``S1``, ``H12``, ``K3``, ``L2``) or a word (``door``,
#: ``up``); what the action takes is checked by the rules (with its rule ID).
_WORD_RE = re.compile(r"[A-Za-z][A-Za-z0-9]{0,11}", re.ASCII)


@lru_cache(maxsize=32)
def _load(name: str) -> tuple[MissionCard, CardLibrary, str]:
    found = read_mission(name)
    # Checked once with the reading (a refusal raises and is not kept): every new game,
    # configuration and sampled world of a mission loads it again.
    capacity(found[0], found[1])
    return found


def _load_mission(name: str) -> tuple[MissionCard, CardLibrary, str]:
    check_mission_name(name)
    shipped = name.lower() in SHIPPED_MISSIONS
    try:
        # Shipped missions are read once; a file is read again (it may have changed).
        found = _load(name) if shipped else read_mission(name)
    except LookupError as exc:
        raise RulesError(str(exc)) from None
    except OSError as exc:
        raise BadDataError(name, f"a readable mission file ({exc.strerror})") from None
    if not shipped:
        capacity(found[0], found[1])  # refuse a mission the encoding cannot cover
    return found


def mission_of(config: Mapping[str, Any]) -> tuple[MissionCard, CardLibrary]:
    """The mission a configuration names, with its card library.

    Raises:
        RulesError: no such shipped mission (a :class:`BadDataError` for a bad file, a
            mission past :data:`ENCODING_LIMIT`, or a mission file whose text no longer
            has the configuration's ``mission_digest``: it changed since the record was
            made).
    """
    mission, library, digest = _load_mission(str(config["mission"]))
    given = _check_digest(str(config.get("mission_digest", "")))
    if given and given != digest:
        raise BadDataError(
            mission.file,
            f"the mission file as it was when the record was made (digest {given})",
            found=f"digest {digest}: the file changed since the record was made",
        )
    return mission, library


def _check_digest(given: str) -> str:
    """The ``mission_digest`` option: empty, or 16 lowercase hex digits (a digest this
    rule set wrote), else :class:`RulesError`."""
    return check_digest_option("mission_digest", given)


def capacity(mission: MissionCard, library: CardLibrary) -> tuple[int, int]:
    """The most Hostiles and the most checks ``mission`` can put in play: its Locations'
    (the start, the Objective, the ``slots`` fullest of its deck), every Hostile card of
    the Hostile deck (each is drawn once at most: nothing reshuffles it), and what each
    ``add`` can bring, with the cards those bring (WF-C6).

    Raises:
        BadDataError: at the mission's line: cards that can ``add`` one another without
            end, or more than :data:`ENCODING_LIMIT` Hostiles or checks.
    """
    memo: dict[str, tuple[int, int]] = {}
    cap = ENCODING_LIMIT + 1  # past the limit, how far past does not matter

    def adds(checks: tuple[CheckCard, ...]) -> list[str]:
        # An upper bound: every heading's ``add``, not just the one a roll runs.
        return [
            e.target
            for check in checks
            for heading in check.headings
            for e in heading.effects
            if e.verb == "add"
        ]

    def hostile(name: str) -> tuple[int, int]:
        # Depth first without recursion: a chain of cards that add one another may be
        # as long as the file has Hostile cards, deeper than Python's stack.
        if name in memo:
            return memo[name]
        path = [name]
        on_path = {name}
        stack = [iter(adds(library.hostiles[name].checks))]
        while stack:
            child = next(stack[-1], None)
            if child is None:
                stack.pop()
                done = path.pop()
                on_path.discard(done)
                card = library.hostiles[done]
                below = [memo[c] for c in adds(card.checks)]
                memo[done] = (
                    min(cap, 1 + sum(b[0] for b in below)),
                    min(cap, len(card.checks) + sum(b[1] for b in below)),
                )
            elif child in on_path:
                raise BadDataError(
                    mission.file,
                    "Hostiles that cannot add one another without end",
                    line=mission.line,
                    found=" -> ".join((*path, child)),
                )
            elif child not in memo:
                path.append(child)
                on_path.add(child)
                stack.append(iter(adds(library.hostiles[child].checks)))
        return memo[name]

    def location(name: str) -> tuple[int, int]:
        card = library.locations[name]
        h = k = 0
        for n in [*adds(card.checks), *card.hostiles]:
            dh, dk = hostile(n)
            h, k = min(cap, h + dh), min(cap, k + dk)
        return h, min(cap, k + len(card.checks))

    parts = [location(mission.start), location(mission.objective)]
    parts += sorted((location(n) for n in mission.deck), reverse=True)[: mission.slots]
    parts += [hostile(n) for n in mission.hostile_deck]
    most_h = sum(p[0] for p in parts)
    most_k = sum(p[1] for p in parts)
    if max(most_h, most_k) > ENCODING_LIMIT:
        raise BadDataError(
            mission.file,
            f"a mission that puts at most {ENCODING_LIMIT} Hostiles and {ENCODING_LIMIT} "
            "checks in play (the action encoding's limit)",
            line=mission.line,
            found=f"{_upto(most_h)} Hostiles and {_upto(most_k)} checks",
        )
    return most_h, most_k


def _upto(n: int) -> str:
    return f"more than {ENCODING_LIMIT}" if n > ENCODING_LIMIT else f"up to {n}"


class Warfighter(Ruleset):
    """Warfighter with the Dagon expansion's ability checks and Doors, on a stand-in core."""

    id = "warfighter"
    aliases = ("wf",)
    version = "0.1.0"
    metadata = GameMetadata(
        name="Warfighter: ability checks and Doors (Dagon)",
        seats=(SEAT,),
        sides={SEAT: "squad"},
        min_players=1,
        max_players=1,
        information="imperfect",
        simultaneous=False,
        # Per turn: at most 6 Soldiers x (6 Actions + the Actions cards give) plus the
        # pending rolls; 50 turns at most.
        max_length=50 * 120,
        description=(
            "A squad of Soldiers works through Locations: ability checks under Success, "
            "Fail and Trap headings, and Hostiles behind Doors to attack or pick."
        ),
    )
    default_bots: ClassVar[Mapping[str, str]] = MappingProxyType({SEAT: "wf-heuristic"})
    notation_help = """\
  move S1 L2          a Soldier moves to a connected Location (1 Action)
  attack S1 H3        attack a Hostile on the Soldier's Location (1 Action)
  attack S1 H3 door   attack the Hostile's Door instead
  pick S2 H3 [up]     a Pick check on the Door (1 Action; upgunned: 2)
  check S1 K4 [up]    attempt a Success check on the Location (1 Action; upgunned: 2)
  roll S3 K5 [up]     who rolls the Fail check waiting (upgunned: 1 Action)
  end                 end the Soldier Turn: the hostile turn follows"""
    config_schema = ConfigSchema(
        (
            Option(
                "mission",
                str,
                SHIPPED_MISSIONS[0],
                f"A shipped mission ({', '.join(SHIPPED_MISSIONS)}) or a .wf file's path.",
                rule="WF-C7",
                file_suffix=".wf",
                offered=SHIPPED_MISSIONS,
            ),
            Option(
                "mission_digest",
                str,
                "",
                "The mission file's digest, filled in when empty; a record keeps it, and a "
                "file that no longer matches is refused.",
                filled=True,
            ),
            Option(
                "turns",
                int,
                0,
                "The turn limit (0: the mission's).",
                minimum=0,
                maximum=50,
                rule="WF-C7",
            ),
        )
    )

    def new_game(self, config: Mapping[str, Any] | None = None, seed: int | str = 0) -> State:
        cfg = self.resolve_config(config)
        mission, library = mission_of(cfg)
        return WarfighterState(self, cfg, seed, mission, library)

    def view(self, state: State, seat: str | None) -> PlayerView:
        """The observer: ``seat``'s view of ``state``, built from what it may know
        (:mod:`.observer`)."""
        return PlayerView(self.id, seat, build_view(cast(WarfighterState, state), seat))

    def sample_world(self, view: PlayerView, stream: Stream) -> State:
        """A full state consistent with ``view``: the decks' order and the rolls to come
        drawn from ``stream`` (:mod:`.worlds`)."""
        from .worlds import sample_world

        return sample_world(self, view, stream)

    def world_sampler(self, view: PlayerView) -> WorldSampler:
        """Worlds from ``view`` as :meth:`sample_world` draws them, the table the view
        shows laid out once for them all (:func:`.worlds.sample_kept`)."""
        from .worlds import sample_kept

        return KeptSampler(sample_kept, self, view)

    def evaluation(self, config: Mapping[str, Any]) -> Evaluation:
        """The squad's chance from a full state (:mod:`.evaluation`), for ``ismcts``'s
        ``depth``: one model for every mission and turn limit, its features fractions of
        the mission's own numbers."""
        from .evaluation import SQUAD_CHANCE

        return SQUAD_CHANCE

    def umpire_sides(self, config: Mapping[str, Any] | None = None) -> tuple[str, ...]:
        """A lost mission is the hostiles' win (WF-C7): the umpire's side."""
        return (HOSTILES,)

    def odds_queries(self) -> Sequence[OddsQuery]:
        """The rolls whose exact odds ``fogofwar odds`` gives (see :mod:`.odds`)."""
        return QUERIES

    def missions(self) -> Mapping[str, str]:
        out = {}
        for name in SHIPPED_MISSIONS:
            card, _, _ = _load(name)
            out[name] = f"{card.name}: {card.objective}"
        return out

    def data_formats(self) -> Sequence[DataFormat]:
        """Card files: the shipped library and missions (a mission file is read with the
        library, as ``--set mission=FILE`` reads it)."""
        from importlib import resources

        folder = resources.files("fogofwar").joinpath("data", "warfighter")
        names = (LIBRARY_FILE, *(f"{m}.wf" for m in SHIPPED_MISSIONS))
        samples = {n: folder.joinpath(n).read_text(encoding="utf-8") for n in names}

        def load(text: str, file: str) -> object:
            own = parse_cards(text, file=file)
            if file == LIBRARY_FILE:
                return merge(own)
            return merge(parse_cards(samples[LIBRARY_FILE], file=LIBRARY_FILE), own)

        return (DataFormat("a Warfighter card or mission file", samples, load),)

    def encoding(self, config: Mapping[str, Any] | None = None) -> ActionEncoding:
        cfg = self.resolve_config(config)
        mission, library = mission_of(cfg)
        most_h, most_k = capacity(mission, library)
        soldiers = [f"S{i}" for i in range(1, _SOLDIERS + 1)]
        slots = [f"L{i}" for i in range(1, mission.slots + 3)]
        hostiles = [f"H{i}" for i in range(1, max(MAX_HOSTILES, most_h) + 1)]
        checks = [f"K{i}" for i in range(1, max(MAX_CHECKS, most_k) + 1)]
        t: list[tuple[str, tuple[int | str, ...]]] = [("end", ())]
        for s in soldiers:
            t += [("move", (s, loc)) for loc in slots]
            for h in hostiles:
                t += [("attack", (s, h)), ("attack", (s, h, "door"))]
                t += [("pick", (s, h)), ("pick", (s, h, "up"))]
            for k in checks:
                t += [("check", (s, k)), ("check", (s, k, "up"))]
                t += [("roll", (s, k)), ("roll", (s, k, "up"))]
        return ActionEncoding(t)

    def observation_encoder(self, config: Mapping[str, Any] | None = None) -> ObservationEncoder:
        """The squad's view as counts and one-hot cards (:class:`.encoder.
        WarfighterEncoder`), laid out for the mission and its card library."""
        cfg = self.resolve_config(config)
        mission, library = mission_of(cfg)
        most_h, most_k = capacity(mission, library)
        return WarfighterEncoder(mission, library, most_hostiles=most_h, most_checks=most_k)

    def describe_event(self, event: Mapping[str, Any]) -> str | None:
        return event_line(event) or plain_event(event)

    def render(self, view: PlayerView, config: Mapping[str, Any]) -> object:
        """The line of Locations with their Hostiles and checks, the squad, this turn's
        events."""
        return render_view(view, config)

    def parse_actions(self, text: str, seat: str, state: State) -> list[Action]:
        """Notation: ``move S1 L2``, ``attack S1 H3 [door]``, ``pick S2 H3 [up]``,
        ``check S1 K4 [up]``, ``roll S3 K5 [up]``, ``end``; case does not matter, and
        several actions may be separated by ``;``. Every word is ASCII letters and digits
        (an id such as ``S1`` or a word such as ``door``); any other text raises
        :class:`InvalidNotationError` saying what was expected. Which ids and words an
        action takes is then the rules' to check (refusals name the rule)."""
        if len(text) > MAX_NOTATION:
            raise InvalidNotationError(
                text, f"expected at most {MAX_NOTATION} characters on one line"
            )
        out: list[Action] = []
        parts = text.split(";")
        if len(parts) > MAX_LINE_ACTIONS:
            raise InvalidNotationError(
                text, f"expected at most {MAX_LINE_ACTIONS} actions separated by ';'"
            )
        offset = 0
        for part in parts:
            words = part.split()
            if not words:
                raise InvalidNotationError(
                    text, "expected an action (help lists them)", position=offset
                )
            at = offset
            positions = []
            for w in words:
                at = text.index(w, at)
                positions.append(at)
                at += len(w)
            kind = words[0].lower() if words[0].isascii() else ""
            if kind not in SHAPES:
                raise InvalidNotationError(
                    text,
                    f"unknown action {words[0]!r}: expected move, attack, pick, check, roll, end",
                    position=positions[0],
                )
            for w, pos in zip(words[1:], positions[1:], strict=True):
                if not _WORD_RE.fullmatch(w):
                    raise InvalidNotationError(
                        text,
                        f"expected {SHAPES[kind][0]}: ids such as S1, H3, K4, L2 and the "
                        "words door and up (ASCII letters and digits)",
                        position=pos,
                    )
            args: list[int | str] = [w.upper() for w in words[1:3]]
            args += [w.lower() for w in words[3:]]
            out.append(Action(seat, kind, tuple(args)))
            offset += len(part) + 1
        return out

    def malformed(self, action: Action, config: Config) -> tuple[str, str | None] | None:
        """As the core's, but an action of a known kind whose words do not fit its
        notation is refused with the rule that defines it (WF-C7 ``end``, WF-A7 ``up``
        on a move or an attack, WF-C2 ``move S L``, ...), as the state explains it."""
        if action.seat == SEAT and action.kind in SHAPES:
            shape = shape_error(action.kind, action.args)
            if shape is not None:
                return shape
        return super().malformed(action, config)

    def yes_no_metrics(self, config: Mapping[str, Any] | None = None) -> frozenset[str] | None:
        """The mission won; the rest are counts."""
        return frozenset({"won"})

    def metrics(self, state: State) -> dict[str, float]:
        """Per-mission figures: won (1/0), turns played, Breaches by attack and by pick,
        ability checks rolled and failed (Pick checks included; a lacking Soldier makes
        no roll, WF-A8, and is counted in ``checks_lacking`` instead), Hostiles killed,
        Soldiers lost."""
        if not isinstance(state, WarfighterState):
            return {}
        outcome = state.outcome()
        return {
            "won": 1.0 if outcome is not None and outcome.winners else 0.0,
            "turns": float(state.turn),
            "breaches_attack": float(state.counts.breaches_attack),
            "breaches_pick": float(state.counts.breaches_pick),
            "checks_rolled": float(state.counts.checks_rolled),
            "checks_failed": float(state.counts.checks_failed),
            "checks_lacking": float(state.counts.checks_lacking),
            "hostiles_killed": float(state.counts.hostiles_killed),
            "soldiers_lost": float(sum(s.out for s in state.soldiers.values())),
        }

    def resolve_config(self, config: Mapping[str, Any] | None = None) -> Config:
        """The options; the mission is checked to load (a bad one fails here), and an
        empty ``mission_digest`` is filled in with the digest of the mission's text, so
        that a record of a mission file replays exactly or is refused by
        :meth:`new_game` once the file has changed."""
        cfg = super().resolve_config(config)
        _check_digest(str(cfg["mission_digest"]))
        _, _, digest = _load_mission(str(cfg["mission"]))
        if not cfg["mission_digest"]:
            cfg = Config({**cfg, "mission_digest": digest})
        return cfg
