"""The true state of a Warfighter mission, and its rules as a phase table.

One seat, ``squad``, plays the Soldiers; the hostile turn is the umpire's, its dice from
keyed streams. The hidden facts are the order of the Location deck and of the Hostile
deck; every event is public.

The table (:data:`WarfighterState.rules <WarfighterState>`), phase by phase:

* **soldiers** — the Soldier Turn: ``move S L`` (WF-C2), ``attack S H [door]`` (WF-C4,
  WF-D1…D7), ``pick S H [up]`` (WF-D5), ``check S K [up]`` (WF-A5…A8), ``end``
  (WF-C7); ``roll`` is refused, no Fail check waiting (WF-A9).
* **roll** — a Fail check waits for the player to pick its roller: ``roll S K [up]``
  (WF-A9, WF-A10); anything else is refused until it is rolled.
* **over** — nothing.

Every move but ``end`` is followed by :func:`~.checks.settle` (the Fail checks that
offer no choice are rolled; the Objective may be cleared).
"""

from __future__ import annotations

from collections.abc import Callable
from types import MappingProxyType
from typing import Any, ClassVar, Final

from ....core.cards import Deck, Pile
from ....core.game import Action, Config, Event, Outcome, Ruleset, emit
from ....core.rng import Stream, Streams
from ....core.rules import Move, PhaseTable, Refusal, TableState, flag_param, text_param
from ..cards import CardLibrary, MissionCard, WeaponCard
from . import checks, combat, turn
from .line import reveal
from .pieces import SEAT, Check, Counts, Hostile, Pending, Phase, Soldier, SoldierId
from .table import SHAPES, shape_error

__all__ = ["WarfighterState"]

_SQUAD: Final = frozenset({SEAT})
_NOBODY: Final[frozenset[str]] = frozenset()


class WarfighterState(TableState):
    """The true state of one Warfighter mission (the umpire's secret)."""

    rules: ClassVar[PhaseTable[WarfighterState]]

    def __init__(
        self,
        ruleset: Ruleset,
        config: Config,
        seed: int | str,
        mission: MissionCard,
        library: CardLibrary,
    ) -> None:
        self.ruleset = ruleset
        self.config = config
        self._streams = Streams(seed)  # secret: never reaches a view or an event
        self.mission = mission
        self.library = library
        self.turns: int = int(config["turns"]) or mission.turns
        # The line of Locations: the start, the face-down slots, the Objective.
        self.slot_count = mission.slots + 2
        self.slot_names = tuple(f"L{i + 1}" for i in range(self.slot_count))
        self.slot_index = MappingProxyType({name: i for i, name in enumerate(self.slot_names)})
        self.slots: list[str | None] = [None] * self.slot_count
        self.location_deck: Pile[str] = Pile(mission.deck, name="locations")
        self.location_deck.shuffle(self._streams.stream("location-deck"))
        self.hostile_deck: Deck[str] = Deck(mission.hostile_deck, name="hostiles")
        self.hostile_deck.shuffle(self._streams.stream("hostile-deck"))
        self.soldiers: dict[str, Soldier] = {}
        self.hostiles: dict[str, Hostile] = {}
        self.checks: dict[str, Check] = {}
        self.pending: list[Pending] = []
        self.turn = 1
        self.phase = Phase.SOLDIERS
        self.result: Outcome | None = None
        self.log: list[Event] = []
        self.turn_start = 0  # where this turn's events start in the log (the view's)
        self.counts = Counts()
        for i, name in enumerate(mission.squad, 1):
            card = library.soldiers[name]
            sid = SoldierId(f"S{i}")
            self.soldiers[sid] = Soldier(sid, card, 0, card.actions)
        emit(
            self.log,
            "mission",
            name=mission.name,
            turns=self.turns,
            locations=self.slot_count,
            objective=mission.objective,
        )
        reveal(self, 0, mission.start)

    # ------------------------------------------------------------------ queries

    @property
    def objective_slot(self) -> int:
        """The Objective's slot (the last of the line)."""
        return self.slot_count - 1

    def slot_name(self, slot: int) -> str:
        """``L1`` for the start, and so on."""
        return self.slot_names[slot]

    def standing(self, slot: int | None = None) -> list[Soldier]:
        """Soldiers not out (on ``slot``, if given), in id order."""
        return [s for s in self.soldiers.values() if not s.out and (slot is None or s.slot == slot)]

    def hostiles_at(self, slot: int) -> list[Hostile]:
        """The living Hostiles on a Location, in id order."""
        return [h for h in self.hostiles.values() if h.alive and h.slot == slot]

    def checks_at(self, slot: int) -> list[Check]:
        """The checks on a Location (its card's and its Hostiles'), in id order."""
        return [k for k in self.checks.values() if k.slot == slot and not k.gone]

    def weapon(self, s: Soldier) -> WeaponCard:
        """The Soldier's weapon card."""
        return self.library.weapons[s.card.weapon]

    def stream(self, purpose: str, *keys: int | str) -> Stream:
        """The keyed stream of one chance point (WF-C5): keyed by what it is, so no
        other draw can shift it."""
        return self._streams.stream(purpose, *keys)

    # ------------------------------------------------------------------ protocol

    def to_act(self) -> frozenset[str]:
        return _NOBODY if self.phase is Phase.OVER else _SQUAD

    def outcome(self) -> Outcome | None:
        return self.result

    def event_log(self) -> list[Event]:
        return self.log


