"""The ``warfighter`` rule set: metadata, options, action encoding, notation, metrics."""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from types import MappingProxyType
from typing import Any, ClassVar

from ...core.errors import BadDataError, InvalidNotationError, RulesError
from ...core.game import (
    Action,
    ActionEncoding,
    Config,
    ConfigSchema,
    GameMetadata,
    Option,
    PlayerView,
    Ruleset,
    State,
)
from .cards import SHIPPED_MISSIONS, CardLibrary, CheckCard, MissionCard, read_mission
from .state import SEAT, WarfighterState

__all__ = ["ENCODING_LIMIT", "MAX_CHECKS", "MAX_HOSTILES", "Warfighter", "capacity", "mission_of"]

#: The least number of Hostile ids (H1…) and check ids (K1…) the action encoding covers;
#: a mission that can put more in play gets a larger encoding (see :func:`capacity`).
MAX_HOSTILES = 40
MAX_CHECKS = 40
#: The most Hostiles, and the most checks, a mission may put in play: beyond this a
#: mission file is refused on load (the action encoding would grow without use).
ENCODING_LIMIT = 400
_SOLDIERS = 6


@lru_cache(maxsize=32)
def _load(name: str) -> tuple[MissionCard, CardLibrary, str]:
    return read_mission(name)


def _read(name: str) -> tuple[MissionCard, CardLibrary, str]:
    try:
        # Shipped missions are read once; a file is read again (it may have changed).
        found = _load(name) if name.lower() in SHIPPED_MISSIONS else read_mission(name)
    except LookupError as exc:
        raise RulesError(str(exc)) from None
    except OSError as exc:
        raise BadDataError(name, f"a readable mission file ({exc.strerror})") from None
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
    mission, library, digest = _read(str(config["mission"]))
    given = str(config.get("mission_digest", ""))
    if given and given != digest:
        raise BadDataError(
            mission.file,
            f"the mission file as it was when the record was made (digest {given})",
            found=f"digest {digest}: the file changed since the record was made",
        )
    return mission, library


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

    def adds(checks: tuple[CheckCard, ...], path: tuple[str, ...]) -> tuple[int, int]:
        h = k = 0
        for check in checks:
            for heading in check.headings:  # an upper bound: all headings, not just one
                for e in heading.effects:
                    if e.verb == "add":
                        dh, dk = hostile(e.target, path)
                        h, k = h + dh, k + dk
        return h, k

    def hostile(name: str, path: tuple[str, ...] = ()) -> tuple[int, int]:
        if name in path:
            raise BadDataError(
                mission.file,
                "Hostiles that cannot add one another without end",
                line=mission.line,
                found=" -> ".join((*path, name)),
            )
        if name not in memo:
            card = library.hostiles[name]
            dh, dk = adds(card.checks, (*path, name))
            memo[name] = (1 + dh, len(card.checks) + dk)
        return memo[name]

    def location(name: str) -> tuple[int, int]:
        card = library.locations[name]
        h, k = adds(card.checks, ())
        k += len(card.checks)
        for n in card.hostiles:
            dh, dk = hostile(n)
            h, k = h + dh, k + dk
        return h, k

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
            found=f"up to {most_h} Hostiles and {most_k} checks",
        )
    return most_h, most_k


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
        chance="explicit",
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
            ),
            Option(
                "mission_digest",
                str,
                "",
                "The mission file's digest, filled in when empty; a record keeps it, and a "
                "file that no longer matches is refused.",
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

    def render(self, view: PlayerView, config: Mapping[str, Any]) -> object:
        """The line of Locations with their Hostiles and checks, the squad, this turn's
        events."""
        from .render import render_view

        return render_view(view.data)

    def parse_actions(self, text: str, seat: str, state: State) -> list[Action]:
        """Notation: ``move S1 L2``, ``attack S1 H3 [door]``, ``pick S2 H3 [up]``,
        ``check S1 K4 [up]``, ``roll S3 K5 [up]``, ``end``; case does not matter, and
        several actions may be separated by ``;``."""
        out: list[Action] = []
        for part in text.split(";"):
            words = part.split()
            if not words:
                raise InvalidNotationError(text, "expected an action (help lists them)")
            kind = words[0].lower()
            if kind not in ("move", "attack", "pick", "check", "roll", "end"):
                raise InvalidNotationError(
                    text,
                    f"unknown action {words[0]!r}: move, attack, pick, check, roll, end",
                    position=text.index(words[0]),
                )
            args: list[int | str] = [w.upper() for w in words[1:3]]
            args += [w.lower() for w in words[3:]]
            out.append(Action(seat, kind, tuple(args)))
        return out

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
            "breaches_attack": float(state.counts["breaches_attack"]),
            "breaches_pick": float(state.counts["breaches_pick"]),
            "checks_rolled": float(state.counts["checks_rolled"]),
            "checks_failed": float(state.counts["checks_failed"]),
            "checks_lacking": float(state.counts["checks_lacking"]),
            "hostiles_killed": float(state.counts["hostiles_killed"]),
            "soldiers_lost": float(sum(s.out for s in state.soldiers.values())),
        }

    def resolve_config(self, config: Mapping[str, Any] | None = None) -> Config:
        """The options; the mission is checked to load (a bad one fails here), and an
        empty ``mission_digest`` is filled in with the digest of the mission's text, so
        that a record of a mission file replays exactly or is refused by
        :meth:`new_game` once the file has changed."""
        cfg = super().resolve_config(config)
        _, _, digest = _read(str(cfg["mission"]))
        if not cfg["mission_digest"]:
            cfg = Config({**cfg, "mission_digest": digest})
        return cfg