# --------------------------------------------------------------------------- the table

# Ids as text: one that names nothing in play is refused by the move's check, under the
# rule it breaks (a Soldier not in the squad, WF-C1; a Hostile not in play, WF-C3; ...).
_S, _H = text_param("soldier"), text_param("hostile")
_K, _L = text_param("check"), text_param("location")


def _settled(
    effect: Callable[[WarfighterState, str, Any], None],
) -> Callable[[WarfighterState, str, Any], None]:
    """``effect``, then the Fail checks that offer no choice and the Objective."""

    def run(st: WarfighterState, seat: str, args: Any) -> None:
        effect(st, seat, args)
        checks.settle(st)

    return run


def _of_kind(kind: str) -> Callable[[WarfighterState, str], list[tuple[Any, ...]]]:
    """A move's options: the Soldier Turn's candidates of its kind."""

    def options(st: WarfighterState, seat: str) -> list[tuple[Any, ...]]:
        return [args for k, args in turn.soldier_turn(st, seat) if k == kind]

    return options


def _notation(st: WarfighterState, action: Action) -> Refusal | None:
    """A kind the game does not have is the protocol's to refuse; an action whose words
    do not fit its notation is refused with the rule that defines it."""
    if action.kind not in SHAPES:
        return st.protocol_refusal(action)
    return shape_error(action.kind, action.args)


def _takes(kind: str) -> str:
    return f"{kind} is written {SHAPES[kind][0]}"


WarfighterState.rules = PhaseTable(
    phase=lambda st: st.phase,
    moves={
        Phase.SOLDIERS: (
            Move("move", "WF-C2", turn.check_move, _settled(turn.move), (_S, _L),
                   _of_kind("move"), complete=True, takes=_takes("move")),
            Move("attack", "WF-C4", combat.check_attack, _settled(combat.attack),
                     (_S, _H, flag_param("door")), _of_kind("attack"), complete=True,
                     takes=_takes("attack")),
            Move("pick", "WF-D5", combat.check_pick, _settled(combat.pick),
                     (_S, _H, flag_param("up")), _of_kind("pick"), complete=True,
                     takes=_takes("pick")),
            Move("check", "WF-A5", checks.check_attempt, _settled(checks.attempt),
                     (_S, _K, flag_param("up")), _of_kind("check"), complete=True,
                     takes=_takes("check")),
            Move("end", "WF-C7", turn.check_end, turn.end, (), complete=True,
                   takes="end takes no arguments: it ends the whole Soldier Turn"),
        ),
        Phase.ROLL: (
            Move("roll", "WF-A9", checks.check_roll, _settled(checks.roll),
                     (_S, _K, flag_param("up")), checks.roll_options, complete=True,
                     takes=_takes("roll")),
        ),
    },
    phase_rules={
        Phase.SOLDIERS: lambda st, action: (
            _notation(st, action) or ("there is no Fail check to roll now", "WF-A9")
        ),
        Phase.ROLL: lambda st, action: checks.roll_first(st),
    },
    order={Phase.SOLDIERS: turn.soldier_turn},
    notation=_notation,
)  # fmt: skip
